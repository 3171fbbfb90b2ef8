"""Tet scenario files (``data/tet/scenarios/*.yaml``): title, story, turns and rule options."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.data import ScenarioHead


class TetOptions(BaseModel):
    """Rule options with their decision ids (see ``data/tet/decisions.csv``)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    ruff_puff_exempt_city: str = "saigon"
    recce_turns: list[int] = [1, 3, 5]
    nva_points_from_turn: int = Field(default=1, ge=1, le=2)
    communist_setup: Literal["player", "historical"] = (
        "player"  # D-23: TET-SETUP-3..5 by the player, or as in 1968
    )
    historical_border_restriction: bool = (
        False  # A-10, D-13: no Allied ground unit in NVN or Laos/Cambodia provinces
    )


class Scenario(ScenarioHead):
    """A Tet scenario (TET-SETUP-0 to TET-SETUP-6): its length, player count, rule options and set-up."""

    turns: int = Field(ge=1, le=5)
    players: Literal[2, 4] = 2
    options: TetOptions = Field(default_factory=TetOptions)  # built when needed, not at import (issue #21)
    turn_dates: dict[int, str] = {}
    source: str
