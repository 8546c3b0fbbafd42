"""LnL Omaha bots: random, the solitaire German, and a heuristic for each side.

``SolitaireGerman`` follows the published solitaire guidelines (LnL Omaha:
Solitaire Game): the Germans set up in the best positions along the beach (a
shipped plan manning the eight fortifications); they do not move unless a card
says so (Quick Reaction, German Panzers), except reinforcements, which enter and
move to the best counter; each German hex fires at the nearest American unit in
printed range with its whole company, ties going to the hex with the most
American HE; close assaults only at 3-1 or better; no advance after an assault
except onto a victory hex. Where the guidelines are silent (opportunity fire,
losses, retreats, air strikes) it uses common sense, as the rules ask (readings
R32 and R33 in READINGS.md).

``HeuristicUS`` lands, suppresses the fortifications with tanks, machineguns and
naval gunfire, pushes the infantry through the draws (the Rangers over the
bluffs) to the victory hexes, assaults at 2-1 or better and advances.

``HeuristicGerman`` plays the German side of the two-player game (reading R37):
each company fires where the expected worth of the FRT result on the most
valuable targets is highest, weak shots wait for opportunity fire, close assaults
are made at an expected gain on the CAT, and the units free to move take back and
garrison the victory hexes, all of them on the last turn. ``Heuristic`` plays
both sides with the two heuristics (the registry's ``heuristic``).

Both keep their own random generator and never touch the state's dice; they
read the state through its fields and the procedures' queries (fire groups,
assault groups, movement costs). Asked to decide for the other side they raise
:class:`omaha.IllegalAction`.

The module reads top down: shared helpers (plans, movement distance fields,
expected damage), :class:`BotBase` (the decisions both sides make alike), then
each policy: random, the solitaire German, the heuristic American, the heuristic
German, and both heuristics together.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.dice import RandomDice
from omaha.kernel.movement import MovementGraph
from omaha.kernel.protocol import RandomBot, SideBots, State
from omaha.lnl import rules
from omaha.lnl.actions import (
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
    Lose,
    Move,
    OpFire,
    Pass,
    Place,
    Resolve,
    Retreat,
    Stay,
    Step,
    Stop,
    Strike,
    Target,
    With,
)
from omaha.lnl.components.setups import setup_plan
from omaha.lnl.core import Attack, LnlCore, other
from omaha.lnl.procedures import assault, fire, movement, opportunity, placement


# ----------------------------------------------------------------------------
# Shared helpers
# ----------------------------------------------------------------------------
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


#: Pure results kept across games: movement graphs and distance fields per scenario
#: and class of unit, cheapest paths per (scenario, class, start, goal, blocked hexes).
_GRAPHS: dict[tuple[str, str], MovementGraph] = {}
_FIELDS: dict[tuple[str, str, int], dict[int, int]] = {}
_PATHS: dict[tuple[str, str, int, int, frozenset[int]], tuple[int, ...] | None] = {}
_PATHS_CAP = 100_000


def move_class(state: LnlCore, u: int) -> str:
    t = state.u(u).type
    if t.ranger:
        return "ranger"
    if t.kind == "armor":
        return "armor"
    if t.kind == "gun":
        return "gun"
    return "infantry"


def graph(state: LnlCore, cls: str) -> MovementGraph:
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


def cheapest_path(
    state: LnlCore, cls: str, start: int, goal: int, blocked: frozenset[int]
) -> tuple[int, ...] | None:
    """The cheapest way from ``start`` to ``goal`` around ``blocked`` (None: none)."""
    key = (state.scen.hash, cls, start, goal, blocked)
    if key in _PATHS:
        return _PATHS[key]
    if len(_PATHS) >= _PATHS_CAP:
        _PATHS.clear()
    path = _PATHS[key] = graph(state, cls).path(start, goal, blocked=blocked)
    return path


def field(state: LnlCore, cls: str, goal: int) -> dict[int, int]:
    key = (state.scen.hash, cls, goal)
    f = _FIELDS.get(key)
    if f is None:
        f = _FIELDS[key] = graph(state, cls).distance_field(goal)
    return f


def frt_value(col: int, targets: list[int], state: LnlCore, converted_hard: bool = False) -> float:
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


def unit_value(state: LnlCore, u: int) -> float:
    t = state.u(u).type
    return state.he(u) + state.ap(u) + state.ca(u) + 2 * t.armor + (4 if t.ranger else 0)


def build_attack(state: LnlCore, plan: Plan) -> Action:
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


# ----------------------------------------------------------------------------
# What both sides decide alike
# ----------------------------------------------------------------------------
class BotBase(ABC):
    """A one-sided LnL Omaha bot: dispatches each pending decision to its policy."""

    side = ""

    def __init__(self, seed: int = 0) -> None:
        self.rng = RandomDice(seed)
        self._refused: set[tuple[int, str, str, str]] = set()

    def choose(self, state: State[Any]) -> Action:
        if not isinstance(state, LnlCore):
            raise IllegalAction("this bot plays LnL Omaha only")
        player = state.current_player()
        if player is None:
            raise IllegalAction("the game is over")
        if player != self.side:
            raise IllegalAction(f"this bot plays the {self.side} side only, not {player}")
        legal = state.legal_actions()
        act = self.decide(state, state.decision_kind())
        if isinstance(act, Cancel) and state.attack is not None and state.attack.firers:
            # never try the same failing attack twice
            self._refused.add(refusal_key(state, state.uid(state.attack.firers[0])))
        if act in legal:
            return legal[legal.index(act)]  # the listed object: apply checks nothing again
        if isinstance(act, Deploy) and deploy_ok(state, act):
            return act
        return self.fallback(state, legal)

    def fallback(self, state: LnlCore, legal: tuple[Action, ...]) -> Action:
        for cls in (EndPhase, Stop, Pass, Stay, Cancel):
            for a in legal:
                if isinstance(a, cls):
                    return a
        return legal[self.rng.pick(len(legal))]

    #: Lowest FRT column position worth an opportunity fire (1 = the 3 column, 2 = the 6).
    opp_fire_min_column = 1

    def decide(self, state: LnlCore, kind: str) -> Action:
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

    def shipped_setup(self, state: LnlCore) -> Action | None:
        """At set-up, the side's shipped set-up plan as one action, if it is valid."""
        if state.current_phase != "setup":
            return None
        plan = setup_plan(state.scen.scenario_id, self.side)
        if plan is None:
            return None
        act = Deploy(plan)
        return act if deploy_ok(state, act) else None

    # -- each side's policy (the subclasses) ----------------------------------
    @abstractmethod
    def place(self, state: LnlCore) -> Action:
        """Where to place the next unit (or the whole set-up at once)."""

    @abstractmethod
    def advance(self, state: LnlCore) -> Action:
        """Whether (and who) to advance into the hex a close assault emptied."""

    @abstractmethod
    def strike(self, state: LnlCore) -> Action:
        """Which hex an air strike hits, or pass."""

    @abstractmethod
    def fire(self, state: LnlCore) -> Action:
        """The next attack of the fire phase, or end the phase."""

    @abstractmethod
    def step(self, state: LnlCore) -> Action:
        """The moving stack's next step (or stop)."""

    @abstractmethod
    def move(self, state: LnlCore) -> Action:
        """Which unit to move next, or end the movement phase."""

    @abstractmethod
    def assault(self, state: LnlCore) -> Action:
        """Which hex to close assault next, or end the phase."""

    # -- common decisions -----------------------------------------------------
    def lose(self, state: LnlCore) -> Action:
        """Spare units from elimination first, then the most valuable."""
        opts = [a for a in state.legal_actions() if isinstance(a, Lose)]

        def key(a: Lose) -> tuple[int, float, str]:
            u = state.unit_index(a.unit)
            return (-state.steps[u], unit_value(state, u), a.unit)

        return min(opts, key=key)

    def retreat(self, state: LnlCore) -> Action:
        opts = [a for a in state.legal_actions() if isinstance(a, Retreat)]
        enemies = [state.where[x] for x in state.units_of(other(self.side))]

        def key(a: Retreat) -> tuple[int, str]:
            c = state.cell_of(a.hex)
            near = min((state.T.dist[c][e] for e in enemies), default=99)
            return (-near, a.hex)

        return min(opts, key=key)

    def _opp_fire_groups(self, state: LnlCore) -> Iterator[tuple[list[int], str, int, float]]:
        """Every group it would fire at the moving stack with (LnL Omaha: Opportunity
        Fire): its units, the kind of target, the FRT column and that column's worth."""
        o = state.opp
        assert o is not None
        kinds = sorted({"hard" if state.u(x).hard else "soft" for x in o.movers})
        for kind in kinds:
            for g in fire.feasible_groups(state, o.side, o.cell, kind, "opp", o.movers):
                g2 = self.filter_group(state, g, o.cell)
                if not g2 or not fire.may_combine(state, g2):
                    continue
                probe = Attack(o.side, "opp", g2, o.cell, kind)
                col = fire.column(state, probe, o.movers)
                if col is None:
                    continue
                targets = fire.targets_in(state, o.side, o.cell, kind, o.movers)
                yield g2, kind, col, frt_value(col, targets, state)

    def opp_fire(self, state: LnlCore, min_col: int) -> Action:
        o = state.opp
        assert o is not None
        best: Plan | None = None
        for g2, kind, col, score in self._opp_fire_groups(state):
            if col >= min_col and (best is None or score > best.score):
                best = Plan(g2[0], o.cell, kind, tuple(g2), score=score)
        if best is None or refusal_key(state, state.uid(best.first)) in self._refused:
            return Pass()
        return OpFire(state.uid(best.first), best.kind)

    def continue_attack(self, state: LnlCore) -> Action:
        """Put together the attack in progress: the whole legal group, then resolve."""
        a = state.attack
        assert a is not None
        if a.mode == "assault":
            legal = state.legal_actions()
            best = assault.best_group(state, a.side, a.target)[1]
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
        for g in fire.feasible_groups(state, a.side, a.target, a.kind, a.mode, movers):
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

    # -- the search agent's candidates ----------------------------------------------
    def ranked(self, state: State[Any]) -> list[Action]:
        """The legal actions best first, this bot's choice first (the search agent's
        paired candidates): then its runners-up by its own scores (``runners_up``), then
        the rest in listing order. It asks ``choose`` once, as a decision would."""
        first = self.choose(state)
        assert isinstance(state, LnlCore)
        legal = state.legal_actions()
        by_text = {str(a): a for a in legal}
        out, seen = [first], {str(first)}
        for a in self.runners_up(state, state.decision_kind()):
            text = str(a)
            if text in by_text and text not in seen:
                out.append(by_text[text])
                seen.add(text)
        out.extend(a for a in legal if str(a) not in seen)
        return out

    def runners_up(self, state: LnlCore, kind: str) -> list[Action]:
        """The actions this bot would weigh next after its choice, best first (read
        only: no refusal noted, no dice drawn); losses and retreats by its own keys."""
        legal = state.legal_actions()
        if kind == "loss":

            def spare(a: Lose) -> tuple[int, float, str]:
                u = state.unit_index(a.unit)
                return (-state.steps[u], unit_value(state, u), a.unit)

            losses = sorted((a for a in legal if isinstance(a, Lose)), key=spare)
            return list[Action](losses)
        if kind == "retreat":
            enemies = [state.where[x] for x in state.units_of(other(self.side))]

            def near(a: Retreat) -> tuple[int, str]:
                c = state.cell_of(a.hex)
                return (-min((state.T.dist[c][e] for e in enemies), default=99), a.hex)

            retreats = sorted((a for a in legal if isinstance(a, Retreat)), key=near)
            return list[Action](retreats)
        return []

    # -- hooks ------------------------------------------------------------------
    def filter_group(self, state: LnlCore, group: list[int], target: int) -> list[int]:
        return group

    def plan_for(self, state: LnlCore, first: int) -> Plan | None:
        return None

    def bombard_plan(self, state: LnlCore, target: int) -> Plan:
        return Plan(-1, target, "both", (), ngfs=min(2, state.ngfs_left))

    def ngfs_for(self, state: LnlCore, a: Attack) -> int:
        return 0


