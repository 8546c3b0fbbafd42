"""The published charts of D-Day at Omaha Beach (Decision Games, 2009), applied.

Each function applies one chart (or one note of a chart) of the only published
text we have, ``landing-table-and-german-fire-charts.txt``: the Amphibious
Landing Table, the German Fire Chart, the US Weapons Chart, the US Barrage
Table, the Terrain Defense Table, the US Attack Results Chart and the German
Action Summary (turns 17-32). The chart values live in ``data/charts.toml``,
every record with its source; the functions here are pure (no state, no dice)
and cite the chart and note they apply.

Where the printed chart is blank, garbled or ambiguous the docstring points to
the reading in READINGS.md (by its bold name); every reading is tested.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence

import attrs

from omaha.kernel.board import Board
from omaha.landing_table.components.charts import (
    CHARTS,
    LETTERS,
    Charts,
    FireEffect,
    LandingEffect,
    WeaponsVerdict,
)


# --------------------------------------------------------------------------
# Amphibious Landing Table
# --------------------------------------------------------------------------
def landing_band(turn: int, charts: Charts = CHARTS) -> str:
    """DDOB Amphibious Landing Table: the turn band (1-3, 4-14, 15+) of ``turn``.

    >>> landing_band(1), landing_band(10), landing_band(20)
    ('1-3', '4-14', '15+')
    """
    for name, first, last, _ in charts.bands:
        if first <= turn <= last:
            return name
    raise ValueError(f"turn {turn} is in no band of the Amphibious Landing Table")


def landing_row(kind: str, turn: int, sector: str) -> str | None:
    """DDOB Amphibious Landing Table: which row a landing unit checks, or None.

    ``kind`` is the unit's class, ``sector`` the sector of its planned box.

    * HQs and generals never check (Notes).
    * Tanks: the turn-1 row on turn 1, the turns 2-3 row on turns 2-3, none
      later (reading: READINGS.md, "Tank rows").
    * Infantry, Rangers, heavy-weapons (9-2) companies and engineers use the
      infantry rows (reading: "Dog Green / Charlie row").
    * DUKW artillery: the DUKW row; artillery, anti-aircraft and anti-tank
      units: their shared row (turns 1-3 have none: see :func:`landing_result`).

    A Dog Green company on turn 1 reads the "DG & CH only" row; a Ranger on Easy Green
    on turn 2 the other infantry row; a tank after turn 3 and an HQ check nothing:

    >>> landing_row("infantry", 1, "DG"), landing_row("ranger", 2, "EG")
    ('infantry_dg_ch', 'infantry')
    >>> landing_row("tank", 5, "DG") is None and landing_row("hq", 1, "DG") is None
    True
    """
    if kind in ("hq", "general", "naval"):
        return None
    if kind == "tank":
        if turn == 1:
            return "tank_turn1"
        return "tank_turn2_3" if turn <= 3 else None
    if kind in ("infantry", "ranger", "heavy", "engineer"):
        if turn <= 3 and sector in ("DG", "CH"):
            return "infantry_dg_ch"
        return "infantry"
    if kind == "dukw":
        return "dukw"
    if kind in ("artillery", "anti_aircraft", "anti_tank"):
        return "artillery"
    raise ValueError(f"unknown unit class {kind!r}")


def landing_result(turn: int, row: str, letter: str, charts: Charts = CHARTS) -> LandingEffect:
    """DDOB Amphibious Landing Table: the effect of result ``letter`` for ``row`` on ``turn``.

    Reading: READINGS.md, "Missing rows on turns 1-3".

    A DD tank drawing A on turn 1 is delayed to turn 2; D: it loses a step and drifts 2
    boxes east; a DUKW on turn 2 (no row in band 1-3) reads its later row:

    >>> landing_result(1, "tank_turn1", "A").to_turn
    2
    >>> effect = landing_result(1, "tank_turn1", "D")
    >>> effect.effect, effect.steps, effect.drift
    ('lose_drift', 1, 2)
    >>> landing_result(2, "dukw", "A").effect
    'eliminated'
    """
    if letter not in LETTERS:
        raise ValueError(f"{letter!r} is not a landing result (A-D)")
    band = landing_band(turn, charts)
    effect = charts.landing.get((band, row, letter))
    if effect is None and band == "1-3":
        effect = charts.landing.get(("4-14", row, letter))
    if effect is None:
        raise ValueError(f"the Amphibious Landing Table has no row {row!r} for turn {turn}")
    return effect


def mine_turn(turn: int, charts: Charts = CHARTS) -> bool:
    """DDOB Amphibious Landing Table, note *: mine explosions are possible on turns 7-22.

    >>> mine_turn(6), mine_turn(7), mine_turn(22), mine_turn(23)
    (False, True, True, False)
    """
    return charts.mine_first <= turn <= charts.mine_last


def obstacles_all_cleared(turn: int, charts: Charts = CHARTS) -> bool:
    """DDOB Amphibious Landing Table, note *: from turn 23 every obstacle hex counts as cleared.

    >>> obstacles_all_cleared(22), obstacles_all_cleared(23)
    (False, True)
    """
    return turn >= charts.all_cleared_turn


def drift_box(box: int, drift: int, boxes: int) -> tuple[int, int]:
    """DDOB Amphibious Landing Table: move a landing box ``drift`` boxes (east positive).

    Boxes are numbered 1 (west) to ``boxes`` (east). Returns the new box and
    how many boxes the drift ran past the east end.

    Reading: READINGS.md, "West end" and "East end".

    >>> drift_box(3, 2, 16)  # two boxes east
    (5, 0)
    >>> drift_box(1, -1, 16)  # west of box 1: the cliffs
    (1, 0)
    >>> drift_box(15, 3, 16)  # two boxes past the east end
    (16, 2)
    """
    target = box + drift
    if target < 1:
        return 1, 0
    if target > boxes:
        return boxes, target - boxes
    return target, 0


def ranger_may_drift(kind: str, effect: LandingEffect, charts: Charts = CHARTS) -> int:
    """DDOB Amphibious Landing Table, note **: boxes a Ranger may drift east by choice.

    Reading: READINGS.md, "Ranger drift (note **)".

    "No effect" on the turns 4-14 infantry row carries the ** note: a Ranger may drift
    0-4 boxes; an infantry company may not:

    >>> effect = landing_result(5, "infantry", "A")
    >>> ranger_may_drift("ranger", effect), ranger_may_drift("infantry", effect)
    (4, 0)
    """
    return charts.ranger_drift if kind == "ranger" and effect.ranger_option else 0


# --------------------------------------------------------------------------
# German Fire Chart
# --------------------------------------------------------------------------
def matches_target(
    unit_symbol: str, card_symbols: Iterable[str], hex_steps: int, charts: Charts = CHARTS
) -> bool:
    """DDOB German Fire Chart, note Concentrated Target.

    A unit matches when the card shows its target symbol, or when its hex holds
    ``concentrated_steps`` (5) or more US steps, whatever its symbol.

    >>> matches_target("circle", ("square",), hex_steps=3)
    False
    >>> matches_target("circle", ("square",), hex_steps=5)  # a concentrated target
    True
    """
    return unit_symbol in card_symbols or hex_steps >= charts.concentrated_steps


def dot_for_symbol(symbol: str, charts: Charts = CHARTS) -> str:
    """DDOB German Fire Chart: the fire dot a row's icon stands for.

    Reading: READINGS.md, "Row icons".

    >>> dot_for_symbol("●"), dot_for_symbol("⊕"), dot_for_symbol("○")
    ('intense', 'steady', 'sporadic')
    """
    for dot, sym in charts.dot_symbol.items():
        if sym == symbol:
            return dot
    raise ValueError(f"{symbol!r} is not a fire dot of the German Fire Chart")


def counts_as_armoured(armoured: bool, armour_bonus: bool) -> bool:
    """DDOB German Fire Chart, note Armour bonus: with the bonus, armour counts as non-armoured.

    Reading: READINGS.md, "Card icons".

    >>> counts_as_armoured(True, armour_bonus=False), counts_as_armoured(True, armour_bonus=True)
    (True, False)
    """
    return armoured and not armour_bonus


def fire_effect(
    dot: str, firer: str, armoured: bool, matches: bool, charts: Charts = CHARTS
) -> FireEffect | None:
    """DDOB German Fire Chart: the effect of one position's fire on one US unit.

    ``dot`` is the position's fire dot in the unit's hex (intense, steady,
    sporadic); ``firer`` is ``position`` (a WN or a revealed reinforcement
    position), ``unrevealed`` (an unrevealed reinforcement position) or
    ``ambush`` (an unoccupied position, turn 17 and later); ``armoured`` is
    after the armour bonus (:func:`counts_as_armoured`); ``matches`` after the
    concentrated-target note (:func:`matches_target`). None: no effect.

    Reading: READINGS.md, "Sporadic row".

    Intense fire from a WN: every unit loses a step; steady fire spares armour; an
    unrevealed position's steady fire also disrupts; an ambush from a sporadic field does
    nothing:

    >>> fire_effect("intense", "position", armoured=False, matches=True)
    FireEffect(lose=True, disrupt=False, one=False)
    >>> fire_effect("steady", "position", armoured=True, matches=True) is None
    True
    >>> fire_effect("steady", "unrevealed", armoured=False, matches=True)
    FireEffect(lose=True, disrupt=True, one=False)
    >>> fire_effect("sporadic", "ambush", armoured=False, matches=True) is None
    True
    """
    row = charts.fire[(dot, firer)]
    if row.targets == "none":
        return None
    if row.targets == "all":
        return FireEffect(row.lose, row.disrupt)
    if row.targets == "nonarmoured":
        if armoured or not matches:
            return None
        return FireEffect(row.lose, row.disrupt)
    # one_symbol: one unit of any type (armour included) with the target symbol
    if not matches:
        return None
    return FireEffect(row.lose, row.disrupt, one=True)


def hit_limit(turn: int, german_units: int, depth_markers: int, charts: Charts = CHARTS) -> int:
    """DDOB German Fire Chart, Hit Limits.

    Turns 1-16: as many US units as the position holds German units and depth
    markers; turns 17-32: twice as many.

    A position with its unit and a depth marker:

    >>> hit_limit(10, german_units=1, depth_markers=1), hit_limit(17, 1, 1)
    (2, 4)
    """
    base = german_units + depth_markers
    for first, last, mult in charts.hit_limits:
        if first <= turn <= last:
            return base * mult
    return base * charts.hit_limits[-1][2]


def selection_key(
    dot: str, distance: int, steps: int, charts: Charts = CHARTS
) -> tuple[int, int, int]:
    """DDOB German Fire Chart, Selection Priorities, as a sort key.

    Fire dot priority (intense, steady, sporadic) first, then the unit closest
    to the firing position, then the unit with most steps; what still ties is
    the player's choice.

    >>> selection_key("steady", distance=2, steps=3)
    (2, 2, -3)
    """
    return (charts.dot_priority[dot], distance, -steps)


def select_hits(
    candidates: Sequence[tuple[tuple[int, int, int], str]], limit: int
) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """DDOB German Fire Chart, Hit Limits and Selection Priorities.

    ``candidates`` are ``(selection_key, unit)`` pairs. Returns the units hit
    for certain, the tied group at the limit from which the player picks, and
    how many of that group must be picked. Units are listed in key order
    (then by id, which decides nothing: the player picks among ties).

    Two units tie for the one hit (same dot, distance and steps): the player picks one:

    >>> tied = [((1, 1, -2), "A/116"), ((1, 1, -2), "B/116"), ((2, 0, -2), "C/116")]
    >>> select_hits(tied, limit=1)
    ((), ('A/116', 'B/116'), 1)
    >>> select_hits([((1, 1, -2), "A/116"), ((1, 2, -2), "B/116")], limit=1)
    (('A/116',), (), 0)
    """
    ordered = sorted(candidates)
    if len(ordered) <= limit:
        return tuple(u for _, u in ordered), (), 0
    if limit <= 0:
        return (), (), 0
    cut_key = ordered[limit - 1][0]
    sure = tuple(u for k, u in ordered if k < cut_key)
    tied = tuple(u for k, u in ordered if k == cut_key)
    need = limit - len(sure)
    if need == len(tied):
        return sure + tied, (), 0
    return sure, tied, need


# --------------------------------------------------------------------------
# US Weapons Chart
# --------------------------------------------------------------------------
def unit_weapons(
    kind: str,
    full: bool,
    distance: int,
    range2: bool = False,
    reduced: Iterable[str] = (),
    charts: Charts = CHARTS,
) -> frozenset[str]:
    """DDOB US Weapons Chart: the weapons a US unit brings to an attack.

    ``distance`` is from the unit to the target; ``range2`` marks a 9-2
    infantry unit (range 2). Full-strength infantry and Rangers have the
    infantry row; a full 9-2 unit has its adjacent row next to the target and
    its non-adjacent row at range 2; a tank adds MG and BR within 3 hexes.

    Reading: READINGS.md, "Reduced units".

    >>> sorted(unit_weapons("infantry", full=True, distance=1))
    ['BG', 'BR', 'BZ', 'DE', 'MO', 'RD']
    >>> sorted(unit_weapons("tank", full=True, distance=2))
    ['AR', 'BR', 'BZ', 'MG']
    >>> sorted(unit_weapons("infantry", full=False, distance=1, reduced=("BR", "RD")))
    ['BR', 'RD']
    """
    w = charts.weapons
    if kind in ("infantry", "ranger", "engineer", "heavy"):
        if not full:
            return frozenset(reduced)
        if range2 or kind == "heavy":
            return w["infantry_9_2_adjacent"] if distance <= 1 else w["infantry_9_2_ranged"]
        return w["infantry_full"]
    if kind == "tank":
        return w["tank_within_3"] if distance <= charts.tank_close else w["tank"]
    if kind in ("artillery", "dukw"):
        return w["artillery"]
    if kind == "anti_tank":
        return w["anti_tank"]
    if kind == "anti_aircraft":
        return w["anti_aircraft"]
    if kind == "naval":
        return w["naval"]
    if kind in ("hq", "general"):
        return w["hq"]
    raise ValueError(f"unknown unit class {kind!r}")


def check_weapons(
    required: Iterable[str],
    available: Iterable[str],
    directions: int,
    hero: bool = False,
    charts: Charts = CHARTS,
) -> WeaponsVerdict:
    """DDOB US Weapons Chart and its footnote: are the requirements met?

    Every required weapon must be brought by some attacker. FL (flanking) is
    met not by a weapon but by attacking from more than one direction
    (``directions`` >= 2). With ``hero`` the Hero wildcard stands in for one
    missing weapon, never for FL.

    A WN requiring BG and DE, attacked with BG only; the Hero supplies the one missing
    weapon:

    >>> check_weapons({"BG", "DE"}, {"BG"}, directions=1)
    WeaponsVerdict(ok=False, missing=('DE',), flanking_met=True, hero_used=False)
    >>> check_weapons({"BG", "DE"}, {"BG"}, directions=1, hero=True).ok
    True
    >>> check_weapons({"FL"}, set(), directions=2).ok  # flanking from two sides
    True
    """
    req = frozenset(required)
    have = frozenset(available)
    flanking_met = "FL" not in req or directions >= 2
    missing = tuple(sorted(req - have - {"FL"}))
    if flanking_met and not missing:
        return WeaponsVerdict(True, (), True)
    if hero and flanking_met and len(missing) == 1 and missing[0] not in charts.hero_never:
        return WeaponsVerdict(True, missing, True, hero_used=True)
    return WeaponsVerdict(False, missing, flanking_met)


# --------------------------------------------------------------------------
# US Barrage Table
# --------------------------------------------------------------------------
def barrage_result(
    colour_shown: bool,
    symbol_shown: bool,
    has_depth: bool,
    strength: int,
    charts: Charts = CHARTS,
) -> str:
    """DDOB US Barrage Table: ``none``, ``disrupt`` or ``disrupt_remove_depth``.

    ``colour_shown``: the fire card drawn shows the barraged position's colour;
    ``symbol_shown``: it shows the barraging unit's target symbol.

    Readings: READINGS.md, "Barraging unit symbol" and "Merged cells".

    >>> barrage_result(colour_shown=True, symbol_shown=True, has_depth=False, strength=6)
    'disrupt_remove_depth'
    >>> barrage_result(colour_shown=True, symbol_shown=False, has_depth=True, strength=4)
    'disrupt'
    >>> barrage_result(colour_shown=False, symbol_shown=False, has_depth=False, strength=8)
    'none'
    """
    depth = "yes" if has_depth else "no"
    row = charts.barrage.get((colour_shown, symbol_shown, depth))
    if row is None:
        row = charts.barrage[(colour_shown, symbol_shown, "any")]
    for i, (lo, hi) in enumerate(charts.barrage_bands):
        if lo <= strength <= hi:
            return row[i]
    return "none"  # strength 0: nothing to barrage with


# --------------------------------------------------------------------------
# Terrain Defense Table
# --------------------------------------------------------------------------
def side_name(feature: str, direction: str | None) -> str:
    """A hexside feature as the Terrain Defense Table names it, seen by the attacker.

    ``direction`` is how the attack crosses the side: ``up`` when the defender
    is the higher cell. Bluffs are directional (Bluff (up) / Bluff (down));
    every other feature is named as it is.

    >>> side_name("bluff", "up"), side_name("bluff", "down"), side_name("shingle", None)
    ('bluff_up', 'bluff_down', 'shingle')
    """
    if feature == "bluff":
        return "bluff_up" if direction == "up" else "bluff_down"
    return feature


def attack_prohibited(sides: Iterable[str], charts: Charts = CHARTS) -> bool:
    """DDOB Terrain Defense Table: no attack across a sheer or scaleable cliff or up a bluff.

    >>> attack_prohibited(["sheer_cliff"]), attack_prohibited(["shingle"])
    (True, False)
    """
    return any(s in charts.prohibited for s in sides)


def defense_multipliers(
    hex_terrain: str, side: Iterable[str] | None, charts: Charts = CHARTS
) -> tuple[int, int]:
    """DDOB Terrain Defense Table: (unit, depth marker) multipliers of the defender.

    ``side`` are the features (table names) of the hexside every attacker
    attacks through, or None when the attackers do not all attack through the
    same hexside (then no hexside benefit). Effects are not cumulative: the
    larger of the hex and hexside multiplier applies. Terrain the table does
    not list (beach, open ground) is unmarked: x1.

    Reading: READINGS.md, "Not cumulative".

    The table's own example: a unit in bocage attacked through a slope is only doubled;
    across shingle the unit doubles and the depth marker does not:

    >>> defense_multipliers("bocage", ["slope"])
    (2, 2)
    >>> defense_multipliers("beach", ["shingle"])
    (2, 1)
    >>> defense_multipliers("bocage", None)  # attackers through different sides
    (2, 2)
    """
    unit, depth = charts.hex_mult.get(hex_terrain, (1, 1))
    if side is not None:
        for s in side:
            su, sd = charts.side_mult.get(s, (1, 1))
            unit, depth = max(unit, su), max(depth, sd)
    return unit, depth


#: Where the Naval Fire Markers attack from (a direction of its own).
SEA: tuple[int, int] = (-2, -2)


@attrs.frozen
class Approach:
    """How an attack from one hex reaches a defender's hex."""

    key: tuple[int, int]  # the side's outer cell twice, or the two cells beside a corner
    sides: tuple[str, ...] | None  # the side's features (table names); None at a corner
    prohibited: bool


