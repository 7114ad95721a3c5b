"""Injury and the mind in Future Imperfect (issue 14 item 3): surprise (R-8.3), psychological contests (R-8.4),
fear and terror (`000_…`), replayed through `skirmish run --json` with stacked decks and scripted orders (C-4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import cli, make_card, write_deck

T = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: III-2}"
OPEN = '[",,,,,,,,,,,,", ",,,,,,,,,,,,", ",,,,,,,,,,,,", ",,,,,,,,,,,,"]'


def unit(name: str, x: int, y: int, extra: str = "") -> str:
    """A YAML flow unit with III-2 traits."""
    return f"{{name: {name}, at: [{x}, {y}], traits: {T}{', ' + extra if extra else ''}}}"


def scenario(tmp: Path, cards: list[Any], a: tuple[str, list[str], list[str]], b: tuple[str, list[str], list[str]],
             *, side_a: str = "", options: str = "randomizer: cards", rounds: int = 2) -> Path:
    """A two-side scenario on an open inline map with a stacked deck (the given cards, then filler) and scripted
    orders: each side (name, orders, units)."""
    write_deck(tmp / "deck.json", [*cards, *(make_card(n) for n in range(40, 54))])

    def side(name: str, orders: list[str], units: list[str], extra: str = "") -> str:
        return (f"  - name: {name}\n    controller: scripted\n{extra}    orders: {json.dumps(orders)}\n"
                f"    units: [{', '.join(units)}]\n")

    path = tmp / "s.yaml"
    path.write_text(f"name: mind\nseed: 1\noptions: {{{options}}}\ndeck: {{cards: deck.json, shuffle: false}}\n"
                    f"victory: {{max_rounds: {rounds}}}\nmap: {{ascii: {OPEN}}}\nsides:\n"
                    + side(*a, side_a) + side(*b), encoding="utf-8")
    return path


def events(path: Path) -> list[dict[str, Any]]:
    """The battle's events from `skirmish run --json`; each reads back as its typed event, byte for byte (C-3)."""
    from skirmish.core.events import Event

    code, out, err = cli("run", str(path), "--json")
    assert code == 0, err
    lines = [line for line in out.splitlines() if line.startswith("{")]
    for line in lines:
        assert Event.from_json(json.loads(line)).to_line() == line
    return [json.loads(line) for line in lines]


def of(evs: list[dict[str, Any]], etype: str, actor: str | None = None) -> list[dict[str, Any]]:
    return [e for e in evs if e["type"] == etype and (actor is None or e["actor"] == actor)]


def bravery(card: int, value: Any, row: int = 2) -> Any:
    """A card whose Vigor III entry at `row` (Bravery 2, or initiative's Reflex III-2) reads `value`."""
    return make_card(card, upper={("III", row): value})


# ---------------------------------------------------------------------------------------------- surprise
def test_surprise_ismail_and_allison(tmp_path: Path) -> None:
    """000 "Surprise": bugs barrel out of the ruins; Ismail and Allison, wary (expecting danger), check Bravery at
    Standard 5. Ismail reads 6 and acts; Allison reads 3: no declaration, no initiative, no action in round 1;
    in round 2 she needs Easy 3, reads 4 and acts."""
    cards = [bravery(10, 6), bravery(11, 3), bravery(12, 8), bravery(13, 4), bravery(14, 8)]
    crew = ("Crew", ["declare Ismail normal", "end Ismail", "declare Ismail normal", "end Ismail",
                     "declare Allison normal", "end Allison"],
            [unit("Ismail", 1, 1, "skills: {bravery: 2}"), unit("Allison", 1, 2, "skills: {bravery: 2}")])
    bugs = ("Bugs", ["declare Bug-1 normal", "end Bug-1", "declare Bug-1 normal", "end Bug-1"], [unit("Bug-1", 10, 1)])
    evs = events(scenario(tmp_path, cards, crew, bugs, side_a="    surprised: {expecting: true}\n"))
    s = of(evs, "surprise")
    assert [(e["actor"], e["round"], e["difficulty"], e["tn"], e["result"], e["success"]) for e in s] == [
        ("Ismail", 1, "standard", 5, 6, True), ("Allison", 1, "standard", 5, 3, False),
        ("Allison", 2, "easy", 3, 4, True)]
    assert all(e["rules"][0] == "R-8.3" and e["expecting"] for e in s)
    r1 = [e for e in evs if e["round"] == 1]
    assert not [e for e in r1 if e["actor"] == "Allison" and e["type"] in ("declare", "initiative", "turn")]
    assert [e["round"] for e in of(evs, "turn", "Allison")] == [2]
    assert [e["round"] for e in of(evs, "turn", "Ismail")] == [1, 2]


