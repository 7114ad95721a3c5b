"""The state a scenario's objectives and triggers keep in one battle, and what they read of the world (standing,
fallen, extracted units; points). skirmish.objectives.Play builds on it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from skirmish.content.objectives import Objective, Trigger
from skirmish.content.zones import Cells, objective_names
from skirmish.ecs.components import Health, Identity

if TYPE_CHECKING:
    from skirmish.battle import Battle

Cell = tuple[int, int]


@dataclass
class ObjectiveState:
    """One objective's state in a battle: open, done or failed, and what it counted."""

    side: str
    name: str
    spec: Objective
    state: str = "open"
    streak: int = 0  # hold: rounds held in a row
    out: list[str] = field(default_factory=list)  # extract: the units it took out


class PlayBase:
    """The objectives and triggers of one battle: their state, and the world as they read it."""

    def __init__(self, battle: Battle) -> None:
        self.b = battle
        spec = battle.scenario.spec
        self.zones: dict[str, Cells] = dict(battle.scenario.zones)
        self.zone_sets = {name: frozenset(cells) for name, cells in self.zones.items()}
        specs = [o for s in spec.sides for o in s.objectives]
        self.objectives = [ObjectiveState(side, name, o) for (side, name, _), o in zip(objective_names(spec), specs,
                                                                                     strict=True)]
        self.any_objectives = bool(self.objectives)
        self.triggers: list[Trigger] = list(spec.triggers)
        self.fired: set[int] = set()  # triggers (by index) that fired (a `once` one fires no more)
        self.was: dict[int, bool] = {}  # a condition's truth at the last check (it fires when it becomes true)
        self.extracted: dict[str, str] = {}  # unit -> side: left the battle through an extraction zone
        self.arriving: list[tuple[str, str, str, list[Any]]] = []  # (trigger, side, zone, units) for next round
        self.ai: dict[str, tuple[str | None, tuple[str, ...]]] = {}  # side -> (personality, orders) from triggers
        self.decider: str | None = None  # the objective that decided the battle
        self._won: list[tuple[ObjectiveState, str]] | None = None  # `wins` objectives done in the check under way (`check`)
        self.inside = self._inside()  # zone -> the standing units in it, at the last check

    # ------------------------------------------------------------------ reading the world
    def _units(self) -> list[tuple[int, Identity, bool]]:
        w = self.b.world
        return [(eid, ident, not w.peek(eid, Health).out_of_action and ident.name not in self.extracted)
                for eid, ident in w.units()]

    def _inside(self) -> dict[str, frozenset[str]]:
        w = self.b.world
        standing = [(ident.name, w.cell(eid)) for eid, ident, up in self._units() if up]
        return {z: frozenset(n for n, c in standing if c in cells) for z, cells in sorted(self.zone_sets.items())}

    def fallen(self, name: str) -> bool:
        """Out of action and not extracted (False for a reinforcement that has not arrived yet)."""
        w = self.b.world
        return name not in self.extracted and w.has(name) and w.peek(w.entity(name), Health).out_of_action

    def standing(self) -> dict[str, int]:
        """Units on the board and in action, by side."""
        out = dict.fromkeys(self.b.sides, 0)
        for _, ident, up in self._units():
            out[ident.side] += up
        return out

    def casualties(self) -> dict[str, int]:
        """Units out of action, not counting the extracted, by side."""
        out = dict.fromkeys(self.b.sides, 0)
        for _, ident, up in self._units():
            out[ident.side] += not up and ident.name not in self.extracted
        return out

    def points(self) -> dict[str, int]:
        """Each side's points: its done objectives'."""
        out = dict.fromkeys(self.b.sides, 0)
        for o in self.objectives:
            if o.state == "done":
                out[o.side] += o.spec.points
        return out

