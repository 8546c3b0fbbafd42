"""The sequence of play of D-Day at Omaha Beach: which procedure runs next.

A turn (reconstructed: READINGS.md, "sequence of play"): its start
(:func:`turn.start_turn`), the landing phase (:mod:`landing`), the German phase
(:mod:`german`: fire on turns 1-16, the Action Summary from turn 17), the US
action phase (:mod:`orders`, :mod:`attack`, :mod:`barrage`) and the end phase
(:func:`turn.end_turn`). :data:`PHASE_STEPS` runs one step of the current
phase; the state runs steps until the player must decide. The pending decision
routes the legal actions (:data:`LEGAL`) and the prompt (:data:`PROMPTS`); an
action routes to the procedure that carries it out (:meth:`_apply`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.dice import Dice
from omaha.kernel.events import Event, register_templates
from omaha.kernel.facts import Facts, Names
from omaha.kernel.observation import Observing
from omaha.kernel.view import Offer, Pending, View, on_offer
from omaha.landing_table import facts as landing_facts
from omaha.landing_table import view as seen
from omaha.landing_table.actions import (
    Attack,
    Attrition,
    Barrage,
    Clear,
    Drift,
    EndActions,
    Follow,
    Hit,
    Hold,
    Join,
    Land,
    Move,
    NoAttrition,
    Resolve,
    ResolveHero,
)
from omaha.landing_table.core import LandingTableCore, Phase
from omaha.landing_table.observation import LandingTableObservation
from omaha.landing_table.procedures import (
    attack,
    barrage,
    german,
    information,
    landing,
    orders,
    turn,
)

Decision = dict[str, Any]


class LandingTableState(Observing, LandingTableCore):
    """A game of D-Day at Omaha Beach (the US player against the charts)."""

    declared = LandingTableObservation  # the observation (Observing)

    def _setup(self) -> None:
        self.init_fields()
        turn.new_game(self)
        turn.start_turn(self)
        landing.begin_phase(self)
        self._advance()

    def _advance(self) -> None:
        """Run the procedures until the player must decide or the game is over."""
        while self.decision is None and self.result is None:
            PHASE_STEPS[self.current_phase](self)

    # -- the pending decision ---------------------------------------------------------
    @property
    def pending(self) -> Pending | None:
        if self.result is not None or self.decision is None:
            return None
        kind = str(self.decision["kind"])
        focus: tuple[str, ...] = ()
        if kind in ("attack", "attrition"):  # the attacked position's hex, for the map
            cell = self.scen.pos_by_id[str(self.ctx["target"])].cell
            focus = (self.board.labels[cell],)
        return Pending(kind, "US", PROMPTS[kind](self, self.decision), focus)

    def _player_to_move(self) -> str | None:
        """The owner of :attr:`pending` without wording its prompt: the US player owns
        every decision (the Germans are the charts); nobody once the game is over."""
        return None if self.result is not None or self.decision is None else "US"

    def _legal_actions(self) -> list[Action]:
        if self.decision is None:
            return []
        return LEGAL[str(self.decision["kind"])](self, self.decision)

    def names(self, action: Action, piece_ids: Collection[str] | None = None) -> Names:
        """The cells and pieces ``action`` names: :mod:`omaha.landing_table.facts`."""
        return landing_facts.names(self, action, piece_ids)

    def facts(self, action: Action) -> Facts:
        """What ``action`` would do: :mod:`omaha.landing_table.facts`."""
        return landing_facts.facts(self, action)

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, in the words of the decision awaited."""
        d = self.decision
        why = None if d is None else WHY_NOT[str(d["kind"])](self, d, action)
        return why or super().explain_illegal(action)

    # -- applying -----------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        self.forget_orders()
        board = self.scen.board
        match action:
            case Land(unit=uid, hex=label):
                landing.land_at(self, uid, board.cell(label))
            case Drift(unit=uid, boxes=boxes):
                landing.drift(self, uid, boxes)
            case Follow(leader=leader, drift=with_unit):
                landing.follow(self, leader, with_unit)
            case Hit(unit=uid):
                german.choose_hit(self, uid)
            case Hold(unit=uid):
                orders.hold(self, uid)
            case Move(unit=uid, hex=label):
                orders.move(self, uid, board.cell(label))
            case Attack(target=pid, unit=uid):
                attack.start(self, uid, pid)
            case Join(unit=uid):
                attack.join(self, uid)
            case Resolve():
                attack.resolve(self, hero=False)
            case ResolveHero():
                attack.resolve(self, hero=True)
            case Barrage(target=pid, unit=uid):
                barrage.barrage(self, uid, pid)
            case Clear(unit=uid):
                orders.clear_obstacles(self, uid)
            case Attrition(unit=uid):
                attack.attrition(self, uid)
            case NoAttrition():
                attack.attrition(self, None)
            case EndActions():
                orders.end_actions(self)
            case _:  # pragma: no cover - the base class checked legality
                raise IllegalAction(f"unknown action {action}")
        self._advance()

    # -- what the protocol reads ---------------------------------------------------------
    def metrics(self) -> dict[str, float]:
        return seen.metrics(self)

    def view(self, player: str | None = None) -> View:
        return seen.view(self, player)

    def returns(self) -> dict[str, float]:
        return seen.returns(self)

    def _dump(self) -> dict[str, Any]:
        return seen.dump(self)

    def _restore(self, data: dict[str, Any]) -> None:
        seen.restore(self, data)

    def invariants(self) -> list[str]:
        return seen.invariants(self)

    # -- information sets (procedures.information) -------------------------------------
    def _event_seen_by(self, event: Event, player: str) -> Event | None:
        """A redeploy (16.3) does not name the unit to the US; every other event is whole."""
        return information.event_seen(event)

    def _hidden_parts(self, player: str) -> tuple[object, ...]:
        return information.hidden_parts(self) if player == "US" else ()

    def _redraw_hidden(self, player: str, dice: Dice) -> None:
        """Unknown units and depth markers dealt anew with their cups; the kernel drops
        the kept observation and every cache afterwards (``_drop_caches``)."""
        if player == "US":
            information.redraw(self, dice)


