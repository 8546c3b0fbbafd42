"""What a player sees of a TCS Omaha game, its metrics, and its snapshot.

:func:`view` builds the :class:`~omaha.kernel.view.View` (the German never
sees the US plan or the LCT(R) targets); :func:`metrics` computes the declared
metrics from the game's statistics; :func:`dump` and :func:`restore` write and
read the game's fields with printed labels.
"""

from __future__ import annotations

from typing import Any

from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View
from omaha.tcs.components.plan import Plan
from omaha.tcs.components.tables import BOAT_KINDS, DD, UNIT_TYPES
from omaha.tcs.core import AWAIT, CODES, FROM_CODE, Decision, TcsCore
from omaha.tcs.rules import pillbox_modifier


# ------------------------------------------------------------------ view
def view(core: TcsCore, player: str | None = None) -> View:
    """The board, pieces, markers and tracks ``player`` may see (None: everything)."""
    scen = core.scenario
    board = scen.board
    oob = scen.oob
    pieces: list[Piece] = []
    for i, w in enumerate(core.where):
        u = oob.units[i]
        if w >= 0:
            tags = []
            sec = scen.beach.sector_of(w)
            if core.planned_beach[i] and sec is not None and sec.beach != core.planned_beach[i]:
                tags.append("wrong beach")
            if core.on_task[i]:
                tags.append("op sheet")
            if u.is_29th:
                tags.append("29th")
            pieces.append(
                Piece(u.id, "US", u.id, board.label(w), f"{core.steps[i]} st", tuple(tags))
            )
    for land, boats in sorted(core.transports.items()):
        for b in boats:
            pieces.append(
                Piece(
                    b.id,
                    "US",
                    f"{b.kind} {b.id}",
                    b.box,
                    f"lands {land.split()[0]}",
                    hidden=player == "German",
                )
            )
    for k, ld in enumerate(oob.leaders):
        st = core.leader_status[k]
        if st in ("map", "dead"):
            marks_l = ("dead",) if st == "dead" else ()
            pieces.append(
                Piece(ld.id, "US", ld.name, board.label(core.leader_cell[k]), "leader", marks_l)
            )
    for n, c in enumerate(core.pillboxes, start=1):
        pieces.append(Piece(f"PB-{n:02d}", "German", "Pill Box", board.label(c), "6[12]"))
    for n, c in enumerate(core.pits, start=1):
        pieces.append(Piece(f"RP-{n:02d}", "German", "Rocket Pit", board.label(c), "10[10]"))
    marks = [
        Mark(board.label(c), f"tide {core.tide_hour}", "tide")
        for c in scen.beach.line(core.tide_hour).values()
    ]
    marks.extend(Mark(board.label(c), "smoke", "smoke") for c in sorted(core.smoke))
    if player != "German":
        marks.extend(Mark(board.label(c), "LCT(R) target", "target") for c in core.lctr_targets)
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
    return core.make_view(
        player,
        pieces=pieces,
        marks=marks,
        tracks=tracks,
        notes=plan_notes(core, player),
    )


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


# ------------------------------------------------------------------ metrics
def metrics(core: TcsCore) -> dict[str, float]:
    """The metrics the game declares (:mod:`omaha.tcs.game`), from the statistics."""
    s = core.stats

    def ratio(a: int, b: int) -> float:
        return a / b if b else 0.0

    landed = sum(s.get(f"steps_landed_{t}", 0) for t in UNIT_TYPES)
    lost = sum(s.get(f"steps_lost_{t}", 0) for t in UNIT_TYPES)
    out = {
        "first_wave_ashore": ratio(s.get("wave1_landed", 0), s.get("wave1_planned", 0)),
        "dd_tanks_ashore": ratio(s.get("dd_landed", 0), s.get("dd_launched", 0)),
        "dukw_guns_lost": ratio(s.get("dukw_guns_lost", 0), s.get("dukw_guns_loaded", 0)),
        "landed_off_target": ratio(
            s.get("units_wrong_beach", 0),
            s.get("units_wrong_beach", 0) + s.get("units_correct_beach", 0),
        ),
        "us_losses": ratio(lost, s.get("steps_committed", 0)),
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
    }
    for t in UNIT_TYPES:
        out[f"steps_landed_{t}"] = float(s.get(f"steps_landed_{t}", 0))
        out[f"steps_lost_{t}"] = float(s.get(f"steps_lost_{t}", 0))
    for k in (*BOAT_KINDS, DD):
        out[f"boats_sent_{k}"] = float(s.get(f"boats_sent_{k}", 0))
        out[f"boats_lost_{k}"] = float(s.get(f"boats_lost_{k}", 0))
    return out


