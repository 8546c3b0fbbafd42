"""TCS Omaha: the sequence of play.

Before play (phase "set-up"): the German garrisons take their hexes and the
German sets up pill boxes and rocket pits (3.3g, 3.4); the US commits the
landing plan (2.1), the leaders are selected (2.3f), the LCT(R) targets chosen
(2.2a) and, with the option, the NFSTs assigned (2.6d). Each 20-minute turn then
runs (reconstructed after the series' sequence of play, [v401] 2.0, [tab401]):

* Command Planning Phase: tide (1.12a), leader removal (2.3f), ammunition (2.9),
  overdraft (2.11), company morale recovery, German release (3.1) and German op
  sheets (3.2), US op sheets (2.3a), transports (2.1m), airpower (2.10);
* Aircraft and Artillery Phase: A-20 strikes (2.10a), the LCT(R)s on the first
  turn (2.2) and their smoke checks, US battery and destroyer missions (2.6, 2.9),
  German battery missions (3.1);
* Mode Determination Phase: voluntary pill box conversions (3.3e);
* US Action Phase: leader losses (2.3f), the assault wave or transport landing
  first (2.1n), then moves, fires and assaults with German overwatch, then
  obstacle tests and breaches (2.4) and shingle breaches (2.5);
* German Action Phase: reinforcements enter (3.1), then moves, fires and
  assaults with US overwatch;
* Clean-up Phase: markers and records cleared, unassigned units (2.3g), draw
  exits, the 29th ID (2.7b); after the last turn, victory.

:class:`TcsState` only says which procedure runs next: the steps of the
sequence and the decisions each may wait for are typed tables over the
procedure modules (:mod:`omaha.tcs.procedures`). Automatic procedures run
inside ``apply`` until a player must decide; every roll is logged with its rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any

import attrs

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.dice import Dice
from omaha.kernel.events import Event, register_templates
from omaha.kernel.facts import Facts
from omaha.kernel.observation import Observing
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Offer, Pending, View, on_offer
from omaha.tcs import facts as tcs_facts
from omaha.tcs import view as seen
from omaha.tcs.actions import (
    AddLca,
    AssaultMenu,
    Breach,
    CloseBoat,
    CommitPlan,
    CommitSetup,
    EndAction,
    EndMissions,
    EndPlan,
    EndTests,
    FireMenu,
    Load,
    LoadSteps,
    Mission,
    MoveMenu,
    Naval,
    OpenBoat,
    PlacePillbox,
    PlaceRocketPit,
    PointMenu,
    Resolve,
    RetreatMenu,
    Rockets,
    Test,
    UsePlan,
    UseSetup,
    With,
    WithAll,
)
from omaha.tcs.components.snapshot import check_snapshot
from omaha.tcs.core import Decision, Phase, TcsCore
from omaha.tcs.observation import TcsObservation
from omaha.tcs.procedures import (
    action,
    air,
    ammo,
    artillery,
    cleanup,
    command,
    information,
    landing,
    leaders,
    modes,
    nfst,
    obstacles,
    overdraft,
    release,
    rockets,
    schematic,
    setup,
    tide,
    transports,
    trp,
)

register_templates(
    {
        "tcs.turn": "— turn {turn} —",
        "tcs.skip": "{phase}: nothing to do ({why})",
    }
)


class Step(StrEnum):
    """The steps of the sequence of play, each run by one procedure."""

    TRPS = "trps"
    GERMAN_SETUP = "german setup"
    US_PLAN = "us plan"
    LEADER_SELECTION = "leader selection"
    ROCKET_TARGETS = "rocket targets"
    NFST = "nfst"
    TIDE = "tide"
    LEADERS_OUT = "leaders out"
    AMMO = "ammo"
    OVERDRAFT = "overdraft"
    RECOVERY = "recovery"
    RELEASE = "release"
    GERMAN_SHEETS = "german sheets"
    US_SHEETS = "us sheets"
    TRANSPORTS = "transports"
    AIR = "air"
    AIR_STRIKES = "air strikes"
    LCTR = "lctr"
    SMOKE = "smoke"
    US_MISSIONS = "us missions"
    GERMAN_MISSIONS = "german missions"
    CONVERSIONS = "conversions"
    US_MODES = "us modes"
    GERMAN_MODES = "german modes"
    LEADER_LOSSES = "leader losses"
    ASSAULT = "assault"
    LANDING_CHOICES = "landing choices"
    TRANSPORT_LANDING = "transport landing"
    TRANSPORT_CHOICES = "transport choices"
    US_ACTION = "us action"
    US_TESTS = "us tests"
    US_PHASE_END = "us phase end"
    GERMAN_ENTRY = "german entry"
    GERMAN_ACTION = "german action"
    GERMAN_PHASE_END = "german phase end"
    CLEANUP = "cleanup"
    END = "end"


#: The phases that may pass with nothing to do: why, and the rules that say so.
QUIET: dict[Phase, tuple[str, str]] = {
    Phase.ARTILLERY: (
        "no A-20 attack, LCT(R) fire or smoke check is due, and no battery or destroyer "
        "mission has a target in sight",
        "2.2, 2.6, 2.10, 3.1",
    ),
    Phase.MODES: (
        "no pill box left to convert, and no stack that may change its mode",
        "3.3e, 4.0",
    ),
}

#: Before play: (phase, step), in order.
SETUP_STEPS: tuple[tuple[Phase, Step], ...] = (
    (Phase.SETUP, Step.TRPS),
    (Phase.SETUP, Step.GERMAN_SETUP),
    (Phase.SETUP, Step.US_PLAN),
    (Phase.SETUP, Step.LEADER_SELECTION),
    (Phase.SETUP, Step.ROCKET_TARGETS),
    (Phase.SETUP, Step.NFST),
)
#: Every turn: (phase, step), in order.
TURN_STEPS: tuple[tuple[Phase, Step], ...] = (
    (Phase.COMMAND, Step.TIDE),
    (Phase.COMMAND, Step.LEADERS_OUT),
    (Phase.COMMAND, Step.AMMO),
    (Phase.COMMAND, Step.OVERDRAFT),
    (Phase.COMMAND, Step.RECOVERY),
    (Phase.COMMAND, Step.RELEASE),
    (Phase.COMMAND, Step.GERMAN_SHEETS),
    (Phase.COMMAND, Step.US_SHEETS),
    (Phase.COMMAND, Step.TRANSPORTS),
    (Phase.COMMAND, Step.AIR),
    (Phase.ARTILLERY, Step.AIR_STRIKES),
    (Phase.ARTILLERY, Step.LCTR),
    (Phase.ARTILLERY, Step.SMOKE),
    (Phase.ARTILLERY, Step.US_MISSIONS),
    (Phase.ARTILLERY, Step.GERMAN_MISSIONS),
    (Phase.MODES, Step.CONVERSIONS),
    (Phase.MODES, Step.US_MODES),
    (Phase.MODES, Step.GERMAN_MODES),
    (Phase.US_PHASE, Step.LEADER_LOSSES),
    (Phase.US_PHASE, Step.ASSAULT),
    (Phase.US_PHASE, Step.LANDING_CHOICES),
    (Phase.US_PHASE, Step.TRANSPORT_LANDING),
    (Phase.US_PHASE, Step.TRANSPORT_CHOICES),
    (Phase.US_PHASE, Step.US_ACTION),
    (Phase.US_PHASE, Step.US_TESTS),
    (Phase.US_PHASE, Step.US_PHASE_END),
    (Phase.GERMAN_PHASE, Step.GERMAN_ENTRY),
    (Phase.GERMAN_PHASE, Step.GERMAN_ACTION),
    (Phase.GERMAN_PHASE, Step.GERMAN_PHASE_END),
    (Phase.CLEANUP, Step.CLEANUP),
    (Phase.CLEANUP, Step.END),
)


def _landing_only(step: Callable[[TcsCore], bool]) -> Callable[[TcsCore], bool]:
    """A landing-system step, skipped in a scenario without a landing."""

    def run(core: TcsCore) -> bool:
        return step(core) if core.scenario.landing else True

    return run


#: The procedure of each step: True when done, False when it waits for a decision.
STEPS: dict[Step, Callable[[TcsCore], bool]] = {
    Step.TRPS: trp.step_trps,
    Step.GERMAN_SETUP: setup.step_german_setup,
    Step.US_PLAN: _landing_only(schematic.step_us_plan),
    Step.LEADER_SELECTION: _landing_only(leaders.step_leader_selection),
    Step.ROCKET_TARGETS: _landing_only(rockets.step_rockets),
    Step.NFST: _landing_only(nfst.step_nfst),
    Step.TIDE: tide.step_tide,
    Step.LEADERS_OUT: leaders.step_leaders_out,
    Step.AMMO: ammo.step_ammo,
    Step.OVERDRAFT: overdraft.step_overdraft,
    Step.RECOVERY: command.step_recovery,
    Step.RELEASE: release.step_release,
    Step.GERMAN_SHEETS: release.step_german_sheets,
    Step.US_SHEETS: command.step_us_sheets,
    Step.TRANSPORTS: _landing_only(transports.step_transports),
    Step.AIR: air.step_air,
    Step.AIR_STRIKES: air.step_air_strikes,
    Step.LCTR: rockets.step_lctr,
    Step.SMOKE: rockets.step_smoke,
    Step.US_MISSIONS: artillery.step_us_missions,
    Step.GERMAN_MISSIONS: artillery.step_german_missions,
    Step.CONVERSIONS: modes.step_conversions,
    Step.US_MODES: modes.step_us_modes,
    Step.GERMAN_MODES: modes.step_german_modes,
    Step.LEADER_LOSSES: leaders.step_leader_losses,
    Step.ASSAULT: landing.step_assault,
    Step.LANDING_CHOICES: landing.step_landing_choices,
    Step.TRANSPORT_LANDING: landing.step_transport_landing,
    Step.TRANSPORT_CHOICES: landing.step_landing_choices,
    Step.US_ACTION: action.step_us_action,
    Step.US_TESTS: obstacles.step_us_tests,
    Step.US_PHASE_END: cleanup.step_us_phase_end,
    Step.GERMAN_ENTRY: release.step_entry,
    Step.GERMAN_ACTION: action.step_german_action,
    Step.GERMAN_PHASE_END: cleanup.step_german_phase_end,
    Step.CLEANUP: cleanup.step_cleanup,
    Step.END: cleanup.step_end,
}


#: What a begun step keeps in ``sd`` (key -> type); a step absent here keeps nothing.
STEP_DATA: dict[Step, dict[str, type]] = {
    Step.TIDE: {"queue": list},
    Step.OVERDRAFT: {"ended": bool},
    Step.TRPS: {"ended": bool},
    Step.RELEASE: {"result": str, "done": bool},
    Step.US_SHEETS: {"ended": bool},
    Step.TRANSPORTS: {"ended": bool},
    Step.AIR: {},
    Step.US_MISSIONS: {"ended": bool},
    Step.GERMAN_MISSIONS: {"ended": bool},
    Step.CONVERSIONS: {"ended": bool},
    Step.US_MODES: {"ended": bool, "done": list, "side": str},
    Step.GERMAN_MODES: {"ended": bool, "done": list, "side": str},
    Step.US_ACTION: {"ended": bool},
    Step.US_TESTS: {"ended": bool},
    Step.GERMAN_ACTION: {"ended": bool},
}

#: What any step may keep besides its own data: the guards that bound the interface's
#: loops (a plan cleared or a boat closed empty too often, a list left with ``back``;
#: READINGS.md, "Agents").
LOOP_GUARDS: dict[str, type] = {"cancels": int, "closed": dict}

_ACTION = (Decision.ACT, Decision.CHOOSE, Decision.FIRE, Decision.MOVE)
#: The decisions each step may wait for, with who decides ("" the side the position
#: names: the controller of the aircraft, 2.10); a step absent here decides nothing.
STEP_WAITS: dict[Step, dict[Decision, str]] = {
    Step.TRPS: {Decision.TRPS: "US"},
    Step.GERMAN_SETUP: {Decision.PILLBOX: "German", Decision.ROCKET_PIT: "German"},
    Step.US_PLAN: {Decision.PLAN: "US"},
    Step.ROCKET_TARGETS: {Decision.ROCKETS: "US"},
    Step.NFST: {Decision.NFST: "US"},
    Step.TIDE: {Decision.TIDE: "US"},
    Step.OVERDRAFT: {Decision.OVERDRAFT: "US"},
    Step.RELEASE: {Decision.RELEASE: "German"},
    Step.US_SHEETS: {Decision.SHEETS: "US"},
    Step.TRANSPORTS: {Decision.TRANSPORTS: "US"},
    Step.AIR: {Decision.AIR: "US"},
    Step.AIR_STRIKES: {Decision.STRIKE: ""},
    Step.SMOKE: {Decision.SMOKE: "US"},
    Step.US_MISSIONS: {Decision.MISSIONS: "US"},
    Step.GERMAN_MISSIONS: {Decision.MISSIONS: "German"},
    Step.CONVERSIONS: {Decision.CONVERT: "German"},
    Step.US_MODES: {Decision.MODES: "US"},
    Step.GERMAN_MODES: {Decision.MODES: "German"},
    Step.LANDING_CHOICES: {Decision.LAND: "US"},
    Step.TRANSPORT_CHOICES: {Decision.LAND: "US"},
    Step.US_ACTION: {**dict.fromkeys(_ACTION, "US"), Decision.OVERWATCH: "German"},
    Step.US_TESTS: {Decision.TEST: "US"},
    Step.GERMAN_ENTRY: {Decision.ENTRY: "German"},
    Step.GERMAN_ACTION: {**dict.fromkeys(_ACTION, "German"), Decision.OVERWATCH: "US"},
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
    Decision.RELEASE: DecisionRules(release.legal_release, release.apply_release),
    Decision.SHEETS: DecisionRules(command.legal_sheets, command.apply_sheets),
    Decision.TRANSPORTS: DecisionRules(
        transports.legal_transports,
        transports.apply_transports,
        transports.explain_transports,
    ),
    Decision.AIR: DecisionRules(air.legal_air, air.apply_air),
    Decision.SMOKE: DecisionRules(rockets.legal_smoke, rockets.apply_smoke),
    Decision.STRIKE: DecisionRules(air.legal_strike, air.apply_strike),
    Decision.MISSIONS: DecisionRules(artillery.legal_missions, artillery.apply_missions),
    Decision.CONVERT: DecisionRules(
        modes.legal_conversions, modes.apply_conversions, modes.explain_conversions
    ),
    Decision.MODES: DecisionRules(modes.legal_modes, modes.apply_modes, modes.explain_modes),
    Decision.LAND: DecisionRules(landing.legal_land, landing.apply_land),
    Decision.ENTRY: DecisionRules(release.legal_entry, release.apply_entry),
    Decision.ACT: DecisionRules(action.legal_act, action.apply_act),
    Decision.CHOOSE: DecisionRules(action.legal_choose, action.apply_choose),
    Decision.MOVE: DecisionRules(action.legal_move, action.apply_move),
    Decision.FIRE: DecisionRules(action.legal_fire, action.apply_fire),
    Decision.OVERWATCH: DecisionRules(action.legal_overwatch, action.apply_overwatch),
    Decision.TEST: DecisionRules(obstacles.legal_tests, obstacles.apply_tests),
    Decision.TRPS: DecisionRules(trp.legal_trps, trp.apply_trps),
}


class TcsState(Observing, TcsCore):
    """A game of TCS Omaha in progress (see the module docstring)."""

    declared = TcsObservation  # the observation (Observing)

    def _setup(self) -> None:
        self.init_fields()
        setup.place_garrison(self)
        self._advance()

    # ------------------------------------------------------------------ sequencing
    def _advance(self) -> None:
        """Run automatic procedures until a player must decide or the game ends. A
        phase of :data:`QUIET` begun and ended here with nothing logged (no decision
        asked) gets a line saying why, citing the rules."""
        quiet: tuple[str, int] | None = None  # a phase begun here, and the log's length then
        while self.result is None:
            steps = SETUP_STEPS if self.in_setup else TURN_STEPS
            if self.cursor >= len(steps):
                if self.in_setup:
                    self.in_setup = False
                elif self.turn + 1 < len(self.scenario.turns):
                    self.turn += 1
                else:
                    cleanup.finish(self)
                    return
                self.cursor, self.started, self.sd = 0, False, {}
                self.touch()  # what is clear terrain depends on the turn (2.4d)
                self.note("tcs.turn", "", turn=self.turn_label)
                continue
            self.wait = None
            phase = steps[self.cursor][0]
            if not self.started and (self.cursor == 0 or steps[self.cursor - 1][0] != phase):
                quiet = (phase, len(self.log))
            if not STEPS[steps[self.cursor][1]](self):
                return
            last = self.cursor + 1 >= len(steps) or steps[self.cursor + 1][0] != phase
            if last and quiet == (phase, len(self.log)) and phase in QUIET:
                why, rule = QUIET[phase]
                self.note("tcs.skip", rule, phase=phase, why=why)
            self.cursor += 1
            self.started, self.sd = False, {}

    # ------------------------------------------------------------------ protocol
    @property
    def current_phase(self) -> Phase:
        """The phase of the sequence of play under way (set-up before play)."""
        return self._sequence_entry()[0]

    @property
    def current_step(self) -> Step:
        """The step of that phase under way, run by one procedure."""
        return self._sequence_entry()[1]

    def _sequence_entry(self) -> tuple[Phase, Step]:
        steps = SETUP_STEPS if self.in_setup else TURN_STEPS
        return steps[min(self.cursor, len(steps) - 1)]

    @property
    def phase(self) -> str:
        return self.current_phase.value

    @property
    def pending(self) -> Pending | None:
        if self.result is not None or self.wait is None:
            return None
        kind, player, prompt = self.wait
        worded = OFFERS.get(kind)
        if worded is not None:
            prompt = worded(self, player)
        combat = self.combat
        focus = (str(combat["target"]),) if kind == Decision.FIRE and combat is not None else ()
        return Pending(str(kind), player, prompt, focus)

    def _player_to_move(self) -> str | None:
        """The owner of ``pending``, read from the decision awaited (no prompt worded)."""
        wait = self.wait
        return None if self.result is not None or wait is None else wait[1]

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

    def facts(self, action: Action) -> Facts:
        """What ``action`` would do: :mod:`omaha.tcs.facts`."""
        return tcs_facts.facts(self, action)

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

    # ------------------------------------------------------------------ information sets
    # what each side saw and what a resample draws: omaha.tcs.procedures.information
    def _event_seen_by(self, event: Event, player: str) -> Event | None:
        return information.event_seen_by(self, event, player)

    def _action_seen_by(self, action: Action, actor: str | None, player: str) -> str | None:
        return information.action_seen_by(action, actor, player)

    def _hidden_parts(self, player: str) -> tuple[object, ...]:
        return information.hidden_parts(self, player)

    def _redraw_hidden(self, player: str, dice: Dice) -> None:
        information.redraw(self, player, dice, self._begun)

    def _begun(self, name: str) -> bool:
        """Whether the current turn's step ``name`` (a :class:`Step` value) has begun."""
        if self.in_setup:
            return False
        k = next(k for k, (_, step) in enumerate(TURN_STEPS) if step.value == name)
        return k < self.cursor or (k == self.cursor and self.started)

    # ------------------------------------------------------------------ views, snapshots
    def metrics(self) -> dict[str, float]:
        return seen.metrics(self)

    def returns(self) -> dict[str, float]:
        return seen.returns(self)

    def view(self, player: str | None = None) -> View:
        return seen.view(self, player)

    def _dump(self) -> dict[str, Any]:
        return seen.dump(self)

    def _restore(self, data: dict[str, Any]) -> None:
        check_snapshot(data, self.snapshot_names())
        seen.restore(self, data)

    def invariants(self) -> list[str]:
        """The core's invariants, and where the sequence of play stands: a step of the
        sequence, a decision awaited until the game ends, and that decision offering
        legal actions (a tampered snapshot is refused, never half-loaded)."""
        out = super().invariants()
        steps = SETUP_STEPS if self.in_setup else TURN_STEPS
        if self.result is not None:
            return out
        if not 0 <= self.cursor < len(steps):
            out.append(f"step {self.cursor} is not in the sequence of play (0..{len(steps) - 1})")
        elif self.wait is None:
            out.append("the game is not over, but no decision is awaited")
        else:
            step = steps[self.cursor][1]
            kind, player, _ = self.wait
            who = STEP_WAITS.get(step, {}).get(kind)
            if who is None:
                out.append(f"step {step.value!r} does not ask for a {kind.value} decision")
            elif player != (who or self.air_controller or "US"):
                out.append(f"the {kind.value} decision is not the {player}'s")
            out += self._step_data_problems(step)
        if out:
            return out
        try:
            legal = self.legal_actions()
        except Exception as exc:  # the probe of a tampered state: any error is a problem
            return [f"the decision awaited cannot be offered ({type(exc).__name__}: {exc})"]
        if not legal:
            out.append("the decision awaited offers no legal action")
        return out

    def _step_data_problems(self, step: Step) -> list[str]:
        """What is wrong with the data the current step keeps (``sd``)."""
        held = [k for k in self.sd if k not in LOOP_GUARDS]
        out = [
            f"step {step.value!r}: {k} is not its"
            for k, kind in LOOP_GUARDS.items()
            if k in self.sd and type(self.sd[k]) is not kind
        ]
        if not self.started or step not in STEP_DATA:
            wrong = held or self.started
            return out + ([f"step {step.value!r} not begun holds data"] if wrong else [])
        wanted = STEP_DATA[step]
        side = {Step.US_MODES: "US", Step.GERMAN_MODES: "German"}.get(step)
        out += [f"step {step.value!r} lacks {k}" for k in wanted if k not in self.sd]
        out += [
            f"step {step.value!r}: {k} is not its"
            for k, v in self.sd.items()
            if k in wanted and type(v) is not wanted[k]
        ]
        if side is not None and self.sd.get("side") != side:
            out.append(f"step {step.value!r} is for the {side}")
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> TcsState:
        """Deep copies (the agent adapters copy their states so) take the structural
        copy of :meth:`_copy`: same independence, no walk through the log."""
        return self._copy()

    def _copy(self) -> TcsState:
        """A copy sharing nothing mutable (field by field: :meth:`TcsCore.copy_into`)."""
        twin = self._copy_base()
        assert isinstance(twin, TcsState)
        self.copy_into(twin)
        return twin