register_templates({"ddob.no_landing": "no unit is scheduled to land on turn {turn}"})


# -- one step of each phase ------------------------------------------------------------------
def _landing_step(st: LandingTableState) -> None:
    if not landing.land_next(st):
        german.begin_phase(st)


def _german_step(st: LandingTableState) -> None:
    if not german.next_position(st):
        german.end_phase(st)
        orders.begin_phase(st)


def _us_step(st: LandingTableState) -> None:
    if not orders.next_unit(st):
        st.current_phase = Phase.END


def _end_step(st: LandingTableState) -> None:
    turn.end_turn(st)
    if st.result is None:
        turn.start_turn(st)
        landing.begin_phase(st)
        if not st.queue:  # the order of battle schedules no unit for this turn
            st.note("ddob.no_landing", landing.RULE + " (order of battle)", turn=st.turn)


#: The procedure step each phase runs (until a decision is pending).
PHASE_STEPS: dict[Phase, Callable[[LandingTableState], None]] = {
    Phase.LANDING: _landing_step,
    Phase.GERMAN_FIRE: _german_step,
    Phase.GERMAN_ACTION: _german_step,
    Phase.US_ACTION: _us_step,
    Phase.END: _end_step,
}


# -- the decisions: legal actions and prompts --------------------------------------------------
def _land_options(st: LandingTableState, d: Decision) -> list[Action]:
    labels = st.scen.board.labels
    act = st.lookup.action
    return [act(Land, str(d["unit"]), labels[c]) for c in st.land_options(int(d["box"]))]


def _drift_options(st: LandingTableState, d: Decision) -> list[Action]:
    act = st.lookup.action
    return [act(Drift, str(d["unit"]), n) for n in range(int(d["most"]) + 1)]


def _follow_options(st: LandingTableState, d: Decision) -> list[Action]:
    act = st.lookup.action
    return [act(Follow, str(d["unit"]), True), act(Follow, str(d["unit"]), False)]


