"""Records of a real game (LnL) that replay anywhere and leave nothing behind: a custom
scenario whose files lie outside its folder, played, recorded and replayed by the
command after its folder is gone; a tampered result refused; 200 loads of records with
embedded scenarios and 200 spellings of one path stay bounded."""

from __future__ import annotations

import gc
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

import omaha
from omaha import cli
from omaha.kernel import protocol
from omaha.lnl.scenario import LnlScenario

LNL = Path(omaha.__file__).parent / "lnl" / "data"

CUSTOM = """[scenario]
game = "lnl"
extends = "../shared/base.toml"
id = "custom"
title = "{title}"
source = "reconstructed: a test of records"

[components]
map = "../shared/map.toml"
"""

BASE = """[scenario]
game = "lnl"
extends = "beach"
id = "base"
title = "A shared base"
source = "reconstructed: a test of records"
"""


def _outside(root: Path, title: str = "Custom") -> Path:
    (root / "shared").mkdir(parents=True)
    (root / "s").mkdir()
    shutil.copy(LNL / "map.toml", root / "shared" / "map.toml")
    (root / "shared" / "base.toml").write_text(BASE)
    (root / "s" / "custom.toml").write_text(CUSTOM.format(title=title))
    return root / "s" / "custom.toml"


def _rss() -> int:
    """This process's resident memory in bytes (0 where /proc does not say)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0
    kb = next((line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")), "0")
    return int(kb) * 1024


def _folders() -> set[str]:
    return {n for n in os.listdir(tempfile.gettempdir()) if n.startswith("omaha-scenario-")}


def _replay_elsewhere(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Path,
    played: str,
) -> str:
    """Replay ``record`` by the command from another folder: the result played (the
    line returned) is the result replayed, and the replay leaves no temporary folder."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    before = _folders()
    assert cli.main(["replay", str(record)]) == 0
    replayed = capsys.readouterr().out
    assert _folders() == before
    result = next(line for line in played.splitlines() if line.startswith("Result: "))
    assert result in replayed.splitlines()
    return result


def test_play_record_move_the_folder_and_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = _outside(tmp_path / "work")
    record = tmp_path / "game.json"
    monkeypatch.chdir(tmp_path / "work")
    assert cli.main(["validate", "s/custom.toml"]) == 0
    argv = ["play", "lnl", "--scenario", "s/custom.toml", "--bot", "US=heuristic",
            "--bot", "German=solitaire", "--quiet", "--record", str(record)]  # fmt: skip
    assert cli.main(argv) == 0
    played = capsys.readouterr().out
    assert scenario.exists()
    shutil.move(tmp_path / "work", tmp_path / "gone")  # the files are elsewhere now
    shutil.rmtree(tmp_path / "gone")
    _replay_elsewhere(tmp_path, monkeypatch, capsys, record, played)
    names = [f["name"] for f in json.loads(record.read_text())["scenario"]["files"]]
    assert names == ["_/custom.toml", "shared/base.toml", "shared/map.toml"]


def test_a_tampered_result_fails_the_replay_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = omaha.load("landing_table")
    state = game.new_state(seed=2)
    bots = {p: game.bots["random"](seed=i) for i, p in enumerate(game.players)}
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        state.apply(bots[player].choose(state))
    data = json.loads(state.record().to_json())
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(data))
    bad.write_text(json.dumps(dict(data, result="a decisive victory, honestly")))
    assert cli.main(["replay", str(good)]) == 0
    capsys.readouterr()
    assert cli.main(["replay", str(bad)]) == cli.EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("omaha: bad.json: result: the record states the result ")
    assert "Traceback" not in err
    for version in ("true", "1.0"):
        bad.write_text(json.dumps(data).replace('"version": 1', f'"version": {version}'))
        assert cli.main(["replay", str(bad)]) == cli.EXIT_USAGE
        assert "bad.json: version:" in capsys.readouterr().err
    bad.write_text("[" * 200_000 + "]" * 200_000)
    assert cli.main(["replay", str(bad)]) == cli.EXIT_USAGE
    assert "nested too deeply" in capsys.readouterr().err


