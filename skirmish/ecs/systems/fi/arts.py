"""Future Imperfect systems: advanced martial arts in melee (R-7.7, option `martial_arts`). A practitioner's blow
may name a maneuver (`melee Kayla Pirate maneuver=strike_medium effects=damage`): the maneuver's pool replaces the
Fighting level on the roll, its range is checked, and its effects apply (+1 Damage to the hit, +1 Defense until
its next action, the target falls). Takedown and Disarm are checks at the blow's TN; Block is an active defence
(`defend Kayla block`, R-7.5) on the Block pool that also halves (with a weapon: cancels) the blows that land.
Escape's dice add to the practitioner's level for the TN of grapple attacks against it (Takedown, Throw).

The pure part is skirmish.rules.fi.arts (pools, `use_maneuver`) and skirmish.rules.fi.arts_use; the hooks this
layer answers are FiMeleeBase's `blow_pool`, `blow_tn`, `blow_called`, `shape_blow` and `after_blow`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from skirmish.content.fi import shipped_arts
from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Profile, Status, Turn
from skirmish.ecs.fi_melee_components import MeleeState
from skirmish.ecs.systems.fi.grapple import FiGrapple, _sum
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action
from skirmish.rules.checks import Modifier
from skirmish.rules.checks import Pool as CheckPool
from skirmish.rules.deck import Card
from skirmish.rules.equipment import MeleeWeapon
from skirmish.rules.fi import arts as ar
from skirmish.rules.fi import arts_use as au
from skirmish.rules.fi import melee as ml
from skirmish.rules.fi.melee_actions import Charge, Defend, MeleeAttack
from skirmish.rules.fi.melee_odds import ManeuverOdds, check_odds
from skirmish.rules.fi.ranged import ShotOutcome
from skirmish.rules.fi.timing import Part

BLOCK = "block"


class FiArts(FiGrapple):
    """Martial arts maneuvers bound to the melee engine (R-7.7)."""

    # ------------------------------------------------------------------ the practitioner
    def arts_of(self, eid: int) -> tuple[ar.Discipline, int, dict[str, ar.Pool]] | None:
        """The unit's discipline, level and maneuver pools when option `martial_arts` is on (its first discipline
        with choices), else None."""
        found = self.ctx.arts.get(self.name(eid))
        return next(iter(found.values())) if found else None

    def maneuver_use(self, eid: int, action: MeleeAttack) -> tuple[ar.ManeuverUse, ar.Maneuver]:
        """The maneuver an attack names, checked (IllegalAction naming R-7.7): a practitioner's, bound, with one of
        its effect sets, at its range. Only reads."""
        tables, me = shipped_arts(), self.name(eid)
        m = tables.maneuvers.get(action.maneuver)
        if m is None:
            raise IllegalAction(f"R-7.7: unknown maneuver {action.maneuver!r}; maneuvers are {', '.join(tables.maneuvers)}")
        got = self.arts_of(eid)
        if got is None:
            raise IllegalAction(f"R-7.7: {me} has no martial arts maneuvers (option martial_arts, and a "
                                f"'Martial Arts:' skill with its choices)")
        why = au.unbound(m)
        if why:
            raise IllegalAction(why)
        try:
            use = ar.use_maneuver(tables, got[2], m.id, au.parse_effects(action.effects))
        except ValueError as exc:
            text = str(exc)
            raise IllegalAction(text if text.startswith("R-7.7") else f"R-7.7: {me}: {text}") from None
        tgt = self.w.entity(action.target)
        weapon = self.melee_weapon(eid, action.weapon)
        mine = self.melee_state(eid)
        closed_in = action.target in mine.inside
        gripped = action.target in (mine.gripping, mine.gripped_by)  # a grip is grappling (R-7.7, holds.py)
        # seed, Hold: also when "the defender has a defense of 0 with his current stance"
        open_stance = m.id == "hold" and self.fighter(tgt).weapon.defense <= 0
        why = au.range_refusal(m, closed_in=closed_in, weapon_defense=weapon.defense, weapon_name=weapon.name,
                               grappling=closed_in or gripped or open_stance or self.melee_state(tgt).down)
        if why:
            raise IllegalAction(why)
        return use, m

    def arts_pool(self, eid: int, use: ar.ManeuverUse, name: str) -> CheckPool:
        """The maneuver's pool as a check: its dice as the row on Dexterity (R-7.7 replaces the Fighting level)."""
        col, _ = self.w.get(eid, Profile).traits["dexterity"]
        return CheckPool(col, use.dice, f"martial arts: {name}")

    # ------------------------------------------------------------------ hooks of a blow
    def fighter(self, eid: int, weapon: MeleeWeapon | None = None) -> ml.Fighter:
        """A fighter whose +1 Defense from a maneuver stands adds to its weapon's Defense (R-7.7)."""
        f = super().fighter(eid, weapon)
        guard = self.melee_state(eid).guard
        return replace(f, weapon=replace(f.weapon, defense=f.weapon.defense + guard)) if guard else f

    def begin_turn(self, eid: int) -> bool:
        """+1 Defense and a Block last until the unit's next action (R-7.7)."""
        ms = self.melee_state(eid)
        if ms.guard or ms.block:
            live = self.w.get(eid, MeleeState)
            live.guard, live.block = 0, None
        return super().begin_turn(eid)

    def blow_called(self, action: MeleeAttack | Charge) -> str | None:
        if isinstance(action, MeleeAttack) and action.maneuver and not action.called:
            m = shipped_arts().maneuvers.get(action.maneuver)
            if m is not None and m.location:
                return au.LOCATION_CALLED.get(m.location, m.location)
        return super().blow_called(action)

    def blow_pool(self, eid: int, action: MeleeAttack | Charge, weapon: MeleeWeapon) -> CheckPool:
        if isinstance(action, MeleeAttack) and action.maneuver:
            use, m = self.maneuver_use(eid, action)
            return self.arts_pool(eid, use, m.name)
        return super().blow_pool(eid, action, weapon)

    def blow_tn(self, eid: int, tgt: int, weapon: MeleeWeapon, action: MeleeAttack | Charge) -> tuple[int, list[Modifier]]:
        """The blow's TN; against a practitioner, a grapple attack (Takedown, Throw) reads its Martial Arts level +
        Escape dice instead of its Fighting level when that is more (R-7.7)."""
        tn_value, mods = super().blow_tn(eid, tgt, weapon, action)
        if isinstance(action, MeleeAttack) and action.maneuver in ar.GRAPPLE_ATTACKS:
            got = self.arts_of(tgt)
            if got is not None:
                level = ar.grapple_defense(got[1], got[2])
                fighting = ml.fighting_level(self.fighter(tgt))[0]
                if level > fighting:
                    tn_value += level - fighting
                    mods.append(Modifier(level - fighting, f"{self.name(tgt)}'s {got[0].name} {got[1]} + Escape "
                                         f"{got[2]['escape'].dice if 'escape' in got[2] else 0} against a grapple "
                                         f"attack, not Fighting {fighting} (R-7.7)"))
        return tn_value, mods

    def shape_blow(self, eid: int, tgt: int, action: MeleeAttack | Charge, out: ShotOutcome,
                   lethal: bool) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        size = self.w.get(tgt, Profile).size
        if isinstance(action, MeleeAttack) and action.maneuver:
            use, _ = self.maneuver_use(eid, action)
            fields.update(maneuver=use.maneuver, effects=list(use.effects))
            if use.damage_bonus and out.hit:
                fields["damage_bonus"] = au.add_damage(out.hits, use.damage_bonus, size, not lethal) or None
        block = self.melee_state(tgt).block
        if block and out.hit and any(h.damage for h in out.hits):
            au.block_hits(out.hits, block, size, not lethal)
            fields["blocked"] = block
        return {k: v for k, v in fields.items() if v is not None}

    def after_blow(self, eid: int, tgt: int, action: MeleeAttack | Charge, out: ShotOutcome) -> None:
        if not (isinstance(action, MeleeAttack) and action.maneuver):
            return
        use, m = self.maneuver_use_after(eid, action)
        if use.defense_bonus and self.active(eid):
            self.w.get(eid, MeleeState).guard = use.defense_bonus
        if use.target_falls and out.hit and self.active(tgt):
            self.fall(tgt, m.id, eid)

    def maneuver_use_after(self, eid: int, action: MeleeAttack) -> tuple[ar.ManeuverUse, ar.Maneuver]:
        """The maneuver used, once made (its range may no longer hold: the target fell): no checks but its pool."""
        got = self.arts_of(eid)
        tables = shipped_arts()
        assert got is not None
        return ar.use_maneuver(tables, got[2], action.maneuver, au.parse_effects(action.effects)), \
            tables.maneuvers[action.maneuver]

    def fall(self, tgt: int, cause: str, by: int) -> None:
        """Target falls (R-7.7): prone and down until it rises; the Vigor test against TN 5 for its wind."""
        col, training = self.w.get(tgt, Profile).traits["vigor"]
        pool = CheckPool(col, training, "vigor")
        mod = sum(m.value for m in self.wound_mod(tgt))
        draw = self.chip_draw(tgt, self.ctx.randomizer.draw())  # a chip may soften the fall
        read = draw.check(pool.column, pool.row, au.FALL_TN, mod)
        self.chip_flush()
        total = 0 if read.cf else read.result + mod
        wind = au.fall_wind(read.cf, total, draw.effect(au.D6_COLUMN, 1) if read.cf else 0)
        ms = self.w.get(tgt, MeleeState)
        ms.down = True
        self.w.get(tgt, Status).prone = True
        self._event("fall", self.name(tgt), ("R-7.7",), cause=cause, by=self.name(by), column=col, row=training,
                    tn=au.FALL_TN, read=read.result, cf=read.cf, result=total, wind=wind, **draw.record())
        self.ctx.randomizer.settle()
        if wind:
            self._apply_hits(tgt, _Wind(wind))

    # ------------------------------------------------------------------ Takedown and Disarm: checks, no damage
    def melee_check(self, eid: int, action: MeleeAttack) -> list[Part]:
        if action.maneuver in au.CHECKS:
            return self.arts_check_numbers(eid, action)[0]
        return super().melee_check(eid, action)

    def arts_check_numbers(self, eid: int, action: MeleeAttack) -> tuple[list[Part], int, int, list[Modifier],
                                                                           CheckPool, list[Modifier]]:
        """Takedown or Disarm checked: the turn's parts, the target, TN and reasons, pool and result modifiers."""
        tgt = self.foe(eid, action.target)
        use, m = self.maneuver_use(eid, action)
        weapon = self.melee_weapon(eid, action.weapon)
        if m.id == "disarm" and self.melee_state(tgt).held == "fists":
            raise IllegalAction(f"R-7.7: {action.target} holds no melee weapon to lose")
        if m.id == "takedown" and self.melee_state(tgt).down:
            raise IllegalAction(f"R-7.7: {action.target} is already on the ground")
        tn_value, tn_mods = self.blow_tn(eid, tgt, weapon, action)
        extra = [*self.wound_mod(eid), *ml.result_modifiers(self.fighter(eid, weapon), self.fighter(tgt))]
        return self.melee_parts(eid, weapon, m.id), tgt, tn_value, tn_mods, self.arts_pool(eid, use, m.name), extra

    def melee(self, eid: int, action: MeleeAttack) -> None:
        if action.maneuver not in au.CHECKS:
            super().melee(eid, action)
            return
        parts, tgt, tn_value, tn_mods, pool, extra = self.arts_check_numbers(eid, action)
        turn = self.w.get(eid, Turn)
        turn.parts, turn.acted = parts, True
        weapon = self.melee_weapon(eid, action.weapon)
        read, total, got = self._roll(eid, pool, tn_value, extra)
        success = not read.cf and total >= tn_value
        raised = au.raises(total, tn_value) if success and action.maneuver == "disarm" else 0
        self._event("maneuver", self.name(eid), ("R-7.7", "R-7.1") + (("R-3.5",) if read.cf else ()),
                    maneuver=action.maneuver, target=action.target, weapon=weapon.id, tn=tn_value,
                    tn_modifiers=[m.to_json() for m in tn_mods], column=pool.column, row=pool.row, halved=False,
                    read=read.result, cf=read.cf, result=total, success=success,
                    modifiers=[m.to_json() for m in got["mods"]], **got["draw"], raises=raised or None)
        self.ctx.randomizer.settle()
        if not success:
            return
        if action.maneuver == "disarm":  # the opponent loses hold of the item (seed): dropped, or taken on raises
            self._disarmed(eid, tgt, raised)
        else:  # Takedown: the target falls; both are prone after it (seed)
            self.fall(tgt, action.maneuver, eid)
            if self.active(eid):
                self.w.get(eid, MeleeState).down = True
                self.w.get(eid, Status).prone = True

    def _disarmed(self, eid: int, tgt: int, raised: int) -> None:
        """The target loses hold of the item in its hand (seed "Disarm"); with a raise the practitioner tries an
        opposed Strength roll (R-3.8) to take it, with two raises takes it: the item joins its carried weapons (its
        hand keeps what it held)."""
        ms = self.w.get(tgt, MeleeState)
        item = ms.held
        ms.carried.remove(item)
        ms.held = ms.carried[0] if ms.carried else "fists"
        taken = raised >= au.DISARM_TAKES
        if raised == 1 and self.active(tgt):
            mine = self.w.get(eid, Profile).traits["strength"]
            theirs = self.w.get(tgt, Profile).traits["strength"]
            taken, ev = self._contest(eid, tgt, CheckPool(mine[0], mine[1], "strength"), list(self.wound_mod(eid)),
                                      CheckPool(theirs[0], theirs[1], "strength"), list(self.wound_mod(tgt)))
            self._event("melee_contest", self.name(eid), ("R-7.7", "R-3.8"), maneuver="take",
                        target=self.name(tgt), weapon=item, against=f"{self.name(tgt)}'s strength", success=taken,
                        **ev)
        if taken:
            self.w.get(eid, MeleeState).carried.append(item)

    # ------------------------------------------------------------------ Block: an active defence
    def defend_check(self, eid: int, action: Defend) -> tuple[CheckPool, list[geo.Cell] | None, float]:
        if action.skill != BLOCK:
            return super().defend_check(eid, action)
        got = self.arts_of(eid)
        if got is None or "block" not in got[2] or got[2]["block"].dice <= 0:
            raise IllegalAction(f"R-7.7: {self.name(eid)} has no Block maneuver (option martial_arts and its "
                                f"martial arts choices)")
        _, path, metres = super().defend_check(eid, replace(action, skill="fighting"))
        col, _ = self.w.get(eid, Profile).traits["dexterity"]
        return CheckPool(col, got[2]["block"].dice, "martial arts: Block"), path, metres

    def defend_more(self, eid: int, action: Defend) -> dict[str, str]:
        """A Block: the blows that land are halved, or cancelled when blocking with a weapon (seed "Block")."""
        if action.skill != BLOCK:
            return {}
        mode = "cancel" if self.melee_weapon(eid).defense >= 1 else "halve"
        self.w.get(eid, MeleeState).block = mode
        return {"block": mode}

    # ------------------------------------------------------------------ what legality lists, and the odds
    def arts_actions(self, eid: int, engaged: list[int]) -> list[Action]:
        """A practitioner's maneuvers at each enemy within 1 m with every effect set, and Block (unchecked)."""
        got = self.arts_of(eid)
        if got is None or not engaged:
            return []
        me, out = self.name(eid), list[Action]()
        for e in engaged:
            for mid, pool in got[2].items():
                if mid in au.BOUND and pool.dice > 0:
                    for effects in ar.effect_sets(pool):
                        out.append(MeleeAttack(me, self.name(e), maneuver=mid, effects=",".join(effects)))
        if "block" in got[2]:
            out.append(Defend(me, BLOCK))
        return out

    def maneuver_odds(self, eid: int, action: Action, cards: list[Card] | None, seed: int) -> ManeuverOdds | None:
        if isinstance(action, MeleeAttack) and action.maneuver in au.CHECKS:
            _, _, tn_value, _, pool, extra = self.arts_check_numbers(eid, action)
            return check_odds(pool, tn_value, _sum(pool.modifiers, extra), cards=cards, seed=seed)
        return super().maneuver_odds(eid, action, cards, seed)


class _Wind:
    """A fall's wind as the hits `_apply_hits` lands (CT only, no wound)."""

    def __init__(self, wind: int) -> None:
        from skirmish.rules.fi.ranged import HitResult

        self.hits = [HitResult(location="back", box=0, level="full", damage=wind, ct=wind)]
