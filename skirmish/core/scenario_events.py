"""The events of a scenario's objectives and triggers (issue 15; docs/EVENTS.md): `objective` (an objective is
done or failed) and `scenario_trigger` (a trigger fired one of its effects). Registered when skirmish.core.events is
imported, like the frame's own types."""

from __future__ import annotations

from dataclasses import dataclass

from skirmish.core.events import Event, register


@register("objective")
@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectiveEvent(Event):
    """A side's objective is done or failed (`state`), what it is worth and why (`why`)."""

    side: str
    objective: str
    kind: str
    state: str  # done | failed
    points: int
    why: str

    def describe(self) -> str:
        worth = f", {self.points} points" if self.state == "done" and self.points else ""
        return f"{self.where()} objective {self.objective} ({self.side}) {self.state.upper()}: {self.why}{worth}"

    def headline(self) -> str:
        return f"{self.side}: {self.objective} {self.state}"


@register("scenario_trigger")
@dataclass(frozen=True, slots=True, kw_only=True)
class ScenarioTriggerEvent(Event):
    """A trigger fired one of its effects (`effect`: reinforce, message, ai, door, end) and what it did (`text`);
    `units` the reinforcements' names and cells, `cells` the door's cells that changed, `side` whose reinforcements
    or AI it is (the board's fog keeps those lines and toasts to that side: skirmish.ui.fog.LogFog)."""

    trigger: str
    effect: str
    text: str
    units: dict[str, list[int]] | None = None
    cells: list[list[int]] | None = None
    side: str | None = None  # the side a reinforcement or AI change is for: under fog, only that side reads it

    def describe(self) -> str:
        return f"{self.where()} trigger {self.trigger}: {self.text}"

    def headline(self) -> str:
        return self.text if self.effect == "message" else f"{self.trigger}: {self.text}"
