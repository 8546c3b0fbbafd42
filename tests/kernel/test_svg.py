"""Tests for omaha.kernel.svg: well-formed, complete, geometrically right, deterministic."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from omaha.kernel.board import Board, Box, CellSpec, Link
from omaha.kernel.data import Source
from omaha.kernel.hexes import Hex
from omaha.kernel.labels import Layout
from omaha.kernel.squares import Square
from omaha.kernel.svg import render_board, render_view, side_colour, side_feature_colour
from omaha.kernel.view import Mark, Pending, Piece, View

SRC = Source("reconstructed: test")
NS = "{http://www.w3.org/2000/svg}"
SIZE = 30.0


def hex_board(orientation: str) -> Board:
    layout = Layout("flat" if orientation == "flat" else "pointy", "odd")
    cells = [
        CellSpec("A", Hex(0, 0), "beach", frozenset({"road"})),
        CellSpec("B", Hex(1, 0), "bluff", frozenset({"road", "victory"})),
        CellSpec("C", Hex(0, 1), "ocean"),
        CellSpec("D", Hex(1, -1), "mystery-ground", frozenset({"pillbox-ish"})),
        CellSpec("E", Hex(-1, 1), "woods", frozenset({"fortification"})),
    ]
    return Board(
        id=f"t-{orientation}",
        title=f"Test {orientation} <&> board",
        grid="hex",
        cells=cells,
        source=SRC,
        layout=layout,
        sides={("A", "B"): [("crest", "B", SRC)], ("A", "C"): [("breach", None, SRC)]},
        boxes=[
            Box("reserve", "Reserve", ("A",), (), SRC),
            Box("landing", "Landing <box>", (), (), SRC),
        ],
        links=[Link("arrow", "C", "landing", (), SRC), Link("arrow", "A", "d", (), SRC)],
        terrain_colours={"beach": "#123456"},
    )


def square_board() -> Board:
    cells = [
        CellSpec(f"S{x}{y}", Square(x, y), "open" if y else "beach")
        for x in range(3)
        for y in range(2)
    ]
    return Board(
        id="sq",
        title="Squares",
        grid="square",
        cells=cells,
        source=SRC,
        sides={("S00", "S01"): [("crest", "S01", SRC)]},
    )


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    for attr in ("width", "height", "viewBox"):
        assert root.get(attr)
    return root


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if cls in (e.get("class") or "").split()]


def cell_centres(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Centres of the cell polygons (mean of their corners), by label."""
    out = {}
    for poly in by_class(root, "polygon", "cell"):
        pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
        out[poly.get("data-cell") or ""] = (
            sum(p[0] for p in pts) / len(pts),
            sum(p[1] for p in pts) / len(pts),
        )
    return out


def texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(NS + "text")]


def all_text(root: ET.Element) -> str:
    return " ".join(e.text or "" for e in root.iter()) + " ".join(
        v for e in root.iter() for v in e.attrib.values()
    )


def counter_centre(group: ET.Element) -> tuple[float, float]:
    rect = group.find(NS + "rect")
    assert rect is not None and rect.get("class") == "counter"
    x, y = float(rect.get("x") or 0), float(rect.get("y") or 0)
    return x + float(rect.get("width") or 0) / 2, y + float(rect.get("height") or 0) / 2


