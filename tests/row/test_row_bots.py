"""The Rumor of War decision vocabulary (issue #14): every decision the rules code offers names its kind, every
kind is documented in ``wargames.row.bots.DECISION_KINDS``, and the built-in player knows every one of them."""

from __future__ import annotations

import ast
from pathlib import Path

import wargames.row
from wargames.row.bots import DECISION_KINDS, RowBot

ROW = Path(wargames.row.__file__).parent
ASKS = {"decide", "Decision", "enter_fresh", "choose_one"}  # the calls that offer a decision


def _asks():
    """(file:line, the call's name, its kind keyword) for every call that offers a decision in wargames/row."""
    for path in sorted(ROW.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if name in ASKS:
                    kind = next((k.value for k in node.keywords if k.arg == "kind"), None)
                    yield f"{path.name}:{node.lineno}", name, kind


def test_row_every_decision_the_rules_offer_names_a_documented_kind():
    asks = list(_asks())
    assert len(asks) > 60
    missing = [where for where, _, kind in asks if kind is None]
    assert not missing, f"decisions without a kind: {missing}"
    named = {kind.value for _, _, kind in asks if isinstance(kind, ast.Constant)}
    # only the two helpers (enter_fresh, choose_one) pass their own kind parameter on; every other kind is a literal
    passed_on = [name for _, name, kind in asks if not isinstance(kind, ast.Constant)]
    assert passed_on == ["decide", "decide"]
    assert named <= set(DECISION_KINDS), f"undocumented kinds: {sorted(named - set(DECISION_KINDS))}"
    assert set(DECISION_KINDS) <= named, (
        f"documented but never offered: {sorted(set(DECISION_KINDS) - named)}"
    )


def test_row_the_bot_knows_every_documented_kind_and_no_other():
    bot = RowBot("Capitalist")
    assert all(bot.knows(k) for k in DECISION_KINDS)
    answered = {m[3:] for m in dir(RowBot) if m.startswith("on_")} | RowBot.fallback_kinds
    assert answered == set(DECISION_KINDS)
