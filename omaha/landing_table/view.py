"""What a player sees, the metrics, and the snapshot (dump and restore) of a game.

The US player does not see unrevealed German units (352nd units enter face
down) or unrevealed depth markers; an observer (``player=None``) sees all.
"""

from __future__ import annotations

import math
import weakref
from collections import Counter
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from omaha.kernel.decks import Cup, Deck
from omaha.kernel.observation import Observation, ObservationLayout
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View
from omaha.landing_table.components.cards import COLOURS, SYMBOLS
from omaha.landing_table.components.charts import ACTION_LETTERS, CHARTS, DOTS
from omaha.landing_table.components.terrain import TIDE_ORDER
from omaha.landing_table.core import (
    ASHORE,
    ELIMINATED,
    GERMAN_PLACES,
    REMOVED,
    SCHEDULED,
    STAT_KEYS,
    GermanState,
    LandingTableCore,
    Phase,
    PositionState,
    USState,
    lookup_for,
)
from omaha.landing_table.procedures.orders import MAX_ATTACKERS
from omaha.landing_table.scenario import LandingTableScenario


def view(core: LandingTableCore, player: str | None) -> View:
    """The board as ``player`` sees it: pieces, fire fields, exits, the time track."""
    scen = core.scen
    board = scen.board
    labels = board.labels
    hide = player == "US"
    pieces: list[Piece] = []
    for uid, s in core.us.items():
        if s.status == ASHORE:
            where = labels[s.where]
        elif s.status == SCHEDULED and s.turn == core.turn:
            where = scen.boxes[s.box - 1]
        else:
            continue
        pieces.append(us_piece(core, uid, where))
    for nid in core.naval_ids():
        # fired this US action phase (the markers are ready again at the next one)
        fired = nid in core.naval_used and core.current_phase == Phase.US_ACTION
        used = ("fired",) if fired else ()
        symbol = TARGET_GLYPH[core.naval_symbol(nid)]
        pieces.append(
            Piece(nid, "US", nid, "naval", f"{scen.naval_attack} {symbol}", used, kind="boat")
        )
    garrisons = {p.garrison for p in scen.positions if p.kind == "wn"}
    for gid, g in sorted(core.ger.items()):
        if g.where in scen.pos_by_id:
            where = labels[scen.pos_by_id[g.where].cell]
            slot = g.where
        elif g.where == "division":
            where = slot = "division"
        else:
            continue
        gmarks = ("disrupted",) if g.disrupted else ()
        if hide and not g.revealed:  # only its back: not which unit, nor its values
            k = sum(1 for q in pieces if q.where == where and q.hidden)
            name = "352nd unit" if slot == "division" else "German unit"
            pieces.append(
                Piece(f"German@{slot}#{k + 1}", "German", name, where, "", gmarks, hidden=True)
            )
            continue
        gu = scen.germans[gid]
        kind, echelon = GERMAN_SYMBOLS.get(
            gid, ("fortification", "") if gid in garrisons else ("infantry", "I")
        )
        face = gmarks if g.revealed else (*gmarks, "face_down")
        values = f"{gu.defense} {' '.join(sorted(gu.requires))}".rstrip()
        pieces.append(Piece(gid, "German", gid, where, values, face, kind=kind, echelon=echelon))
    for p in scen.positions:
        ps = core.pos[p.id]
        if ps.depth is not None:
            pid, at = f"depth@{p.id}", labels[p.cell]
            if hide and not ps.depth_revealed:
                pieces.append(Piece(pid, "German", "depth", at, hidden=True, kind="marker"))
            else:
                face = () if ps.depth_revealed else ("face_down",)
                pieces.append(Piece(pid, "German", "depth", at, ps.depth, face, kind="marker"))
    marks: list[Mark] = []
    dots: dict[int, list[str]] = {}
    for p in scen.positions:
        marks.append(Mark(labels[p.cell], f"{p.id} ({p.colour})", "position"))
        if core.occupied(p.id):
            for cell, dot in p.fof.items():
                dots.setdefault(cell, []).append(dot)
    for cell in sorted(dots):
        ds = sorted(dots[cell], key=lambda d: CHARTS.dot_priority[d])
        text = "".join(CHARTS.dot_symbol[d] for d in ds[:4]) + ("+" if len(ds) > 4 else "")
        marks.append(Mark(labels[cell], text, "fire"))
    for cell in sorted(core.cleared & scen.obstacle_cells):
        marks.append(Mark(labels[cell], "cleared", "obstacles"))
    for e in scen.exits:
        state = "open" if e.id in core.exits_open else "closed"
        marks.append(Mark(labels[e.cell], f"exit {e.id} {state}", "exit"))
    vp, held, total = core.victory_points()
    tracks = (
        ("time", core.time_of(core.turn)),
        ("turn", f"{core.turn}/{scen.turns}"),
        ("tide", core.tide()),
        ("fire card", scen.cards[core.card].describe() if core.card else "-"),
        ("Hero markers", str(core.heroes)),
        ("US VP", str(vp)),
        ("exits open", ", ".join(sorted(core.exits_open)) or "none"),
    )
    notes = (
        f"VP positions held {held} of {total}",
        f"obstacle hexes cleared: {len(core.cleared & scen.obstacle_cells)}"
        f" of {len(scen.obstacle_cells)}",
        "fire dots: ● intense ⊕ steady ○ sporadic (occupied positions)",
    )
    return core.make_view(player, pieces=pieces, marks=marks, tracks=tracks, notes=notes)


#: The target symbol a counter prints (German Fire Chart, US Barrage Table), as a glyph.
TARGET_GLYPH = {"circle": "○", "square": "□", "triangle": "△"}
#: Each US unit class's NATO symbol and size mark (reconstructed counters: rifle and
#: weapons companies, battalions, tank companies, DUKW and artillery batteries or
#: battalions; engineers and AA units mix companies and battalions, so no mark).
US_SYMBOLS: dict[str, tuple[str, str]] = {
    "infantry": ("infantry", "I"),
    "battalion": ("infantry", "II"),
    "ranger": ("ranger", "I"),
    "heavy": ("machine_gun", "I"),
    "engineer": ("engineer", ""),
    "tank": ("armour", "I"),
    "dukw": ("artillery", "I"),
    "artillery": ("artillery", "II"),
    "anti_tank": ("anti_tank", "I"),
    "anti_aircraft": ("artillery", ""),
    "hq": ("headquarters", "III"),
    "general": ("leader", "XX"),
}
#: German units that are not rifle companies (a WN garrison is a fortification).
GERMAN_SYMBOLS: dict[str, tuple[str, str]] = {
    "Fus/352": ("recon", "II"),
    "Pi/352": ("engineer", "II"),
}


