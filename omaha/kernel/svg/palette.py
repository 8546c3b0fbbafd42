"""Colours of terrain, sides, hexside features and status markers."""

from __future__ import annotations

import colorsys
import hashlib
import re

from omaha.kernel.board import Board


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
#: Status markers: (abbreviation on the counter, colour).
MARKER_STYLE = {
    "disrupted": ("D", "#c0392b"),
    "suppressed": ("S", "#e67e22"),
    "paralyzed": ("P", "#8e44ad"),
    "fired": ("F", "#7f8c8d"),
    "opportunity_fired": ("OF", "#7f8c8d"),
    "moved": ("M", "#2c6fbb"),
    "moving": ("M", "#2c6fbb"),
    "move_mode": ("Mv", "#2c6fbb"),
    "fire_mode": ("Fi", "#a04000"),
    "dug_in": ("DI", "#6e5a2e"),
    "improved": ("IP", "#6e5a2e"),
    "pinned": ("Pn", "#b03a2e"),
    "spotted": ("Sp", "#16a085"),
    "revealed": ("R", "#16a085"),
    "face_down": ("?", "#555555"),
    "hidden": ("?", "#555555"),
    "eliminated": ("X", "#111111"),
    "reduced": ("R", "#b03a2e"),
    "landed": ("L", "#2e86c1"),
    "ashore": ("A", "#2e86c1"),
    "selected": ("▶", "#d4ac0d"),
}
DASHED_SIDES = frozenset({"breach"})


def key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def hashed(name: str, saturation: float, lightness: float) -> str:
    hue = int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:8], 16) / 0xFFFFFFFF
    r, g, b = colorsys.hls_to_rgb(hue, lightness, saturation)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def ink(fill: str) -> str:
    """Text colour readable on ``fill`` (light on dark ``#rrggbb`` fills)."""
    if re.fullmatch("#[0-9a-fA-F]{6}", fill):
        r, g, b = (int(fill[k : k + 2], 16) for k in (1, 3, 5))
        if 0.299 * r + 0.587 * g + 0.114 * b < 110:
            return "#f0f0f0"
    return "#222222"


def terrain_colour(board: Board, terrain: str) -> str:
    """The board's legend colour, else the built-in palette, else one hashed from the name."""
    given = board.terrain_colours.get(terrain)
    return given or TERRAIN_PALETTE.get(key(terrain)) or hashed(terrain, 0.35, 0.75)


def side_colour(side: str) -> str:
    """Counter colour of a side: US olive, German blue-grey, others hashed."""
    return SIDE_PALETTE.get(key(side)) or hashed(side, 0.45, 0.4)


def side_feature_colour(name: str) -> str:
    """Stroke colour of a hexside feature (crest brown, cliff red...)."""
    return SIDE_FEATURE_PALETTE.get(key(name)) or hashed(name, 0.6, 0.35)


def marker_style(mark: str) -> tuple[str, str]:
    """(abbreviation, colour) of a status marker; unknown ones take their initials."""
    k = key(mark)
    if k in MARKER_STYLE:
        return MARKER_STYLE[k]
    words = [w for w in re.split(r"[\s_\-/]+", mark.strip()) if w]
    abbr = "".join(w[0] for w in words[:2]).upper() if len(words) > 1 else mark.strip()[:2]
    return (abbr or "?"), hashed(k, 0.55, 0.4)
