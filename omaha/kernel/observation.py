"""Observations for agents: planes over the board's cells plus track values.

A game declares its layout per scenario (``Game.observation_layout``): named
planes (one float per cell: a side's strength, a piece kind, a marker, a hidden
token) and named tracks (one float each: turn, ratings, points). The
observation is one flat ``float32`` vector: the planes one after another in
cell-index order, then the tracks. Games fill it from their internal indices,
never from view strings, and reveal only what the player may see.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

Observation = npt.NDArray[np.float32]


@attrs.frozen
class ObservationLayout:
    """Which number of the observation vector means what."""

    cells: int
    planes: tuple[str, ...]
    tracks: tuple[str, ...] = ()
    meanings: tuple[tuple[str, str], ...] = ()  # (plane or track, what its values mean)

    def __attrs_post_init__(self) -> None:
        names = self.planes + self.tracks
        if len(set(names)) != len(names):
            raise ValueError("plane and track names must be distinct")

    @property
    def size(self) -> int:
        return self.cells * len(self.planes) + len(self.tracks)

    def zeros(self) -> Observation:
        return np.zeros(self.size, dtype=np.float32)

    def plane(self, obs: Observation, name: str) -> Observation:
        """The writable slice of ``obs`` for plane ``name`` (indexed by cell)."""
        i = self.planes.index(name)
        return obs[i * self.cells : (i + 1) * self.cells]

    def track_index(self, name: str) -> int:
        return self.cells * len(self.planes) + self.tracks.index(name)

    def set_tracks(self, obs: Observation, values: Sequence[tuple[str, float]]) -> None:
        for name, value in values:
            obs[self.track_index(name)] = value

    def describe(self) -> str:
        """The layout in words, for the docs and for agent authors."""
        meaning = dict(self.meanings)
        lines = [f"{self.size} float32 values: {len(self.planes)} planes of {self.cells} cells"]
        for i, name in enumerate(self.planes):
            lo = i * self.cells
            lines.append(f"  [{lo}:{lo + self.cells}] plane {name}: {meaning.get(name, '')}")
        for name in self.tracks:
            lines.append(f"  [{self.track_index(name)}] track {name}: {meaning.get(name, '')}")
        return "\n".join(lines)
