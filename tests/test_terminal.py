"""Playing at the terminal: the menu, help, undo, map, log and show, over a Session."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import omaha
from omaha.session import Session
from omaha.terminal import Terminal, help_text, menu, position_text


def run(session: Session, typed: str, width: int = 80) -> tuple[bool, str]:
    out = io.StringIO()
    finished = Terminal(session, io.StringIO(typed), out, width=width).play()
    return finished, out.getvalue()


def test_a_long_run_of_choices_is_shown_in_columns_under_its_stem() -> None:
    session = Session("lnl", seed=1, bots={"German": "solitaire"})
    choices = session.choices()
    lines = menu(choices, width=60)
    assert lines[0] == "     1. plan: shipped US set-up"  # the whole set-up, one choice
    places = choices[1:]
    assert lines[1] == f"  place 1/B/116 at … (2-{len(choices)})"
    assert lines[2].split() == ["2", "L1", "3", "L2", "4", "L3", "5", "L4", "6", "L5"]
    assert all(len(line) <= 60 for line in lines)
    shown = " ".join(lines[2:]).split()
    assert shown[1::2] == [c.text.rsplit(" ", 1)[1] for c in places]  # L1 L2 ... L10, natural
    assert shown[0::2] == [str(c.number) for c in places]


def test_a_short_run_is_listed_one_a_line() -> None:
    session = Session("bloody", seed=1)
    assert menu(session.choices()) == [
        "     1. return c01",
        "     2. return c06",
        "     3. return c09",
    ]


def test_help_explains_each_form_on_offer_with_an_example_from_the_choices() -> None:
    session = Session("bloody", seed=1)
    text = help_text(session.choices())
    assert "undo" in text and "map FILE" in text and "log [N]" in text
    assert "return {card}" in text and "(3 choices, 1-3)" in text
    assert "4.5: shuffle one of the three set-up cards back" in text  # the class's docstring
    assert "{card}: c01, c06, c09" in text
    assert "e.g. 1, or: return c01" in text
    lnl = Session("lnl", seed=1, bots={"German": "solitaire"})
    text = help_text(lnl.choices())
    assert "place {unit} at {hex}" in text and "{unit}: 1/B/116" in text
    assert "{hex}: L1, L2, L3, L4, L5, … L18 (18 in all)" in text


def test_the_position_dump_lists_places_in_natural_order() -> None:
    session = Session("bloody", seed=1)
    text = position_text(session.state.view("US"))
    places = [line.split(":")[0].strip() for line in text.splitlines() if line[2:3] in "BCHS"]
    c_rows = [p for p in places if p.startswith("C") and p[1:].isdigit()]
    assert c_rows == sorted(c_rows, key=lambda p: int(p[1:])) and "C2" in c_rows
    assert c_rows.index("C2") < c_rows.index("C11")


def test_after_a_move_only_a_short_summary_and_what_changed() -> None:
    session = Session("bloody", seed=1)
    finished, out = run(session, "1\nq\n")
    assert not finished
    second = out.split("US> ", 1)[1]
    assert second.lstrip().startswith(
        "── Turn 2 · Random Event ── US to decide: choose the squares"
    )
    assert "Since your last decision:" in second
    assert "earlier lines ('log " in second  # a whole turn of landings, trimmed
    changed = [line for line in second.splitlines() if line.startswith("  [Turn ")]
    assert 0 < len(changed) <= 15
    assert "Strongpoint token" not in second  # no full position dump unless asked


def test_undo_log_show_and_map_at_the_prompt(tmp_path: Path) -> None:
    session = Session("lnl", seed=1, bots={"German": "solitaire"})
    picture = tmp_path / "here.svg"
    typed = (
        # 4: the third placement (1 is the shipped US set-up, offered as one plan)
        f"4\nundo\nundo\nlog 2\nlog x\nshow\nmap {picture}\nmap {tmp_path}/no/such.svg\n"
        f"map {tmp_path}/x.pdf\nmap\nfly to the moon\n\nq\n"
    )
    finished, out = run(session, typed)
    assert not finished
    assert "took back 'place 1/B/116 at L3'" in out
    assert "there is nothing of yours to undo" in out
    log_lines = out.split("US> ")[4].splitlines()
    assert log_lines[:2] == [str(e) for e in session.state.log[-2:]]
    assert "log takes a number of lines (1 or more), not 'x'" in out
    assert "German:88mm-Gun" in out  # show: the whole position
    assert picture.read_text().startswith("<svg") and 'class="piece"' in picture.read_text()
    assert f"wrote {picture} (Set-up, set-up)" in out
    assert "the folder" in out and "does not exist" in out
    assert "cannot write a .pdf file; give a .svg or .png file" in out
    assert "map needs a file name" in out
    assert "illegal: cannot read 'fly to the moon'" in out
    assert session.deciders == ("German",)  # all of the US decisions were taken back


def test_map_writes_png_when_the_name_says_so(tmp_path: Path) -> None:
    pytest.importorskip("resvg_py")
    session = Session("bloody", seed=1)
    run(session, f"map {tmp_path / 'b.png'}\nq\n")
    assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_map_png_without_the_extra_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "resvg_py", None)  # as if not installed
    session = Session("bloody", seed=1)
    _, out = run(session, f"map {tmp_path / 'b.png'}\nq\n")
    assert "pip install 'omaha[png]'" in out and not (tmp_path / "b.png").exists()


def test_bots_only_print_the_log_as_it_grows_and_reach_the_end() -> None:
    session = Session("bloody", seed=2, bots={"US": "heuristic"}, autoplay=False)
    finished, out = run(session, "")
    assert finished and session.state.is_terminal()
    assert out.splitlines() == session.state.log_text().splitlines()


def test_whole_plans_are_one_choice_and_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that offers a whole plan (State.plans) shows it as one choice first."""
    game = omaha.load("bloody")
    session = Session(game, seed=1)
    plan = session.choices()[-1].action
    monkeypatch.setattr(type(session.state), "plans", lambda self: {"mine": plan})
    choices = session.choices()
    assert choices[0].plan == "mine" and choices[0].text == "plan: mine"
    assert "plan: mine" in menu(choices)[0]
    assert "a whole plan in one step; e.g. 1, or: return c09" in help_text(choices)


