"""Bloody Omaha: the US player's decisions, each a small action in notation.

Set-up: ``return c07`` (4.5). Before the Drift rolls: ``play c12 option 1`` or
``continue`` (cards played at the landing moment). Random Event phase:
``random event B3 next to S4`` (5.2). Activation phase (5.3): ``move A/116 to S3``,
``attack S3 from B2`` then ``add B3`` ... ``resolve attack``, ``engineers at B2 with 2``,
``rally A/116``, ``tank tank1 to C/116``, ``release 1/18 to C24``,
``play c04 option 2 at S3``, ``end activation``.
"""

from __future__ import annotations

import attrs

from omaha.kernel.actions import Action


@attrs.frozen(cache_hash=True)
class ReturnCard(Action):
    """4.5: shuffle one of the three set-up cards back into the deck."""

    notation = "return {card}"
    card: str


@attrs.frozen(cache_hash=True)
class PlayCard(Action):
    """9.2: play one option of a card that needs no target."""

    notation = "play {card} option {option}"
    card: str
    option: int


@attrs.frozen(cache_hash=True)
class PlayCardAt(Action):
    """9.2: play one option of a card on a target square."""

    notation = "play {card} option {option} at {square}"
    card: str
    option: int
    square: str


@attrs.frozen(cache_hash=True)
class Continue(Action):
    """Close the card window before the Drift rolls."""

    notation = "continue"


@attrs.frozen(cache_hash=True)
class ChooseEvent(Action):
    """5.2: the US square and the adjacent German square a Random Event may hit."""

    notation = "random event {us} next to {german}"
    us: str
    german: str


@attrs.frozen(cache_hash=True)
class Move(Action):
    """5.3.a, 8.1: move a landed unit into an adjacent square (1 Initiative)."""

    notation = "move {unit} to {square}"
    unit: str
    square: str


@attrs.frozen(cache_hash=True)
class Attack(Action):
    """5.3.b, 8.4.a: attack a square of numerical tokens from an adjacent square (1 Initiative)."""

    notation = "attack {target} from {square}"
    target: str
    square: str


@attrs.frozen(cache_hash=True)
class AddSquare(Action):
    """8.4.a: add another adjacent square to the attack (1 more Initiative)."""

    notation = "add {square}"
    square: str


@attrs.frozen(cache_hash=True)
class ResolveAttack(Action):
    """8.4.b-d: roll the attack."""

    notation = "resolve attack"


@attrs.frozen(cache_hash=True)
class Engineers(Action):
    """5.3.c, 8.5: an engineer attempt on an obstacle or Mines token (1 Initiative, N assets)."""

    notation = "engineers at {square} with {assets}"
    square: str
    assets: int


@attrs.frozen(cache_hash=True)
class Rally(Action):
    """5.3.d: flip a disrupted unit to its full-strength side (1 Initiative)."""

    notation = "rally {unit}"
    unit: str


@attrs.frozen(cache_hash=True)
class MoveTank(Action):
    """5.3.e, 8.3: attach a Tank token to another unit (1 Initiative)."""

    notation = "tank {tank} to {unit}"
    tank: str
    unit: str


@attrs.frozen(cache_hash=True)
class Release(Action):
    """5.3.f: release a reinforcement to an entry square C19-C27 (1 Initiative, turn 3+)."""

    notation = "release {unit} to {square}"
    unit: str
    square: str


@attrs.frozen(cache_hash=True)
class EndActivation(Action):
    """End the Activation phase, keeping any Initiative left unspent."""

    notation = "end activation"


#: The action classes in the order of their notation (``add``, ``attack``, ``continue``,
#: ... ``tank``): the action numbering (``game.field_domains``) numbers them class by
#: class in this order, each class's actions in notation order, so an action's number is
#: its place among all of them in notation order (the two ``play`` forms excepted, whose
#: notations interleave card by card).
ACTIONS: tuple[type[Action], ...] = (
    AddSquare,
    Attack,
    Continue,
    EndActivation,
    Engineers,
    Move,
    PlayCardAt,
    PlayCard,
    Rally,
    ChooseEvent,
    Release,
    ResolveAttack,
    ReturnCard,
    MoveTank,
)
