"""TCS Omaha game state: the sequence of play, decisions, snapshots, views, metrics.

Before play (phase "set-up"): the German sets up (3.3g, 3.4), the US commits the
landing plan (2.1), the leaders are selected (2.3f), the LCT(R) targets chosen
(2.2a) and, with the option, the NFSTs assigned (2.6d). Each turn then runs the
Command Planning Phase (tide 1.12a, leader removal 2.3f, ammunition 2.9,
overdraft 2.11, transports 2.1m, airpower 2.10), the US Action Phase (leader
losses 2.3f, LCT(R) fires 2.2 on the first turn, the assault wave or transport
landing 2.1i-2.1n, A-20 strikes 2.10a, movement), the German Action Phase and
the end of the turn (2.7b). Automatic procedures run inside ``apply`` until a
player must decide; every roll is logged with its rule.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.kernel.protocol import Outcome, State
from omaha.kernel.view import Mark, Pending, Piece, View
from omaha.tcs.actions import (
    AirLoadout,
    AssignNfst,
    CommitPlan,
    CommitSetup,
    EndPlan,
    Load,
    LoadSteps,
    MoveTo,
    OpenBoat,
    PlacePillbox,
    PlaceRocketPit,
    Rockets,
    Select,
)
from omaha.tcs.base import (
    ABOARD,
    AWAIT,
    CODES,
    FROM_CODE,
    LOST,
    SETUP_STEPS,
    TURN_STEPS,
)
from omaha.tcs.landing_steps import LandingSteps
from omaha.tcs.plan import Plan
from omaha.tcs.rules import hour_of, pillbox_modifier
from omaha.tcs.scenario import TcsScenario
from omaha.tcs.setup_steps import SetupSteps
from omaha.tcs.support_steps import SupportSteps
from omaha.tcs.tables import BOAT_KINDS, DD, UNIT_TYPES
from omaha.tcs.turn_steps import TurnSteps

register_templates(
    {
        "tcs.turn": "— turn {turn} —",
        "tcs.setup.pillbox": "pill box set up in {hex}",
        "tcs.setup.pit": "rocket pit set up in {hex}",
        "tcs.setup.whole": "German set-up '{name}': pill boxes {pillboxes}; rocket pits {pits}",
        "tcs.setup.done": "German set-up complete: {pillboxes} pill boxes, {pits} rocket pits",
        "tcs.plan.commit": "US landing plan '{name}' committed: {waves}; {opsheets} op sheets",
        "tcs.plan.cleared": "the US clears the landing schematic and starts again",
        "tcs.leaders.none": "no leader has units in the assault waves",
        "tcs.leaders.selection": "leader selection: {eligible} leaders in the cup, "
        "{available} available; drawn {drawn}",
        "tcs.lctr.targets": "LCT(R) targets: {targets}",
        "tcs.nfst.assigned": "NFSTs assigned: {teams}",
        "tcs.tide.move": "the tide line moves from {old} to {new}",
        "tcs.tide.drowned": "{unit} ({steps} steps) is lost to the tide in {hex}",
        "tcs.tide.leader": "{leader} is lost to the tide",
        "tcs.tide.advance": "the tide covers {start}: {pieces} advance to {to}",
        "tcs.leaders.removed": "leaders leave play: {leaders}",
        "tcs.ammo.added": "ammunition added, {calibre}: HE {he}, smoke {smoke}, illum {illum}",
        "tcs.ammo.battery": "{battery} lands {guns} guns ({calibre}): "
        "{he} HE, {smoke} smoke, {illum} illum battery fires",
        "tcs.overdraft": "overdraft: {unit} to {steps} steps ({added} added to its company)",
        "tcs.transport.planned": "first transport landing of the plan assigned for {turn}: {boats}",
        "tcs.transport.assigned": "transports for {turn}: {boats}",
        "tcs.transport.begin": "transport landing: {boats} boats on the {line} line",
        "tcs.air.none": "A-20s ({loadout}): no aircraft this turn",
        "tcs.air.arrive": "two A-20s ({loadout}) arrive; the sortie is used by the {controller} "
        "(German roll +{bonus})",
        "tcs.air.hold": "{source} holds its {attack}",
        "tcs.air.idle": "the A-20s find no target: {attacks} attacks unused",
        "tcs.air.bomb": "{source} bombs {target}: {result}",
        "tcs.air.kill": "{unit} ({steps} steps) destroyed from the air",
        "tcs.leaders.loss": "{leader} in {hex} under enemy eyes: {result}",
        "tcs.leaders.drowned": "{leader} goes down with boat {boat}",
        "tcs.leaders.land": "{leader} lands in {hex}",
        "tcs.leaders.command": "{units} units start the phase within 3 hexes of a leader",
        "tcs.lctr.designator": "LCT(R) {fire} at {target}: designator {direction} {distance} "
        "hexes, lands {impact}; Area C {hexes} hexes",
        "tcs.lctr.rounds": "LCT(R) {fire}, rounds of {weapon} per enemy hex of Area C: {hexes} "
        "({result})",
        "tcs.air.attack": "{source} {attack}s {hex} (firepower {firepower}): {result}",
        "tcs.lctr.check": "LCT(R) {fire} smoke check {hex}: {result}",
        "tcs.lctr.smoke": "LCT(R) {fire}: smoke checks over ({unused} markers unused)",
        "tcs.lctr.smoke_gone": "the LCT(R) smoke clears ({hexes} hexes)",
        "tcs.wave.begin": "assault wave {wave}: {boats} boats run in on the {line} tide line "
        "({pillboxes} pill boxes)",
        "tcs.boat.survival": "{boat} ({boat_type}, {box}) survival "
        "{roll}{modifier} = {total}: {result}",
        "tcs.boat.losses": "{boat} sinks: random losses {losses}",
        "tcs.boat.scatter": "{boats} ({box}) scatter to {sector}",
        "tcs.boat.hex": "{boat} lands on hex of {sector} ({line} line): {where}",
        "tcs.boat.choose": "{boat} lands in {hex}",
        "tcs.land.units": "ashore in {hex} ({sector}): {units}",
        "tcs.opsheet.start": "{unit} is on its op sheet's sector {sector}",
        "tcs.nfst.roll": "NFST of {battalion} lands with {unit}: {result}",
        "tcs.move": "{unit} moves {start} -> {end} ({mp} MP)",
        "tcs.exit": "{unit} leaves the map westward from {hex}",
        "tcs.division29.forfeit": "29th ID units still on the map: {units}",
        "tcs.end": "the landing scenario ends: {result}",
    }
)

RESOLVERS = {
    "pillbox": ("_legal_setup", "_apply_setup"),
    "rocket pit": ("_legal_setup", "_apply_setup"),
    "plan": ("_legal_plan", "_apply_plan"),
    "rockets": ("_legal_rockets", "_apply_rockets"),
    "nfst": ("_legal_nfst", "_apply_nfst"),
    "tide": ("_legal_tide", "_apply_tide"),
    "overdraft": ("_legal_overdraft", "_apply_overdraft"),
    "transports": ("_legal_transports", "_apply_transports"),
    "air": ("_legal_air", "_apply_air"),
    "smoke": ("_legal_smoke", "_apply_smoke"),
    "land": ("_legal_land", "_apply_land"),
    "strike": ("_legal_strike", "_apply_strike"),
    "move": ("_legal_move", "_apply_move"),
}


class TcsState(SetupSteps, TurnSteps, LandingSteps, SupportSteps, State[TcsScenario]):
    """A game of TCS Omaha in progress (see the module docstring)."""

    def _setup(self) -> None:
        scenario = self.scenario
        self.scen = scenario
        n = len(scenario.oob.units)
        nl = len(scenario.oob.leaders)
        self.in_setup = True
        self.turn = 0
        self.cursor = 0
        self.started = False
        self.sd = {}
        self.wait = None
        self.result = None
        self.tide_hour = hour_of(scenario.turns[0].label.split()[0])
        self.pillboxes, self.pits = [], []
        self.where = [AWAIT] * n
        self.steps = [u.steps for u in scenario.oob.units]
        self.carried = [False] * n
        self.planned_beach = [None] * n
        self.on_task = [False] * n
        self.moved, self.selected, self.free = set(), None, set()
        self.plan = None
        self.draft_boats, self.draft_groups = [], []
        self.open_boat, self.partial, self.counters = None, None, {}
        self.leader_status = ["unselected"] * nl
        self.leader_cell = [-1] * nl
        self.leader_boat = [None] * nl
        self.transports, self.transport_open = {}, None
        self.landing = None
        self.lctr_targets, self.lctr_done = [], False
        self.smoke, self.smoke_sessions = set(), []
        self.air_loadout, self.air_controller, self.air_attacks = [], None, []
        self.ammo, self.nfst, self.overdraft_added = {}, {}, {}
        self.stats = {}
        self._advance()

    # ------------------------------------------------------------------ sequencing
    def _advance(self) -> None:
        """Run automatic procedures until a player must decide or the game ends."""
        while self.result is None:
            steps = SETUP_STEPS if self.in_setup else TURN_STEPS
            if self.cursor >= len(steps):
                if self.in_setup:
                    self.in_setup = False
                elif self.turn + 1 < len(self.scen.turns):
                    self.turn += 1
                else:
                    self._finish()
                    return
                self.cursor, self.started, self.sd = 0, False, {}
                self.note("tcs.turn", "", turn=self.scen.turns[self.turn].label)
                continue
            self.wait = None
            done: bool = getattr(self, f"_step_{steps[self.cursor][1]}")()
            if not done:
                return
            self.cursor += 1
            self.started, self.sd = False, {}

    def _finish(self) -> None:
        landed = sum(v for k, v in self.stats.items() if k.startswith("steps_landed_"))
        lost = sum(v for k, v in self.stats.items() if k.startswith("steps_lost_"))
        ashore = sum(self.steps[i] for i, w in enumerate(self.where) if w >= 0)
        self.result = Outcome(
            None,
            "landing over",
            points=(("steps ashore", float(ashore)), ("steps lost", float(lost))),
            detail=f"{landed} steps landed, {lost} lost; the battle inland is part 2",
        )
        self.note("tcs.end", "", result=str(self.result))

    # ------------------------------------------------------------------ protocol
    @property
    def turn_label(self) -> str:
        return self.scen.turns[self.turn].label

    @property
    def phase(self) -> str:
        steps = SETUP_STEPS if self.in_setup else TURN_STEPS
        return steps[min(self.cursor, len(steps) - 1)][0]

    @property
    def pending(self) -> Pending | None:
        if self.result is not None or self.wait is None:
            return None
        kind, player, prompt = self.wait
        return Pending(kind, player, prompt)

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def _legal_actions(self) -> Iterable[Action]:
        if self.wait is None:
            return ()
        name = RESOLVERS[self.wait[0]][0]
        actions: Iterable[Action] = getattr(self, name)()
        return actions

    def _legal_air(self) -> Iterable[Action]:
        return [AirLoadout(n) for n in range(self.scen.tables.air_aircraft + 1)]

    def _apply(self, action: Action) -> None:
        assert self.wait is not None
        if isinstance(action, CommitSetup):
            self._apply_setup(action)
        elif isinstance(action, CommitPlan):
            self._apply_plan(action)
        else:
            getattr(self, RESOLVERS[self.wait[0]][1])(action)
        self.wait = None
        self._advance()

    def _check_plan(self, action: Action) -> None:
        """Whole set-ups and plans are legal without being listed: validate them here."""
        if isinstance(action, CommitSetup):
            self._check_setup(action)
        elif isinstance(action, CommitPlan):
            self._check_commit(action)
        else:
            raise IllegalAction(self.explain_illegal(action))

    def explain_illegal(self, action: Action) -> str:
        why = self._why(action)
        if why:
            return f"'{action}' is not legal: {why}"
        return super().explain_illegal(action)

    def _why(self, action: Action) -> str:
        kind = self.wait[0] if self.wait else None
        t, oob, beach = self.scen.tables, self.scen.oob, self.scen.beach
        board = self.scen.board
        if isinstance(action, PlacePillbox | PlaceRocketPit | Rockets) and not board.has(
            action.hex
        ):
            return f"{action.hex} is not on the map"
        if isinstance(action, PlacePillbox) and kind == "pillbox":
            c = board.cell(action.hex)
            if c in self.german_cells():
                return f"{action.hex} already holds a German piece (one a hex)"
            return (
                f"pill boxes set up landward of the beach obstacle line and at most "
                f"{t.pillbox_inland} hexes from it (3.3g)"
            )
        if isinstance(action, PlaceRocketPit) and kind == "rocket pit":
            return (
                f"rocket pits set up inland, at most {t.rocket_pit_inland} hexes from the "
                "obstacle line (3.4)"
            )
        if isinstance(action, Rockets) and kind == "rockets":
            return (
                f"LCT(R) targets lie within {t.lctr_target_range} hexes of a beach obstacle "
                "hex (2.2a)"
            )
        if isinstance(action, OpenBoat) and kind == "plan":
            if action.box not in beach.assault_boxes:
                boxes = ", ".join(sorted(beach.assault_boxes))
                return f"{action.box!r} is not a landing beach box ({boxes})"
            if action.wave not in (1, 2, 3):
                return "assault landings come in waves 1, 2 and 3 only (2.1a)"
            if action.kind in BOAT_KINDS and action.kind != "LCI":
                have = t.wave(action.wave).count(action.kind)
                if have == 0:
                    return f"wave {action.wave} has no {action.kind}s (2.1g)"
                if self._used(action.wave, action.kind) >= have:
                    return f"wave {action.wave} has {have} {action.kind}s and all are used (2.1g)"
                if action.kind in ("LCT", "Rhino") and not self._dukws_ready(action.wave):
                    return (
                        f"every Dukw of wave {action.wave} must carry {t.dukw_min_points}+ load "
                        "points before any LCT or Rhino is used (2.1f)"
                    )
            if action.kind == "LCI":
                return "LCIs land only in transport landings (2.1m)"
            if self.open_boat is not None:
                return "close the open boat first"
        if isinstance(action, Load | LoadSteps) and kind in ("plan", "transports"):
            if not oob.has_unit(action.unit):
                return f"no unit {action.unit!r}"
            ob = self.open_boat if kind == "plan" else self.transport_open
            if ob is None:
                return "open a boat first"
            u = oob.unit(action.unit)
            bk = ob["kind"]
            if bk == DD:
                return f"{u.id} is not a DD tank; only DD tanks swim (2.1e)"
            bt = t.boat(bk)
            if u.type.load_class > bt.max_class:
                return (
                    f"{u.id} is load class {u.type.load_class}, above the {bk}'s "
                    f"{bt.max_class} (2.1c)"
                )
            if kind == "plan" and u.id in self._planned_steps():
                return f"{u.id} is already in the plan"
            return (
                f"{u.id} ({u.points} load points) does not fit in the {bk} "
                f"(room {self._capacity(bk, ob.get('lcas', 1)) - self._open_room_used(kind)}; "
                "only LCA groups or units too large for one boat may be split, 2.1j)"
            )
        if isinstance(action, EndPlan) and kind == "plan":
            problem = self._draft_problem() if self.open_boat is None else "close the open boat"
            if problem:
                return problem
        if isinstance(action, AssignNfst) and kind == "nfst":
            return f"{action.unit} is not an infantry unit of {action.battalion} (2.6d)"
        if isinstance(action, Select) and kind == "move":
            return f"{action.unit} has no move to make now (not ashore, already moved, or unable)"
        if isinstance(action, MoveTo) and kind == "move" and self.selected is not None:
            return (
                f"{self.selected} cannot reach {action.hex}: sea beyond the tide line, beach "
                "obstacles, the shingle without a leader or op sheet (2.3d), or too far"
            )
        return ""

    def _open_room_used(self, kind: str) -> int:
        return self._open_points() if kind == "plan" else self._tload_points()

    # ------------------------------------------------------------------ copies
    def __deepcopy__(self, memo: dict[int, Any]) -> TcsState:
        new = object.__new__(type(self))
        d = new.__dict__
        for k, v in self.__dict__.items():
            if k in ("game", "scenario", "scen", "plan", "_legal", "_legal_set"):
                d[k] = v
            elif k in ("log", "actions") or (
                isinstance(v, list) and (not v or isinstance(v[0], int | bool | str | None))
            ):
                d[k] = list(v)
            elif isinstance(v, set):
                d[k] = set(v)
            else:
                d[k] = copy.deepcopy(v, memo)
        return new

    # ------------------------------------------------------------------ snapshots
    def _where_text(self, w: int) -> str:
        return self.label(w) if w >= 0 else CODES[w]

    def _where_value(self, text: str) -> int:
        return FROM_CODE[text] if text in FROM_CODE else self.cell(text)

    def _dump(self) -> dict[str, Any]:
        oob = self.scen.oob
        units = {}
        for u in oob.units:
            i = u.index
            row = [
                self._where_text(self.where[i]),
                self.steps[i],
                self.carried[i],
                self.planned_beach[i],
                self.on_task[i],
            ]
            if row != ["await", u.steps, False, None, False]:
                units[u.id] = row
        leaders = {
            ld.id: [
                self.leader_status[ld.index],
                self.label(self.leader_cell[ld.index]) if self.leader_cell[ld.index] >= 0 else None,
                self.leader_boat[ld.index],
            ]
            for ld in oob.leaders
        }
        r = self.result
        return {
            "in_setup": self.in_setup,
            "turn": self.turn,
            "cursor": self.cursor,
            "started": self.started,
            "sd": self.sd,
            "wait": list(self.wait) if self.wait else None,
            "result": None
            if r is None
            else [r.winner, r.level, [[k, v] for k, v in r.points], r.detail],
            "tide_hour": self.tide_hour,
            "pillboxes": [self.label(c) for c in self.pillboxes],
            "pits": [self.label(c) for c in self.pits],
            "units": units,
            "moved": sorted(self.moved),
            "selected": self.selected,
            "free": sorted(self.uid(i) for i in self.free),
            "plan": list(self.plan.tokens()) if self.plan else None,
            "draft": list(
                Plan("draft", tuple(self.draft_boats), tuple(self.draft_groups)).tokens()
            ),
            "open_boat": self.open_boat,
            "partial": self.partial,
            "counters": dict(sorted(self.counters.items())),
            "leaders": leaders,
            "transports": {
                k: list(Plan("t", tuple(v)).tokens()) for k, v in sorted(self.transports.items())
            },
            "transport_open": self.transport_open,
            "landing": self.landing,
            "lctr_targets": [self.label(c) for c in self.lctr_targets],
            "lctr_done": self.lctr_done,
            "smoke": sorted(self.label(c) for c in self.smoke),
            "smoke_sessions": self.smoke_sessions,
            "air": [self.air_loadout, self.air_controller, self.air_attacks],
            "ammo": dict(sorted(self.ammo.items())),
            "nfst": dict(sorted(self.nfst.items())),
            "overdraft": dict(sorted(self.overdraft_added.items())),
            "stats": dict(sorted(self.stats.items())),
        }

    def _restore(self, data: dict[str, Any]) -> None:
        scen = self.scenario
        assert isinstance(scen, TcsScenario)
        self.scen = scen
        oob = scen.oob
        self.in_setup = data["in_setup"]
        self.turn = data["turn"]
        self.cursor = data["cursor"]
        self.started = data["started"]
        self.sd = data["sd"]
        self.wait = (data["wait"][0], data["wait"][1], data["wait"][2]) if data["wait"] else None
        r = data["result"]
        self.result = (
            None if r is None else Outcome(r[0], r[1], tuple((k, float(v)) for k, v in r[2]), r[3])
        )
        self.tide_hour = data["tide_hour"]
        self.pillboxes = [self.cell(x) for x in data["pillboxes"]]
        self.pits = [self.cell(x) for x in data["pits"]]
        n = len(oob.units)
        self.where = [AWAIT] * n
        self.steps = [u.steps for u in oob.units]
        self.carried = [False] * n
        self.planned_beach = [None] * n
        self.on_task = [False] * n
        for uid, row in data["units"].items():
            i = oob.index(uid)
            self.where[i] = self._where_value(row[0])
            self.steps[i], self.carried[i], self.planned_beach[i], self.on_task[i] = row[1:]
        self.moved = set(data["moved"])
        self.selected = data["selected"]
        self.free = {oob.index(u) for u in data["free"]}
        self.plan = Plan.from_tokens(data["plan"]) if data["plan"] is not None else None
        draft = Plan.from_tokens(data["draft"])
        self.draft_boats, self.draft_groups = list(draft.boats), list(draft.groups)
        self.open_boat = data["open_boat"]
        self.partial = data["partial"]
        self.counters = dict(data["counters"])
        nl = len(oob.leaders)
        self.leader_status = ["unselected"] * nl
        self.leader_cell = [-1] * nl
        self.leader_boat = [None] * nl
        for lid, (status, cell, boat) in data["leaders"].items():
            k = oob.leader(lid).index
            self.leader_status[k] = status
            self.leader_cell[k] = self.cell(cell) if cell is not None else -1
            self.leader_boat[k] = boat
        self.transports = {
            k: list(Plan.from_tokens(v).boats) for k, v in data["transports"].items()
        }
        self.transport_open = data["transport_open"]
        self.landing = data["landing"]
        self.lctr_targets = [self.cell(x) for x in data["lctr_targets"]]
        self.lctr_done = data["lctr_done"]
        self.smoke = {self.cell(x) for x in data["smoke"]}
        self.smoke_sessions = data["smoke_sessions"]
        self.air_loadout, self.air_controller, self.air_attacks = data["air"]
        self.ammo = {k: list(v) for k, v in data["ammo"].items()}
        self.nfst = {k: list(v) for k, v in data["nfst"].items()}
        self.overdraft_added = dict(data["overdraft"])
        self.stats = dict(data["stats"])

    # ------------------------------------------------------------------ metrics
    def metrics(self) -> dict[str, float]:
        s = self.stats

        def ratio(a: int, b: int) -> float:
            return a / b if b else 0.0

        landed = sum(s.get(f"steps_landed_{t}", 0) for t in UNIT_TYPES)
        lost = sum(s.get(f"steps_lost_{t}", 0) for t in UNIT_TYPES)
        out = {
            "first_wave_ashore": ratio(s.get("wave1_landed", 0), s.get("wave1_planned", 0)),
            "dd_tanks_ashore": ratio(s.get("dd_landed", 0), s.get("dd_launched", 0)),
            "dukw_guns_lost": ratio(s.get("dukw_guns_lost", 0), s.get("dukw_guns_loaded", 0)),
            "landed_off_target": ratio(
                s.get("units_wrong_beach", 0),
                s.get("units_wrong_beach", 0) + s.get("units_correct_beach", 0),
            ),
            "us_losses": ratio(lost, s.get("steps_committed", 0)),
            "turns_played": float(self.turn + 1 if not self.in_setup else 0),
            "steps_landed": float(landed),
            "steps_lost": float(lost),
            "dd_tanks_launched": float(s.get("dd_launched", 0)),
            "dd_tanks_landed": float(s.get("dd_landed", 0)),
            "dukw_guns_loaded": float(s.get("dukw_guns_loaded", 0)),
            "dukw_guns_landed": float(s.get("dukw_guns_landed", 0)),
            "leaders_landed": float(s.get("leaders_landed", 0)),
            "leaders_alive": float(
                sum(1 for st in self.leader_status if st in ("map", "removed", "aboard"))
            ),
            "units_correct_beach": float(s.get("units_correct_beach", 0)),
            "units_wrong_beach": float(s.get("units_wrong_beach", 0)),
            "battery_fires_he": float(sum(v[0] for v in self.ammo.values())),
            "battery_fires_smoke": float(sum(v[1] for v in self.ammo.values())),
            "illum_rounds": float(sum(v[2] for v in self.ammo.values())),
            "pillboxes": float(len(self.pillboxes)),
            "nfst_working": float(s.get("nfst_working", 0)),
        }
        for t in UNIT_TYPES:
            out[f"steps_landed_{t}"] = float(s.get(f"steps_landed_{t}", 0))
            out[f"steps_lost_{t}"] = float(s.get(f"steps_lost_{t}", 0))
        for k in (*BOAT_KINDS, DD):
            out[f"boats_sent_{k}"] = float(s.get(f"boats_sent_{k}", 0))
            out[f"boats_lost_{k}"] = float(s.get(f"boats_lost_{k}", 0))
        return out

    # ------------------------------------------------------------------ views
    def view(self, player: str | None = None) -> View:
        board = self.scen.board
        oob = self.scen.oob
        pieces: list[Piece] = []
        for i, w in enumerate(self.where):
            u = oob.units[i]
            if w >= 0:
                tags = []
                sec = self.scen.beach.sector_of(w)
                if self.planned_beach[i] and sec is not None and sec.beach != self.planned_beach[i]:
                    tags.append("wrong beach")
                if self.on_task[i]:
                    tags.append("op sheet")
                if u.is_29th:
                    tags.append("29th")
                pieces.append(
                    Piece(u.id, "US", u.id, board.label(w), f"{self.steps[i]} st", tuple(tags))
                )
        for land, boats in sorted(self.transports.items()):
            for b in boats:
                hidden = player == "German"
                pieces.append(
                    Piece(
                        b.id,
                        "US",
                        f"{b.kind} {b.id}",
                        b.box,
                        f"lands {land.split()[0]}",
                        hidden=hidden,
                    )
                )
        for k, ld in enumerate(oob.leaders):
            st = self.leader_status[k]
            if st in ("map", "dead"):
                marks_l = ("dead",) if st == "dead" else ()
                pieces.append(
                    Piece(ld.id, "US", ld.name, board.label(self.leader_cell[k]), "leader", marks_l)
                )
        for n, c in enumerate(self.pillboxes, start=1):
            pieces.append(Piece(f"PB-{n:02d}", "German", "Pill Box", board.label(c), "6[12]"))
        for n, c in enumerate(self.pits, start=1):
            pieces.append(Piece(f"RP-{n:02d}", "German", "Rocket Pit", board.label(c), "10[10]"))
        marks = [
            Mark(board.label(c), f"tide {self.tide_hour}", "tide")
            for c in self.scen.beach.line(self.tide_hour).values()
        ]
        marks.extend(Mark(board.label(c), "smoke", "smoke") for c in sorted(self.smoke))
        if player != "German":
            marks.extend(Mark(board.label(c), "LCT(R) target", "target") for c in self.lctr_targets)
        mod = pillbox_modifier(len(self.pillboxes), self.scen.tables)
        tracks = [
            ("tide line", self.tide_hour),
            ("pill boxes", f"{len(self.pillboxes)} (survival {mod:+d})"),
        ]
        for cal, (he, sm, il) in sorted(self.ammo.items()):
            tracks.append((f"ammo {cal}", f"HE {he}, smoke {sm}, illum {il}"))
        if self.air_attacks:
            tracks.append(("A-20s", f"{len(self.air_attacks)} attacks ({self.air_controller})"))
        alive = sum(1 for s in self.leader_status if s == "map")
        tracks.append(("leaders ashore", str(alive)))
        notes = self._plan_notes(player)
        return View(
            game="tcs",
            title=self.scen.title,
            player=player,
            turn=self.turn_label,
            phase=self.phase,
            board=board,
            pending=self.pending,
            pieces=tuple(pieces),
            marks=tuple(marks),
            tracks=tuple(tracks),
            notes=tuple(notes),
        )

    def _plan_notes(self, player: str | None) -> list[str]:
        plan = self.plan
        if plan is None:
            return []
        if player == "German":
            return ["US landing plan: secret"]
        notes = []
        for w in (1, 2, 3):
            boats = [b for b in plan.boats if b.wave == w]
            if not boats:
                continue
            waiting = [
                b for b in boats if any(self.where[self.unit_index(u)] == AWAIT for u, _ in b.load)
            ]
            by_box: dict[str, int] = {}
            for b in boats:
                by_box[b.box] = by_box.get(b.box, 0) + 1
            text = ", ".join(f"{n} to {box}" for box, n in sorted(by_box.items()))
            state = (
                "landed"
                if (not waiting and self.turn_has(f"wave{w}")) or self._wave_done(w)
                else "at sea"
            )
            notes.append(f"wave {w} ({state}): {len(boats)} boats, {text}")
        return notes

    def _wave_done(self, w: int) -> bool:
        label = f"wave{w}"
        return any(label in t.flags for t in self.scen.turns[: self.turn]) or (
            label in self.scen.turns[self.turn].flags and not self.in_setup and self.cursor > 9
        )


_ = (ABOARD, LOST)
