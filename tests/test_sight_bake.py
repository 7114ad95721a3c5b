"""Baked sight (skirmish.rules.sight_bake, skirmish.content.sight_bakes, `skirmish bake`): a bake holds the rule's
own answers for every pair (R-6.6), a table that adopts one answers as a fresh table does without walking a line,
every shipped scenario's map ships with a current bake, bad bake files are passed over, and battles play the same
events with bakes or without."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.battle import Battle
from skirmish.cli import main
from skirmish.cli.bake import load_map, shipped_scenarios
from skirmish.content import sight_bakes
from skirmish.content.scenario import default_scenario_path, load_scenario
from skirmish.content.tiled import from_ascii
from skirmish.rules import geometry as geo
from skirmish.rules import map_state
from skirmish.rules.sight_bake import BAKE_MAX_CELLS, BAKE_VERSION, bake, bake_key, from_arrays, to_arrays
from skirmish.rules.sight_table import SightTable

GLYPHS = "....,:#x=Df~"  # floor-heavy, with walls, low cover, doors, fences, water, rubble (test_sight_table's)
maps = st.integers(2, 9).flatmap(lambda w: st.lists(st.text(GLYPHS, min_size=w, max_size=w), min_size=2, max_size=8))
WHOLE_CHECK_CELLS = 400  # shipped maps up to this size are baked afresh and compared pair for pair
ROOM = ["....#.....", "..x.#..:..", "....D.....", "#=##..~...", "......x..."]


def _cells(grid: geo.GridMap) -> list[geo.Cell]:
    return [(x, y) for y in range(grid.height) for x in range(grid.width)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps)
def test_bake_holds_the_rule_for_every_pair(rows: list[str]) -> None:
    grid = from_ascii(rows, "prop", "map")
    b = bake(grid)
    for a in _cells(grid):
        for c in _cells(grid):
            assert b.sight(a, c) == geo.sight_reference(grid, a, c), (rows, a, c)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, seed=st.integers(0, 2**16))
def test_an_adopting_table_answers_as_a_fresh_one_and_walks_no_line(rows: list[str], seed: int) -> None:
    grid = from_ascii(rows, "prop", "map")
    fresh, baked = SightTable(grid), SightTable(grid)
    baked.adopt(bake(grid))

    def walked(*_: object) -> None:
        raise AssertionError("a line was walked with every pair baked")

    baked._work_out = walked  # type: ignore[method-assign]
    if baked._batch is not None:
        baked._batch.codes = walked  # type: ignore[method-assign]
    cells = _cells(grid)
    rng = random.Random(seed)
    xs = np.array([c[0] for c in cells], dtype=np.intp)
    ys = np.array([c[1] for c in cells], dtype=np.intp)
    for _ in range(4):
        some = tuple(rng.sample(cells, min(3, len(cells))))
        assert np.array_equal(baked.codes_many(some, xs, ys), fresh.codes_many(some, xs, ys))
        assert np.array_equal(baked.columns_many(some, xs, ys), fresh.columns_many(some, xs, ys))
        a, c = rng.choice(cells), rng.choice(cells)
        assert baked.sight(a, c) == fresh.sight(a, c)


def test_a_bake_survives_its_arrays_and_bad_arrays_are_refused() -> None:
    grid = from_ascii(ROOM, "t", "map")
    b = bake(grid)
    back = from_arrays(to_arrays(b))
    assert sight_bakes.same_bake(b, back) and back.sights[2:] == b.sights[2:]
    good = to_arrays(b)
    bad_cases = {
        "version": dict(good, version=np.array(BAKE_VERSION + 1)),
        "missing": {k: v for k, v in good.items() if k != "numbers"},
        "shape": dict(good, numbers=good["numbers"][:-1]),
        "range": dict(good, numbers=np.full_like(good["numbers"], len(b.sights))),
        "zero": dict(good, numbers=np.zeros_like(good["numbers"])),
        "answer": dict(good, sights=np.vstack([good["sights"], [[3, 0, 0, 0, -1, -1]]]).astype(np.int16)),
        "no sight": dict(good, sights=good["sights"][::-1].copy()),
    }
    for what, arrays in bad_cases.items():
        with pytest.raises(ValueError):
            from_arrays(arrays)
            pytest.fail(what)


def test_the_key_is_what_sight_reads() -> None:
    grid = from_ascii(ROOM, "t", "map")
    renamed = from_ascii(ROOM, "t", "map", name="another", cell_m=1.5)  # name and cell size: sight is the same
    other = from_ascii([ROOM[0].replace("#", "."), *ROOM[1:]], "t", "map")
    assert bake_key(grid) == bake_key(renamed) != bake_key(other)


def test_every_shipped_map_ships_a_current_bake() -> None:
    """A shipped map changed without `skirmish bake --shipped` fails here; a sample of each bake's pairs is the
    rule's answer (the bake is of the map as it now is)."""
    rng = random.Random(7)
    keys = set()
    for path in shipped_scenarios():
        grid = load_map(path)
        got = sight_bakes.find_file(grid)
        assert got is not None, f"{path}: no bake of its map: run `skirmish bake --shipped`"
        b, where = got
        assert where.parent == sight_bakes.SHIPPED_DIR
        keys.add(b.key)
        cells = _cells(grid)
        for _ in range(150):
            a, c = rng.choice(cells), rng.choice(cells)
            assert b.sight(a, c) == geo.sight_reference(grid, a, c), (path, a, c)
        if len(cells) <= WHOLE_CHECK_CELLS:  # baked afresh and compared whole (a second or so a map)
            assert sight_bakes.same_bake(b, bake(grid)), f"{path}: its bake is not the map's: `skirmish bake --shipped`"
    shipped = {p.stem for p in sight_bakes.SHIPPED_DIR.glob("*.npz")}
    assert shipped == keys, f"bakes no shipped map uses: {sorted(shipped - keys)}"


