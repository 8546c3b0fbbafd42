"""Time as data: the turn record track and a game's phase list.

Turn labels are kept as printed ("0640 6 June", "Turn 7"); flags mark what the
rules key on (``assault_wave``, ``hour``, ``tide``, ``night``...). Turns are
numbered from 1 in the API, as on a printed track.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from omaha.kernel.data import Node


@attrs.frozen
class Turn:
    label: str
    flags: frozenset[str] = frozenset()


@attrs.frozen
class TurnTrack:
    """The turns of a scenario and the phases of one turn."""

    turns: tuple[Turn, ...]
    phases: tuple[str, ...]

    @classmethod
    def numbered(
        cls,
        count: int,
        phases: Iterable[str],
        prefix: str = "Turn ",
        flags: dict[int, Iterable[str]] | None = None,
    ) -> TurnTrack:
        marks = flags or {}
        return cls(
            tuple(Turn(f"{prefix}{n}", frozenset(marks.get(n, ()))) for n in range(1, count + 1)),
            tuple(phases),
        )

    @classmethod
    def from_node(cls, node: Node) -> TurnTrack:
        """Read ``phases = [...]`` and ``turns = [{label, flags}, ...]`` (or ``count``)."""
        node.only({"phases", "turns", "count", "prefix", "source"})
        phases = tuple(node.req("phases").as_str_list())
        if not phases:
            raise node.req("phases").error("a turn needs at least one phase")
        if node.has("count"):
            count = node.req("count").as_int_in(1, 10_000)
            prefix = node.get("prefix")
            return cls.numbered(count, phases, prefix.as_str() if prefix else "Turn ")
        turns = []
        seen: set[str] = set()
        for tn in node.req("turns").as_list():
            tn.only({"label", "flags"})
            label = tn.req("label").as_str()
            if label in seen:
                raise tn.req("label").error(f"turn {label!r} appears twice")
            seen.add(label)
            flags = tn.get("flags")
            turns.append(Turn(label, frozenset(flags.as_str_list() if flags else ())))
        if not turns:
            raise node.req("turns").error("the track has no turns")
        return cls(tuple(turns), phases)

    def __len__(self) -> int:
        return len(self.turns)

    def label(self, number: int) -> str:
        """Printed label of turn ``number`` (1-based)."""
        return self.turns[number - 1].label

    def number(self, label: str) -> int:
        for i, turn in enumerate(self.turns, start=1):
            if turn.label == label:
                return i
        raise KeyError(f"no turn {label!r} on the track")

    def has(self, number: int, flag: str) -> bool:
        return flag in self.turns[number - 1].flags

    def with_flag(self, flag: str) -> tuple[int, ...]:
        return tuple(i for i, t in enumerate(self.turns, start=1) if flag in t.flags)

    def phase_index(self, phase: str) -> int:
        return self.phases.index(phase)
