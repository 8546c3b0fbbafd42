"""The US order of battle and landing schedule (reconstructed, ``data/oob.toml``).

Unit classes carry the counter values the charts need (steps, attack strength
per step, range, movement, reduced-side weapons, barrage range); each US unit
names its class, planned landing turn and box, target symbol and, for a
leader, the unit he lands with. The Naval Fire Marker values are here too.
"""

from __future__ import annotations

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.data import Node, Source
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Bool, Check, Field, Int, ListOf, Problems, Provenance, Str, Table
from omaha.landing_table.components.cards import SYMBOLS

#: Turns on the turn track (a game lasts at most this long).
TURN_TRACK = 32
#: The unit classes the charts know.
KINDS = frozenset(
    {
        "infantry",
        "ranger",
        "heavy",
        "engineer",
        "tank",
        "dukw",
        "artillery",
        "anti_tank",
        "anti_aircraft",
        "hq",
        "general",
    }
)


def _one_strength_per_step(node: Node, problems: Problems) -> None:
    steps, attack = node.value.get("steps"), node.value.get("attack")
    if isinstance(steps, int) and isinstance(attack, list) and len(attack) != steps:
        problems.append(node.req("attack").error(f"give one strength per step ({steps})"))


def _known_classes(node: Node, problems: Problems) -> None:
    """Each unit names a class of the file, and a leader's companion is a unit of it."""
    kinds = node.value.get("kind")
    units = node.value.get("us")
    if not isinstance(kinds, list) or not isinstance(units, list):
        return
    names = {k.get("kind") for k in kinds if isinstance(k, dict)}
    ids = {u.get("id") for u in units if isinstance(u, dict)}
    for un in node.req("us").as_list():
        if not isinstance(un.value, dict):
            continue
        kind = un.value.get("kind")
        if isinstance(kind, str) and kind not in names:
            known = ", ".join(sorted(str(n) for n in names))
            problems.append(un.req("kind").error(f"{kind!r} is not a unit class ({known})"))
        with_ = un.value.get("with")
        if isinstance(with_, str) and with_ not in ids:
            problems.append(un.req("with").error(f"{with_!r} is not a unit of this file"))


KIND = Table(
    {
        "kind": Field(Str(), "the class's name, as units name it"),
        "class": Field(
            Str(tuple(sorted(KINDS))),
            "the class the charts know (default: the name)",
            required=False,
        ),
        "steps": Field(Int(1, 6), "steps at full strength"),
        "attack": Field(ListOf(Int(0, 99)), "attack strength with 1, 2, ... steps left"),
        "range": Field(Int(0, 20), "attack range in hexes"),
        "mp": Field(Int(0, 20), "movement points"),
        "move": Field(Str(("foot", "climber", "vehicle")), "movement class"),
        "reduced": Field(
            ListOf(Str(), unique=True), "weapons of the reduced side (US Weapons Chart)", False
        ),
        "barrage": Field(Int(0, 40), "barrage range in hexes (0: none)", False, 0),
        "clears": Field(Bool(), "clears beach obstacles (engineers)", False, False),
        "leader": Field(Bool(), "a leader (HQ or general)", False, False),
        "armoured": Field(Bool(), "armoured (German Fire Chart)", False, False),
        "source": Field(Provenance(), "where the values come from"),
    },
    doc="A class of US unit: the counter values the charts read.",
    checks=[Check("`attack` gives one strength per step", _one_strength_per_step)],
)
UNIT = Table(
    {
        "id": Field(Str(), "the counter's id"),
        "kind": Field(Str(), "its class (a `kind` of this file)"),
        "turn": Field(Int(1, TURN_TRACK), "the turn it is planned to land"),
        "box": Field(Str(), "the landing box it is planned for (L01...)"),
        "symbol": Field(Str(SYMBOLS), "its target symbol"),
        "dd": Field(Bool(), "a DD tank company (swims in)", False, False),
        "first_wave": Field(Bool(), "counts in the first-wave metric", False, False),
        "with": Field(Str(), "a leader's companion: the unit he lands with", False),
        "source": Field(Provenance(), "where it comes from"),
    },
    doc="A US unit and its landing plan.",
)
SCHEMA = Table(
    {
        "kind": Field(ListOf(KIND, unique_by="kind", min_len=1), "the unit classes"),
        "us": Field(ListOf(UNIT, unique_by="id", min_len=1), "the US order of battle"),
        "naval": Field(
            Table(
                {
                    "attack": Field(Int(0, 40), "a Naval Fire Marker's attack strength"),
                    "spot": Field(Int(0, 40), "hexes from a radio within which it may fire"),
                    "source": Field(Provenance(), "where the values come from"),
                }
            ),
            "the Naval Fire Markers",
        ),
    },
    doc="The US order of battle and landing schedule.",
    checks=[
        Check("each unit's `kind` is a class of the file; `with` names a unit", _known_classes)
    ],
)


