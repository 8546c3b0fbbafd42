"""Bloody Omaha: the published modifiers and procedures as small pure functions.

Each function cites the section of the playtest solo rules (draft 2.1) it
implements. The tables themselves are not printed in the text; they are data
(``data/tables.toml``) read into :class:`Table`. Where the text is ambiguous or
broken, the reading chosen is in ``READINGS.md`` (and tested); a docstring points to it.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from omaha.kernel.data import Source

#: Companies and battalions (3.3).
BATTALION = "battalion"
COMPANY = "company"
#: The three US commands (3.3, 8.4.a). The Rangers are a regiment, not a division.
FIRST_ID = "1st ID"
TWENTY_NINTH_ID = "29th ID"
RANGERS = "Rangers"
DIVISIONS = (FIRST_ID, TWENTY_NINTH_ID, RANGERS)

#: 5.3.f: reinforcements may be released on or after this turn.
FIRST_RELEASE_TURN = 3
#: 7.3, 7.4: the Initiative and Engineers ratings start at 1 and never fall below 1.
RATING_START = 1
RATING_FLOOR = 1
#: 8.1.c: Mines disrupt (or eliminate a disrupted unit) on 1-3.
MINES_HIT_MAX = 3

#: Attack results (8.4.d).
FAILURE = "failure"
SUCCESS_DISRUPTED = "success/disrupted"
SUCCESS = "success"

#: Victory levels (2.2), with the two this module adds for the cases the text leaves open.
DEFEAT = "Defeat"
DRAW = "Draw"
HISTORICAL = "Historical Victory"
MAJOR = "Major Victory"
LEVEL_RANK = {DEFEAT: 0, DRAW: 1, HISTORICAL: 2, MAJOR: 3}


@attrs.frozen
class Row:
    """One row of a die table: modified rolls ``low..high`` (None = open-ended)."""

    low: int | None
    high: int | None
    result: str
    initiative: int = 0
    engineers: int = 0
    east: int = 0
    source: Source = attrs.field(factory=lambda: Source("reconstructed: test row"))

    def covers(self, roll: int) -> bool:
        return (self.low is None or roll >= self.low) and (self.high is None or roll <= self.high)


#: Modified rolls a table answers from a ready index (others are looked up row by row).
_INDEXED_ROLLS = range(-20, 41)


@attrs.frozen
class Table:
    """A die table of contiguous rows covering every modified roll."""

    name: str
    rows: tuple[Row, ...]
    _by_roll: dict[int, Row] = attrs.field(
        init=False,
        eq=False,
        repr=False,
        default=attrs.Factory(lambda t: t._index(), takes_self=True),
    )

    def _index(self) -> dict[int, Row]:
        """The row of each roll of :data:`_INDEXED_ROLLS` (made with the table)."""
        by_roll = {}
        for roll in _INDEXED_ROLLS:
            row = self._scan(roll)
            if row is not None:
                by_roll[roll] = row
        return by_roll

    def _scan(self, roll: int) -> Row | None:
        for row in self.rows:
            if row.covers(roll):
                return row
        return None

    def lookup(self, roll: int) -> Row:
        row = self._by_roll.get(roll)
        if row is None:
            row = self._scan(roll)
        if row is None:
            raise ValueError(f"{self.name} table has no row for a modified roll of {roll}")
        return row


@attrs.frozen
class EventEntry:
    """One line of a Random Event table (5.2, 8.1.b)."""

    roll: int
    effect: str
    amount: int
    title: str
    source: Source


# --------------------------------------------------------------------------
# Drift (6.2)
# --------------------------------------------------------------------------
def drift_modifier(turn: int, battalion: bool, card: int = 0) -> int:
    """Bloody Omaha 6.2.a: +1 on turns 1-4, -2 for a battalion; plus any card modifier.

    Readings (READINGS.md): every BN counter is battalion-sized; the turn of the roll.

    A company drifting on turn 1, a battalion on turn 2 with a -2 card, a company on turn 5:

    >>> drift_modifier(turn=1, battalion=False)
    1
    >>> drift_modifier(turn=2, battalion=True, card=-2)
    -3
    >>> drift_modifier(turn=5, battalion=False)
    0
    """
    return (1 if turn <= 4 else 0) - (2 if battalion else 0) + card


def drift_squares(table: Table, modified: int) -> int:
    """Bloody Omaha 6.2: how many squares east the modified drift roll moves a unit.

    With a drift table of 0 east up to 4, 1 on 5-6 and 2 from 7, a company rolling 6 on
    turn 1 (+1) drifts two squares, a battalion rolling 6 (-2 +1) one:

    >>> table = Table("drift", (Row(None, 4, "", east=0), Row(5, 6, "", east=1),
    ...                         Row(7, None, "", east=2)))
    >>> drift_squares(table, 6 + drift_modifier(turn=1, battalion=False))
    2
    >>> drift_squares(table, 6 + drift_modifier(turn=1, battalion=True))
    1
    """
    return table.lookup(modified).east


# --------------------------------------------------------------------------
# Beach disruption (6.5)
# --------------------------------------------------------------------------
@attrs.frozen
class LandingModifiers:
    """The Beach Disruption modifiers of one landing (6.5.a), itemised for the log."""

    turn: int
    battalion: int
    under_fire: int
    mixed: int
    card: int

    @property
    def total(self) -> int:
        return self.turn + self.battalion + self.under_fire + self.mixed + self.card

    @property
    def mixed_only_positive(self) -> bool:
        """6.5.a: the other-division +1 is the only positive modifier."""
        return self.mixed > 0 and self.turn <= 0 and self.under_fire <= 0 and self.card <= 0

    def describe(self) -> str:
        parts = []
        for name, v in (
            ("turn", self.turn),
            ("battalion", self.battalion),
            ("strongpoint fire", self.under_fire),
            ("other division", self.mixed),
            ("card", self.card),
        ):
            if v:
                parts.append(f"{v:+d} {name}")
        return ", ".join(parts) if parts else "no modifier"


def landing_modifiers(
    turn: int, battalion: bool, under_fire: bool, mixed: bool, card: int = 0
) -> LandingModifiers:
    """Bloody Omaha 6.5.a: +2 on turns 1-2, +1 on turns 3-4, -2 battalions, +1 next to an
    uncleared strongpoint by a gray arrow (once), +1 landing among another division.

    The caller decides ``mixed`` (:func:`mixed_landing`).

    A company landing on turn 1 under a strongpoint's fire, and a battalion landing on
    turn 3 among another division:

    >>> landing_modifiers(turn=1, battalion=False, under_fire=True, mixed=False).total
    3
    >>> mods = landing_modifiers(turn=3, battalion=True, under_fire=False, mixed=True)
    >>> mods.total, mods.describe()
    (0, '+1 turn, -2 battalion, +1 other division')
    """
    turn_mod = 2 if turn <= 2 else 1 if turn <= 4 else 0
    return LandingModifiers(
        turn=turn_mod,
        battalion=-2 if battalion else 0,
        under_fire=1 if under_fire else 0,
        mixed=1 if mixed else 0,
        card=card,
    )


def landing_result(table: Table, modified: int, mods: LandingModifiers) -> Row:
    """Bloody Omaha 6.5: the Beach Disruption row; when the other-division +1 is the only
    positive modifier an elimination becomes a disruption (6.5.a).

    With a table of no effect up to 3, disrupted 4-6 and eliminated from 7: a first-wave
    company under fire rolling 5 (+3) is eliminated; on turn 5 a company rolling 6 among
    another division (+1, its only positive modifier) is only disrupted:

    >>> table = Table("beach", (Row(None, 3, "none"), Row(4, 6, "disrupted"),
    ...                         Row(7, None, "eliminated")))
    >>> early = landing_modifiers(turn=1, battalion=False, under_fire=True, mixed=False)
    >>> landing_result(table, 5 + early.total, early).result
    'eliminated'
    >>> late = landing_modifiers(turn=5, battalion=False, under_fire=False, mixed=True)
    >>> landing_result(table, 6 + late.total, late).result
    'disrupted'
    """
    row = table.lookup(modified)
    if row.result == "eliminated" and mods.mixed_only_positive:
        return attrs.evolve(row, result="disrupted")
    return row


def mixed_landing(lander_division: str, others: Sequence[str]) -> bool:
    """Bloody Omaha 6.5.a: does the other-division modifier apply?

    Reading (READINGS.md): the Rangers neither take the +1 nor cause it.

    >>> mixed_landing(FIRST_ID, [TWENTY_NINTH_ID])
    True
    >>> mixed_landing(FIRST_ID, [FIRST_ID, RANGERS])
    False
    >>> mixed_landing(RANGERS, [TWENTY_NINTH_ID])
    False
    """
    if lander_division == RANGERS:
        return False
    return any(d != lander_division and d != RANGERS for d in others)


# --------------------------------------------------------------------------
# Engineers (8.5)
# --------------------------------------------------------------------------
def engineer_modifier(turn: int, assets: int, under_fire: bool) -> int:
    """Bloody Omaha 8.5.a: +1 on turns 1-3, -1 from turn 6, -1 per asset after the first,
    +1 for a Beach square next (gray arrow) to an uncleared strongpoint (once).

    One asset on turn 2 under fire; three assets on turn 6 on a quiet square:

    >>> engineer_modifier(turn=2, assets=1, under_fire=True)
    2
    >>> engineer_modifier(turn=6, assets=3, under_fire=False)
    -3
    """
    if assets < 1:
        raise ValueError("an engineer attempt needs at least one asset")
    mod = 1 if turn <= 3 else -1 if turn >= 6 else 0
    return mod - (assets - 1) + (1 if under_fire else 0)


# --------------------------------------------------------------------------
# Attacks (8.4)
# --------------------------------------------------------------------------
def mixed_commands(divisions: Sequence[str]) -> bool:
    """Bloody Omaha 8.4.a: attackers from more than one US command (-1 on the die).

    Reading (READINGS.md, "the broken sentence of 8.4.a"): the Rangers count here.

    >>> mixed_commands([TWENTY_NINTH_ID, TWENTY_NINTH_ID])
    False
    >>> mixed_commands([TWENTY_NINTH_ID, RANGERS])
    True
    """
    return len(set(divisions)) > 1


def attack_result(total: int, defence: int) -> str:
    """Bloody Omaha 8.4.d: the result of an attack.

    ``total`` is the modified die plus the US attack strength (8.4.b), ``defence`` the
    sum of the defending numerical tokens (8.4.c).

    Reading (READINGS.md, "Thresholds"): below the German total a Failure, at least it a
    Success/Disrupted, at least twice it (or against 0) a Success.

    Two companies (4 + 4) rolling 3 against a Strongpoint token of 12, then 1 against 6,
    then a battalion (10) rolling 2 against 6:

    >>> attack_result(4 + 4 + 3, 12)
    'failure'
    >>> attack_result(4 + 4 + 1, 6), attack_result(10 + 2, 6)
    ('success/disrupted', 'success')
    """
    if total >= 2 * defence:
        return SUCCESS
    if total >= defence:
        return SUCCESS_DISRUPTED
    return FAILURE


# --------------------------------------------------------------------------
# Victory (2.2-2.4)
# --------------------------------------------------------------------------
@attrs.frozen
class Score:
    """The VP breakdown of 2.3 at the end of the game."""

    gaps: int
    strongpoints: int
    encounters: int
    towns_exits: int
    hedgerows: int
    reinforcements: int

    @property
    def total(self) -> int:
        return (
            self.gaps
            + self.strongpoints
            + self.encounters
            + self.towns_exits
            + self.hedgerows
            + self.reinforcements
        )


def score(
    *,
    gaps: int,
    strongpoint_tokens: int,
    encounter_tokens: int,
    towns_exits_cleared: int,
    southern_cleared: int,
    in_reinforcements: int,
) -> Score:
    """Bloody Omaha 2.3: 1 VP per Gap (a), 2 per Strongpoint token cleared (b), 1 per
    Encounter token cleared (c), +1 per cleared Town or Exit square, once per square (d),
    +1 per cleared square of H31-H40 (e), 1 per unit left in the Reinforcements box (f).

    Six Gaps, five Strongpoint and eight Encounter tokens cleared, three Town or Exit
    squares and one southern Hedgerow square cleared, two units never released:

    >>> sc = score(gaps=6, strongpoint_tokens=5, encounter_tokens=8, towns_exits_cleared=3,
    ...            southern_cleared=1, in_reinforcements=2)
    >>> sc.strongpoints, sc.total
    (10, 30)
    """
    return Score(
        gaps=gaps,
        strongpoints=2 * strongpoint_tokens,
        encounters=encounter_tokens,
        towns_exits=towns_exits_cleared,
        hedgerows=southern_cleared,
        reinforcements=in_reinforcements,
    )


@attrs.frozen
class VictoryThresholds:
    """Bloody Omaha 2.2: the thresholds of the victory levels (the published ones by
    default; a scenario's ``[victory]`` section may change them)."""

    #: 2.2.a: fewer Exit squares cleared than this is a Defeat
    defeat_below_exits: int = 2
    #: 2.2.b: a Historical Victory needs at least this many exits ...
    historical_exits: int = 3
    #: ... and at least this many VP ("30 to 40 VP")
    historical_vp: int = 30
    #: 2.2.c: a Major Victory needs at least this many VP ("over 40") ...
    major_vp: int = 41
    #: ... with this many exits cleared (None: every Exit square of the map)
    major_exits: int | None = None


PUBLISHED_VICTORY = VictoryThresholds()


def victory_level(
    exits_cleared: int,
    exits_total: int,
    vp: int,
    thresholds: VictoryThresholds = PUBLISHED_VICTORY,
) -> str:
    """Bloody Omaha 2.2: the level of success at the end of the game.

    Published: fewer than 2 Exit squares cleared is a Defeat (2.2.a); at least 3 with
    30-40 VP a Historical Victory (2.2.b); all with more than 40 VP a Major Victory (2.2.c).

    Reading (READINGS.md, "Victory"): the levels the text leaves undefined.

    On a map of five exits:

    >>> victory_level(1, 5, 45)  # 2.2.a, whatever the VP
    'Defeat'
    >>> victory_level(2, 5, 35), victory_level(3, 5, 25)  # the readings
    ('Draw', 'Draw')
    >>> victory_level(3, 5, 35), victory_level(4, 5, 44)  # 2.2.b; more VP cannot hurt
    ('Historical Victory', 'Historical Victory')
    >>> victory_level(5, 5, 41)  # 2.2.c
    'Major Victory'
    >>> victory_level(3, 5, 35, VictoryThresholds(historical_exits=4))  # a scenario's own
    'Draw'
    """
    t = thresholds
    if exits_cleared < t.defeat_below_exits:
        return DEFEAT
    if exits_cleared < t.historical_exits or vp < t.historical_vp:
        return DRAW
    major_exits = exits_total if t.major_exits is None else t.major_exits
    if vp >= t.major_vp and exits_cleared >= major_exits:
        return MAJOR
    return HISTORICAL
