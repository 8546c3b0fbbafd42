"""What a player of LnL Omaha sees, as numbers (for agents), declared per entity.

The layout (:func:`observation_layout`) is planes over the map's hexes (each side's
counters, steps, kinds and markers; moved, assaulted, landed this turn; control,
victory points, fortifications, landing hexes; the decision under way) and tracks
(turn, phase, decision, NGFS, cards, and each unit's hex, steps, markers and due
turn). Everything on the map is open in LnL Omaha; the order of the action deck is
hidden from both players and is not in the observation (only the cards left).

:class:`LnlObservation` declares what each entity shows (the kernel's
:class:`~omaha.kernel.observation.Declaration` keeps it): a unit (an int: its counts
in its hex's planes and its tracks), a victory hex's control (``("hex", c)``), the
position's tracks (``POSITION``); the printed map is the declaration's ``printed``.
The core's mutators note what they change in its journal. The decision in progress (and whose
observation it is) is written at each call, on the copy handed out.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import get_args

import attrs

from omaha.kernel.observation import Declaration, Observation, ObservationLayout, Shown
from omaha.lnl.core import SIDES, Decision, LnlCore, Phase
from omaha.lnl.scenario import LnlScenario

#: Per side: counters, steps, counters by kind (LnL Omaha: Unit Types), markers.
_SIDE_PLANES = ("counters", "steps", "infantry", "armor", "gun", "disrupted", "fired")
_SHARED_PLANES = ("moved", "assaulted", "landed_this_turn", "control", "victory_points",
                  "fortification", "landing_hex")  # fmt: skip
_TASK_PLANES = ("attack_target", "attack_firers", "moving", "opportunity",
                "to_lose", "to_retreat", "advance_into")  # fmt: skip
_UNIT_TRACKS = ("where", "steps", "disrupted", "fired", "moved", "selected", "due")
DECISIONS: tuple[Decision, ...] = get_args(Decision)
#: The entity besides the units (ints) and the victory hexes (``("hex", c)``).
POSITION = "position"


def _layout(scen: LnlScenario) -> ObservationLayout:
    side_names = {"US": "us", "German": "german"}
    planes = tuple(f"{side_names[s]}_{p}" for s in SIDES for p in _SIDE_PLANES)
    planes += _SHARED_PLANES + _TASK_PLANES
    tracks = (
        "observer_us", "to_move_us", "phasing_us", "turn", "turns",
        *(f"phase_{s}" for s in Phase),
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
        ("phase_fire", "1 in the phase named (one of phase_*), 0 in the others"),
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
    return ObservationLayout(
        cells=len(scen.board), planes=planes, tracks=tracks + unit_tracks, meanings=meanings
    )


@attrs.frozen(eq=False)
class _Where:
    """The offsets the declaration and the decision part write at (per scenario)."""

    plane: dict[str, int]  #: plane name -> its offset in the vector
    track: dict[str, int]  #: track name -> its index
    #: Per unit, the offsets of the planes it counts in: its side's counters, its
    #: kind, its side's steps, disrupted, fired.
    unit_planes: tuple[tuple[int, int, int, int, int], ...]
    unit_tracks: int  #: index of the first per-unit track
    selected: int  #: the first unit's "selected" track
    phases: dict[str, int]  #: phase -> its track
    decisions: dict[str, int]  #: decision -> its track


class LnlObservation(Declaration[LnlCore]):
    """What each entity of LnL Omaha shows: the same to both players (one viewpoint)."""

    def __init__(self, scen: LnlScenario) -> None:
        layout = self.layout = _layout(scen)
        plane = track = layout.at  # (names are distinct)
        side = {"US": "us", "German": "german"}
        units = scen.units
        self.at = _Where(
            plane=plane,
            track=track,
            unit_planes=tuple(
                (
                    plane[f"{side[u.side]}_counters"],
                    plane[f"{side[u.side]}_{u.type.kind}"],
                    plane[f"{side[u.side]}_steps"],
                    plane[f"{side[u.side]}_disrupted"],
                    plane[f"{side[u.side]}_fired"],
                )
                for u in units
            ),
            unit_tracks=layout.track_index(f"{units[0].id} where") if units else layout.size,
            selected=layout.track_index(f"{units[0].id} selected") if units else layout.size,
            phases={s: track[f"phase_{s}"] for s in Phase},
            decisions={d: track[f"decision_{d}"] for d in DECISIONS},
        )
        T = scen.tables
        printed = [(plane["victory_points"] + c, pts) for c, pts in scen.victory_points.items()]
        printed += [(plane["fortification"] + c, T.fort[c]) for c in range(T.n) if T.fort[c]]
        printed += [(plane["landing_hex"] + c, 1) for c in T.landing]
        printed.append((track["turns"], scen.turns))
        self.printed: Shown = tuple((i, float(v)) for i, v in printed)
        self.moved, self.assaulted, self.landed = (
            plane[p] for p in ("moved", "assaulted", "landed_this_turn")
        )
        self.k = len(units)

    def viewpoint(self, player: str) -> None:
        return None  # everything shown is open to both players

    def entities(self, core: LnlCore) -> Iterable[Hashable]:
        yield from range(self.k)
        for c in core.T.victory:
            yield ("hex", c)
        yield POSITION

    def shown(self, core: LnlCore, entity: Hashable, viewpoint: str | None) -> Shown:
        if type(entity) is int:
            return self._unit(core, entity)
        if entity == POSITION:
            return self._position(core)
        assert isinstance(entity, tuple)
        c = entity[1]
        side = core.control[c]
        if side == "US":
            return ((self.at.plane["control"] + c, 1.0), (self.at.track["us_hexes_held"], 1.0))
        if side == "German":
            return ((self.at.plane["control"] + c, -1.0),)
        return ()

    def _unit(self, core: LnlCore, u: int) -> Shown:
        """A unit's counts in its hex's planes (counters, kind, steps, markers, landed
        this turn) and its tracks (hex + 1, or -1 eliminated; steps; markers; due turn)."""
        k, first = self.k, self.at.unit_tracks
        where, steps = core.where[u], core.steps[u]
        due = core.due.get(u, 0)
        out: list[tuple[int, float]] = [(first + u, where + 1)] if where != -1 else []
        if steps:
            out.append((first + k + u, steps))
        if core.dis[u]:
            out.append((first + 2 * k + u, 1))
        if core.fired[u]:
            out.append((first + 3 * k + u, 1))
        if core.moved[u]:
            out.append((first + 4 * k + u, 1))
        if due:
            out.append((first + 6 * k + u, due))
        if where >= 0:
            counters, kind, steps_at, disrupted, fired = self.at.unit_planes[u]
            out += ((counters + where, 1), (kind + where, 1), (steps_at + where, steps))
            if core.dis[u]:
                out.append((disrupted + where, 1))
            if core.fired[u]:
                out.append((fired + where, 1))
            if core.moved[u]:
                out.append((self.moved + where, 1))
            if core.assaulted[u]:
                out.append((self.assaulted + where, 1))
            if core.placed[u] == core.turn and core.turn > 0:
                out.append((self.landed + where, 1))
        return tuple(out)

    def _position(self, core: LnlCore) -> Shown:
        """The turn, phasing player, phase, NGFS packets left, +6 HE cards held, German
        movement a card allowed, cards left and attacks cancelled this phase."""
        t = self.at.track
        return (
            (t["turn"], core.turn),
            (t["phasing_us"], core.side == "US"),
            (self.at.phases[core.current_phase], 1),
            (t["ngfs_left"], core.ngfs_left),
            (t["us_bonus"], core.bonus["US"]),
            (t["german_bonus"], core.bonus["German"]),
            (t["perm_all"], "all" in core.perms),
            (t["perm_armor"], "armor" in core.perms),
            (t["deck_left"], len(core.deck)),
            (t["cancels"], core.cancels),
        )

    def finish(self, core: LnlCore, player: str, out: Observation) -> None:
        _decision_part(core, self.at, out.data, player)


def _decision_part(core: LnlCore, at: _Where, obs: memoryview, player: str) -> None:
    """Whose observation it is, and the decision in progress: what it is about, on
    the board and in the tracks (written at each call, on a board where all of these
    numbers are 0: only the others are written)."""
    if player == "US":
        obs[at.track["observer_us"]] = 1
    if core.result is not None:
        return
    decision = core.decision()
    obs[at.decisions[decision]] = 1
    if decision == "phase":  # the phasing player's own, no task under way
        if core.side == "US":
            obs[at.track["to_move_us"]] = 1
        return
    if core.current_player() == "US":
        obs[at.track["to_move_us"]] = 1
    where = core.where
    selected = at.selected
    a = core.attack
    if a is not None:
        if a.target >= 0:
            obs[at.plane["attack_target"] + a.target] = 1
        firers = at.plane["attack_firers"]
        for x in a.firers:
            obs[firers + where[x]] += 1
            obs[selected + x] = 1
        if a.ngfs:
            obs[at.track["attack_ngfs"]] = a.ngfs
        if a.bonus:
            obs[at.track["attack_bonus"]] = 1
        if a.kind == "hard":
            obs[at.track["attack_hard"]] = 1
        elif a.kind == "soft":
            obs[at.track["attack_hard"]] = -1
    if core.opp is not None:
        obs[at.plane["opportunity"] + core.opp.cell] = 1
    g = core.group
    if g is not None:
        obs[at.plane["moving"] + g.cell] = len(g.units)
        if decision == "move":
            for x in g.units:
                obs[selected + x] = 1
    lo = core.loss
    if lo is not None:
        obs[at.track["loss_remaining"]] = lo.remaining
        to_lose = at.plane["to_lose"]
        for x in lo.units:
            if where[x] >= 0:
                obs[to_lose + where[x]] += 1
            obs[selected + x] = 1
    if core.retreat is not None and decision == "retreat":
        x = core.retreat.queue[0]
        obs[at.plane["to_retreat"] + where[x]] = 1
        obs[selected + x] = 1
    if core.advance is not None:
        obs[at.plane["advance_into"] + core.advance.cell] = 1
        if decision == "advance":
            for x in core.advance.units:
                obs[selected + x] = 1
    if core.strike is not None:
        obs[at.track["strike_he"]] = core.strike.he
    if decision == "place":
        obs[selected + core.place_queue[0]] = 1
