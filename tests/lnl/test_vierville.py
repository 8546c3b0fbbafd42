"""Bonus scenario: Counterattack on Vierville (set-up, entry, special rules, points)."""

from __future__ import annotations

from omaha.lnl.state import LnlState

from .helpers import GAME, legal, play, position, unit


def fresh() -> LnlState:
    st = GAME.new_state("vierville", seed=0)
    assert isinstance(st, LnlState)
    return st


def test_americans_set_up_near_b7_d4_and_f7() -> None:
    st = fresh()
    assert st.pending is not None and st.pending.player == "US"
    assert st.uid(st.place_queue[0]) == "2/B/116"
    hexes = {a.split(" at ")[1] for a in legal(st)}
    assert hexes == {"B7", "B6", "B8", "A7", "A8", "C7", "C8"}
    order = [st.uid(u) for u in st.place_queue]
    assert order[-3:] == ["C/5Rgr", "2/A/743", "3/A/743"]


def test_the_scenario_starts_with_the_victory_hexes_american() -> None:
    st = fresh()
    assert {st.label(c): st.control[c] for c in st.T.victory} == {
        "A7": "US",
        "F6": "US",
        "F8": "US",
        "H5": "US",
    }
    assert st.scen.victory_points == {
        st.cell_of("F6"): 2,
        st.cell_of("F8"): 2,
        st.cell_of("A7"): 2,
        st.cell_of("H5"): 3,
    }


def test_german_entry_areas_on_turn_one() -> None:
    st = position({"1/B/116": "F7"}, scenario="vierville", side="German", phase="move", turn=1)
    with st.edit():
        st.due = {u.idx: 1 for u in st.scen.units if u.side == "German"}
    by_unit: dict[str, set[str]] = {}
    for a in legal(st):
        if a.startswith("enter"):
            uid, hx = a.removeprefix("enter ").split(" at ")
            by_unit.setdefault(uid, set()).add(hx)
    assert by_unit["1/1/916"] == {"A10", "A11", "A12", "B10", "B11"}
    assert by_unit["1/916AT"] == {"A1", "A2", "B1"}
    # within one hex of A2, the mortar (MF 1, a gun, so farmland costs it 2) can use A1 only
    assert by_unit["81mm-Mtr"] == {"A1"}


def test_the_mortar_moves_one_hex_in_this_scenario() -> None:
    """Special rule 2 (and farmland costing infantry, not guns, 1: the mortar needs open)."""
    st = position(
        {"81mm-Mtr": "A4", "1/B/116": "F7"}, scenario="vierville", side="German", phase="move"
    )
    assert st.u(unit(st, "81mm-Mtr")).mf == 1
    play(st, "move 81mm-Mtr")
    steps = sorted(a.split()[1] for a in legal(st) if a.startswith("step"))
    assert steps == ["B3"]  # the only open neighbour; A3, A5, B4 cost more than 1


def test_victory_by_points() -> None:
    st = position(
        {"1/B/116": "F7", "1/1/916": "A11"},
        scenario="vierville",
        side="German",
        phase="assault",
        turn=10,
    )
    st.control[st.cell_of("H5")] = "German"
    play(st, "end phase")
    out = st.outcome()
    assert out is not None and out.winner == "US" and dict(out.points) == {"US": 6.0, "German": 3.0}
    st = position(
        {"1/B/116": "F7", "1/1/916": "A11"},
        scenario="vierville",
        side="German",
        phase="assault",
        turn=10,
    )
    for label in ("F6", "F8", "A7"):
        st.control[st.cell_of(label)] = "German"
    play(st, "end phase")
    out = st.outcome()
    assert (
        out is not None
        and out.winner == "German"
        and dict(out.points) == {"US": 3.0, "German": 6.0}
    )


def test_a_full_bonus_game_lasts_ten_turns() -> None:
    st = fresh()
    bots = {side: GAME.bots[name](seed=2) for side, name in GAME.lineup("heuristic").items()}
    while not st.is_terminal():
        player = st.current_player()
        assert player is not None
        st.apply(bots[player].choose(st))
    assert st.turn == 10
    out = st.outcome()
    assert out is not None and sum(p for _, p in out.points) == 9