@attrs.frozen
class UnitKind:
    """A class of US unit (reconstructed counter values)."""

    name: str
    cls: str  # the class the charts know (infantry, ranger, tank, ...)
    steps: int
    attack: tuple[int, ...]
    range: int
    mp: int
    move: str
    reduced: frozenset[str]
    barrage: int
    clears: bool
    leader: bool
    armoured: bool

    def strength(self, steps: int) -> int:
        return self.attack[steps - 1] if steps > 0 else 0


@attrs.frozen
class USUnit:
    """A US unit of the order of battle and its landing plan."""

    id: str
    kind: UnitKind
    turn: int
    box: int
    symbol: str
    dd: bool
    first_wave: bool
    with_: str | None
    source: Source


@attrs.frozen
class Forces:
    """The US side of a scenario: unit classes, units (landing order) and naval fire."""

    kinds: dict[str, UnitKind]
    us: tuple[USUnit, ...]
    us_by_id: dict[str, USUnit]
    naval_attack: int
    naval_spot: int


def load_forces(root: Node, boxes: tuple[str, ...], prov: list[ProvenanceItem]) -> Forces:
    """Read an order-of-battle file; ``boxes`` are the map's landing boxes."""
    root.only({"kind", "us", "naval"})
    kinds: dict[str, UnitKind] = {}
    for kn in root.req("kind").as_list():
        kn.only(
            {"kind", "class", "steps", "attack", "range", "mp", "move", "reduced", "barrage"}
            | {"clears", "leader", "armoured", "source"}
        )
        name = kn.req("kind").as_str()
        if name in kinds:
            raise kn.req("kind").error(f"unit class {name!r} is listed twice")
        cls = kn.req("class").as_choice(KINDS) if kn.has("class") else name
        if cls not in KINDS:
            raise kn.req("kind").error(f"{name!r} is not a unit class of the charts")
        steps = kn.req("steps").as_int_in(1, 6)
        attack = tuple(kn.req("attack").as_int_list())
        if len(attack) != steps:
            raise kn.req("attack").error(f"give one strength per step ({steps})")

        def flag(key: str, node: Node = kn) -> bool:
            child = node.get(key)
            return child.as_bool() if child is not None else False

        reduced = kn.get("reduced")
        barrage = kn.get("barrage")
        kinds[name] = UnitKind(
            name=name,
            cls=cls,
            steps=steps,
            attack=attack,
            range=kn.req("range").as_int_in(0, 20),
            mp=kn.req("mp").as_int_in(0, 20),
            move=kn.req("move").as_choice({"foot", "climber", "vehicle"}),
            reduced=frozenset(reduced.as_str_list() if reduced else ()),
            barrage=barrage.as_int_in(0, 40) if barrage else 0,
            clears=flag("clears"),
            leader=flag("leader"),
            armoured=flag("armoured"),
        )
        prov.append(ProvenanceItem("unit class", name, kn.source()))
    us: list[USUnit] = []
    seen: set[str] = set()
    for un in root.req("us").as_list():
        un.only({"id", "kind", "turn", "box", "symbol", "dd", "first_wave", "with", "source"})
        uid = un.req("id").as_str()
        if uid in seen:
            raise un.req("id").error(f"unit {uid!r} is listed twice")
        seen.add(uid)
        box = un.req("box").as_str()
        if box not in boxes:
            raise un.req("box").error(f"{box!r} is not a landing box")
        kind = un.req("kind").as_choice(set(kinds))
        dd = un.get("dd")
        fw = un.get("first_wave")
        with_ = un.get("with")
        us.append(
            USUnit(
                id=uid,
                kind=kinds[kind],
                turn=un.req("turn").as_int_in(1, TURN_TRACK),
                box=boxes.index(box) + 1,
                symbol=un.req("symbol").as_choice(SYMBOLS),
                dd=dd.as_bool() if dd else False,
                first_wave=fw.as_bool() if fw else False,
                with_=with_.as_str() if with_ else None,
                source=un.source(),
            )
        )
        prov.append(ProvenanceItem("US unit", uid, us[-1].source))
    for u in us:
        if u.with_ is not None and u.with_ not in seen:
            raise ScenarioError(root.file, f"us.{u.id}.with", f"{u.with_!r} is not a US unit")
    nv = root.req("naval").only({"attack", "spot", "source"})
    naval_attack = nv.req("attack").as_int_in(0, 40)
    naval_spot = nv.req("spot").as_int_in(0, 40)
    prov.append(ProvenanceItem("naval fire", "marker", nv.source()))
    return Forces(kinds, tuple(us), {u.id: u for u in us}, naval_attack, naval_spot)
