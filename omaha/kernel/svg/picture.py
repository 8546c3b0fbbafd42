"""The picture: map layers, off-map boxes, links, pieces, marks, legend and panel.

The output is deterministic: the same input gives byte-identical SVG
(coordinates rounded to 2 decimals, fallback colours derived with
:mod:`hashlib`). Elements carry ``class`` attributes (``cell``, ``side``,
``box``, ``link``, ``piece``, ``counter``, ``mark``, ``legend``...) and ``data-*``
attributes (``data-cell``, ``data-side``, ``data-box``, ``data-id``) for tools
and tests. Hidden pieces carry neither their name nor their id.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Protocol

import attrs

from omaha.kernel.board import Board
from omaha.kernel.squares import Square
from omaha.kernel.svg.counters import PieceLike, counter
from omaha.kernel.svg.elements import SVG_NS, Point, Rect, el, fit, num, points
from omaha.kernel.svg.labels import (
    LARGEST,
    abbreviated,
    feature_words,
    fit_line,
    initials,
    room,
    wrap,
)
from omaha.kernel.svg.labels import (
    width as line_width,
)
from omaha.kernel.svg.palette import (
    DASHED_SIDES,
    ink,
    key,
    marker_style,
    side_feature_colour,
    terrain_colour,
)

_SQUARE: tuple[Point, ...] = ((1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0))
#: A map counter's side as a multiple of the cell size (44 pixels at the default size,
#: room for a legible name, symbol and value line; see omaha.kernel.svg.counters).
COUNTER = 1.1
#: Counters shown side by side in a cell before the rest of a stack is counted.
FANNED = 3
#: Counters in off-map boxes and the side panel, as a multiple of a map counter's side
#: (boxes have room, and units wait there to land or enter), and how many fit a box's row.
BOX_COUNTER = 1.2
BOX_COLUMNS = 3
#: Space between counters laid out in rows, as a share of a counter's side.
GRID_GAP = 0.2
#: The side panel's width in cell sizes: beside a large map, and the least beside a
#: small one (Bloody Omaha's ten columns).
PANEL, PANEL_NARROW = 9.0, 6.0


class MarkLike(Protocol):
    @property
    def where(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def kind(self) -> str: ...


class PendingLike(Protocol):
    @property
    def player(self) -> str: ...
    @property
    def prompt(self) -> str: ...


class ViewLike(Protocol):
    """What the renderer reads of a view (``omaha.kernel.view.View`` has it all)."""

    @property
    def title(self) -> str: ...
    @property
    def player(self) -> str | None: ...
    @property
    def turn(self) -> str: ...
    @property
    def phase(self) -> str: ...
    @property
    def board(self) -> Board: ...
    @property
    def pending(self) -> PendingLike | None: ...
    @property
    def pieces(self) -> Sequence[PieceLike]: ...
    @property
    def marks(self) -> Sequence[MarkLike]: ...
    @property
    def tracks(self) -> Sequence[tuple[str, str]]: ...
    @property
    def notes(self) -> Sequence[str]: ...


# --------------------------------------------------------------------------- geometry
class _Map:
    """Cell centres and corners in page coordinates (y down), shifted to ``origin``."""

    def __init__(self, board: Board, size: float, origin: Point) -> None:
        self.board, self.size = board, size
        centres: list[Point] = []
        corners: list[list[Point]] = []
        if board.grid == "hex":
            flat = board.layout.orientation == "flat"
            angles = [math.radians((0.0 if flat else 30.0) + 60 * k) for k in range(6)]
            self.top = size * (0.866 if flat else 1.0)  # centre to the top of the cell
            for i in range(len(board)):
                x, y = board.layout.centre(board.hex(i))
                cx, cy = x * size, -y * size
                centres.append((cx, cy))
                corners.append([(cx + size * math.cos(a), cy - size * math.sin(a)) for a in angles])
        else:
            half = size * 0.8
            self.top = half
            for c in board.coords:
                assert isinstance(c, Square)
                cx, cy = c.x * 2 * half, -c.y * 2 * half
                centres.append((cx, cy))
                corners.append([(cx + dx * half, cy + dy * half) for dx, dy in _SQUARE])
        xs = [p[0] for cs in corners for p in cs] or [0.0]
        ys = [p[1] for cs in corners for p in cs] or [0.0]
        dx, dy = origin[0] - min(xs), origin[1] - min(ys)
        self.width, self.height = max(xs) - min(xs), max(ys) - min(ys)
        self.centres = [(x + dx, y + dy) for x, y in centres]
        self.corners = [[(x + dx, y + dy) for x, y in cs] for cs in corners]

    def shared_edge(self, a: int, b: int) -> tuple[Point, Point]:
        """The two corners of ``a`` nearest the centre of ``b``: their common side."""
        ca, cb = self.corners[a], self.centres[b]
        near = sorted(range(len(ca)), key=lambda k: (math.dist(ca[k], cb), k))[:2]
        return ca[min(near)], ca[max(near)]


def _star(cx: float, cy: float, r: float) -> str:
    pts = []
    for k in range(10):
        rad, a = (r if k % 2 == 0 else r * 0.45), math.radians(90 + 36 * k)
        pts.append(f"{num(cx + rad * math.cos(a))},{num(cy - rad * math.sin(a))}")
    return "M" + " L".join(pts) + " Z"


def _clip_to_rect(rect: Rect, towards: Point) -> Point:
    """Where the segment from the centre of ``rect`` to ``towards`` leaves it."""
    x, y, w, h = rect
    cx, cy = x + w / 2, y + h / 2
    dx, dy = towards[0] - cx, towards[1] - cy
    tx = (w / 2) / abs(dx) if dx else math.inf
    ty = (h / 2) / abs(dy) if dy else math.inf
    t = min(1.0, tx, ty)
    return cx + dx * t, cy + dy * t


# --------------------------------------------------------------------------- map layers
def _tags(board: Board) -> list[list[str]]:
    """Each cell's features printed as words at its foot (not the drawn ones)."""
    drawn = ("victory", "fortification", "road")
    return [sorted(f for f in fs if f not in drawn) for fs in board.features]


