"""What a player sees of a TCS Omaha game, its metrics, and its snapshot.

:func:`view` builds the :class:`~omaha.kernel.view.View` (the German never
sees the US plan or the LCT(R) targets); :func:`metrics` computes the declared
metrics from the game's statistics; :func:`dump` and :func:`restore` write and
read the game's fields with printed labels.
"""

from __future__ import annotations

import array
import copy
import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from omaha.kernel.observation import Observation, ObservationLayout
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View
from omaha.tcs.components.oob import UnitType
from omaha.tcs.components.plan import Plan
from omaha.tcs.components.tables import BOAT_KINDS, DD, UNIT_TYPES
from omaha.tcs.components.turns import parse_time
from omaha.tcs.core import AWAIT, CODES, FROM_CODE, Decision, Status, TcsCore
from omaha.tcs.rules import pillbox_modifier
from omaha.tcs.scenario import TcsScenario

# ------------------------------------------------------------------ view
#: status markers, named as the kernel's pictures know them (palette.MARKER_STYLE)
STATUS_MARKS = {1: "suppressed", 2: "paralyzed"}
#: the NATO symbol of each unit type (kernel.svg.counters.SYMBOLS); trucks have none
SYMBOL = {
    "infantry": "infantry",
    "grenadier": "infantry",
    "pb_squad": "infantry",
    "mg": "machine_gun",
    "mortar": "mortar",
    "at_gun": "anti_tank",
    "inf_gun": "artillery",
    "fa_towed": "artillery",
    "fa_sp": "artillery",
    "tank": "armour",
    "halftrack": "mechanised",
    "truck": "",
    "pillbox": "pillbox",
    "rocket_pit": "rocket",
}


def counter_values(t: UnitType) -> str:
    """The values printed on a TCS counter (READINGS.md, "The printed counters"), as
    ``firepower[range]`` for each fire it has, the last number its morale (an area
    target: PB Sqd ``2[6]7``) or defence (a point target: Pill Box ``6[12] 5[7]6``,
    Inf Gun ``4[14]0``); ``-[-]`` where it has no area fire. A rocket pit prints
    ``10[10]-`` (its defence is ours, not printed)."""
    area = f"{t.area}[{t.range}]" if t.area else "-[-]"
    if t.name == "rocket_pit":
        return f"{area}-"
    if t.target == "point":
        point = f" {t.point}[{t.point_range}]" if t.point else ""
        return f"{area}{point}{t.defense}"
    return f"{area}{t.morale}" if t.morale else area


def echelon(uid: str) -> str:
    """The size mark of a counter: platoons (``E/2/16.1``) •••, weapons sections
    (``.mg``, ``.mtr``, ``.pak1``) ••; pill boxes, pits and trucks none."""
    _, dot, part = uid.partition(".")
    if not dot or part.startswith("trk") or uid.startswith(("PB-", "RP-")):
        return ""
    return "•••" if part.isdigit() else "••"


def unit_piece(core: TcsCore, i: int) -> Piece:
    """One unit on the map as a player sees it: the NATO symbol, the size mark, the
    values printed on its counter, its steps, and its markers."""
    scen = core.scenario
    u = scen.units[i]
    t = u.type
    w = core.where[i]
    marks = [STATUS_MARKS[core.status[i]]] if core.status[i] in STATUS_MARKS else []
    if t.move != "none" and core.fire_mode[i]:
        marks.append("fire_mode")
    if core.dug_in[i]:
        marks.append("dug_in")
    if i in core.marked or i in core.marked_point:
        marks.append("opportunity_fired")  # overwatch fire (15.0)
    if u.side == "US":
        sec = scen.beach.sector_of(w)
        if core.planned_beach[i] and sec is not None and sec.beach != core.planned_beach[i]:
            marks.append("wrong beach")
        if core.on_task[i] or u.formation in core.us_implemented:
            marks.append("op sheet")
    else:
        f = u.formation
        if scen.german.formation(f).status != "released" and f not in core.released:
            marks.append("unreleased")
    name = {"pillbox": "Pill Box", "rocket": "Rocket Pit"}.get(t.kind, u.id)
    return Piece(
        u.id,
        u.side,
        name,
        scen.board.label(w),
        counter_values(t),
        tuple(marks),
        kind=SYMBOL.get(t.name, ""),
        echelon=echelon(u.id),
        steps=(core.steps[i], u.steps) if u.steps > 1 else None,
    )


