"""``omaha serve``: the JSON API on a real local server (no browser here; see
``tests/browser`` for clicks in a real one). Each hostile request of the server's
review is a test here, sent the way an attacker or a slow client would send it."""

from __future__ import annotations

import http.client
import json
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from omaha.kernel.svg import render_view
from omaha.server import make_server
from omaha.server.app import OmahaServer
from omaha.session import Session

TOKEN = "test-token-0123456789"


def start(**options: Any) -> OmahaServer:
    options.setdefault("token", TOKEN)
    srv = make_server(lambda: Session("lnl", seed=1, bots={"German": "solitaire"}), port=0,
                      **options)  # fmt: skip
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


@pytest.fixture
def server() -> Iterator[OmahaServer]:
    srv = start(io_timeout=1.0)
    yield srv
    srv.shutdown()
    srv.server_close()


class Browser:
    """A client that keeps its cookie, like a browser (one per person)."""

    def __init__(self, srv: OmahaServer, via: str = f"/?token={TOKEN}") -> None:
        self.port = srv.server_address[1]
        self.host = f"127.0.0.1:{self.port}"
        self.cookie = ""
        status, _, headers = self.call("GET", via)
        assert status == 303, (status, headers)
        set_cookie = headers["set-cookie"]
        assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
        self.cookie = set_cookie.split(";")[0]

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, dict[str, str]]:
        sent = {"Host": self.host}
        if self.cookie:
            sent["Cookie"] = self.cookie
        raw = None
        if body is not None:
            raw = body if isinstance(body, bytes) else json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request(method, path, body=raw, headers=sent)
        response = connection.getresponse()
        text = response.read().decode()
        got = {k.lower(): v for k, v in response.getheaders()}
        connection.close()
        data = json.loads(text) if got.get("content-type") == "application/json" else text
        return response.status, data, got

    def state(self) -> dict[str, Any]:
        status, data, _ = self.call("GET", "/api/state")
        assert status == 200, data
        return data  # type: ignore[no-any-return]

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        status, data, _ = self.call("POST", path, body)
        return status, data


def same_game(a: dict[str, Any], b: dict[str, Any]) -> bool:
    keys = ("version", "log_total", "choices", "turn", "phase", "game", "can_undo")
    return all(a[k] == b[k] for k in keys)


# -- the page and its token -----------------------------------------------------------
def test_the_page_needs_the_token_and_its_files_come_from_the_server_alone(
    server: OmahaServer,
) -> None:
    port = server.server_address[1]
    assert server.url == f"http://127.0.0.1:{port}/?token={TOKEN}"
    anyone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    anyone.request("GET", "/")
    assert anyone.getresponse().status == 401
    anyone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    anyone.request("GET", "/?token=guess")
    assert anyone.getresponse().status == 401
    you = Browser(server)
    status, page, _ = you.call("GET", "/")
    assert status == 200 and '<script src="/app.js">' in page
    for asset in ("/app.js", "/style.css"):
        status, text, _ = you.call("GET", asset)
        assert status == 200 and "http://" not in text and "https://" not in text


def test_a_request_without_the_token_or_cookie_is_refused(server: OmahaServer) -> None:
    you = Browser(server)
    before = you.state()
    before_cookie, you.cookie = you.cookie, ""
    for method, path, body in [
        ("GET", "/api/state", None),
        ("GET", "/api/record", None),
        ("POST", "/api/choose", {"n": 1}),
        ("POST", "/api/new", {"game": "bloody"}),
    ]:
        status, answer, _ = you.call(method, path, body)
        assert status == 401 and "token" in answer["error"], (path, answer)
    you.cookie = "omaha-1=forged"
    assert you.call("GET", "/api/state")[0] == 401
    # the token in a header works for a script, and gives it a cookie of its own
    status, _, headers = you.call("GET", "/api/state", headers={"Authorization": f"token {TOKEN}"})
    assert status == 200 and "set-cookie" in headers
    assert len(server.store.tables) == 2  # the script's game, not the first browser's
    you.cookie = ""
    status, _, _ = you.call("GET", "/api/state", headers={"Authorization": "token nope"})
    assert status == 401
    assert len(server.store.tables) == 2
    you.cookie = before_cookie
    assert same_game(you.state(), before)


