"""Deployment zones (docs/FILES.md "Deployment"): an AI side's units placed by the deterministic rule before the
battle is made (`deployed`), and a person's side placing its own in a first step of round 1 (`move U X,Y` within
the zone, any number, then `end U`: answers like any other, so a record replays them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.content.zones import deploy
from skirmish.core.errors import IllegalAction
from skirmish.core.flow import RoundTable, Step
from skirmish.core.legal import LegalActions
from skirmish.ecs.components import Identity, Position
from skirmish.objectives.base import Cell, PlayBase
from skirmish.rules.actions import EndTurn, Move

if TYPE_CHECKING:
    from skirmish.content.scenario import Scenario


def deployed(scenario: Scenario) -> Scenario:
    """The scenario with each side that has a `deployment` zone placed inside it (an AI side's rule, and the
    board's starting places for a person): `content.zones.deploy`, sides in file order."""
    spec = scenario.spec
    if not any(s.deployment for s in spec.sides):
        return scenario
    taken: set[Cell] = {(u.at[0], u.at[1]) for s in spec.sides if not s.deployment for u in s.units}
    sides = []
    for side in spec.sides:
        if side.deployment is None:
            sides.append(side)
            continue
        cells = deploy(scenario.zones[side.deployment], [(u.at[0], u.at[1]) for u in side.units], taken, scenario.grid)
        taken.update(cells)
        units = [u.model_copy(update={"at": c}) for u, c in zip(side.units, cells, strict=True)]
        sides.append(side.model_copy(update={"units": units}))
    out = scenario.with_options()
    out.spec = spec.model_copy(update={"sides": sides})
    return out



class Deployment(PlayBase):
    """A person's deployment step."""

    DEPLOY = "deploy"  # the request kind: `move U X,Y` within the side's deployment zone, any number; `end U`

    def deploying(self, sides: tuple[str, ...]) -> dict[str, str]:
        """side -> its deployment zone, for the sides (of `sides`, a person's) that have one."""
        spec = self.b.scenario.spec
        return {s.name: s.deployment for s in spec.sides if s.name in sides and s.deployment}

    def with_deployment(self, rows: RoundTable, sides: tuple[str, ...]) -> RoundTable:
        """The round table with a first step in round 1 where `sides`' units are placed (each asked in turn)."""
        zones = self.deploying(sides)
        if not zones:
            return rows
        w = self.b.world

        def order() -> list[int]:
            if self.b.ctx.round != 1:
                return []
            return [eid for eid, ident in w.units() if ident.side in zones]

        def who(eid: int) -> tuple[str, str]:
            ident = w.peek(eid, Identity)
            return ident.name, ident.side

        def place(eid: int, action: Any) -> bool:
            if isinstance(action, EndTurn):
                return True
            ident = w.peek(eid, Identity)
            zone = zones[ident.side]
            if not isinstance(action, Move):
                raise IllegalAction(f"deployment: place {ident.name} in {zone} (move {ident.name} X,Y), or end "
                                    f"{ident.name}")
            cell = (int(action.to[0]), int(action.to[1]))
            if cell not in self.deploy_cells(eid):
                raise IllegalAction(f"deployment: {cell[0]},{cell[1]} is not a free cell of {zone}")
            pos = w.get(eid, Position)
            pos.x, pos.y = cell
            self.inside = self._inside()  # placed, not stepped in: no `enters` or `leaves` (as the AI rule's places)
            refresh = getattr(self.b.sys, "refresh_cover", None)
            if refresh is not None:
                refresh()
            return False

        step = Step("deployment", order=order, kind=self.DEPLOY, who=who, answer=place)
        return RoundTable(rows.begin_round, (step, *rows.steps))

    def deploy_cells(self, eid: int) -> frozenset[Cell]:
        """Where a unit being deployed may go: the free, passable cells of its side's zone (and its own)."""
        w, grid = self.b.world, self.b.ctx.grid
        side = w.peek(eid, Identity).side
        zone = next((s.deployment for s in self.b.scenario.spec.sides if s.name == side), None)
        taken = w.occupied(eid)
        return frozenset(c for c in self.zones.get(zone or "", ()) if grid.passable(c) and c not in taken)

    def deploy_legal(self, unit: str) -> LegalActions:
        """A deployment request's answers: the cells (as `walk`) and ending (`end U`)."""
        return LegalActions(unit, "act", walk=self.deploy_cells(self.b.world.entity(unit)))

