"""Exact estimates for the Future*World utility AI, from a side's view only: an attack as the rules would roll it
(skill, R-9.4's conditions, the burst, armour and screen: `Attack`) and its exact odds (`attack_odds`), the
enemies that can shoot at a cell and what they would put through each screen (R-9.6, R-9.8).

Enemies' screens are hidden in a side's view (docs/RULES-NOTES.md): an enemy is taken to show its roster's
usual screen (`default_screen`, `default_points`), less what its own weapon's shots draw from its generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rulesets.fw import (
    FIREARMS,
    SCREEN_STOPS,
    Attack,
    FwUnitView,
    FwWeapon,
    attack_chance,
    attack_odds,
    mounted_chance,
    tables,
    touching,
)

SCREEN_FOR = {cls: screen for screen, cls in SCREEN_STOPS.items()}  # damage class -> the screen that stops it
SPENT = ("grenade", "missile")  # used up when thrown or fired
SWORD_WEIGHT = 3  # a force sword in reach counts this many weapons for the magnetic screen (one point stops it)
USUAL = 0.3  # the chance an enemy keeps its roster's screen against a sword rather than the one we would raise
REACH_WALK = 0.8  # the chance a strike declared at an enemy a walk away finds it still there to strike


def ext(u: UnitView) -> FwUnitView:
    """A figure's Future*World part (ValueError for a figure of another ruleset)."""
    if not isinstance(u.ext, FwUnitView):
        raise ValueError(f"{u.name} is not a Future*World figure (the fw utility AI plays fw scenarios only)")
    return u.ext


def weapon(u: UnitView) -> FwWeapon | None:
    """The firearm the figure fires (its first, as the rules take it when an intent names none)."""
    return _firearm(ext(u).weapons)


@lru_cache(maxsize=1024)
def _firearm(weapons: tuple[str, ...]) -> FwWeapon | None:
    w = tables().weapons
    return next((w[i] for i in weapons if w[i].weapon_class in FIREARMS), None)


def armed(u: UnitView, cls: str) -> list[FwWeapon]:
    """The weapons of class `cls` (melee, grenade, missile) the figure still has (grenades and missiles are
    used up, R-9.10), each once, in kit order."""
    x = ext(u)
    return list(_armed(x.weapons, x.spent, cls))


@lru_cache(maxsize=4096)
def _armed(weapons: tuple[str, ...], spent: tuple[str, ...], cls: str) -> tuple[FwWeapon, ...]:
    w = tables().weapons
    used = cls in SPENT
    return tuple(w[i] for i in dict.fromkeys(weapons) if w[i].weapon_class == cls
                 and (weapons.count(i) > spent.count(i) if used else True))


def sword(u: UnitView) -> FwWeapon | None:
    """The melee weapon the figure swings, if its generator feeds a swing (R-9.8)."""
    return next((w for w in armed(u, "melee") if w.energy <= ext(u).generator), None)


def can_reach(view: BattleView, u: UnitView, at: geo.Cell, frm: geo.Cell | None = None) -> bool:
    """`u` (at `frm`, default its cell) can strike a figure at `at` this round: in contact, or within its move
    and a cell of reach (R-9.2, R-9.4)."""
    frm = u.cell if frm is None else frm
    return touching(view.grid, frm, at) or \
        geo.distance_m(frm, at, view.grid.cell_m) <= ext(u).move_m + view.grid.cell_m


def strike(view: BattleView, me: UnitView, w: FwWeapon, target: UnitView, screen: tuple[str, int] | None = None,
           target_moves: bool = False) -> Shot:
    """The exact odds of a strike at `target` (R-9.4: a knocked-down target +20, a moving one x1/2; R-9.6:
    class F ignores armour, any magnetic point stops it); `screen` as for `shot`."""
    if w.damage is None:
        return NO_SHOT
    conditions = {"knocked_down_target"} if target.prone or ext(target).fallen else set()
    if target_moves:
        conditions.add("moving_target")
    chance = chance_of(base_chance(me, w), frozenset(conditions))
    s = _odds(view, chance, w, target, screen)
    t = ext(target)
    if screen is not None or t.full:
        return s
    usual = _odds(view, chance, w, target, (t.default_screen, t.default_points))  # its roster's screen
    return Shot(chance, (1 - USUAL) * s.mean + USUAL * usual.mean, (1 - USUAL) * s.down + USUAL * usual.down)


