"""Future Imperfect legality as a question (issue 11, STYLE 13): list what a unit may do now, each candidate put to the same
checks the systems apply, so a listed action is accepted and an unlisted one refused."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from skirmish.core.errors import IllegalAction
from skirmish.core.legal import LazyActions, LazyCells, LegalActions
from skirmish.ecs.components import Declared, Health, Identity, Loadout, Profile, Tacpack, Turn
from skirmish.ecs.systems.fi import mounts, ranged_legal
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, Aim, Declare, SetTacpack, Shoot, Throw, Wait
from skirmish.rules.deck import LOCATIONS
from skirmish.rules.equipment import SCREEN_TYPES
from skirmish.rules.fi import initiative as ini
from skirmish.rules.fi import thrown as thr
from skirmish.rules.fi import waiting as wt
from skirmish.rules.fi.timing import ATTACK_MODES, Part

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi import FiSystems


def _ok(check: Callable[[], object]) -> bool:
    try:
        check()
    except IllegalAction:
        return False
    return True


def declarations(unit: str) -> LegalActions:
    """A declaration: every speed, or dodge (R-5.1)."""
    return LegalActions(unit, "declare", declare=tuple(Declare(unit, s) for s in ini.DECLARATIONS))


def turn_actions(sys: FiSystems, eid: int) -> LegalActions:
    """Everything the unit whose turn it is may do now (R-5.3–R-6.13), each domain checked by the systems."""
    w = sys.w
    me = w.get(eid, Identity).name
    if w.peek(eid, Health).out_of_action:
        return LegalActions(me, "act")
    walk, run = _moves(sys, eid)
    enemies = [(e, i.name) for e, i in w.units()
               if i.side_index != w.peek(eid, Identity).side_index and not w.peek(e, Health).out_of_action]
    # `aim_target_ok` (an enemy in action, in sight) is asked once per enemy: it is also the first of
    # `shot_target_ok`'s checks about the target, the second being the weapon's range (`_in_range`)
    seen = [name for _, name in enemies if sys.aim_target_ok(eid, name)]
    shots: list[Shoot] = []
    wpn = sys.weapon(eid)
    firer = _Firer(sys, eid, me)
    if wpn is not None and not wpn[0].thrown:
        shots = _shots(firer, me, [t for t in seen if _in_range(sys, eid, t, wpn[0].max_range_m)], wpn[0].bursts)
    called = LOCATIONS if any(not s.burst for s in shots) else ()
    aims = _aims(sys, eid, me, seen)
    tp = w.get(eid, Tacpack)
    # the tacpack splits and the melee list are worked out when first read (LazyActions: a decision that never
    # asks about a split or a blow pays none of their checks), in the state they were listed in (`fresh`)
    applied = sys.applied
    fresh = partial(_unchanged, sys, applied)
    screens: LazyActions[SetTacpack] | tuple[()] = \
        LazyActions(partial(_screens, sys, eid, me), fresh) if tp.generator else ()
    melee = LazyActions(partial(sys.melee_actions, eid, walk | run), fresh)
    return LegalActions(
        me, "act", walk=walk, run=run, shots=tuple(shots), called=tuple(called), throws=_throws(sys, eid),
        aims=aims, reload=_ok(lambda: sys.reload_check(eid)),
        waits=(waits := _waits(sys, eid, me, seen)), wait_cells=_wait_cells(sys) if waits else frozenset(),
        screens=screens, melee=melee, contests=sys.contest_options(eid, me, seen),
        offhand=ranged_legal.offhand(sys, eid, me, seen, fresh),  # two weapons: the other hand's shots
        **ranged_legal.listed(sys, eid, me, shots, firer),  # double taps, split bursts, covering fire, launches (issue 14)
        mounts=mounts.listed(sys, eid),  # mounting and dismounting (R-6.1 mounts)
    )


def _waits(sys: FiSystems, eid: int, me: str, seen: list[str]) -> tuple[Wait, ...]:
    """Every wait `wait_check` accepts (R-5.7) but `enemy_enters:X,Y` (its cells are `_wait_cells`): the plain
    triggers, then `acts:` each friend in action and each enemy in sight (`seen`: fog, an enemy out of sight is
    not named) and `preempt:` each enemy in sight. `wait_check` is asked once for the unit (its turn, its
    declaration: the default trigger); what `trigger_check` adds for the others is
    asked here by kind (a ranged weapon for `enemy_in_range`), and its checks of
    a named unit (another combatant, in action; an enemy to pre-empt) hold by construction of the names listed."""
    w = sys.w
    if not _ok(lambda: sys.wait_check(eid, Wait(me))):
        return ()  # the turn has acted, or the unit dodges: no wait at all
    out = [Wait(me), Wait(me, "enemy_moves")]
    wpn = sys.weapon(eid)
    if wpn is not None and not wpn[0].thrown and wpn[0].range_inc_m:
        out.append(Wait(me, "enemy_in_range"))
    out.append(Wait(me, wt.LATER))
    mine = w.peek(eid, Identity).side_index
    sees = set(seen)
    others = [(i.name, i.side_index) for e, i in w.units() if e != eid and not w.peek(e, Health).out_of_action
              and (i.side_index == mine or i.name in sees)]
    out += [Wait(me, f"acts:{n}") for n, _ in others]
    out += [Wait(me, f"preempt:{n}") for n, s in others if s != mine]
    return tuple(out)


def _wait_cells(sys: FiSystems) -> frozenset[geo.Cell]:
    """The cells a wait may name for `enemy_enters:X,Y` (R-5.7): every cell someone could enter (not a wall); the
    unit's own checks are those of its other waits (`trigger_check` asks only that the cell be open)."""
    cells = sys.ctx.open_cells
    if cells is None:  # a function of the map alone: kept with it (`GridMap.kept`) for every battle on it
        grid = sys.ctx.grid
        cells = grid.kept.get("open_cells")
        if cells is None:
            cells = grid.kept["open_cells"] = frozenset(
                (x, y) for x in range(grid.width) for y in range(grid.height) if grid.passable((x, y)))
        sys.ctx.open_cells = cells
    return cells


