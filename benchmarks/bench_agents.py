"""Issue 15: games/s through the agent adapters next to the direct API, every game.

    python -m benchmarks.bench_agents [--games N] [--rounds R] [--game G ...] [--all-scenarios]
    python -m benchmarks.bench_agents --parts [--game G ...]
    python -m benchmarks.bench_agents --plumbing [--game G ...]

``--plumbing`` times each adapter's loop over a state whose answers cost nothing: the
adapter's own floor, under every game's figure.

``--parts`` splits an adapter step into what it costs, per decision, in random games
on one state object (as the adapters use it): the decision itself (``legal_actions``
and ``apply``), the observation of the player to move, the legal action numbers and
the mask; each also as a share of the decision.

The same games played three ways, CPU time, medians over rounds; within a round the
routes take turns game by game, so drift on a shared machine weighs on all of them
alike. The games
are random games recorded first (untimed: a uniform random choice among the legal
actions, from each game's dice seed), then replayed move for move: through the protocol
directly (``legal_actions``, ``apply``); through PettingZoo's AEC loop (``last()``
builds the observation and the mask at every step, the agent plays the recorded number,
which the mask allows); through OpenSpiel's sampled-chance game (``legal_actions`` and
the observation at every step). So every route plays exactly the same decisions, and
the cost of an adapter is its time over the direct API's for the same games (the direct
API is timed on PettingZoo's games, whose dice seeds come from ``reset(seed=...)``, and
on OpenSpiel's, whose ``seed`` parameter is a C++ int: the small seeds themselves).
The row "direct, observing" is the direct API reading the observation of the player to
move at every decision: its cost is the observation's, and an adapter's time over it (on
the same games: "observing, small seeds" for OpenSpiel) is the adapter's own work
(numbers, mask, plumbing), printed in the column "own work".
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import omaha

#: a recorded game: its dice seed and, per decision, (index in the listed order, number)
Recorded = tuple[int, list[tuple[int, int]]]
Runner = Callable[[str, str, list[Recorded]], tuple[int, float]]


def record(game: str, scenario: str, seeds: list[int], policy_seed: int) -> list[Recorded]:
    """Random games (untimed), each as its dice seed and its choices."""
    g = omaha.load(game)
    space = g.action_space(scenario)
    rng = np.random.default_rng(policy_seed)
    out = []
    for seed in seeds:
        st = g.new_state(scenario, seed=seed)
        moves = []
        while not st.is_terminal():
            actions = st.legal_actions()
            k = int(rng.integers(len(actions)))
            moves.append((k, space.encode(actions[k])))
            st.apply(actions[k])
        out.append((seed, moves))
    return out


def direct(
    game: str, scenario: str, games: list[Recorded], observe: bool = False
) -> tuple[int, float]:
    """The recorded games through the protocol: (decisions, CPU seconds). ``observe``
    reads the observation of the player to move at every decision (what an agent on
    the direct API reads): the adapters' own work is their time over that."""
    g = omaha.load(game)
    decisions = 0
    start = time.process_time()
    for seed, moves in games:
        st = g.new_state(scenario, seed=seed)
        for k, _code in moves:
            if observe:
                st.observation(st.current_player() or "")
            st.apply(st.legal_actions()[k])
        decisions += len(moves)
        assert st.is_terminal()
    return decisions, time.process_time() - start


def direct_observing(game: str, scenario: str, games: list[Recorded]) -> tuple[int, float]:
    """:func:`direct`, observing at every decision."""
    return direct(game, scenario, games, observe=True)


def pettingzoo(game: str, scenario: str, games: list[Recorded]) -> tuple[int, float]:
    """The recorded games through PettingZoo's AEC loop (observation and mask each step);
    ``games`` carry the seed given to ``reset``."""
    from omaha.integrations.pettingzoo import raw_env

    env = raw_env(game, scenario)
    decisions = 0
    start = time.process_time()
    for seed, moves in games:
        env.reset(seed=seed)
        plan = iter(moves)
        for _agent in env.agent_iter():
            obs, _reward, done, _cut, _info = env.last()
            if done:
                env.step(None)
                continue
            _k, code = next(plan)
            assert obs["action_mask"][code]
            env.step(code)
            decisions += 1
    return decisions, time.process_time() - start


def openspiel(
    game: str, scenario: str, games: list[Recorded], tensor: bool = False
) -> tuple[int, float]:
    """The recorded games through OpenSpiel (legal action list and observation each step).

    The observation is read as OpenSpiel's Python algorithms read a Python game's:
    through ``open_spiel.python.observation.make_observation`` (the game's observer
    writes a numpy tensor). ``tensor=True`` reads ``state.observation_tensor(player)``
    instead, which pyspiel returns as a Python list of floats (its own cost, one float
    object per number: see ``--tensor``).
    """
    import pyspiel
    from open_spiel.python.observation import make_observation

    from omaha.integrations import openspiel as adapter

    adapter.register_all()
    short = adapter.short_name(omaha.load(game))
    decisions = 0
    start = time.process_time()
    for seed, moves in games:
        ospiel = pyspiel.load_game(short, {"scenario": scenario, "seed": seed})
        observer = make_observation(ospiel)
        st = ospiel.new_initial_state()
        for _k, code in moves:
            player = st.current_player()
            if tensor:
                st.observation_tensor(player)
            else:
                observer.set_from(st, player)
            assert code in st.legal_actions()
            st.apply_action(code)
        assert st.is_terminal()
        decisions += len(moves)
    return decisions, time.process_time() - start


