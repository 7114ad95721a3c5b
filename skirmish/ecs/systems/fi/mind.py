"""Future Imperfect systems: injury and the mind (R-8.3 surprise, R-8.4 psychological contests, fear and terror
of `000_…`). The pure numbers are skirmish/rules/fi/mind.py; the state is the `Mind` component
(skirmish/ecs/fi_mind.py). This layer sits over movement: the round table's `mind` row (surprise and fear
when a round begins), who takes part in a round, the contest action, and the hooks the lower layers ask
(`mind_mods`, `mind_tn_mods`, `mind_turn`). Choices: docs/RULES-NOTES.md "Future Imperfect: injury and the mind"."""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.core.legal import LegalActions
from skirmish.ecs.components import Declared, Identity, Profile, Readiness, Status, Turn
from skirmish.ecs.fi_mind import Mind
from skirmish.ecs.systems.fi.movement import FiMovement
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, EndTurn, Move
from skirmish.rules.checks import Modifier, settle, tn
from skirmish.rules.equipment import Speed
from skirmish.rules.fi import mind as mr
from skirmish.rules.fi.timing import Part
from skirmish.rules.randomizer import CardDraw

_CONTEST_RULES = ("R-8.4", "R-5.4")


class FiMind(FiMovement):
    """Surprise, contests, fear and terror on one battle's world."""

    contests = "opposed"  # options (set by `init_minds` from the scenario): opposed | simple
    contest_speed = int(Speed.NORMAL)
    contest_range_m = 20.0
    round_minds = False  # some unit is surprised or fearsome: the `mind` row has work (else it never has)

    # ------------------------------------------------------------------ set-up
    def init_minds(self, spec: Any) -> None:
        """Each unit's Mind from the scenario: fearsome (its TN, default Challenging) and surprised (the side's,
        unless the unit says otherwise), and the contest options."""
        opts = spec.options
        self.contests = opts.contests
        self.contest_speed = int(Speed.parse(opts.contest_speed))
        self.contest_range_m = float(opts.contest_range_m)
        for side in spec.sides:
            for unit in side.units:
                eid = self.w.entity(unit.name)
                fear = unit.fearsome
                surprise = side.surprised if unit.surprised is None else unit.surprised
                if fear is None and surprise is None:
                    continue
                m = self.w.get(eid, Mind)
                self.round_minds = True
                if fear is not None:
                    m.fearsome = fear.kind
                    m.fear_tn = fear.tn if fear.tn is not None else tn("challenging", self.ctx.scope)  # type: ignore[arg-type]
                if surprise is not None:
                    m.expecting = surprise.expecting
                    m.surprise = "expecting" if surprise.expecting else "unexpecting"

    # ------------------------------------------------------------------ the hooks lower layers ask
    def mind_mods(self, eid: int) -> tuple[Modifier, ...]:
        """Annoyed: −4 to its next action and to resisting before it (R-8.4)."""
        m = self.w.peek(eid, Mind)
        return (Modifier(mr.ANNOYED, "annoyed (R-8.4)"),) if m.annoyed or m.annoyed_now else ()

    def mind_tn_mods(self, target: int) -> tuple[Modifier, ...]:
        """Focused on an auxiliary action: attackers' TN −2 until its next turn (R-5.4)."""
        if self.w.peek(target, Mind).focused:
            return (Modifier(mr.FOCUSED_TN, f"{self.name(target)} is focused on an auxiliary action (R-5.4)"),)
        return ()

    def mind_turn(self, eid: int) -> bool:
        """Its turn begins: focus ends; distraught loses the turn; annoyed makes it the −4 action (R-8.4);
        terrified runs (000 "Terrified")."""
        m = self.w.peek(eid, Mind)
        if not (m.focused or m.distraught or m.annoyed or m.annoyed_now or m.terrified):
            return True
        m = self.w.get(eid, Mind)
        m.focused = False
        m.annoyed_now = False  # the annoyed action was the last one (card hands: its card, R-5.8)
        if m.distraught:
            m.distraught = False
            self._event("mind", self.name(eid), ("R-8.4",), state="distraught", text="loses this action")
            return False
        if m.annoyed:
            m.annoyed, m.annoyed_now = False, True
            self._event("mind", self.name(eid), ("R-8.4",), state="annoyed", text="-4 to this action")
        if m.terrified:
            self._event("mind", self.name(eid), ("R-8.4",), state="terrified",
                        text=f"may only move away from {m.terrified}", source=m.terrified)
        return True

    def takes_part(self, eid: int) -> bool:
        """False for a unit that sits this round out (surprised, catatonic): no declaration, no initiative."""
        return self.w.peek(eid, Mind).sitting_out is None

    def end_round(self) -> None:
        """Bookkeeping: the annoyed action is over with the round it was taken in."""
        super().end_round()
        for eid, _ in self.w.units():
            if self.w.peek(eid, Mind).annoyed_now:
                self.w.get(eid, Mind).annoyed_now = False

    def mind_state(self) -> dict[str, Any]:
        """The minds for `hash_state`, when any is set ({} otherwise, so such a battle hashes as before)."""
        minds = [(i.name, self.w.peek(e, Mind)) for e, i in self.w.units()]
        if all(m.is_default() for _, m in minds):
            return {}
        return {"mind": [[name, asdict(m)] for name, m in minds]}

    # ------------------------------------------------------------------ when a round begins (the table's `mind` row)
    def mind_round_start(self) -> None:
        """Last round's terror and sitting out end; a catatonic unit becomes terrified; surprised units check
        their Bravery (R-8.3); units that see a fearsome enemy for the first time test fear or terror. (Surprise
        and fear come only from the scenario, and terror only from fear: a battle with neither has nothing here.)"""
        if not self.round_minds:
            return
        for eid, _ in self.w.units():
            m = self.w.peek(eid, Mind)
            if m.terrified or m.terrified_next or m.sitting_out:
                m = self.w.get(eid, Mind)
                m.terrified, m.sitting_out = m.terrified_next, None
                m.terrified_next = None
                if m.terrified:
                    self._event("mind", self.name(eid), ("R-8.4",), state="terrified",
                                text=f"breaks and runs from {m.terrified} this round", source=m.terrified)
        for eid, _ in self.w.units():
            if self.active(eid) and self.w.peek(eid, Mind).surprise:
                self.surprise_check(eid)
        for eid, _ in self.w.units():
            if self.active(eid):
                self._fear_on_sight(eid)

    def _bravery(self, eid: int, target: int, extra: tuple[Modifier, ...] = (),
                 banned: str | None = None) -> tuple[Any, Any, Any]:
        """A Bravery check (R-2.2: Vigor; unskilled halved, R-3.6): (pool, read, result); the draw is settled. A story
        chip may turn it (R-8.5) unless `banned` says why not (a terror test, R-8.4)."""
        pool = self.skill_pool(eid, "bravery", mr.SKILL_TRAIT["bravery"])
        mods = (*self.wound_mod(eid), *extra)
        raw = self.ctx.randomizer.draw()
        step_zero = isinstance(raw, CardDraw) and raw.card.step == 0
        draw = self.chip_draw(eid, raw, pool.halve, banned=banned, kind="bravery")
        read = draw.check(pool.column, pool.row, target, sum(m.value for m in (*pool.modifiers, *mods)))
        self.chip_flush()
        res = settle(read.result, read.cf, pool, target, mods)
        self.ctx.randomizer.settle()
        return pool, read, (res, step_zero)

    def surprise_check(self, eid: int) -> None:
        """R-8.3: Bravery vs Standard (expecting danger) or Incredible (not); failure: no action this round, and
        the next round's check is Easy. Passed: it acts normally from now on."""
        m = self.w.get(eid, Mind)
        difficulty = mr.SURPRISE_DIFFICULTY[m.surprise or "after"]
        target = tn(difficulty, self.ctx.scope)  # type: ignore[arg-type]
        pool, read, (res, _) = self._bravery(eid, target)
        m.surprise = None if res.success else "after"
        m.sitting_out = None if res.success else "surprised"
        self._event("surprise", self.name(eid), ("R-8.3", "R-2.2") + (("R-3.6",) if pool.halve else ()),
                    difficulty=difficulty, expecting=m.expecting, column=pool.column, row=pool.row,
                    halved=pool.halve, tn=target, result=res.total, cf=res.cf, success=res.success,
                    modifiers=[x.to_json() for x in res.modifiers], **read.source)

    def _fear_on_sight(self, eid: int) -> None:
        """The first time a unit sees an enemy that causes fear or terror, it tests (000 "Fear and Terror"): the
        worst kind it sees that it has not tested, at the highest TN among those; a terror test counts as the
        fear test too. A unit that causes fear tests none."""
        m = self.w.peek(eid, Mind)
        if m.fearsome:
            return
        side = self.w.peek(eid, Identity).side_index
        seen: dict[str, tuple[int, int]] = {}  # kind -> (TN, source) of the worst source seen
        for other, ident in self.w.units():
            om = self.w.peek(other, Mind)
            if (om.fearsome is None or om.fearsome in m.tested or ident.side_index == side
                    or not self.active(other) or not self.sight(eid, other).visible):
                continue
            if om.fearsome not in seen or om.fear_tn > seen[om.fearsome][0]:
                seen[om.fearsome] = (om.fear_tn, other)
        for kind in ("terror", "fear"):
            if kind in seen:
                self.fear_test(eid, seen[kind][1], kind, seen[kind][0])
                return

    def fear_test(self, eid: int, source: int, kind: str, target: int) -> None:
        """A fear or terror test against `source`: Bravery vs its TN; the effect goes on at once."""
        banned = "R-8.4: no story chips in any way during a terror test" if kind == "terror" else None
        pool, read, (res, step_zero) = self._bravery(eid, target, self.mind_mods(eid), banned)
        successes = mr.check_successes(res.success, res.bumps)
        effect = mr.fear_effect(successes, res.cf, kind, step_zero)
        m = self.w.get(eid, Mind)
        m.tested = tuple(sorted({*m.tested, kind, *(("fear",) if kind == "terror" else ())}))
        self._event("fear", self.name(eid), ("R-8.4", "R-2.2") + (("R-3.5",) if res.cf else ()), kind=kind,
                    source=self.name(source), column=pool.column, row=pool.row, halved=pool.halve, tn=target,
                    result=res.total, cf=res.cf, successes=successes, effect=effect,
                    modifiers=[x.to_json() for x in res.modifiers], **read.source)
        self._put_on(eid, mr.effects_of(effect), source)

    def _put_on(self, eid: int, effects: tuple[str, ...], source: int) -> None:
        """Put a contest's or a fear test's effects on a unit (R-8.4): annoyed, distraught; broken earns the
        source's side a story chip; terrified runs this round; catatonic sits it out and is terrified next.
        Psychological damage loses the aim built up (000 "Aim")."""
        if not effects:
            return
        m = self.w.get(eid, Mind)
        for effect in effects:
            if effect == "annoyed":
                m.annoyed = True
            elif effect == "distraught":
                m.distraught = True
            elif effect == "terrified":
                m.terrified = self.name(source)
            elif effect == "catatonic":
                m.sitting_out, m.terrified_next = "catatonic", self.name(source)
                self._event("mind", self.name(eid), ("R-8.4",), state="catatonic",
                            text="cowers: no action this round, terrified the next", source=self.name(source))
            elif effect == "broken":
                self.earn_chip(source, f"{self.name(eid)} is broken")
        rd = self.w.get(eid, Readiness)
        rd.target, rd.aim = None, 0
        if self.w.peek(eid, Status).waiting and {"distraught", "terrified", "catatonic"} & set(effects):
            self.w.get(eid, Status).waiting = None  # the held action is the one it loses, or it runs
            self._event("trigger_lost", self.name(eid), ("R-5.7", "R-8.4"),
                        reason=f"{effects[-1]}: no longer waiting")

    def earn_chip(self, source: int, reason: str) -> None:
        """`source`'s side draws a story chip (R-8.4 broken, R-8.5): with option `chips` from the bin (the
        ChipBank's `chips_drawn` follows); without it the chip owed is only recorded (`chip_draw`, drawn false)."""
        bank, side = self.ctx.chips, self.w.peek(source, Identity).side
        self._event("chip_draw", self.name(source), ("R-8.4", "R-8.5"), side=side, reason=reason,
                    drawn=bank is not None)
        if bank is not None:
            bank.earn(self, self.name(source), side)

    # ------------------------------------------------------------------ the contest action
    def contest_check(self, eid: int, action: mr.Contest) -> tuple[int, list[Part]]:
        """Refuse a contest the rules do not allow now; (the target, the turn's parts with it)."""
        if action.kind not in mr.CONTESTS:
            raise IllegalAction(f"R-8.4: a contest is {', '.join(mr.CONTESTS)}, not {action.kind!r}")
        if action.mode not in mr.MODES:
            raise IllegalAction(f"R-5.4: an auxiliary action is focused or cautious, not {action.mode!r}")
        tgt = self.contest_target(eid, action.target)
        self.contest_firer_check(eid)
        return tgt, self.check_parts(eid, Part("skill", self.contest_speed))

    def contest_firer_check(self, eid: int) -> None:
        """What a contest asks of its initiator alone: in action and not dodging (R-5.4)."""
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        if self.w.peek(eid, Declared).speed == "dodge":
            raise IllegalAction("R-5.4: a dodging combatant uses no skills")

    def contest_target(self, eid: int, target: str) -> int:
        """The target of a contest if it may be one: an enemy in action, in sight and within earshot (R-8.4)."""
        tgt = self.enemy_named(eid, target)
        if not self.sight(eid, tgt).visible:
            raise IllegalAction(f"R-8.4: {target} is not in sight")
        dist = geo.distance_m(self.w.cell(eid), self.w.cell(tgt), self.ctx.grid.cell_m)
        if dist > self.contest_range_m + 1e-9:
            raise IllegalAction(f"R-8.4: {target} is {dist:.0f} m away; a contest carries {self.contest_range_m:g} m")
        return tgt

    def contest(self, eid: int, action: mr.Contest) -> None:
        """Bluff, intimidate or taunt an enemy (R-8.4): the initiator's skill against the defender's (opposed),
        or against the simple contest's TN; 1 success annoys, 2 distraught, 3 broken."""
        tgt, parts = self.contest_check(eid, action)
        turn = self.w.get(eid, Turn)
        turn.parts, turn.acted = parts, True
        resist_skill = mr.CONTESTS[action.kind]
        pool = self.skill_pool(eid, action.kind, mr.SKILL_TRAIT[action.kind])
        mods = (*self.wound_mod(eid), *self.mind_mods(eid),
                *((Modifier(mr.CAUTIOUS, "cautious (R-5.4)"),) if action.mode == "cautious" else ()))
        dpool = self.skill_pool(tgt, resist_skill, mr.SKILL_TRAIT[resist_skill])
        r = self.ctx.randomizer
        resist: dict[str, Any] | None = None
        impulses: list[int] | None = None
        if self.contests == "simple":
            level = self.w.peek(tgt, Profile).skills.get(resist_skill, 0)
            target = mr.simple_tn(pool.column, dpool.column, level)
            draw = self.chip_draw(eid, r.draw(), pool.halve, kind="contest")  # a chip on the contest
            read = draw.check(pool.column, pool.row, target, sum(m.value for m in (*pool.modifiers, *mods)))
            self.chip_flush()
            res = settle(read.result, read.cf, pool, target, mods)
            successes = min(3, mr.check_successes(res.success, res.bumps))
            r.settle()
        else:
            standard = tn("standard", self.ctx.scope)  # type: ignore[arg-type]
            draw = self.chip_draw(eid, r.draw(), pool.halve, kind="contest")  # a chip on either side's read
            read = draw.check(pool.column, pool.row, standard, sum(m.value for m in (*pool.modifiers, *mods)))
            self.chip_flush()
            res = settle(read.result, read.cf, pool, standard, mods)
            r.settle()
            dmods = (*self.wound_mod(tgt), *self.mind_mods(tgt))  # annoyed resists at −4 too
            ddraw = self.chip_draw(tgt, r.draw(), dpool.halve, kind="contest")
            dread = ddraw.check(dpool.column, dpool.row, res.total + 1,
                                sum(m.value for m in (*dpool.modifiers, *dmods)), want_bumps=False)
            self.chip_flush()
            dres = settle(dread.result, dread.cf, dpool, standard, dmods)
            target = dres.total
            tie = not res.cf and not dres.cf and res.total == dres.total
            if tie:  # the higher impulse (dice: one drawn for each)
                impulses = [draw.impulse, ddraw.impulse]
            successes = mr.contest_successes(res.total, res.cf, dres.total, dres.cf,
                                             *(impulses or [0, 0]))
            r.settle()
            resist = {"skill": resist_skill, "column": dpool.column, "row": dpool.row, "halved": dpool.halve,
                      "result": dres.total, "cf": dres.cf, "modifiers": [x.to_json() for x in dres.modifiers],
                      "draw": dread.source}
        effects = mr.contest_effects(successes)
        if action.mode == "focused":
            self.w.get(eid, Mind).focused = True
        rules = _CONTEST_RULES + (("R-3.8",) if resist is not None else ()) + (("R-3.6",) if pool.halve else ())
        self._event("contest", self.name(eid), rules, target=action.target, kind=action.kind, mode=action.mode,
                    skill=action.kind, column=pool.column, row=pool.row, halved=pool.halve, result=res.total,
                    cf=res.cf, tn=target, successes=successes, effect=effects[-1] if effects else None,
                    modifiers=[x.to_json() for x in res.modifiers], resist=resist, impulses=impulses,
                    **read.source)
        self._put_on(tgt, effects, eid)

    def contest_options(self, eid: int, me: str, seen: list[str]) -> tuple[mr.Contest, ...]:
        """Every contest `contest_check` accepts, of `seen`: the enemies in action in sight (legality's
        `aim_target_ok`, the same checks as `contest_target` but the range). So only the range is asked of each,
        and the initiator's checks and the timing once, when some target is within earshot; each kind, each mode."""
        here, cell_m = self.w.cell(eid), self.ctx.grid.cell_m
        near = [t for t in seen
                if geo.distance_m(here, self.w.cell(self.w.entity(t)), cell_m) <= self.contest_range_m + 1e-9]
        if not near:
            return ()
        try:
            self.contest_firer_check(eid)
            self.check_parts(eid, Part("skill", self.contest_speed))
        except IllegalAction:
            return ()
        return tuple(mr.Contest(me, t, kind, mode) for t in near for kind in mr.CONTESTS for mode in mr.MODES)

    # ------------------------------------------------------------------ a terrified unit (000 "Terrified")
    def mind_check(self, eid: int, action: Action) -> None:
        """Refuse what a terrified unit may not do: anything but a move that ends farther from what it runs
        from, or ending its turn."""
        source = self.w.peek(eid, Mind).terrified
        if source is None or isinstance(action, EndTurn):
            return
        if isinstance(action, Move) and self._farther(eid, source, (int(action.to[0]), int(action.to[1]))):
            return
        raise IllegalAction(f"R-8.4: terrified of {source}, it may only move farther away from it")

    def _farther(self, eid: int, source: str, cell: geo.Cell) -> bool:
        there = self.w.cell(self.w.entity(source))
        return geo.distance_m(cell, there, 1.0) > geo.distance_m(self.w.cell(eid), there, 1.0) + 1e-9

    def mind_legal(self, eid: int, legal: LegalActions) -> LegalActions:
        """The turn's legal actions as the unit's state of mind leaves them (a terrified unit: moves away)."""
        source = self.w.peek(eid, Mind).terrified
        if source is None:
            return legal
        away = frozenset(c for c in legal.walk | legal.run if self._farther(eid, source, c))
        return replace(legal, walk=legal.walk & away, run=legal.run & away, shots=(), called=(), throws=(),
                       aims=(), reload=False, waits=(), wait_cells=frozenset(), screens=(), contests=(), melee=(),
                       ranged=(), covers=(), launches=False, cell_ok=None, mounts=(), offhand=(),
                       off_launches=False)
