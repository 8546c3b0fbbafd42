"""Playing at the terminal: ``omaha play``'s human turns over a :class:`Session`.

At each decision of a side no bot plays the player sees a short summary (turn,
phase, the pending prompt, what the log says happened since their last decision)
and the choices, numbered in natural label order; a long run of choices that
differ only in their last word (``place 1/B/116 at L1 ... L18``) is shown in
columns under their common stem. At the prompt:

    NUMBER      the choice with that number
    ACTION      an action in the game's notation (``move A/116 to C12``)
    help        what each action form on offer means, with an example
    ?N, help N  what choice N does: its numbers and the chance of each result
    undo        take back your last decision (and the bot moves after it)
    map FILE    write the picture of the position (SVG; PNG for a .png name)
    log [N]     the last N lines of the log
    show        the whole position
    quit        stop here

At a real terminal the line is read through readline: editing, the history of the
lines typed in this game (Up, Down) and Tab completing the commands and the choices.
Uses only the session, the protocol and the kernel's pictures.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from omaha.errors import IllegalAction
from omaha.fileio import output_file, write_atomic
from omaha.kernel.actions import Action
from omaha.kernel.protocol import State
from omaha.kernel.svg import render_view, to_png
from omaha.kernel.view import View
from omaha.session import Choice, Session, natural_key

#: Lines of "what happened" shown before a decision; the rest waits for ``log N``.
CHANGES_SHOWN = 15
#: ``log`` without a number shows this many lines.
LOG_DEFAULT = 20
#: A run of at least this many choices sharing a stem is shown in columns.
GROUP_AT = 4
PICTURE_SUFFIXES = (".svg", ".png")

COMMANDS = (
    ("NUMBER", "play the choice with that number"),
    ("ACTION", "play an action written in the game's notation"),
    ("help", "this text, with the action forms on offer now"),
    ("?N, help N", "what choice N does: a fire's odds, a step's cost, a card's text"),
    ("undo", "take back your last decision (and the bot moves after it)"),
    ("map FILE", "write the picture of the position: FILE.svg, or FILE.png (omaha[png])"),
    ("log [N]", f"the last N lines of the log (default {LOG_DEFAULT})"),
    ("show", "the whole position"),
    ("quit", "stop the game here (q, or end of input, does the same)"),
)


# --------------------------------------------------------------------------
# What the player reads
# --------------------------------------------------------------------------
def _stem(text: str) -> tuple[str, str]:
    """``'place 1/B/116 at L5'`` -> ``('place 1/B/116 at', 'L5')``."""
    stem, _, last = text.rpartition(" ")
    return stem, last


def menu(choices: Sequence[Choice], width: int = 80) -> list[str]:
    """The numbered choices: one a line, or a run sharing a stem in columns."""
    lines: list[str] = []
    i = 0
    while i < len(choices):
        stem, _ = _stem(choices[i].text)
        j = i
        while j < len(choices) and stem and _stem(choices[j].text)[0] == stem:
            j += 1
        run = choices[i:j]
        if len(run) >= GROUP_AT:
            lines.append(f"  {stem} … ({run[0].number}-{run[-1].number})")
            cells = [f"{c.number:>4} {_stem(c.text)[1]}" for c in run]
            cell = max(len(c) for c in cells) + 2
            per_line = max(1, (width - 4) // cell)
            for k in range(0, len(cells), per_line):
                row = "".join(c.ljust(cell) for c in cells[k : k + per_line])
                lines.append(f"    {row}".rstrip())
            i = j
        else:
            lines.append(f"  {choices[i].number:4d}. {choices[i].text}")
            i += 1
    return lines


def _fields(pattern: str) -> list[str]:
    out = []
    for part in pattern.split("{")[1:]:
        out.append(part.split("}", 1)[0])
    return out


def _shown(values: Sequence[str], most: int = 6) -> str:
    ordered = sorted(set(values), key=natural_key)
    if len(ordered) <= most:
        return ", ".join(ordered)
    return f"{', '.join(ordered[: most - 1])}, … {ordered[-1]} ({len(ordered)} in all)"


def help_text(choices: Sequence[Choice]) -> str:
    """The commands, then each action form on offer: its notation, what it is for
    (the class's docstring, where the game wrote one), the values its fields take
    now, and an example taken from the choices."""
    lines = ["Commands:"]
    lines += [f"  {name:10s} {what}" for name, what in COMMANDS]
    if not choices:
        return "\n".join(lines)
    lines += ["", "Action forms on offer now:"]
    forms: dict[type[Action], list[Choice]] = {}
    plans: list[Choice] = []
    for c in choices:
        if c.plan:
            plans.append(c)
        else:
            forms.setdefault(type(c.action), []).append(c)
    for c in plans:
        lines.append(f"  plan: {c.plan}")
        lines.append(f"      a whole plan in one step; e.g. {c.number}, or: {c.action}")
    for cls, offered in forms.items():
        pattern = cls.notation or cls.__name__
        first, last = offered[0].number, offered[-1].number
        count = f"1 choice: {first}" if first == last else f"{len(offered)} choices, {first}-{last}"
        lines.append(f"  {pattern:40s} ({count})")
        doc = (cls.__dict__.get("__doc__") or "").strip()
        if doc:
            lines.append(f"      {' '.join(doc.split())}")
        for name in _fields(pattern):
            values = [_value(c.action, name) for c in offered]
            lines.append(f"      {{{name}}}: {_shown(values)}")
        lines.append(f"      e.g. {offered[0].number}, or: {offered[0].text}")
    return "\n".join(lines)


def _value(action: Action, name: str) -> str:
    value = getattr(action, name, "")
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value) or "[]"
    return "-" if value is None else str(value)


def position_text(view: View) -> str:
    """The whole position as text: tracks, pieces by place (in natural order), notes."""
    lines = [f"{view.title} — {view.turn}, {view.phase}"]
    if view.tracks:
        lines.append("  " + "  ".join(f"{k}: {v}" for k, v in view.tracks))
    by_place: dict[str, list[str]] = {}
    for p in view.pieces:
        text = "?" if p.hidden else p.name
        if p.values and not p.hidden:
            text += f" {p.values}"
        if p.marks:
            text += " [" + ",".join(p.marks) + "]"
        by_place.setdefault(p.where, []).append(f"{p.side}:{text}")
    for where in sorted(by_place, key=natural_key):
        lines.append(f"  {where or '(off map)'}: " + "; ".join(by_place[where]))
    lines.extend(f"  {n}" for n in view.notes)
    if view.pending is not None:
        lines.append(f"  -> {view.pending.player}: {view.pending.prompt}")
    return "\n".join(lines)


def headline(state: State[Any]) -> str:
    """Turn and phase, then who must decide what."""
    pend = state.pending
    wait = f"{pend.player} to decide: {pend.prompt}" if pend else "game over"
    return f"── {state.turn_label} · {state.phase} ── {wait}"


def write_picture(state: State[Any], player: str | None, path: Path, size: float) -> str:
    """Write the player's view to ``path`` (SVG, or PNG for ``.png``); what was written.

    ``ValueError`` for a name or folder that will not do, ``RuntimeError`` naming
    the extra when PNG is asked for without it.
    """
    output_file(path, "map", PICTURE_SUFFIXES)
    svg = render_view(state.view(player), size=size)
    data: str | bytes = to_png(svg) if path.suffix.lower() == ".png" else svg
    write_atomic(path, data)
    return f"wrote {path} ({state.turn_label}, {state.phase})"


def _readline() -> bool:
    """Set up line editing (the standard library's readline, where the platform has
    it): Tab completes, whitespace alone separates words. False without readline."""
    try:
        import readline
    except ImportError:
        return False
    readline.set_completer_delims(" \t\n")
    readline.parse_and_bind("tab: complete")
    return True


# --------------------------------------------------------------------------
# The loop
# --------------------------------------------------------------------------
class Terminal:
    """Plays a session at a terminal: bots move, people answer prompts."""

    def __init__(
        self,
        session: Session,
        inp: TextIO,
        out: TextIO,
        *,
        quiet: bool = False,
        width: int | None = None,
        size: float = 40.0,
    ) -> None:
        self.session = session
        self.inp, self.out = inp, out
        self.quiet = quiet
        self.width = width or shutil.get_terminal_size((80, 24)).columns
        self.size = size
        self.shown = 0  # log lines printed so far (bot games) / seen before a decision
        self.decided = False  # whether a person has decided anything yet
        # at a real terminal, the prompt is read through readline: line editing, the
        # history of this game's lines (Up, Down), and Tab completing the choices
        self.editing = inp is sys.stdin and out is sys.stdout and inp.isatty() and _readline()
        self._completions: list[str] = []

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def play(self) -> bool:
        """Play to the end; False when the player quits first."""
        session = self.session
        watching = all(side in session.bots for side in session.game.players)
        while not session.state.is_terminal():
            if session.human_to_move is None:
                session.run_bots(limit=1)
                if watching and not self.quiet:
                    self._print_new_log()  # bots only: the log as it grows
                continue
            if not self.decide():
                return False
        if not self.quiet:
            self._print_new_log()
        return True

    def _print_new_log(self) -> None:
        log = self.session.state.log
        if len(log) > self.shown:
            self.say(self.session.state.log_text(self.shown))
        self.shown = len(log)

    # -- one decision -----------------------------------------------------------
    def decide(self) -> bool:
        """Show the summary and the choices, read commands until an action is
        played; False when the player quits."""
        self._summary()
        choices = self.session.choices()
        self._menu(choices)
        player = self.session.human_to_move
        self._completions = sorted({*self._commands(), "quit", *(c.text for c in choices)})
        while True:
            try:
                line = self._read(f"{player}> ")
            except UnicodeDecodeError:
                self.say("  that line is not UTF-8 text")
                continue
            if not line:
                return False
            text = line.strip()
            if text.startswith("?") and text[1:].strip().isdigit():
                text = "? " + text[1:].strip()  # ?N is help N
            word, _, rest = text.partition(" ")
            command = self._commands().get(word.lower())
            if text.lower() in ("q", "quit", "exit"):
                return False
            if not text:
                self._menu(choices)
                continue
            if command is not None:
                if command(rest.strip()):
                    return True
                continue
            before = len(self.session.state.log)
            try:
                self.session.choose(text)
            except IllegalAction as exc:
                self.say(f"  illegal: {exc}")
                continue
            self.shown = before  # what follows is what changed since this decision
            self.decided = True
            return True

    def _read(self, prompt: str) -> str:
        """One line typed at the prompt, with its newline; "" at the end of input."""
        if not self.editing:
            self.out.write(prompt)
            self.out.flush()
            return self.inp.readline()
        import readline

        readline.set_completer(self._complete)
        try:
            return input(prompt) + "\n"
        except EOFError:
            self.say()
            return ""

    def _complete(self, text: str, index: int) -> str | None:
        """readline's completer: the commands and the choices' notation starting with
        what the line holds so far."""
        import readline

        line = readline.get_line_buffer()
        start = len(line) - len(text)
        hits = [c[start:] for c in self._completions if c.startswith(line)]
        return hits[index] if index < len(hits) else None

    def _summary(self) -> None:
        state = self.session.state
        self.say()
        self.say(headline(state))
        log = state.log
        new = len(log) - self.shown
        if new > 0 and not self.quiet:
            self.say("Since your last decision:" if self.decided else "So far:")
            lines = state.log_text(max(self.shown, len(log) - CHANGES_SHOWN)).splitlines()
            if new > CHANGES_SHOWN:
                self.say(f"  … {new - CHANGES_SHOWN} earlier lines ('log {new}' shows them)")
            for line in lines:
                self.say(f"  {line}")
        self.shown = len(log)

    def _menu(self, choices: Sequence[Choice]) -> None:
        for line in menu(choices, self.width):
            self.say(line)
        self.say("Type a number or an action; help, undo, map FILE, log N, show, quit.")

    # -- commands -------------------------------------------------------------------
    def _commands(self) -> dict[str, Callable[[str], bool]]:
        """Each command word -> what it does; True when it moved the game on."""
        return {
            "help": self._help,
            "?": self._help,
            "undo": self._undo,
            "map": self._map,
            "log": self._log,
            "show": self._show,
        }

    def _help(self, arg: str) -> bool:
        if not arg:
            self.say(help_text(self.session.choices()))
            return False
        choices = self.session.choices()
        if not (arg.isdigit() and arg.isascii() and len(arg) < 10):
            self.say(f"  help takes a choice's number (1 to {len(choices)}), not {arg[:20]!r}")
            return False
        try:
            facts = self.session.facts(int(arg))
        except IllegalAction as exc:
            self.say(f"  {exc}")
            return False
        self.say(f"  {int(arg)}. {choices[int(arg) - 1].text}")
        for row in facts.text().splitlines():
            self.say(f"     {row}")
        return False

    def _undo(self, _: str) -> bool:
        try:
            action = self.session.undo()
        except IllegalAction as exc:
            self.say(f"  {exc}")
            return False
        self.session.run_bots()
        self.say(f"  took back '{action}'")
        self.shown = len(self.session.state.log)
        return True  # the decision to show again is the one taken back

    def _map(self, arg: str) -> bool:
        if not arg:
            self.say("  map needs a file name: map position.svg (or .png)")
            return False
        try:
            self.say("  " + write_picture(
                self.session.state, self.session.human_to_move, Path(arg), self.size
            ))  # fmt: skip
        except (ValueError, RuntimeError, OSError) as exc:
            self.say(f"  {exc}")
        return False

    def _log(self, arg: str) -> bool:
        n = LOG_DEFAULT
        if arg:
            # at most 12 digits read: more lines than any log holds is the whole log
            digits = arg.lstrip("0")[:12] or "0"
            if not (arg.isdigit() and arg.isascii()) or int(digits) < 1:
                self.say(f"  log takes a number of lines (1 or more), not {arg[:20]!r}")
                return False
            n = int(digits)
        log = self.session.state.log
        self.say(self.session.state.log_text(max(0, len(log) - n)) or "  (the log is empty)")
        return False

    def _show(self, _: str) -> bool:
        self.say(position_text(self.session.state.view(self.session.human_to_move)))
        return False