def openspiel_tensor(game: str, scenario: str, games: list[Recorded]) -> tuple[int, float]:
    """OpenSpiel with ``state.observation_tensor`` (a Python list) at every step."""
    return openspiel(game, scenario, games, tensor=True)


def game_seeds(game: str, scenario: str, seeds: list[int]) -> list[int]:
    """The dice seed PettingZoo's ``reset(seed=s)`` gives each game."""
    from omaha.integrations.pettingzoo import raw_env

    env = raw_env(game, scenario)
    out = []
    for seed in seeds:
        env.reset(seed=seed)
        assert env.state is not None and env.state.seed is not None
        out.append(env.state.seed)
    return out


def measure(
    game: str, scenario: str, games: int, rounds: int, tensor: bool = False
) -> dict[str, Any]:
    seeds = list(range(1000, 1000 + games))
    dice = game_seeds(game, scenario, seeds)
    pz_games = record(game, scenario, dice, 0)
    runs: dict[str, tuple[Runner, list[Recorded]]] = {
        "direct": (direct, pz_games),
        "direct, observing": (direct_observing, pz_games),
        # the same games, each under the seed reset() turns into its dice seed
        "pettingzoo": (pettingzoo, [(s, g[1]) for s, g in zip(seeds, pz_games, strict=True)]),
    }
    try:
        import pyspiel  # noqa: F401

        small = record(game, scenario, seeds, 0)
        runs["direct, small seeds"] = (direct, small)
        runs["observing, small seeds"] = (direct_observing, small)
        runs["openspiel"] = (openspiel, small)
        if tensor:
            runs["openspiel, tensor list"] = (openspiel_tensor, small)
    except ImportError:
        pass
    rates: dict[str, list[float]] = {name: [] for name in runs}
    steps: dict[str, int] = {}
    names = list(runs)
    for _ in range(rounds):
        spent = dict.fromkeys(names, 0.0)
        decided = dict.fromkeys(names, 0)
        # game by game, every route in turn (the first route of each game rotating): the
        # machine's drift weighs on every route alike (a full collection before each
        # would not: it empties the interpreter's free lists, 10 us a decision of
        # bloody's short games)
        for i in range(games):
            for name in names[i % len(names) :] + names[: i % len(names)]:
                run, recorded = runs[name]
                decisions, seconds = run(game, scenario, recorded[i : i + 1])
                spent[name] += seconds
                decided[name] += decisions
        for name in names:
            rates[name].append(games / spent[name])
            steps[name] = decided[name]
    medians = {name: statistics.median(r) for name, r in rates.items()}
    return {"rates": medians, "decisions": {n: d / games for n, d in steps.items()}}


def parts(game: str, scenario: str, games: int) -> dict[str, float]:
    """Microseconds per decision of each part of an adapter step (wall clock, summed)."""
    g = omaha.load(game)
    clock = time.perf_counter
    spent = dict.fromkeys(("decision", "observation", "codes", "mask"), 0.0)
    decisions = 0
    rng = np.random.default_rng(0)
    for seed in range(-1, games):  # game -1 warms what a game keeps per scenario
        if seed == 0:
            spent = dict.fromkeys(spent, 0.0)
            decisions = 0
        st = g.new_state(scenario, seed=abs(seed) * 7919)
        while not st.is_terminal():
            player = st.current_player()
            assert player is not None
            t0 = clock()
            st.observation(player)
            t1 = clock()
            st.legal_codes()
            t2 = clock()
            st.action_mask()
            t3 = clock()
            actions = st.legal_actions()
            st.apply(actions[int(rng.integers(len(actions)))])
            t4 = clock()
            spent["observation"] += t1 - t0
            spent["codes"] += t2 - t1
            spent["mask"] += t3 - t2
            spent["decision"] += t4 - t3
            decisions += 1
    return {k: v / decisions * 1e6 for k, v in spent.items()}


class FreeState:
    """A stand-in for a game state whose every answer costs nothing (a kept
    observation, a kept mask, a game that never ends): what an adapter step costs
    over it is the adapter's own plumbing, the floor under every game's cost."""

    seed = 1

    def __init__(self, observation_size: int, mask_size: int, player: str) -> None:
        self.obs = np.zeros(observation_size, np.float32)
        self.mask = np.zeros(mask_size, np.int8)
        self.player = player

    def is_terminal(self) -> bool:
        return False

    def current_player(self) -> str:
        return self.player

    def action_mask(self) -> np.ndarray:
        return self.mask

    def observation(self, player: str) -> np.ndarray:
        return self.obs

    def observation_into(self, player: str, out: np.ndarray) -> None:
        pass

    def action_of_code(self, code: int) -> int:
        return code

    def apply(self, action: int) -> None:
        pass

    def legal_codes(self) -> tuple[int, ...]:
        return (1, 2, 3)


