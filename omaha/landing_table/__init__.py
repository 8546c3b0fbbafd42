"""D-Day at Omaha Beach (Decision Games, 2009): its published charts and a reconstructed game.

Published (``data/charts.toml``, applied by :mod:`omaha.landing_table.rules`): the
Amphibious Landing Table, the German Fire Chart, the US Weapons Chart, the US
Barrage Table, the Terrain Defense Table, the US Attack Results Chart and the
German Action Summary for turns 17-32, with their notes.

Reconstructed (every record says so and why; ``omaha provenance landing_table``
lists them): the map (``data/map.toml``), the German positions with their fields of
fire and the German units (``positions.toml``), the US order of battle and landing
schedule (``oob.toml``), the fire card deck (``cards.toml``), movement costs
(``movement.toml``), the sequence of play, tide, naval fire and victory conditions
(the scenarios and :mod:`omaha.landing_table.state`). A solitaire game: the one
player is the US; the German side is run by the fire cards and the charts.
"""

from omaha.landing_table.game import DDOBGame

GAME = DDOBGame()

__all__ = ["GAME"]
