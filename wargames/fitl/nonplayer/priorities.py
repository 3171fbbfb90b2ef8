"""Fire in the Lake Non-players: the shared priorities (rules 8.1.2, 8.1.3, 8.2, 8.3) and their dice.

* FITL-8.1.3: spaces are taken priority by priority; equal candidates are broken at random (8.2, 8.3).
* FITL-8.1.4: numbered priorities run in order; lettered ones are tie-breakers inside them.  A priority is a
  tuple compared left to right (the first element the numbered step, the next ones the nested letters).
* FITL-8.2 Random Spaces: the Random Spaces Map (its numbering and arrows) is not in our source text, so the
  Non-players use the rules' own PLAY NOTE option: an equal-chance roll among the tied candidates (decision F-70).
* FITL-8.3 Random LoCs: LoCs tied with other spaces come last; among LoCs the highest Econ, then one next to a
  random City, then an equal-chance roll.
* FITL-8.1.2 piece priorities: Bases, then Guerrillas or Special Forces, then Troops and Police (the type fewest in
  the space first, Troops if even); enemy Underground before Active, US before ARVN, VC before NVA.

Dice (decision F-71): a Non-player never rolls ``game.dice`` (the engine replays recorded decisions, not player
calls, so a player's roll on the game's dice would make a replay diverge).  Its "roll now" comes from a
``random.Random`` seeded with the game's seed, the card in play (cards played so far and its number), the faction
and the purpose of the roll; so the same question on the same card gets the same answer (the card decision and the
Operation decision agree), and the same seed and decisions give the same game.  Tie-breaking rolls are seeded with
the number of decisions recorded so far instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ...core.actions import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame

#: FITL-8.1.2: the order enemy pieces are targeted (higher first) by piece id.
PIECE_TIER = {
    "us_bases": 3,
    "arvn_bases": 3,
    "nva_bases": 3,
    "vc_bases": 3,
    "us_irregulars": 2,
    "arvn_rangers": 2,
    "nva_guerrillas": 2,
    "vc_guerrillas": 2,
    "us_troops": 1,
    "arvn_troops": 1,
    "arvn_police": 1,
    "nva_troops": 1,
}


def card_key(game: FitlGame) -> str:
    """The card in play: how many cards were played and its number (FITL-2.3)."""
    return (
        f"{len(getattr(game, 'played', []))}:{getattr(game, 'card', None)}:{getattr(game, 'coups_held', 0)}"
    )


def rng_for(game: FitlGame, faction: str, purpose: str, per: str = "card") -> random.Random:
    """Decision F-71: the deterministic generator of a Non-player's roll (never ``game.dice``)."""
    where = card_key(game) if per == "card" else f"d{len(game.record)}"
    return random.Random(f"fitl-nonplayer:{game.seed}:{where}:{faction}:{purpose}")


def roll(game: FitlGame, faction: str, purpose: str, dice: int = 1) -> list[int]:
    """FITL-8.5.1 / 8.6.1 / ...: "a roll now" of ``dice`` six-sided dice (decision F-71)."""
    r = rng_for(game, faction, purpose)
    return [r.randint(1, 6) for _ in range(dice)]


def random_pick(game: FitlGame, faction: str, spaces: Sequence[str], purpose: str = "tie") -> str:
    """FITL-8.2 / FITL-8.3: one of several equal candidate spaces.  Provinces and Cities before LoCs; among LoCs
    the highest Econ, then one adjacent to a random City, then equal chance (decision F-70 for 8.2)."""
    cands = sorted(set(spaces))
    if len(cands) == 1:
        return cands[0]
    r = rng_for(game, faction, purpose, per="decision")
    pcs = [s for s in cands if game.data.spaces[s].kind != "loc"]
    if pcs:
        return pcs[r.randrange(len(pcs))]
    top = max(game.data.spaces[s].econ for s in cands)
    cands = [s for s in cands if game.data.spaces[s].econ == top]
    if len(cands) > 1:
        cities = sorted(s for s, sp in game.data.spaces.items() if sp.kind == "city")
        city = cities[r.randrange(len(cities))]
        near = [s for s in cands if city in game.data.adjacent[s]]
        if near:
            cands = near
    return cands[r.randrange(len(cands))]


def best_action(
    game: FitlGame,
    faction: str,
    options: Sequence[Action],
    key: Callable[[Action], Any],
    space_of: Callable[[Action], str | None] | None = None,
) -> Action:
    """FITL-8.1.3: the option with the highest priority ``key``; equal ones broken by FITL-8.2 / FITL-8.3 on their
    spaces (else the first)."""
    scored = [(key(a), i, a) for i, a in enumerate(options)]
    top = max(s for s, _, _ in scored)
    tied = [a for s, _, a in scored if s == top]
    if len(tied) == 1:
        return tied[0]
    get = space_of or (lambda a: a.get("space"))
    spaces = [get(a) for a in tied]
    if all(s in game.data.spaces for s in spaces) and len(set(spaces)) == len(spaces):
        chosen = random_pick(game, faction, spaces)
        return tied[spaces.index(chosen)]
    return tied[0]


def piece_pid(key: str) -> str:
    return key.split(":", 1)[0]


def target_priority(game: FitlGame, space: str, key: str) -> tuple[int, ...]:
    """FITL-8.1.2: how strongly an enemy piece ``key`` in ``space`` is preferred as a target (higher first):
    Bases, then Guerrillas/Special Forces, then Troops and Police evenly (the type fewest in the space first,
    Troops if even, the last Police kept for last); Underground before Active; US before ARVN; VC before NVA."""
    pid = piece_pid(key)
    tier = PIECE_TIER.get(pid, 0)
    under = 1 if key.endswith(":u") else 0
    nation = 1 if pid.startswith(("us_", "vc_")) else 0
    even = 0
    if pid in ("arvn_troops", "arvn_police"):
        b = game.board.pieces[space]
        t, p = b["arvn_troops"], b["arvn_police"]
        mine, other = (t, p) if pid == "arvn_troops" else (p, t)
        last_police = pid == "arvn_police" and p == 1 and t > 0
        even = -1 if last_police else (1 if mine < other or (mine == other and pid == "arvn_troops") else 0)
    return (tier, under, nation, even)


def population(game: FitlGame, space: str) -> int:
    return game.data.spaces[space].population


def country(game: FitlGame, space: str) -> str:
    return game.data.spaces[space].country
