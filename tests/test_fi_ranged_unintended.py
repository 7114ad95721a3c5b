"""Unintended targets (R-6.11, R-4.10): the candidates on the line of fire, which a missed round strikes and
where, Chuk's "Sorry, boys" through `skirmish run --json` with a stacked deck, and the golden proof that the
option is the only change in the re-recorded logs."""

from __future__ import annotations

import dataclasses
import gzip
import json
import random
from pathlib import Path

import pytest

from skirmish.content.armoury import shipped
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario, parse_scenario
from skirmish.rules.fi.unintended import (
    MAX_CANDIDATES,
    Figure,
    candidates,
    missed_rounds,
    stray_box,
    struck,
)
from skirmish.rules.geometry import GridMap
from tests.conftest import ascii_scenario, cli, make_card, write_deck
from tools.golden import golden_file, play

ARM = shipped()
DATA = Path(__file__).parent / "data" / "ranged"


def _grid(rows: list[str]) -> GridMap:
    traits = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: III-2}"
    text = ascii_scenario(rows, f"[{{name: a, at: [0, 0], traits: {traits}}}]",
                          f"[{{name: b, at: [1, 0], traits: {traits}}}]")
    return parse_scenario(text, "g.yaml").grid


# ------------------------------------------------------------------------------------------ the pure rules
def test_candidates_nearest_first_within_one_metre_and_past_the_target() -> None:
    grid = _grid(["..........", "..........", ".........."])
    figs = [Figure("far", (8, 1)), Figure("beside", (3, 0)), Figure("near", (2, 1)), Figure("behind", (0, 1)),
            Figure("past", (7, 1))]
    got = [f.name for f in candidates(grid, (1, 1), (5, 1), figs, ARM.weapons["blast_rifle"])]
    # (3,0) is 2 m off a line along row 1: only a suppression weapon's 2 m reaches it; behind the firer: never
    assert got == ["near", "past", "far"]
    wide = [f.name for f in candidates(grid, (1, 1), (5, 1), figs, ARM.weapons["blast_mmg"])]
    assert wide == ["near", "beside", "past", "far"]


def test_candidates_stop_at_walls_and_at_ten() -> None:
    grid = _grid(["....#.........", "..............", ".............."])
    figs = [Figure(f"f{i}", (i, 1)) for i in range(2, 14)] + [Figure("walled", (5, 0))]
    got = candidates(grid, (0, 1), (1, 1), figs, ARM.weapons["blast_mmg"])
    assert len(got) == MAX_CANDIDATES and [f.name for f in got] == [f"f{i}" for i in range(2, 12)]
    diag = candidates(grid, (0, 0), (8, 0), [Figure("walled", (5, 0)), Figure("open", (3, 0))],
                      ARM.weapons["blast_rifle"])
    assert [f.name for f in diag] == ["open"]  # the wall at (4,0) stands between the firer and (5,0)


def test_struck_never_twice_and_only_crossed_listed_figures() -> None:
    rng = random.Random(14)
    for _ in range(2000):
        crossed = [rng.random() < 0.3 for _ in range(10)]
        listed = rng.randrange(0, 11)
        missed = rng.randrange(0, 11)
        hit = struck(crossed, listed, missed)
        assert len(hit) == len(set(hit)), "a figure is struck at most once per shot"
        assert all(crossed[i] and i < listed for i in hit)
        assert len(hit) == min(missed, sum(crossed[:listed]))
        assert hit == sorted(hit)  # the first crossed figures, top of the strip first


def test_stray_boxes_standard_then_up_down_two_up() -> None:
    assert [stray_box(2, k) for k in range(4)] == [2, 1, 3, 0]
    assert [stray_box(0, k) for k in range(3)] == [0, 0, 1]  # kept on the stack
    assert missed_rounds(0, False, 0) == 1 and missed_rounds(10, True, 5) == 5 and missed_rounds(3, True, 3) == 0


