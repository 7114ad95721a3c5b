"""The board's frame-time benchmark: 50 miniatures on the 40x30 depot map, AI against AI at 8x."""

from __future__ import annotations

from skirmish.content.scenario import Scenario, default_scenario_path, load_scenario
from skirmish.ui.app import App
from skirmish.ui.settings import Settings

PER_SIDE = 25


def crowded_scenario() -> Scenario:
    """The default scenario with each side's units copied until every side has PER_SIDE, on free cells
    of its own half of the map."""
    base = load_scenario(default_scenario_path())
    grid = base.grid
    taken: set[tuple[int, int]] = set()
    sides = []
    for si, side in enumerate(base.spec.sides):
        rows = range(1, grid.height // 2 - 1) if si == 0 else range(grid.height - 2, grid.height // 2, -1)
        free = [(x, y) for y in rows for x in range(1, grid.width - 1) if grid.passable((x, y))]
        units = []
        for i in range(PER_SIDE):
            proto = side.units[i % len(side.units)]
            cell = next(c for c in free[i * 3:] if c not in taken)
            taken.add(cell)
            units.append(proto.model_copy(update={"name": f"{side.name[:-1]}-{i + 1}", "at": cell}))
        sides.append(side.model_copy(update={"units": units}))
    spec = base.spec.model_copy(update={"sides": sides})
    return Scenario(spec, grid, base.armoury, base.source, base.stacked)


def board_frame_times(frames: int) -> tuple[list[float], list[float]]:
    """(draw ms, whole-frame ms) for `frames` frames of an AI battle at 8x on the crowded scenario."""
    import time

    settings = Settings(speed=8.0)
    settings.save = lambda: None  # type: ignore[method-assign]  # a benchmark leaves the user's settings alone
    app = App(scenario=crowded_scenario(), settings=settings, size=(1280, 800))
    whole: list[float] = []
    try:
        for _ in range(frames):
            t0 = time.perf_counter()
            if not app.tick(1 / 60):
                break
            whole.append((time.perf_counter() - t0) * 1000)
        draw = list(app.frame_ms)
    finally:
        app.close()
    return draw, whole
