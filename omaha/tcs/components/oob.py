"""The US order of battle of TCS Omaha, read from ``data/oob.toml``, and the unit
types both sides share.

Unit types carry the published load points and classes (2.1b, 2.1c, from the
tables) and their fire, defence and morale values (reconstructed, except the
German counters the text prints: :mod:`omaha.tcs.components.german`); the units
themselves are reconstructed (see the data file). Units are numbered in file
order, the US first; inside the rules a unit is that small int.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from omaha.kernel.data import Node, load_toml
from omaha.kernel.scenario import ProvenanceItem
from omaha.tcs.components.tables import DATA, UNIT_TYPES, Tables

MOVES = ("foot", "vehicle", "tow", "none")
#: What a unit is, for the rules that name kinds (infantry type 2.4a, tanks 2.5a...).
KINDS = ("rifle", "mg", "mortar", "at", "gun", "gun_direct", "vehicle", "tank", "pillbox", "rocket")


@attrs.frozen
class UnitType:
    """A kind of unit: movement, load (2.1b/2.1c), fire, defence and morale."""

    name: str
    ma: int
    move: str
    target: str
    carrier: bool
    points: int  # load points per step (2.1b); 0 for the German
    load_class: int  # 1..4 (2.1c); 0 for the German
    kind: str = "rifle"
    area: int = 0  # area firepower (a step's when per_step)
    per_step: bool = False
    range: int = 0
    point: int = 0  # point firepower
    point_range: int = 0
    defense: int = 0  # point targets only
    morale: int = 0  # 0: no morale (pill boxes 3.3c, rocket pits)
    indirect: bool = False  # fires as a mortar, with a spotter

    @property
    def infantry_type(self) -> bool:
        """TCS Omaha 2.4a: an infantry type unit (rifle and MG units)."""
        return self.kind in ("rifle", "mg")

    @property
    def vehicle(self) -> bool:
        """Vehicles and carriers (1.3, 1.10, 1.13): they cross no bocage, slope or shingle."""
        return self.move == "vehicle"


@attrs.frozen
class Unit:
    """One counter of either side."""

    index: int
    id: str
    formation: str
    type: UnitType
    steps: int
    division: str
    regiment: str | None
    battalion: str | None
    company: str | None
    dd: bool
    calibre: str | None
    side: str = "US"

    def area_firepower(self, steps: int) -> int:
        """Area firepower at ``steps`` steps (per-step weapons weaken with losses)."""
        t = self.type
        return t.area * steps if t.per_step else (t.area if steps > 0 else 0)

    @property
    def points(self) -> int:
        """Load points of the unit at full strength."""
        return self.steps * self.type.points

    @property
    def is_29th(self) -> bool:
        """TCS Omaha 2.7: the 29th ID elements (khaki stripe)."""
        return self.division == "29th"

    @property
    def is_gun(self) -> bool:
        return self.type.name in ("fa_towed", "fa_sp")


@attrs.frozen
class Leader:
    """TCS Omaha 2.3f: a battalion or regimental commander, or the ADC."""

    index: int
    id: str
    name: str
    commands: str

    def commands_unit(self, unit: Unit) -> bool:
        """Whether ``unit`` is subordinate to this leader (battalion, regiment, division)."""
        c = self.commands
        return c in (unit.battalion, unit.regiment) or (c == unit.division)


@attrs.frozen
class Oob:
    units: tuple[Unit, ...]
    leaders: tuple[Leader, ...]
    formations: tuple[tuple[str, tuple[int, ...]], ...]
    provenance: tuple[ProvenanceItem, ...]
    _by_id: dict[str, int] = attrs.field(eq=False, repr=False)
    _formation: dict[str, tuple[int, ...]] = attrs.field(eq=False, repr=False)

    def unit(self, uid: str) -> Unit:
        return self.units[self._by_id[uid]]

    def has_unit(self, uid: str) -> bool:
        return uid in self._by_id

    def index(self, uid: str) -> int:
        return self._by_id[uid]

    def formation_units(self, fid: str) -> tuple[int, ...]:
        return self._formation[fid]

    def has_formation(self, fid: str) -> bool:
        return fid in self._formation

    def leader(self, lid: str) -> Leader:
        for ld in self.leaders:
            if ld.id == lid:
                return ld
        raise KeyError(lid)


def unit_type(name: str, tn: Node, points: int = 0, load_class: int = 0) -> UnitType:
    """A unit type record of a forces file (either side)."""
    tn.only(
        {
            "ma",
            "move",
            "target",
            "carrier",
            "kind",
            "area",
            "per_step",
            "range",
            "point",
            "point_range",
            "defense",
            "morale",
            "indirect",
            "source",
        }
    )

    def num(key: str) -> int:
        return tn.req(key).as_int_in(0, 99) if tn.has(key) else 0

    def flag(key: str) -> bool:
        return tn.req(key).as_bool() if tn.has(key) else False

    t = UnitType(
        name,
        tn.req("ma").as_int_in(0, 99),
        tn.req("move").as_choice(MOVES),
        tn.req("target").as_choice({"area", "point"}),
        flag("carrier"),
        points,
        load_class,
        tn.req("kind").as_choice(KINDS) if tn.has("kind") else "rifle",
        num("area"),
        flag("per_step"),
        num("range"),
        num("point"),
        num("point_range"),
        num("defense"),
        num("morale"),
        flag("indirect"),
    )
    if t.area and not t.range:
        raise tn.error("a unit with area firepower needs a range")
    if t.point and not t.point_range:
        raise tn.error("a unit with point firepower needs a point_range")
    return t


def load_oob(tables: Tables, path: str | Path = DATA / "oob.toml") -> Oob:
    """Read the order of battle; problems raise ``ScenarioError`` naming file and key."""
    return oob_from_node(tables, load_toml(path))


def oob_from_node(tables: Tables, root: Node) -> Oob:
    """:func:`load_oob` over a parsed file (a scenario's component)."""
    root.only({"types", "templates", "formations", "leaders"})
    prov: list[ProvenanceItem] = []
    types: dict[str, UnitType] = {}
    for name, tn in root.req("types").items():
        if name not in UNIT_TYPES:
            raise tn.error(f"unknown unit type (expected one of: {', '.join(UNIT_TYPES)})")
        types[name] = unit_type(name, tn, tables.points_per_step(name), tables.class_of(name))
        prov.append(ProvenanceItem("unit type", name, tn.source()))
    missing = sorted(set(UNIT_TYPES) - set(types))
    if missing:
        raise root.req("types").error(f"missing unit types: {', '.join(missing)}")

    templates: dict[str, list[tuple[str, str, int]]] = {}
    for name, tn in root.req("templates").items():
        tn.only({"units", "source"})
        rows = []
        for un in tn.req("units").as_list():
            un.only({"suffix", "type", "steps"})
            rows.append(
                (
                    un.req("suffix").as_str(),
                    un.req("type").as_choice(UNIT_TYPES),
                    un.req("steps").as_int_in(1, 99),
                )
            )
        templates[name] = rows
        prov.append(ProvenanceItem("template", name, tn.source()))

    units: list[Unit] = []
    by_id: dict[str, int] = {}
    formations: dict[str, tuple[int, ...]] = {}
    for fn in root.req("formations").as_list():
        fn.only({"ids", "template", "division", "regiment", "battalion", "calibre", "dd", "source"})
        tname = fn.req("template").as_str()
        if tname not in templates:
            raise fn.req("template").error(f"no template {tname!r}")
        division = fn.req("division").as_choice({"1st", "29th"})
        source = fn.source()
        for i, fid in enumerate(fn.req("ids").as_str_list()):
            if fid in formations:
                raise Node(fid, fn.file, f"{fn.path}.ids[{i}]").error(f"{fid!r} appears twice")
            regiment, battalion, company = _identity(fid, fn)
            members = []
            for suffix, tname2, steps in templates[tname]:
                uid = f"{fid}.{suffix}"
                unit = Unit(
                    len(units),
                    uid,
                    fid,
                    types[tname2],
                    steps,
                    division,
                    regiment,
                    battalion,
                    company,
                    fn.req("dd").as_bool() if fn.has("dd") else False,
                    fn.req("calibre").as_str() if fn.has("calibre") else None,
                )
                if unit.dd and unit.type.name != "tank":
                    raise fn.req("dd").error("only tanks can be DD tanks")
                by_id[uid] = unit.index
                units.append(unit)
                members.append(unit.index)
            formations[fid] = tuple(members)
            prov.append(ProvenanceItem("formation", fid, source))

    leaders: list[Leader] = []
    for ln in root.req("leaders").as_list():
        ln.only({"id", "name", "commands", "source"})
        ld = Leader(
            len(leaders),
            ln.req("id").as_str(),
            ln.req("name").as_str(),
            ln.req("commands").as_str(),
        )
        if any(other.id == ld.id for other in leaders):
            raise ln.req("id").error(f"leader {ld.id!r} is listed twice")
        if ld.id in by_id:
            raise ln.req("id").error(f"{ld.id!r} is a unit's id, not a leader's")
        if not any(ld.commands_unit(u) for u in units):
            raise ln.req("commands").error(f"{ld.commands!r} commands no unit")
        leaders.append(ld)
        prov.append(ProvenanceItem("leader", ld.id, ln.source()))
    return Oob(
        tuple(units),
        tuple(leaders),
        tuple(formations.items()),
        tuple(prov),
        by_id,
        formations,
    )


def _identity(fid: str, node: Node) -> tuple[str | None, str | None, str | None]:
    """Regiment, battalion and company of a formation id (``A/1/16``, ``AT/16``, ``A/7FA``)."""
    parts = fid.split("/")
    regiment = node.req("regiment").as_str() if node.has("regiment") else None
    battalion = node.req("battalion").as_str() if node.has("battalion") else None
    company = None
    if len(parts) == 3:
        company, battalion, regiment = parts[0], f"{parts[1]}/{parts[2]}", parts[2]
    elif len(parts) == 2 and regiment is None and battalion is None:
        battalion = parts[1]
    elif len(parts) not in (2, 3):
        raise node.req("ids").error(f"{fid!r} is not a formation id like A/1/16 or AT/16")
    return regiment, battalion, company
