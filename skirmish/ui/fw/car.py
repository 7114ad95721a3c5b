"""A driver's grav car on Future*World's panel (R-9.12): the car's split row (its screen type and the steppers of
screen, weapons and EW points, within its generator) and the line that says what the rest of the generator buys
in metres, or why a declaration about a car is refused. The keys: C drive, B mount (board; click the car), L
dismount (leave); Shift for the second action. No rules here: the draft asks `rulesets.fw_preview`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pygame

from skirmish.ecs.view import BattleView
from skirmish.rulesets.fw import SCREEN_TYPES, FwUnitView, shot_draw
from skirmish.rulesets.fw_preview import weapon
from skirmish.ui.fw.draft import CAR_NAMES, CAR_NUMBERS, Draft
from skirmish.ui.widgets import Button

CAR_KEYS = {pygame.K_c: "drive", pygame.K_b: "mount", pygame.K_l: "dismount"}
MOUNT_KEY = pygame.K_f  # F: fire the declared attack from the next mount of the car the figure may work
STEPS = (-5, -1, 1, 5)  # a car's generator runs to tens of points: steppers by 1 and by 5


def car_rows(d: Draft, pick_screen: Callable[[str], None],
             step: Callable[[str, int], None]) -> list[tuple[str, list[Button]]]:
    """The panel's rows for the car's split, shown while its driver declares a drive (R-9.12)."""
    if not (d.driver and d.drives):
        return []
    screens = [Button(s, partial(pick_screen, s), active=s == d.car_screen, small=True)
               for s in ("none", *SCREEN_TYPES)]
    steppers: list[Button] = []
    for name in CAR_NUMBERS:
        for delta in STEPS[:2]:
            steppers.append(Button(f"{delta}", partial(step, name, delta), small=True))
        steppers.append(Button(f"{CAR_NAMES[name]} {getattr(d, name)}", lambda: None, small=True, enabled=False))
        for delta in STEPS[2:]:
            steppers.append(Button(f"+{delta}", partial(step, name, delta), small=True))
    return [("car", screens), ("car G", steppers)]


def car_line(d: Draft) -> str | None:
    """The car's split in words with the metres its rest buys (R-9.12), or a hint for a rider; None on foot."""
    car = d.car
    if car is None:
        if d.act == "mount" or d.then == "mount":
            target = d.target if d.act == "mount" else d.then_target
            return f"boards the {target} at DEX (R-9.12: within 2 m; click a car to choose)" if target else \
                "mount: click the car to board (R-9.12)"
        return None
    if not d.driver:
        return f"rides the {car.name} ({car.driver or 'nobody'} drives; L: dismount at DEX, R-9.12)"
    if not d.drives:
        return f"at the {car.name}'s controls: C drive to fly it in the movement segment (R-9.12)"
    spent = d.car_points + d.car_weapons + d.car_ew
    screen = f"screen {d.car_screen} {d.car_points}" if d.car_screen != "none" else "no screen"
    return (f"{car.name} G {spent} of {car.generator}: {screen}, weapons {d.car_weapons}, EW {d.car_ew}; the rest "
            f"{max(0, car.generator - spent)} flies it {d.car_metres()} m with {len(car.riders)} aboard (R-9.12)")


def car_at(view: BattleView, cell: tuple[int, int] | None) -> str | None:
    """The grav car the view shows on `cell` (R-9.12: another side's where the side last saw it), or None."""
    cars = next((u.ext.cars for u in view.units if isinstance(u.ext, FwUnitView) and u.ext.cars), ())
    return next((c.name for c in cars if c.cell == cell), None)


def car_line_move(view: BattleView, unit: str) -> str | None:
    """The movement segment's prompt for a driver whose car drives (R-9.12), or None."""
    f = view.unit(unit).ext
    if not isinstance(f, FwUnitView) or f.aboard is None:
        return None
    car = next((c for c in f.cars if c.name == f.aboard), None)
    if car is None or car.driver != unit or not car.drives:
        return None
    return f"drag the {car.name} to fly it with its {len(car.riders)} aboard (its reach shaded, R-9.12)"


def mount_row(d: Draft, pick: Callable[[str | None], None]) -> list[tuple[str, list[Button]]]:
    """The panel's row of the car's mounts a rider may work (R-9.12): its own weapon, or each mount by name with
    what it fires; shown while the figure rides a car with one."""
    mounts = d.mounts()
    if not mounts:
        return []
    buttons = [Button("own weapon", partial(pick, None), active=d.mount is None, small=True)]
    for m in mounts:
        left = f" ({m.left} left)" if m.left is not None else ""
        buttons.append(Button(f"{m.name}: {m.weapon or m.takes}{left}", partial(pick, m.id), active=d.mount == m.id,
                              small=True))
    return [("mount", buttons)]


def mount_line(d: Draft) -> str | None:
    """What firing from the mount means (R-9.12, R-9.5, R-9.8), or a hint that F fires from one; None without."""
    m = d.mounted
    car = d.car
    if car is None or not d.mounts():
        return None
    if m is None:
        return f"F: fire from the {car.name}'s mount ({', '.join(x.name for x in d.mounts())}, R-9.12)"
    w = weapon(d.weapon)
    draw = shot_draw(w, d.attack or "shoot") if w is not None else 0
    free = (car.weapons if car.drives else car.generator - car.screen_points) - car.drawn
    energy = f"draws {draw} of the car's {max(0, free)} free weapon points (R-9.8)" if draw else "draws no energy"
    return (f"fires the {car.name}'s {m.name} ({w.name if w is not None else 'set a ' + m.takes + ' weapon'}, "
            f"mounted chance, R-9.5); {energy}")
