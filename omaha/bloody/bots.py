"""Bloody Omaha bots: uniform random, and a heuristic US player.

Both see only what the US may see. The random bot picks among the legal actions;
the heuristic reads ``state.view("US")`` (face-down tokens appear only as "a
Strongpoint token" or "an Encounter token" there) plus the published, public
components of the scenario (the counter mix, tables, cards, map) and never the
state's hidden token identities. It scores every candidate decision in expected
VP and takes the best, ending the Activation phase when nothing is worth an
Initiative point:

* landing: plays drift and landing cards when enough units are at sea;
* Random Event: picks the pair of squares with the best expected table result;
* activation: gaps obstacles with as many engineer assets as make success likely,
  probes face-down squares (with units already disrupted when it can, since
  finding numerical tokens only disrupts), attacks revealed squares with enough
  strength (adding squares, rallying attackers and bringing tanks when worth it),
  steers units toward the exits and the southern hedgerows, plays cards, and
  releases reinforcements only while they can still land and fight, keeping them
  for their VP (2.3.f) late in the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, cast

import attrs

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.kernel.board import Board
from omaha.kernel.dice import RandomDice
from omaha.kernel.protocol import State
from omaha.kernel.view import View

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
from .components.map import BEACH
from .components.tokens import EVENT, MINES, SNIPER, STUG, face_value, is_strongpoint_token
from .components.units import UnitSpec
from .core import BOX, DEAD, LOST, BloodyCore, tank_name
from .scenario import BloodyScenario

#: Opportunity cost of one Initiative point, in VP.
V_INIT = 0.45
_SPECIAL = {"Mines": "mines", "Sniper": "sniper", "StuG": "stug", "Event": "event"}


@attrs.define
class Picture:
    """What the US view shows, in board indices (built from :class:`View` only)."""

    turn: int
    turns: int
    init: int
    init_rating: int
    eng: int
    eng_rating: int
    hand: list[str]
    at: dict[str, int]  # unit -> cell, -1 reinforcements, -2 eliminated
    disrupted: dict[str, bool]
    tokens: dict[int, list[tuple[str, str | None]]]  # cell -> (sp|enc, face or None if hidden)
    gap: dict[int, bool]
    tanks: dict[str, tuple[int, str | None]]  # tank -> (cell or -1 set aside, unit)
    attack: tuple[int, list[int]] | None


def read_view(view: View, scen: BloodyScenario) -> Picture:
    board = view.board
    tracks = dict(view.tracks)
    turn, turns = (int(x) for x in tracks["Turn"].split("/"))
    init, init_rating = (int(x) for x in tracks["Initiative"].split(" of "))
    eng, eng_rating = (int(x) for x in tracks["Engineers"].split(" of "))
    hand = [] if tracks["Hand"] == "-" else tracks["Hand"].split()
    at: dict[str, int] = {}
    disrupted: dict[str, bool] = {}
    tokens: dict[int, list[tuple[str, str | None]]] = {}
    gap: dict[int, bool] = {}
    tanks: dict[str, tuple[int, str | None]] = {}
    for p in view.pieces:
        if p.name in ("Strongpoint", "Encounter"):
            kind = "sp" if p.name == "Strongpoint" else "enc"
            face: str | None = None
            if not p.hidden:
                face = _SPECIAL.get(p.values, p.values)
            tokens.setdefault(board.cell(p.where), []).append((kind, face))
        elif p.name in ("Obstacle", "Gap"):
            gap[board.cell(p.where)] = p.name == "Gap"
        elif p.name == "Tank":
            tanks[p.id] = (board.cell(p.where) if p.where else -1, None)
        elif p.side == "US":
            if "eliminated" in p.marks:
                at[p.id] = -2
            elif p.where == "reinforcements":
                at[p.id] = -1
            else:
                at[p.id] = board.cell(p.where)
            disrupted[p.id] = "disrupted" in p.marks
    attack = None
    for note in view.notes:
        tank, supports, unit = note.partition(" (")[0].partition(" supports ")
        if supports and tank in tanks:
            tanks[tank] = (tanks[tank][0], unit)
        if note.startswith("attack on "):
            head, _, tail = note[len("attack on ") :].partition(" from ")
            attack = (board.cell(head), [board.cell(x) for x in tail.split(", ")])
    return Picture(
        turn,
        turns,
        init,
        init_rating,
        eng,
        eng_rating,
        hand,
        at,
        disrupted,
        tokens,
        gap,
        tanks,
        attack,
    )


#: What the US view shows of a revealed token face (the name read_view gives it).
_SHOWN = {MINES: "mines", SNIPER: "sniper", STUG: "stug", EVENT: "event"}


class _TokenView(dict[str, tuple[str, str | None]]):
    """What :func:`picture_of` shows of a token face: (kind, face shown), made once a face."""

    def __init__(self, revealed: bool) -> None:
        super().__init__()
        self.revealed = revealed

    def __missing__(self, face: str) -> tuple[str, str | None]:
        kind = "sp" if is_strongpoint_token(face) else "enc"
        shown = (_SHOWN.get(face) or str(face_value(face))) if self.revealed else None
        got = self[face] = (kind, shown)
        return got


_SEEN, _HIDDEN = _TokenView(True), _TokenView(False)


def picture_of(st: BloodyCore) -> Picture:
    """The :class:`Picture` that :func:`read_view` reads from ``st.view("US")``, built
    straight from the fields the US view shows: face-down tokens give only their kind
    (Strongpoint or Encounter), never their face. A test checks the two agree."""
    scen = st.scen
    ids = _unit_ids(scen)
    at: dict[str, int] = {}
    disrupted: dict[str, bool] = {}
    for u, w in enumerate(st.where):
        at[ids[u]] = w if w >= 0 else (-1 if w == BOX else -2)
        disrupted[ids[u]] = st.disrupted[u] and w != DEAD
    tokens: dict[int, list[tuple[str, str | None]]] = {}
    for cell in sorted(st.tokens):
        toks = st.tokens[cell]
        if toks:
            tokens[cell] = [_SEEN[face] if revealed else _HIDDEN[face] for face, revealed in toks]
    tanks: dict[str, tuple[int, str | None]] = {}
    for t, (w, unit) in enumerate(st.tanks):
        if w != LOST:
            tanks[tank_name(t)] = (w if w >= 0 else -1, ids[unit] if w >= 0 and unit >= 0 else None)
    attack = None
    if st.attack_target >= 0:
        attack = (st.attack_target, list(st.attack_squares))
    return Picture(
        st.turn,
        scen.turns,
        st.init_token,
        st.init_rating,
        st.eng_token,
        st.eng_rating,
        list(st.hand),
        at,
        disrupted,
        tokens,
        {b: st.gap[b] for b in scen.beaches},
        tanks,
        attack,
    )


@lru_cache(maxsize=4096)
def _attack_results(strength: int, defence: int) -> tuple[str, ...]:
    """8.4.d: the result of each die roll 1-6 of an attack (no modifier), in roll order."""
    return tuple(rules.attack_result(r + strength, defence) for r in range(1, 7))


def _summed_worth(results: tuple[str, ...], gain: float, hits: float) -> float:
    """8.4.d: an attack's worth summed over its six rolls' ``results``: ``gain`` for a
    success, ``gain - hits`` for a success that disrupts the attackers, ``-hits`` else."""
    worth = 0.0
    for res in results:
        if res == rules.SUCCESS:
            worth += gain
        elif res == rules.SUCCESS_DISRUPTED:
            worth += gain - hits
        else:
            worth -= hits
    return worth


@lru_cache(maxsize=8192)
def _follow_up_total(defences: tuple[int, ...], strength: int, gain: float, hits: float) -> float:
    """:meth:`_Context.follow_up` before its weight: the sum over the German totals
    ``defences`` of an attack's expected worth (when worth its Initiative), by an attack
    of ``strength`` gaining ``gain`` and costing ``hits`` when it fails (a pure function,
    so its values are kept across decisions)."""
    total = 0.0
    by_results: dict[tuple[str, ...], float] = {}
    for d in defences:
        results = _attack_results(strength, d)
        ev = by_results.get(results)
        if ev is None:
            ev = by_results[results] = _summed_worth(results, gain, hits)
        total += max(0.0, ev / 6 - V_INIT)
    return total


@lru_cache(maxsize=16)
def _cell_index(board: Board) -> dict[str, int]:
    """Printed label -> board index (the bot reads labels off the legal actions)."""
    return {label: i for i, label in enumerate(board.labels)}


@lru_cache(maxsize=16)
def _unit_ids(scen: BloodyScenario) -> tuple[str, ...]:
    """The scenario's unit ids, by unit index."""
    return tuple(u.id for u in scen.units)


