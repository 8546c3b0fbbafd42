"""Bloody Omaha map (3.2): the squares, their terrain and names, exits and gray arrows.

``map.toml`` is a kernel board file (square grid, named labels); this module reads
what the rules need from it into :class:`MapFeatures`, in board indices, and checks
that the map can be played (a Beach row, First Wave and entry squares, Channel
squares that lead to the beach, arrows joining Beach and Strongpoint squares).
"""

from __future__ import annotations

import attrs

from omaha.kernel.board import Board
from omaha.kernel.data import Node
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Check, Field, Int, ListOf, Problems, Provenance, Str, Table
from omaha.kernel.squares import Square

from .checking import entries, text, whole

CHANNEL, BEACH, HEDGEROW, STRONGPOINT, TOWN = "channel", "beach", "hedgerow", "strongpoint", "town"
TERRAINS = (CHANNEL, BEACH, HEDGEROW, STRONGPOINT, TOWN)
#: 3.2: the ID prefix of each terrain's squares.
PREFIX = {CHANNEL: "C", BEACH: "B", HEDGEROW: "H", STRONGPOINT: "S", TOWN: "T"}
FEATURES = ("first_wave", "entry", "southern", "exit", "town", "victory")
BORDERS = ("red", "red/gray")


def _cells(node: Node) -> dict[str, tuple[Node, dict[str, object]]]:
    """The well-formed cells by label."""
    return {
        label: (item, cell)
        for item, cell in entries(node, "cells")
        if (label := text(cell.get("label"))) is not None
    }


def terrains(node: Node) -> dict[str, str]:
    """The terrain of every well-formed square of a map file, by label (for checks that
    read other files against the map before it is built)."""
    return {
        label: terrain
        for label, (_, cell) in _cells(node).items()
        if (terrain := text(cell.get("terrain"))) is not None
    }


def _xy(cell: dict[str, object]) -> tuple[int, int] | None:
    xy = cell.get("xy")
    if isinstance(xy, list) and len(xy) == 2:
        x, y = whole(xy[0]), whole(xy[1])
        if x is not None and y is not None:
            return x, y
    return None


def _cell_sound(node: Node, problems: Problems) -> None:
    """3.2: the label's prefix names the terrain; two numbers for xy; exits and borders
    on Strongpoint squares (3.2.d); the First Wave and entry rows at sea (3.2.a)."""
    cell = node.value
    terrain, label = text(cell.get("terrain")), text(cell.get("label"))
    if terrain in PREFIX and label is not None and not label.startswith(PREFIX[terrain]):
        problems.append(
            node.error(f"{label}: a {terrain} square's label starts with {PREFIX[terrain]} (3.2)")
        )
    if "xy" in cell and _xy(cell) is None:
        problems.append(node.error("xy is two whole numbers [x, y]"))
    props = cell.get("props")
    props = props if isinstance(props, dict) else {}
    for key in ("exit", "border", "wn"):
        if key in props and terrain in PREFIX and terrain != STRONGPOINT:
            problems.append(node.error(f"{label}: only a Strongpoint square has a {key} (3.2.d)"))
    features = cell.get("features")
    for feature in ("first_wave", "entry"):
        if isinstance(features, list) and feature in features and terrain not in (CHANNEL, None):
            problems.append(node.error(f"{label}: a {feature} square is a Channel square (3.2.a)"))


