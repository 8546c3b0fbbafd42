"""What a player sees of an LnL Omaha game, its metrics, and its snapshot
(``dump`` for ``to_json``, ``restore`` for ``state_from_json``). The observation
for agents (numbers, not a view) is in :mod:`omaha.lnl.observation`."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from omaha.kernel.metrics import NEVER, ratio
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View
from omaha.lnl.components.deck import ActionDeck
from omaha.lnl.core import (
    ELIM,
    MAX_CANCELS,
    OFF,
    SIDES,
    TURN_HOURS,
    AdvanceTask,
    Attack,
    LnlCore,
    LossTask,
    MoveGroup,
    OppWindow,
    Phase,
    RetreatTask,
    StrikeTask,
    other,
)
from omaha.lnl.scenario import LnlScenario


# ----------------------------------------------------------------------------
# The view
# ----------------------------------------------------------------------------
def view(core: LnlCore, player: str | None = None) -> View:
    """Everything is open in LnL Omaha (no hidden units); the deck's order is unknown."""
    pieces = []
    for unit in core.scen.units:
        u = unit.idx
        if core.where[u] >= 0:
            where = core.label(core.where[u])
        elif core.where[u] == ELIM:
            where = "eliminated"
        else:
            where = "us_reinforcements" if unit.side == "US" else "german_reinforcements"
        t = unit.type
        marks = []
        if core.dis[u]:
            marks.append("disrupted")
        if core.fired[u]:
            marks.append("fired")
        if core.placement_restricted(u):
            marks.append("landed")
        pieces.append(
            Piece(
                unit.id,
                unit.side,
                unit.id,
                where,
                counter_values(core, u),
                tuple(marks),
                kind=t.symbol,
                echelon=t.echelon,
                steps=(core.steps[u], t.steps) if t.steps > 1 else None,
            )
        )
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


def counter_values(core: LnlCore, u: int) -> str:
    """The factors as the counter prints them (reading R36): HE-AP-range on the face
    showing (full or reduced), and a hard target's armor rating after a slash:
    ``4-1-4`` a rifle platoon, ``6-10-8/4`` a Sherman DD platoon."""
    t = core.u(u).type
    out = f"{core.he(u)}-{core.ap(u)}-{t.range}"
    return f"{out}/{t.armor}" if t.hard else out


# ----------------------------------------------------------------------------
# Metrics
# ----------------------------------------------------------------------------
def not_modelled(scen: LnlScenario) -> dict[str, str]:
    """The declared metrics ``scen`` does not model, each with why: a scenario in which
    no force lands (the Bonus Scenario, Vierville on 7 June) has no first wave, no DD
    tank and no beach to open a draw from, and is not on reading R35's clock, which
    counts from H-hour on 6 June."""
    if any(f.how == "landing" for f in scen.forces):
        return {}
    why = "no landing: no force comes in from the sea (the scenario's set-up)"
    return dict.fromkeys(
        ("first_wave_ashore", "dd_tanks_ashore", "exits_opened", "first_exit_hours"), why
    )


def metrics(core: LnlCore) -> dict[str, float]:
    """The game's declared metrics (see ``LnlGame.metrics``). A share of nothing is NaN,
    not 0; what the scenario does not model (:func:`not_modelled`) is NaN in every game
    of it."""
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
    held = core.held()
    pts = core.points()
    win = core.result is not None and core.result.winner == "US"
    return {
        "us_win": 1.0 if win else 0.0,
        "objectives_held": ratio(len(held), len(core.T.victory)),
        "us_losses": ratio(core.steps_lost["US"], sum(defs[u].type.steps for u in us)),
        "german_losses": ratio(core.steps_lost["German"], sum(defs[u].type.steps for u in ger)),
        "turns_played": float(core.turn),
        "first_wave_ashore": ratio(
            sum(max(0, core.ashore[u]) for u in first), sum(defs[u].type.steps for u in first)
        ),
        "dd_tanks_ashore": ratio(sum(1 for u in tanks if core.ashore[u] >= 0), len(tanks)),
        "exits_opened": float(len(core.exits_open())),
        # the end of the game turn an exit was first open, on the clock of reading R35
        "first_exit_hours": core.first_exit * TURN_HOURS if core.first_exit else NEVER,
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
    } | dict.fromkeys(not_modelled(core.scen), math.nan)


