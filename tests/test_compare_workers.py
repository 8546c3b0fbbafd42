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
        preexec_fn=_dies_with_pytest,
    ) as proc:  # fmt: skip
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.communicate(timeout=25 if executor == "dask" else 6)
        started = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the parent and every worker
        out, err = proc.communicate(timeout=90)
    assert proc.returncode == 130
    assert err == "omaha: interrupted\n" and out == ""
    assert time.monotonic() - started < 30  # a million runs: not a million futures to cancel


def _dies_with_pytest() -> None:
    """In the child before it runs: SIGINT as in a terminal, and SIGTERM when the process
    that started it (pytest) dies, so a killed test run leaves no comparison behind
    (Linux's parent-death signal; elsewhere nothing)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _descendants(pid: int) -> set[tuple[int, str]]:
    """Every live descendant of ``pid`` as (pid, start time), read from /proc (the start
    time tells a process from a later one given the same pid)."""
    children: dict[int, list[int]] = {}
    starts: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            # the fields after the command's name (which may hold spaces): state, ppid, ...
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(entry.name))
                starts[int(entry.name)] = fields[19]
    found: set[tuple[int, str]] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add((child, starts[child]))
            todo.append(child)
    return found


def _cpu(processes: set[tuple[int, str]]) -> float:
    """The CPU seconds the live ones of ``processes`` have used."""
    ticks = 0
    for pid, _ in _alive(processes):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def _alive(processes: set[tuple[int, str]]) -> set[tuple[int, str]]:
    live = set()
    for pid, start in processes:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            if fields[19] == start and fields[0] != "Z":
                live.add((pid, start))
    return live


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    ("executor", "signum"),
    [("process", signal.SIGTERM), ("process", signal.SIGHUP), ("dask", signal.SIGTERM)],
)
def test_a_signal_ends_every_worker_and_saves_the_finished_runs(
    tmp_path: Path, executor: str, signum: int
) -> None:
    if executor == "dask":
        pytest.importorskip("distributed")
    out = tmp_path / "kept.json"
    with subprocess.Popen(
        [sys.executable, "-m", "omaha", "compare", "--game", "bloody", "--runs", "100000",
         "--workers", "2", "--chunk", "2", "--executor", executor, "--json", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=_dies_with_pytest,
    ) as proc:  # fmt: skip
        workers: set[tuple[int, str]] = set()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            workers |= _descendants(proc.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.2)
        while time.monotonic() < deadline and proc.poll() is None:
            workers |= _descendants(proc.pid)
            if _cpu(workers) > 8:  # started, and some chunks finished
                break
            time.sleep(0.2)
        assert len(workers) >= 2, "the workers never started"
        proc.send_signal(signum)
        out_text, err = proc.communicate(timeout=90)
    name = signal.Signals(signum).name
    what = "terminated" if signum == signal.SIGTERM else "hung up"
    assert proc.returncode == 128 + signum, err
    assert err.startswith(f"omaha: {what} ({name}); ") and err.count("\n") == 1, err
    assert f"of 100000 runs finished, in {out}" in err and "Traceback" not in err
    assert out_text == ""
    deadline = time.monotonic() + 20  # a worker ended by its parent may take a moment
    while _alive(workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(workers), f"workers left running: {_alive(workers)}"
    runs = json.loads(out.read_text())[0]["runs"]
    assert runs and f"{len(runs)} of 100000" in err
    first = sorted(runs, key=lambda r: r["index"])[:4]  # as they would be, run by run
    serial = compare.compare(["bloody"], runs=first[-1]["index"] + 1, seed=1)
    by_index = {r["index"]: r for r in json.loads(compare.to_json(serial))[0]["runs"]}
    assert [by_index[r["index"]] for r in first] == first
