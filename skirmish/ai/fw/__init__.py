"""The Future*World utility AI (`--ai utility[:personality]` on an fw scenario): exact-odds estimates
(estimate.py), the side's intent (side.py), the personalities as data (personality.py) and the reasoner
(reasoner.py). docs/AI.md, "Future*World"."""

from skirmish.ai.fw.personality import PERSONALITIES, FwPersonality
from skirmish.ai.fw.reasoner import FwOption, FwUtilityAI, make_fw_utility

__all__ = ["PERSONALITIES", "FwOption", "FwPersonality", "FwUtilityAI", "make_fw_utility"]