# ---------------------------------------------------------------------- the prompts
# A decision whose choices vary is worded from its legal actions, so the prompt names
# only what is on offer now.
_UNIT_MENUS: tuple[Offer, ...] = (
    ("move", MoveMenu),
    ("fire", (FireMenu, PointMenu)),
    ("assault", AssaultMenu),
    ("retreat", RetreatMenu),
)


def _act_prompt(st: TcsState, side: str) -> str:
    legal = st.legal_actions()
    menus = on_offer(legal, _UNIT_MENUS)
    parts: tuple[Offer, ...] = (
        (f"{menus} a unit", (MoveMenu, FireMenu, PointMenu, AssaultMenu, RetreatMenu)),
        ("end the action phase", EndAction),
    )
    return on_offer(legal, parts)


def _fire_prompt(st: TcsState, side: str) -> str:
    target = st.combat["target"] if st.combat is not None else "?"
    parts: tuple[Offer, ...] = (("add stacks", (With, WithAll)), ("resolve", Resolve))
    return f"fire on {target}: {on_offer(st.legal_actions(), parts)}"


def _missions_prompt(st: TcsState, side: str) -> str:
    parts: tuple[Offer, ...] = (
        ("call artillery missions" if side == "US" else "fire the released batteries", Mission),
        ("call destroyer missions", Naval),
        ("end missions", EndMissions),
    )
    return on_offer(st.legal_actions(), parts)


