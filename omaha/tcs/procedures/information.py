"""What each side of TCS Omaha has seen, and worlds that agree with it (READINGS.md,
"Information: what is hidden from whom, and how a resample draws it").

Counters are face up, so both sides see every piece on the map. The German does not
see the US landing plan until it lands (where its boats head, the leaders aboard, the
NFSTs), the LCT(R) targets (2.2a) or the transports assigned (2.1m); the US does not
see the German release (3.1: the table's rolls, what the German takes, the batteries
and their fires) or the German op sheets (3.2). The observation and the view hide the
same (:mod:`omaha.tcs.observation`, :mod:`omaha.tcs.view`).

:func:`event_seen_by` and :func:`action_seen_by` say what a side saw of the log and of
the other side's decisions; :func:`hidden_parts` lists what it does not know;
:func:`redraw` draws that afresh on a resampled copy: the rolls from the rules' dice,
the other side's choices uniformly over what the rules allow and what was seen leaves
open.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from omaha.kernel.actions import Action
from omaha.kernel.dice import Dice
from omaha.kernel.events import Event
from omaha.kernel.information import shuffled
from omaha.tcs.actions import (
    AddLca,
    AssignNfst,
    ClearPlan,
    CloseBoat,
    CommitPlan,
    EndMissions,
    EndPlan,
    EndRockets,
    EndTransports,
    Load,
    LoadSteps,
    NoRelease,
    OpenBoat,
    OpenTransport,
    Release,
    ReleaseBattery,
    Rockets,
    RollVariable,
    UsePlan,
)
from omaha.tcs.components.plan import (
    ASSAULT_WAVES,
    TRANSPORT,
    PlanError,
    PlannedBoat,
    check_plan,
)
from omaha.tcs.components.tables import DD
from omaha.tcs.core import ABOARD, AWAIT, Phase, TcsCore

#: The marker of a detail hidden from the side reading the event.
HIDDEN = "?"
#: Why a release named by the Variable Reinforcement Table says so (3.1).
_BY_TABLE = "Variable Reinforcement Table"

# ------------------------------------------------------------------ what each side saw
#: German release events the US never sees (3.1, 3.2): the table's rolls, what the
#: German took, a battery released, a release lost, the op-sheet rolls.
_GERMAN_SECRETS = frozenset(
    (
        "tcs.release.roll",
        "tcs.release.battery",
        "tcs.release.variable",
        "tcs.release.lost",
        "tcs.release.none",
        "tcs.sheet.german",
    )
)
#: US plan events whose details the German does not see (2.1a, 2.1m, 2.2a, 2.3f,
#: 2.6d): that they happened, not what they hold.
_US_DETAILS = {
    "tcs.plan.commit": ("name", "waves", "opsheets"),
    "tcs.lctr.targets": ("targets",),
    "tcs.transport.planned": ("boats",),
    "tcs.transport.assigned": ("boats",),
    "tcs.leaders.selection": ("eligible", "drawn"),
    "tcs.nfst.assigned": ("teams",),
}
#: US plan events the German does not see at all: a schematic cleared.
_US_SECRETS = frozenset(("tcs.plan.cleared",))
#: The US decisions the German does not see: the landing schematic, the whole plans,
#: the LCT(R) targets, the NFSTs and the transports (what they choose is revealed as
#: it lands, through the events).
_US_HIDDEN_ACTIONS = (
    UsePlan, CommitPlan, OpenBoat, AddLca, Load, LoadSteps, CloseBoat, EndPlan, ClearPlan,
    Rockets, EndRockets, AssignNfst, OpenTransport, EndTransports,
)  # fmt: skip
#: The German decisions the US does not see: the release (3.1), and a battery fire
#: phase closed (that the German had a battery ready is the secret; a mission fired
#: is seen where it lands).
_GERMAN_HIDDEN_ACTIONS = (Release, ReleaseBattery, RollVariable, NoRelease, EndMissions)
#: The same decisions by their notation's first words, for the kernel's log of a
#: decision that had one choice (``kernel.forced``, which names the action).
_HIDDEN_WORDS = {
    "German": tuple(a.notation.split("{")[0] for a in _US_HIDDEN_ACTIONS),
    "US": tuple(a.notation.split("{")[0] for a in _GERMAN_HIDDEN_ACTIONS),
}


def event_seen_by(core: TcsCore, event: Event, player: str) -> Event | None:
    """What ``player`` saw of ``event`` (idempotent: a masked event masks to itself)."""
    kind = event.kind
    if kind == "kernel.forced":
        forced = str(event.details.get("action"))
        mine = event.player == player
        return event if mine or not forced.startswith(_HIDDEN_WORDS[player]) else None
    if player == "US":
        if kind in _GERMAN_SECRETS:
            return None
        if kind == "tcs.release":
            formation = str(event.details.get("formation"))
            # a reserve company's release is seen on the map (its unreleased marker
            # goes); a reinforcement's only when it enters (tcs.enter)
            return event if _status(core, formation) == "reserve" else None
        return event
    if kind in _US_SECRETS:
        return None
    hidden = _US_DETAILS.get(kind)
    if hidden is None:
        return event
    details = dict(event.details)
    details.update((k, HIDDEN) for k in hidden if k in details)
    return event._replace(details=details)


def action_seen_by(action: Action, actor: str | None, player: str) -> str | None:
    """The notation of ``action``, or None when ``player`` does not see it."""
    if actor == player:
        return str(action)
    if player == "German" and isinstance(action, _US_HIDDEN_ACTIONS):
        return None
    if player == "US" and isinstance(action, _GERMAN_HIDDEN_ACTIONS):
        return None
    return str(action)


def _status(core: TcsCore, formation: str) -> str | None:
    german = core.scenario.german
    try:
        return german.formation(formation).status
    except KeyError:
        return None


# ------------------------------------------------------------------ hidden parts
def hidden_parts(core: TcsCore, player: str) -> tuple[object, ...]:
    """What ``player`` does not know of the position, as comparable values."""
    if player == "US":
        return _german_parts(core)
    return _us_parts(core)


def redraw(core: TcsCore, player: str, dice: Dice, passed: Callable[[str], bool]) -> None:
    """Draw afresh, on a resampled copy, what ``player`` does not know. ``passed(step)``
    says whether the current turn's step of that name has begun."""
    if player == "US":
        _redraw_german(core, dice, passed)
    else:
        _redraw_us(core, dice)


