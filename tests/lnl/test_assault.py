"""Close assault (LnL Omaha: Close Assault, Close Assault Table) with pinned cards."""

from __future__ import annotations

from typing import Any

import pytest

from omaha.lnl.state import LnlState

from .helpers import cards, legal, play, position, unit


def last(st: LnlState) -> dict[str, Any]:
    return next(dict(e.details) for e in reversed(st.log) if e.kind == "lnl.assault")


@pytest.mark.parametrize(
    ("attackers", "att", "odds"),
    [
        ({"1/A/743": "H2", "2/A/743": "H2"}, 8, "2-1"),
        ({"A/5Rgr": "H2", "1/A/743": "H2"}, 10, "2-1"),
        ({"A/5Rgr": "H2", "B/5Rgr": "G3"}, 12, "3-1"),
    ],
)
def test_odds_examples(attackers: dict[str, str], att: int, odds: str) -> None:
    """LnL Omaha: Close Assault: 8 v 4 and 10 v 4 are 2-1, 12 v 4 is 3-1."""
    st = position({**attackers, "75mm-Gun": "H3"}, phase="assault")
    assert st.ca(unit(st, "75mm-Gun")) == 4
    play(st, "assault H3", *[f"add {a}" for a in attackers])
    cards(st, 6)
    play(st, "resolve")
    got = last(st)
    assert (got["att"], got["dfn"], got["column"]) == (att, 4, odds)


def test_below_one_to_two_is_not_allowed() -> None:
    st = position({"B/116-HVY": "H2", "1/1/916": "H3"}, phase="assault")
    assert "assault H3" not in legal(st)  # 2 v 5


def test_shifts_armor_only_disrupted_and_terrain() -> None:
    st = position({"1/B/116": "H2", "2/B/116": "H2", "1/916AT": "H3"}, phase="assault")
    play(st, "assault H3", "add 1/B/116", "add 2/B/116")
    cards(st, 6)
    play(st, "resolve")
    assert last(st)["shift"] == "+1"  # infantry against armor alone
    st = position({"1/B/116": "D7", "2/B/116": "D7", "1/1/916": "E8"}, phase="assault")
    st.dis[unit(st, "1/1/916")] = True
    play(st, "assault E8", "add 1/B/116", "add 2/B/116")
    cards(st, 6)
    play(st, "resolve")
    assert last(st)["shift"] == "+1"  # disrupted +2, woods -1


def test_only_rangers_assault_across_a_crest() -> None:
    st = position(
        {"1/B/116": "K6", "A/5Rgr": "K5", "B/5Rgr": "K5", "88mm-Gun": "J5"}, phase="assault"
    )
    play(st, "assault J5")
    assert legal(st) == ["add A/5Rgr", "add B/5Rgr", "cancel"]
    play(st, "add A/5Rgr", "add B/5Rgr")
    cards(st, 6)
    play(st, "resolve")
    got = last(st)
    assert got["shift"] == "-2" and got["column"] == "1-1"  # 12 v 4: 3-1, fortification, crest


def test_one_company_and_the_support_units_stacked_with_it() -> None:
    st = position(
        {"1/B/116": "H2", "1/F/116": "G3", "EAT-1": "H2", "EAT-2": "G4", "1/1/916": "H3"},
        phase="assault",
    )
    play(st, "assault H3", "add 1/B/116")
    assert legal(st) == ["add EAT-1", "cancel", "resolve"]


