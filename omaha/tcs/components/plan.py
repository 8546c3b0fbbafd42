"""TCS Omaha 2.1-2.1h, 2.3a, 2.7a: the US landing plan, as data, and its validation.

A plan assigns units to boats in the three assault waves (2.1a), each boat to a
landing beach box (2.1h), LCAs in boat groups of one to three (2.1d), DD tanks
swimming on their own (2.1e); optionally op sheets for landing units (2.3a),
the first transport landing (2.1m, 2.3f), the LCT(R) targets (2.2a) and the
NFST assignments (2.6d). Plans are read from TOML (:func:`load_plan`), built step
by step by actions, or passed whole as a token list (:meth:`Plan.tokens`), and
every route goes through :func:`check_plan`, which names the first problem.

Readings (stated in the functions below and tested):

* the Dukw condition of 2.1f binds per assault wave: LCTs or Rhinos of a wave
  may be used only if every Dukw available to that wave carries at least 4 load
  points of class I/II; it does not bind transport landings (no Dukws there);
* a unit may be split only among the LCAs of one boat group, or among boats of
  one kind when it is too large for one boat of that kind (2.1j); all its parts
  sail in one wave and every step of a planned unit is aboard;
* a pooled LCA group (contents not fixed per boat) takes random losses (2.1j);
  a group may instead fix each boat's contents, and then losses are exact;
* a DD tank may also ride a boat, as an ordinary tank (load 6, class IV): only
  swimming DD tanks stand outside the load and boat limits (2.1e).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import quote, unquote

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.data import Node, Source, load_toml
from omaha.tcs.components.beach import Beach
from omaha.tcs.components.oob import Oob
from omaha.tcs.components.tables import BOAT_KINDS, DD, Tables
from omaha.tcs.components.turns import is_hour_turn

ASSAULT_WAVES = (1, 2, 3)
TRANSPORT = 0  # wave number of the pre-planned first transport landing


class PlanError(ValueError):
    """A plan that breaks a landing rule; ``where`` names the boat, group or sheet."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.where = where


@attrs.frozen
class PlannedBoat:
    """One boat (or one swimming DD tank) of the plan."""

    id: str
    wave: int
    kind: str
    box: str
    group: str | None
    load: tuple[tuple[str, int], ...]  # (unit, steps); empty for the LCAs of a pooled group
    points: int  # load points aboard (a pooled group's share for this LCA)

    def __deepcopy__(self, memo: dict[int, object]) -> PlannedBoat:
        return self


@attrs.frozen
class PlannedGroup:
    """An LCA boat group (2.1d): its boats land in one sector (2.1l)."""

    id: str
    wave: int
    box: str
    boats: tuple[str, ...]
    pooled: bool
    pool: tuple[tuple[str, int], ...]  # (unit, steps) of a pooled group, in plan order

    def __deepcopy__(self, memo: dict[int, object]) -> PlannedGroup:
        return self


@attrs.frozen
class OpSheet:
    """TCS Omaha 2.3a: a landing op sheet naming the correct beach sector."""

    id: str
    sector: str
    units: tuple[str, ...]


