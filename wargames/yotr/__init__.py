"""Year of the Rat (SPI 1972) on the shared core (rule ids: data/yotr/rules_index.csv)."""

from .game import YotrGame

__all__ = ["YotrGame"]
