"""The LnL Omaha components: typed records of the data files and their loaders.

``map`` (the board's facts as the rules read them: terrain, crests, sight),
``counters`` (``data/units.toml``), ``deck`` (``data/deck.toml`` and the action
deck in play), ``forces`` (who sets up or arrives where, from a scenario file)
and ``setups`` (the shipped set-up plans). Every record keeps its provenance.
"""
