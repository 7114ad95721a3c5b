"""The tenth speed session's shortcuts in the utility AI and the search tier (issue 12 item 6) answer as the plain
statements do, on the views real battles give: a decision that weighs only the unit's own cell scored in plain
floats, the throw's candidate cells found round the enemies, the attacks that can follow a shot, the cell an
enemy closes to, and the exchange without the next shot where it weighs nothing."""

from __future__ import annotations

import math
from itertools import product
from typing import Any

import numpy as np

from skirmish.ai.blast import candidate_cells
from skirmish.ai.search import order, volley
from skirmish.ai.search.model import Replies, Weights, exchange
from skirmish.ai.utility.cell_scoring import score_cells
from skirmish.ai.utility.options import Situation, plan_cells
from skirmish.ai.utility.reasoner import UtilityAI, fresh
from skirmish.ai.utility.squad import crossfire, crossfire_at, stance
from skirmish.rules.actions import EndTurn, Shoot
from skirmish.rules.fi.timing import add_part, fits
from skirmish.rulesets.fi import Part
from tests.conftest import played

BATTLES = (("depot_breach.yaml", 3), ("rubble_run.yaml", 2), ("killhouse_drill.yaml", 6), ("canal_crossing.yaml", 1))


def _bits(x: float) -> tuple[float, float]:
    return (x, math.copysign(1.0, x)) if not math.isnan(x) else (0.0, 2.0)


def _situations(steps: int = 160, battles: tuple[tuple[str, int], ...] = BATTLES) -> Any:
    """(situation, the AI) at the act decisions of real utility battles."""
    for name, seed in battles:
        ai = UtilityAI("normal")
        for _, b, req in played(name, seed, steps, ai):
            if req.kind == "act":
                view = b.observe(req.side)
                me = view.unit(req.unit)
                yield Situation(view, me, ai.p, ai._maps.maps_for(fresh(view), me), ai._maps, req.legal(),
                                ai.committed), ai


