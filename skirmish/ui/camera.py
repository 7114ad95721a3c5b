"""Pan and zoom over the map: cell <-> screen conversions with limits (no pygame here)."""

from __future__ import annotations

from dataclasses import dataclass

ZOOM_STEPS = (8, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96)  # tile sizes in pixels
MAX_MAP_PIXELS = 4096  # the cached map surface never exceeds this on either side


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

    def fit(self) -> None:
        """The largest zoom step that shows the whole map, centred."""
        steps = self.steps()
        fitting = [s for s in steps if s * self.map_w <= self.view_w and s * self.map_h <= self.view_h]
        self.tile = fitting[-1] if fitting else steps[0]
        self.x = (self.map_w * self.tile - self.view_w) / 2
        self.y = (self.map_h * self.tile - self.view_h) / 2
        self.clamp()

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

    def look_at(self, cell: tuple[int, int]) -> None:
        """Centre the view on a cell."""
        self.x = (cell[0] + 0.5) * self.tile - self.view_w / 2
        self.y = (cell[1] + 0.5) * self.tile - self.view_h / 2
        self.clamp()
