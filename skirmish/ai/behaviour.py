"""The AI's behaviour figures (issue 12, "How it is shown"): read from one battle's typed events and the AIs'
decision traces, per side, then summed per AI over many battles. Pure: no battle is played here (the runner
is skirmish.ai.behaviour_run); tests feed hand-built event lists. docs/AI.md defines each figure.

- low-odds shots: attacks (R-6) whose shooter's last decision before it was a `shoot` option with a "hit
  chance" consideration at or under LOW_ODDS; the share is over the shots that had such an estimate (shots
  on a trigger, R-5.7, and shots of AIs without traces have none: n/a when no shot had one);
- grenades thrown per grenade carried at the start (ThrowEvent, R-6.10);
- tacpack screen changes per unit-round (TacpackEvent whose screen differs from the unit's screen before it,
  R-6.13), over the declarations (R-5.1) of units that wear a tacpack;
- DODGE declarations by wounded, exposed units: of the declarations a unit was asked for while wounded and
  seen by an enemy (the battle's all-seeing knowledge at the request: `Knowledge.seen`, R-6.1), how many
  declared DODGE;
- battle length in rounds, draws and the kind of end (ResultEvent's reason up to its first colon or semicolon,
  objective names kept whole: `end_kind`, R-10.1);
- the rest of ranged combat (issue 14): covering fire laid (`cover` events, R-6.12), the covering shots it drew,
  shots fired while pinned (attack events with `pinned`), bursts split between targets (R-6.3, once per burst),
  double taps (R-6.12, once per tap), launches (R-6.10) and stray rounds that struck a friend (R-6.11).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from skirmish.core.events import DecisionEvent, Event, ResultEvent
from skirmish.rulesets.fi import AttackEvent, DeclareEvent, TacpackEvent, ThrowEvent

LOW_ODDS = 0.15  # a shot at or under this estimated hit chance is "at low odds"
HIT = "hit chance"  # the utility AI's consideration holding its hit estimate (skirmish/ai/utility/scoring.py)
DODGE = "dodge"


@dataclass(frozen=True)
class Setup:
    """What the events do not say, taken from the battle: each unit's side, the grenades (thrown weapons) it
    carried at the start, its tacpack screen at the start (None: it wears no tacpack), and the declarations
    it was asked for while wounded and exposed, as (round, unit)."""

    sides: dict[str, str]
    grenades: dict[str, int] = field(default_factory=dict)
    screens: dict[str, str | None] = field(default_factory=dict)
    wounded_exposed: frozenset[tuple[int, str]] = frozenset()


@dataclass
class Figures:
    """The counts behind the figures, for one side of one battle or summed over many."""

    shots: int = 0
    estimated: int = 0  # shots with a hit estimate in the shooter's trace
    low_odds: int = 0  # of those, at or under LOW_ODDS
    carried: int = 0
    thrown: int = 0
    screen_changes: int = 0
    tacpack_rounds: int = 0
    wounded_exposed: int = 0  # declarations asked of wounded, exposed units
    dodges: int = 0  # of those, DODGE
    battles: int = 0
    rounds: int = 0
    draws: int = 0
    covers: int = 0  # covering fire laid
    covering_shots: int = 0  # the shots it drew at enemies entering or breaking out of the area
    pinned_shots: int = 0  # shots this side fired while pinned by enemy covering fire
    splits: int = 0  # bursts split between targets
    double_taps: int = 0
    launches: int = 0  # launched grenades
    friends_hit: int = 0  # stray rounds of this side's shots that struck one of its own
    reasons: Counter[str] = field(default_factory=Counter)

    def add(self, other: Figures) -> None:
        """Sum another's counts into these."""
        for name in ("shots", "estimated", "low_odds", "carried", "thrown", "screen_changes", "tacpack_rounds",
                     "wounded_exposed", "dodges", "battles", "rounds", "draws", *RANGED):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.reasons.update(other.reasons)

    def summary(self) -> dict[str, Any]:
        """The figures (None: n/a, nothing to count them over) beside their counts, as JSON values."""
        return {
            "battles": self.battles, "shots": self.shots, "estimated_shots": self.estimated,
            "low_odds_shots": self.low_odds, "low_odds_share": _ratio(self.low_odds, self.estimated),
            "grenades_carried": self.carried, "grenades_thrown": self.thrown,
            "grenades_per_carried": _ratio(self.thrown, self.carried),
            "screen_changes": self.screen_changes, "tacpack_unit_rounds": self.tacpack_rounds,
            "screen_changes_per_unit_round": _ratio(self.screen_changes, self.tacpack_rounds),
            "wounded_exposed_declarations": self.wounded_exposed, "wounded_exposed_dodges": self.dodges,
            "dodge_share": _ratio(self.dodges, self.wounded_exposed),
            "mean_rounds": _ratio(self.rounds, self.battles), "draws": self.draws,
            "draw_rate": _ratio(self.draws, self.battles), "end_reasons": dict(sorted(self.reasons.items())),
            **{name: getattr(self, name) for name in RANGED},
            **{f"{name}_per_100_battles": _ratio(100 * getattr(self, name), self.battles) for name in RANGED},
        }


