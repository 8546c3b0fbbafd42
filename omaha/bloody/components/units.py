"""Bloody Omaha US unit counters (3.3) and their set-up squares (4.4)."""

from __future__ import annotations

import attrs

from omaha.kernel.board import Board
from omaha.kernel.data import Node, Source
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Check, Field, Int, ListOf, Problems, Provenance, Str, Table

from .. import rules
from .checking import whole

#: Where a counter starts: a Channel square (its label) or the Reinforcements box.
IN_BOX = "R*"


def _strengths(node: Node, problems: Problems) -> None:
    """3.3: full and reduced sides; a company 3-5 at full strength, a battalion 10."""
    value = node.value
    strength = value.get("strength")
    if not isinstance(strength, list) or not all(whole(v) is not None for v in strength):
        return  # the field's own spec says what is wrong
    where = node.get("strength")
    assert where is not None
    if len(strength) != 2:
        problems.append(where.error("give [full, reduced]"))
        return
    full, reduced = strength
    size = value.get("size")
    if size == rules.COMPANY and not 3 <= full <= 5:
        problems.append(where.error(f"a company has full strength 3-5 (3.3), not {full}"))
    if size == rules.BATTALION and full != 10:
        problems.append(where.error(f"a battalion has full strength 10 (3.3), not {full}"))
    if not 0 <= reduced < full:
        problems.append(where.error("the reduced side must be weaker than the full side"))


UNIT = Table(
    {
        "id": Field(Str(pattern=r"\S+", meaning="one word"), "the counter's id, as printed"),
        "division": Field(Str(rules.DIVISIONS), "its command (3.3, 8.4.a)"),
        "size": Field(Str((rules.COMPANY, rules.BATTALION)), "company or battalion (3.3)"),
        "strength": Field(
            ListOf(Int(0, 99)), "[full, reduced]: the strengths of its two sides (3.3)"
        ),
        "setup": Field(
            Str(), f"its set-up Channel square (4.4), or {IN_BOX!r}: the Reinforcements box"
        ),
        "source": Field(Provenance(), "where the counter's values come from"),
    },
    doc="One US counter (3.3).",
    checks=[Check("a company is 3-5 strong and a battalion 10 (3.3); reduced < full", _strengths)],
)
#: ``units.toml``: the US counters (3.3, 4.4).
SCHEMA = Table(
    {"units": Field(ListOf(UNIT, unique_by="id", min_len=1), "the US counters, each once")},
    doc="The US unit counters.",
)


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
