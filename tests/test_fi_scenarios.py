"""The two Future Imperfect scenarios of issue 14 item 8 (scenarios/fi/): the boarding action (close quarters,
option martial_arts, R-7.7) and the klackon ambush (a surprised side, R-8.3, and a fearsome klackon warrior,
000 "Fear and Terror"). `skirmish check` passes; a soak of the utility AI against the baselines on both sides
keeps the invariants (no refusals, nobody acts out of action, the battle ends); same seed, same events (C-5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import load_scenario
from skirmish.core.events import Event
from tests.conftest import cli

FI = Path(__file__).resolve().parent.parent / "scenarios" / "fi"
BOARDING, AMBUSH = FI / "boarding_action.yaml", FI / "klackon_ambush.yaml"
ACTS = ("turn", "attack", "melee", "move", "throw", "aim", "reload", "contest", "wait", "defend", "maneuver")


@pytest.mark.parametrize("path", [BOARDING, AMBUSH], ids=lambda p: p.stem)
def test_check_passes(path: Path) -> None:
    code, out, err = cli("check", str(path))
    assert code == 0, err
    assert "ok:" in out and path.name in out


def test_the_scenarios_use_the_new_rules() -> None:
    boarding = load_scenario(BOARDING)
    assert boarding.spec.options.martial_arts
    assert sum(bool(u.martial_arts) for u in boarding.spec.sides[0].units) == 4
    assert all(u.melee for s in boarding.spec.sides for u in s.units)
    ambush = load_scenario(AMBUSH)
    assert ambush.spec.sides[0].surprised is not None
    [fearsome] = [u for u in ambush.spec.sides[1].units if u.fearsome is not None]
    assert (fearsome.fearsome.kind, fearsome.fearsome.tn, fearsome.size) == ("fear", 7, 7)


def _soak(path: Path, seed: int, ours: int, opponent: str) -> list[Event]:
    sc = load_scenario(path)
    names = [s.name for s in sc.spec.sides]
    ctrl = {n: make_ai("utility" if i == ours else opponent) for i, n in enumerate(names)}
    with Battle(sc, seed=seed, controllers=ctrl) as b:  # type: ignore[arg-type]
        b.run()
        assert b.outcome is not None
        return list(b.log)


@pytest.mark.parametrize("opponent", ["hold", "focus", "rush", "random"])
@pytest.mark.parametrize("path", [BOARDING, AMBUSH], ids=lambda p: p.stem)
def test_utility_against_the_baselines_keeps_the_invariants(path: Path, opponent: str) -> None:
    """Both sides, one seed each: no refused action, nobody acts once out of action (R-8.1) or in a round it sits
    out (R-8.3), wounds stay in range, the battle ends with a result."""
    for ours in (0, 1):
        evs = _soak(path, 3 + ours, ours, opponent)
        assert not [e for e in evs if e.type == "refused"], [e.to_line() for e in evs if e.type == "refused"][:3]
        assert evs[-1].type == "result"
        down: set[str] = set()
        sitting: dict[int, set[str]] = {}
        for e in evs:
            if e.type == "out_of_action":
                down.add(e.actor or "")
                assert 0 <= getattr(e, "wounds", 0) <= 6
            elif e.type in ACTS:
                assert e.actor not in down, f"{e.actor} acts after it fell: {e.to_line()}"
                assert e.actor not in sitting.get(e.round, set()), e.to_line()
            if e.type == "surprise" and not e.success:
                sitting.setdefault(e.round, set()).add(e.actor or "")
        if path == AMBUSH:
            assert {e.type for e in evs} >= {"surprise", "fear"}


@pytest.mark.parametrize("path", [BOARDING, AMBUSH], ids=lambda p: p.stem)
def test_same_seed_same_events(path: Path) -> None:
    logs = []
    for seed in (5, 5, 6):
        sc = load_scenario(path)
        with Battle(sc, seed=seed, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
            b.run()
            logs.append(b.log.jsonl())
    assert logs[0] == logs[1] and logs[0] != logs[2]