def view(core: TcsCore, player: str | None = None) -> View:
    """The board, pieces, markers and tracks ``player`` may see (None: everything)."""
    scen = core.scenario
    board = scen.board
    oob = scen.oob
    pieces = [unit_piece(core, i) for i, w in enumerate(core.where) if w >= 0]
    for land, boats in sorted(core.transports.items()):
        for b in boats:
            pieces.append(
                Piece(
                    b.id,
                    "US",
                    f"{b.kind} {b.id}",
                    b.box,
                    f"lands {land.split()[0]}",
                    hidden=player == "German",
                    kind="boat",
                )
            )
    for k, ld in enumerate(oob.leaders):
        st = core.leader_status[k]
        if st in ("map", "dead"):
            marks_l = ("dead",) if st == "dead" else ()
            pieces.append(
                Piece(
                    ld.id,
                    "US",
                    ld.name,
                    board.label(core.leader_cell[k]),
                    marks=("eliminated",) if marks_l else (),
                    kind="leader",
                )
            )
    marks = [
        Mark(board.label(c), f"tide {core.tide_hour}", "tide")
        for c in scen.beach.line(core.tide_hour).values()
    ]
    marks.extend(Mark(board.label(c), "smoke", "smoke") for c in sorted(core.smoke))
    if player != "German":
        marks.extend(Mark(board.label(c), "LCT(R) target", "target") for c in core.lctr_targets)
    for c, state in sorted(core.obstacles.items()):
        marks.append(Mark(board.label(c), OBSTACLE_MARKS[state], "obstacle"))
    for name in sorted(core.breaches):
        breach = scen.beach.breach_by_name[name]
        marks.append(Mark(board.label(breach.strand), f"breach {name}", "breach"))
    for draw, when in sorted(core.exits.items()):
        marks.append(Mark(board.label(scen.beach.exits[draw]), f"exit {draw} open {when}", "exit"))
    mod = pillbox_modifier(len(core.pillboxes), scen.tables)
    tracks = [
        ("tide line", core.tide_hour),
        ("pill boxes", f"{len(core.pillboxes)} (survival {mod:+d})"),
    ]
    for cal, (he, sm, il) in sorted(core.ammo.items()):
        tracks.append((f"ammo {cal}", f"HE {he}, smoke {sm}, illum {il}"))
    if core.air_attacks:
        tracks.append(("A-20s", f"{len(core.air_attacks)} attacks ({core.air_controller})"))
    alive = sum(1 for s in core.leader_status if s == "map")
    tracks.append(("leaders ashore", str(alive)))
    tracks.append(("US op sheets", f"{len(core.us_implemented)} new implemented"))
    if player != "US":
        tracks.append(("German released", ", ".join(sorted(core.released)) or "-"))
        tracks.append(
            (
                "German batteries",
                ", ".join(f"{b} {n}" for b, n in sorted(core.batteries.items())) or "-",
            )
        )
    tracks.append(("exits open", ", ".join(sorted(core.exits)) or "-"))
    return core.make_view(
        player,
        pieces=pieces,
        marks=marks,
        tracks=tracks,
        notes=plan_notes(core, player),
    )


OBSTACLE_MARKS = {
    "mines": "mines and wire",
    "wire": "wire only",
    "clear": "clear",
    "cleared": "wire cleared",
    "breached": "breached",
}


def plan_notes(core: TcsCore, player: str | None) -> list[str]:
    """The assault waves of the plan, at sea or landed (secret to the German)."""
    plan = core.plan
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
            b for b in boats if any(core.where[core.unit_index(u)] == AWAIT for u, _ in b.load)
        ]
        by_box: dict[str, int] = {}
        for b in boats:
            by_box[b.box] = by_box.get(b.box, 0) + 1
        text = ", ".join(f"{n} to {box}" for box, n in sorted(by_box.items()))
        state = "landed" if wave_landed(core, w, bool(waiting)) else "at sea"
        notes.append(f"wave {w} ({state}): {len(boats)} boats, {text}")
    return notes


def wave_landed(core: TcsCore, w: int, waiting: bool) -> bool:
    """Whether assault wave ``w`` has run in: on an earlier turn, or on this one once
    its boats have rolled (units placed, or hexes still to choose)."""
    label = f"wave{w}"
    if any(label in t.flags for t in core.scenario.turns[: core.turn]):
        return True
    if core.in_setup or not core.turn_has(label):
        return False
    running = core.landing is not None and core.landing.get("wave") == w
    return not waiting or running


