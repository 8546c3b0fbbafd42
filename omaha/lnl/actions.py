"""LnL Omaha actions, each a small decision written in player notation.

Set-up and landings: ``place 1/B/116 at L5``; a whole set-up from a file is one
validated (not enumerated) ``deploy 1/1/916@J7,2/1/916@J9,...``.

Fire phase: ``fire with 1/B/116`` -> ``at J5 soft`` -> ``add 2/B/116`` /
``add ngfs`` / ``add bonus`` -> ``resolve`` (or ``cancel``); ``bombard J5`` starts
an NGFS-only attack. Opportunity fire after each hex a mover enters:
``opfire 1/1/916 soft`` ... ``resolve``, or ``pass``.

Movement: ``move 1/B/116`` (``with 2/B/116`` for stack-mates) -> ``step K6`` ...
``drop 2/B/116`` / ``stop``; reinforcements ``enter 1/916AT at A6``.

Close assault: ``assault J5`` -> ``add A/5Rgr`` ... -> ``resolve``.

After combat: ``lose 1/B/116`` (one step at a time), ``retreat 1/1/916 to I6``,
``advance A/5Rgr`` / ``stay``. Card events: ``strike J5`` / ``pass``.
Every phase ends with ``end phase``.
"""

from __future__ import annotations

import functools

import attrs

from omaha.kernel.actions import Action


@attrs.frozen(cache_hash=True)
class Place(Action):
    notation = "place {unit} at {hex}"
    unit: str
    hex: str


@attrs.frozen(cache_hash=True)
class Deploy(Action):
    """A whole set-up: ``unit@hex`` for every unit still to place (validated, not listed)."""

    notation = "deploy {placements}"
    placements: tuple[str, ...]


@attrs.frozen(cache_hash=True)
class FireWith(Action):
    notation = "fire with {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class Bombard(Action):
    notation = "bombard {hex}"
    hex: str


@attrs.frozen(cache_hash=True)
class Target(Action):
    notation = "at {hex} {kind}"
    hex: str
    kind: str


@attrs.frozen(cache_hash=True)
class AddNgfs(Action):
    notation = "add ngfs"


@attrs.frozen(cache_hash=True)
class AddBonus(Action):
    notation = "add bonus"


@attrs.frozen(cache_hash=True)
class Add(Action):
    notation = "add {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class Resolve(Action):
    notation = "resolve"


@attrs.frozen(cache_hash=True)
class Cancel(Action):
    notation = "cancel"


@attrs.frozen(cache_hash=True)
class OpFire(Action):
    notation = "opfire {unit} {kind}"
    unit: str
    kind: str


@attrs.frozen(cache_hash=True)
class Pass(Action):
    notation = "pass"


@attrs.frozen(cache_hash=True)
class Move(Action):
    notation = "move {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class With(Action):
    notation = "with {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class Step(Action):
    notation = "step {hex}"
    hex: str


@attrs.frozen(cache_hash=True)
class Drop(Action):
    notation = "drop {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class Stop(Action):
    notation = "stop"


@attrs.frozen(cache_hash=True)
class Enter(Action):
    notation = "enter {unit} at {hex}"
    unit: str
    hex: str


@attrs.frozen(cache_hash=True)
class Assault(Action):
    notation = "assault {hex}"
    hex: str


@attrs.frozen(cache_hash=True)
class Lose(Action):
    notation = "lose {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class Retreat(Action):
    notation = "retreat {unit} to {hex}"
    unit: str
    hex: str


@attrs.frozen(cache_hash=True)
class Advance(Action):
    notation = "advance {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class Stay(Action):
    notation = "stay"


@attrs.frozen(cache_hash=True)
class Strike(Action):
    notation = "strike {hex}"
    hex: str


@attrs.frozen(cache_hash=True)
class EndPhase(Action):
    notation = "end phase"


#: Parse order matters only where patterns overlap: ``add ngfs`` before ``add {unit}``.
ACTIONS: tuple[type[Action], ...] = (
    Place,
    Deploy,
    FireWith,
    Bombard,
    Target,
    AddNgfs,
    AddBonus,
    Add,
    Resolve,
    Cancel,
    OpFire,
    Pass,
    Move,
    With,
    Step,
    Drop,
    Stop,
    Enter,
    Assault,
    Lose,
    Retreat,
    Advance,
    Stay,
    Strike,
    EndPhase,
)


# Interned actions: the legal actions of every decision are built from these
# constructors, which hand back the same frozen object (its hash computed once) each
# time, so sorting by notation and the legality lookups hash and format nothing.
place = functools.cache(Place)
fire_with = functools.cache(FireWith)
bombard = functools.cache(Bombard)
target = functools.cache(Target)
add = functools.cache(Add)
opfire = functools.cache(OpFire)
move = functools.cache(Move)
with_ = functools.cache(With)
step = functools.cache(Step)
drop = functools.cache(Drop)
enter = functools.cache(Enter)
assault = functools.cache(Assault)
lose = functools.cache(Lose)
retreat = functools.cache(Retreat)
advance = functools.cache(Advance)
strike = functools.cache(Strike)
ADD_NGFS = AddNgfs()
ADD_BONUS = AddBonus()
RESOLVE = Resolve()
CANCEL = Cancel()
PASS = Pass()
STOP = Stop()
STAY = Stay()
END_PHASE = EndPhase()
