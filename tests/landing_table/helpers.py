"""Helpers for the D-Day at Omaha Beach tests: a quiet board and pinned fire cards."""

from __future__ import annotations

from collections.abc import Iterable

import omaha
from omaha.kernel.decks import Deck
from omaha.kernel.dice import ScriptedDice
from omaha.landing_table.scenario import Card, Position
from omaha.landing_table.state import DDOBState

GAME = omaha.load("landing_table")


def fresh(scenario: str = "first_wave", seed: int = 1) -> DDOBState:
    state = GAME.new_state(scenario, seed=seed)
    assert isinstance(state, DDOBState)
    return state


def quiet(state: DDOBState, turn: int = 1, phase: str = "us action") -> DDOBState:
    """No US unit anywhere, nothing pending: a board to set up by hand."""
    for s in state.us.values():
        s.status, s.where, s.disrupted, s.acted, s.steps = "removed", -1, False, False, s.steps
    state.turn = turn
    state._phase = phase
    state.decision = None
    state.queue = []
    state.ctx = {}
    state.card = None
    state.attacked = set()
    state.naval_used = set()
    state.touch()
    return state


def place(
    state: DDOBState, uid: str, label: str, steps: int | None = None, disrupted: bool = False
) -> None:
    s = state.us[uid]
    s.status = "ashore"
    s.where = state.scen.board.cell(label)
    s.disrupted = disrupted
    if steps is not None:
        s.steps = steps
    s.landed_turn = 0
    state.touch()


def schedule(state: DDOBState, uid: str, turn: int | None = None) -> None:
    s = state.us[uid]
    u = state.unit(uid)
    s.status, s.where, s.turn, s.box, s.steps = (
        "scheduled",
        -1,
        turn or state.turn,
        u.box,
        u.kind.steps,
    )
    s.committed, s.no_check, s.landed_box, s.landed_turn = False, False, 0, 0


def stack_cards(state: DDOBState, cards: Iterable[str], extra: Iterable[int] = ()) -> None:
    """The next draws from the deck give ``cards`` in this order (then ``extra`` dice)."""
    wanted = list(cards)
    pile = sorted(wanted)
    picks = []
    for cid in wanted:
        picks.append(pile.index(cid))
        pile.remove(cid)
    state.deck = Deck(wanted)
    state.dice = ScriptedDice([*picks, *extra])


def card(
    result: str = "A",
    colours: Iterable[str] = ("red",),
    symbol: str = "circle",
    action: str = "F",
    icon: str = "none",
    mine: bool = False,
    cid: str = "T01",
) -> Card:
    return Card(cid, result, frozenset(colours), symbol, action, icon, mine)


def cells_with(p: Position, dot: str, rows: str = "ABCDEFGHIJK") -> list[str]:
    """Labels of a position's field-of-fire hexes with ``dot``, in printed order."""
    from omaha.landing_table.scenario import load_scenario

    board = load_scenario("first_wave").board
    labels = [board.labels[c] for c, d in p.fof.items() if d == dot]
    return sorted((x for x in labels if x[0] in rows), key=lambda x: (x[0], int(x[1:])))


def find_card(state: DDOBState, **want: object) -> str:
    """The id of a deck card with the given fields (result, action, icon, mine...)."""
    for cid, c in sorted(state.scen.cards.items()):
        if all(getattr(c, k) == v for k, v in want.items()):
            return cid
    raise LookupError(f"no card with {want}")


def texts(state: DDOBState, start: int = 0) -> list[str]:
    return [e.text for e in state.log[start:]]


def legal(state: DDOBState) -> list[str]:
    """The legal actions now, as text (after direct set-up, the cache is dropped)."""
    state._legal = None
    state._legal_set = None
    return [str(a) for a in state.legal_actions()]
