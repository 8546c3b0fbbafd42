"""Bloody Omaha scenarios: the shipped ids, the file schemas, the scenario record and
its loader.

A scenario file follows the contract every game shares
(:mod:`omaha.kernel.scenariofile`): ``[scenario]`` (id, title, game length, Game
Track), ``[components]`` naming the map, units, tokens, tables and cards (a shipped
name, or a file next to the scenario), optional ``extends`` and ``[overrides]``,
then the game's own ``[victory]`` section (2.2). :data:`SCHEMAS` checks the
scenario and every component file, with the cross-field rules; :func:`problems`
adds the checks across files (set-up squares on the map, tokens enough for the
squares, exits the victory levels can ask for, reinforcements within the game
length), so a file's problems are reported all at once. Every problem is an
``omaha.ScenarioError`` naming file, key and problem.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, content_hash
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.kernel.scenariofile import ScenarioFiles, component_sections, resolve
from omaha.kernel.schema import (
    Check,
    Field,
    Int,
    Problems,
    Provenance,
    Str,
    Table,
    raise_first,
    validate,
)

from . import rules
from .components import cards as card_file
from .components import map as map_file
from .components import tables as table_file
from .components import tokens as token_file
from .components import units as unit_file
from .components.cards import Card, read_cards
from .components.checking import entries, text, whole
from .components.map import MapFeatures, read_map
from .components.tables import read_tables
from .components.tokens import fill_problems, read_tokens
from .components.units import IN_BOX, UnitSpec, read_units
from .rules import EventEntry
from .rules import Table as DieTable

#: The shipped component files.
DATA = Path(__file__).parent / "data"
#: The shipped scenario files.
SCENARIOS = DATA / "scenarios"
#: The shipped scenario ids, the default first.
SHIPPED: tuple[str, ...] = ("solo",)
#: Each component kind and its shipped file (``data/<name>.toml``).
COMPONENTS = {
    "map": "map",
    "units": "units",
    "tokens": "tokens",
    "tables": "tables",
    "cards": "cards",
}


def _fits_the_track(node: Node, problems: Problems) -> None:
    """3.2, 3.5.a: the Turn token moves along the Game Track, so the game fits on it."""
    turns, track = whole(node.value.get("turns")), whole(node.value.get("track_max"))
    if turns is not None and track is not None and turns > track:
        where = node.get("turns")
        assert where is not None
        problems.append(
            where.error(
                f"{turns} turns do not fit on a Game Track of {track} spaces "
                "(the Turn token moves along it, 3.5.a)"
            )
        )


def _thresholds_in_order(node: Node, problems: Problems) -> None:
    """2.2: Defeat below the exits a Historical Victory needs, which are no more than a
    Major Victory's; a Major Victory's VP above a Historical Victory's (distinct levels)."""
    v = {k: whole(node.value.get(k)) for k in VICTORY.fields}
    pairs = (
        ("defeat_below_exits", "historical_exits", "at most"),
        ("historical_exits", "major_exits", "at most"),
        ("historical_vp", "major_vp", "below"),
    )
    for low, high, how in pairs:
        a, b = v[low], v[high]
        if a is None or b is None:
            continue
        if a > b or (how == "below" and a == b):
            where = node.get(low)
            assert where is not None
            problems.append(where.error(f"{a} must be {how} {high} ({b}): the levels would merge"))


SCENARIO = Table(
    {
        "id": Field(Str(), "the scenario's name"),
        "title": Field(Str(), "its title"),
        "source": Field(Provenance(), "where the scenario comes from"),
        "extends": Field(Str(), "a scenario to start from (shipped id or file)", required=False),
        "turns": Field(Int(1, 99), "game length in turns (the text gives none)"),
        "turns_source": Field(Provenance(), "where the game length comes from"),
        "turn_minutes": Field(
            Int(1, 24 * 60), "the game's clock: minutes a turn lasts, turn 1 at 06:30"
        ),
        "turn_minutes_source": Field(Provenance(), "where the turn's length comes from"),
        "track_max": Field(Int(2, 99), "spaces of the Game Track (turn and ratings, 3.2)"),
        "track_source": Field(Provenance(), "where the track length comes from"),
    },
    doc="The scenario.",
    checks=[Check("the turns fit on the Game Track (3.5.a)", _fits_the_track)],
)
VICTORY = Table(
    {
        "defeat_below_exits": Field(Int(0, 99), "fewer Exit squares cleared: Defeat (2.2.a)"),
        "historical_exits": Field(Int(0, 99), "exits a Historical Victory needs (2.2.b)"),
        "historical_vp": Field(Int(0, 999), "VP a Historical Victory needs (2.2.b)"),
        "major_vp": Field(Int(0, 999), "VP a Major Victory needs: 41 is 'over 40' (2.2.c)"),
        "major_exits": Field(
            Int(0, 99), "exits a Major Victory needs (omitted: every exit, 2.2.c)", False
        ),
        "source": Field(Provenance(), "where the thresholds come from"),
    },
    doc="The victory levels (2.2); Draw is every end that is neither Defeat nor victory.",
    checks=[Check("thresholds in order, levels distinct (2.2)", _thresholds_in_order)],
)
#: Every file of a scenario: the scenario file and each component kind.
SCHEMAS: dict[str, Table] = {
    "scenario": Table(
        {
            "scenario": Field(SCENARIO, "the scenario"),
            **component_sections(COMPONENTS),
            "victory": Field(VICTORY, "the victory levels (2.2)"),
        },
        doc="A Bloody Omaha scenario file.",
    ),
    "map": map_file.SCHEMA,
    "units": unit_file.SCHEMA,
    "tokens": token_file.SCHEMA,
    "tables": table_file.SCHEMA,
    "cards": card_file.SCHEMA,
}