# ------------------------------------------------------------------ the US plan (German)
def _us_parts(core: TcsCore) -> tuple[object, ...]:
    """The US's secrets (what the German does not know): the LCT(R) targets not yet
    fired, the boxes of the boats at sea, the sectors of the op sheets at sea, the
    transports' boxes, the leaders aboard and the NFSTs not landed."""
    plan = core.plan
    parts: list[object] = []
    if not core.stats.get("lctr_fired") and core.lctr_targets:
        parts.append(("lctr", tuple(core.lctr_targets)))
    if plan is not None:
        waves = _unlanded_waves(core)
        parts.extend(("boat", b.id, b.box) for b in plan.boats if b.wave in waves)
        parts.extend(("group", g.id, g.box) for g in plan.groups if g.wave in waves)
        at_sea = (AWAIT, ABOARD)
        parts.extend(
            ("sheet", o.id, o.sector)
            for o in plan.opsheets
            if all(core.where[core.unit_index(u)] in at_sea for u in o.units)
        )
    for land in _unlanded_transports(core):
        parts.extend(("transport", b.id, b.box) for b in core.transports[land])
    if core.transport_open is not None:
        parts.append(("loading", core.transport_open["box"]))
    for k, st in enumerate(core.leader_status):
        if st == "aboard":
            parts.append(("leader", k, core.leader_boat[k]))
    parts.extend(("nfst", bn, v[0]) for bn, v in sorted(core.nfst.items()) if v[1] == "assigned")
    return tuple(parts)


def _unlanded_waves(core: TcsCore) -> set[int]:
    """The waves of the plan still at sea: the assault waves that have not begun to run
    in (2.1a: no wave event yet), and the plan's first transport landing until it is
    assigned (2.1m: then it is one of ``core.transports``)."""
    begun = {e.details.get("wave") for e in core.log if e.kind == "tcs.wave.begin"}
    waves = {w for w in ASSAULT_WAVES if w not in begun}
    if not core.stats.get("first_transport"):
        waves.add(TRANSPORT)
    return waves


