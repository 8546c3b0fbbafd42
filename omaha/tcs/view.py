"""What a player sees of a TCS Omaha game, its metrics, and its snapshot.

:func:`view` builds the :class:`~omaha.kernel.view.View` (the German never
sees the US plan or the LCT(R) targets); :func:`metrics` computes the declared
metrics from the game's statistics; :func:`returns` grades the end for agents;
:func:`dump` and :func:`restore` write and read the game's fields with printed labels.
The observation for agents is :mod:`omaha.tcs.observation`'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from omaha.kernel.metrics import NEVER, clamp, ratio
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View
from omaha.tcs.components.oob import UnitType
from omaha.tcs.components.plan import Plan
from omaha.tcs.components.tables import BOAT_KINDS, DD, UNIT_TYPES
from omaha.tcs.components.turns import parse_time
from omaha.tcs.core import AWAIT, CODES, FROM_CODE, Decision, Status, TcsCore
from omaha.tcs.procedures.cleanup import victory_points
from omaha.tcs.rules import pillbox_modifier
from omaha.tcs.scenario import TcsScenario

# ------------------------------------------------------------------ view
#: status markers, named as the kernel's pictures know them (palette.MARKER_STYLE)
STATUS_MARKS = {1: "suppressed", 2: "paralyzed"}
#: the NATO symbol of each unit type (kernel.svg.counters.SYMBOLS); trucks have none
SYMBOL = {
    "infantry": "infantry",
    "grenadier": "infantry",
    "pb_squad": "infantry",
    "mg": "machine_gun",
    "mortar": "mortar",
    "at_gun": "anti_tank",
    "inf_gun": "artillery",
    "fa_towed": "artillery",
    "fa_sp": "artillery",
    "tank": "armour",
    "halftrack": "mechanised",
    "truck": "",
    "pillbox": "pillbox",
    "rocket_pit": "rocket",
}


def counter_values(t: UnitType) -> str:
    """The values printed on a TCS counter (READINGS.md, "The printed counters"), as
    ``firepower[range]`` for each fire it has, the last number its morale (an area
    target: PB Sqd ``2[6]7``) or defence (a point target: Pill Box ``6[12] 5[7]6``,
    Inf Gun ``4[14]0``); ``-[-]`` where it has no area fire. A rocket pit prints
    ``10[10]-`` (its defence is ours, not printed)."""
    area = f"{t.area}[{t.range}]" if t.area else "-[-]"
    if t.name == "rocket_pit":
        return f"{area}-"
    if t.target == "point":
        point = f" {t.point}[{t.point_range}]" if t.point else ""
        return f"{area}{point}{t.defense}"
    return f"{area}{t.morale}" if t.morale else area


def echelon(uid: str) -> str:
    """The size mark of a counter: platoons (``E/2/16.1``) •••, weapons sections
    (``.mg``, ``.mtr``, ``.pak1``) ••; pill boxes, pits and trucks none."""
    _, dot, part = uid.partition(".")
    if not dot or part.startswith("trk") or uid.startswith(("PB-", "RP-")):
        return ""
    return "•••" if part.isdigit() else "••"


def unit_piece(core: TcsCore, i: int) -> Piece:
    """One unit on the map as a player sees it: the NATO symbol, the size mark, the
    values printed on its counter, its steps, and its markers."""
    scen = core.scenario
    u = scen.units[i]
    t = u.type
    w = core.where[i]
    marks = [STATUS_MARKS[core.status[i]]] if core.status[i] in STATUS_MARKS else []
    if t.move != "none" and core.fire_mode[i]:
        marks.append("fire_mode")
    if core.dug_in[i]:
        marks.append("dug_in")
    if i in core.marked or i in core.marked_point:
        marks.append("opportunity_fired")  # overwatch fire (15.0)
    if u.side == "US":
        sec = scen.beach.sector_of(w)
        if core.planned_beach[i] and sec is not None and sec.beach != core.planned_beach[i]:
            marks.append("wrong beach")
        if core.on_task[i] or u.formation in core.us_implemented:
            marks.append("op sheet")
    else:
        f = u.formation
        if scen.german.formation(f).status != "released" and f not in core.released:
            marks.append("unreleased")
    name = {"pillbox": "Pill Box", "rocket": "Rocket Pit"}.get(t.kind, u.id)
    return Piece(
        u.id,
        u.side,
        name,
        scen.board.label(w),
        counter_values(t),
        tuple(marks),
        kind=SYMBOL.get(t.name, ""),
        echelon=echelon(u.id),
        steps=(core.steps[i], u.steps) if u.steps > 1 else None,
    )


def view(core: TcsCore, player: str | None = None) -> View:
    """The board, pieces, markers and tracks ``player`` may see (None: everything)."""
    scen = core.scenario
    board = scen.board
    oob = scen.oob
    pieces = [unit_piece(core, i) for i, w in enumerate(core.where) if w >= 0]
    # the transports assigned (2.1m) are the US's: not even how many, or where they
    # head, is the German's (as the observation)
    transports = core.transports if player != "German" else {}
    for land, boats in sorted(transports.items()):
        for b in boats:
            pieces.append(
                Piece(
                    b.id,
                    "US",
                    f"{b.kind} {b.id}",
                    b.box,
                    f"lands {land.split()[0]}",
                    kind="boat",
                )
            )
    for k, ld in enumerate(oob.leaders):
        st = core.leader_status[k]
        if st in ("map", "dead"):
            marks_l = ("dead",) if st == "dead" else ()
            pieces.append(
                Piece(
                    ld.id,
                    "US",
                    ld.name,
                    board.label(core.leader_cell[k]),
                    marks=("eliminated",) if marks_l else (),
                    kind="leader",
                )
            )
    marks = [
        Mark(board.label(c), f"tide line {core.tide_hour}", "tide")
        for c in scen.beach.line(core.tide_hour).values()
    ]
    marks.extend(Mark(board.label(c), "smoke", "smoke") for c in sorted(core.smoke))
    if player != "German":
        marks.extend(Mark(board.label(c), "LCT(R) target", "target") for c in core.lctr_targets)
    marks.extend(Mark(board.label(c), "TRP", "target") for c in core.trps)
    for c, state in sorted(core.obstacles.items()):
        marks.append(Mark(board.label(c), OBSTACLE_MARKS[state], "obstacle"))
    for name in sorted(core.breaches):
        breach = scen.beach.breach_by_name[name]
        marks.append(Mark(board.label(breach.strand), f"breach {name}", "breach"))
    for draw, when in sorted(core.exits.items()):
        marks.append(Mark(board.label(scen.beach.exits[draw]), f"exit {draw} open {when}", "exit"))
    mod = pillbox_modifier(len(core.pillboxes), scen.tables)
    tracks = [
        ("tide line", core.tide_hour),
        ("pill boxes", f"{len(core.pillboxes)} (survival {mod:+d})"),
    ]
    for cal, (he, sm, il) in sorted(core.ammo.items()):
        tracks.append((f"ammo {cal}", f"HE {he}, smoke {sm}, illum {il}"))
    if core.air_attacks:
        tracks.append(("A-20s", f"{len(core.air_attacks)} attacks ({core.air_controller})"))
    alive = sum(1 for s in core.leader_status if s == "map")
    tracks.append(("leaders ashore", str(alive)))
    tracks.append(("US op sheets", f"{len(core.us_implemented)} new implemented"))
    if player != "US":
        tracks.append(("German released", ", ".join(sorted(core.released)) or "-"))
        tracks.append(
            (
                "German batteries",
                ", ".join(f"{b} {n}" for b, n in sorted(core.batteries.items())) or "-",
            )
        )
    tracks.append(("exits open", ", ".join(sorted(core.exits)) or "-"))
    return core.make_view(
        player,
        pieces=pieces,
        marks=marks,
        tracks=tracks,
        notes=plan_notes(core, player),
    )


OBSTACLE_MARKS = {
    "mines": "mines and wire",
    "wire": "wire only",
    "clear": "clear",
    "cleared": "wire cleared",
    "breached": "breached",
}


def plan_notes(core: TcsCore, player: str | None) -> list[str]:
    """The assault waves of the plan, at sea or landed (secret to the German)."""
    plan = core.plan
    if plan is None:
        return []
    if player == "German":
        return ["US landing plan: secret"]
    notes = []
    for w in (1, 2, 3):
        boats = [b for b in plan.boats if b.wave == w]
        if not boats:
            continue
        waiting = [
            b for b in boats if any(core.where[core.unit_index(u)] == AWAIT for u, _ in b.load)
        ]
        by_box: dict[str, int] = {}
        for b in boats:
            by_box[b.box] = by_box.get(b.box, 0) + 1
        text = ", ".join(f"{n} to {box}" for box, n in sorted(by_box.items()))
        state = "landed" if wave_landed(core, w, bool(waiting)) else "at sea"
        notes.append(f"wave {w} ({state}): {len(boats)} boats, {text}")
    return notes


def wave_landed(core: TcsCore, w: int, waiting: bool) -> bool:
    """Whether assault wave ``w`` has run in: on an earlier turn, or on this one once
    its boats have rolled (units placed, or hexes still to choose)."""
    label = f"wave{w}"
    if any(label in t.flags for t in core.scenario.turns[: core.turn]):
        return True
    if core.in_setup or not core.turn_has(label):
        return False
    running = core.landing is not None and core.landing.get("wave") == w
    return not waiting or running


def returns(core: TcsCore) -> dict[str, float]:
    """Graded by victory level (READINGS.md, "Agents"): the winner's best level 1, its
    next 0.5 (1/k of the way down k levels), the loser the opposite; 0 each for a
    game with no winner (a scenario without victory conditions)."""
    result = core.result
    victory = core.scenario.victory
    if result is None or result.winner is None or victory is None:
        return {"US": 0.0, "German": 0.0}
    won = [lv.level for lv in victory.levels if lv.winner == result.winner]
    if result.winner == "German":
        won.reverse()  # the German's best level is the last of the list
    rank = won.index(result.level) if result.level in won else 0
    value = (len(won) - rank) / len(won)
    loser = "German" if result.winner == "US" else "US"
    return {result.winner: value, loser: -value}


# ------------------------------------------------------------------ metrics
def hours_after_h(label: str) -> float:
    """A turn's time (``"1300 6 June"``) in hours after 06:30 (H-hour) on 6 June."""
    day, minutes = parse_time(label)
    return (day - 6) * 24 + (minutes - 390) / 60


