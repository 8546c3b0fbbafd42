"""The errors a user of the library meets.

* :class:`IllegalAction` — an action the rules do not allow now (state unchanged).
* :class:`ScenarioError` — a scenario, map or other data file that cannot be used.
* :class:`RecordError` — a game record or state snapshot that cannot be used:
  not readable, of another game or version, tampered with, or not replayable.

Both file errors are :class:`DataFileError`: each names the file, the key path
inside it and the problem, e.g. ``vierville.toml: units[3].hex: "Z99" is not on
the map``. All of them are ``ValueError``.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now; the state is left unchanged."""


class UnreadableAction(IllegalAction):
    """Text that is no action of the game's notation at all (no form matches it)."""

    def __init__(self, text: str, message: str) -> None:
        super().__init__(message)
        self.text = text

    def __reduce__(self) -> tuple[type[UnreadableAction], tuple[str, str]]:
        return (type(self), (self.text, str(self)))


class DataFileError(ValueError):
    """A file that cannot be used, with where in it and why."""

    def __init__(self, file: str, key: str, problem: str) -> None:
        self.file = file
        self.key = key
        self.problem = problem
        where = f"{file}: {key}: " if key else f"{file}: "
        super().__init__(where + problem)

    def __reduce__(self) -> tuple[type[DataFileError], tuple[str, str, str]]:
        return (type(self), (self.file, self.key, self.problem))


class ScenarioError(DataFileError):
    """A scenario or data file that cannot be used."""


class RecordError(DataFileError):
    """A game record or snapshot that cannot be used (unreadable, foreign, tampered, diverged)."""


class StateCorrupted(RuntimeError):
    """A state that an unexpected error left half-changed; it refuses further use."""
