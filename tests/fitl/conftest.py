"""Helpers to build Fire in the Lake positions on the real game (``FitlGame``), for any FitL test.

``fitl_game(scenario="short", seed=0, edit=callable, top=[cards], players=...)`` builds a game whose
``new_state`` ends by stacking ``top`` on the draw deck and calling ``edit(game)``: the edited position is
part of the game's construction, so undo, save/open and the rollback after an illegal action rebuild it too.
``empty_board(game)`` clears the map (pieces to Available, every box emptied, Support Neutral, no markers);
``put(game, space, vc_guerrillas__a=2, us_troops=3)`` places pieces from Available (``__`` for ``:``).
``Passer`` passes on every card and declines every optional step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from wargames.core import Action
from wargames.fitl.game import FitlGame
from wargames.fitl.state import BOXES, piece_id


class Passer:
    """Passes on every card, declines Pivotals and optional steps; otherwise takes the first option."""

    last_reason = "test player"

    def choose(self, game, decision):
        for kind in ("pass", "no_pivotal", "done"):
            for a in decision.options:
                if a.kind == kind:
                    return a
        return decision.options[0]


def stack_deck(game: FitlGame, top: Iterable[int]) -> None:
    """Put ``top`` (card numbers, first = next to be turned up) on the draw deck, taking each card from the deck
    or the cards set aside (card conservation is kept; a displaced deck card goes to the set-aside pile)."""
    top = list(top)
    for c in top:
        if c in game.deck:
            game.deck.remove(c)
        elif c in game.set_aside:
            game.set_aside.remove(c)
        elif c in game.leader_box:
            game.leader_box.remove(c)
        else:
            raise AssertionError(f"card {c} is neither in the deck nor set aside")
    game.deck[:0] = top


def fitl_game(scenario: str = "short", seed: int = 0, edit: Callable[[FitlGame], None] | None = None, *,
              top: Iterable[int] = (), players: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
              start: bool = True, base: type[FitlGame] = FitlGame) -> FitlGame:
    """A FitL game with ``top`` stacked on its deck and ``edit`` applied at the end of ``new_state``.
    ``players``: sides not listed are decided by the test (None); pass ``{"US": Passer(), ...}`` for bots.
    ``base``: a FitlGame subclass (e.g. one with stand-in Operations) to build on."""
    top = list(top)

    class Edited(base):  # type: ignore[misc, valid-type]
        def new_state(self) -> None:
            super().new_state()
            if top:
                stack_deck(self, top)
            if edit is not None:
                edit(self)

    Edited.__name__ = "FitlGame"
    game = Edited(scenario, seed, options, _start=False)
    game.set_players({s: None for s in game.sides})
    if players:
        game.set_players(players)
    if start:
        game._run_to_rest()
        if any(game.players.get(side) is None for side in game.sides):
            settle(game)
    return game


def settle(game: FitlGame) -> None:
    """Let the bots decide until a decision for a side played by the test (player None), or the end."""
    while not game.is_over and (game.decision is None or game.player_for(game.decision.side) is not None):
        game.advance("decision")


def empty_board(game_or_board: Any) -> None:
    """No pieces on the map or in the Casualties/Out of Play boxes (all Available), Neutral everywhere,
    no Terror or Sabotage."""
    board = getattr(game_or_board, "board", game_or_board)
    for s in list(board.pieces):
        for key, n in list(board.pieces[s].items()):
            board.remove(s, key, n)
    for s in board.support:
        board.support[s] = 0
    board.terror.clear()
    board.sabotage.clear()
    for box in BOXES[1:]:
        for pid, n in list(getattr(board, box).items()):
            board.available[pid] += n
        setattr(board, box, Counter())


def put(game_or_board: Any, space: str, **pieces: int) -> None:
    """Place pieces from Available (``vc_guerrillas__a=2`` is 2 Active VC Guerrillas)."""
    board = getattr(game_or_board, "board", game_or_board)
    for name, n in pieces.items():
        key = name.replace("__", ":")
        pid = piece_id(key)
        assert board.available[pid] >= n, f"only {board.available[pid]} {pid} Available"
        board.available[pid] -= n
        board.pieces[space][key] += n


def pick(game: FitlGame, kind: str, **params: Any) -> Action:
    """The first legal action of ``kind`` whose params include ``params``."""
    for a in game.legal_actions():
        if a.kind == kind and all(a.get(k) == v for k, v in params.items()):
            return a
    raise AssertionError(f"no legal {kind} {params} among {[a.label for a in game.legal_actions()]}")


def play_until(game: FitlGame, predicate: Callable[[FitlGame], bool], player: Any = None, limit: int = 2000) -> None:
    """Run until ``predicate(game)`` holds: decisions of sides with a player are made by it, the others by
    ``player`` (default Passer)."""
    player = player or Passer()
    for _ in range(limit):
        if predicate(game) or game.is_over:
            return
        if game.decision is None:
            game.advance("ruling")
        elif game.player_for(game.decision.side) is not None:
            game.advance("ruling")
        else:
            game.apply(player.choose(game, game.decision))
    raise AssertionError("predicate never held")
