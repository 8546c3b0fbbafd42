"""Bloody Omaha counters as a wargamer reads them (issue 16): the NATO symbol and
echelon of each US counter, the strength of the side up, status markers named as the
renderer knows them, German tokens face down in the US view, and pictures that stack
units over the markers of their square."""

from __future__ import annotations

import pytest
from bloody_helpers import GAME, new, staged

from omaha.kernel.svg import render_view
from omaha.kernel.svg.palette import MARKER_STYLE
from omaha.kernel.view import Piece


def piece(pieces: tuple[Piece, ...], pid: str) -> Piece:
    return next(p for p in pieces if p.id == pid)


def test_us_counters_print_symbol_echelon_and_strength() -> None:
    st = staged(units={"A/116": "B2", "5Rng": "B1", "C/2Rng": "B1"}, disrupted=["C/2Rng"])
    pieces = st.view("US").pieces
    company, battalion, ranger = (piece(pieces, u) for u in ("A/116", "5Rng", "C/2Rng"))
    assert (company.kind, company.echelon, company.values) == ("infantry", "I", "4")
    assert (battalion.kind, battalion.echelon, battalion.values) == ("ranger", "II", "10")
    # the disrupted side shows its own strength and the marker the renderer knows (6.5)
    assert (ranger.kind, ranger.values, ranger.marks) == ("ranger", "3", ("disrupted",))
    assert all(m in MARKER_STYLE for p in pieces for m in p.marks if m != "set aside")


def test_eliminated_units_keep_their_full_strength_and_an_x() -> None:
    st = staged(units={"A/116": "B2"})
    with st.edit():
        u = st.scen.unit_index["A/116"]
        st.where[u] = -2
        st.eliminated = [u]
    p = piece(st.view("US").pieces, "A/116")
    assert (p.where, p.values, p.marks) == ("", "4", ("eliminated",))


def test_tokens_show_their_back_to_the_us_and_their_face_once_revealed() -> None:
    st = staged(
        units={"A/116": "B2"},
        tokens={"S2": [("sp12", True), ("mines", True)], "S3": [("sp8", False)]},
    )
    us, everyone = st.view("US").pieces, st.view(None).pieces
    hidden = piece(us, "S3#1")
    assert hidden.hidden and hidden.values == "" and hidden.kind == "fortification"
    seen = piece(everyone, "S3#1")
    assert (seen.hidden, seen.values, seen.marks) == (False, "8", ("face_down",))
    assert piece(us, "S2#1").values == "12" and piece(us, "S2#1").kind == "fortification"
    assert (piece(us, "S2#2").name, piece(us, "S2#2").values) == ("Encounter", "Mines")


def test_tanks_are_armour_and_their_unit_is_named_in_the_notes() -> None:
    st = staged(units={"A/116": "B2"}, gaps=["B2"])
    with st.edit():
        st.tanks[0] = [st.board.cell("B2"), st.scen.unit_index["A/116"]]
    view = st.view("US")
    tank = piece(view.pieces, "tank1")
    assert (tank.kind, tank.values, tank.marks) == ("armour", "3", ())
    assert "tank1 supports A/116 (8.3)" in view.notes
    assert piece(view.pieces, "tank2").marks == ("set aside",)


def test_units_stack_over_the_markers_and_tanks_of_their_square() -> None:
    st = staged(units={"A/116": "B2"})
    with st.edit():
        st.tanks[0] = [st.board.cell("B2"), st.scen.unit_index["A/116"]]
    at_b2 = [p.id for p in st.view("US").pieces if p.where == "B2"]
    assert at_b2 == ["obstacle-B2", "tank1", "A/116"]  # drawn in this order: the unit on top


@pytest.mark.parametrize("seed", [3, 5])
def test_the_us_picture_draws_symbols_and_values_and_no_hidden_face(seed: int) -> None:
    st = new(seed)
    bot = GAME.bots["heuristic"](seed=seed)
    for _ in range(40):
        if st.is_terminal():
            break
        st.apply(bot.choose(st))
    svg = render_view(st.view("US"))
    assert 'data-symbol="infantry"' in svg and 'data-symbol="ranger"' in svg
    assert 'class="echelon"' in svg
    face_down = sum(1 for toks in st.tokens.values() for _, revealed in toks if not revealed)
    assert svg.count("German: hidden") == face_down
