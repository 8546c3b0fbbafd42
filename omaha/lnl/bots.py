"""Bots for LnL Omaha (placeholder while the policies are built)."""

from __future__ import annotations

from omaha.kernel.protocol import RandomBot


class LnlRandomBot(RandomBot):
    pass


class SolitaireGerman(RandomBot):
    pass


class HeuristicUS(RandomBot):
    pass
