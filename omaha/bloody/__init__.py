"""Bloody Omaha (Lombardy Studios, 2024 playtest, solo rules draft 2.1).

A solo game: the US player (``players = ("US",)``) lands companies and battalions
on a square-grid Omaha Beach and spends Initiative and Engineer assets to gap the
obstacles, clear the strongpoints and push through the draws into the bocage. The
German side is the system: face-down Strongpoint and Encounter tokens, the tables
and the die. The two-player mode the designer mentions (3.4.a) is left out: its
rules are not in the text.

Modules: ``rules`` (modifiers, tables, attack and victory procedures), ``scenario``
(data loading with provenance), ``state`` (sequence of play, legal actions, apply),
``landing`` (drift and beach disruption), ``combat`` (moving into German squares,
attacks, engineers, tank moves), ``effects`` (units, tokens, tanks, random events),
``cards``, ``explain`` (why an action is illegal), ``view`` (views, metrics,
snapshots), ``bots`` (random and heuristic), ``game`` (the registered Game). Data in
``data/``; the scope, the reconstructions and every reading of an ambiguous rule are
in ``READINGS.md``.
"""

from omaha.bloody.game import GAME

__all__ = ["GAME"]
