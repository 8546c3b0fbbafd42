"""LnL Omaha movement, reinforcements entering the map, and placement.

Movement (LnL Omaha: Movement, TEC, Special Units): a stack is selected unit by
unit among those that began the phase together, then stepped hex by hex; after
each hex entered the other side may fire once at it (see
:mod:`omaha.lnl.combat`). Units may be dropped off on the way.

Reading: units that began the phase in one hex and move separately may not enter
the same hex (the rules: those moving to the same hex must move together), so a
hex entered by one such group is closed to the others from that hex.
Reading: stacking holds at every hex entered, not only where a move ends.

Placement (LnL Omaha: Setting up the Game): set-up, the turn-3 landings and the
101st Airborne are placed one unit at a time; a whole set-up may be given at once
as a validated ``deploy`` plan.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.lnl import rules
from omaha.lnl.actions import Deploy, Drop, Enter, Move, Place, Step, Stop, With
from omaha.lnl.core import OFF, Core, MoveGroup


class MoveMixin(Core):
    # ------------------------------------------------------------------------
    # Costs
    # ------------------------------------------------------------------------
    def step_cost(self, u: int, a: int, b: int, engineers: bool) -> int | None:
        """Cost for unit ``u`` to enter ``b`` from ``a`` (-1: from off the map).

        Reading: a reinforcement entering a road hex from the map edge arrives along
        that road and pays the road cost (1).
        """
        T = self.T
        unit = self.scen.units[u]
        crest = a >= 0 and T.crest(a, b)
        return rules.enter_cost(
            T.terrain[b],
            road_to_road=T.road[b] and (a < 0 or T.road[a]),
            crest=crest,
            ranger=unit.type.ranger,
            armor=unit.armor_unit,
            engineers=engineers,
            farmland_infantry_cost=self.scen.farmland_infantry_cost if unit.infantry else 2,
        )

    def _engineers_help(self, units: list[int], b: int) -> bool:
        """Moving with engineers, or into a beach hex holding friendly engineers."""
        defs = self.scen.units
        if not self.T.beachlike[b]:
            return False
        if any(defs[x].type.engineer for x in units):
            return True
        side = defs[units[0]].side
        return any(defs[x].type.engineer and defs[x].side == side for x in self.at(b))

    # ------------------------------------------------------------------------
    # Selecting and stepping
    # ------------------------------------------------------------------------
    def movable(self, u: int) -> bool:
        """May start a move this phase (LnL Omaha: Outline of Play, Movement)."""
        unit = self.scen.units[u]
        if unit.side != self.side or self.loc[u] < 0 or unit.mf <= 0:
            return False
        if self.fired[u] or self.dis[u] or self.moved[u]:
            return False
        return not self.placement_restricted(u)

    def group_steps(self, g: MoveGroup) -> list[int]:
        """Hexes the whole group may enter next."""
        out = []
        T = self.T
        side = self.side
        closed = self.entered_by.get(g.start, {}) if g.start >= 0 else {}
        for n in T.neighbours[g.cell]:
            if not T.land[n] or self.enemy_at(n, side):
                continue
            if closed.get(n, g.serial) != g.serial:
                continue
            if not self.room_for(n, g.units):
                continue
            eng = self._engineers_help(g.units, n)
            ok = True
            for x in g.units:
                c = self.step_cost(x, g.cell, n, eng)
                if c is None or g.spent[x] + c > self.scen.units[x].mf:
                    ok = False
                    break
            if ok:
                out.append(n)
        return out

    def first_steps(self, u: int) -> bool:
        """Whether a unit alone could take at least one step now."""
        g = MoveGroup([u], self.loc[u], self.loc[u], {u: 0}, -1)
        g.serial = self.serial + 1
        return bool(self.group_steps(g))

    def move_options(self) -> Iterator[Action]:
        g = self.group
        assert g is not None
        yield Stop()
        if not g.stepped and g.start >= 0:
            for x in self.at(g.start):
                if x not in g.units and self.movable(x):
                    yield With(self.uid(x))
        if len(g.units) > 1:
            for x in g.units:
                yield Drop(self.uid(x))
        for n in self.group_steps(g):
            yield Step(self.label(n))

    def apply_move_action(self, action: Action) -> None:
        g = self.group
        assert g is not None
        if isinstance(action, With):
            u = self.unit_index(action.unit)
            g.units.append(u)
            g.units.sort()
            g.spent[u] = 0
        elif isinstance(action, Stop):
            self._end_group(list(g.units))
            self.group = None
        elif isinstance(action, Drop):
            u = self.unit_index(action.unit)
            g.units.remove(u)
            self._end_group([u])
        elif isinstance(action, Step):
            self._step(g, self.cell_of(action.hex))
        else:  # pragma: no cover
            raise IllegalAction(f"'{action}' is not a movement decision")

    def _end_group(self, units: list[int]) -> None:
        for x in units:
            self.moved[x] = True

    def _step(self, g: MoveGroup, n: int) -> None:
        eng = self._engineers_help(g.units, n)
        start = g.cell
        costs = []
        for x in g.units:
            c = self.step_cost(x, g.cell, n, eng)
            assert c is not None
            g.spent[x] += c
            costs.append(c)
            self.put(x, n)
        g.cell = n
        g.stepped = True
        if g.start >= 0:
            self.entered_by.setdefault(g.start, {})[n] = g.serial
        self.note(
            "lnl.move",
            "LnL Omaha: Movement",
            player=self.side,
            units=self._ids(g.units),
            start=self.label(start),
            end=self.label(n),
            cost=max(costs),
            left=min(self.scen.units[x].mf - g.spent[x] for x in g.units),
        )
        self.open_opp_window()

    def start_move(self, action: Move) -> None:
        u = self.unit_index(action.unit)
        self.serial += 1
        self.group = MoveGroup([u], self.loc[u], self.loc[u], {u: 0}, self.serial)

    # ------------------------------------------------------------------------
    # Reinforcements entering from the map edge
    # ------------------------------------------------------------------------
    def due_entries(self) -> list[int]:
        """Units of the phasing side due to enter this movement phase."""
        out = []
        for u, turn in sorted(self.due.items()):
            unit = self.scen.units[u]
            force = self.scen.forces[self.scen.force_of[u]]
            if (
                unit.side == self.side
                and turn <= self.turn
                and self.loc[u] == OFF
                and force.how == "edge"
            ):
                out.append(u)
        return out

    def entry_hexes(self, u: int) -> list[int]:
        force = self.scen.forces[self.scen.force_of[u]]
        side = self.scen.units[u].side
        out = []
        for c in force.cells:
            if self.enemy_at(c, side) or not self.room_for(c, [u]):
                continue
            cost = self.step_cost(u, -1, c, False)
            mf = max(self.scen.units[u].mf, 1)
            if cost is not None and cost <= mf:
                out.append(c)
        return out

    def enter_options(self) -> Iterator[Action]:
        for u in self.due_entries():
            for c in self.entry_hexes(u):
                yield Enter(self.uid(u), self.label(c))

    def apply_enter(self, action: Enter) -> None:
        """A reinforcement enters on an entry hex and may move on with what is left.

        LnL Omaha: Setting up the Game (the 916th AT at A6, A10 or A13; 2/916 on row
        A); bonus scenario ("on or within one hex of"). Reading: entering is the
        first step of the unit's move (it pays the hex's cost, and the other side
        may fire at it there); at most two enter a hex (stacking), and units that
        find no free entry hex wait for the next turn. A unit with no movement
        factor (a gun) may still be brought onto its entry hex.
        """
        u = self.unit_index(action.unit)
        c = self.cell_of(action.hex)
        cost = self.step_cost(u, -1, c, False)
        assert cost is not None
        self.serial += 1
        self.put(u, c)
        self.due.pop(u, None)
        mf = self.scen.units[u].mf
        self.group = MoveGroup([u], -1, c, {u: cost if mf > 0 else 0}, self.serial, True)
        self.note(
            "lnl.enter",
            "LnL Omaha: Setting up the Game",
            player=self.side,
            unit=action.unit,
            hex=action.hex,
        )
        if mf <= 0:
            self.moved[u] = True
        self.open_opp_window()
        if mf <= 0 and self.group is not None and self.opp is None:
            self.group = None

    # ------------------------------------------------------------------------
    # Placement: set-up, landings, the 101st
    # ------------------------------------------------------------------------
    def place_hexes(self, u: int) -> list[int]:
        """Legal hexes for the next unit to place, by how its force is placed."""
        unit = self.scen.units[u]
        force = self.scen.forces[self.scen.force_of[u]]
        side = unit.side
        T = self.T
        if force.how == "landing":
            # LnL Omaha: Setting up the Game: part ocean/beach next to the beach, one
            # unit a hex (engineers exempt). Reading: the turn-3 landings obey the same
            # limit, so a hex already holding a unit is not a valid entry hex.
            out = []
            for c in T.landing:
                if self.enemy_at(c, side):
                    continue
                if unit.type.engineer or self.stack_count(c) == 0:
                    out.append(c)
            return out
        if force.how == "free":
            cells: tuple[int, ...] = tuple(c for c in range(T.n) if T.land[c])
        else:
            cells = force.cells
        return [c for c in cells if not self.enemy_at(c, side) and self.room_for(c, [u])]

    def place_options(self) -> Iterator[Action]:
        u = self.place_queue[0]
        for c in self.place_hexes(u):
            yield Place(self.uid(u), self.label(c))

    def apply_place(self, action: Place) -> None:
        u = self.place_queue.pop(0)
        c = self.cell_of(action.hex)
        self.put(u, c)
        force = self.scen.forces[self.scen.force_of[u]]
        if force.how == "landing":
            self.placed[u] = max(self.turn, 1)
        self.due.pop(u, None)
        self.note(
            "lnl.place",
            "LnL Omaha: Setting up the Game",
            player=self.scen.units[u].side,
            unit=action.unit,
            hex=action.hex,
        )

    def check_deploy(self, action: Deploy) -> list[tuple[int, int]]:
        """Validate a whole set-up plan against the placing rules; returns the placements.

        The plan must place, in any order, exactly the units of the side now
        setting up that remain to be placed.
        """
        if self.stage != "setup" or not self.place_queue or self._busy_except_place():
            raise IllegalAction("a whole set-up can only be given during the set-up")
        side = self.scen.units[self.place_queue[0]].side
        todo = [x for x in self.place_queue if self.scen.units[x].side == side]
        plan: list[tuple[int, int]] = []
        seen: set[int] = set()
        for item in action.placements:
            if "@" not in item:
                raise IllegalAction(f"'{item}': a placement is written unit@hex")
            uid, hexlabel = item.split("@", 1)
            u = self.unit_index(uid)
            if u not in todo:
                raise IllegalAction(f"{uid} is not among the {side} units still to set up")
            if u in seen:
                raise IllegalAction(f"{uid} is placed twice")
            seen.add(u)
            plan.append((u, self.cell_of(hexlabel)))
        missing = [self.uid(x) for x in todo if x not in seen]
        if missing:
            raise IllegalAction(f"the plan does not place {', '.join(missing)}")
        scratch = copy.copy(self)
        scratch.occ = {c: list(xs) for c, xs in self.occ.items()}
        scratch.loc = list(self.loc)
        scratch.control = list(self.control)
        scratch.entered = list(self.entered)
        scratch.ashore = list(self.ashore)
        for u, c in plan:
            if c not in scratch.place_hexes(u):
                raise IllegalAction(
                    f"{self.uid(u)} may not be set up in {self.label(c)} "
                    "(LnL Omaha: Setting up the Game)"
                )
            scratch.put(u, c)
        return plan

    def apply_deploy(self, action: Deploy) -> None:
        plan = self.check_deploy(action)
        order = {u: i for i, u in enumerate(self.place_queue)}
        for u, c in sorted(plan, key=lambda p: order[p[0]]):
            self.place_queue.remove(u)
            self.place_queue.insert(0, u)
            self.apply_place(Place(self.uid(u), self.label(c)))
