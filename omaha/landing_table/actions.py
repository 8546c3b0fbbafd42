"""D-Day at Omaha Beach actions: small decisions of the one (US) player, in notation.

Landing: pick the hex of the landing box (``land A/116 at K5``), a Ranger's
voluntary drift (``drift 5Rgr-1 2``), whether a leader drifts with the unit he
is stacked with (``follow Cota yes``). German fire: pick, among units tied by
the selection priorities, the one hit (``hit E/16``). US actions, unit by unit:
``hold``, ``move``, ``attack`` (then ``add`` more attackers and ``resolve``,
with or without the Hero), ``barrage``, ``clear obstacles``; after some
attacks the optional attrition; ``end actions`` ends the phase.
"""

from __future__ import annotations

import attrs

from omaha.kernel.actions import Action


@attrs.frozen(cache_hash=True)
class Land(Action):
    notation = "land {unit} at {hex}"
    unit: str
    hex: str


@attrs.frozen(cache_hash=True)
class Drift(Action):
    notation = "drift {unit} {boxes}"
    unit: str
    boxes: int


@attrs.frozen(cache_hash=True)
class Follow(Action):
    notation = "follow {leader} {drift}"
    leader: str
    drift: bool


@attrs.frozen(cache_hash=True)
class Hit(Action):
    notation = "hit {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class Hold(Action):
    notation = "hold {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class Move(Action):
    notation = "move {unit} to {hex}"
    unit: str
    hex: str


@attrs.frozen(cache_hash=True)
class Attack(Action):
    notation = "attack {target} with {unit}"
    target: str
    unit: str


@attrs.frozen(cache_hash=True)
class Join(Action):
    notation = "add {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class Resolve(Action):
    notation = "resolve"


@attrs.frozen(cache_hash=True)
class ResolveHero(Action):
    notation = "resolve with hero"


@attrs.frozen(cache_hash=True)
class Barrage(Action):
    notation = "barrage {target} with {unit}"
    target: str
    unit: str


@attrs.frozen(cache_hash=True)
class Clear(Action):
    notation = "clear obstacles with {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class Attrition(Action):
    notation = "attrition {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class NoAttrition(Action):
    notation = "no attrition"


@attrs.frozen(cache_hash=True)
class EndActions(Action):
    notation = "end actions"


ACTIONS: tuple[type[Action], ...] = (
    Land,
    Drift,
    Follow,
    Hit,
    Hold,
    Move,
    Attack,
    Join,
    ResolveHero,
    Resolve,
    Barrage,
    Clear,
    Attrition,
    NoAttrition,
    EndActions,
)