# ------------------------------------------------------------------------------------------ Sorry, boys
def sorry_boys_cards() -> list:
    """The stacked deck of tests/data/ranged/sorry_boys.yaml: the initiative card (Chuk's 2d6 Reflexes read 12,
    phase II at SLOW), then card 35 (impulse 35): 5 in III-3, burst 10 hits 5, standard left leg under the
    belly, 4d10 row 7 = 32 and row 4 = 20, the strip crossed at the third figure only."""
    init = make_card(1, upper={("II", 2): 12, ("III", 2): 2}, shuffle=False)
    shot = make_card(35, upper={("III", 3): 5}, lower={("IV", 7): 32, ("IV", 4): 20}, impulse=35,
                     burst={3: 2, 5: 3, 10: 5}, hit_stack=("chest", "belly", "left_leg", "right_leg"), standard=2,
                     prone=(False,) * 4, toggle=False,
                     unintended=(False, False, True, False, False, False, False, False, False, False))
    return [init, shot, init, init]


def test_the_stacked_deck_file_is_the_one_the_test_writes(tmp_path: Path) -> None:
    fresh = write_deck(tmp_path / "deck.json", sorry_boys_cards())
    assert json.loads((DATA / "sorry_boys_deck.json").read_text()) == json.loads(fresh.read_text())


def test_sorry_boys_through_the_cli() -> None:
    """Chuk's blast MMG, 10 rounds at TN 5: 5 hit the klackon (left leg bumped to the belly, 3 bumps of damage:
    7d10 = 32, 4 wounds on a size-7 klackon), 5 miss; Funkhauser and Hemsler are listed first and second but
    their figures are not crossed; the klackon right behind Johan, third, is hit in the belly."""
    code, out, err = cli("run", str(DATA / "sorry_boys.yaml"), "--json")
    assert code == 0, err
    events = [json.loads(x) for x in out.splitlines()]
    attack = next(e for e in events if e["type"] == "attack")
    assert (attack["card"], attack["tn"], attack["result"], attack["hit"]) == (35, 5, 5, True)
    assert attack["rounds_hit"] == 5 and attack["bump_pool"] == 4 and "R-6.11" in attack["rules"]
    assert attack["unintended"] == ["Funkhauser", "Hemsler", "K-2", "K-3", "K-4", "K-5", "K-6", "K-7", "K-8",
                                    "K-9"]  # nearest first, ten at most: K-10 is left off
    first = attack["hits"][0]
    assert (first["location"], first["damage"], first["wounds"], first["ct"]) == ("belly", 32, 4, 4)
    strays = [e for e in events if e["type"] == "unintended_hit"]
    assert len(strays) == 1
    s = strays[0]
    assert (s["actor"], s["target"], s["candidate"], s["friend"], s["card"]) == ("Chuk", "K-2", 3, False, 35)
    assert (s["location"], s["damage"], s["wounds"], s["ct"]) == ("belly", 20, 2, 6)
    assert "R-6.11" in s["rules"] and "R-4.10" in s["rules"]
    code, text, _ = cli("run", str(DATA / "sorry_boys.yaml"))
    assert "on the line of fire: Funkhauser, Hemsler, K-2" in text
    assert "a round from Chuk that missed strikes K-2 (candidate 3 on card 35" in text


