"""Bloody Omaha: the data core of a game in progress.

:class:`BloodyCore` holds every mutable field, public and typed, with the small
queries the procedures share (who is where, what a square holds, the score). It
runs no part of the sequence of play: that is :mod:`omaha.bloody.state`; the
procedures that change these fields are in :mod:`omaha.bloody.procedures`.

Cells are board indices, units indices into the scenario's unit list. A unit's
``where`` is a cell, :data:`BOX` (the Reinforcements box) or :data:`DEAD`; a
tank's cell is a cell, :data:`ASIDE` (4.3) or :data:`LOST` (8.1.e).
"""

from __future__ import annotations

import weakref
from collections import Counter, deque
from collections.abc import Iterable
from enum import StrEnum
from typing import Any, ClassVar

from omaha.kernel.actions import Action, sort_key
from omaha.kernel.decks import Deck
from omaha.kernel.observation import Journal
from omaha.kernel.protocol import Outcome, State

from . import rules
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
from .components.tokens import MINES, face_value, is_strongpoint_token
from .scenario import BloodyScenario

BOX = -1  # unit in the Reinforcements box
DEAD = -2  # unit eliminated
ASIDE = -1  # tank set aside (4.3)
LOST = -2  # tank removed from play (8.1.e)


class Phase(StrEnum):
    """The phases of a turn as the log prints them (5.0), plus set-up and the end."""

    SETUP = "Set-up"
    DRAW = "Draw"
    RANDOM_EVENT = "Random Event"
    ACTIVATION = "Activation"
    DRIFT = "Drift"
    LANDING = "Landing"
    END = "End"


class Step(StrEnum):
    """The decision the US player is asked for (the snapshot stores the value)."""

    SETUP = "setup"  # 4.5: shuffle one of three cards back
    CARDS = "landing_cards"  # before the Drift rolls: play a landing card or continue
    EVENT = "random_event"  # 5.2: choose the squares of the Random Event
    ACTIVATE = "activation"  # 5.3: act or end the phase
    ATTACK = "attack"  # 8.4.a: add a square to the attack or resolve it
    OVER = "over"


#: The turn as the log prints it (every event carries it).
_TURN_LABELS = tuple(f"Turn {n}" for n in range(100))


def tank_name(t: int) -> str:
    return f"tank{t + 1}"


#: Tank token names, in order (a scenario has the first ``tank_count``).
TANKS = tuple(tank_name(t) for t in range(10))


