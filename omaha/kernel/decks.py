"""Decks and cups that draw lazily.

Neither stores a shuffled order: the undrawn cards (tokens) are kept as a
sorted multiset and a draw picks uniformly among what remains at that moment,
using the state's dice. The state thus holds no hidden future, and a clone
reseeded for a bot sees a different one.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Any

from omaha.kernel.dice import Dice


class Cup:
    """Tokens drawn at random without replacement (TCS leaders, Bloody Omaha tokens)."""

    def __init__(self, tokens: Iterable[str] = ()) -> None:
        self._items: list[str] = sorted(tokens)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, token: object) -> bool:
        return token in self._items

    @property
    def contents(self) -> tuple[str, ...]:
        """What is in the cup, sorted (its order says nothing about the future)."""
        return tuple(self._items)

    def draw(self, dice: Dice) -> str:
        if not self._items:
            raise IndexError("the cup is empty")
        return self._items.pop(dice.pick(len(self._items)))

    def put(self, token: str) -> None:
        bisect.insort(self._items, token)

    def remove(self, token: str) -> None:
        """Take out a named token (e.g. set aside by a scenario rule)."""
        try:
            self._items.remove(token)
        except ValueError:
            raise ValueError(f"{token!r} is not in the cup") from None

    def to_data(self) -> list[str]:
        return list(self._items)

    @classmethod
    def from_data(cls, data: Iterable[str]) -> Cup:
        return cls(data)


class Deck:
    """A draw pile and a discard pile; the discards are reshuffled when the pile is empty."""

    def __init__(self, cards: Iterable[str] = (), discards: Iterable[str] = ()) -> None:
        self._pile = Cup(cards)
        self._discards: list[str] = sorted(discards)
        self.reshuffles = 0

    def __len__(self) -> int:
        """Cards left to draw before the next reshuffle."""
        return len(self._pile)

    @property
    def pile(self) -> tuple[str, ...]:
        return self._pile.contents

    @property
    def discards(self) -> tuple[str, ...]:
        return tuple(self._discards)

    def draw(self, dice: Dice) -> str:
        """Draw a card; when the pile is empty the discards become the new pile first."""
        if not len(self._pile):
            self.reshuffle()
        return self._pile.draw(dice)

    def reshuffle(self) -> None:
        if not self._discards:
            raise IndexError("no cards left to draw or reshuffle")
        for card in self._discards:
            self._pile.put(card)
        self._discards = []
        self.reshuffles += 1

    def discard(self, card: str) -> None:
        bisect.insort(self._discards, card)

    def return_to_pile(self, card: str) -> None:
        """Put a card back among the undrawn ones (e.g. shuffled back into the deck)."""
        self._pile.put(card)

    def remove(self, card: str) -> None:
        """Take a card out of the game wherever it is (pile first, then discards)."""
        if card in self._pile:
            self._pile.remove(card)
        elif card in self._discards:
            self._discards.remove(card)
        else:
            raise ValueError(f"{card!r} is neither in the pile nor in the discards")

    def to_data(self) -> dict[str, Any]:
        return {
            "pile": list(self.pile),
            "discards": list(self._discards),
            "reshuffles": self.reshuffles,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Deck:
        deck = cls(data["pile"], data["discards"])
        deck.reshuffles = int(data["reshuffles"])
        return deck
