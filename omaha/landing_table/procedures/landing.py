"""The landing phase: every unit scheduled this turn draws a fire card and checks
the Amphibious Landing Table (:func:`rules.landing_result`), then comes ashore.

The procedure is reconstructed (READINGS.md, "landing"): units land in
order-of-battle order, leaders last; drift moves the landing box, delays put a
unit on a later turn; the unit comes ashore on a hex of its box in the tide row
(the player chooses); mine strikes on turns 7-22 (note *); a craft drifting
past the east end comes back a turn late; leaders never check and may drift
with the unit they land with.
"""

from __future__ import annotations

from omaha.landing_table import rules
from omaha.landing_table.components.cards import Card
from omaha.landing_table.components.charts import LandingEffect
from omaha.landing_table.core import ASHORE, ELIMINATED, REMOVED, SCHEDULED, LandingTableCore, Phase

RULE = "DDOB Amphibious Landing Table"


def begin_phase(core: LandingTableCore) -> None:
    """Queue the units scheduled for this turn: order of battle, leaders last."""
    core.current_phase = Phase.LANDING
    due = [u for u, s in core.us.items() if s.status == SCHEDULED and s.turn == core.turn]
    leaders = [u for u in due if core.is_leader(u)]
    core.set_queue([u for u in due if u not in leaders] + leaders)
    core.ctx = {}


def land_next(core: LandingTableCore) -> bool:
    """Land the next queued unit; False when no unit is left to land this turn."""
    if not core.queue:
        return False
    land_unit(core, core.pop_queue())
    return True


def land_unit(core: LandingTableCore, uid: str) -> None:
    """One unit's landing check: its row of the table for the turn, one fire card."""
    u = core.unit(uid)
    s = core.own_us(uid)
    first_check = not s.committed
    if first_check:
        s.committed = True
        core.stats["us_steps_committed"] += s.steps
    if u.kind.leader:
        comp = u.with_
        if comp is not None:
            cs = core.us[comp]
            if cs.status == ASHORE and cs.landed_turn == core.turn and cs.landed_box != s.box:
                core.decision = {"kind": "follow", "unit": uid, "companion": comp}
                return
        core.note("ddob.no_check", RULE + ", Notes", unit=uid, why="HQs and generals")
        _ask_land(core, uid, s.box, None)
        return
    if s.no_check:
        s.no_check = False
        core.note("ddob.no_check", RULE, unit=uid, why="back from beyond the east end")
        _ask_land(core, uid, s.box, None)
        return
    row = rules.landing_row(u.kind.cls, core.turn, core.scen.box_sector[u.box])
    if row is None:
        card = core.draw_card() if rules.mine_turn(core.turn) else None
        why = "no row for its class this turn"
        if card is not None:
            why += f"; card {card.describe()} for the mine check"
        core.note("ddob.no_check", RULE, unit=uid, why=why)
        _ask_land(core, uid, s.box, card.id if card else None)
        return
    card = core.draw_card()
    effect = rules.landing_result(core.turn, row, card.result)
    if first_check and u.dd and row == "tank_turn1":
        core.stats["dd_launched"] += s.steps
    if first_check and u.kind.cls == "dukw":
        core.stats["dukw_loaded"] += s.steps
    _landing_effect(core, uid, effect, card, row)


