"""What a player of TCS Omaha sees, as numbers (issue 15: the agents' observation).

The layout (``PLANES``, ``TRACKS``, ``MEANINGS``): 26 planes over the map's cells and
13 tracks. :func:`observation` copies it from the planes the core keeps between calls
(:class:`Kept`), brought up to date from the core's journal of what changed
(:class:`omaha.tcs.core.Journal`: the core's mutators write it, only while an
observation is kept), so a decision that changes little costs little;
:func:`fresh_observation` builds the same from nothing (the reference the kept one is
tested against). The secret parts (the LCT(R) targets, the US transports, the German
release and batteries) and the tracks are written for the player asking, where they
differ from what was written for the last one.
"""

from __future__ import annotations

import array
import copy
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from omaha.kernel.observation import Observation, ObservationLayout
from omaha.tcs.core import (
    BREACHES,
    EXITS,
    LEADERS,
    OBSTACLES,
    POOLS,
    RELEASED,
    SMOKE,
    TIDE,
    Journal,
    Status,
    TcsCore,
)
from omaha.tcs.scenario import TcsScenario

# ------------------------------------------------------------------ layout
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


#: the planes of a unit's markers shown alike for both sides
_MARKS = ("dug_in", "overwatch_marked", "unreleased")


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
        #: where each plane starts
        self.plane_base = {name: k * n for name, k in plane.items()}
        #: the same offsets as plain ints, for the kept observation's few changes: each
        #: unit's steps, suppressed, paralyzed, fire mode, dug in, marked, unreleased
        self.unit_bases = [
            (steps, suppressed, paralyzed, fire, *(self.plane_base[p] for p in _MARKS))
            for steps, suppressed, paralyzed, fire in zip(
                self.steps_at.tolist(),
                self.suppressed_at.tolist(),
                self.paralyzed_at.tolist(),
                self.fire_at.tolist(),
                strict=True,
            )
        ]
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
        self.lctr_base = plane["lctr_target"] * n

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


# ------------------------------------------------------------------ the kept planes
#: A unit's part of the unit planes, as last written: its cell, steps, status (0 OK,
#: 1 suppressed, 2 paralyzed), fire mode, dug in, overwatch marked, waiting for its
#: company's release (3.1); None off the map.
Shown = tuple[int, int, int, bool, bool, bool, bool]


def _take_out(values: array.array[float], base: tuple[int, ...], was: Shown) -> None:
    """Take a unit's entries (as :data:`Shown` last) out of the unit planes."""
    c = was[0]
    values[base[0] + c] -= was[1]
    if was[2]:
        values[base[was[2]] + c] -= 1
    if was[3]:
        values[base[3] + c] -= 1
    if was[4]:
        values[base[4] + c] -= 1
    if was[5]:
        values[base[5] + c] -= 1
    if was[6]:
        values[base[6] + c] -= 1