def _short_tags(board: Board) -> frozenset[str]:
    """Features printed by their initials on this board (the size does not matter:
    the room and the font scale together)."""
    return abbreviated(_tags(board), room(board.grid), LARGEST)


def _shared_foot(board: Board) -> bool:
    """Whether a cell's tag line and foot line meet (a square's, a flat hex's): its tags
    then go with its marks."""
    return board.grid != "hex" or board.layout.orientation == "flat"


def _foot(m: _Map) -> float:
    """How far below a cell's centre its foot line sits: a square's is lower, below its
    counter (a square has less room under the counter than a hex)."""
    return m.top - m.size * (0.06 if m.board.grid == "hex" else 0.03)


def _tag_words(board: Board, i: int, short: frozenset[str]) -> list[str]:
    """Cell ``i``'s feature tags in player words (initials for the ``short`` ones)."""
    return [initials(t) if t in short else feature_words(t) for t in _tags(board)[i]]


def _cells(g: ET.Element, m: _Map, marked: frozenset[int] = frozenset()) -> None:
    """Cells, roads, labels, drawn features and feature tags (where tags and marks would
    meet, a cell with marks, ``marked``, has its tags on its marks' line or hover)."""
    board, size = m.board, m.size
    short = _short_tags(board)
    square, shared = board.grid != "hex", _shared_foot(board)
    for i, label in enumerate(board.labels):
        fill = terrain_colour(board, board.terrain[i])
        el(
            g,
            "polygon",
            cls="cell",
            data_cell=label,
            points=points(m.corners[i]),
            fill=fill,
            stroke="#555555",
            stroke_width=size * 0.03,
        )
    for i in board.cells_where(feature="road"):
        cx, cy = m.centres[i]
        ends = [n for n in board.neighbours[i] if "road" in board.features[n]]
        for n in ends:
            nx, ny = m.centres[n]
            el(
                g,
                "line",
                cls="road",
                x1=cx,
                y1=cy,
                x2=(cx + nx) / 2,
                y2=(cy + ny) / 2,
                stroke="#8a6a3a",
                stroke_width=size * 0.08,
                stroke_linecap="round",
            )
        if not ends:
            el(g, "circle", cls="road", cx=cx, cy=cy, r=size * 0.08, fill="#8a6a3a")
    for i, label in enumerate(board.labels):
        cx, cy = m.centres[i]
        label_ink = ink(terrain_colour(board, board.terrain[i]))
        el(
            g,
            "text",
            label,
            cls="label",
            x=cx,
            y=cy - m.top + size * 0.3,
            font_size=size * 0.24,
            text_anchor="middle",
            fill=label_ink,
        )
        x, y, tags = cx - size * 0.35, cy + size * 0.42, []
        for feat in sorted(board.features[i]):
            if feat == "victory":
                el(
                    g,
                    "path",
                    cls="feature victory",
                    d=_star(x, y, size * 0.14),
                    fill="#e0b000",
                    stroke="#604800",
                    stroke_width=size * 0.02,
                )
                x += size * 0.3
            elif feat == "fortification":
                r = size * 0.1
                el(
                    g,
                    "rect",
                    cls="feature fortification",
                    x=x - r,
                    y=y - r,
                    width=2 * r,
                    height=2 * r,
                    fill="none",
                    stroke="#202020",
                    stroke_width=size * 0.04,
                )
                x += size * 0.3
            elif feat != "road":
                tags.append(feat)
        if tags and not (shared and i in marked):
            # player words, not data keys; a long feature by its initials (the legend
            # names it) where the board's tags would not fit whole
            words = _tag_words(board, i, short)
            line = fit_line(words, size * room(board.grid), size, sep=" ")
            tag = el(
                g,
                "text",
                line.text,
                cls="feature tag",
                x=cx,
                y=cy + (_foot(m) if square else size * 0.7),
                font_size=line.font,
                text_anchor="middle",
                fill=label_ink,
            )
            if line.whole or any(t in short for t in tags):
                el(tag, "title", ", ".join(map(feature_words, tags)))


