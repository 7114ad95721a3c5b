"""The board and mounts (R-6.1; docs/RULES-NOTES.md "Mounts"): the mounts a side's view holds, drawn with pygame
(no art): a riderless mount as a body on its cell in its kind's colour (a bike with two wheels, a horse or beast
with four legs), a ridden one as a saddle band under its rider; and J, mount mode at a person's turn: the cells the
rules list (the riderless mounts next to the unit, or the open cells a rider may step off to) are outlined, a click
on one mounts or dismounts. What the engine lists is what is offered (`Battle.legal_actions(...).mounts`)."""

from __future__ import annotations

from typing import Any

import pygame

from skirmish.ecs.view import BattleView
from skirmish.rules.actions import Action
from skirmish.rulesets.fi import Dismount, Mount
from skirmish.ui.widgets import BAD, DIM

MOUNT_C = {"horse": (150, 98, 58), "beast": (118, 132, 70), "bike": (96, 110, 136)}
LEGAL_C = (120, 220, 140)
HELP = ("J mount mode: the riderless mounts next to your figure, or the cells a rider may step off to, are outlined "
        "green; click one to mount or dismount (a NORMAL action; a rider walks at its mount's pace, shoots at -2)")


def _cell_rect(cam: Any, cell: tuple[float, float]) -> pygame.Rect:
    cx, cy = cam.centre(cell)
    t = cam.tile
    return pygame.Rect(cx - t // 2, cy - t // 2, t, t)


def draw_mounts(surf: pygame.Surface, cam: Any, view: BattleView, at: dict[str, tuple[float, float]]) -> None:
    """Every mount the view holds: riderless ones whole, ridden ones as a saddle band under the rider."""
    for m in view.mounts:
        colour = MOUNT_C.get(m.kind, (128, 128, 128))
        if m.rider is not None:
            r = _cell_rect(cam, at.get(m.rider, m.cell))
            band = pygame.Rect(r.x + r.w // 8, r.bottom - max(3, r.h // 6), r.w - r.w // 4, max(3, r.h // 6))
            pygame.draw.rect(surf, colour, band, border_radius=2)
            continue
        r = _cell_rect(cam, m.cell)
        body = pygame.Rect(r.x + r.w // 6, r.y + r.h // 3, r.w - r.w // 3, r.h // 3)
        if m.kind == "bike":
            wr = max(2, r.w // 7)
            for x in (body.x + wr, body.right - wr):
                pygame.draw.circle(surf, (30, 30, 34), (x, body.bottom), wr)
            pygame.draw.rect(surf, colour, body, border_radius=3)
        else:
            for i in range(4):
                x = body.x + 2 + i * (body.w - 4) // 3
                pygame.draw.line(surf, colour, (x, body.bottom), (x, r.bottom - r.h // 8), max(1, r.w // 14))
            pygame.draw.ellipse(surf, colour, body)
            head = pygame.Rect(body.right - r.w // 8, r.y + r.h // 6, r.w // 5, r.h // 4)
            pygame.draw.ellipse(surf, colour, head)
        pygame.draw.rect(surf, (20, 20, 24), body, 1, border_radius=3)


class MountMode:
    """J at a person's turn: the legal mount and dismount cells outlined, a click on one submits it."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.on = False
        self.owner = ""

    def _req(self) -> Any:
        req = self.screen.session.human_request()
        return req if req is not None and req.kind == "act" else None

    def choices(self) -> dict[tuple[int, int], Action]:
        """The cells a click mounts or dismounts on, from the battle's legal list (empty with no person's turn)."""
        req = self._req()
        if req is None:
            return {}
        battle = self.screen.session.battle
        where = {m.name: m.cell for m in battle.view().mounts}
        out: dict[tuple[int, int], Action] = {}
        for a in battle.legal_actions(req.unit).mounts:
            if isinstance(a, Mount) and a.mount in where:
                out[where[a.mount]] = a
            elif isinstance(a, Dismount) and a.to is not None:
                out[(int(a.to[0]), int(a.to[1]))] = a
        return out

    def toggle(self) -> None:
        """J: mount mode on or off."""
        req = self._req()
        if self.on or req is None:
            self.on = False
            return
        if not self.choices():
            self.screen.toast(f"{req.unit} has no mount to get on or off here (R-6.1)", DIM)
            return
        self.on, self.owner = True, req.unit
        self.screen.toast("mount mode: click an outlined cell · Esc leaves", DIM)

    def key(self, k: int) -> bool:
        if self.on and k == pygame.K_ESCAPE:
            self.on = False
            return True
        return False

    def click(self, pos: tuple[int, int]) -> bool:
        """A left click in mount mode: on an outlined cell it mounts or dismounts; True if the mode took it."""
        req = self._req()
        if not self.on or req is None or req.unit != self.owner:
            self.on = False
            return False
        scr = self.screen
        if not scr.board_rect().collidepoint(pos):
            return False
        cell = scr.board.cam.cell_at(scr._board_pos(pos))
        action = self.choices().get(cell) if cell is not None else None
        if action is None:
            scr.toast("not a cell to mount or dismount on: the outlined ones are", BAD)
            return True
        if scr._submit(action):
            self.on = False
        return True

    def draw(self, surf: pygame.Surface) -> None:
        """The outlined cells while the mode is on."""
        req = self._req()
        if not self.on or req is None or req.unit != self.owner:
            self.on = False
            return
        cam = self.screen.board.cam
        for cell in self.choices():
            pygame.draw.rect(surf, LEGAL_C, _cell_rect(cam, cell).inflate(-2, -2), 2, border_radius=3)
