"""The utility AI's candidate actions: each option a unit could take now, with its considerations.

What the unit may do is the battle's answer (`Request.legal()`, i.e. `Battle.legal_actions`): only the
actions it lists become options, so the AI never proposes one the rules refuse. What the unit has already
done this turn is the view's (`UnitView.turn_parts`, `moved`, `attacked`), not a memory of its own. The
timing rule is read directly only to look ahead: whether a shot would still fit after a move (R-5.4).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.ai.curves import Curve
from skirmish.ai.estimate import estimate_shot, fits_kept
from skirmish.ai.sight_pairs import seen_pairs
from skirmish.ai.utility.attacks import aim_options, shoot_options, shot_after, throw_options
from skirmish.ai.utility.cell_scoring import score_cells
from skirmish.ai.utility.intent import GoalFields, Intent, side_intent
from skirmish.ai.utility.maps import MapCache, TacticalMaps, need_routes, route_threat
from skirmish.ai.utility.melee_options import contest_options, melee_options
from skirmish.ai.utility.mounts import mount_options, riding_walk_m, saddle_cost
from skirmish.ai.utility.personality import Personality
from skirmish.ai.utility.ranged_extra import extra_options
from skirmish.ai.utility.scoring import (
    HARM,
    CellParts,
    Consideration,
    Option,
    danger,
    harm,
    shot_considerations,
    targets,
)
from skirmish.ai.utility.squad import dodge_need, overwatching, stance
from skirmish.ai.utility.two_guns import off_launch_options, two_gun_options
from skirmish.core.legal import LegalActions
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Declare, EndTurn, Move, Reload, SetTacpack, Wait
from skirmish.rules.deck import SIDES
from skirmish.rules.equipment import SCREEN_STOPS, Speed
from skirmish.rulesets.fi import Part


@dataclass
class Situation:
    """What one decision reads: the view, the unit, its personality, its side's maps (and the cache they come
    from), what the battle says it may do now, and the fire its side has already sent at each target this
    round."""

    view: BattleView
    me: UnitView
    p: Personality
    maps: TacticalMaps
    cache: MapCache
    legal: LegalActions
    committed: Mapping[tuple[int, str], float]
    intent: Intent | None = None  # the side's intent (worked out from the view when not given)
    goal_fields: GoalFields | None = None  # the walking-distance fields to the intent's goals (kept per map)
    dangers: dict[str, float] = field(default_factory=dict)  # each target's threat, worked out once
    kept: dict[str, Any] = field(default_factory=dict)  # what several options read, worked out once (`keep`)

    def __post_init__(self) -> None:
        if self.intent is None:
            self.intent = side_intent(self.view, self.me, self.p.aggression)

    @property
    def side(self) -> Intent:
        """The side's intent."""
        assert self.intent is not None
        return self.intent

    def keep(self, name: str, make: Callable[[Situation], Any]) -> Any:
        """`make(self)`, worked out on the first call of this decision (the throw plans, the aims)."""
        if name not in self.kept:
            self.kept[name] = make(self)
        return self.kept[name]

    def danger(self, t: UnitView) -> float:
        """How dangerous an enemy is to the side (kept for moves and shots alike)."""
        if t.name not in self.dangers:
            if "sees" not in self.kept:  # every enemy's sight of each of us, one look (`sight_pairs`)
                ours = [self.me.cell, *(f.cell for f in self.view.friends(self.me))]
                enemies = self.view.enemies(self.me)
                self.kept["sees"] = dict(zip(((e.name, e.cell) for e in enemies),
                                             seen_pairs(self.view, [e.cell for e in enemies], ours), strict=True))
            self.dangers[t.name] = danger(self.view, t, self.me, self.kept["sees"].get((t.name, t.cell)))
        return self.dangers[t.name]


@dataclass
class Cells:
    """Where an action may end: the unit's cell, and the cells a legal move ends in (`moves`, empty if it
    will not move; `walks` those it reaches walking); every one's cell considerations, scored at once."""

    moves: npt.NDArray[np.bool_]
    walks: frozenset[geo.Cell]
    scores: npt.NDArray[np.float64]
    parts: CellParts
    stays: dict[tuple[geo.Cell, bool], list[Consideration]] = field(default_factory=dict)  # `stay`'s, kept


# ---------------------------------------------------------------------------------------------- declaration


