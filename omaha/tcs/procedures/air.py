"""US airpower (2.10): the A-20 loadout and sortie, then its strikes (2.10a)."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import AirLoadout, BombHex, BombUnit, HoldStrike, Strike
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.procedures.fire import Attack, resolve
from omaha.tcs.rules import (
    AirAttack,
    air_attacks,
    aircraft_available,
    bomb_hits,
    german_uses_sortie,
)

register_templates(
    {
        "tcs.air.none": "A-20s ({loadout}): no aircraft this turn",
        "tcs.air.night": "no A-20s at night",
        "tcs.air.arrive": "two A-20s ({loadout}) arrive; the sortie is used by the {controller} "
        "(German roll +{bonus})",
        "tcs.air.hold": "{source} holds its {attack}",
        "tcs.air.idle": "the A-20s find no target: {attacks} attacks unused",
        "tcs.air.bomb": "{source} bombs {target}: {result}",
        "tcs.air.kill": "{unit} ({steps} steps) destroyed from the air",
        "tcs.air.attack": "{source} {attack}s {hex} (firepower {firepower}): {result}",
    }
)


def step_air(core: TcsCore) -> bool:
    """TCS Omaha 2.10: on a clear day turn the US configures the A-20s, then rolls for
    them; if they come, the German rolls to use the sortie (+1 on 6 June); none at night
    (reconstructed, :mod:`omaha.tcs.procedures.night`)."""
    if core.scenario.weather != "clear":
        return True
    if core.night:  # the A-20s fly by day (the series' night, reconstructed)
        core.note("tcs.air.night", "2.10", player="US")
        return True
    if not core.started:
        core.started = True
        core.sd = {}
        core.air_attacks, core.air_controller, core.air_loadout = [], None, []
    if "loadout" not in core.sd:
        return core.set_wait(Decision.AIR, "US", "A-20s: how many of the two are bomb laden?")
    t = core.scenario.tables
    loadout = list(core.sd["loadout"])
    d = core.dice.two_d6()
    if not aircraft_available(d[0] + d[1], t):
        core.note("tcs.air.none", "2.10", dice=d, player="US", loadout=loadout)
        return True
    g = core.dice.two_d6()
    german = german_uses_sortie(g[0] + g[1], core.turn_has("june6"), t)
    core.air_controller = "German" if german else "US"
    core.air_loadout = loadout
    core.air_attacks = [
        {"aircraft": a.aircraft, "kind": a.kind, "firepower": a.firepower, "hit": a.hit_roll}
        for a in air_attacks(loadout, t)
    ]
    core.note(
        "tcs.air.arrive",
        "2.10",
        dice=(*d, *g),
        player="US",
        loadout=loadout,
        controller=core.air_controller,
        bonus=1 if core.turn_has("june6") else 0,
    )
    return True


def legal_air(core: TcsCore) -> list[Action]:
    return [AirLoadout.of(n) for n in range(core.scenario.tables.air_aircraft + 1)]


def apply_air(core: TcsCore, action: Action) -> None:
    assert isinstance(action, AirLoadout)
    n = action.bombers
    core.sd["loadout"] = ["bomb"] * n + ["gunship"] * (core.scenario.tables.air_aircraft - n)


# ------------------------------------------------------------------ strikes (2.10a)
def step_air_strikes(core: TcsCore) -> bool:
    """TCS Omaha 2.10a: the controller of the sortie makes the A-20s' attacks one by one."""
    if not core.air_attacks:
        return True
    if not any(True for _ in legal_strike(core)):
        core.note(
            "tcs.air.idle",
            "2.10a",
            player=core.air_controller or "US",
            attacks=len(core.air_attacks),
        )
        core.air_attacks, core.air_controller = [], None
        return True
    a = core.air_attacks[0]
    who = core.air_controller or "US"
    return core.set_wait(
        Decision.STRIKE,
        who,
        f"A-20 {a['aircraft']}: {a['kind']} (firepower {a['firepower']}) "
        f"- choose a target ({len(core.air_attacks)} attacks left)",
    )


def strike_targets(core: TcsCore) -> tuple[list[int], list[str]]:
    """Hexes and point-target units the controller of the sortie may attack (pill boxes
    never: 3.3d)."""
    enemy = "US" if core.air_controller == "German" else "German"
    units = core.scenario.units
    cells = sorted(
        c for c, here in core.occupancy().items() if any(units[i].side == enemy for i in here)
    )
    targets = [
        units[i].id
        for c in cells
        for i in core.units_at(c)
        if units[i].side == enemy
        and units[i].type.target == "point"
        and units[i].type.kind != "pillbox"
    ]
    return cells, targets


def legal_strike(core: TcsCore) -> Iterator[Action]:
    cells, units = strike_targets(core)
    if not cells:
        return
    a = core.air_attacks[0]
    yield HoldStrike.of()
    for c in cells:
        yield Strike.of(core.label(c)) if a["kind"] == "strafe" else BombHex.of(core.label(c))
    if a["kind"] == "bomb":
        yield from (BombUnit.of(u) for u in units)


def apply_strike(core: TcsCore, action: Action) -> None:
    a = core.air_attacks.pop(0)
    who = core.air_controller or "US"
    src = f"A-20 {a['aircraft']} ({who})"
    if isinstance(action, HoldStrike):
        core.note("tcs.air.hold", "2.10a", player=who, source=src, attack=a["kind"])
    elif isinstance(action, Strike | BombHex):
        verdict = resolve(
            core, Attack(src, a["kind"], a["firepower"], action.hex, 1, "2.10a", side=who)
        )
        core.note(
            "tcs.air.attack",
            "2.10a",
            player=who,
            source=src,
            attack=a["kind"],
            firepower=a["firepower"],
            hex=action.hex,
            result=verdict,
        )
    elif isinstance(action, BombUnit):
        d = core.dice.two_d6()
        hit = bomb_hits(d[0] + d[1], AirAttack(a["aircraft"], "bomb", a["firepower"], a["hit"]))
        target = action.unit
        if hit:
            core.lose_unit(core.unit_index(target), "tcs.air.kill", "2.10a")
        core.note(
            "tcs.air.bomb",
            "2.10a",
            dice=d,
            player=who,
            source=src,
            target=target,
            result="destroyed" if hit else "missed",
        )
    if not core.air_attacks:
        core.air_controller = None
