"""Bloody Omaha: what a player sees, the comparison metrics, and snapshots.

The US view hides every German token that has not been revealed: it shows only
that a face-down Strongpoint (red cross) or Encounter (black cross) token is
there, as the backs of the real tokens do (3.5.d, 3.5.e).
"""

from __future__ import annotations

from typing import Any

from omaha.kernel.decks import Deck
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View

from . import rules
from .components.tokens import face_value, is_strongpoint_token, token_text
from .core import ASIDE, BOX, DEAD, LOST, BloodyCore, Phase, Step, tank_name

BOX_ID = "reinforcements"


def token_piece(st: BloodyCore, cell: int, k: int, face: str, revealed: bool, hide: bool) -> Piece:
    lab = st.board.labels[cell]
    kind = "Strongpoint" if is_strongpoint_token(face) else "Encounter"
    if hide and not revealed:
        return Piece(f"{lab}#{k + 1}", "German", kind, lab, hidden=True)
    text = token_text(face)
    value = text.split()[-1] if text.split()[-1].isdigit() else text
    return Piece(
        f"{lab}#{k + 1}",
        "German",
        kind,
        lab,
        values=value,
        marks=() if revealed else ("face down",),
    )


def build_view(st: BloodyCore, player: str | None) -> View:
    scen, board = st.scen, st.board
    labels = board.labels
    hide = player is not None
    pieces: list[Piece] = []
    for u, spec in enumerate(scen.units):
        w = st.where[u]
        if w >= 0:
            where = labels[w]
        elif w == BOX:
            where = BOX_ID
        else:
            where = ""
        marks: list[str] = []
        if w == DEAD:
            marks.append("eliminated")
        elif st.disrupted[u]:
            marks.append("disrupted")
        value = spec.full if (w == DEAD or not st.disrupted[u]) else spec.reduced
        pieces.append(Piece(spec.id, "US", spec.id, where, values=str(value), marks=tuple(marks)))
    for t, (w, unit) in enumerate(st.tanks):
        if w == LOST:
            continue
        where = labels[w] if w >= 0 else ""
        mark = (
            ("set aside",)
            if w == ASIDE
            else ((f"with {scen.units[unit].id}",) if unit >= 0 else ("waiting",))
        )
        pieces.append(
            Piece(tank_name(t), "US", "Tank", where, values=str(scen.tank_strength), marks=mark)
        )
    for b in scen.beaches:
        if st.gap[b]:
            pieces.append(Piece(f"gap-{labels[b]}", "US", "Gap", labels[b]))
        else:
            pieces.append(Piece(f"obstacle-{labels[b]}", "German", "Obstacle", labels[b]))
    for cell in sorted(st.tokens):
        for k, (face, revealed) in enumerate(st.tokens[cell]):
            pieces.append(token_piece(st, cell, k, face, revealed, hide))
    marks_out: list[Mark] = []
    for b in scen.beaches:
        marks_out.append(Mark(labels[b], scen.beach_name[b], "beach"))
    for c in scen.strongpoints:
        text = str(board.prop(c, "wn", ""))
        if c in scen.exit_name:
            text += f" {scen.exit_name[c]}"
        marks_out.append(Mark(labels[c], text.strip(), "strongpoint"))
    for c, town in sorted(scen.town_name.items()):
        if scen.kind[c] == "town":
            marks_out.append(Mark(labels[c], town, "town"))
    sc = st.score()
    tracks = [
        ("Turn", f"{st.turn}/{scen.turns}"),
        ("Initiative", f"{st.init_token} of {st.init_rating}"),
        ("Engineers", f"{st.eng_token} of {st.eng_rating}"),
        ("VP", str(sc.total)),
        ("Exits cleared", f"{st.exits_cleared()}/{len(scen.exit_name)}"),
        ("Deck", f"{len(st.deck)} to draw, {len(st.deck.discards)} discarded"),
        ("Hand", " ".join(st.hand) or "-"),
    ]
    if st.drift_mod or st.landing_mod or st.attack_bonus:
        tracks.append(
            (
                "This turn",
                f"drift {st.drift_mod:+d}, landing {st.landing_mod:+d}, "
                f"attack {st.attack_bonus:+d}",
            )
        )
    notes = [
        f"{c} {scen.cards[c].title}: " + " | ".join(o.describe() for o in scen.cards[c].options)
        for c in (st.offered or st.hand)
    ]
    if st.attack_target >= 0:
        notes.append(
            f"attack on {labels[st.attack_target]} from "
            + ", ".join(labels[c] for c in st.attack_squares)
        )
    return st.make_view(player, pieces=pieces, marks=marks_out, tracks=tracks, notes=notes)