def declare_options(view: BattleView, me: UnitView, p: Personality, maps: TacticalMaps,
                    legal: LegalActions, intent: Intent | None = None) -> list[Option]:
    """One option per declaration the battle allows (R-5.1): NORMAL to shoot, FAST to close in (harder when
    the side's intent presses, advances or searches), SLOW for a full reload or a heavy weapon, DODGE when
    wounded, exposed and trained to dodge with no shot worth more (issue 12)."""
    intent = intent or side_intent(view, me, p.aggression)
    w = me.weapon
    in_view = targets(view, me, me.cell)
    nearest = min((geo.distance_m(me.cell, e.cell, view.grid.cell_m) for e in view.enemies(me)), default=99.0)
    opts = []
    need_reload = w is not None and (me.jammed or me.rounds == 0) and (me.jammed or me.magazines > 0)
    two_action_reload = need_reload and not me.jammed and w is not None and w.reload_actions >= 2
    slow_weapon = w is not None and w.speed == Speed.SLOW
    can_shoot = bool(in_view) and w is not None and not need_reload and me.can_fire
    best = max((harm(estimate_shot(view, me, t, mode="prepared")) for t in in_view), default=0.0) \
        if can_shoot and me.wounds > 0 else 0.0
    need = dodge_need(view, me, maps, best) if p.use_squad else 0.0
    for speed in ("normal", "fast", "slow", "dodge"):
        o = Option(f"declare {speed}", Declare(me.name, speed), ("declare", speed))
        if not legal.allows(o.action):
            continue
        if speed == "normal":
            o.add("has a shot", 1.0 if can_shoot and not slow_weapon else 0.4, Curve("linear", m=0.6, b=0.35))
            o.add("weapon usable at NORMAL", 0.0 if slow_weapon or two_action_reload else 1.0,
                  Curve("linear", m=0.8, b=0.2))
        elif speed == "fast":
            far = min(1.0, nearest / 60.0)
            if intent.mode in ("press", "advance", "search"):  # going somewhere: run unless there is a shot
                far = max(far, 0.6)
            o.add("distance to close", far if not can_shoot else 0.0, Curve("logistic", m=1.0, k=10, c=0.35))
            o.add("aggression", max(p.aggression, intent.push if intent.closing else 0.0),
                  Curve("linear", m=0.6, b=0.4))
        elif speed == "slow":
            o.add("full reload or heavy weapon", 1.0 if two_action_reload or slow_weapon else 0.0,
                  Curve("linear", m=0.9, b=0.05))
        else:
            o.add("wounded, exposed, trained to dodge", need, Curve("linear", m=0.6, b=0.4) if need > 0
                  else Curve("linear", m=0.0, b=0.0))
            o.add("caution", p.caution, Curve("linear", m=0.3, b=0.7))
        if speed != "dodge":
            o.add("no need to dodge", 1 - need, Curve("linear"))
        opts.append(o)
    return opts


def slow_first(options: list[Option]) -> list[Option]:
    """`options` (declarations, best first) with SLOW first where the considerations chose NORMAL or FAST.

    SLOW allows every action NORMAL and FAST do (R-5.3: the declared speed or faster; a run is a FAST
    maneuver, R-5.4), and adds the aimed shot of a NORMAL or FAST weapon (R-5.4 assault: aimed one speed
    slower) and a SLOW weapon's prepared shot; it costs only initiative (R-5.2: the harder bar), so the unit
    tends to act after the enemy has moved and fired. Measured (docs/AI.md "Declaring SLOW"), acting late with
    an aimed shot beat acting early in every shipped scenario but Killhouse drill against `rush`, and an
    exchange model of the initiative (the aimed shot against the enemy's earlier fire) picked NORMAL where it
    lost. DODGE (no attack, R-5.4) is kept; the trace's "slow over the considerations' choice" is 1 for
    NORMAL, 2 for FAST, and SLOW takes that choice's score. `Personality.declare_slow` (off for `easy`)."""
    if not options or options[0].key[1] not in ("normal", "fast"):
        return options
    slow = next((o for o in options if o.key[1] == "slow"), None)
    if slow is None:
        return options
    was = 1.0 if options[0].key[1] == "normal" else 2.0
    slow.considerations.append(Consideration("slow over the considerations' choice", was, 1.0))
    slow.score = options[0].score  # it takes the choice's place, and its score (the search tier adds a share of it)
    return [slow, *(o for o in options if o is not slow)]


# ---------------------------------------------------------------------------------------------- a turn


