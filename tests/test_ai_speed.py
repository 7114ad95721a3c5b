"""The utility AI's kept shortcuts (issue 12 item 6) answer as the plain functions do: the kept timing check,
a curve at one number, and the options' considerations."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np

from skirmish.ai.curves import KINDS, Curve
from skirmish.ai.estimate import fits_kept
from skirmish.ai.utility.scoring import Option
from skirmish.rules.actions import EndTurn
from skirmish.rulesets.fi import DECLARATIONS, Part, fits


def test_the_kept_timing_check_is_the_rules_check() -> None:
    parts = [Part("move"), Part("move", running=True), Part("attack", 1, "prepared"), Part("attack", 2, "snap"),
             Part("attack", 1, "aimed"), Part("aim", 1), Part("aim", 2), Part("reload", 2), Part("free")]
    checked = 0
    for declared in (*DECLARATIONS, None):
        for n in range(4):
            for combo in itertools.product(parts, repeat=n):
                for _ in range(2):  # the second time from what was kept
                    assert fits_kept(declared, combo) == fits(declared, list(combo)), (declared, combo)
                checked += 1
    assert checked > 1000


def test_a_curve_at_one_number_is_the_curve_on_an_array_and_an_option_scores_as_the_curve_does() -> None:
    rng = random.Random(5)
    xs = [0.0, -0.0, 1.0, 0.5, 1e-300, -1e-300, 2.0, -3.0, math.nan] + [rng.uniform(-0.2, 1.2) for _ in range(60)]
    for kind in KINDS:
        for _ in range(8):
            c = Curve(kind, rng.uniform(-2, 2), rng.uniform(0.1, 9), rng.uniform(-1, 1), rng.uniform(-0.5, 1))
            for x in xs + xs:
                got, want = c.at(x), float(c(np.array([x]))[0])
                assert (math.isnan(got) and math.isnan(want)) or (
                    got == want and math.copysign(1.0, got) == math.copysign(1.0, want)), (c, x)
                for raw in (x, np.float64(x), np.array(x)):
                    o = Option("x", EndTurn("u"), ("end",)).add("x", raw, c)  # type: ignore[arg-type]
                    out = o.considerations[0].output
                    assert (math.isnan(out) and math.isnan(want)) or out == want


def test_a_replaced_unit_view_is_dataclasses_replace() -> None:
    import dataclasses

    from skirmish.ai.controllers import make_ai
    from skirmish.ai.estimate import replaced
    from skirmish.battle import Battle
    from skirmish.content.scenario import SCENARIOS_DIR, load_scenario

    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    with Battle(sc, seed=1, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
        for _ in range(30):
            b.step()
        for u in b.view().units:
            for changes in ({"cell": (3, 4), "ready_target": None, "aim": 0}, {"ready_target": "X", "aim": 2}):
                got, want = replaced(u, **changes), dataclasses.replace(u, **changes)
                assert got == want and list(vars(got)) == list(vars(want))
