"""Every example in examples/ runs (so none rots), and shows what it promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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

    run("render_positions.py", str(tmp_path / "pictures"), cwd=tmp_path)
    svgs = sorted(p.name for p in (tmp_path / "pictures").glob("*.svg"))
    assert len(svgs) == 2 * len(omaha.games())
    for path in (tmp_path / "pictures").glob("*.svg"):
        text = path.read_text()
        assert text.startswith("<svg") and 'class="piece"' in text


def test_the_tcs_landing_notebook_runs_and_shows_the_beach(tmp_path: Path) -> None:
    import pytest

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
