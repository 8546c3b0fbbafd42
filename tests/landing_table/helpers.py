"""Helpers for the D-Day at Omaha Beach tests: a quiet board and pinned fire cards.

Positions are staged through ``omaha.testing`` and ``state.edit()`` only.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from omaha import testing
from omaha.kernel.decks import Deck
from omaha.landing_table import GAME
from omaha.landing_table.components.cards import Card
from omaha.landing_table.components.positions import Position
from omaha.landing_table.core import Phase
from omaha.landing_table.scenario import DATA, SCENARIOS
from omaha.landing_table.state import LandingTableState

__all__ = ["GAME"]


def fresh(scenario: str = "first_wave", seed: int = 1) -> LandingTableState:
    state = testing.start(GAME, scenario, seed=seed)
    assert isinstance(state, LandingTableState)
    return state


def quiet(state: LandingTableState, turn: int = 1, phase: str = "us action") -> LandingTableState:
    """No US unit anywhere, nothing pending: a board to set up by hand."""
    with state.edit():
        for s in state.us.values():
            s.status, s.where, s.disrupted, s.acted = "removed", -1, False, False
        state.turn = turn
        state.current_phase = Phase(phase)
        state.decision = None
        state.queue = []
        state.ctx = {}
        # a German phase has its fire card on the table (the first of the deck)
        state.card = next(iter(state.scen.cards)) if phase.startswith("german") else None
        state.attacked = set()
        state.naval_used = set()
    return state


def place(
    state: LandingTableState,
    uid: str,
    label: str,
    steps: int | None = None,
    disrupted: bool = False,
) -> None:
    with state.edit():
        s = state.us[uid]
        s.status = "ashore"
        s.where = state.scen.board.cell(label)
        s.disrupted = disrupted
        if steps is not None:
            s.steps = steps
        s.landed_turn = 0


def schedule(state: LandingTableState, uid: str, turn: int | None = None) -> None:
    with state.edit():
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


def stack_cards(state: LandingTableState, cards: Iterable[str], extra: Iterable[int] = ()) -> None:
    """The next draws from the deck give ``cards`` in this order (then ``extra`` dice)."""
    wanted = list(cards)
    pile = sorted(wanted)
    picks = []
    for cid in wanted:
        picks.append(pile.index(cid))
        pile.remove(cid)
    with state.edit():
        state.deck = Deck(wanted)
    testing.pin_dice(state, [*picks, *extra])


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
    board = GAME.load_scenario("first_wave").board
    labels = [board.labels[c] for c, d in p.fof.items() if d == dot]
    return sorted((x for x in labels if x[0] in rows), key=lambda x: (x[0], int(x[1:])))


def find_card(state: LandingTableState, **want: object) -> str:
    """The id of a deck card with the given fields (result, action, icon, mine...)."""
    for cid, c in sorted(state.scen.cards.items()):
        if all(getattr(c, k) == v for k, v in want.items()):
            return cid
    raise LookupError(f"no card with {want}")


def texts(state: LandingTableState, start: int = 0) -> list[str]:
    return [e.text for e in state.log[start:]]


def legal(state: LandingTableState) -> list[str]:
    """The legal actions now, as text (after procedures run by hand, caches dropped)."""
    with state.edit():
        pass
    return [str(a) for a in state.legal_actions()]


def scenario_dir(tmp_path: Path, replace: dict[str, tuple[str, str]]) -> Path:
    """A copy of the omaha scenario whose files have one text replaced."""
    text = (SCENARIOS / "omaha.toml").read_text()
    for name, (old, new) in replace.items():
        if name == "omaha.toml":
            assert old in text, old
            text = text.replace(old, new, 1)
            continue
        body = (DATA / name).read_text()
        assert old in body, old
        (tmp_path / name).write_text(body.replace(old, new, 1))
        kind = name.removesuffix(".toml")  # the scenario names the changed file
        text = text.replace(f'{kind} = "{kind}"', f'{kind} = "{kind}.toml"', 1)
    path = tmp_path / "mine.toml"
    path.write_text(text)
    return path
