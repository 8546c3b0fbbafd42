"""The action deck (LnL Omaha: Action Cards): its events and cards, the deck in play,
and helpers to pin the cards drawn.

Every card has a value 1-6 and an event. Combat, disruption removal and close
assault read the value; only the card drawn at the start of the American player
turn applies its event. A drawn card goes straight to the discard pile; when the
draw pile is empty the discards are reshuffled into a new one (the kernel's lazy
:class:`~omaha.kernel.decks.Deck` keeps no hidden order).

The events are described, with their provenance, in ``data/deck.toml``; the
effects the rules text does not define are reconstructions and say so there.

Pinning cards in tests and analyses: :meth:`ActionDeck.stack` puts named cards
on top of the deck in order (like stacking a real deck), :func:`stack_values`
stacks cards by value (choosing "No event" cards where it can), and
:func:`picks_for` gives the :class:`~omaha.kernel.dice.ScriptedDice` picks that
make a fresh deck deal given cards in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import attrs

from omaha.kernel.data import Node, Source
from omaha.kernel.decks import Deck
from omaha.kernel.dice import Dice
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Bool, Check, Field, Int, ListOf, Problems, Provenance, Str, Table

#: The card events the rules know (``data/deck.toml`` describes each).
EVENT_IDS = (
    "none",
    "at916",
    "panzers",
    "ger_plus6",
    "early2916",
    "quick_reaction",
    "german_air",
    "allies_plus6",
    "airborne101",
    "allied_air",
    "lost_paratroops",
)


@attrs.frozen
class EventDef:
    id: str
    name: str
    once: bool
    effect: str
    source: Source


@attrs.frozen
class Card:
    id: str
    value: int
    event: str


@attrs.frozen
class DeckData:
    """``data/deck.toml`` loaded: the events by id and every card by id."""

    events: dict[str, EventDef]
    cards: dict[str, Card]


def load_deck(root: Node, provenance: list[ProvenanceItem]) -> DeckData:
    """Read a deck file; every event and run of cards is added to ``provenance``."""
    root.only({"events", "cards"})
    events: dict[str, EventDef] = {}
    for en in root.req("events").as_list():
        en.only({"id", "name", "once", "effect", "source"})
        eid = en.req("id").as_choice(set(EVENT_IDS))
        if eid in events:
            raise en.req("id").error(f"event {eid!r} is declared twice")
        ev = EventDef(
            eid,
            en.req("name").as_str(),
            en.req("once").as_bool(),
            en.req("effect").as_str(),
            en.source(),
        )
        events[eid] = ev
        provenance.append(ProvenanceItem("event", eid, ev.source))
    missing = [e for e in EVENT_IDS if e not in events]
    if missing:
        raise root.req("events").error(f"events missing: {', '.join(missing)}")
    cards: list[Card] = []
    for cn in root.req("cards").as_list():
        cn.only({"value", "event", "count", "source"})
        value = cn.req("value").as_int_in(1, 6)
        event = cn.req("event").as_choice(set(events))
        count = cn.req("count").as_int_in(1, 60)
        src = cn.source()
        start = len(cards)
        for _ in range(count):
            cards.append(Card(f"c{len(cards) + 1:02d}", value, event))
        provenance.append(
            ProvenanceItem(
                "action cards",
                f"{cards[start].id}-{cards[-1].id} ({count} x value {value}, {event})",
                src,
            )
        )
    if not cards:
        raise root.req("cards").error("the deck has no cards")
    return DeckData(events, {c.id: c for c in cards})


class ActionDeck:
    """Draw pile, discards and any cards stacked on top (in order)."""

    def __init__(self, cards: Iterable[str] = (), discards: Iterable[str] = ()) -> None:
        self.deck = Deck(cards, discards)
        self.top: list[str] = []

    def __len__(self) -> int:
        return len(self.top) + len(self.deck)

    def draw(self, dice: Dice) -> str:
        """Draw the top card (a stacked one first) and put it on the discard pile."""
        card = self.top.pop(0) if self.top else self.deck.draw(dice)
        self.deck.discard(card)
        return card

    def stack(self, card_ids: Sequence[str]) -> None:
        """Put these cards, taken from wherever they are, on top in this order."""
        for card in card_ids:
            self.deck.remove(card)
        self.top = list(card_ids) + self.top

    def copy(self) -> ActionDeck:
        """An independent deck holding the same cards in the same places."""
        twin = ActionDeck()
        twin.deck = Deck.from_data(self.deck.to_data())
        twin.top = list(self.top)
        return twin

    def to_data(self) -> dict[str, Any]:
        data = self.deck.to_data()
        data["top"] = list(self.top)
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> ActionDeck:
        deck = cls()
        deck.deck = Deck.from_data(data)
        deck.top = list(data.get("top", []))
        return deck


class HasCards(Protocol):
    """Anything that lists the cards in play (a loaded scenario)."""

    @property
    def cards(self) -> tuple[Card, ...]: ...


def cards_for_values(
    scen: HasCards, values: Sequence[int], *, deck: ActionDeck | None = None
) -> list[str]:
    """Card ids with these values, "No event" cards first, each card used once.

    With ``deck``, only cards still in its pile or discards are chosen.
    """
    available: list[Card] = list(scen.cards)
    if deck is not None:
        present = set(deck.deck.pile) | set(deck.deck.discards)
        available = [c for c in available if c.id in present]
    chosen: list[str] = []
    for v in values:
        if not 1 <= v <= 6:
            raise ValueError(f"an action card value is 1-6, not {v}")
        options = sorted(
            (c for c in available if c.value == v and c.id not in chosen),
            key=lambda c: (c.event != "none", c.id),
        )
        if not options:
            raise ValueError(f"no card of value {v} left to stack")
        chosen.append(options[0].id)
    return chosen


def card_for_event(scen: HasCards, event: str, value: int | None = None) -> str:
    """The first card id carrying ``event`` (and ``value`` if given)."""
    for c in scen.cards:
        if c.event == event and (value is None or c.value == value):
            return c.id
    raise ValueError(f"no card with event {event!r}" + (f" and value {value}" if value else ""))


def stack_values(deck: ActionDeck, scen: HasCards, values: Sequence[int]) -> list[str]:
    """Stack cards of the given values on top of ``deck``; returns the card ids."""
    ids = cards_for_values(scen, values, deck=deck)
    deck.stack(ids)
    return ids


def picks_for(scen: HasCards, card_ids: Sequence[str]) -> list[int]:
    """ScriptedDice values that make a fresh, full deck deal ``card_ids`` in order.

    The deck draws by picking an index into its sorted pile, so the pick for a
    card is its position among the cards not yet drawn (after a reshuffle the
    discards are back in the pile).
    """
    pile = sorted(c.id for c in scen.cards)
    discards: list[str] = []
    picks: list[int] = []
    for card in card_ids:
        if not pile:
            pile, discards = sorted(discards), []
        if card not in pile:
            raise ValueError(f"card {card!r} is not in the pile at that point")
        i = pile.index(card)
        picks.append(i)
        discards.append(pile.pop(i))
    return picks


# ----------------------------------------------------------------------------
# The file's schema (issue 14): what ``load_deck`` reads, checked all at once
# ----------------------------------------------------------------------------
def _every_event(node: Node, problems: Problems) -> None:
    """Every event the rules know is described once (the cards' effects need them)."""
    events = node.get("events")
    if events is None or not isinstance(events.value, list):
        return
    named = {e.get("id") for e in events.value if isinstance(e, dict)}
    missing = [e for e in EVENT_IDS if e not in named]
    if missing:
        problems.append(events.error(f"events missing: {', '.join(missing)}"))


def _cards_name_events(node: Node, problems: Problems) -> None:
    """Every run of cards carries an event the file describes."""
    events, cards = node.get("events"), node.get("cards")
    if cards is None or not isinstance(cards.value, list):
        return
    named = (
        {e.get("id") for e in events.value if isinstance(e, dict)}
        if events is not None and isinstance(events.value, list)
        else set()
    )
    for entry in cards.as_list():
        ev = entry.get("event")
        if ev is not None and isinstance(ev.value, str) and ev.value not in named:
            problems.append(ev.error(f"{ev.value!r} is not an event of this deck"))


SCHEMA = Table(
    {
        "events": Field(
            ListOf(
                Table(
                    {
                        "id": Field(Str(EVENT_IDS), "the event"),
                        "name": Field(Str(), "as printed on the card"),
                        "once": Field(Bool(), "a one-off arrival: no effect when drawn again"),
                        "effect": Field(Str(), "what this library does"),
                        "source": Field(Provenance(), "where the event comes from"),
                    }
                ),
                unique_by="id",
            ),
            "the card events",
        ),
        "cards": Field(
            ListOf(
                Table(
                    {
                        "value": Field(Int(1, 6), "the card's value (a d6 may replace it)"),
                        "event": Field(Str(), "the event printed on it"),
                        "count": Field(Int(1, 60), "how many such cards"),
                        "source": Field(Provenance(), "where the cards come from"),
                    }
                ),
                min_len=1,
            ),
            "the cards, in runs of equal cards",
        ),
    },
    doc="The action deck (`deck`): the events and the cards (LnL Omaha: Action Cards).",
    checks=(
        Check("Every event the rules know is described.", _every_event),
        Check("Every card's event is described in the file.", _cards_name_events),
    ),
)
