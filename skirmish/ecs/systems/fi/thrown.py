"""Future Imperfect systems: thrown explosives (R-6.9, R-6.10)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import (
    Armour,
    Declared,
    Facing,
    Health,
    Loadout,
    Profile,
    Readiness,
    Status,
    Turn,
    WeaponState,
)
from skirmish.ecs.systems.fi import launched
from skirmish.ecs.systems.fi.base import _Hits
from skirmish.ecs.systems.fi.readying import FiReadying
from skirmish.rules import geometry as geo
from skirmish.rules.actions import (
    Throw,
)
from skirmish.rules.checks import Modifier, tn
from skirmish.rules.equipment import Weapon
from skirmish.rules.fi import thrown as thr
from skirmish.rules.fi.ranged import (
    ShotSetup,
)
from skirmish.rules.fi.shot_numbers import MOUNTED_MOD
from skirmish.rules.fi.timing import (
    Part,
)
from skirmish.rules.randomizer import Draw
from skirmish.rules.sight_table import table as sight_table

THROW_CELLS_KEPT = 4096  # throw_cells answers kept per map content before they start again


class FiThrowing(FiReadying):
    """Throws, scatter and blasts."""

    # ------------------------------------------------------------------ thrown explosives
    def throwable(self, eid: int, item: str) -> tuple[Weapon, WeaponState]:
        """The carried thrown weapon called `item` (the first one carried if `item` is empty)."""
        for ws in self.w.get(eid, Loadout).weapons:
            weapon = self.ctx.armoury.weapons[ws.weapon_id]
            if weapon.thrown and (ws.weapon_id == item or not item) and ws.rounds > 0:
                return weapon, ws
        what = item.replace("_", " ") if item else "thrown weapon"
        raise IllegalAction(f"R-6.10: {self.name(eid)} carries no {what} to throw")

    def throw_setup(self, eid: int, action: Throw) -> ShotSetup:
        """Check a throw and work out its TN and modifiers (R-6.10, R-6.1); raises IllegalAction."""
        w = self.w
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        if w.peek(eid, Declared).speed == "dodge":
            raise IllegalAction("R-5.4: a dodging combatant makes no attacks")
        weapon, _ = self.throwable(eid, action.item)
        grid = self.ctx.grid
        here, at = w.cell(eid), (int(action.at[0]), int(action.at[1]))
        if not grid.inside(at):
            raise IllegalAction(f"cell {at[0]},{at[1]} is off the map")
        if grid.blocks_sight[at[1], at[0]]:
            raise IllegalAction(f"R-6.10: cell {at[0]},{at[1]} is {grid.terrain(at).name}; throw at an open cell")
        if not geo.sight(grid, here, at).visible:
            raise IllegalAction(f"R-6.10: no line of sight to {at[0]},{at[1]}")
        strength = w.get(eid, Profile).traits["strength"][0]
        dist = geo.distance_m(here, at, grid.cell_m)
        limit = thr.max_throw_m(strength)
        if dist > limit + 1e-9:
            raise IllegalAction(f"R-6.10: {dist:.0f} m is beyond a Strength {strength} throw of {limit:g} m")
        self.check_parts(eid, Part("attack", int(weapon.speed), "prepared"))
        target_tn, range_mod = thr.throw_tn(dist, strength, tn("standard", self.ctx.scope))  # type: ignore[arg-type]
        pool = self.skill_pool(eid, weapon.skill, "dexterity")
        mods = list(pool.modifiers) + list(self.wound_mod(eid)) + list(self.mind_mods(eid))  # annoyed
        turn = w.peek(eid, Turn)
        if turn.moved_this_turn:
            mods.append(Modifier(-2, "running attack (R-5.4)") if turn.ran_this_turn
                        else Modifier(-1, "thrower walked (R-6.1)"))
        if w.peek(eid, Status).mounted:  # a rider's throw: R-6.1's firer modifiers, as the walk's above
            mods.append(Modifier(MOUNTED_MOD, "firer mounted (R-6.1)"))
        setup = ShotSetup(weapon=weapon, column=pool.column, row=pool.row, halve=pool.halve, tn=target_tn,
                          tn_mods=(range_mod,), result_mods=tuple(mods), distance_m=dist)
        return setup

    def throw_cells(self, eid: int, weapon: Weapon, box: tuple[range, range]) -> frozenset[geo.Cell]:
        """The cells in `box` (x range, y range, on the map) that `throw_setup` accepts a throw of `weapon` at,
        given that it accepts one at the thrower's own feet: its per-cell conditions alone (an open cell, in
        sight, within reach, R-6.10), as everything else it checks is about the thrower. One sight lookup per
        cell instead of a whole check (legality lists these; tests/test_legality_fast.py holds them equal)."""
        here = self.w.cell(eid)
        return self.throw_cells_at(here, thr.max_throw_m(self.w.peek(eid, Profile).traits["strength"][0]), box)

    def throw_cells_at(self, here: geo.Cell, reach_m: float, box: tuple[range, range]) -> frozenset[geo.Cell]:
        """`throw_cells` of a thrower at `here` who throws `reach_m` metres (thr.max_throw_m): it reads nothing
        else of the world, so legality may ask it later (`LazyCells`) with the same answer."""
        grid = self.ctx.grid
        limit = reach_m + 1e-9
        # A function of the map, the thrower's cell, the reach and the box alone: kept with the map's content.
        kept: dict[tuple[geo.Cell, float, int, int, int, int], frozenset[geo.Cell]] = \
            grid.kept.setdefault("throw_cells", {})
        key = (here, limit, box[0].start, box[0].stop, box[1].start, box[1].stop)
        out = kept.get(key)
        if out is None:
            if len(kept) >= THROW_CELLS_KEPT:
                kept.clear()
            out = kept[key] = self._throw_cells(here, limit, box)
        return out

    def throw_cells_among(self, here: geo.Cell, reach_m: float, box: tuple[range, range],
                          cells: Sequence[geo.Cell]) -> list[bool]:
        """Whether each of `cells` is among `throw_cells_at(here, reach_m, box)`, from the kept set if there is
        one, else by its per-cell conditions read for these cells only (`_throw_cells`' arithmetic, cell by
        cell the same: in the box, open, within reach, in sight by the map's sight table; `LazyCells.among`)."""
        grid = self.ctx.grid
        limit = reach_m + 1e-9
        kept = grid.kept.get("throw_cells")
        out = kept.get((here, limit, box[0].start, box[0].stop, box[1].start, box[1].stop)) if kept else None
        if out is not None:
            return [c in out for c in cells]
        got = [False] * len(cells)
        at = [i for i, (x, y) in enumerate(cells) if x in box[0] and y in box[1]]
        if not at:
            return got
        xs = np.array([cells[i][0] for i in at], dtype=np.intp)
        ys = np.array([cells[i][1] for i in at], dtype=np.intp)
        dist = geo.hypot_table(grid.width, grid.height)[np.abs(ys - here[1]), np.abs(xs - here[0])] * grid.cell_m
        keep = np.flatnonzero(~grid.blocks_sight[ys, xs] & ~(dist > limit))
        if len(keep):
            visible = sight_table(grid).codes_from(here, xs[keep], ys[keep]) & 1
            for j, v in zip(keep.tolist(), visible.tolist(), strict=True):
                got[at[j]] = bool(v)
        return got

    def _throw_cells(self, here: geo.Cell, limit: float, box: tuple[range, range]) -> frozenset[geo.Cell]:
        """`throw_cells` worked out: the open cells of the box within reach (`geo.distance_m`, looked up in
        `geo.hypot_table`: the same floats), then their sight from the thrower all at once (`SightTable.codes_from`:
        the table's sight, coded; pairs not worked out yet are worked out together)."""
        grid = self.ctx.grid
        ys, xs = np.mgrid[box[1].start:box[1].stop, box[0].start:box[0].stop]
        ys, xs = ys.ravel(), xs.ravel()
        dist = geo.hypot_table(grid.width, grid.height)[np.abs(ys - here[1]), np.abs(xs - here[0])] * grid.cell_m
        keep = ~grid.blocks_sight[ys, xs] & ~(dist > limit)
        ys, xs = ys[keep], xs[keep]
        if not len(ys):
            return frozenset()
        visible = (sight_table(grid).codes_from(here, xs, ys) & 1).astype(bool)
        return frozenset(zip(xs[visible].tolist(), ys[visible].tolist(), strict=True))

    def caught(self, land: geo.Cell, weapon: Weapon) -> list[tuple[int, float, geo.Sight]]:
        """Combatants the burst at `land` can harm, nearest first: in reach (armour keeps out the outer ring),
        with a straight line from the burst not stopped by a wall (R-6.9, docs/RULES-NOTES.md)."""
        grid = self.ctx.grid
        out = []
        for eid, _ in self.w.units():
            if self.w.get(eid, Health).dead:
                continue
            cell = self.w.cell(eid)
            if thr.in_blast(grid, weapon, land, cell, self.armoured(eid)) is not None:
                out.append((eid, geo.distance_m(land, cell, grid.cell_m), geo.sight(grid, land, cell)))
        out.sort(key=lambda t: (t[1], t[0]))
        return out

    def armoured(self, eid: int) -> bool:
        """Wears any armour with AV left (R-6.9: keeps out the outer ring of a burst)."""
        return any(any(piece.av.values()) for piece in self.w.get(eid, Armour).pieces)

    def throw(self, eid: int, action: Throw) -> None:
        """Throw: one draw places it (a miss scatters, R-6.10); each combatant the burst reaches draws a
        card for its damage (R-6.9, R-6.8)."""
        setup = self.throw_setup(eid, action)
        weapon = setup.weapon
        w = self.w
        _, ws = self.throwable(eid, action.item)
        turn = w.get(eid, Turn)
        turn.parts = self.check_parts(eid, Part("attack", int(weapon.speed), "prepared"))
        turn.acted = True
        grid = self.ctx.grid
        here, aim = w.cell(eid), (int(action.at[0]), int(action.at[1]))
        self.explode(eid, "throw", ["R-6.10", "R-3.3"], setup, ws, aim,
                     lambda draw: thr.place_throw(draw, setup, grid, here, aim))

    def explode(self, eid: int, kind: str, rules: list[str], setup: ShotSetup, ws: WeaponState, aim: geo.Cell,
                place_with: Callable[[Draw], thr.Placement], reliability: str | None = None,
                hand: str | None = None) -> None:
        """A thrown (`throw`) or launched (`launch`) explosive whose action is spent: one draw places it (its attack
        check may take a story chip, R-8.5), a miss scatters (R-6.10); the event; each combatant the burst reaches
        draws a card for its damage (R-6.9, R-6.8). `reliability` (a launcher's): the card's breakdown is read for it
        after the launch, as a shot's (R-4.8); a thrown grenade is not equipment that breaks down."""
        w, weapon = self.w, setup.weapon
        here = w.cell(eid)
        draw = self.ctx.randomizer.draw()
        if self.ctx.chips is not None:  # the attack check may take a story chip
            draw = self.ctx.chips.check_draw(self, eid, draw, setup.halve)
        place = place_with(draw)
        if self.ctx.chips is not None:
            self.ctx.chips.flush(self)  # the chip events come before the event they changed
        land, scatter = place.landed, place.scatter
        ws.rounds -= 1
        rd = w.get(eid, Readiness)
        rd.target, rd.aim = None, 0  # thrown or launched at a cell, not the readied weapon fired at a target
        face = w.get(eid, Facing)
        face.dx, face.dy = (aim[0] > here[0]) - (aim[0] < here[0]), (aim[1] > here[1]) - (aim[1] < here[1])
        rules = rules + (["R-4.9"] if scatter else []) + (["R-3.5"] if place.cf else [])
        broke = launched.broke_down(ws, draw, reliability)  # after the shot ({} when it did not)
        rules += ["R-4.8"] if broke else []
        victims = self.caught(land, weapon)
        self._event(
            kind, self.name(eid), tuple(rules), item=weapon.id, at=list(aim), distance_m=round(setup.distance_m, 2),
            tn=setup.tn, tn_modifiers=[m.to_json() for m in setup.tn_mods], column=setup.column, row=setup.row,
            halved=setup.halve, read=place.read, cf=place.cf, result=place.total, hit=place.hit,
            scatter=scatter.to_json() if scatter else None, landed=list(land), radius_m=weapon.blast_m,
            reach_m=thr.blast_reach_m(weapon), caught=[self.name(v) for v, _, _ in victims], left=ws.rounds,
            modifiers=[m.to_json() for m in setup.result_mods], **draw.record(), **broke,
            **({"hand": hand} if hand else {}),  # a launch by the other hand's launcher
        )
        self.ctx.randomizer.settle()
        for victim, dist, sight in victims:
            self._blast_hit(eid, victim, weapon, land, dist, sight)

    def _blast_hit(self, eid: int, victim: int, weapon: Weapon, land: geo.Cell, dist: float, sight: geo.Sight) -> None:
        """One combatant caught by a burst: its own card gives location, armour and damage (R-6.9)."""
        target = self._target_state(victim)
        column = thr.blast_column(weapon, dist, self.armoured(victim))
        if column is None:
            return
        draw = self.ctx.randomizer.draw()
        h = thr.resolve_blast(draw, weapon, column, target, cover=sight.cover, cover_av=sight.cover_av,
                              distance_m=dist)
        zone = "full" if dist <= weapon.blast_m + 1e-9 else "outer"
        rules = ["R-6.9", "R-6.8"] + (["R-6.6"] if h.cover else []) + (["R-6.7"] if h.layers else [])
        self._event(
            "blast", self.name(eid), tuple(rules), target=self.name(victim), item=weapon.id, at=list(land),
            distance_m=round(dist, 2), zone=zone, column=column, row=weapon.damage.row, cover=sight.cover,
            cover_av=sight.cover_av, location=h.location, ablation=h.layers, damage=h.damage, wounds=h.wounds,
            ct=h.ct, hits=[h.to_json()], **draw.record(),
        )
        self.ctx.randomizer.settle()
        self._apply_hits(victim, _Hits([h]))

