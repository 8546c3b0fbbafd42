"""Bloody Omaha die tables: Drift (6.2), Beach Disruption (6.5), US Engineer (8.5) and
the Random Event tables of each terrain (5.2, 8.1.b).

The text prints none of them; ``tables.toml`` holds the reconstruction, each row
with its provenance, read into :class:`~omaha.bloody.rules.Table` records.
"""

from __future__ import annotations

import attrs

from omaha.kernel import schema
from omaha.kernel.data import Node
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Check, Field, Int, ListOf, Problems, Provenance, Str

from ..rules import EventEntry, Row, Table
from .checking import entries, whole
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


#: Random Event effects that need an amount.
EFFECTS_WITH_AMOUNT = frozenset({"initiative_now", "initiative", "engineers", "remove_weakest"})


def _contiguous(key: str) -> Check:
    """A die table covers every modified roll: open at both ends, each row starting one
    above the last."""

    def check(node: Node, problems: Problems) -> None:
        rows = [(item, row) for item, row in entries(node, key)]
        if not rows:
            return
        bounds = [(whole(row.get("from")), whole(row.get("to"))) for _, row in rows]
        table = node.get(key)
        assert table is not None
        for (item, _), (lo, hi) in zip(rows, bounds, strict=True):
            if lo is not None and hi is not None and hi < lo:
                problems.append(item.error(f"row from {lo} to {hi} is empty"))
        if "from" in rows[0][1] or "to" in rows[-1][1]:
            problems.append(
                table.error("the first row needs no 'from' and the last no 'to' (open ends)")
            )
        for k in range(1, len(rows)):
            high, low = bounds[k - 1][1], bounds[k][0]
            if high is None or low != high + 1:
                problems.append(
                    table.error(
                        f"rows {k - 1} and {k} leave a gap or overlap "
                        "(each row starts one above the last)"
                    )
                )

    return Check(f"the {key.replace('_', ' ')} rows cover every modified roll, in order", check)


def _one_row_a_roll(node: Node, problems: Problems) -> None:
    """5.2: a Random Event table has one row for each roll 1-6."""
    for terrain, table in node.items():
        if not isinstance(table.value, list):
            continue
        rolls: set[int] = set()
        for item, row in entries(node, terrain):
            roll = whole(row.get("roll"))
            if roll is None:
                continue
            if roll in rolls:
                where = item.get("roll")
                assert where is not None
                problems.append(where.error(f"roll {roll} appears twice in the {terrain} table"))
            rolls.add(roll)
        if rolls and rolls != set(range(1, 7)) and len(rolls) == len(table.value):
            problems.append(table.error("a Random Event table needs one row per roll 1-6"))


def _amount(node: Node, problems: Problems) -> None:
    effect = node.value.get("effect")
    if effect in EFFECTS_WITH_AMOUNT and "amount" not in node.value:
        problems.append(node.error(f"effect {effect} needs an amount"))


def _row(fields: dict[str, Field]) -> schema.Table:
    return schema.Table(
        {
            "from": Field(Int(-20, 40), "lowest modified roll (omit in the first row)", False),
            "to": Field(Int(-20, 40), "highest modified roll (omit in the last row)", False),
            **fields,
            "source": Field(Provenance(), "where the row comes from"),
        }
    )


EVENT_ROW = schema.Table(
    {
        "roll": Field(Int(1, 6), "the d6 roll"),
        "effect": Field(Str(tuple(sorted(EVENT_EFFECTS))), "what happens"),
        "amount": Field(Int(-9, 9), "how much (ratings, token values)", required=False),
        "title": Field(Str(), "the event as the table names it"),
        "source": Field(Provenance(), "where the row comes from"),
    },
    checks=[Check("initiative, engineers and remove_weakest effects give an amount", _amount)],
)
#: ``tables.toml``: the die tables (6.2, 6.5, 8.5, 5.2).
SCHEMA = schema.Table(
    {
        "drift": Field(
            ListOf(_row({"east": Field(Int(0, 9), "squares drifted east")}), min_len=1),
            "the Drift table (6.2)",
        ),
        "beach_disruption": Field(
            ListOf(
                _row(
                    {
                        "result": Field(Str(("none", "disrupted", "eliminated")), "the result"),
                        "initiative": Field(Int(-9, 9), "Initiative rating change", False),
                        "engineers": Field(Int(-9, 9), "Engineers rating change", False),
                    }
                ),
                min_len=1,
            ),
            "the Beach Disruption table (6.5)",
        ),
        "engineers": Field(
            ListOf(_row({"result": Field(Str(("success", "failure")), "the result")}), min_len=1),
            "the US Engineer table (8.5)",
        ),
        "random_events": Field(
            schema.Table(
                {t: Field(ListOf(EVENT_ROW, min_len=1), f"the {t} table") for t in TERRAINS},
                checks=[Check("one row for each roll 1-6", _one_row_a_roll)],
            ),
            "the Random Event tables of each terrain (5.2, 8.1.b)",
        ),
    },
    doc="The die tables.",
    checks=[_contiguous(k) for k in ("drift", "beach_disruption", "engineers")],
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
