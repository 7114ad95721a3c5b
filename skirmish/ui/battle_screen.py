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
from skirmish.ecs.systems.fi import IllegalAction
from skirmish.ecs.view import BattleView, UnitView
from skirmish.log import reason_label
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, Aim, Declare, EndTurn, Move, Reload, Shoot, Throw, Wait
from skirmish.rules.events import Event
from skirmish.rules.fi.odds import ShotOdds
from skirmish.rules.fi.thrown import ThrowOdds, blast_reach_m
from skirmish.ui.anim import BANNER_S, Animator, Banner, anims_for, banner_for
from skirmish.ui.board import Board, Overlays
from skirmish.ui.panels import ROMAN, LogPanel, draw_tracker, draw_unit_card
from skirmish.ui.screens import MenuFactory, Reset, Transition
from skirmish.ui.session import Session
from skirmish.ui.settings import SPEEDS, Settings
from skirmish.ui.widgets import ACCENT, BAD, DIM, PANEL_BG, PANEL_EDGE, TEXT, Button, ButtonRow, Fonts, Toast, wrap

PANEL_W = 380
TOP_H = 30
BOTTOM_H = 44
ACTION_PAUSE_S = 0.35  # pause after each AI action at 1x, so a watcher can follow
END_PAUSE_S = 1.2
AI_WAIT_S = 0.008  # per frame, the board waits this long for a thinking AI (the worker runs meanwhile)
PAN_STEP = 48
CALLED = (None, "head", "chest", "vitals", "belly", "right_arm", "left_leg")

