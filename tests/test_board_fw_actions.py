"""Future*World's panel beyond the shot (issue 13, items 5 and 6), driven by posted events under SDL's dummy driver
with screenshots checked: a force-sword strike declared and resolved (R-9.4, R-9.6), a grenade aimed with its blast
radius drawn and everyone it may catch given their exact chance (R-9.10), a seeker launched with its acquisition
shown (R-9.9, R-9.10), an EW program set within the generator and the effectors (R-9.8, R-9.9), a weapon switched,
two different actions at DEX and half DEX (R-9.3), and refusals shown in words naming the rule. The odds shown are
the battle's own (`Battle.odds`: one odds path)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pygame
import pytest

from skirmish import record
from skirmish.content.scenario import Scenario, parse_scenario
from skirmish.rulesets.fw import FwIntent
from skirmish.rulesets.fw_preview import half_dex, percent
from skirmish.ui.anim import BlastAnim, ThrowArc
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.frame import TOP_H
from skirmish.ui.fw.draw import card_lines
from skirmish.ui.fw.marks import BLAST_EDGE, SENSOR_COLOUR
from skirmish.ui.fw.panel import FwCommands
from skirmish.ui.replay import ReplayScreen
from skirmish.ui.replay_session import ReplaySession
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import ACCENT, BAD, TEXT
from tests.test_board_fw import _button
from tests.ui_helpers import cell_px, click, frames, near, press

CHARS = "{STR: 13, CON: 12, SIZ: 11, INT: 12, POW: 13, DEX: 15}"
RED = [f"{{name: Rook, at: [8, 3], characteristics: {CHARS}, skills: {{rifle: 45}}, armour: [tinsel],"
       " weapons: [heavy_rifle], tacpack: {generator: 4, screen: kinetic, screen_points: 2}}",
       f"{{name: Moss, at: [10, 3], characteristics: {CHARS}, skills: {{rifle: 45}}, armour: [tinsel],"
       " weapons: [heavy_rifle], tacpack: {generator: 4, screen: kinetic, screen_points: 2}}"]


OPEN = ["." * 14] * 6


def _scenario(tmp_path: Path, blue: list[str], red: list[str] = RED, rows: list[str] = OPEN) -> Scenario:
    text = f"""
name: Fw panel
ruleset: fw
seed: 3
map:
  cell_m: 2.0
  ascii: {rows!r}
victory: {{eliminate: true, max_rounds: 3}}
sides:
  - name: Blue
    controller: ai
    ai: hold
    units: [{", ".join(blue)}]
  - name: Red
    controller: ai
    ai: hold
    units: [{", ".join(red)}]
