"""The events of the action card drawn at the start of each American player turn.

Each card's event is described, with its provenance, in ``data/deck.toml``; the
effects the rules text does not define are reconstructions and say so there.
"""

from __future__ import annotations

from omaha.lnl.core import OFF, Core, StrikeTask


class EventMixin(Core):
    # ------------------------------------------------------------------------
    # Card events (deck.toml gives each effect and its provenance)
    # ------------------------------------------------------------------------
    def _event_card(self) -> None:
        value, card = self.card_value("event", event_draw=True)
        c = self.scen.all_cards[card]
        ev = self.scen.events[c.event]
        self.last_card = card
        self.note(
            "lnl.card",
            "LnL Omaha: Outline of Play (draw an action card)",
            dice=[value],
            player="US",
            card=card,
            value=value,
            event=ev.name,
        )
        getattr(self, f"_event_{c.event}")()

    def _say(self, text: str, rule: str = "deck.toml (event effects)") -> None:
        self.note("lnl.event", rule, text=text)

    def _event_none(self) -> None:
        return

    def _event_units(self, event: str) -> list[int]:
        return [u for f in self.scen.forces if f.event == event for u in f.units]

    def _event_at916(self) -> None:
        units = [u for u in self._event_units("at916") if self.loc[u] == OFF]
        if "at916" in self.events_done or not units:
            self._say("the 916th AT has already been called: no effect")
            return
        self.events_done.add("at916")
        for u in units:
            self.due[u] = self.turn
        self._say(f"{', '.join(self._ids(units))} enter in this turn's German movement phase")

    def _event_panzers(self) -> None:
        self.perms.add("armor")
        self._say("German armor may move this turn (solitaire)")

    def _event_quick_reaction(self) -> None:
        self.perms.add("all")
        self._say("German units may move this turn (solitaire)")

    def _event_ger_plus6(self) -> None:
        """Reading: usable until the end of the game turn, German player turn included."""
        self.bonus["German"] = True
        self._say("the Germans may add 6 HE to one attack before the end of this turn")

    def _event_allies_plus6(self) -> None:
        self.bonus["US"] = True
        self._say("the Americans may add 6 HE to one attack before the end of this turn")

    def _late_german(self) -> list[int]:
        """German units arriving by turn from the map edge that are not yet on it (2/916)."""
        return [
            u
            for f in self.scen.forces
            if f.when == "turn" and f.how == "edge"
            for u in f.units
            if self.u(u).side == "German" and self.loc[u] == OFF and u in self.due
        ]

    def _event_early2916(self) -> None:
        """Reading: turn 5 becomes turn 3, or the current turn if that is later; once only."""
        units = [u for u in self._late_german() if self.due[u] > self.turn]
        if "early2916" in self.events_done or not units:
            self._say("no effect (2/916 already on the map or already brought forward)")
            return
        self.events_done.add("early2916")
        for u in units:
            self.due[u] = max(self.turn, self.due[u] - 2)
        self._say(f"{', '.join(self._ids(units))} now enter on turn {self.due[units[0]]}")

    def _event_lost_paratroops(self) -> None:
        """Reconstructed: German reserves chasing paratroopers arrive a turn later."""
        units = self._late_german()
        if not units:
            self._say("no effect (no German reinforcements still to come)")
            return
        for u in units:
            self.due[u] += 1
        self._say(
            f"German reserves chase paratroopers: {', '.join(self._ids(units))} now enter on "
            f"turn {self.due[units[0]]}"
        )

    def _event_german_air(self) -> None:
        if not self.units_of("US"):
            self._say("no American unit to strike: no effect")
            return
        self.strike = StrikeTask("German", 6, "german_air")

    def _event_allied_air(self) -> None:
        if not self.units_of("German"):
            self._say("no German unit to strike: no effect")
            return
        self.strike = StrikeTask("US", 12, "allied_air")

    def _event_airborne101(self) -> None:
        units = [u for u in self._event_units("airborne101") if self.loc[u] == OFF]
        if "airborne101" in self.events_done or not units:
            self._say("the 101st Airborne is already in play: no effect")
            return
        self.events_done.add("airborne101")
        self.place_queue = units
        self.place_mode = "row"