def test_battles_play_the_same_events_with_a_bake_or_without() -> None:
    scenario = load_scenario(default_scenario_path())
    assert sight_bakes.find(scenario.grid) is not None

    def events() -> list[str]:
        from skirmish.ai.controllers import make_ai

        sc = load_scenario(default_scenario_path())
        ctrl = {s.name: make_ai("utility", sc.spec.ruleset) for s in sc.spec.sides}
        with Battle(sc, seed=4, controllers=ctrl) as b:  # type: ignore[arg-type]
            b.run()
            assert (sc.grid.sight_table.baked is not None) == sight_bakes.enabled()
            return b.log.jsonl().splitlines()

    map_state.forget_all()
    with_bake = events()
    with sight_bakes.bakes_off():
        without = events()
    assert with_bake == without and len(with_bake) > 50


def test_bad_bake_files_are_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sight_bakes.CACHE_ENV, str(tmp_path))
    grid = from_ascii(ROOM, "t", "map")
    key = bake_key(grid)
    folder = sight_bakes.user_dir()
    folder.mkdir(parents=True)
    (folder / f"{key}.npz").write_bytes(b"not a zip file at all")
    assert sight_bakes.find(grid) is None
    assert "cannot be read" in sight_bakes.problems[str(folder / f"{key}.npz")]
    other = bake(from_ascii([ROOM[0].replace("#", "."), *ROOM[1:]], "t", "map"))
    written = sight_bakes.write_bake(other, folder)
    written.replace(folder / f"{key}.npz")  # another map's bake under this map's name
    assert sight_bakes.find(grid) is None
    assert "another map" in sight_bakes.problems[str(folder / f"{key}.npz")]
    sight_bakes.write_bake(bake(grid), folder)
    got = sight_bakes.find_file(grid)
    assert got is not None and got[1] == folder / f"{key}.npz"
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_skirmish_bake_writes_lists_and_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    small = "scenarios/killhouse_drill.yaml"
    out = tmp_path / "bakes"
    with pytest.raises(SystemExit) as done:
        main(["bake", small, "--out", str(out), "--force"])
    assert done.value.code == 0
    key = bake_key(load_map(Path(small)))
    made = sight_bakes.read_bake(out / f"{key}.npz")
    shipped = sight_bakes.read_bake(sight_bakes.SHIPPED_DIR / f"{key}.npz")
    assert sight_bakes.same_bake(made, shipped)
    assert f"baked: {small}" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        main(["bake", small])
    assert done.value.code == 0 and "already baked" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        main(["bake", "--list", small, str(tmp_path / "missing.yaml")])
    text = capsys.readouterr()
    assert done.value.code == 2 and f"baked: {small}" in text.out and "missing.yaml" in text.err
    with pytest.raises(SystemExit) as done:
        main(["bake", "--shipped", small])
    assert done.value.code == 2 and "name no files" in capsys.readouterr().err


