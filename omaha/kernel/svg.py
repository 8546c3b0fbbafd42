"""SVG pictures of boards and views, built with :mod:`xml.etree.ElementTree` only.

:func:`render_board` draws the map alone: cells with terrain fills and printed
labels, cell features, hexside features, off-map boxes and links.
:func:`render_view` adds the pieces, marks, tracks, notes and the pending
decision of a :class:`~omaha.kernel.protocol.View`.

The output is deterministic: the same input gives byte-identical SVG
(coordinates rounded to 2 decimals, fallback colours derived with
:mod:`hashlib`). Elements carry ``class`` attributes (``cell``, ``side``,
``box``, ``link``, ``piece``, ``counter``, ``mark``...) and ``data-*``
attributes (``data-cell``, ``data-side``, ``data-box``, ``data-id``) for tools
and tests. Hidden pieces carry neither their name nor their id.
"""

from __future__ import annotations

import colorsys
import hashlib
import math
import re
import textwrap
import xml.etree.ElementTree as ET

from omaha.kernel.board import Board
from omaha.kernel.squares import Square
from omaha.kernel.view import Mark, Piece, View

SVG_NS = "http://www.w3.org/2000/svg"
Point = tuple[float, float]
Rect = tuple[float, float, float, float]


def _table(spec: str) -> dict[str, str]:
    """``"a b: #colour"`` lines -> ``{"a": "#colour", "b": "#colour"}``."""
    out: dict[str, str] = {}
    for row in spec.strip().splitlines():
        names, colour = row.split(":")
        out.update(dict.fromkeys(names.split(), colour.strip()))
    return out


TERRAIN_PALETTE = _table("""
    ocean sea: #4a7fb5
    channel: #6a9ac8
    part_ocean surf: #8ab8d8
    tidal_flat: #c8d8d0
    beach: #eedc9a
    shingle: #c4bcac
    open clear: #e8ecd0
    farmland: #d8e2a0
    woods forest: #7fa86a
    town village: #c9a98a
    road: #d0c0a0
    bluff: #b89870
    draw: #d6c49a
    hedgerow bocage: #a8c080
    strongpoint: #b0a0a0
    exit: #f0d0d0
    marsh: #a8c8b0
    hill: #c8b890
    cliff: #a08070
""")
SIDE_FEATURE_PALETTE = _table("""
    crest: #8b5a2b
    cliff: #c0392b
    bocage hedge hedgerow: #1f5a1f
    shingle: #7f7f7f
    slope: #c8a870
    extreme_slope: #a07840
    breach: #303030
    wall seawall: #555555
    river stream: #3070c0
""")
SIDE_PALETTE = _table("""
    us american allied: #6b7b3a
    german axis: #5f7386
    british commonwealth: #9a7b48
""")
DASHED_SIDES = frozenset({"breach"})
_BAD_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SQUARE: tuple[Point, ...] = ((1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0))


# --------------------------------------------------------------------------- small helpers
def _num(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _clean(text: str) -> str:
    """Text XML 1.0 can carry (ElementTree escapes <, & and > but not control codes)."""
    return _BAD_XML.sub("", text)


def _el(
    parent: ET.Element, tag: str, text: str | None = None, /, **attrs: str | float
) -> ET.Element:
    """A child element; ``cls`` is ``class`` and ``_`` in names becomes ``-``."""
    clean = {
        ("class" if k == "cls" else k.replace("_", "-")): (
            _clean(v) if isinstance(v, str) else _num(v)
        )
        for k, v in attrs.items()
    }
    e = ET.SubElement(parent, tag, clean)
    if text is not None:
        e.text = _clean(text)
    return e


def _points(pts: list[Point]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in pts)


def _fit(text: str, width: float, font: float) -> str:
    most = max(1, int(width / (font * 0.58)))
    return text if len(text) <= most else text[: max(1, most - 1)] + "…"


def _hashed(name: str, saturation: float, lightness: float) -> str:
    hue = int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:8], 16) / 0xFFFFFFFF
    r, g, b = colorsys.hls_to_rgb(hue, lightness, saturation)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _ink(fill: str) -> str:
    """Text colour readable on ``fill`` (light on dark ``#rrggbb`` fills)."""
    if re.fullmatch("#[0-9a-fA-F]{6}", fill):
        r, g, b = (int(fill[k : k + 2], 16) for k in (1, 3, 5))
        if 0.299 * r + 0.587 * g + 0.114 * b < 110:
            return "#f0f0f0"
    return "#222222"


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def terrain_colour(board: Board, terrain: str) -> str:
    """The board's legend colour, else the built-in palette, else one hashed from the name."""
    given = board.terrain_colours.get(terrain)
    return given or TERRAIN_PALETTE.get(_key(terrain)) or _hashed(terrain, 0.35, 0.75)


