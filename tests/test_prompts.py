"""Prompts name only what is on offer: at every decision of seeded games of every game,
each action form a prompt names (by the phrases below) is among the legal actions."""

from __future__ import annotations

import re

import pytest

import omaha
from omaha.kernel.protocol import State

#: For each game: a phrase a prompt may hold, and the action classes it names.
NAMES: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "lnl": [
        (r"\bresolve\b", ("Resolve",)),
        (r"\bcancel\b", ("Cancel",)),
        (r"add firers", ("Add", "AddNgfs", "AddBonus")),
        (r"add attackers", ("Add",)),
        (r"^fire(,| or)", ("FireWith",)),
        (r"fire at .* in ", ("OpFire",)),
        (r"\bbombard\b", ("Bombard",)),
        (r"end the [\w ]+ phase", ("EndPhase",)),
        (r"move a unit", ("Move",)),
        (r"bring on reinforcements", ("Enter",)),
        (r"^close assault(?! on)", ("Assault",)),
        (r"\bpass\b", ("Pass",)),
        (r"\bstay\b", ("Stay",)),
        (r"advance into", ("Advance",)),
        (r"hex to strike", ("Strike",)),
        (r"choose a target", ("Target",)),
        (r": step\b", ("Step",)),
        (r"take a unit along", ("With",)),
        (r"drop one", ("Drop",)),
        (r"\bstop\b", ("Stop",)),
        (r"^place ", ("Place", "Deploy")),
    ],
    "tcs": [
        (r"\bor back\b", ("Back",)),
        (r"\bor stay\b", ("Stay",)),
        (r"\bmove\b[\w ,]* a unit", ("MoveMenu",)),
        (r"\bfire\b[\w ,]* a unit", ("FireMenu", "PointMenu")),
        (r"\bassault\b[\w ,]* a unit", ("AssaultMenu",)),
        (r"\bretreat\b[\w ,]* a unit", ("RetreatMenu",)),
        (r"end the action phase", ("EndAction",)),
        (r"add stacks", ("With", "WithAll")),
        (r"\bresolve\b", ("Resolve",)),
        (r"call artillery missions|fire the released batteries", ("Mission",)),
        (r"destroyer missions", ("Naval",)),
        (r"end missions", ("EndMissions",)),
        (r"test beach obstacle", ("Test",)),
        (r"begin breaches", ("Breach",)),
        (r"end the tests", ("EndTests",)),
        (r"commit a whole plan", ("CommitPlan", "UsePlan")),
        (r"add boats", ("OpenBoat",)),
        (r"end the plan", ("EndPlan",)),
        (r"close it", ("CloseBoat",)),
        (r"set up a pill box", ("PlacePillbox",)),
        (r"a whole set-up", ("UseSetup", "CommitSetup")),
        (r"set up a rocket pit", ("PlaceRocketPit",)),
        (r"convert pill boxes", ("Convert",)),
        (r"fire or move mode", ("SetMode",)),
        (r"start op sheets", ("OpSheet",)),
        (r"\bor end$", ("EndConversions", "EndModes", "EndSheets")),
        (r"^overwatch at", ("Overwatch", "OverwatchAt")),
    ],
    "bloody": [
        (r"play a card", ("PlayCard", "PlayCardAt")),
        (r"\bcontinue\b", ("Continue",)),
        (r"add a square", ("AddSquare",)),
        (r"\bresolve\b", ("ResolveAttack",)),
        (r"\bor end\b", ("EndActivation",)),
        (r"shuffle one back", ("ReturnCard",)),
        (r"Random Event", ("ChooseEvent",)),
    ],
    "landing_table": [
        (r"add units", ("Join",)),
        (r"\bresolve\b", ("Resolve", "ResolveHero")),
        (r"comes ashore", ("Land",)),
        (r"may drift", ("Drift",)),
        (r"drift with", ("Follow",)),
        (r"to be hit", ("Hit",)),
        (r"give a step", ("Attrition",)),
    ],
}
#: The long scenarios are checked over their first decisions only.
MOST = 1500


def not_on_offer(state: State, names: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    """The phrases of the prompt now whose actions are not legal."""
    assert state.pending is not None
    prompt = state.pending.prompt
    kinds = {type(a).__name__ for a in state.legal_actions()}
    return [p for p, classes in names if re.search(p, prompt) and not kinds & set(classes)]


CASES = [(g, s) for g in NAMES for s in omaha.load(g).scenarios()]


@pytest.mark.parametrize(("name", "scenario"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_every_form_a_prompt_names_is_on_offer(name: str, scenario: str) -> None:
    game = omaha.load(name)
    prompts = 0
    for seed, bot in ((1, "random"), (2, "random"), (3, "heuristic")):
        state = game.new_state(scenario, seed=seed)
        bots = {p: game.bots[bot](seed=seed * 7 + i) for i, p in enumerate(game.players)}
        fallback = game.bots["random"](seed=seed)
        for _ in range(MOST):
            if state.is_terminal():
                break
            wrong = not_on_offer(state, NAMES[name])
            assert not wrong, (state.pending, wrong, [str(a) for a in state.legal_actions()])
            prompts += 1
            try:
                action = bots[state.current_player() or ""].choose(state)
            except omaha.IllegalAction:  # a one-sided bot refuses the other side's decisions
                action = fallback.choose(state)
            state.apply(action)
    assert prompts > 50


#: The decisions of putting an attack together, by game (their target is the focus).
ATTACKS = {
    "lnl": ("fire", "assault", "opportunity fire"),
    "tcs": ("fire",),
    "bloody": ("attack",),
    "landing_table": ("attack",),
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_an_attack_being_put_together_names_its_target_hex_as_the_focus(name: str) -> None:
    """``pending.focus`` is the attacked hex while an attack is built (the browser marks
    it); LnL, TCS and Bloody name it in the prompt too; no other decision has a focus."""
    game = omaha.load(name)
    seen = 0
    scenario = game.scenarios()[0] if name != "tcs" else "e1-draw"
    for seed in (1, 2, 3, 4):
        state = game.new_state(scenario, seed=seed)
        bots = {p: game.bots["heuristic"](seed=seed + i) for i, p in enumerate(game.players)}
        fallback = game.bots["random"](seed=seed)
        for _ in range(MOST):
            if state.is_terminal():
                break
            pend = state.pending
            assert pend is not None
            building = pend.kind in ATTACKS[name] and pend.focus
            if pend.focus:
                assert pend.kind in ATTACKS[name], pend
                (cell,) = pend.focus
                assert state.view(None).board.has(cell), pend
                if name != "landing_table":  # it names the position, not its hex
                    assert cell in pend.prompt, pend
            seen += bool(building)
            try:
                action = bots[state.current_player() or ""].choose(state)
            except omaha.IllegalAction:
                action = fallback.choose(state)
            state.apply(action)
    assert seen > 0
