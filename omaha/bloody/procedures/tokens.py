"""Bloody Omaha German tokens and obstacles: revealing, removing and scoring them, gaps."""

from __future__ import annotations

from omaha.kernel.events import register_templates

from ..components.map import BEACH
from ..components.tokens import face_value, is_strongpoint_token, token_text
from ..core import BloodyCore

register_templates(
    {
        "bloody.text": "{text}",
        "bloody.reveal": "{square} revealed: {tokens} ({why})",
        "bloody.remove": "{token} removed from {square} ({why}): +{vp} VP",
        "bloody.gap": "Obstacle in {square} ({beach}) flipped to its Gap ({why}): +1 VP",
    }
)


def reveal(st: BloodyCore, cell: int, rule: str, why: str) -> None:
    """Turn the tokens of a square face up (8.1, cards, events)."""
    toks = st.tokens.get(cell)
    if not toks or all(r for _, r in toks):
        return
    st.tokens[cell] = [(f, True) for f, _ in toks]
    st.tokens_changed(cell)
    st.note(
        "bloody.reveal",
        rule,
        player="US",
        square=st.label(cell),
        tokens=[token_text(f) for f, _ in toks],
        why=why,
    )


def remove_token(st: BloodyCore, cell: int, k: int, rule: str, why: str) -> None:
    """Take token ``k`` of a square off the map, scoring it (2.3.b, 2.3.c); 2.4 cleared."""
    face, _ = st.tokens[cell].pop(k)
    st.tokens_changed(cell)
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
        square=st.label(cell),
        why=why,
        vp=2 if sp else 1,
    )
    if not st.tokens[cell]:
        st.note("bloody.text", "2.4", player="US", text=f"{st.label(cell)} is cleared")
        if cell in st.scen.exit_name:
            st.exit_turns.append(st.turn)


def make_gap(st: BloodyCore, cell: int, rule: str, why: str) -> bool:
    """Flip a Beach Obstacle to its Gap side (8.5.b, cards, events): 1 VP (2.3.a)."""
    if st.scen.kind[cell] != BEACH or st.gap[cell]:
        return False
    st.set_gap(cell)
    st.gaps_made += 1
    st.note(
        "bloody.gap",
        rule,
        player="US",
        square=st.label(cell),
        beach=st.scen.beach_name[cell],
        why=why,
    )
    return True


def remove_weakest(st: BloodyCore, cell: int, most: int, rule: str, why: str) -> None:
    """An obstacle is gapped; otherwise the square is revealed and its lowest numerical
    token removed if it is worth ``most`` or less (a Random Event)."""
    if st.scen.kind[cell] == BEACH:
        make_gap(st, cell, rule, why)
        return
    reveal(st, cell, rule, why)
    nums = [k for k in st.numerical(cell) if (face_value(st.tokens[cell][k][0]) or 0) <= most]
    if nums:
        k = min(nums, key=lambda k: (face_value(st.tokens[cell][k][0]) or 0, k))
        remove_token(st, cell, k, rule, why)
