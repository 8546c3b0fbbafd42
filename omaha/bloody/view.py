"""Bloody Omaha: what a player sees, the comparison metrics, and snapshots.

The US view hides every German token that has not been revealed: it shows only
that a face-down Strongpoint (red cross) or Encounter (black cross) token is
there, as the backs of the real tokens do (3.5.d, 3.5.e). The observation (for
agents, the same knowledge as numbers) is :mod:`omaha.bloody.observation`.
"""

from __future__ import annotations

from typing import Any

from omaha.kernel.decks import Deck
from omaha.kernel.labels import LabelError
from omaha.kernel.metrics import NEVER, ratio
from omaha.kernel.protocol import Outcome
from omaha.kernel.view import Mark, Piece, View

from . import rules
from .components.tokens import EVENT, face_value, is_strongpoint_token, token_text
from .core import ASIDE, BOX, DEAD, LOST, BloodyCore, Phase, Step, tank_name

BOX_ID = "reinforcements"


#: What the counters and tokens print, for the pictures (16): a NATO symbol, the echelon.
UNIT_SYMBOL = {rules.RANGERS: "ranger"}  # every other command: infantry
ECHELON = {rules.COMPANY: "I", rules.BATTALION: "II"}  # 3.3: companies and battalions


#: Token faces too long for the value line of a counter.
SHORT_FACE = {EVENT: "Event"}


def token_piece(st: BloodyCore, cell: int, k: int, face: str, revealed: bool, hide: bool) -> Piece:
    """A German token as the player sees it: face down, only the back (the red cross of
    a Strongpoint or the black border of an Encounter token, 3.5.d-e); face up, its value
    or its kind (8.1). Strongpoint tokens are fortified positions (3.2.d)."""
    lab = st.board.labels[cell]
    strongpoint = is_strongpoint_token(face)
    name = "Strongpoint" if strongpoint else "Encounter"
    kind = "fortification" if strongpoint else "marker"
    if hide and not revealed:
        return Piece(f"{lab}#{k + 1}", "German", name, lab, hidden=True, kind=kind)
    value = face_value(face)
    return Piece(
        f"{lab}#{k + 1}",
        "German",
        name,
        lab,
        values=str(value) if value is not None else SHORT_FACE.get(face, token_text(face)),
        marks=() if revealed else ("face_down",),
        kind=kind,
    )


def unit_piece(st: BloodyCore, u: int, where: str) -> Piece:
    """A US counter (3.3): the unit's id, infantry (Rangers: ranger) with its echelon,
    and the strength of the side up (full, or disrupted: 6.5, 8.1, 8.4)."""
    spec = st.scen.units[u]
    w = st.where[u]
    marks = ("eliminated",) if w == DEAD else ("disrupted",) if st.disrupted[u] else ()
    return Piece(
        spec.id,
        "US",
        spec.id,
        where,
        values=str(spec.reduced if st.disrupted[u] and w != DEAD else spec.full),
        marks=marks,
        kind=UNIT_SYMBOL.get(spec.division, "infantry"),
        echelon=ECHELON[spec.size],
    )


def build_view(st: BloodyCore, player: str | None) -> View:
    scen, board = st.scen, st.board
    labels = board.labels
    hide = player is not None
    # what lies in a square first (obstacles, gaps, German tokens, the tanks supporting
    # a unit), so that the pictures stack the units that stand there on top
    pieces: list[Piece] = []
    for b in scen.beaches:
        if st.gap[b]:
            pieces.append(Piece(f"gap-{labels[b]}", "US", "Gap", labels[b], kind="marker"))
        else:
            pieces.append(
                Piece(f"obstacle-{labels[b]}", "German", "Obstacle", labels[b], kind="marker")
            )
    for cell in sorted(st.tokens):
        for k, (face, revealed) in enumerate(st.tokens[cell]):
            pieces.append(token_piece(st, cell, k, face, revealed, hide))
    supporting: list[str] = []
    for t, (w, unit) in enumerate(st.tanks):
        if w == LOST:
            continue
        where = labels[w] if w >= 0 else ""
        mark = ("set aside",) if w == ASIDE else () if unit >= 0 else ("waiting",)
        if w >= 0 and unit >= 0:
            supporting.append(f"{tank_name(t)} supports {scen.units[unit].id} (8.3)")
        pieces.append(
            Piece(
                tank_name(t),
                "US",
                "Tank",
                where,
                values=str(scen.tank_strength),
                marks=mark,
                kind="armour",
            )
        )
    for u in range(len(scen.units)):
        w = st.where[u]
        where = labels[w] if w >= 0 else BOX_ID if w == BOX else ""
        pieces.append(unit_piece(st, u, where))
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
    notes += supporting
    if st.attack_target >= 0:
        notes.append(
            f"attack on {labels[st.attack_target]} from "
            + ", ".join(labels[c] for c in st.attack_squares)
        )
    return st.make_view(player, pieces=pieces, marks=marks_out, tracks=tracks, notes=notes)


