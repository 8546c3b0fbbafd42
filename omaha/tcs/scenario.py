"""TCS Omaha scenarios: the shipped ids, the file schemas, the scenario record and
its loader.

A scenario file follows the contract every game shares
(:mod:`omaha.kernel.scenariofile`)::

    [scenario]
    game = "tcs"                 # optional: the game the file is for (omaha validate)
    id = "landing"
    title = "..."
    start = "0640 6 June"        # first turn
    end = "1300 6 June"          # last turn played (or turns = [...] explicitly)
    weather = "clear"            # clear: US airpower rolls every turn (2.10)
    source = "..."
    extends = "d-day"            # optional: start from a shipped scenario (or a file)

    [components]                 # optional: map, tables, series, oob, german; a shipped
    german = "my_german.toml"    # name (data/<name>.toml) or a file next to this one
    [overrides.tables]           # optional: change parts of a component in place

    [options]                    # all optional, default false
    historical_29th = false      # 2.7a strictly historical game
    no_opsheets = false          # 2.3b no US op sheets until after the landing
    nfst = false                 # 2.6d optional Naval Fire Support Teams
    pillbox_variant = false      # 3.3g variant: pill boxes anywhere south of the highest tide
    landing = true               # false: no landing system, the US starts ashore ([us])

    [german]
    pillboxes = 24               # pill box units set up (their number sets 2.1i)
    rocket_pits = 10             # 3.4
    formations = [...]           # optional: the formations in play (default all)
    release_dice = 1             # 3.1 Variable Reinforcement Table of the scenario
    release = [{ low = 1, high = 4, result = "none" }, ...]   # none, release, variable
    variable_dice = 2
    variable = [{ low = 2, high = 4, formation = "13./915" }, ...]
    source = "..."

    [us]                         # optional: US units already ashore
    setup = ["E/2/16@A14.15"]    # a unit or a formation, at a hex
    source = "..."

    [victory]                    # optional; without it the game ends with no winner
    exit_points = 10             # per draw exit opened ...
    early_exit_points = 5        # ... and more if opened by early_by
    early_by = "1200 6 June"
    village_points = 8           # per village held by the US at the end
    strongpoint_points = 2       # per strongpoint with no German unit left
    us_loss_steps = 20           # one point off per this many US steps lost
    levels = [{ points = 40, level = "US decisive victory", winner = "US" }, ...]
    source = "..."

    [plans]                      # landing plans the US may commit whole: a shipped
    historical = "historical"    # name (data/plans/<name>.toml) or a file next to this one
    [setups]                     # German set-ups, likewise (data/setups/)
    historical = "historical"

:data:`SCHEMAS` checks the scenario file (with the cross-field rules: turns within
the game, victory thresholds, release tables, units set up once) and every
component file; :func:`problems` reports them all at once, then the checks that
need the whole scenario built. :func:`load_scenario` is the one loader; the text
of every custom file it reads goes into ``Scenario.files``, so game records replay
anywhere.
"""

from __future__ import annotations

from typing import Any

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.board import Board
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, Source, content_hash, load_toml, parse_toml
from omaha.kernel.files import FileRefused, read_regular
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.kernel.scenariofile import (
    ScenarioFiles,
    component_sections,
    recorded_name,
    referenced,
    resolve,
)
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
from omaha.kernel.turns import Turn
from omaha.tcs.components.beach import Beach
from omaha.tcs.components.german import GermanForces, german_from_node
from omaha.tcs.components.oob import Oob, Unit, oob_from_node
from omaha.tcs.components.plan import Plan, PlanRules, plan_from_node
from omaha.tcs.components.series import Series, series_from_node
from omaha.tcs.components.tables import DATA, Tables, tables_from_node
from omaha.tcs.components.turns import MONTH, check_track, is_day, parse_time, turn_labels

#: The shipped scenarios, the default first.
SHIPPED: tuple[str, ...] = ("landing", "e1-draw", "d-day", "campaign", "june7")
SCENARIOS = DATA / "scenarios"
#: Component kind -> the shipped file a scenario takes unless it names another.
COMPONENTS: dict[str, str] = {
    "map": "map",
    "tables": "tables",
    "series": "series",
    "oob": "oob",
    "german": "german",
}


# ------------------------------------------------------------------ the schemas
def _value(node: Node, key: str) -> object:
    child = node.get(key) if isinstance(node.value, dict) else None
    return None if child is None else child.value


def _turn_labels(scen: Node) -> list[str] | None:
    """The turns a ``[scenario]`` table gives, or None when they cannot be read."""
    try:
        turns = _value(scen, "turns")
        if isinstance(turns, list) and all(isinstance(t, str) for t in turns):
            for t in turns:
                parse_time(t)
            return list(turns)
        start, end = _value(scen, "start"), _value(scen, "end")
        if isinstance(start, str) and isinstance(end, str):
            return turn_labels(start, end)
    except ValueError:
        return None
    return None


