"""Writing scenarios: ``omaha validate`` (every problem of every file at once) and
``omaha new`` (a commented starter scenario that validates).

A scenario file names its game in ``[scenario] game = "..."`` (the contract of
:mod:`omaha.kernel.scenariofile`); ``--game`` overrides it. Each file is checked
by its game's :meth:`~omaha.kernel.protocol.Game.validate_file` (a game with a
schema reports every problem at once; one without reports the first its loader
meets), then loaded, so a cross-field check of the loader is not missed.

The starter extends the game's default scenario and changes nothing yet; it lists,
commented out, the keys of that scenario's ``[scenario]`` table and its other
sections, so a writer sees what can be changed. A game whose loader does not read
the shared format yet gets a copy of its default scenario instead (its shipped
text, with a new id and title), when that validates; ``omaha new`` writes nothing
that does not validate.

Uses only the registry, the protocol and the kernel's file contract.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import tomllib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from omaha.errors import DataFileError
from omaha.fileio import write_atomic
from omaha.kernel.files import FileRefused, read_regular
from omaha.kernel.protocol import Game
from omaha.registry import games, load


@attrs.frozen
class Problem:
    """One problem of a file: where (as the user named it), the key path, what."""

    file: str
    key: str
    problem: str

    def __str__(self) -> str:
        return (
            f"{self.file}: {self.key}: {self.problem}"
            if self.key
            else f"{self.file}: {self.problem}"
        )


@attrs.frozen
class Checked:
    """What ``omaha validate`` found in one file."""

    path: Path
    game: str | None
    title: str | None  # the scenario's title when it loads
    problems: tuple[Problem, ...]


# --------------------------------------------------------------------------
# validate
# --------------------------------------------------------------------------
def named_game(text: str) -> object:
    """What ``[scenario] game`` holds in a scenario file's text (None if nothing)."""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return None
    scenario = data.get("scenario")
    return scenario.get("game") if isinstance(scenario, dict) else None


def _shown(path: Path, error: DataFileError) -> Problem:
    """A loader's error with its file as the user reaches it (the path they gave, or a
    component file beside it)."""
    file = error.file
    if file == path.name:
        file = str(path)
    elif file and (path.parent / file).is_file():
        file = str(path.parent / file)
    return Problem(file, error.key, error.problem)


def check_file(path: Path, game_name: str | None = None) -> Checked:
    """Every problem of one scenario file; ``game_name`` overrides the game it names."""
    shown = str(path)
    try:
        raw = read_regular(path)
    except FileNotFoundError:
        return Checked(path, game_name, None, (Problem(shown, "", "no such file"),))
    except FileRefused as exc:
        return Checked(path, game_name, None, (Problem(shown, "", str(exc)),))
    except OSError as exc:
        why = f"cannot be read ({exc.strerror or exc})"
        return Checked(path, game_name, None, (Problem(shown, "", why),))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        why = f"is not UTF-8 text (byte {exc.start})"
        return Checked(path, game_name, None, (Problem(shown, "", why),))
    if game_name is None:
        named = named_game(text)
        installed = ", ".join(games())
        if named is None:
            try:
                tomllib.loads(text)
            except (tomllib.TOMLDecodeError, RecursionError) as exc:
                return Checked(
                    path, None, None, (Problem(shown, "", f"is not valid TOML ({exc})"),)
                )
            why = (
                'names no game: add game = "NAME" to its [scenario] table, or give --game '
                f"(games: {installed})"
            )
            return Checked(path, None, None, (Problem(shown, "scenario.game", why),))
        if not isinstance(named, str) or named not in games():
            why = f"no game named {json.dumps(named)} is installed (games: {installed})"
            return Checked(path, None, None, (Problem(shown, "scenario.game", why),))
        game_name = named
    game = load(game_name)
    problems = [_shown(path, e) for e in game.validate_file(path)]
    title = None
    if not problems:
        try:
            title = game.load_scenario(path).title
        except DataFileError as exc:  # a loader's check the schema does not make
            problems.append(_shown(path, exc))
    return Checked(path, game_name, title, tuple(problems))


# --------------------------------------------------------------------------
# new
# --------------------------------------------------------------------------
def shipped_text(game: Game[Any], scenario: str) -> str | None:
    """The text of a shipped scenario file of ``game`` (``data/scenarios/<id>.toml`` in
    the rule module, the layout every module shares), or None if it is not there."""
    package = type(game).__module__.rpartition(".")[0]
    if not package:
        return None
    try:
        path = resources.files(package).joinpath("data", "scenarios", f"{scenario}.toml")
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except (ModuleNotFoundError, OSError, UnicodeDecodeError):
        return None


def _toml_value(value: Any) -> str | None:
    """``value`` written as TOML, for the simple values a starter shows (else None)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list) and all(
        isinstance(v, (bool, int, float, str)) and not isinstance(v, dict) for v in value
    ):
        items = [_toml_value(v) for v in value]
        return "[" + ", ".join(i for i in items if i is not None) + "]"
    return None


def _commented_keys(base_text: str | None, base: str) -> list[str]:
    """The default scenario's own keys, commented out: what a writer may change."""
    if base_text is None:
        return []
    try:
        data = tomllib.loads(base_text)
    except tomllib.TOMLDecodeError:
        return []
    lines: list[str] = []
    scenario = data.get("scenario")
    if isinstance(scenario, dict):
        shown = []
        for key, value in scenario.items():
            text = _toml_value(value)
            if key in ("id", "title", "source", "extends", "game") or text is None:
                continue
            if len(text) > 100:
                text = text[:97] + '..."' if text.startswith('"') else text[:97] + "..."
            shown.append(f"# {key} = {text}")
        if shown:
            lines += [
                "",
                f'# The keys of [scenario] as "{base}" sets them: uncomment one here (under',
                "# [scenario]) to change it, and say in source where the new value comes from.",
                *shown,
            ]
    sections = [k for k in data if k not in ("scenario", "components", "overrides")]
    if sections:
        lines += [
            "",
            f'# Other sections of "{base}": {", ".join(sections)}. A table given here',
            "# replaces keys of the same table there; a list of tables with ids merges entry",
            "# by entry (a new id is added); any other list is replaced.",
        ]
    return lines


