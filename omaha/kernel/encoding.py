"""A fixed numbering of a game's actions, for agents (PettingZoo, OpenSpiel).

A game declares the finite domain of every field of its actions for a scenario
(``Game.field_domains``): the unit ids, the cell labels, the card names, the
numbers a field may hold. The kernel numbers every action of every encodable
class once: classes in the game's order, each a block of the product of its
fields' domain sizes (mixed radix, first field most significant). The same
(game, scenario) always gives the same numbers, so an action id means the same
thing in every state: what agents need for a fixed ``Discrete`` action space and
a legal-action mask. (The CLI's numbered menu is a menu, not this.)

A class whose fields only go together in a few ways (an assault from a hex to a
neighbouring hex) may instead declare its joint domain under its class name: the
combinations of field values, one tuple each in field order (``"Assault": [("A1.02",
"A1.01"), ...]``); its block numbers those combinations, not the whole product.

Classes with a tuple field (whole plans such as a set-up) are not encoded: each
game offers a listed route to the same result (small steps, or a listed plan).
"""

from __future__ import annotations

import bisect
import math
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from omaha.kernel.actions import Action, field_hints

#: The most actions an encoding may number (masks stay cheap; TCS campaign maps A-C: 131,022).
MAX_ACTION_SIZE = 200_000


class EncodingError(ValueError):
    """An action that has no number in this encoding (or a number of no action)."""


@attrs.frozen
class _Block:
    cls: type[Action]
    offset: int
    names: tuple[str, ...]
    domains: tuple[tuple[Any, ...], ...]
    index: tuple[Mapping[Any, int], ...]
    size: int
    #: the declared combinations of a jointly numbered class (empty: the product)
    joint: tuple[tuple[Any, ...], ...] = ()
    joint_index: Mapping[tuple[Any, ...], int] = attrs.field(factory=dict)


def encodable(cls: type[Action]) -> bool:
    """Whether every field of ``cls`` is a scalar (no tuple-valued plan fields)."""
    return all(typing.get_origin(hint) is not tuple for hint in field_hints(cls).values())


def _domain(
    cls: type[Action], name: str, hint: Any, declared: Mapping[str, Sequence[Any]]
) -> tuple[Any, ...]:
    key = f"{cls.__name__}.{name}"
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType) and type(
        None
    ) in typing.get_args(hint)
    inner = (
        next((a for a in typing.get_args(hint) if a is not type(None)), hint) if optional else hint
    )
    if key in declared:
        values = tuple(declared[key])
    elif inner is bool:
        values = (False, True)
    elif name in declared:
        values = tuple(declared[name])
    else:
        raise EncodingError(f"no domain declared for {key} (declare {key!r} or {name!r})")
    if optional and None not in values:
        values = (None, *values)
    if len(set(values)) != len(values):
        raise EncodingError(f"the domain of {key} repeats a value")
    return values


def _joint_block(
    cls: type[Action], names: tuple[str, ...], combinations: Sequence[Any], offset: int
) -> _Block:
    """The block of a class numbered by its declared combinations of field values."""
    joint = tuple(tuple(c) for c in combinations)
    for c in joint:
        if len(c) != len(names):
            raise EncodingError(f"{cls.__name__}: {c!r} does not give one value per field {names}")
    index = {c: i for i, c in enumerate(joint)}
    if len(index) != len(joint):
        raise EncodingError(f"the joint domain of {cls.__name__} repeats a combination")
    return _Block(cls, offset, names, (), (), len(joint), joint, index)


