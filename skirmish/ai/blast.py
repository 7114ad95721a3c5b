"""Where to throw an explosive: the expected harm of a throw aimed at a cell, to enemies and to friends, from
the rules' own numbers (R-6.9 blast, R-6.10 throw and scatter), for every candidate cell at once.

A throw aimed at a cell lands on it when the check succeeds; a miss scatters from it (a critical failure from
the thrower) toward the card's clock hour, thrown multiplier × miss margin metres, capped at the distance
thrown and stopped by a wall or the map's edge (`rules/fi/thrown.py`). The miss margins come from the
thrower's exact dice distribution (as `estimate.throw_chance`), the multipliers and clock hours from deck A's
frequencies. Where it lands, the burst harms each combatant it reaches (full radius; the outer ring only the
unarmoured; a wall shields) by the expected damage of one hit with the cover seen from the burst
(`estimate`'s per-hit model; a concussion blast ignores armour and cover and deals CT only).

Everything is numpy over candidate cells × scatter outcomes, except one line-of-sight lookup per landing
cell and combatant in reach (memoised by `geometry.sight`). Pure functions of the view (STYLE 9).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from skirmish.ai.estimate import SCATTER_THROWN, effect_pmf, firer_mounted, per_hit_now
from skirmish.core.legal import LazyCells
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.checks import tn
from skirmish.rules.deck import SIDES
from skirmish.rules.dice import pool_pmf
from skirmish.rules.equipment import Dice, Weapon
from skirmish.rulesets.fi import MOUNTED_MOD
from skirmish.rulesets.fi import thrown as thr

FRIEND_WEIGHT = 1.5  # harm to a friend (or the thrower) counts this many times harm to an enemy
CLOCK_P = np.array([(5 if h % 2 == 0 else 4) / 54 for h in range(1, 13)])  # deck A: 4 or 5 cards per hour
MIN_P = 1e-3  # scatter outcomes less likely than this are left out (their harm is spread thin anyway)
STEP = 0.25  # cells between the points a scatter's path is checked at for walls
MAX_CANDIDATES = 96  # cells weighed per explosive at most (a crowd of enemies on a fine grid): the best by reach
MOVED_MODIFIER = {"none": 0, "walked": -1, "ran": -2}  # the thrower's own movement


@dataclass(frozen=True)
class Spread:
    """Where a throw at one distance comes down: on the aimed cell with `on`, else a scatter of so many
    metres (before the cap) from the aimed cell (`near`) or, on a critical failure, from the thrower (`cf`)."""

    on: float
    near: tuple[tuple[float, float], ...]  # (metres, probability)
    cf: tuple[tuple[float, float], ...]

    def covers(self, blast_m: float) -> float:
        """P(the burst still covers the aimed cell): on target, or scattered no farther than the radius (the
        figure `estimate.throw_chance` gives)."""
        return self.on + sum(p for m, p in self.near if m <= blast_m)


def throw_spread(me: UnitView, weapon: Weapon, dist_m: float, scope: str, mounted: bool = False) -> Spread:
    """The landing distribution of a throw by `me` over `dist_m` (R-6.10), from its exact dice pool; `mounted`:
    from the saddle (R-6.1, MOUNTED_MOD)."""
    return _spread(me.trait("strength")[0], me.trait("dexterity"), me.skill(weapon.skill),
                   -min(3, me.wounds) + MOVED_MODIFIER.get(me.moved, 0) + (MOUNTED_MOD if mounted else 0), dist_m,
                   scope)


@lru_cache(maxsize=512)
def _spread(strength: str, dexterity: tuple[str, int], level: int, mod: int, dist_m: float, scope: str) -> Spread:
    target_tn, _ = thr.throw_tn(dist_m, strength, tn("standard", scope))  # type: ignore[arg-type]
    col, training = dexterity
    halve = not level
    on, cf = 0.0, 0.0
    margins: dict[int, float] = {}
    for v, p in pool_pmf(SIDES[col], level or training, target_tn - mod):
        if v <= 0:
            cf += p  # a CF totals 0: it misses by the whole TN, from the thrower
            continue
        margin = target_tn - ((v // 2 if halve else v) + mod)
        if margin <= 0:
            on += p
        else:
            margins[margin] = margins.get(margin, 0.0) + p
    near: dict[float, float] = {}
    for margin, p in margins.items():
        for mult, q in SCATTER_THROWN.items():
            near[float(mult * margin)] = near.get(float(mult * margin), 0.0) + p * q
    far = {float(mult * target_tn): cf * q for mult, q in SCATTER_THROWN.items()} if cf else {}
    return Spread(on, tuple(sorted(near.items())), tuple(sorted(far.items())))


@dataclass(frozen=True)
class ThrowPlan:
    """Expected outcome of a throw aimed at each candidate cell (arrays aligned with `cells`)."""

    weapon: Weapon
    cells: tuple[geo.Cell, ...]
    enemy_harm: npt.NDArray[np.float64]  # expected harm summed over the enemies in sight (harm scale, uncapped)
    enemy_kill: npt.NDArray[np.float64]  # expected enemies put out of action
    friend_harm: npt.NDArray[np.float64]  # expected harm summed over the thrower and its friends
    covers: npt.NDArray[np.float64]  # P(the burst covers the aimed cell)
    caught: tuple[tuple[str, ...], ...]  # enemies a burst right on the cell would reach

    @property
    def net(self) -> npt.NDArray[np.float64]:
        """Harm to enemies net of friends (FRIEND_WEIGHT)."""
        return self.enemy_harm - FRIEND_WEIGHT * self.friend_harm

    def best(self) -> int | None:
        """Index of the cell with the most harm net of friends (ties: the first, cells in reading order), or
        None if no cell does net harm."""
        if not self.cells:
            return None
        net = self.net
        i = int(np.argmax(net))
        return i if net[i] > 0 else None


def candidate_cells(view: BattleView, me: UnitView, weapon: Weapon, legal: Iterable[geo.Cell]) -> list[geo.Cell]:
    """The legal cells worth weighing: within the burst's radius (plus half a cell) of an enemy in sight, so
    cells on an enemy, between enemies and beside one in cover (to flush it out) are all among them; at most
    MAX_CANDIDATES, those whose burst reaches the most enemies first (reading order)."""
    grid = view.grid
    seen = [e.cell for e in view.enemies(me) if not e.ghost]
    if not seen:
        return []
    reach = (weapon.blast_m + grid.cell_m / 2) / grid.cell_m
    every = _near_legal(legal, seen, reach)  # (n, 2): x, y (every legal cell near an enemy among them)
    if not len(every):
        return []
    en = np.array(seen)
    # The legal cells near an enemy, then in reading order: the cells (and every number below) that sorting all
    # of them first and keeping the near ones gives, in the same order (a cell's distances read only itself).
    near_any = np.hypot(every[:, None, 0] - en[None, :, 0], every[:, None, 1] - en[None, :, 1]).min(axis=1)
    arr = every[near_any <= reach + 1e-9]
    if not len(arr):
        return []
    arr = arr[np.lexsort((arr[:, 0], arr[:, 1]))]  # reading order: by y, then x (the cells are distinct)
    cells: list[geo.Cell] = [(x, y) for x, y in arr.tolist()]
    d = np.hypot(arr[:, None, 0] - en[None, :, 0], arr[:, None, 1] - en[None, :, 1])  # (cells, enemies)
    near = d.min(axis=1)
    keep = np.nonzero(near <= reach + 1e-9)[0]
    if len(keep) > MAX_CANDIDATES:  # the cells whose burst reaches the most enemies, then the closest to one
        inside = (d[keep] <= weapon.blast_m / grid.cell_m + 1e-9).sum(axis=1)
        order = np.lexsort((keep, near[keep], -inside))[:MAX_CANDIDATES]
        keep = np.sort(keep[order])
    return [cells[i] for i in keep.tolist()]


def _near_legal(legal: Iterable[geo.Cell], seen: list[geo.Cell], reach: float) -> npt.NDArray[np.int64]:
    """The legal cells within `reach` cells of an enemy in `seen`, and maybe a few more, as an (n, 2) array of x, y:
    for a set (the battle's throw cells), the cells of the squares round the enemies that are in it (a few dozen
    look-ups, not every legal cell turned into an array; a legal list's cells not worked out yet are asked about
    those cells alone, `LazyCells.among`: its sight is not looked up for every cell in the thrower's reach); any
    other iterable, every cell."""
    if not isinstance(legal, (frozenset, set, LazyCells)):
        return np.array(list(legal), dtype=np.int64).reshape(-1, 2)
    # Every cell within `reach` of an enemy lies in the square of half-side r round it; of the square, only the
    # disc is asked about (the offsets within reach + 1e-6: the cells `candidate_cells` keeps, within reach + 1e-9,
    # and maybe a few more): a third of the square's cells, each a legal-list look (a throw's sight, R-6.10).
    near = list({(x + dx, y + dy) for x, y in seen for dx, dy in _disc(reach)})
    ok = legal.among(near) if isinstance(legal, LazyCells) else [c in legal for c in near]
    return np.array([c for c, yes in zip(near, ok, strict=True) if yes], dtype=np.int64).reshape(-1, 2)


@lru_cache(maxsize=64)
def _disc(reach: float) -> tuple[tuple[int, int], ...]:
    """The offsets (dx, dy) within `reach` + 1e-6 cells (`np.hypot`, as `candidate_cells` measures), in the
    square of half-side int(reach) + 1's order."""
    r = int(reach) + 1
    return tuple((dx, dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
                 if float(np.hypot(float(dx), float(dy))) <= reach + 1e-6)


def plan_throws(view: BattleView, me: UnitView, weapon: Weapon, cells: Sequence[geo.Cell],
                spread: Callable[[float], Spread] | None = None) -> ThrowPlan:
    """The expected harm of a throw by `me` aimed at each of `cells`: to the enemies in sight, to its friends
    and itself, over every landing the rules allow (R-6.9, R-6.10). `spread` gives the landing distribution by
    distance (default: a throw's, `throw_spread`; a launch has its own, ai/utility/ranged_extra.py)."""
    grid = view.grid
    n = len(cells)
    if n == 0:
        z = np.zeros(0)
        return ThrowPlan(weapon, (), z, z, z, z, ())
    if spread is None:  # throw_spread's, with what it reads of the thrower read once
        mounted = firer_mounted(view, me)  # a rider's throw, −2
        fixed = (me.trait("strength")[0], me.trait("dexterity"), me.skill(weapon.skill),
                 -min(3, me.wounds) + MOVED_MODIFIER.get(me.moved, 0) + (MOUNTED_MOD if mounted else 0))
        spread = lambda d: _spread(*fixed, d, view.scope)  # noqa: E731
    spreads = [spread(geo.distance_m(me.cell, c, grid.cell_m)) for c in cells]
    covers = np.array([s.covers(weapon.blast_m) for s in spreads])
    aim_idx, lx, ly, prob = landings(grid, me.cell, cells, spreads)
    flat = ly * grid.width + lx
    uniq, inverse = np.unique(flat, return_inverse=True)
    px, py = uniq % grid.width, uniq // grid.width  # the places it may land, each once
    enemies = [e for e in view.enemies(me) if not e.ghost]
    friends = [me, *view.friends(me)]
    e_harm, e_kill = burst_harm(grid, weapon, px, py, enemies)
    f_harm, _ = burst_harm(grid, weapon, px, py, friends)
    enemy_harm = np.bincount(aim_idx, weights=prob * e_harm[inverse], minlength=n).astype(np.float64)
    enemy_kill = np.bincount(aim_idx, weights=prob * e_kill[inverse], minlength=n).astype(np.float64)
    friend_harm = np.bincount(aim_idx, weights=prob * f_harm[inverse], minlength=n).astype(np.float64)
    caught = tuple(tuple(e.name for e in enemies if thr.in_blast(grid, weapon, c, e.cell, armoured(e)) is not None)
                   for c in cells)
    return ThrowPlan(weapon, tuple(cells), enemy_harm, enemy_kill, friend_harm, covers, caught)


def landings(grid: geo.GridMap, thrower: geo.Cell, cells: Sequence[geo.Cell], spreads: Sequence[Spread]
             ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Where throws from `thrower` aimed at each of `cells` (with their spreads) come down, as rows (aim index,
    landing x, landing y, probability); an aim's rows sum to 1 but for outcomes under MIN_P (R-6.10)."""
    n = len(cells)
    aims = np.array(cells, dtype=np.float64) + 0.5
    here = np.array(thrower, dtype=np.float64) + 0.5
    dist_cells = np.hypot(aims[:, 0] - here[0], aims[:, 1] - here[1])
    # The clock's 12 o'clock points from the thrower through the aimed cell, hours turning clockwise.
    to = aims - here
    norm = np.hypot(to[:, 0], to[:, 1])
    ux = np.where(norm > 1e-9, to[:, 0] / np.maximum(norm, 1e-9), 0.0)
    uy = np.where(norm > 1e-9, to[:, 1] / np.maximum(norm, 1e-9), -1.0)
    ang = np.radians(30 * (np.arange(1, 13) % 12))
    vx = ux[:, None] * np.cos(ang)[None, :] - uy[:, None] * np.sin(ang)[None, :]  # (n, 12)
    vy = ux[:, None] * np.sin(ang)[None, :] + uy[:, None] * np.cos(ang)[None, :]
    rows_aim: list[npt.NDArray[np.int64]] = [np.arange(n)]
    rows_x: list[npt.NDArray[np.float64]] = [aims[:, 0]]
    rows_y: list[npt.NDArray[np.float64]] = [aims[:, 1]]
    rows_p: list[npt.NDArray[np.float64]] = [np.array([s.on for s in spreads])]
    kinds: dict[int, tuple[_Outcomes, _Outcomes]] = {}  # each spread's outcomes as arrays, once per spread object
    for s in spreads:
        if id(s) not in kinds:
            kinds[id(s)] = (_outcomes(s.near), _outcomes(s.cf))
    for from_thrower in (False, True):
        ox = np.full(n, here[0]) if from_thrower else aims[:, 0]
        oy = np.full(n, here[1]) if from_thrower else aims[:, 1]
        # One row of 12 hours per (aim, outcome) of at least MIN_P, aims in order and each aim's outcomes in
        # order: the rows (and so every later sum over them) come in the order a loop over them would give.
        per = [kinds[id(s)][1 if from_thrower else 0] for s in spreads]
        metres = np.concatenate([m for m, _ in per])
        if not len(metres):
            continue
        # Each (aim, hour) ray is checked for walls once, out to the longest scatter it may take.
        longest = float(metres.max())
        if longest <= 0:
            continue
        stop = _open_length(grid, ox, oy, vx, vy, min(longest / grid.cell_m, float(dist_cells.max())))
        idx = np.repeat(np.arange(n, dtype=np.int64), [len(m) for m, _ in per])
        cap = np.minimum(metres / grid.cell_m, dist_cells[idx])
        length = np.minimum(cap[:, None], stop[idx])  # (rows, 12): the scatter, capped, stopped by walls
        rows_aim.append(np.repeat(idx, 12))
        rows_x.append((ox[idx][:, None] + vx[idx] * length).ravel())
        rows_y.append((oy[idx][:, None] + vy[idx] * length).ravel())
        rows_p.append((np.concatenate([p for _, p in per])[:, None] * CLOCK_P[None, :]).ravel())
    aim_idx = np.concatenate(rows_aim)
    lx = np.clip(np.floor(np.concatenate(rows_x)), 0, grid.width - 1).astype(np.int64)
    ly = np.clip(np.floor(np.concatenate(rows_y)), 0, grid.height - 1).astype(np.int64)
    return aim_idx.astype(np.int64), lx, ly, np.concatenate(rows_p)


_Outcomes = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]


def _outcomes(pairs: tuple[tuple[float, float], ...]) -> _Outcomes:
    """A spread's (metres, probability) pairs of at least MIN_P, as two arrays in their order."""
    kept = [(m, p) for m, p in pairs if p >= MIN_P]
    return np.array([m for m, _ in kept], dtype=np.float64), np.array([p for _, p in kept], dtype=np.float64)


def _open_length(grid: geo.GridMap, ox: npt.NDArray[np.float64], oy: npt.NDArray[np.float64],
                 vx: npt.NDArray[np.float64], vy: npt.NDArray[np.float64], longest: float) -> npt.NDArray[np.float64]:
    """How far (in cells) each ray (origin i, hour h) runs before a wall, an impassable cell or the map's edge:
    the last point checked before the first blocked one (a scatter stops in the last open cell, R-6.10)."""
    steps = np.arange(0.0, longest + STEP, STEP)  # (s,)
    px = ox[:, None, None] + vx[:, :, None] * steps[None, None, :]  # (n, 12, s)
    py = oy[:, None, None] + vy[:, :, None] * steps[None, None, :]
    # The cell of each point on the map padded with a shut ring (`_shut`): a point off the map falls in the ring
    cx = np.clip(np.floor(px), -1, grid.width).astype(np.int64)
    cy = np.clip(np.floor(py), -1, grid.height).astype(np.int64)
    blocked = _shut(grid)[(cy + 1) * (grid.width + 2) + cx + 1]
    blocked[:, :, 0] = False  # the origin itself (the aimed cell, or the thrower's) is open
    first = np.where(blocked.any(axis=2), blocked.argmax(axis=2), len(steps))
    out: npt.NDArray[np.float64] = steps[np.maximum(first - 1, 0)]
    return np.where(first >= len(steps), np.inf, out)


def _shut(grid: geo.GridMap) -> npt.NDArray[np.bool_]:
    """Where a scatter stops (`_open_length`), flat on the map padded with a ring of shut cells ((y + 1) * (width + 2)
    + x + 1): a wall, an impassable cell, or off the map. Kept with the map (it reads nothing else)."""
    got: npt.NDArray[np.bool_] | None = grid.kept.get("ai_scatter_shut")
    if got is None:
        pad = np.ones((grid.height + 2, grid.width + 2), dtype=bool)
        pad[1:-1, 1:-1] = grid.blocks_sight | (grid.move_cost <= 0)
        got = grid.kept["ai_scatter_shut"] = pad.ravel()
        got.flags.writeable = False
    return got


def armoured(u: UnitView) -> bool:
    """Wears armour with AV left (R-6.9: it keeps out the outer ring of a burst)."""
    return any(av > 0 for _, _, av in u.armour)


def burst_harm(grid: geo.GridMap, weapon: Weapon, xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64],
               people: Sequence[UnitView]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """For a burst at each landing cell (xs[i], ys[i]): the harm summed over `people` and the expected number put
    out of action (R-6.9: full radius, the outer ring only for the unarmoured, a wall between shields)."""
    harm_sum = np.zeros(len(xs))
    kills = np.zeros(len(xs))
    if not len(xs) or not people:
        return harm_sum, kills
    wkey = _weapon_key(weapon)
    for u in people:
        arm = armoured(u)
        reach = (weapon.blast_m if arm else thr.blast_reach_m(weapon)) / grid.cell_m
        d = np.hypot(xs - u.cell[0], ys - u.cell[1])
        target: _Target | None = None
        for i in np.nonzero(d <= reach + 1e-9)[0].tolist():
            land = (int(xs[i]), int(ys[i]))
            dist = float(d[i]) * grid.cell_m
            column = thr.blast_column(weapon, dist, arm)
            s = geo.sight(grid, land, u.cell)
            if column is None or not s.visible or s.lean:
                continue
            if target is None:
                target = _target(u)
            h, k = _kept_harm(weapon, wkey, column, target, s.cover, s.cover_av, dist)
            harm_sum[i] += h
            kills[i] += k
    return harm_sum, kills


def hit_harm(weapon: Weapon, column: str, u: UnitView, cover: str, cover_av: int, dist: float) -> tuple[float, float]:
    """(harm, kill chance) of one combatant caught by a burst at `column` (R-6.9, R-6.8): harm on the shots'
    scale (`scoring.harm`: expected wounds and CT at a sixth, over three, plus the kill chance, capped at 1)."""
    return _kept_harm(weapon, _weapon_key(weapon), column, _target(u), cover, cover_av, dist)


def _weapon_key(weapon: Weapon) -> tuple[object, ...]:
    """Everything per_hit_now reads of the weapon (`hit_harm`'s memo key)."""
    return (weapon.id, weapon.damage, weapon.reduced, weapon.weapon_class, tuple(sorted(weapon.pn.items())), weapon.ae)


def _target(u: UnitView) -> _Target:
    return _Target(u.armour, u.size, u.wounds, u.ct, u.screen_type, u.screen_points)


def _kept_harm(weapon: Weapon, wkey: tuple[object, ...], column: str, target: _Target, cover: str, cover_av: int,
               dist: float) -> tuple[float, float]:
    """`hit_harm` with the weapon's key and the target made (`burst_harm` makes them once per weapon and person)."""
    key = (*wkey, column, target, cover, cover_av, round(dist, 3))
    got = _HARM.get(key)
    if got is None:
        if len(_HARM) > HARM_KEPT:
            _HARM.clear()
        got = _HARM[key] = _hit_harm(weapon, column, target, cover, cover_av, dist)
    return got


HARM_KEPT = 4096  # per-hit harms kept (by weapon, column, kind of target and cover) before starting again
_HARM: dict[tuple[object, ...], tuple[float, float]] = {}  # a memo only: same inputs, same numbers


def _hit_harm(weapon: Weapon, column: str, target: _Target, cover: str, cover_av: int, dist: float
              ) -> tuple[float, float]:
    if weapon.weapon_class == "stun":  # concussion: no armour or cover that leaves sight, all damage as CT
        pmf = effect_pmf(SIDES[column], weapon.damage.row)
        d = np.arange(len(pmf))
        mean = float((pmf * d).sum())
        kill = float(pmf[d >= max(1, target.ct)].sum())
        return min(1.0, mean / 18 + kill), kill
    shifted = replace(weapon, damage=Dice(weapon.damage.row, column), reduced=Dice(weapon.reduced.row, column))
    # per_hit_now, not estimate's kept _per_hit: `shifted` is a new object each time (kept by id, it would
    # only fill that cache), and _HARM above keeps the answer.
    _, w, c, kill = per_hit_now(shifted, target, cover, cover_av, False, dist)  # type: ignore[arg-type]
    return min(1.0, (w + c / 6) / 3 + kill), kill


@dataclass(frozen=True)
class _Target:
    """The fields of a unit the per-hit model reads (so its result can be kept per kind of target)."""

    armour: tuple[tuple[str, str, int], ...]
    size: int
    wounds: int
    ct: int
    screen_type: str
    screen_points: int

