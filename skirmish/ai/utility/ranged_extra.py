"""The rest of ranged combat in the utility AI (issue 14 item 7): friends on the line of fire (R-6.11), covering
fire that pins (R-6.12), bursts split between two targets (R-6.3), double taps (R-6.12) and launched grenades
(R-6.10). Only what the battle lists (`LegalActions.ranged`, `.covers`, `.launches`, `.cell_ok`) becomes an option.

Every option carries the shot considerations (`scoring.shot_considerations`) of what it is expected to do, so it
compares with a plain shot on one scale, and `attack_material`, its attack on the material scale
(`material.material_pick`), since the exchange model reads a shot as one plain shot at one target:

- *Friends on the line* (`friends_on_line`): the rules' candidates (R-6.11: within 1 m of the line, nearest first)
  from the side's view; each missed round strikes the first figure whose strip box is crossed (deck A: 16 of 54
  cards for every box), so a friend at place i is struck by a missed round with q(1-q)^i. Its expected harm is
  taken off the shot's expected harm (x FRIEND_WEIGHT, as a grenade's) and off its material; a burst through a
  friend below POOR_ODDS to hit is not offered at all.
- *Covering fire* (`cover_options`), when the unit's best shot is poor (below POOR_SHOT harm): the area round an
  enemy in sight (its cover and the cells it must step through to leave it), worth, for each enemy the area pins,
  the covering shot should it break out (BREAK_P of its turns) and the pin itself (PIN_WORTH x its threat: its
  shots take -2, R-6.12). Overwatch (squad.py): in the bound that waits while friends move, covering counts full.
- *Split bursts* (`split_options`) between two enemies in sight within SPLIT_NEAR_M of each other: each share's
  estimate at its dice and +2 TN (R-6.3's plan, `plan_split`), so a burst that would overkill one target pays
  when the share at the second does more than the rounds past the kill.
- *Double taps* (`tap_options`): both shots off one card (R-6.12: the tap's modifiers, the second a row up),
  weighed against the single shot per attack action: with a rate of fire of 2 two single shots share an action
  at full dice, so a double tap pays only where a second single shot does not fit (the last rounds, the
  last shot of the turn).
- *Launches* (`launch_options`): the grenade-cell search (`ai/blast.py`) with a launch's landing distribution.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from skirmish.ai.blast import FRIEND_WEIGHT, MOVED_MODIFIER, Spread, candidate_cells, plan_throws
from skirmish.ai.curves import Curve
from skirmish.ai.estimate import ShotEstimate, _per_hit, estimate_shot, firer_mounted, pool_hit_chance, replaced
from skirmish.ai.utility.cover_centres import centres as _centres
from skirmish.ai.utility.scoring import HARM, Option, harm, shot_considerations
from skirmish.ai.utility.squad import overwatching
from skirmish.ecs.view import UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import CoverFire, Launch, Shoot
from skirmish.rules.checks import skill_pool, tn
from skirmish.rules.deck import SIDES, builtin
from skirmish.rules.dice import pool_pmf
from skirmish.rulesets.fi import (
    INCAPACITATED_AT,
    MOUNTED_MOD,
    TAP_SKILL,
    LineFigure,
    cover_rules,
    hand_penalty,
    line_candidates,
    plan_split,
    second_read,
    tap_modifiers,
)

if TYPE_CHECKING:
    from skirmish.ai.utility.options import Situation

POOR_ODDS = 0.35  # a burst through a friend on the line below this hit chance is never fired
POOR_SHOT = 0.2  # a unit whose best shot's harm is below this may cover instead
BREAK_P = 0.5  # how often a pinned enemy is taken to break out of the area in its turn
PIN_WORTH = 0.25  # what pinning an enemy is worth, times its threat (its shots -2, R-6.12), on the harm scale
SPLIT_NEAR_M = 10.0  # a burst is split only between enemies this close together
FRIENDS_CLEAR = Curve("linear", m=0.8, b=0.2)
POOR = Curve("linear", m=0.7, b=0.3)
OVERWATCH = Curve("linear", m=0.4, b=0.6)
WOUND = 0.25  # a wound on the material scale (search.model.WOUND)


def material(est: ShotEstimate, target: UnitView) -> float:
    """What one attack takes on the material scale (search.model.material, written out: the search package builds
    on this one): the kill chance, plus the expected wounds at a quarter when it does not kill, no more than the
    target can take and stay standing."""
    left = max(0, INCAPACITATED_AT - 1 - target.wounds)
    return est.kill + WOUND * (1 - est.kill) * min(float(left), est.wounds + est.ct / 6)


@lru_cache(maxsize=1)
def strip_q() -> tuple[float, ...]:
    """Deck A's chance that each box of the unintended-target strip is crossed (R-4.10)."""
    cards = builtin("A")
    return tuple(sum(c.unintended[i] for c in cards) / len(cards) for i in range(10))


