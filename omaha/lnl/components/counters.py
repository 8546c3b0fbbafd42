"""The counters (``data/units.toml``): counter types with their printed values, and
the counters of a scenario (LnL Omaha: Unit Types, Special Units)."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from omaha.kernel.data import Node, Source
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Bool, Check, Field, Int, ListOf, Problems, Provenance, Str, Table
from omaha.kernel.svg.counters import SYMBOLS

SIDES = ("US", "German")

#: The size marks a counter may print above its symbol.
ECHELONS = ("•", "••", "•••", "I", "II", "III")


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
    #: The NATO symbol on the counter (a name of ``omaha.kernel.svg.counters.SYMBOLS``).
    symbol: str = "infantry"
    #: The size mark above the symbol ("•••" a platoon, "••" a section, "I" a company).
    echelon: str = ""

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
                "symbol", "echelon",
            }
        )  # fmt: skip
        tid = tn.req("id").as_str()
        if tid in types:
            raise tn.req("id").error(f"type {tid!r} is declared twice")

        def flag(key: str, tn: Node = tn) -> bool:
            node = tn.get(key)
            return node.as_bool() if node is not None else False

        symbol = tn.get("symbol")
        echelon = tn.get("echelon")
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
            symbol=symbol.as_choice(set(SYMBOLS)) if symbol else _symbol(tn, flag),
            echelon=echelon.as_choice(set(ECHELONS)) if echelon else "",
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


def _symbol(tn: Node, flag: Callable[[str], bool]) -> str:
    """The symbol a type's kind and flags imply, when the file names none."""
    for special in ("engineer", "ranger", "airborne", "mortar"):
        if flag(special):
            return special
    return {"armor": "armour", "gun": "artillery"}.get(tn.req("kind").as_str(), "infantry")


def _two(node: Node) -> tuple[int, int]:
    items = node.as_list()
    if len(items) != 2:
        raise node.error("expected [full, reduced]")
    return items[0].as_int_in(0, 99), items[1].as_int_in(0, 99)


# ----------------------------------------------------------------------------
# The file's schema (issue 14): what ``load_counters`` reads, checked all at once
# ----------------------------------------------------------------------------
def _pair(low: int = 0, high: int = 99) -> ListOf:
    return ListOf(Int(low, high), min_len=2)


def _full_not_below_reduced(node: Node, problems: Problems) -> None:
    """A flipped counter is weaker: its reduced factors never exceed the full ones."""
    for key in ("he", "ap", "ca"):
        pair = node.value.get(key)
        if isinstance(pair, list) and len(pair) == 2 and all(type(v) is int for v in pair):
            if pair[1] > pair[0]:
                where = node.get(key)
                assert where is not None
                problems.append(
                    where.error(f"the reduced value {pair[1]} exceeds the full {pair[0]}")
                )
        elif isinstance(pair, list) and len(pair) != 2:
            where = node.get(key)
            assert where is not None
            problems.append(where.error("expected [full, reduced]"))


def _types_known(node: Node, problems: Problems) -> None:
    """Every counter names a type the file declares."""
    types = node.value.get("types")
    declared = (
        {t.get("id") for t in types if isinstance(t, dict)} if isinstance(types, list) else set()
    )
    units = node.get("units")
    if units is None or not isinstance(units.value, list):
        return
    for entry in units.as_list():
        tname = entry.get("type")
        if tname is not None and isinstance(tname.value, str) and tname.value not in declared:
            problems.append(tname.error(f"{tname.value!r} is not a counter type of this file"))


def _units_once(node: Node, problems: Problems) -> None:
    """A counter id is declared once in the whole file."""
    units = node.get("units")
    if units is None or not isinstance(units.value, list):
        return
    seen: set[str] = set()
    for entry in units.as_list():
        ids = entry.get("ids")
        if ids is None or not isinstance(ids.value, list):
            continue
        for item in ids.as_list():
            if isinstance(item.value, str):
                if item.value in seen:
                    problems.append(item.error(f"unit {item.value!r} is declared twice"))
                seen.add(item.value)


TYPE_SCHEMA = Table(
    {
        "id": Field(Str(), "the type's id, named by the counters"),
        "name": Field(Str(), "what the counter is"),
        "kind": Field(Str(("infantry", "gun", "armor")), "infantry, gun battery or armor (hard)"),
        "he": Field(_pair(), "high explosive firepower, [full, reduced]"),
        "ap": Field(_pair(), "armor piercing firepower, [full, reduced]"),
        "armor": Field(Int(0, 20), "armor rating (subtracted from AP fire at it)"),
        "range": Field(Int(1, 40), "printed range in hexes (twice it at half firepower)"),
        "ca": Field(_pair(), "close assault factor, [full, reduced]"),
        "mf": Field(Int(0, 20), "movement factor"),
        "rally": Field(Int(1, 6), "highest action card value that removes a Disrupted marker"),
        "steps": Field(Int(1, 2), "steps (flipped on the first loss)", False, 2),
        "support": Field(Bool(), "a support unit (armor, engineers, guns)", False, False),
        "ranger": Field(Bool(), "crosses crests", False, False),
        "airborne": Field(Bool(), "the 101st Airborne group", False, False),
        "engineer": Field(Bool(), "an Engineer Assault Team", False, False),
        "mortar": Field(Bool(), "a mortar (spotted by any German unit)", False, False),
        "symbol": Field(Str(tuple(sorted(SYMBOLS))), "the NATO symbol on the counter", False),
        "echelon": Field(Str(ECHELONS), "the size mark above the symbol", False),
        "source": Field(Provenance(), "where the values come from"),
    },
    doc="A counter type: the factors printed on a counter.",
    checks=(Check("Reduced factors never exceed the full ones.", _full_not_below_reduced),),
)
UNIT_SCHEMA = Table(
    {
        "ids": Field(
            ListOf(Str(), unique=True, min_len=1), "the counters' ids (no spaces or commas)"
        ),
        "side": Field(Str(SIDES), "US or German"),
        "company": Field(Str(), "the company (units of one company combine fire)"),
        "type": Field(Str(), "the counter type"),
        "source": Field(Provenance(), "where the counters come from"),
    },
    doc="Counters of one type and company.",
)
SCHEMA = Table(
    {
        "types": Field(ListOf(TYPE_SCHEMA, unique_by="id", min_len=1), "the counter types"),
        "units": Field(ListOf(UNIT_SCHEMA, min_len=1), "the counters"),
    },
    doc="The counters file (`units`): counter types and the counters of the game.",
    checks=(
        Check("Every counter names a type the file declares.", _types_known),
        Check("A counter id is declared once in the whole file.", _units_once),
    ),
)
