"""Loading an LnL Omaha scenario: map, counters, action deck, forces and options.

A scenario file (``data/beach.toml``, ``data/vierville.toml`` or a user's own file)
names its victory hexes and its forces: who sets up where, who arrives on which
turn or by which card event, and how (landing in the waterline, entering from the
map edge, placed on a row). Counters come from ``data/units.toml`` and the deck
from ``data/deck.toml``; every record states where it comes from, and
:attr:`LnlScenario.provenance` lists them for ``omaha provenance lnl``.

Options are appended to the scenario reference with ``+``: ``beach+turn11`` plays the
optional eleventh turn (LnL Omaha: Winning), ``beach+d6`` rolls a d6 instead of
drawing an action card for disruption removal, fire combat and close assault
(LnL Omaha: Action Cards). The options are part of the scenario id, so snapshots
and game records restore the same variant.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.board import Board
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, Source, content_hash, load_toml
from omaha.kernel.labels import LabelError
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.lnl import rules

DATA = Path(__file__).parent / "data"
SHIPPED = ("beach", "vierville")
OPTIONS = ("turn11", "d6")
SIDES = ("US", "German")
EVENT_IDS = (
    "none",
    "at916",
    "panzers",
    "ger_plus6",
    "early2916",
    "quick_reaction",
    "german_air",
    "allies_plus6",
    "airborne101",
    "allied_air",
    "lost_paratroops",
)


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
    """One counter of the scenario: its index is its place in :attr:`LnlScenario.units`."""

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
class EventDef:
    id: str
    name: str
    once: bool
    effect: str
    source: Source


@attrs.frozen
class Card:
    id: str
    value: int
    event: str


@attrs.frozen
class Force:
    """A group of units that set up or arrive together, and how."""

    units: tuple[int, ...]
    when: str  # setup | turn | event
    turn: int
    event: str
    how: str  # free | landing | near | edge | row
    cells: tuple[int, ...]  # the allowed cells for near / edge / row (empty: rule-defined)
    source: Source


class LnlScenario(Scenario):
    """Everything a state needs that never changes during a game."""

    def __init__(self, ref: str, path: Path, options: tuple[str, ...]) -> None:
        scen_node = load_toml(path)
        map_node = load_toml(_component(scen_node, path, "map"))
        units_node = load_toml(_component(scen_node, path, "units"))
        deck_node = load_toml(_component(scen_node, path, "deck"))
        board = board_from_node(map_node)
        self.options = options
        self.provenance_items: list[ProvenanceItem] = []
        self._map_provenance(map_node, board)
        self.types = self._load_types(units_node)
        unit_nodes = self._load_unit_nodes(units_node)
        self._load_deck(deck_node)
        self._load_scenario(scen_node, board, unit_nodes)
        self.d6 = "d6" in options
        if "turn11" in options:
            self.turns = 11
        title = self.title_text + "".join(f" [{o}]" for o in options)
        super().__init__(
            id=ref,
            title=title,
            hash=content_hash(
                map_node.value, units_node.value, deck_node.value, scen_node.value, list(options)
            ),
            board=board,
            provenance=self.provenance_items,
        )
        self.tables = rules.StaticTables(self)

    # -- map ------------------------------------------------------------------
    def _map_provenance(self, node: Node, board: Board) -> None:
        add = self.provenance_items.append
        add(ProvenanceItem("map", "layout", board.source))
        terrain = node.get("terrain")
        for _, entry in terrain.items() if terrain is not None else iter(()):
            if entry.has("source"):
                add(ProvenanceItem("terrain", _key_of(entry), entry.source()))
        by_source: dict[str, list[str]] = {}
        for i, label in enumerate(board.labels):
            src = board.cell_sources[i]
            if src is not None and src != board.source:
                by_source.setdefault(src.text, []).append(label)
        for text, labels in by_source.items():
            add(ProvenanceItem("map cells", _short(labels), Source(text)))
        sides: dict[str, list[str]] = {}
        for (a, b), feat in board.side_records():
            sides.setdefault(feat.source.text, []).append(f"{board.label(a)}|{board.label(b)}")
        for text, labels in sides.items():
            add(ProvenanceItem("crest hexsides", _short(labels), Source(text)))
        self.terrain_checks(node, board)

    @staticmethod
    def terrain_checks(node: Node, board: Board) -> None:
        known = set(rules.TERRAIN_COST) | {"ocean"}
        for i, terr in enumerate(board.terrain):
            if terr not in known:
                raise ScenarioError(
                    node.file,
                    "cells",
                    f"{board.label(i)}: terrain {terr!r} is not one of {', '.join(sorted(known))}",
                )

    # -- counters -------------------------------------------------------------
    def _load_types(self, root: Node) -> dict[str, UnitType]:
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
            self.provenance_items.append(ProvenanceItem("counter type", tid, t.source))
        return types

    def _load_unit_nodes(self, root: Node) -> dict[str, tuple[Node, str]]:
        found: dict[str, tuple[Node, str]] = {}
        for un in root.req("units").as_list():
            un.only({"ids", "side", "company", "type", "source"})
            for uid in un.req("ids").as_str_list():
                if uid in found:
                    raise un.req("ids").error(f"unit {uid!r} is declared twice")
                if not uid or any(c.isspace() or c == "," for c in uid):
                    raise un.req("ids").error(f"unit id {uid!r} may not contain spaces or commas")
                found[uid] = (un, uid)
        return found

    # -- deck -----------------------------------------------------------------
    def _load_deck(self, root: Node) -> None:
        root.only({"events", "cards"})
        self.events: dict[str, EventDef] = {}
        for en in root.req("events").as_list():
            en.only({"id", "name", "once", "effect", "source"})
            eid = en.req("id").as_choice(set(EVENT_IDS))
            if eid in self.events:
                raise en.req("id").error(f"event {eid!r} is declared twice")
            ev = EventDef(
                eid,
                en.req("name").as_str(),
                en.req("once").as_bool(),
                en.req("effect").as_str(),
                en.source(),
            )
            self.events[eid] = ev
            self.provenance_items.append(ProvenanceItem("event", eid, ev.source))
        missing = [e for e in EVENT_IDS if e not in self.events]
        if missing:
            raise root.req("events").error(f"events missing: {', '.join(missing)}")
        cards: list[Card] = []
        for cn in root.req("cards").as_list():
            cn.only({"value", "event", "count", "source"})
            value = cn.req("value").as_int_in(1, 6)
            event = cn.req("event").as_choice(set(self.events))
            count = cn.req("count").as_int_in(1, 60)
            src = cn.source()
            start = len(cards)
            for _ in range(count):
                cards.append(Card(f"c{len(cards) + 1:02d}", value, event))
            self.provenance_items.append(
                ProvenanceItem(
                    "action cards",
                    f"{cards[start].id}-{cards[-1].id} ({count} x value {value}, {event})",
                    src,
                )
            )
        if not cards:
            raise root.req("cards").error("the deck has no cards")
        self.all_cards: dict[str, Card] = {c.id: c for c in cards}

    # -- scenario -------------------------------------------------------------
    def _load_scenario(
        self, root: Node, board: Board, unit_nodes: dict[str, tuple[Node, str]]
    ) -> None:
        root.only({"scenario", "victory_hexes", "forces"})
        s = root.req("scenario").only(
            {
                "id", "title", "turns", "victory", "control", "ngfs", "farmland_infantry_cost",
                "german_moves_freely", "remove_events", "source", "map", "units", "deck",
            }
        )  # fmt: skip
        self.scenario_id = s.req("id").as_str()
        self.title_text = s.req("title").as_str()
        self.turns = s.req("turns").as_int_in(1, 50)
        self.victory_mode = s.req("victory").as_choice({"hexes", "points"})
        self.initial_control = s.req("control").as_choice(set(SIDES))
        self.ngfs_packets = s.req("ngfs").as_int_in(0, 240) // 6
        self.farmland_infantry_cost = s.req("farmland_infantry_cost").as_int_in(1, 3)
        self.german_moves_freely = s.req("german_moves_freely").as_bool()
        removed = s.req("remove_events").as_str_list()
        for i, name in enumerate(removed):
            if name not in self.events:
                raise Node(name, root.file, f"scenario.remove_events[{i}]").error(
                    f"{name!r} is not an event of the deck"
                )
        self.removed_events = tuple(removed)
        self.cards: tuple[Card, ...] = tuple(
            c for c in self.all_cards.values() if c.event not in removed
        )
        self.provenance_items.append(ProvenanceItem("scenario", self.scenario_id, s.source()))

        def cell(node: Node) -> int:
            try:
                return board.cell(node.as_str())
            except LabelError:
                raise node.error(f"{node.as_str()!r} is not on the map") from None

        self.victory_points: dict[int, int] = {}
        for vn in root.req("victory_hexes").as_list():
            vn.only({"at", "points", "source"})
            pts = vn.req("points").as_int_in(1, 100)
            at = vn.req("at")
            for i, _ in enumerate(at.as_str_list()):
                c = cell(at.as_list()[i] if isinstance(at.value, list) else at)
                if c in self.victory_points:
                    raise at.error(f"{board.label(c)} is a victory hex twice")
                self.victory_points[c] = pts
            self.provenance_items.append(
                ProvenanceItem("victory hexes", ", ".join(at.as_str_list()), vn.source())
            )
        if not self.victory_points:
            raise root.req("victory_hexes").error("the scenario has no victory hexes")

        units: list[UnitDef] = []
        index: dict[str, int] = {}
        forces: list[Force] = []
        for k, fn in enumerate(root.req("forces").as_list()):
            fn.only(
                {
                    "units", "when", "turn", "event", "how", "hexes", "row", "near", "radius",
                    "mf", "source",
                }
            )  # fmt: skip
            src = fn.source()
            members: list[int] = []
            mf_node = fn.get("mf")
            unode = fn.req("units")
            for i, uid in enumerate(unode.as_str_list()):
                where = Node(uid, root.file, f"forces[{k}].units[{i}]")
                if uid not in unit_nodes:
                    raise where.error(f"{uid!r} is not a counter of units.toml")
                if uid in index:
                    raise where.error(f"{uid!r} appears in two forces")
                un, _ = unit_nodes[uid]
                tname = un.req("type").as_str()
                if tname not in self.types:
                    raise un.req("type").error(f"{tname!r} is not a counter type")
                utype = self.types[tname]
                side = un.req("side").as_choice(set(SIDES))
                mf = mf_node.as_int_in(0, 20) if mf_node is not None else utype.mf
                u = UnitDef(
                    len(units), uid, side, un.req("company").as_str(), utype, mf, un.source()
                )
                index[uid] = u.idx
                units.append(u)
                members.append(u.idx)
                self.provenance_items.append(ProvenanceItem("counter", uid, u.source))
            when = fn.req("when").as_choice({"setup", "turn", "event"})
            how = fn.req("how").as_choice({"free", "landing", "near", "edge", "row"})
            turn = fn.req("turn").as_int_in(1, 50) if when == "turn" else 0
            event = fn.req("event").as_choice(set(self.events)) if when == "event" else ""
            cells: tuple[int, ...] = ()
            if how == "near" or (how == "edge" and fn.has("near")):
                centre = cell(fn.req("near"))
                radius = fn.req("radius").as_int_in(0, 5)
                cells = tuple(c for c in board.within(centre, radius) if _land(board, c))
            elif how == "edge" and fn.has("hexes"):
                hn = fn.req("hexes")
                cells = tuple(cell(n) for n in hn.as_list())
            elif how in ("edge", "row"):
                rn = fn.req("row")
                row = rn.as_str().upper()
                cells = tuple(
                    c
                    for c in range(len(board))
                    if _row_of(board.label(c)) == row and _land(board, c)
                )
                if not cells:
                    raise rn.error(f"row {row!r} has no land hexes")
            if when == "setup" and how in ("edge",):
                raise fn.req("how").error("units that set up are placed, not entered from an edge")
            if when != "setup" and how == "free":
                raise fn.req("how").error("free set-up is only for units that set up")
            forces.append(Force(tuple(members), when, turn, event, how, cells, src))
            self.provenance_items.append(
                ProvenanceItem(
                    "forces", f"{when} {turn or event or ''} {how}".replace("  ", " "), src
                )
            )
        self.units: tuple[UnitDef, ...] = tuple(units)
        self.unit_index: dict[str, int] = index
        self.forces: tuple[Force, ...] = tuple(forces)
        self.setup_order: tuple[tuple[int, int], ...] = tuple(
            (fi, u)
            for side in ("German", "US")
            for fi, f in enumerate(forces)
            if f.when == "setup"
            for u in f.units
            if units[u].side == side
        )
        self.force_of: dict[int, int] = {u: fi for fi, f in enumerate(forces) for u in f.units}

    def unit(self, uid: str) -> UnitDef:
        try:
            return self.units[self.unit_index[uid]]
        except KeyError:
            raise KeyError(f"no unit {uid!r} in scenario {self.id}") from None


def _component(scen_node: Node, path: Path, key: str) -> Path:
    """The scenario's own map/units/deck file (``[scenario] map = "my_map.toml"``,
    relative to the scenario file), or the shipped one: an owner of the published
    game can swap in the printed values, checked by the same loader."""
    s = scen_node.req("scenario")
    node = s.get(key)
    if node is None:
        return DATA / f"{key}.toml"
    given = Path(node.as_str())
    full = given if given.is_absolute() else path.parent / given
    if not full.exists():
        raise node.error(f"file {node.as_str()!r} not found next to the scenario")
    return full


def _row_of(label: str) -> str:
    return label.rstrip("0123456789")


def _land(board: Board, c: int) -> bool:
    return board.terrain[c] != "ocean"


def _two(node: Node) -> tuple[int, int]:
    items = node.as_list()
    if len(items) != 2:
        raise node.error("expected [full, reduced]")
    return items[0].as_int_in(0, 99), items[1].as_int_in(0, 99)


def _key_of(node: Node) -> str:
    return node.path.split(".")[-1]


def _short(labels: list[str]) -> str:
    text = ", ".join(labels)
    return text if len(text) <= 80 else text[:77] + "..."


def split_ref(ref: str) -> tuple[str, tuple[str, ...]]:
    """``"beach+turn11+d6"`` -> ``("beach", ("d6", "turn11"))`` (options sorted)."""
    base, *opts = ref.split("+")
    for o in opts:
        if o not in OPTIONS:
            raise ScenarioError(
                ref, "", f"unknown option {o!r} (options: {', '.join(OPTIONS)}, joined with '+')"
            )
    return base, tuple(sorted(set(opts)))


def load(ref: str) -> LnlScenario:
    """A shipped scenario id or a path, with ``+option`` suffixes."""
    base, opts = split_ref(ref)
    if base in SHIPPED:
        path = DATA / f"{base}.toml"
        canonical = "+".join((base, *opts))
    else:
        path = Path(base)
        if not path.exists():
            raise ScenarioError(
                base, "", f"is neither a shipped scenario ({', '.join(SHIPPED)}) nor a file"
            )
        canonical = "+".join((str(path), *opts))
    return LnlScenario(canonical, path, opts)
