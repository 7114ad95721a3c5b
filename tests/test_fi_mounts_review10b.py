"""Mounts, a second read of revmount10's waits and RL blocks (R-6.1 mounts, R-5.7; issue 14, mount10b): each test
but the first failed before its fix.

- a figure put out of action by a waiter before it steps onto its mount stays where it was, on foot (covered only
  now);
- getting on or off is a step: it ends the exposure of having fired (R-6.1), as a move's first step does, so a waiter
  that sees the cell stepped to only round a corner does not fire at it (nor does the view show it firing);
- a mount or dismount step cuts no wall's corner (R-5.6, as a move's diagonal step), in legality and in the RL mask;
- a refusal of `mount` says nothing of a mount the side does not know: not who rides it, not where it stands."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Health, Status
from skirmish.rules.actions import parse_action
from tests.test_fi_mounts import battle, events, unit

CORNER = ["....................", "....................", "..........#.........", "..........#.........",
          "..........#........."]


def wait(b, name: str, trigger: str) -> None:  # type: ignore[no-untyped-def]
    b.world.get(b.world.entity(name), Status).waiting = trigger


def test_a_figure_put_out_of_action_before_it_mounts_stays_on_foot_where_it_was(tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from skirmish.ecs.systems.fi import movement, triggers

    b = battle(tmp_path, "[{name: B, kind: bike, at: [2, 1]}]", [unit("Me", 1, 1)], [unit("Foe", 12, 1)])
    wait(b, "Foe", "enemy_moves")
    real = triggers.reflex_contest

    def waiter_wins(sys, waiter, other, **kw):  # type: ignore[no-untyped-def]
        out = real(sys, waiter, other, **kw)
        return {**out, "waiter_first": True, "simultaneous": False}

    def fells(self, eid: int, target: int) -> None:  # the waiter's shot puts the mounter out of action
        self.w.get(eid, Status).waiting = None
        self.w.get(target, Health).incapacitated = True

    monkeypatch.setattr(triggers, "reflex_contest", waiter_wins)
    monkeypatch.setattr(movement.FiMovement, "_trigger_shot", fells)
    b.submit(parse_action("mount Me B"))
    me = b.world.entity("Me")
    assert b.world.cell(me) == (1, 1) and not b.world.peek(me, Status).mounted
    assert b.world.mounts["B"].rider is None and b.world.mounts["B"].cell == (2, 1)
    assert not events(b, "mount")


@pytest.mark.parametrize("action", ["mount Me B", "dismount Me to=9,2"])
def test_a_mount_step_ends_the_exposure_of_firing(tmp_path: Path, action: str) -> None:
    # Foe at 11,1 sees 9,2 only round the wall's corner at 10,2 (a lean) and 9,3 not at all.
    if action.startswith("mount"):
        b = battle(tmp_path, "[{name: B, kind: bike, at: [9, 2]}]", [unit("Me", 9, 3)], [unit("Foe", 11, 1)],
                   rows=CORNER)
    else:
        b = battle(tmp_path, "[{name: B, kind: bike, at: [9, 3]}]", [unit("Me", 9, 3, ", mounted: true")],
                   [unit("Foe", 11, 1)], rows=CORNER)
    me = b.world.get(b.world.entity("Me"), Status)
    me.firing, me.known_to = True, frozenset({"Blue"})  # it fired (from where Foe does not see it); unknown to Red
    wait(b, "Foe", "enemy_in_view")
    b.submit(parse_action(action))
    assert b.world.cell(b.world.entity("Me")) == (9, 2)
    assert not events(b, "trigger") and not events(b, "attack")
    assert not me.firing
    assert b.world.peek(b.world.entity("Foe"), Status).waiting == "enemy_in_view"


PAST_A_WALL = ["....................", "....................", "..#.................", "....................",
               "...................."]


@pytest.mark.parametrize(("blue", "mounts", "action"), [
    ([unit("Me", 1, 2)], "[{name: B, kind: bike, at: [2, 3]}]", "mount Me B"),  # 1,2 -> 2,3 past the wall at 2,2
    ([unit("Me", 3, 2, ", mounted: true")], "[{name: B, kind: bike, at: [3, 2]}]", "dismount Me to=2,3"),  # 3,2 -> 2,3
])
def test_no_mount_step_cuts_a_walls_corner(tmp_path: Path, blue: list[str], mounts: str, action: str) -> None:
    """A diagonal step whose side cell is a wall (2,2) cuts its corner (R-5.6: `geo.can_step`)."""
    b = battle(tmp_path, mounts, blue, [unit("Foe", 18, 4)], rows=PAST_A_WALL)
    act = parse_action(action)
    assert act not in b.legal_actions("Me").mounts
    with pytest.raises(IllegalAction, match=r"R-5\.6"):
        b.submit(act)


def test_a_mount_refusal_says_nothing_of_a_mount_the_side_does_not_know(tmp_path: Path) -> None:
    rows = ["..........#.........", "..........#.........", "..........#.........", "..........#.........",
            "..........#........."]
    b = battle(tmp_path, "[{name: H, kind: horse, at: [15, 2]}]", [unit("Me", 1, 1)],
               [unit("Foe", 18, 0), unit("Lancer", 15, 2, ", mounted: true")], rows=rows)
    assert [m.name for m in b.observe("Blue").mounts] == []
    with pytest.raises(IllegalAction) as exc:
        b.submit(parse_action("mount Me H"))
    text = str(exc.value)
    assert "R-6.1" in text and "Lancer" not in text and "15,2" not in text
