"""LnL Omaha close assault, retreats and advances (LnL Omaha: Close Assault, CAT).

The attacker picks an adjacent enemy hex, adds unfired units of one company and
the support units stacked with them, and reads the odds of close assault factors
on the Close Assault Table, shifted by the TEC, a disrupted defender and
infantry against armor alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from omaha.errors import IllegalAction
from omaha.kernel.actions import Action
from omaha.lnl import rules
from omaha.lnl.actions import Add, Advance, Cancel, Resolve, Retreat, Stay
from omaha.lnl.core import AdvanceTask, Attack, Core, RetreatTask


class AssaultMixin(Core):
    # ------------------------------------------------------------------------
    # Close assault
    # ------------------------------------------------------------------------
    def assault_eligible(self, u: int, side: str) -> bool:
        """Unfired, undisrupted, not yet in an assault this phase, not landed this turn.

        LnL Omaha: Close Assault. Reading: a unit landed this turn may not assault
        (assaulting is closing with the enemy, which its landing turn forbids), and
        each unit takes part in one assault a phase; assaulting places no Fired marker.
        """
        if self.scen.units[u].side != side or self.loc[u] < 0:
            return False
        if self.fired[u] or self.dis[u] or self.assaulted[u] or self.ca(u) <= 0:
            return False
        return not self.placement_restricted(u)

    def can_assault_into(self, u: int, target: int) -> bool:
        """Adjacent, and across a crest only for Rangers (LnL Omaha: Close Assault)."""
        here = self.loc[u]
        if self.T.dist[here][target] != 1:
            return False
        return not self.T.crest(here, target) or self.scen.units[u].type.ranger

    def assault_numbers(self, attackers: list[int], target: int) -> tuple[int, int, int]:
        """(attack factors, defence factors, net shift) (LnL Omaha: CAT notes, TEC).

        Right one if the attackers include infantry and the defenders are armor
        with no infantry, right two if any defender is disrupted; left for the
        hex's terrain and fortification, and one if any attacker is across a crest.
        Reading: "armor without any infantry" means every defender is armor.
        """
        defs = self.scen.units
        defenders = self.at(target)
        att = sum(self.ca(x) for x in attackers)
        dfn = sum(self.ca(x) for x in defenders)
        shift = 0
        if any(defs[x].infantry for x in attackers) and all(defs[x].hard for x in defenders):
            shift += 1
        if any(self.dis[x] for x in defenders):
            shift += 2
        shift -= self.T.terrain_shift(target)
        if any(self.T.crest(self.loc[x], target) for x in attackers):
            shift -= rules.CREST_SHIFT
        return att, dfn, shift

    def assault_column(self, attackers: list[int], target: int) -> int | None:
        if not attackers or not self.at(target):
            return None
        att, dfn, shift = self.assault_numbers(attackers, target)
        return rules.cat_final(rules.cat_position(att, dfn), shift)

    def assault_candidates(self, side: str, target: int) -> list[int]:
        return [
            x
            for x in self.units_of(side)
            if self.assault_eligible(x, side) and self.can_assault_into(x, target)
        ]

    def best_assault(self, side: str, target: int) -> int | None:
        defs = self.scen.units
        cands = self.assault_candidates(side, target)
        best: int | None = None
        for company in sorted({defs[x].company for x in cands}):
            core_cells = {self.loc[x] for x in cands if defs[x].company == company}
            group = [
                x
                for x in cands
                if defs[x].company == company
                or (defs[x].type.support and self.loc[x] in core_cells)
            ]
            col = self.assault_column(group, target)
            if col is not None and (best is None or col > best):
                best = col
        return best

    def assault_options(self) -> Iterator[Action]:
        a = self.attack
        assert a is not None and a.mode == "assault"
        for x in self.assault_candidates(a.side, a.target):
            if x not in a.firers and self.assault_group_ok([*a.firers, x]):
                yield Add(self.uid(x))
        if self.assault_column(a.firers, a.target) is not None:
            yield Resolve()
        yield Cancel()

    def apply_assault_action(self, action: Action) -> None:
        a = self.attack
        assert a is not None
        if isinstance(action, Add):
            a.firers.append(self.unit_index(action.unit))
        elif isinstance(action, Cancel):
            self.attack = None
        elif isinstance(action, Resolve):
            self.resolve_assault(a)
        else:  # pragma: no cover
            raise IllegalAction(f"'{action}' is not part of a close assault")

    def resolve_assault(self, a: Attack) -> None:
        """Draw a card and apply the CAT result (LnL Omaha: Close Assault)."""
        att, dfn, shift = self.assault_numbers(a.firers, a.target)
        col = rules.cat_final(rules.cat_position(att, dfn), shift)
        assert col is not None
        value, card = self.card_value("assault")
        res = rules.cat_result(value, col)
        defenders = list(self.at(a.target))
        rule = "LnL Omaha: Close Assault"
        self.note(
            "lnl.assault",
            rule,
            dice=[value],
            player=a.side,
            attackers=self._ids(a.firers),
            target=self.label(a.target),
            defenders=self._ids(defenders),
            att=att,
            dfn=dfn,
            shift=f"{shift:+d}",
            column=rules.CAT_COLUMNS[col],
            card=card or "d6",
            value=value,
            result=res,
        )
        self.attack = None
        for x in a.firers:
            self.assaulted[x] = True
        dside = self.scen.units[defenders[0]].side
        if res == "DR":
            for x in defenders:
                self.lose_step(x, rule + " (DR)", "close assault")
            survivors = [x for x in defenders if self.loc[x] >= 0]
            if survivors:
                self.retreat = RetreatTask(dside, survivors)
            self.advance = AdvanceTask(a.side, list(a.firers), a.target)
        elif res == "DElim":
            for x in defenders:
                self.eliminate(x, rule + " (DElim)", "close assault")
            self.advance = AdvanceTask(a.side, list(a.firers), a.target)
        elif res == "AR":
            for x in a.firers:
                self.lose_step(x, rule + " (AR)", "close assault")
            survivors = [x for x in a.firers if self.loc[x] >= 0]
            if survivors:
                self.retreat = RetreatTask(a.side, survivors)
        elif res == "AElim":
            for x in a.firers:
                self.eliminate(x, rule + " (AElim)", "close assault")
        self.settle_retreat()
        self.settle_advance()

    # ------------------------------------------------------------------------
    # Retreat and advance
    # ------------------------------------------------------------------------
    def retreat_hexes(self, u: int) -> list[int]:
        """Where a unit may retreat one hex (LnL Omaha: Close Assault, DR and AR).

        Not into an enemy hex, not next to an undisrupted enemy unit, not where the
        terrain (a crest for a non-Ranger, the sea) bars it, not over-stacked.
        Reading: a unit with no movement factor (a gun battery) cannot retreat.
        Reading: the owner retreats the units one at a time, each to its own hex.
        """
        unit = self.scen.units[u]
        here = self.loc[u]
        if unit.mf <= 0:
            return []
        out = []
        for n in self.T.neighbours[here]:
            if not self.T.land[n] or self.enemy_at(n, unit.side):
                continue
            if self.T.crest(here, n) and not unit.type.ranger:
                continue
            if not self.room_for(n, [u]):
                continue
            if self.undisrupted_enemy_adjacent(n, unit.side):
                continue
            out.append(n)
        return out

    def settle_retreat(self) -> None:
        """Eliminate retreating units with nowhere to go; stop at a real choice."""
        r = self.retreat
        while r is not None and r.queue:
            u = r.queue[0]
            if self.loc[u] < 0:
                r.queue.pop(0)
                continue
            if self.retreat_hexes(u):
                return
            r.queue.pop(0)
            self.eliminate(u, "LnL Omaha: Close Assault (no retreat)", "could not retreat")
        self.retreat = None

    def retreat_options(self) -> Iterator[Action]:
        r = self.retreat
        assert r is not None
        u = r.queue[0]
        for n in self.retreat_hexes(u):
            yield Retreat(self.uid(u), self.label(n))

    def apply_retreat(self, action: Retreat) -> None:
        r = self.retreat
        assert r is not None
        u = r.queue.pop(0)
        start = self.loc[u]
        dest = self.cell_of(action.hex)
        self.put(u, dest)
        self.note(
            "lnl.retreat",
            "LnL Omaha: Close Assault",
            player=r.side,
            unit=self.uid(u),
            start=self.label(start),
            end=action.hex,
        )
        self.settle_retreat()
        self.settle_advance()

    def advance_units(self) -> list[int]:
        adv = self.advance
        if adv is None or self.enemy_at(adv.cell, adv.side):
            return []
        out = []
        for x in adv.units:
            if self.loc[x] < 0 or self.loc[x] == adv.cell or self.scen.units[x].mf <= 0:
                continue
            if not self.can_assault_into(x, adv.cell) or not self.T.land[adv.cell]:
                continue
            if self.room_for(adv.cell, [x]):
                out.append(x)
        return out

    def settle_advance(self) -> None:
        if self.advance is not None and self.retreat is None and not self.advance_units():
            self.advance = None

    def advance_options(self) -> Iterator[Action]:
        yield Stay()
        for x in self.advance_units():
            yield Advance(self.uid(x))

    def apply_advance(self, action: Action) -> None:
        """The attackers may occupy the hex they emptied (LnL Omaha: Close Assault).

        Reading: any of the attackers, one at a time, as stacking allows; not across
        a crest unless Rangers, and not units without a movement factor.
        """
        adv = self.advance
        assert adv is not None
        if isinstance(action, Stay):
            self.advance = None
            return
        assert isinstance(action, Advance)
        u = self.unit_index(action.unit)
        start = self.loc[u]
        self.put(u, adv.cell)
        self.note(
            "lnl.advance",
            "LnL Omaha: Close Assault",
            player=adv.side,
            unit=action.unit,
            start=self.label(start),
            end=self.label(adv.cell),
        )
        self.settle_advance()