def _odds(view: BattleView, chance: int, w: FwWeapon, target: UnitView, screen: tuple[str, int] | None,
          burst: bool = False, always_miss: bool = True, car_screen: tuple[str, int] | None = None) -> Shot:
    assert w.damage is not None
    t = ext(target)
    kind, points = screen if screen is not None else shown_screen(target, view)
    armour = dict(t.armour_stops)
    screens = [(1.0, kind, points)]
    car = _car(view, target)
    if car is not None:  # a rider meets the car's ceramet, then the car's screen in place of its own
        armour = {c: armour.get(c, 0) + car.armour for c in set(armour) | {"P", "B", "L"}}
        screens = [(1.0, *car_screen)] if car_screen is not None else _car_screens(view, target, car)
    mean = down = 0.0
    for share, kind, points in screens:
        attack = Attack.of(chance, w.damage, w.damage_class, impales=w.impales, burst=burst,
                           armour=armour, screen_type=None if kind == "none" or not points else kind,
                           screen=points if kind != "none" else 0, always_miss=always_miss)
        m, d = mean_down(attack, max(t.hp, 1))
        mean, down = mean + share * m, down + share * d
    return Shot(chance, mean, down)


def hit_through(view: BattleView, w: FwWeapon, target: UnitView) -> float:
    """The mean damage a sure hit of `w` puts through `target`'s armour and the screen it is taken to have (its
    car's aboard, R-9.6, R-9.12): what the side's strength weighs a figure's protection by."""
    if w.damage is None:
        return 0.0
    return _odds(view, 100, w, target, None, always_miss=False).mean


def _car(view: BattleView, u: UnitView) -> Any:
    """The grav car `u` rides as the view shows it (R-9.12), or None."""
    name = getattr(u.ext, "aboard", None)
    if name is None:
        return None
    for f in view.units:
        for c in getattr(f.ext, "cars", ()):
            if c.name == name:
                return c
    return None


def _car_screens(view: BattleView, u: UnitView, car: Any) -> list[tuple[float, str, int]]:
    """The screens a rider may meet an attack with, each with its likelihood: its car's (R-9.12). An enemy car's
    split is hidden and its screen is one type (R-9.8), so it is taken at its rated points of each type that stops
    some of our weapons, as likely as the share of our weapons that type stops (a driver may raise any of them;
    a car that does not drive keeps its usual screen): against a mixed side none of its guns counts as stopped
    for sure (issue 13 item 9, scout run: two lasers and a rifle)."""
    if car.full:
        return [(1.0, car.screen, car.screen_points)]
    rated = tables().grav_cars[car.car_type].screen
    if not rated:
        return [(1.0, "none", 0)]
    classes = _gun_classes(view, u)
    if not classes:
        return [(1.0, car.screen, rated)]
    total = sum(classes.values())
    return [(classes[c] / total, SCREEN_FOR[c], rated) for c in sorted(classes)]


def _gun_classes(view: BattleView, u: UnitView) -> dict[str, int]:
    """How many figures of the sides `u` faces (in action, fw's) hold a weapon of each damage class a screen
    stops (R-9.6): what a screen against them is chosen by."""
    classes: dict[str, int] = {}
    for f in view.units:
        fw = weapon(f) if f.side != u.side and not f.out_of_action and isinstance(f.ext, FwUnitView) else None
        if fw is not None and fw.damage_class in SCREEN_FOR:
            classes[fw.damage_class] = classes.get(fw.damage_class, 0) + 1
    return classes


@lru_cache(maxsize=4096)
def chance_of(skill: int, conditions: frozenset[str]) -> int:
    """The chance at `skill` % under R-9.4's `conditions` (kept: asked for every cell of a move)."""
    return attack_chance(skill, conditions).value


@lru_cache(maxsize=1 << 16)
def mean_down(attack: Attack, hp: int) -> tuple[float, float]:
    """(expected damage through, P(at least `hp` through)) of an attack, as floats (exact odds, R-9.4 .. R-9.6),
    kept: the fractions are dear and the same attacks are weighed for every cell of a move."""
    o = attack_odds(attack)
    return float(o.mean), float(o.at_least(hp))


def base_chance(u: UnitView, w: FwWeapon, mounted: bool = False) -> int:
    """Its skill with the weapon: by the weapon's id, else its category, else the table's hand-held chance
    (R-9.1, R-9.5), as the rules read it; from a grav car's mount, the mounted chance (R-9.12)."""
    skills = dict(ext(u).skills)
    if mounted:
        return mounted_chance(w, skills.get(w.id, skills.get(w.category)))
    if w.id in skills:
        return skills[w.id]
    if w.category in skills:
        return skills[w.category]
    return w.chance(mounted=False) or 0


