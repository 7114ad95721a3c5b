"""The fw utility AI's options beyond the firearm (docs/AI.md, "Future*World"): a force-sword strike (R-9.4,
R-9.6), a grenade at the enemy whose place puts the most expected harm on enemies net of friends (R-9.10), a
missile (guided: aimed; seeker: acquires at 100% - 10% x max(0, CM - DCCM), with DCCM beamed at its target,
R-9.9, R-9.10), and countermeasures against the seekers still in the enemy's hands (R-9.9). Every worth is an
exact expectation in HP-equivalents (`estimate.Shot`), on the scale the shots are weighed on.

What a side cannot see it guesses as a sensible player would: an enemy runs CM when our side still holds a
seeker (its effectors, as far as its generator allows), and beams DCCM at a figure it launches a seeker at
(its effectors and sensors, as far as they go).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from skirmish.ai.fw import estimate as est
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rulesets.fw import (
    Attack,
    CarView,
    FwIntent,
    FwUnitView,
    FwWeapon,
    MountView,
    crew_refusal,
    odds,
    p_caught,
    tables,
    touching,
    view_sight,
)

HOARD = 0.5  # HP-equivalent a grenade or missile is kept for (it is used up, R-9.10)
FRIEND = 2.5  # a friend caught in a blast weighs this many enemies: one is never traded for two


@dataclass(frozen=True)
class Armed:
    """An option of the declaration beyond the firearm: label, intent, worth (HP-equivalents), why, energy."""

    label: str
    intent: FwIntent
    worth: float
    why: str
    energy: int


def is_seeker(w: FwWeapon) -> bool:
    """A missile with no to-hit roll (R-9.10)."""
    return w.weapon_class == "missile" and w.base_chance is None


# ---------------------------------------------------------------------------------------------- melee
def melee_options(view: BattleView, me: UnitView, enemies: list[UnitView], kill: float,
                  alive: dict[str, float], danger: dict[str, float]) -> list[Armed]:
    """A strike at each enemy in contact, or within a walk when the figure is not engaged (R-9.2)."""
    w = est.sword(me)
    if w is None:
        return []
    engaged = any(touching(view.grid, me.cell, e.cell) for e in enemies if not e.ghost)
    out = []
    for e in enemies:
        if e.ghost or e.out_of_action:
            continue
        near = touching(view.grid, me.cell, e.cell)
        if not near and (engaged or not est.can_reach(view, me, e.cell)):
            continue
        s = est.strike(view, me, w, e)
        worth = (est.worth(s, e, kill) + danger.get(e.name, 0.0) * s.down) * alive.get(e.name, 1.0) * \
            (1.0 if near else est.REACH_WALK)
        why = f"strike {s.chance}%" + ("" if near else ", walking into contact")
        out.append(Armed(f"strike {e.name}", FwIntent(me.name, "melee", e.name, weapon=w.id), worth, why, w.energy))
    return out


# ---------------------------------------------------------------------------------------------- grenades
def centre(view: BattleView, c: geo.Cell) -> tuple[float, float]:
    """A cell's centre in metres (y down the board)."""
    m = view.grid.cell_m
    return (c[0] + 0.5) * m, (c[1] + 0.5) * m


@lru_cache(maxsize=8192)
def _caught(chance: int, thrower: tuple[float, float], aim: tuple[float, float], at: tuple[float, float],
            radius: float) -> float:
    return float(p_caught(chance, thrower, aim, at, radius))


def blast_value(view: BattleView, g: FwWeapon, p: float, u: UnitView, kill: float, blind: float) -> float:
    """What a blast (or a photon flash) caught with chance `p` takes from `u`, in HP-equivalents (R-9.10)."""
    if p <= 0:
        return 0.0
    t = est.ext(u)
    if g.damage is None:  # a flash: blinded unless a Luck roll (POW x 5), attacking as in the dark (x1/5)
        luck = min(95, t.POW * 5)
        return p * (100 - luck) / 100 * blind
    kind, points = est.shown_screen(u, view)
    a = Attack.of(100, g.damage, g.damage_class, armour=dict(t.armour_stops),
                  screen_type=None if kind == "none" or not points else kind,
                  screen=points if kind != "none" else 0, always_miss=False)
    return est.Shot(100, *_blast(p, a, max(t.hp, 1))).value(t.hp, kill, t.fallen)


@lru_cache(maxsize=1 << 14)
def _blast(p: float, a: Attack, hp: int) -> tuple[float, float]:
    """(mean, P(down)) of a blast caught with chance `p` (`odds.blast_odds`, exact but for `p` itself)."""
    o = odds.blast_odds(Fraction(p).limit_denominator(10 ** 6), a)
    return float(o.mean), float(o.at_least(hp))


