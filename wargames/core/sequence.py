"""The sequence of play, declared as data (``data/<game>/sequence.yaml``) and walked by the engine.

A game is turns -> phases -> steps.  Each step names the procedure (a generator method of the game)
that runs it, the side that acts, and the rule it applies.  ``turns`` on a phase or step limits it to
some game turns (Tet's slow reaction on turns 1-2); ``when`` names a predicate method of the game
(Fire in the Lake's Coup phases run only when a Coup card is up).  ``turns: null`` at the top means the
game decides when it ends (card-driven games).

Two shapes Rumor of War needs (issue #14), both printed in the sequence table:

* ``alternate``: the step's procedure runs again and again, called with the acting side, the sides taking
  turns (``first`` names a method returning the side that starts) ``until`` a predicate holds (e.g. both
  sides have passed).  ``max_rounds`` guards against a rules bug looping for ever.
* ``reactions``: windows inside the step in which another side may act (``who``: ``other`` for the side not
  acting, or a side's name).  The step's procedure opens a window with ``yield from game.react(id)`` at the
  moment the rules say; the window's own procedure runs for the reacting side (if its ``when`` holds).

Every procedure and predicate name is checked when the game is made (:func:`check_names`): a typo is a
load error naming the file, the phase and the step.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .data import game_dir, read_yaml


class AlternateSpec(BaseModel):
    """Sides take turns running the step's procedure until a condition holds."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    until: str
    sides: list[str] = []  # default: the game's sides, in order
    first: str | None = None  # method returning the side that starts (default: the first of ``sides``)
    max_rounds: int = 1000


class ReactionSpec(BaseModel):
    """A window inside a step in which another side may act (e.g. a reserve move inside an activation)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str
    name: str
    procedure: str
    rule: str
    who: str = "other"
    when: str | None = None
    summary: str = ""


class StepSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str
    name: str
    procedure: str
    rule: str
    actor: str = ""
    turns: list[int] | None = None
    when: str | None = None
    summary: str = ""
    alternate: AlternateSpec | None = None
    reactions: list[ReactionSpec] = []


class PhaseSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str
    number: int | str
    name: str
    rule: str
    actor: str = ""
    summary: str = ""
    turns: list[int] | None = None
    when: str | None = None
    steps: list[StepSpec]


class SequenceOfPlay(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    game: str
    turns: int | None = Field(description="number of game turns, or null when the game decides")
    turn_name: str = "Turn"
    setup: list[PhaseSpec] = []
    phases: list[PhaseSpec]
    source: str

    def rows(self) -> list[dict[str, object]]:
        """One row per step, for a notebook table (turn restrictions and conditions included)."""
        out = []
        for block, phases in (("set-up", self.setup), ("each turn", self.phases)):
            for ph in phases:
                for st in ph.steps:
                    turns = st.turns or ph.turns
                    actor = st.actor or ph.actor
                    if st.alternate:
                        alt = st.alternate
                        actor = (
                            f"{' and '.join(alt.sides) or 'the sides'} in turn"
                            + (f" ({alt.first} starts)" if alt.first else "")
                            + f", until {alt.until}"
                        )
                    out.append(
                        {
                            "when": block,
                            "phase": ph.number,
                            "phase name": ph.name,
                            "step": st.name,
                            "actor": actor,
                            "rule": st.rule,
                            "only on turns": ", ".join(map(str, turns)) if turns else "",
                            "condition": st.when or ph.when or "",
                            "what happens": st.summary or ph.summary,
                        }
                    )
                    for rx in st.reactions:
                        out.append(
                            {
                                "when": block,
                                "phase": ph.number,
                                "phase name": ph.name,
                                "step": f"  inside {st.name}: {rx.name}",
                                "actor": "the other side" if rx.who == "other" else rx.who,
                                "rule": rx.rule,
                                "only on turns": "",
                                "condition": rx.when or "",
                                "what happens": rx.summary
                                or f"{rx.name} (a reaction window inside {st.name})",
                            }
                        )
        return out

    def names(self) -> list[tuple[str, str, str]]:
        """(where, field, method name) of every procedure and predicate the sequence names."""
        out: list[tuple[str, str, str]] = []
        for block, phases in (("setup", self.setup), ("phases", self.phases)):
            for ph in phases:
                if ph.when:
                    out.append((f"{block} phase {ph.id}", "when", ph.when))
                for st in ph.steps:
                    where = f"{block} phase {ph.id}, step {st.id}"
                    out.append((where, "procedure", st.procedure))
                    if st.when:
                        out.append((where, "when", st.when))
                    if st.alternate:
                        out.append((where, "alternate.until", st.alternate.until))
                        if st.alternate.first:
                            out.append((where, "alternate.first", st.alternate.first))
                    for rx in st.reactions:
                        out.append((f"{where}, reaction {rx.id}", "procedure", rx.procedure))
                        if rx.when:
                            out.append((f"{where}, reaction {rx.id}", "when", rx.when))
        return out


def check_names(sequence: SequenceOfPlay, owner: type, source: str) -> None:
    """Every procedure and predicate the sequence names must be a method of the game (else a DataError
    naming the file, the phase and the step)."""
    from .data import DataError

    for where, field, name in sequence.names():
        if not callable(getattr(owner, name, None)):
            raise DataError(
                source, f"{where}: {field} {name!r} is not a method of {owner.__name__}", column=field
            )


def load_sequence(game: str) -> SequenceOfPlay:
    return read_yaml(game_dir(game) / "sequence.yaml", SequenceOfPlay)
