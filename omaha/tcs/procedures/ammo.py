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


#: Where a calibre's pool keeps each kind of round (``TcsCore.add_ammo``).
HE, SMOKE, ILLUM = 0, 1, 2


def batteries_with(core: TcsCore, rounds: int) -> list[tuple[str, str]]:
    """Landed US batteries (formation, calibre) that have not fired this turn, with a
    round of the kind ``rounds`` (HE, SMOKE, ILLUM) of their calibre in the pool (2.9)."""
    t = core.scenario.tables
    out: dict[str, str] = {}
    for i in core.us_units():
        u = core.unit(i)
        if u.type.kind != "gun" or core.where[i] < 0 or core.steps[i] <= 0:
            continue
        row = next((r for r in t.batteries if r.unit in (u.formation, u.battalion)), None)
        if row is None or u.formation in core.missions:
            continue
        if core.ammo.get(row.calibre, [0, 0, 0])[rounds] > 0:
            out[u.formation] = row.calibre
    return sorted(out.items())


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
