"""Future Imperfect's events (C-3, R-10.2), registered when this module is imported, with their log text: the
turn's own here (declaration, initiative, moves, triggers, waits, aims, reloads, tacpack), the combat events
(attack, throw, blast, concussion, out of action) in skirmish.rules.fi.combat_events, imported and named here.

Field order is the order the event's JSON is written in (tests/data/golden keeps it byte for byte). A field
whose default is None is written only when it has a value; `draw` writes what was turned or rolled in its
place (the card and its chains, or the dice).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from skirmish.core.events import FLAT, Event, register
from skirmish.core.reads import CheckRead, DrawRecord, Mod
from skirmish.rules.fi import hand_events as _hand_events  # noqa: F401  (registers the R-5.8 events)
from skirmish.rules.fi import hold_events as _hold_events  # noqa: F401  (registers R-7.7's grip event)
from skirmish.rules.fi import waiting as wt
from skirmish.rules.fi.combat_events import AttackEvent, BlastEvent, ConcussionEvent, OutOfActionEvent, ThrowEvent
from skirmish.rules.fi.melee_events import (
    BreakFreeEvent,
    ChargeLostEvent,
    DefendEvent,
    ManeuverEvent,
    MeleeContestEvent,
    MeleeEvent,
    RiseEvent,
)
from skirmish.rules.fi.mind_events import ChipDrawEvent, ContestEvent, FearEvent, MindEvent, SurpriseEvent
from skirmish.rules.fi.text import check_lines, draw_text, mods_text, phase_label

__all__ = [
    "AimEvent", "AttackEvent", "BlastEvent", "ChipDrawEvent", "ConcussionEvent", "ContestEvent", "DeclareEvent",
    "FearEvent", "InitiativeEvent", "MindEvent", "MoveEvent", "MoveStoppedEvent", "OutOfActionEvent", "ReloadEvent",
    "StunnedEvent", "SurpriseEvent", "TacpackEvent", "ThrowEvent", "TriggerEvent", "TriggerLostEvent", "WaitEvent",
]
__all__ += [  # Future Imperfect melee (R-7, issue 14)
    "BreakFreeEvent", "ChargeLostEvent", "DefendEvent", "ManeuverEvent", "MeleeContestEvent", "MeleeEvent", "RiseEvent",
]


@register("declare")
@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareEvent(Event):
    """A unit declares its speed for the round (R-5.1); `carried_wait` when it still waits from the last."""

    speed: str
    carried_wait: bool

    def describe(self) -> str:
        return f"{self.where()} {self.actor or ''} declares {self.speed.upper()}" + \
            (" (still waiting)" if self.carried_wait else "")


@register("initiative")
@dataclass(frozen=True, slots=True, kw_only=True)
class InitiativeEvent(Event):
    """A unit's Reflex read against its speed's bar (R-5.1, R-5.2). Initiative is flipped between the
    declaration and the phases, so the event's `phase` is the phase the unit got (None: it hesitates)."""

    declared: str
    bar: str
    column: str
    row: int
    result: int
    cf: bool
    tns: list[int]  # the bar's TN for each phase
    options: list[int]  # the phases the read reaches
    hesitate: bool
    modifiers: list[Mod]
    draw: CheckRead = field(metadata=FLAT)

    def _got(self, hesitates: str) -> str:
        return f"phase {phase_label(self.phase)}" if self.phase else hesitates

    def where(self) -> str:
        return f"R{self.round}"  # before the phases: `phase` is the one it got

    def describe(self) -> str:
        mods = f" ({mods_text(self.modifiers)})" if self.modifiers else ""
        read = "CF" if self.cf else str(self.result)
        return (f"{self.where()} {self.actor or ''}: Reflex {self.column}-{self.row} on {draw_text(self.draw)} reads "
                f"{read}{mods} vs {self.bar.upper()} bar {self.tns} -> {self._got('HESITATES')}{self.rules_text()}")

    def headline(self) -> str:
        return f"{self.actor or ''}: initiative {'CF' if self.cf else self.result} → {self._got('hesitates')}"

    def detail_lines(self) -> list[str]:
        return check_lines(self.draw, modifiers=self.modifiers)


@register("stunned")
@dataclass(frozen=True, slots=True, kw_only=True)
class StunnedEvent(Event):
    """A stunned unit loses its action (R-8.2)."""

    text: str

    def describe(self) -> str:
        return f"{self.where()} {self.actor or ''} is stunned and loses this action{self.rules_text()}"


@register("move")
@dataclass(frozen=True, slots=True, kw_only=True)
class MoveEvent(Event):
    """A walk or run along `path` (cells, start first), `metres` long (R-5.6, R-5.4)."""

    path: list[list[int]]
    metres: float
    running: bool

    def describe(self) -> str:
        end = self.path[-1]
        return (f"{self.where()} {self.actor or ''} {'runs' if self.running else 'walks'} {self.metres:.1f} m to "
                f"{end[0]},{end[1]}{self.rules_text()}")


@register("move_stopped")
@dataclass(frozen=True, slots=True, kw_only=True)
class MoveStoppedEvent(Event):
    """A move cut short at `at`: the mover went down on the way (R-8.1)."""

    at: list[int]


