"""Future*World, the second registered ruleset (RULES.md §9): its binding, and the facade through which the
AIs and the board reach fw rules (nothing above `rules/` imports `skirmish.rules.fw` or
`skirmish.ecs.systems.fw` directly; tests/test_imports.py says so)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from skirmish.content.fw import FW_PARTS, shipped
from skirmish.content.parts import SchemaParts
from skirmish.core.ruleset import register
from skirmish.ecs.fw_view import FwUnitView
from skirmish.ecs.systems.fw import FwSystems, setup
from skirmish.ecs.systems.fw.legality import FIREARMS, FwLegal
from skirmish.ecs.systems.fw.table import INTENT, MOVE
from skirmish.rules.fw import odds
from skirmish.rules.fw.actions import ACTS, ATTACKS, FwIntent
from skirmish.rules.fw.checks import Chance, attack_chance
from skirmish.rules.fw.damage import SCREEN_STOPS, SCREEN_TYPES
from skirmish.rules.fw.equipment import FwArmoury, FwWeapon
from skirmish.rules.fw.events import (
    FwAidEvent,
    FwAttackEvent,
    FwBleedEvent,
    FwDeclareEvent,
    FwEnergyEvent,
    FwIdleEvent,
    FwMoveEvent,
    FwRiseEvent,
    FwSensorsEvent,
    FwThrowEvent,
    FwWoundEvent,
)
from skirmish.rules.fw.melee import MELEE_REACH_M, touching
from skirmish.rules.fw.odds import Preview

__all__ = [
    "ACTS",
    "ATTACKS",
    "FIREARMS",
    "FW",
    "INTENT",
    "MELEE_REACH_M",
    "MOVE",
    "SCREEN_STOPS",
    "SCREEN_TYPES",
    "Chance",
    "FwAidEvent",
    "FwArmoury",
    "FwAttackEvent",
    "FwBleedEvent",
    "FwDeclareEvent",
    "FwEnergyEvent",
    "FwIdleEvent",
    "FwIntent",
    "FwLegal",
    "FwMoveEvent",
    "FwRiseEvent",
    "FwRuleset",
    "FwSensorsEvent",
    "FwSystems",
    "FwThrowEvent",
    "FwUnitView",
    "FwWeapon",
    "FwWoundEvent",
    "Preview",
    "attack_chance",
    "odds",
    "tables",
    "touching",
]


def tables() -> FwArmoury:
    """The shipped Future*World equipment tables (weapons, armour, equipment, grav cars)."""
    return shipped()


class FwRuleset:
    """Future*World (RULES.md §9)."""

    name = "fw"
    title = "Future*World"
    scenario_parts: SchemaParts = FW_PARTS  # its options and units (skirmish.content.fw)
    request_kinds: tuple[str, ...] = (INTENT, MOVE)  # a declaration, the movement segment

    def setup(self, scenario: Any, rng: random.Random, world: Any, emit: Callable[[Any], None]) -> FwSystems:
        return setup(scenario, rng, world, emit, shipped())


FW = register(FwRuleset())

# The fw utility AI's exact estimates (skirmish/ai/fw/, helper "fwai"): an attack as the rules roll it and its
# exact odds (R-9.4 .. ).
from skirmish.rules.fw.attack import Attack  # noqa: E402
from skirmish.rules.fw.odds import odds as attack_odds  # noqa: E402

__all__ += ["Attack", "attack_odds"]

# The RL environment's fw table and observer (skirmish/env/fw_*.py, helper "fwenv"): which weapon classes each
# attack takes and the damage classes armour stops.
from skirmish.rules.fw.actions import ATTACK_CLASSES  # noqa: E402
from skirmish.rules.fw.damage import ARMOURED_CLASSES  # noqa: E402

__all__ += ["ARMOURED_CLASSES", "ATTACK_CLASSES"]

# The fw utility AI's grenades (skirmish/ai/fw/arms.py, helper "fwai7"): the exact chance a blast catches a figure
#
from skirmish.rules.fw.missiles import p_caught  # noqa: E402

__all__ += ["p_caught"]

# The summary's tally hook (skirmish/summary.py asks for it by ruleset; helper "fwai7").
from skirmish.rulesets.fw_summary import summary_tally  # noqa: E402

__all__ += ["summary_tally"]

# The utility AI names a scenario may give a side (skirmish/content/fw.py: the one list of fw personalities, which
# skirmish/ai/fw/personality.py weighs; helper "fwai7").
from skirmish.content.fw import UTILITY  # noqa: E402

__all__ += ["UTILITY"]

# Grav cars (R-9.12; helper "fwgrav"): the car acts, a car as a side sees it, and sight as the engine works it out
# when a figure rides a car (in the vertical), for the AIs (skirmish/ai/fw/car.py) and the board.
from skirmish.ecs.fw_view import CarView  # noqa: E402
from skirmish.ecs.systems.fw.cars import view_sight  # noqa: E402
from skirmish.rules.fw.actions import CAR_ACTS  # noqa: E402
from skirmish.rules.fw.car_events import FwBoardEvent, FwCarSplitEvent, FwDriveEvent  # noqa: E402

__all__ += ["CAR_ACTS", "CarView", "FwBoardEvent", "FwCarSplitEvent", "FwDriveEvent", "view_sight"]

# Grav-car weapons (R-9.12; helper "fwcar8"): a mount as a side sees it and the pure rules the AIs and the board
# weigh a mount's fire with (who may work it, the mounted chance, the energy a shot draws from the car).
from skirmish.ecs.fw_view import MountView  # noqa: E402
from skirmish.rules.fw.mounts import crew_refusal, mounted_chance, shot_draw  # noqa: E402

__all__ += ["MountView", "crew_refusal", "mounted_chance", "shot_draw"]

# A grenade thrown at a cell: the throw's target `X,Y` read as a cell (the board and the AI aim there).
from skirmish.rules.fw.actions import cell_target  # noqa: E402

__all__ += ["cell_target"]
