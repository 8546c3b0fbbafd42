"""Landings: the assault waves (2.1a, 2.1i-2.1l) and the transport landings (2.1m),
the placement of what comes ashore, and what landing sets off: op sheets on the
correct sector (2.3a), battery fires (2.9), NFST radios (2.6d), leaders (2.3f)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from omaha.kernel.actions import Action
from omaha.tcs.actions import LandAt
from omaha.tcs.base import LOST, TcsBase
from omaha.tcs.landing import BoatOutcome, RunningBoat, resolve_box
from omaha.tcs.plan import PlannedBoat, PlannedGroup
from omaha.tcs.rules import (
    battery_fires,
    majority_hex,
    nfst_works,
    random_losses,
    spread_pool,
    survival_check,
    survival_key,
)
from omaha.tcs.tables import DD

SUNK, OFF, CHOOSE = "sunk", "off map", "choose"


class LandingSteps(TcsBase):
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
        hour = self.tide_hour  # the line in force: 0740 lands on the 0700 line (2.1l)
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
            running = [RunningBoat(b.id, b.kind, b.group, self._key(b), b.points) for b in in_box]

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

    def _key(self, b: PlannedBoat) -> str:
        """The survival line of a boat (2.1i): a Dukw's depends on its load class."""
        classes = [self.scen.oob.unit(u).type.load_class for u, _ in b.load]
        return survival_key(b.kind, classes)

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
        oob = self.scen.oob
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
            # survivors ride the boats that were not sunk, in plan order; the share of
            # a boat sent off the map (Dog Red, 2.1l) goes with it
            afloat = [x for x in g.boats if fates[x] != SUNK]
            if not afloat:
                continue
            caps = [next(b.points for b in boats if b.id == x) for x in afloat]
            survivors = [(u, s, oob.unit(u).type.points) for u, s in pools[g.id] if s > 0]
            for bid, load in zip(afloat, spread_pool(survivors, caps), strict=True):
                if fates[bid] == OFF:
                    continue
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
        hour = self.tide_hour
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
