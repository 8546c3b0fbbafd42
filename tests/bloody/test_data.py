"""Bloody Omaha components as data: map, counters, tokens, tables, cards, provenance."""

from __future__ import annotations

from pathlib import Path

import pytest
from bloody_helpers import GAME, copy_shipped

import omaha
from omaha.bloody import rules
from omaha.bloody.components.tokens import face_value
from omaha.bloody.scenario import BloodyScenario, load_scenario

SCEN = GAME.load_scenario()
assert isinstance(SCEN, BloodyScenario)
B = SCEN.board


def labels(cells: object) -> list[str]:
    return [B.labels[c] for c in cells]  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the map (3.2)
def test_square_grid_named_labels_orthogonal_adjacency() -> None:
    assert B.grid == "square" and B.scheme == "named"
    # orthogonal neighbours only: B1 touches S2 (south) but not S1 (diagonal)
    assert B.adjacent(B.cell("B1"), B.cell("S2"))
    assert not B.adjacent(B.cell("B1"), B.cell("S1"))
    assert all(len(n) <= 4 for n in B.neighbours)


def test_channel_rows_entry_squares_and_reinforcements_box() -> None:
    assert len(SCEN.channel) == 27
    assert labels(SCEN.entry) == [f"C{n}" for n in range(19, 28)]
    assert sorted(labels(SCEN.first_wave)) == sorted(f"C{n}" for n in range(1, 10))
    assert sorted(B.boxes["reinforcements"].links) == sorted(f"C{n}" for n in range(19, 28))
    # the First Wave row faces the beach; the entry row is two squares out
    assert B.labels[SCEN.forward[B.cell("C1")]] == "B1"
    assert B.labels[SCEN.forward[B.cell("C19")]] == "C10"


def test_nine_beach_squares_with_historical_names_west_to_east() -> None:
    names = [SCEN.beach_name[b] for b in SCEN.beaches]
    assert labels(SCEN.beaches) == [f"B{n}" for n in range(1, 10)]
    assert names == [
        "Charlie",
        "Dog Green",
        "Dog White",
        "Dog Red",
        "Easy Green",
        "Easy Red",
        "Easy Red",
        "Fox Green",
        "Fox Red",
    ]


def test_strongpoints_towns_exits_and_southern_row() -> None:
    assert len(SCEN.strongpoints) == 13
    assert len(SCEN.red_gray) == 5
    assert all(c in SCEN.town_name for c in SCEN.red_gray)  # the five with towns (3.2.d)
    assert sorted(SCEN.exit_name.values()) == ["D1", "D3", "E1", "E3", "F1"]
    assert all(SCEN.kind[c] == "strongpoint" for c in SCEN.exit_name)
    # west to east: D1, D3, E1, E3, F1
    order = sorted(SCEN.exit_name, key=lambda c: SCEN.column[c])
    assert [SCEN.exit_name[c] for c in order] == ["D1", "D3", "E1", "E3", "F1"]
    assert sorted(labels(SCEN.southern)) == sorted(f"H{n}" for n in range(31, 41))
    assert all(SCEN.kind[c] == "hedgerow" for c in SCEN.southern)
    # the southern row is the bottom row of the map
    assert {SCEN.xy[c][1] for c in SCEN.southern} == {min(y for _, y in SCEN.xy)}
    # a square that is both Town and Exit (2.3.d)
    assert any(c in SCEN.town_name for c in SCEN.exit_name)


def test_gray_arrows_are_board_links_between_beach_and_strongpoints() -> None:
    arrows = B.links_of("arrow")
    assert arrows
    for link in arrows:
        kinds = sorted(SCEN.kind[B.cell(x)] for x in (link.start, link.end))
        assert kinds == ["beach", "strongpoint"]
    # the open bluff above eastern Easy Red (B7) has no strongpoint firing on it
    assert SCEN.arrows[B.cell("B7")] == ()
    assert labels(SCEN.arrows[B.cell("B1")]) == ["S1", "S2"]


def test_the_map_needs_no_more_than_the_32_encounter_tokens() -> None:
    """4.1: one per red/gray strongpoint, town and hedgerow south of the beach."""
    need = [c for c in range(len(B)) if c in SCEN.red_gray or SCEN.kind[c] in ("town", "hedgerow")]
    assert len(need) == len(SCEN.encounter_squares) == 32
    assert len(SCEN.encounter_tokens) == 32
    assert len(need) <= len(SCEN.encounter_tokens)


def test_29th_and_rangers_west_of_the_1st_division() -> None:
    """4.4 and HISTORY.md: 29th ID and Rangers to the west, 1st ID to the east."""
    cols = {d: [SCEN.column[u.setup] for u in SCEN.units if u.division == d and u.setup >= 0]
            for d in rules.DIVISIONS}  # fmt: skip
    west = cols[rules.TWENTY_NINTH_ID] + cols[rules.RANGERS]
    assert max(west) < min(cols[rules.FIRST_ID])