def test_surprise_not_expecting_is_incredible_and_a_unit_may_say_otherwise(tmp_path: Path) -> None:
    """Not expecting danger: Incredible (11 pulp, 12 gritty); a unit's own `surprised` overrides its side's."""
    cards = [bravery(10, 10), bravery(11, 6), bravery(14, 8)]
    crew = ("Crew", [], [unit("A", 1, 1, "skills: {bravery: 2}"),
                         unit("B", 1, 2, "skills: {bravery: 2}, surprised: {expecting: true}")])
    foe = ("Foe", [], [unit("F", 10, 1)])
    evs = events(scenario(tmp_path, cards, crew, foe, side_a="    surprised: {expecting: false}\n", rounds=1,
                          options="randomizer: cards, scope: gritty"))
    assert [(s["actor"], s["difficulty"], s["tn"], s["result"], s["success"]) for s in of(evs, "surprise")] == [
        ("A", "incredible", 12, 10, False), ("B", "standard", 6, 6, True)]


def test_surprise_fails_again_until_easy_is_made(tmp_path: Path) -> None:
    """Failing the Easy check keeps it frozen another round (docs/RULES-NOTES.md)."""
    cards = [bravery(10, 2), bravery(14, 8), bravery(11, 2), bravery(15, 8), bravery(12, 5), bravery(16, 8)]
    crew = ("Crew", [], [unit("A", 1, 1, "skills: {bravery: 2}, surprised: {expecting: true}")])
    foe = ("Foe", [], [unit("F", 10, 1)])
    evs = events(scenario(tmp_path, cards, crew, foe, rounds=3))
    assert [(e["round"], e["tn"], e["success"]) for e in of(evs, "surprise")] == [(1, 5, False), (2, 3, False),
                                                                                  (3, 3, True)]
    assert [e["round"] for e in of(evs, "turn", "A")] == [3]


# ---------------------------------------------------------------------------------------------- fear (000_…)
def test_klackon_fear_tn_seven(tmp_path: Path) -> None:
    """000 "Fear and Terror": klackon warriors cause fear, TN 7. Chuk reads 8 (1 success: distraught, loses his
    action, then -4 on the next), Frost 12 (2: annoyed, -4 to her shot), Harold 17 (3: nothing), Johan CF
    (terrified: he may only move away from the klackon, his shot is refused). Each tests once."""
    cards = [bravery(10, 8), bravery(11, 12), bravery(12, 17), bravery(13, "CF"), bravery(14, 8),
             make_card(20, upper={("III", 2): 9})]
    crew = ("Crew", ["declare Chuk normal", "shoot Chuk Klackon", "declare Frost normal", "shoot Frost Klackon",
                     "end Frost", "declare Harold normal", "end Harold", "declare Johan normal",
                     "move Johan 0,3", "shoot Johan Klackon", "end Johan"],
            [unit(n, 3, y, "skills: {bravery: 2, \"shooting:pistol\": 2}, weapons: [blast_pistol]")
             for n, y in (("Chuk", 0), ("Frost", 1), ("Harold", 2), ("Johan", 3))])
    bugs = ("Klackons", ["declare Klackon normal", "end Klackon"],
            [unit("Klackon", 9, 1, "fearsome: {kind: fear, tn: 7}, armour: [lba3]")])
    evs = events(scenario(tmp_path, cards, crew, bugs, rounds=2))
    fear = of(evs, "fear")
    assert [(e["actor"], e["source"], e["tn"], e["result"], e["successes"], e.get("effect")) for e in fear] == [
        ("Chuk", "Klackon", 7, 8, 1, "distraught"), ("Frost", "Klackon", 7, 12, 2, "annoyed"),
        ("Harold", "Klackon", 7, 17, 3, None), ("Johan", "Klackon", 7, 0, 0, "terrified")]
    assert all(e["round"] == 1 for e in fear)
    # distraught is annoyed too (R-8.4): the lost action, then -4 on the next one (round 2's shot)
    assert [(e["round"], e["text"]) for e in of(evs, "mind", "Chuk")] == [(1, "loses this action"),
                                                                         (2, "-4 to this action")]
    (chuk,) = of(evs, "attack", "Chuk")
    assert chuk["round"] == 2 and {"value": -4, "reason": "annoyed (R-8.4)"} in chuk["modifiers"]
    (frost,) = [e for e in of(evs, "attack", "Frost") if e["round"] == 1]
    assert {"value": -4, "reason": "annoyed (R-8.4)"} in frost["modifiers"]
    refused = [e for e in evs if e["type"] == "refused" and e["actor"] == "Johan"]
    assert refused and "terrified of Klackon" in refused[0]["reason"]
    (move,) = [e for e in of(evs, "move", "Johan") if e["round"] == 1]
    assert move["path"][-1] == [0, 3]


