"""The scenario base every game's scenario record extends, and component provenance."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from omaha.kernel.board import Board
from omaha.kernel.data import Source


@attrs.frozen
class ProvenanceItem:
    """One component and where it comes from."""

    component: str
    key: str
    source: Source


def _items(items: Iterable[ProvenanceItem]) -> tuple[ProvenanceItem, ...]:
    return tuple(items)


@attrs.define(kw_only=True, eq=False)
class Scenario:
    """Loaded scenario data shared (never copied) by every state that uses it.

    A game extends it with its own typed fields (an attrs class built by the
    game's ``load_scenario``); the base carries the id, title, content hash,
    board and the provenance of every component.
    """

    id: str
    title: str
    hash: str
    board: Board
    provenance: tuple[ProvenanceItem, ...] = attrs.field(default=(), converter=_items)
    #: (name, text) of every file read that is not shipped with the game, the
    #: scenario file first: records embed them so a game replays anywhere
    files: tuple[tuple[str, str], ...] = ()
    #: The game's observation declaration for this scenario
    #: (:class:`~omaha.kernel.observation.Declaration`), made at its first use.
    declaration: Any = attrs.field(default=None, init=False, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> Scenario:
        return self

    def __copy__(self) -> Scenario:
        return self
