"""Grav cars for the Future*World AIs (R-9.12): what a figure aboard a car declares and where its driver flies it,
on top of the declaration or move an AI chose as if on foot. The scripted baselines call `scripted` (rush: drive
toward the enemy, riders dismount near it; hold: keep the car where it is), and the utility reasoner calls
`adjust` on its chosen action (`action = car.adjust(view, me, request, action, aggressive)`); `options` lists
the driver's choices (drive toward the enemy or to cover, each with its split) for a reasoner that weighs them.

The scripted baselines (`scripted`) and the utility reasoner (`adjust`) ride differently. The baselines' rush
drives at the enemy every round its riders see nobody near and leaves the car within DISMOUNT_M. The utility
AI keeps a screened car as its fighting platform (seen on scenarios/fw/scout_run.yaml: riders that left the car
met a prone picket at half chance and its heavy rifles unscreened, and most games ran to the round limit): its
riders stay aboard while the car has a screen or armour (10 m up a prone target is not halved, R-9.4, and an
attack meets the car's screen, 30 kinetic points on a scout car, in place of the rider's own); its driver sets
down (stays, so the riders fire at full chance, not as moving firers) while a rider has an enemy in sight and in
range from the car and no cell in reach is a better vantage, else drives there: the cell from which the riders'
fire in sight and range is worth the most (each rider's shot at each enemy through its armour and usual screen).

Pure functions over a side's view (the figures' `ext.cars`, CarView): no engine state.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from skirmish.ai.fw import estimate as est
from skirmish.ai.fw.side import Intent
from skirmish.battle import Request
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, EndTurn, Move
from skirmish.rulesets.fw import FIREARMS, INTENT, SCREEN_STOPS, CarView, FwIntent, FwUnitView, tables, view_sight

__all__ = ["DISMOUNT_M", "STANDOFF_CELLS", "CarOption", "adjust", "car_of", "flight", "options", "scripted",
           "split_for", "targets_from", "vantage"]

DISMOUNT_M = 12.0  # riders leave a car (and its driver stops) with an enemy this near (metres)
STANDOFF_CELLS = 3  # a car flying at the enemy stops this many cells short of every enemy
SCREEN_GAIN = 1.0  # a set-down driver changes the car's screen when it saves the riders this many HP-equivalents
PAIR_FLOOR = 0.05  # the least a rider's shot at an enemy in sight and range counts for a vantage (HP-equivalents)
DRIVE_GAIN = 1.0  # a set-down driver with a target drives only to a vantage worth this many times more (the
# round it drives, its riders fire as moving firers, at half chance, R-9.4)
NEAREST = 12  # cells weighed for sight of an enemy when flying at it
_SCREEN_FOR = {cls: screen for screen, cls in SCREEN_STOPS.items()}


@dataclass(frozen=True)
class CarOption:
    """One driver's choice: its declaration (a drive with a split, or staying) and where it would fly."""

    label: str
    intent: FwIntent
    to: geo.Cell | None


def car_of(me: UnitView) -> CarView | None:
    """The car `me` rides, as its side sees it, or None."""
    ext = me.ext
    if not isinstance(ext, FwUnitView) or ext.aboard is None:
        return None
    return next((c for c in ext.cars if c.name == ext.aboard), None)


def _enemies(view: BattleView, me: UnitView) -> list[UnitView]:
    return [e for e in view.enemies(me) if not e.out_of_action]


def _nearest_m(view: BattleView, at: geo.Cell, enemies: list[UnitView]) -> float:
    return min((geo.distance_m(at, e.cell, view.grid.cell_m) for e in enemies), default=float("inf"))


