"""The LnL Omaha game state: the sequence of play, and the protocol's entry points.

Sequence (LnL Omaha: Outline of Play), each game turn:

American player turn: draw an action card and apply its event; disruption
removal (a card per disrupted unit: 4 or less, 5 or less for Rangers and the
Airborne) and Fired markers off; on turn 3 the landing of A/116, C/2nd Ranger and
C/743; fire phase; movement phase (German opportunity fire); close assault phase.

German player turn: disruption removal (3 or less, 4 or less for the 916th AT)
and Fired markers off; fire phase; movement phase (reinforcements enter;
American opportunity fire); close assault phase.

The game lasts 10 turns (11 with the ``+turn11`` option); then the victory hexes
each side controls decide (LnL Omaha: Winning). Readings R1-R5 of READINGS.md
settle what the text leaves open about the sequence.

Which procedure runs next is decided here, through typed tables: what the
pending decision offers (:data:`OPTIONS`), who carries out an action
(:data:`APPLY`, :data:`OPENERS`), what each phase does on its own
(:data:`AUTOMATIC`) and how each phase begins and ends (:data:`PHASE_START`,
:data:`PHASE_END`). The procedures themselves live in :mod:`omaha.lnl.procedures`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.kernel.facts import Facts
from omaha.kernel.observation import Observing
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Offer, Pending, View, on_offer
from omaha.lnl import facts as lnl_facts
from omaha.lnl import view as seen
from omaha.lnl.actions import (
    END_PHASE,
    Add,
    AddBonus,
    AddNgfs,
    Advance,
    Assault,
    Bombard,
    Cancel,
    Deploy,
    Drop,
    EndPhase,
    Enter,
    FireWith,
    Move,
    OpFire,
    Pass,
    Resolve,
    Stay,
    Step,
    Stop,
    Strike,
    Target,
    With,
)
from omaha.lnl.components.setups import setup_plan
from omaha.lnl.core import OFF, Decision, LnlCore, Phase
from omaha.lnl.observation import LnlObservation
from omaha.lnl.procedures import (
    airstrike,
    assault,
    events,
    fire,
    losses,
    movement,
    opportunity,
    placement,
    rally,
    victory,
)

register_templates(
    {
        "lnl.turn": "=== turn {turn} ===",
        "lnl.phase": "{side} {phase} phase",
        "lnl.skip": "{side} {phase} phase ends, nothing left to do: {why}",
        "lnl.card": "action card {card} (value {value}): {event}",
        "lnl.event": "{text}",
        "lnl.rally": "{unit} rallies: card {card} value {value}, {outcome}",
        "lnl.place": "{unit} placed in {hex}",
        "lnl.wait": "{units} wait: {why}",
        "lnl.enter": "{unit} enters at {hex}",
        "lnl.move": "{units} move {start} -> {end} (cost {cost}, {left} MF left)",
        "lnl.fire": "{how}: {firers} at {target} ({target_kind}: {units}); {total} factors, "
        "shift {shift}, column {column}; card {card} value {value}: {result}",
        "lnl.strike": "{event}: strike on {target} with {he} HE, column {column}; "
        "card {card}: {result}",
        "lnl.strike_pass": "air strike not used",
        "lnl.assault": "close assault by {attackers} on {target} ({defenders}): {att} v {dfn}, "
        "shift {shift}, column {column}; card {card} value {value}: {result}",
        "lnl.step": "{unit} loses a step ({why})",
        "lnl.elim": "{unit} is eliminated ({why})",
        "lnl.retreat": "{unit} retreats {start} -> {end}",
        "lnl.advance": "{unit} advances {start} -> {end}",
        "lnl.end": "game over: {result}",
    }
)

#: Decisions that only put an attack or a move together: they change no field the
#: cached queries (``memo``) read, so the cache outlives them.
_PURE = (
    FireWith,
    Bombard,
    Target,
    Add,
    AddNgfs,
    AddBonus,
    Cancel,
    Assault,
    OpFire,
    Pass,
    Move,
    With,
)


PHASE_NAMES: dict[Phase, str] = {
    Phase.SETUP: "set-up",
    Phase.CARD: "action card",
    Phase.EVENT: "action card",
    Phase.RALLY: "disruption removal",
    Phase.LANDING: "landing",
    Phase.FIRE: "fire",
    Phase.MOVE: "movement",
    Phase.ASSAULT: "close assault",
    Phase.OVER: "game over",
}

#: The parts of each phase's prompt and the actions they name (only those on offer show).
PHASE_PROMPTS: dict[Phase, tuple[Offer, ...]] = {
    Phase.FIRE: (("fire", FireWith), ("bombard", Bombard), ("end the fire phase", EndPhase)),
    Phase.MOVE: (
        ("move a unit", Move),
        ("bring on reinforcements", Enter),
        ("end the movement phase", EndPhase),
    ),
    Phase.ASSAULT: (("close assault", Assault), ("end the close assault phase", EndPhase)),
}


class LnlState(Observing, LnlCore):
    """A game of LnL Omaha in progress (see the module docstring)."""

    declared = LnlObservation  # the observation (Observing)

    def _setup(self) -> None:
        self.init_fields()
        for f in self.scen.forces:
            if f.when == "turn":
                for u in f.units:
                    self.set_due(u, f.turn)
        self.place_queue = [u for _, u in self.scen.setup_order]
        self.place_mode = "setup"
        self.proceed()

    # ------------------------------------------------------------------------
    # Protocol surface
    # ------------------------------------------------------------------------
    @property
    def turn_label(self) -> str:
        return f"Turn {self.turn}" if self.turn else "Set-up"

    @property
    def phase(self) -> str:
        if self.current_phase in ("setup", "over"):
            return PHASE_NAMES[self.current_phase]
        return f"{self.side} {PHASE_NAMES[self.current_phase]}"

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def view(self, player: str | None = None) -> View:
        return seen.view(self, player)

    def metrics(self) -> dict[str, float]:
        return seen.metrics(self)

    def _dump(self) -> dict[str, Any]:
        return seen.dump(self)

    # ------------------------------------------------------------------------
    # The agent surface (issue 15; READINGS.md, "Agents")
    # ------------------------------------------------------------------------

    def returns(self) -> dict[str, float]:
        """Graded by the victory level (LnL Omaha: Winning): a significant US victory
        is worth 1 to the US, a minor one 0.5, a draw 0, a German victory -1; the
        Germans get the opposite. The bonus scenario's points give +1 or -1."""
        out = self.result
        if out is None or out.winner is None:
            return {"US": 0.0, "German": 0.0}
        us = 0.5 if out.level == "minor US victory" else 1.0 if out.winner == "US" else -1.0
        return {"US": us, "German": -us}

    def facts(self, action: Action) -> Facts:
        """What ``action`` would do: :mod:`omaha.lnl.facts`."""
        return lnl_facts.facts(self, action)

    def plans(self) -> dict[str, Action]:
        """At the set-up, the shipped set-up plan of the side placing (one ``deploy``),
        when it is sound for this scenario; the numbered route to the same position
        is ``place`` one unit at a time."""
        if self.current_phase != "setup" or not self.place_queue or self.busy_except_place():
            return {}
        side = self.u(self.place_queue[0]).side
        plan = setup_plan(self.scen.scenario_id, side)
        if plan is None:
            return {}
        action = Deploy(plan)
        try:
            placement.check_deploy(self, action)
        except IllegalAction:
            return {}
        return {f"shipped {side} set-up": action}

    def _restore(self, data: dict[str, Any]) -> None:
        seen.restore(self, data)

    def invariants(self) -> list[str]:
        return seen.invariants(self)

    @property
    def pending(self) -> Pending | None:
        if self.result is not None:
            return None
        return PENDING[self.decision()](self)

    def _legal_actions(self) -> Iterable[Action]:
        return OPTIONS[self.decision()](self)

    def _legal_actions_in_order(self) -> Sequence[Action]:
        """Placements come in notation order already (up to 200 a decision at the
        set-up); the other decisions are put in it by the scenario's ranks."""
        decision = self.decision()
        if decision == "place":
            return list(placement.place_options(self))
        return self._in_order(OPTIONS[decision](self))

    def main_options(self, *, with_end: bool) -> Iterator[Action]:
        """The phase's own decisions: start an attack, a move, an assault; end the phase.

        Reading R3 (READINGS.md): while a reinforcement may enter, the phase may not end.
        """
        must_enter = False
        phase_options = PHASE_OPTIONS.get(self.current_phase)
        if phase_options is not None:
            for act in phase_options(self):
                must_enter = must_enter or isinstance(act, Enter)
                yield act
        if with_end and not must_enter:
            yield END_PHASE

    def _check_plan(self, action: Action) -> None:
        if isinstance(action, Deploy):
            placement.check_deploy(self, action)
            return
        raise IllegalAction(self.explain_illegal(action))

    def explain_illegal(self, action: Action) -> str:
        pend = self.pending
        wanted = f" (waiting for {pend.player}: {pend.prompt})" if pend else ""
        uid = getattr(action, "unit", None)
        label = getattr(action, "hex", None)
        kind = getattr(action, "kind", None)
        if isinstance(label, str) and not self.scen.board.has(label):
            return f'"{label}" is not a hex of this map'
        if isinstance(uid, str) and uid not in self.scen.unit_index:
            return f'"{uid}" is not a unit of this scenario'
        if isinstance(kind, str) and kind not in ("hard", "soft"):
            return f'"{kind}" is not a kind of target (hard or soft)'
        if isinstance(uid, str) and uid in self.scen.unit_index:
            u = self.scen.unit_index[uid]
            if self.dis[u] and isinstance(action, FireWith | Move | Add | OpFire):
                return (
                    f"{uid} is disrupted and cannot move, fire or start a close assault "
                    "(LnL Omaha: Fire Combat, Disrupted)" + wanted
                )
            if self.fired[u] and isinstance(action, FireWith | Move | Add | OpFire):
                return f"{uid} has a Fired marker (LnL Omaha: Outline of Play)" + wanted
        if isinstance(action, FireWith | Bombard | Assault | OpFire) and not self.may_open_attack():
            return (
                f"{self.cancels} attacks were cancelled this phase: no other may be opened "
                "(reading R34, READINGS.md)" + wanted
            )
        if (
            isinstance(action, EndPhase)
            and self.current_phase == "move"
            and movement.due_entries(self)
        ):
            return "reinforcements due this turn must enter first (LnL Omaha: Setting up the Game)"
        return f"'{action}' is not a legal action now{wanted}"

    # ------------------------------------------------------------------------
    # Applying an action
    # ------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        APPLY[self.decision()](self, action)
        if not isinstance(action, _PURE):
            self.forget_queries()
        self.proceed()

    # ------------------------------------------------------------------------
    # The sequence of play
    # ------------------------------------------------------------------------
    def proceed(self) -> None:
        """Run the automatic procedures until some player must decide."""
        while self.result is None:
            if self.place_queue and not self.busy_except_place():
                u = self.place_queue[0]
                if placement.place_hexes(self, u):
                    return
                placement.cannot_place(self)
                self.forget_queries()
                continue
            if self.busy():
                return
            if AUTOMATIC[self.current_phase](self):
                return
            self.forget_queries()  # the sequence moved on: cached queries may be stale

    def start_turn(self, n: int) -> None:
        self.set_turn(n)
        self.side = "US"
        self.ngfs_left = self.scen.ngfs_packets
        self.set_phase(Phase.CARD)  # notes the whole position: turn, side, NGFS too
        self.note("lnl.turn", "LnL Omaha: Outline of Play", turn=n)

    def enter_phase(self, phase: Phase) -> None:
        """Begin ``phase``: what the rules do at its start (markers off, landings due)."""
        self.cancels = 0
        self.set_phase(phase)  # notes the whole position: cancels too
        start = PHASE_START.get(phase)
        if start is not None:
            start(self)

    def end_phase(self, action: Action | None = None) -> None:
        """``end phase``: the phase is over; the next one begins."""
        end = PHASE_END.get(self.current_phase)
        if end is not None:
            end(self)

    def end_player_turn(self) -> None:
        if self.side == "US":
            self.side = "German"
            self.set_phase(Phase.RALLY)  # notes the whole position: side too
            return
        # the game turn ends: the +6 HE cards and movement permissions lapse; the first
        # exit open at the end of a game turn is noted for the metrics (reading R35)
        if not self.first_exit and self.exits_open():
            self.first_exit = self.turn
        self.bonus = {"US": False, "German": False}
        self.perms = set()
        self.position_changed()
        if self.turn >= self.scen.turns:
            victory.finish(self)
            return
        self.start_turn(self.turn + 1)


