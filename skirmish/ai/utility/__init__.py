"""A utility AI in the Infinite Axis style, with a trace of every decision.

Each option (declare a speed; move to a cell; shoot a target in a mode; throw; aim; reload; wait; split the
tacpack; end the turn) is scored by its considerations: a raw input in [0, 1] through a response curve,
multiplied after the compensation factor. The option the unit chose last time gets a momentum bonus, and
ending the turn is a constant fallback. Threat, cover and sight come from numpy maps built once per phase;
every reachable cell is scored at once, which also gives the board its heat map.

The rooms: `personality` (weights and the curves they shape, as data), `maps` (threat, cover and reach maps
and their caches), `options` (the candidate actions, from what the battle says is legal), `scoring` (the
considerations; `cell_scoring` those of the cells an action may end in), `intent` (the side's intent from its
view, issue 12), `squad` (the squad's considerations: spacing, crossfire, overwatch, wounded units), `material`
(the final pick between attacking and not, on the search tier's additive scale of expected material) and
`reasoner` (the controller: choose, remember habits, trace).
"""

from skirmish.ai.utility.intent import Goal, Intent, side_intent
from skirmish.ai.utility.maps import COVER_VALUE, MapCache, TacticalMaps, build_maps, route_threat
from skirmish.ai.utility.options import Situation, act_options, declare_options
from skirmish.ai.utility.personality import DIFFICULTIES, PERSONALITIES, TOP_MOVES, Personality
from skirmish.ai.utility.reasoner import UtilityAI, make_utility
from skirmish.ai.utility.scoring import HARM, Consideration, Option, harm

__all__ = [
    "COVER_VALUE", "DIFFICULTIES", "HARM", "PERSONALITIES", "TOP_MOVES", "Consideration", "Goal", "Intent",
    "MapCache", "Option",
    "Personality", "Situation", "TacticalMaps", "UtilityAI", "act_options", "build_maps", "declare_options", "harm",
    "make_utility", "route_threat", "side_intent",
]
