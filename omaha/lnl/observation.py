"""What a player of LnL Omaha sees, as numbers (for agents: issue 15).

The layout (:func:`observation_plan`) is planes over the map's hexes (each side's
counters, steps, kinds and markers; moved, assaulted, landed this turn; control,
victory points, fortifications, landing hexes; the decision under way) and tracks
(turn, stage, decision, NGFS, cards, and each unit's hex, steps, markers and due
turn). Everything on the map is open in LnL Omaha; the order of the action deck is
hidden from both players and is not in the observation (only the cards left).

Two builders give the same numbers:

* :func:`fresh_observation` builds them from nothing (the reference);
* :func:`observation` keeps the board and the position's tracks on the state
  between calls (:class:`KeptBoard`) and redoes only what the core's journal
  (:class:`~omaha.lnl.core.Journal`) names as changed since, as the core's
  mutators note it: the units whose hex, steps, markers or landing turn changed,
  the victory hexes whose control changed, the reinforcements whose due turn
  changed, and the position's tracks that changed when it notes the position
  did. Whatever changes fields behind the mutators' back (``edit()``, a snapshot
  restore, unpickling) drops the kept board, built again at next use.

The decision in progress (and whose observation it is) is written at each call,
on the copy handed out.
"""

from __future__ import annotations

import itertools
from typing import get_args

import attrs
import numpy as np
import numpy.typing as npt

from omaha.kernel.observation import Observation, ObservationLayout
from omaha.lnl.core import SIDES, STAGES, Decision, Journal, LnlCore
from omaha.lnl.scenario import LnlScenario

#: Per side: counters, steps, counters by kind (LnL Omaha: Unit Types), markers.
_SIDE_PLANES = ("counters", "steps", "infantry", "armor", "gun", "disrupted", "fired")
_SHARED_PLANES = ("moved", "assaulted", "landed_this_turn", "control", "victory_points",
                  "fortification", "landing_hex")  # fmt: skip
_TASK_PLANES = ("attack_target", "attack_firers", "moving", "opportunity",
                "to_lose", "to_retreat", "advance_into")  # fmt: skip
_UNIT_TRACKS = ("where", "steps", "disrupted", "fired", "moved", "selected", "due")
DECISIONS: tuple[Decision, ...] = get_args(Decision)


@attrs.frozen(eq=False)
class ObservationPlan:
    """What never changes in a scenario's observations: the layout, each unit's
    planes by side and kind, the static planes (victory points, fortifications,
    landing hexes) already filled in, and where each number written at every call
    goes (plain ints: the per-call part reads them without a dict lookup)."""

    layout: ObservationLayout
    cells: int
    planes: dict[str, int]  #: plane name -> its offset in the vector
    tracks: dict[str, int]  #: track name -> its index
    unit_tracks: int  #: index of the first per-unit track
    #: Per unit (columns), the offset of the plane each of its rows counts in: its
    #: side's counters, kind, steps, disrupted, fired; moved, assaulted, landed.
    unit_planes: npt.NDArray[np.int64]
    #: The same by unit: ``unit_columns[u]`` is column ``u`` of ``unit_planes``.
    unit_columns: tuple[tuple[int, ...], ...]
    #: The victory hexes and, for each hex, whether it is one.
    victory: tuple[int, ...]
    is_victory: tuple[bool, ...]
    static: Observation
    # -- where the per-call numbers go ------------------------------------------------
    stage_at: dict[str, int]  #: stage -> its track
    decision_at: dict[str, int]  #: decision -> its track
    selected_at: int  #: the first unit's "selected" track
    at_observer: int
    at_to_move: int
    at_phasing: int
    at_turn: int
    at_ngfs_left: int
    at_us_bonus: int
    at_german_bonus: int
    at_perm_all: int
    at_perm_armor: int
    at_deck_left: int
    at_cancels: int
    at_attack_ngfs: int
    at_attack_bonus: int
    at_attack_hard: int
    at_loss_remaining: int
    at_strike_he: int
    at_held: int  #: us_hexes_held (kept with the control plane)
    p_control: int
    p_attack_target: int
    p_attack_firers: int
    p_moving: int
    p_opportunity: int
    p_to_lose: int
    p_to_retreat: int
    p_advance_into: int


def observation_plan(scen: LnlScenario) -> ObservationPlan:
    """The scenario's observation plan (made once, kept on the scenario)."""
    plan = scen.derived.get("observation")
    if plan is None:
        plan = scen.derived["observation"] = _make_plan(scen)
    assert isinstance(plan, ObservationPlan)
    return plan


