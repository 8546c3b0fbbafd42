"""Air strikes given by the action card events (reconstructed: ``data/deck.toml``),
resolved like an NGFS bombardment on one hex."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.lnl import rules
from omaha.lnl.actions import PASS, Pass, Strike, strike
from omaha.lnl.core import LnlCore
from omaha.lnl.procedures.fire import targets_in
from omaha.lnl.procedures.losses import apply_fire_result, result_text


def strike_column(core: LnlCore, cell: int, he: int) -> int | None:
    return rules.frt_final(he, -core.T.terrain_shift(cell))


def strike_options(core: LnlCore) -> Iterator[Action]:
    s = core.strike
    assert s is not None
    yield PASS
    for c in sorted(core.occ):
        if core.enemy_at(c, s.side) and strike_column(core, c, s.he) is not None:
            yield strike(core.label(c))


def apply_strike(core: LnlCore, action: Action) -> None:
    """Resolve an air strike like an NGFS bombardment (deck.toml, events)."""
    s = core.strike
    assert s is not None
    core.strike = None
    if isinstance(action, Pass):
        core.note("lnl.strike_pass", "", player=s.side)
        return
    assert isinstance(action, Strike)
    cell = core.cell_of(action.hex)
    col = strike_column(core, cell, s.he)
    assert col is not None
    value, card = core.card_value("fire")
    res = rules.frt_result(value, col)
    targets = targets_in(core, s.side, cell, "both", None)
    core.note(
        "lnl.strike",
        "reconstructed event (deck.toml)",
        dice=[value],
        player=s.side,
        event=core.scen.events[s.event].name,
        target=action.hex,
        he=s.he,
        column=rules.frt_label(col),
        card=card or "d6",
        result=result_text(res),
    )
    apply_fire_result(core, s.side, targets, res, "reconstructed air strike", converted=True)
