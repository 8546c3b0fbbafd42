"""Bloody Omaha tokens (3.5): the Strongpoint and Encounter mixes, obstacles and tanks.

Token faces as stored in the cups and the state: ``"sp7"`` (a Strongpoint token
worth 7), ``"e2"`` (a numerical Encounter token worth 2), ``"mines"``,
``"sniper"``, ``"stug"`` and ``"event"`` (a Random Event token).
"""

from __future__ import annotations

from functools import lru_cache

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.data import Node
from omaha.kernel.scenario import ProvenanceItem
from omaha.kernel.schema import Check, Field, Int, ListOf, Problems, Provenance, Str, Table

from .checking import entries

ENCOUNTER_KINDS = ("value", "mines", "sniper", "stug", "random_event")
MINES, SNIPER, STUG, EVENT = "mines", "sniper", "stug", "event"
_FACE = {"mines": MINES, "sniper": SNIPER, "stug": STUG, "random_event": EVENT}
_NAMES = {MINES: "Mines", SNIPER: "Sniper", STUG: "StuG", EVENT: "Random Event"}


def _encounter_value(node: Node, problems: Problems) -> None:
    """8.1.a: numerical Encounter tokens carry a value (even 0); the other kinds none."""
    numerical = node.value.get("kind") == "value"
    if numerical and "value" not in node.value:
        problems.append(node.error("a numerical Encounter token needs a 'value'"))
    elif not numerical and "value" in node.value and isinstance(node.value.get("kind"), str):
        problems.append(node.error(f"a {node.value['kind']} token has no value"))


def _encounters_once(node: Node, problems: Problems) -> None:
    """One entry (with its count) per kind of Encounter token."""
    seen: set[tuple[object, object]] = set()
    for item, entry in entries(node, "encounters"):
        key = (entry.get("kind"), entry.get("value") if entry.get("kind") == "value" else None)
        if not all(isinstance(k, str | int | type(None)) for k in key):
            continue
        if key in seen:
            what = f"value {key[1]}" if key[0] == "value" else key[0]
            problems.append(
                item.error(f"Encounter {what} is listed twice: give one entry with its count")
            )
        seen.add(key)


STRONGPOINT_TOKENS = Table(
    {
        "value": Field(Int(0, 99), "its defence value (8.4.c)"),
        "count": Field(Int(1, 99), "how many tokens show it"),
        "source": Field(Provenance(), "where the value comes from"),
    }
)
ENCOUNTER_TOKENS = Table(
    {
        "kind": Field(Str(ENCOUNTER_KINDS), "value (numerical, 8.1.a) or the kind (8.1.b-e)"),
        "value": Field(Int(0, 99), "a numerical token's value (even 0, 8.1.a)", required=False),
        "count": Field(Int(1, 99), "how many tokens show it"),
        "source": Field(Provenance(), "where the mix comes from"),
    },
    checks=[Check("a value for numerical tokens only (8.1.a)", _encounter_value)],
)
#: ``tokens.toml``: the token mixes (3.5.d-g).
SCHEMA = Table(
    {
        "strongpoints": Field(
            ListOf(STRONGPOINT_TOKENS, unique_by="value", min_len=1),
            "the Strongpoint tokens (red cross, 3.5.d), one entry a value",
        ),
        "encounters": Field(
            ListOf(ENCOUNTER_TOKENS, min_len=1), "the Encounter tokens (black border, 3.5.e)"
        ),
        "obstacles": Field(
            Table({"count": Field(Int(0, 99), "how many"), "source": Field(Provenance(), "")}),
            "the Beach Obstacle tokens (3.5.f)",
        ),
        "tanks": Field(
            Table(
                {
                    "count": Field(Int(0, 9), "how many"),
                    "strength": Field(Int(0, 20), "attack strength of each (8.4.b)"),
                    "source": Field(Provenance(), ""),
                }
            ),
            "the US Tank tokens (3.5.g)",
        ),
    },
    doc="The German tokens and the US Tank tokens.",
    checks=[Check("one entry per kind of Encounter token", _encounters_once)],
)


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


_FACE_OF_NAME = {name: face for face, name in _NAMES.items()}


def face_of_text(text: str) -> str | None:
    """The face :func:`token_text` names (``"Strongpoint 7"`` -> ``"sp7"``); None for a
    text that names no token."""
    kind, _, value = text.partition(" ")
    if value.isdigit() and kind in ("Strongpoint", "Encounter"):
        return f"{'sp' if kind == 'Strongpoint' else 'e'}{int(value)}"
    return _FACE_OF_NAME.get(text)


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


def fill_problems(
    node: Node, mix: TokenMix, strongpoints: int, beaches: int, encounter_squares: int
) -> list[ScenarioError]:
    """4.1, 4.2: enough Strongpoint, Encounter and Obstacle tokens for the map's squares."""
    found = []
    if len(mix.strongpoint_tokens) < strongpoints:
        found.append(
            node.req("strongpoints").error(
                f"{len(mix.strongpoint_tokens)} Strongpoint tokens cannot fill {strongpoints} "
                "Strongpoint squares (4.1)"
            )
        )
    if mix.obstacle_count < beaches:
        found.append(
            node.req("obstacles")
            .req("count")
            .error(f"{mix.obstacle_count} obstacles cannot fill {beaches} Beach squares (4.2)")
        )
    if encounter_squares > len(mix.encounter_tokens):
        found.append(
            node.req("encounters").error(
                f"the map needs {encounter_squares} Encounter tokens (red/gray strongpoints, "
                f"towns and hedgerows, 4.1) but only {len(mix.encounter_tokens)} are listed"
            )
        )
    return found
