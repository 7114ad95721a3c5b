"""What every screen shares (STYLE 8): the Screen protocol the app loop drives, the transitions a screen returns
(`Push | Pop | Reset | Quit`, applied in one place, App.apply), the factories the app hands to screens, and
the framed panel the menu and the results draw their parts in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import pygame

from skirmish.ui.widgets import PANEL_BG, PANEL_EDGE

if TYPE_CHECKING:
    from skirmish.content.scenario import Scenario


class Screen(Protocol):
    """What the app loop drives."""

    def handle(self, event: pygame.event.Event) -> Transition | None: ...
    def update(self, dt: float) -> Transition | None: ...
    def draw(self, surf: pygame.Surface) -> None: ...


@dataclass
class Push:
    """Show a screen on top."""

    screen: Screen


@dataclass
class Pop:
    """Back to the screen below."""


@dataclass
class Reset:
    """Replace every screen with this one."""

    screen: Screen


@dataclass
class Quit:
    """Leave the app."""


Transition = Push | Pop | Reset | Quit


def as_transition(result: object) -> Transition | None:
    """A button's action may return a transition; anything else means stay."""
    return result if isinstance(result, Push | Pop | Reset | Quit) else None


def draw_panel(surf: pygame.Surface, rect: pygame.Rect) -> None:
    """A panel's background with its edge."""
    pygame.draw.rect(surf, PANEL_BG, rect)
    pygame.draw.rect(surf, PANEL_EDGE, rect, 1)


class StartBattle(Protocol):
    """Makes the transition into a battle (the app supplies it)."""

    def __call__(self, scenario: Scenario, seed: int, controls: dict[str, str]) -> Transition: ...


class MenuFactory(Protocol):
    """Builds a fresh menu screen."""

    def __call__(self) -> Screen: ...
