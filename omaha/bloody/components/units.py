"""Bloody Omaha US unit counters (3.3) and their set-up squares (4.4)."""

from __future__ import annotations

import attrs

from omaha.kernel.board import Board
from omaha.kernel.data import Node, Source
from omaha.kernel.scenario import ProvenanceItem

from .. import rules


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


def read_units(
    board: Board, node: Node, channel: frozenset[int], prov: list[ProvenanceItem]
) -> tuple[UnitSpec, ...]:
    """``units.toml``: every counter, its strengths (3.3) and set-up square (4.4)."""
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
            raise un.req("strength").error(f"a battalion has full strength 10 (3.3), not {full}")
        if not 0 <= reduced < full:
            raise un.req("strength").error("the reduced side must be weaker than the full side")
        where = un.req("setup").as_str()
        if where == "R*":
            setup = -1
        else:
            if not board.has(where):
                raise un.req("setup").error(f"{where!r} is not on the map")
            setup = board.cell(where)
            if setup not in channel:
                raise un.req("setup").error(f"{where} is not a Channel square (4.4)")
        src = un.source()
        specs.append(UnitSpec(uid, division, size, full, reduced, setup, src))
        prov.append(ProvenanceItem("unit", uid, src))
    if not specs:
        raise node.req("units").error("no units")
    return tuple(specs)