def _hit_options(st: LandingTableState, d: Decision) -> list[Action]:
    act = st.lookup.action
    return [act(Hit, u) for u in d["units"]]


def _order_options(st: LandingTableState, d: Decision) -> list[Action]:
    return [*orders.orders(st, str(d["unit"])), st.lookup.action(EndActions)]


def _attack_options(st: LandingTableState, d: Decision) -> list[Action]:
    act = st.lookup.action
    out: list[Action] = [act(Join, u) for u in orders.joiners(st)]
    out.append(act(Resolve))
    if attack.hero_helps(st):
        out.append(act(ResolveHero))
    return out


def _attrition_options(st: LandingTableState, d: Decision) -> list[Action]:
    act = st.lookup.action
    return [*(act(Attrition, u) for u in d["units"]), act(NoAttrition)]


#: The legal actions of each kind of decision.
LEGAL: dict[str, Callable[[LandingTableState, Decision], list[Action]]] = {
    "land": _land_options,
    "drift": _drift_options,
    "follow": _follow_options,
    "hit": _hit_options,
    "orders": _order_options,
    "attack": _attack_options,
    "attrition": _attrition_options,
}


def _land_prompt(st: LandingTableState, d: Decision) -> str:
    box = st.scen.boxes[int(d["box"]) - 1]
    return f"choose where {d['unit']} comes ashore in {box} ({st.tide()} tide)"


def _drift_prompt(st: LandingTableState, d: Decision) -> str:
    return f"Ranger {d['unit']} may drift 0-{d['most']} boxes east (landing table note **)"


def _follow_prompt(st: LandingTableState, d: Decision) -> str:
    return f"{d['unit']}: drift with {d['companion']}?"


def _hit_prompt(st: LandingTableState, d: Decision) -> str:
    units = ", ".join(d["units"])
    return f"{st.ctx.get('pos')} fire: choose {d['need']} of {units} to be hit"


def _orders_prompt(st: LandingTableState, d: Decision) -> str:
    return f"orders for {d['unit']}"


def _attack_prompt(st: LandingTableState, d: Decision) -> str:
    """The attack's strengths; a face-down defender's defence is not shown (it is
    revealed when the attack is resolved)."""
    plan = attack.attack_plan(st)
    gid = st.pos[str(st.ctx["target"])].unit
    defense = plan["defense"] if gid is not None and st.ger[gid].revealed else "?"
    parts: tuple[Offer, ...] = (("add units", Join), ("resolve", (Resolve, ResolveHero)))
    return (
        f"attack on {st.ctx['target']} by {', '.join(st.ctx['attackers'])} "
        f"({plan['attack']} vs {defense}): {on_offer(st.legal_actions(), parts)}"
    )


def _attrition_prompt(st: LandingTableState, d: Decision) -> str:
    return f"optional attrition at {st.ctx['target']}: give a step to remove the depth marker?"


# -- why an action is not legal, by the decision awaited ------------------------------------------
def _no_hex(st: LandingTableState, label: str) -> str | None:
    if label in st.lookup.cells:
        return None
    return f"{label!r} is not a hex of this map"


def _why_not_land(st: LandingTableState, d: Decision, action: Action) -> str | None:
    if not isinstance(action, Land):
        return None
    if action.unit != d["unit"]:
        return f"{d['unit']} is landing now, not {action.unit}"
    box = int(d["box"])
    hexes = " or ".join(st.scen.board.labels[c] for c in st.land_options(box))
    return _no_hex(st, action.hex) or (
        f"{action.hex} is not a hex of {st.scen.boxes[box - 1]} at {st.tide()} tide "
        f"(choose {hexes})"
    )


def _why_not_drift(st: LandingTableState, d: Decision, action: Action) -> str | None:
    if not isinstance(action, Drift):
        return None
    if action.unit != d["unit"]:
        return f"{d['unit']} chooses its drift now, not {action.unit}"
    return f"{d['unit']} may drift 0 to {d['most']} boxes east, not {action.boxes}"


