"""Bloody Omaha player cards (9.0): each card offers options, each for a window of turns.

The cards are reconstructed (``cards.toml``); see ``READINGS.md``.
"""

from __future__ import annotations

import attrs

from omaha.kernel.data import Node, Source
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Check, Field, Int, ListOf, Problems, Provenance, Str, Table

from .checking import entries, whole

CARD_EFFECTS = frozenset(
    {
        "initiative_now",
        "initiative",
        "engineers_now",
        "engineers",
        "rally",
        "reveal",
        "naval_fire",
        "clear_mines",
        "gap",
        "tank",
        "drift_drm",
        "landing_drm",
        "attack_bonus",
    }
)
#: Card effects that need a target square.
TARGETED = frozenset({"rally", "reveal", "naval_fire", "clear_mines", "gap", "tank"})


#: The two moments a card option is played (READINGS.md, "Cards").
MOMENTS = ("activation", "landing")


def _option_sound(node: Node, problems: Problems) -> None:
    """9.2: a window that is not empty, an amount where the effect needs one, and the
    moment that suits the effect (drift and landing modifiers before the Drift rolls)."""
    opt = node.value
    first, last = whole(opt.get("from")), whole(opt.get("to"))
    if first is not None and last is not None and last < first:
        problems.append(node.error(f"the window turn {first} to turn {last} is empty"))
    effect, when = opt.get("effect"), opt.get("when")
    if effect not in CARD_EFFECTS:
        return
    needs_amount = effect not in TARGETED or effect == "naval_fire"
    if needs_amount and not whole(opt.get("amount")):
        problems.append(node.error(f"effect {effect} needs a non-zero amount"))
    if when in MOMENTS and (effect in ("drift_drm", "landing_drm")) != (when == "landing"):
        problems.append(
            node.error("drift_drm and landing_drm options, and only they, are played at 'landing'")
        )


def _options_once(node: Node, problems: Problems) -> None:
    """9.2: a card does not offer the same option twice."""
    seen: dict[str, int] = {}
    for k, (item, opt) in enumerate(entries(node, "options")):
        key = repr(sorted(opt.items()))
        if key in seen:
            problems.append(item.error(f"repeats option {seen[key] + 1} of this card"))
        seen.setdefault(key, k)


OPTION = Table(
    {
        "from": Field(Int(1, 99), "first turn it may be played (9.2: 'Turn N+')"),
        "to": Field(Int(1, 99), "last turn (omitted: no end)", required=False),
        "when": Field(Str(MOMENTS), "in the Activation phase, or before the Drift rolls"),
        "effect": Field(Str(tuple(sorted(CARD_EFFECTS))), "what it does (cards.toml explains)"),
        "amount": Field(Int(-9, 9), "how much, for effects that need it", required=False),
    },
    checks=[Check("a window, an amount and a moment that suit the effect (9.2)", _option_sound)],
)
CARD = Table(
    {
        "id": Field(Str(pattern=r"\S+", meaning="one word"), "the card's id"),
        "title": Field(Str(), "its title"),
        "options": Field(ListOf(OPTION, min_len=1), "one or more options (9.2)"),
        "source": Field(Provenance(), "where the card comes from"),
    },
    checks=[Check("no option repeated on a card", _options_once)],
)
#: ``cards.toml``: the player cards (3.6, 9.0); the set-up draws three (4.5).
SCHEMA = Table(
    {"cards": Field(ListOf(CARD, unique_by="id", min_len=3), "the deck, each card once")},
    doc="The player cards.",
)


@attrs.frozen
class CardOption:
    """One option of a player card (9.2)."""

    first: int
    last: int | None
    when: str  # "activation" | "landing"
    effect: str
    amount: int

    def open_on(self, turn: int) -> bool:
        return turn >= self.first and (self.last is None or turn <= self.last)

    def window(self) -> str:
        if self.last is None:
            return f"Turn {self.first}+"
        if self.last == self.first:
            return f"Turn {self.first}"
        return f"Turn {self.first}-{self.last}"

    def describe(self) -> str:
        what = {
            "initiative_now": f"Initiative token {self.amount:+d} this turn",
            "initiative": f"Initiative rating {self.amount:+d}",
            "engineers_now": f"Engineers token {self.amount:+d} this turn",
            "engineers": f"Engineers rating {self.amount:+d}",
            "rally": "rally every disrupted unit in one square",
            "reveal": "reveal a square next to a landed unit",
            "naval_fire": f"naval fire removes a revealed token worth {self.amount} or less",
            "clear_mines": "remove a revealed Mines token",
            "gap": "flip a Beach Obstacle to its Gap",
            "tank": "a Tank token comes ashore at a Gap",
            "drift_drm": f"{self.amount:+d} on Drift rolls this turn",
            "landing_drm": f"{self.amount:+d} on Beach Disruption rolls this turn",
            "attack_bonus": f"{self.amount:+d} attack strength this turn",
        }[self.effect]
        moment = " (before the Drift rolls)" if self.when == "landing" else ""
        return f"{self.window()}{moment}: {what}"


@attrs.frozen
class Card:
    id: str
    title: str
    options: tuple[CardOption, ...]
    source: Source


def read_cards(node: Node, prov: list[ProvenanceItem]) -> dict[str, Card]:
    """``cards.toml``: at least the three cards of the set-up draw (4.5), each with options."""
    node.only({"cards"})
    cards: dict[str, Card] = {}
    for cn in node.req("cards").as_list():
        cn.only({"id", "title", "options", "source"})
        cid = cn.req("id").as_str()
        if not cid or any(ch.isspace() for ch in cid):
            raise cn.req("id").error("a card id is one word")
        if cid in cards:
            raise cn.req("id").error(f"card {cid!r} appears twice")
        opts = [_option(on) for on in cn.req("options").as_list()]
        if not opts:
            raise cn.req("options").error("a card has at least one option (9.2)")
        src = cn.source()
        cards[cid] = Card(cid, cn.req("title").as_str(), tuple(opts), src)
        prov.append(ProvenanceItem("card", f"{cid} {cards[cid].title}", src))
    if len(cards) < 3:
        raise node.req("cards").error("the set-up draws 3 cards (4.5): give at least 3")
    return cards


def _option(on: Node) -> CardOption:
    on.only({"from", "to", "when", "effect", "amount"})
    first = on.req("from").as_int_in(1, 99)
    to = on.get("to")
    last = to.as_int_in(first, 99) if to is not None else None
    effect = on.req("effect").as_choice(CARD_EFFECTS)
    amount_node = on.get("amount")
    amount = amount_node.as_int() if amount_node is not None else 0
    needs_amount = effect not in TARGETED or effect == "naval_fire"
    if needs_amount and amount == 0:
        raise on.error(f"effect {effect} needs a non-zero amount")
    when = on.req("when").as_choice({"activation", "landing"})
    if (effect in ("drift_drm", "landing_drm")) != (when == "landing"):
        raise on.req("when").error(
            "drift_drm and landing_drm options, and only they, are played at 'landing'"
        )
    return CardOption(first, last, when, effect, amount)
