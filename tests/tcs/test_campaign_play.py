"""The campaign's time-gated rules reached through play: seeded bot games of the shipped
campaign (and june7) whose logs show each rule's event, none of it staged. The seeds
were found by playing and are stated here; a change to the rules or the bots may move
an event to other seeds (then find new ones, and say so)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from omaha.tcs import GAME
from omaha.tcs.state import TcsState


def played(scenario: str, bot: str, seed: int, until: str | None = None) -> TcsState:
    """A seeded game of ``bot`` on both sides, to its end (or the start of ``until``)."""
    state = GAME.new_state(scenario, seed=seed)
    player = GAME.bots[bot](seed=seed)
    while not state.is_terminal() and state.turn_label != until:
        state.apply(player.choose(state))
    assert isinstance(state, TcsState)
    return state


def logged(state: TcsState, kinds: Iterable[str]) -> dict[str, list[str]]:
    """The turns on which each of ``kinds`` was logged."""
    out: dict[str, list[str]] = {k: [] for k in kinds}
    for e in state.log:
        if e.kind in out:
            out[e.kind].append(e.turn)
    return out


@pytest.mark.slow
def test_a_heuristic_campaign_reaches_the_rules_of_7_june() -> None:
    """Heuristic players, campaign seed 1 (about 20 s of CPU): TRP fire from 0100 7 June
    (2.8), the ammunition additions at 0600 7 and 8 June (2.9), overdraft steps on 1200
    7 June (2.11), the 29th ID leaving west and the exit checked at 1200 7 June with none
    left (2.7b), no A-20 at night (2.10), to a result."""
    state = played("campaign", "heuristic", 1)
    got = logged(
        state,
        (
            "tcs.trp.fire",
            "tcs.ammo.added",
            "tcs.overdraft",
            "tcs.exit",
            "tcs.division29.checked",
            "tcs.division29.forfeit",
            "tcs.air.night",
        ),
    )
    turns = [t.label for t in state.scenario.turns]
    assert got["tcs.trp.fire"] and min(turns.index(t) for t in got["tcs.trp.fire"]) >= turns.index(
        "0100 7 June"
    )
    assert set(got["tcs.ammo.added"]) == {"0600 7 June", "0600 8 June"}
    assert set(got["tcs.overdraft"]) == {"1200 7 June"}
    assert got["tcs.exit"] and got["tcs.division29.checked"] == ["1200 7 June"]
    assert got["tcs.division29.forfeit"] == []
    check = next(e for e in state.log if e.kind == "tcs.division29.checked")
    assert check.details["left"] == 0 and check.details["gone"] > 0
    assert {"2200 6 June", "0300 8 June"} <= set(got["tcs.air.night"])
    assert state.is_terminal() and state.outcome() is not None


def test_a_random_us_lights_the_night_and_forfeits_the_campaign_at_1200_7_june() -> None:
    """Random players, campaign seed 1 (about 3 s of CPU): on the night of 6-7 June
    illumination rounds are fired (2.9's pool, the series' night) and no A-20 flies
    (2.10); the 29th ID never leaves, and at the end of 1200 7 June the exit check finds
    it on the map: the US forfeits (2.7b)."""
    state = played("campaign", "random", 1)
    got = logged(
        state,
        ("tcs.division29.checked", "tcs.division29.forfeit", "tcs.illum", "tcs.air.night"),
    )
    labels = [t.label for t in state.scenario.turns]
    played_night = {
        t.label
        for k, t in enumerate(state.scenario.turns)
        if "night" in t.flags and k < labels.index("1200 7 June")
    }
    assert {"2200 6 June", "0300 7 June"} <= played_night
    assert got["tcs.illum"] and set(got["tcs.illum"]) <= played_night
    assert set(got["tcs.air.night"]) == played_night
    assert got["tcs.division29.checked"] == ["1200 7 June"]
    assert got["tcs.division29.forfeit"] == ["1200 7 June"]
    outcome = state.outcome()
    assert outcome is not None and outcome.level == "US forfeit" and outcome.winner == "German"


def test_the_inland_german_leaves_the_south_edge_by_steps_it_can_take() -> None:
    """The German heuristic inland, june7 seed 1 (heuristic players, about 1 s of CPU):
    2./Fues352 enters at C29.01 at 0620 7 June and moves off on the next turn (a way
    through the flooded Aure meadows, a step dearer than its allowance, held it there
    until 1220 before the way counted only steps a unit can take)."""
    state = played("june7", "heuristic", 1, until="0700 7 June")
    entered = [e for e in state.log if e.kind == "tcs.enter" and e.details["hex"] == "C29.01"]
    assert [(e.turn, e.details["formation"]) for e in entered][:1] == [
        ("0620 7 June", "2./Fues352")
    ]
    off = [
        e.turn
        for e in state.log
        if e.kind == "tcs.move"
        and str(e.details["unit"]).startswith("2./Fues352.")
        and e.details["start"] == "C29.01"
    ]
    assert off[:1] == ["0640 7 June"]
