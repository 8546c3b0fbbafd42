"""Bloody Omaha: what happens to US units — hits, eliminations, rallies, moves."""

from __future__ import annotations

from omaha.kernel.events import register_templates

from ..core import DEAD, BloodyCore
from .tanks import attach_waiting, follow, leave_tanks

register_templates(
    {
        "bloody.hit": "{unit} in {square} {result} ({why})",
        "bloody.rally": "{unit} rallies to full strength ({why})",
    }
)


def hit(st: BloodyCore, u: int, rule: str, why: str) -> None:
    """Disrupt a unit, or eliminate it if already disrupted (8.1.c, 8.4.d, events)."""
    if st.disrupted[u]:
        eliminate(st, u, rule, why)
    else:
        disrupt(st, u, rule, why)


def disrupt(st: BloodyCore, u: int, rule: str, why: str) -> None:
    """Flip a unit to its disrupted (reduced) side; a disrupted unit stays so."""
    if st.disrupted[u]:
        return
    st.set_disrupted(u, True)
    st.note(
        "bloody.hit",
        rule,
        player="US",
        unit=st.uid(u),
        square=st.where_text(u),
        result="is disrupted",
        why=why,
    )


def eliminate(st: BloodyCore, u: int, rule: str, why: str) -> None:
    """Take a unit off the map; its tanks stay in its square (8.3)."""
    cell = st.where[u]
    st.note(
        "bloody.hit",
        rule,
        player="US",
        unit=st.uid(u),
        square=st.where_text(u),
        result="is eliminated",
        why=why,
    )
    st.set_where(u, DEAD)
    st.set_disrupted(u, False)
    st.eliminated.append(u)
    if cell >= 0:
        leave_tanks(st, u, cell)


def rally(st: BloodyCore, u: int, rule: str, why: str) -> None:
    """Flip a disrupted unit back to its full-strength side (5.3.d, cards, events)."""
    if st.disrupted[u]:
        st.set_disrupted(u, False)
        st.note("bloody.rally", rule, player="US", unit=st.uid(u), why=why)


def relocate(st: BloodyCore, u: int, to: int) -> None:
    """Put a unit in ``to``; its tanks follow when they may (8.3), waiting tanks join it."""
    old = st.where[u]
    st.set_where(u, to)
    if old >= 0:
        follow(st, u, old, to)
    attach_waiting(st, to)
