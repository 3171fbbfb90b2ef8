"""The errors the engine raises when it is misused or when the rules code fails (see :mod:`wargames.core.engine`)."""

from __future__ import annotations

from .actions import WargamesError


class EngineError(WargamesError):
    """Misuse of the engine (e.g. apply with no decision pending, undo at the start)."""


class StepFailed(EngineError):
    """The rules code failed inside an automatic step (a procedure, a built-in player's choice, an event): the game
    was put back where it last rested, exactly as it was (issue #30 item 1).  The original error is the cause."""