def test_terror_critical_failure_is_catatonic_then_terrified(tmp_path: Path) -> None:
    """000: a CF on a terror test: catatonic (no declaration, initiative or action this round), terrified the
    next (it may only move away)."""
    cards = [bravery(10, "CF"), bravery(14, 8), bravery(15, 8)]
    crew = ("Crew", ["declare A normal", "end A"], [unit("A", 3, 1, "skills: {bravery: 2}")])
    foe = ("Foe", [], [unit("Horror", 9, 1, "fearsome: terror")])
    evs = events(scenario(tmp_path, cards, crew, foe, rounds=2))
    (f,) = of(evs, "fear")
    assert (f["kind"], f["tn"], f["effect"]) == ("terror", 7, "catatonic")  # default TN: Challenging (pulp 7)
    states = [(e["round"], e["state"]) for e in of(evs, "mind", "A")]
    assert (1, "catatonic") in states and (2, "terrified") in states
    assert [e["round"] for e in of(evs, "turn", "A")] == [2]


# ---------------------------------------------------------------------------------------------- contests
def _contest(tmp: Path, cards: list[Any], order: str, sid: str, kyr: str, options: str = "randomizer: cards",
             kyr_orders: list[str] | None = None) -> list[dict[str, Any]]:
    crew = ("Crew", ["declare Sid normal", order, "end Sid"], [unit("Sid", 1, 1, sid)])
    foe = ("Kyr", kyr_orders or ["declare Kyr-1 normal", "end Kyr-1"], [unit("Kyr-1", 8, 1, kyr)])
    return events(scenario(tmp, cards, crew, foe, options=options))


INIT = make_card(14, upper={("III", 2): 8})  # the initiative card: both act in phase II, Sid first (side order)


def test_taunt_against_taunt_breaks_and_earns_a_chip(tmp_path: Path) -> None:
    """Sid's Taunt 3 (Acuity III) reads 13 against Kyr-1's Taunt 2 reading 3: 10 over, 3 successes: broken
    (annoyed and distraught); Sid's side earns a story chip (recorded: chips are not built yet). Kyr-1 loses
    its round-1 action and takes -4 on its next."""
    cards = [INIT, make_card(30, upper={("III", 3): 13}), make_card(31, upper={("III", 2): 3})]
    evs = _contest(tmp_path, cards, "contest Sid Kyr-1 kind=taunt", "skills: {taunt: 3}", "skills: {taunt: 2}")
    (c,) = of(evs, "contest")
    assert (c["kind"], c["mode"], c["skill"], c["column"], c["row"], c["result"], c["card"]) == \
        ("taunt", "focused", "taunt", "III", 3, 13, 30)
    assert (c["resist"]["skill"], c["resist"]["result"], c["resist"]["draw"]["card"]) == ("taunt", 3, 31)
    assert (c["tn"], c["successes"], c["effect"]) == (3, 3, "broken")
    (chip,) = of(evs, "chip_draw")
    assert (chip["side"], chip["drawn"], chip["actor"]) == ("Crew", False, "Sid")
    assert [(e["round"], e["state"]) for e in of(evs, "mind", "Kyr-1")] == [(1, "distraught"), (2, "annoyed")]
    assert [e["round"] for e in of(evs, "turn", "Kyr-1")] == [2]