def test_200_record_loads_and_200_spellings_stay_bounded(tmp_path: Path) -> None:
    game = omaha.load("lnl")
    texts = []
    for n in range(20):  # twenty custom scenarios, each recorded then removed
        scenario = _outside(tmp_path / f"w{n}", title=f"Custom {n}")
        texts.append(game.new_state(scenario, seed=n).record().to_json())
        shutil.rmtree(tmp_path / f"w{n}")
    gc.collect()
    before = _folders()
    rss = _rss()
    for load in range(200):
        text = texts[load // 10]  # each record loaded ten times running
        state = game.replay(omaha.GameRecord.from_json(text, "r.json"))
        assert game.load_scenario(state.scenario.id) is state.scenario
        del state
    scenario = _outside(tmp_path / "paths")
    spellings = [str(scenario), *(f"{scenario.parent}/{'./' * k}custom.toml" for k in range(99))]
    spellings += [f"{tmp_path}/paths/{'s/../' * k}s/custom.toml" for k in range(100)]
    assert len({game.load_scenario(s).id for s in spellings}) == 1
    gc.collect()
    grown = _rss() - rss
    assert _folders() == before
    kept = game.kept_scenarios()
    assert kept["rebuilt"] <= protocol.EMBEDDED_SCENARIOS_KEPT
    assert kept["in use"] <= protocol.EMBEDDED_SCENARIOS_KEPT
    assert kept["files"] <= protocol.FILE_SCENARIOS_KEPT
    alive = [o for o in gc.get_objects() if isinstance(o, LnlScenario)]
    assert len(alive) <= protocol.EMBEDDED_SCENARIOS_KEPT + protocol.FILE_SCENARIOS_KEPT + 8
    # loose: each copy of the scenario is a couple of megabytes; 220 kept would be far more
    assert grown < 150 * 2**20, f"{grown / 2**20:.0f} MB"


ABSOLUTE = """[scenario]
game = "lnl"
extends = "{root}/shared/base.toml"
id = "custom"
title = "Custom"
source = "reconstructed: a test of records"

[components]
map = "{root}/shared/map.toml"
"""

INNER = """[scenario]
game = "lnl"
extends = "inner.toml"
id = "base"
title = "A shared base"
source = "reconstructed: a test of records"
"""


def test_files_named_by_absolute_paths_replay_after_the_folder_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scenario that extends and names its map by absolute paths (the base extending a
    file next to it) replays from its record alone, and from the record's copies even
    when other files stand at those paths now."""
    root = tmp_path / "work"
    (root / "shared").mkdir(parents=True)
    (root / "s").mkdir()
    shutil.copy(LNL / "map.toml", root / "shared" / "map.toml")
    (root / "shared" / "base.toml").write_text(INNER)
    (root / "shared" / "inner.toml").write_text(BASE.replace('id = "base"', 'id = "inner"'))
    (root / "s" / "custom.toml").write_text(ABSOLUTE.format(root=root.as_posix()))
    record = tmp_path / "game.json"
    monkeypatch.chdir(root)
    assert cli.main(["validate", "s/custom.toml"]) == 0
    argv = ["play", "lnl", "--scenario", "s/custom.toml", "--bot", "US=heuristic",
            "--bot", "German=solitaire", "--quiet", "--record", str(record)]  # fmt: skip
    assert cli.main(argv) == 0
    played = capsys.readouterr().out
    names = [f["name"] for f in json.loads(record.read_text())["scenario"]["files"]]
    rooted = "/".join(["_root", *root.parts[1:]])
    assert names == [
        "custom.toml",
        f"{rooted}/shared/base.toml",
        f"{rooted}/shared/inner.toml",
        f"{rooted}/shared/map.toml",
    ]
    shutil.move(root, tmp_path / "gone")
    result = _replay_elsewhere(tmp_path, monkeypatch, capsys, record, played)
    # other files at the old paths now: the record's copies are played, not these
    (root / "shared").mkdir(parents=True)
    (root / "shared" / "base.toml").write_text('[scenario]\nextends = "vierville"\n')
    (root / "shared" / "map.toml").write_text("not a map\n")
    assert cli.main(["replay", str(record)]) == 0
    assert result in capsys.readouterr().out.splitlines()