def _game_length(node: Node, problems: Problems) -> None:
    """Turns given one way (start and end, or a list), readable, in order."""
    has = {k for k in ("start", "end", "turns") if node.get(k) is not None}
    if "turns" in has and has & {"start", "end"}:
        problems.append(node.error("give start and end, or turns, not both"))
        return
    if "turns" not in has and has != {"start", "end"}:
        problems.append(node.error("needs start and end (or turns)"))
        return
    try:
        if "turns" in has:
            labels = [x for x in _value(node, "turns") or [] if isinstance(x, str)]  # type: ignore[attr-defined]
            times = [parse_time(t) for t in labels]
            if times != sorted(times) or len(set(times)) != len(times):
                problems.append(node.req("turns").error("turns must run forward, each once"))
        else:
            start, end = _value(node, "start"), _value(node, "end")
            if (
                isinstance(start, str)
                and isinstance(end, str)
                and parse_time(end) < parse_time(start)
            ):
                problems.append(node.req("end").error(f"{end!r} is before {start!r}"))
    except ValueError as exc:
        problems.append(node.error(str(exc)))


def _bands_cover(key: str, value_key: str, dice_key: str, default_dice: int) -> Check:
    def check(node: Node, problems: Problems) -> None:
        table = node.get(key)
        if table is None or not isinstance(table.value, list):
            return
        dice = _value(node, dice_key)
        dice = dice if isinstance(dice, int) and not isinstance(dice, bool) else default_dice
        want = dice
        for k, row in enumerate(table.as_list()):
            lo, hi = _value(row, "low"), _value(row, "high")
            if not isinstance(lo, int) or not isinstance(hi, int):
                return
            if lo != want or hi < lo:
                problems.append(table.as_list()[k].error(f"rows must run from {dice} without gaps"))
                return
            want = hi + 1
        if want != 6 * dice + 1:
            problems.append(table.error(f"the table must cover {dice}-{6 * dice}"))

    return Check(f"`{key}` rows cover every roll of `{dice_key}` dice, in order", check)


def _us_set_up_once(node: Node, problems: Problems) -> None:
    setup = node.get("setup")
    if setup is None or not isinstance(setup.value, list):
        return
    seen: dict[str, int] = {}
    for k, item in enumerate(setup.as_list()):
        if not isinstance(item.value, str):
            continue
        name, at, label = item.value.partition("@")
        if not at or not label:
            problems.append(item.error(f"{item.value!r} is not UNIT@HEX (e.g. 'E/2/16@A14.15')"))
        elif name in seen:
            problems.append(item.error(f"{name} is set up twice (also at [{seen[name]}])"))
        else:
            seen[name] = k


def _levels_in_order(node: Node, problems: Problems) -> None:
    levels = node.get("levels")
    if levels is None or not isinstance(levels.value, list):
        return
    points = [_value(lv, "points") for lv in levels.as_list()]
    if not all(isinstance(x, int) for x in points):
        return
    if points != sorted(points, reverse=True):  # type: ignore[type-var]
        problems.append(levels.error("levels go from the highest threshold down"))
    if len(set(points)) != len(points):
        problems.append(levels.error("two levels have the same threshold"))


def _early_by_a_turn(node: Node, problems: Problems) -> None:
    """Checked from the whole file: ``victory.early_by`` is a turn of the scenario."""
    scen, victory = node.get("scenario"), node.get("victory")
    if scen is None or victory is None or not isinstance(victory.value, dict):
        return
    early = victory.get("early_by")
    labels = _turn_labels(scen)
    if early is not None and labels is not None and early.value not in labels:
        problems.append(early.error(f"{early.value!r} is not a turn of this scenario"))


def _formations_in_play(node: Node, problems: Problems) -> None:
    """The second release table names only formations in play."""
    german = node.get("german")
    if german is None or not isinstance(german.value, dict):
        return
    listed = _value(german, "formations")
    variable = german.get("variable")
    if not isinstance(listed, list) or variable is None or not isinstance(variable.value, list):
        return
    for row in variable.as_list():
        f = _value(row, "formation")
        if isinstance(f, str) and f not in listed:
            problems.append(row.error(f"{f!r} is not among german.formations"))


