"""Side colours: a scenario side may set `colour:` (a name below or `#rrggbb`); otherwise a colour word in
the side's name picks it (a side called "Blue Team" is drawn blue), else a fixed palette by order."""

from __future__ import annotations

import re

Colour = tuple[int, int, int]

NAMED: dict[str, Colour] = {
    "red": (206, 70, 60),
    "blue": (60, 120, 210),
    "gold": (225, 170, 40),
    "yellow": (225, 200, 50),
    "green": (90, 170, 90),
    "orange": (230, 130, 40),
    "purple": (150, 90, 200),
    "violet": (150, 90, 200),
    "cyan": (60, 190, 200),
    "teal": (40, 150, 140),
    "white": (225, 225, 225),
    "grey": (150, 150, 150),
    "gray": (150, 150, 150),
    "black": (60, 60, 70),
    "brown": (150, 100, 60),
    "pink": (230, 120, 170),
}
# Sides without a colour of their own, in file order (the first two match the board's old defaults).
PALETTE: tuple[Colour, ...] = (NAMED["red"], NAMED["blue"], NAMED["gold"], NAMED["green"], NAMED["purple"],
                               NAMED["cyan"], NAMED["orange"], NAMED["pink"])
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def parse_colour(text: str) -> Colour:
    """A colour name from NAMED or `#rrggbb`; ValueError says what is accepted."""
    key = text.strip().lower()
    if key in NAMED:
        return NAMED[key]
    if _HEX.match(key):
        return int(key[1:3], 16), int(key[3:5], 16), int(key[5:7], 16)
    raise ValueError(f"expected a colour name ({', '.join(sorted(NAMED))}) or #rrggbb, got {text!r}")


def side_colours(sides: list[tuple[str, str | None]]) -> list[Colour]:
    """One colour per side, given (name, colour-or-None) in file order: the side's own colour, else a colour
    word in its name not already taken, else the first palette colour not already taken."""
    out: list[Colour | None] = [parse_colour(c) if c else None for _, c in sides]
    for i, (name, _) in enumerate(sides):
        if out[i] is not None:
            continue
        words = re.findall(r"[a-z]+", name.lower())
        for w in words:
            if w in NAMED and NAMED[w] not in out:
                out[i] = NAMED[w]
                break
    for i in range(len(out)):
        if out[i] is None:
            free = [c for c in PALETTE if c not in out]
            out[i] = free[0] if free else PALETTE[i % len(PALETTE)]
    return [c for c in out if c is not None]
