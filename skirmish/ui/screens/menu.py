"""The start menu: pick a scenario (shipped, recent, or a file opened by path), its options, who controls each
side and the seed, with the map and the forces previewed; Enter starts. Its state is in menu_state.py, its
drawing in menu_draw.py; here are its keys, clicks, wheel and dropped files."""

from __future__ import annotations

import pygame

from skirmish.ui.screens.base import Quit, Transition, as_transition
from skirmish.ui.screens.menu_draw import MenuDrawing
from skirmish.ui.screens.menu_state import OPTION_KEYS
from skirmish.ui.widgets import edit_line


class MenuScreen(MenuDrawing):
    """Pick a scenario (shipped, recent, or a file opened by path), its options, who controls each side and
    the seed, with the map and the forces previewed; Enter starts."""

    def handle(self, event: pygame.event.Event) -> Transition | None:
        """Keys (shown at the bottom of the screen), clicks, the wheel over the list, files dropped on the window."""
        if event.type == pygame.KEYDOWN:
            if self.field.editing:
                return self._field_key(event)
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            if self.field.rect.collidepoint(event.pos):
                self._edit()
                return None
            self.field.editing = False
            for row in self.rows:
                if row.rect.collidepoint(event.pos):
                    self._select(row.index)
                    return None
            return as_transition(self.buttons.press(event.pos)[1])
        elif event.type == pygame.MOUSEWHEEL:
            self.list_top = max(0, min(len(self.entries) - self.list_room, self.list_top - event.y))
        elif event.type == pygame.DROPFILE:
            self.open_file(str(event.file))
        return None

    def _key(self, event: pygame.event.Event) -> Transition | None:
        k = event.key
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return self._go()
        if k == pygame.K_ESCAPE:
            if self.focus is not None:
                self.focus = None
                return None
            return Quit()
        if k in (pygame.K_UP, pygame.K_LEFT):
            self._pick(-1)
        elif k in (pygame.K_DOWN, pygame.K_RIGHT):
            self._pick(1)
        elif k == pygame.K_TAB:
            items = self._focusable()
            if items:
                step = -1 if event.mod & pygame.KMOD_SHIFT else 1
                start = -1 if step == 1 else 0
                self.focus = ((self.focus if self.focus is not None else start) + step) % len(items)
        elif k == pygame.K_SPACE:
            items = self._focusable()
            if self.focus is not None and self.focus < len(items):
                items[self.focus].on()
        elif k == pygame.K_BACKSPACE:
            self.seed_text = self.seed_text[:-1]
        elif k == pygame.K_r:
            self._new_seed()
        elif k in (pygame.K_e, pygame.K_n):
            return self._open_editor(new=k == pygame.K_n)
        elif k == pygame.K_o:
            self._edit()
        elif k == pygame.K_h:
            self._cycle_players()
        elif any(k == key for key, _ in OPTION_KEYS.values()):
            self._cycle_option(next(name for name, (key, _) in OPTION_KEYS.items() if key == k))
        elif event.unicode and event.unicode.isdigit() and len(self.seed_text) < 9:
            self.seed_text += event.unicode
        return None

    def _field_key(self, event: pygame.event.Event) -> Transition | None:
        """Typing a path: Enter opens it, Esc leaves the field, Ctrl+V pastes, Ctrl+U clears."""
        f = self.field
        f.text, done = edit_line(f.text, event)
        if done == "enter":
            self.open_file(f.text)
        elif done is not None or event.key == pygame.K_TAB:
            f.editing = False
        return None

    def update(self, dt: float) -> Transition | None:
        """Nothing moves here."""
        return None

