"""A one-line path prompt over the screen it came from (the editor's Save As): Enter calls `accept(path)`,
which returns None (done: the prompt closes) or the one-line reason it failed (shown, the prompt stays);
Esc cancels. A path without a suffix gets `.yaml`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from skirmish.ui.layout import elide_left
from skirmish.ui.save_as import typed_path
from skirmish.ui.screens.base import Transition
from skirmish.ui.widgets import ACCENT, BAD, DIM, PANEL_BG, PANEL_EDGE, TEXT, Fonts, wrap

KEYS = "Enter saves · Esc cancels · Ctrl+V pastes · Ctrl+U clears"


def as_scenario_path(text: str) -> Path:
    """The path typed, `~` expanded, `.yaml` added when it has no suffix."""
    path = Path(text.strip()).expanduser()
    return path if path.suffix else path.with_suffix(".yaml")


class PathDialog:
    """The prompt."""

    def __init__(self, fonts: Fonts, title: str, default: str, accept: Callable[[Path], str | None]) -> None:
        self.fonts = fonts
        self.title = title
        self.text = default
        self.accept = accept
        self.error: str | None = None
        self.done: Path | None = None
        self.backdrop: pygame.Surface | None = None

    def handle(self, event: pygame.event.Event) -> Transition | None:
        """Typing, Enter, Esc."""
        step, path = typed_path(self, event, as_scenario_path, self.accept)
        if path is not None:
            self.done = path
        return step

    def update(self, dt: float) -> Transition | None:
        """Nothing moves."""
        return None

    def draw(self, surf: pygame.Surface) -> None:
        """The screen below as it was, dimmed, and the prompt in the middle."""
        f = self.fonts
        if self.backdrop is None:
            self.backdrop = surf.copy()
            shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
            shade.fill((0, 0, 0, 150))
            self.backdrop.blit(shade, (0, 0))
        surf.blit(self.backdrop, (0, 0))
        w = min(surf.get_width() - 40, 720)
        box = pygame.Rect(0, 0, w, 160)
        box.center = surf.get_rect().center
        pygame.draw.rect(surf, PANEL_BG, box, border_radius=6)
        pygame.draw.rect(surf, PANEL_EDGE, box, 1, border_radius=6)
        surf.blit(f.text(f.normal, self.title, ACCENT), (box.x + 14, box.y + 12))
        field = pygame.Rect(box.x + 14, box.y + 46, w - 28, f.normal.get_linesize() + 10)
        pygame.draw.rect(surf, (18, 20, 26), field, border_radius=4)
        pygame.draw.rect(surf, ACCENT, field, 1, border_radius=4)
        surf.blit(f.text(f.normal, elide_left(f.normal, self.text + "|", field.w - 12), TEXT), (field.x + 6, field.y + 5))
        y = field.bottom + 8
        for line in wrap(f.small, self.error or "", w - 28)[:3]:
            surf.blit(f.text(f.small, line, BAD), (box.x + 14, y))
            y += f.small.get_linesize()
        surf.blit(f.text(f.small, KEYS, DIM), (box.x + 14, box.bottom - f.small.get_linesize() - 10))
