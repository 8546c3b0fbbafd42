"""LnL Omaha combat: fire, opportunity fire, NGFS, air strikes, close assault.

Fire (LnL Omaha: Fire Combat, Fire Results Table): an attack is put together
one decision at a time — a first firer, a target hex and whether the hard or the
soft units in it are attacked, more firers that may combine, NGFS packets and a
card's +6 HE bonus — then resolved with one action card. Opportunity fire
(LnL Omaha: Opportunity Fire) is the same, aimed at the units that just entered a
hex. Close assault (LnL Omaha: Close Assault, Close Assault Table) adds up close
assault factors and reads the odds.
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.lnl import rules
from omaha.lnl.actions import (
    Add,
    AddBonus,
    AddNgfs,
    Cancel,
    Lose,
    OpFire,
    Pass,
    Resolve,
    Strike,
    Target,
)
from omaha.lnl.core import (
    Attack,
    Core,
    LossTask,
    OppWindow,
    other,
)

KINDS = ("hard", "soft")
NGFS_PACKET = 6  #: LnL Omaha: Naval Gunfire Support (packets of 6 HE factors)
BONUS_HE = 6  #: the +6 HE action card events


class CombatMixin(Core):
    # ------------------------------------------------------------------------
    # Targets and factors
    # ------------------------------------------------------------------------
    def targets_in(self, side: str, cell: int, kind: str, movers: list[int] | None) -> list[int]:
        """Units of the other side that an attack on ``kind`` in ``cell`` hits.

        Reading: a result (Disrupted too) touches only the class attacked — the soft
        or the hard units — since the rules count them as different targets; an
        opportunity attack touches only the units that moved in (LnL Omaha:
        Opportunity Fire). A bombardment ("both") touches every unit.
        """
        pool = movers if movers is not None else self.at(cell)
        defs = self.scen.units
        if kind == "both":
            return [x for x in pool if defs[x].side != side]
        hard = kind == "hard"
        return [x for x in pool if defs[x].side != side and defs[x].hard == hard]

    def factor(self, u: int, kind: str) -> int:
        """HE against soft targets, AP against hard ones (LnL Omaha: Fire Combat)."""
        return self.ap(u) if kind == "hard" else self.he(u)

    def firer_reach(self, u: int, side: str, target: int, kind: str, mode: str) -> int:
        """0 if ``u`` may not join an attack on (target, kind), else 1 full / 2 halved."""
        defs = self.scen.units
        if defs[u].side != side or not self.can_fire(u) or self.factor(u, kind) <= 0:
            return 0
        if mode == "fire" and (self.loc[u], target, kind) in self.fired_at:
            # LnL Omaha: Fire Combat: units in one hex firing at one target combine.
            # Reading: once a unit of a hex has fired at a target (hex and class) in
            # this phase, no other unit of that hex may fire at it in another attack.
            return 0
        return self.reach(u, target)

    def numbers(self, a: Attack, movers: list[int] | None = None) -> tuple[int, int]:
        """(fire total, net column shift) of an attack (LnL Omaha: FRT notes, TEC).

        Right: one if any firer is adjacent, one for opportunity fire. Left: the
        target hex's terrain and fortification, one more if it is attacked across a
        crest by any attacker (see :meth:`rules.StaticTables.sheltered`). Reading:
        NGFS fires from the sea, so its packets attack a hex with a crest hexside
        towards the sea across that crest (``sea_sheltered``: the bunkers in the
        bluff face). For hard targets the highest armor rating among them is
        subtracted from the AP total.
        """
        t = a.target
        parts: list[tuple[int, bool]] = []
        adjacent = shelter = False
        dist = self.T.dist
        for f in a.firers:
            r = self.reach(f, t)
            parts.append((self.factor(f, a.kind), r == 2))
            here = self.loc[f]
            if dist[here][t] == 1:
                adjacent = True
            if self.T.sheltered(here, t):
                shelter = True
        if a.ngfs and self.T.sea_sheltered[t]:
            shelter = True
        if a.kind == "hard":
            targets = self.targets_in(a.side, t, "hard", movers)
            armor = max((self.scen.units[x].type.armor for x in targets), default=0)
            total = rules.fire_total(parts) - armor
        else:
            extra = NGFS_PACKET * a.ngfs + (BONUS_HE if a.bonus else 0)
            total = rules.fire_total([*parts, (extra, False)])
        shift = (1 if adjacent else 0) + (1 if a.mode == "opp" else 0)
        shift -= self.T.terrain_shift(t) + (rules.CREST_SHIFT if shelter else 0)
        return total, shift

    def column(self, a: Attack, movers: list[int] | None = None) -> int | None:
        if a.target < 0 or (not a.firers and not a.ngfs):
            return None
        if not self.targets_in(a.side, a.target, a.kind, movers):
            return None
        return rules.frt_final(*self.numbers(a, movers))

    def _ngfs_allowed(self, a: Attack) -> bool:
        """NGFS joins American high-explosive attacks of the fire phase only.

        LnL Omaha: Naval Gunfire Support. Reading: the packets add HE, so they join
        attacks on soft targets (or a bombardment), never an AP attack on armor;
        they need neither line of sight nor range.
        """
        return a.side == "US" and a.mode in ("fire", "bombard") and a.kind in ("soft", "both")

    def feasible_groups(
        self, side: str, target: int, kind: str, mode: str, movers: list[int] | None
    ) -> list[list[int]]:
        """The largest legal fire groups on (target, kind) that reach a legal column.

        For each company with units able to fire, each connected cluster of its
        hexes gives one group: its units there plus the support units stacked with
        them. Adding a firer never lowers the total, but one firing across the
        target's crest costs a column, so each cluster is also tried without such
        firers. Any unit of a listed group can lead an attack that is legal.
        """
        key = ("groups", side, target, kind, mode, tuple(movers) if movers is not None else None)
        hit = self.memo.get(key)
        if hit is not None:
            return list(hit)
        out = self._feasible_groups(side, target, kind, mode, movers)
        self.memo[key] = out
        return list(out)

    def _shooters(self, side: str) -> list[int]:
        key = ("shooters", side)
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = [x for x in self.units_of(side) if self.can_fire(x)]
        return list(hit)

    def _feasible_groups(
        self, side: str, target: int, kind: str, mode: str, movers: list[int] | None
    ) -> list[list[int]]:
        if not self.targets_in(side, target, kind, movers):
            return []
        defs = self.scen.units
        row = self.T.dist
        hard = kind == "hard"
        cands = []
        for x in self._shooters(side):
            t = defs[x].type
            here = self.loc[x]
            if row[here][target] > 2 * t.range:
                continue
            if (t.ap if hard else t.he)[0 if self.steps[x] >= 2 else 1] <= 0:
                continue
            if mode == "fire" and (here, target, kind) in self.fired_at:
                continue
            if self.reach(x, target):
                cands.append(x)
        if not cands:
            return []
        probe = Attack(side, mode, [], target, kind)
        if self._ngfs_allowed(probe):
            probe.ngfs = self.ngfs_left
        probe.bonus = self.bonus[side] and kind != "hard"
        out: list[list[int]] = []
        for company in sorted({defs[x].company for x in cands}):
            core_cells = {self.loc[x] for x in cands if defs[x].company == company}
            remaining = set(core_cells)
            while remaining:
                comp = self._component(min(remaining), core_cells)
                remaining -= comp
                group = [
                    x
                    for x in cands
                    if self.loc[x] in comp and (defs[x].company == company or defs[x].type.support)
                ]
                for variant in (
                    group,
                    [x for x in group if not self.T.sheltered(self.loc[x], target)],
                ):
                    if not variant:
                        continue
                    probe.firers = variant
                    if self.column(probe, movers) is not None:
                        out.append(variant)
                        break
        return out

    def _component(self, start: int, cells: set[int]) -> set[int]:
        seen = {start}
        todo = [start]
        while todo:
            c = todo.pop()
            for n in self.T.neighbours[c]:
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    def enemy_cells(self, side: str) -> list[int]:
        return sorted(c for c, xs in self.occ.items() if self.scen.units[xs[0]].side != side)

    def fire_plan(self, side: str) -> dict[tuple[int, str], list[list[int]]]:
        """Every (target hex, kind) of the fire phase with its feasible groups."""
        out = {}
        for c in self.enemy_cells(side):
            for kind in KINDS:
                groups = self.feasible_groups(side, c, kind, "fire", None)
                if groups:
                    out[(c, kind)] = groups
        return out

    def fire_leaders(self, side: str) -> list[int]:
        """Units that may open an attack in the fire phase."""
        lead: set[int] = set()
        for groups in self.fire_plan(side).values():
            for g in groups:
                lead.update(g)
        return sorted(lead)

    def fire_targets(self, u: int) -> list[tuple[int, str]]:
        """(hex, kind) that an attack led by ``u`` in the fire phase could make."""
        side = self.scen.units[u].side
        out = []
        for c in self.enemy_cells(side):
            if not self.reach(u, c):
                continue
            for kind in KINDS:
                if any(u in g for g in self.feasible_groups(side, c, kind, "fire", None)):
                    out.append((c, kind))
        return out

    def bombard_column(self, cell: int, packets: int, bonus: bool) -> int | None:
        """Column of an NGFS bombardment (no ground units) of ``packets`` x 6 HE."""
        a = Attack("US", "bombard", [], cell, "both", packets, bonus)
        return self.column(a)

    # ------------------------------------------------------------------------
    # Putting an attack together
    # ------------------------------------------------------------------------
    def attack_options(self) -> Iterator[Action]:
        a = self.attack
        assert a is not None
        movers = self.opp.movers if (a.mode == "opp" and self.opp is not None) else None
        if a.target < 0:
            first = a.firers[0]
            for c, kind in self.fire_targets(first):
                yield Target(self.label(c), kind)
            yield Cancel()
            return
        for x in self.units_of(a.side) if a.mode != "bombard" else ():
            if x in a.firers:
                continue
            if self.firer_reach(x, a.side, a.target, a.kind, a.mode) and self.may_combine(
                [*a.firers, x]
            ):
                yield Add(self.uid(x))
        if self._ngfs_allowed(a) and a.ngfs < self.ngfs_left:
            yield AddNgfs()
        if self.bonus[a.side] and not a.bonus and a.kind != "hard":
            yield AddBonus()
        if self.column(a, movers) is not None:
            yield Resolve()
        yield Cancel()

    def apply_attack_action(self, action: Action) -> None:
        a = self.attack
        assert a is not None
        if isinstance(action, Target):
            a.target = self.cell_of(action.hex)
            a.kind = action.kind
        elif isinstance(action, Add):
            a.firers.append(self.unit_index(action.unit))
        elif isinstance(action, AddNgfs):
            a.ngfs += 1
        elif isinstance(action, AddBonus):
            a.bonus = True
        elif isinstance(action, Cancel):
            self.attack = None
        elif isinstance(action, Resolve):
            self.resolve_fire(a)
        else:  # pragma: no cover - legality was checked
            raise IllegalAction(f"'{action}' is not part of putting an attack together")

    # ------------------------------------------------------------------------
    # Resolution
    # ------------------------------------------------------------------------
    def resolve_fire(self, a: Attack) -> None:
        """Draw a card and apply the FRT result (LnL Omaha: Fire Combat, FRT)."""
        movers = self.opp.movers if (a.mode == "opp" and self.opp is not None) else None
        total, shift = self.numbers(a, movers)
        col = rules.frt_final(total, shift)
        assert col is not None
        value, card = self.card_value("fire")
        res = rules.frt_result(value, col)
        targets = self.targets_in(a.side, a.target, a.kind, movers)
        for f in a.firers:
            self.fired[f] = True
            if a.mode == "fire":
                self.fired_at.add((self.loc[f], a.target, a.kind))
        if a.ngfs:
            self.ngfs_left -= a.ngfs
        if a.bonus:
            self.bonus[a.side] = False
        rule = {
            "fire": "LnL Omaha: Fire Combat",
            "opp": "LnL Omaha: Opportunity Fire",
            "bombard": "LnL Omaha: Naval Gunfire Support",
        }[a.mode]
        self.note(
            "lnl.fire",
            rule,
            dice=[value],
            player=a.side,
            how={"fire": "fire", "opp": "opportunity fire", "bombard": "NGFS bombardment"}[a.mode],
            firers=self._ids(a.firers)
            + ([f"NGFS x{a.ngfs * NGFS_PACKET}"] if a.ngfs else [])
            + (["+6 HE card"] if a.bonus else []),
            target=self.label(a.target),
            target_kind=a.kind,
            units=self._ids(targets),
            total=total,
            shift=f"{shift:+d}",
            column=rules.frt_label(col),
            card=card or "d6",
            value=value,
            result=_result_text(res),
        )
        self.attack = None
        self.apply_fire_result(a.side, targets, res, rule, converted=a.kind == "both")
        if a.mode == "opp" and self.opp is not None:
            self._stop_hit_movers(targets if res != "NE" else [])
            self.opp = None

    def apply_fire_result(
        self, side: str, targets: list[int], res: str, rule: str, *, converted: bool
    ) -> None:
        """Disrupted / Loss n / NE on the targeted units.

        A Disrupted result marks every target; one already disrupted loses a step
        instead. A Loss disrupts every target (never costing the extra step) and
        then takes n steps, chosen by the defender, each unit losing one before any
        loses two. With ``converted`` (a bombardment or air strike), armor takes a
        Loss as Disrupted (LnL Omaha: Naval Gunfire Support). Reading: that converted
        result is a true Disrupted, so armor already disrupted loses a step.
        """
        if res == "NE" or not targets:
            return
        defs = self.scen.units
        if converted:
            hard = [x for x in targets if defs[x].hard]
            soft = [x for x in targets if not defs[x].hard]
            for x in hard:
                self.disrupt(x, rule)
            targets = soft
        if res == "D":
            for x in targets:
                self.disrupt(x, rule)
            return
        n = rules.loss_steps(res)
        for x in targets:
            if self.loc[x] >= 0:
                self.dis[x] = True
        if targets:
            self.loss = LossTask(defs[targets[0]].side, list(targets), n, {})
            self.settle_losses()

    def settle_losses(self) -> None:
        """Take every step the defender has no choice about; stop at a real choice."""
        t = self.loss
        while t is not None and t.remaining > 0:
            alive = [x for x in t.units if self.loc[x] >= 0]
            if not alive:
                break
            low = min(t.hits.get(x, 0) for x in alive)
            cands = [x for x in alive if t.hits.get(x, 0) == low]
            if t.remaining < len(cands):
                return
            for x in cands:
                self._take_hit(t, x)
        self.loss = None

    def _take_hit(self, t: LossTask, x: int) -> None:
        t.hits[x] = t.hits.get(x, 0) + 1
        t.remaining -= 1
        self.lose_step(x, "LnL Omaha: Fire Combat (Loss)", "loss")

    def loss_options(self) -> Iterator[Action]:
        t = self.loss
        assert t is not None
        alive = [x for x in t.units if self.loc[x] >= 0]
        low = min(t.hits.get(x, 0) for x in alive)
        for x in alive:
            if t.hits.get(x, 0) == low:
                yield Lose(self.uid(x))

    def apply_lose(self, action: Lose) -> None:
        t = self.loss
        assert t is not None
        self._take_hit(t, self.unit_index(action.unit))
        self.settle_losses()

    # ------------------------------------------------------------------------
    # Opportunity fire
    # ------------------------------------------------------------------------
    def opp_options(self) -> Iterator[Action]:
        o = self.opp
        assert o is not None
        kinds = sorted({("hard" if self.scen.units[x].hard else "soft") for x in o.movers})
        yield Pass()
        for kind in kinds:
            lead: set[int] = set()
            for g in self.feasible_groups(o.side, o.cell, kind, "opp", o.movers):
                lead.update(g)
            for f in sorted(lead):
                yield OpFire(self.uid(f), kind)

    def opp_possible(self, side: str, cell: int, movers: list[int]) -> bool:
        kinds = {("hard" if self.scen.units[x].hard else "soft") for x in movers}
        return any(self.feasible_groups(side, cell, kind, "opp", movers) for kind in sorted(kinds))

    def apply_opp(self, action: Action) -> None:
        o = self.opp
        assert o is not None
        if isinstance(action, Pass):
            self.opp = None
            return
        assert isinstance(action, OpFire)
        first = self.unit_index(action.unit)
        self.attack = Attack(o.side, "opp", [first], o.cell, action.kind)

    def _stop_hit_movers(self, hit: list[int]) -> None:
        """Movers hit by a Disrupted or Loss result stop where they are.

        Reading: movers of the class not attacked (or not hit) may move on.
        """
        g = self.group
        if g is None:
            return
        for x in hit:
            if x in g.units:
                g.units.remove(x)
                self.moved[x] = True
        if not g.units:
            self.group = None

    def open_opp_window(self) -> None:
        g = self.group
        if g is None:
            return
        movers = [x for x in g.units if self.loc[x] == g.cell]
        side = other(self.side)
        if movers and self.opp_possible(side, g.cell, movers):
            self.opp = OppWindow(side, g.cell, movers)

    # ------------------------------------------------------------------------
    # Air strikes (reconstructed card events)
    # ------------------------------------------------------------------------
    def strike_options(self) -> Iterator[Action]:
        s = self.strike
        assert s is not None
        yield Pass()
        for c in sorted(self.occ):
            if self.enemy_at(c, s.side) and self._strike_column(c, s.he) is not None:
                yield Strike(self.label(c))

    def _strike_column(self, cell: int, he: int) -> int | None:
        return rules.frt_final(he, -self.T.terrain_shift(cell))

    def apply_strike(self, action: Action) -> None:
        """Resolve an air strike like an NGFS bombardment (deck.toml, events)."""
        s = self.strike
        assert s is not None
        self.strike = None
        if isinstance(action, Pass):
            self.note("lnl.strike_pass", "", player=s.side)
            return
        assert isinstance(action, Strike)
        cell = self.cell_of(action.hex)
        col = self._strike_column(cell, s.he)
        assert col is not None
        value, card = self.card_value("fire")
        res = rules.frt_result(value, col)
        targets = self.targets_in(s.side, cell, "both", None)
        self.note(
            "lnl.strike",
            "reconstructed event (deck.toml)",
            dice=[value],
            player=s.side,
            event=self.scen.events[s.event].name,
            target=action.hex,
            he=s.he,
            column=rules.frt_label(col),
            card=card or "d6",
            result=_result_text(res),
        )
        self.apply_fire_result(s.side, targets, res, "reconstructed air strike", converted=True)


def _result_text(res: str) -> str:
    if res == "D":
        return "Disrupted"
    if res.startswith("L"):
        return f"Loss {res[1:]}"
    return "no effect"
