"""TCS Omaha landing-system procedures as small pure functions.

Each function states the rule it implements; the tables they read are data
(:mod:`omaha.tcs.tables`). Dice come in as arguments (totals or a ``draw``
callable), so every procedure can be tested with pinned values. The stateful
sequencing (waves, turns, decisions) lives in :mod:`omaha.tcs.landing` and
:mod:`omaha.tcs.state`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from omaha.tcs.components.series import Series
from omaha.tcs.components.tables import Band, Tables


def _band(bands: Sequence[Band], x: int, what: str) -> int:
    for b in bands:
        if b.holds(x):
            return b.value
    raise ValueError(f"{x} is outside the {what} table")


# --------------------------------------------------------------------------- 2.1i / 2.1k
def pillbox_modifier(pillboxes: int, tables: Tables) -> int:
    """TCS Omaha 2.1i, 2.1k: survival-roll modifier for the pill boxes remaining.

    0-5 pill boxes: -1; 6-13: 0; 14-20: +1; 21 or more: +2. Reading: "remaining
    on the beach" counts every pill box still in play on the map.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> [pillbox_modifier(n, t) for n in (3, 10, 20, 24)]
    [-1, 0, 1, 2]
    """
    if pillboxes < 0:
        raise ValueError("a negative number of pill boxes")
    return _band(tables.pillbox_modifier, pillboxes, "pill box modifier")


def survival_key(kind: str, load_classes: Iterable[int] = ()) -> str:
    """TCS Omaha 2.1i: which line of the survival table a boat rolls on.

    A DUKW with any class II item rolls on the class II range (reading: a mixed
    class I and II load is a class II load); an empty or class I DUKW on the
    class I range. DD tanks have their own line.

    >>> survival_key('DUKW', [1, 2]), survival_key('DUKW', [1]), survival_key('LCA')
    ('DUKW_class2', 'DUKW_class1', 'LCA')
    """
    if kind == "DUKW":
        return "DUKW_class2" if any(c >= 2 for c in load_classes) else "DUKW_class1"
    return kind


@attrs.frozen
class SurvivalCheck:
    """One boat's survival roll: the dice total, modifier, result."""

    key: str
    roll: int
    modifier: int
    survives: bool

    @property
    def total(self) -> int:
        return self.roll + self.modifier


def survival_check(key: str, roll: int, pillboxes: int, tables: Tables) -> SurvivalCheck:
    """TCS Omaha 2.1i: a boat survives when its (modified) two-dice roll is in range.

    LCA 2-12, Rhino/LCI/LCT 2-11, both modified by the pill boxes remaining;
    DUKW with a class II load 2-5, class I load 2-8, DD tank 2-4, unmodified.
    Reading: only the top of a range sinks a boat, so a modified roll below 2
    (a 2 with -1) survives.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> survival_check('LCA', 11, 24, t)  # 11 + 2 for 24 pill boxes: 13, beyond 12
    SurvivalCheck(key='LCA', roll=11, modifier=2, survives=False)
    >>> survival_check('LCA', 10, 24, t).survives
    True
    """
    if not 2 <= roll <= 12:
        raise ValueError(f"a two-dice roll is 2..12, not {roll}")
    _, high = tables.success_range(key)
    mod = pillbox_modifier(pillboxes, tables) if key in tables.modified else 0
    return SurvivalCheck(key, roll, mod, roll + mod <= high)


def most_laden_first(loads: Sequence[int]) -> list[int]:
    """TCS Omaha 2.1j: order in which the boats of a group roll: most fully laden first.

    Returns positions into ``loads``; ties keep their planned order.

    >>> most_laden_first([6, 9, 6, 8])
    [1, 3, 0, 2]
    """
    return sorted(range(len(loads)), key=lambda k: (-loads[k], k))


# --------------------------------------------------------------------------- 2.1j
@attrs.frozen
class Loss:
    """Steps one unit loses to a sunk boat of a pooled LCA group."""

    unit: str
    steps: int
    eliminated: bool


