"""Bots for TCS Omaha: random (the kernel's), and the historical players.

* :class:`HistoricalUS` commits the scenario's historical landing plan, loads
  the follow-on transports in a historical order (2.1m), lands them at the
  draws, takes one bomb-laden and one gunship A-20, smokes the pill boxes,
  advances straight landward with the tide, moves units that landed on the
  wrong beach toward their own (2.3e) and the 29th ID toward the west edge
  (2.7b).
* :class:`HistoricalGerman` sets up at the historical pill box locations (1.7)
  and strikes the strongest US hex when the A-20 sortie turns (2.10).

Each is one-sided (``IllegalAction`` for the other side); ``TcsGame.lineup``
pairs them. :class:`HistoricalBot` plays both sides. Bots have their own
dice and never touch the state's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.dice import RandomDice
from omaha.kernel.protocol import State
from omaha.tcs.actions import (
    Advance,
    AirLoadout,
    AssignNfst,
    BombHex,
    BombUnit,
    CloseBoat,
    EndAction,
    EndOverdraft,
    EndPlan,
    EndRockets,
    EndSmoke,
    EndTransports,
    ExitWest,
    HoldStrike,
    LandAt,
    Load,
    LoadSteps,
    MoveTo,
    OpenTransport,
    Overdraft,
    PlacePillbox,
    PlaceRocketPit,
    Rockets,
    Select,
    SmokeCheck,
    Stay,
    Strike,
    UsePlan,
    UseSetup,
)
from omaha.tcs.core import AWAIT, Decision, TcsCore

#: Follow-on landing order for transports: formation prefixes by priority, and
#: the beach each goes to (reconstructed from the historical build-up: the 18th
#: RCT and 115th RCT at E-1 on Easy Red, the 26th RCT, then artillery and armour).
TRANSPORT_ORDER: tuple[tuple[str, str], ...] = (
    ("/115", "EasyRed-T"),
    ("115", "EasyRed-T"),
    ("/1/18", "EasyRed-T"),
    ("/3/18", "EasyRed-T"),
    ("/18", "EasyRed-T"),
    ("18", "EasyRed-T"),
    ("/16", "EasyRed-T"),
    ("16", "EasyRed-T"),
    ("7FA", "EasyRed-T"),
    ("/1/26", "FoxGreen-T"),
    ("/2/26", "FoxGreen-T"),
    ("/3/26", "FoxGreen-T"),
    ("/26", "FoxGreen-T"),
    ("26", "FoxGreen-T"),
    ("81CM", "EasyRed-T"),
    ("32FA", "EasyRed-T"),
    ("33FA", "FoxGreen-T"),
    ("5FA", "EasyRed-T"),
    ("186FA", "EasyRed-T"),
    ("62AFA", "EasyRed-T"),
    ("741", "EasyRed-T"),
    ("745", "FoxGreen-T"),
)


def _rank(uid: str) -> tuple[int, str]:
    formation = uid.split(".")[0]
    for k, (key, _) in enumerate(TRANSPORT_ORDER):
        if formation.endswith(key):
            return k, uid
    return len(TRANSPORT_ORDER), uid


def _box_for(uid: str) -> str:
    k, _ = _rank(uid)
    return TRANSPORT_ORDER[k][1] if k < len(TRANSPORT_ORDER) else "EasyRed-T"


def _tcs(state: State[Any]) -> TcsCore:
    if not isinstance(state, TcsCore):
        raise IllegalAction("this bot plays TCS Omaha only")
    return state


Chooser = Callable[[TcsCore, tuple[Action, ...]], Action | None]


class HistoricalUS:
    """The US of 6 June: the historical plan and sensible follow-up choices."""

    side = "US"

    def __init__(self, seed: int = 0) -> None:
        self.rng = RandomDice(seed)
        #: how the bot answers each kind of decision (the first legal action otherwise)
        self.choosers: dict[Decision, Chooser] = {
            Decision.PLAN: self._plan,
            Decision.ROCKETS: self._rockets,
            Decision.NFST: self._nfst,
            Decision.TIDE: self._tide,
            Decision.OVERDRAFT: self._overdraft,
            Decision.TRANSPORTS: self._transports,
            Decision.AIR: self._air,
            Decision.SMOKE: self._smoke,
            Decision.LAND: self._land,
            Decision.STRIKE: self._strike,
            Decision.MOVE: self._move,
        }

    def choose(self, state: State[Any]) -> Action:
        s = _tcs(state)
        if s.current_player() != self.side:
            raise IllegalAction(f"the historical US bot does not play the {s.current_player()}")
        legal = s.legal_actions()
        pick = self.choosers.get(s.wait[0]) if s.wait else None
        choice = pick(s, legal) if pick is not None else None
        return choice if choice is not None else legal[0]

    # -- set-up ---------------------------------------------------------------
    def _plan(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        if UsePlan("historical") in legal:
            return UsePlan("historical")
        if CloseBoat() in legal:
            return CloseBoat()
        return EndPlan() if EndPlan() in legal else None

    def _rockets(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        for c in s.pillboxes:
            a = Rockets(s.label(c))
            if a in legal and c not in s.lctr_targets:
                return a
        return EndRockets()

    def _nfst(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        planned = s.plan.units_aboard() if s.plan else {}
        options = [a for a in legal if isinstance(a, AssignNfst)]
        for a in options:
            if a.unit in planned:
                return a
        return options[0] if options else None

    # -- the turn ----------------------------------------------------------------
    def _tide(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        options = [a for a in legal if isinstance(a, Advance)]
        if not options:
            return None
        start = s.cell(options[0].start)
        beach = s.scenario.beach

        def key(a: Advance) -> tuple[int, int, str]:
            c = s.cell(a.to)
            return beach.row[c], abs(beach.col[c] - beach.col[start]), a.to

        return min(options, key=key)

    def _overdraft(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        adds = [a for a in legal if isinstance(a, Overdraft)]
        return adds[0] if adds else EndOverdraft()

    def _transports(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        loads = [a for a in legal if isinstance(a, Load | LoadSteps)]
        if loads:
            return min(loads, key=lambda a: _rank(a.unit))
        if CloseBoat() in legal:
            return CloseBoat()
        opens = [a for a in legal if isinstance(a, OpenTransport)]
        if s.partial is not None and opens:
            want = _box_for(s.partial)
            return next((a for a in opens if a.box == want), opens[0])
        planned = s.plan.units_aboard() if s.plan else {}
        waiting = sorted(
            (
                u.id
                for u in s.scenario.oob.units
                if s.where[u.index] == AWAIT and not u.dd and u.id not in planned
            ),
            key=_rank,
        )
        if not waiting or not opens:
            return EndTransports()
        first = waiting[0]
        cls = s.scenario.oob.unit(first).type.load_class
        kind = "LCI" if cls == 1 and any(a.kind == "LCI" for a in opens) else "LCT"
        box = _box_for(first)
        for a in opens:
            if a.kind == kind and a.box == box:
                return a
        return EndTransports()

    def _air(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        return AirLoadout(1)

    def _smoke(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        """Smoke the pill box hexes and their neighbours (they blind the beach defence)."""
        board = s.scenario.board
        near = set(s.pillboxes)
        for p in s.pillboxes:
            near.update(board.neighbours[p])
        checks = [a for a in legal if isinstance(a, SmokeCheck) and s.cell(a.hex) in near]
        return checks[0] if checks else EndSmoke()

    def _land(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        options = [a for a in legal if isinstance(a, LandAt)]
        if not options:
            return None
        beach = s.scenario.beach
        # towards the middle of the options (the draws lie mid-beach); ties west
        cols = sorted(beach.col[s.cell(a.hex)] for a in options)
        mid = cols[len(cols) // 2]
        return min(options, key=lambda a: (abs(beach.col[s.cell(a.hex)] - mid), a.hex))

    def _strike(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        bombs = [a for a in legal if isinstance(a, BombUnit)]
        if bombs:
            return bombs[0]
        hits = [a for a in legal if isinstance(a, Strike | BombHex)]
        if not hits:
            return HoldStrike()
        us = [w for w in s.where if w >= 0]
        board = s.scenario.board
        return min(
            hits,
            key=lambda a: (min((board.distance(s.cell(a.hex), w) for w in us), default=99), a.hex),
        )

    def _move(self, s: TcsCore, legal: tuple[Action, ...]) -> Action | None:
        beach = s.scenario.beach
        if s.selected is None:
            for a in legal:
                if (
                    isinstance(a, Select)
                    and not a.unit.startswith("Ldr-")
                    and self._goal(s, a.unit) is not None
                ):
                    return a
            return EndAction()
        if ExitWest() in legal:
            return ExitWest()
        if s.selected.startswith("Ldr-"):
            return Stay()
        goal = self._goal(s, s.selected)
        moves = [a for a in legal if isinstance(a, MoveTo)]
        if goal is None or not moves:
            return Stay()
        here = beach.col[s.where[s.unit_index(s.selected)]]
        best = min(moves, key=lambda a: (abs(beach.col[s.cell(a.hex)] - goal), a.hex))
        if abs(beach.col[s.cell(best.hex)] - goal) >= abs(here - goal):
            return Stay()
        return best

    def _goal(self, s: TcsCore, uid: str) -> int | None:
        """Column a unit heads for: its planned beach (2.3e), or the west edge (29th, 2.7b)."""
        i = s.unit_index(uid)
        u = s.scenario.oob.units[i]
        beach = s.scenario.beach
        here = s.where[i]
        if here < 0:
            return None
        if u.is_29th:
            return None if beach.col[here] == beach.west_col else beach.west_col
        planned = s.planned_beach[i]
        sector = beach.sector_of(here)
        if planned is None or sector is None or sector.beach == planned:
            return None
        cols = [c for sec in beach.sectors_of_beach(planned) for c in sec.cols]
        return min(cols, key=lambda c: (abs(c - beach.col[here]), c))


class HistoricalGerman:
    """The German of 6 June: the historical positions, the strongest US hex from the air."""

    side = "German"

    def __init__(self, seed: int = 0) -> None:
        self.rng = RandomDice(seed)

    def choose(self, state: State[Any]) -> Action:
        s = _tcs(state)
        if s.current_player() != self.side:
            raise IllegalAction(f"the historical German bot does not play the {s.current_player()}")
        legal = s.legal_actions()
        kind = s.wait[0] if s.wait else None
        if kind == Decision.PILLBOX:
            if UseSetup("historical") in legal:
                return UseSetup("historical")
            sites = [PlacePillbox(s.label(c)) for c in s.scenario.beach.pillbox_sites]
            return next((a for a in sites if a in legal), legal[0])
        if kind == Decision.ROCKET_PIT:
            return next((a for a in legal if isinstance(a, PlaceRocketPit)), legal[0])
        if kind == Decision.STRIKE:
            bombs = [a for a in legal if isinstance(a, BombUnit)]
            if bombs:
                return bombs[0]
            occ = s.occupied_us()
            hits = [a for a in legal if isinstance(a, Strike | BombHex)]
            if hits:
                return max(hits, key=lambda a: (len(occ.get(s.cell(a.hex), [])), a.hex))
            return HoldStrike()
        return legal[0]


class HistoricalBot:
    """Both sides historical (for ``game.bots['historical']``)."""

    def __init__(self, seed: int = 0) -> None:
        self.us = HistoricalUS(seed)
        self.german = HistoricalGerman(seed + 1)

    def choose(self, state: State[Any]) -> Action:
        if state.current_player() == "German":
            return self.german.choose(state)
        return self.us.choose(state)
