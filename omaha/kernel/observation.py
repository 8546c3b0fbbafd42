"""Observations for agents: planes over the board's cells plus track values.

A game declares its layout per scenario (``Game.observation_layout``): named
planes (one float per cell: a side's strength, a piece kind, a marker, a hidden
token) and named tracks (one float each: turn, ratings, points). The
observation is one flat ``float32`` vector: the planes one after another in
cell-index order, then the tracks. Games fill it from their internal indices,
never from view strings, and reveal only what the player may see.

A game declares its observation (:class:`Declaration`): what each entity it has (a
unit, a cell, a track, a hand, a box) shows each viewpoint, as (index, value) pairs.
The kernel keeps it: the core's mutators note the entities they change in its
:class:`Journal`, and the kept board takes each noted entity's old contribution away
and adds its new one; the observation from scratch is the same declaration over
every entity.
"""

from __future__ import annotations

import array
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

Observation = npt.NDArray[np.float32]


@attrs.frozen
class ObservationLayout:
    """Which number of the observation vector means what."""

    cells: int
    planes: tuple[str, ...]
    tracks: tuple[str, ...] = ()
    meanings: tuple[tuple[str, str], ...] = ()  # (plane or track, what its values mean)
    #: Where each plane starts and where each track is, by name.
    at: dict[str, int] = attrs.field(init=False, eq=False, repr=False)

    @at.default
    def _offsets(self) -> dict[str, int]:
        first = len(self.planes) * self.cells  # the first track's index
        at = {name: i * self.cells for i, name in enumerate(self.planes)}
        at.update((name, first + i) for i, name in enumerate(self.tracks))
        if len(at) != len(self.planes) + len(self.tracks):
            raise ValueError("plane and track names must be distinct")
        return at

    @classmethod
    def named(
        cls, cells: int, planes: Sequence[tuple[str, str]], tracks: Sequence[tuple[str, str]]
    ) -> ObservationLayout:
        """The layout of ``planes`` and ``tracks``, each given as (name, meaning)."""
        names = tuple(name for name, _ in planes), tuple(name for name, _ in tracks)
        return cls(cells, *names, meanings=(*planes, *tracks))

    @property
    def size(self) -> int:
        return self.cells * len(self.planes) + len(self.tracks)

    def zeros(self) -> Observation:
        return np.zeros(self.size, dtype=np.float32)

    def plane(self, obs: Observation, name: str) -> Observation:
        """The writable slice of ``obs`` for plane ``name`` (indexed by cell)."""
        i = self.planes.index(name)
        return obs[i * self.cells : (i + 1) * self.cells]

    def track_index(self, name: str) -> int:
        return self.cells * len(self.planes) + self.tracks.index(name)

    def describe(self) -> str:
        """The layout in words, for the docs and for agent authors."""
        meaning = dict(self.meanings)
        lines = [f"{self.size} float32 values: {len(self.planes)} planes of {self.cells} cells"]
        for i, name in enumerate(self.planes):
            lo = i * self.cells
            lines.append(f"  [{lo}:{lo + self.cells}] plane {name}: {meaning.get(name, '')}")
        for name in self.tracks:
            lines.append(f"  [{self.track_index(name)}] track {name}: {meaning.get(name, '')}")
        return "\n".join(lines)


# ----------------------------------------------------------------------------
# The declaration a game gives, and the kept observation the kernel makes of it
# ----------------------------------------------------------------------------
#: What one entity shows a viewpoint: (index into the vector, value) pairs, added into
#: the observation. Values are exact in float32, and where several entities (or pairs)
#: add into one index they are whole numbers, so taking a contribution away and adding
#: another leaves exactly what adding every entity afresh gives.
Shown = tuple[tuple[int, float], ...]


class Journal(set[Hashable]):
    """The entities changed since the kept boards were brought up to date, and the
    kept boards (one per viewpoint observed). A core holds one in ``journal`` while
    someone observes it (None otherwise); its mutators note what they change with one
    call, ``journal.add(entity)``, after one ``is None`` test.

    A clone's journal (:meth:`copy`) shares the boards until one of the two changes
    them. Pickled, it is an empty journal without boards: they are built again at
    next use (the boards are a cache of what the core's fields give)."""

    __slots__ = ("boards",)

    def __init__(self) -> None:
        super().__init__()
        self.boards: dict[str | None, _Board] = {}

    def copy(self) -> Journal:
        twin = Journal()
        twin.update(self)
        for board in self.boards.values():
            board.shared = True
        twin.boards = dict(self.boards)
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Journal:
        return self.copy()

    def __reduce__(self) -> tuple[type[Journal], tuple[()]]:
        return Journal, ()


def exact(value: float) -> float:
    """``value`` rounded to float32 (what the vector holds): a fraction shown this way
    is taken away exactly."""
    return float(np.float32(value))


class _Board:
    """One viewpoint's kept observation: the vector (written through ``values``, an
    array of float32 whose items are cheap to change one by one; ``array`` is numpy's
    view of it) and what each entity shows in it."""

    __slots__ = ("array", "shared", "shown", "values")

    def __init__(self, values: array.array[float], shown: dict[Hashable, Shown]) -> None:
        self.values = values
        self.array: Observation = np.frombuffer(values, np.float32)
        self.shown = shown
        self.shared = False

    def copy(self) -> _Board:
        return _Board(array.array("f", self.values), dict(self.shown))


class Observed(Protocol):
    """A core whose observation is declared: it holds the journal."""

    journal: Journal | None


C = TypeVar("C", bound=Observed)


