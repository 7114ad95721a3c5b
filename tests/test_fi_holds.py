"""R-7.7 grapple maneuvers (issue 14 item 2): Hold, Lift, Lock and Escape, with Choke and Disable, replayed with
stacked decks and scripted orders through whole battles (option `martial_arts`), the pure disabling contest as a
property, and the legal list holding each maneuver the rules accept."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from skirmish.battle import Battle
from skirmish.rules.actions import Move, parse_action
from skirmish.rules.fi import arts_holds as ah
from tests.conftest import make_card
from tests.test_fi_waiting import INIT, _battle

COLS = ("I", "II", "III", "IV", "V", "VI")
WRESTLER = ('{name: %s, at: [%d, 1], traits: {strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, '
            'acuity: II-2}, skills: {"Martial Arts:Wrestling": 1}, martial_arts: {wrestling: [{dice: {hold: 2, '
            'lock: 2, lift: 1, escape: 1}, effects: [{hold: choke}, {lock: disable}]}]}}')
PLAIN = ('{name: %s, at: [%d, 1], traits: {strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, '
         'acuity: II-2}}')
ARTS = "options: {martial_arts: true}"


def _card(n: int, **reads: int) -> object:
    """A card whose upper entries at (column_row) read the values given, e.g. III_2=9."""
    return make_card(n, upper={(k.split("_")[0], int(k.split("_")[1])): v for k, v in reads.items()})


def _run(tmp_path: Path, cards: list, me: list[str], foe: list[str], foe_unit: str = WRESTLER,
         rounds: int = 1) -> Battle:
    b = _battle(tmp_path, cards, "[%s]" % (WRESTLER % ("Me", 1)), "[%s]" % (foe_unit % ("Foe", 2)),
                ["declare Me normal", *me], ["declare Foe normal", *foe], rounds=rounds, extra=ARTS)
    b.run()
    return b


def _of(b: Battle, etype: str) -> list:
    return [e for e in b.log if e.type == etype]


def test_a_choke_hold_winds_the_target_and_pins_it_until_it_escapes(tmp_path: Path) -> None:
    """Me holds Foe (Hold III-2 reads 9 against 7: 5 + Foe's Wrestling 1 + Escape 1) with Choke: both prone, Foe
    takes the card's d6 (column II, row 1 of the effect grid) in wind. Foe cannot move; it escapes (Escape III-1
    reads 8 against 5 + Me's Fighting 0: Escape dice raise the TN of grapple attacks, and an escape is none): the
    grip ends, no raise, both rise from the choke.
    (A held unit's move is refused: test_the_legal_list_holds_the_grapple_maneuvers_and_each_is_accepted.)"""
    choke = make_card(5, lower={(c, r): 4 for c in COLS for r in range(1, 8)})
    cards = [INIT, _card(4, III_2=9), choke, _card(6, III_2=8), _card(7, III_1=8), INIT, INIT]
    b = _run(tmp_path, cards, ["melee Me Foe maneuver=hold effects=choke"],
             ["melee Foe Me maneuver=escape"])
    [hold, escape] = _of(b, "maneuver")
    assert (hold.maneuver, hold.tn, hold.result, hold.success) == ("hold", 7, 9, True)
    made, choked, released = _of(b, "grip")
    assert (made.what, made.effect, choked.what, choked.wind) == ("made", "choke", "choke", 4)
    assert "chokes Foe: 4 wind (both prone)" in choked.describe()
    assert (escape.maneuver, escape.tn, escape.result, escape.success) == ("escape", 5, 8, True)
    assert released.what == "released" and "Foe escaped" in released.reason
    v = b.view()
    assert v.unit("Foe").ct == v.unit("Foe").ct_max - 4 and not v.unit("Foe").prone and not v.unit("Me").prone
    b.close()


def test_holding_on_chokes_again_without_a_new_check(tmp_path: Path) -> None:
    choke = make_card(5, lower={(c, r): 2 for c in COLS for r in range(1, 8)})
    cards = [INIT, _card(4, III_2=9), choke, _card(6, III_2=8), INIT, choke, _card(8, III_2=8), INIT]
    b = _run(tmp_path, cards, ["melee Me Foe maneuver=hold effects=choke", "end Me",
                               "melee Me Foe maneuver=hold effects=choke"], ["end Foe", "end Foe"], rounds=2)
    assert len(_of(b, "maneuver")) == 1  # one check: the second order works the hold it has
    assert [e.wind for e in _of(b, "grip") if e.what == "choke"] == [2, 2]
    b.close()


def test_a_lock_with_disable_a_raise_disables_the_limb(tmp_path: Path) -> None:
    """Lock (needs grappling: the hold first), then Disable: Strength III-2 reads 10 against the defender's 6 halved
    to 3: a raise (7 over), the limb disabled: a serious wound (1 wound, 3 wind) and the lock let go."""
    cards = [INIT, _card(4, III_2=9), INIT, _card(5, III_2=9), _card(6, III_2=10), _card(7, III_2=6),
             _card(8, III_2=8), INIT]
    b = _run(tmp_path, cards, ["melee Me Foe maneuver=hold", "end Me", "melee Me Foe maneuver=lock effects=disable"],
             ["end Foe", "end Foe"], rounds=2)
    grips = _of(b, "grip")
    contest = next(e for e in grips if e.what == "disable")
    assert (contest.result, contest.other_result, contest.winner, contest.disabled) == (10, 3, "attacker", True)
    assert "limb disabled" in contest.describe()
    assert grips[-1].what == "released"
    foe = b.view().unit("Foe")
    assert foe.wounds == 1 and foe.ct == foe.ct_max - 3
    b.close()


def test_a_disabling_win_short_of_a_raise_adds_one_to_the_next_try(tmp_path: Path) -> None:
    cards = [INIT, _card(4, III_2=9), INIT, _card(5, III_2=9), _card(6, III_2=6), _card(7, III_2=8), INIT,
             _card(9, III_2=6), _card(10, III_2=8), INIT]
    b = _run(tmp_path, cards, ["melee Me Foe maneuver=hold", "end Me", "melee Me Foe maneuver=lock effects=disable",
                               "end Me", "melee Me Foe maneuver=lock effects=disable"], ["end Foe"] * 3, rounds=3)
    tries = [e for e in _of(b, "grip") if e.what == "disable"]
    assert [(t.result, t.other_result, t.bonus) for t in tries] == [(6, 4, 1), (7, 4, 2)]  # 6 + 1 the second time
    assert len([e for e in _of(b, "maneuver") if e.maneuver == "lock"]) == 1
    b.close()


def test_lift_then_throw_at_plus_three_and_the_grip_ends(tmp_path: Path) -> None:
    """Lift (close range: no Close needed) succeeds; the holder's Throw next turn is at +3 (TN 7 - 3 = 4, Throw III-1
    for Wrestling's one granted die); thrown, Foe is out of the grip and falls."""
    cards = [INIT, _card(4, III_1=9), INIT, _card(5, III_1=4), _card(6, II_1=6), _card(7, III_2=6), INIT, INIT]
    b = _run(tmp_path, cards, ["melee Me Foe maneuver=lift", "end Me", "melee Me Foe maneuver=throw"],
             ["end Foe", "end Foe"], rounds=2)
    lift = _of(b, "maneuver")[0]
    assert (lift.maneuver, lift.success) == ("lift", True)
    throw = next(e for e in b.log if e.type == "melee")
    assert throw.tn == 4 and any("lift on Foe: +3" in m["reason"] for m in throw.tn_modifiers)
    assert _of(b, "grip")[-1].what == "released" and "throw" in _of(b, "grip")[-1].reason
    assert b.check(Move("Foe", (4, 1))) is None or "R-7.7" not in (b.check(Move("Foe", (4, 1))).reason or "")
    b.close()


def test_escaping_a_lift_without_a_raise_falls(tmp_path: Path) -> None:
    cards = [INIT, _card(4, III_1=9), _card(5, III_1=7), _card(6, III_2=6), INIT]
    b = _run(tmp_path, cards, ["melee Me Foe maneuver=lift"], ["melee Foe Me maneuver=escape"])
    assert [e.maneuver for e in _of(b, "maneuver")] == ["lift", "escape"]
    assert [e.actor for e in _of(b, "fall")] == ["Foe"]
    b.close()


def test_a_plain_fighter_breaks_free_by_strength_and_a_holder_that_moves_lets_go(tmp_path: Path) -> None:
    cards = [INIT, _card(4, III_2=9), _card(5, III_2=9), _card(6, III_2=3), INIT]
    b = _run(tmp_path, cards, ["melee Me Foe maneuver=hold"], ["break Foe strength"], foe_unit=PLAIN)
    contest = next(e for e in b.log if e.type == "melee_contest")
    assert contest.maneuver == "break hold" and contest.success
    assert _of(b, "grip")[-1].reason == "Foe escaped"
    b.close()
    cards = [INIT, _card(4, III_2=9), INIT]
    b = _battle(tmp_path, cards, "[%s]" % (WRESTLER % ("Me", 1)), "[%s]" % (PLAIN % ("Foe", 2)),
                ["declare Me normal", "melee Me Foe maneuver=hold"], ["declare Foe normal"], extra=ARTS)
    while not (b.pending.kind == "act" and b.pending.unit == "Foe"):
        b.step()
    legal = b.legal_actions("Foe")
    assert not legal.walk and not legal.run
    assert {a.how for a in legal.melee if a.verb == "break"} == {"strength", "wriggle"}  # type: ignore[attr-defined]
    b.close()


def test_the_legal_list_holds_the_grapple_maneuvers_and_each_is_accepted(tmp_path: Path) -> None:
    cards = [INIT, _card(4, III_2=9), INIT]
    b = _battle(tmp_path, cards, "[%s]" % (WRESTLER % ("Me", 1)), "[%s]" % (WRESTLER % ("Foe", 2)),
                ["declare Me normal"], ["declare Foe normal"], extra=ARTS)
    while not (b.pending.kind == "act" and b.pending.unit == "Me"):
        b.step()
    legal = b.legal_actions("Me").melee
    named = {(a.maneuver, a.effects) for a in legal if getattr(a, "maneuver", "")}  # type: ignore[attr-defined]
    assert {("hold", ""), ("hold", "choke"), ("lift", "")} <= named
    assert not any(m in ("lock", "escape") for m, _ in named)  # no grappling yet; nothing holds Me
    for a in legal:
        assert b.check(a) is None, a
    b.submit(parse_action("melee Me Foe maneuver=hold"))
    b.submit(parse_action("end Me"))
    while not (b.pending.kind == "act" and b.pending.unit == "Foe"):
        b.step()
    foe = {(a.maneuver, a.effects) for a in b.legal_actions("Foe").melee if getattr(a, "maneuver", "")}  # type: ignore[attr-defined]
    assert ("escape", "") in foe and ("hold", "") not in foe  # held: escape, not a hold of its own
    refusal = b.check(Move("Foe", (4, 1)))
    assert refusal is not None and refusal.rule == "R-7.7"
    b.close()


@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 5))
def test_the_disabling_contest(attacker: int, defender: int, bonus: int) -> None:
    """Seed "Disable": the attacker must win outright; a raise disables (attacker) or breaks the lock (defender); a
    win short of one adds 1 to the next try, a defender's win clears the bonus."""
    out = ah.disable_round(attacker, defender, bonus)
    assert out.winner == ("attacker" if attacker > defender else "defender")
    assert out.disabled == (attacker - defender >= ah.RAISE)
    assert out.broken == (defender - attacker >= ah.RAISE)
    assert out.bonus_after == (bonus + 1 if out.winner == "attacker" and not out.disabled else 0)


def test_a_holder_shot_out_of_action_lets_go(tmp_path: Path) -> None:
    """Damage from anywhere ends a grip whose holder it puts out of action: the Sniper's killing shot at Me."""
    kill = make_card(7, upper={("III", 3): 20}, lower={(c, r): 60 for c in COLS for r in range(1, 8)})
    sniper = "{name: Sniper, at: [8, 1], traits: " + \
        "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}, " + \
        "weapons: [blast_carbine], skills: {shooting:rifle: 3}}"
    b = _battle(tmp_path, [INIT, _card(4, III_2=9), kill, INIT, INIT], "[%s]" % (WRESTLER % ("Me", 1)),
                f"[{PLAIN % ('Foe', 2)}, {sniper}]", ["declare Me normal", "melee Me Foe maneuver=hold"],
                ["declare Foe normal", "declare Sniper normal", "end Foe", "shoot Sniper Me mode=prepared"],
                extra=ARTS)
    b.run()
    types = [e.type for e in b.log]
    assert "out_of_action" in types
    released = _of(b, "grip")[-1]
    assert released.what == "released" and released.reason == "out of action"
    assert types.index("out_of_action") < types.index("grip", types.index("attack"))
    b.close()
