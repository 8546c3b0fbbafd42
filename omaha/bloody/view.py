"""Bloody Omaha: what a player sees, the comparison metrics, and snapshots.

The US view hides every German token that has not been revealed: it shows only
that a face-down Strongpoint (red cross) or Encounter (black cross) token is
there, as the backs of the real tokens do (3.5.d, 3.5.e). The observation (for
agents) is the same knowledge as numbers: planes over the squares and tracks.
"""

from __future__ import annotations

import array
import math
import weakref
from collections.abc import Iterable
from itertools import compress
from operator import ne
from typing import Any, ClassVar

import numpy as np

from omaha.kernel.decks import Deck
from omaha.kernel.labels import LabelError
from omaha.kernel.observation import Observation, ObservationLayout
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View

from . import rules
from .components.map import BEACH, CHANNEL, HEDGEROW, STRONGPOINT, TOWN
from .components.tokens import EVENT, MINES, face_value, is_strongpoint_token, token_text
from .core import ASIDE, BOX, DEAD, LOST, BloodyCore, Phase, Step, TokenIndex, tank_name
from .scenario import BloodyScenario

BOX_ID = "reinforcements"


#: What the counters and tokens print, for the pictures (16): a NATO symbol, the echelon.
UNIT_SYMBOL = {rules.RANGERS: "ranger"}  # every other command: infantry
ECHELON = {rules.COMPANY: "I", rules.BATTALION: "II"}  # 3.3: companies and battalions


#: Token faces too long for the value line of a counter.
SHORT_FACE = {EVENT: "Event"}


def token_piece(st: BloodyCore, cell: int, k: int, face: str, revealed: bool, hide: bool) -> Piece:
    """A German token as the player sees it: face down, only the back (the red cross of
    a Strongpoint or the black border of an Encounter token, 3.5.d-e); face up, its value
    or its kind (8.1). Strongpoint tokens are fortified positions (3.2.d)."""
    lab = st.board.labels[cell]
    strongpoint = is_strongpoint_token(face)
    name = "Strongpoint" if strongpoint else "Encounter"
    kind = "fortification" if strongpoint else "marker"
    if hide and not revealed:
        return Piece(f"{lab}#{k + 1}", "German", name, lab, hidden=True, kind=kind)
    value = face_value(face)
    return Piece(
        f"{lab}#{k + 1}",
        "German",
        name,
        lab,
        values=str(value) if value is not None else SHORT_FACE.get(face, token_text(face)),
        marks=() if revealed else ("face_down",),
        kind=kind,
    )


def unit_piece(st: BloodyCore, u: int, where: str) -> Piece:
    """A US counter (3.3): the unit's id, infantry (Rangers: ranger) with its echelon,
    and the strength of the side up (full, or disrupted: 6.5, 8.1, 8.4)."""
    spec = st.scen.units[u]
    w = st.where[u]
    marks = ("eliminated",) if w == DEAD else ("disrupted",) if st.disrupted[u] else ()
    return Piece(
        spec.id,
        "US",
        spec.id,
        where,
        values=str(spec.reduced if st.disrupted[u] and w != DEAD else spec.full),
        marks=marks,
        kind=UNIT_SYMBOL.get(spec.division, "infantry"),
        echelon=ECHELON[spec.size],
    )