class ActionCatalogue:
    """Every action a scenario can offer, made once and shared by all its states.

    Each action has a code: its place in notation order among all of them. The
    procedures list the codes of the legal actions; sorting those integers puts the
    actions in the order the protocol promises (sorted by notation) without
    formatting or hashing a single one, and the objects handed out are always the
    same (frozen, hash cached), so membership tests are cheap too. The tables are
    indexed by unit and cell numbers.
    """

    _BY_SCENARIO: ClassVar[weakref.WeakKeyDictionary[BloodyScenario, ActionCatalogue]] = (
        weakref.WeakKeyDictionary()
    )

    @classmethod
    def of(cls, scenario: BloodyScenario) -> ActionCatalogue:
        found = cls._BY_SCENARIO.get(scenario)
        if found is None:
            found = cls._BY_SCENARIO[scenario] = cls(scenario)
        return found

    def __init__(self, scen: BloodyScenario) -> None:
        labels = scen.board.labels
        ids = [u.id for u in scen.units]
        land = sorted(scen.land)
        made: list[Action] = []

        def make(action: Action) -> Action:
            made.append(action)
            return action

        continue_ = make(Continue())
        end_activation = make(EndActivation())
        resolve_attack = make(ResolveAttack())
        return_card = {c: make(ReturnCard(c)) for c in scen.card_ids}
        move = [{c: make(Move(uid, labels[c])) for c in land} for uid in ids]
        rally = [make(Rally(uid)) for uid in ids]
        release = [[make(Release(uid, labels[c])) for c in scen.entry] for uid in ids]
        attack = {
            t: {nb: make(Attack(labels[t], labels[nb])) for nb in scen.land_neighbours[t]}
            for t in land
        }
        add_square = {c: make(AddSquare(labels[c])) for c in land}
        engineers = {
            c: [make(Engineers(labels[c], n)) for n in range(1, scen.track_max + 1)] for c in land
        }
        move_tank = [
            [make(MoveTank(tank_name(t), uid)) for uid in ids] for t in range(scen.tank_count)
        ]
        choose_event = {  # German tokens and Beach Obstacles are only on land
            (us, g): make(ChooseEvent(labels[us], labels[g]))
            for us in sorted(scen.land | scen.first_wave)
            for g in scen.board.neighbours[us]
            if g in scen.land
        }
        play_card: dict[tuple[str, int], Action] = {}
        play_card_at: dict[tuple[str, int], dict[int, Action]] = {}
        for card in scen.cards.values():
            for k in range(1, len(card.options) + 1):
                play_card[card.id, k] = make(PlayCard(card.id, k))
                play_card_at[card.id, k] = {
                    c: make(PlayCardAt(card.id, k, labels[c])) for c in land
                }
        #: code -> action, in notation order
        self.action: tuple[Action, ...] = tuple(sorted(made, key=sort_key))
        code_of = self._code_by_value = {a: code for code, a in enumerate(self.action)}

        def code(action: Action) -> int:
            return code_of[action]

        self.continue_ = code(continue_)
        self.end_activation = code(end_activation)
        self.resolve_attack = code(resolve_attack)
        self.return_card = {c: code(a) for c, a in return_card.items()}
        #: unit -> land cell -> the moves to each land neighbour of the cell, in neighbour order
        self.moves_from = tuple(
            {c: tuple(code(moves[nb]) for nb in scen.land_neighbours[c]) for c in land}
            for moves in move
        )
        self.rally = tuple(code(a) for a in rally)
        self.release = tuple(tuple(code(a) for a in row) for row in release)
        self.attack = {t: {nb: code(a) for nb, a in row.items()} for t, row in attack.items()}
        self.add_square = {c: code(a) for c, a in add_square.items()}
        #: cell -> engineer attempts with 1, 2, ... assets
        self.engineers = {c: tuple(code(a) for a in row) for c, row in engineers.items()}
        self.move_tank = tuple(tuple(code(a) for a in row) for row in move_tank)
        self.choose_event = {pair: code(a) for pair, a in choose_event.items()}
        self.play_card = {key: code(a) for key, a in play_card.items()}
        self.play_card_at = {
            key: {c: code(a) for c, a in row.items()} for key, row in play_card_at.items()
        }

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionCatalogue:
        return self  # shared by every state of the scenario, never changed

    def __copy__(self) -> ActionCatalogue:
        return self

    def codes_of(self, actions: Iterable[Action]) -> list[int]:
        """The codes of actions of this catalogue (or equal to them)."""
        return list(map(self._code_by_value.__getitem__, actions))

    def code_of_equal(self, action: Action) -> int | None:
        """The code of the catalogue's action equal to ``action`` (None: no such action).
        ``action`` must have fields of its declared types (``ActionCodec.check``)."""
        return self._code_by_value.get(action)

    def in_order(self, codes: list[int]) -> list[Action]:
        """The actions of ``codes``, sorted by notation (the codes are sorted in place)."""
        codes.sort()
        return list(map(self.action.__getitem__, codes))


