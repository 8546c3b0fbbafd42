"""The tools' pages (protocol, scenarios, comparison) are in the site, current with the
code, and their tutorial works on a game that reads the shared scenario format.

(Every ```python block of every page also runs in tests/test_docs.py.)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(ROOT / "tools"))

import gencomparison  # noqa: E402

from omaha.kernel.metrics import COMMON, TIMELINE  # noqa: E402


def test_the_comparison_page_is_current() -> None:
    current = (DOCS / "comparison.md").read_text()
    assert gencomparison.page(current) == current, "run python tools/gencomparison.py"


def test_the_comparison_page_gives_every_metric_and_every_historical_figure() -> None:
    text = (DOCS / "comparison.md").read_text()
    for metric in COMMON:
        assert f"### `{metric.name}` ({metric.unit})" in text
    for name, figures in TIMELINE.items():
        section = text.split(f"### `{name}`", 1)[1].split("### ", 1)[0]
        for figure in figures:
            assert f"**{figure.value:g}**" in section and figure.source in section


def test_the_pages_are_in_the_site_and_linked_from_the_start_page() -> None:
    nav = (ROOT / "mkdocs.yml").read_text()
    index = (DOCS / "index.md").read_text()
    for page in ("protocol.md", "scenarios.md", "comparison.md"):
        assert page in nav and f"]({page})" in index


def test_the_scenarios_page_links_every_game_page() -> None:
    text = (DOCS / "scenarios.md").read_text()
    for game in gencomparison.GAMES:
        assert f"](games/{game}.md)" in text


TOY_SCENARIO = '''    "toy": """
[scenario]
game = "toy"
extends = "beach"
id = "short_toy"
title = "Toy in three turns"
turns = 3
source = "reconstructed: three turns"
""",
'''


def test_the_scenario_tutorial_runs_on_a_game_that_reads_the_shared_format(
    tmp_path: Path,
) -> None:
    """The tutorial's code, with the toy game (which reads the shared format) added to its
    two games: write, validate (a sound file, then every problem of a broken one), play,
    compare and replay from another directory after the files are deleted."""
    text = (DOCS / "scenarios.md").read_text()
    code = "\n".join(re.findall(r"```python\n(.*?)```", text, flags=re.S))
    assert "SCENARIOS = {\n" in code and 'game.lineup("heuristic")' in code
    code = code.replace("SCENARIOS = {\n", "SCENARIOS = {\n" + TOY_SCENARIO, 1)
    code = code.replace(
        'game.lineup("heuristic")', 'game.lineup("random" if name == "toy" else "heuristic")'
    )
    prelude = (
        f"import sys\nsys.path.insert(0, {str(ROOT / 'tests' / 'conformance')!r})\n"
        "import omaha, toygame\nomaha.register(toygame.GAME)\n"
    )
    script = tmp_path / "tutorial.py"
    script.write_text(prelude + code)
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "short_toy.toml: sound (toy: Toy in three turns)" in out
    assert "scenario.turns: expected an integer, found the string 'six'" in out
    assert "scenario.colour: unknown key" in out
    assert "Toy in three turns: " in out
    assert "toy/short_toy.toml" in out and "toy/beach" in out  # the comparison
    assert re.search(r"toy: replayed \d+ decisions from short_toy.toml", out)


@pytest.mark.parametrize("page", ["protocol.md", "scenarios.md", "comparison.md"])
def test_the_pages_cite_no_file_outside_the_repository(page: str) -> None:
    """(The historical sources in the generated section are history.toml's own.)"""
    text = re.sub(
        re.escape(gencomparison.BEGIN) + ".*?" + re.escape(gencomparison.END),
        "",
        (DOCS / page).read_text(),
        flags=re.S,
    )
    assert "shared/" not in text and "seeds/" not in text and "HISTORY.md" not in text
