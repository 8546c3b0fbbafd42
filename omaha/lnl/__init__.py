"""Omaha: The Battle for the Beach (Lock 'n Load Publishing / Armchair General).

``omaha.load("lnl")`` gives the game; scenarios ``beach`` (the main game, with the
options ``+turn11`` and ``+d6``) and ``vierville`` (the bonus scenario).
"""

from omaha.lnl.game import LnlGame

GAME = LnlGame()

__all__ = ["GAME", "LnlGame"]
