"""Game records that cannot be lost or misread: malformed records are RecordErrors,
a stated result is checked, scenarios whose files lie outside their folder replay
anywhere, and loading records or scenario paths leaves nothing behind (temporary
folders, unbounded caches). On the toy game."""

from __future__ import annotations

import gc
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from toygame import GAME, HERE

import omaha
from omaha.kernel import protocol
from omaha.kernel.scenariofile import embedded

CUSTOM = """
[scenario]
id = "custom"
title = "A custom landing"
turns = 4
source = "reconstructed: a test of records"
extends = "../shared/base.toml"

[components]
map = "../shared/map.toml"
"""

BASE = """
[scenario]
id = "base"
title = "A shared base"
source = "reconstructed: a test of records"
extends = "beach"
"""


def _played(scenario: str | Path, seed: int = 3) -> omaha.State:  # type: ignore[type-arg]
    state = GAME.new_state(scenario, seed=seed)
    bot = GAME.bots["random"](seed=seed)
    while not state.is_terminal():
        state.apply(bot.choose(state))
    return state


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """``work/s/custom.toml`` extending ``../shared/base.toml`` and naming
    ``../shared/map.toml``: files outside the scenario's folder."""
    (tmp_path / "work" / "shared").mkdir(parents=True)
    (tmp_path / "work" / "s").mkdir()
    shutil.copy(HERE / "map.toml", tmp_path / "work" / "shared" / "map.toml")
    (tmp_path / "work" / "shared" / "base.toml").write_text(BASE)
    (tmp_path / "work" / "s" / "custom.toml").write_text(CUSTOM)
    return tmp_path / "work" / "s" / "custom.toml"


