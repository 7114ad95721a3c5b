"""R-6.1 concealment: a target fully behind high cover can be shot at −4 only if its position is known."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ai.controllers import ScriptedController
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.content.tiled import from_ascii
from skirmish.ecs.components import Identity, Status
from skirmish.ecs.systems.fi import IllegalAction
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Move, Shoot
from tests.conftest import make_card, write_deck

ROWS = ["..........", "..........", "######.###", "..........", ".........."]
TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}"


def test_unit_sight_on_a_doorway() -> None:
    grid = from_ascii(ROWS, "t", "map")
    assert geo.sight(grid, (6, 0), (5, 3)).lean  # beside the doorway, seen only round its edge
    firing = geo.unit_sight(grid, (6, 0), (5, 3), firing=True, known=False)
    assert firing.visible and not firing.concealed and firing.cover == "high"
    known = geo.unit_sight(grid, (6, 0), (5, 3), firing=False, known=True)
    assert known.visible and known.concealed
    assert not geo.unit_sight(grid, (6, 0), (5, 3), firing=False, known=False).visible
    # Open sight is never concealed, whatever is known.
    assert not geo.unit_sight(grid, (6, 0), (6, 4), firing=False, known=False).concealed


def _battle(tmp_path: Path, target_at: tuple[int, int]) -> Battle:
    card = make_card(1, upper={("III", r): 14 for r in range(1, 6)})
    deck = write_deck(tmp_path / "deck.json", [card] * 20)
    text = f"""
name: doorway
seed: 1
map: {{ascii: {ROWS!r}}}
deck: {{cards: {deck.name}, shuffle: false}}
sides:
  - name: Watch
    controller: scripted
    units:
      - {{name: Gunner, at: [6, 0], traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, weapons: [slug_pistol]}}
  - name: Raid
    controller: scripted
    units:
      - {{name: Sneak, at: {list(target_at)}, traits: {TRAITS}}}
"""
    sc = parse_scenario(text, str(tmp_path / "s.yaml"), base=tmp_path)
    return Battle(sc, controllers={s.name: ScriptedController([]) for s in sc.spec.sides})  # type: ignore[arg-type]


def _eid(b: Battle, name: str) -> int:
    return next(e for e, i in b.world.units() if i.name == name)


def test_known_concealed_target_is_shot_at_minus_four_and_hits_the_wall(tmp_path: Path) -> None:
    with _battle(tmp_path, (5, 3)) as b:
        gunner, sneak = _eid(b, "Gunner"), _eid(b, "Sneak")
        assert b.sys.sight(gunner, sneak).concealed  # on the table from the start: known
        b.sys.shoot(gunner, Shoot("Gunner", "Sneak", mode="prepared"), trigger=True)
        attack = next(e for e in b.log if e.type == "attack")
        reasons = [m["reason"] for m in attack.modifiers]
        assert any("concealed" in r and "R-6.1" in r for r in reasons)
        assert sum(m["value"] for m in attack.modifiers if "concealed" in m["reason"]) == -4
        assert attack.hit and attack.hits
        # Every location is behind the wall (brick, AV 6): each hit strikes the cover first.
        assert all(h["cover"] in ("penetrated", "stopped") for h in attack.hits)


def test_target_that_slipped_out_of_sight_cannot_be_targeted(tmp_path: Path) -> None:
    with _battle(tmp_path, (2, 4)) as b:
        gunner, sneak = _eid(b, "Gunner"), _eid(b, "Sneak")
        b.sys.move(sneak, Move("Sneak", (5, 3)))
        st = b.world.get(sneak, Status)
        assert st.known_to == frozenset({b.world.get(sneak, Identity).side})
        assert not b.sys.sight(gunner, sneak).visible
        with pytest.raises(IllegalAction, match=r"R-6\.1"):
            b.sys.shoot(gunner, Shoot("Gunner", "Sneak", mode="prepared"), trigger=True)
        view = b.view()
        assert not view.sight(view.unit("Gunner"), view.unit("Sneak")).visible
