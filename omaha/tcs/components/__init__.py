"""The components of TCS Omaha as typed records, read from the data files.

Tables (:mod:`.tables`), the US order of battle (:mod:`.oob`), the beach read
off the map (:mod:`.beach`), landing plans (:mod:`.plan`) and the turn track
(:mod:`.turns`). Every entry of a data file states its provenance.
"""