def first_exit_hours(core: TcsCore) -> float:
    """Hours after 06:30 (H-hour) of the first draw exit opened; never (inf) when none was."""
    if not core.exits:
        return NEVER
    return min(hours_after_h(label) for label in core.exits.values())


#: What the landing system (2.1-2.3) alone measures: NaN in a scenario without it.
LANDING_METRICS = (
    "first_wave_ashore", "dd_tanks_ashore", "dukw_guns_lost", "landed_off_target",
    "steps_landed", "dd_tanks_launched", "dd_tanks_landed", "dukw_guns_loaded",
    "dukw_guns_landed", "leaders_landed", "units_correct_beach", "units_wrong_beach",
    *(f"steps_landed_{t}" for t in UNIT_TYPES),
    *(f"boats_{what}_{k}" for k in (*BOAT_KINDS, DD) for what in ("sent", "lost")),
)  # fmt: skip


def not_modelled(scenario: TcsScenario) -> dict[str, str]:
    """The declared metrics ``scenario`` does not model, each with why."""
    out: dict[str, str] = {}
    if not scenario.landing:
        why = "no landing: the US starts ashore, so no boats, waves, DD tanks or Dukws (2.1)"
        out.update(dict.fromkeys(LANDING_METRICS, why))
    if scenario.victory is None:
        out["us_win"] = "no victory conditions: the scenario ends with no winner"
    return out


