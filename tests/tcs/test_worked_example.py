"""TCS Omaha 2.1, page 6: the "Example of Landing Process", outcome by outcome.

Twelve boats in the Easy Red beach box: LCA boat groups A-B, C-D and H-I, LCTs
E and F, minimally loaded (class I) Dukws G, J, K and L; 20 pill boxes remain.
The test runs the resolution functions directly (rules + landing), so it does
not depend on how the garbled wave-availability row of 2.1g is read.
"""

from __future__ import annotations

from omaha.kernel.dice import ScriptedDice
from omaha.tcs.components.beach import Beach
from omaha.tcs.components.tables import Tables
from omaha.tcs.procedures.runin import RunningBoat, resolve_box
from omaha.tcs.rules import hour_of, pillbox_modifier, survival_key

# survival totals printed in the example, and dice that make them
SURVIVAL = {
    "A": (1, 2),  # 3+1 = 4 survives
    "B": (3, 3),  # 6+1 = 7 survives
    "C": (2, 1),  # 3+1 = 4 survives
    "D": (6, 6),  # 12+1 = 13 destroyed
    "E": (2, 3),  # 5+1 = 6 survives
    "F": (4, 2),  # 6+1 = 7 survives
    "G": (4, 5),  # 9 destroyed (Dukw, unmodified)
    "H": (4, 4),  # 8+1 = 9 survives
    "I": (5, 4),  # 9+1 = 10 survives
    "J": (6, 3),  # 9 destroyed
    "K": (1, 3),  # 4 survives
    "L": (3, 6),  # 9 destroyed
}
SCATTER = [2, 6, 6, 2, 2, 6]  # A-B, C, E, F, H-I, K (one per boat or group)
IN_SECTOR = {"A": 4, "B": 3, "C": 1, "E": 5, "F": 4, "H": 5, "I": 2, "K": 6}


def boats() -> list[RunningBoat]:
    def lca(name: str, group: str) -> RunningBoat:
        return RunningBoat(name, "LCA", group, survival_key("LCA"), 9)

    def lct(name: str) -> RunningBoat:
        return RunningBoat(name, "LCT", None, survival_key("LCT"), 25)

    def dukw(name: str) -> RunningBoat:
        return RunningBoat(name, "DUKW", None, survival_key("DUKW", [1]), 4)

    return [
        lca("A", "A-B"),
        lca("B", "A-B"),
        lca("C", "C-D"),
        lca("D", "C-D"),
        lct("E"),
        lct("F"),
        dukw("G"),
        lca("H", "H-I"),
        lca("I", "H-I"),
        dukw("J"),
        dukw("K"),
        dukw("L"),
    ]


def test_example_of_landing_process(beach: Beach, tables: Tables) -> None:
    assert pillbox_modifier(20, tables) == +1  # "a modifier of +1 for LCA's and LCT's"
    assert hour_of("0740") == "0700"  # "landing at 0740, so the 0700 tide line is used"
    dice = [d for name in "ABCDEFGHIJKL" for d in SURVIVAL[name]]
    dice += SCATTER
    dice += [IN_SECTOR[name] for name in "ABCEFHIK"]
    scripted = ScriptedDice(dice)
    out = {r.boat: r for r in resolve_box("EasyRed", boats(), "0700", 20, scripted, beach, tables)}
    assert scripted.remaining == 0

    # survival rolls: totals and results as printed
    totals = {n: (r.check.total, r.survived) for n, r in out.items()}
    assert totals == {
        "A": (4, True),
        "B": (7, True),
        "C": (4, True),
        "D": (13, False),
        "E": (6, True),
        "F": (7, True),
        "G": (9, False),
        "H": (9, True),
        "I": (10, True),
        "J": (9, False),
        "K": (4, True),
        "L": (9, False),
    }
    # the Dukws' class I loads take no pill box modifier
    assert {out[n].check.modifier for n in "GJKL"} == {0}
    assert {out[n].check.modifier for n in "ABCDEFHI"} == {1}

    # scatter: one roll per boat or boat group; groups land in one sector
    assert {n: out[n].scatter for n in "ABCEFHIK"} == {
        "A": 2,
        "B": 2,
        "C": 6,
        "E": 6,
        "F": 2,
        "H": 2,
        "I": 2,
        "K": 6,
    }
    two = beach.scatter("EasyRed", 2)
    six = beach.scatter("EasyRed", 6)
    assert {out[n].sector for n in "ABFHI"} == {two.name}
    assert {out[n].sector for n in "CEK"} == {six.name}

    # in-sector hexes along the 0700 line of the roll-2 sector, counted from one edge
    line = beach.sector_line(two, "0700")
    assert len(line) == 6
    for name, roll in (("A", 4), ("B", 3), ("F", 4), ("H", 5), ("I", 2)):
        assert out[name].hex_roll == roll
        assert out[name].hexes == (line[roll - 1],)
    # A and F share hex 4; every landing hex is on the 0700 tide line
    assert out["A"].hexes == out["F"].hexes
    assert all(out[n].hexes[0] in beach.line("0700").values() for n in "ABCEFHIK")
    # the labels, in the TCS map-col-row scheme
    labels = {n: beach.board.label(out[n].hexes[0]) for n in "ABFHI"}
    assert labels == {
        "A": "A15.17",
        "B": "A14.17",
        "F": "A15.17",
        "H": "A16.17",
        "I": "A13.17",
    }


def test_example_survival_order_most_laden_first(beach: Beach, tables: Tables) -> None:
    """2.1j: in a group, the most fully laden boat rolls first."""
    group = [
        RunningBoat("light", "LCA", "g", "LCA", 8),
        RunningBoat("full", "LCA", "g", "LCA", 9),
    ]
    scripted = ScriptedDice([6, 6, 1, 1, 3, 2])  # full sinks (13), light survives (3)
    out = resolve_box("EasyRed", group, "0700", 20, scripted, beach, tables)
    assert [r.boat for r in out] == ["full", "light"]
    assert [r.survived for r in out] == [False, True]
