"""TCS Omaha actions, in player notation (see :mod:`omaha.kernel.actions`).

Set-up: the German places pill boxes and rocket pits (3.3g, 3.4) one by one, or
commits a whole set-up; the US commits a landing plan whole (2.1, 2.1h) or
builds it boat by boat, then picks the LCT(R) targets (2.2a) and, with the
option, the NFSTs (2.6d). During play: tide advances (1.12a), transports
(2.1m), A-20 loadouts and strikes (2.10), LCT(R) smoke checks (2.2a), landing
hexes where the rules give a choice (2.1l, 2.1m), overdraft steps (2.11); the
German release (3.1) and op sheets (2.3a, 3.2); artillery and naval missions
(2.6, 2.8, 3.1); pill box conversions (3.3e); in the Action Phases movement,
fire combats, point fire, assaults, voluntary retreats and overwatch; beach
obstacle tests and breaching (2.4).
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

from omaha.kernel.actions import Action

A = TypeVar("A", bound="TcsAction")
_INTERNED: dict[tuple[Any, ...], Action] = {}


class TcsAction(Action):
    """Base of the TCS actions. The hot action kinds are built through :meth:`of`,
    which hands out one shared immutable object per value (its hash computed once)."""

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


@attrs.frozen(slots=False, cache_hash=True)
class AssignTrp(TcsAction):
    """TCS Omaha 2.8: a US Target Reference Point, assigned before set-up."""

    notation = "trp at {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class EndTrps(TcsAction):
    notation = "end trps"


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
class SelectStack(TcsAction):
    """Select the units of a stack that may move, to move them together."""

    notation = "select stack {hex}"
    hex: str


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


# ---------------------------------------------------------------- the battle
@attrs.frozen(slots=False, cache_hash=True)
class Release(TcsAction):
    """TCS Omaha 3.1: release an unreleased company on the map."""

    notation = "release {formation}"
    formation: str


@attrs.frozen(slots=False, cache_hash=True)
class ReleaseBattery(TcsAction):
    """TCS Omaha 3.1: release an off-map battery of the Battery Composition Chart."""

    notation = "release battery {battery}"
    battery: str


@attrs.frozen(slots=False, cache_hash=True)
class RollVariable(TcsAction):
    """TCS Omaha 3.1: roll on the second table for the unit available instead."""

    notation = "roll variable"


@attrs.frozen(slots=False, cache_hash=True)
class NoRelease(TcsAction):
    notation = "no release"


@attrs.frozen(slots=False, cache_hash=True)
class Enter(TcsAction):
    """TCS Omaha 3.1: a released reinforcement enters along the south edge."""

    notation = "enter {formation} at {hex}"
    formation: str
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class OpSheet(TcsAction):
    """TCS Omaha 2.3a: start implementing an op sheet for a company on the map."""

    notation = "op sheet {formation}"
    formation: str


@attrs.frozen(slots=False, cache_hash=True)
class EndSheets(TcsAction):
    notation = "end sheets"


@attrs.frozen(slots=False, cache_hash=True)
class Mission(TcsAction):
    """An artillery mission of a battery at a target hex (2.8, 2.9; 3.1 German batteries)."""

    notation = "mission {battery} at {hex}"
    battery: str
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class Naval(TcsAction):
    """TCS Omaha 2.6: the turn's destroyer mission at a target hex."""

    notation = "naval at {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class Illuminate(TcsAction):
    """At night a US battery fires an illumination round over a hex (2.9's illum
    rounds; the series' night rules, reconstructed)."""

    notation = "illuminate {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class EndMissions(TcsAction):
    notation = "end missions"


@attrs.frozen(slots=False, cache_hash=True)
class Convert(TcsAction):
    """TCS Omaha 3.3e: a pill box becomes its squad, in fire or move mode."""

    notation = "convert {unit} {mode}"
    unit: str
    mode: str


@attrs.frozen(slots=False, cache_hash=True)
class EndConversions(TcsAction):
    notation = "end conversions"


@attrs.frozen(slots=False, cache_hash=True)
class SetMode(TcsAction):
    """Mode Determination Phase: the units of a stack enter fire or move mode."""

    notation = "mode {hex} {mode}"
    hex: str
    mode: str