def build_view(st: BloodyCore, player: str | None) -> View:
    scen, board = st.scen, st.board
    labels = board.labels
    hide = player is not None
    # what lies in a square first (obstacles, gaps, German tokens, the tanks supporting
    # a unit), so that the pictures stack the units that stand there on top
    pieces: list[Piece] = []
    for b in scen.beaches:
        if st.gap[b]:
            pieces.append(Piece(f"gap-{labels[b]}", "US", "Gap", labels[b], kind="marker"))
        else:
            pieces.append(
                Piece(f"obstacle-{labels[b]}", "German", "Obstacle", labels[b], kind="marker")
            )
    for cell in sorted(st.tokens):
        for k, (face, revealed) in enumerate(st.tokens[cell]):
            pieces.append(token_piece(st, cell, k, face, revealed, hide))
    supporting: list[str] = []
    for t, (w, unit) in enumerate(st.tanks):
        if w == LOST:
            continue
        where = labels[w] if w >= 0 else ""
        mark = ("set aside",) if w == ASIDE else () if unit >= 0 else ("waiting",)
        if w >= 0 and unit >= 0:
            supporting.append(f"{tank_name(t)} supports {scen.units[unit].id} (8.3)")
        pieces.append(
            Piece(
                tank_name(t),
                "US",
                "Tank",
                where,
                values=str(scen.tank_strength),
                marks=mark,
                kind="armour",
            )
        )
    for u in range(len(scen.units)):
        w = st.where[u]
        where = labels[w] if w >= 0 else BOX_ID if w == BOX else ""
        pieces.append(unit_piece(st, u, where))
    marks_out: list[Mark] = []
    for b in scen.beaches:
        marks_out.append(Mark(labels[b], scen.beach_name[b], "beach"))
    for c in scen.strongpoints:
        text = str(board.prop(c, "wn", ""))
        if c in scen.exit_name:
            text += f" {scen.exit_name[c]}"
        marks_out.append(Mark(labels[c], text.strip(), "strongpoint"))
    for c, town in sorted(scen.town_name.items()):
        if scen.kind[c] == "town":
            marks_out.append(Mark(labels[c], town, "town"))
    sc = st.score()
    tracks = [
        ("Turn", f"{st.turn}/{scen.turns}"),
        ("Initiative", f"{st.init_token} of {st.init_rating}"),
        ("Engineers", f"{st.eng_token} of {st.eng_rating}"),
        ("VP", str(sc.total)),
        ("Exits cleared", f"{st.exits_cleared()}/{len(scen.exit_name)}"),
        ("Deck", f"{len(st.deck)} to draw, {len(st.deck.discards)} discarded"),
        ("Hand", " ".join(st.hand) or "-"),
    ]
    if st.drift_mod or st.landing_mod or st.attack_bonus:
        tracks.append(
            (
                "This turn",
                f"drift {st.drift_mod:+d}, landing {st.landing_mod:+d}, "
                f"attack {st.attack_bonus:+d}",
            )
        )
    notes = [
        f"{c} {scen.cards[c].title}: " + " | ".join(o.describe() for o in scen.cards[c].options)
        for c in (st.offered or st.hand)
    ]
    notes += supporting
    if st.attack_target >= 0:
        notes.append(
            f"attack on {labels[st.attack_target]} from "
            + ", ".join(labels[c] for c in st.attack_squares)
        )
    return st.make_view(player, pieces=pieces, marks=marks_out, tracks=tracks, notes=notes)


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
#: The tracks :func:`observation` fills from counters of the position, in this order.
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
        self.counter_list = self.counters.tolist()
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


def _check_player(player: str) -> None:
    if player != "US":
        raise ValueError(f"{player!r} is not a player of Bloody Omaha (the US plays alone)")


