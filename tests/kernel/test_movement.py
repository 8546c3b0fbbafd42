import itertools
from collections import deque
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from omaha.kernel.board import Board, CellSpec
from omaha.kernel.boardfile import load_board
from omaha.kernel.data import Source
from omaha.kernel.labels import Layout
from omaha.kernel.movement import MovementGraph

TOY_MAP = Path(__file__).parents[1] / "conformance" / "toy" / "map.toml"


def grid(cols: int = 9, rows: int = 7) -> Board:
    layout = Layout("flat", "odd")
    cells = [
        CellSpec(f"{c}.{r}", layout.to_axial(c, r), "woods" if (c * 7 + r * 3) % 5 == 0 else "open")
        for r in range(rows)
        for c in range(cols)
    ]
    return Board(
        id="g",
        title="g",
        grid="hex",
        cells=cells,
        source=Source("reconstructed: test"),
        layout=layout,
    )


BOARD = grid()
UNIT = MovementGraph(BOARD, lambda a, b: 1)
TERRAIN = MovementGraph(BOARD, lambda a, b: 2 if BOARD.terrain[b] == "woods" else 1)


def bfs(board: Board, start: int) -> dict[int, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        a = queue.popleft()
        for b in board.neighbours[a]:
            if b not in seen:
                seen[b] = seen[a] + 1
                queue.append(b)
    return seen


cells = st.integers(0, len(BOARD) - 1)


@given(cells, st.integers(0, 12))
def test_unit_cost_dijkstra_equals_bfs(start: int, allowance: int) -> None:
    expected = {c: d for c, d in bfs(BOARD, start).items() if d <= allowance}
    assert UNIT.reachable(start, allowance) == expected
    # and on an unblocked hex grid BFS distance is the hex distance
    assert all(BOARD.distance(start, c) == d for c, d in expected.items())


@settings(max_examples=60)
@given(cells, st.integers(0, 8))
def test_reach_never_shrinks(start: int, allowance: int) -> None:
    smaller = TERRAIN.reachable(start, allowance)
    larger = TERRAIN.reachable(start, allowance + 1)
    assert set(smaller) <= set(larger)
    assert all(larger[c] <= smaller[c] for c in smaller)


@given(cells, cells)
def test_path_cost_is_the_reachable_cost(start: int, goal: int) -> None:
    path = TERRAIN.path(start, goal)
    assert path is not None and path[0] == start and path[-1] == goal
    cost = sum(TERRAIN.cost(a, b) or 0 for a, b in itertools.pairwise(path))
    assert cost == TERRAIN.reachable(start, 10_000)[goal]
    assert all(BOARD.adjacent(a, b) for a, b in itertools.pairwise(path))


def test_blocked_stop_and_extra() -> None:
    b = load_board(TOY_MAP)
    flat = MovementGraph(b, lambda x, y: 1)
    e1, e2, e3 = b.cell("E1"), b.cell("E2"), b.cell("E3")
    assert flat.reachable(e1, 2)[e3] == 2
    assert e3 not in flat.reachable(e1, 2, blocked={e2})
    assert flat.reachable(e1, 3, blocked={e2})[e3] == 3  # around through D1, D2
    around = flat.path(e1, e3, blocked={e2})
    assert around is not None and e2 not in around
    # a stop cell may be entered but not left
    reach = flat.reachable(e1, 3, stop={e2}, blocked={b.cell("D1"), b.cell("D2")})
    assert e2 in reach and e3 not in reach
    # extra: forbid one edge, or make it dearer
    assert flat.reachable(e1, 1, extra=lambda x, y: None if y == e2 else 0).get(e2) is None
    assert flat.reachable(e1, 5, extra=lambda x, y: 3 if y == e2 else 0)[e2] in (2, 4)


def test_impassable_is_no_edge_and_direction_matters() -> None:
    b = load_board(TOY_MAP)

    def cost(x: int, y: int) -> int | None:
        return None if ("crest", "up") in b.crossing(x, y) else 1

    g = MovementGraph(b, cost)
    d1, c1 = b.cell("D1"), b.cell("C1")
    assert g.cost(d1, c1) is None  # up the crest: impassable
    assert g.cost(c1, d1) == 1  # down is fine
    assert c1 not in {n for n, _ in g.steps(d1)}


def test_road_to_road_cost_depends_on_entry() -> None:
    layout = Layout("pointy", "odd")
    cells = [
        CellSpec(f"c{c}", layout.to_axial(c, 0), "woods", frozenset({"road"} if c < 3 else ()))
        for c in range(5)
    ]
    b = Board(
        id="r", title="r", grid="hex", cells=cells, source=Source("reconstructed: t"), layout=layout
    )

    def cost(x: int, y: int) -> int:
        return 1 if "road" in b.features[x] and "road" in b.features[y] else 3

    g = MovementGraph(b, cost)
    assert g.reachable(0, 5) == {0: 0, 1: 1, 2: 2, 3: 5}
    assert g.distance_field(0)[2] == 2
