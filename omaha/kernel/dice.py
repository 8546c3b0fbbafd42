"""Dice: the only source of chance in a game.

:class:`RandomDice` turns raw 64-bit words of an explicit
``numpy.random.PCG64`` bit generator into die faces with our own rejection
sampling, because numpy does not promise that ``Generator`` methods give the
same stream across releases; the raw PCG64 stream is fixed by its algorithm.
Words are drawn in batches; a snapshot stores the generator state at the start
of the batch and the position within it, so it resumes the exact sequence.

:class:`ScriptedDice` hands out given values (tests, and replaying a game
record when the generator is not wanted). Every value handed out is appended
to ``drawn``, which is what a game record stores.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any

import numpy as np

_BATCH = 64
_TWO64 = 1 << 64


class DiceExhausted(RuntimeError):
    """Scripted dice ran out of values."""


class ScriptedDiceError(ValueError):
    """A scripted value that is not a face of the die rolled (or not a pick in range)."""


class Dice(ABC):
    """Die rolls and uniform picks; subclasses supply :meth:`_value`."""

    def __init__(self) -> None:
        self.drawn: list[int] = []

    @abstractmethod
    def copy(self) -> Dice:
        """An independent copy that will roll the same future."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Dice:
        return self.copy()

    @abstractmethod
    def _value(self, low: int, count: int) -> int:
        """A uniform integer in ``low .. low + count - 1``."""

    def roll(self, sides: int = 6) -> int:
        """One die with faces ``1..sides``."""
        if sides < 1:
            raise ValueError(f"a die needs at least one face, not {sides}")
        value = self._value(1, sides)
        self.drawn.append(value)
        return value

    def pick(self, count: int) -> int:
        """A uniform index ``0..count-1`` (drawing from a deck or cup)."""
        if count < 1:
            raise ValueError("cannot pick from nothing")
        value = self._value(0, count)
        self.drawn.append(value)
        return value

    def d6(self) -> int:
        return self.roll(6)

    def two_d6(self) -> tuple[int, int]:
        """Two dice, kept apart so the log can show both."""
        return self.roll(6), self.roll(6)

    def d66(self) -> int:
        """Two dice read as tens and units: 11..66."""
        tens, units = self.two_d6()
        return 10 * tens + units

    @property
    def count(self) -> int:
        """How many values have been handed out."""
        return len(self.drawn)

    @abstractmethod
    def to_data(self) -> dict[str, Any]:
        """Serializable state; :func:`dice_from_data` restores it."""

    @abstractmethod
    def reseeded(self, seed: int) -> Dice:
        """Fresh dice with another future (for a bot's reseeded clone)."""


#: Seeds are integers in ``0 .. MAX_SEED`` (what a JSON record stores exactly everywhere).
MAX_SEED = 2**63 - 1


def check_seed(seed: object) -> int:
    """``seed`` if it is a usable seed; ``ValueError`` saying why not."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a seed is a whole number, not {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is between 0 and {MAX_SEED}, not {seed}")
    return seed


class RandomDice(Dice):
    """Dice over an explicit PCG64 bit generator, reproducible across releases."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.seed = check_seed(seed)
        self._bitgen: np.random.PCG64 | None = np.random.PCG64(seed)
        #: the generator's state where it stands now (a copy rebuilds it from this lazily)
        self._resume: Any = None
        self._batch_state: Any = self._bitgen.state
        self._buffer: list[int] = []
        self._pos = 0

    def _generator(self) -> np.random.PCG64:
        if self._bitgen is None:
            self._bitgen = np.random.PCG64()
            self._bitgen.state = self._resume
            self._resume = None
        return self._bitgen

    def _word(self) -> int:
        if self._pos >= len(self._buffer):
            bitgen = self._generator()
            self._batch_state = bitgen.state
            self._buffer = [int(w) for w in bitgen.random_raw(_BATCH).tolist()]
            self._pos = 0
        word = self._buffer[self._pos]
        self._pos += 1
        return word

    def _value(self, low: int, count: int) -> int:
        limit = _TWO64 - (_TWO64 % count)
        while True:
            word = self._word()
            if word < limit:
                return low + word % count

    def to_data(self) -> dict[str, Any]:
        inner = self._batch_state["state"]
        return {
            "kind": "pcg64",
            "seed": self.seed,
            "state": format(inner["state"], "x"),
            "inc": format(inner["inc"], "x"),
            "pos": self._pos if self._buffer else 0,
            "buffered": bool(self._buffer),
            "drawn": list(self.drawn),
        }

    def copy(self) -> RandomDice:
        twin = RandomDice.__new__(RandomDice)
        twin.drawn = list(self.drawn)
        twin.seed = self.seed
        twin._bitgen = None
        twin._resume = self._bitgen.state if self._bitgen is not None else self._resume
        twin._batch_state = self._batch_state
        twin._buffer = self._buffer  # never changed in place: a new batch is a new list
        twin._pos = self._pos
        return twin

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> RandomDice:
        """Restore saved dice; ``ValueError`` naming the key for anything out of shape."""
        dice = cls(check_seed(data["seed"]))
        words = {k: _hex128(data, k) for k in ("state", "inc")}
        state: Any = {"bit_generator": "PCG64", "state": words, "has_uint32": 0, "uinteger": 0}
        bitgen = dice._generator()
        bitgen.state = state
        dice._batch_state = state
        buffered = data["buffered"]
        if not isinstance(buffered, bool):
            raise ValueError(f"rng.buffered: expected true or false, not {buffered!r}")
        if buffered:
            dice._buffer = [int(w) for w in bitgen.random_raw(_BATCH).tolist()]
            dice._pos = _whole(data["pos"], "rng.pos", 0, _BATCH)
        dice.drawn = _rolls(data["drawn"])
        return dice

    def reseeded(self, seed: int) -> RandomDice:
        fresh = RandomDice(seed)
        fresh.drawn = list(self.drawn)
        return fresh


