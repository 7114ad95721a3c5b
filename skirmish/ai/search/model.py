"""The search tier's model of one exchange, read from a side's view with the rules' own odds.

A candidate action is weighed by what it is likely to do over the next exchange (depth-2 expectimax on the
view, issue 12 item 5): the chance node of our attack (the exact hit, wound and kill odds of R-6 from
`ai.estimate`, or a throw's chance to land, R-6.10), then every enemy's best reply at the positions that
result (each shoots the one of us it harms most, R-6.1/R-6.6: cover, range, the running unit's movement
penalty, a screen, a dodge; as often as it acts before our unit's next turn, `order`, and from a walk nearer
when it does not see the cell), then our unit's next shot if it is still standing. Everything is a value in
"units of material": a unit put out of action is 1, an expected wound a quarter.

The model reads only the view it is given (fog of war: a ghost stands at its last known cell and counts at
half weight, since it may have gone, and not at all once one of us sees that cell) and never the battle's
random source.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np

from skirmish.ai.estimate import ShotEstimate, estimate_shot, fits_kept, replaced
from skirmish.ai.search.extras import cover_attack, extra_shot, friends_pins, pin_ratio, pinned_hit
from skirmish.ai.search.order import closing_shot, turns_before
from skirmish.ai.search.plan import Plan
from skirmish.ai.search.strays import stray_material
from skirmish.ai.search.throwing import launch_material, throw_material
from skirmish.ai.search.volley import turn_of_fire
from skirmish.ai.sight_pairs import seen_pairs
from skirmish.ai.utility.ranged_extra import scaled
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, Aim, CoverFire, Declare, Launch, Move, Reload, SetTacpack, Shoot, Throw
from skirmish.rulesets.fi import INCAPACITATED_AT, Part

MELEE_VERBS = frozenset({"melee", "charge", "close", "open", "defend", "break", "rise", "contest"})
GRAPPLE_VERBS = frozenset({"entangle", "trip"})  # weighed with `Weights.extras` (melee_options.melee_exchange)
WOUND = 1 / INCAPACITATED_AT  # an expected wound, in units put out of action


@dataclass(frozen=True)
class Weights:
    """How the parts of an exchange add up (data: a variant of the search tier is a different value)."""

    reply: float = 1.0  # the enemy's replies on us
    follow: float = 0.6  # our unit's next shot (a turn away: discounted)
    ghost: float = 0.5  # an enemy out of sight: it may have gone
    utility: float = 0.3  # the utility AI's own score: position sense, and the tiebreak when nothing is in reach
    friendly: float = 1.5  # harm to our own side from our blast counts more than harm to theirs
    order: bool = False  # the turn order: each enemy replies as often as it acts before our next turn
    tie: float = 0.5  # how surely the side that wins a phase's tie acts first next round (0: a coin, 1: always)
    closing: float = 0.0  # an enemy that does not see the cell may walk to where it does and fire: at this weight
    standing: bool = False  # our next shot goes to the best enemy still standing (else: the best weighted shot)
    plan: float = 0.0  # the rest of the round's turns walked over kill chances (`plan.Plan`): at this weight
    move_volley: bool = False  # a move's attack taken as often as the turn still allows after it
    strays: bool = False  # a shot's missed rounds striking figures on its line of fire (R-6.11, `strays`)
    mixed: bool = False  # a shot and the longest turn of attacks the timing allows after it, any modes (`volley`)
    mixed_move: bool = False  # the same for a move's attack (with `move_volley`)
    extras: bool = False  # split bursts, double taps, entangle and trip priced as the rules read them (`extras`)
    cover: bool = False  # covering fire's pins (-2 on the pinned enemies' replies) and its shot (`extras`)
    more: bool = False  # every split burst and double tap the battle lists weighed, not only the proposed ones


@dataclass(frozen=True)
class Exchange:
    """The expected material of one candidate's exchange (units put out of action, wounds at a quarter)."""

    attack: float  # what our action takes from the enemy now
    reply: float  # what the enemy's replies take from us afterwards
    follow: float  # what our unit's next shot takes, times the chance it is still standing (0 if `Weights.follow` is 0)
    survive: float  # the chance our unit stands through the replies
    plan: float = 0.0  # the rest of the round after it: units put out of action, enemies less ours (`plan.Plan`)

    def value(self, w: Weights) -> float:
        """The exchange's worth to our side."""
        return self.attack - w.reply * self.reply + w.follow * self.follow + w.plan * self.plan