def us_piece(core: LandingTableCore, uid: str, where: str) -> Piece:
    """A US counter as printed: symbol and size, attack strength - range (the charts' "9-2")
    and the target symbol; its steps as pips; disrupted as a marker. A leader prints no
    values."""
    u = core.unit(uid)
    k = u.kind
    s = core.us[uid]
    kind, echelon = US_SYMBOLS.get(k.name, ("infantry", ""))
    marks = ("disrupted",) if s.disrupted else ()
    if k.leader:
        return Piece(uid, "US", uid, where, "", marks, kind=kind, echelon=echelon)
    values = f"{k.strength(s.steps)}-{core.unit_range(uid)} {TARGET_GLYPH[u.symbol]}"
    steps = (s.steps, k.steps) if k.steps > 1 else None
    return Piece(uid, "US", uid, where, values, marks, kind=kind, echelon=echelon, steps=steps)


#: H-hour, 06:30, in minutes after midnight: the zero of ``first_exit_hours``.
H_HOUR = 6 * 60 + 30


def first_exit_hours(core: LandingTableCore) -> float:
    """Hours after 06:30 when the first exit opened, by the scenario's clock: exits open
    in the end phase (READINGS.md, "End phase"), so at the end of the turn they opened
    in; NaN when none has opened."""
    if not core.exits_first:
        return math.nan
    turn = min(core.exits_first.values())
    scen = core.scen
    return (scen.start_minutes + turn * scen.minutes - H_HOUR) / 60


def metrics(core: LandingTableCore) -> dict[str, float]:
    """The game's declared metrics (see ``LandingTableGame.metrics``)."""
    st = core.stats
    scen = core.scen

    def ratio(a: float, b: float) -> float:
        return a / b if b else 0.0

    vp, held, total = core.victory_points()
    seen = sorted(core.seen)
    strength = sum(scen.germans[g].defense for g in seen)
    lost = sum(scen.germans[g].defense for g in seen if core.ger[g].where not in scen.pos_by_id)
    wn_clear = sum(1 for p in scen.positions if p.kind == "wn" and not core.occupied(p.id))
    return {
        "us_win": 1.0 if core.result is not None and core.result.winner == "US" else 0.0,
        "first_wave_ashore": ratio(st["first_wave_ashore"], st["first_wave_planned"]),
        "landed_off_target": ratio(st["landed_off_target"], st["landed"]),
        "us_losses": ratio(st["us_steps_lost"], st["us_steps_committed"]),
        "german_losses": ratio(lost, strength),
        "dd_tanks_ashore": ratio(st["dd_ashore"], st["dd_launched"]),
        "dukw_guns_lost": ratio(st["dukw_lost"], st["dukw_loaded"]),
        "exits_opened": float(len(core.exits_open)),
        "first_exit_hours": first_exit_hours(core),
        "objectives_held": ratio(held, total),
        "turns_played": float(core.turn),
        "vp": float(vp),
        "exits_by_1200": max(0.0, st["exits_by_1200"]),
        "exits_by_1700": max(0.0, st["exits_by_1700"]),
        "wn_cleared": float(wn_clear),
        "mine_strikes": st["mines"],
        "heroes_used": st["heroes_used"],
    }


# -- snapshots ----------------------------------------------------------------------------
def dump(core: LandingTableCore) -> dict[str, Any]:
    """The game's fields as JSON-able data, with printed hex labels."""
    labels = core.scen.board.labels
    return {
        "turn": core.turn,
        "phase": core.current_phase.value,
        "us": {
            uid: [
                s.status,
                s.steps,
                s.turn,
                s.box,
                labels[s.where] if s.where >= 0 else None,
                s.no_check,
                s.disrupted,
                s.acted,
                s.landed_box,
                s.landed_turn,
                s.committed,
            ]
            for uid, s in core.us.items()
        },
        "ger": {gid: [g.where, g.revealed, g.disrupted] for gid, g in core.ger.items()},
        "pos": {
            pid: [ps.unit, ps.depth, ps.depth_revealed, ps.defeated] for pid, ps in core.pos.items()
        },
        "deck": core.deck.to_data(),
        "cups": {k: c.to_data() for k, c in sorted(core.cups.items())},
        "cleared": sorted(labels[c] for c in core.cleared),
        "exits_open": dict(core.exits_open),
        "exits_first": dict(core.exits_first),
        "heroes": core.heroes,
        "naval_used": sorted(core.naval_used),
        "attacked": sorted(core.attacked),
        "decision": core.decision,
        "queue": list(core.queue),
        "ctx": core.ctx,
        "card": core.card,
        "seen": sorted(core.seen),
        "stats": dict(core.stats),
        "result": None
        if core.result is None
        else [
            core.result.winner,
            core.result.level,
            [list(p) for p in core.result.points],
            core.result.detail,
        ],
    }


SNAPSHOT_KEYS = (
    "turn",
    "phase",
    "us",
    "ger",
    "pos",
    "deck",
    "cups",
    "cleared",
    "exits_open",
    "exits_first",
    "heroes",
    "naval_used",
    "attacked",
    "decision",
    "queue",
    "ctx",
    "card",
    "seen",
    "stats",
    "result",
)


class Malformed(ValueError):
    """A snapshot whose game part has the wrong shape (names the key)."""


