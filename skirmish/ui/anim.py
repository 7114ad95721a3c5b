"""Animations that make the rules legible: moves along their route, tracers, hit flashes with the damage,
miss markers, thrown arcs, scatter markers and blast radii, round and phase banners. Built from events;
times are in seconds at 1× speed."""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from typing import Any

import pygame

from skirmish.core.events import Event, RoundEvent
from skirmish.rulesets.fi import AttackEvent, BlastEvent, MoveEvent, OutOfActionEvent, ThrowEvent
from skirmish.ui.camera import Camera

STEP_S = 0.09  # seconds per cell of a move
TRACER_S = 0.35
FLASH_S = 0.8
BANNER_S = 1.1
BLAST_S = 1.0


MARK_COLOUR = (255, 200, 90)  # where a miss or a scatter lands


def _cross(surf: pygame.Surface, at: tuple[float, float], r: int, colour: tuple[int, int, int]) -> None:
    """An X of half-size r at a screen point."""
    x, y = at
    pygame.draw.line(surf, colour, (x - r, y - r), (x + r, y + r), 2)
    pygame.draw.line(surf, colour, (x - r, y + r), (x + r, y - r), 2)


@dataclass
class Anim:
    """Base: something drawn for `duration` seconds."""

    duration: float
    t: float = 0.0

    @property
    def done(self) -> bool:
        """True when finished."""
        return self.t >= self.duration

    @property
    def k(self) -> float:
        """Progress 0..1."""
        return min(1.0, self.t / self.duration) if self.duration > 0 else 1.0

    def draw(self, surf: pygame.Surface, cam: Camera, font: pygame.font.Font) -> None:
        """Draw at the current progress."""


@dataclass
class MoveAnim(Anim):
    """A miniature gliding along its route."""

    unit: str = ""
    path: list[tuple[int, int]] = field(default_factory=list)

    def position(self) -> tuple[float, float]:
        """Fractional cell now."""
        if len(self.path) < 2:
            return self.path[-1] if self.path else (0.0, 0.0)
        f = self.k * (len(self.path) - 1)
        i = min(int(f), len(self.path) - 2)
        a, b = self.path[i], self.path[i + 1]
        u = f - i
        return a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u

    def draw(self, surf: pygame.Surface, cam: Camera, font: pygame.font.Font) -> None:
        """The route still ahead, dotted."""
        pts = [cam.centre(c) for c in self.path]
        if len(pts) >= 2:
            pygame.draw.lines(surf, (250, 250, 250), False, pts, 1)


@dataclass
class Tracer(Anim):
    """A shot's tracer from firer to target (red on a miss)."""

    frm: tuple[int, int] = (0, 0)
    to: tuple[float, float] = (0, 0)
    hit: bool = True
    rounds: int = 1

    def draw(self, surf: pygame.Surface, cam: Camera, font: pygame.font.Font) -> None:
        """A bright streak that travels, then fades."""
        a = cam.centre(self.frm)
        b = cam.centre(self.to)
        head = min(1.0, self.k * 1.6)
        tail = max(0.0, self.k * 1.6 - 0.5)
        colour = (255, 230, 120) if self.hit else (255, 140, 110)
        for r in range(max(1, self.rounds)):
            off = (r - (self.rounds - 1) / 2) * 2
            p = (a[0] + (b[0] - a[0]) * tail + off, a[1] + (b[1] - a[1]) * tail + off)
            q = (a[0] + (b[0] - a[0]) * head + off, a[1] + (b[1] - a[1]) * head + off)
            pygame.draw.line(surf, colour, p, q, 2)


