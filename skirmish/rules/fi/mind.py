"""Injury and the mind, the pure part (R-8.3, R-8.4; seed `000_…` "Psychological Contests", "Simple
Psychological Contests", "Fear and Terror", "Surprise"): the contest action, its skills, how many successes
a contest or a fear test makes and what they do. The tables are data; the engine's side is
skirmish/ecs/systems/fi/mind.py. Every choice the seeds leave open is in docs/RULES-NOTES.md ("Future
Imperfect: injury and the mind (issue 14)")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from skirmish.rules.actions import Action, register_action
from skirmish.rules.checks import BUMP_STEP, COLUMN_NUMBER, contest_winner

# the test and the skill that resists it (000 "Psychological Contests Table").
CONTESTS: dict[str, str] = {"bluff": "scrutinize", "intimidate": "bravery", "taunt": "taunt"}
# the trait each of these skills reads (Bravery → Vigor is the digest's choice).
SKILL_TRAIT: dict[str, str] = {"bluff": "acuity", "scrutinize": "acuity", "intimidate": "acuity",
                               "taunt": "acuity", "bravery": "vigor"}
# successes → the effect; each effect includes the ones before it (distraught is annoyed too).
CONTEST_EFFECTS: tuple[str, ...] = ("annoyed", "distraught", "broken")
# 000 "Fear and Terror": successes of the Bravery test → the effect; 3 or more: none.
FEAR_EFFECTS: dict[int, str] = {0: "broken", 1: "distraught", 2: "annoyed"}
FEAR_KINDS: tuple[str, ...] = ("fear", "terror")
ANNOYED = -4  # −4 to the next action, resisting included
FOCUSED_TN = -2  # R-5.4 auxiliary, focused: attackers' TN −2 until its next turn
CAUTIOUS = -2  # auxiliary, cautious: the skill check −2
MODES: tuple[str, ...] = ("focused", "cautious")
# the Bravery check's difficulty: expecting danger, not expecting it, and the next round's.
SURPRISE_DIFFICULTY: dict[str, str] = {"expecting": "standard", "unexpecting": "incredible", "after": "easy"}
# 000 "Simple Psychological Contests": the defender's die against the initiator's → the TN.
SIMPLE_TN: tuple[tuple[int, int], ...] = ((-1, 3), (0, 5), (2, 7))  # (column difference at most, TN); else 9
SIMPLE_TN_MORE = 9
SIMPLE_TRAINED = 3  # a defender with this many levels or more in the resisting skill: TN + 1


@dataclass(frozen=True)
class Contest(Action):
    """Start a psychological contest (R-8.4) against an enemy: `kind` bluff (resisted by scrutinize),
    intimidate (bravery) or taunt (taunt); an auxiliary action (R-5.4), `focused` (attackers' TN −2 until the
    next turn) or `cautious` (the check −2). Text: `contest Sid Kyr-1 kind=taunt mode=cautious`."""

    verb: ClassVar[str] = "contest"
    target: str = ""
    kind: str = "taunt"
    mode: str = "focused"


register_action(Contest, "target")


def contest_successes(total: int, cf: bool, resist: int, resist_cf: bool, impulse: int, resist_impulse: int) -> int:
    """An opposed contest's successes (R-3.8, R-3.3): 0 when the defender's result is as high (ties to the
    higher impulse, the defender when even that ties) or the initiator fails critically; else 1 and one more
    per full 5 above the defender's result, at most 3 (broken)."""
    if cf:
        return 0
    if resist_cf:
        resist = 0
    if contest_winner(total, resist, impulse, resist_impulse) != 0:
        return 0
    return min(len(CONTEST_EFFECTS), 1 + max(0, total - resist) // BUMP_STEP)


def simple_tn(initiator_column: str, defender_column: str, defender_level: int) -> int:
    """A simple contest's TN (000 "Simple Psychological Contests"): the defender's die against the
    initiator's: less 3, equal 5, greater 7, more than 2 greater 9; +1 if it has 3+ levels in the skill."""
    diff = COLUMN_NUMBER[defender_column] - COLUMN_NUMBER[initiator_column]
    out = SIMPLE_TN_MORE
    for most, value in SIMPLE_TN:
        if diff <= most:
            out = value
            break
    return out + (1 if defender_level >= SIMPLE_TRAINED else 0)


def check_successes(success: bool, bumps: int) -> int:
    """A check's successes: none on a failure, else 1 and 1 per bump (R-3.3)."""
    return 1 + bumps if success else 0


def contest_effects(successes: int) -> tuple[str, ...]:
    """What a contest of so many successes does to its target (R-8.4): () or annoyed [, distraught [, broken]]."""
    return CONTEST_EFFECTS[:max(0, min(successes, len(CONTEST_EFFECTS)))]


def fear_effect(successes: int, cf: bool, kind: str, step_zero: bool = False) -> str | None:
    """The outcome of a fear or terror test (000 "Fear and Terror"): a critical failure terrifies (terror: it
    is catatonic first, and so is a terror test read off a step-0 card); else 0 successes broken, 1
    distraught, 2 annoyed, 3 or more nothing."""
    if kind == "terror" and (cf or step_zero):
        return "catatonic"
    if cf:
        return "terrified"
    return FEAR_EFFECTS.get(successes)


def effects_of(outcome: str | None) -> tuple[str, ...]:
    """The states an outcome puts on a combatant: broken is annoyed and distraught (R-8.4)."""
    if outcome is None:
        return ()
    if outcome in CONTEST_EFFECTS:
        return contest_effects(CONTEST_EFFECTS.index(outcome) + 1)
    return (outcome,)
