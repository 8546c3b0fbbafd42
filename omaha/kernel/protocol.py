"""The protocol every game honours: ``Game``, ``State``, bots, outcomes, views.

A game module subclasses :class:`Game` and :class:`State`. The base classes do
the bookkeeping every game shares, so each game writes only its rules:

* ``apply`` validates before it changes anything (an illegal action raises
  :class:`~omaha.errors.IllegalAction` and leaves the state as it was); an
  unexpected error part-way marks the state unusable instead of carrying on;
* ``legal_actions`` is a sorted tuple, cached until the next ``apply``;
* a decision with a single option resolves itself, and is logged;
* ``clone``, snapshots (``to_json``) and game records are generic.

A game implements ``_legal_actions``, ``_apply``, ``pending``,
``is_terminal``, ``outcome``, ``metrics``, ``view``, ``_dump`` and
``_restore``; optionally ``_check_plan`` for whole-plan actions that are
validated but never enumerated, ``explain_illegal`` for a precise message,
``_drop_caches`` when it caches anything derived from its fields, and
``_legal_actions_in_order`` when it can list its actions in notation order
without formatting them.

Both base classes are generic over the game's scenario type, so a game's state
sees its own scenario record without casts. The value types a view is made of
live in :mod:`omaha.kernel.view`; records and snapshots in
:mod:`omaha.kernel.records`; the scenario base in :mod:`omaha.kernel.scenario`.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import tempfile
import weakref
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

from omaha.errors import DataFileError, IllegalAction, RecordError, ScenarioError, StateCorrupted
from omaha.kernel.actions import Action, ActionCodec
from omaha.kernel.board import Board
from omaha.kernel.data import canonical_json
from omaha.kernel.dice import (
    Dice,
    DiceExhausted,
    RandomDice,
    ScriptedDice,
    ScriptedDiceError,
    dice_from_data,
)
from omaha.kernel.encoding import ActionSpace
from omaha.kernel.events import Event
from omaha.kernel.facts import NO_FACTS, Facts, Names, default_names
from omaha.kernel.information import UNSEEN_KIND, Decision, Folded, SeenHistory, fold, start
from omaha.kernel.metrics import Metric
from omaha.kernel.observation import Observation, ObservationLayout
from omaha.kernel.ranks import Ranks
from omaha.kernel.records import SNAPSHOT_FORMAT, SNAPSHOT_VERSION, GameRecord, read_snapshot
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.kernel.scenariofile import embedded, materialize, replaying
from omaha.kernel.view import Mark, Pending, Piece, View

S = TypeVar("S", bound=Scenario)

#: Scenario files (and option forms of shipped scenarios) each game keeps loaded, the
#: most recently used; the shipped scenarios themselves, a fixed few, are always kept.
FILE_SCENARIOS_KEPT = 8
#: Scenarios rebuilt from the files a record or snapshot embeds, kept loaded after their
#: last use (so the same record loaded again is not rebuilt), the most recently used.
EMBEDDED_SCENARIOS_KEPT = 8


# --------------------------------------------------------------------------
# Small value types
# --------------------------------------------------------------------------
@attrs.frozen
class Outcome:
    """How a finished game ended."""

    winner: str | None
    level: str
    points: tuple[tuple[str, float], ...] = ()
    detail: str = ""

    def __str__(self) -> str:
        pts = ", ".join(f"{k} {v:g}" for k, v in self.points)
        return (
            f"{self.level}"
            + (f" ({pts})" if pts else "")
            + (f": {self.detail}" if self.detail else "")
        )


@attrs.frozen
class Limits:
    """Bounds of one scenario, checked on every conformance playout; agents size
    their buffers by them (OpenSpiel's ``max_game_length``, chance outcomes)."""

    max_decisions: int
    max_legal_actions: int
    max_chance_outcomes: int


# --------------------------------------------------------------------------
# Bots
# --------------------------------------------------------------------------
class Bot(Protocol):
    """A policy: picks an action for the player who must decide.

    A bot has its own random generator and never touches the state's dice. A
    bot written for one side raises ``IllegalAction`` when asked to decide for
    the other side.
    """

    def choose(self, state: State[Any]) -> Action: ...


BotFactory = Callable[..., Bot]


class RandomBot:
    """Uniform among the legal actions, with its own dice (never the state's)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = RandomDice(seed)

    def choose(self, state: State[Any]) -> Action:
        actions = state.legal_actions()
        return actions[self.rng.pick(len(actions))]


# --------------------------------------------------------------------------
# Game
# --------------------------------------------------------------------------
class SideBots:
    """One bot made of a bot per side: each decision goes to the bot of the side to move
    (a game's heuristics of both sides, played as one name)."""

    def __init__(self, bots: Mapping[str, Bot]) -> None:
        self.bots = dict(bots)

    def choose(self, state: State[Any]) -> Action:
        player = state.current_player()
        if player is None:
            raise IllegalAction("the game is over")
        return self.bots[player].choose(state)


class Game(ABC, Generic[S]):
    """A rules module behind the registry: metadata, scenarios, bots, codecs."""

    name: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[tuple[str, ...]]
    #: The format of ``State._dump``; snapshots of other versions are refused.
    state_version: ClassVar[int] = 1
    metrics: ClassVar[tuple[Metric, ...]] = ()
    #: The least and most a player's return can be (``State.returns``).
    utility_range: ClassVar[tuple[float, float]] = (-1.0, 1.0)
    #: Runs of a shipped scenario in the default comparison (``omaha compare`` without
    #: ``--runs``) where that scenario's games are too long for the default 100 to fit the
    #: comparison's minute: scenario id -> runs. They are the first runs of the same seeded
    #: sequence, so a larger ``--runs`` extends them.
    comparison_runs: ClassVar[Mapping[str, int]] = {}

    def __init__(self) -> None:
        self.codec = ActionCodec(self.action_classes())
        self._new_caches()

    def _new_caches(self) -> None:
        # shipped scenarios by id (a fixed few); scenario files by resolved path, bounded;
        # scenarios rebuilt from a record's files: by their content, bounded, and by id
        # for as long as anything (a state) holds them; action spaces and the ranks that
        # order legal actions by scenario object
        self._scenarios: dict[str, S] = {}
        self._files: OrderedDict[str, S] = OrderedDict()
        self._rebuilt: OrderedDict[str, S] = OrderedDict()
        self._embedded: weakref.WeakValueDictionary[str, S] = weakref.WeakValueDictionary()
        self._spaces: weakref.WeakKeyDictionary[Scenario, ActionSpace] = weakref.WeakKeyDictionary()
        self._ranks: weakref.WeakKeyDictionary[Scenario, Ranks] = weakref.WeakKeyDictionary()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (with the states that hold it) without its caches."""
        kept = dict(self.__dict__)
        for cache in ("_scenarios", "_files", "_rebuilt", "_embedded", "_spaces", "_ranks"):
            kept.pop(cache, None)
        return kept

    def __setstate__(self, kept: dict[str, Any]) -> None:
        self.__dict__.update(kept)
        self._new_caches()

    @property
    def solo(self) -> bool:
        """A one-player game (the other side is the system)."""
        return len(self.players) == 1

    @property
    def zero_sum(self) -> bool:
        """Whether the players' returns always sum to zero (never for a solo game)."""
        return not self.solo

    def __deepcopy__(self, memo: dict[int, Any]) -> Game[S]:
        return self

    def __repr__(self) -> str:
        return f"<Game {self.name}: {self.title}>"

    # -- what a game supplies ------------------------------------------------
    @abstractmethod
    def action_classes(self) -> Iterable[type[Action]]:
        """Every action class of the game."""

    @abstractmethod
    def scenarios(self) -> tuple[str, ...]:
        """Ids of the shipped scenarios, the default first."""

    @abstractmethod
    def _load_scenario(self, ref: str) -> S:
        """Load a shipped scenario by id, or a scenario file by path."""

    @abstractmethod
    def _state_class(self) -> type[State[S]]:
        """The game's State subclass: built by ``new_state`` and ``state_from_json``."""

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """Bot factories: ``game.bots["random"](seed=1).choose(state)``."""
        return {"random": RandomBot}

    # -- the search agent (omaha.kernel.search) ----------------------------------
    #: Iterations a searched decision by default, and the longest rollout in decisions
    #: from the root, for the search agent (``omaha.kernel.search.SearchBot``, which a
    #: game lists as ``bots["search"]``): each game sizes them so that a whole game
    #: stays affordable.
    search_iterations: ClassVar[int] = 32
    search_depth: ClassVar[int] = 40
    #: How the agent searches by default: ``"tree"`` (ISMCTS) or ``"paired"`` (the
    #: heuristic's best few candidates played out in the same worlds with the same
    #: dice, ``omaha.kernel.search``), how many candidates ``"paired"`` compares, and
    #: whether a rollout stops at the end of the turn (else at ``search_depth`` or the
    #: end of the game).
    search_method: ClassVar[str] = "tree"
    search_width: ClassVar[int] = 4
    search_turn_end: ClassVar[bool] = True
    #: ``"paired"`` overrides the heuristic only when the best candidate's mean paired
    #: gain is above zero by this many standard errors (``omaha.kernel.search``).
    search_margin: ClassVar[float] = 1.5

    def evaluate(self, state: State[S], player: str) -> float:
        """``state`` for ``player`` in [0, 1] (``State.evaluate``): by default the
        return scaled from ``utility_range`` at the end of the game, 0.5 before. A
        game grades unfinished positions by its victory conditions."""
        if not state.is_terminal():
            return 0.5
        low, high = self.utility_range
        return (state.returns()[player] - low) / (high - low)

    def worth_search(self, state: State[S]) -> bool:
        """Whether ``state``'s pending decision is worth a search (``State.worth_search``):
        every decision with a choice, unless a game names the ones that are."""
        return True

    # -- the shared surface --------------------------------------------------
    def bot_sides(self, bot: str) -> tuple[str, ...]:
        """The sides ``bot`` can play (every side, unless a game says otherwise; the
        search agent plays the sides its prior, the heuristic, plays)."""
        if bot not in self.bots:
            raise KeyError(f"{self.name} has no bot {bot!r} (bots: {', '.join(sorted(self.bots))})")
        if bot == "search" and "heuristic" in self.bots:
            return self.bot_sides("heuristic")
        return self.players

    def lineup(self, bot: str) -> dict[str, str]:
        """Which bot plays each side when the user asks for ``bot``.

        By default every side plays ``bot``; a game may pair a one-sided bot
        with its natural opponent (LnL: heuristic US against the solitaire German).
        ``search`` plays the sides it can, each other side the bot that faces the
        heuristic there.
        """
        if bot not in self.bots:
            raise KeyError(f"{self.name} has no bot {bot!r} (bots: {', '.join(sorted(self.bots))})")
        if bot == "search" and "heuristic" in self.bots:
            sides = self.bot_sides("search")
            faced = self.lineup("heuristic")
            return {p: "search" if p in sides else faced[p] for p in self.players}
        return {p: bot for p in self.players}

    def not_modelled(self, scenario: str | Path | None = None) -> Mapping[str, str]:
        """The declared metrics ``scenario`` does not model, each with why (by rule):
        their value is NaN in every game of it, and the comparison never compares them.
        By default none."""
        return {}

    def end_hours(self, scenario: str | Path | None = None) -> float | None:
        """When ``scenario``'s last turn ends on the clock of its time-to-event metrics:
        hours after H-hour (06:30, 6 June); ``None`` when it is not on that clock (another
        day, or no time scale). The comparison reports "by the end" figures at this time
        and holds them against history at the same time. By default ``None``."""
        return None

    @property
    def default_scenario(self) -> str:
        return self.scenarios()[0]

    def load_scenario(self, scenario: str | Path | S | None = None) -> S:
        """A shipped scenario id, a path to a scenario file, or None for the default (a
        scenario already loaded is given back as it is).

        Loaded scenarios are kept: the shipped ones always, scenario files by their
        resolved path (so every spelling of one path shares one copy), the most recently
        used :data:`FILE_SCENARIOS_KEPT` of them.
        """
        if isinstance(scenario, Scenario):
            return scenario
        ref = str(scenario) if scenario is not None else self.default_scenario
        known = self._scenarios.get(ref) or self._embedded.get(ref)
        if known is not None:
            return known
        key = self._scenario_key(ref)
        known = self._files.get(key)
        if known is not None:
            self._files.move_to_end(key)
            return known
        scen = self._load_checked(ref)
        if ref in self.scenarios():
            self._scenarios[ref] = scen
        else:
            self._files[key] = scen
            while len(self._files) > FILE_SCENARIOS_KEPT:
                self._files.popitem(last=False)
        return scen

    def kept_scenarios(self) -> dict[str, int]:
        """How many loaded scenarios the game keeps, by kind: ``shipped``; ``files`` (at
        most :data:`FILE_SCENARIOS_KEPT`); ``rebuilt`` from records' files (at most
        :data:`EMBEDDED_SCENARIOS_KEPT`); ``in use``, rebuilt ones a state still holds,
        found by their id; ``spaces``, action spaces, one per scenario still held."""
        return {
            "shipped": len(self._scenarios),
            "files": len(self._files),
            "rebuilt": len(self._rebuilt),
            "in use": len(self._embedded),
            "spaces": len(self._spaces),
        }

    def _load_checked(self, ref: str) -> S:
        try:
            return self._load_scenario(ref)
        except OSError as exc:  # a name the file system refuses (too long, ...)
            why = exc.strerror or type(exc).__name__
            raise ScenarioError(ref[:80], "", f"cannot be read ({why})") from None

    def _scenario_key(self, ref: str) -> str:
        """What a reference that is not a shipped id is kept under: the file's resolved
        path. A game whose references carry more than a path (options) extends it."""
        try:
            return str(Path(ref).resolve())
        except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL byte, ...
            return ref

    def new_state(
        self,
        scenario: str | Path | S | None = None,
        *,
        seed: int = 0,
        dice: Dice | None = None,
    ) -> State[S]:
        """Start a game; ``dice`` (e.g. :class:`ScriptedDice`) replaces the seeded dice."""
        scen = self.load_scenario(scenario)
        cls = self._state_class()
        state = cls.__new__(cls)
        State._init_base(
            state,
            self,
            scen,
            dice if dice is not None else RandomDice(seed),
            seed if dice is None else None,
        )
        state._setup()
        state._settle()
        return state

    def parse_action(self, text: str) -> Action:
        """Read an action written in player notation."""
        return self.codec.parse(text)

    def action_from_data(self, data: object) -> Action:
        """An action from its tagged JSON form (``ValueError`` if it is not one)."""
        return self.codec.from_data(data)

    def state_from_json(self, text: str, name: str = "snapshot") -> State[S]:
        """Restore a snapshot written by :meth:`State.to_json`.

        Anything wrong with it is a :class:`~omaha.errors.RecordError` naming ``name``.
        """
        env = read_snapshot(text, game=self.name, state_version=self.state_version, name=name)
        try:
            files = tuple((f["name"], f["text"]) for f in env["scenario"].get("files", []))
            scen = self._record_scenario(
                env["scenario"]["id"], env["scenario"]["hash"], files, name
            )
            if scen.hash != env["scenario"]["hash"]:
                raise RecordError(
                    name,
                    "scenario.hash",
                    f"scenario {scen.id!r} has changed since the snapshot was taken "
                    f"(hash {scen.hash} != {env['scenario']['hash']})",
                )
            cls = self._state_class()
            state = cls.__new__(cls)
            State._init_base(state, self, scen, dice_from_data(env["rng"]), env["seed"])
            state.log = [Event.from_data(e) for e in env["log"]]
            state.actions = [self.action_from_data(a) for a in env["actions"]]
            state.decisions = _decisions_from_data(env["decisions"], len(state.actions))
            state._restore(env["state"])
            problems = state.invariants()
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise RecordError(name, "", f"is not a complete {self.name} snapshot ({exc})") from None
        if problems:
            raise RecordError(name, "state", "; ".join(problems))
        return state

    def _record_scenario(
        self, ref: str, digest: str, files: tuple[tuple[str, str], ...], name: str
    ) -> S:
        """The scenario a record or snapshot names: shipped or found by its path when it
        is there unchanged, else rebuilt from the files the record embeds."""
        if not files:
            try:
                return self.load_scenario(ref)
            except ScenarioError as exc:
                raise RecordError(name, "scenario", f"cannot be loaded: {exc}") from None
        with contextlib.suppress(ScenarioError):
            if Path(ref).is_file() and self.load_scenario(ref).hash == digest:
                return self.load_scenario(ref)
        key = _files_key(ref, files)
        scen = self._rebuilt.get(key)
        if scen is None:
            scen = self._rebuild(ref, files, name)
            self._embedded[scen.id] = scen  # found by its id while in use
        self._rebuilt[key] = scen
        self._rebuilt.move_to_end(key)
        while len(self._rebuilt) > EMBEDDED_SCENARIOS_KEPT:
            self._rebuilt.popitem(last=False)
        return scen

    def _rebuild(self, ref: str, files: tuple[tuple[str, str], ...], name: str) -> S:
        """Load the scenario ``files`` hold, written to a temporary folder that is removed
        once it is loaded (a scenario reads its files when loaded, never after)."""
        with tempfile.TemporaryDirectory(prefix="omaha-scenario-") as folder:
            try:
                main = materialize(files, Path(folder))
                with replaying(Path(folder)):  # an absolute name: the record's copy
                    return self._load_embedded(main, ref)
            except ScenarioError as exc:
                raise RecordError(
                    name, "scenario.files", f"the embedded scenario is unusable: {exc}"
                ) from None
            except OSError as exc:
                raise RecordError(
                    name, "scenario.files", f"cannot be written out ({exc.strerror or exc})"
                ) from None

    def _load_embedded(self, main: Path, ref: str) -> S:
        """The scenario whose file, written out from a record, is ``main``; ``ref`` is the
        reference the record names (a game whose references carry options reads them)."""
        return self._load_checked(str(main))

    def provenance(self, scenario: str | Path | None = None) -> tuple[ProvenanceItem, ...]:
        """Where every component of a scenario comes from."""
        return self.load_scenario(scenario).provenance

    def validate_file(self, path: str | Path) -> list[DataFileError]:
        """Every problem of a scenario file (and the components it names), without
        playing it; empty when it loads. A game with a schema reports all problems
        at once; the default reports the first one the loader meets."""
        try:
            self._load_scenario(str(path))
        except DataFileError as exc:
            return [exc]
        return []

    # -- the agent surface (encodings, observations, bounds) -------------------
    def limits(self, scenario: str | Path | None = None) -> Limits:
        """Bounds of a scenario: decisions in a game, legal actions at one decision,
        outcomes of one chance event. A game states its own."""
        raise NotImplementedError(f"{self.name} states no limits")

    def field_domains(self, scenario: S) -> Mapping[str, Sequence[Any]]:
        """The values each action field may take in ``scenario``, by field name
        (``"unit"``) or by class and field (``"Fire.target"``); see
        :mod:`omaha.kernel.encoding`."""
        raise NotImplementedError(f"{self.name} declares no action encoding")

    def observation_layout(self, scenario: str | Path | None = None) -> ObservationLayout:
        """What each number of ``State.observation`` means in a scenario."""
        raise NotImplementedError(f"{self.name} declares no observation")

    def action_space(self, scenario: str | Path | S | None = None) -> ActionSpace:
        """The fixed numbering of this game's actions in a scenario (for agents)."""
        scen = self.load_scenario(scenario)
        space = self._spaces.get(scen)
        if space is None:
            space = self._spaces[scen] = ActionSpace(
                self.action_classes(), self.field_domains(scen)
            )
        return space

    def ranks(self, scenario: S) -> Ranks:
        """The table that puts ``scenario``'s legal actions in notation order
        (:class:`~omaha.kernel.ranks.Ranks`), shared by all its states."""
        table = self._ranks.get(scenario)
        if table is None:
            table = self._ranks[scenario] = Ranks()
        return table

    def action_size(self, scenario: str | Path | None = None) -> int:
        return self.action_space(scenario).size

    def encode(self, action: Action, scenario: str | Path | None = None) -> int:
        """The number of ``action`` in the scenario's action space."""
        return self.action_space(scenario).encode(action)

    def decode(self, code: int, scenario: str | Path | None = None) -> Action:
        """The action numbered ``code`` in the scenario's action space."""
        return self.action_space(scenario).decode(code)

    def replay(
        self, record: GameRecord, *, scripted: bool = False, name: str = "record"
    ) -> State[S]:
        """Replay a game record; ``scripted`` uses the recorded dice, not the seed.

        A record of another game, of a changed scenario, with an action that is
        illegal on replay, with other dice than the replay draws or with another result
        than the replay gives is a :class:`~omaha.errors.RecordError` naming ``name``.
        """
        if record.game != self.name:
            raise RecordError(name, "game", f"the record is of {record.game!r}, not {self.name!r}")
        scen = self._record_scenario(record.scenario, record.scenario_hash, record.files, name)
        if scen.hash != record.scenario_hash:
            raise RecordError(
                name,
                "scenario.hash",
                f"scenario {record.scenario!r} has changed since the game was recorded",
            )
        try:
            state = self._replay_actions(record, scen, scripted, name)
        except (DiceExhausted, ScriptedDiceError) as exc:
            raise RecordError(
                name, "dice", f"the recorded dice do not fit the game: {exc}"
            ) from None
        result = str(state.outcome()) if state.is_terminal() else None
        if record.result != result:
            said = "no result" if record.result is None else f"the result {record.result!r}"
            got = f"{result!r}" if result is not None else "an unfinished game"
            raise RecordError(name, "result", f"the record states {said}; its replay gives {got}")
        return state

    def _replay_actions(self, record: GameRecord, scen: S, scripted: bool, name: str) -> State[S]:
        if scripted or record.seed is None:
            state = self.new_state(scen, dice=ScriptedDice(record.dice))
        else:
            state = self.new_state(scen, seed=record.seed)
        diverged = RecordError(
            name,
            "dice",
            "replay drew other dice than the record: the random stream differs; "
            "replay with scripted=True to use the recorded dice",
        )
        for number, data in enumerate(record.actions, start=1):
            if state.dice.drawn != list(record.dice[: state.dice.count]):
                raise diverged
            try:
                action = self.codec.from_record(data)
            except ValueError as exc:
                raise RecordError(name, f"actions[{number - 1}]", str(exc)) from None
            try:
                state.apply(action)
            except IllegalAction as exc:
                if state.dice.drawn != list(record.dice[: state.dice.count]):
                    raise diverged from None
                raise RecordError(
                    name, f"actions[{number - 1}]", f"is illegal on replay: {exc}"
                ) from None
        if list(record.dice) != state.dice.drawn:
            raise diverged
        return state


# --------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------
class State(ABC, Generic[S]):
    """A game in progress. Subclasses implement the rules; see the module doc.

    ``Game.new_state`` builds a state with the base fields set and then calls
    :meth:`_setup`, where a game sets its own fields and runs the procedures up
    to the first decision; ``Game.state_from_json`` calls :meth:`_restore`
    instead.
    """

    #: Resolve decisions that have a single legal option automatically.
    auto_single: ClassVar[bool] = True

    @staticmethod
    def _init_base(
        state: State[S], game: Game[S], scenario: S, dice: Dice, seed: int | None
    ) -> None:
        state.game = game
        state.scenario = scenario
        state.dice = dice
        state.seed = seed
        state.log = []
        state.actions = []
        state.decisions = []
        state._seen = {}
        state._views = {}
        state._legal = None
        state._legal_set = None
        state._legal_numbers = None
        state._listed_numbers = None
        state._listed_index = None
        state._mover = None
        state._coded = None
        state._broken = None

    game: Game[S]
    scenario: S
    dice: Dice
    seed: int | None
    log: list[Event]
    actions: list[Action]
    #: Where in the log each recorded action was taken, and by whom (information sets).
    decisions: list[Decision]
    _seen: dict[str, Folded]  # each player's history folded so far (information_state)
    #: Each player's view of the history as far as a resample needed it (not copied by
    #: clones: a copy's view is built again if it is resampled).
    _views: dict[str, SeenHistory]
    _legal: tuple[Action, ...] | None
    _legal_set: frozenset[Action] | None
    _legal_numbers: tuple[int, ...] | None
    _listed_numbers: list[int] | None  # the legal actions' numbers, in their listed order
    _listed_index: npt.NDArray[np.intp] | None  # the same as an index array (for the mask)
    _mover: tuple[str | None] | None  # the player to move, once asked (kept like _legal)
    _coded: Action | None  # the listed action action_of_code last gave (kept like _legal)
    _broken: str | None
    #: The scenario's action space once asked (:meth:`_action_space`): shared, never
    #: changed, so clones and copies keep it.
    _space: ActionSpace | None = None

    # -- what a game implements ----------------------------------------------
    @abstractmethod
    def _setup(self) -> None:
        """Set the game's own fields for a new game and advance to its first decision."""

    @property
    @abstractmethod
    def pending(self) -> Pending | None:
        """The decision awaited, or None when the game is over."""

    @abstractmethod
    def _legal_actions(self) -> Iterable[Action]:
        """Every legal action for the pending decision."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a validated action and run the procedures up to the next decision."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once terminal (None before)."""

    @abstractmethod
    def metrics(self) -> dict[str, float]:
        """The game's declared metrics (see ``Game.metrics``)."""

    @abstractmethod
    def view(self, player: str | None = None) -> View:
        """What ``player`` may see (None: an observer who sees everything)."""

    @abstractmethod
    def _dump(self) -> dict[str, Any]:
        """The game-specific state as JSON-able data with printed labels."""

    @abstractmethod
    def _restore(self, data: dict[str, Any]) -> None:
        """Inverse of :meth:`_dump` (the base fields are already set)."""

    @property
    @abstractmethod
    def turn_label(self) -> str:
        """The current turn as printed on the track."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """The current phase name."""

    def plans(self) -> dict[str, Action]:
        """Whole plans the player to move may choose in one step now, by name (a
        shipped set-up, the historical landing plan): actions that are legal
        without being listed (see ``_check_plan``). None by default."""
        return {}

    def names(self, action: Action, piece_ids: Collection[str] | None = None) -> Names:
        """The cells and pieces ``action`` names, in pointing order: what to select,
        then the cell the choice is made on (see :mod:`omaha.kernel.facts`).
        ``piece_ids``: the pieces the player to move sees, if known already."""
        return default_names(self, action, piece_ids)

    def facts(self, action: Action) -> Facts:
        """What ``action`` would do, told before it is made: text lines, a short
        label for the map and the chance of each result (see
        :mod:`omaha.kernel.facts`). None by default."""
        return NO_FACTS

    def _check_plan(self, action: Action) -> None:
        """Validate an action that is legal without being enumerated (a whole plan)."""
        raise IllegalAction(self.explain_illegal(action))

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now (a game may say more precisely)."""
        pend = self.pending
        wanted = f" (waiting for {pend.player}: {pend.prompt})" if pend else ""
        return f"'{action}' is not a legal action now{wanted}"

    def invariants(self) -> list[str]:
        """What is inconsistent in this state (empty when sound).

        A game checks what its rules guarantee: stacking, steps within bounds,
        units on legal cells, markers, deck contents, points. Restoring a
        snapshot runs it, so a tampered file is refused, never half-loaded.
        """
        return []

    def _drop_caches(self) -> None:
        """Forget whatever the game caches from its fields (called after every change)."""

    def _legal_actions_in_order(self) -> Sequence[Action]:
        """The legal actions in natural order of notation (:func:`~omaha.kernel.actions.sort_key`),
        put in it by the scenario's ranks (:meth:`_in_order`).

        A game that can put them in that order more cheaply (e.g. actions built in
        order) overrides this; the order must be exactly the one the sort gives.
        """
        return self._in_order(self._legal_actions())

    def _in_order(self, actions: Iterable[Action]) -> list[Action]:
        """``actions`` in natural order of notation, by the scenario's integer ranks
        (exactly :func:`~omaha.kernel.actions.in_notation_order`, without its keys)."""
        return self.game.ranks(self.scenario).order(actions)

    # -- the protocol --------------------------------------------------------
    def current_player(self) -> str | None:
        """Owner of the pending decision; None when terminal. Kept until the next
        change, like the legal actions (agents' adapters ask at every step)."""
        mover = self._mover
        if mover is None:
            mover = self._mover = (self._player_to_move(),)
        return mover[0]

    def _player_to_move(self) -> str | None:
        """The owner of ``pending`` (None when there is none). A game whose prompt costs
        something to word (``Pending`` is built with it) answers this directly; the
        conformance playouts check it agrees with ``pending``."""
        pend = self.pending
        return None if pend is None else pend.player

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions in natural order of notation (A2 before A10); cached until changed."""
        self._usable()
        if self._legal is None:
            if self.is_terminal():
                actions: tuple[Action, ...] = ()
            else:
                actions = tuple(self._legal_actions_in_order())
            self._legal = actions
            self._legal_set = None  # built only when an action not listed by identity comes
            self._legal_numbers = None
            self._listed_numbers = None
            self._listed_index = None
        return self._legal

    def _listed(self, action: object) -> bool:
        """Whether ``action`` is the very object of the legal list (bots and menus hand
        back what they were given): a cheap check that needs no hashing of actions."""
        legal = self.legal_actions()
        return any(a is action for a in legal)

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` is among the listed legal actions (never raises for odd input)."""
        legal = self.legal_actions()
        try:  # equality alone would take True or 1.0 for the 1 of a listed action
            self.game.codec.check(action)
        except IllegalAction:
            return False
        if self._legal_set is None:
            self._legal_set = frozenset(legal)
        return action in self._legal_set

    def apply(self, action: Action) -> None:
        """Carry out ``action``; an illegal one (or anything that is not an action of
        this game, text included: ``game.parse_action`` reads notation) raises
        IllegalAction and changes nothing."""
        self._usable()
        if self.is_terminal():
            raise IllegalAction(f"the game is over; '{action}' cannot be played")
        # the listed object action_of_code gave, or any listed object, needs no check;
        # anything else is checked field by field first
        coded = self._coded
        if (coded is None or action is not coded) and not self._listed(action):
            self.game.codec.check(action)
            if not self.is_legal(action):
                self._check_plan(action)
        decision = (len(self.log), self.current_player())
        self._do(action)
        self.actions.append(action)
        self.decisions.append(decision)
        self._settle()

    def pop(self) -> Action:
        """Take back the last decision and return it, as python-chess's ``Board.pop``:
        the game is replayed from its seed without it (the dice and every hidden part
        as they were before it). A state with no seed (scripted dice, or reseeded by
        ``clone(seed=)``) cannot be replayed: IllegalAction, nothing changed."""
        self._usable()
        if not self.actions:
            raise IllegalAction("there is no decision to take back")
        if self.seed is None:
            raise IllegalAction("this state has no seed to replay from (scripted or reseeded dice)")
        last = self.actions[-1]
        earlier = self.game.new_state(self.scenario, seed=self.seed)
        for action in self.actions[:-1]:
            earlier.apply(action)
        # this very object becomes the earlier position, as a board does after a pop
        vars(self).clear()
        vars(self).update(vars(earlier))
        return last

    @contextlib.contextmanager
    def edit(self) -> Iterator[None]:
        """Stage a position by hand (tests, scenario tools, analysis).

        Change the state's public fields inside the block; every cache derived
        from them (the legal actions and whatever the game keeps) is dropped
        before and after, so the state reads the new position::

            with state.edit():
                state.units["1/A/116"].steps = 1
        """
        self._usable()
        self._invalidate()
        try:
            yield
        finally:
            self._invalidate()

    def _invalidate(self) -> None:
        self._forget_legal()
        self._drop_caches()

    def _forget_legal(self) -> None:
        """Drop the legal actions and everything derived from them (after any change)."""
        self._legal = None
        self._legal_set = None
        self._legal_numbers = None
        self._listed_numbers = None
        self._listed_index = None
        self._mover = None
        self._coded = None

    def _settle(self) -> None:
        """Resolve single-option decisions (logged, not recorded: replay re-derives them)."""
        if not self.auto_single:
            return
        while not self.is_terminal():
            options = self.legal_actions()
            if len(options) != 1:
                break
            only = options[0]
            self.note("kernel.forced", "", player=self.current_player(), action=str(only))
            self._do(only)

    def _do(self, action: Action) -> None:
        self._forget_legal()
        try:
            self._apply(action)
        except Exception as exc:
            self._broken = f"{type(exc).__name__}: {exc}"
            raise
        self._forget_legal()

    def _usable(self) -> None:
        if self._broken is not None:
            raise StateCorrupted(f"this state was left half-changed by an error ({self._broken})")

    def note(
        self,
        kind: str,
        rule: str,
        *,
        dice: Iterable[int] = (),
        player: str | None = None,
        **details: Any,
    ) -> Event:
        """Append an event stamped with the current turn and phase."""
        event = Event(
            kind, self.turn_label, self.phase, player, rule, tuple(dice), _plain_details(details)
        )
        self.log.append(event)
        return event

    def make_view(
        self,
        player: str | None,
        *,
        pieces: Iterable[Piece] = (),
        marks: Iterable[Mark] = (),
        tracks: Iterable[tuple[str, str]] = (),
        notes: Iterable[str] = (),
        board: Board | None = None,
    ) -> View:
        """A :class:`View` with the header every game fills the same way.

        Game name, scenario title, turn (``turn_label``), phase and pending
        decision come from the state; the game gives what is on the board.
        """
        return View(
            game=self.game.name,
            title=self.scenario.title,
            player=player,
            turn=self.turn_label,
            phase=self.phase,
            board=board if board is not None else self.scenario.board,
            pending=self.pending,
            pieces=tuple(pieces),
            marks=tuple(marks),
            tracks=tuple(tracks),
            notes=tuple(notes),
        )

    def returns(self) -> dict[str, float]:
        """Each player's return: 0 until the end; then, by default, +1 for the
        winner, -1 for the others, 0 each when nobody wins. A game may grade it
        by victory level within ``Game.utility_range``."""
        outcome = self.outcome() if self.is_terminal() else None
        if outcome is None or outcome.winner is None:
            return {p: 0.0 for p in self.game.players}
        return {p: 1.0 if p == outcome.winner else -1.0 for p in self.game.players}

    # -- search (omaha.kernel.search) -------------------------------------------------
    def evaluate(self, player: str) -> float:
        """How good the position is for ``player``, in [0, 1], from the victory
        conditions: the search agent scores its cut rollouts with it. The game's
        ``Game.evaluate`` decides; its default is the return scaled to [0, 1] at the
        end of the game and 0.5 before."""
        return self.game.evaluate(self, player)

    def worth_search(self) -> bool:
        """Whether the pending decision is worth a search (a move, a fire, a plan) or
        is a step the heuristic may take alone (``Game.worth_search``)."""
        return self.game.worth_search(self)

    def observation(self, player: str) -> Observation:
        """What ``player`` may see, as numbers (``Game.observation_layout``)."""
        raise NotImplementedError(f"{self.game.name} declares no observation")

    def observation_into(self, player: str, out: Observation) -> None:
        """Write ``observation(player)`` into ``out``, an array of the layout's size: what
        an observer that keeps one tensor wants (OpenSpiel's), with no array in between.
        The default copies a new observation; a game that keeps its observation between
        calls writes it straight from there."""
        out[...] = self.observation(player)

    # -- information sets (omaha.kernel.information) ---------------------------
    def _event_seen_by(self, event: Event, player: str) -> Event | None:
        """What ``player`` saw of ``event``: the event itself (the default: every event
        is public), a copy without what was hidden from them, or None when they did not
        see it happen. Must give its own result back for that result (a resampled
        state's log holds it)."""
        return event

    def _action_seen_by(self, action: Action, actor: str | None, player: str) -> str | None:
        """What ``player`` saw of ``action``, taken by ``actor``: its notation (the
        default), a shorter text when part of it is hidden from them, or None."""
        return str(action)

    def _redraw_hidden(self, player: str, dice: Dice) -> None:
        """Draw afresh, on this resampled copy, every part of the position hidden from
        ``player``, from the rules' distribution given what they saw (``dice`` for
        every draw: :func:`~omaha.kernel.information.shuffled` deals a pool anew). The
        default draws nothing: a game with nothing hidden but its
        future, which the resample's new dice already change."""

    def _hidden_parts(self, player: str) -> tuple[object, ...]:
        """Every part of the position hidden from ``player``, as comparable values (what
        ``_redraw_hidden`` draws afresh): the tests check that resamples draw them anew.
        Empty for a game that hides nothing but its future."""
        return ()

    def information_state(self, player: str) -> str:
        """Everything ``player`` has observed and done so far, as a canonical string:
        equal for two states exactly when their histories look the same to ``player``.
        Kept per player and brought up to date from the log when asked."""
        self._usable()
        if player not in self.game.players:
            raise ValueError(f"{player!r} is not a player of {self.game.name}")
        folded = self._seen.get(player) or start(self.scenario.hash, player)
        folded = self._seen[player] = fold(
            folded,
            self.log,
            self.decisions,
            self.actions,
            lambda event: self._event_seen_by(event, player),
            lambda action, actor: self._action_seen_by(action, actor, player),
        )
        return f"{self.game.name}:{player}:{folded[2].hex()}"

    def resample(self, player: str, seed: int) -> State[S]:
        """A state ``player`` cannot tell from this one (the same information state),
        with every part hidden from them drawn afresh and new dice seeded by ``seed``:
        a world for search. Its history is what ``player`` saw, so it is not a record
        that replays."""
        self.information_state(player)  # brought up to date: the twin starts from it
        view = self._history_seen_by(player)
        twin = self.clone(seed=seed)
        twin.log = list(view.log)
        twin.actions = list(view.actions)
        # the fold so far holds for the twin's log too (it is the player's view of this
        # one); the conformance tests hold it to a fold of the twin's log from nothing
        twin._seen = {player: self._seen[player]}
        twin._redraw_hidden(player, twin.dice)
        twin._invalidate()
        return twin

    def log_seen_by(self, player: str | None) -> list[Event]:
        """The log as ``player`` saw it: the events they did not see left out, and what
        was hidden from them taken out of the others (``None``: the whole log, as the
        all-seeing view shows it)."""
        self._usable()
        if player is None:
            return list(self.log)
        if player not in self.game.players:
            raise ValueError(f"{player!r} is not a player of {self.game.name}")
        return [e for e in self._history_seen_by(player).log if e.kind != UNSEEN_KIND]

    def _history_seen_by(self, player: str) -> SeenHistory:
        """``player``'s view of the history, brought up to date (kept in ``_views``)."""
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = SeenHistory()
        view.extend(
            self.log,
            self.decisions,
            self.actions,
            lambda event: self._event_seen_by(event, player),
            lambda action, actor: self._action_seen_by(action, actor, player),
        )
        return view

    def legal_codes(self) -> tuple[int, ...]:
        """The numbers of the legal actions in the scenario's action space, ascending;
        worked out once a decision (agents ask for them, or a mask, at every step)."""
        codes = self._legal_numbers
        if codes is None:
            codes = self._legal_numbers = tuple(sorted(self._listed_action_numbers()))
        return codes

    def _listed_action_numbers(self) -> list[int]:
        """The numbers of the legal actions in the order they are listed (kept): the
        action space's numbering (:meth:`ActionSpace.codes_of`), the same for every game."""
        aligned = self._listed_numbers
        if aligned is None:
            space = self._space or self._action_space()
            aligned = self._listed_numbers = space.codes_of(self.legal_actions())
        return aligned

    def _action_space(self) -> ActionSpace:
        """The scenario's action space, looked up once a state (agents' calls read
        ``self._space or self._action_space()``: an attribute, after the first)."""
        space = self._space = self.game.action_space(self.scenario)
        return space

    def action_of_code(self, code: object) -> Action:
        """The listed legal action numbered ``code`` (an int or a numpy integer: the very
        object ``legal_actions`` gives, so applying it takes the identity fast path);
        ``IllegalAction`` for a number of no legal action, or anything that is not an
        action number."""
        if type(code) is not int:
            if isinstance(code, np.integer):  # what np.flatnonzero(mask) gives an agent
                code = int(code)
            elif isinstance(code, bool) or not isinstance(code, int):
                raise IllegalAction(f"{code!r} is not an action number")
        try:
            k = self._listed_action_numbers().index(code)
        except ValueError:
            pass
        else:
            action = self._coded = self.legal_actions()[k]
            return action
        space = self._space or self._action_space()
        try:
            named = space.decode(code)
        except ValueError:
            raise IllegalAction(
                f"{code!r} is not an action number (0 .. {space.size - 1})"
            ) from None
        raise IllegalAction(self.explain_illegal(named))

    def action_mask(self) -> npt.NDArray[np.int8]:
        """1 for every legal action number, 0 elsewhere (PettingZoo's mask): a new
        array each call (the caller may keep or change it)."""
        mask = np.zeros((self._space or self._action_space()).size, dtype=np.int8)
        index = self._listed_index
        if index is None:  # an index array is built faster than numpy's own conversion
            listed = self._listed_action_numbers()
            index = self._listed_index = np.fromiter(listed, np.intp, len(listed))
        mask[index] = 1  # the order does not matter here
        return mask

    def clone(self, seed: int | None = None) -> State[S]:
        """An independent copy; ``seed`` gives it fresh dice (another future)."""
        self._usable()
        twin = self._copy()
        if seed is not None:
            twin.dice = self.dice.reseeded(seed)
            twin.seed = None
        return twin

    def _copy(self) -> State[S]:
        """A copy that shares nothing mutable with this state.

        The default deep-copies everything (the game and scenario are shared,
        never copied). A game may override it with a structural copy of its own
        fields, starting from ``self._copy_base()``.
        """
        return copy.deepcopy(self)

    def _copy_base(self) -> State[S]:
        """A shallow copy with the kernel's own fields copied (dice, log, actions):
        the game then replaces each of its mutable fields with a copy."""
        twin = copy.copy(self)
        twin.dice = self.dice.copy()
        twin.log = list(self.log)  # events are never changed once written
        twin.actions = list(self.actions)  # actions are frozen
        twin.decisions = list(self.decisions)
        twin._seen = dict(self._seen)  # its values are immutable tuples
        twin._views = {}
        return twin

    def to_json(self) -> str:
        """A versioned canonical snapshot (sorted keys, printed labels)."""
        self._usable()
        env = {
            "format": SNAPSHOT_FORMAT,
            "version": SNAPSHOT_VERSION,
            "game": self.game.name,
            "state_version": self.game.state_version,
            "scenario": self._scenario_ref(),
            "seed": self.seed,
            "rng": self.dice.to_data(),
            "actions": [a.to_data() for a in self.actions],
            "decisions": [list(d) for d in self.decisions],
            "log": [e.to_data() for e in self.log],
            "state": self._dump(),
        }
        return canonical_json(env)

    def _scenario_ref(self) -> dict[str, Any]:
        ref: dict[str, Any] = {"id": self.scenario.id, "hash": self.scenario.hash}
        if self.scenario.files:
            ref["files"] = [{"name": n, "text": t} for n, t in embedded(self.scenario.files)]
        return ref

    def record(self) -> GameRecord:
        """The lasting game record: scenario, seed, actions and the dice rolled."""
        return GameRecord(
            game=self.game.name,
            scenario=self.scenario.id,
            scenario_hash=self.scenario.hash,
            seed=self.seed,
            actions=tuple(self.game.codec.to_record(a) for a in self.actions),
            dice=tuple(self.dice.drawn),
            result=str(self.outcome()) if self.is_terminal() else None,
            files=embedded(self.scenario.files),
        )

    @property
    def board(self) -> Board:
        return self.scenario.board

    def log_text(self, start: int = 0) -> str:
        return "\n".join(str(e) for e in self.log[start:])

    def _repr_svg_(self) -> str:
        from omaha.kernel.svg import render_view

        return render_view(self.view(None))

    def __str__(self) -> str:
        """The all-seeing view's summary, saying so (``view(player)`` is one side's)."""
        return f"(all-seeing view: hidden parts shown)\n{self.view(None).summary()}"

    def __repr__(self) -> str:
        """Game, scenario, turn, phase and who decides, on one line."""
        if self.is_terminal():
            who = "game over"
        else:
            pending = self.pending
            who = f"{pending.player} to decide" if pending is not None else "chance to roll"
        n = len(self.actions)
        return (
            f"<{type(self).__name__} {self.game.name}/{self.scenario.id} · {self.turn_label}"
            f" · {self.phase} · {who}, {n} decision{'' if n == 1 else 's'}>"
        )


def _decisions_from_data(data: Any, n_actions: int) -> list[Decision]:
    """A snapshot's decisions: one ``[log position, player]`` per recorded action."""
    if not isinstance(data, list) or len(data) != n_actions:
        raise ValueError(f"decisions: one per action expected, got {data!r:.80}")
    out: list[Decision] = []
    for item in data:
        at, actor = item
        if (
            isinstance(at, bool)
            or not isinstance(at, int)
            or not (actor is None or isinstance(actor, str))
        ):
            raise ValueError(f"decisions: {item!r:.80} is not [log position, player]")
        out.append((at, actor))
    return out


#: Types a log detail keeps as it is (checked first: every event of every game comes here).
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _plain_details(details: dict[str, Any]) -> dict[str, Any]:
    """An event's keyword details as JSON values; the fresh keyword dict itself when
    every value already is one (the common case: labels, numbers, texts)."""
    for value in details.values():
        if type(value) not in _PLAIN:
            result: dict[str, Any] = _jsonable(details)
            return result
    return details


def _jsonable(value: Any) -> Any:
    """Details as plain JSON values (tuples become lists) so snapshots round-trip."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _files_key(ref: str, files: tuple[tuple[str, str], ...]) -> str:
    """What a scenario rebuilt from embedded files is kept under: the reference and the
    files' names and texts (two records of one custom scenario share one rebuild)."""
    digest = hashlib.sha256(ref.encode("utf-8", "surrogatepass"))
    for name, text in files:
        for part in (name, text):
            digest.update(b"\x00" + part.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()