def _sides(g: ET.Element, m: _Map) -> None:
    board, size = m.board, m.size
    seen: dict[tuple[int, int], int] = {}
    for (a, b), feat in board.side_records():
        j = seen[(a, b)] = seen.get((a, b), -1) + 1  # several features: thinner on top
        (x1, y1), (x2, y2) = m.shared_edge(a, b)
        colour = side_feature_colour(feat.name)
        dash = f"{num(size * 0.15)},{num(size * 0.1)}" if key(feat.name) in DASHED_SIDES else ""
        line = el(
            g,
            "line",
            cls=f"side {feat.name}",
            data_side=f"{board.labels[a]}|{board.labels[b]}",
            x1=x1,
            y1=y1,
            x2=x2,
            y2=y2,
            stroke=colour,
            stroke_width=size * max(0.04, 0.16 - 0.05 * j),
            stroke_linecap="round",
        )
        if dash:
            line.set("stroke-dasharray", dash)
        if feat.up is not None:  # a small arrowhead pointing into the higher cell
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            ux, uy = m.centres[feat.up]
            d = math.dist((mx, my), (ux, uy)) or 1.0
            vx, vy = (ux - mx) / d, (uy - my) / d
            tip, w = size * 0.22, size * 0.09
            path = (
                f"M{num(mx + vx * tip)},{num(my + vy * tip)} "
                f"L{num(mx - vy * w)},{num(my + vx * w)} "
                f"L{num(mx + vy * w)},{num(my - vx * w)} Z"
            )
            el(g, "path", cls="side-up", d=path, fill=colour)


