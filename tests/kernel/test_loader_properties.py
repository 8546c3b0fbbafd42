"""Property tests of the kernel's loaders and label lookup against hostile input.

Whatever a file or a caller hands them, the loaders either succeed or raise
``ScenarioError`` (naming the file), and a board's label lookup either finds a
cell or raises ``LabelError``: never a ``KeyError``, ``TypeError``,
``AttributeError``, ``OverflowError`` or ``MemoryError``.
"""

from __future__ import annotations

import contextlib
import json
import math
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import omaha
from omaha.errors import ScenarioError
from omaha.kernel.board import Board
from omaha.kernel.boardfile import board_from_node, load_board
from omaha.kernel.data import Node, load_toml, parse_toml
from omaha.kernel.labels import LabelError, parse_letter_number, parse_map_col_row

TOY_MAP = Path(__file__).parents[1] / "conformance" / "toy" / "map.toml"


# --------------------------------------------------------------------------
# Writing generated data back as TOML (inline tables and arrays only)
# --------------------------------------------------------------------------
def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value))


def toml_key(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def to_toml(doc: dict[str, Any]) -> str:
    return "\n".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in doc.items()) + "\n"


def test_the_writer_round_trips_the_toy_map() -> None:
    doc = tomllib.loads(TOY_MAP.read_text())
    assert tomllib.loads(to_toml(doc)) == doc
    assert len(load_via_text(to_toml(doc))) == 30


def load_via_text(text: str) -> Board:
    return board_from_node(parse_toml(text, "gen.toml"))


def loads_or_refuses(text: str) -> Board | None:
    """The contract: a board, or a ScenarioError naming the file."""
    try:
        return load_via_text(text)
    except ScenarioError as exc:
        assert str(exc).startswith("gen.toml: "), str(exc)
        return None


