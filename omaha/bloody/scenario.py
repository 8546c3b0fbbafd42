"""Bloody Omaha scenarios: the shipped ids, the scenario record and its loader.

A scenario file (``data/scenarios/solo.toml``) names the component files; a path
given instead of a shipped id is read the same way, its component files looked up
next to it first and then among the shipped ones (``data/``), so a user who owns
the game can replace any component. Every problem is an ``omaha.ScenarioError``
naming file, key and problem.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, content_hash, load_toml
from omaha.kernel.scenario import ProvenanceItem, Scenario

from .components.cards import Card, read_cards
from .components.map import read_map
from .components.tables import read_tables
from .components.tokens import check_encounters, check_fill, read_tokens
from .components.units import UnitSpec, read_units
from .rules import EventEntry, Table

#: The shipped component files.
DATA = Path(__file__).parent / "data"
#: The shipped scenario files.
SCENARIOS = DATA / "scenarios"
#: The shipped scenario ids, the default first.
SHIPPED: tuple[str, ...] = ("solo",)


@attrs.define(kw_only=True, eq=False)
class BloodyScenario(Scenario):
    """Everything static about a game of Bloody Omaha, shared by every state.

    Cells are board indices, units indices into ``units``.
    """

    turns: int
    track_max: int
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
    drift: Table
    beach: Table
    engineer_table: Table
    events: dict[str, tuple[EventEntry, ...]]
    # the cards (9.0)
    cards: dict[str, Card]
    card_ids: tuple[str, ...]


def _read(path: Path) -> Node:
    """A TOML file, as a node naming the file in its errors (also when it is not UTF-8)."""
    try:
        return load_toml(path)
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            path.name, "", f"is not UTF-8 text (byte {exc.object[exc.start]:#04x} at {exc.start})"
        ) from None


def scenario_path(ref: str) -> Path:
    """The file of a shipped scenario id, or ``ref`` itself when it names a TOML file."""
    return Path(ref) if ref.endswith(".toml") else SCENARIOS / f"{ref}.toml"


def load_scenario(ref: str) -> BloodyScenario:
    """Read a scenario (a shipped id or a path to a scenario file) and its components."""
    path = scenario_path(ref)
    if not path.exists():
        raise ScenarioError(path.name, "", "no such scenario file")
    scen_node = _read(path)
    scen_node.only({"scenario"})
    s = scen_node.req("scenario").only(
        {"id", "title", "turns", "track_max", "map", "units", "tokens", "tables", "cards",
         "source", "turns_source", "track_source"}
    )  # fmt: skip
    here = path.parent

    def component(key: str) -> Node:
        name = s.req(key).as_str()
        for folder in (here, DATA):
            if (folder / name).exists():
                return _read(folder / name)
        raise s.req(key).error(f"component file {name!r} not found")

    map_node, unit_node = component("map"), component("units")
    token_node, table_node, card_node = (
        component("tokens"),
        component("tables"),
        component("cards"),
    )
    board = board_from_node(map_node)
    turns = s.req("turns").as_int_in(1, 99)
    track_max = s.req("track_max").as_int_in(2, 99)
    if turns > track_max:
        raise s.req("turns").error(
            f"{turns} turns do not fit on a Game Track of {track_max} spaces "
            "(the Turn token moves along it, 3.5.a)"
        )
    prov: list[ProvenanceItem] = [
        ProvenanceItem("scenario", s.req("id").as_str(), s.source()),
        ProvenanceItem("game length", f"{turns} turns", s.source("turns_source")),
        ProvenanceItem("game track", f"{track_max} spaces", s.source("track_source")),
    ]
    squares = read_map(board, map_node, prov)
    units = read_units(board, unit_node, squares.channel, prov)
    mix = read_tokens(token_node, prov)
    check_fill(token_node, mix, len(squares.strongpoints), len(squares.beaches))
    tables = read_tables(table_node, prov)
    cards = read_cards(card_node, prov)
    check_encounters(token_node, mix, len(squares.encounter_squares))
    return BloodyScenario(
        id=s.req("id").as_str(),
        title=s.req("title").as_str(),
        hash=content_hash(
            scen_node.value,
            map_node.value,
            unit_node.value,
            token_node.value,
            table_node.value,
            card_node.value,
        ),
        board=board,
        provenance=prov,
        turns=turns,
        track_max=track_max,
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
