"""The reconstructed beach maps: labels, tide lines, sectors, scatter paths, limits."""

from __future__ import annotations

import re

import pytest

from omaha.errors import ScenarioError
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import parse_toml
from omaha.tcs.components.beach import Beach
from omaha.tcs.components.tables import DATA, Tables


def test_labels_are_tcs_map_col_row(beach: Beach) -> None:
    """1.15: sheet letter, hexrow left to right, hex bottom to top; sheets join."""
    b = beach.board
    a = b.cell("A10.10")
    assert b.label(a) == "A10.10" and b.cell("a10.5") == b.cell("A10.05")
    # hexrow grows east, hex number grows north
    east = b.cell("A11.10")
    north = b.cell("A10.11")
    assert beach.col[east] == beach.col[a] + 1 and beach.row[north] == beach.row[a] + 1
    # sheet B continues sheet A
    assert b.distance(b.cell("A30.10"), b.cell("B1.10")) == 1
    assert b.layout.orientation == "flat"


def test_tide_lines(beach: Beach) -> None:
    """1.12: one line hex per strand hexrow per hour; the line hex is the last land hex."""
    line6, line7 = beach.line("0600"), beach.line("0700")
    assert set(line6) == set(line7) == {beach.col[c] for c in beach.strand}
    for col in line6:
        assert beach.row[line7[col]] == beach.row[line6[col]] - 1  # the tide rises a hex an hour
    sea7 = beach.sea("0700")
    assert all(c not in sea7 for c in line7.values())
    assert all(c in sea7 for c in line6.values())  # the 0600 line hexes are sea at 0700
    # high water around 1100-1200, then the tide falls
    assert beach.high_hour in ("1100", "1200", "0000")
    assert beach.row[beach.line("1300")[10]] > beach.row[beach.line("1200")[10]]
    with pytest.raises(KeyError):
        beach.line("0615")


def test_sectors(beach: Beach) -> None:
    """1.16: sectors of up to six hexes; Dog Red 1 and Fox Red 8 at the ends."""
    names = [s.name for s in beach.sectors]
    assert names == [
        "Dog Red 1",
        "Easy Green 2",
        "Easy Red 3",
        "Easy Red 4",
        "Easy Red 5",
        "Fox Green 6",
        "Fox Green 7",
        "Fox Red 8",
    ]
    assert all(1 <= len(s.cols) <= 6 for s in beach.sectors)
    assert beach.beaches == ("Dog Red", "Easy Green", "Easy Red", "Fox Green", "Fox Red")
    assert [s.name for s in beach.sectors_of_beach("Easy Red")] == [
        "Easy Red 3",
        "Easy Red 4",
        "Easy Red 5",
    ]
    assert beach.sector_of(beach.board.cell("A14.17")) == beach.sector("Easy Red 3")
    assert beach.sector_of(beach.board.cell("A14.10")) is None  # inland


def test_in_sector_hex_counting(beach: Beach) -> None:
    """2.1l: the roll counts hexes along the line from the sector's west edge."""
    er3 = beach.sector("Easy Red 3")
    line = beach.sector_line(er3, "0700")
    for roll in range(1, 7):
        assert beach.landing_hexes(er3, "0700", roll) == (line[roll - 1],)
    # reading: a roll beyond a five-hex sector lands in its last hex
    fg7 = beach.sector("Fox Green 7")
    assert len(fg7.cols) == 5
    last = beach.sector_line(fg7, "0800")[-1]
    assert beach.landing_hexes(fg7, "0800", 6) == (last,)
    assert beach.landing_hexes(fg7, "0800", 5) == (last,)


