"""Mounting sets off waits (R-5.7; issue 14, revmount10; docs/RULES-NOTES.md "Mounts"): getting on or off a mount is a
one-cell step, so it sets off the move triggers of the enemies that see it as a step of a move does (`enemy_moves`
where the figure stood, then `enemy_in_view`, `enemy_in_range` and `enemy_enters:X,Y` at the cell it steps to): a
Reflex contest, the winner fires first, a beaten waiter after. An unseen figure sets off nothing. The turn triggers
(`acts:NAME`, `preempt:NAME`) come up with the turn, whatever the turn does: a turn spent mounting sets them off."""

from __future__ import annotations

from pathlib import Path

from skirmish.ecs.components import Status
from skirmish.rules.actions import Declare, Wait, parse_action
from tests.test_fi_mounts import ascii_scenario, battle, events, unit


def wait(b, name: str, trigger: str) -> None:  # type: ignore[no-untyped-def]
    b.world.get(b.world.entity(name), Status).waiting = trigger  # (as `wait NAME trigger` leaves it)


def test_an_enemy_waiting_for_a_move_fires_as_the_figure_mounts(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: B, kind: bike, at: [2, 1]}]", [unit("Me", 1, 1)], [unit("Foe", 12, 1)])
    wait(b, "Foe", "enemy_moves")
    b.submit(parse_action("mount Me B"))
    trig = events(b, "trigger")
    assert trig and trig[0].actor == "Foe" and trig[0].target == "Me"  # type: ignore[attr-defined]
    assert "enemy_moves" in str(trig[0].to_json())
    assert events(b, "attack") and events(b, "attack")[0].actor == "Foe"  # it fired (first or after)
    assert b.world.peek(b.world.entity("Foe"), Status).waiting is None


def test_a_dismount_into_the_watched_cell_sets_off_enemy_enters(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: B, kind: bike, at: [1, 1]}]", [unit("Me", 1, 1, ", mounted: true")],
               [unit("Foe", 12, 1)])
    wait(b, "Foe", "enemy_enters:2,2")
    b.submit(parse_action("dismount Me to=1,2"))  # not the watched cell: nothing
    assert not events(b, "trigger")
    b2 = battle(tmp_path, "[{name: B, kind: bike, at: [1, 1]}]", [unit("Me", 1, 1, ", mounted: true")],
                [unit("Foe", 12, 1)])
    wait(b2, "Foe", "enemy_enters:2,2")
    b2.submit(parse_action("dismount Me to=2,2"))
    assert [e.actor for e in events(b2, "trigger")] == ["Foe"]
    assert events(b2, "dismount") and events(b2, "attack")


def test_an_unseen_mounter_sets_off_nothing(tmp_path: Path) -> None:
    rows = ["....#...............", "....#...............", "....#...............", "....#...............",
            "....#..............."]
    b = battle(tmp_path, "[{name: B, kind: bike, at: [2, 1]}]", [unit("Me", 1, 1)], [unit("Foe", 12, 1)], rows=rows)
    wait(b, "Foe", "enemy_moves")
    b.submit(parse_action("mount Me B"))
    assert not events(b, "trigger") and not events(b, "attack")
    assert b.world.peek(b.world.entity("Foe"), Status).waiting == "enemy_moves"  # it waits on


def test_a_turn_spent_mounting_sets_off_acts_waits(tmp_path: Path) -> None:
    from skirmish.ai.controllers import ScriptedController
    from skirmish.battle import Battle
    from skirmish.content.scenario import parse_scenario

    text = ascii_scenario(["." * 20] * 5, "[" + unit("Me", 1, 1) + "]", "[" + unit("Foe", 12, 1) + "]",
                          max_rounds=3) + "mounts: [{name: B, kind: bike, at: [2, 1]}]\n"
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    b = Battle(sc, controllers={s.name: ScriptedController([]) for s in sc.spec.sides})  # type: ignore[arg-type]
    waited = mounted = False
    while b.pending is not None and not mounted:
        req = b.pending
        if req.kind == "declare":
            b.submit(Declare(req.unit, "normal"))
        elif req.unit == "Foe" and not waited:
            b.submit(Wait("Foe", "acts:Me"))
            waited = True
        elif req.unit == "Me" and waited:
            b.submit(parse_action("mount Me B"))
            mounted = True
        else:
            b.step()
    assert mounted
    trig = [e for e in events(b, "trigger") if e.actor == "Foe"]
    assert trig and trig[-1].target == "Me" and "acts:Me" in str(trig[-1].to_json())  # type: ignore[attr-defined]
