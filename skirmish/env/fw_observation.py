"""What an RL agent observes of a Future*World battle (docs/RL.md "Future*World"): planes over the map, read
from one side's `Battle.observe(side)` only. Fog is the rules' (R-9.9, docs/RULES-NOTES.md): an enemy out of
sight is drawn where the side last placed it with what showed of it then; an enemy's declaration and tacpack
split never show (its kit's usual screen does: the roster is known).

One float32 array of shape (height, width, channels), every value in [0, 1]; the map planes are FI's.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from skirmish.ecs.view import BattleView, UnitView
from skirmish.env.observation import MAP_CHANNELS, map_planes
from skirmish.rulesets.fw import ARMOURED_CLASSES, SCREEN_TYPES, FwUnitView, tables

UNIT_CHANNELS = (
    "own", "enemy_in_sight", "enemy_out_of_sight", "enemy_known", "down", "acting",
    "hp", "fallen", "unconscious", "dead", "blind", "dex", "moved", "jumped",
    *(f"armour_{c}" for c in ARMOURED_CLASSES), "generator", "effectors", "sensors",
    *(f"screen_{s}" for s in SCREEN_TYPES), "shots", "jump",
    "declared", "act_attack", "act_aid", "act_react", "act_program",
    "firearm", "bursts", "melee", "grenades", "missiles", "medikit", "jump_pack",
)
GLOBAL_CHANNELS = ("round", "declaring", "moving")
FW_CHANNELS = (*MAP_CHANNELS, *UNIT_CHANNELS, *GLOBAL_CHANNELS)
_CH = {name: i for i, name in enumerate(FW_CHANNELS)}

STAT_SCALE = 20.0  # DEX and the like: 3d6-ish, read as value / 20
ARMOUR_SCALE = 10.0
POINTS_SCALE = 10.0  # generator and EW ratings
MOVE_SCALE = 24.0  # the movement segment's metres
SPENT_SCALE = 4.0  # grenades and missiles left
ATTACK_ACTS = ("shoot", "burst", "melee", "throw", "launch")


class FwObserver:
    """Writes one side's observation for one map; the map planes are computed once."""

    channels = FW_CHANNELS

    def __init__(self, first: BattleView) -> None:
        self.grid = first.grid
        self.shape = (first.grid.height, first.grid.width, len(FW_CHANNELS))
        self._map = map_planes(first)
        self._weapons = tables().weapons

    def observe(self, view: BattleView, side: str, acting: str | None, declaring: bool) -> npt.NDArray[np.float32]:
        """The observation of `side` from its own view; `acting` is the figure whose decision it is (None if the
        side has none to make), `declaring` whether that decision is a declaration (else the movement segment)."""
        out = np.zeros(self.shape, dtype=np.float32)
        out[..., : len(MAP_CHANNELS)] = self._map
        own = [u for u in view.units if u.side == side and not u.out_of_action]
        for u in view.units:
            if isinstance(u.ext, FwUnitView):
                self._unit(out, view, u, u.ext, side, own, acting)
        limit = view.max_rounds
        out[..., _CH["round"]] = min(view.round / limit, 1.0) if limit else 0.0
        out[..., _CH["declaring"]] = float(declaring and acting is not None)
        out[..., _CH["moving"]] = float(not declaring and acting is not None)
        return out

    def _unit(self, out: npt.NDArray[np.float32], view: BattleView, u: UnitView, x: FwUnitView, side: str,
              own: list[UnitView], acting: str | None) -> None:
        cell = out[u.cell[1], u.cell[0]]
        if u.out_of_action:
            cell[_CH["down"]] = 1.0
        elif u.side == side:
            cell[_CH["own"]] = 1.0
        else:
            in_sight = not u.ghost and any(view.sight(me, u).visible for me in own)
            cell[_CH["enemy_in_sight" if in_sight else "enemy_out_of_sight"]] = 1.0
            cell[_CH["enemy_known"]] = float(side in u.known_to)
        cell[_CH["acting"]] = float(u.name == acting)
        cell[_CH["hp"]] = min(max(x.hp, 0) / x.CON, 1.0) if x.CON else 0.0
        for name, flag in (("fallen", x.fallen), ("unconscious", x.unconscious), ("dead", x.dead),
                           ("blind", x.blind_until >= view.round > 0), ("jumped", x.jumped),
                           ("medikit", x.medikit), ("jump_pack", x.jump_pack)):
            cell[_CH[name]] = float(flag)
        cell[_CH["dex"]] = min(x.DEX / STAT_SCALE, 1.0)
        cell[_CH["moved"]] = min(x.moved_m / MOVE_SCALE, 1.0)
        for cls, stops in x.armour_stops:
            if f"armour_{cls}" in _CH:
                cell[_CH[f"armour_{cls}"]] = min(stops / ARMOUR_SCALE, 1.0)
        cell[_CH["generator"]] = min(x.generator / POINTS_SCALE, 1.0)
        cell[_CH["effectors"]] = min(x.effectors / POINTS_SCALE, 1.0)
        cell[_CH["sensors"]] = min(x.sensors / POINTS_SCALE, 1.0)
        shown = x.full and x.declared  # its own split; else the kit's usual screen, as the roster shows it
        kind, points = (x.screen, x.screen_points) if shown else (x.default_screen, x.default_points)
        if kind in SCREEN_TYPES and x.generator:
            cell[_CH[f"screen_{kind}"]] = min(points / x.generator, 1.0)
        if shown:
            g = max(x.generator, 1)
            cell[_CH["shots"]] = min(x.shots / g, 1.0)
            cell[_CH["jump"]] = min(x.jump / g, 1.0)
            cell[_CH["declared"]] = 1.0
            acts = [a for a, _ in x.acts]
            cell[_CH["act_attack"]] = float(any(a in ATTACK_ACTS for a in acts))
            for a in ("aid", "react", "program"):
                cell[_CH[f"act_{a}"]] = float(a in acts)
        classes = [self._weapons[w].weapon_class for w in x.weapons if w in self._weapons]
        cell[_CH["firearm"]] = float(any(c in ("projectile", "laser", "blaster") for c in classes))
        cell[_CH["bursts"]] = float(any(self._weapons[w].burst for w in x.weapons if w in self._weapons))
        cell[_CH["melee"]] = float("melee" in classes)
        for name, cls in (("grenades", "grenade"), ("missiles", "missile")):
            left = sum(x.left(w, True) for w in sorted(set(x.weapons))
                       if w in self._weapons and self._weapons[w].weapon_class == cls)
            cell[_CH[name]] = min(left / SPENT_SCALE, 1.0)