def _test_prompt(st: TcsState, side: str) -> str:
    parts: tuple[Offer, ...] = (
        ("test beach obstacle hexes", Test),
        ("begin breaches", Breach),
        ("end the tests", EndTests),
    )
    return on_offer(st.legal_actions(), parts)


def _plan_prompt(st: TcsState, side: str) -> str:
    assert st.wait is not None
    if st.open_boat is not None:
        what = st.wait[2].split(", or close it")[0]
        aboard: tuple[Offer, ...] = ((what, (Load, LoadSteps, AddLca)), ("close it", CloseBoat))
        return on_offer(st.legal_actions(), aboard)
    parts: tuple[Offer, ...] = (
        ("commit a whole plan", (CommitPlan, UsePlan)),
        (f"add boats ({len(st.draft_boats)} so far)", OpenBoat),
        ("end the plan", EndPlan),
    )
    return f"landing plan: {on_offer(st.legal_actions(), parts)}"


def _pillbox_prompt(st: TcsState, side: str) -> str:
    left = st.scenario.n_pillboxes - len(st.pillboxes)
    parts: tuple[Offer, ...] = (
        (f"set up a pill box ({left} left)", PlacePillbox),
        ("a whole set-up", (UseSetup, CommitSetup)),
    )
    return on_offer(st.legal_actions(), parts)


#: The decisions worded from their legal actions (the others' prompts are fixed).
OFFERS: dict[Decision, Callable[[TcsState, str], str]] = {
    Decision.ACT: _act_prompt,
    Decision.FIRE: _fire_prompt,
    Decision.MISSIONS: _missions_prompt,
    Decision.TEST: _test_prompt,
    Decision.PLAN: _plan_prompt,
    Decision.PILLBOX: _pillbox_prompt,
}
