"""Zones in the editor: their cells as the loader reads them (skirmish.content.zones: a rectangle's cells, the
cells whose centres a polygon holds, and the zones drawn in Tiled's object layers), drawn over the map as
tinted areas with their names (a side's deployment zone in its colour); a polygon being drawn; and the cell
corner nearest the pointer (a polygon's vertices are cell corners)."""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING, Any

import pygame

from skirmish.content.zones import Cells, polygon_cells, rect_cells
from skirmish.ui.widgets import ACCENT

if TYPE_CHECKING:
    from skirmish.ui.editor.state import EditorState

ZONE_COLOURS = ((80, 200, 255), (255, 160, 60), (140, 255, 120), (230, 110, 255), (255, 240, 90), (255, 110, 140))
FILL_ALPHA = 70


def zone_colour(name: str) -> tuple[int, int, int]:
    """A zone's tint, the same on every run (by its name)."""
    return ZONE_COLOURS[zlib.crc32(name.encode()) % len(ZONE_COLOURS)]


def area_cells(area: Any, ed: EditorState) -> Cells:
    """The cells of a zone as written in the file (`{rect}` or `{polygon}`); none if it is malformed."""
    grid = ed.doc.grid()
    try:
        if isinstance(area, dict) and isinstance(area.get("rect"), list) and len(area["rect"]) == 4:
            x0, y0, x1, y1 = (int(v) for v in area["rect"])
            return rect_cells(x0, y0, x1, y1, grid)
        if isinstance(area, dict) and isinstance(area.get("polygon"), list) and len(area["polygon"]) >= 3:
            return polygon_cells([(float(p[0]), float(p[1])) for p in area["polygon"]], grid)
    except (TypeError, ValueError, IndexError):
        return ()
    return ()


def all_zones(ed: EditorState) -> dict[str, Cells]:
    """Every zone by name: the file's as written, and the Tiled map's object layers' (when the scenario loads)."""
    out: dict[str, Cells] = {}
    scenario, _ = ed.verdict()
    if scenario is not None:
        out.update(scenario.zones)
    for name, area in (ed.doc.data.get("zones") or {}).items():
        out[str(name)] = area_cells(area, ed)
    return out


def zone_at(ed: EditorState, cell: tuple[int, int]) -> str | None:
    """The file's zone holding a cell (the smallest, when they overlap)."""
    found = [(len(cells), name) for name, cells in all_zones(ed).items()
             if cell in cells and name in (ed.doc.data.get("zones") or {})]
    return min(found)[1] if found else None


def corner_at(ed: EditorState, pos: tuple[int, int]) -> tuple[int, int]:
    """The cell corner nearest a screen position (a polygon's vertex), kept on the map."""
    v = ed.view
    w, h = ed.doc.size
    x = round((pos[0] - v.origin[0]) / v.tile)
    y = round((pos[1] - v.origin[1]) / v.tile)
    return max(0, min(w, x)), max(0, min(h, y))


def draw_zones(surf: pygame.Surface, ed: EditorState) -> None:
    """The zones tinted over the map, each with its name at its top-left cell; the selected one outlined; a
    polygon being drawn, with its vertices."""
    v = ed.view
    if v.tile < 2:
        return
    shade = pygame.Surface((v.tile, v.tile), pygame.SRCALPHA)
    sides = ed.colours()  # a side's deployment zone in its colour
    deploys = {str(s.get("deployment")): sides.get(str(s.get("name"))) for s in ed.doc.data.get("sides", [])
               if s.get("deployment")}
    for name, cells in all_zones(ed).items():
        if not cells:
            continue
        colour = deploys.get(name) or zone_colour(name)
        shade.fill((*colour, FILL_ALPHA))
        for cell in cells:
            surf.blit(shade, v.rect_of(cell))
        selected = name == ed.zone
        edge = ACCENT if selected else colour
        cellset = set(cells)
        for x, y in cells:  # the outline: the sides of its cells that face outside it
            r = v.rect_of((x, y))
            for n, a, b in (((x, y - 1), r.topleft, r.topright), ((x, y + 1), r.bottomleft, r.bottomright),
                            ((x - 1, y), r.topleft, r.bottomleft), ((x + 1, y), r.topright, r.bottomright)):
                if n not in cellset:
                    pygame.draw.line(surf, edge, a, b, 3 if selected else 2)
        first = min(cells, key=lambda c: (c[1], c[0]))
        img = ed.fonts.outlined(ed.fonts.small, name, colour)
        surf.blit(img, v.rect_of(first).move(2, 1).topleft)
    if ed.polygon:
        pts = [(v.origin[0] + x * v.tile, v.origin[1] + y * v.tile) for x, y in ed.polygon]
        if ed.hover_corner is not None:
            hx, hy = ed.hover_corner
            pts.append((v.origin[0] + hx * v.tile, v.origin[1] + hy * v.tile))
        if len(pts) > 1:
            pygame.draw.lines(surf, ACCENT, False, pts, 2)
        for p in pts[:len(ed.polygon)]:
            pygame.draw.circle(surf, ACCENT, p, 4)
