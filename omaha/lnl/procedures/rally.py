"""Disruption removal and Fired markers off (LnL Omaha: Outline of Play,
Disruption Removal Phase): an action card (or a d6) per disrupted unit of the
phasing side, removing the marker at the unit's rally value or less."""

from __future__ import annotations

from omaha.lnl.core import LnlCore


def rally(core: LnlCore) -> None:
    """Each disrupted unit of the phasing side tries to rally, in unit order; then
    every Fired marker of that side comes off."""
    for u in core.units_of(core.side):
        if core.dis[u]:
            value, card = core.card_value("rally")
            ok = value <= core.u(u).type.rally
            if ok:
                core.set_disrupted(u, False)
            core.note(
                "lnl.rally",
                "LnL Omaha: Disruption Removal Phase",
                dice=[value],
                player=core.side,
                unit=core.uid(u),
                value=value,
                card=card or "d6",
                outcome="Disrupted marker removed" if ok else "stays disrupted",
            )
    for u in core.units_of(core.side):
        if core.fired[u]:
            core.set_fired(u, False)