def test_special_boundaries_dog_red_1_and_fox_red_8(beach: Beach) -> None:
    """2.1l: the rolls printed per minor sector; several hexes give the US a choice;
    Dog Red rolls sending boats off the map remove them."""
    dr1 = beach.sector("Dog Red 1")
    assert dr1.special is not None
    assert beach.landing_hexes(dr1, "0600", 1) == ()
    assert beach.landing_hexes(dr1, "0600", 2) == ()
    three = beach.landing_hexes(dr1, "0600", 3)
    assert [beach.board.label(c) for c in three] == ["A1.18", "A2.18"]
    assert len(beach.landing_hexes(dr1, "0600", 6)) == 1
    fr8 = beach.sector("Fox Red 8")
    assert beach.landing_hexes(fr8, "0700", 1) == beach.landing_hexes(fr8, "0700", 2)
    assert len(beach.landing_hexes(fr8, "0700", 6)) == 2


def test_scatter_paths(beach: Beach) -> None:
    """1.17: six numbered paths from each landing beach box; drift mostly eastward."""
    assert sorted(beach.assault_boxes) == ["DogRed", "EasyGreen", "EasyRed", "FoxGreen", "FoxRed"]
    for box, beach_name in beach.assault_boxes.items():
        sectors = [beach.scatter(box, r) for r in range(1, 7)]
        assert any(s.beach == beach_name for s in sectors)
        numbers = [s.number for s in sectors]
        assert numbers == sorted(numbers)  # paths numbered west to east
    links = beach.board.links_of("scatter")
    assert len(links) == 30 and all(isinstance(x.prop("roll"), int) for x in links)


def test_placement_limits(beach: Beach, tables: Tables) -> None:
    """3.3g: pill boxes landward of the obstacle line, at most 5 inland; 3.4: rocket
    pits at most 10; 2.2a: LCT(R) targets within 15 of an obstacle hex."""
    b = beach.board
    assert all(beach.pillbox_allowed(c) for c in beach.pillbox_sites)
    assert len(beach.pillbox_sites) == 24  # READINGS.md: 24 pill boxes stand at 0640
    obstacle = b.cell("A14.13")
    assert obstacle in beach.obstacles
    assert not beach.pillbox_allowed(obstacle)  # reading: not "south of" the line
    assert not beach.pillbox_allowed(b.cell("A14.16"))  # on the beach
    assert beach.pillbox_allowed(b.cell("A15.08"))  # 5 inland
    assert not beach.pillbox_allowed(b.cell("A15.07"))  # 6 inland
    assert beach.rocket_pit_allowed(b.cell("A15.07"))
    assert beach.rocket_pit_allowed(b.cell("A15.03"))  # 10 inland
    assert not beach.rocket_pit_allowed(b.cell("A14.16"))
    # the 3.3g variant: anywhere south of the highest tide line
    assert beach.pillbox_allowed(b.cell("A14.14"), variant=True)
    assert not beach.pillbox_allowed(b.cell("A14.17"), variant=True)
    assert beach.lctr_target_allowed(b.cell("A15.03"))


def test_hexsides_and_movement(beach: Beach, tables: Tables) -> None:
    """1.13 shingle +2 MP for foot, closed to vehicles; 1.10 extreme slope +2 / closed;
    1.9 cliffs closed; draws cut the bluffs; breaches have security hexes (2.5)."""
    b = beach.board
    strand, obstacle = b.cell("A14.14"), b.cell("A14.13")
    assert b.has_side_feature(strand, obstacle, "shingle")
    assert beach.foot_graph.cost(strand, obstacle) == 1 + tables.shingle_cost
    assert beach.vehicle_graph.cost(strand, obstacle) is None
    along = b.cell("A15.14")
    assert beach.foot_graph.cost(strand, along) == 1
    assert beach.vehicle_graph.cost(strand, along) == 1
    flat, face = b.cell("A16.12"), b.cell("A16.11")
    assert b.crossing(flat, face) == (("extreme_slope", "up"),)
    assert beach.foot_graph.cost(flat, face) == 2 + tables.slope_cost
    assert beach.vehicle_graph.cost(flat, face) is None
    assert b.sides_with("cliff")
    a, c = b.sides_with("cliff")[0]
    assert beach.foot_graph.cost(a, c) is None and beach.foot_graph.cost(c, a) is None
    assert [b.prop(b.cell(x), "draw") for x in ("A4.11", "A14.11", "A30.12", "B11.12")] == [
        "D-3",
        "E-1",
        "E-3",
        "F-1",
    ]
    assert len(beach.breaches) == 8
    e1 = next(x for x in beach.breaches if x.name == "E-1")
    assert b.label(e1.strand) == "A14.14" and b.label(e1.land) == "A14.13"
    assert sorted(b.label(c) for c in e1.security) == ["A14.10", "A14.12"]
    assert {b.prop(b.cell(x), "village") for x in ("A9.06", "A30.06")} == {
        "St-Laurent",
        "Colleville",
    }


