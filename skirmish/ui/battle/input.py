"""The battle screen's input: keys (HELP lists them), clicks, drags on the board and the wheel, and the
hot-seat hand-over. Input only chooses (skirmish/ui/battle/menus.py turns choices into Actions); the board
never writes components (ARCHITECTURE §2)."""

from __future__ import annotations

import pygame

from skirmish.rules.actions import EndTurn, Move, Reload, Throw
from skirmish.ui.battle.menus import BattleMenus
from skirmish.ui.frame import PAN_STEP
from skirmish.ui.screens import Reset, Transition
from skirmish.ui.widgets import BAD
from skirmish.ui.zones import DEPLOY

HELP = [
    "Watching: Space play/pause · . step one action · [ ] or - + speed 0.5x-8x · V all-seeing, or each side's eyes",
    "Board: wheel zoom · right-drag, left-drag on empty ground or arrows pan · Home fit the map · G grid",
    "AI: I its reasons over the acting miniature · M heat map of the selected miniature's move scores",
    "Click a miniature for its card · click a log line to open it · F12 screenshot · Esc menu",
    "Ctrl+S save the battle (settings folder, saves/) · Ctrl+Shift+S save it as… · Ctrl+O continue the latest save "
    "· Ctrl+R watch it as a replay",
    "Deployment (a scenario's zone): drag each miniature to a lit cell of your zone · Enter to start the battle",
    "Declaring: 1 fast · 2 normal · 3 slow · 4 dodge",
    "Your turn: drag the miniature (green = walk, yellow = run) · click an enemy for attacks with odds",
    "   A aim at the last enemy clicked · R reload · W wait for an enemy · E end turn · U / Ctrl+Z undo a move",
    "   T throw mode (again: next grenade type, then off): hover shows the burst and its odds, click throws",
    "Attack menu: 1-9 choose (or click a line) · C cycle called shot · P contests / attacks · Esc close",
]


class BattleInput(BattleMenus):
    """Keys and mouse on the battle screen."""

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
            self._wheel(event)
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
                self._cycle_called()
                return None
            if k == pygame.K_p:
                self._toggle_page()
                return None
            if pygame.K_1 <= k <= pygame.K_9:
                self._choose(k - pygame.K_1)
                return None
        if self.commands.key(event):  # the ruleset's command panel (fw: the declaration's keys)
            return None
        if k == pygame.K_ESCAPE:
            if self.show_help:
                self.show_help = False
                return None
            return Reset(self.menu())
        if self._frame_key(k):  # H, Space, speed, G, I: as in the replay viewer
            return None
        if k == pygame.K_PERIOD:
            self._step()
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
            self._open_wait()
        elif k == pygame.K_t:
            self._toggle_throw()
        elif k == pygame.K_e:
            self._act(lambda u: EndTurn(u))
        elif k == pygame.K_u or (k == pygame.K_z and event.mod & pygame.KMOD_CTRL):
            self._undo()
        elif k == pygame.K_TAB:
            self._select_next(self.view_now())
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._deployed()
        return None

    def _deployed(self) -> None:
        """Enter: the person's side is placed; the battle starts (every unit still to place keeps its cell)."""
        req = self.session.human_request()
        while req is not None and req.kind == DEPLOY and self._submit(EndTurn(req.unit)):
            req = self.session.human_request()

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
        view = self.view_now()  # what the board shows (a person's side's eyes): an unseen enemy is not clicked
        u = self.board.unit_at(view, self._board_pos(pos))
        req = self.session.human_request()
        if self.commands.mouse_down(pos, u):  # the ruleset's command panel took the click
            return None
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
            if req is not None and req.kind == DEPLOY and u.name == req.unit:  # placing it in its zone (issue 15)
                self.drag = (u.name, self._board_pos(pos))
            elif req is not None and req.kind == self.commands.turn_kind:
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
        if req is not None and req.kind == DEPLOY and req.unit == unit:  # a deployment: any free cell of the zone
            self._submit(Move(unit, cell))
            return
        if req is None or req.kind != self.commands.turn_kind or req.unit != unit:
            return
        charge = self._charge_at(cell)  # dropped on an enemy: charge it
        if charge is not None:
            self._submit(charge)
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

    def _handover_input(self, event: pygame.event.Event) -> Transition | None:
        """While the board waits to be passed on: Space, Enter or a click hands it over; Esc is the menu."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Reset(self.menu())
        ready = ((event.type == pygame.KEYDOWN and event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER))
                 or (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1))
        if ready and self.handover is not None and not self.anim.busy:  # the last action has been seen
            self._take_over(self.handover)
        return None

