"""Bloody Omaha tokens (3.5): the Strongpoint and Encounter mixes, obstacles and tanks.

Token faces as stored in the cups and the state: ``"sp7"`` (a Strongpoint token
worth 7), ``"e2"`` (a numerical Encounter token worth 2), ``"mines"``,
``"sniper"``, ``"stug"`` and ``"event"`` (a Random Event token).
"""

from __future__ import annotations

from functools import lru_cache

import attrs

from omaha.kernel.data import Node
from omaha.kernel.scenario import ProvenanceItem

ENCOUNTER_KINDS = ("value", "mines", "sniper", "stug", "random_event")
MINES, SNIPER, STUG, EVENT = "mines", "sniper", "stug", "event"
_FACE = {"mines": MINES, "sniper": SNIPER, "stug": STUG, "random_event": EVENT}
_NAMES = {MINES: "Mines", SNIPER: "Sniper", STUG: "StuG", EVENT: "Random Event"}


@lru_cache(maxsize=1024)
def face_value(face: str) -> int | None:
    """The numerical value of a token face (``"sp7"`` -> 7, ``"e2"`` -> 2), else None."""
    if face.startswith("sp"):
        return int(face[2:])
    if face.startswith("e") and face[1:].isdigit():
        return int(face[1:])
    return None


def is_strongpoint_token(face: str) -> bool:
    return face.startswith("sp")


def token_text(face: str) -> str:
    """A token face as a player names it (``"Strongpoint 7"``, ``"Sniper"``)."""
    v = face_value(face)
    if is_strongpoint_token(face):
        return f"Strongpoint {v}"
    if v is not None:
        return f"Encounter {v}"
    return _NAMES[face]


@attrs.frozen
class TokenMix:
    """The counter mix of 3.5: token faces (sorted), obstacles and tanks."""

    strongpoint_tokens: tuple[str, ...]
    encounter_tokens: tuple[str, ...]
    obstacle_count: int
    tank_count: int
    tank_strength: int


def read_tokens(node: Node, prov: list[ProvenanceItem]) -> TokenMix:
    """``tokens.toml``: the Strongpoint and Encounter mixes, obstacles and tanks."""
    node.only({"strongpoints", "encounters", "obstacles", "tanks"})
    sp: list[str] = []
    seen: set[str] = set()
    for tn in node.req("strongpoints").as_list():
        tn.only({"value", "count", "source"})
        value = tn.req("value").as_int_in(0, 99)
        if f"sp{value}" in seen:
            raise tn.req("value").error(
                f"Strongpoint value {value} is listed twice: give one entry with its count"
            )
        seen.add(f"sp{value}")
        count = tn.req("count").as_int_in(1, 99)
        sp.extend([f"sp{value}"] * count)
        prov.append(ProvenanceItem("strongpoint token", f"value {value} x{count}", tn.source()))
    enc: list[str] = []
    for tn in node.req("encounters").as_list():
        tn.only({"kind", "value", "count", "source"})
        kind = tn.req("kind").as_choice(set(ENCOUNTER_KINDS))
        count = tn.req("count").as_int_in(1, 99)
        if kind == "value":
            value = tn.req("value").as_int_in(0, 99)
            face, key = f"e{value}", f"value {value} x{count}"
        else:
            if tn.has("value"):
                raise tn.req("value").error(f"a {kind} token has no value")
            face, key = _FACE[kind], f"{kind} x{count}"
        if face in seen:
            what = f"value {face[1:]}" if kind == "value" else kind
            raise tn.error(f"Encounter {what} is listed twice: give one entry with its count")
        seen.add(face)
        enc.extend([face] * count)
        prov.append(ProvenanceItem("encounter token", key, tn.source()))
    ob = node.req("obstacles").only({"count", "source"})
    obstacle_count = ob.req("count").as_int_in(0, 99)
    prov.append(ProvenanceItem("obstacle tokens", f"x{obstacle_count}", ob.source()))
    tk = node.req("tanks").only({"count", "strength", "source"})
    tank_count = tk.req("count").as_int_in(0, 9)
    tank_strength = tk.req("strength").as_int_in(0, 20)
    prov.append(ProvenanceItem("tank tokens", f"x{tank_count}", tk.source()))
    return TokenMix(
        strongpoint_tokens=tuple(sorted(sp)),
        encounter_tokens=tuple(sorted(enc)),
        obstacle_count=obstacle_count,
        tank_count=tank_count,
        tank_strength=tank_strength,
    )


def check_fill(node: Node, mix: TokenMix, strongpoints: int, beaches: int) -> None:
    """4.1, 4.2: enough Strongpoint tokens and obstacles for the map's squares."""
    if len(mix.strongpoint_tokens) < strongpoints:
        raise node.req("strongpoints").error(
            f"{len(mix.strongpoint_tokens)} Strongpoint tokens cannot fill {strongpoints} "
            "Strongpoint squares (4.1)"
        )
    if mix.obstacle_count < beaches:
        raise (
            node.req("obstacles")
            .req("count")
            .error(f"{mix.obstacle_count} obstacles cannot fill {beaches} Beach squares (4.2)")
        )


def check_encounters(node: Node, mix: TokenMix, encounter_squares: int) -> None:
    """4.1: the map must not need more Encounter tokens than there are."""
    if encounter_squares > len(mix.encounter_tokens):
        raise node.req("encounters").error(
            f"the map needs {encounter_squares} Encounter tokens (red/gray strongpoints, towns "
            f"and hedgerows, 4.1) but only {len(mix.encounter_tokens)} are listed"
        )