class ScriptedDice(Dice):
    """Hands out the given values in order; a clear error when they run out."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__()
        self.values: list[int] = [int(v) for v in values]
        self._pos = 0

    def _value(self, low: int, count: int) -> int:
        if self._pos >= len(self.values):
            what = f"a d{count}" if low == 1 else f"a pick among {count}"
            raise DiceExhausted(
                f"scripted dice exhausted after {len(self.values)} values (needed {what})"
            )
        value = self.values[self._pos]
        if not low <= value < low + count:
            what = f"a d{count} face" if low == 1 else f"a pick in 0..{count - 1}"
            raise ScriptedDiceError(f"scripted value #{self._pos + 1} = {value} is not {what}")
        self._pos += 1
        return value

    @property
    def remaining(self) -> int:
        return len(self.values) - self._pos

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": "scripted",
            "values": list(self.values),
            "pos": self._pos,
            "drawn": list(self.drawn),
        }

    def copy(self) -> ScriptedDice:
        twin = ScriptedDice(self.values)
        twin._pos = self._pos
        twin.drawn = list(self.drawn)
        return twin

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> ScriptedDice:
        dice = cls(_rolls(data["values"]))
        dice._pos = _whole(data["pos"], "rng.pos", 0, len(dice.values))
        dice.drawn = _rolls(data["drawn"])
        return dice

    def reseeded(self, seed: int) -> RandomDice:
        fresh = RandomDice(seed)
        fresh.drawn = list(self.drawn)
        return fresh


class ChanceNeeded(BaseException):
    """Explicit-chance dice reached a roll or pick whose outcome is not chosen yet.

    A ``BaseException``, like ``GeneratorExit``: a signal that must pass through
    any ``except Exception`` in rule code untouched.
    """

    def __init__(self, low: int, count: int) -> None:
        super().__init__(f"a chance event with {count} outcomes")
        self.low = low
        self.count = count


class ChanceDice(Dice):
    """Dice whose outcomes are chosen from outside (explicit-chance mode).

    ``outcomes`` are indices ``0 .. count - 1`` of the chance events in order; a
    roll past them raises :class:`ChanceNeeded` with the number of outcomes.
    Every outcome is equally likely (die faces and deck or cup picks are uniform).
    """

    def __init__(self, outcomes: Iterable[int] = (), drawn: Iterable[int] = ()) -> None:
        super().__init__()
        self.outcomes: list[int] = [int(o) for o in outcomes]
        self.drawn = [int(d) for d in drawn]
        self._pos = 0

    def _value(self, low: int, count: int) -> int:
        if self._pos >= len(self.outcomes):
            raise ChanceNeeded(low, count)
        index = self.outcomes[self._pos]
        if not 0 <= index < count:
            raise ValueError(f"chance outcome {index} is not in 0..{count - 1}")
        self._pos += 1
        return low + index

    def copy(self) -> ChanceDice:
        twin = ChanceDice(self.outcomes, self.drawn)
        twin._pos = self._pos
        return twin

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": "chance",
            "outcomes": list(self.outcomes),
            "pos": self._pos,
            "drawn": list(self.drawn),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> ChanceDice:
        dice = cls(_rolls(data["outcomes"]), _rolls(data["drawn"]))
        dice._pos = _whole(data["pos"], "rng.pos", 0, len(dice.outcomes))
        return dice

    def reseeded(self, seed: int) -> RandomDice:
        fresh = RandomDice(seed)
        fresh.drawn = list(self.drawn)
        return fresh


def _whole(value: Any, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{key}: expected a whole number in {low}..{high}, not {value!r}")
    return value


def _hex128(data: dict[str, Any], key: str) -> int:
    text = data[key]
    try:
        value = int(text, 16) if isinstance(text, str) else -1
    except ValueError:
        value = -1
    if not 0 <= value < 1 << 128:
        raise ValueError(f"rng.{key}: expected a 128-bit hexadecimal word, not {text!r}")
    return value


def _rolls(values: Any) -> list[int]:
    if not isinstance(values, list):
        raise ValueError(f"rng.drawn: expected a list, not {values!r}")
    return [_whole(v, "rng.drawn", 0, 1 << 32) for v in values]


def dice_from_data(data: dict[str, Any]) -> Dice:
    kind = data.get("kind")
    if kind == "chance":
        return ChanceDice.from_data(data)
    if kind == "pcg64":
        return RandomDice.from_data(data)
    if kind == "scripted":
        return ScriptedDice.from_data(data)
    raise ValueError(f"unknown dice kind {kind!r}")
