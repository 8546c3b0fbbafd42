"""Bloody Omaha: the data core of a game in progress.

:class:`BloodyCore` holds every mutable field, public and typed, with the small
queries the procedures share (who is where, what a square holds, the score). It
runs no part of the sequence of play: that is :mod:`omaha.bloody.state`; the
procedures that change these fields are in :mod:`omaha.bloody.procedures`.

Cells are board indices, units indices into the scenario's unit list. A unit's
``where`` is a cell, :data:`BOX` (the Reinforcements box) or :data:`DEAD`; a
tank's cell is a cell, :data:`ASIDE` (4.3) or :data:`LOST` (8.1.e).
"""

from __future__ import annotations

from collections import deque
from enum import StrEnum

from omaha.kernel.decks import Deck
from omaha.kernel.protocol import Outcome, State

from . import rules
from .components.map import BEACH
from .components.tokens import MINES, face_value
from .scenario import BloodyScenario

BOX = -1  # unit in the Reinforcements box
DEAD = -2  # unit eliminated
ASIDE = -1  # tank set aside (4.3)
LOST = -2  # tank removed from play (8.1.e)


class Phase(StrEnum):
    """The phases of a turn as the log prints them (5.0), plus set-up and the end."""

    SETUP = "Set-up"
    DRAW = "Draw"
    RANDOM_EVENT = "Random Event"
    ACTIVATION = "Activation"
    DRIFT = "Drift"
    LANDING = "Landing"
    END = "End"


class Step(StrEnum):
    """The decision the US player is asked for (the snapshot stores the value)."""

    SETUP = "setup"  # 4.5: shuffle one of three cards back
    CARDS = "landing_cards"  # before the Drift rolls: play a landing card or continue
    EVENT = "random_event"  # 5.2: choose the squares of the Random Event
    ACTIVATE = "activation"  # 5.3: act or end the phase
    ATTACK = "attack"  # 8.4.a: add a square to the attack or resolve it
    OVER = "over"


def tank_name(t: int) -> str:
    return f"tank{t + 1}"