"""
    path = tmp_path / "fw_panel.yaml"
    path.write_text(text, encoding="utf-8")
    return parse_scenario(text, str(path), base=tmp_path)


pytestmark = pytest.mark.usefixtures("isolated_config")


def _play(tmp_path: Path, blue: str, red: list[str] = RED, rows: list[str] = OPEN) -> tuple[App, BattleScreen,
                                                                                            FwCommands]:
    app = App(scenario=_scenario(tmp_path, [blue], red, rows), controls={"Blue": "human", "Red": "ai"}, size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen) and isinstance(screen.commands, FwCommands)
    frames(app, 4)
    req = screen.session.human_request()
    assert req is not None and (req.kind, req.unit) == ("intent", "Ash")
    return app, screen, screen.commands


def _until(app: App, screen: BattleScreen, done: Any, limit: int = 3000) -> None:
    """Play on (staying put in each movement segment, a person's other figures declaring their usual split) until
    `done()`, for at most `limit` frames."""
    for _ in range(limit):
        if done():
            return
        req = screen.session.human_request()
        if req is not None and req.kind == "move" and not screen.anim.busy:
            press(pygame.K_e, "e")
        elif req is not None and req.kind == "intent" and not screen.anim.busy:
            press(pygame.K_RETURN)
        frames(app, 1)
    raise AssertionError("the battle never got there")


def _events(screen: BattleScreen, kind: str, actor: str = "Ash") -> list[Any]:
    return [e for e in screen.session.battle.log.events if e.type == kind and e.actor == actor]


def test_a_force_sword_strike_declared_and_resolved(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [7, 3], characteristics: {CHARS}, skills: {{force_sword: 50}}, armour: [chitin],"
           " weapons: [force_sword], tacpack: {generator: 6, screen: kinetic, screen_points: 3}}")
    app, screen, panel = _play(tmp_path, ash)
    press(pygame.K_3, "3")  # melee
    frames(app, 1)
    click(cell_px(screen, (8, 3)))  # Rook, beside Ash
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.act, d.target, d.weapon, d.shots, d.total) == ("melee", "Rook", "force_sword", 3, 6)
    p = screen.session.battle.odds(FwIntent("Ash", "melee", "Rook"))
    (line,) = panel.odds_lines(d)
    assert p.text in line and "in reach" in line and line.startswith("melee Rook (force sword, 50%")
    shot = pygame.image.load(str(app.screenshot(tmp_path / "strike.png")))
    assert near(shot.get_at(_button(panel, "melee"))[:3], (150, 120, 40), 200)  # drawn (the chosen button)
    press(pygame.K_RETURN)
    frames(app, 2)
    assert screen.session.battle.history[0] == FwIntent("Ash", "melee", "Rook", screen="kinetic", points=3)
    _until(app, screen, lambda: _events(screen, "fw_attack"))
    (strike,) = _events(screen, "fw_attack")
    assert (strike.act, strike.target, strike.weapon, strike.chance) == ("melee", "Rook", "force_sword", p.chance)
    assert "R-9.4" in strike.rules
    app.close()


def test_a_grenade_aimed_with_its_blast_drawn_and_whom_it_may_catch(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{throw: 50, rifle: 50}}, armour: [chitin],"
           " weapons: [heavy_rifle, fragmentation_grenade], tacpack: {generator: 6, screen: kinetic, screen_points: 4}}")
    app, screen, panel = _play(tmp_path, ash)
    press(pygame.K_4, "4")  # throw: the weapon switches to the grenade
    frames(app, 1)
    click(cell_px(screen, (8, 3)))
    frames(app, 3)
    d = panel.current()
    assert d is not None and (d.act, d.target, d.weapon) == ("throw", "Rook", "fragmentation_grenade")
    p = screen.session.battle.odds(FwIntent("Ash", "throw", "Rook"))
    pv = panel.preview(d)
    assert pv.blast is not None and pv.blast.aim == (8, 3) and pv.blast.radius_m == 6
    caught = {name: chance for name, _, chance in pv.blast.caught}
    assert caught["Rook"] == percent(p.odds.hit)  # the board's catch of the target is the battle's, exactly
    assert "Moss" in caught and caught["Moss"] != caught["Rook"]  # 4 m beside it: caught on a hit, or a scatter
    assert caught["Ash"] == "2.1%"  # 12 m back: a miss scattering 7-10 m back towards the thrower reaches it
    (line,) = panel.odds_lines(d)
    assert p.text in line and "12 m of 15 m" in line
    assert f"may also catch Ash (yours) {caught['Ash']}, Moss {caught['Moss']}" in line
    shot = pygame.image.load(str(app.screenshot(tmp_path / "blast.png")))
    x, y = cell_px(screen, (8, 3))
    r = round(6 / 2 * screen.board.cam.tile)  # 6 m at 2 m a cell
    edge = [shot.get_at((x + dx, y))[:3] for dx in range(r - 2, r + 2)]
    assert any(near(px, BLAST_EDGE, 60) for px in edge), edge  # the radius, drawn round the aim point
    inside = shot.get_at((x, y - r // 2 - 4))[:3]
    assert inside[0] > inside[2] + 30  # the blast's orange wash
    press(pygame.K_RETURN)
    frames(app, 2)
    _until(app, screen, lambda: _events(screen, "fw_throw"))
    (throw,) = _events(screen, "fw_throw")
    assert throw.target == "Rook" and throw.weapon == "fragmentation_grenade" and throw.radius_m == 6
    ash_now = screen.session.view().unit("Ash")
    assert ("weapons: heavy rifle, fragmentation grenade x0", TEXT) in card_lines(ash_now, ash_now.ext)  # used up
    _until(app, screen, lambda: screen.session.view().round == 2 and panel.current() is not None)
    d = panel.current()
    assert d is not None and d.unit == "Ash" and "fragmentation grenade x0" in [b.label for b in panel.controls]
    press(pygame.K_4, "4")  # its next declaration: no grenade left to throw
    frames(app, 1)
    assert panel.refused == "R-9.10: Ash has no grenade left"
    # the record replays the throw with its arc and blast
    path = tmp_path / "throw.json"
    screen.session.save(path)
    app.close()
    rec = record.load(path)
    app = App(replay=ReplaySession(rec), settings=Settings(speed=8.0, reasons=False), size=(1280, 800))
    replay = app.screen
    assert isinstance(replay, ReplayScreen) and isinstance(replay.commands, FwCommands)
    cells = {"Ash": (2, 3), "Rook": (8, 3), "Moss": (10, 3)}
    groups = replay.commands.on_event(throw, cells)
    assert isinstance(groups[0][0], ThrowArc) and isinstance(groups[1][0], BlastAnim)
    assert groups[1][0].radius == 3.0
    press(pygame.K_SPACE, " ")  # pause, then step action by action until the throw plays
    frames(app, 1)
    played: set[str] = set()
    for _ in range(200):
        press(pygame.K_PERIOD, ".")
        for _ in range(40):
            frames(app, 1)
            played |= {type(a).__name__ for a in replay.anim.current}
            if "BlastAnim" in played:
                break
        if "BlastAnim" in played:
            break
    assert {"ThrowArc", "BlastAnim"} <= played
    shot = pygame.image.load(str(app.screenshot(tmp_path / "replayed.png")))
    lx, ly = replay.board.cam.centre((throw.lands[0] / 2 - 0.5, throw.lands[1] / 2 - 0.5))
    px = shot.get_at((lx, ly + TOP_H))[:3]
    assert px[0] > px[2] + 40  # the blast's orange where the grenade came down
    app.close()


def test_a_seeker_launched_with_its_acquisition_shown(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{rifle: 50}}, armour: [chitin],"
           " weapons: [heavy_rifle, seeker_missile],"
           " tacpack: {generator: 6, screen: kinetic, screen_points: 4, effectors: 3, sensors: 3}}")
    red = [RED[0].replace("generator: 4, screen", "generator: 4, effectors: 4, screen")]
    app, screen, panel = _play(tmp_path, ash, red)
    click(_button(panel, "launch"))
    frames(app, 1)
    click(cell_px(screen, (8, 3)))
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.act, d.target, d.weapon) == ("launch", "Rook", "seeker_missile")
    p = screen.session.battle.odds(FwIntent("Ash", "launch", "Rook"))
    (line,) = panel.odds_lines(d)
    assert p.chance == 100 and "acquires 100.0%" in line  # Rook's CM is hidden: taken as 0
    assert "should it run CM 1: 90%, CM 2: 80%, CM 3: 70%, CM 4: 60%" in line  # its 4 effectors
    click(_button(panel, "-", 0))  # a screen point off, one DCCM point on, beamed at Rook
    frames(app, 1)
    click(_button(panel, "+", 2))
    frames(app, 1)
    d = panel.current()
    assert d is not None and (d.dccm, d.dccm_at) == (1, None)
    assert "DCCM 1: click an enemy in sight to beam it at (R-9.9)" in panel.odds_lines(d)
    press(pygame.K_RETURN)  # not yet: the battle's own check refuses, and the panel says why in red
    frames(app, 2)
    assert panel.current() == d and panel.refused == "R-9.9: DCCM is beamed at one target in line of sight"
    shot = pygame.image.load(str(app.screenshot(tmp_path / "seeker.png")))
    assert sum(1 for x in range(panel.rect.x, panel.rect.right, 2) for y in range(panel.rect.bottom - 36,
               panel.rect.bottom, 2) if near(shot.get_at((x, y))[:3], BAD, 60)) > 10
    click(cell_px(screen, (8, 3)))  # Rook again: now where the DCCM is beamed too
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.target, d.dccm, d.dccm_at) == ("Rook", 1, "Rook")
    assert "should it run CM 2: 90%, CM 3: 80%, CM 4: 70%" in panel.odds_lines(d)[0]
    press(pygame.K_RETURN)
    frames(app, 2)
    _until(app, screen, lambda: _events(screen, "fw_attack"))
    (launch,) = _events(screen, "fw_attack")
    assert (launch.act, launch.weapon, launch.target) == ("launch", "seeker_missile", "Rook")
    app.close()


def test_ew_programs_are_set_within_the_generator_and_the_effectors(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{rifle: 50}}, armour: [chitin],"
           " weapons: [heavy_rifle], tacpack: {generator: 6, screen: kinetic, screen_points: 4, effectors: 2,"
           " sensors: 2}}")
    app, screen, panel = _play(tmp_path, ash)
    cm_plus, sensors_plus = 1, 3  # the tacpack row's "+" buttons: screen, CM, DCCM, sensors, jump
    for _ in range(2):
        click(_button(panel, "+", cm_plus))
        frames(app, 1)
    d = panel.current()
    assert d is not None and (d.cm, d.total) == (2, 6) and panel.refused is None
    click(_button(panel, "+", cm_plus))  # a seventh point: refused by the generator, the split kept
    frames(app, 1)
    assert panel.current() == d and panel.refused == "R-9.8: 7 points allocated, the generator gives 6"
    click(_button(panel, "-", 0))  # a screen point off: a third CM point is within G but not the effectors
    frames(app, 1)
    click(_button(panel, "+", cm_plus))
    frames(app, 1)
    d = panel.current()
    assert d is not None and d.cm == 2 and panel.refused == "R-9.9: CM and DCCM need 3 effector points, the computer has 2"
    assert any(line.startswith("CM 2 (R-9.9)") for line in panel.odds_lines(d))
    click(_button(panel, "+", sensors_plus))  # a second program beside CM: only in a whole round of programming
    frames(app, 1)
    assert panel.current() == d and panel.refused is not None and panel.refused.startswith("R-9.9: one EW program")
    press(pygame.K_8, "8")  # program: the whole round
    frames(app, 1)
    click(_button(panel, "+", sensors_plus))
    frames(app, 1)
    d = panel.current()
    assert d is not None and (d.act, d.cm, d.sensors, d.total) == ("program", 2, 1, 6) and panel.refused is None
    assert "sensors 1 (R-9.9): register enemies out of sight within 15 m" in "\n".join(panel.odds_lines(d))
    shot = pygame.image.load(str(app.screenshot(tmp_path / "sensors.png")))
    x, y = cell_px(screen, (2, 3))
    r = round(15 / 2 * screen.board.cam.tile)
    ring = [shot.get_at((x + r + dx, y + dy))[:3] for dx in range(-3, 4) for dy in range(-3, 4)]
    assert any(near(px, SENSOR_COLOUR, 60) for px in ring)  # the sensors' reach, round Ash
    press(pygame.K_RETURN)
    frames(app, 2)
    (declared,) = _events(screen, "fw_declare")
    assert (declared.split["cm"], declared.split["sensors"]) == (2, 1) and declared.acts[0]["act"] == "program"
    app.close()


def test_a_weapon_switched_and_two_actions_at_dex_and_half_dex(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [6, 3], characteristics: {CHARS}, skills: {{rifle: 50, first_aid: 60}},"
           " armour: [chitin], weapons: [heavy_rifle, blaster_light_rifle], medikit: true,"
           " tacpack: {generator: 8, screen: kinetic, screen_points: 4}}")
    friend = (f"{{name: Bo, at: [5, 3], characteristics: {CHARS}, skills: {{rifle: 40}}, weapons: [heavy_rifle],"
              " tacpack: {generator: 2}}")
    app = App(scenario=_scenario(tmp_path, [ash, friend]), controls={"Blue": "human", "Red": "ai"}, size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen) and isinstance(screen.commands, FwCommands)
    panel = screen.commands
    frames(app, 4)
    press(pygame.K_1, "1")
    frames(app, 1)
    click(cell_px(screen, (8, 3)))
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.weapon, d.shots) == ("heavy_rifle", 0)
    press(pygame.K_w, "w")  # the blaster: its 4 points a shot on top of a 4-point screen, 8 of G 8
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.weapon, d.shots, d.total) == ("blaster_light_rifle", 4, 8)
    p = screen.session.battle.odds(FwIntent("Ash", "shoot", "Rook", weapon="blaster_light_rifle"))
    assert p.text in panel.odds_lines(d)[0] and "light blaster rifle" in panel.odds_lines(d)[0]
    shot = pygame.image.load(str(app.screenshot(tmp_path / "weapon.png")))
    chosen = [b for b in panel.controls if b.label == "light blaster rifle"]
    assert chosen and chosen[0].active and not next(b for b in panel.controls if b.label == "heavy rifle").active
    bx, by = chosen[0].rect.center
    assert shot.get_at((chosen[0].rect.x + 3, by))[:3] != shot.get_at((bx, chosen[0].rect.bottom + 3))[:3]
    press(pygame.K_6, "6", pygame.KMOD_SHIFT)  # First Aid as the second action, at half DEX
    frames(app, 1)
    click(cell_px(screen, (5, 3)))
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.then, d.then_target) == ("aid", "Bo")
    press(pygame.K_4, "4", pygame.KMOD_SHIFT)  # a throw as well: never two attacks, and no grenade
    frames(app, 1)
    assert panel.current() == d and panel.refused == "R-9.3: a figure never takes the same action twice in a round (attack)"
    press(pygame.K_RETURN)
    frames(app, 2)
    intent = screen.session.battle.history[0]
    assert isinstance(intent, FwIntent) and intent.weapon == "blaster_light_rifle" and intent.then == "aid"
    _until(app, screen, lambda: _events(screen, "fw_attack") and _events(screen, "fw_aid"))
    (declared,), (attack,), (aid,) = (_events(screen, k) for k in ("fw_declare", "fw_attack", "fw_aid"))
    assert [(a["act"], a["dex"]) for a in declared.acts] == [("shoot", 15), ("aid", half_dex(15))] == \
        [("shoot", 15), ("aid", 8)]
    assert attack.weapon == "blaster_light_rifle" and attack.dex == 15
    events = screen.session.battle.log.events
    assert events.index(attack) < events.index(aid)  # the second action at half DEX, after every DEX-15 one
    path = tmp_path / "two.json"  # the record keeps the weapon and the second action: it replays to the same state
    screen.session.save(path)
    with record.resume(record.load(path)) as again:
        assert again.history == screen.session.battle.history and again.state_hash() == screen.session.battle.state_hash()
    app.close()


def test_refused_actions_say_why_in_words_naming_the_rule(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{rifle: 50}}, armour: [chitin],"
           " weapons: [heavy_rifle, concussion_grenade], tacpack: {generator: 6, screen: kinetic, screen_points: 4}}")
    app, _screen, panel = _play(tmp_path, ash)
    expected = [
        (pygame.K_2, "R-9.5: a heavy rifle fires single shots only (bursts: autoguns and support guns)"),
        (pygame.K_3, "R-9.4: no weapon to melee with"),
        (pygame.K_5, "R-9.10: Ash has no missile left"),
        (pygame.K_6, "R-9.7: First Aid needs a medikit"),
    ]
    for key, why in expected:
        press(key, "")
        frames(app, 1)
        d = panel.current()
        assert d is not None and d.act == "none" and panel.refused == why, (key, panel.refused)
    press(pygame.K_1, "1")  # shoot, then pick the grenade to shoot with
    frames(app, 1)
    click(_button(panel, "concussion grenade x1"))
    frames(app, 2)
    d = panel.current()
    assert d is not None and d.weapon == "heavy_rifle"
    assert panel.refused == "R-9.4: a concussion grenade (grenade) cannot shoot (it takes projectile, laser, blaster)"
    shot = pygame.image.load(str(app.screenshot(tmp_path / "refused.png")))
    rect = panel.rect
    reds = sum(1 for x in range(rect.x, rect.right, 2) for y in range(rect.bottom - 40, rect.bottom, 2)
               if near(shot.get_at((x, y))[:3], BAD, 60))
    assert reds > 10
    app.close()


def test_the_blast_chance_is_exact(tmp_path: Path) -> None:
    """The board's catch chance for a figure beside the aim point, against a count of every landing by hand."""
    from skirmish.rulesets.fw_preview import catches

    got = dict(catches(50, (2, 3), (8, 3), [("Moss", (10, 3))], 6.0, 2.0))
    # a hit (50 of 100 faces) lands on the aim point, 4 m from Moss: caught; a miss scatters
    # 1-10 m in one of 12 directions from it: caught where it lands within 6 m of Moss
    import math

    aim, moss, thrower = (17.0, 7.0), (21.0, 7.0), (5.0, 7.0)
    caught = 0
    for clock in range(1, 13):
        theta = math.radians(30 * (clock % 12))
        for m in range(1, 11):
            x, y = aim[0] + m * math.cos(theta), aim[1] + m * math.sin(theta)
            caught += math.hypot(x - moss[0], y - moss[1]) <= 6 + 1e-9
    assert thrower[1] == aim[1]  # thrown along +x: clock 12 points on along the throw
    assert got["Moss"] == Fraction(50, 100) + Fraction(50, 100) * Fraction(caught, 120)


def test_a_guided_missile_needs_its_target_in_sight_and_shows_its_odds_when_it_is(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{support: 40}}, armour: [chitin],"
           " weapons: [guided_missile], tacpack: {generator: 4, screen: kinetic, screen_points: 4}}")
    app, screen, panel = _play(tmp_path, ash)
    press(pygame.K_5, "5")
    frames(app, 1)
    click(cell_px(screen, (8, 3)))
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.act, d.target, d.weapon) == ("launch", "Rook", "guided_missile")
    p = screen.session.battle.odds(FwIntent("Ash", "launch", "Rook"))
    (line,) = panel.odds_lines(d)
    assert p.chance == 40 and line.startswith("launch Rook (guided missile, 40%") and p.text in line
    press(pygame.K_RETURN)
    frames(app, 2)
    _until(app, screen, lambda: _events(screen, "fw_attack"))
    (launch,) = _events(screen, "fw_attack")
    assert (launch.act, launch.weapon, launch.chance) == ("launch", "guided_missile", 40)
    app.close()
    # behind a wall Rook is placed (a ghost where it was last seen) but not in sight: the launch is refused
    walled = tmp_path / "walled"
    walled.mkdir()
    app, screen, panel = _play(walled, ash, RED[:1], ["....." + "#" + "." * 8] * 5 + ["." * 14])
    rook = screen.view_now().find("Rook")
    assert rook is not None and rook.ghost
    press(pygame.K_5, "5")
    frames(app, 1)
    click(cell_px(screen, (8, 3)))
    frames(app, 2)
    d = panel.current()
    assert d is not None and d.target == "Rook"
    why = "R-9.10: the guided missile needs its target in line of sight"
    assert panel.odds_lines(d) == [f"launch Rook: {why}"]
    press(pygame.K_RETURN)
    frames(app, 2)
    assert panel.current() == d and panel.refused == why and screen.session.battle.history == []
    shot = pygame.image.load(str(app.screenshot(tmp_path / "unseen.png")))
    rect = panel.rect
    reds = sum(1 for x in range(rect.x, rect.right, 2) for y in range(rect.bottom - 40, rect.bottom, 2)
               if near(shot.get_at((x, y))[:3], BAD, 60))
    assert reds > 20  # the odds line and the refusal, in red
    app.close()


