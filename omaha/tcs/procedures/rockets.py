"""LCT(R) fires (2.2): targets chosen before play, the first-turn fires on Area C,
and the US smoke checks with what is left of the fires' smoke markers."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.kernel.hexes import Hex
from omaha.kernel.hexes import distance as hex_distance
from omaha.tcs.actions import EndRockets, EndSmoke, Rockets, SmokeCheck
from omaha.tcs.components.beach import COMPASS
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.procedures.fire import Attack, resolve
from omaha.tcs.rules import designator, miller_rounds, smoke_left

register_templates(
    {
        "tcs.lctr.targets": "LCT(R) targets: {targets}",
        "tcs.lctr.designator": "LCT(R) {fire} at {target}: designator {direction} {distance} "
        "hexes, lands {impact}; Area C {hexes} hexes",
        "tcs.lctr.rounds": "LCT(R) {fire}, rounds of {weapon} per enemy hex of Area C: {hexes} "
        "({result})",
        "tcs.lctr.check": "LCT(R) {fire} smoke check {hex}: {result}",
        "tcs.lctr.smoke": "LCT(R) {fire}: smoke checks over ({unused} markers unused)",
    }
)


# ------------------------------------------------------------------ targets (2.2a)
def step_rockets(core: TcsCore) -> bool:
    """TCS Omaha 2.2a: the four LCT(R) target hexes are chosen before play."""
    count = core.scenario.tables.lctr_count
    if core.lctr_done:
        return True
    if len(core.lctr_targets) >= count:
        log_targets(core)
        return True
    left = count - len(core.lctr_targets)
    return core.set_wait(Decision.ROCKETS, "US", f"choose an LCT(R) target hex ({left} left)")


def log_targets(core: TcsCore) -> None:
    core.lctr_done = True
    core.note(
        "tcs.lctr.targets",
        "2.2a",
        player="US",
        targets=[core.label(c) for c in core.lctr_targets],
    )


def legal_rockets(core: TcsCore) -> Iterator[Action]:
    yield EndRockets.of()
    beach = core.scenario.beach
    for c in range(len(core.scenario.board)):
        if c not in beach.sea_always and beach.lctr_target_allowed(c):
            yield Rockets.of(core.label(c))


def apply_rockets(core: TcsCore, action: Action) -> None:
    if isinstance(action, Rockets):
        core.lctr_targets.append(core.cell(action.hex))
    else:
        log_targets(core)


def explain_rockets(core: TcsCore, action: Action) -> str:
    if isinstance(action, Rockets):
        return (
            f"LCT(R) targets lie within {core.scenario.tables.lctr_target_range} hexes of a "
            "beach obstacle hex (2.2a)"
        )
    return ""


# ------------------------------------------------------------------ fires (2.2a, 2.2b)
def step_lctr(core: TcsCore) -> bool:
    """TCS Omaha 2.2: the LCT(R)s fire on the first game turn only.

    Each: a designator round (direction and distance dice, distance x3) from
    its target, never adjusted; Area C is every hex within 10 of the
    designator hex; the Miller table (d66) gives the rounds impacting each
    hex, each round a 155mm HE attack (resolved by the fire resolver). Reading:
    a hex is rolled for only when it holds an enemy unit (elsewhere a round
    hits nothing); each hex hit uses one of the fire's 10 smoke markers, the
    rest go to the US smoke checks.
    """
    if core.turn != 0 or not core.lctr_targets or core.stats.get("lctr_fired"):
        return True
    core.stats["lctr_fired"] = 1
    t, board = core.scenario.tables, core.scenario.board
    for n, target in enumerate(core.lctr_targets, start=1):
        d1, d2 = core.dice.d6(), core.dice.d6()
        direction, dist = designator(d1, d2, t.lctr_multiplier, t)
        h = board.hex(target)
        dq, dr = COMPASS[direction]
        impact = Hex(h.q + dq * dist, h.r + dr * dist)
        area = [
            c
            for c in range(len(board))
            if hex_distance(board.hex(c).q, board.hex(c).r, impact.q, impact.r)
            <= t.lctr_area_radius
        ]
        at = board.at(impact)
        core.note(
            "tcs.lctr.designator",
            "2.2a",
            dice=(d1, d2),
            player="US",
            fire=n,
            target=core.label(target),
            direction=direction,
            distance=dist,
            impact=core.label(at) if at is not None else "off the map",
            hexes=len(area),
        )
        hit = 0
        rolls: list[int] = []
        hexes: list[str] = []
        verdicts: list[str] = []
        for c in area:
            if c not in core.german_cells():
                continue
            tens, units = core.dice.d6(), core.dice.d6()
            rolls.extend((tens, units))
            rounds = miller_rounds(10 * tens + units, t)
            hexes.append(f"{core.label(c)} {rounds}")
            if rounds:
                hit += 1
                if hit <= t.lctr_smoke:
                    core.add_smoke(c)
                attack = Attack(f"LCT(R) {n}", t.lctr_weapon, 0, core.label(c), rounds, "2.2b")
                verdicts.append(resolve(core, attack))
        core.note(
            "tcs.lctr.rounds",
            "2.2b",
            dice=rolls,
            player="US",
            fire=n,
            weapon=t.lctr_weapon,
            hexes=hexes or ["no enemy in Area C"],
            result="; ".join(sorted(set(verdicts))) or "nothing hit",
        )
        left = smoke_left(t.lctr_smoke, hit)
        core.smoke_sessions.append(
            {"fire": n, "area": [core.label(c) for c in area], "left": left, "checked": []}
        )
    return True


# ------------------------------------------------------------------ smoke checks (2.2a)
def step_smoke(core: TcsCore) -> bool:
    """TCS Omaha 2.2a: the US checks hexes of Area C for smoke with the Miller roll."""
    while core.smoke_sessions:
        s = core.smoke_sessions[0]
        if s["left"] <= 0 or not smoke_candidates(core):
            core.note("tcs.lctr.smoke", "2.2a", player="US", fire=s["fire"], unused=s["left"])
            core.smoke_sessions.pop(0)
            continue
        return core.set_wait(
            Decision.SMOKE,
            "US",
            f"LCT(R) {s['fire']}: check a hex of Area C for smoke ({s['left']} markers left)",
        )
    return True


def smoke_candidates(core: TcsCore) -> list[str]:
    s = core.smoke_sessions[0]
    done = set(s["checked"])
    return [x for x in s["area"] if x not in done and core.cell(x) not in core.smoke]


def legal_smoke(core: TcsCore) -> Iterator[Action]:
    yield EndSmoke.of()
    for x in smoke_candidates(core):
        yield SmokeCheck.of(x)


def apply_smoke(core: TcsCore, action: Action) -> None:
    s = core.smoke_sessions[0]
    if isinstance(action, EndSmoke):
        s["left"] = 0
        return
    assert isinstance(action, SmokeCheck)
    tens, units = core.dice.d6(), core.dice.d6()
    rounds = miller_rounds(10 * tens + units, core.scenario.tables)
    s["checked"].append(action.hex)
    if rounds:
        core.add_smoke(core.cell(action.hex))
        s["left"] -= 1
    core.note(
        "tcs.lctr.check",
        "2.2a",
        dice=(tens, units),
        player="US",
        fire=s["fire"],
        hex=action.hex,
        result="smoke" if rounds else "no smoke",
    )