def _unchanged(sys: FiSystems, applied: int) -> bool:
    """No action applied since `applied` was read (a lazy part of a legal list still lists what it did)."""
    return sys.applied == applied


def _screens(sys: FiSystems, eid: int, me: str) -> tuple[SetTacpack, ...]:
    """Every tacpack split `tacpack_check` accepts (R-6.13), in the order screen × points."""
    out: list[SetTacpack] = []
    for screen in ("none", *SCREEN_TYPES):
        for points in range(1 if screen == "none" else sys.w.peek(eid, Tacpack).generator + 1):
            split = SetTacpack(me, screen, points)
            if _ok(lambda s=split: sys.tacpack_check(eid, s)):  # type: ignore[misc]
                out.append(split)
    return tuple(out)


def _in_range(sys: FiSystems, eid: int, target: str, max_range_m: float) -> bool:
    """`shot_target_ok`'s check after `aim_target_ok`: the target within the weapon's range (R-6.1)."""
    w = sys.w
    return geo.distance_m(w.cell(eid), w.cell(w.entity(target)), sys.ctx.grid.cell_m) <= max_range_m + 1e-9


def _shots(firer: _Firer, me: str, targets: list[str], bursts: tuple[int, ...]) -> list[Shoot]:
    """Every Shoot(me, target, mode, burst) that `shot_setup` accepts, in the order (target, mode, burst), of the
    `targets` that pass `shot_target_ok` (`turn_actions` asks it in two parts, sight then range).

    shot_setup's checks are of two kinds: about the target (`shot_target_ok`: it exists, is an enemy in
    action, in sight and in range) and about the firer's mode and burst (its weapon, rounds, tacpack, timing);
    neither kind reads the other's inputs, and nothing after them refuses. So the modes and bursts that pass
    are found once (`firer`), and every target that passes takes them all."""
    if not targets:
        return []
    firer_ok = [(m, b) for m in ATTACK_MODES for b in (0, *bursts) if firer(m, b)]
    return [Shoot(me, target, mode=m, burst=b) for target in targets for m, b in firer_ok]