def test_hot_seat_each_side_previews_with_what_it_knows(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{throw: 50, rifle: 50}}, armour: [chitin],"
           " weapons: [heavy_rifle, fragmentation_grenade], tacpack: {generator: 6, screen: kinetic, screen_points: 4}}")
    app = App(scenario=_scenario(tmp_path, [ash], RED[:1]), controls={"Blue": "human", "Red": "human"},
              size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen) and isinstance(screen.commands, FwCommands)
    panel = screen.commands
    frames(app, 4)
    press(pygame.K_4, "4")
    frames(app, 1)
    click(cell_px(screen, (8, 3)))
    frames(app, 2)
    press(pygame.K_k, "k")  # kinetic -> diffusion: Ash's declared screen differs from its usual one
    frames(app, 2)
    d = panel.current()
    assert d is not None and d.screen == "diffusion" and panel.preview(d).blast is not None
    press(pygame.K_RETURN)
    frames(app, 3)
    assert screen.handover == "Red"
    press(pygame.K_SPACE)
    frames(app, 3)
    d = panel.current()
    assert d is not None and d.unit == "Rook" and screen.viewer == "Red"
    press(pygame.K_1, "1")
    frames(app, 1)
    click(cell_px(screen, (2, 3)))
    frames(app, 2)
    d = panel.current()
    assert d is not None and d.target == "Ash"
    pv = panel.preview(d)
    assert pv.blast is None and "its screen kinetic 4" in pv.lines[0]  # Ash's usual split: Red cannot see its declaration
    shot = pygame.image.load(str(app.screenshot(tmp_path / "red.png")))
    x, y = cell_px(screen, (8, 3))
    r = round(6 / 2 * screen.board.cam.tile)
    assert not any(near(shot.get_at((x + dx, y))[:3], BLAST_EDGE, 30) for dx in range(r - 2, r + 2))  # Blue's blast
    app.close()


