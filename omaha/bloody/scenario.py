"""Bloody Omaha: loading the map, counters, tokens, tables and cards into a scenario.

A scenario file (``data/solo.toml``) names the component files; a path given
instead of a shipped id is read the same way, its component files looked up
next to it first and then among the shipped ones, so a user who owns the game
can replace any component. Every problem is an ``omaha.ScenarioError`` naming
file, key and problem.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.board import Board
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, Source, content_hash, load_toml
from omaha.kernel.labels import LabelError
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.kernel.squares import Square

from . import rules
from .rules import EventEntry, Row, Table

DATA = Path(__file__).parent / "data"

CHANNEL, BEACH, HEDGEROW, STRONGPOINT, TOWN = "channel", "beach", "hedgerow", "strongpoint", "town"
TERRAINS = (CHANNEL, BEACH, HEDGEROW, STRONGPOINT, TOWN)
EVENT_EFFECTS = frozenset(
    {
        "none",
        "disrupt_all",
        "disrupt_one",
        "drift",
        "initiative_now",
        "initiative",
        "engineers",
        "rally",
        "reveal",
        "remove_weakest",
        "gap",
        "tank",
    }
)
CARD_EFFECTS = frozenset(
    {
        "initiative_now",
        "initiative",
        "engineers_now",
        "engineers",
        "rally",
        "reveal",
        "naval_fire",
        "clear_mines",
        "gap",
        "tank",
        "drift_drm",
        "landing_drm",
        "attack_bonus",
    }
)
#: Card effects that need a target square.
TARGETED = frozenset({"rally", "reveal", "naval_fire", "clear_mines", "gap", "tank"})
ENCOUNTER_KINDS = ("value", "mines", "sniper", "stug", "random_event")
#: Token faces as stored in the cups and the state.
MINES, SNIPER, STUG, EVENT = "mines", "sniper", "stug", "event"
_FACE = {"mines": MINES, "sniper": SNIPER, "stug": STUG, "random_event": EVENT}


def face_value(face: str) -> int | None:
    """The numerical value of a token face (``"sp7"`` -> 7, ``"e2"`` -> 2), else None."""
    if face.startswith("sp"):
        return int(face[2:])
    if face.startswith("e") and face[1:].isdigit():
        return int(face[1:])
    return None


def is_strongpoint_token(face: str) -> bool:
    return face.startswith("sp")


@attrs.frozen
class UnitSpec:
    """One US unit counter (3.3)."""

    id: str
    division: str
    size: str
    full: int
    reduced: int
    setup: int  # a Channel cell, or -1 for the Reinforcements box (R*)
    source: Source

    @property
    def battalion(self) -> bool:
        return self.size == rules.BATTALION


@attrs.frozen
class CardOption:
    """One option of a player card (9.2)."""

    first: int
    last: int | None
    when: str  # "activation" | "landing"
    effect: str
    amount: int

    def open_on(self, turn: int) -> bool:
        return turn >= self.first and (self.last is None or turn <= self.last)

    def window(self) -> str:
        if self.last is None:
            return f"Turn {self.first}+"
        if self.last == self.first:
            return f"Turn {self.first}"
        return f"Turn {self.first}-{self.last}"

    def describe(self) -> str:
        what = {
            "initiative_now": f"Initiative token {self.amount:+d} this turn",
            "initiative": f"Initiative rating {self.amount:+d}",
            "engineers_now": f"Engineers token {self.amount:+d} this turn",
            "engineers": f"Engineers rating {self.amount:+d}",
            "rally": "rally every disrupted unit in one square",
            "reveal": "reveal a square next to a landed unit",
            "naval_fire": f"naval fire removes a revealed token worth {self.amount} or less",
            "clear_mines": "remove a revealed Mines token",
            "gap": "flip a Beach Obstacle to its Gap",
            "tank": "a Tank token comes ashore at a Gap",
            "drift_drm": f"{self.amount:+d} on Drift rolls this turn",
            "landing_drm": f"{self.amount:+d} on Beach Disruption rolls this turn",
            "attack_bonus": f"{self.amount:+d} attack strength this turn",
        }[self.effect]
        moment = " (before the Drift rolls)" if self.when == "landing" else ""
        return f"{self.window()}{moment}: {what}"


@attrs.frozen
class Card:
    id: str
    title: str
    options: tuple[CardOption, ...]
    source: Source


class BloodyScenario(Scenario):
    """Everything static about a game of Bloody Omaha, shared by every state."""

    def __init__(self, ref: str) -> None:
        path = Path(ref) if ref.endswith(".toml") else DATA / f"{ref}.toml"
        if not path.exists():
            raise ScenarioError(path.name, "", "no such scenario file")
        scen_node = load_toml(path)
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
                    return load_toml(folder / name)
            raise s.req(key).error(f"component file {name!r} not found")

        map_node, unit_node = component("map"), component("units")
        token_node, table_node, card_node = (
            component("tokens"),
            component("tables"),
            component("cards"),
        )
        try:
            board = board_from_node(map_node)
        except LabelError as exc:  # pragma: no cover - board_from_node wraps these
            raise map_node.error(str(exc)) from None
        self.turns = s.req("turns").as_int_in(1, 99)
        self.track_max = s.req("track_max").as_int_in(2, 99)
        prov: list[ProvenanceItem] = [
            ProvenanceItem("scenario", s.req("id").as_str(), s.source()),
            ProvenanceItem("game length", f"{self.turns} turns", s.source("turns_source")),
            ProvenanceItem("game track", f"{self.track_max} spaces", s.source("track_source")),
        ]
        self._read_board(board, map_node, prov)
        self._read_units(board, unit_node, prov)
        self._read_tokens(token_node, prov)
        self._read_tables(table_node, prov)
        self._read_cards(card_node, prov)
        self._check_encounters(map_node, token_node)
        super().__init__(
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
        )

    # -- the map ---------------------------------------------------------------
    def _read_board(self, board: Board, node: Node, prov: list[ProvenanceItem]) -> None:
        n = len(board)
        for i in range(n):
            if board.terrain[i] not in TERRAINS:
                raise node.error(
                    f"cell {board.labels[i]}: terrain {board.terrain[i]!r} is not one of "
                    f"{', '.join(TERRAINS)}"
                )
        self.kind: tuple[str, ...] = board.terrain
        self.xy: tuple[tuple[int, int], ...] = tuple(
            (c.x, c.y) for c in board.coords if isinstance(c, Square)
        )
        self.channel = frozenset(board.cells_where(terrain=CHANNEL))
        self.beaches: tuple[int, ...] = tuple(
            sorted(board.cells_where(terrain=BEACH), key=lambda i: self.xy[i][0])
        )
        if not self.beaches:
            raise node.error("the map has no Beach squares")
        self.land = frozenset(i for i in range(n) if self.kind[i] != CHANNEL)
        self.inland = frozenset(self.land - set(self.beaches))
        self.first_wave = frozenset(board.cells_where(feature="first_wave"))
        self.entry: tuple[int, ...] = tuple(
            sorted(board.cells_where(feature="entry"), key=lambda i: self.xy[i][0])
        )
        if not self.first_wave or not self.entry:
            raise node.error("the map needs First Wave row and entry (C19-C27) squares")
        beach_row = {self.xy[b][1] for b in self.beaches}
        if len(beach_row) != 1:
            raise node.error("the Beach squares must form one row")
        for c in self.first_wave:
            if self.kind[c] != CHANNEL:
                raise node.error(f"{board.labels[c]}: a First Wave square must be a Channel square")
        # forward (toward the beach) and east neighbours of Channel squares
        fwd: dict[int, int] = {}
        east: dict[int, int] = {}
        for c in self.channel:
            x, y = self.xy[c]
            ahead = board.at(Square(x, y - 1))
            if ahead is None or ahead not in self.channel | set(self.beaches):
                raise node.error(f"{board.labels[c]}: no Channel or Beach square directly south")
            if c in self.first_wave and self.kind[ahead] != BEACH:
                raise node.error(f"{board.labels[c]}: a First Wave square must face a Beach square")
            fwd[c] = ahead
            e = board.at(Square(x + 1, y))
            if e is not None and e in self.channel:
                east[c] = e
        self.forward: dict[int, int] = fwd
        self.east: dict[int, int] = east
        self.column: tuple[int, ...] = tuple(x for x, _ in self.xy)
        self.land_neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(j for j in board.neighbours[i] if j in self.land) if i in self.land else ()
            for i in range(n)
        )
        self.beach_name: dict[int, str] = {b: str(board.prop(b, "beach", "")) for b in self.beaches}
        self.exit_name: dict[int, str] = {
            i: str(board.prop(i, "exit")) for i in range(n) if board.prop(i, "exit") is not None
        }
        for i in self.exit_name:
            if self.kind[i] != STRONGPOINT:
                raise node.error(f"{board.labels[i]}: an Exit must be on a Strongpoint square")
        self.town_name: dict[int, str] = {
            i: str(board.prop(i, "town")) for i in range(n) if board.prop(i, "town") is not None
        }
        self.bonus = frozenset(
            i for i in range(n) if i in self.exit_name or i in self.town_name
        )  # 2.3.d
        self.southern = frozenset(board.cells_where(feature="southern"))  # 2.3.e
        self.strongpoints: tuple[int, ...] = board.cells_where(terrain=STRONGPOINT)
        self.red_gray = frozenset(
            i for i in self.strongpoints if board.prop(i, "border", "red") == "red/gray"
        )
        for i in self.strongpoints:
            border = board.prop(i, "border", "red")
            if border not in ("red", "red/gray"):
                raise node.error(f"{board.labels[i]}: border {border!r} is not red or red/gray")
        self.encounter_squares: tuple[int, ...] = tuple(
            i
            for i in range(n)
            if i in self.red_gray or (i in self.inland and self.kind[i] in (TOWN, HEDGEROW))
        )  # 4.1
        # gray arrows: which strongpoints fire on each Beach square (6.5.a, 8.5.a)
        arrows: dict[int, list[int]] = {b: [] for b in self.beaches}
        for link in board.links_of("arrow"):
            ends = [board.cell(link.start), board.cell(link.end)]
            kinds = sorted(self.kind[e] for e in ends)
            if kinds != [BEACH, STRONGPOINT]:
                raise node.error(
                    f"arrow {link.start}-{link.end} must join a Beach and a Strongpoint square"
                )
            b = ends[0] if self.kind[ends[0]] == BEACH else ends[1]
            sp = ends[1] if b == ends[0] else ends[0]
            arrows[b].append(sp)
        self.arrows: dict[int, tuple[int, ...]] = {b: tuple(sorted(v)) for b, v in arrows.items()}
        if "reinforcements" not in board.boxes:
            raise node.error("the map needs a 'reinforcements' box")
        if tuple(sorted(board.box_cells("reinforcements"))) != tuple(sorted(self.entry)):
            raise node.error("the Reinforcements box must link exactly the entry squares")
        prov.append(ProvenanceItem("map", board.id, board.source))
        for i in range(n):
            src = board.cell_sources[i]
            if src is not None:
                prov.append(ProvenanceItem("map square", board.labels[i], src))
        for link in board.links:
            prov.append(ProvenanceItem("gray arrow", f"{link.start}-{link.end}", link.source))
        box = board.boxes["reinforcements"]
        prov.append(ProvenanceItem("box", box.id, box.source))

    # -- the counters ------------------------------------------------------------
    def _read_units(self, board: Board, node: Node, prov: list[ProvenanceItem]) -> None:
        node.only({"units"})
        specs: list[UnitSpec] = []
        seen: set[str] = set()
        for un in node.req("units").as_list():
            un.only({"id", "division", "size", "strength", "setup", "source"})
            uid = un.req("id").as_str()
            if not uid or any(ch.isspace() for ch in uid):
                raise un.req("id").error("a unit id is one word")
            if uid in seen:
                raise un.req("id").error(f"unit {uid!r} appears twice")
            seen.add(uid)
            division = un.req("division").as_choice(set(rules.DIVISIONS))
            size = un.req("size").as_choice({rules.COMPANY, rules.BATTALION})
            strength = un.req("strength").as_int_list()
            if len(strength) != 2:
                raise un.req("strength").error("give [full, reduced]")
            full, reduced = strength
            if size == rules.COMPANY and not 3 <= full <= 5:
                raise un.req("strength").error(f"a company has full strength 3-5 (3.3), not {full}")
            if size == rules.BATTALION and full != 10:
                raise un.req("strength").error(
                    f"a battalion has full strength 10 (3.3), not {full}"
                )
            if not 0 <= reduced < full:
                raise un.req("strength").error("the reduced side must be weaker than the full side")
            where = un.req("setup").as_str()
            if where == "R*":
                setup = -1
            else:
                if not board.has(where):
                    raise un.req("setup").error(f"{where!r} is not on the map")
                setup = board.cell(where)
                if setup not in self.channel:
                    raise un.req("setup").error(f"{where} is not a Channel square (4.4)")
            src = un.source()
            specs.append(UnitSpec(uid, division, size, full, reduced, setup, src))
            prov.append(ProvenanceItem("unit", uid, src))
        if not specs:
            raise node.req("units").error("no units")
        self.units: tuple[UnitSpec, ...] = tuple(specs)
        self.unit_index: dict[str, int] = {u.id: k for k, u in enumerate(specs)}

    # -- tokens --------------------------------------------------------------------
    def _read_tokens(self, node: Node, prov: list[ProvenanceItem]) -> None:
        node.only({"strongpoints", "encounters", "obstacles", "tanks"})
        sp: list[str] = []
        for tn in node.req("strongpoints").as_list():
            tn.only({"value", "count", "source"})
            value = tn.req("value").as_int_in(0, 99)
            count = tn.req("count").as_int_in(1, 99)
            sp.extend([f"sp{value}"] * count)
            prov.append(ProvenanceItem("strongpoint token", f"value {value} x{count}", tn.source()))
        enc: list[str] = []
        for tn in node.req("encounters").as_list():
            tn.only({"kind", "value", "count", "source"})
            kind = tn.req("kind").as_choice(set(ENCOUNTER_KINDS))
            count = tn.req("count").as_int_in(1, 99)
            if kind == "value":
                value = tn.req("value").as_int_in(0, 99)
                face, key = f"e{value}", f"value {value} x{count}"
            else:
                if tn.has("value"):
                    raise tn.req("value").error(f"a {kind} token has no value")
                face, key = _FACE[kind], f"{kind} x{count}"
            enc.extend([face] * count)
            prov.append(ProvenanceItem("encounter token", key, tn.source()))
        ob = node.req("obstacles").only({"count", "source"})
        self.obstacle_count = ob.req("count").as_int_in(0, 99)
        prov.append(ProvenanceItem("obstacle tokens", f"x{self.obstacle_count}", ob.source()))
        tk = node.req("tanks").only({"count", "strength", "source"})
        self.tank_count = tk.req("count").as_int_in(0, 9)
        self.tank_strength = tk.req("strength").as_int_in(0, 20)
        prov.append(ProvenanceItem("tank tokens", f"x{self.tank_count}", tk.source()))
        self.strongpoint_tokens: tuple[str, ...] = tuple(sorted(sp))
        self.encounter_tokens: tuple[str, ...] = tuple(sorted(enc))
        if len(sp) < len(self.strongpoints):
            raise node.req("strongpoints").error(
                f"{len(sp)} Strongpoint tokens cannot fill {len(self.strongpoints)} "
                "Strongpoint squares (4.1)"
            )
        if self.obstacle_count < len(self.beaches):
            raise ob.req("count").error(
                f"{self.obstacle_count} obstacles cannot fill "
                f"{len(self.beaches)} Beach squares (4.2)"
            )

    def _check_encounters(self, map_node: Node, token_node: Node) -> None:
        """4.1: the map must not need more Encounter tokens than there are."""
        need, have = len(self.encounter_squares), len(self.encounter_tokens)
        if need > have:
            raise token_node.req("encounters").error(
                f"the map needs {need} Encounter tokens (red/gray strongpoints, towns and "
                f"hedgerows, 4.1) but only {have} are listed"
            )

    # -- tables --------------------------------------------------------------------
    def _read_tables(self, node: Node, prov: list[ProvenanceItem]) -> None:
        node.only({"drift", "beach_disruption", "engineers", "random_events"})
        self.drift = _table(node, "drift", {"east"}, None, prov)
        self.beach = _table(
            node,
            "beach_disruption",
            {"result", "initiative", "engineers"},
            {"none", "disrupted", "eliminated"},
            prov,
        )
        self.engineer_table = _table(node, "engineers", {"result"}, {"success", "failure"}, prov)
        events: dict[str, tuple[EventEntry, ...]] = {}
        re_node = node.req("random_events")
        re_node.only(set(TERRAINS))
        for terrain in TERRAINS:
            rows = re_node.req(terrain).as_list()
            entries = []
            for rn in rows:
                rn.only({"roll", "effect", "amount", "title", "source"})
                roll = rn.req("roll").as_int_in(1, 6)
                effect = rn.req("effect").as_choice(EVENT_EFFECTS)
                amount = rn.get("amount")
                if (
                    effect in ("initiative_now", "initiative", "engineers", "remove_weakest")
                    and amount is None
                ):
                    raise rn.error(f"effect {effect} needs an amount")
                src = rn.source()
                entries.append(
                    EventEntry(
                        roll,
                        effect,
                        amount.as_int() if amount else 0,
                        rn.req("title").as_str(),
                        src,
                    )
                )
                prov.append(ProvenanceItem(f"random event table ({terrain})", str(roll), src))
            if sorted(e.roll for e in entries) != [1, 2, 3, 4, 5, 6]:
                raise re_node.req(terrain).error("a Random Event table needs one row per roll 1-6")
            events[terrain] = tuple(sorted(entries, key=lambda e: e.roll))
        self.events: dict[str, tuple[EventEntry, ...]] = events

    # -- cards ----------------------------------------------------------------------
    def _read_cards(self, node: Node, prov: list[ProvenanceItem]) -> None:
        node.only({"cards"})
        cards: dict[str, Card] = {}
        for cn in node.req("cards").as_list():
            cn.only({"id", "title", "options", "source"})
            cid = cn.req("id").as_str()
            if not cid or any(ch.isspace() for ch in cid):
                raise cn.req("id").error("a card id is one word")
            if cid in cards:
                raise cn.req("id").error(f"card {cid!r} appears twice")
            opts = []
            for on in cn.req("options").as_list():
                on.only({"from", "to", "when", "effect", "amount"})
                first = on.req("from").as_int_in(1, 99)
                to = on.get("to")
                last = to.as_int_in(first, 99) if to is not None else None
                effect = on.req("effect").as_choice(CARD_EFFECTS)
                amount_node = on.get("amount")
                amount = amount_node.as_int() if amount_node is not None else 0
                needs_amount = effect not in TARGETED or effect == "naval_fire"
                if needs_amount and amount == 0:
                    raise on.error(f"effect {effect} needs a non-zero amount")
                when = on.req("when").as_choice({"activation", "landing"})
                if (effect in ("drift_drm", "landing_drm")) != (when == "landing"):
                    raise on.req("when").error(
                        "drift_drm and landing_drm options, and only they, are played at 'landing'"
                    )
                opts.append(CardOption(first, last, when, effect, amount))
            if not opts:
                raise cn.req("options").error("a card has at least one option (9.2)")
            src = cn.source()
            cards[cid] = Card(cid, cn.req("title").as_str(), tuple(opts), src)
            prov.append(ProvenanceItem("card", f"{cid} {cards[cid].title}", src))
        if len(cards) < 3:
            raise node.req("cards").error("the set-up draws 3 cards (4.5): give at least 3")
        self.cards: dict[str, Card] = cards
        self.card_ids: tuple[str, ...] = tuple(sorted(cards))


def _table(
    node: Node,
    key: str,
    fields: set[str],
    results: set[str] | None,
    prov: list[ProvenanceItem],
) -> Table:
    rows: list[Row] = []
    for rn in node.req(key).as_list():
        rn.only({"from", "to", "source"} | fields)
        low = rn.get("from")
        high = rn.get("to")
        lo = low.as_int() if low is not None else None
        hi = high.as_int() if high is not None else None
        if lo is not None and hi is not None and hi < lo:
            raise rn.error(f"row from {lo} to {hi} is empty")
        result = rn.req("result").as_choice(results) if results else ""
        src = rn.source()
        rows.append(
            Row(
                lo,
                hi,
                result,
                initiative=rn.req("initiative").as_int() if rn.has("initiative") else 0,
                engineers=rn.req("engineers").as_int() if rn.has("engineers") else 0,
                east=rn.req("east").as_int_in(0, 9) if rn.has("east") else 0,
                source=src,
            )
        )
        span = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
        prov.append(ProvenanceItem(f"{key.replace('_', ' ')} table", span, src))
    if not rows:
        raise node.req(key).error("the table has no rows")
    # contiguous from open-ended low to open-ended high
    if rows[0].low is not None or rows[-1].high is not None:
        raise node.req(key).error("the first row needs no 'from' and the last no 'to' (open ends)")
    for k in range(1, len(rows)):
        prev, row = rows[k - 1], rows[k]
        if prev.high is None or row.low != prev.high + 1:
            raise node.req(key).error(
                f"rows {k - 1} and {k} leave a gap or overlap (each row starts one above the last)"
            )
    return Table(key, tuple(rows))
