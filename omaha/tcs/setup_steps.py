"""Before play: the German set-up (3.3g, 3.4), the US landing plan (2.1-2.1h),
leader selection (2.3f), LCT(R) targets (2.2a) and NFSTs (2.6d)."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.decks import Cup
from omaha.tcs.actions import (
    AddLca,
    AssignNfst,
    ClearPlan,
    CloseBoat,
    CommitPlan,
    CommitSetup,
    EndPlan,
    EndRockets,
    Load,
    LoadSteps,
    OpenBoat,
    PlacePillbox,
    PlaceRocketPit,
    Rockets,
    UsePlan,
    UseSetup,
)
from omaha.tcs.base import TcsBase
from omaha.tcs.plan import (
    ASSAULT_WAVES,
    TRANSPORT,
    Plan,
    PlanError,
    PlannedBoat,
    PlannedGroup,
    check_plan,
    too_large,
)
from omaha.tcs.rules import leaders_available
from omaha.tcs.tables import BOAT_KINDS, DD


class SetupSteps(TcsBase):
    # ------------------------------------------------------------------ German set-up
    def _step_german_setup(self) -> bool:
        """TCS Omaha 3.3g, 3.4: the German sets up pill boxes, then rocket pits."""
        if len(self.pillboxes) < self.scen.n_pillboxes:
            left = self.scen.n_pillboxes - len(self.pillboxes)
            return self.set_wait(
                "pillbox", "German", f"set up a pill box ({left} left), or a whole set-up"
            )
        if len(self.pits) < self.scen.n_rocket_pits:
            left = self.scen.n_rocket_pits - len(self.pits)
            return self.set_wait("rocket pit", "German", f"set up a rocket pit ({left} left)")
        self.note(
            "tcs.setup.done",
            "3.3g, 3.4",
            player="German",
            pillboxes=len(self.pillboxes),
            pits=len(self.pits),
        )
        return True

    def _setup_cells(self, kind: str) -> list[int]:
        beach, used = self.scen.beach, self.german_cells()
        out = []
        for c in range(len(self.scen.board)):
            if c in used:
                continue
            if kind == "pillbox":
                ok = beach.pillbox_allowed(c, variant=self.scen.pillbox_variant)
            else:
                ok = beach.rocket_pit_allowed(c)
            if ok:
                out.append(c)
        return out

    def _legal_setup(self) -> Iterator[Action]:
        assert self.wait is not None
        if self.wait[0] == "pillbox":
            if not self.pillboxes:
                yield from (UseSetup(n) for n in sorted(self.scen.setups))
            yield from (PlacePillbox.of(self.label(c)) for c in self._setup_cells("pillbox"))
        else:
            yield from (PlaceRocketPit.of(self.label(c)) for c in self._setup_cells("pit"))

    def _apply_setup(self, action: Action) -> None:
        if isinstance(action, PlacePillbox):
            c = self.cell(action.hex)
            self.pillboxes = sorted([*self.pillboxes, c])
            self.note("tcs.setup.pillbox", "3.3g", player="German", hex=self.label(c))
        elif isinstance(action, PlaceRocketPit):
            c = self.cell(action.hex)
            self.pits = sorted([*self.pits, c])
            self.note("tcs.setup.pit", "3.4", player="German", hex=self.label(c))
        elif isinstance(action, UseSetup):
            s = self.scen.setups[action.name]
            self._place_all(s.pillboxes, s.rocket_pits, action.name)
        elif isinstance(action, CommitSetup):
            self._place_all(action.pillboxes, action.pits, "custom")

    def _place_all(self, pillboxes: tuple[str, ...], pits: tuple[str, ...], name: str) -> None:
        self.pillboxes = sorted(self.cell(x) for x in pillboxes)
        self.pits = sorted(self.cell(x) for x in pits)
        self.note(
            "tcs.setup.whole",
            "3.3g, 3.4",
            player="German",
            name=name,
            pillboxes=[self.label(c) for c in self.pillboxes],
            pits=[self.label(c) for c in self.pits],
        )

    def _check_setup(self, action: CommitSetup) -> None:
        if self.wait is None or self.wait[0] != "pillbox" or self.pillboxes:
            raise IllegalAction("a whole German set-up is made before any piece is placed")
        problem = self.scen.check_setup(action.pillboxes, action.pits)
        if problem:
            raise IllegalAction(f"German set-up: {problem}")

    # ------------------------------------------------------------------ the US plan
    def _step_us_plan(self) -> bool:
        """TCS Omaha 2.1a, 2.1h: the US lays out the landing schematic before play."""
        if self.plan is not None:
            return True
        if self.open_boat is not None:
            ob = self.open_boat
            what = f"{ob['kind']} of wave {ob['wave']} to {ob['box']}"
            if ob["kind"] == "LCA":
                what = f"LCA group of {ob['lcas']} in wave {ob['wave']} to {ob['box']}"
            pts = self._open_points()
            return self.set_wait(
                "plan", "US", f"load the {what} ({pts} points aboard), or close it"
            )
        n = len(self.draft_boats)
        return self.set_wait(
            "plan",
            "US",
            f"landing plan: commit a whole plan, or add boats ({n} so far), or end the plan",
        )

    def _draft_plan(self) -> Plan:
        return Plan("custom", tuple(self.draft_boats), tuple(self.draft_groups))

    def _used(self, wave: int, kind: str) -> int:
        n = sum(1 for b in self.draft_boats if b.wave == wave and b.kind == kind)
        ob = self.open_boat
        if ob is not None and ob["wave"] == wave and ob["kind"] == kind:
            n += ob["lcas"] if kind == "LCA" else 1
        return n

    def _open_points(self) -> int:
        ob = self.open_boat
        if ob is None:
            return 0
        return sum(self.scen.oob.unit(u).type.points * s for u, s in ob["load"])

    def _capacity(self, kind: str, lcas: int = 1) -> int:
        return self.scen.tables.boat(kind).max_points * (lcas if kind == "LCA" else 1)

    def _draft_problem(self) -> str | None:
        """Why the boats laid out so far are not a valid plan (None when they are)."""
        try:
            check_plan(self._draft_plan(), self.scen.rules)
        except PlanError as exc:
            return str(exc)
        return None

    def _dukws_ready(self, wave: int) -> bool:
        """TCS Omaha 2.1f (per wave): every Dukw of the wave loaded with 4+ points."""
        t = self.scen.tables
        dukws = [b for b in self.draft_boats if b.wave == wave and b.kind == "DUKW"]
        return len(dukws) == t.wave(wave).count("DUKW") and all(
            b.points >= t.dukw_min_points for b in dukws
        )

    def _planned_steps(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for b in self.draft_boats:
            for u, s in b.load:
                out[u] = out.get(u, 0) + s
        for g in self.draft_groups:
            for u, s in g.pool:
                out[u] = out.get(u, 0) + s
        if self.open_boat is not None:
            for u, s in self.open_boat["load"]:
                out[u] = out.get(u, 0) + s
        return out

    def _loadable(self, kind: str, room: int, pool: str) -> Iterator[Action]:
        """Units (or parts) that can go into an open boat of ``kind`` with ``room`` points.

        ``pool`` is ``"plan"`` (units not yet planned) or ``"transport"``.
        """
        oob, t = self.scen.oob, self.scen.tables
        max_class = t.boat(kind).max_class if kind != DD else 4
        taken = self._planned_steps() if pool == "plan" else self._transport_steps()
        in_plan = self._plan_units() if pool == "transport" else set()
        for u in oob.units:
            if pool == "transport" and (self.where[u.index] != -1 or u.id in in_plan):
                continue
            if u.id in taken:
                continue
            if kind == DD:
                if u.dd:
                    yield Load.of(u.id)
                continue
            if u.type.load_class > max_class:
                continue
            if u.points <= room:
                yield Load.of(u.id)
            elif (
                too_large(self.scen.rules, u.id, kind)
                and room >= u.type.points
                and self._can_complete(u.id, kind, u.points, room, pool)
            ):
                yield LoadSteps.of(u.id, room // u.type.points)

    def _can_complete(self, uid: str, kind: str, need: int, room: int, pool: str) -> bool:
        """A split unit must be completable in further boats of the same kind (2.1j)."""
        cap = self._capacity(kind)
        per = self.scen.oob.unit(uid).type.points
        if pool == "plan":
            assert self.open_boat is not None
            wave = self.open_boat["wave"]
            spare = self.scen.tables.wave(wave).count(kind) - self._used(wave, kind)
        else:
            spare = dict(self.scen.tables.transport_boats)[kind] - self._transport_used(kind)
        fit_now = room // per
        left = need - fit_now * per
        return left <= spare * (cap // per) * per

    def _legal_plan(self) -> Iterator[Action]:
        t = self.scen.tables
        ob = self.open_boat
        if self.partial is not None:
            # a split unit is being completed: nothing else until it is aboard
            unit = self.scen.oob.unit(self.partial)
            left = unit.steps - self._planned_steps().get(self.partial, 0)
            if ob is not None:
                room = self._capacity(ob["kind"]) - self._open_points()
                fit = min(left, room // unit.type.points)
                if fit > 0:
                    yield LoadSteps.of(self.partial, fit)
                else:
                    yield CloseBoat()
            else:
                kind = self._partial_kind
                wave = self._partial_wave
                if self._used(wave, kind) < t.wave(wave).count(kind):
                    for box in sorted(self.scen.beach.assault_boxes):
                        yield OpenBoat.of(wave, kind, box)
            return
        if ob is None:
            if not self.draft_boats:
                yield from (UsePlan(n) for n in sorted(self.scen.plans))
            else:
                yield ClearPlan()
            if self._draft_problem() is None:
                yield EndPlan()
            planned = self._planned_steps()
            dd_left = any(u.dd and u.id not in planned for u in self.scen.oob.units)
            for wave in ASSAULT_WAVES:
                for kind in (*BOAT_KINDS, DD):
                    if kind == "LCI":
                        continue
                    if kind == DD:
                        if not dd_left:
                            continue
                    elif self._used(wave, kind) >= t.wave(wave).count(kind):
                        continue
                    if kind in ("LCT", "Rhino") and not self._dukws_ready(wave):
                        continue
                    for box in sorted(self.scen.beach.assault_boxes):
                        yield OpenBoat.of(wave, kind, box)
            return
        yield CloseBoat()
        kind = ob["kind"]
        if kind == DD:
            yield from self._loadable(DD, 0, "plan")
            return
        if (
            kind == "LCA"
            and ob["lcas"] < t.boat("LCA").group
            and self._used(ob["wave"], "LCA") < t.wave(ob["wave"]).count("LCA")
        ):
            yield AddLca()
        room = self._capacity(kind, ob.get("lcas", 1)) - self._open_points()
        if kind == "LCA":
            # a pooled group carries whole units (splits within the group are its business)
            for a in self._loadable(kind, room, "plan"):
                if isinstance(a, Load):
                    yield a
        else:
            yield from self._loadable(kind, room, "plan")

    @property
    def _partial_kind(self) -> str:
        for b in reversed(self.draft_boats):
            if any(u == self.partial for u, _ in b.load):
                return b.kind
        raise AssertionError("no boat holds the partial unit")

    @property
    def _partial_wave(self) -> int:
        for b in reversed(self.draft_boats):
            if any(u == self.partial for u, _ in b.load):
                return b.wave
        raise AssertionError("no boat holds the partial unit")

    def _next_id(self, prefix: str) -> str:
        self.counters[prefix] = self.counters.get(prefix, 0) + 1
        return f"{prefix}{self.counters[prefix]:02d}"

    def _apply_plan(self, action: Action) -> None:
        if isinstance(action, UsePlan):
            self._commit(self.scen.plans[action.name])
        elif isinstance(action, CommitPlan):
            self._commit(Plan.from_tokens(action.tokens))
        elif isinstance(action, OpenBoat):
            self.open_boat = {
                "wave": action.wave,
                "kind": action.kind,
                "box": action.box,
                "lcas": 1,
                "load": [],
            }
        elif isinstance(action, AddLca):
            assert self.open_boat is not None
            self.open_boat["lcas"] += 1
        elif isinstance(action, Load | LoadSteps):
            ob = self.open_boat
            assert ob is not None
            unit = self.scen.oob.unit(action.unit)
            steps = action.steps if isinstance(action, LoadSteps) else unit.steps
            if ob["kind"] == DD:
                bid = self._next_id(f"{ob['wave']}.DD")
                self.draft_boats.append(
                    PlannedBoat(bid, ob["wave"], DD, ob["box"], None, ((unit.id, 1),), 0)
                )
            else:
                ob["load"].append([unit.id, steps])
                done = self._planned_steps().get(unit.id, 0)
                self.partial = unit.id if done < unit.steps else None
        elif isinstance(action, CloseBoat):
            self._close_boat()
        elif isinstance(action, EndPlan):
            self._commit(self._draft_plan())
        elif isinstance(action, ClearPlan):
            self.draft_boats, self.draft_groups, self.counters = [], [], {}
            self.note("tcs.plan.cleared", "2.1h", player="US")

    def _close_boat(self) -> None:
        ob = self.open_boat
        assert ob is not None
        self.open_boat = None
        load = tuple((u, s) for u, s in ob["load"])
        if ob["kind"] == DD or not load:
            return
        pts = sum(self.scen.oob.unit(u).type.points * s for u, s in load)
        if ob["kind"] == "LCA":
            cap = self._capacity("LCA")
            shares = [min(cap, max(0, pts - cap * k)) for k in range(ob["lcas"])]
            shares = [s for s in shares if s > 0]
            gid = self._next_id(f"{ob['wave']}.G")
            ids = []
            for share in shares:
                bid = self._next_id(f"{ob['wave']}.")
                ids.append(bid)
                self.draft_boats.append(
                    PlannedBoat(bid, ob["wave"], "LCA", ob["box"], gid, (), share)
                )
            self.draft_groups.append(
                PlannedGroup(gid, ob["wave"], ob["box"], tuple(ids), True, load)
            )
        else:
            bid = self._next_id(f"{ob['wave']}.")
            self.draft_boats.append(
                PlannedBoat(bid, ob["wave"], ob["kind"], ob["box"], None, load, pts)
            )

    def _check_commit(self, action: CommitPlan) -> None:
        if self.wait is None or self.wait[0] != "plan" or self.draft_boats or self.open_boat:
            raise IllegalAction("a whole landing plan is committed before any boat is laid out")
        try:
            plan = Plan.from_tokens(action.tokens)
            check_plan(plan, self.scen.rules)
        except PlanError as exc:
            raise IllegalAction(f"landing plan: {exc}") from None

    def _commit(self, plan: Plan) -> None:
        """TCS Omaha 2.1a: the assault waves are fixed once play begins."""
        check_plan(plan, self.scen.rules)
        self.plan = plan
        self.open_boat = None
        self.draft_boats, self.draft_groups = [], []
        oob, beach = self.scen.oob, self.scen.beach
        for b in plan.boats:
            for u, _ in b.load:
                self._plan_unit(u, b)
        for g in plan.groups:
            for u, _ in g.pool:
                i = oob.index(u)
                self.planned_beach[i] = beach.assault_boxes[g.box]
        summary = []
        for w in (*ASSAULT_WAVES, TRANSPORT):
            boats = plan.wave_boats(w)
            if not boats:
                continue
            counts = {k: sum(1 for b in boats if b.kind == k) for k in (*BOAT_KINDS, DD)}
            text = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
            label = f"wave {w}" if w else f"first transport {plan.transport_hour}"
            summary.append(f"{label}: {text}")
        self.note(
            "tcs.plan.commit",
            "2.1a, 2.1h",
            player="US",
            name=plan.name,
            waves="; ".join(summary) or "no assault boats",
            opsheets=len(plan.opsheets),
        )
        if plan.lctr:  # a plan that names LCT(R) targets names all it fires
            self.lctr_targets = [self.cell(x) for x in plan.lctr]
            self._log_targets()
        for bn, u in plan.nfst:
            if self.scen.nfst:
                self.nfst[bn] = [u, "assigned"]

    def _plan_unit(self, uid: str, boat: PlannedBoat) -> None:
        i = self.scen.oob.index(uid)
        if boat.wave == TRANSPORT:
            self.planned_beach[i] = self.scen.beach.transport_boxes[boat.box]
        else:
            self.planned_beach[i] = self.scen.beach.assault_boxes[boat.box]

    def _plan_units(self) -> set[str]:
        if self.plan is None:
            return set()
        return set(self.plan.units_aboard())

    # ------------------------------------------------------------------ leaders (2.3f)
    def _step_leader_selection(self) -> bool:
        """TCS Omaha 2.3f: leaders of the assault-wave (and first transport) units go in a cup.

        Two dice on the Leader Selection Table say how many are drawn at random;
        each lands with a boat: reading, a boat drawn at random among those
        carrying units of its command (not a swimming DD tank). Reading: the cup
        is filled when the plan is committed, from the assault waves and the first
        transport landing when the plan designates it.
        """
        plan = self.plan
        assert plan is not None
        oob = self.scen.oob
        carriers: dict[int, list[str]] = {}
        unit_boats = plan.unit_boats()
        order = {b.id: k for k, b in enumerate(plan.boats)}
        swimming = {b.id for b in plan.boats if b.kind == DD}
        for ld in oob.leaders:
            boats: set[str] = set()
            for uid, bids in unit_boats.items():
                if ld.commands_unit(oob.unit(uid)):
                    boats.update(b for b in bids if b not in swimming)
            if boats:
                carriers[ld.index] = sorted(boats, key=order.__getitem__)
        if not carriers:
            self.note("tcs.leaders.none", "2.3f", player="US")
            return True
        cup = Cup(oob.leaders[k].id for k in carriers)
        d = self.dice.two_d6()
        n = leaders_available(d[0] + d[1], self.scen.tables)
        drawn = []
        for _ in range(min(n, len(cup))):
            lid = cup.draw(self.dice)
            k = oob.leader(lid).index
            options = carriers[k]
            boat = options[self.dice.pick(len(options))]
            self.leader_status[k] = "aboard"
            self.leader_boat[k] = boat
            drawn.append(f"{lid} ({oob.leaders[k].name}) with boat {boat}")
        self.note(
            "tcs.leaders.selection",
            "2.3f",
            dice=d,
            player="US",
            eligible=len(carriers),
            available=n,
            drawn=drawn,
        )
        return True

    # ------------------------------------------------------------------ LCT(R) targets
    def _step_rockets(self) -> bool:
        """TCS Omaha 2.2a: the four LCT(R) target hexes are chosen before play."""
        if self.lctr_done:
            return True
        if len(self.lctr_targets) >= self.scen.tables.lctr_count:
            self._log_targets()
            return True
        left = self.scen.tables.lctr_count - len(self.lctr_targets)
        return self.set_wait("rockets", "US", f"choose an LCT(R) target hex ({left} left)")

    def _log_targets(self) -> None:
        self.lctr_done = True
        self.note(
            "tcs.lctr.targets",
            "2.2a",
            player="US",
            targets=[self.label(c) for c in self.lctr_targets],
        )

    def _legal_rockets(self) -> Iterator[Action]:
        yield EndRockets()
        beach = self.scen.beach
        for c in range(len(self.scen.board)):
            if c not in beach.sea_always and beach.lctr_target_allowed(c):
                yield Rockets.of(self.label(c))

    def _apply_rockets(self, action: Action) -> None:
        if isinstance(action, Rockets):
            self.lctr_targets.append(self.cell(action.hex))
        else:
            self._log_targets()

    # ------------------------------------------------------------------ NFSTs (2.6d)
    def _nfst_battalions(self) -> list[str]:
        return sorted(
            {u.battalion for u in self.scen.oob.units if u.type.name == "infantry" and u.battalion}
        )

    def _step_nfst(self) -> bool:
        """TCS Omaha 2.6d (optional): one NFST per landing battalion, on an infantry unit."""
        if not self.scen.nfst:
            return True
        for bn in self._nfst_battalions():
            if bn not in self.nfst:
                return self.set_wait("nfst", "US", f"assign the NFST of {bn} to an infantry unit")
        self.note(
            "tcs.nfst.assigned",
            "2.6d",
            player="US",
            teams=[f"{bn}: {v[0]}" for bn, v in sorted(self.nfst.items())],
        )
        return True

    def _legal_nfst(self) -> Iterator[Action]:
        for bn in self._nfst_battalions():
            if bn not in self.nfst:
                for u in self.scen.oob.units:
                    if u.battalion == bn and u.type.name == "infantry":
                        yield AssignNfst.of(bn, u.id)
                return

    def _apply_nfst(self, action: AssignNfst) -> None:
        self.nfst[action.battalion] = [action.unit, "assigned"]