def test_the_help_overlay_lists_fw_keys_and_marks(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{rifle: 50}},"
           " weapons: [heavy_rifle], tacpack: {generator: 4}}")
    app, screen, panel = _play(tmp_path, ash)
    before = pygame.image.load(str(app.screenshot(tmp_path / "before.png")))
    press(pygame.K_h, "h")
    frames(app, 2)
    assert screen.show_help
    (_, keys), (legend, marks), (_, words) = panel.sections(panel.help([]))
    assert any("W or the weapon row: the weapon" in line and "1-9 first action" in line for line in keys)
    assert legend == "On the board (Future*World)" and any("grenade's blast" in line for line in marks)
    assert any(line.startswith("G  the tacpack") for line in words)
    after = pygame.image.load(str(app.screenshot(tmp_path / "help.png")))
    br = screen.board_rect()
    changed = sum(1 for x in range(br.x + 120, br.right - 120, 4)
                  if before.get_at((x, br.centery))[:3] != after.get_at((x, br.centery))[:3])
    assert changed > 50  # the box is drawn over the board
    app.close()


def test_dccm_beamed_at_another_enemy_than_the_target_and_the_panel_folded(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{rifle: 50}}, armour: [chitin],"
           " weapons: [heavy_rifle], tacpack: {generator: 6, screen: kinetic, screen_points: 4, effectors: 2,"
           " sensors: 2}}")
    app, screen, panel = _play(tmp_path, ash)
    press(pygame.K_1, "1")
    frames(app, 1)
    click(cell_px(screen, (8, 3)))  # shoot Rook
    frames(app, 1)
    click(_button(panel, "+", 2))  # one DCCM point
    frames(app, 1)
    press(pygame.K_d, "d")  # the next enemy clicked is where DCCM is beamed
    frames(app, 1)
    click(cell_px(screen, (10, 3)))
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.target, d.dccm, d.dccm_at) == ("Rook", 1, "Moss")
    assert "DCCM 1 at Moss (R-9.9): cancels up to 1 of its CM points for your seekers" in panel.odds_lines(d)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "beam.png")))
    (x0, y0), (x1, y1) = cell_px(screen, (2, 3)), cell_px(screen, (10, 3))
    beam = [shot.get_at((x0 + (x1 - x0) * k // 40, y0 + (y1 - y0) * k // 40 + dy))[:3]
            for k in range(8, 32) for dy in (-2, -1, 0, 1, 2)]
    assert sum(near(px, SENSOR_COLOUR, 60) for px in beam) > 5  # the cyan beam towards Moss
    full = panel.rect.h
    press(pygame.K_p, "p")  # fold: the words only, the keys still work
    frames(app, 2)
    assert panel.folded and panel.rect.h <= full - 4 * 26 and not panel.controls  # the rows of buttons gone
    press(pygame.K_k, "k")
    frames(app, 1)
    d = panel.current()
    assert d is not None and d.screen == "diffusion"
    press(pygame.K_RETURN)
    frames(app, 2)
    (declared,) = _events(screen, "fw_declare")
    assert declared.split["dccm"] == 1 and declared.acts[0]["target"] == "Rook"
    intent = screen.session.battle.history[0]
    assert isinstance(intent, FwIntent) and intent.dccm_at == "Moss"
    app.close()


def test_an_attack_without_a_target_is_previewed_at_the_enemy_under_the_mouse(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{throw: 50}}, armour: [chitin],"
           " weapons: [fragmentation_grenade], tacpack: {generator: 6, screen: kinetic, screen_points: 4}}")
    app, screen, panel = _play(tmp_path, ash)
    press(pygame.K_4, "4")
    frames(app, 1)
    for cell in ((10, 3), (6, 0)):
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=cell_px(screen, cell), rel=(1, 1), buttons=(0, 0, 0)))
        frames(app, 2)
        d = panel.current()
        assert d is not None and d.target is None  # hovering picks nothing
        pv = panel.preview(d)
        if cell == (10, 3):  # Moss under the mouse: its odds and the blast round it, marked as a hover
            p = screen.session.battle.odds(FwIntent("Ash", "throw", "Moss"))
            assert pv.lines[0].startswith("hover: throw Moss") and p.text in pv.lines[0]
            assert pv.blast is not None and pv.blast.aim == (10, 3)
            shot = pygame.image.load(str(app.screenshot(tmp_path / "hover.png")))
            x, y = cell_px(screen, cell)
            r = round(6 / 2 * screen.board.cam.tile)
            assert any(near(shot.get_at((x - r + dx, y))[:3], BLAST_EDGE, 60) for dx in range(-2, 3))
        else:  # empty ground: back to asking for a target
            assert pv.lines == ("throw (fragmentation grenade): click an enemy on the map",) and pv.blast is None
    app.close()


