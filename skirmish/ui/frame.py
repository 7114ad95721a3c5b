"""The frame around the board that the battle screen (skirmish/ui/battle/) and the replay viewer (replay.py)
share: the window's layout (a header over the board, a bottom bar of buttons and a prompt, the side panel with
the initiative tracker, the unit card and the log), the pace of actions, toasts, the speed, and the keys and the
wheel that mean the same on both."""

from __future__ import annotations

import pygame

from skirmish.ecs.view import BattleView
from skirmish.ui.board import Board
from skirmish.ui.panels import CARD_H, TITLE_H, TRACKER_LINE, LogPanel
from skirmish.ui.settings import SPEEDS, Settings
from skirmish.ui.widgets import ACCENT, DIM, PANEL_BG, PANEL_EDGE, TEXT, Button, ButtonRow, Fonts, Toast, draw_tip, elide

PANEL_SHARE = 0.28  # the side panel's share of the window's width ...
PANEL_MIN, PANEL_MAX = 280, 400  # ... within these pixels (panel_width)
TOP_H = 28  # the header; with the bottom bar, slim enough that both squads of the 40x30 depot show at
BOTTOM_H = 40  # 28 px a cell in the default 1280x800 window
ACTION_PAUSE_S = 0.35  # pause after each AI action at 1x, so a watcher can follow
PAN_STEP = 48  # pixels an arrow key pans the board
TOASTS = 4  # messages shown at once


def panel_width(window_w: int) -> int:
    """The side panel's width for a window this wide: its share, within PANEL_MIN..PANEL_MAX pixels."""
    return max(PANEL_MIN, min(PANEL_MAX, round(window_w * PANEL_SHARE)))