def test_a_friend_is_struck_and_the_option_turns_it_off(tmp_path: Path) -> None:
    """The same burst with Funkhauser's figure crossed: a friend is hit ("Sorry, boys"); with the option off no
    one is listed and no stray round strikes."""
    cards = sorry_boys_cards()
    cards[1] = dataclasses.replace(cards[1], unintended=(True, False, True) + (False,) * 7)
    write_deck(tmp_path / "sorry_boys_deck.json", cards)
    text = (DATA / "sorry_boys.yaml").read_text()
    (tmp_path / "on.yaml").write_text(text)
    (tmp_path / "off.yaml").write_text(text.replace("{concussion_saves: false}",
                                                     "{concussion_saves: false, unintended_targets: false}"))
    code, out, err = cli("run", str(tmp_path / "on.yaml"), "--json")
    assert code == 0, err
    strays = [json.loads(x) for x in out.splitlines() if '"unintended_hit"' in x]
    assert [(s["target"], s["friend"], s["location"]) for s in strays] == [("Funkhauser", True, "belly"),
                                                                          ("K-2", False, "chest")]
    code, out, err = cli("run", str(tmp_path / "off.yaml"), "--json")
    assert code == 0, err
    assert '"unintended' not in out and "R-6.11" not in out


def test_the_example_checks_and_a_bad_option_value_is_named(tmp_path: Path) -> None:
    code, _, err = cli("check", str(DATA / "sorry_boys.yaml"))
    assert code == 0, err
    (tmp_path / "sorry_boys_deck.json").write_text((DATA / "sorry_boys_deck.json").read_text())
    bad = tmp_path / "bad.yaml"
    bad.write_text((DATA / "sorry_boys.yaml").read_text().replace("{concussion_saves: false}",
                                                                 "{unintended_targets: maybe}"))
    code, _, err = cli("run", str(bad))
    assert code == 2 and "options.unintended_targets" in err and "Traceback" not in err


# ------------------------------------------------------------------------------------------ the goldens
@pytest.mark.parametrize(("scenario", "ai", "seed"), [("crossroads_patrol", "hold", 1), ("rubble_run", "hold", 2)])
def test_the_option_is_the_only_change_in_the_goldens(scenario: str, ai: str, seed: int) -> None:
    """Played with the option off and on, a re-recorded log agrees event for event up to the first attack that
    lists candidates on the line of fire (docs/results/golden-unintended.txt has every changed log)."""
    path = SCENARIOS_DIR / f"{scenario}.yaml"
    on = gzip.decompress(golden_file(path, ai, seed).read_bytes()).decode("utf-8").splitlines()
    assert on == play(path, ai, seed).splitlines()
    off = play(path, ai, seed, {"unintended_targets": False}).splitlines()
    first = next(i for i, (a, b) in enumerate(zip(on, off, strict=False)) if a != b)
    changed = json.loads(on[first])
    assert changed["type"] == "attack" and "R-6.11" in changed["rules"] and changed["unintended"]
    assert all('"unintended' not in line for line in off)
    assert load_scenario(path).spec.options.unintended_targets is True  # type: ignore[attr-defined]


@pytest.mark.parametrize("randomizer", ["cards", "dice"])
def test_played_battles_strike_listed_figures_once_per_shot(randomizer: str) -> None:
    """Whole battles (rubble_run, hold on both sides, seeds 1, 2, 5 and 22: since fair13's Jackal-3 step, 22 is
    the one with strays under cards and 5 under dice): after every attack its stray rounds strike only figures it
    listed, each at most once, top of the strip first, never more than the rounds that missed."""
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle

    path = SCENARIOS_DIR / "rubble_run.yaml"
    strays_seen = 0
    for seed in (1, 2, 5, 22):
        sc = load_scenario(path).with_options(randomizer=randomizer)
        with Battle(sc, seed=seed, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
            b.run()
            events = list(b.log)
        for i, e in enumerate(events):
            if e.type != "attack":
                continue
            after = []
            for f in events[i + 1:]:
                if f.type != "unintended_hit":
                    break
                after.append(f)
            strays_seen += len(after)
            listed = e.unintended or []
            assert all(s.target in listed and s.actor == e.actor for s in after)
            assert len({s.target for s in after}) == len(after)
            assert [s.candidate for s in after] == sorted(s.candidate for s in after)
            fired = e.burst or 1
            assert len(after) <= (fired if not e.hit else fired - e.rounds_hit)
    assert strays_seen >= 1 or randomizer == "dice"
