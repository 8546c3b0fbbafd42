"""The Mode Determination Phase: voluntary pill box conversions (3.3e), then each
side sets the modes of its stacks (series 4.0, reconstructed).

A change made here is free. During an Action Phase a unit that fires enters fire
mode (free) and a unit that moves from fire mode first pays half its allowance to
enter move mode ([op16]). Pill boxes and rocket pits are always in fire mode
(3.3d, 3.4a).
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import Convert, EndConversions, EndModes, SetMode
from omaha.tcs.core import LOST, Decision, TcsCore

register_templates(
    {
        "tcs.convert": "pill box {unit} is converted to {squad} in {hex}, {mode} mode",
        "tcs.mode": "{hex} to {mode} mode ({units} units changed)",
    }
)


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
    yield EndConversions.of()
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
    core.set_steps(squad, core.unit(squad).steps)
    core.bump("german_steps_committed", core.steps[squad])
    core.set_fire_mode(squad, action.mode == "fire")
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


# ------------------------------------------------------------------ modes
def mobile(core: TcsCore, i: int, side: str) -> bool:
    u = core.unit(i)
    if u.side != side or u.type.move == "none" or core.where[i] < 0:
        return False
    return not (
        side == "German"
        and u.formation not in core.released
        and core.scenario.german.formation(u.formation).status != "released"
    )


def stacks(core: TcsCore, side: str, mode: str) -> list[int]:
    """Cells with a unit of ``side`` that is not in ``mode`` and may change it."""
    want = mode == "fire"
    out = []
    for c in sorted(core.cells_of(side)):
        if any(mobile(core, i, side) and core.fire_mode[i] != want for i in core.units_at(c)):
            out.append(c)
    return out


def options(core: TcsCore, side: str) -> list[tuple[str, str]]:
    """(stack, mode) pairs a side may set: worked out once for the phase (nothing moves
    in it; a stack set is not offered again)."""

    def make() -> list[tuple[str, str]]:
        return [
            (core.label(c), mode) for mode in ("fire", "move") for c in stacks(core, side, mode)
        ]

    return core.derived(("modes", side), make)


def step_us_modes(core: TcsCore) -> bool:
    return _step_modes(core, "US")


def step_german_modes(core: TcsCore) -> bool:
    return _step_modes(core, "German")


def _step_modes(core: TcsCore, side: str) -> bool:
    """Series 4.0 (reconstructed): a side puts stacks in fire or move mode, for free."""
    if not core.started:
        core.started = True
        core.sd = {"ended": False, "done": [], "side": side}
    if core.sd["ended"] or not any(True for _ in legal_modes(core)):
        return True
    return core.set_wait(Decision.MODES, side, "put stacks in fire or move mode, or end")


def legal_modes(core: TcsCore) -> Iterator[Action]:
    """A stack not yet set this phase enters the mode it is not in (each once)."""
    side: str = core.sd["side"]
    done = set(core.sd["done"])
    found = False
    for label, mode in options(core, side):
        if label not in done:
            found = True
            yield SetMode.of(label, mode)
    if found:
        yield EndModes.of()


def apply_modes(core: TcsCore, action: Action) -> None:
    if isinstance(action, EndModes):
        core.sd["ended"] = True
        return
    assert isinstance(action, SetMode) and core.wait is not None
    side = core.wait[1]
    c = core.cell(action.hex)
    changed = 0
    for i in core.units_at(c):
        if mobile(core, i, side):
            want = action.mode == "fire"
            if core.fire_mode[i] != want:
                changed += 1
                core.set_fire_mode(i, want)
                if not want:
                    core.set_dug_in(i, False)
    core.sd["done"].append(action.hex)
    core.note("tcs.mode", "4.0", player=side, units=changed, hex=action.hex, mode=action.mode)


def explain_modes(core: TcsCore, action: Action) -> str:
    if isinstance(action, SetMode):
        if action.mode not in ("fire", "move"):
            return "a stack enters fire or move mode"
        return "each stack changes mode once a phase, and only its own units that may move"
    return ""
