"""The replay viewer's drawing (skirmish/ui/replay.py has its moves and input): the header, the board with its
animations and the AI's reasons, the timeline, the bottom bar, the side panels (tracker, unit card, log), the
tooltips and the help box, laid out as the battle screen lays out watching."""

from __future__ import annotations

import pygame

from skirmish.ecs.view import BattleView
from skirmish.rules import geometry as geo
from skirmish.ui.anim import Animator
from skirmish.ui.battle_screen import BOTTOM_H, LEGEND, TOP_H, panel_width
from skirmish.ui.board import Board, Overlays
from skirmish.ui.hotseat import seen_by
from skirmish.ui.overlay_text import draw_help, draw_labels, draw_toasts
from skirmish.ui.panels import CARD_H, GLOSSARY_SHORT, ROMAN, TITLE_H, TRACKER_LINE, LogPanel, draw_tracker, draw_unit_card
from skirmish.ui.replay_session import ReplaySession
from skirmish.ui.settings import Settings
from skirmish.ui.timeline import TIMELINE_H, Timeline
from skirmish.ui.widgets import (
    ACCENT,
    DIM,
    PANEL_BG,
    PANEL_EDGE,
    TEXT,
    Button,
    ButtonRow,
    Fonts,
    Toast,
    draw_tip,
    elide,
    fit_parts,
)

REPLAY_HELP = [
    "Replay: Space play/pause (at the end: again from the start) · . or → forward one action · , or ← back one",
    "   PgUp / PgDn the round's start (again: the round before) / the next round · Home / End the start / the end",
    "   type a round's number, then Enter: go to its start · click or drag the timeline: go to that moment",
    "   [ ] or - + speed 0.5x-8x (the board's speeds)",
    "Board: wheel zoom · right-drag, left-drag on empty ground or ↑ ↓ pan · F fit the map · G grid",
    "AI: I its reasons over the acting miniature (from the record's decision traces)",
    "Click a miniature for its card · click a log line to open it · F12 screenshot · Esc menu",
    "Ctrl+R (here or in the menu) replays the latest save, or the record path typed in the menu's Open field",
]


