"""The table: map, grid, miniatures, and the overlays of play (reach, route, line of sight). Drawing only
reads a BattleView (STYLE 1)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt
import pygame

from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.ui.art import (
    CT_BLUE,
    INK,
    SIDE_COLOURS,
    WOUND,
    Colour,
    blit_token,
    dead_badge,
    draw_token,
    render_map,
    side_colour_map,
)
from skirmish.ui.camera import Camera
from skirmish.ui.fi_melee import melee_marks
from skirmish.ui.fog import draw_ghost
from skirmish.ui.widgets import Fonts
from skirmish.ui.zones import draw_zones

COVER_COLOUR = {"none": (120, 230, 120), "low": (250, 220, 90), "high": (250, 150, 70)}
TOKEN_SCALE = 0.45  # a miniature's radius as a share of the cell
LABEL_SCALE = 0.46  # its label's size as a share of the cell (never below LABEL_MIN pixels)
LABEL_MIN = 11
ACCENT_RING = (255, 220, 90)
# What the letters beside a miniature mean (the H overlay's legend reads this).
MARKS = (("P", "prone"), ("S", "stunned"), ("A", "aiming"), ("D", "dodging"), ("H", "hesitating"),
         ("W", "waiting for an enemy"), ("M", "state of mind"))


@lru_cache(maxsize=1024)
def short_name(name: str) -> str:
    """Token label: initials and trailing number ('Raider-3' -> 'R3', 'Sgt Vance' -> 'SV')."""
    digits = re.search(r"(\d+)$", name)
    words = [w for w in re.split(r"[^A-Za-z]+", name) if w]
    letters = "".join(w[0] for w in words)[: (1 if digits else 2)].upper() or "?"
    return letters + (digits.group(1) if digits else "")


def marks(u: UnitView) -> str:
    """Status letters beside a standing miniature: P prone, S stunned, A aiming, D dodging, H hesitating,
    W waiting, M a state of mind (MARKS); a fallen one has none (it is drawn lying down instead)."""
    out = ""
    if u.out_of_action:
        return out
    if u.prone:
        out += "P"
    if u.stunned:
        out += "S"
    if u.aim:
        out += "A"
    if u.declared == "dodge":
        out += "D"
    if u.hesitating:
        out += "H"
    if u.waiting:
        out += "W"
    if any(m not in ("fearsome", "terrifying", "focused") for m in u.mind):
        out += "M"  # the card says which
    if u.melee is not None:
        out += melee_marks(u)
    return out


def heat_colour(v: float) -> tuple[int, int, int]:
    """A score in [0, 1] as a colour: blue (low), yellow (middle), red (high)."""
    v = min(1.0, max(0.0, v))
    if v < 0.5:
        t = v / 0.5
        return int(60 + 190 * t), int(110 + 120 * t), int(230 - 170 * t)
    t = (v - 0.5) / 0.5
    return int(250 - 10 * t), int(230 - 180 * t), int(60 - 20 * t)


@dataclass
class Overlays:
    """What play mode asks the board to show this frame."""

    walk: npt.NDArray[np.bool_] | None = None
    run: npt.NDArray[np.bool_] | None = None
    route: list[tuple[int, int]] = field(default_factory=list)
    route_ok: bool = True
    sight_from: tuple[int, int] | None = None
    sight_to: tuple[int, int] | None = None
    sight: geo.Sight | None = None
    selected: str | None = None
    acting: str | None = None
    hover: tuple[int, int] | None = None
    drag: tuple[str, tuple[int, int]] | None = None  # unit dragged, screen position
    blast: tuple[tuple[int, int], float, float, bool] | None = None  # throw preview: cell, radius, reach (cells), allowed
    heat: npt.NDArray[np.float64] | None = None  # an AI's move scores per cell (NaN: not considered)
    fog: pygame.Surface | None = None  # one side's fog over the whole map (skirmish.ui.fog.FogLayer)


class Board:
    """Draws one map and the miniatures on it."""

    def __init__(self, grid: geo.GridMap, fonts: Fonts, view_w: int, view_h: int,
                 colours: dict[str, Colour] | None = None) -> None:
        self.grid = grid
        self.fonts = fonts
        self.colours: dict[str, Colour] = dict(colours or {})
        self.cam = Camera(grid.width, grid.height, view_w, view_h)
        self.cam.fit()
        self.show_grid = True
        self._map: pygame.Surface | None = None
        self._map_px = 0
        self._grid_surf: pygame.Surface | None = None  # the map with the grid drawn in
        self._shade_key: tuple[int, int, int] | None = None
        self._shade: pygame.Surface | None = None
        self._heat_key: tuple[int, int] | None = None
        self._heat: pygame.Surface | None = None

    # ------------------------------------------------------------------ cached layers
    def _map_surface(self) -> pygame.Surface:
        """The map at the current zoom, with the grid drawn in if it is shown (one opaque blit a frame)."""
        if self._map is None or self._map_px != self.cam.tile:
            self._map_px = self.cam.tile
            self._map = render_map(self.grid, self.cam.tile)
            self._grid_surf = None
            self._shade_key = None
        if not self.show_grid:
            return self._map
        if self._grid_surf is None:
            g = pygame.Surface(self._map.get_size(), pygame.SRCALPHA)
            px = self.cam.tile
            for x in range(self.grid.width + 1):
                pygame.draw.line(g, (0, 0, 0, 55), (x * px, 0), (x * px, self.grid.height * px))
            for y in range(self.grid.height + 1):
                pygame.draw.line(g, (0, 0, 0, 55), (0, y * px), (self.grid.width * px, y * px))
            self._grid_surf = self._map.copy()
            self._grid_surf.blit(g, (0, 0))
        return self._grid_surf

    def _reach_surface(self, walk: npt.NDArray[np.bool_], run: npt.NDArray[np.bool_]) -> pygame.Surface:
        key = (self.cam.tile, hash(walk.tobytes()), hash(run.tobytes()))
        if self._shade is None or self._shade_key != key:
            px = self.cam.tile
            s = pygame.Surface((self.grid.width * px, self.grid.height * px), pygame.SRCALPHA)
            for (y, x) in zip(*np.nonzero(run & ~walk), strict=True):
                s.fill((250, 210, 80, 60), (int(x) * px, int(y) * px, px, px))
            for (y, x) in zip(*np.nonzero(walk), strict=True):
                s.fill((110, 230, 120, 70), (int(x) * px, int(y) * px, px, px))
            self._shade, self._shade_key = s, key
        return self._shade

    def _heat_surface(self, heat: npt.NDArray[np.float64]) -> pygame.Surface:
        """Move scores as colour: blue for the worst cells considered, through yellow, to red for the best;
        the best cell is outlined. Cached until the scores or the zoom change."""
        key = (self.cam.tile, hash(heat.tobytes()))
        if self._heat is None or self._heat_key != key:
            px = self.cam.tile
            s = pygame.Surface((self.grid.width * px, self.grid.height * px), pygame.SRCALPHA)
            ok = np.isfinite(heat)
            if ok.any():
                lo, hi = float(heat[ok].min()), float(heat[ok].max())
                norm = (heat - lo) / (hi - lo) if hi > lo else np.where(ok, 1.0, 0.0)
                for y, x in zip(*np.nonzero(ok), strict=True):
                    s.fill((*heat_colour(float(norm[y, x])), 110), (int(x) * px, int(y) * px, px, px))
                by, bx = np.unravel_index(int(np.nanargmax(heat)), heat.shape)
                pygame.draw.rect(s, (255, 255, 255, 230), (int(bx) * px, int(by) * px, px, px), max(2, px // 10))
            self._heat, self._heat_key = s, key
        return self._heat

    def label_px(self) -> int:
        """The size of a miniature's label at the current zoom."""
        return max(LABEL_MIN, round(self.cam.tile * LABEL_SCALE))

    def _font(self) -> pygame.font.Font:
        return self.fonts.font(self.label_px(), bold=True)

    def _badge_font(self) -> pygame.font.Font:
        return self.fonts.font(max(LABEL_MIN, round(self.cam.tile * 0.4)), bold=True)

    def fit_action(self, view: BattleView) -> None:
        """Frame the miniatures still in action at a zoom where they read (the whole map if it fits)."""
        cells = [u.cell for u in view.units if not u.out_of_action] or [u.cell for u in view.units]
        self.cam.fit_cells(cells)

    # ------------------------------------------------------------------ drawing
    def draw(self, surf: pygame.Surface, view: BattleView, ov: Overlays,
             moving: dict[str, tuple[float, float]]) -> None:
        """Draw the table into `surf` (the board's part of the window)."""
        cam = self.cam
        surf.fill((16, 18, 22))
        if view.grid is not self.grid and view.grid.content_key != self.grid.content_key:  # a door (issue 15)
            self.grid, self._map = view.grid, None
        src = self._map_surface()
        surf.blit(src, (-round(cam.x), -round(cam.y)))
        if ov.fog is not None:
            surf.blit(ov.fog, (-round(cam.x), -round(cam.y)))
        draw_zones(surf, cam, self.fonts, view, self.colours or side_colour_map(view.sides))  # issue 15
        if ov.walk is not None and ov.run is not None:
            surf.blit(self._reach_surface(ov.walk, ov.run), (-round(cam.x), -round(cam.y)))
        if ov.heat is not None and ov.heat.shape == (self.grid.height, self.grid.width):
            surf.blit(self._heat_surface(ov.heat), (-round(cam.x), -round(cam.y)))
        if ov.hover is not None:
            x, y = cam.to_screen(ov.hover)
            pygame.draw.rect(surf, (255, 255, 255), (x, y, cam.tile, cam.tile), 1)
        if ov.route:
            colour = (250, 250, 250) if ov.route_ok else (240, 90, 80)
            pts = [cam.centre(c) for c in ov.route]
            if len(pts) >= 2:
                pygame.draw.lines(surf, colour, False, pts, max(2, cam.tile // 10))
            for p in pts[1:]:
                pygame.draw.circle(surf, colour, p, max(2, cam.tile // 8))
        if ov.sight_from is not None and ov.sight_to is not None and ov.sight is not None:
            self._draw_sight(surf, ov)
        if ov.blast is not None:
            self._draw_blast(surf, *ov.blast)
        if not self.colours:
            self.colours = side_colour_map(view.sides)
        for u in sorted(view.units, key=lambda u: not u.out_of_action):  # fallen first, standing on top
            if u.name in view.extracted:  # it left the battle through an extraction zone: not on the table
                continue
            at: tuple[float, float] = moving.get(u.name, u.cell)
            if ov.drag is not None and ov.drag[0] == u.name:
                continue
            if u.ghost:  # an enemy not seen now, where it was last known (fog of war)
                draw_ghost(surf, self, u, cam.centre(u.cell))
                continue
            self._token(surf, u, cam.centre(at), ov)
        if ov.drag is not None:
            u = view.unit(ov.drag[0])
            self._token(surf, u, ov.drag[1], ov, ghost=True)

    def _draw_blast(self, surf: pygame.Surface, cell: tuple[int, int], radius: float, reach: float, ok: bool) -> None:
        """Where a throw would burst: the full-damage radius shaded, the outer ring (unarmoured) outlined."""
        cam = self.cam
        x, y = cam.centre(cell)
        r = max(3, int(radius * cam.tile))
        colour = (255, 150, 40) if ok else (230, 70, 60)
        disc = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
        pygame.draw.circle(disc, (*colour, 70), (r + 1, r + 1), r)
        pygame.draw.circle(disc, (*colour, 220), (r + 1, r + 1), r, 2)
        surf.blit(disc, (x - r - 1, y - r - 1))
        if reach > radius:
            pygame.draw.circle(surf, colour, (x, y), int(reach * cam.tile), 1)

    def _draw_sight(self, surf: pygame.Surface, ov: Overlays) -> None:
        assert ov.sight_from is not None and ov.sight_to is not None and ov.sight is not None
        cam = self.cam
        a, b = cam.centre(ov.sight_from), cam.centre(ov.sight_to)
        s = ov.sight
        if not s.visible:
            colour: tuple[int, int, int] = (230, 70, 60)
            label = "no line of sight"
        else:
            colour = COVER_COLOUR.get(s.cover, (200, 200, 200))
            label = "clear" if s.cover == "none" else f"{s.cover} cover AV {s.cover_av}"
            if s.concealed:
                label = f"concealed (−4), AV {s.cover_av}"
            elif s.lean:
                label += " (round a corner)"
        pygame.draw.line(surf, colour, a, b, 2)
        img = self.fonts.text(self.fonts.small, f"{geo.distance_m(ov.sight_from, ov.sight_to, self.grid.cell_m):.0f} m, "
                                                f"{label}", colour)
        r = img.get_rect(midbottom=(b[0], b[1] - cam.tile // 2 - 2))
        pygame.draw.rect(surf, (10, 10, 14), r.inflate(6, 4))
        surf.blit(img, r)

    def colour_of(self, u: UnitView) -> Colour:
        """The colour of a unit's side (the scenario's colours, else a colour word in the name, else by order)."""
        c = self.colours.get(u.side)
        return c if c is not None else SIDE_COLOURS[u.side_index % len(SIDE_COLOURS)]

    def token_radius(self) -> int:
        """A miniature's radius in pixels at the current zoom."""
        return max(4, round(self.cam.tile * TOKEN_SCALE))

    def _token(self, surf: pygame.Surface, u: UnitView, centre: tuple[int, int], ov: Overlays,
               ghost: bool = False) -> None:
        cam = self.cam
        r = self.token_radius()
        x, y = centre
        if u.name == ov.acting and not u.out_of_action:
            pygame.draw.circle(surf, (255, 255, 255), centre, r + max(4, r // 3), 2)
        if u.name == ov.selected:
            pygame.draw.circle(surf, ACCENT_RING, centre, r + max(2, r // 5), max(2, r // 6))
        if ghost:
            tmp = pygame.Surface((4 * r, 4 * r), pygame.SRCALPHA)
            draw_token(tmp, (2 * r, 2 * r), r, self.colour_of(u), u.facing)
            tmp.set_alpha(150)
            surf.blit(tmp, (x - 2 * r, y - 2 * r))
            return
        blit_token(surf, centre, r, self.colour_of(u), u.facing, fallen=u.out_of_action, dead=u.dead)
        if cam.tile < 16:
            return
        f = self.fonts
        label = f.outlined(self._font(), short_name(u.name), (235, 235, 235) if u.out_of_action else (255, 255, 255))
        surf.blit(label, label.get_rect(center=(x, y + (r // 4 if u.out_of_action else 0))))
        if u.dead:
            dead_badge(surf, centre, r)
        if u.out_of_action:
            return
        if u.wounds:  # a red badge with the wounds taken, on the shoulder away from the facing wedge
            br = max(6, round(r * 0.48))
            side = -1 if u.facing[0] > 0 or (u.facing[0] == 0 and u.facing[1] < 0) else 1
            bc = (x + side * round(r * 0.78), y - round(r * 0.78))
            pygame.draw.circle(surf, INK, bc, br + 1)
            pygame.draw.circle(surf, WOUND, bc, br)
            num = f.text(self._badge_font(), str(u.wounds), (255, 255, 255))
            surf.blit(num, num.get_rect(center=(bc[0], bc[1] + 1)))
        ct_bar = bool(u.ct_max) and (u.ct < u.ct_max or u.name == ov.selected)
        if ct_bar:
            h = max(3, r // 4)
            bar = pygame.Rect(x - r, y + r + 3, 2 * r, h)
            surf.fill(INK, bar.inflate(2, 2))
            surf.fill((50, 56, 70), bar)
            surf.fill(CT_BLUE, (bar.x, bar.y, round(bar.w * max(0, u.ct) / u.ct_max), h))
        m = marks(u)
        if m:
            img = f.text(self._badge_font(), m, (255, 240, 160))
            rect = img.get_rect(midleft=(x + r + 5, y))
            pygame.draw.rect(surf, (10, 10, 14), rect.inflate(6, 2), border_radius=3)
            surf.blit(img, rect)
        if u.name in (ov.selected, ov.acting) and cam.tile < 64:
            plate = f.outlined(f.small, u.name, ACCENT_RING if u.name == ov.selected else (255, 255, 255))
            pr = plate.get_rect(midtop=(x, y + r + (9 if ct_bar else 4)))
            if pr.bottom > surf.get_height():  # no room below (a miniature at the view's bottom): above it
                pr = plate.get_rect(midbottom=(x, y - r - 4))
            pr.clamp_ip(surf.get_rect())
            surf.blit(plate, pr)

    def unit_at(self, view: BattleView, pos: tuple[int, int]) -> UnitView | None:
        """The miniature under a screen position (standing ones first)."""
        cell = self.cam.cell_at(pos)
        if cell is None:
            return None
        here = [u for u in view.units if u.cell == cell and u.name not in view.extracted]
        here.sort(key=lambda u: u.out_of_action)
        return here[0] if here else None