def metrics(core: TcsCore) -> dict[str, float]:
    """The metrics the game declares (:mod:`omaha.tcs.game`), from the statistics.

    A share of nothing (no DD tank launched, no Dukw loaded) is NaN, not 0; what the
    scenario does not model at all (:func:`not_modelled`: the landing system of 2.1-2.3
    in a scenario that starts ashore, a winner without victory conditions) is NaN in
    every game of it.
    """
    s = core.stats

    landed = sum(s.get(f"steps_landed_{t}", 0) for t in UNIT_TYPES)
    lost = sum(s.get(f"steps_lost_{t}", 0) for t in UNIT_TYPES)
    result = core.result
    out = {
        "us_win": float(result is not None and result.winner == "US"),
        "exits_opened": float(len(core.exits)),
        "first_exit_hours": first_exit_hours(core),
        "german_losses": clamp(
            ratio(s.get("german_steps_lost", 0), s.get("german_steps_committed", 0))
        ),
        "pillboxes_destroyed": float(s.get("pillboxes_destroyed", 0)),
        "first_wave_ashore": ratio(s.get("wave1_landed", 0), s.get("wave1_planned", 0)),
        "dd_tanks_ashore": ratio(s.get("dd_landed", 0), s.get("dd_launched", 0)),
        "dukw_guns_lost": ratio(s.get("dukw_guns_lost", 0), s.get("dukw_guns_loaded", 0)),
        "landed_off_target": ratio(
            s.get("units_wrong_beach", 0),
            s.get("units_wrong_beach", 0) + s.get("units_correct_beach", 0),
        ),
        "us_losses": clamp(ratio(lost, s.get("steps_committed", 0))),
        "turns_played": float(core.turn + 1 if not core.in_setup else 0),
        "steps_landed": float(landed),
        "steps_lost": float(lost),
        "dd_tanks_launched": float(s.get("dd_launched", 0)),
        "dd_tanks_landed": float(s.get("dd_landed", 0)),
        "dukw_guns_loaded": float(s.get("dukw_guns_loaded", 0)),
        "dukw_guns_landed": float(s.get("dukw_guns_landed", 0)),
        "leaders_landed": float(s.get("leaders_landed", 0)),
        "leaders_alive": float(
            sum(1 for st in core.leader_status if st in ("map", "removed", "aboard"))
        ),
        "units_correct_beach": float(s.get("units_correct_beach", 0)),
        "units_wrong_beach": float(s.get("units_wrong_beach", 0)),
        "battery_fires_he": float(sum(v[0] for v in core.ammo.values())),
        "battery_fires_smoke": float(sum(v[1] for v in core.ammo.values())),
        "illum_rounds": float(sum(v[2] for v in core.ammo.values())),
        "pillboxes": float(len(core.pillboxes)),
        "nfst_working": float(s.get("nfst_working", 0)),
        "obstacles_tested": float(len(core.obstacles)),
        "breaches_opened": float(len(core.breaches)),
    }
    for t in UNIT_TYPES:
        out[f"steps_landed_{t}"] = float(s.get(f"steps_landed_{t}", 0))
        out[f"steps_lost_{t}"] = float(s.get(f"steps_lost_{t}", 0))
    for k in (*BOAT_KINDS, DD):
        out[f"boats_sent_{k}"] = float(s.get(f"boats_sent_{k}", 0))
        out[f"boats_lost_{k}"] = float(s.get(f"boats_lost_{k}", 0))
    out.update(dict.fromkeys(not_modelled(core.scenario), math.nan))
    return out


