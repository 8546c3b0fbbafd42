"""What the heuristic keeps for one decision (``bots._Context``: hit costs, the attackers
around a square) equals a fresh computation from the picture, at every decision of
seeded games; the tables are made anew with each decision's context."""

from __future__ import annotations

from bloody_helpers import GAME, new

from omaha.bloody.bots import _Context, picture_of


def fresh_hit_cost(ctx: _Context, uid: str) -> float:
    u = ctx.units[uid]
    if ctx.pic.disrupted[uid]:
        return (1.2 + 0.22 * u.full) * ctx.care
    return (0.45 + 0.08 * (u.full - u.reduced)) * ctx.care


def test_the_decision_tables_equal_fresh_ones_at_every_decision() -> None:
    checked = 0
    for seed in range(4):
        st = new(seed)
        bot = GAME.bots["heuristic"](seed=seed)
        while not st.is_terminal():
            ctx = _Context(st.scen, picture_of(st), st.legal_actions())
            ctx.decide()  # fills the tables as a decision does: asked again, they answer
            for uid in ctx.pic.disrupted:
                assert ctx.hit_cost(uid) == fresh_hit_cost(ctx, uid)
            for cell in range(len(st.board)):
                around = ctx.attackers_around(cell)
                units = [u for c in st.scen.land_neighbours[cell] for u in ctx.landed_units(c)]
                want = tuple(
                    (
                        u,
                        ctx.strength(u),
                        ctx.units[u].reduced,
                        fresh_hit_cost(ctx, u),
                        (1.2 + 0.22 * ctx.units[u].full) * ctx.care,
                    )
                    for u in units
                )
                assert around == want
                checked += 1
            st.apply(bot.choose(st))
    assert checked > 100
