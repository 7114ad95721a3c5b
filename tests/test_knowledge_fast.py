"""Who sees whom, looked at again only for the enemies and seers that changed (`Knowledge._look`), equals the
plain answer (`_seen_by` for every enemy over every seer) after every change of a random sequence of moves,
arrivals, departures and exposures on random maps. (tests/test_snapshot_cache.py compares a whole fresh
`Knowledge` with the kept one at every decision of real battles.)"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.content.tiled import from_ascii
from skirmish.ecs.knowledge import Knowledge, _seen_by

GLYPHS = "....,:#x=Df~"

maps = st.integers(3, 10).flatmap(
    lambda w: st.lists(st.text(GLYPHS, min_size=w, max_size=w), min_size=3, max_size=8)
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_look_equals_every_seer_against_every_enemy(rows: list[str], data: st.DataObject) -> None:
    grid = from_ascii(rows, "prop", "map")
    table = grid.sight_table
    cells = st.sampled_from([(x, y) for y in range(grid.height) for x in range(grid.width)])
    k = Knowledge(("a", "b"))
    seers = data.draw(st.lists(cells, max_size=4))
    enemies = {f"e{i}": (c, data.draw(st.booleans())) for i, c in enumerate(data.draw(st.lists(cells, max_size=4)))}
    for _ in range(data.draw(st.integers(1, 12))):
        got = k._look(table, "a", tuple(seers), [(n, c, x) for n, (c, x) in enemies.items()])
        assert got == frozenset(n for n, (c, x) in enemies.items() if _seen_by(table, seers, c, x))
        change = data.draw(st.sampled_from(["seer moves", "seer leaves", "seer arrives", "enemy moves", "exposure",
                                            "nothing"]))
        if change == "seer moves" and seers:
            seers[data.draw(st.integers(0, len(seers) - 1))] = data.draw(cells)
        elif change == "seer leaves" and seers:
            seers.pop(data.draw(st.integers(0, len(seers) - 1)))
        elif change == "seer arrives":
            seers.append(data.draw(cells))
        elif change in ("enemy moves", "exposure") and enemies:
            name = data.draw(st.sampled_from(sorted(enemies)))
            cell, exposed = enemies[name]
            enemies[name] = (data.draw(cells), exposed) if change == "enemy moves" else (cell, not exposed)
