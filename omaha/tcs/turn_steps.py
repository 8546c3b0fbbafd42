"""The turn: tide (1.12), leaders (2.3f), ammunition (2.9), overdraft (2.11),
transports (2.1m), airpower (2.10), LCT(R) fires (2.2), assault and transport
landings (2.1i-2.1n), movement on the beach and the 29th ID exit (2.7b)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from omaha.kernel.actions import Action
from omaha.kernel.hexes import Hex
from omaha.kernel.hexes import distance as hex_distance
from omaha.kernel.protocol import Outcome
from omaha.tcs.actions import (
    Advance,
    AirLoadout,
    BombHex,
    BombUnit,
    CloseBoat,
    EndAction,
    EndOverdraft,
    EndSmoke,
    EndTransports,
    ExitWest,
    HoldStrike,
    LandAt,
    Load,
    LoadSteps,
    MoveTo,
    OpenTransport,
    Overdraft,
    Select,
    SmokeCheck,
    Stay,
    Strike,
)
from omaha.tcs.base import ABOARD, EXITED, LOST, TcsBase
from omaha.tcs.fire import Attack, FireResolver, UnresolvedFire
from omaha.tcs.landing import BoatOutcome, RunningBoat, resolve_box
from omaha.tcs.plan import TRANSPORT, PlannedBoat, PlannedGroup
from omaha.tcs.rules import (
    air_attacks,
    aircraft_available,
    battery_fires,
    bomb_hits,
    designator,
    german_uses_sortie,
    hour_of,
    leader_killed,
    majority_hex,
    miller_rounds,
    nfst_works,
    overdraft_room,
    random_losses,
    smoke_left,
    spread_pool,
    survival_check,
    survival_key,
)
from omaha.tcs.scenario import format_time, parse_time
from omaha.tcs.tables import DD

SUNK, OFF, CHOOSE = "sunk", "off map", "choose"


class TurnSteps(TcsBase):
    # ================================================================== command phase
    def _step_tide(self) -> bool:
        """TCS Omaha 1.12a: at the start of each hour turn's Command Planning Phase the
        tide line moves; pieces in hexes that became sea advance one hex (even if
        suppressed or paralyzed, drawing no overwatch); tow-only units with no
        carrier or vehicle in their hex are destroyed."""
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
                    carrier = any(
                        self.scen.oob.units[i].type.move == "vehicle" or self.carried[i]
                        for i in here
                    )
                    for i in here:
                        u = self.scen.oob.units[i]
                        if u.type.move == "tow" and not carrier:
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
    def _step_air(self) -> bool:
        """TCS Omaha 2.10: on a clear turn the US configures the A-20s, then rolls for them;
        if they come, the German rolls to use the sortie (+1 on 6 June)."""
        if self.scen.weather != "clear":
            return True
        if not self.started:
            self.started = True
            self.sd = {}
            self.air_attacks, self.air_controller, self.air_loadout = [], None, []
        if "loadout" not in self.sd:
            return self.set_wait("air", "US", "A-20s: how many of the two are bomb laden?")
        t = self.scen.tables
        loadout = list(self.sd["loadout"])
        d = self.dice.two_d6()
        if not aircraft_available(d[0] + d[1], t):
            self.note("tcs.air.none", "2.10", dice=d, player="US", loadout=loadout)
            return True
        g = self.dice.two_d6()
        german = german_uses_sortie(g[0] + g[1], self.turn_has("june6"), t)
        self.air_controller = "German" if german else "US"
        self.air_loadout = loadout
        self.air_attacks = [
            {"aircraft": a.aircraft, "kind": a.kind, "firepower": a.firepower, "hit": a.hit_roll}
            for a in air_attacks(loadout, t)
        ]
        self.note(
            "tcs.air.arrive",
            "2.10",
            dice=(*d, *g),
            player="US",
            loadout=loadout,
            controller=self.air_controller,
            bonus=1 if self.turn_has("june6") else 0,
        )
        return True

    def _apply_air(self, action: AirLoadout) -> None:
        n = action.bombers
        self.sd["loadout"] = ["bomb"] * n + ["gunship"] * (self.scen.tables.air_aircraft - n)

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
    def _step_lctr(self) -> bool:
        """TCS Omaha 2.2: the LCT(R)s fire on the first game turn only.

        Each: a designator round (direction and distance dice, distance x3) from
        its target, never adjusted; Area C is every hex within 10 of the
        designator hex; the Miller table (d66) gives the rounds impacting each
        hex, each round a 155mm HE attack (resolved by the fire resolver). Reading:
        a hex is rolled for only when it holds an enemy unit (elsewhere a round
        hits nothing); each hex hit uses one of the fire's 10 smoke markers, the
        rest go to the US smoke checks.
        """
        if self.turn != 0 or not self.lctr_targets or self.stats.get("lctr_fired"):
            return True
        self.stats["lctr_fired"] = 1
        t, board = self.scen.tables, self.scen.board
        for n, target in enumerate(self.lctr_targets, start=1):
            d1, d2 = self.dice.d6(), self.dice.d6()
            direction, dist = designator(d1, d2, t.lctr_multiplier, t)
            h = board.hex(target)
            from omaha.tcs.geo import COMPASS

            dq, dr = COMPASS[direction]
            impact = Hex(h.q + dq * dist, h.r + dr * dist)
            area = [
                c
                for c in range(len(board))
                if hex_distance(board.hex(c).q, board.hex(c).r, impact.q, impact.r)
                <= t.lctr_area_radius
            ]
            at = board.at(impact)
            self.note(
                "tcs.lctr.designator",
                "2.2a",
                dice=(d1, d2),
                player="US",
                fire=n,
                target=self.label(target),
                direction=direction,
                distance=dist,
                impact=self.label(at) if at is not None else "off the map",
                hexes=len(area),
            )
            hit = 0
            rolls: list[int] = []
            hexes: list[str] = []
            verdicts: list[str] = []
            for c in area:
                if c not in self.german_cells():
                    continue
                tens, units = self.dice.d6(), self.dice.d6()
                rolls.extend((tens, units))
                rounds = miller_rounds(10 * tens + units, t)
                hexes.append(f"{self.label(c)} {rounds}")
                if rounds:
                    hit += 1
                    if hit <= t.lctr_smoke:
                        self.smoke.add(c)
                    attack = Attack(f"LCT(R) {n}", t.lctr_weapon, 0, self.label(c), rounds, "2.2b")
                    verdicts.append(self._resolve(attack))
            self.note(
                "tcs.lctr.rounds",
                "2.2b",
                dice=rolls,
                player="US",
                fire=n,
                weapon=t.lctr_weapon,
                hexes=hexes or ["no enemy in Area C"],
                result="; ".join(sorted(set(verdicts))) or "nothing hit",
            )
            left = smoke_left(t.lctr_smoke, hit)
            self.smoke_sessions.append(
                {"fire": n, "area": [self.label(c) for c in area], "left": left, "checked": []}
            )
        return True

    def _resolve(self, attack: Attack) -> str:
        """Hand an attack to the game's fire resolver (see :mod:`omaha.tcs.fire`)."""
        resolver: FireResolver = getattr(self.game, "resolver", None) or UnresolvedFire()
        return resolver.resolve(self, attack).text  # type: ignore[arg-type]

    def _step_smoke(self) -> bool:
        """TCS Omaha 2.2a: the US checks hexes of Area C for smoke with the Miller roll."""
        while self.smoke_sessions:
            s = self.smoke_sessions[0]
            if s["left"] <= 0 or not self._smoke_candidates():
                self.note("tcs.lctr.smoke", "2.2a", player="US", fire=s["fire"], unused=s["left"])
                self.smoke_sessions.pop(0)
                continue
            return self.set_wait(
                "smoke",
                "US",
                f"LCT(R) {s['fire']}: check a hex of Area C for smoke ({s['left']} markers left)",
            )
        return True

    def _smoke_candidates(self) -> list[str]:
        s = self.smoke_sessions[0]
        done = set(s["checked"])
        return [x for x in s["area"] if x not in done and self.cell(x) not in self.smoke]

    def _legal_smoke(self) -> Iterator[Action]:
        yield EndSmoke()
        for x in self._smoke_candidates():
            yield SmokeCheck.of(x)

    def _apply_smoke(self, action: Action) -> None:
        s = self.smoke_sessions[0]
        if isinstance(action, EndSmoke):
            s["left"] = 0
            return
        assert isinstance(action, SmokeCheck)
        tens, units = self.dice.d6(), self.dice.d6()
        rounds = miller_rounds(10 * tens + units, self.scen.tables)
        s["checked"].append(action.hex)
        if rounds:
            self.smoke.add(self.cell(action.hex))
            s["left"] -= 1
        self.note(
            "tcs.lctr.check",
            "2.2a",
            dice=(tens, units),
            player="US",
            fire=s["fire"],
            hex=action.hex,
            result="smoke" if rounds else "no smoke",
        )

    # ------------------------------------------------------------------ landings (2.1i-n)
    def _box_order(self) -> list[str]:
        beach = self.scen.beach
        first = {s.beach: s.cols[0] for s in reversed(beach.sectors)}
        return sorted(beach.assault_boxes, key=lambda b: (first[beach.assault_boxes[b]], b))

    def _step_assault(self) -> bool:
        """TCS Omaha 2.1a, 2.1i-2.1l: an assault wave lands on 0640, 0740 and 0940.

        Landing is the first activity of the US Action Phase (2.1n). Box by box
        (west to east): survival rolls, scatter to a sector, hex on the tide line
        of the hour; then the US chooses among the hexes of a minor sector (Dog
        Red 1, Fox Red 8) and the wave is placed, in move mode.
        """
        wave = next((w for w in (1, 2, 3) if self.turn_has(f"wave{w}")), None)
        if wave is None or self.plan is None or self.landing is not None:
            return True
        plan = self.plan
        boats = [b for b in plan.boats if b.wave == wave]
        if not boats:
            return True
        hour = hour_of(self.turn_time)
        pools = {
            g.id: [list(x) for x in g.pool] for g in plan.groups if g.wave == wave and g.pooled
        }
        fates: dict[str, str] = {}
        choices: dict[str, list[str]] = {}
        self.note(
            "tcs.wave.begin",
            "2.1a",
            player="US",
            wave=wave,
            boats=len(boats),
            line=hour,
            pillboxes=len(self.pillboxes),
        )
        for box in self._box_order():
            in_box = [b for b in boats if b.box == box]
            if not in_box:
                continue
            running = [
                RunningBoat(b.id, b.kind, b.group, self._key(b, pools), self._points(b, pools))
                for b in in_box
            ]

            def on_survival(rb: RunningBoat, out: BoatOutcome, box: str = box) -> None:
                self._log_survival(rb, out, box)
                if not out.survived:
                    self._sink(rb, pools)

            outcomes = resolve_box(
                box,
                running,
                hour,
                len(self.pillboxes),
                self.dice,
                self.scen.beach,
                self.scen.tables,
                on_survival=on_survival,
            )
            self._log_scatter(outcomes, {b.id: b for b in in_box})
            for out in outcomes:
                if not out.survived:
                    fates[out.boat] = SUNK
                elif not out.hexes:
                    fates[out.boat] = OFF
                elif len(out.hexes) == 1:
                    fates[out.boat] = self.label(out.hexes[0])
                else:
                    fates[out.boat] = CHOOSE
                    choices[out.boat] = [self.label(c) for c in out.hexes]
        self.landing = {
            "kind": "assault",
            "wave": wave,
            "fates": fates,
            "choices": choices,
            "pools": pools,
        }
        return True

    def _key(self, b: PlannedBoat, pools: dict[str, list[list[Any]]]) -> str:
        if b.kind == "DUKW":
            classes = [self.scen.oob.unit(u).type.load_class for u, _ in b.load]
            return survival_key("DUKW", classes)
        return survival_key(b.kind)

    def _points(self, b: PlannedBoat, pools: dict[str, list[list[Any]]]) -> int:
        return b.points

    def _log_survival(self, rb: RunningBoat, out: BoatOutcome, box: str) -> None:
        c = out.check
        self.note(
            "tcs.boat.survival",
            "2.1i",
            dice=out.dice,
            player="US",
            boat=rb.id,
            boat_type=rb.kind,
            box=box,
            roll=c.roll,
            modifier=f"{c.modifier:+d}",
            total=c.total,
            result="survives" if c.survives else "lost",
        )

    def _sink(self, rb: RunningBoat, pools: dict[str, list[list[Any]]]) -> None:
        """TCS Omaha 2.1i, 2.1j: a lost boat takes its load (a pooled group loses at random)."""
        oob = self.scen.oob
        if rb.group is not None and rb.group in pools:
            pool = pools[rb.group]
            cup = [(u, s, oob.unit(u).type.points) for u, s in pool if s > 0]
            losses = random_losses(cup, rb.points, self.dice.pick)
            for loss in losses:
                for entry in pool:
                    if entry[0] == loss.unit:
                        entry[1] -= loss.steps
            self.note(
                "tcs.boat.losses",
                "2.1j",
                player="US",
                boat=rb.id,
                losses=[
                    f"{x.unit} -{x.steps}" + (" (eliminated)" if x.eliminated else "")
                    for x in losses
                ],
            )
        for k, s in enumerate(self.leader_status):
            if s == "aboard" and self.leader_boat[k] == rb.id:
                self.leader_status[k] = "lost"
                self.note(
                    "tcs.leaders.drowned", "2.3f", player="US", leader=self._lid(k), boat=rb.id
                )

    def _log_scatter(self, outcomes: Sequence[BoatOutcome], boats: dict[str, PlannedBoat]) -> None:
        seen: set[str] = set()
        for out in outcomes:
            if not out.survived:
                continue
            b = boats[out.boat]
            key = b.group or b.id
            if key in seen:
                continue
            seen.add(key)
            members = [
                o.boat for o in outcomes if o.survived and (boats[o.boat].group or o.boat) == key
            ]
            self.note(
                "tcs.boat.scatter",
                "2.1l",
                dice=(out.scatter or 0,),
                player="US",
                boats=members,
                box=b.box,
                sector=out.sector,
            )
        for out in outcomes:
            if not out.survived:
                continue
            where = ", ".join(self.label(c) for c in out.hexes) or "off the map (removed)"
            self.note(
                "tcs.boat.hex",
                "2.1l",
                dice=(out.hex_roll or 0,),
                player="US",
                boat=out.boat,
                sector=out.sector,
                line=self.tide_hour,
                where=where,
            )

    def _step_landing_choices(self) -> bool:
        """TCS Omaha 2.1l, 2.1m: the US picks a hex where the rules leave a choice."""
        if self.landing is None:
            return True
        for bid, fate in sorted(self.landing["fates"].items()):
            if fate == CHOOSE:
                return self.set_wait("land", "US", f"choose the landing hex of boat {bid}")
        self._place_landing()
        return True

    _step_transport_choices = _step_landing_choices

    def _legal_land(self) -> Iterator[Action]:
        assert self.landing is not None
        for bid, fate in sorted(self.landing["fates"].items()):
            if fate == CHOOSE:
                for x in self.landing["choices"][bid]:
                    yield LandAt.of(bid, x)
                return

    def _apply_land(self, action: LandAt) -> None:
        assert self.landing is not None
        self.landing["fates"][action.boat] = action.hex
        self.note("tcs.boat.choose", "2.1l", player="US", boat=action.boat, hex=action.hex)

    def _landing_boats(self) -> tuple[list[PlannedBoat], list[PlannedGroup]]:
        assert self.landing is not None
        if self.landing["kind"] == "assault":
            assert self.plan is not None
            w = self.landing["wave"]
            return (
                [b for b in self.plan.boats if b.wave == w],
                [g for g in self.plan.groups if g.wave == w],
            )
        return list(self.transports.get(self.landing["turn"], [])), []

    def _place_landing(self) -> None:
        """Units of surviving boats go to their hexes, in move mode (2.1, 2.1l)."""
        landing = self.landing
        assert landing is not None
        oob, t = self.scen.oob, self.scen.tables
        boats, groups = self._landing_boats()
        fates: dict[str, str] = landing["fates"]
        pools: dict[str, list[list[Any]]] = landing["pools"]
        parts: dict[str, list[tuple[int, int]]] = {}
        planned: dict[str, int] = {}
        via_dukw: set[str] = set()
        assault = landing["kind"] == "assault"
        for b in boats:
            fate = fates[b.id]
            kind = b.kind
            self.bump(f"boats_sent_{kind}")
            if fate == SUNK:
                self.bump(f"boats_lost_{kind}")
            if kind == DD:
                self.bump("dd_launched")
                if fate not in (SUNK, OFF):
                    self.bump("dd_landed")
            for u, s in b.load:
                planned[u] = planned.get(u, 0) + s
                if kind == "DUKW" and oob.unit(u).is_gun:
                    self.bump("dukw_guns_loaded", s)
                    if fate in (SUNK, OFF):
                        self.bump("dukw_guns_lost", s)
                    else:
                        self.bump("dukw_guns_landed", s)
                if fate not in (SUNK, OFF):
                    parts.setdefault(u, []).append((self.cell(fate), s))
                    if kind == "DUKW":
                        via_dukw.add(u)
        for g in groups:
            if not g.pooled:
                continue
            for u, s in g.pool:
                planned[u] = planned.get(u, 0) + s
            alive = [x for x in g.boats if fates[x] not in (SUNK, OFF)]
            if not alive:
                continue
            caps = [next(b.points for b in boats if b.id == x) for x in alive]
            survivors = [(u, s, oob.unit(u).type.points) for u, s in pools[g.id] if s > 0]
            for bid, load in zip(alive, spread_pool(survivors, caps), strict=True):
                for u, s in load:
                    parts.setdefault(u, []).append((self.cell(fates[bid]), s))
        placed: dict[int, list[str]] = {}
        for u in sorted(planned, key=oob.index):
            i = oob.index(u)
            unit = oob.units[i]
            got = sum(s for _, s in parts.get(u, []))
            lost = planned[u] - got
            self.bump("steps_committed", planned[u])
            if landing.get("wave") == 1:
                self.bump("wave1_planned", planned[u])
                self.bump("wave1_landed", got)
            self.bump(f"steps_lost_{unit.type.name}", lost)
            self.bump(f"steps_landed_{unit.type.name}", got)
            if got == 0:
                self.where[i], self.steps[i] = LOST, 0
                continue
            cell = majority_hex(parts[u])
            self.where[i], self.steps[i] = cell, got
            self.carried[i] = u in via_dukw and unit.type.move == "tow"
            placed.setdefault(cell, []).append(u + (f" ({got}/{planned[u]})" if lost else ""))
            sector = self.scen.beach.sector_of(cell)
            if assault and sector is not None:
                if sector.beach == self.planned_beach[i]:
                    self.bump("units_correct_beach")
                else:
                    self.bump("units_wrong_beach")
            self._check_task(i)
            if unit.is_gun:
                self._battery_lands(unit.id, got)
            self._nfst_lands(unit.id)
        for cell in sorted(placed):
            sector = self.scen.beach.sector_of(cell)
            self.note(
                "tcs.land.units",
                "2.1l",
                player="US",
                hex=self.label(cell),
                sector=sector.name if sector else "-",
                units=placed[cell],
            )
        for k, st in enumerate(self.leader_status):
            if st == "aboard" and self.leader_boat[k] in fates:
                fate = fates[self.leader_boat[k] or ""]
                if fate == OFF:
                    self.leader_status[k] = "lost"
                elif fate != SUNK:
                    self.leader_status[k] = "map"
                    self.leader_cell[k] = self.cell(fate)
                    self.bump("leaders_landed")
                    self.note(
                        "tcs.leaders.land", "2.3f", player="US", leader=self._lid(k), hex=fate
                    )
        if landing["kind"] == "transport":
            self.transports.pop(landing["turn"], None)
        self.landing = None
        _ = t

    def _check_task(self, i: int) -> None:
        """TCS Omaha 2.3a: a landing op sheet is carried out only from its correct sector."""
        sheet = self._sheet_sector(i)
        if sheet is None or self.on_task[i] or self.where[i] < 0:
            return
        sector = self.scen.beach.sector_of(self.where[i])
        if sector is not None and sector.name == sheet:
            self.on_task[i] = True
            self.note("tcs.opsheet.start", "2.3a", player="US", unit=self.uid(i), sector=sheet)

    def _sheet_sector(self, i: int) -> str | None:
        if self.plan is None or self.scen.no_opsheets:
            return None
        uid = self.uid(i)
        for o in self.plan.opsheets:
            if uid in o.units:
                return o.sector
        return None

    def _battery_lands(self, uid: str, guns: int) -> None:
        """TCS Omaha 2.9: a battery lands with battery fires for its surviving guns."""
        t = self.scen.tables
        unit = self.scen.oob.unit(uid)
        row = next(
            (r for r in t.batteries if r.unit in (unit.formation, unit.battalion)),
            None,
        )
        if row is None:
            return
        f = battery_fires(guns, row.divisor, t)
        pool = self.ammo.setdefault(row.calibre, [0, 0, 0])
        pool[0] += f.he
        pool[1] += f.smoke
        pool[2] += f.illum
        self.note(
            "tcs.ammo.battery",
            "2.9",
            player="US",
            battery=unit.formation,
            guns=guns,
            calibre=row.calibre,
            he=f.he,
            smoke=f.smoke,
            illum=f.illum,
        )

    def _nfst_lands(self, uid: str) -> None:
        """TCS Omaha 2.6d: an NFST landing on the beach rolls a die: its radio works on a 6."""
        for bn, entry in sorted(self.nfst.items()):
            if entry[0] == uid and entry[1] == "assigned":
                d = self.dice.d6()
                works = nfst_works(d, self.scen.tables)
                entry[1] = "working" if works else "radio dead"
                if works:
                    self.bump("nfst_working")
                self.note(
                    "tcs.nfst.roll",
                    "2.6d",
                    dice=(d,),
                    player="US",
                    battalion=bn,
                    unit=uid,
                    result=entry[1],
                )

    def _step_transport_landing(self) -> bool:
        """TCS Omaha 2.1m, 2.1i: transports assigned last hour land now, without scatter.

        Each boat rolls for survival (with the pill box modifier); the US picks the
        hex of each survivor along the tide line of any sector of its beach.
        """
        label = self.scen.turns[self.turn].label
        boats = self.transports.get(label)
        if not boats or self.landing is not None:
            return True
        pools: dict[str, list[list[Any]]] = {}
        fates: dict[str, str] = {}
        choices: dict[str, list[str]] = {}
        beach = self.scen.beach
        hour = hour_of(self.turn_time)
        self.note("tcs.transport.begin", "2.1m", player="US", boats=len(boats), line=hour)
        for b in boats:
            d = self.dice.two_d6()
            check = survival_check(
                survival_key(b.kind), d[0] + d[1], len(self.pillboxes), self.scen.tables
            )
            rb = RunningBoat(b.id, b.kind, None, check.key, b.points)
            self._log_survival(rb, BoatOutcome(b.id, d, check), b.box)
            if not check.survives:
                fates[b.id] = SUNK
                self._sink(rb, pools)
                continue
            fates[b.id] = CHOOSE
            sectors = beach.sectors_of_beach(beach.transport_boxes[b.box])
            choices[b.id] = [self.label(c) for s in sectors for c in beach.sector_line(s, hour)]
        self.landing = {
            "kind": "transport",
            "turn": label,
            "fates": fates,
            "choices": choices,
            "pools": pools,
        }
        return True

    # ------------------------------------------------------------------ air strikes (2.10a)
    def _step_air_strikes(self) -> bool:
        if not self.air_attacks:
            return True
        if not any(True for _ in self._legal_strike()):
            return True
        a = self.air_attacks[0]
        who = self.air_controller or "US"
        return self.set_wait(
            "strike",
            who,
            f"A-20 {a['aircraft']}: {a['kind']} (firepower {a['firepower']}) "
            f"- choose a target ({len(self.air_attacks)} attacks left)",
        )

    def _strike_targets(self) -> tuple[list[int], list[str]]:
        """Hexes and point-target units the controller of the sortie may attack."""
        if self.air_controller == "German":
            occ = self.occupied_us()
            cells = sorted(occ)
            units = [
                self.uid(i)
                for c in cells
                for i in occ[c]
                if self.scen.oob.units[i].type.target == "point"
            ]
            return cells, units
        cells = sorted(self.german_cells())
        return cells, [f"RP-{self.label(c)}" for c in self.pits]  # pill boxes: never (3.3d)

    def _legal_strike(self) -> Iterator[Action]:
        cells, units = self._strike_targets()
        if not cells:
            return
        a = self.air_attacks[0]
        yield HoldStrike()
        for c in cells:
            yield Strike.of(self.label(c)) if a["kind"] == "strafe" else BombHex.of(self.label(c))
        if a["kind"] == "bomb":
            yield from (BombUnit.of(u) for u in units)

    def _apply_strike(self, action: Action) -> None:
        a = self.air_attacks.pop(0)
        who = self.air_controller or "US"
        src = f"A-20 {a['aircraft']} ({who})"
        if isinstance(action, HoldStrike):
            self.note("tcs.air.hold", "2.10a", player=who, source=src, attack=a["kind"])
        elif isinstance(action, Strike | BombHex):
            verdict = self._resolve(Attack(src, a["kind"], a["firepower"], action.hex, 1, "2.10a"))
            self.note(
                "tcs.air.attack",
                "2.10a",
                player=who,
                source=src,
                attack=a["kind"],
                firepower=a["firepower"],
                hex=action.hex,
                result=verdict,
            )
        elif isinstance(action, BombUnit):
            d = self.dice.two_d6()
            from omaha.tcs.rules import AirAttack

            hit = bomb_hits(d[0] + d[1], AirAttack(a["aircraft"], "bomb", a["firepower"], a["hit"]))
            target = action.unit
            if hit:
                if target.startswith("RP-"):
                    self.pits.remove(self.cell(target[3:]))
                else:
                    self._lose_unit(self.unit_index(target), "tcs.air.kill", "2.10a")
            self.note(
                "tcs.air.bomb",
                "2.10a",
                dice=d,
                player=who,
                source=src,
                target=target,
                result="destroyed" if hit else "missed",
            )
        if not self.air_attacks:
            self.air_controller = None

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
    def _lid(self, k: int) -> str:
        return self.scen.oob.leaders[k].id

    def _lose_unit(self, i: int, kind: str, rule: str, **details: Any) -> None:
        u = self.scen.oob.units[i]
        self.bump(f"steps_lost_{u.type.name}", self.steps[i])
        self.note(kind, rule, player="US", unit=u.id, steps=self.steps[i], **details)
        self.where[i], self.steps[i] = LOST, 0