_APPROACH: weakref.WeakKeyDictionary[Board, dict[tuple[int, int], Approach]] = (
    weakref.WeakKeyDictionary()
)


def _side_names(board: Board, a: int, b: int) -> tuple[str, ...]:
    names = tuple(sorted(side_name(n, d) for n, d in board.crossing(a, b)))
    return names or ("unmarked",)


def approach(board: Board, a: int, b: int) -> Approach:
    """DDOB Terrain Defense Table: the hexside (or corner) an attack from ``a`` enters ``b``.

    Reading: READINGS.md, "Attack hexside". Pure; memoised per board.

    On the shipped map: from the beach flat up the slope into G10; up the scaleable
    cliff at Charlie (prohibited); from H2 to F2 through a corner:

    >>> from omaha.landing_table.scenario import load_scenario
    >>> board = load_scenario("omaha").board
    >>> approach(board, board.cell("H10"), board.cell("G10")).sides
    ('slope',)
    >>> approach(board, board.cell("I3"), board.cell("H3")).prohibited
    True
    >>> approach(board, board.cell("H2"), board.cell("F2")).sides is None
    True
    """
    memo = _APPROACH.get(board)
    if memo is None:
        memo = _APPROACH[board] = {}
    got = memo.get((a, b))
    if got is not None:
        return got
    if board.adjacent(a, b):
        sides = _side_names(board, a, b)
        got = Approach((a, a), sides, attack_prohibited(sides))
    else:
        t = board.thread(a, b)
        entries = [x for x, y in t.crossed if y == b and x >= 0]
        if entries:
            n = entries[-1]
            sides = _side_names(board, n, b)
            got = Approach((n, n), sides, attack_prohibited(sides))
        else:
            corners = [c for c in t.corners if b in c]
            others = sorted(x for x in corners[-1] if x != b) if corners else [-1, -1]
            n1, n2 = others[0], others[1]
            both = all(n >= 0 and attack_prohibited(_side_names(board, n, b)) for n in (n1, n2))
            got = Approach((n1, n2), None, both)
    memo[(a, b)] = got
    return got