# ----------------------------------------------------------------------------
# What each phase does on its own (True: stop, a player must decide)
# ----------------------------------------------------------------------------
def _after_setup(st: LnlState) -> bool:
    st.start_turn(1)
    return False


def _draw_card(st: LnlState) -> bool:
    events.draw_event_card(st)
    st.set_phase(Phase.EVENT)
    return False


def _after_event(st: LnlState) -> bool:
    st.set_phase(Phase.RALLY)
    return False


def _rally(st: LnlState) -> bool:
    rally.rally(st)
    st.enter_phase(Phase.LANDING if st.side == "US" else Phase.FIRE)
    return False


def _after_landing(st: LnlState) -> bool:
    st.enter_phase(Phase.FIRE)
    return False


def _phase(st: LnlState) -> bool:
    """A phase with decisions waits for them; with none left it ends by itself."""
    if st.hold_phases or next(st.main_options(with_end=False), None):
        return True
    _note_skipped(st)
    st.end_phase()
    return False


#: Why a unit of the phasing side can do nothing this phase, by phase: a test, what it
#: says, the rule. The first that holds counts a unit.
_Held = tuple[Callable[[LnlState, int], bool], str, str]
_LANDED = "landed this turn"
_HELD: dict[Phase, tuple[_Held, ...]] = {
    Phase.FIRE: (
        (
            lambda st, u: st.placement_restricted(u) and not st.scen.units[u].armor_unit,
            _LANDED,
            "LnL Omaha: Setting up the Game",
        ),
        (lambda st, u: st.dis[u], "disrupted", "LnL Omaha: Fire Combat, Disrupted"),
        (lambda st, u: st.fired[u], "fired", "LnL Omaha: Outline of Play"),
    ),
    Phase.MOVE: (
        (lambda st, u: st.placement_restricted(u), _LANDED, "LnL Omaha: Setting up the Game"),
        (lambda st, u: st.dis[u], "disrupted", "LnL Omaha: Fire Combat, Disrupted"),
        (lambda st, u: st.fired[u], "fired", "LnL Omaha: Outline of Play"),
        (lambda st, u: st.moved[u], "moved", "LnL Omaha: Movement"),
        (lambda st, u: st.scen.units[u].mf <= 0, "with no movement factor", "LnL Omaha: Movement"),
    ),
    Phase.ASSAULT: (
        (lambda st, u: st.placement_restricted(u), _LANDED, "reading R26 (READINGS.md)"),
        (lambda st, u: st.dis[u], "disrupted", "LnL Omaha: Fire Combat, Disrupted"),
        (lambda st, u: st.fired[u], "fired", "LnL Omaha: Close Assault"),
        (lambda st, u: st.assaulted[u], "assaulted", "reading R26 (READINGS.md)"),
        (lambda st, u: st.ca(u) <= 0, "with no close assault factor", "LnL Omaha: Close Assault"),
    ),
}
#: What the other units lack, by phase.
_NOTHING: dict[Phase, tuple[str, str]] = {
    Phase.FIRE: ("with no target in range and line of sight", "LnL Omaha: Fire Combat"),
    Phase.MOVE: ("with no hex to enter", "LnL Omaha: Movement"),
    Phase.ASSAULT: ("with no enemy hex adjacent", "LnL Omaha: Close Assault"),
}


