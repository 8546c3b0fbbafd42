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

import attrs

from omaha.kernel.actions import Action


@attrs.frozen
class Place(Action):
    notation = "place {unit} at {hex}"
    unit: str
    hex: str


@attrs.frozen
class Deploy(Action):
    """A whole set-up: ``unit@hex`` for every unit still to place (validated, not listed)."""

    notation = "deploy {placements}"
    placements: tuple[str, ...]


@attrs.frozen
class FireWith(Action):
    notation = "fire with {unit}"
    unit: str


@attrs.frozen
class Bombard(Action):
    notation = "bombard {hex}"
    hex: str


@attrs.frozen
class Target(Action):
    notation = "at {hex} {kind}"
    hex: str
    kind: str


@attrs.frozen
class AddNgfs(Action):
    notation = "add ngfs"


@attrs.frozen
class AddBonus(Action):
    notation = "add bonus"


@attrs.frozen
class Add(Action):
    notation = "add {unit}"
    unit: str


@attrs.frozen
class Resolve(Action):
    notation = "resolve"


@attrs.frozen
class Cancel(Action):
    notation = "cancel"


@attrs.frozen
class OpFire(Action):
    notation = "opfire {unit} {kind}"
    unit: str
    kind: str


@attrs.frozen
class Pass(Action):
    notation = "pass"


@attrs.frozen
class Move(Action):
    notation = "move {unit}"
    unit: str


@attrs.frozen
class With(Action):
    notation = "with {unit}"
    unit: str


@attrs.frozen
class Step(Action):
    notation = "step {hex}"
    hex: str


@attrs.frozen
class Drop(Action):
    notation = "drop {unit}"
    unit: str


@attrs.frozen
class Stop(Action):
    notation = "stop"


@attrs.frozen
class Enter(Action):
    notation = "enter {unit} at {hex}"
    unit: str
    hex: str


@attrs.frozen
class Assault(Action):
    notation = "assault {hex}"
    hex: str


@attrs.frozen
class Lose(Action):
    notation = "lose {unit}"
    unit: str


@attrs.frozen
class Retreat(Action):
    notation = "retreat {unit} to {hex}"
    unit: str
    hex: str


@attrs.frozen
class Advance(Action):
    notation = "advance {unit}"
    unit: str


@attrs.frozen
class Stay(Action):
    notation = "stay"


@attrs.frozen
class Strike(Action):
    notation = "strike {hex}"
    hex: str


@attrs.frozen
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
