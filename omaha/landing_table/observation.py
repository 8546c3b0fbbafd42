"""What the US player knows, as numbers (issue 15): the layout, the observation built
from nothing (:func:`fresh_observation`, the reference) and the one kept up to date
between decisions (:func:`observation`), with the pending decision's part.

The US player does not see unrevealed German units (352nd units enter face down) or
unrevealed depth markers (READINGS.md, "Agents").

Keeping it costs O(what changed): the core writes a journal while an observation is
kept (the units, German units and positions its ``own_*`` methods hand out for
writing, the units :meth:`~LandingTableCore.move` moves, a phase begun, a card drawn,
an exit opened or closed), and :func:`up_to_date` redoes only those entries on the kept
array (:class:`Kept`); an edit, a restore or unpickling drops it (built again at the
next call), a clone shares it until either side writes. Each call hands out a copy with
the pending decision written on it. The tests compare it with :func:`fresh_observation`
at every decision of random and heuristic games.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from omaha.kernel.observation import Observation, ObservationLayout
from omaha.landing_table.components.cards import COLOURS, SYMBOLS
from omaha.landing_table.components.charts import ACTION_LETTERS, CHARTS, DOTS
from omaha.landing_table.components.terrain import TIDE_ORDER
from omaha.landing_table.core import (
    ASHORE,
    ELIMINATED,
    REMOVED,
    SCHEDULED,
    LandingTableCore,
    Phase,
    PositionState,
    USState,
    lookup_for,
)
from omaha.landing_table.scenario import LandingTableScenario
from omaha.landing_table.view import DECISION_PHASES

#: Planes over the hexes of the map (one float per cell each), and what they hold.
PLANES: tuple[tuple[str, str], ...] = (
    ("terrain", "the hex's terrain: 1 + its index in the map's sorted terrain names"),
    ("row", "the hex's row, 0 (A, the southern edge) to 10 (K, the low-tide beach)"),
    ("landing_box", "the number of the landing box a beach hex belongs to (0: none)"),
    ("wn", "1 on a WN strongpoint"),
    ("reinforcement", "1 on a 352nd Division reinforcement position"),
    ("vp", "the VP a position scores"),
    ("colour_red", "1 on a red position (the fire cards name colours)"),
    ("colour_yellow", "1 on a yellow position"),
    ("colour_blue", "1 on a blue position"),
    ("colour_green", "1 on a green position"),
    ("exit", "1 on the exit hex of a draw"),
    ("exit_open", "1 on the exit hex of an open draw"),
    ("obstacle", "1 on a beach-obstacle hex not yet cleared"),
    ("flooded", "1 on a beach hex under water at this tide"),
    ("us_units", "US units (leaders not counted)"),
    ("us_steps", "US steps (leaders not counted)"),
    ("us_strength", "US attack strength"),
    ("us_disrupted", "disrupted US units"),
    ("us_leaders", "US leaders (HQs and generals)"),
    ("us_armour", "armoured US units"),
    ("us_artillery", "US units that may barrage"),
    ("us_engineers", "US units that may clear obstacles"),
    ("us_to_act", "US units still to get their orders this US action phase"),
    ("german_face_down", "1 on a position held by a face-down German unit"),
    ("german_defense", "the printed defence of a revealed German unit"),
    ("german_disrupted", "1 on a position whose German unit is disrupted"),
    ("german_artillery", "1 on a position whose revealed German unit has artillery (16.7)"),
    *(
        (f"requires_{w}", f"1 where a revealed German unit requires the {w} weapon")
        for w in sorted(CHARTS.weapon_names)
    ),
    ("depth_face_down", "1 on a position with a face-down depth marker"),
    ("depth_value", "the strength of a revealed depth marker"),
    ("depth_tr", "1 on a position with a revealed Tactical Reinforcement marker"),
    ("defeated", "1 on a position where a German unit was defeated"),
    ("attacked", "1 on a position attacked this US action phase"),
    ("fire_intense", "occupied positions with an intense fire dot in the hex"),
    ("fire_steady", "occupied positions with a steady fire dot in the hex"),
    ("fire_sporadic", "occupied positions with a sporadic fire dot in the hex"),
    ("naval_target", "1 on a WN a Naval Fire Marker in play may fire at (a US radio in range)"),
    ("choice", "the hexes the pending decision is about: the hexes offered to a landing "
     "unit, the hex of the unit getting orders, of each unit tied for a hit or able to "
     "give a step to attrition"),
    ("attack_target", "1 on the position of the attack being put together"),
    ("attackers", "units (and markers, counted at the target) in the attack being put together"),
)  # fmt: skip
PHASE_ORDER = tuple(p.value for p in Phase)
DECISIONS = tuple(DECISION_PHASES)
#: Per US unit (in order-of-battle order), the tracks ``<unit>.<field>``.
UNIT_FIELDS: tuple[tuple[str, str], ...] = (
    ("where", "1 + the hex of a unit ashore; 0 off the map"),
    ("status", "0 scheduled, 1 ashore, 2 eliminated, 3 removed from play"),
    ("steps", "steps left"),
    ("strength", "attack strength now"),
    ("turn", "the turn a scheduled unit lands on (0 once it has landed)"),
    ("box", "the landing box a scheduled unit lands in (0 once it has landed)"),
    ("disrupted", "1 when disrupted"),
    ("to_act", "1 while it waits for its orders this US action phase"),
    ("deciding", "1 when the pending decision is this unit's"),
)


class TrackAt(NamedTuple):
    """Where the tracks every observation writes are."""

    turn: int
    tide: int
    heroes: int
    us_vp: int
    exits_open: int
    deck_left: int


class Observer:
    """The observation layout of one scenario and the parts of it that never change."""

    __slots__ = (
        "_kinds",
        "_shares",
        "_strengths",
        "base",
        "card_at",
        "card_tracks",
        "cell_positions",
        "cells",
        "choice",
        "deciding_at",
        "deciding_of",
        "decision_at",
        "deltas",
        "exit_cells",
        "flooded",
        "fof",
        "german_starts",
        "layout",
        "leader",
        "naval",
        "naval_at",
        "naval_number",
        "naval_waits",
        "obstacles",
        "orders_at",
        "phase_at",
        "plane",
        "plane_to_act",
        "pos_cells",
        "pos_index",
        "radio",
        "radio_by_steps",
        "static",
        "strengths",
        "tide",
        "track",
        "track_at",
        "unit_index",
        "units",
        "units_first",
        "us_planes",
        "vp_cells",
        "waits_at",
        "waits_slice",
        "weapons",
        "where_at",
        "wn_in_reach",
        "wn_positions",
        "wn_set",
    )

    def __init__(self, scen: LandingTableScenario) -> None:
        board = scen.board
        n = self.cells = len(board)
        units = [u.id for u in scen.us]
        self.naval = tuple(f"NF{i}" for i in range(1, sum(k for _, k in scen.naval) + 1))
        tracks: list[tuple[str, str]] = [
            ("turn", "the turn (1 = 06:30, 30 minutes a turn)"),
            ("turns", "the scenario's last turn"),
            ("tide", "0 low, 1 half, 2 high tide"),
            ("heroes", "Hero markers left"),
            ("us_vp", "US victory points if the game ended now"),
            ("exits_open", "exits open"),
            ("deck_left", "fire cards left before the next reshuffle"),
            ("card_shown", "1 while a fire card is on the table (German phase)"),
            *((f"card_{c}", f"1 if the card shows {c}") for c in COLOURS),
            *((f"card_{s}", f"1 if the card shows the {s} target symbol") for s in SYMBOLS),
            *((f"card_action_{a}", f"1 if its action letter is {a}") for a in ACTION_LETTERS),
            ("card_armour", "1 if the card shows the armour bonus icon"),
            ("card_leader", "1 if the card shows the leader hit icon"),
            ("card_mine", "1 if the card shows a mine"),
            *((f"phase_{p}", f"1 in the {p} phase") for p in PHASE_ORDER),
            *((f"decision_{d}", f"1 when a {d} decision is pending") for d in DECISIONS),
            ("hit_need", "units to pick in a hit decision"),
            ("drift_most", "boxes a Ranger may drift in a drift decision"),
            ("landing_box_now", "the box of the unit choosing where it lands (0: none)"),
            *((f"{nid}.in_play", "1 once the Naval Fire Marker has arrived") for nid in self.naval),
            *((f"{nid}.to_act", "1 while the marker waits for its orders") for nid in self.naval),
            *((f"{u}.{f}", m) for u in units for f, m in UNIT_FIELDS),
        ]
        self.layout = ObservationLayout(
            cells=n,
            planes=tuple(name for name, _ in PLANES),
            tracks=tuple(name for name, _ in tracks),
            meanings=(*PLANES, *tracks),
        )
        self.plane = {name: i * n for i, (name, _) in enumerate(PLANES)}
        self.track = {name: self.layout.track_index(name) for name, _ in tracks}
        self.units_first = self.track[f"{units[0]}.where"] if units else self.layout.size
        base = self.layout.zeros()
        terrains = {t: i + 1 for i, t in enumerate(sorted(set(board.terrain)))}
        plane = self.plane
        for c in range(n):
            base[plane["terrain"] + c] = terrains[board.terrain[c]]
            base[plane["row"] + c] = ROW_LETTERS.index(scen.row_of[c])
        for (box, _tide), cells in scen.box_cells.items():
            for c in cells:
                base[plane["landing_box"] + c] = box
        for p in scen.positions:
            base[plane[p.kind] + p.cell] = 1
            base[plane["vp"] + p.cell] = p.vp
            base[plane[f"colour_{p.colour}"] + p.cell] = 1
        for e in scen.exits:
            base[plane["exit"] + e.cell] = 1
        base[self.track["turns"]] = scen.turns
        self.base = base
        #: Each position's field of fire as (intense, steady, sporadic) planes.
        fof = np.zeros((len(scen.positions), 3 * n), dtype=np.float32)
        for i, p in enumerate(scen.positions):
            for c, dot in p.fof.items():
                fof[i, DOTS.index(dot) * n + c] = 1
        self.fof = fof
        self.pos_index = {p.id: i for i, p in enumerate(scen.positions)}
        #: Plane indices of the flooded hexes at each tide, and of the obstacle hexes.
        self.flooded = {
            level: plane["flooded"] + np.array(sorted(cells), dtype=np.intp)
            for level, cells in scen.flood_cells.items()
        }
        self.obstacles = plane["obstacle"] + np.array(sorted(scen.obstacle_cells), dtype=np.intp)
        #: Each US unit's row in the unit table (order of battle).
        self.unit_index = {u.id: i for i, u in enumerate(scen.us)}
        #: Per US unit (order of battle): its id and its attack strength by steps left.
        self.units = tuple(
            (u.id, (0, *(u.kind.strength(k) for k in range(1, u.kind.steps + 1)))) for u in scen.us
        )
        #: What never changes of a unit on the US planes: leader, armour, barrage, clears.
        kinds = [u.kind for u in scen.us]
        self.leader = np.array([k.leader for k in kinds], dtype=np.float32)
        self.static = np.array(
            [[k.armoured, k.barrage > 0, k.clears] for k in kinds], dtype=np.float32
        ).reshape(len(kinds), 3)
        #: The first index of each US plane, in the order of PLANES (they are adjacent).
        self.us_planes = np.array([plane[name] for name in US_PLANES], dtype=np.intp)
        self.weapons = {w: plane[f"requires_{w}"] for w in CHARTS.weapon_names}
        self.tide = {level: i for i, level in enumerate(TIDE_ORDER)}
        self.card_tracks = {
            cid: [self.track["card_shown"]]
            + [self.track[f"card_{c}"] for c in sorted(card.colours)]
            + [self.track[f"card_{card.symbol}"], self.track[f"card_action_{card.action}"]]
            + ([self.track[f"card_{card.icon}"]] if card.icon != "none" else [])
            + ([self.track["card_mine"]] if card.mine else [])
            for cid, card in scen.cards.items()
        }
        # -- for the kept observation (see Kept) ----------------------------------------
        #: Each position's cell, and the positions on each cell (in scenario order).
        self.pos_cells = tuple(p.cell for p in scen.positions)
        at: dict[int, list[int]] = {}
        for i, p in enumerate(scen.positions):
            at.setdefault(p.cell, []).append(i)
        self.cell_positions = {c: tuple(ii) for c, ii in at.items()}
        #: The first index of every plane a position's German unit and marker are shown on.
        self.german_starts = tuple(
            [plane[name] for name in GERMAN_PLANES] + sorted(self.weapons.values())
        )
        #: Per US unit ashore: its share of the US planes (but ``us_to_act``) by its steps
        #: left and whether it is disrupted, as (first index of a plane, value) where not
        #: 0: added on its cell (:meth:`share`).
        self._shares: list[dict[tuple[int, bool], tuple[tuple[int, int], ...]]] = [
            {} for _ in kinds
        ]
        self._kinds = kinds
        self._strengths = tuple(strengths for _, strengths in self.units)
        radio = lookup_for(scen).radio
        self.radio = tuple(any(radio[u.id]) for u in scen.us)
        #: Per US unit, by steps left: whether it has a radio then (as
        #: :meth:`LandingTableCore.spots` reads it: at full strength or reduced).
        self.radio_by_steps = tuple(
            tuple(radio[u.id][0 if k == u.kind.steps else 1] for k in range(u.kind.steps + 1))
            for u in scen.us
        )
        self.exit_cells = tuple((e.id, e.cell) for e in scen.exits)
        self.card_at = {cid: np.array(t, dtype=np.intp) for cid, t in self.card_tracks.items()}
        self.phase_at = {p: self.track[f"phase_{p}"] for p in PHASE_ORDER}
        self.decision_at = {d: self.track[f"decision_{d}"] for d in DECISIONS}
        self.naval_at = tuple(
            (nid, self.track[f"{nid}.in_play"], self.track[f"{nid}.to_act"]) for nid in self.naval
        )
        #: Each Naval Fire Marker's ``to_act`` track, and its number (from 0) in arrival order.
        self.naval_waits = {nid: self.track[f"{nid}.to_act"] for nid in self.naval}
        self.naval_number = {nid: number for number, nid in enumerate(self.naval)}
        self.plane_to_act = plane["us_to_act"]
        #: The cells of the positions that score VP (a unit ashore there may change them).
        self.vp_cells = frozenset(p.cell for p in scen.positions if p.vp > 0)
        self.choice = plane["choice"]
        self.track_at = TrackAt(*(self.track[name] for name in TrackAt._fields))
        #: The WN positions, and those within Naval Fire Marker spotting range of each cell.
        self.wn_positions = tuple(i for i, p in enumerate(scen.positions) if p.kind == "wn")
        self.wn_set = frozenset(self.wn_positions)
        within = lookup_for(scen).within
        reach: list[list[int]] = [[] for _ in range(n)]
        for i in self.wn_positions:
            for c in within(self.pos_cells[i], scen.naval_spot):
                reach[c].append(i)
        self.wn_in_reach = tuple(tuple(r) for r in reach)
        #: Per US unit, the index of its ``deciding`` track; by its id, of its ``to_act``
        #: track; the ``decision_orders`` track.
        width = len(UNIT_FIELDS)
        self.deciding_at = tuple(self.units_first + i * width + 8 for i in range(len(units)))
        self.where_at = tuple(self.units_first + i * width for i in range(len(units)))
        self.waits_at = tuple(self.units_first + i * width + 7 for i in range(len(units)))
        self.waits_slice = slice(self.units_first + 7, self.units_first + len(units) * width, width)
        self.orders_at = self.decision_at["orders"]
        #: By US unit id, the index of its ``deciding`` track (an orders decision's).
        self.deciding_of = {uid: self.deciding_at[i] for uid, i in self.unit_index.items()}
        #: Per US unit, its attack strength by steps left.
        self.strengths = self._strengths
        #: What a unit's share of the US planes gains where it stands when its steps or
        #: its disruption change, by (unit, steps, disrupted, steps, disrupted): see
        #: :meth:`delta`.
        self.deltas: dict[tuple[int, int, int, int, int], tuple[tuple[int, int], ...]] = {}

    def share(self, i: int, steps: int, disrupted: bool) -> tuple[tuple[int, int], ...]:
        """US unit ``i``'s share of the US planes (as :func:`unit_table` sums them; not
        ``us_to_act``) when it is ashore with ``steps`` left, disrupted or not."""
        known = self._shares[i]
        got = known.get((steps, disrupted))
        if got is None:
            kind, plane = self._kinds[i], self.plane
            troops = not kind.leader
            values = (
                ("us_units", troops),
                ("us_steps", steps if troops else 0),
                ("us_strength", self._strengths[i][steps]),
                ("us_disrupted", disrupted),
                ("us_leaders", kind.leader),
                ("us_armour", kind.armoured),
                ("us_artillery", kind.barrage > 0),
                ("us_engineers", kind.clears),
            )
            got = known[(steps, disrupted)] = tuple(
                (plane[name], int(value)) for name, value in values if value
            )
        return got

    def delta(
        self, i: int, steps0: int, dis0: int, steps1: int, dis1: int
    ) -> tuple[tuple[int, int], ...]:
        """What US unit ``i``'s share of the US planes (:meth:`share`) gains, plane by
        plane where it is not 0, when its steps or disruption (1 or 0, as a row holds
        it) change but not its hex."""
        key = (i, steps0, dis0, steps1, dis1)
        got = self.deltas.get(key)
        if got is None:
            gains = dict.fromkeys(self.us_planes.tolist(), 0)
            for start, value in self.share(i, steps0, bool(dis0)):
                gains[start] -= value
            for start, value in self.share(i, steps1, bool(dis1)):
                gains[start] += value
            got = self.deltas[key] = tuple((start, v) for start, v in gains.items() if v)
        return got


ROW_LETTERS = "ABCDEFGHIJK"


Table = npt.NDArray[np.float32]


def unit_row(s: USState, strengths: tuple[int, ...]) -> tuple[int, ...]:
    """The first seven UNIT_FIELDS of a unit: where, status, steps, strength, turn, box,
    disrupted (the last two follow the orders queue: see :func:`observation`)."""
    status = s.status
    if status == ASHORE:
        return (s.where + 1, 1, s.steps, strengths[s.steps], 0, 0, s.disrupted)
    if status == SCHEDULED:
        return (0, 0, s.steps, strengths[s.steps], s.turn, s.box, s.disrupted)
    return (0, _STATUS_CODE[status], s.steps, strengths[s.steps], 0, 0, s.disrupted)


def unit_table(core: LandingTableCore, ob: Observer) -> tuple[Table, Table]:
    """What the observation takes from the US units alone: a :func:`unit_row` per unit,
    and their sums over the US planes but ``us_to_act`` (which follows the queue)."""
    us = core.us
    rows: list[int] = []  # whole numbers (and bools) convert fastest as int32
    for uid, strengths in ob.units:
        rows.extend(unit_row(us[uid], strengths))
    table = np.array(rows, dtype=np.int32).reshape(len(ob.units), 7).astype(np.float32)
    sums = np.zeros((len(US_PLANES) - 1) * ob.cells, dtype=np.float32)
    ashore = table[:, 1] == 1
    if ashore.any():
        mine = table[ashore]
        leader = ob.leader[ashore]
        troops = 1 - leader
        per_unit = np.column_stack(
            (troops, mine[:, 2] * troops, mine[:, 3], mine[:, 6], leader, ob.static[ashore])
        )
        cells = mine[:, 0].astype(np.intp) - 1
        np.add.at(sums, cells[:, None] + ob.us_planes[:-1] - ob.us_planes[0], per_unit)
    return table, sums


#: The planes the US units are summed into, in the order of PLANES.
US_PLANES = (
    "us_units",
    "us_steps",
    "us_strength",
    "us_disrupted",
    "us_leaders",
    "us_armour",
    "us_artillery",
    "us_engineers",
    "us_to_act",
)
_OBSERVERS: weakref.WeakKeyDictionary[LandingTableScenario, Observer] = weakref.WeakKeyDictionary()


def observer(scen: LandingTableScenario) -> Observer:
    got = _OBSERVERS.get(scen)
    if got is None:
        got = _OBSERVERS[scen] = Observer(scen)
    return got


def observation_layout(scen: LandingTableScenario) -> ObservationLayout:
    """What each number of :func:`observation` means in ``scen``."""
    return observer(scen).layout


def _write_position(
    out: Any, ob: Observer, c: int, ps: PositionState, core: LandingTableCore
) -> bool:
    """One position's German unit and depth marker on cell ``c`` as the US may see
    them (face down: only that one is there), on ``out`` (an observation's numbers: a
    memoryview of one, or the array); whether a unit holds the position."""
    plane = ob.plane
    unit = ps.unit
    if unit is not None:
        g = core.ger[unit]
        if g.disrupted:
            out[plane["german_disrupted"] + c] = 1
        if g.revealed:
            gu = core.scen.germans[unit]
            out[plane["german_defense"] + c] = gu.defense
            out[plane["german_artillery"] + c] = gu.artillery
            for w in gu.requires:
                out[ob.weapons[w] + c] = 1
        else:
            out[plane["german_face_down"] + c] = 1
    if ps.depth is not None:
        if not ps.depth_revealed:
            out[plane["depth_face_down"] + c] = 1
        elif ps.depth == "TR":
            out[plane["depth_tr"] + c] = 1
        else:
            out[plane["depth_value"] + c] = int(ps.depth)
    if ps.defeated:
        out[plane["defeated"] + c] = 1
    return unit is not None


def fresh_observation(core: LandingTableCore, player: str) -> Observation:
    """What the US player knows, as numbers (the layout of :func:`observation_layout`),
    built from nothing: the reference :func:`observation` (kept up to date) must equal.

    Built from the fields, never from the view: a face-down German unit shows only
    that it is there, a face-down depth marker only that there is one (READINGS.md,
    "Agents").
    """
    if player != "US":
        raise ValueError(f"{player!r} is not a player of D-Day at Omaha Beach (the US plays alone)")
    scen = core.scen
    ob = observer(scen)
    plane, track = ob.plane, ob.track
    n = ob.cells
    obs = ob.base.copy()
    # the map: tide, obstacles, exits
    obs[ob.flooded[core.tide()]] = 1
    obs[ob.obstacles] = 1
    obstacle = plane["obstacle"]
    for c in core.cleared:
        obs[obstacle + c] = 0  # a cleared hex off the obstacle rows stays 0 anyway
    for e in scen.exits:
        if e.id in core.exits_open:
            obs[plane["exit_open"] + e.cell] = 1
    # the German side, as the US sees it
    occupied = np.zeros(len(scen.positions), dtype=np.float32)
    pos = core.pos
    for i, p in enumerate(scen.positions):
        if _write_position(obs, ob, p.cell, pos[p.id], core):
            occupied[i] = 1
    for pid in core.attacked:
        obs[plane["attacked"] + scen.pos_by_id[pid].cell] = 1
    fire = plane["fire_intense"]
    obs[fire : fire + 3 * n] = occupied @ ob.fof
    in_play = core.naval_ids()
    for pid in core.naval_targets() if in_play else ():
        obs[plane["naval_target"] + scen.pos_by_id[pid].cell] = 1
    # the US units: a row of UNIT_FIELDS each, then their sums over the US planes
    queue = set(core.queue) if core.current_phase == Phase.US_ACTION else set()
    table, sums = unit_table(core, ob)
    first = ob.units_first
    rows = obs[first : first + len(ob.units) * len(UNIT_FIELDS)].reshape(len(ob.units), -1)
    rows[:, : table.shape[1]] = table
    start = ob.us_planes[0]
    obs[start : start + sums.size] = sums
    to_act = plane["us_to_act"]
    us, index = core.us, ob.unit_index
    for uid in queue:
        row = index.get(uid)
        if row is not None and us[uid].status == ASHORE:
            rows[row, 7] = 1
            obs[to_act + us[uid].where] += 1
    if core.decision is not None:  # the decision under way
        _write_pending(core, ob, core.decision, obs.data)
    # the tracks
    for nid in in_play:
        obs[track[f"{nid}.in_play"]] = 1
        obs[track[f"{nid}.to_act"]] = nid in queue
    obs[track[f"phase_{core.phase}"]] = 1
    if core.card is not None:
        obs[ob.card_tracks[core.card]] = 1
    obs[track["turn"]] = core.turn
    obs[track["tide"]] = ob.tide[core.tide()]
    obs[track["heroes"]] = core.heroes
    obs[track["us_vp"]] = core.victory_points()[0]
    obs[track["exits_open"]] = len(core.exits_open)
    obs[track["deck_left"]] = len(core.deck)
    return obs


# -- the observation kept up to date between decisions (issue 15's speed) ------------------
#: The planes a position's German unit and depth marker are shown on (the ``requires_``
#: planes follow them): a position's cell is cleared on these before it is written again.
GERMAN_PLANES = (
    "german_face_down",
    "german_defense",
    "german_disrupted",
    "german_artillery",
    "depth_face_down",
    "depth_value",
    "depth_tr",
    "defeated",
)


class Kept:
    """What a core's observation holds between decisions: everything but the pending
    decision (which :func:`observation` writes on the copy it hands out), with what it
    was last brought up to date from.

    :func:`up_to_date` brings it up to date from the core's journal of what changed
    since (``core.obs_noted`` says whether it holds anything): the US units written,
    and those that only moved; the German units and positions written; a phase begun
    (the turn and fire card change only along with the phase), the deck drawn from, an
    exit opened or closed (``tracks_dirty``). In the US action phase, from four fields
    read in O(1) besides: the Hero markers, and the queue, the attacked positions and the
    cleared obstacle hexes by identity and size (within a phase the procedures only take
    names from the queue and only add to the two sets; anything else makes a new one). A
    clone shares it until either side brings it up to date (``core.obs_owned``).
    """

    __slots__ = (
        "arr",
        "attacked",
        "attacked_n",
        "attacked_of",
        "card",
        "cells",
        "cleared_n",
        "cleared_of",
        "exits",
        "heroes",
        "in_play",
        "mv",
        "naval",
        "ob",
        "occupied",
        "pairs",
        "phase",
        "queue",
        "queue_front",
        "queue_list",
        "queue_n",
        "queue_of",
        "rows",
        "spot_count",
        "spotters",
        "tide",
        "turn",
        "us_phase",
    )

    def __init__(self, ob: Observer) -> None:
        self.ob = ob
        self.arr = ob.base.copy()
        self.arr[ob.obstacles] = 1  # none cleared, no exit open: as the fields start
        #: The array's numbers, for writing one at a time (cheaper than numpy's indexing).
        self.mv: Any = self.arr.data  # a memoryview (typeshed types its items as int)
        # what the array shows (sentinels: none of it is written yet)
        self.turn = -1
        self.tide = ""
        self.in_play = 0
        self.phase = ""
        self.us_phase = False
        self.card: str | None = None
        self.heroes = -1
        self.exits: frozenset[str] = frozenset()
        #: The attacked positions shown, and the core's set they were read from, its size.
        self.attacked: frozenset[str] = frozenset()
        self.attacked_of: set[str] | None = None
        self.attacked_n = 0
        #: The core's set of cleared obstacle hexes last read, and its size.
        self.cleared_of: set[int] | None = None
        self.cleared_n = 0
        #: Whether each position held a German unit (scenario order).
        self.occupied = [False] * len(ob.pos_cells)
        #: Per US unit: its :func:`unit_row` as last written (None: not yet; its ``where``
        #: is stale after a move: ``cells`` has it), its cell (-1 off the map), and its
        #: share of the US planes added there (:meth:`Observer.share`; None off the map).
        self.rows: list[tuple[int, ...] | None] = [None] * len(ob.units)
        self.cells = [-1] * len(ob.units)
        self.pairs: list[tuple[tuple[int, int], ...] | None] = [None] * len(ob.units)
        #: The queue shown (the US action phase's; none in other phases): the core's list
        #: last read and its size then; ``queue_list[queue_front:]`` (a copy, never
        #: changed, and how many have left its front since) and as a set. Its units
        #: ashore (``cells``) are counted on ``us_to_act`` and their ``to_act`` track.
        self.queue_of: list[str] | None = None
        self.queue_n = 0
        self.queue_list: list[str] = []
        self.queue_front = 0
        self.queue: set[str] = set()
        #: Where each US unit spots for the Naval Fire Markers (-1: it does not), and
        #: how many spot each position (WNs only).
        self.spotters = [-1] * len(ob.units)
        self.spot_count = [0] * len(ob.pos_cells)
        #: Positions whose ``naval_target`` cell may have changed (emptied at each update).
        self.naval: set[int] = set()

    def copy(self) -> Kept:
        twin = Kept.__new__(Kept)
        twin.ob = self.ob
        twin.arr = self.arr.copy()
        twin.mv = twin.arr.data
        twin.turn, twin.tide, twin.in_play = self.turn, self.tide, self.in_play
        twin.phase, twin.us_phase, twin.card = self.phase, self.us_phase, self.card
        twin.heroes, twin.exits = self.heroes, self.exits
        twin.attacked, twin.attacked_of = self.attacked, self.attacked_of
        twin.attacked_n = self.attacked_n
        twin.cleared_of, twin.cleared_n = self.cleared_of, self.cleared_n
        twin.occupied = list(self.occupied)
        twin.rows, twin.cells, twin.pairs = list(self.rows), list(self.cells), list(self.pairs)
        twin.queue_of, twin.queue_n = self.queue_of, self.queue_n
        twin.queue_list, twin.queue_front = self.queue_list, self.queue_front
        twin.queue = set(self.queue)
        twin.spotters = list(self.spotters)
        twin.spot_count = list(self.spot_count)
        twin.naval = set()
        return twin


def up_to_date(core: LandingTableCore) -> Kept:
    """The core's :class:`Kept`, brought up to date (see :class:`Kept`); built from
    nothing the first time (or after an edit, a restore, unpickling)."""
    k: Kept | None = core.obs_kept
    if k is None:
        k = _start(core)
    elif not core.obs_owned:  # shared with a clone: copy before writing
        k = core.obs_kept = k.copy()
        core.obs_owned = True
    if k.us_phase and not core.tracks_dirty:
        # the US action phase goes on: who still waits first (a unit that had its orders
        # and moved is then no longer counted where it went), then what the journal notes
        _keep_waiting(core, k)
        if core.obs_noted:
            core.obs_noted = False
            _keep_noted(core, k)
        return k
    if core.obs_noted:
        core.obs_noted = False
        _keep_noted(core, k)
    if k.us_phase:
        _keep_waiting(core, k)
    return k


def _keep_waiting(core: LandingTableCore, k: Kept) -> None:
    """In the US action phase: the queue, the attacks declared, obstacles cleared, Heroes
    (read in O(1) when unchanged: see :class:`Kept`)."""
    queue = core.queue
    n = len(queue)
    if queue is not k.queue_of or n != k.queue_n:
        drop, front, shown = k.queue_n - n, k.queue_front, k.queue_list
        if queue is k.queue_of and drop > 0 and (n == 0 or queue[0] == shown[front + drop]):
            # taken off the front, as the phase goes on: only those leave
            k.queue_front, k.queue_n = front + drop, n
            ob, mv, cells, waiting = k.ob, k.mv, k.cells, k.queue
            for uid in shown[front : front + drop]:
                waiting.discard(uid)
                i = ob.unit_index.get(uid)
                if i is None:  # a Naval Fire Marker
                    mv[ob.naval_waits[uid]] = 0
                elif cells[i] >= 0:
                    mv[ob.plane_to_act + cells[i]] -= 1
                    mv[ob.waits_at[i]] = 0
        else:
            _keep_queue(core, k, queue)
    attacked = core.attacked
    if attacked is not k.attacked_of or len(attacked) != k.attacked_n:
        _keep_attacked(core, k.ob, k)
    cleared = core.cleared
    if cleared is not k.cleared_of or len(cleared) != k.cleared_n:
        _keep_cleared(core, k.ob, k)
    if core.heroes != k.heroes:
        k.heroes = core.heroes
        k.mv[k.ob.track_at.heroes] = core.heroes


def _start(core: LandingTableCore) -> Kept:
    """A new :class:`Kept` for ``core`` and the journal started. The units and positions
    are written here in one pass (the units' table and their sums over the US planes by
    numpy, as :func:`fresh_observation` writes them), with what :class:`Kept` remembers
    of each; the tracks, the queue and the rest are noted as changed, so that
    :func:`up_to_date` writes them."""
    ob = observer(core.scen)
    k = core.obs_kept = Kept(ob)
    core.obs_owned = True
    arr, mv = k.arr, k.mv
    # the US units: their rows, and their shares of the US planes where they stand
    table, sums = unit_table(core, ob)
    first, width, count = ob.units_first, len(UNIT_FIELDS), len(ob.units)
    arr[first : first + count * width].reshape(count, width)[:, : table.shape[1]] = table
    start = int(ob.us_planes[0])
    arr[start : start + sums.size] = sums
    us, rows, cells, pairs = core.us, k.rows, k.cells, k.pairs
    for i, (uid, strengths) in enumerate(ob.units):
        s = us[uid]
        rows[i] = unit_row(s, strengths)
        if s.status == ASHORE:
            cells[i] = s.where
            pairs[i] = ob.share(i, s.steps, s.disrupted)
            if ob.radio[i] and not s.disrupted and ob.radio_by_steps[i][s.steps]:
                k.spotters[i] = s.where
                _spot(ob, k, s.where, 1)
    # the positions (each cell's in scenario order, as fresh_observation writes them)
    pos, occupied = core.pos, k.occupied
    for i, p in enumerate(core.scen.positions):
        occupied[i] = _write_position(mv, ob, p.cell, pos[p.id], core)
    fire = ob.plane["fire_intense"]
    arr[fire : fire + 3 * ob.cells] = np.array(occupied, dtype=np.float32) @ ob.fof
    k.naval.update(ob.wn_positions)
    mv[ob.track_at.us_vp] = core.victory_points()[0]
    core.units_dirty = set()
    core.units_moved = set()
    core.positions_dirty = set()
    core.germans_dirty = set()
    core.tracks_dirty = core.obs_noted = True
    return k


def _keep_noted(core: LandingTableCore, k: Kept) -> None:
    """What the journal notes: units and positions written, units moved, a phase begun
    (and with it anything the procedures reset), a card drawn, an exit opened or closed;
    then the WNs the Naval Fire Markers may fire at and the VP, where they may change."""
    ob = k.ob
    vp = False
    units = core.units_dirty
    if units:
        vp = _keep_units(core, ob, k, units)
        units.clear()
    moved = core.units_moved
    if moved:
        vp = _keep_moved(core, ob, k, moved) or vp
        moved.clear()
    positions, germans = core.positions_dirty, core.germans_dirty
    if positions or germans:
        vp = _keep_positions(core, ob, k, positions, germans) or vp
    if core.tracks_dirty:
        core.tracks_dirty = False
        vp = _keep_tracks(core, ob, k) or vp
        if core.cleared is not k.cleared_of or len(core.cleared) != k.cleared_n:
            _keep_cleared(core, ob, k)
        if core.attacked is not k.attacked_of or len(core.attacked) != k.attacked_n:
            _keep_attacked(core, ob, k)
        if not k.us_phase and k.queue_of is not NO_QUEUE:  # none waits outside its phase
            _keep_queue(core, k, NO_QUEUE)
        if core.heroes != k.heroes:
            k.heroes = core.heroes
            k.mv[ob.track_at.heroes] = core.heroes
    if k.naval:
        _keep_naval(ob, k)
    if vp:
        k.mv[ob.track_at.us_vp] = core.victory_points()[0]


def _keep_tracks(core: LandingTableCore, ob: Observer, k: Kept) -> bool:
    """After a phase begun, a card drawn or an exit opened or closed: the turn, tide
    and Naval Fire Markers in play, the phase, the fire card, the cards left in the
    deck, the open exits; whether the exits changed (the VP)."""
    mv = k.mv
    if core.turn != k.turn:
        _keep_turn(core, ob, k)
    phase = core.phase
    if phase != k.phase:
        if k.phase:
            mv[ob.phase_at[k.phase]] = 0
        mv[ob.phase_at[phase]] = 1
        k.phase = phase
        k.us_phase = phase == US_ACTION
    card = core.card
    if card != k.card:
        if k.card is not None:
            k.arr[ob.card_at[k.card]] = 0
        if card is not None:
            k.arr[ob.card_at[card]] = 1
        k.card = card
    mv[ob.track_at.deck_left] = len(core.deck)
    exits_open = core.exits_open
    if exits_open.keys() == k.exits:
        return False
    exit_open = ob.plane["exit_open"]
    for _, c in ob.exit_cells:
        mv[exit_open + c] = 0
    for eid, c in ob.exit_cells:
        if eid in exits_open:
            mv[exit_open + c] = 1
    k.exits = frozenset(exits_open)
    mv[ob.track_at.exits_open] = len(exits_open)
    return True


US_ACTION = Phase.US_ACTION.value


def _keep_naval_tracks(ob: Observer, k: Kept) -> None:
    """The Naval Fire Markers in play, and which of them wait for their orders."""
    mv, queue = k.mv, k.queue
    for number, (nid, on, waits) in enumerate(ob.naval_at):
        mv[on] = number < k.in_play
        mv[waits] = number < k.in_play and nid in queue


def _keep_turn(core: LandingTableCore, ob: Observer, k: Kept) -> None:
    """The turn, the tide and the Naval Fire Markers in play."""
    arr, mv, plane, n = k.arr, k.mv, ob.plane, ob.cells
    k.turn = core.turn
    mv[ob.track_at.turn] = core.turn
    tide = core.tide()
    if tide != k.tide:
        flooded = plane["flooded"]
        arr[flooded : flooded + n] = 0
        arr[ob.flooded[tide]] = 1
        mv[ob.track_at.tide] = ob.tide[tide]
        k.tide = tide
    in_play = len(core.naval_ids())
    if (in_play > 0) != (k.in_play > 0):
        k.naval.update(ob.wn_positions)
    if in_play != k.in_play:
        k.in_play = in_play
        _keep_naval_tracks(ob, k)


def _keep_cleared(core: LandingTableCore, ob: Observer, k: Kept) -> None:
    """The obstacle hexes not yet cleared."""
    k.arr[ob.obstacles] = 1
    mv, obstacle = k.mv, ob.plane["obstacle"]
    for c in core.cleared:
        mv[obstacle + c] = 0  # a cleared hex off the obstacle rows stays 0 anyway
    k.cleared_of = core.cleared
    k.cleared_n = len(core.cleared)


def _keep_positions(
    core: LandingTableCore, ob: Observer, k: Kept, pids: set[str] | None, gids: set[str] | None
) -> bool:
    """Write again the cells of the positions written since, and of those the German
    units written since stand in (every position on such a cell, in scenario order, as
    :func:`fresh_observation` does), and their fields of fire; empty both notes. Whether
    one of them scores VP (the VP may change)."""
    arr, mv, plane, n, index = k.arr, k.mv, ob.plane, ob.cells, ob.pos_index
    pos, positions, ger = core.pos, core.scen.positions, core.ger
    noted = [*(pids or ()), *(ger[g].where for g in gids or ())]
    cells = sorted({ob.pos_cells[index[pid]] for pid in noted if pid in index})
    for journal in (pids, gids):
        if journal:
            journal.clear()
    fire = plane["fire_intense"]
    vp = False
    for c in cells:
        vp = vp or c in ob.vp_cells
        for start in ob.german_starts:
            mv[start + c] = 0
        for i in ob.cell_positions[c]:
            occupied = _write_position(mv, ob, c, pos[positions[i].id], core)
            if occupied != k.occupied[i]:
                if occupied:
                    arr[fire : fire + 3 * n] += ob.fof[i]
                else:
                    arr[fire : fire + 3 * n] -= ob.fof[i]
                k.occupied[i] = occupied
                k.naval.add(i)
    return vp


def _keep_units(core: LandingTableCore, ob: Observer, k: Kept, uids: Iterable[str]) -> bool:
    """Write again the fields of the units written since that changed (their row as
    :func:`unit_row` gives it, written out here: this runs for every unit written), and
    move or change their share of the US planes; whether a unit came ashore, left or
    moved where it may change the VP. (The order the units are taken in changes nothing:
    the planes add small whole numbers.)"""
    mv, us, index, strengths, rows = k.mv, core.us, ob.unit_index, ob.strengths, k.rows
    cells, pairs, where_at = k.cells, k.pairs, ob.where_at
    vp = False
    for uid in uids:
        i = index[uid]
        s = us[uid]
        status, steps1, dis1 = s.status, s.steps, s.disrupted
        if status == ASHORE:
            new = (s.where + 1, 1, steps1, strengths[i][steps1], 0, 0, dis1)
        elif status == SCHEDULED:
            new = (0, 0, steps1, strengths[i][steps1], s.turn, s.box, dis1)
        else:
            new = (0, _STATUS_CODE[status], steps1, strengths[i][steps1], 0, 0, dis1)
        old = rows[i]
        if new == old:
            continue
        rows[i] = new
        if old is None:
            old = NO_ROW
            vp = True
        at = where_at[i]
        where1, status1, _, strength1, turn1, box1, _ = new
        _, status0, steps0, strength0, turn0, box0, dis0 = old
        cell0, cell1 = cells[i], where1 - 1  # (the row's where is stale after a move)
        if cell0 != cell1:
            mv[at] = where1
            cells[i] = cell1
        if status0 != status1:
            mv[at + 1] = status1
        if steps0 != steps1:
            mv[at + 2] = steps1
        if strength0 != strength1:
            mv[at + 3] = strength1
        if turn0 != turn1:
            mv[at + 4] = turn1
        if box0 != box1:
            mv[at + 5] = box1
        if dis0 != dis1:
            mv[at + 6] = dis1
        # its share of the US planes, taken from where it was and put where it is
        share = pairs[i]
        if share is not None and status1 == 1:  # ashore before and after
            if steps0 != steps1 or dis0 != dis1:
                if cell0 == cell1:  # hit, disrupted or rallied where it stands
                    for start, value in ob.delta(i, steps0, dis0, steps1, dis1):
                        mv[start + cell1] += value
                    pairs[i] = ob.share(i, steps1, dis1)
                else:
                    for start, value in share:
                        mv[start + cell0] -= value
                    share = pairs[i] = ob.share(i, steps1, dis1)
                    for start, value in share:
                        mv[start + cell1] += value
            elif cell0 != cell1:
                for start, value in share:
                    mv[start + cell0] -= value
                    mv[start + cell1] += value
        else:
            if share is not None:
                for start, value in share:
                    mv[start + cell0] -= value
            share = pairs[i] = ob.share(i, steps1, dis1) if status1 == 1 else None
            if share is not None:
                for start, value in share:
                    mv[start + cell1] += value
        if ob.radio[i]:  # spots for the Naval Fire Markers: a radio at its steps, undisrupted
            spot = cell1 if status1 == 1 and not dis1 and ob.radio_by_steps[i][steps1] else -1
            spotted = k.spotters[i]
            if spot != spotted:
                if spotted >= 0:
                    _spot(ob, k, spotted, -1)
                if spot >= 0:
                    _spot(ob, k, spot, 1)
                k.spotters[i] = spot
        if cell0 == cell1:
            continue
        # it came ashore, left, or moved
        if cell0 in ob.vp_cells or cell1 in ob.vp_cells:
            vp = True
        if uid in k.queue:  # waiting for its orders: counted where it is, if ashore
            to_act = ob.plane_to_act
            if cell0 >= 0:
                mv[to_act + cell0] -= 1
            if cell1 >= 0:
                mv[to_act + cell1] += 1
            mv[at + 7] = cell1 >= 0
    return vp


def _keep_moved(core: LandingTableCore, ob: Observer, k: Kept, uids: Iterable[str]) -> bool:
    """Move the units that only moved since (:meth:`LandingTableCore.move`): their
    ``where``, their share of the US planes, where they wait for orders and spot for
    the Naval Fire Markers (a move changes neither whether it waits nor whether it
    spots); whether the VP may change."""
    mv, us, index, cells, pairs = k.mv, core.us, ob.unit_index, k.cells, k.pairs
    vp = False
    for uid in uids:
        i = index[uid]
        cell0, cell1 = cells[i], us[uid].where
        if cell0 == cell1:
            continue
        cells[i] = cell1
        mv[ob.where_at[i]] = cell1 + 1
        for start, value in pairs[i] or ():
            mv[start + cell0] -= value
            mv[start + cell1] += value
        if k.spotters[i] >= 0:  # (within reach of the same WNs: no count changes)
            if ob.wn_in_reach[cell0] != ob.wn_in_reach[cell1]:
                _spot(ob, k, cell0, -1)
                _spot(ob, k, cell1, 1)
            k.spotters[i] = cell1
        if cell0 in ob.vp_cells or cell1 in ob.vp_cells:
            vp = True
        if uid in k.queue:  # waiting for its orders: counted where it is now
            mv[ob.plane_to_act + cell0] -= 1
            mv[ob.plane_to_act + cell1] += 1
    return vp


#: The queue outside the US action phase (no unit waits for its orders; never changed).
NO_QUEUE: list[str] = []
#: The row of a unit before it is first written (the base holds 0 everywhere).
NO_ROW = (0, 0, 0, 0, 0, 0, 0)


def _keep_queue(core: LandingTableCore, k: Kept, listed: list[str]) -> None:
    """The queue shown is ``listed`` from now (read again in full): the units in it
    ashore are counted on ``us_to_act`` and their ``to_act`` track, its markers' tracks."""
    ob, mv, cells, index, to_act = k.ob, k.mv, k.cells, k.ob.unit_index, k.ob.plane_to_act
    queue = set(listed)
    k.queue_of, k.queue_n, k.queue_list, k.queue_front = listed, len(listed), list(listed), 0
    if not queue and len(k.queue) > 4:  # the phase is over: nobody waits (numpy clears all)
        k.queue = queue
        k.arr[to_act : to_act + ob.cells] = 0
        k.arr[ob.waits_slice] = 0
        for waits in ob.naval_waits.values():
            mv[waits] = 0
        return
    left, came = k.queue - queue, queue - k.queue
    k.queue = queue
    for uids, sign in ((left, -1), (came, 1)):
        for uid in uids:
            i = index.get(uid)
            if i is None:  # a Naval Fire Marker
                mv[ob.naval_waits[uid]] = sign > 0 and ob.naval_number[uid] < k.in_play
            elif cells[i] >= 0:
                mv[to_act + cells[i]] += sign
                mv[ob.waits_at[i]] = sign > 0


