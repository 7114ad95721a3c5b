"""The editor's moves that reach beyond its state: the inspector's lines (shown, typed, set; a click on a
problem going to what it names), saving and Save As, test play, the menu and the help box."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from skirmish.content.errors import ContentError
from skirmish.fileio import OutputError
from skirmish.ui.editor.balance_panel import BalanceRun, next_battles
from skirmish.ui.editor.basics import shipped
from skirmish.ui.editor.dialog import PathDialog
from skirmish.ui.editor.fields import Field, choices, parse, show, unset_hint, with_item
from skirmish.ui.editor.mounts import walk_hint
from skirmish.ui.editor.objective_form import (
    CONDITIONS,
    EFFECTS,
    FormField,
    Refs,
    fit_objective,
    new_condition,
    new_effect,
    refs_of,
    which,
)
from skirmish.ui.editor.state import Editing, EditorState, user_dir
from skirmish.ui.screens.base import Push, Quit, Reset, Transition
from skirmish.ui.widgets import BAD, GOOD, TEXT


class EditorActions(EditorState):
    """The inspector, the files, test play."""

    # ------------------------------------------------------------------ the inspector
    def select_zone(self, name: str | None) -> None:
        """Select a zone: the zones tab shows it."""
        self.zone, self.editing = name, None
        if name is not None:
            self.tab = "zones"

    def add_zone(self, area: dict[str, Any]) -> None:
        """A new zone from the zone tools: selected, its name ready to be typed."""
        name = self.doc.add_zone(area)
        self.select_zone(name)
        self.toast(f"zone {name}: type its name in the zones tab (click it)")

    def finish_polygon(self) -> None:
        """Enter (or a click on the first vertex): the polygon drawn becomes a zone (3 vertices or more)."""
        pts, self.polygon = self.polygon, []
        if len(pts) < 3:
            self.toast("a polygon zone needs three corners or more")
            return
        self.add_zone({"polygon": [[x, y] for x, y in pts]})

    def value_of(self, f: Field) -> str:
        """A field's line as shown."""
        if isinstance(f, FormField):
            value = self.doc.get(f.keys)
            if f.kind == "toggle":  # left out: the model's default; a required key shows it is not set
                shown = f.default if value is None else value
                return "" if shown is None else "yes" if shown else "no"
            if f.kind == "action":
                return ""
            if f.apply in ("when", "effect"):
                return which(value, CONDITIONS if f.apply == "when" else EFFECTS)
        if f.keys[0] == "@zone":
            return str(f.keys[1])
        if f.keys[0] == "@mount":
            return str(self.doc.get(("mounts", f.keys[1], "name")) or "")
        if f.keys[0] == "@map":
            w, h = self.doc.size
            return {"map name": self.doc.map_name, "cell_m": f"{self.doc.cell_m:g}", "size": f"{w}x{h}"}[str(f.keys[1])]
        return show(self.doc.get(f.keys), f.text)

    def hint_of(self, f: Field) -> str:
        """What an unset line shows instead of its value."""
        if isinstance(f, FormField) and f.kind == "toggle" and f.default is None:
            return "not set (required): click for yes"
        if f.keys[0] == "mounts" and f.keys[-1] == "move_m":
            return walk_hint(self.doc.get(f.keys[:2]))
        return unset_hint(str(self.doc.data.get("ruleset", "fi")), f.keys)

    def start_edit(self, f: Field) -> None:
        """Click a line: type its value."""
        self.editing = Editing(f, self.value_of(f))

    def commit(self) -> bool:
        """Enter: set the typed value (YAML for anything but text); a line that does not parse stays open with
        the reason. The loader's check of the result is shown in the problems panel."""
        e = self.editing
        if e is None:
            return False
        try:
            if isinstance(e.field, FormField) and e.field.apply:
                self._apply(e.field, e.text.strip())
            elif e.field.keys[0] == "@map":
                self._set_map(str(e.field.keys[1]), e.text)
            elif len(e.field.keys) == 5 and e.field.keys[::2] == ("sides", "units", "name"):  # objectives follow
                self.doc.rename_unit(int(e.field.keys[1]), int(e.field.keys[3]), e.text)
            elif e.field.keys[0] == "triggers" and e.field.keys[-4:-2] == ("reinforce", "units") and \
                    e.field.keys[-1] == "name":  # a reinforcement's name: what names it follows
                self.doc.rename_reinforcement(e.field.keys[:-1], e.text)
            elif e.field.keys[0] == "@mount":
                self.doc.rename_mount(int(e.field.keys[1]), e.text)
            elif e.field.keys[0] == "@zone":
                self.doc.rename_zone(str(e.field.keys[1]), e.text.strip())
                self.zone = e.text.strip()
            else:
                self.doc.set(e.field.keys, parse(e.text, e.field.text))
        except (ValueError, ContentError) as exc:
            e.error = exc.text if isinstance(exc, ContentError) else str(exc)
            return False
        except (KeyError, IndexError, TypeError):  # the line's unit, side or trigger is gone (undone meanwhile)
            self.editing = None
            self.toast("that line is gone (undone?): nothing set", BAD)
            return False
        self.editing = None
        return True

    # ------------------------------------------------------------------ the objective and trigger forms
    def refs(self) -> Refs:
        """The names the forms offer: zones (the scenario's and its Tiled map's), units, sides, objectives."""
        scenario, _ = self.doc.last_check()
        return refs_of(self.doc.data, tuple(scenario.zones) if scenario is not None else ())

    def options_of(self, f: Field) -> tuple[list[tuple[str, str]], bool]:
        """What a line offers to click: (value, label) each, and whether a click adds it to a list (the loadout
        tables) or sets it (a form's choice)."""
        if isinstance(f, FormField):
            return [(o, o) for o in f.options], False
        return choices(str(self.doc.data.get("ruleset", "fi")), str(f.keys[-1])), True

    def pick(self, value: str) -> None:
        """A click on one of the open line's options."""
        e = self.editing
        if e is None:
            return
        if self.options_of(e.field)[1]:
            self.doc.set(e.field.keys, with_item(self.doc.get(e.field.keys), value))
            self.start_edit(e.field)
        else:
            e.text = value
            self.commit()

    def form_click(self, f: FormField) -> None:
        """A click on a form row that is not typed: fold or unfold, flip a toggle, delete, add an effect."""
        self.editing = None
        if f.kind == "open":
            self.opened = None if self.opened == f.keys else f.keys
        elif f.kind == "toggle":  # back to the model's default: the key is left out again (not written)
            if not isinstance(self.doc.get(f.keys[:-1]), dict):  # `door: relay`: no mapping to set a key in
                self.toast(f"{f.keys[-2]} is not a mapping ({{key: value}}): type it in the YAML row", BAD)
                return
            value = self.doc.get(f.keys)
            flipped = not (f.default if value is None else value)
            self.doc.set(f.keys, None if flipped == f.default else flipped)
        elif f.apply == "delete":
            self.doc.set(f.keys, None)
            if f.keys == self.opened:
                self.opened = None
        elif f.apply == "add-effect":
            then = self.doc.get(f.keys)
            self.doc.set(f.keys, [*(then if isinstance(then, list) else []), {"message": "a message"}])

    def _apply(self, f: FormField, text: str) -> None:
        """A kind row set: the objective, condition or effect rebuilt for that kind (one undo step)."""
        if text not in f.options:
            raise ValueError(f"{f.label.strip()}: expected one of {', '.join(f.options)}, got {text!r}")
        refs = self.refs()
        if f.apply == "objective":
            old = self.doc.get(f.keys[:-1])
            own = tuple(str(u.get("name")) for si, _, u in self.doc.units() if si == f.keys[1])
            self.doc.set(f.keys[:-1], fit_objective(old if isinstance(old, dict) else {}, text, refs, own))
        elif f.apply == "when":
            self.doc.set(f.keys, new_condition(text, self.doc.get(f.keys), refs))
        else:
            first = next((u for _, _, u in self.doc.units()), None)
            taken = {*refs.units, *(str(u.get("name")) for t in self.doc.data.get("triggers") or [] if isinstance(t, dict)
                                    for e in t.get("then") or [] if isinstance(e, dict)
                                    and isinstance(e.get("reinforce"), dict)
                                    for u in e["reinforce"].get("units") or [] if isinstance(u, dict))}
            self.doc.set(f.keys, new_effect(text, self.doc.get(f.keys), refs, first, taken))

    def _set_map(self, key: str, text: str) -> None:
        if key == "map name":
            name = text.strip()
            if not name or len(name) > 64:
                raise ValueError("a map name of 1-64 characters")
            if name != self.doc.map_name:
                self.doc.change()
                self.doc.map_name = name
        elif key == "cell_m":
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"metres per cell, a number 0.5-10, got {text!r}") from None
            if not 0.5 <= value <= 10:
                raise ValueError(f"metres per cell, a number 0.5-10, got {text!r}")
            if value != self.doc.cell_m:
                self.doc.change()
                self.doc.cell_m = value
        else:
            parts = text.lower().replace("×", "x").replace(" ", "").split("x")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise ValueError(f"the size as WIDTHxHEIGHT (e.g. 30x20), got {text!r}")
            self.doc.resize(int(parts[0]), int(parts[1]))
            self.fit()

    def go_to(self, where: str) -> None:
        """A click on a problem: show what its key path names (a unit, a side, a zone, a trigger, the scenario)."""
        unit = re.match(r"sides\[(\d+)\]\.units\[(\d+)\]", where)
        side = re.match(r"sides\[(\d+)\]", where)
        mount = re.match(r"mounts\[(\d+)\]", where)
        form = re.match(r"sides\[(\d+)\]\.objectives\[(\d+)\]|triggers\[(\d+)\]", where)
        if form:  # an objective's or a trigger's problem: its form unfolded
            keys: tuple[str | int, ...] = (("sides", int(form[1]), "objectives", int(form[2])) if form[1] is not None
                                           else ("triggers", int(form[3])))
            self.opened = keys if self.doc.get(keys) is not None else self.opened
        if unit and self.doc.get(("sides", int(unit[1]), "units", int(unit[2]))) is not None:
            self.select((int(unit[1]), int(unit[2])))
        elif side and self.doc.get(("sides", int(side[1]))) is not None:
            self.side, self.tab, self.selected, self.editing = int(side[1]), "side", None, None
        elif mount and self.doc.get(("mounts", int(mount[1]))) is not None:  # a mount's problem: it selected
            self.tab, self.mount, self.editing = "mounts", int(mount[1]), None
        elif where.startswith("zones"):
            self.tab, self.editing = "zones", None
        elif where.startswith("triggers"):
            self.tab, self.editing = "triggers", None
        else:
            self.tab, self.editing = "scenario", None

    # ------------------------------------------------------------------ files and test play
    def save(self, path: Path | None = None) -> str | None:
        """Ctrl+S (or the Save As prompt's path): write the scenario and its map; None, or why not. A shipped
        scenario, or a new one, is never written by Ctrl+S: Save As asks where (the user's folder offered)."""
        target = path or self.doc.path
        if target is None or (path is None and shipped(target)):
            return "save as"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            written = self.doc.save(target)
        except OSError as exc:  # OutputError too: one line naming the file
            why = str(exc) if isinstance(exc, OutputError) else f"{target}: {exc.strerror or exc}"
            self.toast(f"not saved: {why}", BAD)
            return why
        _, errors = self.doc.check()
        more = f" ({len(errors)} problems left: see the panel)" if errors else ""
        self.toast("saved: " + ", ".join(str(p) for p in written) + more, GOOD if not errors else TEXT)
        return None

    def default_save_path(self) -> Path:
        """Where Save As proposes to write: the user's folder, under the scenario's file name."""
        stem = self.doc.path.stem if self.doc.path is not None else "new_scenario"
        return user_dir() / f"{stem}.yaml"

    def test_play(self, person: bool = False) -> Any:
        """T: play the scenario as it stands (Shift+T: you play its first side); back here after."""
        scenario, errors = self.doc.check()
        if scenario is None:
            self.toast(f"cannot play: {len(errors)} problems (see the panel)", BAD)
            return None
        if self.play is None:
            self.toast("test play is not available here", BAD)
            return None
        try:
            played = self.doc.playable()  # its own copy: a battle saved from it records what was played
        except (ContentError, OSError) as exc:
            self.toast(f"cannot play: {exc.text if isinstance(exc, ContentError) else exc}", BAD)
            return None
        return self.play(played, self, person)

    # ------------------------------------------------------------------ balance (Ctrl+B)
    def run_balance(self) -> None:
        """Ctrl+B: `skirmish balance` on the scenario as it stands, in the background (a run going on is
        cancelled first)."""
        if self.balance is not None and self.balance.running:
            self.balance.cancel()
        scenario, errors = self.doc.check()
        if scenario is None:
            self.toast(f"cannot balance: {len(errors)} problems (see the panel)", BAD)
            return
        try:
            # a folder per version: the battles load the scenario once per path (skirmish.sim.batch._scenario),
            # so a run after an edit must not reuse the path an earlier run played
            path = self.doc.scratch_file(f"balance-{self.doc.version}")
        except (ContentError, OSError) as exc:
            self.toast(f"cannot balance: {exc.text if isinstance(exc, ContentError) else exc}", BAD)
            return
        sides = [side.name for side in scenario.spec.sides]
        self.balance = BalanceRun(path, sides, self.balance_battles, self.doc.version).start()

    def balance_key(self, event: Any) -> bool:
        """Esc cancels a run (or closes the figures); + and - change the battles a level. Whether it was used."""
        import pygame

        run = self.balance
        if run is None:
            return False
        if event.key == pygame.K_ESCAPE:
            if run.running:
                run.cancel()  # it stops after the battle being played; the panel says so meanwhile
            else:
                self.balance = None
            return True
        step = {pygame.K_EQUALS: 1, pygame.K_PLUS: 1, pygame.K_KP_PLUS: 1, pygame.K_MINUS: -1,
                pygame.K_KP_MINUS: -1}.get(event.key)
        if step is None:
            return False
        self.balance_battles = next_battles(self.balance_battles, step)
        self.remember()
        return True

    # ------------------------------------------------------------------ actions (buttons and keys)
    def toggle_help(self) -> None:
        """H: the help box."""
        self.show_help = not self.show_help

    def to_menu(self) -> Transition:
        """Esc: the start menu (the scenario stays as saved; unsaved edits are lost, so Esc asks twice)."""
        if self.doc.dirty and not getattr(self, "_esc_armed", False):
            self._esc_armed = True
            self.toast("unsaved changes: Esc again leaves without saving (Ctrl+S saves)")
            return None  # type: ignore[return-value]
        if self.balance is not None:
            self.balance.cancel()  # its thread stops after the battle being played
        if self.back is None:
            return Quit()
        return Reset(self.back())

    def save_key(self) -> Transition | None:
        """Ctrl+S: save where it came from; a shipped or new scenario asks where (Save As)."""
        if self.save() == "save as":
            return self.save_as()
        return None

    def save_as(self) -> Transition:
        """Ctrl+Shift+S: ask for the path (the user's folder offered)."""
        dialog = PathDialog(self.fonts, "Save the scenario as (its map is written beside it)",
                            str(self.default_save_path()), self._save_to)
        return Push(dialog)

    def _save_to(self, path: Path) -> str | None:
        return self.save(path)