TIME = r"\d{4} \d{1,2} June"
SCENARIO = Table(
    {
        "id": Field(Str(), "the scenario's name"),
        "title": Field(Str(), "its title"),
        "source": Field(Provenance(), "where the scenario comes from"),
        "extends": Field(Str(), "a scenario to start from (shipped id or file)", required=False),
        "start": Field(Str(pattern=TIME, meaning="a turn like '0640 6 June'"), "first turn", False),
        "end": Field(Str(pattern=TIME, meaning="a turn like '2140 6 June'"), "last turn", False),
        "turns": Field(
            ListOf(Str(pattern=TIME, meaning="a turn like '0640 6 June'"), unique=True, min_len=1),
            "the turns, listed (instead of start and end)",
            False,
        ),
        "weather": Field(Str(("clear", "overcast")), "clear: US airpower every turn (2.10)", False),
    },
    doc="The scenario: its name and its turns (20 minutes by day, an hour by night).",
    checks=[Check("start and end (or turns) in order", _game_length)],
)
OPTIONS = Table(
    {
        "historical_29th": Field(Bool(), "2.7a: the strictly historical game", False),
        "no_opsheets": Field(Bool(), "2.3b: no US op sheets until after the landing", False),
        "nfst": Field(Bool(), "2.6d: the optional Naval Fire Support Teams", False),
        "pillbox_variant": Field(Bool(), "3.3g variant: pill boxes anywhere ashore", False),
        "landing": Field(Bool(), "false: no landing system, the US starts ashore", False),
    },
    doc="Options, all false unless given (landing: true).",
)
BAND = Table(
    {
        "low": Field(Int(1, 12), "lowest roll of the row"),
        "high": Field(Int(1, 12), "highest roll of the row"),
        "result": Field(Str(("none", "release", "variable")), "what the row gives"),
    }
)
VARIABLE_BAND = Table(
    {
        "low": Field(Int(1, 12), "lowest roll of the row"),
        "high": Field(Int(1, 12), "highest roll of the row"),
        "formation": Field(Str(), "the German formation released"),
    }
)
GERMAN = Table(
    {
        "pillboxes": Field(Int(0, 99), "pill boxes set up (their number sets 2.1i)"),
        "rocket_pits": Field(Int(0, 99), "rocket pits set up (3.4)"),
        "formations": Field(
            ListOf(Str(), unique=True), "the formations in play (omitted: all)", False
        ),
        "release_dice": Field(Int(1, 2), "dice of the Variable Reinforcement Table (3.1)", False),
        "release": Field(ListOf(BAND, min_len=1), "the Variable Reinforcement Table", False),
        "variable_dice": Field(Int(1, 2), "dice of its second table", False),
        "variable": Field(ListOf(VARIABLE_BAND, min_len=1), "the second table", False),
        "later_from": Field(
            Str(pattern=TIME, meaning="a turn like '0500 7 June'"),
            "from this turn on, the later tables replace the first (3.1 over two days)",
            False,
        ),
        "later_release": Field(
            ListOf(BAND, min_len=1), "the later Variable Reinforcement Table", False
        ),
        "later_variable": Field(ListOf(VARIABLE_BAND, min_len=1), "its second table", False),
        "source": Field(Provenance(), "where the German set-up comes from"),
    },
    doc="The German forces of the scenario and its release tables (3.1, 3.3g, 3.4).",
    checks=[
        _bands_cover("release", "result", "release_dice", 1),
        _bands_cover("variable", "formation", "variable_dice", 2),
        Check("the second table names formations in play", _formations_in_play),
    ],
)
US = Table(
    {
        "setup": Field(
            ListOf(Str(), min_len=1), "units, formations or leaders at hexes: 'E/2/16@A14.15'"
        ),
        "breaches": Field(
            ListOf(Str(), unique=True), "shingle breaches (2.5) established at the start", False
        ),
        "source": Field(Provenance(), "where the set-up comes from"),
    },
    doc="US units ashore at the start (a scenario without the landing).",
    checks=[Check("each unit set up once, as UNIT@HEX", _us_set_up_once)],
)
LEVEL = Table(
    {
        "points": Field(Int(), "the threshold: at least this many points"),
        "level": Field(Str(), "the level's name"),
        "winner": Field(Str(("US", "German")), "who wins at this level"),
    }
)
VICTORY = Table(
    {
        "exit_points": Field(Int(0, 99), "points per draw exit opened"),
        "early_exit_points": Field(Int(0, 99), "more per exit opened by early_by"),
        "early_by": Field(Str(pattern=TIME, meaning="a turn like '1200 6 June'"), "the turn"),
        "village_points": Field(Int(0, 99), "points per village held at the end"),
        "strongpoint_points": Field(Int(0, 99), "points per strongpoint cleared"),
        "us_loss_steps": Field(Int(1, 999), "one point off per this many US steps lost"),
        "levels": Field(ListOf(LEVEL, min_len=1), "the levels, highest threshold first"),
        "source": Field(Provenance(), "where the victory conditions come from"),
    },
    doc="Victory conditions (none: the game ends with no winner).",
    checks=[Check("thresholds from the highest down, each once", _levels_in_order)],
)
TRPS = Table(
    {
        "count": Field(Int(0, 99), "how many TRPs the US assigns before set-up"),
        "active_from": Field(
            Str(pattern=TIME, meaning="a turn like '0100 7 June'"), "the first turn they work"
        ),
        "source": Field(Provenance(), "where the TRPs come from"),
    },
    doc="US Target Reference Points (2.8): assigned before any unit is placed.",
)
NAMED_FILES = Table(
    {},
    open=True,
    values=Str(),
    doc="name -> a shipped name, or a .toml file next to the scenario",
)