def random_losses(
    pool: Sequence[tuple[str, int, int]], points: int, draw: Callable[[int], int]
) -> list[Loss]:
    """TCS Omaha 2.1j: losses of a sunk LCA whose group carries units at random.

    ``pool`` lists the units still aboard the group as ``(unit, steps, load
    points per step)``; ``points`` is the sunk boat's load. Units are drawn at
    random from a cup (``draw(n)`` picks an index among the ``n`` left) and each
    drawn unit is eliminated whole before the next is touched, until the boat's
    load is lost; the last unit drawn loses only the steps still needed. Reading:
    the loss is counted in load points; a unit with steps of 2 points may lose
    one point more than the boat carried (steps are not split).

    >>> pool = [('E/2/16.1', 5, 1), ('E/2/16.mg', 2, 2)]
    >>> for loss in random_losses(pool, 6, lambda n: 0):  # the cup gives the first unit left
    ...     print(loss)
    Loss(unit='E/2/16.1', steps=5, eliminated=True)
    Loss(unit='E/2/16.mg', steps=1, eliminated=False)
    """
    cup = sorted(pool)
    out: list[Loss] = []
    need = points
    while need > 0 and cup:
        unit, steps, per = cup.pop(draw(len(cup)))
        if steps * per <= need:
            out.append(Loss(unit, steps, True))
            need -= steps * per
        else:
            lost = -(-need // per)
            out.append(Loss(unit, lost, lost >= steps))
            need = 0
    return out


def spread_pool(
    pool: Sequence[tuple[str, int, int]], capacities: Sequence[int]
) -> list[list[tuple[str, int]]]:
    """Where the units of a pooled LCA group ride, for placing them after the run-in.

    Units (in plan order) fill the boats in order, each boat up to its planned
    load points; a unit that straddles two boats rides in both. Used only to
    place survivors: random losses (2.1j) are drawn from the whole pool.

    >>> spread_pool([('A', 5, 1), ('B', 4, 1)], [6, 6])
    [[('A', 5), ('B', 1)], [('B', 3)]]
    """
    boats: list[list[tuple[str, int]]] = [[] for _ in capacities]
    if not capacities:
        return boats
    last = len(capacities) - 1
    k, room = 0, capacities[0]
    for unit, steps, per in pool:
        left = steps
        while left > 0:
            take = left if k == last else min(left, room // per)
            if take == 0:
                k += 1
                room = capacities[k]
                continue
            boats[k].append((unit, take))
            left -= take
            room -= take * per
    return boats


def majority_hex(parts: Sequence[tuple[int, int]]) -> int:
    """Where a split unit lands: the hex of the boat that brought most of its steps.

    ``parts`` are ``(hex, steps)`` per surviving boat in boat order. Reading: a
    split unit comes together in one hex; on a tie, the first boat's hex.

    >>> majority_hex([(101, 2), (102, 3), (103, 3)])
    102
    """
    best = max(steps for _, steps in parts)
    return next(h for h, steps in parts if steps == best)


# --------------------------------------------------------------------------- 1.12
def hour_of(time: str) -> str:
    """TCS Omaha 1.12, 2.1l: the tide line in force at a time (``"0740"`` -> ``"0700"``).

    A tide line holds for the whole hour it is labelled with, so a 0740 landing
    uses the 0700 line.

    >>> hour_of('0740'), hour_of('1300')
    ('0700', '1300')
    """
    if len(time) != 4 or not time.isdigit():
        raise ValueError(f"{time!r} is not a time like 0740")
    return time[:2] + "00"


# --------------------------------------------------------------------------- 2.3
def leaders_available(roll: int, tables: Tables) -> int:
    """TCS Omaha 2.3f Leader Selection Table: leaders drawn for a two-dice roll.

    2-4: 3, 5-6: 4, 7-8: 5, 9-10: 7, 11: 8, 12: 9. Reading: the printed
    "9-1011" column header is split as 9-10 and 11.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> [leaders_available(r, t) for r in (2, 6, 9, 11, 12)]
    [3, 4, 7, 8, 9]
    """
    return _band(tables.leader_selection, roll, "leader selection")


def leader_killed(roll: int, tables: Tables) -> bool:
    """TCS Omaha 2.3f Leader Losses: an exposed leader dies on a two-dice 12.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> leader_killed(12, t), leader_killed(11, t)
    (True, False)
    """
    return roll >= tables.leader_kill_roll


def weighted_turn_rate(under_leader: bool, series_rate: int) -> int:
    """TCS Omaha 2.3a: units moving under a leader accrue weighted turns at 1 a turn.

    ``series_rate`` is what the TCS series op-sheet rules would give (not in our
    text); under a leader it is replaced by 1, whatever the lack of enemy fire.

    >>> weighted_turn_rate(True, 3), weighted_turn_rate(False, 3)
    (1, 3)
    """
    return 1 if under_leader else series_rate


# --------------------------------------------------------------------------- 2.2
def miller_rounds(d66: int, tables: Tables) -> int:
    """TCS Omaha 2.2b: LCT(R) rounds impacting a hex, from two dice read as tens/units.

    11-12: 0, 13-21: 1, 22-33: 2, 34-45: 3, 46-55: 4, 56-63: 5, 64-65: 6, 66: 7.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> [miller_rounds(d, t) for d in (11, 21, 33, 46, 66)]
    [0, 1, 2, 4, 7]
    """
    tens, units = divmod(d66, 10)
    if not (1 <= tens <= 6 and 1 <= units <= 6):
        raise ValueError(f"{d66} is not a d66 roll")
    return _band(tables.miller, d66, "Miller")


def designator(
    direction_roll: int, distance_roll: int, multiplier: int, tables: Tables
) -> tuple[str, int]:
    """TCS Omaha 2.2a: where the designator round of an LCT(R) fire falls.

    One die for the direction (1 north, then clockwise) and one die for the
    distance, multiplied (x3 for LCT(R)s); the fire cannot be adjusted.
    Returns the compass direction and the distance in hexes.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> designator(3, 2, 3, t)  # the third direction clockwise from north, 2 x 3 hexes
    ('SE', 6)
    """
    if not (1 <= direction_roll <= 6 and 1 <= distance_roll <= 6):
        raise ValueError("designator dice are 1..6")
    return tables.directions[direction_roll - 1], distance_roll * multiplier


def smoke_left(markers: int, impact_hexes: int) -> int:
    """TCS Omaha 2.2a: smoke markers left for the US checks after the impacts used theirs.

    Reading: every hex of Area C attacked by at least one round uses one marker.

    >>> smoke_left(10, 4), smoke_left(10, 12)
    (6, 0)
    """
    return max(0, markers - impact_hexes)


# --------------------------------------------------------------------------- 2.9
@attrs.frozen
class BatteryFires:
    he: int
    smoke: int
    illum: int


def battery_fires(guns_landed: int, divisor: int, tables: Tables) -> BatteryFires:
    """TCS Omaha 2.9: battery fires a battery lands with.

    Rounds per gun (20 HE, 3 smoke) times the guns that survived the landing,
    divided by the battalion's divisor (4, 8 for the 62nd, 6 for cannon
    companies), fractions dropped; one illumination round for a battery landing
    at least one gun. Reading: the rounding is done battery by battery.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> battery_fires(4, 4, t)  # four 105mm guns landed, divisor 4
    BatteryFires(he=20, smoke=3, illum=1)
    """
    if guns_landed <= 0:
        return BatteryFires(0, 0, 0)
    return BatteryFires(
        tables.he_per_gun * guns_landed // divisor,
        tables.smoke_per_gun * guns_landed // divisor,
        tables.illum_per_battery,
    )


# --------------------------------------------------------------------------- 2.10
def aircraft_available(roll: int, tables: Tables) -> bool:
    """TCS Omaha 2.10: on a clear turn two A-20s are available on two dice of 8 or more.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> aircraft_available(8, t), aircraft_available(7, t)
    (True, False)
    """
    return roll >= tables.air_available_on


def german_uses_sortie(roll: int, june6: bool, tables: Tables) -> bool:
    """TCS Omaha 2.10: the German may use the sortie on two dice of 8 or more.

    Reading: the +1 on 6 June turns is added to this (the German) roll, the roll
    the sentence follows; the US availability roll is unmodified.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> german_uses_sortie(7, True, t), german_uses_sortie(7, False, t)
    (True, False)
    """
    return roll + (tables.air_june6_bonus if june6 else 0) >= tables.air_german_use_on


@attrs.frozen
class AirAttack:
    """One attack an A-20 may make (2.10a)."""

    aircraft: int
    kind: str  # "strafe" or "bomb"
    firepower: int
    hit_roll: int  # bombs: the 2d6 point-target alternative (0 for strafes)


def air_attacks(loadouts: Sequence[str], tables: Tables) -> list[AirAttack]:
    """TCS Omaha 2.10a: the attacks of the available A-20s, each configured alone.

    Bomb laden: three strafes at firepower 5 and one bomb at firepower 36 (or a
    hit roll of 8+ with an automatic kill); gunship: four strafes at firepower
    15. Reading: the text's "four aircraft" are read as each aircraft of the
    pair being configured separately, before the availability roll.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> [f"{a.aircraft} {a.kind} {a.firepower}" for a in air_attacks(['bomb'], t)]
    ['1 strafe 5', '1 strafe 5', '1 strafe 5', '1 bomb 36']
    >>> [a.firepower for a in air_attacks(['bomb', 'gunship'], t) if a.aircraft == 2]
    [15, 15, 15, 15]
    """
    out: list[AirAttack] = []
    for n, name in enumerate(loadouts, start=1):
        t = tables.air_type(name)
        out.extend(AirAttack(n, "strafe", t.strafe_firepower, 0) for _ in range(t.strafes))
        out.extend(AirAttack(n, "bomb", t.bomb_firepower, t.bomb_hit_roll) for _ in range(t.bombs))
    return out


def bomb_hits(roll: int, attack: AirAttack) -> bool:
    """TCS Omaha 2.10a: a bomb's hit roll on two dice against a point target kills on 8+.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> bomb = air_attacks(['bomb'], t)[-1]
    >>> bomb_hits(8, bomb), bomb_hits(7, bomb)
    (True, False)
    """
    return attack.kind == "bomb" and roll >= attack.hit_roll


# --------------------------------------------------------------------------- 2.6d
def nfst_works(roll: int, tables: Tables) -> bool:
    """TCS Omaha 2.6d (optional): a landing NFST's radio works on a die roll of 6.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> nfst_works(6, t), nfst_works(5, t)
    (True, False)
    """
    return roll >= tables.nfst_works_on


# --------------------------------------------------------------------------- 2.11
def overdraft_room(steps_now: int, full: int, added_to_company: int, tables: Tables) -> int:
    """TCS Omaha 2.11: steps that may still be added to one unit of a line company.

    Up to 5 steps per line company, no unit above its full strength.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> overdraft_room(3, 5, 0, t), overdraft_room(3, 5, 4, t)
    (2, 1)
    """
    return max(0, min(full - steps_now, tables.overdraft_steps - added_to_company))


# =========================================================================== the battle
# Series tables (omaha.tcs.components.series, reconstructed) and the Omaha values
# that act on them (published, omaha.tcs.components.tables).


def area_column(firepower: int, series: Series) -> int:
    """Series 11.0 (reconstructed): the Area Fire Table column of a total firepower.

    >>> from omaha.tcs.components.series import load_series
    >>> s = load_series()
    >>> [area_column(fp, s) for fp in (1, 5, 30)]
    [0, 3, 8]
    """
    if firepower < 1:
        raise ValueError("no firepower")
    col = 0
    for k, low in enumerate(series.area_columns):
        if firepower >= low:
            col = k
    return col


def area_result(firepower: int, roll: int, series: Series) -> tuple[bool, int]:
    """Series 11.0 (reconstructed): a modified two-dice roll on the Area Fire Table.

    Returns (suppressed, steps lost by each area target in the hex).

    >>> from omaha.tcs.components.series import load_series
    >>> s = load_series()
    >>> area_result(5, 11, s), area_result(5, 7, s)
    ((True, 1), (False, 0))
    """
    col = area_column(firepower, series)
    suppress, one, two, three = (r[col] for r in series.area_results)
    steps = 3 if roll >= three else 2 if roll >= two else 1 if roll >= one else 0
    return (steps > 0 or roll >= suppress), steps


def point_kill(roll: int, firepower: int, defense: int, modifier: int, series: Series) -> bool:
    """Series 12.0 (reconstructed): two dice + point firepower - defence + modifiers >= kill.

    >>> from omaha.tcs.components.series import load_series
    >>> s = load_series()
    >>> point_kill(8, 5, 6, 0, s), point_kill(7, 5, 6, 0, s)
    (True, False)
    """
    return roll + firepower - defense + modifier >= series.point_kill


def artillery_point_kill(
    roll: int, rounds: int, calibre_bonus: int, defense: int, modifier: int, series: Series
) -> bool:
    """Series 18.0 (reconstructed): HE rounds against a point target, on their own table.

    TCS Omaha 3.3d: pill boxes fall to artillery rounds on this table (never mortars).

    >>> from omaha.tcs.components.series import load_series
    >>> s = load_series()
    >>> artillery_point_kill(12, 3, 2, 6, 0, s), artillery_point_kill(12, 0, 2, 6, 0, s)
    (True, False)
    """
    return (
        rounds > 0 and roll + rounds + calibre_bonus - defense + modifier >= series.artillery_kill
    )


def morale_result(roll: int, morale: int, modifier: int, series: Series) -> str:
    """Series 17.0 (reconstructed): "ok", "suppressed", "retreat" (SYR) or "broken"
    (SYR and one more step) for two dice + modifiers against the unit's morale.

    >>> from omaha.tcs.components.series import load_series
    >>> s = load_series()
    >>> [morale_result(r, 8, 0, s) for r in (8, 9, 11, 13)]
    ['ok', 'suppressed', 'retreat', 'broken']
    """
    over = roll + modifier - morale
    if over >= series.morale_broken:
        return "broken"
    if over >= series.morale_retreat:
        return "retreat"
    if over >= series.morale_suppressed:
        return "suppressed"
    return "ok"


def at_roll_needed(distance: int, attackers: int, series: Series) -> int:
    """Series 16.0 (reconstructed): the two-dice AT roll at range 0-2 (more infantry helps).

    >>> from omaha.tcs.components.series import load_series
    >>> s = load_series()
    >>> [at_roll_needed(d, 1, s) for d in (0, 1, 2)], at_roll_needed(0, 2, s)
    ([7, 11, 12], 6)
    """
    if not 0 <= distance <= 2:
        raise ValueError("AT rolls reach at most two hexes")
    bonus = min(series.at_max_bonus, series.at_per_extra * max(0, attackers - 1))
    return series.at_needed[distance] - bonus


def assault_won(roll: int, attack: int, defense: int, modifier: int, series: Series) -> bool:
    """Series 22.0 (reconstructed): two dice + attacking steps - defending steps +
    modifiers >= the win number.

    >>> from omaha.tcs.components.series import load_series
    >>> s = load_series()
    >>> assault_won(7, 4, 2, 0, s), assault_won(6, 4, 2, 0, s)
    (True, False)
    """
    return roll + attack - defense + modifier >= series.assault_win


def adjustment_needed(distance: int, series: Series) -> int:
    """Series 18.0 (reconstructed, after the 3rd edition adjustment roll): the two-dice
    roll an observer needs to bring a mission from its adjustment point onto the target.

    >>> from omaha.tcs.components.series import load_series
    >>> s = load_series()
    >>> [adjustment_needed(d, s) for d in (0, 3, 99)]
    [4, 6, 10]
    """
    for limit, need in zip(series.adjust_distances, series.adjust_needed, strict=True):
        if distance <= limit:
            return need
    return 13


def concentration_rounds(d66: int, bands: Sequence[Band]) -> int:
    """A Miller table (Area A, B reconstructed; C printed in 2.2b): rounds in a hex.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> concentration_rounds(46, t.miller)  # Area C: 46-55 four rounds
    4
    """
    tens, units = divmod(d66, 10)
    if not (1 <= tens <= 6 and 1 <= units <= 6):
        raise ValueError(f"{d66} is not a d66 roll")
    return _band(bands, d66, "Miller")


def obstacle_test(die: int, tables: Tables) -> str:
    """TCS Omaha 2.4a: a tested beach obstacle hex is 1-4 mines and wire, 5 wire only,
    6 clear.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> [obstacle_test(d, t) for d in (1, 5, 6)]
    ['mines', 'wire', 'clear']
    """
    return dict(tables.obstacle_results)[die]


def conversion_steps(die: int, tables: Tables) -> int:
    """TCS Omaha 3.3f: steps of the squad a destroyed pill box leaves: 1-2 a full
    squad (2), 3-4 one step less (1), 5-6 none.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> [conversion_steps(d, t) for d in range(1, 7)]
    [2, 2, 1, 1, 0, 0]
    """
    return dict(tables.conversion)[die]


def rocket_hits(die: int, tables: Tables) -> bool:
    """TCS Omaha 3.4b: a rocket pit's targeting roll hits its target on 1-3.

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> [rocket_hits(d, t) for d in (3, 4)]
    [True, False]
    """
    return die in tables.rocket_hit


def naval_designator_multiplier(night: bool, tables: Tables) -> int:
    """TCS Omaha 2.6b: a destroyer mission's designator distance is x2 (x3 at night).

    >>> from omaha.tcs.components.tables import load_tables
    >>> t = load_tables()
    >>> naval_designator_multiplier(False, t), naval_designator_multiplier(True, t)
    (2, 3)
    """
    return tables.naval_designator_night if night else tables.naval_designator_day


def weighted_turns(
    under_leader: bool, fired_upon: bool, assigned: bool, night: bool, series: Series
) -> int:
    """Weighted turns an op sheet accrues in a turn: the series rates (reconstructed:
    3 unassigned, 2 assigned or at night, 1 if fired or fired upon), and 1 under a
    leader whatever else (TCS Omaha 2.3a).

    >>> from omaha.tcs.components.series import load_series
    >>> s = load_series()
    >>> weighted_turns(False, False, False, False, s)  # unassigned, not fired upon
    3
    >>> weighted_turns(False, True, False, False, s)  # fired upon
    1
    >>> weighted_turns(True, False, False, False, s)  # under a leader
    1
    """
    if fired_upon:
        rate = series.weighted_fired
    elif assigned or night:
        rate = series.weighted_assigned
    else:
        rate = series.weighted_unassigned
    return weighted_turn_rate(under_leader, rate)
