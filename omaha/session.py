"""A game being played by people and bots: what the terminal and the browser share.

A :class:`Session` holds one game, which sides bots play, and the state. People
act on the decisions of the sides no bot plays; after each action the bots move
until a person must decide again or the game ends. ``undo`` takes back the last
human decision (and the bot moves after it) by replaying the game record without
it from the starting position, so the position is exactly what the rules give.
Whole plans a game offers (``State.plans``: a shipped set-up, a landing plan) are
listed as one choice; choices come in natural label order (L2 before L10).

Uses only the protocol and the registry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from omaha.errors import IllegalAction, RecordError, UnreadableAction
from omaha.kernel.actions import Action
from omaha.kernel.facts import Facts, visible_pieces
from omaha.kernel.protocol import Bot, Game, State
from omaha.kernel.records import GameRecord
from omaha.registry import load

_NATURAL = re.compile(r"(\d+)")
#: A typed choice number longer than this is no choice (nor read as a number).
MAX_CHOICE_DIGITS = 9
#: A signed or decimal number: read as a (wrong) choice number, not as notation.
_NUMBER_LIKE = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that reads digit runs as numbers: L1, L2, ... L10, not L1, L10, L2."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in _NATURAL.split(text))


@attrs.frozen
class Choice:
    """One thing the person to move may do: an action, where it points, its text."""

    number: int  # 1-based, as shown
    action: Action
    text: str
    cells: tuple[str, ...]  # board labels the action names
    pieces: tuple[str, ...]  # piece ids the action names
    plan: str = ""  # the plan's name when this is a whole plan


class Session:
    """One game, with bots for some sides and people for the others.

    ``autoplay=False`` leaves the first bot moves to the caller (:meth:`run_bots`),
    who may want to watch them or stop them (the terminal saves a record on Ctrl-C).
    """

    def __init__(
        self,
        game: str | Game[Any],
        scenario: str | Path | None = None,
        *,
        seed: int = 0,
        bots: Mapping[str, str] | None = None,
        state: State[Any] | None = None,
        autoplay: bool = True,
    ) -> None:
        self.game: Game[Any] = load(game) if isinstance(game, str) else game
        self.seed = seed
        names = dict(bots or {})
        for side, name in names.items():
            if side not in self.game.players:
                raise ValueError(
                    f"{self.game.name} has no side {side!r} (sides: {', '.join(self.game.players)})"
                )
            if name not in self.game.bots:
                known = ", ".join(sorted(self.game.bots))
                raise ValueError(f"{self.game.name} has no bot {name!r} (bots: {known})")
        self.bot_names = names
        self.bots: dict[str, Bot] = {
            side: self.game.bots[name](seed=seed * 31 + i)
            for i, (side, name) in enumerate(sorted(names.items()))
        }
        if state is None:
            state = self.game.new_state(scenario, seed=seed)
            self._start = state.clone()  # undo replays from here
            self._who: list[str] = []  # the side that took each of ``state.actions``
        else:
            self._start = self.game.new_state(state.scenario, seed=seed)
            self._who = self._replayed_deciders(state)
        self.state: State[Any] = state
        self.scenario = state.scenario.id
        if autoplay:
            self.run_bots()

    # -- reading ----------------------------------------------------------------
    @property
    def human_to_move(self) -> str | None:
        """The side a person must decide for now (None: game over)."""
        player = self.state.current_player()
        return None if player is None or player in self.bots else player

    def choices(self) -> list[Choice]:
        """The legal actions (and whole plans) of the person to move, in order."""
        player = self.human_to_move
        if player is None:
            return []
        state = self.state
        piece_ids = visible_pieces(state)
        out: list[Choice] = []
        for name, plan in sorted(state.plans().items()):
            named = state.names(plan, piece_ids)
            out.append(
                Choice(len(out) + 1, plan, f"plan: {name}", named.cells, named.pieces, plan=name)
            )
        actions = sorted(state.legal_actions(), key=lambda a: natural_key(str(a)))
        for action in actions:
            named = state.names(action, piece_ids)
            out.append(Choice(len(out) + 1, action, str(action), named.cells, named.pieces))
        return out

    def facts(self, number: int) -> Facts:
        """What choice ``number`` (as :meth:`choices` numbers them) would do."""
        options = self.choices()
        if not 1 <= number <= len(options):
            raise IllegalAction(
                f"{number} is not one of the choices offered (1 to {len(options)})"
                if options
                else "no decision of yours is pending"
            )
        return self.state.facts(options[number - 1].action)

    @property
    def can_undo(self) -> bool:
        """Whether a person has decided anything that ``undo`` could take back."""
        return any(side not in self.bots for side in self._who)

    @property
    def deciders(self) -> tuple[str, ...]:
        """The side that took each action of ``state.actions``, in order."""
        return tuple(self._who)

    def _replayed_deciders(self, state: State[Any]) -> list[str]:
        """Who took each recorded decision, found by replaying the game."""
        replay = self._start.clone()
        who = []
        for action in state.actions:
            who.append(replay.current_player() or "")
            replay.apply(action)
        return who

    # -- acting -------------------------------------------------------------------
    def choose(self, choice: int | str | Action) -> Action:
        """Apply the person's choice: a number from :meth:`choices`, notation, or an
        Action. Out-of-range numbers and illegal actions raise IllegalAction."""
        if self.human_to_move is None:
            raise IllegalAction(
                "no decision of yours is pending"
                if not self.state.is_terminal()
                else "the game is over"
            )
        action: Action
        if isinstance(choice, Action):
            action = choice
        elif isinstance(choice, int) and not isinstance(choice, bool):
            options = self.choices()
            if not 1 <= choice <= len(options):
                raise IllegalAction(
                    f"{choice} is not one of the choices offered (1 to {len(options)})"
                )
            action = options[choice - 1].action
        elif isinstance(choice, str):
            text = choice.strip()
            if text.isdigit() and text.isascii():
                if len(text.lstrip("0")) > MAX_CHOICE_DIGITS:  # past int()'s digit limit too
                    raise IllegalAction(
                        f"{text[:12]}… is not one of the choices offered "
                        f"(1 to {len(self.choices())})"
                    )
                return self.choose(int(text.lstrip("0") or "0"))
            if _NUMBER_LIKE.fullmatch(text):  # '-1', '+2', '1.5': a number, but no choice's
                raise IllegalAction(
                    f"{text[:12]} is not one of the choices offered (1 to {len(self.choices())})"
                )
            try:
                action = self.game.parse_action(text)
            except UnreadableAction:
                raise IllegalAction(f"cannot read {text[:60]!r}; {self.on_offer()}") from None
        else:
            raise IllegalAction(f"{choice!r} is not a choice, a number or an action")
        player = self.state.current_player() or ""
        self.state.apply(action)
        self._who.append(player)
        self.run_bots()
        return action

    def on_offer(self) -> str:
        """What may be typed now: the range of choice numbers and the notation of each
        action form on offer (not every form of the game)."""
        choices = self.choices()
        if not choices:
            return "nothing is on offer now"
        forms: dict[str, None] = {}
        for c in choices:
            forms["a whole plan" if c.plan else (type(c.action).notation or c.text)] = None
        return f"type a number from 1 to {len(choices)}, or: {'; '.join(forms)}"

    def run_bots(self, limit: int = 100_000) -> int:
        """Let the bots move until a person must decide, the game ends or ``limit``
        moves are made; returns the number of moves."""
        moves = 0
        while not self.state.is_terminal() and moves < limit:
            player = self.state.current_player()
            bot = self.bots.get(player or "")
            if bot is None:
                break
            self.state.apply(bot.choose(self.state))
            self._who.append(player or "")
            moves += 1
        return moves

    def undo(self) -> Action:
        """Take back the last human decision and every bot move after it; returns the
        action taken back."""
        human = [i for i, side in enumerate(self._who) if side not in self.bots]
        if not human:
            raise IllegalAction("there is nothing of yours to undo")
        last = human[-1]
        taken_back = self.state.actions[last]
        state = self._start.clone()
        for action in self.state.actions[:last]:
            state.apply(action)
        self.state = state
        del self._who[last:]
        return taken_back

    def start_position(self) -> State[Any]:
        """A copy of the game's starting position (before its first recorded action)."""
        return self._start.clone()

    # -- saving -------------------------------------------------------------------
    def record(self) -> GameRecord:
        return self.state.record()

    def replayed(self) -> State[Any]:
        """The game replayed from its start through every action it took: what to save
        when play was stopped part-way through a move (a signal, an error), whose dice
        may be half drawn and its state half changed."""
        state = self._start.clone()
        for action in self.state.actions:
            state.apply(action)
        return state

    @classmethod
    def from_record(
        cls, record: GameRecord, *, bots: Mapping[str, str] | None = None, name: str = "record"
    ) -> Session:
        """Resume a recorded game (replayed exactly), with bots for the given sides."""
        game = load(record.game)
        if record.seed is None:
            raise RecordError(name, "seed", "a game played with scripted dice cannot be resumed")
        state = game.replay(record, name=name)
        return cls(game, record.scenario, seed=record.seed, bots=bots, state=state)
