"""Future Imperfect melee (R-7.1–R-7.6, R-5.4) in the engine: the melee table checked on load, legality (every listed
melee action accepted, refusals naming the rule), Close and Open holding a figure, entangling, tripping, breaking
free and rising, active defence, bulky weapons, charges refused as R-5.4 says, the odds, and battles of AIs with
units starting engaged. The seed's worked examples are in tests/test_fi_melee_examples.py; properties of the pure
rules in tests/test_fi_melee_rules.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from skirmish.ai.controllers import ScriptedController, make_ai
from skirmish.battle import Battle
from skirmish.content.armoury import parse_armoury
from skirmish.content.errors import ContentError
from skirmish.content.scenario import parse_scenario
from skirmish.core.errors import IllegalAction
from skirmish.rules.actions import Declare, EndTurn, Move, parse_action
from skirmish.rules.deck import Card
from skirmish.rulesets.fi import ShotOdds
from tests.conftest import cli, make_card, one_line, write_deck

ROOT = Path(__file__).resolve().parents[1]
T = "{strength: III-2, dexterity: III-2, reflexes: %s, vigor: III-2, acuity: II-2}"


def _unit(name: str, x: int, y: int, reflexes: str = "II-2", **extra: Any) -> str:
    bits = "".join(f", {k}: {v}" for k, v in extra.items())
    return f"{{name: {name}, at: [{x}, {y}], traits: {T % reflexes}{bits}}}"


def _battle(tmp_path: Path, blue: list[str], red: list[str], cards: list[Card] | None = None,
            rows: tuple[str, ...] = ("........", "........", "........")) -> Battle:
    """Scripted sides (orders given by `submit`), a stacked deck when `cards` are given."""
    deck = ""
    if cards is not None:
        write_deck(tmp_path / "deck.json", cards)
        deck = "deck: {cards: deck.json, shuffle: false}\n"
    text = (f"name: t\nseed: 3\nmap: {{ascii: {list(rows)!r}}}\n{deck}sides:\n"
            f"  - name: Blue\n    controller: scripted\n    units: [{', '.join(blue)}]\n"
            f"  - name: Red\n    controller: scripted\n    units: [{', '.join(red)}]\n")
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    return Battle(sc, controllers={s.name: ScriptedController([]) for s in sc.spec.sides})  # type: ignore[arg-type]


def _to_turn(b: Battle, unit: str, speeds: dict[str, str] | None = None) -> None:
    """Declare (NORMAL unless `speeds` says) and step to `unit`'s action request."""
    while b.pending is not None and b.pending.kind == "declare":
        b.submit(Declare(b.pending.unit, (speeds or {}).get(b.pending.unit, "normal")))
    while b.pending is not None and b.pending.unit != unit:
        b.submit(EndTurn(b.pending.unit))
    assert b.pending is not None and b.pending.unit == unit and b.pending.kind == "act"


def _refused(b: Battle, text: str) -> tuple[str, str]:
    refusal = b.check(parse_action(text))
    assert refusal is not None, text
    return refusal.rule, refusal.reason


def _init() -> Card:  # Blue's Reflex IV-3 goes in phase I, Red's II-2 in phase IV
    return make_card(1, upper={("IV", 3): 10, ("II", 2): 2})


def _holds(n: int) -> list[Card]:  # every check on III-2 or III-3 reads 6 (concussion saves hold)
    return [make_card(30 + i, upper={("III", 2): 6, ("III", 3): 6}) for i in range(n)]


# ---------------------------------------------------------------------------------------------- the table
def test_the_melee_table_is_checked_on_load() -> None:
    raw = yaml.safe_load((ROOT / "skirmish" / "data" / "fi_equipment.yaml").read_text())
    assert parse_armoury(raw, "f.yaml").melee["vibro_knife"].damage is not None
    for key, value, says in (("length", "long", "length"), ("lethal", "maybe", "lethal"), ("skill", "knives", "fighting"),
                             ("speed", "quick", "speed"), ("pn", {"rigid": 2}, "default"), ("reach", 2, "unknown column"),
                             ("fragile", True, "entangling")):
        bad = dict(raw["melee"]["vibro_knife"], **{key: value})
        with pytest.raises(ContentError) as info:
            parse_armoury({**raw, "melee": {"vibro_knife": bad}}, "f.yaml")
        assert "f.yaml" in str(info.value) and "melee.vibro_knife" in str(info.value) and says in str(info.value)