def in_range(view: BattleView, frm: geo.Cell, to: geo.Cell, w: FwWeapon) -> bool:
    """Within the weapon's range (metres, R-9.4)."""
    return w.range_m is None or geo.distance_m(frm, to, view.grid.cell_m) <= w.range_m


def sees(view: BattleView, frm: geo.Cell, to: geo.Cell) -> geo.Sight:
    """Line of sight and cover between two cells (the map's kept table)."""
    return geo.sight(view.grid, frm, to)


def worth(s: Shot, target: UnitView, kill: float) -> float:
    """`Shot.value` for this target (its HP, fallen or not)."""
    t = ext(target)
    return s.value(t.hp, kill, t.fallen)


@dataclass(frozen=True)
class Shot:
    """An attack weighed: its chance, expected damage through, and the chance it puts the target down."""

    chance: int
    mean: float
    down: float

    def value(self, hp: int, kill: float, fallen: bool = False) -> float:
        """HP-equivalent: the expected damage (no more than the HP it has) plus `kill` x HP x P(down); a fallen
        target (crawling, no threat until it rises, R-9.7) counts for FALLEN_WORTH of that."""
        worth = min(self.mean, max(hp, 1)) + kill * max(hp, 1) * self.down
        return worth * FALLEN_WORTH if fallen else worth


NO_SHOT = Shot(0, 0.0, 0.0)
FALLEN_WORTH = 0.6


def shot(view: BattleView, shooter: UnitView, w: FwWeapon, frm: geo.Cell, target: UnitView, to: geo.Cell, *,
         burst: bool = False, firer_moves: bool = False, target_moves: bool = False, target_leaps: bool = False,
         screen: tuple[str, int] | None = None, car_screen: tuple[str, int] | None = None,
         mounted: bool = False) -> Shot:
    """The exact odds of `shooter` firing `w` from `frm` at `target` standing at `to` (R-9.4 .. R-9.6). `screen`:
    the target's (type, points); None reads it as its side's view shows it, an enemy's as its usual one.
    `car_screen`: the screen of the car a rider target rides, in place of the one the view shows (R-9.12)."""
    if w.damage is None:
        return NO_SHOT
    conditions = set()
    if target_moves or target_leaps:
        conditions.add("moving_target")
    if target_leaps:
        conditions.add("target_in_air")
    if sees(view, frm, to).cover != "none":
        conditions.add("covered_target")
    if firer_moves:
        conditions.add("moving_firer")
    from_car = getattr(shooter.ext, "aboard", None) is not None  # a rider's every cell is its car's (a driver flies it)
    if target.prone and not (from_car and getattr(target.ext, "aboard", None) is None):
        conditions.add("prone_target")  # (not from a car's floor, 10 m up: "from a higher elevation", R-9.4/R-9.12)
    if shooter.prone and not firer_moves:
        conditions.add("prone_firer")  # +20 (R-9.4; a figure that walks is on its feet)
    chance = chance_of(base_chance(shooter, w, mounted), frozenset(conditions))
    return _odds(view, chance, w, target, screen, burst, car_screen=car_screen)


def shown_screen(u: UnitView, view: BattleView) -> tuple[str, int]:
    """The screen `u` is taken to have: its own this round if the view shows it (a friend, or itself); an
    enemy's is hidden, so it is taken to answer its enemies' weapons as a sensible player would (the type that
    stops most of the weapons of the side it faces, its usual type on a tie) with what its weapon's shot
    leaves of its generator (R-9.8)."""
    t = ext(u)
    if t.full and t.declared:
        return t.screen, t.screen_points
    if not t.can_act:  # a fallen or unconscious figure declares nothing: it keeps its usual screen
        return t.default_screen, t.default_points
    w = weapon(u)
    spare = max(0, t.generator - (w.shot_energy() if w is not None else 0))
    classes = _gun_classes(view, u)
    for f in view.units:
        if f.side != u.side and not f.out_of_action and isinstance(f.ext, FwUnitView) and sword(f) is not None \
                and can_reach(view, f, u.cell):
            classes["B"] = classes.get("B", 0) + SWORD_WEIGHT  # the magnetic screen stops a sword
    if not classes or not spare:
        return t.default_screen, min(t.default_points, spare)
    kind = max(sorted(SCREEN_FOR[c] for c in classes),
               key=lambda k: (classes[SCREEN_STOPS[k]], k == t.default_screen))
    return kind, spare


