"""The scenario file contract every game shares: references, extension, overrides.

A scenario file has the same top level in every game::

    [scenario]                 # id, title, source, and the game's own keys
    game = "lnl"               # optional: the game the file is for (omaha validate)
    extends = "beach"          # optional: start from a shipped scenario (or a file)
    [components]               # where each component comes from
    map = "map"                #   a shipped component of the game, by name
    units = "my_counters.toml" #   or a file, relative to this scenario file
    [overrides.units]          # optional: change parts of a component in place
    ...                        # the game's own sections (forces, victory, ...)

* A component named without ``.toml`` is shipped with the game
  (``omaha/<game>/data/<name>.toml``); with ``.toml`` it is a file next to the
  scenario (paths are relative to the scenario file, so a folder of files moves
  as a whole). A kind not named takes the game's shipped default.
* ``extends`` starts from another scenario: its keys, then this file's on top.
* ``game`` names the game the file is for, so tools (``omaha validate``) need not
  be told; :func:`resolve` checks it (against ``game=`` when the caller gives it)
  and takes it out of the scenario table, so no game's schema has to list it.
* Overrides (and ``extends``) merge tables key by key; a list of tables whose
  entries carry an ``id`` merges entry by entry (a new id is added); other
  lists are replaced. An override that changes a record with a ``source`` must
  give its own ``source``: a changed value is never passed off as published.

:func:`resolve` returns the merged nodes and the text of every file read that is
not shipped, which game records embed so a game replays anywhere.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import os
import posixpath
from collections.abc import Iterator, Mapping
from pathlib import Path, PurePath, PurePosixPath
from typing import Any

import attrs

from omaha.errors import ScenarioError
from omaha.kernel.data import Node, parse_toml
from omaha.kernel.files import FileRefused, read_regular
from omaha.kernel.schema import Field, Str, Table

#: Top-level keys every scenario file may hold besides the game's own sections.
CONTRACT_KEYS = ("scenario", "components", "overrides")


def component_sections(shipped: Mapping[str, str]) -> dict[str, Field]:
    """The ``[components]`` and ``[overrides]`` fields of a scenario file's schema, for a
    game whose component kinds and shipped files are ``shipped`` (kind -> shipped name)."""
    kinds = ", ".join(shipped)
    return {
        "components": Field(
            Table(
                {
                    k: Field(Str(), f"the {k} file (omitted: the shipped `{v}`)", False)
                    for k, v in shipped.items()
                }
            ),
            "the component files: a shipped name, or a .toml file next to this one",
            required=False,
        ),
        "overrides": Field(
            Table({}, open=True),
            f"changes to components by kind ({kinds}), merged key by key, entries with an id "
            "by id; a changed entry states its own source",
            required=False,
        ),
    }


@attrs.frozen
class ScenarioFiles:
    """A scenario file resolved: its merged content, components and custom files."""

    root: Node  # the scenario, ``extends`` merged in
    components: Mapping[str, Node]  # kind -> component content, overrides applied
    files: tuple[tuple[str, str], ...]  # (name relative to the scenario, text) not shipped
    path: Path  # the scenario file
    game: str | None = None  # the game ``[scenario] game`` names, if it names one


#: The folder a record's embedded files were written out to while they are loaded
#: (:func:`replaying`); None otherwise.
_REPLAYING: contextvars.ContextVar[Path | None] = contextvars.ContextVar(
    "omaha_replaying", default=None
)

#: The folder of an embedded record's files that holds the files named by an absolute
#: path, each under its path from the root (``/home/u/map.toml``: ``_root/home/u/map.toml``).
ROOT = "_root"


def rooted_name(path: str) -> str:
    """The name a file named by an absolute ``path`` is embedded under: its path from the
    root (a drive letter kept as a folder) inside :data:`ROOT`."""
    pure = PurePath(os.path.abspath(path))
    drive = "".join(c for c in pure.drive if c.isalnum())
    return "/".join([ROOT, *([drive] if drive else []), *pure.parts[1:]])


@contextlib.contextmanager
def replaying(folder: Path) -> Iterator[None]:
    """Inside the block, a file named by an absolute path is the record's embedded copy,
    written out in ``folder`` (:func:`materialize`), not the file at that path on this
    machine, which may be missing or another."""
    token = _REPLAYING.set(folder)
    try:
        yield
    finally:
        _REPLAYING.reset(token)


def referenced(folder: Path, name: str) -> Path:
    """The file ``name`` names from a file in ``folder``: relative to it, or absolute; an
    absolute name while a record is replayed (:func:`replaying`) is its embedded copy."""
    replay = _REPLAYING.get()
    if replay is not None and PurePath(name).is_absolute():
        return replay.joinpath(*PurePosixPath(rooted_name(name)).parts)
    return folder / name


def recorded_name(name: str, where: Path) -> str:
    """The name a file read from ``where`` (named ``name`` in its scenario) is kept under
    for records: ``name``, or its absolute path when it is named by one (either way as a
    replay of the record names it again)."""
    return os.path.abspath(where) if PurePath(name).is_absolute() else name


def _read(path: Path, name: str) -> tuple[str, Node]:
    try:
        raw = read_regular(path)
    except FileRefused as exc:
        raise ScenarioError(name, "", str(exc)) from None
    except OSError as exc:
        raise ScenarioError(name, "", f"cannot be read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(name, "", f"is not UTF-8 text (byte {exc.start})") from None
    return text, parse_toml(text, name)


def merge(base: Any, top: Any, file: str, path: str = "") -> Any:
    """``top`` merged onto ``base`` by the contract's rules (neither is changed)."""
    if isinstance(base, dict) and isinstance(top, dict):
        out = dict(base)
        changes = [k for k in top if k != "source"]
        if "source" in base and changes and "source" not in top:
            raise ScenarioError(
                file,
                path or "(top)",
                "changes a component that states its source: give the changed values a "
                "'source' of their own (a rule reference or 'reconstructed: <why>')",
            )
        for key, value in top.items():
            sub = f"{path}.{key}" if path else key
            out[key] = merge(base[key], value, file, sub) if key in base else copy.deepcopy(value)
        return out
    if isinstance(base, list) and isinstance(top, list) and _by_id(base) and _by_id(top):
        out_list = [copy.deepcopy(b) for b in base]
        index = {b["id"]: i for i, b in enumerate(out_list)}
        for entry in top:
            if entry["id"] in index:
                i = index[entry["id"]]
                out_list[i] = merge(out_list[i], entry, file, f"{path}[id={entry['id']}]")
            else:
                out_list.append(copy.deepcopy(entry))
        return out_list
    return copy.deepcopy(top)


