"""The tools around a battle (tournament, bench, behaviour figures, the RL environment) on Future*World scenarios:
each plays the scenario's own ruleset's AIs or says plainly that it cannot, with exit status 2 and the file named,
never FI's AIs answering fw requests (which the battle would refuse, leaving both sides idle)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skirmish.content.scenario import SCENARIOS_DIR, load_scenario

HAB = SCENARIOS_DIR / "fw" / "hab_module.yaml"


def _cli(args: list[str]) -> int:
    from skirmish.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(args)
    return int(exit_.value.code or 0)


def test_a_tournament_on_fw_refuses_an_ai_fw_has_not_naming_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(["tournament", "--ai", "utility", "--vs", "cunning", "--pairs", "1", "--workers", "1", str(HAB)]) == 2
    err = capsys.readouterr().err
    assert "hab_module.yaml" in err and "cunning" in err and "Traceback" not in err


def test_behaviour_figures_refuse_fw_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--behaviour", "--ai", "utility", "--vs", "hold", "--pairs", "1", "--workers", "1", str(HAB)]
    assert _cli(args) == 2
    assert "Future Imperfect's only" in capsys.readouterr().err


def test_bench_plays_the_scenarios_own_ais(monkeypatch: pytest.MonkeyPatch) -> None:
    """`skirmish bench --ai` and `--decisions` ask for the AI of the scenario's ruleset: no fw request is refused."""
    from skirmish.ai import controllers
    from skirmish.battle import Battle
    from skirmish.cli import bench, bench_ai

    asked: list[tuple[str, str]] = []
    real = controllers.make_ai

    def spy(spec: str, ruleset: str = "fi") -> Any:
        asked.append((spec, ruleset))
        return real(spec, ruleset)

    monkeypatch.setattr(controllers, "make_ai", spy)
    refused: list[str] = []
    emit = Battle._emit

    def watch(self: Battle, event: Any) -> None:
        if event.type == "refused":
            refused.append(str(event))
        emit(self, event)

    monkeypatch.setattr(Battle, "_emit", watch)
    scenario = load_scenario(HAB)
    bench_ai.play(scenario, "hold", 1)
    assert bench.bench_decisions(scenario, "hold", 1) == 0
    assert asked and {r for _, r in asked} == {"fw"}
    assert refused == []


def test_bench_decisions_lists_fws_request_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(["bench", str(HAB), "--decisions", "hold", "--battles", "1"]) == 0
    out = capsys.readouterr().out
    assert "hold intent decisions:" in out and "hold move decisions:" in out


def test_the_rl_environment_plays_an_fw_scenario_with_fws_table(tmp_path: Path) -> None:
    from skirmish.env.game import Game

    game = Game(HAB)  # the env spec of the scenario's ruleset (tests/test_env_fw.py plays it)
    assert game.spec.ruleset == "fw" and "intent" in game.table.block


def test_the_summary_counts_a_grenades_blast(tmp_path: Path) -> None:
    """The after-battle summary (skirmish.summary) counts a thrown grenade as a shot and every HP its blast put
    through armour and screen as dealt by the thrower (R-9.10), as it does an attack's (hab module, seed 13: a
    grenade catches two figures)."""
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle
    from skirmish.rulesets.fw import FwAttackEvent, FwThrowEvent
    from skirmish.summary import summarize, unit_sides

    sc = load_scenario(HAB)
    with Battle(sc, seed=13, controllers={s.name: make_ai("hold", "fw") for s in sc.spec.sides}) as b:
        b.run()
        log = list(b.log)
    throws = [e for e in log if isinstance(e, FwThrowEvent) and any(c["through"] for c in e.caught)]
    assert throws, "seed 13 no longer throws a grenade that hurts: pick another seed"
    thrower = throws[0].actor
    shots = [e for e in log if isinstance(e, FwAttackEvent | FwThrowEvent) and e.actor == thrower]
    dealt = sum(sum(h["through"] for h in e.damage) for e in shots if isinstance(e, FwAttackEvent) and e.hit) + \
        sum(c["through"] for e in shots if isinstance(e, FwThrowEvent) for c in e.caught)
    summary = summarize(log, unit_sides((s.name, [u.name for u in s.units]) for s in sc.spec.sides))
    me = summary.units[thrower]
    assert me.shots == len(shots)
    assert me.wounds_dealt == dealt > 0