# ------------------------------------------------------------------ observation
#: unit type -> category of the observation planes
CATEGORY = {
    "infantry": "infantry",
    "grenadier": "infantry",
    "pb_squad": "infantry",
    "mg": "weapons",
    "mortar": "weapons",
    "at_gun": "weapons",
    "inf_gun": "weapons",
    "tank": "vehicles",
    "halftrack": "vehicles",
    "truck": "vehicles",
    "fa_towed": "artillery",
    "fa_sp": "artillery",
    "pillbox": "fortifications",
    "rocket_pit": "fortifications",
}
CATEGORIES = ("infantry", "weapons", "vehicles", "artillery", "fortifications")
OBSTACLE_CODES = {"mines": 1, "wire": 2, "clear": 3, "cleared": 4, "breached": 5}
PLANES = (
    *(f"{side}_{c}" for side in ("us", "german") for c in CATEGORIES),
    "us_suppressed",
    "german_suppressed",
    "us_paralyzed",
    "german_paralyzed",
    "us_fire_mode",
    "german_fire_mode",
    "dug_in",
    "overwatch_marked",
    "unreleased",
    "us_leaders",
    "sea",
    "smoke",
    "lctr_target",
    "obstacle",
    "breach",
    "exit",
)
TRACKS = (
    "turn",
    "hour_turn",
    "to_move_us",
    "pillboxes",
    "ammo_he",
    "ammo_smoke",
    "ammo_illum",
    "leaders_ashore",
    "us_sheets",
    "exits_open",
    "us_boats_afloat",
    "german_released",
    "german_battery_fires",
)
MEANINGS = (
    *(
        (f"{side}_{c}", f"steps of {side.upper() if side == 'us' else 'German'} {c} in the hex")
        for side in ("us", "german")
        for c in CATEGORIES
    ),
    ("us_suppressed", "US units suppressed in the hex"),
    ("german_suppressed", "German units suppressed in the hex"),
    ("us_paralyzed", "US units paralyzed in the hex"),
    ("german_paralyzed", "German units paralyzed in the hex"),
    ("us_fire_mode", "US units in fire mode (4.0)"),
    ("german_fire_mode", "German units in fire mode (pill boxes and pits always)"),
    ("dug_in", "units dug in (either side)"),
    ("overwatch_marked", "units marked by overwatch fire (15.0)"),
    ("unreleased", "German units of companies not yet released (3.1)"),
    ("us_leaders", "US leaders alive in the hex (2.3f)"),
    ("sea", "1 where the sea is at the present tide line (1.12)"),
    ("smoke", "1 where smoke lies"),
    ("lctr_target", "1 on an LCT(R) target (US only; 0 for the German, 2.2a)"),
    (
        "obstacle",
        "beach obstacles: 0 untested, 1 mines and wire, 2 wire only, 3 clear, "
        "4 wire cleared, 5 breached (2.4)",
    ),
    ("breach", "1 on the strand hex of an open shingle breach (2.5)"),
    ("exit", "1 on an open draw exit"),
    ("turn", "turns played / turns of the scenario (0 during the set-up)"),
    ("hour_turn", "1 on an hour turn"),
    ("to_move_us", "1 when the US decides, 0 when the German does"),
    ("pillboxes", "pill boxes in play (2.1i)"),
    ("ammo_he", "HE battery fires in the pool (2.9)"),
    ("ammo_smoke", "smoke battery fires in the pool"),
    ("ammo_illum", "illumination rounds in the pool"),
    ("leaders_ashore", "US leaders on the map"),
    ("us_sheets", "new US op sheets implemented (2.3a)"),
    ("exits_open", "draw exits opened"),
    ("us_boats_afloat", "US transport boats assigned, not yet landed (US only)"),
    ("german_released", "German companies released (German only, 3.1)"),
    ("german_battery_fires", "battery fires left to the German (German only, 3.1)"),
)


class _Observer:
    """Per-scenario index tables the observation is filled from (built once)."""

    def __init__(self, scen: TcsScenario) -> None:
        self.scenario = scen
        n = self.cells = len(scen.board)
        self.layout = ObservationLayout(n, PLANES, TRACKS, MEANINGS)
        self.plane = plane = {name: k for k, name in enumerate(PLANES)}
        sides = {"US": "us", "German": "german"}
        units = scen.units
        #: each unit's offset of its steps plane, and of its side's status planes
        self.steps_at = np.array(
            [plane[f"{sides[u.side]}_{CATEGORY[u.type.name]}"] * n for u in units], np.int64
        )
        us = np.array([u.side == "US" for u in units], dtype=bool)
        self.suppressed_at = np.where(us, plane["us_suppressed"], plane["german_suppressed"]) * n
        self.paralyzed_at = np.where(us, plane["us_paralyzed"], plane["german_paralyzed"]) * n
        self.fire_at = np.where(us, plane["us_fire_mode"], plane["german_fire_mode"]) * n
        formations = sorted({u.formation for u in units if u.side != "US"})
        self.formation_index = {f: k for k, f in enumerate(formations)}
        german = scen.german
        self.held = np.array(  # German formations released from the start
            [german.formation(f).status == "released" for f in formations] + [True], dtype=bool
        )
        self.formation_of = np.array(
            [
                self.formation_index[u.formation] if u.side != "US" else len(formations)
                for u in units
            ],
            np.int64,
        )
        self.size = len(PLANES) * n
        self.sea: dict[str, npt.NDArray[np.int64]] = {}
        self.tracks = {name: self.layout.track_index(name) for name in TRACKS}
        # the same offsets as plain ints, for the kept observation's few changes
        self.unit_offsets = list(
            zip(
                self.steps_at.tolist(),
                self.suppressed_at.tolist(),
                self.paralyzed_at.tolist(),
                self.fire_at.tolist(),
                strict=True,
            )
        )
        started = {f for f, k in self.formation_index.items() if self.held[k]}
        #: each unit's German formation that waits for its release (3.1), else None
        self.waits_for = [
            u.formation if u.side != "US" and u.formation not in started else None for u in units
        ]
        self.units_of: dict[str, list[int]] = {}
        for u in units:
            if u.side != "US":
                self.units_of.setdefault(u.formation, []).append(u.index)
        self.pillbox_units = list(german.pillboxes)
        self.pillbox_set = frozenset(german.pillboxes)
        self.hour_turns = ["hour" in t.flags for t in scen.turns]

    def sea_cells(self, hour: str) -> npt.NDArray[np.int64]:
        hit = self.sea.get(hour)
        if hit is None:
            cells = sorted(self.scenario.beach.sea(hour))
            hit = self.sea[hour] = np.array(cells, np.int64) + self.plane["sea"] * self.cells
        return hit


_OBSERVERS: dict[int, _Observer] = {}


def _observer(scen: TcsScenario) -> _Observer:
    hit = _OBSERVERS.get(id(scen))
    if hit is None or hit.scenario is not scen:
        hit = _OBSERVERS[id(scen)] = _Observer(scen)
    return hit


def observation_layout(scen: TcsScenario) -> ObservationLayout:
    """The layout of :func:`observation` for ``scen`` (see ``MEANINGS``)."""
    return _observer(scen).layout


