"""LnL Omaha: the published tables and the procedures as small pure functions.

The Fire Results Table, the Close Assault Table and the Terrain Effects Chart are
facts of the rules text, kept here as data. Each function cites the section it
implements ("LnL Omaha: <section>"); where the text is ambiguous, a docstring
points to the reading chosen in ``READINGS.md``.
"""

from __future__ import annotations

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
#: Part ocean/beach costs what the beach costs; ocean cannot be entered (reading R12,
#: READINGS.md).
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

    Reading R13 (READINGS.md): each halved factor keeps its half point; the
    fraction of the final sum is dropped.

    A platoon of 4 at its printed range and two of 5 beyond it: 4 + 2.5 + 2.5.

    >>> fire_total([(4, False), (5, True), (5, True)])
    9
    >>> fire_total([(5, True)])  # 2.5: the half point is dropped
    2
    """
    halves = sum(f if halved else 2 * f for f, halved in parts)
    return halves // 2


def frt_position(total: int) -> int:
    """The FRT column a fire total uses, before shifts: 1..7 for "3".."48".

    0 stands for "left of the 3 column" (1 or 2 factors), which only an
    adjacency or opportunity shift can bring onto the table; -1 means no attack.

    More than 48 uses "48" (LnL Omaha: FRT notes). Reading R14 (READINGS.md): a
    total between two columns uses the lower one; 0 or less cannot attack.

    >>> [frt_label(frt_position(t)) for t in (3, 11, 12, 60)]
    ['3', '6', '12', '48']
    >>> frt_position(2), frt_position(0)
    (0, -1)
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
    Reading R15 (READINGS.md): the 48 cap first, then the shifts.

    12 factors adjacent to a target in woods: one right, one left, the 12 column;
    2 factors in opportunity fire reach the 3 column; 3 factors into woods cannot fire.

    >>> frt_label(frt_final(12, +1 - 1)), frt_label(frt_final(2, +1)), frt_final(3, -1)
    ('12', '3', None)
    """
    pos = frt_position(total)
    if pos < 0:
        return None
    pos += shift
    if pos < 1:
        return None
    return min(pos, len(FRT_COLUMNS))


def frt_label(pos: int) -> str:
    """The heading of FRT column ``pos`` (LnL Omaha: Fire Results Table).

    >>> frt_label(1), frt_label(7)
    ('3', '48')
    """
    return str(FRT_COLUMNS[pos - 1])


def frt_result(card: int, pos: int) -> str:
    """LnL Omaha: Fire Results Table (row 6 is No Effect in every column).

    The rules' example of a bombardment: 12 NGFS factors and a card of 1 give a
    loss (Loss 1), which a bombardment of the 916th AT turns into Disrupted.

    >>> frt_result(1, frt_position(12)), frt_result(6, 7)
    ('L1', 'NE')
    """
    return FRT[card][pos - 1]


def loss_steps(result: str) -> int:
    """Steps of a "Loss n" result (0 for Disrupted and NE).

    >>> loss_steps("L3"), loss_steps("D"), loss_steps("NE")
    (3, 0, 0)
    """
    return int(result[1:]) if result.startswith("L") else 0


# --------------------------------------------------------------------------
# Close assault
# --------------------------------------------------------------------------
def cat_position(attack: int, defence: int) -> int | None:
    """The CAT column of the odds, before shifts: 0 for "1-2" .. 6 for "6-1".

    LnL Omaha: Close Assault: fractions are dropped (8 v 4 and 10 v 4 are 2-1,
    12 v 4 is 3-1); below 1-2 no attack; above 6-1 the 6-1 column.
    Reading R28 (READINGS.md): 3 v 4 is 1-2; a defence of 0 is attacked at 6-1.

    The rules' own examples, 8 v 4, 10 v 4 and 12 v 4:

    >>> [CAT_COLUMNS[cat_position(a, 4)] for a in (8, 10, 12)]
    ['2-1', '2-1', '3-1']
    >>> CAT_COLUMNS[cat_position(3, 4)], cat_position(1, 4)
    ('1-2', None)
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

    Reading R29 (READINGS.md): left of 1-2 no attack; past 6-1 stays on 6-1.

    1-1 against disrupted defenders (two right) is 3-1, as the CAT notes say; 1-2
    into a town (one left) is no attack.

    >>> CAT_COLUMNS[cat_final(1, +2)], cat_final(0, -1), CAT_COLUMNS[cat_final(6, +2)]
    ('3-1', None, '6-1')
    """
    if pos is None:
        return None
    pos += shift
    if pos < 0:
        return None
    return min(pos, len(CAT_COLUMNS) - 1)


def cat_result(card: int, pos: int) -> str:
    """LnL Omaha: Close Assault Table.

    >>> cat_result(1, 3), cat_result(3, 0), cat_result(6, 6)
    ('DElim', 'AElim', 'NE')
    """
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

    >>> flat = dict(road_to_road=False, crest=False, ranger=False, armor=False, engineers=False)
    >>> enter_cost("woods", **flat), enter_cost("beach", **{**flat, "engineers": True})
    (3, 1)
    >>> enter_cost("open", **{**flat, "crest": True})  # only Rangers cross a crest
    >>> enter_cost("open", **{**flat, "crest": True, "ranger": True})
    2
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
