"""Every example in examples/ runs (so none rots), and shows what it promises."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(script: str, *args: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        cwd=cwd, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_play_lnl_solitaire_prints_the_log_and_a_result(tmp_path: Path) -> None:
    out = run("play_lnl_solitaire.py", "2", cwd=tmp_path)
    assert "action card" in out and "Result:" in out
    assert "(LnL Omaha:" in out  # every roll cites its rule


def test_render_positions_draws_every_game(tmp_path: Path) -> None:
    import omaha

    out = run("render_positions.py", cwd=tmp_path)  # no folder given: a temporary one
    assert list(tmp_path.iterdir()) == []  # nothing written where it was run
    folder = Path(out.splitlines()[0].removeprefix("pictures in "))
    svgs = sorted(p.name for p in folder.glob("*.svg"))
    assert len(svgs) == 2 * len(omaha.games())
    for path in folder.glob("*.svg"):
        text = path.read_text()
        assert text.startswith("<svg") and 'class="piece"' in text
    shutil.rmtree(folder)


def test_the_tcs_landing_notebook_runs_and_shows_the_beach(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    path = EXAMPLES / "tcs_landing.ipynb"
    stored = nbformat.read(path, as_version=4)
    assert all(not c.get("outputs") for c in stored.cells if c.cell_type == "code"), (
        "commit the notebook with its outputs stripped"
    )
    client = nbclient.NotebookClient(stored, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})  # fmt: skip
    client.execute()
    outputs = [o for c in stored.cells if c.cell_type == "code" for o in c.outputs]
    pictures = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert len(pictures) == 2
    text = "".join(o.get("text", "") for o in outputs)
    assert "survival" in text and "first_wave_ashore" in text


def test_every_example_is_run_by_a_test() -> None:
    tested = Path(__file__).read_text()
    scripts = sorted(p.name for p in [*EXAMPLES.glob("*.py"), *EXAMPLES.glob("*.ipynb")])
    assert scripts and all(name in tested for name in scripts)


def test_compare_landings_prints_the_metrics_and_draws_them(tmp_path: Path) -> None:
    import importlib.util

    out = run("compare_landings.py", "--runs", "2", "--out", str(tmp_path / "pics"), cwd=tmp_path)
    assert "us_win (0/1)" in out and "vs history" in out  # the table, as omaha compare shows it
    assert "us_losses, lnl/beach: " in out and "(history 0.0706)" in out
    picture = tmp_path / "pics" / "designs.png"
    if importlib.util.find_spec("matplotlib") is not None:
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert "no plot: a plot needs matplotlib" in out and not picture.exists()


def agent_games() -> list[str]:
    import omaha

    declared = []
    for name in omaha.games():
        try:
            omaha.load(name).action_space()
        except NotImplementedError:
            continue
        declared.append(name)
    return declared


def test_openspiel_mcts_plays_a_game_to_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the toy game (its agent surface is declared), in this process."""
    import runpy

    pytest.importorskip("pyspiel")
    from toygame import GAME

    import omaha

    omaha.register(GAME)
    monkeypatch.setattr(sys, "argv", ["agents_openspiel_mcts.py", "toy", "--simulations", "8"])
    try:
        with pytest.raises(SystemExit) as done:
            runpy.run_path(str(EXAMPLES / "agents_openspiel_mcts.py"), run_name="__main__")
    finally:
        omaha.registry.unregister("toy")
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "MCTS (8 simulations a move) played US" in out
    assert "Result: " in out and "returns: {'US': " in out
    assert "(toy " in out  # the game's own log, rules cited


def test_openspiel_mcts_example_on_the_installed_games(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    out = run("agents_openspiel_mcts.py", "--simulations", "4", "--mcts-decisions", "3",
              cwd=tmp_path)  # fmt: skip
    declared = agent_games()
    if declared:
        assert "Result: " in out and "MCTS decisions: 3" in out
    else:
        assert "no action numbering declared for agents yet" in out