class ActionSpace:
    """The numbering of one game's encodable actions for one scenario.

    Nothing about it changes once made (copies are the object itself), except one
    memo: each action value already numbered, with its number (:meth:`code_of`). It is
    a pure function's cache, so it needs no lock: a lookup or an insertion is one dict
    operation, which the interpreter makes atomic, and two threads that number the
    same action at once both store the same number. Equal actions have one number and
    unequal ones different numbers, so it never holds more than ``size`` entries.
    """

    def __init__(
        self, classes: Iterable[type[Action]], declared: Mapping[str, Sequence[Any]]
    ) -> None:
        blocks = []
        offset = 0
        for cls in filter(encodable, classes):
            hints = field_hints(cls)
            names = tuple(hints)
            if cls.__name__ in declared:
                block = _joint_block(cls, names, declared[cls.__name__], offset)
            else:
                domains = tuple(_domain(cls, n, hints[n], declared) for n in names)
                index = tuple({v: i for i, v in enumerate(d)} for d in domains)
                block = _Block(cls, offset, names, domains, index, math.prod(map(len, domains)))
            blocks.append(block)
            offset += block.size
        if offset > MAX_ACTION_SIZE:
            detail = ", ".join(f"{b.cls.__name__} {b.size:,}" for b in blocks)
            raise EncodingError(f"{offset:,} actions is more than {MAX_ACTION_SIZE:,} ({detail})")
        self.size = offset
        self._codes: dict[Action, int] = {}  # the memo: numbers by action value
        self._blocks = tuple(blocks)
        self._by_class = {b.cls: b for b in blocks}
        self._offsets = [b.offset for b in blocks]

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionSpace:
        return self  # adapters' states share it (OpenSpiel deep-copies states)

    def __copy__(self) -> ActionSpace:
        return self

    @property
    def classes(self) -> tuple[type[Action], ...]:
        return tuple(b.cls for b in self._blocks)

    def encode(self, action: Action) -> int:
        """The number of ``action``; ``EncodingError`` if it has none."""
        block = self._by_class.get(type(action))
        if block is None:
            raise EncodingError(f"{type(action).__name__} actions are not encoded")
        if block.joint:
            values = tuple(getattr(action, name) for name in block.names)
            try:
                return block.offset + block.joint_index[values]
            except (KeyError, TypeError):
                raise EncodingError(f"{action}: {values!r} is outside its domain") from None
        code = 0
        for name, index, domain in zip(block.names, block.index, block.domains, strict=True):
            value = getattr(action, name)
            try:
                position = index[value]
            except (KeyError, TypeError):
                raise EncodingError(f"{action}: {name} = {value!r} is outside its domain") from None
            code = code * len(domain) + position
        return block.offset + code

    def code_of(self, action: Action) -> int:
        """:meth:`encode`, remembered by value (agents ask for the numbers of the same
        legal actions decision after decision)."""
        try:
            return self._codes[action]
        except KeyError:
            code = self._codes[action] = self.encode(action)  # raises before storing
            return code
        except TypeError:  # a mistyped, unhashable field: encode says which
            return self.encode(action)

    def codes_of(self, listed: Sequence[Action]) -> list[int]:
        """:meth:`code_of` of each of ``listed``, in their order. When every one was
        numbered before (the usual case), one pass of dict lookups: for actions that
        cache their hash, and a game that hands out the same objects each time (the
        memo's own keys), that costs a hash call an action and no comparison."""
        try:
            return list(map(self._codes.__getitem__, listed))
        except (KeyError, TypeError):
            return [self.code_of(a) for a in listed]

    def decode(self, code: int) -> Action:
        """The action numbered ``code``; ``EncodingError`` outside ``0 .. size - 1``."""
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < self.size:
            raise EncodingError(f"{code!r} is not an action number (0 .. {self.size - 1})")
        block = self._blocks[bisect.bisect_right(self._offsets, code) - 1]
        rest = code - block.offset
        if block.joint:
            return block.cls(**dict(zip(block.names, block.joint[rest], strict=True)))
        values: list[Any] = []
        for domain in reversed(block.domains):
            rest, position = divmod(rest, len(domain))
            values.append(domain[position])
        return block.cls(**dict(zip(block.names, reversed(values), strict=True)))
