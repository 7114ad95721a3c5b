"""Where the last FI merges meet (review8c, issue 14): a launched grenade (R-6.10) is a shot's attack check like any
other, so it takes the mind's annoyed −4 (R-8.4) and may take a story chip (R-8.5) as a shot or a throw does."""

from __future__ import annotations

from pathlib import Path

from skirmish.ecs.fi_mind import Mind
from skirmish.rules.actions import EndTurn, Launch
from tests.conftest import make_card
from tests.test_fi_chips import INIT, SAVE, events, of, scenario
from tests.test_fi_crossings import _battle, _next_turn, _unit


def test_an_annoyed_launch_is_at_minus_four(tmp_path: Path) -> None:
    """R-8.4: annoyed is −4 to the next action taken, a launch as much as a shot or a throw."""
    b = _battle(tmp_path, _unit("Me", 0, 1, extra=", weapons: [grenade_launcher], skills: {'shooting:launcher': 2}"),
                _unit("Foe", 7, 1), options="initiative: phases")
    me = b.sys.w.entity("Me")
    b.sys.w.get(me, Mind).annoyed = True
    _next_turn(b, "Me")
    assert b.sys.mind_mods(me)
    b.submit(Launch("Me", (6, 1)))
    b.submit(EndTurn("Me"))
    ev = next(e for e in b.log if e.type == "launch")
    assert any("annoyed" in m["reason"] and m["value"] == -4 for m in ev.modifiers), ev.modifiers
    b.close()


def test_a_chip_on_a_launch(tmp_path: Path) -> None:
    """A launcher's attack check (Shooting:launcher 2: III-2) reads 2; the white chip takes the entry above (9)."""
    p = scenario(tmp_path, [INIT, make_card(34, upper={("III", 2): 2, ("III", 3): 9}), SAVE, INIT, INIT, INIT],
                 t_orders="[]")
    text = p.read_text(encoding="utf-8")
    text = text.replace('"shoot Xenes Thug mode=prepared burst=3 spends=none"', '"launch Xenes 4,1"')
    text = text.replace('skills: {"shooting:rifle": 4}, weapons: [blast_carbine]',
                        'skills: {"shooting:launcher": 2}, weapons: [grenade_launcher]')
    p.write_text(text, encoding="utf-8")
    evs = events(p)
    launch = of(evs, "launch")[0]
    chips = of(evs, "chip")
    assert chips, [e["type"] for e in evs]
    assert (chips[0]["use"], chips[0]["before"], chips[0]["after"]) == ("up", 2, 9)
    assert evs.index(chips[0]) < evs.index(launch) and launch["read"] == 9 and launch["card"] == 34


def test_covering_fire_ends_when_the_firers_next_card_comes_up(tmp_path: Path) -> None:
    """R-6.12: covering fire is a continuing action until the firer's next turn begins; under card hands that is its
    next card (R-5.8), as an active defence ends there, not a cover held for the rest of the battle."""
    from skirmish.ecs.components import Status
    from skirmish.rules.actions import parse_action

    b = _battle(tmp_path, _unit("Me", 0, 1, extra=", weapons: [blast_carbine], skills: {'shooting:rifle': 2}"),
                _unit("Foe", 7, 0))
    me = b.sys.w.entity("Me")
    _next_turn(b, "Me")
    assert b.check(parse_action("cover Me 5,1")) is None
    b.submit(parse_action("cover Me 5,1"))
    assert b.sys.w.peek(me, Status).covering is not None
    b.submit(EndTurn("Me"))
    first = b.ctx.round
    _next_turn(b, "Me")  # its next card
    assert b.ctx.round == first
    assert b.sys.w.peek(me, Status).covering is None
    b.close()
