"""Errors for bad input that name the file, the key path and what was expected (C-6, STYLE 10), and the
bounded, checked reading every loader goes through (docs/FILES.md lists the limits)."""

from __future__ import annotations

import math
import os
import re
import stat
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# Unicode categories that may not appear in one-line text: controls, format marks (bidi overrides), line and
# paragraph separators, lone surrogates (which cannot even be printed).
_UNPRINTABLE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_:\-]*$")
QUOTE_LIMIT = 60


class ContentError(ValueError):
    """A scenario, map, deck or replay file that cannot be used. str() is the one-line message."""

    def __init__(self, file: str, where: str, message: str) -> None:
        # Every part may carry text from the file: escape anything that could break the line (a forged
        # `result:` line in a log must be impossible).
        self.file = one_line(file)
        self.where = one_line(where)
        self.message = one_line(message)
        super().__init__(self.text)

    @property
    def text(self) -> str:
        """`file: key.path: what was expected`."""
        return f"{self.file}: {self.where}: {self.message}" if self.where else f"{self.file}: {self.message}"


def unprintable(text: str, *, allow: str = "") -> str | None:
    """The first character of `text` that may not appear in one line (controls, separators, bidi marks,
    surrogates), or None. Characters in `allow` (e.g. newline in a description) are let through."""
    for ch in text:
        if ch not in allow and unicodedata.category(ch) in _UNPRINTABLE:
            return ch
    return None


def one_line(text: str) -> str:
    """`text` with every character that could break or disguise a line escaped (\\n, \\x1b, \\u2028 …)."""
    if unprintable(text) is None:
        return text
    out = []
    for ch in text:
        if unicodedata.category(ch) in _UNPRINTABLE:
            out.append(repr(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A short one-line rendering of a value from a file for a message: strings repr-quoted (so a newline
    shows as \\n), JSON scalars as JSON spells them, containers by kind; long text cut with '…'."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("-Infinity" if value < 0 else "Infinity")
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "an empty list" if not value else f"a list of {len(value)}"
    if isinstance(value, int):
        text = str(value) if value.bit_length() < 200 else ("-" if value < 0 else "") + "a huge integer"
    elif isinstance(value, str):
        text = repr(value[: limit + 1])
    else:
        text = repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…" + (text[0] if isinstance(value, str) else "")
    return one_line(text)


def key_path(loc: Sequence[str | int]) -> str:
    """Render a location like ('sides', 0, 'units', 2, 'weapon') as 'sides[0].units[2].weapon'; a key that
    is not a plain word is quoted, e.g. skills['x y']."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN_KEY.match(str(part)):
            out += ("." if out else "") + str(part)
        else:
            out += f"[{quote(str(part))}]"
    return out


# ----------------------------------------------------------------------------------------------------------
# Reading: regular files only, bounded in size, UTF-8 text without NUL bytes.

KIB = 1024
MIB = 1024 * KIB


def read_text(path: Path, label: str, limit: int) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes; ContentError (naming `label`, the name the
    user wrote) for a missing file, a directory, device or FIFO (never opened, so nothing blocks), a file
    over the limit, a NUL byte or bytes that are not UTF-8."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ContentError(label, "", "file not found") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise ContentError(label, "", f"cannot read the file ({_why(exc)})") from None
    _check_stat(st, label, limit)
    try:
        # O_NONBLOCK: if the file was swapped for a FIFO since the stat, opening it still returns at once.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError) as exc:
        raise ContentError(label, "", f"cannot read the file ({_why(exc)})") from None
    try:
        _check_stat(os.fstat(fd), label, limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 * MIB, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise ContentError(label, "", f"cannot read the file ({_why(exc)})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise ContentError(label, "", f"the file is larger than the limit of {_size(limit)} (docs/FILES.md)")
    return decode(data, label)


def decode(data: bytes, label: str) -> str:
    """UTF-8 text (a leading byte-order mark dropped); ContentError naming the line of a NUL or bad byte."""
    nul = data.find(b"\0")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise ContentError(label, f"line {line}", "contains a NUL byte; expected UTF-8 text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ContentError(label, f"line {line}", f"not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                           "expected UTF-8") from None
    return text.removeprefix("\ufeff")


def _check_stat(st: os.stat_result, label: str, limit: int) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise ContentError(label, "", "is a directory; expected a file")
    if not stat.S_ISREG(st.st_mode):
        raise ContentError(label, "", "is not a regular file (a device, FIFO or socket); expected a file")
    if st.st_size > limit:
        raise ContentError(label, "", f"the file is {_size(st.st_size)}; the limit is {_size(limit)} "
                           "(docs/FILES.md)")


def _size(n: int) -> str:
    if n >= 1024 * MIB:
        return f"{n / (1024 * MIB):.1f} GiB"
    if n >= MIB:
        return f"{n / MIB:.1f} MiB"
    if n >= KIB:
        return f"{n / KIB:.0f} KiB"
    return f"{n} bytes"


def _why(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


# ----------------------------------------------------------------------------------------------------------
# Parsed documents: bounded depth and size before any recursive code (pydantic, our checks) walks them.


def check_tree(doc: Any, label: str, *, max_depth: int, max_nodes: int, text_allow: str = "\n\t\r",
               one_line_text: bool = False, limits_doc: str = "docs/FILES.md") -> None:
    """Walk a parsed YAML/JSON document without recursion: ContentError for nesting deeper than `max_depth`,
    more than `max_nodes` values (YAML aliases counted each time they are used, so a 'billion laughs'
    file stops here), a key that is not text or holds a control character, or text holding a control
    character other than those in `text_allow` (NUL, escape, lone surrogates …). With `one_line_text`, no
    text may hold anything `unprintable` finds (line breaks, separators, bidi marks too)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(doc, ())]
    nodes = 0
    while stack:
        value, loc = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise ContentError(label, "", f"more than {max_nodes} values (with YAML aliases expanded); "
                               f"the limit is in {limits_doc}")
        if isinstance(value, dict | list) and len(loc) >= max_depth:
            raise ContentError(label, key_path(loc), f"nested deeper than {max_depth} levels")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise ContentError(label, key_path(loc) or "(top level)",
                                       f"keys must be text, got {quote(key)}")
                bad = unprintable(key)
                if bad is not None:
                    raise ContentError(label, key_path((*loc, key)),
                                       f"a key may not contain control characters ({quote(bad)})")
                stack.append((item, (*loc, key)))
        elif isinstance(value, list):
            stack.extend((item, (*loc, i)) for i, item in enumerate(value))
        elif isinstance(value, str) and one_line_text:
            if not value.isprintable() and (bad := unprintable(value)) is not None:  # isprintable: the fast test
                raise ContentError(label, key_path(loc), f"text may not contain control characters, line "
                                   f"separators or bidi marks ({quote(bad)})")
        elif isinstance(value, str):
            bad = unprintable(value, allow=text_allow)
            if bad is not None and unicodedata.category(bad) in ("Cc", "Cs"):
                raise ContentError(label, key_path(loc), f"text may not contain control characters ({quote(bad)})")
