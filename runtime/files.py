"""Writing output files all or nothing: a failed command leaves no partial file behind.

Standard library only; used by `dump` and by every command of the CLI that writes a file.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from typing import IO, Iterator


@contextlib.contextmanager
def atomic_output(path: str, binary: bool = False) -> Iterator[IO]:
    """Open a temporary file beside ``path``; it replaces ``path`` only if the block succeeds."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(2, "no such folder for the output file", path)
    fd, tmp = tempfile.mkstemp(prefix=".scorecard-", suffix=os.path.splitext(path)[1], dir=folder)
    try:
        os.chmod(tmp, _new_file_mode())  # mkstemp makes 0600; an output file gets the usual mode
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="")) as fh:
            yield fh
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_atomic(path: str, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8) to ``path`` all or nothing."""
    with atomic_output(path, binary=isinstance(content, bytes)) as fh:
        fh.write(content)


def _new_file_mode() -> int:
    """The mode ``open(path, "w")`` would give a new file: 0666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