# ------------------------------------------------------------------ snapshots
def _where_text(core: TcsCore, w: int) -> str:
    return core.label(w) if w >= 0 else CODES[w]


def _where_value(core: TcsCore, text: str) -> int:
    return FROM_CODE[text] if text in FROM_CODE else core.cell(text)


def _labels(core: TcsCore, cells: Iterable[int]) -> list[str]:
    return sorted(core.label(c) for c in cells)


def _uids(core: TcsCore, units: Iterable[int]) -> list[str]:
    return sorted(core.uid(i) for i in units)


def dump(core: TcsCore) -> dict[str, Any]:
    """The game's fields as JSON-able data with printed labels."""
    scen = core.scenario
    units = {}
    for u in scen.units:
        i = u.index
        row = [
            _where_text(core, core.where[i]),
            core.steps[i],
            core.carried[i],
            core.planned_beach[i],
            core.on_task[i],
            core.fire_mode[i],
            int(core.status[i]),
            core.dug_in[i],
            core.defense_turns[i],
        ]
        if row != ["await", u.steps, False, None, False, u.side == "German", 0, False, 0]:
            units[u.id] = row
    leaders = {
        ld.id: [
            core.leader_status[ld.index],
            core.label(core.leader_cell[ld.index]) if core.leader_cell[ld.index] >= 0 else None,
            core.leader_boat[ld.index],
        ]
        for ld in scen.oob.leaders
    }
    r = core.result
    return {
        "in_setup": core.in_setup,
        "turn": core.turn,
        "cursor": core.cursor,
        "started": core.started,
        "sd": core.sd,
        "wait": [str(core.wait[0]), core.wait[1], core.wait[2]] if core.wait else None,
        "result": None
        if r is None
        else [r.winner, r.level, [[k, v] for k, v in r.points], r.detail],
        "tide_hour": core.tide_hour,
        "units": units,
        "moved": sorted(core.moved),
        "acted": _uids(core, core.acted),
        "fired_point": _uids(core, core.fired_point),
        "spared": _uids(core, core.spared),
        "selected": core.selected,
        "free": _uids(core, core.free),
        "marked": _uids(core, core.marked),
        "marked_point": _uids(core, core.marked_point),
        "revealed": _uids(core, core.revealed),
        "road_moved": _uids(core, core.road_moved),
        "fired_upon": _uids(core, core.fired_upon),
        "tested": _uids(core, core.tested),
        "combat": core.combat,
        "trigger": core.trigger,
        "plan": list(core.plan.tokens()) if core.plan else None,
        "draft": list(Plan("draft", tuple(core.draft_boats), tuple(core.draft_groups)).tokens()),
        "open_boat": core.open_boat,
        "partial": core.partial,
        "counters": dict(sorted(core.counters.items())),
        "leaders": leaders,
        "transports": {
            k: list(Plan("t", tuple(v)).tokens()) for k, v in sorted(core.transports.items())
        },
        "transport_open": core.transport_open,
        "landing": core.landing,
        "lctr_targets": [core.label(c) for c in core.lctr_targets],
        "lctr_done": core.lctr_done,
        "smoke": _labels(core, core.smoke),
        "illuminated": _labels(core, core.illuminated),
        "continued": None if core.continued is None else list(core.continued),
        "smoke_sessions": core.smoke_sessions,
        "air": [core.air_loadout, core.air_controller, core.air_attacks],
        "ammo": dict(sorted(core.ammo.items())),
        "missions": sorted(core.missions),
        "nfst": dict(sorted(core.nfst.items())),
        "overdraft": dict(sorted(core.overdraft_added.items())),
        "obstacles": {core.label(c): v for c, v in sorted(core.obstacles.items())},
        "clear_from": {core.label(c): v for c, v in sorted(core.clear_from.items())},
        "breaching": {core.label(c): v for c, v in sorted(core.breaching.items())},
        "breaches": dict(sorted(core.breaches.items())),
        "breach_traffic": dict(sorted(core.breach_traffic.items())),
        "exits": dict(sorted(core.exits.items())),
        "company_morale": dict(sorted(core.company_morale.items())),
        "us_sheets": dict(sorted(core.us_sheets.items())),
        "us_implemented": sorted(core.us_implemented),
        "released": sorted(core.released),
        "entered": dict(sorted(core.entered.items())),
        "german_sheets": sorted(core.german_sheets),
        "batteries": dict(sorted(core.batteries.items())),
        "stats": dict(sorted(core.stats.items())),
        # written only when assigned, so the shape of a game without TRPs is unchanged
        **({"trps": [core.label(c) for c in core.trps]} if core.trps else {}),
    }


