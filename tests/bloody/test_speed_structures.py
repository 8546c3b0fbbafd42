"""What the speed work relies on: legal actions in notation order without the kernel's
sort, caches kept in step with the fields, and clones that share nothing mutable."""

from __future__ import annotations

from bloody_helpers import GAME, act, cell, legal_texts, new, staged

from omaha.bloody.core import TokenIndex
from omaha.bloody.state import BloodyState
from omaha.kernel.actions import sort_key


def states(bot: str, seeds: range) -> list[BloodyState]:
    out = []
    for seed in seeds:
        st = new(seed)
        b = GAME.bots[bot](seed=seed)
        while not st.is_terminal():
            out.append(st.clone())
            st.apply(b.choose(st))
    return out


def test_legal_actions_are_in_notation_order_and_match_a_plain_listing() -> None:
    for bot in ("random", "heuristic"):
        for st in states(bot, range(3)):
            listed = st.legal_actions()
            assert list(listed) == sorted(listed, key=sort_key)
            assert len(set(listed)) == len(listed)


def test_the_token_index_follows_every_change_of_the_tokens() -> None:
    for st in states("random", range(4)):
        fresh = TokenIndex(st.tokens)
        index = st.token_index()
        assert index.uncleared == fresh.uncleared
        assert index.face_down == fresh.face_down
        assert index.known_numerical == fresh.known_numerical
        assert index.revealed_mines == fresh.revealed_mines


def test_edit_drops_the_caches() -> None:
    st = staged(units={"A/116": "B2"}, tokens={"S3": [("sp4", False)]})
    assert "move A/116 to S3" in legal_texts(st)
    with st.edit():
        st.tokens[cell(st, "S3")] = [("sp4", True)]
    assert "move A/116 to S3" not in legal_texts(st)
    assert "attack S3 from B2" in legal_texts(st)


def test_tank_reach_is_recomputed_when_tokens_change() -> None:
    st = staged(units={"E/16": "B5", "G/16": "B7"}, tokens={"S6": [("sp4", True)]}, dice=[6])
    b5, s6 = cell(st, "B5"), cell(st, "S6")
    assert s6 not in st.tank_reach(b5)  # the exit still holds a token (8.3)
    act(st, "attack S6 from B5")  # success: S6 cleared
    assert st.tokens[s6] == []
    assert s6 in st.tank_reach(b5)


def test_a_clone_shares_no_mutable_field() -> None:
    st = states("heuristic", range(1))[30]
    twin = st.clone()
    shared_ok = {"game", "scenario", "catalogue", "result"}
    immutable = int | str | bool | float | tuple | frozenset | type(None)
    for name, value in vars(st).items():
        if name in shared_ok or name.startswith("_") or isinstance(value, immutable):
            continue
        assert getattr(twin, name) is not value, name
    assert twin.token_index() is not st.token_index()
    for c, toks in st.tokens.items():
        assert twin.tokens[c] is not toks
    for mine, theirs in zip(st.tanks, twin.tanks, strict=True):
        assert mine is not theirs
    # and the futures agree
    b1, b2 = GAME.bots["random"](seed=3), GAME.bots["random"](seed=3)
    while not st.is_terminal():
        st.apply(b1.choose(st))
        twin.apply(b2.choose(twin))
    assert st.log_text() == twin.log_text()