def _spot(ob: Observer, k: Kept, cell: int, sign: int) -> None:
    """A unit that spots for the Naval Fire Markers comes to (``sign`` 1) or leaves (-1)
    ``cell``: the WNs within spotting range of it count it."""
    count = k.spot_count
    for i in ob.wn_in_reach[cell]:
        count[i] += sign
        if count[i] == (1 if sign > 0 else 0):  # spotted now, or no longer
            k.naval.add(i)


def _keep_naval(ob: Observer, k: Kept) -> None:
    """The WNs a Naval Fire Marker in play may fire at (:meth:`LandingTableCore.
    naval_targets`): held, with a spotter in range; written again where that changed."""
    at, mv, occupied, count = ob.plane["naval_target"], k.mv, k.occupied, k.spot_count
    for c in {ob.pos_cells[i] for i in k.naval}:
        mv[at + c] = k.in_play > 0 and any(
            occupied[i] and count[i] > 0 for i in ob.cell_positions[c] if i in ob.wn_set
        )
    k.naval.clear()


def _keep_attacked(core: LandingTableCore, ob: Observer, k: Kept) -> None:
    """The positions attacked this US action phase."""
    mv, at, by_id = k.mv, ob.plane["attacked"], core.scen.pos_by_id
    for pid in k.attacked:
        mv[at + by_id[pid].cell] = 0
    for pid in core.attacked:
        mv[at + by_id[pid].cell] = 1
    k.attacked = frozenset(core.attacked)
    k.attacked_of = core.attacked
    k.attacked_n = len(core.attacked)