# ----------------------------------------------------------------------------
# Snapshots
# ----------------------------------------------------------------------------
def dump(core: LnlCore) -> dict[str, Any]:
    """The game's fields as JSON-able data with printed labels."""

    def where(u: int) -> str:
        c = core.where[u]
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
        "stage": core.current_phase.value,
        "units": units,
        "control": {core.label(c): s for c, s in enumerate(core.control) if s},
        "deck": core.deck.to_data(),
        "last_card": core.last_card,
        "ngfs_left": core.ngfs_left,
        "cancels": core.cancels,
        "first_exit": core.first_exit,
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
    """Set the game's fields from :func:`dump`'s data (the base fields are already set).

    Malformed data (a key missing, a value of the wrong type, a unit or hex the
    scenario does not have) raises ``ValueError`` naming the key; values of the
    right type that the rules cannot produce are left to :func:`invariants`.
    """
    core.init_fields()
    r = _Reader(core)
    root = r.table(data, "state")
    core.turn = r.number(r.get(root, "turn", "state"), "state.turn")
    core.side = r.choice(r.get(root, "side", "state"), "state.side", SIDES)
    stage = r.choice(r.get(root, "stage", "state"), "state.stage", [p.value for p in Phase])
    core.current_phase = Phase(stage)
    units = r.table(r.get(root, "units", "state"), "state.units")
    for uid, rec in units.items():
        path = f"state.units.{uid}"
        u = r.unit(uid, "state.units")
        rec = r.seq(rec, path)
        if len(rec) != 9:
            raise ValueError(f"{path}: expected 9 values, found {len(rec)}")
        w = r.text(rec[0], f"{path}[0]")
        core.where[u] = OFF if w == "off" else ELIM if w == "elim" else r.cell(w, f"{path}[0]")
        core.steps[u] = r.number(rec[1], f"{path}[1]")
        core.dis[u] = r.flag(rec[2], f"{path}[2]")
        core.fired[u] = r.flag(rec[3], f"{path}[3]")
        core.placed[u] = r.number(rec[4], f"{path}[4]")
        core.moved[u] = r.flag(rec[5], f"{path}[5]")
        core.assaulted[u] = r.flag(rec[6], f"{path}[6]")
        core.ashore[u] = r.number(rec[7], f"{path}[7]")
        core.entered[u] = r.flag(rec[8], f"{path}[8]")
    missing = [x.id for x in core.scen.units if x.id not in units]
    if missing:
        raise ValueError(f"state.units: {', '.join(missing)} missing")
    core.occ = {}
    for u, c in enumerate(core.where):
        if c >= 0:
            core.occ.setdefault(c, []).append(u)
    core.control = [""] * len(core.scen.board)
    control = r.table(r.get(root, "control", "state"), "state.control")
    for label, side in control.items():
        core.control[r.cell(label, "state.control")] = r.choice(
            side, f"state.control.{label}", SIDES
        )
    core.deck = r.deck(r.get(root, "deck", "state"), "state.deck")
    core.last_card = r.text(r.get(root, "last_card", "state"), "state.last_card")
    core.ngfs_left = r.number(r.get(root, "ngfs_left", "state"), "state.ngfs_left")
    cancels = root.get("cancels", 0)  # snapshots before reading R34 have none
    core.cancels = r.number(cancels, "state.cancels")
    first_exit = root.get("first_exit", 0)  # snapshots before reading R35 have none
    core.first_exit = r.number(first_exit, "state.first_exit")
    bonus = r.table(r.get(root, "bonus", "state"), "state.bonus")
    core.bonus = {
        side: r.flag(r.get(bonus, side, "state.bonus"), f"state.bonus.{side}") for side in SIDES
    }
    core.perms = {
        r.text(x, "state.perms[]") for x in r.seq(r.get(root, "perms", "state"), "state.perms")
    }
    core.fired_at = set()
    for i, item in enumerate(r.seq(r.get(root, "fired_at", "state"), "state.fired_at")):
        path = f"state.fired_at[{i}]"
        item = r.seq(item, path)
        if len(item) != 3:
            raise ValueError(f"{path}: expected [firing hex, target hex, kind]")
        core.fired_at.add(
            (
                r.cell(item[0], path),
                r.cell(item[1], path),
                r.choice(item[2], path, ("hard", "soft")),
            )
        )
    due = r.table(r.get(root, "due", "state"), "state.due")
    core.due = {r.unit(k, "state.due"): r.number(v, f"state.due.{k}") for k, v in due.items()}
    core.events_done = {
        r.text(x, "state.events_done[]")
        for x in r.seq(r.get(root, "events_done", "state"), "state.events_done")
    }
    entered_by = r.table(r.get(root, "entered_by", "state"), "state.entered_by")
    core.entered_by = {
        r.cell(start, "state.entered_by"): {
            r.cell(c, f"state.entered_by.{start}"): r.number(v, f"state.entered_by.{start}.{c}")
            for c, v in r.table(m, f"state.entered_by.{start}").items()
        }
        for start, m in entered_by.items()
    }
    core.serial = r.number(r.get(root, "serial", "state"), "state.serial")
    core.place_queue = r.units(r.get(root, "place_queue", "state"), "state.place_queue")
    core.place_mode = r.text(r.get(root, "place_mode", "state"), "state.place_mode")
    lost = r.table(r.get(root, "steps_lost", "state"), "state.steps_lost")
    core.steps_lost = {
        side: r.number(r.get(lost, side, "state.steps_lost"), f"state.steps_lost.{side}")
        for side in SIDES
    }
    res = r.get(root, "result", "state")
    core.result = None if res is None else r.outcome(res, "state.result")
    _restore_tasks(core, r, root)