def throw_worth(view: BattleView, me: UnitView, g: FwWeapon, frm: geo.Cell, target: UnitView | geo.Cell, kill: float,
                blind: float, moving: bool = False) -> tuple[float, int]:
    """(net worth, chance) of throwing `g` from `frm` at `target`'s place (or a cell): the expected harm to every enemy
    the blast may catch, less FRIEND x that to every friend (the thrower too), less HOARD (R-9.10). The
    scatter's direction is reckoned from the figure's cell now (a walk changes it little)."""
    conditions = {"moving_firer"} if moving else set()
    chance = est.chance_of(est.base_chance(me, g), frozenset(conditions))
    here, aim = centre(view, me.cell), centre(view, target.cell if isinstance(target, UnitView) else target)
    reach = g.blast_radius_m + 10 + view.grid.cell_m  # the radius and a scatter of up to 10 m
    total = 0.0
    for u in view.units:
        if u.out_of_action or (u.ghost and u.side != me.side):
            continue
        at = centre(view, frm) if u.name == me.name else centre(view, u.cell)
        if abs(at[0] - aim[0]) > reach or abs(at[1] - aim[1]) > reach:
            continue
        v = blast_value(view, g, _caught(chance, here, aim, at, g.blast_radius_m), u, kill, blind)
        total += -FRIEND * v if u.side == me.side else v
    return total - HOARD, chance


def grenade_options(view: BattleView, me: UnitView, in_sight: list[UnitView], kill: float,
                    blind: float) -> list[Armed]:
    """A throw at each enemy in sight and in range, for each kind of grenade it still has (R-9.10); never at a
    rider of a grav car (10 m up: the rules refuse the throw and no blast reaches it, R-9.12)."""
    out = []
    in_sight = [e for e in in_sight if getattr(e.ext, "aboard", None) is None]
    for g in est.armed(me, "grenade"):
        for e in in_sight:
            if geo.distance_m(me.cell, e.cell, view.grid.cell_m) > (g.range_m or 15):
                continue
            worth, chance = throw_worth(view, me, g, me.cell, e, kill, blind)
            out.append(Armed(f"throw {g.id} at {e.name}", FwIntent(me.name, "throw", e.name, weapon=g.id), worth,
                             f"thrown at {chance}%, net of friends", 0))
        for c in between(view, me, in_sight, g):  # a cell between two enemies, to catch both
            worth, chance = throw_worth(view, me, g, me.cell, c, kill, blind)
            out.append(Armed(f"throw {g.id} at {c[0]},{c[1]}", FwIntent(me.name, "throw", at=c, weapon=g.id), worth,
                             f"thrown at {chance}% between enemies, net of friends", 0))
    return out


