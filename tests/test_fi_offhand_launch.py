"""An off-hand launcher fires (R-6.10 with R-6.12, issue 14): `launch U X,Y hand=off` with the launcher in the other
hand of a unit holding two weapons: the two weapons' penalties (-2, the off hand's -4, a two-handed launcher's -2),
the off hand's rounds, one attack action with the main hand's shots, the card's breakdown for that launcher (R-4.8)
and the reload that clears it (`reload` event `hand: off`); legality (`LegalActions.off_launches`, `cell_ok
("off_launch", …)`) lists what the battle accepts; the AIs launch with it; the RL table's `launch` block; the
board's L launch mode (stacked decks)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import ScriptedController, make_ai
from skirmish.ai.search.model import Weights
from skirmish.ai.search.throwing import launch_material
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.core.events import Event
from skirmish.ecs.components import Loadout, Status, Turn
from skirmish.env.fi_actions import FiActionTable
from skirmish.rules.actions import Launch, Reload, parse_action
from tests.conftest import battle_at, cli, make_card, write_deck

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
GUNNER = ("{{name: Gunner, at: [0, 1], weapons: {weapons}, two_weapons: true, traits: {traits}, "
          "skills: {{'shooting:launcher': 4, 'shooting:pistol': 3}}}}")


def _me(weapons: str) -> str:
    return "[" + GUNNER.format(weapons=weapons, traits=TRAITS).replace("Gunner", "Me") + "]"


def _mods(event: Any) -> dict[str, int]:
    return {m["reason"]: m["value"] for m in event.modifiers}


def _scenario(tmp_path: Path, letter: str | None, orders: list[str], read: int = 12) -> Path:
    """A gunner with a slug pistol in the main hand and a grenade launcher in the other; the launch's card reads
    `read` in III-4 (its launcher skill 4) and breaks down on `letter`."""
    init = make_card(1, upper={("III", 3): 12, ("III", 2): 2})
    shot = make_card(20, upper={("III", 4): read}, clock=12, scatter_thrown=1, scatter_launched=2, toggle=False,
                     breakdown=letter)
    filler = make_card(5, hit_stack=("chest", "vitals", "belly", "left_leg"), standard=0, lower={("III", 3): 11})
    write_deck(tmp_path / "deck.json", [init, shot] + [filler] * 30)
    gunner = GUNNER.format(weapons="[slug_pistol, grenade_launcher]", traits=TRAITS)
    (tmp_path / "t.yaml").write_text(f"""
name: off-hand launch
seed: 1
options: {{concussion_saves: false}}
map: {{ascii: ["................", "................", "................"]}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: 1}}
sides:
  - name: Crew
    controller: scripted
    orders: {json.dumps(orders)}
    units:
      - {gunner}
  - name: Raiders
    controller: idle
    units:
      - {{name: Near, at: [8, 1], traits: {TRAITS}}}
