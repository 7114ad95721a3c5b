"""R-7.7 advanced martial arts bound to melee (issue 14 item 2, option `martial_arts`): Kayla Argent's SM Fighting
pools in use through `skirmish run --json` with stacked decks (C-4) — a Block halving a club, a Strike, medium
with +1 Damage, a Strike, short with +1 Defense, a Strike, low whose target falls — refusals naming R-7.7, the
maneuvers legality lists, and their odds.

Write the decks again after changing them: `PYTHONPATH=. python tests/test_fi_arts_melee.py`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skirmish.rules.actions import parse_action
from skirmish.rules.deck import Card
from tests.conftest import battle_at, cli, make_card, write_deck

DATA = Path(__file__).resolve().parent / "data" / "arts"
CHEST = dict(hit_stack=("head", "chest", "vitals", "belly"), standard=1, ablation=("P", "A", "D"), toggle=False)


def _init(**reads: int) -> Card:
    upper = {(k.split("_")[0], int(k.split("_")[1])): v for k, v in reads.items()}
    return make_card(1, upper=upper)


def _filler(n: int) -> list[Card]:
    """Concussion saves and fall tests that hold: every Vigor III-2 read is 6."""
    return [make_card(20 + i, upper={("III", 2): 6}) for i in range(n)]


DECKS: dict[str, list[Card]] = {
    "kayla": [
        _init(IV_3=10, II_2=8),  # R1: Kayla phase I, the pirate II
        make_card(2, upper={("III", 4): 7}),  # her Block: 4 dice, III-4 reads 7 (she steps 1 m: no -4)
        make_card(3, upper={("II", 1): 9}, lower={("III", 2): 13}, **CHEST),  # the club: 9 vs 7, 2d8 reads 13
        _init(IV_3=10, II_2=5),  # R2 and R3: Kayla reads 10 - 1 for her wound, phase II; the pirate III
        make_card(4, upper={("III", 2): 8}, lower={("III", 2): 11}, **CHEST),  # Strike, medium: 8 - 1 vs 6
        *_filler(1),  # the pirate's concussion save
        _init(IV_3=10, II_2=5),
        make_card(5, upper={("III", 2): 2}),  # Strike, short misses
        make_card(6, upper={("II", 1): 2}),  # the pirate misses at TN 6
        *_filler(3),
    ],
    "trip": [
        _init(IV_3=10, II_2=8),
        make_card(7, upper={("III", 2): 9}, lower={("III", 2): 3}, **CHEST),  # Strike, low: hits the leg
        make_card(8, upper={("III", 2): 3}),  # the pirate's fall: Vigor 3 vs 5, 1 wind
        *_filler(4),
    ],
}


def write_decks() -> None:
    for name, cards in DECKS.items():
        write_deck(DATA / f"{name}.json", cards)


def _run(name: str) -> list[dict[str, Any]]:
    code, out, err = cli("run", str(DATA / f"{name}.yaml"), "--json")
    assert code == 0, err
    return [json.loads(line) for line in out.strip().splitlines()]


def _of(events: list[dict[str, Any]], etype: str, actor: str | None = None) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == etype and (actor is None or e["actor"] == actor)]


@pytest.mark.parametrize("name", sorted(DECKS))
def test_the_stacked_decks_on_disk_are_the_ones_made_here(name: str) -> None:
    assert json.loads((DATA / f"{name}.json").read_text()) == [c.to_json() for c in DECKS[name]]


def test_kayla_blocks_then_strikes_medium_with_plus_one_damage() -> None:
    events = _run("kayla")
    assert not _of(events, "refused")
    [block] = _of(events, "defend", "Kayla")
    assert (block["skill"], block["row"], block["result"], block["block"]) == ("block", 4, 7, "halve")
    assert "R-7.7" in block["rules"]
    club = _of(events, "melee", "Pirate")
    assert (club[0]["tn"], club[0]["hit"], club[0]["blocked"]) == (7, True, "halve")
    assert (club[0]["damage"], club[0]["wounds"], club[0]["ct"]) == (6, 1, 0)  # 13 halved: 1 wound, not 2
    strikes = _of(events, "melee", "Kayla")
    medium = strikes[0]
    assert (medium["maneuver"], medium["effects"], medium["round"]) == ("strike_medium", ["plus_damage"], 2)
    assert (medium["column"], medium["row"], medium["halved"]) == ("III", 2, False)  # the pool, not Fighting
    assert (medium["tn"], medium["result"], medium["hit"], medium["lethal"]) == (6, 7, True, False)
    assert medium["damage_bonus"] == 1 and "R-7.7" in medium["rules"]
    assert (medium["damage"], medium["wounds"], medium["ct"]) == (12, 1, 6)  # 11 + 1: non-lethal 12 is a wound
    short = strikes[1]
    assert (short["maneuver"], short["effects"], short["hit"]) == ("strike_short", ["plus_defense"], False)
    assert club[1]["round"] == 3 and club[1]["tn"] == 6  # 5 + her Defense 1 beating the club's 0
    assert any("Defense 1 beats 0" in m["reason"] for m in club[1]["tn_modifiers"])


def test_strike_low_hits_the_leg_and_the_target_falls() -> None:
    events = _run("trip")
    [blow] = _of(events, "melee", "Kayla")
    assert (blow["maneuver"], blow["effects"], blow["location"], blow["hit"]) == (
        "strike_low", ["target_falls"], "left_leg", True)
    assert not any("called" in m["reason"] for m in blow["modifiers"])  # the maneuver's location costs nothing
    [fall] = _of(events, "fall", "Pirate")
    assert (fall["cause"], fall["by"], fall["tn"], fall["result"], fall["wind"]) == ("strike_low", "Kayla", 5, 3, 1)


def test_a_refused_maneuver_through_the_cli_names_r_7_7(tmp_path: Path) -> None:
    """C-4: a scripted order for a maneuver Kayla has no dice in is refused in the log, naming R-7.7."""
    text = (DATA / "kayla.yaml").read_text().replace('"defend Kayla block to=1,1"',
                                                      '"melee Kayla Pirate maneuver=strike_long effects=defense"')
    (tmp_path / "k.yaml").write_text(text)
    (tmp_path / "kayla.json").write_text((DATA / "kayla.json").read_text())
    code, out, err = cli("run", str(tmp_path / "k.yaml"), "--json")
    assert code == 0, err
    [refused] = [e for e in map(json.loads, out.strip().splitlines()) if e["type"] == "refused"]
    assert refused["actor"] == "Kayla" and "maneuver=strike_long" in refused["action"]
    assert refused["reason"] == "R-7.7: Kayla: no dice in Strike, long"


ROWS = ["......", "......", "......"]
KAYLA = ('[{name: Me, at: [1, 1], traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, '
         'acuity: II-2}, skills: {"Martial Arts:TU Space Marine Fighting": 2}, melee: %s, martial_arts: {sm_fighting: '
         '[basic, {techniques: [knee_strike, chop], dice: {strike_short: 1, strike_medium: 1, strike_low: 1}}]}}]')
FOE = ('[{name: Foe, at: [2, 1], traits: {strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, '
       'acuity: II-2}, melee: [vibro_knife]}]')


def _battle(tmp_path: Path) -> Any:
    """battle_at without option martial_arts."""
    return battle_at(tmp_path, ROWS, KAYLA % "[]", FOE)


def _with_arts(tmp_path: Path, melee: str = "[]", blue: str = "", red: str = FOE) -> Any:
    """battle_at with option martial_arts on (Blue: Kayla as `Me` holding `melee`, unless `blue` is given)."""
    import tests.conftest as conftest

    real = conftest.ascii_scenario

    def patched(rows: list[str], blue: str, red: str, **kw: Any) -> str:
        return real(rows, blue, red, **kw).replace("name: t\n", "name: t\noptions: {martial_arts: true}\n", 1)

    conftest.ascii_scenario = patched  # type: ignore[assignment]
    try:
        return conftest.battle_at(tmp_path, ROWS, blue or KAYLA % melee, red)
    finally:
        conftest.ascii_scenario = real  # type: ignore[assignment]


def test_legality_lists_the_maneuvers_and_every_one_is_accepted(tmp_path: Path) -> None:
    b = _with_arts(tmp_path)
    legal = b.legal_actions("Me").melee
    named = {(a.maneuver, a.effects) for a in legal if a.verb == "melee" and getattr(a, "maneuver", "")}
    assert ("strike_medium", "plus_damage") in named and ("strike_medium", "plus_defense") in named
    assert ("strike_short", "plus_damage") in named and ("strike_low", "target_falls") in named
    assert ("disarm", "") in named  # Grab: the foe holds a knife
    assert not any(m == "strike_long" for m, _ in named)  # no dice, and no weapon of Defense >= 1
    assert any(a.verb == "defend" and getattr(a, "skill", "") == "block" for a in legal)
    for a in legal:
        assert b.check(a) is None, a
        assert parse_action(str(a)) == a
    odds = b.odds(parse_action("melee Me Foe maneuver=strike_medium effects=damage"))
    plain = b.odds(parse_action("melee Me Foe"))  # unskilled fists: Dexterity III-3 halved
    assert 0.0 < odds.hit < 1.0 and odds.hit != plain.hit  # Battle.odds reads the pool (III-2, not halved)
    assert 0.0 < b.odds(parse_action("melee Me Foe maneuver=disarm")).success < 1.0
    b.close()


@pytest.mark.parametrize("order, says", [
    ("melee Me Foe maneuver=strike_long", "R-7.7: Me: no dice in Strike, long"),
    ("melee Me Foe maneuver=strike_medium effects=choke", "R-7.7: Me: Strike, medium may use one of"),
    ("melee Me Foe maneuver=strike_low effects=damage", "R-7.7: Me: Strike, low may use one of"),
    ("melee Me Foe maneuver=hold", "R-7.7: Me: no dice in Hold"),  # bound now (holds.py): Kayla has none
    ("melee Me Foe maneuver=kick", "R-7.7: unknown maneuver 'kick'"),
    ("melee Me Foe maneuver=strike_medium effects=wings", "R-7.7: unknown effect 'wings'"),
    ("melee Me Foe maneuver=block", "R-7.7: Block is a defence"),
])
def test_refusals_name_r_7_7(tmp_path: Path, order: str, says: str) -> None:
    b = _with_arts(tmp_path)
    refusal = b.check(parse_action(order))
    assert refusal is not None and refusal.rule == "R-7.7" and says.removeprefix("R-7.7: ") in refusal.reason, refusal
    b.close()


def test_without_the_option_no_maneuvers(tmp_path: Path) -> None:
    b = _battle(tmp_path)
    assert not any(getattr(a, "maneuver", "") for a in b.legal_actions("Me").melee)
    refusal = b.check(parse_action("melee Me Foe maneuver=strike_medium"))
    assert refusal is not None and refusal.rule == "R-7.7" and "option martial_arts" in refusal.reason
    refusal = b.check(parse_action("defend Me block"))
    assert refusal is not None and refusal.rule == "R-7.7"
    b.close()


WRESTLER = ('[{name: Me, at: [1, 1], traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, '
            'acuity: II-2}, skills: {"Martial Arts:Wrestling": 1}, martial_arts: {wrestling: [{dice: {hold: 2}}]}}]')


def test_escape_dice_add_to_the_tn_of_a_takedown(tmp_path: Path) -> None:
    """Seed "Escape": the defender's Escape dice add to its Martial Arts level for the TN of a takedown: Kayla,
    SM Fighting 2 with Escape 2, is taken down at 5 + 4 = 9, not 5 + her Fighting level 0; then both are down."""
    kayla = (KAYLA % "[]").replace("name: Me, at: [1, 1]", "name: Foe, at: [2, 1]")
    b = _with_arts(tmp_path, blue=WRESTLER, red=kayla)
    assert b.check(parse_action("melee Me Foe maneuver=takedown")) is None
    b.submit(parse_action("melee Me Foe maneuver=takedown"))
    [ev] = [e for e in b.log if e.type == "maneuver"]
    assert (ev.maneuver, ev.tn, ev.row) == ("takedown", 9, 2)  # Wrestling's 2 granted Takedown dice
    assert any(m.get("value") == 4 and "Escape 2" in m.get("reason", "") and "R-7.7" in m.get("reason", "")
               for m in ev.tn_modifiers)
    if ev.success:
        falls = [e for e in b.log if e.type == "fall"]
        assert falls and falls[0].actor == "Foe"
    b.close()


def test_ranges_and_effects_words() -> None:
    from skirmish.content.fi import shipped_arts
    from skirmish.rules.fi import arts_use as au

    m = shipped_arts().maneuvers
    assert au.range_refusal(m["strike_long"], closed_in=False, weapon_defense=0, weapon_name="fists",
                            grappling=False) == "R-7.7: Strike, long only with a weapon of Defense >= 1; the fists has 0"
    assert au.range_refusal(m["strike_long"], closed_in=False, weapon_defense=1, weapon_name="force katana",
                            grappling=False) is None
    assert "not after a Close" in (au.range_refusal(m["strike_medium"], closed_in=True, weapon_defense=0,
                                                    weapon_name="fists", grappling=True) or "")
    assert au.range_refusal(m["strike_short"], closed_in=True, weapon_defense=0, weapon_name="fists",
                            grappling=True) is None
    assert "grappling" in (au.range_refusal(m["throw"], closed_in=False, weapon_defense=0, weapon_name="fists",
                                            grappling=False) or "")
    assert au.parse_effects("defense,damage") == ("plus_damage", "plus_defense")
    assert au.fall_wind(False, 5, 0) == 0 and au.fall_wind(False, 4, 0) == 1 and au.fall_wind(True, 0, 1) == 2


if __name__ == "__main__":
    write_decks()