def _restore_tasks(core: LnlCore, r: _Reader, root: dict[str, Any]) -> None:
    a = r.optional(root, "attack")
    core.attack = (
        None
        if a is None
        else Attack(
            r.choice(r.get(a, "side", "state.attack"), "state.attack.side", SIDES),
            r.choice(
                r.get(a, "mode", "state.attack"),
                "state.attack.mode",
                ("fire", "opp", "bombard", "assault"),
            ),
            r.units(r.get(a, "firers", "state.attack"), "state.attack.firers"),
            -1
            if r.get(a, "target", "state.attack") is None
            else r.cell(a["target"], "state.attack.target"),
            r.choice(
                r.get(a, "kind", "state.attack"), "state.attack.kind", ("", "hard", "soft", "both")
            ),
            r.number(r.get(a, "ngfs", "state.attack"), "state.attack.ngfs"),
            r.flag(r.get(a, "bonus", "state.attack"), "state.attack.bonus"),
        )
    )
    o = r.optional(root, "opp")
    core.opp = (
        None
        if o is None
        else OppWindow(
            r.choice(r.get(o, "side", "state.opp"), "state.opp.side", SIDES),
            r.cell(r.get(o, "cell", "state.opp"), "state.opp.cell"),
            r.units(r.get(o, "movers", "state.opp"), "state.opp.movers"),
        )
    )
    g = r.optional(root, "group")
    if g is None:
        core.group = None
    else:
        spent = r.table(r.get(g, "spent", "state.group"), "state.group.spent")
        start, cell = r.get(g, "start", "state.group"), r.get(g, "cell", "state.group")
        core.group = MoveGroup(
            r.units(r.get(g, "units", "state.group"), "state.group.units"),
            -1 if start is None else r.cell(start, "state.group.start"),
            -1 if cell is None else r.cell(cell, "state.group.cell"),
            {
                r.unit(k, "state.group.spent"): r.number(v, f"state.group.spent.{k}")
                for k, v in spent.items()
            },
            r.number(r.get(g, "serial", "state.group"), "state.group.serial"),
            r.flag(r.get(g, "stepped", "state.group"), "state.group.stepped"),
        )
    lo = r.optional(root, "loss")
    if lo is None:
        core.loss = None
    else:
        hits = r.table(r.get(lo, "hits", "state.loss"), "state.loss.hits")
        core.loss = LossTask(
            r.choice(r.get(lo, "side", "state.loss"), "state.loss.side", SIDES),
            r.units(r.get(lo, "units", "state.loss"), "state.loss.units"),
            r.number(r.get(lo, "remaining", "state.loss"), "state.loss.remaining"),
            {
                r.unit(k, "state.loss.hits"): r.number(v, f"state.loss.hits.{k}")
                for k, v in hits.items()
            },
        )
    rt = r.optional(root, "retreat")
    core.retreat = (
        None
        if rt is None
        else RetreatTask(
            r.choice(r.get(rt, "side", "state.retreat"), "state.retreat.side", SIDES),
            r.units(r.get(rt, "queue", "state.retreat"), "state.retreat.queue"),
        )
    )
    ad = r.optional(root, "advance")
    core.advance = (
        None
        if ad is None
        else AdvanceTask(
            r.choice(r.get(ad, "side", "state.advance"), "state.advance.side", SIDES),
            r.units(r.get(ad, "units", "state.advance"), "state.advance.units"),
            r.cell(r.get(ad, "cell", "state.advance"), "state.advance.cell"),
        )
    )
    st = r.optional(root, "strike")
    core.strike = (
        None
        if st is None
        else StrikeTask(
            r.choice(r.get(st, "side", "state.strike"), "state.strike.side", SIDES),
            r.number(r.get(st, "he", "state.strike"), "state.strike.he"),
            r.choice(
                r.get(st, "event", "state.strike"),
                "state.strike.event",
                ("german_air", "allied_air"),
            ),
        )
    )


