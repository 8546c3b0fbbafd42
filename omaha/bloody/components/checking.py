"""Small helpers for the cross-field checks of the component schemas.

A :class:`~omaha.kernel.schema.Check` reads a parsed file that may be malformed
anywhere (the field specs report that): these helpers give only the well-formed
entries, with their key paths, so a check can skip what it cannot read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from omaha.kernel.data import Node


def entries(node: Node, key: str) -> Iterator[tuple[Node, dict[str, Any]]]:
    """The tables of the list ``node[key]`` (each with its node), skipping anything else."""
    child = node.get(key) if isinstance(node.value, dict) else None
    if child is None or not isinstance(child.value, list):
        return
    for item in child.as_list():
        if isinstance(item.value, dict):
            yield item, item.value


def whole(value: Any) -> int | None:
    """``value`` if it is a whole number (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
