"""German positions, units and exits (reconstructed, ``data/positions.toml``).

A position is a WN strongpoint or a 352nd Division reinforcement position: a
hex, a colour (the fire cards call it), VP, its garrison, whether it starts
with a depth marker, the position its advance arrow points to, and its field
of fire (intense, steady and sporadic hexes). German units give their defence,
division and the weapons an attack on them requires (US Weapons Chart). An exit
is a draw: its exit hex, the hexes of the draw and the positions covering it.
"""

from __future__ import annotations

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.board import Board
from omaha.kernel.data import Node, Source
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Bool, Check, Field, Int, ListOf, Problems, Provenance, Str, Table
from omaha.landing_table.components.cards import COLOURS
from omaha.landing_table.components.charts import CHARTS, DOTS
from omaha.landing_table.components.terrain import cell, cells


def _ids(node: Node, key: str) -> set[str]:
    items = node.value.get(key)
    if not isinstance(items, list):
        return set()
    return {str(i["id"]) for i in items if isinstance(i, dict) and isinstance(i.get("id"), str)}


def _named(node: Node, key: str) -> list[tuple[Node, str]]:
    """Each (entry, value) of ``key`` in the list ``node``, where the value is a string."""
    if not isinstance(node.value, list):
        return []
    return [
        (entry.req(key), entry.value[key])
        for entry in node.as_list()
        if isinstance(entry.value, dict) and isinstance(entry.value.get(key), str)
    ]


def _cross_references(node: Node, problems: Problems) -> None:
    """Garrisons are German units of the file, each garrisoning one position at most;
    advance arrows and covering positions name positions of the file."""
    germans, positions = _ids(node, "german"), _ids(node, "position")
    if (pn := node.get("position")) is not None:
        garrisoned: dict[str, str] = {}
        for where, gid in _named(pn, "garrison"):
            if gid not in germans:
                problems.append(where.error(f"{gid!r} is not a German unit of this file"))
            elif gid in garrisoned:
                problems.append(
                    where.error(f"{gid!r} already garrisons another position ({garrisoned[gid]})")
                )
            else:
                garrisoned[gid] = where.path
        for where, pid in _named(pn, "advance"):
            if pid not in positions:
                problems.append(where.error(f"{pid!r} is not a position of this file"))
    if (en := node.get("exit")) is not None and isinstance(en.value, list):
        for entry in en.as_list():
            cov = entry.get("covered_by")
            if cov is None or not isinstance(cov.value, list):
                continue
            for i, pid in enumerate(cov.value):
                if isinstance(pid, str) and pid not in positions:
                    where = Node(pid, cov.file, f"{cov.path}[{i}]")
                    problems.append(where.error(f"{pid!r} is not a position of this file"))


HEXES = ListOf(Str(pattern=r"[A-Z]\d+(\s*\.\.\s*[A-Z]\d+)?", meaning="a hex or a run K3..K7"))
GERMAN = Table(
    {
        "id": Field(Str(), "the unit's id"),
        "division": Field(Str(("716", "352")), "its division (which depth cup it draws from)"),
        "defense": Field(Int(1, 40), "its printed defence strength"),
        "requires": Field(
            ListOf(Str(tuple(sorted(CHARTS.weapon_names))), unique=True),
            "the weapons an attack on it needs (US Weapons Chart)",
        ),
        "artillery": Field(Bool(), "it has artillery (German Action Summary 16.7)"),
        "source": Field(Provenance(), "where the values come from"),
    },
    doc="A German unit.",
)
POSITION = Table(
    {
        "id": Field(Str(), "the position's id (WN.. or R-..)"),
        "kind": Field(Str(("wn", "reinforcement")), "WN strongpoint or 352nd position"),
        "hex": Field(Str(), "its hex"),
        "colour": Field(Str(COLOURS), "its colour (the fire cards call it)"),
        "vp": Field(Int(0, 10), "VP it scores when cleared"),
        "draw": Field(Str(), "the draw it stands in", False),
        "garrison": Field(Str(), "the German unit that starts in it", False),
        "depth": Field(Int(0, 1), "1 if it starts with a depth marker"),
        "advance": Field(Str(), "the position its advance arrow points to", False),
        "intense": Field(HEXES, "intense (priority 1) fire hexes", False),
        "steady": Field(HEXES, "steady (priority 2) fire hexes", False),
        "sporadic": Field(HEXES, "sporadic (priority 3) fire hexes", False),
        "source": Field(Provenance(), "where it comes from"),
    },
    doc="A German position and its field of fire.",
)
EXIT = Table(
    {
        "id": Field(Str(), "the exit's id (D-1 ...)"),
        "name": Field(Str(), "its name"),
        "hex": Field(Str(), "the exit hex a US unit must hold"),
        "draw": Field(HEXES, "the hexes of the draw"),
        "covered_by": Field(ListOf(Str(), unique=True), "the positions that keep it closed"),
        "source": Field(Provenance(), "where it comes from"),
    },
    doc="An exit (a draw).",
)
SCHEMA = Table(
    {
        "german": Field(ListOf(GERMAN, unique_by="id", min_len=1), "the German units"),
        "position": Field(ListOf(POSITION, unique_by="id", min_len=1), "the German positions"),
        "exit": Field(ListOf(EXIT, unique_by="id"), "the exits"),
    },
    doc="The German side: units, positions with fields of fire, exits.",
    checks=[
        Check(
            "garrisons are units of the file, one position each; `advance` and `covered_by` "
            "name positions of the file",
            _cross_references,
        )
    ],
)


