"""Waiting (R-5.7, issue 14 item 6): the triggers beyond `enemy_in_view` — a mover's (`enemy_moves`,
`enemy_in_range`, `enemy_enters:X,Y`) and a turn's (`acts:NAME`, `preempt:NAME` at −2, `later`) — replayed with a
stacked deck and scripted orders through whole battles; ties simultaneous (the damage lands after both)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmish.ai.controllers import make_controller
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.rules.actions import Wait, parse_action
from skirmish.rules.fi import waiting as wt
from tests.conftest import make_card, write_deck

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}"
INIT = make_card(1, upper={("III", 2): 9})  # everyone reads 9: phase II at NORMAL
OPEN = ("............", "............", "............")
CORRIDOR = (".........", "####.####", ".........")
MISS = make_card(3, upper={(c, r): 1 for c in ("I", "II", "III", "IV", "V", "VI") for r in range(1, 6)})


def _unit(name: str, at: tuple[int, int], extra: str = "") -> str:
    return f"{{name: {name}, at: [{at[0]}, {at[1]}], traits: {TRAITS}{', ' + extra if extra else ''}}}"


GUN = "weapons: [blast_carbine], skills: {shooting:rifle: 3}"


def _battle(tmp_path: Path, cards: list, units_a: str, units_b: str, orders_a: list[str], orders_b: list[str],
            rows: tuple[str, ...] = OPEN, rounds: int = 1, extra: str = "") -> Battle:
    deck = write_deck(tmp_path / "deck.json", cards)
    text = f"""
name: fixture
seed: 1
map: {{ascii: {list(rows)!r}}}
deck: {{cards: {deck.name}, shuffle: false}}
victory: {{max_rounds: {rounds}}}
{extra}
sides:
  - name: Alpha
    controller: scripted
    orders: {orders_a!r}
    units: {units_a}
  - name: Beta
    controller: scripted
    orders: {orders_b!r}
    units: {units_b}
