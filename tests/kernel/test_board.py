from pathlib import Path

import pytest

from omaha.errors import ScenarioError
from omaha.kernel.boardfile import board_from_node, load_board
from omaha.kernel.data import parse_toml
from omaha.kernel.hexes import Hex
from omaha.kernel.labels import LabelError

TOY_MAP = Path(__file__).parents[1] / "conformance" / "toy" / "map.toml"

HEADER = """
[map]
id = "t"
title = "T"
grid = "hex"
orientation = "flat"
offset = "odd"
labels = "letter-number"
rows = ["A", "C"]
columns = [1, 4]
source = "reconstructed: test"
"""


def board(text: str):  # type: ignore[no-untyped-def]
    return board_from_node(parse_toml(HEADER + text, "t.toml"))


def test_toy_map_loads() -> None:
    b = load_board(TOY_MAP)
    assert len(b) == 30
    assert b.terrain[b.cell("E3")] == "beach"
    assert b.terrain[b.cell("c3")] == "woods"
    assert "objective" in b.features[b.cell("A4")]
    assert b.label(b.cell("B2")) == "B2"
    assert b.cells_where(terrain="woods") == tuple(sorted(b.cell(x) for x in ("C3", "C4", "B5")))
    # crest: up from D1 into C1
    d1, c1 = b.cell("D1"), b.cell("C1")
    assert b.side_features(d1, c1) == {"crest"}
    assert b.crossing(d1, c1) == (("crest", "up"),)
    assert b.crossing(c1, d1) == (("crest", "down"),)
    assert b.sides_with("crest") == tuple(
        sorted([tuple(sorted((d1, c1))), tuple(sorted((b.cell("D2"), b.cell("C2"))))])
    )
    assert "dead" in b.boxes


def test_neighbours_match_geometry() -> None:
    b = load_board(TOY_MAP)
    for i in range(len(b)):
        for j in range(len(b)):
            assert b.adjacent(i, j) == (b.distance(i, j) == 1)
    # interior hexes have six neighbours, corners fewer
    assert len(b.neighbours[b.cell("C3")]) == 6
    assert len(b.neighbours[b.cell("A1")]) < 6


def test_distances_from_matches_distance() -> None:
    b = load_board(TOY_MAP)
    for i in range(len(b)):
        arr = b.distances_from(i)
        assert [int(x) for x in arr] == [b.distance(i, j) for j in range(len(b))]
    assert set(b.within(b.cell("C3"), 1)) == {b.cell("C3"), *b.neighbours[b.cell("C3")]}


def test_label_errors_are_clear() -> None:
    b = load_board(TOY_MAP)
    with pytest.raises(LabelError, match="not on the map"):
        b.cell("Z99")
    with pytest.raises(LabelError, match="not a row-letter"):
        b.cell("99Z")
    with pytest.raises(LabelError, match="not on the map"):
        b.cell("A7")


def test_thread_maps_to_indices() -> None:
    b = load_board(TOY_MAP)
    t = b.thread(b.cell("E1"), b.cell("E4"))
    assert [b.label(c) for c in t.cells] == ["E2", "E3"]
    assert t.along == () and len(t.crossed) == 3


def test_ranges_and_absent_cells() -> None:
    b = board(
        """
[[cells]]
at = ["B1..B3"]
terrain = "woods"
source = "reconstructed: test"
[[cells]]
at = "C4"
absent = true
source = "reconstructed: test"
"""
    )
    assert len(b) == 11
    assert [b.terrain[b.cell(x)] for x in ("B1", "B2", "B3", "B4")] == ["woods"] * 3 + ["open"]
    assert not b.has("C4")


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        (
            '[[cells]]\nat = "Z9"\nterrain = "x"\nsource = "reconstructed: t"',
            "cells[0].at",
            "not on the map",
        ),
        ('[[cells]]\nat = "A1"\nterrain = "x"', "cells[0].source", "required"),
        ('[[cells]]\nat = "A1"\nterain = "x"\nsource = "r"', "cells[0].terain", "unknown key"),
        (
            '[[cells]]\nat = "A1"\nterrain = "x"\nsource = "reconstructed:"',
            "cells[0].source",
            "must say why",
        ),
        ('[[cells]]\nat = ["A1..B2"]\nsource = "x"', "cells[0].at[0]", "one row"),
        (
            '[[hexsides]]\nsides = [["A1", "A3"]]\nfeature = "crest"\nsource = "x"',
            "",
            "not adjacent",
        ),
        (
            '[[hexsides]]\nsides = [["A1"]]\nfeature = "crest"\nsource = "x"',
            "hexsides[0].sides[0]",
            "pair",
        ),
        (
            '[[links]]\nkind = "k"\nstart = "A1"\nend = "nowhere"\nsource = "x"',
            "links[0].end",
            "not a row-letter",
        ),
    ],
)
def test_bad_map_files_name_file_key_and_problem(text: str, key: str, problem: str) -> None:
    with pytest.raises(ScenarioError) as info:
        board(text)
    err = info.value
    assert err.file == "t.toml"
    assert err.key == key
    assert problem in err.problem
    assert str(err).startswith("t.toml: ")


def test_bad_toml_syntax() -> None:
    with pytest.raises(ScenarioError, match="not valid TOML"):
        parse_toml("[map\n", "broken.toml")


def test_map_col_row_board() -> None:
    text = """
[map]
id = "tcs"
title = "T"
grid = "hex"
orientation = "flat"
offset = "odd"
labels = "map-col-row"
source = "reconstructed: test"
[[map.sheets]]
letter = "A"
origin = [0, 0]
hexrows = [1, 5]
hexes = [1, 4]
[[map.sheets]]
letter = "B"
origin = [5, 0]
hexrows = [1, 5]
hexes = [1, 4]
[[cells]]
at = ["A1.01..A1.04", "B1.02"]
terrain = "sea"
source = "reconstructed: test"
"""
    b = board_from_node(parse_toml(text, "tcs.toml"))
    assert len(b) == 40
    assert b.terrain[b.cell("A1.03")] == "sea" and b.terrain[b.cell("b1.2")] == "sea"
    # the sheets join: A5.xx and B1.xx are neighbouring hexrows
    assert b.distance(b.cell("A5.02"), b.cell("B1.02")) == 1
    assert b.hex(b.cell("A3.03")) == Hex(3, 3 - 1)
    with pytest.raises(LabelError, match="no map sheet C"):
        b.cell("C1.01")


def test_square_named_board() -> None:
    text = """
[map]
id = "sq"
title = "S"
grid = "square"
labels = "named"
source = "reconstructed: test"
[[cells]]
label = "C1"
xy = [0, 0]
terrain = "channel"
source = "reconstructed: test"
[[cells]]
label = "B1"
xy = [0, 1]
terrain = "beach"
source = "reconstructed: test"
[[cells]]
label = "S1"
xy = [1, 2]
terrain = "strongpoint"
source = "reconstructed: test"
[[links]]
kind = "arrow"
start = "B1"
end = "S1"
source = "reconstructed: test"
[[boxes]]
id = "reinforcements"
links = ["C1"]
source = "reconstructed: test"
"""
    b = board_from_node(parse_toml(text, "sq.toml"))
    c1, b1, s1 = b.cell("C1"), b.cell("B1"), b.cell("S1")
    assert b.adjacent(c1, b1) and not b.adjacent(b1, s1)
    assert b.distance(c1, s1) == 3
    assert b.links_of("arrow")[0].end == "S1"
    assert b.box_cells("reinforcements") == (c1,)
