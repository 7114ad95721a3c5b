"""The battle on the board: watching AI sides play (pause, step, speed) and playing human sides (declare,
drag to move, attack menu with odds, aim, reload, wait, end turn, undo). Input becomes Actions submitted
through the same Battle API the AIs use; the board never writes components (ARCHITECTURE §2)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pygame

from skirmish.battle import Outcome
from skirmish.core.errors import IllegalAction
from skirmish.core.events import DecisionEvent, Event, RoundEvent, TurnEvent
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, Aim, Declare, EndTurn, Move, Reload, Shoot, Throw, Wait
from skirmish.rulesets.fi import InitiativeEvent, MoveEvent, ShotOdds, ThrowOdds, blast_reach_m
from skirmish.ui.anim import BANNER_S, Animator, Banner, anims_for, banner_for
from skirmish.ui.art import side_colour_map
from skirmish.ui.board import MARKS, Board, Overlays
from skirmish.ui.fog import FogLayer, LogFog, cut_to_eyes, drawn_at, next_eyes, shown
from skirmish.ui.hotseat import SeenView
from skirmish.ui.panels import CARD_H, GLOSSARY_SHORT, ROMAN, TITLE_H, TRACKER_LINE, LogPanel, draw_tracker, draw_unit_card
from skirmish.ui.preview import scenario_colours
from skirmish.ui.screens import MenuFactory, Reset, Transition
from skirmish.ui.session import Session
from skirmish.ui.settings import SPEEDS, Settings
from skirmish.ui.widgets import (
    ACCENT,
    BAD,
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
    place_beside,
    wrap,
)

PANEL_SHARE = 0.28  # the side panel's share of the window's width ...
PANEL_MIN, PANEL_MAX = 280, 400  # ... within these pixels (panel_width)
PANEL_W = PANEL_MAX  # the widest the side panel gets
TOP_H = 28  # the header; with the bottom bar, slim enough that both squads of the 40x30 depot show at
BOTTOM_H = 40  # 28 px a cell in the default 1280x800 window
ACTION_PAUSE_S = 0.35  # pause after each AI action at 1x, so a watcher can follow
END_PAUSE_S = 1.2
AI_WAIT_S = 0.008  # per frame, the board waits this long for a thinking AI (the worker runs meanwhile)
PAN_STEP = 48
CALLED = (None, "head", "chest", "vitals", "belly", "right_arm", "left_leg")

HELP = [
    "Watching: Space play/pause · . step one action · [ ] or - + speed 0.5x-8x · V all-seeing, or each side's eyes",
    "Board: wheel zoom · right-drag, left-drag on empty ground or arrows pan · Home fit the map · G grid",
    "AI: I its reasons over the acting miniature · M heat map of the selected miniature's move scores",
    "Click a miniature for its card · click a log line to open it · F12 screenshot · Esc menu",
    "Ctrl+S save the battle (settings folder, saves/) · Ctrl+Shift+S save it as… · Ctrl+O continue the latest save "
    "· Ctrl+R watch it as a replay",
    "Declaring: 1 fast · 2 normal · 3 slow · 4 dodge",
    "Your turn: drag the miniature (green = walk, yellow = run) · click an enemy for attacks with odds",
    "   A aim at the last enemy clicked · R reload · W wait for an enemy · E end turn · U / Ctrl+Z undo a move",
    "   T throw mode (again: next grenade type, then off): hover shows the burst and its odds, click throws",
    "Attack menu: 1-9 choose · C cycle called shot · Esc close",
]
LEGEND = [
    "A disc in its side's colour is a miniature; the white wedge on its rim points where it faces; "
    "R3 is Raider-3 (hover a card or log line for the rules' words)",
    "Red badge: wounds taken (4 incapacitate, 6 kill) · blue bar under it: CT left (shown once hurt)",
    "Letters beside it: " + " · ".join(f"{k} {v}" for k, v in MARKS),
    "Grey token lying on its side: out of action (tinted by its side) · with a red badge and a cross: dead",
    "Yellow ring: selected · white ring: acting · green / yellow cells: walk / run reach",
    "Fog of war (your side, or V while watching): darkened cells are out of your miniatures' sight; a faint "
    "ringed token marked ?3 is an enemy you do not see now, where you last knew it (in round 3)",
]


def panel_width(window_w: int) -> int:
    """The side panel's width for a window this wide: its share, within PANEL_MIN..PANEL_MAX pixels."""
    return max(PANEL_MIN, min(PANEL_MAX, round(window_w * PANEL_SHARE)))


@dataclass
class AttackOption:
    """One line of the attack menu."""

    action: Shoot
    odds: ShotOdds | None
    refusal: str | None


@dataclass
class AttackMenu:
    """The attacks the rules allow against one target, with their odds."""

    unit: str
    target: str
    called: str | None = None
    options: list[AttackOption] = field(default_factory=list)
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    rows: list[pygame.Rect] = field(default_factory=list)


