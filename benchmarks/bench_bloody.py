"""Bloody Omaha timings (prints figures, asserts nothing).

Run from the repo root: ``python benchmarks/bench_bloody.py``. The machine is shared
and noisy: compare ratios within one run, not absolute numbers across runs.
"""

from __future__ import annotations

import time

from timing import timed

import omaha
from omaha.kernel.protocol import State

GAME = omaha.load("bloody")


def midgame(seed: int = 3, steps: int = 40) -> State:
    st = GAME.new_state(seed=seed)
    bot = GAME.bots["heuristic"](seed=seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(bot.choose(st))
    return st


def playout(bot: str, seed: int) -> State:
    st = GAME.new_state(seed=seed)
    b = GAME.bots[bot](seed=seed)
    while not st.is_terminal():
        st.apply(b.choose(st))
    return st


def main() -> None:
    st = midgame()
    print(
        f"mid-game position: {st.turn_label}, {st.phase}, {len(st.legal_actions())} legal actions"
    )
    timed("new_state (set-up draws)", lambda: GAME.new_state(seed=1), 200)

    def legal() -> None:
        with st.edit():  # drops the cached legal actions
            pass
        st.legal_actions()

    timed("legal_actions (uncached, mid-game)", legal, 2000)
    action = st.legal_actions()[0]
    timed("clone + apply one action", lambda: st.clone().apply(action), 500)
    timed("clone", st.clone, 1000)
    timed("to_json", st.to_json, 500)
    text = st.to_json()
    timed("state_from_json", lambda: GAME.state_from_json(text), 300)
    timed("view('US')", lambda: st.view("US"), 2000)
    hb = GAME.bots["heuristic"](seed=1)
    timed("heuristic choose (mid-game)", lambda: hb.choose(st), 300)
    for bot, n in (("random", 100), ("heuristic", 40)):
        start = time.perf_counter()
        steps = 0
        for seed in range(n):
            s = playout(bot, seed)
            steps += len(s.actions)
        per = (time.perf_counter() - start) / n
        print(f"{'full playout, ' + bot + ' bot':<52s} {per * 1e3:11.1f} ms/game "
              f"({steps / n:.0f} decisions)")  # fmt: skip
    timed("observation('US') (mid-game)", lambda: st.observation("US"), 2000)
    timed("action_mask (mid-game, cached legal actions)", st.action_mask, 2000)
    print("adapter v direct API: python -m benchmarks.bench_agents --game bloody")


if __name__ == "__main__":
    main()
