"""A Future Imperfect rider's dismount under fog (docs/RULES-NOTES.md "Moving into an unseen enemy", R-6.1 mounts,
R-5.6): the cells a rider may step down to are those its side knows free, so an unseen enemy's cell is listed and
accepted like any other (a refusal told where it stood, as fog10 fixed for Future*World's riders); the step into
it is not made: the rider stays mounted where it is (`bumped`), the action spent, and the enemy is found."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ecs.components import Status
from skirmish.rules.actions import parse_action
from tests.test_fi_mounts import battle, events, unit
from tests.test_fog_defence_steps import hide


def test_a_dismount_onto_an_unseen_enemy_is_listed_bumps_and_stays_mounted(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    b = battle(tmp_path, "[{name: H, kind: horse, at: [1, 1]}]", [unit("Me", 1, 1, ", mounted: true")],
               [unit("Lurk", 2, 1), unit("Foe", 19, 4)])
    hide(b, monkeypatch, "Lurk", "Blue")
    assert b.check(parse_action("dismount Me to=2,1")) is None  # not "taken": Blue cannot know Lurk is there
    assert (2, 1) in {a.to for a in b.legal_actions("Me").mounts if a.verb == "dismount"}
    b.submit(parse_action("dismount Me to=2,1"))
    assert not events(b, "dismount")
    (bump,) = events(b, "bumped")
    assert (bump.actor, bump.at, bump.blocked, bump.target) == ("Me", [1, 1], [2, 1], "Lurk")  # type: ignore[attr-defined]
    me = b.world.entity("Me")
    assert b.world.cell(me) == (1, 1) and b.world.peek(me, Status).mounted
    assert b.view().mounts[0].rider == "Me" and b.view().unit("Lurk").cell == (2, 1)
    assert "Blue" in b.world.peek(b.world.entity("Lurk"), Status).known_to


def test_a_known_enemy_still_refuses_the_dismount(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: H, kind: horse, at: [1, 1]}]", [unit("Me", 1, 1, ", mounted: true")],
               [unit("Lurk", 2, 1), unit("Foe", 19, 4)])
    r = b.check(parse_action("dismount Me to=2,1"))
    assert r is not None and "cell 2,1 is taken" in r.reason