class _Firer:
    """What `shot_setup` checks of a shot at a target that passes `shot_target_ok`, by (mode, burst): the firer's
    checks (`shot_firer_check`, which reads nothing of the target), then the timing (nothing after them refuses);
    each answered once per legal list. Covering fire's firer checks (covering.firer_check: in action, not
    dodging, `shot_firer_check` of a prepared shot, the prepared attack's timing) are the prepared shot's:
    ranged_legal lists `covers` with the same answers."""

    __slots__ = ("_eid", "_kept", "_me", "_parts", "_sys")

    def __init__(self, sys: FiSystems, eid: int, me: str) -> None:
        self._sys, self._eid, self._me = sys, eid, me
        self._kept: dict[tuple[str, int], bool] = {}
        self._parts: dict[Part, bool] = {}  # the timing's answer per part (a mode's part is the same at every burst)

    def __call__(self, mode: str, burst: int) -> bool:
        key = (mode, burst)
        ok = self._kept.get(key)
        if ok is None:
            shot = Shoot(self._me, "", mode=mode, burst=burst)
            ok = self._kept[key] = _ok(partial(_firer, self._sys, self._eid, shot, self._parts))
        return ok


def _firer(sys: FiSystems, eid: int, shot: Shoot, parts: dict[Part, bool]) -> None:
    """`_Firer`'s checks of one shot; raises IllegalAction. `parts` keeps the timing's answer per part (the timing
    reads the part and the unit's turn, nothing of the shot's burst), asked once per part."""
    if not sys.active(eid):
        raise IllegalAction("R-8.1: out of action")
    weapon, _ = sys.shot_firer_check(eid, shot)
    part = sys.attack_part(eid, weapon, shot.mode)
    fits = parts.get(part)
    if fits is None:
        fits = parts[part] = _ok(lambda: sys.check_parts(eid, part))
    if not fits:
        raise IllegalAction("timing")


def _aims(sys: FiSystems, eid: int, me: str, targets: list[str]) -> tuple[Aim, ...]:
    """Every Aim(me, target) that `aim_check` accepts, in order, of the `targets` that pass `aim_target_ok`. Its
    checks are about the target (`aim_target_ok`: an enemy in action, in sight) or about the firer alone (a
    weapon to aim, not dodging, the aim fits the turn): the firer's are asked once, with the first target."""
    out: list[Aim] = []
    firer_ok: bool | None = None
    for target in targets:
        if firer_ok is None:
            firer_ok = _ok(lambda t=target: sys.aim_check(eid, Aim(me, t)))  # type: ignore[misc]
        if firer_ok:
            out.append(Aim(me, target))
    return tuple(out)


def _moves(sys: FiSystems, eid: int) -> tuple[frozenset[geo.Cell], frozenset[geo.Cell]]:
    """Cells a move may end in, walking and running: the reach the routes take (R-5.6) within what the
    declared speed still allows this turn (R-5.3–R-5.5)."""
    w = sys.w
    if w.peek(eid, Turn).moved_this_turn or sys.held_reason(eid):  # (held in place in melee, R-7.2/R-7.6)
        return frozenset(), frozenset()
    fast = w.peek(eid, Declared).speed == "fast"
    can_walk = not fast and sys.fits(eid, Part("move"))
    can_run = sys.fits(eid, Part("move", running=True))
    if not (can_walk or can_run):
        return frozenset(), frozenset()
    grid = sys.ctx.grid
    walk_m, run_m = sys.move_allowance(eid)
    here = w.cell(eid)
    # geo.reach_field with the other figures' cells blocked, kept (read-only)
    field = sys.ctx.reach.field_among(grid, here, run_m / grid.cell_m, sys.known_occupied(eid))  # fog: as the side knows
    return _move_sets(grid, field, here, walk_m, can_walk and not fast, can_run)