def material(est: ShotEstimate, target: UnitView) -> float:
    """What one attack takes: the chance it puts the target out of action (R-8.1), plus, when it does not,
    its expected wounds (CT at a sixth of a wound) at a quarter each, no more than the target can take and
    stay standing (wounds past that are worth nothing more)."""
    left = max(0, INCAPACITATED_AT - 1 - target.wounds)
    return est.kill + WOUND * (1 - est.kill) * min(float(left), est.wounds + est.ct / 6)


def repeated(est: ShotEstimate, n: int) -> ShotEstimate:
    """`n` such attacks at one target in a turn (R-5.5: up to three actions; R-6.3: shots up to the rate of fire
    share one), taken as independent: the chance of at least one hit and of the kill, and n times the harm."""
    if n <= 1:
        return est
    return ShotEstimate(hit=1 - (1 - est.hit) ** n, damage=1 - (1 - est.damage) ** n, wounds=n * est.wounds,
                        ct=n * est.ct, kill=1 - (1 - est.kill) ** n, tn=est.tn, modifier=est.modifier)


def _reply_shot(view: BattleView, e: UnitView, f: UnitView) -> ShotEstimate:
    """An enemy's prepared shot at one of us where it stands (its smallest burst: its ammunition is hidden)."""
    w = e.weapon
    burst = min(w.bursts) if w is not None and w.bursts else 0
    return estimate_shot(view, e, f, mode="prepared", burst=burst)


REPLIES_KEPT = 8192  # (enemy, friend) replies kept per map before it starts again


def _melee_reply(view: BattleView, e: UnitView, f: UnitView, shot: ShotEstimate) -> ShotEstimate:
    """The enemy's reply on `f`: its shot, or its blow when it carries a hand-to-hand weapon and is engaged with `f` or
    could charge it (R-7, R-5.4; `utility.melee`), whichever takes more. Only armed enemies: fists stay out of it."""
    from skirmish.ai.utility import melee as mm

    if not mm.armed(e) or mm.melee_threat(view, e, f) <= 0:
        return shot
    blow, _ = mm.best_blow(view, e, f, charge=not mm.touching(view, e.cell, f.cell))
    return blow if material(blow, f) > material(shot, f) else shot


def _reply_material(view: BattleView, e: UnitView, f: UnitView) -> float:
    """`material(_reply_shot(view, e, f), f)`, kept with the map by the two unit views themselves: a view is frozen
    and the views of one side reuse a unit's view while nothing of it changes, so the same two objects (held
    with the answer, so their ids stay theirs) under the same scope and side of round 0 give the same shot (it
    reads nothing else of the view than the map: the sight between their cells, the distance, the rules' numbers).
    The two views are held weakly: the map's kept state outlives the battle (rules/map_state.py), its views must
    not; an entry whose views are gone is never matched again (their ids may be reused by new objects)."""
    kept: dict[tuple[int, int, str, bool], tuple[weakref.ref[UnitView], weakref.ref[UnitView], float]] = \
        view.grid.kept.setdefault("ai_replies", {})
    key = (id(e), id(f), view.scope, view.round > 0)
    got = kept.get(key)
    if got is not None and got[0]() is e and got[1]() is f:
        return got[2]
    shot = _reply_shot(view, e, f)
    value = material(_melee_reply(view, e, f, shot) if e.melee is not None and e.melee.carried else shot, f)
    if len(kept) >= REPLIES_KEPT:
        kept.clear()
    kept[key] = (weakref.ref(e), weakref.ref(f), value)
    return value