class ReplayDrawing:
    """What the replay screen shows, drawn from its state (never changing the battle)."""

    fonts: Fonts
    settings: Settings
    replay: ReplaySession
    size: tuple[int, int]
    board: Board
    anim: Animator
    log_panel: LogPanel
    timeline: Timeline
    buttons: ButtonRow
    toasts: list[Toast]
    paused: bool
    selected: str | None
    hover: tuple[int, int] | None
    mouse: tuple[int, int]
    show_help: bool
    typed: str
    _tips: list[tuple[pygame.Rect, str]]

    def bottom_buttons(self) -> list[Button]:
        """The bottom bar's buttons (the screen's moves)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ geometry
    def board_size(self, size: tuple[int, int]) -> tuple[int, int]:
        """The board's pixels in a window this big: what the side panel, header, timeline and bar leave."""
        return max(100, size[0] - panel_width(size[0])), max(100, size[1] - TOP_H - TIMELINE_H - BOTTOM_H)

    def board_rect(self) -> pygame.Rect:
        """Where the board is drawn in the window."""
        return pygame.Rect(0, TOP_H, *self.board_size(self.size))

    def panel_rect(self) -> pygame.Rect:
        """The side panel (tracker, unit card, log)."""
        pw = panel_width(self.size[0])
        return pygame.Rect(self.size[0] - pw, 0, pw, self.size[1])

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: the board takes the room left and frames the action anew."""
        self.size = size
        self.board.cam.resize(*self.board_size(size))
        self.board.fit_action(self.replay.view())

    def _board_pos(self, pos: tuple[int, int]) -> tuple[int, int]:
        return pos[0], pos[1] - TOP_H

    def reveal(self, view: BattleView) -> set[str]:
        """Sides whose declarations show: every side once initiative is flipped (R-5.1), as when watching."""
        return set(view.sides) if view.phase is not None else set()

    def shown_view(self) -> BattleView:
        """The battle as the board shows it now (declarations hidden until initiative)."""
        view = self.replay.view()
        return seen_by(view, self.reveal(view))

    # ------------------------------------------------------------------ drawing
    def draw(self, surf: pygame.Surface) -> None:
        """Header, board, timeline, buttons, panels, toasts, tooltips, help."""
        if surf.get_size() != self.size:
            self.resize(surf.get_size())
        surf.fill((16, 18, 22))
        view = self.shown_view()
        br = self.board_rect()
        board_surf = surf.subsurface(br)
        self.board.draw(board_surf, view, self._overlays(view), self.anim.positions())
        self.anim.draw(board_surf, self.board.cam, self.fonts.normal, self.fonts.big)
        if self.settings.reasons:
            self._draw_reasons(board_surf, view)
        self._draw_top(surf, view)
        self.timeline.draw(surf, self.fonts, pygame.Rect(0, br.bottom, br.w, TIMELINE_H), self.replay, self.mouse)
        self._draw_bottom(surf)
        self._draw_panels(surf, view)
        draw_toasts(surf, self.fonts, self.toasts, br)
        if self.show_help:
            self._draw_help(surf)
        else:
            self._draw_tooltip(surf)

    def _overlays(self, view: BattleView) -> Overlays:
        ov = Overlays(selected=self.selected, acting=self.replay.acting(), hover=self.hover)
        frm = view.unit(self.selected) if self.selected else None
        if frm is not None and self.hover is not None and not frm.out_of_action and self.hover != frm.cell:
            there = [u for u in view.units if u.cell == self.hover and u.side != frm.side]
            ov.sight_from, ov.sight_to = frm.cell, self.hover
            ov.sight = view.sight(frm, there[0]) if there else geo.sight(view.grid, frm.cell, self.hover)
        return ov

    def _draw_reasons(self, surf: pygame.Surface, view: BattleView) -> None:
        """The AI's reason over the acting miniature (and over the selected one, dimmer), as when watching."""
        reasons, moving, acting = self.replay.reasons(), self.anim.positions(), self.replay.acting()
        shown = [(acting, ACCENT)] + ([(self.selected, DIM)] if self.selected != acting else [])
        draw_labels(surf, self.fonts, self.board.cam, [
            (moving.get(name, view.unit(name).cell), reasons[name], colour)
            for name, colour in shown if name is not None and name in reasons])

    def header_text(self, view: BattleView, width: int) -> str:
        """The header fitted to `width` pixels: what is shown, where in the battle, and how it plays."""
        phase = f" · phase {ROMAN[view.phase]}" if view.phase else " · declaring"
        acting = self.replay.acting()
        parts = [f"Replay: {self.replay.scenario.spec.name}", f"seed {self.replay.rec.seed}",
                 f"round {view.round} of {self.replay.rounds}{phase}"]
        if acting:
            parts.append(f"{acting} acting")
        parts.append(f"{self.settings.speed:g}x {'paused' if self.paused else 'playing'}")
        return fit_parts(self.fonts.normal, parts, width, drop=(1, 0))

    def _draw_top(self, surf: pygame.Surface, view: BattleView) -> None:
        f, right = self.fonts, self.board_rect().right
        pygame.draw.rect(surf, PANEL_BG, (0, 0, right, TOP_H))
        pygame.draw.line(surf, PANEL_EDGE, (0, TOP_H - 1), (right, TOP_H - 1))
        hint = f.text(f.small, "H help", DIM)
        surf.blit(hint, (right - hint.get_width() - 10, (TOP_H - hint.get_height()) // 2))
        img = f.text(f.normal, self.header_text(view, right - hint.get_width() - 36), TEXT)
        surf.blit(img, (10, (TOP_H - img.get_height()) // 2))

    def prompt(self) -> str:
        """The bottom bar's line: a round number being typed, the end, or the action shown of all."""
        r = self.replay
        if self.typed:
            return f"go to round {self.typed}_ (Enter)"
        if r.at_end:
            return r.rec.result or f"saved in round {r.rounds}"
        return f"action {r.position} of {r.total}"

    def _draw_bottom(self, surf: pygame.Surface) -> None:
        f = self.fonts
        y, w = surf.get_height() - BOTTOM_H, self.board_rect().right
        pygame.draw.rect(surf, PANEL_BG, (0, y, w, BOTTOM_H))
        pygame.draw.line(surf, PANEL_EDGE, (0, y), (w, y))
        self.buttons.buttons = self.bottom_buttons()
        prompt = self.prompt()
        prompt_w = min(f.width(f.normal, prompt) + 18, w // 3)
        x = self.buttons.layout(8, y + 6, BOTTOM_H - 12, f, right=w - 8 - prompt_w)
        self.buttons.draw(surf, f)
        if w - x - 18 >= 60:
            img = f.text(f.normal, elide(f.normal, prompt, w - x - 18), ACCENT)
            surf.blit(img, (x + 10, y + (BOTTOM_H - img.get_height()) // 2))

    def _draw_panels(self, surf: pygame.Surface, view: BattleView) -> None:
        p = self.panel_rect()
        tracker_h = min(TITLE_H + TRACKER_LINE * len(view.units) + 6, p.h // 3)
        card_h = min(CARD_H, max(120, p.h - tracker_h - 160))
        colours = self.board.colours
        draw_tracker(surf, self.fonts, pygame.Rect(p.x, 0, p.w, tracker_h), view, self.reveal(view),
                     self.replay.acting(), self.replay.done(), colours=colours)
        sel = view.unit(self.selected) if self.selected else None
        self._tips = draw_unit_card(surf, self.fonts, pygame.Rect(p.x, tracker_h, p.w, card_h), sel,
                                    colours.get(sel.side) if sel else None)
        log = pygame.Rect(p.x, tracker_h + card_h, p.w, p.h - tracker_h - card_h)
        self.log_panel.draw(surf, self.fonts, log, self.replay.battle.log)

    def _draw_tooltip(self, surf: pygame.Surface) -> None:
        pos = self.mouse
        tip = next((t for r, t in self._tips if r.collidepoint(pos)), None)
        if tip is None and self.log_panel.rect.collidepoint(pos):
            tip = self.log_panel.tip_at(pos)
        if tip is None and self.timeline.hit(pos):
            tip = self.timeline.tip(self.replay, pos[0])
        if tip is None:
            tip = self.buttons.tip_at(pos)
        if tip:
            draw_tip(surf, self.fonts, tip, pos)

    def _draw_help(self, surf: pygame.Surface) -> None:
        """The keys, what the marks on the board mean and the abbreviations, in a box over the screen."""
        draw_help(surf, self.fonts, (("Keys", REPLAY_HELP), ("On the board", LEGEND),
                                     ("Abbreviations", [f"{k}  {v}" for k, v in GLOSSARY_SHORT])))

