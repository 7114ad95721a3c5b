"""Scripted baselines for Future*World (RULES.md §9), reached through `make_ai(spec, ruleset="fw")`: they read
a side's frozen view (fw's part of each unit, `UnitView.ext`) and answer the fw requests, a declaration
(`intent`: actions and the tacpack's split, R-9.2, R-9.8) and the movement segment (`move` or `end`).

- hold: stays where it is while an enemy is in sight and range, else walks to the nearest cell that has one
  (cover preferred); shoots the nearest enemy it sees (a burst when the weapon and the generator allow),
  else declares a conditional reaction; gives the rest of its generator to the screen that stops the
  enemies' weapons; First Aid to an unconscious friend beside it (a second action at half DEX when it also
  shoots, R-9.3).
- focus: hold, shooting the enemy that shows the most wounds.
- rush: closes on the nearest enemy (leaping with its jump pack when none is in sight), shooting as hold does.
- every scripted baseline strikes with a force sword at an enemy in reach (or walks into contact to strike when
  it has no firearm), throws a grenade where the blast catches two enemies or one in cover and no friend,
  and launches its missiles (seekers first, with DCCM at the target); with an enemy seeker about it runs CM
  (R-9.4, R-9.9, R-9.10).
- grav cars (R-9.12, skirmish/ai/fw/car.py): a figure aboard judges sight from the car (in the vertical); rush
  drives toward the enemy with the car's screen up and its riders leave the car near it (DISMOUNT_M), shooting
  first; hold keeps the car where it is and fires from it.
- random: a random listed declaration and a random listed move or stay (seeded from the request).
"""

from __future__ import annotations

import random
import zlib
from collections import Counter, deque
from dataclasses import replace
from typing import Any

from skirmish.ai.fw import car
from skirmish.battle import Request
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, EndTurn, Move, orders_by_unit
from skirmish.rulesets.fw import (
    FIREARMS,
    INTENT,
    MELEE_REACH_M,
    SCREEN_STOPS,
    FwIntent,
    FwUnitView,
    FwWeapon,
    tables,
    touching,
    view_sight,
)

_SCREEN_FOR = {cls: screen for screen, cls in SCREEN_STOPS.items()}  # damage class -> the screen that stops it


def _ext(u: UnitView) -> FwUnitView:
    if not isinstance(u.ext, FwUnitView):
        raise ValueError(f"{u.name} is not a Future*World figure (an fw AI plays fw scenarios only)")
    return u.ext


def _weapon(u: UnitView) -> FwWeapon | None:
    w = tables().weapons
    return next((w[i] for i in _ext(u).weapons if w[i].weapon_class in FIREARMS), None)


def _armed(u: UnitView, cls: str) -> list[FwWeapon]:
    """The weapons of a class (melee, grenade, missile) the figure still has (grenades and missiles are used up)."""
    w = tables().weapons
    ext = _ext(u)
    out = []
    for i in dict.fromkeys(ext.weapons):
        if w[i].weapon_class == cls and ext.left(i, cls in ("grenade", "missile")):
            out.append(w[i])
    return out


def _live(view: BattleView, me: UnitView, e: UnitView) -> bool:
    return not e.ghost and not e.out_of_action


def _metres(view: BattleView, a: geo.Cell, b: geo.Cell) -> float:
    return geo.distance_m(a, b, view.grid.cell_m)


def _centre(view: BattleView, c: geo.Cell) -> tuple[float, float]:
    m = view.grid.cell_m
    return (c[0] + 0.5) * m, (c[1] + 0.5) * m


def _in_reach(view: BattleView, at: geo.Cell, weapon: FwWeapon, e: UnitView, me: UnitView | None = None) -> bool:
    """`e` (seen now) is in sight of `at` and in range (from `me`'s cell: in the vertical from or to a car, R-9.12)."""
    if e.ghost or e.out_of_action:
        return False
    if weapon.range_m is not None and geo.distance_m(at, e.cell, view.grid.cell_m) > weapon.range_m:
        return False
    if me is not None and at == me.cell:
        return view_sight(view, me, e.cell, e).visible
    return geo.sight(view.grid, at, e.cell).visible