def fresh_observation(core: TcsCore, player: str) -> Observation:
    """:func:`observation` built from nothing (the reference the kept one is tested
    against): every piece on the map is open (counters are face up in TCS); the LCT(R)
    targets and assigned transports are secret to the German, the German release and
    batteries to the US (as :func:`view`)."""
    ob = _observer(core.scenario)
    scen = core.scenario
    n = ob.cells
    plane = ob.plane
    where = np.array(core.where, np.int64)
    on = where >= 0
    cells = where[on]
    index = np.flatnonzero(on)
    # statuses, modes and digging as index lists (enum and bool lists convert slowly)
    w, ok = core.where, Status.OK
    status = core.status
    touched = [i for i, x in enumerate(status) if x is not ok and w[i] >= 0]
    sup = [i for i in touched if status[i] == 1]
    par = [i for i in touched if status[i] == 2]
    fire = np.flatnonzero(np.array(core.fire_mode, bool) & on)
    dug = np.flatnonzero(np.array(core.dug_in, bool) & on)
    flat = [
        ob.steps_at[on] + cells,
        ob.suppressed_at[sup] + where[sup],
        ob.paralyzed_at[par] + where[par],
        ob.fire_at[fire] + where[fire],
        where[dug] + plane["dug_in"] * n,
    ]
    weights = [np.array(core.steps, np.float64)[on], *(np.ones(len(f)) for f in flat[1:])]
    marked = core.marked | core.marked_point
    if marked:
        m = np.zeros(len(core.where), dtype=bool)
        m[list(marked)] = True
        flat.append(cells[m[index]] + plane["overwatch_marked"] * n)
        weights.append(np.ones(len(flat[-1])))
    held = ob.held.copy()
    for f in core.released:
        k = ob.formation_index.get(f)
        if k is not None:
            held[k] = True
    waiting = ~held[ob.formation_of[on]]
    flat.append(cells[waiting] + plane["unreleased"] * n)
    weights.append(np.ones(len(flat[-1])))
    obs = np.bincount(
        np.concatenate(flat), weights=np.concatenate(weights), minlength=ob.layout.size
    ).astype(np.float32)
    grid = obs[: ob.size]
    for k in core.living_leaders_on_map():
        grid[plane["us_leaders"] * n + core.leader_cell[k]] += 1
    grid[ob.sea_cells(core.tide_hour)] = 1
    for c in core.smoke:
        grid[plane["smoke"] * n + c] = 1
    if player != "German":
        for c in core.lctr_targets:
            grid[plane["lctr_target"] * n + c] = 1
    for c, state in core.obstacles.items():
        grid[plane["obstacle"] * n + c] = OBSTACLE_CODES[state]
    for name in core.breaches:
        grid[plane["breach"] * n + scen.beach.breach_by_name[name].strand] = 1
    for draw in core.exits:
        grid[plane["exit"] * n + scen.beach.exits[draw]] = 1
    at = ob.tracks
    ammo = core.ammo.values()
    wait = core.wait
    obs[at["turn"]] = 0.0 if core.in_setup else (core.turn + 1) / len(scen.turns)
    obs[at["hour_turn"]] = not core.in_setup and "hour" in scen.turns[core.turn].flags
    obs[at["to_move_us"]] = wait is not None and wait[1] == "US"
    obs[at["pillboxes"]] = len(core.pillboxes)
    obs[at["ammo_he"]] = sum(v[0] for v in ammo)
    obs[at["ammo_smoke"]] = sum(v[1] for v in ammo)
    obs[at["ammo_illum"]] = sum(v[2] for v in ammo)
    obs[at["leaders_ashore"]] = len(core.living_leaders_on_map())
    obs[at["us_sheets"]] = len(core.us_implemented)
    obs[at["exits_open"]] = len(core.exits)
    if player != "German":
        obs[at["us_boats_afloat"]] = sum(len(b) for b in core.transports.values())
    if player != "US":
        obs[at["german_released"]] = len(core.released)
        obs[at["german_battery_fires"]] = sum(core.batteries.values())
    return obs


#: the unit lists a unit's planes are built from (:class:`_Kept`)
UNIT_FIELDS = ("where", "steps", "status", "fire_mode", "dug_in")
#: units compared a slice at a time: only a slice that differs is searched unit by unit
CHUNK = 48


def _differing(now: list[Any], before: list[Any]) -> list[int]:
    """The indices where two lists of the same length differ."""
    out: list[int] = []
    for lo in range(0, len(now), CHUNK):
        hi = lo + CHUNK
        if now[lo:hi] != before[lo:hi]:
            out.extend(i for i in range(lo, min(hi, len(now))) if now[i] != before[i])
    return out


