"""The rest of ranged combat on the search tier's material scale (issue 12, ninth session): split bursts (R-6.3),
double taps (R-6.12) and covering fire with the pin it lays (R-6.12, docs/RULES-NOTES.md "Covering fire
suppresses"), each with the rules' own odds read through the ruleset facade (`skirmish.rulesets.fi`).

Before this the model read a split burst as the whole burst at its first target, a double tap as one single shot
and covering fire as nothing at all (an attack of 0 and the unit standing as it was), so the search tier (hard)
mispriced what normal itself plays since session 8 (`ai/utility/ranged_extra.py`):

- *Split* (`split_shares`): each target's share at its dice and card section, every TN +2 per extra target
  (`plan_split`), the first share followed by the turn's further fire at it (`volley.turn_of_fire`).
- *Double tap* (`tap_shot`): both shots off one card, the tap's modifiers on each, the second a row up.
- *Covering fire* (`cover_attack`): each enemy inside the area that the unit sees is pinned till its next turn
  (`pinned`); the replies take its shots at `PINNED_SHOT` (-2: `Replies.against`), and it draws the covering
  shot should it break out (BREAK_P of its turns); an enemy beside the area steps in with ENTER_P. The pins our
  friends' covering lays already (`UnitView.covering`, our side's view only) count in every candidate's replies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.ai.estimate import ShotEstimate, estimate_shot, pool_hit_chance, replaced
from skirmish.ai.search.strays import stray_material
from skirmish.ai.search.volley import combined, follow_up, turn_of_fire
from skirmish.ai.utility.ranged_extra import BREAK_P, ENTER_P, EXIT_M, both, material, scaled
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import CoverFire, Shoot
from skirmish.rules.checks import skill_pool
from skirmish.rulesets.fi import TAP_SKILL, cover_rules, plan_split, second_read, tap_modifiers

if TYPE_CHECKING:
    from skirmish.ai.search.model import Weights

PINNED_SHOT = cover_rules.PINNED_SHOT  # a pinned figure's shots take this (-2)


def pool(u: UnitView) -> tuple[str, int, bool]:
    """A unit's pool for its weapon: column, row (its skill dice), halved (untrained)."""
    w = u.weapon
    assert w is not None
    p = skill_pool(u.trait("dexterity"), dict(u.skills), w.skill)
    return p.column, p.row, p.halve


def split_shares(view: BattleView, me: UnitView, shot: Shoot) -> list[tuple[UnitView, ShotEstimate]] | None:
    """Each target's share of a split burst (R-6.3): its dice, its card section, every TN +2 per extra target;
    None when a target is not in the view or a share cannot hit."""
    names = (shot.target, *shot.also)
    if me.weapon is None or any(view.find(n) is None for n in names):
        return None
    column, row, halve = pool(me)
    plan = plan_split(shot.burst, names, row)
    out = []
    for share in plan.shares:
        t = view.unit(share.target)
        est = estimate_shot(view, me, t, mode=shot.mode, burst=share.section, moved=me.moved)
        if est.hit <= 0:
            return None
        out.append((t, scaled(est, pool_hit_chance(column, share.dice, est.tn + plan.tn_up, est.modifier, halve))))
    return out


def tap_shot(view: BattleView, me: UnitView, t: UnitView, mode: str) -> ShotEstimate:
    """Both shots of a double tap (R-6.12): the tap's modifiers on each, the second read a row up."""
    w = me.weapon
    assert w is not None
    column, row, halve = pool(me)
    est = estimate_shot(view, me, t, mode=mode, moved=me.moved)
    if est.hit <= 0:
        return est
    ready = mode != "snap" or me.ready_target == t.name
    mod = est.modifier + sum(m.value for m in tap_modifiers(w, ready, me.skill(TAP_SKILL) > 0))
    first = scaled(est, pool_hit_chance(column, row, est.tn, mod, halve))
    col2, row2 = second_read(column, row)
    return both(first, scaled(est, pool_hit_chance(col2, row2, est.tn, mod, halve)))


def pinned_hit(e: UnitView, est: ShotEstimate) -> float:
    """The hit chance of an enemy's shot `est` once pinned (its result -2, R-6.12)."""
    if est.hit <= 0 or e.weapon is None:
        return est.hit
    column, row, halve = pool(e)
    base = pool_hit_chance(column, row, est.tn, est.modifier, halve)
    if base <= 0:
        return est.hit
    return est.hit * pool_hit_chance(column, row, est.tn, est.modifier + PINNED_SHOT, halve) / base


def _area(view: BattleView, coverer: UnitView, centre: geo.Cell) -> float:
    """The covered area's radius (R-6.12: 2 m, 4 m with `suppression`)."""
    assert coverer.weapon is not None
    return cover_rules.area_m(coverer.weapon)


def pins(view: BattleView, coverer: UnitView, centre: geo.Cell, enemies: list[UnitView]) -> list[UnitView]:
    """The enemies covering fire at `centre` pins: inside the area, in the coverer's sight (R-6.12)."""
    if coverer.weapon is None:
        return []
    radius, cell_m = _area(view, coverer, centre), view.grid.cell_m
    return [e for e in enemies if not e.ghost and geo.distance_m(centre, e.cell, cell_m) <= radius + 1e-9
            and view.sight(coverer, e).visible]


