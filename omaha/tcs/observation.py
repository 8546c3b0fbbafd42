"""What a player of TCS Omaha sees, as numbers (the agents' observation), declared per
entity.

The layout (``PLANES``, ``TRACKS``, ``MEANINGS``): 26 planes over the map's cells and
13 tracks. :class:`TcsObservation` declares what each entity shows each player (the
kernel's :class:`~omaha.kernel.observation.Declaration` keeps it from the core's
journal): a unit (an int: its steps in its side's category plane, its markers, the
pill boxes in play), and the records ``LEADERS``, ``TIDE``, ``SMOKE``, ``OBSTACLES``,
``BREACHES``, ``EXITS``, ``RELEASED`` and ``POOLS`` (their planes and counts). Every
piece on the map is open (counters are face up in TCS); the assigned transports are
secret to the German, the German release and batteries to the US. The clock, the
side to decide and the LCT(R) targets (secret to the German, 2.2a) are written at
each call.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from omaha.kernel.observation import Declaration, Observation, ObservationLayout, Shown, exact
from omaha.tcs.core import (
    BREACHES,
    EXITS,
    LEADERS,
    OBSTACLES,
    POOLS,
    RELEASED,
    SMOKE,
    TIDE,
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


_RECORDS = (LEADERS, TIDE, SMOKE, OBSTACLES, BREACHES, EXITS, RELEASED, POOLS)


class TcsObservation(Declaration[TcsCore]):
    """What each entity of TCS Omaha shows the US and the German (per scenario)."""

    def __init__(self, scen: TcsScenario) -> None:
        self.scenario = scen
        n = len(scen.board)
        self.layout = ObservationLayout(n, PLANES, TRACKS, MEANINGS)
        self.plane = plane = self.track = self.layout.at  # (names are distinct)
        side = {"US": "us", "German": "german"}
        german = scen.german
        started = {
            f
            for f in {u.formation for u in scen.units if u.side != "US"}
            if german.formation(f).status == "released"
        }
        pillboxes = set(german.pillboxes)
        #: per unit: its steps plane, its side's suppressed, paralyzed and fire mode
        #: planes; the German formation whose release it waits for (3.1), or None;
        #: whether it is a pill box (2.1i)
        self.units = [
            (
                plane[f"{side[u.side]}_{CATEGORY[u.type.name]}"],
                (0, plane[f"{side[u.side]}_suppressed"], plane[f"{side[u.side]}_paralyzed"]),
                plane[f"{side[u.side]}_fire_mode"],
                u.formation if u.side != "US" and u.formation not in started else None,
                u.index in pillboxes,
            )
            for u in scen.units
        ]
        self.turns = [exact((t + 1) / len(scen.turns)) for t in range(len(scen.turns))]
        self.hour_turns = ["hour" in t.flags for t in scen.turns]
        self.sea: dict[str, Shown] = {}

    def entities(self, core: TcsCore) -> Iterable[Hashable]:
        yield from range(len(self.units))
        yield from _RECORDS

    def shown(self, core: TcsCore, entity: Hashable, viewpoint: str | None) -> Shown:
        if type(entity) is int:
            return self._unit(core, entity)
        plane, track = self.plane, self.track
        beach = self.scenario.beach
        if entity == LEADERS:
            ashore = core.living_leaders_on_map()
            base = plane["us_leaders"]
            leaders = [(base + core.leader_cell[k], 1.0) for k in ashore]
            return (*leaders, (track["leaders_ashore"], len(ashore)))
        if entity == TIDE:
            return self._sea(core.tide_hour)
        if entity == SMOKE:
            return tuple((plane["smoke"] + c, 1.0) for c in core.smoke)
        if entity == OBSTACLES:
            base = plane["obstacle"]
            return tuple((base + c, OBSTACLE_CODES[s]) for c, s in core.obstacles.items())
        if entity == BREACHES:
            base = plane["breach"]
            return tuple((base + beach.breach_by_name[b].strand, 1.0) for b in core.breaches)
        if entity == EXITS:
            base = plane["exit"]
            exits = [(base + beach.exits[draw], 1.0) for draw in core.exits]
            return (*exits, (track["exits_open"], len(core.exits)))
        if entity == RELEASED:
            return ()  # its units' planes show it; its count is secret (:meth:`finish`)
        assert entity == POOLS
        ammo = core.ammo.values()
        return (
            (track["ammo_he"], sum(v[0] for v in ammo)),
            (track["ammo_smoke"], sum(v[1] for v in ammo)),
            (track["ammo_illum"], sum(v[2] for v in ammo)),
            (track["us_sheets"], len(core.us_implemented)),
        )

    def _unit(self, core: TcsCore, i: int) -> Shown:
        """A unit on the map: its steps in its side's category plane, a 1 in its status,
        fire mode, dug-in, overwatch-marked and unreleased planes where they apply, and
        a pill box in play on the track."""
        w = core.where[i]
        if w < 0:
            return ()
        steps_at, status_at, fire_at, waits, pillbox = self.units[i]
        plane = self.plane
        out: list[tuple[int, float]] = [(steps_at + w, core.steps[i])] if core.steps[i] else []
        status = core.status[i]
        if status:
            out.append((status_at[status] + w, 1.0))
        if core.fire_mode[i]:
            out.append((fire_at + w, 1.0))
        if core.dug_in[i]:
            out.append((plane["dug_in"] + w, 1.0))
        if i in core.marked or i in core.marked_point:
            out.append((plane["overwatch_marked"] + w, 1.0))
        if waits is not None and waits not in core.released:
            out.append((plane["unreleased"] + w, 1.0))
        if pillbox:
            out.append((self.track["pillboxes"], 1.0))
        return tuple(out)

    def _sea(self, hour: str) -> Shown:
        """The sea at the tide line of ``hour`` (1.12)."""
        hit = self.sea.get(hour)
        if hit is None:
            base = self.plane["sea"]
            hit = self.sea[hour] = tuple(
                (base + c, 1.0) for c in sorted(self.scenario.beach.sea(hour))
            )
        return hit

    def viewpoint(self, player: str) -> None:
        return None  # the board is open to both; the secrets are written by finish

    def finish(self, core: TcsCore, player: str, out: Observation) -> None:
        """The clock and the side to decide; the secrets of each side: the LCT(R) targets
        and the transports afloat are the US player's (2.2a, 2.1m), the companies
        released and the battery fires left the German's (3.1)."""
        track = self.track
        if not core.in_setup:
            out[track["turn"]] = self.turns[core.turn]
            out[track["hour_turn"]] = self.hour_turns[core.turn]
        wait = core.wait
        if wait is not None and wait[1] == "US":
            out[track["to_move_us"]] = 1
        if player != "German":
            base = self.plane["lctr_target"]
            for c in core.lctr_targets:
                out[base + c] = 1
            if core.transports:
                out[track["us_boats_afloat"]] = sum(map(len, core.transports.values()))
        if player != "US":
            out[track["german_released"]] = len(core.released)
            if core.batteries:
                out[track["german_battery_fires"]] = sum(core.batteries.values())