def act_options(s: Situation) -> tuple[list[Option], npt.NDArray[np.float64] | None]:
    """Every option for the unit's next action in its turn, and the move heat map (the cell scores of the
    moves it may make, NaN elsewhere; None when it will not move)."""
    view, me, p, legal = s.view, s.me, s.p, s.legal
    w = me.weapon
    here_threat = float(1 - np.exp(-s.maps.threat[me.cell[1], me.cell[0]]))
    intent = s.side
    push = intent.push
    in_view = targets(view, me, me.cell)
    can_wait = not me.turn_parts and me.waiting is None and w is not None and me.can_fire and \
        legal.allows(Wait(me.name))
    watch = can_wait and not in_view and p.use_squad and overwatching(view, me, intent)  # bounding overwatch (issue 12)
    # Every option is scored where the unit ends its action: the same cell considerations for staying
    # and for each move, and the same shot considerations for shooting now and shooting after a move.
    plan = plan_cells(s)
    opts: list[Option] = [Option("end turn", EndTurn(me.name), ("end",)).add("fallback", p.fallback, Curve("linear"))]
    # Another shot after one this turn, while the declaration allows it (R-5.5: up to three attack actions, e.g.
    # three prepared at SLOW or three snaps at NORMAL; ): the battle lists only those that fit.
    shots = [stay(o, plan, me.cell, p) for o in shoot_options(s)] if w is not None and me.can_fire else []
    s.kept["shot here"] = max((harm(o.estimate) for o in shots if o.estimate is not None), default=0.0)
    heat = None
    if plan.moves.any():
        moves, heat = move_options(s, plan, watch)
        opts += moves
    # The screen is split once a turn at most (the AI's habit: a second free action would count as FAST).
    if me.tacpack_generator and not any(part.kind == "free" for part in me.turn_parts):
        opts += tacpack_options(s)
    if w is not None and legal.reload:
        o = Option("reload", Reload(me.name), ("reload",))
        spent = 1.0 if me.jammed else 1 - me.rounds / max(1, w.magazine)
        if me.off_hand is not None:  # two weapons: a reload serves the emptier hand
            spent = max(spent, 1.0 if me.off_jammed else 1 - me.off_rounds / max(1, me.off_hand.magazine))
        o.add("magazine spent", spent, Curve("polynomial", k=2.5))
        o.add("safe to do it", 1 - min(1.0, here_threat), Curve("linear", m=0.7, b=0.3))
        opts.append(o)
    opts += shots
    if legal.ranged or legal.covers or legal.launches:  # covering fire, split bursts, double taps, launches (issue 14)
        opts += extra_options(s, lambda o: stay(o, plan, me.cell, p))
    if me.off_hand is not None and legal.offhand:  # two weapons: the other hand's shots (R-6.12, two_guns.py)
        opts += [stay(o, plan, me.cell, p) for o in two_gun_options(s)]
    if legal.off_launches:  # the other hand's launcher (R-6.12, R-6.10; two_guns.py)
        opts += [stay(o, plan, me.cell, p) for o in off_launch_options(s)]
    if p.use_grenades and me.throwables and not me.attacked:
        opts += [stay(o, plan, me.cell, p) for o in throw_options(s)]
    # hand to hand and the mind (R-7, R-8.4; issue 14), where they matter: each weighs its legal list only then
    # (the melee list is worked out when first read: most units are nowhere near a fight)
    opts += melee_options(s, plan, lambda o: stay(o, plan, me.cell, p))
    opts += contest_options(s, lambda o: stay(o, plan, me.cell, p))
    # Waiting holds the whole action, so the AI considers it only before anything else this turn.
    # Overwatch: in the waiting bound, a wait watches farther and does not count the need to press.
    if can_wait and w is not None:
        o = Option("wait for an enemy", Wait(me.name), ("wait",))
        near = min((geo.distance_m(me.cell, e.cell, view.grid.cell_m) for e in view.enemies(me)), default=99.0)
        o.add("no target in view", 0.0 if in_view else 1.0, Curve("linear"))
        o.add("enemy close enough to appear", 1 - min(1.0, near / ((4 if watch else 2) * w.range_inc_m + 1)),
              Curve("logistic", k=8, c=0.3))
        # A wait carried into the next round declares FAST; a weapon with no attack that fits FAST
        # (a SLOW weapon fires prepared only, R-5.4) could then not fire at all while the unit waits on. Added
        # only then: a consideration at 1 would still move the score (the compensation factor).
        if not fires_when_fast(w.speed):
            o.add("can fire after a carried wait", 0.0, CARRIED_WAIT)
        if watch:
            o.add("overwatch: the other bound moves", 1.0, Curve("linear"))
        else:
            o.add("no need to press", 1 - push, Curve("linear", m=0.8, b=0.05))
        opts.append(stay(o, plan, me.cell, p))
    if w is not None and me.can_fire and not me.attacked:
        opts += [stay(o, plan, me.cell, p) for o in aim_options(s)]
    if legal.mounts:  # mounting and dismounting (R-6.1 mounts), weighed as staying here
        goals = tuple(g.cell for g in intent.goals)
        saddle_cost(opts, view, me, goals)  # a rider near the fight: staying up costs the -2 of later shots
        opts += mount_options(view, me, legal.mounts, goals, lambda o: stay(o, plan, me.cell, p))
    return opts, heat


