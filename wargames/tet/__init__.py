"""Tet Offensive 1968 (GDW 1991, Frank Chadwick) on the shared core."""

from .game import TetGame

__all__ = ["TetGame"]