HELP = [
    "Watching: Space play/pause · . step one action · [ ] or - + speed 0.5x-8x",
    "Board: wheel zoom · right-drag, left-drag on empty ground or arrows pan · Home fit · G grid",
    "AI: I its reasons over the acting miniature · M heat map of the selected miniature's move scores",
    "Click a miniature for its card · click a log line to open it · F12 screenshot · Esc menu",
    "Declaring: 1 fast · 2 normal · 3 slow · 4 dodge",
    "Your turn: drag the miniature (green = walk, yellow = run) · click an enemy for attacks with odds",
    "   A aim at the last enemy clicked · R reload · W wait for an enemy · E end turn · U / Ctrl+Z undo a move",
    "   T throw mode (again: next grenade type, then off): hover shows the burst and its odds, click throws",
    "Attack menu: 1-9 choose · C cycle called shot · Esc close",
]


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
        self.board = Board(session.scenario.grid, fonts, *self._board_size(size))
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
        self.reveal: set[str] = set(self._humans())
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

    # ------------------------------------------------------------------ helpers
    def _humans(self) -> list[str]:
        return [s for s, c in self.session.controls.items() if c == "human"]

    def _board_size(self, size: tuple[int, int]) -> tuple[int, int]:
        return max(100, size[0] - PANEL_W), max(100, size[1] - TOP_H - BOTTOM_H)

    def board_rect(self) -> pygame.Rect:
        """Where the board is drawn in the window."""
        w, h = self._board_size(self.size)
        return pygame.Rect(0, TOP_H, w, h)

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size."""
        self.size = size
        self.board.cam.resize(*self._board_size(size))

    def toast(self, text: str, colour: tuple[int, int, int] = TEXT) -> None:
        """Show a message for a few seconds."""
        self.toasts.append(Toast(text, colour))
        self.toasts = self.toasts[-4:]

    def _board_pos(self, pos: tuple[int, int]) -> tuple[int, int]:
        return pos[0], pos[1] - TOP_H

    # ------------------------------------------------------------------ events from the battle
    def _on_event(self, e: Event) -> None:
        if e.type == "decision" and e.actor:
            self.reasons[e.actor] = reason_label(e.data)
        banner = banner_for(e)
        if banner is not None:
            self.anim.overlay.append(banner)
        if e.type == "round":
            self.done.clear()
            self.reveal = set(self._humans())
            self.acting = None
        elif e.type == "initiative":
            self.reveal = set(self.session.controls)  # declarations are shown once initiative is flipped
        elif e.type == "turn":
            if self.acting:
                self.done.add(self.acting)
            self.acting = e.actor
            if e.phase and (e.round, e.phase) != self._phase_shown:
                self._phase_shown = (e.round, e.phase)
                self.anim.overlay.append(Banner(BANNER_S * 0.8, text=f"Round {e.round} - phase {ROMAN[e.phase]}"))
        for group in anims_for(e, self._cells, self.session.scenario.grid.cell_m):
            self.anim.add(*group)
        if e.type == "move" and e.actor:
            end = e.data["path"][-1]
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
                m.options.append(AttackOption(a, self.session.battle.preview_shot(a), None))
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
                self._throw = self.session.battle.preview_throw(Throw(req.unit, cell, self.throwing))
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
            if self.session.battle.move_refusal() is None:
                walk_m, run_m = self.session.battle.allowance(unit.name)
                grid = view.grid
                blocked = np.zeros((grid.height, grid.width), dtype=bool)
                for x, y in view.occupied(unit.name):
                    blocked[y, x] = True
                field_ = geo.reach_field(grid, unit.cell, run_m / grid.cell_m, blocked)
                self._reach = (field_ <= walk_m / grid.cell_m + 1e-9, np.isfinite(field_))
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
            names = [u.name for u in self.session.view().units if not u.out_of_action]
            if names:
                i = names.index(self.selected) if self.selected in names else -1
                self.selected = names[(i + 1) % len(names)]
                self.board.cam.look_at(self.session.view().unit(self.selected).cell)
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

    # ------------------------------------------------------------------ drawing
    def draw(self, surf: pygame.Surface) -> None:
        """Board, bars, panels, menus, toasts."""
        self.size = surf.get_size()
        if (self.board.cam.view_w, self.board.cam.view_h) != self._board_size(self.size):
            self.board.cam.resize(*self._board_size(self.size))
        surf.fill((16, 18, 22))
        view = self.session.view()
        br = self.board_rect()
        board_surf = surf.subsurface(br)
        ov = self._overlays(view)
        self.board.draw(board_surf, view, ov, self.anim.positions())
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
            img = self.fonts.text(self.fonts.normal, t.text, t.colour)
            r = img.get_rect(bottomleft=(12, y))
            pygame.draw.rect(surf, (10, 10, 14), r.inflate(10, 6))
            surf.blit(img, r)
            y -= 28
        if self.show_help:
            self._draw_help(surf)

    def _draw_reasons(self, surf: pygame.Surface, view: BattleView) -> None:
        """The AI's reason over the acting miniature (and over the selected one, dimmer)."""
        f = self.fonts
        cam = self.board.cam
        shown = [(self.acting, ACCENT)] + ([(self.selected, DIM)] if self.selected != self.acting else [])
        for name, colour in shown:
            label = self.reasons.get(name) if name else None
            if not label or name is None:
                continue
            at = self.anim.positions().get(name, view.unit(name).cell)
            x, y = cam.centre(at)
            img = f.text(f.small, label, colour)
            r = img.get_rect(midbottom=(x, y - int(cam.tile * 0.55) - 4))
            r.clamp_ip(surf.get_rect())
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
        frm = view.unit(self.selected) if self.selected else None
        if frm is not None and self.hover is not None and not frm.out_of_action and self.drag is None:
            ov.sight_from, ov.sight_to = frm.cell, self.hover
            there = [u for u in view.units if u.cell == self.hover and u.side != frm.side]
            ov.sight = view.sight(frm, there[0]) if there else geo.sight(view.grid, frm.cell, self.hover)
            if self.hover == frm.cell:
                ov.sight_from = None
        return ov

    def _draw_top(self, surf: pygame.Surface, view: BattleView) -> None:
        f = self.fonts
        pygame.draw.rect(surf, PANEL_BG, (0, 0, surf.get_width(), TOP_H))
        phase = f" · phase {ROMAN[view.phase]}" if view.phase else (" · declaring" if view.round else "")
        acting = f" · {self.acting} acting" if self.acting and view.phase else ""
        state = "paused" if self.paused else "playing"
        text = (f"{self.session.scenario.spec.name} · seed {self.session.seed} · round {view.round}{phase}{acting}"
                f" · {self.settings.speed:g}x {state}")
        surf.blit(f.text(f.normal, text, TEXT), (10, 7))
        hint = f.text(f.small, "H help", DIM)
        surf.blit(hint, (surf.get_width() - hint.get_width() - 10, 9))

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
        w = surf.get_width() - PANEL_W
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
        x = self.buttons.layout(8, y + 7, BOTTOM_H - 14, f)
        self.buttons.draw(surf, f)
        prompt = f.text(f.normal, self._prompt(), ACCENT)
        if x + prompt.get_width() + 10 < w:
            surf.blit(prompt, (x + 10, y + 13))

    def _toggle_pause(self) -> None:
        self.paused = not self.paused

    def _step(self) -> None:
        self.step_request = True
        self.paused = True

    def _draw_panels(self, surf: pygame.Surface, view: BattleView) -> None:
        x = surf.get_width() - PANEL_W
        h = surf.get_height()
        tracker_h = min(26 + 17 * len(view.units) + 6, h // 3)
        card_h = 190
        draw_tracker(surf, self.fonts, pygame.Rect(x, 0, PANEL_W, tracker_h), view, self.reveal, self.acting,
                     self.done)
        sel = view.unit(self.selected) if self.selected else None
        draw_unit_card(surf, self.fonts, pygame.Rect(x, tracker_h, PANEL_W, card_h), sel)
        self.log_panel.draw(surf, self.fonts, pygame.Rect(x, tracker_h + card_h, PANEL_W, h - tracker_h - card_h),
                            self.session.battle.log)

    def _draw_attack(self, surf: pygame.Surface, view: BattleView) -> None:
        m = self.attack
        assert m is not None
        f = self.fonts
        me, tgt = view.unit(m.unit), view.unit(m.target)
        dist = geo.distance_m(me.cell, tgt.cell, view.grid.cell_m)
        lines: list[tuple[str, tuple[int, int, int]]] = [
            (f"{m.unit} → {m.target}, {dist:.0f} m · called: {m.called or 'none'} (C)", ACCENT)]
        for i, o in enumerate(m.options):
            a = o.action
            name = f"{a.mode}" + (f" burst {a.burst}" if a.burst else "") + (f" at {a.called}" if a.called else "")
            if o.odds is not None:
                lines.append((f"{i + 1}  {name}: {o.odds.label()}", TEXT))
            else:
                lines.append((f"{i + 1}  {name}: {o.refusal}", DIM))
        width = min(620, max(f.small.size(t)[0] for t, _ in lines) + 24)
        height = 12 + 20 * len(lines)
        br = self.board_rect()
        cx, cy = self.board.cam.centre(tgt.cell)
        x = max(br.x + 4, min(br.right - width - 4, cx + 24))
        y = max(br.y + 4, min(br.bottom - height - 4, cy + TOP_H - height // 2))
        m.rect = pygame.Rect(x, y, width, height)
        pygame.draw.rect(surf, (22, 24, 30), m.rect, border_radius=6)
        pygame.draw.rect(surf, ACCENT, m.rect, 1, border_radius=6)
        m.rows = []
        yy = y + 6
        for i, (text, colour) in enumerate(lines):
            row = pygame.Rect(x + 4, yy, width - 8, 20)
            if i > 0:
                m.rows.append(row)
                if row.collidepoint(self.mouse):
                    pygame.draw.rect(surf, (50, 56, 70), row, border_radius=3)
            surf.blit(f.text(f.small, text, colour), (x + 10, yy + 3))
            yy += 20

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

    def _draw_help(self, surf: pygame.Surface) -> None:
        f = self.fonts
        w = min(surf.get_width() - 40, 900)
        lines: list[str] = []
        for h in HELP:
            lines += wrap(f.normal, h, w - 30)
        rect = pygame.Rect(0, 0, w, 24 * len(lines) + 50)
        rect.center = (surf.get_width() // 2, surf.get_height() // 2)
        pygame.draw.rect(surf, (14, 16, 20), rect, border_radius=8)
        pygame.draw.rect(surf, ACCENT, rect, 1, border_radius=8)
        surf.blit(f.text(f.big, "Keys", ACCENT), (rect.x + 15, rect.y + 10))
        for i, line in enumerate(lines):
            surf.blit(f.text(f.normal, line, TEXT), (rect.x + 15, rect.y + 44 + 24 * i))


def outcome_of(session: Session) -> Outcome:
    """The finished battle's outcome."""
    assert session.battle.outcome is not None
    return session.battle.outcome
