"""Covering fire (R-6.12; the seed's "Automatic Weapons"): a continuing action over an area. Pure numbers.

The firer names a cell and a volume of fire (a single shot, or a burst of 3, 5 or 10). The area is every cell
within 2 m of that cell's centre (4 m for a weapon with `suppression`). Until the firer's next turn, every enemy
that steps into the area (from a cell outside it) in the firer's sight and range draws a card: the shot is read
as if the firer's trait and skill were the volume (single 1, burst 3 → 2, 5 → 3, 10 → 4: column and row), at a
shot's TN, and spends the volume's rounds; missed rounds may strike unintended targets (R-6.11). It ends at the
firer's next turn (it may cover again), when it is out of action, or when the weapon cannot fire the volume.

Pinning (R-6.12, this project's reading: RULES.md names no effect beyond the entrant's card; docs/RULES-NOTES.md,
"Covering fire suppresses"): an enemy inside the area, in the firer's sight, is *pinned* while the fire lasts —
its own shots take PINNED_SHOT, and a step that takes it out of the area draws the covering shot as a step into
it does (LEAVING_DRAWS). The numbers are the PINNING table.
"""

from __future__ import annotations

from skirmish.rules import geometry as geo
from skirmish.rules.deck import COLUMNS
from skirmish.rules.equipment import Weapon

VOLUME = {0: 1, 3: 2, 5: 3, 10: 4}  # fire volume by burst (0: a single shot)
AREA_M = 2.0
SUPPRESSION_AREA_M = 4.0
PINNING = {  # pinned: what covering fire does to an enemy inside its area (docs/RULES-NOTES.md)
    "shot": -2,  # a result modifier on every shot the pinned figure fires ("keeping its head down")
    "leaving_draws": 1,  # 1: a step out of the area draws the covering shot, as a step into it does
}
PINNED_SHOT = PINNING["shot"]
LEAVING_DRAWS = bool(PINNING["leaving_draws"])


def volume(burst: int) -> int:
    """The fire volume of a burst (R-6.12)."""
    return VOLUME[burst]


def pool(burst: int) -> tuple[str, int]:
    """The column and row a covering shot reads: the volume as trait and skill."""
    v = volume(burst)
    return COLUMNS[v - 1], v


def area_m(weapon: Weapon) -> float:
    """The covered area's radius around its cell."""
    return SUPPRESSION_AREA_M if weapon.suppression else AREA_M


def inside(centre: geo.Cell, cell: geo.Cell, radius_m: float, cell_m: float) -> bool:
    """True if `cell` is in the area."""
    return geo.distance_m(centre, cell, cell_m) <= radius_m + 1e-9


def entered(centre: geo.Cell, before: geo.Cell, after: geo.Cell, radius_m: float, cell_m: float) -> bool:
    """True if a step from `before` to `after` enters the area."""
    return inside(centre, after, radius_m, cell_m) and not inside(centre, before, radius_m, cell_m)


def left(centre: geo.Cell, before: geo.Cell, after: geo.Cell, radius_m: float, cell_m: float) -> bool:
    """True if a step from `before` to `after` leaves the area (a pinned figure breaking out, R-6.12)."""
    return inside(centre, before, radius_m, cell_m) and not inside(centre, after, radius_m, cell_m)


def draws_fire(centre: geo.Cell, before: geo.Cell, after: geo.Cell, radius_m: float, cell_m: float) -> str | None:
    """Whether a step draws the covering shot: "entering", "leaving" (when LEAVING_DRAWS) or None."""
    if entered(centre, before, after, radius_m, cell_m):
        return "entering"
    if LEAVING_DRAWS and left(centre, before, after, radius_m, cell_m):
        return "leaving"
    return None