def friends_pins(view: BattleView, me: UnitView) -> frozenset[str]:
    """The enemies our friends' covering fire pins now (their `covering`, shown in our side's view)."""
    enemies = [e for e in view.enemies(me) if not e.out_of_action]
    out: set[str] = set()
    for f in view.friends(me):
        if f.covering is not None and not f.out_of_action:
            out.update(e.name for e in pins(view, f, (f.covering[0], f.covering[1]), enemies))
    return frozenset(out)


def cover_shot(view: BattleView, me: UnitView, e: UnitView, burst: int) -> ShotEstimate:
    """The covering shot at `e` where it stands: the volume as trait and skill (R-6.12), prepared."""
    w = me.weapon
    assert w is not None
    column, row = cover_rules.pool(burst)
    dex = tuple((n, column, row) if n == "dexterity" else (n, c, t) for n, c, t in me.traits)
    as_volume = replaced(me, traits=dex, skills=((w.skill, row),))
    return estimate_shot(view, as_volume, e, mode="prepared", burst=burst)


def cover_attack(view: BattleView, me: UnitView, action: CoverFire, present: dict[str, float]
                 ) -> tuple[float, frozenset[str]]:
    """(what covering fire at the action's cell is expected to take, the enemies it pins): each pinned enemy
    draws the covering shot when it breaks out (BREAK_P), each one beside the area (within EXIT_M) when it steps
    in (ENTER_P, the shot at the centre)."""
    w = me.weapon
    if w is None:
        return 0.0, frozenset()
    centre: geo.Cell = (int(action.at[0]), int(action.at[1]))
    enemies = [e for e in view.enemies(me) if not e.out_of_action and present.get(e.name, 0.0) > 0]
    pinned = pins(view, me, centre, enemies)
    radius, cell_m = _area(view, me, centre), view.grid.cell_m
    value = 0.0
    for e in enemies:
        if e in pinned:
            value += BREAK_P * material(cover_shot(view, me, e, action.burst), e)
        elif geo.distance_m(centre, e.cell, cell_m) <= radius + EXIT_M + 1e-9:
            est = cover_shot(view, me, replaced(e, cell=centre, ghost=False), action.burst)
            value += ENTER_P * present[e.name] * material(est, e)
    return value, frozenset(e.name for e in pinned)


def pin_ratio(view: BattleView, e: UnitView, friends: list[UnitView]) -> float:
    """How much of its shot a pinned enemy keeps (R-6.12: -2), read on its shot at the nearest of `friends`."""
    if e.weapon is None or not friends:
        return 1.0
    f = min(friends, key=lambda u: (geo.distance_m(e.cell, u.cell, view.grid.cell_m), u.name))
    burst = min(e.weapon.bursts) if e.weapon.bursts else 0
    est = estimate_shot(view, e, f, mode="prepared", burst=burst)  # (model._reply_shot)
    return pinned_hit(e, est) / est.hit if est.hit > 0 else 1.0


def tap_turn(view: BattleView, me: UnitView, t: UnitView, tap: ShotEstimate, mode: str) -> ShotEstimate:
    """A double tap and the attacks the turn allows after it at `t` (R-5.5, R-6.3): as after a single shot, less
    the rate of fire's second shot the tap took in its action (a weapon firing two an action), and the two rounds
    it spent; the weapon then readied at the target (R-6.2)."""
    w = me.weapon
    assert w is not None
    rest = follow_up(me, mode, 0)
    rest = rest[1:] if w.rof >= 2 else rest
    rest = rest[:max(0, me.rounds - 2)]
    if not rest:
        return tap
    ready = replaced(me, ready_target=t.name)
    kept: dict[str, ShotEstimate] = {}
    for m in rest:
        if m not in kept:
            kept[m] = estimate_shot(view, ready, t, mode=m, moved=me.moved)
    return combined([tap, *(kept[m] for m in rest)])


def extra_shot(view: BattleView, me: UnitView, action: Shoot, w: Weights, present: dict[str, float]
               ) -> tuple[float, dict[str, float]]:
    """(material, kill chances) of a split burst (R-6.3) or a double tap (R-6.12) and the fire the turn allows
    after it at its first target (`volley.turn_of_fire`, with `Weights.mixed`), with its strays (R-6.11)."""
    t = view.unit(action.target)
    if action.also:
        shares = split_shares(view, me, action)
        if shares is None:
            return 0.0, {}
    else:
        shares = [(t, tap_shot(view, me, t, action.mode))]
    attack, kills = 0.0, {}
    for i, (u, est) in enumerate(shares):
        first = est
        if i == 0 and w.mixed and action.double_tap:
            est = tap_turn(view, me, u, est, action.mode)
        elif i == 0 and w.mixed:
            est = turn_of_fire(view, me, u, est, action.mode, action.burst, me.moved)
        attack += material(est, u)
        kills[u.name] = est.kill
        if w.strays:
            rounds = 2 if action.double_tap else max(1, action.burst // len(shares))
            attack += stray_material(view, me, u, action.mode, rounds, first.hit, w.friendly, present)
    return attack, kills
