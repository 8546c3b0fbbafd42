"""PettingZoo: every omaha game as an ``AECEnv`` (``pip install omaha[pettingzoo]``).

    from omaha.integrations.pettingzoo import env
    e = env("lnl", scenario="beach")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            action = None
        else:
            action = e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are the game's sides (one in a solo game). Actions are the game's fixed
numbering (``Discrete(game.action_size(scenario))``) with a mask in every
observation; the observation is ``State.observation(agent)``; rewards come from
``State.returns()`` when the game ends. A game ends by its rules, never by
truncation. ``reset(seed=...)`` seeds the game's dice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from omaha.kernel.dice import MAX_SEED
from omaha.kernel.protocol import Game, State
from omaha.registry import load

__all__ = ["OmahaEnv", "env", "raw_env"]


class OmahaEnv(AECEnv):  # type: ignore[misc]
    """One omaha game and scenario as a PettingZoo AEC environment."""

    #: PettingZoo reads the class's metadata; each instance adds its own name.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[Any],
        scenario: str | Path | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game: Game[Any] = load(game) if isinstance(game, str) else game
        self.scenario = self.game.load_scenario(scenario).id
        self.metadata = dict(self.metadata, name=f"omaha_{self.game.name}_{self.scenario}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not 'ansi'")
        self.render_mode = render_mode
        self.space = self.game.action_space(self.scenario)
        self.layout = self.game.observation_layout(self.scenario)
        self.possible_agents = list(self.game.players)
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        -np.inf, np.inf, shape=(self.layout.size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(self.space.size,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.state: State[Any] | None = None
        self._seeds = np.random.SeedSequence()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.SeedSequence(seed)
        game_seed = int(self._seeds.spawn(1)[0].generate_state(1, np.uint64)[0]) % MAX_SEED
        self.state = self.game.new_state(self.scenario, seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        """The agent to move next; at the end, everyone's return as their reward."""
        state = self.state
        assert state is not None
        if state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
            returns = state.returns()
            self.rewards = {a: returns[a] for a in self.agents}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            player = state.current_player()
            assert player is not None
            self.agent_selection = player

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state
        assert state is not None
        if agent == self.agent_selection and not state.is_terminal():
            mask = state.action_mask()
        else:
            mask = np.zeros(self.space.size, dtype=np.int8)
        return {"observation": state.observation(agent), "action_mask": mask}

    def step(self, action: Any) -> None:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        # a numpy integer is taken as its int; anything else illegal raises IllegalAction
        state.apply(state.action_of_code(action))
        # rewards are all 0 from reset() until the step that ends the game sets them
        self._select()

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return str(self.state)

    def close(self) -> None:
        self.state = None


def raw_env(game: str | Game[Any], scenario: str | Path | None = None, **kwargs: Any) -> OmahaEnv:
    """The environment without PettingZoo's wrappers."""
    return OmahaEnv(game, scenario, **kwargs)


def env(game: str | Game[Any], scenario: str | Path | None = None, **kwargs: Any) -> Any:
    """The environment with PettingZoo's usual checks (out-of-bounds actions, call order)."""
    wrapped: Any = wrappers.AssertOutOfBoundsWrapper(raw_env(game, scenario, **kwargs))
    return wrappers.OrderEnforcingWrapper(wrapped)