def presence(view: BattleView, me: UnitView, w: Weights) -> dict[str, float]:
    """How surely each enemy in action is where the view shows it: 1 in sight; a ghost at its last known cell
    `w.ghost` (it may have gone), or 0 when one of us sees that cell now (it has gone: fog of war)."""
    ours = [me, *view.friends(me)]
    enemies = view.enemies(me)
    ghosts = [e for e in enemies if e.ghost]
    gone: set[str] = set()
    if ghosts:  # `view.sight(f, e).visible` for each of us and each ghost, from one look at the map's codes
        xs = np.fromiter((e.cell[0] for e in ghosts), dtype=np.intp, count=len(ghosts))
        ys = np.fromiter((e.cell[1] for e in ghosts), dtype=np.intp, count=len(ghosts))
        codes = view.grid.sight_table.codes_many(tuple(f.cell for f in ours), xs, ys)  # [one of us, ghost]
        lean = ((codes & 1) != 0).any(axis=0), ((codes & 3) == 1).any(axis=0)  # seen at all; seen not leaning
        for e, seen, plain in zip(ghosts, *(a.tolist() for a in lean), strict=True):
            # seen round a corner only: concealed if the side knows where it is, else not seen (geo.unit_sight)
            if plain or (seen and (e.firing or me.side in e.known_to)):
                gone.add(e.name)
    return {e.name: 1.0 if not e.ghost else 0.0 if e.name in gone else w.ghost for e in enemies}


