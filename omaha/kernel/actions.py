"""Actions: frozen attrs classes that print in player notation and parse back.

A game declares each action class with a ``notation`` pattern, e.g.::

    @attrs.frozen
    class Fire(Action):
        notation = "fire {firers} at {target}"
        firers: tuple[str, ...]
        target: str

``str(action)`` fills the pattern (``fire 1/B/116,2/B/116 at J9``) and
:meth:`Action.parse` reads it back. Field types understood: ``str``, ``int``,
``bool``, ``tuple[str, ...]``, ``tuple[int, ...]`` and ``X | None``. A string
with spaces is written in double quotes; ``None`` is ``-``; a tuple is
comma-joined, ``[]`` when empty. Actions also serialize as tagged JSON
(``{"type": "Fire", "firers": [...], "target": "J9"}``).
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Iterable
from typing import Any, ClassVar, cast

import attrs
from attrs import AttrsInstance

from omaha.errors import IllegalAction, UnreadableAction

_TOKEN = r'("(?:[^"\\]|\\.)*"|\S+)'
_FIELD = re.compile(r"\{(\w+)\}")


#: The printed notation of each action value met: the one place notation is kept.
#: Legal actions are sorted by it at every decision (:func:`in_notation_order`) and
#: formatting costs far more than a lookup. Keyed by value (actions are frozen, so an
#: entry never goes stale, and equal actions made anew share it); emptied when full.
#: Safe under threads: each access is one dict operation, and a racing writer stores
#: the same text.
_NOTATION: dict[Action, str] = {}
_NOTATION_CAP = 200_000


class Action:
    """Base of every game action (subclasses are frozen attrs classes)."""

    notation: ClassVar[str] = ""

    def __str__(self) -> str:
        try:
            return _NOTATION[self]
        except KeyError:
            pass
        except TypeError:  # a mistyped, unhashable field: print it, do not keep it
            return self._notation()
        text = self._notation()
        if len(_NOTATION) >= _NOTATION_CAP:
            _NOTATION.clear()
        _NOTATION[self] = text
        return text

    def _notation(self) -> str:
        values = {f.name: getattr(self, f.name) for f in _fields(type(self))}
        return _FIELD.sub(lambda m: _format(values[m.group(1)]), type(self).notation)

    def __deepcopy__(self, memo: dict[int, Any]) -> Action:
        return self

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": type(self).__name__}
        for f in _fields(type(self)):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data

    @classmethod
    def parse(cls, text: str) -> Action | None:
        """Read this class's notation; None when ``text`` is not of this form."""
        pattern, names = _compiled(cls)
        m = pattern.fullmatch(text.strip())
        if m is None:
            return None
        hints = _hints(cls)
        try:
            values = {name: _read(m.group(i + 1), hints[name]) for i, name in enumerate(names)}
            return cls(**values)
        except (ValueError, TypeError):
            return None


def _fields(cls: type[Action]) -> tuple[attrs.Attribute[Any], ...]:
    return tuple(attrs.fields(cast("type[AttrsInstance]", cls)))


