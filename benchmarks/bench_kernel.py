"""Kernel and protocol timings (prints figures, asserts nothing).

Run from the repo root: ``python benchmarks/bench_kernel.py``. The machine is
shared and noisy: compare ratios within one run, not absolute numbers across runs.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from omaha.kernel.board import Board, CellSpec
from omaha.kernel.data import Source
from omaha.kernel.dice import RandomDice
from omaha.kernel.labels import Layout
from omaha.kernel.movement import MovementGraph

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "conformance"))
from timing import timed
from toygame import GAME


def big_board(cols: int = 100, rows: int = 50) -> Board:
    layout = Layout("flat", "odd")
    cells = []
    for r in range(rows):
        for c in range(cols):
            terrain = "woods" if (c * 13 + r * 7) % 9 == 0 else "open"
            cells.append(CellSpec(f"{c}.{r}", layout.to_axial(c, r), terrain))
    return Board(
        id="big",
        title="5,000 cells",
        grid="hex",
        cells=cells,
        source=Source("reconstructed: benchmark"),
        layout=layout,
    )


def main() -> None:
    print("== dice ==")
    dice = RandomDice(1)
    timed("RandomDice.d6", dice.d6, 200_000, "roll")
    timed("RandomDice.two_d6", dice.two_d6, 100_000, "roll")

    print("== toy game through the protocol ==")
    state = GAME.new_state(seed=1)
    bot = GAME.bots["random"](seed=1)
    for _ in range(5):
        state.apply(bot.choose(state))
    timed("legal_actions (cached)", state.legal_actions, 100_000)

    def fresh_legal() -> object:
        state._legal = None
        return state.legal_actions()

    timed("legal_actions (recomputed)", fresh_legal, 20_000)
    timed("clone()", state.clone, 5_000)
    timed("to_json()", state.to_json, 5_000)

    def one_apply() -> None:
        twin = state.clone()
        twin.apply(twin.legal_actions()[0])

    per_clone_apply = timed("clone() + apply(first legal)", one_apply, 5_000)

    def playout() -> None:
        s = GAME.new_state(seed=3)
        b = GAME.bots["random"](seed=3)
        while not s.is_terminal():
            s.apply(b.choose(s))

    per_game = timed("random playout (toy game)", playout, 300, "game")
    print(
        f"  -> {1 / per_game:,.0f} toy games/s; "
        f"clone+apply = {per_clone_apply / per_game:.3f} of a game"
    )

    print("== 5,000-cell board ==")
    board = big_board()
    move = MovementGraph(board, lambda a, b: 2 if board.terrain[b] == "woods" else 1)
    centre = board.cell("50.25")
    for allowance in (3, 8, 20):
        timed(
            f"reachable(allowance={allowance})", lambda a=allowance: move.reachable(centre, a), 200
        )
    timed("path across the board", lambda: move.path(board.cell("0.0"), board.cell("99.49")), 50)
    targets = list(range(0, len(board), 7))
    from omaha.kernel import los

    los.clear_caches()
    start = time.perf_counter()
    for t in targets:
        board.thread(centre, t)
    first = (time.perf_counter() - start) / len(targets)
    start = time.perf_counter()
    for t in targets:
        board.thread(centre, t)
    again = (time.perf_counter() - start) / len(targets)
    print(f"{'board.thread, first time (uncached offsets)':<52s} {first * 1e6:11.1f} us/thread")
    print(f"{'board.thread, cached offsets':<52s} {again * 1e6:11.1f} us/thread")


if __name__ == "__main__":
    main()
