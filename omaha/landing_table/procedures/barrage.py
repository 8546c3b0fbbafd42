"""US barrages: an artillery unit or Naval Fire Marker draws a fire card and reads
the US Barrage Table (reconstructed procedure: READINGS.md, "US orders")."""

from __future__ import annotations

from omaha.landing_table import rules
from omaha.landing_table.core import LandingTableCore
from omaha.landing_table.procedures.orders import done

BARRAGE = "DDOB US Barrage Table"


def barrage(core: LandingTableCore, uid: str, pid: str) -> None:
    """``barrage P with U``: the card's colours and symbol against the table."""
    core.decision = None
    done(core, uid)
    p = core.scen.pos_by_id[pid]
    ps = core.pos[pid]
    gid = ps.unit
    assert gid is not None
    card = core.draw_card()
    symbol = core.naval_symbol(uid) if uid.startswith("NF") else core.unit(uid).symbol
    colour = p.colour in card.colours
    sym = symbol == card.symbol
    strength = core.strength(uid)
    result = rules.barrage_result(colour, sym, ps.depth is not None, strength)
    core.stats["barrages"] += 1
    core.note(
        "ddob.barrage",
        BARRAGE,
        unit=uid,
        position=pid,
        card=card.describe(),
        colour="yes" if colour else "no",
        symbol="yes" if sym else "no",
        depth="yes" if ps.depth is not None else "no",
        strength=strength,
        result=result.replace("_", " "),
    )
    if result in ("disrupt", "disrupt_remove_depth"):
        core.own_ger(gid).disrupted = True
    if result == "disrupt_remove_depth":
        ps = core.own_pos(pid)
        ps.depth = None
        ps.depth_revealed = False