def step_towards(
    state: LnlCore, u: int, here: int, goal: int, barred: Callable[[int], bool]
) -> int | None:
    """The next hex on the way from ``here`` to ``goal`` for unit ``u`` (its group's steps
    when one is moving): the one nearest the goal by movement cost, not barred, nearer than
    ``here``; None when no step brings it nearer."""
    dist = field(state, move_class(state, u), goal)
    g = state.group
    steps = movement.group_steps(state, g) if g is not None else list(state.T.neighbours[here])
    best = None
    for n in steps:
        if barred(n):
            continue
        d = dist.get(n)
        if d is not None and d < dist.get(here, 999) and (best is None or (d, n) < best):
            best = (d, n)
    return None if best is None else best[1]


def refusal_key(state: LnlCore, uid: str) -> tuple[int, str, str, str]:
    return (state.turn, state.side, state.current_phase, uid)


def deploy_ok(state: LnlCore, act: Deploy) -> bool:
    try:
        placement.check_deploy(state, act)
    except IllegalAction:
        return False
    return True


# ----------------------------------------------------------------------------
# Random
# ----------------------------------------------------------------------------
class LnlRandomBot(RandomBot):
    """Uniform among the legal actions, with its own dice (the kernel's random bot)."""


# ----------------------------------------------------------------------------
# The solitaire German
# ----------------------------------------------------------------------------
class SolitaireGerman(BotBase):
    """The German side by the published solitaire guidelines (see the module docstring)."""

    side = "German"
    #: Opportunity fire only at the 6 column or better (reading R33, READINGS.md).
    opp_fire_min_column = 2

    # -- set-up ----------------------------------------------------------------
    def place(self, state: LnlCore) -> Action:
        shipped = self.shipped_setup(state)
        if shipped is not None:
            return shipped
        opts = [a for a in state.legal_actions() if isinstance(a, Place)]
        forts = [c for c in range(state.T.n) if state.T.fort[c]]

        def key(a: Place) -> tuple[int, int, str]:
            c = state.cell_of(a.hex)
            beach = min(
                (state.T.dist[c][x] for x in state.T.landing), default=0
            )  # closest to the waterline
            return (0 if c in forts and not state.at(c) else 1, beach, a.hex)

        return min(opts, key=key)

    # -- fire ------------------------------------------------------------------
    def filter_group(self, state: LnlCore, group: list[int], target: int) -> list[int]:
        """No fire beyond the printed range (LnL Omaha: Solitaire Game)."""
        kept = [x for x in group if fire.reach(state, x, target) == 1]
        return kept if fire.may_combine(state, kept) else kept[:1]

    def _nearest_target(self, state: LnlCore, u: int) -> tuple[int, int] | None:
        """(distance, -US HE) of the nearest US hex in printed range, or None."""
        best: tuple[int, int, int] | None = None
        for c in fire.enemy_cells(state, "German"):
            if fire.reach(state, u, c) != 1:
                continue
            he = sum(state.he(x) for x in state.at(c))
            key = (state.T.dist[state.where[u]][c], -he, c)
            if best is None or key < best:
                best = key
        return None if best is None else (best[2], best[0])

    def plan_for(self, state: LnlCore, first: int) -> Plan | None:
        """Fire at the nearest American unit in printed range with the whole company."""
        found = self._nearest_target(state, first)
        if found is None:
            return None
        target = found[0]
        best: Plan | None = None
        for kind in ("hard", "soft"):
            for g in fire.feasible_groups(state, "German", target, kind, "fire", None):
                if first not in g:
                    continue
                g2 = self.filter_group(state, g, target)
                if first not in g2:
                    continue
                probe = Attack("German", "fire", g2, target, kind, bonus=state.bonus["German"])
                col = fire.plan_column(state, probe)
                if col is None:
                    continue
                score = frt_value(col, fire.targets_in(state, "German", target, kind, None), state)
                if best is None or score > best.score:
                    g2 = [first] + [x for x in g2 if x != first]
                    best = Plan(first, target, kind, tuple(g2), bonus=True, score=score)
        return best

    def fire(self, state: LnlCore) -> Action:
        """Hex by hex (in map order), each German hex fires at its nearest target."""
        cells = sorted({state.where[u] for u in state.units_of("German")})
        for c in cells:
            for u in state.at(c):
                if not state.can_fire(u) or refusal_key(state, state.uid(u)) in self._refused:
                    continue
                plan = self.plan_for(state, u)
                if plan is not None:
                    return build_attack(state, plan)
        return EndPhase()

    # -- movement --------------------------------------------------------------
    def may_move(self, state: LnlCore, u: int) -> bool:
        """Solitaire Germans stay put unless a card lets them move (or the scenario
        lets them move freely: reading R32, READINGS.md)."""
        if state.scen.german_moves_freely or "all" in state.perms:
            return True
        return "armor" in state.perms and state.u(u).armor_unit

    def goal(self, state: LnlCore, u: int, here: int | None = None) -> int:
        """The victory hex that best counters the Americans (LnL Omaha: Solitaire Game).

        First a hex the Americans took and left empty (to take it back), then a hex
        still German but threatened (American units within four hexes) and not yet
        held by a German unit, then the nearest; ties by cost of the way there.
        """
        us = [state.where[x] for x in state.units_of("US")]
        cls = move_class(state, u)
        if here is None:
            here = state.where[u]
        best: tuple[int, int, int, int] | None = None
        for c in state.T.victory:
            occupant = state.side_at(c)
            threat = min((state.T.dist[c][x] for x in us), default=99)
            if state.control[c] == "US" and occupant != "US":
                rank = 0
            elif occupant == "" and threat <= 4:
                rank = 1
            else:
                rank = 2
            far = field(state, cls, c).get(here, 999) if here >= 0 else 0
            key = (rank, far, threat, c)
            if best is None or key < best:
                best = key
        assert best is not None
        return best[3]

    def move(self, state: LnlCore) -> Action:
        legal = state.legal_actions()
        enters = [a for a in legal if isinstance(a, Enter)]
        if enters:
            u = state.unit_index(enters[0].unit)
            mine = [a for a in enters if a.unit == enters[0].unit]
            cls = move_class(state, u)

            def cost(a: Enter) -> tuple[int, str]:
                c = state.cell_of(a.hex)
                return (field(state, cls, self.goal(state, u, c)).get(c, 999), a.hex)

            return min(mine, key=cost)
        for a in legal:
            if isinstance(a, Move):
                u = state.unit_index(a.unit)
                if (
                    self.may_move(state, u)
                    and not state.T.fort[state.where[u]]
                    and refusal_key(state, a.unit) not in self._refused
                    and self._next_step(state, [u], state.where[u]) is not None
                ):
                    return a
        return EndPhase()

    def _next_step(self, state: LnlCore, units: list[int], here: int) -> int | None:
        u = units[0]
        goal = self.goal(state, u, here)
        if here == goal:
            return None
        return step_towards(state, u, here, goal, lambda n: state.enemy_at(n, "German"))

    def step(self, state: LnlCore) -> Action:
        g = state.group
        assert g is not None
        n = self._next_step(state, g.units, g.cell)
        if n is None:
            self._refused.add(refusal_key(state, state.uid(g.units[0])))
            return Stop()
        return Step(state.label(n))

    # -- close assault -----------------------------------------------------------
    def assault(self, state: LnlCore) -> Action:
        """Only at 3-1 or better (LnL Omaha: Solitaire Game)."""
        for a in state.legal_actions():
            if not isinstance(a, Assault):
                continue
            c = state.cell_of(a.hex)
            col, group = assault.best_group(state, "German", c)
            if col is None:
                continue
            att, dfn, _ = assault.assault_numbers(state, group, c)
            pos = rules.cat_position(att, dfn)
            if pos is not None and pos >= 3:
                return a
        return EndPhase()

    def advance(self, state: LnlCore) -> Action:
        """Advance only to take a victory hex (LnL Omaha: Solitaire Game)."""
        adv = state.advance
        assert adv is not None
        if adv.cell in state.scen.victory_points and state.control[adv.cell] != "German":
            for a in state.legal_actions():
                if isinstance(a, Advance):
                    return a
        return Stay()

    def strike(self, state: LnlCore) -> Action:
        opts = [a for a in state.legal_actions() if isinstance(a, Strike)]
        if not opts:
            return Pass()

        def key(a: Strike) -> tuple[float, str]:
            c = state.cell_of(a.hex)
            return (-sum(state.he(x) + 2 * state.steps[x] for x in state.at(c)), a.hex)

        return min(opts, key=key)


