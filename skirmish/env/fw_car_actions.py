"""The grav-car blocks of a Future*World action table (R-9.12; docs/RL.md "Future*World"), laid after the
table's own (`fw_actions.FwActionTable`: its earlier indices stand). Present only when the scenario has cars:

    mount[car] · dismount · drive[second, split] · mountfire[mount, act, target]

- `mount[c]`: `intent UNIT mount target=CAR` (the scenario's cars, every side's, in order);
- `dismount`: `intent UNIT dismount`;
- `drive[second, split]`: a driver's `intent UNIT drive [then=second] car_screen=… car_points=…`. The second
  action (at half DEX, R-9.3) is none, react, or shoot or burst at a figure of the scenario; the car split row
  is 0 "all to movement", then each screen type (kinetic, diffusion, magnetic) at each screen size the
  scenario's cars raise at their most (min(the table's screen, the generator): one size per distinct value).
  The car's flight itself is the movement segment's `move` block (the driver's walk is the car's cells);
- `mountfire[m, act, target]`: a rider's `intent UNIT shoot|burst|launch target=U mount=ID` from mount m (the
  scenario's distinct mount ids, in order) with the mount's weapon, or for an empty mount the rider's first
  weapon of the category it takes (`weapon=`); the energy is the car's, so the rider's screen gets its whole
  generator (R-9.8, as legality lists it).

Each of these declarations carries the figure's usual screen on its generator's rest (as `car_intents` lists
them). Decoding needs nothing of the battle's state; a declaration the table has no place for raises KeyError.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from skirmish.rules.actions import Action
from skirmish.rulesets.fw import SCREEN_TYPES, FwIntent, FwUnitView, tables

if TYPE_CHECKING:
    from skirmish.ecs.fw_view import CarView

DRIVE_FIXED = ("none", "react")  # the drive's second actions that name no figure
DRIVE_TARGETED = ("shoot", "burst")  # each × every figure of the scenario
MOUNT_ACTS = ("shoot", "burst", "launch")

Slot = tuple[str, str | None]


class CarBlocks:
    """The car blocks' shapes, and index parameters <-> declarations (see the module's docstring)."""

    def __init__(self, units: Sequence[str], kits: dict[str, FwUnitView], cars: Sequence[CarView],
                 shots: Callable[[str, Sequence[Slot]], int]) -> None:
        self.units, self.kits, self._shots = tuple(units), kits, shots
        self.cars = tuple(dict.fromkeys(c.name for c in cars))
        grav = tables().grav_cars
        sizes = sorted({min(grav[c.car_type].screen, grav[c.car_type].generator) for c in cars
                        if c.car_type in grav and grav[c.car_type].screen})
        self.splits: tuple[tuple[str, int], ...] = (("none", 0), *((s, p) for p in sizes for s in SCREEN_TYPES))
        self.seconds: tuple[Slot, ...] = (*((s, None) for s in DRIVE_FIXED),
                                          *((a, u) for a in DRIVE_TARGETED for u in self.units))
        mounts: dict[str, tuple[str | None, str]] = {}
        for c in cars:
            for m in c.mounts:
                mounts.setdefault(m.id, (m.weapon, m.takes))
        self.mounts = tuple(mounts)
        self._mount_kit = mounts
        weapons = tables().weapons
        self._category = {w: t.category for w, t in weapons.items()}

    def shapes(self) -> list[tuple[str, tuple[int, ...]]]:
        """The blocks (name, shape), none if the scenario has no car."""
        if not self.cars:
            return []
        out: list[tuple[str, tuple[int, ...]]] = [("mount", (len(self.cars),)), ("dismount", ()),
                                                  ("drive", (len(self.seconds), len(self.splits)))]
        if self.mounts:
            out.append(("mountfire", (len(self.mounts), len(MOUNT_ACTS), len(self.units))))
        return out

    # ------------------------------------------------------------------ parameters -> declaration
    def _screen(self, unit: str, acts: Sequence[Slot], free: bool = False) -> dict[str, object]:
        """The figure's usual screen on its generator's rest after the acts' shots (`free`: the car pays)."""
        kit = self.kits.get(unit)
        if kit is None or kit.default_screen == "none":
            return {}
        spare = kit.generator - (0 if free else self._shots(unit, acts))
        return {"screen": kit.default_screen, "points": max(0, spare)}

    def decode(self, name: str, p: tuple[int, ...], unit: str) -> Action:
        """The declaration at parameters `p` of block `name`."""
        if name == "mount":
            return FwIntent(unit, "mount", self.cars[p[0]], **self._screen(unit, ()))  # type: ignore[arg-type]
        if name == "dismount":
            return FwIntent(unit, "dismount", **self._screen(unit, ()))  # type: ignore[arg-type]
        if name == "drive":
            then, then_target = self.seconds[p[0]]
            screen, points = self.splits[p[1]]
            acts = [(then, then_target)] if then != "none" else []
            return FwIntent(unit, "drive", then=None if then == "none" else then, then_target=then_target,
                            car_screen=screen, car_points=points, **self._screen(unit, acts))  # type: ignore[arg-type]
        mid = self.mounts[p[0]]
        return FwIntent(unit, MOUNT_ACTS[p[1]], self.units[p[2]], weapon=self._mount_weapon(unit, mid), mount=mid,
                        **self._screen(unit, (), free=True))  # type: ignore[arg-type]

    def _mount_weapon(self, unit: str, mid: str) -> str | None:
        """`weapon=` of a fire from mount `mid`: none for a mount with its own (or a set) weapon, else the
        rider's first weapon of the category the mount takes."""
        fixed, takes = self._mount_kit[mid]
        if fixed is not None:
            return None
        kit = self.kits.get(unit)
        return next((w for w in (kit.weapons if kit else ()) if self._category.get(w) == takes), None)

    # ------------------------------------------------------------------ declaration -> parameters
    def params(self, action: FwIntent) -> tuple[str, tuple[int, ...]]:
        """(block, parameters) of a car declaration (KeyError if it is none, or the table has no place for it;
        the caller checks that the parameters decode back to the same declaration)."""
        if not self.cars:
            raise KeyError(f"no index for {action}")
        if action.act == "mount" and action.then is None:
            return "mount", (self.cars.index(action.target) if action.target in self.cars else _missing(action),)
        if action.act == "dismount" and action.then is None:
            return "dismount", ()
        if action.act == "drive":
            second: Slot = (action.then or "none", action.then_target)
            split = (action.car_screen, action.car_points)
            if second not in self.seconds or split not in self.splits or action.car_weapons or action.car_ew:
                raise KeyError(f"no index for {action}")
            return "drive", (self.seconds.index(second), self.splits.index(split))
        if action.mount is not None and action.then is None and action.act in MOUNT_ACTS \
                and action.mount in self.mounts and action.target in self.units:
            return "mountfire", (self.mounts.index(action.mount), MOUNT_ACTS.index(action.act),
                                 self.units.index(str(action.target)))
        raise KeyError(f"no index for {action}")

    @staticmethod
    def is_car(action: FwIntent) -> bool:
        """Whether the declaration belongs to these blocks (a car act, or an attack from a mount)."""
        return action.act in ("mount", "dismount", "drive") or action.mount is not None


def _missing(action: FwIntent) -> int:
    raise KeyError(f"no index for {action}")


__all__ = ["CarBlocks"]