# --------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------
labels = st.one_of(
    st.sampled_from(["A1", "a1", " B2 ", "E6", "Z99", "A0", "K4", "AA1", "A1.01", "B1.2", "C19"]),
    st.from_regex(r"[A-Ea-e]{1,2}[0-9]{1,3}", fullmatch=True),
    st.from_regex(r"[A-C][0-9]{1,2}\.[0-9]{1,2}", fullmatch=True),
    st.text(max_size=8),
)
scalars = st.one_of(
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.integers(-3, 40),
    st.floats(allow_nan=True, allow_infinity=True),
    labels,
    st.text(max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=10,
)
GOOD = "reconstructed: test"
sources = st.sampled_from([GOOD] * 40 + ["reconstructed:", "reconstructed test", "", "TCS 2.1"])
small = st.integers(0, 12)


@st.composite
def map_tables(draw: st.DrawFn) -> dict[str, Any]:
    """A mostly sound ``[map]`` table of one of the four kinds of board."""
    kind = draw(st.sampled_from(["letter-number", "map-col-row", "named-square", "named-hex"]))
    table: dict[str, Any] = {"id": "gen", "title": "Generated", "source": draw(sources)}
    if kind == "named-square":
        table.update(grid="square", labels="named")
    else:
        table.update(
            grid="hex",
            labels=kind.removeprefix("named-").replace("hex", "named"),
            orientation=draw(st.sampled_from(["flat", "pointy"])),
            offset=draw(st.sampled_from(["odd", "even"])),
        )
    if kind == "letter-number":
        r0, r1 = draw(st.sampled_from(["A", "B"])), draw(st.sampled_from(["C", "E", "AA", "A"]))
        table.update(rows=[r0, r1], columns=sorted([draw(small), draw(small)]))
    if kind == "map-col-row":
        table["sheets"] = [
            {
                "letter": letter,
                "origin": [draw(st.integers(-3, 20)), draw(st.integers(-3, 3))],
                "hexrows": sorted([draw(small), draw(small)]),
                "hexes": sorted([draw(small), draw(small)]),
            }
            for letter in draw(
                st.lists(st.sampled_from("ABC"), min_size=1, max_size=3, unique=True)
            )
        ]
    if draw(st.booleans()):
        table["default_terrain"] = draw(st.sampled_from(["open", "sea"]))
    return table


def scheme_labels(table: dict[str, Any]) -> st.SearchStrategy[str]:
    if table.get("labels") == "letter-number":
        grid = st.from_regex(r"[A-Ea-e][0-9]{1,2}", fullmatch=True)
    elif table.get("labels") == "map-col-row":
        grid = st.from_regex(r"[A-Ca-c][0-9]{1,2}\.[0-9]{1,2}", fullmatch=True)
    else:
        grid = st.from_regex(r"[A-E][0-9]", fullmatch=True)
    return st.one_of(grid, grid, grid, labels)


@st.composite
def board_docs(draw: st.DrawFn) -> dict[str, Any]:
    """A board file: mostly sound, with a few random changes."""
    table = draw(map_tables())
    named = table["labels"] == "named"
    lab = scheme_labels(table)
    ranges = st.builds(lambda a, b: f"{a}..{b}", lab, lab)
    at = st.one_of(lab, st.lists(st.one_of(lab, ranges), max_size=4))

    def cell(label: str) -> dict[str, Any]:
        out: dict[str, Any] = {"source": draw(sources)}
        if named:
            out.update(label=label, xy=[draw(st.integers(-3, 8)), draw(st.integers(-3, 8))])
        else:
            out["at"] = draw(at)
        out["terrain"] = draw(st.sampled_from(["open", "beach", "woods"]))
        if draw(st.booleans()):
            out["features"] = draw(st.lists(st.sampled_from(["road", "objective"]), max_size=2))
        if draw(st.booleans()):
            out["props"] = {"tide": draw(st.one_of(st.integers(0, 3), st.text(max_size=3)))}
        if not named and draw(st.integers(0, 4)) == 0:
            out["absent"] = True
        return out

    doc: dict[str, Any] = {
        "map": table,
        "cells": [cell(draw(lab)) for _ in range(draw(st.integers(0 if not named else 1, 6)))],
    }
    known = [c["label"] for c in doc["cells"] if "label" in c] or [draw(lab), draw(lab)]
    near = st.one_of(st.sampled_from(known), lab)
    if draw(st.booleans()):
        doc["hexsides"] = [
            {
                "sides": draw(st.lists(st.lists(near, min_size=2, max_size=2), max_size=3)),
                "feature": "crest",
                "up": draw(st.sampled_from(["first", "second"])),
                "source": draw(sources),
            }
        ]
    if draw(st.booleans()):
        doc["boxes"] = [
            {
                "id": draw(st.sampled_from(["box", "dead"])),
                "links": draw(st.lists(near, max_size=3)),
                "source": draw(sources),
            }
            for _ in range(draw(st.integers(1, 2)))
        ]
    if draw(st.booleans()):
        ends = st.one_of(near, st.sampled_from(["box", "dead"]))
        doc["links"] = [
            {"kind": "arrow", "start": draw(ends), "end": draw(ends), "source": draw(sources)}
        ]
    if draw(st.booleans()):
        doc["terrain"] = {"beach": {"colour": "#e9dca8"}}
    for _ in range(draw(st.integers(0, 2))):
        doc = mutations(doc, draw)
    return doc


def mutations(doc: Any, draw: st.DrawFn, depth: int = 0) -> Any:
    """``doc`` with a few random changes: keys dropped, values replaced or duplicated."""
    if isinstance(doc, dict) and doc:
        out = dict(doc)
        key = draw(st.sampled_from(sorted(out)))
        action = draw(st.sampled_from(["recurse", "recurse", "drop", "replace"]))
        if action == "drop":
            del out[key]
        elif action == "replace":
            out[key] = draw(values)
        else:
            out[key] = mutations(out[key], draw, depth + 1)
        return out
    if isinstance(doc, list) and doc:
        out_list = list(doc)
        i = draw(st.integers(0, len(out_list) - 1))
        action = draw(st.sampled_from(["recurse", "recurse", "drop", "duplicate", "replace"]))
        if action == "drop":
            del out_list[i]
        elif action == "duplicate":
            out_list.insert(i, out_list[i])
        elif action == "replace":
            out_list[i] = draw(values)
        else:
            out_list[i] = mutations(out_list[i], draw, depth + 1)
        return out_list
    return draw(st.one_of(values, st.just(doc)))


TOY_DOC = tomllib.loads(TOY_MAP.read_text())


@st.composite
def mutated_toy_maps(draw: st.DrawFn) -> dict[str, Any]:
    doc = TOY_DOC
    for _ in range(draw(st.integers(1, 3))):
        doc = mutations(doc, draw)
    assert isinstance(doc, dict)
    return doc


# --------------------------------------------------------------------------
# Boards from generated files
# --------------------------------------------------------------------------
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board_docs())
def test_generated_board_files_load_or_raise_scenario_error(doc: dict[str, Any]) -> None:
    board = loads_or_refuses(to_toml(doc))
    if board is not None:
        for i in range(len(board)):
            assert board.cell(board.label(i)) == i


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_toy_maps())
def test_mutated_toy_maps_load_or_raise_scenario_error(doc: dict[str, Any]) -> None:
    board = loads_or_refuses(to_toml(doc))
    if board is not None:
        assert all(board.cell(board.label(i)) == i for i in range(len(board)))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_loads_or_raises_scenario_error(text: str) -> None:
    loads_or_refuses(text)
    loads_or_refuses(to_toml(dict(TOY_DOC)) + text)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=120))
