"""The play session the terminal and the browser share: bots move, people choose,
undo replays, records resume."""

from __future__ import annotations

import pytest

import omaha
from omaha.session import Session, natural_key


def test_natural_order_of_labels() -> None:
    labels = ["L10", "L2", "L1", "K18", "A10.10", "A10.9", "A9.10"]
    assert sorted(labels, key=natural_key) == ["A9.10", "A10.9", "A10.10", "K18", "L1", "L2", "L10"]


def test_bots_move_until_a_person_must_decide() -> None:
    session = Session("lnl", seed=2, bots={"German": "solitaire"})
    assert session.human_to_move == "US"
    choices = session.choices()
    assert [c.number for c in choices] == list(range(1, len(choices) + 1))
    assert choices[0].plan == "shipped US set-up"  # whole plans come first
    actions = [c for c in choices if not c.plan]
    texts = [c.text for c in actions]
    assert texts == sorted(texts, key=natural_key)
    first = actions[0]
    assert first.cells and all(session.state.board.has(c) for c in first.cells)


def test_numbers_out_of_range_name_the_range_and_change_nothing() -> None:
    session = Session("bloody", seed=1)
    before = session.state.to_json()
    n = len(session.choices())
    offered = rf"99 is not one of the choices offered \(1 to {n}\)"
    with pytest.raises(omaha.IllegalAction, match=offered):
        session.choose(99)
    with pytest.raises(omaha.IllegalAction, match="cannot read"):
        session.choose("fly to the moon")
    assert session.state.to_json() == before


def test_undo_takes_back_the_last_human_decision_and_the_bot_moves_after_it() -> None:
    session = Session("lnl", seed=4, bots={"German": "solitaire"})
    assert not session.can_undo
    start = session.state.to_json()
    session.choose(1)
    after_one = session.state.to_json()
    session.choose(1)
    session.undo()
    assert session.state.to_json() == after_one
    session.undo()
    assert session.state.to_json() == start
    with pytest.raises(omaha.IllegalAction, match="nothing of yours to undo"):
        session.undo()


def test_a_record_resumes_the_same_position() -> None:
    session = Session("landing_table", "first_wave", seed=3)
    for _ in range(5):
        session.choose(len(session.choices()))
    again = Session.from_record(session.record())
    assert again.state.to_json() == session.state.to_json()
    assert again.human_to_move == session.human_to_move


def test_bad_bot_specs_are_named() -> None:
    with pytest.raises(ValueError, match="has no side 'Martian'"):
        Session("lnl", bots={"Martian": "random"})
    with pytest.raises(ValueError, match="has no bot 'genius'"):
        Session("lnl", bots={"German": "genius"})


def test_autoplay_off_leaves_the_bots_to_the_caller() -> None:
    session = Session("lnl", seed=5, bots={"German": "solitaire"}, autoplay=False)
    assert session.state.current_player() == "German" and session.human_to_move is None
    assert session.run_bots(limit=1) == 1
    assert session.deciders == ("German",) and session.human_to_move == "US"


def test_undo_returns_what_it_took_back_and_replays_to_the_same_position() -> None:
    session = Session("bloody", seed=6)
    start = session.state.to_json()
    first = session.choose(2)
    second = session.choose(1)
    assert session.undo() == second
    assert session.undo() == first
    assert session.state.to_json() == start
    assert session.choose(2) == first  # the same choice again gives the same future
    assert session.choices()[0].action == second
