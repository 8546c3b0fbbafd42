"""Writing SVG elements with ElementTree: rounded numbers, XML-safe text."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
Point = tuple[float, float]
Rect = tuple[float, float, float, float]
_BAD_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def num(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def clean(text: str) -> str:
    """Text XML 1.0 can carry (ElementTree escapes <, & and > but not control codes)."""
    return _BAD_XML.sub("", text)


def el(
    parent: ET.Element, tag: str, text: str | None = None, /, **attrs: str | float
) -> ET.Element:
    """A child element; ``cls`` is ``class`` and ``_`` in names becomes ``-``."""
    attributes = {
        ("class" if k == "cls" else k.replace("_", "-")): (
            clean(v) if isinstance(v, str) else num(v)
        )
        for k, v in attrs.items()
    }
    e = ET.SubElement(parent, tag, attributes)
    if text is not None:
        e.text = clean(text)
    return e


def points(pts: list[Point]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in pts)


def fit(text: str, width: float, font: float) -> str:
    """``text`` cut with an ellipsis to about ``width`` at font size ``font``."""
    most = max(1, int(width / (font * 0.58)))
    return text if len(text) <= most else text[: max(1, most - 1)] + "…"


def text_width(text: str, font: float) -> float:
    return len(text) * font * 0.58
