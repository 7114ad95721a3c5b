"""Controllers: explicit scripted orders (C-4) and a scripted baseline AI that plays a whole battle.

Controllers read a frozen BattleView and return Actions; they never touch the world (ARCHITECTURE §2).
What a unit has done this turn is the view's (`UnitView.turn_parts`, `moved`, `attacked`): the
baselines keep no memory of it. They hold their own plans to the timing rule (R-5.3–R-5.5) on those parts
and do not ask the battle for its legal actions, so a battle of them computes nothing it does not need;
the random AI asks (`Request.legal()`) and picks among them.
"""

from __future__ import annotations

import math
import random
import zlib
from collections import deque
from collections.abc import Callable

import numpy as np

from skirmish.ai.baseline_cells import _best_cell
from skirmish.ai.baseline_melee import flee, held_answer
from skirmish.ai.estimate import firer_mounted, fits_kept, throw_chance
from skirmish.ai.reach import ReachCache
from skirmish.ai.utility.melee import held
from skirmish.battle import Controller, Request
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, Declare, EndTurn, Move, Reload, Shoot, Throw, Wait, orders_by_unit
from skirmish.rules.checks import tn as tn_of
from skirmish.rules.deck import SIDES
from skirmish.rules.dice import pool_pmf, prob_at_least
from skirmish.rules.equipment import Speed, Weapon
from skirmish.rulesets.fi import Part
from skirmish.rulesets.fi import thrown as thr


class IdleController:
    """Declares NORMAL and ends every turn (a training dummy)."""

    def decide(self, view: BattleView, request: Request) -> Action:
        """Do nothing."""
        return Declare(request.unit, "normal") if request.kind == "declare" else EndTurn(request.unit)


class ScriptedController:
    """Follows explicit orders in sequence per unit (C-4); when a unit's orders run out it idles."""

    def __init__(self, orders: list[str]) -> None:
        self.queues: dict[str, deque[Action]] = orders_by_unit(orders)

    def decide(self, view: BattleView, request: Request) -> Action:
        """The unit's next order, or an idle answer."""
        q = self.queues.get(request.unit)
        want = Declare if request.kind == "declare" else None
        if q:
            nxt = q[0]
            if (want is Declare) == isinstance(nxt, Declare):
                return q.popleft()
        return Declare(request.unit, "normal") if request.kind == "declare" else EndTurn(request.unit)


CHOICES_KEPT = 4096  # cell choices the baselines keep per map before they start again (BaselineAI._choose_cell)
COUNTED_ENEMIES = 6  # the enemies nearest the unit that the baselines' cell choice weighs (`enemies_that_matter`)


def enemies_that_matter(here: geo.Cell, cells: tuple[geo.Cell, ...]) -> tuple[geo.Cell, ...]:
    """The enemy cells a baseline's cell choice weighs: the COUNTED_ENEMIES nearest `here` (straight-line distance,
    the view's order between equals), kept in the view's order; all of them when there are no more. A squad's
    worth of the nearest enemies are the ones that can trade shots with the unit this turn; weighing every enemy
    on the map made a decision's cost grow with the battle (issue 12: 24 v 24)."""
    if len(cells) <= COUNTED_ENEMIES:
        return cells
    nearest = sorted(range(len(cells)), key=lambda i: (geo.distance_cells(here, cells[i]), i))[:COUNTED_ENEMIES]
    return tuple(cells[i] for i in sorted(nearest))