class _Reader:
    """Reads a snapshot's game data; anything malformed is a ``ValueError`` naming its key."""

    def __init__(self, core: LnlCore) -> None:
        self.core = core

    @staticmethod
    def table(value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ValueError(f"{path}: expected a table, found {_kind(value)}")
        return value

    @staticmethod
    def seq(value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            raise ValueError(f"{path}: expected a list, found {_kind(value)}")
        return value

    def get(self, table: Any, key: str, path: str) -> Any:
        table = self.table(table, path)
        if key not in table:
            raise ValueError(f"{path}.{key} is missing")
        return table[key]

    def optional(self, root: dict[str, Any], key: str) -> dict[str, Any] | None:
        value = self.get(root, key, "state")
        return None if value is None else self.table(value, f"state.{key}")

    @staticmethod
    def number(value: Any, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{path}: expected a whole number, found {_kind(value)}")
        return value

    @staticmethod
    def flag(value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"{path}: expected true or false, found {_kind(value)}")
        return value

    @staticmethod
    def text(value: Any, path: str) -> str:
        if not isinstance(value, str):
            raise ValueError(f"{path}: expected text, found {_kind(value)}")
        return value

    def choice(self, value: Any, path: str, options: Iterable[str]) -> Any:
        options = tuple(options)
        if self.text(value, path) not in options:
            raise ValueError(f"{path}: {value!r} is not one of {', '.join(map(repr, options))}")
        return value

    def cell(self, label: Any, path: str) -> int:
        label = self.text(label, path)
        try:
            return self.core.scen.board.cell(label)
        except ValueError:
            raise ValueError(f'{path}: "{label}" is not a hex of this map') from None

    def unit(self, uid: Any, path: str) -> int:
        uid = self.text(uid, path)
        u = self.core.scen.unit_index.get(uid)
        if u is None:
            raise ValueError(f'{path}: "{uid}" is not a unit of this scenario')
        return u

    def units(self, value: Any, path: str) -> list[int]:
        return [self.unit(x, f"{path}[{i}]") for i, x in enumerate(self.seq(value, path))]

    def deck(self, value: Any, path: str) -> ActionDeck:
        data = self.table(value, path)
        for key in ("pile", "discards", "top"):
            for i, card in enumerate(self.seq(self.get(data, key, path), f"{path}.{key}")):
                self.text(card, f"{path}.{key}[{i}]")
        self.number(self.get(data, "reshuffles", path), f"{path}.reshuffles")
        return ActionDeck.from_data(data)

    def outcome(self, value: Any, path: str) -> Outcome:
        data = self.table(value, path)
        winner = self.get(data, "winner", path)
        points = []
        for i, item in enumerate(self.seq(self.get(data, "points", path), f"{path}.points")):
            item = self.seq(item, f"{path}.points[{i}]")
            if len(item) != 2 or isinstance(item[1], bool) or not isinstance(item[1], int | float):
                raise ValueError(f"{path}.points[{i}]: expected [name, number]")
            points.append((self.text(item[0], f"{path}.points[{i}]"), float(item[1])))
        return Outcome(
            None if winner is None else self.choice(winner, f"{path}.winner", SIDES),
            self.text(self.get(data, "level", path), f"{path}.level"),
            tuple(points),
            self.text(self.get(data, "detail", path), f"{path}.detail"),
        )


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    return type(value).__name__


# ----------------------------------------------------------------------------
# What a sound state guarantees
# ----------------------------------------------------------------------------
def invariants(core: LnlCore) -> list[str]:
    """What in this state the rules could not have produced (empty when sound).

    Units on land hexes of the map or off it, steps within the counter's, markers
    only on the map, stacking (LnL Omaha: Stacking), one side a hex, the deck a
    permutation of the scenario's cards, steps lost matching the counters, the
    result matching the hexes held, and the decision in progress naming real units.
    """
    out: list[str] = []
    scen = core.scen
    defs = scen.units
    T = core.T
    if not 0 <= core.turn <= scen.turns:
        out.append(f"turn {core.turn} is outside 0..{scen.turns}")
    if (core.turn == 0) != (core.current_phase == "setup"):
        out.append(f"turn {core.turn} in phase '{core.current_phase}'")
    if (core.result is None) == (core.current_phase == "over"):
        out.append("the game is over without a result, or has a result before it is over")
    for u, unit in enumerate(defs):
        where, steps, full = core.where[u], core.steps[u], unit.type.steps
        if where >= 0:
            if where >= T.n or not T.land[where]:
                out.append(f"{unit.id} is on {where}, not a land hex of the map")
            if not 1 <= steps <= full:
                out.append(f"{unit.id} has {steps} steps on the map (1..{full})")
            if not core.entered[u]:
                out.append(f"{unit.id} is on the map but never entered it")
        elif where == ELIM:
            if steps != 0:
                out.append(f"{unit.id} is eliminated with {steps} steps")
        elif where == OFF:
            if steps != full:
                out.append(f"{unit.id} is off the map with {steps} steps (not {full})")
            if core.entered[u]:
                out.append(f"{unit.id} is off the map but entered it before")
        if where < 0 and (core.dis[u] or core.fired[u]):
            out.append(f"{unit.id} has a marker off the map")
        if not 0 <= core.placed[u] <= max(core.turn, 1):  # the set-up landing counts as turn 1
            out.append(f"{unit.id} landed on turn {core.placed[u]} (turn is {core.turn})")
        if not -1 <= core.ashore[u] <= full or (unit.side != "US" and core.ashore[u] != -1):
            out.append(f"{unit.id} came ashore with {core.ashore[u]} steps")
    for cell, here in core.occ.items():
        if sorted(here) != here or any(core.where[x] != cell for x in here):
            out.append(f"the units listed in {core.label(cell)} are not the units there")
        if len({defs[x].side for x in here}) > 1:
            out.append(f"both sides stand in {core.label(cell)}")
        if sum(1 for x in here if not defs[x].type.engineer) > 2:
            out.append(f"more than two counters in {core.label(cell)} (LnL Omaha: Stacking)")
    if sorted(core.occ) != sorted({c for c in core.where if c >= 0}):
        out.append("the hexes listed as occupied are not the units' hexes")
    for c in T.victory:
        if core.control[c] not in SIDES:
            out.append(f"victory hex {core.label(c)} is controlled by nobody")
    cards = sorted(c.id for c in scen.cards)
    held = sorted([*core.deck.top, *core.deck.deck.pile, *core.deck.deck.discards])
    if held != cards:
        strange = sorted(set(held) - set(cards))
        out.append(
            "the deck is not the scenario's cards"
            + (f" ({', '.join(strange)} not among them)" if strange else "")
        )
    if core.last_card and core.last_card not in scen.all_cards:
        out.append(f"last card {core.last_card!r} is not a card of the deck")
    if not 0 <= core.first_exit <= core.turn:
        out.append(f"first exit open at the end of turn {core.first_exit} (0..{core.turn})")
    if not 0 <= core.cancels <= MAX_CANCELS:
        out.append(f"{core.cancels} attacks cancelled this phase (0..{MAX_CANCELS})")
    if not 0 <= core.ngfs_left <= scen.ngfs_packets:
        out.append(f"{core.ngfs_left} NGFS packets left (0..{scen.ngfs_packets})")
    if not core.perms <= {"all", "armor"}:
        out.append(f"unknown movement permissions {sorted(core.perms - {'all', 'armor'})}")
    if not core.events_done <= set(scen.events):
        out.append(f"unknown events done {sorted(core.events_done - set(scen.events))}")
    if core.place_mode not in ("", "setup", "landing", "row"):
        out.append(f"unknown placing mode {core.place_mode!r}")
    if len(set(core.place_queue)) != len(core.place_queue) or any(
        core.where[u] != OFF for u in core.place_queue
    ):
        out.append("the units to place are not distinct units off the map")
    for side in SIDES:
        lost = sum(x.type.steps - core.steps[x.idx] for x in defs if x.side == side)
        if core.steps_lost[side] != lost:
            out.append(f"{side} steps lost {core.steps_lost[side]}, the counters show {lost}")
    if core.result is not None:
        if scen.victory_mode == "hexes":
            expected: tuple[tuple[str, float], ...] = (
                ("US victory hexes", float(len(core.held()))),
            )
        else:
            pts = core.points()
            expected = (("US", float(pts["US"])), ("German", float(pts["German"])))
        if core.result.points != expected:
            out.append(f"the result {core.result} does not match the hexes held")
    if core.serial < 0 or any(
        not 1 <= v <= core.serial for m in core.entered_by.values() for v in m.values()
    ):
        out.append(f"moves numbered outside 1..{core.serial} (the last started)")
    out.extend(_task_problems(core))
    return out


def _task_problems(core: LnlCore) -> list[str]:
    """What is wrong with the decision in progress (the tasks name real units of the
    side that owns them, where the procedure that made them would have put them)."""
    out: list[str] = []
    defs = core.scen.units

    def sided(units: list[int], side: str, what: str) -> None:
        if any(defs[x].side != side for x in units):
            out.append(f"{what}: a unit of the other side")
        if len(set(units)) != len(units):
            out.append(f"{what}: a unit named twice")

    out.extend(_attack_problems(core))
    o, g, lo, rt, ad, sk = core.opp, core.group, core.loss, core.retreat, core.advance, core.strike
    if o is not None:
        sided(o.movers, other(o.side), "opportunity fire")
        if not o.movers:
            out.append("opportunity fire with no mover to fire at")
        if any(core.where[x] != o.cell for x in o.movers):
            out.append("opportunity fire at movers that are not in its hex")
        if core.current_phase != "move" or o.side == core.side:
            out.append("opportunity fire outside the other side's movement phase")
    if g is not None:
        sided(g.units, core.side, "the moving group")
        if core.current_phase != "move":
            out.append(f"units moving in the {core.current_phase} phase")
        if not g.units or any(core.where[x] != g.cell for x in g.units):
            out.append("the moving units are not together in the hex they moved to")
        if any(x not in g.spent for x in g.units):
            out.append("a moving unit without its movement spent")
        elif any(not 0 <= g.spent[x] <= max(defs[x].mf, 1) for x in g.units):
            out.append("a moving unit spent more than its movement factor")
        if not g.stepped and g.start != g.cell:
            out.append("a group that has not stepped is not in the hex it starts from")
        if g.start < 0 and (not g.stepped or len(g.units) != 1):
            out.append("a reinforcement entering with others, or before its first step")
        if any(core.moved[x] for x in g.units):
            out.append("a unit moving again in one movement phase")
        if not 1 <= g.serial <= core.serial:
            out.append(f"move number {g.serial} (the last started is {core.serial})")
    if lo is not None:
        sided(lo.units, lo.side, "the step losses")
        alive = [x for x in lo.units if core.where[x] >= 0]
        if lo.remaining < 1 or not alive:
            out.append("a step loss to take with no step or no unit left")
        if lo.remaining > sum(core.steps[x] for x in alive):
            out.append(f"{lo.remaining} step losses to take from fewer steps")
        if any(x not in lo.units or n < 1 for x, n in lo.hits.items()):
            out.append("step losses noted on a unit not hit")
    if rt is not None:
        sided(rt.queue, rt.side, "the retreat")
        if not rt.queue:
            out.append("a retreat with no unit to retreat")
        if any(core.where[x] < 0 for x in rt.queue):
            out.append("a unit to retreat that is not on the map")
    if ad is not None:
        sided(ad.units, ad.side, "the advance")
        if ad.cell < 0 or not core.T.land[ad.cell]:
            out.append("an advance into a hex that is not land")
    if sk is not None:
        wanted = {"german_air": ("German", 6), "allied_air": ("US", 12)}[sk.event]
        if (sk.side, sk.he) != wanted:
            out.append(f"the {sk.event} strike is {sk.side}'s with {sk.he} HE")
    return out


def _attack_problems(core: LnlCore) -> list[str]:
    """What is wrong with the attack being put together (LnL Omaha: Fire Combat,
    Opportunity Fire, Naval Gunfire Support, Close Assault)."""
    a = core.attack
    if a is None:
        return []
    out = []
    defs = core.scen.units
    if any(core.where[x] < 0 for x in a.firers):
        out.append("an attacker is not on the map")
    if any(defs[x].side != a.side for x in a.firers):
        out.append(f"a {a.side} attack with a unit of the other side")
    if len(set(a.firers)) != len(a.firers):
        out.append("an attack naming a unit twice")
    if a.mode in ("fire", "opp") and not a.firers:
        out.append("a fire attack without a firer")
    if a.mode != "fire" and a.target < 0:
        out.append(f"an attack ({a.mode}) without a target")
    if a.mode == "opp":
        o = core.opp
        if o is None or o.side != a.side or o.cell != a.target:
            out.append("an opportunity attack outside its window")
    elif a.side != core.side:
        out.append(f"a {a.side} attack in the {core.side} player turn")
    phase = {"fire": "fire", "bombard": "fire", "opp": "move", "assault": "assault"}[a.mode]
    if core.current_phase != phase:
        out.append(f"a {a.mode} attack in the {core.current_phase} phase")
    if (a.mode == "assault" or a.target < 0) != (a.kind == ""):
        out.append(f"a {a.mode} attack on targets of kind {a.kind!r}")
    if a.mode == "bombard" and a.firers:
        out.append("a bombardment with firing units")
    if a.ngfs and not (
        a.side == "US" and a.mode in ("fire", "bombard") and a.kind in ("soft", "both")
    ):
        out.append("NGFS packets in an attack they may not join (LnL Omaha: NGFS)")
    if not 0 <= a.ngfs <= core.ngfs_left or (a.mode == "bombard" and a.ngfs < 1):
        out.append(f"an attack with {a.ngfs} NGFS packets ({core.ngfs_left} left)")
    if a.bonus and (not core.bonus[a.side] or a.kind == "hard" or a.mode == "assault"):
        out.append(f"an attack with a +6 HE card {a.side} does not hold")
    return out


# -- search ------------------------------------------------------------------------------
#: What the search agent weighs (``evaluate``): the victory level the victory hexes
#: would earn now, the victory hexes held, and the losses of both sides.
EVAL_LEVEL, EVAL_HEXES, EVAL_LOSSES = 0.5, 0.3, 0.2


def evaluate(core: LnlCore, player: str) -> float:
    """The position for ``player`` in [0, 1] (the German's is 1 less the US's), from
    the victory conditions (LnL Omaha: Winning): the level the victory hexes the US
    holds would earn if the game ended now (a German victory 0, a draw 0.5, a minor US
    victory 0.75, a significant one 1), the share of the victory hexes held, and the
    balance of the losses (the share of its steps each side has lost). In the bonus
    scenario each side's points stand for the hexes (the US share of all points)."""
    defs = core.scen.units
    if core.scen.victory_mode == "hexes":
        n, total = len(core.held()), len(core.T.victory)
        level = 1.0 if n >= total else 0.75 if n >= 4 else 0.5 if n == 3 else 0.0
        share = n / total if total else 0.0
    else:
        pts = core.points()
        whole = pts["US"] + pts["German"]
        share = pts["US"] / whole if whole else 0.5
        level = 1.0 if pts["US"] > pts["German"] else 0.0 if pts["US"] < pts["German"] else 0.5
    steps = {side: 0 for side in core.steps_lost}
    for u in defs:
        steps[u.side] = steps.get(u.side, 0) + u.type.steps
    lost = {side: core.steps_lost[side] / max(1, steps.get(side, 0)) for side in core.steps_lost}
    balance = 0.5 + 0.5 * (lost.get("German", 0.0) - lost.get("US", 0.0))
    us = EVAL_LEVEL * level + EVAL_HEXES * share + EVAL_LOSSES * balance
    return us if player == "US" else 1.0 - us


#: Decisions worth a search: a fire or assault being opened or aimed, a move, an
#: opportunity fire, an air strike, an advance or a retreat; the set-up placements,
#: the step losses and the firers added to an attack already aimed are not.
SEARCHED_KINDS = frozenset(
    {"fire", "move", "assault", "opportunity fire", "air strike", "advance", "retreat"}
)


def worth_search(core: LnlCore, kind: str) -> bool:
    attack = core.attack
    return kind in SEARCHED_KINDS and (attack is None or attack.target < 0)
