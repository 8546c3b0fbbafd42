"""What a player sees of an LnL Omaha game, and its snapshots (to_json / restore)."""

from __future__ import annotations

from typing import Any

from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View
from omaha.lnl.cards import ActionDeck
from omaha.lnl.core import ELIM, OFF, Core
from omaha.lnl.scenario import LnlScenario


class SnapshotMixin(Core):
    # ------------------------------------------------------------------------
    # Views and snapshots
    # ------------------------------------------------------------------------
    def view(self, player: str | None = None) -> View:
        """Everything is open in LnL Omaha (no hidden units); the deck's order is unknown."""
        pieces = []
        for unit in self.scen.units:
            u = unit.idx
            if self.loc[u] >= 0:
                where = self.label(self.loc[u])
            elif self.loc[u] == ELIM:
                where = "eliminated"
            else:
                where = "us_reinforcements" if unit.side == "US" else "german_reinforcements"
            t = unit.type
            vals = f"HE{self.he(u)} AP{self.ap(u)} R{t.range} CA{self.ca(u)} MF{unit.mf}"
            if unit.hard:
                vals += f" A{t.armor}"
            marks = []
            if self.steps[u] == 1:
                marks.append("reduced")
            if self.dis[u]:
                marks.append("disrupted")
            if self.fired[u]:
                marks.append("fired")
            pieces.append(Piece(unit.id, unit.side, unit.id, where, vals, tuple(marks)))
        marks_out = [
            Mark(self.label(c), f"{self.control[c] or 'nobody'} control", "control")
            for c in self.T.victory
        ]
        tracks = [
            ("Turn", f"{self.turn} of {self.scen.turns}"),
            ("NGFS", f"{6 * self.ngfs_left} HE"),
            ("Deck", f"{len(self.deck)} cards"),
            ("US hexes", str(len(self.held()))),
        ]
        for side, ready in sorted(self.bonus.items()):
            if ready:
                tracks.append((f"{side} +6 HE", "ready"))
        notes = []
        if self.last_card:
            c = self.scen.all_cards[self.last_card]
            notes.append(f"last event card {c.id}: {self.scen.events[c.event].name}")
        return View(
            game="lnl",
            title=self.scen.title,
            player=player,
            turn=self.turn_label,
            phase=self.phase,
            board=self.scen.board,
            pending=self.pending,
            pieces=tuple(pieces),
            marks=tuple(marks_out),
            tracks=tuple(tracks),
            notes=tuple(notes),
        )

    def _dump(self) -> dict[str, Any]:
        def where(u: int) -> str:
            c = self.loc[u]
            return self.label(c) if c >= 0 else ("off" if c == OFF else "elim")

        units = {
            self.uid(u): [
                where(u),
                self.steps[u],
                self.dis[u],
                self.fired[u],
                self.placed[u],
                self.moved[u],
                self.assaulted[u],
                self.ashore[u],
                self.entered[u],
            ]
            for u in range(len(self.scen.units))
        }
        data: dict[str, Any] = {
            "turn": self.turn,
            "side": self.side,
            "stage": self.stage,
            "units": units,
            "control": {self.label(c): s for c, s in enumerate(self.control) if s},
            "deck": self.deck.to_data(),
            "last_card": self.last_card,
            "ngfs_left": self.ngfs_left,
            "bonus": dict(self.bonus),
            "perms": sorted(self.perms),
            "fired_at": sorted([self.label(a), self.label(b), k] for a, b, k in self.fired_at),
            "due": {self.uid(u): t for u, t in sorted(self.due.items())},
            "events_done": sorted(self.events_done),
            "entered_by": {
                self.label(s): {self.label(c): v for c, v in sorted(m.items())}
                for s, m in sorted(self.entered_by.items())
            },
            "serial": self.serial,
            "place_queue": self._ids(self.place_queue),
            "place_mode": self.place_mode,
            "steps_lost": dict(self.steps_lost),
            "result": None
            if self.result is None
            else {
                "winner": self.result.winner,
                "level": self.result.level,
                "points": [list(p) for p in self.result.points],
                "detail": self.result.detail,
            },
        }
        data.update(self._dump_tasks())
        return data

    def _restore(self, data: dict[str, Any]) -> None:
        assert isinstance(self.scenario, LnlScenario)
        self.scen = self.scenario
        self.T = self.scen.tables
        self._init_fields()
        b = self.scen.board
        ix = self.scen.unit_index
        self.turn = data["turn"]
        self.side = data["side"]
        self.stage = data["stage"]
        for uid, rec in data["units"].items():
            u = ix[uid]
            w = rec[0]
            self.loc[u] = OFF if w == "off" else ELIM if w == "elim" else b.cell(w)
            (
                self.steps[u],
                self.dis[u],
                self.fired[u],
                self.placed[u],
                self.moved[u],
                self.assaulted[u],
                self.ashore[u],
                self.entered[u],
            ) = rec[1:]
        self.occ = {}
        for u, c in enumerate(self.loc):
            if c >= 0:
                self.occ.setdefault(c, []).append(u)
        self.control = [""] * len(b)
        for label, side in data["control"].items():
            self.control[b.cell(label)] = side

        self.deck = ActionDeck.from_data(data["deck"])
        self.last_card = data["last_card"]
        self.ngfs_left = data["ngfs_left"]
        self.bonus = dict(data["bonus"])
        self.perms = set(data["perms"])
        self.fired_at = {(b.cell(x), b.cell(y), k) for x, y, k in data["fired_at"]}
        self.due = {ix[k]: v for k, v in data["due"].items()}
        self.events_done = set(data["events_done"])
        self.entered_by = {
            b.cell(s): {b.cell(c): v for c, v in m.items()} for s, m in data["entered_by"].items()
        }
        self.serial = data["serial"]
        self.place_queue = [ix[x] for x in data["place_queue"]]
        self.place_mode = data["place_mode"]
        self.steps_lost = dict(data["steps_lost"])
        r = data["result"]
        self.result = (
            None
            if r is None
            else Outcome(
                r["winner"],
                r["level"],
                tuple((str(k), float(v)) for k, v in r["points"]),
                r["detail"],
            )
        )
        self._restore_tasks(data)
