"""D-Day at Omaha Beach: what the US player knows, as numbers (for agents), declared per
entity.

The layout (:func:`observation_layout`) is planes over the hexes (the printed map; the
tide, the obstacles, the open exits; the US units summed per hex; the German positions
as the US sees them; fields of fire; the decision under way) and tracks (turn, tide,
Heroes, VP, the fire card, phase and decision, the Naval Fire Markers, and a row of
:data:`UNIT_FIELDS` per US unit). The US player does not see unrevealed German units
(352nd units enter face down) or unrevealed depth markers (READINGS.md, "Agents").

:class:`LandingTableObservation` declares what each entity shows (the kernel's
:class:`~omaha.kernel.observation.Declaration` keeps it from the core's journal): a US
unit (its id: its row, its share of the US planes where it stands, whether it waits
for its orders), a position (``("pos", i)``: its German unit and depth marker, its
field of fire while held, attacked, the VP it scores), an obstacle hex (``("hex", c)``),
the flooded hexes (``TIDE``), the open exits (``EXITS``) and the Naval Fire Markers
(``NAVAL``); the printed map is the declaration's ``printed``. The turn, tide, Heroes,
cards, phase and the decision are written at each call. The state's
``fresh_observation`` is the declaration over every entity.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from omaha.kernel.observation import Declaration, Observation, ObservationLayout, Shown
from omaha.landing_table.components.cards import COLOURS, SYMBOLS
from omaha.landing_table.components.charts import ACTION_LETTERS, CHARTS
from omaha.landing_table.components.terrain import TIDE_ORDER
from omaha.landing_table.core import (
    ASHORE,
    CLOCK,
    ELIMINATED,
    EXITS,
    NAVAL,
    REMOVED,
    SCHEDULED,
    TIDE,
    LandingTableCore,
    Phase,
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
    ("spotters", "US units spotting for the Naval Fire Markers within range of the WN in the "
     "hex (undisrupted, with a radio): a marker in play may fire at a held WN with one"),
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
_WIDTH = len(UNIT_FIELDS)
_STATUS_CODE = {SCHEDULED: 0, ASHORE: 1, ELIMINATED: 2, REMOVED: 3}
ROW_LETTERS = "ABCDEFGHIJK"
US_ACTION = Phase.US_ACTION


def _tracks(scen: LandingTableScenario, naval: tuple[str, ...]) -> list[tuple[str, str]]:
    return [
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
        *((f"{nid}.in_play", "1 once the Naval Fire Marker has arrived") for nid in naval),
        *((f"{nid}.to_act", "1 while the marker waits for its orders") for nid in naval),
        *((f"{u.id}.{f}", m) for u in scen.us for f, m in UNIT_FIELDS),
    ]


class LandingTableObservation(Declaration[LandingTableCore]):
    """What each entity of D-Day at Omaha Beach shows the US player (the only one)."""

    def __init__(self, scen: LandingTableScenario) -> None:
        self.scen = scen
        board = scen.board
        n = len(board)
        self.naval = tuple(f"NF{i}" for i in range(1, sum(k for _, k in scen.naval) + 1))
        tracks = _tracks(scen, self.naval)
        self.layout = ObservationLayout.named(n, PLANES, tracks)
        plane = self.plane = track = self.track = self.layout.at  # (names are distinct)
        # the printed map: each number as it is finally written (a later box overwrites)
        base: dict[int, float] = {}
        terrains = {t: i + 1 for i, t in enumerate(sorted(set(board.terrain)))}
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
        base[track["turns"]] = scen.turns
        self.printed = tuple((i, float(v)) for i, v in sorted(base.items()) if v)
        self.weapons = {w: plane[f"requires_{w}"] for w in CHARTS.weapon_names}
        #: Each position's field of fire while it is held, as (index, 1) pairs.
        self.fof = tuple(
            tuple((plane[f"fire_{dot}"] + c, 1.0) for c, dot in p.fof.items())
            for p in scen.positions
        )
        self.unit_index = {u.id: i for i, u in enumerate(scen.us)}
        first = track[f"{scen.us[0].id}.where"] if scen.us else self.layout.size
        #: Per US unit: the index of its first track.
        self.unit_at = tuple(first + i * _WIDTH for i in range(len(scen.us)))
        self._units: dict[tuple[object, ...], Shown] = {}  # what a unit shows, by its fields
        self.card_tracks = {
            cid: [track["card_shown"]]
            + [track[f"card_{c}"] for c in sorted(card.colours)]
            + [track[f"card_{card.symbol}"], track[f"card_action_{card.action}"]]
            + ([track[f"card_{card.icon}"]] if card.icon != "none" else [])
            + ([track["card_mine"]] if card.mine else [])
            for cid, card in scen.cards.items()
        }
        self.phase_at = {p: track[f"phase_{p.value}"] for p in Phase}
        self.naval_at = {n: (track[f"{n}.in_play"], track[f"{n}.to_act"]) for n in self.naval}
        self.heroes_at, self.deck_left_at = track["heroes"], track["deck_left"]
        self.to_act_at = plane["us_to_act"]
        self.decision_at = {d: track[f"decision_{d}"] for d in DECISIONS}
        self.tide_at = {level: i for i, level in enumerate(TIDE_ORDER)}
        self.flooded = {
            level: tuple((plane["flooded"] + c, 1.0) for c in sorted(cells))
            for level, cells in scen.flood_cells.items()
        }
        self.obstacles = tuple(sorted(scen.obstacle_cells))
        #: Per cell, the hexes of the WNs a unit there spots for the Naval Fire Markers.
        reach, positions = lookup_for(scen).wn_spotted_from, scen.positions
        self.spotted_from = tuple(
            tuple(sorted({p.cell for i, p in enumerate(positions) if bits >> i & 1}))
            for bits in reach
        )

    def entities(self, core: LandingTableCore) -> Iterable[Hashable]:
        for uid in self.unit_index:
            yield from (uid, ("act", uid))
        for i in range(len(self.scen.positions)):
            yield from (("pos", i), ("fof", i))
        for c in self.obstacles:
            yield ("hex", c)
        yield from (CLOCK, TIDE, EXITS, NAVAL)

    def shown(self, core: LandingTableCore, entity: Hashable, viewpoint: str | None) -> Shown:
        if type(entity) is str:  # (the most frequent first)
            return self._unit(core, entity)
        assert isinstance(entity, tuple)
        kind = entity[0]
        if kind == "act":
            return self._waits(core, entity[1])
        if kind == "pos":
            return self._position(core, entity[1])
        if kind == "fof":  # the field of fire of a held position
            i = entity[1]
            return self.fof[i] if core.pos[self.scen.positions[i].id].unit else ()
        if kind == "hex":
            cell = entity[1]
            return () if cell in core.cleared else ((self.plane["obstacle"] + cell, 1.0),)
        if entity == CLOCK:
            return self._clock(core)
        if entity == TIDE:
            return self.flooded[core.tide()]
        if entity == NAVAL:
            return self._naval(core)
        assert entity == EXITS
        at = self.plane["exit_open"]
        out = [(at + e.cell, 1.0) for e in self.scen.exits if e.id in core.exits_open]
        n_open = len(core.exits_open)
        if n_open:
            out += ((self.track["exits_open"], n_open),
                    (self.track["us_vp"], self.scen.vp_exit * n_open))  # fmt: skip
        return tuple(out)

    def _unit(self, core: LandingTableCore, uid: str) -> Shown:
        """A US unit's row of :data:`UNIT_FIELDS` (but ``to_act`` and ``deciding``) and,
        ashore, its share of the US planes and the WNs it spots for the Naval Fire
        Markers (made once for each thing it may show: units change at most decisions)."""
        s = core.us[uid]
        key = (uid, s.status, s.where, s.steps, s.disrupted, s.turn, s.box)
        got = self._units.get(key)
        if got is None:
            got = self._units[key] = self._unit_shown(uid, s, core.spots(s))
        return got

    def _waits(self, core: LandingTableCore, uid: str) -> Shown:
        """Whether a US unit ashore waits for its orders this US action phase: its
        ``to_act`` track and its count on ``us_to_act``."""
        s = core.us[uid]
        if s.status != ASHORE or core.current_phase is not US_ACTION or uid not in core.queue:
            return ()
        return ((self.to_act_at + s.where, 1.0), (self.unit_at[self.unit_index[uid]] + 7, 1.0))

    def _unit_shown(self, uid: str, s: USState, spots: bool) -> Shown:
        i = self.unit_index[uid]
        at, steps, kind = self.unit_at[i], s.steps, self.scen.us[i].kind
        strength = kind.strength(steps)
        out: list[tuple[int, float]] = []
        if s.status == ASHORE:
            c, troops = s.where, not kind.leader
            row: tuple[int, ...] = (c + 1, 1, steps, strength, 0, 0, s.disrupted)
            planes = (
                ("us_units", troops),
                ("us_steps", steps if troops else 0),
                ("us_strength", strength),
                ("us_disrupted", s.disrupted),
                ("us_leaders", kind.leader),
                ("us_armour", kind.armoured),
                ("us_artillery", kind.barrage > 0),
                ("us_engineers", kind.clears),
            )
            out += ((self.plane[name] + c, int(value)) for name, value in planes if value)
            if spots:
                out += ((self.plane["spotters"] + wn, 1) for wn in self.spotted_from[c])
        elif s.status == SCHEDULED:
            row = (0, 0, steps, strength, s.turn, s.box, s.disrupted)
        else:
            row = (0, _STATUS_CODE[s.status], steps, strength, 0, 0, s.disrupted)
        out += ((at + k, value) for k, value in enumerate(row) if value)
        return tuple(out)

    def _position(self, core: LandingTableCore, i: int) -> Shown:
        """A position's German unit (face down: only that one is there) and depth marker
        as the US may see them, its field of fire while held, whether it was attacked
        this phase, and the VP it scores (clear of Germans, held or its unit defeated)."""
        p = self.scen.positions[i]
        c, ps, plane = p.cell, core.pos[p.id], self.plane
        out: list[tuple[int, float]] = []
        unit = ps.unit
        if unit is not None:
            g = core.ger[unit]
            if g.disrupted:
                out.append((plane["german_disrupted"] + c, 1.0))
            if g.revealed:
                gu = self.scen.germans[unit]
                out += ((plane["german_defense"] + c, gu.defense),
                        (plane["german_artillery"] + c, gu.artillery))  # fmt: skip
                out += ((self.weapons[w] + c, 1.0) for w in gu.requires)
            else:
                out.append((plane["german_face_down"] + c, 1.0))
        if ps.depth is not None:
            if not ps.depth_revealed:
                out.append((plane["depth_face_down"] + c, 1.0))
            elif ps.depth == "TR":
                out.append((plane["depth_tr"] + c, 1.0))
            else:
                out.append((plane["depth_value"] + c, int(ps.depth)))
        if ps.defeated:
            out.append((plane["defeated"] + c, 1.0))
        if p.id in core.attacked:
            out.append((plane["attacked"] + c, 1.0))
        if p.vp > 0 and unit is None and (ps.defeated or c in core.us_at()):
            out.append((self.track["us_vp"], p.vp * self.scen.vp_position))
        return tuple(x for x in out if x[1])

    def _naval(self, core: LandingTableCore) -> Shown:
        """The Naval Fire Markers in play, and those waiting for their orders."""
        queued = core.queue if core.current_phase is US_ACTION else ()
        in_play = core.naval_ids()
        out = [(self.naval_at[nid][0], 1.0) for nid in in_play]
        out += [(self.naval_at[nid][1], 1.0) for nid in in_play if nid in queued]
        return tuple(out)

    def _clock(self, core: LandingTableCore) -> Shown:
        """The turn, the tide, the phase and the fire card on the table."""
        track = self.track
        out = [(track["turn"], core.turn), (self.phase_at[core.current_phase], 1.0)]
        tide = self.tide_at[core.tide()]
        if tide:
            out.append((track["tide"], tide))
        if core.card is not None:
            out += ((at, 1.0) for at in self.card_tracks[core.card])
        return tuple(out)

    def finish(self, core: LandingTableCore, player: str, out: Observation) -> None:
        """The Hero markers and cards left, and the decision."""
        out[self.heroes_at] = core.heroes
        out[self.deck_left_at] = len(core.deck)
        if core.decision is not None:
            _write_pending(core, self, core.decision, out)


def _write_pending(
    core: LandingTableCore, ob: LandingTableObservation, d: dict[str, Any], obs: Any
) -> None:
    """The pending decision, written on ``obs`` (an observation's numbers)."""
    kind = d.get("kind")
    if kind is None:
        return
    obs[ob.decision_at[kind]] = 1
    plane, track, choice = ob.plane, ob.track, ob.plane["choice"]
    i = ob.unit_index.get(d.get("unit"))  # type: ignore[arg-type]
    if i is not None:  # the unit landing, drifting, following or getting its orders
        obs[ob.unit_at[i] + 8] = 1
        if kind == "orders":
            obs[choice + core.us[d["unit"]].where] = 1
    if kind == "land":
        for c in core.land_options(int(d["box"])):
            obs[choice + c] = 1
        obs[track["landing_box_now"]] = int(d["box"])
    elif kind == "drift":
        obs[track["drift_most"]] = int(d["most"])
        obs[track["landing_box_now"]] = int(d["box"])
    elif kind in ("hit", "attrition"):
        for unit in d["units"]:
            obs[choice + core.us[unit].where] = 1
        if kind == "hit":
            obs[track["hit_need"]] = int(d["need"])
    elif kind == "attack" and core.ctx.get("target") is not None:
        cell = core.scen.pos_by_id[core.ctx["target"]].cell
        obs[plane["attack_target"] + cell] = 1
        for unit in core.ctx["attackers"]:
            obs[plane["attackers"] + (cell if unit in ob.naval else core.us[unit].where)] += 1
