"""A battle in a few lines, read from its events: casualties per side, who did what, and the moments that
decided it. The headless fallback prints it and the results screen draws it."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from skirmish.core.events import BattleStartEvent, Event, ResultEvent, TurnEvent
from skirmish.rulesets import REGISTRY
from skirmish.rulesets.fi import AttackEvent, BlastEvent, DeclareEvent, OutOfActionEvent, ThrowEvent

Hook = Callable[[Event], list[tuple[Any, ...]]]


def tally_hook(ruleset: str) -> Hook | None:
    """A ruleset's `summary_tally` (its facade module's, `skirmish.rulesets.<name>`): its own events read into
    notes the summary keeps (`_note`); None for a ruleset whose events the summary reads itself (fi)."""
    if ruleset not in REGISTRY:
        return None
    hook = getattr(importlib.import_module(f"skirmish.rulesets.{ruleset}"), "summary_tally", None)
    return hook if callable(hook) else None


@dataclass
class UnitTally:
    """One combatant's part in the battle."""

    name: str
    side: str
    shots: int = 0
    hits: int = 0
    wounds_dealt: int = 0
    put_down: int = 0  # enemies it took out of action (the last to harm them)
    fate: str = "standing"  # standing | incapacitated | unconscious | dead


@dataclass
class Moment:
    """A telling moment: what happened, when, and how much it weighed."""

    round: int
    text: str
    weight: float
    order: int


@dataclass
class BattleSummary:
    """What the summary shows."""

    scenario: str = ""
    sides: list[str] = field(default_factory=list)
    winner: str | None = None
    rounds: int = 0
    reason: str = ""
    casualties: dict[str, int] = field(default_factory=dict)
    units: dict[str, UnitTally] = field(default_factory=dict)
    moments: list[Moment] = field(default_factory=list)

    def top_moments(self, n: int = 3) -> list[Moment]:
        """The `n` weightiest moments, in the order they happened."""
        best = sorted(self.moments, key=lambda m: (-m.weight, m.order))[:n]
        return sorted(best, key=lambda m: m.order)

    def lines(self) -> list[str]:
        """A short readable summary (a dozen lines)."""
        out = [f"{self.scenario} — {outcome_title(self.winner)} after {self.rounds} round{'s' if self.rounds != 1 else ''}"
               + (f" ({self.reason})" if self.reason else "")]
        for side in self.sides:
            members = [u for u in self.units.values() if u.side == side]
            down = [u for u in members if u.fate != "standing"]
            fates = ", ".join(f"{u.name} {u.fate}" for u in down) or "none"
            out.append(f"  {side}: {len(members) - len(down)} of {len(members)} standing; lost: {fates}")
        active = sorted(self.units.values(), key=lambda u: (-u.put_down, -u.wounds_dealt, u.name))
        best = [u for u in active if u.hits][:3]
        if best:
            out.append("  best shots: " + "; ".join(
                f"{u.name} {u.hits}/{u.shots} hits, {u.wounds_dealt} wounds, {u.put_down} down" for u in best))
        tops = self.top_moments()
        if tops:
            out.append("  telling moments:")
            out += [f"    round {m.round}: {m.text}" for m in tops]
        return out


def outcome_title(winner: str | None) -> str:
    """How a result reads, whatever the side's name ("Victory: Raiders", "Victory: Blue"), or "Draw"."""
    return f"Victory: {winner}" if winner else "Draw"