@lru_cache(maxsize=1)
def launched_p() -> tuple[tuple[int, float], ...]:
    """Deck A's launched scatter multipliers and their chances (R-6.10)."""
    cards = builtin("A")
    mults = sorted({c.scatter_launched for c in cards})
    return tuple((m, sum(c.scatter_launched == m for c in cards) / len(cards)) for m in mults)


def scaled(est: ShotEstimate, hit: float) -> ShotEstimate:
    """`est` at another hit chance (everything it does is in proportion to the hit)."""
    if est.hit <= 0:
        return est
    f = hit / est.hit
    return ShotEstimate(hit, est.damage * f, est.wounds * f, est.ct * f, min(1.0, est.kill * f), est.tn, est.modifier)


def both(a: ShotEstimate, b: ShotEstimate) -> ShotEstimate:
    """Two attacks taken together (one or both hitting; wounds added; kills as expected kills, capped)."""
    return ShotEstimate(1 - (1 - a.hit) * (1 - b.hit), 1 - (1 - a.damage) * (1 - b.damage), a.wounds + b.wounds,
                        a.ct + b.ct, min(1.0, a.kill + b.kill), a.tn, a.modifier)


# ---------------------------------------------------------------------------------------------- friends on the line


def _line(s: Situation, target: UnitView) -> list[UnitView]:
    """The figures on the line of fire at `target` as the rules list them (R-6.11), from the side's view."""
    view, me = s.view, s.me
    others = [u for u in view.units if not u.dead and u.name not in (me.name, target.name)]
    if me.weapon is None or not any(u.side == me.side for u in others):
        return []
    got = line_candidates(view.grid, me.cell, target.cell, [LineFigure(u.name, u.cell) for u in others], me.weapon)
    by_name = {u.name: u for u in others}
    return [by_name[f.name] for f in got]


def friends_on_line(s: Situation, target: UnitView, est: ShotEstimate, burst: int) -> tuple[float, float]:
    """(harm, material) a shot at `target` is expected to do to the unit's friends on the line of fire (R-6.11)."""
    line: list[UnitView] = s.keep(f"line {target.name}", lambda s: _line(s, target))
    if not line or s.me.weapon is None:
        return 0.0, 0.0
    view, me, w = s.view, s.me, s.me.weapon
    rounds = burst or 1
    missed = rounds - est.hit * min(float(rounds), max(1.0, rounds / 2))
    q = strip_q()
    first, hurt, mat = 1.0, 0.0, 0.0
    for i, u in enumerate(line):
        p = min(1.0, missed * q[i] * first)
        first *= 1 - q[i]
        if u.side != me.side or p <= 0:
            continue
        sight = view.sight(me, u)
        dist = geo.distance_m(me.cell, u.cell, view.grid.cell_m)
        _, wounds, ct, kill = _per_hit(w, u, sight.cover, sight.cover_av, False, dist)
        hurt += p * min(1.0, (wounds + ct / 6) / 3 + kill)
        mat += p * (kill + WOUND * (1 - kill) * (wounds + ct / 6))
    return hurt, mat


def mind_the_line(s: Situation, o: Option, target: UnitView, est: ShotEstimate, burst: int) -> bool:
    """Weigh friends on the line into a shot option: False when it must not be fired (a burst through a friend
    at poor odds); else its "friends clear of the line" and the friends' material, when any are on it."""
    hurt, mat = friends_on_line(s, target, est, burst) if s.p.mind_the_line else (0.0, 0.0)  # (a rung's switch)
    if hurt <= 0:
        return True
    if burst and est.hit < POOR_ODDS:
        return False
    o.add("friends clear of the line", 1 - min(1.0, FRIEND_WEIGHT * hurt / max(harm(est), 1e-9)), FRIENDS_CLEAR)
    o.friend_material += mat
    return True


# ---------------------------------------------------------------------------------------------- covering fire


def cover_shot(s: Situation, e: UnitView, burst: int) -> ShotEstimate:
    """The covering shot at `e` where it stands: the volume as trait and skill (R-6.12), prepared."""
    me, w = s.me, s.me.weapon
    assert w is not None
    column, row = cover_rules.pool(burst)
    dex = tuple((n, column, row) if n == "dexterity" else (n, c, t) for n, c, t in me.traits)
    as_volume = replaced(me, traits=dex, skills=((w.skill, row),))
    return estimate_shot(s.view, as_volume, e, mode="prepared", burst=burst)


