"""Line of sight (LnL Omaha: Fire Combat), on the kernel's exact thread."""

from __future__ import annotations

import pytest

import omaha
from omaha.lnl.scenario import LnlScenario

GAME = omaha.load("lnl")


@pytest.fixture(scope="module")
def scen() -> LnlScenario:
    s = GAME.load_scenario("beach")
    assert isinstance(s, LnlScenario)
    return s


def los(scen: LnlScenario, a: str, b: str) -> bool:
    return scen.tables.los(scen.board.cell(a), scen.board.cell(b))


def test_woods_and_town_block(scen: LnlScenario) -> None:
    assert not los(scen, "E7", "E9")  # through the woods of E8
    assert not los(scen, "G6", "G8")  # through the houses of G7


def test_adjacent_hexes_always_see_each_other(scen: LnlScenario) -> None:
    assert los(scen, "E7", "E8") and los(scen, "F7", "F6") and los(scen, "K1", "K2")


def test_two_farmland_hexes_do_not_block_three_do(scen: LnlScenario) -> None:
    assert los(scen, "A1", "A4")  # A2, A3 between
    assert not los(scen, "A3", "E1")  # B2, C2, D1 between


def test_a_crest_blocks_unless_it_is_a_side_of_firer_or_target(scen: LnlScenario) -> None:
    assert not los(scen, "L8", "I8")  # the bluff crest K8|J8 is no side of L8 or I8
    assert los(scen, "L8", "J8")  # it is a side of the target J8
    assert los(scen, "K9", "I9")  # it is a side of the firer K9


def test_a_thread_crossing_the_crest_at_a_hex_corner_crosses_it(scen: LnlScenario) -> None:
    """H9 to L12 meets the crest line exactly at the corner of J11, K11 and K12."""
    assert not los(scen, "H9", "L12")


def test_a_thread_down_the_side_of_one_blocking_hex_is_clear(scen: LnlScenario) -> None:
    """A4 to C4 runs along the side B3|B4; only B4 is woods."""
    t = scen.board.thread(scen.board.cell("A4"), scen.board.cell("C4"))
    assert [(scen.board.label(x), scen.board.label(y)) for x, y in t.along] == [("B3", "B4")]
    assert los(scen, "A4", "C4")


def test_a_thread_between_two_blocking_hexes_is_blocked(scen: LnlScenario) -> None:
    """Reading: D7 to E9 runs along the side between the woods of E8 and D8: blocked."""
    t = scen.board.thread(scen.board.cell("D7"), scen.board.cell("E9"))
    assert t.cells == () and len(t.along) == 1
    assert not los(scen, "D7", "E9")


def test_sight_is_symmetric(scen: LnlScenario) -> None:
    b = scen.board
    cells = [b.cell(x) for x in ("A4", "C4", "D7", "E9", "H9", "L12", "L8", "I8", "K9", "F6")]
    for a in cells:
        for c in cells:
            assert scen.tables.los(a, c) == scen.tables.los(c, a)


def test_crest_shelter(scen: LnlScenario) -> None:
    """The TEC's crest shift: the target is attacked across a crest side of its hex."""
    b, T = scen.board, scen.tables
    assert T.sheltered(b.cell("K6"), b.cell("J5"))  # adjacent across the crest
    assert not T.sheltered(b.cell("J6"), b.cell("J5"))  # from the draw: no crest
    assert T.sheltered(b.cell("L8"), b.cell("J8"))  # up the bluff from the water
    assert not T.sheltered(b.cell("J8"), b.cell("L8"))  # firing down gives the target none
    assert T.sea_sheltered[b.cell("J5")] and T.sea_sheltered[b.cell("K1")]
    assert not T.sea_sheltered[b.cell("J6")] and not T.sea_sheltered[b.cell("H5")]


def _paths_from_translated_thread(
    scen: LnlScenario, a: int, b: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The shifted threads worked out afresh on the kernel's thread between the two hexes
    themselves (not the offset's), with ``Hex`` values: what ``MapTables.paths`` keeps
    per offset and moves to ``a``."""
    from omaha.kernel import los as klos
    from omaha.kernel.hexes import Hex

    board = scen.board
    ha, hb = board.hex(a), board.hex(b)
    t = klos.thread(ha, hb)
    dq, dr = hb.q - ha.q, hb.r - ha.r
    f = (dq - dr, dq + 2 * dr, -2 * dq - dr)

    def mid(h: Hex) -> float:
        q, r = h.q - ha.q, h.r - ha.r
        lo, hi = 0.0, 1.0
        for fi, g in zip(f, (q - r, q + 2 * r, -2 * q - r), strict=True):
            if fi:
                x1, x2 = sorted(((g - 1) / fi, (g + 1) / fi))
                lo, hi = max(lo, x1), min(hi, x2)
        return (lo + hi) / 2

    def side(h: Hex) -> int:
        c = dq * (h.r - ha.r) - dr * (h.q - ha.q)
        return (c > 0) - (c < 0)

    touching = {h for pair in t.along for h in pair} | {h for trio in t.corners for h in trio}
    touching -= {*t.cells, ha, hb}
    out = []
    for sgn in (1, -1):
        seq = sorted([*t.cells, *(h for h in touching if side(h) == sgn)], key=mid)
        out.append((a, *(-1 if board.at(h) is None else board.at(h) for h in seq), b))
    return out[0], out[1]


@pytest.mark.parametrize("name", ["beach", "vierville"])
def test_kept_offset_threads_are_the_fresh_threads_of_each_pair(name: str) -> None:
    """The shifted threads kept per offset, moved to each hex, are those worked out on the
    thread between the two hexes (every pair from a spread of hexes, both ways)."""
    s = GAME.load_scenario(name)
    assert isinstance(s, LnlScenario)
    n = len(s.board)
    for a in range(0, n, 23):
        for b in range(n):
            if a != b:
                assert s.tables.paths(a, b) == _paths_from_translated_thread(s, a, b)
                assert s.tables.paths(b, a) == _paths_from_translated_thread(s, b, a)
