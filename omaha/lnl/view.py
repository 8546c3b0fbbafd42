"""What a player sees of an LnL Omaha game, its metrics, and its snapshot
(``dump`` for ``to_json``, ``restore`` for ``state_from_json``)."""

from __future__ import annotations

import math
from typing import Any

from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View
from omaha.lnl.components.deck import ActionDeck
from omaha.lnl.core import (
    ELIM,
    OFF,
    AdvanceTask,
    Attack,
    LnlCore,
    LossTask,
    MoveGroup,
    OppWindow,
    RetreatTask,
    StrikeTask,
)


# ----------------------------------------------------------------------------
# The view
# ----------------------------------------------------------------------------
def view(core: LnlCore, player: str | None = None) -> View:
    """Everything is open in LnL Omaha (no hidden units); the deck's order is unknown."""
    pieces = []
    for unit in core.scen.units:
        u = unit.idx
        if core.loc[u] >= 0:
            where = core.label(core.loc[u])
        elif core.loc[u] == ELIM:
            where = "eliminated"
        else:
            where = "us_reinforcements" if unit.side == "US" else "german_reinforcements"
        t = unit.type
        vals = f"HE{core.he(u)} AP{core.ap(u)} R{t.range} CA{core.ca(u)} MF{unit.mf}"
        if unit.hard:
            vals += f" A{t.armor}"
        marks = []
        if core.steps[u] == 1:
            marks.append("reduced")
        if core.dis[u]:
            marks.append("disrupted")
        if core.fired[u]:
            marks.append("fired")
        pieces.append(Piece(unit.id, unit.side, unit.id, where, vals, tuple(marks)))
    control = [
        Mark(core.label(c), f"{core.control[c] or 'nobody'} control", "control")
        for c in core.T.victory
    ]
    tracks = [
        ("Turn", f"{core.turn} of {core.scen.turns}"),
        ("NGFS", f"{6 * core.ngfs_left} HE"),
        ("Deck", f"{len(core.deck)} cards"),
        ("US hexes", str(len(core.held()))),
    ]
    for side, ready in sorted(core.bonus.items()):
        if ready:
            tracks.append((f"{side} +6 HE", "ready"))
    notes = []
    if core.last_card:
        c = core.scen.all_cards[core.last_card]
        notes.append(f"last event card {c.id}: {core.scen.events[c.event].name}")
    return core.make_view(player, pieces=pieces, marks=control, tracks=tracks, notes=notes)


# ----------------------------------------------------------------------------
# Metrics
# ----------------------------------------------------------------------------
def metrics(core: LnlCore) -> dict[str, float]:
    """The game's declared metrics (see ``LnlGame.metrics``)."""
    defs = core.scen.units
    us = [u for u in range(len(defs)) if defs[u].side == "US" and core.entered[u]]
    ger = [u for u in range(len(defs)) if defs[u].side == "German" and core.entered[u]]
    first = [
        u for f in core.scen.forces if f.when == "setup" and f.how == "landing" for u in f.units
    ]
    tanks = [
        u
        for f in core.scen.forces
        if f.how == "landing"
        for u in f.units
        if defs[u].armor_unit and core.entered[u]
    ]
    exits: dict[str, list[int]] = {}
    for c in range(core.T.n):
        ex = core.scen.board.prop(c, "exit")
        if isinstance(ex, str):
            exits.setdefault(ex, []).append(c)
    held = core.held()
    pts = core.points()
    win = core.result is not None and core.result.winner == "US"
    return {
        "us_win": 1.0 if win else 0.0,
        "objectives_held": len(held) / max(1, len(core.T.victory)),
        "us_losses": core.steps_lost["US"] / max(1, sum(defs[u].type.steps for u in us)),
        "german_losses": core.steps_lost["German"] / max(1, sum(defs[u].type.steps for u in ger)),
        "turns_played": float(core.turn),
        "first_wave_ashore": (
            sum(max(0, core.ashore[u]) for u in first) / sum(defs[u].type.steps for u in first)
            if first
            else math.nan  # no landing in this scenario (Vierville)
        ),
        "dd_tanks_ashore": (
            sum(1 for u in tanks if core.ashore[u] >= 0) / len(tanks) if tanks else math.nan
        ),
        "exits_opened": float(
            sum(1 for cells in exits.values() if all(core.control[c] == "US" for c in cells))
        ),
        "victory_hexes_held": float(len(held)),
        "us_points": float(pts["US"]),
        "fortifications_taken": float(
            sum(1 for c in range(core.T.n) if core.T.fort[c] and core.control[c] == "US")
        ),
        "us_steps_lost": float(core.steps_lost["US"]),
        "german_steps_lost": float(core.steps_lost["German"]),
        "at916_entered": 1.0
        if any(core.entered[u.idx] for u in defs if u.company == "916th AT")
        else 0.0,
    }


