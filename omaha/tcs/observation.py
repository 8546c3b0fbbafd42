"""What a player of TCS Omaha sees, as numbers (issue 15: the agents' observation).

The layout (``PLANES``, ``TRACKS``, ``MEANINGS``): 26 planes over the map's cells and
13 tracks. :func:`observation` copies it from the planes the core keeps between calls
(:class:`_Kept`); :func:`fresh_observation` builds the same from nothing (the reference
the kept one is tested against).
"""

from __future__ import annotations

import array
import copy
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from omaha.kernel.observation import Observation, ObservationLayout
from omaha.tcs.core import Status, TcsCore
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
