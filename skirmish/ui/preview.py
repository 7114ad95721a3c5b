"""The start menu's map preview: the scenario's map scaled to fit, each side's miniatures as dots in the side's
colour. Drawing only reads the scenario (STYLE 1)."""

from __future__ import annotations

import pygame

from skirmish.content.colours import Colour
from skirmish.content.scenario import Scenario
from skirmish.ui.art import render_map, side_colour_map

TILE_PX = 12  # the map is rendered at this tile size, then scaled to the space the menu has


def scenario_colours(scenario: Scenario) -> dict[str, Colour]:
    """Each side's colour: its own `colour:`, a colour word in its name, else the palette by order."""
    return side_colour_map(scenario.spec.sides)


def forces(scenario: Scenario) -> list[tuple[str, Colour, list[tuple[int, int]]]]:
    """(side, colour, starting cells of its units) in file order."""
    colours = scenario_colours(scenario)
    return [(s.name, colours[s.name], [(u.at[0], u.at[1]) for u in s.units]) for s in scenario.spec.sides]


def fit_size(grid_w: int, grid_h: int, box: tuple[int, int]) -> tuple[int, int, float]:
    """The largest (width, height) with the map's aspect inside `box`, and pixels per cell."""
    scale = min(box[0] / max(1, grid_w), box[1] / max(1, grid_h))
    return max(1, int(grid_w * scale)), max(1, int(grid_h * scale)), scale


class MapPreview:
    """Renders previews, remembering the last few (the menu redraws every frame)."""

    def __init__(self) -> None:
        self._maps: dict[tuple[str, int, int], pygame.Surface] = {}

    def _terrain(self, scenario: Scenario, w: int, h: int) -> pygame.Surface:
        key = (scenario.source + "|" + scenario.grid.name, w, h)
        img = self._maps.get(key)
        if img is None:
            if len(self._maps) > 12:
                self._maps.clear()
            grid = scenario.grid
            px = max(2, min(TILE_PX, 2048 // max(grid.width, grid.height)))
            full = render_map(grid, px)
            if pygame.display.get_surface() is not None:
                full = full.convert()
            img = pygame.transform.smoothscale(full, (w, h))
            self._maps[key] = img
        return img

    def draw(self, surf: pygame.Surface, box: pygame.Rect, scenario: Scenario) -> pygame.Rect:
        """Draw the preview centred in `box`; returns the map's rectangle."""
        grid = scenario.grid
        w, h, scale = fit_size(grid.width, grid.height, box.size)
        rect = pygame.Rect(0, 0, w, h)
        rect.midtop = box.midtop
        surf.blit(self._terrain(scenario, w, h), rect)
        pygame.draw.rect(surf, (90, 96, 110), rect, 1)
        r = max(3, min(9, int(scale * 0.6)))
        for _, colour, cells in forces(scenario):
            for x, y in cells:
                c = (rect.x + int((x + 0.5) * scale), rect.y + int((y + 0.5) * scale))
                pygame.draw.circle(surf, (12, 12, 16), c, r + 1)
                pygame.draw.circle(surf, colour, c, r)
        return rect