def _unlanded_transports(core: TcsCore) -> list[str]:
    """Transport landings assigned that have not begun to land (2.1m)."""
    turns = {t.label: k for k, t in enumerate(core.scenario.turns)}
    begun_now = any(
        e.kind == "tcs.transport.begin" and e.turn == core.turn_label for e in _this_turn(core)
    )
    out = []
    for land in sorted(core.transports):
        k = turns[land]
        if k > core.turn or (k == core.turn and not begun_now):
            out.append(land)
    return out


def _this_turn(core: TcsCore) -> list[Event]:
    """The log's events of the current turn (read back from the end)."""
    out = []
    label = core.turn_label
    for e in reversed(core.log):
        if e.turn != label:
            break
        out.append(e)
    return out


def _redraw_us(core: TcsCore, dice: Dice) -> None:
    """The German's resample: the LCT(R) targets not yet fired, where each boat of the
    plan not yet landed heads, the transports' boxes, the leaders aboard and the NFSTs,
    each uniform over what the rules allow given the rest of the plan."""
    scen = core.scenario
    beach = scen.beach
    if not core.stats.get("lctr_fired") and core.lctr_targets:
        allowed = [
            c
            for c in range(len(scen.board))
            if c not in beach.sea_always and beach.lctr_target_allowed(c)
        ]
        core.lctr_targets = [allowed[dice.pick(len(allowed))] for _ in core.lctr_targets]
        if core.plan is not None and core.plan.lctr:
            labels = tuple(core.label(c) for c in core.lctr_targets)
            core.plan = attrs.evolve(core.plan, lctr=labels)
    if core.plan is not None:
        _redraw_boxes(core, dice)
    transport_boxes = sorted(beach.transport_boxes)
    for land in _unlanded_transports(core):
        boats = []
        for b in core.transports[land]:
            box = transport_boxes[dice.pick(len(transport_boxes))]
            boats.append(attrs.evolve(b, box=box))
            for u, _ in b.load:
                core.planned_beach[core.unit_index(u)] = beach.transport_boxes[box]
        core.transports[land] = boats
        _share_planned_transports(core, boats)
    if core.transport_open is not None:
        core.transport_open["box"] = transport_boxes[dice.pick(len(transport_boxes))]
    _redraw_leaders(core, dice)
    _redraw_nfsts(core, dice)


def _share_planned_transports(core: TcsCore, boats: Sequence[PlannedBoat]) -> None:
    """The plan's first transport landing, once assigned, is the same boats (2.1m)."""
    plan = core.plan
    if plan is None:
        return
    by_id = {b.id: b for b in boats}
    if any(b.id in by_id and b.wave == TRANSPORT for b in plan.boats):
        core.plan = attrs.evolve(plan, boats=tuple(by_id.get(b.id, b) for b in plan.boats))


