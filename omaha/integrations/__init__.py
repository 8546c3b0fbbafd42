"""Adapters to agent libraries, each an optional extra:

* :mod:`omaha.integrations.pettingzoo` (``pip install omaha[pettingzoo]``): an
  ``AECEnv`` per game and scenario;
* :mod:`omaha.integrations.openspiel` (``pip install omaha[openspiel]``): every game
  registered with ``pyspiel``, sampled-chance and explicit-chance.

Both use only the protocol: the fixed action numbering (``Game.action_space``),
``State.observation``, ``State.returns`` and ``Game.limits``.
"""
