"""R-7.7 advanced martial arts as data (issue 14 item 2): the seed's numbers (Kung Fu's +1 Die costs, Kayla
Argent's two levels of TU Space Marine Fighting), the customisation rules' refusals, the shipped tables, a bad
discipline file and bad choices in a scenario through `skirmish check` (C-6, exit 2), and a property test of the
cost calculator."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.content.errors import ContentError
from skirmish.content.fi import ARTS_FILE, martial_arts_pools, parse_arts, shipped_arts
from skirmish.content.scenario import parse_scenario
from skirmish.rules.fi import arts as A
from skirmish.rules.fi.arts_data import parse_levels
from tests.conftest import ascii_scenario, cli

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "skirmish" / "data" / ARTS_FILE
ARTS = shipped_arts()
SM = ARTS.discipline("TU Space Marine Fighting")
KUNG_FU = ARTS.discipline("kung_fu")
assert SM is not None and KUNG_FU is not None
KAYLA = ["basic", {"techniques": ["knee_strike", "chop"], "dice": {"strike_short": 1, "strike_medium": 1,
                                                                   "strike_low": 1}}]


def levels(d: A.Discipline, raw: list[Any]) -> list[A.LevelChoice]:
    return parse_levels(ARTS, d, raw)


def test_the_shipped_tables_hold_every_column_of_the_seed() -> None:
    assert list(ARTS.elements) == ["attack", "vulnerable_attack", "grapple", "throw", "defend"]
    assert [m.short for m in ARTS.maneuvers.values()] == ["SS", "S", "SL", "Slo", "TD", "Ho", "L", "Lo", "E", "B",
                                                          "T", "D"]
    costs = {e.name: e.cost for e in ARTS.effects.values()}
    assert costs == {"Choke": 3, "Disable": 3, "+1 Damage": 3, "+1 Die": 2, "+1 Defense": 3, "Target falls": 1}
    assert ARTS.effects["choke"].only == {"hold"} and ARTS.effects["disable"].only == {"lock"}
    assert "strike_low" in ARTS.effects["plus_damage"].never
    # Seed "Cost": two elements 1 point per level, each more +1 (Kung Fu: Attack, Attack, Throw = 2), and 7 more
    # customisation points per extra element.
    assert (ARTS.skill_cost(SM), ARTS.allowance(SM)) == (1, 13)
    assert (ARTS.skill_cost(KUNG_FU), ARTS.allowance(KUNG_FU)) == (2, 20)
    assert ARTS.primary(SM) == {"strike_short", "strike_medium", "strike_long", "strike_low", "block", "escape",
                                "disarm"}  # the seed's SM Fighting "Primary Maneuvers"


def test_kung_fu_extra_die_costs_2_then_4_going_from_5_to_6() -> None:
    """Seed: +1 Die in Strike, medium costs 2 at level 1, and 4 at level 2 (his pool going from 5 to 6)."""
    kf = levels(KUNG_FU, [{"dice": {"strike_medium": 2, "strike_short": 2}, "extras": {"strike_medium": 1}}] * 2)
    priced = A.price(ARTS, KUNG_FU, kf)
    extras = [[(i.points, i.pool) for i in c.items if i.what == "+1 Die"] for c in priced]
    assert extras == [[(2, 3)], [(4, 6)]]
    assert A.check(ARTS, KUNG_FU, kf) == []
    assert A.pools(ARTS, KUNG_FU, kf)["strike_medium"].dice == 6
    # Kung Fu places 2 dice per level in Strike, medium (two Attack elements); a third is an extra.
    assert A.check(ARTS, KUNG_FU, levels(KUNG_FU, [{"dice": {"strike_medium": 3, "strike_short": 2}}])) == [
        ("[0].dice.strike_medium", "at most 2 effect dice per level in Strike, medium for Kung Fu, got 3; more are "
         "extra dice (+1 Die)")]


def test_kayla_argent_two_levels_of_space_marine_fighting() -> None:
    """Seed: basic maneuvers at level 1, Knee Strike and Chop at level 2: 2 dice in Strike short, medium and low,
    Escape and Disarm; Block 4; Strike short and medium may each use +1 Damage or +1 Defense."""
    kayla = levels(SM, KAYLA)
    assert A.check(ARTS, SM, kayla) == []
    got = {m: p.dice for m, p in A.pools(ARTS, SM, kayla).items()}
    assert got == {"strike_short": 2, "strike_medium": 2, "strike_low": 2, "escape": 2, "block": 4, "disarm": 2}
    pools = A.pools(ARTS, SM, kayla)
    for m in ("strike_short", "strike_medium"):
        assert A.effect_sets(pools[m]) == [(), ("plus_damage",), ("plus_defense",)]
        assert A.use_maneuver(ARTS, pools, m, ["plus_damage"]).damage_bonus == 1
        assert A.use_maneuver(ARTS, pools, m, ["plus_defense"]).defense_bonus == 1
    with pytest.raises(ValueError, match="Strike, short may use one of: none; plus_damage; plus_defense"):
        A.use_maneuver(ARTS, pools, "strike_short", ["plus_damage", "plus_defense"])
    trip = A.use_maneuver(ARTS, pools, "strike_low", ["target_falls"])
    assert (trip.dice, trip.target_falls, trip.damage_bonus) == (2, True, 0)
    with pytest.raises(ValueError, match="no dice in Hold"):
        A.use_maneuver(ARTS, pools, "hold")
    assert A.grapple_defense(2, pools) == 4  # level 2 + 2 Escape dice
    costs = [c.total for c in A.price(ARTS, SM, kayla)]
    assert costs == [10, 9] and all(c <= 13 for c in costs)


def test_chop_and_roundhouse_add_two_damage_or_damage_and_defense() -> None:
    """Seed: with Chop and Roundhouse, Strike, medium adds +2 Damage, or +1 Damage and +1 Defense (Cross)."""
    sm = levels(SM, [*KAYLA, {"techniques": ["roundhouse", "x_block"],
                              "dice": {"strike_medium": 1, "strike_short": 1, "strike_low": 1}}])
    assert A.check(ARTS, SM, sm) == []
    pools = A.pools(ARTS, SM, sm)
    assert pools["strike_medium"].effects == ("plus_damage", "plus_damage", "plus_defense")
    assert A.use_maneuver(ARTS, pools, "strike_medium", ["plus_damage", "plus_damage"]).damage_bonus == 2
    both = A.use_maneuver(ARTS, pools, "strike_medium", ["plus_defense", "plus_damage"])
    assert (both.damage_bonus, both.defense_bonus, both.dice) == (1, 1, 3)


@pytest.mark.parametrize("raw, where, expect", [
    ([{"techniques": ["uppercut", "cross", "knee_strike", "chop", "x_block"], "dice": {"strike_short": 1,
      "strike_medium": 1, "strike_low": 1}}], "[0]", "level 1 costs 18 points, above the 13"),
    ([{"dice": {"strike_short": 1}}], "[0]", "level 1 places 5 effect dice (granted ones included); a level "
     "needs at least 6"),
    ([{"dice": {"hold": 1, "strike_short": 1, "strike_low": 1}}], "[0].dice.hold", "Hold is not a primary "
     "maneuver of TU Space Marine Fighting; buy it as an external level"),
    ([{"dice": {"strike_short": 1, "strike_low": 1}, "extras": {"block": 2}}], "[0].extras.block",
     "+1 Die at most 1 per level per maneuver, got 2"),
    ([{"dice": {"strike_short": 1, "strike_low": 1}, "external": {"hold": 1, "lock": 1}}], "",
     "at most 1 external maneuver(s), got Hold, Lock"),
    (["basic", "basic"], "[1]", "level 2: the basic maneuvers are level 1's"),
    ([{"techniques": ["shrug_escape"], "dice": {"strike_short": 1, "strike_low": 1}}], "[0].techniques",
     "Shrug Escape needs 2 dice in Escape at this level, got 1"),
    ([{"dice": {"strike_short": 1, "strike_low": 1}, "effects": [{"hold": "choke"}]}], "[0].effects",
     "TU Space Marine Fighting takes enhanced effects through its techniques"),
])
def test_the_customisation_rules_refuse(raw: list[Any], where: str, expect: str) -> None:
    problems = A.check(ARTS, SM, levels(SM, raw))
    assert any(w == where and expect in m for w, m in problems), problems


def test_effect_limits_on_a_discipline_without_techniques() -> None:
    wr = ARTS.discipline("Wrestling")
    assert wr is not None
    base = {"dice": {"takedown": 2, "hold": 2, "lock": 2}}
    assert A.check(ARTS, wr, levels(wr, [{**base, "effects": [{"hold": "choke"}, {"lock": "disable"}]}])) == []
    bad = A.check(ARTS, wr, levels(wr, [{**base, "effects": [{"lock": "choke"}]},
                                        {"dice": {"hold": 2, "lock": 2, "escape": 2},
                                         "effects": [{"hold": "choke"}, {"hold": "choke"}]}]))
    assert [m for _w, m in bad] == ["Choke only goes on Hold", "Choke at most 1 times on Hold"]
    with pytest.raises(A.ArtsError, match="unknown enhanced effect 'plus_die'"):
        levels(wr, [{"effects": [{"hold": "plus_die"}]}])


# ------------------------------------------------------------------------------ data file and scenarios (C-6)


def damaged(tmp_path: Path, change: Any) -> Path:
    raw = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    change(raw)
    p = tmp_path / "arts.yaml"
    p.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return p


@pytest.mark.parametrize("change, expect", [
    (lambda r: r["disciplines"]["kung_fu"].update(elements=["attack", "kicking"]),
     "disciplines.kung_fu.elements: expected a list of two or more elements (attack, vulnerable_attack, grapple, "
     "throw, defend), got ['attack', 'kicking']"),
    (lambda r: r["effects"]["choke"].update(cost="three"), "effects.choke.cost: expected a whole number 0-50, "
     "got 'three'"),
    (lambda r: r["elements"]["defend"]["marks"].update(block="Y"), "elements.defend.marks.block: expected marks "
     "like 'X', 'Xx', 'x' or 'xx', got 'Y'"),
    (lambda r: r["disciplines"]["sm_fighting"]["techniques"]["trip"].update(effects=["plus_damage"]),
     "disciplines.sm_fighting.techniques.trip.effects: +1 Damage cannot go on Strike, low"),
    (lambda r: r["rules"].update(lowercase_marks="free"), "rules.lowercase_marks: expected one of granted, "
     "capacity, got 'free'"),
])
def test_a_bad_discipline_file_names_the_file_and_key(tmp_path: Path, change: Any, expect: str) -> None:
    p = damaged(tmp_path, change)
    with pytest.raises(ContentError) as exc:
        parse_arts(yaml.safe_load(p.read_text(encoding="utf-8")), str(p))
    assert exc.value.text == f"{p}: {expect}"
    code, out, err = cli("check", str(p))
    assert (code, out, err) == (2, "", f"skirmish: {p}: {expect}\n")


def test_check_reads_the_shipped_file() -> None:
    code, out, _err = cli("check", str(DATA))
    assert code == 0 and "martial arts, 3 disciplines (TU Space Marine Fighting, Kung Fu, Wrestling)" in out


MARINE = ("[{name: Kayla, at: [1, 1], traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, "
          "acuity: II-2}, skills: {%s}, martial_arts: %s}]")
FOE = ("[{name: Foe, at: [3, 1], traits: {strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, "
       "acuity: II-2}}]")
ROWS = ["......", "......", "......"]


def test_a_scenario_unit_carries_its_discipline_and_choices(tmp_path: Path) -> None:
    text = ascii_scenario(ROWS, MARINE % ('"Martial Arts:TU Space Marine Fighting": 2', f"{{sm_fighting: {KAYLA}}}"),
                          FOE)
    sc = parse_scenario(text, "t.yaml", base=tmp_path)
    unit = sc.spec.sides[0].units[0]
    assert unit.martial_arts["sm_fighting"][0] == "basic"
    d, level, pools = martial_arts_pools(unit)["sm_fighting"]  # what the melee engine reads
    assert (d.name, level, pools["block"].dice, A.grapple_defense(level, pools)) == (
        "TU Space Marine Fighting", 2, 4, 4)
    assert martial_arts_pools(sc.spec.sides[1].units[0]) == {}


@pytest.mark.parametrize("skills, choices, expect", [
    ('"Martial Arts:TU Space Marine Fighting": 1', f"{{sm_fighting: {KAYLA}}}",
     "sides[0].units[0].martial_arts.sm_fighting: 2 levels of choices for the skill at level 1; give one per level"),
    ('"Martial Arts:Drunken Boxing": 1', "{}", "sides[0].units[0].skills: 'Martial Arts:Drunken Boxing': unknown "
     "martial arts discipline; the shipped ones are 'TU Space Marine Fighting', 'Kung Fu', 'Wrestling'"),
    ('"martial_arts:sm_fighting": 1', "{sm_fighting: [{dice: {strike_short: 3}}]}",
     "sides[0].units[0].martial_arts.sm_fighting[0].dice.strike_short: at most 1 effect dice per level in Strike, "
     "short for TU Space Marine Fighting, got 3; more are extra dice (+1 Die)"),
    ('"shooting:pistol": 2', "{kung_fu: [basic]}", "sides[0].units[0].martial_arts.kung_fu: choices for 'Kung Fu' "
     "need the skill 'Martial Arts:Kung Fu' (R-7.7)"),
])
def test_bad_martial_arts_in_a_scenario_exit_2(tmp_path: Path, skills: str, choices: str, expect: str) -> None:
    p = tmp_path / "t.yaml"
    p.write_text(ascii_scenario(ROWS, MARINE % (skills, choices), FOE), encoding="utf-8")
    code, _out, err = cli("check", str(p))
    assert code == 2 and f"skirmish: {p}: {expect}" in err.splitlines(), err


# ------------------------------------------------------------------------------------------ property

COUNTS = st.dictionaries(st.sampled_from(list(ARTS.maneuvers)), st.integers(0, 3), max_size=4)
LEVEL = st.fixed_dictionaries({"dice": COUNTS, "extras": st.dictionaries(st.sampled_from(list(ARTS.maneuvers)),
                                                                          st.integers(0, 2), max_size=2),
                               "effects": st.lists(st.dictionaries(st.sampled_from(list(ARTS.maneuvers)),
                                                                   st.sampled_from(["choke", "disable", "plus_damage",
                                                                                    "plus_defense", "target_falls"]),
                                                                   min_size=1, max_size=1), max_size=3)})


def recount(d: A.Discipline, lvs: list[A.LevelChoice]) -> list[int]:
    """Each level's points worked out afresh from the seed's table: 1 per effect die or external level, 2 per
    extra die, doubled for a die taking its pool above 5; the effects' costs."""
    pool: dict[str, int] = {}
    out = []
    for lv in lvs:
        pts = 0
        for m, g in ARTS.granted(d).items():
            pool[m] = pool.get(m, 0) + g
        for bought, cost in ((lv.dice, 1), (lv.external, 1), (lv.extras, 2)):
            for m, k in bought.items():
                for _ in range(k):
                    pool[m] = pool.get(m, 0) + 1
                    pts += cost * 2 if pool[m] > 5 else cost
        pts += sum(ARTS.effects[e].cost for _m, e in lv.effects)
        out.append(pts)
    return out


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(["kung_fu", "wrestling"]), st.lists(LEVEL, min_size=1, max_size=5))
def test_valid_choices_cost_what_the_calculator_says_within_the_allowance(did: str, raw: list[Any]) -> None:
    d = ARTS.disciplines[did]
    lvs = levels(d, raw)
    priced = A.price(ARTS, d, lvs)
    assert [c.total for c in priced] == recount(d, lvs)
    problems = A.check(ARTS, d, lvs)
    over = [c for c in priced if c.total > c.allowance]
    assert all(any(w == f"[{c.level - 1}]" and "costs" in m for w, m in problems) for c in over)
    if not problems:
        assert all(c.total <= ARTS.allowance(d) for c in priced)
        pools = A.pools(ARTS, d, lvs)
        assert sum(p.dice for p in pools.values()) == sum(
            sum(ARTS.granted(d).values()) + sum(lv.dice.values()) + sum(lv.extras.values())
            + sum(lv.external.values()) for lv in lvs)