@dataclass
class Replies:
    """Every enemy's best reply on our side, worked out once per decision for the units that stay as they are
    (`base[e]`: the most it takes from any of our other units), so each candidate only works out its own;
    `present[e]`: how surely the enemy is where the view shows it (`presence`). With the turn order
    (`Weights.order`, `order.turns_before`, once initiative is flipped): `turns[e]`, how many turns it takes
    before our unit's next one; else one each. `closing`: the weight of a reply from a walk nearer."""

    view: BattleView
    me: UnitView
    base: dict[str, float]
    enemies: list[UnitView]
    present: dict[str, float]
    turns: dict[str, float] = field(default_factory=dict)
    closing: float = 0.0
    pinned: frozenset[str] = frozenset()  # enemies our friends' covering fire pins now (`Weights.cover`, R-6.12)

    _sees: dict[geo.Cell, list[bool]] = field(default_factory=dict, repr=False, compare=False)  # `_shooters`
    _shots: dict[tuple[object, ...], list[ShotEstimate | None]] = field(default_factory=dict, repr=False,
                                                                       compare=False)  # `_reply_shot`, `_state`
    _rows: list[tuple[str, float, float, float]] | None = field(default=None, repr=False, compare=False)

    @staticmethod
    def of(view: BattleView, me: UnitView, w: Weights | None = None) -> Replies:
        """The replies on `me`'s friends."""
        w = w or Weights()
        present = presence(view, me, w)
        enemies = [e for e in view.enemies(me) if (e.weapon is not None or (e.melee is not None and e.melee.carried))
                   and present[e.name] > 0]  # a gun, or a hand-to-hand weapon (issue 14)
        friends = view.friends(me)
        # every enemy's line of sight to each of us, as `Situation.danger` asks it (one look kept for both)
        rows = dict(zip((e.name for e in view.enemies(me)),
                        seen_pairs(view, [e.cell for e in view.enemies(me)], [me.cell, *(f.cell for f in friends)]),
                        strict=True))
        base = {e.name: max((_reply_material(view, e, f) for f, s in zip(friends, rows[e.name][1:], strict=True)
                             if s or (e.melee is not None and e.melee.carried)), default=0.0)
                for e in enemies}
        turns = turns_before(view, me, enemies, w.tie) if w.order else {}
        pinned = friends_pins(view, me) if w.cover else frozenset()
        if pinned:  # their replies on our other units at -2 too
            base = {e.name: base[e.name] * (pin_ratio(view, e, friends) if e.name in pinned else 1.0)
                    for e in enemies}
        return Replies(view, me, base, enemies, present, turns, w.closing, pinned)

    def against(self, moved: UnitView, spared: dict[str, float], pins: frozenset[str] = frozenset()
                ) -> tuple[float, float]:
        """(expected material the replies take, the chance `moved` stands through them): each enemy, weighted
        by the chance it is still in action (`spared`), by how surely it is there and by the turns it takes
        before our unit's next one, shoots the one of us it harms most (from a walk nearer when it does not see
        `moved`, at `closing`'s weight: it may not come); a pinned enemy (by our friends' covering fire, or by
        `pins`: the candidate's own) at its shots' -2 (R-6.12)."""
        total, survive = 0.0, 1.0
        sees = self._sees.get(moved.cell)
        if sees is None:
            sees = self._sees[moved.cell] = self._shooters(moved.cell)
        state = _state(moved)
        shots = self._shots.get(state)
        if shots is None:
            shots = self._shots[state] = [None] * len(self.enemies)
        rows = self._rows
        if rows is None:  # what each enemy's term reads of the replies, looked up once per decision
            rows = self._rows = [(e.name, self.present[e.name], self.turns.get(e.name, 1.0), self.base[e.name])
                                 for e in self.enemies]
        for i, (e, may, (name, there, n, base)) in enumerate(zip(self.enemies, sees, rows, strict=True)):
            weight = spared.get(name, 1.0) * there
            if weight <= 0 or n <= 0:
                continue
            if not may and name not in pins:  # no line of sight, no blow, no walk: no shot (what the full path
                total += n * weight * base  # adds then: on_me 0.0 <= base, and `survive` times 1.0)
                continue
            est = shots[i]
            if est is None:  # the same shot for every candidate that leaves our unit so (`_state`)
                est = shots[i] = _reply_shot(self.view, e, moved)
            if est.hit <= 0 and self.closing > 0:  # out of its sight: it may walk to where it sees us
                est = self._closing(e, moved)
            if e.name in pins or e.name in self.pinned:  # heads down: its shots -2, not its blows
                est = scaled(est, pinned_hit(e, est))
                base *= pin_ratio(self.view, e, self.view.friends(self.me)) if e.name not in self.pinned else 1.0
            if e.melee is not None and e.melee.carried:  # its blow, if it is worse (R-7, R-5.4; issue 14)
                est = _melee_reply(self.view, e, moved, est)
            on_me = material(est, moved)
            total += n * weight * max(base, on_me)
            if on_me >= base:
                survive *= (1 - weight * est.kill) ** n
        return total, survive

    def _shooters(self, cell: geo.Cell) -> list[bool]:
        """Per enemy, False when its reply on a unit at `cell` is surely nothing whatever the unit's state: a gun
        only (no blow, R-7), not pinned (R-6.12), no walk nearer weighed (`closing` 0), and no line of sight from
        its cell (R-6.6: then `estimate_shot` answers NO_SHOT, and `material` of it is 0.0)."""
        if self.closing > 0:
            return [True] * len(self.enemies)
        seen = seen_pairs(self.view, [e.cell for e in self.enemies], [cell])  # (R-6.6; `sight_pairs`)
        return [row[0] or (e.melee is not None and e.melee.carried) or e.name in self.pinned
                for e, row in zip(self.enemies, seen, strict=True)]

    def _closing(self, e: UnitView, target: UnitView) -> ShotEstimate:
        """An enemy's shot after walking to where it sees `target` (`order.closing_shot`), at `closing`'s weight."""
        est, c = closing_shot(self.view, e, target), self.closing
        if est is None:
            return _NO_SHOT
        return ShotEstimate(hit=c * est.hit, damage=c * est.damage, wounds=c * est.wounds, ct=c * est.ct,
                            kill=c * est.kill, tn=est.tn, modifier=est.modifier)


_NO_SHOT = ShotEstimate(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)