def summarize(events: Iterable[Event], unit_sides: dict[str, str] | None = None) -> BattleSummary:
    """Read a battle's events into a summary (works on a finished or unfinished log); `unit_sides` maps each
    unit to its side (see `unit_sides`), so units that never acted are counted too."""
    s = BattleSummary()
    side_of: dict[str, str] = dict(unit_sides or {})
    for name in side_of:
        s.units[name] = UnitTally(name, side_of[name])
    last_harm: dict[str, str] = {}
    hook: Hook | None = None

    def tally(name: str) -> UnitTally:
        if name not in s.units:
            s.units[name] = UnitTally(name, side_of.get(name, ""))
        return s.units[name]

    for order, e in enumerate(events, 1):
        if isinstance(e, BattleStartEvent):
            s.scenario = e.scenario
            s.sides = list(e.sides)
            hook = tally_hook(e.ruleset)
        elif hook is not None and (notes := hook(e)):
            for note in notes:
                _note(s, note, e.round, tally, last_harm, order)
        elif isinstance(e, (TurnEvent, DeclareEvent)) and e.actor:
            tally(e.actor)
        elif isinstance(e, AttackEvent) and e.actor:
            me = tally(e.actor)
            me.shots += 1
            wounds = sum(h["wounds"] for h in e.hits)
            if e.hit and any(h["damage"] for h in e.hits):
                me.hits += 1
                me.wounds_dealt += wounds
                last_harm[e.target] = e.actor
            if wounds >= 2:
                where = e.location or "body"
                s.moments.append(Moment(e.round, f"{e.actor} hits {e.target} in the {where.replace('_', ' ')} "
                                        f"for {wounds} wounds", 1.0 + wounds / 4, order))
        elif isinstance(e, BlastEvent) and e.actor:
            me = tally(e.actor)
            if e.damage:
                me.wounds_dealt += e.wounds
                last_harm[e.target] = e.actor
        elif isinstance(e, ThrowEvent) and e.actor:
            if len(e.caught) >= 2:
                s.moments.append(Moment(e.round, f"{e.actor}'s {e.item.replace('_', ' ')} catches "
                                        f"{', '.join(e.caught)}", 1.5 + 0.5 * len(e.caught), order))
        elif isinstance(e, OutOfActionEvent) and e.actor:
            victim = tally(e.actor)
            victim.fate = e.state
            by = last_harm.get(e.actor)
            if by is not None and by in s.units and not e.was:  # counted once, when it first went down
                s.units[by].put_down += 1
            weight = 3.0 if victim.fate == "dead" else 2.5
            s.moments.append(Moment(e.round, f"{e.actor} is {victim.fate}" + (f" ({by})" if by else ""),
                                    weight, order))
        elif isinstance(e, ResultEvent):
            s.winner = e.winner
            s.rounds = e.rounds
            s.reason = e.reason
            s.casualties = dict(e.casualties)
    for u in s.units.values():
        if not u.side:
            u.side = side_of.get(u.name, "")
    return s


def _note(s: BattleSummary, note: tuple[Any, ...], rnd: int, tally: Callable[[str], UnitTally],
          last_harm: dict[str, str], order: int) -> None:
    """One note of a ruleset's tally hook (`tally_hook`; the shapes in skirmish/rulesets/fw_summary.py)."""
    kind = note[0]
    if kind == "figure":
        tally(note[1])
    elif kind == "attack":
        me = tally(note[1])
        me.shots += 1
        harmed = [(who, hp) for who, hp in note[2] if hp > 0]
        me.hits += bool(harmed)
        for who, hp in harmed:
            me.wounds_dealt += hp
            last_harm[who] = me.name
    elif kind == "moment":
        s.moments.append(Moment(rnd, note[1], note[2], order))
    elif kind == "fate":
        who = tally(note[1])
        state, announce = note[2], note[3]
        if not announce:
            who.fate = state
            return
        if who.fate == state:
            return
        by = last_harm.get(who.name)
        if by is not None and by in s.units and who.fate == "standing":
            s.units[by].put_down += 1
        who.fate = state
        s.moments.append(Moment(rnd, f"{who.name} is {state}" + (f" ({by})" if by else ""),
                                3.0 if state == "dead" else 2.5, order))


def unit_sides(sides: Iterable[tuple[str, Iterable[str]]]) -> dict[str, str]:
    """{unit: side} from (side name, unit names) pairs, e.g. from a scenario's sides."""
    return {u: side for side, units in sides for u in units}