class BattleScreen:
    """One battle on the board."""

    def __init__(self, fonts: Fonts, settings: Settings, session: Session, on_end: Callable[[Session], Transition],
                 menu: MenuFactory, size: tuple[int, int]) -> None:
        self.fonts = fonts
        self.settings = settings
        self.session = session
        self.on_end = on_end
        self.menu = menu
        self.size = size
        session.listen(self._on_event)
        self.board = Board(session.scenario.grid, fonts, *self._board_size(size),
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

    # ------------------------------------------------------------------ helpers
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

    def _board_size(self, size: tuple[int, int]) -> tuple[int, int]:
        return max(100, size[0] - panel_width(size[0])), max(100, size[1] - TOP_H - BOTTOM_H)

    def panel_rect(self) -> pygame.Rect:
        """Where the side panel (tracker, unit card, log) is drawn in the window."""
        pw = panel_width(self.size[0])
        return pygame.Rect(self.size[0] - pw, 0, pw, self.size[1])

    def board_rect(self) -> pygame.Rect:
        """Where the board is drawn in the window."""
        w, h = self._board_size(self.size)
        return pygame.Rect(0, TOP_H, w, h)

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: the panel takes its share again and the board frames the action anew."""
        self.size = size
        self.board.cam.resize(*self._board_size(size))
        view = self.view_now()
        self.board.fit_action(view)
        focus = self.acting or self.selected
        if shown(view, focus):  # too big a group to show whole: the miniature that matters now stays in view
            self.board.cam.bring_into_view(self.anim.positions().get(focus, view.unit(focus).cell))  # type: ignore[arg-type]

    def toast(self, text: str, colour: tuple[int, int, int] = TEXT) -> None:
        """Show a message for a few seconds."""
        self.toasts.append(Toast(text, colour))
        self.toasts = self.toasts[-4:]

    def _board_pos(self, pos: tuple[int, int]) -> tuple[int, int]:
        return pos[0], pos[1] - TOP_H

    # ------------------------------------------------------------------ events from the battle
    def _on_event(self, e: Event) -> None:
        if isinstance(e, DecisionEvent) and e.actor and e.request == "act":  # a declaration stays hidden
            self.reasons[e.actor] = e.label()
        banner = banner_for(e)
        if banner is not None:
            self.anim.overlay.append(banner)
        if isinstance(e, RoundEvent):
            self.done.clear()
            self._flipped = False
            self.reveal = {self.viewer} if self.viewer else set()
            self.acting = None
        elif isinstance(e, InitiativeEvent):
            self._flipped = True
            self.reveal = set(self.session.controls)  # declarations are shown once initiative is flipped
        elif isinstance(e, TurnEvent):
            if self.acting:
                self.done.add(self.acting)
            self.acting = e.actor
            if e.actor and self.drag is None and self.pan_from is None and \
                    (self.eyes is None or shown(self.session.battle.observe(self.eyes), e.actor)):
                # keep the acting miniature in view (one the fog hides is not followed)
                self.board.cam.bring_into_view(self._cells.get(e.actor, self.session.view().unit(e.actor).cell))
            if e.phase and (e.round, e.phase) != self._phase_shown:
                self._phase_shown = (e.round, e.phase)
                self.anim.overlay.append(Banner(BANNER_S * 0.8, text=f"Round {e.round} - phase {ROMAN[e.phase]}"))
        battle = self.session.battle
        truth = battle.view()
        self.log_fog.note(len(battle.log.events) - 1, e, truth, battle.knowledge.seen, self.fog)
        groups = anims_for(e, self._cells, self.session.scenario.grid.cell_m)
        if self.eyes is not None and groups:  # only what the side's eyes saw of it
            groups = cut_to_eyes(groups, e, self.eyes, truth, battle.knowledge.seen[self.eyes], self.fog)
        for group in groups:
            self.anim.add(*group)
        if isinstance(e, MoveEvent) and e.actor:
            end = e.path[-1]
            self._cells[e.actor] = (int(end[0]), int(end[1]))

    # ------------------------------------------------------------------ human input → actions
    def _submit(self, action: Action) -> bool:
        try:
            self.session.submit(action)
        except IllegalAction as exc:
            self.toast(f"refused: {exc}", BAD)
            return False
        self.attack = None
        self.throwing = None
        self._route_key = None
        self._reach_key = None
        return True

    def _declare(self, speed: str) -> None:
        req = self.session.human_request()
        if req is not None and req.kind == "declare":
            self._submit(Declare(req.unit, speed))

    def _act(self, make: Callable[[str], Action | None]) -> None:
        req = self.session.human_request()
        if req is None or req.kind != "act":
            return
        action = make(req.unit)
        if action is not None:
            self._submit(action)

    def _aim(self, unit: str) -> Action | None:
        if self.target is None:
            self.toast("click an enemy first, then A to aim at it", DIM)
            return None
        return Aim(unit, self.target)

    def _undo(self) -> None:
        if self.session.undo():
            self.anim.clear()
            self.log_panel.reset()
            self.log_fog.forget_from(len(self.session.battle.log.events))
            self._cells = {u.name: u.cell for u in self.session.view().units}
            self._reach_key = self._route_key = None
            self.toast("move taken back")
        else:
            self.toast("nothing to undo: only a move not yet followed by any draw can be taken back", DIM)

    def _open_attack(self, unit: str, target: str) -> None:
        self.target = target
        self.attack = AttackMenu(unit, target)
        self._fill_attack()

    def _fill_attack(self) -> None:
        m = self.attack
        if m is None:
            return
        u = self.session.view().unit(m.unit)
        candidates: list[Shoot] = []
        for mode in ("snap", "prepared", "aimed"):
            candidates.append(Shoot(m.unit, m.target, mode=mode, called=m.called))
        if u.weapon is not None and m.called is None:
            for b in u.weapon.bursts:
                for mode in ("snap", "prepared"):
                    candidates.append(Shoot(m.unit, m.target, mode=mode, burst=b))
        m.options = []
        for a in candidates:
            try:
                m.options.append(AttackOption(a, self.session.battle.odds(a), None))
            except IllegalAction as exc:
                m.options.append(AttackOption(a, None, str(exc)))

    def _toggle_throw(self) -> None:
        """T: enter throw mode with the first thrown weapon carried, then the next, then leave it."""
        req = self.session.human_request()
        if req is None or req.kind != "act":
            return
        items = [w.id for w, _ in self.session.view().unit(req.unit).throwables]
        if not items:
            self.toast(f"{req.unit} carries nothing to throw", DIM)
            self.throwing = None
            return
        if self.throwing in items and items.index(self.throwing) + 1 < len(items):
            self.throwing = items[items.index(self.throwing) + 1]
        elif self.throwing in items:
            self.throwing = None
        else:
            self.throwing = items[0]
        self.attack = None
        if self.throwing:
            self.toast(f"throw: {self.throwing.replace('_', ' ')} - click a cell (Esc cancels)", DIM)

    def _throw_preview(self, cell: tuple[int, int]) -> ThrowOdds | str:
        """Odds of throwing at `cell` (cached per cell), or the rule that forbids it."""
        req = self.session.human_request()
        if req is None or req.kind != "act" or self.throwing is None:
            return "no throw now"
        key = (self.session.generation, len(self.session.battle.history), cell, self.throwing)
        if self._throw_key != key:
            self._throw_key = key
            try:
                self._throw = self.session.battle.odds(Throw(req.unit, cell, self.throwing))
            except IllegalAction as exc:
                self._throw = str(exc)
        return self._throw

    def _choose(self, i: int) -> None:
        m = self.attack
        if m is None or not 0 <= i < len(m.options):
            return
        opt = m.options[i]
        if opt.refusal:
            self.toast(f"refused: {opt.refusal}", BAD)
            return
        self._submit(opt.action)

    # ------------------------------------------------------------------ overlays for play
    def _reach_for(self, view: BattleView, unit: UnitView) -> tuple[np.ndarray, np.ndarray] | None:
        key = (self.session.generation, len(self.session.battle.history), unit.name)
        if self._reach_key != key:
            self._reach_key = key
            self._reach = None
            legal = self.session.battle.legal_actions(unit.name)  # the rules' own answer (STYLE 13)
            if legal.walk or legal.run:
                grid = view.grid
                walk = np.zeros((grid.height, grid.width), dtype=bool)
                reach = np.zeros((grid.height, grid.width), dtype=bool)
                for x, y in legal.walk:
                    walk[y, x] = reach[y, x] = True
                for x, y in legal.run:
                    reach[y, x] = True
                self._reach = (walk, reach)
        return self._reach

    def _route_to(self, cell: tuple[int, int]) -> tuple[list[tuple[int, int]], bool, str]:
        key = (self.session.generation, len(self.session.battle.history), cell)
        if self._route_key != key:
            self._route_key = key
            try:
                path, metres, running = self.session.battle.preview_move(cell)
                self._route = (path, True, f"{'run' if running else 'walk'} {metres:.1f} m")
            except IllegalAction as exc:
                self._route = ([], False, str(exc))
        return self._route

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> Transition | None:
        """Keys and mouse."""
        self._check_handover()
        if self.handover is not None:
            return self._handover_input(event)
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            br = self.board_rect()
            if self.pan_from is not None:
                self.board.cam.pan(-event.rel[0], -event.rel[1])
                self.pan_moved += abs(event.rel[0]) + abs(event.rel[1])
            if br.collidepoint(event.pos):
                self.hover = self.board.cam.cell_at(self._board_pos(event.pos))
                if self.drag is not None:
                    self.drag = (self.drag[0], self._board_pos(event.pos))
            else:
                self.hover = None
        elif event.type == pygame.MOUSEWHEEL:
            if self.log_panel.rect.collidepoint(self.mouse):
                self.log_panel.wheel(event.y)
            elif self.board_rect().collidepoint(self.mouse):
                self.board.cam.zoom(1 if event.y > 0 else -1, self._board_pos(self.mouse))
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            return self._mouse_down(event)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.mouse = event.pos
            self._mouse_up(event)
        return None

    def _key(self, event: pygame.event.Event) -> Transition | None:
        k = event.key
        if self.throwing is not None and k == pygame.K_ESCAPE:
            self.throwing = None
            return None
        if self.attack is not None:
            if k == pygame.K_ESCAPE:
                self.attack = None
                return None
            if k == pygame.K_c:
                i = CALLED.index(self.attack.called) if self.attack.called in CALLED else 0
                self.attack.called = CALLED[(i + 1) % len(CALLED)]
                self._fill_attack()
                return None
            if pygame.K_1 <= k <= pygame.K_9:
                self._choose(k - pygame.K_1)
                return None
        if k == pygame.K_ESCAPE:
            if self.show_help:
                self.show_help = False
                return None
            return Reset(self.menu())
        if k in (pygame.K_h, pygame.K_F1):
            self.show_help = not self.show_help
        elif k == pygame.K_SPACE:
            self.paused = not self.paused
            self.toast("paused" if self.paused else "playing", DIM)
        elif k == pygame.K_PERIOD:
            self.step_request = True
            self.paused = True
        elif k in (pygame.K_LEFTBRACKET, pygame.K_MINUS, pygame.K_KP_MINUS):
            self._speed(-1)
        elif k in (pygame.K_RIGHTBRACKET, pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS):
            self._speed(1)
        elif k == pygame.K_g:
            self.board.show_grid = not self.board.show_grid
            self.settings.grid = self.board.show_grid
        elif k == pygame.K_i:
            self.settings.reasons = not self.settings.reasons
            self.toast("AI reasons " + ("shown" if self.settings.reasons else "hidden"))
        elif k == pygame.K_v:
            self._cycle_eyes()
        elif k == pygame.K_m:
            self.settings.heat = not self.settings.heat
            self.toast("move heat map " + ("on: select an AI miniature" if self.settings.heat else "off"))
        elif k == pygame.K_HOME:
            self.board.cam.fit()
        elif k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            dx = {pygame.K_LEFT: -PAN_STEP, pygame.K_RIGHT: PAN_STEP}.get(k, 0)
            dy = {pygame.K_UP: -PAN_STEP, pygame.K_DOWN: PAN_STEP}.get(k, 0)
            self.board.cam.pan(dx, dy)
        elif k in (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4):
            self._declare({pygame.K_1: "fast", pygame.K_2: "normal", pygame.K_3: "slow", pygame.K_4: "dodge"}[k])
        elif k == pygame.K_a:
            self._act(self._aim)
        elif k == pygame.K_r:
            self._act(lambda u: Reload(u))
        elif k == pygame.K_w:
            self._act(lambda u: Wait(u))
        elif k == pygame.K_t:
            self._toggle_throw()
        elif k == pygame.K_e:
            self._act(lambda u: EndTurn(u))
        elif k == pygame.K_u or (k == pygame.K_z and event.mod & pygame.KMOD_CTRL):
            self._undo()
        elif k == pygame.K_TAB:
            view = self.view_now()
            names = [u.name for u in view.units if not u.out_of_action]
            if names:
                i = names.index(self.selected) if self.selected in names else -1
                self.selected = names[(i + 1) % len(names)]
                self.board.cam.look_at(view.unit(self.selected).cell)
        return None

    def _speed(self, step: int) -> None:
        i = min(range(len(SPEEDS)), key=lambda j: abs(SPEEDS[j] - self.settings.speed))
        self.settings.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + step))]
        self.toast(f"speed {self.settings.speed:g}x", DIM)

    def _mouse_down(self, event: pygame.event.Event) -> Transition | None:
        pos = event.pos
        if event.button in (2, 3):
            self.pan_from, self.pan_moved = pos, 0
            return None
        if event.button != 1:
            return None
        if self.attack is not None:
            for i, r in enumerate(self.attack.rows):
                if r.collidepoint(pos):
                    self._choose(i)
                    return None
            if not self.attack.rect.collidepoint(pos):
                self.attack = None
            else:
                return None
        if self.buttons.click(pos):
            return None
        if self.log_panel.rect.collidepoint(pos):
            self.log_panel.click(pos)
            return None
        if not self.board_rect().collidepoint(pos):
            return None
        view = self.session.view()
        u = self.board.unit_at(view, self._board_pos(pos))
        req = self.session.human_request()
        if self.throwing is not None and req is not None and req.kind == "act":
            cell = self.board.cam.cell_at(self._board_pos(pos))
            if cell is not None:
                odds = self._throw_preview(cell)
                if isinstance(odds, str):
                    self.toast(f"refused: {odds}", BAD)
                else:
                    self._submit(Throw(req.unit, cell, self.throwing))
            return None
        if u is not None:
            self.selected = u.name
            if req is not None and req.kind == "act":
                me = view.unit(req.unit)
                if u.name == req.unit:
                    self.drag = (u.name, self._board_pos(pos))
                elif u.side != me.side and not u.out_of_action:
                    self._open_attack(req.unit, u.name)
            return None
        self.pan_from, self.pan_moved = pos, 0
        return None

    def _mouse_up(self, event: pygame.event.Event) -> None:
        if event.button in (1, 2, 3) and self.pan_from is not None:
            self.pan_from = None
        if event.button != 1 or self.drag is None:
            return
        unit, _ = self.drag
        self.drag = None
        cell = self.board.cam.cell_at(self._board_pos(event.pos)) if self.board_rect().collidepoint(event.pos) else None
        view = self.session.view()
        if cell is None or cell == view.unit(unit).cell:
            return
        req = self.session.human_request()
        if req is None or req.kind != "act" or req.unit != unit:
            return
        why = self.session.battle.move_refusal()
        if why is not None:
            self.toast(f"refused: {why}", BAD)
            return
        _, ok, reason = self._route_to(cell)
        if not ok:
            self.toast(f"refused: {reason}", BAD)
            return
        self._submit(Move(unit, cell))

    # ------------------------------------------------------------------ time
    def update(self, dt: float) -> Transition | None:
        """Advance animations; let AI sides act when it is their turn and nothing is playing."""
        self.frames += 1
        for t in self.toasts:
            t.left -= dt
        self.toasts = [t for t in self.toasts if t.left > 0]
        self._check_handover()
        speed = self.settings.speed
        self.anim.update(dt * speed)
        s = self.session
        if s.is_over():
            if not self.anim.busy:
                self.end_wait -= dt
                if self.end_wait <= 0:
                    return self.on_end(s)
            return None
        if self.step_request:
            self.step_request = False
            self.anim.finish()
            self._ai_declarations()
            if s.ai_turn():
                s.ai_step()
            return None
        if self.paused or self.anim.busy:
            return None
        self._ai_declarations()
        if s.ai_turn():
            s.ai_think()  # the AI decides on a worker thread while the board keeps drawing
            self.delay -= dt * speed
            if self.delay <= 0 and s.ai_poll(wait=AI_WAIT_S):
                self.delay = ACTION_PAUSE_S
        self._follow_prompt()
        return None

    def _ai_declarations(self) -> None:
        """AI declarations and initiative need no animation: run them at once."""
        s = self.session
        for _ in range(200):
            req = s.pending
            if req is None or req.kind != "declare" or not s.ai_turn():
                return
            s.ai_step()

    def _follow_prompt(self) -> None:
        """When a person must decide for a new unit, select it and bring it into view."""
        req = self.session.human_request()
        key = (req.kind, req.unit) if req else None
        if key != self._last_prompt:
            self._last_prompt = key
            if req is not None:
                self.selected = req.unit
                cam = self.board.cam
                x, y = cam.centre(self.session.view().unit(req.unit).cell)
                if not (0 <= x < cam.view_w and 0 <= y < cam.view_h):
                    cam.look_at(self.session.view().unit(req.unit).cell)

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

    def _handover_input(self, event: pygame.event.Event) -> Transition | None:
        """While the board waits to be passed on: Space, Enter or a click hands it over; Esc is the menu."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Reset(self.menu())
        ready = ((event.type == pygame.KEYDOWN and event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER))
                 or (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1))
        if ready and self.handover is not None and not self.anim.busy:  # the last action has been seen
            self._take_over(self.handover)
        return None

    def _draw_handover(self, surf: pygame.Surface) -> None:
        """The board hidden while it is passed to the next player."""
        f = self.fonts
        side = self.handover or ""
        req = self.session.human_request()
        surf.fill((14, 15, 20))
        w, h = surf.get_size()
        colour = scenario_colours(self.session.scenario).get(side, ACCENT)
        what = ("declares its speeds" if req is not None and req.kind == "declare"
                else f"{req.unit} acts" if req is not None else "is next")
        lines = [(f.big, f"Pass to {side}", TEXT), (f.normal, f"Round {self.session.view().round}: {side} {what}", DIM),
                 (f.normal, "press Space or click when ready", ACCENT), (f.small, "Esc: menu", DIM)]
        y = h // 2 - 70
        pygame.draw.rect(surf, colour, (w // 2 - 120, y - 18, 240, 6), border_radius=3)
        for font, text, c in lines:
            for part in wrap(font, text, w - 40):
                img = f.text(font, part, c)
                surf.blit(img, img.get_rect(midtop=(w // 2, y)))
                y += font.get_linesize() + 8

    # ------------------------------------------------------------------ drawing
    def draw(self, surf: pygame.Surface) -> None:
        """Board, bars, panels, menus, toasts."""
        if surf.get_size() != self.size or (self.board.cam.view_w, self.board.cam.view_h) != self._board_size(self.size):
            self.resize(surf.get_size())  # a resize the app did not pass on (WINDOWRESIZED, a new surface)
        surf.fill((16, 18, 22))
        view = self.view_now()  # a side's eyes (fog of war), or all-seeing with declarations hidden
        br = self.board_rect()
        board_surf = surf.subsurface(br)
        ov = self._overlays(view)
        ov.fog = self.fog.surface(view, self.board.cam.tile)
        self.board.draw(board_surf, view, ov, drawn_at(self.anim.positions(), view))
        self.anim.draw(board_surf, self.board.cam, self.fonts.normal, self.fonts.big)
        if self.settings.reasons:
            self._draw_reasons(board_surf, view)
        if self.attack is not None:
            self._draw_attack(surf, view)
        if self.throwing is not None and self.hover is not None and self.session.human_request() is not None:
            self._draw_throw_tip(surf)
        self._draw_top(surf, view)
        self._draw_bottom(surf)
        self._draw_panels(surf, view)
        y = br.bottom - 10
        for t in reversed(self.toasts):
            for line in reversed(wrap(self.fonts.normal, t.text, br.w - 36)):
                img = self.fonts.text(self.fonts.normal, line, t.colour)
                r = img.get_rect(bottomleft=(12, y))
                pygame.draw.rect(surf, (10, 10, 14), r.inflate(10, 4))
                surf.blit(img, r)
                y -= img.get_height() + 2
            y -= 6
        if not self.show_help and self.drag is None:
            self._draw_tooltip(surf)
        if self.show_help:
            self._draw_help(surf)
        if self.handover is not None and not self.anim.busy:
            self._draw_handover(surf)

    def _draw_reasons(self, surf: pygame.Surface, view: BattleView) -> None:
        """The AI's reason over the acting miniature (and over the selected one, dimmer)."""
        f = self.fonts
        cam = self.board.cam
        shown = [(self.acting, ACCENT)] + ([(self.selected, DIM)] if self.selected != self.acting else [])
        for name, colour in shown:
            label = self.reasons.get(name) if name else None
            u = view.find(name)
            if not label or u is None or u.ghost or (view.viewer is not None and u.side != view.viewer):
                continue  # through a side's eyes, only its own AI's reasons
            at = drawn_at(self.anim.positions(), view).get(u.name, u.cell)
            if not cam.shows(at, margin=-0.5):  # off the board: a label clamped to the edge would point nowhere
                continue
            x, y = cam.centre(at)
            img = f.text(f.small, label, colour)
            r = img.get_rect(midbottom=(x, y - int(cam.tile * 0.55) - 4))
            r.clamp_ip(surf.get_rect().inflate(-12, -8))  # the frame drawn around it stays on the board too
            pygame.draw.rect(surf, (12, 13, 18), r.inflate(10, 6), border_radius=4)
            pygame.draw.rect(surf, colour, r.inflate(10, 6), 1, border_radius=4)
            surf.blit(img, r)

    def _overlays(self, view: BattleView) -> Overlays:
        ov = Overlays(selected=self.selected, acting=self.acting, hover=self.hover)
        if self.settings.heat and self.selected is not None:
            ov.heat = self.session.heat(self.selected)
        req = self.session.human_request()
        if req is not None and req.kind == "act" and not self.anim.busy:
            me = view.unit(req.unit)
            reach = self._reach_for(view, me)
            if reach is not None:
                ov.walk, ov.run = reach
            if self.drag is not None and self.hover is not None and self.hover != me.cell:
                ov.route, ov.route_ok, _ = self._route_to(self.hover)
            if self.drag is not None:
                ov.drag = self.drag
            if self.throwing is not None and self.hover is not None:
                weapon = next((w for w, _ in me.throwables if w.id == self.throwing), None)
                if weapon is not None:
                    cm = view.grid.cell_m
                    ok = not isinstance(self._throw_preview(self.hover), str)
                    ov.blast = (self.hover, weapon.blast_m / cm, blast_reach_m(weapon) / cm, ok)
                    return ov
        frm = view.find(self.selected)
        if frm is not None and self.hover is not None and not frm.out_of_action and self.drag is None:
            ov.sight_from, ov.sight_to = frm.cell, self.hover
            there = [u for u in view.units if u.cell == self.hover and u.side != frm.side]
            ov.sight = view.sight(frm, there[0]) if there else geo.sight(view.grid, frm.cell, self.hover)
            if self.hover == frm.cell:
                ov.sight_from = None
        return ov

    def header_text(self, view: BattleView, width: int) -> str:
        """The header line fitted to `width` pixels: the seed goes first, then the scenario's name, then the
        rest is cut after a whole word with "…" (never mid-word)."""
        phase = f" · phase {ROMAN[view.phase]}" if view.phase else (" · declaring" if view.round else "")
        state = "paused" if self.paused else "playing"
        parts = [self.session.scenario.spec.name, f"seed {self.session.seed}", f"round {view.round}{phase}"]
        if self.acting and view.phase:
            parts.append(f"{self.acting} acting")
        parts.append(f"{self.settings.speed:g}x {state}")
        return fit_parts(self.fonts.normal, parts, width, drop=(1, 0))

    def _draw_top(self, surf: pygame.Surface, view: BattleView) -> None:
        f = self.fonts
        right = self.board_rect().right
        pygame.draw.rect(surf, PANEL_BG, (0, 0, right, TOP_H))
        pygame.draw.line(surf, PANEL_EDGE, (0, TOP_H - 1), (right, TOP_H - 1))
        hint = f.text(f.small, "H help", DIM)
        surf.blit(hint, (right - hint.get_width() - 10, (TOP_H - hint.get_height()) // 2))
        text = self.header_text(view, right - hint.get_width() - 36)
        img = f.text(f.normal, text, TEXT)
        surf.blit(img, (10, (TOP_H - img.get_height()) // 2))

    def _prompt(self) -> str:
        req = self.session.human_request()
        if req is None:
            if self.session.is_over():
                return "battle over"
            return "watching" + (" (paused: . steps one action)" if self.paused else "")
        if req.kind == "declare":
            return f"{req.unit}: declare"
        if self.session.battle.move_refusal() is None:
            return f"{req.unit}: drag to move, click an enemy"
        return f"{req.unit}: click an enemy, or act"

    def _draw_bottom(self, surf: pygame.Surface) -> None:
        f = self.fonts
        y = surf.get_height() - BOTTOM_H
        w = self.board_rect().right
        pygame.draw.rect(surf, PANEL_BG, (0, y, w, BOTTOM_H))
        pygame.draw.line(surf, PANEL_EDGE, (0, y), (w, y))
        req = self.session.human_request()
        bs: list[Button] = []
        if req is not None and req.kind == "declare":
            for i, sp in enumerate(("fast", "normal", "slow", "dodge")):
                bs.append(Button(f"{i + 1} {sp}", partial(self._declare, sp), key=pygame.K_1 + i))
        elif req is not None and req.kind == "act":
            throwables = self.session.view().unit(req.unit).throwables
            label = "T throw" if self.throwing is None else f"T {self.throwing.split('_')[0]} (Esc)"
            bs += [Button("A aim", lambda: self._act(self._aim), enabled=self.target is not None),
                   Button(label, self._toggle_throw, enabled=bool(throwables)),
                   Button("R reload", lambda: self._act(lambda u: Reload(u))),
                   Button("W wait", lambda: self._act(lambda u: Wait(u))),
                   Button("E end turn", lambda: self._act(lambda u: EndTurn(u))),
                   Button("U undo", self._undo, enabled=self.session.can_undo())]
        else:
            bs += [Button("Space " + ("play" if self.paused else "pause"), self._toggle_pause),
                   Button(". step", self._step)]
        bs += [Button("- slower", lambda: self._speed(-1)), Button("+ faster", lambda: self._speed(1))]
        self.buttons.buttons = bs
        prompt_w = min(f.width(f.normal, self._prompt()) + 18, w // 3)  # room kept for the prompt: buttons shrink first
        x = self.buttons.layout(8, y + 6, BOTTOM_H - 12, f, right=w - 8 - prompt_w)
        self.buttons.draw(surf, f)
        room = w - x - 18
        if room >= 60:
            prompt = f.text(f.normal, elide(f.normal, self._prompt(), room), ACCENT)
            surf.blit(prompt, (x + 10, y + (BOTTOM_H - prompt.get_height()) // 2))

    def _toggle_pause(self) -> None:
        self.paused = not self.paused

    def _step(self) -> None:
        self.step_request = True
        self.paused = True

    def panel_rects(self, n_units: int) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """The tracker, the unit card and the log, top to bottom in the side panel."""
        p = self.panel_rect()
        tracker_h = min(TITLE_H + TRACKER_LINE * n_units + 6, p.h // 3)
        card_h = min(CARD_H, max(120, p.h - tracker_h - 160))
        return (pygame.Rect(p.x, 0, p.w, tracker_h), pygame.Rect(p.x, tracker_h, p.w, card_h),
                pygame.Rect(p.x, tracker_h + card_h, p.w, p.h - tracker_h - card_h))

    def _draw_panels(self, surf: pygame.Surface, view: BattleView) -> None:
        tracker, card, log = self.panel_rects(len(view.units))
        colours = self.board.colours
        reveal = self.reveal | ({view.viewer} if view.viewer else set())  # a side knows its own speeds
        draw_tracker(surf, self.fonts, tracker, view, reveal, self.acting, self.done, colours=colours)
        sel = view.find(self.selected)
        self._tips = draw_unit_card(surf, self.fonts, card, sel, colours.get(sel.side) if sel else None)
        events = self.session.battle.log.events
        hidden = self.log_fog.hidden_for(view.viewer, events, {u: s for s, us in self._roster.items() for u in us})
        self.log_panel.draw(surf, self.fonts, log, self.session.battle.log, hidden)

    def _draw_tooltip(self, surf: pygame.Surface) -> None:
        """The rules' words under the pointer: unit card parts, log lines, buttons."""
        pos = self.mouse
        tip = next((t for r, t in self._tips if r.collidepoint(pos)), None)
        if tip is None and self.log_panel.rect.collidepoint(pos):
            tip = self.log_panel.tip_at(pos)
        if tip is None:
            tip = self.buttons.tip_at(pos)
        if tip:
            draw_tip(surf, self.fonts, tip, pos)

    def attack_lines(self, view: BattleView) -> tuple[list[tuple[str, tuple[int, int, int]]], bool]:
        """The attack menu's lines (a heading, then one per option) and whether the options are choosable;
        when every option is refused for the same reason (no line of sight, an empty weapon) that reason is
        the one line under the heading."""
        m = self.attack
        assert m is not None
        me, tgt = view.unit(m.unit), view.unit(m.target)
        dist = geo.distance_m(me.cell, tgt.cell, view.grid.cell_m)
        lines: list[tuple[str, tuple[int, int, int]]] = [
            (f"{m.unit} → {m.target}, {dist:.0f} m · called: {m.called or 'none'} (C)", ACCENT)]
        refusals = {o.refusal for o in m.options}
        if m.options and None not in refusals and len(refusals) == 1:
            lines.append((f"no attack: {m.options[0].refusal}", BAD))
            return lines, False
        for i, o in enumerate(m.options):
            a = o.action
            name = f"{a.mode}" + (f" burst {a.burst}" if a.burst else "") + (f" at {a.called}" if a.called else "")
            if o.odds is not None:
                lines.append((f"{i + 1}  {name}: {o.odds.label()}", TEXT))
            else:
                lines.append((f"{i + 1}  {name}: {o.refusal}", DIM))
        return lines, True

    def _draw_attack(self, surf: pygame.Surface, view: BattleView) -> None:
        """The menu beside the target (never over it), kept inside the board."""
        m = self.attack
        assert m is not None
        f = self.fonts
        lines, choosable = self.attack_lines(view)
        br = self.board_rect()
        most = min(620, br.w - 8)
        if not choosable:  # one refusal: wrap it rather than cut it
            lines = lines[:1] + [(part, BAD) for part in wrap(f.small, lines[1][0], most - 24)]
        lines = [(elide(f.small, text, most - 24), c) for text, c in lines]
        row_h = 20
        width = min(most, max(f.width(f.small, text) for text, _ in lines) + 24)
        height = 12 + row_h * len(lines)
        cx, cy = self.board.cam.centre(self.anim.positions().get(m.target, view.unit(m.target).cell))
        reach = self.board.token_radius() + max(4, self.board.cam.tile // 4)  # the token with its facing wedge
        target = pygame.Rect(cx - reach, cy + TOP_H - reach, 2 * reach, 2 * reach)
        m.rect = place_beside((width, height), target, br.inflate(-8, -8))
        pygame.draw.rect(surf, (22, 24, 30), m.rect, border_radius=6)
        pygame.draw.rect(surf, ACCENT, m.rect, 1, border_radius=6)
        m.rows = []
        yy = m.rect.y + 6
        for i, (text, colour) in enumerate(lines):
            row = pygame.Rect(m.rect.x + 4, yy, m.rect.w - 8, row_h)
            if i > 0 and choosable:
                m.rows.append(row)
                if row.collidepoint(self.mouse):
                    pygame.draw.rect(surf, (50, 56, 70), row, border_radius=3)
            surf.blit(f.text(f.small, text, colour), (m.rect.x + 10, yy + 1))
            yy += row_h

    def _draw_throw_tip(self, surf: pygame.Surface) -> None:
        """The odds of throwing at the hovered cell, beside the pointer."""
        assert self.hover is not None
        odds = self._throw_preview(self.hover)
        f = self.fonts
        text, colour = (odds, BAD) if isinstance(odds, str) else (odds.label(), TEXT)
        lines = wrap(f.small, f"{self.hover[0]},{self.hover[1]}: {text}", 420)
        imgs = [f.text(f.small, line, colour) for line in lines]
        w = max(i.get_width() for i in imgs) + 12
        h = 18 * len(imgs) + 8
        br = self.board_rect()
        x = max(br.x + 4, min(br.right - w - 4, self.mouse[0] + 18))
        y = max(br.y + 4, min(br.bottom - h - 4, self.mouse[1] + 18))
        pygame.draw.rect(surf, (22, 24, 30), (x, y, w, h), border_radius=5)
        pygame.draw.rect(surf, ACCENT, (x, y, w, h), 1, border_radius=5)
        for i, img in enumerate(imgs):
            surf.blit(img, (x + 6, y + 5 + 18 * i))

    def help_columns(self, width: int, cols: int) -> list[list[tuple[pygame.font.Font, str, tuple[int, int, int]]]]:
        """The H overlay's lines (keys, what the marks on the board mean, the abbreviations) wrapped to
        `cols` columns of a box `width` pixels wide: keys on the left, the rest on the right."""
        f = self.fonts
        col_w = (width - 30 - (cols - 1) * 24) // cols
        sections = [("Keys", HELP), ("On the board", LEGEND),
                    ("Abbreviations", [f"{k}  {v}" for k, v in GLOSSARY_SHORT])]
        out: list[list[tuple[pygame.font.Font, str, tuple[int, int, int]]]] = [[] for _ in range(cols)]
        for i, (title, lines) in enumerate(sections):
            col = out[min(cols - 1, 0 if i == 0 else 1)]
            col.append((f.normal, title, ACCENT))
            for line in lines:
                indent = "    " if line.startswith("   ") else ""
                for k, part in enumerate(wrap(f.small, line.strip(), col_w - (18 if indent else 0))):
                    col.append((f.small, (indent if indent or k else "") + ("  " if k and not indent else "") + part,
                                TEXT))
        return out

    def _draw_help(self, surf: pygame.Surface) -> None:
        f = self.fonts
        sw, sh = surf.get_size()
        w = min(sw - 24, 1120)

        def height(col: list[tuple[pygame.font.Font, str, tuple[int, int, int]]]) -> int:
            return sum(font.get_linesize() + (6 if font is f.normal else -1) for font, _, _ in col)

        for cols in (1, 2):
            columns = self.help_columns(w, cols)
            h = max(height(c) for c in columns) + 24
            if h <= sh - 24:
                break
        rect = pygame.Rect(0, 0, w, min(h, sh - 24))
        rect.center = (sw // 2, sh // 2)
        pygame.draw.rect(surf, (14, 16, 20), rect, border_radius=8)
        pygame.draw.rect(surf, ACCENT, rect, 1, border_radius=8)
        clip = surf.get_clip()
        surf.set_clip(rect.inflate(-4, -4))
        col_w = (w - 30 - (len(columns) - 1) * 24) // len(columns)
        for c, col in enumerate(columns):
            x, y = rect.x + 15 + c * (col_w + 24), rect.y + 10
            for font, text, colour in col:
                if font is f.normal and y > rect.y + 10:
                    y += 6
                surf.blit(f.text(font, text, colour), (x, y))
                y += font.get_linesize() - (0 if font is f.normal else 1)
        surf.set_clip(clip)


def outcome_of(session: Session) -> Outcome:
    """The finished battle's outcome."""
    assert session.battle.outcome is not None
    return session.battle.outcome