def hit_chance(me: UnitView, target: UnitView, view: BattleView, mode_mod: int = 0) -> float:
    """Rough chance to hit from the exact dice distribution of the shooter's pool (R-6.1)."""
    w = me.weapon
    if w is None:
        return 0.0
    dist = geo.distance_m(me.cell, target.cell, view.grid.cell_m)
    if dist > w.max_range_m:
        return 0.0
    target_tn = tn_of("standard", view.scope) + int(dist // w.range_inc_m)  # type: ignore[arg-type]
    col, training = me.trait("dexterity")
    level = me.skill(w.skill)
    mod = mode_mod - min(3, me.wounds)
    halve = False
    if not level:
        related = [lvl for name, lvl in me.skills if name.split(":")[0] == w.skill.split(":")[0]]
        if related:
            level, mod = max(related), mod - 2
        else:
            level, halve = training, True
    pmf = pool_pmf(SIDES[col], level, target_tn - mod)
    if halve:
        return sum(p for v, p in pmf if v > 0 and v // 2 + mod >= target_tn)
    return prob_at_least(pmf, target_tn - mod)


def throw_value(view: BattleView, me: UnitView, weapon: Weapon, e: UnitView, dist: float,
                danger: float) -> float | None:
    """The baselines' worth of a throw at enemy `e`'s cell, `dist` metres away: its chance to land times the enemies
    the burst would catch (one more when `e` is behind high cover or out of sight); None when a friend stands within
    `danger` metres of the cell, or when it would catch fewer than two enemies in the open (`BaselineAI._grenade`)."""
    grid = view.grid
    aim = e.cell
    if any(geo.distance_m(f.cell, aim, grid.cell_m) <= danger for f in view.friends(me)):
        return None
    inside = [o for o in view.enemies(me) if thr.in_blast(grid, weapon, aim, o.cell, armoured=True) is not None]
    sheltered = view.sight(me, e).cover == "high" or not view.sight(me, e).visible
    if len(inside) < 2 and not sheltered:
        return None
    p = throw_chance(me, weapon, dist, view.scope, firer_mounted(view, me))
    return p * (len(inside) + (1.0 if sheltered else 0.0))


class BaselineAI:
    """A sensible squad baseline: take cover with a line of fire, shoot the best target, reload when dry,
    wait in cover when nothing is in view, and never stand in the open for no reason."""

    def __init__(self) -> None:
        self._reach = ReachCache()  # each unit's walk, kept while nobody near it has moved
        # unit -> (the map, what its last cell choice was asked on, the answer): `_choose_cell`
        self._asked: dict[str, tuple[geo.GridMap, tuple[object, ...], geo.Cell | None]] = {}

    def decide(self, view: BattleView, request: Request) -> Action:
        """Answer a declaration or an action request."""
        me = view.unit(request.unit)
        if request.kind == "declare":
            return self._declare(view, me)
        if "terrified" in me.mind:  # it may only move farther from what it fears, or end its turn
            return flee(view, me, request.legal())
        if me.melee is not None and held(view, me) is not None:  # held in melee: no move
            return held_answer(view, me, request.legal()) or self._act(view, me, can_move=False)
        return self._act(view, me)

    # ------------------------------------------------------------------ declaration
    def _declare(self, view: BattleView, me: UnitView) -> Declare:
        w = me.weapon
        if w is None:
            return Declare(me.name, "normal")
        if me.jammed or me.rounds == 0:
            return Declare(me.name, "slow" if me.magazines or me.jammed else "normal")
        if w.speed == Speed.SLOW:
            return Declare(me.name, "slow")
        return Declare(me.name, "normal")

    # ------------------------------------------------------------------ acting
    def _fits(self, me: UnitView, part: Part) -> bool:
        """The turn so far (the view's) and one more action fit the declared speed (R-5.3–R-5.5)."""
        return fits_kept(me.declared, (*me.turn_parts, part))  # the rules' `fits`, kept (a few turns come up)

    def _visible_targets(self, view: BattleView, me: UnitView, cell: geo.Cell) -> list[UnitView]:
        if me.weapon is None:
            return []
        out = []
        grid, reach = view.grid, me.weapon.max_range_m
        for e in view.enemies(me):
            if e.ghost:  # a ghost is never a target: its sight is not asked
                continue
            s = geo.sight(grid, cell, e.cell)
            if s.visible and (not s.lean) and geo.distance_m(cell, e.cell, grid.cell_m) <= reach:
                out.append(e)
        return out

    def _act(self, view: BattleView, me: UnitView, can_move: bool = True) -> Action:
        w = me.weapon
        if w is None:
            return (None if me.attacked else self._grenade(view, me)) or EndTurn(me.name)
        if (me.jammed or me.rounds == 0) and (me.jammed or me.magazines > 0):
            return Reload(me.name) if self._fits(me, Part("reload", int(Speed.NORMAL))) else EndTurn(me.name)
        if me.rounds == 0:
            return EndTurn(me.name)
        targets = self._visible_targets(view, me, me.cell)
        attacked = me.attacked  # (read once: a property over the turn's parts; the view is frozen)
        if not attacked:
            throw = self._grenade(view, me)
            if throw is not None:
                return throw
        if can_move and not attacked and me.moved == "none":
            dest = self._choose_cell(view, me, bool(targets))
            # At FAST every move is a run; staying put is a choice too, and then it shoots or ends.
            if dest is not None and dest != me.cell and self._fits(me, Part("move", running=me.declared == "fast")):
                return Move(me.name, dest)
        if targets and not attacked and me.can_fire:
            best = self._pick(view, me, targets)
            burst = min(w.bursts) if w.bursts and me.can_fire_burst(min(w.bursts)) else 0
            for mode in ("aimed", "prepared", "snap"):
                if burst and mode == "aimed":
                    continue
                if self._fits(me, Part("attack", int(w.speed), mode)):
                    return Shoot(me.name, best.name, mode=mode, burst=burst)
        if not me.turn_parts and not targets and self._worth_waiting(view, me):
            return Wait(me.name)
        return EndTurn(me.name)

    def _grenade(self, view: BattleView, me: UnitView) -> Throw | None:
        """Throw when a burst would catch two enemies, or one the gun can barely touch behind high cover,
        and no friend stands within the radius plus the likely scatter (R-6.9, R-6.10)."""
        if not me.throwables:
            return None
        weapon, _ = me.throwables[0]
        grid = view.grid
        strength = me.trait("strength")[0]
        limit = thr.max_throw_m(strength)
        enemies = view.enemies(me)
        danger = weapon.blast_m + 2 * grid.cell_m  # keep friends clear of a short scatter
        # The enemies it could aim at (seen now, within the throw, beyond the scatter, in sight): none (most turns),
        # no throw, with the timing rule not asked (both only read the view).
        aims = [(e, dist) for e in enemies if not e.ghost
                and danger < (dist := geo.distance_m(me.cell, e.cell, grid.cell_m)) <= limit
                and geo.sight(grid, me.cell, e.cell).visible]
        if not aims or not self._fits(me, Part("attack", int(weapon.speed), "prepared")):
            return None
        best: tuple[float, geo.Cell] | None = None
        for e, dist in aims:
            value = throw_value(view, me, weapon, e, dist, danger)
            if value is not None and value >= 0.5 and (best is None or value > best[0]):
                best = (value, e.cell)
        if best is None:
            return None
        return Throw(me.name, best[1], weapon.id)

    def _pick(self, view: BattleView, me: UnitView, targets: list[UnitView]) -> UnitView:
        """The target to shoot: the best chance weighted by cover and wounds."""
        return max(targets, key=lambda t: (self._value(view, me, t), -ord(t.name[0])))

    def _worth_waiting(self, view: BattleView, me: UnitView) -> bool:
        """Hold fire in cover only when an enemy is close enough to step into view this round."""
        if me.cover == "none" or me.weapon is None:
            return False
        nearest = min((geo.distance_m(me.cell, e.cell, view.grid.cell_m) for e in view.enemies(me)),
                      default=math.inf)
        return nearest <= 2 * me.weapon.range_inc_m and me.waiting is None

    def _value(self, view: BattleView, me: UnitView, t: UnitView) -> float:
        p = hit_chance(me, t, view)
        cover_factor = {"none": 1.0, "low": 0.6, "high": 0.35}[geo.sight(view.grid, me.cell, t.cell).cover]
        return p * cover_factor * (1 + t.wounds / 4)

    def _choose_cell(self, view: BattleView, me: UnitView, has_target: bool) -> geo.Cell | None:
        """Best cell within a walk: cover against every enemy that can see it, a line of fire, and
        closing in when nothing is in view, weighed against the enemies nearest the unit (`enemies_that_matter`:
        all of them up to COUNTED_ENEMIES). Every reachable cell is scored at once; the first best cell in
        row order wins, as a cell-by-cell scan would pick it.

        The answer depends only on the unit's cell, its walk (the reach field: the map's and the figures' cells its
        search looked at), its weapon's range and those enemies' cells in order (sight and distances are the
        map's), so it is kept with the map (`GridMap.kept`, for every baseline and battle on it) by those, and
        asked again for the same ones (a unit that stayed put, turn after turn, while figures beyond its walk
        moved) it costs the kept walk's check and a look-up: no scoring; at most CHOICES_KEPT. Asked again on what
        the unit's last choice was asked on (the same map, cell, walk, range, weighed enemies and figures), it is
        that answer, with no walk checked (`_asked`)."""
        enemies = view.enemies(me)
        if not enemies:
            return None
        grid = view.grid
        col, _ = me.trait("dexterity")
        walk_cells = SIDES[col] / grid.cell_m
        reach = me.weapon.max_range_m if me.weapon else -math.inf  # no weapon: no shot from anywhere
        enemy_cells = enemies_that_matter(me.cell, tuple(e.cell for e in enemies))
        figures = view.occupied(me.name)
        # Asked what the unit's last choice was asked on (the same map, cell, walk, range, weighed enemies and
        # figures: most turns of a unit that stays put while nobody moves), the same answer, unchecked.
        asked = (me.cell, walk_cells, reach, enemy_cells, figures)
        last = self._asked.get(me.name)
        if last is not None and last[0] is grid and last[1] == asked:
            return last[2]
        # The walk (kept while the figures its search looked at stay: `field_among`) stands for the figures: one
        # far off moving changes neither it nor the choice.
        field_ = self._reach.field_among(grid, me.cell, walk_cells, figures)
        key = (me.cell, reach, enemy_cells, id(field_))
        chosen: dict[tuple[object, ...], tuple[object, geo.Cell]] = grid.kept.setdefault("baseline_choices", {})
        kept = chosen.get(key)
        if kept is not None and kept[0] is field_:
            best = kept[1]
        else:
            if len(chosen) >= CHOICES_KEPT:
                chosen.clear()
            best = _best_cell(grid, field_, me.cell, reach, enemy_cells)
            chosen[key] = (field_, best)
        self._asked[me.name] = (grid, asked, best)
        return best


class FocusWeakestAI(BaselineAI):
    """Hold cover like the baseline, but every shot goes to the most hurt enemy in view."""

    def _pick(self, view: BattleView, me: UnitView, targets: list[UnitView]) -> UnitView:
        return max(targets, key=lambda t: (t.wounds, -t.ct, hit_chance(me, t, view), t.name))


class SpreadFireAI(BaselineAI):
    """Focus fire without overkill: the most hurt enemy in view unless the side has already sent it enough
    fire this round to put it down, then the next one."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: dict[tuple[int, str], float] = {}

    def _pick(self, view: BattleView, me: UnitView, targets: list[UnitView]) -> UnitView:
        def need(t: UnitView) -> float:
            return max(0.0, 4 - t.wounds) - self.sent.get((view.round, t.name), 0.0)

        open_ = [t for t in targets if need(t) > 0] or targets
        best = max(open_, key=lambda t: (t.wounds, hit_chance(me, t, view), t.name))
        self.sent[(view.round, best.name)] = self.sent.get((view.round, best.name), 0.0) + 2.5 * hit_chance(
            me, best, view)
        return best


class RushAI(BaselineAI):
    """Rush the nearest enemy: declare FAST while nothing is in view, run at it, shoot when it can."""

    def _declare(self, view: BattleView, me: UnitView) -> Declare:
        if me.weapon is not None and (me.jammed or me.rounds == 0):
            return super()._declare(view, me)
        targets = self._visible_targets(view, me, me.cell)
        return Declare(me.name, "normal" if targets else "fast")

    def _choose_cell(self, view: BattleView, me: UnitView, has_target: bool) -> geo.Cell | None:
        grid = view.grid
        enemies = view.enemies(me)
        if not enemies:
            return None
        col, _ = me.trait("dexterity")
        run = (1 if me.declared == "dodge" else 2) * SIDES[col] / grid.cell_m
        blocked = np.zeros((grid.height, grid.width), dtype=bool)
        for x, y in view.occupied(me.name):
            blocked[y, x] = True
        field_ = geo.reach_field(grid, me.cell, run if me.declared == "fast" else run / 2, blocked)
        target = min(enemies, key=lambda e: (geo.distance_cells(me.cell, e.cell), e.name))
        ys, xs = np.nonzero(np.isfinite(field_))
        # By the walking distance to the target, not the straight line, so walls and water do not strand it.
        to_target = geo.reach_field(grid, target.cell, math.inf)
        d = to_target[ys, xs] + 0.01 * np.hypot(xs - target.cell[0], ys - target.cell[1])
        i = int(np.argmin(d))
        return int(xs[i]), int(ys[i])

    def _pick(self, view: BattleView, me: UnitView, targets: list[UnitView]) -> UnitView:
        return min(targets, key=lambda t: (geo.distance_cells(me.cell, t.cell), t.name))


class RandomAI:
    """Random legal actions (the battle's own list, `Request.legal()`), seeded from the request so the battle
    stays deterministic: a random declaration; in a turn a shot, a move or a reload, for at most three."""

    def decide(self, view: BattleView, request: Request) -> Action:
        """A random declaration; a random legal shot, move or reload, or the end of the turn."""
        rng = random.Random(zlib.crc32(f"{view.round}:{view.phase}:{request.unit}:{request.kind}:"
                                       f"{len(view.units)}:{view.unit(request.unit).cell}".encode()))
        me = view.unit(request.unit)
        legal = request.legal()
        if request.kind == "declare":
            return rng.choice(legal.declare)
        if len(me.turn_parts) >= 3:
            return EndTurn(me.name)
        choice = rng.random()
        if choice < 0.4 and legal.shots:
            return rng.choice(legal.shots)
        moves = sorted(legal.walk | legal.run)
        if choice < 0.8 and moves:
            return Move(me.name, rng.choice(moves))
        if choice < 0.9 and legal.reload:
            return Reload(me.name)
        return EndTurn(me.name)


AI_KINDS = ("baseline", "hold", "random", "rush", "focus", "spread", "utility", "search")

# Another ruleset's own controllers (the seam: Future Imperfect's are in this module): ruleset -> a maker of a
# controller from (AI spec or "scripted"/"idle", the side's orders) that raises ValueError for one it has not.
RULESET_AIS: dict[str, Callable[[str, list[str]], Controller]] = {}


def make_ai(spec: str, ruleset: str = "fi") -> Controller:
    """An AI by name: baseline (= hold: hold cover and shoot), random, rush, focus (the weakest), spread
    (focus without overkill), utility[:personality] (easy, normal, hard, aggressive, cautious), or
    search[:personality] (the utility AI's options weighed one exchange ahead, issue 12). For a ruleset
    with its own controllers (`RULESET_AIS`), that ruleset's AI of the name."""
    own = RULESET_AIS.get(ruleset)
    if own is not None:
        return own(spec, [])
    kind, _, _ = spec.partition(":")
    if kind == "utility":
        from skirmish.ai.utility import make_utility

        return make_utility(spec)
    if kind == "search":
        from skirmish.ai.search import make_search

        return make_search(spec)
    makers: dict[str, type] = {"baseline": BaselineAI, "hold": BaselineAI, "random": RandomAI, "rush": RushAI,
                               "focus": FocusWeakestAI, "spread": SpreadFireAI}
    if kind not in makers:
        raise ValueError(f"unknown AI {spec!r}; known: {', '.join(AI_KINDS)}")
    return makers[kind]()


def make_controller(kind: str, orders: list[str], ai: str = "utility", ruleset: str = "fi") -> Controller:
    """Build a side's controller from the scenario (of its ruleset: `RULESET_AIS`)."""
    own = RULESET_AIS.get(ruleset)
    if own is not None:
        return own(ai if kind == "ai" else kind, orders)
    if kind == "scripted":
        return ScriptedController(orders)
    if kind == "idle":
        return IdleController()
    return make_ai(ai)


from skirmish.ai.fw_baselines import make_fw  # noqa: E402  (Future*World's controllers; they use the ones above)

RULESET_AIS["fw"] = make_fw
