"""The German forces of TCS Omaha, read from ``data/german.toml``.

Pill boxes (3.3) and rocket pits (3.4), as many as a scenario sets up, each pill
box with the squad it may become (3.3e, 3.3f); companies set up on the map
(released or in reserve, 3.1) or arriving from the south edge when released;
and the off-map batteries of the German Battery Composition Chart (3.1). Units
are numbered after the US units, so one index names a unit of either side.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from omaha.kernel.data import Node, load_toml
from omaha.kernel.scenario import ProvenanceItem
from omaha.tcs.components.oob import Unit, UnitType, unit_type
from omaha.tcs.components.tables import DATA

#: How a formation starts: fighting, held back on the map, or off the map (3.1).
STATUSES = ("released", "reserve", "reinforcement")
CALIBRES = ("75mm", "105mm", "155mm")


@attrs.frozen
class Formation:
    """A German company (or the pill box and rocket pit groups) and how it starts."""

    id: str
    status: str
    units: tuple[int, ...]


@attrs.frozen
class Battery:
    """A line of the German Battery Composition Chart (3.1; reconstructed)."""

    id: str
    guns: int
    calibre: str
    concentration: str
    fires: int


@attrs.frozen
class GermanForces:
    units: tuple[Unit, ...]
    formations: tuple[Formation, ...]
    setup: tuple[tuple[int, str], ...]  # unit index -> hex label of its set-up
    pillboxes: tuple[int, ...]
    squads: tuple[int, ...]  # the squad each pill box may become, in pill box order
    pits: tuple[int, ...]
    batteries: tuple[Battery, ...]
    provenance: tuple[ProvenanceItem, ...]
    by_id: dict[str, Formation] = attrs.field(
        init=False,
        eq=False,
        repr=False,
        default=attrs.Factory(lambda g: {f.id: f for f in g.formations}, takes_self=True),
    )

    def formation(self, fid: str) -> Formation:
        return self.by_id[fid]

    def has_formation(self, fid: str) -> bool:
        return fid in self.by_id

    def battery(self, bid: str) -> Battery:
        for b in self.batteries:
            if b.id == bid:
                return b
        raise KeyError(bid)


def load_german(
    first: int, pillboxes: int, pits: int, path: str | Path = DATA / "german.toml"
) -> GermanForces:
    """Read the German forces, numbering units from ``first`` (after the US units).

    Problems raise ``ScenarioError`` naming file and key.
    """
    return german_from_node(first, pillboxes, pits, load_toml(path))


def german_from_node(first: int, pillboxes: int, pits: int, root: Node) -> GermanForces:
    """:func:`load_german` over a parsed file (a scenario's component)."""
    root.only({"types", "pillboxes", "rocket_pits", "formations", "batteries"})
    prov: list[ProvenanceItem] = []
    types: dict[str, UnitType] = {}
    for name, tn in root.req("types").items():
        types[name] = unit_type(name, tn)
        prov.append(ProvenanceItem("German unit type", name, tn.source()))
    for need in ("pillbox", "pb_squad", "rocket_pit"):
        if need not in types:
            raise root.req("types").error(f"needs the unit type {need!r}")
    units: list[Unit] = []
    formations: list[Formation] = []
    setup: list[tuple[int, str]] = []

    def add(uid: str, formation: str, utype: UnitType, steps: int) -> int:
        if any(u.id == uid for u in units):
            raise root.error(f"unit {uid!r} is listed twice")
        unit = Unit(
            first + len(units),
            uid,
            formation,
            utype,
            steps,
            "German",
            None,
            None,
            None,
            False,
            None,
            "German",
        )
        units.append(unit)
        return unit.index

    pb = root.req("pillboxes").only({"id", "formation", "source"})
    pb_ids = [
        add(pb.req("id").as_str().format(n=n), "PB/726", types["pillbox"], 1)
        for n in range(1, pillboxes + 1)
    ]
    squads = [add(f"{units[i - first].id} Sqd", "PB/726", types["pb_squad"], 2) for i in pb_ids]
    formations.append(Formation(pb.req("formation").as_str(), "released", tuple(pb_ids)))
    prov.append(ProvenanceItem("German forces", "pill boxes", pb.source()))
    rp = root.req("rocket_pits").only({"id", "formation", "source"})
    pit_ids = [
        add(rp.req("id").as_str().format(n=n), "RP/726", types["rocket_pit"], 1)
        for n in range(1, pits + 1)
    ]
    formations.append(Formation(rp.req("formation").as_str(), "released", tuple(pit_ids)))
    prov.append(ProvenanceItem("German forces", "rocket pits", rp.source()))

    for fn in root.req("formations").as_list():
        fn.only({"id", "status", "units", "source"})
        fid = fn.req("id").as_str()
        if any(f.id == fid for f in formations):
            raise fn.req("id").error(f"formation {fid!r} is listed twice")
        status = fn.req("status").as_choice(STATUSES)
        members = []
        for un in fn.req("units").as_list():
            un.only({"suffix", "type", "steps", "hex"})
            tname = un.req("type").as_str()
            if tname not in types:
                raise un.req("type").error(f"no German unit type {tname!r}")
            i = add(
                f"{fid}.{un.req('suffix').as_str()}",
                fid,
                types[tname],
                un.req("steps").as_int_in(1, 9),
            )
            members.append(i)
            if un.has("hex"):
                if status == "reinforcement":
                    raise un.req("hex").error("a reinforcement enters from the south edge")
                setup.append((i, un.req("hex").as_str()))
            elif status != "reinforcement":
                raise un.error(f"{units[i - first].id} sets up on the map: give its hex")
        formations.append(Formation(fid, status, tuple(members)))
        prov.append(ProvenanceItem("German formation", fid, fn.source()))

    batteries: list[Battery] = []
    for bn in root.req("batteries").as_list():
        bn.only({"id", "guns", "calibre", "concentration", "fires", "source"})
        b = Battery(
            bn.req("id").as_str(),
            bn.req("guns").as_int_in(1, 12),
            bn.req("calibre").as_choice(CALIBRES),
            bn.req("concentration").as_choice({"A", "B"}),
            bn.req("fires").as_int_in(0, 99),
        )
        if any(x.id == b.id for x in batteries):
            raise bn.req("id").error(f"battery {b.id!r} is listed twice")
        batteries.append(b)
        prov.append(ProvenanceItem("German battery", b.id, bn.source()))
    return GermanForces(
        tuple(units),
        tuple(formations),
        tuple(setup),
        tuple(pb_ids),
        tuple(squads),
        tuple(pit_ids),
        tuple(batteries),
        tuple(prov),
    )
