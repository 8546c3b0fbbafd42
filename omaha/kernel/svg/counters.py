"""Counters as on a wargame map: side colour, unit name, a NATO symbol with its
echelon, the values the game prints, step pips and status badges.

A piece names its symbol in ``kind`` (see :data:`SYMBOLS`); where a game leaves
it empty, a conservative guess from the piece's name is used (``"Tank"`` is
armour, ``"81mm"`` a mortar), else the frame stays empty. Status markers are
small lettered badges down the counter's right edge (``D`` disrupted, ``S``
suppressed, ``F`` fired...), explained in the picture's legend; they stay within
the counter, so they never cover the cell's printed label above it.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Protocol

from omaha.kernel.svg.elements import el, ems, num, text_width
from omaha.kernel.svg.palette import ink, marker_style, side_colour


class PieceLike(Protocol):
    """What the renderer reads of a piece (``omaha.kernel.view.Piece`` has it all)."""

    @property
    def id(self) -> str: ...
    @property
    def where(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def values(self) -> str: ...
    @property
    def marks(self) -> tuple[str, ...]: ...
    @property
    def hidden(self) -> bool: ...
    @property
    def kind(self) -> str: ...
    @property
    def echelon(self) -> str: ...
    @property
    def steps(self) -> tuple[int, int] | None: ...


Frame = tuple[float, float, float, float]  # x, y, width, height of the symbol frame
Draw = Callable[[ET.Element, Frame, float], None]


def _line(g: ET.Element, pts: list[tuple[float, float]], sw: float, cls: str = "") -> None:
    d = "M" + " L".join(f"{num(x)},{num(y)}" for x, y in pts)
    el(g, "path", cls=cls or "sym", d=d, fill="none", stroke="#111111", stroke_width=sw,
       stroke_linecap="round", stroke_linejoin="round")  # fmt: skip


def _infantry(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    _line(g, [(x, y), (x + w, y + h)], sw)
    _line(g, [(x, y + h), (x + w, y)], sw)


def _armour(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    el(g, "rect", cls="sym", x=x + w * 0.18, y=y + h * 0.25, width=w * 0.64, height=h * 0.5,
       rx=h * 0.25, fill="none", stroke="#111111", stroke_width=sw)  # fmt: skip


def _mechanised(g: ET.Element, f: Frame, sw: float) -> None:
    _infantry(g, f, sw)
    _armour(g, f, sw)


def _engineer(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    top, foot = y + h * 0.35, y + h * 0.68
    _line(
        g,
        [(x + w * 0.25, foot), (x + w * 0.25, top), (x + w * 0.75, top), (x + w * 0.75, foot)],
        sw,
    )
    _line(g, [(x + w * 0.5, top), (x + w * 0.5, foot)], sw)


def _artillery(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    el(g, "circle", cls="sym", cx=x + w / 2, cy=y + h / 2, r=h * 0.16, fill="#111111")


def _mortar(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    cx = x + w / 2
    el(g, "circle", cls="sym", cx=cx, cy=y + h * 0.72, r=h * 0.1, fill="none",
       stroke="#111111", stroke_width=sw)  # fmt: skip
    _line(g, [(cx, y + h * 0.62), (cx, y + h * 0.15)], sw)
    _line(g, [(cx - w * 0.08, y + h * 0.3), (cx, y + h * 0.15), (cx + w * 0.08, y + h * 0.3)], sw)


def _machine_gun(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    cx = x + w / 2
    _line(g, [(cx, y + h * 0.85), (cx, y + h * 0.15)], sw)
    _line(g, [(cx - w * 0.1, y + h * 0.35), (cx, y + h * 0.15), (cx + w * 0.1, y + h * 0.35)], sw)
    _line(g, [(cx - w * 0.1, y + h * 0.7), (cx + w * 0.1, y + h * 0.7)], sw)


def _anti_tank(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    _line(g, [(x, y + h), (x + w / 2, y), (x + w, y + h)], sw)


def _recon(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    _line(g, [(x, y + h), (x + w, y)], sw)


def _airborne(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    _infantry(g, f, sw)
    cx, base = x + w / 2, y + h * 0.88
    r = w * 0.11
    d = (
        f"M{num(cx - 2 * r)},{num(base)} A{num(r)},{num(r)} 0 0 1 {num(cx)},{num(base)} "
        f"A{num(r)},{num(r)} 0 0 1 {num(cx + 2 * r)},{num(base)}"
    )
    el(g, "path", cls="sym", d=d, fill="none", stroke="#111111", stroke_width=sw)


def _ranger(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    _infantry(g, f, sw)
    el(g, "text", "R", cls="sym", x=x + w * 0.86, y=y + h * 0.45, font_size=h * 0.42,
       font_weight="bold", text_anchor="middle", fill="#111111")  # fmt: skip


def _headquarters(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, _, h = f
    _line(g, [(x, y + h), (x, y + h * 1.6)], sw * 1.4)


def _fortification(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    n = 4
    pts = [(x, y + h * 0.35)]
    for k in range(n):
        a, b = x + w * k / n, x + w * (k + 0.5) / n
        pts += [(a, y + h * 0.35), (a, y + h * 0.12), (b, y + h * 0.12), (b, y + h * 0.35)]
    pts.append((x + w, y + h * 0.35))
    _line(g, pts, sw)


def _pillbox(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    cx, cy, r = x + w / 2, y + h * 0.58, h * 0.28
    el(g, "circle", cls="sym", cx=cx, cy=cy, r=r, fill="#111111")
    _line(g, [(cx + r * 0.6, cy - r * 0.6), (cx + w * 0.38, y + h * 0.1)], sw * 1.6)


def _rocket(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    cx = x + w / 2
    _line(g, [(cx - w * 0.18, y + h * 0.85), (cx, y + h * 0.1), (cx + w * 0.18, y + h * 0.85)], sw)
    _line(g, [(cx - w * 0.1, y + h * 0.6), (cx + w * 0.1, y + h * 0.6)], sw)


def _boat(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    _line(g, [(x + w * 0.1, y + h * 0.4), (x + w * 0.25, y + h * 0.8), (x + w * 0.75, y + h * 0.8),
              (x + w * 0.9, y + h * 0.4), (x + w * 0.1, y + h * 0.4)], sw)  # fmt: skip


def _leader(g: ET.Element, f: Frame, sw: float) -> None:
    x, y, w, h = f
    cx, cy, r = x + w / 2, y + h / 2, h * 0.45
    pts = []
    for k in range(10):
        rad, a = (r if k % 2 == 0 else r * 0.45), math.radians(90 + 36 * k)
        pts.append((cx + rad * math.cos(a), cy - rad * math.sin(a)))
    d = "M" + " L".join(f"{num(px)},{num(py)}" for px, py in pts) + " Z"
    el(g, "path", cls="sym", d=d, fill="#111111")


#: Symbol name -> drawing inside the frame. Leaders and markers draw no frame.
SYMBOLS: dict[str, Draw] = {
    "infantry": _infantry,
    "armour": _armour,
    "armor": _armour,
    "tank": _armour,
    "mechanised": _mechanised,
    "engineer": _engineer,
    "artillery": _artillery,
    "gun": _artillery,
    "mortar": _mortar,
    "machine_gun": _machine_gun,
    "anti_tank": _anti_tank,
    "recon": _recon,
    "cavalry": _recon,
    "airborne": _airborne,
    "ranger": _ranger,
    "headquarters": _headquarters,
    "hq": _headquarters,
    "fortification": _fortification,
    "strongpoint": _fortification,
    "pillbox": _pillbox,
    "rocket": _rocket,
    "boat": _boat,
    "leader": _leader,
}
FRAMELESS = frozenset({"leader", "marker", "token", ""})

#: A conservative guess from a name, for pieces whose game gave no kind.
_GUESSES: tuple[tuple[str, str], ...] = (
    (r"\bpill ?box|\bpb\b", "pillbox"),
    (r"\brocket", "rocket"),
    (r"\bwn ?\d|\bstrong ?point|\bbunker", "fortification"),
    (r"\bhq\b|headquarters", "headquarters"),
    (r"\bdd\b|\btank|\barmou?r|\bsherman|\bpanzer", "armour"),
    (r"\beng(ineer)?s?\b|\bengr", "engineer"),
    (r"\branger", "ranger"),
    (r"\bairborne|\bpara", "airborne"),
    (r"\bmortar|\b(60|81|80|120)\s?mm", "mortar"),
    (r"\bmg\b|machine ?gun", "machine_gun"),
    (r"\bat\b|anti-?tank|\bpak\b", "anti_tank"),
    (r"\bbattery|\bhowitzer|\bartillery|\b(75|88|105|155)\s?mm|\bfa\b", "artillery"),
)


def symbol_of(p: PieceLike) -> str:
    """The piece's symbol: its ``kind`` if known, else a guess from its name, else none."""
    kind = p.kind.strip().lower().replace(" ", "_").replace("-", "_")
    if kind:
        return kind
    name = p.name.lower()
    for pattern, guess in _GUESSES:
        if re.search(pattern, name):
            return guess
    return ""