class BoardFrame:
    """What a screen showing a battle on the board has around it: the parts it draws and the input they share.
    A screen supplies `board_size`, `header_text`, `prompt`, `bottom_buttons` and `_toggle_pause`."""

    fonts: Fonts
    settings: Settings
    size: tuple[int, int]
    board: Board
    log_panel: LogPanel
    buttons: ButtonRow
    toasts: list[Toast]
    paused: bool
    selected: str | None
    mouse: tuple[int, int]
    show_help: bool
    _tips: list[tuple[pygame.Rect, str]]  # tooltips on the unit card drawn last frame

    def board_size(self, size: tuple[int, int]) -> tuple[int, int]:
        """The board's pixels in a window this big."""
        raise NotImplementedError

    def header_text(self, view: BattleView, width: int) -> str:
        """The header line fitted to `width` pixels."""
        raise NotImplementedError

    def prompt(self) -> str:
        """The bottom bar's line after the buttons."""
        raise NotImplementedError

    def bottom_buttons(self) -> list[Button]:
        """The bottom bar's buttons."""
        raise NotImplementedError

    def _toggle_pause(self) -> None:
        raise NotImplementedError

    def _extra_tip(self, pos: tuple[int, int]) -> str | None:
        """A tooltip of the screen's own parts (asked after the card and the log, before the buttons)."""
        return None

    # ------------------------------------------------------------------ geometry
    def board_rect(self) -> pygame.Rect:
        """Where the board is drawn in the window."""
        return pygame.Rect(0, TOP_H, *self.board_size(self.size))

    def panel_rect(self) -> pygame.Rect:
        """Where the side panel (tracker, unit card, log) is drawn in the window."""
        pw = panel_width(self.size[0])
        return pygame.Rect(self.size[0] - pw, 0, pw, self.size[1])

    def panel_rects(self, n_units: int) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """The tracker, the unit card and the log, top to bottom in the side panel."""
        p = self.panel_rect()
        tracker_h = min(TITLE_H + TRACKER_LINE * n_units + 6, p.h // 3)
        card_h = min(CARD_H, max(120, p.h - tracker_h - 160))
        return (pygame.Rect(p.x, 0, p.w, tracker_h), pygame.Rect(p.x, tracker_h, p.w, card_h),
                pygame.Rect(p.x, tracker_h + card_h, p.w, p.h - tracker_h - card_h))

    def _board_pos(self, pos: tuple[int, int]) -> tuple[int, int]:
        return pos[0], pos[1] - TOP_H

    # ------------------------------------------------------------------ toasts and speed
    def toast(self, text: str, colour: tuple[int, int, int] = TEXT) -> None:
        """Show a message for a few seconds."""
        self.toasts = [*self.toasts, Toast(text, colour)][-TOASTS:]

    def _age_toasts(self, dt: float) -> None:
        for t in self.toasts:
            t.left -= dt
        self.toasts = [t for t in self.toasts if t.left > 0]

    def _speed(self, step: int) -> None:
        i = min(range(len(SPEEDS)), key=lambda j: abs(SPEEDS[j] - self.settings.speed))
        self.settings.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + step))]
        self.toast(f"speed {self.settings.speed:g}x", DIM)

    # ------------------------------------------------------------------ input
    def _frame_key(self, k: int) -> bool:
        """The keys both screens give the same meaning: H help, Space play/pause, [ ] - + speed, G grid,
        I the AI's reasons. True when `k` was one of them."""
        if k in (pygame.K_h, pygame.K_F1):
            self.show_help = not self.show_help
        elif k == pygame.K_SPACE:
            self._toggle_pause()
            self.toast("paused" if self.paused else "playing", DIM)
        elif k in (pygame.K_LEFTBRACKET, pygame.K_MINUS, pygame.K_KP_MINUS):
            self._speed(-1)
        elif k in (pygame.K_RIGHTBRACKET, pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS):
            self._speed(1)
        elif k == pygame.K_g:
            self.board.show_grid = self.settings.grid = not self.board.show_grid
        elif k == pygame.K_i:
            self.settings.reasons = not self.settings.reasons
            self.toast("AI reasons " + ("shown" if self.settings.reasons else "hidden"))
        else:
            return False
        return True

    def _select_next(self, view: BattleView) -> None:
        """Tab: select the next miniature still standing and bring it into view."""
        names = [u.name for u in view.units if not u.out_of_action]
        if names:
            i = names.index(self.selected) if self.selected in names else -1
            self.selected = names[(i + 1) % len(names)]
            self.board.cam.look_at(view.unit(self.selected).cell)

    def _wheel(self, event: pygame.event.Event) -> None:
        """The wheel scrolls the log under the pointer, or zooms the board about the pointer."""
        if self.log_panel.rect.collidepoint(self.mouse):
            self.log_panel.wheel(event.y)
        elif self.board_rect().collidepoint(self.mouse):
            self.board.cam.zoom(1 if event.y > 0 else -1, self._board_pos(self.mouse))

    # ------------------------------------------------------------------ drawing
    def _draw_top(self, surf: pygame.Surface, view: BattleView) -> None:
        f, right = self.fonts, self.board_rect().right
        pygame.draw.rect(surf, PANEL_BG, (0, 0, right, TOP_H))
        pygame.draw.line(surf, PANEL_EDGE, (0, TOP_H - 1), (right, TOP_H - 1))
        hint = f.text(f.small, "H help", DIM)
        surf.blit(hint, (right - hint.get_width() - 10, (TOP_H - hint.get_height()) // 2))
        img = f.text(f.normal, self.header_text(view, right - hint.get_width() - 36), TEXT)
        surf.blit(img, (10, (TOP_H - img.get_height()) // 2))

    def _draw_bottom(self, surf: pygame.Surface) -> None:
        f = self.fonts
        y, w = surf.get_height() - BOTTOM_H, self.board_rect().right
        pygame.draw.rect(surf, PANEL_BG, (0, y, w, BOTTOM_H))
        pygame.draw.line(surf, PANEL_EDGE, (0, y), (w, y))
        self.buttons.buttons = self.bottom_buttons()
        prompt = self.prompt()
        prompt_w = min(f.width(f.normal, prompt) + 18, w // 3)  # room kept for the prompt: buttons shrink first
        x = self.buttons.layout(8, y + 6, BOTTOM_H - 12, f, right=w - 8 - prompt_w)
        self.buttons.draw(surf, f)
        if w - x - 18 >= 60:
            img = f.text(f.normal, elide(f.normal, prompt, w - x - 18), ACCENT)
            surf.blit(img, (x + 10, y + (BOTTOM_H - img.get_height()) // 2))

    def _draw_tooltip(self, surf: pygame.Surface) -> None:
        """The rules' words under the pointer: unit card parts, log lines, the screen's own parts, buttons."""
        pos = self.mouse
        tip = next((t for r, t in self._tips if r.collidepoint(pos)), None)
        if tip is None and self.log_panel.rect.collidepoint(pos):
            tip = self.log_panel.tip_at(pos)
        if tip is None:
            tip = self._extra_tip(pos)
        if tip is None:
            tip = self.buttons.tip_at(pos)
        if tip:
            draw_tip(surf, self.fonts, tip, pos)