def restore(core: LandingTableCore, data: dict[str, Any]) -> None:
    """Inverse of :func:`dump` (the kernel's base fields are already set).

    Data of the wrong shape (a missing or unknown key, a value of the wrong
    type, a label that is no hex of the map) raises :class:`Malformed` naming
    its key; what the values mean is checked by :func:`invariants`.
    """
    scen = core.scen
    core.lookup = lookup_for(scen)
    cells = core.lookup.cells
    d = _table(data, "state", SNAPSHOT_KEYS)

    def cell(value: object, path: str) -> int:
        label = _str(value, path)
        if label not in cells:
            raise Malformed(f"{path}: {label!r} is not a hex of the map")
        return cells[label]

    core.turn = _int(d["turn"], "state.turn")
    phase = _str(d["phase"], "state.phase")
    if phase not in PHASES:
        raise Malformed(f"state.phase: {phase!r} is not a phase ({', '.join(PHASES)})")
    core.current_phase = PHASES[phase]
    us = _table(d["us"], "state.us", [u.id for u in scen.us])
    core.us = {}
    for u in scen.us:  # order-of-battle order, which the procedures follow
        v = us[u.id]
        if type(v) is list and tuple(map(type, v)) in _US_ROWS and (v[4] is None or v[4] in cells):
            core.us[u.id] = USState(
                u.id, v[1], v[0], v[2], v[3], -1 if v[4] is None else cells[v[4]], *v[5:]
            )
            continue
        path = f"state.us.{u.id}"  # the slow way, to name what is wrong
        v = _row(v, path, 11)
        core.us[u.id] = USState(
            u.id,
            status=_str(v[0], f"{path}[0]"),
            steps=_int(v[1], f"{path}[1]"),
            turn=_int(v[2], f"{path}[2]"),
            box=_int(v[3], f"{path}[3]"),
            where=-1 if v[4] is None else cell(v[4], f"{path}[4]"),
            no_check=_bool(v[5], f"{path}[5]"),
            disrupted=_bool(v[6], f"{path}[6]"),
            acted=_bool(v[7], f"{path}[7]"),
            landed_box=_int(v[8], f"{path}[8]"),
            landed_turn=_int(v[9], f"{path}[9]"),
            committed=_bool(v[10], f"{path}[10]"),
        )
    ger = _table(d["ger"], "state.ger", list(scen.germans))
    core.ger = {}
    for gid in scen.germans:
        v = ger[gid]
        if type(v) is list and tuple(map(type, v)) == (str, bool, bool):
            core.ger[gid] = GermanState(gid, *v)
            continue
        path = f"state.ger.{gid}"
        v = _row(v, path, 3)
        core.ger[gid] = GermanState(
            gid, _str(v[0], f"{path}[0]"), _bool(v[1], f"{path}[1]"), _bool(v[2], f"{path}[2]")
        )
    pos = _table(d["pos"], "state.pos", [p.id for p in scen.positions])
    core.pos = {}
    for p in scen.positions:
        v = pos[p.id]
        if type(v) is list and tuple(map(type, v)) in _POS_ROWS:
            core.pos[p.id] = PositionState(*v)
            continue
        path = f"state.pos.{p.id}"
        v = _row(v, path, 4)
        core.pos[p.id] = PositionState(
            _opt_str(v[0], f"{path}[0]"),
            _opt_str(v[1], f"{path}[1]"),
            _bool(v[2], f"{path}[2]"),
            _bool(v[3], f"{path}[3]"),
        )
    deck = _table(d["deck"], "state.deck", ("pile", "discards", "reshuffles"))
    core.deck = Deck(
        _str_list(deck["pile"], "state.deck.pile"),
        _str_list(deck["discards"], "state.deck.discards"),
    )
    core.deck.reshuffles = _int(deck["reshuffles"], "state.deck.reshuffles")
    cups = _table(d["cups"], "state.cups", CUPS)
    core.cups = {k: Cup(_str_list(cups[k], f"state.cups.{k}")) for k in CUPS}
    core.cleared = {
        cell(c, f"state.cleared[{i}]") for i, c in enumerate(_list(d["cleared"], "state.cleared"))
    }
    core.exits_open = _int_table(d["exits_open"], "state.exits_open")
    core.exits_first = _int_table(d["exits_first"], "state.exits_first")
    core.heroes = _int(d["heroes"], "state.heroes")
    core.naval_used = set(_str_list(d["naval_used"], "state.naval_used"))
    core.attacked = set(_str_list(d["attacked"], "state.attacked"))
    decision = d["decision"]
    if decision is not None and not isinstance(decision, dict):
        raise Malformed("state.decision is neither a table nor null")
    core.decision = decision
    core.queue = _str_list(d["queue"], "state.queue")
    if not isinstance(d["ctx"], dict):
        raise Malformed("state.ctx is not a table")
    core.ctx = d["ctx"]
    core.card = _opt_str(d["card"], "state.card")
    core.seen = set(_str_list(d["seen"], "state.seen"))
    stats = _table(d["stats"], "state.stats", STAT_KEYS)
    core.stats = {k: _number(stats[k], f"state.stats.{k}") for k in STAT_KEYS}
    r = d["result"]
    if r is None:
        core.result = None
    else:
        v = _row(r, "state.result", 4)
        points = []
        for i, pair in enumerate(_list(v[2], "state.result[2]")):
            where = f"state.result[2][{i}]"
            name, value = _row(pair, where, 2)
            points.append((_str(name, f"{where}[0]"), _number(value, f"{where}[1]")))
        core.result = Outcome(
            _opt_str(v[0], "state.result[0]"),
            _str(v[1], "state.result[1]"),
            points=tuple(points),
            detail=_str(v[3], "state.result[3]"),
        )
    core.init_caches()


CUPS = ("352", "716", "division")
#: The types of a well-formed row of ``state.us`` (its hex a label, or None off the map).
_POS_ROWS = frozenset(
    (unit, depth, bool, bool) for unit in (str, type(None)) for depth in (str, type(None))
)
_US_ROWS = frozenset(
    (str, int, int, int, where, bool, bool, bool, int, int, bool) for where in (str, type(None))
)
US_STATUSES = (SCHEDULED, ASHORE, ELIMINATED, REMOVED)
DECISION_PHASES = {
    "land": (Phase.LANDING,),
    "drift": (Phase.LANDING,),
    "follow": (Phase.LANDING,),
    "hit": (Phase.GERMAN_FIRE, Phase.GERMAN_ACTION),
    "orders": (Phase.US_ACTION,),
    "attack": (Phase.US_ACTION,),
    "attrition": (Phase.US_ACTION,),
}


def invariants(core: LandingTableCore) -> list[str]:
    """What is inconsistent in a game (empty when sound): what the rules guarantee of
    units, positions, markers, deck, cups, exits, the pending decision and the result."""
    problems: list[str] = []
    _units(core, problems)
    _germans(core, problems)
    _markers(core, problems)
    _track(core, problems)
    if not problems:  # the decision is read against sound units and positions
        _decision(core, problems)
    return problems


def _units(core: LandingTableCore, out: list[str]) -> None:
    nboxes = len(core.scen.boxes)
    for uid, s in core.us.items():
        most = core.unit(uid).kind.steps
        if s.status not in US_STATUSES:
            out.append(f"US unit {uid} has status {s.status!r} ({', '.join(US_STATUSES)})")
            continue
        low = 0 if s.status == ELIMINATED else 1
        high = 0 if s.status == ELIMINATED else most
        if not low <= s.steps <= high:
            out.append(f"US unit {uid} ({s.status}) has {s.steps} steps (its counter has {most})")
        if (s.where >= 0) != (s.status == ASHORE):
            out.append(f"US unit {uid} is {s.status} but its hex is {s.where}")
        if s.disrupted and s.status != ASHORE:
            out.append(f"US unit {uid} is disrupted but not ashore")
        if not 1 <= s.box <= nboxes or not 0 <= s.landed_box <= nboxes:
            out.append(f"US unit {uid} names landing box {s.box} or {s.landed_box} (1-{nboxes})")
        if s.status == SCHEDULED and s.turn < core.turn:
            out.append(f"US unit {uid} is scheduled for turn {s.turn}, before turn {core.turn}")
        if not 0 <= s.landed_turn <= core.turn:
            out.append(f"US unit {uid} landed on turn {s.landed_turn}, after turn {core.turn}")


