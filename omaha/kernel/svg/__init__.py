"""Pictures of boards and views: SVG built with :mod:`xml.etree.ElementTree` only,
and PNG through the optional ``resvg_py`` renderer (``pip install omaha[png]``).

:func:`render_board` draws the map alone: cells with terrain fills and printed
labels, cell and hexside features, off-map boxes and links, and a legend.
:func:`render_view` adds the pieces as counters (NATO symbols, printed values,
steps, status badges; stacks fanned), marks, tracks, notes and the pending
decision of a view. :func:`to_png` turns any of these into PNG bytes.
"""

from __future__ import annotations

from omaha.kernel.svg.palette import side_colour, side_feature_colour, terrain_colour
from omaha.kernel.svg.picture import SIZE, render_board, render_view
from omaha.kernel.svg.png import PNG_EXTRA, to_png

__all__ = [
    "PNG_EXTRA",
    "SIZE",
    "render_board",
    "render_view",
    "side_colour",
    "side_feature_colour",
    "terrain_colour",
    "to_png",
]
