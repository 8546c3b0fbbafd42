"""Loading an LnL Omaha scenario: map, counters, action deck, forces and options.

A scenario file (``data/scenarios/beach.toml``, ``data/scenarios/vierville.toml``
or a user's own file) names its victory hexes and its forces: who sets up where,
who arrives on which turn or by which card event, and how (landing in the
waterline, entering from the map edge, placed on a row). Counters come from
``data/units.toml`` and the deck from ``data/deck.toml`` (or the scenario's own
files); every record states where it comes from, and the scenario's provenance
lists them for ``omaha provenance lnl``.

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
from omaha.kernel.data import Node, content_hash, load_toml
from omaha.kernel.scenario import ProvenanceItem, Scenario
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
    #: What agents need of the scenario, made on first use and shared by its states
    #: (the observation plan, the numbers of the actions met so far); not content.
    derived: dict[str, Any] = attrs.field(factory=dict, repr=False)

    def unit(self, uid: str) -> UnitDef:
        try:
            return self.units[self.unit_index[uid]]
        except KeyError:
            raise KeyError(f"no unit {uid!r} in scenario {self.id}") from None


def load_scenario(ref: str) -> LnlScenario:
    """A shipped scenario id or a path to a scenario file, with ``+option`` suffixes."""
    base, opts = split_ref(ref)
    if base in SHIPPED:
        path = SCENARIOS / f"{base}.toml"
        canonical = "+".join((base, *opts))
    else:
        path = Path(base)
        if not path.exists():
            raise ScenarioError(
                base, "", f"is neither a shipped scenario ({', '.join(SHIPPED)}) nor a file"
            )
        canonical = "+".join((str(path), *opts))
    return _read(canonical, path, opts)


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


def _read(ref: str, path: Path, options: tuple[str, ...]) -> LnlScenario:
    scen_node = _load(path)
    map_node = _load(_component(scen_node, path, "map"))
    units_node = _load(_component(scen_node, path, "units"))
    deck_node = _load(_component(scen_node, path, "deck"))
    board = board_from_node(map_node)
    provenance = map_provenance(map_node, board)
    counters = load_counters(units_node, provenance)
    deck = load_deck(deck_node, provenance)

    root = scen_node
    root.only({"scenario", "victory_hexes", "forces"})
    s = root.req("scenario").only(
        {
            "id", "title", "turns", "victory", "control", "ngfs", "farmland_infantry_cost",
            "german_moves_freely", "remove_events", "source", "map", "units", "deck",
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
    )


def _load(path: Path) -> Node:
    """A TOML data file; one that is not UTF-8 text is a ScenarioError naming it."""
    try:
        return load_toml(path)
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            path.name, "", f"is not UTF-8 text (byte {exc.start}: {exc.object[exc.start]:#04x})"
        ) from None


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