def _redraw_boxes(core: TcsCore, dice: Dice) -> None:
    """Each boat (or LCA group) of a wave not yet landed heads for a box drawn uniformly
    among those the plan rules allow it (2.1h, 2.1m; an op sheet's beach, 2.3a; the
    29th in a strictly historical game, 2.7a), and each op sheet none of whose units has
    landed names a sector of its beach drawn uniformly (2.3a); the whole still passes
    check_plan."""
    plan = core.plan
    assert plan is not None
    scen = core.scenario
    beach, rules = scen.beach, scen.rules
    waves = _unlanded_waves(core)
    if not waves:
        return
    sheet_beach = {u: beach.sector(o.sector).beach for o in plan.opsheets for u in o.units}
    boxes: dict[str, str] = {}  # boat or group id -> new box

    def draw(key: str, wave: int, units: Iterable[str]) -> None:
        pool = beach.transport_boxes if wave == TRANSPORT else beach.assault_boxes
        options = sorted(pool)
        for u in units:
            want = sheet_beach.get(u)
            if want is not None:
                options = [x for x in options if pool[x] == want]
            if rules.historical_29th and wave != TRANSPORT and scen.oob.unit(u).regiment == "116":
                options = [x for x in options if pool[x] in ("Dog Red", "Easy Green")]
        if options:
            boxes[key] = options[dice.pick(len(options))]

    for g in plan.groups:
        if g.wave in waves:
            draw(g.id, g.wave, (u for u, _ in g.pool))
    for b in plan.boats:
        if b.wave in waves and b.group is None:
            draw(b.id, b.wave, (u for u, _ in b.load))
    groups = tuple(attrs.evolve(g, box=boxes.get(g.id, g.box)) for g in plan.groups)
    group_box = {g.id: g.box for g in groups}
    new_boats = tuple(
        attrs.evolve(b, box=group_box[b.group] if b.group is not None else boxes.get(b.id, b.box))
        for b in plan.boats
    )
    at_sea = {AWAIT, ABOARD}
    sheets = []
    for o in plan.opsheets:  # a sheet none of whose units landed names any sector of its beach
        if all(core.where[core.unit_index(u)] in at_sea for u in o.units):
            sectors = beach.sectors_of_beach(beach.sector(o.sector).beach)
            o = attrs.evolve(o, sector=sectors[dice.pick(len(sectors))].name)
        sheets.append(o)
    drawn = attrs.evolve(plan, boats=new_boats, groups=groups, opsheets=tuple(sheets))
    try:
        check_plan(drawn, rules)
    except PlanError:  # a rule the draw does not see: the plan as it was
        return
    core.plan = drawn
    oob = scen.oob
    for b in new_boats:
        if b.wave in waves:
            pool = beach.transport_boxes if b.wave == TRANSPORT else beach.assault_boxes
            for u, _ in b.load:
                core.planned_beach[oob.index(u)] = pool[b.box]
    for g in groups:
        if g.wave in waves:
            for u, _ in g.pool:
                core.planned_beach[oob.index(u)] = beach.assault_boxes[g.box]


def _carriers(core: TcsCore) -> dict[int, list[str]]:
    """TCS Omaha 2.3f: each leader's possible boats, those carrying units of his command
    (not a swimming DD), as the selection drew them."""
    plan = core.plan
    out: dict[int, list[str]] = {}
    if plan is None:
        return out
    oob = core.scenario.oob
    unit_boats = plan.unit_boats()
    swimming = {b.id for b in plan.boats if b.kind == DD}
    order = {b.id: k for k, b in enumerate(plan.boats)}
    for ld in oob.leaders:
        boats = {
            b
            for uid, bids in unit_boats.items()
            if ld.commands_unit(oob.unit(uid))
            for b in bids
            if b not in swimming
        }
        if boats:
            out[ld.index] = sorted(boats, key=order.__getitem__)
    return out


def _redraw_leaders(core: TcsCore, dice: Dice) -> None:
    """TCS Omaha 2.3f: the leaders still aboard were drawn from a cup and ride a random
    boat of their command. Drawn anew: as many leaders, from those the German cannot
    rule out (drawn leaders not yet landed, or never drawn), each on a boat of his not
    yet landed; a draw is kept with the chance its boats had to be still at sea (so the
    draw is the cup's, given that nothing landed), tried a bounded number of times."""
    aboard = [k for k, st in enumerate(core.leader_status) if st == "aboard"]
    plan = core.plan
    if not aboard or plan is None:
        return
    waves = _unlanded_waves(core)
    at_sea = {b.id for b in plan.boats if b.wave in waves}
    for land in _unlanded_transports(core):
        at_sea.update(b.id for b in core.transports[land])
    carriers = _carriers(core)
    candidates = [
        k
        for k, boats in sorted(carriers.items())
        if core.leader_status[k] in ("aboard", "unselected") and any(b in at_sea for b in boats)
    ]
    if any(core.leader_boat[k] not in at_sea for k in aboard) or len(candidates) < len(aboard):
        return  # a leader on a boat running in now: seen in a moment, kept
    chosen = candidates[: len(aboard)]
    for _ in range(100):
        chosen = shuffled(candidates, dice)[: len(aboard)]
        if all(dice.pick(len(carriers[k])) < sum(b in at_sea for b in carriers[k]) for k in chosen):
            break
    for k in aboard:
        core.set_leader_status(k, "unselected")
        core.leader_boat[k] = None
    for k in chosen:
        boats = [b for b in carriers[k] if b in at_sea]
        core.set_leader_status(k, "aboard")
        core.leader_boat[k] = boats[dice.pick(len(boats))]


