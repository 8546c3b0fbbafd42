"""What a player reads on the counters of the view (issue 16; reading R36): the NATO
symbol, the size mark, the printed factors of the face showing, the steps, the markers."""

from __future__ import annotations

import pytest

from omaha.kernel.svg import render_view
from omaha.kernel.svg.counters import SYMBOLS
from omaha.kernel.svg.palette import MARKER_STYLE
from omaha.kernel.view import Piece

from .helpers import GAME, position


def piece(view_pieces: tuple[Piece, ...], uid: str) -> Piece:
    (found,) = [p for p in view_pieces if p.id == uid]
    return found


@pytest.mark.parametrize(
    ("uid", "kind", "echelon", "values"),
    [
        ("1/B/116", "infantry", "•••", "3-1-4"),
        ("B/116-HVY", "machine_gun", "••", "4-0-6"),
        ("A/5Rgr", "ranger", "I", "4-1-4"),
        ("EAT-1", "engineer", "•", "2-2-2"),
        ("1/A/743", "armour", "•••", "6-10-8/4"),
        ("88mm-Gun", "artillery", "I", "12-18-12"),
        ("50mm-Gun", "anti_tank", "I", "6-8-8"),
        ("81mm-Mtr", "mortar", "I", "12-0-10"),
        ("1/916AT", "anti_tank", "•••", "4-12-8/3"),
    ],
)
def test_each_counter_shows_its_symbol_size_and_factors(
    uid: str, kind: str, echelon: str, values: str
) -> None:
    st = GAME.new_state("beach", seed=1)
    p = piece(st.view("US").pieces, uid)
    assert (p.kind, p.echelon, p.values) == (kind, echelon, values)
    assert p.kind in SYMBOLS and p.steps == (2, 2) and not p.hidden
    assert len(p.values) <= 8  # legible on a counter at the default size


def test_a_reduced_disrupted_unit_shows_its_reduced_face_pips_and_markers() -> None:
    st = position({"1/B/116": "H3", "1/1/916": "H5"})  # HE 4-2, AP 1-0 (EXAMPLES)
    u, g = st.unit_index("1/B/116"), st.unit_index("1/1/916")
    with st.edit():
        st.steps[u] = 1
        st.dis[u] = True
        st.fired[g] = True
    pieces = st.view("German").pieces
    rifle, german = piece(pieces, "1/B/116"), piece(pieces, "1/1/916")
    assert (rifle.values, rifle.steps, rifle.marks) == ("2-0-4", (1, 2), ("disrupted",))
    assert german.marks == ("fired",) and german.values.startswith(str(st.he(g)))
    assert all(m in MARKER_STYLE for p in pieces for m in p.marks)


def test_units_landed_this_turn_carry_the_landed_marker() -> None:
    st = GAME.new_state("beach", seed=1)
    bots = {s: GAME.bots[b](seed=1) for s, b in GAME.lineup("heuristic").items()}
    while st.current_phase == "setup":
        player = st.current_player()
        assert player is not None
        st.apply(bots[player].choose(st))
    landed = [p for p in st.view("US").pieces if "landed" in p.marks]
    assert {p.id for p in landed} >= {"1/B/116", "1/A/743"}
    assert all(p.side == "US" for p in landed)


def test_the_picture_draws_every_counter_with_its_values() -> None:
    st = GAME.new_state("beach", seed=1)
    svg = render_view(st.view("US"))
    for p in st.view("US").pieces:
        assert p.values in svg
