"""The Mode Determination Phase: voluntary pill box conversions (3.3e).

Modes otherwise change with the actions that need them (READINGS.md): a unit
that fires enters fire mode, a unit that moves from fire mode pays half its
allowance to enter move mode ([op16]), and a unit that neither moved nor fired
ends its own Action Phase in fire mode.
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import Convert, EndConversions
from omaha.tcs.core import LOST, Decision, TcsCore

register_templates({"tcs.convert": "pill box {unit} is converted to {squad} in {hex}, {mode} mode"})


def live_pillboxes(core: TcsCore) -> list[int]:
    return [i for i in core.scenario.german.pillboxes if core.where[i] >= 0]


def step_conversions(core: TcsCore) -> bool:
    """TCS Omaha 3.3e: at the beginning of the Mode Determination Phase the German may
    convert any pill box into its pill box squad, placed in either mode."""
    if not core.started:
        core.started = True
        core.sd = {"ended": False}
    if core.sd["ended"] or not live_pillboxes(core):
        return True
    return core.set_wait(Decision.CONVERT, "German", "convert pill boxes into squads, or end")


def legal_conversions(core: TcsCore) -> Iterator[Action]:
    yield EndConversions()
    for i in live_pillboxes(core):
        yield Convert.of(core.uid(i), "fire")
        yield Convert.of(core.uid(i), "move")


def apply_conversions(core: TcsCore, action: Action) -> None:
    if isinstance(action, EndConversions):
        core.sd["ended"] = True
        return
    assert isinstance(action, Convert)
    german = core.scenario.german
    pb = core.unit_index(action.unit)
    squad = german.squads[german.pillboxes.index(pb)]
    cell = core.where[pb]
    core.place(pb, LOST)
    core.bump("pillboxes_converted")
    core.place(squad, cell)
    core.steps[squad] = core.unit(squad).steps
    core.bump("german_steps_committed", core.steps[squad])
    core.fire_mode[squad] = action.mode == "fire"
    core.note(
        "tcs.convert",
        "3.3e",
        player="German",
        unit=action.unit,
        squad=core.uid(squad),
        hex=core.label(cell),
        mode=action.mode,
    )


def explain_conversions(core: TcsCore, action: Action) -> str:
    if isinstance(action, Convert) and action.mode not in ("fire", "move"):
        return "a converted squad is placed in fire or move mode (3.3e)"
    return ""
