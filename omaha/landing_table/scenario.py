"""Loading a D-Day at Omaha Beach scenario: map, positions, units, cards, tide, victory.

Everything here but the charts (``data/charts.toml``, see :mod:`rules`) is a
reconstruction: the map, the German positions with their fields of fire, the
orders of battle and landing schedule, the fire card deck, movement costs,
tide, naval fire and victory conditions. Every record carries its provenance
(``source = "reconstructed: <why>"``), and :class:`DDOBScenario` lists them
all for ``omaha provenance landing_table``.

A scenario file names the component files it uses (``[files]``), so a player
who owns the game can swap in the published map or counters and the same
loader validates them. Problems raise ``ScenarioError`` naming file, key and
problem.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.board import Board
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, Source, content_hash, load_toml
from omaha.kernel.labels import LabelError
from omaha.kernel.movement import MovementGraph
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.landing_table import rules

DATA = Path(__file__).parent / "data"
SCENARIOS = DATA / "scenarios"

TIDE_ROWS = {"low": "K", "half": "J", "high": "I"}
TIDE_ORDER = ("low", "half", "high")
SYMBOLS = ("circle", "square", "triangle")
COLOURS = ("red", "yellow", "blue", "green")
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
#: Rows above the bluff: "high ground" for mortar fire (German Action Summary 16.5).
PLATEAU_ROWS = frozenset("ABCDEF")


#: The procedures of play this module had to reconstruct (the code states them in
#: full in the docstrings of :mod:`state`, :mod:`landing`, :mod:`german`, :mod:`combat`).
RECONSTRUCTED_RULES: tuple[tuple[str, str], ...] = (
    ("sequence of play", "turn = 30 minutes from 06:30; landing, German phase, US actions, end"),
    (
        "fire cards",
        "one card per landing unit (result letter, mine), per German phase, per barrage",
    ),
    ("landing", "units land in order of battle, leaders last, on a hex of the box in the tide row"),
    (
        "mine strikes",
        "a unit coming ashore in an uncleared obstacle hex loses a step if its card shows a mine",
    ),
    ("east end", "a craft drifting past the last box lands there a turn late, without a new check"),
    ("German fire", "turns 1-16: occupied positions of the card's colours fire, in file order"),
    (
        "German disruption",
        "a disrupted German unit neither fires nor acts; it recovers after that phase",
    ),
    (
        "action summary 16.1-16.9",
        "re-occupy, redeploy, reinforce, mortar, patrol, artillery, advance, ambush",
    ),
    ("German communication", "a path of land hexes free of US units to the southern map edge"),
    (
        "US orders",
        "unit by unit: move, attack, barrage, clear obstacles or hold; end actions ends the phase",
    ),
    (
        "movement",
        "stop on entering a hex next to an occupied position; disrupted units move one hex",
    ),
    (
        "attacks",
        "at most three attackers; one attack per position per turn; an attack reveals the unit",
    ),
    (
        "naval fire",
        "a marker fires at a WN within 3 hexes of a US unit with a radio; one per attack",
    ),
    ("leaders", "rally the units in their hex at the start of the US actions"),
    (
        "recovery",
        "disrupted US units recover at the end unless in an occupied position's intense fire",
    ),
    ("exits", "open when no covering position is occupied and a US unit stands in the exit hex"),
    ("victory", "VP for positions held or cleared and exits open, against the scenario's levels"),
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
class GermanUnit:
    id: str
    division: str
    defense: int
    requires: frozenset[str]
    artillery: bool


@attrs.frozen
class Position:
    """A German position: WN strongpoint or 352nd Division reinforcement position."""

    id: str
    kind: str  # "wn" | "reinforcement"
    cell: int
    colour: str
    vp: int
    draw: str | None
    garrison: str | None
    depth: int
    advance: str | None
    fof: dict[int, str]  # cell -> fire dot
    source: Source


@attrs.frozen
class Card:
    """A fire card (reconstructed deck)."""

    id: str
    result: str
    colours: frozenset[str]
    symbol: str
    action: str
    icon: str  # none | armour | leader
    mine: bool

    def describe(self) -> str:
        icon = {"armour": " +armour", "leader": " +leader"}.get(self.icon, "")
        mine = " +mine" if self.mine else ""
        return (
            f"{self.id} [{self.result} | {'/'.join(sorted(self.colours))} | {self.symbol}"
            f" | {self.action}{icon}{mine}]"
        )


@attrs.frozen
class Exit:
    id: str
    name: str
    cell: int
    draw: tuple[int, ...]
    covered_by: tuple[str, ...]


@attrs.frozen
class Level:
    min: int
    level: str
    winner: str | None


class DDOBScenario(Scenario):
    """A loaded scenario: typed records shared by every state that plays it."""

    turns: int
    start_minutes: int
    minutes: int
    heroes: int
    tide: tuple[tuple[int, str], ...]
    naval: tuple[tuple[int, int], ...]
    depth_cups: dict[str, tuple[str, ...]]
    division: tuple[str, ...]
    vp_exit: int
    vp_position: int
    levels: tuple[Level, ...]
    kinds: dict[str, UnitKind]
    us: tuple[USUnit, ...]
    us_by_id: dict[str, USUnit]
    germans: dict[str, GermanUnit]
    positions: tuple[Position, ...]
    pos_by_id: dict[str, Position]
    pos_at: dict[int, str]
    cards: dict[str, Card]
    exits: tuple[Exit, ...]
    boxes: tuple[str, ...]
    box_sector: dict[int, str]
    box_cells: dict[tuple[int, str], tuple[int, ...]]
    obstacle_cells: frozenset[int]
    flood_cells: dict[str, frozenset[int]]
    row_of: tuple[str, ...]
    moves: dict[str, MovementGraph]
    gates: dict[tuple[int, int], str]
    naval_attack: int
    naval_spot: int

    def __init__(self, path: Path, ref: str) -> None:
        root = load_toml(path)
        root.only({"scenario", "files", "tide", "naval", "depth", "victory"})
        s = root.req("scenario").only(
            {"id", "title", "turns", "start", "minutes", "heroes", "source"}
        )
        files = root.req("files").only({"map", "positions", "oob", "cards", "movement"})
        base = path.parent if path.parent != SCENARIOS else DATA
        nodes = {
            k: load_toml(self._resolve(base, files.req(k)))
            for k in ("map", "positions", "oob", "cards", "movement")
        }
        prov: list[ProvenanceItem] = []
        for component, key, source in rules.CHARTS.sources:
            prov.append(ProvenanceItem(component, key, source))
        prov.append(ProvenanceItem("scenario", ref, s.source()))
        for key, what in RECONSTRUCTED_RULES:
            prov.append(ProvenanceItem("rule", key, Source(f"reconstructed: {what}")))
        map_node = nodes["map"]
        board = board_from_node(map_node)
        prov.append(ProvenanceItem("map", board.id, board.source))
        self._board_checks(board, map_node)
        self.turns = s.req("turns").as_int_in(1, 32)
        hh, mm = self._clock(s.req("start"))
        self.start_minutes = hh * 60 + mm
        self.minutes = s.req("minutes").as_int_in(1, 240)
        self.heroes = s.req("heroes").as_int_in(0, 20)
        self._load_tide(root, prov)
        self._load_naval(root, prov)
        self._load_boxes(board, prov)
        self._load_oob(nodes["oob"], prov)
        self._load_positions(nodes["positions"], board, prov)
        self._load_depth(root, prov)
        self._load_cards(nodes["cards"], prov)
        self._load_victory(root, prov)
        self._load_movement(nodes["movement"], board, prov)
        super().__init__(
            id=s.req("id").as_str(),
            title=s.req("title").as_str(),
            hash=content_hash(
                rules.CHARTS_DATA, root.value, *(nodes[k].value for k in sorted(nodes))
            ),
            board=board,
            provenance=prov,
        )

    # -- helpers ---------------------------------------------------------------
    @staticmethod
    def _resolve(base: Path, node: Node) -> Path:
        name = node.as_str()
        p = base / name
        if not p.exists():
            p = DATA / name
        if not p.exists():
            raise node.error(f"file {name!r} not found")
        return p

    @staticmethod
    def _clock(node: Node) -> tuple[int, int]:
        text = node.as_str()
        try:
            hh, mm = (int(x) for x in text.split(":"))
        except ValueError:
            raise node.error(f"{text!r} is not a time like '06:30'") from None
        if not (0 <= hh < 24 and 0 <= mm < 60):
            raise node.error(f"{text!r} is not a time like '06:30'")
        return hh, mm

    def _cell(self, board: Board, node: Node) -> int:
        try:
            return board.cell(node.as_str())
        except LabelError:
            raise node.error(f"{node.as_str()!r} is not on the map") from None

    def _cells(self, board: Board, node: Node) -> list[int]:
        out: list[int] = []
        for i, text in enumerate(node.as_str_list()):
            where = Node(text, node.file, f"{node.path}[{i}]")
            if ".." in text:
                first, last = (t.strip() for t in text.split("..", 1))
                a, b = (
                    self._cell(board, Node(first, node.file, where.path)),
                    self._cell(board, Node(last, node.file, where.path)),
                )
                ra, rb = self.row_of[a], self.row_of[b]
                if ra != rb:
                    raise where.error(f"range {text!r} must stay in one row")
                ca, cb = int(board.labels[a][1:]), int(board.labels[b][1:])
                lo, hi = min(ca, cb), max(ca, cb)
                out.extend(board.cell(f"{ra}{c}") for c in range(lo, hi + 1))
            else:
                out.append(self._cell(board, where))
        return out

    def _board_checks(self, board: Board, node: Node) -> None:
        if board.grid != "hex" or board.scheme != "letter-number":
            raise node.req("map").error("the DDOB map is a letter-number hex map")
        self.row_of = tuple("".join(ch for ch in lab if ch.isalpha()) for lab in board.labels)
        for row in TIDE_ROWS.values():
            if row not in set(self.row_of):
                raise node.req("map").error(f"the map has no tide row {row}")
        self.obstacle_cells = frozenset(board.cells_where(feature="obstacles"))
        self.flood_cells = {}
        for i, level in enumerate(TIDE_ORDER):
            rows = {TIDE_ROWS[lv] for lv in TIDE_ORDER[:i]}
            self.flood_cells[level] = frozenset(
                c for c in range(len(board)) if self.row_of[c] in rows
            )

    # -- sections ----------------------------------------------------------------
    def _load_tide(self, root: Node, prov: list[ProvenanceItem]) -> None:
        tide: list[tuple[int, str]] = []
        for tn in root.req("tide").as_list():
            tn.only({"from", "level", "source"})
            tide.append((tn.req("from").as_int_in(1, 32), tn.req("level").as_choice(TIDE_ORDER)))
            prov.append(ProvenanceItem("tide", f"from turn {tide[-1][0]}", tn.source()))
        tide.sort()
        if not tide or tide[0][0] != 1:
            raise root.req("tide").error("the tide must be given from turn 1")
        self.tide = tuple(tide)

    def _load_naval(self, root: Node, prov: list[ProvenanceItem]) -> None:
        naval: list[tuple[int, int]] = []
        naval_node = root.get("naval")
        for nn in naval_node.as_list() if naval_node is not None else []:
            nn.only({"turn", "markers", "source"})
            naval.append((nn.req("turn").as_int_in(1, 32), nn.req("markers").as_int_in(0, 10)))
            prov.append(ProvenanceItem("naval fire", f"turn {naval[-1][0]}", nn.source()))
        self.naval = tuple(sorted(naval))

    def _load_boxes(self, board: Board, prov: list[ProvenanceItem]) -> None:
        boxes = sorted(b for b in board.boxes if b.startswith("L") and b[1:].isdigit())
        if not boxes:
            raise ScenarioError("map.toml", "boxes", "the map has no landing boxes L01...")
        self.boxes = tuple(boxes)
        self.box_sector = {}
        self.box_cells = {}
        for i, bid in enumerate(boxes, start=1):
            box = board.boxes[bid]
            if int(bid[1:]) != i:
                raise ScenarioError(
                    "map.toml", f"boxes.{bid}", f"landing boxes must run L01..L{len(boxes):02d}"
                )
            sector = box.prop("sector")
            if not isinstance(sector, str):
                raise ScenarioError("map.toml", f"boxes.{bid}.props.sector", "is required")
            self.box_sector[i] = sector
            for level, row in TIDE_ROWS.items():
                cells = tuple(c for c in board.box_cells(bid) if self.row_of[c] == row)
                if not cells:
                    raise ScenarioError(
                        "map.toml", f"boxes.{bid}.links", f"no {level}-tide hex (row {row})"
                    )
                self.box_cells[(i, level)] = cells
            prov.append(ProvenanceItem("landing box", bid, box.source))

    def _load_oob(self, root: Node, prov: list[ProvenanceItem]) -> None:
        root.only({"kind", "us", "naval"})
        kinds: dict[str, UnitKind] = {}
        for kn in root.req("kind").as_list():
            kn.only(
                {"kind", "class", "steps", "attack", "range", "mp", "move", "reduced", "barrage"}
                | {"clears", "leader", "armoured", "source"}
            )
            name = kn.req("kind").as_str()
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
        self.kinds = kinds
        us: list[USUnit] = []
        seen: set[str] = set()
        for un in root.req("us").as_list():
            un.only({"id", "kind", "turn", "box", "symbol", "dd", "first_wave", "with", "source"})
            uid = un.req("id").as_str()
            if uid in seen:
                raise un.req("id").error(f"unit {uid!r} is listed twice")
            seen.add(uid)
            box = un.req("box").as_str()
            if box not in self.boxes:
                raise un.req("box").error(f"{box!r} is not a landing box")
            kind = un.req("kind").as_choice(set(kinds))
            dd = un.get("dd")
            fw = un.get("first_wave")
            with_ = un.get("with")
            us.append(
                USUnit(
                    id=uid,
                    kind=kinds[kind],
                    turn=un.req("turn").as_int_in(1, 99),
                    box=self.boxes.index(box) + 1,
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
        self.us = tuple(us)
        self.us_by_id = {u.id: u for u in us}
        nv = root.req("naval").only({"attack", "spot", "source"})
        self.naval_attack = nv.req("attack").as_int_in(0, 40)
        self.naval_spot = nv.req("spot").as_int_in(0, 40)
        prov.append(ProvenanceItem("naval fire", "marker", nv.source()))

    def _load_positions(self, root: Node, board: Board, prov: list[ProvenanceItem]) -> None:
        root.only({"position", "german", "exit"})
        germans: dict[str, GermanUnit] = {}
        names = set(rules.CHARTS.weapon_names)
        for gn in root.req("german").as_list():
            gn.only({"id", "division", "defense", "requires", "artillery", "source"})
            gid = gn.req("id").as_str()
            if gid in germans:
                raise gn.req("id").error(f"German unit {gid!r} is listed twice")
            req = gn.req("requires").as_str_list()
            for w in req:
                if w not in names:
                    raise gn.req("requires").error(f"{w!r} is not a weapon of the US Weapons Chart")
            germans[gid] = GermanUnit(
                gid,
                gn.req("division").as_choice({"716", "352"}),
                gn.req("defense").as_int_in(1, 40),
                frozenset(req),
                gn.req("artillery").as_bool(),
            )
            prov.append(ProvenanceItem("German unit", gid, gn.source()))
        self.germans = germans
        positions: list[Position] = []
        pos_at: dict[int, str] = {}
        for pn in root.req("position").as_list():
            pn.only(
                {"id", "kind", "hex", "colour", "vp", "draw", "garrison", "depth", "advance"}
                | {"intense", "steady", "sporadic", "source"}
            )
            pid = pn.req("id").as_str()
            cell = self._cell(board, pn.req("hex"))
            if cell in pos_at:
                raise pn.req("hex").error(f"{pos_at[cell]} already stands there")
            garrison = pn.get("garrison")
            gar = garrison.as_str() if garrison else None
            if gar is not None and gar not in germans:
                raise pn.req("garrison").error(f"{gar!r} is not a German unit")
            fof: dict[int, str] = {}
            for dot in reversed(rules.DOTS):  # stronger dots overwrite weaker ones
                if (dn := pn.get(dot)) is not None:
                    for c in self._cells(board, dn):
                        fof[c] = dot
            fof.pop(cell, None)
            draw = pn.get("draw")
            adv = pn.get("advance")
            positions.append(
                Position(
                    id=pid,
                    kind=pn.req("kind").as_choice({"wn", "reinforcement"}),
                    cell=cell,
                    colour=pn.req("colour").as_choice(COLOURS),
                    vp=pn.req("vp").as_int_in(0, 10),
                    draw=draw.as_str() if draw else None,
                    garrison=gar,
                    depth=pn.req("depth").as_int_in(0, 1),
                    advance=adv.as_str() if adv else None,
                    fof=fof,
                    source=pn.source(),
                )
            )
            pos_at[cell] = pid
            prov.append(ProvenanceItem("German position", pid, positions[-1].source))
        ids = {p.id for p in positions}
        for p in positions:
            if p.advance is not None and p.advance not in ids:
                raise ScenarioError(
                    root.file, f"position.{p.id}.advance", f"{p.advance!r} is not a position"
                )
        self.positions = tuple(positions)
        self.pos_by_id = {p.id: p for p in positions}
        self.pos_at = pos_at
        exits: list[Exit] = []
        for en in root.req("exit").as_list():
            en.only({"id", "name", "hex", "draw", "covered_by", "source"})
            cov = tuple(en.req("covered_by").as_str_list())
            for pid in cov:
                if pid not in ids:
                    raise en.req("covered_by").error(f"{pid!r} is not a position")
            exits.append(
                Exit(
                    en.req("id").as_str(),
                    en.req("name").as_str(),
                    self._cell(board, en.req("hex")),
                    tuple(self._cells(board, en.req("draw"))),
                    cov,
                )
            )
            prov.append(ProvenanceItem("exit", exits[-1].id, en.source()))
        self.exits = tuple(exits)

    def _load_depth(self, root: Node, prov: list[ProvenanceItem]) -> None:
        dn = root.req("depth").only({"716", "352", "division", "source"})
        cups: dict[str, tuple[str, ...]] = {}
        for div in ("716", "352"):
            markers = tuple(dn.req(div).as_str_list())
            for m in markers:
                if m != "TR" and not m.isdigit():
                    raise dn.req(div).error(f"{m!r} is not a depth marker (a strength or TR)")
            cups[div] = markers
        self.depth_cups = cups
        division = tuple(dn.req("division").as_str_list())
        garrisons = {p.garrison for p in self.positions if p.garrison}
        for gid in division:
            if gid not in self.germans or self.germans[gid].division != "352":
                raise dn.req("division").error(f"{gid!r} is not a 352nd Division unit")
            if gid in garrisons:
                raise dn.req("division").error(f"{gid!r} already garrisons a position")
        self.division = division
        prov.append(ProvenanceItem("depth markers", "cups", dn.source()))

    def _load_cards(self, root: Node, prov: list[ProvenanceItem]) -> None:
        deck = root.req("deck").only({"cards", "source"})
        cards: dict[str, Card] = {}
        for cn in deck.req("cards").as_list():
            cn.only({"id", "result", "colours", "symbol", "action", "icon", "mine"})
            cid = cn.req("id").as_str()
            if cid in cards:
                raise cn.req("id").error(f"card {cid!r} is listed twice")
            colours = cn.req("colours").as_str_list()
            for c in colours:
                if c not in COLOURS:
                    raise cn.req("colours").error(f"{c!r} is not a position colour")
            cards[cid] = Card(
                cid,
                cn.req("result").as_choice(set(rules.LETTERS)),
                frozenset(colours),
                cn.req("symbol").as_choice(SYMBOLS),
                cn.req("action").as_choice(set(rules.ACTION_LETTERS)),
                cn.req("icon").as_choice({"none", "armour", "leader"}),
                cn.req("mine").as_bool(),
            )
        if not cards:
            raise deck.req("cards").error("the deck has no cards")
        self.cards = cards
        prov.append(ProvenanceItem("fire cards", f"{len(cards)} cards", deck.source()))

    def _load_victory(self, root: Node, prov: list[ProvenanceItem]) -> None:
        vn = root.req("victory").only({"exit", "position", "levels", "source"})
        self.vp_exit = vn.req("exit").as_int_in(0, 100)
        self.vp_position = vn.req("position").as_int_in(0, 100)
        levels = []
        for ln in vn.req("levels").as_list():
            ln.only({"min", "level", "winner"})
            w = ln.get("winner")
            levels.append(
                Level(ln.req("min").as_int(), ln.req("level").as_str(), w.as_str() if w else None)
            )
        levels.sort(key=lambda lv: -lv.min)
        if not levels or levels[-1].min > 0:
            raise vn.req("levels").error("the lowest level must start at 0 VP")
        self.levels = tuple(levels)
        prov.append(ProvenanceItem("victory", "levels", vn.source()))

    def _load_movement(self, root: Node, board: Board, prov: list[ProvenanceItem]) -> None:
        moves: dict[str, MovementGraph] = {}
        gates: dict[tuple[int, int], str] = {}
        for cn in root.req("class").as_list():
            cn.only({"name", "enter", "sides", "gated", "source"})
            name = cn.req("name").as_choice({"foot", "climber", "vehicle"})
            enter = {k: v.as_int_in(0, 20) for k, v in cn.req("enter").items()}
            sides = {k: v.as_int_in(0, 20) for k, v in cn.req("sides").items()}
            gated_node = cn.get("gated")
            gated = set(gated_node.as_str_list()) if gated_node is not None else set()
            cost = _edge_cost(board, enter, sides)
            moves[name] = MovementGraph(board, cost, name)
            if gated:
                for (a, b), feat in board.side_records():
                    if feat.name in gated:
                        draw = board.prop(a, "draw") or board.prop(b, "draw")
                        if not isinstance(draw, str):
                            raise cn.req("gated").error(
                                f"side {board.labels[a]}|{board.labels[b]} closes no draw"
                            )
                        gates[(a, b)] = draw
                        gates[(b, a)] = draw
            prov.append(ProvenanceItem("movement", name, cn.source()))
        for need in ("foot", "climber", "vehicle"):
            if need not in moves:
                raise root.req("class").error(f"movement class {need!r} is missing")
        self.moves = moves
        self.gates = gates


def _edge_cost(
    board: Board, enter: dict[str, int], sides: dict[str, int]
) -> Callable[[int, int], int | None]:
    def cost(a: int, b: int) -> int | None:
        base = enter.get(board.terrain[b])
        if base is None:
            return None
        extra = 0
        for name, direction in board.crossing(a, b):
            key = name
            if direction is not None and name in ("bluff", "slope", "scaleable_cliff"):
                key = f"{name}_{direction}"
            if key in sides:
                extra += sides[key]
            elif name in sides:
                extra += sides[name]
            else:
                return None
        return base + extra

    return cost


def load_scenario(ref: str) -> DDOBScenario:
    """A shipped scenario id, or a path to a scenario file."""
    path = SCENARIOS / f"{ref}.toml"
    if not path.exists():
        path = Path(ref)
        if not path.exists():
            raise ScenarioError(ref, "", "is neither a shipped scenario nor a scenario file")
    return DDOBScenario(path, path.stem)