def metrics(st: BloodyCore) -> dict[str, float]:
    scen = st.scen
    sc = st.score()
    level = (
        st.result.level
        if st.result is not None
        else rules.victory_level(st.exits_cleared(), len(scen.exit_name), sc.total)
    )
    first_wave = [u for u, spec in enumerate(scen.units) if spec.setup in scen.first_wave]
    landed = [u for u in range(len(scen.units)) if st.landed[u]]
    off = sum(1 for u in landed if st.ashore[u] != st.aim[u])
    committed = [u for u, w in enumerate(st.where) if w != BOX]
    committed_strength = sum(scen.units[u].full for u in committed)
    lost = sum(scen.units[u].full for u in st.eliminated)
    total_value = sum(
        face_value(f) or 0 for f in (*scen.strongpoint_tokens, *scen.encounter_tokens)
    )
    sp_cleared = sum(1 for c in scen.strongpoints if st.cleared(c))
    return {
        "us_win": 1.0 if level in (rules.HISTORICAL, rules.MAJOR) else 0.0,
        "victory_level": float(rules.LEVEL_RANK[level]),
        "vp": float(sc.total),
        "vp_gaps": float(sc.gaps),
        "vp_strongpoints": float(sc.strongpoints),
        "vp_encounters": float(sc.encounters),
        "vp_towns_exits": float(sc.towns_exits),
        "vp_hedgerows": float(sc.hedgerows),
        "vp_reinforcements": float(sc.reinforcements),
        "exits_opened": float(st.exits_cleared()),
        "gaps_made": float(st.gaps_made),
        "strongpoints_cleared": float(sp_cleared),
        "first_wave_ashore": st.first_wave_ashore / len(first_wave) if first_wave else 0.0,
        "landed_off_target": off / len(landed) if landed else 0.0,
        "us_losses": lost / committed_strength if committed_strength else 0.0,
        "units_eliminated": float(len(st.eliminated)),
        "german_losses": st.value_removed / total_value if total_value else 0.0,
        "reinforcements_released": float(st.released),
        "tanks_ashore": float(sum(1 for w, _ in st.tanks if w != ASIDE)),
        "turns_played": float(st.turn),
        "first_exit_turn": float(st.exit_turns[0]) if st.exit_turns else 0.0,
        "second_exit_turn": float(st.exit_turns[1]) if len(st.exit_turns) > 1 else 0.0,
    }


# --------------------------------------------------------------------------
# Snapshots (printed labels only)
# --------------------------------------------------------------------------
def _place(st: BloodyCore, w: int) -> str:
    if w >= 0:
        return st.board.labels[w]
    return {BOX: "box", DEAD: "eliminated"}[w]