def test_cautious_intimidate_ties_go_to_the_impulse(tmp_path: Path) -> None:
    """Cautious (R-5.4): Intimidate 9 - 2 = 7 against Bravery (Vigor) 7, a tie: the higher impulse wins (R-3.8);
    won, one success: annoyed (-4 to Kyr-1's next action, its shot in the same round)."""
    cards = [INIT, make_card(30, upper={("III", 3): 9}), make_card(31, upper={("III", 2): 7}),
             make_card(32, upper={("III", 2): 9})]
    evs = _contest(tmp_path, cards, "contest Sid Kyr-1 kind=intimidate mode=cautious",
                   "skills: {intimidate: 3}", "skills: {bravery: 2, \"shooting:pistol\": 2}, weapons: [blast_pistol]",
                   kyr_orders=["declare Kyr-1 normal", "shoot Kyr-1 Sid", "end Kyr-1"])
    (c,) = of(evs, "contest")
    assert c["resist"]["skill"] == "bravery"
    assert {"value": -2, "reason": "cautious (R-5.4)"} in c["modifiers"]
    assert c["result"] == 7 and c["tn"] == 7 and c["impulses"] is not None  # a tie: the impulses decide
    won = c["impulses"][0] > c["impulses"][1]
    assert (c["successes"], c.get("effect")) == ((1, "annoyed") if won else (0, None))
    (shot,) = of(evs, "attack", "Kyr-1")
    assert ({"value": -4, "reason": "annoyed (R-8.4)"} in shot["modifiers"]) == won
    # cautious: no focus, so Kyr-1's TN at Sid has no -2
    assert not [m for m in shot["tn_modifiers"] if "focused" in m["reason"]]


def test_intimidate_focused_one_success_and_the_focus_lowers_the_tn(tmp_path: Path) -> None:
    """Focused (R-5.4): the check is not lowered, but attackers' TN at Sid is -2 until his next turn."""
    cards = [INIT, make_card(30, upper={("III", 3): 9}), make_card(31, upper={("III", 2): 7}),
             make_card(32, upper={("III", 2): 9})]
    evs = _contest(tmp_path, cards, "contest Sid Kyr-1 kind=intimidate",
                   "skills: {intimidate: 3}", "skills: {bravery: 2, \"shooting:pistol\": 2}, weapons: [blast_pistol]",
                   kyr_orders=["declare Kyr-1 normal", "shoot Kyr-1 Sid", "end Kyr-1"])
    (c,) = of(evs, "contest")
    assert (c["result"], c["tn"], c["successes"], c["effect"], c["modifiers"]) == (9, 7, 1, "annoyed", [])
    (shot,) = of(evs, "attack", "Kyr-1")
    assert {"value": -2, "reason": "Sid is focused on an auxiliary action (R-5.4)"} in shot["tn_modifiers"]
    assert {"value": -4, "reason": "annoyed (R-8.4)"} in shot["modifiers"]
    assert shot["tn"] == 5 + 1 - 2  # Standard, +1 for 14 m at a 10 m increment, -2 focused


