"""D-Day at Omaha Beach: what the US does not know, and how a resample draws it anew.

The US plays alone against the charts; what it does not see is German (READINGS.md,
"Information"):

* **Face-down 352nd units drawn from the Division box** (16.4 reinforce: "a 352nd
  unit", drawn blindly from the box's cup). The set-up garrisons are the scenario's
  (positions file): the US knows which unit holds which position though a reinforcement
  position's counter shows its back, and a unit an attack revealed stays known while it
  stands on the map, even flipped face down again. A unit that goes back to the box
  (defeated in communication) is mixed in the cup again.
* **Face-down depth markers and what the depth cups hold.** Each marker is drawn
  blindly from its division's cup (716th or 352nd: at set-up for the big WN, re-supply,
  16.4, German gains depth); its value shows only when an attack reveals it, and a
  marker removed face down (barrage, attrition, a defeated unit) leaves play unseen.

The US knows where each face-down marker came from (the log says when and where each
was drawn), so given what it saw, the unseen markers of one cup (its mix less every
value revealed) are dealt uniformly among that cup's face-down markers on the map, the
cup, and the markers that left play unseen; the unknown units and the Division cup
likewise (an attack reveals its defender when it is declared, so no menu of an attack
under way depends on a face-down unit).
"""

from __future__ import annotations

from collections import Counter

import attrs

from omaha.kernel.decks import Cup
from omaha.kernel.dice import Dice
from omaha.kernel.events import Event
from omaha.kernel.information import shuffled
from omaha.landing_table.core import LandingTableCore
from omaha.landing_table.scenario import LandingTableScenario

#: What the US log says of a unit redeployed (16.3): the counter, not which unit.
REDEPLOYED = "a German unit"
#: The result of a ``ddob.german`` event that sends a unit back to the Division box.
TO_THE_BOX = "defeated: back to the Division reinforcement box"
#: The two depth cups (716th, 352nd).
DEPTH_CUPS = ("716", "352")


def event_seen(event: Event) -> Event:
    """The event as the US saw it: a 16.3 redeploy names the unit only on the raw log
    (the counter may be face down: the US sees a counter move); every other event is
    whole (the procedures name a face-down unit as "a 352nd unit" and never print a
    face-down marker). Its own result gives itself back."""
    if event.kind == "ddob.redeploy" and event.details.get("unit") != REDEPLOYED:
        return event._replace(details={**event.details, "unit": REDEPLOYED})
    return event


@attrs.define
class Markers:
    """What the US log says of the depth markers: the cup each marker on the map came
    from, whether it shows, and the values seen of each cup."""

    cup: dict[str, str] = attrs.Factory(dict)  # position -> cup of its marker
    shown: set[str] = attrs.Factory(set)  # positions whose marker is revealed
    division: dict[str, str | None] = attrs.Factory(dict)  # position -> its unit's division
    seen: dict[str, list[str]] = attrs.Factory(lambda: {c: [] for c in DEPTH_CUPS})


def read_markers(core: LandingTableCore) -> Markers | None:
    """The depth markers as the US log tells them, from the set-up on; None when the
    position does not match (a position staged by hand that no log explains)."""
    scen = core.scen
    m = Markers()
    for p in scen.positions:
        m.division[p.id] = scen.germans[p.garrison].division if p.garrison else None
        if p.depth:
            m.cup[p.id] = "716" if p.kind == "wn" else "352"
    for event in core.log:
        _read(m, event_seen(event), scen)
    for pid, ps in core.pos.items():
        if (ps.depth is None) != (pid not in m.cup) or ps.depth_revealed != (pid in m.shown):
            return None
    return m


def _read(m: Markers, e: Event, scen: LandingTableScenario) -> None:
    """One event of the US log, as it changes the markers and the units' divisions."""
    d = e.details
    pid = str(d.get("position", ""))
    kind = e.kind
    if kind == "ddob.resupply" or (kind == "ddob.reinforce" and d.get("depth")):
        m.cup[pid] = "352"
    if kind == "ddob.reinforce":
        m.division[pid] = "352"
    elif kind == "ddob.reoccupy":
        m.division[pid] = scen.germans[str(d["unit"])].division
    elif kind in ("ddob.redeploy", "ddob.advance"):
        # the unit takes its marker along, and the one it finds there is gone (a free
        # position holds none: shift_german)
        start, end = str(d["start"]), str(d["end"])
        m.division[end] = m.division.pop(start, None)
        _lose(m, end)
        if start in m.cup:
            m.cup[end] = m.cup.pop(start)
        if start in m.shown:
            m.shown.discard(start)
            m.shown.add(end)
    elif kind == "ddob.gains_depth":
        m.cup[pid] = m.division.get(pid) or "352"
    elif kind == "ddob.reveal":
        marker = str(d["marker"])
        m.seen[m.cup.get(pid, "352")].append("TR" if marker == "Tactical Reinforcement" else marker)
        m.shown.add(pid)
    elif kind == "ddob.german":
        what, unit = str(d.get("what", "")), str(d.get("unit", ""))
        if what.startswith("defeated"):
            m.division[pid] = None
            _lose(m, pid)
        elif unit == "depth marker" and what == "eliminated":
            _lose(m, pid)
        elif unit in scen.germans:
            m.division[pid] = scen.germans[unit].division
    elif kind == "ddob.attrition" or (
        kind == "ddob.barrage" and d.get("result") == "disrupt remove depth"
    ):
        _lose(m, pid)


