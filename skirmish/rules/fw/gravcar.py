"""Future*World grav cars (R-9.12) and sight in the vertical: a car's generator split between movement (the
table's metres per point, up to its top speed), its screen, its weapons and EW; passengers who mount and
dismount; hovering 10 m above the local terrain, so line of sight and cover are worked out in the vertical;
no slopes over 45 degrees.

Heights are metres above a common datum: a cell's height is its ground plus whatever stands on it. Choices
where seed 004 is silent are data values here, listed in docs/RULES-NOTES.md ("Future*World: melee, missiles,
grav cars and odds").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from skirmish.rules.fw.damage import ARMOURED_CLASSES, SCREEN_TYPES
from skirmish.rules.fw.equipment import GravCar

Metres = float | Fraction  # heights and distances; Fractions keep the sightline exact
HOVER_M = 10  # every grav car travels about 10 m above the local terrain
MAX_SLOPE = 1  # no incline over 45 degrees: a rise of at most 1 m per metre travelled
FIGURE_HEIGHT_M = 2  # a standing figure's height (its eye at the top)
PRONE_HEIGHT_M = Fraction(1, 2)  # a prone figure's
SEATED_EYE_M = 1  # a rider's eye above the car's floor
MOUNT_REACH_M = 2  # a rider mounts or dismounts within 2 m of the car, which sets down to load
COVER_FRACTION = Fraction(1, 4)  # partly covered (R-9.4 x1/2) once at least a quarter of the figure is hidden
ABOVE_M = 2  # R-9.4 "from a higher elevation": the attacker stands at least a figure's height higher


# ---------------------------------------------------------------- the generator split
@dataclass(frozen=True)
class CarSplit:
    """One round's split of a car's generator (R-9.12): screen (one type), weapons, EW; the rest moves it."""

    screen_type: str | None = None
    screen: int = 0
    weapons: int = 0
    ew: int = 0

    @property
    def spent(self) -> int:
        """Points drawn by everything but movement."""
        return self.screen + self.weapons + self.ew


def split_refusal(car: GravCar, split: CarSplit) -> str | None:
    """Why `split` is not a legal use of `car`'s generator this round (the rule id first), or None."""
    if min(split.screen, split.weapons, split.ew) < 0:
        return "R-9.12: a split is made of whole points, none below 0"
    if split.screen and split.screen_type not in SCREEN_TYPES:
        return f"R-9.12: a screen is one of {', '.join(SCREEN_TYPES)}"
    if split.screen > car.screen:
        return f"R-9.12: the {car.name}'s screen takes at most {car.screen} points"
    if split.ew > car.ew:
        return f"R-9.12: the {car.name} has {car.ew} EW points"
    if split.spent > car.generator:
        return f"R-9.12: {split.spent} points split, the {car.name}'s generator gives {car.generator}"
    return None


def full_load(car: GravCar, riders: int) -> bool:
    """Whether a car is fully loaded (every seat taken) and so slowed to its full-load speed (the explorer
    hauler's half, R-9.12; cargo is not carried in skirmishes)."""
    return riders >= car.seats


def move_m(car: GravCar, split: CarSplit, riders: int = 1) -> int:
    """Metres the car may move this round: the points left after screen, weapons and EW at the table's metres a
    point, up to its top speed, times its full-load speed when every seat is taken (R-9.12). The seed's scout
    car: 50 points give 500 m; with the 30-point screen up, 200 m."""
    why = split_refusal(car, split)
    if why:
        raise ValueError(why)
    metres = car.move_m(car.generator - split.spent)
    if full_load(car, riders):
        metres = int(metres * car.full_load_speed)
    return metres


def car_armour(car: GravCar, part: str = "") -> dict[str, int]:
    """The car's ceramet at `part` (its first listed part if none given) as points off every damage class
    (ceramet is equal against P, B and L, R-9.6); no armour gives 0s."""
    points = car.armour.get(part, 0) if part else next(iter(car.armour.values()), 0)
    return {c: points for c in ARMOURED_CLASSES}


# ---------------------------------------------------------------- riders
@dataclass(frozen=True)
class Cabin:
    """Who rides a car: the first rider drives."""

    seats: int
    riders: tuple[str, ...] = ()

    @property
    def driver(self) -> str | None:
        """The figure at the controls, or None."""
        return self.riders[0] if self.riders else None