@lru_cache(maxsize=16)
def _unit_specs(scen: BloodyScenario) -> dict[str, UnitSpec]:
    """The scenario's units by id."""
    return {u.id: u for u in scen.units}


def _value(face: str | None) -> int | None:
    if face is None or not face.isdigit():
        return None
    return int(face)


class HeuristicBot:
    """A US player that scores decisions in expected VP from the US view only."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = RandomDice(seed)

    # ---------------------------------------------------------------- entry point
    def choose(self, state: State[Any]) -> Action:
        if state.current_player() != "US":
            raise IllegalAction("the heuristic bot plays the US side only")
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self._context(state).decide()

    def ranked(self, state: State[Any]) -> list[Action]:
        """The legal actions best first by this bot's scores, its choice first (the
        search agent's candidates); actions it does not score follow in listing order."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return list(legal)
        return self._context(state).ranked()

    def _context(self, state: State[Any]) -> _Context:
        if state.current_player() != "US":
            raise IllegalAction("the heuristic bot plays the US side only")
        scen = state.scenario
        assert isinstance(scen, BloodyScenario)
        legal = state.legal_actions()
        if isinstance(state, BloodyCore):
            pic = picture_of(state)  # what read_view(state.view("US")) gives, built directly
        else:  # pragma: no cover - every bloody state is a BloodyCore
            pic = read_view(state.view("US"), scen)
        return _Context(scen, pic, legal)


