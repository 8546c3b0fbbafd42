"""The games ``omaha serve`` holds and the browsers that play them.

Each browser (named by its cookie) plays at one :class:`Table`: a game with its own
lock, undo and version. A browser that opens the server's link gets a table of its
own, so several games run at once without touching each other; a browser that opens
an invitation (a per-table secret, used once) takes one side of another browser's
table and sees and decides only for that side. Browsers and tables are bounded in
number and dropped when idle longer than ``max_age`` seconds (the least recently
used first when the count is reached).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import attrs

from omaha.errors import IllegalAction
from omaha.kernel.facts import Facts
from omaha.kernel.protocol import State
from omaha.kernel.svg import render_view
from omaha.session import Session

#: The last log lines a state reply carries.
LOG_LINES = 300


def scenario_name(scenario_id: str) -> str:
    """How the page names a scenario: a shipped id, or a folder file by its name only."""
    return scenario_id.replace("\\", "/").rsplit("/", 1)[-1]


class Refused(IllegalAction):
    """A request this browser may not make (another side's decision, say): 403."""


def facts_data(facts: Facts) -> dict[str, Any]:
    """A choice's facts as the page reads them (chances as floats, summing to 1)."""
    return {
        "lines": list(facts.lines),
        "label": facts.label,
        "chances": [[result, float(p)] for result, p in facts.chances],
    }


def places(state: State[Any], viewer: str | None) -> dict[str, str]:
    """Where each piece ``viewer`` sees stands on the map (off-map boxes left out):
    the page draws a choice naming a piece on that piece's hex."""
    board = state.board
    return {p.id: p.where for p in state.view(viewer).pieces if not p.hidden and board.has(p.where)}


@attrs.define(eq=False)
class Table:
    """One game in progress: its session, lock, seats and rendered boards."""

    id: str
    session: Session = attrs.field(repr=False)
    owner: str  # the browser that started it
    lock: threading.Lock = attrs.field(factory=threading.Lock)
    seats: dict[str, str] = attrs.field(factory=dict)  # side -> invited browser
    invites: dict[str, str] = attrs.field(factory=dict)  # secret -> side
    version: int = 0
    used: float = attrs.field(factory=time.monotonic)
    _boards: dict[str | None, tuple[int, str, str]] = attrs.field(factory=dict, repr=False)
    #: the position last stepped to: (table version, actions applied, that state)
    _stepped: tuple[int, int, State[Any]] | None = attrs.field(default=None, repr=False)

    @property
    def tag(self) -> str:
        """Names this table's current position: changes whenever the game does."""
        return f"{self.id}.{self.version}"

    def changed(self) -> None:
        self.version += 1
        self._boards.clear()

    def humans(self) -> list[str]:
        return [p for p in self.session.game.players if p not in self.session.bots]

    def sides_of(self, browser: str) -> list[str]:
        """The sides ``browser`` decides for: its seat, or (the owner) every human
        side no invited browser holds."""
        if browser != self.owner:
            return [side for side, who in self.seats.items() if who == browser]
        return [side for side in self.humans() if side not in self.seats]

    def board(self, viewer: str | None) -> tuple[str, str]:
        """The SVG of ``viewer``'s view and its etag, rendered once per position."""
        kept = self._boards.get(viewer)
        if kept is None or kept[0] != self.version:
            svg = render_view(self.session.state.view(viewer))
            etag = hashlib.blake2b(svg.encode(), digest_size=12).hexdigest()
            kept = (self.version, etag, svg)
            self._boards[viewer] = kept
        return kept[1], kept[2]

    def info(self, browser: str, have_svg: str = "") -> dict[str, Any]:
        """The position as ``browser`` sees it; the SVG only when it differs from the
        one whose etag is ``have_svg``. Call with the table's lock held."""
        session, state = self.session, self.session.state
        sides = self.sides_of(browser)
        to_move = session.human_to_move
        you = to_move if to_move in sides else None
        viewer = you or (sides[0] if sides else None)
        etag, svg = self.board(viewer)
        seen = state.log_seen_by(viewer)  # a side sees only its own side's log
        log = [
            {"text": str(e), "rule": e.rule, "kind": e.kind, "turn": e.turn}
            for e in seen[-LOG_LINES:]
        ]
        choices = session.choices() if you else []
        mine = [s for s in session.deciders if s not in session.bots]
        out: dict[str, Any] = {
            "version": self.tag,
            "svg_etag": etag,
            "game": session.game.name,
            "title": session.game.title,
            "scenario": scenario_name(session.scenario),
            "seed": session.seed,
            "players": list(session.game.players),
            "bots": session.bot_names,
            "sides": sides,
            "owner": browser == self.owner,
            "seats": {side: "invited" for side in self.seats},
            "turn": state.turn_label,
            "phase": state.phase,
            "you": you,
            "waiting_for": to_move if to_move and not you else None,
            "prompt": state.pending.prompt if you and state.pending else "",
            # the cells the decision is about (an attack's target), marked on the map
            "focus": list(state.pending.focus) if you and state.pending else [],
            "choices": [
                {
                    "n": c.number,
                    "text": c.text,
                    "cells": list(c.cells),
                    "pieces": list(c.pieces),
                    "plan": c.plan,
                    "facts": facts_data(state.facts(c.action)),
                }
                for c in choices
            ],
            "places": places(state, viewer) if you else {},
            "log": log,
            "log_total": len(seen),
            "actions": len(state.actions),
            "result": str(state.outcome()) if state.is_terminal() else None,
            "can_undo": bool(mine) and mine[-1] in sides,
        }
        if etag != have_svg:
            out["svg"] = svg
        return out

    def viewer_of(self, browser: str) -> str | None:
        """Whose view ``browser`` is shown: the side it decides for now, else its first."""
        sides = self.sides_of(browser)
        to_move = self.session.human_to_move
        return to_move if to_move in sides else (sides[0] if sides else None)

    def step(self, browser: str, k: int) -> dict[str, Any]:
        """The position after the game's first ``k`` actions (bots' too), as ``browser``
        sees it: to step through the game so far, as a log viewer does. Replays from
        the start, or on from the position stepped to last. Call with the lock held."""
        actions = self.session.state.actions
        k = max(0, min(k, len(actions)))
        kept = self._stepped
        if kept is None or kept[0] != self.version or kept[1] > k:
            kept = (self.version, 0, self.session.start_position())
        _, done, state = kept
        for action in actions[done:k]:
            state.apply(action)
        self._stepped = (self.version, k, state)
        viewer = self.viewer_of(browser)
        return {
            "k": k,
            "total": len(actions),
            "turn": state.turn_label,
            "phase": state.phase,
            "log_total": len(state.log_seen_by(viewer)),
            "svg": render_view(state.view(viewer)),
        }

    # -- acting (the lock held) ------------------------------------------------------
    def choose(self, browser: str, choice: int | str) -> None:
        to_move = self.session.human_to_move
        if to_move is not None and to_move not in self.sides_of(browser):
            raise Refused(f"it is {to_move}'s decision, not yours")
        self.session.choose(choice)
        self.changed()

    def undo(self, browser: str) -> None:
        mine = [s for s in self.session.deciders if s not in self.session.bots]
        if mine and mine[-1] not in self.sides_of(browser):
            raise Refused(f"the last decision was {mine[-1]}'s: only they may take it back")
        self.session.undo()
        self.changed()

    def invite(self, browser: str, side: str) -> str:
        """A new secret that seats the browser opening it at ``side``."""
        if browser != self.owner:
            raise Refused("only the browser that started this game may invite")
        if side not in self.humans():
            raise IllegalAction(
                f"{side!r} is not a side a person plays here (bots play "
                f"{', '.join(self.session.bots) or 'none'}; start a game without a bot "
                "for the side you want to give away)"
            )
        if len(self.humans()) - len([s for s in self.seats if s != side]) < 2:
            raise IllegalAction("you would have no side left to play")
        for secret, seat in list(self.invites.items()):
            if seat == side:
                del self.invites[secret]
        secret = secrets.token_urlsafe(24)
        self.invites[secret] = side
        return secret


@attrs.define
class Seat:
    """Where a browser plays: its table, when it last asked, whether by invitation."""

    table: str = ""
    used: float = attrs.field(factory=time.monotonic)
    invited: bool = False


class Gone(KeyError):
    """The table an invited browser played at is no longer held."""


class Store:
    """Every browser and table, bounded in number and by idle time."""

    def __init__(
        self,
        start: Callable[[], Session],
        *,
        max_tables: int = 32,
        max_browsers: int = 128,
        max_age: float = 12 * 3600.0,
    ) -> None:
        self.start = start
        self.max_tables, self.max_browsers, self.max_age = max_tables, max_browsers, max_age
        self.lock = threading.Lock()  # held for look-ups only, never for game work
        self.browsers: OrderedDict[str, Seat] = OrderedDict()
        self.tables: OrderedDict[str, Table] = OrderedDict()

    # -- browsers ---------------------------------------------------------------
    def new_browser(self) -> str:
        browser = secrets.token_urlsafe(24)
        with self.lock:
            self._evict()
            self.browsers[browser] = Seat()
            self._bound_browsers()
        return browser

    def seat(self, browser: str) -> Seat | None:
        """The browser's seat (None: not known, evicted or never was)."""
        with self.lock:
            self._evict()
            return self.browsers.get(browser)

    def current(self, browser: str) -> Table | None:
        """The table the browser plays at now, if it has one."""
        with self.lock:
            seat = self.browsers.get(browser)
            return self.tables.get(seat.table) if seat is not None else None

    def table_of(self, browser: str) -> Table:
        """The browser's table (a new game of its own when it has none); ``KeyError``
        when the browser is not known, :class:`Gone` when its invited table is."""
        with self.lock:
            self._evict()
            seat = self.browsers[browser]
            table = self.tables.get(seat.table)
            if table is not None:
                self._touch(browser, table)
                return table
            if seat.invited:
                raise Gone(browser)
        return self.open(browser, self.start())

    def open(self, browser: str, session: Session) -> Table:
        """Seat ``browser`` at a new table of its own, playing ``session``; its previous
        table goes unless an invited browser still plays there."""
        table = Table(secrets.token_hex(6), session, browser)
        with self.lock:
            if browser not in self.browsers:
                raise KeyError(browser)
            old = self.tables.get(self.browsers[browser].table)
            if old is not None and old.owner == browser and not old.seats:
                del self.tables[old.id]
            self.tables[table.id] = table
            self._touch(browser, table)
            self._evict()
        return table

    def join(self, secret: str) -> str | None:
        """A new browser seated by invitation ``secret`` (used up); None when no table
        holds that invitation."""
        with self.lock:
            self._evict()
            table = next((t for t in self.tables.values() if secret in t.invites), None)
        if table is None:
            return None
        browser = secrets.token_urlsafe(24)
        with table.lock:  # seats and invitations change under the table's own lock
            side = table.invites.pop(secret, None)
            if side is None:
                return None
            table.seats[side] = browser
            table.changed()
        with self.lock:
            if table.id not in self.tables:  # dropped meanwhile: the seat leads nowhere
                return None
            self.browsers[browser] = Seat(table.id, invited=True)
            self._touch(browser, table)
            self._bound_browsers()
        return browser

    # -- bounds -------------------------------------------------------------------
    def _touch(self, browser: str, table: Table) -> None:
        now = time.monotonic()
        table.used = now
        seat = self.browsers[browser]
        seat.table, seat.used = table.id, now
        self.browsers.move_to_end(browser)
        self.tables.move_to_end(table.id)

    def _bound_browsers(self) -> None:
        while len(self.browsers) > self.max_browsers:
            self.browsers.popitem(last=False)

    def _evict(self) -> None:
        """Drop what has been idle longer than ``max_age``, then the least recently
        used tables past the count. Called with ``self.lock`` held."""
        old = time.monotonic() - self.max_age
        for browser, seat in list(self.browsers.items()):
            if seat.used < old:
                del self.browsers[browser]
        for table_id, table in list(self.tables.items()):
            if table.used < old:
                del self.tables[table_id]
        while len(self.tables) > self.max_tables:
            self.tables.popitem(last=False)