#: Every file of a scenario: the scenario file and each component kind.
SCHEMAS: dict[str, Table] = {
    "scenario": Table(
        {
            "scenario": Field(SCENARIO, "the scenario"),
            **component_sections(COMPONENTS),
            "options": Field(OPTIONS, "rules options", False),
            "german": Field(GERMAN, "the German forces and release tables"),
            "us": Field(US, "US units ashore at the start", False),
            "victory": Field(VICTORY, "victory conditions", False),
            "trps": Field(TRPS, "US Target Reference Points (2.8)", False),
            "plans": Field(NAMED_FILES, "landing plans the US may commit whole (2.1)", False),
            "setups": Field(NAMED_FILES, "German set-ups (3.3g, 3.4)", False),
        },
        doc="A TCS Omaha scenario file.",
        checks=[Check("victory.early_by is a turn of the scenario", _early_by_a_turn)],
    ),
    "map": Table(
        {
            "map": Field(Table({}, open=True), "the map: grid, sheets, labels, source"),
            "terrain": Field(Table({}, open=True), "terrain kinds and their colours", False),
            "cells": Field(ListOf(Table({}, open=True)), "cells: terrain, props, source", False),
            "features": Field(ListOf(Table({}, open=True)), "cell features", False),
            "sides": Field(ListOf(Table({}, open=True)), "hexside features", False),
            "boxes": Field(ListOf(Table({}, open=True)), "off-map boxes", False),
            "links": Field(ListOf(Table({}, open=True)), "printed links (scatter paths)", False),
        },
        doc="The map (generated by tools/tcs_mapgen.py; read by omaha.kernel.boardfile).",
        open=True,
    ),
    "tables": Table({}, open=True, doc="The TCS Omaha tables (2.1-3.4); tables.py reads each."),
    "series": Table({}, open=True, doc="The TCS series tables (reconstructed); series.py."),
    "oob": Table(
        {
            "types": Field(Table({}, open=True), "the US unit types: movement, fire, morale"),
            "templates": Field(Table({}, open=True), "company templates: units and steps"),
            "formations": Field(ListOf(Table({}, open=True), min_len=1), "the formations"),
            "leaders": Field(ListOf(Table({}, open=True)), "the leaders (2.3f)", False),
        },
        doc="The US order of battle.",
    ),
    "german": Table(
        {
            "types": Field(Table({}, open=True), "the German unit types"),
            "pillboxes": Field(Table({}, open=True), "the pill box units (3.3)"),
            "rocket_pits": Field(Table({}, open=True), "the rocket pits (3.4)"),
            "formations": Field(ListOf(Table({}, open=True), min_len=1), "the formations"),
            "batteries": Field(ListOf(Table({}, open=True)), "the off-map batteries (3.1)", False),
        },
        doc="The German forces.",
    ),
}


@attrs.frozen
class ReleaseTable:
    """TCS Omaha 3.1: a scenario's Variable Reinforcement Table and its second table."""

    dice: int
    results: tuple[tuple[int, int, str], ...]  # low, high, "none" / "release" / "variable"
    variable_dice: int
    variable: tuple[tuple[int, int, str], ...]  # low, high, formation

    def result(self, roll: int) -> str:
        return next(r for lo, hi, r in self.results if lo <= roll <= hi)

    def formation(self, roll: int) -> str:
        return next(f for lo, hi, f in self.variable if lo <= roll <= hi)


@attrs.frozen
class VictoryLevel:
    points: int
    level: str
    winner: str


@attrs.frozen
class Victory:
    """A scenario's victory conditions (reconstructed: not in our text)."""

    exit_points: int
    early_exit_points: int
    early_by: str
    village_points: int
    strongpoint_points: int
    us_loss_steps: int
    levels: tuple[VictoryLevel, ...]  # highest threshold first; the last always applies


@attrs.frozen
class Setup:
    """A German set-up: pill box and rocket pit hexes (3.3g, 3.4)."""

    name: str
    pillboxes: tuple[str, ...]
    rocket_pits: tuple[str, ...]


