"""The utility AI's final pick between attacking and not attacking, on an additive scale of expected material.

The considerations multiply (the compensation factor), which flattens a good shot against a fair move
(issue 12: the search tier, which adds up material, beat the utility AI by 15 points against `random`). So
once the options are scored, the ones that attack (a shot, a throw, aiming for a shot, a move that still
allows a shot, R-5.4) and the best options that do not (the best move without a shot, chosen by the cell
considerations as before, and the best of staying: end turn, wait, reload, a screen) are ranked again by
their exchange in units of material, with the search tier's model (`skirmish.ai.search.model`: our attack
over the rules' odds of `ai.estimate`, minus the enemy's best replies at the cell the action ends in, plus a
share of our next shot), plus a share of the utility score (position sense, and the tiebreak). Which cell to
move to when no shot is involved stays the considerations' choice.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from skirmish.ai.blast import FRIEND_WEIGHT
from skirmish.ai.utility.melee_options import MELEE_KEYS
from skirmish.ai.utility.scoring import Consideration, Option
from skirmish.core.legal import LegalActions
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.actions import Aim, Move, Shoot, Throw
from skirmish.rulesets.fi import Part, add_part, fits

if TYPE_CHECKING:
    from skirmish.ai.search.model import Weights

FOLLOW = 0.0  # our next shot's weight on this scale (the search tier's is 0.6: it looks one turn further)


def attacks(o: Option) -> bool:
    """Whether an option attacks: a shot, a throw, aiming for a shot (R-6.2), or a move scored by the shot it
    still allows (its "hit chance" consideration, R-5.4)."""
    return isinstance(o.action, (Shoot, Throw, Aim)) or o.key[:1] in _MELEE or o.attack_material is not None or \
        any(c.name == "hit chance" for c in o.considerations)


_MELEE = {(k,) for k in MELEE_KEYS}  # blows, charges, Close, defence, contests (melee_options): on this scale too


def candidates(options: list[Option]) -> list[Option]:
    """What the material scale ranks (`options` best first): every attacking option, the best move without
    a shot, and the best option that stays without attacking."""
    out = [o for o in options if attacks(o)]
    if not out:
        return []
    move = next((o for o in options if not attacks(o) and isinstance(o.action, Move)), None)
    stays = next((o for o in options if not attacks(o) and not isinstance(o.action, Move)), None)
    return out + [o for o in (move, stays) if o is not None]


MAX_REPEATS = 6  # three attack actions of a weapon firing two shots per action


def shots_this_turn(me: UnitView, shot: Shoot) -> int:
    """How many times the unit could take this shot this turn, counting it: while the declaration allows one more
    of the same mode (R-5.3, R-5.5: at SLOW three prepared attacks, at NORMAL three snaps; an aimed shot at SLOW
    combines with nothing; R-6.3: shots up to the rate of fire share one action), the rounds loaded last and,
    for an energy weapon, the tacpack power left this round (R-6.13: every round of a burst draws the weapon's
    power)."""
    return repeats_of(me, shot.mode, shot.burst, None, me.declared, me.turn_parts)


def repeats_of(me: UnitView, mode: str, burst: int, power: int | None, declared: str | None,
               turn_parts: tuple[Part, ...]) -> int:
    """`shots_this_turn` of a `mode` shot of `burst` with the turn so far `turn_parts` under `declared`, and `power`
    tacpack points free for an energy weapon (None: the unit's `power_left` now)."""
    w = me.weapon
    if w is None:
        return 1
    rounds = me.rounds // max(1, burst)
    if w.energy:
        rounds = min(rounds, (me.power_left if power is None else power) // max(1, w.shot_power(burst)))
    return _repeats(int(w.speed), mode, w.id, max(1, w.rof), min(MAX_REPEATS, rounds), declared, turn_parts)


@lru_cache(maxsize=4096)
def _repeats(speed: int, mode: str, weapon: str, rof: int, most: int, declared: str | None,
             turn_parts: tuple[Part, ...]) -> int:
    """`shots_this_turn`'s count once the rounds and power allow `most`: the turn so far and one more such attack
    at a time while the declaration allows it (kept: it reads only these, and the parts are frozen)."""
    part = Part("attack", speed, mode, weapon=weapon, rof=rof)
    parts, n = list(turn_parts), 0
    while n < most:
        parts = add_part(parts, part)
        if not fits(declared, parts):
            break
        n += 1
    return max(1, n)


def special_repeats(me: UnitView, action: object, n: int) -> int:
    """How many times the turn allows an option the exchange model does not read: a double tap spends two rounds and
    both shots of a rate-of-fire-2 action (R-6.12: half as many as single shots), covering fire and a launch are
    one action that ends what the unit fires this turn (counted once), a split burst as its burst."""
    if isinstance(action, Shoot) and action.double_tap:
        return max(1, min(n // 2 if me.weapon is not None and me.weapon.rof >= 2 else n, me.rounds // 2))
    if isinstance(action, Shoot):
        return n
    return 1


def weights(reply: float = 1.0, utility: float = 0.3) -> Weights:
    """The search tier's weights without our next shot (`FOLLOW`): this action's exchange only; the search tier
    (`hard`, `search`) also counts the shot the unit has from where it ends (imported when used: the search
    package builds on this one). `reply` and `utility` are a personality's (`scale_reply`, `scale_utility`)."""
    key = (reply, utility)
    made = _WEIGHTS.get(key)
    if made is None:  # made once per pair (a frozen value)
        from skirmish.ai.search.model import Weights

        made = _WEIGHTS[key] = Weights(follow=FOLLOW, reply=reply, utility=utility)
    return made


_WEIGHTS: dict[tuple[float, float], Weights] = {}


def material_pick(view: BattleView, me: UnitView, options: list[Option], legal: LegalActions,
                  w: Weights | None = None) -> list[Option]:
    """`options` (best first by utility) with the best on the material scale first, the rest in their utility
    order; each option weighed gets its exchange's parts as trace considerations (they do not change its
    utility score). Unchanged when nothing attacks or no enemy is in sight."""
    if not any(not e.ghost for e in view.enemies(me)):
        return options
    cands = candidates(options)
    if len(cands) < 2:
        return options
    from skirmish.ai.search.model import Replies, exchange, material, repeated

    w = w or weights()
    replies = Replies.of(view, me, w)
    best, best_value = cands[0], float("-inf")
    repeats: dict[tuple[str, int], int] = {}  # shots_this_turn by the shot's mode and burst (all it reads of it)
    for o in cands:
        n = 1
        if isinstance(o.action, Shoot):
            got = repeats.get((o.action.mode, o.action.burst))
            n = repeats[(o.action.mode, o.action.burst)] = shots_this_turn(me, o.action) if got is None else got
        ex = exchange(view, me, o.action, replies, w, legal.walk, repeats=n)
        if o.attack_material is not None or o.friend_material:  # what the model does not read (ranged_extra.py)
            n = special_repeats(me, o.action, n)
            attack = ex.attack if o.attack_material is None else o.attack_material
            if o.shares:  # a split burst or a double tap, as often as the turn allows it (search.model.repeated)
                attack = sum(material(repeated(est, n), t) for t, est in o.shares)
            ex = replace(ex, attack=attack - FRIEND_WEIGHT * n * o.friend_material)
        value = ex.value(w) + w.utility * o.score
        if n > 1:
            o.considerations.append(Consideration("material: shots this turn", n, n))
        o.considerations += [Consideration("material: our attack", round(ex.attack, 4), round(ex.attack, 4)),
                             Consideration("material: enemy replies", round(ex.reply, 4), round(-ex.reply, 4)),
                             Consideration("material: value", round(value, 4), round(value, 4))]
        if value > best_value:  # the first of equals: the utility order
            best, best_value = o, value
    return [best, *(o for o in options if o is not best)]
