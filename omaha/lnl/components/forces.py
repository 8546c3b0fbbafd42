"""A scenario's forces: which counters set up or arrive together, when and how
(LnL Omaha: Setting up the Game; the Bonus Scenario)."""

from __future__ import annotations

import attrs

from omaha.kernel.board import Board
from omaha.kernel.data import Node, Source
from omaha.kernel.scenario import ProvenanceItem
from omaha.lnl.components.counters import CounterData, UnitDef
from omaha.lnl.components.map import cell_at, is_land, row_of

SIDES = ("US", "German")


@attrs.frozen
class Force:
    """A group of units that set up or arrive together, and how."""

    units: tuple[int, ...]
    when: str  # setup | turn | event
    turn: int
    event: str
    how: str  # free | landing | near | edge | row
    cells: tuple[int, ...]  # the allowed cells for near / edge / row (empty: rule-defined)
    source: Source


@attrs.frozen
class OrderOfBattle:
    """The counters a scenario uses (indexed in order of appearance) and its forces."""

    units: tuple[UnitDef, ...]
    unit_index: dict[str, int]
    forces: tuple[Force, ...]
    #: (force, unit) in set-up order: the Germans first, then the Americans.
    setup_order: tuple[tuple[int, int], ...]
    #: The force each unit belongs to.
    force_of: dict[int, int]


def load_forces(
    root: Node,
    board: Board,
    counters: CounterData,
    events: set[str],
    turns: int,
    provenance: list[ProvenanceItem],
) -> OrderOfBattle:
    """Read the ``[[forces]]`` of a scenario file (arrivals within its ``turns``); each
    counter and force is added to ``provenance``."""
    units: list[UnitDef] = []
    index: dict[str, int] = {}
    forces: list[Force] = []
    for k, fn in enumerate(root.req("forces").as_list()):
        fn.only(
            {
                "units", "when", "turn", "event", "how", "hexes", "row", "near", "radius",
                "mf", "source",
            }
        )  # fmt: skip
        src = fn.source()
        members: list[int] = []
        mf_node = fn.get("mf")
        unode = fn.req("units")
        for i, uid in enumerate(unode.as_str_list()):
            where = Node(uid, root.file, f"forces[{k}].units[{i}]")
            if uid not in counters.entries:
                raise where.error(f"{uid!r} is not a counter of units.toml")
            if uid in unode.as_str_list()[:i]:
                raise where.error(f"{uid!r} is listed twice in this force")
            if uid in index:
                raise where.error(f"{uid!r} appears in two forces")
            un = counters.entries[uid]
            tname = un.req("type").as_str()
            if tname not in counters.types:
                raise un.req("type").error(f"{tname!r} is not a counter type")
            utype = counters.types[tname]
            side = un.req("side").as_choice(set(SIDES))
            mf = mf_node.as_int_in(0, 20) if mf_node is not None else utype.mf
            u = UnitDef(len(units), uid, side, un.req("company").as_str(), utype, mf, un.source())
            index[uid] = u.idx
            units.append(u)
            members.append(u.idx)
            provenance.append(ProvenanceItem("counter", uid, u.source))
        when = fn.req("when").as_choice({"setup", "turn", "event"})
        how = fn.req("how").as_choice({"free", "landing", "near", "edge", "row"})
        turn = fn.req("turn").as_int_in(1, 50) if when == "turn" else 0
        if turn > turns:
            raise fn.req("turn").error(f"turn {turn} is after the last turn of the game ({turns})")
        event = fn.req("event").as_choice(events) if when == "event" else ""
        cells: tuple[int, ...] = ()
        if how == "near" or (how == "edge" and fn.has("near")):
            centre = cell_at(board, fn.req("near"))
            radius = fn.req("radius").as_int_in(0, 5)
            cells = tuple(c for c in board.within(centre, radius) if is_land(board, c))
        elif how == "edge" and fn.has("hexes"):
            hn = fn.req("hexes")
            cells = tuple(cell_at(board, n) for n in hn.as_list())
        elif how in ("edge", "row"):
            rn = fn.req("row")
            row = rn.as_str().upper()
            cells = tuple(
                c for c in range(len(board)) if row_of(board.label(c)) == row and is_land(board, c)
            )
            if not cells:
                raise rn.error(f"row {row!r} has no land hexes")
        if when == "setup" and how in ("edge",):
            raise fn.req("how").error("units that set up are placed, not entered from an edge")
        if when != "setup" and how == "free":
            raise fn.req("how").error("free set-up is only for units that set up")
        forces.append(Force(tuple(members), when, turn, event, how, cells, src))
        provenance.append(
            ProvenanceItem("forces", f"{when} {turn or event or ''} {how}".replace("  ", " "), src)
        )
    setup_order = tuple(
        (fi, u)
        for side in ("German", "US")
        for fi, f in enumerate(forces)
        if f.when == "setup"
        for u in f.units
        if units[u].side == side
    )
    force_of = {u: fi for fi, f in enumerate(forces) for u in f.units}
    return OrderOfBattle(tuple(units), index, tuple(forces), setup_order, force_of)