@attrs.frozen
class _ProbeTarget:
    """A face-down square's terms of :meth:`_Context.probe_value` that do not depend on
    the prober: the kind of token its follow-up attack meets, the German totals it may
    show, the attackers around, the gain of clearing it, and what revealing it gives."""

    has_sp: bool
    kind: str
    defences: tuple[int, ...]
    around: tuple[tuple[str, int, int, float, float], ...]
    gain: float
    extra: float
    enter: float


class _Context:
    """One decision: the picture, the legal actions and the scoring helpers."""

    def __init__(self, scen: BloodyScenario, pic: Picture, legal: Iterable[Action]) -> None:
        self.scen = scen
        self.pic = pic
        self.legal = list(legal)
        self.units = _unit_specs(scen)
        self.board = scen.board
        self.left = pic.turns - pic.turn  # turns after this one
        self.care = max(0.15, min(1.0, (self.left + 0.5) / 4))
        self.occupants: dict[int, list[str]] = {}
        for uid, cell in sorted(pic.at.items()):
            if cell >= 0:
                self.occupants.setdefault(cell, []).append(uid)
        self._pool = self._unknown_pool()
        self.exits_cleared = sum(1 for c in scen.exit_name if not pic.tokens.get(c))
        self.cell = _cell_index(scen.board)
        #: the legal actions by class, in listing order
        self.kinds: dict[type[Action], list[Action]] = {}
        for a in self.legal:
            self.kinds.setdefault(type(a), []).append(a)
        # pure evaluations met more than once in a decision, kept to be met again
        self._potential: dict[int, float] = {}
        self._hit_cost: dict[str, float] = {}
        self._engineer_p: dict[tuple[int, bool], float] = {}
        self._fire_on: dict[int, bool] = {}
        self._engineer_worth: dict[int, float] = {}
        self._defences: dict[str, tuple[int, ...]] = {}
        self._around: dict[int, tuple[tuple[str, int, int, float, float], ...]] = {}
        self._enc_pool: tuple[str, ...] | None = None
        self._probe: dict[int, _ProbeTarget | None] = {}
        self._attack_on: dict[int, tuple[int, float]] = {}
        self._tanks: list[str] | None = None
        self._probe_ev: dict[tuple[int, float, float, bool, float], float] = {}

    # ---------------------------------------------------------------- basics
    def strength(self, uid: str) -> int:
        u = self.units[uid]
        return u.reduced if self.pic.disrupted[uid] else u.full

    def landed_units(self, cell: int) -> list[str]:
        if cell not in self.scen.land:
            return []
        return self.occupants.get(cell, [])

    def hit_cost(self, uid: str) -> float:
        """Expected VP lost when a unit takes a hit (disrupted, or eliminated if disrupted)."""
        found = self._hit_cost.get(uid)
        if found is None:
            u = self.units[uid]
            if self.pic.disrupted[uid]:
                found = (1.2 + 0.22 * u.full) * self.care
            else:
                found = (0.45 + 0.08 * (u.full - u.reduced)) * self.care
            self._hit_cost[uid] = found
        return found

    def uncleared(self, cell: int) -> bool:
        return bool(self.pic.tokens.get(cell))

    def _fire(self, beach: int) -> bool:
        """6.5.a, 8.5.a: an uncleared strongpoint fires on the Beach square (gray arrow)."""
        found = self._fire_on.get(beach)
        if found is None:
            found = self._fire_on[beach] = any(
                self.uncleared(sp) for sp in self.scen.arrows.get(beach, ())
            )
        return found

    def square_bonus(self, cell: int) -> float:
        """VP and strategic worth of clearing a square, beyond its tokens."""
        scen = self.scen
        v = 0.0
        if cell in scen.bonus or cell in scen.southern:
            v += 1.0
        if cell in scen.exit_name:
            v += 3.0 if self.exits_cleared < 3 else 1.5
        return v

    def _unknown_pool(self) -> dict[str, list[str]]:
        """Faces not yet seen face up, by kind (the published mix minus revealed tokens)."""
        pool = {"sp": list(self.scen.strongpoint_tokens), "enc": list(self.scen.encounter_tokens)}
        for toks in self.pic.tokens.values():
            for kind, face in toks:
                if face is None:
                    continue
                key = f"sp{face}" if kind == "sp" else (f"e{face}" if face.isdigit() else face)
                if key in pool[kind]:
                    pool[kind].remove(key)
        return pool

    # ---------------------------------------------------------------- decisions
    def decide(self) -> Action:
        kinds = self.kinds
        if ReturnCard in kinds:
            return self.return_card()
        if ChooseEvent in kinds:
            return self.choose_event()
        if Continue in kinds:
            return self.landing_cards()
        if ResolveAttack in kinds:
            return self.continue_attack()
        return self.activate()

    def ranked(self) -> list[Action]:
        """``decide``'s choice, then the other candidates by score (notation on ties),
        then the unscored legal actions in listing order."""
        kinds = self.kinds
        scored: list[tuple[float, str, Action]] = []
        if ReturnCard in kinds:
            scored = [
                (-self.card_worth(cast(ReturnCard, a).card), str(a), a) for a in kinds[ReturnCard]
            ]
        elif ChooseEvent in kinds:
            scored = [
                (self.event_worth(cast(ChooseEvent, a)), str(a), a) for a in kinds[ChooseEvent]
            ]
        elif Continue not in kinds and ResolveAttack not in kinds:
            scored = [(s, str(a), a) for s, a in self.candidates()]
            scored.append((0.0, "~", EndActivation()))
        scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
        by_text = {str(a): a for a in self.legal}
        first = self.decide()
        out, seen = [first], {str(first)}
        for _, _, a in scored:
            text = str(a)
            if text in by_text and text not in seen:
                out.append(by_text[text])
                seen.add(text)
        out.extend(a for a in self.legal if str(a) not in seen)
        return out

    # -- set-up (4.5)
    def card_worth(self, card: str) -> float:
        return max(
            self.option_worth(o.effect, o.amount, o.first) for o in self.scen.cards[card].options
        )

    def option_worth(self, effect: str, amount: int, first: int = 1) -> float:
        later = max(0, self.pic.turns - max(first, self.pic.turn))
        table = {
            "initiative": 0.45 * amount * later,
            "initiative_now": 0.45 * amount,
            "engineers": 0.15 * amount * later,
            "engineers_now": 0.2 * amount,
            "tank": 1.5,
            "naval_fire": 0.6 + 0.25 * amount,
            "rally": 0.8,
            "reveal": 0.5,
            "clear_mines": 0.8,
            "gap": 1.2,
            "drift_drm": 0.4 * abs(amount),
            "landing_drm": 0.8 * abs(amount),
            "attack_bonus": 0.3 * amount,
        }
        return table[effect]

    def return_card(self) -> Action:
        options = [a for a in self.legal if isinstance(a, ReturnCard)]
        return min(options, key=lambda a: (self.card_worth(a.card), a.card))

    # -- before the Drift rolls
    def landing_cards(self) -> Action:
        pic, scen = self.pic, self.scen
        at_sea = [u for u, c in pic.at.items() if c >= 0 and c in scen.channel]
        landing_now = [u for u in at_sea if pic.at[u] in scen.first_wave]
        best: tuple[float, Action] = (0.0, Continue())
        for a in self.legal:
            if not isinstance(a, PlayCard):
                continue
            opt = scen.cards[a.card].options[a.option - 1]
            if opt.effect == "drift_drm":
                companies = [u for u in at_sea if not self.units[u].battalion]
                gain = 0.12 * abs(opt.amount) * len(companies)
            else:
                gain = 0.3 * abs(opt.amount) * sum(
                    1 for u in landing_now if not self.units[u].battalion
                ) + 0.15 * abs(opt.amount) * sum(1 for u in landing_now if self.units[u].battalion)
            keep = max(
                (
                    self.option_worth(o.effect, o.amount, o.first)
                    for k, o in enumerate(scen.cards[a.card].options, start=1)
                    if k != a.option and (o.last is None or o.last > pic.turn)
                ),
                default=0.0,
            )
            score = gain - keep
            if score > best[0]:
                best = (score, a)
        return best[1]

    # -- Random Event (5.2)
    def choose_event(self) -> Action:
        options = [a for a in self.legal if isinstance(a, ChooseEvent)]
        return max(options, key=lambda a: (self.event_worth(a), str(a)))

    def event_worth(self, a: ChooseEvent) -> float:
        us, g = self.board.cell(a.us), self.board.cell(a.german)
        terrain = self.scen.kind[us]
        units = self.occupants.get(us, [])
        total = 0.0
        for entry in self.scen.events[terrain]:
            total += self.effect_worth(entry.effect, entry.amount, units, g)
        return total / 6

    def effect_worth(self, effect: str, amount: int, units: list[str], g: int) -> float:
        pic = self.pic
        if effect == "disrupt_all":
            return -sum(self.hit_cost(u) for u in units)
        if effect == "disrupt_one":
            fresh = [u for u in units if not pic.disrupted[u]]
            return -self.hit_cost(max(fresh, key=self.strength)) if fresh else 0.0
        if effect == "drift":
            return -0.4 * len(units)
        if effect == "initiative_now":
            return V_INIT * amount
        if effect == "initiative":
            return V_INIT * amount * self.left
        if effect == "engineers":
            return 0.15 * amount * self.left
        if effect == "rally":
            return sum(self.hit_cost(u) * 0.6 for u in units if pic.disrupted[u])
        if effect == "reveal":
            return 0.4 if any(f is None for _, f in pic.tokens.get(g, ())) else 0.0
        if effect in ("remove_weakest", "gap"):
            if self.scen.kind[g] == BEACH:
                return 1.2 if not pic.gap.get(g, True) else 0.0
            if effect == "gap":
                return 0.0
            return self.weakest_worth(g, amount)
        if effect == "tank":
            aside = any(c < 0 for c, _ in pic.tanks.values())
            return (
                1.2
                if aside
                and any(pic.gap.get(b) and self.occupants.get(b) for b in self.scen.beaches)
                else 0.0
            )
        return 0.0

    def weakest_worth(self, cell: int, most: int) -> float:
        toks = self.pic.tokens.get(cell, [])
        if not toks:
            return 0.0
        p_total = 0.0
        for kind, face in toks:
            if face is not None:
                v = _value(face)
                if v is not None and v <= most:
                    return (2.0 if kind == "sp" else 1.0) + (
                        self.square_bonus(cell) if len(toks) == 1 else 0
                    )
                continue
            pool = self._pool[kind]
            ok = [f for f in pool if (face_value(f) is not None and (face_value(f) or 0) <= most)]
            if pool:
                p_total = max(p_total, len(ok) / len(pool) * (2.0 if kind == "sp" else 1.0))
        return p_total + 0.3

    # -- Activation
    def activate(self) -> Action:
        """The candidate of highest score; on equal scores the last in notation order."""
        best_score, best_text, best = 0.0, "~", cast(Action, EndActivation())
        for score, action in self.candidates():
            # (score, notation) compared as a pair; the notation only on equal scores
            if score > best_score or (score == best_score and str(action) > best_text):
                best_score, best_text, best = score, str(action), action
        return best

    def candidates(self) -> Iterable[tuple[float, Action]]:
        if self.pic.init >= 1:
            yield from self.attack_candidates()
            yield from self.probe_candidates()
            yield from self.engineer_candidates()
            yield from self.move_candidates()
            yield from self.rally_candidates()
            yield from self.release_candidates()
        yield from self.card_candidates()

    # attacks (8.4)
    def attack_value(
        self,
        target: int,
        squares: list[int],
        extra: int = 0,
        rallied: str | None = None,
        tank_to: str | None = None,
    ) -> float:
        """Expected VP of an attack on ``target`` by every unit of ``squares``."""
        units = [u for c in squares for u in self.landed_units(c)]
        if not units:
            return -9.0
        defence, gain = self.attack_target(target)

        def st(u: str) -> int:
            if u == rallied:
                return self.units[u].full
            return self.strength(u)

        tanks = self.tank_units()
        n_tanks = sum(1 for unit in tanks if unit in units)
        if tank_to in units and tank_to not in tanks:
            n_tanks += 1
        strength = sum(st(u) for u in units) + self.scen.tank_strength * n_tanks + extra
        mixed = rules.mixed_commands([self.units[u].division for u in units])

        def cost(u: str) -> float:
            if u == rallied:
                return (0.45 + 0.08 * (self.units[u].full - self.units[u].reduced)) * self.care
            return self.hit_cost(u)

        hits = sum(cost(u) for u in units)
        results = _attack_results(strength - (1 if mixed else 0), defence)
        return _summed_worth(results, gain, hits) / 6

    def attack_target(self, target: int) -> tuple[int, float]:
        """An attack on ``target``'s terms that do not depend on the attackers: the German
        total of its face-up numerical tokens and the VP of taking them (with the square's
        bonus once no other token is left); worked out once per target for the decision."""
        found = self._attack_on.get(target)
        if found is None:
            toks = self.pic.tokens.get(target, [])
            nums = [(k, _value(f)) for k, f in toks if _value(f) is not None]
            defence = sum(v or 0 for _, v in nums)
            gain = sum(2.0 if k == "sp" else 1.0 for k, _ in nums)
            if len(toks) == len(nums):
                gain += self.square_bonus(target) + 0.4
            found = self._attack_on[target] = (defence, gain)
        return found

    def tank_units(self) -> list[str]:
        """The unit each tank on the map supports (tanks in order, one entry each)."""
        found = self._tanks
        if found is None:
            found = self._tanks = [u for c, u in self.pic.tanks.values() if c >= 0 and u]
        return found

    def attack_candidates(self) -> Iterable[tuple[float, Action]]:
        pic, kinds = self.pic, self.kinds
        cell = self.cell
        targets = sorted({cell[cast(Attack, a).target] for a in kinds.get(Attack, ())})
        rallies = {cast(Rally, a).unit for a in kinds.get(Rally, ())}
        for target in targets:
            occupied = [c for c in self.scen.land_neighbours[target] if self.landed_units(c)]
            best: tuple[float, list[int], float] | None = None
            for mask in range(1, 1 << len(occupied)):
                squares = [occupied[k] for k in range(len(occupied)) if mask >> k & 1]
                if len(squares) > pic.init:
                    continue
                squares.sort(
                    key=lambda c: (-sum(self.strength(u) for u in self.landed_units(c)), c)
                )
                raw = self.attack_value(target, squares)
                v = raw - V_INIT * len(squares)
                if best is None or v > best[0]:
                    best = (v, squares, raw)
            if best is None:
                continue
            value, squares, base = best  # base: the attack's value, before its cost
            tl = self.board.labels
            yield value, Attack(tl[target], tl[squares[0]])
            # improvements worth an action first: rally an attacker, bring a tank, a card
            units = [u for c in squares for u in self.landed_units(c)]
            if len(squares) + 1 <= pic.init:
                for u in units:
                    if pic.disrupted[u] and u in rallies:
                        gain = self.attack_value(target, squares, rallied=u) - base
                        yield value + gain - V_INIT + 0.01, Rally(u)
                for a in kinds.get(MoveTank, ()):
                    assert isinstance(a, MoveTank)
                    if a.unit in units:
                        _, cur = pic.tanks[a.tank]
                        if cur in units:
                            continue
                        gain = self.attack_value(target, squares, tank_to=a.unit) - base
                        yield value + gain - V_INIT, a
            for a in kinds.get(PlayCard, ()):
                if isinstance(a, PlayCard):
                    opt = self.scen.cards[a.card].options[a.option - 1]
                    if opt.effect == "attack_bonus":
                        gain = self.attack_value(target, squares, extra=opt.amount) - base
                        yield value + gain - self.option_worth(opt.effect, opt.amount) + 0.02, a

    def continue_attack(self) -> Action:
        pic = self.pic
        assert pic.attack is not None
        target, squares = pic.attack
        best: tuple[float, str, Action] = (
            self.attack_value(target, squares),
            "resolve",
            ResolveAttack(),
        )
        for a in self.legal:
            if isinstance(a, AddSquare):
                v = self.attack_value(target, [*squares, self.board.cell(a.square)]) - V_INIT
                if (v, str(a)) > best[:2]:
                    best = (v, str(a), a)
        return best[2]

    # probing face-down squares (8.1)
    def defences(self, kind: str) -> tuple[int, ...]:
        """The German totals a face-down token of ``kind`` may show (one per unseen face)."""
        found = self._defences.get(kind)
        if found is None:
            if kind == "sp":
                found = tuple(face_value(f) or 0 for f in self._pool["sp"] or ["sp6"])
            else:
                nums = [face_value(f) for f in self._pool["enc"] if face_value(f) is not None]
                found = tuple(v or 0 for v in nums)
            self._defences[kind] = found
        return found

    def follow_up(self, cell: int, kind: str, prober: str) -> float:
        """Expected worth of attacking ``cell`` once revealed, from the stacks next to it.

        The German total is one of :meth:`defences` of ``kind``, equally likely.
        The prober is counted disrupted (it will be, if the tokens are numerical).
        """
        defences = self.defences(kind)
        around = self.attackers_around(cell)
        if not around or not defences:
            return 0.0
        gain = (
            (2.0 if self.scen.kind[cell] == "strongpoint" else 1.0) + self.square_bonus(cell) + 0.4
        )
        return self._follow_up_by(defences, around, gain, kind, prober)

    def _follow_up_by(
        self,
        defences: tuple[int, ...],
        around: tuple[tuple[str, int, int, float, float], ...],
        gain: float,
        kind: str,
        prober: str,
    ) -> float:
        """:meth:`follow_up` from the target's terms (its :meth:`defences` and
        :meth:`attackers_around`, both non-empty, and the gain of clearing it)."""
        # the prober's terms as a disrupted unit's, the others' as they stand (in order)
        strength = sum(r if u == prober else s for u, s, r, _, _ in around)
        hits = sum(hd if u == prober else h for u, _, _, h, hd in around)
        total = _follow_up_total(defences, strength, gain, hits)
        later = 1.0 if self.pic.init >= 2 else 0.75
        return later * total / len(defences)

    def attackers_around(self, cell: int) -> tuple[tuple[str, int, int, float, float], ...]:
        """The landed units next to ``cell``, each as (id, strength now, reduced strength,
        hit cost now, hit cost once disrupted), in :meth:`follow_up`'s order (kept for
        the decision)."""
        found = self._around.get(cell)
        if found is None:
            disrupted, care = self.pic.disrupted, self.care
            out = []
            for c in self.scen.land_neighbours[cell]:
                for u in self.landed_units(c):
                    spec = self.units[u]
                    now = spec.reduced if disrupted[u] else spec.full
                    out.append(
                        (u, now, spec.reduced, self.hit_cost(u), (1.2 + 0.22 * spec.full) * care)
                    )
            found = self._around[cell] = tuple(out)
        return found

    def probe_target(self, cell: int) -> _ProbeTarget | None:
        """What a probe of ``cell`` is worth whoever makes it (None: no face-down token),
        worked out once per target for the decision; :meth:`probe_value` adds the prober."""
        if cell in self._probe:
            return self._probe[cell]
        toks = self.pic.tokens.get(cell, [])
        found: _ProbeTarget | None = None
        if any(f is None for _, f in toks):
            has_sp = any(k == "sp" for k, _ in toks)
            kind = "sp" if has_sp else "enc"
            defences = self.defences(kind)
            around = self.attackers_around(cell)
            gain = 0.0
            if around and defences:
                gain = (
                    (2.0 if self.scen.kind[cell] == "strongpoint" else 1.0)
                    + self.square_bonus(cell)
                    + 0.4
                )
            # a Strongpoint's Encounter token may be a Sniper/StuG/event worth 1 VP
            extra = 0.25 if has_sp and any(k == "enc" and f is None for k, f in toks) else 0.0
            enter = 0.0 if has_sp else self.square_bonus(cell) + 0.3
            found = _ProbeTarget(has_sp, kind, defences, around, gain, extra, enter)
        self._probe[cell] = found
        return found

    def probe_value(self, uid: str, cell: int) -> float:
        t = self.probe_target(cell)
        if t is None:
            return -9.0
        pic = self.pic
        disrupt = 0.0 if pic.disrupted[uid] else self.hit_cost(uid)
        follow = (
            self._follow_up_by(t.defences, t.around, t.gain, t.kind, uid)
            if t.around and t.defences
            else 0.0
        )
        if t.has_sp:
            # a Strongpoint token is always numerical: the unit is stopped and disrupted
            return 0.2 + follow + t.extra - disrupt
        info = 0.1 + follow
        with_tank = any(unit == uid for _, unit in pic.tanks.values())
        key = (cell, info, disrupt, with_tank, self.hit_cost(uid))
        found = self._probe_ev.get(key)
        if found is not None:
            return found
        pool = self._enc_faces()
        n = len(pool)
        ev = 0.0
        enter = t.enter
        for face in pool:
            if face == "value":
                ev += info - disrupt
            elif face == "sniper":
                ev += 1.0 + enter - V_INIT
            elif face == "stug":
                ev += 1.0 + enter - (0.8 if with_tank else disrupt)
            elif face == "event":
                ev += 1.0 + enter - 0.1
            elif face == "mines":
                ev += 0.2 - 0.5 * self.hit_cost(uid)
        found = self._probe_ev[key] = ev / n
        return found

    def _enc_faces(self) -> tuple[str, ...]:
        """The unseen Encounter faces, numerical ones as ``"value"``."""
        found = self._enc_pool
        if found is None:
            pool = self._pool["enc"] or ["e1"]
            found = self._enc_pool = tuple(
                "value" if face_value(f) is not None else f for f in pool
            )
        return found

    def probe_candidates(self) -> Iterable[tuple[float, Action]]:
        for a in self.kinds.get(Move, ()):
            assert isinstance(a, Move)
            cell = self.cell[a.square]
            if not any(f is None for _, f in self.pic.tokens.get(cell, ())):
                continue
            yield self.probe_value(a.unit, cell) - V_INIT, a

    # engineers (8.5)
    def engineer_candidates(self) -> Iterable[tuple[float, Action]]:
        pic = self.pic
        for a in self.kinds.get(Engineers, ()):
            assert isinstance(a, Engineers)
            cell = self.cell[a.square]
            beach = self.scen.kind[cell] == BEACH
            fire = beach and self._fire(cell)
            p = self._engineer_p.get((a.assets, fire))
            if p is None:
                mod = rules.engineer_modifier(pic.turn, a.assets, fire)
                p = self._engineer_p[a.assets, fire] = (
                    sum(
                        1
                        for r in range(1, 7)
                        if self.scen.engineer_table.lookup(r + mod).result == "success"
                    )
                    / 6
                )
            worth = self._engineer_worth.get(cell)
            if worth is None:
                if beach:
                    worth = 1.0 + (0.6 if self.occupants.get(cell) else 0.2)
                    if any(c < 0 for c, _ in pic.tanks.values()):
                        worth += 0.2
                else:
                    worth = 1.0 + (
                        self.square_bonus(cell) if len(pic.tokens.get(cell, ())) == 1 else 0.3
                    )
                self._engineer_worth[cell] = worth
            # keep assets for other obstacles: a small charge per asset
            yield p * worth - V_INIT - 0.06 * a.assets, a

    # moves into cleared or empty squares (positioning)
    def potential(self, cell: int, uid: str) -> float:
        """How useful it is for a unit to stand in ``cell``: next to valuable targets, forward
        (the same for every unit)."""
        known = self._potential.get(cell)
        if known is None:
            known = self._potential[cell] = self._potential_of(cell)
        return known

    def _potential_of(self, cell: int) -> float:
        scen, pic = self.scen, self.pic
        best = 0.0
        for nb in scen.land_neighbours[cell]:
            toks = pic.tokens.get(nb)
            if not toks:
                continue
            w = 0.6 + self.square_bonus(nb) * 0.3
            if any(k == "sp" for k, _ in toks):
                w += 0.5
            best = max(best, w)
        depth = 4 - scen.xy[cell][1]  # beach row 0, bluff 1, ... southern row 4
        if cell in scen.beaches:
            depth = 0
        return best + 0.12 * depth

    def move_candidates(self) -> Iterable[tuple[float, Action]]:
        for a in self.kinds.get(Move, ()):
            assert isinstance(a, Move)
            cell = self.cell[a.square]
            if self.pic.tokens.get(cell):
                continue  # probes and mines are scored elsewhere
            here = self.pic.at[a.unit]
            gain = self.potential(cell, a.unit) - self.potential(here, a.unit)
            if self.pic.disrupted[a.unit]:
                gain *= 0.6
            yield gain * (0.6 + 0.1 * self.strength(a.unit)) - V_INIT, a

    def rally_candidates(self) -> Iterable[tuple[float, Action]]:
        for a in self.kinds.get(Rally, ()):
            if isinstance(a, Rally):
                spec = self.units[a.unit]
                cell = self.pic.at[a.unit]
                near = [n for n in self.scen.land_neighbours[cell] if self.uncleared(n)]
                worth = 0.12 * (spec.full - spec.reduced) * self.care
                if near:
                    worth += 0.2
                yield worth - V_INIT + 0.15, a

    def release_candidates(self) -> Iterable[tuple[float, Action]]:
        pic, scen = self.pic, self.scen
        # a release on turn t lands on turn t+2 and fights from turn t+3 (5.3.f, 6.3)
        fighting_turns = pic.turns - (pic.turn + 2)
        if fighting_turns < 3:
            return
        for a in self.kinds.get(Release, ()):
            assert isinstance(a, Release)
            entry = self.cell[a.square]
            beach = self._landing_beach(entry)
            div = self.units[a.unit].division
            score = 0.35 * min(fighting_turns, 6) - 1.0  # keeping it is worth 1 VP (2.3.f)
            if any(self.uncleared(sp) for sp in scen.arrows.get(beach, ())):
                score -= 0.4
            others = [self.units[u].division for u in self.occupants.get(beach, [])]
            if rules.mixed_landing(div, others):
                score -= 0.3
            score += 0.1 * self.potential(beach, a.unit)
            if scen.column[entry] >= max(scen.column[b] for b in scen.beaches):
                score -= 0.2  # the current may carry it off the map
            yield score - V_INIT + 0.5, a

    def _landing_beach(self, entry: int) -> int:
        cell = entry
        while cell in self.scen.channel:
            cell = self.scen.forward[cell]
        return cell

    # cards (9.0)
    def card_candidates(self) -> Iterable[tuple[float, Action]]:
        pic, scen = self.pic, self.scen
        for a in (*self.kinds.get(PlayCard, ()), *self.kinds.get(PlayCardAt, ())):
            assert isinstance(a, PlayCard | PlayCardAt)
            card = scen.cards[a.card]
            opt = card.options[a.option - 1]
            keep = max(
                (
                    self.option_worth(o.effect, o.amount, o.first)
                    for k, o in enumerate(card.options, start=1)
                    if k != a.option and (o.last is None or o.last > pic.turn)
                ),
                default=0.0,
            )
            if opt.last is None and opt.effect in ("initiative_now", "engineers_now"):
                keep = max(keep, 0.6 * self.option_worth(opt.effect, opt.amount))
            cell = self.cell[a.square] if isinstance(a, PlayCardAt) else -1
            eff = opt.effect
            if eff == "initiative":
                now = V_INIT * opt.amount * self.left
            elif eff == "initiative_now":
                now = V_INIT * opt.amount * (1.0 if pic.init <= 2 else 0.8)
            elif eff == "engineers":
                obstacles = sum(1 for g in pic.gap.values() if not g)
                now = 0.15 * opt.amount * self.left * (1.0 if obstacles else 0.3)
            elif eff == "engineers_now":
                obstacles = sum(1 for g in pic.gap.values() if not g)
                now = 0.3 * opt.amount if obstacles and pic.init >= 1 else 0.0
            elif eff == "tank":
                now = 1.5
            elif eff == "naval_fire":
                now = self.weakest_worth_top(cell, opt.amount)
            elif eff == "reveal":
                has_sp = any(k == "sp" for k, _ in pic.tokens.get(cell, ()))
                now = 0.9 if has_sp else 0.4
            elif eff == "clear_mines":
                now = 1.0 + (self.square_bonus(cell) if len(pic.tokens.get(cell, ())) == 1 else 0.2)
            elif eff == "gap":
                now = 1.0 + (0.5 if self.occupants.get(cell) else 0.1)
            elif eff == "rally":
                now = sum(
                    self.hit_cost(u) * 0.6 for u in self.occupants.get(cell, []) if pic.disrupted[u]
                )
            else:
                continue  # attack bonus: played inside an attack plan
            yield now - keep, a

    def weakest_worth_top(self, cell: int, most: int) -> float:
        toks = self.pic.tokens.get(cell, [])
        best = None
        for kind, face in toks:
            v = _value(face)
            if v is not None and v <= most and (best is None or v > best[1]):
                best = (kind, v)
        if best is None:
            return 0.0
        left = len(toks) - 1
        return (2.0 if best[0] == "sp" else 1.0) + (self.square_bonus(cell) if left == 0 else 0.0)


__all__ = ["HeuristicBot", "Picture", "read_view"]