SAFETY_M = 4.0  # metres beyond a blast's radius a friend must be for a baseline to throw (a miss scatters 1D10 m)


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


class FwHoldAI:
    """Hold ground and shoot (see the module's docstring)."""

    aggressive = False  # what it does with a grav car (ai/fw/car.py): hold keeps it where it is

    def decide(self, view: BattleView, request: Request) -> Action:
        """A declaration or a move for the figure asked (aboard a grav car, as ai/fw/car.py adjusts it)."""
        me = view.unit(request.unit)
        if request.kind == INTENT:
            action: Action = self._intent(view, me)
        elif car.car_of(me) is not None:
            action = EndTurn(me.name)  # only a driving driver is asked: car.adjust flies it
        else:
            action = self._move(view, me, request)
        return car.scripted(view, me, request, action, self.aggressive)

    # ------------------------------------------------------------------ declaration
    def _pick(self, view: BattleView, me: UnitView, targets: list[UnitView]) -> UnitView:
        return min(targets, key=lambda e: (geo.distance_cells(me.cell, e.cell), e.name))

    def _patient(self, view: BattleView, me: UnitView) -> str | None:
        """An unconscious friend beside it, if it carries a medikit: the worst off. The medikit's shock kills
        one use in (100 - CON x 5) %, so it is kept for those who would bleed to death anyway (R-9.7)."""
        if not _ext(me).medikit:
            return None
        hurt = [f for f in view.units if f.side == me.side and isinstance(f.ext, FwUnitView) and f.ext.unconscious
                and not f.ext.dead and geo.distance_cells(me.cell, f.cell) <= 1.5]
        return min(hurt, key=lambda f: (_ext(f).hp, f.name)).name if hurt else None

    def _no_target(self, view: BattleView, me: UnitView, weapon: FwWeapon | None) -> FwIntent:
        """First Aid for a friend beside it, else a conditional reaction (R-9.2) with combat sensors swept for
        the enemies out of sight (R-9.9)."""
        ext = _ext(me)
        patient = self._patient(view, me)
        if patient is not None:
            return self._split(view, me, FwIntent(me.name, "aid", patient), 0)
        act = "react" if weapon is not None and weapon.shot_energy() <= ext.generator else "none"
        shots = weapon.shot_energy() if act == "react" and weapon else 0
        sensors = min(ext.sensors, ext.generator - shots)
        return self._split(view, me, FwIntent(me.name, act, sensors=sensors), shots + sensors)

    def _intent(self, view: BattleView, me: UnitView) -> FwIntent:
        special = self._strike(view, me) or self._grenade(view, me) or self._missile(view, me)
        if special is not None:
            return special
        ext = _ext(me)
        weapon = _weapon(me)
        targets = [e for e in view.enemies(me) if weapon is not None and _in_reach(view, me.cell, weapon, e, me)]
        if weapon is None or not targets or weapon.shot_energy() > ext.generator:
            return self._no_target(view, me, weapon)
        target = self._pick(view, me, targets)
        burst = weapon.burst and weapon.shot_energy(burst=True) <= ext.generator
        act = "burst" if burst else "shoot"
        patient = self._patient(view, me)
        intent = FwIntent(me.name, act, target.name, then=None if patient is None else "aid", then_target=patient)
        return self._split(view, me, intent, weapon.shot_energy(burst=burst))

    # ------------------------------------------------------------------ strikes, grenades, missiles
    def _strike(self, view: BattleView, me: UnitView) -> FwIntent | None:
        """A force sword at an enemy in reach (R-9.4), or one it can walk into contact with this round when it
        has no firearm (the move row takes it there: `_contact`), if the generator feeds the swing (R-9.8)."""
        swords = [w for w in _armed(me, "melee") if w.energy <= _ext(me).generator]
        if not swords:
            return None
        sword = swords[0]
        live = [e for e in view.enemies(me) if _live(view, me, e)]
        near = [e for e in live if touching(view.grid, me.cell, e.cell)]
        if not near and _weapon(me) is None:
            walk = _ext(me).move_m + MELEE_REACH_M
            near = [e for e in live if _metres(view, me.cell, e.cell) <= walk]
        if not near:
            return None
        # One magnetic point stops a sword: an enemy with no tacpack to raise one first, then the weakest.
        target = min(near, key=lambda e: (_ext(e).generator > 0, _ext(e).hp, geo.distance_cells(me.cell, e.cell),
                                          e.name))
        return self._split(view, me, FwIntent(me.name, "melee", target.name, weapon=sword.id), sword.energy)

    def _grenade(self, view: BattleView, me: UnitView) -> FwIntent | None:
        """A grenade where its blast catches two enemies or more, or one in cover from it, and no friend (the
        thrower included) is in its radius nor declared a strike at its target; a photon grenade where it
        catches two enemies and no friend (R-9.10)."""
        best: tuple[int, str, FwWeapon] | None = None
        struck = {t for f in view.units if f.side == me.side and isinstance(f.ext, FwUnitView)
                  for a, t in f.ext.acts if a == "melee"}  # a friend walking into contact there this round
        for g in _armed(me, "grenade"):
            for e in view.enemies(me):
                if any(_dist(_centre(view, x.cell), _centre(view, e.cell)) <= g.blast_radius_m + SAFETY_M
                       for x in view.enemies(me) if x.name in struck):
                    continue  # friends walk into contact there this round
                if not _live(view, me, e) or _metres(view, me.cell, e.cell) > (g.range_m or 15) or \
                        not geo.sight(view.grid, me.cell, e.cell).visible:
                    continue
                at = _centre(view, e.cell)
                caught = [u for u in view.units if not u.out_of_action and not u.ghost
                          and _dist(_centre(view, u.cell), at) <= g.blast_radius_m + 1e-9]
                if any(u.side == me.side and _dist(_centre(view, u.cell), at) <= g.blast_radius_m + SAFETY_M
                       for u in view.units if not _ext(u).dead):
                    continue  # a friend (down ones too) within the radius, or near enough for a short scatter
                n = sum(1 for u in caught if u.side != me.side)
                covered = geo.sight(view.grid, me.cell, e.cell).cover != "none"
                good = n >= 2 or (n == 1 and covered and g.damage is not None)
                if good and (best is None or n > best[0]):
                    best = (n, e.name, g)
        if best is None:
            return None
        return self._split(view, me, FwIntent(me.name, "throw", best[1], weapon=best[2].id), 0)

    def _missile(self, view: BattleView, me: UnitView) -> FwIntent | None:
        """A missile at the enemy it would pick to shoot, in line of sight (R-9.10): a seeker first, with DCCM
        at the target from what its effectors and sensors allow (R-9.9)."""
        missiles = sorted(_armed(me, "missile"), key=lambda w: w.base_chance is not None)  # seekers first
        if not missiles:
            return None
        seen = [e for e in view.enemies(me) if _live(view, me, e) and geo.sight(view.grid, me.cell, e.cell).visible]
        if not seen:
            return None
        target = self._pick(view, me, seen)
        m = missiles[0]
        ext = _ext(me)
        dccm = min(ext.effectors, ext.sensors, ext.generator) if m.base_chance is None else 0
        intent = FwIntent(me.name, "launch", target.name, weapon=m.id, dccm=dccm,
                          dccm_at=target.name if dccm else None)
        return self._split(view, me, intent, dccm)

    def _split(self, view: BattleView, me: UnitView, intent: FwIntent, shots: int) -> FwIntent:
        """The intent with the generator's rest on CM when an enemy still has a seeker and the figure runs no
        other EW program and at most one act (a program is one of the two actions, R-9.9), then on the screen
        that stops most of the enemies' weapons (R-9.8): a force sword in reach of contact counts for the magnetic
        screen (one point stops it, R-9.6)."""
        ext = _ext(me)
        spare = ext.generator - shots
        if spare > 0 and ext.effectors and not (intent.dccm or intent.sensors or intent.cm) and \
                len(intent.acts()) < 2 and \
                any(_armed(e, "missile") and any(w.base_chance is None for w in _armed(e, "missile"))
                    for e in view.enemies(me) if not e.out_of_action):
            cm = min(ext.effectors, spare)
            intent = replace(intent, cm=cm)
            spare -= cm
        classes: Counter[str] = Counter()
        for e in view.enemies(me):
            w = _weapon(e)
            if w is not None and w.damage_class in _SCREEN_FOR:
                classes[w.damage_class] += 1
            if _armed(e, "melee") and not e.out_of_action and \
                    _metres(view, me.cell, e.cell) <= _ext(e).move_m + MELEE_REACH_M:
                classes["B"] += 3  # the magnetic screen: any point stops a force sword
        if spare <= 0 or not classes:
            return intent
        cls = max(sorted(classes), key=lambda c: classes[c])
        return replace(intent, screen=_SCREEN_FOR[cls], points=spare)

    # ------------------------------------------------------------------ movement
    def _contact(self, view: BattleView, me: UnitView, request: Request) -> Action | None:
        """For a declared strike at an enemy not in reach: the nearest free cell beside it, else the cell that
        brings it nearest (R-9.2, R-9.4). A swordsman with no firearm and no strike declared closes on the
        nearest enemy it knows of. None: not a swordsman's move."""
        strike = next((t for a, t in _ext(me).acts if a == "melee"), None)
        swordsman = bool(_armed(me, "melee")) and _weapon(me) is None
        if strike is None and not swordsman:
            return None
        enemies = [e for e in view.enemies(me) if not e.out_of_action]
        target = next((e for e in enemies if e.name == strike), None)
        if target is None and strike is None and enemies:
            target = min(enemies, key=lambda e: (geo.distance_cells(me.cell, e.cell), e.name))
        if target is None or touching(view.grid, me.cell, target.cell):
            return EndTurn(me.name)
        cells = request.legal().walk
        beside = [c for c in cells if touching(view.grid, c, target.cell)]
        if beside:
            return Move(me.name, min(beside, key=lambda c: (geo.distance_cells(me.cell, c), c)))
        if not cells:
            return EndTurn(me.name)
        best = min(cells, key=lambda c: (geo.distance_cells(c, target.cell), c))
        closer = geo.distance_cells(best, target.cell) < geo.distance_cells(me.cell, target.cell)
        return Move(me.name, best) if closer else EndTurn(me.name)

    def _move(self, view: BattleView, me: UnitView, request: Request) -> Action:
        contact = self._contact(view, me, request)
        if contact is not None:
            return contact
        weapon = _weapon(me)
        enemies = view.enemies(me)
        if weapon is None or not enemies or any(_in_reach(view, me.cell, weapon, e) for e in enemies):
            return EndTurn(me.name)
        cells = request.legal().walk
        if not cells:
            return EndTurn(me.name)
        seen = [c for c in cells if any(_in_reach(view, c, weapon, e) for e in enemies if not e.ghost)]
        if seen:
            def covered(c: geo.Cell) -> int:
                return sum(geo.sight(view.grid, e.cell, c).cover != "none" for e in enemies if not e.ghost)
            best = min(seen, key=lambda c: (-covered(c), geo.distance_cells(me.cell, c), c))
            return Move(me.name, best)
        return self._close(view, me, cells, enemies)

    def _close(self, view: BattleView, me: UnitView, cells: frozenset[geo.Cell], enemies: list[UnitView]) -> Action:
        """The cell that brings it nearest an enemy (not next to one: engaged figures do not move, R-9.2)."""
        def near(c: geo.Cell) -> float:
            return min(geo.distance_cells(c, e.cell) for e in enemies)
        fine = [c for c in cells if near(c) >= 2]
        if not fine:
            return EndTurn(me.name)
        best = min(fine, key=lambda c: (near(c), c))
        return Move(me.name, best) if near(best) < near(me.cell) else EndTurn(me.name)


