"""Bloody Omaha: moving into German squares, attacks, engineers and tank moves (8.0).

The Activation phase actions that resolve German tokens: a move reveals the
tokens of the square entered and resolves them (8.1, 8.2); an attack rolls one
die for every unit of the chosen squares against the sum of the numerical tokens
(8.4); an engineer attempt gaps an obstacle or clears Mines (8.5); a Tank token
moves along cleared squares to another unit (8.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omaha.kernel.events import register_templates

from . import effects as fx
from . import rules
from .effects import LOST
from .scenario import BEACH, MINES, SNIPER, STUG

if TYPE_CHECKING:
    from .state import BloodyState

register_templates(
    {
        "bloody.move": "{unit} moves {start} -> {end}",
        "bloody.blocked": "{unit} finds numerical tokens in {square} and stays in {start}",
        "bloody.mines": "{unit} crosses the minefield in {square}: d6 {roll}: {result}",
        "bloody.attack": "attack on {target}: {units} strength {strength} vs {defence}; "
        "d6 {roll}{mod} = {total}: {result}",
        "bloody.advance": "{units} advance from {start} into {target}",
        "bloody.engineers": "engineers at {square} ({what}) with {assets} asset(s): "
        "d6 {roll} {mods} = {total}: {result}",
        "bloody.tank.move": "{tank} moves from {start} to {unit} in {end}",
    }
)


# ------------------------------------------------------------------ movement (8.1, 8.2)
def move_into(st: BloodyState, u: int, to: int) -> None:
    """5.3.a, 8.1, 8.2: move into an adjacent square, revealing and resolving tokens.

    Reading (8.1.a): a unit that reveals numerical tokens does not enter: it stays
    where it was, disrupted, and the tokens must be attacked; a unit already
    disrupted stays disrupted (unlike 8.1.c and 8.4.d the text does not say it is
    eliminated). Reading (8.2): the non-numerical tokens are resolved first and
    leave the map (Mines stay); a unit enters only if no numerical token is left,
    so Mines under numerical tokens are found but not yet crossed.
    """
    spec = st.scen.units[u]
    start = st.where[u]
    labels = st.board.labels
    fx.reveal(st, to, "8.1", f"{spec.id} moves in")
    order = {SNIPER: 0, STUG: 1, "event": 2}
    for face in sorted({f for f, _ in st.tokens.get(to, ()) if f in order}, key=lambda f: order[f]):
        while st.where[u] >= 0:
            k = next((k for k, (f, _) in enumerate(st.tokens.get(to, ())) if f == face), None)
            if k is None:
                break
            if face == SNIPER:
                fx.change_token(st, "Initiative", -1, "8.1.d", "a sniper")
                fx.remove_token(st, to, k, "8.1.d", "the Sniper has fired")
            elif face == STUG:
                own = fx.tanks_of(st, u)
                if own:
                    st.tanks[own[0]] = [LOST, -1]
                    st.note(
                        "bloody.tank.lost",
                        "8.1.e",
                        player="US",
                        tank=fx.tank_name(own[0]),
                        unit=spec.id,
                        why="a StuG",
                    )
                else:
                    fx.disrupt(st, u, "8.1.e", "a StuG")
                fx.remove_token(st, to, k, "8.1.e", "the StuG has fired")
            else:
                fx.remove_token(st, to, k, "8.1.b", "the Random Event is resolved")
                fx.random_event(st, st.scen.kind[to], [u], to, to, "8.1.b")
    if st.where[u] < 0:
        return
    if fx.numerical(st, to):
        st.note(
            "bloody.blocked",
            "8.1.a",
            player="US",
            unit=spec.id,
            square=labels[to],
            start=labels[start],
        )
        fx.disrupt(st, u, "8.1.a", f"numerical tokens in {labels[to]}")
        return
    st.note("bloody.move", "5.3.a", player="US", unit=spec.id, start=labels[start], end=labels[to])
    fx.relocate(st, u, to)
    if fx.mines_present(st, to):
        roll = st.dice.d6()
        bad = roll <= rules.MINES_HIT_MAX
        was = st.disrupted[u]
        st.note(
            "bloody.mines",
            "8.1.c",
            dice=[roll],
            player="US",
            unit=spec.id,
            square=labels[to],
            roll=roll,
            result=("eliminated" if was else "disrupted") if bad else "no loss",
        )
        if bad:
            fx.hit(st, u, "8.1.c", "Mines")


# ------------------------------------------------------------------ attacks (8.4)
def resolve_attack(st: BloodyState) -> None:
    """8.4: every unit of the chosen squares attacks; tanks add strength; one d6."""
    scen = st.scen
    target = st.attack_target
    labels = st.board.labels
    units = [u for c in st.attack_squares for u in fx.units_at(st, c)]
    tanks = [t for u in units for t in fx.tanks_of(st, u)]
    strength = (
        sum(fx.strength(st, u) for u in units) + scen.tank_strength * len(tanks) + st.attack_bonus
    )
    defence = fx.defence(st, target)
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
        target=labels[target],
        units=[scen.units[u].id for u in units] + (["+" + ", ".join(extra)] if extra else []),
        strength=strength,
        defence=defence,
        roll=roll,
        mod=" -1 mixed commands" if mixed else "",
        total=modified + strength,
        result=result,
    )
    first = st.attack_squares[0]
    st.attack_target = -1
    st.attack_squares = []
    if result == rules.FAILURE:
        for u in units:
            fx.hit(st, u, "8.4.d", "the attack failed")
        return
    for k in reversed(fx.numerical(st, target)):
        fx.remove_token(st, target, k, "8.4.d", "attack")
    if result == rules.SUCCESS_DISRUPTED:
        for u in units:
            fx.hit(st, u, "8.4.d", "Success/Disrupted")
    movers = [u for u in fx.units_at(st, first)]
    if st.tokens.get(target):
        st.note(
            "bloody.text",
            "8.4.d",
            player="US",
            text=f"{labels[target]} still holds a German token: no advance",
        )
    elif movers:
        st.note(
            "bloody.advance",
            "8.4.d",
            player="US",
            units=[scen.units[u].id for u in movers],
            start=labels[first],
            target=labels[target],
        )
        for u in movers:
            fx.relocate(st, u, target)


# ------------------------------------------------------------------ engineers (8.5)
def engineer_attempt(st: BloodyState, cell: int, assets: int) -> None:
    """8.5: 1 Initiative and N Engineer assets; d6 on the US Engineer table."""
    st.eng_token -= assets
    beach = st.scen.kind[cell] == BEACH
    fire = beach and fx.under_fire(st, cell)
    mod = rules.engineer_modifier(st.turn, assets, fire)
    roll = st.dice.d6()
    row = st.scen.engineer_table.lookup(roll + mod)
    parts = []
    if st.turn <= 3:
        parts.append("+1 turn 1-3")
    if st.turn >= 6:
        parts.append("-1 turn 6+")
    if assets > 1:
        parts.append(f"-{assets - 1} extra assets")
    if fire:
        parts.append("+1 strongpoint fire")
    st.note(
        "bloody.engineers",
        "8.5",
        dice=[roll],
        player="US",
        square=st.board.labels[cell],
        what="Obstacle" if beach else "Mines",
        assets=assets,
        roll=roll,
        mods=", ".join(parts) or "no modifier",
        total=roll + mod,
        result=row.result,
    )
    if row.result != "success":
        return
    if beach:
        fx.make_gap(st, cell, "8.5.b", "engineers")
    else:
        k = next(k for k, (f, _) in enumerate(st.tokens[cell]) if f == MINES)
        fx.remove_token(st, cell, k, "8.5.b", "engineers clear the Mines")


# ------------------------------------------------------------------ tanks (8.3)
def move_tank(st: BloodyState, t: int, unit: str) -> None:
    u = st.scen.unit_index[unit]
    start = st.tanks[t][0]
    st.tanks[t] = [st.where[u], u]
    st.note(
        "bloody.tank.move",
        "5.3.e, 8.3",
        player="US",
        tank=fx.tank_name(t),
        start=st.board.labels[start],
        unit=unit,
        end=st.board.labels[st.where[u]],
    )
