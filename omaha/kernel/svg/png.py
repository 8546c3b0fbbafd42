"""PNG from our SVG through ``resvg_py`` (a self-contained wheel: no system libraries),
installed with the ``png`` extra."""

from __future__ import annotations

import importlib
from pathlib import Path

PNG_EXTRA = "pip install 'omaha[png]'"
_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/Library/Fonts", "C:/Windows/Fonts")


def to_png(svg: str, *, scale: float = 1.0) -> bytes:
    """Render ``svg`` to PNG bytes at ``scale`` times its size; ``RuntimeError`` naming
    the extra to install when the renderer is absent."""
    try:
        resvg = importlib.import_module("resvg_py")
    except ImportError:
        raise RuntimeError(f"PNG output needs the resvg renderer: {PNG_EXTRA}") from None
    if scale <= 0:
        raise ValueError(f"scale must be positive, not {scale}")
    dirs = [d for d in _FONT_DIRS if Path(d).is_dir()]
    png: bytes = resvg.svg_to_bytes(
        svg_string=svg,
        background="#ffffff",
        zoom=scale,
        font_dirs=dirs,
        sans_serif_family="DejaVu Sans",
    )
    return png