class FwFocusAI(FwHoldAI):
    """Hold, shooting the enemy that shows the most wounds."""

    def _pick(self, view: BattleView, me: UnitView, targets: list[UnitView]) -> UnitView:
        return min(targets, key=lambda e: (-e.wounds, geo.distance_cells(me.cell, e.cell), e.name))


class FwRushAI(FwHoldAI):
    """Close on the nearest enemy, leaping with a jump pack when none is in sight; shoots as hold does."""

    aggressive = True  # drives a grav car at the enemy; its riders leave it near (ai/fw/car.py)

    def _no_target(self, view: BattleView, me: UnitView, weapon: FwWeapon | None) -> FwIntent:
        ext = _ext(me)
        if ext.jump_pack and ext.generator:
            return FwIntent(me.name, jump=ext.generator)
        return super()._no_target(view, me, weapon)

    def _move(self, view: BattleView, me: UnitView, request: Request) -> Action:
        contact = self._contact(view, me, request)
        if contact is not None:
            return contact
        enemies = view.enemies(me)
        cells = request.legal().walk
        weapon = _weapon(me)
        if not enemies or not cells:
            return EndTurn(me.name)
        if weapon is not None and not _ext(me).jump and any(_in_reach(view, me.cell, weapon, e) for e in enemies) \
                and min(geo.distance_m(me.cell, e.cell, view.grid.cell_m) for e in enemies) <= 12:
            return EndTurn(me.name)  # close enough: stand and shoot
        return self._close(view, me, cells, enemies)


