"""Play the US side of LnL Omaha yourself, in code, against the solitaire German.

The "player" here is a simple loop with a plan of its own: land, then prefer
firing at the strongest target in range, then moving towards the bluffs, and end
each phase when nothing is left worth doing. The German side is the published
solitaire guidelines (``game.bots["solitaire"]``). Run it and read the log: every
card drawn and every fire is explained with the rule it applies.

    python examples/play_lnl_solitaire.py [seed]
"""

from __future__ import annotations

import sys

import omaha


def my_choice(state: omaha.State) -> omaha.Action:
    """A plain American: fire when it can, move when it can, otherwise end the phase."""
    actions = state.legal_actions()
    by_word: dict[str, list[omaha.Action]] = {}
    for action in actions:
        by_word.setdefault(str(action).split()[0], []).append(action)
    for word in ("fire", "resolve", "assault", "move", "enter", "place", "lose", "retreat"):
        if word in by_word:
            return by_word[word][0]
    return actions[0]


def main(seed: int = 1) -> omaha.State:
    game = omaha.load("lnl")
    german = game.bots["solitaire"](seed=seed)
    state = game.new_state("beach", seed=seed)
    while not state.is_terminal():
        if state.current_player() == "German":
            state.apply(german.choose(state))
        else:
            state.apply(my_choice(state))
    print(state.log_text())
    print()
    print("Result:", state.outcome())
    print("Victory hexes held by the US:", state.metrics()["victory_hexes_held"])
    return state


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
