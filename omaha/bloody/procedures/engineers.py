"""Bloody Omaha engineers (5.3.c, 8.5): gapping obstacles and clearing found Mines."""

from __future__ import annotations

from omaha.kernel.events import register_templates

from .. import rules
from ..components.map import BEACH
from ..components.tokens import MINES
from ..core import BloodyCore
from .tokens import make_gap, remove_token

register_templates(
    {
        "bloody.engineers": "engineers at {square} ({what}) with {assets} asset(s): "
        "d6 {roll} {mods} = {total}: {result}",
    }
)


def engineer_targets(st: BloodyCore) -> list[int]:
    """8.5: Beach squares with an Obstacle, squares with a revealed Mines token.

    Reading (READINGS.md, "Engineers"): any of them may be attempted, no unit needed.
    """
    out = [b for b in st.scen.beaches if not st.gap[b]]
    out.extend(sorted(st.token_index().revealed_mines))
    return out


def engineer_attempt(st: BloodyCore, cell: int, assets: int) -> None:
    """8.5: 1 Initiative and N Engineer assets; d6 on the US Engineer table."""
    st.eng_token -= assets
    beach = st.scen.kind[cell] == BEACH
    fire = beach and st.under_fire(cell)
    mod = rules.engineer_modifier(st.turn, assets, fire)
    roll = st.dice.d6()
    row = st.scen.engineer_table.lookup(roll + mod)
    parts = []
    if st.turn <= 3:
        parts.append("+1 turn 1-3")
    if st.turn >= 6:
        parts.append("-1 turn 6+")
    if assets > 1:
        parts.append(f"-{assets - 1} extra assets")
    if fire:
        parts.append("+1 strongpoint fire")
    st.note(
        "bloody.engineers",
        "8.5",
        dice=[roll],
        player="US",
        square=st.label(cell),
        what="Obstacle" if beach else "Mines",
        assets=assets,
        roll=roll,
        mods=", ".join(parts) or "no modifier",
        total=roll + mod,
        result=row.result,
    )
    if row.result != "success":
        return
    if beach:
        make_gap(st, cell, "8.5.b", "engineers")
    else:
        k = next(k for k, (f, _) in enumerate(st.tokens[cell]) if f == MINES)
        remove_token(st, cell, k, "8.5.b", "engineers clear the Mines")