def test_simple_contest_reads_the_table(tmp_path: Path) -> None:
    """000 "Simple Psychological Contests" (option contests: simple): Kyr-1's Acuity IV against Sid's III is
    greater: TN 7, +1 for 3 levels of Taunt = 8; Sid reads 13: one bump, 2 successes: distraught. One draw."""
    cards = [INIT, make_card(30, upper={("III", 3): 13})]
    kyr = "skills: {taunt: 3}, traits: {strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: IV-2}"
    crew = ("Crew", ["declare Sid normal", "contest Sid Kyr-1 kind=taunt", "end Sid"],
            [unit("Sid", 1, 1, "skills: {taunt: 3}")])
    foe = ("Kyr", [], [f"{{name: Kyr-1, at: [8, 1], {kyr}}}"])
    evs = events(scenario(tmp_path, cards, crew, foe, options="randomizer: cards, contests: simple"))
    (c,) = of(evs, "contest")
    assert (c["tn"], c["result"], c["successes"], c["effect"], c.get("resist")) == (8, 13, 2, "distraught", None)


def test_contest_legality(tmp_path: Path) -> None:
    """Contests are listed for enemies in sight within earshot (20 m by default), every kind and mode; an
    auxiliary action makes no attacks (R-5.4): after a contest no shot is listed and one is refused; a
    dodging unit starts none."""
    from skirmish.rules.actions import Shoot
    from skirmish.rulesets.fi import Contest
    from tests.conftest import battle_at

    rows = [",,,,,,,,,,,,,,,,", ",,,,,,,,,,,,,,,,", ",,,,,,,,,,,,,,,,"]
    me = "[{name: Me, at: [1, 1], traits: " + T + ", skills: {taunt: 2, \"shooting:pistol\": 2}, weapons: [blast_pistol]}]"
    foes = "[{name: Near, at: [8, 1], traits: " + T + "}, {name: Far, at: [15, 1], traits: " + T + "}]"
    b = battle_at(tmp_path, rows, me, foes)
    legal = b.legal_actions("Me")
    assert {(c.target, c.kind, c.mode) for c in legal.contests} == {
        ("Near", k, m) for k in ("bluff", "intimidate", "taunt") for m in ("focused", "cautious")}
    far = b.check(Contest("Me", "Far", "taunt"))
    assert far is not None and far.rule == "R-8.4" and "a contest carries 20 m" in far.reason
    assert b.check(Contest("Me", "Near", "sing")) is not None
    assert legal.shots
    b.submit(Contest("Me", "Near", "bluff"))
    after = b.legal_actions("Me")
    assert not after.shots and not after.contests
    refused = b.check(Shoot("Me", "Near"))
    assert refused is not None and refused.rule == "R-5.4" and "auxiliary" in refused.reason
    d = battle_at(tmp_path, rows, me, foes, declare="dodge")
    assert not d.legal_actions("Me").contests
    assert "dodging" in (d.check(Contest("Me", "Near")) or "").reason  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------------- injury
def _shot(tmp: Path, location: str, damage: int, row: int) -> list[dict[str, Any]]:
    """Gun's blast pistol (4d6: column II, row 4) hits Mark 8 m away at `location` for `damage` (the effect
    grid's II row `row`), then Mark's orders would have him act in round 2."""
    stack = ("head", "chest", "left_arm", "belly")
    shot = make_card(30, upper={("III", 2): 7}, lower={("II", row): damage}, standard=stack.index(location),
                     hit_stack=stack, ablation=("P", "P", "P"), toggle=False)
    gun = ("Gun", ["declare Gun normal", "shoot Gun Mark mode=prepared spends=none", "end Gun"],
           [unit("Gun", 1, 1, "skills: {\"shooting:pistol\": 2}, weapons: [blast_pistol]")])
    mark = ("Mark", ["declare Mark normal", "end Mark", "declare Mark normal", "end Mark"], [unit("Mark", 5, 1)])
    return events(scenario(tmp, [INIT, shot], gun, mark))


def test_two_head_wounds_from_one_hit_kill(tmp_path: Path) -> None:
    """R-8.1: the head reads two rows down (R-6.8: row 6); 13 damage on size 6 is 2 wounds 1 CT: dead."""
    evs = _shot(tmp_path, "head", 13, 6)
    (a,) = of(evs, "attack", "Gun")
    assert (a["location"], a["damage"], a["wounds"], a["ct"]) == ("head", 13, 2, 1)
    (out,) = of(evs, "out_of_action")
    assert (out["actor"], out["state"], out["wounds"], out["rules"]) == ("Mark", "dead", 2, ["R-8.1"])


