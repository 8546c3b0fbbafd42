"""US command after landing: op sheets carried out from their correct sector (2.3a)."""

from __future__ import annotations

from omaha.kernel.events import register_templates
from omaha.tcs.core import TcsCore

register_templates(
    {
        "tcs.opsheet.start": "{unit} is on its op sheet's sector {sector}",
    }
)


def sheet_sector(core: TcsCore, i: int) -> str | None:
    """The beach sector the op sheet of unit ``i`` names (None: no landing op sheet)."""
    if core.plan is None or core.scenario.no_opsheets:
        return None
    uid = core.uid(i)
    for o in core.plan.opsheets:
        if uid in o.units:
            return o.sector
    return None


def check_task(core: TcsCore, i: int) -> None:
    """TCS Omaha 2.3a: a landing op sheet is carried out only from its correct sector."""
    sheet = sheet_sector(core, i)
    if sheet is None or core.on_task[i] or core.where[i] < 0:
        return
    sector = core.scenario.beach.sector_of(core.where[i])
    if sector is not None and sector.name == sheet:
        core.on_task[i] = True
        core.note("tcs.opsheet.start", "2.3a", player="US", unit=core.uid(i), sector=sheet)
