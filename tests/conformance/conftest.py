"""The conformance suite's long cases: the TCS campaign (144 turns over three days; a
random game is some 5,000 decisions on a 2,200-hex map) runs every shared check with the
slow tests (``-m slow``); its own tests (tests/tcs/test_campaign.py) play it in the quick
run."""

from __future__ import annotations

import pytest

LONG = ("[tcs-campaign]",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.endswith(LONG):
            item.add_marker(pytest.mark.slow)