class TokenIndex:
    """What the German tokens of each square show, kept in step with ``tokens``.

    ``uncleared``: squares holding a token (2.4); ``face_down``: a token not yet
    revealed; ``known_numerical``: a revealed numerical token (8.1.a);
    ``revealed_mines``: a revealed Mines token (8.5).
    """

    __slots__ = ("face_down", "known_numerical", "revealed_mines", "uncleared")

    def __init__(self, tokens: dict[int, list[tuple[str, bool]]] | None = None) -> None:
        self.uncleared: set[int] = set()
        self.face_down: set[int] = set()
        self.known_numerical: set[int] = set()
        self.revealed_mines: set[int] = set()
        for cell, toks in (tokens or {}).items():
            self.update(cell, toks)

    def update(self, cell: int, toks: Iterable[tuple[str, bool]]) -> None:
        """Read the tokens of one square again."""
        any_token = down = known = mines = False
        for face, revealed in toks:
            any_token = True
            if not revealed:
                down = True
            elif face == MINES:
                mines = True
            elif face_value(face) is not None:
                known = True
        for flag, cells in (
            (any_token, self.uncleared),
            (down, self.face_down),
            (known, self.known_numerical),
            (mines, self.revealed_mines),
        ):
            if flag:
                cells.add(cell)
            else:
                cells.discard(cell)

    def copy(self) -> TokenIndex:
        twin = TokenIndex()
        twin.uncleared = set(self.uncleared)
        twin.face_down = set(self.face_down)
        twin.known_numerical = set(self.known_numerical)
        twin.revealed_mines = set(self.revealed_mines)
        return twin


#: The entities of the observation besides the units (ints), a square's tokens
#: (``("sq", c)``), a tank (``("tank", t)``) and a Beach square (``("gap", b)``): the
#: Beach squares under fire, the attack under way, the cards (:mod:`.observation`).
FIRE, ATTACK, CARDS = "under fire", "attack", "cards"


