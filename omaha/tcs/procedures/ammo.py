"""US artillery ammunition (2.9): battery fires landed with the guns, and later additions."""

from __future__ import annotations

from omaha.kernel.events import register_templates
from omaha.tcs.core import TcsCore
from omaha.tcs.rules import battery_fires

register_templates(
    {
        "tcs.ammo.added": "ammunition added, {calibre}: HE {he}, smoke {smoke}, illum {illum}",
        "tcs.ammo.battery": "{battery} lands {guns} guns ({calibre}): {he} HE, {smoke} smoke, "
        "{illum} illum battery fires",
    }
)


def step_ammo(core: TcsCore) -> bool:
    """TCS Omaha 2.9: the 0600 7 June and 0600 8 June additions to the pool."""
    label = core.turn_label
    for add in core.scenario.tables.additions:
        if add.turn == label:
            core.add_ammo(add.calibre, add.he, add.smoke, add.illum)
            core.note(
                "tcs.ammo.added",
                "2.9",
                calibre=add.calibre,
                he=add.he,
                smoke=add.smoke,
                illum=add.illum,
            )
    return True


def battery_lands(core: TcsCore, uid: str, guns: int) -> None:
    """TCS Omaha 2.9: a battery lands with battery fires for its surviving guns."""
    t = core.scenario.tables
    unit = core.scenario.oob.unit(uid)
    row = next(
        (r for r in t.batteries if r.unit in (unit.formation, unit.battalion)),
        None,
    )
    if row is None:
        return
    f = battery_fires(guns, row.divisor, t)
    core.add_ammo(row.calibre, f.he, f.smoke, f.illum)
    core.note(
        "tcs.ammo.battery",
        "2.9",
        player="US",
        battery=unit.formation,
        guns=guns,
        calibre=row.calibre,
        he=f.he,
        smoke=f.smoke,
        illum=f.illum,
    )
