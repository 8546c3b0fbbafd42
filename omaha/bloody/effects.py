"""Bloody Omaha: what happens to units, tokens and tanks, random events and card effects.

Functions here change a :class:`~omaha.bloody.state.BloodyState` in place and log
what they do; the state calls them from its phases and actions. Cells are board
indices, units indices into the scenario's unit list.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from omaha.kernel.events import register_templates

from .rules import EventEntry
from .scenario import BEACH, EVENT, MINES, face_value, is_strongpoint_token

if TYPE_CHECKING:
    from .state import BloodyState

BOX = -1  # unit in the Reinforcements box
DEAD = -2  # unit eliminated
ASIDE = -1  # tank set aside (4.3)
LOST = -2  # tank removed from play (8.1.e)

register_templates(
    {
        "bloody.text": "{text}",
        "bloody.hit": "{unit} in {square} {result} ({why})",
        "bloody.rally": "{unit} rallies to full strength ({why})",
        "bloody.reveal": "{square} revealed: {tokens} ({why})",
        "bloody.remove": "{token} removed from {square} ({why}): +{vp} VP",
        "bloody.gap": "Obstacle in {square} ({beach}) flipped to its Gap ({why}): +1 VP",
        "bloody.rating": "{what} {change}: now {value} ({why})",
        "bloody.tank.ashore": "{tank} comes ashore at {square}, with {unit} ({why})",
        "bloody.tank.pass": "{tank} stays in {square}{note}",
        "bloody.tank.attach": "{tank} in {square} joins {unit}",
        "bloody.tank.lost": "{tank} with {unit} is knocked out ({why})",
        "bloody.event": "Random Event, {table} table, d6 {roll}: {title} ({target})",
        "bloody.card": "plays {card} '{title}': {option}{target}",
    }
)


# --------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------
def strength(st: BloodyState, u: int) -> int:
    spec = st.scen.units[u]
    return spec.reduced if st.disrupted[u] else spec.full


def units_at(st: BloodyState, cell: int) -> list[int]:
    """Living units in a cell, in counter order."""
    return [u for u, w in enumerate(st.where) if w == cell]


def label(st: BloodyState, cell: int) -> str:
    return st.board.labels[cell]


def uid(st: BloodyState, u: int) -> str:
    return st.scen.units[u].id


def hit(st: BloodyState, u: int, rule: str, why: str) -> None:
    """Disrupt a unit, or eliminate it if already disrupted (8.1.c, 8.4.d, events)."""
    if st.disrupted[u]:
        eliminate(st, u, rule, why)
    else:
        disrupt(st, u, rule, why)


def disrupt(st: BloodyState, u: int, rule: str, why: str) -> None:
    if st.disrupted[u]:
        return
    st.disrupted[u] = True
    st.note(
        "bloody.hit",
        rule,
        player="US",
        unit=uid(st, u),
        square=_where(st, u),
        result="is disrupted",
        why=why,
    )


def eliminate(st: BloodyState, u: int, rule: str, why: str) -> None:
    cell = st.where[u]
    st.note(
        "bloody.hit",
        rule,
        player="US",
        unit=uid(st, u),
        square=_where(st, u),
        result="is eliminated",
        why=why,
    )
    st.where[u] = DEAD
    st.disrupted[u] = False
    st.eliminated.append(u)
    if cell >= 0:
        _leave_tanks(st, u, cell)


def rally(st: BloodyState, u: int, rule: str, why: str) -> None:
    if st.disrupted[u]:
        st.disrupted[u] = False
        st.note("bloody.rally", rule, player="US", unit=uid(st, u), why=why)


def _where(st: BloodyState, u: int) -> str:
    w = st.where[u]
    return label(st, w) if w >= 0 else "the Reinforcements box" if w == BOX else "-"


def relocate(st: BloodyState, u: int, to: int) -> None:
    """Put a unit in ``to``; its tanks follow when they may (8.3), waiting tanks join it."""
    old = st.where[u]
    st.where[u] = to
    if old >= 0:
        for t in tanks_of(st, u):
            if tank_may_step(st, old, to):
                st.tanks[t][0] = to
            else:
                _pass_tank(st, t, old, exclude=u)
    attach_waiting(st, to)


# --------------------------------------------------------------------------
# Tanks (8.3)
# --------------------------------------------------------------------------
def tank_name(t: int) -> str:
    return f"tank{t + 1}"


def tanks_of(st: BloodyState, u: int) -> list[int]:
    return [t for t, (w, unit) in enumerate(st.tanks) if w >= 0 and unit == u]


def tank_may_step(st: BloodyState, a: int, b: int) -> bool:
    """8.3: a tank moves only into cleared squares, and between the beach and the land
    beyond only through a cleared Exit square."""
    scen = st.scen
    if b not in scen.land or st.tokens.get(b):
        return False
    if a in scen.inland and b in scen.inland:
        return True
    if a not in scen.inland and b not in scen.inland:
        return True
    inland_side = b if b in scen.inland else a
    return inland_side in scen.exit_name and not st.tokens.get(inland_side)


def tank_reach(st: BloodyState, start: int) -> set[int]:
    """8.3, 5.3.e: the squares a tank reaches from ``start`` along cleared squares
    (no diagonals), its own square included."""
    seen = {start}
    todo = deque([start])
    while todo:
        a = todo.popleft()
        for b in st.scen.land_neighbours[a]:
            if b not in seen and tank_may_step(st, a, b):
                seen.add(b)
                todo.append(b)
    return seen


def _strongest(st: BloodyState, units: list[int]) -> int:
    return min(units, key=lambda u: (-strength(st, u), u))


def _pass_tank(st: BloodyState, t: int, cell: int, exclude: int) -> None:
    """Reading (8.3): a tank its unit cannot take along stays in its square with the
    strongest other unit there, or waits there for the next unit to arrive."""
    others = [v for v in units_at(st, cell) if v != exclude]
    st.tanks[t] = [cell, _strongest(st, others) if others else -1]
    note = f" with {uid(st, st.tanks[t][1])}" if others else ", waiting for a unit"
    st.note(
        "bloody.tank.pass",
        "8.3",
        player="US",
        tank=tank_name(t),
        square=label(st, cell),
        note=note,
    )


def _leave_tanks(st: BloodyState, u: int, cell: int) -> None:
    for t in tanks_of(st, u):
        _pass_tank(st, t, cell, exclude=u)


def attach_waiting(st: BloodyState, cell: int) -> None:
    """Tanks waiting without a unit in ``cell`` join the strongest unit there."""
    for t, (w, unit) in enumerate(st.tanks):
        if w == cell and unit < 0:
            here = units_at(st, cell)
            if here:
                st.tanks[t][1] = _strongest(st, here)
                st.note(
                    "bloody.tank.attach",
                    "8.3",
                    player="US",
                    tank=tank_name(t),
                    square=label(st, cell),
                    unit=uid(st, st.tanks[t][1]),
                )


def tank_landing_squares(st: BloodyState) -> list[int]:
    """8.3: Beach squares with a Gap and a US unit, where a Tank token may come ashore."""
    return [b for b in st.scen.beaches if st.gap[b] and units_at(st, b)]


def bring_tank_ashore(st: BloodyState, cell: int, rule: str, why: str) -> bool:
    """Place a set-aside Tank token on a gapped Beach square with a unit (8.3)."""
    aside = [t for t, (w, _) in enumerate(st.tanks) if w == ASIDE]
    here = units_at(st, cell)
    if not aside or not here or not st.gap.get(cell, False):
        return False
    t = aside[0]
    with_tanks = {unit for w, unit in st.tanks if w >= 0}
    free = [v for v in here if v not in with_tanks] or here
    u = _strongest(st, free)
    st.tanks[t] = [cell, u]
    st.note(
        "bloody.tank.ashore",
        rule,
        player="US",
        tank=tank_name(t),
        square=label(st, cell),
        unit=uid(st, u),
        why=why,
    )
    return True


# --------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------
def token_text(face: str) -> str:
    v = face_value(face)
    if is_strongpoint_token(face):
        return f"Strongpoint {v}"
    if v is not None:
        return f"Encounter {v}"
    return {"mines": "Mines", "sniper": "Sniper", "stug": "StuG", "event": "Random Event"}[face]


def reveal(st: BloodyState, cell: int, rule: str, why: str) -> None:
    toks = st.tokens.get(cell)
    if not toks or all(r for _, r in toks):
        return
    st.tokens[cell] = [(f, True) for f, _ in toks]
    st.note(
        "bloody.reveal",
        rule,
        player="US",
        square=label(st, cell),
        tokens=[token_text(f) for f, _ in toks],
        why=why,
    )


def remove_token(st: BloodyState, cell: int, k: int, rule: str, why: str) -> None:
    """Take token ``k`` of a square off the map, scoring it (2.3.b, 2.3.c)."""
    face, _ = st.tokens[cell].pop(k)
    sp = is_strongpoint_token(face)
    if sp:
        st.sp_removed += 1
    else:
        st.enc_removed += 1
    st.value_removed += face_value(face) or 0
    st.note(
        "bloody.remove",
        rule,
        player="US",
        token=token_text(face),
        square=label(st, cell),
        why=why,
        vp=2 if sp else 1,
    )
    if not st.tokens[cell]:
        st.note("bloody.text", "2.4", player="US", text=f"{label(st, cell)} is cleared")
        if cell in st.scen.exit_name:
            st.exit_turns.append(st.turn)


def numerical(st: BloodyState, cell: int) -> list[int]:
    """Indices of the numerical tokens of a square."""
    return [k for k, (f, _) in enumerate(st.tokens.get(cell, ())) if face_value(f) is not None]


def known_numerical(st: BloodyState, cell: int) -> bool:
    """Does the square show a revealed numerical token (so it must be attacked, 8.1.a)?"""
    return any(r and face_value(f) is not None for f, r in st.tokens.get(cell, ()))


def defence(st: BloodyState, cell: int) -> int:
    return sum(face_value(st.tokens[cell][k][0]) or 0 for k in numerical(st, cell))


def has_revealed(st: BloodyState, cell: int, face: str) -> bool:
    return any(r and f == face for f, r in st.tokens.get(cell, ()))


def make_gap(st: BloodyState, cell: int, rule: str, why: str) -> bool:
    if st.scen.kind[cell] != BEACH or st.gap[cell]:
        return False
    st.gap[cell] = True
    st.gaps_made += 1
    st.note(
        "bloody.gap",
        rule,
        player="US",
        square=label(st, cell),
        beach=st.scen.beach_name[cell],
        why=why,
    )
    return True


def uncleared(st: BloodyState, cell: int) -> bool:
    return bool(st.tokens.get(cell))


def under_fire(st: BloodyState, beach: int) -> bool:
    """6.5.a, 8.5.a: a Beach square joined by a gray arrow to an uncleared strongpoint."""
    return any(uncleared(st, sp) for sp in st.scen.arrows.get(beach, ()))


# --------------------------------------------------------------------------
# Ratings (7.0)
# --------------------------------------------------------------------------
def change_rating(st: BloodyState, which: str, change: int, rule: str, why: str) -> None:
    """7.4: move a square marker; never below 1 (nor past the end of the track)."""
    if which == "Initiative":
        old = st.init_rating
        st.init_rating = max(1, min(st.scen.track_max, old + change))
        value = st.init_rating
    else:
        old = st.eng_rating
        st.eng_rating = max(1, min(st.scen.track_max, old + change))
        value = st.eng_rating
    if value == old:
        st.note(
            "bloody.text",
            rule,
            player="US",
            text=f"{which} rating stays at {value} ({why}; never below 1, 7.4)",
        )
        return
    st.note(
        "bloody.rating",
        rule,
        player="US",
        what=f"{which} rating",
        change=f"{value - old:+d}",
        value=value,
        why=why,
    )


def change_token(st: BloodyState, which: str, change: int, rule: str, why: str) -> None:
    """Move a circular token (this turn's points); it may reach 0 (8.1.d)."""
    if which == "Initiative":
        old = st.init_token
        st.init_token = max(0, min(st.scen.track_max, old + change))
        value = st.init_token
    else:
        old = st.eng_token
        st.eng_token = max(0, min(st.scen.track_max, old + change))
        value = st.eng_token
    st.note(
        "bloody.rating",
        rule,
        player="US",
        what=f"{which} token",
        change=f"{value - old:+d}",
        value=value,
        why=why,
    )


# --------------------------------------------------------------------------
# Random events (5.2, 6.4, 8.1.b)
# --------------------------------------------------------------------------
def random_event(
    st: BloodyState, terrain: str, units: list[int], us_cell: int, g_cell: int | None, rule: str
) -> None:
    """Roll d6 on the terrain's Random Event table and resolve it at once.

    ``units`` are the US units the event may hit (the whole US square in the Random
    Event phase; the entering unit for a Random Event token), ``g_cell`` the German
    square it may hit.
    """
    roll = st.dice.d6()
    entry = st.scen.events[terrain][roll - 1]
    target = f"{label(st, us_cell)}" + (f" / {label(st, g_cell)}" if g_cell is not None else "")
    st.note(
        "bloody.event",
        rule,
        dice=[roll],
        player="US",
        table=terrain,
        roll=roll,
        title=entry.title,
        target=target,
    )
    why = f"random event: {entry.title}"
    before = len(st.log)
    _event_effect(st, entry, units, us_cell, g_cell, rule, why)
    if len(st.log) == before:
        st.note("bloody.text", rule, player="US", text="no effect")


def _event_effect(
    st: BloodyState,
    entry: EventEntry,
    units: list[int],
    us_cell: int,
    g_cell: int | None,
    rule: str,
    why: str,
) -> None:
    alive = [u for u in units if st.where[u] >= 0]
    eff = entry.effect
    if eff == "disrupt_all":
        for u in alive:
            hit(st, u, rule, why)
    elif eff == "disrupt_one":
        fresh = [u for u in alive if not st.disrupted[u]]
        if fresh:
            disrupt(st, _strongest(st, fresh), rule, why)
    elif eff == "drift":
        for u in alive:
            if st.where[u] in st.scen.channel:
                st.drift_unit(u, 1, why)
    elif eff == "initiative_now":
        change_token(st, "Initiative", entry.amount, rule, why)
    elif eff == "initiative":
        change_rating(st, "Initiative", entry.amount, rule, why)
    elif eff == "engineers":
        change_rating(st, "Engineers", entry.amount, rule, why)
    elif eff == "rally":
        for u in alive:
            rally(st, u, rule, why)
    elif eff == "reveal" and g_cell is not None:
        reveal(st, g_cell, rule, why)
    elif eff == "remove_weakest" and g_cell is not None:
        remove_weakest(st, g_cell, entry.amount, rule, why)
    elif eff == "gap" and g_cell is not None:
        make_gap(st, g_cell, rule, why)
    elif eff == "tank":
        squares = tank_landing_squares(st)
        if squares:
            near = min(squares, key=lambda b: (st.board.distance(b, us_cell), st.scen.column[b]))
            bring_tank_ashore(st, near, rule, why)


def remove_weakest(st: BloodyState, cell: int, most: int, rule: str, why: str) -> None:
    """An obstacle is gapped; otherwise the square is revealed and its lowest numerical
    token removed if it is worth ``most`` or less."""
    if st.scen.kind[cell] == BEACH:
        make_gap(st, cell, rule, why)
        return
    reveal(st, cell, rule, why)
    nums = [k for k in numerical(st, cell) if (face_value(st.tokens[cell][k][0]) or 0) <= most]
    if nums:
        k = min(nums, key=lambda k: (face_value(st.tokens[cell][k][0]) or 0, k))
        remove_token(st, cell, k, rule, why)


def event_token_present(st: BloodyState, cell: int) -> bool:
    return any(f == EVENT for f, _ in st.tokens.get(cell, ()))


def mines_present(st: BloodyState, cell: int) -> bool:
    return any(f == MINES for f, _ in st.tokens.get(cell, ()))