# ------------------------------------------------------------------ snapshots
def _where_text(core: TcsCore, w: int) -> str:
    return core.label(w) if w >= 0 else CODES[w]


def _where_value(core: TcsCore, text: str) -> int:
    return FROM_CODE[text] if text in FROM_CODE else core.cell(text)


def dump(core: TcsCore) -> dict[str, Any]:
    """The game's fields as JSON-able data with printed labels."""
    oob = core.scenario.oob
    units = {}
    for u in oob.units:
        i = u.index
        row = [
            _where_text(core, core.where[i]),
            core.steps[i],
            core.carried[i],
            core.planned_beach[i],
            core.on_task[i],
        ]
        if row != ["await", u.steps, False, None, False]:
            units[u.id] = row
    leaders = {
        ld.id: [
            core.leader_status[ld.index],
            core.label(core.leader_cell[ld.index]) if core.leader_cell[ld.index] >= 0 else None,
            core.leader_boat[ld.index],
        ]
        for ld in oob.leaders
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
        "pillboxes": [core.label(c) for c in core.pillboxes],
        "pits": [core.label(c) for c in core.pits],
        "units": units,
        "moved": sorted(core.moved),
        "selected": core.selected,
        "free": sorted(core.uid(i) for i in core.free),
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
        "smoke": sorted(core.label(c) for c in core.smoke),
        "smoke_sessions": core.smoke_sessions,
        "air": [core.air_loadout, core.air_controller, core.air_attacks],
        "ammo": dict(sorted(core.ammo.items())),
        "nfst": dict(sorted(core.nfst.items())),
        "overdraft": dict(sorted(core.overdraft_added.items())),
        "stats": dict(sorted(core.stats.items())),
    }


def restore(core: TcsCore, data: dict[str, Any]) -> None:
    """Inverse of :func:`dump` (the kernel's fields are already set)."""
    oob = core.scenario.oob
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
    core.pillboxes = [core.cell(x) for x in data["pillboxes"]]
    core.pits = [core.cell(x) for x in data["pits"]]
    n = len(oob.units)
    core.where = [AWAIT] * n
    core.steps = [u.steps for u in oob.units]
    core.carried = [False] * n
    core.planned_beach = [None] * n
    core.on_task = [False] * n
    for uid, row in data["units"].items():
        i = oob.index(uid)
        core.where[i] = _where_value(core, row[0])
        core.steps[i], core.carried[i], core.planned_beach[i], core.on_task[i] = row[1:]
    core.moved = set(data["moved"])
    core.selected = data["selected"]
    core.free = {oob.index(u) for u in data["free"]}
    core.plan = Plan.from_tokens(data["plan"]) if data["plan"] is not None else None
    draft = Plan.from_tokens(data["draft"])
    core.draft_boats, core.draft_groups = list(draft.boats), list(draft.groups)
    core.open_boat = data["open_boat"]
    core.partial = data["partial"]
    core.counters = dict(data["counters"])
    nl = len(oob.leaders)
    core.leader_status = ["unselected"] * nl
    core.leader_cell = [-1] * nl
    core.leader_boat = [None] * nl
    for lid, (status, cell, boat) in data["leaders"].items():
        k = oob.leader(lid).index
        core.leader_status[k] = status
        core.leader_cell[k] = core.cell(cell) if cell is not None else -1
        core.leader_boat[k] = boat
    core.transports = {k: list(Plan.from_tokens(v).boats) for k, v in data["transports"].items()}
    core.transport_open = data["transport_open"]
    core.landing = data["landing"]
    core.lctr_targets = [core.cell(x) for x in data["lctr_targets"]]
    core.lctr_done = data["lctr_done"]
    core.smoke = {core.cell(x) for x in data["smoke"]}
    core.smoke_sessions = data["smoke_sessions"]
    core.air_loadout, core.air_controller, core.air_attacks = data["air"]
    core.ammo = {k: list(v) for k, v in data["ammo"].items()}
    core.nfst = {k: list(v) for k, v in data["nfst"].items()}
    core.overdraft_added = dict(data["overdraft"])
    core.stats = dict(data["stats"])
