"""The end of the game (LnL Omaha: Winning; the Bonus Scenario's victory points)."""

from __future__ import annotations

from omaha.kernel.protocol import Outcome
from omaha.lnl.core import LnlCore, Phase


def finish(core: LnlCore) -> None:
    """Decide the game by the victory hexes the Americans hold (the main game:
    all of them a significant victory, four or more a minor one, three a draw) or
    by each side's points (the bonus scenario; reading R5 in READINGS.md: equal
    points would be a draw)."""
    core.set_phase(Phase.OVER)
    if core.scen.victory_mode == "hexes":
        n = len(core.held())
        total = len(core.T.victory)
        if n >= total:
            out = Outcome("US", "significant US victory")
        elif n >= 4:
            out = Outcome("US", "minor US victory")
        elif n == 3:
            out = Outcome(None, "draw")
        else:
            out = Outcome("German", "German victory")
        out = Outcome(
            out.winner,
            out.level,
            (("US victory hexes", float(n)),),
            ", ".join(core.labels(core.held())) or "none held",
        )
    else:
        pts = core.points()
        if pts["US"] > pts["German"]:
            winner: str | None = "US"
        elif pts["German"] > pts["US"]:
            winner = "German"
        else:
            winner = None
        level = f"{winner} victory" if winner else "draw"
        out = Outcome(
            winner,
            level,
            (("US", float(pts["US"])), ("German", float(pts["German"]))),
        )
    core.result = out
    core.note("lnl.end", "LnL Omaha: Winning", result=str(out))
