"""Opportunity fire (LnL Omaha: Opportunity Fire): after a moving stack enters a
hex, the other side may fire once at the units that moved in, one column right."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.lnl.actions import PASS, OpFire, Pass, opfire
from omaha.lnl.core import Attack, LnlCore, OppWindow, other
from omaha.lnl.procedures.fire import feasible_groups


def mover_kinds(core: LnlCore, movers: list[int]) -> list[str]:
    """The target classes among the movers, "hard" before "soft"."""
    return sorted({("hard" if core.scen.units[x].hard else "soft") for x in movers})


def opp_options(core: LnlCore) -> Iterator[Action]:
    o = core.opp
    assert o is not None
    kinds = mover_kinds(core, o.movers) if core.may_open_attack() else []  # reading R34
    yield PASS
    for kind in kinds:
        lead: set[int] = set()
        for g in feasible_groups(core, o.side, o.cell, kind, "opp", o.movers):
            lead.update(g)
        for f in sorted(lead):
            yield opfire(core.uid(f), kind)


def opp_possible(core: LnlCore, side: str, cell: int, movers: list[int]) -> bool:
    """Whether ``side`` could fire at the movers (not once reading R34 bars attacks)."""
    return core.may_open_attack() and any(
        feasible_groups(core, side, cell, kind, "opp", movers) for kind in mover_kinds(core, movers)
    )


def apply_opp(core: LnlCore, action: Action) -> None:
    """``pass``, or ``opfire U kind``: the first firer of the opportunity attack."""
    o = core.opp
    assert o is not None
    if isinstance(action, Pass):
        core.opp = None
        return
    assert isinstance(action, OpFire)
    first = core.unit_index(action.unit)
    core.attack = Attack(o.side, "opp", [first], o.cell, action.kind)


def open_window(core: LnlCore) -> None:
    """After the moving group entered a hex, let the other side fire at it if it can."""
    g = core.group
    if g is None:
        return
    movers = [x for x in g.units if core.where[x] == g.cell]
    side = other(core.side)
    if movers and opp_possible(core, side, g.cell, movers):
        core.opp = OppWindow(side, g.cell, movers)