def _lose(m: Markers, pid: str) -> None:
    m.cup.pop(pid, None)
    m.shown.discard(pid)


def known_units(core: LandingTableCore) -> set[str]:
    """The German units whose identity the US knows wherever they stand: the set-up
    garrisons until one goes back to the Division box, and every unit the log names
    (revealed by an attack, re-occupying, advancing face up, defeated) since its last
    return to the box."""
    scen = core.scen
    known = {p.garrison for p in scen.positions if p.garrison}
    for event in core.log:
        if event.kind not in ("ddob.german", "ddob.reoccupy", "ddob.advance"):
            continue
        unit = str(event.details.get("unit", ""))
        if unit not in scen.germans:
            continue
        if event.details.get("what") == TO_THE_BOX:
            known.discard(unit)
        else:
            known.add(unit)
    return known


def named_units(core: LandingTableCore) -> set[str]:
    """The German units the US has seen by name at some time: the set-up garrisons and
    every unit the log names."""
    scen = core.scen
    named = {p.garrison for p in scen.positions if p.garrison}
    for event in core.log:
        if event.kind in ("ddob.german", "ddob.reoccupy", "ddob.advance"):
            named.add(str(event.details.get("unit", "")))
    return named


def unknown_slots(core: LandingTableCore) -> list[str]:
    """Positions held by a face-down unit the US cannot name (in file order)."""
    known = known_units(core)
    out = []
    for p in core.scen.positions:
        gid = core.pos[p.id].unit
        if gid is not None and not core.ger[gid].revealed and gid not in known:
            out.append(p.id)
    return out


def hidden_parts(core: LandingTableCore) -> tuple[tuple[str, str, str], ...]:
    """Every part hidden from the US: each unknown face-down unit, each face-down depth
    marker, and what each cup holds."""
    parts = [("unit", pid, str(core.pos[pid].unit)) for pid in unknown_slots(core)]
    parts += [
        ("depth", pid, str(ps.depth))
        for pid, ps in sorted(core.pos.items())
        if ps.depth is not None and not ps.depth_revealed
    ]
    parts += [("cup", name, " ".join(core.cups[name].contents)) for name in sorted(core.cups)]
    return tuple(parts)


def redraw(core: LandingTableCore, dice: Dice) -> None:
    """Deal the unknown units with the Division cup, then each depth cup's unseen
    markers, anew (see the module's docstring); the records are owned first (a
    resample shares them with its original until it writes)."""
    core.own_everything()
    _redraw_units(core, dice)
    markers = read_markers(core)
    if markers is not None:
        for name in DEPTH_CUPS:
            _redraw_markers(core, markers, name, dice)


def _redraw_units(core: LandingTableCore, dice: Dice) -> None:
    slots = unknown_slots(core)
    if not slots:
        return
    cup = core.cups["division"]
    pool = sorted([str(core.pos[pid].unit) for pid in slots] + list(cup.contents))
    drawn = set(pool)
    rest = shuffled(pool, dice)
    dealt = {pid: rest.pop() for pid in slots}
    # a disruption marks the counter in its position, whichever unit it is
    disrupted = {pid: core.ger[str(core.pos[pid].unit)].disrupted for pid in slots}
    for gid in rest:
        g = core.ger[gid]
        g.where, g.revealed, g.disrupted = "division", False, False
    for pid, gid in dealt.items():
        g = core.ger[gid]
        g.where, g.revealed, g.disrupted = pid, False, disrupted[pid]
        core.pos[pid].unit = gid
    core.cups["division"] = Cup(rest)
    # a unit the US never named was on the map only in the world it was drawn in
    named = named_units(core)
    core.seen = {g for g in core.seen if g in named or g not in drawn} | set(dealt.values())


def _redraw_markers(core: LandingTableCore, m: Markers, name: str, dice: Dice) -> None:
    slots = sorted(pid for pid, cup in m.cup.items() if cup == name and pid not in m.shown)
    cup = core.cups[name]
    unseen = Counter(core.scen.depth_cups[name])
    unseen.subtract(m.seen[name])
    held = Counter(str(core.pos[pid].depth) for pid in slots) + Counter(cup.contents)
    if any(unseen[v] < n for v, n in held.items()):
        return  # the log does not explain this position: nothing to deal from
    dealt = shuffled(sorted(unseen.elements()), dice)
    for pid, value in zip(slots, dealt, strict=False):
        core.pos[pid].depth = value
    core.cups[name] = Cup(dealt[len(slots) : len(slots) + len(cup)])
