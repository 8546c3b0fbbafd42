"""The LnL Omaha game object: metadata, scenarios, bots and metrics."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from omaha.errors import DataFileError, ScenarioError
from omaha.kernel import metrics as common
from omaha.kernel import search
from omaha.kernel.actions import Action
from omaha.kernel.metrics import Metric
from omaha.kernel.observation import ObservationLayout
from omaha.kernel.protocol import BotFactory, Game, Limits, State
from omaha.lnl import bots
from omaha.lnl import view as views
from omaha.lnl.actions import ACTIONS
from omaha.lnl.core import MAX_CANCELS, SIDES, TURN_HOURS, LnlCore
from omaha.lnl.observation import LnlObservation
from omaha.lnl.procedures.fire import KINDS
from omaha.lnl.scenario import SHIPPED, LnlScenario, load_scenario, split_ref, validate_scenario
from omaha.lnl.state import LnlState


class LnlGame(Game[LnlScenario]):
    """Omaha: The Battle for the Beach (Lock 'n Load / Armchair General)."""

    name = "lnl"
    #: Graded by victory level (LnL Omaha: Winning): a significant US victory +1, a
    #: minor one +0.5 (the German the opposite), a draw 0, a German victory -1.
    utility_range = (-1.0, 1.0)
    title = "Omaha: The Battle for the Beach (LnL)"
    players = ("US", "German")
    #: Runs of each scenario in the default comparison: an equal share of about a minute
    #: on two cores (process time per run measured 2026-12-02 on a shared machine;
    #: docs/comparison.md), at least 10 (``omaha compare --runs N`` asks for more)
    comparison_runs: ClassVar[Mapping[str, int]] = {"beach": 40, "vierville": 150}
    metrics = (
        common.US_WIN,
        common.OBJECTIVES_HELD,
        common.US_LOSSES,
        common.GERMAN_LOSSES,
        common.TURNS_PLAYED,
        common.FIRST_EXIT_HOURS,
        Metric(
            "first_wave_ashore",
            "fraction",
            "share of the set-up landing force's steps that reached the beach alive "
            "(steps held when each unit first entered a beach or land hex; NaN when a "
            "scenario has no landing)",
        ),
        Metric(
            "dd_tanks_ashore",
            "fraction",
            "share of the landed 743rd DD tank platoons that reached the beach "
            "(NaN when a scenario lands none)",
        ),
        Metric(
            "exits_opened",
            "exits",
            "draws (D-1 Vierville, D-3 Les Moulins) whose hexes the US controls at the end",
        ),
        Metric("victory_hexes_held", "hexes", "victory hexes the US controls at the end"),
        Metric("us_points", "points", "US victory points (hexes held, or the scenario's points)"),
        Metric("fortifications_taken", "hexes", "fortification hexes the US controls at the end"),
        Metric("us_steps_lost", "steps", "US steps lost"),
        Metric("german_steps_lost", "steps", "German steps lost"),
        Metric("at916_entered", "0/1", "1 if the 916th AT came onto the map"),
    )

    def not_modelled(self, scenario: str | Path | None = None) -> Mapping[str, str]:
        """The landing's and the draws' metrics where no force lands
        (:func:`omaha.lnl.views.not_modelled`)."""
        return views.not_modelled(self.load_scenario(scenario))

    def end_hours(self, scenario: str | Path | None = None) -> float | None:
        """The end of the last game turn on reading R35's clock; ``None`` for a scenario
        in which no force lands (Vierville: 7 June, not on that clock)."""
        scen = self.load_scenario(scenario)
        return None if views.not_modelled(scen) else scen.turns * TURN_HOURS

    def action_classes(self) -> Iterable[type[Action]]:
        return ACTIONS

    def scenarios(self) -> tuple[str, ...]:
        return SHIPPED

    def _load_scenario(self, ref: str) -> LnlScenario:
        return load_scenario(ref)

    def validate_file(self, path: str | Path) -> list[DataFileError]:
        """Every problem of a scenario file and of the components it names, at once:
        each file against its schema (``scenario.SCHEMAS``), then what only building
        the scenario finds (hexes on the map, counters of the counters file)."""
        return list(validate_scenario(str(path)))

    def _load_embedded(self, main: Path, ref: str) -> LnlScenario:
        """A record's scenario: the options (``+turn11``) ride on the reference, not in
        the embedded files, so they are put back on the scenario the files rebuild."""
        _, opts = split_ref(ref)
        return self._load_checked("+".join((str(main), *opts)))

    def _scenario_key(self, ref: str) -> str:
        """A file's resolved path with the options in their one order; a shipped id with
        options as it is."""
        try:
            base, opts = split_ref(ref)
        except ScenarioError:
            return ref  # loading it says what is wrong
        kept = base if base in SHIPPED else super()._scenario_key(base)
        return "+".join((kept, *opts))

    def _state_class(self) -> type[State[LnlScenario]]:
        return LnlState

    #: The search agent's default budget (a whole game within the issue's bounds,
    #: docs/bots.md): iterations a searched decision, rollout depth in decisions.
    search_iterations = 24
    search_depth = 24

    def evaluate(self, state: State[LnlScenario], player: str) -> float:
        """The position for ``player`` in [0, 1] (view.evaluate)."""
        assert isinstance(state, LnlCore)
        return views.evaluate(state, player)

    def worth_search(self, state: State[LnlScenario]) -> bool:
        """Whether the pending decision is searched (view.worth_search)."""
        assert isinstance(state, LnlCore)
        return views.worth_search(state, state.pending.kind) if state.pending else False

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        return {
            "random": bots.LnlRandomBot,
            "solitaire": bots.SolitaireGerman,
            "heuristic": bots.Heuristic,
            "search": search.factory(self),
        }

    def bot_sides(self, bot: str) -> tuple[str, ...]:
        """The solitaire guidelines play the German side; the others play both."""
        if bot == "solitaire":
            return ("German",)
        return super().bot_sides(bot)

    def lineup(self, bot: str) -> dict[str, str]:
        """``solitaire`` pairs the heuristic US with the solitaire German (the solitaire
        game); ``heuristic`` and ``random`` play both sides."""
        if bot == "solitaire":
            return {"US": "heuristic", "German": "solitaire"}
        return super().lineup(bot)

    # -- the agent surface (issue 15) ------------------------------------------
    def field_domains(self, scenario: LnlScenario) -> Mapping[str, Sequence[Any]]:
        return field_domains(scenario)

    def limits(self, scenario: str | Path | None = None) -> Limits:
        return limits(self.load_scenario(scenario))

    def observation_layout(self, scenario: str | Path | None = None) -> ObservationLayout:
        return LnlObservation.of(self.load_scenario(scenario)).layout


def field_domains(scen: LnlScenario) -> dict[str, tuple[Any, ...]]:
    """The values every action field may take, in scenario and board order.

    Units are the scenario's counters; hexes its land hexes (units never stand in
    the ocean: reading R12); ``place`` names the units that set up, land or are put
    on a row, ``enter`` those entering from a map edge and their entry hexes
    (LnL Omaha: Setting up the Game); a target is hard or soft (LnL Omaha: Fire
    Combat). ``Deploy`` (a whole set-up, a tuple) is not numbered: its numbered
    route is ``place`` one unit at a time, which reaches every set-up a ``deploy``
    can give (READINGS.md, "Agents").
    """
    labels = scen.board.labels
    edge = [f for f in scen.forces if f.how == "edge"]
    entered = {u for f in edge for u in f.units}
    entry_cells = sorted({c for f in edge for c in f.cells})
    return {
        "unit": tuple(u.id for u in scen.units),
        "hex": tuple(labels[c] for c in scen.tables.land_cells),
        "kind": KINDS,
        "Place.unit": tuple(u.id for u in scen.units if u.idx not in entered),
        "Enter.unit": tuple(u.id for u in scen.units if u.idx in entered),
        "Enter.hex": tuple(labels[c] for c in entry_cells),
    }


def limits(scen: LnlScenario) -> Limits:
    """Real bounds of a game of ``scen``, counted from the rules (LnL Omaha: Outline
    of Play) and the scenario's counters; see READINGS.md, "Agents".

    Every attack marks its firers Fired and a unit fires once a phase; a unit moves
    once a movement phase and every hex it enters costs at least 1 of its movement
    factor; a unit takes part in one close assault a phase (reading R26); a step
    loss removes a step; each unit is placed or enters once; NGFS packets are spent
    once a turn; at most :data:`MAX_CANCELS` attacks are cancelled a phase (R34).
    """
    turns, packets, hexes = scen.turns, scen.ngfs_packets, len(scen.tables.land_cells)
    units = len(scen.units)
    steps = sum(u.type.steps for u in scen.units)
    most_mf = max((u.mf for u in scen.units), default=0)
    engineers = {s: sum(1 for u in scen.units if u.side == s and u.type.engineer) for s in SIDES}
    edge_entries = sum(len(f.units) * len(f.cells) for f in scen.forces if f.how == "edge")

    def player_turn(side: str) -> int:
        n = sum(1 for u in scen.units if u.side == side)
        o = units - n
        ngfs = packets if side == "US" else 0
        # fire: open, target, resolve an attack (at most one per leader, or per
        # packet for a bombardment); each unit added once; packets; the +6 HE card;
        # cancelled attacks (opened, targeted, every unit and packet added, cancel)
        fire = 3 * (n + ngfs) + n + ngfs + 1 + MAX_CANCELS * (n + ngfs + 4) + 1
        # movement: move, with, drop, stop per unit; steps within the factor; one
        # opportunity window per hex entered (pass, or open, resolve and the other
        # side's units added once), cancelled opportunity attacks; end phase
        windows = n * (most_mf + 1)
        move = 4 * n + n * most_mf + 3 * windows + o + 1 + MAX_CANCELS * (o + 3) + 1
        # close assault: open and resolve (one per attacker), each attacker added
        # once, retreats (the defenders of a hex: two counters and engineers, and
        # the attackers after an AR), advances or stay; cancelled assaults; end phase
        stack = 2 + engineers["German" if side == "US" else "US"]
        assault = 3 * n + n * stack + n + 2 * n + MAX_CANCELS * (n + 2) + 1
        return fire + move + assault

    per_turn = 1 + sum(player_turn(s) for s in SIDES)  # 1: an air strike or pass
    # each unit placed (set-up, landing, row) or entered once; each step lost once
    decisions = turns * per_turn + units + units + steps
    legal = max(
        hexes + 1 + units,  # fire phase: a leader per unit, bombard a hex, end phase
        edge_entries + units + 1,  # movement phase: enter (unit, entry hex), move, end
        hexes + 1,  # close assault a hex or end; an air strike on a hex or pass; place
        2 * hexes + 1,  # an attack's target (hex and kind) or cancel
        units + 4,  # add a firer, NGFS, the +6 HE card, resolve, cancel
        2 * units + 1,  # opportunity fire (unit and kind) or pass
        2 * units + 1 + 6,  # a moving stack: stop, with, drop, a step to a neighbour
        units + 1,  # a step loss (a unit hit), advance (an attacker) or stay
    )
    return Limits(
        max_decisions=decisions,
        max_legal_actions=legal,
        # an action card drawn from what is left of the deck, or a d6 (option d6)
        max_chance_outcomes=max(6, len(scen.cards)),
    )
