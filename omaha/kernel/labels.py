"""Printed hex labels and offset layouts.

A printed map numbers its hexes in an *offset* grid: straight lines of hexes
(columns on a flat-top map, rows on a pointy-top map), every other line shoved
half a hex. Here the offset frame is ``(col, row)`` with ``col`` growing east
and ``row`` growing north, whatever the printed numbering direction; a
:class:`Layout` says how that frame sits on axial coordinates, and a label
scheme says how printed labels name offset cells.

Schemes:

* ``letter-number`` (LnL ``K4``): a row letter (A = southernmost row) then a
  column number.
* ``map-col-row`` (TCS ``A10.10``): a map-sheet letter, the hexrow counted
  left to right, a dot, the hex within the row counted bottom to top. Several
  lettered sheets are joined into one board, each with its own origin.
* ``named`` (Bloody Omaha ``C19``): labels are identifiers given cell by cell.
"""

from __future__ import annotations

import re
from typing import Literal

import attrs

from omaha.kernel.hexes import Hex

Orientation = Literal["flat", "pointy"]
Parity = Literal["odd", "even"]


@attrs.frozen
class Layout:
    """How an offset grid maps to axial coordinates.

    ``orientation="flat"``: flat-topped hexes, straight vertical columns;
    ``offset="odd"`` means odd columns sit half a hex further north than even
    ones, ``"even"`` the reverse. ``orientation="pointy"``: pointy-topped hexes,
    straight horizontal rows; ``offset="odd"`` means odd rows sit half a hex
    further east.
    """

    orientation: Orientation = "flat"
    offset: Parity = "odd"

    def to_axial(self, col: int, row: int) -> Hex:
        if self.orientation == "flat":
            shift = (col - (col & 1)) // 2 if self.offset == "odd" else (col + (col & 1)) // 2
            return Hex(col, row - shift)
        shift = (row - (row & 1)) // 2 if self.offset == "odd" else (row + (row & 1)) // 2
        return Hex(col - shift, row)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        if self.orientation == "flat":
            q = h.q
            shift = (q - (q & 1)) // 2 if self.offset == "odd" else (q + (q & 1)) // 2
            return q, h.r + shift
        r = h.r
        shift = (r - (r & 1)) // 2 if self.offset == "odd" else (r + (r & 1)) // 2
        return h.q + shift, r

    def centre(self, h: Hex) -> tuple[float, float]:
        """Centre of a hex of unit circumradius, x east and y north (for drawing)."""
        root3 = 3.0**0.5
        if self.orientation == "flat":
            return 1.5 * h.q, root3 * (h.r + h.q / 2)
        return root3 * (h.q + h.r / 2), 1.5 * h.r


class LabelError(ValueError):
    """A label that is malformed or names no cell of the map."""


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def row_letter(index: int) -> str:
    """Row letter for a 0-based row index: A..Z, then AA, BB, ... as many maps do."""
    if index < 0:
        raise LabelError(f"row index {index} has no letter")
    return _LETTERS[index % 26] * (index // 26 + 1)


def row_index(letters: str) -> int:
    """Inverse of :func:`row_letter`."""
    if (
        not isinstance(letters, str)
        or not letters
        or any(c != letters[0] for c in letters)
        or letters[0] not in _LETTERS
    ):
        raise LabelError(f"{letters!r} is not a row letter")
    return _LETTERS.index(letters[0]) + 26 * (len(letters) - 1)


def label_text(label: object) -> str:
    """``label`` stripped, if it can be a printed label at all.

    Anything else -- another type, an empty or blank string, control characters,
    an absurd length -- is a :class:`LabelError` saying so, never a ``KeyError``,
    ``TypeError`` or ``AttributeError``: a game turns it into ``IllegalAction``.
    """
    if not isinstance(label, str):
        raise LabelError(f"{shown(label)} is not a cell label (a label is text such as 'K4')")
    text = label.strip()
    if not text:
        raise LabelError("an empty string is not a cell label")
    if len(text) > _MAX_LABEL or not text.isprintable():
        raise LabelError(f"{shown(label)} is not a cell label")
    return text


def shown(value: object, limit: int = 48) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages about hostile input."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: Longer than any printed label; longer text is refused before any parsing.
_MAX_LABEL = 40
# ASCII digits only: int() would also read other scripts' digits ("K\u0664")
_LETTER_NUMBER = re.compile(r"^([A-Z]+)([0-9]+)$")
_MAP_COL_ROW = re.compile(r"^([A-Z])([0-9]+)\.([0-9]+)$")


@attrs.frozen
class Sheet:
    """One lettered map sheet of a ``map-col-row`` board.

    Local ``hexrow`` h and ``hex`` n sit at offset ``(origin_col + h, origin_row + n)``.
    """

    letter: str
    origin_col: int
    origin_row: int


def parse_letter_number(label: str) -> tuple[int, int]:
    """``"K4"`` -> offset ``(col=4, row=10)`` (A is row 0, the southernmost)."""
    m = _LETTER_NUMBER.match(label_text(label).upper())
    if m is None:
        raise LabelError(f"{label!r} is not a row-letter + number label like 'K4'")
    return int(m.group(2)), row_index(m.group(1))


def format_letter_number(col: int, row: int) -> str:
    return f"{row_letter(row)}{col}"


def parse_map_col_row(label: str, sheets: dict[str, Sheet]) -> tuple[int, int]:
    """``"A10.10"`` -> global offset cell, using the sheet's origin."""
    m = _MAP_COL_ROW.match(label_text(label).upper())
    if m is None:
        raise LabelError(f"{label!r} is not a map-sheet label like 'A10.10'")
    sheet = sheets.get(m.group(1))
    if sheet is None:
        known = ", ".join(sorted(sheets)) or "none"
        raise LabelError(f"{label!r}: there is no map sheet {m.group(1)} (sheets: {known})")
    return sheet.origin_col + int(m.group(2)), sheet.origin_row + int(m.group(3))


def format_map_col_row(sheet: Sheet, col: int, row: int) -> str:
    """Label of global offset cell ``(col, row)`` on ``sheet``: ``A5.07``, ``A10.10``."""
    return f"{sheet.letter}{col - sheet.origin_col}.{row - sheet.origin_row:02d}"
