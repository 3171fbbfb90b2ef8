"""Fire in the Lake: the words of the Event effect language (FITL-5.1): the verbs, the boxes, tracks and
markers a step may name, the piece groups, the small arithmetic of numbers, and the context a card's steps run in
(:class:`EvCtx`).  The verbs themselves are :class:`~wargames.fitl.events.vocabulary.EventVocabulary`'s."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from ...core import Action
from ..state import FLIPPABLE, piece_id

Flow = Generator[Any, Any, Any]


BOX_NAMES = {"available": "Available", "casualties": "Casualties", "out_of_play": "Out of Play"}


TRACK_NAMES = {
    "aid": "Aid",
    "patronage": "Patronage",
    "econ": "Total Econ",
    "trail": "the Trail",
    "arvn_resources": "ARVN Resources",
    "nva_resources": "NVA Resources",
    "vc_resources": "VC Resources",
}


STOP = Action.make("stop", "Stop here (the card says 'up to')")


MARKERS = 15  # FITL-3.3.4: Terror and Sabotage markers share one supply of 15


VERBS = {
    v: v
    for v in (
        "place",
        "remove",
        "move",
        "box",
        "flip",
        "track",
        "support",
        "terror",
        "sabotage",
        "roll",
        "eligible",
        "free_op",
        "free_sa",
        "capability",
        "momentum",
        "cancel",
        "note",
        "choose",
        "if",
        "hook",
        "select",
        "tunnel",
        "set",
        "foreach",
    )
}
VERBS["count"] = "tally"


ALL_KEYS = (
    "us_troops",
    "us_bases",
    "us_irregulars:u",
    "us_irregulars:a",
    "arvn_troops",
    "arvn_police",
    "arvn_rangers:u",
    "arvn_rangers:a",
    "arvn_bases",
    "nva_troops",
    "nva_guerrillas:u",
    "nva_guerrillas:a",
    "nva_bases",
    "nva_bases:t",
    "vc_guerrillas:u",
    "vc_guerrillas:a",
    "vc_bases",
    "vc_bases:t",
)


GROUPS: dict[str, tuple[str, ...]] = {
    "US": ("us_troops", "us_bases", "us_irregulars"),
    "ARVN": ("arvn_troops", "arvn_police", "arvn_rangers", "arvn_bases"),
    "NVA": ("nva_troops", "nva_guerrillas", "nva_bases"),
    "VC": ("vc_guerrillas", "vc_bases"),
    "cubes": ("us_troops", "arvn_troops", "arvn_police"),
    "arvn_cubes": ("arvn_troops", "arvn_police"),
    "guerrillas": ("nva_guerrillas", "vc_guerrillas"),
    "insurgent_bases": ("nva_bases", "vc_bases"),
    "troops": ("us_troops", "arvn_troops", "nva_troops"),
}
GROUPS["COIN"] = GROUPS["US"] + GROUPS["ARVN"]
GROUPS["insurgents"] = GROUPS["NVA"] + GROUPS["VC"]
GROUPS["insurgent_non_base"] = ("nva_troops", "nva_guerrillas", "vc_guerrillas")


_OPS: dict[type, Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.floordiv,
    ast.FloorDiv: operator.floordiv,
}


_FUNCS: dict[str, Callable[..., int]] = {"min": min, "max": max}


def _value(node: ast.AST, names: dict[str, int], bad: Callable[[str], ValueError]) -> int:
    """The value of one node of a card's expression (see :func:`arithmetic`); ``bad`` makes the error."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise bad(f"no variable {node.id!r} (set so far: {sorted(names)})")
        return int(names[node.id])
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_value(node.left, names, bad), _value(node.right, names, bad))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _value(node.operand, names, bad)
        return -v if isinstance(node.op, ast.USub) else v
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCS
        and node.args
        and not node.keywords
    ):
        return _FUNCS[node.func.id](*(_value(a, names, bad) for a in node.args))
    raise bad(f"{ast.dump(node)[:40]} is not allowed")


def arithmetic(text: str, names: dict[str, int], label: str = "") -> int:
    """A card's small integer expression (``6-oop_n``, ``min(roll, p)``, ``4*N``, ``cas/2`` rounding down) over
    the step variables ``names``: numbers, variables, + - * / (whole-number division), unary minus, parentheses,
    ``min`` and ``max``.  Read as a syntax tree and computed node by node (Python never runs card text); anything else is a
    ValueError naming the card (``label``) and the expression."""

    def bad(why: str) -> ValueError:
        return ValueError(f"{label}: bad expression {text!r}: {why}")

    try:
        tree = ast.parse(text.strip())
    except SyntaxError:
        raise bad("not an expression") from None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        raise bad("not one expression")
    return int(_value(tree.body[0].value, names, bad))


def expand_keys(spec: str | list[str]) -> list[str]:
    """Board piece keys named by ``spec``: an exact key (``vc_guerrillas:a``), a force-pool id (every state except
    Tunneled, FITL-5.1.1), a faction (``NVA``) or a group (``cubes``, ``guerrillas``, ``COIN``, ``insurgents``)."""
    tokens = [spec] if isinstance(spec, str) else list(spec)
    out: list[str] = []
    for tok in tokens:
        if tok in GROUPS:
            out += expand_keys(list(GROUPS[tok]))
        elif ":" in tok:
            out.append(tok)
        elif tok in FLIPPABLE:
            out += [f"{tok}:u", f"{tok}:a"]
        else:
            out.append(tok)
    seen: list[str] = []
    for k in out:
        if k not in seen:
            seen.append(k)
    return seen


def expand_pids(spec: str | list[str]) -> list[str]:
    """Force-pool ids named by ``spec`` (for placing from a box)."""
    pids: list[str] = []
    for k in expand_keys(spec):
        p = piece_id(k)
        if p not in pids:
            pids.append(p)
    return pids


@dataclass
class EvCtx:
    """One Event being executed: the card, side, executing faction and the variables its steps set."""

    card: int
    title: str
    side: str  # unshaded / shaded / pivotal / leader
    faction: str
    vars: dict[str, Any] = field(default_factory=dict)
    touched: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"Card {self.card} {self.title}, {self.side}"
