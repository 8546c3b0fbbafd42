"""Information sets (READINGS.md, "Information"): face-down 352nd units drawn from the
Division box and face-down depth markers are hidden from the US; the log shows them as
the US saw them, and a resample deals them anew with their cups."""

from __future__ import annotations

from collections import Counter

import numpy as np

from omaha.landing_table.actions import Attack, Join, Resolve
from omaha.landing_table.procedures import german, information
from omaha.landing_table.state import LandingTableState

from .helpers import GAME, card, cells_with, fresh, place, quiet

SEEDS = range(40)


def _markers(st: LandingTableState) -> dict[str, str]:
    return {pid: v for kind, pid, v in information.hidden_parts(st) if kind == "depth"}


def _cup(st: LandingTableState, name: str) -> list[str]:
    return list(st.cups[name].contents)


def test_a_resample_deals_the_face_down_depth_markers_with_their_cup() -> None:
    """The big WN draw their markers from the 716th cup at set-up: a resample deals the
    716th cup's markers anew among them and the cup, the 352nd cup untouched (no marker
    of it is on the map); the observation and the information state stay."""
    st = fresh("omaha")
    truth = _markers(st)
    assert len(truth) == 7
    pool = Counter(truth.values()) + Counter(_cup(st, "716"))
    assert pool == Counter(st.scen.depth_cups["716"])
    values: dict[str, set[str]] = {pid: set() for pid in truth}
    for seed in SEEDS:
        twin = st.resample("US", seed)
        dealt = _markers(twin)
        assert dealt.keys() == truth.keys()
        assert Counter(dealt.values()) + Counter(_cup(twin, "716")) == pool
        assert _cup(twin, "352") == _cup(st, "352")
        for pid, v in dealt.items():
            values[pid].add(v)
        assert np.array_equal(twin.observation("US"), st.observation("US"))
        assert twin.information_state("US") == st.information_state("US")
        assert twin.invariants() == []
    assert all(len(v) > 2 for v in values.values())


def _staged(value: str) -> LandingTableState:
    """WN62's face-down marker (from the 716th cup) staged as ``value`` (exchanged with
    one in the cup), three US units around WN62."""
    st = quiet(fresh("omaha"), turn=10)
    with st.edit():
        old = str(st.pos["WN62"].depth)
        if old != value:
            st.cups["716"].remove(value)
            st.cups["716"].put(old)
            st.pos["WN62"].depth = value
    for uid, hx in (("1/18", "F25"), ("2/18", "F27"), ("3/18", "E26")):
        place(st, uid, hx)
    with st.edit():
        st.queue = ["1/18", "2/18", "3/18"]
        st.decision = {"kind": "orders", "unit": "1/18"}
    assert st.invariants() == []
    return st


def _revealing(value: str) -> LandingTableState:
    """:func:`_staged`, then an attack that reveals the marker (US Attack Results Chart:
    greater, unrevealed depth)."""
    st = _staged(value)
    st.apply(Attack("WN62", "1/18"))
    for uid in ("2/18", "3/18"):
        st.apply(Join(uid))
    if st.decision is not None and st.decision["kind"] == "attack":
        st.apply(Resolve())  # three attackers: resolved at once otherwise
    assert any(e.kind == "ddob.reveal" for e in st.log)
    return st


def test_a_revealed_marker_is_never_dealt_again() -> None:
    """Once the US saw WN62's marker (the 716th cup has four Tactical Reinforcements),
    the resamples deal only the three others among the cup and the face-down markers."""
    st = _revealing("TR")
    assert any("revealed: Tactical Reinforcement" in e.text for e in st.log)
    for seed in SEEDS:
        twin = st.resample("US", seed)
        held = Counter(_markers(twin).values()) + Counter(_cup(twin, "716"))
        assert held["TR"] <= 3
        assert twin.invariants() == []
    unseen = Counter(st.scen.depth_cups["716"]) - Counter(["TR"])
    held = Counter(_markers(st).values()) + Counter(_cup(st, "716"))
    assert held <= unseen


def test_revealing_different_markers_gives_different_information_states() -> None:
    """Face down, WN62's marker is the same to the US whatever it is; revealed, two
    histories that showed different markers are different information states."""
    a, b = _staged("TR"), _staged("2")
    assert a.information_state("US") == b.information_state("US")
    assert np.array_equal(a.observation("US"), b.observation("US"))
    a, b = _revealing("TR"), _revealing("2")
    assert a.information_state("US") != b.information_state("US")