def side_colour(side: str) -> str:
    """Counter colour of a side: US olive, German blue-grey, others hashed."""
    return SIDE_PALETTE.get(_key(side)) or _hashed(side, 0.45, 0.4)


def side_feature_colour(name: str) -> str:
    """Stroke colour of a hexside feature (crest brown, cliff red...)."""
    return SIDE_FEATURE_PALETTE.get(_key(name)) or _hashed(name, 0.6, 0.35)


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
        pts.append(f"{_num(cx + rad * math.cos(a))},{_num(cy - rad * math.sin(a))}")
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
def _cells(g: ET.Element, m: _Map) -> None:
    board, size = m.board, m.size
    for i, label in enumerate(board.labels):
        fill = terrain_colour(board, board.terrain[i])
        _el(
            g,
            "polygon",
            cls="cell",
            data_cell=label,
            points=_points(m.corners[i]),
            fill=fill,
            stroke="#555555",
            stroke_width=size * 0.03,
        )
    for i in board.cells_where(feature="road"):
        cx, cy = m.centres[i]
        ends = [n for n in board.neighbours[i] if "road" in board.features[n]]
        for n in ends:
            nx, ny = m.centres[n]
            _el(
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
            _el(g, "circle", cls="road", cx=cx, cy=cy, r=size * 0.08, fill="#8a6a3a")
    for i, label in enumerate(board.labels):
        cx, cy = m.centres[i]
        ink = _ink(terrain_colour(board, board.terrain[i]))
        _el(
            g,
            "text",
            label,
            cls="label",
            x=cx,
            y=cy - m.top + size * 0.3,
            font_size=size * 0.24,
            text_anchor="middle",
            fill=ink,
        )
        x, y, tags = cx - size * 0.35, cy + size * 0.42, []
        for feat in sorted(board.features[i]):
            if feat == "victory":
                _el(
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
                _el(
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
        if tags:
            text = _fit(" ".join(tags), size * 1.2, size * 0.15)
            _el(
                g,
                "text",
                text,
                cls="feature tag",
                x=cx,
                y=cy + size * 0.7,
                font_size=size * 0.15,
                text_anchor="middle",
                fill=ink,
            )


def _sides(g: ET.Element, m: _Map) -> None:
    board, size = m.board, m.size
    seen: dict[tuple[int, int], int] = {}
    for (a, b), feat in board.side_records():
        j = seen[(a, b)] = seen.get((a, b), -1) + 1  # several features: thinner on top
        (x1, y1), (x2, y2) = m.shared_edge(a, b)
        colour = side_feature_colour(feat.name)
        dash = f"{_num(size * 0.15)},{_num(size * 0.1)}" if _key(feat.name) in DASHED_SIDES else ""
        line = _el(
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
                f"M{_num(mx + vx * tip)},{_num(my + vy * tip)} "
                f"L{_num(mx - vy * w)},{_num(my + vx * w)} "
                f"L{_num(mx + vy * w)},{_num(my - vx * w)} Z"
            )
            _el(g, "path", cls="side-up", d=path, fill=colour)


def _counter(g: ET.Element, p: Piece, cx: float, cy: float, c: float) -> None:
    """A counter of side ``c`` centred on (cx, cy); hidden pieces face down."""
    pg = _el(g, "g", cls="piece", data_side=p.side)
    if not p.hidden:
        pg.set("data-id", _clean(p.id))
    tip = f"{p.side}: hidden" if p.hidden else f"{p.side}: {p.name} {p.values}".rstrip()
    _el(pg, "title", tip + (f" [{', '.join(p.marks)}]" if p.marks else ""))
    _el(
        pg,
        "rect",
        cls="counter",
        x=cx - c / 2,
        y=cy - c / 2,
        width=c,
        height=c,
        rx=c * 0.12,
        fill=side_colour(p.side),
        fill_opacity=0.6 if p.hidden else 1,
        stroke="#1a1a1a",
        stroke_width=c * 0.05,
    )
    font = c * 0.26
    if p.hidden:
        _el(
            pg,
            "text",
            "?",
            x=cx,
            y=cy + c * 0.2,
            font_size=c * 0.55,
            text_anchor="middle",
            fill="#ffffff",
        )
    else:
        for text, dy in ((p.name, -0.02 if p.values else 0.1), (p.values, 0.32)):
            if text:
                _el(
                    pg,
                    "text",
                    _fit(text, c * 0.95, font),
                    x=cx,
                    y=cy + c * dy,
                    font_size=font,
                    text_anchor="middle",
                    fill="#ffffff",
                )
    if p.marks:  # a red tag across the top, up to twice the counter's width
        text = ",".join(p.marks)
        w = min(2 * c, max(c, (len(text) + 1) * c * 0.2 * 0.58))
        _el(
            pg,
            "rect",
            cls="piece-mark",
            x=cx - w / 2,
            y=cy - c * 0.62,
            width=w,
            height=c * 0.24,
            fill="#c00000",
        )
        _el(
            pg,
            "text",
            _fit(text, w, c * 0.2),
            x=cx,
            y=cy - c * 0.44,
            font_size=c * 0.2,
            text_anchor="middle",
            fill="#ffffff",
        )


def _grid(g: ET.Element, pieces: list[Piece], x: float, y: float, width: float, c: float) -> float:
    """Counters in rows from (x, y) within ``width``; returns the height used."""
    gap = c * 0.25
    cols = max(1, int((width + gap) // (c + gap)))
    for k, p in enumerate(pieces):
        row, col = divmod(k, cols)
        _counter(g, p, x + col * (c + gap) + c / 2, y + row * (c + gap) + c / 2, c)
    return -(-len(pieces) // cols) * (c + gap)


# --------------------------------------------------------------------------- the picture
def _render(board: Board, size: float, view: View | None) -> str:
    margin, c = size * 0.6, size * 0.62
    root = ET.Element("svg", {"xmlns": SVG_NS})
    marker = _el(
        _el(root, "defs"),
        "marker",
        id="arrow",
        viewBox="0 0 10 10",
        refX=9,
        refY=5,
        markerWidth=6,
        markerHeight=6,
        orient="auto-start-reverse",
    )
    _el(marker, "path", d="M0,0 L10,5 L0,10 Z", fill="#777777")
    background = _el(root, "rect", cls="background", x=0, y=0, fill="#ffffff")

    # header: title, turn and phase, pending decision
    head = _el(root, "g", cls="header")
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
        _el(
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
    _cells(_el(root, "g", cls="cells"), m)
    _sides(_el(root, "g", cls="sides"), m)

    # where each piece and mark goes: a cell, a box, or the side panel
    cell_pieces: dict[int, list[Piece]] = {}
    box_pieces: dict[str, list[Piece]] = {}
    cell_marks: dict[int, list[Mark]] = {}
    box_marks: dict[str, list[Mark]] = {}
    off_pieces: list[Piece] = []
    off_marks: list[Mark] = []
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

    # off-map boxes: a strip below the map, in box id order, all of one height
    box_ids = sorted(board.boxes)
    bw, pad, title_h = size * 5.0, size * 0.25, size * 0.75
    per_row = max(1, int((max(m.width, bw) + pad) // (bw + pad)))
    cols_in_box = max(1, int((bw - 2 * pad + c * 0.25) // (c * 1.25)))
    bh = size * 2.0
    for b in box_ids:
        rows = -(-len(box_pieces.get(b, [])) // cols_in_box)
        bh = max(bh, title_h + len(box_marks.get(b, [])) * size * 0.3 + rows * c * 1.25 + pad)
    rects: dict[str, Rect] = {}
    boxes_g = _el(root, "g", cls="boxes")
    for k, bid in enumerate(box_ids):
        row, col = divmod(k, per_row)
        bx, by = margin + col * (bw + pad), top + m.height + margin + row * (bh + pad)
        rects[bid] = (bx, by, bw, bh)
        _el(
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
        title = _fit(board.boxes[bid].title or bid, bw - 2 * pad, size * 0.3)
        _el(
            boxes_g,
            "text",
            title,
            cls="box-title",
            x=bx + pad,
            y=by + size * 0.5,
            font_size=size * 0.3,
            font_weight="bold",
        )
        ty = by + title_h
        for mk in box_marks.get(bid, []):
            _el(
                boxes_g,
                "text",
                _fit(mk.text, bw - 2 * pad, size * 0.2),
                cls=f"mark {mk.kind}",
                x=bx + pad,
                y=ty + size * 0.2,
                font_size=size * 0.2,
                fill="#8b0000",
            )
            ty += size * 0.3
        _grid(boxes_g, box_pieces.get(bid, []), bx + pad, ty, bw - 2 * pad, c)
    box_rows = -(-len(box_ids) // per_row)
    bottom = top + m.height + (margin + box_rows * (bh + pad) if box_ids else 0.0)

    # links: thin grey arrows between cell centres and box edges
    links_g = _el(root, "g", cls="links")
    for link in board.links:
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
        arrow = _el(
            links_g,
            "line",
            cls=f"link {link.kind}",
            x1=x1,
            y1=y1,
            x2=x2,
            y2=y2,
            stroke="#777777",
            stroke_width=size * 0.05,
            marker_end="url(#arrow)",
        )
        _el(arrow, "title", f"{link.kind}: {link.start} → {link.end}")

    # pieces (stacks fanned out diagonally) and marks on the map
    pieces_g = _el(root, "g", cls="pieces")
    for i in sorted(cell_pieces):
        stack, (cx, cy) = cell_pieces[i], m.centres[i]
        n = len(stack)
        step = min(size * 0.14, size * 0.6 / (n - 1)) if n > 1 else 0.0
        for k, p in enumerate(stack):
            off = (k - (n - 1) / 2) * step
            _counter(pieces_g, p, cx + off, cy + size * 0.08 + off, c)
    marks_g = _el(root, "g", cls="marks")
    for i in sorted(cell_marks):
        cx, cy = m.centres[i]
        text = _fit("; ".join(mk.text for mk in cell_marks[i]), size * 1.5, size * 0.18)
        kinds = " ".join(sorted({mk.kind for mk in cell_marks[i]}))
        _el(
            marks_g,
            "text",
            text,
            cls=f"mark {kinds}",
            x=cx,
            y=cy - m.top + size * 0.52,
            font_size=size * 0.18,
            text_anchor="middle",
            fill="#8b0000",
            stroke="#ffffff",
            stroke_width=size * 0.04,
            paint_order="stroke",
        )

    # side panel: tracks, notes, marks and pieces off the map
    right = margin + max(m.width, min(len(box_ids), per_row) * (bw + pad) - pad)
    px, pw, font = right + margin, size * 9.0, size * 0.32
    py = top
    panel = _el(root, "g", cls="panel")
    chars = max(10, int(pw / (font * 0.58)))

    def write(text: str, cls: str) -> None:
        nonlocal py
        bold = cls == "heading"
        for part in textwrap.wrap(text, chars) or [""]:
            py += font * (1.5 if bold else 1.3)
            _el(
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
        py += font * 0.5 + _grid(panel, off_pieces, px, py + font * 0.5, pw, c)

    width = max(px + pw if py > top else right, widest + margin) + margin
    height = max(bottom, py) + margin
    for el in (root, background):
        el.set("width", _num(width))
        el.set("height", _num(height))
    root.set("viewBox", f"0 0 {_num(width)} {_num(height)}")
    root.set("font-family", "sans-serif")
    return ET.tostring(root, encoding="unicode")


def render_board(board: Board, *, size: float = 28.0) -> str:
    """The map alone as an SVG document; ``size`` is the hex circumradius in pixels."""
    return _render(board, size, None)


def render_view(view: View, *, size: float = 28.0) -> str:
    """The map with the view's pieces, marks, tracks, notes and pending decision."""
    return _render(view.board, size, view)


__all__ = [
    "render_board",
    "render_view",
    "side_colour",
    "side_feature_colour",
    "terrain_colour",
]
