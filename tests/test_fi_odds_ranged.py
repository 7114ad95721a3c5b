"""`Battle.odds` for the rest of ranged combat (issue 14, the board's previews): a launch's odds scatter as a launch
(the card's launched multiplier, R-6.10), over exactly the cards that may come up; a split burst's odds are each
target's own shot (R-6.3: its share of the dice, the TN +2 per extra target)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.rules.actions import Launch, Shoot
from skirmish.rulesets.fi import SplitOdds
from tests.test_fi_ranged_launch import _battle


def test_a_launchs_odds_scatter_by_the_launched_multiplier(tmp_path: Path) -> None:
    """The pile after initiative: the shot card (a miss by 3, 12 o'clock, launched x2 = 6 m: on Far, 3 cells beyond
    the aim; thrown x1 would be 3 m) and eight cards that hit. Near stands on the aimed cell, Far 6 m beyond."""
    with _battle(tmp_path, 2) as b:
        while not (b.pending.kind == "act" and b.pending.unit == "Gunner"):
            b.step()
        odds = b.odds(Launch("Gunner", (8, 1)))
        assert odds.exact and odds.samples == 9
        assert odds.on_target == pytest.approx(8 / 9)
        assert odds.full["Near"] == pytest.approx(8 / 9)  # every hit bursts on him
        assert odds.full["Far"] == pytest.approx(1 / 9)  # the miss lands on him: 6 m, the launched scatter
        b.run()
        assert next(e for e in b.log if e.type == "launch").landed == [11, 1]  # as the odds' one miss said


def test_a_split_bursts_odds_are_each_targets_own_shot() -> None:
    from skirmish.ai.controllers import ScriptedController
    from skirmish.battle import Battle
    from skirmish.content.scenario import load_scenario

    sc = load_scenario(Path(__file__).parent / "data" / "ranged" / "harry_split.yaml")
    with Battle(sc, controllers={s.name: ScriptedController(s.orders) for s in sc.spec.sides}) as b:  # type: ignore[arg-type]
        while not (b.pending.kind == "act" and b.pending.unit == "Harry"):
            b.step()
        split = b.odds(Shoot("Harry", "Kyr-1", mode="prepared", burst=5, also=("Kyr-2",)))
        assert isinstance(split, SplitOdds) and [name for name, _ in split.per] == ["Kyr-1", "Kyr-2"]
        alone = b.odds(Shoot("Harry", "Kyr-1", mode="prepared", burst=5))
        assert split.per[0][1].wounds < alone.wounds  # 3 of 5 dice, 2 of 5 rounds and TN +2
        assert split.hit == split.per[0][1].hit and "Kyr-2 hit" in split.label()
