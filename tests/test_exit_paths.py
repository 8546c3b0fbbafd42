"""``omaha play --record`` saves what was played on every way out: SIGTERM and SIGHUP
(real signals, to a real process), Ctrl-C, any error, end of input; a pasted
5000-digit number is an illegal choice, not an error. Scenario files that are not
regular files are refused by name, and ``omaha new`` takes non-ASCII names."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import omaha
from omaha import cli
from omaha.terminal import Terminal


def _replays(record: Path) -> omaha.GameRecord:
    saved = omaha.GameRecord.from_json(record.read_text(), record.name)
    state = omaha.load(saved.game).replay(saved, name=record.name)
    assert len(state.actions) == len(saved.actions)
    return saved


class _Reader(threading.Thread):
    """Reads a process's output as it comes, so the test can wait for a prompt."""

    def __init__(self, stream: io.TextIOBase) -> None:
        super().__init__(daemon=True)
        self.stream, self.text = stream, ""

    def run(self) -> None:
        while chunk := self.stream.read(1):
            self.text += chunk

    def wait_for(self, what: str, count: int = 1, timeout: float = 90) -> None:
        end = time.monotonic() + timeout
        while self.text.count(what) < count:
            assert time.monotonic() < end, f"no {what!r} in {self.text[-300:]!r}"
            time.sleep(0.02)


def _play(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], _Reader]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "omaha", "play", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as in a terminal
    )
    assert proc.stdout is not None
    reader = _Reader(proc.stdout)  # type: ignore[arg-type]
    reader.start()
    return proc, reader


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_at_the_prompt_saves_the_game_so_far(tmp_path: Path, signum: int) -> None:
    record = tmp_path / "so-far.json"
    proc, reader = _play(tmp_path, "lnl", "--record", str(record))
    assert proc.stdin is not None
    with proc:
        reader.wait_for("German> ")
        proc.stdin.write("2\n")  # the first German placement, by number (1: the whole plan)
        proc.stdin.flush()
        reader.wait_for("German> ", 2)  # the second decision: one action played
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    what = {signal.SIGTERM: "terminated (SIGTERM)", signal.SIGHUP: "hung up (SIGHUP)"}
    expected = what.get(signum, "interrupted")
    assert proc.returncode == 128 + signum
    assert err == f"omaha: {expected}; the game so far is saved in {record}\n"
    saved = _replays(record)
    assert saved.game == "lnl" and len(saved.actions) == 1 and saved.result is None


@pytest.mark.parametrize("delay", [0.3, 1.2])
def test_sigterm_in_the_middle_of_bot_moves_saves_whole_moves(tmp_path: Path, delay: float) -> None:
    """Bots play the whole game; the signal comes while they compute, maybe inside a move
    (its dice half drawn): the record holds the whole moves and replays."""
    record = tmp_path / "bots.json"
    proc, reader = _play(
        tmp_path, "lnl", "--bot", "US=heuristic", "--bot", "German=solitaire",
        "--record", str(record),
    )  # fmt: skip
    with proc:
        reader.wait_for("[")  # the log has begun
        time.sleep(delay)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    if "game record saved" in reader.text:  # the game ended first: saved the ordinary way
        # and the signal came before the end (0), or as the interpreter shut down (-15)
        assert proc.returncode in (0, -signal.SIGTERM)
    else:
        assert proc.returncode == 128 + signal.SIGTERM
        assert err.endswith(f"the game so far is saved in {record}\n")
    assert _replays(record).actions


def test_a_pasted_5000_digit_number_is_an_illegal_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "r.json"
    lines = ["9" * 5000, "log " + "9" * 5000, "0" * 4999 + "2", ""]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines)))
    assert cli.main(["play", "lnl", "--record", str(record), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "illegal: 999999999999… is not one of the choices offered (1 to " in out
    assert "game record saved to" in out
    assert len(_replays(record).actions) == 1  # the zero-padded 2 was played


def test_any_error_saves_the_game_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "r.json"
    decide = Terminal.decide
    calls = []

    def failing(self: Terminal) -> bool:
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("a bug")
        return decide(self)

    monkeypatch.setattr(Terminal, "decide", failing)
    monkeypatch.setattr(sys, "stdin", io.StringIO("2\n2\n"))
    with pytest.raises(RuntimeError, match="a bug"):
        cli.main(["play", "lnl", "--record", str(record), "--quiet"])
    assert f"omaha: the game so far is saved in {record}" in capsys.readouterr().err
    assert len(_replays(record).actions) == 2


def test_a_state_stopped_inside_a_move_is_saved_as_of_its_last_whole_move() -> None:
    """A signal inside ``apply`` may leave dice drawn for a move not taken: the record
    is of the game replayed through its actions, so it replays."""
    from omaha.session import Session

    session = Session("lnl", seed=3, bots={"German": "solitaire"})
    session.choose(1)
    state = session.state
    state.dice.roll(6)  # as if a move had begun drawing its dice
    assert not _fits(state.record())
    saved = session.replayed().record()  # what play --record saves when stopped
    assert _fits(saved) and saved.actions == state.record().actions


def _fits(record: omaha.GameRecord) -> bool:
    try:
        omaha.load(record.game).replay(record)
    except omaha.RecordError:
        return False
    return True


# --------------------------------------------------------------------------
# Files that are not regular files, names that are not ASCII
# --------------------------------------------------------------------------
SCENARIO = """[scenario]
game = "lnl"
extends = "beach"
id = "odd"
title = "odd"
source = "reconstructed: a test"
[components]
map = "map.toml"
"""


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_component_that_is_no_regular_file_is_refused_by_name(tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(tmp_path / "map.toml")  # validate would wait for a writer forever
    else:
        os.symlink("/dev/zero", tmp_path / "map.toml")  # read whole: a MemoryError
    (tmp_path / "odd.toml").write_text(SCENARIO)
    done = subprocess.run(
        [sys.executable, "-m", "omaha", "validate", "odd.toml", "map.toml"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    shown = "a named pipe" if kind == "fifo" else "a device"
    lines = done.stdout.splitlines()
    assert done.returncode == cli.EXIT_PROBLEMS and "Traceback" not in done.stderr
    assert lines[:2] == [f"map.toml: cannot be read ({shown}, not a regular file)"] * 2
    with pytest.raises(omaha.ScenarioError, match=rf"^map\.toml: cannot be read \({shown}"):
        omaha.load("lnl").load_scenario(tmp_path / "odd.toml")
    replay = subprocess.run(
        [sys.executable, "-m", "omaha", "replay", "map.toml"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert replay.returncode == cli.EXIT_USAGE
    assert replay.stderr == f"omaha: map.toml: cannot be read ({shown}, not a regular file)\n"


def test_a_file_too_large_is_refused(tmp_path: Path) -> None:
    from omaha.kernel.files import MAX_DATA_BYTES

    with open(tmp_path / "map.toml", "wb") as big:
        big.truncate(MAX_DATA_BYTES + 1)  # sparse: nothing written
    (tmp_path / "odd.toml").write_text(SCENARIO)
    with pytest.raises(omaha.ScenarioError, match=r"^map\.toml: cannot be read \(larger than 16"):
        omaha.load("lnl").load_scenario(tmp_path / "odd.toml")


@pytest.mark.parametrize("game", ["lnl", "tcs", "bloody", "landing_table"])
def test_omaha_new_takes_a_name_that_is_not_ascii(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["new", game, "été"]) == 0
    text = (tmp_path / "été.toml").read_text(encoding="utf-8")
    assert omaha.load(game).load_scenario(tmp_path / "été.toml").title == "été"
    assert json.dumps("été") in text or '"été"' in text
