"""LnL Omaha: the published tables and the procedures as small pure functions.

The Fire Results Table, the Close Assault Table and the Terrain Effects Chart are
facts of the rules text, kept here as data. Each function cites the section it
implements ("LnL Omaha: <section>"); a "Reading:" paragraph records how an
ambiguity of the text is settled.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from omaha.kernel import los as klos
from omaha.kernel.board import Board
from omaha.kernel.hexes import Hex

if TYPE_CHECKING:
    from omaha.lnl.scenario import LnlScenario

# --------------------------------------------------------------------------
# Fire Results Table (LnL Omaha: Fire Results Table)
# --------------------------------------------------------------------------
FRT_COLUMNS: tuple[int, ...] = (3, 6, 12, 18, 24, 36, 48)
#: Results by action card value (1-6), one per column. "D" Disrupted, "L<n>" Loss n.
FRT: dict[int, tuple[str, ...]] = {
    1: ("D", "D", "L1", "L2", "L2", "L3", "L3"),
    2: ("NE", "D", "D", "L1", "L1", "L2", "L3"),
    3: ("NE", "NE", "D", "D", "D", "L1", "L2"),
    4: ("NE", "NE", "NE", "D", "D", "D", "L1"),
    5: ("NE", "NE", "NE", "NE", "D", "D", "D"),
    6: ("NE", "NE", "NE", "NE", "NE", "NE", "NE"),
}

# --------------------------------------------------------------------------
# Close Assault Table (LnL Omaha: Close Assault Table)
# --------------------------------------------------------------------------
CAT_COLUMNS: tuple[str, ...] = ("1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1")
CAT: dict[int, tuple[str, ...]] = {
    1: ("DR", "DR", "DR", "DElim", "DElim", "DElim", "DElim"),
    2: ("AR", "AR", "DR", "DR", "DElim", "DElim", "DElim"),
    3: ("AElim", "AElim", "AR", "DR", "DR", "DR", "DElim"),
    4: ("AElim", "NE", "AR", "AR", "DR", "DR", "DR"),
    5: ("NE", "NE", "NE", "NE", "AR", "NE", "DR"),
    6: ("NE", "NE", "NE", "NE", "NE", "NE", "NE"),
}

# --------------------------------------------------------------------------
# Terrain Effects Chart (LnL Omaha: Terrain Effects Chart)
# --------------------------------------------------------------------------
#: Movement cost to enter a hex of the terrain.
#: Reading: the TEC gives no cost for part ocean/beach hexes; they are the wet edge of
#: the beach and cost what the beach costs (2, or 1 moving with or over engineers).
#: Ocean hexes cannot be entered at all (no unit may set up there either).
TERRAIN_COST: dict[str, int] = {
    "open": 1,
    "farmland": 2,
    "woods": 3,
    "town": 2,
    "beach": 2,
    "part_ocean": 2,
}
#: Column shifts to the left for a defender in the terrain (FRT and CAT).
TERRAIN_SHIFT: dict[str, int] = {
    "open": 0,
    "farmland": 1,
    "woods": 1,
    "town": 1,
    "beach": 0,
    "part_ocean": 0,
}
FORTIFICATION_SHIFT = 1
CREST_SHIFT = 1
CREST_MOVE_EXTRA = 1
#: Terrain that engineers turn into clear going (LnL Omaha: Special Units, Engineers).
BEACHLIKE = frozenset({"beach", "part_ocean"})
#: Terrain through which a thread may not pass (LnL Omaha: Fire Combat).
LOS_BLOCKING = frozenset({"woods", "town"})
#: More farmland hexes than this between firer and target block the line of sight.
FARMLAND_LOS_LIMIT = 2


# --------------------------------------------------------------------------
# Fire combat
# --------------------------------------------------------------------------
def fire_total(parts: list[tuple[int, bool]]) -> int:
    """Sum of fire factors, ``(factor, halved)`` per contribution (LnL Omaha: FRT notes).

    A unit firing beyond its printed range (up to twice it) counts half its factor.

    Reading: each halved factor keeps its half point; the fraction of the final
    sum is dropped (two units of 5 at extended range give 5, not 4).
    """
    halves = sum(f if halved else 2 * f for f, halved in parts)
    return halves // 2


def frt_position(total: int) -> int:
    """The FRT column a fire total uses, before shifts: 1..7 for "3".."48".

    0 stands for "left of the 3 column" (1 or 2 factors), which only an
    adjacency or opportunity shift can bring onto the table; -1 means no attack.

    Reading: a total between two printed columns uses the lower one (10 -> "6",
    47 -> "36"); more than 48 uses "48" (LnL Omaha: FRT notes); a total of 0 or
    less (AP that does not exceed the armor) cannot attack at all.
    """
    if total < 1:
        return -1
    pos = 0
    for i, col in enumerate(FRT_COLUMNS, start=1):
        if total >= col:
            pos = i
    return pos


def frt_final(total: int, shift: int) -> int | None:
    """The column after the net shift (right positive), or None if no attack is allowed.

    LnL Omaha: FRT notes: shifts are cumulative; nothing may be resolved left of
    the 3 column; shifts past the 48 column stay on it.
    Reading: the 48 cap is applied to the total first, then the shifts (so 60
    factors against woods use the 36 column), as with the CAT's 6-1 cap.
    """
    pos = frt_position(total)
    if pos < 0:
        return None
    pos += shift
    if pos < 1:
        return None
    return min(pos, len(FRT_COLUMNS))


def frt_label(pos: int) -> str:
    return str(FRT_COLUMNS[pos - 1])


def frt_result(card: int, pos: int) -> str:
    """LnL Omaha: Fire Results Table (row 6 is No Effect in every column)."""
    return FRT[card][pos - 1]


def loss_steps(result: str) -> int:
    """Steps of a "Loss n" result (0 for Disrupted and NE)."""
    return int(result[1:]) if result.startswith("L") else 0


# --------------------------------------------------------------------------
# Close assault
# --------------------------------------------------------------------------
def cat_position(attack: int, defence: int) -> int | None:
    """The CAT column of the odds, before shifts: 0 for "1-2" .. 6 for "6-1".

    LnL Omaha: Close Assault: fractions are dropped (8 v 4 and 10 v 4 are 2-1,
    12 v 4 is 3-1); below 1-2 no attack; above 6-1 the 6-1 column.
    Reading: odds between 1-2 and 1-1 (3 v 4) drop their fraction to 1-2, the
    defender's side, as whole-number odds do (10 v 4 -> 2-1).
    Reading: a hex with no close assault strength at all (0) is attacked at 6-1.
    """
    if attack <= 0:
        return None
    if defence <= 0:
        return len(CAT_COLUMNS) - 1
    if attack >= defence:
        return min(attack // defence, 6)
    if 2 * attack >= defence:
        return 0
    return None


def cat_final(pos: int | None, shift: int) -> int | None:
    """Column after the net shift (right positive); None if it falls left of 1-2.

    Reading: an attack that shifts left of the 1-2 column may not be made, as the
    FRT says of its 3 column; shifts past 6-1 stay on 6-1.
    """
    if pos is None:
        return None
    pos += shift
    if pos < 0:
        return None
    return min(pos, len(CAT_COLUMNS) - 1)


def cat_result(card: int, pos: int) -> str:
    """LnL Omaha: Close Assault Table."""
    return CAT[card][pos]


# --------------------------------------------------------------------------
# Movement
# --------------------------------------------------------------------------
def enter_cost(
    terrain: str,
    *,
    road_to_road: bool,
    crest: bool,
    ranger: bool,
    armor: bool,
    engineers: bool,
    farmland_infantry_cost: int = 2,
) -> int | None:
    """Cost for one unit to enter a hex (LnL Omaha: Movement, TEC, Special Units).

    Road to road costs 1 whatever else is in the hex; otherwise the hex's
    terrain cost (a fortification costs what the terrain beneath it costs).
    Only Rangers cross a crest hexside, paying 1 more. Beach (and part
    ocean/beach, see :data:`TERRAIN_COST`) is clear terrain (1) for units moving
    with or over engineers. In the bonus scenario farmland costs infantry 1.
    None: the unit may not enter.
    """
    if terrain not in TERRAIN_COST:
        return None
    if crest and not ranger:
        return None
    if road_to_road or (terrain in BEACHLIKE and engineers):
        cost = 1
    elif terrain == "farmland" and not armor:
        cost = farmland_infantry_cost
    else:
        cost = TERRAIN_COST[terrain]
    return cost + (CREST_MOVE_EXTRA if crest else 0)


# --------------------------------------------------------------------------
# Line of sight and terrain shifts, cached per scenario
# --------------------------------------------------------------------------
class StaticTables:
    """Pure per-board facts, computed once and shared by every state of a scenario."""

    def __init__(self, scen: LnlScenario) -> None:
        b: Board = scen.board
        self.board = b
        n = len(b)
        self.n = n
        self.terrain: tuple[str, ...] = b.terrain
        self.road: tuple[bool, ...] = tuple("road" in f for f in b.features)
        self.fort: tuple[bool, ...] = tuple("fortification" in f for f in b.features)
        self.land: tuple[bool, ...] = tuple(t != "ocean" for t in b.terrain)
        self.beachlike: tuple[bool, ...] = tuple(t in BEACHLIKE for t in b.terrain)
        self.neighbours: tuple[tuple[int, ...], ...] = b.neighbours
        self.crest_sides: frozenset[tuple[int, int]] = frozenset(b.sides_with("crest"))
        self.dist: list[list[int]] = [
            [int(x) for x in b.distances_from(a).tolist()] for a in range(n)
        ]
        self.shift: tuple[int, ...] = tuple(
            TERRAIN_SHIFT.get(b.terrain[c], 0) + (FORTIFICATION_SHIFT if self.fort[c] else 0)
            for c in range(n)
        )
        self._los: dict[int, bool] = {}
        self._shelter: dict[int, bool] = {}
        self._paths: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        # the landing hexes: part ocean/beach next to a beach hex (Setting up the Game)
        self.landing: tuple[int, ...] = tuple(
            c
            for c in range(n)
            if b.terrain[c] == "part_ocean"
            and any(b.terrain[x] == "beach" for x in b.neighbours[c])
        )
        self.victory: tuple[int, ...] = tuple(sorted(scen.victory_points))
        # Reading: naval gunfire comes from the sea, to the north; a hex with a crest
        # hexside towards the sea (a bunker in the bluff face, the cliff top K1) is
        # attacked across that crest by NGFS.
        row = [b.layout.to_offset(b.hex(c))[1] for c in range(n)]
        self.sea_sheltered: tuple[bool, ...] = tuple(
            any(row[x] > row[c] and self.crest(c, x) for x in b.neighbours[c]) for c in range(n)
        )

    def __deepcopy__(self, memo: dict[int, object]) -> StaticTables:
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
        line exactly at a hex corner crosses the crest.
        Reading: a thread running along the side between two blocking hexes (woods,
        town) is blocked — it has no clear ground to pass over, the common practice
        of hex-and-counter games; farmland beside the thread counts only on the
        side the shifted thread passes.
        """
        key = a * self.n + b
        hit = self._los.get(key)
        if hit is None:
            if a == b or self.dist[a][b] <= 1:
                hit = True
            else:
                p1, p2 = self.paths(a, b)
                hit = not self._blocked(p1, a, b) or not self._blocked(p2, a, b)
            self._los[key] = self._los[b * self.n + a] = hit
        return hit

    def _blocked(self, path: tuple[int, ...], a: int, b: int) -> bool:
        farm = 0
        for c in path[1:-1]:
            if c < 0:
                continue
            terr = self.terrain[c]
            if terr in LOS_BLOCKING:
                return True
            if terr == "farmland":
                farm += 1
                if farm > FARMLAND_LOS_LIMIT:
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
        """
        key = a * self.n + b
        hit = self._paths.get(key)
        if hit is None:
            hit = self._paths[key] = self._compute_paths(a, b)
        return hit

    def _compute_paths(self, a: int, b: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        board = self.board
        ha, hb = board.hex(a), board.hex(b)
        t = klos.thread(ha, hb)
        dq, dr = hb.q - ha.q, hb.r - ha.r
        f = (dq - dr, dq + 2 * dr, -2 * dq - dr)

        def mid(h: Hex) -> float:
            # where the thread meets the closed hex, as a parameter 0..1 along it
            # (the closed hex of centre h: |f_i(p - h)| <= 1 for the three cube
            # differences f_i; intervals of different hexes overlap at most in a point)
            q, r = h.q - ha.q, h.r - ha.r
            lo, hi = 0.0, 1.0
            for fi, hi_ in zip(f, (q - r, q + 2 * r, -2 * q - r), strict=True):
                if fi == 0:
                    continue
                x1, x2 = (hi_ - 1) / fi, (hi_ + 1) / fi
                if x1 > x2:
                    x1, x2 = x2, x1
                lo, hi = max(lo, x1), min(hi, x2)
            return (lo + hi) / 2

        def side(h: Hex) -> int:
            c = dq * (h.r - ha.r) - dr * (h.q - ha.q)
            return (c > 0) - (c < 0)

        inner = set(t.cells) | {ha, hb}
        touching: set[Hex] = set()
        for x, y in t.along:
            touching |= {x, y}
        for trio in t.corners:
            touching |= set(trio)
        touching -= inner

        def idx(h: Hex) -> int:
            i = board.at(h)
            return -1 if i is None else i

        out = []
        for sgn in (1, -1):
            extra = [h for h in touching if side(h) == sgn]
            seq = sorted([*t.cells, *extra], key=mid)
            out.append((a, *(idx(h) for h in seq), b))
        return out[0], out[1]

    def sheltered(self, firer: int, target: int) -> bool:
        """Whether the target is attacked across a crest from ``firer`` (TEC crest shift).

        Reading: the defender gets the crest's left shift when the thread from the
        firer enters the defender's hex across a crest hexside (for adjacent hexes,
        the side between them) — judged, like sight, on the thread shifted a hair to
        either side, both of which must cross a crest side of the target's hex. A
        crest on the firer's side only (firing down from the bluff) gives no shift.
        """
        key = firer * self.n + target
        hit = self._shelter.get(key)
        if hit is None:
            if self.dist[firer][target] == 1:
                hit = self.crest(firer, target)
            else:
                hit = all(
                    p[-2] >= 0 and self.crest(p[-2], target) for p in self.paths(firer, target)
                )
            self._shelter[key] = hit
        return hit

    def terrain_shift(self, cell: int) -> int:
        """Left shifts of the defender's hex: its terrain plus a fortification."""
        return self.shift[cell]