MOVE_SETS_KEPT = 256  # `_move_sets` answers kept per map before they start again


def _move_sets(grid: geo.GridMap, field: npt.NDArray[np.float64], here: geo.Cell, walk_m: float, can_walk: bool,
               can_run: bool) -> tuple[frozenset[geo.Cell], frozenset[geo.Cell]]:
    """`_moves`' cells from a reach field (read-only, kept by the map: `ReachCache.field_among`): the cells reached
    but `here`, split at `walk_m`. A function of its arguments, so kept with the map by the field object (held with
    the answer, so its id is not another field's) and the others: a unit that has not moved, among figures that
    have not either, gets the same field and the same sets back."""
    kept: dict[tuple[int, geo.Cell, float, bool, bool], tuple[Any, tuple[frozenset[geo.Cell], frozenset[geo.Cell]]]]
    kept = grid.kept.setdefault("legal_move_sets", {})
    key = (id(field), here, walk_m, can_walk, can_run)
    k = kept.get(key)
    if k is not None and k[0] is field:
        return k[1]
    ys, xs = np.nonzero(np.isfinite(field))
    away = (xs != here[0]) | (ys != here[1])  # staying put is not a move
    # each cell's float test, all at once; a walk that does not fit any more is covered at a run (plan_move)
    walking = away & (field[ys, xs] * grid.cell_m <= walk_m + 1e-9) if can_walk else away & False
    running = away & ~walking if can_run else away & False
    # (sets filled in the cells' order, then frozen, as one add per cell did: the same sets, the same order)
    walks = set(zip(xs[walking].tolist(), ys[walking].tolist(), strict=True))
    runs = set(zip(xs[running].tolist(), ys[running].tolist(), strict=True))
    out = (frozenset(walks), frozenset(runs))
    if len(kept) >= MOVE_SETS_KEPT:
        kept.clear()
    kept[key] = (field, out)
    return out


def _throws(sys: FiSystems, eid: int) -> tuple[tuple[str, LazyCells], ...]:
    """For each explosive carried, the cells it may be thrown at (R-6.10): open, in sight, within reach."""
    w = sys.w
    out = []
    seen: set[str] = set()
    here = w.cell(eid)
    grid = sys.ctx.grid
    strength = w.get(eid, Profile).traits["strength"][0]
    reach = int(thr.max_throw_m(strength) / grid.cell_m) + 1
    for ws in w.get(eid, Loadout).weapons:
        weapon = sys.ctx.armoury.weapons[ws.weapon_id]
        if not weapon.thrown or ws.rounds <= 0 or weapon.id in seen:
            continue
        seen.add(weapon.id)
        if not _ok(lambda i=weapon.id: sys.throw_setup(eid, Throw(w.get(eid, Identity).name, here, i))):  # type: ignore[misc]
            # Not even at its own feet: a rule about the thrower (timing, dodging), not about the cell.
            continue
        box = (range(max(0, here[0] - reach), min(grid.width, here[0] + reach + 1)),
               range(max(0, here[1] - reach), min(grid.height, here[1] + reach + 1)))
        # throw_setup's per-cell conditions, worked out when first read (LazyCells: a decision that never looks
        # at the throws pays no sight for them), from the thrower's cell and reach as they are now
        out.append((weapon.id, LazyCells(partial(sys.throw_cells_at, here, thr.max_throw_m(strength), box),
                                         partial(sys.throw_cells_among, here, thr.max_throw_m(strength), box))))
    return tuple(out)


def refusal_of(sys: FiSystems, eid: int, action: Action) -> IllegalAction | None:
    """The systems' refusal of an action in a turn, or None if they accept it (nothing is changed)."""
    try:
        sys.check(eid, action)
    except IllegalAction as exc:
        return exc
    return None