def _germans(core: LandingTableCore, out: list[str]) -> None:
    scen = core.scen
    places = set(scen.pos_by_id) | set(GERMAN_PLACES)
    for gid, g in core.ger.items():
        if g.where not in places:
            out.append(f"German unit {gid} is at {g.where!r}, no position or box")
        elif g.where in scen.pos_by_id and core.pos[g.where].unit != gid:
            out.append(f"German unit {gid} is at {g.where}, which holds {core.pos[g.where].unit}")
        if g.disrupted and g.where not in scen.pos_by_id:
            out.append(f"German unit {gid} is disrupted outside the positions")
    for pid, ps in core.pos.items():
        if ps.unit is None:
            continue
        if ps.unit not in core.ger:
            out.append(f"position {pid} holds {ps.unit!r}, no German unit")
        elif core.ger[ps.unit].where != pid:
            out.append(f"position {pid} holds {ps.unit}, which is at {core.ger[ps.unit].where}")
        elif ps.unit not in core.seen:
            out.append(f"German unit {ps.unit} holds {pid} but was never seen")
    unknown = sorted(core.seen - set(scen.germans))
    if unknown:
        out.append(f"seen German units {', '.join(unknown)} are not in the scenario")
    boxed = sorted(gid for gid, g in core.ger.items() if g.where == "division")
    cup = sorted(core.cups["division"].contents)
    if cup != boxed:
        out.append(f"the Division box holds {boxed} but its cup {cup}")
    foreign = [g for g in cup if g in scen.germans and scen.germans[g].division != "352"]
    if foreign:
        out.append(f"the Division cup holds units of no 352nd Division: {', '.join(foreign)}")


def _markers(core: LandingTableCore, out: list[str]) -> None:
    scen = core.scen
    cards = Counter(list(scen.cards))
    deck = Counter(core.deck.pile) + Counter(core.deck.discards)
    if deck != cards:
        strange = sorted((deck - cards) | (cards - deck))
        out.append(f"the fire cards are not the deck's: {', '.join(strange)} out of place")
    if core.card is not None and core.card not in scen.cards:
        out.append(f"fire card {core.card!r} is not in the deck")
    printed = Counter(scen.depth_cups["716"]) + Counter(scen.depth_cups["352"])
    on_board = Counter(ps.depth for ps in core.pos.values() if ps.depth is not None)
    for name in ("716", "352"):
        extra = Counter(core.cups[name].contents) - Counter(scen.depth_cups[name])
        if extra:
            out.append(f"the {name} cup holds markers it never had: {sorted(extra)}")
    extra = Counter(core.cups["716"].contents) + Counter(core.cups["352"].contents) + on_board
    extra -= printed
    if extra:
        out.append(f"depth markers beyond the cups' contents: {sorted(extra)}")
    for pid, ps in core.pos.items():
        if ps.depth_revealed and ps.depth is None:
            out.append(f"position {pid} has a revealed depth marker but none")
    if not core.cleared <= scen.obstacle_cells:
        out.append("cleared hexes that hold no obstacles")


def _track(core: LandingTableCore, out: list[str]) -> None:
    scen = core.scen
    if not 1 <= core.turn <= scen.turns:
        out.append(f"turn {core.turn} is not on the track (1-{scen.turns})")
    if not 0 <= core.heroes <= scen.heroes:
        out.append(f"{core.heroes} Hero markers (the scenario has {scen.heroes})")
    elif core.heroes + core.stats["heroes_used"] != scen.heroes:
        out.append(f"{core.heroes} Hero markers left but {core.stats['heroes_used']:g} spent")
    exits = {e.id for e in scen.exits}
    for name, table in (("open", core.exits_open), ("first opened", core.exits_first)):
        for eid, turn in table.items():
            if eid not in exits or not 1 <= turn <= core.turn:
                out.append(f"exit {eid!r} {name} on turn {turn}")
    if not set(core.exits_open) <= set(core.exits_first):
        out.append("an open exit has no first opening")
    if not core.naval_used <= set(core.naval_ids()):
        out.append(f"Naval Fire Markers {sorted(core.naval_used)} are not in play")
    if not core.attacked <= set(scen.pos_by_id):
        out.append(f"attacked positions {sorted(core.attacked)} are not all positions")
    if core.result is not None:
        vp = core.victory_points()[0]
        if core.result.points != (("US VP", float(vp)),):
            out.append(f"the result gives {core.result.points} but the board {vp} VP")
        if core.result.level not in {lv.level for lv in scen.levels}:
            out.append(f"the result {core.result.level!r} is no victory level")


def _decision(core: LandingTableCore, out: list[str]) -> None:
    """The pending decision and the procedure under way, as the procedures leave them."""
    d = core.decision
    if (d is None) != (core.result is not None):
        out.append("a game in progress must wait for a decision, a finished one for none")
        return
    problem = _queue(core)
    if problem:
        out.append(f"the queue of the {core.phase} phase: {problem}")
    german = core.current_phase in (Phase.GERMAN_FIRE, Phase.GERMAN_ACTION)
    if (core.card is not None) != german:
        out.append(f"fire card {core.card!r} in the {core.phase} phase")
    if d is None:
        return
    kind = d.get("kind")
    if kind not in DECISION_PHASES:
        out.append(f"decision kind {kind!r} is not one of {', '.join(DECISION_PHASES)}")
        return
    if core.current_phase not in DECISION_PHASES[kind]:
        out.append(f"a {kind} decision in the {core.phase} phase")
        return
    problem = _DECISION_CHECKS[kind](core, d)
    if problem:
        out.append(f"decision {kind}: {problem}")


def _queue(core: LandingTableCore) -> str | None:
    """Who is still to act in this phase, as the phase's procedure queued them."""
    queue = core.queue
    if len(set(queue)) != len(queue):
        return f"{queue} names someone twice"
    phase = core.current_phase
    due = {u for u, s in core.us.items() if s.status == SCHEDULED and s.turn == core.turn}
    if phase == Phase.LANDING:
        deciding = core.decision.get("unit") if core.decision else None
        missed = sorted(due - set(queue) - {deciding})
        if missed:
            return f"{', '.join(missed)} should land this turn but wait for no landing"
    elif due:
        return f"{', '.join(sorted(due))} should have landed this turn"
    naval = core.naval_ids()
    for who in queue:
        if phase == Phase.LANDING:
            s = core.us.get(who)
            if s is None or s.status != SCHEDULED or s.turn != core.turn:
                return f"{who!r} is no unit scheduled to land this turn"
        elif phase in (Phase.GERMAN_FIRE, Phase.GERMAN_ACTION):
            if who not in core.scen.pos_by_id:
                return f"{who!r} is no German position"
        elif phase == Phase.US_ACTION:
            if who in naval:
                if who in core.naval_used:
                    return f"{who} has fired"
            elif who not in core.us or core.us[who].acted:
                return f"{who!r} is no unit still to act"
        else:
            return f"{who!r} waits in the end phase"
    return None


