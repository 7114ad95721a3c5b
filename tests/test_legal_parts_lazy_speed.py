"""A turn's tacpack splits and melee list are worked out when first read (`LazyActions`, speed session 9): the
same actions as working them out at once, read, compared, hashed, copied and pickled as that tuple; `allows`
asks only the list of the action's kind, so a decision that asks about a wait works out neither; and a first
read after the request was answered raises instead of listing another state's actions."""

from __future__ import annotations

import copy
import pickle

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.core.legal import LazyActions, LegalActions
from skirmish.ecs.systems.fi import legality
from skirmish.rules.actions import Aim, Reload, SetTacpack, Wait


def test_lazy_actions_read_as_their_tuple() -> None:
    calls = []
    acts = (Wait("a"), Reload("a"), SetTacpack("a", "kinetic", 2))

    def work() -> tuple[Wait | Reload | SetTacpack, ...]:
        calls.append(1)
        return acts

    lazy = LazyActions(work)
    assert not calls  # nothing worked out yet
    assert lazy == acts and acts == lazy and hash(lazy) == hash(acts) and lazy[1] == Reload("a")
    assert Wait("a") in lazy and Wait("b") not in lazy and len(lazy) == 3 and list(lazy) == list(acts)
    assert lazy + (Aim("a", "x"),) == (*acts, Aim("a", "x")) and (Aim("a", "x"),) + lazy == (Aim("a", "x"), *acts)  # noqa: RUF005
    assert copy.deepcopy(lazy) == acts and type(copy.copy(lazy)) is tuple
    assert pickle.loads(pickle.dumps(lazy)) == acts
    assert len(calls) == 1  # worked out once, on the first read
    assert not LazyActions(lambda: ()) and LazyActions(lambda: ()) != acts


def test_allows_asks_only_the_list_of_the_actions_kind() -> None:
    asked: list[str] = []

    def part(name: str, acts: tuple) -> LazyActions:  # type: ignore[type-arg]
        return LazyActions(lambda: asked.append(name) or acts)  # type: ignore[func-returns-value]

    split = SetTacpack("a", "kinetic", 1)
    legal = LegalActions("a", "act", waits=(Wait("a"),), screens=part("screens", (split,)),
                         melee=part("melee", ()))
    assert legal.allows(Wait("a")) and not legal.allows(Aim("a", "b")) and not asked
    assert legal.allows(split) and asked == ["screens"]
    assert not legal.allows(SetTacpack("a", "none", 0)) and asked == ["screens"]


@pytest.mark.parametrize("path", ["depot_breach.yaml", "fi/boarding_action.yaml", "fi/klackon_ambush.yaml"])
def test_lazy_parts_list_what_was_legal_when_listed(path: str) -> None:
    sc = load_scenario(SCENARIOS_DIR / path)
    seen = {"screens": 0, "melee": 0, "unread": 0}
    with Battle(sc, seed=2, controllers={s.name: make_ai("utility", sc.spec.ruleset) for s in sc.spec.sides}) as b:
        for _ in range(400):
            req = b.pending
            if req is None:
                break
            if req.kind == "act":
                eid = b.world.entity(req.unit)
                legal = b.legal_actions(req.unit)
                melee, screens = legal.melee, legal.screens
                if isinstance(melee, LazyActions):  # worked out now, as the list did before
                    assert melee._acts is None
                    want = b.sys.melee_actions(eid, legal.walk | legal.run)
                    assert tuple(melee) == want and all(legal.allows(a) for a in want)
                    seen["melee"] += bool(want)
                if isinstance(screens, LazyActions):
                    want_s = legality._screens(b.sys, eid, req.unit)
                    assert tuple(screens) == want_s and all(legal.allows(a) for a in want_s)
                    seen["screens"] += bool(want_s)
                unread = b.legal_actions(req.unit).melee  # another list of the same request, never read
                b.step()
                if isinstance(unread, LazyActions) and b.pending is not req:
                    with pytest.raises(RuntimeError, match="after its request was answered"):
                        tuple(unread)
                    seen["unread"] += 1
                continue
            b.step()
    assert seen["unread"] >= 5
    if path != "depot_breach.yaml":
        assert seen["melee"] >= 1  # the boarding scenarios bring blades to the fight
    else:
        assert seen["screens"] >= 1  # tacpacks
