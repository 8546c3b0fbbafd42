"""TCS Omaha (The Gamers, 1991), part 1: the complete American landing system.

Rules text: TCS Omaha special rules 1.12, 1.15-1.17, 2.1-2.3, 2.7-2.11 (with the
placement limits of 3.3g and 3.4). The landing plan, boats, survival, random
losses, scatter, tide, waves and transports, command and leaders, LCT(R) fires,
artillery ammunition, airpower, NFSTs, the 29th ID and the overdraft are
implemented rule by rule: the published tables and small procedures in
:mod:`omaha.tcs.rules`, the sequence of play in :mod:`omaha.tcs.state`, one
module per procedure in :mod:`omaha.tcs.procedures`, the component data in
:mod:`omaha.tcs.components`. Resolving the attacks these rules launch (rockets,
A-20s, batteries) needs the TCS series fire tables: everything up to the attack
is computed and handed to a :class:`~omaha.tcs.procedures.fire.FireResolver`,
which part 2 supplies; the default logs each attack as unresolved.

Maps, order of battle, historical plan and set-up are reconstructions where the
text gives no data; every entry says so (``omaha provenance tcs``). Scope,
reconstructions and every reading of an ambiguous rule: ``READINGS.md``.
"""

from omaha.tcs.game import GAME

__all__ = ["GAME"]
