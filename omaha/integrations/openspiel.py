"""OpenSpiel: every omaha game registered with ``pyspiel`` (``pip install omaha[openspiel]``).

    import pyspiel
    from omaha.integrations import openspiel
    openspiel.register_all()
    game = pyspiel.load_game("omaha_lnl", {"scenario": "beach"})
    explicit = pyspiel.load_game("omaha_lnl_explicit")   # chance nodes for every roll

Two versions of each game: ``omaha_<name>`` (sampled chance: the game's own
seeded dice, parameter ``seed``) and ``omaha_<name>_explicit`` (explicit chance:
a chance node before every die roll and card or cup draw, each outcome equally
likely; see :mod:`omaha.kernel.chance`). Players are numbered in the order of
``Game.players``; actions are the fixed numbering of ``Game.action_space``;
observations are ``State.observation``; returns ``State.returns``. States
serialize through OpenSpiel's history (the game is a function of its seed and
its actions, chance outcomes included). ``information_state_string`` is
``State.information_state`` and ``resample_from_infostate`` is ``State.resample``
with a seed drawn from the sampler, so OpenSpiel's information-set search
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``) plays every game without
seeing what its side cannot. No information-state tensor is offered: games run
to 10^5 decisions and more, too long for a fixed-size perfect-recall tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from omaha.kernel.chance import ChanceState
from omaha.kernel.dice import MAX_SEED
from omaha.kernel.observation import ObservationLayout
from omaha.kernel.protocol import Game, Limits, State
from omaha.registry import games, load

__all__ = ["register", "register_all", "short_name"]


def short_name(game: Game[Any], explicit: bool = False) -> str:
    return f"omaha_{game.name}" + ("_explicit" if explicit else "")


class _Observer:
    """OpenSpiel's observer interface over ``State.observation``."""

    def __init__(self, game: OmahaGame) -> None:
        self.game = game
        self.tensor = np.zeros(game.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: OmahaState, player: int) -> None:
        inner = state.inner
        if inner is not None:  # sampled mode, once looked into: the usual case
            inner.observation_into(self.game.omaha.players[player], self.tensor)
            return
        if state.fresh:  # pyspiel observes a new initial state for the tensor's shape
            self.tensor[:] = self.game.initial_observation(player)
            return
        inner = state.position()
        if inner is None:
            self.tensor.fill(0)
        else:
            inner.observation_into(self.game.omaha.players[player], self.tensor)

    def string_from(self, state: OmahaState, player: int) -> str:
        inner = state.position()
        if inner is None:
            return "chance event pending"
        return inner.view(self.game.omaha.players[player]).summary()


class _InformationObserver:
    """OpenSpiel's perfect-recall observer: the string is ``State.information_state``
    (no tensor: see the module doc)."""

    def __init__(self, game: OmahaGame) -> None:
        self.game = game
        self.tensor = None
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: OmahaState, player: int) -> None:
        pass

    def string_from(self, state: OmahaState, player: int) -> str:
        inner = state.position()
        if inner is None:
            return f"chance event pending after {state.history_str()}"
        return inner.information_state(self.game.omaha.players[player])


_BOUNDS: dict[tuple[Game[Any], str], tuple[ObservationLayout, Limits]] = {}


def _bounds(game: Game[Any], scenario: str) -> tuple[ObservationLayout, Limits]:
    """A scenario's observation layout and limits, worked out once: a game is loaded
    again for every new ``seed`` (an episode each), and TCS counts its limits from
    every field domain of the scenario (tens of milliseconds)."""
    key = (game, scenario)
    known = _BOUNDS.get(key)
    if known is None:
        known = _BOUNDS[key] = (game.observation_layout(scenario), game.limits(scenario))
    return known