class Declaration(Generic[C]):
    """What a game declares of its observation; the kernel keeps it.

    A game subclasses this and writes :meth:`entities` (everything that shows
    something: units, cells, tracks, hands, boxes, each a hashable key) and
    :meth:`shown` (what one entity shows a viewpoint: its :data:`Shown` pairs; what is
    hidden from that viewpoint is left out or shown as the marker of a hidden thing);
    :meth:`viewpoint` when some players see alike; :meth:`finish` for what is written
    at each call (the decision in progress, whose observation it is).

    The kernel does the rest: :meth:`fresh` adds every entity's contribution to zeros;
    :meth:`observation` keeps one board per viewpoint on the core's journal and, for
    each entity the core's mutators noted, takes its old contribution away and adds
    its new one. So the kept and the fresh observation are the same sums. :meth:`of`
    makes a game's declaration once per scenario (the constructor takes the scenario);
    a state mixes in :class:`Observing` to hand its observation to it.
    """

    layout: ObservationLayout
    #: What every observation of the scenario shows alike (the printed map, the game's
    #: length): every board starts from it. Set by a game that has such a part.
    printed: Shown = ()
    _start: array.array[float] | None = None  # the printed part as a board, made once

    def __init__(self, scenario: Any = None) -> None:
        """A game's declaration reads what it needs of ``scenario`` here."""

    @classmethod
    def of(cls, scenario: Any) -> Self:
        """The declaration of ``scenario`` (made once, kept on it: ``Scenario.declaration``)."""
        found = scenario.declaration
        if found is None:
            found = scenario.declaration = cls(scenario)
        assert isinstance(found, cls)
        return found

    def entities(self, core: C) -> Iterable[Hashable]:
        raise NotImplementedError

    def shown(self, core: C, entity: Hashable, viewpoint: str | None) -> Shown:
        raise NotImplementedError

    def viewpoint(self, player: str) -> str | None:
        """The viewpoint ``player`` observes from: players shown the same of every
        entity share one (None: everything is open to everyone)."""
        return player

    def finish(self, core: C, player: str, out: Observation) -> None:
        """Write what changes at every call into ``out`` (a fresh copy of the board:
        entries no entity shows are 0, so this sets them, or adds to what the entities
        count): by default nothing."""

    # -- the kernel's part --------------------------------------------------------
    def fresh(self, core: C, player: str) -> Observation:
        """The observation from nothing: every entity's contribution, then :meth:`finish`."""
        obs = self._build(core, self.viewpoint(player)).array.copy()
        self.finish(core, player, obs)
        return obs

    def observation(self, core: C, player: str) -> Observation:
        """:meth:`fresh`'s numbers, from the board kept on the core (a new array)."""
        obs = self._board(core, self.viewpoint(player)).array.copy()
        self.finish(core, player, obs)
        return obs

    def observation_into(self, core: C, player: str, out: Observation) -> None:
        """:meth:`observation` written into ``out``, with no array in between."""
        out[...] = self._board(core, self.viewpoint(player)).array
        self.finish(core, player, out)

    def _build(self, core: C, viewpoint: str | None) -> _Board:
        start = self._start
        if start is None:
            start = self._start = array.array("f", bytes(4 * self.layout.size))
            for i, v in self.printed:
                start[i] += v
        values = array.array("f", start)
        shown: dict[Hashable, Shown] = {}
        for entity in self.entities(core):
            now = self.shown(core, entity, viewpoint)
            if now:
                shown[entity] = now
                for i, v in now:
                    values[i] += v
        return _Board(values, shown)

    def _board(self, core: C, viewpoint: str | None) -> _Board:
        """The viewpoint's board, brought up to date (built when none is kept)."""
        journal = core.journal
        if journal is None:
            journal = core.journal = Journal()
        boards = journal.boards
        try:
            if journal:
                for vp, board in boards.items():
                    if board.shared:
                        board = boards[vp] = board.copy()
                    self._redo(core, journal, vp, board)
                journal.clear()
            kept = boards.get(viewpoint)
            if kept is None:
                kept = boards[viewpoint] = self._build(core, viewpoint)
        except BaseException:
            core.journal = None  # a board half brought up to date: built again next time
            raise
        return kept

    def _redo(self, core: C, changed: Iterable[Hashable], vp: str | None, board: _Board) -> None:
        values, shown = board.values, board.shown
        for entity in changed:
            now = self.shown(core, entity, vp)
            was = shown.get(entity, ())
            if now is was or now == was:
                continue
            if len(now) == len(was):  # pair by pair: only those that changed are redone
                for old, new in zip(was, now, strict=True):
                    if old != new:
                        values[old[0]] -= old[1]
                        values[new[0]] += new[1]
            else:
                for i, v in was:
                    values[i] -= v
                for i, v in now:
                    values[i] += v
            shown[entity] = now


class Observing:
    """Mixed into a game's state (before its core): the state's observation, written
    into a tensor or built from nothing, by its game's declaration (``declared``, a
    :class:`Declaration` subclass) of its scenario. A name that is not one of the
    game's players raises ValueError."""

    declared: ClassVar[type[Declaration[Any]]]
    scenario: Any
    game: Any

    def observation(self, player: str) -> Observation:
        """What ``player`` sees, as numbers (a new array each call)."""
        return self._declaration(player).observation(self, player)

    def observation_into(self, player: str, out: Observation) -> None:
        """:meth:`observation` written into ``out`` (such as an observer's tensor)."""
        self._declaration(player).observation_into(self, player, out)

    def fresh_observation(self, player: str) -> Observation:
        """:meth:`observation` built from nothing (the reference the kept one equals)."""
        return self._declaration(player).fresh(self, player)

    def _declaration(self, player: str) -> Declaration[Any]:
        if player not in self.game.players:
            raise ValueError(f"{player!r} is not a player of {self.game.name}")
        return self.declared.of(self.scenario)
