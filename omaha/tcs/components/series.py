"""The TCS series tables the Omaha rules hook into, read from ``data/series.toml``.

The series rules are not in our text: every table here is a reconstruction
whose structure follows the public descriptions named in the data file (and in
``omaha provenance tcs``); the Omaha rules' own values (defensive zones, the
shingle, the Area C Miller table...) stay in :mod:`omaha.tcs.components.tables`.
An owner of the series rules may replace the file; the loader validates it.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from omaha.kernel.data import Node, load_toml
from omaha.kernel.scenario import ProvenanceItem
from omaha.tcs.components.tables import DATA, Band

TERRAINS = ("open", "beach", "flat", "draw", "bluff", "woods", "forest", "village", "building")


@attrs.frozen
class Series:
    """Every reconstructed series table (see the data file for each one's reading)."""

    area_columns: tuple[int, ...]
    area_results: tuple[tuple[int, ...], ...]  # suppress, one, two, three steps
    area_terrain: dict[str, int]
    area_improved: int
    area_dug_in: int
    area_move_mode: int
    area_road_moved: int
    area_long_range: int
    area_dense: int
    area_dense_from: int
    point_kill: int
    point_terrain: dict[str, int]
    point_improved: int
    point_long_range: int
    point_move_mode: int
    point_road_moved: int
    artillery_kill: int
    calibres: dict[str, tuple[int, int]]  # calibre -> (area firepower a round, point bonus)
    concentrations: dict[str, int]
    miller: dict[str, tuple[Band, ...]]
    adjust_distances: tuple[int, ...]
    adjust_needed: tuple[int, ...]
    adjust_multiplier: int
    morale_suppressed: int
    morale_retreat: int
    morale_broken: int
    morale_per_step: int
    morale_company: int
    morale_mortar: int
    morale_move_mode: int
    morale_cover: int
    morale_leader: int
    morale_recovery: int
    retreat_hexes: int
    at_needed: tuple[int, ...]
    at_per_extra: int
    at_max_bonus: int
    assault_win: int
    assault_point_steps: int
    assault_fire_bonus: int
    assault_terrain: dict[str, int]
    assault_improved: int
    spot_day: int
    spot_night: int
    spot_concealed: dict[str, int]
    spot_dz: int
    spot_fired: int
    heights: dict[str, int]
    ow_marked_self: int
    ow_marked_spotter: int
    weighted_unassigned: int
    weighted_assigned: int
    weighted_fired: int
    implement_at: int
    reserve_roll: int
    provenance: tuple[ProvenanceItem, ...]


def _ints(node: Node, n: int | None = None) -> tuple[int, ...]:
    values = tuple(node.as_int_list())
    if n is not None and len(values) != n:
        raise node.error(f"needs {n} numbers, has {len(values)}")
    return values


def _terrain(node: Node) -> dict[str, int]:
    out = {}
    for k, v in node.items():
        if k not in TERRAINS:
            raise v.error(f"unknown terrain {k!r} (expected one of: {', '.join(TERRAINS)})")
        out[k] = v.as_int_in(-9, 9)
    return out


def _bands(node: Node, prov: list[ProvenanceItem], what: str) -> tuple[Band, ...]:
    bands: list[Band] = []
    for b in node.as_list():
        b.only({"low", "high", "rounds", "source"})
        band = Band(b.req("low").as_int(), b.req("high").as_int(), b.req("rounds").as_int())
        if bands and band.low <= bands[-1].high:
            raise b.req("low").error(f"the bands must follow on from {bands[-1].high}")
        bands.append(band)
        prov.append(ProvenanceItem(what, f"{band.low}-{band.high}", b.source()))
    if not bands or bands[0].low != 11 or bands[-1].high != 66:
        raise node.error("a Miller table covers the d66 rolls 11-66")
    return tuple(bands)


def load_series(path: str | Path = DATA / "series.toml") -> Series:
    """Read the series tables; a problem raises ``ScenarioError`` naming file and key."""
    return series_from_node(load_toml(path))


def series_from_node(root: Node) -> Series:
    """:func:`load_series` over a parsed file (a scenario's component)."""
    prov: list[ProvenanceItem] = []
    prov.append(ProvenanceItem("series tables", "all", root.source()))
    described = root.req("descriptions")
    names = set()
    for key, node in described.items():
        names.add(key)
        node.only({"source"})
        prov.append(ProvenanceItem("public description", f"[{key}]", node.source()))

    def sec(key: str, fields: set[str]) -> Node:
        node = root.req(key).only({*fields, "source"})
        prov.append(ProvenanceItem("series table", key, node.source()))
        return node

    af = sec("area_fire", {"columns", "suppress", "one_step", "two_steps", "three_steps"})
    cols = _ints(af.req("columns"))
    if list(cols) != sorted(set(cols)) or cols[0] != 1:
        raise af.req("columns").error("columns rise from 1")
    results = tuple(
        _ints(af.req(k), len(cols)) for k in ("suppress", "one_step", "two_steps", "three_steps")
    )
    am = sec(
        "area_modifiers",
        {
            "terrain",
            "improved",
            "dug_in",
            "move_mode",
            "road_moved",
            "long_range",
            "dense",
            "dense_from",
        },
    )
    pf = sec("point_fire", {"kill", "terrain", "improved", "long_range", "move_mode", "road_moved"})
    ap = sec("artillery_point", {"kill"})
    ca = root.req("calibres")
    prov.append(ProvenanceItem("series table", "calibres", ca.source()))
    calibres = {}
    for k, v in ca.items():
        if k == "source":
            continue
        v.only({"area", "point"})
        calibres[k] = (v.req("area").as_int_in(0, 99), v.req("point").as_int_in(-9, 9))
    co = sec("concentrations", {"A", "B"})
    mi = root.req("miller")
    miller = {k: _bands(mi.req(k), prov, f"Miller table Area {k}") for k in ("A", "B")}
    ad = sec("adjustment", {"distances", "needed", "multiplier"})
    dists = _ints(ad.req("distances"))
    mo = sec(
        "morale",
        {
            "suppressed",
            "retreat",
            "broken",
            "per_step",
            "company",
            "mortar",
            "move_mode",
            "cover",
            "leader",
            "recovery",
            "retreat_hexes",
        },
    )
    at = sec("at_roll", {"needed", "per_extra_unit", "max_bonus"})
    asl = sec(
        "assault", {"win", "point_target_steps", "defensive_fire_bonus", "terrain", "improved"}
    )
    sp = sec("spotting", {"day", "night", "concealed", "defensive_zone", "fired", "height"})
    ow = sec("overwatch", {"marked_self", "marked_spotter"})
    sec("modes", {"move_cost"})
    cm = sec(
        "command",
        {
            "weighted_unassigned",
            "weighted_assigned",
            "weighted_fired",
            "implement_at",
            "reserve_roll",
        },
    )

    def i(node: Node, key: str, lo: int = -99, hi: int = 99) -> int:
        return node.req(key).as_int_in(lo, hi)

    heights = {k: v.as_int_in(0, 9) for k, v in sp.req("height").items()}
    if "level" not in heights:
        raise sp.req("height").error("needs 'level': the height of one map level")
    for item in prov:  # every description an entry follows is one declared above
        for key in re.findall(r"\[(\w+)\]", item.source.text):
            if key not in names:
                raise described.error(
                    f"{item.component} {item.key} follows [{key}], which is not described here"
                )
    return Series(
        area_columns=cols,
        area_results=results,
        area_terrain=_terrain(am.req("terrain")),
        area_improved=i(am, "improved"),
        area_dug_in=i(am, "dug_in"),
        area_move_mode=i(am, "move_mode"),
        area_road_moved=i(am, "road_moved"),
        area_long_range=i(am, "long_range"),
        area_dense=i(am, "dense"),
        area_dense_from=i(am, "dense_from", 1, 99),
        point_kill=i(pf, "kill", 2, 30),
        point_terrain=_terrain(pf.req("terrain")),
        point_improved=i(pf, "improved"),
        point_long_range=i(pf, "long_range"),
        point_move_mode=i(pf, "move_mode"),
        point_road_moved=i(pf, "road_moved"),
        artillery_kill=i(ap, "kill", 2, 30),
        calibres=calibres,
        concentrations={"A": i(co, "A", 0, 20), "B": i(co, "B", 0, 20)},
        miller=miller,
        adjust_distances=dists,
        adjust_needed=_ints(ad.req("needed"), len(dists)),
        adjust_multiplier=i(ad, "multiplier", 1, 9),
        morale_suppressed=i(mo, "suppressed"),
        morale_retreat=i(mo, "retreat"),
        morale_broken=i(mo, "broken"),
        morale_per_step=i(mo, "per_step"),
        morale_company=i(mo, "company"),
        morale_mortar=i(mo, "mortar"),
        morale_move_mode=i(mo, "move_mode"),
        morale_cover=i(mo, "cover"),
        morale_leader=i(mo, "leader"),
        morale_recovery=i(mo, "recovery", 0, 9),
        retreat_hexes=i(mo, "retreat_hexes", 1, 9),
        at_needed=_ints(at.req("needed"), 3),
        at_per_extra=i(at, "per_extra_unit"),
        at_max_bonus=i(at, "max_bonus"),
        assault_win=i(asl, "win", 2, 30),
        assault_point_steps=i(asl, "point_target_steps", 0, 9),
        assault_fire_bonus=i(asl, "defensive_fire_bonus"),
        assault_terrain=_terrain(asl.req("terrain")),
        assault_improved=i(asl, "improved"),
        spot_day=i(sp, "day", 1, 99),
        spot_night=i(sp, "night", 1, 99),
        spot_concealed=_terrain(sp.req("concealed")),
        spot_dz=i(sp, "defensive_zone", 1, 99),
        spot_fired=i(sp, "fired", 1, 99),
        heights=heights,
        ow_marked_self=i(ow, "marked_self", 1, 7),
        ow_marked_spotter=i(ow, "marked_spotter", 1, 7),
        weighted_unassigned=i(cm, "weighted_unassigned", 0, 9),
        weighted_assigned=i(cm, "weighted_assigned", 0, 9),
        weighted_fired=i(cm, "weighted_fired", 0, 9),
        implement_at=i(cm, "implement_at", 1, 99),
        reserve_roll=i(cm, "reserve_roll", 1, 7),
        provenance=tuple(prov),
    )
