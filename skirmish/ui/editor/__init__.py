"""The scenario editor on the board (`skirmish edit [SCENARIO]`, E in the start menu; docs/EDITOR.md):
document.py the scenario being edited (undo, the live check, saving), fields.py the inspector's lines,
state.py the editor's state, actions.py the inspector, files and test play, draw.py its drawing, zones.py the
zones on the map, screen.py its keys and mouse, dialog.py the Save As prompt, basics.py what a document starts
from."""

from skirmish.ui.editor.document import EditorDoc
from skirmish.ui.editor.screen import EditorScreen

__all__ = ["EditorDoc", "EditorScreen"]
