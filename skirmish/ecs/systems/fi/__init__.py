"""Future Imperfect systems: spawning, initiative, actions and bookkeeping on one battle's world.

Each method checks, then applies (STYLE 4): a broken rule raises IllegalAction naming it; nothing is
written before the checks pass. Every resolution emits an event with rule ids and modifiers (R-10.2). The
systems are one class built in layers, one module each: base (context, spawn, helpers) < round
(declaration, initiative, turns, bookkeeping) < shooting (with aim, reload, tacpack) < thrown < movement
(with waits and triggers) < FiSystems (check and apply an action of a turn)."""

from __future__ import annotations

from skirmish.core.errors import IllegalAction
from skirmish.ecs.systems.fi.base import Ctx, spawn_unit
from skirmish.ecs.systems.fi.movement import FiMovement
from skirmish.rules.actions import Action, Aim, Declare, EndTurn, Move, Reload, SetTacpack, Shoot, Throw, Wait
from skirmish.rules.fi.timing import Part

__all__ = ["Ctx", "FiSystems", "IllegalAction", "spawn_unit"]


class FiSystems(FiMovement):
    """The rules applied to the world for the `fi` ruleset."""

    def check(self, eid: int, action: Action) -> None:
        """Raise IllegalAction if the rules refuse this action of a turn now; change nothing. The same checks
        gate `apply`, so what this accepts is what `apply` does (STYLE 13)."""
        if isinstance(action, EndTurn):
            return
        if isinstance(action, Declare):
            raise IllegalAction("R-5.1: speeds are declared at the start of the round, not in a turn")
        if isinstance(action, Move):
            _, _, running = self.plan_move(eid, action.to)
            self.check_parts(eid, Part("move", running=running))
        elif isinstance(action, Shoot):
            self.shot_setup(eid, action)
        elif isinstance(action, Throw):
            self.throw_setup(eid, action)
        elif isinstance(action, Aim):
            self.aim_check(eid, action)
        elif isinstance(action, Reload):
            self.reload_check(eid)
        elif isinstance(action, SetTacpack):
            self.tacpack_check(eid, action)
        elif isinstance(action, Wait):
            self.wait_check(eid, action)
        else:
            raise IllegalAction(f"{action.verb} is not an action in a turn")

    def apply(self, eid: int, action: Action) -> bool:
        """Check and apply one action of a turn; True when the turn is over."""
        if isinstance(action, EndTurn):
            self._event("end_turn", self.name(eid), ("R-5.3",))
            return True
        if isinstance(action, Move):
            self.move(eid, action)
        elif isinstance(action, Shoot):
            self.shoot(eid, action)
        elif isinstance(action, Throw):
            self.throw(eid, action)
        elif isinstance(action, Aim):
            self.aim(eid, action)
        elif isinstance(action, Reload):
            self.reload(eid)
        elif isinstance(action, SetTacpack):
            self.set_tacpack(eid, action)
        elif isinstance(action, Wait):
            self.wait(eid, action)
            return True
        else:
            self.check(eid, action)  # a declaration or anything else that is not an action in a turn: refused
        return not self.active(eid)

