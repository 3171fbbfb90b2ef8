"""Shared fixtures: a fresh Tet game at its first decision, and a small helper to find actions."""

from __future__ import annotations

import pytest

import wargames


@pytest.fixture
def tet():
    return wargames.load("tet", scenario="historical", seed=7)


def pick(game, kind: str, **params):
    """The legal action of ``kind`` whose params include ``params``."""
    for a in game.legal_actions():
        if a.kind == kind and all(a.get(k) == v for k, v in params.items()):
            return a
    raise AssertionError(f"no legal {kind} {params} among {len(game.legal_actions())} actions")
