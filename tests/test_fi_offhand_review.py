"""Second reading of arms10 (issue 14): an off-hand launcher (R-6.10, R-6.12) and target speed. A terrified unit
holding two weapons lists no off-hand fire and the battle refuses it naming R-8.4 (000 "Terrified"); an off-hand
launch is kept by a battle record and replays; the board offers covering fire (K) beside the off hand's launcher,
and L steps from the launcher in hand to the other hand's and off (stacked decks, SDL_VIDEODRIVER=dummy)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ecs.fi_mind import Mind
from skirmish.rules.actions import Launch, Shoot, parse_action
from tests.conftest import battle_at, cli

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"


def _me(weapons: str) -> str:
    return (f"[{{name: Me, at: [0, 1], weapons: {weapons}, two_weapons: true, traits: {TRAITS}, "
            f"skills: {{'shooting:launcher': 4, 'shooting:pistol': 3}}}}]")


@pytest.mark.parametrize("weapons", ["[slug_pistol, grenade_launcher]", "[slug_pistol, slug_pistol]"])
def test_a_terrified_two_gun_unit_lists_no_off_hand_fire(tmp_path: Path, weapons: str) -> None:
    """000 "Terrified" (R-8.4): it may only move away. Its legal list holds no off-hand shot or launch (before
    arms10's fix `mind_legal` left `offhand` and `off_launches` as they were), and the battle refuses both naming
    R-8.4: listed == accepted, every cell and shot."""
    b = battle_at(tmp_path, ["..........", "...#......", ".........."], _me(weapons),
                  f"[{{name: A, at: [6, 0], traits: {TRAITS}}}]", declare="slow")
    before = b.legal_actions("Me")
    assert before.off_launches or list(before.offhand)  # the hand fires while the unit is calm
    b.world.get(b.world.entity("Me"), Mind).terrified = "A"
    legal = b.legal_actions("Me")
    assert not legal.off_launches and not list(legal.offhand)
    for x in range(10):
        for y in range(3):
            a = Launch("Me", (x, y), hand="off")
            assert legal.allows(a) == (b.check(a) is None), a
    for a in [Launch("Me", (6, 0), hand="off"), Shoot("Me", "A", mode="snap", hand="off"), *before.offhand]:
        refused = b.check(a)
        assert refused is not None and "R-8.4: terrified of A" in str(refused), (a, refused)
        assert not legal.allows(a)
    b.close()


def test_an_off_hand_launch_is_recorded_and_replays(tmp_path: Path) -> None:
    """A battle record keeps `launch … hand=off` (the order's text) and `skirmish replay` plays it back to the same
    result and log, the off hand's launch in it."""
    from tests.test_fi_offhand_launch import _scenario

    path = _scenario(tmp_path, None, ["declare Gunner slow", "launch Gunner 8,1 hand=off",
                                      "shoot Gunner Near mode=prepared", "end Gunner"])
    rec = tmp_path / "rec.json"
    code, out, err = cli("run", str(path), "--record", str(rec))
    assert code == 0, err
    assert "launch Gunner at=8,1 hand=off" in rec.read_text()
    code, again, err = cli("replay", str(rec))
    assert code == 0, err
    assert again == out and "Gunner fires the off hand's grenade launcher at 8,1" in again
    assert parse_action("launch Gunner at=8,1 hand=off") == Launch("Gunner", (8, 1), hand="off")


def _board(tmp_path: Path, weapons: str) -> tuple[object, object]:
    from skirmish.ui.app import App
    from tests.test_board_fi_ranged import _scenario
    from tests.ui_helpers import acting

    me = f"weapons: {weapons}, two_weapons: true, skills: {{'shooting:launcher': 4, 'shooting:pistol': 2}}"
    app = App(scenario=_scenario(tmp_path, me), controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    return app, acting(app)


def test_the_board_offers_covering_fire_beside_the_off_hands_launcher(tmp_path: Path, monkeypatch:
                                                                      pytest.MonkeyPatch) -> None:
    """A pistol in hand and a launcher in the other: the pistol lays covering fire (K, R-6.12) as it did before
    the launcher came into the other hand; the buttons offer both (arms10's button list dropped K's)."""
    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(tmp_path / "config"))
    _, screen = _board(tmp_path, "[slug_pistol, grenade_launcher]")
    req = screen.session.human_request()  # type: ignore[attr-defined]
    labels = [b.label for b in screen.commands.act_buttons(req)]  # type: ignore[attr-defined]
    assert labels == ["L launch (off hand)", "K cover"], labels
    assert screen.session.battle.check(  # type: ignore[attr-defined]
        parse_action("cover Me 7,1")) is None  # the battle takes the pistol's covering fire


def test_l_steps_from_the_launcher_in_hand_to_the_other_hands_and_off(tmp_path: Path, monkeypatch:
                                                                      pytest.MonkeyPatch) -> None:
    """Two launchers: L launches with the one in hand, L again with the other hand's (`hand=off`), L again leaves;
    each mode's odds are the battle's for its hand (the off hand's lower: −4 and −2 more)."""
    import pygame

    from tests.ui_helpers import cell_px, frames, hover, press

    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(tmp_path / "config"))
    app, screen = _board(tmp_path, "[grenade_launcher, grenade_launcher]")
    modes = screen.commands.ranged  # type: ignore[attr-defined]
    battle = screen.session.battle  # type: ignore[attr-defined]
    aim = (7, 1)
    hover(cell_px(screen, aim))  # type: ignore[arg-type]
    seen = []
    for _ in range(3):
        press(pygame.K_l)
        frames(app, 2)  # type: ignore[arg-type]
        seen.append((modes.mode, modes.hand))
        if modes.mode == "launch":
            odds = battle.odds(Launch("Me", aim, hand=modes.hand))
            assert modes.lines()[1][0] == f"7,1: {odds.label()}"
    assert seen == [("launch", ""), ("launch", "off"), (None, "")]
    main, off = battle.odds(Launch("Me", aim)), battle.odds(Launch("Me", aim, hand="off"))
    assert off.on_target < main.on_target
