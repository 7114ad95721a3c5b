"""The replay viewer's drawing (skirmish/ui/replay.py has its moves and input): the header, the board with its
animations and the AI's reasons, the timeline, the bottom bar, the side panels (tracker, unit card, log), the
tooltips and the help box, laid out as the battle screen lays out watching."""

from __future__ import annotations

import pygame

from skirmish.ecs.view import BattleView
from skirmish.rules import geometry as geo
from skirmish.ui.anim import Animator
from skirmish.ui.board import Overlays
from skirmish.ui.commands import Commands
from skirmish.ui.frame import BOTTOM_H, TOP_H, BoardFrame, panel_width
from skirmish.ui.hotseat import seen_by
from skirmish.ui.overlay_text import draw_help, draw_labels, draw_toasts
from skirmish.ui.panels import ROMAN, draw_tracker, draw_unit_card
from skirmish.ui.replay_session import ReplaySession
from skirmish.ui.timeline import TIMELINE_H, Timeline
from skirmish.ui.widgets import ACCENT, DIM, fit_parts

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


class ReplayDrawing(BoardFrame):
    """What the replay screen shows, drawn from its state (never changing the battle)."""

    replay: ReplaySession
    commands: Commands
    anim: Animator
    timeline: Timeline
    hover: tuple[int, int] | None
    typed: str

    # ------------------------------------------------------------------ geometry
    def board_size(self, size: tuple[int, int]) -> tuple[int, int]:
        """The board's pixels in a window this big: what the side panel, header, timeline and bar leave."""
        return max(100, size[0] - panel_width(size[0])), max(100, size[1] - TOP_H - TIMELINE_H - BOTTOM_H)

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: the board takes the room left and frames the action anew."""
        self.size = size
        self.board.cam.resize(*self.board_size(size))
        self.board.fit_action(self.replay.view())

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
        self.commands.draw_board(board_surf, view, self.anim.positions())  # fw: HP under the tokens
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

    def prompt(self) -> str:
        """The bottom bar's line: a round number being typed, the end, or the action shown of all."""
        r = self.replay
        if self.typed:
            return f"go to round {self.typed}_ (Enter)"
        if r.at_end:
            return r.rec.result or f"saved in round {r.rounds}"
        return f"action {r.position} of {r.total}"

    def _draw_panels(self, surf: pygame.Surface, view: BattleView) -> None:
        tracker, card, log = self.panel_rects(len(view.units))
        colours = self.board.colours
        if not self.commands.draw_tracker(surf, tracker, view):  # fw: the DEX order
            draw_tracker(surf, self.fonts, tracker, view, self.reveal(view), self.replay.acting(), self.replay.done(),
                         colours=colours)
        sel = view.unit(self.selected) if self.selected else None
        own = self.commands.draw_card(surf, card, sel)
        self._tips = own if own is not None else \
            draw_unit_card(surf, self.fonts, card, sel, colours.get(sel.side) if sel else None)
        self.log_panel.draw(surf, self.fonts, log, self.replay.battle.log)

    def _extra_tip(self, pos: tuple[int, int]) -> str | None:
        """The moment under the pointer on the timeline."""
        return self.timeline.tip(self.replay, pos[0]) if self.timeline.hit(pos) else None

    def _draw_help(self, surf: pygame.Surface) -> None:
        """The keys, what the marks on the board mean and the abbreviations, in a box over the screen."""
        draw_help(surf, self.fonts, self.commands.sections(list(REPLAY_HELP)))

