"""Loading an LnL Omaha scenario: map, counters, action deck, forces and options.

A scenario file follows the contract every game shares
(:mod:`omaha.kernel.scenariofile`): ``[scenario]`` (id, title, turns, victory,
control, NGFS...), ``[components]`` naming the map, units and deck (a shipped name,
or a ``.toml`` file next to the scenario), optional ``extends`` and ``[overrides]``,
then the game's own ``[[victory_hexes]]`` and ``[[forces]]`` (who sets up where, who
arrives on which turn or by which card event, and how). :data:`SCHEMAS` checks the
scenario and every component file with the cross-field rules before anything is
built; :func:`validate_scenario` reports every problem at once. Every record states
where it comes from, and the scenario's provenance lists them for
``omaha provenance lnl``.

Options are appended to the scenario reference with ``+``: ``beach+turn11`` plays the
optional eleventh turn (LnL Omaha: Winning), ``beach+d6`` rolls a d6 instead of
drawing an action card for disruption removal, fire combat and close assault
(LnL Omaha: Action Cards). The options are part of the scenario id, so snapshots
and game records restore the same variant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, content_hash
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.kernel.scenariofile import ScenarioFiles, component_sections, resolve
from omaha.kernel.schema import (
    Bool,
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
from omaha.lnl.components import counters as counter_file
from omaha.lnl.components import deck as deck_file
from omaha.lnl.components import map as map_file
from omaha.lnl.components.counters import UnitDef, UnitType, load_counters
from omaha.lnl.components.deck import Card, EventDef, load_deck
from omaha.lnl.components.forces import SIDES, Force, load_forces
from omaha.lnl.components.map import MapTables, StepCosts, cell_at, map_provenance

DATA = Path(__file__).resolve().parent / "data"
SCENARIOS = DATA / "scenarios"
#: The shipped scenarios, the default first.
SHIPPED = ("beach", "vierville")
OPTIONS = ("turn11", "d6")
#: Victory by hexes (LnL Omaha: Winning) has three levels below "all of them": four or
#: more, three, fewer; they are distinct only with five victory hexes or more.
MIN_VICTORY_HEXES = 5
#: Each component kind and its shipped file (``data/<name>.toml``).
COMPONENTS = {"map": "map", "units": "units", "deck": "deck"}
#: The longest game a scenario may ask for.
MAX_TURNS = 50


def _scenario_table(node: Node) -> dict[str, object]:
    scen = node.value.get("scenario")
    return scen if isinstance(scen, dict) else {}


def _arrivals_within_the_game(node: Node, problems: Problems) -> None:
    """Reinforcements arrive within the game's length (LnL Omaha: Setting up the Game)."""
    turns = _scenario_table(node).get("turns")
    forces = node.get("forces")
    if type(turns) is not int or forces is None or not isinstance(forces.value, list):
        return
    for force in forces.as_list():
        turn = force.get("turn")
        if turn is not None and type(turn.value) is int and turn.value > turns:
            problems.append(
                turn.error(f"turn {turn.value} is after the last turn of the game ({turns})")
            )


def _each_unit_in_one_force(node: Node, problems: Problems) -> None:
    """A counter is in one force only (it sets up or arrives once)."""
    forces = node.get("forces")
    if forces is None or not isinstance(forces.value, list):
        return
    seen: dict[str, int] = {}
    for k, force in enumerate(forces.as_list()):
        units = force.get("units")
        if units is None or not isinstance(units.value, list):
            continue
        for item in units.as_list():
            uid = item.value
            if not isinstance(uid, str):
                continue
            if uid in seen and seen[uid] != k:
                problems.append(item.error(f"{uid!r} is listed twice: also in forces[{seen[uid]}]"))
            seen.setdefault(uid, k)


def _force_keys_fit(node: Node, problems: Problems) -> None:
    """Each force gives what its arrival needs: a turn, an event, hexes or a row."""
    forces = node.get("forces")
    if forces is None or not isinstance(forces.value, list):
        return
    for force in forces.as_list():
        v = force.value
        if not isinstance(v, dict):
            continue
        when, how = v.get("when"), v.get("how")
        if when == "turn" and "turn" not in v:
            problems.append(force.error("arrives on a turn: give 'turn'"))
        if when == "event" and "event" not in v:
            problems.append(force.error("arrives by a card event: give 'event'"))
        if how == "near" and not ("near" in v and "radius" in v):
            problems.append(force.error("sets up near a hex: give 'near' and 'radius'"))
        if how in ("edge", "row") and not any(k in v for k in ("row", "hexes", "near")):
            problems.append(force.error(f"how = {how!r}: give 'row', 'hexes' or 'near'"))
        if when == "setup" and how == "edge":
            problems.append(force.error("units that set up are placed, not entered from an edge"))
        if when in ("turn", "event") and how == "free":
            problems.append(force.error("free set-up is only for units that set up"))


