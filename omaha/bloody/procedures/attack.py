"""Bloody Omaha attacks (5.3.b, 8.4): choosing the squares, then one d6."""

from __future__ import annotations

from omaha.kernel.events import register_templates

from .. import rules
from ..core import BloodyCore
from .tokens import remove_token
from .units import hit, relocate

register_templates(
    {
        "bloody.text": "{text}",
        "bloody.attack.start": "{square} attacks {target} (1 Initiative)",
        "bloody.attack.add": "{square} joins the attack on {target} (1 Initiative)",
        "bloody.attack": "attack on {target}: {units} strength {strength} vs {defence}; "
        "d6 {roll}{mod} = {total}: {result}",
        "bloody.advance": "{units} advance from {start} into {target}",
    }
)


def start_attack(st: BloodyCore, target: int, square: int) -> None:
    """5.3.b, 8.4.a: the units of ``square`` attack the square ``target``."""
    st.set_attack(target, [square])
    st.note(
        "bloody.attack.start",
        "8.4.a",
        player="US",
        square=st.label(square),
        target=st.label(target),
    )


def add_square(st: BloodyCore, square: int) -> None:
    """8.4.a: the units of another adjacent square join the attack."""
    st.set_attack(st.attack_target, [*st.attack_squares, square])
    st.note(
        "bloody.attack.add",
        "8.4.a",
        player="US",
        square=st.label(square),
        target=st.label(st.attack_target),
    )


def attack_additions(st: BloodyCore) -> list[int]:
    """8.4.a: occupied squares next to the target that have not joined the attack yet."""
    occupied = st.occupied_land()
    return [
        nb
        for nb in st.scen.land_neighbours[st.attack_target]
        if nb in occupied and nb not in st.attack_squares
    ]


def resolve_attack(st: BloodyCore) -> None:
    """8.4: every unit of the chosen squares attacks; tanks add strength; one d6.

    Readings (READINGS.md, "Attacks"): the 8.4.d thresholds, the -1 for mixed commands.
    """
    scen = st.scen
    target = st.attack_target
    units = [u for c in st.attack_squares for u in st.units_at(c)]
    tanks = [t for u in units for t in st.tanks_of(u)]
    strength = sum(st.strength(u) for u in units) + scen.tank_strength * len(tanks)
    strength += st.attack_bonus
    defence = st.defence(target)
    mixed = rules.mixed_commands([scen.units[u].division for u in units])
    roll = st.dice.d6()
    modified = roll - (1 if mixed else 0)
    result = rules.attack_result(modified + strength, defence)
    extra = []
    if tanks:
        extra.append(f"{len(tanks)} tank(s)")
    if st.attack_bonus:
        extra.append(f"card {st.attack_bonus:+d}")
    st.note(
        "bloody.attack",
        "8.4",
        dice=[roll],
        player="US",
        target=st.label(target),
        units=[scen.units[u].id for u in units] + (["+" + ", ".join(extra)] if extra else []),
        strength=strength,
        defence=defence,
        roll=roll,
        mod=" -1 mixed commands" if mixed else "",
        total=modified + strength,
        result=result,
    )
    first = st.attack_squares[0]
    st.set_attack(-1, [])
    if result == rules.FAILURE:
        for u in units:
            hit(st, u, "8.4.d", "the attack failed")
        return
    for k in reversed(st.numerical(target)):
        remove_token(st, target, k, "8.4.d", "attack")
    if result == rules.SUCCESS_DISRUPTED:
        for u in units:
            hit(st, u, "8.4.d", "Success/Disrupted")
    movers = st.units_at(first)
    if st.tokens.get(target):
        st.note(
            "bloody.text",
            "8.4.d",
            player="US",
            text=f"{st.label(target)} still holds a German token: no advance",
        )
    elif movers:
        st.note(
            "bloody.advance",
            "8.4.d",
            player="US",
            units=[scen.units[u].id for u in movers],
            start=st.label(first),
            target=st.label(target),
        )
        for u in movers:
            relocate(st, u, target)
