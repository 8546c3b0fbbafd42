"""The LnL Omaha map (``data/map.toml``): its provenance, and the board's facts as
the rules read them (terrain, roads, fortifications, crests, sight, shelter),
computed once per scenario and shared by every state that plays it."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from omaha.errors import ScenarioError
from omaha.kernel import los as klos
from omaha.kernel.actions import natural_key
from omaha.kernel.board import Board
from omaha.kernel.data import Node, Source
from omaha.kernel.labels import LabelError
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Bool, Field, Int, ListOf, Provenance, Str, Table
from omaha.lnl import rules


def map_provenance(node: Node, board: Board) -> list[ProvenanceItem]:
    """Where the layout, the terrain kinds, the cells and the crests come from.

    Also checks that every cell's terrain is one the rules know.
    """
    items = [ProvenanceItem("map", "layout", board.source)]
    terrain = node.get("terrain")
    for _, entry in terrain.items() if terrain is not None else iter(()):
        if entry.has("source"):
            items.append(ProvenanceItem("terrain", entry.path.split(".")[-1], entry.source()))
    by_source: dict[str, list[str]] = {}
    for i, label in enumerate(board.labels):
        src = board.cell_sources[i]
        if src is not None and src != board.source:
            by_source.setdefault(src.text, []).append(label)
    for text, labels in by_source.items():
        items.append(ProvenanceItem("map cells", _short(labels), Source(text)))
    sides: dict[str, list[str]] = {}
    for (a, b), feat in board.side_records():
        sides.setdefault(feat.source.text, []).append(f"{board.label(a)}|{board.label(b)}")
    for text, labels in sides.items():
        items.append(ProvenanceItem("crest hexsides", _short(labels), Source(text)))
    known = set(rules.TERRAIN_COST) | {"ocean"}
    for i, terr in enumerate(board.terrain):
        if terr not in known:
            raise ScenarioError(
                node.file,
                "cells",
                f"{board.label(i)}: terrain {terr!r} is not one of {', '.join(sorted(known))}",
            )
    return items


def _short(labels: list[str]) -> str:
    text = ", ".join(labels)
    return text if len(text) <= 80 else text[:77] + "..."


def cell_at(board: Board, node: Node) -> int:
    """The board index of the hex a data file names (ScenarioError if it is not on the map)."""
    try:
        return board.cell(node.as_str())
    except LabelError:
        raise node.error(f"{node.as_str()!r} is not on the map") from None


def row_of(label: str) -> str:
    """The row letter of an LnL hex label (``"K4"`` -> ``"K"``)."""
    return label.rstrip("0123456789")


def is_land(board: Board, cell: int) -> bool:
    return board.terrain[cell] != "ocean"


class MapTables:
    """Pure per-board facts, computed once and shared by every state of a scenario.

    Sight, paths and shelter are filled in lazily as the rules ask for them; they
    depend only on the board, so they never need to be forgotten.
    """

    def __init__(self, board: Board, victory: Iterable[int]) -> None:
        b = board
        self.board = b
        n = len(b)
        self.n = n
        self.terrain: tuple[str, ...] = b.terrain
        self.road: tuple[bool, ...] = tuple("road" in f for f in b.features)
        self.fort: tuple[bool, ...] = tuple("fortification" in f for f in b.features)
        self.land: tuple[bool, ...] = tuple(t != "ocean" for t in b.terrain)
        self.beachlike: tuple[bool, ...] = tuple(t in rules.BEACHLIKE for t in b.terrain)
        self.neighbours: tuple[tuple[int, ...], ...] = b.neighbours
        self.crest_sides: frozenset[tuple[int, int]] = frozenset(b.sides_with("crest"))
        self.dist: list[list[int]] = [
            [int(x) for x in b.distances_from(a).tolist()] for a in range(n)
        ]
        self.shift: tuple[int, ...] = tuple(
            rules.TERRAIN_SHIFT.get(b.terrain[c], 0)
            + (rules.FORTIFICATION_SHIFT if self.fort[c] else 0)
            for c in range(n)
        )
        #: Sight and shelter by ``a * n + b``, filled as asked: 0 not yet known, 1 no, 2 yes.
        self.los_known = bytearray(n * n)
        self.shelter_known = bytearray(n * n)
        #: Each hex's axial coordinates, and the hex at each (for the shifted threads).
        self.axial: tuple[tuple[int, int], ...] = tuple((h.q, h.r) for h in map(b.hex, range(n)))
        self.cell_at_axial: dict[tuple[int, int], int] = {qr: c for c, qr in enumerate(self.axial)}
        self._offset_paths: dict[
            tuple[int, int], tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
        ] = {}
        self._step_costs: dict[tuple[bool, bool, int], StepCosts] = {}
        self.land_cells: tuple[int, ...] = tuple(c for c in range(n) if self.land[c])
        #: Each hex's place among the labels in natural order (the order actions naming
        #: one hex are listed in: A1, A2, ..., A10; kernel.actions.natural_key).
        by_text = sorted(range(n), key=lambda c: natural_key(b.labels[c]))
        self.label_rank: tuple[int, ...] = tuple(
            r for _, r in sorted((c, r) for r, c in enumerate(by_text))
        )
        # the landing hexes: part ocean/beach next to a beach hex (Setting up the Game)
        self.landing: tuple[int, ...] = tuple(
            c
            for c in range(n)
            if b.terrain[c] == "part_ocean"
            and any(b.terrain[x] == "beach" for x in b.neighbours[c])
        )
        self.victory: tuple[int, ...] = tuple(sorted(victory))
        self.is_victory: tuple[bool, ...] = tuple(c in self.victory for c in range(n))
        #: The draw exits by name (a hex's ``exit`` property), each its hexes in board order.
        exits: dict[str, list[int]] = {}
        for c in range(n):
            name = b.prop(c, "exit")
            if isinstance(name, str):
                exits.setdefault(name, []).append(c)
        self.exits: dict[str, tuple[int, ...]] = {k: tuple(exits[k]) for k in sorted(exits)}
        # Reading R18 (READINGS.md): naval gunfire comes from the sea, to the north.
        row = [b.layout.to_offset(b.hex(c))[1] for c in range(n)]
        self.sea_sheltered: tuple[bool, ...] = tuple(
            any(row[x] > row[c] and self.crest(c, x) for x in b.neighbours[c]) for c in range(n)
        )

    def __deepcopy__(self, memo: dict[int, object]) -> MapTables:
        return self  # shared by every state of the scenario, never copied

    def crest(self, a: int, b: int) -> bool:
        return ((a, b) if a < b else (b, a)) in self.crest_sides

    def los(self, a: int, b: int) -> bool:
        """Whether a unit in ``a`` may see ``b`` (LnL Omaha: Fire Combat).

        Adjacent hexes always see each other. Otherwise the thread from centre to
        centre is blocked by a woods or town hex it passes through, by more than two
        farmland hexes, or by crossing a crest hexside that is a side of neither the
        firer's nor the target's hex. A hex whose side (or corner) the thread only
        touches does not block.

        The thread is judged as the two threads shifted a hair to either side of it
        (see :meth:`paths`): sight is clear if either of them is clear. So a thread
        running down the side of one woods hex is clear, and one crossing the crest
        line exactly at a hex corner crosses the crest. Reading R24 (READINGS.md):
        a thread between two blocking hexes.
        """
        known = self.los_known[a * self.n + b]
        if known:
            return known == 2
        if a == b or self.dist[a][b] <= 1:
            hit = True
        else:
            p1, p2 = self.paths(a, b)
            hit = not self._blocked(p1, a, b) or not self._blocked(p2, a, b)
        self.los_known[a * self.n + b] = self.los_known[b * self.n + a] = 2 if hit else 1
        return hit

    def _blocked(self, path: tuple[int, ...], a: int, b: int) -> bool:
        farm = 0
        for c in path[1:-1]:
            if c < 0:
                continue
            terr = self.terrain[c]
            if terr in rules.LOS_BLOCKING:
                return True
            if terr == "farmland":
                farm += 1
                if farm > rules.FARMLAND_LOS_LIMIT:
                    return True
        for x, y in itertools.pairwise(path):
            if x < 0 or y < 0 or not self.crest(x, y):
                continue
            if a not in (x, y) and b not in (x, y):
                return True
        return False

    def paths(self, a: int, b: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The hexes met by the thread ``a`` -> ``b`` shifted a hair to either side.

        Each is the ordered hex sequence (``a`` first, ``b`` last, -1 for a hex off
        the map): the hexes the thread passes through, plus, on that side, the hexes
        it only touches along a side or at a corner. Consecutive hexes are adjacent,
        so the sides a shifted thread crosses are the consecutive pairs.

        The sequences depend only on the offset from ``a`` to ``b``
        (:meth:`offset_paths`); here they are moved to ``a`` and read as cells.
        """
        qa, ra = self.axial[a]
        qb, rb = self.axial[b]
        at = self.cell_at_axial
        one, two = self.offset_paths(qb - qa, rb - ra)
        return (
            (a, *[at.get((qa + q, ra + r), -1) for q, r in one], b),
            (a, *[at.get((qa + q, ra + r), -1) for q, r in two], b),
        )

    def offset_paths(
        self, dq: int, dr: int
    ) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        """:meth:`paths` from the origin to the offset ``(dq, dr)``, without its two ends:
        the axial offsets of the hexes met between, on the left and on the right.

        A pure function of the offset, kept in ``_offset_paths`` (never dropped).
        """
        key = (dq, dr)
        hit = self._offset_paths.get(key)
        if hit is None:
            hit = self._offset_paths[key] = _offset_paths(dq, dr)
        return hit

    def sheltered(self, firer: int, target: int) -> bool:
        """Whether the target is attacked across a crest from ``firer`` (TEC crest shift).

        Reading R23 (READINGS.md): the thread must enter the target's hex across one
        of its crest hexsides; a crest on the firer's side only gives no shift.
        """
        key = firer * self.n + target
        known = self.shelter_known[key]
        if known:
            return known == 2
        if self.dist[firer][target] == 1:
            hit = self.crest(firer, target)
        else:
            hit = all(p[-2] >= 0 and self.crest(p[-2], target) for p in self.paths(firer, target))
        self.shelter_known[key] = 2 if hit else 1
        return hit

    def terrain_shift(self, cell: int) -> int:
        """Left shifts of the defender's hex: its terrain plus a fortification."""
        return self.shift[cell]

    def step_costs(self, ranger: bool, armor: bool, farmland_cost: int) -> StepCosts:
        """What a unit of this kind pays to step from each hex to each of its neighbours.

        ``costs[a][i]`` is ``(plain, with engineers)`` for the step to
        ``neighbours[a][i]`` (None: it may not), by :func:`rules.enter_cost`.
        """
        key = (ranger, armor, farmland_cost)
        table = self._step_costs.get(key)
        if table is None:
            table = self._step_costs[key] = tuple(
                tuple(
                    (
                        self._enter_cost(a, b, ranger, armor, farmland_cost, False),
                        self._enter_cost(a, b, ranger, armor, farmland_cost, True),
                    )
                    for b in self.neighbours[a]
                )
                for a in range(self.n)
            )
        return table

    def _enter_cost(
        self, a: int, b: int, ranger: bool, armor: bool, farmland_cost: int, engineers: bool
    ) -> int | None:
        return rules.enter_cost(
            self.terrain[b],
            road_to_road=self.road[b] and self.road[a],
            crest=self.crest(a, b),
            ranger=ranger,
            armor=armor,
            engineers=engineers,
            farmland_infantry_cost=farmland_cost,
        )