""")
    return tmp_path / "t.yaml"


def _battle(path: Path) -> Any:
    sc = parse_scenario(path.read_text(), str(path), base=path.parent)
    b = Battle(sc, controllers={s.name: ScriptedController(s.orders) for s in sc.spec.sides})  # type: ignore[arg-type]
    while b.pending is not None and not (b.pending.unit == "Gunner" and b.pending.kind == "act"):
        b.step()
    return b


def test_an_off_hand_launch_through_the_cli(tmp_path: Path) -> None:
    """16 m at a 20 m increment: TN 5. III-4 reads 12, -2 two weapons, -4 off hand, -2 the two-handed launcher in
    one hand = 4: a miss by 1, launched x2 = 2 m on (12 o'clock), to 9,1; the off hand's rounds go down, the main
    hand's stay; the event says which hand (`hand: off`, R-6.12) and the log line says the off hand's."""
    path = _scenario(tmp_path, None, ["declare Gunner slow", "launch Gunner 8,1 hand=off", "end Gunner"])
    code, out, err = cli("run", str(path), "--json")
    assert code == 0, err
    ev = next(json.loads(x) for x in out.splitlines() if json.loads(x)["type"] == "launch")
    assert (ev["item"], ev["hand"], ev["tn"], ev["read"], ev["result"], ev["hit"]) == (
        "grenade_launcher", "off", 5, 12, 4, False)
    assert {m["reason"]: m["value"] for m in ev["modifiers"]} == {
        "two weapons (R-6.12)": -2, "off hand (R-6.12)": -4, "the two-handed grenade launcher in one hand (R-6.12)": -2}
    assert ev["landed"] == [9, 1] and ev["left"] == 5 and "R-6.12" in ev["rules"] and "R-6.10" in ev["rules"]
    code, text, _ = cli("run", str(path))
    assert "Gunner fires the off hand's grenade launcher at 8,1" in text


def test_the_off_hand_launcher_breaks_down_and_a_reload_of_that_hand_clears_it(tmp_path: Path) -> None:
    with _battle(_scenario(tmp_path, "R", ["declare Gunner slow"], read=19)) as b:
        eid = b.world.entity("Gunner")
        legal = b.legal_actions("Gunner")
        assert legal.off_launches and not legal.launches and legal.allows(Launch("Gunner", (8, 1), hand="off"))
        assert not legal.allows(Launch("Gunner", (8, 1)))  # the pistol in hand launches nothing
        b.submit(Launch("Gunner", (8, 1), hand="off"))
        ev = next(e for e in b.log if e.type == "launch")
        assert ev.hit and ev.hand == "off" and ev.breakdown is True and "R-4.8" in ev.rules
        assert "the grenade launcher breaks down (R-4.8" in ev.describe()
        assert Event.from_json(ev.to_json()) == ev  # C-3: it round-trips
        load = b.world.peek(eid, Loadout)
        assert [w.jammed for w in load.weapons] == [False, True] and load.active == 0  # the main hand's in hand
        legal = b.legal_actions("Gunner")
        assert not legal.off_launches and legal.reload and legal.shots  # the pistol still fires
        refused = b.check(Launch("Gunner", (8, 1), hand="off"))
        assert refused is not None and "R-4.8: the grenade launcher has broken down" in str(refused)
        b.submit(Reload("Gunner"))
        rel = [e for e in b.log if e.type == "reload"]
        assert len(rel) == 1 and rel[0].hand == "off" and rel[0].cleared and "R-4.8" in rel[0].rules
        assert not b.world.peek(eid, Loadout).weapons[1].jammed


def test_the_main_hands_shot_and_the_off_hands_launch_share_one_action(tmp_path: Path) -> None:
    b = battle_at(tmp_path, ["..........", "..........", ".........."],
                  _me("[slug_pistol, grenade_launcher]"),
                  f"[{{name: A, at: [6, 1], traits: {TRAITS}}}]", declare="slow")
    eid = b.world.entity("Me")
    b.submit(parse_action("shoot Me A mode=prepared"))
    b.submit(parse_action("launch Me 6,1 hand=off"))
    parts = b.world.peek(eid, Turn).parts
    assert len(parts) == 1 and parts[0].shots == 2 and b.world.peek(eid, Status).hand_shots == (1, 1, 1)
    assert [w.rounds for w in b.world.peek(eid, Loadout).weapons] == [7, 5]
    view = b.view().unit("Me")
    assert view.off_hand is not None and view.off_hand.id == "grenade_launcher" and view.off_rounds == 5
    b.close()


@pytest.mark.parametrize(("me", "order", "message"), [
    (f"{{name: Me, at: [0, 1], weapons: [slug_pistol, grenade_launcher], traits: {TRAITS}}}",
     "launch Me 6,1 hand=off", "R-6.12: Me does not hold a weapon in each hand"),
    (f"{{name: Me, at: [0, 1], weapons: [grenade_launcher, slug_pistol], two_weapons: true, traits: {TRAITS}}}",
     "launch Me 6,1 hand=off", "R-6.10: the weapon in hand launches nothing"),
    (f"{{name: Me, at: [0, 1], weapons: [slug_pistol, grenade_launcher], two_weapons: true, traits: {TRAITS}}}",
     "launch Me 6,1 hand=left", "R-6.12: hand is main or off, not 'left'"),
    (f"{{name: Me, at: [0, 1], weapons: [slug_pistol, {{weapon: grenade_launcher, ammo: 0}}], two_weapons: true, "
     f"traits: {TRAITS}}}", "launch Me 6,1 hand=off", "R-6.12: the grenade launcher is empty; reload"),
])
def test_refusals_name_the_rule(tmp_path: Path, me: str, order: str, message: str) -> None:
    b = battle_at(tmp_path, ["..........", "...#......", ".........."], f"[{me}]",
                  f"[{{name: A, at: [6, 0], traits: {TRAITS}}}]")
    refused = b.check(parse_action(order))
    assert refused is not None and message in str(refused), refused
    assert not b.legal_actions("Me").allows(parse_action(order))
    b.close()


def test_listed_cells_are_the_accepted_ones(tmp_path: Path) -> None:
    """`cell_ok("off_launch", …)` answers as the battle does, every cell (the wall, out of sight, in range)."""
    b = battle_at(tmp_path, ["..........", "...#......", ".........."],
                  _me("[slug_pistol, grenade_launcher]"),
                  f"[{{name: A, at: [6, 0], traits: {TRAITS}}}]", declare="slow")
    legal = b.legal_actions("Me")
    for x in range(10):
        for y in range(3):
            a = Launch("Me", (x, y), hand="off")
            assert legal.allows(a) == (b.check(a) is None), a
    b.close()


def _ai_battle(tmp_path: Path) -> Any:
    """A gunner whose pistol is empty (no spare) and three raiders bunched 28-30 m off."""
    gunner = GUNNER.format(weapons="[{weapon: slug_pistol, ammo: 0, magazines: 0}, grenade_launcher]", traits=TRAITS)
    return battle_at(tmp_path, ["...................."] * 3, f"[{gunner.replace('Gunner', 'Me')}]",
                     f"[{{name: A, at: [14, 1], traits: {TRAITS}}}, {{name: B, at: [15, 1], traits: {TRAITS}}}, "
                     f"{{name: C, at: [14, 2], traits: {TRAITS}}}]", declare="slow")


@pytest.mark.parametrize("ai", ["utility:hard", "search:hard"])
def test_the_ais_launch_with_the_off_hand(tmp_path: Path, ai: str) -> None:
    b = _ai_battle(tmp_path)
    action = make_ai(ai).decide(b.view(), b.pending)
    assert isinstance(action, Launch) and action.hand == "off", action
    assert b.check(action) is None
    b.close()


def test_the_search_model_prices_a_launch_from_either_hand(tmp_path: Path) -> None:
    b = _ai_battle(tmp_path)
    view = b.view()
    me = view.unit("Me")
    present = {n: 1.0 for n in ("A", "B", "C")}
    value, kills = launch_material(view, me, Launch("Me", (14, 1), hand="off"), Weights(), present)
    assert value > 0 and set(kills) == {"A", "B", "C"}
    assert launch_material(view, me, Launch("Me", (14, 1)), Weights(), present) == (0.0, {})  # a pistol in hand
    b.close()


def test_the_rl_table_has_a_launch_block_masked_by_legality(tmp_path: Path) -> None:
    b = battle_at(tmp_path, ["..........", "...#......", ".........."],
                  _me("[slug_pistol, grenade_launcher]"),
                  f"[{{name: A, at: [6, 0], traits: {TRAITS}}}]", declare="slow")
    table = FiActionTable.for_views([b.observe(s) for s in b.view().sides], (0, 3, 5, 10))
    assert table.blocks[-1].name == "launch"
    for a in (Launch("Me", (6, 0), hand="off"), Launch("Me", (2, 2))):
        assert table.decode(table.encode(a), "Me") == a
    listed = table.listed(b.legal_actions("Me"))
    block = table.block["launch"]
    launches = {i for i in listed if block.start <= i < block.start + block.size}
    for i in range(block.start, block.start + block.size):
        a = table.decode(i, "Me")
        assert (i in launches) == (b.check(a) is None), a
    assert launches
    b.close()
