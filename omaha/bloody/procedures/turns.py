"""Bloody Omaha turns: the Draw phase (5.1, 7.3, 7.5) and the end of the game (2.2)."""

from __future__ import annotations

from omaha.kernel.events import register_templates
from omaha.kernel.protocol import Outcome

from .. import rules
from ..core import BOX, BloodyCore

register_templates(
    {
        "bloody.draw": "draws a card ({card}); Initiative {init}, Engineers {eng}",
        "bloody.end": "game over after turn {turn}: {level}; {vp} VP ({breakdown}); "
        "{exits} exit(s) cleared",
    }
)


def game_over(st: BloodyCore) -> bool:
    """The game ends after the last turn, or when no unit is left to play (2.2)."""
    return st.turn >= st.scen.turns or not any(w >= 0 or w == BOX for w in st.where)


def draw_phase(st: BloodyCore) -> None:
    """5.1, 7.3, 7.5: draw a card; both ratings +1; the tokens go back onto the markers."""
    card = "none left"
    if len(st.deck) or st.deck.discards:
        drawn = st.deck.draw(st.dice)
        st.hand = sorted([*st.hand, drawn])
        st.cards_changed()
        card = st.card_name(drawn)
    top = st.scen.track_max
    st.init_rating = min(top, st.init_rating + 1)
    st.eng_rating = min(top, st.eng_rating + 1)
    st.init_token, st.eng_token = st.init_rating, st.eng_rating
    st.drift_mod = st.landing_mod = st.attack_bonus = 0
    st.note("bloody.draw", "5.1", player="US", card=card, init=st.init_rating, eng=st.eng_rating)


def finish(st: BloodyCore) -> None:
    """2.2-2.4: score the position and record the outcome."""
    sc = st.score()
    exits = st.exits_cleared()
    n_exits = len(st.scen.exit_name)
    level = rules.victory_level(exits, n_exits, sc.total, st.scen.victory)
    st.result = Outcome(
        "US" if level in (rules.HISTORICAL, rules.MAJOR) else None,
        level,
        points=(("VP", float(sc.total)), ("exits", float(exits))),
        detail=f"{exits} of {n_exits} exits cleared, {sc.total} VP",
    )
    st.note(
        "bloody.end",
        "2.2",
        turn=st.turn,
        level=level,
        vp=sc.total,
        exits=exits,
        breakdown=(
            f"gaps {sc.gaps}, strongpoints {sc.strongpoints}, encounters {sc.encounters}, "
            f"towns/exits {sc.towns_exits}, southern hedgerows {sc.hedgerows}, "
            f"reinforcements {sc.reinforcements}"
        ),
    )