def observation_from_scratch(st: BloodyCore, player: str) -> Observation:
    """What the US player knows, as numbers (the layout of :func:`observation_layout`),
    built from the fields alone: the reference :class:`KeptObservation` must equal.

    Face-down tokens count only by the back they show (Strongpoint or Encounter,
    3.5.d-e); a token's face shows once revealed (8.1). The units' planes are summed by
    one ``numpy.bincount``.
    """
    _check_player(player)
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

    It remembers the fields it was last brought up to date from (copies, never the
    state's own lists) and, at each call, compares them with the state's: only the
    parts whose fields differ are rewritten (a unit that moved is taken off its old
    square and put on its new one, a square whose tokens changed is read again).
    Nothing has to tell it of a change, so no path that changes the fields (a
    procedure, ``edit()``, a restored snapshot) can leave it stale.

    It starts from the scenario's constant part as if every unit were in the
    Reinforcements box and every tank set aside, with no gap, card or decision; the
    first call writes the token planes whole, then the rest by the same path as the
    later calls. :func:`observation_from_scratch` is the reference it must equal.

    The numbers live in an ``array.array`` (one number changes there without numpy's
    machinery), seen by numpy through ``view`` for the copy handed out.
    """

    __slots__ = (
        "attack_squares",
        "attack_target",
        "bonus_vp",
        "buf",
        "counters",
        "disrupted",
        "exits",
        "gap",
        "gaps",
        "hand",
        "in_box",
        "ob",
        "offered",
        "shared",
        "step",
        "tanks",
        "tokens",
        "view",
        "where",
    )

    def __init__(self, scen: BloodyScenario) -> None:
        self.ob = _Observer.of(scen)
        self._reset()

    @classmethod
    def for_state(cls, st: BloodyCore) -> KeptObservation:
        """A kept observation for ``st``: a copy of the scenario's template (a new game
        differs from another mostly by its German tokens), or one from nothing."""
        ob = _Observer.of(st.scen)
        if ob.template is not None:
            return ob.template.copy()
        kept = cls(st.scen)
        if st.step == Step.SETUP:
            kept._bring_up_to_date(st)
            ob.template = kept.copy()
        return kept

    def _reset(self) -> None:
        ob = self.ob
        #: True once a clone shares it: neither state writes to it, each copies it first
        self.shared = False
        self._hold(array.array("f", ob.tokenless.tobytes()))
        self.tokens: dict[int, list[tuple[str, bool]]] = {}
        self.bonus_vp, self.exits = len(ob.bonus), len(ob.exits)
        units = len(ob.units)
        self.where: list[int] = [BOX] * units
        self.disrupted: list[bool] = [False] * units
        self.in_box = units
        self.tanks: list[list[int]] = [[ASIDE, -1] for _ in ob.tank_at]
        self.gap: dict[int, bool] = {}
        self.gaps = 0
        self.attack_target = -1
        self.attack_squares: list[int] = []
        self.hand: list[str] = []
        self.offered: list[str] = []
        self.step: Step | None = None
        self.counters: tuple[int, ...] = (0,) * len(ob.counter_list)

    def _hold(self, buf: array.array[float]) -> None:
        self.buf = buf
        self.view: Observation = np.frombuffer(buf, dtype=np.float32)

    def copy(self) -> KeptObservation:
        """An independent twin, not shared: the remembered fields are never changed in
        place, so only the numbers are copied."""
        twin = KeptObservation.__new__(KeptObservation)
        for name in self.__slots__:
            setattr(twin, name, getattr(self, name))
        twin._hold(array.array("f", self.buf))
        twin.shared = False
        return twin

    def share(self) -> KeptObservation:
        """This one, for a clone too: from now on whichever state observes next works on a
        copy (a clone that is never observed costs nothing, as in a search)."""
        self.shared = True
        return self

    def observe(self, st: BloodyCore, player: str) -> Observation:
        """The observation of ``st`` for ``player``: a new array each call."""
        if player != "US":
            _check_player(player)
        try:
            self._bring_up_to_date(st)
        except BaseException:
            self._reset()  # half-updated: start again from nothing next time
            raise
        return self.view.copy()

    def _bring_up_to_date(self, st: BloodyCore) -> None:
        ob, buf = self.ob, self.buf
        if st.tokens != self.tokens:
            self._tokens(st.tokens)
        if st.where != self.where or st.disrupted != self.disrupted:
            self._units(st.where, st.disrupted)
        if st.tanks != self.tanks:
            self._tanks(st.tanks)
        if st.gap != self.gap:
            self._gaps(st.gap)
        if st.attack_target != self.attack_target or st.attack_squares != self.attack_squares:
            self._attack(st.attack_target, st.attack_squares)
        if st.hand != self.hand or st.offered != self.offered:
            self._cards(st.hand, st.offered)
        if st.step != self.step:
            decision = ob.decision
            if self.step in decision:
                buf[decision[self.step]] = 0
            if st.step in decision:
                buf[decision[st.step]] = 1
            self.step = st.step
        counters = (
            st.turn,
            st.init_rating,
            st.init_token,
            st.eng_rating,
            st.eng_token,
            # 2.3: the score (gaps and units in the box counted where they change)
            self.gaps + 2 * st.sp_removed + st.enc_removed + self.bonus_vp + self.in_box,
            self.exits,
            len(st.deck),
            len(st.deck.discards),
            st.drift_mod,
            st.landing_mod,
            st.attack_bonus,
        )
        if counters != self.counters:
            for at, value, before in zip(ob.counter_list, counters, self.counters, strict=True):
                if value != before:
                    buf[at] = value
            self.counters = counters

    def _tokens(self, tokens: dict[int, list[tuple[str, bool]]]) -> None:
        """Square by square, for each square whose tokens changed: what they show, whether
        the square is cleared (2.4, the bonus VP and exits it counts for), and the Beach
        squares it keeps under fire."""
        ob, buf = self.ob, self.buf
        before = self.tokens
        changed = [c for c, toks in tokens.items() if toks != before.get(c)]
        changed += [c for c in before if c not in tokens]
        kept = dict(before)
        cleared_p = ob.plane["cleared"]
        fired: set[int] = set()
        adds = ob.token_adds
        for c in changed:
            old = before.get(c, ())
            new = tokens.get(c, ())
            for token in old:
                for offset, value in adds[token]:  # remembered: looked up when it came
                    buf[offset + c] -= value
            for token in new:
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
            if c in tokens:
                kept[c] = list(new)
            else:
                del kept[c]
        fire_p = ob.plane["under_fire"]
        for b in fired:
            buf[fire_p + b] = any(tokens.get(sp) for sp in ob.arrows[b])
        self.tokens = kept

    def _units(self, where: list[int], down: list[bool]) -> None:
        """Each unit whose square or side changed leaves its old square and joins its
        new one (its unit planes there) and sets its two tracks."""
        ob, buf = self.ob, self.buf
        units = ob.units
        if len(where) != len(units) or len(down) != len(units):
            raise ValueError(f"{len(where)} squares and {len(down)} sides for {len(units)} units")
        old_where, old_down = self.where, self.disrupted
        changed: Iterable[int] = compress(units, map(ne, where, old_where))
        if down != old_down:
            changed = sorted({*changed, *compress(units, map(ne, down, old_down))})
            self.disrupted = list(down)
        in_box = self.in_box
        for u in changed:
            w, d, was = where[u], bool(down[u]), old_where[u]
            adds, at_track, down_track = ob.unit_entries[u]
            if was >= 0:
                for at, amount in adds[bool(old_down[u])]:
                    buf[was + at] -= amount
            if w >= 0:
                for at, amount in adds[d]:
                    buf[w + at] += amount
            buf[at_track] = w + 1 if w >= 0 else -1 if w == DEAD else 0
            buf[down_track] = d
            in_box += (w == BOX) - (was == BOX)
        self.where = list(where)
        self.in_box = in_box

    def _tanks(self, tanks: list[list[int]]) -> None:
        """Each tank whose square or unit changed: off its old square, on its new one."""
        ob, buf = self.ob, self.buf
        before = self.tanks
        for t in range(max(len(before), len(tanks))):
            old = before[t] if t < len(before) else None
            new = tanks[t] if t < len(tanks) else None
            if old == new:
                continue
            if old is not None:
                if old[0] >= 0:
                    buf[ob.tank_plane + old[0]] -= 1
                buf[ob.tank_at[t]] = buf[ob.tank_with[t]] = 0
            if new is not None:
                w, u = new
                if w >= 0:
                    buf[ob.tank_plane + w] += 1
                buf[ob.tank_at[t]] = w + 1 if w >= 0 else 0 if w == ASIDE else -1
                buf[ob.tank_with[t]] = u + 1
        self.tanks = [list(tank) for tank in tanks]

    def _gaps(self, gaps: dict[int, bool]) -> None:
        """Each Beach square whose Gap changed shows a Gap or its Obstacle."""
        plane, buf = self.ob.plane, self.buf
        gap_p, obstacle_p = plane["gap"], plane["obstacle"]
        before = self.gap
        for b in before:
            if b not in gaps:
                buf[gap_p + b] = buf[obstacle_p + b] = 0
        for b, gap in gaps.items():
            if b not in before or bool(before[b]) != bool(gap):
                buf[gap_p + b] = bool(gap)
                buf[obstacle_p + b] = not gap
        self.gap = dict(gaps)
        self.gaps = sum(gaps.values())

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


def returns(st: BloodyCore) -> dict[str, float]:
    """The US return, graded by the victory level (2.2): Defeat -1, Draw 0, Historical
    Victory +0.5, Major Victory +1; 0 before the end (READINGS.md, "Returns")."""
    if st.result is None:
        return {"US": 0.0}
    return {"US": RETURN_OF_LEVEL[st.result.level]}


RETURN_OF_LEVEL = {rules.DEFEAT: -1.0, rules.DRAW: 0.0, rules.HISTORICAL: 0.5, rules.MAJOR: 1.0}


def first_exit_hours(st: BloodyCore) -> float:
    """Hours after 06:30 of the first Exit square cleared, by the scenario's clock: the
    start of the turn it was cleared in (turn 1 is 06:30, each turn ``turn_minutes``
    long; the text gives no time scale, READINGS.md "Metrics"); NaN when none was."""
    if not st.exit_turns:
        return math.nan
    return (st.exit_turns[0] - 1) * st.scen.turn_minutes / 60


def metrics(st: BloodyCore) -> dict[str, float]:
    scen = st.scen
    sc = st.score()
    level = (
        st.result.level
        if st.result is not None
        else rules.victory_level(st.exits_cleared(), len(scen.exit_name), sc.total, scen.victory)
    )
    first_wave = [u for u, spec in enumerate(scen.units) if spec.setup in scen.first_wave]
    landed = [u for u in range(len(scen.units)) if st.landed[u]]
    off = sum(1 for u in landed if st.ashore[u] != st.aim[u])
    committed = [u for u, w in enumerate(st.where) if w != BOX]
    committed_strength = sum(scen.units[u].full for u in committed)
    lost = sum(scen.units[u].full for u in st.eliminated)
    total_value = sum(
        face_value(f) or 0 for f in (*scen.strongpoint_tokens, *scen.encounter_tokens)
    )
    sp_cleared = sum(1 for c in scen.strongpoints if st.cleared(c))
    return {
        "us_win": 1.0 if level in (rules.HISTORICAL, rules.MAJOR) else 0.0,
        "victory_level": float(rules.LEVEL_RANK[level]),
        "vp": float(sc.total),
        "vp_gaps": float(sc.gaps),
        "vp_strongpoints": float(sc.strongpoints),
        "vp_encounters": float(sc.encounters),
        "vp_towns_exits": float(sc.towns_exits),
        "vp_hedgerows": float(sc.hedgerows),
        "vp_reinforcements": float(sc.reinforcements),
        "exits_opened": float(st.exits_cleared()),
        "gaps_made": float(st.gaps_made),
        "strongpoints_cleared": float(sp_cleared),
        "first_wave_ashore": st.first_wave_ashore / len(first_wave) if first_wave else 0.0,
        "landed_off_target": off / len(landed) if landed else 0.0,
        "us_losses": lost / committed_strength if committed_strength else 0.0,
        "units_eliminated": float(len(st.eliminated)),
        "german_losses": st.value_removed / total_value if total_value else 0.0,
        "reinforcements_released": float(st.released),
        "tanks_ashore": float(sum(1 for w, _ in st.tanks if w != ASIDE)),
        "turns_played": float(st.turn),
        "first_exit_turn": float(st.exit_turns[0]) if st.exit_turns else 0.0,
        "second_exit_turn": float(st.exit_turns[1]) if len(st.exit_turns) > 1 else 0.0,
        "first_exit_hours": first_exit_hours(st),
    }


# --------------------------------------------------------------------------
# Snapshots (printed labels only)
# --------------------------------------------------------------------------
def _place(st: BloodyCore, w: int) -> str:
    if w >= 0:
        return st.board.labels[w]
    return {BOX: "box", DEAD: "eliminated"}[w]


def dump(st: BloodyCore) -> dict[str, Any]:
    labels = st.board.labels
    scen = st.scen
    r = st.result
    return {
        "turn": st.turn,
        "phase": st.phase,
        "step": st.step.value,
        "units": {
            spec.id: {
                "at": _place(st, st.where[u]),
                "disrupted": st.disrupted[u],
                "landed": st.landed[u],
                "aim": st.aim[u],
                "ashore": st.ashore[u],
            }
            for u, spec in enumerate(scen.units)
        },
        "eliminated": [scen.units[u].id for u in st.eliminated],
        "tokens": {labels[c]: [[f, r_] for f, r_ in toks] for c, toks in st.tokens.items()},
        "gaps": sorted(labels[b] for b in scen.beaches if st.gap[b]),
        "initiative": [st.init_rating, st.init_token],
        "engineers": [st.eng_rating, st.eng_token],
        "hand": list(st.hand),
        "offered": list(st.offered),
        "deck": st.deck.to_data(),
        "mods": [st.drift_mod, st.landing_mod, st.attack_bonus],
        "attack": None
        if st.attack_target < 0
        else [labels[st.attack_target], [labels[c] for c in st.attack_squares]],
        "tanks": [
            [
                labels[w] if w >= 0 else ("aside" if w == ASIDE else "lost"),
                scen.units[u].id if u >= 0 else None,
            ]
            for w, u in st.tanks
        ],
        "counts": {
            "sp_removed": st.sp_removed,
            "enc_removed": st.enc_removed,
            "value_removed": st.value_removed,
            "gaps_made": st.gaps_made,
            "first_wave_ashore": st.first_wave_ashore,
            "released": st.released,
            "exit_turns": list(st.exit_turns),
        },
        "result": None if r is None else [r.winner, r.level, r.detail, [list(p) for p in r.points]],
    }


class _Fields:
    """One object of a snapshot, read key by key; anything wrong is a ``ValueError``
    naming its key path (``state_from_json`` turns it into a ``RecordError``)."""

    def __init__(self, data: object, path: str, keys: frozenset[str]) -> None:
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected an object, not {_shown(data)}")
        if not keys.issuperset(data):
            extra = sorted(str(k) for k in data if k not in keys)
            raise ValueError(f"{path}: unknown key(s) {', '.join(map(repr, extra))}")
        self.data: dict[str, Any] = data
        self.path = path

    def value(self, key: str) -> tuple[Any, str]:
        where = f"{self.path}.{key}"
        if key not in self.data:
            raise ValueError(f"{where}: missing")
        return self.data[key], where

    def integer(self, key: str, low: int | None = None, high: int | None = None) -> int:
        return _int(*self.value(key), low, high)

    def flag(self, key: str) -> bool:
        value, where = self.value(key)
        if not isinstance(value, bool):
            raise ValueError(f"{where}: {_shown(value)} is not true or false")
        return value

    def text(self, key: str) -> str:
        return _str(*self.value(key))

    def items(self, key: str, length: int | None = None) -> tuple[list[Any], str]:
        value, where = self.value(key)
        return _list(value, where, length), where


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(value: object, where: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: {_shown(value)} is not a whole number")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{where}: {value} is outside {low}..{high}")
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where}: {_shown(value)} is not text")
    return value


def _list(value: object, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: {_shown(value)} is not a list")
    if length is not None and len(value) != length:
        raise ValueError(f"{where}: expected {length} items, not {len(value)}")
    return value


def _cell(st: BloodyCore, value: object, where: str) -> int:
    label = _str(value, where)
    try:
        return st.board.cell(label)
    except LabelError:
        raise ValueError(f"{where}: {label!r} is not a square of the map") from None


def _unit(st: BloodyCore, value: object, where: str) -> int:
    uid = _str(value, where)
    if uid not in st.scen.unit_index:
        raise ValueError(f"{where}: {uid!r} is not a unit of the scenario")
    return st.scen.unit_index[uid]


_TOP = frozenset(
    {"turn", "phase", "step", "units", "eliminated", "tokens", "gaps", "initiative",
     "engineers", "hand", "offered", "deck", "mods", "attack", "tanks", "counts", "result"}
)  # fmt: skip
_UNIT = frozenset({"at", "disrupted", "landed", "aim", "ashore"})
_COUNTS = frozenset(
    {"sp_removed", "enc_removed", "value_removed", "gaps_made", "first_wave_ashore",
     "released", "exit_turns"}
)  # fmt: skip
_DECK = frozenset({"pile", "discards", "reshuffles"})


def restore(st: BloodyCore, data: dict[str, Any]) -> None:
    """The inverse of :func:`dump`; malformed data is a ValueError naming its key path.

    Only the form is checked here; whether the position is one the rules allow is
    :meth:`~omaha.bloody.core.BloodyCore.invariants`, which ``state_from_json`` runs next.
    """
    scen = st.scen
    top = _Fields(data, "state", _TOP)
    st.turn = top.integer("turn", 1, scen.turns)
    phase, where = top.value("phase")
    if not isinstance(phase, str) or phase not in {p.value for p in Phase}:
        raise ValueError(f"{where}: {_shown(phase)} is not a phase of the game")
    st.current_phase = Phase(phase)
    step, where = top.value("step")
    if not isinstance(step, str) or step not in {s.value for s in Step}:
        raise ValueError(f"{where}: {_shown(step)} is not a decision of the game")
    st.step = Step(step)
    _restore_units(st, top)
    _restore_tokens(st, top)
    track = scen.track_max
    for key in ("initiative", "engineers"):
        (rating, token), where = top.items(key, 2)
        pair = (_int(rating, f"{where}[0]", 1, track), _int(token, f"{where}[1]", 0, track))
        if key == "initiative":
            st.init_rating, st.init_token = pair
        else:
            st.eng_rating, st.eng_token = pair
    for key in ("hand", "offered"):
        cards, where = top.items(key)
        setattr(st, key, [_str(c, f"{where}[{k}]") for k, c in enumerate(cards)])
    deck = _Fields(top.value("deck")[0], "state.deck", _DECK)
    pile, where = deck.items("pile")
    discards, dwhere = deck.items("discards")
    st.deck = Deck.from_data(
        {
            "pile": [_str(c, f"{where}[{k}]") for k, c in enumerate(pile)],
            "discards": [_str(c, f"{dwhere}[{k}]") for k, c in enumerate(discards)],
            "reshuffles": deck.integer("reshuffles", 0),
        }
    )
    mods, where = top.items("mods", 3)
    st.drift_mod, st.landing_mod, st.attack_bonus = (
        _int(m, f"{where}[{k}]", -99, 99) for k, m in enumerate(mods)
    )
    attack, where = top.value("attack")
    if attack is None:
        st.attack_target, st.attack_squares = -1, []
    else:
        target, squares = _list(attack, where, 2)
        st.attack_target = _cell(st, target, f"{where}[0]")
        st.attack_squares = [
            _cell(st, x, f"{where}[1][{k}]") for k, x in enumerate(_list(squares, f"{where}[1]"))
        ]
    tanks, where = top.items("tanks", scen.tank_count)
    st.tanks = []
    for t, tank in enumerate(tanks):
        w, unit = _list(tank, f"{where}[{t}]", 2)
        cell = ASIDE if w == "aside" else LOST if w == "lost" else _cell(st, w, f"{where}[{t}][0]")
        holder = -1 if unit is None else _unit(st, unit, f"{where}[{t}][1]")
        st.tanks.append([cell, holder])
    counts = _Fields(top.value("counts")[0], "state.counts", _COUNTS)
    st.sp_removed = counts.integer("sp_removed", 0)
    st.enc_removed = counts.integer("enc_removed", 0)
    st.value_removed = counts.integer("value_removed", 0)
    st.gaps_made = counts.integer("gaps_made", 0)
    st.first_wave_ashore = counts.integer("first_wave_ashore", 0)
    st.released = counts.integer("released", 0)
    turns, where = counts.items("exit_turns")
    st.exit_turns = [_int(t, f"{where}[{k}]", 1, scen.turns) for k, t in enumerate(turns)]
    st.result = _restore_result(top)


def _restore_units(st: BloodyCore, top: _Fields) -> None:
    scen = st.scen
    units, where = top.value("units")
    if not isinstance(units, dict):
        raise ValueError(f"{where}: {_shown(units)} is not an object")
    missing = [u.id for u in scen.units if u.id not in units]
    if missing:
        raise ValueError(f"{where}: unit(s) {', '.join(missing)} missing")
    n = len(scen.units)
    st.where, st.disrupted, st.landed = [0] * n, [False] * n, [False] * n
    st.aim, st.ashore = [-1] * n, [-1] * n
    top_column = max(scen.column)
    for uid, value in units.items():
        u = _unit(st, uid, f"{where} key")
        ud = _Fields(value, f"{where}.{uid}", _UNIT)
        at, at_where = ud.value("at")
        places = {"box": BOX, "eliminated": DEAD}
        st.where[u] = (
            places[at] if isinstance(at, str) and at in places else _cell(st, at, at_where)
        )
        st.disrupted[u] = ud.flag("disrupted")
        st.landed[u] = ud.flag("landed")
        st.aim[u] = ud.integer("aim", -1, top_column)
        st.ashore[u] = ud.integer("ashore", -1, top_column)
    gone, where = top.items("eliminated")
    st.eliminated = [_unit(st, x, f"{where}[{k}]") for k, x in enumerate(gone)]


def _restore_tokens(st: BloodyCore, top: _Fields) -> None:
    tokens, where = top.value("tokens")
    if not isinstance(tokens, dict):
        raise ValueError(f"{where}: {_shown(tokens)} is not an object")
    st.tokens = {}
    for label, toks in tokens.items():
        cell = _cell(st, label, f"{where} key")
        square = f"{where}.{label}"
        pairs = []
        for k, pair in enumerate(_list(toks, square)):
            face, revealed = _list(pair, f"{square}[{k}]", 2)
            if not isinstance(revealed, bool):
                raise ValueError(f"{square}[{k}][1]: {_shown(revealed)} is not true or false")
            pairs.append((_str(face, f"{square}[{k}][0]"), revealed))
        st.tokens[cell] = pairs
    gaps, where = top.items("gaps")
    gapped = {_cell(st, g, f"{where}[{k}]") for k, g in enumerate(gaps)}
    st.gap = {b: b in gapped for b in st.scen.beaches}
    strays = sorted(gapped - set(st.scen.beaches))
    if strays:
        raise ValueError(f"{where}: {st.label(strays[0])} is not a Beach square")


def _restore_result(top: _Fields) -> Outcome | None:
    r, where = top.value("result")
    if r is None:
        return None
    winner, level, detail, points = _list(r, where, 4)
    if winner not in (None, "US"):
        raise ValueError(f"{where}[0]: {_shown(winner)} is not a winner of this game")
    if not isinstance(level, str) or level not in rules.LEVEL_RANK:
        raise ValueError(f"{where}[1]: {_shown(level)} is not a victory level (2.2)")
    pairs = []
    for k, pair in enumerate(_list(points, f"{where}[3]")):
        name, value = _list(pair, f"{where}[3][{k}]", 2)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{where}[3][{k}][1]: {_shown(value)} is not a number")
        pairs.append((_str(name, f"{where}[3][{k}][0]"), float(value)))
    return Outcome(winner, level, points=tuple(pairs), detail=_str(detail, f"{where}[2]"))
