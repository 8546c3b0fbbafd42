"""A D-Day at Omaha Beach scenario: ``SHIPPED``, ``SCHEMAS``, the scenario record and
its loader.

A scenario file follows the contract every game shares
(:mod:`omaha.kernel.scenariofile`: ``[scenario]``, ``[components]``,
``[overrides]``, ``extends``), then gives the tide, the naval fire schedule,
the depth marker cups and the victory levels. Its components (map, positions,
order of battle, cards, movement) are shipped ones by name or files beside it,
so a player who owns the game can swap in the published map or counters, and
the same schemas and loaders check them. Everything but the charts is a
reconstruction and says so (READINGS.md); problems raise ``ScenarioError``
naming file, key and problem, and :func:`problems` lists all of a file's at once.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, Source, content_hash
from omaha.kernel.movement import MovementGraph
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.kernel.scenariofile import ScenarioFiles, resolve
from omaha.kernel.schema import (
    Check,
    Field,
    Int,
    ListOf,
    Problems,
    Provenance,
    Str,
    Table,
    raise_first,
    validate,
)
from omaha.landing_table.components import cards as cards_file
from omaha.landing_table.components import forces as forces_file
from omaha.landing_table.components import positions as positions_file
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
    MAP_SCHEMA,
    MOVEMENT_SCHEMA,
    TIDE_ORDER,
    landing_boxes,
    load_movement,
    map_facts,
)

DATA = Path(__file__).parent / "data"
SCENARIOS = DATA / "scenarios"
#: The shipped scenarios, the default first.
SHIPPED = ("omaha", "first_wave")
#: The component kinds a scenario names (each shipped as ``data/<kind>.toml``).
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


def _the_turns(node: Node) -> int | None:
    scen = node.value.get("scenario")
    turns = scen.get("turns") if isinstance(scen, dict) else None
    return turns if isinstance(turns, int) and not isinstance(turns, bool) else None


def _within_the_game(key: str, field: str) -> Check:
    def check(node: Node, problems: Problems) -> None:
        turns, entries = _the_turns(node), node.get(key)
        if turns is None or entries is None or not isinstance(entries.value, list):
            return
        for entry in entries.as_list():
            turn = entry.value.get(field) if isinstance(entry.value, dict) else None
            if isinstance(turn, int) and turn > turns:
                problems.append(
                    entry.req(field).error(
                        f"turn {turn} is after the scenario's last turn ({turns})"
                    )
                )

    return Check(f"every `{key}` entry's `{field}` is within the game's turns", check)


def _tide_from_turn_1(node: Node, problems: Problems) -> None:
    tide = node.get("tide")
    if tide is None or not isinstance(tide.value, list):
        return
    starts = [t.get("from") for t in tide.value if isinstance(t, dict)]
    if 1 not in starts:
        problems.append(tide.error("the tide must be given from turn 1"))


def _victory_levels(node: Node, problems: Problems) -> None:
    levels = node.get("levels")
    if levels is None or not isinstance(levels.value, list):
        return
    mins = [lv.get("min") for lv in levels.value if isinstance(lv, dict)]
    whole = [m for m in mins if isinstance(m, int)]
    if whole and len(whole) == len(mins) and min(whole) != 0:
        problems.append(levels.error("the lowest level must start at 0 VP"))
    seen: set[str] = set()
    for lv in levels.as_list():
        name = lv.value.get("level") if isinstance(lv.value, dict) else None
        if isinstance(name, str):
            if name in seen:
                problems.append(lv.req("level").error(f"level {name!r} is named twice"))
            seen.add(name)


MARKERS = ListOf(Str(pattern=r"\d+|TR", meaning="a depth marker (a strength or TR)"))
SCENARIO_SCHEMA = Table(
    {
        "scenario": Field(
            Table(
                {
                    "id": Field(
                        Str(), "its name (a shipped scenario's id; a file is named by its path)"
                    ),
                    "title": Field(Str(), "its title"),
                    "turns": Field(Int(1, TURN_TRACK), "game length in turns (30 minutes each)"),
                    "start": Field(
                        Str(pattern=r"([01]\d|2[0-3]):[0-5]\d", meaning="a time like '06:30'"),
                        "the time of turn 1",
                    ),
                    "minutes": Field(Int(1, 240), "minutes a turn"),
                    "heroes": Field(Int(0, 20), "Hero markers"),
                    "extends": Field(Str(), "a scenario to start from", False),
                    "source": Field(Provenance(), "where the scenario comes from"),
                }
            ),
            "the scenario",
        ),
        "components": Field(
            Table(
                {kind: Field(Str(), f"the {kind} component", False) for kind in COMPONENT_FILES},
                doc="A shipped component by name (`oob`), or a file beside the scenario "
                "(`my_oob.toml`); a kind not named is the shipped one.",
            ),
            "where each component comes from",
            False,
        ),
        "overrides": Field(
            Table(
                {
                    kind: Field(Table({}, open=True), f"changes to the {kind}", False)
                    for kind in COMPONENT_FILES
                }
            ),
            "changes to components, merged in place (with their own source)",
            False,
        ),
        "tide": Field(
            ListOf(
                Table(
                    {
                        "from": Field(Int(1, TURN_TRACK), "the first turn of this level"),
                        "level": Field(Str(TIDE_ORDER), "low, half or high tide"),
                        "source": Field(Provenance(), "where it comes from"),
                    }
                ),
                unique_by="from",
                min_len=1,
            ),
            "the tide from each turn on (units land on its row; a rise floods the rows below)",
        ),
        "naval": Field(
            ListOf(
                Table(
                    {
                        "turn": Field(Int(1, TURN_TRACK), "the turn they arrive"),
                        "markers": Field(Int(0, 10), "Naval Fire Markers arriving"),
                        "source": Field(Provenance(), "where it comes from"),
                    }
                ),
                unique_by="turn",
            ),
            "the naval fire schedule",
            False,
        ),
        "depth": Field(
            Table(
                {
                    "716": Field(MARKERS, "the 716th Division's depth marker cup"),
                    "352": Field(MARKERS, "the 352nd Division's depth marker cup"),
                    "division": Field(
                        ListOf(Str(), unique=True),
                        "352nd units in the Division reinforcement box at the start",
                    ),
                    "source": Field(Provenance(), "where the mixes come from"),
                }
            ),
            "depth marker cups and the Division box",
        ),
        "victory": Field(
            Table(
                {
                    "exit": Field(Int(0, 100), "VP per open exit"),
                    "position": Field(Int(0, 100), "weight of a VP position's printed VP"),
                    "levels": Field(
                        ListOf(
                            Table(
                                {
                                    "min": Field(Int(0), "the least VP of this level"),
                                    "level": Field(Str(), "its name"),
                                    "winner": Field(Str(("US", "German")), "who wins", False),
                                }
                            ),
                            unique_by="min",
                            min_len=1,
                        ),
                        "the victory levels",
                    ),
                    "source": Field(Provenance(), "where the conditions come from"),
                },
                checks=[Check("levels: the lowest starts at 0 VP; names differ", _victory_levels)],
            ),
            "victory points and levels",
        ),
    },
    doc="A D-Day at Omaha Beach scenario.",
    checks=[
        Check("the tide is given from turn 1", _tide_from_turn_1),
        # the tide table describes the day: a shorter game simply stops before its end
        _within_the_game("naval", "turn"),
    ],
)
#: The schema of the scenario file and of each component it names.
SCHEMAS: dict[str, Table] = {
    "scenario": SCENARIO_SCHEMA,
    "map": MAP_SCHEMA,
    "positions": positions_file.SCHEMA,
    "oob": forces_file.SCHEMA,
    "cards": cards_file.SCHEMA,
    "movement": MOVEMENT_SCHEMA,
}


def resolve_files(ref: str | Path) -> ScenarioFiles:
    """The scenario file and its components (shipped id or path), by the shared contract."""
    return resolve(
        ref,
        shipped_scenarios={sid: SCENARIOS / f"{sid}.toml" for sid in SHIPPED},
        data_dir=DATA,
        defaults={kind: kind for kind in COMPONENT_FILES},
        game="landing_table",
    )


def problems(files: ScenarioFiles) -> Problems:
    """Every problem the schemas find in a scenario and its components."""
    found = validate(files.root, SCHEMAS["scenario"])
    for kind in COMPONENT_FILES:
        found += validate(files.components[kind], SCHEMAS[kind])
    return found


def load_scenario(ref: str | Path) -> LandingTableScenario:
    """A shipped scenario id, or a path to a scenario file."""
    files = resolve_files(ref)
    raise_first(problems(files))
    return build(files, str(ref))


def build(files: ScenarioFiles, ref: str) -> LandingTableScenario:
    """The scenario record of files the schemas passed (the loaders check the rest:
    labels on the map, boxes, classes). Its id is ``ref``, the shipped id or the path
    it was loaded by (so a record names what loads it again); the file's own
    ``[scenario] id`` names it in the provenance."""
    root = files.root
    s = root.req("scenario")
    nodes = files.components
    prov: list[ProvenanceItem] = []
    for component, key, source in CHARTS.sources:
        prov.append(ProvenanceItem(component, key, source))
    prov.append(ProvenanceItem("scenario", s.req("id").as_str(), s.source()))
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
        id=ref,
        title=s.req("title").as_str(),
        hash=content_hash(CHARTS_DATA, root.value, *(nodes[k].value for k in sorted(nodes))),
        board=board,
        provenance=prov,
        files=files.files,
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
