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
from skirmish.rules.fi import initiative, thrown
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
from skirmish.rules.fi.initiative import DECLARATIONS, PHASE_NAMES, PHASES
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
from skirmish.rules.fi.thrown import Bystander, ThrowOdds, blast_reach_m, throw_odds
from skirmish.rules.fi.timing import ATTACK_MODES, Part, add_part, declared_speed, fits

__all__ = [
    "ATTACK_MODES", "CALLED_SHOTS", "DECLARATIONS", "FI", "INCAPACITATED_AT", "LOW_COVERED", "PHASES",
    "PHASE_NAMES", "AimEvent", "AttackEvent", "BlastEvent", "Bystander", "ConcussionEvent", "DeclareEvent",
    "FiRuleset", "FiSystems", "InitiativeEvent", "MoveEvent", "MoveStoppedEvent", "OutOfActionEvent", "Part",
    "ReloadEvent", "ShotFacts", "ShotOdds", "StunnedEvent", "TacpackEvent", "ThrowEvent", "ThrowOdds",
    "TriggerEvent", "TriggerLostEvent", "UnintendedHitEvent", "WaitEvent", "add_part", "ae_shift",
    "blast_reach_m", "damage_row", "declared_speed", "expected_hit_probability", "fits", "initiative",
    "shot_numbers", "shot_odds", "throw_odds", "thrown", "wound_penalty",
]


class FiRuleset:
    """Future Imperfect (RULES.md §3–§8)."""

    name = "fi"
    title = "Future Imperfect"
    scenario_parts: SchemaParts = FI_PARTS  # its options and units' traits and skills (skirmish.content.fi)
    request_kinds: tuple[str, ...] = ("declare", "act")  # a declaration, an action of a turn

    def setup(self, scenario: Any, rng: random.Random, world: Any, emit: Callable[[Any], None]) -> FiSystems:
        return setup(scenario, rng, world, emit)


FI = register(FiRuleset())