def _by_id(items: list[Any]) -> bool:
    return bool(items) and all(isinstance(i, dict) and "id" in i for i in items)


def resolve(
    ref: str | Path,
    *,
    shipped_scenarios: Mapping[str, Path],
    data_dir: Path,
    defaults: Mapping[str, str],
    game: str | None = None,
) -> ScenarioFiles:
    """Load a scenario by shipped id or path, with its components.

    ``defaults`` maps each component kind to its shipped name (a file
    ``data_dir/<name>.toml``). ``game``: the caller's game name; a file whose
    ``[scenario] game`` names another is refused.
    """
    ref_text = str(ref)
    if ref_text in shipped_scenarios:
        path, shipped = shipped_scenarios[ref_text], True
    else:
        path, shipped = Path(ref_text), False
        if not _is_file(path):
            known = ", ".join(sorted(shipped_scenarios))
            raise ScenarioError(
                ref_text, "", f"is neither a shipped scenario ({known}) nor a scenario file"
            )
    files: list[tuple[str, str]] = []
    root = _load_extending(
        path, shipped, shipped_scenarios, files, path.parent, seen=(), rooted=False
    )
    named = _take_game(root, game)
    comps = root.get("components")
    refs: dict[str, str] = dict(defaults)
    if comps is not None:
        comps.only(defaults)
        for kind, node in comps.items():
            refs[kind] = node.as_str()
    overrides = root.get("overrides")
    if overrides is not None:
        overrides.only(defaults)
    components: dict[str, Node] = {}
    for kind, name in refs.items():
        if name.endswith(".toml") and not shipped:
            where = referenced(path.parent, name)
            text, node = _read(where, name)
            files.append((recorded_name(name, where), text))
        elif name.endswith(".toml"):
            raise ScenarioError(
                path.name, f"components.{kind}", "a shipped scenario names shipped components"
            )
        else:
            where = data_dir / f"{name}.toml"
            if not where.is_file():
                raise ScenarioError(
                    path.name, f"components.{kind}", f"{name!r} is not a shipped component"
                )
            _, node = _read(where, where.name)
        over = overrides.get(kind) if overrides is not None else None
        if over is not None:
            node = Node(merge(node.value, over.value, path.name, f"overrides.{kind}"), node.file)
        components[kind] = node
    return ScenarioFiles(root, components, tuple(files), path, named)