def split_for(view: BattleView, me: UnitView, car: CarView) -> tuple[str, int]:
    """The car screen (type, points) for a drive: the type that stops most of the enemies' firearms, at the most
    the car's screen takes (R-9.12); the rest of its generator moves it. ("none", 0) for a car with no screen."""
    gc = tables().grav_cars[car.car_type]
    if not gc.screen:
        return "none", 0
    weapons = tables().weapons
    classes: Counter[str] = Counter()
    for e in _enemies(view, me):
        ext = e.ext
        if isinstance(ext, FwUnitView):
            for wid in ext.weapons:
                w = weapons[wid]
                if w.weapon_class in FIREARMS and w.damage_class in _SCREEN_FOR:
                    classes[w.damage_class] += 1
    if not classes:
        return (car.screen, min(gc.screen, gc.generator)) if car.screen != "none" else ("none", 0)
    cls = max(sorted(classes), key=lambda c: classes[c])
    return _SCREEN_FOR[cls], min(gc.screen, gc.generator)


def _first_attack(intent: FwIntent) -> tuple[str | None, str | None]:
    acts = [(a, t) for a, t in intent.acts() if a in ("shoot", "burst", "react") + (("launch",) if intent.mount else ())]
    return acts[0] if acts else (None, None)


def _with(intent: FwIntent, act: str, then: tuple[str | None, str | None], car_screen: str = "none",
          car_points: int = 0, car_weapons: int = 0) -> FwIntent:
    """`intent`'s weapon and personal split with `act` first and `then` second (no EW program with two acts)."""
    two = then[0] is not None
    return replace(intent, act=act, target=None, then=then[0], then_target=then[1],
                   cm=0 if two else intent.cm, dccm=0 if two else intent.dccm,
                   dccm_at=None if two else intent.dccm_at, sensors=0 if two else intent.sensors, jump=0,
                   car_screen=car_screen, car_points=car_points, car_weapons=car_weapons,
                   mount=intent.mount if two else None)


def mount_reserve(view: BattleView, me: UnitView, car: CarView, base: FwIntent) -> int:
    """Weapon points a drive's split keeps for the car's energy mounts (R-9.8, R-9.12): what the riders' mount
    fire already declared draws, plus each energy mount not yet worked whose weapon reaches an enemy from the
    car (its burst if it fires one) and the driver's own mount shot; what slows the car (the seed's rows)."""
    gc, weapons = tables().grav_cars[car.car_type], tables().weapons
    enemies = [e for e in _enemies(view, me) if not e.ghost]
    out = car.drawn
    for m in car.mounts:
        w = weapons.get(m.weapon) if m.weapon else None
        if w is None or not w.energy or m.gunner is not None:
            continue
        if m.id == base.mount:
            out += sum(w.shot_energy(burst=a == "burst") for a, _ in base.acts())
        elif m.crew != "driver" and len(car.riders) > 1 and any(
                geo.distance_m(car.cell, e.cell, view.grid.cell_m) <= (w.range_m or 0) for e in enemies):
            out += w.shot_energy(burst=w.burst)
    return min(out, gc.generator)


def options(view: BattleView, me: UnitView, base: FwIntent, cells: frozenset[geo.Cell] = frozenset()) -> list[CarOption]:
    """The driver's choices this round (R-9.12): stay (the chosen declaration as it is), drive toward the enemy
    with the screen up, drive to cover with the screen up (each with the chosen attack after it, at half DEX,
    R-9.3). `cells`: where it may fly (the move row's list) when known, for the flights' ends."""
    car = car_of(me)
    if car is None or car.driver != me.name or car.loading:
        return [CarOption("stay", base, None)]
    kind, points = split_for(view, me, car)
    first = _first_attack(base)
    reserve = mount_reserve(view, me, car, base)
    points = max(0, min(points, tables().grav_cars[car.car_type].generator - reserve))
    drive = _with(base, "drive", first, car_screen=kind if points else "none", car_points=points, car_weapons=reserve)
    return [CarOption("stay", base, None),
            CarOption("drive toward the enemy", drive, flight(view, me, cells, aggressive=True) if cells else None),
            CarOption("drive to cover", drive, flight(view, me, cells, aggressive=False) if cells else None)]


