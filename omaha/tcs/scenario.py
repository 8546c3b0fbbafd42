"""TCS Omaha scenarios: the map, tables, order of battle, plans, set-ups and options.

A scenario file (``data/scenarios/<id>.toml``)::

    [scenario]
    id = "landing"
    title = "..."
    start = "0640 6 June"        # first turn
    end = "1300 6 June"          # last turn played (or turns = [...] explicitly)
    weather = "clear"            # clear: US airpower rolls every turn (2.10)
    source = "..."

    [options]                    # all optional, default false
    historical_29th = false      # 2.7a strictly historical game
    no_opsheets = false          # 2.3b no US op sheets until after the landing
    nfst = false                 # 2.6d optional Naval Fire Support Teams
    pillbox_variant = false      # 3.3g variant: pill boxes anywhere south of the highest tide
    landing = true               # false: no landing system, the US starts ashore ([us])

    [german]
    pillboxes = 24               # pill box units set up (their number sets 2.1i)
    rocket_pits = 10             # 3.4
    forces = "../german.toml"    # the German forces (default); formations = [...] a subset
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

    [plans]                      # shipped landing plans the US may commit whole
    historical = "../plans/historical.toml"
    [setups]                     # shipped German set-ups
    historical = "../setups/historical.toml"

Paths are relative to the scenario file. Every component records its source
for ``omaha provenance tcs``. :func:`load_scenario` is the one loader.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.board import Board
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, Source, content_hash, load_toml
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.kernel.turns import Turn
from omaha.tcs.components.beach import Beach
from omaha.tcs.components.german import GermanForces, load_german
from omaha.tcs.components.oob import Oob, Unit, load_oob
from omaha.tcs.components.plan import Plan, PlanRules, plan_from_node
from omaha.tcs.components.series import Series, load_series
from omaha.tcs.components.tables import DATA, Tables, load_tables
from omaha.tcs.components.turns import MONTH, check_track, is_day, parse_time, turn_labels

#: The shipped scenarios, the default first.
SHIPPED: tuple[str, ...] = ("landing", "e1-draw", "d-day")
SCENARIOS = DATA / "scenarios"


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
    us_setup: tuple[tuple[int, str], ...]  # unit index -> hex label
    victory: Victory | None
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


def load_scenario(ref: str) -> TcsScenario:
    """A shipped scenario by id, or a scenario file by path."""
    path = SCENARIOS / f"{ref}.toml"
    if not path.exists():
        path = Path(ref)
        if not path.exists():
            raise ScenarioError(ref, "", "no such shipped scenario or scenario file")
    return _read(path)


def _read(path: Path) -> TcsScenario:
    node = load_toml(path)
    node.only({"scenario", "options", "german", "us", "victory", "plans", "setups"})
    s = node.req("scenario").only(
        {
            "id",
            "title",
            "start",
            "end",
            "turns",
            "weather",
            "map",
            "tables",
            "series",
            "oob",
            "source",
        }
    )
    base = path.parent

    def data_path(key: str, default: str) -> Path:
        return base / (s.req(key).as_str() if s.has(key) else default)

    map_path = data_path("map", "../map.toml")
    tables_path = data_path("tables", "../tables.toml")
    series_path = data_path("series", "../series.toml")
    oob_path = data_path("oob", "../oob.toml")
    map_node = load_toml(map_path)
    board = board_from_node(map_node)
    tables = load_tables(tables_path)
    series = load_series(series_path)
    oob = load_oob(tables, oob_path)
    beach = Beach(board, tables)
    hashed: list[object] = [node.value, map_node.value, load_toml(tables_path).value]
    hashed.append(load_toml(oob_path).value)
    hashed.append(load_toml(series_path).value)

    turns = _turns(s, tables)
    weather = s.req("weather").as_choice({"clear", "overcast"}) if s.has("weather") else "clear"

    opts = node.get("options")
    if opts is not None:
        opts.only({"historical_29th", "no_opsheets", "nfst", "pillbox_variant", "landing"})

    def opt(key: str, default: bool = False) -> bool:
        if opts is None or not opts.has(key):
            return default
        return opts.req(key).as_bool()

    g = node.req("german").only(
        {
            "pillboxes",
            "rocket_pits",
            "forces",
            "formations",
            "release_dice",
            "release",
            "variable_dice",
            "variable",
            "source",
        }
    )
    forces_path = base / (g.req("forces").as_str() if g.has("forces") else "../german.toml")
    hashed.append(load_toml(forces_path).value)
    german = load_german(
        len(oob.units),
        g.req("pillboxes").as_int_in(0, 99),
        g.req("rocket_pits").as_int_in(0, 99),
        forces_path,
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
    if node.has("us"):
        us = node.req("us").only({"setup", "source"})
        prov.append(ProvenanceItem("US set-up", s.req("id").as_str(), us.source()))
        us_setup = _us_setup(us.req("setup"), oob, board)
    victory = None
    if node.has("victory"):
        victory = _victory(node.req("victory"), turns)
        prov.append(ProvenanceItem("victory", s.req("id").as_str(), node.req("victory").source()))

    plans: dict[str, Plan] = {}
    if node.has("plans"):
        for name, pn in node.req("plans").items():
            pnode = load_toml(base / pn.as_str())
            hashed.append(pnode.value)
            plan, psrc = plan_from_node(pnode, rules)
            if plan.name != name:
                raise pn.error(f"the plan file's id is {plan.name!r}, not {name!r}")
            plans[name] = plan
            prov.append(ProvenanceItem("landing plan", name, psrc))
    scen = TcsScenario(
        id=s.req("id").as_str(),
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
        us_setup=tuple(us_setup),
        victory=victory,
        rules=rules,
        plans=plans,
    )
    if node.has("setups"):
        for name, sn in node.req("setups").items():
            snode = load_toml(base / sn.as_str())
            hashed.append(snode.value)
            setup, ssrc = _setup(scen, snode, name)
            scen.setups[name] = setup
            prov.append(ProvenanceItem("German set-up", name, ssrc))
    scen.hash = content_hash(*hashed)
    scen.provenance = tuple(prov)
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


def _us_setup(node: Node, oob: Oob, board: Board) -> list[tuple[int, str]]:
    """``["E/2/16@A14.15", "E/2/16.mg@A14.16"]``: units or whole formations at hexes."""
    out: list[tuple[int, str]] = []
    seen: set[int] = set()
    for k, item in enumerate(node.as_str_list()):
        name, _, label = item.partition("@")
        where = Node(item, node.file, f"{node.path}[{k}]")
        if not board.has(label):
            raise where.error(f"{label!r} is not a hex of this map")
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
    return out


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
