"""rulespec.files: the bounded reads and the writes every command makes of the files a user
names (docs/security.md)."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from rulespec.files import read_bounded, read_stream, why_not_regular, write_atomic


def test_a_regular_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    p = tmp_path / "f"
    p.write_bytes(b"x" * 100)
    assert read_bounded(p, 100) == b"x" * 100
    with pytest.raises(OSError) as e:
        read_bounded(p, 99, "record")
    assert e.value.errno == errno.EFBIG and "record is larger than 99 bytes" in str(e.value)


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/"])
def test_anything_but_a_regular_file_is_refused_unread(path: str) -> None:
    with pytest.raises(OSError) as e:
        read_bounded(path, 10)
    assert "not a regular file" in str(e.value)
    assert "not a regular file" in why_not_regular(path)


def test_a_fifo_nobody_writes_to_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="a FIFO, not a regular file"):
        read_bounded(fifo, 10)
    assert why_not_regular(tmp_path / "nothing") == "no such file"


def test_a_stream_is_read_up_to_its_limit(tmp_path: Path) -> None:
    p = tmp_path / "s"
    p.write_bytes(b"y" * 11)
    with open(p, "rb") as f:
        assert read_stream(f, 11) == b"y" * 11
    with open(p, "rb") as f, pytest.raises(OSError, match="larger than 10 bytes"):
        read_stream(f, 10)


def test_a_write_replaces_a_file_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    p = tmp_path / "book.md"
    p.write_text("old", encoding="utf-8")
    p.chmod(0o640)
    write_atomic(p, "new")
    assert p.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(p.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.md"
    write_atomic(fresh, "x")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask
    assert sorted(q.name for q in tmp_path.iterdir()) == ["book.md", "fresh.md"]  # no temporary


def test_a_write_follows_no_link_planted_beside_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("precious", encoding="utf-8")
    # the temporary name the old code used, predictable from the process id
    os.symlink(victim, tmp_path / f".out.json.{os.getpid()}.tmp")
    write_atomic(tmp_path / "out.json", "{}")
    assert victim.read_text(encoding="utf-8") == "precious"
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == "{}"


def test_a_device_or_fifo_is_written_in_place_never_replaced(tmp_path: Path) -> None:
    write_atomic(Path("/dev/null"), "nothing")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError):  # nobody reads it: an error at once, not a hang
        write_atomic(fifo, "text")
    # a reader there (opened without blocking, so no thread and no waiting): the text goes in
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomic(fifo, "text")
        assert os.read(fd, 100) == b"text"
    finally:
        os.close(fd)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    with pytest.raises(OSError, match="a directory"):
        write_atomic(tmp_path, "x")