def counter(parent: ET.Element, p: PieceLike, cx: float, cy: float, c: float) -> ET.Element:
    """Draw ``p`` as a counter of side ``c`` centred on (cx, cy); hidden pieces face down."""
    pg = el(parent, "g", cls="piece", data_side=p.side)
    if not p.hidden:
        pg.set("data-id", p.id)
    tip = f"{p.side}: hidden" if p.hidden else f"{p.side}: {p.name} {p.values}".rstrip()
    if p.steps and not p.hidden:
        tip += f" ({p.steps[0]} of {p.steps[1]} steps)"
    el(pg, "title", tip + (f" [{', '.join(p.marks)}]" if p.marks else ""))
    fill = side_colour(p.side)
    text_ink = ink(fill)
    el(pg, "rect", cls="counter", x=cx - c / 2, y=cy - c / 2, width=c, height=c, rx=c * 0.08,
       fill=fill, fill_opacity=0.75 if p.hidden else 1, stroke="#1a1a1a",
       stroke_width=c * 0.04)  # fmt: skip
    if p.hidden:
        el(pg, "text", "?", x=cx, y=cy + c * 0.2, font_size=c * 0.55, text_anchor="middle",
           fill="#ffffff", font_weight="bold")  # fmt: skip
    else:
        _face(pg, p, cx, cy, c, text_ink)
    _badges(pg, p.marks, cx, cy, c)
    return pg


