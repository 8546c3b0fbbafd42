"""Attacks the landing rules launch, and the interface that resolves them.

Part 1 of TCS Omaha computes everything up to an attack: the LCT(R) rounds per
hex of Area C (2.2), the A-20 strafes and area bombs (2.10a), and the battery
fires in the ammunition pool (2.9). Resolving them needs the TCS series fire
tables (area/point fire, HE against defence values), which are not in our
text and come with part 2. Until then a :class:`FireResolver` receives each
:class:`Attack`; the default, :class:`UnresolvedFire`, changes nothing and its
verdict "unresolved" goes into the log line of the attack.

Part 2 supplies a resolver (``TcsGame(resolver=...)``) that rolls the state's
dice and applies the result; everything upstream stays as it is. The bomb's
point-target alternative of 2.10a (a two-dice hit roll of 8+ kills) needs no
series table and is resolved by the game itself.
"""

from __future__ import annotations

from typing import Protocol

import attrs

from omaha.tcs.core import TcsCore


@attrs.frozen
class Attack:
    """One attack, ready to be resolved on the series tables."""

    source: str  # "LCT(R) 2", "A-20 1 (US)", ...
    weapon: str  # "155mm HE", "strafe", "bomb"
    firepower: int  # 0 when the weapon is a round type (155mm HE) rather than a value
    target: str  # hex label
    rounds: int  # rounds or passes delivered to the hex
    rule: str  # the rule that launched it


@attrs.frozen
class AttackResult:
    resolved: bool
    text: str


class FireResolver(Protocol):
    """Resolves attacks for a game in progress.

    It may roll ``core.dice``, change the game (part 2: steps lost, pill boxes
    destroyed) and log its own events; it returns a short verdict that the game
    writes into the event announcing the attack.
    """

    def resolve(self, core: TcsCore, attack: Attack) -> AttackResult: ...


class UnresolvedFire:
    """Part 1 default: every attack is recorded as unresolved (the tables are part 2)."""

    def resolve(self, core: TcsCore, attack: Attack) -> AttackResult:
        return AttackResult(False, "unresolved: TCS series fire tables (part 2)")


def resolve(core: TcsCore, attack: Attack) -> str:
    """Hand an attack to the game's fire resolver; returns its verdict."""
    resolver: FireResolver = getattr(core.game, "resolver", None) or UnresolvedFire()
    return resolver.resolve(core, attack).text
