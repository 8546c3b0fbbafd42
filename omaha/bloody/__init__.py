"""Bloody Omaha (Lombardy Studios, 2024 playtest, solo rules draft 2.1).

A solo game: the US player (``players = ("US",)``) lands companies and battalions
on a square-grid Omaha Beach and spends Initiative and Engineer assets to gap the
obstacles, clear the strongpoints and push through the draws into the bocage. The
German side is the system: face-down Strongpoint and Encounter tokens, the tables
and the die. Scope: the complete solo game (set-up, drift, beach disruption,
Random Events, Initiative and Engineers, moves into German squares, attacks,
engineers, tanks, cards, victory); the two-player mode the designer mentions
(3.4.a) is left out, its rules are not in the text. The text prints no map,
counter, token value, table or card: every one of them is reconstructed data whose
provenance says why.

The module has the common shape: ``game`` (the registered Game), ``scenario``
(``SHIPPED``, ``BloodyScenario``, ``load_scenario``), ``actions`` (``ACTIONS``),
``core`` (``BloodyCore``: every field of a game in progress), ``state``
(``BloodyState``: the sequence of play), ``procedures/`` (set-up, turns, events,
activation, movement, attack, engineers, tanks, cards, landing, and the shared
unit, token and rating effects), ``rules`` (pure cited functions), ``components/``
(data loaders), ``view`` (views, metrics, snapshots), ``bots`` (random and
heuristic). Data in ``data/``, the shipped scenario in ``data/scenarios/``; the
scope, the reconstructions and every reading of an ambiguous rule are in
``READINGS.md``.
"""

from omaha.bloody.game import GAME

__all__ = ["GAME"]
