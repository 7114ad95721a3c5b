"""The cross-checks of a scenario that pydantic cannot make: unique side and unit names, cells on the map and
free, known weapons, armour and tacpacks that fit, orders that read and name a unit of their side."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from skirmish.content.errors import ContentError, quote
from skirmish.content.limits import MAX_THROWN, MAX_UNITS
from skirmish.content.schema import SideSpec, UnitSpec, WeaponSpec
from skirmish.rules.actions import ActionParseError, parse_action
from skirmish.rules.equipment import SCREEN_TYPES, Armoury
from skirmish.rules.geometry import GridMap


@dataclass
class PartialSide:
    """A side as far as it is valid: units that failed pydantic are None (their errors are reported)."""

    name: str | None
    units: list[UnitSpec | None]
    orders: list[str]


def check_refs(sides: Sequence[SideSpec | PartialSide], label: str, grid: GridMap | None, armoury: Armoury,
                errors: list[ContentError], *, partial: bool = False,
                kit: Callable[[UnitSpec, str, Callable[[str, str], None]], None] | None = None) -> None:
    """Every reference and cross-check pydantic cannot make; each problem found is appended to `errors`.
    `partial`: the sides are what was valid of a file pydantic refused (its limits are reported already).
    `kit`: the ruleset's own check of a unit's kit (its schema parts' hook); None checks it against `armoury`."""

    def bad(where: str, message: str) -> None:
        errors.append(ContentError(label, where, message))

    first: dict[str, int] = {}
    for si, side in enumerate(sides):
        if side.name is None:
            continue
        if side.name in first:
            bad(f"sides[{si}].name", f"duplicate side name {quote(side.name)} (also sides[{first[side.name]}])")
        elif side.name == "draw":
            bad(f"sides[{si}].name", "'draw' cannot name a side: the summary line says winner=draw for a draw")
        first.setdefault(side.name, si)
    total = sum(len(s.units) for s in sides)
    if total > MAX_UNITS and not partial:
        bad("sides", f"{total} units in all; the limit is {MAX_UNITS} (docs/FILES.md)")
    seen: dict[str, str] = {}
    cells: dict[tuple[int, int], str] = {}
    for si, side in enumerate(sides):
        for ui, unit in enumerate(side.units):
            if unit is None:
                continue
            where = f"sides[{si}].units[{ui}]"
            if unit.name in seen:
                bad(f"{where}.name", f"duplicate unit name {quote(unit.name)} (also {seen[unit.name]})")
            seen.setdefault(unit.name, where)
            if kit is None:
                _check_kit(unit, where, armoury, bad)
            else:
                kit(unit, where, bad)
            if grid is None:
                continue
            x, y = unit.at
            if not grid.inside((x, y)):
                bad(f"{where}.at", f"cell {quote(x)},{quote(y)} is off the map ({grid.width}x{grid.height})")
            elif not grid.passable((x, y)):
                bad(f"{where}.at", f"cell {x},{y} is {grid.terrain((x, y)).name}, where no one can stand")
            elif (x, y) in cells:
                bad(f"{where}.at", f"cell {x},{y} is taken by {cells[(x, y)]}")
            else:
                cells[(x, y)] = unit.name
        names = {u.name for u in side.units if u is not None}
        for oi, order in enumerate(side.orders):
            try:
                action = parse_action(order)
            except ActionParseError as exc:
                bad(f"sides[{si}].orders[{oi}]", str(exc))
                continue
            if action.unit not in names and None not in side.units:  # (a refused unit may be the one named)
                bad(f"sides[{si}].orders[{oi}]", f"order for {quote(action.unit)}, who is not on side {quote(side.name)}")


def _check_kit(unit: UnitSpec, where: str, armoury: Armoury, bad: Any) -> None:
    for wi, w in enumerate(unit.weapons):
        wid = w if isinstance(w, str) else w.weapon
        if wid not in armoury.weapons:
            bad(f"{where}.weapons[{wi}]", f"unknown weapon {quote(wid)}; known: {', '.join(sorted(armoury.weapons))}")
            continue
        weapon = armoury.weapons[wid]
        limit = MAX_THROWN if weapon.thrown else weapon.magazine
        if isinstance(w, WeaponSpec) and w.ammo is not None and w.ammo > limit:
            bad(f"{where}.weapons[{wi}].ammo", f"a unit carries at most {limit} of a thrown weapon" if weapon.thrown
                else f"{w.ammo} rounds do not fit a magazine of {limit}")
    for ai, a in enumerate(unit.armour):
        if a not in armoury.armour:
            bad(f"{where}.armour[{ai}]", f"unknown armour {quote(a)}; known: {', '.join(sorted(armoury.armour))}")
    if unit.tacpack is not None:
        tp = unit.tacpack
        if tp.type not in armoury.tacpacks:
            bad(f"{where}.tacpack.type", f"unknown tacpack {quote(tp.type)}; known: {', '.join(sorted(armoury.tacpacks))}")
        elif tp.screen_points > armoury.tacpacks[tp.type].generator:
            bad(f"{where}.tacpack.screen_points", f"{tp.screen_points} exceeds the generator's "
                f"{armoury.tacpacks[tp.type].generator} points (R-6.13)")
        if tp.screen != "none" and tp.screen not in SCREEN_TYPES:
            bad(f"{where}.tacpack.screen", "unknown screen type")