def test_two_wounds_elsewhere_do_not_kill(tmp_path: Path) -> None:
    evs = _shot(tmp_path, "chest", 13, 4)
    assert (of(evs, "attack", "Gun")[0]["wounds"], of(evs, "out_of_action")) == (2, [])
    assert 2 in [e["round"] for e in of(evs, "turn", "Mark")]  # still in action (R-8.2 may stun him in round 1)


def test_four_wounds_incapacitate_fall_prone_and_never_act(tmp_path: Path) -> None:
    """R-8.1: 4 wounds: incapacitated, falls prone, no actions (no declaration, initiative or turn after)."""
    path_evs = _shot(tmp_path, "chest", 24, 4)
    (out,) = of(path_evs, "out_of_action")
    assert (out["state"], out["wounds"]) == ("incapacitated", 4)
    after = [e for e in path_evs[path_evs.index(out):] if e["actor"] == "Mark"]
    assert after == [out]
    from skirmish.ai.controllers import ScriptedController
    from skirmish.battle import Battle
    from skirmish.content.scenario import load_scenario

    sc = load_scenario(tmp_path / "s.yaml")
    with Battle(sc, controllers={s.name: ScriptedController(list(s.orders)) for s in sc.spec.sides}) as b:
        b.run()
        mark = b.view().unit("Mark")
        assert mark.out_of_action and mark.prone and not mark.dead


def test_a_record_with_contests_and_minds_replays_and_verifies(tmp_path: Path) -> None:
    """docs/RECORDS.md: the contest answers read back and every round's state hash (the minds included) holds."""
    cards = [INIT, make_card(30, upper={("III", 3): 13}), make_card(31, upper={("III", 2): 3})]
    crew = ("Crew", ["declare Sid normal", "contest Sid Kyr-1 kind=bluff mode=cautious", "end Sid"],
            [unit("Sid", 1, 1, "skills: {bluff: 3, bravery: 2}, surprised: {expecting: true}")])
    foe = ("Kyr", [], [unit("Kyr-1", 8, 1, "fearsome: fear")])
    path = scenario(tmp_path, [bravery(20, 9), bravery(21, 17), *cards], crew, foe)
    rec = tmp_path / "b.rec"
    code, out, err = cli("run", str(path), "--record", str(rec))
    assert code == 0, err
    code, replayed, err = cli("replay", str(rec))
    assert code == 0, err
    assert "bluffs Kyr-1 (cautious)" in replayed and replayed.splitlines()[-1] == out.splitlines()[-1]


def test_a_waiting_unit_made_distraught_loses_its_held_action(tmp_path: Path) -> None:
    """R-5.7 + R-8.4: the held action is the next one, which distraught loses: the wait is dropped."""
    init = make_card(14, upper={("III", 2): 8, ("III", 3): 8})  # Kyr-1 (Reflex III-3) acts first in phase II
    cards = [init, make_card(30, upper={("III", 3): 13}), make_card(31, upper={("III", 2): 3})]
    fast = "traits: {strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
    crew = ("Crew", ["declare Sid normal", "contest Sid Kyr-1 kind=taunt", "move Sid 1,3", "end Sid"],
            [unit("Sid", 1, 1, "skills: {taunt: 3}")])
    foe = ("Kyr", ["declare Kyr-1 normal", "wait Kyr-1"],
           [f"{{name: Kyr-1, at: [8, 1], {fast}, skills: {{taunt: 2}}, weapons: [blast_pistol]}}"])
    evs = events(scenario(tmp_path, cards, crew, foe, rounds=1))
    assert [e["type"] for e in evs if e["actor"] == "Kyr-1" and e["type"] in ("wait", "trigger_lost")] == \
        ["wait", "trigger_lost"]
    assert of(evs, "contest")[0]["effect"] == "broken"
    assert not of(evs, "trigger") and not of(evs, "attack")