def _take_game(root: Node, game: str | None) -> str | None:
    """The game ``[scenario] game`` names, taken out of the scenario table."""
    scen = root.get("scenario")
    if scen is None or not isinstance(scen.value, dict) or "game" not in scen.value:
        return None
    named = scen.req("game")
    if not isinstance(named.value, str):
        raise named.error('must be a game\'s name (a string), e.g. game = "lnl"')
    if game is not None and named.value != game:
        raise named.error(f"this file is for {named.value!r}, not {game!r}")
    del scen.value["game"]
    return named.value


def _load_extending(
    path: Path,
    shipped: bool,
    shipped_scenarios: Mapping[str, Path],
    files: list[tuple[str, str]],
    home: Path,
    seen: tuple[Path, ...],
    rooted: bool,
) -> Node:
    text, node = _read(path, path.name)
    if not shipped:
        # named as the scenario file's folder reaches it (``../common/base.toml``), or,
        # reached through an absolute name, by its absolute path (a record embeds it
        # under that path, where a replay finds it)
        name = os.path.abspath(path) if rooted else Path(os.path.relpath(path, home)).as_posix()
        files.append((name, text))
    scen = node.get("scenario")
    base_ref = scen.get("extends") if scen is not None and isinstance(scen.value, dict) else None
    if base_ref is None:
        return node
    target = base_ref.as_str()
    if target in shipped_scenarios:
        base_path, base_shipped = shipped_scenarios[target], True
    else:
        base_path, base_shipped = referenced(path.parent, target), shipped
        rooted = rooted or PurePath(target).is_absolute()
        if not _is_file(base_path):
            raise base_ref.error(
                f"{target!r} is neither a shipped scenario nor a file next to this one"
            )
    if base_path.resolve() in seen or base_path.resolve() == path.resolve():
        raise base_ref.error("extends itself (a circle of scenarios)")
    base = _load_extending(
        base_path, base_shipped, shipped_scenarios, files, home, (*seen, path.resolve()), rooted
    )
    merged = merge(base.value, node.value, path.name)
    merged["scenario"].pop("extends", None)
    return Node(merged, path.name)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name the file system refuses (too long, ...)
        return False


#: The folder a record puts a scenario file in when it names files outside its own
#: folder: one level of it for each ``..`` the names climb.
UP = "_"


def embedded(files: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The files a record embeds, under names that stay inside one folder.

    ``files`` are named as the scenario file's folder reaches them, and may climb out
    of it (``../common/map.toml``). When one does, the scenario file is put as many
    folders deep (``_/custom.toml``) and every name taken from there
    (``common/map.toml``): written out in that layout the files name each other as
    before, so the scenario, its text and its hash unchanged, loads anywhere. A file
    named by an absolute path goes under :data:`ROOT` (:func:`rooted_name`), where a
    replay looks for it (:func:`referenced`). A file named twice is kept once.
    """
    names = [
        rooted_name(name)
        if PurePath(name).is_absolute()
        else posixpath.normpath(PurePath(name).as_posix())
        for name, _ in files
    ]
    rooted = [PurePath(name).is_absolute() for name, _ in files]
    climb = max((_climb(n) for n, r in zip(names, rooted, strict=True) if not r), default=0)
    home = "/".join([UP] * climb)
    out: dict[str, str] = {}
    for name, absolute, (_, text) in zip(names, rooted, files, strict=True):
        kept = posixpath.normpath(f"{home}/{name}") if home and not absolute else name
        out.setdefault(kept, text)
    return tuple(out.items())


def _climb(name: str) -> int:
    parts = name.split("/")
    return next((i for i, part in enumerate(parts) if part != ".."), len(parts))


def materialize(files: tuple[tuple[str, str], ...], folder: Path) -> Path:
    """Write embedded scenario files into ``folder``; returns the scenario file's path.

    Names must stay inside the folder (relative, no ``..``) and be distinct.
    """
    if not files:
        raise ScenarioError("scenario.files", "", "a record's scenario embeds no file")
    seen: set[str] = set()
    for name, text in files:
        rel = PurePosixPath(name)
        if (
            not name
            or "\x00" in name
            or rel.is_absolute()
            or ".." in rel.parts
            or rel.name in ("", ".")
            or posixpath.normpath(name) in seen
        ):
            raise ScenarioError(
                name[:80], "", "an embedded file name must stay inside its folder, and be its own"
            )
        seen.add(posixpath.normpath(name))
        target = folder.joinpath(*rel.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate a JSON escape can carry
            raise ScenarioError(name[:80], "", "is not UTF-8 text") from None
        target.write_bytes(data)
    return folder.joinpath(*PurePosixPath(files[0][0]).parts)
