"""Story chips on the other checks (R-8.5, issue 14 item 3): a blow's attack check and a maneuver's check, the
initiative read, a waiting trigger's Reflex contest, a psychological contest, a fear test — and the ban on terror
tests (R-8.4: "A Hero may not spend Story Chips in any way during a Terror test"). Scripted `chip_orders` name the
check (`UNIT check|initiative|contest|bravery COLOUR USE`); the chip events come before the check's own event."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ai.controllers import make_controller
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.rules.fi import chips as C
from tests.conftest import make_card, write_deck

T = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}"
INIT = make_card(1, upper={("III", 2): 9})


def _battle(tmp_path: Path, cards: list, a_units: str, b_units: str, a_orders: list[str], b_orders: list[str], *,
            a_chips: list[str], a_hand: str = "{white: 1, red: 1, blue: 1}", b_controller: str = "scripted",
            rounds: int = 1) -> Battle:
    write_deck(tmp_path / "deck.json", cards)
    text = f"""
name: chips on checks
seed: 1
options: {{chips: true}}
map: {{ascii: ["............", "............", "............"]}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: {rounds}}}
sides:
  - name: Alpha
    controller: scripted
    chips: {a_hand}
    chip_draws: 0
    chip_orders: {a_chips!r}
    orders: {a_orders!r}
    units: {a_units}
  - name: Beta
    controller: {b_controller}
    chips: {{}}
    chip_draws: 0
    orders: {b_orders!r}
    units: {b_units}
"""
    sc = parse_scenario(text, str(tmp_path / "s.yaml"), base=tmp_path)
    ctrl = {s.name: make_controller(s.controller, s.orders) for s in sc.spec.sides}
    return Battle(sc, controllers=ctrl)  # type: ignore[arg-type]


def _unit(name: str, at: tuple[int, int], extra: str = "") -> str:
    return f"{{name: {name}, at: [{at[0]}, {at[1]}], traits: {T}{', ' + extra if extra else ''}}}"


def _types(b: Battle) -> list[str]:
    return [e.type for e in b.log]


def test_a_white_chip_turns_a_blow(tmp_path: Path) -> None:
    """Brawling unskilled: Dexterity III-2 halved; the card reads 4 (2) against TN 5, the entry above 12 (6): the
    blow lands, and the chip event comes before the melee event."""
    blow = make_card(4, upper={("III", 2): 4, ("III", 3): 12})
    b = _battle(tmp_path, [INIT, blow, INIT, INIT], f"[{_unit('Me', (1, 1))}]", f"[{_unit('Foe', (2, 1))}]",
                ["declare Me normal", "melee Me Foe"], ["declare Foe normal"], a_chips=["Me check white up"])
    b.run()
    chip = next(e for e in b.log if e.type == "chip")
    melee = next(e for e in b.log if e.type == "melee")
    assert (chip.colour, chip.use, chip.before, chip.after) == ("white", "up", 4, 12)
    assert _types(b).index("chip") < _types(b).index("melee") and melee.hit
    b.close()


def test_an_initiative_chip_spares_a_hesitation(tmp_path: Path) -> None:
    """Reflex III-2 reads 1 under NORMAL (below phase IV's 2: hesitate); `initiative white up` takes the entry
    above, 6: phase III."""
    init = make_card(1, upper={("III", 2): 1, ("III", 3): 6})
    b = _battle(tmp_path, [init, INIT, INIT], f"[{_unit('Me', (1, 1))}]", f"[{_unit('Foe', (8, 1))}]",
                ["declare Me normal"], ["declare Foe normal"], a_chips=["Me initiative white up"])
    b.run()
    ini = next(e for e in b.log if e.type == "initiative" and e.actor == "Me")
    chip = next(e for e in b.log if e.type == "chip")
    assert (chip.before, chip.after) == (1, 6) and ini.result == 6 and ini.phase == 3 and not ini.hesitate
    b.close()


def test_a_chip_in_a_trigger_contest(tmp_path: Path) -> None:
    """The waiter reads 4 against the mover's 5 (the mover would go first); its white chip takes 9: it fires first."""
    w_card = make_card(5, upper={("III", 2): 4, ("III", 3): 9})
    m_card = make_card(6, upper={("III", 2): 5})
    miss = make_card(3, upper={(c, r): 1 for c in ("I", "II", "III", "IV", "V", "VI") for r in range(1, 6)})
    gun = "weapons: [blast_carbine], skills: {shooting:rifle: 3}"
    b = _battle(tmp_path, [INIT, w_card, m_card, miss, INIT], f"[{_unit('Watch', (4, 0), gun)}]",
                f"[{_unit('Runner', (0, 2))}]", ["declare Watch normal", "wait Watch"],
                ["declare Runner normal", "move Runner 8,2"], a_chips=["Watch contest white up"])
    b.run()
    trig = next(e for e in b.log if e.type == "trigger")
    assert (trig.waiter_result, trig.mover_result, trig.waiter_first) == (9, 5, True)
    assert _types(b).index("chip") < _types(b).index("trigger")
    b.close()


@pytest.mark.parametrize("kind, spent", [("fear", True), ("terror", False)])
def test_a_chip_on_a_fear_test_but_none_in_terror(tmp_path: Path, kind: str, spent: bool) -> None:
    """Bravery unskilled (Vigor III-2 halved): 6 reads 3 against the klackon's 7 (0 successes: broken); the entry
    above, 14, reads 7 (1 success: distraught). A fear test takes the chip; a terror test refuses it, naming R-8.4,
    and the hand keeps it."""
    test = make_card(7, upper={("III", 2): 6, ("III", 3): 14})
    b = _battle(tmp_path, [test, INIT, INIT, INIT], f"[{_unit('Me', (1, 1))}]",
                f"[{_unit('Bug', (6, 1), f'fearsome: {kind}')}]", ["declare Me normal"], ["declare Bug normal"],
                a_chips=["Me bravery white up"])
    b.run()
    fear = next(e for e in b.log if e.type == "fear")
    chip = next(e for e in b.log if e.type == "chip")
    if spent:
        assert chip.refused is None and fear.result == 7 and fear.effect == "distraught"
        assert chip.hand == {"white": 0, "red": 1, "blue": 1}
    else:
        assert "R-8.4" in (chip.refused or "") and fear.result == 3 and fear.effect != "distraught"
    b.close()


def test_chip_orders_name_the_new_checks() -> None:
    assert C.parse_chip_order("Me initiative white up") == ("Me", "initiative", ("white", "up"))
    assert C.parse_chip_order("Big Al contest red redraw") == ("Big Al", "contest", ("red", "redraw"))
    with pytest.raises(ValueError, match="initiative"):
        C.parse_chip_order("Me sometime white up")