def _make_plan(scen: LnlScenario) -> ObservationPlan:
    side_names = {"US": "us", "German": "german"}
    planes = tuple(f"{side_names[s]}_{p}" for s in SIDES for p in _SIDE_PLANES)
    planes += _SHARED_PLANES + _TASK_PLANES
    tracks = (
        "observer_us", "to_move_us", "phasing_us", "turn", "turns",
        *(f"stage_{s}" for s in STAGES),
        *(f"decision_{d}" for d in DECISIONS),
        "ngfs_left", "us_bonus", "german_bonus", "perm_all", "perm_armor", "deck_left",
        "us_hexes_held", "cancels", "attack_ngfs", "attack_bonus", "attack_hard",
        "loss_remaining", "strike_he",
    )  # fmt: skip
    unit_tracks = tuple(f"{u.id} {t}" for t in _UNIT_TRACKS for u in scen.units)
    meanings = (
        ("us_counters", "US counters in the hex (german_counters: German)"),
        ("us_steps", "steps of the US counters in the hex (a counter has 1 or 2)"),
        ("us_infantry", "US infantry counters (us_armor, us_gun: the other kinds)"),
        ("us_disrupted", "US counters with a Disrupted marker (us_fired: a Fired marker)"),
        ("moved", "counters that moved this movement phase (assaulted: close assaulted)"),
        ("landed_this_turn", "US counters that landed this turn (no move, no assault)"),
        ("control", "victory hexes: +1 the US controls it, -1 the Germans, 0 nobody"),
        ("victory_points", "the hex's victory points (0: not a victory hex)"),
        ("fortification", "1 on a fortification; landing_hex: 1 on a waterline hex"),
        ("attack_target", "1 on the hex of the attack being put together"),
        ("attack_firers", "its firing (or assaulting) counters in each hex"),
        ("moving", "counters of the moving stack; opportunity: 1 on the hex fired at"),
        ("to_lose", "counters that may take the next step loss"),
        ("to_retreat", "1 under the counter retreating next; advance_into: the hex emptied"),
        ("observer_us", "1 if the observation is the US player's (else the German's)"),
        ("to_move_us", "1 if the US player decides now; phasing_us: 1 in the US player turn"),
        ("turn", "the game turn (0 at set-up); turns: the game's length"),
        ("stage_fire", "1 in the stage named (one of stage_*), 0 in the others"),
        ("decision_phase", "1 for the kind of decision pending (one of decision_*)"),
        ("ngfs_left", "NGFS packets left this turn (6 HE each)"),
        ("us_bonus", "1 if the US holds a +6 HE card (german_bonus: the Germans)"),
        ("perm_all", "1 if a card let every German unit move (perm_armor: armor)"),
        ("deck_left", "action cards left to draw before a reshuffle"),
        ("us_hexes_held", "victory hexes the US controls"),
        ("cancels", "attacks cancelled this phase (reading R34)"),
        ("attack_ngfs", "NGFS packets in the attack (attack_bonus: the +6 HE card in it)"),
        ("attack_hard", "1 if the attack is on hard targets, -1 soft, 0 none chosen"),
        ("loss_remaining", "step losses still to take; strike_he: the air strike's HE"),
        (f"{scen.units[0].id} where" if scen.units else "where",
         "per unit: board index + 1 on the map, 0 off it, -1 eliminated"),
        ("<unit> steps, disrupted, fired, moved",
         "per unit: steps left, and 1 for each marker"),
        ("<unit> selected", "1 for units the pending decision is about"),
        ("<unit> due", "the turn a reinforcement is due (0: none)"),
    )  # fmt: skip
    layout = ObservationLayout(
        cells=len(scen.board), planes=planes, tracks=tracks + unit_tracks, meanings=meanings
    )
    n = layout.cells
    offset = {name: i * n for i, name in enumerate(planes)}
    index = {name: layout.track_index(name) for name in tracks}

    def per_unit(plane: str) -> list[int]:
        return [offset[f"{side_names[u.side]}_{plane}"] for u in scen.units]

    static = layout.zeros()
    T = scen.tables
    for c, pts in scen.victory_points.items():
        static[offset["victory_points"] + c] = pts
    for c in range(T.n):
        static[offset["fortification"] + c] = T.fort[c]
    for c in T.landing:
        static[offset["landing_hex"] + c] = 1
    static[index["turns"]] = scen.turns
    unit_planes = np.array(
        [
            per_unit("counters"),
            [offset[f"{side_names[u.side]}_{u.type.kind}"] for u in scen.units],
            per_unit("steps"),
            per_unit("disrupted"),
            per_unit("fired"),
            [offset["moved"]] * len(scen.units),
            [offset["assaulted"]] * len(scen.units),
            [offset["landed_this_turn"]] * len(scen.units),
        ],
        dtype=np.int64,
    ).reshape(8, len(scen.units))
    first = layout.track_index(unit_tracks[0]) if unit_tracks else layout.size
    victory = set(T.victory)
    return ObservationPlan(
        layout=layout,
        cells=n,
        planes=offset,
        tracks=index,
        unit_tracks=first,
        unit_planes=unit_planes,
        unit_columns=tuple(tuple(int(x) for x in column) for column in unit_planes.T),
        victory=tuple(T.victory),
        is_victory=tuple(c in victory for c in range(len(scen.board))),
        static=static,
        stage_at={s: index[f"stage_{s}"] for s in STAGES},
        decision_at={d: index[f"decision_{d}"] for d in DECISIONS},
        selected_at=first + 5 * len(scen.units),
        at_observer=index["observer_us"],
        at_to_move=index["to_move_us"],
        at_phasing=index["phasing_us"],
        at_turn=index["turn"],
        at_ngfs_left=index["ngfs_left"],
        at_us_bonus=index["us_bonus"],
        at_german_bonus=index["german_bonus"],
        at_perm_all=index["perm_all"],
        at_perm_armor=index["perm_armor"],
        at_deck_left=index["deck_left"],
        at_cancels=index["cancels"],
        at_attack_ngfs=index["attack_ngfs"],
        at_attack_bonus=index["attack_bonus"],
        at_attack_hard=index["attack_hard"],
        at_loss_remaining=index["loss_remaining"],
        at_strike_he=index["strike_he"],
        at_held=index["us_hexes_held"],
        p_control=offset["control"],
        p_attack_target=offset["attack_target"],
        p_attack_firers=offset["attack_firers"],
        p_moving=offset["moving"],
        p_opportunity=offset["opportunity"],
        p_to_lose=offset["to_lose"],
        p_to_retreat=offset["to_retreat"],
        p_advance_into=offset["advance_into"],
    )


