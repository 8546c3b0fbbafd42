"""Bloody Omaha: playing the player cards (9.0).

9.2: a card offers one or more options, each for a window of turns; the player
uses one option and discards the card at once. The cards themselves are
reconstructed (``data/cards.toml``).

Reading (when cards are played): options marked "activation" are played during the
Activation phase and cost no Initiative; options marked "landing" (drift and
landing modifiers) are played before the Drift rolls of a turn, the only moment
a card can be used on turn 1, which has no Activation phase (5.4.a).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omaha.kernel.actions import Action

from . import effects as fx
from .actions import PlayCard, PlayCardAt
from .scenario import MINES, TARGETED, CardOption, face_value

if TYPE_CHECKING:
    from .state import BloodyState


def targets(st: BloodyState, opt: CardOption) -> list[int]:
    """The squares an option may be played on (empty when it has nothing to act on)."""
    scen = st.scen
    eff = opt.effect
    landed = {w for w in st.where if w >= 0 and w in scen.land}
    if eff == "rally":
        return sorted(
            {st.where[u] for u in range(len(st.where)) if st.where[u] in landed and st.disrupted[u]}
        )
    if eff == "reveal":
        return [
            c
            for c in sorted(st.tokens)
            if any(not r for _, r in st.tokens[c])
            and any(n in landed for n in scen.land_neighbours[c])
        ]
    if eff == "naval_fire":
        return [
            c
            for c in sorted(st.tokens)
            if _naval_token(st, c, opt.amount) is not None
            and any(n in landed for n in scen.land_neighbours[c])
        ]
    if eff == "clear_mines":
        return [c for c in sorted(st.tokens) if fx.has_revealed(st, c, MINES)]
    if eff == "gap":
        return [b for b in scen.beaches if not st.gap[b]]
    if eff == "tank":
        if not any(w == fx.ASIDE for w, _ in st.tanks):
            return []
        return fx.tank_landing_squares(st)
    return []


def _naval_token(st: BloodyState, cell: int, most: int) -> int | None:
    """The strongest revealed numerical token worth ``most`` or less in a square."""
    best: int | None = None
    for k, (f, r) in enumerate(st.tokens.get(cell, ())):
        v = face_value(f)
        if not r or v is None or v > most:
            continue
        if best is None or v > (face_value(st.tokens[cell][best][0]) or 0):
            best = k
    return best


def playable(st: BloodyState, when: str) -> list[Action]:
    """Every (card, option, target) the US may play now at this moment ("activation"/"landing")."""
    out: list[Action] = []
    for card in st.hand:
        for k, opt in enumerate(st.scen.cards[card].options, start=1):
            if opt.when != when or not opt.open_on(st.turn):
                continue
            if opt.effect in TARGETED:
                out.extend(PlayCardAt(card, k, st.board.labels[c]) for c in targets(st, opt))
            else:
                out.append(PlayCard(card, k))
    return out


def play(st: BloodyState, card: str, option: int, target: int | None) -> None:
    """9.2: resolve one option of a card, then discard it."""
    spec = st.scen.cards[card]
    opt = spec.options[option - 1]
    st.hand.remove(card)
    st.deck.discard(card)
    rule = "9.2"
    st.note(
        "bloody.card",
        rule,
        player="US",
        card=card,
        title=spec.title,
        option=opt.describe(),
        target=f" at {st.board.labels[target]}" if target is not None else "",
    )
    why = f"card {card}"
    eff, amount = opt.effect, opt.amount
    if eff == "initiative_now":
        fx.change_token(st, "Initiative", amount, "9.1, 7.4", why)
    elif eff == "initiative":
        fx.change_rating(st, "Initiative", amount, "9.1, 7.4", why)
    elif eff == "engineers_now":
        fx.change_token(st, "Engineers", amount, "9.1, 7.4", why)
    elif eff == "engineers":
        fx.change_rating(st, "Engineers", amount, "9.1, 7.4", why)
    elif eff == "drift_drm":
        st.drift_mod += amount
    elif eff == "landing_drm":
        st.landing_mod += amount
    elif eff == "attack_bonus":
        st.attack_bonus += amount
    else:
        assert target is not None
        if eff == "rally":
            for u in fx.units_at(st, target):
                fx.rally(st, u, "9.1", why)
        elif eff == "reveal":
            fx.reveal(st, target, "9.1", why)
        elif eff == "naval_fire":
            k = _naval_token(st, target, amount)
            assert k is not None
            fx.remove_token(st, target, k, "9.1", why)
        elif eff == "clear_mines":
            k = next(k for k, (f, _) in enumerate(st.tokens[target]) if f == MINES)
            fx.remove_token(st, target, k, "9.1", why)
        elif eff == "gap":
            fx.make_gap(st, target, "9.1", why)
        elif eff == "tank":
            fx.bring_tank_ashore(st, target, "8.3, 9.1", why)
