"""The comparison tool, run on the toy game."""

from collections.abc import Iterator

import pytest
from toygame import GAME

import omaha
from omaha import compare
from omaha.registry import unregister


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    omaha.register(GAME)
    yield
    unregister("toy")


def test_runs_are_seeded_and_independent_of_workers() -> None:
    one = compare.run_column("toy", "beach", range(1, 9))
    two = compare.run_column("toy", "beach", range(1, 9), workers=2)
    assert one == two
    again = compare.play_one("toy", "beach", 3)
    assert one.runs[2] == again


def test_metrics_and_outcomes_are_aggregated() -> None:
    col = compare.run_column("toy", "beach", range(1, 41))
    assert len(col.runs) == 40
    squads = col.values("squads_left")
    assert all(0 <= v <= 2 for v in squads)
    levels = dict(col.levels())
    assert sum(levels.values()) == 40
    assert set(levels) <= {"US victory", "German victory"}
    text = compare.table([col])
    assert "toy/beach" in text
    mean = sum(col.values("turns_played")) / 40
    assert f"{mean:.2f}" in text
    assert "squads_left" not in text
    detail = compare.table([col], detail=True)
    squads_mean = sum(squads) / 40
    assert "toy/beach: design-specific metrics" in detail
    assert f"squads_left  {squads_mean:.2f}" in detail


def test_strongest_bot_preference() -> None:
    assert compare.strongest_bot(GAME) == "random"