@attrs.define(kw_only=True, eq=False)
class TcsScenario(Scenario):
    """Everything a TCS Omaha game shares and never copies."""

    #: the scenario's own id (``[scenario] id``); ``id`` is how it was loaded (a shipped
    #: id, or a file's path), so logs print this one
    name: str
    tables: Tables
    series: Series
    oob: Oob
    german: GermanForces
    #: every unit of both sides: the US (``oob.units``) first, then the German
    units: tuple[Unit, ...]
    #: unit id -> index into ``units``
    unit_ids: dict[str, int]
    beach: Beach
    turns: tuple[Turn, ...]
    weather: str
    historical_29th: bool
    no_opsheets: bool
    nfst: bool
    pillbox_variant: bool
    #: the landing system plays (plan, waves, transports, LCT(R)s, leaders); False for a
    #: scenario that starts with the US ashore
    landing: bool
    n_pillboxes: int
    n_rocket_pits: int
    #: German formations in play (a scenario may leave some out)
    german_formations: frozenset[str]
    release: ReleaseTable | None
    #: the later release tables and the index of the first turn they apply (3.1 over two
    #: days; None: the first tables all game)
    release_later: tuple[int, ReleaseTable] | None = None
    #: US TRPs (2.8): how many, and the index of the first turn they work (0: none)
    trps: int = 0
    trps_from: int = 0
    us_setup: tuple[tuple[int, str], ...]  # unit index -> hex label
    victory: Victory | None
    #: leaders a scenario starts ashore (2.3f): leader index -> hex label
    us_leaders: tuple[tuple[int, str], ...] = ()
    #: shingle breaches (2.5) a scenario starting ashore has established at the start
    us_breaches: tuple[str, ...] = ()
    rules: PlanRules
    plans: dict[str, Plan] = attrs.field(factory=dict)
    setups: dict[str, Setup] = attrs.field(factory=dict)
    #: cache of blocked-cell sets for movement (pure: tide, command, German cells)
    blocked_cache: dict[object, frozenset[int]] = attrs.field(factory=dict)
    #: cache of reachable hexes per (tide, German cells), shared by every state
    reach_cache: dict[object, Any] = attrs.field(factory=dict)
    #: numbers for the movement-relevant states of a game (see movement.terrain_key)
    terrain_ids: dict[object, int] = attrs.field(factory=dict)
    terrain_count: int = 0
    #: static sight lines (terrain and heights; smoke is checked per state), shared
    sight_cache: dict[object, Any] = attrs.field(factory=dict)
    #: one byte a pair of hexes: the static sight results (see sight._code), shared
    sight_codes: bytearray = attrs.field(factory=bytearray)

    def check_setup(self, pillboxes: tuple[str, ...], pits: tuple[str, ...]) -> str:
        """Why a German set-up breaks 3.3g/3.4, or '' when it is legal."""
        board = self.board
        if len(pillboxes) != self.n_pillboxes:
            return f"{len(pillboxes)} pill boxes; the German sets up {self.n_pillboxes}"
        if len(pits) != self.n_rocket_pits:
            return f"{len(pits)} rocket pits; the German sets up {self.n_rocket_pits}"
        used: set[int] = set()
        for label in (*pillboxes, *pits):
            if not board.has(label):
                return f"{label!r} is not on the map"
            cell = board.cell(label)
            if cell in used:
                return f"two German set-up units in {board.label(cell)} (one a hex)"
            used.add(cell)
        for label in pillboxes:
            if not self.beach.pillbox_allowed(board.cell(label), variant=self.pillbox_variant):
                return (
                    f"pill box in {label}: pill boxes set up landward of the beach obstacle line, "
                    f"at most {self.tables.pillbox_inland} hexes inland (3.3g)"
                )
        for label in pits:
            if not self.beach.rocket_pit_allowed(board.cell(label)):
                return (
                    f"rocket pit in {label}: rocket pits set up inland of the beach obstacle "
                    f"line, at most {self.tables.rocket_pit_inland} hexes from it (3.4)"
                )
        return ""


def resolve_files(ref: str) -> ScenarioFiles:
    """The scenario ``ref`` (a shipped id or a file) with its components, ``extends`` and
    overrides merged (:func:`omaha.kernel.scenariofile.resolve`)."""
    shipped = {sid: SCENARIOS / f"{sid}.toml" for sid in SHIPPED}
    return resolve(ref, shipped_scenarios=shipped, data_dir=DATA, defaults=COMPONENTS, game="tcs")


def problems(files: ScenarioFiles) -> list[ScenarioError]:
    """Every problem of a resolved scenario: each file against its schema; when they
    are sound, whatever building the scenario finds across files (a set-up hex off
    the map, a plan that breaks 2.1)."""
    found: list[ScenarioError] = validate(files.root, SCHEMAS["scenario"])
    for kind in COMPONENTS:
        found += validate(files.components[kind], SCHEMAS[kind])
    if not found:
        try:
            _build(files, files.path.name)
        except ScenarioError as exc:
            found.append(exc)
    return found


def validate_scenario(ref: str) -> list[ScenarioError]:
    """Every problem of a scenario file and the components it names (empty: it loads)."""
    try:
        files = resolve_files(ref)
    except ScenarioError as exc:
        return [exc]
    return problems(files)


def load_scenario(ref: str) -> TcsScenario:
    """A shipped scenario by id, or a scenario file by path: resolved, checked against
    :data:`SCHEMAS` (the first problem is raised), then built."""
    files = resolve_files(ref)
    found = validate(files.root, SCHEMAS["scenario"])
    for kind in COMPONENTS:
        found += validate(files.components[kind], SCHEMAS[kind])
    raise_first(found)
    return _build(files, ref)


