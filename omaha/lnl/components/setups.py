"""The shipped set-up plans (``data/scenarios/setups/<side>_<scenario>.toml``):
a side's whole set-up, given to the game as one validated ``deploy`` action."""

from __future__ import annotations

from pathlib import Path

from omaha.kernel.data import load_toml

SETUPS = Path(__file__).resolve().parent.parent / "data" / "scenarios" / "setups"


def setup_plan(scenario_id: str, side: str) -> tuple[str, ...] | None:
    """The shipped plan of ``side`` for a scenario (options ignored) as ``unit@hex``
    placements, or None when there is none."""
    base = scenario_id.split("+")[0]
    path = SETUPS / f"{'german' if side == 'German' else 'us'}_{base}.toml"
    if not path.exists():
        return None
    node = load_toml(path)
    node.req("setup").source()
    return tuple(f"{uid}@{hx.as_str()}" for uid, hx in node.req("placements").items())