def _landing_effect(
    core: LandingTableCore, uid: str, effect: LandingEffect, card: Card, row: str
) -> None:
    u = core.unit(uid)
    s = core.own_us(uid)
    boxes = core.scen.boxes
    e = effect.effect
    text = effect.describe()
    if e in ("drift", "lose_drift"):
        box, _ = rules.drift_box(s.box, effect.drift, len(boxes))
        text += f" ({boxes[s.box - 1]} -> {boxes[box - 1]})"
    elif e == "delay":
        text += f" (to turn {core.turn + effect.turns})"
    core.note(
        "ddob.landing",
        effect.source,
        unit=uid,
        card=card.describe(),
        letter=card.result,
        row=f"{rules.landing_band(core.turn)} {row}",
        effect=text,
    )
    if e == "eliminated":
        if u.kind.cls == "dukw":
            core.stats["dukw_lost"] += s.steps
        core.stats["us_steps_lost"] += s.steps
        s.steps = 0
        s.status = ELIMINATED
        return
    if e == "remove":
        s.status = REMOVED
        return
    if e in ("delay", "delay_to"):
        s.turn = core.turn + effect.turns if e == "delay" else effect.to_turn
        return
    box = s.box
    if e in ("lose", "lose_drift"):
        lost = min(effect.steps, s.steps)
        if u.kind.cls == "dukw":
            core.stats["dukw_lost"] += lost
        core.stats["us_steps_lost"] += lost
        s.steps -= lost
        if s.steps <= 0:
            s.status = ELIMINATED
            core.note("ddob.lost_at_sea", RULE, unit=uid)
            return
    if e in ("drift", "lose_drift"):
        box, over = rules.drift_box(box, effect.drift, len(boxes))
        if over:
            s.turn = core.turn + 1
            s.box = box
            s.no_check = True
            core.note("ddob.overrun", RULE + " (reading: east end)", unit=uid, box=boxes[box - 1])
            return
    most = min(rules.ranger_may_drift(u.kind.cls, effect), len(boxes) - box)
    if most > 0:
        core.decision = {"kind": "drift", "unit": uid, "box": box, "most": most, "card": card.id}
        return
    _ask_land(core, uid, box, card.id)


def _ask_land(core: LandingTableCore, uid: str, box: int, card: str | None) -> None:
    """The unit comes ashore in ``box``: the player picks one of its hexes."""
    core.decision = {"kind": "land", "unit": uid, "box": box, "card": card}


def come_ashore(core: LandingTableCore, uid: str, cell: int, box: int, card: str | None) -> None:
    """The unit lands at ``cell``; a mine strike if its card shows a mine (note *)."""
    u = core.unit(uid)
    s = core.land(uid, cell)
    s.landed_box = box
    s.landed_turn = core.turn
    core.stats["landed"] += 1
    if box != u.box:
        core.stats["landed_off_target"] += 1
    label = core.scen.board.labels[cell]
    core.note("ddob.ashore", RULE, unit=uid, hex=label, box=core.scen.boxes[box - 1])
    if (
        card is not None
        and rules.mine_turn(core.turn)
        and core.obstacle(cell)
        and core.scen.cards[card].mine
    ):
        core.stats["mines"] += 1
        core.note("ddob.mine", RULE + ", Notes *", unit=uid, hex=label)
        core.lose_steps(uid, 1, "mine strike", RULE + ", Notes *")
    if u.dd and core.us[uid].status == ASHORE:
        core.stats["dd_ashore"] += core.us[uid].steps


# -- the player's decisions -----------------------------------------------------------
def land_at(core: LandingTableCore, uid: str, cell: int) -> None:
    """``land U at H``: the unit awaiting its hex comes ashore there."""
    d = core.decision
    assert d is not None
    core.decision = None
    come_ashore(core, uid, cell, int(d["box"]), d.get("card"))


def drift(core: LandingTableCore, uid: str, boxes: int) -> None:
    """``drift U n``: a Ranger's voluntary drift east (note **), then it picks a hex."""
    d = core.decision
    assert d is not None
    box = int(d["box"]) + boxes
    core.note("ddob.ranger", RULE + ", Notes **", unit=uid, boxes=boxes)
    if boxes:
        core.note(
            "ddob.drift",
            RULE + ", Notes **",
            unit=uid,
            start=core.scen.boxes[int(d["box"]) - 1],
            end=core.scen.boxes[box - 1],
        )
    _ask_land(core, uid, box, d.get("card"))


def follow(core: LandingTableCore, leader: str, with_unit: bool) -> None:
    """``follow L yes|no``: a leader drifts with his unit (lands in its hex) or not."""
    d = core.decision
    assert d is not None
    comp = str(d["companion"])
    core.decision = None
    cs = core.us[comp]
    core.note(
        "ddob.follow",
        RULE + ", Notes",
        leader=leader,
        choice="drifts with" if with_unit else "does not drift with",
        unit=comp,
    )
    if with_unit:
        come_ashore(core, leader, cs.where, cs.landed_box, None)
    else:
        _ask_land(core, leader, core.us[leader].box, None)