# --------------------------------------------------------------------------
# US Attack Results Chart
# --------------------------------------------------------------------------
def compare_strengths(attack: int, defense: int, weapons: bool) -> str:
    """DDOB US Attack Results Chart: which comparison row applies.

    Without the required weapons the rows are ``less_or_equal``, ``greater``
    (but not double) and ``double`` (at least double); with them ``less``,
    ``equal``, ``greater`` and ``double``.

    >>> compare_strengths(12, 6, weapons=True), compare_strengths(7, 6, weapons=False)
    ('double', 'greater')
    >>> compare_strengths(6, 6, weapons=True), compare_strengths(6, 6, weapons=False)
    ('equal', 'less_or_equal')
    """
    if attack >= 2 * defense and attack > defense:
        return "double"
    if attack > defense:
        return "greater"
    if not weapons:
        return "less_or_equal"
    return "equal" if attack == defense else "less"


def attack_results(
    weapons: bool, compare: str, column: str, turn: int, charts: Charts = CHARTS
) -> tuple[str, ...]:
    """DDOB US Attack Results Chart: the results of one attack.

    ``column``: ``alone`` (German unit alone), ``unrevealed`` (with an
    unrevealed depth marker), ``revealed`` (with a revealed one). The last cell
    splits by turn (1-16 / 17-32).

    Reading: READINGS.md, "Unrevealed depth, at least double".

    >>> attack_results(True, "greater", "alone", turn=5)
    ('german_defeated',)
    >>> attack_results(True, "double", "revealed", turn=5)
    ('depth_eliminated', 'german_disrupted')
    >>> attack_results(True, "double", "revealed", turn=20)
    ('depth_eliminated', 'german_defeated')
    >>> attack_results(False, "less_or_equal", "alone", turn=5)
    ('us_disrupted', 'german_gains_depth')
    """
    rows = charts.attack.get((weapons, compare, column))
    if rows is None:
        raise ValueError(f"no attack cell weapons={weapons} {compare} {column}")
    for first, last, results in rows:
        if first <= turn <= last:
            return results
    return rows[-1][2]


