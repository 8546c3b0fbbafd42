"""Attacks the landing rules launch, and the interface that resolves them.

The landing system computes everything up to an attack: the LCT(R) rounds per
hex of Area C (2.2) and the A-20 strafes and area bombs (2.10a). A
:class:`FireResolver` receives each :class:`Attack`; the game's default,
:class:`BattleResolver`, resolves it on the (reconstructed) series fire tables:
rockets as 155mm HE rounds (2.2b), strafes and bombs as area fire of their
firepower (2.10a) against the enemy's area targets (pill boxes never fall to
aircraft, 3.3d). ``TcsGame(resolver=...)`` may replace it (tests record the
attacks with their own); :class:`UnresolvedFire` changes nothing. The bomb's
point-target alternative of 2.10a (a two-dice hit roll of 8+ kills) needs no
series table and is resolved by the air rules themselves.
"""

from __future__ import annotations

from typing import Protocol

import attrs

from omaha.tcs.core import TcsCore
from omaha.tcs.procedures.combat import area_attack, area_hex_modifier, he_rounds


@attrs.frozen
class Attack:
    """One attack, ready to be resolved on the series tables."""

    source: str  # "LCT(R) 2", "A-20 1 (US)", ...
    weapon: str  # "155mm HE", "strafe", "bomb"
    firepower: int  # 0 when the weapon is a round type (155mm HE) rather than a value
    target: str  # hex label
    rounds: int  # rounds or passes delivered to the hex
    rule: str  # the rule that launched it
    side: str = "US"  # who attacks


@attrs.frozen
class AttackResult:
    resolved: bool
    text: str


class FireResolver(Protocol):
    """Resolves attacks for a game in progress.

    It may roll ``core.dice``, change the game (steps lost, pill boxes
    destroyed) and log its own events; it returns a short verdict that the game
    writes into the event announcing the attack.
    """

    def resolve(self, core: TcsCore, attack: Attack) -> AttackResult: ...


class UnresolvedFire:
    """Changes nothing: every attack is recorded as unresolved (for studying the landing
    system alone)."""

    def resolve(self, core: TcsCore, attack: Attack) -> AttackResult:
        return AttackResult(False, "unresolved")


class BattleResolver:
    """Resolves the landing system's attacks on the series fire tables (the default)."""

    def resolve(self, core: TcsCore, attack: Attack) -> AttackResult:
        cell = core.cell(attack.target)
        if attack.weapon.endswith("HE"):
            calibre = attack.weapon.split()[0]
            he_rounds(core, cell, attack.rounds, calibre, source=attack.source, rule=attack.rule)
            return AttackResult(True, "resolved")
        enemy = [i for i in core.units_at(cell) if core.side(i) != attack.side]
        modifier = area_hex_modifier(core, cell, forest=False, shingle=False)
        area_attack(
            core,
            cell,
            attack.firepower,
            modifier,
            targets=enemy,
            mortar=False,
            source=attack.source,
            rule=attack.rule,
        )
        return AttackResult(True, "resolved")


def resolve(core: TcsCore, attack: Attack) -> str:
    """Hand an attack to the game's fire resolver; returns its verdict."""
    resolver: FireResolver = getattr(core.game, "resolver", None) or BattleResolver()
    return resolver.resolve(core, attack).text
