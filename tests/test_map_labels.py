"""Every text the boards draw speaks player words and fits its room, in each game at
set-up and part-way through: no data name (``tide_1200``, ``defensive_zone``) in any
text; a cell's marks and feature tags no wider than the cell across, at a font no
smaller than the counters' names (so at least 9 pixels at the browser's default
zoom); a text cut with an ellipsis has its whole text as its hover; the side panel's
lines inside the picture. Widths are DejaVu Sans advance widths rounded up
(``ems``), so a text that fits here fits in the browser (tests/browser measures it)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from omaha.kernel.svg import SIZE, render_view
from omaha.kernel.svg.elements import ems
from omaha.kernel.svg.labels import SMALLEST, abbreviated, fit_line, initials
from omaha.kernel.view import View
from omaha.session import Session

NS = "{http://www.w3.org/2000/svg}"
#: A data name: lower-case words joined by underscores.
SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
#: Cell texts (by their first class), and how many may be cut (whole on the hover).
CELL_TEXT = ("mark", "feature")
MOST_CUT = 0.02

GAMES = [
    ("lnl", "beach", {"German": "solitaire"}),
    ("tcs", "e1-draw", {"German": "heuristic"}),
    ("tcs", "d-day", {"German": "heuristic"}),
    ("bloody", "solo", {}),
    ("landing_table", "omaha", {}),
]


def played(game: str, scenario: str, bots: dict[str, str], steps: int) -> Session:
    s = Session(game, scenario, seed=3, bots=bots)
    rng = random.Random(3)
    for k in range(steps):
        choices = s.choices()
        if not choices or s.state.is_terminal():
            break
        plans = [c.number for c in choices if c.plan]
        s.choose(plans[0] if plans and k > 2 else rng.randrange(len(choices)) + 1)
    return s


def classes(e: ET.Element) -> list[str]:
    return (e.get("class") or "").split()


def cell_widths(root: ET.Element) -> dict[tuple[float, float], float]:
    """Each cell's centre and how wide it is across (its polygon's extent)."""
    out = {}
    for poly in root.iter(NS + "polygon"):
        if "cell" not in classes(poly):
            continue
        pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        out[(sum(xs) / len(xs), sum(ys) / len(ys))] = max(xs) - min(xs)
    return out


def check(view: View, where: str) -> None:
    root = ET.fromstring(render_view(view))
    parent = {c: p for p in root.iter() for c in p}
    svg_width = float(root.get("width") or 0)
    cells = cell_widths(root)
    drawn, cut = 0, []
    for t in root.iter(NS + "text"):
        text, font = t.text or "", float(t.get("font-size") or 0)
        assert not SNAKE.search(text), (where, text)
        hover = t.find(NS + "title")
        if hover is None and t in parent:
            hover = parent[t].find(NS + "title")
        if "…" in text:  # cut: the whole text is the hover
            whole = hover.text if hover is not None else ""
            assert text.split("…")[0] in whole and "…" not in whole, (where, text)
        in_box = "boxes" in classes(parent.get(t, root))
        if in_box or classes(t)[:1] not in ([c] for c in CELL_TEXT):
            if "panel" in classes(parent.get(t, root)) or t.get("class") in ("note", "track"):
                assert float(t.get("x") or 0) + ems(text) * font <= svg_width, (where, text)
            continue
        drawn += 1
        x, y = float(t.get("x") or 0), float(t.get("y") or 0)
        centre = min(cells, key=lambda c: (c[0] - x) ** 2 + (c[1] - y) ** 2)
        assert ems(text) * font <= cells[centre], (where, text, font)
        assert font >= SIZE * SMALLEST - 0.01, (where, text, font)
        if "…" in text:
            cut.append(text)
    assert drawn, where
    assert len(cut) <= max(1, drawn * MOST_CUT), (where, cut)


@pytest.mark.parametrize(("game", "scenario", "bots"), GAMES)
@pytest.mark.parametrize("steps", [0, 30])
def test_every_text_on_the_board_is_player_words_that_fit(
    game: str, scenario: str, bots: dict[str, str], steps: int
) -> None:
    s = played(game, scenario, bots, steps)
    for player in (None, *s.game.players):
        check(s.state.view(player), f"{game}/{scenario} after {steps}, view {player}")


def test_a_mark_is_sized_to_fit_then_loses_its_parenthesis_then_is_cut_keeping_the_dots() -> None:
    room = SIZE * 1.7
    whole = fit_line(["German control"], room, SIZE)
    assert (whole.text, whole.whole) == ("German control", "")
    assert SIZE * SMALLEST <= whole.font <= SIZE * 0.22
    short = fit_line(["WN66 (yellow)", "⊕⊕○○"], room, SIZE)
    assert (short.text, short.whole) == ("WN66; ⊕⊕○○", "WN66 (yellow); ⊕⊕○○")
    cut = fit_line(["R-Saint-Laurent-sur-Mer (blue)", "⊕○"], room, SIZE)
    assert cut.text.endswith("; ⊕○") and "…" in cut.text and cut.whole.startswith("R-Saint")
    assert ems(cut.text) * cut.font <= room


def test_long_features_go_by_their_initials_only_where_some_cell_would_not_fit() -> None:
    assert abbreviated([["obstacle"], ["improved"]], 1.7, 0.22) == frozenset()
    short = abbreviated([["defensive_zone", "pillbox_site"], ["obstacle"]], 1.7, 0.22)
    assert short == {"defensive_zone", "pillbox_site"}
    assert initials("defensive_zone") == "DZ"


def test_tcs_names_its_tags_initials_in_the_legend_and_the_tide_line_in_words() -> None:
    s = played("tcs", "e1-draw", {"German": "heuristic"}, 0)
    root = ET.fromstring(render_view(s.state.view("US")))
    legend = [t.text for t in root.iter(NS + "text") if "legend" in classes(t)]
    assert "DZ = defensive zone" in legend and "PS = pillbox site" in legend
    tide = [t.text for t in root.iter(NS + "text") if "tide" in classes(t)]
    assert tide and all(re.fullmatch(r"tide line \d{4}", t or "") for t in tide)