def _reinforced(gid: str = "6/915", attacker: bool = True) -> LandingTableState:
    """A 352nd unit from the Division box face down in R-Moulins (16.4) on turn 18, and
    A/743 next to it getting its orders (unless not ``attacker``)."""
    st = quiet(fresh("omaha"), turn=18)
    with st.edit():
        st.cups["division"].remove(gid)
        st.ger[gid].where, st.ger[gid].revealed = "R-Moulins", False
        st.pos["R-Moulins"].unit = gid
        st.seen.add(gid)
    if attacker:
        place(st, "A/743", "D15")
        with st.edit():
            st.queue = ["A/743"]
            st.decision = {"kind": "orders", "unit": "A/743"}
        assert st.invariants() == []
    return st


def test_a_unit_drawn_from_the_division_box_is_dealt_anew_with_the_box() -> None:
    """The US cannot tell which 352nd unit came out of the box: a resample deals the
    face-down unit and the box's cup anew; the set-up garrisons, known, stay."""
    st = _reinforced()
    assert information.unknown_slots(st) == ["R-Moulins"]
    pool = sorted([*st.scen.division])
    there = set()
    for seed in SEEDS:
        twin = st.resample("US", seed)
        gid = twin.pos["R-Moulins"].unit
        assert gid is not None and not twin.ger[gid].revealed
        there.add(gid)
        assert sorted([gid, *_cup(twin, "division")]) == pool
        assert twin.pos["R-Vaumicel"].unit == "5/916"  # the scenario's garrison
        assert np.array_equal(twin.observation("US"), st.observation("US"))
        assert twin.legal_actions() == st.legal_actions()
        assert twin.invariants() == []
    assert there == set(pool)


def test_an_attack_reveals_its_face_down_defender_when_declared() -> None:
    """Declaring an attack on the face-down unit turns it over (READINGS.md, "An attack
    reveals"): its defence and requirements show before the Hero is offered, the US can
    name it, and every resample keeps it where it is, with the same menu."""
    st = _reinforced()
    layout = GAME.observation_layout("omaha")
    cell = st.scen.pos_by_id["R-Moulins"].cell
    assert layout.plane(st.observation("US"), "german_face_down")[cell] == 1
    st.apply(Attack("R-Moulins", "A/743"))
    assert st.ger["6/915"].revealed
    assert st.log[-1].kind == "ddob.german" and st.log[-1].details["unit"] == "6/915"
    obs = st.observation("US")
    assert layout.plane(obs, "german_face_down")[cell] == 0
    assert layout.plane(obs, "german_defense")[cell] == st.scen.germans["6/915"].defense
    assert [str(a) for a in st.legal_actions()] == ["resolve", "resolve with hero"]
    assert st.pending is not None and "vs ?)" not in st.pending.prompt  # its defence seen
    assert information.unknown_slots(st) == []
    for seed in SEEDS:
        twin = st.resample("US", seed)
        assert twin.pos["R-Moulins"].unit == "6/915"
        assert twin.legal_actions() == st.legal_actions()


def test_a_redeploy_does_not_name_a_face_down_unit_to_the_us() -> None:
    """16.3 (letter R, no US unit in its fields): the raw log names the unit that
    redeploys; the US sees a counter move."""
    st = _reinforced(attacker=False)
    target = st.scen.pos_by_id["R-Vierville"]
    place(st, "A/116", cells_with(target, "intense")[0])
    german.act(st, "R-Moulins", card(action="R"))
    assert st.pos["R-Vierville"].unit == "6/915"
    event = st.log[-1]
    assert event.kind == "ddob.redeploy" and event.details["unit"] == "6/915"
    seen = information.event_seen(event)
    assert "6/915" not in seen.text and "a German unit" in seen.text
    assert information.event_seen(seen) == seen
    assert information.unknown_slots(st) == ["R-Vierville"]
    with st.edit():
        st.decision = {"kind": "orders", "unit": "A/116"}
        st.queue = ["A/116"]
    assert st.invariants() == []
    there = {st.resample("US", seed).pos["R-Vierville"].unit for seed in SEEDS}
    assert len(there) > 2