@attrs.define(kw_only=True, eq=False)
class BloodyScenario(Scenario):
    """Everything static about a game of Bloody Omaha, shared by every state.

    Cells are board indices, units indices into ``units``.
    """

    turns: int
    turn_minutes: int
    track_max: int
    victory: rules.VictoryThresholds
    # the map (3.2)
    kind: tuple[str, ...]
    xy: tuple[tuple[int, int], ...]
    column: tuple[int, ...]
    channel: frozenset[int]
    beaches: tuple[int, ...]
    land: frozenset[int]
    inland: frozenset[int]
    first_wave: frozenset[int]
    entry: tuple[int, ...]
    forward: dict[int, int]
    east: dict[int, int]
    land_neighbours: tuple[tuple[int, ...], ...]
    beach_name: dict[int, str]
    exit_name: dict[int, str]
    town_name: dict[int, str]
    bonus: frozenset[int]
    southern: frozenset[int]
    strongpoints: tuple[int, ...]
    red_gray: frozenset[int]
    encounter_squares: tuple[int, ...]
    arrows: dict[int, tuple[int, ...]]
    # the counters (3.3, 3.5)
    units: tuple[UnitSpec, ...]
    unit_index: dict[str, int]
    strongpoint_tokens: tuple[str, ...]
    encounter_tokens: tuple[str, ...]
    obstacle_count: int
    tank_count: int
    tank_strength: int
    # the tables (6.2, 6.5, 8.5, 5.2)
    drift: DieTable
    beach: DieTable
    engineer_table: DieTable
    events: dict[str, tuple[EventEntry, ...]]
    # the cards (9.0)
    cards: dict[str, Card]
    card_ids: tuple[str, ...]


def resolve_files(ref: str) -> ScenarioFiles:
    """The scenario ``ref`` (a shipped id or a file) with its components, ``extends`` and
    overrides merged (:func:`omaha.kernel.scenariofile.resolve`)."""
    shipped = {sid: SCENARIOS / f"{sid}.toml" for sid in SHIPPED}
    return resolve(
        ref, shipped_scenarios=shipped, data_dir=DATA, defaults=COMPONENTS, game="bloody"
    )


def problems(files: ScenarioFiles) -> list[ScenarioError]:
    """Every problem of a resolved scenario: each file against its schema, then the
    checks across files for those that passed."""
    found: list[ScenarioError] = validate(files.root, SCHEMAS["scenario"])
    sound = {"scenario"} if not found else set()
    for kind in COMPONENTS:
        mine = validate(files.components[kind], SCHEMAS[kind])
        found += mine
        if not mine:
            sound.add(kind)
    return found + _across(files, sound)


def _across(files: ScenarioFiles, sound: set[str]) -> list[ScenarioError]:
    """Checks that read two files, over the entries well-formed enough to read (the
    schemas report the others); the map must build, the token mix must be sound."""
    found: list[ScenarioError] = []
    squares: MapFeatures | None = None
    if "map" in sound:
        try:
            board = board_from_node(files.components["map"])
            squares = read_map(board, files.components["map"], [])
        except ScenarioError as exc:
            found.append(exc)
    root, units = files.root, files.components["units"]
    terrain = map_file.terrains(files.components["map"])
    boxed: list[str] = []
    for item, unit in entries(units, "units"):
        label = text(unit.get("setup"))
        if label == IN_BOX:
            boxed.append(str(unit.get("id")))
        elif label is not None and terrain:
            where = item.req("setup")
            if label not in terrain:
                found.append(where.error(f"{label!r} is not on the map"))
            elif terrain[label] != map_file.CHANNEL:
                found.append(where.error(f"{label} is not a Channel square (4.4)"))
    if squares is not None and "tokens" in sound:
        tokens = files.components["tokens"]
        found += fill_problems(
            tokens,
            read_tokens(tokens, []),
            len(squares.strongpoints),
            len(squares.beaches),
            len(squares.encounter_squares),
        )
    scenario = root.get("scenario")
    turns_node = (
        scenario.get("turns") if scenario is not None and isinstance(scenario.value, dict) else None
    )
    turns = whole(turns_node.value) if turns_node is not None else None
    if turns_node is not None and turns is not None and turns < rules.FIRST_RELEASE_TURN and boxed:
        found.append(
            turns_node.error(
                f"{turns} turns end before reinforcements may be released (turn "
                f"{rules.FIRST_RELEASE_TURN}, 5.3.f): {', '.join(boxed)} could never play"
            )
        )
    victory = root.get("victory")
    if squares is not None and victory is not None and isinstance(victory.value, dict):
        exits = len(squares.exit_name)
        for key in ("historical_exits", "major_exits"):
            need = victory.get(key)
            count = whole(need.value) if need is not None else None
            if need is not None and count is not None and count > exits:
                found.append(need.error(f"{count} exits: the map has {exits} (2.2)"))
    return found