def _held(st: LnlState, phase: Phase, u: int) -> tuple[str, str]:
    """Why unit ``u`` does nothing this phase, and the rule."""
    for test, why, rule in _HELD.get(phase, ()):
        if test(st, u):
            return why, rule
    return _NOTHING.get(phase, ("with nothing to do", "LnL Omaha: Outline of Play"))


def _note_skipped(st: LnlState) -> None:
    """A phase with nothing left its side may do ends by itself with a line saying why:
    how many units each rule holds back (landed this turn, disrupted, fired, no factor;
    reading R34 once too many attacks were cancelled), and how many lack a target."""
    phase = st.current_phase
    reasons: dict[str, int] = {}
    rules: dict[str, None] = {}
    if phase != "move" and not st.may_open_attack():
        reasons[f"{st.cancels} attacks cancelled"] = 0
        rules["reading R34 (READINGS.md)"] = None
    else:
        for u in st.units_of(st.side):
            why, rule = _held(st, phase, u)
            reasons[why] = reasons.get(why, 0) + 1
            rules[rule] = None
        if not reasons:
            reasons["no units on the map"] = 0
            rules["LnL Omaha: Outline of Play"] = None
    st.note(
        "lnl.skip",
        "; ".join(rules),
        player=st.side,
        side=st.side,
        phase=PHASE_NAMES[phase],
        why=", ".join(f"{n} {why}" if n else why for why, n in reasons.items()),
    )


