"""What a player sees, the metrics, and the snapshot (dump and restore) of a game.

The US player does not see unrevealed German units (352nd units enter face
down) or unrevealed depth markers; an observer (``player=None``) sees all.
"""

from __future__ import annotations

from typing import Any

from omaha.kernel.decks import Cup, Deck
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View
from omaha.landing_table.components.charts import CHARTS
from omaha.landing_table.core import (
    ASHORE,
    SCHEDULED,
    GermanState,
    LandingTableCore,
    Phase,
    PositionState,
    USState,
)


def view(core: LandingTableCore, player: str | None) -> View:
    """The board as ``player`` sees it: pieces, fire fields, exits, the time track."""
    scen = core.scen
    board = scen.board
    labels = board.labels
    hide = player == "US"
    pieces: list[Piece] = []
    for uid, s in core.us.items():
        u = core.unit(uid)
        k = u.kind
        if s.status == ASHORE:
            where = labels[s.where]
        elif s.status == SCHEDULED and s.turn == core.turn:
            where = scen.boxes[s.box - 1]
        else:
            continue
        values = "leader" if k.leader else f"{k.strength(s.steps)}-{core.unit_range(uid)}"
        tags = tuple(
            m
            for m, on in (
                ("disrupted", s.disrupted),
                (f"{s.steps}/{k.steps} steps", s.steps < k.steps),
                (u.symbol, True),
            )
            if on
        )
        pieces.append(Piece(uid, "US", uid, where, values, tags))
    for nid in core.naval_ids():
        used = ("fired",) if nid in core.naval_used else ()
        pieces.append(Piece(nid, "US", nid, "naval", str(scen.naval_attack), used))
    for gid, g in sorted(core.ger.items()):
        gu = scen.germans[gid]
        if g.where in scen.pos_by_id:
            where = labels[scen.pos_by_id[g.where].cell]
        elif g.where == "division":
            where = "division"
        else:
            continue
        hidden = hide and not g.revealed
        gmarks = ("disrupted",) if g.disrupted else ()
        values = f"{gu.defense} {'+'.join(sorted(gu.requires))}"
        pieces.append(Piece(gid, "German", gid, where, values, gmarks, hidden=hidden))
    for p in scen.positions:
        ps = core.pos[p.id]
        if ps.depth is not None:
            hidden = hide and not ps.depth_revealed
            pieces.append(
                Piece(f"depth@{p.id}", "German", f"depth {ps.depth}", labels[p.cell], hidden=hidden)
            )
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


def restore(core: LandingTableCore, data: dict[str, Any]) -> None:
    """Inverse of :func:`dump` (the kernel's base fields are already set)."""
    scen = core.scen
    board = scen.board
    core.turn = int(data["turn"])
    core.current_phase = Phase(str(data["phase"]))
    core.us = {}
    for u in scen.us:  # order-of-battle order, which the procedures follow
        v = data["us"][u.id]
        core.us[u.id] = USState(
            u.id,
            status=v[0],
            steps=v[1],
            turn=v[2],
            box=v[3],
            where=board.cell(v[4]) if v[4] is not None else -1,
            no_check=v[5],
            disrupted=v[6],
            acted=v[7],
            landed_box=v[8],
            landed_turn=v[9],
            committed=v[10],
        )
    core.ger = {}
    for gid in scen.germans:
        v = data["ger"][gid]
        core.ger[gid] = GermanState(gid, v[0], v[1], v[2])
    core.pos = {}
    for p in scen.positions:
        v = data["pos"][p.id]
        core.pos[p.id] = PositionState(v[0], v[1], v[2], v[3])
    core.deck = Deck.from_data(data["deck"])
    core.cups = {k: Cup.from_data(v) for k, v in data["cups"].items()}
    core.cleared = {board.cell(c) for c in data["cleared"]}
    core.exits_open = {k: int(v) for k, v in data["exits_open"].items()}
    core.exits_first = {k: int(v) for k, v in data["exits_first"].items()}
    core.heroes = int(data["heroes"])
    core.naval_used = set(data["naval_used"])
    core.attacked = set(data["attacked"])
    core.decision = data["decision"]
    core.queue = list(data["queue"])
    core.ctx = data["ctx"]
    core.card = data["card"]
    core.seen = set(data["seen"])
    core.stats = {k: float(v) for k, v in data["stats"].items()}
    r = data["result"]
    core.result = (
        None
        if r is None
        else Outcome(r[0], r[1], points=tuple((str(a), float(b)) for a, b in r[2]), detail=r[3])
    )
    core.init_caches()