def make_view(board: Board) -> View:
    return View(
        game="test",
        title="A <game> & more",
        player=None,
        turn="0700",
        phase="fire",
        board=board,
        pending=Pending("move", "US", "choose a unit to move"),
        pieces=(
            Piece("u1", "US", "116/A", "A", "4-6", ("disrupted",)),
            Piece("u2", "US", "116/B", "a", "4-6"),
            Piece("g1", "German", "WN62", "B", "3-0"),
            Piece("g2", "German", "SECRET-UNIT", "C", "9-9", hidden=True),
            Piece("r1", "US", "Ranger", "reserve", "5-7"),
            Piece("r2", "US", "Navy", "reserve"),
            Piece("x1", "Free French", "Lost", ""),
        ),
        marks=(Mark("B", "smoke"), Mark("reserve", "arrives 0800"), Mark("", "global")),
        tracks=(("VP", "3"), ("Tide", "low")),
        notes=("Note with <tag> & ampersand",),
    )


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_hex_board_cells_labels_and_orientation(orientation: str) -> None:
    board = hex_board(orientation)
    root = parse(render_board(board, size=SIZE))
    polys = by_class(root, "polygon", "cell")
    assert len(polys) == len(board)
    assert [p.get("data-cell") for p in polys] == list(board.labels)
    labels = [e.text for e in by_class(root, "text", "label")]
    assert labels == list(board.labels)
    # every corner at distance SIZE from its centre; flat-top hexes have a horizontal
    # top edge (two corners at the minimum y), pointy-top ones a single top vertex
    for poly, (cx, cy) in zip(polys, cell_centres(root).values(), strict=True):
        pts = [tuple(map(float, p.split(","))) for p in (poly.get("points") or "").split()]
        assert len(pts) == 6
        assert all(math.dist(p, (cx, cy)) == pytest.approx(SIZE, abs=0.02) for p in pts)
        top = min(p[1] for p in pts)
        at_top = [p for p in pts if abs(p[1] - top) < 0.02]
        assert len(at_top) == (2 if orientation == "flat" else 1)
    # north is up: C (one step north of A in axial r) is drawn above A
    centres = cell_centres(root)
    assert centres["C"][1] < centres["A"][1]
    assert centres["B"][0] > centres["A"][0]  # east is right
    # terrain fills: legend colour, palette colour, deterministic hashed colour
    fills = {p.get("data-cell"): p.get("fill") for p in polys}
    assert fills["A"] == "#123456"
    assert fills["C"] == "#4a7fb5"
    assert fills["D"] and fills["D"].startswith("#") and len(fills["D"]) == 7


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_crest_side_is_the_shared_edge(orientation: str) -> None:
    board = hex_board(orientation)
    root = parse(render_board(board, size=SIZE))
    centres = cell_centres(root)
    crest = side_feature_colour("crest")
    lines = [e for e in by_class(root, "line", "side") if e.get("stroke") == crest]
    assert len(lines) == 1
    line = lines[0]
    assert line.get("data-side") == "A|B"
    ends = [
        (float(line.get("x1") or 0), float(line.get("y1") or 0)),
        (float(line.get("x2") or 0), float(line.get("y2") or 0)),
    ]
    assert math.dist(*ends) == pytest.approx(SIZE, abs=0.03)
    for end in ends:
        for label in ("A", "B"):
            assert math.dist(end, centres[label]) == pytest.approx(SIZE, abs=0.03)
    # directional: an arrowhead whose tip lies on B's side of the edge
    (tip_path,) = by_class(root, "path", "side-up")
    tip = tuple(map(float, (tip_path.get("d") or "")[1:].split()[0].split(",")))
    assert math.dist(tip, centres["B"]) < math.dist(tip, centres["A"])
    # the breach side is dashed and not directional
    (breach,) = by_class(root, "line", "breach")
    assert breach.get("stroke-dasharray")


def test_square_board() -> None:
    board = square_board()
    root = parse(render_board(board, size=SIZE))
    polys = by_class(root, "polygon", "cell")
    assert len(polys) == len(board) == 6
    assert {e.text for e in by_class(root, "text", "label")} == set(board.labels)
    centres = cell_centres(root)
    assert centres["S01"][1] < centres["S00"][1]  # north up
    assert centres["S10"][0] > centres["S00"][0]
    crest = side_feature_colour("crest")
    (line,) = [e for e in by_class(root, "line", "side") if e.get("stroke") == crest]
    ends = [
        (float(line.get("x1") or 0), float(line.get("y1") or 0)),
        (float(line.get("x2") or 0), float(line.get("y2") or 0)),
    ]
    side = math.dist(centres["S00"], centres["S01"])
    assert math.dist(*ends) == pytest.approx(side, abs=0.03)
    for end in ends:
        for label in ("S00", "S01"):
            assert math.dist(end, centres[label]) == pytest.approx(side / math.sqrt(2), abs=0.03)


def test_features_boxes_and_links_on_the_board() -> None:
    board = hex_board("flat")
    root = parse(render_board(board, size=SIZE))
    assert len(by_class(root, "path", "victory")) == 1
    assert len(by_class(root, "rect", "fortification")) == 1
    assert len(by_class(root, "line", "road")) == 2  # A-B both ways, half each
    tags = [e.text for e in by_class(root, "text", "tag")]
    assert tags == ["pillbox-ish"]
    boxes = by_class(root, "rect", "box")
    assert [b.get("data-box") for b in boxes] == ["landing", "reserve"]  # by id
    assert "Landing <box>" in texts(root)
    links = by_class(root, "line", "link")
    assert len(links) == 2
    # the cell-to-cell link runs from A's centre to D's centre
    centres = cell_centres(root)
    a_to_d = links[1]
    assert (float(a_to_d.get("x1") or 0), float(a_to_d.get("y1") or 0)) == pytest.approx(
        centres["A"], abs=0.02
    )
    assert (float(a_to_d.get("x2") or 0), float(a_to_d.get("y2") or 0)) == pytest.approx(
        centres["D"], abs=0.02
    )
    # the cell-to-box link ends on the landing box's border
    landing = boxes[0]
    bx, by = float(landing.get("x") or 0), float(landing.get("y") or 0)
    bw, bh = float(landing.get("width") or 0), float(landing.get("height") or 0)
    ex, ey = float(links[0].get("x2") or 0), float(links[0].get("y2") or 0)
    assert bx - 0.01 <= ex <= bx + bw + 0.01 and by - 0.01 <= ey <= by + bh + 0.01
    on_border = min(abs(ex - bx), abs(ex - bx - bw), abs(ey - by), abs(ey - by - bh))
    assert on_border < 0.02


