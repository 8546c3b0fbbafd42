"""The omaha command, driven in-process with the toy game registered."""

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from toygame import GAME

import omaha
from omaha import cli
from omaha.registry import unregister


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    omaha.register(GAME)
    yield
    unregister("toy")


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "toy: Toy landing (test fixture)" in out
    assert "scenarios: beach" in out and "bots:      random" in out


def test_play_with_bots_record_and_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    assert cli.main(["play", "toy", "--seed", "4", "--bot", "random", "--record", str(record)]) == 0
    played = capsys.readouterr().out
    assert "Result: " in played and "[Turn 1 · event] event card:" in played
    assert cli.main(["replay", str(record)]) == 0
    replayed = capsys.readouterr().out
    result = [line for line in played.splitlines() if line.startswith("Result:")]
    assert result and result[0] in replayed
    assert cli.main(["replay", str(record), "--scripted"]) == 0


def test_play_by_hand(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # the US types an illegal step, then ends moves by number and by notation; the German bot plays
    answers = io.StringIO("step A1\n1\n" + "end moves\n" * 10 + "q\n")
    monkeypatch.setattr(sys, "stdin", answers)
    assert cli.main(["play", "toy", "--seed", "1", "--bot", "German=random"]) == 0
    out = capsys.readouterr().out
    assert "illegal: 'step A1' is not a legal action now" in out
    assert "US> " in out and "1. end moves" in out
    assert "Result: German victory" in out


def test_render_and_provenance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "toy.svg"
    assert cli.main(["render", "toy", "--out", str(out)]) == 0
    svg = out.read_text()
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert "E3" in svg
    later = tmp_path / "later.svg"
    assert cli.main(["render", "toy", "--bot", "random", "--steps", "3", "--out", str(later)]) == 0
    assert later.read_text() != svg
    hidden = tmp_path / "us.svg"
    assert cli.main(["render", "toy", "--player", "US", "--out", str(hidden)]) == 0
    assert ">mg<" not in hidden.read_text() and ">mg<" in svg
    assert cli.main(["render", "toy", "--bot", "German=random", "--out", str(later)]) == 2
    assert "no bot plays US" in capsys.readouterr().err
    assert cli.main(["provenance", "toy"]) == 0
    assert "RECONSTRUCTED scenario beach: test fixture" in capsys.readouterr().out


def test_errors_are_reported_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "nope"]) == 2
    assert "no game named 'nope'" in capsys.readouterr().err
    assert cli.main(["play", "toy", "--bot", "Martian=random"]) == 2
    assert "has no side 'Martian'" in capsys.readouterr().err
    assert cli.main(["play", "toy", "--bot", "genius"]) == 2
    assert "has no bot 'genius'" in capsys.readouterr().err


def test_demo_runs_every_installed_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--tail", "3"]) == 0
    out = capsys.readouterr().out
    for name in omaha.games():
        assert omaha.load(name).title in out


def test_compare_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "runs.json"
    assert cli.main(["compare", "--game", "toy", "--runs", "6", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "toy/beach" in text and "turns_played" in text and "Outcomes" in text
    runs = json.loads(out.read_text())[0]["runs"]
    assert [r["seed"] for r in runs] == [1, 2, 3, 4, 5, 6]
    assert cli.main(["compare", "--runs", "0"]) == 2