def mount_refusal(cabin: Cabin, rider: str, distance_m: float, car_moves: bool) -> str | None:
    """Why `rider` may not board this round, or None (R-9.12): a seat free, within reach, and the car set down
    (it does not move in a round anyone boards or leaves)."""
    if rider in cabin.riders:
        return f"R-9.12: {rider} is already aboard"
    if len(cabin.riders) >= cabin.seats:
        return f"R-9.12: all {cabin.seats} seats are taken"
    if distance_m > MOUNT_REACH_M:
        return f"R-9.12: {rider} must be within {MOUNT_REACH_M} m of the car to board"
    if car_moves:
        return "R-9.12: the car sets down to load and does not move this round"
    return None


def dismount_refusal(cabin: Cabin, rider: str, car_moves: bool) -> str | None:
    """Why `rider` may not leave the car this round, or None (R-9.12)."""
    if rider not in cabin.riders:
        return f"R-9.12: {rider} is not aboard"
    if car_moves:
        return "R-9.12: the car sets down to unload and does not move this round"
    return None


def mount(cabin: Cabin, rider: str, distance_m: float = 0.0, car_moves: bool = False) -> Cabin:
    """The cabin with `rider` aboard; raises ValueError with the refusal."""
    why = mount_refusal(cabin, rider, distance_m, car_moves)
    if why:
        raise ValueError(why)
    return Cabin(cabin.seats, (*cabin.riders, rider))


def dismount(cabin: Cabin, rider: str, car_moves: bool = False) -> Cabin:
    """The cabin without `rider` (the next rider takes the controls if the driver leaves)."""
    why = dismount_refusal(cabin, rider, car_moves)
    if why:
        raise ValueError(why)
    return Cabin(cabin.seats, tuple(r for r in cabin.riders if r != rider))


def drive_refusal(cabin: Cabin) -> str | None:
    """Why the car cannot move, or None: it needs a driver aboard."""
    return None if cabin.riders else "R-9.12: a grav car moves only with a driver aboard"


# ---------------------------------------------------------------- the vertical
def car_floor(ground_m: Metres) -> Metres:
    """Height of a car's floor over ground at `ground_m` (R-9.12: it hovers 10 m up)."""
    return ground_m + HOVER_M


def slope_ok(from_ground: Metres, to_ground: Metres, run_m: Metres) -> bool:
    """Whether a car may travel between two points `run_m` apart on the flat: no incline over 45 degrees."""
    return abs(Fraction(to_ground) - Fraction(from_ground)) <= MAX_SLOPE * Fraction(run_m)


def path_refusal(grounds: Sequence[Metres], step_m: Metres) -> str | None:
    """Why a car cannot follow a path whose consecutive points (ground heights) lie `step_m` apart, or None."""
    for i in range(1, len(grounds)):
        if not slope_ok(grounds[i - 1], grounds[i], step_m):
            return (f"R-9.12: a grav car cannot climb or descend over 45 degrees (step {i}: "
                    f"{float(grounds[i] - grounds[i - 1]):+g} m over {float(step_m):g} m)")
    return None


def sight(eye_m: Metres, target_base_m: Metres, target_height_m: Metres, blockers: Iterable[tuple[Metres, Metres]]) -> str:
    """"clear", "covered" (at least COVER_FRACTION of the target hidden: R-9.4's partly covered) or "blocked"
    (all of it hidden) from an eye at `eye_m` to a figure standing from `target_base_m` up `target_height_m`.

    `blockers` are (t, top): a cell the sightline crosses at fraction t (0 < t < 1) of the way to the target,
    its top at height `top`. The line to a point of the target at height y clears it when it passes above:
    eye + t (y - eye) > top, so each blocker hides everything of the target up to eye + (top - eye) / t."""
    eye, base, height = Fraction(eye_m), Fraction(target_base_m), Fraction(target_height_m)
    hidden_to = base
    for t_raw, top in blockers:
        t = Fraction(t_raw)
        if not 0 < t < 1:
            raise ValueError(f"a blocker lies between the two (0 < t < 1), got t = {t_raw}")
        hidden_to = max(hidden_to, eye + (Fraction(top) - eye) / t)
    hidden = min(hidden_to, base + height) - base
    if hidden >= height:
        return "blocked"
    return "covered" if hidden >= COVER_FRACTION * height else "clear"


def from_above(attacker_base_m: Metres, target_base_m: Metres) -> bool:
    """Whether an attack comes "from a higher elevation" (R-9.4: a prone target is not halved then)."""
    return attacker_base_m - target_base_m >= ABOVE_M