@pytest.mark.parametrize("board", [hex_board("flat"), hex_board("pointy"), square_board()])
def test_pieces_in_their_cells(board: Board) -> None:
    first, second = board.labels[0], board.labels[1]
    view = View(
        game="t", title="t", player="US", turn="1", phase="p", board=board, pending=None,
        pieces=(
            Piece("p1", "US", "one", first),
            Piece("p2", "US", "two", first.lower()),
            Piece("p3", "German", "three", first),
            Piece("p4", "German", "four", second),
        ),
    )  # fmt: skip
    root = parse(render_view(view, size=SIZE))
    centres = cell_centres(root)
    groups = {g.get("data-id"): g for g in by_class(root, "g", "piece")}
    assert set(groups) == {"p1", "p2", "p3", "p4"}
    for pid, label in (("p1", first), ("p2", first), ("p3", first), ("p4", second)):
        assert math.dist(counter_centre(groups[pid]), centres[label]) < SIZE
    # a stack is fanned out: no two counters of a cell at the same place
    stack = {counter_centre(groups[p]) for p in ("p1", "p2", "p3")}
    assert len(stack) == 3
    # side colours
    us = groups["p1"].find(NS + "rect")
    de = groups["p4"].find(NS + "rect")
    assert us is not None and us.get("fill") == side_colour("US") == side_colour("American")
    assert de is not None and de.get("fill") == side_colour("German")
    assert side_colour("US") != side_colour("German")


def test_view_pieces_boxes_marks_panel() -> None:
    board = hex_board("flat")
    view = make_view(board)
    svg = render_view(view, size=SIZE)
    root = parse(svg)
    groups = by_class(root, "g", "piece")
    assert len(groups) == len(view.pieces)
    # the hidden piece: face down, neither its name, values nor id anywhere
    assert "SECRET-UNIT" not in svg and "9-9" not in svg and "g2" not in svg
    hidden = [g for g in groups if g.get("data-id") is None]
    assert len(hidden) == 1
    assert "?" in [e.text for e in hidden[0].iter(NS + "text")]
    assert math.dist(counter_centre(hidden[0]), cell_centres(root)["C"]) < SIZE
    # pieces in a box are drawn inside the box's rectangle
    (reserve,) = [b for b in by_class(root, "rect", "box") if b.get("data-box") == "reserve"]
    bx, by = float(reserve.get("x") or 0), float(reserve.get("y") or 0)
    bw, bh = float(reserve.get("width") or 0), float(reserve.get("height") or 0)
    for g in groups:
        if g.get("data-id") in ("r1", "r2"):
            rect = g.find(NS + "rect")
            assert rect is not None
            x, y = float(rect.get("x") or 0), float(rect.get("y") or 0)
            w, h = float(rect.get("width") or 0), float(rect.get("height") or 0)
            assert bx <= x and x + w <= bx + bw and by <= y and y + h <= by + bh
    # the off-map piece sits in the side panel, right of the map
    (panel,) = by_class(root, "g", "panel")
    assert [g.get("data-id") for g in by_class(panel, "g", "piece")] == ["x1"]
    # texts: values, marks, tracks, pending prompt, notes, and the mark tag on u1
    all_texts = texts(root)
    for want in ("116/A", "4-6", "disrupted", "VP: 3", "Tide: low", "arrives 0800", "smoke"):
        assert any(want in t for t in all_texts), want
    assert any("US: choose a unit to move" in t for t in all_texts)
    assert any("global" in t for t in all_texts)
    assert "Note with <tag> & ampersand" in all_texts
    assert "A <game> & more" in all_texts
    assert "&lt;game&gt; &amp; more" in svg


def test_deterministic_and_escaped() -> None:
    a = render_view(make_view(hex_board("pointy")))
    b = render_view(make_view(hex_board("pointy")))
    assert a == b
    assert render_board(square_board()) == render_board(square_board())
    # nasty text survives: markup characters round-trip, control characters are dropped
    board = hex_board("flat")
    view = View(
        game="t", title='x <y> & "z" \x01', player=None, turn="1", phase="p", board=board,
        pending=Pending("k", "P&Q", "pick <one>"), notes=("a]]>b",),
    )  # fmt: skip
    root = parse(render_view(view))
    assert 'x <y> & "z" ' in texts(root)
    assert "→ P&Q: pick <one>" in texts(root)
    assert "a]]>b" in texts(root)


