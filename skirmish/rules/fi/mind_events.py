"""Future Imperfect's events of the mind (C-3, R-10.2): surprise (R-8.3), psychological contests (R-8.4), fear
and terror tests (`000_…`), the states they put on and what those states cost (a lost turn, a unit that sits
a round out), and the story chip a broken opponent earns (drawn with option `chips`, else recorded as owed).
Registered when skirmish.rules.fi.events imports this module."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from skirmish.core.events import FLAT, Event, register
from skirmish.core.reads import CheckRead, Mod
from skirmish.rules.fi.text import check_lines, draw_text, mods_text


class Resist(TypedDict):
    """The defender's side of an opposed contest: its skill read and what was turned or rolled for it."""

    skill: str
    column: str
    row: int
    halved: bool
    result: int
    cf: bool
    modifiers: list[Mod]
    draw: CheckRead


def _read(result: int, cf: bool) -> str:
    return "CF" if cf else str(result)


@register("surprise")
@dataclass(frozen=True, slots=True, kw_only=True)
class SurpriseEvent(Event):
    """A surprised unit's Bravery check when a round begins (R-8.3): Standard when it expected danger, Incredible
    when not, Easy the rounds after; failure: no declaration, initiative or action this round."""

    difficulty: str
    expecting: bool
    column: str
    row: int
    halved: bool
    tn: int
    result: int
    cf: bool
    success: bool
    modifiers: list[Mod]
    draw: CheckRead = field(metadata=FLAT)

    def describe(self) -> str:
        out = "acts" if self.success else "FROZEN: no action this round"
        return (f"{self.where()} {self.actor or ''} surprised: Bravery {self.column}-{self.row} on "
                f"{draw_text(self.draw)} {_read(self.result, self.cf)} vs {self.difficulty} {self.tn} -> {out}"
                f"{self.rules_text()}")

    def headline(self) -> str:
        return f"{self.actor or ''}: surprise {_read(self.result, self.cf)} vs {self.tn} -> " + \
            ("acts" if self.success else "frozen")

    def detail_lines(self) -> list[str]:
        return check_lines(self.draw, tn=self.tn, modifiers=self.modifiers)


@register("contest")
@dataclass(frozen=True, slots=True, kw_only=True)
class ContestEvent(Event):
    """A psychological contest (R-8.4, R-5.4 auxiliary): the initiator's skill read, against the defender's
    (`resist`, opposed) or a TN from the dice (`simple`); successes and the effect on the target."""

    target: str
    kind: str
    mode: str
    skill: str
    column: str
    row: int
    halved: bool
    result: int
    cf: bool
    tn: int  # the TN beaten: the defender's result, or the simple contest's TN
    successes: int
    effect: str | None = None  # annoyed | distraught | broken
    modifiers: list[Mod]
    resist: Resist | None = None  # an opposed contest's defence
    impulses: list[int] | None = None  # a tie's impulses, initiator's then defender's
    draw: CheckRead = field(metadata=FLAT)

    def describe(self) -> str:
        against = (f"{self.target}'s {self.resist['skill']} {self.resist['column']}-{self.resist['row']} on "
                   f"{draw_text(self.resist['draw'])} {_read(self.resist['result'], self.resist['cf'])}"
                   if self.resist is not None else f"TN {self.tn}")
        mods = f" ({mods_text(self.modifiers)})" if self.modifiers else ""
        out = f"{self.successes} success(es): {self.target} {self.effect.upper()}" if self.effect else "no effect"
        return (f"{self.where()} {self.actor or ''} {self.kind}s {self.target} ({self.mode}): {self.skill} "
                f"{self.column}-{self.row} on {draw_text(self.draw)} {_read(self.result, self.cf)}{mods} vs "
                f"{against} -> {out}{self.rules_text()}")

    def headline(self) -> str:
        return f"{self.actor or ''} {self.kind}s {self.target}: " + (self.effect or "no effect")

    def detail_lines(self) -> list[str]:
        out = check_lines(self.draw, tn=self.tn, modifiers=self.modifiers)
        if self.resist is not None:
            out.append(f"{self.target} resists with {self.resist['skill']}: "
                       f"{_read(self.resist['result'], self.resist['cf'])}"
                       + (f" (impulses {self.impulses})" if self.impulses else ""))
            out += [f"   {m['value']:+d}  {m['reason']}" for m in self.resist["modifiers"]]
        return out


@register("fear")
@dataclass(frozen=True, slots=True, kw_only=True)
class FearEvent(Event):
    """A fear or terror test (`000_…` "Fear and Terror"): Bravery against the TN the sight of `source` sets;
    successes 0 broken, 1 distraught, 2 annoyed, 3+ nothing; CF terrified (terror: catatonic first)."""

    kind: str
    source: str
    column: str
    row: int
    halved: bool
    tn: int
    result: int
    cf: bool
    successes: int
    effect: str | None = None
    modifiers: list[Mod]
    draw: CheckRead = field(metadata=FLAT)

    def describe(self) -> str:
        return (f"{self.where()} {self.actor or ''} sees {self.source}: {self.kind} test, Bravery {self.column}-"
                f"{self.row} on {draw_text(self.draw)} {_read(self.result, self.cf)} vs {self.tn}, "
                f"{self.successes} success(es) -> {(self.effect or 'no effect').upper()}{self.rules_text()}")

    def headline(self) -> str:
        return f"{self.actor or ''}: {self.kind} of {self.source} -> {self.effect or 'no effect'}"

    def detail_lines(self) -> list[str]:
        return check_lines(self.draw, tn=self.tn, modifiers=self.modifiers)


@register("mind")
@dataclass(frozen=True, slots=True, kw_only=True)
class MindEvent(Event):
    """A state of mind at work (R-8.3, R-8.4, `000_…`): `state` (surprised, catatonic, distraught, annoyed,
    terrified, calm) and what it does now (`text`)."""

    state: str
    text: str
    source: str | None = None  # whom a terrified unit runs from

    def describe(self) -> str:
        return f"{self.where()} {self.actor or ''} {self.state.upper()}: {self.text}{self.rules_text()}"


@register("chip_draw")
@dataclass(frozen=True, slots=True, kw_only=True)
class ChipDrawEvent(Event):
    """A side earns a story chip (R-8.4 broken, R-8.5): drawn from the bin when the battle plays with chips (its
    `chips_drawn` follows), else recorded as owed."""

    side: str
    reason: str
    drawn: bool  # False without option `chips`: the draw is owed, not made

    def describe(self) -> str:
        made = "draws" if self.drawn else "earns (no story chips in this battle: no draw made)"
        return f"{self.where()} {self.side} {made} a story chip: {self.reason}{self.rules_text()}"