CARRIED_WAIT = Curve("linear", m=0.85, b=0.15)  # a wait that would leave the weapon silent next round: x0.15


@lru_cache(maxsize=16)
def fires_when_fast(speed: int) -> bool:
    """True if a weapon of this speed has an attack a FAST declaration allows (R-5.3, R-5.4: snap one faster
    than the weapon, prepared at its speed; a SLOW weapon fires prepared only)."""
    return any(fits_kept("fast", (Part("attack", int(speed), mode),)) for mode in ("snap", "prepared"))


def plan_cells(s: Situation) -> Cells:
    """The cells this action may end in (here, and every cell a legal move reaches unless the unit has
    attacked or does not think of moving), with the cell considerations scored over all of them at once.
    Closing in is scored on the walking distance to the nearest enemy the view holds, or, with none in
    sight, to the intent's goals (last known places, objectives, the likely enemy place)."""
    view, me, legal, intent = s.view, s.me, s.legal, s.side
    grid = view.grid
    shape = (grid.height, grid.width)
    mask = np.zeros(shape, dtype=bool)
    moves = np.zeros(shape, dtype=bool)
    reach = np.zeros(shape)
    cells = legal.walk | legal.run
    thinks = s.p.think_moves and not s.p.hesitates(view.round, me.name, view.salt) and \
        (s.p.moves_with_a_shot or not targets(view, me, me.cell))
    if thinks and cells and not me.attacked and (view.enemies(me) or intent.goals):
        col, _ = me.trait("dexterity")
        walk = (riding_walk_m(view, me) or SIDES[col]) / grid.cell_m  # a rider at its mount's pace (R-6.1 mounts)
        run = walk if me.declared == "dodge" else 2 * walk
        blocked = np.zeros(shape, dtype=bool)
        for x, y in view.occupied(me.name):
            blocked[y, x] = True
        limit = run if legal.run else walk
        reach = s.cache.reach_field(grid, me.cell, limit, blocked)  # each route's cost
        s.maps.near.within(me.name, me.cell, limit, blocked, reach)  # these cells are near the side (its maps' mask)
        at = np.fromiter(chain.from_iterable(cells), dtype=np.intp, count=2 * len(cells)).reshape(-1, 2)  # x, y
        moves[at[:, 1], at[:, 0]] = True
        moves &= np.isfinite(reach)
        mask |= moves
    mask[me.cell[1], me.cell[0]] = True
    approach = s.maps.walk_m
    if intent.goals and moves.any():  # (on the unit's own cell alone closing in is 0.5 whatever the walk: now - now)
        fields = s.goal_fields if s.goal_fields is not None else GoalFields()
        approach = fields.towards(grid, intent.goals)
    s.maps.need(mask)  # sight, cover and threat on these cells (worked out as decisions need them)
    scores, parts = score_cells(view, me, s.p, s.maps, mask, reach, intent, approach, stance(me, intent, s.maps, s.p.use_squad))
    return Cells(moves, legal.walk, scores, parts)


def stay(o: Option, plan: Cells, cell: geo.Cell, p: Personality) -> Option:
    """Staying put: the cell considerations a move to this cell would get, and no exposure on the way (worked
    out once per decision and cell: every option that stays shares them)."""
    key = (cell, p.use_exposure)
    kept = plan.stays.get(key)
    if kept is None:
        here = Option("", o.action, ())
        here.considerations = plan.parts.at(cell)
        if p.use_exposure:
            here.add("exposure on the way", 1.0, p.exposure_curve())
        kept = plan.stays[key] = here.considerations
    o.considerations.extend(kept)
    return o