class _Kept:
    """The observation of the position last observed, kept up to date by difference
    (issue 15's speed): the planes every player sees alike, and copies of the core's
    fields they were built from. :meth:`update` compares the core's fields with those
    copies and rewrites only what changed (a unit's entries, or a whole map plane), so
    however a field was changed (a procedure, ``edit()``, a restored snapshot) the
    planes follow it; the units the core noted as changed (``TcsCore.changed``) are
    looked at first, and a whole list is searched only when they do not account for
    its change. The secret plane (LCT(R) targets) and the tracks are not kept:
    :func:`observation` adds them to its copy for the player asking."""

    def __init__(self, ob: _Observer, core: TcsCore) -> None:
        self.ob = ob
        n = ob.cells
        plane = ob.plane
        #: the planes, written through ``values`` (an array of float32 whose items are
        #: cheap to change one by one) and copied out through ``obs`` (a view of it)
        self.values = array.array("f", bytes(4 * ob.layout.size))
        self.obs: Observation = np.frombuffer(self.values, np.float32)
        self.shared = False  # with a clone's copy (copy on write)
        self.dug_base = plane["dug_in"] * n
        self.marked_base = plane["overwatch_marked"] * n
        self.unreleased_base = plane["unreleased"] * n
        core.take_changed()
        self.where: list[int] = core.where[:]
        self.steps: list[int] = core.steps[:]
        self.status: list[int] = core.status[:]
        self.fire_mode: list[bool] = core.fire_mode[:]
        self.dug_in: list[bool] = core.dug_in[:]
        self.marked_area = frozenset(core.marked)
        self.marked_point = frozenset(core.marked_point)
        self.marked = self.marked_area | self.marked_point
        self.released = frozenset(core.released)
        #: each unit's entries in the unit planes, as last added: (index, value)
        self.entries: list[tuple[tuple[int, int], ...]] = [()] * len(ob.unit_offsets)
        self._refresh(range(len(ob.unit_offsets)))
        self.pillboxes = self._pillboxes()
        # the map planes: each rebuilt whole when the fields it shows change
        self.leaders: tuple[list[str], list[int]] | None = None
        self.tide: str | None = None
        self.smoke: frozenset[int] | None = None
        self.obstacles: dict[int, str] | None = None
        self.breaches: frozenset[str] | None = None
        self.exits: frozenset[str] | None = None
        self._map_planes(core)

    def copy(self) -> _Kept:
        """A copy for a clone of the core, sharing the planes and lists until either
        would change them (:meth:`_own`): a clone never observed copies nothing."""
        self.shared = True
        return copy.copy(self)

    def _own(self) -> None:
        """Take a copy of what is changed in place, shared with a clone's (the other
        copies are replaced whole, never changed)."""
        self.values = array.array("f", self.values)
        self.obs = np.frombuffer(self.values, np.float32)
        for name in (*UNIT_FIELDS, "entries"):
            setattr(self, name, getattr(self, name)[:])
        self.shared = False

    def update(self, core: TcsCore) -> bool:
        """Bring the planes to ``core``'s fields; False (nothing changed) when its unit
        lists are not of this order of battle's length (build afresh then)."""
        noted = core.take_changed()
        if self.shared:
            self._own()
        changed: set[int] = set()
        if not (
            core.where == self.where
            and core.steps == self.steps
            and core.status == self.status
            and core.fire_mode == self.fire_mode
            and core.dug_in == self.dug_in
        ):
            fields: tuple[tuple[list[Any], list[Any]], ...] = (
                (core.where, self.where),
                (core.steps, self.steps),
                (core.status, self.status),
                (core.fire_mode, self.fire_mode),
                (core.dug_in, self.dug_in),
            )
            pairs = [(now, before) for now, before in fields if now != before]
            if any(len(now) != len(before) for now, before in pairs):
                return False
            for i in noted:
                for now, before in pairs:
                    if now[i] != before[i]:
                        changed.add(i)
                        for field, kept in pairs:
                            kept[i] = field[i]
                        break
            for now, before in pairs:
                if now != before:  # a change nobody noted: search the list
                    for i in _differing(now, before):
                        changed.add(i)
                        before[i] = now[i]
            if not self.ob.pillbox_set.isdisjoint(changed):
                self.pillboxes = self._pillboxes()
        if core.marked != self.marked_area or core.marked_point != self.marked_point:
            self.marked_area = frozenset(core.marked)
            self.marked_point = frozenset(core.marked_point)
            marked = self.marked_area | self.marked_point
            changed.update(marked ^ self.marked)
            self.marked = marked
        released = core.released
        if released != self.released:
            for f in released ^ self.released:
                changed.update(self.ob.units_of.get(f, ()))
            self.released = frozenset(released)
        if changed:
            self._refresh(changed)
        self._map_planes(core)
        return True

    def _pillboxes(self) -> int:
        where = self.where
        return sum(1 for i in self.ob.pillbox_units if where[i] >= 0)

    def _refresh(self, units: Iterable[int]) -> None:
        """Take ``units``' entries out of the unit planes and put in what the copies of
        the fields give now."""
        entries, values = self.entries, self.values
        for i in units:
            for k, v in entries[i]:
                values[k] -= v
            new = entries[i] = self._entries(i)
            for k, v in new:
                values[k] += v

    def _entries(self, i: int) -> tuple[tuple[int, int], ...]:
        """Unit ``i``'s entries in the unit planes, as the copies of the fields have it:
        its steps in its side's category plane, and a 1 in each of its markers' planes."""
        w = self.where[i]
        if w < 0:
            return ()
        steps_at, suppressed_at, paralyzed_at, fire_at = self.ob.unit_offsets[i]
        out = [(steps_at + w, self.steps[i])]
        status = self.status[i]
        if status == 1:
            out.append((suppressed_at + w, 1))
        elif status == 2:
            out.append((paralyzed_at + w, 1))
        if self.fire_mode[i]:
            out.append((fire_at + w, 1))
        if self.dug_in[i]:
            out.append((self.dug_base + w, 1))
        if i in self.marked:
            out.append((self.marked_base + w, 1))
        waits = self.ob.waits_for[i]
        if waits is not None and waits not in self.released:
            out.append((self.unreleased_base + w, 1))
        return tuple(out)

    def _plane(self, name: str) -> Observation:
        return self.ob.layout.plane(self.obs, name)

    def _map_planes(self, core: TcsCore) -> None:
        """Rewrite each map plane whose fields changed since it was last written."""
        status, cells = core.leader_status, core.leader_cell
        if self.leaders is None or self.leaders != (status, cells):
            self.leaders = (status[:], cells[:])
            grid = self._plane("us_leaders")
            grid[:] = 0
            for k in core.living_leaders_on_map():
                grid[cells[k]] += 1
        if core.tide_hour != self.tide:
            self.tide = core.tide_hour
            self._plane("sea")[:] = 0
            self.obs[self.ob.sea_cells(core.tide_hour)] = 1
        if self.smoke is None or core.smoke != self.smoke:
            self.smoke = frozenset(core.smoke)
            self._mark("smoke", self.smoke)
        if self.obstacles is None or core.obstacles != self.obstacles:
            self.obstacles = dict(core.obstacles)
            grid = self._plane("obstacle")
            grid[:] = 0
            for c, state in self.obstacles.items():
                grid[c] = OBSTACLE_CODES[state]
        beach = self.ob.scenario.beach
        if self.breaches is None or core.breaches.keys() != self.breaches:
            self.breaches = frozenset(core.breaches)
            self._mark("breach", (beach.breach_by_name[b].strand for b in self.breaches))
        if self.exits is None or core.exits.keys() != self.exits:
            self.exits = frozenset(core.exits)
            self._mark("exit", (beach.exits[draw] for draw in self.exits))

    def _mark(self, name: str, cells: Iterable[int]) -> None:
        grid = self._plane(name)
        grid[:] = 0
        for c in cells:
            grid[c] = 1


