"""The published charts of D-Day at Omaha Beach as typed records, read from ``data/charts.toml``.

:func:`load_charts` validates a charts file (a bad one raises ``ScenarioError``
naming file, key and problem); :data:`CHARTS` holds the shipped charts that
:mod:`omaha.landing_table.rules` applies. Every record keeps its source (a
chart of the published text) for ``omaha provenance``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from omaha.kernel.data import Node, Source, load_toml

CHARTS_FILE = Path(__file__).resolve().parent.parent / "data" / "charts.toml"

LETTERS = ("A", "B", "C", "D")
DOTS = ("intense", "steady", "sporadic")
FIRERS = ("position", "unrevealed", "ambush")
ACTION_LETTERS = ("F", "R", "M", "P", "A")
STATUSES = ("us_in_fof", "no_us_in_fof", "unoccupied")
LANDING_EFFECTS = frozenset(
    {"none", "drift", "lose", "lose_drift", "delay", "delay_to", "eliminated", "remove", "no_check"}
)
ATTACK_RESULTS = frozenset(
    {
        "us_disrupted",
        "german_gains_depth",
        "german_unrevealed",
        "german_disrupted",
        "german_defeated",
        "depth_eliminated",
        "optional_attrition",
        "reveal_compare",
        "none",
    }
)
GERMAN_ACTIONS = frozenset(
    {
        "fire",
        "no_action",
        "reoccupy",
        "resupply_fire",
        "redeploy",
        "reinforce",
        "mortar_fire",
        "patrol_all",
        "patrol_one",
        "artillery_fire",
        "advance_or_fire",
        "advance",
        "ambush",
    }
)
ARMOUR_ACTIONS = frozenset(
    {"fire_or_move", "overrun", "move_or_fire", "position_and_fire", "aimed_fire"}
)


# --------------------------------------------------------------------------
# Chart records
# --------------------------------------------------------------------------
@attrs.frozen
class LandingEffect:
    """One cell of the Amphibious Landing Table.

    ``effect`` is one of: ``none``; ``drift`` (``drift`` boxes, east positive);
    ``lose`` (``steps``); ``lose_drift``; ``delay`` (``turns`` ahead on the
    track); ``delay_to`` (to turn ``to_turn``); ``eliminated``; ``remove``
    (delayed until 7 June: out of play); ``no_check`` (no landing hazard; mine
    strikes still apply). ``ranger_option`` marks the ``**`` note.
    """

    effect: str
    steps: int = 0
    drift: int = 0
    turns: int = 0
    to_turn: int = 0
    ranger_option: bool = False
    source: str = ""

    def describe(self) -> str:
        """The effect in a few words, for the log."""
        e = self.effect
        if e == "none":
            return "no effect"
        if e == "no_check":
            return "no landing hazard (mine strikes only)"
        if e == "eliminated":
            return "eliminated"
        if e == "remove":
            return "delayed until 7 June (out of play)"
        if e == "delay":
            return f"delayed {self.turns} turns"
        if e == "delay_to":
            return f"delayed to turn {self.to_turn}"
        parts = []
        if e in ("lose", "lose_drift"):
            parts.append(f"loses {self.steps} step{'s' if self.steps != 1 else ''}")
        if e in ("drift", "lose_drift"):
            way = "east" if self.drift > 0 else "west"
            n = abs(self.drift)
            parts.append(f"drifts {n} box{'es' if n != 1 else ''} {way}")
        return " and ".join(parts)


@attrs.frozen
class FireEffect:
    """What a German fire result does to one eligible US unit (German Fire Chart)."""

    lose: bool
    disrupt: bool
    one: bool = False  # an ambush hits a single unit

    def describe(self) -> str:
        if self.lose and self.disrupt:
            return "loses a step and is disrupted"
        return "loses a step" if self.lose else "is disrupted"


@attrs.frozen
class _FireRow:
    targets: str
    lose: bool
    disrupt: bool


@attrs.frozen
class WeaponsVerdict:
    """Whether attackers meet a German unit's weapons requirements (US Weapons Chart)."""

    ok: bool
    missing: tuple[str, ...]
    flanking_met: bool
    hero_used: bool = False