def test_a_map_over_the_limit_is_refused_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    side = int(BAKE_MAX_CELLS ** 0.5) + 1
    grid = from_ascii(["." * side] * side, "big", "map")
    with pytest.raises(ValueError, match="cells"):
        bake(grid)
    assert sight_bakes.find(grid) is None
    from skirmish.content.tiled import to_tmj

    tmj = tmp_path / "big.tmj"
    tmj.write_text(json.dumps(to_tmj(grid, str(Path("maps/terrain.tsj").resolve()))), encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["bake", str(tmj), "--out", str(tmp_path)])
    assert done.value.code == 2 and f"big.tmj: the map has {side * side} cells" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.npz"))


def _npy(arr: np.ndarray | None = None, header: dict[str, object] | None = None) -> bytes:
    import io

    from numpy.lib import format as npformat

    out = io.BytesIO()
    if arr is not None:
        np.save(out, arr, allow_pickle=arr.dtype.hasobject)
    else:
        npformat.write_array_header_1_0(out, header)
    return out.getvalue()


@pytest.mark.parametrize("case", ["corrupt data", "huge header", "pickled", "inflates past its size", "missing"])
def test_hostile_bake_files_are_refused_quickly(case: str, tmp_path: Path) -> None:
    """A damaged or hostile file is refused with a reason, before it can take much memory or time (no traceback:
    the battle goes on working sight out)."""
    import zipfile

    grid = from_ascii(ROOM, "t", "map")
    members = {f"{k}.npy": _npy(v) for k, v in to_arrays(bake(grid)).items()}
    if case == "huge header":  # a few hundred bytes that say 40 GB
        members["numbers.npy"] = _npy(header={"descr": "<u2", "fortran_order": False, "shape": (20_000_000_000,)})
    elif case == "pickled":
        members["sights.npy"] = _npy(np.array([object()], dtype=object))
    elif case == "inflates past its size":  # more zeros than the largest bake's numbers, in a small file
        big = 2 * BAKE_MAX_CELLS ** 2 + 8192
        members["numbers.npy"] = _npy(header={"descr": "|u1", "fortran_order": False, "shape": (big,)}) + bytes(big)
    elif case == "missing":
        del members["sights.npy"]
    path = tmp_path / f"{bake_key(grid)}.npz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    if case == "corrupt data":
        raw = bytearray(path.read_bytes())
        at = raw.find(b"numbers.npy") + 40
        raw[at:at + 64] = bytes(b ^ 0x5A for b in raw[at:at + 64])
        path.write_bytes(bytes(raw))
    why = {"corrupt data": "cannot be read", "huge header": "not one a bake holds", "pickled": "not one a bake holds",
           "inflates past its size": "larger than a bake's", "missing": "no 'sights' array"}[case]
    with pytest.raises(ValueError, match=why):
        sight_bakes.read_bake(path)