@attrs.frozen(slots=False, cache_hash=True)
class EndModes(TcsAction):
    notation = "end modes"


@attrs.frozen(slots=False, cache_hash=True)
class MoveMenu(TcsAction):
    """Action Phase: list the stacks (and US leaders) that may move."""

    notation = "move"


@attrs.frozen(slots=False, cache_hash=True)
class FireMenu(TcsAction):
    """Action Phase: list the hexes the side's area weapons can fire at."""

    notation = "fire"


@attrs.frozen(slots=False, cache_hash=True)
class PointMenu(TcsAction):
    """Action Phase: list the point weapons' shots."""

    notation = "point fire"


@attrs.frozen(slots=False, cache_hash=True)
class AssaultMenu(TcsAction):
    """Action Phase: list the assaults."""

    notation = "assault"


@attrs.frozen(slots=False, cache_hash=True)
class RetreatMenu(TcsAction):
    """Action Phase: list the voluntary retreats."""

    notation = "retreat"


@attrs.frozen(slots=False, cache_hash=True)
class Back(TcsAction):
    """Leave a list of the Action Phase without choosing from it."""

    notation = "back"


@attrs.frozen(slots=False, cache_hash=True)
class Target(TcsAction):
    """Open a fire combat against an enemy hex (series 11.0)."""

    notation = "target {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class With(TcsAction):
    """Add the area weapons of a stack to the open fire combat."""

    notation = "with {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class WithAll(TcsAction):
    """Add every stack that can fire at the target to the open fire combat."""

    notation = "every stack joins"


@attrs.frozen(slots=False, cache_hash=True)
class Resolve(TcsAction):
    notation = "resolve fire"


@attrs.frozen(slots=False, cache_hash=True)
class PointFire(TcsAction):
    """A point weapon fires at an enemy point target (series 12.0)."""

    notation = "point {unit} at {target}"
    unit: str
    target: str


@attrs.frozen(slots=False, cache_hash=True)
class Assault(TcsAction):
    """A stack assaults an adjacent enemy hex (series 22.0)."""

    notation = "assault {hex} from {start}"
    hex: str
    start: str


@attrs.frozen(slots=False, cache_hash=True)
class Retreat(TcsAction):
    """A voluntary SYR (2.3d, 1.13a)."""

    notation = "retreat {unit}"
    unit: str


@attrs.frozen(slots=False, cache_hash=True)
class OverwatchAt(TcsAction):
    """Answer the overwatch trigger in this hex (series 15.0), when several hexes
    triggered it (a fire combat of several stacks); the stack is chosen next."""

    notation = "overwatch at {at}"
    at: str


@attrs.frozen(slots=False, cache_hash=True)
class Overwatch(TcsAction):
    """The stack in ``start`` fires at the overwatch trigger (series 15.0)."""

    notation = "overwatch from {start}"
    start: str


@attrs.frozen(slots=False, cache_hash=True)
class NoOverwatch(TcsAction):
    notation = "no overwatch"


@attrs.frozen(slots=False, cache_hash=True)
class Test(TcsAction):
    """TCS Omaha 2.4a: test a beach obstacle hex."""

    notation = "test {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class Breach(TcsAction):
    """TCS Omaha 2.4b: begin breaching a mines and wire hex."""

    notation = "breach {hex}"
    hex: str


@attrs.frozen(slots=False, cache_hash=True)
class EndTests(TcsAction):
    notation = "end tests"


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
    SelectStack,
    Select,
    MoveTo,
    Stay,
    ExitWest,
    EndAction,
    ReleaseBattery,
    Release,
    RollVariable,
    NoRelease,
    Enter,
    OpSheet,
    EndSheets,
    Mission,
    Naval,
    EndMissions,
    Convert,
    EndConversions,
    SetMode,
    EndModes,
    MoveMenu,
    FireMenu,
    PointMenu,
    AssaultMenu,
    RetreatMenu,
    Back,
    Target,
    With,
    WithAll,
    Resolve,
    PointFire,
    Assault,
    Retreat,
    OverwatchAt,
    Overwatch,
    NoOverwatch,
    Test,
    Breach,
    EndTests,
    AssignTrp,
    EndTrps,
    Illuminate,
)