def test_any_bytes_in_a_file_load_or_raise_scenario_error(
    tmp_path_factory: Any, raw: bytes
) -> None:
    path = tmp_path_factory.mktemp("raw") / "raw.toml"
    path.write_bytes(raw)
    try:
        load_board(path)
    except ScenarioError as exc:
        assert exc.file == "raw.toml"


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('[map]\ntitle = "Sainte-Mère-Église"\n'.encode("latin-1"))
    with pytest.raises(
        ScenarioError, match=r"^latin1\.toml: is not UTF-8 text \(byte 0xe8 on line 2\)"
    ):
        load_toml(path)
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + TOY_MAP.read_bytes())
    assert len(load_board(bom)) == 30


def test_unreadable_paths_are_named(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"^nothere\.toml: cannot be read"):
        load_toml(tmp_path / "nothere.toml")
    with pytest.raises(ScenarioError, match=r"cannot be read"):
        load_toml(tmp_path)


def test_huge_boards_and_coordinates_are_refused() -> None:
    doc = dict(TOY_DOC, map=dict(TOY_DOC["map"], columns=[1, 10**9]))
    with pytest.raises(ScenarioError, match=r"map\.columns"):
        load_via_text(to_toml(doc))
    doc = dict(TOY_DOC, map=dict(TOY_DOC["map"], rows=["A", "Z" * 40], columns=[1, 5000]))
    with pytest.raises(ScenarioError, match=r"map\.rows: rows x columns give more than 100000"):
        load_via_text(to_toml(doc))
    doc = dict(TOY_DOC, map=dict(TOY_DOC["map"], columns=[2**64, 2**64 + 1]))
    with pytest.raises(ScenarioError, match=r"map\.columns"):
        load_via_text(to_toml(doc))


def test_a_cell_removed_twice_is_named() -> None:
    doc = dict(TOY_DOC, cells=[{"at": ["C3", "C3"], "absent": True, "source": "reconstructed: t"}])
    with pytest.raises(ScenarioError, match=r"cells\[0\]\.at\[1\]: 'C3' is listed twice"):
        load_via_text(to_toml(doc))


# --------------------------------------------------------------------------
# Node: every accessor on any value
# --------------------------------------------------------------------------
ACCESSORS = (
    lambda n: n.as_str(),
    lambda n: n.as_int(),
    lambda n: n.as_bool(),
    lambda n: n.as_number(),
    lambda n: n.as_list(),
    lambda n: n.as_str_list(),
    lambda n: n.as_int_list(),
    lambda n: n.as_choice(["a", "b"]),
    lambda n: n.as_int_in(0, 10),
    lambda n: n.source(),
    lambda n: n.req("x"),
    lambda n: n.get("x"),
    lambda n: n.keys(),
    lambda n: list(n.items()),
    lambda n: n.only(["a"]),
    lambda n: n.has("a"),
)


@given(values, st.sampled_from(range(len(ACCESSORS))))
def test_node_accessors_raise_only_scenario_errors(value: Any, which: int) -> None:
    node = Node(value, "gen.toml", "top")
    try:
        ACCESSORS[which](node)
    except ScenarioError as exc:
        assert str(exc).startswith("gen.toml: top")


# --------------------------------------------------------------------------
# Labels: any object names a cell or is a LabelError
# --------------------------------------------------------------------------
hostile = st.one_of(
    labels,
    st.text(),
    st.none(),
    st.integers(),
    st.floats(),
    st.binary(max_size=6),
    st.lists(labels, max_size=2),
    st.dictionaries(labels, labels, max_size=2),
    st.tuples(labels),
    st.booleans(),
    st.just(" " * 5),
    st.just("A" * 10_000),
)


def shipped_boards() -> list[Board]:
    boards = {TOY_MAP.name: load_board(TOY_MAP)}
    for name in omaha.games():
        game = omaha.load(name)
        for scenario in game.scenarios():
            board = game.load_scenario(scenario).board
            boards[board.id] = board
    return list(boards.values())


BOARDS = shipped_boards()


@pytest.mark.parametrize("board", BOARDS, ids=[b.id for b in BOARDS])
@given(label=hostile)
def test_any_label_is_a_cell_or_a_label_error(board: Board, label: Any) -> None:
    try:
        idx = board.cell(label)
    except LabelError as exc:
        assert not board.has(label)
        assert "Traceback" not in str(exc) and len(str(exc)) < 200
        return
    assert board.has(label)
    assert board.cell(board.label(idx)) == idx


@pytest.mark.parametrize("board", BOARDS, ids=[b.id for b in BOARDS])
def test_every_label_and_its_variants_name_their_cell(board: Board) -> None:
    for i, label in enumerate(board.labels):
        assert board.cell(label) == i
        assert board.cell(f"  {label.lower()}\t") == i
    for bad in ("", "   ", "Z99", "Q1.01", "\x00", "K\u0664", "A" * 41):
        assert not board.has(bad)


@given(hostile)
def test_label_parsers_raise_only_label_errors(label: Any) -> None:
    from omaha.kernel.labels import Sheet

    for parse in (parse_letter_number, lambda t: parse_map_col_row(t, {"A": Sheet("A", 0, 0)})):
        with contextlib.suppress(LabelError):
            parse(label)
