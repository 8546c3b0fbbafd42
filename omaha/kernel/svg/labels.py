"""Map labels that fit: a feature tag or a mark sized to its room, shortened in player
words (a parenthesis left out, a long feature named by its initials in the legend),
cut with an ellipsis only as the last resort; the whole text goes on the hover.

Widths are measured with :func:`omaha.kernel.svg.elements.ems` (DejaVu Sans advance
widths rounded up), so a line laid out here fits in the browser too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import attrs

from omaha.kernel.svg.elements import ems

#: Map text as a share of the cell size: the largest drawn, and the smallest (at the
#: browser's default zoom of about 1.3-1.5 it is at least 9 pixels high, as the counter
#: names are).
LARGEST, SMALLEST = 0.22, 0.19
#: How wide a cell's foot or tag line may run, as a multiple of the cell size: less than
#: a cell across, so two neighbours' lines do not meet (a square is 1.6 across; a hex
#: 1.73 or 2, and its foot line passes between the labels of the two cells below).
ROOM, ROOM_HEX = 1.5, 1.7


def room(grid: str) -> float:
    """How wide a cell's line may run on a ``grid`` (``hex`` or ``square``), in cell sizes."""
    return ROOM_HEX if grid == "hex" else ROOM


_PAREN = re.compile(r"\s*\([^)]*\)")


@attrs.frozen
class Fitted:
    """A line to draw: its text, font size, and the whole text when that was shortened."""

    text: str
    font: float
    whole: str = ""


def width(text: str, font: float, bold: bool = False) -> float:
    return ems(text, bold) * font


def fit_line(parts: Sequence[str], room: float, size: float, sep: str = "; ") -> Fitted:
    """``parts`` on one line within ``room``: whole at the largest font that fits (not
    below the smallest), else without their parentheses, else cut with an ellipsis."""
    whole = sep.join(parts)
    short = sep.join(_PAREN.sub("", p) for p in parts)
    for text in dict.fromkeys((whole, short)):
        font = min(size * LARGEST, room / max(ems(text), 1e-9))
        if font >= size * SMALLEST:
            return Fitted(text, round(font, 2), "" if text == whole else whole)
    # the longest part is cut (a position's name), so short ones (fire dots) stay whole
    font = size * SMALLEST
    cut = [_PAREN.sub("", p) for p in parts]
    while width(sep.join(cut), font) > room:
        k = max(range(len(cut)), key=lambda j: len(cut[j]))
        if len(cut[k]) <= 2:
            break
        cut[k] = cut[k].rstrip("…")[:-1].rstrip() + "…"
    return Fitted(sep.join(cut), font, whole)


def wrap(text: str, room: float, font: float, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``room`` (a word wider than
    the room is cut with an ellipsis)."""
    lines: list[str] = []
    for word in text.split():
        while width(word, font, bold) > room and len(word) > 1:
            word = word[:-2] + "…"
        if lines and width(lines[-1] + " " + word, font, bold) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def initials(name: str) -> str:
    """A feature's initials, as a map key prints them: ``defensive_zone`` -> ``DZ``."""
    words = [w for w in re.split(r"[\s_\-]+", name) if w]
    return "".join(w[0] for w in words).upper()


def feature_words(name: str) -> str:
    return name.replace("_", " ")


def abbreviated(cells: Iterable[Sequence[str]], room: float, font: float) -> frozenset[str]:
    """The features of many words to print by their initials (and name in the legend):
    all of them on a board where some cell's tag line would not fit whole."""
    lines = [list(c) for c in cells]
    if all(width(" ".join(map(feature_words, c)), font) <= room for c in lines):
        return frozenset()
    return frozenset(f for c in lines for f in c if len(re.split(r"[\s_\-]+", f)) > 1)


__all__ = ["LARGEST", "ROOM", "ROOM_HEX", "SMALLEST", "Fitted", "abbreviated", "feature_words",
           "fit_line", "initials", "room", "width", "wrap"]  # fmt: skip
