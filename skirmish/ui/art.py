"""The project's own art, drawn with pygame: terrain tiles, tokens, marks. Deterministic, any tile size.

Terrain is drawn by name (the tileset's tile names); unknown names fall back on the tile's rule
properties, so a new tile in terrain.tsj is still readable on the board: high cover is dark and raised,
low cover is a waist-high block with a shadow, open ground is flat.
"""

from __future__ import annotations

import functools
import math
import random
import zlib
from collections.abc import Callable, Iterable, Sequence

import pygame

from skirmish.content.colours import PALETTE, side_colours
from skirmish.rules.geometry import GridMap, Terrain

Colour = tuple[int, int, int]

SIDE_COLOURS: tuple[Colour, ...] = PALETTE  # by order, for sides nobody named (see side_colour_map)
INK: Colour = (20, 22, 26)
PAPER: Colour = (236, 232, 220)
HIGHLIGHT: Colour = (255, 235, 120)
WOUND: Colour = (205, 40, 40)
CT_BLUE: Colour = (90, 170, 240)
FALLEN_GREY: Colour = (150, 150, 154)


def side_colour_map(sides: Iterable[object]) -> dict[str, Colour]:
    """Each side's colour by name, from scenario sides (anything with `name` and, once scenarios carry it,
    `colour`) or plain names: its own colour, else a colour word in its name, else the palette by order."""
    pairs: list[tuple[str, str | None]] = []
    for s in sides:
        if isinstance(s, str):
            pairs.append((s, None))
        else:
            pairs.append((str(getattr(s, "name", "")), getattr(s, "colour", None)))
    return dict(zip([n for n, _ in pairs], side_colours(pairs), strict=True))


def mix(a: Colour, b: Colour, k: float) -> Colour:
    """`a` moved a fraction `k` of the way to `b`."""
    return (round(a[0] + (b[0] - a[0]) * k), round(a[1] + (b[1] - a[1]) * k), round(a[2] + (b[2] - a[2]) * k))