def observation(core: LandingTableCore, player: str) -> Observation:
    """What the US player knows, as numbers (the layout of :func:`observation_layout`):
    :func:`fresh_observation`, from the part kept up to date (:func:`up_to_date`) and
    the pending decision written on a copy. A new array each call."""
    if player != "US":
        raise ValueError(f"{player!r} is not a player of D-Day at Omaha Beach (the US plays alone)")
    k = up_to_date(core)
    obs = k.arr.copy()
    d = core.decision
    if d is not None:
        _write_pending(core, k.ob, d, obs.data)
    return obs


def observation_into(core: LandingTableCore, player: str, out: Observation) -> None:
    """:func:`observation` written into ``out`` (an array of the layout's size), with no
    array in between."""
    if player != "US":
        raise ValueError(f"{player!r} is not a player of D-Day at Omaha Beach (the US plays alone)")
    k = up_to_date(core)
    view: Any = out.data
    try:
        view[:] = k.mv  # a float32 tensor (OpenSpiel's): a plain copy of the numbers
    except (ValueError, TypeError):  # another type: numpy converts them
        out[...] = k.arr
        view = out
    d = core.decision
    if d is not None:
        _write_pending(core, k.ob, d, view)


def _write_orders(core: LandingTableCore, ob: Observer, d: dict[str, Any], obs: Any) -> None:
    """An orders decision, written on ``obs`` as :func:`_write_pending` writes it: the
    unit's ``deciding`` track and its hex (none for a Naval Fire Marker), the decision."""
    uid = d.get("unit")
    at = ob.deciding_of.get(uid)  # type: ignore[arg-type]
    if at is not None:
        obs[at] = 1
        obs[ob.choice + core.us[uid].where] = 1  # type: ignore[index]
    obs[ob.orders_at] = 1