# ----------------------------------------------------------------------------
# Snapshots
# ----------------------------------------------------------------------------
def dump(core: LnlCore) -> dict[str, Any]:
    """The game's fields as JSON-able data with printed labels."""

    def where(u: int) -> str:
        c = core.loc[u]
        return core.label(c) if c >= 0 else ("off" if c == OFF else "elim")

    units = {
        core.uid(u): [
            where(u),
            core.steps[u],
            core.dis[u],
            core.fired[u],
            core.placed[u],
            core.moved[u],
            core.assaulted[u],
            core.ashore[u],
            core.entered[u],
        ]
        for u in range(len(core.scen.units))
    }
    data: dict[str, Any] = {
        "turn": core.turn,
        "side": core.side,
        "stage": core.stage,
        "units": units,
        "control": {core.label(c): s for c, s in enumerate(core.control) if s},
        "deck": core.deck.to_data(),
        "last_card": core.last_card,
        "ngfs_left": core.ngfs_left,
        "bonus": dict(core.bonus),
        "perms": sorted(core.perms),
        "fired_at": sorted([core.label(a), core.label(b), k] for a, b, k in core.fired_at),
        "due": {core.uid(u): t for u, t in sorted(core.due.items())},
        "events_done": sorted(core.events_done),
        "entered_by": {
            core.label(s): {core.label(c): v for c, v in sorted(m.items())}
            for s, m in sorted(core.entered_by.items())
        },
        "serial": core.serial,
        "place_queue": core.ids(core.place_queue),
        "place_mode": core.place_mode,
        "steps_lost": dict(core.steps_lost),
        "result": None
        if core.result is None
        else {
            "winner": core.result.winner,
            "level": core.result.level,
            "points": [list(p) for p in core.result.points],
            "detail": core.result.detail,
        },
    }
    data.update(_dump_tasks(core))
    return data


def _dump_tasks(core: LnlCore) -> dict[str, Any]:
    a, o, g = core.attack, core.opp, core.group
    return {
        "attack": None
        if a is None
        else {
            "side": a.side,
            "mode": a.mode,
            "firers": core.ids(a.firers),
            "target": core.label(a.target) if a.target >= 0 else None,
            "kind": a.kind,
            "ngfs": a.ngfs,
            "bonus": a.bonus,
        },
        "opp": None
        if o is None
        else {"side": o.side, "cell": core.label(o.cell), "movers": core.ids(o.movers)},
        "group": None
        if g is None
        else {
            "units": core.ids(g.units),
            "start": core.label(g.start) if g.start >= 0 else None,
            "cell": core.label(g.cell) if g.cell >= 0 else None,
            "spent": {core.uid(x): v for x, v in sorted(g.spent.items())},
            "serial": g.serial,
            "stepped": g.stepped,
        },
        "loss": None
        if core.loss is None
        else {
            "side": core.loss.side,
            "units": core.ids(core.loss.units),
            "remaining": core.loss.remaining,
            "hits": {core.uid(x): v for x, v in sorted(core.loss.hits.items())},
        },
        "retreat": None
        if core.retreat is None
        else {"side": core.retreat.side, "queue": core.ids(core.retreat.queue)},
        "advance": None
        if core.advance is None
        else {
            "side": core.advance.side,
            "units": core.ids(core.advance.units),
            "cell": core.label(core.advance.cell),
        },
        "strike": None
        if core.strike is None
        else {"side": core.strike.side, "he": core.strike.he, "event": core.strike.event},
    }