def move_options(s: Situation, plan: Cells, watch: bool = False) -> tuple[list[Option], npt.NDArray[np.float64]]:
    """The best few legal moves by their cell scores, each with the route's exposure and the best shot
    still allowed after it — or, when no shot is, what the move does for the side's intent (a move that
    gives no shot is not marked down as a worthless shot: that swamped closing in, issue 12); a unit in the
    overwatching bound (`watch`) marks such moves down instead. And the heat map of every legal move's cell
    score."""
    view, me, p, intent = s.view, s.me, s.p, s.side
    how = stance(me, intent, s.maps, p.use_squad)
    here = float(s.kept.get("shot here", 0.0))
    ok = plan.moves
    scores = plan.scores
    heat = np.full(ok.shape, np.nan)
    heat[ok] = scores[ok]
    ys, xs = np.nonzero(ok)
    order = np.argsort(-scores[ys, xs], kind="stable")[:p.top_moves]
    if p.use_exposure:  # the maps on every route weighed, in one piece
        need_routes(view.grid, s.maps, me.cell, [(int(xs[i]), int(ys[i])) for i in order.tolist()])
    out = []
    for i in order.tolist():
        cell = (int(xs[i]), int(ys[i]))
        running = cell not in plan.walks  # a run covers more ground, or is the only move that fits
        o = Option(f"{'run' if running else 'walk'} to {cell[0]},{cell[1]}", Move(me.name, cell),
                   ("move", cell, "run" if running else "walk"))
        o.considerations += plan.parts.at(cell)
        if p.use_exposure:
            o.add("exposure on the way", 1 - min(1.0, route_threat(view.grid, s.maps, me.cell, cell)),
                  p.exposure_curve())
        est, target, burst = shot_after(view, me, cell, running)
        worth = _no_shot_worth(intent, how)
        if target is None or est.hit <= 0 or HARM(harm(est)) < worth:  # the move is worth more than its shot
            o.add(f"intent: {intent.mode} (no shot after)", worth, Curve("linear"))
            if watch:
                o.add("overwatch: this bound waits", 0.0, Curve("linear", m=0.5, b=0.5))
            after = 0.0
        else:
            shot_considerations(o, est, s.danger(target), p, s.committed, view, me, target, burst)
            after = harm(est)
        if here > 0 and how != "hold":  # walking away from a better shot in hand (issue 12: move-and-snap)
            o.add("keeps the shot it has", 1 - max(0.0, here - after), KEEP_SHOT)
        out.append(o)
    return out, heat


KEEP_SHOT = Curve("linear", m=1.0, b=0.0)  # 1 less the harm a move gives up against the shot in hand (issue 12)
RETREAT_WORTH = 0.3  # a retreat out of sight, on the expected-harm scale (was 0.45: it beat a 61% prepared burst)


def _no_shot_worth(intent: Intent, how: str) -> float:
    """What a move that gives no shot is worth to the side's intent, on the expected-harm scale of a shot: a
    retreat out of sight and closing in under press, advance or search are worth a fair shot; holding or an
    even fight, little."""
    if how == "retreat":
        return RETREAT_WORTH
    return 0.2 if how == "hold" else 0.1 + 0.5 * intent.push


def tacpack_options(s: Situation) -> list[Option]:
    """Split the generator to a screen that stops the weapons of the enemies that can see the unit (R-6.13),
    keeping power for this turn's energy shot unless it is already fired (shots and screen share the
    generator). Another screen is offered only when it stops more of those weapons than the current one: a
    screen is kept while the threat it answers has not changed (issue 12)."""
    view, me, legal = s.view, s.me, s.legal
    classes: dict[str, int] = {}
    for e in view.enemies(me):
        w = e.weapon
        if w is None or not view.sight(e, me).visible:
            continue
        if geo.distance_m(e.cell, me.cell, view.grid.cell_m) > w.max_range_m:
            continue
        classes[w.weapon_class] = classes.get(w.weapon_class, 0) + 1
    if not classes:
        return []  # nobody can shoot at it now: nothing to screen against
    total = sum(classes.values())
    current = sum(n for c, n in classes.items() if c in SCREEN_STOPS.get(me.screen_type, frozenset())) / total
    reserve = me.weapon.power if me.weapon is not None and me.weapon.energy and not me.attacked else 0
    points = max(0, me.tacpack_generator - me.shot_points - reserve)
    out = []
    for screen, stops in SCREEN_STOPS.items():
        if screen == me.screen_type and points == me.screen_points:
            continue
        share = sum(n for c, n in classes.items() if c in stops) / total
        if screen != me.screen_type and share <= current:
            continue  # no better than the screen it has
        split = SetTacpack(me.name, screen, points)
        if not legal.allows(split):
            continue
        o = Option(f"{screen} screen {points}", split, ("tacpack", screen))
        o.add("enemy weapons it stops", share, Curve("linear", m=0.9, b=0.05))
        o.add("better than the current screen", max(0.0, share - current), Curve("logistic", k=12, c=0.15))
        out.append(o)
    return out
