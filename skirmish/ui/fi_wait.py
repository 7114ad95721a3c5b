"""The board's wait menu (W, R-5.7): every trigger the rules list for the unit whose turn it is, in words, and
`enemy_enters` for the cell under the pointer when W was pressed (hover a doorway, press W). Everything here asks
the Battle (`legal_actions`: STYLE 13); what the engine lists is what is offered. One wait only (a ruleset with a
single trigger): no menu, W submits it."""

from __future__ import annotations

from typing import Any

from skirmish.rules.actions import Action, Wait
from skirmish.rulesets import fi
from skirmish.ui.fi_melee import Line


def describe(a: Action) -> str:
    """A wait's menu line: its trigger in words (the trigger text when the rules do not know it)."""
    if not isinstance(a, Wait):
        return a.verb
    try:
        return "wait " + fi.waiting.parse(a.trigger).describe()
    except fi.waiting.TriggerError:
        return f"wait: {a.trigger}"


def wait_lines(battle: Any, unit: str, hover: tuple[int, int] | None, named: set[str] | None = None) -> list[Line]:
    """The menu's lines: the listed waits — the plain triggers and `later`, then `acts:` / `preempt:` of the units
    `named` (the one under the pointer, the enemy last clicked, the one selected; None: every unit) — with
    `enemy_enters` for the hovered cell second when the rules take it."""
    legal = battle.legal_actions(unit)
    lines = [Line(w, note=w.trigger) for w in legal.waits
             if ":" not in w.trigger or named is None or w.trigger.partition(":")[2] in named]
    if hover is not None and tuple(hover) in legal.wait_cells:
        cell = Wait(unit, f"enemy_enters:{hover[0]},{hover[1]}")
        lines.insert(min(1, len(lines)), Line(cell, note=cell.trigger))
    return lines


def lines_for(screen: Any, unit: str) -> list[Line]:
    """The wait menu's lines on a battle screen: the hovered cell, and the units under the pointer, last clicked
    (`target`) and selected named."""
    under = [u.name for u in screen.view_now().units if u.cell == screen.hover]
    named = {n for n in (*under, screen.target, screen.selected) if n}
    return wait_lines(screen.session.battle, unit, screen.hover, named)


def open_menu(screen: Any, make_menu: Any) -> Any:
    """W on a battle screen: the wait menu (`make_menu(unit, unit, own=True, page="waits")`), or None after
    submitting the only wait listed (or with no turn of the person's to wait in)."""
    req = screen.session.human_request()
    if req is None or req.kind != screen.commands.turn_kind:
        return None
    if len(lines_for(screen, req.unit)) <= 1:
        screen._act(lambda u: Wait(u))
        return None
    return make_menu(req.unit, req.unit, own=True, page="waits")
