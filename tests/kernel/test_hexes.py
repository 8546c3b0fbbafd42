from hypothesis import given
from hypothesis import strategies as st

from omaha.kernel.hexes import DIRECTIONS, Hex, distance, hex_range, ring
from omaha.kernel.labels import (
    LabelError,
    Layout,
    Sheet,
    format_letter_number,
    format_map_col_row,
    parse_letter_number,
    parse_map_col_row,
    row_index,
    row_letter,
)
from omaha.kernel.squares import Square

coords = st.integers(-60, 60)
hexes = st.builds(Hex, coords, coords)
layouts = st.builds(Layout, st.sampled_from(["flat", "pointy"]), st.sampled_from(["odd", "even"]))


@given(hexes, hexes)
def test_distance_symmetric_and_zero_only_on_equal(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes)
def test_neighbours_at_distance_one(h: Hex) -> None:
    ns = h.neighbours()
    assert len(set(ns)) == 6
    assert all(h.distance(n) == 1 for n in ns)


@given(hexes, st.integers(0, 8))
def test_ring_and_range_sizes(h: Hex, radius: int) -> None:
    r = h.ring(radius)
    assert len(r) == (1 if radius == 0 else 6 * radius)
    assert len(set(r)) == len(r)
    assert all(h.distance(x) == radius for x in r)
    area = h.range(radius)
    assert len(area) == 1 + 3 * radius * (radius + 1)
    assert set(area) == {x for k in range(radius + 1) for x in h.ring(k)}


def test_distance_examples() -> None:
    assert distance(0, 0, 3, -1) == 3
    assert distance(0, 0, 2, 2) == 4
    assert set(ring(0, 0, 1)) == {(h.q, h.r) for h in Hex(0, 0).neighbours()}
    assert set(ring(0, 0, 2)) >= {(2, 0), (0, -2), (-2, 2), (1, 1)}
    assert len(list(hex_range(0, 0, 2))) == 19
    assert len(DIRECTIONS) == 6


@given(layouts, coords, coords)
def test_offset_round_trip(layout: Layout, col: int, row: int) -> None:
    h = layout.to_axial(col, row)
    assert layout.to_offset(h) == (col, row)


@given(layouts, coords, coords)
def test_offset_neighbours_are_geometric(layout: Layout, col: int, row: int) -> None:
    """Adjacent axial hexes have centres exactly one hex width apart."""
    h = layout.to_axial(col, row)
    x0, y0 = layout.centre(h)
    for n in h.neighbours():
        x1, y1 = layout.centre(n)
        assert abs(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 - 3**0.5) < 1e-9


def test_parity_semantics() -> None:
    # flat, odd: odd columns sit half a hex north of even ones
    flat_odd = Layout("flat", "odd")
    assert flat_odd.centre(flat_odd.to_axial(1, 0))[1] > flat_odd.centre(flat_odd.to_axial(0, 0))[1]
    flat_even = Layout("flat", "even")
    assert (
        flat_even.centre(flat_even.to_axial(1, 0))[1]
        < flat_even.centre(flat_even.to_axial(0, 0))[1]
    )
    # pointy, odd: odd rows sit half a hex east
    pointy = Layout("pointy", "odd")
    assert pointy.centre(pointy.to_axial(0, 1))[0] > pointy.centre(pointy.to_axial(0, 0))[0]
    # the same column, next row up is always further north
    for lay in (flat_odd, flat_even, pointy, Layout("pointy", "even")):
        assert lay.centre(lay.to_axial(3, 5))[1] > lay.centre(lay.to_axial(3, 4))[1]


@given(st.integers(0, 200), st.integers(0, 99))
def test_letter_number_round_trip(row: int, col: int) -> None:
    label = format_letter_number(col, row)
    assert parse_letter_number(label) == (col, row)
    assert parse_letter_number(label.lower()) == (col, row)


def test_letter_number_examples() -> None:
    assert parse_letter_number("K4") == (4, 10)
    assert parse_letter_number("A7") == (7, 0)
    assert row_letter(26) == "AA" and row_index("BB") == 27
    for bad in ("4K", "K", "", "K4.5", "KA4"):
        try:
            parse_letter_number(bad)
        except LabelError:
            continue
        raise AssertionError(f"{bad!r} accepted")


@given(st.integers(0, 60), st.integers(0, 60), st.integers(-5, 80), st.integers(-5, 80))
def test_map_col_row_round_trip(hexrow: int, hexnum: int, ox: int, oy: int) -> None:
    sheet = Sheet("B", ox, oy)
    label = format_map_col_row(sheet, ox + hexrow, oy + hexnum)
    assert parse_map_col_row(label, {"B": sheet}) == (ox + hexrow, oy + hexnum)


def test_map_col_row_examples() -> None:
    sheets = {"A": Sheet("A", 0, 0), "B": Sheet("B", 33, 0)}
    assert format_map_col_row(sheets["A"], 10, 10) == "A10.10"
    assert parse_map_col_row("A10.10", sheets) == (10, 10)
    assert parse_map_col_row("B1.05", sheets) == (34, 5)
    assert format_map_col_row(sheets["A"], 29, 17) == "A29.17"
    for bad in ("C1.01", "A10", "10.10", "A10-10"):
        try:
            parse_map_col_row(bad, sheets)
        except LabelError:
            continue
        raise AssertionError(f"{bad!r} accepted")


def test_squares() -> None:
    s = Square(2, 3)
    assert set(s.neighbours()) == {Square(3, 3), Square(1, 3), Square(2, 4), Square(2, 2)}
    assert s.distance(Square(5, 1)) == 5
