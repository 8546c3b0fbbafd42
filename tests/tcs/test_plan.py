"""TCS Omaha 2.1-2.1h, 2.3a, 2.7a: landing plans and their validation."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest
from planbuild import boat, full, pooled

from omaha.errors import ScenarioError
from omaha.kernel.data import parse_toml
from omaha.tcs.components.oob import Oob
from omaha.tcs.components.plan import (
    Plan,
    PlanError,
    PlannedBoat,
    PlanRules,
    check_plan,
    plan_from_node,
)
from omaha.tcs.scenario import TcsScenario


def expect(plan: Plan, rules: PlanRules, pattern: str) -> None:
    with pytest.raises(PlanError, match=pattern):
        check_plan(plan, rules)


def test_the_historical_plan_is_valid(landing: TcsScenario) -> None:
    plan = landing.plans["historical"]
    check_plan(plan, landing.rules)
    wave1 = plan.wave_boats(1)
    assert sum(1 for b in wave1 if b.kind == "LCA") == 12
    assert sum(1 for b in wave1 if b.kind == "DD") == 32
    # E, F/16 to Easy Red and I, L/16 to Fox Green in the first wave (HISTORY.md)
    boxes = {g.pool[0][0].split(".")[0]: g.box for g in plan.groups if g.wave == 1}
    assert boxes["E/2/16"] == boxes["F/2/16"] == "EasyRed"
    assert boxes["I/3/16"] == boxes["L/3/16"] == "FoxGreen"
    # A/1/16 in two LCAs of 9 and 8 points, as in the 2.1j example
    a_co = next(g for g in plan.groups if g.pool[0][0].startswith("A/1/16"))
    assert [plan.boat(b).points for b in a_co.boats] == [9, 8]
    # strictly historical 29th ID requirements (2.7a) hold
    check_plan(plan, attrs.evolve(landing.rules, historical_29th=True))
    assert plan.transport_hour == "1000" and len(plan.lctr) == 4


def test_plan_tokens_round_trip(landing: TcsScenario) -> None:
    plan = landing.plans["historical"]
    again = Plan.from_tokens(plan.tokens())
    assert again == plan
    odd = Plan("a name, with|odd chars", opsheets=())
    assert Plan.from_tokens(odd.tokens()).name == odd.name
    with pytest.raises(PlanError, match="malformed"):
        Plan.from_tokens(["B|x|1"])


def test_load_class_and_points(oob: Oob, rules: PlanRules) -> None:
    """2.1b, 2.1c, 2.1d: a boat carries no class above its own and no more than its points."""
    truck = (("Sv/16.trk1", 1),)
    expect(
        Plan("t", (boat("b", 2, "DUKW", "EasyRed", truck, oob),)),
        rules,
        r"load class III, above the DUKW's class II",
    )
    tanks = tuple((f"A/741.{k}", 1) for k in range(1, 6))  # 30 points
    expect(
        Plan("t", (boat("b", 1, "LCT", "EasyRed", tanks, oob),)),
        rules,
        r"30 load points exceed the LCT's 25",
    )
    gun = (("A/7FA.guns", 4),)
    expect(Plan("t", (boat("b", 2, "Rhino", "EasyRed", gun, oob),)), rules, "Dukw")  # 2.1f first


def test_lca_groups(oob: Oob, rules: PlanRules) -> None:
    """2.1d: groups of one to three LCAs; shares add up; 2.1j pooled contents."""
    boats, group = pooled("g", 1, "EasyRed", [9, 8, 0, 0], full(oob, "E/2/16"))
    expect(Plan("t", tuple(boats), (group,)), rules, "one to three LCAs, not 4")
    boats, group = pooled("g", 1, "EasyRed", [9, 7], full(oob, "E/2/16"))
    expect(Plan("t", tuple(boats), (group,)), rules, r"shares 9\+7 do not add up to the 17")
    boats, group = pooled("g", 1, "EasyRed", [9], full(oob, "E/2/16"))
    expect(Plan("t", tuple(boats), (group,)), rules, "17 load points exceed|shares")
    tank = (("A/741.1", 1),)
    boats, group = pooled("g", 1, "EasyRed", [6], tank)
    expect(Plan("t", tuple(boats), (group,)), rules, "above load class I for an LCA")
    loose = PlannedBoat("x", 1, "LCA", "EasyRed", None, (("E/2/16.1", 5),), 5)
    expect(Plan("t", (loose,)), rules, "belongs to a boat group")


def test_split_units(oob: Oob, rules: PlanRules) -> None:
    """2.1j: split only among the LCAs of one group, or across boats of one kind when
    the unit is too large for one such boat; every step aboard; one wave."""
    p1 = boat("a", 1, "LCT", "EasyRed", (("E/2/16.1", 3),), oob)
    p2 = boat("b", 1, "LCT", "EasyRed", (("E/2/16.1", 2),), oob)
    expect(Plan("t", (p1, p2)), rules, "E/2/16.1 is split between boats")
    half = boat("a", 1, "LCT", "EasyRed", (("E/2/16.1", 3),), oob)
    expect(Plan("t", (half,)), rules, "has 5 steps but the plan carries 3")
    # a battery is too large for one Dukw: split across Dukws is allowed
    dukws = [boat(f"d{k}", 2, "DUKW", "EasyRed", (("A/7FA.guns", 1),), oob) for k in range(4)]
    check_plan(Plan("t", tuple(dukws)), rules)
    # ... but not across waves
    mixed = [*dukws[:3], attrs.evolve(dukws[3], wave=3)]
    expect(Plan("t", tuple(mixed)), rules, "split between waves")
    # a split inside one pooled group is fine; across two groups it is not
    b1, g1 = pooled("g1", 1, "EasyRed", [9, 8], full(oob, "E/2/16"))
    check_plan(Plan("t", tuple(b1), (g1,)), rules)
    b2, g2 = pooled("g2", 1, "EasyRed", [3], (("F/2/16.1", 3),))
    b3, g3 = pooled("g3", 1, "EasyRed", [2], (("F/2/16.1", 2),))
    expect(Plan("t", (*b2, *b3), (g2, g3)), rules, "F/2/16.1 is split between boats")


def test_boat_counts_per_wave(oob: Oob, rules: PlanRules) -> None:
    """2.1g: no more boats of a kind than the wave has (LCA 12 in wave 1)."""
    boats, groups = [], []
    for k, company in enumerate(
        ["A/1/16", "B/1/16", "C/1/16", "E/2/16", "F/2/16", "G/2/16", "I/3/16"]
    ):
        b, g = pooled(f"g{k}", 1, "EasyRed", [9, 8], full(oob, company))
        boats += b
        groups.append(g)
    expect(Plan("t", tuple(boats), tuple(groups)), rules, "wave 1 uses 14 LCAs; only 12")
    lcis = (boat("i", 1, "LCI", "EasyRed", (("E/2/16.1", 5),), oob),)
    expect(Plan("t", lcis), rules, "LCIs land only in transport landings")
    wave4 = (boat("x", 4, "LCT", "EasyRed", (("A/741.1", 1),), oob),)
    expect(Plan("t", wave4), rules, "wave 4 is not an assault wave")


def test_dukw_rule_per_wave(oob: Oob, rules: PlanRules) -> None:
    """2.1f, reading: per assault wave, every Dukw of the wave carries 4+ points before
    any LCT or Rhino of that wave is used; wave 1 has no Dukws, so its LCTs are free."""
    lct1 = boat("t1", 1, "LCT", "EasyRed", (("A/741.1", 1),), oob)
    check_plan(Plan("t", (lct1,)), rules)
    rhino2 = boat("r2", 2, "Rhino", "EasyRed", (("Sv/16.trk1", 1),), oob)
    expect(Plan("t", (rhino2,)), rules, r"wave 2 uses Rhinos but 15 of its 15 Dukws are not loaded")
    guns = [(f"{b}/{fa}.guns", 1) for fa in ("7FA", "32FA", "33FA") for b in "ABC"]
    loads = [(("A/7FA.guns", 1),)] * 4 + [(("B/7FA.guns", 1),)] * 4 + [(("C/7FA.guns", 1),)] * 4
    loads += [(("A/32FA.guns", 1),)] * 3
    dukws = [boat(f"d{k}", 2, "DUKW", "EasyRed", ld, oob) for k, ld in enumerate(loads)]
    assert len(dukws) == 15 and guns
    with pytest.raises(PlanError, match=r"has 4 steps"):
        check_plan(Plan("t", (*dukws, rhino2)), rules)  # A/32FA: 3 of 4 guns
    loads[-3:] = [
        (("A/81CM.1", 2), ("A/81CM.2", 2)),
        (("B/81CM.1", 2), ("B/81CM.2", 2)),
        (("C/81CM.1", 2),),
    ]
    dukws = [boat(f"d{k}", 2, "DUKW", "EasyRed", ld, oob) for k, ld in enumerate(loads)]
    expect(Plan("t", (*dukws, rhino2)), rules, r"Dukws d14 carry fewer than 4 points")
    loads[-1] = (("C/81CM.1", 2), ("C/81CM.2", 2))
    dukws = [boat(f"d{k}", 2, "DUKW", "EasyRed", ld, oob) for k, ld in enumerate(loads)]
    check_plan(Plan("t", (*dukws, rhino2)), rules)
    # the rule does not bind another wave: a wave-3 LCT still needs wave-3 Dukws
    lct3 = boat("t3", 3, "LCT", "EasyRed", (("A/745.1", 1),), oob)
    expect(Plan("t", (*dukws, rhino2, lct3)), rules, "wave 3 uses LCTs")


def test_dd_tanks(oob: Oob, rules: PlanRules) -> None:
    """2.1e: DD tanks swim alone in assault waves only; any other unit may not swim."""
    swim = PlannedBoat("dd", 1, "DD", "EasyRed", None, (("B/741.1", 1),), 0)
    check_plan(Plan("t", (swim,)), rules)
    not_dd = attrs.evolve(swim, load=(("A/741.1", 1),))
    expect(Plan("t", (not_dd,)), rules, "a DD swims alone")
    two = attrs.evolve(swim, load=(("B/741.1", 1), ("B/741.2", 1)))
    expect(Plan("t", (two,)), rules, "a DD swims alone")
    late = PlannedBoat("dd", 0, "DD", "EasyRed-T", None, (("B/741.1", 1),), 0)
    expect(Plan("t", (late,), transport_hour="1000"), rules, "never land in a transport wave")
    # reading: a DD tank may ride an LCT as an ordinary tank
    check_plan(Plan("t", (boat("t", 1, "LCT", "EasyRed", (("B/741.1", 1),), oob),)), rules)


def test_op_sheets(oob: Oob, rules: PlanRules) -> None:
    """2.3a: at most 12 sheets; a landing sheet names a sector of the unit's beach box;
    2.1m: no op sheet for a transport-landed unit; 2.3b option: none at all."""
    from omaha.tcs.components.plan import OpSheet

    b, g = pooled("g", 1, "EasyRed", [9, 8], full(oob, "E/2/16"))
    units = tuple(u for u, _ in g.pool)
    ok = Plan("t", tuple(b), (g,), (OpSheet("s", "Easy Red 4", units),))
    check_plan(ok, rules)
    wrong = attrs.evolve(ok, opsheets=(OpSheet("s", "Fox Green 6", units),))
    expect(wrong, rules, "it must start from the Fox Green beach box")
    expect(attrs.evolve(ok, opsheets=(OpSheet("s", "Omaha 9", units),)), rules, "no beach sector")
    many = tuple(
        OpSheet(f"s{k}", "Easy Red 4", (units[k % 5],) if k < 5 else ()) for k in range(13)
    )
    expect(attrs.evolve(ok, opsheets=many), rules, "at most 12 US op sheets")
    expect(ok, attrs.evolve(rules, no_opsheets=True), "without US op sheets")
    lci = PlannedBoat("T1", 0, "LCI", "EasyRed-T", None, full(oob, "F/2/16"), 17)
    sheet = OpSheet("s", "Easy Red 4", ("F/2/16.1",))
    expect(
        Plan("t", (lci,), opsheets=(sheet,), transport_hour="1000"),
        rules,
        "transport-landed units never have op sheets",
    )


def test_first_transport_landing(oob: Oob, rules: PlanRules) -> None:
    """2.1m: from 1000, one LCI and five LCTs, LCIs and LCTs only."""
    lci = PlannedBoat("T1", 0, "LCI", "EasyRed-T", None, full(oob, "F/2/16"), 17)
    check_plan(Plan("t", (lci,), transport_hour="1000"), rules)
    expect(Plan("t", (lci,), transport_hour="0900"), rules, "hour turn from 1000")
    two = attrs.evolve(lci, id="T2", load=full(oob, "E/2/16"))
    expect(Plan("t", (lci, two), transport_hour="1100"), rules, "has 1 LCI")
    dukw = attrs.evolve(lci, kind="DUKW", load=(("A/7FA.guns", 1),), points=5)
    expect(Plan("t", (dukw,), transport_hour="1000"), rules, "use LCIs and LCTs, not DUKW")


def test_29th_id_historical_requirement(oob: Oob, rules: PlanRules) -> None:
    """2.7a: in a strictly historical game the 116th lands in waves 1-2 at Dog Red or
    Easy Green, the 115th in wave 3 or the first transport landing."""
    strict = attrs.evolve(rules, historical_29th=True)
    b, g = pooled("g", 1, "EasyRed", [9, 8], full(oob, "E/2/116"))
    expect(Plan("t", tuple(b), (g,)), strict, "116th lands in assault waves 1-2")
    check_plan(Plan("t", tuple(b), (g,)), rules)  # fine outside the historical game


def test_lctr_targets_and_nfst(oob: Oob, rules: PlanRules) -> None:
    """2.2a: four targets within 15 of an obstacle hex; 2.6d: an infantry unit of the
    battalion."""
    check_plan(Plan("t", lctr=("A14.05",)), rules)
    expect(Plan("t", lctr=("A1.03",) * 5), rules, "the US has 4")
    expect(Plan("t", lctr=("Z9.99",)), rules, "not on the map")
    expect(Plan("t", nfst=(("1/16", "E/2/16.1"),)), rules, "not an infantry unit of 1/16")
    check_plan(Plan("t", nfst=(("1/16", "A/1/16.2"),)), rules)


PLAN_TOML = """
[plan]
id = "bad"
title = "t"
source = "reconstructed: test"
{body}
"""


@pytest.mark.parametrize(
    ("body", "key", "problem"),
    [
        (
            '[[groups]]\nwave = 1\nbox = "EasyRed"\nlcas = 2\nunits = ["X/9/99"]',
            "groups[0].units[0]",
            "neither a unit nor a formation",
        ),
        (
            '[[groups]]\nwave = 1\nbox = "Omaha"\nlcas = 2\nunits = ["E/2/16"]',
            "groups[0].box",
            "is not one of the boxes",
        ),
        (
            '[[groups]]\nwave = 1\nbox = "EasyRed"\nlcas = 2\nunits = ["E/2/16"]\npoint = [9]',
            "groups[0].point",
            "unknown key",
        ),
        (
            '[[groups]]\nwave = 1\nbox = "EasyRed"\nlcas = 1\nunits = ["E/2/16"]',
            "groups[0]",
            "exceed",
        ),
        (
            '[[boats]]\nwave = 2\nkind = "DUKW"\nbox = "EasyRed"\nunits = ["Sv/16.trk1"]',
            "boats[0]",
            "load class III",
        ),
        (
            '[[boats]]\nwave = 1\nkind = "LCT"\nbox = "EasyRed"\nunits = ["E/2/16.1:x"]',
            "boats[0].units[0]",
            "not a number of steps",
        ),
        ('[fires]\nlctr = ["A1.03", "A1.04", "A1.05", "A1.06", "A1.07"]', "fires.lctr", "has 4"),
    ],
)
def test_bad_plan_files(body: str, key: str, problem: str, rules: PlanRules) -> None:
    """A bad plan file names the file, the key path and the problem."""
    node = parse_toml(PLAN_TOML.format(body=body), "bad.toml")
    with pytest.raises(ScenarioError, match=re.escape(problem)) as info:
        plan_from_node(node, rules)
    assert info.value.file == "bad.toml"
    assert info.value.key == key


def test_shipped_plan_file_records_its_source() -> None:
    text = (Path(__file__).parents[2] / "omaha/tcs/data/plans/historical.toml").read_text()
    assert 'source = "reconstructed: historical order' in text