def _victory_hexes_once(node: Node, problems: Problems) -> None:
    """A victory hex is listed once, and a game by hexes has at least five (LnL Omaha:
    Winning: its levels need them)."""
    groups = node.get("victory_hexes")
    if groups is None or not isinstance(groups.value, list):
        return
    seen: set[str] = set()
    for group in groups.as_list():
        at = group.get("at")
        if at is None:
            continue
        items = at.as_list() if isinstance(at.value, list) else [at]
        for item in items:
            if isinstance(item.value, str):
                if item.value in seen:
                    problems.append(item.error(f"{item.value} is a victory hex twice"))
                seen.add(item.value)
    if _scenario_table(node).get("victory") == "hexes" and 0 < len(seen) < MIN_VICTORY_HEXES:
        problems.append(
            groups.error(
                f"{len(seen)} victory hexes: the levels of LnL Omaha: Winning (all of them, "
                f"four or more, three) need at least {MIN_VICTORY_HEXES} to be distinct"
            )
        )


_HEX = Str(pattern=r"[A-Z][0-9]{1,2}", meaning="a hex label like K4")
_EVENTS = deck_file.EVENT_IDS
SCENARIO_TABLE = Table(
    {
        "id": Field(Str(), "the scenario's id (a shipped set-up plan is found by it)"),
        "title": Field(Str(), "its title"),
        "turns": Field(Int(1, MAX_TURNS), "game turns (LnL Omaha: Winning: 10)"),
        "victory": Field(Str(("hexes", "points")), "by victory hexes held or by points"),
        "control": Field(Str(SIDES), "who controls the map's hexes at the start"),
        "ngfs": Field(Int(0, 240), "NGFS HE factors a turn (6 a packet)"),
        "farmland_infantry_cost": Field(Int(1, 3), "what farmland costs infantry"),
        "german_moves_freely": Field(Bool(), "the Germans move without cards"),
        "remove_events": Field(ListOf(Str(_EVENTS), unique=True), "card events not played"),
        "source": Field(Provenance(), "where the scenario comes from"),
    },
    doc="The scenario itself.",
)
FORCE = Table(
    {
        "units": Field(ListOf(Str(), unique=True, min_len=1), "the counters of the force"),
        "when": Field(Str(("setup", "turn", "event")), "at set-up, on a turn, by a card"),
        "turn": Field(Int(1, MAX_TURNS), "the turn it arrives (when = turn)", False),
        "event": Field(Str(_EVENTS), "the card event that brings it (when = event)", False),
        "how": Field(
            Str(("free", "landing", "near", "edge", "row")),
            "anywhere on land, in the waterline, near a hex, from a map edge, on a row",
        ),
        "hexes": Field(ListOf(_HEX, unique=True, single=True), "entry hexes", False),
        "row": Field(Str(pattern="[A-Za-z]", meaning="a row letter"), "the row", False),
        "near": Field(_HEX, "the hex it sets up or enters near", False),
        "radius": Field(Int(0, 5), "how near", False),
        "mf": Field(Int(0, 20), "a movement factor replacing the counters'", False),
        "source": Field(Provenance(), "where the force comes from"),
    },
    doc="A force: counters that set up or arrive together.",
)
SCHEMAS: dict[str, Table] = {
    "scenario": Table(
        {
            "scenario": Field(SCENARIO_TABLE, "the scenario"),
            **component_sections(COMPONENTS),
            "victory_hexes": Field(
                ListOf(
                    Table(
                        {
                            "at": Field(ListOf(_HEX, single=True, min_len=1), "the hexes"),
                            "points": Field(Int(1, 100), "what each is worth"),
                            "source": Field(Provenance(), "where they come from"),
                        }
                    ),
                    min_len=1,
                ),
                "the victory hexes",
            ),
            "forces": Field(ListOf(FORCE, min_len=1), "who sets up, who arrives when and how"),
        },
        doc="An LnL Omaha scenario file.",
        checks=(
            Check("Reinforcements arrive within the game's length.", _arrivals_within_the_game),
            Check("A counter is in one force only.", _each_unit_in_one_force),
            Check("Each force gives what its arrival needs.", _force_keys_fit),
            Check(
                "A victory hex is listed once; a game by hexes has five or more.",
                _victory_hexes_once,
            ),
        ),
    ),
    "map": map_file.SCHEMA,
    "units": counter_file.SCHEMA,
    "deck": deck_file.SCHEMA,
}