def can_burst(u: UnitView, w: FwWeapon) -> bool:
    """A burst is allowed and the generator pays for it (R-9.5, R-9.8)."""
    return w.burst and w.shot_energy(burst=True) <= ext(u).generator


@dataclass(frozen=True)
class Threat:
    """An enemy that can shoot at a cell: how much of its fire is taken to come here (`share`: one over the
    number of our figures it sees) and its weapon."""

    enemy: UnitView
    weapon: FwWeapon
    share: float


@dataclass(frozen=True)
class _Source:
    """An enemy able to act, its firearm and sword, and its fire's shares (cell-free: kept per decision)."""

    enemy: UnitView
    weapon: FwWeapon | None
    sword: FwWeapon | None
    fire_share: float
    sword_share: float


_SOURCES: list[Any] = [None, "", []]  # (the view, the figure, its sources): one decision's, asked at every cell


def _sources(view: BattleView, me: UnitView) -> list[_Source]:
    if _SOURCES[0] is view and _SOURCES[1] == me.name:
        return list(_SOURCES[2])
    out = []
    ours = [u for u in view.units if u.side == me.side and not u.out_of_action and u.name != me.name]
    for e in view.enemies(me):
        if not isinstance(e.ext, FwUnitView) or not e.ext.can_act:
            continue
        w, s = weapon(e), sword(e)
        seen = 0 if w is None else sum(1 for f in ours if in_range(view, e.cell, f.cell, w)
                                        and sees(view, e.cell, f.cell).visible)
        near = 0 if s is None else sum(1 for f in ours if can_reach(view, e, f.cell))
        out.append(_Source(e, w, s, 1.0 / (1 + seen), 1.0 / (1 + near)))
    _SOURCES[:] = [view, me.name, out]
    return list(out)


def threats(view: BattleView, me: UnitView, at: geo.Cell) -> list[Threat]:
    """The enemies (seen or last known) in action that would see `at` and have it in range, with their shares
    (one over the figures of ours besides `me` they would see, or reach); a swordsman that can walk into contact
    with `at` (and has no firearm, or is in contact) threatens a strike."""
    out = []
    for src in _sources(view, me):
        e, w, s = src.enemy, src.weapon, src.sword
        if s is not None and (w is None or touching(view.grid, e.cell, at)):
            if can_reach(view, e, at):
                out.append(Threat(e, s, src.sword_share))
            continue
        if w is None or not in_range(view, e.cell, at, w) or not sees(view, e.cell, at).visible:
            continue
        out.append(Threat(e, w, src.fire_share))
    return out


def incoming(view: BattleView, me: UnitView, at: geo.Cell, ts: list[Threat], screen: tuple[str, int], *,
             moves: bool = False, leaps: bool = False, kill: float = 1.0) -> float:
    """The HP-equivalent `me` is expected to lose at `at` this round to `ts` behind `screen` (each enemy
    firing its burst when it can, R-9.5)."""
    hp = ext(me).hp
    total = 0.0
    for t in ts:
        if t.weapon.weapon_class == "melee":
            s = strike(view, t.enemy, t.weapon, me, screen=screen, target_moves=moves)
        else:
            s = shot(view, t.enemy, t.weapon, t.enemy.cell, me, at, burst=can_burst(t.enemy, t.weapon),
                     target_moves=moves, target_leaps=leaps, screen=screen)
        total += t.share * s.value(hp, kill)
    return total


def best_screen(view: BattleView, me: UnitView, at: geo.Cell, ts: list[Threat], points: int,
                kill: float = 1.0) -> tuple[str, float]:
    """The screen type that saves the most at `at` with `points` (R-9.6, R-9.8), and what it leaves coming
    in; ties go to the type the figure shows by default, then by name."""
    usual = ext(me).default_screen
    best: tuple[float, int, str] | None = None
    kinds = sorted({"magnetic" if t.weapon.weapon_class == "melee" else SCREEN_FOR[t.weapon.damage_class]
                    for t in ts if t.weapon.damage_class in SCREEN_FOR or t.weapon.weapon_class == "melee"})
    for kind in kinds or [usual]:
        left = incoming(view, me, at, ts, (kind, points), kill=kill)
        key = (round(left, 9), 0 if kind == usual else 1, kind)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[2], best[0]
