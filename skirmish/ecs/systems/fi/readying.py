"""Future Imperfect systems: aiming, reloading and the tacpack's split (R-6.2, R-6.12, R-6.13, R-4.8): the actions
that ready a firer rather than fire (split from shooting.py, behaviour unchanged)."""

from __future__ import annotations

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Declared, Readiness, Tacpack, Turn
from skirmish.ecs.systems.fi import two_weapons
from skirmish.ecs.systems.fi.shooting import FiShooting
from skirmish.rules.actions import Aim, SetTacpack
from skirmish.rules.equipment import SCREEN_TYPES, Speed
from skirmish.rules.fi.timing import Part


class FiReadying(FiShooting):
    """Aim, reload and the tacpack's settings."""

    # ------------------------------------------------------------------ aim, reload, tacpack
    def aim_check(self, eid: int, action: Aim) -> list[Part]:
        """Refuse an aim the rules do not allow now (R-6.2, R-5.4); the turn's parts with it."""
        if not self.w.has(action.target):
            raise IllegalAction(f"no unit called {action.target!r}")
        wpn = self.weapon(eid)
        if wpn is None:
            raise IllegalAction("no weapon")
        weapon, _ = wpn
        if weapon.thrown:
            raise IllegalAction(f"R-6.10: a {weapon.name} is thrown at a cell; there is no aiming")
        if self.w.get(eid, Declared).speed == "dodge":
            raise IllegalAction("R-5.4: a dodging combatant makes no attacks")
        tgt = self.enemy_named(eid, action.target)
        if not self.sight(eid, tgt).visible:
            raise IllegalAction(f"R-6.2: {action.target} is not in line of sight")
        return self.check_parts(eid, Part("aim", int(weapon.speed)))

    def aim(self, eid: int, action: Aim) -> None:
        """An action spent only aiming: readies the weapon on the target and adds +x (R-6.2)."""
        self.w.get(eid, Turn).parts = self.aim_check(eid, action)
        self.w.get(eid, Turn).acted = True
        rd = self.w.get(eid, Readiness)
        # an action spent only aiming readies the weapon on the target and adds +x (at most +2x)
        rd.aim = min(2, rd.aim + 1) if rd.target == action.target else 1
        rd.target = action.target
        self._event("aim", self.name(eid), ("R-6.2",), target=action.target, aim=rd.aim)

    def reload_check(self, eid: int) -> list[Part]:
        """Refuse a reloading action the rules do not allow now (R-6.12); the turn's parts with it. A two-gun unit's
        serves the off hand when only its weapon needs one (two_weapons.reload_hand)."""
        with two_weapons.hand(self, eid, two_weapons.reload_hand(self, eid)):
            return self._reload_check(eid)

    def _reload_check(self, eid: int) -> list[Part]:
        wpn = self.weapon(eid)
        if wpn is None:
            raise IllegalAction("no weapon")
        weapon, ws = wpn
        if weapon.thrown:
            raise IllegalAction(f"R-6.12: a {weapon.name} is not reloaded")
        if not ws.jammed and ws.rounds == weapon.magazine:
            raise IllegalAction("R-6.12: the magazine is full")
        if not ws.jammed and ws.magazines <= 0:
            raise IllegalAction("R-6.12: no spare magazines")
        return self.check_parts(eid, Part("reload", int(Speed.NORMAL)))

    def reload(self, eid: int) -> None:
        """One reloading action: clears a breakdown, or takes a magazine out / puts one in (R-6.12)."""
        self.w.get(eid, Turn).parts = self.reload_check(eid)
        which = two_weapons.reload_hand(self, eid)
        with two_weapons.hand(self, eid, which):
            self._reload(eid, {"hand": which} if which else {})

    def _reload(self, eid: int, hand: dict[str, str]) -> None:
        self.w.get(eid, Turn).acted = True
        weapon, ws = self.weapon(eid)  # type: ignore[misc]
        rd = self.w.get(eid, Readiness)
        rd.target, rd.aim = None, 0
        if ws.jammed:
            ws.jammed = False
            self._event("reload", self.name(eid), ("R-4.8",), cleared=True, rounds=ws.rounds, **hand)
            return
        ws.reload_stage += 1
        done = ws.reload_stage >= weapon.reload_actions
        if done:
            ws.reload_stage = 0
            ws.magazines -= 1
            ws.rounds = weapon.magazine
        self._event("reload", self.name(eid), ("R-6.12",), stage=ws.reload_stage if not done else
                    weapon.reload_actions, of=weapon.reload_actions, done=done, rounds=ws.rounds,
                    magazines=ws.magazines, **hand)

    def tacpack_check(self, eid: int, action: SetTacpack) -> list[Part]:
        """Refuse a generator split the rules do not allow now (R-6.13, R-5.3); the turn's parts with it."""
        tp = self.w.get(eid, Tacpack)
        if tp.generator == 0:
            raise IllegalAction("no tacpack")
        if action.screen != "none" and action.screen not in SCREEN_TYPES:
            raise IllegalAction(f"R-6.13: screen is one of {', '.join(SCREEN_TYPES)} or none")
        if action.screen == "none" and action.points != 0:
            raise IllegalAction(f"R-6.13: no screen takes no points (got {action.points})")
        points = action.points
        if points < 0 or points + tp.shot_points > tp.generator:
            raise IllegalAction(f"R-6.13: {points} screen point(s) + {tp.shot_points} spent on shots exceeds the "
                                f"generator's {tp.generator}")
        return self.check_parts(eid, Part("free"))

    def set_tacpack(self, eid: int, action: SetTacpack) -> None:
        """Split the generator (a free action): screen type and points (R-6.13)."""
        self.w.get(eid, Turn).parts = self.tacpack_check(eid, action)
        tp = self.w.get(eid, Tacpack)
        points = action.points if action.screen != "none" else 0
        tp.screen_type, tp.screen_points, tp.screen_av = action.screen, points, points
        self._event("tacpack", self.name(eid), ("R-6.13",), screen=action.screen, points=points,
                    generator=tp.generator)
