"""Helpers for tests and lessons built on the public API (issue #13): a position, a passive player, a refusal.

    from wargames.testing import position, Passive, refused
    game = position("tet", turn=1, phase="p5", units={"vc_i_01": "11"}, dice=[6])
    refused(game, some_illegal_action, rule="TET-P5-2")

``unstarted(...)`` is a game loaded but not yet run (to look at its set-up or choose its players first);
``replayed(game)`` replays a game's record, decision by decision, on a fresh copy through ``apply``.

A position made here is an ordinary game with the ``position`` (and ``dice``) load options: it saves,
reopens and replays identically.  No private engine state is touched.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .core import Action, Game, IllegalAction, Player, RandomPlayer
from .core.registry import game_class


class Passive:
    """A player who does as little as the rules allow: the last option, which every decision of the built-in
    games lists as its "end / skip / done / pass" choice.  Useful to reach a phase with a quiet board."""

    last_reason = "passive test player: takes the last option (end, skip or pass)"

    def choose(self, game: Game, decision) -> Action:
        return decision.options[-1]


def _lesson_options(
    options: Mapping[str, Any] | None,
    edits: Mapping[str, Any],
    turn: int | None,
    phase: str | None,
    dice: list[int] | None,
) -> dict[str, Any]:
    """The load options of :func:`position`: ``options`` with the lesson's ``position`` (the edits, and ``at`` when
    a turn or phase is named) and its fixed ``dice`` (core.position)."""
    opts = dict(options or {})
    pos: dict[str, Any] = dict(edits)
    if turn is not None or phase is not None:
        pos["at"] = {"turn": turn, "phase": phase}
    if pos:
        opts["position"] = pos
    if dice:
        opts["dice"] = list(dice)
    return opts


def position(
    game_id: str,
    scenario: str | None = None,
    seed: int = 0,
    *,
    turn: int | None = None,
    phase: str | None = None,
    players: Mapping[str, Player | None] | None = None,
    dice: list[int] | None = None,
    options: Mapping[str, Any] | None = None,
    **edits: Any,
) -> Game:
    """A game of ``game_id`` with the lesson edits ``edits`` made at the start of ``phase`` on ``turn`` (or
    when set-up ends), the sides played by :class:`Passive` until then, ``dice`` fixed from that moment,
    and then ``players`` (sides not named are a person's: None) run to the next person's decision."""
    cls = game_class(game_id)
    opts = _lesson_options(options, edits, turn, phase, dice)
    if scenario is None:
        scenario = cls.default_scenario  # the game's declared default (GameType.default_scenario)
    game = cls.unstarted(scenario, seed, opts)
    game.set_players({s: Passive() for s in game.sides})
    edited = any(k != "at" for k in edits) or bool(dice)

    def reached() -> bool:
        last = game.log[-1] if game.log else None
        if last is None:
            return False
        if edited:  # the first lesson ruling: the rest follow with no decision between them
            return last.step == "lesson"
        if turn is not None:
            return (
                game.turn == turn
                and game.phase is not None
                and game.phase.id == phase
                and last.step == "phase"
            )
        return game.turn >= 1

    while not game.is_over and not reached():
        game.advance("ruling")
    game.set_players({s: None for s in game.sides})
    if players:
        game.set_players(players)
    game.advance("decision")
    return game


def unstarted(
    game: str | type[Game],
    scenario: str | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """A game of ``game`` (a game id, or a Game class such as a test's subclass) loaded but not yet run: its
    set-up state is built and nothing has happened (no ruling, no decision).  Look at it, choose the players
    (``set_players``), then ``advance("decision")`` to run it to its first decision: exactly what loading does.
    Load options (``position``, ``dice``, a game's own) go in ``options``."""
    cls = game_class(game) if isinstance(game, str) else game
    return cls.unstarted(scenario, seed, options)


def replayed(game: Game, fresh: Game | None = None) -> Game:
    """A fresh copy of ``game`` with its record replayed through the public API: each decision applied with
    ``apply`` by a person, each forced roll made with ``force_dice`` at the same point; it rests where ``game``
    rests.  A test compares digests.  ``fresh``: the copy to replay on, with no decision made yet (default:
    ``unstarted`` of the same class, scenario, seed and options; pass one for a class built another way).
    Every decision is a person's in the copy: where the rules depend on who sits at a side (Fire in the Lake's
    Non-players, FITL-8.1), replay a game whose bots are not those seats, or open its save instead."""
    other = fresh if fresh is not None else unstarted(type(game), game.scenario_id, game.seed, game.options)
    other.set_players({s: None for s in other.sides})

    def reach(at: Any, what: str) -> None:
        while tuple(other.position) != tuple(at):
            if len(other.log) > at[0] or other.is_over or other.decision is not None:
                raise AssertionError(
                    f"{what}: the copy does not reach {list(at)} (it is at {list(other.position)})"
                )
            other.advance("ruling")

    for i, entry in enumerate(game.record):
        reach(entry["at"], f"record entry {i}")
        if "act" in entry:
            other.apply(entry["act"])
        else:
            other.force_dice(entry["force"])
    reach(game.position, "the end of the record")
    return other


def stop_at(
    game_id: str,
    phase: str,
    turn: int = 1,
    seed: int = 0,
    scenario: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """A game stopped just after the phase-start ruling of ``phase`` on ``turn``, before the phase's first
    step has begun (the sides played by :class:`Passive` until then).  A test may look at the board, edit
    it, fix dice, then call ``game.set_players(...)`` and ``game.advance("decision")`` to let the phase run.
    (Edits made by hand this way are not part of the record; a lesson uses the ``position`` option.)"""
    game = unstarted(game_id, scenario, seed, options)
    game.set_players({s: Passive() for s in game.sides})
    while not (
        game.turn == turn
        and game.phase is not None
        and game.phase.id == phase
        and game.log
        and game.log[-1].step == "phase"
    ):
        if game.is_over or not game.advance("ruling"):
            raise AssertionError(f"{game_id}: never reached phase {phase!r} of turn {turn}")
    return game


def refused(game: Game, action: Action | Mapping[str, Any] | str, rule: str | None = None) -> IllegalAction:
    """``action`` is refused (citing ``rule`` if given) and the game is left exactly as it was: same digest,
    same log, same record."""
    before = (game.digest(), len(game.log), len(game.record))
    try:
        game.apply(action)
    except IllegalAction as err:
        if rule is not None and err.rule_id != rule:
            raise AssertionError(f"refused under {err.rule_id}, expected {rule}: {err}") from None
        after = (game.digest(), len(game.log), len(game.record))
        if after != before:
            raise AssertionError("the refused action changed the game") from None
        return err
    raise AssertionError(f"{action!r} was not refused")


def random_play(
    game_id: str, seed: int, scenario: str | None = None, *, max_decisions: int = 20_000, **options: Any
) -> Game:
    """Random play (DESIGN.md test layer 4): random players on every side; after every decision the game's
    invariants hold and every change is explained by a ruling; at three random points a save reopens to the
    same digest and Back returns to the same digest.  ``options`` are the game's load options (e.g. Rumor of
    War's ``extras``).  Returns the finished game; AssertionError otherwise."""
    from . import load, open_save

    game = load(game_id, scenario, seed, **options)
    game.set_players({side: None for side in game.sides})
    players = {side: RandomPlayer(seed * 31 + i) for i, side in enumerate(game.sides)}
    rng = random.Random(seed)
    checks = {"save": set(rng.sample(range(400), 3)), "undo": set(rng.sample(range(400), 3))}
    decisions = 0
    while not game.is_over:
        if game.decision is None:
            game.advance("decision")
            continue
        assert game.legal_actions(), f"dead end: {game.decision!r} has no legal actions"
        action = players[game.decision.side].choose(game, game.decision)
        before = game.state_dict()
        rulings = game.apply(action)
        decisions += 1
        problems = game.invariants() + game.transition_problems(before, rulings)
        assert not problems, f"after decision {decisions} ({action.label}): {problems[:5]}"
        if decisions in checks["save"]:
            again = open_save(game.save())
            assert again.digest() == game.digest()
        if decisions in checks["undo"] and game.decision is not None:
            here = game.digest()
            game.apply(game.legal_actions()[0])
            game.undo()
            assert game.digest() == here
        assert decisions < max_decisions, "the game does not end"
    assert game.result is not None
    left = game.unexplained_changes()
    assert not left, f"state changed with no ruling after it (ruling count, change): {left[:5]}"
    return game
