"""Test helpers for the FitL Operations: the real game running only the Operations on a prepared board.

``OpsGame`` is FitlGame with a one-phase sequence whose single step runs the planned Operations (``plan``: a list of
(faction, limited, with_sa, free) tuples) on the scenario board after ``prepare(board)`` has arranged a position.
The position is a lesson position (issue #13): ``prepare`` runs on a scratch copy of the set-up and the board it
makes is loaded with the ``position`` option (conftest.position_of), so replays (undo, the rollback of an illegal
action, ``wargames.testing.replayed``) rebuild it from the record; ``dice`` fixes the first rolls the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from wargames.core import Action, Game, IllegalAction, RandomPlayer
from wargames.core.sequence import PhaseSpec, SequenceOfPlay, StepSpec
from wargames.fitl.game import FitlGame
from wargames.fitl.state import BOXES, Board, piece_id

from .conftest import position_of


class OpsGame(FitlGame):
    """The real FitlGame with a one-step sequence running ``plan`` (Monsoon fixed by ``monsoon``)."""

    static_attrs = FitlGame.static_attrs | {"plan", "prepare", "monsoon_flag", "prepared_board"}

    def __init__(
        self,
        plan: list[tuple[str, bool, bool, bool]],
        prepare: Callable[[Board], None] | None = None,
        *,
        scenario: str = "short",
        seed: int = 1,
        monsoon: bool = False,
        dice: list[int] | None = None,
        players: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
    ):
        self.plan = plan
        self.prepare = prepare
        self.monsoon_flag = monsoon
        options = dict(options or {})
        if prepare is not None:
            pos, edited = position_of(lambda g: prepare(g.board), scenario, seed)
            self.prepared_board = edited.board.to_dict()
            if pos:
                options["position"] = {**options.get("position", {}), **pos}
        if dice:
            options["dice"] = list(dice)
        super().__init__(scenario, seed, options, players=players)  # loaded: run to the first decision

    @property
    def monsoon(self) -> bool:  # type: ignore[override]
        return self.monsoon_flag

    def load_sequence(self) -> SequenceOfPlay:
        return SequenceOfPlay(
            game=self.game_id,
            turns=1,
            source="rules: test",
            phases=[
                PhaseSpec(
                    id="ops",
                    number=1,
                    name="Operations",
                    rule="FITL-3.0",
                    steps=[StepSpec(id="ops", name="Operations", procedure="run_plan", rule="FITL-3.0")],
                )
            ],
        )

    def new_state(self) -> None:
        super().new_state()
        self.outcomes: list[dict[str, Any]] = []

    def default_player(self, side: str):
        return RandomPlayer(self.seed)

    def checked_advance(self) -> list[str]:
        """One decision by the random players; the invariants and unexplained changes (decision F-41)."""
        before = self.state_dict()
        n0 = len(self.log)
        self.advance("decision")
        return self.invariants() + self.transition_problems(before, self.log[n0:])

    def run_plan(self):
        check_prepared(self)
        for faction, limited, with_sa, free in self.plan:
            if not self.op_choices(faction, limited, free):
                yield self.ruling("FITL-3.1", "no Operation", f"{faction} has no legal Operation.")
                continue
            out = yield from self.operation(faction, limited=limited, with_sa=with_sa, free=free)
            self.outcomes.append(out)


def check_prepared(game: FitlGame) -> None:
    """The lesson position made the board ``prepare`` made on the scratch copy (checked as the plan starts)."""
    expected = getattr(game, "prepared_board", None)
    assert expected is None or game.board.to_dict() == expected, "the position option made another board"


def clear(board: Board, *spaces: str) -> None:
    """Empty spaces (pieces back to Available, or for the whole map when no space is given)."""
    for s in spaces or list(board.pieces):
        for key, n in list(board.pieces[s].items()):
            board.remove(s, key, n)
        board.terror.pop(s, None)


def put(board: Board, space: str, **pieces: int) -> None:
    """Put pieces on a space from Available (keys with a state use '__': vc_guerrillas__a=2)."""
    for name, n in pieces.items():
        key = name.replace("__", ":")
        pid = piece_id(key)
        if board.available[pid] < n:  # take from Out of Play / Casualties, else from the map elsewhere
            for box in BOXES[1:]:
                k = min(n - board.available[pid], getattr(board, box)[pid])
                getattr(board, box)[pid] -= k
                board.available[pid] += k
        board.available[pid] -= n
        board.pieces[space][key] += n


def empty_board(board: Board) -> None:
    clear(board)
    for s in board.support:
        board.support[s] = 0
    board.terror.clear()
    board.sabotage.clear()
    for box in BOXES[1:]:
        for pid, n in list(getattr(board, box).items()):
            board.available[pid] += n
        setattr(board, box, Counter())


TEST_TRACKS = {
    "arvn_resources": 30,
    "econ": 15,
    "aid": 15,
    "patronage": 15,
    "trail": 2,
    "nva_resources": 10,
    "vc_resources": 10,
}


def prepared(
    setups,
    tracks: dict | None = None,
    support: dict | None = None,
    after: Callable[[Board], None] | None = None,
) -> Callable[[Board], None]:
    """A ``prepare(board)`` for OpsGame: an empty board with the usual test tracks, then ``setups`` as
    (space, pieces) pairs, ``support`` levels and any ``after(board)`` edit."""

    def prepare(board: Board) -> None:
        empty_board(board)
        board.tracks.update(TEST_TRACKS)
        board.tracks.update(tracks or {})
        for space, pieces in setups:
            put(board, space, **pieces)
        for space, level in (support or {}).items():
            board.support[space] = level
        if after:
            after(board)

    return prepare


def refused(game: Game, action: Action, rule: str) -> IllegalAction:
    """``action`` is refused citing ``rule`` and the game is left exactly as it was."""
    before = game.digest()
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert err.value.rule_id == rule, err.value
    assert game.digest() == before
    return err.value


def pick(game: Game, kind: str, **params: Any) -> list:
    """Apply the one legal action of ``kind`` whose params include ``params``."""
    opts = [
        a for a in game.legal_actions() if a.kind == kind and all(a.get(k) == v for k, v in params.items())
    ]
    assert len(opts) == 1, (
        f"{kind} {params}: {len(opts)} matches in {[a.label for a in game.legal_actions()]}"
    )
    return game.apply(opts[0])


def labels(game: Game) -> list[str]:
    return [a.label for a in game.legal_actions()]


def options(game: Game, kind: str | None = None) -> list[Action]:
    return [a for a in game.legal_actions() if kind is None or a.kind == kind]


def last(game: Game, rule: str):
    """The last ruling citing ``rule``."""
    return [r for r in game.log if r.rule_id == rule][-1]
