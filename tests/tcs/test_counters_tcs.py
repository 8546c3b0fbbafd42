"""TCS Omaha's counters as a wargamer reads them (issue 16): the NATO symbol, the size
mark, the values printed on the counter, steps and status markers; and a picture of
the d-day set-up drawn from them."""

from __future__ import annotations

import pytest
from stage import staged

from omaha.kernel.svg.palette import MARKER_STYLE
from omaha.kernel.view import Piece
from omaha.tcs import GAME
from omaha.tcs.core import Status
from omaha.tcs.state import TcsState
from omaha.tcs.view import counter_values, echelon


def piece(state: TcsState, uid: str, player: str | None = None) -> Piece:
    return next(p for p in state.view(player).pieces if p.id == uid)


def test_the_published_counters_print_their_values() -> None:
    """READINGS.md, "The printed counters": Pill Box 75mm 6[12] 5 [7] 6, PB Sqd 726 Inf
    Rgt 2[6]7, Rocket Pit 10[10]-, 915/352 Inf Gun 4[14]0."""
    scen = GAME.load_scenario("d-day")
    types = {u.type.name: u.type for u in scen.units}
    assert counter_values(types["pillbox"]) == "6[12] 5[7]6"
    assert counter_values(types["pb_squad"]) == "2[6]7"
    assert counter_values(types["rocket_pit"]) == "10[10]-"
    assert counter_values(types["inf_gun"]) == "4[14]0"


def test_echelons_of_platoons_and_sections() -> None:
    assert echelon("E/2/16.1") == "•••"
    assert echelon("E/2/16.mg") == "••"
    assert echelon("PB-01") == "" and echelon("Sv/16.trk1") == ""


def test_a_unit_counter_has_symbol_values_steps_and_markers() -> None:
    state = staged(
        {"E/2/16.1": "A16.07", "5./916.1": "A16.05", "A/741.1": "A16.08", "PB-01": "A20.12"},
        fire=["E/2/16.1"],
        steps={"E/2/16.1": 3},
    )
    i = state.unit_index("E/2/16.1")
    with state.edit():
        state.status[i] = Status.SUPPRESSED
        state.dug_in[i] = True
    rifle = piece(state, "E/2/16.1", "US")
    assert (rifle.kind, rifle.echelon, rifle.steps) == ("infantry", "•••", (3, 5))
    assert rifle.values == "1[4]8"
    assert rifle.marks[:3] == ("suppressed", "fire_mode", "dug_in")
    assert {"suppressed", "fire_mode", "dug_in"} <= set(MARKER_STYLE)
    tank = piece(state, "A/741.1", "US")
    assert tank.kind == "armour" and tank.values == "3[8] 5[10]4"
    box = piece(state, "PB-01", "US")
    assert (box.name, box.kind, box.values, box.steps) == (
        "Pill Box",
        "pillbox",
        "6[12] 5[7]6",
        None,
    )
    assert "fire_mode" not in box.marks  # a pill box is always in fire mode
    german = piece(state, "5./916.1", "US")
    assert german.side == "German" and german.kind == "infantry"


def test_unreleased_companies_and_overwatch_marks_show() -> None:
    state = staged({"5./916.1": "A16.05", "E/2/16.1": "A16.09"}, fire=["5./916.1"])
    g = state.unit_index("5./916.1")
    with state.edit():
        state.marked.add(g)
    marks = piece(state, "5./916.1").marks
    assert "opportunity_fired" in marks and "opportunity_fired" in MARKER_STYLE


def test_transports_stay_hidden_from_the_german() -> None:
    """The assigned transports (2.1m) are boats the German never sees."""
    state = GAME.new_state("landing", seed=1)
    bots = {p: GAME.bots["heuristic"](seed=3) for p in GAME.players}
    while not state.transports and not state.is_terminal():
        state.apply(bots[state.current_player() or "US"].choose(state))
    assert not [p for p in state.view("German").pieces if p.kind == "boat"]
    boats = [p for p in state.view("US").pieces if p.kind == "boat"]
    assert boats and all(not p.hidden for p in boats)


@pytest.mark.parametrize("player", ["US", "German"])
def test_the_d_day_set_up_draws_every_counter(player: str) -> None:
    from omaha.kernel.svg import render_view

    state = GAME.new_state("d-day", seed=1)
    bots = {p: GAME.bots["heuristic"](seed=5) for p in GAME.players}
    while state.in_setup:
        state.apply(bots[state.current_player() or "US"].choose(state))
    view = state.view(player)
    svg = render_view(view)
    on_map = [p for p in view.pieces if state.board.has(p.where) and not p.hidden]
    assert on_map and all(p.kind or p.name.startswith("Sv/") for p in on_map)
    assert svg.count('class="values"') >= len({p.where for p in on_map})
    assert "6[12] 5[7]6" in svg
