"""The engine: a checked spec and a table compiled into a game (OpenSpiel's ``Game``), whose
states (``State``) are played by events. Generated code runs only through
:func:`rulespec.engine.codegen.pyexec.exec_source`."""

from rulespec.engine.game import Game, Tables
from rulespec.engine.state import CHANCE, State
from rulespec.engine.table import Table

__all__ = ["CHANCE", "Game", "State", "Table", "Tables"]
