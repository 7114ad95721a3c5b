"""Future Imperfect systems: the grapple maneuvers of advanced martial arts (R-7.7, option `martial_arts`): Hold,
Lift and Lock leave a grip (`MeleeState.gripping` / `gripped_by`), Choke and Disable work it, Escape and breaking
free end it. The numbers are skirmish.rules.fi.arts_holds; the layer sits over FiArts and under FiMelee.

- `melee U T maneuver=hold|lift|lock [effects=choke|disable]`: a check at the blow's TN on the maneuver's pool (the
  TN reads the target's Martial Arts level + Escape dice when more, R-7.7); success grips T. A Hold or Lock with its
  effect chokes (d6 wind) or starts the disabling contest at once; the same order again while the grip lasts is
  the next choke, or the next disabling try at its cumulative +1, with no new check. Both are prone in a choke or a
  lock.
- A gripped unit cannot move or charge (R-7.7, `held_reason`); the holder's Throw or Takedown at it is at +3 (Hold,
  Lift) and lets go of it; moving away lets go.
- `melee U T maneuver=escape` (T the holder): a check at the TN of an attack at T on the Escape pool; success ends
  the grip; a raise stands it up, or out of a Lift it does not fall; out of a Lift without one it falls.
- `break_free U strength|wriggle` works on a grip too: Strength or Dexterity against the holder's Strength (a
  disabling lock: the defender's own try, its Strength at −2 against the attacker's with its bonus, seed "Disable").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Profile, Status, Turn
from skirmish.ecs.fi_melee_components import MeleeState
from skirmish.ecs.systems.fi.arts import FiArts, _Wind
from skirmish.ecs.systems.fi.grapple import _sum
from skirmish.ecs.systems.fi.melee import READY
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action
from skirmish.rules.checks import Modifier
from skirmish.rules.checks import Pool as CheckPool
from skirmish.rules.deck import Card
from skirmish.rules.equipment import MeleeWeapon
from skirmish.rules.fi import arts_holds as ah
from skirmish.rules.fi.melee_actions import BreakFree, Charge, MeleeAttack
from skirmish.rules.fi.melee_odds import ManeuverOdds, check_odds
from skirmish.rules.fi.timing import Part

RULES = ("R-7.7",)


class FiHolds(FiArts):
    """Hold, Lift, Lock and Escape; Choke and Disable (R-7.7)."""

    # ------------------------------------------------------------------ the grip
    def let_go(self, holder: int, why: str) -> None:
        """The holder's grip ends (an `grip` event saying why); both stand free of it."""
        ms = self.melee_state(holder)
        if ms.gripping is None:
            return
        target = ms.gripping
        live = self.w.get(holder, MeleeState)
        kind, live_effect = live.grip, live.grip_effect
        live.gripping = live.grip = live.grip_effect = None
        live.grip_bonus = 0
        other = self.w.entity(target) if self.w.has(target) else None
        if other is not None:
            self.w.get(other, MeleeState).gripped_by = None
        if kind == "lock" or live_effect == "choke":  # prone only while the choke or lock lasts (seed)
            for u in (holder, other):
                if u is not None and self.active(u) and not self.melee_state(u).down and self.w.peek(u, Status).prone:
                    self.w.get(u, Status).prone = False
        self._event("grip", self.name(holder), RULES, target=target, grip=kind or "", what="released", reason=why)

    def held_reason(self, eid: int) -> str | None:
        """A gripped unit stays where it is (R-7.7)."""
        by = self.melee_state(eid).gripped_by
        if by is not None:
            return f"R-7.7: {self.name(eid)} is held by {by}; escape or break free first"
        return super().held_reason(eid)

    def walk_path(self, eid: int, path: list[geo.Cell], metres: float, running: bool, parts: list[Part],
                  rules: tuple[str, ...] = ()) -> None:
        """A holder that moves away lets go (R-7.7)."""
        if self.melee_state(eid).gripping is not None:
            self.let_go(eid, "moved away")
        super().walk_path(eid, path, metres, running, parts, rules)

    def _apply_hits(self, tgt: int, out: Any) -> None:
        """Damage from anywhere (a shot, a blast, a blow): a grip by or on a unit it puts out of action ends."""
        super()._apply_hits(tgt, out)
        if self.melee_state(tgt).gripping is not None or self.melee_state(tgt).gripped_by is not None:
            self.after_damage_check()

    def after_damage_check(self) -> None:
        """Grips held by or on a unit out of action end."""
        for e, _ in self.w.units():
            ms = self.melee_state(e)
            if ms.gripping is not None:
                other = self.w.entity(ms.gripping) if self.w.has(ms.gripping) else None
                if not self.active(e) or other is None or not self.active(other):
                    self.let_go(e, "out of action")

    # ------------------------------------------------------------------ checks
    def maneuver_use(self, eid: int, action: MeleeAttack) -> Any:
        use, m = super().maneuver_use(eid, action)
        if m.id in ah.HOLDS:
            me, tgt = self.melee_state(eid), self.w.entity(action.target)
            them = self.melee_state(tgt)
            why = ah.grip_refusal(m.id, use.effects, actor=self.name(eid), gripping=me.gripping, grip=me.grip,
                                  target=action.target, target_gripped_by=them.gripped_by,
                                  actor_gripped_by=me.gripped_by, target_down=them.down)
            if why:
                raise IllegalAction(why)
        return use, m

    def blow_tn(self, eid: int, tgt: int, weapon: MeleeWeapon, action: MeleeAttack | Charge) -> tuple[int, list[Modifier]]:
        """A holder's Throw or Takedown at the unit it holds or lifts is at +3 (seed, Hold)."""
        tn_value, mods = super().blow_tn(eid, tgt, weapon, action)
        ms = self.melee_state(eid)
        if (isinstance(action, MeleeAttack) and action.maneuver in ah.FOLLOW_UPS and ms.gripping == self.name(tgt)
                and ms.grip in ("hold", "lift") and not ms.down):
            tn_value -= ah.THROW_BONUS
            mods.append(Modifier(-ah.THROW_BONUS, f"{ms.grip} on {self.name(tgt)}: +{ah.THROW_BONUS} (R-7.7)"))
        return tn_value, mods

    def _grip_numbers(self, eid: int, action: MeleeAttack) -> tuple[list[Part], int, int, list[Modifier], CheckPool,
                                                                    list[Modifier]]:
        tgt = self.foe(eid, action.target)
        use, m = self.maneuver_use(eid, action)
        weapon = self.melee_weapon(eid, action.weapon)
        tn_value, tn_mods = self.blow_tn(eid, tgt, weapon, action)
        extra = [*self.wound_mod(eid), *self.mind_mods(eid)]
        return self.melee_parts(eid, weapon, m.id), tgt, tn_value, tn_mods, self.arts_pool(eid, use, m.name), extra

    def melee_check(self, eid: int, action: MeleeAttack) -> list[Part]:
        if action.to is not None:
            self._escape_step(eid, action)
        if action.maneuver in ah.HOLDS:
            return self._grip_numbers(eid, action)[0]
        return super().melee_check(eid, action)

    def _escape_step(self, eid: int, action: MeleeAttack) -> geo.Cell:
        """The step an Escape's raise may take instead of standing up (seed "Escape": "move up to 1 meter"): an
        adjacent open cell, for an escaper on its feet and not lifted; IllegalAction naming R-7.7 otherwise."""
        if action.maneuver != ah.ESCAPE:
            raise IllegalAction("R-7.7: only an Escape takes a step (to=X,Y): its raise moves up to 1 m")
        to = (int(action.to[0]), int(action.to[1])) if action.to is not None else self.w.cell(eid)
        if not geo.adjacent(self.w.cell(eid), to):
            raise IllegalAction("R-7.7: an Escape's step goes to an adjacent cell (up to 1 m)")
        if self.melee_state(eid).down:
            raise IllegalAction(f"R-7.7: {self.name(eid)} is on the ground: an Escape's raise stands it up instead")
        holder = self.melee_state(eid).gripped_by
        if holder is not None and self.w.has(holder) and self.melee_state(self.w.entity(holder)).grip == "lift":
            raise IllegalAction("R-7.7: out of a Lift an Escape's raise is spent on not falling")
        grid = self.ctx.grid
        if (not grid.inside(to) or not geo.can_step(grid, self.w.cell(eid), to)  # no corner cut
                or to in self.known_occupied(eid)):  # fog: an unseen enemy's cell is open to the side (a bump)
            raise IllegalAction(f"R-7.7: cell {to[0]},{to[1]} is not open for an Escape's step")
        return to

    def maneuver_odds(self, eid: int, action: Action, cards: list[Card] | None, seed: int) -> ManeuverOdds | None:
        if isinstance(action, MeleeAttack) and action.maneuver in ah.HOLDS:
            _, _, tn_value, _, pool, extra = self._grip_numbers(eid, action)
            return check_odds(pool, tn_value, _sum(pool.modifiers, extra), cards=cards, seed=seed)
        return super().maneuver_odds(eid, action, cards, seed)

    # ------------------------------------------------------------------ making and working a grip
    def melee(self, eid: int, action: MeleeAttack) -> None:
        if action.to is not None:
            self._escape_step(eid, action)  # checked as it is carried out too (a scripted order is not asked first)
        if action.maneuver not in ah.HOLDS:
            before = self.melee_state(eid).gripping
            super().melee(eid, action)
            if action.maneuver in ah.FOLLOW_UPS and before == action.target and self.melee_state(eid).gripping:
                self.let_go(eid, f"{action.maneuver.replace('_', ' ')}")  # thrown or taken down: out of the grip
            self.after_damage_check()
            return
        parts, tgt, tn_value, tn_mods, pool, extra = self._grip_numbers(eid, action)
        use, _ = self.maneuver_use(eid, action)
        turn = self.w.get(eid, Turn)
        turn.parts, turn.acted = parts, True
        ms = self.melee_state(eid)
        if action.maneuver != ah.ESCAPE and ms.gripping == action.target and ms.grip == action.maneuver:
            self._work_grip(eid, tgt)  # the same grip again: the next choke or disabling try, no new check
            self.after_damage_check()
            return
        weapon = self.melee_weapon(eid, action.weapon)
        read, total, got = self._roll(eid, pool, tn_value, extra)
        success, raised = ah.escape_result(total, tn_value, read.cf)
        self._event("maneuver", self.name(eid), ("R-7.7", "R-7.1") + (("R-3.5",) if read.cf else ()),
                    maneuver=action.maneuver, target=action.target, weapon=weapon.id, tn=tn_value,
                    tn_modifiers=[m.to_json() for m in tn_mods], column=pool.column, row=pool.row, halved=False,
                    read=read.result, cf=read.cf, result=total, success=success,
                    modifiers=[m.to_json() for m in got["mods"]], **got["draw"])
        self.ctx.randomizer.settle()
        if action.maneuver == ah.ESCAPE:
            if success:
                self._escaped(eid, tgt, raised, stand=action.to is None)
                if raised and action.to is not None and self.active(eid):  # the raise moves instead (seed)
                    self._escape_walk(eid, (int(action.to[0]), int(action.to[1])))
            return
        if not success:
            return
        live, them = self.w.get(eid, MeleeState), self.w.get(tgt, MeleeState)
        live.gripping, live.grip = action.target, action.maneuver
        live.grip_effect = next((e for e in use.effects if e in ("choke", "disable")), None)
        live.grip_bonus = 0
        them.gripped_by = self.name(eid)
        self._event("grip", self.name(eid), RULES, target=action.target, grip=action.maneuver,
                    what="made", effect=live.grip_effect)
        if live.grip_effect is not None or action.maneuver == "lock":
            self._work_grip(eid, tgt)  # a lock, or a choke: both prone; then the choke or the first disabling try
            self.after_damage_check()

    def _escaped(self, eid: int, holder: int, raised: bool, *, stand: bool = True) -> None:
        """An escape made: the grip ends; a raise stands the escaper up (out of a Lift: it does not fall) unless it
        is spent on a step (`stand` False); out of a Lift without a raise it falls (seed, Lift and Escape)."""
        kind = self.melee_state(holder).grip
        self.let_go(holder, f"{self.name(eid)} escaped" + (" with a raise" if raised else ""))
        if raised and stand:
            if self.melee_state(eid).down:
                live = self.w.get(eid, MeleeState)
                live.down = False
                self.w.get(eid, Status).prone = False
        elif kind == "lift" and self.active(eid):
            self.fall(eid, "escape from a lift", holder)

    def _escape_walk(self, eid: int, to: geo.Cell) -> None:
        """An Escape's raise spent on a step of up to 1 m (R-7.7), the grip already let go; into an enemy the side
        did not know of, it stops where it stands (`bumped`, walk_path)."""
        path = [self.w.cell(eid), to]  # the one step checked (`_escape_step`), never a route round to it
        if geo.can_step(self.ctx.grid, path[0], to) and to not in self.known_occupied(eid):
            self.walk_path(eid, path, geo.path_cost(self.ctx.grid, path) * self.ctx.grid.cell_m, False, [],
                           ("R-7.7",))

    def _work_grip(self, eid: int, tgt: int) -> None:
        """A choke's wind or a round of the disabling contest; both prone while it lasts (seed)."""
        ms = self.melee_state(eid)
        for u in (eid, tgt):
            if not self.w.peek(u, Status).prone:
                self.w.get(u, Status).prone = True
        if ms.grip_effect == "choke":
            col, row = ah.CHOKE_WIND
            draw = self.ctx.randomizer.draw()
            wind = max(1, draw.effect(col, row))
            self._event("grip", self.name(eid), RULES, target=self.name(tgt), grip=ms.grip or "", what="choke",
                        effect="choke", wind=wind, draw=draw.record())
            self.ctx.randomizer.settle()
            self._apply_hits(tgt, _Wind(wind))
        elif ms.grip_effect == "disable":
            self._disable_round(eid, tgt, defender_try=False)

    def _strength(self, eid: int, mods: list[Modifier], halve: bool) -> tuple[int, dict[str, Any]]:
        col, training = self.w.get(eid, Profile).traits["strength"]
        pool = CheckPool(col, training, "strength", halve=halve)
        _, total, got = self._roll(eid, pool, 0, [*self.wound_mod(eid), *mods])
        self.ctx.randomizer.settle()
        return total, got["draw"]

    def _disable_round(self, attacker: int, defender: int, *, defender_try: bool) -> None:
        """One exchange of the disabling contest (seed "Disable"): Strength against Strength, the defender halved
        (on its own try: at −2 instead); the attacker's cumulative bonus; a raise disables the limb (a serious wound)
        or breaks the lock."""
        ms = self.melee_state(attacker)
        bonus = ms.grip_bonus
        a_total, a_draw = self._strength(attacker, [Modifier(bonus, "disable: +1 a try")] if bonus else [], False)
        d_mods = [Modifier(-2, "its own try at the lock: -2")] if defender_try else []
        d_total, d_draw = self._strength(defender, d_mods, not defender_try)
        out = ah.disable_round(a_total, d_total, bonus)
        self._event("grip", self.name(attacker), RULES, target=self.name(defender), grip="lock", what="disable",
                    effect="disable", result=a_total, other_result=d_total, winner=out.winner, raised=out.raise_,
                    disabled=out.disabled, broken=out.broken, bonus=out.bonus_after, draw=a_draw, other_draw=d_draw)
        self.w.get(attacker, MeleeState).grip_bonus = out.bonus_after
        if out.disabled:
            self.let_go(attacker, f"{self.name(defender)}'s limb disabled")
            self._apply_hits(defender, _Serious())
        elif out.broken:
            self.let_go(attacker, f"{self.name(defender)} broke the lock")

    # ------------------------------------------------------------------ breaking free of a grip
    def break_check(self, eid: int, action: BreakFree) -> list[Part]:
        if self.melee_state(eid).gripped_by is not None and self.melee_state(eid).entangled_by is None:
            if not self.active(eid):
                raise IllegalAction("R-8.1: out of action")
            if action.how not in ("strength", "wriggle"):
                raise IllegalAction(f"R-7.6: break free by strength or wriggle, not {action.how!r}")
            return self.check_parts(eid, READY)
        return super().break_check(eid, action)

    def break_free(self, eid: int, action: BreakFree) -> None:
        by = self.melee_state(eid).gripped_by
        if by is None or self.melee_state(eid).entangled_by is not None:
            super().break_free(eid, action)
            return
        turn = self.w.get(eid, Turn)
        turn.parts, turn.acted = self.break_check(eid, action), True
        holder = self.w.entity(by)
        hm = self.melee_state(holder)
        if hm.grip_effect == "disable" and action.how == "strength":
            self._disable_round(holder, eid, defender_try=True)
            return
        trait = "strength" if action.how == "strength" else "dexterity"
        col, training = self.w.get(eid, Profile).traits[trait]
        mine = CheckPool(col, training, trait)
        hcol, htr = self.w.get(holder, Profile).traits["strength"]
        success, ev = self._contest(eid, holder, mine, [*self.wound_mod(eid), *self.mind_mods(eid)],
                                    CheckPool(hcol, htr, "strength"), list(self.wound_mod(holder)))
        self._event("melee_contest", self.name(eid), ("R-7.7", "R-7.6", "R-3.8"), maneuver=f"break {hm.grip}",
                    target=by, weapon="fists", against=f"{by}'s strength", success=success, **ev)
        if success:
            self._escaped(eid, holder, False)

    # ------------------------------------------------------------------ what legality lists
    def arts_actions(self, eid: int, engaged: list[int]) -> list[Action]:
        """Also Escape at the holder, and break free of a grip."""
        out = super().arts_actions(eid, engaged)
        by = self.melee_state(eid).gripped_by
        x, y = self.w.cell(eid)
        for a in [a for a in out if isinstance(a, MeleeAttack) and a.maneuver == ah.ESCAPE and a.target == by]:
            out += [replace(a, to=(x + dx, y + dy)) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                    if (dx or dy) and self.ctx.grid.inside((x + dx, y + dy))]  # a raise's step (checked later)
        if by is not None and self.melee_state(eid).entangled_by is None:
            out += [BreakFree(self.name(eid), "strength"), BreakFree(self.name(eid), "wriggle")]
        return out


class _Serious:
    """A disabled limb (seed "Disable"): a serious wound with its wind, as the hits `_apply_hits` lands."""

    def __init__(self) -> None:
        from skirmish.rules.fi.ranged import HitResult

        self.hits = [HitResult(location="limb", box=0, level="full", damage=0, wounds=ah.DISABLE_WOUNDS,
                               ct=ah.DISABLE_WIND)]