def _us_unit(core: LandingTableCore, uid: object, status: str) -> str | None:
    if not isinstance(uid, str) or uid not in core.us:
        return f"{uid!r} is not a US unit"
    if core.us[uid].status != status:
        return f"{uid} is {core.us[uid].status}, not {status}"
    return None


def _card(core: LandingTableCore, card: object) -> str | None:
    if card is not None and card not in core.scen.cards:
        return f"card {card!r} is not in the deck"
    return None


def _box(core: LandingTableCore, box: object) -> str | None:
    if type(box) is not int or not 1 <= box <= len(core.scen.boxes):
        return f"box {box!r} is not a landing box"
    return None


def _check_land(core: LandingTableCore, d: dict[str, Any]) -> str | None:
    return (
        _us_unit(core, d.get("unit"), SCHEDULED)
        or _box(core, d.get("box"))
        or _card(core, d.get("card"))
    )


def _check_drift(core: LandingTableCore, d: dict[str, Any]) -> str | None:
    problem = _check_land(core, d)
    if problem:
        return problem
    most = d.get("most")
    if type(most) is not int or not 1 <= most <= len(core.scen.boxes) - int(d["box"]):
        return f"a drift of up to {most!r} boxes"
    return None


def _check_follow(core: LandingTableCore, d: dict[str, Any]) -> str | None:
    problem = _us_unit(core, d.get("unit"), SCHEDULED)
    if problem:
        return problem
    if not core.is_leader(str(d["unit"])):
        return f"{d['unit']} is no leader"
    return _us_unit(core, d.get("companion"), ASHORE)


def _check_hit(core: LandingTableCore, d: dict[str, Any]) -> str | None:
    units, need, ctx = d.get("units"), d.get("need"), core.ctx
    if not isinstance(units, list) or len(set(map(str, units))) != len(units) or not units:
        return f"units {units!r} are not a list of units"
    for uid in units:
        problem = _us_unit(core, uid, ASHORE)
        if problem:
            return problem
    if type(need) is not int or not 1 <= need < len(units):
        return f"{need!r} of {len(units)} units to hit"
    effects = ctx.get("effects")
    if ctx.get("pos") not in core.scen.pos_by_id or not isinstance(effects, dict):
        return "the fire under way names no position or effects"
    for uid in units:
        e = effects.get(uid)
        shape = [bool, bool, str, str]
        if not isinstance(e, list) or [type(x) for x in e] != shape:
            return f"the fire under way has no effect for {uid}"
    if ctx.get("stage") not in ("units", "leader") or type(ctx.get("leader")) is not bool:
        return "the fire under way has no stage"
    if not isinstance(ctx.get("rule"), str):
        return "the fire under way cites no rule"
    for key in ("limit", "hits"):
        if type(ctx.get(key)) is not int:
            return f"the fire under way has no {key}"
    return None


def _check_orders(core: LandingTableCore, d: dict[str, Any]) -> str | None:
    uid = d.get("unit")
    if not core.queue or uid != core.queue[0]:
        return f"{uid!r} is not the next unit to act ({core.queue[:1]})"
    if isinstance(uid, str) and uid in core.naval_ids():
        return f"{uid} has fired" if uid in core.naval_used else None
    problem = _us_unit(core, uid, ASHORE)
    if problem:
        return problem
    return f"{uid} has had its orders" if core.us[str(uid)].acted else None


def _check_attack(core: LandingTableCore, d: dict[str, Any]) -> str | None:
    target, attackers = core.ctx.get("target"), core.ctx.get("attackers")
    if not isinstance(target, str) or target not in core.scen.pos_by_id:
        return f"the attack under way is on {target!r}, no position"
    if not core.occupied(target) or target not in core.attacked:
        return f"the attack under way is on {target}, held by nobody or not declared"
    if not isinstance(attackers, list) or not 1 <= len(attackers) <= MAX_ATTACKERS:
        return f"the attackers {attackers!r} are not one to {MAX_ATTACKERS} units"
    naval = set(core.naval_ids())
    for uid in attackers:
        if uid in naval:
            continue
        problem = _us_unit(core, uid, ASHORE)
        if problem:
            return problem
    return None


def _check_attrition(core: LandingTableCore, d: dict[str, Any]) -> str | None:
    units, target = d.get("units"), core.ctx.get("target")
    if not isinstance(target, str) or target not in core.scen.pos_by_id:
        return f"the attrition is at {target!r}, no position"
    if core.pos[target].depth is None:
        return f"{target} has no depth marker to eliminate"
    if not isinstance(units, list) or not units:
        return f"units {units!r} are not a list of units"
    for uid in units:
        problem = _us_unit(core, uid, ASHORE)
        if problem:
            return problem
    return None


_DECISION_CHECKS = {
    "land": _check_land,
    "drift": _check_drift,
    "follow": _check_follow,
    "hit": _check_hit,
    "orders": _check_orders,
    "attack": _check_attack,
    "attrition": _check_attrition,
}
PHASES = {p.value: p for p in Phase}


def _table(value: object, path: str, keys: Iterable[str]) -> dict[str, Any]:
    """``value`` as a table with exactly ``keys``."""
    if not isinstance(value, dict):
        raise Malformed(f"{path} is not a table")
    wanted = list(keys)
    for key in wanted:
        if key not in value:
            raise Malformed(f"{path}.{key} is missing")
    if len(value) == len(wanted):  # every wanted key is there, so nothing else
        return value
    known = set(wanted)
    extra = sorted(str(k) for k in value if k not in known)
    if extra:
        raise Malformed(f"{path}.{extra[0]} is not part of a landing_table snapshot")
    return value


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise Malformed(f"{path} is not a list")
    return value


def _row(value: object, path: str, size: int) -> list[Any]:
    row = _list(value, path)
    if len(row) != size:
        raise Malformed(f"{path} has {len(row)} entries, not {size}")
    return row


def _int(value: object, path: str) -> int:
    if type(value) is not int:
        raise Malformed(f"{path} = {value!r} is not a whole number")
    return value