#: Font sizes of a counter's lines as shares of its side: (smallest, largest). A line
#: that does not fit at its smallest size is broken at a space onto a second line
#: (values only), else condensed (down to SQUEEZE of its natural width), and only then cut.
#: At the default map size (a 44-pixel counter) values stay at 8.8 pixels or more, names
#: at 7.5; in boxes (53 pixels) at 10.6 and 9.
VALUE_FONT = (0.2, 0.25)
NAME_FONT = (0.17, 0.2)
#: The size mark above the symbol: letters (I, II, X), or dots drawn larger.
ECHELON_FONT = 0.14
ECHELON_DOTS = 0.22
ECHELON_BAND = 0.11
SQUEEZE = 0.8
#: The symbol frame's least height (share of the side) beside a name on two lines.
FRAME_LOW = 0.085
#: Margin inside the counter's edge, as a share of its side.
PAD = 0.05


def _badge_width(mark: str, c: float) -> float:
    abbr, _ = marker_style(mark)
    return max(c * 0.22, text_width(abbr, c * 0.15) + c * 0.08)


def _face(pg: ET.Element, p: PieceLike, cx: float, cy: float, c: float, text_ink: str) -> None:
    """Top down: name, echelon, symbol frame, step pips, values (one or two lines);
    the frame takes the height the text leaves, so text never shrinks below its
    legible size to make room for the symbol."""
    top, bottom, left, right = cy - c / 2 + PAD * c, cy + c / 2 - PAD * c, cx - c / 2, cx + c / 2
    values: list[str] = []
    vfont = 0.0
    if p.values:
        values, vfont = set_lines(p.values, c - 2 * PAD * c, c * VALUE_FONT[0],
                                  c * VALUE_FONT[1], bold=True, most=2)  # fmt: skip
    # the value lines stand on the counter's foot (brackets descend a little below it)
    foot = bottom + c * 0.01 - vfont * 0.14
    floor = foot - vfont * (0.74 + len(values) - 1) if values else bottom
    pips_y = floor - c * 0.075
    if p.steps:
        floor = pips_y - c * 0.035
    y = top  # the foot of what is drawn so far, from the top down
    lines: list[str] = []  # the name's lines
    if p.name:
        # the name keeps clear of the first status badge on the right edge
        name_right = right - PAD * c
        if p.marks:
            name_right = min(name_right, right - 0.7 * _badge_width(p.marks[0], c) - 0.02 * c)
        name_left = left + PAD * c
        width, smallest, largest = name_right - name_left, c * NAME_FONT[0], c * NAME_FONT[1]
        lines, font = set_lines(p.name, width, smallest, largest, bold=False, most=1)
        if lines[0].endswith("…"):  # cut: whole on two lines, if the symbol keeps its room
            two, font2 = name_lines(p.name, width, smallest, largest)
            band = c * ECHELON_BAND if p.echelon else 0.0
            if two and floor - (y + 2 * font2 * 0.95 + band) - c * 0.04 >= c * FRAME_LOW:
                lines, font = two, font2
        for line in lines:
            _text(pg, line, "unit-name", (name_left + name_right) / 2, y + font * 0.76,
                  font, width, text_ink, bold=False)  # fmt: skip
            y += font * 0.95
    echelon_font = c * (ECHELON_DOTS if set(p.echelon) <= {"•", "●"} else ECHELON_FONT)
    if p.echelon:
        y += c * ECHELON_BAND
    # the symbol frame takes the room left between, at most its full size
    room = floor - y - c * 0.04
    h = min(c * 0.3, max(c * (FRAME_LOW if len(lines) > 1 else 0.12), room))
    w = min(c * 0.54, h * 1.8)
    frame: Frame = (cx - w / 2, y + c * 0.02 + max(0.0, room - h) / 2, w, h)
    symbol = symbol_of(p)
    if symbol not in FRAMELESS:
        el(pg, "rect", cls="frame", data_symbol=symbol, x=frame[0], y=frame[1], width=w,
           height=h, fill="#fbfaf5", stroke="#111111", stroke_width=c * 0.025)  # fmt: skip
    draw = SYMBOLS.get(symbol)
    if draw is not None:
        sym = el(pg, "g", cls="symbol", data_symbol=symbol)
        draw(sym, frame, c * 0.025)
    if p.echelon:
        el(pg, "text", p.echelon, cls="echelon", x=cx, y=frame[1] - c * 0.02,
           font_size=echelon_font, text_anchor="middle", fill=text_ink,
           font_weight="bold")  # fmt: skip
    if p.steps:
        done, full = p.steps
        r, gap = c * 0.032, c * 0.09
        x0 = cx - (full - 1) * gap / 2
        for k in range(full):
            el(pg, "circle", cls="step" + (" lost" if k >= done else ""), cx=x0 + k * gap,
               cy=pips_y, r=r, fill=text_ink if k < done else "none", stroke=text_ink,
               stroke_width=c * 0.015)  # fmt: skip
    for k, line in enumerate(values):
        _text(pg, line, "values", cx, foot - (len(values) - 1 - k) * vfont, vfont,
              c - 2 * PAD * c, text_ink, bold=True)  # fmt: skip