def plumbing(game: str, steps: int) -> dict[str, float]:
    """Microseconds a step of each adapter's loop over a :class:`FreeState` of
    ``game``'s default scenario (PettingZoo: ``last`` and ``step``; OpenSpiel: the
    player, the observer, the legal actions and ``apply_action``)."""
    from omaha.integrations.pettingzoo import raw_env

    g = omaha.load(game)
    scenario = g.scenarios()[0]
    player = g.players[0]
    free = FreeState(g.observation_layout(scenario).size, g.action_size(scenario), player)
    out: dict[str, float] = {}
    env = raw_env(game, scenario)
    env.reset(seed=1)
    env.state = free  # type: ignore[assignment]
    env.agent_selection = player
    start = time.process_time()
    for _ in env.agent_iter(steps):
        env.last()
        env.step(1)
    out["pettingzoo"] = (time.process_time() - start) / steps * 1e6
    try:
        import pyspiel
        from open_spiel.python.observation import make_observation
    except ImportError:
        return out
    from omaha.integrations import openspiel as adapter

    adapter.register_all()
    ospiel = pyspiel.load_game(adapter.short_name(g), {"scenario": scenario})
    observer = make_observation(ospiel)
    st = ospiel.new_initial_state()
    st.position()
    st.inner = free
    start = time.process_time()
    for _ in range(steps):
        now = st.current_player()
        observer.set_from(st, now)
        st.legal_actions()
        st.apply_action(1)
    out["openspiel"] = (time.process_time() - start) / steps * 1e6
    return out


def print_parts(names: list[str], games: int) -> None:
    print(
        f"{'game/scenario':<26}"
        + "".join(f"{k:>18}" for k in ("decision", "observation", "codes", "mask"))
    )
    for game in names:
        scenario = omaha.load(game).scenarios()[0]
        us = parts(game, scenario, games)
        row = f"{us['decision']:15.1f} us"
        for k in ("observation", "codes", "mask"):
            row += f"{us[k]:9.1f} us {us[k] / us['decision'] * 100:4.0f}%"
        print(f"{game + '/' + scenario:<26}{row}", flush=True)


#: each route's cost is its time over the direct API's on the same games (the issue's
#: bound: observation building included) ...
BASELINE = {
    "direct, observing": "direct",
    "pettingzoo": "direct",
    "observing, small seeds": "direct, small seeds",
    "openspiel": "direct, small seeds",
    "openspiel, tensor list": "direct, small seeds",
}
#: ... and an adapter's own work is its time over the direct API observing at every
#: decision, on the same games (numbers, mask and plumbing; the observation left out)
OWN_BASELINE = {
    "pettingzoo": "direct, observing",
    "openspiel": "observing, small seeds",
    "openspiel, tensor list": "observing, small seeds",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games a round (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument(
        "--all-scenarios", action="store_true", help="every shipped scenario, not the default"
    )
    parser.add_argument("--parts", action="store_true", help="what each part of a step costs")
    parser.add_argument(
        "--plumbing",
        action="store_true",
        help="each adapter's own cost a step, over a state that costs nothing",
    )
    parser.add_argument(
        "--tensor",
        action="store_true",
        help="also OpenSpiel through state.observation_tensor (a list of floats a step)",
    )
    args = parser.parse_args()
    if args.parts:
        print_parts(args.game or omaha.games(), min(args.games, 5))
        return
    if args.plumbing:
        print(f"{'game':<26}{'through':<24}{'us/step':>10}  (over a state that costs nothing)")
        for game in args.game or omaha.games():
            for route, us in plumbing(game, 50_000).items():
                print(f"{game:<26}{route:<24}{us:10.2f}", flush=True)
        return
    print(
        f"{'game/scenario':<26}{'through':<24}{'games/s':>10}{'us/decision':>13}"
        f"{'cost':>8}{'own work':>10}"
    )
    for game in args.game or omaha.games():
        g = omaha.load(game)
        try:
            g.action_space()
        except NotImplementedError as exc:
            print(f"{game:<26}{exc}")
            continue
        for scenario in g.scenarios() if args.all_scenarios else g.scenarios()[:1]:
            fig = measure(game, scenario, args.games, args.rounds, args.tensor)
            label = f"{game}/{scenario}"
            for name, rate in fig["rates"].items():
                per = 1e6 / (rate * fig["decisions"][name])
                row = f"{label:<26}{name:<24}{rate:10.2f}{per:13.1f}"
                for table, width in ((BASELINE, 8), (OWN_BASELINE, 10)):
                    base = table.get(name)
                    over = f"{(fig['rates'][base] / rate - 1) * 100:+.0f}%" if base else ""
                    row += f"{over:>{width}}"
                print(row.rstrip(), flush=True)


if __name__ == "__main__":
    main()
