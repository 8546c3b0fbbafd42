"""Events: what happened, as data; the text is built when it is read.

Each game registers a template per event kind (``"lnl.fire": "{firers} fire at
{target}: {result}"``). An event records the turn (printed label), the phase,
the player, the rule it applies, the dice it shows and its details.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

_TEMPLATES: dict[str, str] = {}

JSONValue = str | int | float | bool | None | list[Any] | dict[str, Any]


def register_templates(templates: Mapping[str, str]) -> None:
    """Add templates for event kinds (a game module calls this at import)."""
    for kind, template in templates.items():
        old = _TEMPLATES.get(kind)
        if old is not None and old != template:
            raise ValueError(f"event kind {kind!r} already has another template")
        _TEMPLATES[kind] = template


register_templates(
    {
        "kernel.forced": "{action} (the only choice)",
        "kernel.note": "{text}",
    }
)


_NO_DETAILS: Mapping[str, Any] = MappingProxyType({})


class _Defaulting(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Event(NamedTuple):
    """One entry of a game log (an immutable tuple: the log is written once, often;
    a tuple is the cheapest record Python builds)."""

    kind: str
    turn: str
    phase: str
    player: str | None
    rule: str
    dice: tuple[int, ...] = ()
    details: Mapping[str, JSONValue] = _NO_DETAILS

    @property
    def text(self) -> str:
        """The event in words, from its kind's template and details."""
        template = _TEMPLATES.get(self.kind)
        if template is None:
            inner = ", ".join(f"{k}={v}" for k, v in sorted(self.details.items()))
            return f"{self.kind}: {inner}" if inner else self.kind
        return template.format_map(_Defaulting({k: _show(v) for k, v in self.details.items()}))

    def __str__(self) -> str:
        where = f"[{self.turn} · {self.phase}]"
        tail = []
        if self.dice:
            tail.append("dice " + " ".join(str(d) for d in self.dice))
        if self.rule:
            tail.append(self.rule)
        suffix = f"  ({'; '.join(tail)})" if tail else ""
        return f"{where} {self.text}{suffix}"

    def __deepcopy__(self, memo: dict[int, Any]) -> Event:
        return self

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "turn": self.turn,
            "phase": self.phase,
            "player": self.player,
            "rule": self.rule,
            "dice": list(self.dice),
            "details": dict(self.details),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Event:
        return cls(
            kind=str(data["kind"]),
            turn=str(data["turn"]),
            phase=str(data["phase"]),
            player=None if data["player"] is None else str(data["player"]),
            rule=str(data["rule"]),
            dice=tuple(int(d) for d in data["dice"]),
            details=dict(data["details"]),
        )


def _show(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_show(v) for v in value) if value else "none"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
