"""Loading boats (2.1b-2.1j, 2.1m): what fits, what is aboard, which boats are left.

Shared by the landing schematic (:mod:`.schematic`, the assault waves laid out
before play) and the transport assignments (:mod:`.transports`, each hour).
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.tcs.actions import Load, LoadSteps
from omaha.tcs.components.plan import PlannedBoat, too_large
from omaha.tcs.components.tables import DD
from omaha.tcs.components.turns import next_hour
from omaha.tcs.core import AWAIT, TcsCore


def capacity(core: TcsCore, kind: str, lcas: int = 1) -> int:
    """TCS Omaha 2.1d: load points of one boat of ``kind`` (an LCA group: per LCA)."""
    return core.scenario.tables.boat(kind).max_points * (lcas if kind == "LCA" else 1)


#: How often a step of boats may be cancelled: the schematic cleared, a boat closed
#: empty. Not a rule (the plan is written before play, 2.1h; transports are assigned
#: once an hour, 2.1m): a bound so that a game has a most decisions (READINGS.md, "Agents")
MAX_CANCELS = 3


def next_id(core: TcsCore, prefix: str) -> str:
    core.counters[prefix] = core.counters.get(prefix, 0) + 1
    return f"{prefix}{core.counters[prefix]:02d}"


def used(core: TcsCore, wave: int, kind: str) -> int:
    """Boats of ``kind`` of an assault wave already laid out (the open boat included)."""
    n = sum(1 for b in core.draft_boats if b.wave == wave and b.kind == kind)
    ob = core.open_boat
    if ob is not None and ob["wave"] == wave and ob["kind"] == kind:
        n += ob["lcas"] if kind == "LCA" else 1
    return n


def open_points(core: TcsCore) -> int:
    """Load points aboard the schematic's open boat."""
    ob = core.open_boat
    if ob is None:
        return 0
    return sum(core.scenario.oob.unit(u).type.points * s for u, s in ob["load"])


def transport_points(core: TcsCore) -> int:
    """Load points aboard the transport being loaded."""
    ob = core.transport_open
    assert ob is not None
    return sum(core.scenario.oob.unit(u).type.points * s for u, s in ob["load"])


def planned_steps(core: TcsCore) -> dict[str, int]:
    """Steps of each unit in the schematic laid out so far (the open boat included)."""
    out: dict[str, int] = {}
    for b in core.draft_boats:
        for u, s in b.load:
            out[u] = out.get(u, 0) + s
    for g in core.draft_groups:
        for u, s in g.pool:
            out[u] = out.get(u, 0) + s
    if core.open_boat is not None:
        for u, s in core.open_boat["load"]:
            out[u] = out.get(u, 0) + s
    return out


def plan_units(core: TcsCore) -> set[str]:
    """Units of the committed landing plan."""
    if core.plan is None:
        return set()
    return set(core.plan.units_aboard())


def transport_land_label(core: TcsCore) -> str:
    """The turn the transports assigned now land on (2.1m: the next hour turn)."""
    return next_hour(core.turn_label)


def transport_used(core: TcsCore, kind: str) -> int:
    """Transport boats of ``kind`` already assigned for the next hour (the open one too)."""
    boats = core.transports.get(transport_land_label(core), [])
    n = sum(1 for b in boats if b.kind == kind)
    if core.transport_open is not None and core.transport_open["kind"] == kind:
        n += 1
    return n


def transport_steps(core: TcsCore) -> dict[str, int]:
    """Steps of each unit assigned to transports (the open boat included)."""
    out: dict[str, int] = {}
    for boats in core.transports.values():
        for b in boats:
            for u, s in b.load:
                out[u] = out.get(u, 0) + s
    if core.transport_open is not None:
        for u, s in core.transport_open["load"]:
            out[u] = out.get(u, 0) + s
    return out


