"""The tables of the TCS Omaha landing system, read from ``data/tables.toml``.

Published values (2.1b-2.1m, 2.2, 2.3, 2.8-2.11, 3.3g, 3.4) and the few stated
reconstructions (terrain costs, sight) are data; :mod:`omaha.tcs.rules` holds
the procedures that read them. A :class:`Tables` is immutable and shared.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from omaha.kernel.data import Node, Source, load_toml
from omaha.kernel.scenario import ProvenanceItem

DATA = Path(__file__).parent.parent / "data"

UNIT_TYPES = (
    "infantry",
    "mortar",
    "mg",
    "at_gun",
    "fa_towed",
    "truck",
    "halftrack",
    "tank",
    "fa_sp",
)
BOAT_KINDS = ("LCA", "Rhino", "LCT", "LCI", "DUKW")
#: Plan pseudo-boat for DD tanks swimming in on their own (2.1e).
DD = "DD"


@attrs.frozen
class BoatType:
    """TCS Omaha 2.1d: a kind of boat, its largest load class and load points."""

    kind: str
    max_class: int
    max_points: int
    group: int


@attrs.frozen
class Band:
    """A range ``low..high`` of a roll or count and its result."""

    low: int
    high: int
    value: int

    def holds(self, x: int) -> bool:
        return self.low <= x <= self.high


@attrs.frozen
class Wave:
    """TCS Omaha 2.1g: the boats available to one assault wave."""

    number: int
    turn: str
    boats: tuple[tuple[str, int], ...]

    def count(self, kind: str) -> int:
        return dict(self.boats).get(kind, 0)


@attrs.frozen
class BatteryRow:
    """TCS Omaha 2.8/2.9: a battery unit or battalion, its guns and fire divisor."""

    unit: str
    guns: int
    calibre: str
    batteries: int
    divisor: int


@attrs.frozen
class AmmoAddition:
    """TCS Omaha 2.9: rounds added to the pool on a given turn."""

    turn: str
    calibre: str
    he: int
    smoke: int
    illum: int


@attrs.frozen
class AirType:
    """TCS Omaha 2.10a: what one A-20 carries."""

    name: str
    strafes: int
    strafe_firepower: int
    bombs: int
    bomb_firepower: int
    bomb_hit_roll: int


@attrs.frozen
class Tables:
    load_points: tuple[tuple[str, int], ...]
    load_class: tuple[tuple[str, int], ...]
    boats: tuple[BoatType, ...]
    waves: tuple[Wave, ...]
    transport_first_hour: str
    transport_boats: tuple[tuple[str, int], ...]
    dukw_min_points: int
    survival: tuple[tuple[str, tuple[int, int]], ...]
    modified: frozenset[str]
    pillbox_modifier: tuple[Band, ...]
    leader_selection: tuple[Band, ...]
    leader_radius: int
    leader_mp: int
    leader_kill_roll: int
    leader_removal: str
    max_us_opsheets: int
    miller: tuple[Band, ...]
    lctr_count: int
    lctr_target_range: int
    lctr_area_radius: int
    lctr_multiplier: int
    lctr_smoke: int
    lctr_weapon: str
    directions: tuple[str, ...]
    batteries: tuple[BatteryRow, ...]
    he_per_gun: int
    smoke_per_gun: int
    illum_per_battery: int
    additions: tuple[AmmoAddition, ...]
    air_available_on: int
    air_aircraft: int
    air_german_use_on: int
    air_june6_bonus: int
    air_types: tuple[AirType, ...]
    nfst_works_on: int
    overdraft_turn: str
    overdraft_steps: int
    overdraft_regiment: str
    overdraft_companies: tuple[str, ...]
    exit29_by: str
    pillbox_inland: int
    rocket_pit_inland: int
    tide_advance: int
    shingle_cost: int
    slope_cost: int
    foot_costs: tuple[tuple[str, int], ...]
    vehicle_costs: tuple[tuple[str, int], ...]
    visibility: int
    sight_blocks: frozenset[str]
    shingle_fire: int
    bocage_cost: int
    dz_modifier: int
    obstacle_results: tuple[tuple[int, str], ...]  # die -> "mines", "wire" or "clear"
    breach_tank_within: int
    breach_german_within: int
    breach_vehicles: int
    naval_first: str
    naval_per_turn: int
    naval_weapon: str
    naval_concentration: str
    naval_designator_day: int
    naval_designator_night: int
    naval_friendly_within: int
    naval_observer_height: int
    #: the series' night (reconstructed): hexes lit around an illumination round
    night_illum_radius: int
    release_within: int
    release_free_turns: int
    max_german_opsheets: int
    conversion: tuple[tuple[int, int], ...]  # die -> squad steps (0: none)
    rocket_hit: frozenset[int]
    unassigned_turns: int
    provenance: tuple[ProvenanceItem, ...]

    # -- lookups ----------------------------------------------------------------
    def boat(self, kind: str) -> BoatType:
        for b in self.boats:
            if b.kind == kind:
                return b
        raise KeyError(kind)

    def wave(self, number: int) -> Wave:
        for w in self.waves:
            if w.number == number:
                return w
        raise KeyError(number)

    def points_per_step(self, unit_type: str) -> int:
        return dict(self.load_points)[unit_type]

    def class_of(self, unit_type: str) -> int:
        return dict(self.load_class)[unit_type]

    def success_range(self, key: str) -> tuple[int, int]:
        return dict(self.survival)[key]

    def air_type(self, name: str) -> AirType:
        for a in self.air_types:
            if a.name == name:
                return a
        raise KeyError(name)


def _bands(node: Node, value_key: str, what: str, prov: list[ProvenanceItem]) -> tuple[Band, ...]:
    bands = []
    for i, b in enumerate(node.as_list()):
        b.only({"low", "high", value_key, "source"})
        band = Band(b.req("low").as_int(), b.req("high").as_int(), b.req(value_key).as_int())
        if band.low > band.high:
            raise b.error(f"low {band.low} is above high {band.high}")
        bands.append(band)
        prov.append(ProvenanceItem(what, f"{band.low}-{band.high}", b.source()))
        if i and band.low != bands[i - 1].high + 1:
            raise b.req("low").error(f"the bands must follow on from {bands[i - 1].high}")
    return tuple(bands)


def load_tables(path: str | Path = DATA / "tables.toml") -> Tables:
    """Read the tables; a problem raises ``ScenarioError`` naming file and key."""
    return tables_from_node(load_toml(path))


def tables_from_node(root: Node) -> Tables:
    """:func:`load_tables` over a parsed file (a scenario's component)."""
    prov: list[ProvenanceItem] = []

    def src(node: Node, component: str, key: str) -> Source:
        s = node.source()
        prov.append(ProvenanceItem(component, key, s))
        return s

    lp = root.req("load_points")
    src(lp, "table", "load points (2.1b)")
    lc = root.req("load_class")
    src(lc, "table", "load classes (2.1c)")
    load_points = tuple((t, lp.req(t).as_int_in(1, 99)) for t in UNIT_TYPES)
    load_class = tuple((t, lc.req(t).as_int_in(1, 4)) for t in UNIT_TYPES)

    boats = []
    for bn in root.req("boats").as_list():
        bn.only({"kind", "max_class", "max_points", "group", "source"})
        kind = bn.req("kind").as_choice(BOAT_KINDS)
        boats.append(
            BoatType(
                kind,
                bn.req("max_class").as_int_in(1, 4),
                bn.req("max_points").as_int_in(1, 999),
                bn.req("group").as_int_in(1, 9),
            )
        )
        src(bn, "boat", kind)
    if sorted(b.kind for b in boats) != sorted(BOAT_KINDS):
        raise root.req("boats").error(f"needs exactly one entry for each of {BOAT_KINDS}")

    waves = []
    for wn in root.req("waves").as_list():
        wn.only({"number", "turn", "source", *BOAT_KINDS})
        number = wn.req("number").as_int_in(1, 3)
        counts = tuple((k, wn.req(k).as_int_in(0, 99) if wn.has(k) else 0) for k in BOAT_KINDS)
        waves.append(Wave(number, wn.req("turn").as_str(), counts))
        src(wn, "wave", f"wave {number}")
    if sorted(w.number for w in waves) != [1, 2, 3]:
        raise root.req("waves").error("needs waves 1, 2 and 3")

    tr = root.req("transport").only({"first_hour", "LCI", "LCT", "source"})
    src(tr, "table", "transport capacity (2.1m)")
    dk = root.req("dukw").only({"min_points", "source"})
    src(dk, "table", "Dukw loading (2.1f)")

    sv = root.req("survival")
    src(sv, "table", "survival rolls (2.1i)")
    survival = []
    for key in ("LCA", "Rhino", "LCT", "LCI", "DUKW_class1", "DUKW_class2", "DD"):
        lo, hi = sv.req(key).as_int_list()
        survival.append((key, (lo, hi)))
    modified = frozenset(sv.req("modified").as_str_list())

    pm = _bands(root.req("pillbox_modifier"), "modifier", "pill box modifier", prov)
    ls = _bands(root.req("leader_selection"), "leaders", "leader selection", prov)
    ld = root.req("leaders")
    src(ld, "table", "leaders (2.3f)")
    op = root.req("opsheets")
    src(op, "table", "op sheets (2.3a)")
    mi = _bands(root.req("miller"), "rounds", "Miller table", prov)
    lr = root.req("lctr")
    src(lr, "table", "LCT(R) fires (2.2)")
    de = root.req("designator")
    src(de, "table", "designator round")
    directions = tuple(de.req("directions").as_str_list())
    if len(directions) != 6:
        raise de.req("directions").error("a die gives six directions")

    batteries = []
    for bn in root.req("batteries").as_list():
        bn.only({"unit", "guns", "calibre", "batteries", "divisor", "source"})
        row = BatteryRow(
            bn.req("unit").as_str(),
            bn.req("guns").as_int_in(1, 99),
            bn.req("calibre").as_str(),
            bn.req("batteries").as_int_in(1, 9),
            bn.req("divisor").as_int_in(1, 99),
        )
        batteries.append(row)
        src(bn, "battery", row.unit)
    am = root.req("ammunition")
    src(am, "table", "artillery ammunition (2.9)")
    additions = []
    for an in am.req("additions").as_list():
        an.only({"turn", "calibre", "he", "smoke", "illum", "source"})
        add = AmmoAddition(
            an.req("turn").as_str(),
            an.req("calibre").as_str(),
            an.req("he").as_int(),
            an.req("smoke").as_int(),
            an.req("illum").as_int(),
        )
        additions.append(add)
        src(an, "ammunition", f"{add.turn} {add.calibre}")
    air = root.req("air")
    src(air, "table", "US airpower (2.10)")
    bl = air.req("bomb_laden")
    gs = air.req("gunship")
    src(bl, "table", "A-20 bomb laden (2.10a)")
    src(gs, "table", "A-20 gunship (2.10a)")
    air_types = (
        AirType(
            "bomb",
            bl.req("strafes").as_int(),
            bl.req("strafe_firepower").as_int(),
            bl.req("bombs").as_int(),
            bl.req("bomb_firepower").as_int(),
            bl.req("bomb_hit_roll").as_int(),
        ),
        AirType(
            "gunship", gs.req("strafes").as_int(), gs.req("strafe_firepower").as_int(), 0, 0, 0
        ),
    )
    nf = root.req("nfst")
    src(nf, "table", "NFST radio (2.6d)")
    od = root.req("overdraft")
    src(od, "table", "overdraft (2.11)")
    d29 = root.req("division29")
    src(d29, "table", "29th ID exit (2.7b)")
    pl = root.req("placement")
    src(pl, "table", "German placement (3.3g, 3.4)")
    td = root.req("tide")
    src(td, "table", "tide (1.12a)")
    sh = root.req("shingle")
    src(sh, "table", "shingle (1.13)")
    es = root.req("extreme_slope")
    src(es, "table", "extreme slope (1.10)")
    tc = root.req("terrain_cost")
    src(tc, "table", "terrain costs")
    sg = root.req("sight")
    src(sg, "table", "line of sight")
    bc = root.req("bocage")
    src(bc, "table", "bocage (1.3)")
    dz = root.req("defensive_zone")
    src(dz, "table", "defensive zones (1.6)")
    ob = root.req("obstacles")
    src(ob, "table", "beach obstacle test (2.4a)")
    obstacle_results: dict[int, str] = {}
    for key, what in (("mines_wire", "mines"), ("wire_only", "wire"), ("clear", "clear")):
        for d in ob.req(key).as_int_list():
            if d in obstacle_results or not 1 <= d <= 6:
                raise ob.req(key).error(f"die {d} is not a free face 1-6")
            obstacle_results[d] = what
    if sorted(obstacle_results) != [1, 2, 3, 4, 5, 6]:
        raise ob.error("the test results must cover the die faces 1-6")
    br = root.req("breaches")
    src(br, "table", "shingle breaches (2.5)")
    nv = root.req("naval")
    src(nv, "table", "naval gunfire (2.6)")
    src(root.req("night"), "table", "night: illumination and aircraft (series, with 2.9, 2.10)")
    rl = root.req("release")
    src(rl, "table", "German release (3.1, 3.2)")
    pb = root.req("pillbox")
    src(pb, "table", "pill box conversion (3.3f)")
    conversion = {d: 2 for d in pb.req("conversion_full").as_int_list()}
    conversion.update({d: 1 for d in pb.req("conversion_minus_one").as_int_list()})
    rp = root.req("rocket_pit")
    src(rp, "table", "rocket pit targeting (3.4b)")
    ua = root.req("unassigned")
    src(ua, "table", "unassigned units (2.3g)")

    def costs(node: Node) -> tuple[tuple[str, int], ...]:
        return tuple((k, v.as_int_in(1, 99)) for k, v in node.items())

    return Tables(
        load_points=load_points,
        load_class=load_class,
        boats=tuple(boats),
        waves=tuple(sorted(waves, key=lambda w: w.number)),
        transport_first_hour=tr.req("first_hour").as_str(),
        transport_boats=(("LCI", tr.req("LCI").as_int()), ("LCT", tr.req("LCT").as_int())),
        dukw_min_points=dk.req("min_points").as_int(),
        survival=tuple(survival),
        modified=modified,
        pillbox_modifier=pm,
        leader_selection=ls,
        leader_radius=ld.req("radius").as_int(),
        leader_mp=ld.req("mp").as_int(),
        leader_kill_roll=ld.req("kill_roll").as_int(),
        leader_removal=ld.req("removal").as_str(),
        max_us_opsheets=op.req("max_us").as_int(),
        miller=mi,
        lctr_count=lr.req("count").as_int(),
        lctr_target_range=lr.req("target_range").as_int(),
        lctr_area_radius=lr.req("area_radius").as_int(),
        lctr_multiplier=lr.req("designator_multiplier").as_int(),
        lctr_smoke=lr.req("smoke_markers").as_int(),
        lctr_weapon=lr.req("weapon").as_str(),
        directions=directions,
        batteries=tuple(batteries),
        he_per_gun=am.req("he_per_gun").as_int(),
        smoke_per_gun=am.req("smoke_per_gun").as_int(),
        illum_per_battery=am.req("illum_per_battery").as_int(),
        additions=tuple(additions),
        air_available_on=air.req("available_on").as_int(),
        air_aircraft=air.req("aircraft").as_int(),
        air_german_use_on=air.req("german_use_on").as_int(),
        air_june6_bonus=air.req("june6_bonus").as_int(),
        air_types=air_types,
        nfst_works_on=nf.req("works_on").as_int_in(1, 6),
        overdraft_turn=od.req("turn").as_str(),
        overdraft_steps=od.req("steps").as_int(),
        overdraft_regiment=od.req("regiment").as_str(),
        overdraft_companies=tuple(od.req("companies").as_str_list()),
        exit29_by=d29.req("exit_by").as_str(),
        pillbox_inland=pl.req("pillbox_inland").as_int(),
        rocket_pit_inland=pl.req("rocket_pit_inland").as_int(),
        tide_advance=td.req("advance").as_int(),
        shingle_cost=sh.req("foot_cost").as_int(),
        slope_cost=es.req("foot_cost").as_int(),
        foot_costs=costs(tc.req("foot")),
        vehicle_costs=costs(tc.req("vehicle")),
        visibility=sg.req("visibility").as_int(),
        sight_blocks=frozenset(sg.req("block").as_str_list()),
        shingle_fire=sh.req("fire_modifier").as_int(),
        bocage_cost=bc.req("foot_cost").as_int(),
        dz_modifier=dz.req("modifier").as_int(),
        obstacle_results=tuple(sorted(obstacle_results.items())),
        breach_tank_within=br.req("tank_within").as_int(),
        breach_german_within=br.req("german_within").as_int(),
        breach_vehicles=br.req("vehicles_per_turn").as_int(),
        naval_first=nv.req("first_turn").as_str(),
        naval_per_turn=nv.req("per_turn").as_int(),
        naval_weapon=nv.req("weapon").as_str(),
        naval_concentration=nv.req("concentration").as_choice({"A", "B"}),
        naval_designator_day=nv.req("designator_day").as_int(),
        naval_designator_night=nv.req("designator_night").as_int(),
        naval_friendly_within=nv.req("friendly_within").as_int(),
        naval_observer_height=nv.req("observer_height").as_int(),
        night_illum_radius=root.req("night").req("illum_radius").as_int_in(0, 9),
        release_within=rl.req("automatic_within").as_int(),
        release_free_turns=rl.req("free_turns").as_int(),
        max_german_opsheets=rl.req("max_german_opsheets").as_int(),
        conversion=tuple(sorted((d, conversion.get(d, 0)) for d in range(1, 7))),
        rocket_hit=frozenset(rp.req("hit").as_int_list()),
        unassigned_turns=ua.req("defense_turns").as_int(),
        provenance=tuple(prov),
    )


_DEFAULT: Tables | None = None


def default_tables() -> Tables:
    """The shipped tables (read once, shared)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_tables()
    return _DEFAULT
