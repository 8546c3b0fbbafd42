"""D-Day at Omaha Beach (Decision Games, 2009): its published charts and a reconstructed game.

A solitaire game: the one player is the US; the German side is run by the fire
cards and the charts. Published (``data/charts.toml``, applied by
:mod:`omaha.landing_table.rules`): the Amphibious Landing Table, the German
Fire Chart, the US Weapons Chart, the US Barrage Table, the Terrain Defense
Table, the US Attack Results Chart and the German Action Summary for turns
17-32, with their notes. Reconstructed (every record says so and why;
``omaha provenance landing_table`` lists them): the map, the German positions
and units, the US order of battle and landing schedule, the fire card deck,
movement costs, the sequence of play, tide, naval fire and victory. Scope,
reconstructions and every reading of the charts: ``READINGS.md``.

Shipped scenarios: ``omaha`` (the whole day, 32 turns) and ``first_wave``
(06:30-10:30). Bots: ``random`` and ``heuristic`` (a sensible US player).
"""

from omaha.landing_table.game import LandingTableGame

GAME = LandingTableGame()

__all__ = ["GAME"]
