"""Files the user names: inputs read as UTF-8 with a clear message, outputs checked
before any work starts and written atomically (a temporary file renamed into place).

Shared by the command line, the terminal player and the scenario tools.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from omaha.kernel.files import FileRefused, read_regular


class WriteFailed(OSError):
    """An output file could not be written (exit status 1)."""


#: The largest input file read (a game record of a long game is a few megabytes).
MAX_INPUT_BYTES = 64 * 2**20


def input_file(path: Path) -> str:
    """The text of a file the user named (a regular file of at most
    :data:`MAX_INPUT_BYTES`), or a clear ``ValueError``."""
    if not path.exists():
        raise ValueError(f"{path}: no such file")
    if path.is_dir():
        raise ValueError(f"{path}: is a directory, not a file")
    try:
        raw = read_regular(path, MAX_INPUT_BYTES)
    except FileRefused as exc:
        raise ValueError(f"{path}: {exc}") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: is not UTF-8 text") from None


def output_file(path: Path, option: str, suffixes: Sequence[str] = ()) -> Path:
    """Check, before any work starts, that ``path`` can be written; ``ValueError`` if not.

    ``suffixes`` are the file types the command writes (``.svg``); others are refused.
    """
    if suffixes and path.suffix.lower() not in suffixes:
        kinds = " or ".join(suffixes)
        got = f"a {path.suffix} file" if path.suffix else "a file without an extension"
        raise ValueError(f"{option} {path}: cannot write {got}; give a {kinds} file")
    if path.is_dir():
        raise ValueError(f"{option} {path}: is a directory")
    parent = path.parent
    if not parent.is_dir():
        raise ValueError(f"{option} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"{option} {path}: not writable")
    return path


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it into place:
    a reader never sees half a file, and an interrupted write leaves the old one."""
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else _default_mode()
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise WriteFailed(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(text.encode("utf-8") if isinstance(text, str) else text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise WriteFailed(exc.errno, exc.strerror, str(path)) from None
        raise


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
