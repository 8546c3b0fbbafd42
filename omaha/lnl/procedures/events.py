"""The action card drawn at the start of each American player turn, and its event
(LnL Omaha: Outline of Play, Action Cards).

Each card's event is described, with its provenance, in ``data/deck.toml``; the
effects the rules text does not define are reconstructions and say so there.
:data:`EVENTS` maps every event id to the function that carries it out.
"""

from __future__ import annotations

from collections.abc import Callable

from omaha.lnl.core import OFF, LnlCore, StrikeTask


def draw_event_card(core: LnlCore) -> None:
    """Draw the turn's action card (never a die, even in the d6 option) and apply its event."""
    value, card = core.card_value("event", event_draw=True)
    c = core.scen.all_cards[card]
    ev = core.scen.events[c.event]
    core.last_card = card
    core.note(
        "lnl.card",
        "LnL Omaha: Outline of Play (draw an action card)",
        dice=[value],
        player="US",
        card=card,
        value=value,
        event=ev.name,
    )
    EVENTS[c.event](core)


def _say(core: LnlCore, text: str, rule: str = "deck.toml (event effects)") -> None:
    core.note("lnl.event", rule, text=text)


def _event_units(core: LnlCore, event: str) -> list[int]:
    return [u for f in core.scen.forces if f.event == event for u in f.units]


def no_event(core: LnlCore) -> None:
    return


def at916(core: LnlCore) -> None:
    """The 916th AT enters this turn (reading R4 in READINGS.md: once only)."""
    units = [u for u in _event_units(core, "at916") if core.where[u] == OFF]
    if "at916" in core.events_done or not units:
        _say(core, "the 916th AT has already been called: no effect")
        return
    core.events_done.add("at916")
    for u in units:
        core.set_due(u, core.turn)
    _say(core, f"{', '.join(core.ids(units))} enter in this turn's German movement phase")


def panzers(core: LnlCore) -> None:
    core.permit("armor")
    _say(core, "German armor may move this turn (solitaire)")


def quick_reaction(core: LnlCore) -> None:
    core.permit("all")
    _say(core, "German units may move this turn (solitaire)")


def ger_plus6(core: LnlCore) -> None:
    """Reading R1 (READINGS.md): usable until the end of the game turn."""
    core.grant_bonus("German")
    _say(core, "the Germans may add 6 HE to one attack before the end of this turn")


def allies_plus6(core: LnlCore) -> None:
    core.grant_bonus("US")
    _say(core, "the Americans may add 6 HE to one attack before the end of this turn")


def _late_german(core: LnlCore) -> list[int]:
    """German units arriving by turn from the map edge that are not yet on it (2/916)."""
    return [
        u
        for f in core.scen.forces
        if f.when == "turn" and f.how == "edge"
        for u in f.units
        if core.u(u).side == "German" and core.where[u] == OFF and u in core.due
    ]


def early2916(core: LnlCore) -> None:
    """Reading R6 (READINGS.md): two turns earlier, not before the current one; once only."""
    units = [u for u in _late_german(core) if core.due[u] > core.turn]
    if "early2916" in core.events_done or not units:
        _say(core, "no effect (2/916 already on the map or already brought forward)")
        return
    core.events_done.add("early2916")
    for u in units:
        core.set_due(u, max(core.turn, core.due[u] - 2))
    _say(core, f"{', '.join(core.ids(units))} now enter on turn {core.due[units[0]]}")


def lost_paratroops(core: LnlCore) -> None:
    """Reconstructed: German reserves chasing paratroopers arrive a turn later."""
    units = _late_german(core)
    if not units:
        _say(core, "no effect (no German reinforcements still to come)")
        return
    for u in units:
        core.set_due(u, core.due[u] + 1)
    _say(
        core,
        f"German reserves chase paratroopers: {', '.join(core.ids(units))} now enter on "
        f"turn {core.due[units[0]]}",
    )


def german_air(core: LnlCore) -> None:
    if not core.units_of("US"):
        _say(core, "no American unit to strike: no effect")
        return
    core.strike = StrikeTask("German", 6, "german_air")


def allied_air(core: LnlCore) -> None:
    if not core.units_of("German"):
        _say(core, "no German unit to strike: no effect")
        return
    core.strike = StrikeTask("US", 12, "allied_air")


def airborne101(core: LnlCore) -> None:
    """The 101st Airborne is placed on row A at once (reading R4 in READINGS.md)."""
    units = [u for u in _event_units(core, "airborne101") if core.where[u] == OFF]
    if "airborne101" in core.events_done or not units:
        _say(core, "the 101st Airborne is already in play: no effect")
        return
    core.events_done.add("airborne101")
    core.place_queue = units
    core.place_mode = "row"


#: Every event id of the deck (``components.deck.EVENT_IDS``) and what it does.
EVENTS: dict[str, Callable[[LnlCore], None]] = {
    "none": no_event,
    "at916": at916,
    "panzers": panzers,
    "ger_plus6": ger_plus6,
    "early2916": early2916,
    "quick_reaction": quick_reaction,
    "german_air": german_air,
    "allies_plus6": allies_plus6,
    "airborne101": airborne101,
    "allied_air": allied_air,
    "lost_paratroops": lost_paratroops,
}
