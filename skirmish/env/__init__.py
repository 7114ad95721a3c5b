"""skirmish as a reinforcement-learning environment (issue 11, item 7; docs/RL.md).

`env()` / `raw_env` are a PettingZoo AEC environment (one agent per side), named as PettingZoo's own
environments are; `SingleAgentEnv` is a Gymnasium environment playing one side against a named AI.
Observations come from `Battle.observe(side)`, action masks from `Battle.legal_actions(unit)`; the action table
and the observer are the scenario's ruleset's (`env/spec.py`: Future Imperfect's, Future*World's).
Needs the `rl` extra: pip install "skirmish[rl]" (pettingzoo, gymnasium).
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(f"skirmish.env needs the rl extra (pettingzoo, gymnasium): pip install 'skirmish[rl]' ({exc})") from exc

from skirmish.env.actions import ActionTable
from skirmish.env.aec import env, raw_env
from skirmish.env.game import Game
from skirmish.env.observation import CHANNELS
from skirmish.env.single import SingleAgentEnv

GYM_ID = "skirmish/Battle-v0"  # gymnasium.make(GYM_ID, scenario=..., side=..., opponent=...)
if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="skirmish.env.single:SingleAgentEnv")

__all__ = ["CHANNELS", "GYM_ID", "ActionTable", "Game", "SingleAgentEnv", "env", "raw_env"]
