"""Bloody Omaha: the observation, the US player's knowledge as numbers, declared per
entity.

Planes over the squares and tracks (:func:`observation_layout`); face-down German
tokens count only by the back they show (Strongpoint or Encounter, 3.5.d-e).
:class:`BloodyObservation` declares what each entity shows (the kernel's
:class:`~omaha.kernel.observation.Declaration` keeps it from the core's journal): a
unit (an int), a square's German tokens (``("sq", c)``), a tank (``("tank", t)``), a
Beach square's Obstacle or Gap (``("gap", b)``), the Beach squares under fire
(``FIRE``), the attack under way (``ATTACK``) and the cards (``CARDS``); the printed
map is the declaration's ``printed``. The Game Track counters and the decision,
assigned in many places, are written at each call. The state's
``fresh_observation`` is the declaration over every entity.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from omaha.kernel.observation import Declaration, Observation, ObservationLayout, Shown

from . import rules
from .components.map import BEACH, CHANNEL, HEDGEROW, STRONGPOINT, TOWN
from .components.tokens import MINES, face_value, is_strongpoint_token
from .core import ASIDE, ATTACK, BOX, CARDS, DEAD, FIRE, BloodyCore, Step, tank_name
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
#: The tracks written at each call (:meth:`BloodyObservation.finish`), in order.
COUNTER_TRACKS = (
    "turn",
    "initiative_rating",
    "initiative",
    "engineers_rating",
    "engineers",
    "drift_mod",
    "landing_mod",
    "attack_bonus",
)


class BloodyObservation(Declaration[BloodyCore]):
    """What each entity of Bloody Omaha shows the US player (the only one)."""

    def __init__(self, scen: BloodyScenario) -> None:
        self.scen = scen
        n = len(scen.board)
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
        self.layout = ObservationLayout.named(n, MAP_PLANES + POSITION_PLANES, track_meanings)
        plane = self.plane = track = self.track = self.layout.at  # (names are distinct)
        printed = [(plane[scen.kind[c]] + c, 1.0) for c in range(n)]
        for name, cells in (
            ("first_wave", scen.first_wave),
            ("entry", scen.entry),
            ("exit", scen.exit_name),
            ("bonus", scen.bonus | scen.southern),
        ):
            printed += [(plane[name] + c, 1.0) for c in cells]
        printed.append((track["turns"], scen.turns))
        self.printed: Shown = tuple(printed)
        division = {
            rules.FIRST_ID: plane["us_1st_id"],
            rules.TWENTY_NINTH_ID: plane["us_29th_id"],
            rules.RANGERS: plane["us_rangers"],
        }
        #: per unit, per side (full, disrupted): the (plane, amount) it adds where it is
        self.unit_adds = tuple(
            tuple(
                tuple(
                    (at, float(amount))
                    for at, amount in zip(
                        (plane["us_units"], plane["us_strength"], plane["us_disrupted"],
                         plane["us_battalions"], division[spec.division]),
                        (1, strength, down, int(spec.battalion), 1),
                        strict=True,
                    )
                    if amount
                )
                for strength, down in ((spec.full, 0), (spec.reduced, 1))
            )
            for spec in scen.units
        )  # fmt: skip
        self.unit_at = [track[f"unit_{u}_at"] for u in units]
        self.unit_disrupted = [track[f"unit_{u}_disrupted"] for u in units]
        self.tank_at = [track[f"{t}_at"] for t in tanks]
        self.tank_with = [track[f"{t}_with"] for t in tanks]
        self.hand = {c: track[f"hand_{c}"] for c in scen.card_ids}
        self.offered = {c: track[f"offered_{c}"] for c in scen.card_ids}
        self.decision = {s: track[f"decision_{s.value}"] for s in STEPS}
        self.counters = [track[name] for name in COUNTER_TRACKS]
        self.inland = frozenset(scen.inland)
        #: square -> the bonus VP it is worth when cleared (2.3.d, 2.3.e: once per bullet)
        bonus = (*sorted(scen.bonus), *sorted(scen.southern))
        self.bonus_of = {c: bonus.count(c) for c in bonus}
        self.exits = frozenset(scen.exit_name)
        #: (face, revealed) -> what a token adds where it lies (see token_planes)
        self.token_adds: dict[tuple[str, bool], tuple[tuple[int, float], ...]] = {}

    def token_planes(self, face: str, revealed: bool) -> tuple[tuple[int, float], ...]:
        """(plane offset, amount) a token adds where it lies: a face-down token only by
        its back (3.5.d-e), a revealed one by its face."""
        key = (face, revealed)
        found = self.token_adds.get(key)
        if found is None:
            plane = self.plane
            value = face_value(face)
            if not revealed:
                back = "strongpoint_unknown" if is_strongpoint_token(face) else "encounter_unknown"
                found = ((plane[back], 1.0),)
            elif value is not None:
                found = ((plane["german_numerical"], 1.0), (plane["german_value"], value))
            elif face == MINES:
                found = ((plane["mines"], 1.0),)
            else:  # resolved and removed at once (8.1.b, d, e)
                found = ()
            self.token_adds[key] = found
        return found

    def entities(self, core: BloodyCore) -> Iterable[Hashable]:
        scen = self.scen
        yield from range(len(scen.units))
        for c in range(len(scen.board)):
            yield ("sq", c)
        for t in range(len(self.tank_at)):
            yield ("tank", t)
        for b in sorted({*scen.beaches, *core.gap}):
            yield ("gap", b)
        yield from (FIRE, ATTACK, CARDS)

    def shown(self, core: BloodyCore, entity: Hashable, viewpoint: str | None) -> Shown:
        if type(entity) is int:
            return self._unit(core, entity)
        if isinstance(entity, tuple):
            kind, key = entity
            if kind == "sq":
                return self._square(core, key)
            if kind == "tank":
                return self._tank(core, key)
            found = core.gap.get(key)  # a Beach square: its Gap or its Obstacle (8.5.b)
            if found is None:
                return ()
            if found:
                return ((self.plane["gap"] + key, 1.0), (self.track["vp"], 1.0))
            return ((self.plane["obstacle"] + key, 1.0),)
        plane = self.plane
        if entity == FIRE:  # a gray arrow from a square still holding a token
            fire = plane["under_fire"]
            tokens = core.tokens
            return tuple(
                (fire + b, 1.0)
                for b, sps in self.scen.arrows.items()
                if any(tokens.get(sp) for sp in sps)
            )
        if entity == ATTACK:
            if core.attack_target < 0:
                return ()
            out = [(plane["attack_target"] + core.attack_target, 1.0)]
            return (*out, *((plane["attack_from"] + c, 1.0) for c in core.attack_squares))
        assert entity == CARDS
        return (
            *((self.hand[card], 1.0) for card in core.hand),
            *((self.offered[card], 1.0) for card in core.offered),
            (self.track["deck"], len(core.deck)),
            (self.track["discards"], len(core.deck.discards)),
        )

    def _unit(self, core: BloodyCore, u: int) -> Shown:
        """Where a unit is (its planes on the map, its square track, a VP in the box,
        2.3) and its side."""
        w, down = core.where[u], core.disrupted[u]
        out: list[tuple[int, float]] = []
        if w >= 0:
            out += ((at + w, amount) for at, amount in self.unit_adds[u][down])
            out.append((self.unit_at[u], w + 1))
        elif w == DEAD:
            out.append((self.unit_at[u], -1.0))
        elif w == BOX:
            out.append((self.track["vp"], 1.0))
        if down:
            out.append((self.unit_disrupted[u], 1.0))
        return tuple(out)

    def _square(self, core: BloodyCore, c: int) -> Shown:
        """What a square's tokens show; once it holds none, whether it is a cleared
        inland square (2.4) and the bonus VP (2.3.d-e) and exit (2.2) it counts for."""
        toks = core.tokens.get(c)
        if toks:
            adds = self.token_adds
            out: list[tuple[int, float]] = []
            for token in toks:
                found = adds.get(token)
                for at, value in found if found is not None else self.token_planes(*token):
                    out.append((at + c, value))
            return tuple(out)
        out = [(self.plane["cleared"] + c, 1.0)] if c in self.inland else []
        if c in self.bonus_of:
            out.append((self.track["vp"], self.bonus_of[c]))
        if c in self.exits:
            out.append((self.track["exits_cleared"], 1.0))
        return tuple(out)

    def _tank(self, core: BloodyCore, t: int) -> Shown:
        """A tank's square (on the map: a Tank token there) and the unit it supports (a
        tank the state lacks shows nowhere)."""
        if t >= len(core.tanks):
            return ()
        w, u = core.tanks[t]
        out: list[tuple[int, float]] = [
            (self.tank_at[t], w + 1 if w >= 0 else 0 if w == ASIDE else -1)
        ]
        if w >= 0:
            out.append((self.plane["us_tanks"] + w, 1.0))
        if u >= 0:
            out.append((self.tank_with[t], u + 1))
        return tuple(out)

    def finish(self, core: BloodyCore, player: str, out: Observation) -> None:
        """The Game Track counters and the decision; the score's removed tokens (2.3)
        added to what the entities count of it."""
        values = out.data
        for at, value in zip(self.counters, _counters(core), strict=True):
            values[at] = value
        values[self.track["vp"]] += 2 * core.sp_removed + core.enc_removed
        if core.step in self.decision:
            values[self.decision[core.step]] = 1


def _counters(st: BloodyCore) -> tuple[int, ...]:
    """The values of the tracks :data:`COUNTER_TRACKS`, in that order."""
    return (
        st.turn, st.init_rating, st.init_token, st.eng_rating, st.eng_token,
        st.drift_mod, st.landing_mod, st.attack_bonus,
    )  # fmt: skip