def _grid(
    g: ET.Element, pieces: Sequence[PieceLike], x: float, y: float, width: float, c: float
) -> float:
    """Counters in rows from (x, y) within ``width``; returns the height used."""
    gap = c * GRID_GAP
    cols = max(1, int((width + gap) // (c + gap)))
    for k, p in enumerate(pieces):
        row, col = divmod(k, cols)
        counter(g, p, x + col * (c + gap) + c / 2, y + row * (c + gap) + c / 2, c)
    return -(-len(pieces) // cols) * (c + gap)


def _stack(g: ET.Element, stack: Sequence[PieceLike], cx: float, cy: float, c: float) -> None:
    """A cell's pieces: up to FANNED fanned sideways (never up over the cell's label),
    the rest under the last, with the stack's size in a corner badge."""
    n = len(stack)
    step = c * 0.16
    shown = min(n, FANNED)
    for k, p in enumerate(stack):
        pos = min(k, shown - 1)
        # pieces beyond the fan sit a hair apart under the last one shown
        extra = max(0, k - (shown - 1)) * c * 0.02
        x = cx + (pos - (shown - 1) / 2) * step + extra
        counter(g, p, x, cy + pos * c * 0.05 + extra, c)
    if n > FANNED:
        x, y = cx - c / 2 - (shown - 1) / 2 * step, cy - c * 0.3
        badge = el(g, "g", cls="stack-count")
        el(badge, "title", f"{n} pieces in this stack")
        el(badge, "circle", cx=x, cy=y, r=c * 0.17, fill="#ffffff", stroke="#111111",
           stroke_width=c * 0.03)  # fmt: skip
        el(badge, "text", str(n), x=x, y=y + c * 0.06, font_size=c * 0.17, text_anchor="middle",
           font_weight="bold", fill="#111111")  # fmt: skip


def _legend(board: Board, view: ViewLike | None) -> list[tuple[str, str, str]]:
    """(kind, swatch colour or abbreviation, meaning) for what this picture shows."""
    rows: list[tuple[str, str, str]] = []
    for terrain in sorted(set(board.terrain)):
        rows.append(("terrain", terrain_colour(board, terrain), terrain.replace("_", " ")))
    for name in sorted({feat.name for _, feat in board.side_records()}):
        rows.append(("side", side_feature_colour(name), name.replace("_", " ") + " (hexside)"))
    for feat in sorted(_short_tags(board)):
        rows.append(("tag", initials(feat), f"{initials(feat)} = {feature_words(feat)}"))
    features = {f for fs in board.features for f in fs}
    for feat, meaning in (("victory", "victory objective"), ("fortification", "fortification"),
                          ("road", "road")):  # fmt: skip
        if feat in features:
            rows.append(("feature", feat, meaning))
    if view is not None:
        seen: dict[str, str] = {}
        for p in view.pieces:
            for mark in p.marks:
                seen.setdefault(mark, mark)
        for mark in sorted(seen):
            abbr, colour = marker_style(mark)
            rows.append(("marker", colour, f"{abbr} = {mark.replace('_', ' ')}"))
    return rows


def _legend_swatch(g: ET.Element, kind: str, colour: str, x: float, y: float, s: float) -> None:
    if kind == "terrain":
        el(g, "rect", x=x, y=y - s * 0.8, width=s * 1.2, height=s * 0.8, fill=colour,
           stroke="#555555", stroke_width=s * 0.05)  # fmt: skip
    elif kind == "side":
        el(g, "line", x1=x, y1=y - s * 0.4, x2=x + s * 1.2, y2=y - s * 0.4, stroke=colour,
           stroke_width=s * 0.25, stroke_linecap="round")  # fmt: skip
    elif kind == "tag":  # the row itself says it: "DZ = defensive zone"
        return
    elif kind == "marker":
        el(g, "rect", x=x, y=y - s * 0.8, width=s * 1.2, height=s * 0.8, rx=s * 0.25, fill=colour)
    elif colour == "victory":
        el(g, "path", d=_star(x + s * 0.6, y - s * 0.4, s * 0.45), fill="#e0b000",
           stroke="#604800", stroke_width=s * 0.05)  # fmt: skip
    elif colour == "fortification":
        el(g, "rect", x=x + s * 0.3, y=y - s * 0.7, width=s * 0.6, height=s * 0.6, fill="none",
           stroke="#202020", stroke_width=s * 0.1)  # fmt: skip
    else:
        el(g, "line", x1=x, y1=y - s * 0.4, x2=x + s * 1.2, y2=y - s * 0.4, stroke="#8a6a3a",
           stroke_width=s * 0.2)  # fmt: skip


# --------------------------------------------------------------------------- the picture
def _render(board: Board, size: float, view: ViewLike | None, legend: bool, links: bool) -> str:
    margin = size * 0.6
    # a counter sits below the cell's printed label and above its foot line of marks
    c, drop = size * COUNTER, size * (0.12 if board.grid == "hex" else 0.07)
    root = ET.Element("svg", {"xmlns": SVG_NS})
    marker = el(
        el(root, "defs"),
        "marker",
        id="arrow",
        viewBox="0 0 10 10",
        refX=9,
        refY=5,
        markerWidth=6,
        markerHeight=6,
        orient="auto-start-reverse",
    )
    el(marker, "path", d="M0,0 L10,5 L0,10 Z", fill="#777777")
    background = el(root, "rect", cls="background", x=0, y=0, fill="#ffffff")

    # header: title, turn and phase, pending decision
    head = el(root, "g", cls="header")
    lines = [(view.title if view else board.title, 0.55, "title")]
    if view is not None:
        who = f" · view: {view.player}" if view.player else ""
        lines.append((f"{view.turn} · {view.phase}{who}", 0.38, "turn"))
        pend = view.pending
        prompt = f"→ {pend.player}: {pend.prompt}" if pend else "no decision pending"
        lines.append((prompt, 0.38, "pending"))
    y, widest = margin, 0.0
    for text, scale, cls in lines:
        y += size * scale * 1.3
        el(
            head,
            "text",
            text,
            cls=cls,
            x=margin,
            y=y,
            font_size=size * scale,
            font_weight="bold" if cls == "title" else "normal",
        )
        widest = max(widest, len(text) * size * scale * 0.58)
    top = y + margin

    m = _Map(board, size, (margin, top))
    cells_g = el(root, "g", cls="cells")
    _sides(el(root, "g", cls="sides"), m)

    # where each piece and mark goes: a cell, a box, or the side panel
    cell_pieces: dict[int, list[PieceLike]] = {}
    box_pieces: dict[str, list[PieceLike]] = {}
    cell_marks: dict[int, list[MarkLike]] = {}
    box_marks: dict[str, list[MarkLike]] = {}
    off_pieces: list[PieceLike] = []
    off_marks: list[MarkLike] = []
    for p in view.pieces if view else ():
        if p.where in board.boxes:
            box_pieces.setdefault(p.where, []).append(p)
        elif p.where and board.has(p.where):
            cell_pieces.setdefault(board.cell(p.where), []).append(p)
        else:
            off_pieces.append(p)
    for mk in view.marks if view else ():
        if mk.where in board.boxes:
            box_marks.setdefault(mk.where, []).append(mk)
        elif mk.where and board.has(mk.where):
            cell_marks.setdefault(board.cell(mk.where), []).append(mk)
        else:
            off_marks.append(mk)

    _cells(cells_g, m, frozenset(cell_marks))

    # off-map boxes: a strip below the map, in box id order, all of one height
    box_ids = sorted(board.boxes)
    # counters off the map are drawn larger than on it: a box has the room
    cb, pad, title_h = c * BOX_COUNTER, size * 0.25, size * 0.75
    bw = max(size * 5.0, BOX_COLUMNS * cb + (BOX_COLUMNS - 1) * cb * GRID_GAP + 2 * pad)
    per_row = max(1, int((max(m.width, bw) + pad) // (bw + pad)))
    cols_in_box = max(1, int((bw - 2 * pad + cb * GRID_GAP) // (cb * (1 + GRID_GAP))))
    # a box's title on one line, or whole on two (every box of the strip alike)
    titles = {b: wrap(board.boxes[b].title or b, bw - 2 * pad, size * 0.3, True) for b in box_ids}
    title_h += size * 0.38 * (min(2, max(map(len, titles.values()), default=1)) - 1)
    bh = size * 2.0
    for b in box_ids:
        rows = -(-len(box_pieces.get(b, [])) // cols_in_box)
        marks_h = len(box_marks.get(b, [])) * size * 0.3
        bh = max(bh, title_h + marks_h + rows * cb * (1 + GRID_GAP) + pad)
    rects: dict[str, Rect] = {}
    boxes_g = el(root, "g", cls="boxes")
    for k, bid in enumerate(box_ids):
        row, col = divmod(k, per_row)
        bx, by = margin + col * (bw + pad), top + m.height + margin + row * (bh + pad)
        rects[bid] = (bx, by, bw, bh)
        el(
            boxes_g,
            "rect",
            cls="box",
            data_box=bid,
            x=bx,
            y=by,
            width=bw,
            height=bh,
            rx=size * 0.1,
            fill="#f4f1e8",
            stroke="#444444",
            stroke_width=size * 0.04,
        )
        title_lines = titles[bid]
        if len(title_lines) > 2:
            rest = fit(" ".join(title_lines[1:]), bw - 2 * pad, size * 0.3)
            title_lines = [title_lines[0], rest]
        for n, part in enumerate(title_lines):
            head_line = el(
                boxes_g,
                "text",
                part,
                cls="box-title",
                x=bx + pad,
                y=by + size * (0.5 + 0.38 * n),
                font_size=size * 0.3,
                font_weight="bold",
            )
            if "…" in part:
                el(head_line, "title", board.boxes[bid].title or bid)
        ty = by + title_h
        for mk in box_marks.get(bid, []):
            line = fit_line([mk.text], bw - 2 * pad, size)
            box_mark = el(
                boxes_g,
                "text",
                line.text,
                cls=f"mark {mk.kind}",
                x=bx + pad,
                y=ty + size * 0.2,
                font_size=line.font,
                fill="#8b0000",
            )
            if line.whole:
                el(box_mark, "title", line.whole)
            ty += size * 0.3
        _grid(boxes_g, box_pieces.get(bid, []), bx + pad, ty, bw - 2 * pad, cb)
    box_rows = -(-len(box_ids) // per_row)
    bottom = top + m.height + (margin + box_rows * (bh + pad) if box_ids else 0.0)

    # links: thin grey arrows between cell centres and box edges (many only on request)
    links_g = el(root, "g", cls="links")
    for link in board.links if links else ():
        names = (link.start, link.end)
        centres = [
            (rects[n][0] + bw / 2, rects[n][1] + bh / 2) if n in rects else m.centres[board.cell(n)]
            for n in names
        ]
        ends = [
            _clip_to_rect(rects[n], centres[1 - k]) if n in rects else centres[k]
            for k, n in enumerate(names)
        ]
        (x1, y1), (x2, y2) = ends
        arrow = el(links_g, "line", cls=f"link {link.kind}", x1=x1, y1=y1, x2=x2, y2=y2,
                   stroke="#777777", stroke_width=size * 0.05,
                   marker_end="url(#arrow)")  # fmt: skip
        el(arrow, "title", f"{link.kind}: {link.start} → {link.end}")

    # marks on cells: a line of text at the foot of the cell, sized to fit, on a white
    # ground (a hexside line through it would read as an underscore), under the pieces
    # (a counter's values stay readable where a stack stands); shortened, the whole
    # text is its hover
    marks_g = el(root, "g", cls="marks")
    short, shared = _short_tags(board), _shared_foot(board)
    for i in sorted(cell_marks):
        cx, cy = m.centres[i]
        texts = [mk.text for mk in cell_marks[i]]
        line = fit_line(texts, size * room(board.grid), size)
        if shared and _tags(board)[i]:  # the tags join the foot line whole, or its hover
            tags = _tag_words(board, i, short)
            joined = fit_line([" ".join(tags), *texts], size * room(board.grid), size)
            whole = f"{' '.join(tags)}: {line.whole or line.text}"
            line = joined if not joined.whole else attrs.evolve(line, whole=whole)
        kinds = " ".join(sorted({mk.kind for mk in cell_marks[i]}))
        y, w = cy + _foot(m), line_width(line.text, line.font)
        mg = el(marks_g, "g", cls="mark-line")
        el(mg, "rect", x=cx - w / 2 - size * 0.03, y=y - line.font * 0.85,
           width=w + size * 0.06, height=line.font * 1.1, rx=line.font * 0.3, fill="#ffffff",
           fill_opacity=0.85)  # fmt: skip
        el(mg, "text", line.text, cls=f"mark {kinds}", x=cx, y=y, font_size=line.font,
           text_anchor="middle", fill="#8b0000")  # fmt: skip
        if line.whole:
            el(mg, "title", line.whole)

    # pieces (stacks fanned, the rest counted), below each cell's printed label
    pieces_g = el(root, "g", cls="pieces")
    for i in sorted(cell_pieces):
        cx, cy = m.centres[i]
        _stack(pieces_g, cell_pieces[i], cx, cy + drop, c)
    # side panel: tracks, notes, marks and pieces off the map
    right = margin + max(m.width, min(len(box_ids), per_row) * (bw + pad) - pad)
    # the panel is narrower beside a small map, so map and panel fit a window together
    pw = min(PANEL, max(PANEL_NARROW, m.width * 0.375 / size)) * size
    px, font = right + margin, size * 0.32
    py = top
    panel = el(root, "g", cls="panel")

    def write(text: str, cls: str) -> None:
        nonlocal py
        bold = cls == "heading"
        for part in wrap(text, pw, font):
            py += font * (1.5 if bold else 1.3)
            el(
                panel,
                "text",
                part,
                cls=cls,
                x=px,
                y=py,
                font_size=font,
                font_weight="bold" if bold else "normal",
            )

    if view is not None and view.tracks:
        write("Tracks", "heading")
        for name, value in view.tracks:
            write(f"{name}: {value}", "track")
    if view is not None and (view.notes or off_marks):
        write("Notes", "heading")
        for note in view.notes:
            write(note, "note")
        for mk in off_marks:
            write(f"{mk.where + ': ' if mk.where else ''}{mk.text}", f"mark {mk.kind}")
    if off_pieces:
        write("Off map", "heading")
        py += font * 0.5 + _grid(panel, off_pieces, px, py + font * 0.5, pw, cb)
    if legend:
        write("Legend", "heading")
        leg = el(panel, "g", cls="legend")
        swatch = font * 0.9
        for kind, colour, meaning in _legend(board, view):
            py += font * 1.3
            _legend_swatch(leg, kind, colour, px, py, swatch)
            el(leg, "text", fit(meaning, pw - swatch * 1.6, font * 0.9), cls=f"legend {kind}",
               x=px + swatch * 1.6, y=py, font_size=font * 0.9)  # fmt: skip

    width = max(px + pw if py > top else right, widest + margin) + margin
    height = max(bottom, py) + margin
    for e in (root, background):
        e.set("width", num(width))
        e.set("height", num(height))
    root.set("viewBox", f"0 0 {num(width)} {num(height)}")
    root.set("font-family", "DejaVu Sans, Verdana, sans-serif")
    return ET.tostring(root, encoding="unicode")


#: Default cell size (hex circumradius, or half a square's side, in pixels).
SIZE = 40.0
#: Above this many printed links (TCS scatter paths) a view leaves them out unless asked.
MANY_LINKS = 12


def render_board(board: Board, *, size: float = SIZE, legend: bool = True) -> str:
    """The map alone as an SVG document, with every printed link."""
    if size <= 0:
        raise ValueError(f"size must be positive, not {size}")
    return _render(board, size, None, legend, links=True)


def render_view(
    view: ViewLike, *, size: float = SIZE, legend: bool = True, links: bool | None = None
) -> str:
    """The map with the view's pieces, marks, tracks, notes and pending decision.

    ``links``: draw the board's printed links (arrows between cells and boxes);
    by default only when there are few of them.
    """
    if size <= 0:
        raise ValueError(f"size must be positive, not {size}")
    show = len(view.board.links) <= MANY_LINKS if links is None else links
    return _render(view.board, size, view, legend, links=show)


__all__ = ["SIZE", "render_board", "render_view"]
