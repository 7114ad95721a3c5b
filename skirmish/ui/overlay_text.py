"""Text drawn over the board: the AI's reason labels over miniatures, toasts, and the help box (keys, what the
marks mean, the abbreviations). The battle screen and the replay viewer both draw with these; the battle
screen lays its help out in columns of its own (skirmish/ui/battle/drawing.py)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pygame

from skirmish.ui.board import MARKS
from skirmish.ui.camera import Camera
from skirmish.ui.panels import GLOSSARY_SHORT
from skirmish.ui.widgets import ACCENT, TEXT, Fonts, Toast, wrap

Colour = tuple[int, int, int]
HELP_MAX_W = 960
LEGEND = [
    "A disc in its side's colour is a miniature; the white wedge on its rim points where it faces; "
    "R3 is Raider-3 (hover a card or log line for the rules' words)",
    "Red badge: wounds taken (4 incapacitate, 6 kill) · blue bar under it: CT left (shown once hurt)",
    "Letters beside it: " + " · ".join(f"{k} {v}" for k, v in MARKS),
    "Grey token lying on its side: out of action (tinted by its side) · with a red badge and a cross: dead",
    "Yellow ring: selected · white ring: acting · green / yellow cells: walk / run reach",
    "Fog of war (your side, or V while watching): darkened cells are out of your miniatures' sight; a faint "
    "ringed token marked ?3 is an enemy you do not see now, where you last knew it (in round 3)",
]


def help_sections(keys: Sequence[str]) -> list[tuple[str, Sequence[str]]]:
    """The help box's sections: these keys, what the marks on the board mean, the abbreviations."""
    return [("Keys", keys), ("On the board", LEGEND), ("Abbreviations", [f"{k}  {v}" for k, v in GLOSSARY_SHORT])]


def draw_labels(surf: pygame.Surface, fonts: Fonts, cam: Camera,
                labels: Sequence[tuple[tuple[float, float], str, Colour]]) -> None:
    """Framed labels (an AI's reason) over the miniatures at these cells, kept on the board; a miniature off the
    board gets none (a label clamped to the edge would point nowhere)."""
    for at, text, colour in labels:
        if not text or not cam.shows(at, margin=-0.5):
            continue
        x, y = cam.centre(at)
        img = fonts.text(fonts.small, text, colour)
        r = img.get_rect(midbottom=(x, y - int(cam.tile * 0.55) - 4))
        r.clamp_ip(surf.get_rect().inflate(-12, -8))  # the frame drawn around it stays on the board too
        pygame.draw.rect(surf, (12, 13, 18), r.inflate(10, 6), border_radius=4)
        pygame.draw.rect(surf, colour, r.inflate(10, 6), 1, border_radius=4)
        surf.blit(img, r)


def draw_toasts(surf: pygame.Surface, fonts: Fonts, toasts: Sequence[Toast], area: pygame.Rect) -> None:
    """The messages of the last seconds, newest at the bottom left of `area`, wrapped to its width."""
    y = area.bottom - 10
    for t in reversed(toasts):
        for line in reversed(wrap(fonts.normal, t.text, area.w - 36)):
            img = fonts.text(fonts.normal, line, t.colour)
            r = img.get_rect(bottomleft=(area.x + 12, y))
            pygame.draw.rect(surf, (10, 10, 14), r.inflate(10, 4))
            surf.blit(img, r)
            y -= img.get_height() + 2
        y -= 6


def help_rows(fonts: Fonts, sections: Sequence[tuple[str, Sequence[str]]], width: int
              ) -> list[tuple[pygame.font.Font, str, Colour, int]]:
    """The help box's lines: each section's title, then its lines wrapped to `width` (a line starting with three
    spaces is indented, as a continuation of the one above): (font, text, colour, indent)."""
    rows: list[tuple[pygame.font.Font, str, Colour, int]] = []
    for title, lines in sections:
        rows.append((fonts.normal, title, ACCENT, 0))
        for line in lines:
            indent = 18 if line.startswith("   ") else 0
            rows += [(fonts.small, part, TEXT, indent) for part in wrap(fonts.small, line.strip(), width - indent)]
    return rows


def draw_help(surf: pygame.Surface, fonts: Fonts, sections: Sequence[tuple[str, Sequence[str]]]) -> pygame.Rect:
    """The help box in the middle of `surf`, as tall as its lines (cut to the window); returns its rect."""
    width = min(surf.get_width() - 24, HELP_MAX_W)
    rows = help_rows(fonts, sections, width - 30)
    height = sum(font.get_linesize() + (8 if font is fonts.normal else -1) for font, *_ in rows) + 16
    with help_box(surf, width, height) as rect:
        y = rect.y + 10
        for font, text, colour, indent in rows:
            if font is fonts.normal and y > rect.y + 10:
                y += 6
            surf.blit(fonts.text(font, text, colour), (rect.x + 15 + indent, y))
            y += font.get_linesize() + (2 if font is fonts.normal else -1)
    return rect


@contextmanager
def help_box(surf: pygame.Surface, width: int, height: int) -> Iterator[pygame.Rect]:
    """A framed box `width` wide and `height` tall (cut to the window) in the middle of `surf`; what is drawn
    in the `with` block is clipped to its inside."""
    sw, sh = surf.get_size()
    rect = pygame.Rect(0, 0, width, min(height, sh - 24))
    rect.center = (sw // 2, sh // 2)
    pygame.draw.rect(surf, (14, 16, 20), rect, border_radius=8)
    pygame.draw.rect(surf, ACCENT, rect, 1, border_radius=8)
    clip = surf.get_clip()
    surf.set_clip(rect.inflate(-4, -4))
    try:
        yield rect
    finally:
        surf.set_clip(clip)
