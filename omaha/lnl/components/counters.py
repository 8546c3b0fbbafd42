"""The counters (``data/units.toml``): counter types with their printed values, and
the counters of a scenario (LnL Omaha: Unit Types, Special Units)."""

from __future__ import annotations

import attrs

from omaha.kernel.data import Node, Source
from omaha.kernel.scenario import ProvenanceItem


@attrs.frozen
class UnitType:
    """A counter's printed values ([full, reduced] where a step loss changes them)."""

    id: str
    name: str
    kind: str  # infantry | gun | armor
    he: tuple[int, int]
    ap: tuple[int, int]
    armor: int
    range: int
    ca: tuple[int, int]
    mf: int
    rally: int
    steps: int
    support: bool
    ranger: bool
    airborne: bool
    engineer: bool
    mortar: bool
    source: Source

    @property
    def hard(self) -> bool:
        """Armor is the only hard target (LnL Omaha: Unit Types)."""
        return self.kind == "armor"


@attrs.frozen
class UnitDef:
    """One counter of the scenario: its index is its place in ``LnlScenario.units``."""

    idx: int
    id: str
    side: str
    company: str
    type: UnitType
    mf: int
    source: Source

    @property
    def hard(self) -> bool:
        return self.type.hard

    @property
    def armor_unit(self) -> bool:
        return self.type.kind == "armor"

    @property
    def infantry(self) -> bool:
        return self.type.kind == "infantry"


@attrs.frozen
class CounterData:
    """``data/units.toml`` loaded: the types by id, and each counter's entry by unit id."""

    types: dict[str, UnitType]
    entries: dict[str, Node]


def load_counters(root: Node, provenance: list[ProvenanceItem]) -> CounterData:
    """Read a counters file; every type is added to ``provenance`` (counters are
    added as a scenario's forces use them)."""
    root.only({"types", "units"})
    types: dict[str, UnitType] = {}
    for tn in root.req("types").as_list():
        tn.only(
            {
                "id", "name", "kind", "he", "ap", "armor", "range", "ca", "mf", "rally",
                "steps", "support", "ranger", "airborne", "engineer", "mortar", "source",
            }
        )  # fmt: skip
        tid = tn.req("id").as_str()
        if tid in types:
            raise tn.req("id").error(f"type {tid!r} is declared twice")

        def flag(key: str, tn: Node = tn) -> bool:
            node = tn.get(key)
            return node.as_bool() if node is not None else False

        t = UnitType(
            id=tid,
            name=tn.req("name").as_str(),
            kind=tn.req("kind").as_choice({"infantry", "gun", "armor"}),
            he=_two(tn.req("he")),
            ap=_two(tn.req("ap")),
            armor=tn.req("armor").as_int_in(0, 20),
            range=tn.req("range").as_int_in(1, 40),
            ca=_two(tn.req("ca")),
            mf=tn.req("mf").as_int_in(0, 20),
            rally=tn.req("rally").as_int_in(1, 6),
            steps=tn.req("steps").as_int_in(1, 2) if tn.has("steps") else 2,
            support=flag("support"),
            ranger=flag("ranger"),
            airborne=flag("airborne"),
            engineer=flag("engineer"),
            mortar=flag("mortar"),
            source=tn.source(),
        )
        types[tid] = t
        provenance.append(ProvenanceItem("counter type", tid, t.source))
    entries: dict[str, Node] = {}
    for un in root.req("units").as_list():
        un.only({"ids", "side", "company", "type", "source"})
        for uid in un.req("ids").as_str_list():
            if uid in entries:
                raise un.req("ids").error(f"unit {uid!r} is declared twice")
            if not uid or any(c.isspace() or c == "," for c in uid):
                raise un.req("ids").error(f"unit id {uid!r} may not contain spaces or commas")
            entries[uid] = un
    return CounterData(types, entries)


def _two(node: Node) -> tuple[int, int]:
    items = node.as_list()
    if len(items) != 2:
        raise node.error("expected [full, reduced]")
    return items[0].as_int_in(0, 99), items[1].as_int_in(0, 99)