def dump(st: BloodyCore) -> dict[str, Any]:
    labels = st.board.labels
    scen = st.scen
    r = st.result
    return {
        "turn": st.turn,
        "phase": st.phase,
        "step": st.step.value,
        "units": {
            spec.id: {
                "at": _place(st, st.where[u]),
                "disrupted": st.disrupted[u],
                "landed": st.landed[u],
                "aim": st.aim[u],
                "ashore": st.ashore[u],
            }
            for u, spec in enumerate(scen.units)
        },
        "eliminated": [scen.units[u].id for u in st.eliminated],
        "tokens": {labels[c]: [[f, r_] for f, r_ in toks] for c, toks in st.tokens.items()},
        "gaps": sorted(labels[b] for b in scen.beaches if st.gap[b]),
        "initiative": [st.init_rating, st.init_token],
        "engineers": [st.eng_rating, st.eng_token],
        "hand": list(st.hand),
        "offered": list(st.offered),
        "deck": st.deck.to_data(),
        "mods": [st.drift_mod, st.landing_mod, st.attack_bonus],
        "attack": None
        if st.attack_target < 0
        else [labels[st.attack_target], [labels[c] for c in st.attack_squares]],
        "tanks": [
            [
                labels[w] if w >= 0 else ("aside" if w == ASIDE else "lost"),
                scen.units[u].id if u >= 0 else None,
            ]
            for w, u in st.tanks
        ],
        "counts": {
            "sp_removed": st.sp_removed,
            "enc_removed": st.enc_removed,
            "value_removed": st.value_removed,
            "gaps_made": st.gaps_made,
            "first_wave_ashore": st.first_wave_ashore,
            "released": st.released,
            "exit_turns": list(st.exit_turns),
        },
        "result": None if r is None else [r.winner, r.level, r.detail, [list(p) for p in r.points]],
    }


def restore(st: BloodyCore, data: dict[str, Any]) -> None:
    scen = st.scen
    board = st.board
    st.turn = int(data["turn"])
    st.current_phase = Phase(data["phase"])
    st.step = Step(data["step"])
    n = len(scen.units)
    st.where = [0] * n
    st.disrupted = [False] * n
    st.landed = [False] * n
    st.aim = [-1] * n
    st.ashore = [-1] * n
    for uid, ud in data["units"].items():
        u = scen.unit_index[uid]
        at = ud["at"]
        st.where[u] = BOX if at == "box" else DEAD if at == "eliminated" else board.cell(at)
        st.disrupted[u] = bool(ud["disrupted"])
        st.landed[u] = bool(ud["landed"])
        st.aim[u] = int(ud["aim"])
        st.ashore[u] = int(ud["ashore"])
    st.eliminated = [scen.unit_index[x] for x in data["eliminated"]]
    st.tokens = {
        board.cell(lab): [(str(f), bool(r)) for f, r in toks]
        for lab, toks in data["tokens"].items()
    }
    gaps = set(data["gaps"])
    st.gap = {b: board.labels[b] in gaps for b in scen.beaches}
    st.init_rating, st.init_token = data["initiative"]
    st.eng_rating, st.eng_token = data["engineers"]
    st.hand = list(data["hand"])
    st.offered = list(data["offered"])
    st.deck = Deck.from_data(data["deck"])
    st.drift_mod, st.landing_mod, st.attack_bonus = data["mods"]
    if data["attack"] is None:
        st.attack_target, st.attack_squares = -1, []
    else:
        st.attack_target = board.cell(data["attack"][0])
        st.attack_squares = [board.cell(x) for x in data["attack"][1]]
    st.tanks = []
    for w, unit in data["tanks"]:
        cell = ASIDE if w == "aside" else LOST if w == "lost" else board.cell(w)
        st.tanks.append([cell, scen.unit_index[unit] if unit is not None else -1])
    c = data["counts"]
    st.sp_removed = c["sp_removed"]
    st.enc_removed = c["enc_removed"]
    st.value_removed = c["value_removed"]
    st.gaps_made = c["gaps_made"]
    st.first_wave_ashore = c["first_wave_ashore"]
    st.released = c["released"]
    st.exit_turns = [int(t) for t in c["exit_turns"]]
    r = data["result"]
    st.result = (
        None
        if r is None
        else Outcome(r[0], r[1], points=tuple((str(k), float(v)) for k, v in r[3]), detail=r[2])
    )
