"""The German Action Phase, the end of each turn (2.2a smoke, 2.7b) and the end of play."""

from __future__ import annotations

from omaha.kernel.events import register_templates
from omaha.kernel.protocol import Outcome
from omaha.tcs.core import TcsCore

register_templates(
    {
        "tcs.lctr.smoke_gone": "the LCT(R) smoke clears ({hexes} hexes)",
        "tcs.division29.forfeit": "29th ID units still on the map: {units}",
        "tcs.end": "the landing scenario ends: {result}",
    }
)


def step_german(core: TcsCore) -> bool:
    """The German Action Phase: its fires need the series tables (part 2)."""
    return True


def step_end(core: TcsCore) -> bool:
    """End of turn: the LCT(R) smoke clears after the first turn (2.2a); the 29th ID
    forfeits the game if any of its units is still on the map at 1200 7 June (2.7b)."""
    if core.turn == 0 and core.smoke:
        core.note("tcs.lctr.smoke_gone", "2.2a", hexes=len(core.smoke))
        core.smoke = set()
    if core.turn_label == core.scenario.tables.exit29_by:
        left = [
            core.uid(i)
            for i, w in enumerate(core.where)
            if w >= 0 and core.scenario.oob.units[i].is_29th
        ]
        if left:
            core.note("tcs.division29.forfeit", "2.7b", units=left)
            core.result = Outcome(
                "German",
                "US forfeit",
                detail=f"{len(left)} 29th ID units still on the map (2.7b)",
            )
    return True


def finish(core: TcsCore) -> None:
    """The last turn is over: the landing scenario ends with no winner."""
    landed = sum(v for k, v in core.stats.items() if k.startswith("steps_landed_"))
    lost = sum(v for k, v in core.stats.items() if k.startswith("steps_lost_"))
    ashore = sum(core.steps[i] for i, w in enumerate(core.where) if w >= 0)
    core.result = Outcome(
        None,
        "landing over",
        points=(("steps ashore", float(ashore)), ("steps lost", float(lost))),
        detail=f"{landed} steps landed, {lost} lost; the battle inland is part 2",
    )
    core.note("tcs.end", "", result=str(core.result))
