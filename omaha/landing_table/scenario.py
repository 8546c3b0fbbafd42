"""A D-Day at Omaha Beach scenario: ``SHIPPED``, the scenario record and its loader.

A scenario file (``data/scenarios/*.toml``) gives the game length, the clock,
the Hero markers, the tide, the naval fire schedule, the depth marker cups and
the victory levels, and names the component files it uses (``[files]``: map,
positions, order of battle, cards, movement), so a player who owns the game can
swap in the published map or counters and the same loaders validate them.
Everything but the charts is a reconstruction and says so (READINGS.md);
problems raise ``ScenarioError`` naming file, key and problem.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, Source, content_hash, load_toml
from omaha.kernel.movement import MovementGraph
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.landing_table.components.cards import Card, load_deck
from omaha.landing_table.components.charts import CHARTS, CHARTS_DATA
from omaha.landing_table.components.forces import TURN_TRACK, UnitKind, USUnit, load_forces
from omaha.landing_table.components.positions import (
    Exit,
    GermanUnit,
    Position,
    load_defences,
)
from omaha.landing_table.components.terrain import (
    TIDE_ORDER,
    landing_boxes,
    load_movement,
    map_facts,
)

DATA = Path(__file__).parent / "data"
SCENARIOS = DATA / "scenarios"
#: The shipped scenarios, the default first.
SHIPPED = ("omaha", "first_wave")
COMPONENT_FILES = ("map", "positions", "oob", "cards", "movement")

#: The procedures of play this module had to reconstruct (READINGS.md states them
#: in full); listed with the components by ``omaha provenance landing_table``.
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
class Level:
    """A victory level: reached with at least ``min`` VP."""

    min: int
    level: str
    winner: str | None


@attrs.define(kw_only=True, eq=False)
class LandingTableScenario(Scenario):
    """A loaded scenario: typed records shared (never copied) by every state that plays it."""

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


def load_scenario(ref: str | Path) -> LandingTableScenario:
    """A shipped scenario id, or a path to a scenario file."""
    text = str(ref)
    path = SCENARIOS / f"{text}.toml"
    if not path.exists():
        path = Path(text)
        if not path.exists():
            raise ScenarioError(text, "", "is neither a shipped scenario nor a scenario file")
    return _read(path, path.stem)


def _load_toml(path: Path) -> Node:
    """A TOML file; one that is not UTF-8 text is named like any other bad file."""
    try:
        return load_toml(path)
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            path.name, "", f"is not UTF-8 text (byte {exc.start}: {exc.reason})"
        ) from None


def _read(path: Path, ref: str) -> LandingTableScenario:
    root = _load_toml(path)
    root.only({"scenario", "files", "tide", "naval", "depth", "victory"})
    s = root.req("scenario").only({"id", "title", "turns", "start", "minutes", "heroes", "source"})
    files = root.req("files").only(set(COMPONENT_FILES))
    base = path.parent if path.parent != SCENARIOS else DATA
    nodes = {k: _load_toml(_resolve(base, files.req(k))) for k in COMPONENT_FILES}
    prov: list[ProvenanceItem] = []
    for component, key, source in CHARTS.sources:
        prov.append(ProvenanceItem(component, key, source))
    prov.append(ProvenanceItem("scenario", ref, s.source()))
    for key, what in RECONSTRUCTED_RULES:
        prov.append(ProvenanceItem("rule", key, Source(f"reconstructed: {what}")))
    map_node = nodes["map"]
    board = board_from_node(map_node)
    prov.append(ProvenanceItem("map", board.id, board.source))
    facts = map_facts(board, map_node)
    turns = s.req("turns").as_int_in(1, TURN_TRACK)
    hh, mm = _clock(s.req("start"))
    minutes = s.req("minutes").as_int_in(1, 240)
    heroes = s.req("heroes").as_int_in(0, 20)
    tide = _tide(root, prov)
    naval = _naval(root, prov)
    boxes = landing_boxes(board, facts.row_of, prov)
    forces = load_forces(nodes["oob"], boxes.boxes, prov)
    defences = load_defences(nodes["positions"], board, facts.row_of, prov)
    depth_cups, division = _depth(root, defences.germans, defences.positions, prov)
    cards = load_deck(nodes["cards"], prov)
    vp_exit, vp_position, levels = _victory(root, prov)
    movement = load_movement(nodes["movement"], board, prov)
    return LandingTableScenario(
        id=s.req("id").as_str(),
        title=s.req("title").as_str(),
        hash=content_hash(CHARTS_DATA, root.value, *(nodes[k].value for k in sorted(nodes))),
        board=board,
        provenance=prov,
        turns=turns,
        start_minutes=hh * 60 + mm,
        minutes=minutes,
        heroes=heroes,
        tide=tide,
        naval=naval,
        depth_cups=depth_cups,
        division=division,
        vp_exit=vp_exit,
        vp_position=vp_position,
        levels=levels,
        kinds=forces.kinds,
        us=forces.us,
        us_by_id=forces.us_by_id,
        germans=defences.germans,
        positions=defences.positions,
        pos_by_id=defences.pos_by_id,
        pos_at=defences.pos_at,
        cards=cards,
        exits=defences.exits,
        boxes=boxes.boxes,
        box_sector=boxes.box_sector,
        box_cells=boxes.box_cells,
        obstacle_cells=facts.obstacle_cells,
        flood_cells=facts.flood_cells,
        row_of=facts.row_of,
        moves=movement.moves,
        gates=movement.gates,
        naval_attack=forces.naval_attack,
        naval_spot=forces.naval_spot,
    )


def _resolve(base: Path, node: Node) -> Path:
    name = node.as_str()
    p = base / name
    if not p.exists():
        p = DATA / name
    if not p.exists():
        raise node.error(f"file {name!r} not found")
    return p


def _clock(node: Node) -> tuple[int, int]:
    text = node.as_str()
    try:
        hh, mm = (int(x) for x in text.split(":"))
    except ValueError:
        raise node.error(f"{text!r} is not a time like '06:30'") from None
    if not (0 <= hh < 24 and 0 <= mm < 60):
        raise node.error(f"{text!r} is not a time like '06:30'")
    return hh, mm


def _tide(root: Node, prov: list[ProvenanceItem]) -> tuple[tuple[int, str], ...]:
    tide: list[tuple[int, str]] = []
    for tn in root.req("tide").as_list():
        tn.only({"from", "level", "source"})
        start = tn.req("from").as_int_in(1, TURN_TRACK)
        if start in {t for t, _ in tide}:
            raise tn.req("from").error(f"the tide is given twice from turn {start}")
        tide.append((start, tn.req("level").as_choice(TIDE_ORDER)))
        prov.append(ProvenanceItem("tide", f"from turn {tide[-1][0]}", tn.source()))
    tide.sort()
    if not tide or tide[0][0] != 1:
        raise root.req("tide").error("the tide must be given from turn 1")
    return tuple(tide)


def _naval(root: Node, prov: list[ProvenanceItem]) -> tuple[tuple[int, int], ...]:
    naval: list[tuple[int, int]] = []
    naval_node = root.get("naval")
    for nn in naval_node.as_list() if naval_node is not None else []:
        nn.only({"turn", "markers", "source"})
        turn = nn.req("turn").as_int_in(1, TURN_TRACK)
        if turn in {t for t, _ in naval}:
            raise nn.req("turn").error(f"naval fire arrives twice on turn {turn}")
        naval.append((turn, nn.req("markers").as_int_in(0, 10)))
        prov.append(ProvenanceItem("naval fire", f"turn {naval[-1][0]}", nn.source()))
    return tuple(sorted(naval))


def _depth(
    root: Node,
    germans: dict[str, GermanUnit],
    positions: tuple[Position, ...],
    prov: list[ProvenanceItem],
) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """The depth marker cups (716th, 352nd) and the Division reinforcement box."""
    dn = root.req("depth").only({"716", "352", "division", "source"})
    cups: dict[str, tuple[str, ...]] = {}
    for div in ("716", "352"):
        markers = tuple(dn.req(div).as_str_list())
        for m in markers:
            if m != "TR" and not m.isdigit():
                raise dn.req(div).error(f"{m!r} is not a depth marker (a strength or TR)")
        cups[div] = markers
    division = tuple(dn.req("division").as_str_list())
    garrisons = {p.garrison for p in positions if p.garrison}
    twice = sorted({gid for gid in division if division.count(gid) > 1})
    if twice:
        raise dn.req("division").error(f"{twice[0]!r} is listed twice")
    for gid in division:
        if gid not in germans or germans[gid].division != "352":
            raise dn.req("division").error(f"{gid!r} is not a 352nd Division unit")
        if gid in garrisons:
            raise dn.req("division").error(f"{gid!r} already garrisons a position")
    prov.append(ProvenanceItem("depth markers", "cups", dn.source()))
    return cups, division


def _victory(root: Node, prov: list[ProvenanceItem]) -> tuple[int, int, tuple[Level, ...]]:
    vn = root.req("victory").only({"exit", "position", "levels", "source"})
    vp_exit = vn.req("exit").as_int_in(0, 100)
    vp_position = vn.req("position").as_int_in(0, 100)
    levels: list[Level] = []
    for ln in vn.req("levels").as_list():
        ln.only({"min", "level", "winner"})
        w = ln.get("winner")
        least = ln.req("min").as_int()
        if least in {lv.min for lv in levels}:
            raise ln.req("min").error(f"two victory levels start at {least} VP")
        levels.append(Level(least, ln.req("level").as_str(), w.as_str() if w else None))
    levels.sort(key=lambda lv: -lv.min)
    if not levels or levels[-1].min > 0:
        raise vn.req("levels").error("the lowest level must start at 0 VP")
    prov.append(ProvenanceItem("victory", "levels", vn.source()))
    return vp_exit, vp_position, tuple(levels)
