"""LnL Omaha bots: random, the solitaire German, and a heuristic American.

``SolitaireGerman`` follows the published solitaire guidelines (LnL Omaha:
Solitaire Game): the Germans set up in the best positions along the beach (a
shipped plan manning the eight fortifications); they do not move unless a card
says so (Quick Reaction, German Panzers), except reinforcements, which enter and
move to the best counter; each German hex fires at the nearest American unit in
printed range with its whole company, ties going to the hex with the most
American HE; close assaults only at 3-1 or better; no advance after an assault
except onto a victory hex. Where the guidelines are silent (opportunity fire,
losses, retreats, air strikes) it uses common sense, as the rules ask.
Reading: in the bonus scenario the German counterattack moves freely (its
movement cards are removed there, so it could not move otherwise).

``HeuristicUS`` lands, suppresses the fortifications with tanks, machineguns and
naval gunfire, pushes the infantry through the draws (the Rangers over the
bluffs) to the victory hexes, assaults at 2-1 or better and advances.

Both keep their own random generator and never touch the state's dice; asked to
decide for the other side they raise :class:`omaha.IllegalAction`.
"""

from __future__ import annotations

from omaha.kernel.actions import Action
from omaha.kernel.protocol import RandomBot
from omaha.lnl import rules
from omaha.lnl.actions import (
    Advance,
    Assault,
    Drop,
    EndPhase,
    Enter,
    Move,
    Pass,
    Place,
    Stay,
    Step,
    Stop,
    Strike,
    With,
)
from omaha.lnl.botbase import (
    BotBase,
    Plan,
    best_assault_group,
    build_attack,
    field,
    frt_value,
    graph,
    move_class,
    refusal_key,
)
from omaha.lnl.core import Attack
from omaha.lnl.state import LnlState


class LnlRandomBot(RandomBot):
    """Uniform among the legal actions, with its own dice (the kernel's random bot)."""