def _format(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "[]" if not value else ",".join(_format(v) for v in value)
    text = str(value)
    if not text or any(c.isspace() for c in text) or '"' in text or text in ("-", "[]"):
        return json.dumps(text)
    return text


def _read(token: str, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        if token == "-":
            return None
        inner = next(a for a in args if a is not type(None))
        return _read(token, inner)
    if origin is tuple:
        if token == "[]":
            return ()
        return tuple(_read(part, args[0]) for part in token.split(","))
    if hint is bool:
        if token not in ("yes", "no"):
            raise ValueError(token)
        return token == "yes"
    if hint is int:
        return int(token)
    if token.startswith('"'):
        value = json.loads(token)
        if not isinstance(value, str):
            raise ValueError(token)
        return value
    return token


_CACHE: dict[type, tuple[re.Pattern[str], list[str]]] = {}
_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def field_hints(cls: type[Action]) -> dict[str, Any]:
    """The declared type of every field of an action class, in field order."""
    hints = _hints(cls)
    return {f.name: hints[f.name] for f in _fields(cls)}


def _compiled(cls: type[Action]) -> tuple[re.Pattern[str], list[str]]:
    if cls not in _CACHE:
        if not cls.notation:
            raise TypeError(f"{cls.__name__} declares no notation")
        names: list[str] = []
        parts: list[str] = []
        pos = 0
        for m in _FIELD.finditer(cls.notation):
            parts.append(_literal(cls.notation[pos : m.start()]))
            parts.append(_TOKEN)
            names.append(m.group(1))
            pos = m.end()
        parts.append(_literal(cls.notation[pos:]))
        _CACHE[cls] = (re.compile("".join(parts)), names)
    return _CACHE[cls]


def _literal(text: str) -> str:
    return r"\s+".join(re.escape(w) for w in text.split(" ")) if text else ""


class ActionCodec:
    """Parses notation and tagged JSON for one game's action classes."""

    def __init__(self, classes: Iterable[type[Action]]) -> None:
        self.classes: tuple[type[Action], ...] = tuple(classes)
        self._by_name = {c.__name__: c for c in self.classes}
        if len(self._by_name) != len(self.classes):
            raise ValueError("two action classes share a name")

    def parse(self, text: str) -> Action:
        for cls in self.classes:
            action = cls.parse(text)
            if action is not None:
                return action
        forms = "; ".join(c.notation for c in self.classes)
        raise UnreadableAction(text, f"cannot read {text!r} as an action (forms: {forms})")

    def check(self, action: object) -> Action:
        """``action`` as one of this game's actions with every field of its declared type.

        Anything else (an object of another class, a list where a label belongs,
        bytes, a float, a bool for an int) raises :class:`IllegalAction` naming the
        field, before any rule code sees it.
        """
        cls = type(action)
        if not isinstance(action, Action) or self._by_name.get(cls.__name__) is not cls:
            hint = " (game.parse_action reads notation)" if isinstance(action, str) else ""
            raise IllegalAction(f"{action!r} is not an action of this game{hint}")
        hints = _hints(cls)
        for f in _fields(cls):
            value = getattr(action, f.name)
            if not _has_type(value, hints[f.name]):
                wanted = _type_name(hints[f.name])
                raise IllegalAction(f"{cls.__name__}.{f.name} = {value!r} is not of type {wanted}")
        return action

    def to_record(self, action: Action) -> str | dict[str, Any]:
        """How a game record keeps ``action``: its notation, or the tagged JSON form
        where the notation does not read back as the very same action."""
        text = str(action)
        try:
            if self.parse(text) == action:
                return text
        except IllegalAction:
            pass
        return action.to_data()

    def from_record(self, data: object) -> Action:
        """An action as a record keeps it: notation or tagged JSON (``ValueError`` if
        it is neither)."""
        return self.parse(data) if isinstance(data, str) else self.from_data(data)

    def from_data(self, data: object) -> Action:
        """An action from its tagged JSON form; ``ValueError`` saying what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"an action must be a JSON object, not {data!r}")
        name = data.get("type")
        cls = self._by_name.get(str(name))
        if cls is None:
            raise ValueError(f"unknown action type {name!r}")
        values = {}
        for f in _fields(cls):
            if f.name not in data:
                raise ValueError(f"action {name}: missing field {f.name!r}")
            value = data[f.name]
            values[f.name] = tuple(value) if isinstance(value, list) else value
        extra = set(data) - {"type"} - set(values)
        if extra:
            raise ValueError(f"action {name}: unknown field {sorted(extra)[0]!r}")
        try:
            return self.check(cls(**values))
        except IllegalAction as exc:
            raise ValueError(f"action {name}: {exc}") from None


def _has_type(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_has_type(value, a) for a in args)
    if hint is type(None):
        return value is None
    if origin is tuple:
        return isinstance(value, tuple) and all(_has_type(v, args[0]) for v in value)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (str, bool):
        return type(value) is hint
    return isinstance(value, hint) if isinstance(hint, type) else True


def _type_name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")


_DIGITS = re.compile(r"(\d+)")

#: A natural sort key: the text cut into its runs of digits and the rest, each run read
#: as a number (text at the even places, numbers at the odd ones, so any two compare),
#: then the text itself to order labels that differ only in leading zeros.
NaturalKey = tuple[tuple[str | int, ...], str]

#: The sort key of each action value met, made once from its notation (as ``_NOTATION``).
_SORT_KEY: dict[Action, NaturalKey] = {}


def natural_key(text: str) -> NaturalKey:
    """``text``'s place in natural order: ``A2`` before ``A10``, ``A9.10`` before
    ``A10.1``, and otherwise as text."""
    parts = _DIGITS.split(text)
    return tuple(int(p) if i % 2 else p for i, p in enumerate(parts)), text


def sort_key(action: Action) -> NaturalKey:
    """Legal actions are listed in the natural order of their notation (numbers in it
    read as numbers: ``place U at A2`` before ``place U at A10``); the key is made once
    per action value."""
    try:
        return _SORT_KEY[action]
    except KeyError:
        pass
    except TypeError:  # a mistyped, unhashable field: work it out, do not keep it
        return natural_key(str(action))
    key = natural_key(str(action))
    if len(_SORT_KEY) >= _NOTATION_CAP:
        _SORT_KEY.clear()
    _SORT_KEY[action] = key
    return key


def in_notation_order(actions: Iterable[Action]) -> list[Action]:
    """``actions`` sorted by :func:`sort_key`; once each has been keyed, by lookups in
    the key table alone."""
    listed = list(actions)
    try:
        return sorted(listed, key=_SORT_KEY.__getitem__)
    except (KeyError, TypeError):  # one keyed for the first time (or unhashable)
        return sorted(listed, key=sort_key)
