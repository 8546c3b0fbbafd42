"""Small builders for landing plans in tests (importable: conftest puts this folder on sys.path)."""

from __future__ import annotations

from omaha.tcs.components.oob import Oob
from omaha.tcs.components.plan import Plan, PlannedBoat, PlannedGroup


def full(oob: Oob, formation: str) -> tuple[tuple[str, int], ...]:
    return tuple((oob.units[i].id, oob.units[i].steps) for i in oob.formation_units(formation))


def boat(
    bid: str, wave: int, kind: str, box: str, load: tuple[tuple[str, int], ...], oob: Oob
) -> PlannedBoat:
    pts = sum(oob.unit(u).type.points * s for u, s in load)
    return PlannedBoat(bid, wave, kind, box, None, load, pts)


def pooled(
    gid: str, wave: int, box: str, shares: list[int], pool: tuple[tuple[str, int], ...]
) -> tuple[list[PlannedBoat], PlannedGroup]:
    boats = [PlannedBoat(f"{gid}.{k}", wave, "LCA", box, gid, (), s) for k, s in enumerate(shares)]
    return boats, PlannedGroup(gid, wave, box, tuple(b.id for b in boats), True, pool)


def company_plan(oob: Oob, company: str, box: str, wave: int = 1, **extra: object) -> Plan:
    """One rifle company in a pooled group of two LCAs (9 + 8 points)."""
    boats, group = pooled("g", wave, box, [9, 8], full(oob, company))
    return Plan("test", tuple(boats), (group,), **extra)  # type: ignore[arg-type]
