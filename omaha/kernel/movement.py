"""Movement: cheapest paths and reachable cells within an allowance.

A :class:`MovementGraph` is a directed graph over a board's cells, built once
per board and movement class (never per state). The cost of the edge
``a -> b`` is the cost of entering ``b`` from ``a`` plus any hexside cost, so
it may depend on how a cell is entered (road to road). An impassable move is
no edge at all, never a large number. Costs are integers: a game with half
movement points scales them.

State-dependent limits (enemy-occupied cells, a rule that stops movement in a
cell) are passed per query as ``blocked`` / ``stop`` sets, and a per-query
``extra`` callback may adjust an edge's cost or forbid it. networkx holds the
graph; the hot queries run a small Dijkstra over precomputed adjacency lists.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection

import networkx as nx

from omaha.kernel.board import Board

EdgeCost = Callable[[int, int], int | None]


class MovementGraph:
    """Directed movement costs over a board for one class of mover."""

    def __init__(self, board: Board, cost: EdgeCost, name: str = "") -> None:
        self.board = board
        self.name = name
        graph = nx.DiGraph()
        graph.add_nodes_from(range(len(board)))
        out: list[list[tuple[int, int]]] = [[] for _ in range(len(board))]
        for a in range(len(board)):
            for b in board.neighbours[a]:
                c = cost(a, b)
                if c is None:
                    continue
                if c < 0:
                    raise ValueError(f"negative cost {c} from {board.label(a)} to {board.label(b)}")
                graph.add_edge(a, b, weight=c)
                out[a].append((b, c))
        self._graph = graph
        self._out: tuple[tuple[tuple[int, int], ...], ...] = tuple(tuple(e) for e in out)

    def cost(self, a: int, b: int) -> int | None:
        """Cost of the single step ``a -> b``, or None when it is impassable."""
        for n, c in self._out[a]:
            if n == b:
                return c
        return None

    def steps(self, a: int) -> tuple[tuple[int, int], ...]:
        """``(cell, cost)`` for every cell enterable from ``a`` in one step."""
        return self._out[a]

    def reachable(
        self,
        start: int,
        allowance: int,
        *,
        blocked: Collection[int] = (),
        stop: Collection[int] = (),
        extra: EdgeCost | None = None,
    ) -> dict[int, int]:
        """Cheapest cost to every cell reachable within ``allowance`` (start included, at 0).

        ``blocked`` cells cannot be entered; ``stop`` cells may be entered but
        not left; ``extra(a, b)`` adds to the edge cost, or forbids it with None.
        """
        best = self._dijkstra(start, allowance, blocked, stop, extra, None)[0]
        return best

    def path(
        self,
        start: int,
        goal: int,
        *,
        allowance: int | None = None,
        blocked: Collection[int] = (),
        stop: Collection[int] = (),
        extra: EdgeCost | None = None,
    ) -> tuple[int, ...] | None:
        """A cheapest path ``start .. goal`` (both included), or None.

        Ties are broken by the lowest cell index, so the answer is deterministic.
        """
        best, prev = self._dijkstra(start, allowance, blocked, stop, extra, goal)
        if goal not in best:
            return None
        path = [goal]
        while path[-1] != start:
            path.append(prev[path[-1]])
        return tuple(reversed(path))

    def _dijkstra(
        self,
        start: int,
        allowance: int | None,
        blocked: Collection[int],
        stop: Collection[int],
        extra: EdgeCost | None,
        goal: int | None,
    ) -> tuple[dict[int, int], dict[int, int]]:
        best: dict[int, int] = {start: 0}
        prev: dict[int, int] = {}
        heap: list[tuple[int, int]] = [(0, start)]
        done: set[int] = set()
        while heap:
            d, a = heapq.heappop(heap)
            if a in done:
                continue
            done.add(a)
            if a == goal:
                break
            if a != start and a in stop:
                continue
            for b, c in self._out[a]:
                if b in blocked or b in done:
                    continue
                if extra is not None:
                    more = extra(a, b)
                    if more is None:
                        continue
                    c += more
                nd = d + c
                if allowance is not None and nd > allowance:
                    continue
                old = best.get(b)
                if old is None or nd < old or (nd == old and a < prev.get(b, a + 1)):
                    best[b] = nd
                    prev[b] = a
                    heapq.heappush(heap, (nd, b))
        return best, prev

    def distance_field(self, goal: int) -> dict[int, int]:
        """Cheapest cost from every cell to ``goal`` (for bots steering to objectives)."""
        lengths = nx.single_source_dijkstra_path_length(self._graph.reverse(copy=False), goal)
        return {int(k): int(v) for k, v in lengths.items()}

    def __deepcopy__(self, memo: dict[int, object]) -> MovementGraph:
        return self