def _text(pg: ET.Element, line: str, cls: str, x: float, y: float, font: float, width: float,
          fill: str, *, bold: bool) -> None:  # fmt: skip
    """One centred line, held to its measured width (never more than ``width``) so it
    keeps inside the counter whatever font the viewer substitutes."""
    length = min(width, ems(line, bold) * font)
    t = el(pg, "text", line, cls=cls, x=x, y=y, font_size=font, text_anchor="middle",
           fill=fill, textLength=length, lengthAdjust="spacingAndGlyphs")  # fmt: skip
    if bold:
        t.set("font-weight", "bold")


def set_lines(
    text: str, width: float, smallest: float, largest: float, *, bold: bool, most: int
) -> tuple[list[str], float]:
    """``text`` as at most ``most`` lines and a font size from ``largest`` down to
    ``smallest`` that fit ``width``: one line if it fits at a legible size, else two
    (broken at the space that balances them best), else condensed to SQUEEZE of its
    width at the smallest size, else cut with an ellipsis."""
    font = min(largest, width / ems(text, bold))
    if font >= smallest:
        return [text], font
    lines = [text]
    words = text.split()
    if most > 1 and len(words) > 1:
        splits = [[" ".join(words[:k]), " ".join(words[k:])] for k in range(1, len(words))]
        lines = min(splits, key=lambda ls: max(ems(s, bold) for s in ls))
        font = min(largest * 0.9, width / max(ems(s, bold) for s in lines))
        if font >= smallest:
            return lines, font
    room = width / SQUEEZE / smallest  # ems a line may have at the smallest size
    out = []
    for line in lines:
        while ems(line, bold) > room and len(line) > 1:
            line = line.removesuffix("…")[:-1] + "…"
        out.append(line)
    return out, smallest


