"""A folder's scenario files for the start menu (`skirmish menu FOLDER`, the Open field), listed within bounds so
that a folder given by mistake (`/`, a home folder) keeps the menu quick: breadth first (the nearest files
first), at most `limit` files, MAX_DEPTH levels of subfolders, MAX_DIRS folders read, MAX_ENTRIES entries read
in one folder; hidden entries, unreadable folders and links to folders are skipped (so a link loop is never
walked). What was cut short is said in a line the menu shows. A file's name in the list comes from its first
`name:` line when that is plain (quick: the line alone read as YAML gives the text the loader would), else from
the loader's bounded read (skirmish.content.scenario)."""

from __future__ import annotations

import os
import re
import stat
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from skirmish.content.errors import unprintable
from skirmish.content.scenario import scenario_title

MAX_DEPTH = 4  # subfolder levels below the folder given
MAX_DIRS = 300  # folders read in one listing
MAX_ENTRIES = 5000  # entries read in one folder (a huge one is read in part)
HEAD_BYTES = 4096  # what the quick name reads of a file
# one plain line is parsed with libyaml where there is one (12 µs a line here against 86 µs: a 500-file listing
# stays quick); it cannot nest, so the loader's reason for the pure-Python parser (deep nesting) does not apply
_LINE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Listing:
    """The YAML files found (nearest first, each folder's in name order) and what cut the listing short."""

    files: list[Path] = field(default_factory=list)
    more_files: bool = False  # the file limit was reached with files left
    deep: int = 0  # folders left unread below MAX_DEPTH
    unread_dirs: int = 0  # folders left unread once MAX_DIRS were read
    huge: int = 0  # folders read only in part (over MAX_ENTRIES entries)
    unreadable: int = 0  # folders that could not be read (no permission, gone)

    def cut(self, limit: int) -> str:
        """What cut the listing short, in a line ("" when nothing did)."""
        why = []
        if self.more_files:
            why.append(f"more than {limit} scenario files: the first {limit} (nearest first) are listed")
        if self.unread_dirs:
            why.append(f"{MAX_DIRS} folders read, {self.unread_dirs} more left unread")
        if self.deep:
            why.append(f"{_n(self.deep)} deeper than {MAX_DEPTH} levels left unread")
        if self.huge:
            why.append(f"{_n(self.huge)} of more than {MAX_ENTRIES} entries read in part")
        if self.unreadable:
            why.append(f"{_n(self.unreadable)} could not be read")
        return "; ".join(why)


def _n(count: int) -> str:
    return f"{count} folder" if count == 1 else f"{count} folders"


def scan_folder(folder: Path, limit: int) -> Listing:
    """The YAML files (`.yaml`, `.yml`) of a folder and its subfolders, within the bounds above."""
    out = Listing()
    todo: deque[tuple[Path, int]] = deque([(folder, 0)])
    read = 0
    while todo:
        where, depth = todo.popleft()
        if read >= MAX_DIRS:
            out.unread_dirs = len(todo) + 1
            break
        read += 1
        names, dirs = [], []
        try:
            with os.scandir(where) as it:
                for n, entry in enumerate(it):
                    if n >= MAX_ENTRIES:
                        out.huge += 1
                        break
                    if entry.name.startswith("."):
                        continue
                    try:
                        is_dir = entry.is_dir(follow_symlinks=False)  # a link to a folder is not followed
                    except OSError:
                        is_dir = False
                    if is_dir:
                        dirs.append(entry.name)
                    elif entry.name.endswith((".yaml", ".yml")):
                        names.append(entry.name)
        except OSError:
            out.unreadable += 1
            continue
        for name in sorted(names):
            if len(out.files) >= limit:
                out.more_files = True
                return out
            out.files.append(where / name)
        for name in sorted(dirs):
            if depth + 1 > MAX_DEPTH:
                out.deep += 1
            else:
                todo.append((where / name, depth + 1))
    return out


_NAME = re.compile(r"^name:[ \t]*(.*?)[ \t]*$", re.MULTILINE)
_NOT_PLAIN = tuple("'\"{[|>&*!%@`#")


def quick_title(path: Path) -> str | None:
    """A scenario file's `name:` from its first bytes when it is a plain one-line value at the top level; None
    when it is not there (or not plain, or the file is not a regular file): then the loader's read decides."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        try:
            head = os.read(fd, HEAD_BYTES)
        finally:
            os.close(fd)
    except (OSError, ValueError):
        return None
    if b"\0" in head:
        return None
    text = head.decode("utf-8", errors="replace")
    found = _NAME.search(text)
    if found is None or found.end() >= len(text) - 1:  # not there, or maybe cut at the end of the head
        return None
    value = found.group(1).split(" #", 1)[0].strip()
    rest = text[found.end() + 1:]
    if not value or value.startswith(_NOT_PLAIN) or ": " in value or rest[:1] in (" ", "\t") or "\ufffd" in value:
        return None  # quoted, flow, block or continued on the next line: the loader reads it
    line = found.group(0).rstrip("\r")  # a Windows line end is a line end
    if unprintable(line) is not None:
        return None  # a tab (the loader's YAML refuses one before a comment; libyaml does not), a control
        # character or a YAML line break (NEL, U+2028) in the line: the loader decides
    try:  # the line alone, read as the loader reads YAML: a comment after a tab, `yes`, `123`, `- x`, `<<` …
        parsed = yaml.load(line, Loader=_LINE_LOADER)
    except (yaml.YAMLError, ValueError, OverflowError, TypeError):
        return None
    name = parsed.get("name") if isinstance(parsed, dict) else None
    if not isinstance(name, str) or unprintable(name) is not None:
        return None  # not a text, or one the loader refuses (scenario_title): it decides
    return name.strip() or None


_NAMES: dict[tuple[str, float], str] = {}


def scenario_name(path: Path) -> str:
    """A scenario file's `name:` (the file name if it has none or cannot be read), cached by modification
    time; the quick read first, else the loader's bounded one (a FIFO or a bomb cannot hurt)."""
    fallback = path.stem.replace("_", " ")
    try:
        key = (str(path), path.stat().st_mtime)
    except (OSError, RuntimeError):  # RuntimeError: nothing here, but a link loop must not break a list
        return fallback
    if key not in _NAMES:
        _NAMES[key] = quick_title(path) or scenario_title(path) or fallback
    return _NAMES[key]