# ----------------------------------------------------------------------------
# The heuristic American
# ----------------------------------------------------------------------------
class HeuristicUS(BotBase):
    """Land, suppress the defences, push through the draws to the victory hexes."""

    side = "US"
    opp_fire_min_column = 1

    # -- placement -------------------------------------------------------------
    def place(self, state: LnlCore) -> Action:
        shipped = self.shipped_setup(state)
        if shipped is not None:
            return shipped
        opts = [a for a in state.legal_actions() if isinstance(a, Place)]
        u = state.place_queue[0]
        goal = self.goal(state, u, at=None)
        cls = move_class(state, u)
        dist = field(state, cls, goal)

        def key(a: Place) -> tuple[int, str]:
            return (dist.get(state.cell_of(a.hex), 999), a.hex)

        return min(opts, key=key)

    # -- objectives --------------------------------------------------------------
    def goal(self, state: LnlCore, u: int, at: int | None = -1) -> int:
        """The nearest victory hex the US does not hold (all held: the most threatened)."""
        here = state.where[u] if at == -1 else at
        cls = move_class(state, u)
        open_ = [c for c in state.T.victory if state.control[c] != "US"]
        pool = open_ or list(state.T.victory)
        best: tuple[int, int] | None = None
        for c in pool:
            d = field(state, cls, c).get(here, 999) if here is not None and here >= 0 else 0
            if here is None:
                d = min((field(state, cls, c).get(x, 999) for x in state.T.landing), default=999)
            if best is None or (d, c) < best:
                best = (d, c)
        assert best is not None
        return best[1]

    def route(self, state: LnlCore, u: int, here: int) -> list[int] | None:
        """Cheapest path to the goal around enemy hexes (ending next to an enemy goal)."""
        path = state.cached(("heuristic US", "route", u, here), lambda: self._route(state, u, here))
        return None if path is None else list(path)

    def _route(self, state: LnlCore, u: int, here: int) -> list[int] | None:
        goal = self.goal(state, u, here)
        enemies = {state.where[x] for x in state.units_of("German")}
        blocked = frozenset(enemies - {goal})
        path = cheapest_path(state, move_class(state, u), here, goal, blocked)
        if path is None:
            return None
        if goal in enemies:
            path = path[:-1]
        return list(path)

    def will_move(self, state: LnlCore, u: int) -> bool:
        """Whether a unit has ground to gain this turn (else it fires)."""
        return state.cached(("heuristic US", "will move", u), lambda: self._will_move(state, u))

    def _will_move(self, state: LnlCore, u: int) -> bool:
        if not movement.movable(state, u):
            return False
        here = state.where[u]
        if any(state.T.dist[here][state.where[x]] == 1 for x in state.units_of("German")):
            return False  # in contact: fire or assault instead
        path = self.route(state, u, here)
        return path is not None and len(path) > 1 and movement.first_steps(state, u)

    def fire_role(self, state: LnlCore, u: int) -> bool:
        """Tanks and machineguns fire; riflemen fire when they cannot advance or assault."""
        return state.cached(("heuristic US", "fire role", u), lambda: self._fire_role(state, u))

    def _fire_role(self, state: LnlCore, u: int) -> bool:
        t = state.u(u).type
        if t.kind == "armor" or t.kind == "gun" or (t.range >= 6 and t.kind == "infantry"):
            return True
        if self.will_move(state, u):
            return False
        here = state.where[u]
        for c in fire.enemy_cells(state, "US"):
            if state.T.dist[here][c] == 1 and assault.assault_eligible(state, u, "US"):
                col = assault.best_assault(state, "US", c)
                if col is not None and col >= 2:
                    return False  # hold fire for the assault
        return True

    def filter_group(self, state: LnlCore, group: list[int], target: int) -> list[int]:
        kept = [x for x in group if self.fire_role(state, x)]
        return kept if fire.may_combine(state, kept) else kept[:1]

    def priority(self, state: LnlCore, c: int) -> float:
        p = 1.0
        if state.T.fort[c]:
            p += 1.0
        if c in state.scen.victory_points or state.scen.board.prop(c, "exit"):
            p += 1.0
        us = [state.where[x] for x in state.units_of("US")]
        if any(state.T.dist[c][x] == 1 for x in us):
            p += 1.0
        if any(state.u(x).type.ap[0] >= 12 for x in state.at(c)):
            p += 1.0
        return p

    # -- fire ------------------------------------------------------------------
    def attack_plans(self, state: LnlCore) -> list[Plan]:
        """The attacks worth making, best first (none led by a unit refused this phase)."""
        plans = state.cached(("heuristic US", "attack plans"), lambda: self._attack_plans(state))
        return [p for p in plans if refusal_key(state, state.uid(p.first)) not in self._refused]

    def _attack_plans(self, state: LnlCore) -> list[Plan]:
        plans: list[Plan] = []
        for (c, kind), groups in sorted(fire.fire_plan(state, "US").items()):
            targets = fire.targets_in(state, "US", c, kind, None)
            priority = self.priority(state, c)
            values: dict[int, float] = {}  # expected damage by FRT column
            for g in groups:
                g2 = self.filter_group(state, g, c)
                if not g2:
                    continue
                probe = Attack("US", "fire", g2, c, kind)
                best: Plan | None = None
                for k in range(0, min(2, state.ngfs_left) + 1):
                    if k and kind == "hard":
                        break
                    probe.ngfs = k
                    col = fire.plan_column(state, probe)
                    if col is None:
                        continue
                    value = values.get(col)
                    if value is None:
                        value = values[col] = frt_value(col, targets, state)
                    score = value * priority - 0.6 * k
                    if best is None or score > best.score:
                        best = Plan(g2[0], c, kind, tuple(g2), ngfs=k, bonus=True, score=score)
                if best is not None:
                    plans.append(best)
        plans.sort(key=lambda p: (-p.score, p.target, p.kind))
        return plans

    def plan_for(self, state: LnlCore, first: int) -> Plan | None:
        for p in self.attack_plans(state):
            if p.first == first:
                return p
        return None

    def ngfs_for(self, state: LnlCore, a: Attack) -> int:
        if a.kind == "hard":
            return 0
        for p in self.attack_plans(state):
            if p.target == a.target and p.kind == a.kind:
                return p.ngfs
        return 0

    def bombard_plan(self, state: LnlCore, target: int) -> Plan:
        packets = 2 if state.ngfs_left >= 2 else state.ngfs_left
        return Plan(-1, target, "both", (), ngfs=packets)

    def fire(self, state: LnlCore) -> Action:
        plans = self.attack_plans(state)
        if plans and plans[0].score > 0.15:
            return build_attack(state, plans[0])
        if state.ngfs_left > 0:
            best: tuple[float, int] | None = None
            packets = min(2, state.ngfs_left)
            for c in fire.enemy_cells(state, "US"):
                col = fire.bombard_column(state, c, packets, False)
                if col is None:
                    continue
                score = frt_value(col, list(state.at(c)), state, True) * self.priority(state, c)
                if best is None or score > best[0]:
                    best = (score, c)
            if best is not None:
                return build_attack(state, self.bombard_plan(state, best[1]))
        return EndPhase()

    # -- movement ----------------------------------------------------------------
    def move(self, state: LnlCore) -> Action:
        legal = state.legal_actions()
        movers = [a for a in legal if isinstance(a, Move)]
        order = sorted(
            movers,
            key=lambda a: (
                0 if state.u(state.unit_index(a.unit)).type.engineer else 1,
                a.unit,
            ),
        )
        for a in reversed(order):  # engineers last: they follow the riflemen
            u = state.unit_index(a.unit)
            if refusal_key(state, a.unit) in self._refused:
                continue
            if self.will_move(state, u):
                return a
        return EndPhase()

    def step(self, state: LnlCore) -> Action:
        g = state.group
        assert g is not None
        legal = state.legal_actions()
        if not g.stepped:
            # take along stack-mates of the same kind heading the same way
            lead = g.units[0]
            for a in legal:
                if isinstance(a, With):
                    x = state.unit_index(a.unit)
                    if move_class(state, x) == move_class(state, lead) and self.goal(
                        state, x
                    ) == self.goal(state, lead):
                        return a
        path = self.route(state, g.units[0], g.cell)
        if path and len(path) > 1:
            n = path[1]
            if Step(state.label(n)) in legal:
                return Step(state.label(n))
        if len(g.units) > 1:
            for a in legal:
                if isinstance(a, Drop):
                    return a
        self._refused.add(refusal_key(state, state.uid(g.units[0])))
        return Stop()

    # -- close assault ---------------------------------------------------------
    def assault(self, state: LnlCore) -> Action:
        best: tuple[int, str] | None = None
        for a in state.legal_actions():
            if isinstance(a, Assault):
                col = assault.best_assault(state, "US", state.cell_of(a.hex))
                if col is not None and col >= 2 and (best is None or (-col, a.hex) < best):
                    best = (-col, a.hex)
        if best is not None:
            return Assault(best[1])
        return EndPhase()

    def advance(self, state: LnlCore) -> Action:
        for a in state.legal_actions():
            if isinstance(a, Advance):
                return a
        return Stay()

    def strike(self, state: LnlCore) -> Action:
        opts = [a for a in state.legal_actions() if isinstance(a, Strike)]
        if not opts:
            return Pass()
        return max(
            opts,
            key=lambda a: (self.priority(state, state.cell_of(a.hex)), a.hex),
        )

    # -- the search agent's candidates ----------------------------------------------
    def runners_up(self, state: LnlCore, kind: str) -> list[Action]:
        """After its choice: the attacks it plans by their score (then the naval
        bombardments by theirs, then ending the phase); the other units it would move,
        in its order; a moving stack's steps by the distance left to its goal; the close
        assaults by column; the opportunity fires by their worth; the air strikes by
        priority; otherwise the common ranking (``BotBase.runners_up``)."""
        a = state.attack
        if kind == "opportunity fire":
            return self._opp_fire_options(state)
        if a is not None:
            if a.target < 0 and a.mode != "bombard" and a.firers:
                plans = [p for p in self.attack_plans(state) if p.first == a.firers[0]]
                return [*(Target(state.label(p.target), p.kind) for p in plans), Cancel()]
            return []
        if kind == "fire":
            return [*self._fire_options(state), EndPhase()]
        if kind == "move" and state.group is not None:
            return self._step_options(state)
        if kind == "move":
            return self._move_options(state)
        if kind == "assault":
            cols: list[tuple[int, str]] = []
            for act in state.legal_actions():
                if isinstance(act, Assault):
                    col = assault.best_assault(state, "US", state.cell_of(act.hex))
                    if col is not None:
                        cols.append((-col, act.hex))
            return [*(Assault(h) for _, h in sorted(cols)), EndPhase()]
        if kind == "air strike":
            opts = [act for act in state.legal_actions() if isinstance(act, Strike)]
            opts.sort(key=lambda x: (-self.priority(state, state.cell_of(x.hex)), x.hex))
            return [*opts, Pass()]
        return super().runners_up(state, kind)

    def _fire_options(self, state: LnlCore) -> list[Action]:
        """The first decision of each planned attack, best first, then the naval
        bombardments by their worth."""
        out: list[Action] = [build_attack(state, p) for p in self.attack_plans(state)]
        if state.ngfs_left > 0:
            packets = min(2, state.ngfs_left)
            scored: list[tuple[float, int]] = []
            for c in fire.enemy_cells(state, "US"):
                col = fire.bombard_column(state, c, packets, False)
                if col is not None:
                    worth = frt_value(col, list(state.at(c)), state, True) * self.priority(state, c)
                    scored.append((-worth, c))
            out += [Bombard(state.label(c)) for _, c in sorted(scored)]
        return out

    def _move_options(self, state: LnlCore) -> list[Action]:
        """The units it would move, in the order it takes them, then ending the phase."""
        movers = [a for a in state.legal_actions() if isinstance(a, Move)]
        order = sorted(
            movers,
            key=lambda a: (0 if state.u(state.unit_index(a.unit)).type.engineer else 1, a.unit),
        )
        out: list[Action] = [
            a
            for a in reversed(order)
            if refusal_key(state, a.unit) not in self._refused
            and self.will_move(state, state.unit_index(a.unit))
        ]
        return [*out, EndPhase()]

    def _step_options(self, state: LnlCore) -> list[Action]:
        """A moving stack's steps by the movement cost left to its goal, then stopping."""
        g = state.group
        assert g is not None
        lead = g.units[0]
        dist = field(state, move_class(state, lead), self.goal(state, lead, g.cell))
        steps = [a for a in state.legal_actions() if isinstance(a, Step)]
        steps.sort(key=lambda a: (dist.get(state.cell_of(a.hex), 999), a.hex))
        return [*steps, Stop()]

    def _opp_fire_options(self, state: LnlCore) -> list[Action]:
        """Every opportunity fire it would consider, by the worth of its best group."""
        best: dict[str, tuple[float, Action]] = {}
        for g2, kind, _, score in self._opp_fire_groups(state):
            act = OpFire(state.uid(g2[0]), kind)
            if str(act) not in best or score > best[str(act)][0]:
                best[str(act)] = (score, act)
        ranked = sorted(best.values(), key=lambda x: (-x[0], str(x[1])))
        return [*(act for _, act in ranked), Pass()]


