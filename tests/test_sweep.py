"""What-if sweeps: a scenario key over values, keys checked against the scenario schema,
the same seeds (and so the same run, where the value cannot matter) under every value."""

import pytest

from omaha import cli, sweep


def test_a_value_that_cannot_matter_gives_the_same_runs_run_by_run() -> None:
    setting = sweep.parse_setting("scenario.title=One title,Another")
    one, two = sweep.sweep("landing_table", "first_wave", setting, runs=4, seed=5)
    assert [r.seed for r in one.runs] == [r.seed for r in two.runs]
    assert one.runs == two.runs  # levels, metrics and actions, run by run
    assert (one.scenario, two.scenario) == (
        "first_wave[title=One title]",
        "first_wave[title=Another]",
    )


def test_a_value_that_matters_changes_the_runs_on_the_same_seeds() -> None:
    setting = sweep.parse_setting("scenario.turns=6,8")
    short, full = sweep.sweep("landing_table", "first_wave", setting, runs=4, seed=5)
    assert [r.seed for r in short.runs] == [r.seed for r in full.runs]
    assert {r.metrics["turns_played"] for r in short.runs} == {6.0}
    assert {r.metrics["turns_played"] for r in full.runs} == {8.0}
    assert short.end == 3.0 and full.end == 4.0  # 09:30 and 10:30
    text = sweep.table([short, full], setting)
    row = next(
        line
        for line in text.split("turns_played (turns)")[1].splitlines()
        if line.startswith("  8 ")
    )
    assert "+2.00 (+2.00 to +2.00)  P" in row


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("scenario.bogus=1,2", r"scenario\.bogus: unknown key"),
        ("scenario.turns=0,8", r"--set scenario\.turns=0: .*scenario\.turns"),
        ("nowhere.turns=1,2", r"no \[nowhere\] table"),
        ("turns=1,2", "TABLE.KEY=V1,V2"),
        ("scenario.turns=8", "two values or more"),
    ],
)
def test_keys_and_values_are_checked_before_any_game(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sweep.sweep("landing_table", "first_wave", sweep.parse_setting(text), runs=1)


def test_set_key_replaces_or_adds_the_key_in_its_table() -> None:
    base = '[scenario]\nid = "x"\nturns = 8 # eight\n\n[other]\nturns = 3\n'
    setting = sweep.Setting("scenario", "turns", ("6",))
    assert (
        sweep.set_key(base, setting, "6")
        == '[scenario]\nid = "x"\nturns = 6\n\n[other]\nturns = 3\n'
    )
    added = sweep.set_key(base, sweep.Setting("other", "name", ()), "a b")
    assert added.endswith('[other]\nname = "a b"\nturns = 3\n')


def test_the_sweep_command(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sweep", "landing_table", "--scenario", "first_wave", "--set", "scenario.heroes=0,2"]
    assert cli.main([*argv, "--runs", "3", "--executor", "serial"]) == 0
    out = capsys.readouterr().out
    assert "Sweep of landing_table/first_wave over scenario.heroes: 3 runs a value" in out
    assert cli.main(["sweep", "landing_table", "--scenario", "nope", "--set", "a.b=1,2"]) == 2
    assert "no scenario 'nope'" in capsys.readouterr().err
