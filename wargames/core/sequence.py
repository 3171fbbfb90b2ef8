"""The sequence of play, declared as data (``data/<game>/sequence.yaml``) and walked by the engine.

A game is turns -> phases -> steps.  Each step names the procedure (a generator method of the game)
that runs it, the side that acts, and the rule it applies.  ``turns`` on a phase or step limits it to
some game turns (Tet's slow reaction on turns 1-2); ``when`` names a predicate method of the game
(Fire in the Lake's Coup phases run only when a Coup card is up).  ``turns: null`` at the top means the
game decides when it ends (card-driven games).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .data import game_dir, read_yaml


class StepSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    procedure: str
    rule: str
    actor: str = ""
    turns: list[int] | None = None
    when: str | None = None
    summary: str = ""


class PhaseSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

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
    model_config = ConfigDict(extra="forbid", frozen=True)

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
                    out.append({
                        "when": block, "phase": ph.number, "phase name": ph.name, "step": st.name,
                        "actor": st.actor or ph.actor, "rule": st.rule,
                        "only on turns": ", ".join(map(str, turns)) if turns else "",
                        "condition": st.when or ph.when or "", "what happens": st.summary or ph.summary,
                    })
        return out


def load_sequence(game: str) -> SequenceOfPlay:
    return read_yaml(game_dir(game) / "sequence.yaml", SequenceOfPlay)