# ----------------------------------------------------------------------------
# The heuristic German (the two-player game)
# ----------------------------------------------------------------------------
#: What an outcome is worth, in the weight of the unit it touches (a step lost
#: counts 1, a Disrupted marker on an undisrupted unit a third of that).
DISRUPT_WORTH = 1 / 3


def weight(state: LnlCore, u: int) -> float:
    """A unit's worth to its side, one step of a plain rifle platoon about 1.5."""
    return 1.0 + unit_value(state, u) / 10.0


def fire_worth(state: LnlCore, col: int, targets: list[int]) -> float:
    """Expected worth of an FRT column on ``targets`` (LnL Omaha: Fire Results Table).

    Each card value is taken as equally likely. A Disrupted result disrupts the
    undisrupted targets and costs the disrupted ones a step; a Loss n disrupts all
    and costs n steps, taken by the owner from the cheapest units first, one a unit
    before any loses two.
    """
    if not targets:
        return 0.0
    w = {x: weight(state, x) for x in targets}
    fresh = sum(w[x] for x in targets if not state.dis[x])
    shaken = sum(w[x] for x in targets if state.dis[x])
    firsts = sorted(w[x] for x in targets if state.steps[x] >= 1)
    ladder = firsts + sorted(w[x] for x in targets if state.steps[x] >= 2)
    total = 0.0
    for card in range(1, 7):
        res = rules.frt_result(card, col)
        if res == "D":
            total += DISRUPT_WORTH * fresh + shaken
        elif res.startswith("L"):
            total += DISRUPT_WORTH * fresh + sum(ladder[: rules.loss_steps(res)])
    return total / 6.0


