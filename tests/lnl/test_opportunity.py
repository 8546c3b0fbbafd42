"""Opportunity fire (LnL Omaha: Opportunity Fire) with pinned cards."""

from __future__ import annotations

from .helpers import cards, legal, play, position, unit


def test_the_other_side_may_fire_after_each_hex_entered() -> None:
    st = position({"1/B/116": "H2", "1/1/916": "G5"}, phase="move")
    play(st, "move 1/B/116", "step H3")
    assert st.pending is not None
    assert st.pending.kind == "opportunity fire" and st.pending.player == "German"
    assert legal(st) == ["opfire 1/1/916 soft", "pass"]
    play(st, "pass")
    assert st.pending.player == "US" and "step H4" in legal(st)


def test_a_hit_stops_the_mover_with_the_opportunity_shift() -> None:
    st = position({"1/B/116": "H2", "1/1/916": "G5"}, phase="move")
    play(st, "move 1/B/116", "step H3", "opfire 1/1/916 soft")
    cards(st, 2)
    play(st, "resolve")
    fire = next(dict(e.details) for e in reversed(st.log) if e.kind == "lnl.fire")
    assert fire["shift"] == "+1" and fire["column"] == "12"  # 10 HE, opportunity fire
    assert fire["result"] == "Disrupted"
    assert st.group is None and st.moved[unit(st, "1/B/116")]
    assert st.fired[unit(st, "1/1/916")]
    assert "move 1/B/116" not in legal(st)


def test_only_the_movers_are_hit_and_a_miss_lets_them_go_on() -> None:
    st = position({"1/B/116": "H2", "2/F/116": "H3", "1/1/916": "G5"}, phase="move")
    play(st, "move 1/B/116", "step H3", "opfire 1/1/916 soft")
    cards(st, 1)
    play(st, "resolve")  # Loss 1 on the mover alone
    assert st.steps[unit(st, "1/B/116")] == 1 and st.steps[unit(st, "2/F/116")] == 2
    assert not st.dis[unit(st, "2/F/116")]
    st2 = position({"1/B/116": "H2", "1/1/916": "G5", "2/1/916": "G1"}, phase="move")
    play(st2, "move 1/B/116", "step H3", "opfire 1/1/916 soft")
    cards(st2, 6)
    play(st2, "resolve")
    assert st2.group is not None and "step H4" in legal(st2)


def test_once_per_hex_entered_and_hits_stop_only_those_hit() -> None:
    st = position(
        {"1/A/743": "H2", "1/B/116": "H2", "1/1/916": "G5", "2/1/916": "G4"}, phase="move"
    )
    play(st, "move 1/A/743", "with 1/B/116", "step H3")
    assert {"opfire 1/1/916 soft", "opfire 2/1/916 soft", "pass"} <= set(legal(st))
    play(st, "opfire 1/1/916 soft")
    cards(st, 3)
    play(st, "resolve")  # Disrupted on the soft mover only
    assert st.opp is None  # no second attack on this hex entered
    assert st.group is not None and st.group.units == [unit(st, "1/A/743")]
    assert st.dis[unit(st, "1/B/116")] and not st.dis[unit(st, "1/A/743")]
