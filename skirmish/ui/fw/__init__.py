"""Future*World on the board: its command panel (panel.py), the declaration being built (draft.py) and its
tracker, unit card and token marks (draw.py), registered with `skirmish.ui.commands`."""

from skirmish.ui.fw import panel  # noqa: F401  (registers the panel)
