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
for ``omaha provenance tcs``.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, Source, content_hash, load_toml
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.kernel.turns import Turn
from omaha.tcs.geo import Beach
from omaha.tcs.oob import Oob, load_oob
from omaha.tcs.plan import Plan, PlanRules, plan_from_node
from omaha.tcs.tables import DATA, Tables, load_tables

MONTH = "June"


@attrs.frozen
class Setup:
    """A German set-up: pill box and rocket pit hexes (3.3g, 3.4)."""

    name: str
    pillboxes: tuple[str, ...]
    rocket_pits: tuple[str, ...]


def parse_time(label: str) -> tuple[int, int]:
    """``"0740 6 June"`` -> (day, minutes since midnight)."""
    parts = label.split()
    if len(parts) != 3 or parts[2] != MONTH or len(parts[0]) != 4 or not parts[0].isdigit():
        raise ValueError(f"{label!r} is not a turn like '0740 6 June'")
    hh, mm = int(parts[0][:2]), int(parts[0][2:])
    return int(parts[1]), hh * 60 + mm


def format_time(day: int, minutes: int) -> str:
    return f"{minutes // 60:02d}{minutes % 60:02d} {day} {MONTH}"


def is_day(minutes: int) -> bool:
    """Reconstructed: 20-minute daylight turns 0600-2140, one-hour night turns 2200-0500."""
    return 6 * 60 <= minutes < 22 * 60


def turn_labels(start: str, end: str) -> list[str]:
    """TCS turns from ``start`` to ``end``: 20 minutes by day, an hour by night."""
    day, t = parse_time(start)
    last = parse_time(end)
    out = []
    while (day, t) <= last:
        out.append(format_time(day, t))
        step = 20 if is_day(t) else 60
        t += step
        if t >= 24 * 60:
            day, t = day + 1, t - 24 * 60
        if len(out) > 1000:
            raise ValueError("the scenario is too long")
    if not out or out[-1] != end:
        raise ValueError(f"{end!r} is not a turn reached from {start!r}")
    return out


