"""The pure melee rules (skirmish.rules.fi.melee, R-7.1–R-7.6): the TN with Defense and size, Close, Strength,
lethality, and two properties: active defence never lowers a TN (R-7.5); non-lethal damage never kills outright
(R-7.4) — through the same resolution a blow takes (`resolve_shot`) and the injury rules (`after_damage`)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.content.armoury import shipped
from skirmish.rules.deck import Deck, builtin
from skirmish.rules.fi import melee as ml
from skirmish.rules.fi.damage import DEAD_AT, after_damage
from skirmish.rules.fi.ranged import ArmourLayer, TargetState, resolve_shot
from skirmish.rules.randomizer import CardDraw

MELEE = shipped().melee
COLUMNS = ("I", "II", "III", "IV", "V", "VI")


def _f(name: str = "A", weapon: str = "fists", size: int = 6, skills: dict[str, int] | None = None,
       strength: tuple[str, int] = ("III", 2), down: bool = False) -> ml.Fighter:
    return ml.Fighter(name, size, strength, ("III", 2), skills or {}, MELEE[weapon], down)


def test_the_tn_is_five_plus_the_defenders_fighting_with_what_it_holds() -> None:
    antares, canine = _f("Antares"), _f("Canine", skills={"fighting:brawling": 2})
    assert ml.attack_tn(antares, canine)[0] == 7
    armed = _f("Canine", "sword", skills={"fighting:brawling": 2, "fighting:swords": 4})
    tn_value, mods = ml.attack_tn(antares, armed)
    assert tn_value == 5 + 4 + 1 and [m.value for m in mods] == [4, 1]  # swords 4 and the sword's Defense
    related = _f("Canine", "sword", skills={"fighting:knives": 3})
    assert ml.attack_tn(antares, related)[0] == 5 + 1 + 1  # a related Fighting specialisation at -2


def test_size_adds_to_defense() -> None:
    human, ursoid = _f("Human", "sword", skills={"fighting:swords": 2}), _f("Ursoid", size=7)
    assert ml.effective_defense(human, ursoid) == ml.effective_defense(ursoid, human) == 1
    assert ml.attack_tn(human, ursoid)[0] == 5 and ml.attack_tn(ursoid, human)[0] == 7
    assert ml.attack_tn(ursoid, _f("Man", "sword", skills={"fighting:swords": 2}, size=5))[0] == 7  # 0+1 vs 1+0
    big = _f("Big", size=12)
    assert ml.attack_tn(human, big)[0] == 6  # the size-12 brute's Defense 6 beats the sword's 1


def test_close_needs_the_shorter_weapon() -> None:
    assert ml.may_close(_f("A"), _f("B", "sword")) is None
    assert ml.may_close(_f("A", "vibro_knife"), _f("B", "sword")) is None
    assert "R-7.2" in (ml.may_close(_f("A", "sword"), _f("B", "vibro_knife")) or "")
    assert "R-7.2" in (ml.may_close(_f("A", "sword"), _f("B", "sword")) or "")


def test_strength_shifts_the_row_and_the_pn_unless_closed_on() -> None:
    knife = ml.strike_numbers(_f("H", "vibro_knife", strength=("III", 2)), 2)
    assert str(knife.damage) == "4d6" and knife.pn["default"] == 4
    weak = ml.strike_numbers(_f("H", "vibro_knife", strength=("II", 2)), 2)
    assert str(weak.damage) == "3d6" and weak.pn["default"] == 3  # 2 + 2 < 2 + 3; column 2 < PN 3
    closed = ml.strike_numbers(_f("H", "vibro_knife", strength=("III", 2)), 2, strength_ok=False)
    assert str(closed.damage) == "3d6" and closed.pn["default"] == 3
    fists = ml.strike_numbers(_f("H", strength=("IV", 3)), 3)
    assert str(fists.damage) == "3d10" and fists.pn == {"default": 4, "flexible": 4, "energy": 4, "rigid": 1}
    club = ml.strike_numbers(_f("H", "club", strength=("III", 2)), 3)
    assert str(club.damage) == "4d8"  # Strength column at Brawling 3, plus the club's row


def test_lethality_is_chosen_only_by_heavier_improvised_weapons() -> None:
    assert ml.lethal_choice(MELEE["club"], "no") is False and ml.lethal_choice(MELEE["club"], None) is True
    assert ml.lethal_choice(MELEE["bottle"], None) is False and ml.lethal_choice(MELEE["sword"], "") is True
    for weapon, asked in (("sword", "no"), ("bottle", "yes"), ("club", "maybe")):
        try:
            ml.lethal_choice(MELEE[weapon], asked)
        except ValueError as exc:
            assert "R-7.4" in str(exc)
        else:
            raise AssertionError(f"{weapon} {asked}")


fighters = st.builds(
    _f, st.sampled_from(["A"]), st.sampled_from(sorted(MELEE)), st.integers(3, 14),
    st.dictionaries(st.sampled_from(["fighting:brawling", "fighting:swords", "fighting:knives", "fighting:staves"]),
                    st.integers(1, 5), max_size=3),
    st.tuples(st.sampled_from(COLUMNS), st.integers(1, 5)), st.booleans())


@settings(max_examples=300, deadline=None)
@given(fighters, fighters, st.sampled_from([None, "attacker", "defender"]), st.integers(-5, 30))
def test_active_defence_never_lowers_a_tn(attacker: ml.Fighter, defender: ml.Fighter, closed: str | None,
                                          defence: int) -> None:
    plain, _ = ml.attack_tn(attacker, defender, closed=closed)
    defended, mods = ml.attack_tn(attacker, defender, closed=closed, defence=defence)
    assert defended == max(plain, defence) >= plain
    assert defended == 5 + sum(m.value for m in mods)  # every point of the TN has its reason


@settings(max_examples=300, deadline=None)
@given(fighters, st.integers(0, 53), st.integers(0, DEAD_AT - 1), st.integers(1, 24), st.integers(1, 5),
       st.sampled_from([None, "head", "vitals", "chest"]), st.integers(0, 4), st.integers(0, 2**16))
def test_non_lethal_damage_never_kills_outright(attacker: ml.Fighter, card_index: int, wounds: int, ct: int,
                                                level: int, called: str | None, bumps: int, seed: int) -> None:
    """Any card, any weapon struck non-lethally, any standing target: wounds and CT, never dead (R-7.4)."""
    deck = Deck(builtin("A"), random.Random(seed))
    card = builtin("A")[card_index]
    draw = CardDraw(card, deck)
    setup, _ = ml.as_shot(attacker, level, "VI", False, 1, [], [], lethal=False, called=called,
                          spends=("damage@0",) * bumps)
    target = TargetState(6, {"chest": (ArmourLayer(0, "vest", "flexible", 2),)})
    out = resolve_shot(draw, setup, target)
    now = wounds
    for h in out.hits:
        h.wounds = ml.nonlethal_wounds(now, h.wounds, h.location)
        cond = after_damage(now, ct, h.wounds, h.ct, h.wounds if h.location == "head" else 0)
        assert not cond.dead
        now, ct = cond.wounds, cond.ct


def test_maneuver_odds_count_the_pile() -> None:
    """A check's odds are the share of the pile that reaches the TN; a contest of equal pools is even (R-3.8)."""
    from skirmish.rules.checks import Pool
    from skirmish.rules.fi.melee_odds import check_odds, contest_odds
    from tests.conftest import make_card

    pile = [make_card(n, upper={("III", 2): v}) for n, v in ((3, 4), (9, 7), (17, 8), (30, 2), (41, 9), (50, 6))]
    pool = Pool("III", 2, "fighting:brawling")
    assert check_odds(pool, 7, 0, cards=pile).success == 3 / 6
    assert check_odds(pool, 7, 1, cards=pile).success == 4 / 6  # +1: the 6 reaches 7
    assert check_odds(Pool("III", 2, "x", halve=True), 4, 0, cards=pile).success == 2 / 6  # 9//2, 8//2
    even = contest_odds(pool, 0, pool, 0, cards=pile)
    assert even.success == 0.5 and even.samples == 30 and even.exact
    assert contest_odds(pool, 20, pool, 0, cards=pile).success == 1.0
    assert 0.0 < contest_odds(pool, 0, pool, 0, cards=None, seed=4).success < 1.0  # dice mode: an estimate