def validate_scenario(ref: str) -> list[ScenarioError]:
    """Every problem of a scenario file and the components it names (empty: it loads)."""
    try:
        files = resolve_files(ref)
    except ScenarioError as exc:
        return [exc]
    return problems(files)


def load_scenario(ref: str) -> BloodyScenario:
    """Read a scenario (a shipped id or a path to a scenario file) and its components,
    checked first by :func:`problems` (the first problem is raised)."""
    files = resolve_files(ref)
    raise_first(problems(files))
    scen_node, comp = files.root, files.components
    s = scen_node.req("scenario")
    turns = s.req("turns").as_int()
    track_max = s.req("track_max").as_int()
    turn_minutes = s.req("turn_minutes").as_int()
    v = scen_node.req("victory")
    victory = rules.VictoryThresholds(
        defeat_below_exits=v.req("defeat_below_exits").as_int(),
        historical_exits=v.req("historical_exits").as_int(),
        historical_vp=v.req("historical_vp").as_int(),
        major_vp=v.req("major_vp").as_int(),
        major_exits=v.req("major_exits").as_int() if v.has("major_exits") else None,
    )
    prov: list[ProvenanceItem] = [
        ProvenanceItem("scenario", s.req("id").as_str(), s.source()),
        ProvenanceItem("game length", f"{turns} turns", s.source("turns_source")),
        ProvenanceItem("turn length", f"{turn_minutes} minutes", s.source("turn_minutes_source")),
        ProvenanceItem("game track", f"{track_max} spaces", s.source("track_source")),
        ProvenanceItem("victory levels", _describe(victory), v.source()),
    ]
    board = board_from_node(comp["map"])
    squares = read_map(board, comp["map"], prov)
    units = read_units(board, comp["units"], squares.channel, prov)
    mix = read_tokens(comp["tokens"], prov)
    tables = read_tables(comp["tables"], prov)
    cards = read_cards(comp["cards"], prov)
    return BloodyScenario(
        id=ref,
        title=s.req("title").as_str(),
        hash=content_hash(scen_node.value, *(comp[kind].value for kind in COMPONENTS)),
        board=board,
        provenance=prov,
        files=files.files,
        turns=turns,
        turn_minutes=turn_minutes,
        track_max=track_max,
        victory=victory,
        kind=squares.kind,
        xy=squares.xy,
        column=squares.column,
        channel=squares.channel,
        beaches=squares.beaches,
        land=squares.land,
        inland=squares.inland,
        first_wave=squares.first_wave,
        entry=squares.entry,
        forward=squares.forward,
        east=squares.east,
        land_neighbours=squares.land_neighbours,
        beach_name=squares.beach_name,
        exit_name=squares.exit_name,
        town_name=squares.town_name,
        bonus=squares.bonus,
        southern=squares.southern,
        strongpoints=squares.strongpoints,
        red_gray=squares.red_gray,
        encounter_squares=squares.encounter_squares,
        arrows=squares.arrows,
        units=units,
        unit_index={u.id: k for k, u in enumerate(units)},
        strongpoint_tokens=mix.strongpoint_tokens,
        encounter_tokens=mix.encounter_tokens,
        obstacle_count=mix.obstacle_count,
        tank_count=mix.tank_count,
        tank_strength=mix.tank_strength,
        drift=tables.drift,
        beach=tables.beach,
        engineer_table=tables.engineer_table,
        events=tables.events,
        cards=cards,
        card_ids=tuple(sorted(cards)),
    )


def _describe(v: rules.VictoryThresholds) -> str:
    major = "every exit" if v.major_exits is None else f"{v.major_exits} exits"
    return (
        f"Defeat below {v.defeat_below_exits} exits; Historical {v.historical_exits}+ exits "
        f"and {v.historical_vp}+ VP; Major {major} and {v.major_vp}+ VP"
    )
