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


#: Advance widths of DejaVu Sans (the pictures' font), in ems rounded up to 0.05:
#: measured with the font's metrics, so a line laid out with them fits.
_EMS = {
    False: {"ijlIJ'": 0.3, ",./:;\\| ·": 0.35, "ft()-[]": 0.4, "r!": 0.45, '"*_`': 0.5,
            "csz?": 0.55, "kvxyFL": 0.6, "0123456789abdeghnopquEPSTY${}é": 0.65,
            "ABCKRVXZ": 0.7, "NU": 0.75, "DGHOQ&": 0.8, "w#+<=>^~": 0.85, "M": 0.9,
            "⊕○●": 0.9, "mW%@": 1.0},
    True: {"ijl' ": 0.35, "IJ,./:;\\|·": 0.4, "f-": 0.45, "rt!()[]_`": 0.5, '"*': 0.55,
           "csz?": 0.6, "xL": 0.65, "0123456789aekovyEFT$é": 0.7, "bdghnpquCPSYZ{}": 0.75,
           "ABKRVX": 0.8, "DGHNU#+<=>^~": 0.85, "OQ&⊕○●": 0.9, "w": 0.95, "M@": 1.0,
           "m%": 1.05, "W": 1.15},
}  # fmt: skip
_EM = {bold: {ch: w for chars, w in table.items() for ch in chars} for bold, table in _EMS.items()}
#: Anything else (symbols such as ○ □ △ •, other scripts): as wide as the widest.
_EM_OTHER = 1.0


def ems(text: str, bold: bool = False) -> float:
    """The width of ``text`` in ems of DejaVu Sans (regular or bold), rounded up."""
    table = _EM[bold]
    return sum(table.get(ch, _EM_OTHER) for ch in text)
