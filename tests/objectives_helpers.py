"""Hand-built battles for the objectives and triggers tests (issue 15): scripted sides on an ASCII map, played
to the end by their orders, with a hook to knock a unit out between decisions (standing in for a shot)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from skirmish.ai.controllers import ScriptedController
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.ecs.components import Health

T = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}"
ROWS = "['..........', '..........', '..........', '..........']"


def unit(name: str, x: int, y: int) -> str:
    return f"{{name: {name}, at: [{x}, {y}], traits: {T}}}"


def scenario(*, blue: list[str], red: list[str], blue_orders: list[str] = (), red_orders: list[str] = (),  # type: ignore[assignment]
             blue_obj: str = "", red_obj: str = "", extra: str = "", rounds: int = 4, rows: str = ROWS) -> str:
    def side(name: str, units: list[str], orders: list[str], obj: str) -> str:
        objectives = f"    objectives: {obj}\n" if obj else ""
        return (f"  - name: {name}\n    controller: scripted\n    orders: {list(orders)!r}\n{objectives}"
                f"    units: [{', '.join(units)}]\n")
    return (f"name: t\nseed: 3\nmap: {{ascii: {rows}}}\nvictory: {{max_rounds: {rounds}}}\n{extra}sides:\n"
            + side("Blue", blue, blue_orders, blue_obj) + side("Red", red, red_orders, red_obj))


def battle(text: str, path: Path) -> Battle:
    sc = parse_scenario(text, str(path / "t.yaml"), base=path)
    return Battle(sc, controllers={s.name: ScriptedController(list(s.orders)) for s in sc.spec.sides})  # type: ignore[misc]


def knock_out(b: Battle, name: str) -> None:
    """The unit goes down (as a shot would leave it); the objectives see it after the next accepted action."""
    b.world.get(b.world.entity(name), Health).dead = True


def play(b: Battle, at: Callable[[Battle], None] | None = None, when: tuple[int, str] | None = None) -> Battle:
    """Play to the end; `at(b)` runs once, before the first decision of `when` = (round, unit)."""
    done = False
    while b.pending is not None:
        if at is not None and not done and when is not None and (b.ctx.round, b.pending.unit) == when:
            at(b)
            done = True
        b.step()
    return b


def events(b: Battle, etype: str) -> list[dict[str, Any]]:
    return [e.to_json() for e in b.log.events if e.type == etype]


def result(b: Battle) -> dict[str, Any]:
    return events(b, "result")[-1]