def _redraw_nfsts(core: TcsCore, dice: Dice) -> None:
    """TCS Omaha 2.6d: an NFST not yet landed rides any infantry unit of its battalion
    not yet ashore (uniform)."""
    units = core.scenario.oob.units
    for bn, entry in sorted(core.nfst.items()):
        if entry[1] != "assigned":
            continue
        options = [
            u.id
            for u in units
            if u.battalion == bn
            and u.type.name == "infantry"
            and core.where[core.unit_index(u.id)] in (AWAIT, ABOARD)
        ]
        if options:
            entry[0] = options[dice.pick(len(options))]


# ------------------------------------------------------------------ the German release (US)
def _german_parts(core: TcsCore) -> tuple[object, ...]:
    """The German's secrets (what the US does not know): the reinforcements released
    and not entered, the batteries and their fires, the op sheets, and the roll of a
    release he is choosing now."""
    if core.scenario.release is None:
        return ()
    parts: list[object] = [
        ("released", tuple(sorted(f for f in core.released if _hidden_release(core, f)))),
        ("batteries", tuple(sorted(core.batteries.items()))),
        ("sheets", tuple(sorted(core.german_sheets))),
    ]
    if "result" in core.sd and core.wait is not None and core.wait[0] == "release":
        parts.append(("roll", core.sd["result"]))
    return tuple(parts)


def _hidden_release(core: TcsCore, formation: str) -> bool:
    """A release the US has not seen: a reinforcement not yet entered (3.1)."""
    return _status(core, formation) == "reinforcement" and formation not in core.entered


def _redraw_german(core: TcsCore, dice: Dice, passed: Callable[[str], bool]) -> None:
    """The US's resample: the German release steps whose outcome the US has not seen,
    each rolled anew on the Variable Reinforcement Table and the German's choice drawn
    uniformly among what the rules offer and leaves no trace the US would have seen
    (a rejection: a reserve's release, a reinforcement that would have entered); then
    the op sheets of the German formations, rolled anew for the turns each could try."""
    scen = core.scenario
    table = scen.release
    if table is None:
        return
    turns = {t.label: k for k, t in enumerate(scen.turns)}
    now = -1 if core.in_setup else core.turn
    last = now if passed("release") else now - 1
    steps = list(range(last + 1))
    wait = core.wait
    entering = wait is not None and wait[0] == "entry"
    if entering:  # the German places a released reinforcement now: kept, seen at once
        _take_step(steps, now)
    # the outcomes the US saw: a reserve released by the table, a reinforcement entering
    for e in core.log:
        by_table = e.kind == "tcs.release" and e.details.get("why") == _BY_TABLE
        if by_table or e.kind == "tcs.enter":
            _take_step(steps, turns.get(e.turn, -1))
    fired = _batteries_seen(core)
    if wait is not None and wait[0] == "missions" and wait[1] == "German":
        for b in core.batteries:  # the German fires now: its batteries are kept
            fired.setdefault(b, now)
    for turn in sorted(fired.values()):
        _take_step(steps, turn)
    # what the US has not seen is put back, then drawn anew
    if not entering:
        core.released = {f for f in core.released if not _hidden_release(core, f)}
    core.batteries = {b: n for b, n in core.batteries.items() if b in fired}
    pending_now = not passed("german entry")
    waiting = wait is not None and wait[0] == "release"
    for t in steps:
        _draw_release(core, dice, current=t == now and pending_now, waiting=t == now and waiting)
    _draw_sheets(core, dice, passed, turns)


def _take_step(steps: list[int], turn: int) -> None:
    """The latest release step at or before ``turn`` still open: its outcome was seen."""
    for t in reversed(steps):
        if t <= turn:
            steps.remove(t)
            return


def _batteries_seen(core: TcsCore) -> dict[str, int]:
    """German batteries the US saw fire (3.1), with the turn they first did."""
    turns = {t.label: k for k, t in enumerate(core.scenario.turns)}
    ids = {b.id for b in core.scenario.german.batteries}
    out: dict[str, int] = {}
    for e in core.log:
        if e.kind == "tcs.mission" and e.details.get("battery") in ids:
            out.setdefault(str(e.details["battery"]), turns.get(e.turn, 0))
    return out