def returns(st: BloodyCore) -> dict[str, float]:
    """The US return, graded by the victory level (2.2): Defeat -1, Draw 0, Historical
    Victory +0.5, Major Victory +1; 0 before the end (READINGS.md, "Returns")."""
    if st.result is None:
        return {"US": 0.0}
    return {"US": RETURN_OF_LEVEL[st.result.level]}


RETURN_OF_LEVEL = {rules.DEFEAT: -1.0, rules.DRAW: 0.0, rules.HISTORICAL: 0.5, rules.MAJOR: 1.0}


def first_exit_hours(st: BloodyCore) -> float:
    """Hours after 06:30 of the first Exit square cleared, by the scenario's clock: the
    start of the turn it was cleared in (turn 1 is 06:30, each turn ``turn_minutes``
    long; the text gives no time scale, READINGS.md "Metrics"); never (inf) when none was."""
    if not st.exit_turns:
        return NEVER
    return (st.exit_turns[0] - 1) * st.scen.turn_minutes / 60


def metrics(st: BloodyCore) -> dict[str, float]:
    scen = st.scen
    sc = st.score()
    level = (
        st.result.level
        if st.result is not None
        else rules.victory_level(st.exits_cleared(), len(scen.exit_name), sc.total, scen.victory)
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
        "first_wave_ashore": ratio(st.first_wave_ashore, len(first_wave)),
        "landed_off_target": ratio(off, len(landed)),
        "us_losses": ratio(lost, committed_strength),
        "units_eliminated": float(len(st.eliminated)),
        "german_losses": ratio(st.value_removed, total_value),
        "reinforcements_released": float(st.released),
        "tanks_ashore": float(sum(1 for w, _ in st.tanks if w != ASIDE)),
        "turns_played": float(st.turn),
        "first_exit_turn": float(st.exit_turns[0]) if st.exit_turns else NEVER,
        "second_exit_turn": float(st.exit_turns[1]) if len(st.exit_turns) > 1 else NEVER,
        "first_exit_hours": first_exit_hours(st),
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


class _Fields:
    """One object of a snapshot, read key by key; anything wrong is a ``ValueError``
    naming its key path (``state_from_json`` turns it into a ``RecordError``)."""

    def __init__(self, data: object, path: str, keys: frozenset[str]) -> None:
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected an object, not {_shown(data)}")
        if not keys.issuperset(data):
            extra = sorted(str(k) for k in data if k not in keys)
            raise ValueError(f"{path}: unknown key(s) {', '.join(map(repr, extra))}")
        self.data: dict[str, Any] = data
        self.path = path

    def value(self, key: str) -> tuple[Any, str]:
        where = f"{self.path}.{key}"
        if key not in self.data:
            raise ValueError(f"{where}: missing")
        return self.data[key], where

    def integer(self, key: str, low: int | None = None, high: int | None = None) -> int:
        return _int(*self.value(key), low, high)

    def flag(self, key: str) -> bool:
        value, where = self.value(key)
        if not isinstance(value, bool):
            raise ValueError(f"{where}: {_shown(value)} is not true or false")
        return value

    def text(self, key: str) -> str:
        return _str(*self.value(key))

    def items(self, key: str, length: int | None = None) -> tuple[list[Any], str]:
        value, where = self.value(key)
        return _list(value, where, length), where


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(value: object, where: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: {_shown(value)} is not a whole number")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{where}: {value} is outside {low}..{high}")
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where}: {_shown(value)} is not text")
    return value


