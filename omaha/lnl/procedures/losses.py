"""Fire results on the units hit, and step losses chosen by their owner
(LnL Omaha: Fire Combat, Fire Results Table, Naval Gunfire Support)."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.lnl import rules
from omaha.lnl.actions import Lose, lose
from omaha.lnl.core import LnlCore, LossTask


def result_text(res: str) -> str:
    """An FRT result as the log prints it."""
    if res == "D":
        return "Disrupted"
    if res.startswith("L"):
        return f"Loss {res[1:]}"
    return "no effect"


def apply_fire_result(
    core: LnlCore, side: str, targets: list[int], res: str, rule: str, *, converted: bool
) -> None:
    """Disrupted / Loss n / NE on the targeted units.

    A Disrupted result marks every target; one already disrupted loses a step
    instead. A Loss disrupts every target (never costing the extra step) and
    then takes n steps, chosen by the defender, each unit losing one before any
    loses two. With ``converted`` (a bombardment or air strike), armor takes a
    Loss as Disrupted (LnL Omaha: Naval Gunfire Support; reading R20 in
    READINGS.md: a true Disrupted).
    """
    if res == "NE" or not targets:
        return
    defs = core.scen.units
    if converted:
        hard = [x for x in targets if defs[x].hard]
        soft = [x for x in targets if not defs[x].hard]
        for x in hard:
            core.disrupt(x, rule)
        targets = soft
    if res == "D":
        for x in targets:
            core.disrupt(x, rule)
        return
    n = rules.loss_steps(res)
    for x in targets:
        if core.where[x] >= 0:
            core.set_disrupted(x, True)
    if targets:
        core.loss = LossTask(defs[targets[0]].side, list(targets), n, {})
        settle_losses(core)


def settle_losses(core: LnlCore) -> None:
    """Take every step the defender has no choice about; stop at a real choice."""
    t = core.loss
    while t is not None and t.remaining > 0:
        alive = [x for x in t.units if core.where[x] >= 0]
        if not alive:
            break
        low = min(t.hits.get(x, 0) for x in alive)
        cands = [x for x in alive if t.hits.get(x, 0) == low]
        if t.remaining < len(cands):
            return
        for x in cands:
            _take_hit(core, t, x)
    core.loss = None


def _take_hit(core: LnlCore, t: LossTask, x: int) -> None:
    t.hits[x] = t.hits.get(x, 0) + 1
    t.remaining -= 1
    core.lose_step(x, "LnL Omaha: Fire Combat (Loss)", "loss")


def loss_options(core: LnlCore) -> Iterator[Action]:
    t = core.loss
    assert t is not None
    alive = [x for x in t.units if core.where[x] >= 0]
    low = min(t.hits.get(x, 0) for x in alive)
    for x in alive:
        if t.hits.get(x, 0) == low:
            yield lose(core.uid(x))


def apply_lose(core: LnlCore, action: Action) -> None:
    """``lose U``: the defender's choice of the next step to take."""
    assert isinstance(action, Lose)
    t = core.loss
    assert t is not None
    _take_hit(core, t, core.unit_index(action.unit))
    settle_losses(core)
