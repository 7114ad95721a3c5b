"""The state hash holds a disarm (docs/RECORDS.md "The state hash"; R-7.7 Disarm, R-4.8 a breakdown): a figure that
lost an item from its hand hashed as before when the weapon in its hand read the same afterwards (its last weapon
dropped leaves it with fists, as a figure with no weapon starts; one of two clubs dropped leaves a club in hand)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ai.controllers import make_controller
from skirmish.battle import Battle
from skirmish.content.scenario import load_scenario
from tests.conftest import write_deck
from tests.test_fi_disarm_raises import FILL, INIT, KAYLA, _grab


def _battle(tmp_path: Path, melee: str) -> Battle:
    write_deck(tmp_path / "deck.json", [INIT, _grab(1), *FILL])
    pirate = ('{name: Pirate, at: [2, 0], traits: {strength: III-2, dexterity: II-2, reflexes: II-2, vigor: III-2, '
              f'acuity: II-2}}, skills: {{"fighting:brawling": 1}}, melee: {melee}}}')
    path = tmp_path / "disarm.yaml"
    path.write_text(f"""name: Kayla's Grab
seed: 1
options: {{martial_arts: true}}
map: {{ascii: ["......", "......"]}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: 1}}
sides:
  - name: Marines
    controller: scripted
    units: [{KAYLA}]
  - name: Pirates
    controller: scripted
    units: [{pirate}]
""", encoding="utf-8")
    sc = load_scenario(path)
    return Battle(sc, controllers={s.name: make_controller(s.controller, []) for s in sc.spec.sides})  # type: ignore[arg-type]


@pytest.mark.parametrize(("melee", "left"), [("[club]", []), ("[club, club]", ["club"])])
@pytest.mark.parametrize("taken", [False, True])
def test_a_disarm_changes_the_hash(tmp_path: Path, melee: str, left: list[str], taken: bool) -> None:
    with _battle(tmp_path, melee) as b:
        k, p = b.world.entity("Kayla"), b.world.entity("Pirate")
        before = b.sys.hash_state()
        b.sys._disarmed(k, p, 2 if taken else 0)  # dropped, or taken with two raises (no draw either way)
        pirate = b.view().unit("Pirate").melee
        assert pirate is not None and [w.id for w in pirate.carried] == left
        assert b.sys.hash_state() != before
        assert "Pirate" in b.sys.hash_state()["melee"]


def test_a_battle_without_a_disarm_hashes_as_before(tmp_path: Path) -> None:
    """Nothing new is hashed for a unit whose weapons are as it started: older records keep verifying."""
    with _battle(tmp_path, "[club, club]") as b:
        assert "melee" not in b.sys.hash_state()


def test_a_record_of_a_disarm_replays_and_a_changed_round_hash_is_named(tmp_path: Path) -> None:
    """A record made now of a battle with a disarm verifies; one whose round hash differs (a record made by the engine
    before the disarm was hashed) fails as docs/RECORDS.md says: exit 2, one line naming the file and the key."""
    import json

    from tests.conftest import cli
    from tests.test_fi_disarm_raises import _run

    _run(tmp_path, [INIT, _grab(17), *FILL])  # two raises: the club is taken
    rec = tmp_path / "d.record.json"
    code, _, err = cli("run", str(tmp_path / "disarm.yaml"), "--record", str(rec), "--quiet")
    assert code == 0, err
    code, out, err = cli("replay", str(rec), "--quiet")
    assert code == 0 and out.startswith("result: "), err
    data = json.loads(rec.read_text())
    data["rounds"][0]["state"] = "0" * 64
    rec.write_text(json.dumps(data))
    code, _, err = cli("replay", str(rec), "--quiet")
    assert code == 2 and err.strip().endswith("rounds[0]: state hash differs (the record was made by a different "
                                              "engine or was changed)"), err
