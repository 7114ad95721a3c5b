"""Screens and the transitions they return (STYLE 8): the start menu and the results screen.
The battle screen lives in battle_screen.py."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame

from skirmish.content.errors import ContentError
from skirmish.content.scenario import DEFAULT_SCENARIO, Scenario, builtin_scenarios, load_scenario
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import ACCENT, BAD, DIM, PANEL_BG, PANEL_EDGE, TEXT, Button, ButtonRow, Fonts, wrap

if TYPE_CHECKING:
    from skirmish.battle import Outcome


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


def _as_transition(result: object) -> Transition | None:
    """A button's action may return a transition; anything else means stay."""
    return result if isinstance(result, Push | Pop | Reset | Quit) else None

OPTION_CHOICES: dict[str, tuple[object, ...]] = {
    "randomizer": ("cards", "dice"),
    "deck": ("A", "B"),
    "scope": ("pulp", "gritty"),
    "initiative_cards": ("one", "per_side", "per_character"),
    "concussion_saves": (True, False),
}


class MenuScreen:
    """Pick a scenario, its options, who controls each side and the seed; Enter starts."""

    def __init__(self, fonts: Fonts, settings: Settings, start: StartBattle) -> None:
        self.fonts = fonts
        self.settings = settings
        self.start = start
        self.paths = builtin_scenarios()
        names = [p.name for p in self.paths]
        wanted = settings.scenario if settings.scenario in names else DEFAULT_SCENARIO
        self.index = names.index(wanted) if wanted in names else 0
        self.scenario: Scenario | None = None
        self.error: str | None = None
        self.options: dict[str, object] = {}
        self.controls: dict[str, str] = {}
        self.seed_text = str(settings.seed) if settings.seed is not None else ""
        self.buttons = ButtonRow()
        self._load()

    def _load(self) -> None:
        path = self.paths[self.index]
        try:
            self.scenario = load_scenario(path)
            self.error = None
        except ContentError as exc:
            self.scenario, self.error = None, exc.text
            return
        spec = self.scenario.spec
        self.options = {k: getattr(spec.options, k) for k in OPTION_CHOICES}
        self.controls = {s.name: self.settings.controls.get(s.name, "ai") for s in spec.sides}
        if not self.seed_text:
            self.seed_text = str(spec.seed)

    def _cycle_option(self, key: str) -> None:
        choices = OPTION_CHOICES[key]
        cur = self.options.get(key, choices[0])
        self.options[key] = choices[(choices.index(cur) + 1) % len(choices)] if cur in choices else choices[0]

    def _cycle_control(self, side: str) -> None:
        self.controls[side] = "human" if self.controls.get(side) == "ai" else "ai"

    def _pick(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.paths)
        self.seed_text = ""
        self._load()

    def _new_seed(self) -> None:
        self.seed_text = str(int.from_bytes(os.urandom(3), "big"))  # choosing a seed, not playing with it

    def _go(self) -> Transition | None:
        if self.scenario is None:
            return None
        try:
            sc = self.scenario.with_options(**self.options)
        except ContentError as exc:
            self.error = exc.text
            return None
        seed = int(self.seed_text) if self.seed_text.isdigit() else sc.spec.seed
        self.settings.scenario = self.paths[self.index].name
        self.settings.seed = seed
        self.settings.controls.update(self.controls)
        self.settings.save()
        return self.start(sc, seed, dict(self.controls))

    def handle(self, event: pygame.event.Event) -> Transition | None:
        """Keys: up/down scenario, Enter start, digits seed, Backspace, R new seed, Esc quit."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return self._go()
            if event.key == pygame.K_ESCAPE:
                return Quit()
            if event.key in (pygame.K_UP, pygame.K_LEFT):
                self._pick(-1)
            elif event.key in (pygame.K_DOWN, pygame.K_RIGHT):
                self._pick(1)
            elif event.key == pygame.K_BACKSPACE:
                self.seed_text = self.seed_text[:-1]
            elif event.key == pygame.K_r:
                self._new_seed()
            elif event.unicode and event.unicode.isdigit() and len(self.seed_text) < 9:
                self.seed_text += event.unicode
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return _as_transition(self.buttons.press(event.pos)[1])
        return None

    def update(self, dt: float) -> Transition | None:
        """Nothing moves here."""
        return None

    def draw(self, surf: pygame.Surface) -> None:
        """Lay out and draw the menu (buttons are rebuilt each frame so they follow the window size)."""
        f = self.fonts
        surf.fill((20, 22, 28))
        w = surf.get_width()
        surf.blit(f.text(f.huge, "skirmish", ACCENT), (40, 24))
        surf.blit(f.text(f.normal, "Future Imperfect squad battles · pick a scenario, set who plays, press Enter",
                         DIM), (44, 78))
        self.buttons.buttons = []
        y = 120
        left = pygame.Rect(40, y, 340, surf.get_height() - y - 40)
        pygame.draw.rect(surf, PANEL_BG, left)
        pygame.draw.rect(surf, PANEL_EDGE, left, 1)
        surf.blit(f.text(f.normal, "Scenario  (↑/↓)", ACCENT), (left.x + 10, left.y + 8))
        for i, p in enumerate(self.paths):
            r = pygame.Rect(left.x + 8, left.y + 36 + i * 34, left.w - 16, 30)
            self.buttons.buttons.append(Button(p.stem.replace("_", " "), partial(self._select, i), rect=r,
                                       active=i == self.index))
        right = pygame.Rect(400, y, max(300, w - 440), surf.get_height() - y - 40)
        pygame.draw.rect(surf, PANEL_BG, right)
        pygame.draw.rect(surf, PANEL_EDGE, right, 1)
        x0, yy = right.x + 12, right.y + 10
        if self.scenario is None:
            for line in wrap(f.normal, self.error or "", right.w - 24):
                surf.blit(f.text(f.normal, line, BAD), (x0, yy))
                yy += 22
        else:
            spec = self.scenario.spec
            surf.blit(f.text(f.big, spec.name, TEXT), (x0, yy))
            yy += 36
            for line in wrap(f.small, (spec.description or "").strip(), right.w - 24)[:6]:
                surf.blit(f.text(f.small, line, DIM), (x0, yy))
                yy += 17
            yy += 4
            surf.blit(f.text(f.small, f"ruleset {spec.ruleset} · map {self.scenario.grid.name} "
                                      f"{self.scenario.grid.width}×{self.scenario.grid.height} · "
                                      f"round limit {spec.victory.max_rounds}", DIM), (x0, yy))
            yy += 28
            surf.blit(f.text(f.normal, "Options (click to change)", ACCENT), (x0, yy))
            yy += 28
            for key in OPTION_CHOICES:
                val = self.options.get(key)
                label = f"{key.replace('_', ' ')}: {('yes' if val else 'no') if isinstance(val, bool) else val}"
                r = pygame.Rect(x0, yy, 300, 28)
                self.buttons.buttons.append(Button(label, partial(self._cycle_option, key), rect=r))
                yy += 32
            yy += 8
            surf.blit(f.text(f.normal, "Sides (click: AI or human)", ACCENT), (x0, yy))
            yy += 28
            for s in spec.sides:
                r = pygame.Rect(x0, yy, 300, 28)
                who = self.controls.get(s.name, "ai")
                self.buttons.buttons.append(Button(f"{s.name} ({len(s.units)}): {who.upper()}",
                                           partial(self._cycle_control, s.name), rect=r, active=who == "human"))
                yy += 32
            yy += 8
            surf.blit(f.text(f.normal, f"Seed: {self.seed_text or '—'}_   (type digits, R = new)", TEXT), (x0, yy))
            yy += 36
            self.buttons.buttons.append(Button("Start  (Enter)", self._go, rect=pygame.Rect(x0, yy, 180, 36)))
            self.buttons.buttons.append(Button("New seed (R)", self._new_seed, rect=pygame.Rect(x0 + 190, yy, 150, 36)))
            self.buttons.buttons.append(Button("Quit (Esc)", Quit, rect=pygame.Rect(x0 + 350, yy, 120, 36)))
        self.buttons.draw(surf, f)

    def _select(self, i: int) -> None:
        if i != self.index:
            self.index = i
            self.seed_text = ""
            self._load()


class StartBattle(Protocol):
    """Makes the transition into a battle (the app supplies it)."""

    def __call__(self, scenario: Scenario, seed: int, controls: dict[str, str]) -> Transition: ...


class ResultsScreen:
    """Winner, casualties and rounds; restart with the same seed or a new one, or back to the menu."""

    def __init__(self, fonts: Fonts, outcome: Outcome, scenario: Scenario, controls: dict[str, str],
                 start: StartBattle, menu: MenuFactory, log_path: Path | None) -> None:
        self.fonts = fonts
        self.outcome = outcome
        self.scenario = scenario
        self.controls = controls
        self.start = start
        self.menu = menu
        self.log_path = log_path
        self.buttons = ButtonRow()

    def _same(self) -> Transition:
        return self.start(self.scenario, self.outcome.seed, self.controls)

    def _new(self) -> Transition:
        return self.start(self.scenario, int.from_bytes(os.urandom(3), "big"), self.controls)

    def handle(self, event: pygame.event.Event) -> Transition | None:
        """S same seed, N new seed, M menu, Esc/Q quit."""
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_s:
                return self._same()
            if event.key == pygame.K_n:
                return self._new()
            if event.key == pygame.K_m:
                return Reset(self.menu())
            if event.key in (pygame.K_ESCAPE, pygame.K_q):
                return Quit()
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return _as_transition(self.buttons.press(event.pos)[1])
        return None

    def update(self, dt: float) -> Transition | None:
        """Nothing moves here."""
        return None

    def draw(self, surf: pygame.Surface) -> None:
        """The result card over a dark background."""
        f = self.fonts
        surf.fill((18, 20, 26))
        o = self.outcome
        title = f"{o.winner} win" if o.winner else "Draw"
        cx = surf.get_width() // 2
        img = f.text(f.huge, title, ACCENT)
        surf.blit(img, img.get_rect(midtop=(cx, 60)))
        lines = [f"{self.scenario.spec.name} · seed {o.seed} · {o.rounds} rounds"]
        lines += [f"{side}: {n} out of action" for side, n in o.casualties.items()]
        if self.log_path is not None:
            lines.append(f"log saved: {self.log_path}")
        y = 140
        for line in lines:
            img = f.text(f.normal, line, TEXT)
            surf.blit(img, img.get_rect(midtop=(cx, y)))
            y += 28
        y += 20
        specs = [("Same seed (S)", self._same), ("New seed (N)", self._new),
                 ("Menu (M)", lambda: Reset(self.menu())), ("Quit (Esc)", Quit)]
        self.buttons.buttons = []
        x = cx - 330
        for label, fn in specs:
            self.buttons.buttons.append(Button(label, fn, rect=pygame.Rect(x, y, 150, 40)))
            x += 165
        self.buttons.draw(surf, f)


class MenuFactory(Protocol):
    """Builds a fresh menu screen."""

    def __call__(self) -> Screen: ...