def test_unreadable_text_names_only_the_forms_on_offer_now() -> None:
    session = Session("lnl", seed=1, bots={"German": "solitaire"})
    _, out = run(session, "foo bar\nquit\n")
    line = next(x for x in out.splitlines() if "illegal" in x)
    n = len(session.choices())
    assert line.endswith(
        f"illegal: cannot read 'foo bar'; type a number from 1 to {n}, "
        "or: a whole plan; place {unit} at {hex}"
    )
    assert "resolve" not in line and "fire with" not in line  # not on offer at set-up
    with pytest.raises(omaha.UnreadableAction) as caught:  # the API's own error: every form
        session.game.parse_action("foo bar")
    assert caught.value.text == "foo bar" and "resolve" in str(caught.value)


@pytest.mark.parametrize("typed", ["-1", "+3", "1.5", ".5", "0"])
def test_a_number_that_is_no_choice_names_the_range(typed: str) -> None:
    session = Session("bloody", seed=1)
    _, out = run(session, f"{typed}\nquit\n")
    assert f"illegal: {typed} is not one of the choices offered (1 to 3)" in out


def test_quit_says_where_the_game_stopped_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from omaha import cli

    record = tmp_path / "r.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nquit\n"))
    assert cli.main(["play", "lnl", "--record", str(record), "--quiet"]) == 0
    tail = capsys.readouterr().out.splitlines()[-2:]
    assert "game abandoned at Set-up" in tail[0] and tail[0].endswith("after 1 decision")
    assert tail[1] == (
        f"game record saved to {record} ('omaha replay {record}' shows its metrics so far)"
    )


def test_question_mark_n_and_help_n_tell_what_a_choice_does() -> None:
    session = Session("bloody", seed=1)
    title = session.state.scen.cards["c01"].title
    _, out = run(session, "?1\nhelp 2\n? 9\nhelp x\nq\n")
    assert "1. return c01" in out and f"c01 {title}" in out and "option 1:" in out
    assert "2. return c06" in out
    assert "9 is not one of the choices offered (1 to 3)" in out
    assert "help takes a choice's number (1 to 3), not 'x'" in out
