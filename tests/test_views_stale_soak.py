"""A second reader's soak of the kept engine state (issue 12, revspeed10): through seeded battles of every shipped
scenario (scenarios/, fi/, fw/, training/), at every decision and after every event,
- every component that changed was handed out (World.get or query) since it was last read: the kept unit views
  (World.snapshot), the side views (Knowledge) and the end check (Battle._check_end) see every change only so;
- what each side knows (Knowledge.update, kept: units read again only when handed out) equals an update made
  with nothing kept from the same memory (fw's vertical sightings and mounts included);
- each side's view (Knowledge.observe, kept per side and patched) equals one made with nothing kept, for every
  side, not only the one asked (the board and the RL environments ask any side at any time);
- the end check's early return (no Health handed out while more than one side stands) never misses an end.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.ecs.knowledge import Knowledge
from skirmish.ecs.systems.fi.mounts import MountKnowledge
from skirmish.ecs.systems.fw.views import FwKnowledge

SHIPPED = sorted(p for p in SCENARIOS_DIR.rglob("*.yaml") if p.parent.name != "bench")  # bench: 24 v 24, seconds


def _fresh_observer(k: Knowledge) -> Knowledge:
    """`k` with every kept look dropped (what it knows shared): its `observe` works every unit out afresh."""
    out = copy.copy(k)
    out._observed = {}
    out._enemy_views = {}
    if isinstance(out, FwKnowledge):
        out._cut = {}
    return out


def _kept_looks(k: Knowledge) -> tuple[Any, ...]:
    """What `observe` keeps, copied (`_put_back`)."""
    return dict(k._observed), {s: dict(v) for s, v in k._enemy_views.items()}, dict(getattr(k, "_cut", {}))


def _put_back(k: Knowledge, kept: tuple[Any, ...]) -> None:
    k._observed, k._enemy_views = kept[0], kept[1]
    if isinstance(k, FwKnowledge):
        k._cut = kept[2]


def _unkept(k: Knowledge, before: Knowledge | None) -> Knowledge:
    """A Knowledge of `k`'s kind that knows what `before` knew (nothing if None) and keeps nothing else, so that
    its `update` looks at every unit and every side afresh."""
    out = copy.copy(k)
    Knowledge.__init__(out, k.sides, k.armoury)  # seen, last and every kept look start empty
    if isinstance(out, FwKnowledge):
        out._cut = {}
        out._shown = {s: dict(before._shown[s]) if before else {} for s in k.sides}  # type: ignore[attr-defined]
    if isinstance(out, MountKnowledge):
        out._mount_memory = {s: dict(before._mount_memory[s]) if before else {}  # type: ignore[attr-defined]
                             for s in k.sides}
    if before is not None:
        out.seen = dict(before.seen)
        out.last = {s: dict(m) for s, m in before.last.items()}
    return out


class _Watch:
    """Every component of every entity as last read, with the count of its type's hand-outs then."""

    def __init__(self, b: Battle) -> None:
        self.b = b
        types = {t for comps in b.world._db.values() for t in comps}
        self.counts = {t: b.world.watch(frozenset({t})) for t in types}
        self.kept = self._read()

    def _read(self) -> dict[tuple[int, type[Any]], tuple[str, int]]:
        out = {}
        for eid, comps in self.b.world._db.items():
            for t, c in comps.items():
                counts = self.counts.get(t)
                if counts is not None:
                    out[eid, t] = (repr(c), counts.get(eid, 0))
        return out

    def check(self, where: str) -> None:
        now = self._read()
        for key, (text, n) in now.items():
            was = self.kept.get(key)
            if was is not None and was[0] != text and was[1] == n:
                eid, t = key
                raise AssertionError(f"{where}: {t.__name__} of entity {eid} changed without a hand-out:\n"
                                     f"  was {was[0]}\n  now {text}")
        self.kept = now


def _soak(path: Path, seed: int, ai: str, steps: int) -> int:
    sc = load_scenario(path)
    checked = 0
    box: list[Battle] = []
    reference: list[Knowledge | None] = [None]
    ended_missed: list[str] = []

    def views_check(b: Battle, where: str) -> None:
        fresh = _fresh_observer(b.knowledge)
        view = b.view()
        for side in b.sides:
            kept = b.knowledge.observe(view, side)
            made = fresh.observe(view, side)
            assert kept.units == made.units, f"{where}: {side}'s kept view differs from one made afresh"
            assert getattr(kept, "mounts", ()) == getattr(made, "mounts", ())

    def on_event(e: Any) -> None:
        if box and box[0].pending is not None:  # mid-action: views asked by the board's callbacks
            k = box[0].knowledge
            kept = _kept_looks(k)  # put back after: a look asked mid-action would have every later one made afresh
            views_check(box[0], f"{path.stem} seed {seed} event {e.type}")
            _put_back(k, kept)

    with Battle(sc, seed=seed, controllers={s.name: make_ai(ai, sc.spec.ruleset) for s in sc.spec.sides},
                on_event=on_event) as b:
        real = b._check_end

        def check_end(round_over: bool = False) -> bool:
            standing = b._count()[0]
            over = real(round_over)
            if sum(1 for n in standing.values() if n > 0) <= 1 and not over:
                ended_missed.append(f"round {b.ctx.round}: {standing}")
            return over

        b._check_end = check_end  # type: ignore[method-assign]
        box.append(b)
        watch = _Watch(b)
        ref = _unkept(b.knowledge, None)
        ref.update(b.world, b.ctx.grid, b.ctx.round)
        reference[0] = ref
        while True:
            where = f"{path.stem} seed {seed} step {checked}"
            watch.check(where)
            ref = _unkept(b.knowledge, reference[0])
            ref.update(b.world, b.ctx.grid, b.ctx.round)
            reference[0] = ref
            assert ref.state() == b.knowledge.state(), f"{where}: what the sides know differs from a fresh update"
            views_check(b, where)
            if b.pending is None or checked >= steps:
                break
            b.step()
            checked += 1
    assert not ended_missed, f"{path.stem} seed {seed}: an end was missed: {ended_missed}"
    return checked


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_kept_state_equals_fresh_state_through_battles(path: Path) -> None:
    checked = _soak(path, 5, "hold", 120)
    assert checked > 10
