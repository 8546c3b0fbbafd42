"""Reading the files a user names: regular files only, of bounded size.

A FIFO, a device (a link to ``/dev/zero``, say) or a directory is refused before it is
read, so reading never blocks on a pipe nor fills memory from an endless file; a file
larger than the reader's bound is refused after reading one byte past it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: The largest scenario or component file read: the shipped ones are a few hundred
#: kilobytes at most.
MAX_DATA_BYTES = 16 * 2**20


class FileRefused(ValueError):
    """A file that is not a regular file, or is too large (the message names neither
    the file nor its reader: the caller's error does)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_regular(path: Path, limit: int = MAX_DATA_BYTES) -> bytes:
    """The bytes of ``path`` (links followed), a regular file of at most ``limit`` bytes.

    :class:`FileRefused` for anything else; ``OSError`` when it cannot be opened or read.
    """
    mode = os.stat(path).st_mode  # before opening: opening a FIFO would wait for a writer
    if not stat.S_ISREG(mode):
        raise FileRefused(f"cannot be read ({_kind(mode)}, not a regular file)")
    # O_NONBLOCK: should a FIFO take the file's place after the check, open does not wait
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused(f"cannot be read ({_kind(mode)}, not a regular file)")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(f"cannot be read (larger than {limit // 2**20} MiB)")
    return data