def test_a_close_quarters_battle_watched_to_the_end_shows_its_strikes(tmp_path: Path) -> None:
    from skirmish.content.scenario import load_scenario
    from skirmish.ui.screens import ResultsScreen
    from tests.conftest import ROOT

    sc = load_scenario(str(ROOT / "scenarios" / "fw" / "hab_module.yaml"))
    app = App(scenario=sc, controls={s.name: "ai" for s in sc.spec.sides}, settings=Settings(speed=8.0),
              size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen) and isinstance(screen.commands, FwCommands)
    strikes: list[Any] = []  # the animation groups of each strike as it played
    seen = 0
    for _ in range(20000):
        app.tick(1 / 60)
        events = screen.session.battle.log.events
        for e in events[seen:]:
            if e.type == "fw_attack" and e.act == "melee":
                strikes.append(screen.commands.on_event(e, {u.name: u.cell for u in screen.session.view().units}))
        seen = len(events)
        if isinstance(app.screen, ResultsScreen):
            break
    assert isinstance(app.screen, ResultsScreen) and strikes
    for groups in strikes:  # hand to hand: a flash on the target, no tracer
        assert [type(a).__name__ for g in groups for a in g] == ["Flash"]
    app.close()


def test_the_damage_distribution_is_drawn_as_the_battle_gives_it(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{autogun: 50}}, armour: [chitin],"
           " weapons: [light_assault], tacpack: {generator: 6, screen: kinetic, screen_points: 4}}")
    app, screen, panel = _play(tmp_path, ash)
    press(pygame.K_2, "2")  # a burst: 1d3 hits, so a long tail
    frames(app, 1)
    click(cell_px(screen, (8, 3)))
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.act, d.target) == ("burst", "Rook")
    p = screen.session.battle.odds(FwIntent("Ash", "burst", "Rook"))
    ((label, pmf, hp),) = panel.preview(d).damage
    assert label == "burst Rook" and dict(pmf) == p.odds.damage and hp == p.hp == 12
    shot = pygame.image.load(str(app.screenshot(tmp_path / "chart.png")))
    bars = dict(panel.chart)
    assert sorted(bars) == sorted(k for k, q in p.odds.damage.items() if k > 0 and q > 0)
    likeliest = max((k for k in bars), key=lambda k: p.odds.damage[k])
    assert bars[likeliest].h == max(b.h for b in bars.values())  # scaled to the likeliest amount
    for k in (likeliest, max(bars)):
        bar = bars[k]
        px = shot.get_at((bar.centerx, bar.bottom - 1))[:3]
        assert near(px, BAD if k >= hp else ACCENT, 60), (k, px)  # red where it drops Rook
    app.close()