def assault_worth(state: LnlCore, group: list[int], target: int, col: int) -> float:
    """Expected gain of a close assault at CAT column ``col``.

    LnL Omaha: Close Assault Table, each card value equally likely: the defenders'
    steps lost (all of them on DElim, one each on DR) and the hex taken, against
    the attackers' (one each on AR, all on AElim). A hex the assault empties is
    worth more when it is a victory hex, which the attackers may then advance into.
    """
    defenders = state.at(target)
    hex_worth = 3.0 if state.T.is_victory[target] else 0.5
    d_all = sum(weight(state, x) * state.steps[x] for x in defenders)
    d_one = sum(weight(state, x) for x in defenders)
    a_all = sum(weight(state, x) * state.steps[x] for x in group)
    a_one = sum(weight(state, x) for x in group)
    total = 0.0
    for card in range(1, 7):
        res = rules.cat_result(card, col)
        if res == "DElim":
            total += d_all + hex_worth
        elif res == "DR":
            total += d_one + hex_worth
        elif res == "AR":
            total -= a_one
        elif res == "AElim":
            total -= a_all
    return total / 6.0


class HeuristicGerman(BotBase):
    """Defend the beach as a two-player German: fire each company at the most
    valuable American hex it hits best (on the victory hexes, the draws, the
    landing hexes and next to German positions first), hold weak shots for
    opportunity fire, close assault where the expected trade favours it, take back
    and hold the victory hexes with the units free to move, and on the last turn
    run every such unit through the victory hexes left empty."""

    side = "German"
    #: Worth an attack of the fire phase must reach; weaker shots wait for the
    #: American movement phase, where they fire one column right at the movers.
    fire_min_worth = 0.5
    #: Worth an opportunity attack must reach.
    opp_min_worth = 0.4
    #: Expected gain a close assault must reach.
    assault_min_worth = 0.6
    #: Units a phase sent to close in on a victory hex the Americans stand on.
    assault_party = 4

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        #: The movement phase the goals are for, and the victory hex each unit that
        #: moved in it is heading for (dropped when another phase begins).
        self._phase: tuple[int, str, str] = (-1, "", "")
        self._goals: dict[int, int] = {}

    # -- set-up ----------------------------------------------------------------
    def place(self, state: LnlCore) -> Action:
        shipped = self.shipped_setup(state)
        if shipped is not None:
            return shipped
        opts = [a for a in state.legal_actions() if isinstance(a, Place)]

        def key(a: Place) -> tuple[int, int, str]:
            c = state.cell_of(a.hex)
            guarded = (state.T.fort[c] or state.T.is_victory[c]) and not state.at(c)
            beach = min((state.T.dist[c][x] for x in state.T.landing), default=0)
            return (0 if guarded else 1, beach, a.hex)

        return min(opts, key=key)

    # -- what matters where -------------------------------------------------------
    def last_turn(self, state: LnlCore) -> bool:
        return state.turn >= state.scen.turns

    def priority(self, state: LnlCore, c: int) -> float:
        """How much hitting Americans in hex ``c`` matters: on a victory hex or next
        to one, in a draw, caught on the landing hexes, or next to German units."""
        return state.cached(("heuristic German", "priority", c), lambda: self._priority(state, c))

    def _priority(self, state: LnlCore, c: int) -> float:
        T = state.T
        p = 1.0
        if T.is_victory[c]:
            p += 1.5
        elif any(T.is_victory[n] for n in T.neighbours[c]):
            p += 0.5
        if state.scen.board.prop(c, "exit"):
            p += 1.0
        if c in T.landing or T.terrain[c] == "beach":
            p += 0.5
        if any(state.side_at(n) == "German" for n in T.neighbours[c]):
            p += 1.0
        return p

    # -- fire ------------------------------------------------------------------
    def reserved(self, state: LnlCore, u: int) -> bool:
        """Kept from the fire phase: it will move, or close assault instead."""
        return state.cached(("heuristic German", "reserved", u), lambda: self._reserved(state, u))

    def _reserved(self, state: LnlCore, u: int) -> bool:
        if self.goal(state, u) is not None:
            return True
        t = state.u(u).type
        if t.kind != "infantry" or not assault.assault_eligible(state, u, "German"):
            return False
        here = state.where[u]
        for c in assault.assault_targets(state, "German"):
            gain = self.assault_gain(state, c)[0]
            if state.T.dist[here][c] == 1 and gain >= self.assault_min_worth:
                return True
        return False

    def filter_group(self, state: LnlCore, group: list[int], target: int) -> list[int]:
        if state.current_phase != "fire":
            return group
        kept = [x for x in group if not self.reserved(state, x)]
        return kept if fire.may_combine(state, kept) else kept[:1]

    def attack_plans(self, state: LnlCore) -> list[Plan]:
        """The fire phase's attacks, best first (none led by a unit refused this phase)."""
        plans = state.cached(("heuristic German", "plans"), lambda: self._attack_plans(state))
        return [p for p in plans if refusal_key(state, state.uid(p.first)) not in self._refused]

    def _attack_plans(self, state: LnlCore) -> list[Plan]:
        plans: list[Plan] = []
        bonus = state.bonus["German"]
        for (c, kind), groups in sorted(fire.fire_plan(state, "German").items()):
            targets = fire.targets_in(state, "German", c, kind, None)
            priority = self.priority(state, c)
            worth: dict[int, float] = {}  # fire_worth on these targets by FRT column
            for g in groups:
                g2 = self.filter_group(state, g, c)
                if not g2:
                    continue
                probe = Attack("German", "fire", g2, c, kind, bonus=bonus and kind != "hard")
                col = fire.plan_column(state, probe)
                if col is None:
                    continue
                w = worth.get(col)
                if w is None:
                    w = worth[col] = fire_worth(state, col, targets)
                score = w * priority
                plans.append(Plan(g2[0], c, kind, tuple(g2), bonus=True, score=score))
        plans.sort(key=lambda p: (-p.score, p.target, p.kind, p.group))
        return plans

    def plan_for(self, state: LnlCore, first: int) -> Plan | None:
        for p in self.attack_plans(state):
            if p.first == first or first in p.group:
                return Plan(first, p.target, p.kind, p.group, bonus=p.bonus, score=p.score)
        return None

    def fire(self, state: LnlCore) -> Action:
        plans = self.attack_plans(state)
        if plans and plans[0].score >= self.fire_min_worth:
            return build_attack(state, plans[0])
        return EndPhase()

    def opp_fire(self, state: LnlCore, min_col: int) -> Action:
        """Fire at the movers when the expected worth is high enough; movers coming
        onto a victory hex, a draw or next to German units count for more."""
        o = state.opp
        assert o is not None
        best: Plan | None = None
        priority = self.priority(state, o.cell)
        for kind in opportunity.mover_kinds(state, o.movers):
            targets = fire.targets_in(state, o.side, o.cell, kind, o.movers)
            for g in fire.feasible_groups(state, o.side, o.cell, kind, "opp", o.movers):
                probe = Attack(o.side, "opp", g, o.cell, kind)
                col = fire.column(state, probe, o.movers)
                if col is None:
                    continue
                score = fire_worth(state, col, targets) * priority
                if best is None or score > best.score:
                    best = Plan(g[0], o.cell, kind, tuple(g), score=score)
        if (
            best is None
            or best.score < self.opp_min_worth
            or refusal_key(state, state.uid(best.first)) in self._refused
        ):
            return Pass()
        return OpFire(state.uid(best.first), best.kind)

    def strike(self, state: LnlCore) -> Action:
        opts = [a for a in state.legal_actions() if isinstance(a, Strike)]
        if not opts:
            return Pass()

        def key(a: Strike) -> tuple[float, str]:
            c = state.cell_of(a.hex)
            worth = sum(weight(state, x) * state.steps[x] for x in state.at(c))
            return (-worth * self.priority(state, c), a.hex)

        return min(opts, key=key)

    # -- movement --------------------------------------------------------------
    def goal(self, state: LnlCore, u: int) -> int | None:
        """The victory hex ``u`` should go to this movement phase (None: stay).

        Units that cannot move, that stand on a victory hex or in a fortification
        stay, except on the last turn, when nothing can answer a move: then every
        unit free to move goes for a victory hex the Americans hold and left empty.
        The others go first for such a hex, then for an empty one the Americans
        threaten (within four hexes), then for the nearest empty one; each hex is
        claimed by one unit a phase. In the fire phase it is the hex the unit will go
        for in the movement phase (the units claiming in index order).
        """
        if state.side != "German":
            return None
        if state.current_phase == "fire":
            return self.fire_phase_goals(state).get(u)
        if state.current_phase != "move":
            return None
        mine = self.goals(state)
        if u in mine:
            return mine[u]
        return self._goal(state, u, list(mine.values()))

    def goals(self, state: LnlCore) -> dict[int, int]:
        """The goals claimed in this movement phase."""
        phase = (state.turn, state.side, state.current_phase)
        if phase != self._phase:
            self._phase, self._goals = phase, {}
        return self._goals

    def fire_phase_goals(self, state: LnlCore) -> dict[int, int]:
        """The goals the units free to move will take in the coming movement phase."""
        return state.cached(("heuristic German", "goals"), lambda: self._fire_phase_goals(state))

    def _fire_phase_goals(self, state: LnlCore) -> dict[int, int]:
        goals: dict[int, int] = {}
        for u in state.units_of("German"):
            g = self._goal(state, u, list(goals.values()))
            if g is not None:
                goals[u] = g
        return goals

    def _goal(self, state: LnlCore, u: int, claimed: list[int]) -> int | None:
        unit = state.u(u)
        if unit.mf <= 0 or state.where[u] < 0 or state.dis[u] or state.fired[u]:
            return None
        if state.placement_restricted(u) or (state.current_phase == "move" and state.moved[u]):
            return None
        here = state.where[u]
        last = self.last_turn(state)
        if not last and (state.T.is_victory[here] or state.T.fort[here]):
            return None
        cls = move_class(state, u)
        mf = unit.mf
        us = [state.where[x] for x in state.units_of("US")]
        best: tuple[int, int, int] | None = None
        for c in state.T.victory:
            held = state.side_at(c)
            if c == here or held == "German":
                continue
            if held == "US":
                # close in on it, a company's worth of units, to assault it
                if state.T.dist[here][c] == 1 or claimed.count(c) >= self.assault_party:
                    continue
            elif c in claimed:
                continue
            far = field(state, cls, c).get(here, 999)
            if far >= 999:
                continue
            if held == "US":
                rank = 3
            elif state.control[c] == "US":
                rank = 0
            elif min((state.T.dist[c][x] for x in us), default=99) <= 4:
                rank = 1
            else:
                rank = 2
            if last and (rank != 0 or far > mf):
                continue
            key = (rank, far, c)
            if best is None or key < best:
                best = key
        return None if best is None else best[2]

    def claim(self, state: LnlCore, u: int, goal: int) -> None:
        self.goals(state)[u] = goal

    def move(self, state: LnlCore) -> Action:
        legal = state.legal_actions()
        enters = [a for a in legal if isinstance(a, Enter)]
        if enters:
            u = state.unit_index(enters[0].unit)
            mine = [a for a in enters if a.unit == enters[0].unit]
            cls = move_class(state, u)
            goals = [c for c in state.T.victory if state.side_at(c) != "US"] or list(
                state.T.victory
            )

            def cost(a: Enter) -> tuple[int, str]:
                c = state.cell_of(a.hex)
                return (min(field(state, cls, g).get(c, 999) for g in goals), a.hex)

            return min(mine, key=cost)
        for a in legal:
            if isinstance(a, Move):
                u = state.unit_index(a.unit)
                if refusal_key(state, a.unit) in self._refused:
                    continue
                goal = self.goal(state, u)
                if goal is not None and self._next_step(state, u, state.where[u], goal) is not None:
                    self.claim(state, u, goal)
                    return a
        return EndPhase()

    def _next_step(self, state: LnlCore, u: int, here: int, goal: int) -> int | None:
        return step_towards(state, u, here, goal, lambda n: state.side_at(n) == "US")

    def step(self, state: LnlCore) -> Action:
        g = state.group
        assert g is not None
        u = g.units[0]
        mine = self.goals(state)
        goal = mine.get(u)
        if goal is not None and g.cell == goal:
            # taken: on to another empty victory hex the Americans hold, if any is near
            del mine[u]
            goal = self.goal(state, u) if self.last_turn(state) else None
            if goal is not None:
                self.claim(state, u, goal)
        n = None if goal is None else self._next_step(state, u, g.cell, goal)
        if n is None:
            self._refused.add(refusal_key(state, state.uid(u)))
            return Stop()
        return Step(state.label(n))

    # -- close assault ---------------------------------------------------------
    def assault_gain(self, state: LnlCore, c: int) -> tuple[float, int | None]:
        """(expected gain, CAT column) of the best close assault on hex ``c``."""
        col, group = assault.best_group(state, "German", c)
        if col is None:
            return (-99.0, None)
        return (assault_worth(state, group, c, col), col)

    def assault(self, state: LnlCore) -> Action:
        """The close assault with the best expected gain, if it is worth it."""
        best: tuple[float, str] | None = None
        for a in state.legal_actions():
            if isinstance(a, Assault):
                gain = self.assault_gain(state, state.cell_of(a.hex))[0]
                if gain >= self.assault_min_worth and (best is None or (-gain, a.hex) < best):
                    best = (-gain, a.hex)
        return Assault(best[1]) if best is not None else EndPhase()

    def advance(self, state: LnlCore) -> Action:
        """Into a victory hex or a fortification the assault emptied; else stay."""
        adv = state.advance
        assert adv is not None
        if state.T.is_victory[adv.cell] or state.T.fort[adv.cell]:
            for a in state.legal_actions():
                if isinstance(a, Advance):
                    return a
        return Stay()


# ----------------------------------------------------------------------------
# Both sides
# ----------------------------------------------------------------------------
class Heuristic(SideBots):
    """The heuristic players of both sides: the American lands and pushes through the
    draws to the victory hexes, the German shoots the most valuable targets, counter-
    assaults at good odds and takes back the victory hexes (``HeuristicUS``,
    ``HeuristicGerman``)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__({"US": HeuristicUS(seed), "German": HeuristicGerman(seed + 1)})

    def ranked(self, state: State[Any]) -> list[Action]:
        """The side to move's ranking (``BotBase.ranked``): its choice first."""
        player = state.current_player()
        if player is None:
            raise IllegalAction("the game is over")
        bot = self.bots[player]
        assert isinstance(bot, BotBase)
        return bot.ranked(state)
