"""speedutil11's shortcuts in the utility AI (issue 12 item 6) answer as the plain statements do, on the views real
battles give: covering fire's centres (R-6.12) kept with the map by the unit's cell, the enemies' cells and the
reach are the centres worked out afresh."""

from __future__ import annotations

from typing import Any

import pytest

from skirmish.ai.utility import cover_centres, ranged_extra
from tests.conftest import played


def test_kept_cover_centres_equal_fresh_ones_and_repeats_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    real = cover_centres.centres
    asked, kept = 0, 0

    def check(s: Any, known: list[Any], reach_m: float) -> tuple[tuple[int, int], ...]:
        nonlocal asked, kept
        grid = s.view.grid
        store = grid.kept.get("cover_centres", {})
        key = ((int(s.me.cell[0]), int(s.me.cell[1])), tuple((int(e.cell[0]), int(e.cell[1])) for e in known), reach_m)
        before = store.get(key)
        got = real(s, known, reach_m)
        fresh = cover_centres.work_out(grid, key[0], key[1], reach_m)
        assert got == fresh and type(got) is tuple
        assert real(s, known, reach_m) is grid.kept["cover_centres"][key]  # asked again: the kept answer
        asked += 1
        kept += before is not None
        return got

    monkeypatch.setattr(ranged_extra, "_centres", check)
    for name, seed in (("depot_breach.yaml", 1), ("depot_breach.yaml", 4), ("canal_crossing.yaml", 2)):
        for _ in played(name, seed, 400):
            pass
    assert asked >= 30 and kept >= 5  # some were answered from the map's store


def test_kept_cover_centres_start_again_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cover_centres, "CENTRES_KEPT", 3)
    sizes = []

    def watch(s: Any, known: list[Any], reach_m: float) -> tuple[tuple[int, int], ...]:
        if not sizes:  # (the map's store is shared with the battles before: start it empty)
            s.view.grid.kept.pop("cover_centres", None)
        got = cover_centres.centres(s, known, reach_m)
        sizes.append(len(s.view.grid.kept["cover_centres"]))
        return got

    monkeypatch.setattr(ranged_extra, "_centres", watch)
    for _ in played("depot_breach.yaml", 1, 300):
        pass
    assert sizes and max(sizes) <= 3
