"""Bloody Omaha: the observation (issue 15), the US player's knowledge as numbers.

Planes over the squares and tracks (:func:`observation_layout`); face-down German
tokens count only by the back they show (Strongpoint or Encounter, 3.5.d-e).
:func:`observation_from_scratch` builds one from the fields alone;
:class:`KeptObservation` keeps a state's observation from call to call.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any, ClassVar

import numpy as np

from omaha.kernel.observation import Observation, ObservationLayout

from . import rules
from .components.map import BEACH, CHANNEL, HEDGEROW, STRONGPOINT, TOWN
from .components.tokens import MINES, face_value, is_strongpoint_token
from .core import (
    ASIDE,
    ATTACK_CHANGED,
    BOX,
    CARDS_CHANGED,
    DEAD,
    EVERYTHING_CHANGED,
    BloodyCore,
    Journal,
    Step,
    TokenIndex,
    tank_name,
)
from .scenario import BloodyScenario

# --------------------------------------------------------------------------
# Observations (for agents): the US player's knowledge as numbers
# --------------------------------------------------------------------------
#: Planes that never change in a scenario (the printed map), then those of the position.
MAP_PLANES: tuple[tuple[str, str], ...] = (
    (CHANNEL, "1 on a Channel square (3.2.a)"),
    (BEACH, "1 on a Beach square (3.2.b)"),
    (HEDGEROW, "1 on a Hedgerow square (3.2.c)"),
    (STRONGPOINT, "1 on a Strongpoint square (3.2.d)"),
    (TOWN, "1 on a Town square (3.2.e)"),
    ("first_wave", "1 on a First Wave Channel square (3.2.a, 6.4)"),
    ("entry", "1 on an entry square C19-C27 (5.3.f)"),
    ("exit", "1 on an Exit square (3.2.d)"),
    ("bonus", "1 on a square worth a bonus VP when cleared (2.3.d, 2.3.e)"),
)
#: The planes a unit adds to (summed in one pass, so they stand together).
UNIT_PLANES = (
    "us_units",
    "us_strength",
    "us_disrupted",
    "us_battalions",
    "us_1st_id",
    "us_29th_id",
    "us_rangers",
)
#: The planes :meth:`_Observer.token_part` fills (from the German tokens alone).
TOKEN_PLANES = (
    "under_fire",
    "strongpoint_unknown",
    "encounter_unknown",
    "german_numerical",
    "german_value",
    "mines",
    "cleared",
)
POSITION_PLANES: tuple[tuple[str, str], ...] = (
    ("us_units", "number of US units in the square"),
    ("us_strength", "their strength as it shows (full or disrupted side, 3.3)"),
    ("us_disrupted", "number of them disrupted"),
    ("us_battalions", "number of battalions among them (6.2.a, 6.5.a)"),
    ("us_1st_id", "number of 1st ID units (8.4.a, 6.5.a)"),
    ("us_29th_id", "number of 29th ID units"),
    ("us_rangers", "number of Ranger units"),
    ("us_tanks", "number of Tank tokens (8.3)"),
    ("obstacle", "1 on a Beach square with its Obstacle (3.5.f)"),
    ("gap", "1 on a Beach square with a Gap (8.5.b)"),
    ("under_fire", "1 on a Beach square joined by a gray arrow to an uncleared strongpoint"),
    ("strongpoint_unknown", "face-down Strongpoint tokens (red cross, value unknown, 3.5.d)"),
    ("encounter_unknown", "face-down Encounter tokens (black cross, kind unknown, 3.5.e)"),
    ("german_numerical", "revealed numerical tokens (8.1.a)"),
    ("german_value", "the sum of their values (8.4.c)"),
    ("mines", "revealed Mines tokens (8.1.c)"),
    ("cleared", "1 on an inland square with no German token left (2.4)"),
    ("attack_target", "1 on the square being attacked (8.4.a)"),
    ("attack_from", "1 on each square attacking it"),
)
STEPS = (Step.SETUP, Step.CARDS, Step.EVENT, Step.ACTIVATE, Step.ATTACK)
#: The tracks :func:`observation_from_scratch` fills from counters of the position, in order.
COUNTER_TRACKS = (
    "turn",
    "initiative_rating",
    "initiative",
    "engineers_rating",
    "engineers",
    "vp",
    "exits_cleared",
    "deck",
    "discards",
    "drift_mod",
    "landing_mod",
    "attack_bonus",
)
#: The counters a kept observation compares at every call (assigned in many places):
#: the Initiative and Engineers tokens (one or the other spent by most actions, 5.3)
#: one by one, then these together (the turn, the ratings and the card modifiers). The
#: other counters (VP, exits, deck, discards) follow from what the journal names.
SCALAR_TRACKS = (
    "turn",
    "initiative_rating",
    "engineers_rating",
    "drift_mod",
    "landing_mod",
    "attack_bonus",
)


class _Observer:
    """One scenario's observation layout and the part of every observation that
    never changes (the map planes, filled once)."""

    _BY_SCENARIO: ClassVar[weakref.WeakKeyDictionary[BloodyScenario, _Observer]] = (
        weakref.WeakKeyDictionary()
    )

    @classmethod
    def of(cls, scen: BloodyScenario) -> _Observer:
        found = cls._BY_SCENARIO.get(scen)
        if found is None:
            found = cls._BY_SCENARIO[scen] = cls(scen)
        return found

    def __init__(self, scen: BloodyScenario) -> None:
        n = self.cells = len(scen.board)
        units = [u.id for u in scen.units]
        tanks = [tank_name(t) for t in range(scen.tank_count)]
        track_meanings: list[tuple[str, str]] = [
            ("turn", "the turn (1..turns, 3.5.a)"),
            ("turns", "the game length in turns"),
            ("initiative_rating", "the Initiative rating: the square marker (7.3)"),
            ("initiative", "Initiative left this turn: the circular token (7.3)"),
            ("engineers_rating", "the Engineers rating (7.3)"),
            ("engineers", "Engineer assets left this turn (7.3)"),
            ("vp", "victory points of the position (2.3)"),
            ("exits_cleared", "Exit squares cleared (2.2)"),
            ("deck", "cards left to draw (5.1)"),
            ("discards", "cards in the discard pile (9.2)"),
            ("drift_mod", "card modifier on this turn's Drift rolls"),
            ("landing_mod", "card modifier on this turn's Beach Disruption rolls"),
            ("attack_bonus", "card bonus to this turn's attack strength"),
        ]
        track_meanings += [
            (f"decision_{s.value}", f"1 while the decision is {s.value}") for s in STEPS
        ]
        track_meanings += [(f"hand_{c}", f"1 while card {c} is in the hand") for c in scen.card_ids]
        track_meanings += [
            (f"offered_{c}", f"1 while card {c} is one of the three set-up cards (4.5)")
            for c in scen.card_ids
        ]
        track_meanings += [
            (f"unit_{u}_at", f"{u}: square index + 1; 0 in the Reinforcements box; -1 eliminated")
            for u in units
        ]
        track_meanings += [(f"unit_{u}_disrupted", f"1 while {u} is disrupted") for u in units]
        track_meanings += [
            (f"{t}_at", f"{t}: square index + 1; 0 set aside (4.3); -1 out of play (8.1.e)")
            for t in tanks
        ]
        track_meanings += [
            (f"{t}_with", f"{t}: the unit it supports, unit index + 1; 0 none") for t in tanks
        ]
        planes = MAP_PLANES + POSITION_PLANES
        self.layout = ObservationLayout(
            cells=n,
            planes=tuple(name for name, _ in planes),
            tracks=tuple(name for name, _ in track_meanings),
            meanings=(*planes, *track_meanings),
        )
        self.plane = {name: i * n for i, name in enumerate(self.layout.planes)}
        self.track = {name: self.layout.track_index(name) for name in self.layout.tracks}
        base = self.layout.zeros()
        for c in range(n):
            base[self.plane[scen.kind[c]] + c] = 1
        for name, cells in (
            ("first_wave", scen.first_wave),
            ("entry", scen.entry),
            ("exit", scen.exit_name),
            ("bonus", scen.bonus | scen.southern),
        ):
            for c in cells:
                base[self.plane[name] + c] = 1
        base[self.track["turns"]] = scen.turns
        self.base = base
        self.division_plane = {
            rules.FIRST_ID: self.plane["us_1st_id"],
            rules.TWENTY_NINTH_ID: self.plane["us_29th_id"],
            rules.RANGERS: self.plane["us_rangers"],
        }
        # the unit planes come first among the position's planes: per unit, the plane
        # offsets it adds to (from the first unit plane) and the amounts it adds on its
        # full and disrupted sides
        first = self.unit_first = self.plane[UNIT_PLANES[0]]
        if self.layout.planes[first // n : first // n + len(UNIT_PLANES)] != UNIT_PLANES:
            raise AssertionError("the unit planes must stand together, in UNIT_PLANES order")
        self.unit_offsets = (
            np.array(
                [
                    [
                        self.plane["us_units"],
                        self.plane["us_strength"],
                        self.plane["us_disrupted"],
                        self.plane["us_battalions"],
                        self.division_plane[spec.division],
                    ]
                    for spec in scen.units
                ],
                dtype=np.int64,
            ).reshape(len(scen.units), 5)
            - first
        )
        self.unit_full = np.array(
            [[1, s.full, 0, int(s.battalion), 1] for s in scen.units], dtype=np.float64
        ).reshape(len(scen.units), 5)
        self.unit_reduced = np.array(
            [[1, s.reduced, 1, int(s.battalion), 1] for s in scen.units], dtype=np.float64
        ).reshape(len(scen.units), 5)
        #: (face, revealed) -> what a token adds where it lies (see token_planes)
        self.token_adds: dict[tuple[str, bool], tuple[tuple[int, int], ...]] = {}
        self.arrows = scen.arrows
        self.inland = tuple(sorted(scen.inland))
        # squares worth a VP when cleared (2.3.d, 2.3.e: a square counts once per bullet)
        self.bonus = (*sorted(scen.bonus), *sorted(scen.southern))
        self.exits = tuple(sorted(scen.exit_name))
        self.counters = np.array([self.track[name] for name in COUNTER_TRACKS], dtype=np.int64)
        self.unit_at = np.array([self.track[f"unit_{u}_at"] for u in units], dtype=np.int64)
        self.unit_disrupted = np.array(
            [self.track[f"unit_{u}_disrupted"] for u in units], dtype=np.int64
        )
        self.tank_at = [self.track[f"{t}_at"] for t in tanks]
        self.tank_with = [self.track[f"{t}_with"] for t in tanks]
        self.hand = {c: self.track[f"hand_{c}"] for c in scen.card_ids}
        self.offered = {c: self.track[f"offered_{c}"] for c in scen.card_ids}
        self.decision = {s: self.track[f"decision_{s.value}"] for s in STEPS}
        # for KeptObservation: the same tables as plain Python numbers (one number at a
        # time is cheaper so than through numpy)
        # per unit, per side (full, disrupted): the (index, amount) it adds, zeros left out
        self.unit_adds = tuple(
            tuple(
                tuple(
                    (at, amount)
                    for at, amount in zip(
                        (first + self.unit_offsets[u]).tolist(), side[u].tolist(), strict=True
                    )
                    if amount
                )
                for side in (self.unit_full, self.unit_reduced)
            )
            for u in range(len(scen.units))
        )
        #: per unit: what it adds on each side, its square track, its disrupted track
        self.unit_entries = tuple(
            zip(self.unit_adds, self.unit_at.tolist(), self.unit_disrupted.tolist(), strict=True)
        )
        self.units = range(len(scen.units))
        #: the counters compared at every call, and those the journal brings
        self.scalar_at = [self.track[name] for name in SCALAR_TRACKS]
        self.initiative_at, self.engineers_at = self.track["initiative"], self.track["engineers"]
        self.vp_at, self.exits_at = self.track["vp"], self.track["exits_cleared"]
        self.deck_at, self.discards_at = self.track["deck"], self.track["discards"]
        self.tank_plane = self.plane["us_tanks"]
        # the token planes stand together: a change of the tokens rewrites that span only
        token_planes = sorted(self.plane[name] for name in TOKEN_PLANES)
        if token_planes != list(range(token_planes[0], token_planes[-1] + 1, n)):
            raise AssertionError("the token planes must stand together")
        self.token_span = slice(token_planes[0], token_planes[-1] + n)
        self.inland_set = frozenset(self.inland)
        #: square -> the Beach squares its tokens keep under fire (the gray arrows)
        fired: dict[int, list[int]] = {}
        for b, sps in sorted(self.arrows.items()):
            for sp in sps:
                fired.setdefault(sp, []).append(b)
        self.fired_by = {sp: tuple(beaches) for sp, beaches in fired.items()}
        #: square -> the bonus VP it is worth when cleared; the Exit squares
        self.bonus_of = {c: self.bonus.count(c) for c in self.bonus}
        self.exit_set = frozenset(self.exits)
        #: the constant part and what a map with no German token shows: every inland
        #: square cleared (2.4), no Beach square under fire
        tokenless = base.copy()
        for c in self.inland:
            tokenless[self.plane["cleared"] + c] = 1
        self.tokenless = tokenless
        for face in {*scen.strongpoint_tokens, *scen.encounter_tokens}:
            for revealed in (False, True):
                self.token_planes(face, revealed)
        #: a kept observation of a new game's first position, the start of the next ones
        self.template: KeptObservation | None = None

    def token_part(
        self, tokens: dict[int, list[tuple[str, bool]]], uncleared: set[int]
    ) -> tuple[Observation, int, int]:
        """What depends on the German tokens alone: the planes of what each token shows,
        the cleared squares (2.4) and the Beach squares under fire; the bonus VP of
        cleared squares (2.3.d-e) and the exits cleared (2.2)."""
        part = np.zeros(self.layout.size, dtype=np.float32)
        for cell, toks in tokens.items():
            for face, revealed in toks:
                for offset, value in self.token_planes(face, revealed):
                    part[offset + cell] += value
        cleared = self.plane["cleared"]
        for c in self.inland:
            if c not in uncleared:
                part[cleared + c] = 1
        fire = self.plane["under_fire"]
        for b, sps in self.arrows.items():
            if not uncleared.isdisjoint(sps):
                part[fire + b] = 1
        bonus = sum(1 for c in self.bonus if c not in uncleared)
        exits = sum(1 for c in self.exits if c not in uncleared)
        return part, bonus, exits

    def token_planes(self, face: str, revealed: bool) -> tuple[tuple[int, int], ...]:
        """(plane offset, amount) a token adds where it lies: a face-down token only by
        its back (3.5.d-e), a revealed one by its face."""
        key = (face, revealed)
        found = self.token_adds.get(key)
        if found is None:
            plane = self.plane
            value = face_value(face)
            if not revealed:
                back = "strongpoint_unknown" if is_strongpoint_token(face) else "encounter_unknown"
                found = ((plane[back], 1),)
            elif value is not None:
                found = ((plane["german_numerical"], 1), (plane["german_value"], value))
            elif face == MINES:
                found = ((plane["mines"], 1),)
            else:  # resolved and removed at once (8.1.b, d, e)
                found = ()
            self.token_adds[key] = found
        return found


def observation_layout(scen: BloodyScenario) -> ObservationLayout:
    """What each number of :func:`observation` means in ``scen``."""
    return _Observer.of(scen).layout


def check_player(player: str) -> None:
    if player != "US":
        raise ValueError(f"{player!r} is not a player of Bloody Omaha (the US plays alone)")


def observation_from_scratch(st: BloodyCore, player: str) -> Observation:
    """What the US player knows, as numbers (the layout of :func:`observation_layout`),
    built from the fields alone: the reference :class:`KeptObservation` must equal.

    Face-down tokens count only by the back they show (Strongpoint or Encounter,
    3.5.d-e); a token's face shows once revealed (8.1). The units' planes are summed by
    one ``numpy.bincount``.
    """
    check_player(player)
    scen = st.scen
    ob = _Observer.of(scen)
    plane = ob.plane
    tokens, bonus_vp, exits = ob.token_part(st.tokens, TokenIndex(st.tokens).uncleared)
    obs = ob.base + tokens
    where = np.array(st.where, dtype=np.int64)
    down = np.array(st.disrupted, dtype=bool)
    on = where >= 0
    if on.any():
        at = ob.unit_offsets[on] + where[on, None]
        amount = np.where(down[on, None], ob.unit_reduced[on], ob.unit_full[on])
        span = ob.cells * len(UNIT_PLANES)
        obs[ob.unit_first : ob.unit_first + span] += np.bincount(
            at.ravel(), weights=amount.ravel(), minlength=span
        ).astype(np.float32)
    obs[ob.unit_at] = np.where(on, where + 1, np.where(where == DEAD, -1, 0))
    obs[ob.unit_disrupted] = down
    for t, (w, u) in enumerate(st.tanks):
        if w >= 0:
            obs[plane["us_tanks"] + w] += 1
        obs[ob.tank_at[t]] = w + 1 if w >= 0 else 0 if w == ASIDE else -1
        obs[ob.tank_with[t]] = u + 1
    gap_p, obstacle_p = plane["gap"], plane["obstacle"]
    for b, gap in st.gap.items():
        obs[(gap_p if gap else obstacle_p) + b] = 1
    if st.attack_target >= 0:
        obs[plane["attack_target"] + st.attack_target] = 1
        for c in st.attack_squares:
            obs[plane["attack_from"] + c] = 1
    for card in st.hand:
        obs[ob.hand[card]] = 1
    for card in st.offered:
        obs[ob.offered[card]] = 1
    if st.step in ob.decision:
        obs[ob.decision[st.step]] = 1
    obs[ob.counters] = _counters(st, bonus_vp, exits)
    return obs


def _counters(st: BloodyCore, bonus_vp: int, exits: int) -> tuple[int, ...]:
    """The values of the tracks :data:`COUNTER_TRACKS`, in that order."""
    return (
        st.turn,
        st.init_rating,
        st.init_token,
        st.eng_rating,
        st.eng_token,
        # 2.3: the score, with the cleared squares' bonus counted from the tokens
        sum(st.gap.values()) + 2 * st.sp_removed + st.enc_removed + bonus_vp + st.where.count(BOX),
        exits,
        len(st.deck),
        len(st.deck.discards),
        st.drift_mod,
        st.landing_mod,
        st.attack_bonus,
    )


class KeptObservation:
    """One state's observation, kept from call to call (agents observe at every step).

    It is brought up to date from the state's :class:`~omaha.bloody.core.Journal`:
    only the units, squares, tanks, Gaps, attack and cards the procedures changed since
    the last call are read again (each against the copy of its fields remembered here,
    so a repeated entry costs nothing); the decision and the eight Game Track counters
    (the Initiative and Engineers tokens one by one, those of :data:`SCALAR_TRACKS`
    together) are compared at every call. Whatever changes the fields behind the
    procedures' back (``edit()``, a restored snapshot, unpickling) drops the
    kept observation: the next call builds it again.

    A new one starts from the scenario's constant part as if every unit were in the
    Reinforcements box and every tank set aside, with no gap, card or decision, and is
    brought up to date by a journal naming everything (:meth:`everything`), the same
    path as the later calls. :func:`observation_from_scratch` is the reference it must
    equal.

    The numbers live in a numpy array, ``view`` (copied for each caller), and are
    written through its memoryview, ``buf`` (one number changes there as a plain float
    store, without numpy's machinery).
    """

    __slots__ = (
        "attack_squares",
        "attack_target",
        "bonus_vp",
        "buf",
        "disrupted",
        "eng_token",
        "exits",
        "gap",
        "gaps",
        "hand",
        "in_box",
        "init_token",
        "ob",
        "offered",
        "scalars",
        "shared",
        "step",
        "tanks",
        "tokens",
        "view",
        "where",
    )

    def __init__(self, scen: BloodyScenario) -> None:
        ob = self.ob = _Observer.of(scen)
        #: True once a clone shares it: neither state writes to it, each copies it first
        self.shared = False
        self._hold(ob.tokenless.copy())
        self.tokens: dict[int, list[tuple[str, bool]]] = {}
        self.bonus_vp, self.exits = len(ob.bonus), len(ob.exits)
        units = len(ob.units)
        self.where: list[int] = [BOX] * units
        self.disrupted: list[bool] = [False] * units
        self.in_box = units
        self.tanks: list[list[int] | None] = [[ASIDE, -1] for _ in ob.tank_at]
        self.gap: dict[int, bool] = {}  # the Beach squares shown, True with a Gap
        self.gaps = 0
        self.attack_target = -1
        self.attack_squares: list[int] = []
        self.hand: list[str] = []
        self.offered: list[str] = []
        self.step: Step | None = None
        self.init_token = self.eng_token = 0
        self.scalars: tuple[int, ...] = (0,) * len(ob.scalar_at)

    @classmethod
    def for_state(cls, st: BloodyCore, dealt: bool) -> KeptObservation:
        """A kept observation of ``st``: a copy of the scenario's template brought up to
        date with everything. The template is the first one made of a position ``dealt``
        (the set-up deal of a new game, untouched: no action, no edit); the next such
        position shows the same (the units, tanks and tracks are the scenario's, and a
        face-down token shows only its back, 3.5.d-e: the same in every deal, a Strongpoint
        token in each Strongpoint square, an Encounter token in each Encounter square) but
        for the three cards offered, so only those are brought over. The tokens it
        remembers are then the template's faces: what they show is what the numbers show,
        all a later change needs (a square named by the journal is compared with them and
        read again).
        """
        ob = _Observer.of(st.scen)
        template = ob.template
        if template is None:
            kept = cls(st.scen)
            kept.update(st, kept.everything(st))
            if dealt:
                ob.template = kept.copy()
            return kept
        kept = template.copy()
        if dealt:
            journal = Journal()
            journal.flags = CARDS_CHANGED
            kept.update(st, journal)
        else:
            kept.update(st, kept.everything(st))
        return kept

    def everything(self, st: BloodyCore) -> Journal:
        """A journal naming every unit, every square with tokens (here or in ``st``) and
        every flag: what brings a kept observation up to date with any position."""
        units = len(self.where)
        if len(st.where) != units or len(st.disrupted) != units:
            raise ValueError(
                f"{len(st.where)} squares and {len(st.disrupted)} sides for {units} units"
            )
        tanks = len(self.tanks)
        if len(st.tanks) > tanks:
            raise ValueError(f"{len(st.tanks)} tanks for the scenario's {tanks}")
        journal = Journal()
        journal.units = list(range(units))
        journal.cells = sorted({*st.tokens, *self.tokens})
        journal.beaches = sorted({*st.gap, *self.gap})
        journal.tanks = list(range(tanks))
        journal.flags = EVERYTHING_CHANGED
        return journal

    def _hold(self, numbers: Observation) -> None:
        self.view = numbers
        self.buf: Any = numbers.data  # a memoryview (typeshed types its items as int)

    def __reduce__(self) -> tuple[type[None], tuple[()]]:
        """Pickled as None (OpenSpiel pickles states): an unpickled state builds its kept
        observation again on first use, rather than carry the scenario's tables."""
        return type(None), ()

    def copy(self) -> KeptObservation:
        """An independent twin, not shared (the remembered containers changed in place
        are copied; their items, and the other fields, are only ever replaced whole)."""
        twin = KeptObservation.__new__(KeptObservation)
        for name in self.__slots__:
            setattr(twin, name, getattr(self, name))
        twin._hold(self.view.copy())
        twin.where = list(self.where)
        twin.disrupted = list(self.disrupted)
        twin.tokens = dict(self.tokens)
        twin.gap = dict(self.gap)
        twin.tanks = list(self.tanks)
        twin.shared = False
        return twin

    def share(self) -> KeptObservation:
        """This one, for a clone too: from now on whichever state observes next works on a
        copy (a clone that is never observed costs nothing, as in a search)."""
        self.shared = True
        return self

    def update(self, st: BloodyCore, journal: Journal) -> None:
        """Bring the numbers up to date with ``st``: what ``journal`` names (emptied),
        then the decision and the Game Track counters."""
        ob, buf = self.ob, self.buf
        units, cells, beaches = journal.units, journal.cells, journal.beaches
        if units or cells or beaches:
            if units:
                self._units(st.where, st.disrupted, units)
                units.clear()
            if cells:
                self._tokens(st.tokens, cells)
                cells.clear()
            if beaches:
                self._gaps(st.gap, beaches)
                beaches.clear()
            # 2.3: the score (gaps, cleared squares and units in the box counted here)
            buf[ob.vp_at] = (
                self.gaps + 2 * st.sp_removed + st.enc_removed + self.bonus_vp + self.in_box
            )
            buf[ob.exits_at] = self.exits
        if journal.tanks:
            self._tanks(st.tanks, journal.tanks)
            journal.tanks.clear()
        flags = journal.flags
        if flags:
            journal.flags = 0
            if flags & ATTACK_CHANGED:
                self._attack(st.attack_target, st.attack_squares)
            if flags & CARDS_CHANGED:
                self._cards(st.hand, st.offered)
                buf[ob.deck_at] = len(st.deck)
                buf[ob.discards_at] = len(st.deck.discards)
        step = st.step
        if step is not self.step:
            decision = ob.decision
            if self.step in decision:
                buf[decision[self.step]] = 0
            if step in decision:
                buf[decision[step]] = 1
            self.step = step
        value = st.init_token
        if value != self.init_token:
            buf[ob.initiative_at] = self.init_token = value
        value = st.eng_token
        if value != self.eng_token:
            buf[ob.engineers_at] = self.eng_token = value
        scalars = (
            st.turn,
            st.init_rating,
            st.eng_rating,
            st.drift_mod,
            st.landing_mod,
            st.attack_bonus,
        )
        if scalars != self.scalars:  # all written: cheaper than finding which
            for at, value in zip(ob.scalar_at, scalars, strict=True):
                buf[at] = value
            self.scalars = scalars

    def _units(self, where: list[int], down: list[bool], units: Iterable[int]) -> None:
        """Each of ``units`` whose square or side changed leaves its old square and joins
        its new one (its unit planes there) and sets its two tracks."""
        ob, buf = self.ob, self.buf
        entries = ob.unit_entries
        old_where, old_down = self.where, self.disrupted
        in_box = self.in_box
        for u in units:
            w, was = where[u], old_where[u]
            d, was_down = down[u], old_down[u]
            if w == was and d == was_down:
                continue  # unchanged, or named again
            adds, at_track, down_track = entries[u]
            if d == was_down:
                if was >= 0 and w >= 0:  # the commonest: a move on the map
                    for at, amount in adds[d]:
                        buf[was + at] -= amount
                        buf[w + at] += amount
                else:
                    for at, amount in adds[d]:
                        if was >= 0:
                            buf[was + at] -= amount
                        if w >= 0:
                            buf[w + at] += amount
            else:
                d = bool(d)
                if was >= 0:
                    for at, amount in adds[was_down]:
                        buf[was + at] -= amount
                if w >= 0:
                    for at, amount in adds[d]:
                        buf[w + at] += amount
                buf[down_track] = d
                old_down[u] = d
            if w != was:
                buf[at_track] = w + 1 if w >= 0 else -1 if w == DEAD else 0
                if w == BOX or was == BOX:
                    in_box += 1 if w == BOX else -1
                old_where[u] = w
        self.in_box = in_box

    def _tokens(self, tokens: dict[int, list[tuple[str, bool]]], cells: Iterable[int]) -> None:
        """Each of ``cells`` whose tokens changed: what they show, whether the square is
        cleared (2.4, the bonus VP and exits it counts for), and the Beach squares it
        keeps under fire."""
        ob, buf = self.ob, self.buf
        kept = self.tokens
        cleared_p = ob.plane["cleared"]
        fired: set[int] = set()
        adds = ob.token_adds
        for c in cells:
            old = kept.get(c)
            new = tokens.get(c)
            if old == new:
                continue
            for token in old or ():
                for offset, value in adds[token]:  # remembered: looked up when it came
                    buf[offset + c] -= value
            for token in new or ():
                found = adds.get(token)
                for offset, value in found if found is not None else ob.token_planes(*token):
                    buf[offset + c] += value
            now_clear = not new
            if now_clear != (not old):
                if c in ob.inland_set:
                    buf[cleared_p + c] = now_clear
                step = 1 if now_clear else -1
                self.bonus_vp += step * ob.bonus_of.get(c, 0)
                if c in ob.exit_set:
                    self.exits += step
                fired.update(ob.fired_by.get(c, ()))
            if new is None:
                del kept[c]
            else:
                kept[c] = list(new)  # a copy: the state's lists change in place
        fire_p = ob.plane["under_fire"]
        for b in fired:
            buf[fire_p + b] = any(tokens.get(sp) for sp in ob.arrows[b])

    def _tanks(self, tanks: list[list[int]], which: Iterable[int]) -> None:
        """Each of the tanks ``which`` whose square or unit changed: off its old square,
        on its new one (a tank the state lacks shows nowhere)."""
        ob, buf = self.ob, self.buf
        before = self.tanks
        for t in which:
            old = before[t]
            new = tanks[t] if t < len(tanks) else None
            if old == new:
                continue
            if old is not None:
                if old[0] >= 0:
                    buf[ob.tank_plane + old[0]] -= 1
                buf[ob.tank_at[t]] = buf[ob.tank_with[t]] = 0
            if new is None:
                before[t] = None
                continue
            w, u = new
            if w >= 0:
                buf[ob.tank_plane + w] += 1
            buf[ob.tank_at[t]] = w + 1 if w >= 0 else 0 if w == ASIDE else -1
            buf[ob.tank_with[t]] = u + 1
            before[t] = [w, u]

    def _gaps(self, gaps: dict[int, bool], beaches: Iterable[int]) -> None:
        """Each of ``beaches`` whose Gap changed shows a Gap or its Obstacle (a square the
        state does not list shows neither)."""
        plane, buf = self.ob.plane, self.buf
        gap_p, obstacle_p = plane["gap"], plane["obstacle"]
        before = self.gap
        for b in beaches:
            old, found = before.get(b), gaps.get(b)
            new = None if found is None else bool(found)
            if old == new:
                continue
            if new is None:
                buf[gap_p + b] = buf[obstacle_p + b] = 0
                del before[b]
            else:
                buf[gap_p + b] = new
                buf[obstacle_p + b] = not new
                before[b] = new
            self.gaps += bool(new) - bool(old)

    def _attack(self, target: int, squares: list[int]) -> None:
        plane, buf = self.ob.plane, self.buf
        target_p, from_p = plane["attack_target"], plane["attack_from"]
        if self.attack_target >= 0:
            buf[target_p + self.attack_target] = 0
            for c in self.attack_squares:
                buf[from_p + c] = 0
        if target >= 0:
            buf[target_p + target] = 1
            for c in squares:
                buf[from_p + c] = 1
        self.attack_target = target
        self.attack_squares = list(squares)

    def _cards(self, hand: list[str], offered: list[str]) -> None:
        ob, buf = self.ob, self.buf
        for card in self.hand:
            buf[ob.hand[card]] = 0
        for card in self.offered:
            buf[ob.offered[card]] = 0
        for card in hand:
            buf[ob.hand[card]] = 1
        for card in offered:
            buf[ob.offered[card]] = 1
        self.hand = list(hand)
        self.offered = list(offered)
