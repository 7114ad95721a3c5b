"""Small drawing helpers: fonts with cached text, buttons with hotkeys, wrapped text, toasts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

PANEL_BG = (28, 31, 38)
PANEL_EDGE = (70, 76, 90)
TEXT = (226, 228, 232)
DIM = (140, 146, 158)
ACCENT = (255, 210, 90)
BAD = (240, 110, 100)
GOOD = (120, 210, 130)


# pygame's bundled font covers Latin-1; rule texts and logs also use a few other signs.
_PLAIN = str.maketrans({"→": "->", "−": "-", "≈": "~", "—": "-", "–": "-", "▶": ">", "✓": "v", "▾": "-",
                        "▸": "+", "↓": "v", "↑": "^", "…": "...", "≥": ">=", "≤": "<=", "’": "'"})


def plain(text: str) -> str:
    """Text with the signs the bundled font lacks replaced by ASCII look-alikes."""
    return text.translate(_PLAIN)


class Fonts:
    """pygame's own font (freesansbold) at a few sizes, with a cache of rendered lines."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.small = pygame.font.Font(None, 18)
        self.normal = pygame.font.Font(None, 22)
        self.big = pygame.font.Font(None, 34)
        self.huge = pygame.font.Font(None, 60)
        self._cache: dict[tuple[int, str, tuple[int, int, int]], pygame.Surface] = {}

    def text(self, font: pygame.font.Font, text: str, colour: tuple[int, int, int] = TEXT) -> pygame.Surface:
        """A rendered line (cached; the cache is bounded)."""
        key = (id(font), text, colour)
        img = self._cache.get(key)
        if img is None:
            if len(self._cache) > 4000:
                self._cache.clear()
            img = font.render(plain(text), True, colour)
            self._cache[key] = img
        return img


def wrap(font: pygame.font.Font, text: str, width: int) -> list[str]:
    """Break text into lines that fit `width` pixels."""
    words = text.split(" ")
    lines: list[str] = []
    cur = ""
    for w in words:
        trial = f"{cur} {w}" if cur else w
        if font.size(plain(trial))[0] <= width or not cur:
            cur = trial
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return lines


@dataclass
class Button:
    """A clickable label with an optional hotkey; `on` runs when pressed."""

    label: str
    on: Callable[[], object]
    key: int | None = None
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    enabled: bool = True
    active: bool = False  # drawn highlighted (a chosen option)
    tip: str = ""

    def draw(self, surf: pygame.Surface, fonts: Fonts, hover: bool) -> None:
        """Draw in place."""
        bg = (62, 70, 86) if self.enabled else (40, 43, 50)
        if self.active:
            bg = (120, 96, 40)
        if hover and self.enabled:
            bg = tuple(min(255, c + 25) for c in bg)  # type: ignore[assignment]
        pygame.draw.rect(surf, bg, self.rect, border_radius=5)
        pygame.draw.rect(surf, PANEL_EDGE, self.rect, 1, border_radius=5)
        img = fonts.text(fonts.normal, self.label, TEXT if self.enabled else DIM)
        surf.blit(img, img.get_rect(center=self.rect.center))


class ButtonRow:
    """Buttons laid out left to right in a strip."""

    def __init__(self) -> None:
        self.buttons: list[Button] = []

    def layout(self, x: int, y: int, height: int, fonts: Fonts, gap: int = 6) -> int:
        """Place the buttons; returns the x after the last."""
        for b in self.buttons:
            w = fonts.normal.size(b.label)[0] + 20
            b.rect = pygame.Rect(x, y, w, height)
            x += w + gap
        return x

    def press(self, pos: tuple[int, int]) -> tuple[bool, object]:
        """Press the button under pos: (whether one was hit, what its action returned)."""
        for b in self.buttons:
            if b.enabled and b.rect.collidepoint(pos):
                return True, b.on()
        return False, None

    def click(self, pos: tuple[int, int]) -> bool:
        """Press the button under pos, if any."""
        return self.press(pos)[0]

    def key(self, key: int) -> bool:
        """Press the button bound to a key, if any."""
        for b in self.buttons:
            if b.enabled and b.key == key:
                b.on()
                return True
        return False

    def draw(self, surf: pygame.Surface, fonts: Fonts) -> None:
        """Draw all."""
        mouse = pygame.mouse.get_pos()
        for b in self.buttons:
            b.draw(surf, fonts, b.rect.collidepoint(mouse))


@dataclass
class Toast:
    """A message that fades after a few seconds (refusals, saved screenshots)."""

    text: str
    colour: tuple[int, int, int] = TEXT
    left: float = 4.0