@attrs.define(kw_only=True, eq=False)
class LnlScenario(Scenario):
    """Everything a state needs that never changes during a game."""

    options: tuple[str, ...]
    #: The ``[scenario] id`` the file gives itself (the scenario's ``id`` is how it was loaded).
    scenario_id: str
    turns: int
    victory_mode: str  # hexes | points
    initial_control: str
    ngfs_packets: int
    farmland_infantry_cost: int
    german_moves_freely: bool
    d6: bool
    types: dict[str, UnitType]
    events: dict[str, EventDef]
    #: Every card of the deck file by id; ``cards`` are those this scenario plays with.
    all_cards: dict[str, Card]
    removed_events: tuple[str, ...]
    cards: tuple[Card, ...]
    victory_points: dict[int, int]
    units: tuple[UnitDef, ...]
    unit_index: dict[str, int]
    forces: tuple[Force, ...]
    setup_order: tuple[tuple[int, int], ...]
    force_of: dict[int, int]
    tables: MapTables
    #: Per unit: its step costs from each hex to each neighbour (see MapTables.step_costs).
    step_costs: tuple[StepCosts, ...]
    #: Per unit: whether it is a hard target (``UnitDef.hard``), for the rules' loops.
    hard: tuple[bool, ...]
    #: What agents need of the scenario, made on first use and shared by its states
    #: (the observation plan, the numbers of the actions met so far); not content.
    derived: dict[str, Any] = attrs.field(factory=dict, repr=False)

    def unit(self, uid: str) -> UnitDef:
        try:
            return self.units[self.unit_index[uid]]
        except KeyError:
            raise KeyError(f"no unit {uid!r} in scenario {self.id}") from None


def resolve_files(base: str) -> ScenarioFiles:
    """The scenario ``base`` (a shipped id or a file, no options) with its components,
    ``extends`` and overrides merged (:func:`omaha.kernel.scenariofile.resolve`)."""
    shipped = {sid: SCENARIOS / f"{sid}.toml" for sid in SHIPPED}
    return resolve(base, shipped_scenarios=shipped, data_dir=DATA, defaults=COMPONENTS, game="lnl")


def problems(files: ScenarioFiles) -> list[ScenarioError]:
    """Every problem of a resolved scenario: each file against its schema, then (when
    they are sound) what only building the scenario finds (hexes on the map, counters
    of the counters file, events of the deck)."""
    found: list[ScenarioError] = validate(files.root, SCHEMAS["scenario"])
    for kind in COMPONENTS:
        found += validate(files.components[kind], SCHEMAS[kind])
    if not found:
        try:
            _build("check", files, ())
        except ScenarioError as exc:
            found.append(exc)
    return found


def validate_scenario(ref: str) -> list[ScenarioError]:
    """Every problem of a scenario reference and the files it names (empty: it loads)."""
    try:
        base, _ = split_ref(ref)
        return problems(resolve_files(base))
    except ScenarioError as exc:
        return [exc]


def load_scenario(ref: str) -> LnlScenario:
    """A shipped scenario id or a path to a scenario file, with ``+option`` suffixes;
    the files are checked against :data:`SCHEMAS` before anything is built."""
    base, opts = split_ref(ref)
    files = resolve_files(base)
    canonical = "+".join((base if base in SHIPPED else str(Path(base)), *opts))
    raise_first(validate(files.root, SCHEMAS["scenario"]))
    for kind in COMPONENTS:
        raise_first(validate(files.components[kind], SCHEMAS[kind]))
    return _build(canonical, files, opts)


