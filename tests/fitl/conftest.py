"""Helpers to build Fire in the Lake positions on the real game (``FitlGame``), for any FitL test.

``fitl_game(scenario="short", seed=0, edit=callable, top=[cards], players=...)`` loads a game with the lesson
options (issue #13): ``deck=top`` and the ``position`` that makes the board ``edit(game)`` makes (found by
running ``edit`` on a scratch copy of the set-up and keeping the difference as data), so the position is in
the game's record: undo, save/open and the rollback after an illegal action rebuild it.
``empty_board(game)`` clears the map (pieces to Available, every box emptied, Support Neutral, no markers);
``put(game, space, vc_guerrillas__a=2, us_troops=3)`` places pieces from Available (``__`` for ``:``).
``Passer`` passes on every card and declines every optional step.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from wargames.core import Action
from wargames.fitl.data import LEVELS
from wargames.fitl.game import FitlGame
from wargames.fitl.state import BOXES, piece_id
from wargames.testing import unstarted

LEVEL_KEYS = {v: k for k, v in LEVELS.items()}


class Passer:
    """Passes on every card, declines Pivotals and optional steps; otherwise takes the first option."""

    last_reason = "test player"

    def choose(self, game, decision):
        for kind in ("pass", "no_pivotal", "done"):
            for a in decision.options:
                if a.kind == kind:
                    return a
        return decision.options[0]


class Unexpressible(AssertionError):
    """A test's edit changes something the lesson ``position`` option cannot set."""


_SET_UPS: dict[str, tuple[FitlGame, dict[str, Any]]] = {}


def _set_up(scenario: str, seed: int, options: dict[str, Any] | None) -> tuple[FitlGame, dict[str, Any]]:
    """An unstarted game (never played: only copied) and its state, loaded once per scenario, seed and options."""
    key = json.dumps([scenario, seed, options or {}], sort_keys=True, default=str)
    if key not in _SET_UPS:
        game = unstarted("fitl", scenario, seed, options)
        _SET_UPS[key] = game, game.state_dict()
    return _SET_UPS[key]