def _why_not_follow(st: LandingTableState, d: Decision, action: Action) -> str | None:
    if not isinstance(action, Follow):
        return None
    return f"{d['unit']} decides now whether he drifts with {d['companion']}, not {action.leader}"


def _why_not_hit(st: LandingTableState, d: Decision, action: Action) -> str | None:
    if not isinstance(action, Hit):
        return None
    tied = ", ".join(d["units"])
    return f"{action.unit} is not among the units tied for this hit ({tied})"


def _why_not_orders(st: LandingTableState, d: Decision, action: Action) -> str | None:
    unit = getattr(action, "unit", None)
    if not isinstance(unit, str):
        return None
    current = str(d["unit"])
    if unit not in st.us and not unit.startswith("NF"):
        return f"{unit!r} is not a unit of this game (orders are for {current})"
    if unit != current:
        return f"orders go unit by unit: it is {current}'s turn, not {unit}'s"
    if isinstance(action, Attack | Barrage) and action.target not in st.scen.pos_by_id:
        return f"{action.target!r} is not a German position"
    if current.startswith("NF"):
        if isinstance(action, Barrage):
            return f"{current} may barrage only a WN a unit with a radio sees within 3 hexes"
        return f"{current} is a Naval Fire Marker: it may barrage, join an attack or hold"
    s = st.us[current]
    if s.disrupted and isinstance(action, Attack | Barrage | Clear):
        return f"{unit} is disrupted: it may hold or move one hex only"
    if isinstance(action, Attack):
        return _why_no_attack(st, unit, action.target)
    if isinstance(action, Move):
        return _no_hex(st, action.hex) or f"{unit} cannot reach {action.hex} this turn"
    if isinstance(action, Barrage):
        return f"{unit} cannot barrage {action.target} (not artillery, or out of range)"
    if isinstance(action, Clear):
        return f"{unit} cannot clear obstacles here (engineers, in an uncleared obstacle hex)"
    return None


def _why_no_attack(st: LandingTableState, uid: str, pid: str) -> str:
    p = st.scen.pos_by_id[pid]
    if not st.occupied(pid):
        return f"no German unit holds {pid}"
    if pid in st.attacked:
        return f"{pid} has already been attacked this turn (one attack per position)"
    if st.strength(uid) <= 0:
        return f"{uid} has no attack strength"
    d = st.distance(st.us[uid].where, p.cell)
    if d > st.unit_range(uid):
        return f"{pid} is {d} hexes away, beyond {uid}'s range of {st.unit_range(uid)}"
    return f"{uid} cannot attack {pid} across that hexside (Terrain Defense Table: prohibited)"


def _why_not_attack(st: LandingTableState, d: Decision, action: Action) -> str | None:
    if not isinstance(action, Join):
        return None
    return (
        f"{action.unit} cannot join the attack on {st.ctx['target']}: it must not have "
        "had its orders yet, be undisrupted and in range, and at most three units attack"
    )


def _why_not_attrition(st: LandingTableState, d: Decision, action: Action) -> str | None:
    if not isinstance(action, Attrition):
        return None
    able = ", ".join(d["units"])
    return f"only a unit that attacked from next to {st.ctx['target']} may give a step ({able})"


#: Why an action is not legal, by the kind of decision awaited (None: the generic reason).
WHY_NOT: dict[str, Callable[[LandingTableState, Decision, Action], str | None]] = {
    "land": _why_not_land,
    "drift": _why_not_drift,
    "follow": _why_not_follow,
    "hit": _why_not_hit,
    "orders": _why_not_orders,
    "attack": _why_not_attack,
    "attrition": _why_not_attrition,
}


#: The prompt of each kind of decision.
PROMPTS: dict[str, Callable[[LandingTableState, Decision], str]] = {
    "land": _land_prompt,
    "drift": _drift_prompt,
    "follow": _follow_prompt,
    "hit": _hit_prompt,
    "orders": _orders_prompt,
    "attack": _attack_prompt,
    "attrition": _attrition_prompt,
}
