"""``omaha serve``: the JSON API on a real local server (no browser here; see
``tests/browser`` for clicks in a real one)."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from omaha.server import make_server
from omaha.session import Session


@pytest.fixture
def server() -> Iterator[str]:
    srv = make_server(Session("lnl", seed=1, bots={"German": "solitaire"}), port=0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    host, port = srv.server_address[:2]
    yield f"http://{host!s}:{port}"
    srv.shutdown()
    srv.server_close()


def call(url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
            status = response.status
    except urllib.error.HTTPError as err:
        text, status = err.read().decode(), err.code
    return status, json.loads(text) if text.startswith(("{", "[")) else text


def test_the_page_and_its_files_come_from_the_server_alone(server: str) -> None:
    status, page = call(server + "/")
    assert status == 200 and "<script src=\"/app.js\">" in page
    for asset in ("/app.js", "/style.css"):
        status, text = call(server + asset)
        assert status == 200 and "http://" not in text and "https://" not in text


def test_play_undo_save_and_load_through_the_api(server: str) -> None:
    status, games = call(server + "/api/games")
    lnl = next(g for g in games if g["name"] == "lnl")
    assert lnl["players"] == ["US", "German"] and "beach" in lnl["scenarios"]
    assert all(set(b["sides"]) <= set(lnl["players"]) and b["sides"] for b in lnl["bots"])
    status, state = call(server + "/api/state")
    assert status == 200 and state["you"] == "US" and state["svg"].startswith("<svg")
    assert state["choices"] and not state["can_undo"]
    texts = []
    for _ in range(5):
        status, state = call(server + "/api/choose", {"n": 1})
        assert status == 200
        texts.append(state["turn"])
    status, undone = call(server + "/api/undo", {})
    assert status == 200 and undone["can_undo"]
    status, record = call(server + "/api/record")
    assert status == 200 and record["format"] == "omaha-record"
    assert len(record["actions"]) >= 4
    status, loaded = call(server + "/api/load", {"record": json.dumps(record)})
    assert status == 200
    assert loaded["choices"] == undone["choices"] and loaded["log_total"] == undone["log_total"]


def test_mistakes_answer_400_with_a_message_and_change_nothing(server: str) -> None:
    _, before = call(server + "/api/state")
    for path, body, message in [
        ("/api/choose", {"n": 10_000}, "is not one of the choices offered"),
        ("/api/choose", {"text": "dance"}, "cannot read"),
        ("/api/undo", {}, "nothing of yours to undo"),
        ("/api/load", {"record": "not json"}, "is not JSON"),
        ("/api/new", {"game": "chess"}, "no game named 'chess'"),
        ("/api/new", {"game": "lnl", "bots": {"Martian": "random"}}, "has no side"),
    ]:
        status, answer = call(server + path, body)
        assert status == 400, path
        assert message in answer["error"], (path, answer)
    _, after = call(server + "/api/state")
    assert after == before


def test_a_new_game_of_another_design(server: str) -> None:
    status, state = call(server + "/api/new", {"game": "bloody", "seed": 3, "bots": {}})
    assert status == 200 and state["game"] == "bloody" and state["you"] == "US"
    assert 'data-cell="B1"' in state["svg"]
