"""Screens and the transitions they return (STYLE 8): base.py what every screen shares, the start menu
(menu_state.py, menu_draw.py, menu.py) and the results screen (results.py). The battle screen is in
skirmish/ui/battle/, the replay viewer in skirmish/ui/replay.py."""

from skirmish.ui.screens.base import MenuFactory, Pop, Push, Quit, Reset, Screen, StartBattle, Transition
from skirmish.ui.screens.menu import MenuScreen
from skirmish.ui.screens.results import ResultsScreen

__all__ = ["MenuFactory", "MenuScreen", "Pop", "Push", "Quit", "Reset", "ResultsScreen", "Screen", "StartBattle",
           "Transition"]