# ----------------------------------------------------------------------------
# The two builders
# ----------------------------------------------------------------------------
def observation(core: LnlCore, player: str) -> Observation:
    """What ``player`` sees, as numbers (:func:`observation_plan` gives the layout): a
    new array, the caller's to keep or change. The board and the position's tracks
    are kept on the state between calls (see the module docstring)."""
    kept = _brought_up_to_date(core)
    obs: Observation = kept.board.copy()
    _decision_part(core, kept.plan, obs.data, player)
    return obs


def observation_into(core: LnlCore, player: str, out: Observation) -> None:
    """:func:`observation` written into ``out`` (an array of the layout's size, such as
    an observer's tensor), with no array in between."""
    kept = _brought_up_to_date(core)
    out[...] = kept.board
    _decision_part(core, kept.plan, out.data, player)


def fresh_observation(core: LnlCore, player: str) -> Observation:
    """:func:`observation` built from nothing (the reference the kept one must equal)."""
    plan = observation_plan(core.scen)
    obs = _units_part(core, plan)
    mv = obs.data
    _position_part(core, plan, mv)
    _decision_part(core, plan, mv, player)
    return obs


def _brought_up_to_date(core: LnlCore) -> KeptBoard:
    """The kept board, with what the journal names redone and the position's tracks
    rewritten where they changed (built and kept, with a journal, when the state
    keeps none)."""
    journal = core.journal
    if journal is None:
        built = KeptBoard.build(core, observation_plan(core.scen))
        core.journal = Journal(built)
        return built
    kept: KeptBoard = journal.kept  # type: ignore[assignment]  # only this module keeps one
    if journal.units or journal.cells or journal.due or journal.position:
        if kept.shared:  # a clone's too: this state takes its own copy first
            kept = kept.copy()
            journal.kept = kept
        kept.update(core, journal)
    return kept