def observation(core: TcsCore, player: str) -> Observation:
    """What ``player`` sees, as numbers: every piece on the map is open (counters are
    face up in TCS); the LCT(R) targets and assigned transports are secret to the
    German, the German release and batteries to the US (as :func:`view`). A new array
    each call, copied from the planes the core keeps (:class:`_Kept`); exactly what
    :func:`fresh_observation` builds."""
    ob = _observer(core.scenario)
    kept = core.observed
    if not (isinstance(kept, _Kept) and kept.ob is ob and kept.update(core)):
        kept = _Kept(ob, core)
        core.keep_observed(kept)
    obs = kept.obs.copy()
    if player != "German" and core.lctr_targets:
        base = ob.plane["lctr_target"] * ob.cells
        for c in core.lctr_targets:
            obs[base + c] = 1
    ammo = core.ammo
    he, smoke, illum = map(sum, zip(*ammo.values(), strict=True)) if ammo else (0, 0, 0)
    wait = core.wait
    setup = core.in_setup
    us, german = player != "German", player != "US"
    obs[ob.size :] = (
        0.0 if setup else (core.turn + 1) / len(ob.hour_turns),
        not setup and ob.hour_turns[core.turn],
        wait is not None and wait[1] == "US",
        kept.pillboxes,
        he,
        smoke,
        illum,
        core.leader_status.count("map"),
        len(core.us_implemented),
        len(core.exits),
        sum(map(len, core.transports.values())) if us else 0,
        len(core.released) if german else 0,
        sum(core.batteries.values()) if german else 0,
    )
    return obs


def returns(core: TcsCore) -> dict[str, float]:
    """Graded by victory level (READINGS.md, "Agents"): the winner's best level 1, its
    next 0.5 (1/k of the way down k levels), the loser the opposite; 0 each for a
    game with no winner (a scenario without victory conditions)."""
    result = core.result
    victory = core.scenario.victory
    if result is None or result.winner is None or victory is None:
        return {"US": 0.0, "German": 0.0}
    won = [lv.level for lv in victory.levels if lv.winner == result.winner]
    if result.winner == "German":
        won.reverse()  # the German's best level is the last of the list
    rank = won.index(result.level) if result.level in won else 0
    value = (len(won) - rank) / len(won)
    loser = "German" if result.winner == "US" else "US"
    return {result.winner: value, loser: -value}


# ------------------------------------------------------------------ metrics
def first_exit_hours(core: TcsCore) -> float:
    """Hours after 06:30 (H-hour) of the first draw exit opened; NaN when none was."""
    if not core.exits:
        return math.nan
    times = []
    for label in core.exits.values():
        day, minutes = parse_time(label)
        times.append((day - 6) * 24 + (minutes - 390) / 60)
    return min(times)