def loadable(core: TcsCore, kind: str, room: int, pool: str) -> Iterator[Action]:
    """Units (or parts) that can go into an open boat of ``kind`` with ``room`` points.

    ``pool`` is ``"plan"`` (units not yet planned) or ``"transport"``.
    """
    taken = planned_steps(core) if pool == "plan" else transport_steps(core)
    in_plan = plan_units(core) if pool == "transport" else set()
    where = core.where
    for i, uid, points, per_step, large in _candidates(core, kind):
        if pool == "transport" and (where[i] != AWAIT or uid in in_plan):
            continue
        if uid in taken:
            continue
        if kind == DD or points <= room:
            yield Load.of(uid)
        elif large and room >= per_step and can_complete(core, uid, kind, points, room, pool):
            yield LoadSteps.of(uid, room // per_step)


def _candidates(core: TcsCore, kind: str) -> list[tuple[int, str, int, int, bool]]:
    """The units a boat of ``kind`` may carry (DD: the DD tanks; else up to the boat's load
    class, 2.1c), in order of battle, as (index, id, load points, points a step, may be
    split, 2.1j); per scenario."""
    scen = core.scenario
    cache = scen.sight_cache
    key = ("loadable", kind)
    hit: list[tuple[int, str, int, int, bool]] | None = cache.get(key)
    if hit is None:
        max_class = scen.tables.boat(kind).max_class if kind != DD else 4
        hit = cache[key] = [
            (
                u.index,
                u.id,
                u.points,
                u.type.points,
                kind != DD and too_large(scen.rules, u.id, kind),
            )
            for u in scen.oob.units
            if (u.dd if kind == DD else u.type.load_class <= max_class)
        ]
    return hit


def can_complete(core: TcsCore, uid: str, kind: str, need: int, room: int, pool: str) -> bool:
    """A split unit must be completable in further boats of the same kind (2.1j)."""
    cap = capacity(core, kind)
    per = core.scenario.oob.unit(uid).type.points
    if pool == "plan":
        assert core.open_boat is not None
        wave = core.open_boat["wave"]
        spare = core.scenario.tables.wave(wave).count(kind) - used(core, wave, kind)
    else:
        spare = dict(core.scenario.tables.transport_boats)[kind] - transport_used(core, kind)
    fit_now = room // per
    left = need - fit_now * per
    return left <= spare * (cap // per) * per


def boat_text(core: TcsCore, b: PlannedBoat) -> str:
    """A boat and its load for the log (``T1000.01 LCT to EasyRed-T: 7FA.guns(2)``)."""
    units = ", ".join(
        f"{u}" + (f"({s})" if s != core.scenario.oob.unit(u).steps else "") for u, s in b.load
    )
    return f"{b.id} {b.kind} to {b.box}: {units}"


def explain_load(core: TcsCore, action: Load | LoadSteps, pool: str) -> str:
    """Why a unit does not go into the open boat of the schematic (``pool="plan"``) or of
    the transports (2.1c, 2.1e, 2.1j)."""
    scen = core.scenario
    oob, t = scen.oob, scen.tables
    if not oob.has_unit(action.unit):
        return f"no unit {action.unit!r}"
    ob = core.open_boat if pool == "plan" else core.transport_open
    if ob is None:
        return "open a boat first"
    aboard = open_points(core) if pool == "plan" else transport_points(core)
    u = oob.unit(action.unit)
    bk = ob["kind"]
    if bk == DD:
        return f"{u.id} is not a DD tank; only DD tanks swim (2.1e)"
    bt = t.boat(bk)
    if u.type.load_class > bt.max_class:
        return f"{u.id} is load class {u.type.load_class}, above the {bk}'s {bt.max_class} (2.1c)"
    if pool == "plan" and u.id in planned_steps(core):
        return f"{u.id} is already in the plan"
    room = capacity(core, bk, ob.get("lcas", 1)) - aboard
    return (
        f"{u.id} ({u.points} load points) does not fit in the {bk} "
        f"(room {room}; only LCA groups or units too large for one boat may be split, 2.1j)"
    )
