"""Information sets (READINGS.md, "Information"): the face-down tokens are hidden from
the US, the log never names one, and a resample deals the unseen tokens anew among the
face-down squares of their mix and its cup (4.1)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
from bloody_helpers import GAME, act, copy_shipped, new

from omaha.bloody.components.tokens import face_of_text, is_strongpoint_token, token_text
from omaha.bloody.core import Phase, Step
from omaha.bloody.procedures.information import hidden_parts
from omaha.bloody.state import BloodyState


def face_down(st: BloodyState) -> dict[tuple[int, int], str]:
    return {(c, k): f for c, k, f in hidden_parts(st)}


def test_token_texts_name_their_faces_back() -> None:
    for face in ("sp5", "sp18", "e0", "e4", "mines", "sniper", "stug", "event"):
        assert face_of_text(token_text(face)) == face
    assert face_of_text("Obstacle") is None


def test_a_resample_deals_the_face_down_tokens_anew_within_their_mix() -> None:
    """4.1: each mix is drawn from its own cup, so a Strongpoint token is dealt only to
    a square that holds one face down, an Encounter token likewise; the revealed ones
    stay, and the observation never changes."""
    st = _past_setup(3)
    truth = face_down(st)
    seen_at: dict[tuple[int, int], set[str]] = {slot: set() for slot in truth}
    for seed in range(30):
        twin = st.resample("US", seed)
        dealt = face_down(twin)
        assert dealt.keys() == truth.keys()
        assert Counter(dealt.values()) == Counter(truth.values())  # the cups are empty
        for slot, face in dealt.items():
            assert is_strongpoint_token(face) == is_strongpoint_token(truth[slot])
            seen_at[slot].add(face)
        assert np.array_equal(twin.observation("US"), st.observation("US"))
        assert twin.information_state("US") == st.information_state("US")
        assert twin.invariants() == []
    assert all(len(faces) > 1 for faces in seen_at.values())


def _past_setup(seed: int) -> BloodyState:
    st = new(seed)
    act(st, str(st.legal_actions()[0]))  # the set-up card choice (4.5)
    return st


def test_a_revealed_token_stays_and_is_never_dealt_elsewhere() -> None:
    """The US saw the only Strongpoint 18 in a square: no resample puts it face down
    anywhere, the square keeps it, and the square that held it face down gets different
    tokens with different seeds."""
    st = _past_setup(1)
    holder = next(c for c, toks in st.tokens.items() if toks[0] == ("sp18", False))
    shown = next(c for c, toks in sorted(st.tokens.items()) if len(toks) == 1 and c != holder)
    with st.edit():
        st.tokens[holder][0] = (st.tokens[shown][0][0], False)
        st.tokens[shown] = [("sp18", True)]
    assert st.invariants() == []
    there = set()
    for seed in range(30):
        twin = st.resample("US", seed)
        assert twin.tokens[shown] == [("sp18", True)]
        assert "sp18" not in face_down(twin).values()
        there.add(twin.tokens[holder][0][0])
        assert np.array_equal(twin.observation("US"), st.observation("US"))
        assert twin.invariants() == []
    assert len(there) > 3


def _swapped(seed: int) -> tuple[BloodyState, BloodyState, int, int]:
    """Two games alike but for two face-down Strongpoint tokens of different values
    swapped between their squares, the first next to a Beach square."""
    a = _past_setup(seed)
    b = a.clone()
    sps = [(c, f) for c, k, f in hidden_parts(a) if is_strongpoint_token(f) and k == 0]
    near_beach = [
        (c, f) for c, f in sps if any(nb in a.scen.beaches for nb in a.scen.land_neighbours[c])
    ]
    (c1, f1), (c2, f2) = next((x, y) for x in near_beach for y in sps if x[1] != y[1])
    with b.edit():
        b.tokens[c1][0], b.tokens[c2][0] = (f2, False), (f1, False)
    return a, b, c1, c2


def _shown(st: BloodyState, *cells: int) -> bool:
    return any(not st.tokens.get(c) or st.tokens[c][0][1] for c in cells)


def test_the_log_never_names_a_face_down_token() -> None:
    """Swapping two face-down tokens changes nothing the US sees, as long as neither
    is revealed: the same actions give the same log, information state and observation."""
    steps = 0
    for seed in range(4):
        a, b, c1, c2 = _swapped(seed)
        bot = GAME.bots["random"](seed=seed)
        while not a.is_terminal() and not _shown(a, c1, c2):
            assert a.legal_actions() == b.legal_actions()
            action = bot.choose(a)
            a.apply(action)
            b.apply(action)
            if _shown(a, c1, c2):
                break
            steps += 1
            assert [str(e) for e in a.log] == [str(e) for e in b.log]
            assert a.information_state("US") == b.information_state("US")
            assert np.array_equal(a.observation("US"), b.observation("US"))
    assert steps > 50


def test_revealing_different_tokens_gives_different_information_states() -> None:
    """Perfect recall: the two games above look alike to the US until the swapped
    token is revealed, and differ from then on."""
    a, b, c1, _ = _swapped(1)
    beach = next(nb for nb in a.scen.land_neighbours[c1] if nb in a.scen.beaches)
    for st in (a, b):
        u = st.scen.unit_index["A/116"]
        with st.edit():
            st.where[u], st.landed[u], st.ashore[u] = beach, True, st.scen.column[beach]
            st.turn, st.step, st.current_phase = 3, Step.ACTIVATE, Phase.ACTIVATION
            st.init_token = st.init_rating = 5
    assert a.information_state("US") == b.information_state("US")
    for st in (a, b):
        act(st, f"move A/116 to {st.label(c1)}")
    assert a.information_state("US") != b.information_state("US")


def test_tokens_left_in_the_cup_are_dealt_too(tmp_path: Path) -> None:
    """A mix with more tokens than squares (4.1) leaves some in the cup: the US does not
    know which, so a resample may put one of them face down on the map."""
    scenario = copy_shipped(tmp_path)
    tokens = tmp_path / "tokens.toml"
    tokens.write_text(
        tokens.read_text()
        + '\n[[strongpoints]]\nvalue = 30\ncount = 1\nsource = "test: one token too many"\n'
    )
    st = GAME.new_state(str(scenario), seed=2)
    placed = Counter(f for _, _, f in hidden_parts(st) if is_strongpoint_token(f))
    assert sum(placed.values()) == len(st.scen.strongpoints)
    on_map = set()
    for seed in range(40):
        twin = st.resample("US", seed)
        faces = Counter(f for _, _, f in hidden_parts(twin) if is_strongpoint_token(f))
        assert sum(faces.values()) == len(st.scen.strongpoints)
        assert faces <= Counter(st.scen.strongpoint_tokens)
        assert twin.invariants() == []
        on_map.add(faces["sp30"])
    assert on_map == {0, 1}
