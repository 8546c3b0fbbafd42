"""The TCS heuristic US on staged positions: what it chooses where a competent player
knows the answer (units free under a leader go inland, a tank leaves the strand the
next tide covers, companies are aimed at the villages, op sheets are started)."""

from __future__ import annotations

from routine import play_until
from stage import RELEASE, staged, to_act

from omaha.tcs.actions import NoOverwatch, OpSheet
from omaha.tcs.bots import HeuristicUS, Objectives, next_sea
from omaha.tcs.state import TcsState


def clear(state: TcsState, *labels: str) -> None:
    """Obstacle hexes tested clear (2.4d) and open this turn."""
    with state.edit():
        for label in labels:
            state.obstacles[state.cell(label)] = "clear"
            state.clear_from[state.cell(label)] = 0


def leader_at(state: TcsState, lid: str, label: str) -> None:
    k = state.scenario.oob.leader(lid).index
    with state.edit():
        state.leader_cell[k] = state.cell(label)
        state.leader_status[k] = "map"


def us_action_phase(state: TcsState, bot: HeuristicUS) -> None:
    """The bot plays the US Action Phase it is at; the German declines overwatch."""
    turn = state.turn_label
    while state.turn_label == turn and state.wait is not None:
        if state.current_player() == "US":
            if state.wait[0] not in ("action", "choose", "move", "fire"):
                return
            state.apply(bot.choose(state))
        elif NoOverwatch() in state.legal_actions():
            state.apply(NoOverwatch())
        else:
            return


def test_a_unit_free_under_a_leader_moves_inland() -> None:
    """2.3f: beside a leader at the start of the Action Phase a unit on the strand may go
    beyond the shingle; the bot takes it inland rather than fire from the strand at the
    pill box in sight (a stack that fires has acted and stays)."""
    state = staged({"E/2/16.1": "A14.14", "PB-01": "A12.12"})
    clear(state, "A13.13", "A14.13", "A15.13")
    leader_at(state, "Ldr-2/16", "A14.14")
    to_act(state)
    us_action_phase(state, HeuristicUS(1))
    where = state.where[state.unit_index("E/2/16.1")]
    assert where in state.scenario.beach.land


def test_a_tank_leaves_the_strand_the_next_tide_covers() -> None:
    """1.12a: at 1040 the 1100 tide line will cover A14.16; the tank there moves to a
    dry hex in this Action Phase instead of waiting to be pushed or drowned."""
    state = staged({"A/741.1": "A14.16"})
    to_act(state)
    assert state.cell("A14.16") in next_sea(state)
    us_action_phase(state, HeuristicUS(1))
    where = state.where[state.unit_index("A/741.1")]
    assert where >= 0 and where not in next_sea(state)


def test_every_objective_has_companies_aimed_at_it() -> None:
    """Two battalions' worth of companies on the strand of Easy Red and Fox Green (the
    d-day victory conditions: villages score): every draw and every village gets
    companies, and every company an objective."""
    companies = (
        "A/1/16", "B/1/16", "C/1/16", "E/2/16", "F/2/16", "G/2/16", "I/3/16", "K/3/16",
        "L/3/16", "A/1/18", "B/1/18", "C/1/18", "E/2/18", "F/2/18",
    )  # fmt: skip
    pieces = {f"{f}.1": f"A{8 + k}.14" for k, f in enumerate(companies)}
    state = staged(pieces, scenario=RELEASE)
    to_act(state)
    assigned: dict[str, str] = {}
    Objectives(state, assigned)
    beach = state.scenario.beach
    aimed = set(assigned.values())
    assert set(beach.villages) <= aimed
    assert {d for d in beach.exits if d in beach.breach_by_name} <= aimed
    assert set(assigned) >= set(companies)


def test_op_sheets_are_started_for_the_companies_ashore() -> None:
    """2.3a: with twelve sheets implemented the bot still starts one for a company
    ashore (it waits for a place, which a sheet over frees, series 6.11)."""
    state = staged({"E/2/16.1": "A16.12"}, scenario=RELEASE)
    play_until(state, "op sheets", "1100 6 June")
    with state.edit():
        state.us_implemented = {f"X{k}" for k in range(12)}
    assert HeuristicUS(1).choose(state) == OpSheet("E/2/16")
