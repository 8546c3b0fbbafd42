"""The map as the rules read it: rows, tide rows, obstacles, landing boxes, movement.

The map itself is a kernel board file (``data/map.toml``, reconstructed: every
record says why). This module derives what the procedures ask of it: the row
of every hex, the beach rows the tide floods, the obstacle hexes, the landing
boxes with their hexes per tide, and one movement graph per movement class
(``data/movement.toml``).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.board import Board
from omaha.kernel.data import Node
from omaha.kernel.labels import LabelError
from omaha.kernel.movement import MovementGraph
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Bool, Check, Field, Int, ListOf, Problems, Provenance, Str, Table

#: The beach row units land on at each tide level.
TIDE_ROWS = {"low": "K", "half": "J", "high": "I"}
TIDE_ORDER = ("low", "half", "high")
#: Rows above the bluff: "high ground" for mortar fire (German Action Summary 16.5).
PLATEAU_ROWS = frozenset("ABCDEF")
MOVE_CLASSES = ("foot", "climber", "vehicle")


LABELS = ListOf(Str(), single=True)
PROPS = Table({}, doc="free properties (tide, draw, sector, index ...)", open=True)
#: The schema of a map file (the kernel's board format, as this game uses it).
MAP_SCHEMA = Table(
    {
        "map": Field(
            Table(
                {
                    "id": Field(Str(), "the map's id"),
                    "title": Field(Str(), "its title"),
                    "grid": Field(Str(("hex",)), "a hex grid"),
                    "orientation": Field(Str(("flat", "pointy")), "hex orientation"),
                    "offset": Field(Str(("odd", "even")), "which rows are shifted"),
                    "labels": Field(Str(("letter-number",)), "hex labels: row letter, column"),
                    "rows": Field(ListOf(Str()), "the first and last row letters"),
                    "columns": Field(ListOf(Int(0)), "the first and last column numbers"),
                    "default_terrain": Field(Str(), "terrain of a hex no entry names", False),
                    "source": Field(Provenance(), "where the map comes from"),
                }
            ),
            "the grid",
        ),
        "terrain": Field(
            Table(
                {},
                open=True,
                values=Table(
                    {
                        "colour": Field(Str(pattern="#[0-9a-fA-F]{6}", meaning="#rrggbb"), ""),
                        "source": Field(Provenance(), "", False),
                    }
                ),
            ),
            "each terrain's colour in pictures",
            False,
        ),
        "cells": Field(
            ListOf(
                Table(
                    {
                        "at": Field(LABELS, "hexes, or runs K1..K32"),
                        "terrain": Field(Str(), "their terrain", False),
                        "features": Field(ListOf(Str()), "features (obstacles ...)", False),
                        "props": Field(PROPS, "properties (tide, draw ...)", False),
                        "absent": Field(Bool(), "true: these hexes are not on the map", False),
                        "source": Field(Provenance(), "where it comes from"),
                    }
                )
            ),
            "the hexes' terrain, features and properties",
        ),
        "hexsides": Field(
            ListOf(
                Table(
                    {
                        "sides": Field(ListOf(ListOf(Str())), "pairs of adjacent hexes"),
                        "feature": Field(Str(), "what runs along them (shingle, bluff ...)"),
                        "up": Field(Str(("first", "second")), "which hex is higher", False),
                        "source": Field(Provenance(), "where it comes from"),
                    }
                )
            ),
            "hexside features",
            False,
        ),
        "boxes": Field(
            ListOf(
                Table(
                    {
                        "id": Field(Str(), "the box's id (L01 ... for landing boxes)"),
                        "title": Field(Str(), "its title", False),
                        "links": Field(ListOf(Str()), "the hexes it leads to", False),
                        "props": Field(PROPS, "properties (sector, index)", False),
                        "source": Field(Provenance(), "where it comes from"),
                    }
                ),
                unique_by="id",
            ),
            "off-map boxes: the landing boxes at sea and the holding boxes",
        ),
        "links": Field(ListOf(Table({}, open=True)), "printed links", False),
    },
    doc="The map (a kernel board file).",
)


def _movement_classes(node: Node, problems: Problems) -> None:
    classes = node.get("class")
    if classes is None or not isinstance(classes.value, list):
        return
    names = {c.get("name") for c in classes.value if isinstance(c, dict)}
    for need in MOVE_CLASSES:
        if need not in names:
            problems.append(classes.error(f"movement class {need!r} is missing"))


COSTS = Table({}, open=True, values=Int(0, 20))
MOVEMENT_SCHEMA = Table(
    {
        "class": Field(
            ListOf(
                Table(
                    {
                        "name": Field(Str(MOVE_CLASSES), "the movement class"),
                        "enter": Field(COSTS, "points to enter a hex, by terrain"),
                        "sides": Field(COSTS, "points to cross a hexside, by feature"),
                        "gated": Field(
                            ListOf(Str(), unique=True), "sides open only with the draw", False
                        ),
                        "source": Field(Provenance(), "where it comes from"),
                    }
                ),
                unique_by="name",
            ),
            "the movement classes",
        ),
    },
    doc="Movement costs per movement class (terrain not listed cannot be entered).",
    checks=[Check("every movement class (foot, climber, vehicle) is given", _movement_classes)],
)


@attrs.frozen
class MapFacts:
    """Row of every hex, obstacle hexes and the hexes each tide level floods."""

    row_of: tuple[str, ...]
    obstacle_cells: frozenset[int]
    flood_cells: dict[str, frozenset[int]]


@attrs.frozen
class LandingBoxes:
    """The landing boxes L01.. (west to east), their sectors and their hexes per tide."""

    boxes: tuple[str, ...]
    box_sector: dict[int, str]
    box_cells: dict[tuple[int, str], tuple[int, ...]]


@attrs.frozen
class Movement:
    """One movement graph per class, and the hexsides closed until a draw opens."""

    moves: dict[str, MovementGraph]
    gates: dict[tuple[int, int], str]


def map_facts(board: Board, node: Node) -> MapFacts:
    """Check the map is a letter-number hex map with the three tide rows; derive its facts."""
    if board.grid != "hex" or board.scheme != "letter-number":
        raise node.req("map").error("the DDOB map is a letter-number hex map")
    row_of = tuple("".join(ch for ch in lab if ch.isalpha()) for lab in board.labels)
    for row in TIDE_ROWS.values():
        if row not in set(row_of):
            raise node.req("map").error(f"the map has no tide row {row}")
    flood_cells: dict[str, frozenset[int]] = {}
    for i, level in enumerate(TIDE_ORDER):
        rows = {TIDE_ROWS[lv] for lv in TIDE_ORDER[:i]}
        flood_cells[level] = frozenset(c for c in range(len(board)) if row_of[c] in rows)
    return MapFacts(
        row_of=row_of,
        obstacle_cells=frozenset(board.cells_where(feature="obstacles")),
        flood_cells=flood_cells,
    )


def cell(board: Board, node: Node) -> int:
    """The cell a label names (a bad label is a ``ScenarioError`` at ``node``)."""
    try:
        return board.cell(node.as_str())
    except LabelError:
        raise node.error(f"{node.as_str()!r} is not on the map") from None


def cells(board: Board, row_of: tuple[str, ...], node: Node) -> list[int]:
    """Cells of a list of labels, where ``"K3..K7"`` is a run along one row."""
    out: list[int] = []
    for i, text in enumerate(node.as_str_list()):
        where = Node(text, node.file, f"{node.path}[{i}]")
        if ".." in text:
            first, last = (t.strip() for t in text.split("..", 1))
            a = cell(board, Node(first, node.file, where.path))
            b = cell(board, Node(last, node.file, where.path))
            ra, rb = row_of[a], row_of[b]
            if ra != rb:
                raise where.error(f"range {text!r} must stay in one row")
            ca, cb = int(board.labels[a][1:]), int(board.labels[b][1:])
            lo, hi = min(ca, cb), max(ca, cb)
            out.extend(board.cell(f"{ra}{c}") for c in range(lo, hi + 1))
        else:
            out.append(cell(board, where))
    return out


def landing_boxes(
    board: Board, row_of: tuple[str, ...], prov: list[ProvenanceItem]
) -> LandingBoxes:
    """The map's landing boxes L01..Lnn, each with a sector and a hex on every tide row."""
    boxes = sorted(b for b in board.boxes if b.startswith("L") and b[1:].isdigit())
    if not boxes:
        raise ScenarioError("map.toml", "boxes", "the map has no landing boxes L01...")
    box_sector: dict[int, str] = {}
    box_cells: dict[tuple[int, str], tuple[int, ...]] = {}
    for i, bid in enumerate(boxes, start=1):
        box = board.boxes[bid]
        if int(bid[1:]) != i:
            raise ScenarioError(
                "map.toml", f"boxes.{bid}", f"landing boxes must run L01..L{len(boxes):02d}"
            )
        sector = box.prop("sector")
        if not isinstance(sector, str):
            raise ScenarioError("map.toml", f"boxes.{bid}.props.sector", "is required")
        box_sector[i] = sector
        for level, row in TIDE_ROWS.items():
            here = tuple(c for c in board.box_cells(bid) if row_of[c] == row)
            if not here:
                raise ScenarioError(
                    "map.toml", f"boxes.{bid}.links", f"no {level}-tide hex (row {row})"
                )
            box_cells[(i, level)] = here
        prov.append(ProvenanceItem("landing box", bid, box.source))
    return LandingBoxes(tuple(boxes), box_sector, box_cells)


