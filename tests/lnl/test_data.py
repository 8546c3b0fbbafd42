"""LnL Omaha components: the map's named hexes, the counters, the deck, provenance."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

import omaha
from omaha.lnl.scenario import DATA, SCENARIOS, LnlScenario

GAME = omaha.load("lnl")


@pytest.fixture(scope="module")
def scen() -> LnlScenario:
    s = GAME.load_scenario("beach")
    assert isinstance(s, LnlScenario)
    return s


def terrain(scen: LnlScenario, label: str) -> str:
    return scen.board.terrain[scen.board.cell(label)]


def features(scen: LnlScenario, label: str) -> frozenset[str]:
    return scen.board.features[scen.board.cell(label)]


def test_named_hexes_are_as_the_rules_name_them(scen: LnlScenario) -> None:
    assert terrain(scen, "K4") == "beach"
    assert terrain(scen, "E8") == "woods"
    assert "road" in features(scen, "H1")
    for label in ("E10", "D9", "B17"):
        assert terrain(scen, label) == "farmland"
    assert terrain(scen, "H3") == "open" and "road" not in features(scen, "H3")
    assert terrain(scen, "F6") == "town"
    assert terrain(scen, "L3") == "part_ocean"
    b = scen.board
    assert b.has_side_feature(b.cell("K1"), b.cell("K2"), "crest")
    forts = sorted(b.label(c) for c in b.cells_where(feature="fortification"))
    assert forts == sorted(["K1", "J5", "J7", "J9", "J10", "J14", "J16", "J18"])
    victory = sorted(b.label(c) for c in scen.victory_points)
    assert victory == sorted(["H5", "H17", "J11", "F6", "F8", "A7"])
    assert sorted(b.label(c) for c in range(len(b)) if b.prop(c, "entry")) == ["A10", "A13", "A6"]


def test_map_orientation_rows_and_columns(scen: LnlScenario) -> None:
    b = scen.board
    assert b.has("A1") and b.has("N18") and not b.has("O1") and not b.has("A19")
    # pointy rows, odd rows (B, D, ... L) shoved east: K4 touches L3/L4 and J3/J4
    near = sorted(b.label(x) for x in b.neighbours[b.cell("K4")])
    assert near == ["J3", "J4", "K3", "K5", "L3", "L4"]
    assert all(terrain(scen, f"{r}{c}") == "ocean" for r in "MN" for c in range(1, 19))
    # every waterline hex touches the beach (the rules' landing hexes)
    assert len(scen.tables.landing) == 18


def test_the_draws_open_the_crest_line(scen: LnlScenario) -> None:
    b = scen.board
    T = scen.tables
    for j, ks in (("J6", ("K6", "K7")), ("J17", ("K17", "K18"))):
        for k in ks:
            assert not T.crest(b.cell(j), b.cell(k))
    assert T.crest(b.cell("J5"), b.cell("K6"))
    assert T.crest(b.cell("J11"), b.cell("K12"))
    for label in ("J6", "I6", "H5", "J17", "I17", "H17"):
        assert "road" in features(scen, label)


def test_counters(scen: LnlScenario) -> None:
    u = scen.unit
    assert u("1/B/116").mf == 3 and u("1/A/743").mf == 8 and u("88mm-Gun").mf == 0
    assert u("1/A/743").hard and not u("1/B/116").hard and not u("88mm-Gun").hard
    for uid in ("1/A/743", "EAT-1", "88mm-Gun", "81mm-Mtr", "1/916AT"):
        assert u(uid).type.support, uid
    assert not u("1/B/116").type.support
    assert u("A/5Rgr").type.ranger and u("C/2Rgr").type.ranger
    assert u("101-AB").type.airborne
    rally = {x: u(x).type.rally for x in ("1/B/116", "A/5Rgr", "101-AB", "1/1/916", "1/916AT")}
    assert rally == {"1/B/116": 4, "A/5Rgr": 5, "101-AB": 5, "1/1/916": 3, "1/916AT": 4}
    names = {x.id for x in scen.units}
    for uid in ("1/1/916", "2/1/916", "3/1/916", "1/916-HVY", "1/916AT", "2/916AT", "3/916AT"):
        assert uid in names
    assert sum(1 for x in scen.units if x.company == "2/916") == 4


def test_deck_composition(scen: LnlScenario) -> None:
    cards = scen.all_cards.values()
    assert len(scen.all_cards) == 54
    by_value = collections.Counter(c.value for c in cards)
    assert all(by_value[v] == 9 for v in range(1, 7))
    faces = collections.Counter(c.event for c in cards)
    assert faces == {
        "none": 25,
        "at916": 4,
        "panzers": 4,
        "ger_plus6": 2,
        "early2916": 2,
        "quick_reaction": 3,
        "german_air": 2,
        "allies_plus6": 4,
        "airborne101": 2,
        "allied_air": 4,
        "lost_paratroops": 2,
    }
    assert all(c.value == 4 for c in cards if c.event == "german_air")
    assert sum(1 for c in cards if c.event == "quick_reaction" and c.value == 5) == 2


def test_bonus_scenario_removes_three_cards() -> None:
    v = GAME.load_scenario("vierville")
    assert isinstance(v, LnlScenario)
    events = {c.event for c in v.cards}
    assert not events & {"quick_reaction", "panzers", "lost_paratroops"}
    assert len(v.cards) == 54 - 3 - 4 - 2


def test_provenance_marks_reconstructions() -> None:
    items = GAME.provenance("beach")
    rebuilt = [i for i in items if i.source.reconstructed]
    published = [i for i in items if not i.source.reconstructed]
    assert rebuilt and published
    keys = {(i.component, i.key) for i in published}
    assert ("counter", "1/1/916") in keys
    assert any(i.component == "map cells" and "K4" in i.key for i in published)
    assert any(i.component == "counter type" for i in rebuilt)
    assert any(i.component == "event" and i.key == "lost_paratroops" for i in rebuilt)


def test_options_are_part_of_the_scenario_id() -> None:
    s11 = GAME.load_scenario("beach+turn11")
    assert isinstance(s11, LnlScenario)
    assert s11.turns == 11 and not s11.d6
    both = GAME.load_scenario("beach+turn11+d6")
    assert isinstance(both, LnlScenario)
    assert both.d6 and both.id == "beach+d6+turn11"
    assert len({GAME.load_scenario(r).hash for r in ("beach", "beach+turn11", "beach+d6")}) == 3
    with pytest.raises(omaha.ScenarioError, match="unknown option"):
        GAME.load_scenario("beach+turn12")


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def _beach_text() -> str:
    return (SCENARIOS / "beach.toml").read_text()


def test_a_copied_scenario_file_loads(tmp_path: Path) -> None:
    p = _write(tmp_path, "mine.toml", _beach_text())
    st = GAME.new_state(str(p), seed=1)
    assert st.scenario.id == str(p)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"H5", "H17"', '"Z99", "H17"', r"victory_hexes\[0\].at\[0\]: 'Z99' is not on the map"),
        ('"1/B/116", "2/B/116"', '"1/B/116", "9/B/116"', r"forces\[1\].units\[1\]: '9/B/116'"),
        ("turns = 10", "turns = 0", r"scenario.turns: 0 is outside 1..50"),
        ('how = "landing"', 'how = "swim"', r"forces\[1\].how: 'swim' is not one of"),
        ('control = "German"', 'contrl = "German"', r"scenario.control: is required but missing"),
        ("remove_events = []", 'remove_events = ["tea"]', r"remove_events\[0\]: 'tea' is not one"),
    ],
)
def test_bad_scenario_files_name_file_key_and_problem(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    text = _beach_text()
    assert old in text
    p = _write(tmp_path, "bad.toml", text.replace(old, new, 1))
    with pytest.raises(omaha.ScenarioError, match=message) as err:
        GAME.load_scenario(str(p))
    assert err.value.file == "bad.toml"


def test_a_missing_scenario_is_a_scenario_error() -> None:
    with pytest.raises(omaha.ScenarioError, match="neither a shipped scenario"):
        GAME.load_scenario("no/such/file.toml")


def test_a_scenario_may_bring_its_own_counters(tmp_path: Path) -> None:
    units = (
        (DATA / "units.toml")
        .read_text()
        .replace(
            'id = "us_rifle"\nname = "US rifle platoon"\nkind = "infantry"\nhe = [3, 1]',
            'id = "us_rifle"\nname = "US rifle platoon"\nkind = "infantry"\nhe = [7, 3]',
        )
    )
    assert "he = [7, 3]" in units
    (tmp_path / "printed_units.toml").write_text(units)
    text = _beach_text().replace('units = "units"', 'units = "printed_units.toml"', 1)
    p = _write(tmp_path, "owned.toml", text)
    scen = GAME.load_scenario(str(p))
    assert scen.unit("1/B/116").type.he == (7, 3)  # type: ignore[attr-defined]
    bad = _write(
        tmp_path,
        "lost.toml",
        _beach_text().replace('deck = "deck"', 'deck = "nowhere.toml"', 1),
    )
    with pytest.raises(omaha.ScenarioError, match=r"nowhere\.toml: cannot be read"):
        GAME.load_scenario(str(bad))


def test_a_bad_counter_file_is_reported(tmp_path: Path) -> None:
    units = (DATA / "units.toml").read_text().replace('kind = "armor"', 'kind = "tank"', 1)
    (tmp_path / "u.toml").write_text(units)
    text = _beach_text().replace('units = "units"', 'units = "u.toml"', 1)
    p = _write(tmp_path, "s.toml", text)
    with pytest.raises(omaha.ScenarioError, match=r"u.toml: types\[4\].kind: 'tank' is not one of"):
        GAME.load_scenario(str(p))