def cover_options(s: Situation, stay: Callable[[Option], Option]) -> list[Option]:
    """Covering fire (R-6.12), when the unit's best shot is poor: over an enemy it sees (pinning it) or over the
    cells round an enemy its side knows of (the exits of its cover, which it must cross to move): the best
    COVER_CENTRES areas by a single shot's worth, each with every volume the battle allows."""
    view, me, legal = s.view, s.me, s.legal
    w = me.weapon
    here = float(s.kept.get("shot here", 0.0))
    if w is None or not legal.covers or legal.cell_ok is None or here >= POOR_SHOT:
        return []
    known = [e for e in view.enemies(me) if not e.out_of_action and (not e.ghost or view.round - (e.last_seen or 0) <= 1)]
    if not known:
        return []
    radius, cell_m = cover_rules.area_m(w), view.grid.cell_m
    shots: dict[tuple[str, geo.Cell | None, int], ShotEstimate] = {}  # cover_shot's, kept for this decision
    weighed = []
    for c in _centres(s, known, radius + EXIT_M):
        if not legal.cell_ok("cover", c):
            continue
        single = _area_worth(s, c, 0, known, radius, cell_m, shots)
        if single[0] > 0:
            weighed.append((single[0], c))
    weighed.sort(key=lambda t: (-t[0], t[1][1], t[1][0]))
    watch = overwatching(view, me, s.side)
    out = []
    for _, c in weighed[:COVER_CENTRES]:
        for burst in legal.covers:
            if me.rounds < 2 * max(1, burst):  # keep rounds for the shot it covers with
                continue
            value, mat, who = _area_worth(s, c, burst, known, radius, cell_m, shots)
            o = Option(f"cover {c[0]},{c[1]}" + (f" burst {burst}" if burst else "") + f" ({who})",
                       CoverFire(me.name, c, burst=burst), ("cover", c))
            o.add("shot in hand is poor", 1 - min(1.0, here / POOR_SHOT), POOR)
            o.add("expected harm", min(1.0, value), HARM)
            o.add("target threat", max(s.danger(e) for e in known), Curve("linear", m=0.3, b=0.7))
            o.add("overwatch: friends move", 1.0 if watch else 0.0, OVERWATCH)
            if not watch:  # as a wait: covering holds the unit where it is (squad.py, intent.py)
                o.add("no need to press", 1 - s.side.push, Curve("linear", m=0.8, b=0.05))
            o.add("rounds left after", max(0, me.rounds - burst) / max(1, w.magazine), Curve("linear", m=0.4, b=0.6))
            o.attack_material = mat
            out.append(stay(o))
    return out


COVER_CENTRES = 3  # the areas weighed with every volume
EXIT_M = 2.0  # an enemy this far outside an area steps into it when it leaves its place
ENTER_P = 0.15  # how often an enemy beside the area is taken to step into it in its turn (measured: 6 in 99)


def _area_worth(s: Situation, centre: geo.Cell, burst: int, known: list[UnitView], radius: float,
                cell_m: float, shots: dict[tuple[str, geo.Cell | None, int], ShotEstimate] | None = None,
                ) -> tuple[float, float, str]:
    """(harm, material, who) of covering the area round `centre` with `burst`: each enemy inside it that the unit
    sees is pinned (BREAK_P x the covering shot should it break out, PIN_WORTH x its threat); each one beside it
    (within EXIT_M) steps in with ENTER_P and draws the shot where it enters (at the centre). `shots` keeps the
    covering shots worked out (by enemy, the cell it is shot at, None where it stands, and burst)."""
    view, me = s.view, s.me
    shots = {} if shots is None else shots
    hurt, mat, who = 0.0, 0.0, []
    for e in known:
        d = geo.distance_m(centre, e.cell, cell_m)
        if d > radius + EXIT_M + 1e-9:
            continue
        if d <= radius + 1e-9 and not e.ghost and view.sight(me, e).visible:
            est = shots.get((e.name, None, burst))
            if est is None:
                est = shots[(e.name, None, burst)] = cover_shot(s, e, burst)
            hurt += BREAK_P * harm(est) + PIN_WORTH * s.danger(e)
            mat += BREAK_P * material(est, e) + PIN_WORTH * WOUND * s.danger(e)
            who.append(f"pins {e.name}")
            continue
        est = shots.get((e.name, centre, burst))
        if est is None:
            est = shots[(e.name, centre, burst)] = cover_shot(s, replaced(e, cell=centre, ghost=False), burst)
        if est.hit > 0:
            hurt += ENTER_P * harm(est)
            mat += ENTER_P * material(est, e)
            who.append(f"watches {e.name}")
    return hurt, mat, ", ".join(who)


