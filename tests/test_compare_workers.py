"""The comparison survives its worker processes: a worker killed (kill -9, or the test
hook's exit) starts a new pool and the unfinished chunks run again with the same seeds,
so the result is unchanged; past two resubmissions it stops and keeps every finished
run; tasks go out in a bounded window; Ctrl-C is one line on every executor."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from toygame import GAME

import omaha
from omaha import cli, compare
from omaha.registry import unregister


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    omaha.register(GAME)
    yield
    unregister("toy")


def _serial(runs: int) -> list[compare.Column]:
    return compare.compare(["toy"], runs=runs, seed=5, size=2)


def test_a_worker_that_dies_once_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    once = tmp_path / "died"
    monkeypatch.setenv(compare.TEST_EXIT, f"6:{once}")
    with compare.executor("process", workers=2) as pool:
        columns = compare.compare(["toy"], runs=24, seed=5, pool=pool, size=2, workers=2)
    assert once.exists()  # the worker given runs 6-7 did exit
    assert repr(columns) == repr(_serial(24))


def test_kill_9_of_a_worker_gives_the_same_json(tmp_path: Path) -> None:
    """A real ``kill -9`` of a worker process while the comparison runs."""
    with compare.executor("process", workers=2) as pool:
        assert isinstance(pool, compare.ProcessPool)
        killed: list[int] = []

        def kill_one() -> None:
            while not killed:
                pids = pool.worker_pids()
                if pids:
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(pids[0])
                time.sleep(0.05)

        killer = threading.Thread(target=kill_one, daemon=True)
        killer.start()
        columns = compare.compare(["toy"], runs=60, seed=5, pool=pool, size=1, workers=2)
        killer.join(timeout=30)
    assert killed
    assert compare.to_json(columns) == compare.to_json(_serial(60))


def _compare_command(tmp_path: Path, name: str, *extra: str) -> tuple[int, Path]:
    out = tmp_path / f"{name}.json"
    argv = ["compare", "--game", "toy", "--runs", "24", "--seed", "5", "--executor", "process",
            "--workers", "2", "--chunk", "2", "--json", str(out), *extra]  # fmt: skip
    return cli.main(argv), out


def test_the_command_gives_the_same_json_when_a_worker_dies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, plain = _compare_command(tmp_path, "plain")
    assert status == 0
    monkeypatch.setenv(compare.TEST_EXIT, f"10:{tmp_path / 'died'}")
    status, survived = _compare_command(tmp_path, "survived")
    assert status == 0 and (tmp_path / "died").exists()
    assert survived.read_text() == plain.read_text()
    assert "Traceback" not in capsys.readouterr().err


def test_past_two_resubmissions_it_stops_and_keeps_every_finished_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(compare.TEST_EXIT, "10")  # dies every time it is given runs 10-11
    status, kept = _compare_command(tmp_path, "kept", "--csv", str(tmp_path / "kept.csv"))
    err = capsys.readouterr().err
    assert status == cli.EXIT_WORKERS_LOST
    assert len(err.splitlines()) == 1
    assert err.startswith(
        "omaha: stopped: worker processes died 3 times running toy/beach runs 10-11; "
    )
    runs = json.loads(kept.read_text())[0]["runs"]
    indices = [r["index"] for r in runs]
    assert 10 not in indices and 11 not in indices and indices == sorted(indices)
    assert f"{len(runs)} of 24 runs finished, in {kept} and {tmp_path / 'kept.csv'}" in err
    serial = json.loads(compare.to_json(_serial(24)))[0]["runs"]
    assert runs == [serial[i] for i in indices]  # every finished run as it would be


def test_a_plain_process_pool_that_breaks_stops_with_its_finished_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(compare.TEST_EXIT, f"4:{tmp_path / 'died'}")
    with cf.ProcessPoolExecutor(2) as pool, pytest.raises(compare.WorkersLost) as lost:
        compare.compare(["toy"], runs=12, seed=5, pool=pool, size=2, workers=2)
    assert "cannot start again" in str(lost.value)
    finished = lost.value.columns[0].runs
    serial = _serial(12)[0].runs
    assert all(repr(r) == repr(serial[r.index]) for r in finished)


class _Counting(cf.ThreadPoolExecutor):
    """Counts the tasks submitted and not yet finished."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.outstanding = self.most = 0
        self.lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        with self.lock:
            self.outstanding += 1
            self.most = max(self.most, self.outstanding)
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self.finished)
        return future

    def finished(self, _: cf.Future[Any]) -> None:
        with self.lock:
            self.outstanding -= 1


def test_tasks_are_submitted_in_a_bounded_window() -> None:
    with _Counting() as pool:
        columns = compare.compare(["toy"], runs=300, seed=5, pool=pool, size=1, workers=2)
    assert len(columns[0].runs) == 300
    assert pool.most <= compare.window(2) == 8


@pytest.mark.parametrize("executor", ["process", "dask"])
def test_ctrl_c_is_one_line_on_every_executor(executor: str) -> None:
    if executor == "dask":
        pytest.importorskip("distributed")
    with tempfile.TemporaryDirectory() as tmp, subprocess.Popen(
        [sys.executable, "-m", "omaha", "compare", "--game", "lnl", "--runs", "1000000",
         "--workers", "2", "--executor", executor],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp,
        start_new_session=True,  # its own process group, like a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as proc:  # fmt: skip
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.communicate(timeout=25 if executor == "dask" else 6)
        started = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the parent and every worker
        out, err = proc.communicate(timeout=90)
    assert proc.returncode == 130
    assert err == "omaha: interrupted\n" and out == ""
    assert time.monotonic() - started < 30  # a million runs: not a million futures to cancel
