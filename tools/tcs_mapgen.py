"""Generate ``omaha/tcs/data/map.toml``: the reconstructed TCS Omaha beach maps A and B.

Run from the repository root: ``python tools/tcs_mapgen.py``. The output is the
data file the game loads; this script only records how the reconstruction was
laid out so it can be regenerated or changed consistently. Every record it writes
says ``reconstructed: <why>``: the printed maps are not in our rules text, which
gives only the mechanics (TCS Omaha 1.7-1.17, 2.1l, 2.4, 2.5, 3.3g, 3.4).

Geometry (global offset frame of the two sheets, col 1-50 west to east, row 1-20
south to north; sheet A holds hexrows 1-30, sheet B hexrows 31-50 as B1-B20). Only
the part of each sheet the battle of 6 June needs is laid out: one row of open sea
beyond the lowest tide line, and the plateau inland past Saint-Laurent and
Colleville and the tops of the four draws, into the hedgerow country behind the
villages (rows 1-4); the inland sheets C and D are not needed.

* the sea is north; the beach strand (tidal, ``beach``) is five hexes deep, the
  beach obstacle line (wire and mines, 2.4) lies just landward of the shingle,
  then the beach flat, two rows of bluff face behind extreme-slope hexsides, and
  the plateau with Saint-Laurent and Colleville;
* the first strand row ``S`` is 14 for cols 1-23 and 15 for cols 24-46; east of
  col 46 cliffs meet the sea (no beach);
* draws D-3 (col 4), E-1 (col 14), E-3 (col 30) and F-1 (col 41) cut the bluff;
* the plateau behind the bluffs is open fields with woods and farms; south of the
  villages (rows 1-4) hedgerow (bocage, 1.3) fields, a few forest patches (1.2);
  the strongpoints (WN) have defensive zones (1.6) on their pill box sites and
  improved positions for their infantry; each draw's exit is the plateau hex at its top;
* eight beach sectors west to east: Dog Red 1 (cols 1-5, special in-sector
  boundaries, continues off the west edge), Easy Green 2, Easy Red 3-5, Fox Green
  6-7 (Fox Green 7 has five hexes), Fox Red 8 (cols 41-46, special boundaries).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from omaha.kernel.hexes import Hex
from omaha.kernel.labels import Layout

LAYOUT = Layout("flat", "odd")
COLS = range(1, 51)
ROWS = range(1, 21)
BEACH_END = 46  # last column with a beach strand

SCALE = (
    "TCS scale of about 125 m a hex (the designer's note gives 125 yards); "
    "HISTORY.md: beach about 8 km, the 1st ID half about 5 km"
)
SRC_GEO = (
    "reconstructed: 1st ID sector after HISTORY.md (sea north; strand, shingle, beach flat, "
    "bluffs 30-50 m cut by draws, plateau with the villages); " + SCALE
)
SRC_TIDE = (
    "reconstructed: hourly tide lines (1.12) for a semi-diurnal tide with low water about "
    "0530 and high water about 1130 on 6 June (HISTORY.md: H-hour at low water, tide rising "
    "fast, obstacles covered by mid-morning), about one hex an hour across a five-hex strand"
)
SRC_SECTOR = (
    "reconstructed: beach sectors of up to six hexes (1.16) numbered 1-8 west to east and "
    "named after the historical beach they lie on (HISTORY.md order Dog Red, Easy Green, "
    "Easy Red, Fox Green, Fox Red); the text names Dog Red 1 and Fox Red 8 as the end sectors"
)
SRC_SPECIAL = (
    "reconstructed: special in-sector boundaries of Dog Red 1 and Fox Red 8 (2.1l): the die "
    "rolls printed for each minor sector; Dog Red 1 rolls 1-2 lie off the west map edge"
)
SRC_OBST = (
    "reconstructed: continuous beach obstacle hex line (2.4) of wire and mines just "
    "landward of the shingle, where HISTORY.md puts the wire on the beach flat"
)
SRC_SHINGLE = "reconstructed: the shingle bank (1.13) along the landward edge of the strand"
SRC_SLOPE = "reconstructed: bluff faces (1.10 extreme slope) behind the beach flat and draw sides"
SRC_CLIFF = (
    "reconstructed: cliffs (1.9) behind the eastern half of Fox Red and east of the beach, "
    "where the coast turns to cliffs"
)
SRC_DRAW = "reconstructed: draws D-3, E-1, E-3 and F-1 (HISTORY.md), the only vehicle routes"
SRC_VILLAGE = (
    "reconstructed: Saint-Laurent-sur-Mer behind D-3/E-1, Colleville-sur-Mer behind E-3, "
    "Les Moulins at the mouth of D-3 (HISTORY.md)"
)
SRC_PILLBOX = (
    "reconstructed: historical pill box locations (1.7) at the Widerstandsnester of the "
    "1st ID front (HISTORY.md: WN60 at F-1, WN61-62 at E-3, WN64-65 at E-1, WN66 and WN68 at "
    "D-3); twenty-four sites: the worked landing example (2.1) has 20 pill boxes left at "
    "0740, so more stood at 0640 (see READINGS.md)"
)
SRC_BREACH = (
    "reconstructed: potential shingle breach hexsides (2.5) at each draw and mid-sector, "
    "each with two breach security hexes behind it"
)
SRC_BOX = (
    "reconstructed: landing beach boxes (1.17), one per historical beach, and transport "
    "landing boxes (2.1m)"
)
SRC_SCATTER = (
    "reconstructed: six numbered sector scatter paths per beach box (1.17, 2.1l) with the "
    "eastward drift of HISTORY.md (craft drifted east with the current)"
)
SRC_LEVEL = "reconstructed: ground level for line of sight (0 beach, 1 bluff face, 2 plateau)"
SRC_ROAD = "reconstructed: roads up the draws to the villages and along the plateau"
SRC_WOODS = "reconstructed: wooded patches on the bluff tops (hedgerow country lies inland)"
SRC_FOREST = (
    "reconstructed: a few forest patches (1.2: at least half the hex wooded) in the hedgerow "
    "country south of the villages (HISTORY.md: the bocage lies beyond the villages)"
)
SRC_BUILDING = "reconstructed: isolated farms (1.4 building hexes) on the plateau"
SRC_BOCAGE = (
    "reconstructed: hedgerow (bocage, 1.3) hexsides around the fields south of Saint-Laurent "
    "and Colleville (HISTORY.md: the bocage country lies beyond the villages), fields of "
    "three hexrows by two hexes"
)
SRC_GAPS = (
    "; the roads pass through the hedgerows (no hedgerow hexside along a road from field to "
    "field: the gateways the lanes run through), so vehicles keep to the roads (1.3)"
)
SRC_DZ = (
    "reconstructed: defensive zones (1.6) on the pill box sites of the strongpoints "
    "(HISTORY.md: WN60-WN68 on the 1st ID front)"
)
SRC_IP = (
    "reconstructed: improved positions for the strongpoints' infantry, one behind each "
    "Widerstandsnest (HISTORY.md lists trenches, MG sites and mortar pits)"
)
SRC_WN = "reconstructed: the hexes of each strongpoint (HISTORY.md: WN60-WN68), for victory"
SRC_EXIT = (
    "reconstructed: the exit of each draw is the plateau hex at its top, where its road "
    "leaves the draw (HISTORY.md: the draws were the only ways inland for vehicles)"
)

SECTORS: list[tuple[str, range]] = [
    ("Dog Red 1", range(1, 6)),
    ("Easy Green 2", range(6, 12)),
    ("Easy Red 3", range(12, 18)),
    ("Easy Red 4", range(18, 24)),
    ("Easy Red 5", range(24, 30)),
    ("Fox Green 6", range(30, 36)),
    ("Fox Green 7", range(36, 41)),
    ("Fox Red 8", range(41, 47)),
]
# special in-sector boundaries: the rolls printed in each column
SPECIAL_ROLLS: dict[int, str] = {
    1: "3",
    2: "3",
    3: "4",
    4: "5",
    5: "6",
    41: "12",
    42: "3",
    43: "4",
    44: "5",
    45: "6",
    46: "6",
}
DRAWS = {4: "D-3", 14: "E-1", 30: "E-3", 41: "F-1"}
CLIFF_BACKED = range(43, 47)  # Fox Red east: cliff right behind the obstacle line
# hour -> strand rows seaward of S where the line runs
TIDE = {
    "0000": 0,
    "0100": 0,
    "0200": 1,
    "0300": 2,
    "0400": 3,
    "0500": 4,
    "0600": 4,
    "0700": 3,
    "0800": 2,
    "0900": 1,
    "1000": 1,
    "1100": 0,
    "1200": 0,
    "1300": 1,
    "1400": 2,
    "1500": 3,
    "1600": 4,
    "1700": 4,
    "1800": 4,
    "1900": 3,
    "2000": 2,
    "2100": 1,
    "2200": 1,
    "2300": 0,
}
PILLBOX_SITES: list[tuple[int, int, str]] = [
    (2, 12, "WN68"),
    (3, 11, "WN68"),
    (5, 11, "WN66"),
    (6, 12, "WN66"),
    (7, 11, "WN66"),
    (12, 12, "WN65"),
    (13, 11, "WN65"),
    (15, 11, "WN64"),
    (16, 10, "WN64"),
    (18, 11, "WN64"),
    (29, 13, "WN61"),
    (31, 13, "WN61"),
    (32, 12, "WN62"),
    (33, 11, "WN62"),
    (34, 12, "WN62"),
    (36, 11, "WN62"),
    (39, 12, "WN60"),
    (42, 12, "WN60"),
    (44, 11, "WN60"),
    (45, 10, "WN60"),
    (10, 11, "WN66"),
    (17, 12, "WN64"),
    (28, 12, "WN61"),
    (35, 13, "WN62"),
]
BREACHES: dict[int, str] = {
    4: "D-3",
    8: "Easy Green",
    14: "E-1",
    20: "Easy Red 4",
    26: "Easy Red 5",
    30: "E-3",
    37: "Fox Green 7",
    41: "F-1",
}
VILLAGES: dict[str, list[tuple[int, int]]] = {
    "St-Laurent": [(8, 6), (9, 6), (9, 7), (10, 6), (10, 7), (11, 6), (8, 7), (9, 5)],
    "Colleville": [(29, 6), (30, 6), (30, 7), (31, 6), (31, 7), (32, 6), (30, 5)],
    "Les Moulins": [(3, 12), (5, 12)],
}
WOODS = [(19, 9), (20, 9), (21, 9), (20, 8), (26, 10), (27, 10), (37, 9), (38, 9), (38, 10)]
WOODS += [(47, 12), (48, 12), (49, 11), (48, 11)]
# roads as waypoints; the cells between are filled in along a shortest hex walk
ROADS: list[list[tuple[int, int]]] = [
    [(4, 13), (4, 10), (8, 7)],  # D-3 up to Saint-Laurent
    [(14, 13), (14, 10), (10, 7)],  # E-1 up to Saint-Laurent
    [(30, 14), (30, 7)],  # E-3 up to Colleville
    [(41, 14), (41, 11), (38, 9)],  # F-1
    [(11, 6), (29, 6)],  # plateau road Saint-Laurent - Colleville
    [(32, 6), (38, 9)],  # Colleville towards F-1
    [(9, 5), (9, 1)],  # Saint-Laurent south into the bocage
    [(30, 5), (31, 1)],  # Colleville south
    [(38, 9), (42, 1)],  # F-1 road south
]
FOREST = [(22, 3), (23, 3), (22, 4), (44, 4), (45, 4), (45, 3), (6, 2), (7, 2)]
BUILDINGS = [(17, 4), (25, 2), (36, 3), (47, 7), (20, 7), (12, 3)]
BOCAGE_ROWS = range(1, 5)  # the hedgerow country south of the villages
# improved positions of the strongpoints' infantry (one behind each WN)
IMPROVED = [
    (3, 10, "WN68"),
    (6, 10, "WN66"),
    (12, 10, "WN65"),
    (16, 9, "WN64"),
    (31, 11, "WN61"),
    (33, 10, "WN62"),
    (43, 10, "WN60"),
]


def strand(c: int) -> int:
    return 14 if c <= 23 else 15


def zone(c: int, r: int) -> str:
    if c > BEACH_END:
        if r >= 16:
            return "sea"
        if r == 15:
            return "cliff"
        return "plateau"
    s = strand(c)
    if r >= s + 5:
        return "sea"
    if r >= s:
        return "beach"
    if r == s - 1:
        return "obstacle"
    if c in CLIFF_BACKED and r in (s - 2, s - 3):
        return "cliff"
    if c in DRAWS and s - 4 <= r <= s - 2:
        return "draw"
    if r == s - 2:
        return "flat"
    if r in (s - 3, s - 4):
        return "bluff"
    return "plateau"


TERRAIN = {
    "sea": "sea",
    "beach": "beach",
    "obstacle": "flat",
    "flat": "flat",
    "cliff": "bluff",
    "draw": "draw",
    "bluff": "bluff",
    "plateau": "open",
}
LEVEL = {
    "sea": 0,
    "beach": 0,
    "obstacle": 0,
    "flat": 0,
    "draw": 1,
    "bluff": 1,
    "cliff": 1,
    "plateau": 2,
}


def label(c: int, r: int) -> str:
    if r <= 0:
        return f"C{c}.{r + C_DEPTH:02d}"
    if c <= 30:
        return f"A{c}.{r:02d}"
    return f"B{c - 30}.{r:02d}"


def hexof(c: int, r: int) -> Hex:
    return LAYOUT.to_axial(c, r)


CELLS = {(c, r) for c in COLS for r in ROWS}
C_DEPTH = 24  # hexes of sheet C, south of A and B: global rows 1 - C_DEPTH .. 0
C_ROWS = range(1 - C_DEPTH, 1)
C_CELLS = {(c, r) for c in COLS for r in C_ROWS}
AT = {hexof(c, r): (c, r) for c, r in CELLS | C_CELLS}


def neighbours(c: int, r: int, within: set[tuple[int, int]] = CELLS) -> list[tuple[int, int]]:
    return [AT[h] for h in hexof(c, r).neighbours() if h in AT and AT[h] in within]


def _closer(n: tuple[int, int], goal: tuple[int, int]) -> tuple[int, float]:
    """Sort key: hex distance to the goal, then straight-line distance (a straight road)."""
    gx, gy = LAYOUT.centre(hexof(*goal))
    x, y = LAYOUT.centre(hexof(*n))
    return hexof(*n).distance(hexof(*goal)), (x - gx) ** 2 + (y - gy) ** 2


def walk(
    waypoints: list[tuple[int, int]], within: set[tuple[int, int]] = CELLS
) -> list[tuple[int, int]]:
    """Adjacent cells from waypoint to waypoint, each step closing the distance."""
    path = [waypoints[0]]
    for goal in waypoints[1:]:
        while path[-1] != goal:
            here = path[-1]
            path.append(min(neighbours(*here, within), key=lambda n, g=goal: _closer(n, g)))
    return path


def sheet_of(cell: tuple[int, int]) -> str:
    return label(*cell)[0]


def q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def runs(cells: list[tuple[int, int]]) -> list[str]:
    """Cells of one row as label ranges, split at the sheet edge."""
    out: list[str] = []
    cells = sorted(cells)
    i = 0
    while i < len(cells):
        j = i
        while (
            j + 1 < len(cells)
            and cells[j + 1][0] == cells[j][0] + 1
            and cells[j + 1][1] == cells[j][1]
            and sheet_of(cells[j + 1]) == sheet_of(cells[i])
        ):
            j += 1
        a, b = cells[i], cells[j]
        out.append(label(*a) if a == b else f"{label(*a)}..{label(*b)}")
        i = j + 1
    return out


def cells_record(
    cells: list[tuple[int, int]],
    source: str,
    *,
    terrain: str | None = None,
    features: list[str] | None = None,
    props: dict[str, str | int] | None = None,
) -> str:
    by_row: dict[int, list[tuple[int, int]]] = {}
    for c, r in cells:
        by_row.setdefault(r, []).append((c, r))
    at: list[str] = []
    for r in sorted(by_row, reverse=True):
        at.extend(runs(by_row[r]))
    lines = ["[[cells]]", "at = [" + ", ".join(q(a) for a in at) + "]"]
    if terrain:
        lines.append(f"terrain = {q(terrain)}")
    if features:
        lines.append("features = [" + ", ".join(q(f) for f in features) + "]")
    if props:
        inner = ", ".join(f"{k} = {q(v) if isinstance(v, str) else v}" for k, v in props.items())
        lines.append("props = { " + inner + " }")
    lines.append(f"source = {q(source)}")
    return "\n".join(lines) + "\n"


def sides_record(
    pairs: list[tuple[tuple[int, int], tuple[int, int]]],
    feature: str,
    source: str,
    up: str | None = None,
) -> str:
    lines = ["[[hexsides]]", f"feature = {q(feature)}"]
    if up:
        lines.append(f"up = {q(up)}")
    lines.append("sides = [")
    for a, b in pairs:
        lines.append(f"  [{q(label(*a))}, {q(label(*b))}],")
    lines.append("]")
    lines.append(f"source = {q(source)}")
    return "\n".join(lines) + "\n"


SHEET_AB = [
    "[[map.sheets]]",
    'letter = "A"',
    "origin = [0, 0]",
    "hexrows = [1, 30]",
    "hexes = [1, 20]",
    "",
    "[[map.sheets]]",
    'letter = "B"',
    "origin = [30, 0]",
    "hexrows = [1, 20]",
    "hexes = [1, 20]",
    "",
]
COLOURS = (
    ("sea", "#4a7fb5"),
    ("beach", "#eedc9a"),
    ("flat", "#d8d0a8"),
    ("bluff", "#b89870"),
    ("draw", "#d6c49a"),
    ("open", "#e8ecd0"),
    ("woods", "#7fa86a"),
    ("forest", "#4f7f45"),
    ("village", "#c9a98a"),
    ("building", "#a08070"),
)


def header(
    comment: str,
    map_id: str,
    title: str,
    source: str,
    sheets: list[str],
    colours: tuple[tuple[str, str], ...] = COLOURS,
) -> list[str]:
    out = [
        comment,
        "# Generated by tools/tcs_mapgen.py; every record states its provenance.",
        "# Labels: map letter, hexrow left to right, hex bottom to top (1.15): A10.10.",
        "",
        "[map]",
        f"id = {q(map_id)}",
        f"title = {q(title)}",
        'grid = "hex"',
        'orientation = "flat"',
        'offset = "odd"',
        'labels = "map-col-row"',
        'default_terrain = "open"',
        f"source = {q(source)}",
        "",
        *sheets,
    ]
    for name, colour in colours:
        out.append(f'[terrain.{name}]\ncolour = "{colour}"\n')
    return out


def beach_maps(road_gaps: bool = False) -> list[str]:
    """The records of maps A and B (the beach), after the header; ``road_gaps``: the
    roads pass through the hedgerows (the campaign's maps, where vehicles go inland)."""
    out: list[str] = []
    zones = {cell: zone(*cell) for cell in CELLS}
    # terrain by zone
    for z in ("sea", "beach", "obstacle", "flat", "cliff", "draw", "bluff"):
        cells = [cell for cell, zz in zones.items() if zz == z]
        if cells:
            out.append(cells_record(cells, SRC_GEO, terrain=TERRAIN[z]))
    out.append(
        cells_record(
            [c for c, z in zones.items() if z == "obstacle"], SRC_OBST, features=["obstacle"]
        )
    )
    for z in ("sea", "beach", "obstacle", "flat", "cliff", "draw", "bluff", "plateau"):
        cells = [cell for cell, zz in zones.items() if zz == z]
        if cells:
            out.append(cells_record(cells, SRC_LEVEL, props={"level": LEVEL[z]}))
    # draws
    for col, name in sorted(DRAWS.items()):
        cells = [(col, r) for r in ROWS if zones[(col, r)] == "draw"]
        out.append(cells_record(cells, SRC_DRAW, props={"draw": name}))
    # villages and woods
    for name, cells in VILLAGES.items():
        out.append(cells_record(cells, SRC_VILLAGE, terrain="village", props={"village": name}))
    out.append(cells_record(WOODS, SRC_WOODS, terrain="woods"))
    out.append(cells_record(FOREST, SRC_FOREST, terrain="forest"))
    out.append(cells_record(BUILDINGS, SRC_BUILDING, terrain="building"))
    road_cells: set[tuple[int, int]] = set()
    for waypoints in ROADS:
        road_cells.update(walk(waypoints))
    out.append(cells_record(sorted(road_cells), SRC_ROAD, features=["road"]))
    # tide lines: cells whose strand row carries the line of each hour
    for c in range(1, BEACH_END + 1):
        assert zones[(c, strand(c))] == "beach"
    by_offset: dict[int, list[str]] = {}
    for hour, off in TIDE.items():
        by_offset.setdefault(off, []).append(hour)
    for off in sorted(by_offset):
        cells = [(c, strand(c) + off) for c in range(1, BEACH_END + 1)]
        out.append(cells_record(cells, SRC_TIDE, props={"tide": " ".join(by_offset[off])}))
    # sectors
    for name, cols in SECTORS:
        cells = [(c, r) for c in cols for r in ROWS if zones[(c, r)] == "beach"]
        out.append(cells_record(cells, SRC_SECTOR, props={"sector": name}))
    for col, rolls in sorted(SPECIAL_ROLLS.items()):
        cells = [(col, r) for r in ROWS if zones[(col, r)] == "beach"]
        out.append(cells_record(cells, SRC_SPECIAL, props={"rolls": rolls}))
    # pill box sites
    for c, r, wn in PILLBOX_SITES:
        assert zones[(c, r)] not in ("sea", "beach", "obstacle"), (c, r)
        out.append(cells_record([(c, r)], SRC_PILLBOX, features=["pillbox_site"], props={"wn": wn}))
    # strongpoints: defensive zones on the sites, improved positions behind them
    sites = [(c, r) for c, r, _ in PILLBOX_SITES]
    out.append(cells_record(sites, SRC_DZ, features=["defensive_zone"]))
    out.append(cells_record([(c, r) for c, r, _ in IMPROVED], SRC_IP, features=["improved"]))
    by_wn: dict[str, list[tuple[int, int]]] = {}
    for c, r, wn in [*PILLBOX_SITES, *IMPROVED]:
        by_wn.setdefault(wn, []).append((c, r))
    for wn, cells in sorted(by_wn.items()):
        out.append(cells_record(cells, SRC_WN, props={"strongpoint": wn}))
    # the exit at the top of each draw
    for col, name in sorted(DRAWS.items()):
        out.append(cells_record([(col, strand(col) - 5)], SRC_EXIT, props={"exit": name}))
    # breaches: the beach cell of the breach side, and its security cells
    breach_pairs = []
    for col, name in sorted(BREACHES.items()):
        s = strand(col)
        breach_pairs.append(((col, s), (col, s - 1)))
        out.append(cells_record([(col, s)], SRC_BREACH, props={"breach": name}))
        security = [(col, s - 2), (col, s - 4)]
        out.append(cells_record(security, SRC_BREACH, props={"secures": name}))

    # hexsides
    shingle, cliff, slope, bocage = [], [], [], []
    special = {*VILLAGES["St-Laurent"], *VILLAGES["Colleville"]}

    def field(c: int, r: int) -> tuple[int, int] | None:
        """The hedgerow field of a cell of the bocage country (None elsewhere)."""
        if r not in BOCAGE_ROWS or zones[(c, r)] != "plateau" or (c, r) in special:
            return None
        return (c - 1) // 3, (r - 1) // 2

    seen: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for a in sorted(CELLS):
        for b in neighbours(*a):
            pair = (a, b) if a < b else (b, a)
            if pair in seen:
                continue
            seen.add(pair)
            za, zb = zones[a], zones[b]
            kinds = {za, zb}
            east = max(a[0], b[0]) > BEACH_END
            if "beach" in kinds and kinds & {"obstacle", "flat", "draw", "bluff", "plateau"}:
                if east:
                    low = a if zones[a] == "beach" else b
                    cliff.append((low, b if low == a else a))
                else:
                    shingle.append(pair)
            elif "cliff" in kinds and kinds & {"sea", "beach", "obstacle", "flat"}:
                lower = a if zones[a] != "cliff" else b
                cliff.append((lower, b if lower == a else a))
            elif ("bluff" in kinds and kinds & {"flat", "obstacle", "draw"}) and len(kinds) == 2:
                low = a if zones[a] != "bluff" else b
                slope.append((low, b if low == a else a))
            fa, fb = field(*a), field(*b)
            gap = road_gaps and a in road_cells and b in road_cells
            if (fa or fb) and fa != fb and (a not in special and b not in special) and not gap:
                bocage.append(pair)
    out.append(sides_record(shingle, "shingle", SRC_SHINGLE))
    out.append(sides_record(breach_pairs, "breach", SRC_BREACH))
    out.append(sides_record(slope, "extreme_slope", SRC_SLOPE, up="second"))
    out.append(sides_record(cliff, "cliff", SRC_CLIFF, up="second"))
    out.append(sides_record(bocage, "bocage", SRC_BOCAGE + (SRC_GAPS if road_gaps else "")))

    # boxes and scatter paths
    beaches = [
        ("DogRed", "Dog Red"),
        ("EasyGreen", "Easy Green"),
        ("EasyRed", "Easy Red"),
        ("FoxGreen", "Fox Green"),
        ("FoxRed", "Fox Red"),
    ]
    for bid, name in beaches:
        out.append(
            "[[boxes]]\n"
            f"id = {q(bid)}\n"
            f"title = {q(name + ' Beach Box')}\n"
            f'props = {{ beach = {q(name)}, kind = "assault" }}\n'
            f"source = {q(SRC_BOX)}\n"
        )
    for bid, name in beaches:
        out.append(
            "[[boxes]]\n"
            f"id = {q(bid + '-T')}\n"
            f"title = {q(name + ' Transport Box')}\n"
            f'props = {{ beach = {q(name)}, kind = "transport" }}\n'
            f"source = {q(SRC_BOX)}\n"
        )
    paths = {
        "DogRed": [
            "Dog Red 1",
            "Dog Red 1",
            "Dog Red 1",
            "Easy Green 2",
            "Easy Green 2",
            "Easy Red 3",
        ],
        "EasyGreen": [
            "Dog Red 1",
            "Easy Green 2",
            "Easy Green 2",
            "Easy Red 3",
            "Easy Red 3",
            "Easy Red 4",
        ],
        "EasyRed": [
            "Easy Green 2",
            "Easy Red 3",
            "Easy Red 4",
            "Easy Red 5",
            "Fox Green 6",
            "Fox Green 6",
        ],
        "FoxGreen": [
            "Easy Red 5",
            "Fox Green 6",
            "Fox Green 7",
            "Fox Green 7",
            "Fox Red 8",
            "Fox Red 8",
        ],
        "FoxRed": ["Fox Green 7", "Fox Red 8", "Fox Red 8", "Fox Red 8", "Fox Red 8", "Fox Red 8"],
    }
    cols_of = dict(SECTORS)
    for bid, _ in beaches:
        for roll, sector in enumerate(paths[bid], start=1):
            cols = list(cols_of[sector])
            mid = cols[len(cols) // 2]
            end = (mid, strand(mid) + TIDE["0600"])
            out.append(
                "[[links]]\n"
                'kind = "scatter"\n'
                f"start = {q(bid)}\n"
                f"end = {q(label(*end))}\n"
                f"props = {{ roll = {roll}, sector = {q(sector)} }}\n"
                f"source = {q(SRC_SCATTER)}\n"
            )
    return out


# ---------------------------------------------------------------- sheet C (inland)
# Sheet C lies south of A and B across their whole width (hexrows 1-50, hexes 1-24;
# hex C.24 touches A/B .01). Local hex h of C is global row h - C_DEPTH. Places are
# given here in (hexrow, local hex).
SHEET_C = [
    "[[map.sheets]]",
    'letter = "C"',
    f"origin = [0, {-C_DEPTH}]",
    "hexrows = [1, 50]",
    f"hexes = [1, {C_DEPTH}]",
    "",
]
SRC_C_SOURCES = (
    "HISTORY.md (the bocage beyond the villages); the Comite du Debarquement's page on "
    "Formigny and Tour-en-Bessin (maps.dday-comitedudebarquement.fr/en/formigny: Formigny at "
    "the crossroads of the RN13 and the road to Saint-Laurent and Vierville, the 7 June attack "
    "halted 800 m short of it, the 18th Infantry taking it early on 8 June, the 26th crossing "
    "the Aure toward Tour-en-Bessin); Wikipedia, Omaha Beach (the beachhead's objective 8 km "
    "deep, between Port-en-Bessin and the Vire)"
)
SRC_C = (
    "reconstructed: maps A and B as the beach maps, and sheet C, the ground inland to the "
    "game's southern edge, after " + SRC_C_SOURCES + "; " + SCALE
)
SRC_C_GEO = (
    "reconstructed: sheet C, the hedgerow plateau south of Saint-Laurent and Colleville to the "
    "Aure: open fields in hedgerows at about 45 m (level 2), after " + SRC_C_SOURCES
)
SRC_C_VILLAGE = (
    "reconstructed: Formigny (on the RN13 south-south-west of Saint-Laurent), Surrain (north "
    "of the RN13, south of Colleville) and Mosles (on the RN13 towards Tour-en-Bessin), placed "
    "by their distances on a period road map at about 125 m a hex; after " + SRC_C_SOURCES
)
SRC_C_ROAD = (
    "reconstructed: the RN13 (Isigny - Formigny - Bayeux) across sheet C, the roads up to "
    "Saint-Laurent, Colleville and the F-1 road, and the causeway south from Formigny over the "
    "Aure toward Trevieres; after " + SRC_C_SOURCES
)
SRC_C_FLOOD = (
    "reconstructed: the Aure's bottom along the south of sheet C, flooded by the Germans "
    "before the invasion (inundated meadows: slow on foot, closed to vehicles off the "
    "causeways), at level 1; after " + SRC_C_SOURCES
)
SRC_C_HEIGHT = (
    "reconstructed: the rising ground north of the RN13 between Surrain and Mosles (level 3, "
    "about 60 m), the heights over the road the 1st Division had to take"
)
SRC_C_WOODS = "reconstructed: orchards and copses around the villages and farms of sheet C"
SRC_C_BUILDING = "reconstructed: farms and hamlets (1.4 building hexes) of the bocage on sheet C"
SRC_C_BOCAGE = (
    "reconstructed: hedgerow (bocage, 1.3) hexsides around fields of three hexrows by two "
    "hexes over all of sheet C but the villages and the flooded meadows (HISTORY.md: the "
    "bocage country lies beyond the villages)"
)
SRC_C_CROSSROADS = (
    "reconstructed: the crossroads of sheet C held for victory: Formigny's on the RN13 (the "
    "Comite du Debarquement: the crossroads controlled the exit from Omaha to Trevieres) and "
    "the RN13's junctions with the Surrain and Mosles roads"
)

C_VILLAGES: dict[str, list[tuple[int, int]]] = {
    "Formigny": [(6, 11), (7, 11), (7, 12), (8, 11), (8, 12), (6, 12), (7, 10)],
    "Surrain": [(24, 13), (25, 13), (25, 14), (26, 13), (26, 14), (24, 14)],
    "Mosles": [(40, 10), (41, 10), (41, 11), (42, 10), (42, 11), (40, 11)],
}
C_ROADS: list[list[tuple[int, int]]] = [
    [(1, 12), (7, 11), (24, 11), (41, 10), (50, 11)],  # the RN13, Isigny - Bayeux
    [(9, 24), (8, 12)],  # Saint-Laurent - Formigny
    [(31, 24), (26, 14)],  # Colleville - Surrain
    [(26, 13), (25, 11)],  # Surrain - RN13
    [(42, 24), (41, 11)],  # F-1 road - Mosles
    [(7, 10), (4, 1)],  # Formigny - the Aure causeway toward Trevieres
    [(42, 10), (45, 1)],  # Mosles south over the Aure
]
C_CROSSROADS = {"Formigny crossroads": (7, 11), "Surrain road": (25, 11), "Mosles": (41, 10)}
C_FLOOD_ROWS = range(2, 5)  # the Aure bottom, local hexes 2-4
C_FLOOD_COLS = range(1, 39)
C_HEIGHTS = [(c, h) for c in range(32, 39) for h in range(15, 19)]
C_WOODS = [
    (10, 14),
    (11, 14),
    (11, 15),
    (18, 17),
    (19, 17),
    (29, 12),
    (30, 12),
    (36, 8),
    (37, 8),
    (45, 14),
    (46, 14),
    (3, 16),
    (4, 16),
    (47, 6),
    (48, 6),
]
C_FOREST = [(14, 7), (15, 7), (15, 8), (33, 6), (34, 6), (34, 7)]
C_BUILDINGS = [(13, 19), (20, 21), (35, 21), (17, 12), (31, 9), (46, 19), (3, 8), (22, 6)]


def g(cell: tuple[int, int]) -> tuple[int, int]:
    """(hexrow, local hex of C) -> global cell."""
    return cell[0], cell[1] - C_DEPTH


def inland_map() -> list[str]:
    """The records of sheet C, after maps A and B (whose south edge it adjoins)."""
    out: list[str] = []
    village = {g(c) for cells in C_VILLAGES.values() for c in cells}
    road: set[tuple[int, int]] = set()
    for waypoints in C_ROADS:
        road.update(walk([g(w) for w in waypoints], C_CELLS))
    flooded = {
        (c, r) for c, r in C_CELLS if r + C_DEPTH in C_FLOOD_ROWS and c in C_FLOOD_COLS
    } - road
    heights = {g(c) for c in C_HEIGHTS}
    open_cells = sorted(C_CELLS - village - flooded)
    out.append(cells_record(open_cells, SRC_C_GEO, terrain="open"))
    out.append(cells_record(sorted(flooded), SRC_C_FLOOD, terrain="flooded"))
    levels = {c: (3 if c in heights else 2) for c in C_CELLS}
    levels.update({c: 1 for c in flooded})
    for lv, src in ((1, SRC_C_FLOOD), (2, SRC_C_GEO), (3, SRC_C_HEIGHT)):
        out.append(
            cells_record(sorted(c for c, v in levels.items() if v == lv), src, props={"level": lv})
        )
    for name, cells in C_VILLAGES.items():
        out.append(
            cells_record(
                [g(c) for c in cells], SRC_C_VILLAGE, terrain="village", props={"village": name}
            )
        )
    out.append(cells_record([g(c) for c in C_WOODS], SRC_C_WOODS, terrain="woods"))
    out.append(cells_record([g(c) for c in C_FOREST], SRC_C_WOODS, terrain="forest"))
    out.append(cells_record([g(c) for c in C_BUILDINGS], SRC_C_BUILDING, terrain="building"))
    out.append(cells_record(sorted(road), SRC_C_ROAD, features=["road"]))
    for name, cell in C_CROSSROADS.items():
        assert g(cell) in road, name
        out.append(cells_record([g(cell)], SRC_C_CROSSROADS, props={"crossroads": name}))

    # hedgerows: fields of three hexrows by two hexes; the seam with A/B is a hedgerow
    # wherever the A/B side is bocage country too (its rows 1-4)
    def field(c: int, r: int) -> tuple[int, int] | None:
        if (c, r) in C_CELLS:
            if (c, r) in village or (c, r) in flooded:
                return None
            return (c - 1) // 3, (r - 1) // 2
        if (
            r == 1
            and zone(c, r) == "plateau"
            and (c, r) not in {*VILLAGES["St-Laurent"], *VILLAGES["Colleville"]}
        ):
            return (c - 1) // 3, 0
        return None

    road_all = road | {c for w in ROADS for c in walk(w)}
    bocage = []
    seen: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for a in sorted(C_CELLS):
        for b in neighbours(*a, C_CELLS | CELLS):
            pair = (a, b) if a < b else (b, a)
            if pair in seen:
                continue
            seen.add(pair)
            fa, fb = field(*a), field(*b)
            gap = a in road_all and b in road_all
            if (fa or fb) and fa != fb and a not in village and b not in village and not gap:
                bocage.append(pair)
    out.append(sides_record(bocage, "bocage", SRC_C_BOCAGE + SRC_GAPS))
    return out


DATA = Path(__file__).resolve().parents[1] / "omaha" / "tcs" / "data"


def main() -> None:
    ab = header(
        "# TCS Omaha (The Gamers, 1991): the beach maps A and B, reconstructed.",
        "tcs-omaha",
        "TCS Omaha: 1st Infantry Division beaches (maps A and B)",
        SRC_GEO,
        SHEET_AB,
    )
    DATA.mkdir(parents=True, exist_ok=True)
    target = DATA / "map.toml"
    target.write_text("\n".join(ab + beach_maps()))
    print(f"wrote {target}")
    abc = header(
        "# TCS Omaha (The Gamers, 1991): maps A and B (the beach) and C (inland), reconstructed.",
        "tcs-omaha-abc",
        "TCS Omaha: the 1st Infantry Division beaches and the ground inland (maps A, B and C)",
        SRC_C,
        SHEET_AB + SHEET_C,
        (*COLOURS, ("flooded", "#9fc4c8")),
    )
    target = DATA / "map-abc.toml"
    target.write_text("\n".join(abc + beach_maps(road_gaps=True) + inland_map()))
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