class FwRandomAI:
    """A random listed declaration, and a random listed move or stay (seeded from the request: deterministic)."""

    def decide(self, view: BattleView, request: Request) -> Action:
        """A random legal answer."""
        me = view.unit(request.unit)
        rng = random.Random(zlib.crc32(f"{view.round}:{request.unit}:{request.kind}:{me.cell}".encode()))
        options = list(request.legal().actions())
        if request.kind == INTENT:
            return rng.choice(options) if options else FwIntent(me.name)
        return rng.choice(options) if options else EndTurn(me.name)


class FwIdle:
    """Declares nothing with its usual screen, and stays put (a training dummy; what scripted orders fall back to)."""

    def decide(self, view: BattleView, request: Request) -> Action:
        """No action, or staying put."""
        if request.kind == INTENT:
            ext = _ext(view.unit(request.unit))
            return FwIntent(request.unit, screen=ext.default_screen, points=ext.default_points)
        return EndTurn(request.unit)


class FwScripted(FwIdle):
    """Explicit orders per figure in sequence (C-4): intents, then moves or ends, as the requests come; a figure
    whose orders run out idles."""

    def __init__(self, orders: list[str]) -> None:
        self.queues: dict[str, deque[Action]] = orders_by_unit(orders)

    def decide(self, view: BattleView, request: Request) -> Action:
        """The figure's next order if it answers this request, else an idle answer."""
        q = self.queues.get(request.unit)
        if q and isinstance(q[0], FwIntent) == (request.kind == INTENT):
            return q.popleft()
        return super().decide(view, request)


FW_AIS: dict[str, type] = {"baseline": FwHoldAI, "hold": FwHoldAI, "focus": FwFocusAI, "spread": FwFocusAI,
                           "rush": FwRushAI, "random": FwRandomAI}


def make_fw(spec: str, orders: list[str]) -> Any:
    """A Future*World controller: an AI of FW_AIS by name, "scripted" (the side's orders) or "idle"; ValueError
    for any other; `utility[:personality]` and `search[:personality]` are skirmish/ai/fw/'s."""
    if spec == "scripted":
        return FwScripted(orders)
    if spec == "idle":
        return FwIdle()
    kind = spec.partition(":")[0]
    if kind == "utility":  # the fw utility AI (skirmish/ai/fw/, helper "fwai")
        from skirmish.ai.fw import make_fw_utility

        return make_fw_utility(spec)
    if kind == "search":  # the fw search tier (skirmish/ai/fw/search.py, helper "fwenv")
        from skirmish.ai.fw.search import make_fw_search

        return make_fw_search(spec)
    if kind not in FW_AIS:
        raise ValueError(f"no AI {spec!r} for Future*World yet; known: {', '.join(FW_AIS)}, utility, search")
    return FW_AIS[kind]()
