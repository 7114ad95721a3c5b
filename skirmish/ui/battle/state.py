"""What the battle screen holds (the session, the board, the selection, the menus open, the caches) and what
every part of it reads: the window's layout, whose eyes the board looks through, and the hot-seat hand-over."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pygame

from skirmish.ecs.view import BattleView
from skirmish.rulesets.fi import ThrowOdds
from skirmish.ui.anim import Animator
from skirmish.ui.art import side_colour_map
from skirmish.ui.board import Board
from skirmish.ui.commands import commands_for
from skirmish.ui.fog import FogLayer, LogFog, next_eyes, shown
from skirmish.ui.frame import BOTTOM_H, TOP_H, BoardFrame, panel_width
from skirmish.ui.hotseat import SeenView
from skirmish.ui.panels import LogPanel
from skirmish.ui.screens import MenuFactory, Transition
from skirmish.ui.session import Session
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import DIM, ButtonRow, Fonts, Toast

if TYPE_CHECKING:
    from skirmish.ui.battle.menus import AttackMenu

END_PAUSE_S = 1.2  # the finished battle stays on the board this long before the results


class BattleState(BoardFrame):
    """The battle screen's state and the geometry and views its input, menus and drawing share."""

    def __init__(self, fonts: Fonts, settings: Settings, session: Session, on_end: Callable[[Session], Transition],
                 menu: MenuFactory, size: tuple[int, int]) -> None:
        self.fonts = fonts
        self.settings = settings
        self.session = session
        self.on_end = on_end
        self.menu = menu
        self.size = size
        self.board = Board(session.scenario.grid, fonts, *self.board_size(size),
                           colours=side_colour_map(session.scenario.spec.sides))
        self.board.fit_action(session.view())
        self.board.show_grid = settings.grid
        self.anim = Animator()
        self.log_panel = LogPanel()
        self.paused = False
        self.delay = 0.5
        self.end_wait = END_PAUSE_S
        self.selected: str | None = None
        self.target: str | None = None
        self.attack: AttackMenu | None = None
        self.throwing: str | None = None  # thrown weapon id while in throw mode
        self._throw_key: tuple[int, int, tuple[int, int], str] | None = None
        self._throw: ThrowOdds | str = ""
        self.toasts: list[Toast] = []
        self.hover: tuple[int, int] | None = None
        self.mouse = (0, 0)
        self.drag: tuple[str, tuple[int, int]] | None = None
        self.pan_from: tuple[int, int] | None = None
        self.pan_moved = 0
        self.show_help = False
        self.step_request = False
        self.acting: str | None = None
        self.done: set[str] = set()
        humans = self._humans()
        self.viewer: str | None = humans[0] if len(humans) == 1 else None  # the human side at the board
        self.handover: str | None = None  # hot-seat: the board is covered until it is passed to this side
        self.reveal: set[str] = {self.viewer} if self.viewer else set()  # sides whose declarations are shown
        self._flipped = False  # initiative flipped this round: every declaration is shown
        self._seen = SeenView()
        self.watch_eyes: str | None = None  # watching AI sides: whose eyes the board looks through (V); None all-seeing
        self.fog = FogLayer(session.scenario.grid)
        self.log_fog = LogFog(len(session.battle.log.events))  # which log lines each side may read
        self._roster = {s.name: [u.name for u in s.units] for s in session.scenario.spec.sides}
        self._cells = {u.name: u.cell for u in session.view().units}
        self._reach_key: tuple[int, int, str] | None = None
        self._reach: tuple[np.ndarray, np.ndarray] | None = None
        self._route_key: tuple[int, int, tuple[int, int]] | None = None
        self._route: tuple[list[tuple[int, int]], bool, str] = ([], True, "")
        self.buttons = ButtonRow()
        self._last_prompt: tuple[str, str] | None = None
        self.frames = 0
        self._phase_shown: tuple[int, int] | None = None
        self.reasons: dict[str, str] = {}  # unit -> its AI's last reason label (issue 4)
        self._tips: list[tuple[pygame.Rect, str]] = []  # tooltips on the unit card drawn last frame
        self.commands = commands_for(session.scenario.spec.ruleset, self)  # the ruleset's command panel

    # ------------------------------------------------------------------ whose eyes
    @property
    def eyes(self) -> str | None:
        """The side whose fog of war the board draws: a person's side (in hot-seat, the side at the board), else
        the side chosen with V while watching (None: all-seeing)."""
        humans = self._humans()
        return (self.viewer or humans[0]) if humans else self.watch_eyes

    def view_now(self) -> BattleView:
        """The battle as the board shows it now: through `eyes`, or all-seeing with hidden declarations."""
        return self._seen(self.session, self.eyes, self.reveal)

    def _cycle_eyes(self) -> None:
        """V: all-seeing -> each side's eyes in turn -> all-seeing (watching only: a person sees its own side)."""
        if self._humans():
            self.toast(f"fog of war: you see what {self.eyes} sees", DIM)
            return
        self.watch_eyes = next_eyes(self.watch_eyes, [s.name for s in self.session.scenario.spec.sides])
        self.toast("all-seeing" if self.watch_eyes is None else f"through {self.watch_eyes}'s eyes (fog of war)", DIM)

    def _humans(self) -> list[str]:
        return [s for s, c in self.session.controls.items() if c == "human"]

    # ------------------------------------------------------------------ geometry
    def board_size(self, size: tuple[int, int]) -> tuple[int, int]:
        """The board's pixels in a window this big: what the side panel, the header and the bottom bar leave."""
        return max(100, size[0] - panel_width(size[0])), max(100, size[1] - TOP_H - BOTTOM_H)

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: the panel takes its share again and the board frames the action anew."""
        self.size = size
        self.board.cam.resize(*self.board_size(size))
        view = self.view_now()
        self.board.fit_action(view)
        focus = self.acting or self.selected
        if shown(view, focus):  # too big a group to show whole: the miniature that matters now stays in view
            self.board.cam.bring_into_view(self.anim.positions().get(focus, view.unit(focus).cell))  # type: ignore[arg-type]

    # ------------------------------------------------------------------ hot-seat hand-over
    def _check_handover(self) -> None:
        """Hot-seat: when another human side must decide, cover the board until it has been passed on."""
        req = self.session.human_request()
        if req is None or req.side in (self.viewer, self.handover):
            return
        if self.viewer is None:  # the battle's first human decision: whoever sits at the board
            self._take_over(req.side)
            return
        self.handover = req.side
        self.attack, self.throwing, self.drag, self.pan_from = None, None, None, None
        self.selected = self.target = None

    def _take_over(self, side: str) -> None:
        """`side` now sits at the board: it sees its own declarations (the others' once initiative is flipped)."""
        self.viewer, self.handover = side, None
        if not self._flipped:
            self.reveal = {side}
