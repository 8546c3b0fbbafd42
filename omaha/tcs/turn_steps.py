"""The turn around the landings: tide (1.12), leader removal and losses (2.3f),
ammunition additions (2.9), overdraft (2.11), transport assignment (2.1m),
movement on the beach (2.3d-f) and the 29th ID exit (2.7b). Landings are in
:mod:`omaha.tcs.landing_steps`, rockets and aircraft in :mod:`omaha.tcs.support_steps`."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.protocol import Outcome
from omaha.tcs.actions import (
    Advance,
    CloseBoat,
    EndAction,
    EndOverdraft,
    EndTransports,
    ExitWest,
    Load,
    LoadSteps,
    MoveTo,
    OpenTransport,
    Overdraft,
    Select,
    Stay,
)
from omaha.tcs.base import ABOARD, EXITED, TcsBase
from omaha.tcs.plan import TRANSPORT, PlannedBoat
from omaha.tcs.rules import (
    hour_of,
    leader_killed,
    overdraft_room,
)
from omaha.tcs.scenario import format_time, parse_time


class TurnSteps(TcsBase):
    # ================================================================== command phase
    def _step_tide(self) -> bool:
        """TCS Omaha 1.12a: at the start of each hour turn's Command Planning Phase the
        tide line moves; pieces in hexes that became sea advance one hex (even if
        suppressed or paralyzed, drawing no overwatch); tow-only units with no
        carrier or vehicle in their hex are destroyed. Readings: any vehicle in the
        hex will do for every tow-only unit there; a gun landed by a Dukw keeps that
        Dukw as its carrier; advancing is always taken (staying means drowning)."""
        if not self.started:
            self.started = True
            self.sd = {"queue": []}
            hour = hour_of(self.turn_time)
            if self.turn_has("hour") and hour != self.tide_hour:
                old, self.tide_hour = self.tide_hour, hour
                self.note("tcs.tide.move", "1.12a", old=old, new=hour)
                sea = self.scen.beach.sea(hour)
                occ = self.occupied_us()
                for cell in sorted(c for c in occ if c in sea):
                    here = occ[cell]
                    vehicle = any(self.scen.oob.units[i].type.move == "vehicle" for i in here)
                    for i in here:
                        u = self.scen.oob.units[i]
                        if u.type.move == "tow" and not vehicle and not self.carried[i]:
                            self._lose_unit(i, "tcs.tide.drowned", "1.12a", hex=self.label(cell))
                wet = {c for c in self.occupied_us() if c in sea}
                wet |= {self.leader_cell[k] for k in self.living_leaders_on_map()} & sea
                self.sd["queue"] = [self.label(c) for c in sorted(wet)]
        while self.sd["queue"]:
            cell = self.cell(self.sd["queue"][0])
            if not self._tide_options(cell):
                for i in self.occupied_us().get(cell, []):
                    self._lose_unit(i, "tcs.tide.drowned", "1.12a", hex=self.label(cell))
                for k in self.living_leaders_on_map():
                    if self.leader_cell[k] == cell:
                        self.leader_status[k] = "lost"
                        self.note("tcs.tide.leader", "1.12a", leader=self._lid(k))
                self.sd["queue"].pop(0)
                continue
            return self.set_wait(
                "tide", "US", f"the tide covers {self.label(cell)}: advance its pieces one hex"
            )
        return True

    def _tide_options(self, cell: int) -> list[int]:
        beach = self.scen.beach
        sea = beach.sea(self.tide_hour)
        return [
            n
            for n in self.scen.board.neighbours[cell]
            if n not in sea and n in beach.strand and n not in self.german_cells()
        ]

    def _legal_tide(self) -> Iterator[Action]:
        start = self.sd["queue"][0]
        for n in self._tide_options(self.cell(start)):
            yield Advance.of(start, self.label(n))

    def _apply_tide(self, action: Advance) -> None:
        a, b = self.cell(action.start), self.cell(action.to)
        moved = []
        for i in self.occupied_us().get(a, []):
            self.where[i] = b
            moved.append(self.uid(i))
        for k in self.living_leaders_on_map():
            if self.leader_cell[k] == a:
                self.leader_cell[k] = b
                moved.append(self._lid(k))
        self.note(
            "tcs.tide.advance", "1.12a", player="US", start=action.start, to=action.to, pieces=moved
        )
        self.sd["queue"].pop(0)

    def _step_leaders_out(self) -> bool:
        """TCS Omaha 2.3f: all leaders leave play at the beginning of the 1300 6 June turn."""
        if self.scen.turns[self.turn].label != self.scen.tables.leader_removal:
            return True
        gone = []
        for k, s in enumerate(self.leader_status):
            if s in ("map", "aboard"):
                self.leader_status[k] = "removed"
                gone.append(self._lid(k))
        self.note("tcs.leaders.removed", "2.3f", leaders=gone)
        return True

    def _step_ammo(self) -> bool:
        """TCS Omaha 2.9: the 0600 7 June and 0600 8 June additions to the pool."""
        label = self.scen.turns[self.turn].label
        for add in self.scen.tables.additions:
            if add.turn == label:
                pool = self.ammo.setdefault(add.calibre, [0, 0, 0])
                pool[0] += add.he
                pool[1] += add.smoke
                pool[2] += add.illum
                self.note(
                    "tcs.ammo.added",
                    "2.9",
                    calibre=add.calibre,
                    he=add.he,
                    smoke=add.smoke,
                    illum=add.illum,
                )
        return True

    # ------------------------------------------------------------------ overdraft (2.11)
    def _step_overdraft(self) -> bool:
        if self.scen.turns[self.turn].label != self.scen.tables.overdraft_turn:
            return True
        if not self.started:
            self.started = True
            self.sd = {"ended": False}
        if self.sd["ended"] or not any(True for _ in self._legal_overdraft()):
            return True
        return self.set_wait(
            "overdraft", "US", "add overdraft infantry steps to 16th line companies"
        )

    def _overdraft_units(self) -> Iterator[tuple[int, str]]:
        t = self.scen.tables
        for u in self.scen.oob.units:
            if (
                u.regiment == t.overdraft_regiment
                and u.company in t.overdraft_companies
                and u.type.name == "infantry"
                and self.where[u.index] >= 0
            ):
                yield u.index, u.formation

    def _legal_overdraft(self) -> Iterator[Action]:
        yielded = False
        for i, company in self._overdraft_units():
            u = self.scen.oob.units[i]
            room = overdraft_room(
                self.steps[i], u.steps, self.overdraft_added.get(company, 0), self.scen.tables
            )
            if room > 0:
                yielded = True
                yield Overdraft.of(u.id)
        if yielded:
            yield EndOverdraft()

    def _apply_overdraft(self, action: Action) -> None:
        if isinstance(action, EndOverdraft):
            self.sd["ended"] = True
            return
        assert isinstance(action, Overdraft)
        i = self.unit_index(action.unit)
        company = self.scen.oob.units[i].formation
        self.steps[i] += 1
        self.overdraft_added[company] = self.overdraft_added.get(company, 0) + 1
        self.note(
            "tcs.overdraft",
            "2.11",
            player="US",
            unit=action.unit,
            steps=self.steps[i],
            added=self.overdraft_added[company],
        )

    # ------------------------------------------------------------------ transports (2.1m)
    def _next_hour_turn(self) -> str | None:
        day, minutes = parse_time(self.scen.turns[self.turn].label)
        minutes += 60
        if minutes >= 24 * 60:
            day, minutes = day + 1, minutes - 24 * 60
        label = format_time(day, minutes)
        return label if any(t.label == label for t in self.scen.turns) else None

    def _step_transports(self) -> bool:
        """TCS Omaha 2.1m: on an hour turn the US assigns the next hour's transport landing.

        One LCI and five LCTs each hour turn from 1000 6 June (so first assigned
        on the 0900 turn); unused capacity is lost; a transport landing pre-planned
        in the landing plan is assigned automatically the hour before.
        """
        if not self.turn_has("hour"):
            return True
        land = self._next_hour_turn()
        t = self.scen.tables
        if land is None or (land.split()[0] < t.transport_first_hour and self.day == 6):
            return True
        if not self.started:
            self.started = True
            self.sd = {"ended": False}
            self.transport_open = None
            boats = self.transports.setdefault(land, [])
            plan = self.plan
            if (
                plan is not None
                and self.day == 6
                and plan.transport_hour == land.split()[0]
                and not self.stats.get("first_transport")
            ):
                self.stats["first_transport"] = 1
                for b in plan.wave_boats(TRANSPORT):
                    boats.append(b)
                    for u, _ in b.load:
                        self.where[self.unit_index(u)] = ABOARD
                self.note(
                    "tcs.transport.planned",
                    "2.1m",
                    player="US",
                    turn=land,
                    boats=[self._boat_text(b) for b in boats],
                )
        if self.sd["ended"]:
            return True
        return self.set_wait(
            "transports", "US", f"assign transport boats landing at {land} (1 LCI, 5 LCT)"
        )

    def _transport_land_label(self) -> str:
        land = self._next_hour_turn()
        assert land is not None
        return land

    def _transport_used(self, kind: str) -> int:
        boats = self.transports.get(self._transport_land_label(), [])
        n = sum(1 for b in boats if b.kind == kind)
        if self.transport_open is not None and self.transport_open["kind"] == kind:
            n += 1
        return n

    def _transport_steps(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for boats in self.transports.values():
            for b in boats:
                for u, s in b.load:
                    out[u] = out.get(u, 0) + s
        if self.transport_open is not None:
            for u, s in self.transport_open["load"]:
                out[u] = out.get(u, 0) + s
        return out

    def _legal_transports(self) -> Iterator[Action]:
        ob = self.transport_open
        t = self.scen.tables
        if self.partial is not None:
            unit = self.scen.oob.unit(self.partial)
            left = unit.steps - self._transport_steps().get(self.partial, 0)
            if ob is not None:
                room = self._capacity(ob["kind"]) - self._tload_points()
                fit = min(left, room // unit.type.points)
                yield LoadSteps.of(self.partial, fit) if fit > 0 else CloseBoat()
            else:
                kind = self.sd["partial_kind"]
                for box in sorted(self.scen.beach.transport_boxes):
                    yield OpenTransport.of(kind, box)
            return
        if ob is None:
            yield EndTransports()
            for kind, cap in t.transport_boats:
                if self._transport_used(kind) < cap:
                    for box in sorted(self.scen.beach.transport_boxes):
                        yield OpenTransport.of(kind, box)
            return
        yield CloseBoat()
        room = self._capacity(ob["kind"]) - self._tload_points()
        yield from self._loadable(ob["kind"], room, "transport")

    def _tload_points(self) -> int:
        ob = self.transport_open
        assert ob is not None
        return sum(self.scen.oob.unit(u).type.points * s for u, s in ob["load"])

    def _apply_transports(self, action: Action) -> None:
        if isinstance(action, EndTransports):
            self.sd["ended"] = True
            boats = self.transports.get(self._transport_land_label(), [])
            self.note(
                "tcs.transport.assigned",
                "2.1m",
                player="US",
                turn=self._transport_land_label(),
                boats=[self._boat_text(b) for b in boats] or ["none"],
            )
        elif isinstance(action, OpenTransport):
            self.transport_open = {"kind": action.kind, "box": action.box, "load": []}
        elif isinstance(action, Load | LoadSteps):
            ob = self.transport_open
            assert ob is not None
            unit = self.scen.oob.unit(action.unit)
            steps = action.steps if isinstance(action, LoadSteps) else unit.steps
            ob["load"].append([unit.id, steps])
            done = self._transport_steps().get(unit.id, 0)
            self.partial = unit.id if done < unit.steps else None
            if self.partial is not None:
                self.sd["partial_kind"] = ob["kind"]
        elif isinstance(action, CloseBoat):
            ob = self.transport_open
            assert ob is not None
            self.transport_open = None
            load = tuple((u, s) for u, s in ob["load"])
            if not load:
                return
            land = self._transport_land_label()
            boats = self.transports.setdefault(land, [])
            bid = self._next_id(f"T{land.split()[0]}.")
            pts = sum(self.scen.oob.unit(u).type.points * s for u, s in load)
            boats.append(PlannedBoat(bid, TRANSPORT, ob["kind"], ob["box"], None, load, pts))
            for u, _ in load:
                i = self.unit_index(u)
                self.where[i] = ABOARD
                self.planned_beach[i] = self.scen.beach.transport_boxes[ob["box"]]

    def _boat_text(self, b: PlannedBoat) -> str:
        units = ", ".join(
            f"{u}" + (f"({s})" if s != self.scen.oob.unit(u).steps else "") for u, s in b.load
        )
        return f"{b.id} {b.kind} to {b.box}: {units}"

    # ------------------------------------------------------------------ airpower (2.10)

    # ================================================================== US action phase
    def _step_leader_losses(self) -> bool:
        """TCS Omaha 2.3f Leader Losses: one roll for each leader an enemy unit can see
        within visibility and its weapon range; killed on a 12 (stays in the hex)."""
        for k in self.living_leaders_on_map():
            cell = self.leader_cell[k]
            if not self._exposed(cell):
                continue
            d = self.dice.two_d6()
            killed = leader_killed(d[0] + d[1], self.scen.tables)
            if killed:
                self.leader_status[k] = "dead"
            self.note(
                "tcs.leaders.loss",
                "2.3f",
                dice=d,
                player="US",
                leader=self._lid(k),
                hex=self.label(cell),
                result="killed" if killed else "unhurt",
            )
        return True

    def _exposed(self, cell: int) -> bool:
        vis = self.scen.tables.visibility
        board = self.scen.board
        for g, rng in [(c, self.scen.pillbox_range) for c in self.pillboxes] + [
            (c, self.scen.rocket_pit_range) for c in self.pits
        ]:
            if board.distance(g, cell) <= min(rng, vis) and self.los(g, cell):
                return True
        return False

    def los(self, a: int, b: int) -> bool:
        """Line of sight (reconstructed; the TCS series rules are not in our text).

        The exact thread between hex centres is blocked by a hex it crosses (not
        an end) that holds smoke, blocking terrain (woods, village), or ground
        higher than both ends.
        """
        if a == b:
            return True
        board = self.scen.board
        top = max(int(board.prop(a, "level", 0) or 0), int(board.prop(b, "level", 0) or 0))
        blocks = self.scen.tables.sight_blocks
        for c in board.thread(a, b).cells:
            if c in (a, b) or c < 0:
                continue
            if c in self.smoke or board.terrain[c] in blocks:
                return False
            if int(board.prop(c, "level", 0) or 0) > top:
                return False
        return True

    # ------------------------------------------------------------------ LCT(R) (2.2)

    # ------------------------------------------------------------------ landings (2.1i-n)

    # ------------------------------------------------------------------ air strikes (2.10a)

    # ------------------------------------------------------------------ movement
    def _step_move(self) -> bool:
        """US movement: along the beach seaward of the shingle (2.3d, 2.3e), landed units
        with their full allowance (2.1n); under a leader (2.3f) or on task with a
        landing op sheet (2.3a) a unit may also go landward. Reading: beach obstacle
        hexes (2.4) stay closed until tested, which comes with part 2."""
        if not self.started:
            self.started = True
            self.sd = {"ended": False}
            self.moved, self.selected = set(), None
            radius = self.scen.tables.leader_radius
            board = self.scen.board
            leaders = [self.leader_cell[k] for k in self.living_leaders_on_map()]
            self.free = {
                i
                for i, w in enumerate(self.where)
                if w >= 0 and any(board.distance(w, c) <= radius for c in leaders)
            }
            if self.free:
                self.note("tcs.leaders.command", "2.3f", player="US", units=len(self.free))
        if self.sd["ended"]:
            return True
        if self.selected is not None:
            return self.set_wait("move", "US", f"move {self.selected}: choose a hex, or stay")
        return self.set_wait("move", "US", "select a unit to move, or end the action phase")

    def _piece_cell(self, pid: str) -> int:
        if pid.startswith("Ldr-"):
            return self.leader_cell[self.scen.oob.leader(pid).index]
        return self.where[self.unit_index(pid)]

    def _mover(self, pid: str) -> tuple[int, str, bool]:
        """Allowance, movement graph and whether the piece may go landward."""
        if pid.startswith("Ldr-"):
            return self.scen.tables.leader_mp, "foot", True
        i = self.unit_index(pid)
        u = self.scen.oob.units[i]
        free = i in self.free or self.on_task[i]
        if u.type.move == "tow":
            return (10, "vehicle", free) if self.carried[i] else (0, "foot", free)
        return u.type.ma, u.type.move, free

    def _reach_table(self) -> dict[tuple[int, int, str, bool], dict[int, int]]:
        """Reachable hexes by (start, allowance, graph, free) for the current tide and
        German pieces; pure, so it lives on the scenario and is shared by all states."""
        key = (self.tide_hour, tuple(sorted(self.german_cells())))
        cache = self.scen.reach_cache
        table = cache.get(key)
        if table is None:
            if len(cache) > 64:
                cache.clear()
            table = cache[key] = {}
        return table

    def _destinations(
        self, pid: str, table: dict[tuple[int, int, str, bool], dict[int, int]] | None = None
    ) -> dict[int, int]:
        """Hexes the piece can reach this phase, with their MP cost."""
        ma, graph_name, free = self._mover(pid)
        if ma <= 0:
            return {}
        start = self._piece_cell(pid)
        table = self._reach_table() if table is None else table
        key = (start, ma, graph_name, free)
        hit = table.get(key)
        if hit is None:
            beach = self.scen.beach
            graph = beach.foot_graph if graph_name == "foot" else beach.vehicle_graph
            hit = graph.reachable(start, ma, blocked=self._blocked(free))
            hit.pop(start, None)
            table[key] = hit
        return hit

    def _blocked(self, free: bool) -> frozenset[int]:
        key = (self.tide_hour, free, tuple(sorted(self.german_cells())))
        cache = self.scen.blocked_cache
        hit = cache.get(key)
        if hit is None:
            beach = self.scen.beach
            base = set(beach.sea(self.tide_hour)) | set(beach.obstacles) | self.german_cells()
            if not free:
                base |= beach.land
            if len(cache) > 64:
                cache.clear()
            hit = cache[key] = frozenset(base)
        return hit

    def _legal_move(self) -> Iterator[Action]:
        if self.selected is None:
            yield EndAction()
            units = self.scen.oob.units
            table = self._reach_table()
            for i, w in enumerate(self.where):
                if w >= 0 and (units[i].type.ma > 0 or self.carried[i]):
                    uid = units[i].id
                    if uid not in self.moved and self._destinations(uid, table):
                        yield Select.of(uid)
            for k in self.living_leaders_on_map():
                lid = self._lid(k)
                if lid not in self.moved and self._destinations(lid, table):
                    yield Select.of(lid)
            return
        yield Stay()
        for c in sorted(self._destinations(self.selected)):
            yield MoveTo.of(self.label(c))
        pid = self.selected
        if not pid.startswith("Ldr-"):
            i = self.unit_index(pid)
            if self.scen.oob.units[i].is_29th and self.where[i] in self.scen.beach.west_edge:
                yield ExitWest()

    def _apply_move(self, action: Action) -> None:
        if isinstance(action, EndAction):
            self.sd["ended"] = True
            self.selected = None
        elif isinstance(action, Select):
            self.selected = action.unit
        elif isinstance(action, Stay):
            assert self.selected is not None
            self.moved.add(self.selected)
            self.selected = None
        elif isinstance(action, MoveTo):
            pid = self.selected
            assert pid is not None
            start = self._piece_cell(pid)
            end = self.cell(action.hex)
            cost = self._destinations(pid)[end]
            if pid.startswith("Ldr-"):
                self.leader_cell[self.scen.oob.leader(pid).index] = end
            self.moved.add(pid)
            self.selected = None
            self.note(
                "tcs.move",
                "2.3d",
                player="US",
                unit=pid,
                start=self.label(start),
                end=action.hex,
                mp=cost,
            )
            if not pid.startswith("Ldr-"):
                i = self.unit_index(pid)
                self.where[i] = end
                self._check_task(i)
        elif isinstance(action, ExitWest):
            pid = self.selected
            assert pid is not None
            i = self.unit_index(pid)
            self.note("tcs.exit", "2.7b", player="US", unit=pid, hex=self.label(self.where[i]))
            self.where[i] = EXITED
            self.moved.add(pid)
            self.selected = None

    # ================================================================== German, end
    def _step_german(self) -> bool:
        """The German Action Phase: its fires need the series tables (part 2)."""
        return True

    def _step_end(self) -> bool:
        label = self.scen.turns[self.turn].label
        if self.turn == 0 and self.smoke:
            self.note("tcs.lctr.smoke_gone", "2.2a", hexes=len(self.smoke))
            self.smoke = set()
        if label == self.scen.tables.exit29_by:
            left = [
                self.uid(i)
                for i, w in enumerate(self.where)
                if w >= 0 and self.scen.oob.units[i].is_29th
            ]
            if left:
                self.note("tcs.division29.forfeit", "2.7b", units=left)
                self.result = Outcome(
                    "German",
                    "US forfeit",
                    detail=f"{len(left)} 29th ID units still on the map (2.7b)",
                )
        return True

    # ================================================================== shared helpers
