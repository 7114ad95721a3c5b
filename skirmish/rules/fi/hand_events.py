"""Events of card-hand initiative (R-5.8, option `initiative: cards`), registered when imported (by
skirmish.rules.fi.events). Cards are written as labels "step.fragment" ("10.3", "14.5 BONUS", "0.0 DISCARD")."""

from __future__ import annotations

from dataclasses import dataclass, field

from skirmish.core.events import FLAT, Event, register
from skirmish.core.reads import CheckRead, Mod
from skirmish.rules.fi.text import check_lines, draw_text, mods_text

__all__ = ["AimStepEvent", "HandDrawEvent", "HandKeepEvent", "PrepareEvent", "ReserveEvent", "RushEvent", "StepEvent"]


def _cards(labels: list[str]) -> str:
    return ", ".join(labels) if labels else "none"


@register("hand_draw")
@dataclass(frozen=True, slots=True, kw_only=True)
class HandDrawEvent(Event):
    """A Reflex check against Easy draws 1 card, +1 for a success, +1 per bump, none on a CF (R-5.8); or the
    unit forgoes the draw to hold its reserve (`forgo`, no check)."""

    column: str
    row: int
    tn: int
    result: int
    cf: bool
    success: bool
    bumps: int
    drawn: list[str]
    modifiers: list[Mod]
    draw: CheckRead = field(metadata=FLAT)

    def describe(self) -> str:
        mods = f" ({mods_text(self.modifiers)})" if self.modifiers else ""
        read = "CF" if self.cf else str(self.result)
        return (f"{self.where()} {self.actor or ''}: Reflex {self.column}-{self.row} on {draw_text(self.draw)} reads "
                f"{read}{mods} vs {self.tn} -> draws {len(self.drawn)}: {_cards(self.drawn)}{self.rules_text()}")

    def headline(self) -> str:
        return f"{self.actor or ''}: hand check {'CF' if self.cf else self.result} → {len(self.drawn)} card(s)"

    def detail_lines(self) -> list[str]:
        return check_lines(self.draw, modifiers=self.modifiers)


@register("hand_keep")
@dataclass(frozen=True, slots=True, kw_only=True)
class HandKeepEvent(Event):
    """The hand for the round (R-5.8): the cards kept (with the step each acts at), the BONUS kept besides
    them, what was discarded (a DISCARD takes itself and the highest other card, or the reserve), the reserve
    held, a forgone draw and a planned rush."""

    kept: list[str]
    bonus: list[str]
    discarded: list[str]
    reserve_lost: bool
    forgo: bool
    reserve: str | None = None
    rush: str | None = None

    def describe(self) -> str:
        if self.forgo:
            return f"{self.where()} {self.actor or ''} forgoes the draw, holding reserve {self.reserve}{self.rules_text()}"
        extra = f"; BONUS {_cards(self.bonus)}" if self.bonus else ""
        lost = "; the reserve is lost" if self.reserve_lost else ""
        res = f"; reserve {self.reserve}" if self.reserve and not self.reserve_lost else ""
        rush = f"; rushes {self.rush}" if self.rush else ""
        return (f"{self.where()} {self.actor or ''} keeps {_cards(self.kept)}{extra}, discards "
                f"{_cards(self.discarded)}{lost}{res}{rush}{self.rules_text()}")

    def headline(self) -> str:
        return f"{self.actor or ''}: hand {_cards(self.kept + self.bonus)}"


@register("step")
@dataclass(frozen=True, slots=True, kw_only=True)
class StepEvent(Event):
    """The count-down calls a step and a unit plays a card there (R-5.8); `rushed` when it came early."""

    step: int
    card: str
    rushed: bool

    def describe(self) -> str:
        how = " (rushed)" if self.rushed else ""
        return f"{self.where()} step {self.step}: {self.actor or ''} plays {self.card}{how}{self.rules_text()}"


@register("rush")
@dataclass(frozen=True, slots=True, kw_only=True)
class RushEvent(Event):
    """A rush test (R-5.8): Dexterity at the column and row shifted once per step early, vs Standard; a failure
    acts two steps after the card."""

    rushed: str  # the card rushed
    step: int  # the step rushed at
    column: str
    row: int
    tn: int
    result: int
    cf: bool
    success: bool
    acts_at: int
    draw: CheckRead = field(metadata=FLAT)

    def describe(self) -> str:
        read = "CF" if self.cf else str(self.result)
        verdict = f"acts at {self.acts_at}" if self.success else f"fails: acts at {self.acts_at}"
        return (f"{self.where()} {self.actor or ''} rushes {self.rushed} at step {self.step}: Dexterity {self.column}-"
                f"{self.row} on {draw_text(self.draw)} reads {read} vs {self.tn} -> {verdict}{self.rules_text()}")

    def detail_lines(self) -> list[str]:
        return check_lines(self.draw)


@register("reserve")
@dataclass(frozen=True, slots=True, kw_only=True)
class ReserveEvent(Event):
    """A reserve card (R-5.8): `reserved` (held, waiting), `kept` (the card that came up is discarded, the
    reserve kept), `flushed` (another card acted), `spent` (it acted on its trigger), `lost` (a DISCARD)."""

    card: str
    what: str

    def describe(self) -> str:
        text = {"reserved": "reserves {c}", "kept": "discards the card that came up, keeping reserve {c}",
                "flushed": "flushes reserve {c}", "spent": "plays reserve {c}", "lost": "loses reserve {c}"}
        return f"{self.where()} {self.actor or ''} {text.get(self.what, self.what + ' {c}').format(c=self.card)}" \
               f"{self.rules_text()}"


@register("aim_step")
@dataclass(frozen=True, slots=True, kw_only=True)
class AimStepEvent(Event):
    """Aim counters in steps (R-6.2 under R-5.8): after `counters` steps of `steps` each the weapon is ready
    on `target`, with `aim` +x counts; or a preparation card (`prepared`) for an action speed 2 weapon."""

    target: str
    step: int
    counters: int
    steps: int
    ready: bool
    aim: int

    def describe(self) -> str:
        if not self.ready and not self.counters:
            return (f"{self.where()} step {self.step}: {self.actor or ''} readies a shot at {self.target}: it fires "
                    f"after {self.steps} step(s){self.rules_text()}")
        if not self.steps:
            return (f"{self.where()} step {self.step}: {self.actor or ''} fires the readied shot at {self.target}"
                    f"{' (aimed)' if self.aim else ''}{self.rules_text()}")
        state = f"ready, aim {self.aim}" if self.ready else "not ready yet"
        return (f"{self.where()} step {self.step}: {self.actor or ''} aim counters {self.counters} "
                f"({self.steps} a count) on {self.target}: {state}{self.rules_text()}")


@register("prepare")
@dataclass(frozen=True, slots=True, kw_only=True)
class PrepareEvent(Event):
    """A card laid aside preparing an action speed 2 weapon's shot (R-5.8 "Action Speed"): `cards` of `of`
    preparation cards; the next card fires it."""

    weapon: str
    cards: int
    of: int
    target: str

    def describe(self) -> str:
        return (f"{self.where()} {self.actor or ''} lays a card aside preparing the {self.weapon} at {self.target} "
                f"({self.cards} of {self.of}); the next card fires{self.rules_text()}")
