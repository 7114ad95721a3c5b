"""Screenshots of the board for the docs: docs/board-1280x800.png and docs/board-900x600.png.

Run: python tools/screenshots.py [OUT_DIR]   (under SDL's dummy driver, no window needed)

The default battle (depot breach, its shipped seed) is stepped action by action, so the pictures are the same on every
machine; then the most hurt miniature still standing is selected (its card shows) and the pointer rests on
the nearest enemy in view, so the line of sight and cover show too. tests/test_ui_readable.py takes the same pictures into a
temporary folder and checks them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from skirmish.content.scenario import default_scenario_path, load_scenario
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.frame import TOP_H
from skirmish.ui.settings import Settings

DOCS = Path(__file__).resolve().parents[1] / "docs"
SIZES = ((1280, 800), (900, 600))
STEPS = 40  # AI actions played before the picture ...
MORE_STEPS = 300  # ... and at most this many more until a miniature still standing is hurt


def _key(key: int, char: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=char, scancode=0))


def board_app(size: tuple[int, int], steps: int = STEPS, more: int = MORE_STEPS) -> App:
    """The default battle in a window of `size`, paused after `steps` AI actions (and up to `more` until a
    miniature still standing is hurt), with the most hurt one selected and the pointer on one of its
    enemies (the caller closes the app)."""
    settings = Settings(speed=8.0)
    settings.save = lambda: None  # type: ignore[method-assign]  # leave the user's settings alone
    app = App(scenario=load_scenario(default_scenario_path()), settings=settings, size=size)
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    _key(pygame.K_SPACE, " ")
    app.tick(1 / 60)
    def step() -> None:
        _key(pygame.K_PERIOD, ".")
        for _ in range(3):
            app.tick(1 / 60)

    def hurt() -> bool:
        return any(not u.out_of_action and (u.wounds or u.ct < u.ct_max) for u in screen.session.view().units)

    for _ in range(steps):
        step()
    for _ in range(more):  # on until a miniature still standing is hurt, so its card shows wounds
        if hurt() or screen.session.is_over():
            break
        step()
    for _ in range(250):  # let the last shot's animation and the toasts play out
        app.tick(1 / 60)
    view = screen.session.view()
    standing = [u for u in view.units if not u.out_of_action]
    if standing:
        pick = max(standing, key=lambda u: (u.wounds, u.ct_max - u.ct, u.name == screen.acting))
        screen.selected = pick.name
        screen.board.cam.bring_into_view(pick.cell)
        enemies = [u for u in standing if u.side != pick.side and screen.board.cam.shows(u.cell, 0.0)]
        if enemies:
            x, y = screen.board.cam.centre(min(enemies, key=lambda u: abs(u.cell[0] - pick.cell[0])
                                               + abs(u.cell[1] - pick.cell[1])).cell)
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y + TOP_H), rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(2):
        app.tick(1 / 60)
    return app


def take(size: tuple[int, int], path: Path, steps: int = STEPS, more: int = MORE_STEPS) -> Path:
    """One screenshot of the board at `size`, saved to `path`."""
    app = board_app(size, steps, more)
    try:
        return app.screenshot(path)
    finally:
        app.close()


def main() -> None:
    """Write the docs' screenshots (or into the folder given)."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS
    out.mkdir(parents=True, exist_ok=True)
    for w, h in SIZES:
        print(f"wrote {take((w, h), out / f'board-{w}x{h}.png')}")


if __name__ == "__main__":
    main()
