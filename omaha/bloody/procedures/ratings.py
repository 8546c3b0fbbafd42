"""Bloody Omaha Initiative and Engineers (7.0): the square markers and circular tokens."""

from __future__ import annotations

from omaha.kernel.events import register_templates

from ..core import BloodyCore

register_templates(
    {
        "bloody.text": "{text}",
        "bloody.rating": "{what} {change}: now {value} ({why})",
    }
)

INITIATIVE, ENGINEERS = "Initiative", "Engineers"


def change_rating(st: BloodyCore, which: str, change: int, rule: str, why: str) -> None:
    """7.4: move a square marker; never below 1 (nor past the end of the track)."""
    top = st.scen.track_max
    if which == INITIATIVE:
        old = st.init_rating
        st.init_rating = max(1, min(top, old + change))
        value = st.init_rating
    else:
        old = st.eng_rating
        st.eng_rating = max(1, min(top, old + change))
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


def change_token(st: BloodyCore, which: str, change: int, rule: str, why: str) -> None:
    """Move a circular token (this turn's points); it may reach 0 (8.1.d)."""
    top = st.scen.track_max
    if which == INITIATIVE:
        old = st.init_token
        st.init_token = max(0, min(top, old + change))
        value = st.init_token
    else:
        old = st.eng_token
        st.eng_token = max(0, min(top, old + change))
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