# ---------------------------------------------------------------------------------------------- split bursts, taps


def _pool(me: UnitView) -> tuple[str, int, bool]:
    """The firer's pool for its weapon: column, row (its skill dice), halved."""
    w = me.weapon
    assert w is not None
    pool = skill_pool(me.trait("dexterity"), dict(me.skills), w.skill)
    return pool.column, pool.row, pool.halve


def split_estimates(s: Situation, shot: Shoot) -> list[tuple[UnitView, ShotEstimate]] | None:
    """Each target's share of a split burst (R-6.3): its dice, its card section, every TN +2 per extra target."""
    view, me = s.view, s.me
    column, row, halve = _pool(me)
    names = (shot.target, *shot.also)
    if any(view.find(n) is None for n in names):
        return None
    plan = plan_split(shot.burst, names, row)
    out = []
    for share in plan.shares:
        t = view.unit(share.target)
        est = estimate_shot(view, me, t, mode=shot.mode, burst=share.section, moved=me.moved)
        if est.hit <= 0:
            return None
        out.append((t, scaled(est, pool_hit_chance(column, share.dice, est.tn + plan.tn_up, est.modifier, halve))))
    return out


def split_options(s: Situation) -> list[Option]:
    """A burst split between two enemies in sight close together (R-6.3), in the best mode listed."""
    view, me = s.view, s.me
    splits = [a for a in s.legal.ranged if a.also and len(a.also) == 1]
    if not splits or me.weapon is None:
        return []
    mode = "prepared" if any(a.mode == "prepared" for a in splits) else "snap"
    out = []
    for shot in splits:
        if shot.mode != mode or not me.can_fire_burst(shot.burst):
            continue
        a, b = view.find(shot.target), view.find(shot.also[0])
        if a is None or b is None or geo.distance_m(a.cell, b.cell, view.grid.cell_m) > SPLIT_NEAR_M:
            continue
        shares = split_estimates(s, shot)
        if shares is None:
            continue
        best_single = max(material(estimate_shot(view, me, t, mode=mode, burst=shot.burst, moved=me.moved), t)
                          for t in (a, b))
        if sum(material(e, t) for t, e in shares) <= best_single:
            continue  # one burst at one of them does more this action: the split pays only against overkill
        est = both(shares[0][1], shares[1][1])
        o = Option(f"shoot {a.name} and {b.name} {mode} split burst {shot.burst}", shot, ("shoot", a.name, b.name),
                   estimate=shares[0][1])
        shot_considerations(o, est, max(s.danger(a), s.danger(b)), s.p, s.committed, view, me, a, shot.burst)
        o.attack_material, o.shares = sum(material(e, t) for t, e in shares), tuple(shares)
        if all(mind_the_line(s, o, t, e, shot.burst) for t, e in shares):
            out.append(o)
    return out


def tap_estimate(s: Situation, shot: Shoot) -> ShotEstimate:
    """Both shots of a double tap (R-6.12): the tap's modifiers on each, the second a row up."""
    view, me = s.view, s.me
    w = me.weapon
    assert w is not None
    t = view.unit(shot.target)
    column, row, halve = _pool(me)
    est = estimate_shot(view, me, t, mode=shot.mode, moved=me.moved)
    ready = shot.mode != "snap" or me.ready_target == t.name
    mod = est.modifier + sum(m.value for m in tap_modifiers(w, ready, me.skill(TAP_SKILL) > 0))
    first = scaled(est, pool_hit_chance(column, row, est.tn, mod, halve))
    col2, row2 = second_read(column, row)
    return both(first, scaled(est, pool_hit_chance(col2, row2, est.tn, mod, halve)))


def tap_options(s: Situation) -> list[Option]:
    """A double tap at each target in view (R-6.12), each in the modes listed."""
    view, me = s.view, s.me
    out = []
    for shot in (a for a in s.legal.ranged if a.double_tap):
        t = view.find(shot.target)
        if t is None or me.rounds < 2:
            continue
        est = tap_estimate(s, shot)
        if est.hit <= 0:
            continue
        o = Option(f"shoot {t.name} {shot.mode} double tap", shot, ("shoot", t.name), estimate=est)
        shot_considerations(o, est, s.danger(t), s.p, s.committed, view, me, t, 2)
        o.attack_material, o.shares = material(est, t), ((t, est),)
        if mind_the_line(s, o, t, est, 2):
            out.append(o)
    return out


