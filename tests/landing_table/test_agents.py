"""The agent surface of D-Day at Omaha Beach (issue 15): the action numbering's
domains, the bounds of a game, the observation and the graded returns."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from omaha.kernel.observation import Observation
from omaha.landing_table.actions import Drift, Follow, Land, Move
from omaha.landing_table.core import ASHORE, SCHEDULED, LandingTableCore, Phase
from omaha.landing_table.observation import UNIT_FIELDS, LandingTableObservation
from omaha.landing_table.state import LandingTableState
from omaha.landing_table.view import level_returns

from .helpers import GAME, fresh, place, quiet

STATUS = {"scheduled": 0, "ashore": 1, "eliminated": 2, "removed": 3}


def reference(core: LandingTableCore) -> Observation:
    """The observation written the plain way, plane by plane and unit by unit (the
    module's version sums the unit planes with numpy; both must agree exactly)."""
    scen = core.scen
    ob = LandingTableObservation.of(scen)
    plane, track = ob.plane, ob.track
    obs = ob.layout.zeros()
    for i, value in ob.printed:
        obs[i] += value
    for c in scen.flood_cells[core.tide()]:
        obs[plane["flooded"] + c] = 1
    for c in scen.obstacle_cells:
        if c not in core.cleared:
            obs[plane["obstacle"] + c] = 1
    for e in scen.exits:
        if e.id in core.exits_open:
            obs[plane["exit_open"] + e.cell] = 1
    occupied = np.zeros(len(scen.positions), dtype=bool)
    for i, p in enumerate(scen.positions):
        ps = core.pos[p.id]
        c = p.cell
        if ps.unit is not None:
            occupied[i] = True
            g = core.ger[ps.unit]
            if g.disrupted:
                obs[plane["german_disrupted"] + c] = 1
            if g.revealed:
                gu = scen.germans[ps.unit]
                obs[plane["german_defense"] + c] = gu.defense
                obs[plane["german_artillery"] + c] = gu.artillery
                for w in gu.requires:
                    obs[plane[f"requires_{w}"] + c] = 1
            else:
                obs[plane["german_face_down"] + c] = 1
        if ps.depth is not None:
            if not ps.depth_revealed:
                obs[plane["depth_face_down"] + c] = 1
            elif ps.depth == "TR":
                obs[plane["depth_tr"] + c] = 1
            else:
                obs[plane["depth_value"] + c] = int(ps.depth)
        if ps.defeated:
            obs[plane["defeated"] + c] = 1
        if p.id in core.attacked:
            obs[plane["attacked"] + c] = 1
    for i, p in enumerate(scen.positions):
        if occupied[i]:
            for c, dot in p.fof.items():
                obs[plane[f"fire_{dot}"] + c] += 1
    wn_cells = {p.cell for p in scen.positions if p.kind == "wn"}
    for s in core.us.values():  # each radio counted once on each WN hex within range
        if s.status == ASHORE and core.spots(s):
            for c in wn_cells:
                if core.lookup.distances(s.where)[c] <= scen.naval_spot:
                    obs[plane["spotters"] + c] += 1
    queue = set(core.queue) if core.current_phase == Phase.US_ACTION else set()
    d = core.decision or {}
    deciding = d.get("unit") if d.get("kind") in ("land", "drift", "follow", "orders") else None
    for u in scen.us:
        s = core.us[u.id]
        k = u.kind
        ashore = s.status == ASHORE
        strength = k.strength(s.steps)
        to_act = ashore and u.id in queue
        if ashore:
            c = s.where
            if k.leader:
                obs[plane["us_leaders"] + c] += 1
            else:
                obs[plane["us_units"] + c] += 1
                obs[plane["us_steps"] + c] += s.steps
            obs[plane["us_strength"] + c] += strength
            obs[plane["us_disrupted"] + c] += s.disrupted
            obs[plane["us_armour"] + c] += k.armoured
            obs[plane["us_artillery"] + c] += k.barrage > 0
            obs[plane["us_engineers"] + c] += k.clears
            obs[plane["us_to_act"] + c] += to_act
        scheduled = s.status == SCHEDULED
        values = (
            s.where + 1 if ashore else 0,
            STATUS[s.status],
            s.steps,
            strength,
            s.turn if scheduled else 0,
            s.box if scheduled else 0,
            s.disrupted,
            to_act,
            u.id == deciding,
        )
        for (name, _), value in zip(UNIT_FIELDS, values, strict=True):
            obs[track[f"{u.id}.{name}"]] = value
    kind = d.get("kind")
    if kind == "land":
        for c in core.land_options(int(d["box"])):
            obs[plane["choice"] + c] = 1
        obs[track["landing_box_now"]] = int(d["box"])
    elif kind == "drift":
        obs[track["drift_most"]] = int(d["most"])
        obs[track["landing_box_now"]] = int(d["box"])
    elif kind in ("hit", "attrition"):
        for uid in d["units"]:
            obs[plane["choice"] + core.us[uid].where] = 1
        if kind == "hit":
            obs[track["hit_need"]] = int(d["need"])
    elif kind == "orders" and deciding in core.us:
        obs[plane["choice"] + core.us[str(deciding)].where] = 1
    if kind is not None:
        obs[track[f"decision_{kind}"]] = 1
    if kind == "attack":
        cell = scen.pos_by_id[core.ctx["target"]].cell
        obs[plane["attack_target"] + cell] = 1
        for uid in core.ctx["attackers"]:
            obs[plane["attackers"] + (cell if uid.startswith("NF") else core.us[uid].where)] += 1
    for nid in core.naval_ids():
        obs[track[f"{nid}.in_play"]] = 1
        obs[track[f"{nid}.to_act"]] = nid in queue
    obs[track[f"phase_{core.phase}"]] = 1
    if core.card is not None:
        c = scen.cards[core.card]
        for name in ("card_shown", *(f"card_{x}" for x in c.colours), f"card_{c.symbol}"):
            obs[track[name]] = 1
        obs[track[f"card_action_{c.action}"]] = 1
        if c.icon != "none":
            obs[track[f"card_{c.icon}"]] = 1
        if c.mine:
            obs[track["card_mine"]] = 1
    obs[track["turn"]] = core.turn
    obs[track["tide"]] = ("low", "half", "high").index(core.tide())
    obs[track["heroes"]] = core.heroes
    obs[track["us_vp"]] = core.victory_points()[0]
    obs[track["exits_open"]] = len(core.exits_open)
    obs[track["deck_left"]] = len(core.deck)
    return obs


def _games(scenario: str, bots: tuple[str, ...], seeds: range) -> Any:
    for bot in bots:
        for seed in seeds:
            state = GAME.new_state(scenario, seed=seed)
            player = GAME.bots[bot](seed=seed)
            yield state, player


@pytest.mark.parametrize("scenario", ["first_wave", "omaha"])
def test_the_observation_equals_the_plain_reference_all_game_long(scenario: str) -> None:
    """At every decision, and in clones that go another way (the unit table the
    observation keeps until a unit changes must follow each state on its own)."""
    checked = 0
    for state, player in _games(scenario, ("random", "heuristic"), range(2)):
        assert isinstance(state, LandingTableState)
        other = GAME.bots["random"](seed=99)
        step = 0
        while not state.is_terminal():
            assert np.array_equal(state.observation("US"), reference(state))
            checked += 1
            if step % 10 == 0:
                twin = state.clone()
                assert isinstance(twin, LandingTableState)
                twin.apply(other.choose(twin))
                assert np.array_equal(twin.observation("US"), reference(twin))
                assert np.array_equal(state.observation("US"), reference(state))
            state.apply(player.choose(state))
            step += 1
        assert np.array_equal(state.observation("US"), reference(state))
    assert checked > 300


def _named(obs: Observation, state: LandingTableState) -> dict[str, Any]:
    layout = GAME.observation_layout(state.scen.id)
    return {
        "plane": lambda name: layout.plane(obs, name),
        "track": lambda name: float(obs[layout.track_index(name)]),
    }


def test_the_observation_shows_units_where_they_stand() -> None:
    s = quiet(fresh("omaha"), turn=10)
    place(s, "A/116", "H10", steps=1, disrupted=True)
    place(s, "Cota", "H10")
    obs = s.observation("US")
    read = _named(obs, s)
    cell = s.scen.board.cell("H10")
    assert read["plane"]("us_units")[cell] == 1  # the leader is not a unit
    assert read["plane"]("us_leaders")[cell] == 1
    assert read["plane"]("us_steps")[cell] == 1
    assert read["plane"]("us_disrupted")[cell] == 1
    assert read["plane"]("us_units").sum() == 1
    assert read["track"]("A/116.where") == cell + 1
    assert read["track"]("A/116.status") == 1 and read["track"]("A/116.steps") == 1
    assert read["track"]("G/116.status") == 3  # removed by quiet()
    assert read["track"]("turn") == 10


def test_a_face_down_unit_or_depth_marker_shows_only_that_it_is_there() -> None:
    """Swapping two face-down 352nd units (different strengths and weapons) and two
    face-down depth markers leaves the observation as it was; revealing one does not."""
    s = fresh("first_wave")
    assert s.scen.germans["5/916"].defense != s.scen.germans["6/916"].defense
    with s.edit():
        s.pos["R-Vaumicel"].depth, s.pos["R-Hamel"].depth = "2", "3"
    before = s.observation("US")
    with s.edit():
        s.pos["R-Vaumicel"].unit, s.pos["R-Hamel"].unit = "6/916", "5/916"
        s.ger["6/916"].where, s.ger["5/916"].where = "R-Vaumicel", "R-Hamel"
        s.pos["R-Vaumicel"].depth, s.pos["R-Hamel"].depth = "4", "TR"
    assert np.array_equal(s.observation("US"), before)
    with s.edit():
        s.ger["6/916"].revealed = True
    after = s.observation("US")
    cell = s.scen.pos_by_id["R-Vaumicel"].cell
    read = _named(after, s)
    assert read["plane"]("german_defense")[cell] == s.scen.germans["6/916"].defense
    assert read["plane"]("german_face_down")[cell] == 0


def test_only_the_us_player_observes() -> None:
    with pytest.raises(ValueError, match="is not a player"):
        fresh().observation("German")


@pytest.mark.parametrize("scenario", ["first_wave", "omaha"])
def test_heuristic_games_stay_within_the_limits(scenario: str) -> None:
    limits = GAME.limits(scenario)
    space = GAME.action_space(scenario)
    for state, player in _games(scenario, ("heuristic",), range(2)):
        decisions = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            assert len(actions) <= limits.max_legal_actions
            assert all(space.decode(space.encode(a)) == a for a in actions)
            state.apply(player.choose(state))
            decisions += 1
        assert decisions <= limits.max_decisions


def test_the_domains_narrow_each_field_to_what_the_rules_allow() -> None:
    scen = GAME.load_scenario("omaha")
    domains = GAME.field_domains(scen)
    kinds = {u.id: u.kind for u in scen.us}
    assert set(domains["Drift.unit"]) == {u for u, k in kinds.items() if k.cls == "ranger"}
    assert domains["Drift.boxes"] == (0, 1, 2, 3, 4)
    assert all(kinds[u].leader for u in domains["Follow.leader"])
    assert "NF1" in domains["Barrage.unit"] and "NF1" not in domains["Attack.unit"]
    assert len(domains["Move.hex"]) == len(scen.board)
    landing = {c for cells in scen.box_cells.values() for c in cells}
    assert len(domains["Land.hex"]) == len(landing) < len(scen.board)
    space = GAME.action_space("omaha")
    assert space.size <= 100_000
    code = space.encode(Move("A/116", "H10"))
    assert space.decode(code) == Move("A/116", "H10")
    assert space.decode(space.encode(Follow("Cota", True))) == Follow("Cota", True)
    assert space.decode(space.encode(Land("A/116", "K5"))) == Land("A/116", "K5")
    with pytest.raises(ValueError, match="outside its domain"):
        space.encode(Drift("A/116", 1))  # not a Ranger: no number


def test_returns_are_graded_by_victory_level() -> None:
    assert level_returns(GAME.load_scenario("omaha")) == {
        "US decisive victory": 1.0,
        "US victory": 0.5,
        "German marginal victory": -0.5,
        "German decisive victory": -1.0,
    }
    state = GAME.new_state("first_wave", seed=3)
    bot = GAME.bots["heuristic"](seed=3)
    assert state.returns() == {"US": 0.0}
    while not state.is_terminal():
        state.apply(bot.choose(state))
    outcome = state.outcome()
    assert outcome is not None
    assert state.returns() == {"US": level_returns(state.scen)[outcome.level]}
    assert GAME.utility_range == (-1.0, 1.0) and not GAME.zero_sum
    assert GAME.bot_sides("heuristic") == ("US",)


def test_a_clone_taken_before_any_observation_observes_its_own_units() -> None:
    """A clone made while the unit table is not built yet, then moved on, and its
    original: each observes its own units (neither sees a table built by the other)."""
    state = GAME.new_state("first_wave", seed=4)
    bot, other = GAME.bots["heuristic"](seed=4), GAME.bots["random"](seed=5)
    for step in range(120):
        if state.is_terminal():
            break
        state.apply(bot.choose(state))
        if step % 4:
            continue
        twin = state.clone()  # nothing observed since the last change
        for _ in range(3):
            if not twin.is_terminal():
                twin.apply(other.choose(twin))
        assert isinstance(twin, LandingTableState) and isinstance(state, LandingTableState)
        assert np.array_equal(twin.observation("US"), reference(twin))
        assert np.array_equal(state.observation("US"), reference(state))
