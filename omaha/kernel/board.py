"""Boards: cells of a hex or square grid, hexside features, off-map boxes, links.

Inside the rules a cell is a small ``int`` (its board index): lookups on int
keys are cheap. Printed labels, :class:`~omaha.kernel.hexes.Hex` and
:class:`~omaha.kernel.squares.Square` values are for the public surface.

A board is immutable once built and is shared, never copied, by every state
that uses it (``copy.deepcopy`` returns the board itself).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

import attrs
import numpy as np
import numpy.typing as npt

from omaha.kernel import los
from omaha.kernel.data import Source
from omaha.kernel.hexes import Hex
from omaha.kernel.hexes import distance as hex_distance
from omaha.kernel.labels import (
    LabelError,
    Layout,
    Sheet,
    format_letter_number,
    format_map_col_row,
    label_text,
    parse_letter_number,
    parse_map_col_row,
    shown,
)
from omaha.kernel.squares import Square

#: Most index-level threads a board keeps (the offset-level cache lives in ``los``).
_THREAD_CACHE = 250_000

Grid = Literal["hex", "square"]
Scheme = Literal["letter-number", "map-col-row", "named"]
Coord = Hex | Square
PropValue = str | int | bool


@attrs.frozen
class Hexside:
    """The side between two adjacent cells; the pair is stored sorted."""

    a: Coord
    b: Coord

    @classmethod
    def of(cls, x: Coord, y: Coord) -> Hexside:
        return cls(x, y) if (x < y) else cls(y, x)  # type: ignore[operator]

    def __str__(self) -> str:
        return f"{self.a}|{self.b}"


@attrs.frozen
class SideFeature:
    """A feature on a hexside; ``up`` is the higher cell for directional ones."""

    name: str
    up: int | None
    source: Source


@attrs.frozen
class Box:
    """An off-map box (beach box, reinforcements box, turn-track space)."""

    id: str
    title: str
    links: tuple[str, ...]
    props: tuple[tuple[str, PropValue], ...]
    source: Source

    def prop(self, key: str, default: PropValue | None = None) -> PropValue | None:
        return dict(self.props).get(key, default)


@attrs.frozen
class Link:
    """A printed connection that is not grid adjacency (arrow, scatter path).

    ``start`` and ``end`` are cell labels or box ids.
    """

    kind: str
    start: str
    end: str
    props: tuple[tuple[str, PropValue], ...]
    source: Source

    def prop(self, key: str, default: PropValue | None = None) -> PropValue | None:
        return dict(self.props).get(key, default)


@attrs.frozen
class CellThread:
    """A line-of-sight thread in board indices (``-1`` = a hex off the map)."""

    cells: tuple[int, ...]
    crossed: tuple[tuple[int, int], ...]
    along: tuple[tuple[int, int], ...]
    corners: tuple[tuple[int, int, int], ...]


@attrs.frozen
class CellSpec:
    """One cell as declared to :class:`Board`."""

    label: str
    coord: Coord
    terrain: str
    features: frozenset[str] = frozenset()
    props: tuple[tuple[str, PropValue], ...] = ()
    source: Source | None = None


class Board:
    """An immutable map: cells, adjacency, hexside features, boxes and links."""

    def __init__(
        self,
        *,
        id: str,
        title: str,
        grid: Grid,
        cells: Iterable[CellSpec],
        source: Source,
        layout: Layout | None = None,
        scheme: Scheme = "named",
        sheets: Iterable[Sheet] = (),
        sides: Mapping[tuple[str, str], Iterable[tuple[str, str | None, Source]]] | None = None,
        boxes: Iterable[Box] = (),
        links: Iterable[Link] = (),
        terrain_colours: Mapping[str, str] | None = None,
    ) -> None:
        self.id = id
        self.title = title
        self.grid: Grid = grid
        self.layout = layout or Layout()
        self.scheme: Scheme = scheme
        self.sheets: dict[str, Sheet] = {s.letter: s for s in sheets}
        self.source = source
        specs = list(cells)
        if grid == "hex" and any(not isinstance(c.coord, Hex) for c in specs):
            raise ValueError("a hex board takes Hex coordinates")
        if grid == "square" and any(not isinstance(c.coord, Square) for c in specs):
            raise ValueError("a square board takes Square coordinates")
        self.labels: tuple[str, ...] = tuple(c.label for c in specs)
        self.coords: tuple[Coord, ...] = tuple(c.coord for c in specs)
        self.terrain: tuple[str, ...] = tuple(c.terrain for c in specs)
        self.features: tuple[frozenset[str], ...] = tuple(c.features for c in specs)
        self.props: tuple[Mapping[str, PropValue], ...] = tuple(dict(c.props) for c in specs)
        self.cell_sources: tuple[Source | None, ...] = tuple(c.source for c in specs)
        self._index: dict[str, int] = {}
        for i, label in enumerate(self.labels):
            key = label.upper()
            if key in self._index:
                raise ValueError(f"cell label {label!r} is declared twice")
            self._index[key] = i
        self._at: dict[Coord, int] = {}
        for i, coord in enumerate(self.coords):
            if coord in self._at:
                other = self.labels[self._at[coord]]
                raise ValueError(f"cells {other!r} and {self.labels[i]!r} share position {coord}")
            self._at[coord] = i
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(self._at[n] for n in c.neighbours() if n in self._at) for c in self.coords
        )
        self._sides: dict[tuple[int, int], tuple[SideFeature, ...]] = {}
        for (la, lb), feats in (sides or {}).items():
            a, b = self.cell(la), self.cell(lb)
            if not self.adjacent(a, b):
                raise ValueError(f"{la} and {lb} are not adjacent, so share no side")
            pair = (min(a, b), max(a, b))
            have = list(self._sides.get(pair, ()))
            for name, up, src in feats:
                up_idx = None if up is None else self.cell(up)
                if up_idx is not None and up_idx not in pair:
                    raise ValueError(f"side {la}|{lb}: 'up' cell {up} is not one of its cells")
                have.append(SideFeature(name, up_idx, src))
            self._sides[pair] = tuple(sorted(have, key=lambda f: f.name))
        self.boxes: dict[str, Box] = {}
        for box in boxes:
            if box.id in self.boxes:
                raise ValueError(f"box {box.id!r} is declared twice")
            self.boxes[box.id] = box
        for box in self.boxes.values():
            for label in box.links:
                if label.upper() not in self._index:
                    raise ValueError(f"box {box.id}: {label!r} is not a cell")
        self.links: tuple[Link, ...] = tuple(links)
        for link in self.links:
            for end in (link.start, link.end):
                if end not in self.boxes and end.upper() not in self._index:
                    raise ValueError(f"link {link.kind}: {end!r} is neither a cell nor a box")
        self.terrain_colours: dict[str, str] = dict(terrain_colours or {})
        self._threads: dict[tuple[int, int], CellThread] = {}
        self._q: npt.NDArray[np.int64] = np.array(
            [c.q if isinstance(c, Hex) else c.x for c in self.coords], dtype=np.int64
        )
        self._r: npt.NDArray[np.int64] = np.array(
            [c.r if isinstance(c, Hex) else c.y for c in self.coords], dtype=np.int64
        )

    # -- shared, never copied ----------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        return self

    def __copy__(self) -> Board:
        return self

    def __repr__(self) -> str:
        return f"<Board {self.id}: {len(self)} {self.grid} cells>"

    def __len__(self) -> int:
        return len(self.labels)

    # -- labels and coordinates -------------------------------------------
    def cell(self, label: str) -> int:
        """Board index of a printed label.

        Anything that names no cell -- a label not on this map, a malformed one,
        an empty string, a value that is not a string at all -- raises
        :class:`LabelError` (a ``ValueError``, never a ``KeyError``), whose message
        a game passes on as ``IllegalAction``: ``'Z99' is not on the map 'lnl'``.
        """
        if isinstance(label, str):
            idx = self._index.get(label.upper())  # the common case: a printed label
            if idx is not None:
                return idx
        key = label_text(label).upper()
        idx = self._index.get(key)
        if idx is None:
            idx = self._index.get(self._canonical(key))
        if idx is None:
            raise LabelError(f"{shown(label)} is not on the map {self.id!r}")
        return idx

    def has(self, label: object) -> bool:
        """Whether ``label`` names a cell of this map (never raises)."""
        try:
            self.cell(label)  # type: ignore[arg-type]
        except LabelError:
            return False
        return True

    def _canonical(self, key: str) -> str:
        """The printed form of a well-formed label (``B1.2`` -> ``B1.02``)."""
        if self.scheme == "letter-number":
            return format_letter_number(*parse_letter_number(key))
        if self.scheme == "map-col-row":
            col, row = parse_map_col_row(key, self.sheets)
            return format_map_col_row(self.sheets[key[0]], col, row)
        return key

    def label(self, idx: int) -> str:
        return self.labels[idx]

    def coord(self, idx: int) -> Coord:
        return self.coords[idx]

    def hex(self, idx: int) -> Hex:
        c = self.coords[idx]
        if not isinstance(c, Hex):
            raise TypeError(f"{self.id} is a square board")
        return c

    def at(self, coord: Coord) -> int | None:
        """Index of the cell at a coordinate, or ``None`` off the map."""
        return self._at.get(coord)

    # -- adjacency and distance ---------------------------------------------
    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]

    def distance(self, a: int, b: int) -> int:
        """Grid distance: hex steps, or orthogonal steps on a square grid."""
        ca, cb = self.coords[a], self.coords[b]
        if isinstance(ca, Hex) and isinstance(cb, Hex):
            return hex_distance(ca.q, ca.r, cb.q, cb.r)
        if isinstance(ca, Square) and isinstance(cb, Square):
            return ca.distance(cb)
        raise TypeError("mixed coordinates")

    def distances_from(self, a: int) -> npt.NDArray[np.int64]:
        """Distance from ``a`` to every cell, as an array indexed by cell."""
        dq = self._q - self._q[a]
        dr = self._r - self._r[a]
        if self.grid == "square":
            result: npt.NDArray[np.int64] = np.abs(dq) + np.abs(dr)
            return result
        out: npt.NDArray[np.int64] = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
        return out

    def within(self, a: int, radius: int) -> tuple[int, ...]:
        """Cells at ``radius`` or less from ``a`` (``a`` included), in index order."""
        return tuple(int(i) for i in np.flatnonzero(self.distances_from(a) <= radius))

    # -- sides --------------------------------------------------------------
    def hexside(self, a: int, b: int) -> Hexside:
        if not self.adjacent(a, b):
            raise ValueError(f"{self.labels[a]} and {self.labels[b]} are not adjacent")
        return Hexside.of(self.coords[a], self.coords[b])

    def side_features(self, a: int, b: int) -> frozenset[str]:
        """Names of the features on the side between adjacent cells ``a`` and ``b``."""
        feats = self._sides.get((a, b) if a < b else (b, a), ())
        return frozenset(f.name for f in feats)

    def has_side_feature(self, a: int, b: int, name: str) -> bool:
        feats = self._sides.get((a, b) if a < b else (b, a), ())
        return any(f.name == name for f in feats)

    def crossing(self, a: int, b: int) -> tuple[tuple[str, str | None], ...]:
        """Features met moving from ``a`` into ``b``, each with ``"up"``, ``"down"`` or None."""
        feats = self._sides.get((a, b) if a < b else (b, a), ())
        out: list[tuple[str, str | None]] = []
        for f in feats:
            direction = None if f.up is None else ("up" if f.up == b else "down")
            out.append((f.name, direction))
        return tuple(out)

    def sides_with(self, name: str) -> tuple[tuple[int, int], ...]:
        """All sides carrying a feature, as sorted index pairs, in order."""
        return tuple(
            sorted(k for k, feats in self._sides.items() if any(f.name == name for f in feats))
        )

    def side_records(self) -> tuple[tuple[tuple[int, int], SideFeature], ...]:
        """Every side feature with its side, in a stable order (for rendering, provenance)."""
        return tuple((k, f) for k in sorted(self._sides) for f in self._sides[k])

    # -- cells by attribute ---------------------------------------------------
    def cells_where(
        self, *, terrain: str | None = None, feature: str | None = None
    ) -> tuple[int, ...]:
        return tuple(
            i
            for i in range(len(self.labels))
            if (terrain is None or self.terrain[i] == terrain)
            and (feature is None or feature in self.features[i])
        )

    def prop(self, idx: int, key: str, default: PropValue | None = None) -> PropValue | None:
        return self.props[idx].get(key, default)

    def box_cells(self, box_id: str) -> tuple[int, ...]:
        """Cells printed as linked to an off-map box."""
        return tuple(self.cell(label) for label in self.boxes[box_id].links)

    def links_of(self, kind: str) -> tuple[Link, ...]:
        return tuple(link for link in self.links if link.kind == kind)

    # -- line of sight --------------------------------------------------------
    def thread(self, a: int, b: int) -> CellThread:
        """The exact thread between two cell centres (hex boards), in indices (cached)."""
        hit = self._threads.get((a, b))
        if hit is None:
            if len(self._threads) >= _THREAD_CACHE:
                self._threads.clear()
            hit = self._threads[(a, b)] = self._thread(a, b)
        return hit

    def _thread(self, a: int, b: int) -> CellThread:
        ha, hb = self.hex(a), self.hex(b)
        t = los.thread(ha, hb)

        def idx(h: Hex) -> int:
            i = self._at.get(h)
            return -1 if i is None else i

        return CellThread(
            cells=tuple(idx(h) for h in t.cells),
            crossed=tuple((idx(x), idx(y)) for x, y in t.crossed),
            along=tuple((idx(x), idx(y)) for x, y in t.along),
            corners=tuple((idx(x), idx(y), idx(z)) for x, y, z in t.corners),
        )
