"""Output files written whole or not at all (C-6): checked before any work, written through a temporary file
created exclusively beside the target and renamed into place, the temporary file removed on any failure
(an error, a full disk, Ctrl-C). Every file skirmish writes goes through here. Stdlib only.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TextIO


class OutputError(OSError):
    """An output file that cannot be written; the message names the path and says why."""


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _target(path: Path) -> Path:
    """The file to replace: a symlink is followed, so the file it points to is the one written."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _special(path: Path) -> bool:
    """True for an existing file that is not a regular file (a device such as /dev/stdout, a pipe): written
    in place, since it cannot be replaced."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def check_output(path: str | os.PathLike[str]) -> Path:
    """Check that `path` can be written, before any work is done: its folder exists and is a folder, the path
    is not a folder, and a file can be created there. Returns it as a Path; raises OutputError naming it."""
    p = Path(path)
    text = os.fspath(path)
    if not text:
        raise OutputError("an empty output path")
    if text.endswith(("/", os.sep)) or p.is_dir():
        raise OutputError(f"{text}: is a folder; expected a file name")
    if _special(p):
        if not os.access(p, os.W_OK):
            raise OutputError(f"{text}: not writable")
        return p
    target = _target(p)
    folder = target.parent
    if not folder.exists():
        raise OutputError(f"{text}: folder {os.fspath(folder) or '.'} does not exist")
    if not folder.is_dir():
        raise OutputError(f"{text}: {os.fspath(folder)} is not a folder")
    if target.is_dir():
        raise OutputError(f"{text}: is a folder; expected a file name")
    try:  # the only sure test (permissions, read-only file systems, quotas): create a file there and remove it
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"{text}: cannot create a file in {os.fspath(folder) or '.'}: {_why(exc)}") from None
    os.close(fd)
    with suppress(OSError):
        os.unlink(probe)
    return p


def _mode_for(target: Path) -> int:
    """The new file's permissions: the replaced file's, or the usual ones under the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def atomic_writer(path: str | os.PathLike[str], *, newline: str | None = None) -> Iterator[TextIO]:
    """A text stream (UTF-8) whose contents replace `path` only when the block ends without an error.

    The temporary file is made by mkstemp in the target's folder (exclusive, unpredictable name, so a planted
    symlink is never followed) and os.replace'd into place. Any OSError is raised as OutputError naming the
    path; on any exception (KeyboardInterrupt too) the temporary file is removed and the target untouched."""
    p = Path(path)
    text = os.fspath(path)
    if _special(p):
        try:
            with open(p, "w", encoding="utf-8", newline=newline) as f:
                yield f
        except OutputError:
            raise
        except OSError as exc:
            raise OutputError(f"{text}: cannot write: {_why(exc)}") from None
        return
    target = _target(p)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"{text}: cannot create a file in {os.fspath(target.parent) or '.'}: {_why(exc)}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except BaseException as exc:
        with suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"{text}: cannot write: {_why(exc)}") from None
        raise


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` (UTF-8) to `path` whole or not at all (see atomic_writer)."""
    with atomic_writer(path) as f:
        f.write(text)


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside `path`, with its suffix (so a writer that picks the format by the name, like
    pygame.image.save, still does), that replaces `path` when the block ends without an error."""
    target = _target(Path(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}.", suffix=target.suffix)
    except OSError as exc:
        raise OutputError(f"{os.fspath(path)}: cannot create a file in {os.fspath(target.parent) or '.'}: "
                          f"{_why(exc)}") from None
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
