"""Cover kept per pair (`refresh_cover` looks again only for combatants that moved, came or left) equals the
best cover worked out over every pair afresh, at every decision of real battles on every shipped scenario."""

from __future__ import annotations

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import builtin_scenarios, load_scenario
from skirmish.ecs.components import Cover, Health, Identity
from skirmish.rules import geometry as geo


def _fresh_cover(b: Battle) -> dict[str, tuple[str, int]]:
    """The rule as first written: each combatant in action, its best (level, AV) over enemies in action that
    see it."""
    w = b.world
    units = [(e, i.side_index, w.cell(e)) for e, i in w.units() if not w.peek(e, Health).out_of_action]
    out = {}
    for eid, side, here in units:
        best = (0, 0)
        for _, other, there in units:
            if other != side:
                s = geo.sight_reference(b.ctx.grid, there, here)
                if s.visible:
                    best = max(best, (geo.COVER_LEVEL[s.cover], s.cover_av))
        out[w.peek(eid, Identity).name] = (geo.COVER_NAME[best[0]], best[1])
    return out


def _kept_cover(b: Battle) -> dict[str, tuple[str, int]]:
    w = b.world
    return {i.name: (w.peek(e, Cover).level, w.peek(e, Cover).av) for e, i in w.units()
            if not w.peek(e, Health).out_of_action}


@pytest.mark.parametrize("path", builtin_scenarios(), ids=lambda p: p.stem)
def test_kept_cover_equals_fresh_cover(path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """After every refresh (each move, each round's bookkeeping), the Cover components equal fresh cover."""
    from skirmish.ecs.systems.fi.round import FiRound

    real = FiRound.refresh_cover
    box: list[Battle] = []
    calls = 0

    def checked(self: FiRound) -> None:
        nonlocal calls
        real(self)
        if box:
            calls += 1
            assert _kept_cover(box[0]) == _fresh_cover(box[0])

    monkeypatch.setattr(FiRound, "refresh_cover", checked)
    sc = load_scenario(path)
    for seed in range(1, 8):  # several battles: a short one alone may move too little (Killhouse: 2-5 rounds)
        with Battle(sc, seed=seed, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
            box.append(b)
            b.run()
        box.clear()  # the next battle's first refresh runs while it is made, before it is in the box
    assert calls > 10
