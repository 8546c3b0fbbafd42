"""The LnL Omaha procedures: functions over the data core, one module per procedure.

``placement`` (set-up, landings, the 101st), ``movement`` (moves and reinforcements
entering), ``fire`` (fire combat and NGFS), ``opportunity`` (opportunity fire),
``losses`` (fire results and step losses), ``assault`` (close assault, retreats,
advances), ``airstrike`` and ``events`` (the action card events), ``rally``
(disruption removal) and ``victory`` (the end of the game). They import the core,
the rules and the components, never the state: which procedure runs next is
decided in :mod:`omaha.lnl.state`.
"""