def _draw_release(core: TcsCore, dice: Dice, *, current: bool, waiting: bool) -> None:
    """One release step the US did not see, drawn anew (3.1). ``current``: this turn's,
    whose reinforcement has not had its chance to enter; ``waiting``: the German is
    choosing now, so the roll gave a release."""
    scen = core.scenario
    table = scen.release
    assert table is not None
    german = scen.german
    for _ in range(100):
        result = table.result(sum(dice.d6() for _ in range(table.dice)))
        if waiting and result == "none":
            continue
        if waiting:
            core.sd["result"] = result
            return  # the German's choice is still to come
        if result == "none":
            return
        in_play = scen.german_formations
        reserves = [
            f.id
            for f in german.formations
            if f.status == "reserve" and f.id in in_play and f.id not in core.released
        ]
        batteries = [b.id for b in german.batteries if b.id not in core.batteries]
        options: list[tuple[str, str]] = [("reserve", f) for f in reserves]
        options += [("battery", b) for b in batteries]
        if result == "variable":
            options.append(("variable", ""))
        if reserves or batteries:
            options.append(("none", ""))
        if not options:
            return
        kind, name = options[dice.pick(len(options))]
        if kind == "reserve":
            continue  # the US would have seen it
        if kind == "battery":
            core.batteries[name] = german.battery(name).fires
            return
        if kind == "variable":
            fid = table.formation(sum(dice.d6() for _ in range(table.variable_dice)))
            new = fid not in core.released and german.formation(fid).status == "reinforcement"
            if new and not current:
                continue  # it would have entered where the US saw it
            if new:
                core.released.add(fid)
        return


def _draw_sheets(
    core: TcsCore, dice: Dice, passed: Callable[[str], bool], turns: dict[str, int]
) -> None:
    """TCS Omaha 3.2: each released formation on the map rolls for its op sheet each
    Command Planning Phase it may, from the first it may (a reserve from its release,
    a reinforcement once its free turns are over), at most the table's number at once;
    a formation the US saw move when only an op sheet lets it has one."""
    scen = core.scenario
    german, tables = scen.german, scen.tables
    now = -1 if core.in_setup else core.turn
    last = now if passed("german sheets") else now - 1
    released_at: dict[str, int] = {}
    for e in core.log:
        if e.kind == "tcs.release":
            f = str(e.details.get("formation"))
            phase_now = e.phase == Phase.COMMAND
            released_at.setdefault(f, turns.get(e.turn, 0) + (0 if phase_now else 1))
    first: dict[str, int] = {}
    for f in core.released:
        if german.formation(f).status == "reinforcement":
            if f in core.entered:
                first[f] = core.entered[f] + tables.release_free_turns
        elif f in released_at:
            first[f] = released_at[f]
    sheets = _moved_on_sheet(core, first, turns)
    for t in range(max(last + 1, 0)):
        for f in sorted(first):
            if f in sheets or first[f] > t or not _on_map(core, f):
                continue
            if len(sheets) >= tables.max_german_opsheets:
                break
            if dice.d6() >= scen.series.reserve_roll:
                sheets.add(f)
    core.german_sheets = sheets


def _on_map(core: TcsCore, formation: str) -> bool:
    return any(core.where[i] >= 0 for i in core.scenario.german.formation(formation).units)


def _moved_on_sheet(core: TcsCore, first: dict[str, int], turns: dict[str, int]) -> set[str]:
    """Formations the US saw move (or pick to move, this phase) when only an
    implemented op sheet lets them (3.2)."""
    german = core.scenario.german
    of_unit = {core.uid(i): f for f in first for i in german.formation(f).units}
    now = core.turn
    out = set()
    for e in core.log:
        if e.kind == "tcs.move":
            f = of_unit.get(str(e.details.get("unit")))
            if f is not None and turns.get(e.turn, -1) >= first[f]:
                out.add(f)
    picked = set(core.moved)
    sel = core.selected
    if sel is not None and sel[:1] == "@":
        picked.update(core.uid(i) for i in core.occupancy().get(core.cell(sel[1:]), ()))
    elif sel is not None:
        picked.add(sel)
    out.update(f for u in picked if (f := of_unit.get(u)) is not None and now >= first[f])
    return out
