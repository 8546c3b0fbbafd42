"""Before play, the German: pill boxes (3.3g), then rocket pits (3.4), one by one or whole."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import CommitSetup, PlacePillbox, PlaceRocketPit, UseSetup
from omaha.tcs.core import Decision, TcsCore

register_templates(
    {
        "tcs.setup.pillbox": "pill box set up in {hex}",
        "tcs.setup.pit": "rocket pit set up in {hex}",
        "tcs.setup.whole": "German set-up '{name}': pill boxes {pillboxes}; rocket pits {pits}",
        "tcs.setup.done": "German set-up complete: {pillboxes} pill boxes, {pits} rocket pits",
    }
)


def step_german_setup(core: TcsCore) -> bool:
    """TCS Omaha 3.3g, 3.4: the German sets up pill boxes, then rocket pits."""
    scen = core.scenario
    if len(core.pillboxes) < scen.n_pillboxes:
        left = scen.n_pillboxes - len(core.pillboxes)
        return core.set_wait(
            Decision.PILLBOX, "German", f"set up a pill box ({left} left), or a whole set-up"
        )
    if len(core.pits) < scen.n_rocket_pits:
        left = scen.n_rocket_pits - len(core.pits)
        return core.set_wait(Decision.ROCKET_PIT, "German", f"set up a rocket pit ({left} left)")
    for name, cells in sorted(scen.beach.strongpoints.items()):
        if any(core.side_units_at(c, "German") for c in cells):
            core.stats[f"held {name}"] = 1
    core.note(
        "tcs.setup.done",
        "3.3g, 3.4",
        player="German",
        pillboxes=len(core.pillboxes),
        pits=len(core.pits),
    )
    return True


def setup_cells(core: TcsCore, kind: str) -> list[int]:
    """Free hexes where a pill box (``kind="pillbox"``) or a rocket pit may be set up."""
    scen = core.scenario
    beach, used = scen.beach, core.german_cells()
    out = []
    for c in range(len(scen.board)):
        if c in used:
            continue
        if kind == "pillbox":
            ok = beach.pillbox_allowed(c, variant=scen.pillbox_variant)
        else:
            ok = beach.rocket_pit_allowed(c)
        if ok:
            out.append(c)
    return out


def legal_setup(core: TcsCore) -> Iterator[Action]:
    assert core.wait is not None
    if core.wait[0] == Decision.PILLBOX:
        if not core.pillboxes:
            yield from (UseSetup.of(n) for n in sorted(core.scenario.setups))
        yield from (PlacePillbox.of(core.label(c)) for c in setup_cells(core, "pillbox"))
    else:
        yield from (PlaceRocketPit.of(core.label(c)) for c in setup_cells(core, "pit"))


def place_garrison(core: TcsCore) -> None:
    """The German units of the scenario that set up on the map take their hexes (3.1);
    so do US units and leaders a scenario starts ashore."""
    scen = core.scenario
    units = scen.units
    for i, label in scen.german.setup:
        if units[i].formation in scen.german_formations:
            core.place(i, core.cell(label))
            core.set_dug_in(i, True)
            core.bump("german_steps_committed", core.steps[i])
    for i, label in scen.us_setup:
        core.place(i, core.cell(label))
        core.bump("steps_committed", core.steps[i])
    for k, label in scen.us_leaders:  # 2.3f: a leader ashore with his units
        core.set_leader_status(k, "map")
        core.set_leader_cell(k, core.cell(label))
    for name in scen.us_breaches:  # 2.5: breaches the scenario's US has already made
        core.open_breach(name)
        core.note("tcs.breach.open", "2.5a", player="US", breach=name)


def next_unplaced(core: TcsCore, pool: tuple[int, ...]) -> int:
    """The first pill box (or rocket pit) not yet set up."""
    return next(i for i in pool if core.where[i] < 0)


def apply_setup(core: TcsCore, action: Action) -> None:
    german = core.scenario.german
    if isinstance(action, PlacePillbox):
        c = core.cell(action.hex)
        core.place(next_unplaced(core, german.pillboxes), c)
        core.bump("german_steps_committed")
        core.note("tcs.setup.pillbox", "3.3g", player="German", hex=core.label(c))
    elif isinstance(action, PlaceRocketPit):
        c = core.cell(action.hex)
        core.place(next_unplaced(core, german.pits), c)
        core.bump("german_steps_committed")
        core.note("tcs.setup.pit", "3.4", player="German", hex=core.label(c))
    elif isinstance(action, UseSetup):
        s = core.scenario.setups[action.name]
        place_all(core, s.pillboxes, s.rocket_pits, action.name)
    elif isinstance(action, CommitSetup):
        place_all(core, action.pillboxes, action.pits, "custom")


def place_all(core: TcsCore, pillboxes: tuple[str, ...], pits: tuple[str, ...], name: str) -> None:
    german = core.scenario.german
    for i, c in zip(german.pillboxes, sorted(core.cell(x) for x in pillboxes), strict=True):
        core.place(i, c)
    for i, c in zip(german.pits, sorted(core.cell(x) for x in pits), strict=True):
        core.place(i, c)
    core.bump("german_steps_committed", len(pillboxes) + len(pits))
    core.note(
        "tcs.setup.whole",
        "3.3g, 3.4",
        player="German",
        name=name,
        pillboxes=[core.label(c) for c in core.pillboxes],
        pits=[core.label(c) for c in core.pits],
    )


def check_setup(core: TcsCore, action: CommitSetup) -> None:
    """A whole set-up is legal without being listed: validate it here (3.3g, 3.4)."""
    if core.wait is None or core.wait[0] != Decision.PILLBOX or core.pillboxes:
        raise IllegalAction("a whole German set-up is made before any piece is placed")
    problem = core.scenario.check_setup(action.pillboxes, action.pits)
    if problem:
        raise IllegalAction(f"German set-up: {problem}")


def explain_setup(core: TcsCore, action: Action) -> str:
    board = core.scenario.board
    t = core.scenario.tables
    kind = core.wait[0] if core.wait else None
    if isinstance(action, PlacePillbox) and kind == Decision.PILLBOX:
        if board.cell(action.hex) in core.german_cells():
            return f"{action.hex} already holds a German piece (one a hex)"
        return (
            f"pill boxes set up landward of the beach obstacle line and at most "
            f"{t.pillbox_inland} hexes from it (3.3g)"
        )
    if isinstance(action, PlaceRocketPit) and kind == Decision.ROCKET_PIT:
        return (
            f"rocket pits set up inland, at most {t.rocket_pit_inland} hexes from the "
            "obstacle line (3.4)"
        )
    return ""
