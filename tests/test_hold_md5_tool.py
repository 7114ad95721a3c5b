"""tools/hold_md5.py, the behaviour-neutral check of speed changes, plays each scenario with its own ruleset's AI:
a Future*World battle played by Future Imperfect's baseline AI has every answer refused (fallbacks only), so its
md5 would vouch for nothing fw's AI does (revspeed10)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from skirmish.content.scenario import SCENARIOS_DIR, load_scenario

TOOL = Path(__file__).resolve().parents[1] / "tools" / "hold_md5.py"


def test_fw_battles_are_played_by_fw_ai() -> None:
    spec = importlib.util.spec_from_file_location("hold_md5", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    events = [json.loads(line) for line in tool.play(load_scenario(SCENARIOS_DIR / "fw/scout_run.yaml"), 6,
                                                     "hold").splitlines()]
    assert not [e for e in events if e["type"] == "refused"]
    assert any(e["type"] == "fw_attack" for e in events)
