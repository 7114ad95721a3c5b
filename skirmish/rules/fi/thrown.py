"""Thrown explosives (R-6.9, R-6.10): the throw's TN from Strength, scatter on a miss, and the blast.

Pure functions over cells and a draw; the systems decide who stands where and apply the outcome.
Geometry is in cell units (x right, y down); the clock's 12 points from the thrower through the target.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from skirmish.rules import geometry as geo
from skirmish.rules.checks import Modifier
from skirmish.rules.deck import COLUMNS, SIDES, Card, Deck
from skirmish.rules.equipment import Dice, Weapon
from skirmish.rules.fi.odds import DICE_SAMPLES
from skirmish.rules.fi.ranged import HitResult, ShotSetup, TargetState, apply_hit, read_attack
from skirmish.rules.randomizer import CardDraw, DiceDraw, Draw

OUTER_RING_M = 10.0  # one damage column less per further 10 m beyond the radius


def column_number(column: str) -> int:
    """A trait column as a number: I = 1 … VI = 6 (R-2.1)."""
    return COLUMNS.index(column) + 1


def throw_tn(distance_m: float, strength_column: str, base: int = 5) -> tuple[int, Modifier]:
    """R-6.10: TN = base + one per started (Strength column number + 2) metres."""
    inc = column_number(strength_column) + 2
    steps = math.ceil(distance_m / inc - 1e-9) if distance_m > 0 else 0
    return base + steps, Modifier(steps, f"thrown {distance_m:.1f} m, +1 per started {inc} m (Strength "
                                         f"{strength_column}, R-6.10)")


def max_throw_m(strength_column: str) -> float:
    """R-6.10: Strength die sides × 5 m."""
    return SIDES[strength_column] * 5.0


def clock_vector(origin: tuple[float, float], toward: tuple[float, float], hour: int) -> tuple[float, float]:
    """Unit vector for a clock hour, 12 pointing from `origin` through `toward`, hours turning clockwise
    as seen on the map (R-4.9). With origin == toward, 12 points up the map."""
    dx, dy = toward[0] - origin[0], toward[1] - origin[1]
    norm = math.hypot(dx, dy)
    if norm < 1e-9:
        dx, dy, norm = 0.0, -1.0, 1.0
    dx, dy = dx / norm, dy / norm
    a = math.radians(30 * (hour % 12))
    # y grows down the map, so this rotation turns clockwise on screen.
    return (dx * math.cos(a) - dy * math.sin(a), dx * math.sin(a) + dy * math.cos(a))


@dataclass(frozen=True)
class Scatter:
    """Where a missed throw went (R-6.10)."""

    clock: int
    multiplier: int
    margin: int
    metres: float  # after the cap at the distance thrown
    wanted_m: float  # before the cap
    origin: str  # 'target' or 'thrower' (a critical failure)
    stopped: bool  # a wall or the map edge stopped it short

    def to_json(self) -> dict[str, Any]:
        """Event form."""
        return {"clock": self.clock, "multiplier": self.multiplier, "margin": self.margin,
                "metres": round(self.metres, 2), "wanted_m": round(self.wanted_m, 2), "from": self.origin,
                "stopped": self.stopped}


def scatter_landing(
    grid: geo.GridMap, thrower: geo.Cell, aim: geo.Cell, *, clock: int, multiplier: int, margin: int,
    thrown_m: float, cf: bool,
) -> tuple[geo.Cell, Scatter]:
    """Where a miss lands (R-6.10): from the target (or, on a CF, from the thrower) toward the clock
    hour, multiplier × margin metres, capped at the distance thrown; a wall or the map edge stops it
    in the last open cell before it (docs/RULES-NOTES.md)."""
    origin_cell = thrower if cf else aim
    wanted = float(multiplier * margin)
    metres = min(wanted, thrown_m)
    vx, vy = clock_vector(geo.centre(thrower), geo.centre(aim), clock)
    ox, oy = geo.centre(origin_cell)
    cells_len = metres / grid.cell_m
    end = (ox + vx * cells_len, oy + vy * cells_len)
    if cells_len < 1e-9:
        return origin_cell, Scatter(clock, multiplier, margin, 0.0, wanted, "thrower" if cf else "target", False)
    path = geo.cells_on_segment(grid, (ox, oy), end)
    landed = origin_cell
    stopped = False
    for c in path[1:]:
        if not grid.inside(c) or bool(grid.blocks_sight[c[1], c[0]]) or not grid.passable(c):
            stopped = True
            break
        landed = c
    if not stopped:
        # The trace may end in a neighbour of the exact point; land on the cell holding the end point.
        cell = (math.floor(end[0]), math.floor(end[1]))
        if grid.inside(cell) and grid.passable(cell) and not grid.blocks_sight[cell[1], cell[0]]:
            landed = cell
    actual = geo.distance_m(origin_cell, landed, grid.cell_m) if stopped else metres
    return landed, Scatter(clock, multiplier, margin, actual, wanted, "thrower" if cf else "target", stopped)


@dataclass(frozen=True)
class Placement:
    """Where a throw came down, from its draw (R-6.10)."""

    read: int
    cf: bool
    total: int
    hit: bool
    landed: geo.Cell
    scatter: Scatter | None
    source: dict[str, Any]


def place_throw(draw: Draw, setup: ShotSetup, grid: geo.GridMap, thrower: geo.Cell, aim: geo.Cell) -> Placement:
    """Read the throw and place it: on the aimed cell on a success, else scattered (R-6.10)."""
    read, total, hit = read_attack(draw, setup)
    if hit:
        return Placement(read.result, read.cf, total, True, aim, None, read.source)
    card = draw.fields
    land, scatter = scatter_landing(grid, thrower, aim, clock=card.clock, multiplier=card.scatter_thrown,
                                    margin=setup.tn - total, thrown_m=setup.distance_m, cf=read.cf)
    return Placement(read.result, read.cf, total, False, land, scatter, read.source)


@dataclass(frozen=True)
class Bystander:
    """A combatant a burst might reach: name, cell, whether it wears armour (R-6.9)."""

    name: str
    cell: geo.Cell
    armoured: bool


def in_blast(grid: geo.GridMap, weapon: Weapon, land: geo.Cell, cell: geo.Cell, armoured: bool) -> str | None:
    """The damage column a burst at `land` reaches `cell` with, or None: out of reach, armoured beyond
    the radius, or shielded by a wall (a straight line from the burst is needed)."""
    dist = geo.distance_m(land, cell, grid.cell_m)
    column = blast_column(weapon, dist, armoured)
    if column is None:
        return None
    s = geo.sight(grid, land, cell)
    return column if s.visible and not s.lean else None


@dataclass(frozen=True)
class ThrowOdds:
    """What a throw is likely to do, for the board and the AI."""

    on_target: float
    full: dict[str, float]  # name -> P(inside the full-damage radius)
    caught: dict[str, float]  # name -> P(reached at all)
    samples: int
    exact: bool

    def among(self, names: Collection[str]) -> ThrowOdds:
        """The odds told of `names` only (a side's view: an enemy it does not see is not named, fog of war)."""
        return replace(self, full={n: p for n, p in self.full.items() if n in names},
                       caught={n: p for n, p in self.caught.items() if n in names})

    def label(self) -> str:
        """Short text for the board."""
        mark = "" if self.exact else "≈"
        inside = ", ".join(f"{n} {p:.0%}" for n, p in sorted(self.full.items(), key=lambda kv: -kv[1]) if p > 0)
        outer = ", ".join(f"{n} {self.caught[n] - self.full[n]:.0%}"
                          for n in sorted(self.caught, key=lambda n: self.full[n] - self.caught[n])
                          if self.caught[n] - self.full[n] > 0.005)
        return (f"{mark}on target {self.on_target:.0%}" + (f"; in the burst: {inside}" if inside else "")
                + (f"; outer ring (unarmoured): {outer}" if outer else ""))


def throw_odds(
    setup: ShotSetup, grid: geo.GridMap, thrower: geo.Cell, aim: geo.Cell, people: Sequence[Bystander], *,
    cards: Sequence[Card] | None, seed: int = 0, place: Callable[..., Placement] | None = None,
) -> ThrowOdds:
    """Odds of a throw over the cards that may come up (exact) or seeded dice rolls (R-6.9, R-6.10); `place`
    reads a draw into where it lands (default `place_throw`; a launch's is `place_launch`, R-6.10)."""
    place = place or place_throw
    draws: list[Draw]
    if cards:
        pile = list(cards)
        draws = []
        for i, card in enumerate(pile):
            deck = Deck([card, *pile[i + 1:], *pile[:i]], random.Random(seed), shuffle=False)
            draws.append(CardDraw(deck.draw(), deck))
    else:
        rng = random.Random(seed)
        draws = [DiceDraw(rng) for _ in range(DICE_SAMPLES)]
    n = len(draws)
    on = 0
    full = {p.name: 0 for p in people}
    caught = {p.name: 0 for p in people}
    for d in draws:
        placed = place(d, setup, grid, thrower, aim)
        on += placed.hit
        for p in people:
            col = in_blast(grid, setup.weapon, placed.landed, p.cell, p.armoured)
            if col is not None:
                caught[p.name] += 1
                full[p.name] += geo.distance_m(placed.landed, p.cell, grid.cell_m) <= setup.weapon.blast_m + 1e-9
    return ThrowOdds(on / n, {k: v / n for k, v in full.items()}, {k: v / n for k, v in caught.items()},
                     n, bool(cards))


def blast_column(weapon: Weapon, distance_m: float, armoured: bool) -> str | None:
    """R-6.9: the damage column at a distance from the burst, or None if it does no harm there."""
    if distance_m <= weapon.blast_m + 1e-9:
        return weapon.damage.column
    if armoured:
        return None
    shift = math.ceil((distance_m - weapon.blast_m) / OUTER_RING_M - 1e-9)
    index = COLUMNS.index(weapon.damage.column) - shift
    return COLUMNS[index] if index >= 0 else None


def blast_reach_m(weapon: Weapon) -> float:
    """The farthest an explosive can harm an unarmoured target (R-6.9)."""
    return weapon.blast_m + OUTER_RING_M * (COLUMNS.index(weapon.damage.column) + 1)


def resolve_blast(
    draw: Draw, weapon: Weapon, column: str, target: TargetState, *, cover: str, cover_av: int,
    distance_m: float,
) -> HitResult:
    """One combatant caught by a burst (R-6.9, R-6.8): the card's standard location is where the blast
    strikes for cover and armour, but explosives take no location rows. A concussion blast (class stun)
    ignores armour and cover that does not block sight and deals all its damage as CT."""
    card = draw.fields
    location = card.hit_stack[card.standard]
    dice = Dice(weapon.damage.row, column)
    reduced = Dice(weapon.reduced.row, column)
    shifted = replace(weapon, damage=dice, reduced=reduced)
    h = HitResult(location=location, box=card.standard)
    if weapon.weapon_class == "stun":
        target = TargetState(size=target.size, armour={})
        cover, cover_av = "none", 0
    setup = ShotSetup(weapon=shifted, column="I", row=1, halve=False, tn=0, tn_mods=(), result_mods=(),
                      distance_m=distance_m, cover=cover, cover_av=cover_av,
                      exposed=frozenset())
    apply_hit(draw, setup, target, card, h, [])
    return h