def flight(view: BattleView, me: UnitView, cells: frozenset[geo.Cell], aggressive: bool) -> geo.Cell | None:
    """Where the driver flies: toward the enemy (the cell nearest the nearest enemy, at least STANDOFF_CELLS from
    every one; of the NEAREST such, the first from which an enemy is in sight), or to cover (the cell fewest enemies see in the
    vertical, nearest first). None: nowhere better than here."""
    enemies = _enemies(view, me)
    if not cells or not enemies:
        return None

    def seen_by(c: geo.Cell) -> int:
        return sum(view_sight(view, e, c, me).visible for e in enemies if not e.ghost)

    if aggressive:
        fine = sorted((c for c in cells if min(geo.distance_cells(c, e.cell) for e in enemies) >= STANDOFF_CELLS),
                      key=lambda c: (_nearest_m(view, c, enemies), c))
        # the nearest from which an enemy is in sight, among the NEAREST nearest (sight in the vertical costs)
        return next((c for c in fine[:NEAREST] if seen_by(c)), fine[0] if fine else None)
    return min(cells, key=lambda c: (seen_by(c), geo.distance_cells(me.cell, c), c))


def scripted(view: BattleView, me: UnitView, request: Request, action: Action, aggressive: bool) -> Action:
    """The scripted baselines' `action` (chosen as if on foot) as a figure aboard a car (R-9.12). A declaration: an aggressive
    driver far from the enemy drives toward it with the screen up (its attack after); near the enemy (DISMOUNT_M)
    an aggressive rider leaves the car (after its attack) unless the car drives; a cautious driver keeps the car
    where it is. The driver's move: its flight. Anything else passes unchanged."""
    car = car_of(me)
    if car is None:
        return action
    if request.kind != INTENT:
        if car.driver != me.name:
            return action
        to = flight(view, me, request.legal().walk, aggressive)
        return Move(me.name, to) if to is not None and to != me.cell else EndTurn(me.name)
    if not isinstance(action, FwIntent):
        return action
    near = _nearest_m(view, me.cell, _enemies(view, me)) <= DISMOUNT_M
    first = _first_attack(action)
    if not aggressive:
        return action
    if near:
        if car.drives:
            return action
        if first[0] is None:
            return _with(action, "dismount", (None, None))
        return replace(_with(action, first[0], ("dismount", None)), target=first[1])
    if car.driver == me.name and not car.loading:
        return next(o.intent for o in options(view, me, action) if o.label == "drive toward the enemy")
    return action


def _pairs(view: BattleView, me: UnitView, car: CarView) -> list[tuple[UnitView, float, float]]:
    """(enemy, range in metres, worth) for every firearm of the car's riders able to act and every enemy: the
    worth (HP-equivalents, est.worth with kill 1) of its shot from the car's cell, through the enemy's armour and
    usual screen (R-9.4 .. R-9.6), at least PAIR_FLOOR (a target in reach counts even through thick armour)."""
    out = []
    enemies = _enemies(view, me)
    for name in car.riders:
        r = view.find(name)
        w = est.weapon(r) if r is not None and not r.out_of_action and isinstance(r.ext, FwUnitView) else None
        if r is None or w is None or not est.ext(r).can_act:
            continue
        for e in enemies:
            s = est.shot(view, r, w, car.cell, e, e.cell, burst=est.can_burst(r, w))
            out.append((e, float(w.range_m or 0), max(PAIR_FLOOR, est.worth(s, e, 1.0))))
    return out