def between(view: BattleView, me: UnitView, in_sight: list[UnitView], g: FwWeapon) -> list[geo.Cell]:
    """Free cells worth aiming a grenade at between pairs of enemies in sight whose places its blast could both
    reach (R-9.10): each pair's midpoint cell (rounded down and up) and its neighbours, within the grenade's range
    and in sight; an enemy's own cell is its figure's option."""
    reach, cell_m = g.range_m or 15, view.grid.cell_m
    taken = {u.cell for u in view.units if not u.out_of_action}
    out: list[geo.Cell] = []
    for i, a in enumerate(in_sight):
        for b in in_sight[i + 1:]:
            if geo.distance_m(a.cell, b.cell, cell_m) > 2 * g.blast_radius_m:
                continue
            mids = {((a.cell[0] + b.cell[0]) // 2, (a.cell[1] + b.cell[1]) // 2),
                    (-(-(a.cell[0] + b.cell[0]) // 2), -(-(a.cell[1] + b.cell[1]) // 2))}
            for mx, my in sorted(mids):
                for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                    c = (mx + dx, my + dy)
                    if c in out or c in taken or not view.grid.inside(c) or not view.grid.passable(c):
                        continue
                    if geo.distance_m(me.cell, c, cell_m) <= reach and est.sees(view, me.cell, c).visible:
                        out.append(c)
    return out


# ---------------------------------------------------------------------------------------------- missiles
def enemy_cm(view: BattleView, target: UnitView) -> int:
    """The CM a target is taken to run against our seekers (its effectors, as its generator allows; R-9.9)."""
    t = est.ext(target)
    if t.full and t.declared:
        return 0  # a friend's split is in the view; missiles are not fired at friends
    return min(t.effectors, t.generator)


def missile_shot(view: BattleView, me: UnitView, w: FwWeapon, frm: geo.Cell, target: UnitView, dccm: int,
                 moving: bool = False) -> est.Shot:
    """The exact odds of a missile at `target`: a guided one as a shot (R-9.4), a seeker by acquisition after
    the target's CM less `dccm` (R-9.10)."""
    if not is_seeker(w):
        return est.shot(view, me, w, frm, target, target.cell, firer_moves=moving)
    assert w.damage is not None
    t = est.ext(target)
    acq = max(0, 100 - 10 * max(0, enemy_cm(view, target) - dccm))
    kind, points = est.shown_screen(target, view)
    a = Attack.of(acq, w.damage, w.damage_class, armour=dict(t.armour_stops),
                  screen_type=None if kind == "none" or not points else kind,
                  screen=points if kind != "none" else 0, always_miss=False)
    return est.Shot(acq, *est.mean_down(a, max(t.hp, 1)))


def dccm_points(me: UnitView, target: UnitView, view: BattleView) -> int:
    """DCCM worth beaming at a seeker's target: up to the CM it is taken to run, as effectors and sensors and
    the generator allow (R-9.9)."""
    x = est.ext(me)
    return min(x.effectors, x.sensors, x.generator, enemy_cm(view, target))


def missile_options(view: BattleView, me: UnitView, in_sight: list[UnitView], kill: float,
                    alive: dict[str, float], danger: dict[str, float]) -> list[Armed]:
    """A launch at each enemy in line of sight, for each kind of missile it still has (R-9.10); a seeker
    with DCCM at its target (R-9.9)."""
    out = []
    for m in est.armed(me, "missile"):
        for e in in_sight:
            dccm = dccm_points(me, e, view) if is_seeker(m) else 0
            s = missile_shot(view, me, m, me.cell, e, dccm)
            worth = (est.worth(s, e, kill) + danger.get(e.name, 0.0) * s.down) * alive.get(e.name, 1.0) - HOARD
            fi = FwIntent(me.name, "launch", e.name, weapon=m.id, dccm=dccm, dccm_at=e.name if dccm else None)
            why = (f"acquires {s.chance}%" + (f", DCCM {dccm}" if dccm else "")) if is_seeker(m) \
                else f"hit chance {s.chance}%"
            out.append(Armed(f"launch {m.id} at {e.name}", fi, worth, why, dccm))
    return out


# ---------------------------------------------------------------------------------------------- countermeasures
def seeker_threat(view: BattleView, me: UnitView, at: geo.Cell, kill: float) -> tuple[float, int]:
    """(HP-equivalent a CM point saves, the enemy DCCM it must beat) against the enemies that hold a seeker and
    see `at`: each seeker's expected worth at full acquisition, shared among the figures it sees, 10% a net
    CM point (R-9.9, R-9.10). Their DCCM is taken to be all they can beam."""
    per_point, dccm = 0.0, 0
    ours = [u for u in view.units if u.side == me.side and not u.out_of_action and u.name != me.name]
    for e in view.enemies(me):
        seekers = [m for m in est.armed(e, "missile") if is_seeker(m)]
        if not seekers or not est.ext(e).can_act or not est.sees(view, e.cell, at).visible:
            continue
        m = seekers[0]
        assert m.damage is not None
        t = est.ext(me)
        a = Attack.of(100, m.damage, m.damage_class, armour=dict(t.armour_stops), always_miss=False)
        whole = est.Shot(100, *est.mean_down(a, max(t.hp, 1))).value(t.hp, kill)
        share = 1.0 / (1 + sum(1 for f in ours if est.sees(view, e.cell, f.cell).visible))
        per_point += share * whole / 10
        x = est.ext(e)
        dccm = max(dccm, min(x.effectors, x.sensors, x.generator))
    return per_point, dccm


def cm_options(view: BattleView, me: UnitView, kill: float) -> tuple[int, float]:
    """(CM points, HP-equivalent they save) against the seekers in play (R-9.9), or (0, 0.0)."""
    x = est.ext(me)
    if not x.effectors:
        return 0, 0.0
    per_point, dccm = seeker_threat(view, me, me.cell, kill)
    if per_point <= 0:
        return 0, 0.0
    cm = min(x.effectors, x.generator, dccm + 10)
    return cm, per_point * max(0, cm - dccm)


# ---------------------------------------------------------------------------------------------- movement
def armed_at(view: BattleView, me: UnitView, act: str, weapon: str | None, dccm: int, target: UnitView | geo.Cell,
             c: geo.Cell, moving: bool, kill: float, blind: float) -> tuple[float, int]:
    """(worth, chance) of the strike, throw or launch declared at `target`, for the figure ending its movement
    segment at `c` (R-9.2): a strike from contact only (R-9.4); a throw within range and sight, a moving
    thrower at half chance (R-9.10); a missile in line of sight (R-9.10). A throw's target may be a cell."""
    aim = target.cell if isinstance(target, UnitView) else target
    if act == "melee":
        assert isinstance(target, UnitView)
        w = est.sword(me)
        if w is None or not touching(view.grid, c, target.cell):
            return 0.0, 0
        s = est.strike(view, me, w, target)
        return est.worth(s, target, kill), s.chance
    cls = "grenade" if act == "throw" else "missile"
    kit = est.armed(me, cls)
    w = next((k for k in kit if k.id == weapon), kit[0] if kit else None)
    if w is None or not est.sees(view, c, aim).visible:
        return 0.0, 0
    if act == "throw":
        if geo.distance_m(c, aim, view.grid.cell_m) > (w.range_m or 15):
            return 0.0, 0
        worth, chance = throw_worth(view, me, w, c, target, kill, blind, moving)
        return worth + HOARD, chance  # declared: the grenade is spent either way
    assert isinstance(target, UnitView)
    s = missile_shot(view, me, w, c, target, dccm, moving)
    return est.worth(s, target, kill), s.chance


# ---------------------------------------------------------------------------------------------- grav-car mounts
def mount_weapon(me: UnitView, car: CarView, m: MountView) -> FwWeapon | None:
    """What `me` would fire from mount `m` of the car it rides (R-9.12), or None: the mount's own weapon, else
    its first weapon of the category an empty mount takes; none if its crew rule refuses `me`, another rider
    works it this round, or its rack is empty."""
    gc = tables().grav_cars[car.car_type]
    mount = gc.mount(m.id)
    if mount is None or crew_refusal(gc, mount, me.name, car.driver == me.name) or m.gunner not in (None, me.name) \
            or m.left == 0:
        return None
    weapons = tables().weapons
    wid = m.weapon or next((w for w in est.ext(me).weapons if weapons[w].category == m.takes
                            and weapons[w].weapon_class != "missile"), None)  # (a gun: rules.fw.mounts.load_refusal)
    return None if wid is None else weapons[wid]


def car_points_free(car: CarView) -> int:
    """Weapon points the car's mounts may still draw this round as its side sees it (R-9.8): its driver's split's
    when it drives, else the generator's rest after its screen (a driver who declares later keeps them)."""
    have = car.weapons if car.drives else car.generator - car.screen_points
    return max(0, have - car.drawn)


def mount_options(view: BattleView, me: UnitView, enemies: list[UnitView], kill: float,
                  alive: dict[str, float], danger: dict[str, float]) -> list[Armed]:
    """Fire from a mount of the car `me` rides (R-9.12) at each enemy in sight (in the vertical) and range: the
    mounted chance (a semi-portable's 20%, not 5%, R-9.5), a burst where the weapon fires one, each within the
    car's free weapon points (R-9.8: the car pays, not the rider's tacpack, so its energy here is 0)."""
    x = me.ext
    if not isinstance(x, FwUnitView) or x.aboard is None:
        return []
    car = next((c for c in x.cars if c.name == x.aboard), None)
    if car is None:
        return []
    out = []
    for m in car.mounts:
        w = mount_weapon(me, car, m)
        if w is None:
            continue
        for e in enemies:
            if e.ghost or e.out_of_action or not est.in_range(view, me.cell, e.cell, w) or \
                    not view_sight(view, me, e.cell, e).visible:
                continue
            if w.weapon_class == "missile":
                acts: tuple[str, ...] = ("launch",)
            else:
                acts = ("shoot", "burst") if w.burst else ("shoot",)
            for act in acts:
                if w.shot_energy(burst=act == "burst") > car_points_free(car):
                    continue
                if act == "launch":
                    s = missile_shot(view, me, w, me.cell, e, 0, False)
                else:
                    s = est.shot(view, me, w, me.cell, e, e.cell, burst=act == "burst", mounted=True)
                worth = (est.worth(s, e, kill) + danger.get(e.name, 0.0) * s.down) * alive.get(e.name, 1.0)
                worth -= HOARD if act == "launch" else 0.0  # a missile off the rack is spent
                fi = FwIntent(me.name, act, e.name, weapon=w.id, mount=m.id)
                out.append(Armed(f"{act} {e.name} from the {m.name}", fi, worth, f"mounted {s.chance}%", 0))
    return out
