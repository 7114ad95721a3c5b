"""Soak (issue 14 item 7): the melee and mind test scenarios (tests/data/melee, tests/data/mind) played to the end
by the utility AI against the scripted baselines (and the search tier, and baselines against each other), with the
shuffled deck and a longer round limit: every answer is one the battle listed, no `refused` event, each battle
ends, and the utility AI does fight hand to hand where its units carry knives and swords."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle, consult
from skirmish.content.scenario import parse_scenario

DATA = Path(__file__).resolve().parent / "data"
SCENARIOS = [*sorted((DATA / "melee").glob("*.yaml")), DATA / "mind" / "ambush.yaml"]
PAIRINGS = [("utility", "hold", 1), ("rush", "utility", 2), ("utility", "focus", 3), ("search", "rush", 4),
            ("spread", "hold", 5)]
MELEE = {"melee", "charge", "maneuver", "melee_contest", "defend", "break_free", "rise", "contest"}


def _scenario(path: Path, tmp_path: Path) -> object:
    """The scenario with its stacked deck left out (shuffled cards) and eight rounds to play."""
    raw = yaml.safe_load(path.read_text())
    raw.pop("deck", None)
    raw.pop("orders", None)
    raw["victory"] = {"eliminate": True, "max_rounds": 8}
    for side in raw["sides"]:
        side.pop("orders", None)
    return parse_scenario(yaml.safe_dump(raw), str(tmp_path / path.name), base=path.parent)


def _play(sc: object, first: str, second: str, seed: int) -> tuple[list[str], int]:
    names = [s.name for s in sc.spec.sides]  # type: ignore[attr-defined]
    ctrl = {names[0]: make_ai(first), names[1]: make_ai(second)}
    with Battle(sc, seed=seed, controllers=ctrl) as b:  # type: ignore[arg-type]
        while b.pending is not None:
            req = b.pending
            action, trace = consult(ctrl[req.side], b.observe(req.side), req)
            assert req.legal().allows(action), (req, str(action), b.check(action))
            b.answer(req, action, trace)
        refused = [e.to_json() for e in b.log if e.type == "refused"]
        assert refused == [], refused[:3]
        assert b.outcome is not None
        return [e.type for e in b.log if e.type in MELEE], len(b.log)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_the_ais_play_the_melee_and_mind_scenarios_legally(path: Path, tmp_path: Path) -> None:
    sc = _scenario(path, tmp_path)
    used = []
    for first, second, seed in PAIRINGS:
        kinds, _ = _play(sc, first, second, seed)
        used += kinds
    armed = "melee:" in path.read_text()
    if armed:
        assert {"melee", "charge"} & set(used), (path.stem, used)  # the utility side fights hand to hand
