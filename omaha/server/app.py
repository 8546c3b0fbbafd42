"""The HTTP side of ``omaha serve``: a JSON API over one :class:`~omaha.session.Session`.

    GET  /                 the page (static files of this package)
    GET  /api/games        installed games, their scenarios, bots and the sides they play
    GET  /api/state        the position: SVG, turn, phase, choices, log, result
    POST /api/new          {"game", "scenario", "seed", "bots": {side: bot}}
    POST /api/choose       {"n": number} or {"text": notation}
    POST /api/undo         take back your last decision
    GET  /api/record       the game record (JSON, like PGN)
    POST /api/load         {"record": text, "bots": {side: bot}}

Every user mistake answers 400 with ``{"error": message}``; the session is unchanged.
"""

from __future__ import annotations

import argparse
import json
import threading
from collections.abc import Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from omaha.errors import DataFileError, IllegalAction
from omaha.kernel.records import GameRecord
from omaha.kernel.svg import render_view
from omaha.registry import games, load
from omaha.session import Session

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
LOG_LINES = 300


def default_bots(game_name: str, human: str | None = None) -> dict[str, str]:
    """Bots for every side but ``human`` (default: the first side): the game's strongest."""
    game = load(game_name)
    human = human or game.players[0]
    pick = next(b for b in ("heuristic", "historical", "solitaire", "random") if b in game.bots)
    lineup = game.lineup(pick)
    return {side: lineup[side] for side in game.players if side != human}


def games_info() -> list[dict[str, Any]]:
    out = []
    for name in games():
        game = load(name)
        out.append(
            {
                "name": name,
                "title": game.title,
                "players": list(game.players),
                "scenarios": list(game.scenarios()),
                "bots": [
                    {"name": bot, "sides": list(game.bot_sides(bot))} for bot in sorted(game.bots)
                ],
            }
        )
    return out


def state_info(session: Session) -> dict[str, Any]:
    state = session.state
    you = session.human_to_move
    view = state.view(you)
    log = [
        {"text": str(e), "rule": e.rule, "kind": e.kind, "turn": e.turn}
        for e in state.log[-LOG_LINES:]
    ]
    return {
        "game": session.game.name,
        "title": session.game.title,
        "scenario": session.scenario,
        "seed": session.seed,
        "players": list(session.game.players),
        "bots": session.bot_names,
        "turn": state.turn_label,
        "phase": state.phase,
        "you": you,
        "prompt": state.pending.prompt if state.pending else "",
        "svg": render_view(view),
        "choices": [
            {
                "n": c.number,
                "text": c.text,
                "cells": list(c.cells),
                "pieces": list(c.pieces),
                "plan": c.plan,
            }
            for c in session.choices()
        ],
        "log": log,
        "log_total": len(state.log),
        "result": str(state.outcome()) if state.is_terminal() else None,
        "can_undo": session.can_undo,
    }


class OmahaServer(ThreadingHTTPServer):
    """Holds the one session; requests take turns on it."""

    def __init__(self, address: tuple[str, int], session: Session) -> None:
        super().__init__(address, Handler)
        self.session = session
        self.lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    server: OmahaServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet: no request log on stderr
        return

    # -- plumbing -----------------------------------------------------------------
    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, data: Any, status: int = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

    def _error(self, message: str) -> None:
        self._json({"error": message}, HTTPStatus.BAD_REQUEST)

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        if length > 10_000_000:
            raise ValueError("request too large")
        data = json.loads(self.rfile.read(length) or b"{}")
        if not isinstance(data, dict):
            raise ValueError("the request must be a JSON object")
        return data

    # -- routes -------------------------------------------------------------------
    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        if path in STATIC:
            name, kind = STATIC[path]
            body = resources.files("omaha.server").joinpath("static", name).read_bytes()
            self._send(HTTPStatus.OK, body, kind)
            return
        with self.server.lock:
            session = self.server.session
            if path == "/api/games":
                self._json(games_info())
            elif path == "/api/state":
                self._json(state_info(session))
            elif path == "/api/record":
                body = (session.record().to_json() + "\n").encode()
                self._send(HTTPStatus.OK, body, "application/json")
            else:
                self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")

    def do_POST(self) -> None:
        path = self.path.split("?")[0]
        with self.server.lock:
            try:
                data = self._body()
                self.server.session = self._post(path, data, self.server.session)
            except (IllegalAction, DataFileError, ValueError, KeyError) as exc:
                message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
                self._error(str(message))
                return
            if path not in ("/api/new", "/api/choose", "/api/undo", "/api/load"):
                self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")
                return
            self._json(state_info(self.server.session))

    @staticmethod
    def _post(path: str, data: dict[str, Any], session: Session) -> Session:
        if path == "/api/new":
            name = str(data.get("game") or session.game.name)
            bots = data.get("bots")
            if bots is None:
                bots = default_bots(name, data.get("human"))
            seed = data.get("seed", 0)
            if isinstance(seed, str):
                seed = int(seed) if seed.strip().isdigit() else -1
            return Session(name, data.get("scenario") or None, seed=seed, bots=dict(bots))
        if path == "/api/choose":
            if "n" in data:
                session.choose(int(data["n"]))
            else:
                session.choose(str(data.get("text", "")))
        elif path == "/api/undo":
            session.undo()
        elif path == "/api/load":
            record = GameRecord.from_json(str(data.get("record", "")), "the loaded record")
            bots = data.get("bots")
            if bots is None:
                bots = dict(session.bot_names) if record.game == session.game.name else None
            if bots is None:
                bots = default_bots(record.game)
            return Session.from_record(record, bots=bots, name="the loaded record")
        return session


def make_server(session: Session, host: str = "127.0.0.1", port: int = 8000) -> OmahaServer:
    """A server for ``session`` bound to ``host:port`` (port 0: any free port)."""
    return OmahaServer((host, port), session)


def serve(session: Session, host: str = "127.0.0.1", port: int = 8000) -> None:
    server = make_server(session, host, port)
    host_name, port_number = server.server_address[:2]
    where = f"http://{host_name!s}:{port_number}/"
    print(f"omaha: serving {session.game.title} at {where} (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nomaha: stopped")
    finally:
        server.server_close()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", default="lnl", help="the game to start with")
    p.add_argument("--scenario", help="shipped scenario id or path to a scenario file")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SIDE=NAME",
        help="a bot for a side (repeatable); default: the strongest bot plays all sides "
        "but the first",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    p.add_argument("--port", type=int, default=8000, help="port (0: any free port)")


def session_from_args(args: argparse.Namespace) -> Session:
    bots: dict[str, str] = {}
    for spec in args.bot:
        side, sep, name = spec.partition("=")
        if not sep or not side or not name:
            raise ValueError(f"--bot takes SIDE=NAME, not {spec!r}")
        bots[side] = name
    if not bots:
        bots = default_bots(args.game)
    return Session(args.game, args.scenario, seed=args.seed, bots=bots)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="omaha serve", description=__doc__.split("\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be between 0 and 65535, not {args.port}")
    try:
        session = session_from_args(args)
    except (ValueError, KeyError, DataFileError) as exc:
        parser.exit(2, f"omaha serve: {exc}\n")
    serve(session, args.host, args.port)
    return 0