def restore(core: TcsCore, data: dict[str, Any]) -> None:
    """Inverse of :func:`dump` (the kernel's fields are already set)."""
    scen = core.scenario
    core.init_fields()
    core.in_setup = data["in_setup"]
    core.turn = data["turn"]
    core.cursor = data["cursor"]
    core.started = data["started"]
    core.sd = data["sd"]
    wait = data["wait"]
    core.wait = (Decision(wait[0]), wait[1], wait[2]) if wait else None
    r = data["result"]
    core.result = (
        None if r is None else Outcome(r[0], r[1], tuple((k, float(v)) for k, v in r[2]), r[3])
    )
    core.tide_hour = data["tide_hour"]
    for uid, row in data["units"].items():
        i = core.unit_index(uid)
        core.where[i] = _where_value(core, row[0])
        (
            core.steps[i],
            core.carried[i],
            core.planned_beach[i],
            core.on_task[i],
            core.fire_mode[i],
            status,
            core.dug_in[i],
            core.defense_turns[i],
        ) = row[1:]
        core.status[i] = Status(status)

    def idx(ids: list[str]) -> set[int]:
        return {core.unit_index(u) for u in ids}

    core.moved = set(data["moved"])
    core.acted = idx(data["acted"])
    core.fired_point = idx(data["fired_point"])
    core.spared = idx(data["spared"])
    core.selected = data["selected"]
    core.free = idx(data["free"])
    core.marked = idx(data["marked"])
    core.marked_point = idx(data["marked_point"])
    core.revealed = idx(data["revealed"])
    core.road_moved = idx(data["road_moved"])
    core.fired_upon = idx(data["fired_upon"])
    core.tested = idx(data["tested"])
    core.combat = data["combat"]
    core.trigger = data["trigger"]
    core.plan = Plan.from_tokens(data["plan"]) if data["plan"] is not None else None
    draft = Plan.from_tokens(data["draft"])
    core.draft_boats, core.draft_groups = list(draft.boats), list(draft.groups)
    core.open_boat = data["open_boat"]
    core.partial = data["partial"]
    core.counters = dict(data["counters"])
    for lid, (status, cell, boat) in data["leaders"].items():
        k = scen.oob.leader(lid).index
        core.leader_status[k] = status
        core.leader_cell[k] = core.cell(cell) if cell is not None else -1
        core.leader_boat[k] = boat
    core.transports = {k: list(Plan.from_tokens(v).boats) for k, v in data["transports"].items()}
    core.transport_open = data["transport_open"]
    core.landing = data["landing"]
    core.lctr_targets = [core.cell(x) for x in data["lctr_targets"]]
    core.trps = [core.cell(x) for x in data.get("trps", [])]
    core.lctr_done = data["lctr_done"]
    core.smoke = {core.cell(x) for x in data["smoke"]}
    core.illuminated = {core.cell(x) for x in data.get("illuminated", ())}
    was = data.get("continued")
    core.continued = (
        None if was is None else (str(was[0]), str(was[1]), int(was[2]), int(was[3]), str(was[4]))
    )
    core.smoke_sessions = data["smoke_sessions"]
    core.air_loadout, core.air_controller, core.air_attacks = data["air"]
    core.ammo = {k: list(v) for k, v in data["ammo"].items()}
    core.missions = set(data["missions"])
    core.nfst = {k: list(v) for k, v in data["nfst"].items()}
    core.overdraft_added = dict(data["overdraft"])
    core.obstacles = {core.cell(k): v for k, v in data["obstacles"].items()}
    core.clear_from = {core.cell(k): v for k, v in data["clear_from"].items()}
    core.breaching = {core.cell(k): v for k, v in data["breaching"].items()}
    core.breaches = dict(data["breaches"])
    core.breach_traffic = dict(data["breach_traffic"])
    core.exits = dict(data["exits"])
    core.company_morale = dict(data["company_morale"])
    core.us_sheets = dict(data["us_sheets"])
    core.us_implemented = set(data["us_implemented"])
    core.released = set(data["released"])
    core.entered = dict(data["entered"])
    core.german_sheets = set(data["german_sheets"])
    core.batteries = dict(data["batteries"])
    core.stats = dict(data["stats"])
    core.reindex()


