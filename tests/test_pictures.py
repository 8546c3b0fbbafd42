"""Counters legible at the default size (issue 16): value and name lines keep a legible
font size, break onto two lines or are condensed rather than shrunk, and every line,
the symbol frame and the step pips stay inside the counter without overlapping; in
every game's pictures, and in landing_table's landing boxes at least as large as on
the map."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from omaha.kernel.board import Board, Box, CellSpec
from omaha.kernel.data import Source
from omaha.kernel.hexes import Hex
from omaha.kernel.labels import Layout
from omaha.kernel.svg import SIZE, render_view
from omaha.kernel.svg.counters import NAME_FONT, VALUE_FONT, set_lines
from omaha.kernel.svg.elements import ems
from omaha.kernel.view import Piece, View
from omaha.session import Session

NS = "{http://www.w3.org/2000/svg}"
SRC = Source("reconstructed: test")
#: DejaVu Sans: the highest glyph top ([, ]) and the lowest foot (g, p, y) in ems; values
#: (digits, brackets, dashes, slashes, target symbols ○ □ △) reach down 0.14 at most.
ASCENT, DESCENT, VALUE_DESCENT = 0.76, 0.22, 0.14
#: A line at the default size must be at least this many pixels high to be read, and
#: condensed to no less than SQUEEZE of its width; parts of a counter keep GAP apart.
LEGIBLE_VALUES, LEGIBLE_NAMES, SQUEEZE = 8.5, 7.0, 0.8
GAP = 0.01


def board(orientation: str = "flat") -> Board:
    cells = [CellSpec(f"C{k}", Hex(k, 0), "beach") for k in range(4)]
    return Board(
        id="b",
        title="b",
        grid="hex",
        cells=cells,
        source=SRC,
        layout=Layout(orientation, "odd"),
        boxes=[Box("landing", "Landing", (), (), SRC)],
    )


def view(*pieces: Piece, orientation: str = "flat") -> View:
    return View("t", "t", None, "1", "p", board(orientation), None, pieces=pieces)


def counters(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.get("data-id") or "": g for g in root.iter(NS + "g") if g.get("class") == "piece"}


def f(e: ET.Element, name: str) -> float:
    return float(e.get(name) or "nan")


def side(g: ET.Element) -> float:
    rect = g.find(NS + "rect")
    assert rect is not None and rect.get("class") == "counter"
    return f(rect, "width")


def lines(g: ET.Element, cls: str) -> list[ET.Element]:
    return [t for t in g.iter(NS + "text") if t.get("class") == cls]


def check_layout(g: ET.Element, bold_values: str = "") -> None:
    """Every line inside the counter and held to at least SQUEEZE of its natural width;
    name above the echelon above the frame above the pips above the values."""
    rect = g.find(NS + "rect")
    assert rect is not None and rect.get("class") == "counter"
    x, y, c = f(rect, "x"), f(rect, "y"), f(rect, "width")
    assert f(rect, "height") == pytest.approx(c)
    for t in lines(g, "unit-name") + lines(g, "values"):
        font, mid, length = f(t, "font-size"), f(t, "x"), f(t, "textLength")
        text = t.text or ""
        natural = ems(text, t.get("font-weight") == "bold") * font
        # (coordinates are rounded to hundredths)
        assert SQUEEZE * natural * 0.995 - 0.01 <= length <= natural * 1.005 + 0.01, text
        assert x + 0.04 * c <= mid - length / 2 and mid + length / 2 <= x + c - 0.04 * c, text
        base = f(t, "y")
        descent = DESCENT if t.get("class") == "unit-name" else VALUE_DESCENT
        assert y + 0.02 * c <= base - ASCENT * font, text
        assert base + descent * font <= y + c - 0.02 * c, text
    names, values = lines(g, "unit-name"), lines(g, "values")
    floor = y  # the foot of what is above, going down the counter
    for t in names:
        floor = max(floor, f(t, "y") + DESCENT * f(t, "font-size"))
    for t in lines(g, "echelon"):  # letters are caps; dots stand half as high
        glyph = 0.55 if set(t.text or "") <= {"•"} else 0.73
        assert f(t, "y") - glyph * f(t, "font-size") >= max(y, *(f(n, "y") for n in names))
    frames = [r for r in g.iter(NS + "rect") if r.get("class") == "frame"]
    for fr in frames:
        assert f(fr, "y") >= floor + GAP * c - 0.01
        assert x < f(fr, "x") and f(fr, "x") + f(fr, "width") < x + c
        floor = f(fr, "y") + f(fr, "height")
    pips = [p for p in g.iter(NS + "circle") if "step" in (p.get("class") or "")]
    for p in pips:
        assert f(p, "cy") - f(p, "r") >= floor + GAP * c - 0.01
    if pips:
        floor = max(f(p, "cy") + f(p, "r") for p in pips)
    for k, t in enumerate(values):
        top = f(t, "y") - ASCENT * f(t, "font-size")
        # the pips stand clear of the value line below them (2.5 GAP: they are small)
        assert top >= floor + (2.5 * GAP * c if pips and not k else 0) - 0.01, t.text
        floor = f(t, "y") + VALUE_DESCENT * f(t, "font-size")
        if k:  # a second line sits one line below the first
            assert f(t, "y") - f(values[k - 1], "y") >= f(t, "font-size") * 0.99


def test_a_pill_box_prints_both_fires_on_two_legible_lines_at_the_default_size() -> None:
    """TCS prints a pill box's two fires and its defence as 6[12] 5[7]6; at the default
    size the line breaks at the space instead of shrinking to an eighth of the counter."""
    pb = Piece("pb", "German", "Pill Box", "C1", "6[12] 5[7]6", kind="pillbox")
    (g,) = counters(render_view(view(pb))).values()
    values = lines(g, "values")
    assert [t.text for t in values] == ["6[12]", "5[7]6"]
    assert all(f(t, "font-size") >= LEGIBLE_VALUES for t in values)
    assert [t.text for t in lines(g, "unit-name")] == ["Pill Box"]
    assert f(lines(g, "unit-name")[0], "font-size") >= LEGIBLE_NAMES
    check_layout(g)
    frame = next(r for r in g.iter(NS + "rect") if r.get("class") == "frame")
    assert frame.get("data-symbol") == "pillbox" and f(frame, "height") >= 0.12 * SIZE


def test_short_values_stay_on_one_larger_line() -> None:
    a = Piece("a", "US", "A/116", "C1", "4-6-4", kind="infantry", echelon="I", steps=(1, 2))
    (g,) = counters(render_view(view(a))).values()
    (line,) = lines(g, "values")
    assert line.text == "4-6-4" and f(line, "font-size") > LEGIBLE_VALUES + 1
    check_layout(g)


PIECES = [
    Piece("p1", "German", "Pill Box", "C0", "6[12] 5[7]6", kind="pillbox"),
    Piece(
        "p2",
        "US",
        "B/62AFA.guns",
        "C1",
        "-[-] 6[8]1",
        ("fire_mode", "dug_in", "unreleased"),
        kind="artillery",
        echelon="••",
    ),
    Piece("p3", "German", "WN62", "C2", "24 BG DE FL", ("face_down",), kind="fortification"),
    Piece(
        "p4",
        "US",
        "A/116-HVY",
        "C3",
        "4-12-8/3",
        ("disrupted",),
        kind="machine_gun",
        echelon="I",
        steps=(2, 3),
    ),
    Piece("p5", "US", "Canham", "landing", "", kind="headquarters", echelon="III"),
    Piece("p6", "US", "M/116", "landing", "9-2 □", kind="machine_gun", echelon="I", steps=(1, 2)),
    Piece(
        "p7",
        "US",
        "a name far too long for any counter",
        "C0",
        "a value line with many words that cannot fit",
        kind="infantry",
        echelon="XX",
        steps=(4, 4),
    ),
    Piece("p8", "US", "WWWWWWWWWWWWWWWWWW", "C1", "88888888888888888888", kind="armour"),
]


@pytest.mark.parametrize("size", [16.0, SIZE, 90.0])
@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_every_line_stays_inside_its_counter_at_any_size(size: float, orientation: str) -> None:
    groups = counters(render_view(view(*PIECES, orientation=orientation), size=size))
    assert set(groups) == {p.id for p in PIECES}
    for pid, g in groups.items():
        check_layout(g)
        c = side(g)
        for t in lines(g, "values"):
            assert f(t, "font-size") >= VALUE_FONT[0] * c - 0.01, pid
        for t in lines(g, "unit-name"):
            assert f(t, "font-size") >= NAME_FONT[0] * c - 0.01, pid
    # what cannot fit is cut with an ellipsis, never drawn past the edge
    too_long = [t.text or "" for t in lines(groups["p7"], "unit-name")]
    assert len(too_long) == 1 and too_long[0].endswith("…")
    assert "".join(t.text or "" for t in lines(groups["p8"], "values")).endswith("…")


def test_counters_in_boxes_are_larger_than_on_the_map() -> None:
    on_map = Piece("m", "US", "M/116", "C1", "9-2 □", kind="machine_gun", echelon="I")
    boxed = Piece("b", "US", "M/117", "landing", "9-2 □", kind="machine_gun", echelon="I")
    groups = counters(render_view(view(on_map, boxed)))
    size = {pid: side(g) for pid, g in groups.items()}
    assert size["m"] >= SIZE and size["b"] > size["m"]
    font = {pid: f(lines(g, "values")[0], "font-size") for pid, g in groups.items()}
    assert font["b"] > font["m"] >= LEGIBLE_VALUES


def test_set_lines_breaks_condenses_then_cuts() -> None:
    # fits on one line: as large as allowed
    assert set_lines("4-6", 40, 8, 10, bold=True, most=2) == (["4-6"], 10)
    # too wide for one legible line: two, broken at the space that balances them
    out, font = set_lines("24 BG DE FL", 40, 8, 10, bold=True, most=2)
    assert out == ["24 BG", "DE FL"] and font >= 8
    assert max(ems(s, True) for s in out) * font <= 40 + 1e-9
    # one line only, a little too wide: kept whole at the smallest size (condensed)
    assert set_lines("Rocket Pit 3", 40, 7.5, 8, bold=False, most=1) == (["Rocket Pit 3"], 7.5)
    # far too wide and no space: cut with an ellipsis to what condensing can hold
    (cut,), font = set_lines("W" * 30, 40, 8, 10, bold=True, most=2)
    assert cut.endswith("…") and ems(cut, True) * font * SQUEEZE <= 40 + 1e-9


FONTS = Path("/usr/share/fonts/truetype/dejavu")


@pytest.mark.parametrize("bold", [False, True])
def test_the_width_table_is_never_narrower_than_dejavu_sans(bold: bool) -> None:
    """The measured widths round up, so a line laid out with them fits in the real font."""
    image_font = pytest.importorskip("PIL.ImageFont")
    path = FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    if not path.exists():
        pytest.skip("DejaVu Sans is not installed")
    font = image_font.truetype(str(path), 1000)
    for ch in (chr(k) for k in range(0x20, 0x7F)):
        real = font.getlength(ch) / 1000
        assert real <= ems(ch, bold) <= real + 0.051, ch
    for ch in "○□△•⊕●·é":
        assert font.getlength(ch) / 1000 <= ems(ch, bold)


#: Each game part-way through a seeded game with random choices: pieces on the map,
#: in boxes and (TCS) pill boxes and rocket pits set up.
GAMES = [
    ("tcs", "d-day", 120),
    ("lnl", None, 40),
    ("bloody", None, 40),
    ("landing_table", None, 40),
]


def played(game: str, scenario: str | None, steps: int) -> Session:
    s = Session(game, scenario, seed=3)
    rng = random.Random(1)
    for _ in range(steps):
        s.run_bots()
        choices = s.choices()
        if not choices:
            break
        s.choose(rng.randrange(len(choices)) + 1)
    return s


@pytest.mark.parametrize(("game", "scenario", "steps"), GAMES)
def test_every_counter_of_every_game_is_legible_at_the_default_size(
    game: str, scenario: str | None, steps: int
) -> None:
    s = played(game, scenario, steps)
    for player in (None, *s.game.players):
        groups = counters(render_view(s.state.view(player)))
        assert groups
        for g in groups.values():
            check_layout(g)
            for t in lines(g, "values"):
                assert f(t, "font-size") >= LEGIBLE_VALUES, (game, t.text)
            for t in lines(g, "unit-name"):
                assert f(t, "font-size") >= LEGIBLE_NAMES, (game, t.text)


def test_tcs_pill_boxes_print_both_fires_legibly() -> None:
    groups = counters(render_view(played("tcs", "d-day", 120).state.view(None)))
    pill_boxes = [
        g for g in groups.values() if [t.text for t in lines(g, "values")] == ["6[12]", "5[7]6"]
    ]
    assert pill_boxes
    for g in pill_boxes:
        assert min(f(t, "font-size") for t in lines(g, "values")) >= LEGIBLE_VALUES


def test_landing_box_counters_are_at_least_as_large_as_map_counters() -> None:
    """landing_table: the units about to land wait in the landing boxes L01..L16 below the
    map; their counters there are drawn no smaller than on the map, with legible values."""
    s = played("landing_table", None, 40)
    root = ET.fromstring(render_view(s.state.view("US")))
    groups = {g.get("class"): g for g in root if g.tag == NS + "g"}
    in_boxes = [g for g in groups["boxes"].iter(NS + "g") if g.get("class") == "piece"]
    on_map = [g for g in groups["pieces"].iter(NS + "g") if g.get("class") == "piece"]
    assert in_boxes and on_map
    assert min(side(g) for g in in_boxes) >= max(side(g) for g in on_map)
    for g in in_boxes:
        assert all(f(t, "font-size") >= LEGIBLE_VALUES for t in lines(g, "values"))
        assert all(f(t, "font-size") >= LEGIBLE_NAMES for t in lines(g, "unit-name"))


def test_a_name_too_long_for_one_line_goes_whole_on_two_at_its_punctuation() -> None:
    """A name that would be cut ("50mm-Gu…", "Strongp…") is drawn whole on two legible
    lines, broken after a hyphen or slash, or a long word hyphenated between consonants;
    the full name is also the counter's hover text."""
    pieces = [
        Piece("g", "German", "50mm-Gun-2", "C1", "6-8-8", kind="anti_tank", echelon="I",
              steps=(2, 2)),
        Piece("s", "German", "Strongpoint", "C1", "10", marks=("face_down",),
              kind="fortification"),
        Piece("m", "US", "H/2/116.mtr", "C1", "4[6] 2", marks=("fire_mode",), kind="mortar"),
    ]  # fmt: skip
    groups = counters(render_view(view(*pieces)))
    names = {pid: [t.text for t in lines(g, "unit-name")] for pid, g in groups.items()}
    assert names == {"g": ["50mm-", "Gun-2"], "s": ["Strong-", "point"], "m": ["H/2/", "116.mtr"]}
    for pid, g in groups.items():
        check_layout(g)
        assert all(f(t, "font-size") >= LEGIBLE_NAMES for t in lines(g, "unit-name")), pid
        title = g.find(NS + "title")
        full = next(p.name for p in pieces if p.id == pid)
        assert title is not None and full in (title.text or "")
