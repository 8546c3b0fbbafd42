"""Ranks: the legal actions put in notation order by comparing integers.

Legal actions are listed in the natural order of their notation
(:func:`omaha.kernel.actions.sort_key`). Comparing those keys (tuples of text and
numbers) at every decision costs far more than comparing integers, so each
scenario keeps a :class:`Ranks` table: every action value met gets an integer once,
from its sort key, such that the integers are in the same order as the keys (equal
keys, equal integers). Sorting by rank is then exactly the sort by key, stable
included.

The integers are labels with gaps between them (an *order-maintenance* list): the
new keys of a listing that fall between the same two neighbours share their gap
evenly and, in the rare case that too few integers are left there, every label is
spread out again. Labels are
therefore only meaningful within one table and one moment; nothing outside this
module sees them.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Iterable

from omaha.kernel.actions import Action, NaturalKey, sort_key

#: The distance between two neighbouring labels after they are spread out (and past
#: the ends): room for about 64 halvings of a gap before the next spreading.
_GAP = 1 << 64
#: Entries a table keeps; when full it starts over (the order it gives is unchanged).
_CAP = 200_000


class Ranks:
    """Integer ranks of action values in natural notation order (one table per
    scenario, see :meth:`omaha.kernel.protocol.Game.ranks`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # new keys are inserted one thread at a time
        self._clear()

    def _clear(self) -> None:
        self._rank: dict[Action, int] = {}
        self._keys: list[NaturalKey] = []  # distinct sort keys met, ascending
        self._labels: list[int] = []  # their labels, strictly ascending

    def __len__(self) -> int:
        return len(self._rank)

    def order(self, actions: Iterable[Action]) -> list[Action]:
        """``actions`` sorted by :func:`~omaha.kernel.actions.sort_key`, by their ranks."""
        listed = list(actions)
        try:
            return sorted(listed, key=self._rank.__getitem__)
        except KeyError:  # an action met for the first time: rank it, then sort
            pass
        except TypeError:  # a mistyped, unhashable field: sort by key, keep nothing
            return sorted(listed, key=sort_key)
        with self._lock:
            if len(self._rank) + len(listed) > _CAP:
                self._clear()
            new = {action for action in listed if action not in self._rank}
            self._insert({sort_key(action) for action in new})
            keys, labels = self._keys, self._labels
            rank = self._rank
            for action in new:
                key = sort_key(action)
                rank[action] = labels[bisect.bisect_left(keys, key)]
            return sorted(listed, key=rank.__getitem__)

    def _insert(self, fresh: set[NaturalKey]) -> None:
        """Give labels to the keys of ``fresh`` not met yet: the ones that fall between
        the same two neighbours share that gap evenly (spread out again if too small)."""
        keys = self._keys
        runs: dict[int, list[NaturalKey]] = {}
        for key in fresh:
            i = bisect.bisect_left(keys, key)
            if i == len(keys) or keys[i] != key:
                runs.setdefault(i, []).append(key)
        for i in sorted(runs, reverse=True):  # from the end: lower places stay valid
            run = sorted(runs[i])
            low, high = self._room(i)
            step = (high - low) // (len(run) + 1)
            if step < 1:
                self._spread()
                low, high = self._room(i)
                step = (high - low) // (len(run) + 1)
            keys[i:i] = run
            self._labels[i:i] = [low + step * (k + 1) for k in range(len(run))]

    def _room(self, i: int) -> tuple[int, int]:
        """The labels keys inserted at place ``i`` must fall strictly between."""
        labels = self._labels
        low = labels[i - 1] if i else (labels[0] if labels else 0) - _GAP
        return low, labels[i] if i < len(labels) else low + _GAP

    def _spread(self) -> None:
        """Relabel every key ``_GAP`` apart (same order) and every action with it. The
        table is replaced, not edited, so a sort running meanwhile sees the old one."""
        new = {old: (i + 1) * _GAP for i, old in enumerate(self._labels)}
        self._labels = [new[old] for old in self._labels]
        self._rank = {action: new[old] for action, old in self._rank.items()}