# ------------------------------------------------------------------ search
#: What the search agent weighs (``evaluate``): the victory level the points would earn
#: now, and where the points stand between the lowest and the highest level.
EVAL_LEVEL, EVAL_POINTS = 0.6, 0.4


def evaluate(core: TcsCore, player: str) -> float:
    """The position for ``player`` in [0, 1] (the German's is 1 less the US's), from
    the scenario's victory conditions (reconstructed; READINGS.md): the level its
    victory points (exits, villages, strong points, losses) would earn if the game
    ended now, graded as ``returns`` grades it and scaled to [0, 1], and the points'
    place between the thresholds (from one exit's points below the lowest to the
    highest). A scenario without victory conditions (the landing) scores the share
    of the landed US steps still alive."""
    victory = core.scenario.victory
    if victory is None:
        lost = sum(v for k, v in core.stats.items() if k.startswith("steps_lost_"))
        ashore = sum(core.steps[i] for i in core.us_units() if core.where[i] >= 0)
        us = ashore / (ashore + lost) if ashore + lost else 0.5
        return us if player == "US" else 1.0 - us
    total = sum(victory_points(core).values())
    levels = victory.levels
    level = next((lv for lv in levels if total >= lv.points), levels[-1])
    won = [lv.level for lv in levels if lv.winner == level.winner]
    if level.winner == "German":
        won.reverse()  # the German's best level is the last of the list
    value = (len(won) - won.index(level.level)) / len(won)
    graded = value if level.winner == "US" else -value
    # the last level always applies (its threshold is no target): the points are placed
    # between one exit's worth below the lowest other threshold and the highest one
    marks = [lv.points for lv in levels[:-1]] or [levels[-1].points]
    top, bottom = max(marks), min(marks) - max(1, victory.exit_points)
    place = min(1.0, max(0.0, (total - bottom) / (top - bottom)))
    us = EVAL_LEVEL * (graded + 1.0) / 2.0 + EVAL_POINTS * place
    return us if player == "US" else 1.0 - us


#: Decisions worth a search: moves, fire, actions and the choice of the acting unit,
#: overwatch, modes and op sheets; the set-up placements, tests of obstacles, the
#: tide's steps and the like take the heuristic's choice.
SEARCHED_KINDS = frozenset({"move", "fire", "action", "choose", "overwatch", "modes", "op sheets"})


def worth_search(core: TcsCore) -> bool:
    wait = core.wait
    return wait is not None and str(wait[0]) in SEARCHED_KINDS
