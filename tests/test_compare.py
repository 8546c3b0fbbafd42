"""The comparison tool, run on the toy game."""

import json
import math
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


def test_not_applicable_metrics_are_left_out() -> None:
    runs = (
        compare.Run(1, "won", "US", {"a": 1.0, "b": math.nan}, 3),
        compare.Run(2, "lost", None, {"a": 0.0, "b": 0.5}, 4),
    )
    col = compare.Column("g", "G", "s", {"US": "random"}, runs)
    assert col.values("a") == [1.0, 0.0]
    assert col.values("b") == [0.5]
    data = json.loads(compare.to_json([col]))
    assert data[0]["runs"][0]["metrics"] == {"a": 1.0, "b": None}