class BloodyCore(State[BloodyScenario]):
    """The fields of a game of Bloody Omaha and the queries over them."""

    turn: int
    current_phase: Phase
    step: Step
    # units, by index into scenario.units
    where: list[int]
    disrupted: list[bool]
    landed: list[bool]
    aim: list[int]  # the column a unit set out for (set-up or release square)
    ashore: list[int]  # the column it landed in (-1 before)
    eliminated: list[int]
    # German tokens: cell -> [(face, revealed)], and the Beach obstacles (False: obstacle)
    tokens: dict[int, list[tuple[str, bool]]]
    gap: dict[int, bool]
    # the Game Track (7.0): the square markers (ratings) and circular tokens (this turn)
    init_rating: int
    init_token: int
    eng_rating: int
    eng_token: int
    # cards (9.0)
    hand: list[str]
    offered: list[str]
    deck: Deck
    drift_mod: int
    landing_mod: int
    attack_bonus: int
    # the attack being put together (8.4.a)
    attack_target: int
    attack_squares: list[int]
    # Tank tokens: [cell, unit] (unit -1: waiting for one)
    tanks: list[list[int]]
    # counts for the score and the metrics
    sp_removed: int
    enc_removed: int
    value_removed: int
    gaps_made: int
    first_wave_ashore: int
    released: int
    exit_turns: list[int]
    result: Outcome | None
    #: The scenario's action objects (shared, never changed).
    catalogue: ActionCatalogue
    #: The catalogue codes of the last legal actions listed, in notation order.
    _listed_codes: list[int]
    # caches derived from the fields above: dropped by _drop_caches (edit, restore);
    # the token procedures keep them in step through tokens_changed()
    _token_index: TokenIndex | None
    _tank_reach: dict[int, frozenset[int]]
    #: While an observation is kept (:mod:`.observation`): the entities changed since,
    #: noted by the mutators below; None while nobody observes.
    journal: Journal | None

    def set_up_fields(self) -> None:
        """The position before the set-up draws: 4.3 markers and tanks, 4.4 units."""
        scenario = self.scenario
        n_units = len(scenario.units)
        self.turn = 1
        self.current_phase = Phase.SETUP
        self.step = Step.SETUP
        self.where = [u.setup if u.setup >= 0 else BOX for u in scenario.units]
        self.disrupted = [False] * n_units
        self.landed = [False] * n_units
        self.aim = [scenario.column[u.setup] if u.setup >= 0 else -1 for u in scenario.units]
        self.ashore = [-1] * n_units
        self.eliminated = []
        self.tokens = {}
        self.gap = {b: False for b in scenario.beaches}
        self.init_rating = self.init_token = rules.RATING_START
        self.eng_rating = self.eng_token = rules.RATING_START
        self.hand = []
        self.offered = []
        self.deck = Deck(scenario.card_ids)
        self.drift_mod = self.landing_mod = self.attack_bonus = 0
        self.attack_target = -1
        self.attack_squares = []
        self.tanks = [[ASIDE, -1] for _ in range(scenario.tank_count)]
        self.sp_removed = self.enc_removed = self.value_removed = 0
        self.gaps_made = 0
        self.first_wave_ashore = 0
        self.released = 0
        self.exit_turns = []
        self.result = None
        self.prepare()

    # ------------------------------------------------------------------ caches and copies
    def prepare(self) -> None:
        """The shared action catalogue and empty caches (a new game, a restored one)."""
        self.catalogue = ActionCatalogue.of(self.scenario)
        self._listed_codes = []
        self._drop_caches()

    def _drop_caches(self) -> None:
        self._token_index = None
        self._tank_reach = {}
        self.journal = None

    def token_index(self) -> TokenIndex:
        """What the tokens of each square show (built on first use after a change)."""
        index = self._token_index
        if index is None:
            index = self._token_index = TokenIndex(self.tokens)
        return index

    def tokens_changed(self, cell: int) -> None:
        """The tokens of ``cell`` were placed, revealed or removed: keep the caches in step."""
        if self._token_index is not None:
            self._token_index.update(cell, self.tokens.get(cell, ()))
        if self._tank_reach:
            self._tank_reach = {}
        if self.journal is not None:  # its tokens, and whether it keeps beaches under fire
            self.journal.add(("sq", cell))
            self.journal.add(FIRE)

    # ------------------------------------------------------------------ mutators
    # The procedures change what the observation shows through these (the German tokens
    # through ``tokens_changed``), so a kept observation learns of every change; the
    # Game Track counters and the decision are assigned directly (the observation
    # writes them at each call).
    def set_where(self, u: int, where: int) -> None:
        """Unit ``u`` is now in ``where``: a cell, :data:`BOX` or :data:`DEAD`."""
        self.where[u] = where
        if self.journal is not None:
            self.journal.add(u)

    def set_disrupted(self, u: int, down: bool) -> None:
        """Unit ``u`` shows its disrupted side (``down``) or its full-strength side."""
        self.disrupted[u] = down
        if self.journal is not None:
            self.journal.add(u)

    def set_tank(self, t: int, cell: int, unit: int) -> None:
        """Tank ``t`` is now in ``cell`` (or :data:`ASIDE`, :data:`LOST`) with ``unit``
        (-1: none)."""
        self.tanks[t] = [cell, unit]
        if self.journal is not None:
            self.journal.add(("tank", t))

    def set_gap(self, beach: int) -> None:
        """The Obstacle of a Beach square is flipped to its Gap side."""
        self.gap[beach] = True
        if self.journal is not None:
            self.journal.add(("gap", beach))

    def set_attack(self, target: int, squares: list[int]) -> None:
        """The attack under way: its target and the squares attacking (-1, []: none)."""
        self.attack_target = target
        self.attack_squares = squares
        if self.journal is not None:
            self.journal.add(ATTACK)

    def cards_changed(self) -> None:
        """The hand, the set-up cards or the deck changed (the caller changed them)."""
        if self.journal is not None:
            self.journal.add(CARDS)

    def __deepcopy__(self, memo: dict[int, Any]) -> BloodyCore:
        """``copy.deepcopy`` (OpenSpiel clones states so) is the structural copy."""
        return self._copy()

    def _copy(self) -> BloodyCore:
        """A structural copy: every mutable field copied, the scenario and catalogue shared."""
        twin = self._copy_base()
        assert isinstance(twin, BloodyCore)
        twin.where = list(self.where)
        twin.disrupted = list(self.disrupted)
        twin.landed = list(self.landed)
        twin.aim = list(self.aim)
        twin.ashore = list(self.ashore)
        twin.eliminated = list(self.eliminated)
        twin.tokens = {cell: list(toks) for cell, toks in self.tokens.items()}
        twin.gap = dict(self.gap)
        twin.hand = list(self.hand)
        twin.offered = list(self.offered)
        twin.deck = Deck.from_data(self.deck.to_data())
        twin.attack_squares = list(self.attack_squares)
        twin.tanks = [list(tank) for tank in self.tanks]
        twin.exit_turns = list(self.exit_turns)
        index = self._token_index
        twin._token_index = index.copy() if index is not None else None
        twin._tank_reach = dict(self._tank_reach)
        # the kept observation shared until one of the two changes it (copy on write)
        twin.journal = self.journal.copy() if self.journal is not None else None
        return twin

    # ------------------------------------------------------------------ protocol
    @property
    def scen(self) -> BloodyScenario:
        """The scenario (a short name the rules code uses everywhere)."""
        return self.scenario

    @property
    def turn_label(self) -> str:
        turn = self.turn
        return _TURN_LABELS[turn] if 0 <= turn < len(_TURN_LABELS) else f"Turn {turn}"

    @property
    def phase(self) -> str:
        return self.current_phase  # a StrEnum member: the printed name itself

    def current_player(self) -> str | None:
        """The US decides everything (the German side is the system)."""
        return None if self.result is not None else "US"

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    # ------------------------------------------------------------------ units
    def strength(self, u: int) -> int:
        spec = self.scenario.units[u]
        return spec.reduced if self.disrupted[u] else spec.full

    def units_at(self, cell: int) -> list[int]:
        """Living units in a cell, in counter order."""
        return [u for u, w in enumerate(self.where) if w == cell]

    def uid(self, u: int) -> str:
        return self.scenario.units[u].id

    def label(self, cell: int) -> str:
        return self.board.labels[cell]

    def where_text(self, u: int) -> str:
        w = self.where[u]
        return self.label(w) if w >= 0 else "the Reinforcements box" if w == BOX else "-"

    def strongest(self, units: list[int]) -> int:
        """The strongest of ``units`` (the first in counter order on a tie)."""
        return min(units, key=lambda u: (-self.strength(u), u))

    def at_sea(self) -> list[int]:
        return [u for u, w in enumerate(self.where) if w >= 0 and w in self.scenario.channel]

    def occupied_land(self) -> set[int]:
        return {w for w in self.where if w in self.scenario.land}

    def next_to_landed(self) -> set[int]:
        """Squares orthogonally next to a landed US unit."""
        neighbours = self.scenario.land_neighbours
        out: set[int] = set()
        for w in self.occupied_land():
            out.update(neighbours[w])
        return out

    # ------------------------------------------------------------------ tanks (8.3)
    def tanks_of(self, u: int) -> list[int]:
        return [t for t, (w, unit) in enumerate(self.tanks) if w >= 0 and unit == u]

    def tank_may_step(self, a: int, b: int) -> bool:
        """8.3: a tank moves only into cleared squares, and between the beach and the land
        beyond only through a cleared Exit square."""
        scen = self.scenario
        uncleared = self.token_index().uncleared
        if b not in scen.land or b in uncleared:
            return False
        if a in scen.inland and b in scen.inland:
            return True
        if a not in scen.inland and b not in scen.inland:
            return True
        inland_side = b if b in scen.inland else a
        return inland_side in scen.exit_name and inland_side not in uncleared

    def tank_reach(self, start: int) -> frozenset[int]:
        """8.3, 5.3.e: the squares a tank reaches from ``start`` along cleared squares
        (no diagonals), its own square included (cached until the tokens change)."""
        found = self._tank_reach.get(start)
        if found is not None:
            return found
        seen = {start}
        todo = deque([start])
        while todo:
            a = todo.popleft()
            for b in self.scenario.land_neighbours[a]:
                if b not in seen and self.tank_may_step(a, b):
                    seen.add(b)
                    todo.append(b)
        found = self._tank_reach[start] = frozenset(seen)
        return found

    def tank_landing_squares(self) -> list[int]:
        """8.3: Beach squares with a Gap and a US unit, where a Tank token may come ashore."""
        here = set(self.where)
        return [b for b in self.scenario.beaches if self.gap[b] and b in here]

    # ------------------------------------------------------------------ tokens
    def numerical(self, cell: int) -> list[int]:
        """Indices of the numerical tokens of a square."""
        toks = self.tokens.get(cell, ())
        return [k for k, (f, _) in enumerate(toks) if face_value(f) is not None]

    def known_numerical(self, cell: int) -> bool:
        """Does the square show a revealed numerical token (so it must be attacked, 8.1.a)?"""
        return cell in self.token_index().known_numerical

    def defence(self, cell: int) -> int:
        """8.4.c: the sum of the numerical tokens of a square."""
        return sum(face_value(self.tokens[cell][k][0]) or 0 for k in self.numerical(cell))

    def has_revealed(self, cell: int, face: str) -> bool:
        return any(r and f == face for f, r in self.tokens.get(cell, ()))

    def mines_present(self, cell: int) -> bool:
        return any(f == MINES for f, _ in self.tokens.get(cell, ()))

    def uncleared(self, cell: int) -> bool:
        return cell in self.token_index().uncleared

    def under_fire(self, beach: int) -> bool:
        """6.5.a, 8.5.a: a Beach square joined by a gray arrow to an uncleared strongpoint."""
        uncleared = self.token_index().uncleared
        return any(sp in uncleared for sp in self.scenario.arrows.get(beach, ()))

    def event_pairs(self) -> list[tuple[int, int]]:
        """5.2, 6.4: (US square, adjacent square holding a German token).

        Reading (READINGS.md): Beach Obstacle tokens count as German tokens here.
        """
        scen = self.scenario
        land, first_wave = scen.land, scen.first_wave
        us = sorted({w for w in self.where if w in land or w in first_wave})
        german = self.token_index().uncleared | {b for b, gap in self.gap.items() if not gap}
        neighbours = self.board.neighbours
        return [(u, g) for u in us for g in sorted(neighbours[u]) if g in german]

    # ------------------------------------------------------------------ scoring (2.2-2.4)
    def cleared(self, cell: int) -> bool:
        """2.4: every Strongpoint and Encounter token of the square is gone."""
        return cell in self.scenario.inland and not self.tokens.get(cell)

    def exits_cleared(self) -> int:
        return sum(1 for c in self.scenario.exit_name if self.cleared(c))

    def score(self) -> rules.Score:
        """2.3: the victory points of the position."""
        scen = self.scenario
        return rules.score(
            gaps=sum(1 for b in scen.beaches if self.gap[b]),
            strongpoint_tokens=self.sp_removed,
            encounter_tokens=self.enc_removed,
            towns_exits_cleared=sum(1 for c in scen.bonus if self.cleared(c)),
            southern_cleared=sum(1 for c in scen.southern if self.cleared(c)),
            in_reinforcements=sum(1 for w in self.where if w == BOX),
        )

    def card_name(self, card: str) -> str:
        return f"{card} '{self.scenario.cards[card].title}'"

    # ------------------------------------------------------------------ invariants
    def invariants(self) -> list[str]:
        """What is inconsistent in this position, by the rules (empty when sound).

        Units on squares they can be on, tanks with their unit (8.3), the German
        tokens a sub-set of the scenario's mix on the squares that take them (4.1)
        and in step with the VP counts, the cards a permutation of the deck (9.0),
        markers on the Game Track (7.0), the awaited decision consistent.
        """
        problems: list[str] = []
        for check in (
            self._unit_problems,
            self._token_problems,
            self._card_problems,
            self._track_problems,
            self._tank_problems,
            self._decision_problems,
        ):
            problems.extend(check())
        return problems

    def _unit_problems(self) -> list[str]:
        scen, out = self.scenario, []
        n = len(scen.units)
        for name in ("where", "disrupted", "landed", "aim", "ashore"):
            if len(getattr(self, name)) != n:
                out.append(f"{name}: {len(getattr(self, name))} entries for {n} units")
        if out:
            return out
        for u, w in enumerate(self.where):
            uid = scen.units[u].id
            if w not in (BOX, DEAD) and not 0 <= w < len(self.board):
                out.append(f"unit {uid}: {w} is not a square of the map")
            elif w >= 0 and w not in scen.land and w not in scen.channel:
                out.append(f"unit {uid}: {self.label(w)} is neither land nor a Channel square")
            elif w in scen.channel and self.landed[u]:
                out.append(f"unit {uid}: landed but still at sea in {self.label(w)} (6.3)")
            elif w in scen.land and not self.landed[u]:
                out.append(f"unit {uid}: ashore in {self.label(w)} without having landed (6.5)")
            elif w == DEAD and self.disrupted[u]:
                out.append(f"unit {uid}: eliminated and disrupted")
        dead = [u for u, w in enumerate(self.where) if w == DEAD]
        if sorted(self.eliminated) != dead:
            out.append(
                "eliminated: "
                + ", ".join(scen.units[u].id for u in self.eliminated if 0 <= u < n)
                + " is not the list of units off the map ("
                + ", ".join(scen.units[u].id for u in dead)
                + ")"
            )
        return out

    def _token_problems(self) -> list[str]:
        scen, out = self.scenario, []
        strongpoints, encounters = set(scen.strongpoints), set(scen.encounter_squares)
        sp_faces: list[str] = []
        enc_faces: list[str] = []
        for cell, toks in sorted(self.tokens.items()):
            if not 0 <= cell < len(self.board):
                out.append(f"tokens: {cell} is not a square of the map")
                continue
            where = self.label(cell)
            sps = [f for f, _ in toks if is_strongpoint_token(f)]
            encs = [f for f, _ in toks if not is_strongpoint_token(f)]
            for kind, found, squares in (
                ("Strongpoint", sps, strongpoints),
                ("Encounter", encs, encounters),
            ):
                if found and cell not in squares:
                    out.append(f"tokens: {where} is not a square for {kind} tokens (4.1)")
                elif len(found) > 1:
                    out.append(f"tokens: {where} holds {len(found)} {kind} tokens (4.1)")
            sp_faces += sps
            enc_faces += encs
        for kind, faces, mix in (
            ("Strongpoint", sp_faces, scen.strongpoint_tokens),
            ("Encounter", enc_faces, scen.encounter_tokens),
        ):
            extra = _multiset_minus(faces, mix)
            if extra:
                out.append(f"tokens: {', '.join(extra)} not among the scenario's {kind} tokens")
        if len(sp_faces) + self.sp_removed != len(scen.strongpoints):
            out.append(
                f"{len(sp_faces)} Strongpoint tokens on the map and {self.sp_removed} removed "
                f"are not the {len(scen.strongpoints)} placed (4.1)"
            )
        if len(enc_faces) + self.enc_removed != len(scen.encounter_squares):
            out.append(
                f"{len(enc_faces)} Encounter tokens on the map and {self.enc_removed} removed "
                f"are not the {len(scen.encounter_squares)} placed (4.1)"
            )
        every = len(scen.strongpoint_tokens) + len(scen.encounter_tokens)
        if not out and every == len(scen.strongpoints) + len(scen.encounter_squares):
            # every token was placed: those not on the map are the removed ones
            gone = _multiset_minus(
                [*scen.strongpoint_tokens, *scen.encounter_tokens], [*sp_faces, *enc_faces]
            )
            value = sum(face_value(f) or 0 for f in gone)
            if value != self.value_removed:
                out.append(
                    f"value removed {self.value_removed}, but the tokens gone add to {value}"
                )
        if sorted(self.gap) != sorted(scen.beaches):
            out.append("gaps: not one entry per Beach square")
        elif self.gaps_made != sum(self.gap.values()):
            out.append(f"gaps made {self.gaps_made}, but {sum(self.gap.values())} Gaps on the map")
        cleared = self.exits_cleared()
        if len(self.exit_turns) != cleared:
            out.append(f"{len(self.exit_turns)} exit turns noted for {cleared} exits cleared")
        if any(t > self.turn for t in self.exit_turns) or self.exit_turns != sorted(
            self.exit_turns
        ):
            out.append(f"exit turns {self.exit_turns} are not in order up to turn {self.turn}")
        return out

    def _card_problems(self) -> list[str]:
        scen = self.scenario
        held = [*self.hand, *self.offered, *self.deck.pile, *self.deck.discards]
        unknown = sorted({c for c in held if c not in scen.cards})
        if unknown:
            return [f"cards: {', '.join(unknown)} not among the scenario's cards"]
        if sorted(held) != sorted(scen.card_ids):
            missing = _multiset_minus(list(scen.card_ids), held)
            twice = _multiset_minus(held, list(scen.card_ids))
            parts = [f"missing {', '.join(missing)}"] if missing else []
            parts += [f"more than once: {', '.join(twice)}"] if twice else []
            return [f"cards in hand, offered, pile and discards: {'; '.join(parts)} (9.0)"]
        return []

    def _track_problems(self) -> list[str]:
        top, out = self.scenario.track_max, []
        if not 1 <= self.turn <= self.scenario.turns:
            out.append(f"turn {self.turn} is outside 1..{self.scenario.turns}")
        for name, value, low in (
            ("Initiative rating", self.init_rating, 1),
            ("Engineers rating", self.eng_rating, 1),
            ("Initiative token", self.init_token, 0),
            ("Engineers token", self.eng_token, 0),
        ):
            if not low <= value <= top:
                out.append(f"{name} {value} is off the Game Track ({low}..{top}, 7.0)")
        return out

    def _tank_problems(self) -> list[str]:
        scen, out = self.scenario, []
        if len(self.tanks) != scen.tank_count:
            return [f"tanks: {len(self.tanks)} for the scenario's {scen.tank_count}"]
        for t, (w, u) in enumerate(self.tanks):
            name = tank_name(t)
            if w not in (ASIDE, LOST) and w not in scen.land:
                out.append(f"{name}: {w} is not a land square (8.3)")
            elif w < 0 and u != -1:
                out.append(f"{name}: off the map but with a unit")
            elif u != -1 and not 0 <= u < len(scen.units):
                out.append(f"{name}: {u} is not a unit")
            elif u >= 0 and self.where[u] != w:
                out.append(f"{name}: not in the square of {scen.units[u].id} (8.3)")
        return out

    def _decision_problems(self) -> list[str]:
        out = []
        if (self.result is not None) != (self.step == Step.OVER):
            out.append(f"decision {self.step.value!r} does not match the result")
        if self.step == Step.SETUP and (self.turn != 1 or len(self.offered) != 3):
            out.append("the set-up choice needs turn 1 and three cards offered (4.5)")
        if self.step != Step.SETUP and self.offered:
            out.append("cards are offered outside the set-up (4.5)")
        attacking = self.attack_target >= 0
        if attacking != (self.step == Step.ATTACK):
            out.append(f"an attack target does not match the decision {self.step.value!r}")
        elif attacking:
            target = self.attack_target
            around = self.scenario.land_neighbours[target] if target in self.scenario.land else ()
            if not self.attack_squares or any(c not in around for c in self.attack_squares):
                out.append(f"attack on {self.label(target)}: squares not next to it (8.4.a)")
        return out


def _multiset_minus(items: Iterable[str], minus: Iterable[str]) -> list[str]:
    """The items left when each of ``minus`` is taken out once (sorted)."""
    left = Counter(items)
    left.subtract(Counter(minus))
    return sorted(item for item, n in left.items() for _ in range(n) if n > 0)
