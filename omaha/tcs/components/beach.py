"""The beach geography of TCS Omaha, read off the board and checked.

The map file (``data/map.toml``) carries the printed information as cell props,
features, hexsides, boxes and links; :class:`Beach` turns them into what the
landing rules need, in board indices, once per board:

* tide lines (1.12): prop ``tide`` lists the hours whose line runs through a
  strand hex; each strand column has exactly one line hex per hour;
* beach sectors (1.16): prop ``sector`` ("Easy Red 3"); the in-sector hex count
  runs from the sector's west edge (2.1l: any fixed edge will do);
* special in-sector boundaries (2.1l, Dog Red 1 and Fox Red 8): prop ``rolls``,
  the die rolls printed for the minor sector of a column;
* beach obstacle hexes (2.4): feature ``obstacle``; pill box and rocket pit
  placement limits (3.3g, 3.4) and LCT(R) target limits (2.2a) measure from them;
* landing beach boxes and their six numbered scatter paths (1.17): boxes with
  ``kind = "assault"`` and links of kind ``scatter`` with a ``roll`` prop;
* transport landing boxes (2.1m): boxes with ``kind = "transport"``;
* potential shingle breaches (2.5): hexside feature ``breach``, prop ``breach``
  on its strand hex and ``secures`` on its breach security hexes;
* historical pill box locations (1.7): feature ``pillbox_site``.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs
import numpy as np

from omaha.errors import ScenarioError
from omaha.kernel.board import Board
from omaha.kernel.hexes import DIRECTIONS, Hex
from omaha.kernel.movement import MovementGraph
from omaha.tcs.components.tables import Tables

#: Axial steps for the designator directions N, NE, SE, S, SW, NW on a flat-top
#: map whose row (hex number) grows north.
COMPASS: dict[str, tuple[int, int]] = {
    "N": (0, 1),
    "NE": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, 0),
    "NW": (-1, 1),
}
assert set(COMPASS.values()) == set(DIRECTIONS)


@attrs.frozen
class Sector:
    """TCS Omaha 1.16: a beach sector of up to six hexes."""

    name: str
    beach: str
    number: int
    cols: tuple[int, ...]  # west to east
    special: tuple[tuple[int, tuple[int, ...]], ...] | None  # roll -> columns (2.1l)

    def columns_for(self, roll: int) -> tuple[int, ...]:
        """Columns a landing roll sends a boat to: one hex, several, or none (off map).

        Reading: in a regular sector a roll beyond the sector's last hex lands in
        its last hex (the boat runs in at the sector's far edge).
        """
        if self.special is not None:
            return dict(self.special).get(roll, ())
        return (self.cols[min(roll, len(self.cols)) - 1],)


@attrs.frozen
class Breach:
    """TCS Omaha 2.5: a potential shingle breach hexside and its security hexes."""

    name: str
    strand: int
    land: int
    security: tuple[int, ...]


class Beach:
    """Everything the landing rules read off the map, in board indices."""

    def __init__(self, board: Board, tables: Tables) -> None:
        self.board = board
        self.tables = tables
        name = f"map {board.id}"
        offsets = [board.layout.to_offset(board.hex(i)) for i in range(len(board))]
        self.col: tuple[int, ...] = tuple(o[0] for o in offsets)
        self.row: tuple[int, ...] = tuple(o[1] for o in offsets)
        self.west_col = min(self.col)
        self.west_edge: frozenset[int] = frozenset(
            i for i in range(len(board)) if self.col[i] == self.west_col
        )
        self.strand: frozenset[int] = frozenset(board.cells_where(terrain="beach"))
        self.sea_always: frozenset[int] = frozenset(board.cells_where(terrain="sea"))
        self.obstacles: tuple[int, ...] = board.cells_where(feature="obstacle")
        if not self.obstacles:
            raise ScenarioError(name, "cells", "no beach obstacle hexes (feature 'obstacle')")
        self.pillbox_sites: tuple[int, ...] = board.cells_where(feature="pillbox_site")

        # tide lines: hour -> {column: line cell}
        lines: dict[str, dict[int, int]] = {}
        for i in sorted(self.strand):
            for hour in str(board.prop(i, "tide", "")).split():
                have = lines.setdefault(hour, {})
                if self.col[i] in have:
                    raise ScenarioError(
                        name,
                        board.label(i),
                        f"tide line {hour} is already in {board.label(have[self.col[i]])}",
                    )
                have[self.col[i]] = i
        strand_cols = sorted({self.col[i] for i in self.strand})
        for hour, have in sorted(lines.items()):
            if sorted(have) != strand_cols:
                gap = sorted(set(strand_cols) - set(have))
                raise ScenarioError(name, "tide", f"line {hour} misses strand columns {gap}")
        if not lines:
            raise ScenarioError(name, "cells", "no tide lines (prop 'tide')")
        self.tide_lines: dict[str, dict[int, int]] = lines
        self._sea: dict[str, frozenset[int]] = {}

        # sectors
        cols_by_sector: dict[str, set[int]] = {}
        rolls: dict[int, str] = {}
        for i in sorted(self.strand):
            s = board.prop(i, "sector")
            if s is not None:
                cols_by_sector.setdefault(str(s), set()).add(self.col[i])
            r = board.prop(i, "rolls")
            if r is not None:
                rolls[self.col[i]] = str(r)
        sectors = []
        for sname, cset in cols_by_sector.items():
            parts = sname.rsplit(" ", 1)
            if len(parts) != 2 or not parts[1].isdigit():
                raise ScenarioError(name, "sector", f"{sname!r} is not '<beach> <number>'")
            cols = tuple(sorted(cset))
            if cols != tuple(range(cols[0], cols[-1] + 1)):
                raise ScenarioError(name, "sector", f"{sname} is not a run of adjacent hexrows")
            if len(cols) > 6:
                raise ScenarioError(name, "sector", f"{sname} has {len(cols)} hexes (up to 6)")
            special = None
            if any(c in rolls for c in cols):
                table: dict[int, list[int]] = {}
                for c in cols:
                    text = rolls.get(c, "")
                    if not text or any(ch not in "123456" for ch in text):
                        raise ScenarioError(
                            name, "rolls", f"{sname} column {c}: rolls {text!r} must be digits 1-6"
                        )
                    for ch in text:
                        table.setdefault(int(ch), []).append(c)
                special = tuple((k, tuple(v)) for k, v in sorted(table.items()))
            sectors.append(Sector(sname, parts[0], int(parts[1]), cols, special))
        self.sectors: tuple[Sector, ...] = tuple(sorted(sectors, key=lambda s: s.cols[0]))
        self._sector_by_name = {s.name: s for s in self.sectors}
        self._sector_of_col = {c: s for s in self.sectors for c in s.cols}
        self.beaches: tuple[str, ...] = tuple(dict.fromkeys(s.beach for s in self.sectors))

        # boxes and scatter paths
        self.assault_boxes: dict[str, str] = {}  # box id -> beach
        self.transport_boxes: dict[str, str] = {}
        for bid, box in sorted(board.boxes.items()):
            kind = box.prop("kind")
            beach = str(box.prop("beach", ""))
            if kind in ("assault", "transport") and beach not in self.beaches:
                raise ScenarioError(name, f"boxes.{bid}", f"beach {beach!r} has no sectors")
            if kind == "assault":
                self.assault_boxes[bid] = beach
            elif kind == "transport":
                self.transport_boxes[bid] = beach
        paths: dict[str, dict[int, str]] = {b: {} for b in self.assault_boxes}
        for link in board.links_of("scatter"):
            if link.start not in self.assault_boxes:
                raise ScenarioError(
                    name, "links", f"scatter path from {link.start!r}: no beach box"
                )
            roll = link.prop("roll")
            sector = str(link.prop("sector", ""))
            if not isinstance(roll, int) or not 1 <= roll <= 6:
                raise ScenarioError(name, "links", f"scatter path of {link.start}: roll {roll!r}")
            if sector not in self._sector_by_name:
                raise ScenarioError(name, "links", f"scatter path to unknown sector {sector!r}")
            if roll in paths[link.start]:
                raise ScenarioError(name, "links", f"{link.start} has two paths numbered {roll}")
            paths[link.start][roll] = sector
        for bid, p in paths.items():
            if sorted(p) != [1, 2, 3, 4, 5, 6]:
                raise ScenarioError(
                    name, "links", f"beach box {bid} needs paths 1-6, has {sorted(p)}"
                )
        self.paths: dict[str, dict[int, str]] = paths

        # land reached from the south edge without crossing the obstacle line
        self.land: frozenset[int] = frozenset(
            i for i in range(len(board)) if i not in self.strand and i not in self.sea_always
        )
        obst = set(self.obstacles)
        self.landward: frozenset[int] = frozenset(self.land - obst)
        dist = board.distances_from(self.obstacles[0])
        for o in self.obstacles[1:]:
            dist = np.minimum(dist, board.distances_from(o))
        self.obstacle_distance: tuple[int, ...] = tuple(int(d) for d in dist.tolist())

        # breaches
        breach_side = {tuple(sorted(p)) for p in board.sides_with("breach")}
        breaches = []
        for i in sorted(self.strand):
            bname = board.prop(i, "breach")
            if bname is None:
                continue
            land = [n for n in board.neighbours[i] if tuple(sorted((i, n))) in breach_side]
            if len(land) != 1:
                raise ScenarioError(name, board.label(i), f"breach {bname}: needs one breach side")
            sec = tuple(
                j for j in range(len(board)) if str(board.prop(j, "secures", "")) == str(bname)
            )
            breaches.append(Breach(str(bname), i, land[0], sec))
        self.breaches: tuple[Breach, ...] = tuple(breaches)

        # movement graphs (static costs; tide and occupancy are per query)
        foot = dict(tables.foot_costs)
        vehicle = dict(tables.vehicle_costs)

        self.road: frozenset[int] = frozenset(board.cells_where(feature="road"))

        def foot_cost(a: int, b: int) -> int | None:
            """Foot movement (1.3, 1.9, 1.10, 1.13): the shingle's cost is taken off again
            where a breach is open (2.5b); a road negates the bocage's cost (1.3)."""
            base = foot.get(board.terrain[b])
            if base is None:
                return None
            extra = 0
            for feat, _ in board.crossing(a, b):
                if feat == "cliff":
                    return None
                if feat == "shingle":
                    extra += tables.shingle_cost
                if feat == "extreme_slope":
                    extra += tables.slope_cost
                if feat == "bocage" and not (a in self.road and b in self.road):
                    extra += tables.bocage_cost
            return base + extra

        def vehicle_cost(a: int, b: int) -> int | None:
            """Vehicles and carriers (1.3, 1.9, 1.10, 1.13) cross no cliff, slope, bocage, and
            the shingle only at an open breach (added by the movement rules, 2.5b)."""
            base = vehicle.get(board.terrain[b])
            if base is None:
                return None
            for feat, _ in board.crossing(a, b):
                if feat in ("cliff", "extreme_slope", "shingle", "bocage"):
                    return None
            return base

        self.foot_graph = MovementGraph(board, foot_cost, "foot")
        self.vehicle_graph = MovementGraph(board, vehicle_cost, "vehicle")
        #: breach name -> (strand cell, land cell, vehicle cost each way) for 2.5b traffic
        self.breach_steps: dict[str, tuple[int, int, int, int]] = {
            b.name: (
                b.strand,
                b.land,
                vehicle.get(board.terrain[b.land], 1),
                vehicle.get(board.terrain[b.strand], 1),
            )
            for b in self.breaches
        }
        self.battlefield(board)

    def battlefield(self, board: Board) -> None:
        """What the battle rules read off the map (1.1-1.13, 2.5, 2.6c, 3.1)."""
        n = len(board)
        self.level: tuple[int, ...] = tuple(int(board.prop(i, "level", 0) or 0) for i in range(n))
        self.dz: frozenset[int] = frozenset(board.cells_where(feature="defensive_zone"))
        self.improved: frozenset[int] = frozenset(board.cells_where(feature="improved"))
        self.shingle_sides: frozenset[tuple[int, int]] = frozenset(board.sides_with("shingle"))
        self.bocage_sides: frozenset[tuple[int, int]] = frozenset(board.sides_with("bocage"))
        self.next_to_shingle: frozenset[int] = frozenset(
            c for pair in self.shingle_sides for c in pair
        )
        self.strand_by_shingle: frozenset[int] = self.next_to_shingle & self.strand
        self.breach_by_name: dict[str, Breach] = {b.name: b for b in self.breaches}
        self.breach_of_side: dict[tuple[int, int], str] = {
            (min(b.strand, b.land), max(b.strand, b.land)): b.name for b in self.breaches
        }

        def grouped(key: str) -> dict[str, tuple[int, ...]]:
            out: dict[str, list[int]] = {}
            for i in range(n):
                v = board.prop(i, key)
                if v is not None:
                    out.setdefault(str(v), []).append(i)
            return {k: tuple(v) for k, v in sorted(out.items())}

        self.strongpoints: dict[str, tuple[int, ...]] = grouped("strongpoint")
        self.villages: dict[str, tuple[int, ...]] = grouped("village")
        self.draws: dict[str, tuple[int, ...]] = grouped("draw")
        exits = grouped("exit")
        for name, cells in exits.items():
            if len(cells) != 1:
                raise ScenarioError(f"map {board.id}", "exit", f"exit {name} needs one hex")
        self.exits: dict[str, int] = {k: v[0] for k, v in exits.items()}
        #: hex distances between every two cells, a row of bytes per cell (fast lookups)
        self.dist: tuple[bytes, ...] = tuple(
            bytes(np.minimum(board.distances_from(i), 255).astype(np.uint8).tolist())
            for i in range(n)
        )
        near = sorted(self.strand_by_shingle)
        #: each cell's distance to the nearest strand hex at the shingle (1.13a)
        self.shingle_gap: tuple[int, ...] = tuple(
            min((self.dist[c][x] for x in near), default=0) for c in range(n)
        )
        rows = self.row
        self.north_edge: tuple[int, ...] = tuple(i for i in range(n) if rows[i] == max(rows))
        self.south_edge: tuple[int, ...] = tuple(i for i in range(n) if rows[i] == min(rows))

    # -- tide (1.12) ---------------------------------------------------------
    def line(self, hour: str) -> dict[int, int]:
        """Column -> line hex of the tide line of ``hour`` (``"0700"``)."""
        try:
            return self.tide_lines[hour]
        except KeyError:
            raise KeyError(f"the map has no {hour} tide line") from None

    def sea(self, hour: str) -> frozenset[int]:
        """TCS Omaha 1.12a: all-sea hexes while the line of ``hour`` holds.

        The line hex is the last land hex; strand hexes further out are sea.
        """
        hit = self._sea.get(hour)
        if hit is None:
            line = self.line(hour)
            wet = set(self.sea_always)
            for i in self.strand:
                if self.row[i] > self.row[line[self.col[i]]]:
                    wet.add(i)
            hit = self._sea[hour] = frozenset(wet)
        return hit

    # -- sectors (1.16, 2.1l) -----------------------------------------------------
    def sector(self, name: str) -> Sector:
        return self._sector_by_name[name]

    def has_sector(self, name: str) -> bool:
        return name in self._sector_by_name

    def sector_of(self, cell: int) -> Sector | None:
        """The sector whose hexrows hold a strand hex (None off the beach)."""
        if cell not in self.strand:
            return None
        return self._sector_of_col.get(self.col[cell])

    def sectors_of_beach(self, beach: str) -> tuple[Sector, ...]:
        return tuple(s for s in self.sectors if s.beach == beach)

    def sector_line(self, sector: Sector, hour: str) -> tuple[int, ...]:
        """The sector's hexes on the tide line of ``hour``, counted from the west edge."""
        line = self.line(hour)
        return tuple(line[c] for c in sector.cols)

    def landing_hexes(self, sector: Sector, hour: str, roll: int) -> tuple[int, ...]:
        """TCS Omaha 2.1l: hexes of the ``hour`` line a boat rolling ``roll`` may land in.

        One hex in a regular sector; in Dog Red 1 and Fox Red 8 the minor sector
        printed for the roll (the US player picks when it has several hexes); an
        empty tuple when the roll sends the boat off the map.
        """
        line = self.line(hour)
        return tuple(line[c] for c in sector.columns_for(roll))

    def scatter(self, box: str, roll: int) -> Sector:
        """TCS Omaha 2.1l, 1.17: the sector reached by path ``roll`` of a beach box."""
        return self._sector_by_name[self.paths[box][roll]]

    # -- placement limits (3.3g, 3.4, 2.2a) ------------------------------------
    def pillbox_allowed(self, cell: int, *, variant: bool = False) -> bool:
        """TCS Omaha 3.3g: landward of the obstacle line and at most 5 hexes inland.

        Reading: the obstacle hexes themselves are not "south of that line"; the
        5-hex limit is the distance to the nearest obstacle hex. ``variant``: the
        3.3g A variant, anywhere landward of the highest tide line.
        """
        if variant:
            return cell in self.land or (
                cell in self.strand and cell not in self.sea(self.high_hour)
            )
        return cell in self.landward and self.obstacle_distance[cell] <= self.tables.pillbox_inland

    def rocket_pit_allowed(self, cell: int) -> bool:
        """TCS Omaha 3.4: inland of the obstacle line, at most 10 hexes from an obstacle hex."""
        return (
            cell in self.landward and self.obstacle_distance[cell] <= self.tables.rocket_pit_inland
        )

    def lctr_target_allowed(self, cell: int) -> bool:
        """TCS Omaha 2.2a: at or within 15 hexes of a beach obstacle hex."""
        return self.obstacle_distance[cell] <= self.tables.lctr_target_range

    @property
    def high_hour(self) -> str:
        """The hour whose tide line lies furthest landward (the highest tide line)."""
        return min(
            sorted(self.tide_lines), key=lambda h: sum(self.row[c] for c in self.line(h).values())
        )

    # -- geometry helpers -------------------------------------------------------------
    def step(self, cell: int, direction: str, distance: int) -> int | None:
        """The hex ``distance`` hexes from ``cell`` toward a compass direction (None off map)."""
        h = self.board.hex(cell)
        dq, dr = COMPASS[direction]
        return self.board.at(Hex(h.q + dq * distance, h.r + dr * distance))

    def cells_within(self, cell: int, radius: int) -> tuple[int, ...]:
        return self.board.within(cell, radius)

    def labels(self, cells: Iterable[int]) -> list[str]:
        return [self.board.label(c) for c in cells]
