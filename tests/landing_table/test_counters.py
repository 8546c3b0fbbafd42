"""D-Day at Omaha Beach counters as a wargamer reads them (issue 16): the NATO symbol
and size of each counter, attack strength - range and the target symbol (the charts'
"9-2"), steps as pips, status markers the renderer knows, face-down German counters
showing only their back in the US view."""

from __future__ import annotations

from omaha.kernel.svg import render_view
from omaha.kernel.svg.counters import FRAMELESS, SYMBOLS
from omaha.kernel.svg.palette import MARKER_STYLE
from omaha.kernel.view import Piece
from omaha.landing_table.core import Phase

from .helpers import fresh, place, quiet


def piece(pieces: tuple[Piece, ...], pid: str) -> Piece:
    return next(p for p in pieces if p.id == pid)


def test_us_counters_print_symbol_size_strength_range_and_target_symbol() -> None:
    s = quiet(fresh("omaha"), turn=10)
    place(s, "A/116", "H10")
    place(s, "D/116", "H11", steps=1, disrupted=True)
    place(s, "B/743", "H12")
    place(s, "Cota", "H10")
    pieces = s.view("US").pieces
    company, heavy, tanks, cota = (piece(pieces, u) for u in ("A/116", "D/116", "B/743", "Cota"))
    assert (company.kind, company.echelon, company.values) == ("infantry", "I", "4-1 ○")
    assert company.steps == (2, 2) and company.marks == ()
    # a reduced 9-2 is 4-1 (US Weapons Chart note; READINGS "Reduced 9-2 range")
    assert (heavy.kind, heavy.values, heavy.steps) == ("machine_gun", "4-1 □", (1, 2))
    assert heavy.marks == ("disrupted",)
    assert (tanks.kind, tanks.values) == ("armour", "6-4 ○")
    assert (cota.kind, cota.echelon, cota.values, cota.steps) == ("leader", "XX", "", None)
    assert all(p.kind in SYMBOLS or p.kind in FRAMELESS for p in pieces)
    assert all(m in MARKER_STYLE for p in pieces for m in p.marks)


def test_naval_fire_markers_are_ships_marked_once_they_have_fired() -> None:
    s = quiet(fresh("omaha"), turn=10)
    with s.edit():
        s.current_phase = Phase.US_ACTION
        s.naval_used = {"NF1"}
    pieces = s.view("US").pieces
    nf1, nf2 = piece(pieces, "NF1"), piece(pieces, "NF2")
    assert (nf1.kind, nf1.where, nf1.marks) == ("boat", "naval", ("fired",))
    assert nf2.marks == () and nf2.values == f"{s.scen.naval_attack} □"


def test_german_counters_print_defence_and_required_weapons() -> None:
    s = fresh("omaha")
    with s.edit():
        s.ger["WN70"].disrupted = True
        s.pos["WN72"].depth_revealed = True
    us, everyone = s.view("US").pieces, s.view(None).pieces
    wn = piece(us, "WN70")
    assert (wn.kind, wn.values, wn.marks) == ("fortification", "16 BG MO", ("disrupted",))
    depth = piece(us, "depth@WN72")
    assert (depth.hidden, depth.kind, depth.values) == (False, "marker", s.pos["WN72"].depth)
    # face down: the US sees the back; the observer sees the face, marked face down
    hidden = piece(us, "German@R-Hamel#1")
    assert hidden.hidden and hidden.name == "German unit" and hidden.values == ""
    seen = piece(everyone, "6/916")
    assert (seen.kind, seen.echelon, seen.marks) == ("infantry", "I", ("face_down",))
    assert (piece(everyone, "Fus/352").kind, piece(everyone, "Pi/352").kind) == (
        "recon",
        "engineer",
    )


def test_the_us_picture_never_names_a_face_down_unit() -> None:
    s = fresh("omaha")
    us_svg, all_svg = render_view(s.view("US")), render_view(s.view(None))
    for gid in ("6/916", "Fus/352", "5/915"):
        assert gid not in us_svg and gid in all_svg
    assert 'data-symbol="fortification"' in us_svg and 'data-symbol="armour"' in us_svg
