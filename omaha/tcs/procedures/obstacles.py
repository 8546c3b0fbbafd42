"""Beach obstacles (2.4), shingle breaches (2.5) and the draw exits they open.

At the end of a US Action Phase an infantry type unit that stands next to an
untested obstacle hex, neither suppressed nor paralyzed, may test one hex (one
roll a hex ever, one hex a unit a turn): 1-4 mines and wire, 5 wire only, 6
clear (clear terrain from the next turn). Mines and wire are never forced: a
breach begun at the end of one friendly Action Phase is made at the end of the
next (series 15.3 as the text refers to it, reconstructed). Wire only is cleared
by the first infantry unit crossing it (movement). A printed shingle breach
opens once all four conditions of 2.5a hold together.
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import Breach, EndTests, Test
from omaha.tcs.core import Decision, Status, TcsCore
from omaha.tcs.procedures.sight import los
from omaha.tcs.rules import obstacle_test

register_templates(
    {
        "tcs.obstacle.test": "{unit} tests the obstacle hex {hex}: {roll}: {result}",
        "tcs.obstacle.breach_begins": "{unit} begins to breach the mines and wire in {hex}",
        "tcs.obstacle.breached": "the mines and wire in {hex} are breached",
        "tcs.breach.open": "the {breach} shingle breach is open",
        "tcs.exit.open": "the {exit} draw exit is open",
    }
)

RESULT_TEXT = {"mines": "mines and wire", "wire": "wire only", "clear": "no obstacle"}


def testers(core: TcsCore, cell: int) -> list[int]:
    """US infantry type units next to ``cell`` able to test it this turn (2.4a)."""
    board = core.scenario.board
    out = []
    for n in board.neighbours[cell]:
        for i in core.side_units_at(n, "US"):
            u = core.unit(i)
            if u.type.infantry_type and core.status[i] == Status.OK and i not in core.tested:
                out.append(i)
    return sorted(out)


def breachers(core: TcsCore, cell: int) -> list[int]:
    board = core.scenario.board
    return sorted(
        i
        for n in board.neighbours[cell]
        for i in core.side_units_at(n, "US")
        if core.unit(i).type.kind == "rifle" and core.status[i] == Status.OK
    )


def testable(core: TcsCore) -> list[int]:
    return [
        c for c in core.scenario.beach.obstacles if c not in core.obstacles and testers(core, c)
    ]


def breachable(core: TcsCore) -> list[int]:
    return [
        c
        for c in core.scenario.beach.obstacles
        if core.obstacles.get(c) == "mines" and c not in core.breaching and breachers(core, c)
    ]


def step_us_tests(core: TcsCore) -> bool:
    """TCS Omaha 2.4a, 2.4b: tests and breaches at the end of the US Action Phase."""
    if not core.started:
        core.started = True
        core.sd = {"ended": False}
    if core.sd["ended"] or not (testable(core) or breachable(core)):
        return True
    return core.set_wait(Decision.TEST, "US", "test beach obstacle hexes or begin breaches")


def legal_tests(core: TcsCore) -> Iterator[Action]:
    yield EndTests.of()
    for c in testable(core):
        yield Test.of(core.label(c))
    for c in breachable(core):
        yield Breach.of(core.label(c))


def apply_tests(core: TcsCore, action: Action) -> None:
    if isinstance(action, EndTests):
        core.sd["ended"] = True
        return
    if isinstance(action, Breach):
        c = core.cell(action.hex)
        core.breaching[c] = core.turn
        unit = breachers(core, c)[0]
        core.note(
            "tcs.obstacle.breach_begins", "2.4b", player="US", unit=core.uid(unit), hex=action.hex
        )
        return
    assert isinstance(action, Test)
    c = core.cell(action.hex)
    candidates = testers(core, c)
    others = set(testable(core)) - {c}
    board = core.scenario.board

    def busy(i: int) -> int:
        return sum(1 for n in board.neighbours[core.where[i]] if n in others)

    unit = min(candidates, key=lambda i: (busy(i), i))
    core.tested.add(unit)
    die = core.dice.d6()
    result = obstacle_test(die, core.scenario.tables)
    if result == "clear":
        core.clear_from[c] = core.turn + 1
    core.set_obstacle(c, result)
    core.note(
        "tcs.obstacle.test",
        "2.4a",
        dice=(die,),
        player="US",
        unit=core.uid(unit),
        hex=action.hex,
        roll=die,
        result=RESULT_TEXT[result],
    )


def finish_breaches(core: TcsCore) -> None:
    """TCS Omaha 2.4b: a breach begun at the end of an earlier friendly Action Phase is
    made at the end of this one, if an infantry unit still stands next to it."""
    for c in sorted(core.breaching):
        if core.breaching[c] < core.turn and breachers(core, c):
            del core.breaching[c]
            core.set_obstacle(c, "breached")
            core.note("tcs.obstacle.breached", "2.4b", player="US", hex=core.label(c))


# ------------------------------------------------------------------ shingle breaches (2.5)
def breach_problems(core: TcsCore, name: str) -> list[str]:
    """Which of the four conditions of 2.5a a potential breach fails (empty: it opens).

    Readings: a pill box covers the breach hexside when it sees either hex beside it
    within the range of its gun (its point weapon, 3.3a: the breach is for vehicles);
    distances to the hexside are to the nearer of those two hexes."""
    scen = core.scenario
    b = scen.beach.breach_by_name[name]
    sides = (b.strand, b.land)
    units = scen.units
    problems = []
    for i in scen.german.pillboxes:
        c = core.where[i]
        if c >= 0 and any(
            core.dist(c, x) <= units[i].type.point_range and los(core, c, x) for x in sides
        ):
            problems.append("a pill box covers it")
            break
    if any(not core.side_units_at(c, "US") for c in b.security):
        problems.append("a security hex is not held")
    tank = any(
        units[i].type.kind == "tank" and min(core.dist(core.where[i], x) for x in sides) <= 3
        for i in core.us_units()
        if core.where[i] >= 0
    )
    if not tank:
        problems.append("no tank within 3 hexes")
    near = scen.tables.breach_german_within
    if any(
        core.where[i] >= 0 and min(core.dist(core.where[i], x) for x in sides) <= near
        for i in core.german_units()
    ):
        problems.append(f"German units within {near} hexes")
    return problems


def open_breaches(core: TcsCore) -> None:
    """TCS Omaha 2.5a: every potential breach whose four conditions hold at once opens."""
    for b in core.scenario.beach.breaches:
        if b.name not in core.breaches and not breach_problems(core, b.name):
            core.open_breach(b.name)
            core.note("tcs.breach.open", "2.5a", player="US", breach=b.name)


# ------------------------------------------------------------------ exits (victory)
def exit_open(core: TcsCore, draw: str) -> bool:
    """Reconstructed (victory): a draw's exit is open when its shingle breach is open,
    the obstacle hex at its mouth is passable, no German unit stands in the draw or on
    its exit hex, and a US unit holds the exit hex."""
    beach = core.scenario.beach
    if draw not in core.breaches or draw not in beach.exits:
        return False
    mouth = beach.breach_by_name[draw].land
    if core.obstacles.get(mouth) not in ("clear", "cleared", "breached"):
        return False
    top = beach.exits[draw]
    if any(core.side_units_at(c, "German") for c in (*beach.draws.get(draw, ()), top)):
        return False
    return bool(core.side_units_at(top, "US"))


def check_exits(core: TcsCore) -> None:
    for draw in sorted(core.scenario.beach.exits):
        if draw not in core.exits and exit_open(core, draw):
            core.open_exit(draw)
            core.note("tcs.exit.open", "victory", player="US", exit=draw)
