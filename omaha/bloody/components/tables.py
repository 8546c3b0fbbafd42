"""Bloody Omaha die tables: Drift (6.2), Beach Disruption (6.5), US Engineer (8.5) and
the Random Event tables of each terrain (5.2, 8.1.b).

The text prints none of them; ``tables.toml`` holds the reconstruction, each row
with its provenance, read into :class:`~omaha.bloody.rules.Table` records.
"""

from __future__ import annotations

import attrs

from omaha.kernel.data import Node
from omaha.kernel.scenario import ProvenanceItem

from ..rules import EventEntry, Row, Table
from .map import TERRAINS

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


@attrs.frozen
class Tables:
    """The die tables of a scenario."""

    drift: Table
    beach: Table
    engineer_table: Table
    events: dict[str, tuple[EventEntry, ...]]  # terrain -> rows for rolls 1-6


def read_tables(node: Node, prov: list[ProvenanceItem]) -> Tables:
    """``tables.toml``: three die tables with contiguous rows and one event table a terrain."""
    node.only({"drift", "beach_disruption", "engineers", "random_events"})
    drift = read_table(node, "drift", {"east"}, None, prov)
    beach = read_table(
        node,
        "beach_disruption",
        {"result", "initiative", "engineers"},
        {"none", "disrupted", "eliminated"},
        prov,
    )
    engineers = read_table(node, "engineers", {"result"}, {"success", "failure"}, prov)
    events: dict[str, tuple[EventEntry, ...]] = {}
    re_node = node.req("random_events")
    re_node.only(set(TERRAINS))
    for terrain in TERRAINS:
        entries: list[EventEntry] = []
        for rn in re_node.req(terrain).as_list():
            rn.only({"roll", "effect", "amount", "title", "source"})
            roll = rn.req("roll").as_int_in(1, 6)
            if any(e.roll == roll for e in entries):
                raise rn.req("roll").error(f"roll {roll} appears twice in the {terrain} table")
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
                    roll, effect, amount.as_int() if amount else 0, rn.req("title").as_str(), src
                )
            )
            prov.append(ProvenanceItem(f"random event table ({terrain})", str(roll), src))
        if sorted(e.roll for e in entries) != [1, 2, 3, 4, 5, 6]:
            raise re_node.req(terrain).error("a Random Event table needs one row per roll 1-6")
        events[terrain] = tuple(sorted(entries, key=lambda e: e.roll))
    return Tables(drift=drift, beach=beach, engineer_table=engineers, events=events)


def read_table(
    node: Node,
    key: str,
    fields: set[str],
    results: set[str] | None,
    prov: list[ProvenanceItem],
) -> Table:
    """One die table: rows ``from..to`` of modified rolls, open at both ends, no gaps."""
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