# ----------------------------------------------------------------------------
# The solitaire German
# ----------------------------------------------------------------------------
class SolitaireGerman(BotBase):
    """The German side by the published solitaire guidelines (see the module docstring)."""

    side = "German"
    #: Opportunity fire only at the 6 column or better (reading in the module docstring).
    opp_fire_min_column = 2

    # -- set-up ----------------------------------------------------------------
    def place(self, state: LnlState) -> Action:
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
    def filter_group(self, state: LnlState, group: list[int], target: int) -> list[int]:
        """No fire beyond the printed range (LnL Omaha: Solitaire Game)."""
        kept = [x for x in group if state.reach(x, target) == 1]
        return kept if state.may_combine(kept) else kept[:1]

    def _nearest_target(self, state: LnlState, u: int) -> tuple[int, int] | None:
        """(distance, -US HE) of the nearest US hex in printed range, or None."""
        best: tuple[int, int, int] | None = None
        for c in state.enemy_cells("German"):
            if state.reach(u, c) != 1:
                continue
            he = sum(state.he(x) for x in state.at(c))
            key = (state.T.dist[state.loc[u]][c], -he, c)
            if best is None or key < best:
                best = key
        return None if best is None else (best[2], best[0])

    def plan_for(self, state: LnlState, first: int) -> Plan | None:
        """Fire at the nearest American unit in printed range with the whole company."""
        found = self._nearest_target(state, first)
        if found is None:
            return None
        target = found[0]
        best: Plan | None = None
        for kind in ("hard", "soft"):
            for g in state.feasible_groups("German", target, kind, "fire", None):
                if first not in g:
                    continue
                g2 = self.filter_group(state, g, target)
                if first not in g2:
                    continue
                probe = Attack("German", "fire", g2, target, kind, bonus=state.bonus["German"])
                col = state.column(probe)
                if col is None:
                    continue
                score = frt_value(col, state.targets_in("German", target, kind, None), state)
                if best is None or score > best.score:
                    g2 = [first] + [x for x in g2 if x != first]
                    best = Plan(first, target, kind, tuple(g2), bonus=True, score=score)
        return best

    def fire(self, state: LnlState) -> Action:
        """Hex by hex (in map order), each German hex fires at its nearest target."""
        cells = sorted({state.loc[u] for u in state.units_of("German")})
        for c in cells:
            for u in state.at(c):
                if not state.can_fire(u) or refusal_key(state, state.uid(u)) in self._refused:
                    continue
                plan = self.plan_for(state, u)
                if plan is not None:
                    return build_attack(state, plan)
        return EndPhase()

    # -- movement --------------------------------------------------------------
    def may_move(self, state: LnlState, u: int) -> bool:
        """Solitaire Germans stay put unless a card lets them move."""
        if state.scen.german_moves_freely or "all" in state.perms:
            return True
        return "armor" in state.perms and state.u(u).armor_unit

    def goal(self, state: LnlState, u: int, here: int | None = None) -> int:
        """The victory hex that best counters the Americans (LnL Omaha: Solitaire Game).

        First a hex the Americans took and left empty (to take it back), then a hex
        still German but threatened (American units within four hexes) and not yet
        held by a German unit, then the nearest; ties by cost of the way there.
        """
        us = [state.loc[x] for x in state.units_of("US")]
        cls = move_class(state, u)
        if here is None:
            here = state.loc[u]
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

    def move(self, state: LnlState) -> Action:
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
                    and not state.T.fort[state.loc[u]]
                    and refusal_key(state, a.unit) not in self._refused
                    and self._next_step(state, [u], state.loc[u]) is not None
                ):
                    return a
        return EndPhase()

    def _next_step(self, state: LnlState, units: list[int], here: int) -> int | None:
        u = units[0]
        goal = self.goal(state, u, here)
        if here == goal:
            return None
        dist = field(state, move_class(state, u), goal)
        g = state.group
        steps = state.group_steps(g) if g is not None else list(state.T.neighbours[here])
        best = None
        for n in steps:
            if state.enemy_at(n, "German"):
                continue
            d = dist.get(n)
            if d is not None and d < dist.get(here, 999) and (best is None or (d, n) < best):
                best = (d, n)
        return None if best is None else best[1]

    def step(self, state: LnlState) -> Action:
        g = state.group
        assert g is not None
        n = self._next_step(state, g.units, g.cell)
        if n is None:
            self._refused.add(refusal_key(state, state.uid(g.units[0])))
            return Stop()
        return Step(state.label(n))

    # -- close assault -----------------------------------------------------------
    def assault(self, state: LnlState) -> Action:
        """Only at 3-1 or better (LnL Omaha: Solitaire Game)."""
        for a in state.legal_actions():
            if not isinstance(a, Assault):
                continue
            c = state.cell_of(a.hex)
            col, group = best_assault_group(state, "German", c)
            if col is None:
                continue
            att, dfn, _ = state.assault_numbers(group, c)
            pos = rules.cat_position(att, dfn)
            if pos is not None and pos >= 3:
                return a
        return EndPhase()

    def advance(self, state: LnlState) -> Action:
        """Advance only to take a victory hex (LnL Omaha: Solitaire Game)."""
        adv = state.advance
        assert adv is not None
        if adv.cell in state.scen.victory_points and state.control[adv.cell] != "German":
            for a in state.legal_actions():
                if isinstance(a, Advance):
                    return a
        return Stay()

    def strike(self, state: LnlState) -> Action:
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
    def place(self, state: LnlState) -> Action:
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
    def goal(self, state: LnlState, u: int, at: int | None = -1) -> int:
        """The nearest victory hex the US does not hold (all held: the most threatened)."""
        here = state.loc[u] if at == -1 else at
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

    def route(self, state: LnlState, u: int, here: int) -> list[int] | None:
        """Cheapest path to the goal around enemy hexes (ending next to an enemy goal)."""
        goal = self.goal(state, u, here)
        enemies = {state.loc[x] for x in state.units_of("German")}
        blocked = enemies - {goal}
        path = graph(state, move_class(state, u)).path(here, goal, blocked=blocked)
        if path is None:
            return None
        if goal in enemies:
            path = path[:-1]
        return list(path)

    def will_move(self, state: LnlState, u: int) -> bool:
        """Whether a unit has ground to gain this turn (else it fires)."""
        if not state.movable(u):
            return False
        here = state.loc[u]
        if any(state.T.dist[here][state.loc[x]] == 1 for x in state.units_of("German")):
            return False  # in contact: fire or assault instead
        path = self.route(state, u, here)
        return path is not None and len(path) > 1 and state.first_steps(u)

    def fire_role(self, state: LnlState, u: int) -> bool:
        """Tanks and machineguns fire; riflemen fire when they cannot advance or assault."""
        t = state.u(u).type
        if t.kind == "armor" or t.kind == "gun" or (t.range >= 6 and t.kind == "infantry"):
            return True
        if self.will_move(state, u):
            return False
        here = state.loc[u]
        for c in state.enemy_cells("US"):
            if state.T.dist[here][c] == 1 and state.assault_eligible(u, "US"):
                col = state.best_assault("US", c)
                if col is not None and col >= 2:
                    return False  # hold fire for the assault
        return True

    def filter_group(self, state: LnlState, group: list[int], target: int) -> list[int]:
        kept = [x for x in group if self.fire_role(state, x)]
        return kept if state.may_combine(kept) else kept[:1]

    def priority(self, state: LnlState, c: int) -> float:
        p = 1.0
        if state.T.fort[c]:
            p += 1.0
        if c in state.scen.victory_points or state.scen.board.prop(c, "exit"):
            p += 1.0
        us = [state.loc[x] for x in state.units_of("US")]
        if any(state.T.dist[c][x] == 1 for x in us):
            p += 1.0
        if any(state.u(x).type.ap[0] >= 12 for x in state.at(c)):
            p += 1.0
        return p

    # -- fire ------------------------------------------------------------------
    def attack_plans(self, state: LnlState) -> list[Plan]:
        plans: list[Plan] = []
        for (c, kind), groups in sorted(state.fire_plan("US").items()):
            for g in groups:
                g2 = self.filter_group(state, g, c)
                if not g2 or refusal_key(state, state.uid(g2[0])) in self._refused:
                    continue
                probe = Attack("US", "fire", g2, c, kind)
                targets = state.targets_in("US", c, kind, None)
                best: Plan | None = None
                for k in range(0, min(2, state.ngfs_left) + 1):
                    if k and kind == "hard":
                        break
                    probe.ngfs = k
                    col = state.column(probe)
                    if col is None:
                        continue
                    score = frt_value(col, targets, state) * self.priority(state, c) - 0.6 * k
                    if best is None or score > best.score:
                        best = Plan(g2[0], c, kind, tuple(g2), ngfs=k, bonus=True, score=score)
                if best is not None:
                    plans.append(best)
        plans.sort(key=lambda p: (-p.score, p.target, p.kind))
        return plans

    def plan_for(self, state: LnlState, first: int) -> Plan | None:
        for p in self.attack_plans(state):
            if p.first == first:
                return p
        return None

    def ngfs_for(self, state: LnlState, a: Attack) -> int:
        if a.kind == "hard":
            return 0
        for p in self.attack_plans(state):
            if p.target == a.target and p.kind == a.kind:
                return p.ngfs
        return 0

    def bombard_plan(self, state: LnlState, target: int) -> Plan:
        packets = 2 if state.ngfs_left >= 2 else state.ngfs_left
        return Plan(-1, target, "both", (), ngfs=packets)

    def fire(self, state: LnlState) -> Action:
        plans = self.attack_plans(state)
        if plans and plans[0].score > 0.15:
            return build_attack(state, plans[0])
        if state.ngfs_left > 0:
            best: tuple[float, int] | None = None
            packets = min(2, state.ngfs_left)
            for c in state.enemy_cells("US"):
                col = state.bombard_column(c, packets, False)
                if col is None:
                    continue
                score = frt_value(col, list(state.at(c)), state, True) * self.priority(state, c)
                if best is None or score > best[0]:
                    best = (score, c)
            if best is not None:
                return build_attack(state, self.bombard_plan(state, best[1]))
        return EndPhase()

    # -- movement ----------------------------------------------------------------
    def move(self, state: LnlState) -> Action:
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

    def step(self, state: LnlState) -> Action:
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
    def assault(self, state: LnlState) -> Action:
        best: tuple[int, str] | None = None
        for a in state.legal_actions():
            if isinstance(a, Assault):
                col = state.best_assault("US", state.cell_of(a.hex))
                if col is not None and col >= 2 and (best is None or (-col, a.hex) < best):
                    best = (-col, a.hex)
        if best is not None:
            return Assault(best[1])
        return EndPhase()

    def advance(self, state: LnlState) -> Action:
        for a in state.legal_actions():
            if isinstance(a, Advance):
                return a
        return Stay()

    def strike(self, state: LnlState) -> Action:
        opts = [a for a in state.legal_actions() if isinstance(a, Strike)]
        if not opts:
            return Pass()
        return max(
            opts,
            key=lambda a: (self.priority(state, state.cell_of(a.hex)), a.hex),
        )