def targets_from(view: BattleView, me: UnitView, car: CarView, at: geo.Cell,
                 pairs: list[tuple[UnitView, float, float]] | None = None,
                 sight: dict[tuple[str, geo.Cell], bool] | None = None) -> float:
    """What the riders' fire is worth with the car at `at` (R-9.4, R-9.12): the worth of every (rider's firearm,
    enemy) pair in sight (in the vertical) and in range (`_pairs`). An enemy out of sight counts where its side
    last saw it."""
    total = 0.0
    seen = {} if sight is None else sight
    for e, reach, worth in _pairs(view, me, car) if pairs is None else pairs:
        if _sees(view, me, e, at, seen) and geo.distance_m(at, e.cell, view.grid.cell_m) <= reach:
            total += worth
    return total


def _sees(view: BattleView, me: UnitView, e: UnitView, at: geo.Cell, seen: dict[tuple[str, geo.Cell], bool]) -> bool:
    """Sight between enemy `e` and the car `me` rides at `at`, in the vertical (kept in `seen` for one decision,
    and for the battle's map by where each stands, `_SIGHT`: a driver weighs every cell of its flight)."""
    key = (e.name, at)
    if key not in seen:
        car = car_of(me)
        if _SIGHT[0] is not view.grid or len(_SIGHT[1]) > 1 << 16:
            _SIGHT[:] = [view.grid, {}]
        memo: dict[Any, bool] = _SIGHT[1]
        where = (car.heights if car else (), car.ground if car else (), e.cell, e.prone,
                 getattr(e.ext, "aboard", None) is not None, me.prone, at)
        if where not in memo:
            memo[where] = view_sight(view, e, at, me).visible
        seen[key] = memo[where]
    return seen[key]


_SIGHT: list[Any] = [None, {}]  # (the map, {where the two stand: sight}) of the battle being played


def _fire_at_riders(view: BattleView, me: UnitView, car: CarView) -> list[tuple[UnitView, float, dict[str, float]]]:
    """(enemy, its gun's range in metres, {car screen type: the HP-equivalent its fire takes off the riders}) for
    every enemy able to act with a gun (one out of sight where last seen): its burst when it can, at one of the
    riders able to act taken evenly, behind the car's usual screen or any type at the car's full screen (R-9.6, R-9.12)."""
    riders = [r for n in car.riders if (r := view.find(n)) is not None and not r.out_of_action
              and isinstance(r.ext, FwUnitView)]
    gc = tables().grav_cars[car.car_type]
    screens = {car.screen: car.screen_points} if gc.screen else {"none": 0}
    if gc.screen:
        screens.update({k: min(gc.screen, gc.generator) for k in _SCREEN_FOR.values() if k != car.screen})
    out = []
    for e in _enemies(view, me):
        w = est.weapon(e) if isinstance(e.ext, FwUnitView) and e.ext.can_act else None
        if w is None or not riders:
            continue
        burst = est.can_burst(e, w)
        out.append((e, float(w.range_m or 0), {k: sum(est.shot(view, e, w, e.cell, r, car.cell, burst=burst,
                                                                car_screen=(k, p)).value(est.ext(r).hp, 1.0)
                                                       for r in riders) / len(riders) for k, p in screens.items()}))
    return out


def _net(view: BattleView, me: UnitView, car: CarView, at: geo.Cell, pairs: list[tuple[UnitView, float, float]],
         fire: list[tuple[UnitView, float, dict[str, float]]], seen: dict[tuple[str, geo.Cell], bool]) -> float:
    """A vantage's worth: the riders' fire from `at` (`targets_from`) less what the enemies that see it there would
    take off them behind the screen that stops the most (`_fire_at_riders`), so the car leaves the sight of a gun
    its screen does not stop for a cell as good to shoot from (the scout run's prone laser); the fire counts for
    more as the round limit nears (as the reasoner's harm does), so a car ahead comes back to finish the fight."""
    taken: dict[str, float] = {}
    for e, reach, by_screen in fire:
        if geo.distance_m(at, e.cell, view.grid.cell_m) <= reach and _sees(view, me, e, at, seen):
            for k, v in by_screen.items():
                taken[k] = taken.get(k, 0.0) + v
    urgency = 1.0 + (view.round / view.max_rounds if view.max_rounds else 0.0)  # as the reasoner's: a draw is half
    return urgency * targets_from(view, me, car, at, pairs, seen) - min(taken.values(), default=0.0)