@dataclass
class Flash(Anim):
    """A flash on the target and the damage rising from it."""

    cell: tuple[int, int] = (0, 0)
    text: str = ""
    colour: tuple[int, int, int] = (255, 80, 60)

    def draw(self, surf: pygame.Surface, cam: Camera, font: pygame.font.Font) -> None:
        """Ring and number."""
        x, y = cam.centre(self.cell)
        r = int(cam.tile * (0.3 + 0.5 * self.k))
        if self.k < 0.5:
            pygame.draw.circle(surf, self.colour, (x, y), r, max(2, cam.tile // 10))
        img = font.render(self.text, True, self.colour)
        img.set_alpha(int(255 * (1 - self.k * 0.7)))
        surf.blit(img, img.get_rect(midbottom=(x, y - cam.tile // 2 - int(self.k * cam.tile * 0.8))))


@dataclass
class MissMarker(Anim):
    """Where a miss lands: a cross beside the target."""

    at: tuple[float, float] = (0, 0)

    def draw(self, surf: pygame.Surface, cam: Camera, font: pygame.font.Font) -> None:
        """A fading cross."""
        _cross(surf, cam.centre(self.at), max(3, cam.tile // 5), MARK_COLOUR)


@dataclass
class Banner(Anim):
    """Round and phase announcements across the board."""

    text: str = ""

    def draw(self, surf: pygame.Surface, cam: Camera, font: pygame.font.Font) -> None:
        """A band in the middle of the board."""
        alpha = int(220 * math.sin(math.pi * self.k))
        img = font.render(self.text, True, (250, 246, 230))
        band = pygame.Surface((img.get_width() + 60, img.get_height() + 16), pygame.SRCALPHA)
        band.fill((10, 12, 16, alpha))
        img.set_alpha(alpha + 35)
        band.blit(img, (30, 8))
        surf.blit(band, band.get_rect(center=(cam.view_w // 2, cam.view_h // 3)))


@dataclass
class ThrowArc(Anim):
    """A thrown explosive's flight: a dot lobbed from the thrower to where it comes down."""

    frm: tuple[int, int] = (0, 0)
    to: tuple[int, int] = (0, 0)

    def draw(self, surf: pygame.Surface, cam: Camera, font: pygame.font.Font) -> None:
        """The dot on its arc, with a faint trail."""
        a, b = cam.centre(self.frm), cam.centre(self.to)
        lift = cam.tile * 1.2
        pts = []
        for i in range(13):
            u = self.k * i / 12
            pts.append((a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u - lift * math.sin(math.pi * u)))
        if len(pts) >= 2:
            pygame.draw.lines(surf, (200, 200, 170), False, pts, 1)
        pygame.draw.circle(surf, (40, 44, 36), pts[-1], max(3, cam.tile // 7))
        pygame.draw.circle(surf, (230, 220, 150), pts[-1], max(3, cam.tile // 7), 1)


@dataclass
class ScatterMarker(Anim):
    """A missed throw: a cross on the aimed cell, a dashed line to where it landed, and the clock read."""

    aim: tuple[int, int] = (0, 0)
    landed: tuple[int, int] = (0, 0)
    text: str = ""

    def draw(self, surf: pygame.Surface, cam: Camera, font: pygame.font.Font) -> None:
        """Cross, dashes and label."""
        x, y = cam.centre(self.aim)
        r = max(4, cam.tile // 4)
        c = MARK_COLOUR
        _cross(surf, (x, y), r, c)
        lx, ly = cam.centre(self.landed)
        n = max(2, int(math.hypot(lx - x, ly - y) // 6))
        for i in range(0, n, 2):
            p = (x + (lx - x) * i / n, y + (ly - y) * i / n)
            q = (x + (lx - x) * (i + 1) / n, y + (ly - y) * (i + 1) / n)
            pygame.draw.line(surf, c, p, q, 2)
        if self.text:
            img = font.render(self.text, True, c)
            surf.blit(img, img.get_rect(midtop=(x, y + r + 2)))


@dataclass
class BlastAnim(Anim):
    """A burst: the full-damage radius flares and fades; the outer ring (unarmoured only) is outlined."""

    at: tuple[int, int] = (0, 0)
    radius: float = 1.5  # cells
    reach: float = 0.0  # cells

    def draw(self, surf: pygame.Surface, cam: Camera, font: pygame.font.Font) -> None:
        """Filled radius, growing then fading, and the reach ring."""
        x, y = cam.centre(self.at)
        grow = min(1.0, self.k * 3)
        r = max(2, int(self.radius * cam.tile * grow))
        alpha = int(170 * (1 - self.k) + 40)
        disc = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
        pygame.draw.circle(disc, (255, 150, 40, alpha), (r + 1, r + 1), r)
        pygame.draw.circle(disc, (255, 235, 160, min(255, alpha + 60)), (r + 1, r + 1), r, 2)
        surf.blit(disc, (x - r - 1, y - r - 1))
        if self.reach > self.radius:
            pygame.draw.circle(surf, (255, 170, 80), (x, y), int(self.reach * cam.tile * grow), 1)


def miss_cell(event: AttackEvent, target: tuple[int, int]) -> tuple[float, float]:
    """Where a miss is drawn: beside the target, in a direction fixed by the event (so replays agree)."""
    h = zlib.crc32(f"{event.round}:{event.actor}:{event.read}".encode())
    ang = (h % 360) * math.pi / 180
    dist = 0.6 + (h >> 9) % 5 / 10
    return target[0] + math.cos(ang) * dist, target[1] + math.sin(ang) * dist


class Animator:
    """Runs groups of animations one after another; animations within a group run together."""

    def __init__(self) -> None:
        self.queue: list[list[Anim]] = []
        self.current: list[Anim] = []
        self.overlay: list[Anim] = []  # banners: drawn on top, not waited for

    @property
    def busy(self) -> bool:
        """True while something the battle should wait for is playing."""
        return bool(self.current or self.queue)

    def add(self, *group: Anim) -> None:
        """Queue a group."""
        self.queue.append(list(group))

    def clear(self) -> None:
        """Drop everything (undo, restart)."""
        self.queue.clear()
        self.current.clear()
        self.overlay.clear()

    def update(self, dt: float) -> None:
        """Advance by dt seconds (already scaled by the speed)."""
        for a in self.overlay:
            a.t += dt
        self.overlay = [a for a in self.overlay if not a.done]
        while dt > 0:
            if not self.current:
                if not self.queue:
                    return
                self.current = self.queue.pop(0)
            need = max(a.duration - a.t for a in self.current)
            used = min(dt, need)
            for a in self.current:
                a.t += used
            dt -= used
            if all(a.done for a in self.current):
                self.current = []
            else:
                return

    def finish(self) -> None:
        """Jump to the end of everything queued."""
        self.queue.clear()
        self.current.clear()

    def positions(self) -> dict[str, tuple[float, float]]:
        """Units drawn away from their cells right now (moving)."""
        out: dict[str, tuple[float, float]] = {}
        for a in self.current:
            if isinstance(a, MoveAnim):
                out[a.unit] = a.position()
        for group in self.queue:  # a unit whose move has not started yet stays at its start
            for a in group:
                if isinstance(a, MoveAnim) and a.unit not in out and a.path:
                    out[a.unit] = a.path[0]
        return out

    def draw(self, surf: pygame.Surface, cam: Camera, font: pygame.font.Font, big: pygame.font.Font) -> None:
        """Draw what is playing."""
        for a in self.current:
            a.draw(surf, cam, font)
        if self.overlay:  # the newest banner only: a phase banner replaces the round's
            self.overlay[-1].draw(surf, cam, big)


ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}


def anims_for(event: Event, cells: dict[str, tuple[int, int]], cell_m: float = 2.0) -> list[Any]:
    """Animation groups for an event; `cells` maps unit names to their cells before the event."""
    if isinstance(event, ThrowEvent) and event.actor in cells:
        aim = (int(event.at[0]), int(event.at[1]))
        landed = (int(event.landed[0]), int(event.landed[1]))
        blast: list[Anim] = [BlastAnim(BLAST_S, at=landed, radius=event.radius_m / cell_m,
                                       reach=event.reach_m / cell_m)]
        sc = event.scatter
        if sc:
            text = f"{sc['clock']} o'clock {sc['metres']:g} m" + (" (CF)" if sc["from"] == "thrower" else "")
            blast.append(ScatterMarker(BLAST_S, aim=aim, landed=landed, text=text))
        return [[ThrowArc(TRACER_S * 1.6, frm=cells[event.actor], to=landed)], blast]
    if isinstance(event, BlastEvent) and event.target in cells:
        w, ct = event.wounds, event.ct
        text = f"{w}W {ct}CT" if (w or ct) else "no damage"
        return [[Flash(FLASH_S * 0.6, cell=cells[event.target], text=text,
                       colour=(255, 80, 60) if (w or ct) else (200, 200, 200))]]
    if isinstance(event, MoveEvent):
        path = [(int(c[0]), int(c[1])) for c in event.path]
        return [[MoveAnim(STEP_S * max(1, len(path) - 1), unit=event.actor or "", path=path)]]
    if isinstance(event, AttackEvent) and event.actor in cells and event.target in cells:
        frm, to = cells[event.actor], cells[event.target]
        rounds = max(1, event.burst or 1)
        if event.hit:
            w = sum(h["wounds"] for h in event.hits)
            ct = sum(h["ct"] for h in event.hits)
            text = f"{w}W {ct}CT" if (w or ct) else "no damage"
            colour = (255, 80, 60) if (w or ct) else (200, 200, 200)
            return [[Tracer(TRACER_S, frm=frm, to=to, hit=True, rounds=min(rounds, 5))],
                    [Flash(FLASH_S, cell=to, text=text, colour=colour)]]
        spot = miss_cell(event, to)
        return [[Tracer(TRACER_S, frm=frm, to=spot, hit=False, rounds=min(rounds, 5))],
                [MissMarker(FLASH_S * 0.7, at=spot)]]
    if isinstance(event, OutOfActionEvent) and event.actor in cells:
        return [[Flash(FLASH_S, cell=cells[event.actor], text=event.state.upper(), colour=(240, 240, 240))]]
    return []


def banner_for(event: Event) -> Banner | None:
    """A banner for a new round, or the first turn of a phase."""
    if isinstance(event, RoundEvent):
        return Banner(BANNER_S, text=f"Round {event.round}: declare speeds")
    return None
