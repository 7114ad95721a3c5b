"""The rest of ranged combat as a question (issue 14, STYLE 13): what `legality.turn_actions` lists of double taps
(R-6.12), bursts split between two targets (R-6.3), covering fire (R-6.12) and launches (R-6.10), each put to the
checks the systems apply (covering.firer_check / cell_check, double_tap.setup, split.plan, launched.launch_setup),
so what is listed is accepted (tests/test_ai_ranged_legal.py holds them equal).

The firer's checks are asked once per kind (they read nothing of the target or cell); a listed double tap or split
also needs its single shots listed (the target's checks). Cells are asked one at a time (`cell_ok`): a rifle covers
most of a map, too many cells to list for every request."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from skirmish.core.errors import IllegalAction
from skirmish.core.legal import LazyActions
from skirmish.ecs.components import Loadout, Status
from skirmish.ecs.systems.fi import covering, double_tap, launched, split, two_weapons
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Launch, Shoot

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi import FiSystems

SPLIT_MODES = ("snap", "prepared")  # no aiming on automatic


def _ok(check: Callable[[], object]) -> bool:
    try:
        check()
    except IllegalAction:
        return False
    return True


def listed(sys: FiSystems, eid: int, me: str, shots: list[Shoot],
           firer: Callable[[str, int], bool] | None = None) -> dict[str, Any]:
    """The LegalActions fields `ranged`, `covers`, `launches` and `cell_ok` of the unit whose turn it is, given the
    single shots listed (`shots`); `firer(mode, burst)`, if given, is legality's answer to the firer's checks of a
    shot (covering fire's are the prepared shot's: covering.firer_check), else they are asked here."""
    wpn = sys.weapon(eid)
    if wpn is None:
        return {}
    weapon = wpn[0]
    out: dict[str, Any] = {"off_launches": _off_launches(sys, eid, me)}
    ranged: list[Shoot] = []
    singles = [s for s in shots if not s.burst]
    if weapon.double_tap and singles:
        for mode in dict.fromkeys(s.mode for s in singles):
            of_mode = [s for s in singles if s.mode == mode]
            if _ok(lambda s=of_mode[0]: double_tap.setup(sys, eid, replace(s, double_tap=True))):  # type: ignore[misc]
                ranged += [replace(s, double_tap=True) for s in of_mode]
    if weapon.bursts:
        for mode in SPLIT_MODES:
            for burst in weapon.bursts:
                names = [s.target for s in shots if s.mode == mode and s.burst == burst]
                if len(names) < 2:
                    continue
                probe = Shoot(me, names[0], mode=mode, burst=burst, also=(names[1],))
                if _ok(lambda p=probe: split.plan(sys, eid, p)):  # type: ignore[misc]
                    ranged += [Shoot(me, a, mode=mode, burst=burst, also=(b,)) for a in names for b in names if a != b]
    out["ranged"] = tuple(ranged)
    if not (weapon.thrown or weapon.launched):
        if firer is not None:
            out["covers"] = tuple(b for b in (0, *weapon.bursts) if firer("prepared", b))
        else:
            out["covers"] = tuple(b for b in (0, *weapon.bursts) if _ok(lambda b=b: covering.firer_check(sys, eid, b)))  # type: ignore[misc]
    here = sys.w.cell(eid)
    out["launches"] = weapon.launched and _ok(lambda: launched.launch_setup(sys, eid, Launch(me, here)))
    if out.get("covers") or out["launches"] or out["off_launches"]:
        out["cell_ok"] = _cells(sys, eid)
    return out


def _off_launches(sys: FiSystems, eid: int, me: str) -> bool:
    """The LegalActions field `off_launches`: the other hand of a unit holding two weapons has a launcher that
    launches now (launch_setup's firer checks, asked at the unit's own cell); False for anyone else (one look-up)."""
    if not sys.w.peek(eid, Status).two_weapons:
        return False
    off = two_weapons.off_hand(sys, eid)
    if off is None or not sys.ctx.armoury.weapons[sys.w.peek(eid, Loadout).weapons[off].weapon_id].launched:
        return False
    return _ok(lambda: launched.launch_setup(sys, eid, Launch(me, sys.w.cell(eid), hand="off")))


def offhand(sys: FiSystems, eid: int, me: str, seen: list[str],
            fresh: Callable[[], bool]) -> LazyActions[Shoot] | tuple[()]:
    """The LegalActions field `offhand`: the shots of the weapon in the other hand (R-6.12, `hand=off`), worked out
    when first read (LazyActions), for a unit holding a weapon in each hand; () for anyone else (one look-up)."""
    if not sys.w.peek(eid, Status).two_weapons:
        return ()
    return LazyActions(partial(two_weapons.offhand_shots, sys, eid, me, list(seen)), fresh)


def _cells(sys: FiSystems, eid: int) -> Callable[[str, geo.Cell], bool]:
    """`cell_ok`: the per-cell checks of covering fire (covering.cell_check) and of a launch (launch_setup's: an
    open cell on the map, in sight, within range), for the unit and its weapon as they are now; "off_launch" for
    the launcher in its other hand (its range)."""
    weapon = sys.weapon(eid)[0]  # type: ignore[index]
    off = two_weapons.off_hand(sys, eid)
    off_range = -1.0 if off is None else \
        sys.ctx.armoury.weapons[sys.w.peek(eid, Loadout).weapons[off].weapon_id].max_range_m
    grid = sys.ctx.grid
    here = sys.w.cell(eid)

    def ok(kind: str, cell: geo.Cell) -> bool:
        at = (int(cell[0]), int(cell[1]))
        if kind == "cover":
            return _ok(lambda: covering.cell_check(sys, eid, weapon, at))
        if kind not in ("launch", "off_launch") or not grid.inside(at) or grid.blocks_sight[at[1], at[0]]:
            return False
        reach = weapon.max_range_m if kind == "launch" else off_range
        return geo.sight(grid, here, at).visible and geo.distance_m(here, at, grid.cell_m) <= reach + 1e-9

    return ok