def test_cross_origin_rebinding_and_text_plain_posts_are_refused(server: OmahaServer) -> None:
    you = Browser(server)
    before = you.state()
    for headers, status in [
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Sec-Fetch-Site": "cross-site"}, 403),
        ({"Host": f"evil.example:{you.port}"}, 403),  # DNS rebinding: another name
        ({"Content-Type": "text/plain"}, 415),  # what a form on any page can send
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ]:
        got, answer, _ = you.call("POST", "/api/choose", {"n": 1}, headers)
        assert got == status, (headers, answer)
    got, _, _ = you.call("GET", "/api/state", headers={"Host": f"evil.example:{you.port}"})
    assert got == 403
    # the page's own requests pass
    got, _, _ = you.call("POST", "/api/choose", {"n": 1}, {"Origin": f"http://{you.host}"})
    assert got == 200
    after = you.state()
    assert after["log_total"] > before["log_total"]


def test_ill_typed_bodies_answer_400_change_nothing_and_log_no_traceback(
    server: OmahaServer, capfd: pytest.CaptureFixture[str]
) -> None:
    you = Browser(server)
    before = you.state()
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    cases: list[tuple[str, Any, str]] = [
        ("/api/choose", b'{"n": null}', "whole number, not null"),
        ("/api/choose", b'{"n": [1]}', "not a list"),
        ("/api/choose", b'{"n": 1e999}', "not infinity"),
        ("/api/choose", b'{"n": true}', "not true"),
        ("/api/choose", b'{"n": 1.5}', "not a fraction"),
        ("/api/choose", b'{"n": NaN}', "not a JSON number"),
        ("/api/choose", b'{"n": ' + b"9" * 5000 + b"}", "not JSON"),
        ("/api/choose", b'{"n": 1, "text": "end"}', "or 'text'"),
        ("/api/choose", b'{"m": 1}', "unknown field"),
        ("/api/choose", b'{"text": 5}', "must be a string"),
        ("/api/choose", b"[1]", "must be a JSON object"),
        ("/api/choose", b"\xff\xfe", "not UTF-8"),
        ("/api/choose", deep, "nested too deeply"),
        ("/api/choose", b'{"n": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deeply"),
        ("/api/new", b'{"seed": [1]}', "'seed' must be a whole number"),
        ("/api/new", b'{"seed": -1}', "between 0 and"),
        ("/api/new", b'{"seed": true}', "not true"),
        ("/api/new", b'{"bots": [1, 2]}', "'bots' must be an object"),
        ("/api/new", b'{"bots": {"US": 1}}', "to a bot's name"),
        ("/api/new", b'{"bots": {"US": "solitaire"}}', "does not play US"),
        ("/api/new", b'{"game": ["lnl"]}', "must be a string"),
        ("/api/new", b'{"human": "Martian"}', "has no side"),
        ("/api/undo", b'{"n": 1}', "unknown field"),
        ("/api/load", b'{"record": {"a": 1}}', "must be a string"),
        ("/api/invite", b'{"side": null}', "is not a side a person plays"),
    ]
    for path, body, message in cases:
        status, answer = you.post(path, body)
        assert status == 400, (path, body[:40], answer)
        assert message in answer["error"], (path, body[:40], answer)
    after = you.state()
    assert same_game(before, after)
    assert len(server.store.tables) == 1
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error" not in err


def test_mistakes_in_play_answer_400_with_a_message_and_change_nothing(
    server: OmahaServer,
) -> None:
    you = Browser(server)
    before = you.state()
    for path, body, message in [
        ("/api/choose", {"n": 10_000}, "is not one of the choices offered"),
        ("/api/choose", {"text": "dance"}, "cannot read"),
        ("/api/undo", {}, "nothing of yours to undo"),
        ("/api/load", {"record": "not json"}, "is not JSON"),
        ("/api/new", {"game": "chess"}, "no game named 'chess'"),
        ("/api/new", {"game": "lnl", "bots": {"Martian": "random"}}, "has no side"),
    ]:
        status, answer = you.post(path, body)
        assert status == 400, path
        assert message in answer["error"], (path, answer)
    assert same_game(before, you.state())


def test_content_length_missing_negative_or_too_large(server: OmahaServer) -> None:
    you = Browser(server)
    before = you.state()

    def raw(head: str) -> bytes:
        with socket.create_connection(("127.0.0.1", you.port), timeout=10) as sock:
            sock.sendall(head.encode())
            return sock.recv(4096)

    base = f"POST /api/choose HTTP/1.1\r\nHost: {you.host}\r\nCookie: {you.cookie}\r\n"
    base += "Content-Type: application/json\r\n"
    assert raw(base + "\r\n").startswith(b"HTTP/1.0 411")
    assert raw(base + "Content-Length: -1\r\n\r\n").startswith(b"HTTP/1.0 400")
    assert raw(base + "Content-Length: 1x\r\n\r\n").startswith(b"HTTP/1.0 400")
    assert raw(base + "Content-Length: 999999999999\r\n\r\n").startswith(b"HTTP/1.0 413")
    assert same_game(before, you.state())


def test_a_half_sent_body_holds_no_one_else_up(server: OmahaServer) -> None:
    you = Browser(server)
    other = Browser(server)
    slow = socket.create_connection(("127.0.0.1", you.port), timeout=10)
    head = (
        f"POST /api/choose HTTP/1.1\r\nHost: {you.host}\r\nCookie: {you.cookie}\r\n"
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    slow.sendall(head.encode())  # ... and the other 99 bytes never come
    time.sleep(0.2)
    for client in (you, other):  # the same browser's game, and another's
        began = time.monotonic()
        assert client.call("GET", "/api/state")[0] == 200
        assert time.monotonic() - began < 2.0
    assert slow.recv(4096).startswith(b"HTTP/1.0 408")  # after the 1 s socket timeout
    slow.close()


def test_twenty_clients_at_once_are_all_answered(server: OmahaServer) -> None:
    you = Browser(server)
    statuses: list[int] = []

    def get() -> None:
        statuses.append(you.call("GET", "/api/state")[0])

    threads = [threading.Thread(target=get) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert statuses == [200] * 20


# -- each browser its own game ----------------------------------------------------------
def test_two_browsers_play_two_games_without_touching_each_other(server: OmahaServer) -> None:
    a, b = Browser(server), Browser(server)
    status, bloody = a.post("/api/new", {"game": "bloody", "seed": 3, "bots": {}})
    assert status == 200 and bloody["game"] == "bloody" and 'data-cell="B1"' in bloody["svg"]
    lnl = b.state()
    assert lnl["game"] == "lnl"
    for _ in range(3):
        assert b.post("/api/choose", {"n": 1})[0] == 200
    assert same_game(a.state(), bloody) and a.state()["game"] == "bloody"
    assert a.post("/api/undo", {})[1]["error"] == "there is nothing of yours to undo"
    status, undone = b.post("/api/undo", {})
    assert status == 200 and undone["can_undo"]
    assert same_game(a.state(), bloody)


def test_play_undo_save_and_load_through_the_api(server: OmahaServer) -> None:
    you = Browser(server)
    status, games, _ = you.call("GET", "/api/games")
    lnl = next(g for g in games if g["name"] == "lnl")
    assert lnl["players"] == ["US", "German"] and "beach" in lnl["scenarios"]
    state = you.state()
    assert state["you"] == "US" and state["svg"].startswith("<svg") and state["sides"] == ["US"]
    assert state["choices"] and not state["can_undo"]
    for _ in range(5):
        assert you.post("/api/choose", {"n": 1})[0] == 200
    status, undone = you.post("/api/undo", {})
    assert status == 200 and undone["can_undo"]
    status, record, _ = you.call("GET", "/api/record")
    assert status == 200 and record["format"] == "omaha-record"
    assert len(record["actions"]) >= 4
    status, loaded = you.post("/api/load", {"record": json.dumps(record)})
    assert status == 200
    assert loaded["choices"] == undone["choices"] and loaded["log_total"] == undone["log_total"]


def test_the_svg_is_sent_only_when_the_board_changed(server: OmahaServer) -> None:
    you = Browser(server)
    first = you.state()
    etag = first["svg_etag"]
    status, again, _ = you.call("GET", "/api/state", headers={"X-Omaha-SVG": etag})
    assert status == 200 and "svg" not in again and again["svg_etag"] == etag
    status, same, _ = you.call("GET", f"/api/state?since={first['version']}")
    assert same == {"version": first["version"], "unchanged": True}
    status, moved, _ = you.call("POST", "/api/choose", {"n": 1}, {"X-Omaha-SVG": etag})
    assert moved["version"] != first["version"]
    assert ("svg" in moved) == (moved["svg_etag"] != etag)
    if "svg" in moved:
        assert moved["svg"] != first["svg"]


def test_each_choice_carries_its_facts_and_the_reply_where_the_seen_pieces_stand() -> None:
    """What the page draws on the map: each choice's facts (state.facts, chances as
    floats summing to 1) and the hex of every piece the player sees, none hidden."""
    srv = make_server(lambda: Session("tcs", "e1-draw", seed=7, bots={"German": "heuristic"}),
                      port=0, token=TOKEN)  # fmt: skip
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        you = Browser(srv)
        now = you.state()
        table = next(iter(srv.store.tables.values()))
        session = table.session
        rng = random.Random(3)
        for _ in range(400):  # to a fire with odds
            if any(c["facts"]["chances"] for c in now["choices"]):
                break
            aims = [c["n"] for c in now["choices"]
                    if c["text"].split()[0] in ("fire", "target", "with", "every")]  # fmt: skip
            n = aims[0] if aims and rng.random() < 0.8 else rng.choice(now["choices"])["n"]
            status, now = you.post("/api/choose", {"n": n})
            assert status == 200, now
        with table.lock:
            state = session.state
            for c, choice in zip(now["choices"], session.choices(), strict=True):
                facts = state.facts(choice.action)
                assert c["facts"]["lines"] == list(facts.lines)
                assert c["facts"]["chances"] == [[r, float(p)] for r, p in facts.chances]
            seen = {p.id: p for p in state.view("US").pieces}
        fire = [c for c in now["choices"] if c["facts"]["chances"]]
        assert fire and all(abs(sum(p for _, p in c["facts"]["chances"]) - 1) < 1e-9 for c in fire)
        assert now["places"] and all(not seen[pid].hidden and seen[pid].where == cell
                                     for pid, cell in now["places"].items())  # fmt: skip
    finally:
        srv.shutdown()
        srv.server_close()


def test_step_through_the_game_so_far_position_by_position(server: OmahaServer) -> None:
    you = Browser(server)
    for _ in range(3):
        status, now = you.post("/api/choose", {"n": 2})
        assert status == 200, now
    table = next(iter(server.store.tables.values()))
    with table.lock:
        actions = list(table.session.state.actions)
        replay = table.session.start_position()
    assert now["actions"] == len(actions) >= 3
    for k in (0, 1, len(actions) - 1, 1, len(actions)):  # back and forth, and to the end
        status, step, _ = you.call("GET", f"/api/step?k={k}")
        assert status == 200 and step["k"] == k and step["total"] == len(actions)
        expected = replay.clone()
        for action in actions[:k]:
            expected.apply(action)
        assert step["svg"] == render_view(expected.view("US"))
        assert step["turn"] == expected.turn_label and step["phase"] == expected.phase
    status, step, _ = you.call("GET", "/api/step?k=999999")
    assert status == 200 and step["k"] == len(actions)  # past the end: the position now
    for bad in ("-1", "x", "1" * 12, ""):
        status, data, _ = you.call("GET", f"/api/step?k={bad}")
        assert status == 400 and "step takes k" in data["error"]
    assert you.state()["version"] == now["version"]  # stepping changes nothing


# -- two people, one game -------------------------------------------------------------
def test_two_browsers_play_one_game_by_invitation_each_seeing_its_own_side(
    server: OmahaServer,
) -> None:
    host = Browser(server)
    status, state = host.post("/api/new", {"game": "lnl", "seed": 2, "bots": {}})
    assert status == 200 and state["sides"] == ["US", "German"]
    status, invite = host.post("/api/invite", {"side": "German"})
    assert status == 200 and invite["invite"].startswith("/?invite=")
    guest = Browser(server, via=invite["invite"])
    # the invitation is used up
    assert guest.call("GET", invite["invite"])[0] == 403
    table = next(iter(server.store.tables.values()))
    views = {side: render_view(table.session.state.view(side)) for side in ("US", "German")}
    assert views["US"] != views["German"]
    mine, theirs = host.state(), guest.state()
    assert mine["sides"] == ["US"] and theirs["sides"] == ["German"]
    assert mine["svg"] == views["US"] and theirs["svg"] == views["German"]
    # the German decides first: only the guest gets the choices
    assert theirs["you"] == "German" and theirs["choices"]
    assert mine["you"] is None and mine["waiting_for"] == "German" and not mine["choices"]
    status, answer = host.post("/api/choose", {"n": 1})
    assert status == 403 and "German's decision" in answer["error"]
    assert guest.call("GET", "/api/record")[0] == 403  # it shows the other side's moves
    assert guest.post("/api/new", {"game": "bloody"})[0] == 403
    assert guest.post("/api/invite", {"side": "US"})[0] == 403
    assert guest.post("/api/choose", {"n": 1})[0] == 200
    mine, theirs = host.state(), guest.state()
    assert mine["you"] == "US" and mine["choices"] and theirs["waiting_for"] == "US"
    assert theirs["can_undo"] and not mine["can_undo"]
    assert host.post("/api/undo", {})[0] == 403
    assert guest.post("/api/choose", {"n": 1})[0] == 403
    assert host.post("/api/choose", {"n": 1})[0] == 200
    assert guest.state()["svg"] == render_view(table.session.state.view("German"))


# -- bounds ---------------------------------------------------------------------------
def test_browsers_are_dropped_when_idle_past_the_age() -> None:
    srv = start(max_age=0.5)
    try:
        you = Browser(srv)
        assert you.call("GET", "/api/state")[0] == 200
        time.sleep(0.8)
        status, answer, _ = you.call("GET", "/api/state")
        assert status == 401 and "open the link" in answer["error"]
        assert not srv.store.tables and not srv.store.browsers
    finally:
        srv.shutdown()
        srv.server_close()


def test_games_past_the_count_are_dropped_least_recently_used_first() -> None:
    srv = start(max_tables=2)
    try:
        first = Browser(srv)
        assert first.post("/api/choose", {"n": 1})[0] == 200
        played = first.state()
        others = [Browser(srv) for _ in range(2)]
        for other in others:
            other.state()
        assert len(srv.store.tables) == 2
        fresh = first.state()  # its game was dropped: a new one
        assert fresh["version"] != played["version"] and not fresh["can_undo"]
        assert len(srv.store.tables) == 2
    finally:
        srv.shutdown()
        srv.server_close()


# -- scenarios and records ------------------------------------------------------------
def test_scenarios_come_from_the_shipped_list_or_the_named_folder_only(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "offered"
    folder.mkdir()
    secret = tmp_path / "secret.toml"
    secret.write_text('[scenario]\ngame = "lnl"\nid = "x"\npassword = "hunter2"\n')
    (folder / "leak.toml").symlink_to(secret)  # a symlink out of the folder
    (folder / "broken.toml").write_text('[scenario]\ngame = "lnl"\nextends = "../secret.toml"\n')
    srv = start(scenarios=folder)
    try:
        you = Browser(srv)
        _, games, _ = you.call("GET", "/api/games")
        lnl = next(g for g in games if g["name"] == "lnl")
        assert lnl["scenarios"] == ["beach", "vierville", "broken.toml"]
        for name in (str(secret), "../secret.toml", "leak.toml", "~/.bashrc", "/etc/passwd"):
            status, answer = you.post("/api/new", {"game": "lnl", "scenario": name})
            assert status == 400 and "offers no scenario" in answer["error"], answer
            assert "hunter2" not in answer["error"]
        status, answer = you.post("/api/new", {"game": "lnl", "scenario": "broken.toml"})
        assert status == 400 and answer["error"].startswith("scenario 'broken.toml' cannot")
        assert "secret" not in answer["error"]
    finally:
        srv.shutdown()
        srv.server_close()
    assert "Traceback" not in capfd.readouterr().err


def test_a_folder_scenario_plays_and_its_record_loads_back(tmp_path: Path) -> None:
    folder = tmp_path / "offered"
    folder.mkdir()
    _write_starter(folder / "landing.toml")
    srv = start(scenarios=folder)
    try:
        you = Browser(srv)
        status, state = you.post("/api/new", {"game": "lnl", "scenario": "landing.toml"})
        assert status == 200 and state["scenario"] == "landing.toml", state
        assert you.post("/api/choose", {"n": 1})[0] == 200
        _, record, _ = you.call("GET", "/api/record")
        status, loaded = you.post("/api/load", {"record": json.dumps(record)})
        assert status == 200 and loaded["log_total"] == you.state()["log_total"]
    finally:
        srv.shutdown()
        srv.server_close()


def _write_starter(path: Path) -> None:
    """``omaha new lnl PATH``: a commented starter scenario."""
    subprocess.run(
        [sys.executable, "-m", "omaha", "new", "lnl", str(path.with_suffix(""))],
        check=True,
        capture_output=True,
    )


def test_loaded_records_name_only_offered_scenarios_and_are_bounded(server: OmahaServer) -> None:
    you = Browser(server)
    assert you.post("/api/choose", {"n": 1})[0] == 200
    _, record, _ = you.call("GET", "/api/record")
    before = you.state()
    for scenario, files in [("/etc/hostname", []), ("../../x.toml", [])]:
        forged = dict(record, scenario={"id": scenario, "hash": "0", "files": files})
        status, answer = you.post("/api/load", {"record": json.dumps(forged)})
        assert status == 400 and "does not offer" in answer["error"], answer
    embedded = dict(
        record,
        scenario={"id": "/tmp/mine.toml", "hash": "0",
                  "files": [{"name": "mine.toml", "text": 'extends = "/etc/passwd"'}]},
    )  # fmt: skip
    status, answer = you.post("/api/load", {"record": json.dumps(embedded)})
    assert status == 400 and "does not offer" in answer["error"]
    tampered = dict(record, actions=[*record["actions"], {"kind": "nonsense"}])
    status, answer = you.post("/api/load", {"record": json.dumps(tampered)})
    assert status == 400 and "the loaded record" in answer["error"]
    status, answer = you.post("/api/load", {"record": "[" * 100_000})
    assert status == 400
    with socket.create_connection(("127.0.0.1", you.port), timeout=10) as sock:
        sock.sendall(  # the answer comes before the body is sent
            f"POST /api/load HTTP/1.1\r\nHost: {you.host}\r\nCookie: {you.cookie}\r\n"
            "Content-Type: application/json\r\nContent-Length: 4000001\r\n\r\n".encode()
        )
        assert sock.recv(4096).startswith(b"HTTP/1.0 413")
    assert same_game(before, you.state())


def _hold_a_slot(port: int) -> socket.socket:
    """A connection whose request headers never finish, once the server holds a slot for
    it: the thread of an answered request may still be giving its slot back (a loaded
    machine), and a connection that came first is then answered 503; it tries again."""
    deadline = time.monotonic() + 30
    while True:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"GET /api/state HTTP/1.1\r\n")  # headers never finished
        sock.settimeout(0.5)
        try:
            answer = sock.recv(64)
        except TimeoutError:  # no answer: the server waits for the rest, in a slot
            return sock
        sock.close()
        assert answer.startswith(b"HTTP/1.0 503") and time.monotonic() < deadline, answer
        time.sleep(0.1)


def test_connections_past_the_bound_are_answered_503_at_once() -> None:
    srv = start(max_connections=2, io_timeout=30.0)  # the held two never time out here
    try:
        you = Browser(srv)
        held = [_hold_a_slot(you.port) for _ in range(2)]
        began = time.monotonic()
        status, _, _ = you.call("GET", "/api/state")
        assert status == 503 and time.monotonic() - began < 10.0  # not after a slot freed
        for sock in held:
            sock.close()
        deadline = time.monotonic() + 5
        while you.call("GET", "/api/state")[0] != 200:  # the slots come back
            assert time.monotonic() < deadline
            time.sleep(0.1)
    finally:
        srv.shutdown()
        srv.server_close()


def test_serving_beyond_loopback_warns_and_still_needs_the_token() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "omaha.server", "lnl", "--host", "0.0.0.0", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None and process.stdout is not None
        warning = process.stderr.readline()
        assert warning.startswith("omaha: WARNING: serving on 0.0.0.0, not loopback only")
        link = process.stdout.readline()
        assert "/?token=" in link
        port = int(link.split("/?token=")[0].rsplit(":", 1)[1])
        anyone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        anyone.request("GET", "/api/state")
        assert anyone.getresponse().status == 401
    finally:
        process.terminate()
        process.wait(10)
