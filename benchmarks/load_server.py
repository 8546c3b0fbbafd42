"""A small load run of ``omaha serve`` on loopback: requests/s and latency percentiles.

    python benchmarks/load_server.py                      # the omaha on the path
    PYTHONPATH=/old/checkout python benchmarks/load_server.py   # an older one

The server runs in its own process (``python -m omaha.server lnl --port 0``); 1 and
20 client threads each open their own browser session (the token link, when the
server prints one) and for a few seconds repeat one request:

* ``state``: ``GET /api/state`` as the page asks after a change (with the etag of
  the board it holds, where the server knows etags; the old server re-renders and
  sends the SVG every time);
* ``state+svg``: the same without an etag (every reply carries the SVG);
* ``poll``: ``GET /api/state?since=VERSION``, the page's poll when nothing changed;
* ``move``: ``POST /api/choose {"n": 1}`` then ``POST /api/undo`` (each counted).

Bounded: every run stops after ``--seconds`` or ``--max`` requests per client. The
client is Python threads on the same machine, so the figures are a floor.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import statistics
import subprocess
import sys
import threading
import time
from typing import Any
from urllib.parse import urlsplit


class Client:
    def __init__(self, port: int, link: str) -> None:
        self.port, self.cookie, self.etag, self.version = port, "", "", ""
        _, headers, _ = self.call("GET", link)
        cookie = headers.get("set-cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        _, _, body = self.call("GET", "/api/state")
        state = json.loads(body)
        self.etag, self.version = state.get("svg_etag", ""), state.get("version", "")

    def call(
        self, method: str, path: str, body: Any = None, etag: str = ""
    ) -> tuple[int, dict[str, str], bytes]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if etag:
            headers["X-Omaha-SVG"] = etag
        raw = None
        if body is not None:
            raw = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        connection.request(method, path, body=raw, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def work(client: Client, kind: str) -> list[tuple[float, int, int]]:
    """One unit of ``kind``: (seconds, status, bytes) of each request it made."""
    out = []
    if kind == "move":
        calls: list[tuple[str, str, Any, str]] = [
            ("POST", "/api/choose", {"n": 1}, client.etag),
            ("POST", "/api/undo", {}, client.etag),
        ]
    elif kind == "poll":
        calls = [("GET", f"/api/state?since={client.version}", None, "")]
    else:
        calls = [("GET", "/api/state", None, client.etag if kind == "state" else "")]
    for method, path, body, etag in calls:
        began = time.perf_counter()
        status, _, data = client.call(method, path, body, etag)
        out.append((time.perf_counter() - began, status, len(data)))
    return out


def run(port: int, link: str, clients: int, kind: str, seconds: float, most: int) -> dict[str, Any]:
    sessions = [Client(port, link) for _ in range(clients)]
    results: list[tuple[float, int, int]] = []
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def loop(client: Client) -> None:
        mine: list[tuple[float, int, int]] = []
        while time.perf_counter() < stop and len(mine) < most:
            try:
                mine.extend(work(client, kind))
            except OSError:
                mine.append((0.0, 0, 0))  # a reset connection
        with lock:
            results.extend(mine)

    began = time.perf_counter()
    threads = [threading.Thread(target=loop, args=(c,)) for c in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - began
    times = sorted(t for t, status, _ in results if status)
    q = statistics.quantiles(times, n=100) if len(times) > 1 else [times[0]] * 99
    return {
        "clients": clients,
        "kind": kind,
        "requests": len(results),
        "per_second": len(results) / took,
        "p50_ms": 1000 * q[49],
        "p99_ms": 1000 * q[98],
        "errors": sum(1 for _, s, _ in results if s != 200),
        "kb_per_reply": statistics.mean(b for _, _, b in results) / 1000 if results else 0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--max", type=int, default=5000, help="requests per client at most")
    parser.add_argument("--kinds", default="state,state+svg,poll,move")
    parser.add_argument("--clients", default="1,20")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    server = subprocess.Popen(
        [sys.executable, "-m", "omaha.server", "lnl", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = re.search(r"http://\S+", line)
        if url is None:
            raise SystemExit(f"no link in {line!r}")
        parts = urlsplit(url.group(0))
        port = parts.port or 80
        link = parts.path + (f"?{parts.query}" if parts.query else "")
        import omaha

        print(f"library: {omaha.__file__}")
        rows = []
        for kind in args.kinds.split(","):
            for clients in (int(c) for c in args.clients.split(",")):
                row = run(port, link, clients, kind, args.seconds, args.max)
                rows.append(row)
                print(
                    f"{kind:10s} {clients:3d} clients: {row['per_second']:7.1f} req/s  "
                    f"p50 {row['p50_ms']:7.1f} ms  p99 {row['p99_ms']:7.1f} ms  "
                    f"{row['kb_per_reply']:6.1f} kB/reply  non-200 {row['errors']}",
                    flush=True,
                )
        if args.json:
            with open(args.json, "w") as handle:
                json.dump(rows, handle, indent=1)
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
