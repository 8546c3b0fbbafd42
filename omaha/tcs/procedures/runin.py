"""TCS Omaha 2.1i-2.1l: one beach box's boats run in, scatter and land.

:func:`resolve_box` is the whole dice procedure of an assault landing for the
boats of one landing beach box, in the order of the worked "Example of Landing
Process" (2.1, page 6): first every boat's survival roll (the boats of an LCA
group most laden first, 2.1j), then one scatter roll per surviving boat or boat
group for the sector path (1.17, 2.1l), then one roll per surviving boat for
its hex along the tide line of the hour (counted from the sector's west edge).
It knows nothing of units: a callback hears each survival roll at once (so a
pooled group's random losses, 2.1j, draw their dice in sequence). The game
state decides what the results mean for units, leaders and choices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from omaha.kernel.dice import Dice
from omaha.tcs.components.beach import Beach
from omaha.tcs.components.tables import Tables
from omaha.tcs.rules import SurvivalCheck, most_laden_first, survival_check


@attrs.frozen
class RunningBoat:
    """A boat (or swimming DD tank) leaving a beach box for the beach."""

    id: str
    kind: str
    group: str | None
    key: str  # survival table line (rules.survival_key)
    points: int


@attrs.frozen
class BoatOutcome:
    boat: str
    dice: tuple[int, int]
    check: SurvivalCheck
    scatter: int | None = None  # the path roll of the boat or its group
    sector: str | None = None
    hex_roll: int | None = None
    hexes: tuple[int, ...] = ()  # where it may land: one, several (minor sector) or none

    @property
    def survived(self) -> bool:
        return self.check.survives


def survival_order(boats: Sequence[RunningBoat]) -> list[RunningBoat]:
    """TCS Omaha 2.1j: boats in plan order, an LCA group's boats most laden first."""
    out: list[RunningBoat] = []
    done: set[str] = set()
    for b in boats:
        if b.group is None:
            out.append(b)
        elif b.group not in done:
            done.add(b.group)
            members = [x for x in boats if x.group == b.group]
            out.extend(members[k] for k in most_laden_first([m.points for m in members]))
    return out


def resolve_box(
    box: str,
    boats: Sequence[RunningBoat],
    hour: str,
    pillboxes: int,
    dice: Dice,
    beach: Beach,
    tables: Tables,
    on_survival: Callable[[RunningBoat, BoatOutcome], None] | None = None,
) -> list[BoatOutcome]:
    """TCS Omaha 2.1i, 2.1l: survival, scatter and in-sector rolls for one beach box.

    ``hour`` is the tide line in force (a 0740 landing uses ``"0700"``);
    ``pillboxes`` the pill boxes remaining (2.1k). Returns one outcome per boat
    in survival-roll order.
    """
    results: dict[str, BoatOutcome] = {}
    order = survival_order(boats)
    for b in order:
        d = dice.two_d6()
        check = survival_check(b.key, d[0] + d[1], pillboxes, tables)
        results[b.id] = BoatOutcome(b.id, d, check)
        if on_survival is not None:
            on_survival(b, results[b.id])

    # 2.1l: one path roll per surviving boat or boat group
    sector_of: dict[str, tuple[int, str]] = {}
    for b in order:
        if not results[b.id].survived:
            continue
        key = b.group if b.group is not None else b.id
        if key not in sector_of:
            roll = dice.d6()
            sector_of[key] = (roll, beach.scatter(box, roll).name)
        roll, name = sector_of[key]
        results[b.id] = attrs.evolve(results[b.id], scatter=roll, sector=name)

    # 2.1l: then one roll per boat for its hex along the tide line
    for b in order:
        r = results[b.id]
        if not r.survived:
            continue
        assert r.sector is not None
        roll = dice.d6()
        hexes = beach.landing_hexes(beach.sector(r.sector), hour, roll)
        results[b.id] = attrs.evolve(r, hex_roll=roll, hexes=hexes)
    return [results[b.id] for b in order]
