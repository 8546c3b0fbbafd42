"""TCS Omaha (The Gamers, 1991): the American landing system and the battle for
the beach, playable to a winner.

Rules text: the TCS Omaha special rules (1.1-1.17 terrain, 2.1-2.11 American,
3.1-3.4 German). The landing plan, boats, survival, scatter, tide, waves and
transports, command and leaders, LCT(R) fires, airpower, NFSTs, the 29th ID and the
overdraft; then the battle: modes, movement, spotting and line of sight with the
hedgerows, area and point fire, morale and SYR with the shingle, assault and AT
rolls, overwatch, artillery and destroyer missions, beach obstacles, shingle
breaches and the draw exits, pill boxes and rocket pits, the German release system
and op sheets. The published tables and small procedures are in
:mod:`omaha.tcs.rules`, the sequence of play in :mod:`omaha.tcs.state`, one module
per procedure in :mod:`omaha.tcs.procedures`, the component data in
:mod:`omaha.tcs.components`.

The TCS series rules are not in our text: their tables (``data/series.toml``) are
reconstructed after public descriptions of the series, each entry naming the one it
follows; so are the maps, forces, scenarios, historical plan and set-up where the
text gives no data. Every entry says so (``omaha provenance tcs``). Scope,
reconstructions and every reading of an ambiguous rule: ``READINGS.md``.
"""

from omaha.tcs.game import GAME

__all__ = ["GAME"]
