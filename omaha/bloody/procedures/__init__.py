"""Bloody Omaha procedures: functions over :class:`~omaha.bloody.core.BloodyCore`.

One module per procedure the rules impose: ``setup`` (4.1-4.5), ``turns`` (the
Draw phase 5.1 and the end of the game 2.2), ``events`` (Random Events 5.2, 6.4,
8.1.b), ``activation`` (what the US may do in the Activation phase, 5.3, and why
not), ``movement`` (moving into German squares, 8.1, 8.2), ``attack`` (8.4),
``engineers`` (8.5), ``tanks`` (8.3), ``cards`` (9.0), ``landing`` (drift and beach
disruption, 6.0), and the shared effects ``units`` (hits, rallies, moves),
``tokens`` (revealing, removing, gaps) and ``ratings`` (7.0); ``information``
deals the face-down tokens anew for a resample (4.1). They import the
core, the rules and the components, never the state: the state decides which
procedure runs next.
"""
