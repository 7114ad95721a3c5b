"""The battle screen, in parts (ARCHITECTURE §5): state.py what it holds and its layout, reach.py the reach
and route of a drag, menus.py the choices and their odds, input.py keys and mouse, drawing.py what it shows,
screen.py the BattleScreen composing them."""

from skirmish.ui.battle.input import HELP
from skirmish.ui.battle.screen import BattleScreen, outcome_of

__all__ = ["HELP", "BattleScreen", "outcome_of"]