"""
    sc = parse_scenario(text, str(tmp_path / "s.yaml"), base=tmp_path)
    ctrl = {s.name: make_controller(s.controller, s.orders) for s in sc.spec.sides}
    return Battle(sc, controllers=ctrl)  # type: ignore[arg-type]


def _types(b: Battle) -> list[str]:
    return [e.type for e in b.log]


# ---------------------------------------------------------------------------------------------- the words (pure)
@given(st.sampled_from(wt.KINDS), st.integers(0, 40), st.integers(0, 40), st.sampled_from(["Kyr-1", "Bo"]))
def test_a_trigger_reads_back_from_its_text(kind: str, x: int, y: int, unit: str) -> None:
    """Every trigger's text form parses back to it, and through the `wait` action's text too."""
    trig = wt.Trigger(kind, cell=(x, y) if kind == "enemy_enters" else None,
                      unit=unit if kind in wt.TURN_TRIGGERS else None)
    assert wt.parse(trig.text()) == trig
    act = Wait("Sid", trig.text())
    assert parse_action(str(act)) == act


@pytest.mark.parametrize("text", ["enemy_near", "enemy_enters:3", "enemy_enters:a,b", "acts:", "later:5",
                                  "enemy_in_view:x"])
def test_an_unknown_or_malformed_trigger_is_refused_naming_the_rule(text: str) -> None:
    with pytest.raises(wt.TriggerError, match=r"R-5\.7"):
        wt.parse(text)


@given(st.integers(0, 20), st.integers(0, 20), st.integers(0, 53), st.integers(0, 53), st.booleans())
def test_the_contest_goes_to_the_higher_result_then_impulse(a: int, b: int, ia: int, ib: int, pre: bool) -> None:
    """R-5.7, R-3.8: the higher result goes first, then the higher impulse; a full tie is simultaneous for a
    trigger and lost by a pre-emption (seed 003: "If they win, they may go first. Otherwise, they go after")."""
    first, simul = wt.goes_first(a, b, ia, ib, preempt=pre)
    if a != b:
        assert first == (a > b) and not simul
    elif ia != ib:
        assert first == (ia > ib) and not simul
    else:
        assert (first, simul) == ((False, False) if pre else (True, True))


# ---------------------------------------------------------------------------------------------- a mover's triggers
def test_enemy_enters_fires_as_the_mover_steps_into_the_named_cell(tmp_path: Path) -> None:
    """Watch waits for an enemy to enter 4,2. Runner, in view all along, runs past it: no trigger at its first steps
    (as `enemy_in_view` would), a Reflex contest at 4,2, Watch wins and fires at it there, 4 m off."""
    w_card = make_card(5, upper={("III", 2): 8})
    m_card = make_card(6, upper={("III", 2): 2})
    b = _battle(tmp_path, [INIT, w_card, m_card, MISS, INIT], f"[{_unit('Watch', (4, 0), GUN)}]",
                f"[{_unit('Runner', (0, 2))}]", ["declare Watch normal", "wait Watch enemy_enters:4,2"],
                ["declare Runner normal", "move Runner 8,2"])
    b.run()
    wait = next(e for e in b.log if e.type == "wait")
    trig = next(e for e in b.log if e.type == "trigger")
    attack = next(e for e in b.log if e.type == "attack")
    assert wait.trigger == "enemy_enters:4,2" and "enter 4,2" in wait.describe()
    assert trig.trigger == "enemy_enters:4,2" and trig.waiter_first and attack.trigger
    assert attack.distance_m == pytest.approx(4.0)  # two cells away: the runner in the named cell
    b.close()


def test_enemy_enters_is_not_set_off_by_a_move_elsewhere(tmp_path: Path) -> None:
    b = _battle(tmp_path, [INIT] * 4, f"[{_unit('Watch', (4, 0), GUN)}]", f"[{_unit('Runner', (0, 2))}]",
                ["declare Watch normal", "wait Watch enemy_enters:8,0"], ["declare Runner normal", "move Runner 6,2"])
    b.run()
    assert "trigger" not in _types(b) and "attack" not in _types(b)
    assert b.view().unit("Watch").waiting == "enemy_enters:8,0"  # still waiting at the end of the round
    b.close()


def test_enemy_moves_fires_where_the_mover_stood_before_its_first_step(tmp_path: Path) -> None:
    """`enemy_moves`: Runner, seen 10 m off, sets off as it moves; Watch wins and fires at it before its first step
    (10 m away), where `enemy_in_view` would have fired at its first cell after the step."""
    w_card = make_card(5, upper={("III", 2): 8})
    m_card = make_card(6, upper={("III", 2): 2})
    b = _battle(tmp_path, [INIT, w_card, m_card, MISS, INIT], f"[{_unit('Watch', (0, 0), GUN)}]",
                f"[{_unit('Runner', (5, 0))}]", ["declare Watch normal", "wait Watch enemy_moves"],
                ["declare Runner normal", "move Runner 8,0"])
    b.run()
    trig = next(e for e in b.log if e.type == "trigger")
    attack = next(e for e in b.log if e.type == "attack")
    types = _types(b)
    assert trig.trigger == "enemy_moves" and "sees move" in trig.describe()
    assert attack.distance_m == pytest.approx(10.0)
    assert types.index("attack") < types.index("move") or b.view().unit("Runner").cell == (8, 0)
    b.close()


def test_enemy_in_range_waits_until_the_mover_is_within_the_range_increment(tmp_path: Path) -> None:
    """The blast carbine's range increment is its first band: a runner walking in from far off sets it off only once
    it is closer than that, not at the first step it is seen."""
    w_card = make_card(5, upper={("III", 2): 8})
    m_card = make_card(6, upper={("III", 2): 2})
    b = _battle(tmp_path, [INIT, w_card, m_card, MISS, INIT, INIT, INIT],
                f"[{_unit('Watch', (0, 1), GUN)}]", f"[{_unit('Runner', (11, 1))}]",
                ["declare Watch normal", "wait Watch enemy_in_range"], ["declare Runner normal", "move Runner 3,1"],
                rounds=1)
    inc = b.view().unit("Watch").weapon.range_inc_m
    b.run()
    attack = next(e for e in b.log if e.type == "attack")
    assert attack.trigger and attack.distance_m < inc
    assert attack.distance_m >= inc - 2.0  # the first cell inside the increment, not later
    b.close()


def test_a_tie_is_simultaneous_the_damage_lands_after_the_move(tmp_path: Path) -> None:
    """Equal Reflex results and equal impulses (one card's twin): both act at once. The waiter's hit, enough to put
    Runner out of action, lands when the move is made: Runner ends its move at 8,2 and falls there."""
    same = make_card(5, upper={("III", 2): 5})
    hit = make_card(7, upper={("III", 3): 20}, lower={(c, r): 60 for c in ("I", "II", "III", "IV", "V", "VI")
                                                      for r in range(1, 8)})
    b = _battle(tmp_path, [INIT, same, same, hit, INIT], f"[{_unit('Watch', (4, 0), GUN)}]",
                f"[{_unit('Runner', (0, 2))}]", ["declare Watch normal", "wait Watch"],
                ["declare Runner normal", "move Runner 8,2"])
    b.run()
    trig = next(e for e in b.log if e.type == "trigger")
    assert trig.simultaneous and "damage after the move" in trig.describe()
    types = _types(b)
    assert "move_stopped" not in types
    assert types.index("attack") < types.index("out_of_action")
    assert b.view().unit("Runner").cell == (8, 2)  # it finished its move before the hit landed
    b.close()


# ---------------------------------------------------------------------------------------------- a turn's triggers
def _turns(b: Battle) -> list[str]:
    return [e.actor for e in b.log if e.type == "turn"]


def _acts(tmp_path: Path, w_read: int, o_read: int, trigger: str, orders_a: list[str]) -> Battle:
    """Watch (phase II, first by id) waits; Kyr acts after it in phase II; Watch's trigger names Kyr."""
    w_card = make_card(5, upper={("III", 2): w_read})
    o_card = make_card(6, upper={("III", 2): o_read})
    return _battle(tmp_path, [INIT, w_card, o_card, MISS, MISS, INIT], f"[{_unit('Watch', (0, 0), GUN)}]",
                   f"[{_unit('Kyr', (5, 2), GUN)}]", ["declare Watch normal", f"wait Watch {trigger}", *orders_a],
                   ["declare Kyr normal", "shoot Kyr Watch"])


def test_acts_an_enemy_that_loses_the_contest_acts_after_the_waiter(tmp_path: Path) -> None:
    b = _acts(tmp_path, 8, 3, "acts:Kyr", ["shoot Watch Kyr"])
    b.run()
    trig = next(e for e in b.log if e.type == "trigger")
    assert trig.trigger == "acts:Kyr" and trig.waiter_first and "Watch goes first" in trig.describe()
    assert _turns(b) == ["Watch", "Watch", "Kyr"]  # its own turn (the wait), then the held action before Kyr's
    attacks = [e.actor for e in b.log if e.type == "attack"]
    assert attacks == ["Watch", "Kyr"]
    b.close()


def test_acts_an_enemy_that_wins_the_contest_acts_first(tmp_path: Path) -> None:
    b = _acts(tmp_path, 3, 8, "acts:Kyr", ["shoot Watch Kyr"])
    b.run()
    assert _turns(b) == ["Watch", "Kyr", "Watch"]
    assert [e.actor for e in b.log if e.type == "attack"] == ["Kyr", "Watch"]
    b.close()


def test_preempt_reads_the_waiter_at_minus_two(tmp_path: Path) -> None:
    """Pre-empting without a trigger: 8 − 2 = 6 against 7 loses, so Kyr goes first; the same 8 would have won an
    `acts` trigger."""
    b = _acts(tmp_path, 8, 7, "preempt:Kyr", ["shoot Watch Kyr"])
    b.run()
    trig = next(e for e in b.log if e.type == "trigger")
    assert (trig.waiter_result, trig.mover_result) == (6, 7) and not trig.waiter_first
    assert "(-2 to pre-empt)" in trig.describe()
    assert _turns(b) == ["Watch", "Kyr", "Watch"]
    b.close()


def test_preempt_a_tie_goes_after(tmp_path: Path) -> None:
    same = make_card(5, upper={("III", 2): 9})
    b = _battle(tmp_path, [INIT, same, make_card(5, upper={("III", 2): 7}), MISS, MISS, INIT],
                f"[{_unit('Watch', (0, 0), GUN)}]", f"[{_unit('Kyr', (5, 2), GUN)}]",
                ["declare Watch normal", "wait Watch preempt:Kyr", "shoot Watch Kyr"],
                ["declare Kyr normal", "shoot Kyr Watch"])
    b.run()
    trig = next(e for e in b.log if e.type == "trigger")
    assert (trig.waiter_result, trig.mover_result) == (7, 7) and not trig.waiter_first and not trig.simultaneous
    b.close()


def test_acts_a_tie_is_simultaneous_both_fire_and_the_damage_lands_after_both(tmp_path: Path) -> None:
    """Both shoot the other with a killing hit; simultaneous, so both shots are fired before either falls."""
    same = make_card(5, upper={("III", 2): 5})
    hit = make_card(7, upper={("III", 3): 20}, lower={(c, r): 60 for c in ("I", "II", "III", "IV", "V", "VI")
                                                      for r in range(1, 8)})
    b = _battle(tmp_path, [INIT, same, same, hit, hit, INIT], f"[{_unit('Watch', (0, 0), GUN)}]",
                f"[{_unit('Kyr', (5, 2), GUN)}]", ["declare Watch normal", "wait Watch acts:Kyr", "shoot Watch Kyr"],
                ["declare Kyr normal", "shoot Kyr Watch"])
    b.run()
    trig = next(e for e in b.log if e.type == "trigger")
    assert trig.simultaneous
    types = _types(b)
    attacks = [i for i, t in enumerate(types) if t == "attack"]
    downs = [i for i, t in enumerate(types) if t == "out_of_action"]
    assert len(attacks) == 2 and downs and min(downs) > max(attacks)
    assert b.outcome is not None and b.outcome.winner is None  # a draw: both fell, nobody left standing
    b.close()


def test_acts_a_friend_goes_right_after_it_without_a_contest(tmp_path: Path) -> None:
    b = _battle(tmp_path, [INIT, MISS, INIT], f"[{_unit('Watch', (0, 0), GUN)}, {_unit('Bo', (0, 2), GUN)}]",
                f"[{_unit('Kyr', (11, 2))}]", ["declare Watch normal", "declare Bo normal", "wait Watch acts:Bo",
                                               "end Bo", "end Watch"], ["declare Kyr normal"])
    b.run()
    assert "trigger" not in _types(b)
    assert _turns(b)[:3] == ["Watch", "Bo", "Watch"]
    b.close()


def test_later_is_offered_after_each_turn_and_acts_when_it_chooses(tmp_path: Path) -> None:
    """`later`: Watch holds; after Bo's turn it is offered one and waits later again; after Kyr's it acts."""
    b = _battle(tmp_path, [INIT, MISS, INIT],
                f"[{_unit('Watch', (0, 0), GUN)}, {_unit('Bo', (0, 2))}]", f"[{_unit('Kyr', (6, 1), GUN)}]",
                ["declare Watch normal", "declare Bo normal", "wait Watch later", "end Bo", "wait Watch later",
                 "shoot Watch Kyr"], ["declare Kyr normal", "end Kyr"])
    b.run()
    assert _turns(b) == ["Watch", "Bo", "Watch", "Kyr", "Watch"]
    assert [e.actor for e in b.log if e.type == "attack"] == ["Watch"]
    b.close()


# ---------------------------------------------------------------------------------------------- legality
def test_the_legal_list_holds_every_trigger_and_the_board_may_name_a_cell(tmp_path: Path) -> None:
    b = _battle(tmp_path, [INIT] * 4, f"[{_unit('Watch', (0, 0), GUN)}, {_unit('Bo', (0, 2))}]",
                f"[{_unit('Kyr', (6, 1), GUN)}]", ["declare Watch normal", "declare Bo normal"], ["declare Kyr normal"])
    while not (b.pending.kind == "act" and b.pending.unit == "Watch"):
        b.step()
    legal = b.legal_actions("Watch")
    words = {w.trigger for w in legal.waits}
    assert {"enemy_in_view", "enemy_moves", "enemy_in_range", "later", "acts:Bo", "acts:Kyr", "preempt:Kyr"} == words
    assert legal.allows(Wait("Watch", "enemy_enters:5,1")) and not legal.allows(Wait("Watch", "enemy_enters:50,1"))
    for bad, why in (("preempt:Bo", "on your side"), ("acts:Nobody", "not another"), ("enemy_enters:50,1", "enter"),
                     ("sometime", "unknown trigger")):
        refusal = b.check(Wait("Watch", bad))
        assert refusal is not None and refusal.rule == "R-5.7" and why in refusal.reason, bad
    for w in legal.waits:
        assert b.check(w) is None
    b.close()


def test_the_cli_runs_a_wait_for_a_doorway_and_a_later(tmp_path: Path) -> None:
    """C-1 through `skirmish run`: the orders' text (`wait U enemy_enters:X,Y`, `wait U later`) read from a scenario
    file, the readable log explains the triggers, and `--json` gives the same events (C-3)."""
    from tests.conftest import cli

    write_deck(tmp_path / "deck.json", [INIT, make_card(5, upper={("III", 2): 8}), make_card(6, upper={("III", 2): 2}),
                                        MISS, MISS, INIT])
    (tmp_path / "door.yaml").write_text(f"""
name: the doorway
seed: 1
map: {{ascii: {list(OPEN)!r}}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: 1}}
sides:
  - name: Alpha
    controller: scripted
    orders: ["declare Watch normal", "declare Bo normal", "wait Watch enemy_enters:4,2", "wait Bo later",
             "shoot Bo Runner"]
    units: [{_unit('Watch', (4, 0), GUN)}, {_unit('Bo', (0, 0), GUN)}]
  - name: Beta
    controller: scripted
    orders: ["declare Runner normal", "move Runner 8,2"]
    units: [{_unit('Runner', (0, 2))}]
""", encoding="utf-8")
    code, out, err = cli("run", str(tmp_path / "door.yaml"))
    assert code == 0, err
    assert "Watch waits: enemy_enters:4,2 (for an enemy to enter 4,2)" in out
    assert "Bo waits: later (to act later, after any action it chooses)" in out
    assert "Watch sees enter 4,2 Runner: Reflex contest 8 vs 2 -> Watch fires first" in out
    code, js, _ = cli("run", str(tmp_path / "door.yaml"), "--json")
    import json
    evs = [json.loads(line) for line in js.splitlines() if line.startswith("{")]
    assert [e["actor"] for e in evs if e["type"] == "attack"] == ["Watch", "Bo"]  # Bo's held turn after Runner's
    assert next(e for e in evs if e["type"] == "trigger")["trigger"] == "enemy_enters:4,2"