# ---------------------------------------------------------------------------------------------- launches


def launch_spread(s: Situation, off: bool = False) -> Callable[[float], Spread]:
    """The landing distribution of a launch over a distance (R-6.10): a shot's TN (R-6.1) by range increments,
    the Dexterity pool with the launcher's skill, a miss scattering launched multiplier x margin; a unit holding
    two weapons takes their penalty (R-6.12, `off`: the launcher in the other hand, `s.me` the unit with it in hand)."""
    me, w = s.me, s.me.weapon
    assert w is not None
    column, row, halve = _pool(me)
    mod = -min(3, me.wounds) + MOVED_MODIFIER.get(me.moved, 0) + (hand_penalty(w, off) if me.off_hand is not None else 0)
    if firer_mounted(s.view, me):  # a launch from the saddle
        mod += MOUNTED_MOD
    base = tn("standard", s.view.scope)  # type: ignore[arg-type]

    def spread(dist: float) -> Spread:
        target = base + int(dist // w.range_inc_m)
        on, cf, near = 0.0, 0.0, dict[float, float]()
        for v, p in pool_pmf(SIDES[column], row, target - mod):
            if v <= 0:
                cf += p
                continue
            margin = target - ((v // 2 if halve else v) + mod)
            if margin <= 0:
                on += p
                continue
            for mult, q in launched_p():
                near[float(mult * margin)] = near.get(float(mult * margin), 0.0) + p * q
        far = tuple((float(mult * target), cf * q) for mult, q in launched_p()) if cf else ()
        return Spread(on, tuple(sorted(near.items())), far)

    return spread


def launch_options(s: Situation, hand: str = "") -> list[Option]:
    """A launch at the cell with the most expected harm to the enemies in sight net of friends (R-6.9, R-6.10);
    `hand` "off": the launcher in the other hand (R-6.12; `s.me` the unit with it in hand, two_guns.py)."""
    view, me, legal = s.view, s.me, s.legal
    w = me.weapon
    kind, listed = ("off_launch", legal.off_launches) if hand == "off" else ("launch", legal.launches)
    if w is None or not listed or legal.cell_ok is None or me.rounds < 1 or me.jammed:
        return []
    reach = int(w.max_range_m / view.grid.cell_m) + 1
    box = [(x, y) for e in view.enemies(me) if not e.ghost
           for x in range(e.cell[0] - 2, e.cell[0] + 3) for y in range(e.cell[1] - 2, e.cell[1] + 3)
           if abs(x - me.cell[0]) <= reach and abs(y - me.cell[1]) <= reach]
    cells = [c for c in dict.fromkeys(box) if legal.cell_ok(kind, c)]
    plan = plan_throws(view, me, w, candidate_cells(view, me, w, cells), launch_spread(s, hand == "off"))
    i = plan.best()
    if i is None:
        return []
    cell = plan.cells[i]
    enemy, friend = float(plan.enemy_harm[i]), float(plan.friend_harm[i])
    caught = [view.unit(n) for n in plan.caught[i]]
    o = Option(f"launch{' off hand' if hand == 'off' else ''} at {cell[0]},{cell[1]} "
               f"({', '.join(plan.caught[i]) or 'scatter'})", Launch(me.name, cell, hand=hand), ("launch", cell))
    o.add("burst covers the cell", float(plan.covers[i]), Curve("linear", m=0.3, b=0.7))
    o.add("expected harm", min(1.0, float(plan.net[i])), HARM)
    o.add("kill chance", min(1.0, float(plan.enemy_kill[i])), s.p.kill_curve())
    o.add("target threat", max((s.danger(e) for e in caught), default=0.0), Curve("linear", m=0.3, b=0.7))
    o.add("friends clear", 1 - min(1.0, FRIEND_WEIGHT * friend / max(enemy, 1e-9)), FRIENDS_CLEAR)
    o.attack_material = float(plan.enemy_kill[i]) + WOUND * max(0.0, enemy - FRIEND_WEIGHT * friend)
    return [o]


def extra_options(s: Situation, stay: Callable[[Option], Option]) -> list[Option]:
    """Every option of the rest of ranged combat the battle lists for the unit now."""
    if s.me.weapon is None:
        return []
    p = s.p  # the rung's switches (personality.py, issue 12 item 4)
    out = cover_options(s, stay) if p.use_cover_fire else []
    if s.me.can_fire:
        for on, offer in ((p.use_split, split_options), (p.use_double_tap, tap_options), (p.use_launch, launch_options)):
            out += [stay(o) for o in offer(s)] if on else []
    return out