def metrics(core: TcsCore) -> dict[str, float]:
    """The metrics the game declares (:mod:`omaha.tcs.game`), from the statistics."""
    s = core.stats

    def ratio(a: int, b: int) -> float:
        return a / b if b else 0.0

    landed = sum(s.get(f"steps_landed_{t}", 0) for t in UNIT_TYPES)
    lost = sum(s.get(f"steps_lost_{t}", 0) for t in UNIT_TYPES)
    victory = core.scenario.victory
    result = core.result
    out = {
        "us_win": math.nan
        if victory is None
        else float(result is not None and result.winner == "US"),
        "exits_opened": float(len(core.exits)),
        "first_exit_hours": first_exit_hours(core),
        "german_losses": min(
            1.0, ratio(s.get("german_steps_lost", 0), s.get("german_steps_committed", 0))
        ),
        "pillboxes_destroyed": float(s.get("pillboxes_destroyed", 0)),
        "first_wave_ashore": ratio(s.get("wave1_landed", 0), s.get("wave1_planned", 0)),
        "dd_tanks_ashore": ratio(s.get("dd_landed", 0), s.get("dd_launched", 0)),
        "dukw_guns_lost": ratio(s.get("dukw_guns_lost", 0), s.get("dukw_guns_loaded", 0)),
        "landed_off_target": ratio(
            s.get("units_wrong_beach", 0),
            s.get("units_wrong_beach", 0) + s.get("units_correct_beach", 0),
        ),
        "us_losses": min(1.0, ratio(lost, s.get("steps_committed", 0))),
        "turns_played": float(core.turn + 1 if not core.in_setup else 0),
        "steps_landed": float(landed),
        "steps_lost": float(lost),
        "dd_tanks_launched": float(s.get("dd_launched", 0)),
        "dd_tanks_landed": float(s.get("dd_landed", 0)),
        "dukw_guns_loaded": float(s.get("dukw_guns_loaded", 0)),
        "dukw_guns_landed": float(s.get("dukw_guns_landed", 0)),
        "leaders_landed": float(s.get("leaders_landed", 0)),
        "leaders_alive": float(
            sum(1 for st in core.leader_status if st in ("map", "removed", "aboard"))
        ),
        "units_correct_beach": float(s.get("units_correct_beach", 0)),
        "units_wrong_beach": float(s.get("units_wrong_beach", 0)),
        "battery_fires_he": float(sum(v[0] for v in core.ammo.values())),
        "battery_fires_smoke": float(sum(v[1] for v in core.ammo.values())),
        "illum_rounds": float(sum(v[2] for v in core.ammo.values())),
        "pillboxes": float(len(core.pillboxes)),
        "nfst_working": float(s.get("nfst_working", 0)),
        "obstacles_tested": float(len(core.obstacles)),
        "breaches_opened": float(len(core.breaches)),
    }
    for t in UNIT_TYPES:
        out[f"steps_landed_{t}"] = float(s.get(f"steps_landed_{t}", 0))
        out[f"steps_lost_{t}"] = float(s.get(f"steps_lost_{t}", 0))
    for k in (*BOAT_KINDS, DD):
        out[f"boats_sent_{k}"] = float(s.get(f"boats_sent_{k}", 0))
        out[f"boats_lost_{k}"] = float(s.get(f"boats_lost_{k}", 0))
    return out


# ------------------------------------------------------------------ snapshots
def _where_text(core: TcsCore, w: int) -> str:
    return core.label(w) if w >= 0 else CODES[w]


def _where_value(core: TcsCore, text: str) -> int:
    return FROM_CODE[text] if text in FROM_CODE else core.cell(text)


def _labels(core: TcsCore, cells: Iterable[int]) -> list[str]:
    return sorted(core.label(c) for c in cells)


def _uids(core: TcsCore, units: Iterable[int]) -> list[str]:
    return sorted(core.uid(i) for i in units)


def dump(core: TcsCore) -> dict[str, Any]:
    """The game's fields as JSON-able data with printed labels."""
    scen = core.scenario
    units = {}
    for u in scen.units:
        i = u.index
        row = [
            _where_text(core, core.where[i]),
            core.steps[i],
            core.carried[i],
            core.planned_beach[i],
            core.on_task[i],
            core.fire_mode[i],
            int(core.status[i]),
            core.dug_in[i],
            core.defense_turns[i],
        ]
        if row != ["await", u.steps, False, None, False, u.side == "German", 0, False, 0]:
            units[u.id] = row
    leaders = {
        ld.id: [
            core.leader_status[ld.index],
            core.label(core.leader_cell[ld.index]) if core.leader_cell[ld.index] >= 0 else None,
            core.leader_boat[ld.index],
        ]
        for ld in scen.oob.leaders
    }
    r = core.result
    return {
        "in_setup": core.in_setup,
        "turn": core.turn,
        "cursor": core.cursor,
        "started": core.started,
        "sd": core.sd,
        "wait": [str(core.wait[0]), core.wait[1], core.wait[2]] if core.wait else None,
        "result": None
        if r is None
        else [r.winner, r.level, [[k, v] for k, v in r.points], r.detail],
        "tide_hour": core.tide_hour,
        "units": units,
        "moved": sorted(core.moved),
        "acted": _uids(core, core.acted),
        "fired_point": _uids(core, core.fired_point),
        "spared": _uids(core, core.spared),
        "selected": core.selected,
        "free": _uids(core, core.free),
        "marked": _uids(core, core.marked),
        "marked_point": _uids(core, core.marked_point),
        "revealed": _uids(core, core.revealed),
        "road_moved": _uids(core, core.road_moved),
        "fired_upon": _uids(core, core.fired_upon),
        "tested": _uids(core, core.tested),
        "combat": core.combat,
        "trigger": core.trigger,
        "plan": list(core.plan.tokens()) if core.plan else None,
        "draft": list(Plan("draft", tuple(core.draft_boats), tuple(core.draft_groups)).tokens()),
        "open_boat": core.open_boat,
        "partial": core.partial,
        "counters": dict(sorted(core.counters.items())),
        "leaders": leaders,
        "transports": {
            k: list(Plan("t", tuple(v)).tokens()) for k, v in sorted(core.transports.items())
        },
        "transport_open": core.transport_open,
        "landing": core.landing,
        "lctr_targets": [core.label(c) for c in core.lctr_targets],
        "lctr_done": core.lctr_done,
        "smoke": _labels(core, core.smoke),
        "smoke_sessions": core.smoke_sessions,
        "air": [core.air_loadout, core.air_controller, core.air_attacks],
        "ammo": dict(sorted(core.ammo.items())),
        "missions": sorted(core.missions),
        "nfst": dict(sorted(core.nfst.items())),
        "overdraft": dict(sorted(core.overdraft_added.items())),
        "obstacles": {core.label(c): v for c, v in sorted(core.obstacles.items())},
        "clear_from": {core.label(c): v for c, v in sorted(core.clear_from.items())},
        "breaching": {core.label(c): v for c, v in sorted(core.breaching.items())},
        "breaches": dict(sorted(core.breaches.items())),
        "breach_traffic": dict(sorted(core.breach_traffic.items())),
        "exits": dict(sorted(core.exits.items())),
        "company_morale": dict(sorted(core.company_morale.items())),
        "us_sheets": dict(sorted(core.us_sheets.items())),
        "us_implemented": sorted(core.us_implemented),
        "released": sorted(core.released),
        "entered": dict(sorted(core.entered.items())),
        "german_sheets": sorted(core.german_sheets),
        "batteries": dict(sorted(core.batteries.items())),
        "stats": dict(sorted(core.stats.items())),
    }