class TcsScenario(Scenario):
    """Everything a TCS Omaha game shares and never copies."""

    def __init__(self, path: Path) -> None:
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
        self.board = board
        self.tables: Tables = load_tables(tables_path)
        self.oob: Oob = load_oob(self.tables, oob_path)
        self.beach = Beach(board, self.tables)
        hashed: list[object] = [node.value, map_node.value, load_toml(tables_path).value]
        hashed.append(load_toml(oob_path).value)

        # turns
        try:
            if s.has("turns"):
                labels = s.req("turns").as_str_list()
                for lab in labels:
                    parse_time(lab)
            else:
                labels = turn_labels(s.req("start").as_str(), s.req("end").as_str())
        except ValueError as exc:
            raise s.error(str(exc)) from None
        assault = {f"{w.turn} 6 {MONTH}": w.number for w in self.tables.waves}
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
        self.turns: tuple[Turn, ...] = tuple(turns)
        self.weather = (
            s.req("weather").as_choice({"clear", "overcast"}) if s.has("weather") else "clear"
        )

        opts = node.get("options")
        if opts is not None:
            opts.only({"historical_29th", "no_opsheets", "nfst", "pillbox_variant"})

        def opt(key: str) -> bool:
            return bool(opts is not None and opts.has(key) and opts.req(key).as_bool())

        self.historical_29th = opt("historical_29th")
        self.no_opsheets = opt("no_opsheets")
        self.nfst = opt("nfst")
        self.pillbox_variant = opt("pillbox_variant")

        g = node.req("german").only(
            {"pillboxes", "rocket_pits", "pillbox_range", "rocket_pit_range", "source"}
        )
        self.n_pillboxes = g.req("pillboxes").as_int_in(0, 99)
        self.n_rocket_pits = g.req("rocket_pits").as_int_in(0, 99)
        self.pillbox_range = g.req("pillbox_range").as_int_in(0, 99)
        self.rocket_pit_range = g.req("rocket_pit_range").as_int_in(0, 99)

        self.rules = PlanRules(
            self.oob,
            self.tables,
            self.beach,
            historical_29th=self.historical_29th,
            no_opsheets=self.no_opsheets,
            nfst=self.nfst,
        )
        prov: list[ProvenanceItem] = [
            ProvenanceItem("scenario", s.req("id").as_str(), s.source()),
            ProvenanceItem("map", board.id, board.source),
            ProvenanceItem("German forces", "pill boxes and rocket pits", g.source()),
        ]
        prov.extend(self.tables.provenance)
        prov.extend(self.oob.provenance)
        seen_sources: set[tuple[str, str]] = set()
        for i in range(len(board)):
            src = board.cell_sources[i]
            if src is not None and ("cells", src.text) not in seen_sources:
                seen_sources.add(("cells", src.text))
                prov.append(ProvenanceItem("map cells", board.label(i), src))
        for (a, b), feat in board.side_records():
            if (feat.name, feat.source.text) not in seen_sources:
                seen_sources.add((feat.name, feat.source.text))
                prov.append(
                    ProvenanceItem(
                        "hexside", f"{feat.name} {board.label(a)}|{board.label(b)}", feat.source
                    )
                )
        for box in board.boxes.values():
            prov.append(ProvenanceItem("box", box.id, box.source))
        for link in board.links:
            if ("link", link.source.text) not in seen_sources:
                seen_sources.add(("link", link.source.text))
                prov.append(
                    ProvenanceItem("scatter path", f"{link.start} {link.prop('roll')}", link.source)
                )

        #: per-scenario cache of blocked-cell sets for movement (pure: tide, command)
        self.blocked_cache: dict[object, frozenset[int]] = {}
        self.reach_cache: dict[object, dict[tuple[int, int, str, bool], dict[int, int]]] = {}
        self.plans: dict[str, Plan] = {}
        if node.has("plans"):
            for name, pn in node.req("plans").items():
                ppath = base / pn.as_str()
                pnode = load_toml(ppath)
                hashed.append(pnode.value)
                plan, psrc = plan_from_node(pnode, self.rules)
                if plan.name != name:
                    raise pn.error(f"the plan file's id is {plan.name!r}, not {name!r}")
                self.plans[name] = plan
                prov.append(ProvenanceItem("landing plan", name, psrc))
        self.setups: dict[str, Setup] = {}
        if node.has("setups"):
            for name, sn in node.req("setups").items():
                spath = base / sn.as_str()
                snode = load_toml(spath)
                hashed.append(snode.value)
                setup, ssrc = self._setup(snode, name)
                self.setups[name] = setup
                prov.append(ProvenanceItem("German set-up", name, ssrc))
        super().__init__(
            id=s.req("id").as_str(),
            title=s.req("title").as_str(),
            hash=content_hash(*hashed),
            board=board,
            provenance=prov,
        )

    def _setup(self, node: Node, name: str) -> tuple[Setup, Source]:
        node.only({"setup"})
        sn = node.req("setup").only({"id", "pillboxes", "rocket_pits", "source"})
        setup = Setup(
            sn.req("id").as_str(),
            tuple(sn.req("pillboxes").as_str_list()),
            tuple(sn.req("rocket_pits").as_str_list()),
        )
        if setup.name != name:
            raise sn.req("id").error(f"the set-up's id is {setup.name!r}, not {name!r}")
        problem = self.check_setup(setup.pillboxes, setup.rocket_pits)
        if problem:
            raise sn.error(problem)
        return setup, sn.source()

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


SCENARIOS = DATA / "scenarios"


def load_scenario(ref: str) -> TcsScenario:
    path = SCENARIOS / f"{ref}.toml"
    if not path.exists():
        path = Path(ref)
        if not path.exists():
            raise ScenarioError(ref, "", "no such shipped scenario or scenario file")
    return TcsScenario(path)
