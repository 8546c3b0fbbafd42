"""What the heuristic keeps for one decision (``bots._Context``: hit costs, the attackers
around a square) equals a fresh computation from the picture, at every decision of
seeded games; the tables are made anew with each decision's context."""

from __future__ import annotations

from bloody_helpers import GAME, new

from omaha.bloody.actions import Move
from omaha.bloody.bots import _Context, _follow_up_total, picture_of


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


def test_what_is_kept_per_target_equals_a_fresh_context_at_every_decision() -> None:
    """The probes' and attacks' terms kept per target (``probe_target``, ``attack_target``,
    the follow-up totals kept across decisions) give each candidate the value a context
    that has valued nothing else gives it, in seeded heuristic and random games."""
    checked = 0
    for seed, bot_name in ((1, "heuristic"), (2, "heuristic"), (3, "random"), (4, "random")):
        st = new(seed)
        bot = GAME.bots[bot_name](seed=seed)
        while not st.is_terminal():
            if st.current_player() == "US" and len(st.legal_actions()) > 1:
                ctx = _Context(st.scen, picture_of(st), st.legal_actions())
                ctx.decide()  # every candidate valued, the per-target terms kept
                cold = _Context(st.scen, picture_of(st), st.legal_actions())
                assert list(ctx.candidates()) == list(cold.candidates())
                for a in ctx.kinds.get(Move, ()):
                    assert isinstance(a, Move)
                    cell = ctx.cell[a.square]
                    alone = _Context(st.scen, picture_of(st), st.legal_actions())
                    assert ctx.probe_value(a.unit, cell) == alone.probe_value(a.unit, cell)
                    t = ctx.probe_target(cell)
                    if t is not None and t.around and t.defences:
                        strength = sum(r if u == a.unit else s for u, s, r, _, _ in t.around)
                        hits = sum(hd if u == a.unit else h for u, _, _, h, hd in t.around)
                        args = (t.defences, strength, t.gain, hits)
                        assert _follow_up_total(*args) == _follow_up_total.__wrapped__(*args)
                    checked += 1
            st.apply(bot.choose(st))
    assert checked > 100
