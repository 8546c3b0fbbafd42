"""The two errors a user of the library meets."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now; the state is left unchanged."""


class ScenarioError(ValueError):
    """A scenario or data file that cannot be used.

    The message names the file, the key path inside it and the problem, e.g.
    ``vierville.toml: units[3].hex: "Z99" is not on the map``.
    """

    def __init__(self, file: str, key: str, problem: str) -> None:
        self.file = file
        self.key = key
        self.problem = problem
        where = f"{file}: {key}: " if key else f"{file}: "
        super().__init__(where + problem)


class StateCorrupted(RuntimeError):
    """A state that an unexpected error left half-changed; it refuses further use."""
