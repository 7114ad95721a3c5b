"""Two weapons in the utility AI (R-6.12, issue 14 item 7): a unit holding a weapon in each hand (`UnitView.off_hand`)
fires both in one attack action, each hand up to its own weapon's rate of fire. Every shot it makes takes −2 (the
shared estimate, ai/estimate.py, takes that off the main hand's), the off hand's −4 more (−6 in all), a two-handed
weapon in one hand −2 more (`hand_penalty`).

Only what the battle lists (`LegalActions.offhand`) becomes an option:

- before the turn's first attack: a *two-gun turn* at a target and mode, the off hand first (`shoot … hand=off`),
  the main hand's shots after it in the same action (the plain shot options take them). It is weighed as both
  hands' fire together (`both`: considerations on the utility scale; on the material scale the search model's
  exchange of a `hand=off` shot, `off_turn_estimate`: the off hand's shot and the main hand's turn of fire after it)
  against every single-weapon shot the unit has (an aimed one, a burst), and offered only when the off hand's own
  hit chance reaches OFF_MIN_HIT (below it the round is wasted);
- after the main hand has fired: the off hand's shot alone, in the mode of the action going on (a shot in another
  mode would be a new action), at OFF_MIN_HIT or better.

An off hand holding a launcher (R-6.10) does not shoot: `off_launch_options` offers a launch with it
(`launch … hand=off`, when the battle lists `LegalActions.off_launches`), the grenade-cell search of a main-hand
launch (ranged_extra.launch_options) with the off hand's penalties (−2, −4, a two-handed launcher's −2).

`off_estimate` is the off hand's shot from the side's view; the search tier prices a `hand=off` shot with
`off_turn_estimate` (ai/search/model.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from skirmish.ai.estimate import ShotEstimate, estimate_shot, pool_hit_chance, replaced
from skirmish.ai.utility.ranged_extra import _pool, both, launch_options, mind_the_line, scaled
from skirmish.ai.utility.scoring import Option, shot_considerations
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.actions import Shoot
from skirmish.rulesets.fi import hand_penalty

if TYPE_CHECKING:
    from skirmish.ai.utility.options import Situation

OFF_MIN_HIT = 0.1  # an off-hand shot less likely than this to hit is not fired (its round is wasted)


def off_view(me: UnitView) -> UnitView:
    """The unit with the off hand's weapon in hand (its rounds and breakdown): the estimate's numbers for it."""
    return replaced(me, weapon=me.off_hand, rounds=me.off_rounds, jammed=me.off_jammed)


def off_estimate(view: BattleView, me: UnitView, target: UnitView, mode: str, burst: int = 0) -> ShotEstimate:
    """The off hand's shot at `target` (R-6.12): the shared estimate with the off hand's weapon (its −2 for two
    weapons, a two-handed weapon's −2), then the off hand's −4 more on the same pool and TN."""
    w = me.off_hand
    if w is None:
        return ShotEstimate(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)
    you = off_view(me)
    est = estimate_shot(view, you, target, mode=mode, burst=burst, moved=me.moved)
    if est.hit <= 0:
        return est
    column, row, halve = _pool(you)
    extra = hand_penalty(w, True) - hand_penalty(w, False)
    return scaled(est, pool_hit_chance(column, row, est.tn, est.modifier + extra, halve))


def off_turn_estimate(view: BattleView, me: UnitView, target: UnitView, shot: Shoot, main: ShotEstimate) -> ShotEstimate:
    """What an off-hand shot (`shot`, hand=off) brings on: itself, and before the turn's first attack the main
    hand's shot (`main`, at the same target and mode) that follows it in the same action."""
    off = off_estimate(view, me, target, shot.mode, shot.burst)
    return off if me.attacked or not me.can_fire else both(off, main)


def off_launch_options(s: Situation) -> list[Option]:
    """A launch with the launcher in the other hand (R-6.12, R-6.10), when the battle lists one and the
    personality launches (`use_launch`)."""
    me = s.me
    if not s.p.use_launch or me.off_hand is None or not me.off_hand.launched or not s.legal.off_launches:
        return []
    return launch_options(replace(s, me=off_view(me)), hand="off")


def _action_mode(me: UnitView) -> str | None:
    """The mode of the turn's last attack action (its shots' mode), None before any."""
    for p in reversed(me.turn_parts):
        if p.kind == "attack":
            return p.mode
    return None


def two_gun_options(s: Situation) -> list[Option]:
    """The off hand's shots worth firing now (see the module), each in the modes listed."""
    view, me, legal = s.view, s.me, s.legal
    if me.off_hand is None or me.off_jammed or me.off_rounds <= 0 or not legal.offhand:
        return []
    opened = me.attacked
    mode_now = _action_mode(me) if opened else None
    out = []
    for shot in legal.offhand:
        if shot.burst or shot.double_tap or (opened and shot.mode != mode_now):
            continue
        t = view.find(shot.target)
        if t is None or t.ghost:
            continue
        off = off_estimate(view, me, t, shot.mode)
        if off.hit < OFF_MIN_HIT:
            continue
        main_too = not opened and me.can_fire and Shoot(me.name, t.name, mode=shot.mode) in legal.shots
        if main_too:
            est = both(off, estimate_shot(view, me, t, mode=shot.mode, moved=me.moved))
            label = f"shoot {t.name} {shot.mode} with both guns (off hand first)"
        else:
            est = off
            label = f"shoot {t.name} {shot.mode} off hand"
        o = Option(label, shot, ("shoot", t.name), estimate=est)
        shot_considerations(o, est, s.danger(t), s.p, s.committed, view, me, t, 0)
        # (its material: the search model's exchange prices a `hand=off` shot, off_turn_estimate)
        if mind_the_line(s, o, t, off, 0):
            out.append(o)
    return out
