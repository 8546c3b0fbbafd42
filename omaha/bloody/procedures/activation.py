"""Bloody Omaha Activation phase (5.3): what the US may do, what it costs, and why an
action is not legal now."""

from __future__ import annotations

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates

from .. import rules
from ..actions import (
    AddSquare,
    Attack,
    ChooseEvent,
    Engineers,
    Move,
    MoveTank,
    PlayCard,
    PlayCardAt,
    Rally,
    Release,
    ReturnCard,
)
from ..core import BOX, DEAD, TANKS, BloodyCore, Step
from .cards import playable_codes
from .engineers import engineer_targets

register_templates(
    {
        "bloody.release": "{unit} released from the Reinforcements box to {square}",
        "bloody.end_activation": "ends the Activation phase ({left} Initiative unspent)",
    }
)


def activation_actions(st: BloodyCore) -> list[int]:
    """5.3: end the phase, play a card, or (1 Initiative each) move, attack, engineer,
    rally, move a tank or release a reinforcement (codes of the catalogue)."""
    cat = st.catalogue
    out = [cat.end_activation]
    out.extend(playable_codes(st, "activation"))
    if st.init_token < 1:
        return out
    scen = st.scen
    land, neighbours = scen.land, scen.land_neighbours
    known = st.token_index().known_numerical
    releasing = st.turn >= rules.FIRST_RELEASE_TURN
    occupied = set()
    disrupted = st.disrupted
    for u, w in enumerate(st.where):
        if w in land:
            occupied.add(w)
            moves = cat.moves_from[u][w]
            if known.isdisjoint(neighbours[w]):
                out.extend(moves)
            else:
                out.extend(m for nb, m in zip(neighbours[w], moves, strict=True) if nb not in known)
            if disrupted[u]:
                out.append(cat.rally[u])
        elif w == BOX and releasing:
            out.extend(cat.release[u])
    for target in known:
        attacks = cat.attack[target]
        out.extend(attacks[nb] for nb in neighbours[target] if nb in occupied)
    if st.eng_token >= 1:
        for cell in engineer_targets(st):
            out.extend(cat.engineers[cell][: st.eng_token])
    for t, (tw, tu) in enumerate(st.tanks):
        if tw < 0:
            continue
        reach = st.tank_reach(tw)
        tank_moves = cat.move_tank[t]
        out.extend(tank_moves[u] for u, w in enumerate(st.where) if w in reach and u != tu)
    return out


def spend(st: BloodyCore) -> None:
    """5.3: every Activation phase action but a card costs 1 Initiative."""
    st.init_token -= 1


def release(st: BloodyCore, u: int, cell: int) -> None:
    """5.3.f: a reinforcement leaves the box for an entry square C19-C27."""
    st.set_where(u, cell)
    st.aim[u] = st.scen.column[cell]
    st.released += 1
    st.note("bloody.release", "5.3.f", player="US", unit=st.uid(u), square=st.label(cell))


def end_activation(st: BloodyCore) -> None:
    """5.3: the US ends the phase, keeping any Initiative left unspent."""
    st.note("bloody.end_activation", "5.3", player="US", left=st.init_token)


_ACTIVATION_ONLY = (Move, Rally, Attack, Engineers, MoveTank, Release)


def _squares(action: Action) -> tuple[str, ...]:
    """The square labels an action names."""
    match action:
        case Move(square=a) | AddSquare(square=a) | Engineers(square=a) | Release(square=a):
            return (a,)
        case PlayCardAt(square=a):
            return (a,)
        case Attack(target=a, square=b) | ChooseEvent(us=a, german=b):
            return (a, b)
    return ()


def unknown_name(st: BloodyCore, action: Action) -> str | None:
    """A square, unit, tank, card or option the action names that does not exist."""
    scen = st.scen
    for label in _squares(action):
        if not st.board.has(label):
            return f'"{label}" is not a square of this map'
    if isinstance(action, Move | Rally | Release | MoveTank) and action.unit not in scen.unit_index:
        return f'there is no unit "{action.unit}"'
    if isinstance(action, MoveTank) and action.tank not in TANKS[: scen.tank_count]:
        return f'there is no tank "{action.tank}" (tank1-tank{scen.tank_count})'
    if isinstance(action, PlayCard | PlayCardAt | ReturnCard):
        card = scen.cards.get(action.card)
        if card is None:
            return f'there is no card "{action.card}"'
        if not isinstance(action, ReturnCard) and not 1 <= action.option <= len(card.options):
            return f"{action.card} has no option {action.option} (1-{len(card.options)})"
    if isinstance(action, Engineers) and action.assets < 1:
        return "an engineer attempt uses at least 1 Engineer asset (8.5)"
    return None


def explain(st: BloodyCore, action: Action) -> str | None:
    """A player's explanation of why an action is not legal now, where we can say more."""
    scen = st.scen
    if st.result is not None:
        return None
    unknown = unknown_name(st, action)
    if unknown is not None:
        return unknown
    if isinstance(action, _ACTIVATION_ONLY) and st.step != Step.ACTIVATE:
        return f"'{action}' is an Activation phase action (now: {st.phase})"
    if isinstance(action, _ACTIVATION_ONLY) and st.init_token < 1:
        return "no Initiative left this turn (5.3)"
    if isinstance(action, Move):
        u = scen.unit_index[action.unit]
        w = st.where[u]
        if w == DEAD:
            return f"{action.unit} has been eliminated"
        if w == BOX:
            return f"{action.unit} is in the Reinforcements box: release it first (5.3.f)"
        if w in scen.channel:
            return f"{action.unit} is still at sea and cannot act until it lands (3.2.a)"
        to = st.board.cell(action.square)
        if to not in scen.land_neighbours[w]:
            return f"{action.square} is not next to {st.label(w)} (orthogonal moves only, 8.1)"
        if st.known_numerical(to):
            return f"{action.square} holds revealed German tokens: attack them (8.1.a, 8.4)"
    if isinstance(action, Release) and st.turn < rules.FIRST_RELEASE_TURN:
        return f"reinforcements may be released from turn {rules.FIRST_RELEASE_TURN} (5.3.f)"
    if isinstance(action, Engineers) and action.assets > st.eng_token:
        return f"only {st.eng_token} Engineer asset(s) left this turn (8.5)"
    if isinstance(action, Attack) and not st.known_numerical(st.board.cell(action.target)):
        return f"{action.target} shows no revealed numerical token to attack (5.3.b)"
    if isinstance(action, PlayCard | PlayCardAt) and action.card not in st.hand:
        return f"{action.card} is not in your hand"
    if isinstance(action, Rally) and not st.disrupted[scen.unit_index[action.unit]]:
        return f"{action.unit} is not disrupted"
    return None