def test_dr_steps_retreat_and_advance() -> None:
    st = position(
        {"A/5Rgr": "H2", "B/5Rgr": "H2", "C/5Rgr": "G3", "1/1/916": "H3"}, phase="assault"
    )
    play(st, "assault H3", "add A/5Rgr", "add B/5Rgr", "add C/5Rgr")
    cards(st, 2)
    play(st, "resolve")  # 18 v 5 = 3-1, card 2: DR
    assert last(st)["result"] == "DR"
    g = unit(st, "1/1/916")
    assert st.steps[g] == 1
    assert st.pending is not None and st.pending.player == "German"
    assert legal(st) == ["retreat 1/1/916 to H4", "retreat 1/1/916 to I4"]
    play(st, "retreat 1/1/916 to H4")
    assert st.pending.player == "US" and st.pending.kind == "advance"
    assert legal(st) == ["advance A/5Rgr", "advance B/5Rgr", "advance C/5Rgr", "stay"]
    play(st, "advance C/5Rgr", "stay")
    assert st.label(st.where[unit(st, "C/5Rgr")]) == "H3"
    assert st.control[st.cell_of("H3")] == "US"
    assert st.assaulted[unit(st, "A/5Rgr")] and not st.fired[unit(st, "A/5Rgr")]


def test_a_unit_with_nowhere_to_retreat_is_eliminated() -> None:
    st = position(
        {"A/5Rgr": "H2", "B/5Rgr": "H2", "C/5Rgr": "H4", "1/1/916": "H3"}, phase="assault"
    )
    play(st, "assault H3", "add A/5Rgr", "add B/5Rgr", "add C/5Rgr")
    cards(st, 2)
    play(st, "resolve")  # every neighbour of H3 is next to an undisrupted Ranger
    assert st.where[unit(st, "1/1/916")] < 0
    assert any(e.kind == "lnl.elim" and e.details["why"] == "could not retreat" for e in st.log)


def test_guns_cannot_retreat() -> None:
    """Reading: a gun battery (no movement factor) hit by DR is eliminated."""
    st = position(
        {"1/A/743": "H2", "2/A/743": "H2", "3/A/743": "G3", "75mm-Gun": "H3"}, phase="assault"
    )
    play(st, "assault H3", "add 1/A/743", "add 2/A/743", "add 3/A/743")
    cards(st, 2)
    play(st, "resolve")  # 12 v 4 = 3-1, card 2: DR
    assert st.where[unit(st, "75mm-Gun")] < 0


def test_delim_and_aelim() -> None:
    st = position({"A/5Rgr": "H2", "B/5Rgr": "G3", "75mm-Gun": "H3"}, phase="assault")
    play(st, "assault H3", "add A/5Rgr", "add B/5Rgr")
    cards(st, 1)
    play(st, "resolve")  # 3-1, card 1: DElim
    assert last(st)["result"] == "DElim" and st.where[unit(st, "75mm-Gun")] < 0
    st = position({"1/B/116": "H2", "2/B/116": "G3", "1/1/916": "H3"}, phase="assault")
    play(st, "assault H3", "add 1/B/116", "add 2/B/116")
    cards(st, 3)
    play(st, "resolve")  # 8 v 5 = 1-1, card 3: AElim
    assert last(st)["result"] == "AElim"
    assert st.where[unit(st, "1/B/116")] < 0 and st.where[unit(st, "2/B/116")] < 0


def test_ar_costs_every_attacker_a_step_and_a_retreat() -> None:
    st = position({"1/B/116": "H2", "2/B/116": "G3", "1/1/916": "H3"}, phase="assault")
    play(st, "assault H3", "add 1/B/116", "add 2/B/116")
    cards(st, 2)
    play(st, "resolve")  # 1-1, card 2: AR
    assert last(st)["result"] == "AR"
    assert st.steps[unit(st, "1/B/116")] == 1 and st.steps[unit(st, "2/B/116")] == 1
    assert st.pending is not None and st.pending.kind == "retreat" and st.pending.player == "US"
    choices = legal(st)
    assert choices and all(c.startswith("retreat 1/B/116 to ") for c in choices)
    assert "retreat 1/B/116 to H4" not in choices  # next to the undisrupted German


def test_fired_disrupted_and_used_units_do_not_assault() -> None:
    st = position(
        {"1/B/116": "H2", "2/B/116": "G3", "3/B/116": "G4", "1/1/916": "H3"}, phase="assault"
    )
    with st.edit():
        st.fired[unit(st, "1/B/116")] = True
        st.dis[unit(st, "2/B/116")] = True
    play(st, "assault H3")
    assert legal(st) == ["add 3/B/116", "cancel"]