class Kept:
    """The planes every player sees alike, of the position last observed (issue 15's
    speed), written through ``values`` (an array of float32 whose items are cheap to
    change one by one) and copied out through ``obs`` (numpy's view of it); the LCT(R)
    targets and the tracks as written last, for the player who asked.

    :meth:`update` redoes only what the core's journal names: each unit named has what
    it shows compared with what it showed (``shown``) and its entries in the unit
    planes changed where they differ (a unit whose mode or digging alone changed has just
    those entries changed); each record named has its map plane written again
    (leaders, sea, smoke, obstacles, breaches, exits) or its counts taken again (a
    German release also names the units of the companies released). So every change of
    what the planes show goes through the core's mutators (``place``, ``set_steps``,
    ...); ``edit()``, a restored snapshot and unpickling drop the kept planes instead
    (built again at the next call)."""

    def __init__(self, ob: _Observer, core: TcsCore) -> None:
        self.ob = ob
        self.values = array.array("f", bytes(4 * ob.layout.size))
        self.obs: Observation = np.frombuffer(self.values, np.float32)
        self.shared = False  # with a clone's copy (copy on write)
        self.shown: list[Shown | None] = [None] * len(ob.unit_bases)
        self.released = frozenset(core.released)
        self._refresh(core, range(len(ob.unit_bases)))
        self.pillboxes = self._pillboxes(core)
        self.leaders_ashore = 0
        for record in (LEADERS, TIDE, SMOKE, OBSTACLES, BREACHES, EXITS):
            self._redo(core, record)
        #: what the pools count (2.9, 2.1m, 3.1, 2.3a): he, smoke, illum, US op sheets,
        #: US boats afloat, German battery fires
        self.pools = self._pools(core)
        #: the tracks as last written, and what they were written for (None: write them)
        self.tracks: tuple[float, ...] = (0.0,) * len(TRACKS)
        self.tracks_for: tuple[object, ...] | None = None
        #: the LCT(R) targets written (for the player who asked last)
        self.targets: list[int] = []

    def copy(self) -> Kept:
        """A copy for a clone of the core, sharing the planes until either would change
        them (:meth:`own`): a clone never observed copies nothing."""
        self.shared = True
        return copy.copy(self)

    def own(self) -> None:
        """Take a copy of what is changed in place, shared with a clone's."""
        self.values = array.array("f", self.values)
        self.obs = np.frombuffer(self.values, np.float32)
        self.shown = self.shown[:]
        self.shared = False

    def update(self, core: TcsCore, journal: Journal) -> None:
        """Redo what the journal names, and empty it."""
        units, modes, records = journal.units, journal.modes, journal.records
        if not (units or modes or records):
            return
        if self.shared:
            self.own()
        if modes:
            self._modes(core, modes)
            modes.clear()
        if records:  # what the tracks count may have changed: write them again
            self.tracks_for = None
            if RELEASED in records:
                released = core.released
                for f in sorted(released ^ self.released):
                    units.update(self.ob.units_of.get(f, ()))
                self.released = frozenset(released)
            if POOLS in records:
                self.pools = self._pools(core)
            for record in records:
                self._redo(core, record)
            records.clear()
        if units:
            self._refresh(core, units)
            if not self.ob.pillbox_set.isdisjoint(units):
                self.pillboxes = self._pillboxes(core)
                self.tracks_for = None
            units.clear()

    def _pillboxes(self, core: TcsCore) -> int:
        where = core.where
        return sum(1 for i in self.ob.pillbox_units if where[i] >= 0)

    @staticmethod
    def _pools(core: TcsCore) -> tuple[int, ...]:
        ammo = core.ammo
        he, smoke, illum = map(sum, zip(*ammo.values(), strict=True)) if ammo else (0, 0, 0)
        boats = sum(map(len, core.transports.values()))
        return (he, smoke, illum, len(core.us_implemented), boats, sum(core.batteries.values()))

    def _modes(self, core: TcsCore, units: Iterable[int]) -> None:
        """The fire mode and digging of ``units`` where they stand as shown (the units
        also in the journal's ``units`` are then brought up to date whole)."""
        shown, values, bases = self.shown, self.values, self.ob.unit_bases
        fire_mode, dug_in = core.fire_mode, core.dug_in
        for i in units:
            was = shown[i]
            if was is None:
                continue  # off the map: nothing shows
            fire, dug = fire_mode[i], dug_in[i]
            if fire == was[3] and dug == was[4]:
                continue
            base, c = bases[i], was[0]
            if fire != was[3]:
                values[base[3] + c] += fire - was[3]
            if dug != was[4]:
                values[base[4] + c] += dug - was[4]
            shown[i] = (c, was[1], was[2], fire, dug, was[5], was[6])

    def _refresh(self, core: TcsCore, units: Iterable[int]) -> None:
        """Bring ``units``' entries in the unit planes to what the core's fields give now
        (:data:`Shown`): their steps in their side's category plane, a 1 in each of
        their markers' planes."""
        shown, values = self.shown, self.values
        bases, waits_for = self.ob.unit_bases, self.ob.waits_for
        where, steps, status = core.where, core.steps, core.status
        fire_mode, dug_in = core.fire_mode, core.dug_in
        marked, marked_point, released = core.marked, core.marked_point, core.released
        for i in units:
            w = where[i]
            was = shown[i]
            base = bases[i]
            if w < 0:
                if was is not None:
                    shown[i] = None
                    _take_out(values, base, was)
                continue
            waits = waits_for[i]
            now = (
                w,
                steps[i],
                status[i],
                fire_mode[i],
                dug_in[i],
                i in marked or i in marked_point,
                waits is not None and waits not in released,
            )
            if now == was:
                continue
            shown[i] = now
            if was is not None:
                if was[0] == w:  # the same hex: only what differs (steps, a marker)
                    if was[1] != now[1]:
                        values[base[0] + w] += now[1] - was[1]
                    if was[2] != now[2]:
                        if was[2]:
                            values[base[was[2]] + w] -= 1
                        if now[2]:
                            values[base[now[2]] + w] += 1
                    if was[3] != now[3]:
                        values[base[3] + w] += now[3] - was[3]
                    if was[4] != now[4]:
                        values[base[4] + w] += now[4] - was[4]
                    if was[5] != now[5]:
                        values[base[5] + w] += now[5] - was[5]
                    if was[6] != now[6]:
                        values[base[6] + w] += now[6] - was[6]
                    continue
                _take_out(values, base, was)
            values[base[0] + w] += now[1]
            if now[2]:
                values[base[now[2]] + w] += 1
            if now[3]:
                values[base[3] + w] += 1
            if now[4]:
                values[base[4] + w] += 1
            if now[5]:
                values[base[5] + w] += 1
            if now[6]:
                values[base[6] + w] += 1

    def _redo(self, core: TcsCore, record: str) -> None:
        """Write again the map plane of a record the journal names (items written
        through ``values``: cheaper one by one than numpy's)."""
        ob = self.ob
        values, at = self.values, ob.plane_base
        beach = ob.scenario.beach
        if record == LEADERS:
            self._clear("us_leaders")
            base = at["us_leaders"]
            ashore = core.living_leaders_on_map()
            for k in ashore:
                values[base + core.leader_cell[k]] += 1
            self.leaders_ashore = len(ashore)
        elif record == TIDE:
            self._clear("sea")
            self.obs[ob.sea_cells(core.tide_hour)] = 1
        elif record == SMOKE:
            self._mark("smoke", core.smoke)
        elif record == OBSTACLES:
            self._clear("obstacle")
            base = at["obstacle"]
            for c, state in core.obstacles.items():
                values[base + c] = OBSTACLE_CODES[state]
        elif record == BREACHES:
            self._mark("breach", (beach.breach_by_name[b].strand for b in core.breaches))
        elif record == EXITS:
            self._mark("exit", (beach.exits[draw] for draw in core.exits))

    def _clear(self, name: str) -> None:
        base = self.ob.plane_base[name]
        self.obs[base : base + self.ob.cells] = 0

    def _mark(self, name: str, cells: Iterable[int]) -> None:
        self._clear(name)
        values, base = self.values, self.ob.plane_base[name]
        for c in cells:
            values[base + c] = 1


