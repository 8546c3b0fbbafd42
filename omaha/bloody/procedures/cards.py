"""Bloody Omaha player cards (9.0): which options may be played now, and playing one.

9.2: a card offers one or more options, each for a window of turns; the player uses
one option and discards the card at once. Reading (READINGS.md, "Cards"):
"activation" options are played in the Activation phase at no Initiative cost,
"landing" options (drift and landing modifiers) before the Drift rolls.
"""

from __future__ import annotations

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates

from ..components.cards import TARGETED, CardOption
from ..components.tokens import MINES, face_value
from ..core import ASIDE, BloodyCore
from .ratings import ENGINEERS, INITIATIVE, change_rating, change_token
from .tanks import bring_tank_ashore
from .tokens import make_gap, remove_token, reveal
from .units import rally

register_templates({"bloody.card": "plays {card} '{title}': {option}{target}"})


def targets(st: BloodyCore, opt: CardOption) -> list[int]:
    """The squares an option may be played on (empty when it has nothing to act on)."""
    scen = st.scen
    eff = opt.effect
    if eff == "rally":
        land, disrupted = scen.land, st.disrupted
        return sorted({w for u, w in enumerate(st.where) if w in land and disrupted[u]})
    if eff == "reveal":
        return sorted(st.token_index().face_down & st.next_to_landed())
    if eff == "naval_fire":
        near = st.token_index().known_numerical & st.next_to_landed()
        return [c for c in sorted(near) if naval_token(st, c, opt.amount) is not None]
    if eff == "clear_mines":
        return sorted(st.token_index().revealed_mines)
    if eff == "gap":
        return [b for b in scen.beaches if not st.gap[b]]
    if eff == "tank":
        if not any(w == ASIDE for w, _ in st.tanks):
            return []
        return st.tank_landing_squares()
    return []


def naval_token(st: BloodyCore, cell: int, most: int) -> int | None:
    """The strongest revealed numerical token worth ``most`` or less in a square."""
    best: int | None = None
    for k, (f, r) in enumerate(st.tokens.get(cell, ())):
        v = face_value(f)
        if not r or v is None or v > most:
            continue
        if best is None or v > (face_value(st.tokens[cell][best][0]) or 0):
            best = k
    return best


def playable(st: BloodyCore, when: str) -> list[Action]:
    """Every (card, option, target) the US may play now at this moment ("activation"/"landing")."""
    return st.catalogue.in_order(playable_codes(st, when))


def playable_codes(st: BloodyCore, when: str) -> list[int]:
    """:func:`playable` as codes of the action catalogue."""
    out: list[int] = []
    cat = st.catalogue
    for card in st.hand:
        for k, opt in enumerate(st.scen.cards[card].options, start=1):
            if opt.when != when or not opt.open_on(st.turn):
                continue
            if opt.effect in TARGETED:
                at = cat.play_card_at[card, k]
                out.extend(at[c] for c in targets(st, opt))
            else:
                out.append(cat.play_card[card, k])
    return out


def play(st: BloodyCore, card: str, option: int, target: int | None) -> None:
    """9.2: resolve one option of a card, then discard it."""
    spec = st.scen.cards[card]
    opt = spec.options[option - 1]
    st.hand.remove(card)
    st.deck.discard(card)
    st.cards_changed()
    st.note(
        "bloody.card",
        "9.2",
        player="US",
        card=card,
        title=spec.title,
        option=opt.describe(),
        target=f" at {st.label(target)}" if target is not None else "",
    )
    why = f"card {card}"
    eff, amount = opt.effect, opt.amount
    if eff == "initiative_now":
        change_token(st, INITIATIVE, amount, "9.1, 7.4", why)
    elif eff == "initiative":
        change_rating(st, INITIATIVE, amount, "9.1, 7.4", why)
    elif eff == "engineers_now":
        change_token(st, ENGINEERS, amount, "9.1, 7.4", why)
    elif eff == "engineers":
        change_rating(st, ENGINEERS, amount, "9.1, 7.4", why)
    elif eff == "drift_drm":
        st.drift_mod += amount
    elif eff == "landing_drm":
        st.landing_mod += amount
    elif eff == "attack_bonus":
        st.attack_bonus += amount
    else:
        assert target is not None
        _targeted(st, eff, amount, target, why)


def _targeted(st: BloodyCore, eff: str, amount: int, target: int, why: str) -> None:
    if eff == "rally":
        for u in st.units_at(target):
            rally(st, u, "9.1", why)
    elif eff == "reveal":
        reveal(st, target, "9.1", why)
    elif eff == "naval_fire":
        k = naval_token(st, target, amount)
        assert k is not None
        remove_token(st, target, k, "9.1", why)
    elif eff == "clear_mines":
        k = next(k for k, (f, _) in enumerate(st.tokens[target]) if f == MINES)
        remove_token(st, target, k, "9.1", why)
    elif eff == "gap":
        make_gap(st, target, "9.1", why)
    elif eff == "tank":
        bring_tank_ashore(st, target, "8.3, 9.1", why)
