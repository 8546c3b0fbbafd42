"""The shape of a saved TCS state: what ``view.dump`` writes, key by key.

A snapshot is a file like any other component, and a tampered one is refused
before it is read (issue 10): :func:`check_snapshot` walks the ``state`` table
and raises :class:`Malformed` naming the first key that is missing, unknown,
of the wrong type or naming what the scenario does not have (a hex not on the
map, a unit or leader not in the order of battle). Whether the values agree
with each other and with the rules is :meth:`omaha.tcs.core.TcsCore.invariants`'
business, once the state is read.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import attrs


class Malformed(ValueError):
    """A saved state of the wrong shape; the message starts with the key path."""


@attrs.frozen
class Names:
    """What the names in a snapshot may be (from the scenario)."""

    cells: Collection[str]  # hex labels of the map
    places: Collection[str]  # where a unit may be besides a hex (await, lost, ...)
    units: Collection[str]
    leaders: Collection[str]
    sides: Collection[str]
    decisions: Collection[str]
    boat_kinds: Collection[str]
    calibres: Collection[str]
    leader_states: Collection[str]
    obstacle_states: Collection[str]
    statuses: range
    menus: Collection[str]


Check = Callable[[Any, str], None]


def bad(path: str, problem: str) -> Malformed:
    return Malformed(f"{path}: {problem}")


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_bool(value: Any, path: str) -> None:
    if type(value) is not bool:
        raise bad(path, f"{_shown(value)} is not true or false")


def is_int(value: Any, path: str) -> None:
    if type(value) is not int:
        raise bad(path, f"{_shown(value)} is not a whole number")


def is_count(value: Any, path: str) -> None:
    """A whole number from 0 to a bound no game reaches (a tampered 10**9 is refused)."""
    is_int(value, path)
    if not 0 <= value <= 9999:
        raise bad(path, f"{value} is out of range (0..9999)")


def is_str(value: Any, path: str) -> None:
    if type(value) is not str:
        raise bad(path, f"{_shown(value)} is not a text")


def one_of(choices: Collection[str], what: str) -> Check:
    def check(value: Any, path: str) -> None:
        is_str(value, path)
        if value not in choices:
            raise bad(path, f"{_shown(value)} is not {what}")

    return check


def optional(inner: Check) -> Check:
    def check(value: Any, path: str) -> None:
        if value is not None:
            inner(value, path)

    return check


def list_of(inner: Check, *, unique: bool = False, length: int | None = None) -> Check:
    def check(value: Any, path: str) -> None:
        if type(value) is not list:
            raise bad(path, f"{_shown(value)} is not a list")
        if length is not None and len(value) != length:
            raise bad(path, f"has {len(value)} entries, not {length}")
        for k, item in enumerate(value):
            inner(item, f"{path}[{k}]")
        if unique and len(set(map(str, value))) != len(value):
            raise bad(path, "names an entry twice")

    return check


def row(*checks: Check) -> Check:
    """A list of fixed length, each entry with its own check."""

    def check(value: Any, path: str) -> None:
        if type(value) is not list:
            raise bad(path, f"{_shown(value)} is not a list")
        if len(value) != len(checks):
            raise bad(path, f"has {len(value)} entries, not {len(checks)}")
        for k, (item, inner) in enumerate(zip(value, checks, strict=True)):
            inner(item, f"{path}[{k}]")

    return check


def dict_of(key: Check, inner: Check) -> Check:
    def check(value: Any, path: str) -> None:
        if type(value) is not dict:
            raise bad(path, f"{_shown(value)} is not a table")
        for k, item in value.items():
            key(k, f"{path} key")
            inner(item, f"{path}.{k}")

    return check


def table(required: dict[str, Check], optional_keys: dict[str, Check] | None = None) -> Check:
    """A table with exactly these keys (``optional_keys`` may be absent)."""
    maybe = optional_keys or {}

    def check(value: Any, path: str) -> None:
        if type(value) is not dict:
            raise bad(path, f"{_shown(value)} is not a table")
        for k in required:
            if k not in value:
                raise bad(f"{path}.{k}", "is missing")
        for k, item in value.items():
            inner = required.get(k) or maybe.get(k)
            if inner is None:
                raise bad(f"{path}.{k}", "is not part of a tcs snapshot")
            inner(item, f"{path}.{k}")

    return check


def anything(value: Any, path: str) -> None:
    """Values whose meaning the invariants check."""


def _number(value: Any, path: str) -> None:
    if type(value) not in (int, float) or value != value or value in (float("inf"), -float("inf")):
        raise bad(path, f"{_shown(value)} is not a number")


def tokens(value: Any, path: str) -> None:
    """A plan as short strings (``Plan.tokens``); what they say is checked on reading."""
    list_of(is_str)(value, path)


def state_shape(n: Names) -> Check:
    """The check of a whole ``state`` table."""
    cell = one_of(n.cells, "a hex of this map")
    unit = one_of(n.units, "a unit of this scenario")
    side = one_of(n.sides, "a side (US, German)")
    cells = list_of(cell)  # lists of hexes (an LCT(R) target may be named twice)
    cell_set = list_of(cell, unique=True)  # a set of hexes, written sorted
    units = list_of(unit, unique=True)
    where = one_of({*n.cells, *n.places}, "a hex of this map or a place off it")

    def status(value: Any, path: str) -> None:
        is_int(value, path)
        if value not in n.statuses:
            raise bad(
                path, f"{value} is not a fire-combat status (0 ok, 1 suppressed, 2 paralyzed)"
            )

    unit_row = row(
        where, is_count, is_bool, optional(is_str), is_bool, is_bool, status, is_bool, is_count
    )
    sd = table(
        {},
        {
            "ended": is_bool,
            "queue": list_of(cell),
            "done": _done,
            "menu": optional(one_of(n.menus, "a menu of the Action Phase")),
            "partial_kind": one_of(n.boat_kinds, "a boat kind"),
            "loadout": list_of(one_of(("bomb", "gunship"), "an aircraft loadout")),
            "side": side,
            "result": one_of(("none", "release", "variable"), "a release result"),
            # the guards that bound the interface's loops (READINGS.md, "Agents")
            "cancels": is_count,
            "closed": dict_of(one_of(n.menus, "a menu of the Action Phase"), list_of(is_count)),
        },
    )
    load = list_of(row(unit, is_count))
    return table(
        {
            "in_setup": is_bool,
            "turn": is_count,
            "cursor": is_count,
            "started": is_bool,
            "sd": sd,
            "wait": optional(row(one_of(n.decisions, "a kind of decision"), side, is_str)),
            "result": optional(row(optional(side), is_str, list_of(row(is_str, _number)), is_str)),
            "tide_hour": is_str,
            "units": dict_of(unit, unit_row),
            "moved": list_of(one_of({*n.units, *n.leaders}, "a unit or leader"), unique=True),
            "acted": units,
            "fired_point": units,
            "spared": units,
            "selected": optional(is_str),
            "free": units,
            "marked": units,
            "marked_point": units,
            "revealed": units,
            "road_moved": units,
            "fired_upon": units,
            "tested": units,
            "combat": optional(table({"side": side, "target": cell, "stacks": cells})),
            "trigger": optional(
                table(
                    {"side": side, "kind": one_of(("fire", "move"), "fire or move"), "at": cells},
                    {"unit": is_str},
                )
            ),
            "plan": optional(tokens),
            "draft": tokens,
            "open_boat": optional(
                table(
                    {
                        "wave": is_count,
                        "kind": one_of({*n.boat_kinds, "DD"}, "a boat kind"),
                        "box": is_str,
                        "lcas": is_count,
                        "load": load,
                    }
                )
            ),
            "partial": optional(unit),
            "counters": dict_of(is_str, is_count),
            "leaders": dict_of(
                one_of(n.leaders, "a leader of this scenario"),
                row(one_of(n.leader_states, "a leader's state"), optional(cell), optional(is_str)),
            ),
            "transports": dict_of(is_str, tokens),
            "transport_open": optional(
                table({"kind": one_of(n.boat_kinds, "a boat kind"), "box": is_str, "load": load})
            ),
            "landing": optional(
                table(
                    {
                        "kind": one_of(("assault", "transport"), "assault or transport"),
                        "fates": dict_of(is_str, is_str),
                        "choices": dict_of(is_str, cells),
                        "pools": dict_of(is_str, load),
                    },
                    {"wave": is_count, "turn": is_str},
                )
            ),
            "lctr_targets": cells,
            "lctr_done": is_bool,
            "smoke": cell_set,
            "smoke_sessions": list_of(
                table({"fire": is_count, "area": cells, "left": is_count, "checked": cells})
            ),
            "air": row(
                list_of(one_of(("bomb", "gunship"), "an aircraft loadout")),
                optional(side),
                list_of(
                    table(
                        {
                            "aircraft": is_count,
                            "kind": is_str,
                            "firepower": is_count,
                            "hit": is_count,
                        }
                    )
                ),
            ),
            "ammo": dict_of(
                one_of(n.calibres, "a calibre of this scenario"), list_of(is_count, length=3)
            ),
            "missions": list_of(is_str, unique=True),
            "nfst": dict_of(
                is_str, row(unit, one_of(("assigned", "working", "radio dead"), "an NFST status"))
            ),
            "overdraft": dict_of(is_str, is_count),
            "obstacles": dict_of(cell, one_of(n.obstacle_states, "an obstacle state")),
            "clear_from": dict_of(cell, is_count),
            "breaching": dict_of(cell, is_count),
            "breaches": dict_of(is_str, is_str),
            "breach_traffic": dict_of(is_str, is_count),
            "exits": dict_of(is_str, is_str),
            "company_morale": dict_of(is_str, is_count),
            "us_sheets": dict_of(is_str, is_count),
            "us_implemented": list_of(is_str, unique=True),
            "released": list_of(is_str, unique=True),
            "entered": dict_of(is_str, is_count),
            "german_sheets": list_of(is_str, unique=True),
            "batteries": dict_of(is_str, is_count),
            "stats": dict_of(is_str, is_count),
        },
        {
            "trps": cells,
            "illuminated": cell_set,
            "continued": optional(row(is_str, is_str, is_count, is_count, is_str)),
        },
    )


def _done(value: Any, path: str) -> None:
    """``done``: a flag (release) or the hexes whose mode was set (modes)."""
    if type(value) is bool:
        return
    list_of(is_str)(value, path)


def check_snapshot(data: Any, names: Names) -> None:
    """Refuse a saved ``state`` table of the wrong shape (:class:`Malformed`)."""
    state_shape(names)(data, "state")