#: Where a name may break onto a second line: after these, or at a space.
_BREAKS = re.compile(r"(?<=[-/.])|(?= )")
_VOWELS = frozenset("aeiouy")


def name_lines(text: str, width: float, smallest: float, largest: float) -> tuple[list[str], float]:
    """``text`` on two lines broken after a ``-``, ``/`` or ``.`` or at a space (the
    break that balances them best: ``50mm-`` / ``Gun-2``, ``H/2/16.`` / ``mtr``), and
    the font that fits ``width``; one word is hyphenated (``Strong-`` / ``point``);
    ``[]`` when no break lets both fit at ``smallest``."""
    cuts = sorted({m.start() for m in _BREAKS.finditer(text)} - {0, len(text)})
    splits = [[text[:k].rstrip(), text[k:].strip()] for k in cuts]
    if not splits:  # one long word: hyphenated between two consonants before a vowel
        splits = [
            [text[:k] + "-", text[k:]]
            for k in range(3, len(text) - 2)
            if text[k - 1].isalpha() and text[k - 1].lower() not in _VOWELS
            and text[k].isalpha() and text[k].lower() not in _VOWELS
            and text[k + 1].lower() in _VOWELS
        ]  # fmt: skip
    best: tuple[list[str], float] = ([], 0.0)
    for two in splits:
        font = min(largest * 0.9, width / max(ems(s, False) for s in two))
        if font >= smallest and font > best[1]:
            best = (two, font)
    return best


def _badges(pg: ET.Element, marks: tuple[str, ...], cx: float, cy: float, c: float) -> None:
    """One lettered badge per status marker, down the counter's right edge."""
    h = c * 0.22
    for k, mark in enumerate(marks[:4]):
        abbr, colour = marker_style(mark)
        w = _badge_width(mark, c)
        x, y = cx + c / 2 - w * 0.7, cy - c / 2 + c * 0.02 + k * (h + c * 0.02)
        badge = el(pg, "g", cls="badge", data_mark=mark)
        el(badge, "title", mark)
        el(badge, "rect", cls="piece-mark", x=x, y=y, width=w, height=h, rx=h * 0.3,
           fill=colour, stroke="#ffffff", stroke_width=c * 0.015)  # fmt: skip
        el(badge, "text", abbr, x=x + w / 2, y=y + h * 0.74, font_size=c * 0.15,
           text_anchor="middle", fill="#ffffff", font_weight="bold")  # fmt: skip
    if len(marks) > 4:
        el(pg, "text", f"+{len(marks) - 4}", cls="badge-more", x=cx + c / 2, y=cy + c * 0.45,
           font_size=c * 0.13, text_anchor="end", fill="#ffffff")  # fmt: skip
