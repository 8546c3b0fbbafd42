"""The landing phase: every unit scheduled this turn draws a fire card and checks
the Amphibious Landing Table (:func:`rules.landing_result`).

Reconstructed procedure (the published sequence of play is not available):

* Units land in order-of-battle order, leaders last. Each non-leader unit draws
  one fire card; its result letter is read on the unit's row of the table for
  the turn band. Drift moves the landing box east (or west); delays put the
  unit on a later turn, where it checks again.
* The unit then comes ashore on one of the two hexes of its box in the tide
  row of the turn (the player chooses).
* Mine strikes (landing table note *): on turns 7-22 a unit coming ashore in an
  uncleared obstacle hex loses a step when its landing card shows a mine.
  Infantry on turns 15+ draws its card only for this check; so does a tank
  landing after turn 3 on a mine turn (no table row: see ``rules.landing_row``).
* Reading (east end): a craft that drifts past Fox Red (the last box) went on
  along the coast and came back: it lands one turn later in the last box,
  without a new hazard check (the 16th RCT's I Company, HISTORY.md, landed
  late after such a detour).
* HQs and generals never check (note); a leader whose companion (``with``) has
  just drifted chooses whether to drift with it (and then lands in its hex);
  otherwise he lands in his planned box.
"""

from __future__ import annotations

from omaha.landing_table import rules
from omaha.landing_table.core import Core
from omaha.landing_table.scenario import Card

RULE = "DDOB Amphibious Landing Table"


