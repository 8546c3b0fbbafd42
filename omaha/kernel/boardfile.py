"""Loading a :class:`~omaha.kernel.board.Board` from a TOML map file.

Format (every record has a ``source``: a rule reference or
``reconstructed: <why>``)::

    [map]
    id = "lnl"                      # short id
    title = "Omaha: The Battle for the Beach"
    grid = "hex"                    # "hex" | "square"
    orientation = "pointy"          # hex: "flat" | "pointy"
    offset = "odd"                  # hex: which lines are shoved ("odd" | "even")
    labels = "letter-number"        # "letter-number" | "map-col-row" | "named"
    default_terrain = "open"        # terrain of generated cells not listed below
    source = "..."
    rows = ["A", "N"]               # letter-number: first and last row letter
    columns = [1, 18]               # letter-number: first and last column
    [[map.sheets]]                  # map-col-row: one per lettered sheet
    letter = "A"
    origin = [0, 0]                 # global offset of local hexrow 0, hex 0
    hexrows = [1, 33]
    hexes = [1, 23]

    [terrain.beach]                 # optional legend: colour used by the renderer
    colour = "#e9dca8"

    [[cells]]
    at = ["K1..K18"]                # labels or ranges ("K1..K18", "A10.01..A10.09")
    terrain = "beach"
    features = ["road"]
    props = { tide = "0700" }
    absent = false                  # true removes generated cells (irregular edges)
    source = "..."

    [[cells]]                       # named scheme: each cell with its position
    label = "C19"
    xy = [3, 0]
    terrain = "channel"
    source = "..."

    [[hexsides]]
    sides = [["K1", "K2"]]          # pairs of adjacent cells
    feature = "crest"
    up = "high"                     # optional: for each pair, which cell is higher:
                                    # "first" | "second"
    source = "..."

    [[boxes]]
    id = "reinforcements"
    title = "Reinforcements"
    links = ["C19", "C20"]
    props = { }
    source = "..."

    [[links]]
    kind = "arrow"
    start = "B3"
    end = "S2"
    props = { }
    source = "..."
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from omaha.kernel.board import Board, Box, CellSpec, Coord, Link, PropValue, Scheme
from omaha.kernel.data import Node, Source, load_toml
from omaha.kernel.labels import (
    LabelError,
    Layout,
    Sheet,
    format_letter_number,
    format_map_col_row,
    parse_letter_number,
    parse_map_col_row,
    row_index,
)
from omaha.kernel.squares import Square

_MAP_KEYS = {
    "id", "title", "grid", "orientation", "offset", "labels", "default_terrain", "source",
    "rows", "columns", "sheets",
}  # fmt: skip
_CELL_KEYS = {"at", "label", "xy", "terrain", "features", "props", "absent", "source"}

#: Far more cells than any printed map has (TCS Omaha: 900); a file asking for more
#: is refused before anything is built, as are coordinates beyond ``MAX_COORD``.
MAX_CELLS = 100_000
MAX_COORD = 10_000


def load_board(path: str | Path) -> Board:
    """Read a map file; problems raise ``ScenarioError`` naming file and key."""
    return board_from_node(load_toml(path))


def board_from_node(root: Node) -> Board:
    root.only({"map", "terrain", "cells", "hexsides", "boxes", "links"})
    m = root.req("map").only(_MAP_KEYS)
    grid = m.req("grid").as_choice({"hex", "square"})
    scheme = m.req("labels").as_choice({"letter-number", "map-col-row", "named"})
    if grid == "square" and scheme != "named":
        raise m.req("labels").error("a square map uses named labels")
    layout = Layout()
    if grid == "hex":
        orient = m.req("orientation").as_choice({"flat", "pointy"})
        parity = m.req("offset").as_choice({"odd", "even"})
        layout = Layout(
            "flat" if orient == "flat" else "pointy", "odd" if parity == "odd" else "even"
        )
    source = m.source()
    default_terrain = m.get("default_terrain")
    cells: dict[str, CellSpec] = {}
    order: list[str] = []
    sheets: list[Sheet] = []

    def add(label: str, coord: Coord, terrain: str) -> None:
        cells[label] = CellSpec(label, coord, terrain, source=source)
        order.append(label)

    if scheme == "letter-number":
        first, last = _pair(m.req("rows"), str)
        c0, c1 = _span(m.req("columns"), low=0)
        try:
            r0, r1 = row_index(first), row_index(last)
        except LabelError as exc:
            raise m.req("rows").error(str(exc)) from None
        if r1 < r0:
            raise m.req("rows").error(f"the first row {first!r} comes after the last {last!r}")
        if (r1 - r0 + 1) * (c1 - c0 + 1) > MAX_CELLS:
            raise m.req("rows").error(f"rows x columns give more than {MAX_CELLS} cells")
        terrain = default_terrain.as_str() if default_terrain else "open"
        for row in range(r0, r1 + 1):
            for col in range(c0, c1 + 1):
                add(format_letter_number(col, row), layout.to_axial(col, row), terrain)
    elif scheme == "map-col-row":
        terrain = default_terrain.as_str() if default_terrain else "open"
        for sn in m.req("sheets").as_list():
            sn.only({"letter", "origin", "hexrows", "hexes"})
            letter = sn.req("letter").as_str().upper()
            if not re.fullmatch(r"[A-Z]", letter):
                raise sn.req("letter").error("a sheet letter is one letter A-Z")
            if any(s.letter == letter for s in sheets):
                raise sn.req("letter").error(f"sheet {letter} is declared twice")
            ox, oy = _coords(sn.req("origin"))
            sheet = Sheet(letter, ox, oy)
            sheets.append(sheet)
            h0, h1 = _span(sn.req("hexrows"), low=0)
            n0, n1 = _span(sn.req("hexes"), low=0)
            if len(cells) + (h1 - h0 + 1) * (n1 - n0 + 1) > MAX_CELLS:
                raise sn.error(f"the sheets give more than {MAX_CELLS} cells")
            for h in range(h0, h1 + 1):
                for n in range(n0, n1 + 1):
                    col, row = ox + h, oy + n
                    label = format_map_col_row(sheet, col, row)
                    add(label, layout.to_axial(col, row), terrain)
    sheet_map = {s.letter: s for s in sheets}

    def resolve(node: Node, label: str) -> str:
        key = _normal(label, scheme, sheet_map, node)
        if key not in cells:
            raise node.error(f"{label!r} is not on the map")
        return key

    colours: dict[str, str] = {}
    if (tnode := root.get("terrain")) is not None:
        for name, entry in tnode.items():
            entry.only({"colour", "source"})
            if (c := entry.get("colour")) is not None:
                colours[name] = c.as_str()

    for cn in _list(root, "cells"):
        cn.only(_CELL_KEYS)
        src = cn.source()
        if scheme == "named":
            label = cn.req("label").as_str().strip().upper()
            x, y = _coords(cn.req("xy"))
            coord: Coord = Square(x, y) if grid == "square" else layout.to_axial(x, y)
            if label in cells:
                raise cn.req("label").error(f"{label!r} is declared twice")
            if len(cells) >= MAX_CELLS:
                raise cn.error(f"the map has more than {MAX_CELLS} cells")
            add(label, coord, cn.req("terrain").as_str())
            targets = [label]
        else:
            at = cn.req("at")
            targets = []
            for i, text in enumerate(at.as_str_list()):
                where = Node(
                    text, at.file, f"{at.path}[{i}]" if isinstance(at.value, list) else at.path
                )
                targets.extend(
                    resolve(where, lab) for lab in _expand(where, text, scheme, sheet_map)
                )
        if (ab := cn.get("absent")) is not None and ab.as_bool():
            for i, t in enumerate(targets):
                if t not in cells:
                    at_node = cn.req("at")
                    where = (
                        at_node
                        if not isinstance(at_node.value, list)
                        else Node(t, at_node.file, f"{at_node.path}[{i}]")
                    )
                    raise where.error(f"{t!r} is listed twice")
                del cells[t]
            continue
        for t in targets:
            spec = cells[t]
            terrain_node = cn.get("terrain")
            feats = cn.get("features")
            props = cn.get("props")
            cells[t] = CellSpec(
                spec.label,
                spec.coord,
                terrain_node.as_str() if terrain_node else spec.terrain,
                spec.features | frozenset(feats.as_str_list() if feats else ()),
                _merge_props(spec.props, props),
                src,
            )

    sides: dict[tuple[str, str], list[tuple[str, str | None, Source]]] = {}
    for hn in _list(root, "hexsides"):
        hn.only({"sides", "feature", "up", "source"})
        src = hn.source()
        feature = hn.req("feature").as_str()
        up = hn.get("up")
        up_which = up.as_choice({"first", "second"}) if up else None
        for pn in hn.req("sides").as_list():
            pair = pn.as_str_list()
            if len(pair) != 2:
                raise pn.error("a side is a pair of two adjacent cells")
            a, b = (resolve(pn, lab) for lab in pair)
            higher = None if up_which is None else (a if up_which == "first" else b)
            sides.setdefault((a, b), []).append((feature, higher, src))

    boxes: list[Box] = []
    for bn in _list(root, "boxes"):
        bn.only({"id", "title", "links", "props", "source"})
        box_id = bn.req("id").as_str()
        links_node = bn.get("links")
        box_links = (
            [resolve(links_node, lab) for lab in links_node.as_str_list()] if links_node else []
        )
        title = bn.req("title").as_str() if bn.has("title") else box_id
        boxes.append(Box(box_id, title, tuple(box_links), _props(bn.get("props")), bn.source()))
    box_ids = {b.id for b in boxes}

    links: list[Link] = []
    for ln in _list(root, "links"):
        ln.only({"kind", "start", "end", "props", "source"})
        ends = []
        for key in ("start", "end"):
            en = ln.req(key)
            text = en.as_str()
            ends.append(text if text in box_ids else resolve(en, text))
        kind = ln.req("kind").as_str()
        links.append(Link(kind, ends[0], ends[1], _props(ln.get("props")), ln.source()))

    specs = [cells[label] for label in order if label in cells]
    if not specs:
        raise m.error("the map has no cells")
    try:
        return Board(
            id=m.req("id").as_str(),
            title=m.req("title").as_str(),
            grid="hex" if grid == "hex" else "square",
            cells=specs,
            source=source,
            layout=layout,
            scheme=_scheme(scheme),
            sheets=sheets,
            sides={k: v for k, v in sides.items()},
            boxes=boxes,
            links=links,
            terrain_colours=colours,
        )
    except (ValueError, LabelError) as exc:
        raise root.error(str(exc)) from None


def _list(node: Node, key: str) -> list[Node]:
    child = node.get(key)
    return child.as_list() if child is not None else []


def _scheme(text: str) -> Scheme:
    if text == "letter-number":
        return "letter-number"
    if text == "map-col-row":
        return "map-col-row"
    return "named"


def _coords(node: Node) -> tuple[int, int]:
    """A pair of integers within ``-MAX_COORD .. MAX_COORD``."""
    a, b = _pair(node, int)
    if not (-MAX_COORD <= a <= MAX_COORD and -MAX_COORD <= b <= MAX_COORD):
        raise node.error(f"coordinates are between {-MAX_COORD} and {MAX_COORD}")
    return a, b


def _span(node: Node, low: int) -> tuple[int, int]:
    """A range ``[first, last]`` of integers, ``low <= first <= last <= MAX_COORD``."""
    first, last = _pair(node, int)
    if not low <= first <= MAX_COORD or not low <= last <= MAX_COORD:
        raise node.error(f"a range runs within {low}..{MAX_COORD}, not [{first}, {last}]")
    if last < first:
        raise node.error(f"the first value {first} comes after the last {last}")
    return first, last


def _pair(node: Node, kind: type[str] | type[int]) -> tuple[Any, Any]:
    items = node.as_list()
    if len(items) != 2:
        raise node.error("expected a pair [first, last]")
    if kind is int:
        return items[0].as_int(), items[1].as_int()
    return items[0].as_str(), items[1].as_str()


def _props(node: Node | None) -> tuple[tuple[str, PropValue], ...]:
    return _merge_props((), node)


def _merge_props(
    have: tuple[tuple[str, PropValue], ...], node: Node | None
) -> tuple[tuple[str, PropValue], ...]:
    merged = dict(have)
    if node is not None:
        for key, value in node.items():
            v = value.value
            if not isinstance(v, str | int | bool):
                raise value.error("a property is a string, integer or boolean")
            merged[key] = v
    return tuple(sorted(merged.items()))


def _normal(label: str, scheme: str, sheets: dict[str, Sheet], node: Node) -> str:
    """Canonical printed form of a label (``a10.1`` -> ``A10.01``)."""
    try:
        if scheme == "letter-number":
            col, row = parse_letter_number(label)
            return format_letter_number(col, row)
        if scheme == "map-col-row":
            col, row = parse_map_col_row(label, sheets)
            sheet = sheets[label.strip().upper()[0]]
            return format_map_col_row(sheet, col, row)
    except LabelError as exc:
        raise node.error(str(exc)) from None
    return label.strip().upper()


def _expand(node: Node, text: str, scheme: str, sheets: dict[str, Sheet]) -> list[str]:
    """A label, or a straight range ``first..last`` along one row or hexrow."""
    if ".." not in text:
        return [text]
    first, last = (part.strip() for part in text.split("..", 1))
    if scheme == "letter-number":
        try:
            c0, r0 = parse_letter_number(first)
            c1, r1 = parse_letter_number(last)
        except LabelError as exc:
            raise node.error(str(exc)) from None
        if r0 != r1:
            raise node.error(f"range {text!r} must stay in one row")
        _check_range(node, text, c0, c1)
        step = 1 if c1 >= c0 else -1
        return [format_letter_number(c, r0) for c in range(c0, c1 + step, step)]
    if scheme == "map-col-row":
        try:
            c0, r0 = parse_map_col_row(first, sheets)
            c1, r1 = parse_map_col_row(last, sheets)
        except LabelError as exc:
            raise node.error(str(exc)) from None
        sheet = sheets[first.strip().upper()[0]]
        _check_range(node, text, c0 + r0, c1 + r1)
        if c0 == c1:
            step = 1 if r1 >= r0 else -1
            return [format_map_col_row(sheet, c0, r) for r in range(r0, r1 + step, step)]
        if r0 == r1:
            step = 1 if c1 >= c0 else -1
            return [format_map_col_row(sheet, c, r0) for c in range(c0, c1 + step, step)]
        raise node.error(f"range {text!r} must stay in one hexrow or one hex line")
    raise node.error("ranges need a letter-number or map-col-row map")


def _check_range(node: Node, text: str, a: int, b: int) -> None:
    if abs(b - a) > MAX_COORD:
        raise node.error(f"range {text!r} is longer than any map")
