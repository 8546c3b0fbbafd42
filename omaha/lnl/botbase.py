"""Shared machinery of the LnL Omaha bots: plans, paths, expected damage, the base bot.

Bots keep their own random generator and never touch the state's dice; they read
the state through its query methods (fire groups, assault groups, movement costs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.data import load_toml
from omaha.kernel.dice import RandomDice
from omaha.kernel.movement import MovementGraph
from omaha.kernel.protocol import State
from omaha.lnl import rules
from omaha.lnl.actions import (
    Add,
    AddBonus,
    AddNgfs,
    Bombard,
    Cancel,
    Deploy,
    EndPhase,
    FireWith,
    Lose,
    OpFire,
    Pass,
    Resolve,
    Retreat,
    Stay,
    Stop,
    Target,
)
from omaha.lnl.core import Attack, other
from omaha.lnl.scenario import DATA, LnlScenario
from omaha.lnl.state import LnlState

SETUPS = DATA / "setups"


@attrs.frozen
class Plan:
    """An attack a bot wants to make."""

    first: int  # -1 for an NGFS bombardment
    target: int
    kind: str
    group: tuple[int, ...]
    ngfs: int = 0
    bonus: bool = False
    score: float = 0.0


# ----------------------------------------------------------------------------
# Shared helpers
# ----------------------------------------------------------------------------
_GRAPHS: dict[tuple[str, str], MovementGraph] = {}
_FIELDS: dict[tuple[str, str, int], dict[int, int]] = {}


def move_class(state: LnlState, u: int) -> str:
    t = state.u(u).type
    if t.ranger:
        return "ranger"
    if t.kind == "armor":
        return "armor"
    if t.kind == "gun":
        return "gun"
    return "infantry"


def graph(state: LnlState, cls: str) -> MovementGraph:
    """Static movement costs of a class of unit (engineers and enemies ignored)."""
    key = (state.scen.hash, cls)
    g = _GRAPHS.get(key)
    if g is None:
        T = state.T
        far = state.scen.farmland_infantry_cost if cls in ("infantry", "ranger") else 2

        def cost(a: int, b: int) -> int | None:
            return rules.enter_cost(
                T.terrain[b],
                road_to_road=T.road[a] and T.road[b],
                crest=T.crest(a, b),
                ranger=cls == "ranger",
                armor=cls == "armor",
                engineers=False,
                farmland_infantry_cost=far,
            )

        g = _GRAPHS[key] = MovementGraph(state.scen.board, cost, cls)
    return g


def field(state: LnlState, cls: str, goal: int) -> dict[int, int]:
    key = (state.scen.hash, cls, goal)
    f = _FIELDS.get(key)
    if f is None:
        f = _FIELDS[key] = graph(state, cls).distance_field(goal)
    return f


def frt_value(col: int, targets: list[int], state: LnlState, converted_hard: bool = False) -> float:
    """Expected damage of an FRT column on these targets (card values uniform)."""
    if not targets:
        return 0.0
    undis = sum(1 for x in targets if not state.dis[x])
    dis = len(targets) - undis
    steps = sum(state.steps[x] for x in targets)
    ev = 0.0
    for card in range(1, 7):
        res = rules.frt_result(card, col)
        if res == "D" or (converted_hard and res.startswith("L")):
            ev += undis * 1.0 + dis * 3.0
        elif res.startswith("L"):
            ev += undis * 1.0 + 3.0 * min(rules.loss_steps(res), steps)
    return ev / 6.0


def unit_value(state: LnlState, u: int) -> float:
    t = state.u(u).type
    return state.he(u) + state.ap(u) + state.ca(u) + 2 * t.armor + (4 if t.ranger else 0)


def load_plan(scen: LnlScenario, side: str) -> tuple[str, ...] | None:
    """A shipped set-up plan (data/setups/<side>_<scenario>.toml) as deploy placements."""
    base = scen.id.split("+")[0]
    path: Path = SETUPS / f"{'german' if side == 'German' else 'us'}_{base}.toml"
    if not path.exists():
        return None
    node = load_toml(path)
    node.req("setup").source()
    return tuple(f"{uid}@{hx.as_str()}" for uid, hx in node.req("placements").items())


def build_attack(state: LnlState, plan: Plan) -> Action:
    """The next small decision that puts ``plan`` together, then resolves it."""
    legal = set(state.legal_actions())
    a = state.attack
    if a is None:
        if plan.first < 0:
            return Bombard(state.label(plan.target))
        return FireWith(state.uid(plan.first))
    if a.target < 0:
        act: Action = Target(state.label(plan.target), plan.kind)
        return act if act in legal else Cancel()
    for u in plan.group:
        if u not in a.firers and Add(state.uid(u)) in legal:
            return Add(state.uid(u))
    if a.ngfs < plan.ngfs and AddNgfs() in legal:
        return AddNgfs()
    if plan.bonus and AddBonus() in legal:
        return AddBonus()
    return Resolve() if Resolve() in legal else Cancel()


def best_assault_group(state: LnlState, side: str, cell: int) -> tuple[int | None, list[int]]:
    """The company group (with its stacked support) giving the best CAT column."""
    cands = state.assault_candidates(side, cell)
    best: tuple[int | None, list[int]] = (None, [])
    for company in sorted({state.u(x).company for x in cands}):
        cells = {state.loc[x] for x in cands if state.u(x).company == company}
        group = [
            x
            for x in cands
            if state.u(x).company == company or (state.u(x).type.support and state.loc[x] in cells)
        ]
        col = state.assault_column(group, cell)
        if col is not None and (best[0] is None or col > best[0]):
            best = (col, group)
    return best


class BotBase:
    side = ""

    def __init__(self, seed: int = 0) -> None:
        self.rng = RandomDice(seed)
        self._refused: set[tuple[int, str, str, str]] = set()

    def choose(self, state: State[Any]) -> Action:
        if not isinstance(state, LnlState):
            raise IllegalAction("this bot plays LnL Omaha only")
        pend = state.pending
        if pend is None:
            raise IllegalAction("the game is over")
        if pend.player != self.side:
            raise IllegalAction(f"this bot plays the {self.side} side only, not {pend.player}")
        legal = state.legal_actions()
        act = self.decide(state, pend.kind)
        if isinstance(act, Cancel) and state.attack is not None and state.attack.firers:
            # never try the same failing attack twice
            self._refused.add(refusal_key(state, state.uid(state.attack.firers[0])))
        if act in legal or (isinstance(act, Deploy) and deploy_ok(state, act)):
            return act
        return self.fallback(state, legal)

    def fallback(self, state: LnlState, legal: tuple[Action, ...]) -> Action:
        for cls in (EndPhase, Stop, Pass, Stay, Cancel):
            for a in legal:
                if isinstance(a, cls):
                    return a
        return legal[self.rng.pick(len(legal))]

    #: Lowest FRT column position worth an opportunity fire (1 = the 3 column, 2 = the 6).
    opp_fire_min_column = 1

    def decide(self, state: LnlState, kind: str) -> Action:
        """Dispatch the pending decision to the side's policy for it."""
        if kind == "place":
            return self.place(state)
        if kind == "loss":
            return self.lose(state)
        if kind == "retreat":
            return self.retreat(state)
        if kind == "advance":
            return self.advance(state)
        if kind == "air strike":
            return self.strike(state)
        if kind == "opportunity fire":
            return self.opp_fire(state, self.opp_fire_min_column)
        if state.attack is not None:
            return self.continue_attack(state)
        if kind == "fire":
            return self.fire(state)
        if kind == "move" and state.group is not None:
            return self.step(state)
        if kind == "move":
            return self.move(state)
        if kind == "assault":
            return self.assault(state)
        return EndPhase()

    def shipped_setup(self, state: LnlState) -> Action | None:
        """At set-up, the side's shipped set-up plan as one action, if it is valid."""
        if state.stage != "setup":
            return None
        plan = load_plan(state.scen, self.side)
        if plan is None:
            return None
        act = Deploy(plan)
        return act if deploy_ok(state, act) else None

    # -- each side's policy (the subclasses) ----------------------------------
    def place(self, state: LnlState) -> Action:
        raise NotImplementedError

    def advance(self, state: LnlState) -> Action:
        raise NotImplementedError

    def strike(self, state: LnlState) -> Action:
        raise NotImplementedError

    def fire(self, state: LnlState) -> Action:
        raise NotImplementedError

    def step(self, state: LnlState) -> Action:
        raise NotImplementedError

    def move(self, state: LnlState) -> Action:
        raise NotImplementedError

    def assault(self, state: LnlState) -> Action:
        raise NotImplementedError

    # -- common decisions -----------------------------------------------------
    def lose(self, state: LnlState) -> Action:
        """Spare units from elimination first, then the most valuable."""
        opts = [a for a in state.legal_actions() if isinstance(a, Lose)]

        def key(a: Lose) -> tuple[int, float, str]:
            u = state.unit_index(a.unit)
            return (-state.steps[u], unit_value(state, u), a.unit)

        return min(opts, key=key)

    def retreat(self, state: LnlState) -> Action:
        opts = [a for a in state.legal_actions() if isinstance(a, Retreat)]
        enemies = [state.loc[x] for x in state.units_of(other(self.side))]

        def key(a: Retreat) -> tuple[int, str]:
            c = state.cell_of(a.hex)
            near = min((state.T.dist[c][e] for e in enemies), default=99)
            return (-near, a.hex)

        return min(opts, key=key)

    def opp_fire(self, state: LnlState, min_col: int) -> Action:
        o = state.opp
        assert o is not None
        best: Plan | None = None
        kinds = sorted({"hard" if state.u(x).hard else "soft" for x in o.movers})
        for kind in kinds:
            for g in state.feasible_groups(o.side, o.cell, kind, "opp", o.movers):
                g2 = self.filter_group(state, g, o.cell)
                if not g2 or not state.may_combine(g2):
                    continue
                probe = Attack(o.side, "opp", g2, o.cell, kind)
                col = state.column(probe, o.movers)
                if col is None or col < min_col:
                    continue
                targets = state.targets_in(o.side, o.cell, kind, o.movers)
                score = frt_value(col, targets, state)
                if best is None or score > best.score:
                    best = Plan(g2[0], o.cell, kind, tuple(g2), score=score)
        if best is None or refusal_key(state, state.uid(best.first)) in self._refused:
            return Pass()
        return OpFire(state.uid(best.first), best.kind)

    def continue_attack(self, state: LnlState) -> Action:
        """Put together the attack in progress: the whole legal group, then resolve."""
        a = state.attack
        assert a is not None
        if a.mode == "assault":
            legal = state.legal_actions()
            best = best_assault_group(state, a.side, a.target)[1]
            for u in best:
                if u not in a.firers and Add(state.uid(u)) in legal:
                    return Add(state.uid(u))
            return Resolve() if Resolve() in legal else Cancel()
        movers = state.opp.movers if (a.mode == "opp" and state.opp is not None) else None
        if a.mode == "bombard":
            return build_attack(state, self.bombard_plan(state, a.target))
        if a.target < 0:
            plan = self.plan_for(state, a.firers[0])
            if plan is None:
                return Cancel()
            return build_attack(state, plan)
        wanted: tuple[int, ...] = ()
        for g in state.feasible_groups(a.side, a.target, a.kind, a.mode, movers):
            if a.firers[0] in g:
                wanted = tuple(self.filter_group(state, g, a.target))
                break
        plan = Plan(
            a.firers[0],
            a.target,
            a.kind,
            wanted,
            ngfs=self.ngfs_for(state, a),
            bonus=a.kind != "hard",
        )
        return build_attack(state, plan)

    # -- hooks ------------------------------------------------------------------
    def filter_group(self, state: LnlState, group: list[int], target: int) -> list[int]:
        return group

    def plan_for(self, state: LnlState, first: int) -> Plan | None:
        return None

    def bombard_plan(self, state: LnlState, target: int) -> Plan:
        return Plan(-1, target, "both", (), ngfs=min(2, state.ngfs_left))

    def ngfs_for(self, state: LnlState, a: Attack) -> int:
        return 0


def refusal_key(state: LnlState, uid: str) -> tuple[int, str, str, str]:
    return (state.turn, state.side, state.stage, uid)


def deploy_ok(state: LnlState, act: Deploy) -> bool:
    try:
        state.check_deploy(act)
    except IllegalAction:
        return False
    return True
