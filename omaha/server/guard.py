"""The checks every request to ``omaha serve`` passes before it reaches a game.

What Jupyter does for its own server: the Host header must name the bound address
(a page of another site that has rebound its name to 127.0.0.1 sends its own name);
an Origin, when sent, must be this server, and ``Sec-Fetch-Site`` same-origin; the
token is compared in constant time; a POST body must be ``application/json`` (a
form or ``text/plain`` POST, which any page can send without asking, is refused)
with a valid Content-Length, and is read whole under the socket's timeout.
"""

from __future__ import annotations

import ipaddress
import secrets
from email.message import Message
from http.cookies import CookieError, SimpleCookie
from io import BufferedIOBase

from omaha.server.bodies import BadRequest

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def is_loopback(host: str) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str, port: int) -> frozenset[str] | None:
    """The Host headers a request may carry (None: any, when bound to every address)."""
    if host in ("", "0.0.0.0", "::"):
        return None
    names = {host, *LOOPBACK_NAMES} if is_loopback(host) else {host}
    out = set()
    for name in names:
        shown = f"[{name}]" if ":" in name else name
        out.add(f"{shown}:{port}".lower())
        if port == 80:
            out.add(shown.lower())
    return frozenset(out)


def check_host(headers: Message, hosts: frozenset[str] | None) -> str:
    """The request's Host, when the server answers to it."""
    host = (headers.get("Host") or "").strip().lower()
    if hosts is not None and host not in hosts:
        raise BadRequest(f"this server does not answer to the host {host[:80]!r}", 403)
    return host


def check_origin(headers: Message, host: str) -> None:
    """Refuse a request a page of another site sent."""
    origin = headers.get("Origin")
    if origin is not None and origin.strip().lower() != f"http://{host}":
        raise BadRequest("a request from another site is refused", 403)
    site = headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        raise BadRequest("a request from another site is refused", 403)


def cookie(headers: Message, name: str) -> str | None:
    """The value of cookie ``name`` (None: absent or unreadable)."""
    try:
        jar = SimpleCookie(headers.get("Cookie") or "")
    except CookieError:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel is not None else None


def has_token(headers: Message, query: dict[str, list[str]], token: str) -> bool:
    """Whether the request shows ``token`` (``?token=`` or ``Authorization: token ...``)."""
    given = query.get("token", [""])[0]
    scheme, _, value = (headers.get("Authorization") or "").partition(" ")
    if scheme.lower() == "token":
        given = value.strip()
    return bool(given) and secrets.compare_digest(given.encode("utf-8", "replace"), token.encode())


def read_body(headers: Message, rfile: BufferedIOBase, limit: int) -> bytes:
    """The whole JSON body, read under the socket timeout (the caller holds no lock)."""
    kind = (headers.get("Content-Type") or "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise BadRequest("a request body must be JSON (Content-Type: application/json)", 415)
    length = headers.get("Content-Length")
    if length is None:
        raise BadRequest("a request needs a Content-Length", 411)
    if not length.strip().isdigit() or len(length) > 12:
        raise BadRequest(f"Content-Length {length[:20]!r} is not a length")
    size = int(length)
    if size > limit:
        raise BadRequest(f"the request is larger than {limit} bytes", 413)
    try:
        raw = rfile.read(size)
    except TimeoutError:
        raise BadRequest("the request body did not arrive in time", 408) from None
    if len(raw) < size:
        raise BadRequest("the request body ended early")
    return raw