RANGED = ("covers", "covering_shots", "pinned_shots", "splits", "double_taps", "launches", "friends_hit")


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def hit_estimate(decision: DecisionEvent) -> float | None:
    """The hit chance a decision to shoot was taken on (None: not a shot, or no estimate in its trace)."""
    chosen = decision.chosen
    if not str(chosen["option"]).startswith("shoot"):
        return None
    for c in chosen["considerations"]:
        if c["name"] == HIT:
            return float(c["input"])
    return None


def end_kind(reason: str, objectives: Iterable[str] = ()) -> str:
    """The kind of end a result event's reason gives (R-10.1): its words up to the first colon or semicolon, so that
    neither who fell ("nobody left standing: Red") nor the points ("round limit; points Blue 3, Red 1") make a kind
    of their own. The objectives named in it (`objectives`: the names of the battle's objective events) are read
    whole, as a name may hold a colon (the default one is SIDE:KIND): "objective Blue:hold done: …" is of the
    kind "objective Blue:hold done" (the reasons are formed in skirmish/objectives)."""
    masked = reason
    for name in sorted(set(objectives), key=len, reverse=True):  # "Gate: north" before a "Gate" within it
        masked = masked.replace(name, "_" * len(name))  # the same length: an index in `masked` is one in `reason`
    cut = min((i for i in (masked.find(":"), masked.find(";")) if i >= 0), default=len(reason))
    return reason[:cut].strip()


def behaviour(events: Iterable[Event], setup: Setup) -> dict[str, Figures]:
    """Each side's figures in one battle (every side of `setup.sides`, even one that did nothing)."""
    out = {side: Figures(battles=1) for side in sorted(set(setup.sides.values()))}
    for unit, n in setup.grenades.items():
        out[setup.sides[unit]].carried += n
    last_decision: dict[str, DecisionEvent] = {}
    screen = dict(setup.screens)
    result: ResultEvent | None = None
    objectives: list[str] = []  # the objectives' names, as the events give them (skirmish/core/scenario_events.py)
    for e in events:
        side = out.get(setup.sides.get(e.actor or "", ""))
        if isinstance(e, DecisionEvent):
            last_decision[e.unit] = e
        elif isinstance(e, AttackEvent) and side is not None:
            side.shots += 1
            side.covering_shots += bool(e.covering)
            side.pinned_shots += bool(e.pinned)
            side.splits += e.split is not None and e.target == e.split["targets"][0]  # (each target has its event)
            side.double_taps += e.double_tap == 1
            d = last_decision.get(e.actor or "")
            est = hit_estimate(d) if d is not None and not e.trigger else None
            if est is not None:
                side.estimated += 1
                side.low_odds += est <= LOW_ODDS + 1e-9
        elif isinstance(e, ThrowEvent) and side is not None and e.type == "launch":
            side.launches += 1
        elif isinstance(e, ThrowEvent) and side is not None:
            side.thrown += 1
        elif e.type == "cover" and side is not None:
            side.covers += 1
        elif e.type == "unintended_hit" and side is not None:
            side.friends_hit += bool(getattr(e, "friend", False))
        elif isinstance(e, TacpackEvent) and side is not None:
            unit = e.actor or ""
            side.screen_changes += screen.get(unit) != e.screen
            screen[unit] = e.screen
        elif isinstance(e, DeclareEvent) and side is not None:
            unit = e.actor or ""
            if setup.screens.get(unit) is not None:
                side.tacpack_rounds += 1
            if (e.round, unit) in setup.wounded_exposed and not e.carried_wait:
                side.wounded_exposed += 1
                side.dodges += e.speed == DODGE
        elif isinstance(e, ResultEvent):
            result = e
        elif e.type == "objective":
            objectives.append(str(getattr(e, "objective", "")))
    if result is not None:
        for f in out.values():
            f.rounds = result.rounds
            f.draws = result.winner is None
            f.reasons[end_kind(result.reason, objectives)] += 1  # the kind of end, not who won it
    return out


def aggregate(battles: Sequence[tuple[dict[str, str], dict[str, Figures]]]) -> dict[str, Figures]:
    """Sum per AI: each battle as (side -> AI name, side -> figures); an AI on both sides counts twice."""
    out: dict[str, Figures] = {}
    for ais, figures in battles:
        for side, f in figures.items():
            out.setdefault(ais[side], Figures()).add(f)
    return dict(sorted(out.items()))