def test_every_map_record_states_its_provenance() -> None:
    text = (DATA / "map.toml").read_text()
    sources = re.findall(r'^source = "(.*)"$', text, flags=re.M)
    assert sources and all(s.startswith("reconstructed: ") for s in sources)


BASE = """
[map]
id = "t"
title = "t"
grid = "hex"
orientation = "flat"
offset = "odd"
labels = "map-col-row"
source = "reconstructed: test"
[[map.sheets]]
letter = "A"
origin = [0, 0]
hexrows = [1, 6]
hexes = [1, 6]
[[cells]]
at = ["A1.04..A6.04"]
terrain = "beach"
props = { tide = "0600", sector = "Easy Red 1" }
source = "reconstructed: test"
[[cells]]
at = ["A1.03..A6.03"]
features = ["obstacle"]
source = "reconstructed: test"
[[boxes]]
id = "EasyRed"
props = { beach = "Easy Red", kind = "assault" }
source = "reconstructed: test"
"""


def _links(rolls: list[int]) -> str:
    return "".join(
        f'[[links]]\nkind = "scatter"\nstart = "EasyRed"\nend = "A1.04"\n'
        f'props = {{ roll = {r}, sector = "Easy Red 1" }}\nsource = "reconstructed: test"\n'
        for r in rolls
    )


def _beach(text: str, tables: Tables) -> Beach:
    return Beach(board_from_node(parse_toml(text, "t.toml")), tables)


def test_a_minimal_map_loads(tables: Tables) -> None:
    g = _beach(BASE + _links([1, 2, 3, 4, 5, 6]), tables)
    assert [s.name for s in g.sectors] == ["Easy Red 1"]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda t: t + _links([1, 2, 3, 4, 5]), "needs paths 1-6"),
        (lambda t: t + _links([1, 2, 3, 4, 5, 6, 6]), "two paths numbered 6"),
        (
            lambda t: t.replace('tide = "0600", ', "") + _links(range(1, 7)),  # type: ignore[arg-type]
            "no tide lines",
        ),
        (
            lambda t: (
                t.replace("A1.04..A6.04", "A1.04..A6.04", 1).replace(
                    'at = ["A1.03..A6.03"]',
                    'at = ["A1.03..A6.03", "A1.05"]\nterrain = "beach"\nprops = { tide = "0600" }',
                )
                + _links(range(1, 7))
            ),  # type: ignore[arg-type]
            "tide line 0600 is already in",
        ),
        (
            lambda t: t.replace('sector = "Easy Red 1"', 'sector = "Easy Red"') + _links([]),
            "is not '<beach> <number>'",
        ),
        (lambda t: t.replace('features = ["obstacle"]', "") + _links(range(1, 7)), "obstacle"),  # type: ignore[arg-type]
    ],
)
def test_bad_maps_raise_scenario_errors(change: object, problem: str, tables: Tables) -> None:
    text = change(BASE)  # type: ignore[operator]
    with pytest.raises(ScenarioError, match=re.escape(problem)):
        _beach(text, tables)