def restore(core: TcsCore, data: dict[str, Any]) -> None:
    """Inverse of :func:`dump` (the kernel's fields are already set)."""
    scen = core.scenario
    core.init_fields()
    core.in_setup = data["in_setup"]
    core.turn = data["turn"]
    core.cursor = data["cursor"]
    core.started = data["started"]
    core.sd = data["sd"]
    wait = data["wait"]
    core.wait = (Decision(wait[0]), wait[1], wait[2]) if wait else None
    r = data["result"]
    core.result = (
        None if r is None else Outcome(r[0], r[1], tuple((k, float(v)) for k, v in r[2]), r[3])
    )
    core.tide_hour = data["tide_hour"]
    for uid, row in data["units"].items():
        i = core.unit_index(uid)
        core.where[i] = _where_value(core, row[0])
        (
            core.steps[i],
            core.carried[i],
            core.planned_beach[i],
            core.on_task[i],
            core.fire_mode[i],
            status,
            core.dug_in[i],
            core.defense_turns[i],
        ) = row[1:]
        core.status[i] = Status(status)

    def idx(ids: list[str]) -> set[int]:
        return {core.unit_index(u) for u in ids}

    core.moved = set(data["moved"])
    core.acted = idx(data["acted"])
    core.fired_point = idx(data["fired_point"])
    core.spared = idx(data["spared"])
    core.selected = data["selected"]
    core.free = idx(data["free"])
    core.marked = idx(data["marked"])
    core.marked_point = idx(data["marked_point"])
    core.revealed = idx(data["revealed"])
    core.road_moved = idx(data["road_moved"])
    core.fired_upon = idx(data["fired_upon"])
    core.tested = idx(data["tested"])
    core.combat = data["combat"]
    core.trigger = data["trigger"]
    core.plan = Plan.from_tokens(data["plan"]) if data["plan"] is not None else None
    draft = Plan.from_tokens(data["draft"])
    core.draft_boats, core.draft_groups = list(draft.boats), list(draft.groups)
    core.open_boat = data["open_boat"]
    core.partial = data["partial"]
    core.counters = dict(data["counters"])
    for lid, (status, cell, boat) in data["leaders"].items():
        k = scen.oob.leader(lid).index
        core.leader_status[k] = status
        core.leader_cell[k] = core.cell(cell) if cell is not None else -1
        core.leader_boat[k] = boat
    core.transports = {k: list(Plan.from_tokens(v).boats) for k, v in data["transports"].items()}
    core.transport_open = data["transport_open"]
    core.landing = data["landing"]
    core.lctr_targets = [core.cell(x) for x in data["lctr_targets"]]
    core.lctr_done = data["lctr_done"]
    core.smoke = {core.cell(x) for x in data["smoke"]}
    core.smoke_sessions = data["smoke_sessions"]
    core.air_loadout, core.air_controller, core.air_attacks = data["air"]
    core.ammo = {k: list(v) for k, v in data["ammo"].items()}
    core.missions = set(data["missions"])
    core.nfst = {k: list(v) for k, v in data["nfst"].items()}
    core.overdraft_added = dict(data["overdraft"])
    core.obstacles = {core.cell(k): v for k, v in data["obstacles"].items()}
    core.clear_from = {core.cell(k): v for k, v in data["clear_from"].items()}
    core.breaching = {core.cell(k): v for k, v in data["breaching"].items()}
    core.breaches = dict(data["breaches"])
    core.breach_traffic = dict(data["breach_traffic"])
    core.exits = dict(data["exits"])
    core.company_morale = dict(data["company_morale"])
    core.us_sheets = dict(data["us_sheets"])
    core.us_implemented = set(data["us_implemented"])
    core.released = set(data["released"])
    core.entered = dict(data["entered"])
    core.german_sheets = set(data["german_sheets"])
    core.batteries = dict(data["batteries"])
    core.stats = dict(data["stats"])
    core.reindex()