def _map_sound(node: Node, problems: Problems) -> None:
    """One square a position; one Beach row; Channel squares that lead to the beach (6.3),
    the First Wave row facing it (6.4); exits named once (3.2.d); gray arrows joining a
    Beach and a Strongpoint square, each once (6.5.a); the Reinforcements box feeding
    exactly the entry squares (5.3.f)."""
    cells = _cells(node)
    at: dict[tuple[int, int], str] = {}
    for label, (item, cell) in cells.items():
        xy = _xy(cell)
        if xy is None:
            continue
        if xy in at:
            problems.append(item.error(f"{label} stands where {at[xy]} is ({list(xy)})"))
        at.setdefault(xy, label)
    terrain = {label: cell.get("terrain") for label, (_, cell) in cells.items()}
    beach_rows = {xy[1] for xy, label in at.items() if terrain[label] == BEACH}
    if not beach_rows:
        problems.append(node.error("the map has no Beach squares"))
    elif len(beach_rows) > 1:
        problems.append(node.error("the Beach squares must form one row"))
    features: dict[str, set[str]] = {}
    for label, (_, cell) in cells.items():
        fs = cell.get("features")
        for f in fs if isinstance(fs, list) else ():
            if isinstance(f, str):
                features.setdefault(f, set()).add(label)
    for label, (item, cell) in cells.items():
        xy = _xy(cell)
        if terrain[label] != CHANNEL or xy is None:
            continue
        ahead = at.get((xy[0], xy[1] - 1))
        if ahead is None or terrain[ahead] not in (CHANNEL, BEACH):
            problems.append(item.error(f"{label}: no Channel or Beach square directly south"))
        elif label in features.get("first_wave", ()) and terrain[ahead] != BEACH:
            problems.append(item.error(f"{label}: a First Wave square must face a Beach square"))
    if not features.get("first_wave") or not features.get("entry"):
        problems.append(node.error("the map needs First Wave row and entry (C19-C27) squares"))
    exits: dict[str, str] = {}
    for label, (item, cell) in cells.items():
        props = cell.get("props")
        name = props.get("exit") if isinstance(props, dict) else None
        if isinstance(name, str):
            if name in exits:
                problems.append(
                    item.error(f"{label}: exit {name} is already the exit of {exits[name]}")
                )
            exits.setdefault(name, label)
    seen: set[frozenset[str]] = set()
    for item, link in entries(node, "links"):
        start, end = text(link.get("start")), text(link.get("end"))
        if start is None or end is None:
            continue
        ends = (start, end)
        name = f"{start}-{end}"
        unknown = [e for e in ends if e not in cells]
        if unknown:
            problems.append(item.error(f"arrow {name}: {unknown[0]} is not a square of the map"))
            continue
        if frozenset(ends) in seen:
            problems.append(item.error(f"arrow {name} is listed twice"))
        seen.add(frozenset(ends))
        if sorted(str(terrain[e]) for e in ends) != [BEACH, STRONGPOINT]:
            problems.append(item.error(f"arrow {name} must join a Beach and a Strongpoint square"))
    boxes = {text(box.get("id")): (item, box) for item, box in entries(node, "boxes")}
    if "reinforcements" not in boxes:
        problems.append(node.error("the map needs a 'reinforcements' box"))
    else:
        item, box = boxes["reinforcements"]
        links = box.get("links")
        if isinstance(links, list) and set(links) != features.get("entry", set()):
            problems.append(
                item.error("the Reinforcements box must link exactly the entry squares")
            )


CELL = Table(
    {
        "label": Field(
            Str(pattern=r"[A-Z]\d+", meaning="a square's label (C1, B3, H31, S2, T1)"), "as printed"
        ),
        "xy": Field(ListOf(Int(-99, 999)), "[x, y]: x grows east, y north"),
        "terrain": Field(Str(TERRAINS), "its terrain (3.2)"),
        "features": Field(
            ListOf(Str(FEATURES), unique=True),
            "first_wave, entry, southern (H31-H40), exit, town, victory",
            required=False,
        ),
        "props": Field(
            Table(
                {
                    "column": Field(
                        Int(0, 99), "its beach column (as xy's x, which the rules read)", False
                    ),
                    "place": Field(Str(), "a place name printed on the square", False),
                    "beach": Field(Str(), "a Beach square's sector name (3.2.b)", required=False),
                    "town": Field(Str(), "the town it holds (3.2.d-e)", required=False),
                    "wn": Field(
                        Str(), "the Widerstandsnest of a Strongpoint square", required=False
                    ),
                    "exit": Field(
                        Str(), "the draw it opens: D1, D3, E1, E3, F1 (3.2.d)", required=False
                    ),
                    "border": Field(
                        Str(BORDERS),
                        "red, or red/gray: one more Encounter token (4.1)",
                        required=False,
                    ),
                }
            ),
            "what the rules read of it",
            required=False,
        ),
        "source": Field(Provenance(), "where the square comes from"),
    },
    checks=[Check("labels, exits, borders and rows that suit the terrain (3.2)", _cell_sound)],
)
_LINK = Table(
    {
        "kind": Field(Str(("arrow",)), "a gray arrow (6.5.a, 8.5.a)"),
        "start": Field(Str(), "one end"),
        "end": Field(Str(), "the other end"),
        "props": Field(Table({}, open=True), "", required=False),
        "source": Field(Provenance(), "where the arrow comes from"),
    }
)
_BOX = Table(
    {
        "id": Field(Str(), "reinforcements"),
        "title": Field(Str(), "as printed"),
        "links": Field(ListOf(Str(), unique=True), "the squares it feeds (C19-C27, 5.3.f)"),
        "props": Field(Table({}, open=True), "", required=False),
        "source": Field(Provenance(), "where the box comes from"),
    }
)
_TERRAIN = Table(
    {
        "colour": Field(Str(pattern="#[0-9a-fA-F]{6}", meaning="a colour #rrggbb"), "its fill"),
        "source": Field(Provenance(), "where the terrain comes from"),
    }
)
#: ``map.toml``: a kernel board file on a square grid with named labels (3.2).
SCHEMA = Table(
    {
        "map": Field(
            Table(
                {
                    "id": Field(Str(), "the map's id"),
                    "title": Field(Str(), "its title"),
                    "grid": Field(Str(("square",)), "a square grid (3.2)"),
                    "labels": Field(Str(("named",)), "each square named by its printed label"),
                    "source": Field(Provenance(), "where the map comes from"),
                }
            ),
            "the map",
        ),
        "terrain": Field(
            Table({t: Field(_TERRAIN, f"the {t} legend", required=False) for t in TERRAINS}),
            "the legend's colours",
            required=False,
        ),
        "cells": Field(ListOf(CELL, unique_by="label", min_len=1), "every square"),
        "links": Field(ListOf(_LINK), "the gray arrows", required=False),
        "boxes": Field(ListOf(_BOX, unique_by="id"), "the Reinforcements box (3.2.a)"),
    },
    doc="The square-grid map (3.2).",
    checks=[Check("a map the sequence of play can use (3.2, 6.3-6.5, 5.3.f)", _map_sound)],
)