@attrs.frozen
class Charts:
    """Every published chart, read from ``charts.toml``."""

    bands: tuple[tuple[str, int, int, tuple[int, int] | None], ...]
    landing: dict[tuple[str, str, str], LandingEffect]
    mine_first: int
    mine_last: int
    all_cleared_turn: int
    ranger_drift: int
    dot_priority: dict[str, int]
    dot_symbol: dict[str, str]
    fire: dict[tuple[str, str], _FireRow]
    concentrated_steps: int
    leader_dots: tuple[str, ...]
    hit_limits: tuple[tuple[int, int, int], ...]
    weapons: dict[str, frozenset[str]]
    tank_close: int
    weapon_names: dict[str, str]
    hero_never: frozenset[str]
    barrage_bands: tuple[tuple[int, int], ...]
    barrage: dict[tuple[bool, bool, str], tuple[str, ...]]
    hex_mult: dict[str, tuple[int, int]]
    side_mult: dict[str, tuple[int, int]]
    prohibited: frozenset[str]
    attack: dict[tuple[bool, str, str], tuple[tuple[int, int, tuple[str, ...]], ...]]
    action_first: int
    actions: dict[tuple[str, str, str], str]
    action_params: dict[str, Any]
    armour: dict[str, tuple[str, int]]
    sources: tuple[tuple[str, str, Source], ...]


def load_charts(path: str | Path = CHARTS_FILE) -> Charts:
    """Read and validate a charts file; problems raise ``ScenarioError``."""
    return charts_from_node(load_toml(path))


