"""Bloody Omaha bots (placeholder heuristic for now)."""

from __future__ import annotations

from omaha.kernel.protocol import RandomBot


class HeuristicBot(RandomBot):
    pass
