"""Errors for bad input that name the file, the key path and what was expected (C-6, STYLE 10)."""

from __future__ import annotations

from collections.abc import Sequence


class ContentError(ValueError):
    """A scenario, map, deck or replay file that cannot be used. str() is the one-line message."""

    def __init__(self, file: str, where: str, message: str) -> None:
        self.file = file
        self.where = where
        self.message = message
        super().__init__(self.text)

    @property
    def text(self) -> str:
        """`file: key.path: what was expected`."""
        return f"{self.file}: {self.where}: {self.message}" if self.where else f"{self.file}: {self.message}"


def key_path(loc: Sequence[str | int]) -> str:
    """Render a location like ('sides', 0, 'units', 2, 'weapon') as 'sides[0].units[2].weapon'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out
