"""Line of sight (reconstructed: the TCS series rules are not in our text)."""

from __future__ import annotations

from omaha.tcs.core import TcsCore


def los(core: TcsCore, a: int, b: int) -> bool:
    """Whether ``a`` sees ``b``.

    The exact thread between hex centres is blocked by a hex it crosses (not
    an end) that holds smoke, blocking terrain (woods, village), or ground
    higher than both ends.
    """
    if a == b:
        return True
    board = core.scenario.board
    top = max(int(board.prop(a, "level", 0) or 0), int(board.prop(b, "level", 0) or 0))
    blocks = core.scenario.tables.sight_blocks
    for c in board.thread(a, b).cells:
        if c in (a, b) or c < 0:
            continue
        if c in core.smoke or board.terrain[c] in blocks:
            return False
        if int(board.prop(c, "level", 0) or 0) > top:
            return False
    return True