def vantage(view: BattleView, me: UnitView, cells: frozenset[geo.Cell]) -> geo.Cell | None:
    """Where the utility AI's driver flies (R-9.12): of the cells at least STANDOFF_CELLS from every enemy, the
    one from which the riders' fire is worth the most (`targets_from`), then the nearest the enemy, then
    the nearest here; none in sight from any: the scripted flight toward the enemy. None: stay."""
    car = car_of(me)
    enemies = _enemies(view, me)
    if car is None or not cells or not enemies:
        return None
    fine = [c for c in cells if min(geo.distance_cells(c, e.cell) for e in enemies) >= STANDOFF_CELLS]
    pairs = _pairs(view, me, car)
    seen: dict[tuple[str, geo.Cell], bool] = {}
    if max((targets_from(view, me, car, c, pairs, seen) for c in fine), default=0.0) == 0:
        return flight(view, me, cells, aggressive=True)
    fire = _fire_at_riders(view, me, car)
    scored = [(_net(view, me, car, c, pairs, fire, seen), c) for c in fine]
    best = max(n for n, _ in scored)
    if _net(view, me, car, me.cell, pairs, fire, seen) >= best - 1e-9:
        return None
    return min((c for n, c in scored if n >= best - 1e-9),
               key=lambda c: (_nearest_m(view, c, enemies), geo.distance_cells(me.cell, c), c))


def _flights(view: BattleView, me: UnitView, car: CarView) -> list[geo.Cell]:
    """The cells a drive could take the car to this round as the declaration sees it (R-9.12): free ground a
    figure could stand on within the metres its split leaves, at least STANDOFF_CELLS from every enemy."""
    gc = tables().grav_cars[car.car_type]
    _, points = split_for(view, me, car)
    reach = gc.move_m(gc.generator - points) * (gc.full_load_speed if len(car.riders) >= gc.seats else 1)
    enemies = _enemies(view, me)
    taken = {u.cell for u in view.units if not u.out_of_action and u.cell != car.cell}
    cost = view.grid.move_cost
    out = []
    for y in range(view.grid.height):
        for x in range(view.grid.width):
            c = (x, y)
            if cost[y, x] <= 0 or c in taken or c == car.cell:
                continue
            if geo.distance_m(car.cell, c, view.grid.cell_m) > reach:
                continue
            if all(geo.distance_cells(c, e.cell) >= STANDOFF_CELLS for e in enemies):
                out.append(c)
    return out


def _guarded(car: CarView) -> bool:
    """Whether the car shields its riders: a screen (R-9.8) or armour (R-9.6) of its own."""
    gc = tables().grav_cars[car.car_type]
    return gc.screen > 0 or car.armour > 0


def answer(view: BattleView, me: UnitView, request: Request, action: Action, intent: Intent,
           trace: dict[str, Any]) -> Action:
    """`adjust` as the fw utility and search AIs answer with it (pressing: aggressive); when aboard a car changes
    the answer, the trace's intent says so ("...; aboard a grav car (R-9.12): drive ...")."""
    out = adjust(view, me, request, action, intent.press)
    if out != action:
        trace["intent"] = f"{intent.text}; aboard a grav car (R-9.12): {out}"
    return out


