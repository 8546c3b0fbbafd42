"""What-if sweeps: one scenario played over the values of one scenario key, seeds paired.

``omaha sweep GAME --scenario S --set TABLE.KEY=V1,V2,...`` copies the shipped scenario
file once per value with ``TABLE.KEY`` set to it (a number, ``true``/``false`` or a
string), checks every copy against the game's scenario schema (an unknown key or a bad
value is refused before any game is played), and plays each copy with the comparison's
seeds: run ``i`` has the same seeds under every value, so a value that cannot matter
gives the same runs, run by run, and a difference between two values is a paired one
(:mod:`omaha.compare_pairs`), each against the first value.

The copies are written to a temporary directory of this machine, so a sweep runs here
(``serial``) or in a local process pool, not on a remote Dask cluster.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
import re
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

import omaha
from omaha import compare, compare_pairs
from omaha.authoring import shipped_text
from omaha.compare_table import wrap
from omaha.kernel.metrics import COMMON


@attrs.frozen
class Setting:
    """``table.key`` of a scenario file and the values to sweep it over (as TOML text)."""

    table: str
    key: str
    values: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.table}.{self.key}"


def parse_setting(text: str) -> Setting:
    """``"scenario.turns=8,10"`` -> Setting("scenario", "turns", ("8", "10"))."""
    name, eq, values = text.partition("=")
    table, dot, key = name.strip().rpartition(".")
    pattern = r"[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*"
    if not eq or not dot or not re.fullmatch(pattern, table) or not re.fullmatch(pattern, key):
        raise ValueError(
            f"--set takes TABLE.KEY=V1,V2,... (such as scenario.turns=8,10), not {text!r}"
        )
    items = tuple(v.strip() for v in values.split(","))
    if len(items) < 2 or not all(items):
        raise ValueError(f"--set {name.strip()}: give two values or more, V1,V2,...")
    return Setting(table, key, items)


def toml_value(text: str) -> str:
    """A value as written in the file: a number or boolean as it is, anything else quoted."""
    if text in ("true", "false") or re.fullmatch(r"[+-]?\d+(\.\d+)?", text):
        return text
    return json.dumps(text)


def set_key(base: str, setting: Setting, value: str) -> str:
    """The scenario text ``base`` with ``[table]``'s ``key`` set to ``value`` (added to the
    table when the file does not give it)."""
    header = re.search(rf"(?m)^\[{re.escape(setting.table)}\][ \t]*(#.*)?$", base)
    if header is None:
        raise ValueError(f"--set {setting.name}: the scenario file has no [{setting.table}] table")
    start = header.end()
    nxt = re.search(r"(?m)^\[", base[start:])
    end = start + nxt.start() if nxt else len(base)
    body = base[start:end]
    line = f"{setting.key} = {toml_value(value)}"
    pattern = rf"(?m)^{re.escape(setting.key)}[ \t]*=.*$"
    if re.search(pattern, body):
        body = re.sub(pattern, lambda _: line, body, count=1)
    else:
        body = f"\n{line}" + body
    return base[:start] + body + base[end:]


@contextlib.contextmanager
def scenario_files(game: str, scenario: str, setting: Setting) -> Iterator[list[Path]]:
    """One checked copy of the shipped scenario per value, removed on leaving."""
    g = omaha.load(game)
    if scenario not in g.scenarios():
        raise ValueError(f"{game} has no scenario {scenario!r} ({', '.join(g.scenarios())})")
    base = shipped_text(g, scenario)
    if base is None:
        raise ValueError(f"{game}/{scenario}: no shipped scenario file to sweep")
    with tempfile.TemporaryDirectory(prefix="omaha-sweep-") as tmp:
        paths = []
        for i, value in enumerate(setting.values):
            path = Path(tmp) / f"{scenario}-{i}.toml"
            path.write_text(set_key(base, setting, value), encoding="utf-8")
            problems = g.validate_file(path)
            if problems:
                raise ValueError(f"--set {setting.name}={value}: {problems[0]}")
            paths.append(path)
        yield paths


def sweep(
    game: str, scenario: str, setting: Setting, runs: int = 20, seed: int = 1,
    pool: cf.Executor | None = None, bot: str | None = None, size: int = 5,
) -> list[compare.Column]:  # fmt: skip
    """One column per value of ``setting``, the same seeds in each (run ``i`` alike)."""
    with scenario_files(game, scenario, setting) as paths:
        columns = [
            compare.run_column(game, str(path), runs, seed, bot, pool, size) for path in paths
        ]
    return [
        attrs.evolve(col, scenario=f"{scenario}[{setting.key}={value}]")
        for col, value in zip(columns, setting.values, strict=True)
    ]


def table(columns: Sequence[compare.Column], setting: Setting) -> str:
    """Each common metric against the value: n, mean and interval, and the paired
    difference from the first value (P where its 95% interval excludes zero)."""
    first = columns[0]
    out = wrap(
        f"Sweep of {first.game}/{first.scenario.partition('[')[0]} over {setting.name}: "
        f"{len(first.runs)} runs a value, the same seeds (root {first.root}) for each; the "
        "difference is paired, run by run, from the first value (P: its 95% interval "
        "excludes zero)",
        "",
        "",
    )
    width = max(len(setting.key), *(len(v) for v in setting.values)) + 2
    for metric in COMMON:
        if not any(c.values(metric.name) for c in columns):
            continue
        out += ["", f"{metric.name} ({metric.unit})"]
        out.append(
            f"  {setting.key.ljust(width)}{'n':>4}{'mean':>8}  {'95% interval':<14}difference"
        )
        for value, col in zip(setting.values, columns, strict=True):
            values = col.values(metric.name)
            if not values:
                out.append(f"  {value.ljust(width)}   -  not modelled")
                continue
            if col.is_time(metric.name):
                ev = col.events(metric.name)
                med = ev.median
                text = f"{ev.n:>4}  had it {compare.Share(ev.had, ev.n)}; median "
                text += "> end" if med is None else f"{med:.2f}"
            else:
                s = compare.summarize(
                    values, compare.bounds(col.units.get(metric.name, ""), values)
                )
                assert s is not None
                text = f"{s.n:>4}{s.mean:>8.2f}  {s.low:.2f}-{s.high:.2f}".ljust(30)
            if col is not first:
                p = compare_pairs.paired(col, first, metric.name)
                if p is not None:
                    text += f"  {p.mean:+.2f} ({p.low:+.2f} to {p.high:+.2f})"
                    text += "  P" if p.dependent else ""
            out.append(f"  {value.ljust(width)}{text}".rstrip())
    return "\n".join(out)
