"""TCS Omaha: the sequence of play.

Before play (phase "set-up"): the German sets up (3.3g, 3.4), the US commits the
landing plan (2.1), the leaders are selected (2.3f), the LCT(R) targets chosen
(2.2a) and, with the option, the NFSTs assigned (2.6d). Each turn then runs the
Command Planning Phase (tide 1.12a, leader removal 2.3f, ammunition 2.9,
overdraft 2.11, transports 2.1m, airpower 2.10), the US Action Phase (leader
losses 2.3f, LCT(R) fires 2.2 on the first turn, the assault wave or transport
landing 2.1i-2.1n, A-20 strikes 2.10a, movement), the German Action Phase and
the end of the turn (2.7b).

:class:`TcsState` only says which procedure runs next: the steps of the
sequence and the decisions each may wait for are typed tables over the
procedure modules (:mod:`omaha.tcs.procedures`). Automatic procedures run
inside ``apply`` until a player must decide; every roll is logged with its rule.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any

import attrs

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Pending, View
from omaha.tcs import view as seen
from omaha.tcs.actions import CommitPlan, CommitSetup, PlacePillbox, PlaceRocketPit, Rockets
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.procedures import (
    air,
    ammo,
    end,
    landing,
    leaders,
    movement,
    nfst,
    overdraft,
    rockets,
    schematic,
    setup,
    tide,
    transports,
)

register_templates(
    {
        "tcs.turn": "— turn {turn} —",
    }
)


class Step(Enum):
    """The steps of the sequence of play, each run by one procedure."""

    GERMAN_SETUP = "german setup"
    US_PLAN = "us plan"
    LEADER_SELECTION = "leader selection"
    ROCKET_TARGETS = "rocket targets"
    NFST = "nfst"
    TIDE = "tide"
    LEADERS_OUT = "leaders out"
    AMMO = "ammo"
    OVERDRAFT = "overdraft"
    TRANSPORTS = "transports"
    AIR = "air"
    LEADER_LOSSES = "leader losses"
    LCTR = "lctr"
    SMOKE = "smoke"
    ASSAULT = "assault"
    LANDING_CHOICES = "landing choices"
    TRANSPORT_LANDING = "transport landing"
    TRANSPORT_CHOICES = "transport choices"
    AIR_STRIKES = "air strikes"
    MOVE = "move"
    GERMAN = "german"
    END = "end"


#: Before play: (phase, step), in order.
SETUP_STEPS: tuple[tuple[str, Step], ...] = (
    ("set-up", Step.GERMAN_SETUP),
    ("set-up", Step.US_PLAN),
    ("set-up", Step.LEADER_SELECTION),
    ("set-up", Step.ROCKET_TARGETS),
    ("set-up", Step.NFST),
)
#: Every turn: (phase, step), in order.
TURN_STEPS: tuple[tuple[str, Step], ...] = (
    ("Command Planning Phase", Step.TIDE),
    ("Command Planning Phase", Step.LEADERS_OUT),
    ("Command Planning Phase", Step.AMMO),
    ("Command Planning Phase", Step.OVERDRAFT),
    ("Command Planning Phase", Step.TRANSPORTS),
    ("Command Planning Phase", Step.AIR),
    ("US Action Phase", Step.LEADER_LOSSES),
    ("US Action Phase", Step.LCTR),
    ("US Action Phase", Step.SMOKE),
    ("US Action Phase", Step.ASSAULT),
    ("US Action Phase", Step.LANDING_CHOICES),
    ("US Action Phase", Step.TRANSPORT_LANDING),
    ("US Action Phase", Step.TRANSPORT_CHOICES),
    ("US Action Phase", Step.AIR_STRIKES),
    ("US Action Phase", Step.MOVE),
    ("German Action Phase", Step.GERMAN),
    ("end of turn", Step.END),
)

#: The procedure of each step: True when done, False when it waits for a decision.
STEPS: dict[Step, Callable[[TcsCore], bool]] = {
    Step.GERMAN_SETUP: setup.step_german_setup,
    Step.US_PLAN: schematic.step_us_plan,
    Step.LEADER_SELECTION: leaders.step_leader_selection,
    Step.ROCKET_TARGETS: rockets.step_rockets,
    Step.NFST: nfst.step_nfst,
    Step.TIDE: tide.step_tide,
    Step.LEADERS_OUT: leaders.step_leaders_out,
    Step.AMMO: ammo.step_ammo,
    Step.OVERDRAFT: overdraft.step_overdraft,
    Step.TRANSPORTS: transports.step_transports,
    Step.AIR: air.step_air,
    Step.LEADER_LOSSES: leaders.step_leader_losses,
    Step.LCTR: rockets.step_lctr,
    Step.SMOKE: rockets.step_smoke,
    Step.ASSAULT: landing.step_assault,
    Step.LANDING_CHOICES: landing.step_landing_choices,
    Step.TRANSPORT_LANDING: landing.step_transport_landing,
    Step.TRANSPORT_CHOICES: landing.step_landing_choices,
    Step.AIR_STRIKES: air.step_air_strikes,
    Step.MOVE: movement.step_move,
    Step.GERMAN: end.step_german,
    Step.END: end.step_end,
}


def _nothing_to_explain(core: TcsCore, action: Action) -> str:
    return ""


@attrs.frozen
class DecisionRules:
    """What a decision offers, what an answer does, and why another is refused."""

    legal: Callable[[TcsCore], Iterable[Action]]
    apply: Callable[[TcsCore, Action], None]
    explain: Callable[[TcsCore, Action], str] = _nothing_to_explain


DECISIONS: dict[Decision, DecisionRules] = {
    Decision.PILLBOX: DecisionRules(setup.legal_setup, setup.apply_setup, setup.explain_setup),
    Decision.ROCKET_PIT: DecisionRules(setup.legal_setup, setup.apply_setup, setup.explain_setup),
    Decision.PLAN: DecisionRules(
        schematic.legal_plan, schematic.apply_plan, schematic.explain_plan
    ),
    Decision.ROCKETS: DecisionRules(
        rockets.legal_rockets, rockets.apply_rockets, rockets.explain_rockets
    ),
    Decision.NFST: DecisionRules(nfst.legal_nfst, nfst.apply_nfst, nfst.explain_nfst),
    Decision.TIDE: DecisionRules(tide.legal_tide, tide.apply_tide),
    Decision.OVERDRAFT: DecisionRules(overdraft.legal_overdraft, overdraft.apply_overdraft),
    Decision.TRANSPORTS: DecisionRules(
        transports.legal_transports,
        transports.apply_transports,
        transports.explain_transports,
    ),
    Decision.AIR: DecisionRules(air.legal_air, air.apply_air),
    Decision.SMOKE: DecisionRules(rockets.legal_smoke, rockets.apply_smoke),
    Decision.LAND: DecisionRules(landing.legal_land, landing.apply_land),
    Decision.STRIKE: DecisionRules(air.legal_strike, air.apply_strike),
    Decision.MOVE: DecisionRules(movement.legal_move, movement.apply_move, movement.explain_move),
}


class TcsState(TcsCore):
    """A game of TCS Omaha in progress (see the module docstring)."""

    def _setup(self) -> None:
        self.init_fields()
        self._advance()

    # ------------------------------------------------------------------ sequencing
    def _advance(self) -> None:
        """Run automatic procedures until a player must decide or the game ends."""
        while self.result is None:
            steps = SETUP_STEPS if self.in_setup else TURN_STEPS
            if self.cursor >= len(steps):
                if self.in_setup:
                    self.in_setup = False
                elif self.turn + 1 < len(self.scenario.turns):
                    self.turn += 1
                else:
                    end.finish(self)
                    return
                self.cursor, self.started, self.sd = 0, False, {}
                self.note("tcs.turn", "", turn=self.turn_label)
                continue
            self.wait = None
            if not STEPS[steps[self.cursor][1]](self):
                return
            self.cursor += 1
            self.started, self.sd = False, {}

    # ------------------------------------------------------------------ protocol
    @property
    def phase(self) -> str:
        steps = SETUP_STEPS if self.in_setup else TURN_STEPS
        return steps[min(self.cursor, len(steps) - 1)][0]

    @property
    def pending(self) -> Pending | None:
        if self.result is not None or self.wait is None:
            return None
        kind, player, prompt = self.wait
        return Pending(str(kind), player, prompt)

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def _legal_actions(self) -> Iterable[Action]:
        if self.wait is None:
            return ()
        return DECISIONS[self.wait[0]].legal(self)

    def _apply(self, action: Action) -> None:
        assert self.wait is not None
        if isinstance(action, CommitSetup):
            setup.apply_setup(self, action)
        elif isinstance(action, CommitPlan):
            schematic.apply_plan(self, action)
        else:
            DECISIONS[self.wait[0]].apply(self, action)
        self.wait = None
        self._advance()

    def _check_plan(self, action: Action) -> None:
        """Whole set-ups and plans are legal without being listed: validate them here."""
        if isinstance(action, CommitSetup):
            setup.check_setup(self, action)
        elif isinstance(action, CommitPlan):
            schematic.check_commit(self, action)
        else:
            raise IllegalAction(self.explain_illegal(action))

    def explain_illegal(self, action: Action) -> str:
        why = self._why(action)
        if why:
            return f"'{action}' is not legal: {why}"
        return super().explain_illegal(action)

    def _why(self, action: Action) -> str:
        if isinstance(action, PlacePillbox | PlaceRocketPit | Rockets) and not self.board.has(
            action.hex
        ):
            return f"{action.hex} is not on the map"
        if self.wait is None:
            return ""
        return DECISIONS[self.wait[0]].explain(self, action)

    # ------------------------------------------------------------------ views, snapshots
    def metrics(self) -> dict[str, float]:
        return seen.metrics(self)

    def view(self, player: str | None = None) -> View:
        return seen.view(self, player)

    def _dump(self) -> dict[str, Any]:
        return seen.dump(self)

    def _restore(self, data: dict[str, Any]) -> None:
        seen.restore(self, data)

    def _copy(self) -> TcsState:
        """A copy sharing nothing mutable: the plan, boats and actions are immutable."""
        twin = self._copy_base()
        assert isinstance(twin, TcsState)
        for name, value in vars(self).items():
            if name in ("game", "scenario", "plan", "dice", "log", "actions"):
                continue
            if isinstance(value, list) and (not value or isinstance(value[0], int | str | None)):
                setattr(twin, name, list(value))
            elif isinstance(value, set):
                setattr(twin, name, set(value))
            elif isinstance(value, dict | list):
                setattr(twin, name, copy.deepcopy(value))
        return twin
