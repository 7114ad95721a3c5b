"""A reserve card (R-5.8) waiting for a turn's trigger (R-5.7; issue 14 item 2): `acts:NAME`, `preempt:NAME` and
`later` under card hands, replayed Chuk- and Harry-style with a stacked deck and scripted orders through
`skirmish run --json` (C-4). The reserve card is played as a whole turn where the trigger puts it: before the named
unit's card (a won contest), after it (a lost one, a pre-emption that does not win outright, a friend), or after
any later card (`later`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skirmish.rules.deck import Card
from tests.test_fi_hand_examples import TRAITS, at, events, of, reads, scenario

HARRY = (f"{{name: Harry, at: [0, 1], traits: {TRAITS.format(dex='III-2', ref='III-2')}, "
         f"skills: {{'shooting:rifle': 3}}, weapons: [blast_rifle]}}")
BUG = f"{{name: Bug, at: [9, 1], traits: {TRAITS.format(dex='III-2', ref='IV-1')}}}"
SHOT = reads("III", 3, 7)


def _play(tmp: Path, capsys: pytest.CaptureFixture[str], trigger: str, contest: list[Card],
          harry_after: list[str]) -> list[dict[str, Any]]:
    """Harry (Reflex 4: two cards, 12 and 10) passes on 12 and reserves 10 waiting `trigger`; the Bug (1 card, 9)
    does nothing on it. `contest`: the two Reflex cards of a trigger's contest (Harry's, then the Bug's)."""
    cards = [reads("III", 2, 4), at(12, 1), at(10, 3), reads("IV", 1, 2), at(9, 2), *contest, SHOT,
             *[reads("II", 2, "CF")] * 3]
    path = scenario(tmp, cards, HARRY, BUG, ["hand Harry keep=12,10", "end Harry", f"wait Harry {trigger}",
                                            *harry_after])
    path.write_text(path.read_text(encoding="utf-8").replace(
        "    units: [{name: Bug", '    orders: ["hand Bug keep=9", "end Bug"]\n    units: [{name: Bug'),
        encoding="utf-8")
    evs = events(path, capsys)
    assert not of(evs, "refused"), of(evs, "refused")
    return evs


def _order(evs: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Who did what from step 9 on: Harry's reserve spent and shot, the Bug's card."""
    out = []
    for e in evs:
        if e["type"] == "step" and e["actor"] == "Bug":
            out.append(("Bug", "card 9"))
        elif e["type"] == "reserve" and e["what"] == "spent":
            out.append(("Harry", "reserve"))
        elif e["type"] == "attack":
            out.append((e["actor"], "shoots"))
    return out


def test_acts_a_won_contest_plays_the_reserve_before_the_named_card(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    evs = _play(tmp_path, capsys, "acts:Bug", [reads("III", 2, 4), reads("IV", 1, 1)], ["shoot Harry Bug mode=snap", "end Harry"])
    trig = of(evs, "trigger", "Harry")[0]
    assert (trig["trigger"], trig["waiter_result"], trig["mover_result"], trig["waiter_first"]) == ("acts:Bug", 4, 1,
                                                                                                  True)
    assert [(e["what"], e["card"]) for e in of(evs, "reserve", "Harry")] == [("reserved", "10.3"), ("spent", "10.3")]
    assert _order(evs) == [("Harry", "reserve"), ("Harry", "shoots"), ("Bug", "card 9")]


def test_preempt_at_minus_two_loses_and_the_reserve_goes_after(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The same 4 against the Bug's 3 wins an `acts:` contest; pre-empting reads it 4 − 2 = 2: Harry goes after."""
    evs = _play(tmp_path, capsys, "preempt:Bug", [reads("III", 2, 4), reads("IV", 1, 3)],
                ["shoot Harry Bug mode=snap", "end Harry"])
    trig = of(evs, "trigger", "Harry")[0]
    assert (trig["waiter_result"], trig["mover_result"], trig["waiter_first"]) == (2, 3, False)
    assert _order(evs) == [("Bug", "card 9"), ("Harry", "reserve"), ("Harry", "shoots")]


def test_later_plays_the_reserve_after_a_later_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    evs = _play(tmp_path, capsys, "later", [], ["shoot Harry Bug mode=snap", "end Harry"])
    assert not of(evs, "trigger")  # no contest: a delay without a circumstance
    assert _order(evs) == [("Bug", "card 9"), ("Harry", "reserve"), ("Harry", "shoots")]


def test_a_reserve_turn_may_pass_and_the_card_is_spent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The wait is accepted under card hands (it was refused naming R-5.8); its turn played and passed spends the
    reserve all the same: nothing is held into the next round."""
    evs = _play(tmp_path, capsys, "acts:Bug", [reads("III", 2, 4), reads("IV", 1, 1)], ["end Harry"])
    assert of(evs, "wait", "Harry")[0]["trigger"] == "acts:Bug" and not of(evs, "attack")
    assert [e["what"] for e in of(evs, "reserve", "Harry")] == ["reserved", "spent"]