def kept(core: TcsCore) -> Kept:
    """The core's kept planes, brought up to date (built when none are kept)."""
    planes, journal = core.observed, core.journal
    if type(planes) is not Kept or journal is None or planes.ob.scenario is not core.scenario:
        planes = Kept(_observer(core.scenario), core)
        core.keep_observed(planes)
    elif journal.units or journal.modes or journal.records:
        planes.update(core, journal)
    return planes


#: what the German sees of the LCT(R) targets (2.2a)
_NO_TARGETS: list[int] = []


def _prepared(core: TcsCore, player: str) -> Kept:
    """The kept planes, up to date, holding what ``player`` sees now: the LCT(R) targets
    (secret to the German, 2.2a) and the tracks (written again only when the turn, the
    side to decide, the player or a count changed)."""
    planes, journal = core.observed, core.journal
    if type(planes) is not Kept or journal is None or planes.ob.scenario is not core.scenario:
        planes = kept(core)
    elif journal.units or journal.modes or journal.records:
        planes.update(core, journal)
    targets = core.lctr_targets if player != "German" else _NO_TARGETS
    if targets != planes.targets:
        if planes.shared:
            planes.own()
        values, base = planes.values, planes.ob.lctr_base
        for c in planes.targets:
            values[base + c] = 0
        for c in targets:
            values[base + c] = 1
        planes.targets = targets[:]
    wait = core.wait
    mover = wait[1] if wait is not None else None
    now = (core.turn, core.in_setup, mover, player)
    if now != planes.tracks_for:
        _write_tracks(core, player, mover, planes)
        planes.tracks_for = now
    return planes


def _write_tracks(core: TcsCore, player: str, mover: str | None, planes: Kept) -> None:
    """Write the tracks ``player`` sees now (when they differ from the last written)."""
    ob = planes.ob
    setup = core.in_setup
    us, german = player != "German", player != "US"
    he, smoke, illum, sheets, boats, fires = planes.pools
    tracks = (
        0.0 if setup else (core.turn + 1) / len(ob.hour_turns),
        not setup and ob.hour_turns[core.turn],
        mover == "US",
        planes.pillboxes,
        he,
        smoke,
        illum,
        planes.leaders_ashore,
        sheets,
        len(core.exits),
        boats if us else 0,
        len(core.released) if german else 0,
        fires if german else 0,
    )
    if tracks != planes.tracks:
        if planes.shared:
            planes.own()
        planes.values[ob.size :] = array.array("f", tracks)
        planes.tracks = tracks


def observation(core: TcsCore, player: str) -> Observation:
    """What ``player`` sees, as numbers: every piece on the map is open (counters are
    face up in TCS); the LCT(R) targets and assigned transports are secret to the
    German, the German release and batteries to the US (as the view). A new array each
    call, copied from the kept planes (:class:`Kept`); exactly what
    :func:`fresh_observation` builds."""
    return _prepared(core, player).obs.copy()


def observation_into(core: TcsCore, player: str, out: Observation) -> None:
    """:func:`observation` written into ``out`` (an observer's tensor), with no array in
    between."""
    out[...] = _prepared(core, player).obs