def _state(u: UnitView) -> tuple[object, ...]:
    """All an enemy's prepared shot at `u` reads of `u` (`_reply_shot`, one view): its sight by the cell, whether it
    fires and who knows where it is (`geo.unit_sight`, R-6.1, R-6.6); the numbers by its name (a readied shot), size,
    declaration and dodge (R-5.4), and speed (R-6.1); the harm by its armour, screen, wounds and CT (R-6.7, R-8.1).
    `estimate_shot` keeps its answers by these too; `material` reads the wounds."""
    return (u.cell, u.firing, u.known_to, u.name, u.size, u.declared, u.skills, u.moved_m, u.rate_m, u.armour,
            u.screen_type, u.screen_points, u.wounds, u.ct)



def next_shot(view: BattleView, me: UnitView, spared: dict[str, float], present: dict[str, float],
              standing: bool = False) -> float:
    """Our unit's best prepared shot next turn from where it stands (R-6.2: readied and aimed as it is then), as
    often as a SLOW turn allows it (three prepared attacks, R-5.5, and the rounds loaded), weighted by how surely
    the enemy is there (a ghost's last known cell draws a unit that searches)."""
    wpn = me.weapon
    if wpn is None or me.jammed or me.rounds <= 0:
        return 0.0
    burst = min((b for b in wpn.bursts if b <= me.rounds), default=0)
    mode = "prepared" if burst or me.aim == 0 else "aimed"
    times = 1 if mode == "aimed" else _next_turn_shots(me, mode, burst)  # a SLOW turn: three prepared
    best = 0.0
    shots: list[tuple[float, float]] = []
    for e in view.enemies(me):
        weight = spared.get(e.name, 1.0) * present.get(e.name, 0.0)
        if weight <= 0 or not view.sight(me, e).visible:
            continue
        value = material(repeated(estimate_shot(view, me, e, mode=mode, burst=burst), times), e)
        best = max(best, weight * value)
        shots.append((value, weight))
    if not standing:
        return best
    # `standing`: the shot at the best enemy still standing there, E[max], each enemy standing independently (an
    # attack now that may put the best target down leaves the next shot to the next best, not to nothing).
    best, none_above = 0.0, 1.0
    for value, weight in sorted(shots, reverse=True):
        best += none_above * weight * value
        none_above *= 1 - weight
    return best


def _next_turn_shots(me: UnitView, mode: str, burst: int) -> int:
    """How often a SLOW turn next round takes this attack: `shots_this_turn` on a fresh turn (no parts taken, the
    tacpack's shot points back, R-6.13), so the rate of fire (R-6.3), rounds and power count as they do now."""
    from skirmish.ai.utility.material import repeats_of

    w = me.weapon  # (the fresh turn's power read from the view as it would be: only an energy weapon asks)
    power = replaced(me, shot_points=0).power_left if w is not None and w.energy else None
    return repeats_of(me, mode, burst, power, "slow", ())


@lru_cache(maxsize=256)
def _part(kind: Literal["move", "attack"], speed: int, mode: str, running: bool) -> Part:
    """`Part(kind, speed, mode, running)`, made once (a part is frozen; the model asks the same few for every cell)."""
    return Part(kind, speed, mode, running)


