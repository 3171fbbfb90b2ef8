"""Fire in the Lake: board measures the Non-players read (FITL-8.1): who would Control a space after pieces
come or go (FITL-1.7), each space's distance to Saigon, and the ARVN piece keys."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame

ARVN_KEYS = ("arvn_troops", "arvn_police", "arvn_rangers", "arvn_bases")


def saigon_distance(game: FitlGame) -> dict[str, int]:
    """Spaces between Saigon and every space (FITL-8.7.3 counts LoCs outward from Saigon)."""
    dist = {"saigon": 0}
    q = deque(["saigon"])
    while q:
        s = q.popleft()
        for n in game.adjacent(s):
            if n not in dist:
                dist[n] = dist[s] + 1
                q.append(n)
    return dist


def control_after(game: FitlGame, s: str, coin_delta: int = 0, insurgent_delta: int = 0) -> str | None:
    """FITL-1.7 Control of ``s`` if COIN / Insurgent pieces there changed by the deltas."""
    b = game.board
    coin = b.count(s, "US") + b.count(s, "ARVN") + coin_delta
    nva, vc = b.count(s, "NVA"), b.count(s, "VC") + insurgent_delta
    if coin > nva + vc:
        return "coin"
    if nva > coin + vc:
        return "nva"
    return None
