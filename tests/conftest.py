"""Shared helpers: stacked cards built from deck A with the fields a worked example prints."""

from __future__ import annotations

import atexit
import contextlib
import copy
import dataclasses
import io
import json
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from skirmish.rules.deck import COLUMNS, Card, Entry, builtin

# What the run caches (bakes `skirmish bake` writes: skirmish.content.sight_bakes) goes into a folder of its own,
# removed when it ends, never the person's cache; the bakes shipped with skirmish are still found.
_CACHE = tempfile.mkdtemp(prefix="skirmish-tests-cache-")
os.environ["SKIRMISH_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

ROOT = Path(__file__).resolve().parents[1]


def make_card(number: int, *, upper: dict[tuple[str, int], Any] | None = None,
              lower: dict[tuple[str, int], int] | None = None, **fields: Any) -> Card:
    """Deck A's card `number` with some entries replaced. Upper values: int, 'CF' or (int, explodes)."""
    base = builtin("A")[number - 1]
    up = {c: list(base.upper[c]) for c in COLUMNS}
    # Never chain unexpectedly: clear every exploding mark unless the example sets one.
    for c in COLUMNS:
        up[c] = [Entry(e.value, False, e.cf) for e in up[c]]
    for (col, row), v in (upper or {}).items():
        if v == "CF":
            up[col][row - 1] = Entry(0, False, True)
        elif isinstance(v, tuple):
            up[col][row - 1] = Entry(v[0], v[1])
        else:
            up[col][row - 1] = Entry(int(v), False)
    low = {c: list(base.lower[c]) for c in COLUMNS}
    for (col, row), v in (lower or {}).items():
        low[col][row - 1] = v
    fields.setdefault("extra_damage", False)
    fields.setdefault("breakdown", None)
    fields.setdefault("special", None)
    fields.setdefault("shuffle", False)
    return dataclasses.replace(
        base, upper={c: tuple(up[c]) for c in COLUMNS}, lower={c: tuple(low[c]) for c in COLUMNS}, **fields
    )


def write_deck(path: Path, cards: list[Card]) -> Path:
    """Write cards in draw order as C-2 JSON."""
    path.write_text(json.dumps([c.to_json() for c in cards]), encoding="utf-8")
    return path


@pytest.fixture
def root() -> Path:
    """The repository root."""
    return ROOT


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "app(size=(w, h), settings={...}): the `app` fixture's window size (default "
                            "1280x800) and the Settings fields it is made with (default: none)")


@pytest.fixture
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The front end's settings, saves, logs and screenshots under the test's own folder ($SKIRMISH_CONFIG_DIR),
    never the person's: a board, editor or menu test module takes it for every test with
    `pytestmark = pytest.mark.usefixtures("isolated_config")`."""
    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(tmp_path / "config"))


@pytest.fixture
def app(request: pytest.FixtureRequest, isolated_config: None) -> Iterator[Any]:
    """The application on its menu (a skirmish.ui.app.App), closed after the test: 1280x800 with default settings,
    or as the module or test marks it, e.g. `pytest.mark.app(size=(1280, 900), settings={"speed": 2.0})`."""
    from skirmish.ui.app import App
    from skirmish.ui.settings import Settings

    mark = request.node.get_closest_marker("app")
    options = dict(mark.kwargs) if mark is not None else {}
    a = App(size=options.get("size", (1280, 800)), settings=Settings(**copy.deepcopy(options.get("settings", {}))))
    yield a
    a.close()


@contextlib.contextmanager
def alarm(seconds: float) -> Iterator[None]:
    """TimeoutError in the main thread after `seconds`: a hang (a blocking open of a FIFO, say) fails the
    test instead of stalling it."""

    def fire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def cli(*argv: str, timeout: float = 20.0) -> tuple[int, str, str]:
    """The real entry point run in-process: (exit code, stdout, stderr); a hang fails after `timeout` s. An
    exit with a code that is not a number counts as 99."""
    from skirmish.cli import main

    out, err = io.StringIO(), io.StringIO()
    with alarm(timeout), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(argv))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 99
    return code, out.getvalue(), err.getvalue()


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The real entry point with pytest's capture: (exit code, stdout, stderr)."""
    from skirmish.cli import main

    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return int(exc.value.code or 0), out.out, out.err


def one_line(err: str) -> str:
    """The single line a refusal prints (C-6): fails on several lines or a traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def ascii_scenario(rows: list[str], blue: str, red: str, *, ai: str | None = None,
                   max_rounds: int | None = None) -> str:
    """A scenario's YAML for hand-built battles: an ASCII map, Blue and Red as scripted sides whose units are
    YAML flow lists (`blue`, `red`), seed 3; `ai` names Blue's AI, `max_rounds` the round limit."""
    victory = f"victory: {{max_rounds: {max_rounds}}}\n" if max_rounds is not None else ""
    blue_ai = f"    ai: {ai}\n" if ai is not None else ""
    return (f"name: t\nseed: 3\nmap: {{ascii: {rows!r}}}\n{victory}sides:\n"
            f"  - name: Blue\n    controller: scripted\n{blue_ai}    units: {blue}\n"
            f"  - name: Red\n    controller: scripted\n    units: {red}\n")


def battle_at(tmp_path: Path, rows: list[str], blue: str, red: str, declare: str = "normal",
              unit: str = "Me") -> Any:
    """A battle of scripted sides on `ascii_scenario`, every unit declared `declare`, stopped at `unit`'s first
    action request (a skirmish.battle.Battle)."""
    from skirmish.ai.controllers import ScriptedController
    from skirmish.battle import Battle
    from skirmish.content.scenario import parse_scenario
    from skirmish.rules.actions import Declare

    sc = parse_scenario(ascii_scenario(rows, blue, red), str(tmp_path / "t.yaml"), base=tmp_path)
    b = Battle(sc, controllers={s.name: ScriptedController([]) for s in sc.spec.sides})  # type: ignore[arg-type]
    while b.pending is not None and b.pending.kind == "declare":
        b.submit(Declare(b.pending.unit, declare))
    while b.pending is not None and b.pending.unit != unit:
        b.step()
    assert b.pending is not None and b.pending.unit == unit and b.pending.kind == "act"
    return b


def played(name: str, seed: int, steps: int, ai: Any = None) -> Iterator[tuple[int, Any, Any]]:
    """A shipped scenario's battle played decision by decision: yields (step, battle, pending request) before each
    of at most `steps` decisions, then plays it (`Battle.step`). Every side is played by `ai` (one controller
    for all, so a test can read its caches), or by a utility AI of its own."""
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle
    from skirmish.content.scenario import SCENARIOS_DIR, load_scenario

    sc = load_scenario(SCENARIOS_DIR / name)
    with Battle(sc, seed=seed, controllers={s.name: ai or make_ai("utility") for s in sc.spec.sides}) as b:
        for step in range(steps):
            req = b.pending
            if req is None:
                return
            yield step, b, req
            b.step()


def blind_to_enemies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Patch `Battle.observe` to give each side a view without the enemies, as fog of war may give it (the RL
    observation tests: nothing of an enemy may leak through another path)."""
    from skirmish.battle import Battle

    real = Battle.observe

    def blind(self: Battle, side: str) -> Any:
        view = real(self, side)
        return dataclasses.replace(view, units=tuple(u for u in view.units if u.side == side))

    monkeypatch.setattr(Battle, "observe", blind)
