"""Night turns (the series' night rules, reconstructed; our text gives only 2.6b's x3).

At night a hex is seen only from close by (the series' night visibility) unless an
illumination round lights it: in the US Aircraft and Artillery Phase of a night turn
a battery that has not fired spends one illumination round of its calibre from the
pool (2.9) over a hex with enemy units; that hex and those within the night table's
radius are lit for the rest of the turn, seen as by day, by the US observers and by
the ships off the north edge (so a destroyer mission, 2.6b, may be called at night on
a lit hex). No A-20 flies at night (2.10). READINGS.md gives the provenance.
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.events import register_templates
from omaha.tcs.core import TcsCore
from omaha.tcs.procedures.ammo import ILLUM, batteries_with

register_templates(
    {
        "tcs.illum": "{battery} fires an illumination round over {target}: {hexes} hexes lit",
    }
)


def illum_batteries(core: TcsCore) -> list[tuple[str, str]]:
    """Landed US batteries (formation, calibre) that have not fired this turn, with an
    illumination round of their calibre in the pool."""
    return batteries_with(core, ILLUM)


def illum_targets(core: TcsCore, enemy: list[int]) -> Iterator[int]:
    """Where an illumination round may be fired: on a night turn, over any hex with
    enemy units not lit already, when a battery has a round."""
    if not core.night or not illum_batteries(core):
        return
    for c in enemy:
        if c not in core.illuminated:
            yield c


def fire_illumination(core: TcsCore, target: int) -> None:
    """The first ready battery fires one illumination round over ``target``."""
    battery, calibre = illum_batteries(core)[0]
    core.missions.add(battery)
    core.add_ammo(calibre, 0, 0, -1)
    radius = core.scenario.tables.night_illum_radius
    row = core.scenario.beach.dist[target]
    lit = {c for c in range(len(row)) if row[c] <= radius}
    core.illuminate(lit)
    core.note(
        "tcs.illum", "2.9", player="US", battery=battery, target=core.label(target), hexes=len(lit)
    )
