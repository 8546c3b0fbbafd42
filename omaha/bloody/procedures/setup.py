"""Bloody Omaha set-up (4.1-4.5): face-down tokens, obstacles, markers, units, cards."""

from __future__ import annotations

from omaha.kernel.decks import Cup
from omaha.kernel.events import register_templates

from ..components.map import STRONGPOINT
from ..core import BloodyCore

register_templates({"bloody.setup": "{text}"})


def place_tokens_and_deal(st: BloodyCore) -> None:
    """4.1: a face-down token in every Strongpoint and Encounter square (drawn from the
    cups); 4.2-4.4 logged; 4.5: three cards drawn, one to go back."""
    scen = st.scen
    sp_cup, enc_cup = Cup(scen.strongpoint_tokens), Cup(scen.encounter_tokens)
    encounter = set(scen.encounter_squares)
    for cell in range(len(st.board)):
        toks: list[tuple[str, bool]] = []
        if scen.kind[cell] == STRONGPOINT:
            toks.append((sp_cup.draw(st.dice), False))
        if cell in encounter:
            toks.append((enc_cup.draw(st.dice), False))
        if toks:
            st.tokens[cell] = toks
            st.tokens_changed(cell)
    st.note(
        "bloody.setup",
        "4.1",
        text=f"face-down tokens: a Strongpoint token in each of {len(scen.strongpoints)} "
        f"strongpoints; an Encounter token in each of {len(encounter)} red/gray "
        "strongpoints, towns and hedgerows",
    )
    st.note(
        "bloody.setup",
        "4.2",
        text=f"an Obstacle token on each of the {len(scen.beaches)} Beach squares",
    )
    st.note(
        "bloody.setup",
        "4.3",
        text=f"Turn, Initiative and Engineers at 1; {scen.tank_count} Tank tokens set aside",
    )
    at_sea = sum(1 for w in st.where if w >= 0)
    st.note(
        "bloody.setup",
        "4.4",
        text=f"{at_sea} units in their Channel squares, "
        f"{len(st.where) - at_sea} in the Reinforcements box",
    )
    st.offered = sorted(st.deck.draw(st.dice) for _ in range(3))
    st.cards_changed()
    st.note(
        "bloody.setup",
        "4.5",
        player="US",
        text=f"draws {', '.join(st.card_name(c) for c in st.offered)}: keep two",
    )


def return_card(st: BloodyCore, card: str) -> None:
    """4.5: one of the three cards goes back into the deck; the other two are the hand."""
    st.offered.remove(card)
    st.deck.return_to_pile(card)
    st.hand = sorted(st.offered)
    st.offered = []
    st.cards_changed()
    st.note(
        "bloody.setup",
        "4.5",
        player="US",
        text=f"shuffles {st.card_name(card)} back; starting hand: "
        + ", ".join(st.card_name(c) for c in st.hand),
    )