@attrs.frozen
class GermanUnit:
    id: str
    division: str
    defense: int
    requires: frozenset[str]
    artillery: bool


@attrs.frozen
class Position:
    """A German position: WN strongpoint or 352nd Division reinforcement position."""

    id: str
    kind: str  # "wn" | "reinforcement"
    cell: int
    colour: str
    vp: int
    draw: str | None
    garrison: str | None
    depth: int
    advance: str | None
    fof: dict[int, str]  # cell -> fire dot
    source: Source


@attrs.frozen
class Exit:
    id: str
    name: str
    cell: int
    draw: tuple[int, ...]
    covered_by: tuple[str, ...]


@attrs.frozen
class Defences:
    """The German side of a scenario: units, positions (file order) and exits."""

    germans: dict[str, GermanUnit]
    positions: tuple[Position, ...]
    pos_by_id: dict[str, Position]
    pos_at: dict[int, str]
    exits: tuple[Exit, ...]


def load_defences(
    root: Node, board: Board, row_of: tuple[str, ...], prov: list[ProvenanceItem]
) -> Defences:
    """Read a positions file against ``board`` (``row_of``: the row of every cell)."""
    root.only({"position", "german", "exit"})
    germans: dict[str, GermanUnit] = {}
    names = set(CHARTS.weapon_names)
    for gn in root.req("german").as_list():
        gn.only({"id", "division", "defense", "requires", "artillery", "source"})
        gid = gn.req("id").as_str()
        if gid in germans:
            raise gn.req("id").error(f"German unit {gid!r} is listed twice")
        req = gn.req("requires").as_str_list()
        for w in req:
            if w not in names:
                raise gn.req("requires").error(f"{w!r} is not a weapon of the US Weapons Chart")
        germans[gid] = GermanUnit(
            gid,
            gn.req("division").as_choice({"716", "352"}),
            gn.req("defense").as_int_in(1, 40),
            frozenset(req),
            gn.req("artillery").as_bool(),
        )
        prov.append(ProvenanceItem("German unit", gid, gn.source()))
    positions: list[Position] = []
    pos_at: dict[int, str] = {}
    for pn in root.req("position").as_list():
        pn.only(
            {"id", "kind", "hex", "colour", "vp", "draw", "garrison", "depth", "advance"}
            | {"intense", "steady", "sporadic", "source"}
        )
        pid = pn.req("id").as_str()
        if pid in {p.id for p in positions}:
            raise pn.req("id").error(f"position {pid!r} is listed twice")
        where = cell(board, pn.req("hex"))
        if where in pos_at:
            raise pn.req("hex").error(f"{pos_at[where]} already stands there")
        garrison = pn.get("garrison")
        gar = garrison.as_str() if garrison else None
        if gar is not None and gar not in germans:
            raise pn.req("garrison").error(f"{gar!r} is not a German unit")
        if gar is not None and gar in {p.garrison for p in positions}:
            raise pn.req("garrison").error(f"{gar!r} already garrisons another position")
        fof: dict[int, str] = {}
        for dot in reversed(DOTS):  # stronger dots overwrite weaker ones
            if (dn := pn.get(dot)) is not None:
                for c in cells(board, row_of, dn):
                    fof[c] = dot
        fof.pop(where, None)
        draw = pn.get("draw")
        adv = pn.get("advance")
        positions.append(
            Position(
                id=pid,
                kind=pn.req("kind").as_choice({"wn", "reinforcement"}),
                cell=where,
                colour=pn.req("colour").as_choice(COLOURS),
                vp=pn.req("vp").as_int_in(0, 10),
                draw=draw.as_str() if draw else None,
                garrison=gar,
                depth=pn.req("depth").as_int_in(0, 1),
                advance=adv.as_str() if adv else None,
                fof=fof,
                source=pn.source(),
            )
        )
        pos_at[where] = pid
        prov.append(ProvenanceItem("German position", pid, positions[-1].source))
    ids = {p.id for p in positions}
    for p in positions:
        if p.advance is not None and p.advance not in ids:
            raise ScenarioError(
                root.file, f"position.{p.id}.advance", f"{p.advance!r} is not a position"
            )
    exits: list[Exit] = []
    for en in root.req("exit").as_list():
        en.only({"id", "name", "hex", "draw", "covered_by", "source"})
        if en.req("id").as_str() in {e.id for e in exits}:
            raise en.req("id").error(f"exit {en.req('id').as_str()!r} is listed twice")
        cov = tuple(en.req("covered_by").as_str_list())
        for pid in cov:
            if pid not in ids:
                raise en.req("covered_by").error(f"{pid!r} is not a position")
        exits.append(
            Exit(
                en.req("id").as_str(),
                en.req("name").as_str(),
                cell(board, en.req("hex")),
                tuple(cells(board, row_of, en.req("draw"))),
                cov,
            )
        )
        prov.append(ProvenanceItem("exit", exits[-1].id, en.source()))
    return Defences(
        germans=germans,
        positions=tuple(positions),
        pos_by_id={p.id: p for p in positions},
        pos_at=pos_at,
        exits=tuple(exits),
    )