class OmahaGame(pyspiel.Game):  # type: ignore[misc]
    """An omaha game and scenario as a pyspiel game."""

    omaha: Game[Any]
    explicit: bool

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        scen = self.omaha.load_scenario(params.get("scenario") or None)
        self.scenario = scen.id
        self.seed = int(params.get("seed", 0))
        self.space = self.omaha.action_space(self.scenario)
        self.layout, limits = _bounds(self.omaha, self.scenario)
        self._first: State[Any] | None = None  # the first position, once asked
        self._first_seen: dict[int, np.ndarray] = {}  # what each player observes of it
        low, high = self.omaha.utility_range
        n = len(self.omaha.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=limits.max_chance_outcomes if self.explicit else 0,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if self.omaha.zero_sum else None,
            max_game_length=limits.max_decisions,
        )
        super().__init__(_game_type(self.omaha, self.explicit), info, params)

    def new_initial_state(self) -> OmahaState:
        return OmahaState(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> OmahaGame:
        return self  # a game never changes once made: copies of a state share it

    def initial_position(self) -> State[Any]:
        """A fresh sampled-mode position: a clone of the first, set up once a game.
        pyspiel asks for initial states often (its observation tensor's shape is found
        on a new one at every ``observation_tensor`` call), and a clone keeps the same
        future at a fraction of a set-up's cost."""
        first = self._first
        if first is None:
            first = self._first = self.omaha.new_state(self.scenario, seed=self.seed)
        return first.clone()

    def initial_observation(self, player: int) -> np.ndarray:
        """What ``player`` observes of the first position (sampled mode), computed once."""
        seen = self._first_seen
        if player not in seen:
            seen[player] = self.initial_position().observation(self.omaha.players[player])
        return seen[player]

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> _Observer | _InformationObserver:
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return _InformationObserver(self)
        return _Observer(self)


class OmahaState(pyspiel.State):  # type: ignore[misc]
    """A position: in sampled mode an omaha State; in explicit mode a ChanceState."""

    def __init__(self, game: OmahaGame) -> None:
        super().__init__(game)
        self.players = game.omaha.players
        self.space = game.space  # shared, never copied: the game itself must not be
        self.inner: State[Any] | None = None  # sampled mode: built when first needed
        self.chance: ChanceState | None = None
        self._now: int | None = None  # the player to move, once asked (current_player)
        if game.explicit:
            self.chance = ChanceState(game.omaha, game.scenario)

    @property
    def fresh(self) -> bool:
        """A sampled-mode initial state no one has looked into yet."""
        return self.chance is None and self.inner is None

    def position(self) -> State[Any] | None:
        """The omaha state at a decision or terminal node (None at a chance node)."""
        if self.chance is not None:
            return None if self.chance.is_chance_node() else self.chance.state
        if self.inner is None:
            self.inner = self.get_game().initial_position()
        return self.inner

    def current_player(self) -> int:
        # pyspiel asks this four or five times a step (legal_actions, apply_action,
        # is_chance_node...): worked out once a position, forgotten when an action applies
        now = self._now
        if now is None:
            now = self._now = self._player_now()
        return now

    def _player_now(self) -> int:
        if self.chance is not None and self.chance.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        state = self.position()
        assert state is not None
        if state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        player = state.current_player()
        assert player is not None
        return self.players.index(player)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """pyspiel's ``legal_actions``, answered here at a player's decision: pyspiel's own
        asks ``is_terminal``, ``current_player`` twice and ``_legal_actions`` through its
        C++ layer (2 us a call, a tenth of a small game's decision). Chance nodes, terminal
        states and other players' questions go to pyspiel's, unchanged."""
        now = self.current_player()
        if now >= 0 and (player is None or player == now):
            return self._legal_actions(now)
        return list(super().legal_actions() if player is None else super().legal_actions(player))

    def is_chance_node(self) -> bool:
        return self.current_player() == int(pyspiel.PlayerId.CHANCE)

    def _legal_actions(self, player: int) -> list[int]:
        state = self.position()
        assert state is not None
        return list(state.legal_codes())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.chance is not None
        return self.chance.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._now = None
        chance = self.chance
        if chance is None:  # sampled mode
            inner = self.inner
            if inner is None:
                inner = self.position()
                assert inner is not None
            inner.apply(inner.action_of_code(action))
        elif chance.is_chance_node():
            chance.apply_chance(int(action))
        else:
            chance.apply(self.space.decode(int(action)))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OmahaState:
        """A state ``player_id`` cannot tell from this one, its hidden parts drawn afresh
        (``State.resample``, seeded by a draw of ``probability_sampler``), at a decision
        node of that player's or another's (not at a chance node)."""
        player = self.players[player_id]
        seed = int(probability_sampler() * MAX_SEED)
        twin = OmahaState(self.get_game())
        if self.chance is None:
            inner = self.position()
            assert inner is not None
            twin.inner = inner.resample(player, seed)
            return twin
        if self.chance.is_chance_node():
            raise pyspiel.SpielError("resample_from_infostate at a chance node")
        twin.chance = self.chance.resample(player, seed)
        return twin

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return str(self.space.decode(int(action)))

    def is_terminal(self) -> bool:
        return self.current_player() == int(pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        state = self.position()
        if state is None:
            return [0.0] * len(self.players)
        ret = state.returns()
        return [ret[p] for p in self.players]

    def __str__(self) -> str:
        state = self.position()
        return "chance event pending" if state is None else str(state)


def _game_type(game: Game[Any], explicit: bool) -> Any:
    chance = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=short_name(game, explicit),
        long_name=f"{game.title}{' (explicit chance)' if explicit else ''}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if explicit else chance.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if game.zero_sum
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(game.players),
        min_num_players=len(game.players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"scenario": game.default_scenario, "seed": 0},
    )


def register(game: str | Game[Any]) -> tuple[str, str]:
    """Register a game's sampled and explicit versions; returns their short names."""
    g = load(game) if isinstance(game, str) else game
    names = []
    for explicit in (False, True):
        cls = type(
            f"Omaha{g.name.title().replace('_', '')}{'Explicit' if explicit else ''}",
            (OmahaGame,),
            {"omaha": g, "explicit": explicit},
        )
        pyspiel.register_game(_game_type(g, explicit), cls)
        names.append(short_name(g, explicit))
    return names[0], names[1]


def register_all() -> list[str]:
    """Register every installed game (twice: sampled and explicit chance)."""
    out: list[str] = []
    for name in games():
        if short_name(load(name)) not in pyspiel.registered_names():
            out.extend(register(name))
    return out
