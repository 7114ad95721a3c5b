"""Save the battle to a chosen path (Ctrl+Shift+S on the board): a small dialog over the paused board with
one text field. Enter saves (a bad path keeps the dialog open with the reason), Esc cancels."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import pygame

from skirmish.ui.layout import elide_left
from skirmish.ui.screens import Pop, Transition
from skirmish.ui.widgets import ACCENT, BAD, DIM, PANEL_BG, PANEL_EDGE, TEXT, Fonts, edit_line, wrap

TITLE = "Save the battle as"
KEYS = "Enter saves · Esc cancels · Ctrl+V pastes · Ctrl+U clears"


class PathPrompt(Protocol):
    """A screen with one path being typed and the reason the last one was refused."""

    text: str
    error: str | None


def typed_path(prompt: PathPrompt, event: pygame.event.Event, to_path: Callable[[str], Path],
               accept: Callable[[Path], str | None]) -> tuple[Transition | None, Path | None]:
    """A key in a path prompt (this dialog, the editor's Save As): the line edited; Esc pops; Enter turns the text
    into a path (`to_path`) and calls `accept(path)`, which returns None (the prompt pops, with the path) or the
    one-line reason it could not (kept in `prompt.error`, the prompt stays)."""
    if event.type != pygame.KEYDOWN:
        return None, None
    prompt.text, done = edit_line(prompt.text, event)
    if done == "cancel":
        return Pop(), None
    if done == "enter":
        if not prompt.text.strip():
            prompt.error = "type the path of the file to write"
            return None, None
        path = to_path(prompt.text)
        prompt.error = accept(path)
        if prompt.error is None:
            return Pop(), path
    return None, None


def as_record_path(text: str) -> Path:
    """The path typed, with `~` expanded and `.json` added when it has no suffix."""
    path = Path(text.strip()).expanduser()
    return path if path.suffix else path.with_suffix(".json")


class SaveAsScreen:
    """The dialog: `save(path)` writes the record and returns None, or the one-line reason it could not."""

    def __init__(self, fonts: Fonts, backdrop: pygame.Surface, default: str,
                 save: Callable[[Path], str | None]) -> None:
        self.fonts = fonts
        self.backdrop = backdrop.copy()
        self.text = default
        self.save = save
        self.error: str | None = None
        self.saved: Path | None = None

    def handle(self, event: pygame.event.Event) -> Transition | None:
        """Typing, Enter, Esc."""
        step, path = typed_path(self, event, as_record_path, self.save)
        if path is not None:
            self.saved = path
        return step

    def update(self, dt: float) -> Transition | None:
        """The battle waits while the dialog is open."""
        return None

    def draw(self, surf: pygame.Surface) -> None:
        """The board as it was, dimmed, and the dialog in the middle."""
        f = self.fonts
        surf.blit(self.backdrop, (0, 0))
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surf.blit(shade, (0, 0))
        w = min(surf.get_width() - 40, 640)
        box = pygame.Rect(0, 0, w, 150)
        box.center = surf.get_rect().center
        pygame.draw.rect(surf, PANEL_BG, box, border_radius=6)
        pygame.draw.rect(surf, PANEL_EDGE, box, 1, border_radius=6)
        surf.blit(f.text(f.normal, TITLE, ACCENT), (box.x + 14, box.y + 12))
        field = pygame.Rect(box.x + 14, box.y + 46, w - 28, f.normal.get_linesize() + 10)
        pygame.draw.rect(surf, (18, 20, 26), field, border_radius=4)
        pygame.draw.rect(surf, ACCENT, field, 1, border_radius=4)
        surf.blit(f.text(f.normal, elide_left(f.normal, self.text + "|", field.w - 12), TEXT), (field.x + 6, field.y + 5))
        y = field.bottom + 8
        if self.error:
            for line in wrap(f.small, self.error, w - 28)[:2]:
                surf.blit(f.text(f.small, line, BAD), (box.x + 14, y))
                y += f.small.get_linesize()
        surf.blit(f.text(f.small, KEYS, DIM), (box.x + 14, box.bottom - f.small.get_linesize() - 10))