# ------------------------------------------------------------------ counters and tokens (3.3-3.5)
def test_29_units_with_divisions_strengths_and_setup() -> None:
    assert len(SCEN.units) == 29
    for u in SCEN.units:
        assert u.division in rules.DIVISIONS
        if u.battalion:
            assert u.full == 10
            # Reading: the 6 or 3 of 6.2a is the reduced side of the BN counters
            assert u.reduced == (3 if u.division == rules.TWENTY_NINTH_ID else 6)
        else:
            assert 3 <= u.full <= 5
        assert u.reduced < u.full
    reinforcements = [u.id for u in SCEN.units if u.setup < 0]
    assert len(reinforcements) == 7
    first_wave = [u.id for u in SCEN.units if u.setup in SCEN.first_wave]
    assert {"A/116", "E/16", "F/16", "C/2Rng"} <= set(first_wave)


def test_token_mixes() -> None:
    assert len(SCEN.strongpoint_tokens) == 13
    kinds = {f for f in SCEN.encounter_tokens if face_value(f) is None}
    assert kinds == {"mines", "sniper", "stug", "event"}
    assert "e0" in SCEN.encounter_tokens  # "even if 0" (8.1.a)
    assert SCEN.obstacle_count == 9 and SCEN.tank_count == 3


def test_tables_cover_every_modified_roll() -> None:
    for table in (SCEN.drift, SCEN.beach, SCEN.engineer_table):
        for roll in range(-10, 20):
            table.lookup(roll)
    for terrain in ("channel", "beach", "hedgerow", "strongpoint", "town"):
        assert [e.roll for e in SCEN.events[terrain]] == [1, 2, 3, 4, 5, 6]


def test_eighteen_cards_each_with_options_and_windows() -> None:
    assert len(SCEN.cards) == 18
    for card in SCEN.cards.values():
        assert card.options
        for opt in card.options:
            assert opt.first >= 1
            assert opt.window().startswith("Turn ")


def test_every_component_states_its_provenance() -> None:
    items = GAME.provenance()
    assert len(items) > 150
    rebuilt = [i for i in items if i.source.reconstructed]
    assert all(i.source.reason for i in rebuilt)
    comps = {i.component for i in rebuilt}
    for needed in (
        "map square",
        "unit",
        "strongpoint token",
        "encounter token",
        "card",
        "drift table",
        "beach disruption table",
        "engineers table",
        "random event table (beach)",
        "game length",
        "gray arrow",
    ):
        assert needed in comps
    published = [i for i in items if not i.source.reconstructed]
    assert any(i.component == "obstacle tokens" for i in published)


def test_provenance_command_reports_reconstructions(capsys: pytest.CaptureFixture[str]) -> None:
    from omaha import cli

    assert cli.main(["provenance", "bloody"]) == 0
    out = capsys.readouterr().out
    assert "RECONSTRUCTED game length" in out and "RECONSTRUCTED card c05" in out


# ------------------------------------------------------------------ bad files
def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        (
            "units.toml",
            'setup = "C2"',
            'setup = "Z99"',
            "units.toml: units[1].setup: 'Z99' is not on the map",
        ),
        (
            "units.toml",
            'setup = "C2"',
            'setup = "S3"',
            "units.toml: units[1].setup: S3 is not a Channel square",
        ),
        (
            "units.toml",
            "strength = [4, 2]",
            "strength = [7, 2]",
            "units.toml: units[1].strength: a company has full strength 3-5 (3.3), not 7",
        ),
        (
            "tokens.toml",
            'count = 3\nsource = "reconstructed: the text says',
            'count = 2\nsource = "reconstructed: the text says',
            "tokens.toml: encounters: the map needs 32 Encounter tokens",
        ),
        (
            "tables.toml",
            "from = 5\nto = 6\neast = 1",
            "from = 6\nto = 6\neast = 1",
            "tables.toml: drift: rows 0 and 1 leave a gap",
        ),
        (
            "cards.toml",
            'effect = "initiative"\namount = 1',
            'effect = "initiativ"\namount = 1',
            "cards.toml: cards[0].options[0].effect: 'initiativ' is not one of: attack_bonus,",
        ),
        (
            "map.toml",
            'start = "S2"\nend = "B1"',
            'start = "B2"\nend = "B1"',
            "map.toml: links[0]: arrow B2-B1 must join a Beach and a Strongpoint square",
        ),
        ("solo.toml", "turns = 8", "turns = 0", "solo.toml: scenario.turns: 0 is outside 1..99"),
    ],
)
def test_bad_files_raise_scenario_errors(
    tmp_path: Path, file: str, old: str, new: str, message: str
) -> None:
    scen = copy_shipped(tmp_path)
    _edit(tmp_path / file, old, new)
    with pytest.raises(omaha.ScenarioError) as err:
        load_scenario(str(scen))
    assert message in str(err.value)


def test_a_scenario_file_by_path_plays(tmp_path: Path) -> None:
    scen = copy_shipped(tmp_path)
    _edit(scen, "turns = 8", "turns = 3")
    st = GAME.new_state(str(scen), seed=3)
    bot = GAME.bots["random"](seed=3)
    while not st.is_terminal():
        st.apply(bot.choose(st))
    assert st.turn == 3