def _over(st: LnlState) -> bool:  # pragma: no cover - the loop stops at a result
    return True


AUTOMATIC: dict[Phase, Callable[[LnlState], bool]] = {
    Phase.SETUP: _after_setup,
    Phase.CARD: _draw_card,
    Phase.EVENT: _after_event,
    Phase.RALLY: _rally,
    Phase.LANDING: _after_landing,
    Phase.FIRE: _phase,
    Phase.MOVE: _phase,
    Phase.ASSAULT: _phase,
    Phase.OVER: _over,
}


# ----------------------------------------------------------------------------
# How phases begin and end
# ----------------------------------------------------------------------------
def _start_landing(st: LnlState) -> None:
    """The American landings due this turn (LnL Omaha: Setting up the Game)."""
    due = sorted(
        (st.scen.force_of[u], u)
        for u, t in st.due.items()
        if t <= st.turn
        and st.where[u] == OFF
        and st.u(u).side == "US"
        and st.scen.forces[st.scen.force_of[u]].how == "landing"
    )
    st.place_queue = [u for _, u in due]
    st.place_mode = "landing"


def _start_fire(st: LnlState) -> None:
    st.fired_at = set()


def _start_move(st: LnlState) -> None:
    st.clear_moved()
    st.entered_by = {}


def _start_assault(st: LnlState) -> None:
    st.clear_assaulted()


