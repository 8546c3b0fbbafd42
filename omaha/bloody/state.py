"""Bloody Omaha: the sequence of play — which procedure runs next.

The US is the only player; the German side is the system: face-down tokens, the
tables and the die. The state runs every procedure the rules impose (set-up
draws, the Draw phase, Drift, Landing) and stops whenever the US must decide.

Sequence (5.0): turn 1 is the set-up card choice, then Drift and Landing only
(5.4.a); later turns run Draw, Random Event, Activation, Drift, Landing. The game
ends after the Landing phase of the last turn (see the scenario's game length).
The decision awaited is :attr:`~omaha.bloody.core.BloodyCore.step`; the tables
below give, for each, its prompt and its legal actions.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Collection
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.dice import Dice
from omaha.kernel.events import register_templates
from omaha.kernel.facts import Facts, Names
from omaha.kernel.observation import Observing
from omaha.kernel.view import Offer, Pending, View, on_offer

from . import facts as bloody_facts
from . import view as seen
from .actions import (
    AddSquare,
    Attack,
    ChooseEvent,
    Continue,
    EndActivation,
    Engineers,
    Move,
    MoveTank,
    PlayCard,
    PlayCardAt,
    Rally,
    Release,
    ResolveAttack,
    ReturnCard,
)
from .core import BloodyCore, Phase, Step
from .observation import BloodyObservation
from .procedures import (
    activation,
    attack,
    cards,
    engineers,
    events,
    information,
    landing,
    movement,
    setup,
    tanks,
    turns,
)
from .procedures.units import rally

register_templates(
    {
        "bloody.text": "{text}",
        "bloody.turn": "Turn {turn} begins{note}",
    }
)


# ---------------------------------------------------------------------- the decisions
def _setup_prompt(st: BloodyState) -> Pending:
    return Pending("return", "US", f"drew {', '.join(st.offered)}: shuffle one back (4.5)")


def _cards_prompt(st: BloodyState) -> Pending:
    parts: tuple[Offer, ...] = (
        ("play a card before the Drift rolls", (PlayCard, PlayCardAt)),
        ("continue", Continue),
    )
    return Pending("cards", "US", on_offer(st.legal_actions(), parts))


def _event_prompt(st: BloodyState) -> Pending:
    return Pending("event", "US", "choose the squares for the Random Event (5.2)")


def _attack_prompt(st: BloodyState) -> Pending:
    squares = ", ".join(st.label(c) for c in st.attack_squares)
    parts: tuple[Offer, ...] = (("add a square", AddSquare), ("resolve", ResolveAttack))
    choice = on_offer(st.legal_actions(), parts)
    target = st.label(st.attack_target)
    return Pending("attack", "US", f"attack on {target} from {squares}: {choice}", (target,))


def _activation_prompt(st: BloodyState) -> Pending:
    return Pending(
        "activate",
        "US",
        f"{st.init_token} Initiative and {st.eng_token} Engineers left: act or end",
    )


PROMPTS: dict[Step, Callable[[BloodyState], Pending]] = {
    Step.SETUP: _setup_prompt,
    Step.CARDS: _cards_prompt,
    Step.EVENT: _event_prompt,
    Step.ATTACK: _attack_prompt,
    Step.ACTIVATE: _activation_prompt,
}


def _return_choices(st: BloodyState) -> list[int]:
    return [st.catalogue.return_card[c] for c in st.offered]


def _landing_choices(st: BloodyState) -> list[int]:
    return [st.catalogue.continue_, *cards.playable_codes(st, "landing")]


def _event_choices(st: BloodyState) -> list[int]:
    pairs = st.catalogue.choose_event
    return [pairs[pair] for pair in st.event_pairs()]


def _attack_choices(st: BloodyState) -> list[int]:
    cat = st.catalogue
    out = [cat.resolve_attack]
    if st.init_token >= 1:
        out.extend(cat.add_square[c] for c in attack.attack_additions(st))
    return out


def _no_choice(st: BloodyState) -> list[int]:
    return []


#: The legal actions of each decision, as codes of the action catalogue.
CHOICES: dict[Step, Callable[[BloodyState], list[int]]] = {
    Step.SETUP: _return_choices,
    Step.CARDS: _landing_choices,
    Step.EVENT: _event_choices,
    Step.ATTACK: _attack_choices,
    Step.ACTIVATE: activation.activation_actions,
    Step.OVER: _no_choice,
}


class BloodyState(Observing, BloodyCore):
    """A game of Bloody Omaha in progress."""

    declared = BloodyObservation  # the observation (Observing)

    def _setup(self) -> None:
        self.set_up_fields()
        setup.place_tokens_and_deal(self)

    @property
    def pending(self) -> Pending | None:
        if self.result is not None:
            return None
        return PROMPTS[self.step](self)

    def _legal_actions(self) -> list[Action]:
        return self._legal_actions_in_order()

    def _legal_actions_in_order(self) -> list[Action]:
        """Sorted by notation through the catalogue's codes (no formatting); the codes
        are kept for :meth:`action_mask` (the kernel caches the actions alongside)."""
        codes = CHOICES[self.step](self)
        actions = self.catalogue.in_order(codes)
        self._listed_codes = codes
        return actions

    def _codes(self) -> list[int]:
        """The catalogue codes of the legal actions, ascending (notation order)."""
        legal = self.legal_actions()
        codes = self._listed_codes
        if len(codes) != len(legal) or (legal and self.catalogue.action[codes[0]] is not legal[0]):
            codes = self._listed_codes = self.catalogue.codes_of(legal)  # listed another way
        return codes

    def is_legal(self, action: object) -> bool:
        """Whether an action equal to ``action`` is listed: found in the catalogue by value
        and among the listed codes by bisection (no set of the legal actions is built, so
        an action made anew, e.g. decoded from its number, is checked cheaply)."""
        codes = self._codes()
        try:
            self.game.codec.check(action)
        except IllegalAction:
            return False
        assert isinstance(action, Action)  # codec.check refuses anything else
        code = self.catalogue.code_of_equal(action)
        if code is None:
            return False
        k = bisect.bisect_left(codes, code)
        return k < len(codes) and codes[k] == code

    def names(self, action: Action, piece_ids: Collection[str] | None = None) -> Names:
        """The squares and units ``action`` names: :mod:`omaha.bloody.facts`."""
        return bloody_facts.names(self, action, piece_ids)

    def facts(self, action: Action) -> Facts:
        """What ``action`` would do: :mod:`omaha.bloody.facts`."""
        return bloody_facts.facts(self, action)

    def explain_illegal(self, action: Action) -> str:
        try:
            self.game.codec.check(action)  # a mistyped field: say which
        except IllegalAction as exc:
            return str(exc)
        return activation.explain(self, action) or super().explain_illegal(action)

    # ------------------------------------------------------------------ apply
    def _apply(self, action: Action) -> None:
        board = self.board
        units = self.scen.unit_index
        match action:
            case ReturnCard(card=card):
                setup.return_card(self, card)
                self.current_phase = Phase.DRIFT
                self.note(
                    "bloody.turn",
                    "5.4.a",
                    turn=1,
                    note=" with the Drift phase (no Draw, no Activation)",
                )
                self.begin_drift_phase()
            case Continue():
                self._drift_and_land()
            case PlayCardAt(card=card, option=option, square=square):
                cards.play(self, card, option, board.cell(square))
            case PlayCard(card=card, option=option):
                cards.play(self, card, option, None)
            case ChooseEvent(us=us, german=german):
                events.choose_event(self, board.cell(us), board.cell(german))
                self._begin_activation()
            case Move(unit=unit, square=square):
                activation.spend(self)
                movement.move_into(self, units[unit], board.cell(square))
            case Attack(target=target, square=square):
                activation.spend(self)
                attack.start_attack(self, board.cell(target), board.cell(square))
                self.step = Step.ATTACK
            case AddSquare(square=square):
                activation.spend(self)
                attack.add_square(self, board.cell(square))
            case ResolveAttack():
                attack.resolve_attack(self)
                self.step = Step.ACTIVATE
            case Engineers(square=square, assets=assets):
                activation.spend(self)
                engineers.engineer_attempt(self, board.cell(square), assets)
            case Rally(unit=unit):
                activation.spend(self)
                rally(self, units[unit], "5.3.d", "1 Initiative")
            case MoveTank(tank=tank, unit=unit):
                activation.spend(self)
                tanks.move_tank(self, int(tank.removeprefix("tank")) - 1, unit)
            case Release(unit=unit, square=square):
                activation.spend(self)
                activation.release(self, units[unit], board.cell(square))
            case EndActivation():
                activation.end_activation(self)
                self.begin_drift_phase()
            case _:  # pragma: no cover - the base class checked legality
                raise AssertionError(f"unhandled action {action}")

    # ------------------------------------------------------------------ the sequence of play
    def begin_drift_phase(self) -> None:
        """5.4: open the card window before the Drift rolls, or roll at once when no
        unit is at sea or no landing card can be played."""
        self.current_phase = Phase.DRIFT
        self.step = Step.CARDS
        if self.at_sea() and cards.playable_codes(self, "landing"):
            return
        self._drift_and_land()

    def _drift_and_land(self) -> None:
        """5.4, 5.5: the Drift rolls and the Landing phase, then the end of the turn."""
        self.current_phase = Phase.DRIFT
        if not self.at_sea():
            self.note(
                "bloody.text", "5.4, 5.5", text="no US unit at sea: no Drift rolls, no Landing"
            )
        arriving = landing.drift_rolls(self)
        self.current_phase = Phase.LANDING
        landing.land(self, arriving)
        self.end_turn()

    def end_turn(self) -> None:
        """5.0: the next turn opens with the Draw and Random Event phases; after the last
        turn (or with no unit left) the game ends (2.2)."""
        if turns.game_over(self):
            self.current_phase = Phase.END
            self.step = Step.OVER
            turns.finish(self)
            return
        self.turn += 1
        self.current_phase = Phase.DRAW
        self.note("bloody.turn", "5.0", turn=self.turn, note="")
        turns.draw_phase(self)
        self.begin_random_event_phase()

    def begin_random_event_phase(self) -> None:
        """5.2: the US chooses the squares of a Random Event, if any US square is next to
        a German token; otherwise the phase is skipped."""
        self.current_phase = Phase.RANDOM_EVENT
        if self.event_pairs():
            self.step = Step.EVENT
            return
        self.note(
            "bloody.text", "5.2", text="no US unit is next to a German token: no Random Event"
        )
        self._begin_activation()

    def _begin_activation(self) -> None:
        self.current_phase = Phase.ACTIVATION
        self.step = Step.ACTIVATE

    # ------------------------------------------------------------------ views and snapshots
    def metrics(self) -> dict[str, float]:
        return seen.metrics(self)

    def view(self, player: str | None = None) -> View:
        return seen.build_view(self, player)

    # ------------------------------------------------------------------ information sets
    def _hidden_parts(self, player: str) -> tuple[object, ...]:
        """The face-down tokens (3.5.d-e): hidden from the US, the only player."""
        return information.hidden_parts(self) if player == "US" else ()

    def _redraw_hidden(self, player: str, dice: Dice) -> None:
        """The unseen tokens dealt anew among the face-down squares and the cups (4.1);
        the kernel drops the kept observation and the token caches afterwards."""
        if player == "US":
            information.redraw(self, dice)

    def returns(self) -> dict[str, float]:
        return seen.returns(self)

    def _dump(self) -> dict[str, Any]:
        return seen.dump(self)

    def _restore(self, data: dict[str, Any]) -> None:
        seen.restore(self, data)
        self.prepare()
