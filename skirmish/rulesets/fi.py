"""Future Imperfect, the first registered ruleset: its binding, and the facade through which the AIs and
the board reach FI rules (nothing above `rules/` imports `skirmish.rules.fi` or `skirmish.ecs.systems.fi`
directly; tests/test_imports.py says so)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from skirmish.content.fi import FI_PARTS
from skirmish.content.parts import SchemaParts
from skirmish.core.ruleset import register
from skirmish.ecs.systems.fi import FiSystems, setup
from skirmish.rules.fi import hand as hand_rules
from skirmish.rules.fi import initiative, melee, ranged_cover, thrown, unintended, waiting
from skirmish.rules.fi.chips import POLICIES as CHIP_POLICIES
from skirmish.rules.fi.chips import ChipPolicy, parse_chip_order
from skirmish.rules.fi.damage import INCAPACITATED_AT, wound_penalty
from skirmish.rules.fi.events import (
    AimEvent,
    AttackEvent,
    BlastEvent,
    ConcussionEvent,
    DeclareEvent,
    InitiativeEvent,
    MoveEvent,
    MoveStoppedEvent,
    OutOfActionEvent,
    ReloadEvent,
    StunnedEvent,
    TacpackEvent,
    ThrowEvent,
    TriggerEvent,
    TriggerLostEvent,
    WaitEvent,
)
from skirmish.rules.fi.hand import Hand, HandCard
from skirmish.rules.fi.initiative import DECLARATIONS, PHASE_NAMES, PHASES
from skirmish.rules.fi.melee_actions import (
    MELEE_ACTIONS,
    BreakFree,
    Charge,
    Close,
    Defend,
    Entangle,
    MeleeAttack,
    Open,
    Rise,
    Trip,
)
from skirmish.rules.fi.melee_events import (
    BreakFreeEvent,
    ChargeLostEvent,
    DefendEvent,
    ManeuverEvent,
    MeleeContestEvent,
    MeleeEvent,
    RiseEvent,
)
from skirmish.rules.fi.melee_odds import ManeuverOdds, check_odds, contest_odds
from skirmish.rules.fi.mind import CONTESTS, MODES, SKILL_TRAIT, Contest
from skirmish.rules.fi.mind_events import ChipDrawEvent, ContestEvent, FearEvent, MindEvent, SurpriseEvent
from skirmish.rules.fi.odds import ShotOdds, shot_odds
from skirmish.rules.fi.ranged import (
    CALLED_SHOTS,
    LOW_COVERED,
    ShotFacts,
    ae_shift,
    damage_row,
    expected_hit_probability,
    shot_numbers,
)
from skirmish.rules.fi.ranged_events import UnintendedHitEvent
from skirmish.rules.fi.ranged_split import SplitOdds
from skirmish.rules.fi.thrown import Bystander, ThrowOdds, blast_reach_m, throw_odds
from skirmish.rules.fi.timing import ATTACK_MODES, Part, add_part, declared_speed, fits

__all__ = [
    "ATTACK_MODES", "CALLED_SHOTS", "DECLARATIONS", "FI", "INCAPACITATED_AT", "LOW_COVERED", "PHASES",
    "PHASE_NAMES", "AimEvent", "AttackEvent", "BlastEvent", "Bystander", "ConcussionEvent", "DeclareEvent",
    "FiRuleset", "FiSystems", "Hand", "HandCard", "InitiativeEvent", "MoveEvent", "MoveStoppedEvent",
    "OutOfActionEvent", "Part", "ReloadEvent", "ShotFacts", "ShotOdds", "StunnedEvent", "TacpackEvent", "ThrowEvent",
    "ThrowOdds", "TriggerEvent", "TriggerLostEvent", "UnintendedHitEvent", "WaitEvent", "add_part", "ae_shift",
    "blast_reach_m", "cards_mode", "damage_row", "declared_speed", "expected_hit_probability", "fits", "hand_of",
    "hand_rules", "hands_step", "initiative",
    "shot_numbers", "shot_odds", "throw_odds", "thrown", "wound_penalty",
]
__all__ += [  # Future Imperfect melee (R-7, issue 14): actions, events, odds and the pure rules module `melee`
    "MELEE_ACTIONS", "BreakFree", "BreakFreeEvent", "Charge", "ChargeLostEvent", "Close", "Defend", "DefendEvent",
    "Entangle", "ManeuverEvent", "ManeuverOdds", "MeleeAttack", "MeleeContestEvent", "MeleeEvent", "Open", "Rise",
    "RiseEvent", "Trip", "check_odds", "contest_odds", "melee",
]
__all__ += [  # Future Imperfect injury and the mind (R-8.3, R-8.4, issue 14)
    "CONTESTS", "MODES", "SKILL_TRAIT", "ChipDrawEvent", "Contest", "ContestEvent", "FearEvent", "MindEvent", "SurpriseEvent",
]
__all__ += ["waiting"]  # triggers: the board's wait menu (issue 14)
__all__ += ["CHIP_POLICIES", "SKILL_TRAIT", "ChipPolicy", "chips_of"]  # the board's contests and story chips (issue 14)
__all__ += ["parse_chip_order"]  # the editor: a chip order follows a unit renamed
__all__ += ["SplitOdds", "ranged_cover"]  # the board's split bursts and covering fire (issue 14)
__all__ += ["unintended"]  # R-6.11's pure rules: the search tier weighs the rounds a shot sends past its target


def hand_of(battle: Any, unit: str) -> dict[str, Any] | None:
    """A unit's card hand for the board (R-5.8: cards drawn, kept with their steps, reserve, preparation, aim),
    or None when the battle is not Future Imperfect under `initiative: cards`."""
    sys = getattr(battle, "sys", None)
    if not isinstance(sys, FiSystems) or not sys.cards_mode or not battle.world.has(unit):
        return None
    return sys.hand_view(battle.world.entity(unit))


def cards_mode(battle: Any) -> bool:
    """True for a Future Imperfect battle under `initiative: cards` (R-5.8)."""
    sys = getattr(battle, "sys", None)
    return isinstance(sys, FiSystems) and sys.cards_mode


def hands_step(battle: Any) -> int | None:
    """The step the count-down has called (R-5.8), or None when the battle does not count steps."""
    sys = getattr(battle, "sys", None)
    return sys.step_now if isinstance(sys, FiSystems) and sys.cards_mode and sys.counting else None


def chips_of(battle: Any, side: str) -> dict[str, Any] | None:
    """A side's story chips for the board (R-8.5): {"hand": colour -> count, "policy": "spend" (as the AI spends
    them), "keep" or "orders" (scripted)}; None when the battle plays without chips."""
    sys = getattr(battle, "sys", None)
    bank = getattr(getattr(sys, "ctx", None), "chips", None) if isinstance(sys, FiSystems) else None
    if bank is None or side not in bank.hands:
        return None
    word = {v: k for k, v in CHIP_POLICIES.items()}.get(bank.policy[side], bank.policy[side])
    return {"hand": dict(bank.hands[side]), "policy": word}


class FiRuleset:
    """Future Imperfect (RULES.md §3–§8)."""

    name = "fi"
    title = "Future Imperfect"
    scenario_parts: SchemaParts = FI_PARTS  # its options and units' traits and skills (skirmish.content.fi)
    request_kinds: tuple[str, ...] = ("declare", "act")  # a declaration, an action of a turn

    def setup(self, scenario: Any, rng: random.Random, world: Any, emit: Callable[[Any], None]) -> FiSystems:
        return setup(scenario, rng, world, emit)


FI = register(FiRuleset())


# The rest of ranged combat for the AIs (issue 14 item 7): covering fire and pinning, split bursts,
# double taps, the line of fire's candidates.
from skirmish.rules.fi import ranged_cover as cover_rules  # noqa: E402
from skirmish.rules.fi.ranged_split import plan_split  # noqa: E402
from skirmish.rules.fi.ranged_tap import SPECIALISATION as TAP_SKILL  # noqa: E402
from skirmish.rules.fi.ranged_tap import second_read, tap_modifiers  # noqa: E402
from skirmish.rules.fi.unintended import Figure as LineFigure  # noqa: E402
from skirmish.rules.fi.unintended import candidates as line_candidates  # noqa: E402

__all__ += ["TAP_SKILL", "LineFigure", "cover_rules", "line_candidates", "plan_split", "second_read", "tap_modifiers"]

from skirmish.rules.fi.two_hands import hand_penalty  # noqa: E402  (two weapons, R-6.12: the AIs' estimates)

__all__ += ["hand_penalty"]

# Target speed (the seed's "faster than Rate 20: -4"; docs/RULES-NOTES.md "Target speed"): the board's attack menu.
from skirmish.rules.fi.shot_numbers import FAST_TARGET_M, FAST_TARGET_MOD, MOUNTED_MOD, fast_target  # noqa: E402

__all__ += ["FAST_TARGET_M", "FAST_TARGET_MOD", "MOUNTED_MOD", "fast_target"]

# The martial arts maneuvers rolled as a blow: the board's attack menu aims only these at a called location.
from skirmish.rules.fi.arts_use import BLOWS as MANEUVER_BLOWS  # noqa: E402

__all__ += ["MANEUVER_BLOWS"]

# Mounts in play (R-6.1; issue 14 item 6): the verbs, the kinds table and a rider's allowance for the AIs and board.
from skirmish.rules.fi.mounts import MOUNT_KINDS, Dismount, Mount, walk_run  # noqa: E402

__all__ += ["MOUNT_KINDS", "Dismount", "Mount", "walk_run"]
