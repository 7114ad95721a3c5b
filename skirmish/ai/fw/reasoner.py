"""The Future*World utility AI (`utility[:personality]` on an fw scenario; docs/AI.md, "Future*World").

Each request is answered by scoring every option on one scale, HP-equivalents, from exact odds
(skirmish/ai/fw/estimate.py) and a personality's weights (personality.py):

- the declaration (R-9.2, R-9.8): every target x shot or burst (a target out of sight now: one to move into
  sight of), a conditional reaction, First Aid, the jump pack, or nothing; each with the rest of the
  generator split between combat sensors and the screen (the type that saves the most against the enemies
  that see the figure, with every point left), so an energy shot is paid before the screen only when it is
  worth more than the damage the screen would have stopped;
- the movement segment (R-9.2, R-9.11): staying or every listed cell, weighed by the declared attack from there
  (a moving firer at half chance), what the enemies that see the cell would put through (a moving target at
  half chance, cover), what enemies a walk from seeing it could put through next round, the best shot it would
  have from there next round, and closing in or falling back as the side's intent says (nothing in view:
  close in).

The decision's trace (the chosen option and the runners-up with every consideration) is what the board and
the log show, as for FI's utility AI.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from skirmish.ai.fw import arms, car
from skirmish.ai.fw import estimate as est
from skirmish.ai.fw.personality import PERSONALITIES, FwPersonality, draw
from skirmish.ai.fw.side import Intent, goal_gain, side_intent
from skirmish.ai.utility.intent import ai_personality
from skirmish.battle import Request
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, EndTurn, Move
from skirmish.rulesets.fw import INTENT, FwIntent, FwWeapon, cell_target

JUMP_POINTS = 2  # a leap of up to 40 m (R-9.11: 20 m a point, less 40 m per excess ENC)
REACH_GUESS = 0.5  # the chance of finding a cell in sight of a target out of sight now


@dataclass
class FwOption:
    """A candidate answer with its considerations (name, input, output) and score (the outputs' sum)."""

    label: str
    action: Action
    considerations: list[tuple[str, float, float]] = field(default_factory=list)
    noise: float = 1.0

    @property
    def score(self) -> float:
        """The sum of the considerations' outputs, times a blunt personality's misjudgement."""
        return sum(c[2] for c in self.considerations) * self.noise

    def add(self, name: str, inp: float, out: float) -> FwOption:
        """One more consideration."""
        self.considerations.append((name, inp, out))
        return self

    def to_json(self) -> dict[str, Any]:
        """Trace form (core/decision.py's OptionTrace)."""
        out: dict[str, Any] = {"option": self.label, "action": str(self.action), "score": round(self.score, 4),
                               "considerations": [{"name": n, "input": round(i, 3), "output": round(v, 3)}
                                                  for n, i, v in self.considerations]}
        if self.noise != 1.0:
            out["noise"] = round(self.noise, 3)
        return out


class FwUtilityAI:
    """Utility AI for Future*World (see the module's docstring). One per side and battle: it remembers only the
    fire its side declared this round (so allies do not all pour it into a figure already likely to drop)."""

    def __init__(self, personality: FwPersonality | str = "normal") -> None:
        self.p = PERSONALITIES[personality] if isinstance(personality, str) else personality
        self.name = self.p.name
        self.committed: dict[tuple[int, str], float] = {}  # (round, target) -> P(not down) after allies' fire
        self._dangers: dict[tuple[int, str], dict[str, float]] = {}
        self.declared: dict[tuple[int, str], tuple[str | None, int]] = {}  # (round, figure) -> (weapon, DCCM)
        self.last_trace: dict[str, Any] | None = None
        self.urgency = 1.0  # harm and closing in count for more as the round limit nears (`decide_traced`)
        self._shots: dict[tuple[str, str, bool], tuple[float, int]] = {}  # one decision's next-round shots

    def decide(self, view: BattleView, request: Request) -> Action:
        """Answer a request (the trace is kept in `last_trace`)."""
        return self.decide_traced(view, request)[0]

    def decide_traced(self, view: BattleView, request: Request) -> tuple[Action, dict[str, Any]]:
        """The action and the decision's trace: the chosen option and the best runners-up with every consideration."""
        me = view.unit(request.unit)
        est.ext(me)  # a figure of another ruleset fails here, named
        switched = ai_personality(view, me.side) if view.ai_orders else None  # a scenario trigger's (issue 15)
        if switched is not None and switched != self.p.name and switched in PERSONALITIES:
            self.p = PERSONALITIES[switched]
        intent = side_intent(view, me)
        self.urgency = 1.0 + (view.round / view.max_rounds if view.max_rounds else 0.0)  # a draw is half a win
        if request.kind == INTENT:
            options = self.declarations(view, me, intent)
        else:
            options = self.moves(view, me, intent, request.legal().walk)
        if self.p.noise:
            for o in options:
                o.noise = 1.0 - self.p.noise * draw(f"{view.salt}|{view.round}|{me.name}|{o.label}")
        options.sort(key=lambda o: (-o.score, o.label))
        best = options[0]
        if request.kind == INTENT:
            self._commit(view, me, best.action)
            if isinstance(best.action, FwIntent):
                self.declared[(view.round, me.name)] = (best.action.weapon, best.action.dccm)
        trace = {"unit": me.name, "request": request.kind, "personality": self.p.name, "intent": intent.text,
                 "chosen": best.to_json(), "runners_up": [o.to_json() for o in options[1:1 + self.p.runners_up]]}
        action = car.answer(view, me, request, best.action, intent, trace)  # aboard a grav car
        self.last_trace = trace
        return action, trace

    # ------------------------------------------------------------------------------------------ declaration
    def _alive(self, view: BattleView, target: UnitView) -> float:
        """How much of the target's worth is left after the fire allies declared at it this round."""
        left = self.committed.get((view.round, target.name), 1.0)
        return 1.0 - self.p.focus * (1.0 - left)

    def _commit(self, view: BattleView, me: UnitView, action: Action) -> None:
        if not isinstance(action, FwIntent) or action.target is None:
            return
        target = view.find(action.target)
        if target is None:
            return
        s = self._attack_odds(view, me, action, target)
        if s is None:
            return
        key = (view.round, target.name)
        self.committed[key] = self.committed.get(key, 1.0) * (1.0 - s.down)

    def _attack_odds(self, view: BattleView, me: UnitView, fi: FwIntent, target: UnitView) -> est.Shot | None:
        """The odds of the declared attack at `target` from where `me` stands (None: not an attack that drops)."""
        w = est.weapon(me)
        if fi.act in ("shoot", "burst") and w is not None:
            return est.shot(view, me, w, me.cell, target, target.cell, burst=fi.act == "burst")
        if fi.act == "melee" and (s := est.sword(me)) is not None:
            return est.strike(view, me, s, target)
        if fi.act == "launch" and fi.weapon is not None:
            m = next((m for m in est.armed(me, "missile") if m.id == fi.weapon), None)
            return None if m is None else arms.missile_shot(view, me, m, me.cell, target, fi.dccm)
        return None

    def _danger(self, view: BattleView, me: UnitView, enemies: list[UnitView]) -> dict[str, float]:
        """`danger` x the most each enemy able to act could take off one of our figures this round (a shot in
        range and sight, or a strike it can walk to; HP-equivalents): what dropping it saves (R-9.7)."""
        key = (view.round, me.side)
        if key in self._dangers:
            return self._dangers[key]
        ours = [f for f in view.units if f.side == me.side and not f.out_of_action and isinstance(f.ext, type(me.ext))]
        out: dict[str, float] = {}
        for e in enemies:
            if not isinstance(e.ext, type(me.ext)) or not est.ext(e).can_act:
                continue
            w, s = est.weapon(e), est.sword(e)
            best = 0.0
            for f in ours:
                hp = est.ext(f).hp
                if s is not None and est.can_reach(view, e, f.cell):
                    best = max(best, est.strike(view, e, s, f).value(hp, self.p.kill))
                if w is not None and est.in_range(view, e.cell, f.cell, w) and est.sees(view, e.cell, f.cell).visible:
                    best = max(best, est.shot(view, e, w, e.cell, f, f.cell, burst=est.can_burst(e, w))
                               .value(hp, self.p.kill))
            out[e.name] = self.p.danger * best
        self._dangers = {key: out}
        return out

    def declarations(self, view: BattleView, me: UnitView, intent: Intent) -> list[FwOption]:
        """Every declaration weighed (R-9.2, R-9.3, R-9.8, R-9.9, R-9.11)."""
        x = est.ext(me)
        p = self.p
        w = est.weapon(me)
        enemies = view.enemies(me)
        in_sight = [e for e in enemies if not e.ghost and w is not None and est.in_range(view, me.cell, e.cell, w)
                    and est.sees(view, me.cell, e.cell).visible]
        ts = est.threats(view, me, me.cell)
        patient = _patient(view, me)
        danger = self._danger(view, me, enemies)
        base: list[tuple[str, FwIntent, float, str, int]] = []  # (label, intent, worth, consideration, energy)
        if w is not None:
            for e in enemies:
                if e.ghost and me.side not in e.known_to:
                    continue  # the side does not know where it is: no declaration names it
                seen = e in in_sight
                reachable = geo.distance_m(me.cell, e.cell, view.grid.cell_m) <= (w.range_m or 0) + x.move_m
                if not seen and not (reachable and not in_sight):
                    continue
                for burst in (False, True) if est.can_burst(me, w) else (False,):
                    energy = w.shot_energy(burst=burst)
                    if energy > x.generator:
                        continue
                    s = est.shot(view, me, w, me.cell, e, e.cell, burst=burst, firer_moves=not seen)
                    worth = (est.worth(s, e, p.kill) + danger.get(e.name, 0.0) * s.down) * self._alive(view, e) * \
                        (1.0 if seen else REACH_GUESS)
                    act = "burst" if burst else "shoot"
                    label = f"{act} {e.name}" + ("" if seen else " (moving into sight)")
                    fi = FwIntent(me.name, act, e.name, then="aid" if patient else None, then_target=patient)
                    base.append((label, fi, worth, f"hit chance {s.chance}%", energy))
            if w.shot_energy() <= x.generator and enemies:
                near = [est.worth(est.shot(view, me, w, me.cell, e, e.cell, firer_moves=not in_sight), e, p.kill)
                        for e in (in_sight or enemies[:1])]
                base.append(("react", FwIntent(me.name, "react"), p.react * max(near), "a shot at the first enemy "
                             "seen moving", w.shot_energy()))
        alive = {e.name: self._alive(view, e) for e in enemies}
        seen_now = [e for e in enemies if not e.ghost and est.sees(view, me.cell, e.cell).visible]
        for a in (arms.melee_options(view, me, enemies, p.kill, alive, danger)
                  + arms.grenade_options(view, me, seen_now, p.kill, p.blind)
                  + arms.missile_options(view, me, seen_now, p.kill, alive, danger)
                  + arms.mount_options(view, me, enemies, p.kill, alive, danger)):  # (a grav car's mount, R-9.12)
            if a.energy <= x.generator:
                base.append((a.label, a.intent, a.worth, a.why, a.energy))
        if patient:
            base.append((f"aid {patient}", FwIntent(me.name, "aid", patient), p.aid, "a friend bleeding beside it", 0))
        base.append(("nothing", FwIntent(me.name), 0.0, "", 0))
        if x.jump_pack and x.generator and not in_sight and enemies and intent.press:
            base.append(("leap", FwIntent(me.name, jump=min(JUMP_POINTS, x.generator)), p.press,
                         "closing in by jump pack", min(JUMP_POINTS, x.generator)))
        cm, cm_saves = arms.cm_options(view, me, p.kill)
        out = []
        for label, fi, worth, why, energy in base:
            spare = x.generator - energy
            one_program = not fi.jump and len(fi.acts()) < 2 and not fi.dccm  # one program and one act
            splits = [(0, 0)]
            if x.sensors and not in_sight and spare > 0 and one_program:
                splits.append((min(x.sensors, spare), 0))
            if cm and spare > 0 and one_program:
                splits.append((0, min(cm, spare)))
            for sensors, c in splits:
                saves = cm_saves * c / cm if c else 0.0
                out.append(self._split(view, me, label, fi, worth, why, spare - sensors - c, sensors, ts, c, saves))
        return out

    def _split(self, view: BattleView, me: UnitView, label: str, fi: FwIntent, worth: float, why: str, spare: int,
               sensors: int, ts: list[est.Threat], cm: int = 0, cm_saves: float = 0.0) -> FwOption:
        """The declaration with `sensors` on combat sensors, `cm` on countermeasures and `spare` on the best
        screen (none if no enemy sees the cell: the energy would stop nothing)."""
        p = self.p
        leaps = bool(fi.jump)
        unscreened = est.incoming(view, me, me.cell, ts, ("none", 0), moves=leaps, leaps=leaps, kill=p.kill)
        if ts and spare > 0:
            kind, left = est.best_screen(view, me, me.cell, ts, spare, p.kill)
            fi = replace(fi, screen=kind, points=spare)
            label += f", screen {kind} {spare}"
        else:
            left = unscreened
        if sensors:
            fi = replace(fi, sensors=sensors)
            label += f", sensors {sensors}"
        if cm:
            fi = replace(fi, cm=cm)
            label += f", CM {cm}"
        o = FwOption(label, fi)
        o.add(f"worth ({why})" if why else "worth", min(1.0, worth / 20), p.harm * self.urgency * worth)
        o.add("threat here", min(1.0, unscreened / 20), -p.caution * left)
        o.add("screen saves", min(1.0, (unscreened - left) / 20), 0.0)
        if sensors:
            o.add("sensors sweep", sensors / 10, p.sensors)
        if cm:
            o.add("CM against seekers", cm / 10, p.caution * cm_saves)
        return o

    # ------------------------------------------------------------------------------------------ movement
    def moves(self, view: BattleView, me: UnitView, intent: Intent, cells: frozenset[geo.Cell]) -> list[FwOption]:
        """Staying or moving to each listed cell, weighed (R-9.2, R-9.4, R-9.11)."""
        self._shots.clear()  # next round's shots are this decision's (kept across its cells only)
        x = est.ext(me)
        enemies = view.enemies(me)
        move_cells = max(1.0, x.move_m / view.grid.cell_m)
        here_d = _nearest(me.cell, enemies)
        w = est.weapon(me)
        sees_any = w is not None and any(not e.ghost and est.sees(view, me.cell, e.cell).visible
                                         and est.in_range(view, me.cell, e.cell, w) for e in enemies)
        striking = next((t for a, t in x.acts if a == "melee"), None)
        out = [self._cell(view, me, me.cell, False, EndTurn(me.name), "stay", intent, here_d, move_cells, sees_any)]
        for c in sorted(cells):
            if not striking and any(geo.distance_cells(c, e.cell) < 2 for e in enemies):
                continue  # not beside an enemy unless to strike: engaged figures do not move
            out.append(self._cell(view, me, c, True, Move(me.name, c), f"walk {c[0]},{c[1]}", intent, here_d,
                                  move_cells, sees_any))
        return out

    def _cell(self, view: BattleView, me: UnitView, c: geo.Cell, moving: bool, action: Action, label: str,
              intent: Intent, here_d: float, move_cells: float, sees_any: bool) -> FwOption:
        p = self.p
        x = est.ext(me)
        leaps = moving and x.jump > 0
        w = est.weapon(me)
        enemies = view.enemies(me)
        o = FwOption(label, action)
        worth, chance = 0.0, 0
        for act, target in x.acts:
            t = view.find(target) if target else None
            if act in ("shoot", "burst") and w is not None and t is not None and not t.out_of_action:
                if est.in_range(view, c, t.cell, w) and est.sees(view, c, t.cell).visible:
                    s = est.shot(view, me, w, c, t, t.cell, burst=act == "burst", firer_moves=moving)
                    worth, chance = est.worth(s, t, p.kill) * self._alive(view, t), s.chance
            elif act in ("melee", "throw", "launch") and t is not None and not t.out_of_action:
                kit, dccm = self.declared.get((view.round, me.name), (None, 0))
                worth, chance = arms.armed_at(view, me, act, kit, dccm, t, c, moving, p.kill, p.blind)
                worth *= self._alive(view, t)
                if act == "melee":
                    gap = max(0.0, geo.distance_cells(c, t.cell) - 1.5)
                    o.add("gap to the strike target", gap, -p.press * gap / move_cells)
            elif act == "throw" and t is None and (cell := cell_target(target)) is not None:  # a grenade at a cell
                kit, dccm = self.declared.get((view.round, me.name), (None, 0))
                worth, chance = arms.armed_at(view, me, act, kit, dccm, cell, c, moving, p.kill, p.blind)
            elif act == "react" and w is not None:
                seen = [e for e in enemies if est.in_range(view, c, e.cell, w) and est.sees(view, c, e.cell).visible]
                if seen:
                    worth = p.react * max(est.worth(est.shot(view, me, w, c, e, e.cell, firer_moves=moving), e, p.kill)
                                          for e in seen)
        o.add("hit chance", chance / 100, p.harm * self.urgency * worth)
        ts = est.threats(view, me, c)
        taken = est.incoming(view, me, c, ts, (x.screen, x.screen_points), moves=moving, leaps=leaps, kill=p.kill)
        o.add("threat here", min(1.0, taken / 20), -p.caution * taken)
        if p.ahead:
            later = self._walk_ins(view, me, c, ts)
            o.add("enemies a walk from sight", min(1.0, later / 20), -p.caution * p.ahead * later)
        covered = sum(1 for t in ts if est.sees(view, t.enemy.cell, c).cover != "none")
        share = covered / len(ts) if ts else 1.0
        o.add("cover from enemies that see it", share, p.cover * covered)
        d = _nearest(c, enemies)
        closing = (here_d - d) / move_cells if enemies else 0.0
        if intent.goal is not None:  # a scenario objective's cell (issue 15): every step towards it counts
            g = intent.goal.cell
            gain = goal_gain(view.grid, g, me.cell, c) / move_cells  # along the way, round walls
            o.add("towards the objective", max(0.0, gain), p.press * self.urgency * gain)
        if intent.fall_back:
            o.add("falling back", max(0.0, -closing), -p.fall_back * closing)
        elif intent.press or not sees_any:
            o.add("distance to close", max(0.0, closing), p.press * self.urgency * closing)
        if w is not None and not any(a in ("shoot", "burst") for a, _ in x.acts):  # a shot next round
            line = any(not e.ghost and est.in_range(view, c, e.cell, w) and est.sees(view, c, e.cell).visible
                       for e in enemies)
            o.add("line of fire", float(line), 0.1 * p.press * float(line))
        if w is not None and p.aim:
            best, chance = self._next_shot(view, me, w, c, enemies)
            o.add("next round's shot", chance / 100, p.aim * self.urgency * best)
        return o

    def _walk_ins(self, view: BattleView, me: UnitView, c: geo.Cell, ts: list[est.Threat]) -> float:
        """What the enemies with a firearm that do not see `c` now but stand within a move of it could put
        through next round once they walk into sight (a moving firer, R-9.4), each in full. A shot's worth
        depends on the cell only through cover, so it is worked out once a decision per enemy and cover."""
        near = [t.enemy.name for t in ts]
        total = 0.0
        x = est.ext(me)
        for e in view.enemies(me):
            if e.ghost or e.name in near or not isinstance(e.ext, type(me.ext)) or not est.ext(e).can_act:
                continue
            w = est.weapon(e)
            if w is None or geo.distance_m(e.cell, c, view.grid.cell_m) > est.ext(e).move_m:
                continue
            key = ("in", e.name, est.sees(view, e.cell, c).cover != "none")
            if key not in self._shots:
                s = est.shot(view, e, w, e.cell, me, c, firer_moves=True, screen=(x.screen, x.screen_points))
                self._shots[key] = (s.value(x.hp, self.p.kill), s.chance)
            total += self._shots[key][0]
        return total

    def _next_shot(self, view: BattleView, me: UnitView, w: FwWeapon, c: geo.Cell,
                   enemies: list[UnitView]) -> tuple[float, int]:
        """(worth, chance) of the best shot the figure would fire from `c` next round standing still (R-9.4:
        no moving firer; a covered target at half chance), so a gunner leaves a cell from which its only
        target is behind cover for one from which it is not."""
        best, chance = 0.0, 0
        for e in enemies:
            if e.ghost or e.out_of_action or not est.in_range(view, c, e.cell, w):
                continue
            sight = est.sees(view, c, e.cell)
            if not sight.visible:
                continue
            key = ("out", e.name, sight.cover != "none")  # the worth depends on the cell only through cover
            if key not in self._shots:
                s = est.shot(view, me, w, c, e, e.cell, burst=est.can_burst(me, w))
                self._shots[key] = (est.worth(s, e, self.p.kill), s.chance)
            v, ch = self._shots[key]
            if v > best:
                best, chance = v, ch
        return best, chance


def _nearest(c: geo.Cell, enemies: list[UnitView]) -> float:
    return min((geo.distance_cells(c, e.cell) for e in enemies), default=0.0)


def _patient(view: BattleView, me: UnitView) -> str | None:
    """An unconscious friend beside it, if it carries a medikit (R-9.7): the worst off."""
    if not est.ext(me).medikit:
        return None
    hurt = [f for f in view.units if f.side == me.side and f.name != me.name and isinstance(f.ext, type(me.ext))
            and f.ext.unconscious and not f.ext.dead and geo.distance_cells(me.cell, f.cell) <= 1.5]
    return min(hurt, key=lambda f: (est.ext(f).hp, f.name)).name if hurt else None


def make_fw_utility(spec: str) -> FwUtilityAI:
    """`utility` or `utility:<personality>` (ValueError naming the known ones)."""
    _, _, name = spec.partition(":")
    name = name or "normal"
    if name not in PERSONALITIES:
        raise ValueError(f"unknown personality {name!r} for the Future*World utility AI; known: "
                         f"{', '.join(PERSONALITIES)}")
    return FwUtilityAI(name)
