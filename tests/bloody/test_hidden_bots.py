"""Hidden information in views and pictures; bots that do not peek; the command line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bloody_helpers import GAME, act, new, staged

from omaha import cli
from omaha.bloody.bots import picture_of, read_view
from omaha.bloody.components.tokens import is_strongpoint_token
from omaha.bloody.state import BloodyState
from omaha.kernel.svg import render_view


def played(seed: int, steps: int, bot: str = "heuristic") -> BloodyState:
    st = new(seed)
    b = GAME.bots[bot](seed=seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(b.choose(st))
    return st


def shuffled_hidden(st: BloodyState, seed: int) -> BloodyState:
    """A twin whose face-down tokens are dealt differently (same kinds, same squares)."""
    twin = st.clone()
    assert isinstance(twin, BloodyState)
    rng = random.Random(seed)
    with twin.edit():
        for kind in (True, False):
            slots = [
                (c, k)
                for c in sorted(twin.tokens)
                for k, (f, r) in enumerate(twin.tokens[c])
                if not r and is_strongpoint_token(f) == kind
            ]
            faces = [twin.tokens[c][k][0] for c, k in slots]
            rng.shuffle(faces)
            for (c, k), f in zip(slots, faces, strict=True):
                twin.tokens[c][k] = (f, False)
    return twin


def test_us_view_hides_face_down_tokens() -> None:
    st = new(3)
    us, obs = st.view("US"), st.view(None)
    german_us = [p for p in us.pieces if p.name in ("Strongpoint", "Encounter")]
    german_obs = [p for p in obs.pieces if p.name in ("Strongpoint", "Encounter")]
    assert len(german_us) == 45 and all(p.hidden and p.values == "" for p in german_us)
    assert all(not p.hidden and p.values for p in german_obs)
    # the ids say where a token lies, never what it is
    assert {p.id for p in german_us} == {p.id for p in german_obs}
    assert all("#" in p.id for p in german_us)


def test_revealed_tokens_show_in_the_us_view() -> None:
    st = new(3)
    s3 = st.board.cell("S3")
    face = st.tokens[s3][0][0]
    with st.edit():
        st.tokens[s3] = [(face, True)]
    piece = next(p for p in st.view("US").pieces if p.where == "S3" and p.name == "Strongpoint")
    assert not piece.hidden and piece.values == face.removeprefix("sp")


def test_the_renderer_draws_the_us_view_without_hidden_identities() -> None:
    st = new(3)
    us_svg, obs_svg = render_view(st.view("US")), render_view(st.view(None))
    for face in ("German: Strongpoint", "German: Encounter Sniper", "German: Encounter Mines"):
        assert face not in us_svg
    assert "German: Strongpoint" in obs_svg
    assert us_svg.count("German: hidden") == 45


def test_the_picture_holds_no_hidden_identity() -> None:
    st = played(4, 30)
    pic = read_view(st.view("US"), st.scen)
    for cell, toks in st.tokens.items():
        seen = pic.tokens.get(cell, [])
        assert len(seen) == len(toks)
        for (_, revealed), (_, shown) in zip(toks, seen, strict=True):
            assert (shown is None) == (not revealed)


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_the_picture_built_from_the_state_is_the_picture_of_the_us_view(bot: str) -> None:
    """The heuristic reads picture_of(state) for speed: it must be read_view(view("US"))."""
    seen_tanks = False
    for seed in range(6):
        st = new(seed)
        b = GAME.bots[bot](seed=seed)
        while not st.is_terminal():
            assert picture_of(st) == read_view(st.view("US"), st.scen)
            seen_tanks |= any(w >= 0 for w, _ in st.tanks)
            st.apply(b.choose(st))
        assert picture_of(st) == read_view(st.view("US"), st.scen)
    assert seen_tanks or bot == "random"
    # an attack being put together shows in both
    st = staged(units={"A/116": "B2", "G/116": "B3", "B/116": "S2"}, tokens={"S3": [("sp8", True)]})
    act(st, "attack S3 from B2")
    assert st.attack_target >= 0
    assert picture_of(st) == read_view(st.view("US"), st.scen)


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_bots_decide_the_same_whatever_the_face_down_tokens(bot: str) -> None:
    for seed, steps in ((1, 5), (2, 25), (3, 60), (5, 90)):
        st = played(seed, steps)
        if st.is_terminal():
            continue
        twin = shuffled_hidden(st, seed)
        assert st.to_json() != twin.to_json() or not any(
            not r for toks in st.tokens.values() for _, r in toks
        )
        assert twin.legal_actions() == st.legal_actions()
        a = GAME.bots[bot](seed=seed).choose(st)
        b = GAME.bots[bot](seed=seed).choose(twin)
        assert a == b


def test_the_heuristic_plays_much_better_than_random() -> None:
    def vp(bot: str, seed: int) -> float:
        st = new(seed)
        b = GAME.bots[bot](seed=seed)
        while not st.is_terminal():
            st.apply(b.choose(st))
        return st.metrics()["vp"]

    seeds = range(8)
    heuristic = sum(vp("heuristic", s) for s in seeds) / len(seeds)
    rnd = sum(vp("random", s) for s in seeds) / len(seeds)
    assert heuristic > rnd + 15


def test_the_heuristic_uses_cards_engineers_and_attacks() -> None:
    st = new(6)
    b = GAME.bots["heuristic"](seed=6)
    while not st.is_terminal():
        st.apply(b.choose(st))
    kinds = {e.kind for e in st.log}
    assert {"bloody.card", "bloody.engineers", "bloody.attack", "bloody.gap"} <= kinds


def test_lineup_and_players() -> None:
    assert GAME.players == ("US",)
    assert GAME.lineup("heuristic") == {"US": "heuristic"}
    assert new(1).current_player() == "US"


def test_play_and_render_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["play", "bloody", "--bot", "heuristic", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Result: " in out and "[Turn 8 · End] game over" in out
    assert "lands on" in out and "attack on" in out
    svg = tmp_path / "bloody.svg"
    assert cli.main(["render", "bloody", "--out", str(svg)]) == 0
    text = svg.read_text()
    assert text.startswith("<svg") and "Dog Green" in text and "H31" in text