def shot_after_move(view: BattleView, me: UnitView, moved: UnitView, running: bool,
                    present: dict[str, float], volley: bool = False, mixed: bool = False
                    ) -> tuple[ShotEstimate | None, str | None, float]:
    """The best attack still allowed this turn after a move (R-5.4: readiness lost, a snap at weapon speed
    unless the declaration allows a prepared shot): its estimate, target and how surely the target is there
    (a ghost's last known cell may be empty when the unit gets there), or (None, None, 0). With `volley` the
    attack is taken as often as the turn still allows it after the move (R-5.5), in whichever mode that fits
    is worth most (a prepared shot once, or three snaps); else the first mode that fits, once. With `mixed` each
    mode is weighed with whatever attacks the turn holds after it, any modes (`volley.turn_of_fire`: after a
    walk, a snap and two prepared; `Weights.mixed_move`, measured and not shipped)."""
    w = me.weapon
    if w is None or me.declared == "dodge" or not me.can_fire or me.attacked:  # (a dodger makes no attacks, R-5.4)
        return None, None, 0.0
    best: tuple[ShotEstimate | None, str | None, float] = (None, None, 0.0)
    best_value = 0.0
    for mode in ("prepared", "snap"):
        if not fits_kept(me.declared, (*me.turn_parts, _part("move", 1, "prepared", running),
                                       _part("attack", int(w.speed), mode, False))):
            continue
        burst = min((b for b in w.bursts if me.can_fire_burst(b)), default=0)
        times = _after_move_shots(me, running, mode, burst) if volley and not mixed else 1
        there_now = replaced(moved, turn_parts=(*me.turn_parts, _part("move", 1, "prepared", running))) if mixed else moved
        for t in view.enemies(me):
            there = present.get(t.name, 0.0)
            if there <= 0 or not view.sight(moved, t).visible:
                continue
            how = "ran" if running else "walked"
            est = repeated(estimate_shot(view, moved, t, mode=mode, burst=burst, moved=how), times)
            if mixed:  # and whatever attacks the turn holds after it, any modes (`volley.turn_of_fire`)
                est = turn_of_fire(view, there_now, t, est, mode, burst, how)
            if est.hit > 0 and there * material(est, t) > best_value:
                best, best_value = (est, t.name, there), there * material(est, t)
        if not volley:
            return best
    return best


def _after_move_shots(me: UnitView, running: bool, mode: str, burst: int) -> int:
    """How often the turn still takes this attack after the move (`shots_this_turn` with the move a part of the
    turn: at SLOW a move and two prepared attacks, R-5.5; the rate of fire and rounds loaded as they are)."""
    from skirmish.ai.utility.material import shots_this_turn

    moved = replaced(me, turn_parts=(*me.turn_parts, _part("move", 1, "prepared", running)))
    return shots_this_turn(moved, Shoot(me.name, "", mode=mode, burst=burst))


def shot_this_round(view: BattleView, me: UnitView, speed: str) -> tuple[ShotEstimate | None, str | None]:
    """The best attack a declaration allows from where the unit stands (R-5.1, R-5.4: none under DODGE; the
    slowest mode that fits the speed, so a prepared shot at NORMAL and a snap at FAST): estimate and target."""
    w = me.weapon
    if w is None or speed == "dodge" or me.jammed or me.rounds <= 0:
        return None, None
    for mode in ("prepared", "snap"):
        if not fits_kept(speed, (_part("attack", int(w.speed), mode, False),)):
            continue
        burst = min((b for b in w.bursts if me.can_fire_burst(b)), default=0)
        best: tuple[ShotEstimate | None, str | None] = (None, None)
        best_value = 0.0
        for t in view.enemies(me):
            if t.ghost or not view.sight(me, t).visible:
                continue
            est = estimate_shot(view, me, t, mode=mode, burst=burst)
            if est.hit > 0 and material(est, t) > best_value:
                best, best_value = (est, t.name), material(est, t)
        return best
    return None, None


def _allowance(me: UnitView, target: str, speed: str) -> int:
    """How many times the turn a declaration allows takes `shot_this_round`'s attack (its mode: prepared where it
    fits, else snap; its smallest burst): three prepared at SLOW, one prepared at NORMAL (R-5.5)."""
    from skirmish.ai.utility.material import shots_this_turn

    w = me.weapon
    if w is None:
        return 1
    mode = "prepared" if fits_kept(speed, (Part("attack", int(w.speed), "prepared"),)) else "snap"
    burst = min((b for b in w.bursts if me.can_fire_burst(b)), default=0)
    return shots_this_turn(me, Shoot(me.name, target, mode=mode, burst=burst))