@attrs.frozen(slots=False, cache_hash=True)
class Plan:
    name: str
    boats: tuple[PlannedBoat, ...] = ()
    groups: tuple[PlannedGroup, ...] = ()
    opsheets: tuple[OpSheet, ...] = ()
    transport_hour: str | None = None
    lctr: tuple[str, ...] = ()
    nfst: tuple[tuple[str, str], ...] = ()
    # worked out with the plan (a plan never changes): its steps aboard and its tokens
    _aboard: dict[str, int] = attrs.field(
        init=False,
        eq=False,
        repr=False,
        default=attrs.Factory(lambda p: p._units_aboard(), takes_self=True),
    )
    _as_tokens: tuple[str, ...] = attrs.field(
        init=False,
        eq=False,
        repr=False,
        default=attrs.Factory(lambda p: p._tokens(), takes_self=True),
    )

    def __deepcopy__(self, memo: dict[int, object]) -> Plan:
        return self

    def boat(self, bid: str) -> PlannedBoat:
        for b in self.boats:
            if b.id == bid:
                return b
        raise KeyError(bid)

    def group(self, gid: str) -> PlannedGroup:
        for g in self.groups:
            if g.id == gid:
                return g
        raise KeyError(gid)

    def wave_boats(self, wave: int) -> tuple[PlannedBoat, ...]:
        return tuple(b for b in self.boats if b.wave == wave)

    def units_aboard(self) -> dict[str, int]:
        """Steps of each unit in the plan (fixed loads and pooled groups); do not mutate."""
        return self._aboard

    def _units_aboard(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for b in self.boats:
            for u, s in b.load:
                out[u] = out.get(u, 0) + s
        for g in self.groups:
            for u, s in g.pool:
                out[u] = out.get(u, 0) + s
        return out

    def unit_boats(self) -> dict[str, list[str]]:
        """Boats (ids) carrying each unit; a pooled group's units ride in all its boats."""
        out: dict[str, list[str]] = {}
        for b in self.boats:
            for u, _ in b.load:
                out.setdefault(u, []).append(b.id)
        for g in self.groups:
            for u, _ in g.pool:
                out.setdefault(u, []).extend(g.boats)
        return out

    # -- tokens: the plan as a flat list of short strings (actions, snapshots) ------------
    def tokens(self) -> tuple[str, ...]:
        """The plan as short strings (computed once: a plan never changes)."""
        return self._as_tokens

    def _tokens(self) -> tuple[str, ...]:
        out = [f"P|{_q(self.name)}"]
        if self.transport_hour:
            out.append(f"T|{self.transport_hour}")
        for b in self.boats:
            load = ";".join(f"{_q(u)}={s}" for u, s in b.load)
            group = _q(b.group) if b.group else "-"
            out.append(f"B|{_q(b.id)}|{b.wave}|{b.kind}|{_q(b.box)}|{group}|{b.points}|{load}")
        for g in self.groups:
            pool = ";".join(f"{_q(u)}={s}" for u, s in g.pool)
            boats = "+".join(_q(x) for x in g.boats)
            kind = "P" if g.pooled else "F"
            out.append(f"G|{_q(g.id)}|{g.wave}|{_q(g.box)}|{kind}|{boats}|{pool}")
        for o in self.opsheets:
            out.append(f"O|{_q(o.id)}|{_q(o.sector)}|{';'.join(_q(u) for u in o.units)}")
        out.extend(f"R|{_q(t)}" for t in self.lctr)
        out.extend(f"N|{_q(bn)}|{_q(u)}" for bn, u in self.nfst)
        return tuple(out)

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Plan:
        """Inverse of :meth:`tokens`; a malformed token raises :class:`PlanError`."""
        name = "custom"
        hour: str | None = None
        boats: list[PlannedBoat] = []
        groups: list[PlannedGroup] = []
        sheets: list[OpSheet] = []
        lctr: list[str] = []
        nfst: list[tuple[str, str]] = []
        for tok in tokens:
            f = tok.split("|")
            try:
                if f[0] == "P" and len(f) == 2:
                    name = _u(f[1])
                elif f[0] == "T" and len(f) == 2:
                    hour = f[1]
                elif f[0] == "B" and len(f) == 8:
                    boats.append(
                        PlannedBoat(
                            _u(f[1]),
                            int(f[2]),
                            f[3],
                            _u(f[4]),
                            None if f[5] == "-" else _u(f[5]),
                            _pairs(f[7]),
                            int(f[6]),
                        )
                    )
                elif f[0] == "G" and len(f) == 7:
                    groups.append(
                        PlannedGroup(
                            _u(f[1]),
                            int(f[2]),
                            _u(f[3]),
                            tuple(_u(x) for x in f[5].split("+") if x),
                            f[4] == "P",
                            _pairs(f[6]),
                        )
                    )
                elif f[0] == "O" and len(f) == 4:
                    sheets.append(
                        OpSheet(_u(f[1]), _u(f[2]), tuple(_u(u) for u in f[3].split(";") if u))
                    )
                elif f[0] == "R" and len(f) == 2:
                    lctr.append(_u(f[1]))
                elif f[0] == "N" and len(f) == 3:
                    nfst.append((_u(f[1]), _u(f[2])))
                else:
                    raise ValueError
            except ValueError:
                raise PlanError(f"plan token {tok!r} is malformed") from None
        return cls(name, tuple(boats), tuple(groups), tuple(sheets), hour, tuple(lctr), tuple(nfst))


_PLAIN = re.compile(r"[A-Za-z0-9/.:\-=+@_]*\Z")


def _q(text: str) -> str:
    return text if _PLAIN.match(text) else quote(text, safe="/.:-=+@_")


def _u(text: str) -> str:
    return unquote(text)


def _pairs(text: str) -> tuple[tuple[str, int], ...]:
    out = []
    for part in text.split(";"):
        if part:
            u, s = part.rsplit("=", 1)
            out.append((_u(u), int(s)))
    return tuple(out)


# ----------------------------------------------------------------------------- checking
@attrs.frozen
class PlanRules:
    """What a plan is checked against: the OOB, the tables, the map and the options."""

    oob: Oob
    tables: Tables
    beach: Beach
    historical_29th: bool = False  # 2.7a strictly historical game
    no_opsheets: bool = False  # 2.3b
    nfst: bool = False  # 2.6d option


def unit_points(rules: PlanRules, load: Iterable[tuple[str, int]]) -> int:
    return sum(rules.oob.unit(u).type.points * s for u, s in load)


def too_large(rules: PlanRules, unit: str, kind: str) -> bool:
    """TCS Omaha 2.1j: a unit too large for one boat of ``kind`` may be split (recorded)."""
    return rules.oob.unit(unit).points > rules.tables.boat(kind).max_points


def check_plan(plan: Plan, rules: PlanRules) -> None:
    """Raise :class:`PlanError` naming the first rule the plan breaks."""
    t, oob, beach = rules.tables, rules.oob, rules.beach
    groups = {g.id: g for g in plan.groups}
    boat_ids = [b.id for b in plan.boats]
    if len(set(boat_ids)) != len(boat_ids):
        raise PlanError("two boats share an id")
    in_group: dict[str, str] = {}
    for g in plan.groups:
        for bid in g.boats:
            if bid in in_group:
                raise PlanError(f"boat {bid} is in two groups", g.id)
            in_group[bid] = g.id

    # every boat: kind, wave, box, class and points (2.1c, 2.1d, 2.1e)
    for b in plan.boats:
        if b.kind not in (*BOAT_KINDS, DD):
            raise PlanError(f"boat {b.id}: unknown boat type {b.kind!r}", b.id)
        if b.wave in ASSAULT_WAVES:
            if b.box not in beach.assault_boxes:
                raise PlanError(f"boat {b.id}: {b.box!r} is not a landing beach box", b.id)
            if b.kind == "LCI":
                raise PlanError(f"boat {b.id}: LCIs land only in transport landings (2.1m)", b.id)
        elif b.wave == TRANSPORT:
            if b.kind not in ("LCI", "LCT"):
                what = (
                    "DD tanks never land in a transport wave (2.1e)"
                    if b.kind == DD
                    else (f"transport landings use LCIs and LCTs, not {b.kind} (2.1m)")
                )
                raise PlanError(f"boat {b.id}: {what}", b.id)
            if b.box not in beach.transport_boxes:
                raise PlanError(f"boat {b.id}: {b.box!r} is not a transport landing box", b.id)
        else:
            raise PlanError(f"boat {b.id}: wave {b.wave} is not an assault wave 1-3 (2.1a)", b.id)
        for u, s in b.load:
            if not oob.has_unit(u):
                raise PlanError(f"boat {b.id}: no unit {u!r} in the order of battle", b.id)
            if s < 1:
                raise PlanError(f"boat {b.id}: {u} with {s} steps", b.id)
        if b.kind == DD:
            if len(b.load) != 1 or not oob.unit(b.load[0][0]).dd or b.load[0][1] != 1:
                raise PlanError(
                    f"boat {b.id}: a DD swims alone: one DD tank and nothing else", b.id
                )
            continue
        bt = t.boat(b.kind)
        for u, _ in b.load:
            cls = oob.unit(u).type.load_class
            if cls > bt.max_class:
                raise PlanError(
                    f"boat {b.id}: {u} is load class {_roman(cls)}, above the {b.kind}'s "
                    f"class {_roman(bt.max_class)} (2.1c, 2.1d)",
                    b.id,
                )
        pts = unit_points(rules, b.load) if b.load else b.points
        if b.load and b.points != pts:
            raise PlanError(f"boat {b.id}: says {b.points} load points but carries {pts}", b.id)
        if pts > bt.max_points:
            raise PlanError(
                f"boat {b.id}: {pts} load points exceed the {b.kind}'s {bt.max_points} "
                "(2.1b, 2.1d)",
                b.id,
            )
        if b.kind == "LCA":
            if b.group is None or b.group not in groups:
                raise PlanError(f"boat {b.id}: an LCA belongs to a boat group (2.1d)", b.id)
        elif b.group is not None:
            raise PlanError(f"boat {b.id}: only LCAs form boat groups (2.1d)", b.id)
        if not b.load and not (b.kind == "LCA" and groups[b.group or ""].pooled):
            raise PlanError(f"boat {b.id} carries nothing", b.id)

    # LCA groups (2.1d, 2.1j)
    for g in plan.groups:
        members = [plan.boat(x) for x in g.boats if x in boat_ids]
        if len(members) != len(g.boats):
            raise PlanError(f"group {g.id} names a boat that is not in the plan", g.id)
        if not 1 <= len(members) <= t.boat("LCA").group:
            raise PlanError(
                f"group {g.id}: a boat group has one to three LCAs, not {len(members)}", g.id
            )
        for b in members:
            if b.kind != "LCA" or b.group != g.id or b.wave != g.wave or b.box != g.box:
                raise PlanError(f"group {g.id}: boat {b.id} is not an LCA of this group", g.id)
        if g.pooled:
            if any(b.load for b in members):
                raise PlanError(f"group {g.id}: a pooled group lists no contents per boat", g.id)
            for u, s in g.pool:
                if not oob.has_unit(u):
                    raise PlanError(f"group {g.id}: no unit {u!r} in the order of battle", g.id)
                if s < 1:
                    raise PlanError(f"group {g.id}: {u} with {s} steps", g.id)
                if oob.unit(u).type.load_class > 1:
                    raise PlanError(f"group {g.id}: {u} is above load class I for an LCA", g.id)
            total = unit_points(rules, g.pool)
            if not g.pool:
                raise PlanError(f"group {g.id} carries nothing", g.id)
            if sum(b.points for b in members) != total:
                shares = "+".join(str(b.points) for b in members)
                raise PlanError(
                    f"group {g.id}: the LCAs' shares {shares} do not add up to the {total} "
                    "load points aboard",
                    g.id,
                )
        elif g.pool:
            raise PlanError(f"group {g.id}: fixed contents are listed per boat", g.id)

    # boat counts per wave (2.1g)
    for w in ASSAULT_WAVES:
        wave = t.wave(w)
        for kind in BOAT_KINDS:
            used = sum(1 for b in plan.boats if b.wave == w and b.kind == kind)
            if used > wave.count(kind):
                raise PlanError(
                    f"wave {w} uses {used} {kind}s; only {wave.count(kind)} are available (2.1g)",
                    f"wave {w}",
                )
        # 2.1f, per wave: all Dukws loaded with >= 4 points before any LCT or Rhino
        heavy = [b for b in plan.boats if b.wave == w and b.kind in ("LCT", "Rhino")]
        if heavy:
            dukws = [b for b in plan.boats if b.wave == w and b.kind == "DUKW"]
            short = [b.id for b in dukws if b.points < t.dukw_min_points]
            if len(dukws) < wave.count("DUKW") or short:
                missing = wave.count("DUKW") - len(dukws)
                why = (
                    f"{missing} of its {wave.count('DUKW')} Dukws are not loaded"
                    if missing
                    else f"Dukws {', '.join(short)} carry fewer than {t.dukw_min_points} points"
                )
                raise PlanError(
                    f"wave {w} uses {heavy[0].kind}s but {why}: every Dukw of the wave must carry "
                    f"at least {t.dukw_min_points} load points first (2.1f)",
                    heavy[0].id,
                )

    # the pre-planned first transport landing (2.1m)
    transport = [b for b in plan.boats if b.wave == TRANSPORT]
    h = plan.transport_hour
    if transport or h is not None:
        if h is None or not is_hour_turn(h) or h < t.transport_first_hour:
            raise PlanError(
                f"the first transport landing needs an hour turn from {t.transport_first_hour} "
                f"(2.1m), not {h!r}",
                "first_transport",
            )
        for kind, cap in t.transport_boats:
            used = sum(1 for b in transport if b.kind == kind)
            if used > cap:
                raise PlanError(
                    f"a transport landing has {cap} {kind}(s), the plan uses {used} (2.1m)",
                    "first_transport",
                )

    # units: known, complete, split only as 2.1j allows, one wave
    where: dict[str, list[tuple[str, int]]] = {}  # unit -> [(boat or group id, steps)]
    wave_of: dict[str, set[int]] = {}
    kind_of: dict[str, set[str]] = {}
    for b in plan.boats:
        for u, s in b.load:
            where.setdefault(u, []).append((b.group or b.id, s))
            wave_of.setdefault(u, set()).add(b.wave)
            kind_of.setdefault(u, set()).add(b.kind)
    for g in plan.groups:
        for u, s in g.pool:
            where.setdefault(u, []).append((g.id, s))
            wave_of.setdefault(u, set()).add(g.wave)
            kind_of.setdefault(u, set()).add("LCA")
    for u, parts in sorted(where.items()):
        unit = oob.unit(u)
        steps = sum(s for _, s in parts)
        if steps != unit.steps:
            raise PlanError(
                f"{u} has {unit.steps} steps but the plan carries {steps}: every step of a "
                "planned unit is aboard",
                parts[0][0],
            )
        if len(wave_of[u]) > 1:
            raise PlanError(
                f"{u} is split between waves; its parts must sail together", parts[0][0]
            )
        holders = {h for h, _ in parts}
        if len(parts) > 1 and len(holders) > 1:
            kinds = kind_of[u]
            if len(kinds) > 1 or not too_large(rules, u, next(iter(kinds))):
                raise PlanError(
                    f"{u} is split between boats: only the LCAs of one boat group, or boats "
                    "of one kind too small for the whole unit, may carry a split unit (2.1j)",
                    parts[0][0],
                )

    # op sheets (2.3a, 2.3b, 2.1m)
    if plan.opsheets and rules.no_opsheets:
        raise PlanError("this game plays without US op sheets until after the landing (2.3b)")
    if len(plan.opsheets) > t.max_us_opsheets:
        raise PlanError(
            f"{len(plan.opsheets)} op sheets: at most {t.max_us_opsheets} US op sheets (2.3a)",
            "opsheets",
        )
    sheet_of: dict[str, str] = {}
    unit_box: dict[str, tuple[int, str]] = {}
    for b in plan.boats:
        for u, _ in b.load:
            unit_box[u] = (b.wave, b.box)
    for g in plan.groups:
        for u, _ in g.pool:
            unit_box[u] = (g.wave, g.box)
    for o in plan.opsheets:
        if not beach.has_sector(o.sector):
            raise PlanError(f"op sheet {o.id}: no beach sector {o.sector!r}", o.id)
        sector = beach.sector(o.sector)
        for u in o.units:
            if u in sheet_of:
                raise PlanError(f"{u} is on op sheets {sheet_of[u]} and {o.id}", o.id)
            sheet_of[u] = o.id
            if u not in unit_box:
                raise PlanError(f"op sheet {o.id}: {u} is not in the landing plan", o.id)
            wave_no, box = unit_box[u]
            if wave_no == TRANSPORT:
                raise PlanError(
                    f"op sheet {o.id}: {u} lands by transport, and transport-landed units "
                    "never have op sheets (2.1m)",
                    o.id,
                )
            if beach.assault_boxes[box] != sector.beach:
                raise PlanError(
                    f"op sheet {o.id}: {u} starts from the {beach.assault_boxes[box]} beach box, "
                    f"but its sheet names {o.sector}: it must start from the {sector.beach} "
                    "beach box (2.3a)",
                    o.id,
                )

    # 29th ID in a strictly historical game (2.7a)
    if rules.historical_29th:
        for unit in oob.units:
            if unit.regiment == "116":
                wb = unit_box.get(unit.id)
                if (
                    wb is None
                    or wb[0] not in (1, 2)
                    or beach.assault_boxes.get(wb[1])
                    not in (
                        "Dog Red",
                        "Easy Green",
                    )
                ):
                    raise PlanError(
                        f"{unit.id}: in a historical game the 116th lands in assault waves 1-2 "
                        "at Dog Red or Easy Green (2.7a)",
                        unit.id,
                    )
            if unit.regiment == "115":
                wb = unit_box.get(unit.id)
                if wb is None or wb[0] not in (3, TRANSPORT):
                    raise PlanError(
                        f"{unit.id}: in a historical game the 115th lands in the third assault "
                        "wave or the first transport landing (2.7a)",
                        unit.id,
                    )

    # LCT(R) targets (2.2a) and NFSTs (2.6d)
    if len(plan.lctr) > t.lctr_count:
        raise PlanError(f"{len(plan.lctr)} LCT(R) targets: the US has {t.lctr_count} (2.2)", "lctr")
    for label in plan.lctr:
        if not beach.board.has(label):
            raise PlanError(f"LCT(R) target {label!r} is not on the map", "lctr")
        if not beach.lctr_target_allowed(beach.board.cell(label)):
            raise PlanError(
                f"LCT(R) target {label} is more than {t.lctr_target_range} hexes from a beach "
                "obstacle hex (2.2a)",
                "lctr",
            )
    seen: set[str] = set()
    for bn, u in plan.nfst:
        if bn in seen:
            raise PlanError(f"battalion {bn} has two NFSTs (2.6d)", "nfst")
        seen.add(bn)
        if (
            not oob.has_unit(u)
            or oob.unit(u).battalion != bn
            or oob.unit(u).type.name != "infantry"
        ):
            raise PlanError(f"NFST of {bn}: {u!r} is not an infantry unit of {bn} (2.6d)", "nfst")


def _roman(n: int) -> str:
    return ("I", "II", "III", "IV")[n - 1]


# ----------------------------------------------------------------------------- TOML plans
def load_plan(path: str | Path, rules: PlanRules) -> tuple[Plan, Source]:
    """Read and check a plan file; problems raise ``ScenarioError`` naming file and key."""
    root = load_toml(path)
    return plan_from_node(root, rules)


def _expand(node: Node, rules: PlanRules) -> list[tuple[str, int]]:
    """``["E/2/16", "A/7FA.guns:2"]`` -> unit and steps (a formation is all its units)."""
    out: list[tuple[str, int]] = []
    for i, item in enumerate(node.as_str_list()):
        where = Node(item, node.file, f"{node.path}[{i}]")
        name, _, steps = item.partition(":")
        oob = rules.oob
        if oob.has_formation(name) and not steps:
            out.extend((oob.units[k].id, oob.units[k].steps) for k in oob.formation_units(name))
        elif oob.has_unit(name):
            n = int(steps) if steps.isdigit() else (oob.unit(name).steps if not steps else -1)
            if n < 1:
                raise where.error(f"{steps!r} is not a number of steps")
            out.append((name, n))
        else:
            raise where.error(f"{name!r} is neither a unit nor a formation of the order of battle")
    return out


def _fill(
    load: list[tuple[str, int]], count: int, kind: str, rules: PlanRules, node: Node
) -> list[list[tuple[str, int]]]:
    """Spread a load over ``count`` boats of ``kind``: whole units where they fit."""
    cap = rules.tables.boat(kind).max_points
    boats: list[list[tuple[str, int]]] = [[] for _ in range(count)]
    room = [cap] * count
    k = 0
    for u, steps in load:
        per = rules.oob.unit(u).type.points
        left = steps
        while left:
            if k >= count:
                raise node.error(f"the load does not fit in {count} {kind}(s)")
            if per * left <= room[k]:
                boats[k].append((u, left))
                room[k] -= per * left
                left = 0
            elif too_large(rules, u, kind) and room[k] >= per:
                take = room[k] // per
                boats[k].append((u, take))
                room[k] -= per * take
                left -= take
            else:
                k += 1
    return boats


def plan_from_node(root: Node, rules: PlanRules) -> tuple[Plan, Source]:
    root.only({"plan", "groups", "boats", "dd", "opsheets", "first_transport", "fires", "nfst"})
    meta = root.req("plan").only({"id", "title", "source"})
    name = meta.req("id").as_str()
    boats: list[PlannedBoat] = []
    groups: list[PlannedGroup] = []
    keys: dict[str, str] = {}
    counters: dict[str, int] = {}

    def next_id(prefix: str) -> str:
        counters[prefix] = counters.get(prefix, 0) + 1
        return f"{prefix}{counters[prefix]:02d}"

    def wave_of(node: Node) -> int:
        return node.req("wave").as_int_in(1, 3)

    def box_of(node: Node, kinds: dict[str, str]) -> str:
        box = node.req("box").as_str()
        if box not in kinds:
            raise node.req("box").error(f"{box!r} is not one of the boxes {sorted(kinds)}")
        return box

    for i, gn in enumerate(root.req("groups").as_list() if root.has("groups") else []):
        gn.only({"wave", "box", "lcas", "units", "points", "boats", "source"})
        wave = wave_of(gn)
        box = box_of(gn, rules.beach.assault_boxes)
        gid = next_id(f"{wave}.G")
        keys[gid] = gn.path
        if gn.has("boats"):
            if gn.has("units") or gn.has("points") or gn.has("lcas"):
                raise gn.error("a group lists either boats (fixed contents) or units and lcas")
            ids = []
            for j, bn in enumerate(gn.req("boats").as_list()):
                load = _expand(bn, rules)
                bid = next_id(f"{wave}.")
                keys[bid] = f"{gn.path}.boats[{j}]"
                ids.append(bid)
                boats.append(
                    PlannedBoat(bid, wave, "LCA", box, gid, tuple(load), unit_points(rules, load))
                )
            groups.append(PlannedGroup(gid, wave, box, tuple(ids), False, ()))
        else:
            pool = _expand(gn.req("units"), rules)
            n = gn.req("lcas").as_int_in(1, 9)
            total = unit_points(rules, pool)
            if gn.has("points"):
                shares = gn.req("points").as_int_list()
                if len(shares) != n:
                    raise gn.req("points").error(f"give one share per LCA ({n})")
            else:
                cap = rules.tables.boat("LCA").max_points
                shares = [min(cap, max(0, total - cap * k)) for k in range(n)]
                if total > cap * n:
                    shares[-1] += total - cap * n
            ids = []
            for share in shares:
                bid = next_id(f"{wave}.")
                keys[bid] = gn.path
                ids.append(bid)
                boats.append(PlannedBoat(bid, wave, "LCA", box, gid, (), share))
            groups.append(PlannedGroup(gid, wave, box, tuple(ids), True, tuple(pool)))
        _ = i

    for bn in root.req("boats").as_list() if root.has("boats") else []:
        bn.only({"wave", "kind", "box", "units", "count", "source"})
        wave = wave_of(bn)
        kind = bn.req("kind").as_choice(set(BOAT_KINDS) - {"LCA", "LCI"})
        box = box_of(bn, rules.beach.assault_boxes)
        count = bn.req("count").as_int_in(1, 99) if bn.has("count") else 1
        for load in _fill(_expand(bn.req("units"), rules), count, kind, rules, bn):
            bid = next_id(f"{wave}.")
            keys[bid] = bn.path
            boats.append(
                PlannedBoat(bid, wave, kind, box, None, tuple(load), unit_points(rules, load))
            )

    for dn in root.req("dd").as_list() if root.has("dd") else []:
        dn.only({"wave", "box", "units", "source"})
        wave = wave_of(dn)
        box = box_of(dn, rules.beach.assault_boxes)
        for u, steps in _expand(dn.req("units"), rules):
            for _ in range(steps):
                bid = next_id(f"{wave}.DD")
                keys[bid] = dn.path
                boats.append(PlannedBoat(bid, wave, DD, box, None, ((u, 1),), 0))

    hour = None
    if root.has("first_transport"):
        ft = root.req("first_transport").only({"hour", "boats", "source"})
        hour = ft.req("hour").as_str()
        for bn in ft.req("boats").as_list():
            bn.only({"kind", "box", "units", "count", "source"})
            kind = bn.req("kind").as_choice({"LCI", "LCT"})
            box = box_of(bn, rules.beach.transport_boxes)
            count = bn.req("count").as_int_in(1, 9) if bn.has("count") else 1
            for load in _fill(_expand(bn.req("units"), rules), count, kind, rules, bn):
                bid = next_id("T.")
                keys[bid] = bn.path
                boats.append(
                    PlannedBoat(
                        bid, TRANSPORT, kind, box, None, tuple(load), unit_points(rules, load)
                    )
                )

    sheets = []
    for on in root.req("opsheets").as_list() if root.has("opsheets") else []:
        on.only({"id", "sector", "units", "source"})
        oid = on.req("id").as_str()
        keys[oid] = on.path
        units = tuple(u for u, _ in _expand(on.req("units"), rules))
        sheets.append(OpSheet(oid, on.req("sector").as_str(), units))

    lctr: tuple[str, ...] = ()
    if root.has("fires"):
        fn = root.req("fires").only({"lctr", "source"})
        lctr = tuple(fn.req("lctr").as_str_list())
        keys["lctr"] = f"{fn.path}.lctr"
    nfst: list[tuple[str, str]] = []
    if root.has("nfst"):
        keys["nfst"] = "nfst"
        for bn_, un in root.req("nfst").items():
            nfst.append((bn_, un.as_str()))

    plan = Plan(name, tuple(boats), tuple(groups), tuple(sheets), hour, lctr, tuple(nfst))
    try:
        check_plan(plan, rules)
    except PlanError as exc:
        raise ScenarioError(root.file, keys.get(exc.where, exc.where), str(exc)) from None
    return plan, meta.source()
