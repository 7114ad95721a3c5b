"""Pan and zoom over the map: cell <-> screen conversions with limits (no pygame here)."""

from __future__ import annotations

from dataclasses import dataclass

ZOOM_STEPS = (8, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96)  # tile sizes in pixels
MAX_MAP_PIXELS = 4096  # the cached map surface never exceeds this on either side
LEGIBLE_TILE = 28  # the smallest cell at which a miniature's label and wounds read at a glance
MAX_FIT_TILE = 64  # fitting a small map or a tight group never zooms in further than this


@dataclass
class Camera:
    """Top-left of the viewport in map pixels, tile size in pixels, and the viewport size."""

    map_w: int
    map_h: int
    view_w: int
    view_h: int
    tile: int = 32
    x: float = 0.0
    y: float = 0.0

    def steps(self) -> list[int]:
        """Zoom steps allowed for this map."""
        limit = MAX_MAP_PIXELS // max(self.map_w, self.map_h)
        return [s for s in ZOOM_STEPS if s <= limit] or [ZOOM_STEPS[0]]

    def resize(self, view_w: int, view_h: int) -> None:
        """New viewport size (window resized)."""
        self.view_w, self.view_h = max(1, view_w), max(1, view_h)
        self.clamp()

    def clamp(self) -> None:
        """Keep at least a quarter of the viewport on the map."""
        mw, mh = self.map_w * self.tile, self.map_h * self.tile
        margin_x, margin_y = self.view_w * 0.75, self.view_h * 0.75
        self.x = min(max(self.x, -margin_x), max(-margin_x, mw - self.view_w + margin_x))
        self.y = min(max(self.y, -margin_y), max(-margin_y, mh - self.view_h + margin_y))

    def pan(self, dx: float, dy: float) -> None:
        """Move the view by screen pixels."""
        self.x += dx
        self.y += dy
        self.clamp()

    def zoom(self, direction: int, at: tuple[float, float] | None = None) -> bool:
        """One zoom step in (+1) or out (-1), keeping the point under `at` fixed; False at a limit."""
        steps = self.steps()
        i = min(range(len(steps)), key=lambda k: abs(steps[k] - self.tile))
        j = max(0, min(len(steps) - 1, i + direction))
        if steps[j] == self.tile:
            return False
        ax, ay = at if at is not None else (self.view_w / 2, self.view_h / 2)
        mx, my = (self.x + ax) / self.tile, (self.y + ay) / self.tile
        self.tile = steps[j]
        self.x, self.y = mx * self.tile - ax, my * self.tile - ay
        self.clamp()
        return True

    def fit(self, most: int | None = None) -> None:
        """The largest zoom step (at most `most` pixels) that shows the whole map, centred."""
        steps = [s for s in self.steps() if most is None or s <= most] or self.steps()[:1]
        fitting = [s for s in steps if s * self.map_w <= self.view_w and s * self.map_h <= self.view_h]
        self.tile = fitting[-1] if fitting else steps[0]
        self.x = (self.map_w * self.tile - self.view_w) / 2
        self.y = (self.map_h * self.tile - self.view_h) / 2
        self.clamp()

    def fit_cells(self, cells: list[tuple[int, int]], margin: int = 1, least: int = LEGIBLE_TILE) -> None:
        """Frame the action: the whole map if it fits at a legible zoom, else the largest zoom step that shows
        every cell in `cells` (with `margin` cells around), but never below `least` pixels a cell; centred on
        those cells (a group too big to show at `least` keeps its middle in view)."""
        steps = self.steps()
        whole = [s for s in steps if s * self.map_w <= self.view_w and s * self.map_h <= self.view_h]
        if (whole and whole[-1] >= least) or not cells:
            self.fit(MAX_FIT_TILE)
            return
        x0 = max(0, min(c[0] for c in cells) - margin)
        x1 = min(self.map_w - 1, max(c[0] for c in cells) + margin)
        y0 = max(0, min(c[1] for c in cells) - margin)
        y1 = min(self.map_h - 1, max(c[1] for c in cells) + margin)
        w, h = x1 - x0 + 1, y1 - y0 + 1
        fitting = [s for s in steps if s * w <= self.view_w and s * h <= self.view_h and s <= MAX_FIT_TILE]
        legible = [s for s in steps if s >= least] or [steps[-1]]
        self.tile = max(fitting[-1] if fitting else legible[0], legible[0])
        self.x = (x0 + x1 + 1) / 2 * self.tile - self.view_w / 2
        self.y = (y0 + y1 + 1) / 2 * self.tile - self.view_h / 2
        self.clamp()

    def shows(self, cell: tuple[float, float], margin: float = 0.5) -> bool:
        """True if the cell (and `margin` cells around it) is inside the viewport."""
        x, y = cell[0] * self.tile - self.x, cell[1] * self.tile - self.y
        m = margin * self.tile
        return x - m >= 0 and y - m >= 0 and x + self.tile + m <= self.view_w and y + self.tile + m <= self.view_h

    def to_screen(self, cell: tuple[float, float]) -> tuple[int, int]:
        """Screen position of a cell's top-left corner (fractional cells allowed)."""
        return round(cell[0] * self.tile - self.x), round(cell[1] * self.tile - self.y)

    def centre(self, cell: tuple[float, float]) -> tuple[int, int]:
        """Screen position of a cell's centre."""
        return round((cell[0] + 0.5) * self.tile - self.x), round((cell[1] + 0.5) * self.tile - self.y)

    def cell_at(self, pos: tuple[float, float]) -> tuple[int, int] | None:
        """The map cell under a screen position, or None off the map."""
        cx, cy = int((pos[0] + self.x) // self.tile), int((pos[1] + self.y) // self.tile)
        if 0 <= cx < self.map_w and 0 <= cy < self.map_h:
            return cx, cy
        return None

    def bring_into_view(self, cell: tuple[float, float], margin: float = 1.5) -> bool:
        """If the cell is not wholly in view, pan the least that shows it with `margin` cells around it (centre
        on it if the view is too small for that); False if it was already in view."""
        if self.shows(cell, 0.0):
            return False
        m = margin * self.tile
        left, top = cell[0] * self.tile - m, cell[1] * self.tile - m
        right, bottom = (cell[0] + 1) * self.tile + m, (cell[1] + 1) * self.tile + m
        if right - left > self.view_w or bottom - top > self.view_h:
            self.look_at((int(cell[0]), int(cell[1])))
            return True
        self.x = min(max(self.x, right - self.view_w), left)
        self.y = min(max(self.y, bottom - self.view_h), top)
        self.clamp()
        return True

    def look_at(self, cell: tuple[int, int]) -> None:
        """Centre the view on a cell."""
        self.x = (cell[0] + 0.5) * self.tile - self.view_w / 2
        self.y = (cell[1] + 0.5) * self.tile - self.view_h / 2
        self.clamp()