@attrs.frozen
class MapFeatures:
    """What the rules read from the map, in board indices."""

    kind: tuple[str, ...]  # terrain of every cell
    xy: tuple[tuple[int, int], ...]
    column: tuple[int, ...]
    channel: frozenset[int]
    beaches: tuple[int, ...]  # west to east
    land: frozenset[int]
    inland: frozenset[int]
    first_wave: frozenset[int]
    entry: tuple[int, ...]  # C19-C27, west to east
    forward: dict[int, int]  # Channel square -> the square toward the beach (6.3)
    east: dict[int, int]  # Channel square -> the Channel square east of it (6.2)
    land_neighbours: tuple[tuple[int, ...], ...]
    beach_name: dict[int, str]
    exit_name: dict[int, str]
    town_name: dict[int, str]
    bonus: frozenset[int]  # Town and Exit squares (2.3.d)
    southern: frozenset[int]  # H31-H40 (2.3.e)
    strongpoints: tuple[int, ...]
    red_gray: frozenset[int]
    encounter_squares: tuple[int, ...]  # 4.1
    arrows: dict[int, tuple[int, ...]]  # Beach square -> strongpoints firing on it


def read_map(board: Board, node: Node, prov: list[ProvenanceItem]) -> MapFeatures:
    """Read and check the map (3.2, 4.1, 6.3, 6.5.a)."""
    n = len(board)
    for i in range(n):
        if board.terrain[i] not in TERRAINS:
            raise node.error(
                f"cell {board.labels[i]}: terrain {board.terrain[i]!r} is not one of "
                f"{', '.join(TERRAINS)}"
            )
    kind: tuple[str, ...] = board.terrain
    xy = tuple((c.x, c.y) for c in board.coords if isinstance(c, Square))
    channel = frozenset(board.cells_where(terrain=CHANNEL))
    beaches = tuple(sorted(board.cells_where(terrain=BEACH), key=lambda i: xy[i][0]))
    if not beaches:
        raise node.error("the map has no Beach squares")
    land = frozenset(i for i in range(n) if kind[i] != CHANNEL)
    inland = frozenset(land - set(beaches))
    first_wave = frozenset(board.cells_where(feature="first_wave"))
    entry = tuple(sorted(board.cells_where(feature="entry"), key=lambda i: xy[i][0]))
    if not first_wave or not entry:
        raise node.error("the map needs First Wave row and entry (C19-C27) squares")
    if len({xy[b][1] for b in beaches}) != 1:
        raise node.error("the Beach squares must form one row")
    for c in first_wave:
        if kind[c] != CHANNEL:
            raise node.error(f"{board.labels[c]}: a First Wave square must be a Channel square")
    # forward (toward the beach) and east neighbours of Channel squares
    forward: dict[int, int] = {}
    east: dict[int, int] = {}
    for c in channel:
        x, y = xy[c]
        ahead = board.at(Square(x, y - 1))
        if ahead is None or ahead not in channel | set(beaches):
            raise node.error(f"{board.labels[c]}: no Channel or Beach square directly south")
        if c in first_wave and kind[ahead] != BEACH:
            raise node.error(f"{board.labels[c]}: a First Wave square must face a Beach square")
        forward[c] = ahead
        e = board.at(Square(x + 1, y))
        if e is not None and e in channel:
            east[c] = e
    exit_name = {
        i: str(board.prop(i, "exit")) for i in range(n) if board.prop(i, "exit") is not None
    }
    named: dict[str, int] = {}
    for i, name in exit_name.items():
        if kind[i] != STRONGPOINT:
            raise node.error(f"{board.labels[i]}: an Exit must be on a Strongpoint square")
        if name in named:
            raise node.error(
                f"{board.labels[i]}: exit {name} is already the exit of {board.labels[named[name]]}"
            )
        named[name] = i
    town_name = {
        i: str(board.prop(i, "town")) for i in range(n) if board.prop(i, "town") is not None
    }
    strongpoints: tuple[int, ...] = board.cells_where(terrain=STRONGPOINT)
    red_gray = frozenset(i for i in strongpoints if board.prop(i, "border", "red") == "red/gray")
    for i in strongpoints:
        border = board.prop(i, "border", "red")
        if border not in ("red", "red/gray"):
            raise node.error(f"{board.labels[i]}: border {border!r} is not red or red/gray")
    arrows = _arrows(board, node, kind, beaches)
    if "reinforcements" not in board.boxes:
        raise node.error("the map needs a 'reinforcements' box")
    if tuple(sorted(board.box_cells("reinforcements"))) != tuple(sorted(entry)):
        raise node.error("the Reinforcements box must link exactly the entry squares")
    _provenance(board, prov)
    return MapFeatures(
        kind=kind,
        xy=xy,
        column=tuple(x for x, _ in xy),
        channel=channel,
        beaches=beaches,
        land=land,
        inland=inland,
        first_wave=first_wave,
        entry=entry,
        forward=forward,
        east=east,
        land_neighbours=tuple(
            tuple(j for j in board.neighbours[i] if j in land) if i in land else ()
            for i in range(n)
        ),
        beach_name={b: str(board.prop(b, "beach", "")) for b in beaches},
        exit_name=exit_name,
        town_name=town_name,
        bonus=frozenset(i for i in range(n) if i in exit_name or i in town_name),  # 2.3.d
        southern=frozenset(board.cells_where(feature="southern")),  # 2.3.e
        strongpoints=strongpoints,
        red_gray=red_gray,
        encounter_squares=tuple(
            i for i in range(n) if i in red_gray or (i in inland and kind[i] in (TOWN, HEDGEROW))
        ),  # 4.1
        arrows=arrows,
    )