@register("bumped")
@dataclass(frozen=True, slots=True, kw_only=True)
class BumpedEvent(Event):
    """A move stopped short at `at`: its next step, `blocked`, held `target`, an enemy the mover's side had not seen
    nor placed (fog, R-6.1, R-5.6); the enemy's place is known to the mover's side from now on."""

    at: list[int]
    blocked: list[int]
    target: str

    def describe(self) -> str:
        return (f"{self.where()} {self.actor or ''} runs into {self.target}, unseen until now, at "
                f"{self.blocked[0]},{self.blocked[1]}: stops at {self.at[0]},{self.at[1]}{self.rules_text()}")


@register("trigger")
@dataclass(frozen=True, slots=True, kw_only=True)
class TriggerEvent(Event):
    """A waiting unit's trigger is set off: the Reflex contest and who goes first (R-5.7, R-3.8); `trigger` is its
    text when it is not `enemy_in_view` (`target` the mover, or the unit whose turn came up)."""

    target: str
    waiter_result: int
    mover_result: int
    waiter_first: bool
    simultaneous: bool
    waiter_draw: DrawRecord
    mover_draw: DrawRecord
    trigger: str | None = None

    def describe(self) -> str:
        who = self.actor or ""
        kind = (self.trigger or "enemy_in_view").partition(":")[0]
        if kind in ("acts", "preempt", "later"):
            verb = "pre-empts" if kind == "preempt" else "waits for"
            first = ("simultaneous: both act, damage after both" if self.simultaneous else f"{who} goes first"
                     if self.waiter_first else f"{self.target} first, then {who}")
            return (f"{self.where()} {who} {verb} {self.target}: Reflex contest {self.waiter_result} vs "
                    f"{self.mover_result}{' (-2 to pre-empt)' if kind == 'preempt' else ''} -> {first}"
                    f"{self.rules_text()}")
        first = ("simultaneous: damage after the move" if self.simultaneous else f"{who} fires first"
                 if self.waiter_first else f"{self.target} first: it ends its move before {who} acts")
        why = "sees" if kind == "enemy_in_view" else {"enemy_moves": "sees move", "enemy_in_range": "has in range",
                                                      "enemy_enters": "sees enter " + (self.trigger or "")[13:]}[kind]
        return (f"{self.where()} {who} {why} {self.target}: Reflex contest {self.waiter_result} vs "
                f"{self.mover_result} -> {first}{self.rules_text()}")


@register("trigger_lost")
@dataclass(frozen=True, slots=True, kw_only=True)
class TriggerLostEvent(Event):
    """A waiter's trigger comes to nothing, and why (R-5.7); `target` when a mover slipped out of sight."""

    target: str | None = None
    reason: str

    def describe(self) -> str:
        return f"{self.where()} {self.actor or ''} holds fire: {self.reason}{self.rules_text()}"


@register("wait")
@dataclass(frozen=True, slots=True, kw_only=True)
class WaitEvent(Event):
    """A unit waits for its trigger (R-5.7)."""

    trigger: str

    def describe(self) -> str:
        said = ""
        if self.trigger != "enemy_in_view":
            with contextlib.suppress(wt.TriggerError):
                said = f" ({wt.parse(self.trigger).describe()})"
        return f"{self.where()} {self.actor or ''} waits: {self.trigger}{said}{self.rules_text()}"


@register("aim")
@dataclass(frozen=True, slots=True, kw_only=True)
class AimEvent(Event):
    """A unit aims at a target (R-6.2); `aim` is the aim built up so far."""

    target: str
    aim: int

    def describe(self) -> str:
        return f"{self.where()} {self.actor or ''} aims at {self.target} (aim {self.aim}){self.rules_text()}"


@register("reload")
@dataclass(frozen=True, slots=True, kw_only=True)
class ReloadEvent(Event):
    """A reloading action (R-6.12): `stage` of `of`, `done` when loaded; or a breakdown `cleared` (R-4.8).
    `rounds` is what the weapon holds after it."""

    stage: int | None = None
    of: int | None = None
    done: bool | None = None
    cleared: bool | None = None
    rounds: int
    magazines: int | None = None
    hand: str | None = None  # "off": the weapon in the other hand's (R-6.12 two weapons)

    def describe(self) -> str:
        off = " of the off hand's weapon" if self.hand == "off" else ""
        if self.cleared:
            return f"{self.where()} {self.actor or ''} clears the breakdown{off}{self.rules_text()}"
        off = " the off hand's weapon" if off else ""
        return (f"{self.where()} {self.actor or ''} reloads{off} ({self.stage}/{self.of})"
                f"{' - loaded' if self.done else ''}{self.rules_text()}")


@register("tacpack")
@dataclass(frozen=True, slots=True, kw_only=True)
class TacpackEvent(Event):
    """A tacpack's generator split (R-6.13): the screen and the points put into it."""

    screen: str
    points: int
    generator: int

    def describe(self) -> str:
        return (f"{self.where()} {self.actor or ''} tacpack: {self.screen} screen {self.points}/{self.generator}"
                f"{self.rules_text()}")
