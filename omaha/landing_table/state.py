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

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.view import Pending, View
from omaha.landing_table import view as views
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
from omaha.landing_table.procedures import attack, barrage, german, landing, orders, turn

Decision = dict[str, Any]


class LandingTableState(LandingTableCore):
    """A game of D-Day at Omaha Beach (the US player against the charts)."""

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
        return Pending(kind, "US", PROMPTS[kind](self, self.decision))

    def _legal_actions(self) -> Iterable[Action]:
        if self.decision is None:
            return []
        return LEGAL[str(self.decision["kind"])](self, self.decision)

    def _legal_actions_in_order(self) -> Sequence[Action]:
        """Sorted by notation as the kernel sorts them, by the notation each action
        was given once when it was made (:meth:`Lookup.action`)."""
        return sorted(self._legal_actions(), key=self.lookup.notation)

    def explain_illegal(self, action: Action) -> str:
        d = self.decision
        unit = getattr(action, "unit", None)
        if d is not None and d["kind"] == "land" and isinstance(action, Land):
            box = int(d["box"])
            hexes = " or ".join(self.scen.board.labels[c] for c in self.land_options(box))
            if action.unit != d["unit"]:
                return f"{d['unit']} is landing now, not {action.unit}"
            return (
                f"{action.hex} is not a hex of {self.scen.boxes[box - 1]} at {self.tide()} tide "
                f"(choose {hexes})"
            )
        if d is not None and d["kind"] == "hit" and isinstance(action, Hit):
            tied = ", ".join(d["units"])
            return f"{action.unit} is not among the units tied for this hit ({tied})"
        if d is not None and d["kind"] == "attack" and isinstance(action, Join):
            return (
                f"{action.unit} cannot join the attack on {self.ctx['target']}: it must not have "
                "had its orders yet, be undisrupted and in range, and at most three units attack"
            )
        if d is not None and d["kind"] == "orders" and unit is not None:
            current = str(d["unit"])
            if unit != current:
                return f"orders go unit by unit: it is {current}'s turn, not {unit}'s"
            s = self.us.get(unit)
            if s is not None and s.disrupted and isinstance(action, Attack | Barrage | Clear):
                return f"{unit} is disrupted: it may hold or move one hex only"
            if isinstance(action, Attack):
                return self._why_no_attack(unit, action.target)
            if isinstance(action, Move):
                return f"{unit} cannot reach {action.hex} this turn"
        return super().explain_illegal(action)

    def _why_no_attack(self, uid: str, pid: str) -> str:
        p = self.scen.pos_by_id.get(pid)
        if p is None:
            return f"{pid} is not a German position"
        if not self.occupied(pid):
            return f"no German unit holds {pid}"
        if pid in self.attacked:
            return f"{pid} has already been attacked this turn (one attack per position)"
        if self.strength(uid) <= 0:
            return f"{uid} has no attack strength"
        d = self.scen.board.distance(self.us[uid].where, p.cell)
        if d > self.unit_range(uid):
            return f"{pid} is {d} hexes away, beyond {uid}'s range of {self.unit_range(uid)}"
        return f"{uid} cannot attack {pid} across that hexside (Terrain Defense Table: prohibited)"

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
        return views.metrics(self)

    def view(self, player: str | None = None) -> View:
        return views.view(self, player)

    def _dump(self) -> dict[str, Any]:
        return views.dump(self)

    def _restore(self, data: dict[str, Any]) -> None:
        views.restore(self, data)

    def invariants(self) -> list[str]:
        return views.invariants(self)


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
    plan = attack.attack_plan(st)
    return (
        f"attack on {st.ctx['target']} by {', '.join(st.ctx['attackers'])} "
        f"({plan['attack']} vs {plan['defense']}): add units or resolve"
    )


def _attrition_prompt(st: LandingTableState, d: Decision) -> str:
    return f"optional attrition at {st.ctx['target']}: give a step to remove the depth marker?"


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
