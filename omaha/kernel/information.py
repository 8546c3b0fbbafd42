"""Information sets: what a player has seen and done, and states that agree with it.

A game's log records everything that happened, event by event, and each recorded
action is marked with where in the log it was taken and by whom
(``State.decisions``). A player's *information state* is that history as the
player saw it: each event and each action passed through the game's two hooks,
``State._event_seen_by`` (the event, a copy with the hidden details taken out, or
``None`` when the player did not see it happen) and ``State._action_seen_by`` (the
action's notation, a shorter text, or ``None``). The default hooks show everything:
a game with nothing hidden overrides neither.

The history is folded into a running digest, kept per player on the state and
brought up to date only when asked (the log only grows), so it costs nothing while
nobody asks. Two histories that show a player different things have different
digests.

``State.resample(player, seed)`` is a clone whose history is the player's view of
it (hidden events and actions replaced by what the player saw), whose hidden parts
the game draws afresh (``State._redraw_hidden``) and whose dice are new: a world
the player cannot tell from the real one, for search.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TypeVar

import attrs

from omaha.kernel.actions import Action
from omaha.kernel.data import canonical_json
from omaha.kernel.dice import Dice
from omaha.kernel.events import Event

#: Where in the log a recorded action was taken (the log's length then) and by whom.
Decision = tuple[int, str | None]

#: What a player's fold has reached: events and decisions folded, and the digest.
Folded = tuple[int, int, bytes]

#: The kind of the placeholder a resampled state's log holds for an event its player
#: did not see (the log keeps its length, so the decisions' positions stay true).
UNSEEN_KIND = "kernel.unseen"


@attrs.frozen
class Unseen(Action):
    """An action in a resampled state's history whose content its player did not see:
    only what they saw of it (``seen``; None when they did not see it taken) is kept. It
    is never legal and never replays."""

    notation = "unseen {seen}"
    seen: str | None


T = TypeVar("T")


def shuffled(items: Sequence[T], dice: Dice) -> list[T]:
    """``items`` in a uniformly random order drawn with ``dice`` (Fisher-Yates): how a
    resample deals hidden tokens, cards or units anew among the places they may be."""
    out = list(items)
    for k in range(len(out) - 1, 0, -1):
        j = dice.pick(k + 1)
        out[k], out[j] = out[j], out[k]
    return out


def unseen_event(event: Event) -> Event:
    """The placeholder for an event a player did not see (turn and phase kept)."""
    return Event(UNSEEN_KIND, event.turn, event.phase, None, "")


@attrs.define
class SeenHistory:
    """A player's view of a state's log and actions, built as far as it has been asked
    (a resample's history is a copy of it): unseen events as placeholders, actions seen
    in part as :class:`Unseen`."""

    log: list[Event] = attrs.Factory(list)
    actions: list[Action] = attrs.Factory(list)

    def extend(
        self,
        log: Sequence[Event],
        decisions: Sequence[Decision],
        actions: Sequence[Action],
        event_seen: Callable[[Event], Event | None],
        action_seen: Callable[[Action, str | None], str | None],
    ) -> None:
        """Bring the view up to the end of ``log`` and ``actions`` (they only grow)."""
        for event in log[len(self.log) :]:
            seen = event_seen(event) if event.kind != UNSEEN_KIND else None
            self.log.append(unseen_event(event) if seen is None else seen)
        for k in range(len(self.actions), len(actions)):
            action = actions[k]
            if not isinstance(action, Unseen):
                text = action_seen(action, decisions[k][1])
                if text != str(action):
                    action = Unseen(text)
            self.actions.append(action)


def start(scenario_hash: str, player: str) -> Folded:
    """The fold of a player's history before anything happened."""
    return 0, 0, _digest(b"", f"{scenario_hash}|{player}")


def _digest(previous: bytes, item: str) -> bytes:
    return hashlib.blake2b(previous + item.encode(), digest_size=16).digest()


def fold(
    folded: Folded,
    log: Sequence[Event],
    decisions: Sequence[Decision],
    actions: Sequence[Action],
    event_seen: Callable[[Event], Event | None],
    action_seen: Callable[[Action, str | None], str | None],
) -> Folded:
    """``folded`` brought up to the end of ``log`` and ``decisions``: the events and
    actions after it, in the order they happened, each as the player saw it."""
    n_events, n_decisions, digest = folded
    end = len(log)
    while n_events < end or n_decisions < len(decisions):
        at, actor = decisions[n_decisions] if n_decisions < len(decisions) else (end, None)
        while n_events < at:  # the events before the next decision
            event = log[n_events]
            n_events += 1
            if event.kind == UNSEEN_KIND:
                continue
            seen = event_seen(event)
            if seen is not None:
                digest = _digest(digest, "e" + canonical_json(seen.to_data()))
        if n_decisions < len(decisions):
            action = actions[n_decisions]
            text = action.seen if isinstance(action, Unseen) else action_seen(action, actor)
            n_decisions += 1
            if text is not None:
                digest = _digest(digest, f"a{actor}|{text}")
    return n_events, n_decisions, digest
