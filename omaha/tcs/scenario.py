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

    [german]
    pillboxes = 20               # pill box units set up (their number sets 2.1i)
    rocket_pits = 10             # 3.4
    pillbox_range = 12
    rocket_pit_range = 10
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

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.board import Board
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, Source, content_hash, load_toml
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.kernel.turns import Turn
from omaha.tcs.components.beach import Beach
from omaha.tcs.components.oob import Oob, load_oob
from omaha.tcs.components.plan import Plan, PlanRules, plan_from_node
from omaha.tcs.components.tables import DATA, Tables, load_tables
from omaha.tcs.components.turns import MONTH, parse_time, turn_labels

#: The shipped scenarios, the default first.
SHIPPED: tuple[str, ...] = ("landing",)
SCENARIOS = DATA / "scenarios"


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
    oob: Oob
    beach: Beach
    turns: tuple[Turn, ...]
    weather: str
    historical_29th: bool
    no_opsheets: bool
    nfst: bool
    pillbox_variant: bool
    n_pillboxes: int
    n_rocket_pits: int
    pillbox_range: int
    rocket_pit_range: int
    rules: PlanRules
    plans: dict[str, Plan] = attrs.field(factory=dict)
    setups: dict[str, Setup] = attrs.field(factory=dict)
    #: cache of blocked-cell sets for movement (pure: tide, command, German cells)
    blocked_cache: dict[object, frozenset[int]] = attrs.field(factory=dict)
    #: cache of reachable hexes per (tide, German cells), shared by every state
    reach_cache: dict[object, dict[tuple[int, int, str, bool], dict[int, int]]] = attrs.field(
        factory=dict
    )

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
    node.only({"scenario", "options", "german", "plans", "setups"})
    s = node.req("scenario").only(
        {"id", "title", "start", "end", "turns", "weather", "map", "tables", "oob", "source"}
    )
    base = path.parent
    map_path = base / (s.req("map").as_str() if s.has("map") else "../map.toml")
    tables_path = base / (s.req("tables").as_str() if s.has("tables") else "../tables.toml")
    oob_path = base / (s.req("oob").as_str() if s.has("oob") else "../oob.toml")
    map_node = load_toml(map_path)
    board = board_from_node(map_node)
    tables = load_tables(tables_path)
    oob = load_oob(tables, oob_path)
    beach = Beach(board, tables)
    hashed: list[object] = [node.value, map_node.value, load_toml(tables_path).value]
    hashed.append(load_toml(oob_path).value)

    turns = _turns(s, tables)
    weather = s.req("weather").as_choice({"clear", "overcast"}) if s.has("weather") else "clear"

    opts = node.get("options")
    if opts is not None:
        opts.only({"historical_29th", "no_opsheets", "nfst", "pillbox_variant"})

    def opt(key: str) -> bool:
        return bool(opts is not None and opts.has(key) and opts.req(key).as_bool())

    g = node.req("german").only(
        {"pillboxes", "rocket_pits", "pillbox_range", "rocket_pit_range", "source"}
    )
    rules = PlanRules(
        oob,
        tables,
        beach,
        historical_29th=opt("historical_29th"),
        no_opsheets=opt("no_opsheets"),
        nfst=opt("nfst"),
    )
    prov: list[ProvenanceItem] = [
        ProvenanceItem("scenario", s.req("id").as_str(), s.source()),
        ProvenanceItem("map", board.id, board.source),
        ProvenanceItem("German forces", "pill boxes and rocket pits", g.source()),
    ]
    prov.extend(tables.provenance)
    prov.extend(oob.provenance)
    prov.extend(_map_provenance(board))

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
        oob=oob,
        beach=beach,
        turns=turns,
        weather=weather,
        historical_29th=rules.historical_29th,
        no_opsheets=rules.no_opsheets,
        nfst=rules.nfst,
        pillbox_variant=opt("pillbox_variant"),
        n_pillboxes=g.req("pillboxes").as_int_in(0, 99),
        n_rocket_pits=g.req("rocket_pits").as_int_in(0, 99),
        pillbox_range=g.req("pillbox_range").as_int_in(0, 99),
        rocket_pit_range=g.req("rocket_pit_range").as_int_in(0, 99),
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


def _turns(s: Node, tables: Tables) -> tuple[Turn, ...]:
    """The turn track of a scenario, each turn flagged: hour turn, assault wave, 6 June."""
    try:
        if s.has("turns"):
            labels = s.req("turns").as_str_list()
            for lab in labels:
                parse_time(lab)
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
