"""Driving the pygame front end in tests (SDL_VIDEODRIVER=dummy, conftest): keys, clicks and hovers posted as
events, frames ticked, a board cell's point on the window, a colour near another, and the person's turn reached.
The board, editor and menu tests import these rather than each writing its own; their fixtures (`isolated_config`,
`app`) are in conftest."""

from __future__ import annotations

from typing import Any

import pygame

from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.frame import TOP_H


def press(key: int, unicode: str = "", mod: int = 0) -> None:
    """A key pressed: `unicode` is the text it types, `mod` the modifiers held (pygame.KMOD_…)."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0))


def type_text(text: str) -> None:
    """Each character of `text` typed (a key press with no key code of its own)."""
    for ch in text:
        press(0, ch)


def click(pos: tuple[int, int], button: int = 1) -> None:
    """A mouse click (down, then up) at `pos` with `button` (1: the left one)."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def hover(pos: tuple[int, int]) -> None:
    """The pointer moved to `pos` with no button held."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(0, 0, 0)))


def frames(app: App, n: int = 1) -> None:
    """`n` frames of 1/60 s; each must keep the application running."""
    for _ in range(n):
        assert app.tick(1 / 60)


def cell_px(screen: BattleScreen, cell: tuple[int, int]) -> tuple[int, int]:
    """The window point at the centre of a board cell (the board stands below the top bar)."""
    x, y = screen.board.cam.centre(cell)
    return x, y + TOP_H


def near(px: tuple[int, ...], colour: tuple[int, int, int], tol: int = 40) -> bool:
    """A pixel within `tol` of `colour` (the sum of the RGB channels' differences)."""
    return sum(abs(a - b) for a, b in zip(px[:3], colour, strict=True)) < tol


def rgb_dist(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """Two pixels' difference: the sum of their RGB channels' differences."""
    return sum(abs(int(p) - int(q)) for p, q in zip(a[:3], b[:3], strict=True))


def acting(app: App, speed: int = pygame.K_2, who: str = "Me") -> BattleScreen:
    """Frames played, the person's units declared at `speed` (the key: K_2 is NORMAL), until one of them is asked
    to act and the board stands still; `who` names them in the failure."""
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    for _ in range(400):
        frames(app, 1)
        req = screen.session.human_request()
        if req is not None and req.kind == "act" and not screen.anim.busy:
            return screen
        if req is not None and req.kind == "declare":
            press(speed)
    raise AssertionError(f"{who} never acted")


def events_of(screen: BattleScreen, kind: str) -> list[Any]:
    """The battle's events so far of one type (`attack`, `charge`, …)."""
    return [e for e in screen.session.battle.log.events if e.type == kind]