def _number(value: object, path: str) -> float:
    if type(value) not in (int, float):
        raise Malformed(f"{path} = {value!r} is not a number")
    return float(value)  # type: ignore[arg-type]


def _bool(value: object, path: str) -> bool:
    if type(value) is not bool:
        raise Malformed(f"{path} = {value!r} is not true or false")
    return value


def _str(value: object, path: str) -> str:
    if type(value) is not str:
        raise Malformed(f"{path} = {value!r} is not a string")
    return value


def _opt_str(value: object, path: str) -> str | None:
    return None if value is None else _str(value, path)


def _str_list(value: object, path: str) -> list[str]:
    return [_str(v, f"{path}[{i}]") for i, v in enumerate(_list(value, path))]


def _int_table(value: object, path: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise Malformed(f"{path} is not a table")
    return {str(k): _int(v, f"{path}.{k}") for k, v in value.items()}


# -- what the US player sees, as numbers (issue 15) ---------------------------------------
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
        self.german_planes = np.array(
            [plane[name] for name in GERMAN_PLANES] + sorted(self.weapons.values()),
            dtype=np.intp,
        )
        #: Per US unit: its share of the US planes that never changes, as (offset from
        #: the us_units plane, value) where not 0, and whether it counts its steps (not a
        #: leader); and whether it may carry a radio (spots for the Naval Fire Markers).
        self.unit_shares = tuple(
            (
                tuple(
                    (plane_number * n, int(value))
                    for plane_number, value in (
                        (0, not kind.leader),
                        (4, kind.leader),
                        (5, kind.armoured),
                        (6, kind.barrage > 0),
                        (7, kind.clears),
                    )
                    if value
                ),
                not kind.leader,
            )
            for kind in kinds
        )
        radio = lookup_for(scen).radio
        self.radio = tuple(any(radio[u.id]) for u in scen.us)
        self.exit_cells = tuple((e.id, e.cell) for e in scen.exits)
        self.card_at = {cid: np.array(t, dtype=np.intp) for cid, t in self.card_tracks.items()}
        self.phase_at = {p: self.track[f"phase_{p}"] for p in PHASE_ORDER}
        self.decision_at = {d: self.track[f"decision_{d}"] for d in DECISIONS}
        self.naval_at = tuple(
            (nid, self.track[f"{nid}.in_play"], self.track[f"{nid}.to_act"]) for nid in self.naval
        )
        self.us_first = int(self.us_planes[0])
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
    out: Observation, ob: Observer, c: int, ps: PositionState, core: LandingTableCore
) -> bool:
    """One position's German unit and depth marker on cell ``c`` as the US may see
    them (face down: only that one is there); whether a unit holds the position."""
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
        _write_pending(core, ob, core.decision, obs)
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
    """What a core's observation holds between decisions, kept up to date: everything but
    the pending decision and the tracks (which :func:`observation` writes on a copy), with
    what it was last brought up to date from. A clone shares it until either side changes
    it (``core.obs_owned``)."""

    __slots__ = (
        "arr",
        "attacked",
        "card",
        "cleared",
        "exits",
        "in_play",
        "mv",
        "ob",
        "occupied",
        "phase",
        "queue",
        "queue_list",
        "rows",
        "spot_count",
        "spotters",
        "tide",
        "to_act",
        "turn",
    )

    def __init__(self, ob: Observer) -> None:
        self.ob = ob
        self.arr = ob.base.copy()
        self.arr[ob.obstacles] = 1  # none cleared, no exit open: as the fields start
        #: The array's numbers, for writing one at a time (cheaper than numpy's indexing).
        self.mv: Any = self.arr.data  # a memoryview (typeshed types its items as int)
        self.turn = -1
        self.tide = ""
        self.in_play = 0
        self.phase = ""
        self.card: str | None = None
        self.cleared: frozenset[int] = frozenset()
        self.exits: frozenset[str] = frozenset()
        self.attacked: frozenset[str] = frozenset()
        #: Whether each position held a German unit (scenario order).
        self.occupied = [False] * len(ob.pos_cells)
        #: Each US unit's :func:`unit_row` as written (None: not yet).
        self.rows: list[tuple[int, ...] | None] = [None] * len(ob.units)
        #: The US action phase's queue as last seen, and the units of it counted on
        #: ``us_to_act`` (and their ``to_act`` track), by their cell.
        self.queue: set[str] = set()
        self.queue_list: list[str] = []
        self.to_act: dict[str, int] = {}
        #: The units ashore that spot for the Naval Fire Markers, by their cell, and how
        #: many spot each position (WNs only).
        self.spotters: dict[str, int] = {}
        self.spot_count = [0] * len(ob.pos_cells)

    def copy(self) -> Kept:
        twin = Kept.__new__(Kept)
        twin.ob = self.ob
        twin.arr = self.arr.copy()
        twin.mv = twin.arr.data
        twin.turn, twin.tide, twin.in_play = self.turn, self.tide, self.in_play
        twin.phase, twin.card = self.phase, self.card
        twin.cleared, twin.exits, twin.attacked = self.cleared, self.exits, self.attacked
        twin.occupied = list(self.occupied)
        twin.rows = list(self.rows)
        twin.queue = set(self.queue)
        twin.queue_list = list(self.queue_list)
        twin.to_act = dict(self.to_act)
        twin.spotters = dict(self.spotters)
        twin.spot_count = list(self.spot_count)
        return twin


def kept(core: LandingTableCore) -> Kept:
    """The core's :class:`Kept`, brought up to date: only what was written since (the
    records the core notes as dirty; the sets and the queue compared with what was kept)."""
    k: Kept | None = core.obs_kept
    if k is None:
        ob = observer(core.scen)
        k = core.obs_kept = Kept(ob)
        core.obs_owned = True
        units: Iterable[str] = ob.unit_index
        positions: Iterable[str] = ob.pos_index
        core.germans_dirty.clear()
    else:
        ob = k.ob
        units, positions = core.units_dirty, core.positions_dirty
        if core.germans_dirty:
            ger, index = core.ger, ob.pos_index
            positions = {
                *positions,
                *(w for w in (ger[g].where for g in core.germans_dirty) if w in index),
            }
            core.germans_dirty.clear()
        if not core.obs_owned:  # shared with a clone: copy before writing
            k = core.obs_kept = k.copy()
            core.obs_owned = True
    #: Positions whose naval_target cell may have changed.
    naval: set[int] = set()
    moved = False
    if positions:
        _keep_positions(core, ob, k, positions, naval)
        moved = True
        core.positions_dirty.clear()
    if units:
        moved = _keep_units(core, ob, k, units, naval) or moved
        core.units_dirty.clear()
    if core.attacked != k.attacked:
        _keep_attacked(core, ob, k)
    if core.turn != k.turn or core.cleared != k.cleared or core.exits_open.keys() != k.exits:
        moved = _keep_map(core, ob, k, naval) or moved
    listed = core.queue if core.current_phase == Phase.US_ACTION else NO_QUEUE
    if listed != k.queue_list:
        _keep_to_act(core, ob, k, listed)
    if naval:
        _keep_naval(ob, k, naval)
    # the tracks the map and the queue do not keep
    mv, at = k.mv, ob.track_at
    if core.phase != k.phase or core.card != k.card:
        _keep_phase(core, ob, k)
    mv[at.heroes] = core.heroes
    mv[at.deck_left] = len(core.deck)
    if moved:
        mv[at.us_vp] = core.victory_points()[0]
    return k


