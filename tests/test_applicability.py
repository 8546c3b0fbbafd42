"""What a scenario does not model is NaN in its games, never a 0 the comparison would
compare: each game's ``not_modelled`` says which metrics and why, and a played game of
every shipped scenario bears it out."""

import math

import pytest

import omaha
from omaha import compare

SCENARIOS = [(name, s) for name in sorted(omaha.games()) for s in omaha.load(name).scenarios()]


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS, ids=[f"{g}/{s}" for g, s in SCENARIOS])
def test_nan_exactly_where_the_scenario_does_not_model_the_metric(name: str, scenario: str) -> None:
    game = omaha.load(name)
    absent = game.not_modelled(scenario)
    declared = {m.name for m in game.metrics}
    assert set(absent) <= declared
    assert all(why for why in absent.values())  # each says why
    run = compare.play_one(name, scenario, root=1, index=0)
    assert set(run.metrics) == declared
    nan = {k for k, v in run.metrics.items() if math.isnan(v)}
    assert nan == set(absent), f"NaN but modelled: {nan - set(absent)}"


@pytest.mark.parametrize(
    ("name", "scenario", "absent"),
    [
        ("tcs", "e1-draw", {"first_wave_ashore", "dd_tanks_ashore", "dukw_guns_lost",
                            "landed_off_target"}),
        ("tcs", "landing", {"us_win"}),
        ("landing_table", "first_wave", {"exits_by_1200", "exits_by_1700"}),
        ("lnl", "vierville", {"first_wave_ashore", "dd_tanks_ashore", "exits_opened",
                              "first_exit_hours"}),
    ],
)  # fmt: skip
def test_the_scenarios_without_a_landing_or_a_winner_or_the_hour(
    name: str, scenario: str, absent: set[str]
) -> None:
    assert absent <= set(omaha.load(name).not_modelled(scenario))


def test_a_share_of_nothing_is_nan_and_a_clamp_keeps_it() -> None:
    from omaha.kernel.metrics import clamp, ratio

    assert math.isnan(ratio(0, 0)) and ratio(1, 4) == 0.25
    assert math.isnan(clamp(math.nan)) and clamp(1.5) == 1.0 and clamp(-1.0) == 0.0
