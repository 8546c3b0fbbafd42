"""What a player sees, the metrics, and the snapshot (dump and restore) of a game.

The US player does not see unrevealed German units (352nd units enter face
down) or unrevealed depth markers; an observer (``player=None``) sees all. The
observation as numbers (issue 15) is :mod:`omaha.landing_table.observation`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from omaha.kernel.decks import Cup, Deck
from omaha.kernel.metrics import NEVER, ratio
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View
from omaha.landing_table.actions import Attack
from omaha.landing_table.components.charts import CHARTS
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
from omaha.landing_table.procedures.turn import MARKS
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
        # the exit's name as the map prints it (the cell's tag says "exit"); "open" once open
        text = f"{e.id} open" if e.id in core.exits_open else e.id
        marks.append(Mark(labels[e.cell], text, "exit"))
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
    in; never (inf) when none has opened."""
    if not core.exits_first:
        return NEVER
    turn = min(core.exits_first.values())
    scen = core.scen
    return (scen.start_minutes + turn * scen.minutes - H_HOUR) / 60


def end_minutes(scen: LandingTableScenario) -> int:
    """The clock at the end of the scenario's last turn, in minutes after midnight."""
    return scen.start_minutes + scen.turns * scen.minutes


def not_modelled(scen: LandingTableScenario) -> dict[str, str]:
    """The declared metrics ``scen`` does not model, each with why: an exit count at a
    clock time after the scenario's last turn (the open exits are counted in the end
    phase of the turn that ends then, READINGS.md "End phase")."""
    end = end_minutes(scen)
    return {
        key: f"the scenario ends at {end // 60:02d}:{end % 60:02d}, before {at // 60}:00"
        for key, at in MARKS
        if at > end
    }


def metrics(core: LandingTableCore) -> dict[str, float]:
    """The game's declared metrics (see ``LandingTableGame.metrics``).

    A share of nothing (no DD tank launched, no DUKW loaded) is NaN, not 0; what the
    scenario does not model (:func:`not_modelled`) is NaN in every game of it.
    """
    st = core.stats
    scen = core.scen
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
        # -1: the game ended before that clock time (nothing counted)
        **{key: st[key] if st[key] >= 0 else math.nan for key, _ in MARKS},
        "wn_cleared": float(wn_clear),
        "mine_strikes": st["mines"],
        "heroes_used": st["heroes_used"],
    } | dict.fromkeys(not_modelled(scen), math.nan)


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


# -- search ------------------------------------------------------------------------------
#: What the search agent weighs (``evaluate``): the victory level the VP would give now,
#: the VP themselves, and the US steps still in the game (losses).
EVAL_LEVEL, EVAL_VP, EVAL_STEPS = 0.6, 0.3, 0.1


def evaluate(core: LandingTableCore, player: str) -> float:
    """The position for the US in [0, 1], from the reconstructed victory conditions
    (READINGS.md, "Victory"): the level the VP would earn if the game ended now (its
    return scaled to [0, 1]), the VP as a share of the most the map offers, and the
    share of the US steps not lost. The final VP decide the level at the end, so an
    ended game is scored the same way."""
    scen = core.scen
    vp, _, _ = core.victory_points()
    level = next((lv for lv in scen.levels if vp >= lv.min), scen.levels[-1])
    level_value = (level_returns(scen)[level.level] + 1.0) / 2.0
    most = sum(p.vp for p in scen.positions if p.vp > 0) * scen.vp_position
    most += scen.vp_exit * len(scen.exits)
    full = sum(u.kind.steps for u in scen.us_by_id.values())
    kept = sum(u.steps for u in core.us.values() if u.status in (SCHEDULED, ASHORE))
    return (
        EVAL_LEVEL * level_value
        + EVAL_VP * min(1.0, vp / most if most else 0.0)
        + EVAL_STEPS * (kept / full if full else 1.0)
    )


#: Decisions worth a search: where a boat team lands, and the orders of a unit that
#: may attack a position now (attack it, with whom, or wait for more). A unit's orders
#: with no attack offered (a step along the beach), a barrage (its effect, on the
#: German fire of the next turn, lies beyond a rollout to the end of the turn), the
#: steps of an attack being built and the choice of a hit are the heuristic's alone:
#: a D-Day player weighs the landings and the attacks.
SEARCHED_KINDS = frozenset({"orders", "land"})


def worth_search(core: LandingTableCore) -> bool:
    """Whether the pending decision is searched (see ``SEARCHED_KINDS``); it reads only
    the decision and its legal actions, which the US player sees."""
    d = core.decision
    if d is None or d["kind"] not in SEARCHED_KINDS:
        return False
    if d["kind"] == "land":
        return True
    return any(isinstance(a, Attack) for a in core.legal_actions())