def position_of(
    edit: Callable[[FitlGame], None],
    scenario: str = "short",
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], FitlGame]:
    """The lesson ``position`` option (wargames.fitl.lesson) that makes the board ``edit(game)`` makes when
    set-up ends, and the edited set-up itself (to compare with).  ``edit`` runs on a scratch game that is never
    played (``wargames.testing.unstarted``); only the difference it makes is kept, as data, so the position is
    part of the game's record: it saves, reopens and replays.  An edit of anything the option cannot set
    raises :class:`Unexpressible` naming it."""
    plain, before = _set_up(scenario, seed, options)
    edited = copy.copy(plain)  # a scratch copy: the set-up state copied as a checkpoint copies it
    memo: dict[int, Any] = {
        id(v): v for v in (*(plain.__dict__.get(k) for k in plain.static_attrs), *plain.snapshot_shared())
    }
    for k in plain.state_attrs():
        setattr(edited, k, copy.deepcopy(getattr(plain, k), memo))
    edit(edited)  # type: ignore[arg-type]
    board = edited.board
    for (
        pid,
        row,
    ) in board.data.pieces.items():  # pieces the edit took away (Available lowered): out of the game
        if row.type != "marker":
            held = (
                sum(n for c in board.pieces.values() for k, n in c.items() if piece_id(k) == pid)
                + board.available[pid]
                + board.casualties[pid]
                + board.out_of_play[pid]
            )
            board.removed[pid] = max(0, row.count - held)
    board.removed += Counter()
    broken = edited.invariants()
    if broken:
        raise Unexpressible(f"the edit breaks the rules of the board ({broken[:3]}); no lesson position can")
    a, b = copy.deepcopy(before), edited.state_dict()
    pos: dict[str, Any] = {}
    ba, bb = a.pop("board"), b.pop("board")
    for s in sorted(set(ba["pieces"]) | set(bb["pieces"])):
        was, now = ba["pieces"].get(s, {}), bb["pieces"].get(s, {})
        for key in sorted(set(was) | set(now)):
            if was.get(key, 0) != now.get(key, 0):
                pos.setdefault("pieces", {}).setdefault(s, {})[key] = now.get(key, 0)
    for s in sorted(set(ba["support"]) | set(bb["support"])):
        if ba["support"].get(s, 0) != bb["support"].get(s, 0):
            pos.setdefault("support", {})[s] = LEVEL_KEYS[bb["support"].get(s, 0)]
    for t, v in bb["tracks"].items():
        if ba["tracks"][t] != v:
            pos.setdefault("tracks", {})[t] = v
    for s in sorted(set(ba["terror"]) | set(bb["terror"])):
        if ba["terror"].get(s, 0) != bb["terror"].get(s, 0):
            pos.setdefault("terror", {})[s] = bb["terror"].get(s, 0)
    for s in sorted(set(ba["sabotage"]) ^ set(bb["sabotage"])):
        pos.setdefault("sabotage", {})[s] = s in bb["sabotage"]
    for box in ("casualties", "out_of_play", "removed"):
        for pid in sorted(set(ba.get(box, {})) | set(bb.get(box, {}))):
            if ba.get(box, {}).get(pid, 0) != bb.get(box, {}).get(pid, 0):
                pos.setdefault(box, {})[pid] = bb.get(box, {}).get(pid, 0)
    for f, flag in b.pop("eligible").items():
        if a["eligible"][f] != flag:
            pos.setdefault("eligible", {})[f] = flag
    a.pop("eligible")
    caps_a, caps_b = a.pop("capabilities"), b.pop("capabilities")
    for card in sorted(set(caps_a) | set(caps_b), key=int):
        if caps_a.get(card) != caps_b.get(card):
            pos.setdefault("capabilities", {})[card] = caps_b.get(card)
    piles = [k for k in ("leader_box", "played") if a[k] != b[k]]
    for (
        key
    ) in piles:  # the whole pile, in order; the cards come from the deck or set aside (wargames.fitl.lesson)
        pos[key] = list(b[key])
    added = [c for c in b["momentum"] if c not in a["momentum"]]
    if added and all(c in b["momentum"] for c in a["momentum"]):
        for c in added:  # taken from the deck or the cards set aside, its side in the board's event flags
            pos.setdefault("momentum", {})[str(c)] = bb["event_flags"].get(f"momentum_{c}", "unshaded")
            bb["event_flags"].pop(f"momentum_{c}", None)
        piles.append("momentum")
    if piles:
        for key in (*piles, "deck", "set_aside", "pivotal_held"):
            a.pop(key), b.pop(key)
    other = sorted(k for k in a if a[k] != b[k]) + (
        ["board.event_flags"] if ba["event_flags"] != bb["event_flags"] else []
    )
    if other:
        raise Unexpressible(f"the edit changes {other}, which the lesson position option cannot set")
    return pos, edited


def at_first_phase(game: FitlGame) -> None:
    """Run (rulings only: no decision comes first) to the first phase ruling after set-up, past the lesson's."""
    while not (game.turn >= 1 and game.log and game.log[-1].step == "phase"):
        game.advance("ruling")


def fitl_game(
    scenario: str = "short",
    seed: int = 0,
    edit: Callable[[FitlGame], None] | None = None,
    *,
    top: Iterable[int] = (),
    players: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    start: bool = True,
    base: type[FitlGame] = FitlGame,
) -> FitlGame:
    """A FitL game loaded with the lesson options: ``top`` stacked on its deck (``deck``) and the board
    ``edit`` makes at the end of set-up (``position``, through :func:`position_of`; checked to be the same
    board when the game has made it).  ``players``: sides not listed are decided by the test (None); pass
    ``{"US": Passer(), ...}`` for bots.  ``base``: a FitlGame subclass (e.g. one with stand-in Operations).
    Available counts set lower than the force pool allows take pieces out of the game (``position.removed``)."""
    opts = dict(options or {})
    if top:
        opts["deck"] = list(top)
    edited = None
    if edit is not None:
        pos, edited = position_of(edit, scenario, seed, opts)
        if pos:
            opts["position"] = pos
    game = unstarted(base, scenario, seed, opts)
    game.set_players({s: None for s in game.sides})
    if players:
        game.set_players(players)
    if start:
        at_first_phase(game)  # no decision comes before it, so this is what advance("decision") would do
        if edited is not None:
            assert game.state_dict() == edited.state_dict(), "the position option made another position"
        game.advance("decision")
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


def play_until(
    game: FitlGame, predicate: Callable[[FitlGame], bool], player: Any = None, limit: int = 2000
) -> None:
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
