"""Options and summaries shared by the whole test suite.

``--fuzz-seconds S`` sets the time each fuzz test spends on each game and
scenario (default 3, or the environment variable ``OMAHA_FUZZ_SECONDS``): a
few seconds in CI, ``pytest tests/conformance/test_fuzz.py --fuzz-seconds 600``
for a long hunt. ``--fuzz-seed N`` replays exactly the seeded run a failure
names, without a time limit. The fuzz tests' totals are printed at the end.
"""

from __future__ import annotations

import os
from collections import Counter

import attrs
import pytest

DEFAULT_FUZZ_SECONDS = 3.0


@attrs.frozen
class FuzzBudget:
    """How long each fuzz test runs per case, or the one seed to replay."""

    seconds: float
    seed: int | None


def _positive_seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise ValueError(text)
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("omaha fuzzing")
    group.addoption(
        "--fuzz-seconds",
        type=_positive_seconds,
        default=None,
        help="seconds each fuzz test spends per game and scenario "
        f"(default {DEFAULT_FUZZ_SECONDS:g}, or $OMAHA_FUZZ_SECONDS)",
    )
    group.addoption(
        "--fuzz-seed",
        type=int,
        default=None,
        help="replay only this fuzz seed (a failure's reproducer names it), with no time limit",
    )
    parser.addoption(
        "--long-cases",
        action="store_true",
        help="also run the conformance suite's shared checks on the TCS campaign and june7",
    )


_STATS = pytest.StashKey[Counter[str]]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_STATS] = Counter()


@pytest.fixture
def fuzz_budget(request: pytest.FixtureRequest) -> FuzzBudget:
    seconds = request.config.getoption("--fuzz-seconds")
    if seconds is None:
        seconds = float(os.environ.get("OMAHA_FUZZ_SECONDS", DEFAULT_FUZZ_SECONDS))
    return FuzzBudget(float(seconds), request.config.getoption("--fuzz-seed"))


@pytest.fixture
def fuzz_stats(request: pytest.FixtureRequest) -> Counter[str]:
    """Counts the fuzz tests add to (printed in the terminal summary)."""
    return request.config.stash[_STATS]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    stats = terminalreporter.config.stash.get(_STATS, Counter())
    if stats:
        terminalreporter.write_line("fuzz: " + ", ".join(f"{stats[k]} {k}" for k in sorted(stats)))


#: The conformance suite's long cases: the TCS campaign (144 turns over three days; a
#: random game is some 5,000 decisions on a 2,200-hex map) and its 7 June scenario run
#: every shared check on whole games only when asked (``--long-cases``, marked slow):
#: all of them make the suite too long for CI; tests/tcs/test_campaign_conformance.py
#: runs each check once on a 300-decision prefix (and one whole random june7 game) in
#: every run, about a minute.
LONG_CASES = ("[tcs-campaign]", "[tcs-june7]")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    asked = config.getoption("--long-cases")
    skip = pytest.mark.skip(reason="a long case: pytest --long-cases runs it")
    for item in items:
        if "conformance" in item.nodeid and item.nodeid.endswith(LONG_CASES):
            item.add_marker(pytest.mark.slow)
            if not asked:
                item.add_marker(skip)
