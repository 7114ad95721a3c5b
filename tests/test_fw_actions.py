"""Future*World's actions beyond the first slice (issue 13): the attack rolled through `rules/fw/attack.resolve`
with its exact preview (`Battle.odds` at a declaration: `odds.odds` of the same `Attack`, and a seeded sampling of
real resolutions agreeing with it), melee and the force sword (R-9.4/R-9.6), grenades and missiles (R-9.10) with
the EW programs that steer seekers (R-9.9); each with fixed dice showing its rolls and rule ids."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import make_controller
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.core.errors import IllegalAction
from skirmish.rulesets.fw import FwIntent, Preview, tables
from skirmish.rulesets.fw import odds as fw_odds

OPEN = ["##########", "#,,,,,,,,#", "#,,,,,,,,#", "#,,,,,,,,#", "##########"]
T = tables()


def chars(dex: int, con: int = 12, str_: int = 12, pow_: int = 10) -> str:
    return f"{{STR: {str_}, CON: {con}, SIZ: 12, INT: 12, POW: {pow_}, DEX: {dex}}}"


def fw_text(blue: str, red: str, blue_orders: list[str] = (), red_orders: list[str] = (),  # type: ignore[assignment]
            rows: list[str] = OPEN, max_rounds: int = 1) -> str:
    return (f"name: t\nruleset: fw\nseed: 3\nmap: {{ascii: {rows!r}}}\nvictory: {{max_rounds: {max_rounds}}}\n"
            f"sides:\n  - name: Blue\n    controller: scripted\n    orders: {list(blue_orders)!r}\n    units: {blue}\n"
            f"  - name: Red\n    controller: scripted\n    orders: {list(red_orders)!r}\n    units: {red}\n")


class Dice:
    """The battle's random source with its rolls given in order."""

    def __init__(self, rolls: list[int]) -> None:
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        assert self.rolls, f"a roll of {a}-{b} was asked for, none is left"
        v = self.rolls.pop(0)
        assert a <= v <= b, f"the next roll {v} is not in {a}-{b}"
        return v


def battle(tmp_path: Path, text: str, dice: list[int] | None = None, seed: int | None = None) -> Battle:
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    ctrl = {s.name: make_controller(s.controller, list(s.orders), s.ai, "fw") for s in sc.spec.sides}
    b = Battle(sc, seed=seed, controllers=ctrl)  # type: ignore[arg-type]
    if dice is not None:
        b.sys.ctx.rng = Dice(dice)
    return b


def of(b: Battle, etype: str) -> list[Any]:
    return [e for e in b.log.events if e.type == etype]


SHOOTER = (f"[{{name: Ann, at: [2, 2], characteristics: {chars(14)}, skills: {{autogun: 60}},"
           f" weapons: [light_assault]}}]")
TARGET = (f"[{{name: Cid, at: [7, 2], characteristics: {chars(12, con=16)}, armour: [nylar],"
          f" weapons: [heavy_rifle], tacpack: {{generator: 5, screen: kinetic, screen_points: 2}}}}]")


@pytest.mark.parametrize("act", ["shoot", "burst"])
def test_the_preview_at_a_declaration_is_odds_of_the_attack_the_roll_takes(tmp_path: Path, act: str) -> None:
    b = battle(tmp_path, fw_text(SHOOTER, TARGET, [f"intent Ann {act} target=Cid"], ["intent Cid"]))
    assert b.pending is not None and b.pending.kind == "intent" and b.pending.unit == "Ann"
    p = b.odds(FwIntent("Ann", act, "Cid"))
    assert isinstance(p, Preview) and p.chance == 60 and p.hp == 16
    o = fw_odds.odds(fw_odds.Attack.of(60, "4D6", "P", impales=True, burst=act == "burst",
                                       armour=T.armour["nylar"].stops, screen_type="kinetic", screen=2))
    assert p.odds == o and p.odds.hit == Fraction(60, 100) and p.odds.impale == Fraction(12, 100)
    assert p.text.startswith("hit 60.0%, impale 12.0%, mean ")
    with pytest.raises(IllegalAction, match=r"R-9\.4: Ann carries no heavy_rifle"):
        b.odds(FwIntent("Ann", act, "Cid", weapon="heavy_rifle"))


def test_a_seeded_sampling_of_real_resolutions_agrees_with_the_preview(tmp_path: Path) -> None:
    text = fw_text(SHOOTER, TARGET, ["intent Ann burst target=Cid"], ["intent Cid screen=kinetic points=2"])
    preview = battle(tmp_path, text).odds(FwIntent("Ann", "burst", "Cid"))
    n, hits, dealt = 300, 0, 0
    for seed in range(n):
        b = battle(tmp_path, text, seed=seed)
        b.run()
        (a,) = of(b, "fw_attack")
        hits += a.hit
        dealt += sum(h["through"] for h in a.damage)
        assert a.chance == preview.chance and a.rules[:2] == ("R-9.2", "R-9.4")
    # Binomial/sample-mean bands of about 4 standard errors around the exact values.
    p = float(preview.odds.hit)
    assert abs(hits / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    mean = float(preview.odds.mean)
    var = float(sum((x - preview.odds.mean) ** 2 * q for x, q in preview.odds.damage.items()))
    assert abs(dealt / n - mean) < 4 * (var / n) ** 0.5


def test_the_attack_rolls_through_attack_resolve_with_every_die_logged(tmp_path: Path) -> None:
    # d100 7 (<= 60/5: impale), 1d3 = 3 hits; 4D6 twice for the first, 4D6 each for the others.
    dice = [7, 3, 6, 6, 6, 6, 1, 1, 1, 1, 2, 2, 2, 2, 5, 5, 5, 5, 4]
    b = battle(tmp_path, fw_text(SHOOTER, TARGET, ["intent Ann burst target=Cid"], ["intent Cid screen=kinetic points=2"]), dice)
    b.run()
    (a,) = of(b, "fw_attack")
    assert a.burst_roll == 3 and a.impale and [h["rolls"] for h in a.damage] == [[6, 6, 6, 6, 1, 1, 1, 1], [2] * 4,
                                                                                  [5] * 4]
    assert [h["rolled"] for h in a.damage] == [28, 8, 20]  # nylar stops 9 P, the kinetic screen 2
    assert [h["through"] for h in a.damage] == [28 - 11, 0, 20 - 11]