def fallen_rect(centre: tuple[int, int], r: int) -> pygame.Rect:
    """Where a fallen miniature lies: an oval on its side, a little below the cell's centre."""
    lying = pygame.Rect(0, 0, int(r * 2.3), int(r * 1.2))
    lying.center = (centre[0], centre[1] + r // 4)
    return lying


def dead_badge(surf: pygame.Surface, centre: tuple[int, int], r: int) -> None:
    """The mark of a dead miniature: a white cross on a dark red disc at the end of its lying token (the
    label stays readable)."""
    lying = fallen_rect(centre, r)
    br = max(5, round(r * 0.45))
    c = (lying.right - br // 2, lying.top - br // 3)
    pygame.draw.circle(surf, INK, c, br + 1)
    pygame.draw.circle(surf, (120, 22, 22), c, br)
    d = max(2, round(br * 0.5))
    w = max(1, br // 3)
    pygame.draw.line(surf, (255, 255, 255), (c[0] - d, c[1] - d), (c[0] + d, c[1] + d), w)
    pygame.draw.line(surf, (255, 255, 255), (c[0] - d, c[1] + d), (c[0] + d, c[1] - d), w)


@functools.lru_cache(maxsize=512)
def token_sprite(r: int, colour: Colour, facing: tuple[float, float], fallen: bool, dead: bool) -> pygame.Surface:
    """draw_token on a transparent square of side 4r centred on the token (drawn once, blitted every frame)."""
    sprite = pygame.Surface((4 * r, 4 * r), pygame.SRCALPHA)
    draw_token(sprite, (2 * r, 2 * r), r, colour, facing, fallen=fallen, dead=dead)
    return sprite


def blit_token(surf: pygame.Surface, centre: tuple[int, int], r: int, colour: Colour,
               facing: tuple[float, float] = (0, 1), *, fallen: bool = False, dead: bool = False) -> None:
    """draw_token through the sprite cache (the board draws dozens of miniatures a frame)."""
    surf.blit(token_sprite(r, colour, facing, fallen, dead), (centre[0] - 2 * r, centre[1] - 2 * r))


def draw_token(surf: pygame.Surface, centre: tuple[int, int], r: int, colour: Colour,
               facing: tuple[float, float] = (0, 1), *, fallen: bool = False, dead: bool = False) -> None:
    """A miniature seen from above: a base in the side's colour with a white wedge on the rim pointing where
    it faces. A fallen one lies on its side, greyed (the side still shows as a tint) and without a facing;
    a dead one is crossed out."""
    x, y = centre
    edge = max(2, r // 6)
    if fallen:
        body = mix(colour, FALLEN_GREY, 0.8) if dead else mix(colour, FALLEN_GREY, 0.55)
        lying = fallen_rect(centre, r)
        pygame.draw.ellipse(surf, INK, lying.move(max(1, r // 8), max(1, r // 8)))
        pygame.draw.ellipse(surf, body, lying)
        pygame.draw.ellipse(surf, INK, lying, edge)
        return
    pygame.draw.circle(surf, INK, (x + max(1, r // 7), y + max(1, r // 7)), r)  # shadow
    pygame.draw.circle(surf, colour, centre, r)
    pygame.draw.circle(surf, _shade(colour, 1.18), (x - r // 4, y - r // 4), max(2, int(r * 0.5)))
    fx, fy = facing
    n = math.hypot(fx, fy) or 1.0
    a = math.atan2(fy / n, fx / n)
    tip = (x + math.cos(a) * r * 1.7, y + math.sin(a) * r * 1.7)
    left = (x + math.cos(a - 0.7) * r * 0.78, y + math.sin(a - 0.7) * r * 0.78)
    right = (x + math.cos(a + 0.7) * r * 0.78, y + math.sin(a + 0.7) * r * 0.78)
    pygame.draw.circle(surf, INK, centre, r, edge)
    pygame.draw.polygon(surf, PAPER, (tip, left, right))
    pygame.draw.polygon(surf, INK, (tip, left, right), max(1, edge // 2))


def _rng(name: str, variant: int) -> random.Random:
    return random.Random(zlib.crc32(f"{name}:{variant}".encode()))


def _shade(c: Colour, k: float) -> Colour:
    return (max(0, min(255, int(c[0] * k))), max(0, min(255, int(c[1] * k))), max(0, min(255, int(c[2] * k))))


def _speckle(surf: pygame.Surface, base: Colour, rng: random.Random, n: int, spread: float = 0.15) -> None:
    s = surf.get_width()
    for _ in range(n):
        k = 1 + rng.uniform(-spread, spread)
        r = max(1, s // 24)
        pygame.draw.circle(surf, _shade(base, k), (rng.randrange(s), rng.randrange(s)), r)


def _floor(surf: pygame.Surface, rng: random.Random) -> None:
    base = (150, 150, 146)
    surf.fill(base)
    _speckle(surf, base, rng, 18, 0.08)
    s = surf.get_width()
    pygame.draw.line(surf, _shade(base, 0.85), (0, s - 1), (s - 1, s - 1))
    pygame.draw.line(surf, _shade(base, 0.85), (s - 1, 0), (s - 1, s - 1))


def _ground(surf: pygame.Surface, rng: random.Random) -> None:
    base = (128, 112, 84)
    surf.fill(base)
    _speckle(surf, base, rng, 30, 0.18)


def _rubble(surf: pygame.Surface, rng: random.Random) -> None:
    _ground(surf, rng)
    s = surf.get_width()
    for _ in range(7):
        c = _shade((120, 116, 110), rng.uniform(0.8, 1.2))
        x, y, r = rng.randrange(s), rng.randrange(s), max(2, s // rng.choice((6, 8, 10)))
        pygame.draw.circle(surf, c, (x, y), r)
        pygame.draw.circle(surf, _shade(c, 0.6), (x, y), r, 1)


def _wall(surf: pygame.Surface, rng: random.Random) -> None:
    base = (150, 72, 52)
    mortar = (92, 84, 78)
    s = surf.get_width()
    surf.fill(mortar)
    rows = 4
    h = s / rows
    for r in range(rows):
        off = (r % 2) * s / 4
        for c in range(-1, 3):
            x = c * s / 2 + off
            rect = pygame.Rect(round(x) + 1, round(r * h) + 1, round(s / 2) - 2, round(h) - 2)
            pygame.draw.rect(surf, _shade(base, rng.uniform(0.85, 1.1)), rect)
    pygame.draw.rect(surf, _shade(base, 0.5), surf.get_rect(), max(1, s // 16))


def _steel(surf: pygame.Surface, rng: random.Random) -> None:
    base = (92, 100, 112)
    s = surf.get_width()
    surf.fill(base)
    pygame.draw.rect(surf, _shade(base, 1.25), (0, 0, s, max(1, s // 10)))
    pygame.draw.rect(surf, _shade(base, 0.6), surf.get_rect(), max(1, s // 16))
    r = max(1, s // 16)
    for cx, cy in ((0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8)):
        pygame.draw.circle(surf, _shade(base, 1.4), (int(cx * s), int(cy * s)), r)


def _container(surf: pygame.Surface, rng: random.Random) -> None:
    base = rng.choice(((40, 110, 120), (150, 70, 40), (70, 110, 60)))
    s = surf.get_width()
    surf.fill(base)
    for i in range(1, 6):
        x = i * s // 6
        pygame.draw.line(surf, _shade(base, 0.65), (x, 0), (x, s), max(1, s // 24))
    pygame.draw.rect(surf, _shade(base, 0.45), surf.get_rect(), max(1, s // 12))


def _low(surf: pygame.Surface, top: Colour, rng: random.Random, pattern: Callable[[pygame.Surface, pygame.Rect], None]
         ) -> None:
    """Low cover: ground around a block with a shadow, so it reads as waist high."""
    _floor(surf, rng)
    s = surf.get_width()
    pad = max(1, s // 8)
    shadow = pygame.Rect(pad + s // 10, pad + s // 10, s - 2 * pad, s - 2 * pad)
    pygame.draw.rect(surf, (70, 70, 66), shadow)
    block = pygame.Rect(pad, pad, s - 2 * pad, s - 2 * pad)
    pygame.draw.rect(surf, top, block)
    pattern(surf, block)
    pygame.draw.rect(surf, _shade(top, 0.5), block, max(1, s // 16))


def _crate(surf: pygame.Surface, rng: random.Random) -> None:
    top = (168, 128, 72)

    def pattern(sf: pygame.Surface, b: pygame.Rect) -> None:
        w = max(1, sf.get_width() // 14)
        pygame.draw.line(sf, _shade(top, 0.6), b.topleft, b.bottomright, w)
        pygame.draw.line(sf, _shade(top, 0.6), b.topright, b.bottomleft, w)

    _low(surf, top, rng, pattern)


def _low_wall(surf: pygame.Surface, rng: random.Random) -> None:
    top = (170, 166, 156)

    def pattern(sf: pygame.Surface, b: pygame.Rect) -> None:
        pygame.draw.line(sf, _shade(top, 0.7), b.midleft, b.midright, max(1, sf.get_width() // 20))

    _low(surf, top, rng, pattern)


def _barricade(surf: pygame.Surface, rng: random.Random) -> None:
    top = (150, 138, 96)

    def pattern(sf: pygame.Surface, b: pygame.Rect) -> None:
        for i in range(3):
            r = pygame.Rect(b.x, b.y + i * b.h // 3, b.w, b.h // 3)
            pygame.draw.ellipse(sf, _shade(top, 1.1 - 0.1 * i), r)
            pygame.draw.ellipse(sf, _shade(top, 0.6), r, 1)

    _low(surf, top, rng, pattern)


def _door(surf: pygame.Surface, rng: random.Random) -> None:
    _floor(surf, rng)
    s = surf.get_width()
    wood = (120, 84, 50)
    band = pygame.Rect(0, s // 3, s, s // 3)
    pygame.draw.rect(surf, wood, band)
    for i in range(1, 4):
        x = i * s // 4
        pygame.draw.line(surf, _shade(wood, 0.7), (x, band.top), (x, band.bottom), 1)
    pygame.draw.rect(surf, _shade(wood, 0.5), band, max(1, s // 20))


def _fence(surf: pygame.Surface, rng: random.Random) -> None:
    _ground(surf, rng)
    s = surf.get_width()
    wire = (190, 190, 196)
    step = max(3, s // 6)
    for i in range(-s, s, step):
        pygame.draw.line(surf, wire, (i, 0), (i + s, s), 1)
        pygame.draw.line(surf, wire, (i + s, 0), (i, s), 1)
    pygame.draw.line(surf, (110, 110, 116), (0, s // 2), (s, s // 2), max(1, s // 12))


def _water(surf: pygame.Surface, rng: random.Random) -> None:
    base = (52, 92, 140)
    s = surf.get_width()
    surf.fill(base)
    for _ in range(4):
        y = rng.randrange(s)
        x = rng.randrange(s)
        pygame.draw.arc(surf, _shade(base, 1.4), (x - s // 4, y, s // 2, s // 6), 0.3, 2.8, 1)


DRAWERS: dict[str, Callable[[pygame.Surface, random.Random], None]] = {
    "floor": _floor, "ground": _ground, "rubble": _rubble, "wall": _wall, "steel_wall": _steel,
    "container": _container, "crate": _crate, "low_wall": _low_wall, "barricade": _barricade,
    "door": _door, "fence": _fence, "water": _water,
}


def _fallback(t: Terrain) -> Callable[[pygame.Surface, random.Random], None]:
    if t.blocks_sight:
        return _wall
    if t.cover == "low":
        return _crate
    if t.move_cost >= 3:
        return _water
    if t.move_cost == 2:
        return _rubble
    return _floor


def tile_surface(t: Terrain, px: int, variant: int = 0) -> pygame.Surface:
    """One terrain tile at `px` pixels."""
    surf = pygame.Surface((px, px))
    DRAWERS.get(t.name, _fallback(t))(surf, _rng(t.name, variant))
    return surf


VARIANTS = 3


def render_map(grid: GridMap, px: int) -> pygame.Surface:
    """The whole map at `px` pixels a tile (tiles vary by a hash of the cell so the floor is not a grid)."""
    cache: dict[tuple[int, int], pygame.Surface] = {}
    out = pygame.Surface((grid.width * px, grid.height * px))
    blits = []
    for y in range(grid.height):
        for x in range(grid.width):
            tid = int(grid.layout[y, x])
            v = (x * 7 + y * 13) % VARIANTS
            key = (tid, v)
            if key not in cache:
                cache[key] = tile_surface(grid.tiles[tid], px, v)
            blits.append((cache[key], (x * px, y * px)))
    out.blits(blits, doreturn=False)
    return out


def tileset_image(terrains: Sequence[Terrain], px: int = 32) -> pygame.Surface:
    """The tileset strip Tiled shows (assets/terrain.png): one tile per terrain, left to right."""
    out = pygame.Surface((px * len(terrains), px))
    for i, t in enumerate(terrains):
        out.blit(tile_surface(t, px), (i * px, 0))
    return out


def draw_icon(px: int = 64) -> pygame.Surface:
    """The window icon: two tokens facing off across a crate."""
    surf = pygame.Surface((px, px), pygame.SRCALPHA)
    pygame.draw.rect(surf, (150, 150, 146), (0, 0, px, px), border_radius=px // 8)
    crate = tile_surface(Terrain("crate", 0, False, "low", 3), px // 3)
    surf.blit(crate, (px // 3, px // 3))
    for i, c in enumerate(SIDE_COLOURS[:2]):
        centre = (px // 5 + i * 3 * px // 5, px // 5 + i * 3 * px // 5)
        draw_token(surf, centre, px // 7, c, (1, 1) if i == 0 else (-1, -1))
    return surf
