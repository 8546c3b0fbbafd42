"""Declarative schemas for data files: one spec gives the checks, every problem at
once, and the reference documentation.

A game describes each of its files (scenario, map, forces, deck, tables) as a
:class:`Table` of :class:`Field` s; :func:`validate` walks a parsed file and
returns every problem as a :class:`~omaha.errors.ScenarioError` naming the file,
the key path and what is wrong (not only the first); :func:`describe` writes the
reference the docs show. Cross-field rules (a turn within the game's length,
victory thresholds that differ, a unit listed once) are :class:`Check` s on a
table: small functions that report problems and document themselves.

    UNIT = Table({"id": Field(Str(), "the counter's id"), "steps": Field(Int(1, 4), "...")})
    SCENARIO = Table({"turns": Field(Int(1, 40), "game length"),
                      "units": Field(ListOf(UNIT, unique_by="id"), "the forces")})
    problems = validate(load_toml(path), SCENARIO)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.data import Node, parse_source

Problems = list[ScenarioError]


class Spec:
    """What a value must be."""

    def check(self, node: Node, problems: Problems) -> None:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


@attrs.frozen
class Str(Spec):
    """A string, optionally one of ``choices`` or matching ``pattern``."""

    choices: tuple[str, ...] = ()
    pattern: str = ""
    meaning: str = ""

    def check(self, node: Node, problems: Problems) -> None:
        if not isinstance(node.value, str):
            problems.append(node.error(f"expected a string, found {_kind(node.value)}"))
        elif self.choices and node.value not in self.choices:
            problems.append(node.error(f"{node.value!r} is not one of: {', '.join(self.choices)}"))
        elif self.pattern and not re.fullmatch(self.pattern, node.value):
            problems.append(node.error(f"{node.value!r} is not {self.meaning or 'well formed'}"))

    def describe(self) -> str:
        if self.choices:
            return "one of " + ", ".join(f"`{c}`" for c in self.choices)
        return f"string ({self.meaning})" if self.meaning else "string"


@attrs.frozen
class Int(Spec):
    low: int | None = None
    high: int | None = None

    def check(self, node: Node, problems: Problems) -> None:
        v = node.value
        if isinstance(v, bool) or not isinstance(v, int):
            problems.append(node.error(f"expected an integer, found {_kind(v)}"))
        elif (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
            problems.append(node.error(f"{v} is outside {self.describe_range()}"))

    def describe_range(self) -> str:
        lo = "" if self.low is None else str(self.low)
        hi = "" if self.high is None else str(self.high)
        return f"{lo}..{hi}"

    def describe(self) -> str:
        rng = self.describe_range()
        return "integer" + (f" in {rng}" if rng != ".." else "")


@attrs.frozen
class Num(Spec):
    low: float | None = None
    high: float | None = None

    def check(self, node: Node, problems: Problems) -> None:
        v = node.value
        if isinstance(v, bool) or not isinstance(v, int | float):
            problems.append(node.error(f"expected a number, found {_kind(v)}"))
        elif (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
            problems.append(node.error(f"{v} is outside {self.low}..{self.high}"))

    def describe(self) -> str:
        return "number"


@attrs.frozen
class Bool(Spec):
    def check(self, node: Node, problems: Problems) -> None:
        if not isinstance(node.value, bool):
            problems.append(node.error(f"expected true or false, found {_kind(node.value)}"))

    def describe(self) -> str:
        return "true or false"


@attrs.frozen
class Provenance(Spec):
    """Where a component comes from: a rule reference or ``reconstructed: <why>``."""

    def check(self, node: Node, problems: Problems) -> None:
        if not isinstance(node.value, str):
            problems.append(node.error(f"expected a string, found {_kind(node.value)}"))
            return
        try:
            parse_source(node.value)
        except ValueError as exc:
            problems.append(node.error(str(exc)))

    def describe(self) -> str:
        return "provenance: a rule reference, or `reconstructed: <why>`"


@attrs.frozen
class ListOf(Spec):
    """A list of ``item`` s; ``unique`` values, or tables unique by the key ``unique_by``."""

    item: Spec
    unique: bool = False
    unique_by: str = ""
    min_len: int = 0
    #: a single item may stand for a list of one (``hexes = "A1"``)
    single: bool = False

    def check(self, node: Node, problems: Problems) -> None:
        value = node.value
        if self.single and not isinstance(value, list):
            self.item.check(node, problems)
            return
        if not isinstance(value, list):
            problems.append(node.error(f"expected a list, found {_kind(value)}"))
            return
        if len(value) < self.min_len:
            problems.append(node.error(f"needs at least {self.min_len} entries, has {len(value)}"))
        seen: dict[Any, int] = {}
        for i, child in enumerate(node.as_list()):
            self.item.check(child, problems)
            key: Any = None
            if self.unique_by and isinstance(child.value, dict):
                key = child.value.get(self.unique_by)
                label = f"{self.unique_by} {key!r}"
            elif self.unique and isinstance(child.value, str | int):
                key = child.value
                label = repr(key)
            if key is None:
                continue
            if key in seen:
                problems.append(child.error(f"{label} is listed twice (also at [{seen[key]}])"))
            else:
                seen[key] = i

    def describe(self) -> str:
        extra = ", each once" if self.unique else ""
        extra += f", unique by `{self.unique_by}`" if self.unique_by else ""
        return f"list of {self.item.describe()}{extra}"


@attrs.frozen
class Field:
    """One key of a table: its spec, whether it must be there, and what it means."""

    spec: Spec
    doc: str
    required: bool = True
    default: Any = None


@attrs.frozen
class Check:
    """A rule across fields of one table: ``fn(node, problems)`` reports what breaks it."""

    doc: str
    fn: Callable[[Node, Problems], None]


@attrs.frozen
class Table(Spec):
    """A TOML table with known keys (unknown keys are reported: they are usually typos)."""

    fields: Mapping[str, Field]
    doc: str = ""
    checks: Sequence[Check] = ()
    open: bool = False  # accept keys not listed (e.g. a table keyed by unit id)
    values: Spec | None = None  # with ``open``: what every unlisted key holds

    def check(self, node: Node, problems: Problems) -> None:
        if not isinstance(node.value, dict):
            problems.append(node.error(f"expected a table, found {_kind(node.value)}"))
            return
        for name, fld in self.fields.items():
            child = node.get(name)
            if child is None:
                if fld.required:
                    problems.append(
                        ScenarioError(node.file, _path(node, name), "is required but missing")
                    )
                continue
            fld.spec.check(child, problems)
        for name, child in node.items():
            if name in self.fields:
                continue
            if self.open:
                if self.values is not None:
                    self.values.check(child, problems)
            else:
                known = ", ".join(sorted(self.fields))
                problems.append(child.error(f"unknown key (expected one of: {known})"))
        for check in self.checks:
            check.fn(node, problems)

    def describe(self) -> str:
        return "table"


def _path(node: Node, key: str) -> str:
    return f"{node.path}.{key}" if node.path else key


def validate(node: Node, spec: Spec) -> Problems:
    """Every problem of ``node`` against ``spec`` (empty when it is sound)."""
    problems: Problems = []
    spec.check(node, problems)
    return problems


def raise_first(problems: Iterable[ScenarioError]) -> None:
    """Raise the first problem, telling how many more there are."""
    found = list(problems)
    if not found:
        return
    first = found[0]
    more = (
        f" (and {len(found) - 1} more problems: omaha validate lists them)"
        if len(found) > 1
        else ""
    )
    raise ScenarioError(first.file, first.key, first.problem + more)


def describe(spec: Table, title: str, level: int = 2) -> str:
    """A Markdown reference of a table spec: every key, its type and meaning, the checks."""
    out: list[str] = []

    def table(t: Table, name: str, depth: int) -> None:
        out.append(f"{'#' * depth} {name}")
        out.append("")
        if t.doc:
            out.append(t.doc)
            out.append("")
        out.append("| key | type | required | meaning |")
        out.append("|---|---|---|---|")
        nested: list[tuple[str, Table]] = []
        for key, fld in t.fields.items():
            spec_ = fld.spec
            inner = spec_.item if isinstance(spec_, ListOf) else spec_
            kind = spec_.describe()
            if isinstance(inner, Table):
                nested.append((f"{name}.{key}" if name != title else key, inner))
                kind = "table (below)"
                if isinstance(spec_, ListOf):
                    kind = "list of tables (below)" + (
                        f", unique by `{spec_.unique_by}`" if spec_.unique_by else ""
                    )
            need = (
                "yes"
                if fld.required
                else f"no{f' (default {fld.default!r})' if fld.default is not None else ''}"
            )
            out.append(f"| `{key}` | {kind} | {need} | {fld.doc} |")
        if t.open:
            what = t.values.describe() if t.values is not None else "anything"
            out.append(f"| *other keys* | {what} | no | |")
        out.append("")
        for check in t.checks:
            out.append(f"- {check.doc}")
        if t.checks:
            out.append("")
        for sub_name, sub in nested:
            table(sub, sub_name, min(depth + 1, 6))

    table(spec, title, level)
    return "\n".join(out)
