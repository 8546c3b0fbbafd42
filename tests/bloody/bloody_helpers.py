"""Helpers for the Bloody Omaha tests: staged positions with pinned dice.

``staged`` builds a real state (set-up done, through :mod:`omaha.testing`) and
then places units, tokens, ratings and the phase inside ``state.edit()``, so a
test can start at the rule it checks. Units not named are put in the
Reinforcements box, out of the way.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

import omaha
from omaha import testing
from omaha.bloody.core import BOX, Phase, Step
from omaha.bloody.scenario import COMPONENTS, DATA, SCENARIOS
from omaha.bloody.state import BloodyState

GAME = omaha.load("bloody")


def new(seed: int = 0) -> BloodyState:
    st = testing.start(GAME, seed=seed)
    assert isinstance(st, BloodyState)
    return st


def cell(st: BloodyState, label: str) -> int:
    return st.board.cell(label)


def unit(st: BloodyState, uid: str) -> int:
    return st.scen.unit_index[uid]


def staged(
    *,
    turn: int = 3,
    units: Mapping[str, str] | None = None,
    disrupted: Iterable[str] = (),
    tokens: Mapping[str, list[tuple[str, bool]]] | None = None,
    clear_tokens: bool = False,
    gaps: Iterable[str] = (),
    init: int = 5,
    eng: int = 5,
    hand: Iterable[str] = (),
    dice: Iterable[int] = (),
    step: str = "activation",
    phase: str = "Activation",
) -> BloodyState:
    """A state in the Activation phase (by default) of ``turn`` with the given position."""
    st = new(1)
    with st.edit():
        for c in st.offered:
            st.deck.return_to_pile(c)
        st.offered = []
        st.hand = sorted(hand)
        for c in st.hand:
            st.deck.remove(c)
        st.turn = turn
        st.current_phase = Phase(phase)
        st.step = Step(step)
        st.where = [BOX] * len(st.scen.units)
        for uid, where in (units or {}).items():
            u = unit(st, uid)
            st.where[u] = cell(st, where)
            st.landed[u] = st.where[u] in st.scen.land
            if st.landed[u]:
                st.ashore[u] = st.scen.column[st.where[u]]
        for uid in disrupted:
            st.disrupted[unit(st, uid)] = True
        if clear_tokens:
            st.tokens = {}
        for label, toks in (tokens or {}).items():
            st.tokens[cell(st, label)] = list(toks)
        for label in gaps:
            st.gap[cell(st, label)] = True
        st.init_rating = st.init_token = init
        st.eng_rating = st.eng_token = eng
        testing.pin_dice(st, dice)
    return st


def act(st: BloodyState, text: str) -> None:
    testing.play(st, text)


def texts(st: BloodyState, start: int = 0) -> list[str]:
    return [e.text for e in st.log[start:]]


def legal_texts(st: BloodyState) -> set[str]:
    return {str(a) for a in st.legal_actions()}


def attack(st: BloodyState, target: str, first: str, *more: str) -> None:
    """Attack ``target`` from ``first`` plus ``more`` squares, then roll (8.4).

    When no square can be added, "resolve attack" is the only choice and the
    state resolves it by itself.
    """
    act(st, f"attack {target} from {first}")
    for square in more:
        act(st, f"add {square}")
    if st.step == "attack":
        act(st, "resolve attack")


def copy_shipped(tmp: Path) -> Path:
    """The shipped scenario and its component files copied into ``tmp``, the copy of
    ``solo.toml`` naming the copied files (``map.toml`` ...): edit them to test."""
    for f in DATA.glob("*.toml"):
        shutil.copy(f, tmp / f.name)
    text = (SCENARIOS / "solo.toml").read_text()
    for kind, name in COMPONENTS.items():
        text = re.sub(rf'^{kind} = "{name}"$', f'{kind} = "{name}.toml"', text, flags=re.M)
    (tmp / "solo.toml").write_text(text)
    return tmp / "solo.toml"
