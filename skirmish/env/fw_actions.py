"""The fixed action index of a Future*World scenario (docs/RL.md "Future*World"): one Discrete space, each
index one fw answer for the figure whose decision it is; the mask comes from fw legality (`Battle.legal_actions`
lists the declarations, `Battle.check` puts the table's other splits to the same rules, STYLE 13).

Blocks, in order:

    intent[first, second, screen, ew] · jump[points, screen] · move[y, x] · end
    [· mount[car] · dismount · drive[second, split] · mountfire[mount, act, target]: grav cars, fw_car_actions]

A declaration (R-9.2, R-9.3) is two slots and a tacpack split (R-9.8, R-9.9). A slot is "none", "react",
"program" (a whole round of EW programming), or an act at a figure: shoot, burst, melee, throw, launch or aid ×
the scenario's figures (all sides, in order; the weapon is the figure's first of the class the act takes, as
the rules pick it). The split: `screen` one of none, kinetic, diffusion, magnetic, which gets the generator's
points left after the shots and EW; `ew` one of none, sensors, cm, dccm, each with as many points as the
computer's ratings and the generator allow (DCCM beamed at the first act's target). `jump[p, screen]` declares a
leap with p points (R-9.11: a jump-pack user does nothing else), the rest of the generator on `screen` (none: no
screen). `move` and `end` answer the movement segment.

The layout depends on the scenario only (map size, figures, the largest generator), never on the seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.core.legal import LegalActions
from skirmish.ecs.view import BattleView
from skirmish.env.actions import BlockLayout
from skirmish.env.fw_car_actions import CarBlocks
from skirmish.rules.actions import Action, EndTurn, Move
from skirmish.rulesets.fw import ATTACK_CLASSES, ATTACKS, SCREEN_TYPES, FwIntent, FwUnitView, tables

FIXED_SLOTS = ("none", "react", "program")  # the slots that name no figure
TARGETED = ("shoot", "burst", "melee", "throw", "launch", "aid")  # each × every figure of the scenario
SCREENS = ("none", *SCREEN_TYPES)
EW = ("none", "sensors", "cm", "dccm")

Slot = tuple[str, str | None]


class FwActionTable(BlockLayout):
    """Index <-> fw answer for one scenario (see the module's docstring). `kits` holds each figure's weapons
    and tacpack ratings (a side knows its own figures' kit; the roster shows the others'), from which an
    index's screen and EW points are worked out as the rules count them (R-9.8)."""

    def __init__(self, width: int, height: int, units: Sequence[str], kits: dict[str, FwUnitView],
                 cars: Sequence[Any] = ()) -> None:
        self.width, self.height = width, height
        self.units = tuple(units)
        self.kits = dict(kits)
        self.slots: tuple[Slot, ...] = (*((s, None) for s in FIXED_SLOTS),
                                        *((act, u) for act in TARGETED for u in self.units))
        self._slot_index = {s: i for i, s in enumerate(self.slots)}
        self.screens, self.ew = SCREENS, EW
        self.points = max((k.generator for k in self.kits.values()), default=0)
        n = len(self.slots)
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("intent", (n, n, len(SCREENS), len(EW))), ("jump", (max(1, self.points), len(SCREENS))),
            ("move", (height, width)), ("end", ())]
        self.car = CarBlocks(self.units, self.kits, cars, self._shots)
        self._lay_out(shapes + self.car.shapes())  # the grav cars' blocks after the others (fw_car_actions)
        weapons = tables().weapons
        self._energy = {name: {act: next((weapons[w].energy for w in k.weapons
                                          if w in weapons and weapons[w].weapon_class in classes), 0)
                               for act, classes in ATTACK_CLASSES.items()} for name, k in self.kits.items()}

    @classmethod
    def for_views(cls, views: Sequence[BattleView]) -> FwActionTable:
        """The table for a battle at its start, from each side's own view."""
        first = views[0]
        kits = {u.name: u.ext for v, side in zip(views, first.sides, strict=True) for u in v.units
                if u.side == side and isinstance(u.ext, FwUnitView)}
        cars = {c.name: c for v in views for u in v.units if isinstance(u.ext, FwUnitView) for c in u.ext.cars}
        return cls(first.grid.width, first.grid.height, [u.name for u in first.units], kits, list(cars.values()))

    # ------------------------------------------------------------------ the split an index stands for
    def _shots(self, unit: str, acts: Sequence[Slot]) -> int:
        """Points the attacks draw: the first attack's weapon a shot, x3 a burst (R-9.8, as legality counts)."""
        first = next((a for a, _ in acts if a in ATTACKS), None)
        if first is None:
            return 0
        energy = self._energy.get(unit, {}).get(first, 0)
        return sum(energy * (3 if a == "burst" else 1) for a, _ in acts if a in ATTACKS)

    def _intent(self, unit: str, first: Slot, second: Slot, screen: str, ew: str) -> FwIntent:
        kit = self.kits.get(unit)
        generator, effectors, sensors = (kit.generator, kit.effectors, kit.sensors) if kit else (0, 0, 0)
        acts = [s for s in (first, second) if s[0] != "none"]
        spare = generator - self._shots(unit, acts)
        cm = dccm = sens = 0
        dccm_at = None
        if ew == "sensors":
            sens = max(0, min(sensors, spare))
        elif ew == "cm":
            cm = max(0, min(effectors, spare))
        elif ew == "dccm":
            dccm = max(0, min(effectors, sensors, spare))
            dccm_at = first[1] if dccm else None
        spare -= cm + dccm + sens
        then = None if second[0] == "none" else second[0]
        return FwIntent(unit, first[0], first[1], then=then, then_target=second[1] if then else None,
                        screen=screen, points=max(0, spare) if screen != "none" else 0, cm=cm, dccm=dccm,
                        dccm_at=dccm_at, sensors=sens)

    # ------------------------------------------------------------------ index <-> action
    def _slot(self, act: str | None, target: str | None) -> int:
        key: Slot = (act or "none", None if (act or "none") in FIXED_SLOTS else target)
        return self._slot_index[key]

    def encode(self, action: Action) -> int:
        """The index of an answer (KeyError if the table has no place for it: a split other than the table's,
        a weapon named, a figure the scenario does not have)."""
        if isinstance(action, FwIntent) and self.car.is_car(action):
            block, params = self.car.params(action)
            index = self._at(block, *params)
            if self.decode(index, action.unit) != action:  # another split, weapon or screen than the table's
                raise KeyError(f"no index for {action}")
            return index
        if isinstance(action, FwIntent):
            if action.jump:
                if action.acts() or action.jump > self.points:
                    raise KeyError(f"no index for {action}")
                index = self._at("jump", action.jump - 1, SCREENS.index(action.screen))
                if self.decode(index, action.unit) != action:  # EW with a leap, a screen short of the rest
                    raise KeyError(f"no index for {action}")
                return index
            first = self._slot(action.act, action.target)
            second = self._slot(action.then, action.then_target)
            ew = "sensors" if action.sensors else "cm" if action.cm else "dccm" if action.dccm else "none"
            index = self._at("intent", first, second, SCREENS.index(action.screen), EW.index(ew))
            if action.weapon is not None or self.decode(index, action.unit) != action:
                raise KeyError(f"no index for {action}")
            return index
        if isinstance(action, Move):
            return self._at("move", action.to[1], action.to[0])
        if isinstance(action, EndTurn):
            return self._at("end")
        raise KeyError(f"no index for {action}")

    def decode(self, index: int, unit: str) -> Action:
        """The answer at `index`, given by `unit` (ValueError if the index is outside the table)."""
        block, p = self._locate(index)
        match block.name:
            case "intent":
                return self._intent(unit, self.slots[p[0]], self.slots[p[1]], SCREENS[p[2]], EW[p[3]])
            case "jump":
                return self._leap(unit, p[0] + 1, SCREENS[p[1]])
            case "move":
                return Move(unit, (p[1], p[0]))
            case "end":
                return EndTurn(unit)
        return self.car.decode(block.name, p, unit)

    def _leap(self, unit: str, points: int, screen: str) -> FwIntent:
        """A leap with `points` of the generator, the rest on `screen` (R-9.8, R-9.11)."""
        if screen == "none":
            return FwIntent(unit, jump=points)
        kit = self.kits.get(unit)
        rest = (kit.generator if kit is not None else 0) - points
        return FwIntent(unit, jump=points, screen=screen, points=max(0, rest))

    def describe(self, index: int, unit: str = "<unit>") -> str:
        """The answer at `index` in its text form (for logs and docs)."""
        return str(self.decode(index, unit))

    def _canonical(self, action: Action) -> int | None:
        try:
            return self.encode(action)
        except KeyError:
            return None

    # ------------------------------------------------------------------ the mask
    def _mask_car(self, out: npt.NDArray[np.int8], listed: set[int], unit: str,
                  check: Callable[[Action], Any]) -> None:
        """A driver's or a mount's gunner's other answers in the car blocks (R-9.12), put to the same rules as
        the intent block's, for a figure aboard: a drive's other seconds (an enemy placed out of sight) and car
        splits, a mount fire at an enemy placed out of sight. A split only adds to what the bare drive draws, so the splits of a
        refused bare drive are not asked."""
        aboard = "dismount" in self.block and any(self.block["dismount"].start <= i < self.size for i in listed)
        for name in ("drive", "mountfire"):
            b = self.block.get(name)
            if b is None or not aboard:  # (a figure aboard a car has its dismount, drive or mount fire listed)
                continue
            rows = len(self.car.splits) if name == "drive" else 1
            for base in range(b.start, b.stop, rows):
                if not out[base]:
                    if check(self.decode(base, unit)) is not None:
                        continue
                    out[base] = 1
                for j in range(base + 1, base + rows):
                    if not out[j] and check(self.decode(j, unit)) is None:
                        out[j] = 1

    def mask(self, legal: LegalActions, check: Callable[[Action], Any] | None = None) -> npt.NDArray[np.int8]:
        """1 at every index whose answer fw legality accepts: the declarations `FwLegal.intents` lists, and the
        table's others put to the same rules through `check` (`Battle.check`: a shot at an enemy the side
        placed out of sight, the EW programs, a round of programming, leaps of fewer points). A split only adds
        to what the bare declaration (no screen, no EW) draws, so the splits of a refused bare one are not
        asked. In the movement segment the cells `walk` lists and `end`. All 0 when the figure has no decision."""
        out = np.zeros(self.size, dtype=np.int8)
        unit = legal.unit
        if legal.kind == "declare":
            listed = {i for i in (self._canonical(it) for it in getattr(legal, "intents", ())) if i is not None}
            for i in listed:
                out[i] = 1
            if check is None:
                return out
            per = len(SCREENS) * len(EW)

            def accepted(first: int, second: int) -> bool:
                base = self._at("intent", first, second, 0, 0)
                return bool(out[base]) or check(self.decode(base, unit)) is None

            singles = [f for f in range(len(self.slots)) if accepted(f, 0)]
            bases = [(f, 0) for f in singles]
            bases += [(f, s) for f in singles for s in singles if f and s and f != s and accepted(f, s)]
            for f, s in bases:
                base = self._at("intent", f, s, 0, 0)
                for j in range(base, base + per):
                    if not out[j]:
                        a = self.decode(j, unit)
                        if self.encode(a) == j and check(a) is None:
                            out[j] = 1
            self._mask_car(out, listed, unit, check)
            kit = self.kits.get(unit)
            if kit is not None and kit.jump_pack:
                for points in range(1, kit.generator + 1):
                    for screen in range(len(SCREENS)):
                        j = self._at("jump", points - 1, screen)
                        if not out[j]:
                            a = self.decode(j, unit)
                            if self.encode(a) == j and check(a) is None:
                                out[j] = 1
            return out
        if legal.kind != "act":
            return out
        move = self.block["move"]
        if legal.walk:
            xs, ys = np.array(sorted(legal.walk), dtype=np.intp).T
            out[move.start + ys * self.width + xs] = 1
        out[self._at("end")] = 1
        return out
