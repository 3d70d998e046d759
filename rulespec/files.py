"""Reading and writing the files a user names: bounded reads, and writes that replace a file
whole or not at all without following a link planted beside it.

A spec, a record or an ``--out`` path may name anything: a device that never ends
(``/dev/zero``), a FIFO that never answers, a symbolic link. Every file rulespec reads because
a user named it goes through :func:`read_bounded`, and every file it writes through
:func:`write_atomic` (docs/security.md says what each refuses).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

from rulespec.shown import escape_line

__all__ = ["exists", "plain_or_absent", "read_bounded", "read_stream", "why_no_folder_to_write",
           "why_not_regular", "why_not_writable", "write_atomic"]


def _kind(mode: int) -> str:
    """What a file that is not a regular one is, in a word for an error message."""
    for test, word in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return word
    return "not a regular file"  # pragma: no cover - the kinds above are all POSIX has


def why_not_regular(path: str | Path) -> str:
    """Why ``path`` is no regular file to read, in words (``a FIFO, not a regular file``,
    ``no such file``); "" when it is one."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except (OSError, ValueError) as e:  # a name too long; ValueError: a NUL in the name
        return str(getattr(e, "strerror", None) or e)
    return "" if stat.S_ISREG(mode) else f"{_kind(mode)}, not a regular file"


def read_bounded(path: str | Path, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, of at most ``limit`` bytes.

    Opened without blocking, so a FIFO with no writer is refused at once rather than waited
    on; anything but a regular file (a FIFO, a device such as ``/dev/zero``, a directory) is
    refused without reading a byte; a file over ``limit`` is refused having read ``limit + 1``
    bytes at most (a file that grows while being read is caught too). Refusals are OSErrors
    whose ``strerror`` says why, as the file system's own are."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, f"{_kind(st.st_mode)}, not a regular file", str(path))
        if st.st_size > limit:
            raise OSError(errno.EFBIG, f"the {what} is larger than {limit:,} bytes", str(path))
        # O_NONBLOCK means nothing to a regular file's reads
        chunks, got = [], 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise OSError(errno.EFBIG, f"the {what} is larger than {limit:,} bytes", str(path))
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_stream(stream: BinaryIO, limit: int, what: str = "input") -> bytes:
    """What ``stream`` (standard input, a pipe) holds until it ends, of at most ``limit``
    bytes: an OSError (EFBIG) once it has given ``limit + 1``."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"the {what} is larger than {limit:,} bytes")
    return data


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all.

    A regular file (or a name not there yet) is replaced by a temporary file made beside it
    with :func:`tempfile.mkstemp` (a new name, created exclusively: a symbolic link planted
    where a predictable name would be is never followed) and renamed over it, so an
    interrupted or failed run never leaves half a record or a book behind. A path that exists
    and is not a regular file (a character device such as ``/dev/null``, a FIFO) is written
    directly, never replaced by a regular file; a directory is refused. OSError as the file
    system gives it."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError:  # a name too long, a loop of links: the write below reports it
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OSError(errno.EISDIR, "a directory, not a file", str(path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_special(path, text)
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:100]}.", suffix=".tmp",
                               dir=path.parent if str(path.parent) else ".")
    try:
        # mkstemp makes the file 0600: give it the mode the file it replaces had, or the one a
        # new file gets under the umask
        os.fchmod(fd, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        with open(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        # KeyboardInterrupt too: the half-written temporary goes, the old file stays
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_special(path: Path, text: str) -> None:
    """Write to a FIFO or a device in place (opened without blocking, so a FIFO nobody reads
    is an error at once, not a hang)."""
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        os.set_blocking(fd, True)  # once open, write all of it, waiting for the reader
        with open(fd, "w", encoding="utf-8", closefd=False) as f:
            f.write(text)
    finally:
        os.close(fd)


def why_not_writable(path: Path) -> str | None:
    """Why a file cannot be written at ``path`` (a directory is there, or its folder is not),
    or None: asked before seconds of work whose result would go there."""
    try:
        if path.is_dir():
            return "it is a directory"
        if not path.parent.is_dir():
            return f"there is no folder {escape_line(str(path.parent))}"
    except OSError as e:  # a name too long
        return str(e.strerror or e)
    return None


def why_no_folder_to_write(folder: Path) -> str | None:
    """Make ``folder`` (and its parents) and try a file in it: why files cannot be written
    there, or None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # a new file of a name nobody can plant a link at beforehand (mkstemp), then removed
        fd, probe = tempfile.mkstemp(prefix=".rulespec-write-test.", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return str(e.strerror or e)
    return None


def exists(path: Path) -> bool:
    """Whether there is a file at ``path``; False for a name the system cannot hold (past its
    length limit: a spec's name near 255 bytes, a companion's suffix longer than ``.rules``)."""
    try:
        return path.exists()
    except OSError:
        return False


def plain_or_absent(path: Path) -> bool:
    """Whether ``path`` is a regular file or not there yet (a name the system refuses counts as
    absent: writing it says why)."""
    try:
        return path.is_file() or not path.exists()
    except OSError:
        return True
