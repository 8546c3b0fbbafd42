"""The US action phase: leaders rally, then every unit ashore and every Naval Fire
Marker gets its orders, one by one (reconstructed: READINGS.md, "US orders").

A unit moves, attacks (:mod:`attack`), barrages (:mod:`barrage`), clears the
obstacles of its hex (engineers) or holds; a disrupted unit may only hold or
move one hex. ``end actions`` ends the phase for everyone still waiting.
"""

from __future__ import annotations

from omaha.kernel.actions import Action
from omaha.landing_table.actions import Attack, Barrage, Clear, Hold
from omaha.landing_table.core import ASHORE, LandingTableCore, Phase

#: At most three units (a Naval Fire Marker counts as one) attack together (reconstructed).
MAX_ATTACKERS = 3


def begin_phase(core: LandingTableCore) -> None:
    """Leaders rally the units in their hex; everyone ashore, then the markers, will act."""
    core.current_phase = Phase.US_ACTION
    for uid, s in core.us.items():
        if s.acted:
            core.set_acted(uid, False)
    core.naval_used = set()
    core.clear_attacks()
    at = core.us_at()
    for uid in core.ashore():
        s = core.us[uid]
        if core.is_leader(uid) and not s.disrupted:
            rallied = [u for u in at.get(s.where, ()) if core.us[u].disrupted]
            for u in rallied:
                core.set_disrupted(u, False)
            if rallied:
                core.note("ddob.rally", "leaders (reconstructed)", leader=uid, units=rallied)
    core.set_queue([*core.ashore(), *core.naval_ids()])
    core.ctx = {}


def next_unit(core: LandingTableCore) -> bool:
    """Ask for the next unit's orders (units with nothing but ``hold`` are passed over);
    False when everyone has had orders."""
    while core.queue:
        uid = core.queue[0]
        if uid.startswith("NF"):
            gone = uid in core.naval_used
        else:
            s = core.us[uid]
            gone = s.status != ASHORE or s.acted
        if gone or len(orders(core, uid)) <= 1:
            core.pop_queue()
            continue
        core.decision = {"kind": "orders", "unit": uid}
        return True
    return False


# -- what a unit may do -------------------------------------------------------------------
def can_attack(core: LandingTableCore, uid: str, pid: str) -> bool:
    """Whether a unit ashore may attack the German unit at ``pid`` now."""
    s = core.us[uid]
    if s.status != ASHORE or s.disrupted or core.strength(uid) <= 0:
        return False
    if pid in core.attacked:
        return False
    cell = core.scen.pos_by_id[pid].cell
    return s.where in core.lookup.attack_from(cell, core.unit_range(uid))


def can_attack_joining(core: LandingTableCore, uid: str, pid: str) -> bool:
    """As :func:`can_attack`, for a unit joining the attack on ``pid`` being built."""
    core.attacked.discard(pid)
    try:
        return can_attack(core, uid, pid)
    finally:
        core.attacked.add(pid)


def attack_targets(core: LandingTableCore, uid: str) -> list[str]:
    """The occupied positions the unit may attack now (:func:`can_attack`), by cell."""
    s = core.us[uid]
    if s.status != ASHORE or s.disrupted or core.strength(uid) <= 0:
        return []
    targets = core.lookup.targets_from(s.where, core.unit_range(uid))
    attacked = core.attacked
    return [pid for cell, pid in core.german_by_cell() if cell in targets and pid not in attacked]


def barrage_targets(core: LandingTableCore, uid: str) -> list[str]:
    """Occupied positions within the unit's barrage range (artillery)."""
    s = core.us[uid]
    reach = core.unit(uid).kind.barrage
    if reach <= 0 or s.disrupted or core.strength(uid) <= 0:
        return []
    distances = core.lookup.distances(s.where)
    return [pid for cell, pid in core.german_by_cell() if distances[cell] <= reach]


def orders(core: LandingTableCore, uid: str) -> tuple[Action, ...]:
    """Every order the unit may be given (``hold`` first)."""
    got = core.orders_cache.get(uid)
    if got is not None:
        return got
    action = core.lookup.action
    out: list[Action] = [action(Hold, uid)]
    if uid.startswith("NF"):
        out += [action(Barrage, pid, uid) for pid in core.naval_targets()]
    else:
        s = core.us[uid]
        here = s.where
        out += core.move_orders(uid)
        if not s.disrupted:
            out += [action(Attack, pid, uid) for pid in attack_targets(core, uid)]
            out += [action(Barrage, pid, uid) for pid in barrage_targets(core, uid)]
            if core.unit(uid).kind.clears and core.obstacle(here) and not core.flooded(here):
                out.append(action(Clear, uid))
    got = core.orders_cache[uid] = tuple(out)
    return got


def joiners(core: LandingTableCore) -> list[str]:
    """Units that may still join the attack being built."""
    pid = str(core.ctx["target"])
    if len(core.ctx["attackers"]) >= MAX_ATTACKERS:
        return []
    naval = not any(u.startswith("NF") for u in core.ctx["attackers"])
    out = []
    for uid in core.queue:
        if uid.startswith("NF"):
            if naval and uid not in core.naval_used and pid in core.naval_targets():
                out.append(uid)
        elif uid != core.ctx["attackers"][0] and can_attack_joining(core, uid, pid):
            out.append(uid)
    return out


# -- carrying out orders ---------------------------------------------------------------------
def done(core: LandingTableCore, uid: str) -> None:
    """The unit (or marker) has had its orders."""
    if uid.startswith("NF"):
        core.naval_used.add(uid)
    else:
        core.set_acted(uid, True)
    core.unqueue(uid)


def hold(core: LandingTableCore, uid: str) -> None:
    """``hold U``."""
    core.decision = None
    done(core, uid)


def move(core: LandingTableCore, uid: str, cell: int) -> None:
    """``move U to H``."""
    core.decision = None
    s = core.us[uid]
    labels = core.scen.board.labels
    core.note(
        "ddob.move",
        "movement (reconstructed)",
        unit=uid,
        start=labels[s.where],
        end=labels[cell],
    )
    core.move(uid, cell)
    done(core, uid)


def clear_obstacles(core: LandingTableCore, uid: str) -> None:
    """``clear obstacles with U``: engineers clear the obstacle hex they stand in."""
    core.decision = None
    cell = core.us[uid].where
    core.clear_obstacles({cell})
    core.note("ddob.clear", "engineers (reconstructed)", unit=uid, hex=core.scen.board.labels[cell])
    done(core, uid)


def end_actions(core: LandingTableCore) -> None:
    """``end actions``: the phase ends for every unit still waiting."""
    core.decision = None
    core.set_queue([])
