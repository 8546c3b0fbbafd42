"""The German release system (3.1) and German op sheets (3.2).

Each Command Planning Phase the German rolls on the scenario's Variable
Reinforcement Table (reconstructed): a company or battery release, or a
variable reinforcement from the second table (lost if that unit is already in
play). A US ground unit at or within 5 hexes of any unit of an unreleased
company releases it at once. Released reinforcements enter along the south
edge, move two turns, then halt until their op sheet is implemented; released
reserves wait for theirs too; never more than 6 German op sheets implemented.
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import Enter, NoRelease, Release, ReleaseBattery, RollVariable
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.scenario import ReleaseTable

register_templates(
    {
        "tcs.release.roll": "Variable Reinforcement Table: {roll}: {result}",
        "tcs.release": "{formation} is released ({why})",
        "tcs.release.battery": "battery {battery} is released ({fires} battery fires)",
        "tcs.release.variable": "second table: {roll}: {formation}",
        "tcs.release.lost": "the release is lost: {why}",
        "tcs.release.none": "no release taken",
        "tcs.enter": "{formation} enters at {hex}",
        "tcs.sheet.german": "{formation} implements its op sheet: {roll} ({result})",
    }
)


def in_play(core: TcsCore, fid: str) -> bool:
    return fid in core.scenario.german_formations


def releasable(core: TcsCore) -> list[str]:
    """Unreleased companies on the map, in play (3.1)."""
    return [
        f.id
        for f in core.scenario.german.formations
        if f.status == "reserve" and in_play(core, f.id) and f.id not in core.released
    ]


def batteries_left(core: TcsCore) -> list[str]:
    return [b.id for b in core.scenario.german.batteries if b.id not in core.batteries]


def release_table(core: TcsCore) -> ReleaseTable | None:
    """TCS Omaha 3.1: the scenario's tables for this turn (a later pair from its turn on)."""
    later = core.scenario.release_later
    if later is not None and core.turn >= later[0]:
        return later[1]
    return core.scenario.release


def release(core: TcsCore, fid: str, why: str, rule: str = "3.1") -> None:
    core.release_formation(fid)
    core.note("tcs.release", rule, player="German", formation=fid, why=why)


def step_release(core: TcsCore) -> bool:
    """TCS Omaha 3.1: the Variable Reinforcement Table roll of the Command Planning Phase."""
    table = release_table(core)
    if table is None:
        return True
    if not core.started:
        core.started = True
        d = [core.dice.d6() for _ in range(table.dice)]
        roll = sum(d)
        result = table.result(roll)
        core.sd = {"result": result, "done": result == "none"}
        core.note("tcs.release.roll", "3.1", dice=d, player="German", roll=roll, result=result)
        if not core.sd["done"] and not any(True for _ in legal_release(core)):
            core.note("tcs.release.lost", "3.1", player="German", why="nothing left to release")
            core.sd["done"] = True
    if core.sd["done"]:
        return True
    return core.set_wait(Decision.RELEASE, "German", "release a company or battery of your choice")


def legal_release(core: TcsCore) -> Iterator[Action]:
    result = core.sd.get("result")
    if result in ("release", "variable"):
        yield from (Release.of(f) for f in releasable(core))
        yield from (ReleaseBattery.of(b) for b in batteries_left(core))
    if result == "variable":
        yield RollVariable.of()
    if any(True for _ in releasable(core)) or batteries_left(core):
        yield NoRelease.of()


def apply_release(core: TcsCore, action: Action) -> None:
    core.sd["done"] = True
    if isinstance(action, Release):
        release(core, action.formation, "Variable Reinforcement Table")
    elif isinstance(action, ReleaseBattery):
        b = core.scenario.german.battery(action.battery)
        core.set_battery_fires(b.id, b.fires)
        core.note("tcs.release.battery", "3.1", player="German", battery=b.id, fires=b.fires)
    elif isinstance(action, RollVariable):
        table = release_table(core)
        assert table is not None
        d = [core.dice.d6() for _ in range(table.variable_dice)]
        fid = table.formation(sum(d))
        core.note(
            "tcs.release.variable", "3.1", dice=d, player="German", roll=sum(d), formation=fid
        )
        if fid in core.released or core.scenario.german.formation(fid).status != "reinforcement":
            core.note("tcs.release.lost", "3.1", player="German", why=f"{fid} is already in play")
        else:
            release(core, fid, "variable reinforcement")
    else:
        core.note("tcs.release.none", "3.1", player="German")


def check_automatic(core: TcsCore) -> None:
    """TCS Omaha 3.1: a US ground unit at or within 5 hexes of any unit of an unreleased
    company releases that company (only that company)."""
    scen = core.scenario
    board = scen.board
    n_us = len(scen.oob.units)
    occ = core.occupancy()
    radius = scen.tables.release_within
    for fid in releasable(core):
        for i in scen.german.formation(fid).units:
            c = core.where[i]
            if c < 0:
                continue
            if any(any(x < n_us for x in occ.get(n, ())) for n in board.within(c, radius)):
                release(core, fid, f"US units within {radius} hexes")
                break


# ------------------------------------------------------------------ reinforcements
def waiting(core: TcsCore) -> list[str]:
    german = core.scenario.german
    return [
        f
        for f in sorted(core.released)
        if german.formation(f).status == "reinforcement" and f not in core.entered
    ]


def step_entry(core: TcsCore) -> bool:
    """TCS Omaha 3.1: released reinforcements enter along the south edge."""
    if not waiting(core) or not any(True for _ in legal_entry(core)):
        return True
    return core.set_wait(
        Decision.ENTRY, "German", f"{waiting(core)[0]} enters: choose a hex of the south edge"
    )


def legal_entry(core: TcsCore) -> Iterator[Action]:
    f = waiting(core)[0]
    n_us = len(core.scenario.oob.units)
    occ = core.occupancy()
    for c in core.scenario.beach.south_edge:
        if not any(x < n_us for x in occ.get(c, ())):
            yield Enter.of(f, core.label(c))


def apply_entry(core: TcsCore, action: Action) -> None:
    assert isinstance(action, Enter)
    c = core.cell(action.hex)
    for i in core.scenario.german.formation(action.formation).units:
        core.place(i, c)
        core.set_fire_mode(i, False)
        core.bump("german_steps_committed", core.steps[i])
    core.entered[action.formation] = core.turn
    core.note("tcs.enter", "3.1", player="German", formation=action.formation, hex=action.hex)


# ------------------------------------------------------------------ op sheets (3.2)
def step_german_sheets(core: TcsCore) -> bool:
    """TCS Omaha 3.1, 3.2: released reserves, and reinforcements whose two free turns
    are over, try to implement their op sheets (reconstructed roll), at most 6."""
    scen = core.scenario
    german = scen.german
    for fid in sorted(core.released):
        if fid in core.german_sheets:
            continue
        f = german.formation(fid)
        if f.status == "reinforcement" and (
            fid not in core.entered
            or core.turn < core.entered[fid] + scen.tables.release_free_turns
        ):
            continue
        if not any(core.where[i] >= 0 for i in f.units):
            continue
        if len(core.german_sheets) >= scen.tables.max_german_opsheets:
            break
        die = core.dice.d6()
        ok = die >= scen.series.reserve_roll
        if ok:
            core.german_sheets.add(fid)
        core.note(
            "tcs.sheet.german",
            "3.2",
            dice=(die,),
            player="German",
            formation=fid,
            roll=die,
            result="implemented" if ok else "not yet",
        )
    return True
