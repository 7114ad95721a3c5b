"""Future Imperfect systems: the melee actions a unit may take now (legality as a question, STYLE 13), each put to
the check that gates it, and the dispatch of a melee action's check and application for FiSystems."""

from __future__ import annotations

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Health, Identity
from skirmish.ecs.systems.fi.holds import FiHolds
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action
from skirmish.rules.fi import melee as ml
from skirmish.rules.fi.melee_actions import BreakFree, Charge, Close, Defend, Entangle, MeleeAttack, Open, Rise, Trip


class FiMelee(FiHolds):
    """The melee actions legality lists, and their check and application."""

    # ------------------------------------------------------------------ what a unit may do in melee now
    def melee_actions(self, eid: int, reach: frozenset[geo.Cell] = frozenset()) -> tuple[Action, ...]:
        """Every melee action the unit may take now (each put to the check that gates it): blows with each weapon
        it can fight with (both choices of a weapon that chooses lethality), Close, Open, entangle, trip and
        active defence at the enemies within 1 m, charges to the cells of `reach` (where a move may end: the
        turn's walk and run cells) next to an enemy, breaking free, rising. Ranged charges are accepted but not
        listed (docs/RULES-NOTES.md)."""
        me = self.name(eid)
        if self.w.peek(eid, Health).out_of_action:
            return ()
        ms = self.melee_state(eid)
        weapons = list(dict.fromkeys([ms.held, *ms.carried, "fists"]))
        cands: list[Action] = []
        engaged = self.engaged_with(eid)
        for e in engaged:
            them = self.name(e)
            for wid in weapons:
                w = self.melee_weapon(eid, wid)
                pick = "" if wid == ms.held else wid
                for lethal in (("yes", "no") if w.lethal == "choose" else ("",)):
                    cands.append(MeleeAttack(me, them, weapon=pick, lethal=lethal))
                cands += [Close(me, them, weapon=pick), Entangle(me, them, weapon=pick), Trip(me, them, weapon=pick)]
            cands.append(Open(me, them))
        cands += self.arts_actions(eid, engaged)  # a practitioner's maneuvers and Block
        if engaged:
            for skill in ml.DEFENCE_SKILLS:
                cands.append(Defend(me, skill))
                cands += [Defend(me, skill, to=c) for c in self._steps(eid)]
        if ms.entangled_by is not None:
            cands += [BreakFree(me, "strength"), BreakFree(me, "wriggle")]
        if ms.down:
            cands.append(Rise(me))
        out = [a for a in dict.fromkeys(cands) if self.melee_refusal(eid, a) is None]
        return (*out, *self._charges(eid, me, weapons, reach))

    def _steps(self, eid: int) -> list[geo.Cell]:
        """The cells an active defence may step to (R-7.5): neighbours where one may stand and that the side knows
        free (fog: an unseen enemy's cell is listed, and the step into it stops as a bump, `walk_path`)."""
        x, y = self.w.cell(eid)
        grid, taken = self.ctx.grid, self.known_occupied(eid)
        return [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx or dy)
                and grid.inside((x + dx, y + dy)) and grid.passable((x + dx, y + dy)) and (x + dx, y + dy) not in taken]

    def _charges(self, eid: int, me: str, weapons: list[str], reach: frozenset[geo.Cell]) -> list[Action]:
        """Melee charges: to every cell of `reach` next to an enemy in action, with each weapon that may. The checks
        of a charge other than its route do not depend on the cell (a charge is whole, `charge_check`): they are
        asked on one cell per enemy and weapon, the route is the reach's."""
        if not reach:
            return []
        side = self.w.peek(eid, Identity).side_index
        held = self.melee_state(eid).held
        out: list[Action] = []
        for e, ident in self.w.units():
            if ident.side_index == side or self.w.peek(e, Health).out_of_action:
                continue
            x, y = self.w.cell(e)
            cells = [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (x + dx, y + dy) in reach
                     and ml.in_contact(self.ctx.grid, (x + dx, y + dy), (x, y))]  # not across a closed corner
            if not cells:
                continue
            for wid in weapons:
                pick = "" if wid == held else wid
                if self.melee_refusal(eid, Charge(me, ident.name, at=cells[0], weapon=pick)) is None:
                    out += [Charge(me, ident.name, at=c, weapon=pick) for c in sorted(cells, key=lambda c: (c[1], c[0]))]
        return out

    def melee_refusal(self, eid: int, action: Action) -> IllegalAction | None:
        """Why the rules refuse a melee action now (None: they accept it); nothing changes."""
        try:
            self.melee_gate(eid, action)
        except IllegalAction as exc:
            return exc
        return None

    def melee_gate(self, eid: int, action: Action) -> bool:
        """Check a melee action (IllegalAction if refused); False if `action` is not a melee action."""
        if isinstance(action, MeleeAttack):
            self.melee_check(eid, action)
        elif isinstance(action, Charge):
            self.charge_check(eid, action)
        elif isinstance(action, Close):
            self.close_check(eid, action)
        elif isinstance(action, Open):
            self.open_check(eid, action)
        elif isinstance(action, Entangle | Trip):
            self.grapple_check(eid, action)
        elif isinstance(action, BreakFree):
            self.break_check(eid, action)
        elif isinstance(action, Rise):
            self.rise_check(eid)
        elif isinstance(action, Defend):
            self.defend_check(eid, action)
        else:
            return False
        return True

    def melee_apply(self, eid: int, action: Action) -> bool | None:
        """Apply a melee action; True when the turn is over, None if `action` is not a melee action."""
        if isinstance(action, MeleeAttack):
            self.melee(eid, action)
        elif isinstance(action, Charge):
            self.charge(eid, action)
            return True  # a charge combines with nothing
        elif isinstance(action, Close | Open):
            self.maneuver(eid, action)
        elif isinstance(action, Entangle | Trip):
            self.grapple(eid, action)
        elif isinstance(action, BreakFree):
            self.break_free(eid, action)
        elif isinstance(action, Rise):
            self.rise(eid)
        elif isinstance(action, Defend):
            self.defend(eid, action)
            return True  # the whole action
        else:
            return None
        return not self.active(eid)