def _offset_paths(
    dq: int, dr: int
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """The two shifted threads from the origin to ``(dq, dr)`` (see :meth:`MapTables.paths`):
    the cells the kernel's thread passes through plus, on each side of it, the hexes it
    only touches, ordered by where along the thread each is met."""
    t = klos.thread_offset(dq, dr)
    f = (dq - dr, dq + 2 * dr, -2 * dq - dr)

    def mid(h: tuple[int, int]) -> float:
        # where the thread meets the closed hex, as a parameter 0..1 along it
        # (the closed hex of centre h: |f_i(p - h)| <= 1 for the three cube
        # differences f_i; intervals of different hexes overlap at most in a point)
        q, r = h
        lo, hi = 0.0, 1.0
        for fi, hi_ in zip(f, (q - r, q + 2 * r, -2 * q - r), strict=True):
            if fi == 0:
                continue
            x1, x2 = (hi_ - 1) / fi, (hi_ + 1) / fi
            if x1 > x2:
                x1, x2 = x2, x1
            lo, hi = max(lo, x1), min(hi, x2)
        return (lo + hi) / 2

    def side(h: tuple[int, int]) -> int:
        c = dq * h[1] - dr * h[0]
        return (c > 0) - (c < 0)

    cells = [(h.q, h.r) for h in t.cells]
    touching: set[tuple[int, int]] = set()
    for pair in t.along:
        touching.update((h.q, h.r) for h in pair)
    for trio in t.corners:
        touching.update((h.q, h.r) for h in trio)
    touching -= {*cells, (0, 0), (dq, dr)}
    out = []
    for sgn in (1, -1):
        # sorted by offset first, so that the order never rests on a set's
        extra = sorted(h for h in touching if side(h) == sgn)
        out.append(tuple(sorted([*cells, *extra], key=mid)))
    return out[0], out[1]


#: Per hex, per neighbour (in board order): the step's cost plain and with engineers.
StepCosts = tuple[tuple[tuple[int | None, int | None], ...], ...]


# ----------------------------------------------------------------------------
# The file's schema (issue 14): a kernel hex map with LnL Omaha's terrain
# ----------------------------------------------------------------------------
TERRAINS = ("ocean", "part_ocean", "beach", "open", "farmland", "woods", "town")
FEATURES = ("road", "fortification", "victory")
_LABEL = Str(
    pattern=r"[A-Z][0-9]{1,2}(\.\.[A-Z][0-9]{1,2})?",
    meaning="a hex label like K4, or a run of a row like K2..K18",
)
_TERRAIN = Table(
    {
        "colour": Field(Str(pattern="#[0-9a-fA-F]{6}", meaning="a colour #rrggbb"), "its fill"),
        "source": Field(Provenance(), "where the terrain comes from"),
    }
)
_CELL = Table(
    {
        "at": Field(ListOf(_LABEL, unique=True, single=True), "the hexes this entry describes"),
        "terrain": Field(Str(TERRAINS), "their terrain (Terrain Effects Chart)", False),
        "features": Field(
            ListOf(Str(FEATURES), unique=True), "road, fortification, victory", False
        ),
        "props": Field(
            Table(
                {
                    "exit": Field(Str(), "the draw exit the hex belongs to (D-1, D-3)", False),
                    "entry": Field(Str(), "the force entering here", False),
                }
            ),
            "named properties",
            False,
        ),
        "absent": Field(Bool(), "not on the map", False, False),
        "source": Field(Provenance(), "where the hexes come from"),
    }
)
_HEXSIDE = Table(
    {
        "sides": Field(ListOf(ListOf(_LABEL, min_len=2), min_len=1), "pairs of adjacent hexes"),
        "feature": Field(Str(("crest",)), "the hexside feature (a crest)"),
        "up": Field(Str(("first", "second")), "which hex of each pair is uphill", False),
        "source": Field(Provenance(), "where the hexsides come from"),
    }
)
#: ``map.toml``: a kernel board file on a pointy-topped hex grid labelled letter-number.
SCHEMA = Table(
    {
        "map": Field(
            Table(
                {
                    "id": Field(Str(), "the map's id"),
                    "title": Field(Str(), "its title"),
                    "grid": Field(Str(("hex",)), "a hex grid"),
                    "orientation": Field(Str(("pointy", "flat")), "hex orientation"),
                    "offset": Field(Str(("odd", "even")), "which rows sit half a hex over"),
                    "labels": Field(Str(("letter-number",)), "labels like K4 (row, column)"),
                    "rows": Field(ListOf(Str(pattern="[A-Z]"), min_len=2), "first and last row"),
                    "columns": Field(ListOf(Int(1, 99), min_len=2), "first and last column"),
                    "default_terrain": Field(Str(TERRAINS), "terrain of hexes not listed"),
                    "source": Field(Provenance(), "where the map comes from"),
                }
            ),
            "the map",
        ),
        "terrain": Field(
            Table({t: Field(_TERRAIN, f"the {t} legend", False) for t in TERRAINS}),
            "the legend's colours",
            False,
        ),
        "cells": Field(ListOf(_CELL), "hexes with their terrain, features and properties"),
        "hexsides": Field(ListOf(_HEXSIDE), "crest hexsides", False),
        "boxes": Field(
            ListOf(
                Table(
                    {
                        "id": Field(Str(), "the box's id"),
                        "title": Field(Str(), "as shown", False),
                        "source": Field(Provenance(), "where the box comes from"),
                    }
                ),
                unique_by="id",
            ),
            "off-map boxes (reinforcements, eliminated)",
            False,
        ),
    },
    doc="The map (`map`): a hex grid, rows A (inland) to N (the sea), columns 1-18.",
)
