"""Map C, the ground inland (reconstructed): sheet C joins A and B on their south edge,
its villages and crossroads, the RN13, the flooded Aure and the hedgerows; maps A and B
are generated unchanged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from omaha.tcs.components.tables import DATA
from omaha.tcs.scenario import TcsScenario, load_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def campaign() -> TcsScenario:
    return load_scenario("campaign")


def test_sheet_c_joins_a_and_b_on_their_south_edge(campaign: TcsScenario) -> None:
    """1.15: C's hexrows run west to east under A then B; its top hex touches their
    bottom one; the game's south edge is C's bottom row."""
    b = campaign.board
    assert b.distance(b.cell("C9.24"), b.cell("A9.01")) == 1
    assert b.distance(b.cell("C31.24"), b.cell("B1.01")) == 1
    assert b.label(b.cell("c50.1")) == "C50.01"
    south = {b.label(c) for c in campaign.beach.south_edge}
    assert "C1.01" in south and "A9.01" not in south and len(south) >= 25


def test_villages_roads_and_crossroads(campaign: TcsScenario) -> None:
    """The inland villages count for victory like those of A and B; the RN13 runs
    across C through Formigny and Mosles; the roads from the villages of A join it."""
    beach, b = campaign.beach, campaign.board
    assert {"Formigny", "Surrain", "Mosles", "St-Laurent", "Colleville"} <= set(beach.villages)
    assert all(
        b.label(c).startswith("C")
        for n in ("Formigny", "Surrain", "Mosles")
        for c in beach.villages[n]
    )
    road = beach.road
    assert b.cell("C1.12") in road and b.cell("C50.11") in road
    crossroads = {str(b.prop(c, "crossroads")): c for c in range(len(b)) if b.prop(c, "crossroads")}
    assert set(crossroads) == {"Formigny crossroads", "Surrain road", "Mosles"}
    assert all(c in road for c in crossroads.values())
    # a vehicle drives from the top of the E-1 draw to the Formigny crossroads by road
    costs = beach.vehicle_graph.reachable(beach.exits["E-1"], 200)
    assert crossroads["Formigny crossroads"] in costs


def test_the_flooded_aure_is_closed_to_vehicles_and_slow_on_foot(campaign: TcsScenario) -> None:
    """Reconstructed: the inundated meadows cost 3 MP on foot; vehicles keep to the
    causeways."""
    b = campaign.board
    wet = b.cell("C20.03")
    assert b.terrain[wet] == "flooded"
    assert dict(campaign.tables.foot_costs)["flooded"] == 3
    assert "flooded" not in dict(campaign.tables.vehicle_costs)
    graph = campaign.beach.vehicle_graph
    assert all(wet not in dict(graph.steps(m)) for m in b.neighbours[wet])
    assert any(wet in dict(campaign.beach.foot_graph.steps(m)) for m in b.neighbours[wet])


def test_hedgerows_and_heights(campaign: TcsScenario) -> None:
    """1.3: sheet C is hedgerow country (bocage hexsides round its fields, also along its
    seam with A and B); the ridge north of the RN13 stands a level above the plateau."""
    beach, b = campaign.beach, campaign.board
    inland = [s for s in beach.bocage_sides if b.label(s[0])[0] == "C" or b.label(s[1])[0] == "C"]
    assert len(inland) > 500
    seam = {(min(x, y), max(x, y)) for x, y in beach.bocage_sides}
    a, c = b.cell("A20.01"), b.cell("C20.24")
    assert (min(a, c), max(a, c)) in seam
    assert beach.level[b.cell("C35.16")] == 3 and beach.level[b.cell("C20.20")] == 2


def test_every_record_of_map_c_states_its_provenance(campaign: TcsScenario) -> None:
    b = campaign.board
    for i in range(len(b)):
        if b.label(i).startswith("C"):
            src = b.cell_sources[i]
            assert src is not None and src.text.startswith("reconstructed:")


def test_the_generator_writes_the_shipped_maps(tmp_path: Path) -> None:
    """tools/tcs_mapgen.py regenerates maps A/B (unchanged) and A/B/C byte for byte."""
    before = {n: (DATA / n).read_bytes() for n in ("map.toml", "map-abc.toml")}
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "tcs_mapgen.py")],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    after = {n: (DATA / n).read_bytes() for n in before}
    assert after == before