def _list(value: object, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: {_shown(value)} is not a list")
    if length is not None and len(value) != length:
        raise ValueError(f"{where}: expected {length} items, not {len(value)}")
    return value


def _cell(st: BloodyCore, value: object, where: str) -> int:
    label = _str(value, where)
    try:
        return st.board.cell(label)
    except LabelError:
        raise ValueError(f"{where}: {label!r} is not a square of the map") from None


def _unit(st: BloodyCore, value: object, where: str) -> int:
    uid = _str(value, where)
    if uid not in st.scen.unit_index:
        raise ValueError(f"{where}: {uid!r} is not a unit of the scenario")
    return st.scen.unit_index[uid]


_TOP = frozenset(
    {"turn", "phase", "step", "units", "eliminated", "tokens", "gaps", "initiative",
     "engineers", "hand", "offered", "deck", "mods", "attack", "tanks", "counts", "result"}
)  # fmt: skip
_UNIT = frozenset({"at", "disrupted", "landed", "aim", "ashore"})
_COUNTS = frozenset(
    {"sp_removed", "enc_removed", "value_removed", "gaps_made", "first_wave_ashore",
     "released", "exit_turns"}
)  # fmt: skip
_DECK = frozenset({"pile", "discards", "reshuffles"})


def restore(st: BloodyCore, data: dict[str, Any]) -> None:
    """The inverse of :func:`dump`; malformed data is a ValueError naming its key path.

    Only the form is checked here; whether the position is one the rules allow is
    :meth:`~omaha.bloody.core.BloodyCore.invariants`, which ``state_from_json`` runs next.
    """
    scen = st.scen
    top = _Fields(data, "state", _TOP)
    st.turn = top.integer("turn", 1, scen.turns)
    phase, where = top.value("phase")
    if not isinstance(phase, str) or phase not in {p.value for p in Phase}:
        raise ValueError(f"{where}: {_shown(phase)} is not a phase of the game")
    st.current_phase = Phase(phase)
    step, where = top.value("step")
    if not isinstance(step, str) or step not in {s.value for s in Step}:
        raise ValueError(f"{where}: {_shown(step)} is not a decision of the game")
    st.step = Step(step)
    _restore_units(st, top)
    _restore_tokens(st, top)
    track = scen.track_max
    for key in ("initiative", "engineers"):
        (rating, token), where = top.items(key, 2)
        pair = (_int(rating, f"{where}[0]", 1, track), _int(token, f"{where}[1]", 0, track))
        if key == "initiative":
            st.init_rating, st.init_token = pair
        else:
            st.eng_rating, st.eng_token = pair
    for key in ("hand", "offered"):
        cards, where = top.items(key)
        setattr(st, key, [_str(c, f"{where}[{k}]") for k, c in enumerate(cards)])
    deck = _Fields(top.value("deck")[0], "state.deck", _DECK)
    pile, where = deck.items("pile")
    discards, dwhere = deck.items("discards")
    st.deck = Deck.from_data(
        {
            "pile": [_str(c, f"{where}[{k}]") for k, c in enumerate(pile)],
            "discards": [_str(c, f"{dwhere}[{k}]") for k, c in enumerate(discards)],
            "reshuffles": deck.integer("reshuffles", 0),
        }
    )
    mods, where = top.items("mods", 3)
    st.drift_mod, st.landing_mod, st.attack_bonus = (
        _int(m, f"{where}[{k}]", -99, 99) for k, m in enumerate(mods)
    )
    attack, where = top.value("attack")
    if attack is None:
        st.attack_target, st.attack_squares = -1, []
    else:
        target, squares = _list(attack, where, 2)
        st.attack_target = _cell(st, target, f"{where}[0]")
        st.attack_squares = [
            _cell(st, x, f"{where}[1][{k}]") for k, x in enumerate(_list(squares, f"{where}[1]"))
        ]
    tanks, where = top.items("tanks", scen.tank_count)
    st.tanks = []
    for t, tank in enumerate(tanks):
        w, unit = _list(tank, f"{where}[{t}]", 2)
        cell = ASIDE if w == "aside" else LOST if w == "lost" else _cell(st, w, f"{where}[{t}][0]")
        holder = -1 if unit is None else _unit(st, unit, f"{where}[{t}][1]")
        st.tanks.append([cell, holder])
    counts = _Fields(top.value("counts")[0], "state.counts", _COUNTS)
    st.sp_removed = counts.integer("sp_removed", 0)
    st.enc_removed = counts.integer("enc_removed", 0)
    st.value_removed = counts.integer("value_removed", 0)
    st.gaps_made = counts.integer("gaps_made", 0)
    st.first_wave_ashore = counts.integer("first_wave_ashore", 0)
    st.released = counts.integer("released", 0)
    turns, where = counts.items("exit_turns")
    st.exit_turns = [_int(t, f"{where}[{k}]", 1, scen.turns) for k, t in enumerate(turns)]
    st.result = _restore_result(top)


def _restore_units(st: BloodyCore, top: _Fields) -> None:
    scen = st.scen
    units, where = top.value("units")
    if not isinstance(units, dict):
        raise ValueError(f"{where}: {_shown(units)} is not an object")
    missing = [u.id for u in scen.units if u.id not in units]
    if missing:
        raise ValueError(f"{where}: unit(s) {', '.join(missing)} missing")
    n = len(scen.units)
    st.where, st.disrupted, st.landed = [0] * n, [False] * n, [False] * n
    st.aim, st.ashore = [-1] * n, [-1] * n
    top_column = max(scen.column)
    for uid, value in units.items():
        u = _unit(st, uid, f"{where} key")
        ud = _Fields(value, f"{where}.{uid}", _UNIT)
        at, at_where = ud.value("at")
        places = {"box": BOX, "eliminated": DEAD}
        st.where[u] = (
            places[at] if isinstance(at, str) and at in places else _cell(st, at, at_where)
        )
        st.disrupted[u] = ud.flag("disrupted")
        st.landed[u] = ud.flag("landed")
        st.aim[u] = ud.integer("aim", -1, top_column)
        st.ashore[u] = ud.integer("ashore", -1, top_column)
    gone, where = top.items("eliminated")
    st.eliminated = [_unit(st, x, f"{where}[{k}]") for k, x in enumerate(gone)]


def _restore_tokens(st: BloodyCore, top: _Fields) -> None:
    tokens, where = top.value("tokens")
    if not isinstance(tokens, dict):
        raise ValueError(f"{where}: {_shown(tokens)} is not an object")
    st.tokens = {}
    for label, toks in tokens.items():
        cell = _cell(st, label, f"{where} key")
        square = f"{where}.{label}"
        pairs = []
        for k, pair in enumerate(_list(toks, square)):
            face, revealed = _list(pair, f"{square}[{k}]", 2)
            if not isinstance(revealed, bool):
                raise ValueError(f"{square}[{k}][1]: {_shown(revealed)} is not true or false")
            pairs.append((_str(face, f"{square}[{k}][0]"), revealed))
        st.tokens[cell] = pairs
    gaps, where = top.items("gaps")
    gapped = {_cell(st, g, f"{where}[{k}]") for k, g in enumerate(gaps)}
    st.gap = {b: b in gapped for b in st.scen.beaches}
    strays = sorted(gapped - set(st.scen.beaches))
    if strays:
        raise ValueError(f"{where}: {st.label(strays[0])} is not a Beach square")


def _restore_result(top: _Fields) -> Outcome | None:
    r, where = top.value("result")
    if r is None:
        return None
    winner, level, detail, points = _list(r, where, 4)
    if winner not in (None, "US"):
        raise ValueError(f"{where}[0]: {_shown(winner)} is not a winner of this game")
    if not isinstance(level, str) or level not in rules.LEVEL_RANK:
        raise ValueError(f"{where}[1]: {_shown(level)} is not a victory level (2.2)")
    pairs = []
    for k, pair in enumerate(_list(points, f"{where}[3]")):
        name, value = _list(pair, f"{where}[3][{k}]", 2)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{where}[3][{k}][1]: {_shown(value)} is not a number")
        pairs.append((_str(name, f"{where}[3][{k}][0]"), float(value)))
    return Outcome(winner, level, points=tuple(pairs), detail=_str(detail, f"{where}[2]"))


# -- search ------------------------------------------------------------------------------
#: What the search agent weighs (``evaluate``): the victory level the position would
#: earn now, the VP towards a Major Victory, and the Exit squares cleared.
EVAL_LEVEL, EVAL_VP, EVAL_EXITS = 0.55, 0.3, 0.15


def evaluate(st: BloodyCore, player: str) -> float:
    """The position for the US in [0, 1], from the victory conditions (2.2, 2.3): the
    level the VP and cleared Exit squares would earn if the game ended now (Defeat 0
    to Major Victory 1), the VP as a share of the Major Victory's, and the share of
    the Exit squares cleared. The final position decides the level at the end, so an
    ended game is scored the same way (a solitaire design maximises its level)."""
    scen = st.scen
    vp = st.score().total
    exits = st.exits_cleared()
    n_exits = len(scen.exit_name)
    level = rules.victory_level(exits, n_exits, vp, scen.victory)
    rank = rules.LEVEL_RANK[level] / rules.LEVEL_RANK[rules.MAJOR]
    return (
        EVAL_LEVEL * rank
        + EVAL_VP * min(1.0, vp / scen.victory.major_vp)
        + EVAL_EXITS * (exits / n_exits if n_exits else 1.0)
    )


#: Decisions worth a search: the set-up card, the landing cards, the Random Event's
#: squares and every activation; adding squares to an attack being built is a step.
SEARCHED_STEPS = frozenset({Step.SETUP, Step.CARDS, Step.EVENT, Step.ACTIVATE})


def worth_search(st: BloodyCore) -> bool:
    return st.step in SEARCHED_STEPS