def test_coordinates_are_rounded() -> None:
    root = parse(render_board(hex_board("pointy"), size=27.3))
    for e in root.iter():
        for name in ("x", "y", "x1", "y1", "x2", "y2", "width", "height"):
            v = e.get(name)
            if v is not None and "." in v:
                assert len(v.split(".")[1]) <= 2
        for p in (e.get("points") or "").replace(",", " ").split():
            assert "." not in p or len(p.split(".")[1]) <= 2


def test_header_shows_the_turn_as_printed() -> None:
    """The view's turn label is printed as the game gives it ("Turn 5", "0640 6 June")."""
    board = Board(
        id="h",
        title="h",
        grid="square",
        cells=[CellSpec("A", Square(0, 0), "open")],
        source=Source("reconstructed: test"),
    )
    for label in ("Turn 5", "0640 6 June"):
        view = View("t", "T", None, label, "fire", board, None)
        texts = [t.text or "" for t in ET.fromstring(render_view(view)).iter(f"{NS}text")]
        assert f"{label} · fire" in texts
        assert not any("Turn Turn" in t for t in texts)


def test_counters_show_symbol_echelon_values_steps_and_badges() -> None:
    board = hex_board("flat")
    view = View(
        game="t", title="t", player=None, turn="1", phase="p", board=board, pending=None,
        pieces=(
            Piece("a", "US", "A/116", "A", "4-6-4", ("disrupted", "fired"), kind="infantry",
                  echelon="I", steps=(1, 2)),
            Piece("t", "US", "C/743 Tank", "B", "6-4"),  # no kind: guessed from the name
            Piece("x", "US", "1/A/116", "D", "3"),  # nothing to guess from: an empty frame
        ),
    )  # fmt: skip
    root = parse(render_view(view, size=SIZE))
    groups = {g.get("data-id"): g for g in by_class(root, "g", "piece")}
    symbols = {
        pid: [s.get("data-symbol") for s in by_class(g, "g", "symbol")] for pid, g in groups.items()
    }
    assert symbols == {"a": ["infantry"], "t": ["armour"], "x": []}
    a = groups["a"]
    assert [t.text for t in by_class(a, "text", "echelon")] == ["I"]
    assert [t.text for t in by_class(a, "text", "values")] == ["4-6-4"]
    steps = by_class(a, "circle", "step")
    assert len(steps) == 2 and len([s for s in steps if "lost" in (s.get("class") or "")]) == 1
    badges = by_class(a, "g", "badge")
    assert [b.get("data-mark") for b in badges] == ["disrupted", "fired"]
    assert [t.text for b in badges for t in b.iter(NS + "text")] == ["D", "F"]
    # badges stay within the counter, below the cell's printed label
    label_y = {e.text: float(e.get("y") or 0) for e in by_class(root, "text", "label")}["A"]
    for b in badges:
        rect = b.find(NS + "rect")
        assert rect is not None and float(rect.get("y") or 0) > label_y
    legend = [e.text for e in by_class(root, "text", "legend")]
    assert "D = disrupted" in legend and "F = fired" in legend
    assert "beach" in legend and "crest (hexside)" in legend and "victory objective" in legend


def test_big_stacks_are_counted_and_many_links_left_out() -> None:
    board = hex_board("flat")
    view = View(
        game="t", title="t", player=None, turn="1", phase="p", board=board, pending=None,
        pieces=tuple(Piece(f"p{k}", "US", f"u{k}", "A") for k in range(6)),
    )  # fmt: skip
    root = parse(render_view(view, size=SIZE))
    (count,) = by_class(root, "g", "stack-count")
    assert [t.text for t in count.iter(NS + "text")] == ["6"]
    assert len(by_class(root, "g", "piece")) == 6
    assert len(by_class(root, "line", "link")) == 2  # few links: drawn
    assert by_class(parse(render_view(view, size=SIZE, links=False)), "line", "link") == []


def test_a_view_draws_itself_in_jupyter_and_sizes_are_checked() -> None:
    view = make_view(hex_board("flat"))
    assert view._repr_svg_().startswith("<svg")
    small, large = parse(render_view(view, size=20)), parse(render_view(view, size=60))
    assert float(large.get("width") or 0) > 2 * float(small.get("width") or 0)
    with pytest.raises(ValueError, match="size must be positive"):
        render_view(view, size=0)


def test_png_output_when_the_renderer_is_installed() -> None:
    pytest.importorskip("resvg_py")
    from omaha.kernel.svg import to_png

    png = to_png(render_board(square_board(), size=SIZE))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) > 1000