SOURCE = "reconstructed: a variant of the shipped scenario; say here what you changed and why"


def _keyed(key: str, value: str, comment: str) -> str:
    line = f"{key} = {json.dumps(value, ensure_ascii=False)}"
    return f"{line:29s} # {comment}" if comment else line


def starter_text(game: Game[Any], name: str) -> str:
    """A commented scenario that extends ``game``'s default scenario, named ``name``."""
    base = game.default_scenario
    lines = [
        f"# {name}.toml: a scenario for {game.title},",
        f"# written by 'omaha new {game.name} {name}'. It starts from the shipped",
        f'# scenario "{base}" and changes nothing yet: change what you want below.',
        f"# Check it:  omaha validate {name}.toml",
        f"# Play it:   omaha play {game.name} --scenario {name}.toml",
        f"# Every key a {game.name} scenario takes: docs/games/{game.name}.md, Scenario files.",
        "",
        "[scenario]",
        _keyed("game", game.name, "the game this file is for"),
        _keyed("extends", base, "start from this scenario (or a file here)"),
        _keyed("id", name, "how records and the comparison name it"),
        _keyed("title", name, "its title"),
        _keyed("source", SOURCE, ""),
        *_commented_keys(shipped_text(game, base), base),
        "",
        "# Components (map, units, decks, tables) come from the game unless named here:",
        '# a shipped name ("map") or a file next to this one ("my_units.toml").',
        "# [components]",
        '# units = "my_units.toml"',
        "",
        "# Or change part of a component in place; a record that states its source",
        "# needs a source of its own for the changed values:",
        "# [overrides.units]",
        "",
    ]
    return "\n".join(lines)


def copy_text(game: Game[Any], name: str) -> str | None:
    """For a game whose loader does not read the shared format yet: its default
    scenario's shipped text with ``name`` as id and title (None if not found)."""
    base = game.default_scenario
    text = shipped_text(game, base)
    if text is None:
        return None
    head = (
        f'# {name}.toml: a copy of the shipped scenario "{base}" of {game.title},\n'
        f"# written by 'omaha new {game.name} {name}'. The {game.name} module does not read\n"
        "# the shared scenario format yet (game, extends, components, overrides), so this\n"
        "# is the whole scenario: change what you want. Check it:\n"
        f"#   omaha validate --game {game.name} {name}.toml\n\n"
    )
    # the replacement is a function: a name's JSON form may hold backslashes (\u00e9),
    # which a replacement string would read as escapes
    renamed = re.sub(r'(?m)^id = ".*"$', lambda _: f"id = {json.dumps(name)}", text, count=1)
    renamed = re.sub(
        r'(?m)^title = ".*"$', lambda _: f"title = {json.dumps(name)}", renamed, count=1
    )
    return head + renamed


def reads_shared_format(game: Game[Any]) -> bool:
    """Whether ``game`` reads scenario files in the shared format (``game``, ``extends``,
    ``components``, ``overrides``): a starter extending its default scenario validates."""
    with tempfile.TemporaryDirectory(prefix="omaha-probe-") as folder:
        probe = Path(folder) / "probe.toml"
        probe.write_text(starter_text(game, "probe"), encoding="utf-8")
        return not check_file(probe, game.name).problems


@attrs.frozen
class Written:
    path: Path
    shared_format: bool  # False: a copy, for a game not on the shared format yet
    validate: str  # the command that checks it


def new_scenario(game: Game[Any], target: Path) -> Written:
    """Write a starter scenario at ``target`` (a ``.toml`` path that does not exist)
    that validates; ``ValueError`` with the loader's reason when none does."""
    name = target.stem
    refused: list[str] = []
    candidates: list[tuple[str | None, bool]] = [
        (starter_text(game, name), True),
        (copy_text(game, name), False),
    ]
    for text, shared in candidates:
        if text is None:
            continue
        problems = _trial(game, target, text)
        if not problems:
            write_atomic(target, text)
            command = (
                f"omaha validate {target}"
                if shared
                else f"omaha validate --game {game.name} {target}"
            )
            return Written(target, shared, command)
        refused.append(str(problems[0]))
    why = refused[0] if refused else "no default scenario text found"
    raise ValueError(f"{game.name} cannot read a starter scenario yet ({why}); nothing written")


def _trial(game: Game[Any], target: Path, text: str) -> list[Problem]:
    """The problems of ``text`` saved beside ``target`` (so relative names resolve the
    same), under a temporary name that is removed after."""
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}.", suffix=".toml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        checked = check_file(Path(temp), game.name)
        return [
            attrs.evolve(p, file=str(target)) if p.file in (temp, Path(temp).name) else p
            for p in checked.problems
        ]
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def starter_path(name: str) -> Path:
    """``NAME`` -> ``NAME.toml`` (a path may lead to it; a .toml ending is kept)."""
    path = Path(name)
    if path.suffix.lower() != ".toml":
        path = path.with_name(path.name + ".toml")
    return path


def check_all(paths: Sequence[Path], game_name: str | None = None) -> list[Checked]:
    return [check_file(p, game_name) for p in paths]
