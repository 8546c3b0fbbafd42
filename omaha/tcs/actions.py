"""TCS Omaha actions, in player notation (see :mod:`omaha.kernel.actions`).

Set-up: the German places pill boxes and rocket pits (3.3g, 3.4) one by one, or
commits a whole set-up; the US commits a landing plan whole (2.1, 2.1h) or
builds it boat by boat, then picks the LCT(R) targets (2.2a) and, with the
option, the NFSTs (2.6d). During play: tide advances (1.12a), transports
(2.1m), A-20 loadouts and strikes (2.10), LCT(R) smoke checks (2.2a), landing
hexes where the rules give a choice (2.1l, 2.1m), overdraft steps (2.11) and
movement on the beach.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

from omaha.kernel.actions import Action

A = TypeVar("A", bound="TcsAction")
_INTERNED: dict[tuple[Any, ...], Action] = {}


class TcsAction(Action):
    """Base of the TCS actions: the notation is computed once per (interned) object.

    Legal-action lists are sorted by notation on every step, so the hot action
    kinds are built through :meth:`of`, which hands out one shared immutable
    object per value, and ``str`` caches its text on the object.
    """

    def __str__(self) -> str:
        text: str | None = self.__dict__.get("_text")
        if text is None:
            text = Action.__str__(self)
            object.__setattr__(self, "_text", text)
        return text

    @classmethod
    def of(cls: type[A], *args: Any) -> A:
        key = (cls, *args)
        hit = _INTERNED.get(key)
        if hit is None:
            if len(_INTERNED) > 200_000:
                _INTERNED.clear()
            hit = _INTERNED[key] = cls(*args)
        assert isinstance(hit, cls)
        return hit


# ---------------------------------------------------------------- German set-up
@attrs.frozen(slots=False, cache_hash=True)
class PlacePillbox(TcsAction):
    notation = "pillbox {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class PlaceRocketPit(TcsAction):
    notation = "rocket pit {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class UseSetup(TcsAction):
    """A shipped German set-up of the scenario (e.g. the historical positions)."""

    notation = "setup {name}"
    name: str


@attrs.frozen(slots=False, cache_hash=True)
class CommitSetup(TcsAction):
    """A whole German set-up (validated, not listed among the legal actions)."""

    notation = "setup pillboxes {pillboxes} pits {pits}"
    pillboxes: tuple[str, ...]
    pits: tuple[str, ...]


# ---------------------------------------------------------------- US plan
@attrs.frozen(slots=False, cache_hash=True)
class UsePlan(TcsAction):
    """A shipped landing plan of the scenario (e.g. the historical plan)."""

    notation = "plan {name}"
    name: str


@attrs.frozen(slots=False, cache_hash=True)
class CommitPlan(TcsAction):
    """A whole landing plan as tokens (validated, not listed among the legal actions)."""

    notation = "commit plan {tokens}"
    tokens: tuple[str, ...]


@attrs.frozen(slots=False, cache_hash=True)
class OpenBoat(TcsAction):
    """Start a boat of an assault wave bound for a beach box (an LCA starts a group)."""

    notation = "boat {wave} {kind} {box}"
    wave: int
    kind: str
    box: str


@attrs.frozen(slots=False, cache_hash=True)
class AddLca(TcsAction):
    notation = "add lca"


@attrs.frozen(slots=False, cache_hash=True)
class Load(TcsAction):
    notation = "load {unit}"
    unit: str


@attrs.frozen(slots=False, cache_hash=True)
class LoadSteps(TcsAction):
    """Part of a unit too large for one boat of this kind (2.1j)."""

    notation = "load {unit} {steps}"
    unit: str
    steps: int


@attrs.frozen(slots=False, cache_hash=True)
class CloseBoat(TcsAction):
    notation = "close boat"


@attrs.frozen(slots=False, cache_hash=True)
class EndPlan(TcsAction):
    notation = "end plan"


@attrs.frozen(slots=False, cache_hash=True)
class ClearPlan(TcsAction):
    """Discard the boats laid out so far and start the landing schematic again."""

    notation = "clear plan"


@attrs.frozen(slots=False, cache_hash=True)
class Rockets(TcsAction):
    notation = "rockets at {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class EndRockets(TcsAction):
    notation = "end rockets"


@attrs.frozen(slots=False, cache_hash=True)
class AssignNfst(TcsAction):
    notation = "nfst {battalion} {unit}"
    battalion: str
    unit: str


# ---------------------------------------------------------------- during play
@attrs.frozen(slots=False, cache_hash=True)
class Advance(TcsAction):
    """TCS Omaha 1.12a: the pieces of a hex the tide covers advance one hex."""

    notation = "advance {start} to {to}"
    start: str
    to: str


@attrs.frozen(slots=False, cache_hash=True)
class Overdraft(TcsAction):
    notation = "overdraft {unit}"
    unit: str


@attrs.frozen(slots=False, cache_hash=True)
class EndOverdraft(TcsAction):
    notation = "end overdraft"


@attrs.frozen(slots=False, cache_hash=True)
class OpenTransport(TcsAction):
    notation = "transport {kind} {box}"
    kind: str
    box: str


@attrs.frozen(slots=False, cache_hash=True)
class EndTransports(TcsAction):
    notation = "end transports"


@attrs.frozen(slots=False, cache_hash=True)
class AirLoadout(TcsAction):
    """TCS Omaha 2.10a: how many of the two A-20s are bomb laden (the rest gunships)."""

    notation = "a20 bombers {bombers}"
    bombers: int


@attrs.frozen(slots=False, cache_hash=True)
class SmokeCheck(TcsAction):
    notation = "smoke check {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class EndSmoke(TcsAction):
    notation = "end smoke"


@attrs.frozen(slots=False, cache_hash=True)
class LandAt(TcsAction):
    notation = "land {boat} at {hex}"
    boat: str
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class Strike(TcsAction):
    notation = "strike {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class BombHex(TcsAction):
    notation = "bomb {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class BombUnit(TcsAction):
    notation = "bomb unit {unit}"
    unit: str


@attrs.frozen(slots=False, cache_hash=True)
class HoldStrike(TcsAction):
    notation = "hold strike"


@attrs.frozen(slots=False, cache_hash=True)
class Select(TcsAction):
    notation = "select {unit}"
    unit: str


@attrs.frozen(slots=False, cache_hash=True)
class MoveTo(TcsAction):
    notation = "to {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class Stay(TcsAction):
    notation = "stay"


@attrs.frozen(slots=False, cache_hash=True)
class ExitWest(TcsAction):
    notation = "exit west"


@attrs.frozen(slots=False, cache_hash=True)
class EndAction(TcsAction):
    notation = "end action"


ACTIONS: tuple[type[Action], ...] = (
    PlacePillbox,
    PlaceRocketPit,
    CommitSetup,
    UseSetup,
    CommitPlan,
    UsePlan,
    OpenBoat,
    AddLca,
    LoadSteps,
    Load,
    CloseBoat,
    EndPlan,
    ClearPlan,
    Rockets,
    EndRockets,
    AssignNfst,
    Advance,
    Overdraft,
    EndOverdraft,
    OpenTransport,
    EndTransports,
    AirLoadout,
    SmokeCheck,
    EndSmoke,
    LandAt,
    Strike,
    BombUnit,
    BombHex,
    HoldStrike,
    Select,
    MoveTo,
    Stay,
    ExitWest,
    EndAction,
)