class LandingMixin(Core):
    def _begin_landing(self) -> None:
        self._phase = "landing"
        due = [u for u, s in self.us.items() if s.status == "scheduled" and s.turn == self.turn]
        self.queue = [u for u in due if not self.is_leader(u)] + [
            u for u in due if self.is_leader(u)
        ]
        self.ctx = {}

    def _landing_step(self) -> bool:
        """Land the next unit; False when no unit is left to land this turn."""
        if not self.queue:
            return False
        self._land_unit(self.queue.pop(0))
        return True

    def _land_unit(self, uid: str) -> None:
        u = self.unit(uid)
        s = self.us[uid]
        first_check = not s.committed
        if first_check:
            s.committed = True
            self.stats["us_steps_committed"] += s.steps
        if u.kind.leader:
            comp = u.with_
            if comp is not None:
                cs = self.us[comp]
                if cs.status == "ashore" and cs.landed_turn == self.turn and cs.landed_box != s.box:
                    self.decision = {"kind": "follow", "unit": uid, "companion": comp}
                    return
            self.note("ddob.no_check", RULE + ", Notes", unit=uid, why="HQs and generals")
            self._ask_land(uid, s.box, None)
            return
        if s.no_check:
            s.no_check = False
            self.note("ddob.no_check", RULE, unit=uid, why="back from beyond the east end")
            self._ask_land(uid, s.box, None)
            return
        row = rules.landing_row(u.kind.cls, self.turn, self.scen.box_sector[u.box])
        if row is None:
            card = self.draw_card() if rules.mine_turn(self.turn) else None
            why = "no row for its class this turn"
            if card is not None:
                why += f"; card {card.describe()} for the mine check"
            self.note("ddob.no_check", RULE, unit=uid, why=why)
            self._ask_land(uid, s.box, card.id if card else None)
            return
        card = self.draw_card()
        effect = rules.landing_result(self.turn, row, card.result)
        if first_check and u.dd and row == "tank_turn1":
            self.stats["dd_launched"] += s.steps
        if first_check and u.kind.cls == "dukw":
            self.stats["dukw_loaded"] += s.steps
        self._landing_effect(uid, effect, card, row)

    def _landing_effect(self, uid: str, effect: rules.LandingEffect, card: Card, row: str) -> None:
        u = self.unit(uid)
        s = self.us[uid]
        e = effect.effect
        text = effect.describe()
        if e in ("drift", "lose_drift"):
            box, _ = rules.drift_box(s.box, effect.drift, len(self.scen.boxes))
            text += f" ({self.scen.boxes[s.box - 1]} -> {self.scen.boxes[box - 1]})"
        elif e == "delay":
            text += f" (to turn {self.turn + effect.turns})"
        self.note(
            "ddob.landing",
            effect.source,
            unit=uid,
            card=card.describe(),
            letter=card.result,
            row=f"{rules.landing_band(self.turn)} {row}",
            effect=text,
        )
        if e == "eliminated":
            if u.kind.cls == "dukw":
                self.stats["dukw_lost"] += s.steps
            self.stats["us_steps_lost"] += s.steps
            s.steps = 0
            s.status = "eliminated"
            return
        if e == "remove":
            s.status = "removed"
            return
        if e in ("delay", "delay_to"):
            s.turn = self.turn + effect.turns if e == "delay" else effect.to_turn
            return
        box = s.box
        if e in ("lose", "lose_drift"):
            lost = min(effect.steps, s.steps)
            if u.kind.cls == "dukw":
                self.stats["dukw_lost"] += lost
            self.stats["us_steps_lost"] += lost
            s.steps -= lost
            if s.steps <= 0:
                s.status = "eliminated"
                self.note("ddob.lost_at_sea", RULE, unit=uid)
                return
        if e in ("drift", "lose_drift"):
            box, over = rules.drift_box(box, effect.drift, len(self.scen.boxes))
            if over:
                s.turn = self.turn + 1
                s.box = box
                s.no_check = True
                self.note(
                    "ddob.overrun",
                    RULE + " (reading: east end)",
                    unit=uid,
                    box=self.scen.boxes[box - 1],
                )
                return
        most = min(rules.ranger_may_drift(u.kind.cls, effect), len(self.scen.boxes) - box)
        if most > 0:
            self.decision = {
                "kind": "drift",
                "unit": uid,
                "box": box,
                "most": most,
                "card": card.id,
            }
            return
        self._ask_land(uid, box, card.id)

    def _ask_land(self, uid: str, box: int, card: str | None) -> None:
        """The unit comes ashore in ``box``: the player picks one of its hexes."""
        self.decision = {"kind": "land", "unit": uid, "box": box, "card": card}

    def land_options(self, box: int) -> tuple[int, ...]:
        return self.scen.box_cells[(box, self.tide())]

    def _come_ashore(self, uid: str, cell: int, box: int, card: str | None) -> None:
        u = self.unit(uid)
        s = self.us[uid]
        s.status = "ashore"
        s.where = cell
        s.landed_box = box
        s.landed_turn = self.turn
        s.disrupted = False
        self.touch()
        self.stats["landed"] += 1
        if box != u.box:
            self.stats["landed_off_target"] += 1
        label = self.scen.board.labels[cell]
        self.note("ddob.ashore", RULE, unit=uid, hex=label, box=self.scen.boxes[box - 1])
        if (
            card is not None
            and rules.mine_turn(self.turn)
            and self.obstacle(cell)
            and self.scen.cards[card].mine
        ):
            self.stats["mines"] += 1
            self.note("ddob.mine", RULE + ", Notes *", unit=uid, hex=label)
            self.lose_steps(uid, 1, "mine strike", RULE + ", Notes *")
        if u.dd and self.us[uid].status == "ashore":
            self.stats["dd_ashore"] += self.us[uid].steps

    # -- decisions --------------------------------------------------------------------
    def _do_land(self, uid: str, cell: int) -> None:
        d = self.decision
        assert d is not None
        self.decision = None
        self._come_ashore(uid, cell, int(d["box"]), d.get("card"))

    def _do_drift(self, uid: str, boxes: int) -> None:
        d = self.decision
        assert d is not None
        box = int(d["box"]) + boxes
        self.note("ddob.ranger", RULE + ", Notes **", unit=uid, boxes=boxes)
        if boxes:
            self.note(
                "ddob.drift",
                RULE + ", Notes **",
                unit=uid,
                start=self.scen.boxes[int(d["box"]) - 1],
                end=self.scen.boxes[box - 1],
            )
        self._ask_land(uid, box, d.get("card"))

    def _do_follow(self, leader: str, drift: bool) -> None:
        d = self.decision
        assert d is not None
        comp = str(d["companion"])
        self.decision = None
        cs = self.us[comp]
        self.note(
            "ddob.follow",
            RULE + ", Notes",
            leader=leader,
            choice="drifts with" if drift else "does not drift with",
            unit=comp,
        )
        if drift:
            self._come_ashore(leader, cs.where, cs.landed_box, None)
        else:
            self._ask_land(leader, self.us[leader].box, None)
