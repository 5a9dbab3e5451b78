"""Writing output files all or nothing: a failed command leaves no partial file behind.

Standard library only; used by `dump` and by every command of the CLI that writes a file.

A regular file (or a new one) is written to a temporary file beside it, named
``.NAME.scorecard-tmp-PID-RANDOM``, which replaces it only when the write succeeded; the
replaced file keeps its mode, a new file gets the usual one (0666 less the umask). On Linux
an existing file is replaced by exchanging the two names in one step and removing the old file
(:func:`_replace`), elsewhere by ``os.replace``; neither syncs the file to disk. A path
that is not a regular file (``/dev/null``, ``/dev/stdout``, a named pipe) is written
through, never replaced. A temporary file left by a process that no longer runs (killed
with SIGKILL, say) is removed by the next write to the same folder.
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import secrets
import stat
import sys
from typing import IO, Iterator

from .errors import UsageError

#: The marker in every temporary file's name: ``.NAME.scorecard-tmp-PID-RANDOM``.
TMP_MARK = ".scorecard-tmp-"
_TMP_NAME = re.compile(r"^\..*\.scorecard-tmp-(\d+)-[0-9a-f]+$", re.DOTALL)


def check_output(path: str, option: str = "-o") -> None:
    """Refuse an output path that cannot be written (UsageError naming it), before any work:
    its folder must exist and be writable, and the path must not be a folder."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UsageError(f"{option} {path}: is a folder; name a file to write")
    if not os.path.isdir(folder):
        raise UsageError(f"{option} {path}: no such folder {folder}")
    if _write_through(path):
        if not os.access(path, os.W_OK):
            raise UsageError(f"{option} {path}: cannot write to it (permission denied)")
        return  # a device or pipe is written through; its folder need not be writable
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {path}: cannot write in the folder {folder} (permission denied)")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise UsageError(f"{option} {path}: the file is read-only")


@contextlib.contextmanager
def atomic_output(path: str, binary: bool = False) -> Iterator[IO]:
    """Open a temporary file beside ``path``; it replaces ``path`` only if the block succeeds.

    A ``path`` that exists and is not a regular file is opened and written directly."""
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", path)
    if _write_through(path):
        with (open(path, "wb") if binary else open(path, "w", encoding="utf-8", newline="")) as fh:
            yield fh
        return
    target = os.path.realpath(path)  # a symbolic link stays a link: the file it names is replaced
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, "no such folder for the output file", path)
    clean_stale(folder)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    fd, tmp = _create_temp(target)
    try:
        os.fchmod(fd, mode)
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="")) as fh:
            yield fh
        _replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


#: ``renameat2``'s flag and "the current folder" (linux/fs.h, fcntl.h).
RENAME_EXCHANGE, AT_FDCWD = 2, -100


def _replace(tmp: str, target: str) -> None:
    """Put the file ``tmp`` in ``target``'s place, the name ``target`` always holding a whole
    file, old or new. Where ``target`` exists and the system can exchange two names in one step
    (Linux's ``renameat2`` with RENAME_EXCHANGE), the names are exchanged and the old file
    removed: ext4 takes a rename over an existing file as a request to write the new file to
    disk before the rename returns (its ``auto_da_alloc``; 0.56 s for a 900 MB ``predict``
    output here, a tenth of the command), which an exchange does not make. Elsewhere, or for a
    new file, ``os.replace``."""
    if not _exchange(tmp, target):
        os.replace(tmp, target)
        return
    with contextlib.suppress(OSError):  # left behind, the old file is removed as a stale temporary one
        os.unlink(tmp)


def _exchange(a: str, b: str) -> bool:
    """Exchange the names ``a`` and ``b`` in one step; False where it cannot be done (not Linux,
    a C library or file system without it, ``b`` missing): nothing changed then."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    return renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0


def _renameat2():
    """The C library's ``renameat2`` (glibc 2.28 and later), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def write_atomic(path: str, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8) to ``path`` all or nothing."""
    with atomic_output(path, binary=isinstance(content, bytes)) as fh:
        fh.write(content)


def temp_name(target: str, pid: int | None = None) -> str:
    """The temporary file a write of ``target`` uses: ``.NAME.scorecard-tmp-PID-RANDOM`` beside it."""
    folder, name = os.path.split(target)
    return os.path.join(folder, f".{name}{TMP_MARK}{os.getpid() if pid is None else pid}-{secrets.token_hex(4)}")


def clean_stale(folder: str) -> list[str]:
    """Remove the temporary files in ``folder`` whose writing process no longer runs; returns them."""
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        match = _TMP_NAME.match(name)
        if match and not _alive(int(match.group(1))):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))
                removed.append(name)
    return removed


def _create_temp(target: str) -> tuple[int, str]:
    for _ in range(100):
        tmp = temp_name(target)
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), tmp
        except FileExistsError:
            continue
        except OSError as exc:  # name the user's path, not the temporary file
            raise OSError(exc.errno, exc.strerror, target) from None
    raise FileExistsError(errno.EEXIST, "no free temporary name", target)


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs (one of another user counts as running)."""
    if pid <= 0:
        return True  # not a name this module writes: leave the file alone
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def _write_through(path: str) -> bool:
    """A path to write directly: an existing non-regular file (device, pipe, socket), or one
    under /dev or /proc (``/dev/stdout`` redirected to a file is still the stream)."""
    if not os.path.exists(path):
        return False
    if os.path.abspath(path).startswith(("/dev/", "/proc/")):
        return True
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _new_file_mode() -> int:
    """The mode ``open(path, "w")`` would give a new file: 0666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
