"""The battle screen's walk and run reach and the route of a drag (a move, or a charge onto an enemy, R-5.4, R-5.6),
asked of the Battle (`legal_actions`, `preview_move`, STYLE 13) and kept until the battle moves on (split from
menus.py, behaviour unchanged)."""

from __future__ import annotations

import numpy as np

from skirmish.core.errors import IllegalAction
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.actions import Action
from skirmish.ui import fi_melee
from skirmish.ui.battle.state import BattleState


class BattleReach(BattleState):
    """The reach of the unit whose turn it is and the route under the pointer, kept by the battle's history."""

    # ------------------------------------------------------------------ reach and route of a drag
    def _reach_for(self, view: BattleView, unit: UnitView) -> tuple[np.ndarray, np.ndarray] | None:
        key = (self.session.generation, len(self.session.battle.history), unit.name)
        if self._reach_key != key:
            self._reach_key = key
            self._reach = None
            legal = self.session.battle.legal_actions(unit.name)  # the rules' own answer (STYLE 13)
            if legal.walk or legal.run:
                grid = view.grid
                walk = np.zeros((grid.height, grid.width), dtype=bool)
                reach = np.zeros((grid.height, grid.width), dtype=bool)
                for x, y in legal.walk:
                    walk[y, x] = reach[y, x] = True
                for x, y in legal.run:
                    reach[y, x] = True
                self._reach = (walk, reach)
        return self._reach

    def _charge_at(self, cell: tuple[int, int]) -> Action | None:
        """The charge a drag dropped on `cell` makes (an enemy there it may charge), or None (R-5.4)."""
        return fi_melee.charge_on(self.session.battle, self.view_now(), self.session.human_request(), cell)

    def _route_to(self, cell: tuple[int, int]) -> tuple[list[tuple[int, int]], bool, str]:
        key = (self.session.generation, len(self.session.battle.history), cell)
        if self._route_key != key:
            self._route_key = key
            charge = self._charge_at(cell)
            if charge is not None:  # onto an enemy: the charge's route to the cell it strikes from
                try:
                    path, metres, _ = self.session.battle.preview_move(charge.at)  # type: ignore[attr-defined]
                    self._route = ([*path, cell], True, f"charge {metres:.1f} m")
                    return self._route
                except IllegalAction:
                    pass
            try:
                path, metres, running = self.session.battle.preview_move(cell)
                self._route = (path, True, f"{'run' if running else 'walk'} {metres:.1f} m")
            except IllegalAction as exc:
                self._route = ([], False, str(exc))
        return self._route