PHASE_START: dict[Phase, Callable[[LnlState], None]] = {
    Phase.LANDING: _start_landing,
    Phase.FIRE: _start_fire,
    Phase.MOVE: _start_move,
    Phase.ASSAULT: _start_assault,
}


def _end_fire(st: LnlState) -> None:
    st.enter_phase(Phase.MOVE)


def _end_move(st: LnlState) -> None:
    left = movement.due_entries(st)
    if left:
        st.note(
            "lnl.wait",
            "LnL Omaha: Setting up the Game",
            player=st.side,
            units=st.ids(left),
            why="no free entry hex; they enter next turn",
        )
    st.enter_phase(Phase.ASSAULT)


def _end_assault(st: LnlState) -> None:
    st.end_player_turn()


PHASE_END: dict[Phase, Callable[[LnlState], None]] = {
    Phase.FIRE: _end_fire,
    Phase.MOVE: _end_move,
    Phase.ASSAULT: _end_assault,
}


# ----------------------------------------------------------------------------
# The pending decision: its prompt, its options, who carries it out
# ----------------------------------------------------------------------------
def _pending_phase(st: LnlState) -> Pending:
    parts = PHASE_PROMPTS.get(st.current_phase)
    prompt = on_offer(st.legal_actions(), parts) if parts else st.current_phase
    return Pending(st.decision_kind(), st.side, prompt)


def _pending_loss(st: LnlState) -> Pending:
    assert st.loss is not None
    return Pending(
        st.decision_kind(),
        st.loss.side,
        f"take {st.loss.remaining} more step loss(es): choose a unit",
    )


def _pending_retreat(st: LnlState) -> Pending:
    assert st.retreat is not None
    u = st.retreat.queue[0]
    return Pending(st.decision_kind(), st.retreat.side, f"retreat {st.uid(u)} one hex")


def _pending_advance(st: LnlState) -> Pending:
    assert st.advance is not None
    parts: tuple[Offer, ...] = (
        (f"advance into {st.label(st.advance.cell)}", Advance),
        ("stay", Stay),
    )
    return Pending(st.decision_kind(), st.advance.side, on_offer(st.legal_actions(), parts))


def _pending_assault(st: LnlState) -> Pending:
    assert st.attack is not None
    a = st.attack
    target = st.label(a.target)
    parts: tuple[Offer, ...] = (
        ("add attackers", Add),
        ("resolve", Resolve),
        ("cancel", Cancel),
    )
    prompt = f"close assault on {target}: {on_offer(st.legal_actions(), parts)}"
    return Pending(st.decision_kind(), a.side, prompt, (target,))


