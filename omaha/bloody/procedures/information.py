"""Bloody Omaha: what the US does not know, and how a resample draws it anew.

The US plays alone; the German side is face-down tokens (3.5.d-e). Set-up (4.1) puts
one Strongpoint token in every red or red/gray square and one Encounter token in every
red/gray, Town and Hedgerow square south of the beach, each drawn blindly from its cup
(the Strongpoint and the Encounter tokens are two mixes: their backs differ, red cross
and black border). A token's face is seen only once it is revealed (8.1, cards,
events), and every one is revealed before anything reads its face, so the log never
names a face-down token and the US sees every event whole (``_event_seen_by`` is the
kernel's default; ``tests/bloody/test_information_bloody.py`` checks it).

What the US does not know is therefore which of the tokens it has not seen lies in
which face-down square, and which are left in the cups (none in ``solo``, whose mixes
fill the map exactly). Given what it saw, every deal of the unseen tokens of a mix
among its face-down squares and its cup is equally likely (the cup draws uniformly);
:func:`redraw` deals them so.
"""

from __future__ import annotations

from collections import Counter

from omaha.kernel.dice import Dice
from omaha.kernel.information import shuffled

from ..components.tokens import face_of_text, is_strongpoint_token
from ..core import BloodyCore

#: Where a face-down token lies: (square, its index in the square's list of tokens).
Slot = tuple[int, int]


def hidden_parts(st: BloodyCore) -> tuple[tuple[int, int, str], ...]:
    """Every face-down token as (square, index in the square, face), in square order."""
    return tuple(
        (cell, k, face)
        for cell, toks in sorted(st.tokens.items())
        for k, (face, revealed) in enumerate(toks)
        if not revealed
    )


def removed_faces(st: BloodyCore) -> list[str]:
    """The faces of the tokens removed from the map, as the log names them (2.3.b-c):
    every token is revealed before it is removed, so the US saw each one."""
    out = []
    for event in st.log:
        if event.kind == "bloody.remove":
            face = face_of_text(str(event.details.get("token", "")))
            if face is not None:
                out.append(face)
    return out


def unseen_in_cup(st: BloodyCore, strongpoint: bool) -> list[str]:
    """The tokens of one mix still in its cup after the set-up draws (4.1): the mix
    less every token on the map and every one removed. A staged position whose log
    does not account for the removed tokens leaves the cup as the set-up left it in
    count only; then nothing is taken to be in it."""
    scen = st.scen
    mix = scen.strongpoint_tokens if strongpoint else scen.encounter_tokens
    squares = scen.strongpoints if strongpoint else scen.encounter_squares
    gone = Counter(
        f
        for f in [*(f for toks in st.tokens.values() for f, _ in toks), *removed_faces(st)]
        if is_strongpoint_token(f) == strongpoint
    )
    left = Counter(mix)
    left.subtract(gone)
    cup = sorted(f for f, n in left.items() for _ in range(max(n, 0)))
    return cup if len(cup) == len(mix) - len(squares) else []


def redraw(st: BloodyCore, dice: Dice) -> None:
    """Deal the unseen tokens of each mix anew among its face-down squares and its cup
    (4.1: a Strongpoint token only where a Strongpoint token lies, an Encounter token
    where an Encounter token lies); revealed tokens stay where they are."""
    for strongpoint in (True, False):
        slots: list[Slot] = [
            (cell, k)
            for cell, toks in sorted(st.tokens.items())
            for k, (face, revealed) in enumerate(toks)
            if not revealed and is_strongpoint_token(face) == strongpoint
        ]
        pool = [st.tokens[c][k][0] for c, k in slots] + unseen_in_cup(st, strongpoint)
        dealt = shuffled(sorted(pool), dice)
        for (cell, k), face in zip(slots, dealt, strict=False):
            st.tokens[cell][k] = (face, False)