def _rss() -> int:
    """This process's resident memory in bytes (0 where /proc does not say)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0
    kb = next((line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")), "0")
    return int(kb) * 1024


def _temp_folders() -> set[str]:
    return {n for n in os.listdir(tempfile.gettempdir()) if n.startswith("omaha-scenario-")}


# --------------------------------------------------------------------------
# Files outside the scenario's folder
# --------------------------------------------------------------------------
def test_a_record_of_a_scenario_with_files_outside_its_folder_replays_anywhere(
    outside: Path, tmp_path: Path
) -> None:
    state = _played(outside)
    text = state.record().to_json()
    names = [f["name"] for f in json.loads(text)["scenario"]["files"]]
    # safe names: the scenario one folder down, the shared files beside that folder
    assert names == ["_/custom.toml", "shared/base.toml", "shared/map.toml"]
    assert all(".." not in n.split("/") and not n.startswith("/") for n in names)
    shutil.move(tmp_path / "work", tmp_path / "moved")  # the original folder is gone
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    here = os.getcwd()
    try:
        os.chdir(elsewhere)
        again = GAME.replay(omaha.GameRecord.from_json(text, "game.json"))
    finally:
        os.chdir(here)
    assert again.log_text() == state.log_text()
    assert again.scenario.hash == state.scenario.hash
    shutil.rmtree(tmp_path / "moved")
    snapshot = GAME.state_from_json(state.to_json())
    assert snapshot.log_text() == state.log_text()
    # and its own record, made after the replay, replays too (the names are stable)
    assert embedded(again.scenario.files) == embedded(state.scenario.files)


def test_files_inside_the_folder_keep_their_names() -> None:
    files = (("mine.toml", "a"), ("./maps/m.toml", "b"), ("maps/m.toml", "b"))
    assert embedded(files) == (("mine.toml", "a"), ("maps/m.toml", "b"))
    climbing = (("c.toml", "a"), ("../../x/y.toml", "b"), ("../z.toml", "c"))
    assert embedded(climbing) == (("_/_/c.toml", "a"), ("x/y.toml", "b"), ("_/z.toml", "c"))


# --------------------------------------------------------------------------
# Malformed records are RecordErrors
# --------------------------------------------------------------------------
def _good() -> dict:  # type: ignore[type-arg]
    return json.loads(GAME.new_state(seed=4).record().to_json())  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"a": ' * 50_000 + "1" + "}" * 50_000, "nested too deeply"),
        ('{"format": "omaha-record", "seed": ' + "9" * 5000 + "}", "digits"),
        ("[" + "1" * 4301 + "]", "digits"),
    ],
    ids=["deep list", "deep object", "huge seed", "huge number"],
)
def test_unreadable_json_is_a_record_error(text: str, message: str) -> None:
    with pytest.raises(omaha.RecordError, match=f"^g.json: is not JSON .*{message}"):
        omaha.GameRecord.from_json(text, "g.json")
    with pytest.raises(omaha.RecordError, match=f"^g.json: is not a snapshot .*{message}"):
        GAME.state_from_json(text, "g.json")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": True}, "version: True is not supported"),
        ({"version": 1.0}, "version: 1.0 is not supported"),
        ({"version": "1"}, "version: '1' is not supported"),
        ({"game": ["toy"]}, "game: must be a string"),
        ({"scenario": {"id": 1, "hash": "x"}}, "scenario.id: must be a string"),
        ({"scenario": {"id": "beach", "hash": None}}, "scenario.hash: must be a string"),
        ({"result": 5}, "result: must be a string or null"),
        ({"dice": [10**5000 // 10**4990]}, None),  # a big roll is read; replay refuses it
    ],
)
def test_ill_typed_fields_are_named(change: dict, message: str | None) -> None:  # type: ignore[type-arg]
    text = json.dumps(dict(_good(), **change))
    if message is None:
        record = omaha.GameRecord.from_json(text, "g.json")
        with pytest.raises(omaha.RecordError, match=r"^g\.json: dice"):
            GAME.replay(record, name="g.json")
        return
    with pytest.raises(omaha.RecordError, match=f"^g.json: {message}"):
        omaha.GameRecord.from_json(text, "g.json")


def test_a_snapshot_version_of_true_is_refused() -> None:
    env = json.loads(GAME.new_state(seed=4).to_json())
    for key in ("version", "state_version"):
        with pytest.raises(omaha.RecordError, match=f"s.json: {key}: .*True is not supported"):
            GAME.state_from_json(json.dumps(dict(env, **{key: True})), "s.json")


def test_a_tampered_result_is_refused() -> None:
    state = _played("beach")
    good = json.loads(state.record().to_json())
    assert good["result"] and GAME.replay(omaha.GameRecord.from_json(json.dumps(good)))
    for result in ("US decisive victory", None):
        text = json.dumps(dict(good, result=result))
        with pytest.raises(omaha.RecordError, match=r"^t.json: result: the record states"):
            GAME.replay(omaha.GameRecord.from_json(text), name="t.json")
    unfinished = json.loads(GAME.new_state(seed=4).record().to_json())
    assert unfinished["result"] is None
    text = json.dumps(dict(unfinished, result=good["result"]))
    with pytest.raises(omaha.RecordError, match="its replay gives an unfinished game"):
        GAME.replay(omaha.GameRecord.from_json(text), name="t.json")


# --------------------------------------------------------------------------
# Nothing left behind, caches bounded
# --------------------------------------------------------------------------
def _custom_record(folder: Path, n: int) -> str:
    """A finished game of a custom scenario numbered ``n`` (its own title, so its own
    hash), as record text; the scenario's folder is removed."""
    mine = folder / f"c{n}"
    mine.mkdir()
    shutil.copy(HERE / "map.toml", mine / "my_map.toml")
    (mine / "mine.toml").write_text(
        CUSTOM.replace("../shared/base.toml", "beach")
        .replace("../shared/map.toml", "my_map.toml")
        .replace("A custom landing", f"Custom landing {n}")
    )
    text = GAME.new_state(mine / "mine.toml", seed=n).record().to_json()
    shutil.rmtree(mine)
    return text


def _rebuilt_alive() -> int:
    """The toy game's scenarios rebuilt from records still in memory (another game's,
    kept by its own game, do not count)."""
    gc.collect()
    toy = type(GAME.load_scenario("beach"))
    return sum(1 for o in gc.get_objects() if type(o) is toy and "omaha-scenario-" in o.id)