class BloodyCore(State[BloodyScenario]):
    """The fields of a game of Bloody Omaha and the queries over them."""

    turn: int
    current_phase: Phase
    step: Step
    # units, by index into scenario.units
    where: list[int]
    disrupted: list[bool]
    landed: list[bool]
    aim: list[int]  # the column a unit set out for (set-up or release square)
    ashore: list[int]  # the column it landed in (-1 before)
    eliminated: list[int]
    # German tokens: cell -> [(face, revealed)], and the Beach obstacles (False: obstacle)
    tokens: dict[int, list[tuple[str, bool]]]
    gap: dict[int, bool]
    # the Game Track (7.0): the square markers (ratings) and circular tokens (this turn)
    init_rating: int
    init_token: int
    eng_rating: int
    eng_token: int
    # cards (9.0)
    hand: list[str]
    offered: list[str]
    deck: Deck
    drift_mod: int
    landing_mod: int
    attack_bonus: int
    # the attack being put together (8.4.a)
    attack_target: int
    attack_squares: list[int]
    # Tank tokens: [cell, unit] (unit -1: waiting for one)
    tanks: list[list[int]]
    # counts for the score and the metrics
    sp_removed: int
    enc_removed: int
    value_removed: int
    gaps_made: int
    first_wave_ashore: int
    released: int
    exit_turns: list[int]
    result: Outcome | None

    def set_up_fields(self) -> None:
        """The position before the set-up draws: 4.3 markers and tanks, 4.4 units."""
        scenario = self.scenario
        n_units = len(scenario.units)
        self.turn = 1
        self.current_phase = Phase.SETUP
        self.step = Step.SETUP
        self.where = [u.setup if u.setup >= 0 else BOX for u in scenario.units]
        self.disrupted = [False] * n_units
        self.landed = [False] * n_units
        self.aim = [scenario.column[u.setup] if u.setup >= 0 else -1 for u in scenario.units]
        self.ashore = [-1] * n_units
        self.eliminated = []
        self.tokens = {}
        self.gap = {b: False for b in scenario.beaches}
        self.init_rating = self.init_token = rules.RATING_START
        self.eng_rating = self.eng_token = rules.RATING_START
        self.hand = []
        self.offered = []
        self.deck = Deck(scenario.card_ids)
        self.drift_mod = self.landing_mod = self.attack_bonus = 0
        self.attack_target = -1
        self.attack_squares = []
        self.tanks = [[ASIDE, -1] for _ in range(scenario.tank_count)]
        self.sp_removed = self.enc_removed = self.value_removed = 0
        self.gaps_made = 0
        self.first_wave_ashore = 0
        self.released = 0
        self.exit_turns = []
        self.result = None

    # ------------------------------------------------------------------ protocol
    @property
    def scen(self) -> BloodyScenario:
        """The scenario (a short name the rules code uses everywhere)."""
        return self.scenario

    @property
    def turn_label(self) -> str:
        return f"Turn {self.turn}"

    @property
    def phase(self) -> str:
        return self.current_phase.value

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    # ------------------------------------------------------------------ units
    def strength(self, u: int) -> int:
        spec = self.scenario.units[u]
        return spec.reduced if self.disrupted[u] else spec.full

    def units_at(self, cell: int) -> list[int]:
        """Living units in a cell, in counter order."""
        return [u for u, w in enumerate(self.where) if w == cell]

    def uid(self, u: int) -> str:
        return self.scenario.units[u].id

    def label(self, cell: int) -> str:
        return self.board.labels[cell]

    def where_text(self, u: int) -> str:
        w = self.where[u]
        return self.label(w) if w >= 0 else "the Reinforcements box" if w == BOX else "-"

    def strongest(self, units: list[int]) -> int:
        """The strongest of ``units`` (the first in counter order on a tie)."""
        return min(units, key=lambda u: (-self.strength(u), u))

    def at_sea(self) -> list[int]:
        return [u for u, w in enumerate(self.where) if w >= 0 and w in self.scenario.channel]

    def occupied_land(self) -> set[int]:
        return {w for w in self.where if w >= 0 and w in self.scenario.land}

    # ------------------------------------------------------------------ tanks (8.3)
    def tanks_of(self, u: int) -> list[int]:
        return [t for t, (w, unit) in enumerate(self.tanks) if w >= 0 and unit == u]

    def tank_may_step(self, a: int, b: int) -> bool:
        """8.3: a tank moves only into cleared squares, and between the beach and the land
        beyond only through a cleared Exit square."""
        scen = self.scenario
        if b not in scen.land or self.tokens.get(b):
            return False
        if a in scen.inland and b in scen.inland:
            return True
        if a not in scen.inland and b not in scen.inland:
            return True
        inland_side = b if b in scen.inland else a
        return inland_side in scen.exit_name and not self.tokens.get(inland_side)

    def tank_reach(self, start: int) -> set[int]:
        """8.3, 5.3.e: the squares a tank reaches from ``start`` along cleared squares
        (no diagonals), its own square included."""
        seen = {start}
        todo = deque([start])
        while todo:
            a = todo.popleft()
            for b in self.scenario.land_neighbours[a]:
                if b not in seen and self.tank_may_step(a, b):
                    seen.add(b)
                    todo.append(b)
        return seen

    def tank_landing_squares(self) -> list[int]:
        """8.3: Beach squares with a Gap and a US unit, where a Tank token may come ashore."""
        return [b for b in self.scenario.beaches if self.gap[b] and self.units_at(b)]

    # ------------------------------------------------------------------ tokens
    def numerical(self, cell: int) -> list[int]:
        """Indices of the numerical tokens of a square."""
        toks = self.tokens.get(cell, ())
        return [k for k, (f, _) in enumerate(toks) if face_value(f) is not None]

    def known_numerical(self, cell: int) -> bool:
        """Does the square show a revealed numerical token (so it must be attacked, 8.1.a)?"""
        return any(r and face_value(f) is not None for f, r in self.tokens.get(cell, ()))

    def defence(self, cell: int) -> int:
        """8.4.c: the sum of the numerical tokens of a square."""
        return sum(face_value(self.tokens[cell][k][0]) or 0 for k in self.numerical(cell))

    def has_revealed(self, cell: int, face: str) -> bool:
        return any(r and f == face for f, r in self.tokens.get(cell, ()))

    def mines_present(self, cell: int) -> bool:
        return any(f == MINES for f, _ in self.tokens.get(cell, ()))

    def uncleared(self, cell: int) -> bool:
        return bool(self.tokens.get(cell))

    def under_fire(self, beach: int) -> bool:
        """6.5.a, 8.5.a: a Beach square joined by a gray arrow to an uncleared strongpoint."""
        return any(self.uncleared(sp) for sp in self.scenario.arrows.get(beach, ()))

    def event_pairs(self) -> list[tuple[int, int]]:
        """5.2, 6.4: (US square, adjacent square holding a German token).

        Reading (READINGS.md): Beach Obstacle tokens count as German tokens here.
        """
        scen = self.scenario
        us = sorted({w for w in self.where if w >= 0 and (w in scen.land or w in scen.first_wave)})
        pairs = []
        for u in us:
            for g in sorted(self.board.neighbours[u]):
                if self.tokens.get(g) or (scen.kind[g] == BEACH and not self.gap[g]):
                    pairs.append((u, g))
        return pairs

    # ------------------------------------------------------------------ scoring (2.2-2.4)
    def cleared(self, cell: int) -> bool:
        """2.4: every Strongpoint and Encounter token of the square is gone."""
        return cell in self.scenario.inland and not self.tokens.get(cell)

    def exits_cleared(self) -> int:
        return sum(1 for c in self.scenario.exit_name if self.cleared(c))

    def score(self) -> rules.Score:
        """2.3: the victory points of the position."""
        scen = self.scenario
        return rules.score(
            gaps=sum(1 for b in scen.beaches if self.gap[b]),
            strongpoint_tokens=self.sp_removed,
            encounter_tokens=self.enc_removed,
            towns_exits_cleared=sum(1 for c in scen.bonus if self.cleared(c)),
            southern_cleared=sum(1 for c in scen.southern if self.cleared(c)),
            in_reinforcements=sum(1 for w in self.where if w == BOX),
        )

    def card_name(self, card: str) -> str:
        return f"{card} '{self.scenario.cards[card].title}'"
