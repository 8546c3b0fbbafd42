"""The HTTP side of ``omaha serve``: a JSON API over the tables of :mod:`.tables`.

    GET  /?token=T         the page; sets this browser's cookie (then a redirect to /)
    GET  /?invite=S        take the side invitation S gives (once), the same way
    GET  /api/games        installed games, the scenarios offered, bots and their sides
    GET  /api/state        the position ("since": unchanged answer; X-Omaha-SVG: no SVG
                           when the page holds that board already)
    POST /api/new          {"game", "scenario", "seed", "bots": {side: bot}, "human"}
    POST /api/choose       {"n": number} or {"text": notation}
    POST /api/undo         take back your last decision
    POST /api/invite       {"side": side}: an invitation link for that side
    GET  /api/record       the game record (JSON, like PGN)
    GET  /api/step?k=N     the position after the first N actions, as this browser sees it
    POST /api/load         {"record": text, "bots": {side: bot}}

The server treats its clients the way Jupyter does: the link it prints carries a
random token; the first request that shows it gets an HttpOnly, SameSite=Strict
cookie naming that browser, which then selects the browser's own game. The Host
header must name the bound address and an Origin, when sent, this server; a POST
must be ``application/json`` (a form or ``text/plain`` POST, which any web page
can send, is refused). Every body is read, with a socket timeout, before any lock
is taken, and checked by type (:mod:`.bodies`); a user's mistake answers 4xx with
``{"error": message}`` and changes nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import secrets
import socket
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from omaha.errors import DataFileError, IllegalAction
from omaha.server import bodies, guard, starting
from omaha.server.bodies import BadRequest
from omaha.server.scenarios import Catalogue
from omaha.server.tables import Gone, Refused, Store, Table
from omaha.session import Session

STATIC = {
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
#: The largest request body: a loaded record (a long game is a few hundred kB).
MAX_BODY = 4_000_000
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; frame-ancestors 'none'",
}


class OmahaServer(ThreadingHTTPServer):
    """The server: its token, its tables, the hosts it answers to."""

    daemon_threads = True
    request_queue_size = 64  # the listen backlog: 20 clients at once are not reset

    def __init__(
        self,
        address: tuple[str, int],
        start: Callable[[], Session],
        *,
        token: str | None = None,
        scenarios: str | Path | None = None,
        io_timeout: float = 10.0,
        max_connections: int = 64,
        max_tables: int = 32,
        max_browsers: int = 128,
        max_age: float = 12 * 3600.0,
    ) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)
        self.token = token or secrets.token_urlsafe(32)
        self.store = Store(start, max_tables=max_tables, max_browsers=max_browsers,
                           max_age=max_age)  # fmt: skip
        self.catalogue = Catalogue(scenarios)
        self.io_timeout = io_timeout
        self.hosts = guard.allowed_hosts(address[0], self.server_address[1])
        self.cookie = f"omaha-{self.server_address[1]}"
        self.slots = threading.BoundedSemaphore(max_connections)

    @property
    def url(self) -> str:
        """The link to open: the bound address and the token."""
        host, port = str(self.server_address[0]), self.server_address[1]
        if host in ("0.0.0.0", "::"):  # every address: this machine's name reaches it
            host = socket.gethostname()
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/?token={self.token}"

    def process_request(self, request: Any, client_address: Any) -> None:
        """A thread per connection, up to ``max_connections`` at once: past that, 503."""
        if not self.slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                request.sendall(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A dropped connection is no error worth a traceback; anything else is a bug."""
        kind = sys.exc_info()[0]
        if kind is not None and issubclass(kind, (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    server: OmahaServer
    server_version = "omaha"
    sys_version = ""

    def setup(self) -> None:
        self.cookie_out: str | None = None
        super().setup()
        self.connection.settimeout(self.server.io_timeout)  # every read and write here

    def log_message(self, format: str, *args: Any) -> None:  # quiet: no request log on stderr
        return

    # -- plumbing -----------------------------------------------------------------
    def _send(
        self, status: int, body: bytes, kind: str, extra: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in {**HEADERS, **(extra or {})}.items():
            self.send_header(name, value)
        if self.cookie_out:
            self.send_header(
                "Set-Cookie",
                f"{self.server.cookie}={self.cookie_out}; HttpOnly; SameSite=Strict; Path=/",
            )
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data: Any, status: int = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

    def _page(self, status: int, text: str) -> None:
        body = f"<!doctype html><meta charset=utf-8><title>omaha</title><p>{text}</p>"
        self._send(status, body.encode(), "text/html; charset=utf-8")

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        try:
            self._route(method)
        except BadRequest as exc:
            self.close_connection = True
            self._json({"error": str(exc)}, exc.status)
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception:  # a bug, not a user's mistake: say so, keep serving
            traceback.print_exc(file=sys.stderr)
            self.close_connection = True
            with contextlib.suppress(OSError):
                self._json({"error": "the server failed on this request"}, 500)

    def _browser(self, query: dict[str, list[str]]) -> str:
        """This request's browser: its cookie, or the token (a new browser and cookie)."""
        known = guard.cookie(self.headers, self.server.cookie)
        if known is not None and self.server.store.seat(known) is not None:
            return known
        if guard.has_token(self.headers, query, self.server.token):
            self.cookie_out = self.server.store.new_browser()
            return self.cookie_out
        raise BadRequest(
            "this browser has no session here (or it ended): open the link omaha serve "
            "printed, with its token",
            401,
        )

    # -- routes -------------------------------------------------------------------
    def _route(self, method: str) -> None:
        host = guard.check_host(self.headers, self.server.hosts)
        url = urlsplit(self.path)
        path, query = url.path, parse_qs(url.query)
        if method == "GET" and path in STATIC:
            name, kind = STATIC[path]
            body = resources.files("omaha.server").joinpath("static", name).read_bytes()
            self._send(HTTPStatus.OK, body, kind)
            return
        if method == "GET" and path == "/favicon.ico":  # none: say so without an error
            self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
            return
        if method == "GET" and path == "/":
            self._index(query)
            return
        if not path.startswith("/api/"):
            raise BadRequest("not found", 404)
        guard.check_origin(self.headers, host)
        browser = self._browser(query)
        if method == "GET":
            self._get(path, query, browser)
            return
        data = bodies.parse(guard.read_body(self.headers, self.rfile, MAX_BODY))
        self._post(path, data, browser)

    def _index(self, query: dict[str, list[str]]) -> None:
        store = self.server.store
        known = guard.cookie(self.headers, self.server.cookie)
        seat = store.seat(known) if known else None
        if "invite" in query:
            browser = store.join(query["invite"][0])
            if browser is None:
                self._page(403, "This invitation is not valid: it was used already, or the "
                                "game is over. Ask for a new link.")  # fmt: skip
                return
            self.cookie_out = browser
        elif "token" in query:
            if not guard.has_token(self.headers, query, self.server.token):
                self._page(401, "This is not the token of this server: open the link "
                                "<code>omaha serve</code> printed.")  # fmt: skip
                return
            if seat is None or seat.invited:
                self.cookie_out = store.new_browser()
        elif seat is None:
            self._page(401, "This server needs its token: open the link <code>omaha serve"
                            "</code> printed (it ends in <code>?token=</code>...).")  # fmt: skip
            return
        else:
            body = resources.files("omaha.server").joinpath("static", "index.html").read_bytes()
            self._send(HTTPStatus.OK, body, "text/html; charset=utf-8")
            return
        self._send(HTTPStatus.SEE_OTHER, b"", "text/plain", {"Location": "/"})

    def _table(self, browser: str) -> Table:
        try:
            return self.server.store.table_of(browser)
        except Gone:
            raise BadRequest("the game you were invited to has ended", 410) from None
        except KeyError:
            raise BadRequest("this browser's session has ended: open the link again", 401) from None

    def _get(self, path: str, query: dict[str, list[str]], browser: str) -> None:
        if path == "/api/games":
            self._json(starting.games_info(self.server.catalogue))
            return
        if path not in ("/api/state", "/api/record", "/api/step"):
            raise BadRequest("not found", 404)
        table = self._table(browser)
        with table.lock:
            if path == "/api/step":
                raw = query.get("k", [""])[0]
                if not (raw.isdigit() and raw.isascii() and len(raw) <= 9):
                    raise BadRequest("step takes k, a number of actions (0 or more)")
                self._json(table.step(browser, int(raw)))
                return
            if path == "/api/record":
                sides = table.sides_of(browser)
                state = table.session.state
                if set(sides) != set(table.humans()) and not state.is_terminal():
                    raise BadRequest("the record shows every side's moves: it is given "
                                     "when the game is over", 403)  # fmt: skip
                body = (table.session.record().to_json() + "\n").encode()
                self._send(HTTPStatus.OK, body, "application/json")
                return
            if query.get("since", [""])[0] == table.tag:
                self._json({"version": table.tag, "unchanged": True})
                return
            self._json(table.info(browser, self._have_svg()))

    def _have_svg(self) -> str:
        return (self.headers.get("X-Omaha-SVG") or "")[:64]

    def _post(self, path: str, data: dict[str, Any], browser: str) -> None:
        if path in ("/api/new", "/api/load"):
            seat = self.server.store.seat(browser)
            if seat is not None and seat.invited:
                raise BadRequest("this browser plays by invitation: it cannot start games", 403)
            catalogue = self.server.catalogue
            if path == "/api/new":
                session = starting.new_session(data, catalogue)
            else:
                current = self.server.store.current(browser)
                session = starting.loaded_session(
                    data, catalogue, MAX_BODY, current.session if current else None
                )
            table = self.server.store.open(browser, session)
            with table.lock:
                self._json(table.info(browser, self._have_svg()))
            return
        if path not in ("/api/choose", "/api/undo", "/api/invite"):
            raise BadRequest("not found", 404)
        choice: int | str = 0
        side = ""
        if path == "/api/choose":
            bodies.only(data, "n", "text")
            if ("n" in data) == ("text" in data):
                raise BadRequest("give 'n' (a choice's number) or 'text' (notation)")
            choice = (
                bodies.integer(data, "n", 1, bodies.MAX_CHOICE)
                if "n" in data
                else bodies.text(data, "text") or ""
            )
        elif path == "/api/undo":
            bodies.only(data)
        else:
            bodies.only(data, "side")
            side = bodies.text(data, "side") or ""
        table = self._table(browser)
        with table.lock:
            try:
                if path == "/api/choose":
                    table.choose(browser, choice)
                elif path == "/api/undo":
                    table.undo(browser)
                else:
                    self._json({"invite": f"/?invite={table.invite(browser, side)}",
                                "side": side})  # fmt: skip
                    return
            except Refused as exc:
                raise BadRequest(str(exc), 403) from None
            except IllegalAction as exc:
                raise BadRequest(str(exc)) from None
            self._json(table.info(browser, self._have_svg()))


def make_server(
    start: Session | Callable[[], Session],
    host: str = "127.0.0.1",
    port: int = 8000,
    **options: Any,
) -> OmahaServer:
    """A server bound to ``host:port`` (port 0: any free port) whose browsers each start
    with a game from ``start`` (a callable making a new session; a session is given to
    the first browser, and later ones get a fresh game of the same set-up). ``options``:
    ``token``, ``scenarios`` (a folder), ``io_timeout``, ``max_connections``,
    ``max_tables``, ``max_browsers``, ``max_age`` (seconds idle before a game is dropped)."""
    return OmahaServer((host, port), _starter(start), **options)


def _starter(start: Session | Callable[[], Session]) -> Callable[[], Session]:
    if not isinstance(start, Session):
        return start
    given: list[Session] = [start]
    game, scenario, seed, bots = start.game, start.state.scenario.id, start.seed, start.bot_names

    def fresh() -> Session:
        return given.pop() if given else Session(game, scenario, seed=seed, bots=bots)

    return fresh


def serve(
    start: Session | Callable[[], Session],
    host: str = "127.0.0.1",
    port: int = 8000,
    scenarios: str | Path | None = None,
) -> None:
    server = make_server(start, host, port, scenarios=scenarios)
    if not guard.is_loopback(host):
        print(
            f"omaha: WARNING: serving on {host or 'every address'}, not loopback only: anyone "
            "who can reach this machine can connect, and only the token keeps them out. "
            "The traffic is plain HTTP (not encrypted): use this on a network you trust.",
            file=sys.stderr,
            flush=True,
        )
    print(f"omaha: serving at {server.url}", flush=True)
    print("omaha: open that link (it carries this server's token); Ctrl-C stops", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nomaha: stopped")
    finally:
        server.server_close()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", default="lnl", help="the game to start with")
    p.add_argument("--scenario", help="shipped scenario id or path to a scenario file")
    p.add_argument(
        "--scenarios", metavar="DIR", help="a folder whose scenario files the page offers"
    )
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


def session_from_args(args: argparse.Namespace) -> Callable[[], Session]:
    """A maker of the first game of each browser; the first is made now, so a mistake in
    the options shows at start."""
    bots: dict[str, str] = {}
    for spec in args.bot:
        side, sep, name = spec.partition("=")
        if not sep or not side or not name:
            raise ValueError(f"--bot takes SIDE=NAME, not {spec!r}")
        bots[side] = name
    if not bots:
        bots = starting.default_bots(args.game)
    return _starter(Session(args.game, args.scenario, seed=args.seed, bots=bots))


def run(args: argparse.Namespace) -> int:
    """``omaha serve`` with parsed options."""
    start = session_from_args(args)
    if args.scenarios is not None:
        try:
            Catalogue(args.scenarios)
        except (OSError, ValueError) as exc:
            raise ValueError(
                f"--scenarios {args.scenarios}: {getattr(exc, 'strerror', None) or exc}"
            ) from None
    serve(start, args.host, args.port, args.scenarios)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="omaha serve", description=(__doc__ or "").split("\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be between 0 and 65535, not {args.port}")
    try:
        return run(args)
    except (ValueError, KeyError, DataFileError, OSError) as exc:
        parser.exit(2, f"omaha serve: {exc}\n")
