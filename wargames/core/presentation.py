"""What the notebooks show of a game, declared by the game in ``data/<game>/notebook.yaml`` (issue #29 item 4).

The notebook kit (the play widget's scenario selector and default side, the palette of a game's pieces, the
apps and notebook folders, the glossary's sections) and the comparison notebook (the stored many-game run, what
each masked part of the state means, how a historical event appears in the game) read these facts here instead of
naming games.  A game without the file (a new game, the toy game of the tests) gets facts derived from its
:class:`~wargames.core.gametype.GameType`: its title, its first side, every registered scenario, no palette of its
own, no stored run.

The file's ``sources`` say where each of its entries comes from (the kinds of :data:`wargames.core.data.SOURCE_KINDS`).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .data import SOURCE_KINDS, game_dir, read_yaml
from .registry import game_type, known_games, scenarios

FILE = "notebook.yaml"


class Variant(BaseModel):
    """One entry of the scenario selector: a label, a scenario and the load options that go with it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    label: str
    scenario: str
    options: dict[str, Any] = Field(default_factory=dict)


class StoredRun(BaseModel):
    """One stored many-game run: its file in ``benchmarks/results/``, the scenario it played and the script that
    made it (``benchmarks/results/README.md`` says when and on what machine)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    file: str
    scenario: str
    made_by: str

    @property
    def games(self) -> int:
        """How many games the run holds, as its file name says (``tet_1000.csv``: 1000)."""
        return int(self.file.rsplit("_", 1)[-1].split(".")[0])


class EventView(BaseModel):
    """How a historical event followed by the comparison notebook appears in this game.

    ``result`` says which measurement of the notebook stands for it: ``stored run`` (the game's stored run, its
    ``scenario`` the scenario of that run), ``card markers`` (a card's effect on the victory markers, ``appears``
    naming the card) or ``event scenario`` (a scenario of this game for the event, when one is registered)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    result: Literal["stored run", "card markers", "event scenario"]
    moves: str
    appears: str = ""


class Presentation(BaseModel):
    """The declared notebook facts of one game (see the module's docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    title: str  # the short title of the notebooks' headings and of the glossary's section
    order: int = 99  # where the game stands among the games in menus and tables (the order of issue #20)
    default_side: str = ""  # the side a student plays when none is chosen
    variants: tuple[Variant, ...] = ()  # the scenario selector, the first the default
    palette: dict[str, str] = Field(default_factory=dict)  # faction or side -> "#rrggbb"
    stored_run: StoredRun | None = None
    hidden: dict[str, str] = Field(
        default_factory=dict
    )  # masked part of the state -> what it is (with its rule)
    events: dict[str, EventView] = Field(default_factory=dict)
    sources: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _sourced(self) -> Presentation:
        """Every entry the file gives has a source of a known kind."""
        given = self.model_fields_set - {"sources", "title", "order"}
        missing = sorted(given - set(self.sources))
        if missing:
            raise ValueError(f"no source for {', '.join(missing)} (sources:)")
        bad = {k: v for k, v in self.sources.items() if not v.startswith(SOURCE_KINDS)}
        if bad:
            raise ValueError(f"a source must start with one of {SOURCE_KINDS}: {bad}")
        for colour in self.palette.values():
            if len(colour) != 7 or not colour.startswith("#"):
                raise ValueError(f"palette colour {colour!r} is not #rrggbb")
        return self


@cache
def presentation(game: str) -> Presentation:
    """The notebook facts ``game`` declares (``data/<game>/notebook.yaml``), or those derived from its GameType."""
    path = game_dir(game) / FILE
    if path.exists():
        return read_yaml(path, Presentation)
    gt = game_type(game)
    return Presentation(title=gt.title)


def default_side(game: str) -> str | None:
    """The side a student plays when none is chosen, as the game declares it (None: it declares none)."""
    return presentation(game).default_side or None


def variants(game: str) -> list[Variant]:
    """The scenario selector's entries: the declared ones, else every registered scenario."""
    declared = presentation(game).variants
    return list(declared) if declared else [Variant(label=s, scenario=s) for s in scenarios(game)]


def ordered_games(games: Any = None) -> tuple[str, ...]:
    """``games`` (default: every known game) in their declared order, then by id."""
    ids = list(known_games() if games is None else games)
    return tuple(sorted(ids, key=lambda g: (presentation(g).order, g)))


def stored_games() -> tuple[str, ...]:
    """The games with a stored many-game run, in order (the models the comparison notebook sets side by side)."""
    return tuple(g for g in ordered_games() if presentation(g).stored_run is not None)