def test_loading_records_leaves_no_folder_and_keeps_a_bounded_number(tmp_path: Path) -> None:
    texts = [_custom_record(tmp_path, n) for n in range(12)]
    before = _temp_folders()
    rss = _rss()
    for round_ in range(200):
        text = texts[round_ % len(texts)] if round_ < 100 else _custom_record(tmp_path, round_)
        state = GAME.replay(omaha.GameRecord.from_json(text, "r.json"))
        assert state.scenario.id  # in use: found by its id while a state holds it
        assert GAME.load_scenario(state.scenario.id) is state.scenario
        assert GAME.action_space(state.scenario.id) is GAME.action_space(state.scenario)
        del state
    assert _temp_folders() == before  # every temporary folder removed
    kept = GAME.kept_scenarios()
    assert kept["rebuilt"] <= protocol.EMBEDDED_SCENARIOS_KEPT
    assert _rebuilt_alive() <= protocol.EMBEDDED_SCENARIOS_KEPT
    assert kept["in use"] <= protocol.EMBEDDED_SCENARIOS_KEPT
    assert kept["spaces"] <= protocol.EMBEDDED_SCENARIOS_KEPT + protocol.FILE_SCENARIOS_KEPT + 8
    # the same record loaded again is not rebuilt
    first = GAME.replay(omaha.GameRecord.from_json(texts[-1], "r.json")).scenario
    assert GAME.replay(omaha.GameRecord.from_json(texts[-1], "r.json")).scenario is first
    assert _rss() - rss < 60 * 2**20  # loose: a copy each would be far more


def test_every_spelling_of_one_path_shares_one_scenario(tmp_path: Path) -> None:
    shutil.copy(HERE / "map.toml", tmp_path / "my_map.toml")
    (tmp_path / "mine.toml").write_text(
        CUSTOM.replace("../shared/base.toml", "beach").replace("../shared/map.toml", "my_map.toml")
    )
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path, tmp_path / "link")
    here = os.getcwd()
    try:
        os.chdir(tmp_path)
        spellings = [
            "mine.toml", "./mine.toml", str(tmp_path / "mine.toml"), "link/mine.toml",
            *(f"{'sub/../' * k}mine.toml" for k in range(1, 100)),
            *(f"{'./' * k}mine.toml" for k in range(2, 100)),
        ]  # fmt: skip
        assert len(spellings) >= 200
        loaded = {id(GAME.load_scenario(s)) for s in spellings}
        states = [GAME.new_state(s, seed=1) for s in spellings[:20]]
    finally:
        os.chdir(here)
    assert len(loaded) == 1
    assert len({id(s.scenario) for s in states}) == 1
    assert GAME.kept_scenarios()["files"] <= protocol.FILE_SCENARIOS_KEPT


def test_scenario_files_are_kept_most_recent_first_and_bounded(tmp_path: Path) -> None:
    shutil.copy(HERE / "map.toml", tmp_path / "my_map.toml")
    text = CUSTOM.replace("../shared/base.toml", "beach").replace(
        "../shared/map.toml", "my_map.toml"
    )
    paths, loaded = [], []
    for n in range(protocol.FILE_SCENARIOS_KEPT + 5):
        paths.append(tmp_path / f"m{n}.toml")
        paths[-1].write_text(text.replace("A custom landing", f"Landing {n}"))
        loaded.append(GAME.load_scenario(paths[-1]))
    assert GAME.kept_scenarios()["files"] == protocol.FILE_SCENARIOS_KEPT
    assert GAME.load_scenario(paths[-1]) is loaded[-1]  # kept
    again = GAME.load_scenario(paths[0])  # let go, so loaded again when asked
    assert again is not loaded[0] and again.title == "Landing 0"


def test_a_game_pickles_without_its_caches() -> None:
    import pickle

    state = GAME.new_state(seed=2)
    GAME.action_space(state.scenario)
    again = pickle.loads(pickle.dumps(state))
    assert again.legal_actions() == state.legal_actions()
    assert again.game.load_scenario("beach").id == "beach"
