"""The LnL Omaha game state: the sequence of play, card events, and the protocol.

Sequence (LnL Omaha: Outline of Play), each game turn:

American player turn: draw an action card and apply its event; disruption
removal (a card per disrupted unit: 4 or less, 5 or less for Rangers and the
Airborne) and Fired markers off; on turn 3 the landing of A/116, C/2nd Ranger and
C/743; fire phase; movement phase (German opportunity fire); close assault phase.

German player turn: disruption removal (3 or less, 4 or less for the 916th AT)
and Fired markers off; fire phase; movement phase (reinforcements enter;
American opportunity fire); close assault phase.

The game lasts 10 turns (11 with the ``+turn11`` option); then the victory hexes
each side controls decide (LnL Omaha: Winning).

Readings of the sequence (each tested in ``tests/lnl``):

* Reading: a "turn" in the card texts and the landing limits is the game turn,
  which ends after the German player turn: a "+6 HE this turn" card drawn in the
  American turn is still good for a German attack in the German turn, and a unit
  landed this turn may not opportunity-fire in the German movement phase either.
* Reading: at the start every victory hex is controlled by the side the scenario
  names (the Germans in the main game, the Americans in the bonus scenario);
  afterwards a hex belongs to the last side to enter it by any means (moving,
  entering, landing, retreating, advancing).
* Reading: reinforcements due in a movement phase must enter before the phase
  may end, if any free entry hex is left; the others wait for the next turn.
* Reading: a one-off event drawn again (916th AT, 101st Airborne, 2/916 early) has
  no effect; the 101st is placed at once and acts normally that turn.
* Reading: the bonus scenario lasts 10 turns like the main game and keeps naval
  gunfire support; equal points would be a draw (they cannot happen: 9 points).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Pending
from omaha.lnl.actions import (
    Add,
    AddBonus,
    AddNgfs,
    Assault,
    Bombard,
    Cancel,
    Deploy,
    Drop,
    EndPhase,
    Enter,
    FireWith,
    Lose,
    Move,
    OpFire,
    Pass,
    Place,
    Retreat,
    Stop,
    Target,
    With,
)
from omaha.lnl.assault import AssaultMixin
from omaha.lnl.cardevents import EventMixin
from omaha.lnl.combat import CombatMixin
from omaha.lnl.core import OFF, Attack
from omaha.lnl.moves import MoveMixin
from omaha.lnl.snapshot import SnapshotMixin

register_templates(
    {
        "lnl.turn": "=== turn {turn} ===",
        "lnl.phase": "{side} {phase} phase",
        "lnl.card": "action card {card} (value {value}): {event}",
        "lnl.event": "{text}",
        "lnl.rally": "{unit} rallies: card {card} value {value}, {outcome}",
        "lnl.place": "{unit} placed in {hex}",
        "lnl.wait": "{units} wait: {why}",
        "lnl.enter": "{unit} enters at {hex}",
        "lnl.move": "{units} move {start} -> {end} (cost {cost}, {left} MF left)",
        "lnl.fire": "{how}: {firers} at {target} ({target_kind}: {units}); {total} factors, "
        "shift {shift}, column {column}; card {card} value {value}: {result}",
        "lnl.strike": "{event}: strike on {target} with {he} HE, column {column}; "
        "card {card}: {result}",
        "lnl.strike_pass": "air strike not used",
        "lnl.assault": "close assault by {attackers} on {target} ({defenders}): {att} v {dfn}, "
        "shift {shift}, column {column}; card {card} value {value}: {result}",
        "lnl.step": "{unit} loses a step ({why})",
        "lnl.elim": "{unit} is eliminated ({why})",
        "lnl.retreat": "{unit} retreats {start} -> {end}",
        "lnl.advance": "{unit} advances {start} -> {end}",
        "lnl.end": "game over: {result}",
    }
)

#: Decisions that only put an attack or a move together: they change nothing the
#: cached fire-group queries depend on (``memo``).
_PURE = (
    FireWith,
    Bombard,
    Target,
    Add,
    AddNgfs,
    AddBonus,
    Cancel,
    Assault,
    OpFire,
    Pass,
    Move,
    With,
    Stop,
    Drop,
)

PHASE_NAMES = {
    "setup": "set-up",
    "card": "action card",
    "event": "action card",
    "rally": "disruption removal",
    "landing": "landing",
    "fire": "fire",
    "move": "movement",
    "assault": "close assault",
    "over": "game over",
}


class LnlState(EventMixin, SnapshotMixin, CombatMixin, AssaultMixin, MoveMixin):
    """A game of LnL Omaha in progress (see the module docstring)."""

    def _setup(self) -> None:
        scenario = self.scenario
        self.scen = scenario
        self.T = scenario.tables
        self._init_fields()
        for f in scenario.forces:
            if f.when == "turn":
                for u in f.units:
                    self.due[u] = f.turn
        self.place_queue = [u for _, u in scenario.setup_order]
        self.place_mode = "setup"
        self._proceed()

    # ------------------------------------------------------------------------
    # Protocol surface
    # ------------------------------------------------------------------------
    @property
    def turn_label(self) -> str:
        return f"Turn {self.turn}" if self.turn else "Set-up"

    @property
    def phase(self) -> str:
        if self.stage in ("setup", "over"):
            return PHASE_NAMES[self.stage]
        return f"{self.side} {PHASE_NAMES[self.stage]}"

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    @property
    def pending(self) -> Pending | None:
        if self.result is not None:
            return None
        if self.loss is not None:
            return Pending(
                "loss",
                self.loss.side,
                f"take {self.loss.remaining} more step loss(es): choose a unit",
            )
        if self.retreat is not None:
            u = self.retreat.queue[0]
            return Pending("retreat", self.retreat.side, f"retreat {self.uid(u)} one hex")
        if self.advance is not None:
            return Pending(
                "advance",
                self.advance.side,
                f"advance into {self.label(self.advance.cell)} or stay",
            )
        if self.attack is not None:
            a = self.attack
            if a.mode == "assault":
                return Pending(
                    "assault", a.side, f"add attackers on {self.label(a.target)} or resolve"
                )
            if a.target < 0:
                return Pending("fire", a.side, f"choose a target for {self.uid(a.firers[0])}")
            return Pending("fire", a.side, f"add firers on {self.label(a.target)} or resolve")
        if self.opp is not None:
            return Pending(
                "opportunity fire",
                self.opp.side,
                f"fire at {', '.join(self._ids(self.opp.movers))} in {self.label(self.opp.cell)} "
                "or pass",
            )
        if self.group is not None:
            return Pending("move", self.side, f"move {', '.join(self._ids(self.group.units))}")
        if self.strike is not None:
            return Pending("air strike", self.strike.side, "choose a hex to strike or pass")
        if self.place_queue:
            u = self.place_queue[0]
            return Pending("place", self.u(u).side, f"place {self.uid(u)}")
        prompts = {
            "fire": "fire, bombard or end the fire phase",
            "move": "move a unit, bring on reinforcements or end the movement phase",
            "assault": "close assault or end the close assault phase",
        }
        return Pending(self.stage, self.side, prompts.get(self.stage, self.stage))

    def _legal_actions(self) -> Iterable[Action]:
        if self.loss is not None:
            return self.loss_options()
        if self.retreat is not None:
            return self.retreat_options()
        if self.advance is not None:
            return self.advance_options()
        if self.attack is not None:
            if self.attack.mode == "assault":
                return self.assault_options()
            return self.attack_options()
        if self.opp is not None:
            return self.opp_options()
        if self.group is not None:
            return self.move_options()
        if self.strike is not None:
            return self.strike_options()
        if self.place_queue:
            return self.place_options()
        return self._main_options(with_end=True)

    def _main_options(self, *, with_end: bool) -> Iterator[Action]:
        if self.stage == "fire":
            for u in self.fire_leaders(self.side):
                yield FireWith(self.uid(u))
            if self.side == "US" and self.ngfs_left > 0:
                for c in sorted(self.occ):
                    if self.enemy_at(c, "US") and (
                        self.bombard_column(c, self.ngfs_left, self.bonus["US"]) is not None
                    ):
                        yield Bombard(self.label(c))
        elif self.stage == "move":
            entering = False
            for act in self.enter_options():
                entering = True
                yield act
            for u in self.units_of(self.side):
                if self.movable(u) and self.first_steps(u):
                    yield Move(self.uid(u))
            if entering:
                return  # reinforcements due must enter before the phase ends
        elif self.stage == "assault":
            for c in sorted(self.occ):
                if self.enemy_at(c, self.side) and self.best_assault(self.side, c) is not None:
                    yield Assault(self.label(c))
        if with_end:
            yield EndPhase()

    def _check_plan(self, action: Action) -> None:
        if isinstance(action, Deploy):
            self.check_deploy(action)
            return
        raise IllegalAction(self.explain_illegal(action))

    def explain_illegal(self, action: Action) -> str:
        pend = self.pending
        wanted = f" (waiting for {pend.player}: {pend.prompt})" if pend else ""
        uid = getattr(action, "unit", None)
        if isinstance(uid, str) and uid in self.scen.unit_index:
            u = self.scen.unit_index[uid]
            if self.dis[u] and isinstance(action, FireWith | Move | Add | OpFire):
                return (
                    f"{uid} is disrupted and cannot move, fire or start a close assault "
                    "(LnL Omaha: Fire Combat, Disrupted)" + wanted
                )
            if self.fired[u] and isinstance(action, FireWith | Move | Add | OpFire):
                return f"{uid} has a Fired marker (LnL Omaha: Outline of Play)" + wanted
        if isinstance(action, EndPhase) and self.stage == "move" and self.due_entries():
            return "reinforcements due this turn must enter first (LnL Omaha: Setting up the Game)"
        return f"'{action}' is not a legal action now{wanted}"

    # ------------------------------------------------------------------------
    # Applying an action
    # ------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        if self.loss is not None:
            assert isinstance(action, Lose)
            self.apply_lose(action)
        elif self.retreat is not None:
            assert isinstance(action, Retreat)
            self.apply_retreat(action)
        elif self.advance is not None:
            self.apply_advance(action)
        elif self.attack is not None:
            if self.attack.mode == "assault":
                self.apply_assault_action(action)
            else:
                self.apply_attack_action(action)
        elif self.opp is not None:
            self.apply_opp(action)
        elif self.group is not None:
            self.apply_move_action(action)
        elif self.strike is not None:
            self.apply_strike(action)
        elif isinstance(action, Deploy):
            self.apply_deploy(action)
        elif self.place_queue:
            assert isinstance(action, Place)
            self.apply_place(action)
        elif isinstance(action, EndPhase):
            self._end_phase()
        elif isinstance(action, FireWith):
            self.attack = Attack(self.side, "fire", [self.unit_index(action.unit)])
        elif isinstance(action, Bombard):
            self.attack = Attack("US", "bombard", [], self.cell_of(action.hex), "both", 1)
        elif isinstance(action, Move):
            self.start_move(action)
        elif isinstance(action, Enter):
            self.apply_enter(action)
        elif isinstance(action, Assault):
            self.attack = Attack(self.side, "assault", [], self.cell_of(action.hex))
        else:  # pragma: no cover - legality was checked by the base class
            raise IllegalAction(f"'{action}' cannot be applied now")
        if not isinstance(action, _PURE):
            self.memo = {}
        self._proceed()

    # ------------------------------------------------------------------------
    # The sequence of play
    # ------------------------------------------------------------------------
    def _proceed(self) -> None:
        """Run the automatic procedures until some player must decide."""
        while self.result is None:
            if self.place_queue and not self._busy_except_place():
                u = self.place_queue[0]
                if self.place_hexes(u):
                    return
                self._cannot_place()
                self.memo = {}
                continue
            if self._busy():
                return
            self.memo = {}
            st = self.stage
            if st == "setup":
                self._start_turn(1)
            elif st == "card":
                self._event_card()
                self.stage = "event"
            elif st == "event":
                self.stage = "rally"
            elif st == "rally":
                self._rally()
                if self.side == "US":
                    self._enter_stage("landing")
                else:
                    self._enter_stage("fire")
            elif st == "landing":
                self._enter_stage("fire")
            elif st in ("fire", "move", "assault"):
                if self.hold_phases or next(self._main_options(with_end=False), None):
                    return
                self._end_phase()
            else:  # pragma: no cover
                return

    def _cannot_place(self) -> None:
        """No legal hex for the next unit to place."""
        u = self.place_queue[0]
        if self.place_mode == "landing":
            # LnL Omaha: Setting up the Game: with no valid landing hex the
            # reinforcements wait for the following turn.
            waiting = list(self.place_queue)
            self.place_queue = []
            self.note(
                "lnl.wait",
                "LnL Omaha: Setting up the Game",
                player="US",
                units=self._ids(waiting),
                why="no free part ocean/beach hex; they land next turn",
            )
            return
        self.place_queue.pop(0)
        self.due.pop(u, None)
        self.note(
            "lnl.wait",
            "LnL Omaha: Setting up the Game",
            player=self.u(u).side,
            units=[self.uid(u)],
            why="no hex where it may be placed; it stays off the map",
        )

    def _start_turn(self, n: int) -> None:
        self.turn = n
        self.side = "US"
        self.ngfs_left = self.scen.ngfs_packets
        self.stage = "card"
        self.note("lnl.turn", "LnL Omaha: Outline of Play", turn=n)

    def _enter_stage(self, stage: str) -> None:
        self.stage = stage
        if stage == "landing":
            due = sorted(
                (self.scen.force_of[u], u)
                for u, t in self.due.items()
                if t <= self.turn
                and self.loc[u] == OFF
                and self.u(u).side == "US"
                and self.scen.forces[self.scen.force_of[u]].how == "landing"
            )
            self.place_queue = [u for _, u in due]
            self.place_mode = "landing"
        elif stage == "fire":
            self.fired_at = set()
        elif stage == "move":
            for u in range(len(self.moved)):
                self.moved[u] = False
            self.entered_by = {}
        elif stage == "assault":
            for u in range(len(self.assaulted)):
                self.assaulted[u] = False

    def _end_phase(self) -> None:
        if self.stage == "fire":
            self._enter_stage("move")
        elif self.stage == "move":
            left = self.due_entries()
            if left:
                self.note(
                    "lnl.wait",
                    "LnL Omaha: Setting up the Game",
                    player=self.side,
                    units=self._ids(left),
                    why="no free entry hex; they enter next turn",
                )
            self._enter_stage("assault")
        elif self.stage == "assault":
            self._end_player_turn()

    def _end_player_turn(self) -> None:
        if self.side == "US":
            self.side = "German"
            self.stage = "rally"
            return
        # the game turn ends: the +6 HE cards and movement permissions lapse
        self.bonus = {"US": False, "German": False}
        self.perms = set()
        if self.turn >= self.scen.turns:
            self._finish()
            return
        self._start_turn(self.turn + 1)

    def _rally(self) -> None:
        """Disruption removal and Fired markers off (LnL Omaha: Outline of Play)."""
        for u in self.units_of(self.side):
            if self.dis[u]:
                value, card = self.card_value("rally")
                ok = value <= self.u(u).type.rally
                if ok:
                    self.dis[u] = False
                self.note(
                    "lnl.rally",
                    "LnL Omaha: Disruption Removal Phase",
                    dice=[value],
                    player=self.side,
                    unit=self.uid(u),
                    value=value,
                    card=card or "d6",
                    outcome="Disrupted marker removed" if ok else "stays disrupted",
                )
        for u in self.units_of(self.side):
            self.fired[u] = False

    # ------------------------------------------------------------------------
    # The end
    # ------------------------------------------------------------------------
    def _finish(self) -> None:
        self.stage = "over"
        if self.scen.victory_mode == "hexes":
            n = len(self.held())
            total = len(self.T.victory)
            if n >= total:
                out = Outcome("US", "significant US victory")
            elif n >= 4:
                out = Outcome("US", "minor US victory")
            elif n == 3:
                out = Outcome(None, "draw")
            else:
                out = Outcome("German", "German victory")
            out = Outcome(
                out.winner,
                out.level,
                (("US victory hexes", float(n)),),
                ", ".join(self._labels(self.held())) or "none held",
            )
        else:
            pts = self.points()
            if pts["US"] > pts["German"]:
                winner: str | None = "US"
            elif pts["German"] > pts["US"]:
                winner = "German"
            else:
                winner = None  # Reading: the scenario gives no tie rule; equal points draw
            level = f"{winner} victory" if winner else "draw"
            out = Outcome(
                winner,
                level,
                (("US", float(pts["US"])), ("German", float(pts["German"]))),
            )
        self.result = out
        self.note("lnl.end", "LnL Omaha: Winning", result=str(out))

    def metrics(self) -> dict[str, float]:
        defs = self.scen.units
        us = [u for u in range(len(defs)) if defs[u].side == "US" and self.entered[u]]
        ger = [u for u in range(len(defs)) if defs[u].side == "German" and self.entered[u]]
        first = [
            u for f in self.scen.forces if f.when == "setup" and f.how == "landing" for u in f.units
        ]
        tanks = [
            u
            for f in self.scen.forces
            if f.how == "landing"
            for u in f.units
            if defs[u].armor_unit and self.entered[u]
        ]
        exits: dict[str, list[int]] = {}
        for c in range(self.T.n):
            ex = self.scen.board.prop(c, "exit")
            if isinstance(ex, str):
                exits.setdefault(ex, []).append(c)
        held = self.held()
        pts = self.points()
        win = self.result is not None and self.result.winner == "US"
        return {
            "us_win": 1.0 if win else 0.0,
            "objectives_held": len(held) / max(1, len(self.T.victory)),
            "us_losses": self.steps_lost["US"] / max(1, sum(defs[u].type.steps for u in us)),
            "german_losses": self.steps_lost["German"]
            / max(1, sum(defs[u].type.steps for u in ger)),
            "turns_played": float(self.turn),
            "first_wave_ashore": (
                sum(max(0, self.ashore[u]) for u in first) / sum(defs[u].type.steps for u in first)
                if first
                else math.nan  # no landing in this scenario (Vierville)
            ),
            "dd_tanks_ashore": (
                sum(1 for u in tanks if self.ashore[u] >= 0) / len(tanks) if tanks else math.nan
            ),
            "exits_opened": float(
                sum(1 for cells in exits.values() if all(self.control[c] == "US" for c in cells))
            ),
            "victory_hexes_held": float(len(held)),
            "us_points": float(pts["US"]),
            "fortifications_taken": float(
                sum(1 for c in range(self.T.n) if self.T.fort[c] and self.control[c] == "US")
            ),
            "us_steps_lost": float(self.steps_lost["US"]),
            "german_steps_lost": float(self.steps_lost["German"]),
            "at916_entered": 1.0
            if any(self.entered[u.idx] for u in defs if u.company == "916th AT")
            else 0.0,
        }
