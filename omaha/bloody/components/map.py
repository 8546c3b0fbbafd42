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
from omaha.kernel.squares import Square

CHANNEL, BEACH, HEDGEROW, STRONGPOINT, TOWN = "channel", "beach", "hedgerow", "strongpoint", "town"
TERRAINS = (CHANNEL, BEACH, HEDGEROW, STRONGPOINT, TOWN)


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
