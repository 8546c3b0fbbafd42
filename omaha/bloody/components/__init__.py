"""Bloody Omaha components: loaders and typed records of the data files.

``map`` (squares, terrain, exits, gray arrows), ``units`` (the US counters),
``tokens`` (Strongpoint and Encounter token mixes and faces), ``tables`` (the die
tables) and ``cards`` (the player cards). Every entry states its provenance.
"""
