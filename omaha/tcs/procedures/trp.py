"""US Target Reference Points (2.8).

Before any unit is placed the US assigns its TRPs (the scenario says how many);
they work from the scenario's first TRP turn (0100 7 June, 2.8). Reconstructed (the
series' TRP rule is not in our text; READINGS.md): a US battery mission called on a
TRP hex needs no designator round, its fire for effect lands on the hex at once;
destroyer missions never use TRPs (2.6b).
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import AssignTrp, EndTrps
from omaha.tcs.core import Decision, TcsCore

register_templates(
    {
        "tcs.trp.assigned": "TRPs assigned: {hexes}",
        "tcs.trp.fire": "{battery} fires on the TRP at {target}: no designator round",
    }
)


def step_trps(core: TcsCore) -> bool:
    """TCS Omaha 2.8: the US assigns its TRPs before any unit is placed on the map."""
    count = core.scenario.trps
    if count <= 0:
        return True
    if not core.started:
        core.started = True
        core.sd = {"ended": False}
    if core.sd["ended"] or len(core.trps) >= count:
        core.note("tcs.trp.assigned", "2.8", player="US", hexes=[core.label(c) for c in core.trps])
        return True
    left = count - len(core.trps)
    return core.set_wait(Decision.TRPS, "US", f"assign a TRP hex ({left} left)")


def legal_trps(core: TcsCore) -> Iterator[Action]:
    yield EndTrps.of()
    taken = set(core.trps)
    sea = core.scenario.beach.sea_always
    for c in range(len(core.scenario.board)):
        if c not in sea and c not in taken:
            yield AssignTrp.of(core.label(c))


def apply_trps(core: TcsCore, action: Action) -> None:
    if isinstance(action, AssignTrp):
        core.trps = [*core.trps, core.cell(action.hex)]
    else:
        core.sd["ended"] = True


def trp_active(core: TcsCore, side: str, target: int) -> bool:
    """TCS Omaha 2.8: a US TRP on ``target`` that works this turn (from 0100 7 June)."""
    scen = core.scenario
    return side == "US" and scen.trps > 0 and core.turn >= scen.trps_from and target in core.trps
