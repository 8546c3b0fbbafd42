"""The timing helper every benchmark script shares (prints, asserts nothing)."""

from __future__ import annotations

import time
from collections.abc import Callable


def timed(label: str, fn: Callable[[], object], repeat: int, unit: str = "op") -> float:
    """Run ``fn`` once to warm up, then ``repeat`` times; print and return seconds per call."""
    fn()
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    per = (time.perf_counter() - start) / repeat
    print(f"{label:<56s} {per * 1e6:11.1f} us/{unit}")
    return per
