"""Bloody Omaha: what a choice names and does, told before it is made.

A card play (9.2): the card's title and the chosen option's window and effect. An
attack (8.4): the attacking units and tanks, the strength, the German defence when
every numerical token of the square is revealed (hidden tokens stay hidden: then
the defence is unknown and no odds are given), and the chance of each result over
the one d6 (8.4.d; -1 for mixed commands, 8.4.a). Card ids are cards, not squares:
``names`` leaves them out, and puts an attack's own square before its target.
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction

from omaha.bloody import rules
from omaha.bloody.actions import (
    AddSquare,
    Attack,
    PlayCard,
    PlayCardAt,
    ResolveAttack,
    ReturnCard,
)
from omaha.bloody.core import BloodyCore
from omaha.kernel.actions import Action
from omaha.kernel.facts import NO_FACTS, Facts, Names, chances_of, default_names


def names(st: BloodyCore, action: Action, piece_ids: Collection[str] | None) -> Names:
    """The squares and units an action names (cards left out; attacker first)."""
    if isinstance(action, Attack):
        return Names((action.square, action.target))
    if isinstance(action, PlayCardAt):
        return Names((action.square,))
    if isinstance(action, (PlayCard, ReturnCard)):
        return Names()
    return default_names(st, action, piece_ids)


def attack_facts(st: BloodyCore, target: int, squares: list[int]) -> Facts:
    """Strength, defence and the chance of each result of an attack on ``target``."""
    scen = st.scen
    units = [u for c in squares for u in st.units_at(c)]
    tanks = [t for u in units for t in st.tanks_of(u)]
    strength = sum(st.strength(u) for u in units) + scen.tank_strength * len(tanks)
    strength += st.attack_bonus
    mixed = rules.mixed_commands([scen.units[u].division for u in units])
    lines = [
        f"attackers from {', '.join(st.label(c) for c in squares)}: "
        + ", ".join(scen.units[u].id for u in units)
        + (f" + {len(tanks)} tank(s)" if tanks else ""),
        f"strength {strength}"
        + (f" (card {st.attack_bonus:+d})" if st.attack_bonus else "")
        + (", -1 on the die: mixed commands (8.4.a)" if mixed else ""),
    ]
    toks = st.tokens.get(target, [])
    hidden = any(not revealed for _, revealed in toks)
    if hidden:
        return Facts((*lines, "defence unknown: tokens not revealed (8.4.c)"), f"str {strength}")
    defence = st.defence(target)
    lines.append(f"defence {defence} (8.4.c); one d6 (8.4.d)")
    chances = chances_of(
        (rules.attack_result(d - (1 if mixed else 0) + strength, defence), 1) for d in range(1, 7)
    )
    win = sum((p for r, p in chances if r != rules.FAILURE), Fraction(0))
    return Facts(tuple(lines), f"{strength} v {defence} · {float(win):.0%}", chances)


def facts(st: BloodyCore, action: Action) -> Facts:
    """What ``action`` does (see the module doc)."""
    board = st.board
    if isinstance(action, ReturnCard):
        card = st.scen.cards[action.card]
        return Facts(
            (
                f"{action.card} {card.title}",
                *(f"option {k}: {o.describe()}" for k, o in enumerate(card.options, 1)),
            ),
            card.title,
        )
    if isinstance(action, (PlayCard, PlayCardAt)):
        card = st.scen.cards[action.card]
        opt = card.options[action.option - 1]
        return Facts((f"{action.card} {card.title}", f"option {action.option}: {opt.describe()}"),
                     card.title)  # fmt: skip
    if isinstance(action, Attack):
        return attack_facts(st, board.cell(action.target), [board.cell(action.square)])
    if isinstance(action, (AddSquare, ResolveAttack)) and st.attack_target >= 0:
        squares = list(st.attack_squares)
        if isinstance(action, AddSquare):
            squares.append(board.cell(action.square))
        return attack_facts(st, st.attack_target, squares)
    return NO_FACTS
