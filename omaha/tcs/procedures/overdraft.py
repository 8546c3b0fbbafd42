"""US overdraft reinforcements (2.11): infantry steps added to 16th line companies."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import EndOverdraft, Overdraft
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.rules import overdraft_room

register_templates(
    {
        "tcs.overdraft": "overdraft: {unit} to {steps} steps ({added} added to its company)",
    }
)


def step_overdraft(core: TcsCore) -> bool:
    """TCS Omaha 2.11: on the 1200 7 June turn, up to 5 steps per line company."""
    if core.turn_label != core.scenario.tables.overdraft_turn:
        return True
    if not core.started:
        core.started = True
        core.sd = {"ended": False}
    if core.sd["ended"] or not any(True for _ in legal_overdraft(core)):
        return True
    return core.set_wait(
        Decision.OVERDRAFT, "US", "add overdraft infantry steps to 16th line companies"
    )


def overdraft_units(core: TcsCore) -> Iterator[tuple[int, str]]:
    """Infantry units of the overdraft's line companies on the map, with their company."""
    t = core.scenario.tables
    for u in core.scenario.oob.units:
        if (
            u.regiment == t.overdraft_regiment
            and u.company in t.overdraft_companies
            and u.type.name == "infantry"
            and core.where[u.index] >= 0
        ):
            yield u.index, u.formation


def legal_overdraft(core: TcsCore) -> Iterator[Action]:
    yielded = False
    for i, company in overdraft_units(core):
        u = core.scenario.oob.units[i]
        room = overdraft_room(
            core.steps[i], u.steps, core.overdraft_added.get(company, 0), core.scenario.tables
        )
        if room > 0:
            yielded = True
            yield Overdraft.of(u.id)
    if yielded:
        yield EndOverdraft.of()


def apply_overdraft(core: TcsCore, action: Action) -> None:
    if isinstance(action, EndOverdraft):
        core.sd["ended"] = True
        return
    assert isinstance(action, Overdraft)
    i = core.unit_index(action.unit)
    company = core.scenario.oob.units[i].formation
    core.set_steps(i, core.steps[i] + 1)
    core.overdraft_added[company] = core.overdraft_added.get(company, 0) + 1
    core.note(
        "tcs.overdraft",
        "2.11",
        player="US",
        unit=action.unit,
        steps=core.steps[i],
        added=core.overdraft_added[company],
    )