def _pending_attack(st: LnlState) -> Pending:
    assert st.attack is not None
    a = st.attack
    legal = st.legal_actions()
    if a.target < 0:
        pick: tuple[Offer, ...] = (
            (f"choose a target for {st.uid(a.firers[0])}", Target),
            ("cancel", Cancel),
        )
        return Pending(st.decision_kind(), a.side, on_offer(legal, pick))
    target = st.label(a.target)
    parts: tuple[Offer, ...] = (
        ("add firers", (Add, AddNgfs, AddBonus)),
        ("resolve", Resolve),
        ("cancel", Cancel),
    )
    prompt = f"fire on {target}: {on_offer(legal, parts)}"
    return Pending(st.decision_kind(), a.side, prompt, (target,))


def _pending_opp(st: LnlState) -> Pending:
    assert st.opp is not None
    fire = f"fire at {', '.join(st.ids(st.opp.movers))} in {st.label(st.opp.cell)}"
    parts: tuple[Offer, ...] = ((fire, OpFire), ("pass", Pass))
    focus = (st.label(st.opp.cell),)
    return Pending(st.decision_kind(), st.opp.side, on_offer(st.legal_actions(), parts), focus)


def _pending_move(st: LnlState) -> Pending:
    assert st.group is not None
    parts: tuple[Offer, ...] = (
        ("step", Step),
        ("take a unit along", With),
        ("drop one", Drop),
        ("stop", Stop),
    )
    prompt = f"moving {', '.join(st.ids(st.group.units))}: {on_offer(st.legal_actions(), parts)}"
    return Pending(st.decision_kind(), st.side, prompt)


def _pending_strike(st: LnlState) -> Pending:
    assert st.strike is not None
    parts: tuple[Offer, ...] = (("choose a hex to strike", Strike), ("pass", Pass))
    return Pending(st.decision_kind(), st.strike.side, on_offer(st.legal_actions(), parts))


def _pending_place(st: LnlState) -> Pending:
    u = st.place_queue[0]
    return Pending(st.decision_kind(), st.u(u).side, f"place {st.uid(u)}")


PENDING: dict[Decision, Callable[[LnlState], Pending]] = {
    "loss": _pending_loss,
    "retreat": _pending_retreat,
    "advance": _pending_advance,
    "assault": _pending_assault,
    "attack": _pending_attack,
    "opp": _pending_opp,
    "move": _pending_move,
    "strike": _pending_strike,
    "place": _pending_place,
    "phase": _pending_phase,
}


def _start_phase_action(st: LnlState, action: Action) -> None:
    """An action of the phase's own: hand it to the procedure that opens it."""
    opener = OPENERS.get(type(action))
    if opener is None:  # pragma: no cover - legality was checked by the base class
        raise IllegalAction(f"'{action}' cannot be applied now")
    opener(st, action)


def _phase_options(st: LnlState) -> Iterable[Action]:
    return st.main_options(with_end=True)


OPTIONS: dict[Decision, Callable[[LnlState], Iterable[Action]]] = {
    "loss": losses.loss_options,
    "retreat": assault.retreat_options,
    "advance": assault.advance_options,
    "assault": assault.assault_options,
    "attack": fire.attack_options,
    "opp": opportunity.opp_options,
    "move": movement.move_options,
    "strike": airstrike.strike_options,
    "place": placement.place_options,
    "phase": _phase_options,
}

#: The phase's own options, by phase (the other phases have none).
PHASE_OPTIONS: dict[Phase, Callable[[LnlCore], Iterator[Action]]] = {
    Phase.FIRE: fire.phase_options,
    Phase.MOVE: movement.phase_options,
    Phase.ASSAULT: assault.phase_options,
}

APPLY: dict[Decision, Callable[[LnlState, Action], None]] = {
    "loss": losses.apply_lose,
    "retreat": assault.apply_retreat,
    "advance": assault.apply_advance,
    "assault": assault.apply_assault_action,
    "attack": fire.apply_attack_action,
    "opp": opportunity.apply_opp,
    "move": movement.apply_move_action,
    "strike": airstrike.apply_strike,
    "place": placement.apply_place_action,
    "phase": _start_phase_action,
}

#: Who opens each action of the phase's own.
OPENERS: dict[type[Action], Callable[[LnlState, Action], None]] = {
    EndPhase: LnlState.end_phase,
    FireWith: fire.open_fire,
    Bombard: fire.open_bombardment,
    Move: movement.start_move,
    Enter: movement.apply_enter,
    Assault: assault.open_assault,
}
