"""Request bodies of ``omaha serve``, read and checked by type before any use.

A body is a JSON object whose fields each have one type: ``{"n": true}`` or
``{"n": 1.5}`` is not choice 1, ``{"seed": [1]}`` is not a seed, and a body too
deep, too long or not JSON is refused with a message (:class:`BadRequest`), never
a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from omaha.kernel.dice import MAX_SEED

#: The longest notation, name or side a client may send.
MAX_TEXT = 500
#: The most sides a ``bots`` object may name.
MAX_SIDES = 16
#: The highest choice number accepted (far above any position's count).
MAX_CHOICE = 10_000_000


class BadRequest(ValueError):
    """A request the server refuses; ``status`` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _no_constants(name: str) -> Any:
    raise BadRequest(f"{name} is not a JSON number")


def parse(raw: bytes) -> dict[str, Any]:
    """The JSON object of a request body (empty: ``{}``)."""
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constants)
    except BadRequest:
        raise
    except RecursionError:
        raise BadRequest("the request is nested too deeply") from None
    except UnicodeDecodeError:
        raise BadRequest("the request is not UTF-8") from None
    except ValueError as exc:  # not JSON, or an integer with too many digits
        raise BadRequest(f"the request is not JSON: {str(exc)[:120]}") from None
    if not isinstance(data, dict):
        raise BadRequest("the request must be a JSON object")
    return data


def only(data: Mapping[str, Any], *keys: str) -> None:
    """Refuse fields the route does not read (a misspelt one would be ignored)."""
    unknown = sorted(set(data) - set(keys))
    if unknown:
        shown = ", ".join(repr(k[:40]) for k in unknown[:5])
        allowed = ", ".join(keys) or "none"
        raise BadRequest(f"unknown field {shown} (fields: {allowed})")


def integer(data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    """``data[key]`` as an integer in ``low..high``; a bool or float is refused."""
    value = data[key]
    if type(value) is not int:
        raise BadRequest(f"{key!r} must be a whole number, not {_kind(value)}")
    if not low <= value <= high:
        raise BadRequest(f"{key!r} must be between {low} and {high}")
    return value


def text(data: Mapping[str, Any], key: str, limit: int = MAX_TEXT) -> str | None:
    """``data[key]`` as a string of at most ``limit`` characters (absent or null: None)."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadRequest(f"{key!r} must be a string, not {_kind(value)}")
    if len(value) > limit:
        raise BadRequest(f"{key!r} is longer than {limit} characters")
    return value


def seed(data: Mapping[str, Any]) -> int:
    """The ``seed`` field (default 0): a whole number in ``0..MAX_SEED``."""
    if data.get("seed") is None:
        return 0
    return integer(data, "seed", 0, MAX_SEED)


def bots(data: Mapping[str, Any]) -> dict[str, str] | None:
    """The ``bots`` field: an object of side -> bot name (absent or null: None)."""
    value = data.get("bots")
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadRequest(f"'bots' must be an object of side: bot, not {_kind(value)}")
    if len(value) > MAX_SIDES:
        raise BadRequest(f"'bots' names more than {MAX_SIDES} sides")
    for side, name in value.items():
        if not isinstance(name, str) or len(name) > MAX_TEXT or len(side) > MAX_TEXT:
            raise BadRequest(f"'bots' must map each side to a bot's name, not {_kind(name)}")
    return dict(value)


def _kind(value: Any) -> str:
    """A JSON value's type in JSON's words, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "a fraction" if value == value and abs(value) != float("inf") else "infinity"
    names = {int: "a number", str: "a string", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)