def restore(core: LnlCore, data: dict[str, Any]) -> None:
    """Set the game's fields from :func:`dump`'s data (the base fields are already set)."""
    core.init_fields()
    b = core.scen.board
    ix = core.scen.unit_index
    core.turn = data["turn"]
    core.side = data["side"]
    core.stage = data["stage"]
    for uid, rec in data["units"].items():
        u = ix[uid]
        w = rec[0]
        core.loc[u] = OFF if w == "off" else ELIM if w == "elim" else b.cell(w)
        (
            core.steps[u],
            core.dis[u],
            core.fired[u],
            core.placed[u],
            core.moved[u],
            core.assaulted[u],
            core.ashore[u],
            core.entered[u],
        ) = rec[1:]
    core.occ = {}
    for u, c in enumerate(core.loc):
        if c >= 0:
            core.occ.setdefault(c, []).append(u)
    core.control = [""] * len(b)
    for label, side in data["control"].items():
        core.control[b.cell(label)] = side

    core.deck = ActionDeck.from_data(data["deck"])
    core.last_card = data["last_card"]
    core.ngfs_left = data["ngfs_left"]
    core.bonus = dict(data["bonus"])
    core.perms = set(data["perms"])
    core.fired_at = {(b.cell(x), b.cell(y), k) for x, y, k in data["fired_at"]}
    core.due = {ix[k]: v for k, v in data["due"].items()}
    core.events_done = set(data["events_done"])
    core.entered_by = {
        b.cell(s): {b.cell(c): v for c, v in m.items()} for s, m in data["entered_by"].items()
    }
    core.serial = data["serial"]
    core.place_queue = [ix[x] for x in data["place_queue"]]
    core.place_mode = data["place_mode"]
    core.steps_lost = dict(data["steps_lost"])
    r = data["result"]
    core.result = (
        None
        if r is None
        else Outcome(
            r["winner"],
            r["level"],
            tuple((str(k), float(v)) for k, v in r["points"]),
            r["detail"],
        )
    )
    _restore_tasks(core, data)


def _restore_tasks(core: LnlCore, data: dict[str, Any]) -> None:
    ix = core.scen.unit_index
    b = core.scen.board
    a = data["attack"]
    core.attack = (
        None
        if a is None
        else Attack(
            a["side"],
            a["mode"],
            [ix[x] for x in a["firers"]],
            b.cell(a["target"]) if a["target"] is not None else -1,
            a["kind"],
            a["ngfs"],
            a["bonus"],
        )
    )
    o = data["opp"]
    core.opp = (
        None if o is None else OppWindow(o["side"], b.cell(o["cell"]), [ix[x] for x in o["movers"]])
    )
    g = data["group"]
    core.group = (
        None
        if g is None
        else MoveGroup(
            [ix[x] for x in g["units"]],
            b.cell(g["start"]) if g["start"] is not None else -1,
            b.cell(g["cell"]) if g["cell"] is not None else -1,
            {ix[k]: v for k, v in g["spent"].items()},
            g["serial"],
            g["stepped"],
        )
    )
    lo = data["loss"]
    core.loss = (
        None
        if lo is None
        else LossTask(
            lo["side"],
            [ix[x] for x in lo["units"]],
            lo["remaining"],
            {ix[k]: v for k, v in lo["hits"].items()},
        )
    )
    r = data["retreat"]
    core.retreat = None if r is None else RetreatTask(r["side"], [ix[x] for x in r["queue"]])
    ad = data["advance"]
    core.advance = (
        None
        if ad is None
        else AdvanceTask(ad["side"], [ix[x] for x in ad["units"]], b.cell(ad["cell"]))
    )
    s = data["strike"]
    core.strike = None if s is None else StrikeTask(s["side"], s["he"], s["event"])
