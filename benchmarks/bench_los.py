"""Rough timings for omaha.kernel.los (prints figures, asserts nothing).

Run from the repo root: ``python benchmarks/bench_los.py``.
"""

from __future__ import annotations

import time

from omaha.kernel.hexes import Hex
from omaha.kernel.los import clear_caches, thread, thread_offset


def per_call(fn: object, args: list[tuple[int, int]], repeat: int = 1) -> float:
    """Mean seconds per call of fn(*a) over args (repeated)."""
    assert callable(fn)
    start = time.perf_counter()
    for _ in range(repeat):
        for a in args:
            fn(*a)
    return (time.perf_counter() - start) / (len(args) * repeat)


def main() -> None:
    uncached = thread_offset.__wrapped__
    for n in (5, 20, 60):
        offsets = [(h.q, h.r) for h in Hex(0, 0).ring(n)]
        t = per_call(uncached, offsets)
        print(
            f"uncached thread_offset, distance {n}: {t * 1e6:9.1f} us/thread "
            f"({len(offsets)} offsets)"
        )

    a, b = Hex(7, -3), Hex(22, 4)
    thread(a, b)
    reps = 100_000
    start = time.perf_counter()
    for _ in range(reps):
        thread(a, b)
    t = (time.perf_counter() - start) / reps
    print(f"cached thread() call, distance {a.distance(b)}: {t * 1e6:9.2f} us/call")

    centre = Hex(12, -5)
    region = centre.range(40)
    for label in ("uncached", "cached"):
        if label == "uncached":
            clear_caches()
        start = time.perf_counter()
        for h in region:
            thread(centre, h)
        total = time.perf_counter() - start
        print(
            f"region radius 40 ({len(region)} hexes), centre to every hex, {label}: "
            f"{total * 1e3:9.1f} ms total, {total / len(region) * 1e6:7.1f} us/thread"
        )


if __name__ == "__main__":
    main()
