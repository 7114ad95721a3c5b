"""The replay viewer (`skirmish replay FILE --board`, Ctrl+R): a battle record on the board with a timeline.
Jump to any round or action, step back and forward one action, play at the board's speeds, pause; the log,
the initiative tracker, the unit card and the AI's reasons show the moment on screen, as watching does.

It draws with the board's parts (Board, Animator, the panels) and reads the battle only through a
ReplaySession; events reach it only through `anims_for` and `banner_for`, the log panel through `headline`.
Its drawing is in replay_draw.py.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pygame

from skirmish.core.events import Event
from skirmish.ui.anim import BANNER_S, Animator, Banner, MoveAnim, anims_for
from skirmish.ui.art import side_colour_map
from skirmish.ui.board import Board
from skirmish.ui.commands import commands_for
from skirmish.ui.frame import ACTION_PAUSE_S, PAN_STEP
from skirmish.ui.panels import ROMAN, LogPanel
from skirmish.ui.replay_draw import ReplayDrawing
from skirmish.ui.replay_session import ReplaySession
from skirmish.ui.screens import MenuFactory, Reset, Transition
from skirmish.ui.settings import Settings
from skirmish.ui.timeline import Timeline, moment_text
from skirmish.ui.widgets import ACCENT, DIM, Button, ButtonRow, Fonts, Toast

ROUND_DIGITS = 4  # a typed round number


class ReplayScreen(ReplayDrawing):
    """A battle record on the board, with a timeline."""

    def __init__(self, fonts: Fonts, settings: Settings, replay: ReplaySession, menu: MenuFactory,
                 size: tuple[int, int]) -> None:
        self.fonts = fonts
        self.settings = settings
        self.replay = replay
        self.menu = menu
        self.size = size
        self.label = replay.rec.label
        replay.listener = self._on_event
        colours = side_colour_map(replay.scenario.spec.sides)
        self.board = Board(replay.scenario.grid, fonts, *self.board_size(size), colours=colours)
        self.board.fit_action(replay.view())
        self.board.show_grid = settings.grid
        self.anim = Animator()
        self.log_panel = LogPanel()
        self.timeline = Timeline()
        self.buttons = ButtonRow()
        self.paused = False
        self.delay = 0.5
        self.selected: str | None = None
        self.hover: tuple[int, int] | None = None
        self.mouse = (0, 0)
        self.pan_from: tuple[int, int] | None = None
        self.show_help = False
        self.typed = ""  # a round number being typed
        self.scrub: int | None = None  # a moment picked on the timeline, shown at the next update
        self.toasts: list[Toast] = []
        self._cells = self._view_cells()
        self._phase_shown: tuple[int, int | None] = (replay.view().round, replay.view().phase)
        self._tips: list[tuple[pygame.Rect, str]] = []
        self.commands = commands_for(replay.scenario.spec.ruleset, self)  # its tracker, card, events (fw)

    # ------------------------------------------------------------------ the moment shown
    def _view_cells(self) -> dict[str, tuple[int, int]]:
        return {u.name: u.cell for u in self.replay.view().units}

    def _on_event(self, e: Event) -> None:
        """An event of a step forward: its animation, with miniatures drawn where they stood before it."""
        banner = self.commands.banner(e)
        if banner is not None:
            self.anim.overlay.append(banner)
        cells = dict(self._cells)
        groups = anims_for(e, self._cells, self.replay.scenario.grid.cell_m) + self.commands.on_event(e, cells)
        for group in groups:
            self.anim.add(*group)
            for a in group:
                if isinstance(a, MoveAnim) and a.path:
                    self._cells[a.unit] = a.path[-1]

    def _after_step(self, banner: bool = True) -> None:
        """Follow the battle after a move along the timeline: the miniatures' cells, the acting one in view, and
        (stepping forward) a banner for a new phase."""
        view = self.replay.view()
        self._cells = self._view_cells()
        acting = self.replay.acting()
        if acting is not None and self.pan_from is None:
            self.board.cam.bring_into_view(view.unit(acting).cell)
        key = (view.round, view.phase)
        if banner and view.phase and key != self._phase_shown:
            self.anim.overlay.append(Banner(BANNER_S * 0.8, text=f"Round {view.round} - phase {ROMAN[view.phase]}"))
        self._phase_shown = key

    def forward(self) -> None:
        """One action forward, animated."""
        self.anim.finish()
        if self.replay.forward():
            self._after_step()
            self.delay = ACTION_PAUSE_S

    def seek(self, pos: int) -> None:
        """Show position `pos` at once (no animation)."""
        if self.replay.seek(pos):
            self._shown_anew()

    def _jump(self, move: Callable[[], bool]) -> None:
        """Pause and make a move along the timeline (back, a round, the start or the end), shown at once."""
        self.paused = True
        if move():
            self._shown_anew()

    def _step(self) -> None:
        """Pause and show one action forward, animated."""
        self.paused = True
        self.forward()

    def _shown_anew(self) -> None:
        self.anim.clear()
        self.log_panel.reset()
        self._after_step(banner=False)
        self.delay = ACTION_PAUSE_S

    def _toggle_pause(self) -> None:
        if self.paused and self.replay.at_end:
            self.seek(0)
        self.paused = not self.paused

    def _go_to_round(self) -> None:
        text, self.typed = self.typed, ""
        if not text:
            return
        r = int(text)
        first, last = self.replay.first_round, self.replay.rounds
        if not first <= r <= last:
            self.toast(f"no round {r}: the record has rounds {first}-{last}", DIM)
            return
        self.paused = True
        self.seek(self.replay.round_start(r))

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> Transition | None:
        """Keys and mouse (H shows them all)."""
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self.timeline.dragging:
                self.scrub = self.replay.snap(self.timeline.position_at(event.pos[0], self.replay.total))
            elif self.pan_from is not None:
                self.board.cam.pan(-event.rel[0], -event.rel[1])
            br = self.board_rect()
            self.hover = self.board.cam.cell_at(self._board_pos(event.pos)) if br.collidepoint(event.pos) else None
        elif event.type == pygame.MOUSEWHEEL:
            self._wheel(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            self._mouse_down(event)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.mouse = event.pos
            self.pan_from = None
            self.timeline.dragging = False
        return None

    def _key(self, event: pygame.event.Event) -> Transition | None:
        k = event.key
        r = self.replay
        if event.unicode and event.unicode.isdigit():
            self.typed = (self.typed + event.unicode)[-ROUND_DIGITS:]
            return None
        if self.typed and k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._go_to_round()
        elif self.typed and k == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
        elif k == pygame.K_ESCAPE:
            if self.typed or self.show_help:
                self.typed, self.show_help = "", False
                return None
            return Reset(self.menu())
        elif self._frame_key(k):  # H, Space, speed, G, I: as on the battle screen
            return None
        elif k in (pygame.K_PERIOD, pygame.K_RIGHT):
            self._step()
        elif k in (pygame.K_COMMA, pygame.K_LEFT):
            self._jump(r.back)
        elif k == pygame.K_PAGEUP:
            self._jump(r.previous_round)
        elif k == pygame.K_PAGEDOWN:
            self._jump(r.next_round)
        elif k in (pygame.K_HOME, pygame.K_END):
            self._jump(partial(r.seek, 0 if k == pygame.K_HOME else r.total))
        elif k in (pygame.K_UP, pygame.K_DOWN):
            self.board.cam.pan(0, PAN_STEP if k == pygame.K_DOWN else -PAN_STEP)
        elif k == pygame.K_f:
            self.board.cam.fit()
        elif k == pygame.K_TAB:
            self._select_next(r.view())
        return None

    def _mouse_down(self, event: pygame.event.Event) -> None:
        pos = event.pos
        if event.button in (2, 3):
            self.pan_from = pos
            return
        if event.button != 1:
            return
        if self.timeline.hit(pos):
            self.timeline.dragging = True
            self.paused = True
            self.scrub = self.replay.snap(self.timeline.position_at(pos[0], self.replay.total))
        elif self.buttons.click(pos):
            return
        elif self.log_panel.rect.collidepoint(pos):
            self.log_panel.click(pos)
        elif self.board_rect().collidepoint(pos):
            u = self.board.unit_at(self.replay.view(), self._board_pos(pos))
            if u is not None:
                self.selected = u.name
            else:
                self.pan_from = pos

    # ------------------------------------------------------------------ time
    def update(self, dt: float) -> Transition | None:
        """Animations; a moment picked on the timeline; the next action when playing."""
        self._age_toasts(dt)
        speed = self.settings.speed
        self.anim.update(dt * speed)
        if self.scrub is not None:
            pos, self.scrub = self.scrub, None
            self.seek(pos)
        if self.paused or self.anim.busy:
            return None
        if self.replay.at_end:
            self.paused = True
            self.toast(moment_text(self.replay, self.replay.total), ACCENT)
            return None
        self.delay -= dt * speed
        if self.delay <= 0:
            self.forward()
        return None

    def close(self) -> None:
        """Free the battle shown."""
        self.replay.close()

    def bottom_buttons(self) -> list[Button]:
        """The bottom bar's buttons: the moves along the timeline and the speed (their keys work too)."""
        r = self.replay
        return [
            Button("Home start", partial(self._jump, lambda: r.seek(0)), tip="Home: the start of the battle"),
            Button(", back", partial(self._jump, r.back), tip=", or ←: one action back"),
            Button("Space " + ("play" if self.paused else "pause"), self._toggle_pause, tip="Space: play or pause"),
            Button(". forward", self._step, tip=". or →: one action forward"),
            Button("PgDn round", partial(self._jump, r.next_round), tip="PgDn: the next round · PgUp: this round's start"),
            Button("- slower", lambda: self._speed(-1)), Button("+ faster", lambda: self._speed(1))]