def _arrows(
    board: Board, node: Node, kind: tuple[str, ...], beaches: tuple[int, ...]
) -> dict[int, tuple[int, ...]]:
    """6.5.a, 8.5.a: the gray arrows, which strongpoints fire on each Beach square."""
    arrows: dict[int, list[int]] = {b: [] for b in beaches}
    seen: set[frozenset[int]] = set()
    for link in board.links_of("arrow"):
        ends = [board.cell(link.start), board.cell(link.end)]
        if frozenset(ends) in seen:
            raise node.error(f"arrow {link.start}-{link.end} is listed twice")
        seen.add(frozenset(ends))
        if sorted(kind[e] for e in ends) != [BEACH, STRONGPOINT]:
            raise node.error(
                f"arrow {link.start}-{link.end} must join a Beach and a Strongpoint square"
            )
        b = ends[0] if kind[ends[0]] == BEACH else ends[1]
        sp = ends[1] if b == ends[0] else ends[0]
        arrows[b].append(sp)
    return {b: tuple(sorted(v)) for b, v in arrows.items()}


def _provenance(board: Board, prov: list[ProvenanceItem]) -> None:
    prov.append(ProvenanceItem("map", board.id, board.source))
    for i in range(len(board)):
        src = board.cell_sources[i]
        if src is not None:
            prov.append(ProvenanceItem("map square", board.labels[i], src))
    for link in board.links:
        prov.append(ProvenanceItem("gray arrow", f"{link.start}-{link.end}", link.source))
    box = board.boxes["reinforcements"]
    prov.append(ProvenanceItem("box", box.id, box.source))