def test_one_cell_scored_in_floats_equals_the_arrays() -> None:
    """A decision that weighs only its own cell (`_score_one`) gets the inputs, outputs and score the arrays give
    that cell when another cell is scored beside it (each cell's numbers read only that cell)."""
    compared = 0
    for s, _ in _situations():
        plan = plan_cells(s)
        if plan.moves.any():
            continue
        view, me = s.view, s.me
        x, y = me.cell
        other = next(((x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
                      if view.grid.inside((x + dx, y + dy)) and view.grid.passable((x + dx, y + dy))), None)
        if other is None:
            continue
        mask = np.zeros((view.grid.height, view.grid.width), dtype=bool)
        mask[y, x] = mask[other[1], other[0]] = True
        s.maps.need(mask)
        reach = np.zeros(mask.shape)
        scores, parts = score_cells(view, me, s.p, s.maps, mask, reach, s.side, s.maps.walk_m,
                                    stance(me, s.side, s.maps, s.p.use_squad))
        assert _bits(float(plan.scores[y, x])) == _bits(float(scores[y, x]))
        got, want = plan.parts.at(me.cell), parts.at(me.cell)
        assert [c.name for c in got] == [c.name for c in want]
        for g, w in zip(got, want, strict=True):
            assert _bits(g.input) == _bits(w.input) and _bits(g.output) == _bits(w.output), (g, w)
        for name, (raw, _) in plan.parts.items():  # the raw maps hold the inputs at the scored cell
            assert _bits(float(raw[y, x])) == _bits(float(parts[name][0][y, x]))
        rest = plan.scores.copy()
        rest[y, x] = -1.0
        assert (rest == -1.0).all()  # every other cell unscored, as before
        compared += 1
    assert compared >= 60


def test_crossfire_at_one_cell_is_the_array_at_that_cell() -> None:
    compared = 0
    for s, _ in _situations(80):
        view, me = s.view, s.me
        whole = crossfire(view, me, (view.grid.height, view.grid.width))
        for x, y in ((me.cell[0], me.cell[1]), (0, 0), (view.grid.width - 1, view.grid.height // 2)):
            one = crossfire_at(view, me, (x, y))
            assert (one is None) == (whole is None)
            if one is not None and whole is not None:
                assert _bits(one) == _bits(float(whole[y, x]))
                compared += 1
    assert compared >= 100


def _plain_candidates(view: Any, me: Any, weapon: Any, legal: Any) -> list[tuple[int, int]]:
    """The session start's candidate_cells: every legal cell sorted in reading order, then the near ones kept."""
    from skirmish.ai.blast import MAX_CANDIDATES

    grid = view.grid
    seen = [e.cell for e in view.enemies(me) if not e.ghost]
    if not seen:
        return []
    reach = (weapon.blast_m + grid.cell_m / 2) / grid.cell_m
    cells = sorted(legal, key=lambda c: (c[1], c[0]))
    if not cells:
        return []
    arr, en = np.array(cells), np.array(seen)
    d = np.hypot(arr[:, None, 0] - en[None, :, 0], arr[:, None, 1] - en[None, :, 1])
    near = d.min(axis=1)
    keep = np.nonzero(near <= reach + 1e-9)[0]
    if len(keep) > MAX_CANDIDATES:
        inside = (d[keep] <= weapon.blast_m / grid.cell_m + 1e-9).sum(axis=1)
        keep = np.sort(keep[np.lexsort((keep, near[keep], -inside))[:MAX_CANDIDATES]])
    return [cells[i] for i in keep.tolist()]


def test_throw_candidates_round_the_enemies_equal_sorting_every_legal_cell() -> None:
    compared = found = 0
    # more battles than the others read, up to 40 throws weighed (how many a battle has follows the normal rung's
    # draws, which differ per battle)
    more = (("depot_breach.yaml", 4), ("rubble_run.yaml", 3), ("depot_breach.yaml", 5))
    for s, _ in _situations(battles=(*BATTLES, *more)):
        if compared >= 40 and found >= 5:
            break
        carried = {w.id: w for w, n in s.me.throwables if n > 0}
        for item, cells in s.legal.throws:
            weapon = carried.get(item)
            if weapon is None:
                continue
            got = candidate_cells(s.view, s.me, weapon, cells)
            assert got == _plain_candidates(s.view, s.me, weapon, cells)
            assert got == candidate_cells(s.view, s.me, weapon, sorted(cells))  # a list: every cell looked at
            compared += 1
            found += bool(got)
    assert compared >= 40 and found >= 5


def _plain_follow_up(speed: int, weapon: str, rof: int, declared: str | None, parts: tuple[Part, ...], first: str,
                     most: int) -> tuple[str, ...]:
    """The session start's `_follow_up`: every sequence, longest first, checked attack by attack."""
    start = add_part(list(parts), Part("attack", speed, first, weapon=weapon, rof=rof))
    if not fits(declared, start):
        return ()
    for n in range(min(volley.MOST, most), 0, -1):
        for seq in sorted(product(volley.MODES, repeat=n), key=lambda s: -s.count("prepared")):
            turn = start
            for mode in seq:
                turn = add_part(turn, Part("attack", speed, mode, weapon=weapon, rof=rof))
                if not fits(declared, turn):
                    break
            else:
                return seq
    return ()


def test_the_attacks_that_can_follow_a_shot_equal_trying_every_sequence() -> None:
    so_far = [(), (Part("move"),), (Part("attack", 1, "snap"),), (Part("move", running=True),),
              (Part("aim", 2),), (Part("attack", 2, "prepared", weapon="x", rof=2),)]
    asked = 0
    for speed, rof, declared, parts, first, most in product((0, 1, 2), (1, 2, 3), ("slow", "normal", "fast", None),
                                                          so_far, ("prepared", "snap", "aimed"), (0, 1, 3, 5, 9)):
        args = (speed, "x", rof, declared, parts, first, most)
        assert volley._follow_up.__wrapped__(*args) == _plain_follow_up(*args), args  # type: ignore[attr-defined]
        asked += 1
    assert asked > 3000


def _plain_closing_cell(view: Any, e: Any, to: tuple[int, int]) -> tuple[int, int] | None:
    from skirmish.ai.reach import walk_field
    from skirmish.rules.deck import SIDES

    grid = view.grid
    walk = float(SIDES[e.trait("dexterity")[0]]) / grid.cell_m
    if math.hypot(to[0] - e.cell[0], to[1] - e.cell[1]) <= 1:
        return None
    field = walk_field(grid, e.cell)
    ys, xs = np.nonzero(field <= walk)
    near = np.hypot(xs - to[0], ys - to[1])
    near[(xs == to[0]) & (ys == to[1])] = np.inf
    best = np.lexsort((field[ys, xs], near))[0]
    at = (int(xs[best]), int(ys[best]))
    return None if at == e.cell or not math.isfinite(near[best]) else at


def test_the_cell_an_enemy_closes_to_kept_equals_working_it_out() -> None:
    compared = 0
    for s, _ in _situations(100):
        for e in s.view.enemies(s.me):
            for to in (s.me.cell, *(f.cell for f in s.view.friends(s.me)), (0, 0)):
                for _ in range(2):  # worked out, then kept
                    assert order.closing_cell(s.view, e, to) == _plain_closing_cell(s.view, e, to)
                    compared += 1
    assert compared >= 500


def test_an_exchange_without_our_next_shot_is_the_same_value() -> None:
    """The utility AI's material scale weighs our next shot at 0: not working it out changes no part it reads."""
    compared = 0
    for s, _ in _situations(100):
        if not any(not e.ghost for e in s.view.enemies(s.me)):
            continue
        zero, tiny = Weights(follow=0.0), Weights(follow=1e-300)
        actions = [EndTurn(s.me.name), *(a for a in s.legal.shots[:3] if isinstance(a, Shoot))]
        for a in actions:
            ex0 = exchange(s.view, s.me, a, Replies.of(s.view, s.me, zero), zero, s.legal.walk)
            ex1 = exchange(s.view, s.me, a, Replies.of(s.view, s.me, tiny), tiny, s.legal.walk)
            assert ex0.follow == 0.0 and (ex0.attack, ex0.reply, ex0.survive) == (ex1.attack, ex1.reply, ex1.survive)
            assert ex0.value(zero) == ex0.attack - ex0.reply
            compared += 1
    assert compared >= 50


def test_next_turn_shots_equal_a_fresh_turns_count() -> None:
    """The exchange's count of next turn's shots reads the unit as a fresh SLOW turn would (no parts, the tacpack's
    shot points back), without building that unit for every weapon."""
    from skirmish.ai.estimate import replaced
    from skirmish.ai.search.model import _next_turn_shots
    from skirmish.ai.utility.material import shots_this_turn

    compared = energy = 0
    for name, seed in (*BATTLES, ("fi/gunslingers.yaml", 6), ("fi/outriders.yaml", 7)):
        for step, b, _ in played(name, seed, 120):
            if step % 5:
                continue
            for me in b.view().units:
                if me.weapon is None:
                    continue
                fresh = replaced(me, declared="slow", turn_parts=(), shot_points=0)
                for mode, burst in product(("prepared", "snap", "aimed"), (0, *me.weapon.bursts)):
                    want = shots_this_turn(fresh, Shoot(me.name, "", mode=mode, burst=burst))
                    assert _next_turn_shots(me, mode, burst) == want
                    compared += 1
                    energy += me.weapon.energy
    assert compared >= 500 and energy > 0