def adjust(view: BattleView, me: UnitView, request: Request, action: Action, aggressive: bool) -> Action:
    """The utility reasoner's `action` (chosen as if on foot) as a figure aboard a car answers (R-9.12; the
    module's docstring). A declaration: a rider of a car that shields it stays aboard (an unshielded car's riders
    leave it near the enemy, as the scripted rush's do, when pressing); a driver with an enemy in sight and range
    of a rider from the car, and no better vantage in reach, sets down and fires; else it drives to the vantage
    (the car's screen up, its attack after, whatever its side's intent: the car shields its riders). The
    driver's move: to the vantage (`vantage`). Anything else passes unchanged."""
    car = car_of(me)
    if car is None:
        return action
    if not _guarded(car):
        return scripted(view, me, request, action, aggressive)
    if request.kind != INTENT:
        if car.driver != me.name:
            return action
        to = vantage(view, me, request.legal().walk)
        return Move(me.name, to) if to is not None and to != me.cell else EndTurn(me.name)
    if not isinstance(action, FwIntent) or car.driver != me.name or car.loading:
        return action
    if any(a in ("dismount", "mount") for a, _ in action.acts()):
        return action
    pairs = _pairs(view, me, car)
    seen: dict[tuple[str, geo.Cell], bool] = {}
    here = targets_from(view, me, car, car.cell, pairs, seen)
    fire = _fire_at_riders(view, me, car)
    net = _net(view, me, car, car.cell, pairs, fire, seen)
    # (asking a better vantage to be worth 1.5 times this one before driving cost 7 of 20 wins against random)
    if here and ((here >= sum(w for _, _, w in pairs) - 1e-9 and not any(_sees(view, me, e, car.cell, seen)
                                                                          for e, _, _ in fire))  # every rider reaches every
                 # enemy, and none takes anything off them here: no need to look
                 or net >= max((_net(view, me, car, c, pairs, fire, seen) for c in _flights(view, me, car)),
                               default=net)):
        return screened(view, me, car, action)  # set down: the riders fire at full chance (not moving firers, R-9.4)
    return next(o.intent for o in options(view, me, action) if o.label == "drive toward the enemy")


def riders_take(view: BattleView, me: UnitView, car: CarView, screen: tuple[str, int]) -> float:
    """The HP-equivalent the car's riders able to act are expected to lose this round behind the car's `screen`
    where it is (R-9.6, R-9.12): every enemy able to act that sees the car (in the vertical) and has it in range
    fires its burst when it can at one of them, taken evenly."""
    riders = [r for n in car.riders if (r := view.find(n)) is not None and not r.out_of_action
              and isinstance(r.ext, FwUnitView)]
    if not riders:
        return 0.0
    total = 0.0
    for e in _enemies(view, me):
        w = est.weapon(e) if isinstance(e.ext, FwUnitView) and e.ext.can_act else None
        if w is None or e.ghost or not est.in_range(view, e.cell, car.cell, w) \
                or not view_sight(view, e, car.cell, me).visible:
            continue
        burst = est.can_burst(e, w)
        total += sum(est.shot(view, e, w, e.cell, r, car.cell, burst=burst, car_screen=screen).value(
            est.ext(r).hp, 1.0) for r in riders) / len(riders)
    return total


def screened(view: BattleView, me: UnitView, car: CarView, action: Action) -> Action:
    """A set-down driver's declaration (R-9.12): the car keeps its usual screen unless another type would save its
    riders at least SCREEN_GAIN HP-equivalents this round (`riders_take`; the enemies' own guns are seen, R-9.6);
    then it declares the drive with that screen and its attack after it at half DEX (R-9.3), and stays (a split
    comes with a drive; the bookkeeping puts the usual screen back every round). Seen on the scout run: two heavy
    lasers through the usual kinetic 30 points, where a diffusion screen leaves one rifle."""
    gc = tables().grav_cars[car.car_type]
    if not isinstance(action, FwIntent) or not gc.screen or action.then is not None:
        return action
    points = min(gc.screen, gc.generator)
    usual = riders_take(view, me, car, (car.screen, car.screen_points))
    best = min(((riders_take(view, me, car, (k, points)), k) for k in sorted(_SCREEN_FOR.values())),
               default=(usual, car.screen))
    if best[1] == car.screen or best[0] > usual - SCREEN_GAIN:
        return action
    return _with(action, "drive", _first_attack(action), car_screen=best[1], car_points=points)
