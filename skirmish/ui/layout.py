"""Text placed on the menu and results screens: long lines are elided or wrapped to the room they have, and
every line drawn in a frame is remembered, so a test can check that nothing is clipped or overlaps."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from skirmish.ui.widgets import TEXT, Button, Fonts, plain, wrap

ELLIPSIS = "..."


def elide(font: pygame.font.Font, text: str, width: int) -> str:
    """`text`, cut with an ellipsis if it is wider than `width` pixels."""
    if font.size(plain(text))[0] <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if font.size(plain(text[:mid].rstrip()) + ELLIPSIS)[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ""


def elide_left(font: pygame.font.Font, text: str, width: int) -> str:
    """`text`, keeping its end (a path being typed), with an ellipsis in front if too wide."""
    if font.size(plain(text))[0] <= width:
        return text
    for i in range(1, len(text)):
        if font.size(ELLIPSIS + plain(text[i:]))[0] <= width:
            return ELLIPSIS + text[i:]
    return ""


def _label_font(fonts: Fonts, b: Button) -> pygame.font.Font:
    """The font a button's label is set in (a narrow window may set some in the small font)."""
    return fonts.small if getattr(b, "small", False) else fonts.normal


class Page:
    """Draws text onto one surface and remembers where each line went."""

    def __init__(self, surf: pygame.Surface, fonts: Fonts) -> None:
        self.surf = surf
        self.fonts = fonts
        self.lines: list[tuple[str, pygame.Rect]] = []

    def text(self, font: pygame.font.Font, text: str, colour: tuple[int, int, int] = TEXT,
             at: tuple[int, int] = (0, 0), *, width: int | None = None, anchor: str = "topleft") -> pygame.Rect:
        """One line at `at` (by `anchor`, e.g. "midtop"), elided to `width` pixels if given."""
        if width is not None:
            text = elide(font, text, width)
        if not text:
            return pygame.Rect(at, (0, 0))
        img = self.fonts.text(font, text, colour)
        rect = img.get_rect(**{anchor: at})
        self.surf.blit(img, rect)
        self.lines.append((text, rect))
        return rect

    def para(self, font: pygame.font.Font, text: str, colour: tuple[int, int, int], x: int, y: int, width: int,
             max_lines: int, line_h: int | None = None) -> int:
        """Text wrapped to `width`, at most `max_lines` lines (the last elided); returns the y below it."""
        if max_lines <= 0:
            return y
        step = line_h or font.get_linesize()
        lines = wrap(font, text, width) if text else []
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = elide(font, lines[-1] + " " + ELLIPSIS, width)
        for line in lines:
            self.text(font, line, colour, (x, y), width=width)
            y += step
        return y

    def buttons(self, buttons: Sequence[Button]) -> None:
        """Remember where the buttons' labels are drawn (Button.draw centres them in the button)."""
        for b in buttons:
            w, h = _label_font(self.fonts, b).size(plain(b.label))
            r = pygame.Rect(0, 0, w, h)
            r.center = b.rect.center
            self.lines.append((b.label, r))


def layout_problems(page: Page, bounds: pygame.Rect, buttons: Sequence[Button] = ()) -> list[str]:
    """Lines that leave the window, overlap each other or overflow their button (empty if all is well)."""
    out: list[str] = []
    rects = page.lines
    for text, r in rects:
        if not bounds.contains(r):
            out.append(f"outside the window: {text!r} at {tuple(r)}")
    for i, (a, ra) in enumerate(rects):
        for other, rb in rects[i + 1:]:
            if ra.colliderect(rb):
                out.append(f"overlap: {a!r} {tuple(ra)} and {other!r} {tuple(rb)}")
    for b in buttons:
        if b.rect.w and _label_font(page.fonts, b).size(plain(b.label))[0] > b.rect.w - 4:
            out.append(f"label wider than its button: {b.label!r}")
    return out
