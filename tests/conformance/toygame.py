"""A tiny two-player game used to test the kernel and the conformance suite.

Not registered: it exists so the suite runs before (and besides) the real
games. It touches every kernel piece: a TOML map with labels, terrain and a
crest hexside, movement costs, the exact LOS thread, dice, a lazy deck, a cup
of hidden positions, the turn track, events, actions in notation, views and
snapshots.

Rules: each turn an event card is drawn (``barrage``: d6, on 6 the first US
squad is disrupted; ``smoke``: German fire is blocked this turn). The US moves
squads one hex at a time (beach costs 2, woods 2, crest impassable from below
... for the test only); a squad next to a German position reveals it (dummies
vanish). Then the German machine gun, once revealed or not, may fire at a US
squad in LOS within 3 hexes: d6 5-6 eliminates, 4 disrupts. A US squad on row
A wins for the US; otherwise the German wins after the last turn.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import Any

import attrs

from omaha.errors import IllegalAction, ScenarioError
from omaha.kernel.actions import Action
from omaha.kernel.boardfile import board_from_node
from omaha.kernel.data import Node, content_hash
from omaha.kernel.decks import Cup, Deck
from omaha.kernel.dice import Dice
from omaha.kernel.events import register_templates
from omaha.kernel.information import shuffled
from omaha.kernel.metrics import Metric
from omaha.kernel.movement import MovementGraph
from omaha.kernel.observation import (
    Declaration,
    Journal,
    Observation,
    ObservationLayout,
    Shown,
    exact,
)
from omaha.kernel.protocol import Game, Limits, Outcome, State
from omaha.kernel.scenario import ProvenanceItem, Scenario
from omaha.kernel.scenariofile import resolve
from omaha.kernel.schema import (
    Check,
    Field,
    Int,
    ListOf,
    Problems,
    Provenance,
    Str,
    Table,
    raise_first,
    validate,
)
from omaha.kernel.turns import TurnTrack
from omaha.kernel.view import Pending, Piece, View

HERE = Path(__file__).parent / "toy"

register_templates(
    {
        "toy.card": "event card: {card}",
        "toy.move": "{unit} moves {start} -> {end}",
        "toy.reveal": "{unit} reveals {hex}: {token}",
        "toy.fire": "machine gun in {hex} fires at {target}: {result}",
        "toy.end": "game over: {result}",
    }
)


@attrs.frozen
class Select(Action):
    notation = "move {unit}"
    unit: str


@attrs.frozen
class Step(Action):
    notation = "step {to}"
    to: str


@attrs.frozen
class Stop(Action):
    notation = "stop"


@attrs.frozen
class EndMoves(Action):
    notation = "end moves"


@attrs.frozen
class Fire(Action):
    notation = "fire at {target}"
    target: str


@attrs.frozen
class Hold(Action):
    notation = "hold fire"


@attrs.define(kw_only=True, eq=False)
class ToyScenario(Scenario):
    turns: int
    track: TurnTrack
    us: list[tuple[str, int]]
    positions: tuple[int, ...]
    tokens: tuple[str, ...]
    cards: tuple[str, ...]
    move: MovementGraph


SQUAD = Table(
    {
        "id": Field(Str(), "the squad's id"),
        "hex": Field(Str(), "where it starts"),
        "source": Field(Provenance(), "where this comes from"),
    }
)


def _same_length(node: Node, problems: Problems) -> None:
    german = node.value.get("german")
    if isinstance(german, dict) and isinstance(german.get("hexes"), list):
        tokens = german.get("tokens")
        if isinstance(tokens, list) and len(tokens) != len(german["hexes"]):
            problems.append(
                ScenarioError(node.file, "german.tokens", "needs one token per German hex")
            )


SCHEMA = Table(
    {
        "scenario": Field(
            Table(
                {
                    "id": Field(Str(), "the scenario's id"),
                    "title": Field(Str(), "its title"),
                    "turns": Field(Int(1, 50), "game length in turns"),
                    "source": Field(Provenance(), "where the scenario comes from"),
                    "extends": Field(Str(), "a scenario to start from", required=False),
                }
            ),
            "the scenario",
        ),
        "components": Field(Table({"map": Field(Str(), "the map", False)}), "", False),
        "overrides": Field(Table({}, open=True), "changes to components", False),
        "us": Field(ListOf(SQUAD, unique_by="id", min_len=1), "the US squads"),
        "german": Field(
            Table(
                {
                    "hexes": Field(ListOf(Str(), unique=True), "German positions"),
                    "tokens": Field(ListOf(Str(("mg", "dummy"))), "hidden tokens"),
                    "source": Field(Provenance(), "provenance"),
                }
            ),
            "the German positions",
        ),
        "deck": Field(
            Table(
                {
                    "cards": Field(ListOf(Str(("calm", "barrage", "smoke"))), "event cards"),
                    "source": Field(Provenance(), "provenance"),
                }
            ),
            "the event deck",
        ),
    },
    checks=[Check("one token per German position", _same_length)],
)


def load_scenario(ref: str) -> ToyScenario:
    files = resolve(ref, shipped_scenarios={"beach": HERE / "beach.toml"}, data_dir=HERE,
                    defaults={"map": "map"}, game="toy")  # fmt: skip
    scen_node = files.root
    raise_first(validate(scen_node, SCHEMA))
    map_node = files.components["map"]
    board = board_from_node(map_node)
    s = scen_node.req("scenario")
    turns = s.req("turns").as_int_in(1, 50)
    g = scen_node.req("german")
    us = []
    for u in scen_node.req("us").as_list():
        label = u.req("hex")
        if not board.has(label.as_str()):
            raise label.error(f"{label.as_str()!r} is not on the map")
        us.append((u.req("id").as_str(), board.cell(label.as_str())))
    return ToyScenario(
        id=str(ref),
        title=s.req("title").as_str(),
        hash=content_hash(map_node.value, scen_node.value),
        board=board,
        provenance=[ProvenanceItem("scenario", str(ref), s.source())],
        files=files.files,
        turns=turns,
        track=TurnTrack.numbered(turns, ("event", "move", "fire")),
        us=us,
        positions=tuple(board.cell(h) for h in g.req("hexes").as_str_list()),
        tokens=tuple(g.req("tokens").as_str_list()),
        cards=tuple(scen_node.req("deck").req("cards").as_str_list()),
        move=MovementGraph(board, _cost(board), "squad"),
    )


def _cost(board: Any) -> Any:
    def cost(a: int, b: int) -> int | None:
        for name, direction in board.crossing(a, b):
            if name == "crest" and direction == "up":
                return None
        return 2 if board.terrain[b] in ("beach", "woods") else 1

    return cost


class ToyState(State[ToyScenario]):
    def _setup(self) -> None:
        scenario = self.scen = self.scenario
        self.turn = 1
        self._phase = "event"
        self.squads: dict[str, int] = dict(scenario.us)  # id -> cell, -1 = eliminated
        self.disrupted: set[str] = set()
        self.moved: set[str] = set()
        self.moving: str | None = None
        self.mp = 0
        self.deck = Deck(scenario.cards)
        cup = Cup(scenario.tokens)
        self.hidden: dict[int, str] = {c: cup.draw(self.dice) for c in scenario.positions}
        self.revealed: set[int] = set()
        self.smoke = False
        self.result: Outcome | None = None
        self.journal: Journal | None = None  # while observed: what changed since
        self._event_phase()

    def _changed(self, *entities: str | int | None) -> None:
        """Note in the journal (while observed) what shows something new."""
        if self.journal is not None:
            self.journal.update(entities)

    # -- protocol ------------------------------------------------------------
    @property
    def turn_label(self) -> str:
        return self.scen.track.label(self.turn)

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def pending(self) -> Pending | None:
        if self.result is not None:
            return None
        if self._phase == "move":
            if self.moving:
                return Pending("step", "US", f"move {self.moving} ({self.mp} MP left) or stop")
            return Pending("select", "US", "choose a squad to move, or end moves")
        return Pending("fire", "German", "fire the machine gun or hold")

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def metrics(self) -> dict[str, float]:
        return {
            "squads_left": float(sum(1 for c in self.squads.values() if c >= 0)),
            "turns_played": float(self.turn),
        }

    def _legal_actions(self) -> Iterable[Action]:
        b = self.board
        if self._phase == "move":
            if self.moving is None:
                yield EndMoves()
                for sid, cell in sorted(self.squads.items()):
                    if cell >= 0 and sid not in self.disrupted and sid not in self.moved:
                        yield Select(sid)
                return
            yield Stop()
            here = self.squads[self.moving]
            occupied = set(self.squads.values()) | set(self.hidden)
            for nxt, cost in self.scen.move.steps(here):
                if cost <= self.mp and nxt not in occupied:
                    yield Step(b.label(nxt))
            return
        yield Hold()
        if not self.smoke:
            for target in self._targets():
                yield Fire(target)

    def observation(self, player: str) -> Observation:
        return _declaration(self.scen).observation(self, player)

    def explain_illegal(self, action: Action) -> str:
        if isinstance(action, Select) and action.unit in self.disrupted:
            return f"{action.unit} is disrupted and cannot move"
        return super().explain_illegal(action)

    def _apply(self, action: Action) -> None:
        b = self.board
        if isinstance(action, Select):
            self.moving = action.unit
            self.mp = 3
        elif isinstance(action, Step):
            assert self.moving is not None
            start = self.squads[self.moving]
            end = b.cell(action.to)
            cost = self.scen.move.cost(start, end)
            assert cost is not None
            self.mp -= cost
            self.squads[self.moving] = end
            self._changed(self.moving)
            self.note(
                "toy.move",
                "toy 2",
                player="US",
                unit=self.moving,
                start=b.label(start),
                end=action.to,
            )
            self._reveal(end)
            if "objective" in b.features[end]:
                self._finish(
                    Outcome("US", "US victory", detail=f"{self.moving} reached {action.to}")
                )
        elif isinstance(action, Stop):
            assert self.moving is not None
            self.moved.add(self.moving)
            self.moving = None
        elif isinstance(action, EndMoves):
            self._phase = "fire"
        elif isinstance(action, Hold | Fire):
            if isinstance(action, Fire):
                self._fire(action.target)
            self._end_turn()
        else:  # pragma: no cover - the base class checked legality
            raise IllegalAction(f"unknown action {action}")

    # -- rules -----------------------------------------------------------------
    def _mg(self) -> int:
        return next(c for c, t in self.hidden.items() if t == "mg")

    def _targets(self) -> list[str]:
        mg = self._mg()
        out = []
        for sid, cell in sorted(self.squads.items()):
            if cell >= 0 and self.board.distance(mg, cell) <= 3 and self._los(mg, cell):
                out.append(sid)
        return out

    def _los(self, a: int, b: int) -> bool:
        t = self.board.thread(a, b)
        return not any(c >= 0 and self.board.terrain[c] == "woods" for c in t.cells)

    def _reveal(self, cell: int) -> None:
        assert self.moving is not None
        for n in self.board.neighbours[cell]:
            token = self.hidden.get(n)
            if token is not None and n not in self.revealed:
                self.note(
                    "toy.reveal",
                    "toy 3",
                    player="US",
                    unit=self.moving,
                    hex=self.board.label(n),
                    token=token,
                )
                if token == "dummy":
                    del self.hidden[n]
                else:
                    self.revealed.add(n)
                self._changed(n)

    def _fire(self, target: str) -> None:
        self.revealed.add(self._mg())  # firing gives its position away (the log names it)
        self._changed(self._mg(), target)
        roll = self.dice.d6()
        result = "no effect"
        if roll >= 5:
            self.squads[target] = -1
            result = "eliminated"
        elif roll == 4:
            self.disrupted.add(target)
            result = "disrupted"
        self.note(
            "toy.fire",
            "toy 4",
            dice=[roll],
            player="German",
            hex=self.board.label(self._mg()),
            target=target,
            result=result,
        )
        if all(c < 0 for c in self.squads.values()):
            self._finish(Outcome("German", "German victory", detail="no US squad left"))

    def _end_turn(self) -> None:
        if self.result is not None:
            return
        if self.turn >= self.scen.turns:
            self._finish(Outcome("German", "German victory", detail="time ran out"))
            return
        self.turn += 1
        self.moved.clear()
        self._changed(None, *self.disrupted)
        self.disrupted.clear()
        self._event_phase()

    def _event_phase(self) -> None:
        self._phase = "event"
        card = self.deck.draw(self.dice)
        self.deck.discard(card)
        self.note("toy.card", "toy 1", card=card)
        self.smoke = card == "smoke"
        self._changed(None)
        if card == "barrage":
            roll = self.dice.d6()
            alive = sorted(s for s, c in self.squads.items() if c >= 0)
            if roll == 6 and alive:
                self.disrupted.add(alive[0])
                self._changed(alive[0])
        self._phase = "move"

    def _finish(self, outcome: Outcome) -> None:
        self.result = outcome
        self.moving = None
        self.note("toy.end", "toy 5", result=str(outcome))

    def _drop_caches(self) -> None:
        self.journal = None  # fields changed behind the journal's back: built again

    # -- information sets ---------------------------------------------------------
    def _hidden_parts(self, player: str) -> tuple[object, ...]:
        """What the US does not know: which token lies at each unrevealed position."""
        if player != "US":
            return ()
        return tuple(sorted((c, t) for c, t in self.hidden.items() if c not in self.revealed))

    def _redraw_hidden(self, player: str, dice: Dice) -> None:
        """The tokens of the unrevealed positions dealt anew among them (they were
        drawn from one cup at set-up, so every deal is equally likely). The pool is
        sorted before the deal, so the deal depends on what the US saw and the dice
        alone, not on where the tokens really lie."""
        if player != "US":
            return
        cells = sorted(c for c in self.hidden if c not in self.revealed)
        tokens = shuffled(sorted(self.hidden[c] for c in cells), dice)
        self.hidden.update(zip(cells, tokens, strict=True))
        self._changed(*cells)

    # -- views and snapshots -----------------------------------------------------
    def view(self, player: str | None = None) -> View:
        b = self.board
        pieces = []
        for sid, cell in sorted(self.squads.items()):
            where = b.label(cell) if cell >= 0 else "dead"
            marks = ("disrupted",) if sid in self.disrupted else ()
            pieces.append(Piece(sid, "US", sid, where, "3 MP", marks))
        for cell, token in sorted(self.hidden.items()):
            hidden = player == "US" and cell not in self.revealed
            pieces.append(Piece(f"pos{cell}", "German", token, b.label(cell), hidden=hidden))
        return View(
            game="toy",
            title=self.scen.title,
            player=player,
            turn=self.turn_label,
            phase=self._phase,
            board=b,
            pending=self.pending,
            pieces=tuple(pieces),
        )

    def _dump(self) -> dict[str, Any]:
        b = self.board
        return {
            "turn": self.turn,
            "phase": self._phase,
            "squads": {s: (b.label(c) if c >= 0 else None) for s, c in self.squads.items()},
            "disrupted": sorted(self.disrupted),
            "moved": sorted(self.moved),
            "moving": self.moving,
            "mp": self.mp,
            "deck": self.deck.to_data(),
            "hidden": {b.label(c): t for c, t in self.hidden.items()},
            "revealed": sorted(b.label(c) for c in self.revealed),
            "smoke": self.smoke,
            "result": None
            if self.result is None
            else [self.result.winner, self.result.level, self.result.detail],
        }

    def _restore(self, data: dict[str, Any]) -> None:
        assert isinstance(self.scenario, ToyScenario)
        b = self.scenario.board
        self.scen = self.scenario
        self.turn = data["turn"]
        self._phase = data["phase"]
        self.squads = {s: (b.cell(c) if c is not None else -1) for s, c in data["squads"].items()}
        self.disrupted = set(data["disrupted"])
        self.moved = set(data["moved"])
        self.moving = data["moving"]
        self.mp = data["mp"]
        self.deck = Deck.from_data(data["deck"])
        self.hidden = {b.cell(c): t for c, t in data["hidden"].items()}
        self.revealed = {b.cell(c) for c in data["revealed"]}
        self.smoke = data["smoke"]
        self.journal = None
        r = data["result"]
        self.result = None if r is None else Outcome(r[0], r[1], detail=r[2])


class ToyObservation(Declaration[ToyState]):
    """What each player is shown: every squad (and its disruption) to both; a German
    position's token to the German, and to the US once revealed (an unrevealed one is
    a marker of something unknown); the turn and the smoke to both."""

    def __init__(self, layout: ObservationLayout) -> None:
        self.layout = layout
        n = layout.cells
        self.squad, self.disrupted, self.mg, self.unknown = (k * n for k in range(4))
        self.turn, self.smoke = (layout.track_index(t) for t in layout.tracks)

    def entities(self, state: ToyState) -> Iterable[str | int | None]:
        return [*state.squads, *state.scen.positions, None]  # None: the tracks

    def viewpoint(self, player: str) -> str:
        return "German" if player == "German" else "US"

    def shown(self, state: ToyState, entity: Hashable, viewpoint: str | None) -> Shown:
        if entity is None:
            return ((self.turn, exact(state.turn / state.scen.turns)), (self.smoke, state.smoke))
        if isinstance(entity, str):  # a squad
            cell = state.squads[entity]
            if cell < 0:
                return ()
            if entity in state.disrupted:
                return ((self.squad + cell, 1), (self.disrupted + cell, 1))
            return ((self.squad + cell, 1),)
        assert isinstance(entity, int)
        token = state.hidden.get(entity)  # a German position (None: a dummy gone)
        if token is None:
            return ()
        if viewpoint == "German" or entity in state.revealed:
            return ((self.mg + entity, 1),) if token == "mg" else ()
        return ((self.unknown + entity, 1),)


def _declaration(scen: ToyScenario) -> ToyObservation:
    if scen.declaration is None:
        scen.declaration = ToyObservation(GAME.observation_layout(scen.id))
    assert isinstance(scen.declaration, ToyObservation)
    return scen.declaration


def fresh_observation(state: ToyState, player: str) -> Observation:
    """The observation from nothing (the declaration over every entity)."""
    return _declaration(state.scen).fresh(state, player)


class ToyGame(Game[ToyScenario]):
    name = "toy"
    title = "Toy landing (test fixture)"
    players = ("US", "German")
    metrics = (
        Metric("squads_left", "squads", "US squads not eliminated"),
        Metric("turns_played", "turns", "turns begun"),
    )

    def action_classes(self) -> Iterable[type[Action]]:
        return (Select, Step, Stop, EndMoves, Fire, Hold)

    def scenarios(self) -> tuple[str, ...]:
        return ("beach",)

    def _load_scenario(self, ref: str) -> ToyScenario:
        return load_scenario(ref)

    def validate_file(self, path: Any) -> list[Any]:
        """Every problem of the scenario file, its components resolved first."""
        try:
            files = resolve(path, shipped_scenarios={"beach": HERE / "beach.toml"},
                            data_dir=HERE, defaults={"map": "map"}, game="toy")  # fmt: skip
        except ScenarioError as exc:
            return [exc]
        return list(validate(files.root, SCHEMA))

    def limits(self, scenario: Any = None) -> Limits:
        scen = self.load_scenario(scenario)
        moves = len(scen.us) * (2 + 3) + 1  # select, up to three steps, stop; end moves
        return Limits(
            max_decisions=scen.turns * (moves + 1),
            max_legal_actions=1 + 6,
            max_chance_outcomes=max(6, len(scen.cards), len(scen.tokens)),
        )

    def field_domains(self, scenario: ToyScenario) -> dict[str, Any]:
        squads = [sid for sid, _ in scenario.us]
        return {"unit": squads, "Fire.target": squads, "to": scenario.board.labels}

    def observation_layout(self, scenario: Any = None) -> ObservationLayout:
        scen = self.load_scenario(scenario)
        return ObservationLayout(
            cells=len(scen.board),
            planes=("us_squad", "us_disrupted", "german_mg", "german_unknown"),
            tracks=("turn", "smoke"),
            meanings=(
                ("us_squad", "1 where a US squad stands"),
                ("german_mg", "1 where the machine gun is known to be"),
                ("german_unknown", "1 on a German position not yet revealed"),
                ("turn", "turn number / number of turns"),
            ),
        )

    def _state_class(self) -> type[State[ToyScenario]]:
        return ToyState


GAME = ToyGame()
