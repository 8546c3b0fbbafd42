"""Bloody Omaha's agent surface (issue 15): the fixed action numbering, the bounds of
a game, the US observation (what it shows and what it hides), graded returns, and
states that deep-copy as they clone (OpenSpiel copies its states so)."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
from bloody_helpers import GAME, cell, new, staged, unit

from omaha.bloody.actions import (
    Engineers,
    Move,
    MoveTank,
    PlayCard,
    PlayCardAt,
    Release,
)
from omaha.bloody.core import ASIDE, BOX, DEAD, ActionCatalogue
from omaha.bloody.state import BloodyState
from omaha.kernel.actions import sort_key
from omaha.kernel.encoding import EncodingError
from omaha.kernel.protocol import Outcome

SCEN = GAME.load_scenario()
LAYOUT = GAME.observation_layout()


def played(seed: int, bot: str = "random", steps: int | None = None) -> BloodyState:
    st = new(seed)
    b = GAME.bots[bot](seed=seed)
    k = 0
    while not st.is_terminal() and (steps is None or k < steps):
        st.apply(b.choose(st))
        k += 1
    return st


# --------------------------------------------------------------------------
# The action numbering
# --------------------------------------------------------------------------
def test_every_action_the_game_can_list_has_a_number_and_back() -> None:
    """The catalogue holds every action a scenario can ever offer: each one encodes,
    and decodes to an equal action."""
    space = GAME.action_space()
    catalogue = ActionCatalogue.of(SCEN)
    numbers = {space.encode(a) for a in catalogue.action}
    assert len(numbers) == len(catalogue.action)
    for action in catalogue.action:
        assert space.decode(space.encode(action)) == action
    assert 4_000 < len(catalogue.action) <= space.size <= 100_000


def test_the_numbering_follows_the_notation_order() -> None:
    """The space numbers exactly the catalogue, class by class in the order of their
    notation and each class in notation order: an action's number is its place among all
    of them sorted by notation, but for the two ``play`` forms, whose notations interleave
    card by card (each form in notation order, together over the same numbers)."""
    space = GAME.action_space()
    in_order = sorted(ActionCatalogue.of(SCEN).action, key=sort_key)
    assert space.size == len(in_order)
    plays = [k for k, a in enumerate(in_order) if isinstance(a, PlayCard | PlayCardAt)]
    assert plays == list(range(plays[0], plays[-1] + 1))
    for k, action in enumerate(in_order):
        if not isinstance(action, PlayCard | PlayCardAt):
            assert space.encode(action) == k
    for form in (PlayCardAt, PlayCard):
        numbers = [space.encode(a) for a in in_order if isinstance(a, form)]
        assert numbers == sorted(numbers)
    assert sorted(space.encode(in_order[k]) for k in plays) == plays
    assert space.decode(0) == in_order[0]
    last = MoveTank(f"tank{SCEN.tank_count}", max(u.id for u in SCEN.units))
    assert space.decode(space.size - 1) == in_order[-1] == last
    # notation order is natural order: with 1, with 2, ..., with 10, ...
    square = SCEN.board.labels[min(SCEN.land)]
    assets = range(1, SCEN.track_max + 1)
    first = space.encode(Engineers(square, 1))
    assert [space.encode(Engineers(square, n)) for n in assets] == list(
        range(first, first + SCEN.track_max)
    )


def test_legal_numbers_come_ascending_as_listed_without_a_card_play() -> None:
    """The legal actions are listed in notation order, so their numbers come ascending
    (the order agents get them in) whenever no card play is among them."""
    space = GAME.action_space()
    plain = 0
    for seed in range(3):
        st = new(seed)
        b = GAME.bots["random"](seed=seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            numbers = [space.encode(a) for a in legal]
            if not any(isinstance(a, PlayCard | PlayCardAt) for a in legal):
                assert numbers == sorted(numbers) == list(st.legal_codes())
                plain += 1
            st.apply(b.choose(st))
    assert plain > 20


@pytest.mark.parametrize(
    "action",
    [
        Move("A/116", "C1"),  # a Channel square: units move on land only
        Release("1/18", "B3"),  # reinforcements enter at C19-C27 only
        Engineers("B3", 0),
        PlayCardAt("c99", 1, "B3"),
    ],
)
def test_actions_outside_the_domains_have_no_number(action: Any) -> None:
    with pytest.raises(EncodingError, match="outside its domain"):
        GAME.action_space().encode(action)


def test_legal_codes_are_the_encoded_legal_actions() -> None:
    space = GAME.action_space()
    for seed in range(6):
        st = new(seed)
        b = GAME.bots["heuristic" if seed % 2 else "random"](seed=seed)
        while not st.is_terminal():
            expected = sorted(space.encode(a) for a in st.legal_actions())
            assert list(st.legal_codes()) == expected
            assert [int(i) for i in np.flatnonzero(st.action_mask())] == expected
            st.apply(b.choose(st))
        assert st.legal_codes() == ()


# --------------------------------------------------------------------------
# Limits
# --------------------------------------------------------------------------
def test_limits_are_derived_from_the_scenario() -> None:
    limits = GAME.limits()
    # the largest cup: the 32 Encounter tokens (3.5.e); a d6 and the 18 cards are fewer
    assert limits.max_chance_outcomes == len(SCEN.encounter_tokens) == 32
    assert limits.max_decisions >= SCEN.turns * SCEN.track_max
    assert limits.max_legal_actions < len(ActionCatalogue.of(SCEN).action)


def test_heuristic_and_random_games_stay_within_the_limits() -> None:
    limits = GAME.limits()
    for seed in range(8):
        st = new(seed)
        b = GAME.bots["heuristic" if seed % 2 else "random"](seed=seed)
        widest = 0
        while not st.is_terminal():
            widest = max(widest, len(st.legal_actions()))
            st.apply(b.choose(st))
        assert len(st.actions) <= limits.max_decisions
        assert widest <= limits.max_legal_actions


# --------------------------------------------------------------------------
# Observations
# --------------------------------------------------------------------------
def reference_observation(st: BloodyState) -> np.ndarray[Any, Any]:
    """The US observation computed plainly from the fields, plane by plane."""
    obs = np.zeros(LAYOUT.size, dtype=np.float32)
    scen = st.scen

    def p(name: str) -> np.ndarray[Any, Any]:
        return LAYOUT.plane(obs, name)

    def t(name: str, value: float) -> None:
        obs[LAYOUT.track_index(name)] = value

    for c in range(len(st.board)):
        p(scen.kind[c])[c] = 1
        p("first_wave")[c] = c in scen.first_wave
        p("entry")[c] = c in scen.entry
        p("exit")[c] = c in scen.exit_name
        p("bonus")[c] = c in scen.bonus or c in scen.southern
        if c in scen.inland and not st.tokens.get(c):
            p("cleared")[c] = 1
    division = {"1st ID": "us_1st_id", "29th ID": "us_29th_id", "Rangers": "us_rangers"}
    for u, spec in enumerate(scen.units):
        w = st.where[u]
        if w >= 0:
            p("us_units")[w] += 1
            p("us_strength")[w] += st.strength(u)
            p("us_disrupted")[w] += st.disrupted[u]
            p("us_battalions")[w] += spec.battalion
            p(division[spec.division])[w] += 1
        t(f"unit_{spec.id}_at", w + 1 if w >= 0 else 0 if w == BOX else -1)
        t(f"unit_{spec.id}_disrupted", st.disrupted[u])
    for k, (w, u) in enumerate(st.tanks):
        if w >= 0:
            p("us_tanks")[w] += 1
        t(f"tank{k + 1}_at", w + 1 if w >= 0 else 0 if w == ASIDE else -1)
        t(f"tank{k + 1}_with", u + 1)
    for b in scen.beaches:
        p("gap" if st.gap[b] else "obstacle")[b] = 1
        p("under_fire")[b] = st.under_fire(b)
    for c, toks in st.tokens.items():
        for face, revealed in toks:
            if not revealed:
                p("strongpoint_unknown" if face.startswith("sp") else "encounter_unknown")[c] += 1
            elif face == "mines":
                p("mines")[c] += 1
            elif face.removeprefix("sp").removeprefix("e").isdigit():  # named: none (8.1)
                value = int(face.removeprefix("sp").removeprefix("e"))
                p("german_numerical")[c] += 1
                p("german_value")[c] += value
    if st.attack_target >= 0:
        p("attack_target")[st.attack_target] = 1
        for c in st.attack_squares:
            p("attack_from")[c] = 1
    for card in scen.card_ids:
        t(f"hand_{card}", card in st.hand)
        t(f"offered_{card}", card in st.offered)
    for step in ("setup", "landing_cards", "random_event", "activation", "attack"):
        t(f"decision_{step}", st.step.value == step)
    for name, value in (
        ("turn", st.turn),
        ("turns", scen.turns),
        ("initiative_rating", st.init_rating),
        ("initiative", st.init_token),
        ("engineers_rating", st.eng_rating),
        ("engineers", st.eng_token),
        ("vp", st.score().total),
        ("exits_cleared", st.exits_cleared()),
        ("deck", len(st.deck)),
        ("discards", len(st.deck.discards)),
        ("drift_mod", st.drift_mod),
        ("landing_mod", st.landing_mod),
        ("attack_bonus", st.attack_bonus),
    ):
        t(name, value)
    return obs


def test_the_observation_is_the_position_plane_by_plane() -> None:
    compared = 0
    for seed in range(6):
        st = new(seed)
        b = GAME.bots["heuristic" if seed % 2 else "random"](seed=seed)
        while not st.is_terminal():
            got = st.observation("US")
            assert got.shape == (LAYOUT.size,) and got.dtype == np.float32
            np.testing.assert_array_equal(got, reference_observation(st))
            compared += 1
            st.apply(b.choose(st))
        np.testing.assert_array_equal(st.observation("US"), reference_observation(st))
    assert compared > 200


def test_face_down_tokens_show_only_their_backs() -> None:
    """Two positions that differ only in what face-down tokens hide observe alike."""
    st = new(3)
    twin = st.clone()
    sps = [c for c in SCEN.strongpoints if not st.tokens[c][0][1]]
    a, b = sps[0], sps[1]
    with twin.edit():
        twin.tokens[a][0], twin.tokens[b][0] = twin.tokens[b][0], twin.tokens[a][0]
    assert twin.tokens[a] != st.tokens[a]
    np.testing.assert_array_equal(st.observation("US"), twin.observation("US"))
    assert LAYOUT.plane(st.observation("US"), "strongpoint_unknown")[a] == 1
    assert LAYOUT.plane(st.observation("US"), "german_value")[a] == 0


def test_a_revealed_token_shows_its_value() -> None:
    st = staged(units={"A/116": "B2"}, tokens={"S2": [("sp12", True), ("e3", True)]})
    obs = st.observation("US")
    s2 = cell(st, "S2")
    assert LAYOUT.plane(obs, "german_value")[s2] == 15
    assert LAYOUT.plane(obs, "german_numerical")[s2] == 2
    assert LAYOUT.plane(obs, "strongpoint_unknown")[s2] == 0
    assert LAYOUT.plane(obs, "cleared")[s2] == 0


def test_units_show_on_their_squares_and_in_the_tracks() -> None:
    st = staged(units={"A/116": "B2", "G/116": "B2", "3/116": "B3"}, disrupted=["G/116"])
    with st.edit():
        st.where[unit(st, "C/2Rng")] = DEAD
        st.eliminated = [unit(st, "C/2Rng")]
    obs = st.observation("US")
    b2, b3 = cell(st, "B2"), cell(st, "B3")
    a116, g116 = SCEN.units[unit(st, "A/116")], SCEN.units[unit(st, "G/116")]
    assert LAYOUT.plane(obs, "us_units")[b2] == 2
    assert LAYOUT.plane(obs, "us_strength")[b2] == a116.full + g116.reduced
    assert LAYOUT.plane(obs, "us_disrupted")[b2] == 1
    assert LAYOUT.plane(obs, "us_29th_id")[b2] == 2
    assert LAYOUT.plane(obs, "us_battalions")[b3] == 1
    assert obs[LAYOUT.track_index("unit_A/116_at")] == b2 + 1
    assert obs[LAYOUT.track_index("unit_G/116_disrupted")] == 1
    assert obs[LAYOUT.track_index("unit_C/2Rng_at")] == -1
    assert obs[LAYOUT.track_index("unit_1/18_at")] == 0  # in the Reinforcements box


def test_only_the_us_observes() -> None:
    with pytest.raises(ValueError, match="not a player"):
        new().observation("German")


def test_the_layout_explains_every_number() -> None:
    meanings = dict(LAYOUT.meanings)
    assert set(meanings) == set(LAYOUT.planes) | set(LAYOUT.tracks)
    assert all(meanings.values())
    assert LAYOUT.size == len(SCEN.board) * len(LAYOUT.planes) + len(LAYOUT.tracks)


# --------------------------------------------------------------------------
# Returns, copies
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("level", "winner", "value"),
    [
        ("Defeat", None, -1.0),
        ("Draw", None, 0.0),
        ("Historical Victory", "US", 0.5),
        ("Major Victory", "US", 1.0),
    ],
)
def test_returns_grade_the_victory_level(level: str, winner: str | None, value: float) -> None:
    st = played(5, "random")
    assert st.is_terminal()
    with st.edit():
        st.result = Outcome(winner, level)
    assert st.returns() == {"US": value}
    low, high = GAME.utility_range
    assert low <= value <= high
    assert not GAME.zero_sum and GAME.solo


def test_returns_are_zero_before_the_end() -> None:
    assert new().returns() == {"US": 0.0}


def test_a_deep_copy_is_an_independent_clone() -> None:
    st = played(2, "heuristic", steps=30)
    twin = copy.deepcopy(st)
    assert twin.to_json() == st.to_json()
    assert twin.catalogue is st.catalogue
    b = GAME.bots["random"](seed=1)
    twin.apply(b.choose(twin))
    assert twin.to_json() != st.to_json()
    assert st.invariants() == [] and twin.invariants() == []


def test_actions_made_anew_are_legal_exactly_when_listed() -> None:
    """``is_legal`` finds an equal action by value (a decoded number, a parsed text),
    and refuses the catalogue's other actions."""
    space = GAME.action_space()
    catalogue = ActionCatalogue.of(SCEN)
    for seed in range(3):
        st = new(seed)
        b = GAME.bots["heuristic"](seed=seed)
        while not st.is_terminal():
            legal = set(st.legal_actions())
            for code in st.legal_codes():
                assert st.is_legal(space.decode(code))
                assert st.is_legal(GAME.parse_action(str(space.decode(code))))
            for action in catalogue.action[seed::97]:
                assert st.is_legal(action) == (action in legal)
            choice = b.choose(st)
            st.apply(space.decode(space.encode(choice)))  # by value, not the listed object
        assert st.invariants() == []