def exchange(view: BattleView, me: UnitView, action: Action, replies: Replies, w: Weights,
             walks: frozenset[geo.Cell] = frozenset(), repeats: int = 1, plan: Plan | None = None) -> Exchange:
    """Weigh one candidate: our attack (a chance node over the rules' odds), the enemy's best replies at the
    positions that result, and our unit's next shot if it stands (`walks`: the cells a walk reaches; a move
    elsewhere is a run; `repeats`: a shot that the turn lets the unit take this many times, `repeated`)."""
    attack, kills = 0.0, {}
    after = me
    pins: frozenset[str] = frozenset()
    if isinstance(action, Move):
        cell: geo.Cell = (int(action.to[0]), int(action.to[1]))
        running = cell not in walks
        step_m = geo.distance_m(me.cell, cell, view.grid.cell_m)
        after = replaced(me, cell=cell, ready_target=None, aim=0, moved_m=me.moved_m + step_m,
                         rate_m=max(me.rate_m, step_m))  # the replies read its speed (faster than Rate 20: −4)
        est_after, target, there = shot_after_move(view, me, after, running, replies.present, w.move_volley,
                                                   w.mixed_move)
        if est_after is not None and target is not None:
            attack, kills = there * material(est_after, view.unit(target)), {target: there * est_after.kill}
            after = replaced(after, firing=True)
    elif isinstance(action, Shoot) and w.extras and (action.also or action.double_tap):
        attack, kills = extra_shot(view, me, action, w, replies.present)
        after = replaced(me, firing=True, ready_target=action.target,
                         rounds=max(0, me.rounds - max(2 if action.double_tap else 1, action.burst)))
    elif isinstance(action, CoverFire) and w.cover:
        attack, pins = cover_attack(view, me, action, replies.present)
        after = replaced(me, firing=True)
    elif isinstance(action, Shoot):
        t = view.unit(action.target)
        one = estimate_shot(view, me, t, mode=action.mode, burst=action.burst, moved=me.moved)
        est = turn_of_fire(view, me, t, one, action.mode, action.burst, me.moved) if w.mixed else repeated(one, repeats)
        if action.hand == "off":  # two weapons: the off hand's shot, and the main's after it (two_guns.py)
            from skirmish.ai.utility.two_guns import off_turn_estimate
            est = off_turn_estimate(view, me, t, action, est)
        attack, kills = material(est, t), {t.name: est.kill}
        if w.strays:  # the rounds that miss it, on whoever stands on the line
            attack += repeats * stray_material(view, me, t, action.mode, action.burst, one.hit, w.friendly,
                                               replies.present)
        after = replaced(me, firing=True, ready_target=t.name, rounds=max(0, me.rounds - max(1, action.burst)))
    elif isinstance(action, Throw):
        attack, kills = throw_material(view, me, action, w, replies.present)
    elif isinstance(action, Launch):  # either hand's launcher
        attack, kills = launch_material(view, me, action, w, replies.present)
    elif isinstance(action, Declare):
        after = replaced(me, declared=action.speed)  # a DODGE makes the replies harder, and allows no attack
        est_now, target = shot_this_round(view, after, action.speed)
        if est_now is not None and target is not None:  # as often as the declared turn allows
            est_now = repeated(est_now, _allowance(after, target, action.speed))
            attack, kills = material(est_now, view.unit(target)), {target: est_now.kill}
    elif isinstance(action, Aim):
        after = replaced(me, ready_target=action.target,
                        aim=min(2, me.aim + 1 if me.ready_target == action.target else 1))
    elif isinstance(action, Reload) and me.weapon is not None:
        after = replaced(me, rounds=me.weapon.magazine, jammed=False)
    elif isinstance(action, SetTacpack):
        after = replaced(me, screen_type=action.screen, screen_points=action.points)
    elif action.verb in MELEE_VERBS or (w.extras and action.verb in GRAPPLE_VERBS):  # hand to hand
        from skirmish.ai.utility.melee_options import melee_exchange

        got = melee_exchange(view, me, action, material)
        if got is not None:
            attack, kills, after = got
    spared = {name: 1 - k for name, k in kills.items()}
    reply, survive = replies.against(after, spared, pins)
    # our next shot, worked out only where it is weighed (the utility AI's material scale weighs it at 0: `value`
    # is then the same number without it, and its exchanges never show it)
    follow = survive * next_shot(view, after, spared, replies.present, w.standing) if w.follow else 0.0
    rest = plan.value(view, after, kills) if plan is not None and w.plan else 0.0
    return Exchange(attack, reply, follow, survive, rest)