def _plan_or_setup(
    files: ScenarioFiles, kind: str, ref: Node, embedded: list[tuple[str, str]]
) -> Node:
    """A plan or set-up a scenario names: shipped (``data/plans/<name>.toml``) or a file
    next to the scenario (its text embedded for records)."""
    name = ref.as_str()
    if not name.endswith(".toml"):
        path = DATA / kind / f"{name}.toml"
        if not path.is_file():
            raise ref.error(f"{name!r} is not a shipped {kind[:-1]} (data/{kind}/)")
        return load_toml(path)
    if files.path.parent == SCENARIOS or files.path.resolve().parent == SCENARIOS.resolve():
        raise ref.error("a shipped scenario names shipped plans and set-ups")
    path = referenced(files.path.parent, name)
    try:
        text = read_regular(path).decode("utf-8")
    except FileRefused as exc:
        raise ref.error(f"{name!r} {exc}") from None
    except OSError as exc:
        raise ref.error(f"{name!r} cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise ref.error(f"{name!r} is not UTF-8 text (byte {exc.start})") from None
    kept = recorded_name(name, path)
    if (kept, text) not in embedded:
        embedded.append((kept, text))
    return Node(parse_toml(text, name).value, name)


def _build(files: ScenarioFiles, ref: str) -> TcsScenario:
    """The scenario record from resolved, schema-checked files."""
    node, comp = files.root, files.components
    s = node.req("scenario")
    board = board_from_node(comp["map"])
    tables = tables_from_node(comp["tables"])
    series = series_from_node(comp["series"])
    oob = oob_from_node(tables, comp["oob"])
    beach = Beach(board, tables)
    hashed: list[object] = [node.value, *(comp[kind].value for kind in COMPONENTS)]
    embedded = list(files.files)

    turns = _turns(s, tables)
    weather = s.req("weather").as_choice({"clear", "overcast"}) if s.has("weather") else "clear"

    opts = node.get("options")

    def opt(key: str, default: bool = False) -> bool:
        if opts is None or not opts.has(key):
            return default
        return opts.req(key).as_bool()

    g = node.req("german")
    german = german_from_node(
        len(oob.units),
        g.req("pillboxes").as_int_in(0, 99),
        g.req("rocket_pits").as_int_in(0, 99),
        comp["german"],
    )
    in_play = _formations(g, german)
    rules = PlanRules(
        oob,
        tables,
        beach,
        historical_29th=opt("historical_29th"),
        no_opsheets=opt("no_opsheets"),
        nfst=opt("nfst"),
    )
    units = (*oob.units, *german.units)
    for u in german.units:
        if oob.has_unit(u.id) or any(ld.id == u.id for ld in oob.leaders):
            raise g.error(f"the German unit {u.id!r} has the id of a US unit or leader")
    prov: list[ProvenanceItem] = [
        ProvenanceItem("scenario", s.req("id").as_str(), s.source()),
        ProvenanceItem("map", board.id, board.source),
        ProvenanceItem("German forces", "in play and release table", g.source()),
    ]
    prov.extend(tables.provenance)
    prov.extend(series.provenance)
    prov.extend(oob.provenance)
    prov.extend(german.provenance)
    prov.extend(_map_provenance(board))
    for i, label in german.setup:
        if not board.has(label):
            raise g.error(f"{units[i].id} sets up in {label!r}, which is not on the map")

    us_setup: list[tuple[int, str]] = []
    us_leaders: list[tuple[int, str]] = []
    us_breaches: list[str] = []
    if node.has("us"):
        us = node.req("us")
        prov.append(ProvenanceItem("US set-up", s.req("id").as_str(), us.source()))
        us_setup, us_leaders = _us_setup(us.req("setup"), oob, board)
        if us.has("breaches"):
            us_breaches = us.req("breaches").as_str_list()
            for k, name in enumerate(us_breaches):
                if name not in beach.breach_by_name:
                    raise us.req("breaches").error(f"[{k}] no shingle breach {name!r} on the map")
    n_trps, trps_from = 0, 0
    if node.has("trps"):
        tn = node.req("trps")
        n_trps = tn.req("count").as_int_in(0, 99)
        start = tn.req("active_from").as_str()
        found = next((k for k, t in enumerate(turns) if t.label == start), None)
        if found is None:
            raise tn.req("active_from").error(f"{start!r} is not a turn of this scenario")
        trps_from = found
        prov.append(ProvenanceItem("TRPs", s.req("id").as_str(), tn.source()))
    victory = None
    if node.has("victory"):
        victory = _victory(node.req("victory"), turns)
        prov.append(ProvenanceItem("victory", s.req("id").as_str(), node.req("victory").source()))

    plans: dict[str, Plan] = {}
    if node.has("plans"):
        for name, pn in node.req("plans").items():
            pnode = _plan_or_setup(files, "plans", pn, embedded)
            hashed.append(pnode.value)
            plan, psrc = plan_from_node(pnode, rules)
            if plan.name != name:
                raise pn.error(f"the plan file's id is {plan.name!r}, not {name!r}")
            plans[name] = plan
            prov.append(ProvenanceItem("landing plan", name, psrc))
    scen = TcsScenario(
        id=ref,
        name=s.req("id").as_str(),
        title=s.req("title").as_str(),
        hash="",
        board=board,
        tables=tables,
        series=series,
        oob=oob,
        german=german,
        units=units,
        unit_ids={u.id: u.index for u in units},
        beach=beach,
        turns=turns,
        weather=weather,
        historical_29th=rules.historical_29th,
        no_opsheets=rules.no_opsheets,
        nfst=rules.nfst,
        pillbox_variant=opt("pillbox_variant"),
        landing=opt("landing", True),
        n_pillboxes=len(german.pillboxes),
        n_rocket_pits=len(german.pits),
        german_formations=in_play,
        release=_release(g, german, in_play),
        release_later=_release_later(g, german, in_play, turns),
        us_setup=tuple(us_setup),
        us_leaders=tuple(us_leaders),
        us_breaches=tuple(us_breaches),
        trps=n_trps,
        trps_from=trps_from,
        victory=victory,
        rules=rules,
        plans=plans,
    )
    if node.has("setups"):
        for name, sn in node.req("setups").items():
            snode = _plan_or_setup(files, "setups", sn, embedded)
            hashed.append(snode.value)
            setup, ssrc = _setup(scen, snode, name)
            scen.setups[name] = setup
            prov.append(ProvenanceItem("German set-up", name, ssrc))
    scen.hash = content_hash(*hashed)
    scen.provenance = tuple(prov)
    scen.files = tuple(embedded)
    return scen


def _formations(g: Node, german: GermanForces) -> frozenset[str]:
    """The German formations in play: all, or the scenario's list (pill boxes and rocket
    pits always)."""
    fixed = {"PB/726", "RP/726"}
    if not g.has("formations"):
        return frozenset(f.id for f in german.formations)
    names = g.req("formations").as_str_list()
    for k, name in enumerate(names):
        if not german.has_formation(name):
            raise g.req("formations").error(f"[{k}] no German formation {name!r}")
        if names.index(name) != k:
            raise g.req("formations").error(f"[{k}] {name!r} is listed twice")
    return frozenset({*names, *fixed})


def _bands(node: Node, value_key: str, dice: int) -> tuple[tuple[int, int, str], ...]:
    rows: list[tuple[int, int, str]] = []
    for b in node.as_list():
        b.only({"low", "high", value_key})
        lo, hi = b.req("low").as_int(), b.req("high").as_int()
        if lo > hi or (rows and lo != rows[-1][1] + 1) or (not rows and lo != dice):
            raise b.error(f"rows must run from {dice} without gaps")
        rows.append((lo, hi, b.req(value_key).as_str()))
    if not rows or rows[-1][1] != 6 * dice:
        raise node.error(f"the table must cover {dice}-{6 * dice}")
    return tuple(rows)


def _release(g: Node, german: GermanForces, in_play: frozenset[str]) -> ReleaseTable | None:
    """TCS Omaha 3.1: the scenario's Variable Reinforcement Table (None: no rolls)."""
    if not g.has("release"):
        return None
    dice = g.req("release_dice").as_int_in(1, 2)
    results = _bands(g.req("release"), "result", dice)
    for _, _, r in results:
        if r not in ("none", "release", "variable"):
            raise g.req("release").error(f"result {r!r} is not none, release or variable")
    vdice = g.req("variable_dice").as_int_in(1, 2) if g.has("variable_dice") else 2
    variable = _bands(g.req("variable"), "formation", vdice) if g.has("variable") else ()
    for _, _, f in variable:
        if f not in in_play:
            raise g.req("variable").error(f"{f!r} is not a German formation in play")
    if any(r == "variable" for _, _, r in results) and not variable:
        raise g.error("a 'variable' result needs the variable table")
    _ = german
    return ReleaseTable(dice, results, vdice, variable)


def _release_later(
    g: Node, german: GermanForces, in_play: frozenset[str], turns: tuple[Turn, ...]
) -> tuple[int, ReleaseTable] | None:
    """TCS Omaha 3.1 over two days: the tables from ``later_from`` on (reconstructed)."""
    keys = ("later_from", "later_release", "later_variable")
    if not any(g.has(k) for k in keys):
        return None
    missing = [k for k in keys if not g.has(k)]
    if missing or not g.has("release"):
        raise g.error("later tables need later_from, later_release, later_variable and release")
    start = g.req("later_from").as_str()
    index = next((k for k, t in enumerate(turns) if t.label == start), None)
    if index is None:
        raise g.req("later_from").error(f"{start!r} is not a turn of this scenario")
    dice = g.req("release_dice").as_int_in(1, 2)
    results = _bands(g.req("later_release"), "result", dice)
    variable = _bands(g.req("later_variable"), "formation", 2)
    for _, _, f in variable:
        if f not in in_play:
            raise g.req("later_variable").error(f"{f!r} is not a German formation in play")
    _ = german
    return index, ReleaseTable(dice, results, 2, variable)


def _us_setup(
    node: Node, oob: Oob, board: Board
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """``["E/2/16@A14.15", "E/2/16.mg@A14.16", "Ldr-2/16@A14.15"]``: units, whole
    formations or leaders (2.3f) at hexes; the units, then the leaders."""
    out: list[tuple[int, str]] = []
    leaders: list[tuple[int, str]] = []
    seen: set[int] = set()
    leader_ids = {ld.id: ld.index for ld in oob.leaders}
    for k, item in enumerate(node.as_str_list()):
        name, _, label = item.partition("@")
        where = Node(item, node.file, f"{node.path}[{k}]")
        if not board.has(label):
            raise where.error(f"{label!r} is not a hex of this map")
        if name in leader_ids:
            if any(ld == leader_ids[name] for ld, _ in leaders):
                raise where.error(f"{name} is set up twice")
            leaders.append((leader_ids[name], label))
            continue
        if oob.has_formation(name):
            members = list(oob.formation_units(name))
        elif oob.has_unit(name):
            members = [oob.index(name)]
        else:
            raise where.error(f"{name!r} is neither a unit nor a formation of the US")
        for i in members:
            if i in seen:
                raise where.error(f"{oob.units[i].id} is set up twice")
            seen.add(i)
            out.append((i, label))
    return out, leaders


def _victory(v: Node, turns: tuple[Turn, ...]) -> Victory:
    v.only(
        {
            "exit_points",
            "early_exit_points",
            "early_by",
            "village_points",
            "strongpoint_points",
            "us_loss_steps",
            "levels",
            "source",
        }
    )
    early = v.req("early_by").as_str()
    if not any(t.label == early for t in turns):
        raise v.req("early_by").error(f"{early!r} is not a turn of this scenario")
    levels = []
    for ln in v.req("levels").as_list():
        ln.only({"points", "level", "winner"})
        levels.append(
            VictoryLevel(
                ln.req("points").as_int(),
                ln.req("level").as_str(),
                ln.req("winner").as_choice({"US", "German"}),
            )
        )
    points = [x.points for x in levels]
    if points != sorted(points, reverse=True) or len(set(points)) != len(points):
        raise v.req("levels").error("levels go from the highest threshold down, each once")
    return Victory(
        v.req("exit_points").as_int_in(0, 99),
        v.req("early_exit_points").as_int_in(0, 99),
        early,
        v.req("village_points").as_int_in(0, 99),
        v.req("strongpoint_points").as_int_in(0, 99),
        v.req("us_loss_steps").as_int_in(1, 999),
        tuple(levels),
    )


def _turns(s: Node, tables: Tables) -> tuple[Turn, ...]:
    """The turn track of a scenario, each turn flagged: hour turn, assault wave, 6 June."""
    try:
        if s.has("turns"):
            labels = s.req("turns").as_str_list()
            check_track(labels)
        else:
            labels = turn_labels(s.req("start").as_str(), s.req("end").as_str())
    except ValueError as exc:
        raise s.error(str(exc)) from None
    assault = {f"{w.turn} 6 {MONTH}": w.number for w in tables.waves}
    turns = []
    for lab in labels:
        day, minutes = parse_time(lab)
        flags = set()
        if minutes % 60 == 0:
            flags.add("hour")
        if lab in assault:
            flags.add(f"wave{assault[lab]}")
        if day == 6:
            flags.add("june6")
        if not is_day(minutes):
            flags.add("night")
        turns.append(Turn(lab, frozenset(flags)))
    return tuple(turns)


def _map_provenance(board: Board) -> list[ProvenanceItem]:
    """One provenance line per distinct source of the map's cells, hexsides, boxes, links."""
    prov: list[ProvenanceItem] = []
    seen: set[tuple[str, str]] = set()
    for i in range(len(board)):
        src = board.cell_sources[i]
        if src is not None and ("cells", src.text) not in seen:
            seen.add(("cells", src.text))
            prov.append(ProvenanceItem("map cells", board.label(i), src))
    for (a, b), feat in board.side_records():
        if (feat.name, feat.source.text) not in seen:
            seen.add((feat.name, feat.source.text))
            prov.append(
                ProvenanceItem(
                    "hexside", f"{feat.name} {board.label(a)}|{board.label(b)}", feat.source
                )
            )
    for box in board.boxes.values():
        prov.append(ProvenanceItem("box", box.id, box.source))
    for link in board.links:
        if ("link", link.source.text) not in seen:
            seen.add(("link", link.source.text))
            prov.append(
                ProvenanceItem("scatter path", f"{link.start} {link.prop('roll')}", link.source)
            )
    return prov


def _setup(scen: TcsScenario, node: Node, name: str) -> tuple[Setup, Source]:
    node.only({"setup"})
    sn = node.req("setup").only({"id", "pillboxes", "rocket_pits", "source"})
    setup = Setup(
        sn.req("id").as_str(),
        tuple(sn.req("pillboxes").as_str_list()),
        tuple(sn.req("rocket_pits").as_str_list()),
    )
    if setup.name != name:
        raise sn.req("id").error(f"the set-up's id is {setup.name!r}, not {name!r}")
    problem = scen.check_setup(setup.pillboxes, setup.rocket_pits)
    if problem:
        raise sn.error(problem)
    return setup, sn.source()