def reveal_results(
    marker: str,
    attack: int,
    unit_defense: int,
    marker_defense: int,
    turn: int,
    charts: Charts = CHARTS,
) -> tuple[str, ...]:
    """DDOB US Attack Results Chart, "reveal and compare again" and footnote (1).

    The depth marker is revealed; if it calls for a Tactical Reinforcement
    (``TR``) the German unit is defeated. Otherwise the marker's (multiplied)
    strength joins the defence, the strengths are compared again (the attackers
    still have the required weapons) and the revealed-depth column applies.

    Reading: READINGS.md, "Tactical Reinforcement (footnote 1)".

    10 against a unit of 6: the marker is a Tactical Reinforcement (the position falls),
    or a 2 (10 against 8: greater, not double):

    >>> reveal_results("TR", 10, unit_defense=6, marker_defense=0, turn=5)
    ('depth_eliminated', 'german_defeated')
    >>> reveal_results("2", 10, unit_defense=6, marker_defense=2, turn=5)
    ('depth_eliminated', 'german_disrupted')
    """
    if marker == "TR":
        return ("depth_eliminated", charts_tr_result(charts))
    cmp = compare_strengths(attack, unit_defense + marker_defense, True)
    return attack_results(True, cmp, "revealed", turn, charts)


def charts_tr_result(charts: Charts = CHARTS) -> str:
    """DDOB US Attack Results Chart footnote (1): the result of a Tactical Reinforcement marker.

    >>> charts_tr_result()
    'german_defeated'
    """
    return "german_defeated"


