"""The fire card deck (reconstructed): what a drawn card shows.

A fire card carries a landing result letter (Amphibious Landing Table), the
colours of the German positions that fire, one target symbol, an action letter
(German Action Summary), an optional icon (armour bonus or leader hit) and an
optional mine. The published deck is not in our text: ``data/cards.toml`` says
how it was reconstructed.
"""

from __future__ import annotations

import attrs

from omaha.kernel.data import Node
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Bool, Field, ListOf, Provenance, Str, Table
from omaha.landing_table.components.charts import ACTION_LETTERS, LETTERS

#: Target symbols, printed on every US unit and on every fire card.
SYMBOLS = ("circle", "square", "triangle")
#: Position colours, printed on every German position and on the fire cards.
COLOURS = ("red", "yellow", "blue", "green")


#: The schema of a fire card deck file (``cards``).
CARD = Table(
    {
        "id": Field(Str(), "the card's id"),
        "result": Field(Str(LETTERS), "the Amphibious Landing Table result letter"),
        "colours": Field(
            ListOf(Str(COLOURS), unique=True, min_len=1),
            "the colours of the German positions that fire (German Fire Chart)",
        ),
        "symbol": Field(Str(SYMBOLS), "the US target symbol it shows"),
        "action": Field(Str(ACTION_LETTERS), "the German Action Summary letter (turns 17-32)"),
        "icon": Field(
            Str(("none", "armour", "leader")), "the armour bonus or leader hit icon, or none"
        ),
        "mine": Field(Bool(), "whether it shows a mine (landing table note *)"),
    },
    doc="One fire card.",
)
SCHEMA = Table(
    {
        "deck": Field(
            Table(
                {
                    "cards": Field(ListOf(CARD, unique_by="id", min_len=1), "the cards"),
                    "source": Field(Provenance(), "where the deck comes from"),
                }
            ),
            "the fire card deck",
        )
    },
    doc="The fire card deck.",
)


@attrs.frozen
class Card:
    """A fire card (reconstructed deck)."""

    id: str
    result: str
    colours: frozenset[str]
    symbol: str
    action: str
    icon: str  # none | armour | leader
    mine: bool

    def describe(self) -> str:
        icon = {"armour": " +armour", "leader": " +leader"}.get(self.icon, "")
        mine = " +mine" if self.mine else ""
        return (
            f"{self.id} [{self.result} | {'/'.join(sorted(self.colours))} | {self.symbol}"
            f" | {self.action}{icon}{mine}]"
        )


def load_deck(root: Node, prov: list[ProvenanceItem]) -> dict[str, Card]:
    """The cards of a deck file, by id (file order)."""
    deck = root.req("deck").only({"cards", "source"})
    cards: dict[str, Card] = {}
    for cn in deck.req("cards").as_list():
        cn.only({"id", "result", "colours", "symbol", "action", "icon", "mine"})
        cid = cn.req("id").as_str()
        if cid in cards:
            raise cn.req("id").error(f"card {cid!r} is listed twice")
        colours = cn.req("colours").as_str_list()
        for c in colours:
            if c not in COLOURS:
                raise cn.req("colours").error(f"{c!r} is not a position colour")
        cards[cid] = Card(
            cid,
            cn.req("result").as_choice(set(LETTERS)),
            frozenset(colours),
            cn.req("symbol").as_choice(SYMBOLS),
            cn.req("action").as_choice(set(ACTION_LETTERS)),
            cn.req("icon").as_choice({"none", "armour", "leader"}),
            cn.req("mine").as_bool(),
        )
    if not cards:
        raise deck.req("cards").error("the deck has no cards")
    prov.append(ProvenanceItem("fire cards", f"{len(cards)} cards", deck.source()))
    return cards