def charts_from_node(root: Node) -> Charts:
    sources: list[tuple[str, str, Source]] = []

    def src(node: Node, component: str, key: str) -> None:
        sources.append((component, key, node.source()))

    bands = []
    for bn in root.req("landing_band").as_list():
        bn.only({"band", "first", "last", "mines", "source"})
        mines = bn.get("mines")
        window = None
        if mines is not None:
            lo, hi = mines.as_int_list()
            window = (lo, hi)
        name = bn.req("band").as_str()
        bands.append((name, bn.req("first").as_int(), bn.req("last").as_int(), window))
        src(bn, "chart: Amphibious Landing Table", f"band {name}")
    band_names = {b[0] for b in bands}
    notes = root.req("landing_notes").only(
        {"mine_first", "mine_last", "all_cleared_turn", "ranger_voluntary_drift", "source"}
    )
    src(notes, "chart: Amphibious Landing Table", "notes")
    landing: dict[tuple[str, str, str], LandingEffect] = {}
    for ln in root.req("landing").as_list():
        ln.only(
            {"band", "row", "result", "effect", "steps", "drift", "turns", "to_turn"}
            | {"ranger_option", "source"}
        )
        band = ln.req("band").as_choice(band_names)
        row = ln.req("row").as_str()
        letter = ln.req("result").as_choice(set(LETTERS))
        effect = ln.req("effect").as_choice(LANDING_EFFECTS)

        def opt(key: str, node: Node = ln) -> int:
            child = node.get(key)
            return child.as_int() if child is not None else 0

        ranger = ln.get("ranger_option")
        key = (band, row, letter)
        if key in landing:
            raise ln.error(f"landing cell {band}/{row}/{letter} is given twice")
        landing[key] = LandingEffect(
            effect,
            steps=opt("steps"),
            drift=opt("drift"),
            turns=opt("turns"),
            to_turn=opt("to_turn"),
            ranger_option=ranger.as_bool() if ranger is not None else False,
            source=ln.source().text,
        )
        src(ln, "chart: Amphibious Landing Table", f"{band} {row} {letter}")
    dot_priority: dict[str, int] = {}
    dot_symbol: dict[str, str] = {}
    for dn in root.req("fire_dot").as_list():
        dn.only({"dot", "priority", "symbol", "source"})
        dot = dn.req("dot").as_choice(set(DOTS))
        dot_priority[dot] = dn.req("priority").as_int()
        dot_symbol[dot] = dn.req("symbol").as_str()
    fire: dict[tuple[str, str], _FireRow] = {}
    for fn in root.req("fire").as_list():
        fn.only({"dot", "firer", "targets", "lose", "disrupt", "reading", "source"})
        dot = fn.req("dot").as_choice(set(DOTS))
        firer = fn.req("firer").as_choice(set(FIRERS))
        fire[(dot, firer)] = _FireRow(
            fn.req("targets").as_choice({"all", "nonarmoured", "one_symbol", "none"}),
            fn.req("lose").as_bool(),
            fn.req("disrupt").as_bool(),
        )
        src(fn, "chart: German Fire Chart", f"{dot} / {firer}")
    for dot in DOTS:
        for firer in FIRERS:
            if (dot, firer) not in fire:
                raise root.req("fire").error(f"the cell {dot} / {firer} is missing")
    fnotes = root.req("fire_notes").only(
        {"concentrated_steps", "leader_dots", "selection", "source"}
    )
    src(fnotes, "chart: German Fire Chart", "notes")
    limits = []
    for hn in root.req("hit_limit").as_list():
        hn.only({"first", "last", "multiplier", "source"})
        limits.append(
            (hn.req("first").as_int(), hn.req("last").as_int(), hn.req("multiplier").as_int())
        )
        src(hn, "chart: German Fire Chart", "hit limits")
    weapons: dict[str, frozenset[str]] = {}
    tank_close = 3
    for wn in root.req("weapons").as_list():
        wn.only({"row", "weapons", "within", "source"})
        row = wn.req("row").as_str()
        weapons[row] = frozenset(wn.req("weapons").as_str_list())
        if (within := wn.get("within")) is not None:
            tank_close = within.as_int()
        src(wn, "chart: US Weapons Chart", row)
    names_node = root.req("weapon_names")
    names = {k: v.as_str() for k, v in names_node.items() if k != "source"}
    for row, ws in weapons.items():
        for code in sorted(ws):
            if code not in names:
                raise root.req("weapons").error(f"row {row}: {code!r} is not a weapon code")
    wnotes = root.req("weapon_notes").only({"flanking", "hero_stands_for", "hero_never", "source"})
    src(wnotes, "chart: US Weapons Chart", "footnote")
    bb = root.req("barrage_bands")
    bands_b = tuple(tuple(p.as_int_list()) for p in bb.req("bands").as_list())
    barrage: dict[tuple[bool, bool, str], tuple[str, ...]] = {}
    for brn in root.req("barrage").as_list():
        brn.only({"colour", "symbol", "depth", "results", "reading", "source"})
        results = tuple(brn.req("results").as_str_list())
        if len(results) != len(bands_b):
            raise brn.req("results").error(f"expected {len(bands_b)} results, one per strength")
        for r in results:
            if r not in ("none", "disrupt", "disrupt_remove_depth"):
                raise brn.req("results").error(f"{r!r} is not a barrage result")
        key_b = (
            brn.req("colour").as_bool(),
            brn.req("symbol").as_bool(),
            brn.req("depth").as_choice({"yes", "no", "any"}),
        )
        barrage[key_b] = results
        src(brn, "chart: US Barrage Table", f"colour={key_b[0]} symbol={key_b[1]} depth={key_b[2]}")
    hex_mult: dict[str, tuple[int, int]] = {}
    for tn in root.req("terrain_hex").as_list():
        tn.only({"terrain", "unit", "depth", "source"})
        for t in tn.req("terrain").as_str_list():
            hex_mult[t] = (tn.req("unit").as_int(), tn.req("depth").as_int())
        src(tn, "chart: Terrain Defense Table", ", ".join(tn.req("terrain").as_str_list()))
    side_mult: dict[str, tuple[int, int]] = {}
    prohibited: set[str] = set()
    for sn in root.req("terrain_side").as_list():
        sn.only({"side", "unit", "depth", "prohibited", "source"})
        sides = sn.req("side").as_str_list()
        if (p := sn.get("prohibited")) is not None and p.as_bool():
            prohibited.update(sides)
        else:
            for s in sides:
                side_mult[s] = (sn.req("unit").as_int(), sn.req("depth").as_int())
        src(sn, "chart: Terrain Defense Table", ", ".join(sides))
    attack: dict[tuple[bool, str, str], list[tuple[int, int, tuple[str, ...]]]] = {}
    for an in root.req("attack").as_list():
        an.only({"weapons", "compare", "column", "results", "first", "last", "reading", "source"})
        wok = an.req("weapons").as_bool()
        cmps = {"less_or_equal", "greater"} if not wok else {"less", "equal", "greater"}
        cmp = an.req("compare").as_choice(cmps | {"double"})
        col = an.req("column").as_choice({"alone", "unrevealed", "revealed"})
        res = tuple(an.req("results").as_str_list())
        for r in res:
            if r not in ATTACK_RESULTS:
                raise an.req("results").error(f"{r!r} is not an attack result")
        first = an.get("first")
        last = an.get("last")
        attack.setdefault((wok, cmp, col), []).append(
            (first.as_int() if first else 1, last.as_int() if last else 99, res)
        )
        src(an, "chart: US Attack Results Chart", f"weapons={wok} {cmp} {col}")
    anotes = root.req("attack_notes")
    src(anotes, "chart: US Attack Results Chart", "notes")
    at = root.req("action_turns")
    actions: dict[tuple[str, str, str], str] = {}
    for acn in root.req("action").as_list():
        acn.only({"letter", "position", "actions", "source"})
        letter = acn.req("letter").as_choice(set(ACTION_LETTERS))
        pos = acn.req("position").as_choice({"wn", "reinforcement"})
        table = acn.req("actions").only(set(STATUSES))
        for status in STATUSES:
            actions[(letter, pos, status)] = table.req(status).as_choice(GERMAN_ACTIONS)
        src(acn, "chart: German Action Summary", f"{letter} {pos}")
    params_node = root.req("action_params")
    params = {k: v.value for k, v in params_node.items() if k != "source"}
    src(params_node, "chart: German Action Summary", "column conditions")
    armour: dict[str, tuple[str, int]] = {}
    for arn in root.req("armour_action").as_list():
        arn.only({"letter", "action", "move", "through_us_hexes", "source"})
        armour[arn.req("letter").as_choice(set(ACTION_LETTERS))] = (
            arn.req("action").as_choice(ARMOUR_ACTIONS),
            arn.req("move").as_int(),
        )
        src(arn, "chart: German Action Summary", f"armour {arn.req('letter').as_str()}")
    return Charts(
        bands=tuple(bands),
        landing=landing,
        mine_first=notes.req("mine_first").as_int(),
        mine_last=notes.req("mine_last").as_int(),
        all_cleared_turn=notes.req("all_cleared_turn").as_int(),
        ranger_drift=notes.req("ranger_voluntary_drift").as_int(),
        dot_priority=dot_priority,
        dot_symbol=dot_symbol,
        fire=fire,
        concentrated_steps=fnotes.req("concentrated_steps").as_int(),
        leader_dots=tuple(fnotes.req("leader_dots").as_str_list()),
        hit_limits=tuple(limits),
        weapons=weapons,
        tank_close=tank_close,
        weapon_names=names,
        hero_never=frozenset(wnotes.req("hero_never").as_str_list()),
        barrage_bands=tuple((b[0], b[1]) for b in bands_b),
        barrage=barrage,
        hex_mult=hex_mult,
        side_mult=side_mult,
        prohibited=frozenset(prohibited),
        attack={k: tuple(v) for k, v in attack.items()},
        action_first=at.req("first").as_int(),
        actions=actions,
        action_params=params,
        armour=armour,
        sources=tuple(sources),
    )


_CHARTS_NODE = load_toml(CHARTS_FILE)
CHARTS = charts_from_node(_CHARTS_NODE)
#: The chart data as parsed (part of every scenario's content hash).
CHARTS_DATA: Any = _CHARTS_NODE.value