# --------------------------------------------------------------------------
# German Action Summary (turns 17-32)
# --------------------------------------------------------------------------
def uses_action_summary(turn: int, charts: Charts = CHARTS) -> bool:
    """DDOB German Action Summary: it drives the German side from turn 17.

    >>> uses_action_summary(16), uses_action_summary(17)
    (False, True)
    """
    return turn >= charts.action_first


def german_action(letter: str, position: str, status: str, charts: Charts = CHARTS) -> str:
    """DDOB German Action Summary: what a position does for a fire card's action letter.

    ``position`` is ``wn`` or ``reinforcement``; ``status`` is ``us_in_fof``
    (occupied, US units in its field of fire), ``no_us_in_fof`` (occupied, none)
    or ``unoccupied``. The column conditions of the unoccupied columns (German
    communication; for reinforcement positions also a US unit within 2 hexes)
    are checked by the caller: when they fail the action is ``no_action``.

    Reading: READINGS.md, "F rows".

    >>> german_action("M", "wn", "us_in_fof")
    'fire'
    >>> german_action("A", "reinforcement", "unoccupied")
    'ambush'
    """
    return charts.actions[(letter, position, status)]


def armour_action(letter: str, charts: Charts = CHARTS) -> tuple[str, int]:
    """DDOB German Action Summary, optional variant German Armour: (action, hexes of move).

    Reading: READINGS.md, "Optional armour column".

    >>> armour_action("F"), armour_action("M")
    (('fire_or_move', 4), ('move_or_fire', 4))
    """
    return charts.armour[letter]