def test_an_unknown_melee_weapon_exits_2_naming_the_key(tmp_path: Path) -> None:
    text = (ROOT / "tests" / "data" / "melee" / "knife.yaml").read_text().replace("melee: [vibro_knife]", "melee: [spork]")
    (tmp_path / "bad.yaml").write_text(text)
    (tmp_path / "knife.json").write_text((ROOT / "tests" / "data" / "melee" / "knife.json").read_text())
    code, _, err = cli("run", str(tmp_path / "bad.yaml"))
    assert code == 2
    line = one_line(err)
    assert "bad.yaml" in line and "sides[0].units[0].melee[0]" in line and "spork" in line


# ---------------------------------------------------------------------------------------------- legality
def test_every_listed_melee_action_is_accepted_and_submitted(tmp_path: Path) -> None:
    blue = [_unit("Me", 2, 1, "IV-3", skills='{"fighting:staves": 2, dodge: 1}', melee="[staff, net, club]")]
    red = [_unit("Foe", 3, 1, melee="[sword]"), _unit("Far", 7, 1)]
    b = _battle(tmp_path, blue, red)
    _to_turn(b, "Me")
    legal = b.legal_actions("Me")
    kinds = {a.verb for a in legal.melee}
    assert {"melee", "close", "entangle", "trip", "defend", "charge"} <= kinds and "open" not in kinds
    assert any(a.verb == "melee" and getattr(a, "lethal", "") == "no" for a in legal.melee)  # the club chooses
    assert any(a.verb == "charge" and a.target == "Far" for a in legal.melee)  # type: ignore[attr-defined]
    for a in legal.melee:
        assert b.check(a) is None, a
        assert legal.allows(a)
        assert parse_action(str(a)) == a  # the text form round-trips (orders, records)
    history = list(b.history)
    for a in legal.melee[:: max(1, len(legal.melee) // 6)]:
        sc = b.scenario
        with Battle(sc, controllers={s.name: ScriptedController([]) for s in sc.spec.sides}) as twin:  # type: ignore[arg-type]
            for h in history:
                twin.submit(h)
            twin.submit(a)
    b.close()


def test_melee_refusals_name_the_rule(tmp_path: Path) -> None:
    blue = [_unit("Me", 2, 1, "IV-3", skills='{"fighting:knives": 2}', melee="[vibro_knife, two_handed_axe]")]
    red = [_unit("Foe", 3, 1, melee="[sword]"), _unit("Far", 7, 1)]
    b = _battle(tmp_path, blue, red)
    _to_turn(b, "Me")
    assert _refused(b, "melee Me Far")[0] == "R-1.3"
    assert _refused(b, "melee Me Foe weapon=spear")[0] == "R-7.1"  # not carried
    assert _refused(b, "melee Me Foe lethal=no")[0] == "R-7.4"  # a knife has no choice
    assert _refused(b, "entangle Me Foe")[0] == "R-7.6"
    assert _refused(b, "trip Me Foe")[0] == "R-7.6"
    assert _refused(b, "open Me Foe")[0] == "R-7.2"
    assert _refused(b, "break Me")[0] == "R-7.6"
    assert _refused(b, "rise Me")[0] == "R-7.6"
    assert _refused(b, "melee Me Foe weapon=two_handed_axe")[0] == "R-5.3"  # bulky: readied, then struck: SLOW
    assert _refused(b, "charge Me Far at=6,1 weapon=two_handed_axe")[0] == "R-5.4"
    assert _refused(b, "charge Me Far at=3,2")[0] == "R-5.4"  # not next to Far
    b.submit(Move("Me", (2, 2)))
    assert _refused(b, "charge Me Far at=6,1")[0] == "R-5.4"  # combines with nothing
    assert _refused(b, "defend Me")[0] == "R-7.5"  # the turn has acted
    b.close()


def test_a_bulky_weapon_is_readied_every_blow_so_slow(tmp_path: Path) -> None:
    blue = [_unit("Me", 2, 1, "IV-3", skills='{"fighting:axes": 2}', melee="[two_handed_axe]")]
    b = _battle(tmp_path, blue, [_unit("Foe", 3, 1)])
    _to_turn(b, "Me", {"Me": "slow"})
    b.submit(parse_action("melee Me Foe"))
    parts = [p.kind for p in b.view().unit("Me").turn_parts]
    assert parts == ["ready", "attack"]
    b.close()


def test_a_dodging_combatant_makes_no_blows(tmp_path: Path) -> None:
    b = _battle(tmp_path, [_unit("Me", 2, 1, "IV-3")], [_unit("Foe", 3, 1)])
    _to_turn(b, "Me", {"Me": "dodge"})
    assert _refused(b, "melee Me Foe") == ("R-5.4", "a dodging combatant makes no attacks")
    assert b.check(parse_action("defend Me dodge")) is None
    b.close()


# ---------------------------------------------------------------------------------------------- in play
def test_close_holds_the_longer_weapon_until_it_opens(tmp_path: Path) -> None:
    """Me (fists) closes on Foe (sword): Foe may not walk away (R-7.2) until it opens; Me may."""
    cards = [_init(), make_card(2, upper={("III", 2): 12}), *_holds(4)]
    b = _battle(tmp_path, [_unit("Me", 2, 1, "IV-3", skills='{"fighting:brawling": 2}')],
                [_unit("Foe", 3, 1, melee="[sword]")], cards)
    _to_turn(b, "Me")
    b.submit(parse_action("close Me Foe"))
    assert [e for e in b.log if e.type == "maneuver"][-1].success
    view = b.view()
    assert view.unit("Me").melee.inside == ("Foe",) and view.unit("Foe").melee.held == "sword"
    assert view.units == b.world.fresh_units(b.ctx.armoury)  # the kept views show the melee part as it is
    b.submit(EndTurn("Me"))
    _to_turn(b, "Foe")
    legal = b.legal_actions("Foe")
    assert not legal.walk and not legal.run
    rule, reason = _refused(b, "move Foe 5,1")
    assert rule == "R-7.2" and "open" in reason
    assert b.move_refusal() is not None
    assert any(a.verb == "open" for a in legal.melee)
    b.close()


def test_entangled_then_broken_free_by_strength_the_net_torn(tmp_path: Path) -> None:
    cards = [_init(), make_card(2, upper={("III", 2): 10}), make_card(3, upper={("III", 2): 2}),
             make_card(4, upper={("III", 2): 9}), *_holds(4)]
    b = _battle(tmp_path, [_unit("Me", 2, 1, "IV-3", skills='{"fighting:nets": 2}', melee="[net]")],
                [_unit("Foe", 3, 1)], cards)
    _to_turn(b, "Me")
    b.submit(parse_action("entangle Me Foe"))
    contest = [e for e in b.log if e.type == "melee_contest"][-1]
    assert contest.success and (contest.result, contest.other_result) == (10, 2)
    b.submit(EndTurn("Me"))
    _to_turn(b, "Foe")
    assert _refused(b, "move Foe 5,1")[0] == "R-7.6"
    assert not b.legal_actions("Foe").walk
    seen = b.view().unit("Foe").melee
    assert seen.entangled_by == "Me" and seen.held_in_place and b.view().unit("Me").melee.carried == ()
    b.submit(parse_action("break Foe strength"))
    broke = [e for e in b.log if e.type == "break_free"][-1]
    assert (broke.tn, broke.result, broke.success, broke.broken) == (9, 9, True, True)
    assert "R-7.6" not in (b.move_refusal() or "")  # free: only its time (a NORMAL action spent) is gone
    b.submit(EndTurn("Foe"))
    b.close()


def test_tripped_falls_prone_and_must_rise(tmp_path: Path) -> None:
    cards = [_init(), make_card(2, upper={("III", 2): 10}), make_card(3, upper={("III", 2): 2}), *_holds(4)]
    b = _battle(tmp_path, [_unit("Me", 2, 1, "IV-3", skills='{"fighting:staves": 2}', melee="[staff]")],
                [_unit("Foe", 3, 1)], cards)
    _to_turn(b, "Me")
    b.submit(parse_action("trip Me Foe"))
    assert b.view().unit("Foe").prone
    b.submit(EndTurn("Me"))
    _to_turn(b, "Foe")
    assert _refused(b, "move Foe 5,1")[0] == "R-7.6"
    b.submit(parse_action("rise Foe"))
    assert not b.view().unit("Foe").prone and b.check(parse_action("move Foe 4,1")) is not None  # NORMAL spent
    b.close()


def test_active_defence_stands_as_the_tn_until_the_next_action(tmp_path: Path) -> None:
    """Foe defends with a step (no −4): its 11 is the TN Me needs (5 + 0 otherwise), until Foe's next turn."""
    cards = [make_card(1, upper={("IV", 3): 10, ("II", 2): 10}), make_card(2, upper={("III", 1): 11}),
             make_card(3, upper={("III", 2): 9}), *_holds(4)]
    b = _battle(tmp_path, [_unit("Foe", 3, 1, "IV-3", skills='{"fighting:brawling": 1}')],  # (Blue acts first)
                [_unit("Me", 2, 1, "II-2")], cards)
    _to_turn(b, "Foe", {"Me": "slow"})
    b.submit(parse_action("defend Foe to=4,1"))
    d = [e for e in b.log if e.type == "defend"][-1]
    assert d.result == 11 and d.to == [4, 1] and not d.modifiers
    _to_turn(b, "Me")
    assert b.check(parse_action("melee Me Foe")) is not None  # 4,1 is no longer next to 2,1
    b.submit(Move("Me", (3, 1)))
    odds = b.odds(parse_action("melee Me Foe"))
    assert isinstance(odds, ShotOdds) and 0.0 <= odds.hit <= 1.0
    b.submit(parse_action("melee Me Foe"))
    blow = [e for e in b.log if e.type == "melee"][-1]
    assert blow.tn == 11 and "R-7.5" in blow.rules and blow.halved and blow.result == 9 // 2 and not blow.hit
    b.close()


# ---------------------------------------------------------------------------------------------- AIs engaged
@pytest.mark.parametrize("ai", ["hold", "utility", "random"])
def test_ais_with_units_starting_engaged_play_on(tmp_path: Path, ai: str) -> None:
    """Units start adjacent with melee weapons: the AIs (which declare no melee yet) still get legal options, never
    have an answer refused, and the battle ends."""
    blue = [_unit(f"B{i}", 3, i, "III-2", skills='{"shooting:pistol": 2, "fighting:knives": 2}',
                  weapons="[slug_pistol]", melee="[combat_knife]") for i in range(3)]
    red = [_unit(f"R{i}", 4, i, "III-2", skills='{"shooting:pistol": 2, "fighting:swords": 1}',
                 weapons="[slug_pistol]", melee="[sword]") for i in range(3)]
    text = (f"name: t\nseed: 5\nmap: {{ascii: {['........'] * 4!r}}}\nvictory: {{max_rounds: 8}}\nsides:\n"
            f"  - name: Blue\n    ai: {ai}\n    units: [{', '.join(blue)}]\n"
            f"  - name: Red\n    ai: {ai}\n    units: [{', '.join(red)}]\n")
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    with Battle(sc, seed=5, controllers={s.name: make_ai(ai) for s in sc.spec.sides}) as b:
        for _ in range(2000):
            req = b.pending
            if req is None:
                break
            if req.kind == "act":
                legal = b.legal_actions(req.unit)
                assert list(legal.actions())  # something always
                for a in legal.melee[:8]:
                    assert b.check(a) is None, a
            b.step()
        assert b.pending is None and b.outcome is not None
        assert not [e for e in b.log if e.type == "refused"]


def test_illegal_melee_is_refused_by_submit(tmp_path: Path) -> None:
    b = _battle(tmp_path, [_unit("Me", 2, 1, "IV-3")], [_unit("Foe", 5, 1)])
    _to_turn(b, "Me")
    with pytest.raises(IllegalAction) as info:
        b.submit(parse_action("melee Me Foe"))
    assert info.value.refusal.rule == "R-1.3"
    b.close()


def test_a_dodging_defender_adds_its_dodge_level(tmp_path: Path) -> None:
    """R-5.4: attackers' TN + the dodging combatant's Dodge level, in melee as for shots."""
    cards = [_init(), make_card(2, upper={("III", 2): 3}), *_holds(3)]
    b = _battle(tmp_path, [_unit("Me", 2, 1, "IV-3", skills='{"fighting:brawling": 2}')],
                [_unit("Foe", 3, 1, skills="{dodge: 2}")], cards)
    _to_turn(b, "Me", {"Foe": "dodge"})
    b.submit(parse_action("melee Me Foe"))
    blow = [e for e in b.log if e.type == "melee"][-1]
    assert blow.tn == 7 and any("dodging" in m["reason"] for m in blow.tn_modifiers)
    b.close()


def test_the_odds_of_blows_charges_and_maneuvers(tmp_path: Path) -> None:
    """Battle.odds answers for a blow and a melee charge (a shot's odds) and for the maneuvers (their chance),
    after the same checks that gate them."""
    from skirmish.rulesets.fi import ManeuverOdds

    blue = [_unit("Me", 2, 1, "IV-3", skills='{"fighting:staves": 2}', melee="[staff, net]")]
    b = _battle(tmp_path, blue, [_unit("Foe", 3, 1, melee="[sword]"), _unit("Far", 7, 1)])
    _to_turn(b, "Me")
    for text in ("melee Me Foe", "charge Me Far at=6,1"):
        odds = b.odds(parse_action(text))
        assert isinstance(odds, ShotOdds) and odds.exact and 0.0 < odds.hit < 1.0
    for text in ("close Me Foe weapon=net", "entangle Me Foe weapon=net", "trip Me Foe"):
        odds = b.odds(parse_action(text))
        assert isinstance(odds, ManeuverOdds) and 0.0 < odds.success < 1.0, text
    with pytest.raises(IllegalAction):
        b.odds(parse_action("close Me Foe"))  # the staff is as long as the sword
    b.close()