def _keep_phase(core: LandingTableCore, ob: Observer, k: Kept) -> None:
    """The phase, and the fire card on the table."""
    mv, arr = k.mv, k.arr
    phase = core.phase
    if phase != k.phase:
        if k.phase:
            mv[ob.phase_at[k.phase]] = 0
        mv[ob.phase_at[phase]] = 1
        k.phase = phase
    card = core.card
    if card != k.card:
        if k.card is not None:
            arr[ob.card_at[k.card]] = 0
        if card is not None:
            arr[ob.card_at[card]] = 1
        k.card = card


def _keep_naval_tracks(ob: Observer, k: Kept) -> None:
    """The Naval Fire Markers in play, and which of them wait for their orders."""
    mv, queue = k.mv, k.queue
    for number, (nid, on, waits) in enumerate(ob.naval_at):
        mv[on] = number < k.in_play
        mv[waits] = number < k.in_play and nid in queue


def _keep_map(core: LandingTableCore, ob: Observer, k: Kept, naval: set[int]) -> bool:
    """The tide, the Naval Fire Markers in play, the obstacles and the open exits;
    whether the exits changed (the VP)."""
    arr, mv, plane, n = k.arr, k.mv, ob.plane, ob.cells
    if core.turn != k.turn:
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
            naval.update(ob.wn_positions)
        if in_play != k.in_play:
            k.in_play = in_play
            _keep_naval_tracks(ob, k)
    if core.cleared != k.cleared:
        arr[ob.obstacles] = 1
        obstacle = plane["obstacle"]
        for c in core.cleared:
            mv[obstacle + c] = 0
        k.cleared = frozenset(core.cleared)
    exits_open = core.exits_open
    if exits_open.keys() == k.exits:
        return False
    exit_open = plane["exit_open"]
    for _, c in ob.exit_cells:
        mv[exit_open + c] = 0
    for eid, c in ob.exit_cells:
        if eid in exits_open:
            mv[exit_open + c] = 1
    k.exits = frozenset(exits_open)
    mv[ob.track_at.exits_open] = len(exits_open)
    return True


def _keep_positions(
    core: LandingTableCore, ob: Observer, k: Kept, pids: Iterable[str], naval: set[int]
) -> None:
    """Write again the cells of the positions written since (every position on such a
    cell, in scenario order, as :func:`fresh_observation` does), and their fields of fire."""
    arr, plane, n = k.arr, ob.plane, ob.cells
    pos, positions = core.pos, core.scen.positions
    fire = plane["fire_intense"]
    cells = sorted({ob.pos_cells[ob.pos_index[pid]] for pid in pids})
    for c in cells:
        arr[ob.german_planes + c] = 0
        for i in ob.cell_positions[c]:
            occupied = _write_position(arr, ob, c, pos[positions[i].id], core)
            if occupied != k.occupied[i]:
                if occupied:
                    arr[fire : fire + 3 * n] += ob.fof[i]
                else:
                    arr[fire : fire + 3 * n] -= ob.fof[i]
                k.occupied[i] = occupied
                naval.add(i)


def _keep_units(
    core: LandingTableCore, ob: Observer, k: Kept, uids: Iterable[str], naval: set[int]
) -> bool:
    """Write again the fields of the units written since that changed, and move their
    share of the US planes; whether a unit came ashore, left or moved (the VP)."""
    mv, us, index, units, rows = k.mv, core.us, ob.unit_index, ob.units, k.rows
    first, width, n = ob.units_first, len(UNIT_FIELDS), ob.cells
    sums = ob.us_first - 1  # + the 1 + cell of a row's first field
    vp_cells, shares = ob.vp_cells, ob.unit_shares
    moved = False
    for uid in uids:
        i = index[uid]
        s = us[uid]
        new = unit_row(s, units[i][1])
        old = rows[i]
        if new == old:
            continue
        rows[i] = new
        if old is None:
            old = NO_ROW
            moved = True
        at = first + i * width
        where0, status0, steps0, strength0, turn0, box0, dis0 = old
        where1, status1, steps1, strength1, turn1, box1, dis1 = new
        if where0 != where1:
            mv[at] = where1
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
        static, troops = shares[i]
        if where0 == where1 and status0 == status1:
            if status1 == 1:  # in the same hex: steps, strength or disruption changed
                here = sums + where1
                if steps0 != steps1 and troops:
                    mv[here + n] += steps1 - steps0
                if strength0 != strength1:
                    mv[here + 2 * n] += strength1 - strength0
                if dis0 != dis1:
                    mv[here + 3 * n] += dis1 - dis0
        else:
            if where0 - 1 in vp_cells or where1 - 1 in vp_cells:
                moved = True
            if status0 == 1:
                here = sums + where0
                for offset, value in static:
                    mv[here + offset] -= value
                if troops and steps0:
                    mv[here + n] -= steps0
                if strength0:
                    mv[here + 2 * n] -= strength0
                if dis0:
                    mv[here + 3 * n] -= dis0
            if status1 == 1:
                here = sums + where1
                for offset, value in static:
                    mv[here + offset] += value
                if troops and steps1:
                    mv[here + n] += steps1
                if strength1:
                    mv[here + 2 * n] += strength1
                if dis1:
                    mv[here + 3 * n] += dis1
            if uid in k.queue:  # waiting for its orders: counted where it is now, if ashore
                to_act = ob.plane["us_to_act"]
                cell = k.to_act.pop(uid, None)
                if cell is not None:
                    mv[to_act + cell] -= 1
                    mv[at + 7] = 0
                if status1 == 1:
                    k.to_act[uid] = where1 - 1
                    mv[to_act + where1 - 1] += 1
                    mv[at + 7] = 1
        if ob.radio[i]:
            spot = s.where if status1 == 1 and core.spots(s) else None
            was = k.spotters.get(uid)
            if spot != was:
                if was is not None:
                    del k.spotters[uid]
                    _spot(ob, k, was, -1, naval)
                if spot is not None:
                    k.spotters[uid] = spot
                    _spot(ob, k, spot, 1, naval)
    return moved


