"""The procedures of TCS Omaha: one module per procedure the rules impose.

Each is a set of functions over :class:`omaha.tcs.core.TcsCore`: a step
(``step_*``, run by the state's sequence of play; it returns True when done,
or waits for a decision and returns False), and for a decision the legal
actions (``legal_*``), what an action does (``apply_*``) and why another is
refused (``explain_*``). They import the core, the rules and the components,
never the state.
"""
