"""Reading data files (TOML) into typed records with precise errors.

Every value read through a :class:`Node` knows its file and key path, so a
problem becomes ``omaha.ScenarioError`` naming file, key and problem, e.g.
``vierville.toml: units[3].hex: "Z99" is not on the map``. Components carry a
:class:`Source`: a rule reference, or ``reconstructed: <why>``.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.files import FileRefused, read_regular

RECONSTRUCTED = "reconstructed:"


@attrs.frozen
class Source:
    """Where a component comes from: a published rule, or a stated reconstruction."""

    text: str

    @property
    def reconstructed(self) -> bool:
        return self.text.startswith(RECONSTRUCTED)

    @property
    def reason(self) -> str:
        """Why a reconstruction was made (empty for published values)."""
        return self.text[len(RECONSTRUCTED) :].strip() if self.reconstructed else ""

    def __str__(self) -> str:
        return self.text


def parse_source(text: str) -> Source:
    """Validate a provenance string; raise ``ValueError`` with the problem."""
    text = text.strip()
    if not text:
        raise ValueError("source is empty: give a rule reference or 'reconstructed: <why>'")
    low = text.lower()
    if low.startswith("reconstructed") and not text.startswith(RECONSTRUCTED):
        raise ValueError(f"source {text!r} must read 'reconstructed: <why>'")
    if text.startswith(RECONSTRUCTED) and not text[len(RECONSTRUCTED) :].strip():
        raise ValueError("a reconstruction must say why: 'reconstructed: <why>'")
    return Source(text)


class Node:
    """A value from a data file together with its file name and key path."""

    __slots__ = ("file", "path", "value")

    def __init__(self, value: Any, file: str, path: str = "") -> None:
        self.value = value
        self.file = file
        self.path = path

    # -- errors -------------------------------------------------------------
    def error(self, problem: str) -> ScenarioError:
        return ScenarioError(self.file, self.path, problem)

    def _child_path(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    # -- tables -------------------------------------------------------------
    def _table(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise self.error(f"expected a table, found {_kind(self.value)}")
        return self.value

    def has(self, key: str) -> bool:
        return key in self._table()

    def req(self, key: str) -> Node:
        table = self._table()
        if key not in table:
            raise ScenarioError(self.file, self._child_path(key), "is required but missing")
        return Node(table[key], self.file, self._child_path(key))

    def get(self, key: str) -> Node | None:
        table = self._table()
        if key not in table:
            return None
        return Node(table[key], self.file, self._child_path(key))

    def keys(self) -> list[str]:
        return sorted(self._table())

    def items(self) -> Iterator[tuple[str, Node]]:
        for key in self.keys():
            yield key, Node(self._table()[key], self.file, self._child_path(key))

    def only(self, allowed: Iterable[str]) -> Node:
        """Reject unknown keys (catches typos such as ``terain``)."""
        allowed_set = set(allowed)
        for key in self.keys():
            if key not in allowed_set:
                known = ", ".join(sorted(allowed_set))
                raise ScenarioError(
                    self.file, self._child_path(key), f"unknown key (expected one of: {known})"
                )
        return self

    # -- scalars ------------------------------------------------------------
    def as_str(self) -> str:
        if not isinstance(self.value, str):
            raise self.error(f"expected a string, found {_kind(self.value)}")
        return self.value

    def as_int(self) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.error(f"expected an integer, found {_kind(self.value)}")
        return self.value

    def as_bool(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"expected true or false, found {_kind(self.value)}")
        return self.value

    def as_number(self) -> float:
        if isinstance(self.value, bool) or not isinstance(self.value, int | float):
            raise self.error(f"expected a number, found {_kind(self.value)}")
        return float(self.value)

    def as_list(self) -> list[Node]:
        if not isinstance(self.value, list):
            raise self.error(f"expected a list, found {_kind(self.value)}")
        return [Node(v, self.file, self._child_path(i)) for i, v in enumerate(self.value)]

    def as_str_list(self) -> list[str]:
        """A string or a list of strings, as a list."""
        if isinstance(self.value, str):
            return [self.value]
        return [n.as_str() for n in self.as_list()]

    def as_int_list(self) -> list[int]:
        return [n.as_int() for n in self.as_list()]

    def as_choice(self, options: Iterable[str]) -> str:
        text = self.as_str()
        opts = sorted(options)
        if text not in opts:
            raise self.error(f"{text!r} is not one of: {', '.join(opts)}")
        return text

    def as_int_in(self, low: int, high: int) -> int:
        value = self.as_int()
        if not low <= value <= high:
            raise self.error(f"{value} is outside {low}..{high}")
        return value

    def source(self, key: str = "source") -> Source:
        """The required provenance of this record."""
        node = self.req(key)
        text = node.as_str()
        try:
            return parse_source(text)
        except ValueError as exc:
            raise node.error(str(exc)) from None


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


def load_toml(path: str | Path) -> Node:
    """Parse a TOML file; an unreadable file, one that is not UTF-8 text or not valid
    TOML is a ``ScenarioError`` naming the file (a leading byte-order mark is allowed)."""
    p = Path(path)
    try:
        raw = read_regular(p)
    except FileRefused as exc:
        raise ScenarioError(p.name, "", str(exc)) from None
    except OSError as exc:
        raise ScenarioError(p.name, "", f"cannot be read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ScenarioError(
            p.name, "", f"is not UTF-8 text (byte {raw[exc.start]:#04x} on line {line})"
        ) from None
    return parse_toml(text, p.name)


def parse_toml(text: str, name: str) -> Node:
    """Parse TOML text; any problem is a ``ScenarioError`` naming ``name``."""
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(name, "", f"is not valid TOML ({exc})") from None
    except RecursionError:
        raise ScenarioError(name, "", "is not usable TOML (nested too deeply)") from None
    return Node(value, name, "")


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the form hashed and compared."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(*values: Any) -> str:
    """A short stable hash of parsed data (whitespace and key order do not matter)."""
    digest = hashlib.sha256()
    for value in values:
        digest.update(canonical_json(value).encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()[:16]