#: The queue outside the US action phase (no unit waits for its orders).
NO_QUEUE: list[str] = []
#: The row of a unit before it is first written (the base holds 0 everywhere).
NO_ROW = (0, 0, 0, 0, 0, 0, 0)


def _spot(ob: Observer, k: Kept, cell: int, sign: int, naval: set[int]) -> None:
    """A unit that spots for the Naval Fire Markers comes to (``sign`` 1) or leaves (-1)
    ``cell``: the WNs within spotting range of it count it."""
    count = k.spot_count
    for i in ob.wn_in_reach[cell]:
        count[i] += sign
        if count[i] == (1 if sign > 0 else 0):  # spotted now, or no longer
            naval.add(i)


def _keep_naval(ob: Observer, k: Kept, naval: set[int]) -> None:
    """The WNs a Naval Fire Marker in play may fire at (:meth:`LandingTableCore.
    naval_targets`): held, with a spotter in range; written again where that changed."""
    at, mv, occupied, count = ob.plane["naval_target"], k.mv, k.occupied, k.spot_count
    for c in {ob.pos_cells[i] for i in naval}:
        mv[at + c] = k.in_play > 0 and any(
            occupied[i] and count[i] > 0 for i in ob.cell_positions[c] if i in ob.wn_set
        )


def _keep_attacked(core: LandingTableCore, ob: Observer, k: Kept) -> None:
    """The positions attacked this US action phase."""
    mv, at, by_id = k.mv, ob.plane["attacked"], core.scen.pos_by_id
    for pid in k.attacked:
        mv[at + by_id[pid].cell] = 0
    for pid in core.attacked:
        mv[at + by_id[pid].cell] = 1
    k.attacked = frozenset(core.attacked)


def _keep_to_act(core: LandingTableCore, ob: Observer, k: Kept, listed: list[str]) -> None:
    """The units (listed in the queue of the US action phase) still to get their orders,
    ashore: ``us_to_act`` and their ``to_act`` track; the markers' ``to_act`` tracks."""
    old, seen = k.queue_list, k.queue
    drop = len(old) - len(listed)
    if drop > 0 and listed == old[drop:]:
        # taken off the front, as the phase goes on: only those leave
        k.queue_list = old[drop:]
        gone: Iterable[str] = [u for u in old[:drop] if u not in listed]
        seen.difference_update(gone)
        if _leave_queue(ob, k, gone):
            _keep_naval_tracks(ob, k)
        return
    k.queue_list = list(listed)
    queue = set(listed)
    if queue == seen:
        return
    left, came = seen - queue, queue - seen
    k.queue = queue
    markers = _leave_queue(ob, k, left)
    waiting, mv, first, width = k.to_act, k.mv, ob.units_first + 7, len(UNIT_FIELDS)
    to_act, index, us = ob.plane["us_to_act"], ob.unit_index, core.us
    for uid in came:
        i = index.get(uid)
        if i is not None:
            s = us[uid]
            if s.status == ASHORE:
                waiting[uid] = s.where
                mv[to_act + s.where] += 1
                mv[first + i * width] = 1
        markers = markers or uid in ob.naval
    if markers:
        _keep_naval_tracks(ob, k)


def _leave_queue(ob: Observer, k: Kept, gone: Iterable[str]) -> bool:
    """Units and markers off the queue (``k.queue`` already without them): they wait no
    longer. Whether a marker was among them (the caller writes the markers' tracks)."""
    waiting, mv, first, width = k.to_act, k.mv, ob.units_first + 7, len(UNIT_FIELDS)
    to_act, index = ob.plane["us_to_act"], ob.unit_index
    markers = False
    for uid in gone:
        cell = waiting.pop(uid, None)
        if cell is not None:
            mv[to_act + cell] -= 1
            mv[first + index[uid] * width] = 0
        if uid in ob.naval:
            markers = True
    return markers


def observation(core: LandingTableCore, player: str) -> Observation:
    """What the US player knows, as numbers (the layout of :func:`observation_layout`):
    :func:`fresh_observation`, from the parts kept up to date (:func:`kept`) and the
    pending decision and tracks written on a copy. A new array each call."""
    if player != "US":
        raise ValueError(f"{player!r} is not a player of D-Day at Omaha Beach (the US plays alone)")
    k = kept(core)
    obs = k.arr.copy()
    d = core.decision
    if d is not None:
        _write_pending(core, k.ob, d, obs)
    return obs


def _write_pending(core: LandingTableCore, ob: Observer, d: dict[str, Any], obs: Table) -> None:
    """The pending decision, on the observation (as :func:`fresh_observation` writes it)."""
    kind = d.get("kind")
    if kind == "orders":  # the most frequent: one unit's orders
        uid = d.get("unit")
        if uid in ob.unit_index:
            obs[ob.units_first + ob.unit_index[uid] * len(UNIT_FIELDS) + 8] = 1
            obs[ob.choice + core.us[uid].where] = 1
        obs[ob.decision_at[kind]] = 1
        return
    plane, track = ob.plane, ob.track
    deciding = d.get("unit") if kind in ("land", "drift", "follow", "orders") else None
    if deciding in ob.unit_index:
        obs[ob.units_first + ob.unit_index[str(deciding)] * len(UNIT_FIELDS) + 8] = 1
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
    elif kind == "orders" and deciding in core.us:
        obs[choice + core.us[str(deciding)].where] = 1
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


def returns(core: LandingTableCore) -> dict[str, float]:
    """The US return, graded by the scenario's victory levels (READINGS.md, "Returns"):
    0 until the end; then the US levels from +1 (the highest) down in equal steps
    above 0, the German levels from -1 (the highest) up in equal steps below 0, and 0
    for a level that names no winner."""
    if core.result is None:
        return {"US": 0.0}
    return {"US": level_returns(core.scen)[core.result.level]}


def level_returns(scen: LandingTableScenario) -> dict[str, float]:
    """The return of every victory level of ``scen`` (see :func:`returns`)."""
    out: dict[str, float] = {}
    for side, sign in (("US", 1.0), ("German", -1.0)):
        mine = sorted((lv for lv in scen.levels if lv.winner == side), key=lambda lv: lv.min)
        if sign < 0:
            mine.reverse()  # the German side's best result is the lowest US score
        for k, lv in enumerate(mine, start=1):
            out[lv.level] = sign * k / len(mine)
    for lv in scen.levels:
        out.setdefault(lv.level, 0.0)
    return out
