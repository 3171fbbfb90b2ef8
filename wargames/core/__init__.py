"""The shared rules core: the one game interface, rulings, dice, players, saves and data loading.

Never imports Bokeh or ipywidgets: rules run headless in tests, the CLI and Monte Carlo workers.
"""

from .actions import Action, Decision, IllegalAction, WargamesError
from .dice import Dice
from .engine import EngineError, Game, View
from .gametype import GameType
from .players import Bot, Player, RandomPlayer, ScriptedPlayer
from .position import Edit, PositionError
from .rulings import Lookup, Roll, Ruling
from .state import StateDecl, StateField
from .transitions import Explained

__all__ = [
    "Action",
    "Bot",
    "Decision",
    "Dice",
    "Edit",
    "EngineError",
    "Explained",
    "Game",
    "GameType",
    "IllegalAction",
    "Lookup",
    "Player",
    "PositionError",
    "RandomPlayer",
    "Roll",
    "Ruling",
    "ScriptedPlayer",
    "StateDecl",
    "StateField",
    "View",
    "WargamesError",
]