def _units_part(core: LnlCore, plan: ObservationPlan) -> Observation:
    """The counters, markers, control (and victory hexes held) and reinforcements
    due, from nothing (the position's tracks and the decision in progress are
    written by :func:`_position_part` and :func:`_decision_part`).

    One pass of numpy over the units: their fields as rows, each row's plane by
    unit (``plan.unit_planes``), one ``bincount`` of (plane + hex) weighted.
    """
    k = len(core.loc)
    fields = np.fromiter(
        itertools.chain(
            core.loc, core.steps, core.dis, core.fired, core.moved, core.assaulted, core.placed
        ),
        np.int64,
        7 * k,
    ).reshape(7, k)
    loc = fields[0]
    weights = np.ones((8, k), dtype=np.float32)
    weights[2:7] = fields[1:6]  # steps, disrupted, fired, moved, assaulted
    weights[7] = (fields[6] == core.turn) & (core.turn > 0)  # landed this turn
    on = loc >= 0
    counts = np.bincount(
        (plan.unit_planes + loc)[:, on].ravel(), weights[:, on].ravel(), plan.layout.size
    )
    obs: Observation = counts.astype(np.float32)
    obs += plan.static
    for c in plan.victory:
        obs[plan.p_control + c] = _control_value(core.control[c])
    first = plan.unit_tracks
    tracks = fields[:5].copy()  # where (board index + 1, 0 off, -1 eliminated), steps, ...
    tracks[0] += 1
    obs[first : first + 5 * k] = tracks.ravel()
    due = first + 6 * k
    for u, turn in core.due.items():
        obs[due + u] = turn
    obs[plan.at_held] = len(core.held())
    return obs


def _position(core: LnlCore) -> Position:
    """The position as :func:`_position_part` shows it, but the cards left and the
    German movement permissions (:class:`KeptBoard` follows these apart)."""
    bonus = core.bonus
    return (
        core.turn, core.side, core.stage, core.ngfs_left, core.cancels,
        bonus["US"], bonus["German"],
    )  # fmt: skip


def _control_value(side: str) -> int:
    """A victory hex's control as the plane shows it: +1 US, -1 German, 0 nobody."""
    return 1 if side == "US" else -1 if side == "German" else 0


def _position_part(core: LnlCore, plan: ObservationPlan, obs: memoryview) -> None:
    """The position's tracks (on a memoryview of the observation: plain float stores,
    several times cheaper than numpy's): the turn, phasing player, stage, NGFS
    packets left, +6 HE cards held, German movement a card allowed, cards left and
    attacks cancelled this phase."""
    obs[plan.at_turn] = core.turn
    obs[plan.at_phasing] = core.side == "US"
    for stage, at in plan.stage_at.items():
        obs[at] = stage == core.stage
    obs[plan.at_ngfs_left] = core.ngfs_left
    obs[plan.at_us_bonus] = core.bonus["US"]
    obs[plan.at_german_bonus] = core.bonus["German"]
    obs[plan.at_perm_all] = "all" in core.perms
    obs[plan.at_perm_armor] = "armor" in core.perms
    obs[plan.at_deck_left] = len(core.deck)
    obs[plan.at_cancels] = core.cancels


def _decision_part(core: LnlCore, plan: ObservationPlan, obs: memoryview, player: str) -> None:
    """Whose observation it is, and the decision in progress: what it is about, on
    the board and in the tracks (written at each call, on a board where all of these
    numbers are 0: only the others are written)."""
    if player == "US":
        obs[plan.at_observer] = 1
    if core.result is not None:
        return
    decision = core.decision()
    obs[plan.decision_at[decision]] = 1
    if decision == "phase":  # the phasing player's own, no task under way
        if core.side == "US":
            obs[plan.at_to_move] = 1
        return
    if core.current_player() == "US":
        obs[plan.at_to_move] = 1
    loc = core.loc
    selected = plan.selected_at
    a = core.attack
    if a is not None:
        if a.target >= 0:
            obs[plan.p_attack_target + a.target] = 1
        firers = plan.p_attack_firers
        for x in a.firers:
            obs[firers + loc[x]] += 1
            obs[selected + x] = 1
        if a.ngfs:
            obs[plan.at_attack_ngfs] = a.ngfs
        if a.bonus:
            obs[plan.at_attack_bonus] = 1
        if a.kind == "hard":
            obs[plan.at_attack_hard] = 1
        elif a.kind == "soft":
            obs[plan.at_attack_hard] = -1
    if core.opp is not None:
        obs[plan.p_opportunity + core.opp.cell] = 1
    g = core.group
    if g is not None:
        obs[plan.p_moving + g.cell] = len(g.units)
        if decision == "move":
            for x in g.units:
                obs[selected + x] = 1
    lo = core.loss
    if lo is not None:
        obs[plan.at_loss_remaining] = lo.remaining
        to_lose = plan.p_to_lose
        for x in lo.units:
            if loc[x] >= 0:
                obs[to_lose + loc[x]] += 1
            obs[selected + x] = 1
    if core.retreat is not None and decision == "retreat":
        x = core.retreat.queue[0]
        obs[plan.p_to_retreat + loc[x]] = 1
        obs[selected + x] = 1
    if core.advance is not None:
        obs[plan.p_advance_into + core.advance.cell] = 1
        if decision == "advance":
            for x in core.advance.units:
                obs[selected + x] = 1
    if core.strike is not None:
        obs[plan.at_strike_he] = core.strike.he
    if decision == "place":
        obs[selected + core.place_queue[0]] = 1


