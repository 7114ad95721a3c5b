"""Mounts in the editor (issue 14's leftover; Future Imperfect `mounts:`, RULES-NOTES "Mounts"): drawn on the map
as the board draws them (skirmish/ui/fi_mount.py: a riderless mount whole in its kind's colour, a ridden one as a
saddle band under its rider), the selected one outlined; the Mounts tab's lines (name, kind picked from the rules'
table, cell, walk); and the M tool's click and drag (the document's moves are in pieces.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pygame

from skirmish.rulesets.fi import MOUNT_KINDS as KIND_TABLE
from skirmish.ui.editor.fields import Field
from skirmish.ui.editor.objective_form import FormField
from skirmish.ui.editor.pieces import MOUNT_KINDS
from skirmish.ui.fi_mount import draw_mounts
from skirmish.ui.widgets import ACCENT

if TYPE_CHECKING:
    from skirmish.ui.editor.state import EditorState

NOT_FI = "mounts are Future Imperfect's (`mounts:`); a Future*World side has grav cars (its `cars` line)"
NOTE = ("M mounts: click an empty cell to place one (K chooses its kind: horse, beast, bike), under a unit: it "
        "rides it; drag one to move it (its rider with it), click one to select it; Delete removes the selected one "
        "· click a name to rename it, a kind to pick another")


def mount_fields(mounts: list[dict[str, Any]], first: int | None) -> list[Field]:
    """Four lines a mount (its name, typed to rename it; its kind, picked; its cell; its walk), the selected
    one first."""
    order = sorted(range(len(mounts)), key=lambda i: (i != first, i))
    out: list[Field] = []
    for i in order:
        out += [Field("mount", ("@mount", i), True),
                FormField("  kind", ("mounts", i, "kind"), True, kind="choice", options=MOUNT_KINDS,
                          tip="horse walks 16 m, riding beast 12 m, bike 30 m an action (run: twice)"),
                Field("  at", ("mounts", i, "at")), Field("  move_m", ("mounts", i, "move_m"))]
    return out


def walk_hint(mount: Any) -> str:
    """What an unset `move_m` line shows: the kind's walk."""
    kind = KIND_TABLE.get(str(mount.get("kind"))) if isinstance(mount, dict) else None
    return f"the {kind.title}'s {kind.move_m} m" if kind is not None else "the kind's walk"


class _Cam:
    """The editor's view as the board's camera that fi_mount draws with: a cell's centre and the tile size."""

    def __init__(self, ed: EditorState) -> None:
        self.view = ed.view
        self.tile = ed.view.tile

    def centre(self, cell: tuple[float, float]) -> tuple[int, int]:
        r = self.view.rect_of((int(cell[0]), int(cell[1])))
        return r.center


def draw_editor_mounts(surf: pygame.Surface, ed: EditorState) -> None:
    """The scenario's mounts as the board draws them (before the units: a rider's disc stands on its saddle);
    the selected one outlined."""
    shown, at = [], {}
    for i, m in enumerate(ed.doc.mounts()):
        cell = m.get("at")
        if not (isinstance(cell, list) and len(cell) == 2 and all(isinstance(c, int) for c in cell)):
            continue
        rider = ed.doc.rider_of(i)
        name = None if rider is None else f"rider{i}"
        if name is not None:
            at[name] = (cell[0], cell[1])
        shown.append(SimpleNamespace(name=m.get("name"), kind=str(m.get("kind")), rider=name, cell=tuple(cell)))
        if i == ed.mount:
            pygame.draw.rect(surf, ACCENT, ed.view.rect_of((cell[0], cell[1])), 2)
    draw_mounts(surf, _Cam(ed), SimpleNamespace(mounts=shown), at)  # type: ignore[arg-type]


def mount_press(ed: EditorState, cell: tuple[int, int]) -> None:
    """The M tool's click on the map: a mount there is selected (and may be dragged), an empty cell gets a new
    mount of the kind chosen with K (else the selected one's, else the last one's, else a horse)."""
    if str(ed.doc.data.get("ruleset", "fi")) != "fi":
        ed.toast(NOT_FI)
        return
    here = ed.doc.mount_at(cell)
    if here is not None:
        ed.mount, ed.tab, ed.editing = here, "mounts", None
        ed.drag = {"kind": "mount", "mount": here, "start": cell}
        return
    ed.mount = ed.doc.place_mount(cell, ed.next_mount_kind())
    ed.tab, ed.editing = "mounts", None
    rider = ed.doc.rider_of(ed.mount)
    name = ed.doc.mounts()[ed.mount]["name"]
    ed.toast(f"placed {name}" + (f": {ed.doc.get(('sides', rider[0], 'units', rider[1], 'name'))} rides it"
                                 if rider is not None else ""))


def mount_release(ed: EditorState, drag: dict[str, Any], cell: tuple[int, int]) -> None:
    """The end of a mount's drag: moved there, or why not."""
    if ed.doc.inside(cell) and cell != drag["start"]:
        why = ed.doc.move_mount(drag["mount"], cell)
        if why is not None:
            ed.toast(why)