def load_movement(root: Node, board: Board, prov: list[ProvenanceItem]) -> Movement:
    """Movement costs per class (``data/movement.toml``) as movement graphs."""
    moves: dict[str, MovementGraph] = {}
    gates: dict[tuple[int, int], str] = {}
    for cn in root.req("class").as_list():
        cn.only({"name", "enter", "sides", "gated", "source"})
        name = cn.req("name").as_choice(set(MOVE_CLASSES))
        enter = {k: v.as_int_in(0, 20) for k, v in cn.req("enter").items()}
        sides = {k: v.as_int_in(0, 20) for k, v in cn.req("sides").items()}
        gated_node = cn.get("gated")
        gated = set(gated_node.as_str_list()) if gated_node is not None else set()
        moves[name] = MovementGraph(board, _edge_cost(board, enter, sides), name)
        if gated:
            for (a, b), feat in board.side_records():
                if feat.name in gated:
                    draw = board.prop(a, "draw") or board.prop(b, "draw")
                    if not isinstance(draw, str):
                        raise cn.req("gated").error(
                            f"side {board.labels[a]}|{board.labels[b]} closes no draw"
                        )
                    gates[(a, b)] = draw
                    gates[(b, a)] = draw
        prov.append(ProvenanceItem("movement", name, cn.source()))
    for need in MOVE_CLASSES:
        if need not in moves:
            raise root.req("class").error(f"movement class {need!r} is missing")
    return Movement(moves, gates)


def _edge_cost(
    board: Board, enter: dict[str, int], sides: dict[str, int]
) -> Callable[[int, int], int | None]:
    def cost(a: int, b: int) -> int | None:
        base = enter.get(board.terrain[b])
        if base is None:
            return None
        extra = 0
        for name, direction in board.crossing(a, b):
            key = name
            if direction is not None and name in ("bluff", "slope", "scaleable_cliff"):
                key = f"{name}_{direction}"
            if key in sides:
                extra += sides[key]
            elif name in sides:
                extra += sides[name]
            else:
                return None
        return base + extra

    return cost
