"""Future Imperfect systems: the round's frame: declaration, initiative, phase order, turns, facing and
bookkeeping (R-5.1–R-5.5)."""

from __future__ import annotations

import math
from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import (
    Cover,
    Declared,
    Facing,
    Health,
    Identity,
    Profile,
    Status,
    Tacpack,
    Turn,
)
from skirmish.ecs.systems.fi.base import _OCTANTS, FiBase
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, Declare
from skirmish.rules.equipment import Speed
from skirmish.rules.fi import initiative as ini
from skirmish.rules.fi.timing import (
    Part,
    TimingError,
    add_part,
    check_turn,
    declared_speed,
)


class FiRound(FiBase):
    """Declaration, initiative, turns and bookkeeping."""

    # ------------------------------------------------------------------ declaration and initiative
    @staticmethod
    def declare_check(action: Action) -> Declare:
        """The answer to a declaration request, if the rules take it (R-5.1); IllegalAction if not."""
        if not isinstance(action, Declare):
            raise IllegalAction("R-5.1: declare a speed first")
        if action.verb == "hand":
            raise IllegalAction("R-5.8: hands are kept only under the option `initiative: cards`; declare a speed")
        if action.speed not in ini.DECLARATIONS:
            raise IllegalAction(f"R-5.1: declare one of {', '.join(ini.DECLARATIONS)}, not {action.speed!r}")
        return action

    def declare(self, eid: int, answer: Action) -> None:
        """Set a unit's declaration for the round (R-5.1), once `declare_check` takes it."""
        action = self.declare_check(answer)
        dec = self.w.get(eid, Declared)
        st = self.w.peek(eid, Status)  # only read (a hand-out would have every side look at the unit again)
        speed = action.speed
        if st.waiting:
            speed = "fast"  # waiting into the next round declares FAST for readiness
        dec.speed = speed
        dec.phase_pref = action.phase
        self._event("declare", self.name(eid), ("R-5.1",), speed=speed,
                    carried_wait=bool(st.waiting))

    def initiative(self, eids: list[int]) -> None:
        """Turn the initiative card(s) and read every Reflex on it (R-5.1, R-5.2)."""
        r = self.ctx.randomizer
        shared = r.draw() if self.ctx.initiative_cards == "one" else None
        per_side: dict[int, Any] = {}
        for eid in eids:
            ident = self.w.get(eid, Identity)
            if self.ctx.initiative_cards == "per_side":
                if ident.side_index not in per_side:
                    per_side[ident.side_index] = r.draw()
                draw = per_side[ident.side_index]
            elif shared is not None:
                draw = shared
            else:
                draw = r.draw()
            dec = self.w.get(eid, Declared)
            col, training = self.w.get(eid, Profile).traits["reflexes"]
            speed = ini.timing_speed(dec.speed, dec.hesitated_last)
            mods = self.wound_mod(eid)
            mod_total = sum(m.value for m in mods)
            phase_tns = ini.INITIATIVE_BAR[speed]
            draw = self.chip_draw(eid, draw, target=phase_tns[-1], kind="initiative")  # a chip spent not to hesitate
            read = draw.check(col, training, phase_tns[0], mod_total, want_bumps=False)
            self.chip_flush()
            total = 0 if read.cf else read.result + mod_total
            options = ini.phase_options(total, read.cf, speed)
            dec.read, dec.cf = total, read.cf
            if options:
                pref = dec.phase_pref or options[0]
                later = [p for p in options if p >= pref]
                dec.phase = later[0] if later else options[-1]
                dec.hesitating = False
            else:
                dec.phase = None
                dec.hesitating = True
            self._event(
                "initiative", ident.name, ("R-5.1", "R-5.2") + (("R-3.5",) if read.cf else ()),
                declared=dec.speed, bar=speed.label, column=col, row=training, result=total, cf=read.cf,
                tns=list(phase_tns), options=options, phase=dec.phase, hesitate=dec.hesitating,
                modifiers=[m.to_json() for m in mods], **read.source,
            )
            r.settle()

    def phase_order(self, eids: list[int], phase: int) -> list[int]:
        """Who acts in a phase and in what order (R-5.1)."""
        chosen = [e for e in eids if self.w.peek(e, Declared).phase == phase]

        def key(e: int) -> tuple[int, ...]:
            col, tr = self.w.get(e, Profile).traits["reflexes"]
            return ini.order_key(col, tr, self.w.get(e, Identity).side_index, e)

        return sorted(chosen, key=key)

    # ------------------------------------------------------------------ turns
    def begin_turn(self, eid: int) -> bool:
        """Start a unit's turn; False if it cannot act (stunned loses this action, R-8.2)."""
        turn = self.w.peek(eid, Turn)
        if turn.parts or turn.moved_this_turn or turn.ran_this_turn or turn.acted:  # else it is as it would be set
            turn = self.w.get(eid, Turn)  # handed out only to change it (its view is made again)
            turn.parts = []
            turn.moved_this_turn = turn.ran_this_turn = False
            turn.acted = False
        # Health and Status are handed out only to change them (World.get: a hand-out has the unit read again).
        if self.w.peek(eid, Status).covering is not None:
            self.w.get(eid, Status).covering = None  # covering fire ends as its next turn begins, lost or not
        if self.w.peek(eid, Health).stunned:
            self.w.get(eid, Health).stunned = False
            self._event("stunned", self.name(eid), ("R-8.2",), text="loses this action to concussion")
            return False
        if not self.mind_turn(eid):  # distraught loses it; annoyed makes it the −4 action
            return False
        if self.w.peek(eid, Status).waiting:
            self.w.get(eid, Status).waiting = None  # its turn came: it acts now instead
        return True

    def _declared_speed(self, eid: int) -> Speed:
        return declared_speed(self.w.peek(eid, Declared).speed)

    def check_parts(self, eid: int, extra: Part) -> list[Part]:
        """The turn's parts with `extra` added, if the declared speed allows them (R-5.3–R-5.5, R-6.3)."""
        parts = add_part(self.w.peek(eid, Turn).parts, extra)  # a new list: nothing changed
        try:
            check_turn(self._declared_speed(eid), parts)
        except TimingError as exc:
            raise IllegalAction(str(exc)) from None
        return parts

    def fits(self, eid: int, part: Part) -> bool:
        """True if the turn's parts with `part` added fit the declared speed (R-5.3–R-5.5)."""
        try:
            self.check_parts(eid, part)
        except IllegalAction:
            return False
        return True

    def face_enemies(self) -> None:
        """At the start, each miniature faces the middle of the enemy force (to the nearest 45°)."""
        units = [(e, i, self.w.cell(e)) for e, i in self.w.units()]
        for eid, ident, (x, y) in units:
            foes = [c for _, i, c in units if i.side_index != ident.side_index]
            if not foes:
                continue
            dx = sum(c[0] for c in foes) / len(foes) - x
            dy = sum(c[1] for c in foes) / len(foes) - y
            if dx == 0 and dy == 0:
                continue
            octant = round(math.atan2(dy, dx) / (math.pi / 4)) % 8
            face = self.w.get(eid, Facing)
            face.dx, face.dy = _OCTANTS[octant]

    # ------------------------------------------------------------------ bookkeeping
    def refresh_cover(self) -> None:
        """Each combatant's best cover against enemies that can see it (for the AI and the board).

        What each enemy in action gives a combatant (its (level, AV) if it sees it) is kept per pair and looked
        up again only for combatants that moved, came or left since the last call, so a move costs a look per
        enemy of the mover rather than one per pair; the best is the same maximum over the same pairs."""
        units = [(e, i.side_index, self.w.cell(e)) for e, i in self.w.units() if self.active(e)]
        table = self.ctx.grid.sight_table  # geo.sight
        kept = self._cover_kept
        if self._cover_table is not table:
            kept.clear()
            self._cover_table = table
        now = {e: (side, here) for e, side, here in units}
        changed = [e for e, (side, here, _, _) in kept.items() if now.get(e) != (side, here)]
        changed += [e for e in now if e not in kept]
        if not changed:
            return  # every combatant's cover stands as the last call set it (nothing else writes Cover)
        for e in changed:
            kept.pop(e, None)
        for eid, side, here in units:
            row = kept.get(eid)
            if row is None:
                gives = {}
                for other, oside, there in units:
                    if oside != side:
                        s = table.sight(there, here)
                        if s.visible:
                            gives[other] = (geo.COVER_LEVEL[s.cover], s.cover_av)
                best = max([(0, 0), *gives.values()])
            else:
                gives, best, again = row[2], row[3], False
                for other in changed:
                    old = gives.pop(other, None)
                    o = now.get(other)
                    new = None
                    if o is not None and o[0] != side:
                        s = table.sight(o[1], here)
                        if s.visible:
                            new = gives[other] = (geo.COVER_LEVEL[s.cover], s.cover_av)
                            best = max(best, new)
                    again = again or (old is not None and old == best and (new is None or new < old))
                if again:  # the best pair left or fell: the maximum over what remains
                    best = max([(0, 0), *gives.values()])
                if best == row[3]:
                    continue  # its row stands (its pairs changed in place) and so does its Cover, set from it
            kept[eid] = (side, here, gives, best)
            level, av = geo.COVER_NAME[best[0]], best[1]
            cur = self.w.peek(eid, Cover)
            if (cur.level, cur.av) != (level, av):  # changed only where it changes (kept views stand elsewhere)
                cov = self.w.get(eid, Cover)
                cov.level, cov.av = level, av

    def end_round(self) -> None:
        """Bookkeeping: hesitation carries a speed-up, tacpacks reset, movement tallies clear (R-5.2, R-6.13)."""
        for eid, _ in self.w.units():
            dec = self.w.get(eid, Declared)
            dec.hesitated_last = dec.hesitating and not dec.cf
            dec.speed = None  # the next round's declaration is made afresh
            dec.phase = None
            dec.hesitating = False
            turn = self.w.peek(eid, Turn)
            if turn.moved_m != 0.0 or turn.rate_m != 0.0:  # handed out only to change (World.get)
                turn = self.w.get(eid, Turn)
                turn.moved_m = turn.rate_m = 0.0
            tp = self.w.peek(eid, Tacpack)
            if tp.shot_points != 0 or tp.screen_av != tp.screen_points:
                tp = self.w.get(eid, Tacpack)
                tp.shot_points = 0
                tp.screen_av = tp.screen_points
            if not self.active(eid) and self.w.peek(eid, Status).waiting is not None:
                self.w.get(eid, Status).waiting = None

