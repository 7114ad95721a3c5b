"""Story chips that are never spent change nothing (R-8.5; session 8's "noticed and left"): with chips on and no
chip spent, a battle's events are those of the same battle with chips off, seed for seed — the waiting trigger's
Reflex contest reads its two cards in the same order, chained entries and all (triggers.reflex_contest)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ai.controllers import make_controller
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario

T = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: II-2}"
GUN = "weapons: [blast_carbine], skills: {shooting:rifle: 3}"


def _events(tmp_path: Path, seed: int, chips: bool) -> list[dict[str, object]]:
    hands = "    chips: {}\n    chip_draws: 0\n    chip_orders: []\n" if chips else ""
    text = f"""
name: unspent chips
seed: {seed}
options: {{chips: {'true' if chips else 'false'}}}
map: {{ascii: ["............", "............", "............"]}}
victory: {{max_rounds: 2}}
sides:
  - name: Alpha
    controller: scripted
{hands}    orders: ["declare Watch normal", "wait Watch", "declare Watch normal", "wait Watch"]
    units: [{{name: Watch, at: [4, 0], traits: {T}, {GUN}}}]
  - name: Beta
    controller: scripted
{hands}    orders: ["declare Runner normal", "move Runner 8,2",
             "declare Runner normal", "move Runner 1,2"]
    units: [{{name: Runner, at: [0, 2], traits: {T}}}]
"""
    sc = parse_scenario(text, str(tmp_path / f"s{seed}{chips}.yaml"), base=tmp_path)
    with Battle(sc, controllers={s.name: make_controller(s.controller, s.orders)  # type: ignore[arg-type]
                                 for s in sc.spec.sides}) as b:
        b.run()
        return [e.to_json() for e in b.log if e.type not in ("chips_drawn", "chip")]


@pytest.mark.parametrize("seed", range(1, 41))
def test_unspent_chips_change_no_event(tmp_path: Path, seed: int) -> None:
    off, on = _events(tmp_path, seed, False), _events(tmp_path, seed, True)
    assert any(e["type"] == "trigger" for e in off)
    # with chips on the result event counts the unspent chips as bounty: none were held, so none are worth any
    assert on[-1]["type"] == "result" and on[-1].pop("bounty") == {"Alpha": 0, "Beta": 0}
    assert "bounty" not in off[-1]
    assert on == off
