"""Bloody Omaha: the game state, the sequence of play, legal actions and their effects.

The US is the only player; the German side is the system: face-down tokens,
the tables and the die. The state runs every procedure the rules impose (set-up
draws, the Draw phase, Drift, Landing) and stops whenever the US must decide.

Sequence (5.0): turn 1 is the set-up card choice, then Drift and Landing only
(5.4.a); later turns run Draw, Random Event, Activation, Drift, Landing. The game
ends after the Landing phase of the last turn (see the scenario's game length).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.decks import Cup, Deck
from omaha.kernel.events import register_templates
from omaha.kernel.protocol import Outcome, State
from omaha.kernel.view import Pending, View

from . import cards, combat, landing, rules
from . import effects as fx
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
from .effects import ASIDE, BOX
from .explain import explain
from .scenario import BEACH, MINES, BloodyScenario

register_templates(
    {
        "bloody.setup": "{text}",
        "bloody.turn": "Turn {turn} begins{note}",
        "bloody.draw": "draws a card ({card}); Initiative {init}, Engineers {eng}",
        "bloody.attack.start": "{square} attacks {target} (1 Initiative)",
        "bloody.attack.add": "{square} joins the attack on {target} (1 Initiative)",
        "bloody.release": "{unit} released from the Reinforcements box to {square}",
        "bloody.end_activation": "ends the Activation phase ({left} Initiative unspent)",
        "bloody.end": "game over after turn {turn}: {level}; {vp} VP ({breakdown}); "
        "{exits} exit(s) cleared",
    }
)

SETUP, CARDS, EVENT, ACTIVATE, ATTACK, OVER = (
    "setup",
    "landing_cards",
    "random_event",
    "activation",
    "attack",
    "over",
)


class BloodyState(State[BloodyScenario]):
    """A game of Bloody Omaha in progress."""

    scen: BloodyScenario

    def _setup(self) -> None:
        scenario = self.scenario
        self.scen = scenario
        n_units = len(scenario.units)
        self.turn = 1
        self._phase = "Set-up"
        self.step = SETUP
        self.where: list[int] = [u.setup if u.setup >= 0 else BOX for u in scenario.units]
        self.disrupted: list[bool] = [False] * n_units
        self.landed: list[bool] = [False] * n_units
        self.aim: list[int] = [
            scenario.column[u.setup] if u.setup >= 0 else -1 for u in scenario.units
        ]
        self.ashore: list[int] = [-1] * n_units
        self.eliminated: list[int] = []
        self.tokens: dict[int, list[tuple[str, bool]]] = {}
        self.gap: dict[int, bool] = {b: False for b in scenario.beaches}
        self.init_rating = self.init_token = rules.RATING_START
        self.eng_rating = self.eng_token = rules.RATING_START
        self.hand: list[str] = []
        self.offered: list[str] = []
        self.deck = Deck(scenario.card_ids)
        self.drift_mod = self.landing_mod = self.attack_bonus = 0
        self.attack_target = -1
        self.attack_squares: list[int] = []
        self.tanks: list[list[int]] = [[ASIDE, -1] for _ in range(scenario.tank_count)]
        self.sp_removed = self.enc_removed = self.value_removed = 0
        self.gaps_made = 0
        self.first_wave_ashore = 0
        self.released = 0
        self.exit_turns: list[int] = []
        self.result: Outcome | None = None
        self._place_tokens_and_deal()

    # ------------------------------------------------------------------ protocol
    @property
    def turn_label(self) -> str:
        return f"Turn {self.turn}"

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def pending(self) -> Pending | None:
        if self.result is not None:
            return None
        if self.step == SETUP:
            return Pending(
                "return", "US", f"drew {', '.join(self.offered)}: shuffle one back (4.5)"
            )
        if self.step == CARDS:
            return Pending("cards", "US", "play a card before the Drift rolls, or continue")
        if self.step == EVENT:
            return Pending("event", "US", "choose the squares for the Random Event (5.2)")
        if self.step == ATTACK:
            squares = ", ".join(self.board.labels[c] for c in self.attack_squares)
            return Pending(
                "attack",
                "US",
                f"attack on {self.board.labels[self.attack_target]} from {squares}: "
                "add a square or resolve",
            )
        return Pending(
            "activate",
            "US",
            f"{self.init_token} Initiative and {self.eng_token} Engineers left: act or end",
        )

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    # ------------------------------------------------------------------ set-up
    def _place_tokens_and_deal(self) -> None:
        scen = self.scen
        sp_cup, enc_cup = Cup(scen.strongpoint_tokens), Cup(scen.encounter_tokens)
        encounter = set(scen.encounter_squares)
        for cell in range(len(self.board)):
            toks: list[tuple[str, bool]] = []
            if scen.kind[cell] == "strongpoint":
                toks.append((sp_cup.draw(self.dice), False))
            if cell in encounter:
                toks.append((enc_cup.draw(self.dice), False))
            if toks:
                self.tokens[cell] = toks
        self.note(
            "bloody.setup",
            "4.1",
            text=f"face-down tokens: a Strongpoint token in each of {len(scen.strongpoints)} "
            f"strongpoints; an Encounter token in each of {len(encounter)} red/gray "
            "strongpoints, towns and hedgerows",
        )
        self.note(
            "bloody.setup",
            "4.2",
            text=f"an Obstacle token on each of the {len(scen.beaches)} Beach squares",
        )
        self.note(
            "bloody.setup",
            "4.3",
            text=f"Turn, Initiative and Engineers at 1; {scen.tank_count} Tank tokens set aside",
        )
        at_sea = sum(1 for w in self.where if w >= 0)
        self.note(
            "bloody.setup",
            "4.4",
            text=f"{at_sea} units in their Channel squares, "
            f"{len(self.where) - at_sea} in the Reinforcements box",
        )
        self.offered = sorted(self.deck.draw(self.dice) for _ in range(3))
        self.note(
            "bloody.setup",
            "4.5",
            player="US",
            text=f"draws {', '.join(self._card_name(c) for c in self.offered)}: keep two",
        )

    def _card_name(self, card: str) -> str:
        return f"{card} '{self.scen.cards[card].title}'"

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self) -> Iterable[Action]:
        if self.step == SETUP:
            return [ReturnCard(c) for c in self.offered]
        if self.step == CARDS:
            return [Continue(), *cards.playable(self, "landing")]
        if self.step == EVENT:
            return [
                ChooseEvent(self.board.labels[u], self.board.labels[g])
                for u, g in self.event_pairs()
            ]
        if self.step == ATTACK:
            out: list[Action] = [ResolveAttack()]
            if self.init_token >= 1:
                out.extend(AddSquare(self.board.labels[c]) for c in self._attack_additions())
            return out
        return self._activation_actions()

    def _activation_actions(self) -> list[Action]:
        out: list[Action] = [EndActivation()]
        out.extend(cards.playable(self, "activation"))
        if self.init_token < 1:
            return out
        labels = self.board.labels
        scen = self.scen
        for u, w in enumerate(self.where):
            if w < 0 or w not in scen.land:
                continue
            name = scen.units[u].id
            for nb in scen.land_neighbours[w]:
                if not fx.known_numerical(self, nb):
                    out.append(Move(name, labels[nb]))
            if self.disrupted[u]:
                out.append(Rally(name))
        occupied = self._occupied_land()
        for target in sorted(self.tokens):
            if fx.known_numerical(self, target):
                for nb in scen.land_neighbours[target]:
                    if nb in occupied:
                        out.append(Attack(labels[target], labels[nb]))
        if self.eng_token >= 1:
            for cell in self._engineer_targets():
                out.extend(Engineers(labels[cell], n) for n in range(1, self.eng_token + 1))
        for t, (tw, tu) in enumerate(self.tanks):
            if tw < 0:
                continue
            reach = fx.tank_reach(self, tw)
            for u, w in enumerate(self.where):
                if w in reach and u != tu:
                    out.append(MoveTank(fx.tank_name(t), scen.units[u].id))
        if self.turn >= rules.FIRST_RELEASE_TURN:
            for u, w in enumerate(self.where):
                if w == BOX:
                    out.extend(Release(scen.units[u].id, labels[c]) for c in scen.entry)
        return out

    def _occupied_land(self) -> set[int]:
        return {w for w in self.where if w >= 0 and w in self.scen.land}

    def _engineer_targets(self) -> list[int]:
        """8.5: Beach squares with an Obstacle, squares with a revealed Mines token.

        Reading: the text puts no condition on where the engineers work, so any
        obstacle, and any Mines token the US has found, may be attempted.
        """
        out = [b for b in self.scen.beaches if not self.gap[b]]
        out.extend(c for c in sorted(self.tokens) if fx.has_revealed(self, c, MINES))
        return out

    def _attack_additions(self) -> list[int]:
        occupied = self._occupied_land()
        return [
            nb
            for nb in self.scen.land_neighbours[self.attack_target]
            if nb in occupied and nb not in self.attack_squares
        ]

    def event_pairs(self) -> list[tuple[int, int]]:
        """5.2, 6.4: (US square, adjacent square holding a German token).

        Reading: Beach Obstacle tokens count as German tokens here; otherwise no unit
        in the First Wave row could ever be chosen, which 6.4 says it may be.
        """
        scen = self.scen
        us = sorted({w for w in self.where if w >= 0 and (w in scen.land or w in scen.first_wave)})
        pairs = []
        for u in us:
            for g in sorted(self.board.neighbours[u]):
                if self.tokens.get(g) or (scen.kind[g] == BEACH and not self.gap[g]):
                    pairs.append((u, g))
        return pairs

    def explain_illegal(self, action: Action) -> str:
        return explain(self, action) or super().explain_illegal(action)

    # ------------------------------------------------------------------ apply
    def _apply(self, action: Action) -> None:
        if isinstance(action, ReturnCard):
            self._return_card(action.card)
        elif isinstance(action, Continue):
            landing.drift_rolls(self)
        elif isinstance(action, PlayCard | PlayCardAt):
            target = self.board.cell(action.square) if isinstance(action, PlayCardAt) else None
            cards.play(self, action.card, action.option, target)
        elif isinstance(action, ChooseEvent):
            self._choose_event(self.board.cell(action.us), self.board.cell(action.german))
        elif isinstance(action, Move):
            self._spend()
            combat.move_into(
                self, self.scen.unit_index[action.unit], self.board.cell(action.square)
            )
        elif isinstance(action, Attack):
            self._spend()
            self.attack_target = self.board.cell(action.target)
            self.attack_squares = [self.board.cell(action.square)]
            self.step = ATTACK
            self.note(
                "bloody.attack.start",
                "8.4.a",
                player="US",
                square=action.square,
                target=action.target,
            )
        elif isinstance(action, AddSquare):
            self._spend()
            self.attack_squares.append(self.board.cell(action.square))
            self.note(
                "bloody.attack.add",
                "8.4.a",
                player="US",
                square=action.square,
                target=self.board.labels[self.attack_target],
            )
        elif isinstance(action, ResolveAttack):
            combat.resolve_attack(self)
            self.step = ACTIVATE
        elif isinstance(action, Engineers):
            self._spend()
            combat.engineer_attempt(self, self.board.cell(action.square), action.assets)
        elif isinstance(action, Rally):
            self._spend()
            fx.rally(self, self.scen.unit_index[action.unit], "5.3.d", "1 Initiative")
        elif isinstance(action, MoveTank):
            self._spend()
            combat.move_tank(self, int(action.tank.removeprefix("tank")) - 1, action.unit)
        elif isinstance(action, Release):
            self._spend()
            u = self.scen.unit_index[action.unit]
            cell = self.board.cell(action.square)
            self.where[u] = cell
            self.aim[u] = self.scen.column[cell]
            self.released += 1
            self.note(
                "bloody.release", "5.3.f", player="US", unit=action.unit, square=action.square
            )
        elif isinstance(action, EndActivation):
            self.note("bloody.end_activation", "5.3", player="US", left=self.init_token)
            self._drift_phase()
        else:  # pragma: no cover - the base class checked legality
            raise IllegalAction(f"unknown action {action}")

    def _spend(self) -> None:
        """5.3: every Activation phase action but a card costs 1 Initiative."""
        self.init_token -= 1

    # ------------------------------------------------------------------ set-up and turns
    def _return_card(self, card: str) -> None:
        self.offered.remove(card)
        self.deck.return_to_pile(card)
        self.hand = sorted(self.offered)
        self.offered = []
        self.note(
            "bloody.setup",
            "4.5",
            player="US",
            text=f"shuffles {self._card_name(card)} back; starting hand: "
            + ", ".join(self._card_name(c) for c in self.hand),
        )
        self._phase = "Drift"
        self.note(
            "bloody.turn", "5.4.a", turn=1, note=" with the Drift phase (no Draw, no Activation)"
        )
        self._drift_phase()

    def _drift_phase(self) -> None:
        self._phase = "Drift"
        self.step = CARDS
        if self.at_sea() and cards.playable(self, "landing"):
            return
        landing.drift_rolls(self)

    def drift_unit(self, u: int, squares: int, why: str) -> None:
        """6.2: drift a unit at sea (used by Random Events too)."""
        landing.drift_unit(self, u, squares, why)

    def at_sea(self) -> list[int]:
        return [u for u, w in enumerate(self.where) if w >= 0 and w in self.scen.channel]

    def _end_turn(self) -> None:
        if self.turn >= self.scen.turns or not any(w >= 0 or w == BOX for w in self.where):
            self._finish()
            return
        self.turn += 1
        self._phase = "Draw"
        self.note("bloody.turn", "5.0", turn=self.turn, note="")
        self._draw_phase()
        self._random_event_phase()

    def _draw_phase(self) -> None:
        """5.1, 7.3, 7.5: draw a card; both ratings +1; the tokens go back onto the markers."""
        self._phase = "Draw"
        card = "none left"
        if len(self.deck) or self.deck.discards:
            drawn = self.deck.draw(self.dice)
            self.hand = sorted([*self.hand, drawn])
            card = self._card_name(drawn)
        top = self.scen.track_max
        self.init_rating = min(top, self.init_rating + 1)
        self.eng_rating = min(top, self.eng_rating + 1)
        self.init_token, self.eng_token = self.init_rating, self.eng_rating
        self.drift_mod = self.landing_mod = self.attack_bonus = 0
        self.note(
            "bloody.draw", "5.1", player="US", card=card, init=self.init_rating, eng=self.eng_rating
        )

    def _random_event_phase(self) -> None:
        self._phase = "Random Event"
        if self.event_pairs():
            self.step = EVENT
            return
        self.note(
            "bloody.text", "5.2", text="no US unit is next to a German token: no Random Event"
        )
        self._activation_phase()

    def _choose_event(self, us: int, german: int) -> None:
        terrain = self.scen.kind[us]
        units = fx.units_at(self, us)
        fx.random_event(self, terrain, units, us, german, "5.2")
        self._activation_phase()

    def _activation_phase(self) -> None:
        self._phase = "Activation"
        self.step = ACTIVATE

    def _finish(self) -> None:
        self._phase = "End"
        self.step = OVER
        sc = self.score()
        exits = self.exits_cleared()
        level = rules.victory_level(exits, len(self.scen.exit_name), sc.total)
        self.result = Outcome(
            "US" if level in (rules.HISTORICAL, rules.MAJOR) else None,
            level,
            points=(("VP", float(sc.total)), ("exits", float(exits))),
            detail=f"{exits} of {len(self.scen.exit_name)} exits cleared, {sc.total} VP",
        )
        self.note(
            "bloody.end",
            "2.2",
            turn=self.turn,
            level=level,
            vp=sc.total,
            exits=exits,
            breakdown=(
                f"gaps {sc.gaps}, strongpoints {sc.strongpoints}, encounters {sc.encounters}, "
                f"towns/exits {sc.towns_exits}, southern hedgerows {sc.hedgerows}, "
                f"reinforcements {sc.reinforcements}"
            ),
        )

    # ------------------------------------------------------------------ scoring (2.2-2.4)
    def cleared(self, cell: int) -> bool:
        """2.4: every Strongpoint and Encounter token of the square is gone."""
        return cell in self.scen.inland and not self.tokens.get(cell)

    def exits_cleared(self) -> int:
        return sum(1 for c in self.scen.exit_name if self.cleared(c))

    def score(self) -> rules.Score:
        scen = self.scen
        return rules.score(
            gaps=sum(1 for b in scen.beaches if self.gap[b]),
            strongpoint_tokens=self.sp_removed,
            encounter_tokens=self.enc_removed,
            towns_exits_cleared=sum(1 for c in scen.bonus if self.cleared(c)),
            southern_cleared=sum(1 for c in scen.southern if self.cleared(c)),
            in_reinforcements=sum(1 for w in self.where if w == BOX),
        )

    def metrics(self) -> dict[str, float]:
        from .view import metrics

        return metrics(self)

    def view(self, player: str | None = None) -> View:
        from .view import build_view

        return build_view(self, player)

    # ------------------------------------------------------------------ snapshots
    def _dump(self) -> dict[str, Any]:
        from .view import dump

        return dump(self)

    def _restore(self, data: dict[str, Any]) -> None:
        from .view import restore

        assert isinstance(self.scenario, BloodyScenario)
        self.scen = self.scenario
        restore(self, data)