def split_ref(ref: str) -> tuple[str, tuple[str, ...]]:
    """``"beach+turn11+d6"`` -> ``("beach", ("d6", "turn11"))`` (options sorted)."""
    base, *opts = ref.split("+")
    for i, o in enumerate(opts):
        if o not in OPTIONS:
            raise ScenarioError(
                ref, "", f"unknown option {o!r} (options: {', '.join(OPTIONS)}, joined with '+')"
            )
        if o in opts[:i]:
            raise ScenarioError(ref, "", f"option {o!r} is given twice")
    return base, tuple(sorted(opts))


def _build(ref: str, files: ScenarioFiles, options: tuple[str, ...]) -> LnlScenario:
    scen_node = files.root
    map_node = files.components["map"]
    units_node = files.components["units"]
    deck_node = files.components["deck"]
    board = board_from_node(map_node)
    provenance = map_provenance(map_node, board)
    counters = load_counters(units_node, provenance)
    deck = load_deck(deck_node, provenance)

    root = scen_node
    root.only({"scenario", "components", "overrides", "victory_hexes", "forces"})
    s = root.req("scenario").only(
        {
            "id", "title", "turns", "victory", "control", "ngfs", "farmland_infantry_cost",
            "german_moves_freely", "remove_events", "source",
        }
    )  # fmt: skip
    scenario_id = s.req("id").as_str()
    title = s.req("title").as_str()
    turns = s.req("turns").as_int_in(1, 50)
    victory_mode = s.req("victory").as_choice({"hexes", "points"})
    initial_control = s.req("control").as_choice(set(SIDES))
    ngfs_packets = s.req("ngfs").as_int_in(0, 240) // 6
    farmland_infantry_cost = s.req("farmland_infantry_cost").as_int_in(1, 3)
    german_moves_freely = s.req("german_moves_freely").as_bool()
    removed = s.req("remove_events").as_str_list()
    for i, name in enumerate(removed):
        if name not in deck.events:
            raise Node(name, root.file, f"scenario.remove_events[{i}]").error(
                f"{name!r} is not an event of the deck"
            )
    cards = tuple(c for c in deck.cards.values() if c.event not in removed)
    provenance.append(ProvenanceItem("scenario", scenario_id, s.source()))

    victory_points: dict[int, int] = {}
    for vn in root.req("victory_hexes").as_list():
        vn.only({"at", "points", "source"})
        pts = vn.req("points").as_int_in(1, 100)
        at = vn.req("at")
        for i, _ in enumerate(at.as_str_list()):
            c = cell_at(board, at.as_list()[i] if isinstance(at.value, list) else at)
            if c in victory_points:
                raise at.error(f"{board.label(c)} is a victory hex twice")
            victory_points[c] = pts
        provenance.append(ProvenanceItem("victory hexes", ", ".join(at.as_str_list()), vn.source()))
    if not victory_points:
        raise root.req("victory_hexes").error("the scenario has no victory hexes")
    if victory_mode == "hexes" and len(victory_points) < MIN_VICTORY_HEXES:
        raise root.req("victory_hexes").error(
            f"{len(victory_points)} victory hexes: the levels of LnL Omaha: Winning (all of "
            f"them, four or more, three) need at least {MIN_VICTORY_HEXES} to be distinct"
        )

    oob = load_forces(root, board, counters, set(deck.events), turns, provenance)
    if "turn11" in options:
        turns = 11
    tables = MapTables(board, victory_points)
    step_costs = tuple(
        tables.step_costs(u.type.ranger, u.armor_unit, farmland_infantry_cost if u.infantry else 2)
        for u in oob.units
    )
    return LnlScenario(
        id=ref,
        title=title + "".join(f" [{o}]" for o in options),
        hash=content_hash(
            map_node.value, units_node.value, deck_node.value, scen_node.value, list(options)
        ),
        board=board,
        provenance=provenance,
        options=options,
        scenario_id=scenario_id,
        turns=turns,
        victory_mode=victory_mode,
        initial_control=initial_control,
        ngfs_packets=ngfs_packets,
        farmland_infantry_cost=farmland_infantry_cost,
        german_moves_freely=german_moves_freely,
        d6="d6" in options,
        types=counters.types,
        events=deck.events,
        all_cards=deck.cards,
        removed_events=tuple(removed),
        cards=cards,
        victory_points=victory_points,
        units=oob.units,
        unit_index=oob.unit_index,
        forces=oob.forces,
        setup_order=oob.setup_order,
        force_of=oob.force_of,
        tables=tables,
        step_costs=step_costs,
        hard=tuple(u.hard for u in oob.units),
        files=files.files,
    )
