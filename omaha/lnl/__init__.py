"""Omaha: The Battle for the Beach (Lock 'n Load Publishing / Armchair General).

The complete game: the main game (``beach``, two-player or solitaire, with the
options ``+turn11`` for the optional eleventh turn and ``+d6`` for a die instead
of the action cards in combat and disruption removal) and the bonus scenario
``vierville`` (Counterattack on Vierville). Bots: ``random``, ``solitaire`` (the
German side by the published solitaire guidelines) and ``heuristic`` (an
American player). The map's terrain beyond the hexes the rules name, the counter
values and some card events are reconstructed, each stating why; the readings of
ambiguous rules are in ``READINGS.md``. ``omaha.load("lnl")`` gives the game.
"""

from omaha.lnl.game import LnlGame

GAME = LnlGame()
