"""The scenario editor on the board (`skirmish edit [SCENARIO]`, E in the start menu; docs/EDITOR.md):
document.py the scenario being edited (undo, the live check, saving), fields.py the inspector's lines,
state.py the editor's state, draw.py its drawing, screen.py its keys and mouse, dialog.py the Save As prompt."""

from skirmish.ui.editor.document import EditorDoc
from skirmish.ui.editor.screen import EditorScreen

__all__ = ["EditorDoc", "EditorScreen"]
