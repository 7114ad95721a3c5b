"""What an RL agent observes (docs/RL.md): planes over the map, read from one side's `Battle.observe(side)`
only, so whatever that view hides (fog of war, issue 11 item 4) the observation hides too.

One float32 array of shape (height, width, channels), every value in [0, 1] (PettingZoo's classic games
use the same layout). Units are drawn on their cell (one unit per cell: bodies keep theirs), each of their
attributes a plane; the round, phase and kind of decision are constant planes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from skirmish.ecs.view import BattleView, UnitView
from skirmish.rulesets.fi import DECLARATIONS, INCAPACITATED_AT, PHASES, ranged_cover

# The planes, in channel order (docs/RL.md says what each holds).
MAP_CHANNELS = ("passable", "ease", "blocks_sight", "cover", "cover_av")
UNIT_CHANNELS = (
    "own", "enemy_in_sight", "enemy_out_of_sight", "enemy_known", "down", "acting",
    "wounds", "ct", "rounds", "magazines", "jammed", "prone", "stunned", "hesitating", "aim", "waiting",
    *(f"declared_{d}" for d in DECLARATIONS), "moved", "armour", "unit_cover", "screen", "throwables",
    "range", "automatic",
)
GLOBAL_CHANNELS = ("round", "phase_none", *(f"phase_{p}" for p in PHASES), "declaring")
# Future Imperfect's close fight and covering fire (issue 14), after the others so every earlier channel stands:
# a unit entangled, tripped (down until it rises), closed inside an enemy's longer weapon, its active defence's
# result (/ 20); the cells the side's own covering fire holds (R-6.12; an enemy's is an intention, never shown).
FI_CHANNELS = ("entangled", "tripped", "closed_in", "defence", "covered")
CHANNELS = (*MAP_CHANNELS, *UNIT_CHANNELS, *GLOBAL_CHANNELS, *FI_CHANNELS)
# Mounts (R-6.1 mounts), last and only in a scenario with `mounts:` (every other scenario's shape stands): the cells of
# the riderless mounts the side's view holds, the cells of the riders it shows on a mount, and at each mount's cell
# its walk (/ MOUNT_WALK_SCALE m).
MOUNT_CHANNELS = ("mount", "mounted", "mount_walk")
_CH = {name: i for i, name in enumerate((*CHANNELS, *MOUNT_CHANNELS))}

COVER_AV_SCALE = 10.0  # cover and armour values are read as AV / 10, capped at 1
MAGAZINES_SCALE = 4.0
AIM_SCALE = 3.0
MOVED_SCALE = 30.0  # metres
THROWABLES_SCALE = 4.0
RANGE_SCALE = 50.0  # range increment in metres
DEFENCE_SCALE = 20.0  # an active defence's result
MOUNT_WALK_SCALE = 30.0  # a mount's walk in metres (a bike's)
_COVER = {"none": 0.0, "low": 0.5, "high": 1.0}


def map_planes(view: BattleView) -> npt.NDArray[np.float32]:
    """The map's planes (MAP_CHANNELS), the same for every side and decision (fw's observer uses them too)."""
    grid = view.grid
    cost = grid.move_cost
    planes = np.zeros((grid.height, grid.width, len(MAP_CHANNELS)), dtype=np.float32)
    planes[..., 0] = cost > 0
    planes[..., 1] = np.where(cost > 0, 1.0 / np.maximum(cost, 1.0), 0.0)
    planes[..., 2] = grid.blocks_sight
    planes[..., 3] = grid.cover / 2.0
    planes[..., 4] = np.minimum(grid.cover_av / COVER_AV_SCALE, 1.0)
    return planes


class Observer:
    """Writes one side's observation for one map; the map planes are computed once. `mounts`: the scenario has
    mounts, and the observation their planes (MOUNT_CHANNELS, last)."""

    def __init__(self, first: BattleView, mounts: bool = False) -> None:
        self.grid = first.grid
        self.mounts = mounts
        self.channels = (*CHANNELS, *MOUNT_CHANNELS) if mounts else CHANNELS
        self.shape = (first.grid.height, first.grid.width, len(self.channels))
        self._map = map_planes(first)

    def observe(self, view: BattleView, side: str, acting: str | None, declaring: bool) -> npt.NDArray[np.float32]:
        """The observation of `side` from its own view; `acting` is the unit whose decision it is (None if the
        side has none to make), `declaring` whether that decision is a declaration."""
        out = np.zeros(self.shape, dtype=np.float32)
        out[..., : len(MAP_CHANNELS)] = self._map
        own = [u for u in view.units if u.side == side and not u.out_of_action]
        for u in view.units:
            self._unit(out, view, u, side, own, acting)
        limit = view.max_rounds
        out[..., _CH["round"]] = min(view.round / limit, 1.0) if limit else 0.0
        out[..., _CH["phase_none" if view.phase is None else f"phase_{view.phase}"]] = 1.0
        out[..., _CH["declaring"]] = float(declaring and acting is not None)
        for u in own:
            if u.covering is not None and u.weapon is not None:
                self._covered(out, u.covering, ranged_cover.area_m(u.weapon), view.grid.cell_m)
        if self.mounts:
            for m in view.mounts:  # (the side's view: those it sees, and where it last saw the others)
                x, y = m.cell
                out[y, x, _CH["mounted" if m.rider is not None else "mount"]] = 1.0
                out[y, x, _CH["mount_walk"]] = min(m.move_m / MOUNT_WALK_SCALE, 1.0)
        return out

    def _covered(self, out: npt.NDArray[np.float32], covering: tuple[int, int, int], radius_m: float,
                 cell_m: float) -> None:
        """The `covered` plane: the cells of a covered area (R-6.12's own test), on the map."""
        cx, cy, _ = covering
        r = int(radius_m / cell_m) + 1
        h, w = out.shape[:2]
        for y in range(max(0, cy - r), min(h, cy + r + 1)):
            for x in range(max(0, cx - r), min(w, cx + r + 1)):
                if ranged_cover.inside((cx, cy), (x, y), radius_m, cell_m):
                    out[y, x, _CH["covered"]] = 1.0

    def _unit(self, out: npt.NDArray[np.float32], view: BattleView, u: UnitView, side: str,
              own: list[UnitView], acting: str | None) -> None:
        x, y = u.cell
        cell = out[y, x]
        if u.out_of_action:
            cell[_CH["down"]] = 1.0
        elif u.side == side:
            cell[_CH["own"]] = 1.0
        else:
            in_sight = any(view.sight(me, u).visible for me in own)
            cell[_CH["enemy_in_sight" if in_sight else "enemy_out_of_sight"]] = 1.0
            cell[_CH["enemy_known"]] = float(side in u.known_to)
        cell[_CH["acting"]] = float(u.name == acting)
        cell[_CH["wounds"]] = min(u.wounds / INCAPACITATED_AT, 1.0)
        cell[_CH["ct"]] = u.ct / u.ct_max if u.ct_max else 0.0
        w = u.weapon
        if w is not None:
            cell[_CH["rounds"]] = min(u.rounds / w.magazine, 1.0) if w.magazine else 0.0
            cell[_CH["range"]] = min(w.range_inc_m / RANGE_SCALE, 1.0)
            cell[_CH["automatic"]] = float(w.automatic)
        cell[_CH["magazines"]] = min(u.magazines / MAGAZINES_SCALE, 1.0)
        cell[_CH["jammed"]] = float(u.jammed)
        cell[_CH["prone"]] = float(u.prone)
        cell[_CH["stunned"]] = float(u.stunned)
        cell[_CH["hesitating"]] = float(u.hesitating)
        cell[_CH["aim"]] = min(u.aim / AIM_SCALE, 1.0)
        cell[_CH["waiting"]] = float(u.waiting is not None)
        if u.declared in DECLARATIONS:
            cell[_CH[f"declared_{u.declared}"]] = 1.0
        cell[_CH["moved"]] = min(u.moved_m / MOVED_SCALE, 1.0)
        if u.armour:
            cell[_CH["armour"]] = min(sum(av for _, _, av in u.armour) / len(u.armour) / COVER_AV_SCALE, 1.0)
        cell[_CH["unit_cover"]] = _COVER.get(u.cover, 0.0)
        cell[_CH["screen"]] = min(u.screen_points / u.tacpack_generator, 1.0) if u.tacpack_generator else 0.0
        cell[_CH["throwables"]] = min(sum(n for _, n in u.throwables) / THROWABLES_SCALE, 1.0)
        m = u.melee
        if m is not None:
            cell[_CH["entangled"]] = float(m.entangled_by is not None)
            cell[_CH["tripped"]] = float(m.down)
            cell[_CH["closed_in"]] = float(bool(m.inside))
            # a result at or below zero (a low draw, -4 standing) helps no one and stays in the box: 0
            cell[_CH["defence"]] = min(max(m.defence, 0) / DEFENCE_SCALE, 1.0) if m.defence is not None else 0.0
