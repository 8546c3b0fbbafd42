"""Fire support the landing rules launch: LCT(R) rockets and their smoke (2.2),
US airpower and A-20 strikes (2.10). The attacks go to the game's fire resolver
(:mod:`omaha.tcs.fire`); the point-target bomb of 2.10a is resolved here."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.hexes import Hex
from omaha.kernel.hexes import distance as hex_distance
from omaha.tcs.actions import (
    AirLoadout,
    BombHex,
    BombUnit,
    EndSmoke,
    HoldStrike,
    SmokeCheck,
    Strike,
)
from omaha.tcs.base import TcsBase
from omaha.tcs.fire import Attack, FireResolver, UnresolvedFire
from omaha.tcs.geo import COMPASS
from omaha.tcs.rules import (
    AirAttack,
    air_attacks,
    aircraft_available,
    bomb_hits,
    designator,
    german_uses_sortie,
    miller_rounds,
    smoke_left,
)


class SupportSteps(TcsBase):
    def _step_air(self) -> bool:
        """TCS Omaha 2.10: on a clear turn the US configures the A-20s, then rolls for them;
        if they come, the German rolls to use the sortie (+1 on 6 June)."""
        if self.scen.weather != "clear":
            return True
        if not self.started:
            self.started = True
            self.sd = {}
            self.air_attacks, self.air_controller, self.air_loadout = [], None, []
        if "loadout" not in self.sd:
            return self.set_wait("air", "US", "A-20s: how many of the two are bomb laden?")
        t = self.scen.tables
        loadout = list(self.sd["loadout"])
        d = self.dice.two_d6()
        if not aircraft_available(d[0] + d[1], t):
            self.note("tcs.air.none", "2.10", dice=d, player="US", loadout=loadout)
            return True
        g = self.dice.two_d6()
        german = german_uses_sortie(g[0] + g[1], self.turn_has("june6"), t)
        self.air_controller = "German" if german else "US"
        self.air_loadout = loadout
        self.air_attacks = [
            {"aircraft": a.aircraft, "kind": a.kind, "firepower": a.firepower, "hit": a.hit_roll}
            for a in air_attacks(loadout, t)
        ]
        self.note(
            "tcs.air.arrive",
            "2.10",
            dice=(*d, *g),
            player="US",
            loadout=loadout,
            controller=self.air_controller,
            bonus=1 if self.turn_has("june6") else 0,
        )
        return True

    def _apply_air(self, action: AirLoadout) -> None:
        n = action.bombers
        self.sd["loadout"] = ["bomb"] * n + ["gunship"] * (self.scen.tables.air_aircraft - n)

    def _step_lctr(self) -> bool:
        """TCS Omaha 2.2: the LCT(R)s fire on the first game turn only.

        Each: a designator round (direction and distance dice, distance x3) from
        its target, never adjusted; Area C is every hex within 10 of the
        designator hex; the Miller table (d66) gives the rounds impacting each
        hex, each round a 155mm HE attack (resolved by the fire resolver). Reading:
        a hex is rolled for only when it holds an enemy unit (elsewhere a round
        hits nothing); each hex hit uses one of the fire's 10 smoke markers, the
        rest go to the US smoke checks.
        """
        if self.turn != 0 or not self.lctr_targets or self.stats.get("lctr_fired"):
            return True
        self.stats["lctr_fired"] = 1
        t, board = self.scen.tables, self.scen.board
        for n, target in enumerate(self.lctr_targets, start=1):
            d1, d2 = self.dice.d6(), self.dice.d6()
            direction, dist = designator(d1, d2, t.lctr_multiplier, t)
            h = board.hex(target)
            dq, dr = COMPASS[direction]
            impact = Hex(h.q + dq * dist, h.r + dr * dist)
            area = [
                c
                for c in range(len(board))
                if hex_distance(board.hex(c).q, board.hex(c).r, impact.q, impact.r)
                <= t.lctr_area_radius
            ]
            at = board.at(impact)
            self.note(
                "tcs.lctr.designator",
                "2.2a",
                dice=(d1, d2),
                player="US",
                fire=n,
                target=self.label(target),
                direction=direction,
                distance=dist,
                impact=self.label(at) if at is not None else "off the map",
                hexes=len(area),
            )
            hit = 0
            rolls: list[int] = []
            hexes: list[str] = []
            verdicts: list[str] = []
            for c in area:
                if c not in self.german_cells():
                    continue
                tens, units = self.dice.d6(), self.dice.d6()
                rolls.extend((tens, units))
                rounds = miller_rounds(10 * tens + units, t)
                hexes.append(f"{self.label(c)} {rounds}")
                if rounds:
                    hit += 1
                    if hit <= t.lctr_smoke:
                        self.smoke.add(c)
                    attack = Attack(f"LCT(R) {n}", t.lctr_weapon, 0, self.label(c), rounds, "2.2b")
                    verdicts.append(self._resolve(attack))
            self.note(
                "tcs.lctr.rounds",
                "2.2b",
                dice=rolls,
                player="US",
                fire=n,
                weapon=t.lctr_weapon,
                hexes=hexes or ["no enemy in Area C"],
                result="; ".join(sorted(set(verdicts))) or "nothing hit",
            )
            left = smoke_left(t.lctr_smoke, hit)
            self.smoke_sessions.append(
                {"fire": n, "area": [self.label(c) for c in area], "left": left, "checked": []}
            )
        return True

    def _resolve(self, attack: Attack) -> str:
        """Hand an attack to the game's fire resolver (see :mod:`omaha.tcs.fire`)."""
        resolver: FireResolver = getattr(self.game, "resolver", None) or UnresolvedFire()
        return resolver.resolve(self, attack).text  # type: ignore[arg-type]

    def _step_smoke(self) -> bool:
        """TCS Omaha 2.2a: the US checks hexes of Area C for smoke with the Miller roll."""
        while self.smoke_sessions:
            s = self.smoke_sessions[0]
            if s["left"] <= 0 or not self._smoke_candidates():
                self.note("tcs.lctr.smoke", "2.2a", player="US", fire=s["fire"], unused=s["left"])
                self.smoke_sessions.pop(0)
                continue
            return self.set_wait(
                "smoke",
                "US",
                f"LCT(R) {s['fire']}: check a hex of Area C for smoke ({s['left']} markers left)",
            )
        return True

    def _smoke_candidates(self) -> list[str]:
        s = self.smoke_sessions[0]
        done = set(s["checked"])
        return [x for x in s["area"] if x not in done and self.cell(x) not in self.smoke]

    def _legal_smoke(self) -> Iterator[Action]:
        yield EndSmoke()
        for x in self._smoke_candidates():
            yield SmokeCheck.of(x)

    def _apply_smoke(self, action: Action) -> None:
        s = self.smoke_sessions[0]
        if isinstance(action, EndSmoke):
            s["left"] = 0
            return
        assert isinstance(action, SmokeCheck)
        tens, units = self.dice.d6(), self.dice.d6()
        rounds = miller_rounds(10 * tens + units, self.scen.tables)
        s["checked"].append(action.hex)
        if rounds:
            self.smoke.add(self.cell(action.hex))
            s["left"] -= 1
        self.note(
            "tcs.lctr.check",
            "2.2a",
            dice=(tens, units),
            player="US",
            fire=s["fire"],
            hex=action.hex,
            result="smoke" if rounds else "no smoke",
        )

    def _step_air_strikes(self) -> bool:
        if not self.air_attacks:
            return True
        if not any(True for _ in self._legal_strike()):
            self.note(
                "tcs.air.idle",
                "2.10a",
                player=self.air_controller or "US",
                attacks=len(self.air_attacks),
            )
            self.air_attacks, self.air_controller = [], None
            return True
        a = self.air_attacks[0]
        who = self.air_controller or "US"
        return self.set_wait(
            "strike",
            who,
            f"A-20 {a['aircraft']}: {a['kind']} (firepower {a['firepower']}) "
            f"- choose a target ({len(self.air_attacks)} attacks left)",
        )

    def _strike_targets(self) -> tuple[list[int], list[str]]:
        """Hexes and point-target units the controller of the sortie may attack."""
        if self.air_controller == "German":
            occ = self.occupied_us()
            cells = sorted(occ)
            units = [
                self.uid(i)
                for c in cells
                for i in occ[c]
                if self.scen.oob.units[i].type.target == "point"
            ]
            return cells, units
        cells = sorted(self.german_cells())
        return cells, [f"RP-{self.label(c)}" for c in self.pits]  # pill boxes: never (3.3d)

    def _legal_strike(self) -> Iterator[Action]:
        cells, units = self._strike_targets()
        if not cells:
            return
        a = self.air_attacks[0]
        yield HoldStrike()
        for c in cells:
            yield Strike.of(self.label(c)) if a["kind"] == "strafe" else BombHex.of(self.label(c))
        if a["kind"] == "bomb":
            yield from (BombUnit.of(u) for u in units)

    def _apply_strike(self, action: Action) -> None:
        a = self.air_attacks.pop(0)
        who = self.air_controller or "US"
        src = f"A-20 {a['aircraft']} ({who})"
        if isinstance(action, HoldStrike):
            self.note("tcs.air.hold", "2.10a", player=who, source=src, attack=a["kind"])
        elif isinstance(action, Strike | BombHex):
            verdict = self._resolve(Attack(src, a["kind"], a["firepower"], action.hex, 1, "2.10a"))
            self.note(
                "tcs.air.attack",
                "2.10a",
                player=who,
                source=src,
                attack=a["kind"],
                firepower=a["firepower"],
                hex=action.hex,
                result=verdict,
            )
        elif isinstance(action, BombUnit):
            d = self.dice.two_d6()
            hit = bomb_hits(d[0] + d[1], AirAttack(a["aircraft"], "bomb", a["firepower"], a["hit"]))
            target = action.unit
            if hit:
                if target.startswith("RP-"):
                    self.pits.remove(self.cell(target[3:]))
                else:
                    self._lose_unit(self.unit_index(target), "tcs.air.kill", "2.10a")
            self.note(
                "tcs.air.bomb",
                "2.10a",
                dice=d,
                player=who,
                source=src,
                target=target,
                result="destroyed" if hit else "missed",
            )
        if not self.air_attacks:
            self.air_controller = None
