"""Fire in the Lake: Operations and Special Activities (rules 3.x and 4.x) as a mixin of the game.

Interface used by the sequence of play (``game.py``):

* ``op_choices(faction, limited)`` -> the Operations ``faction`` could legally start now (names);
* ``operation(faction, *, limited, with_sa, free=False)`` -> a procedure (generator of rulings and
  decisions) that lets ``faction`` pick one Operation, its spaces and pieces, pay for it, and (when
  ``with_sa``) add a Special Activity.

Skeleton: no Operation is offered yet, so every faction can only Pass (to be filled in).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any


class OperationsRules:
    """Mixin: FITL-3.0 Operations and FITL-4.0 Special Activities."""

    def op_choices(self, faction: str, limited: bool) -> list[str]:
        return []

    def operation(self, faction: str, *, limited: bool, with_sa: bool, free: bool = False) -> Generator[Any, Any, None]:
        return
        yield