def _write_pending(core: LandingTableCore, ob: Observer, d: dict[str, Any], obs: Any) -> None:
    """The pending decision, written on ``obs`` (an observation's numbers: a memoryview
    of one, or the array) as :func:`fresh_observation` writes it."""
    kind = d.get("kind")
    if kind == "orders":  # the most frequent: one unit's orders
        _write_orders(core, ob, d, obs)
        return
    plane, track = ob.plane, ob.track
    deciding = d.get("unit") if kind in ("land", "drift", "follow") else None
    if deciding in ob.unit_index:
        obs[ob.deciding_at[ob.unit_index[str(deciding)]]] = 1
    choice = plane["choice"]
    if kind == "land":
        for c in core.land_options(int(d["box"])):
            obs[choice + c] = 1
        obs[track["landing_box_now"]] = int(d["box"])
    elif kind == "drift":
        obs[track["drift_most"]] = int(d["most"])
        obs[track["landing_box_now"]] = int(d["box"])
    elif kind in ("hit", "attrition"):
        for uid in d["units"]:
            obs[choice + core.us[uid].where] = 1
        if kind == "hit":
            obs[track["hit_need"]] = int(d["need"])
    if kind is None:
        return
    obs[ob.decision_at[kind]] = 1
    target = core.ctx.get("target") if kind == "attack" else None
    if target is not None:
        cell = core.scen.pos_by_id[target].cell
        obs[plane["attack_target"] + cell] = 1
        attackers = plane["attackers"]
        for uid in core.ctx["attackers"]:
            obs[attackers + (cell if uid in ob.naval else core.us[uid].where)] += 1


_STATUS_CODE = {SCHEDULED: 0, ASHORE: 1, ELIMINATED: 2, REMOVED: 3}
