"""The prompt at a real terminal (driven through tmux): readline's line editing, history
and Tab completion."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


class Tmux:
    """One detached tmux session running a command in a 200x50 window."""

    def __init__(self, command: str, cwd: Path) -> None:
        self.name = f"omaha-{uuid.uuid4().hex[:8]}"
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", self.name, "-x", "200", "-y", "50",
             "-c", str(cwd), command],
            check=True,
        )  # fmt: skip

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def screen(self) -> str:
        done = subprocess.run(
            ["tmux", "capture-pane", "-p", "-S", "-200", "-t", self.name],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        return done.stdout

    def wait_for(self, what: str, count: int = 1, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while (screen := self.screen()).count(what) < count:
            assert time.monotonic() < end, f"no {what!r} (x{count}) on screen:\n{screen}"
            time.sleep(0.1)
        return screen

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], check=False)


@pytest.fixture
def bloody(tmp_path: Path) -> Iterator[Tmux]:
    command = f"{shlex.quote(sys.executable)} -m omaha play bloody --seed 1 --quiet; sleep 30"
    term = Tmux(command, tmp_path)
    try:
        term.wait_for("US>")  # tmux drops the trailing space
        yield term
    finally:
        term.close()


def test_up_brings_back_the_last_line_typed(bloody: Tmux) -> None:
    bloody.keys("nonsense", "Enter")
    bloody.wait_for("cannot read 'nonsense'")
    bloody.keys("Up", "Enter")  # the same line again, from the history
    bloody.wait_for("cannot read 'nonsense'", 2)


def test_line_editing_moves_inside_the_line(bloody: Tmux) -> None:
    bloody.keys("xyz", "Left", "Left", "Left", "Delete", "q", "Enter")  # xyz -> qyz
    bloody.wait_for("cannot read 'qyz'")


def test_tab_completes_a_choice(bloody: Tmux) -> None:
    bloody.keys("ret", "Tab", "Tab")  # 'return c0' is common to the three; a list of them
    screen = bloody.wait_for("return c09")
    assert "return c01" in screen and "return c06" in screen
    bloody.keys("6", "Enter")  # 'return c06' completed by hand: played
    bloody.wait_for("US>", 2)
    assert "illegal" not in bloody.screen()