# ----------------------------------------------------------------------------
# The board kept between calls
# ----------------------------------------------------------------------------
#: A unit as the board shows it: hex, steps, disrupted, fired, moved, assaulted, and
#: the turn it landed (the core's per-unit fields, in the rows of :func:`_units_part`).
Shown = tuple[int, int, bool, bool, bool, bool, int]
#: The position as its tracks show it: turn, phasing side, stage, NGFS packets left,
#: attacks cancelled, +6 HE cards (US, German); with the cards left and the German
#: movement permissions, rewritten when the journal notes the position changed.
Position = tuple[int, str, str, int, int, bool, bool]


@attrs.define(eq=False)
class KeptBoard:
    """The board and the position's tracks (:func:`_units_part`, :func:`_position_part`)
    as last brought up to date, with what they show of each unit and of the position.

    :meth:`update` redoes the units, hexes and reinforcements the core's journal
    names (for a unit, what differs from what is shown: out of its old hex and into
    the new one, or the counts that changed, and its tracks), moves the
    landed-this-turn counts when a new game turn begins, and rewrites the position's
    tracks that changed. A clone shares it (``shared``) until one of the two changes
    it: that one takes its own copy first.
    """

    plan: ObservationPlan
    board: Observation
    cells: memoryview  #: ``board.data``: plain float stores
    #: Each unit as shown (its core fields when last redone).
    units: list[Shown]
    #: The game turn the landed-this-turn counts are for.
    turn: int
    #: The position as shown (:func:`_position`), and the German movement permissions.
    position: Position
    perms: set[str]
    shared: bool = False

    @classmethod
    def build(cls, core: LnlCore, plan: ObservationPlan) -> KeptBoard:
        board = _units_part(core, plan)
        mv = board.data
        _position_part(core, plan, mv)
        units = list(
            zip(
                core.loc, core.steps, core.dis, core.fired, core.moved, core.assaulted,
                core.placed, strict=True,
            )
        )  # fmt: skip
        return cls(plan, board, mv, units, core.turn, _position(core), set(core.perms))

    def copy(self) -> KeptBoard:
        board = self.board.copy()
        return KeptBoard(
            self.plan, board, board.data, self.units[:], self.turn, self.position,
            set(self.perms),
        )  # fmt: skip

    def update(self, core: LnlCore, journal: Journal) -> None:
        """Bring the board up to the core's fields, as the journal names what changed
        (and empty the journal)."""
        cells, plan = self.cells, self.plan
        if core.turn != self.turn:
            self._new_turn(core.turn)
        if journal.units:
            self._redo_units(core, journal.units)
            journal.units.clear()
        if journal.cells:  # victory hexes: their control, and the hexes the US holds
            at, control = plan.p_control, core.control
            for c in journal.cells:
                now = _control_value(control[c])
                was = cells[at + c]
                if now != was:
                    cells[at + c] = now
                    cells[plan.at_held] += (now == 1) - (was == 1)
            journal.cells.clear()
        if journal.due:
            at, due = plan.unit_tracks + 6 * len(self.units), core.due
            for u in journal.due:
                cells[at + u] = due.get(u, 0)
            journal.due.clear()
        if journal.position:  # the tracks that differ from what is shown
            position = _position(core)
            if position != self.position:
                self._new_position(position)
            cells[plan.at_deck_left] = len(core.deck)
            if core.perms != self.perms:
                cells[plan.at_perm_all] = "all" in core.perms
                cells[plan.at_perm_armor] = "armor" in core.perms
                self.perms = set(core.perms)
            journal.position = False

    def _new_position(self, position: Position) -> None:
        """Rewrite the position's tracks that differ from what is shown."""
        plan, cells = self.plan, self.cells
        turn, side, stage, ngfs_left, cancels, us_bonus, german_bonus = position
        was = self.position
        if turn != was[0]:
            cells[plan.at_turn] = turn
        if side != was[1]:
            cells[plan.at_phasing] = side == "US"
        if stage != was[2]:
            cells[plan.stage_at[was[2]]] = 0
            cells[plan.stage_at[stage]] = 1
        if ngfs_left != was[3]:
            cells[plan.at_ngfs_left] = ngfs_left
        if cancels != was[4]:
            cells[plan.at_cancels] = cancels
        if us_bonus != was[5]:
            cells[plan.at_us_bonus] = us_bonus
        if german_bonus != was[6]:
            cells[plan.at_german_bonus] = german_bonus
        self.position = position

    def _new_turn(self, turn: int) -> None:
        """Move the landed-this-turn counts (the kept units) to game turn ``turn``."""
        cells, columns = self.cells, self.plan.unit_columns
        before = self.turn
        for u, shown in enumerate(self.units):
            where, placed = shown[0], shown[6]
            if where >= 0:
                delta = _landed(placed, turn) - _landed(placed, before)
                if delta:
                    cells[columns[u][7] + where] += delta
        self.turn = turn

    def _redo_units(self, core: LnlCore, changed: set[int]) -> None:
        """Redo each of ``changed``: what it counts in its hex's planes and its tracks
        (the order does not matter: each unit's counts are small whole numbers)."""
        cells, columns, turn, units = self.cells, self.plan.unit_columns, self.turn, self.units
        k = len(units)
        tracks = self.plan.unit_tracks
        for u in changed:
            now = (
                core.loc[u], core.steps[u], core.dis[u], core.fired[u], core.moved[u],
                core.assaulted[u], core.placed[u],
            )  # fmt: skip
            shown = units[u]
            if now == shown:
                continue
            units[u] = now
            was, s0, d0, f0, m0, a0, p0 = shown
            where, s1, d1, f1, m1, a1, p1 = now
            # the planes it counts in: counters, kind, steps, disrupted, fired, moved,
            # assaulted, landed this turn
            pc, pk, ps, pd, pf, pm, pa, pl = columns[u]
            if was != where:  # all its counts out of the old hex, into the new one
                if was >= 0:
                    cells[pc + was] -= 1
                    cells[pk + was] -= 1
                    cells[ps + was] -= s0
                    if d0:
                        cells[pd + was] -= 1
                    if f0:
                        cells[pf + was] -= 1
                    if m0:
                        cells[pm + was] -= 1
                    if a0:
                        cells[pa + was] -= 1
                    if p0 == turn and turn > 0:
                        cells[pl + was] -= 1
                if where >= 0:
                    cells[pc + where] += 1
                    cells[pk + where] += 1
                    cells[ps + where] += s1
                    if d1:
                        cells[pd + where] += 1
                    if f1:
                        cells[pf + where] += 1
                    if m1:
                        cells[pm + where] += 1
                    if a1:
                        cells[pa + where] += 1
                    if p1 == turn and turn > 0:
                        cells[pl + where] += 1
                cells[tracks + u] = where + 1
            elif where >= 0:  # the counts that changed, in the hex it stays in
                if s0 != s1:
                    cells[ps + where] += s1 - s0
                if d0 != d1:
                    cells[pd + where] += d1 - d0
                if f0 != f1:
                    cells[pf + where] += f1 - f0
                if m0 != m1:
                    cells[pm + where] += m1 - m0
                if a0 != a1:
                    cells[pa + where] += a1 - a0
                if p0 != p1:
                    cells[pl + where] += _landed(p1, turn) - _landed(p0, turn)
            if s0 != s1:
                cells[tracks + k + u] = s1
            if d0 != d1:
                cells[tracks + 2 * k + u] = d1
            if f0 != f1:
                cells[tracks + 3 * k + u] = f1
            if m0 != m1:
                cells[tracks + 4 * k + u] = m1


def _landed(placed: int, turn: int) -> int:
    """1 for a unit that landed this game turn (its ``placed``), else 0."""
    return int(placed == turn and turn > 0)
