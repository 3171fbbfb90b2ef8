"""Fire in the Lake: the effect-step interpreter for Event cards (rules 5.1-5.5).

A card side is a list of *steps* (``data/fitl/events/*.yaml``).  Each step is a mapping with ``do:`` naming
one verb of this small vocabulary; :meth:`EventVocabulary.run_steps` carries them out literally and in order
(FITL-5.1), every change followed by a ruling citing the card ("Card 1 Gulf of Tonkin, unshaded: ...") and the
rule applied.  Verbs:

* ``place``   pieces from a box (Available unless ``from:`` says out_of_play/casualties; FITL-5.1.1) onto spaces
  matching ``where``; ``n`` (int, ``all`` or a variable), ``each`` (n in every matching space), ``in_spaces``
  (at most k spaces), ``max_per_space``, ``upto`` (the chooser may stop), ``by`` (who chooses; FITL-5.1),
  ``state: a`` to place flippable pieces Active.  Stacking (FITL-1.4.2) is always respected.
* ``remove``  pieces (``pieces``: keys, force-pool ids or groups) from spaces matching ``where`` to ``to``
  (available / casualties / out_of_play); Tunneled Bases only when named with ``:t`` (FITL-5.1.1).
* ``move``    pieces from spaces matching ``from_where`` to spaces matching ``to_where`` (``adjacent: true``:
  only to a space next to the origin).
* ``box``     pieces between boxes (``from``, ``to``), e.g. every Casualty to Out of Play.
* ``flip``    Activate (``to: a``) or send Underground (``to: u``) flippable pieces.
* ``track``   ``track`` += ``delta`` (int or variable, ``times`` multiplies it) or ``set``; clamped 0-75 and the
  Trail 0-4 (FITL-1.8, FITL-5.1.1).
* ``support`` shift ``shift`` levels (+ toward Active Support, - toward Active Opposition) or ``set`` a level in
  ``n`` chosen spaces (or ``all``) matching ``where``; only populated Provinces and Cities (FITL-1.6).
* ``terror`` / ``sabotage``  place (or ``remove: true``) markers (FITL-3.3.4: 15 markers in all).
* ``count``   set a variable to a number: pieces on ``where``, pieces in a ``box``, a ``track``'s value, the number
  of matching spaces (``spaces: true``) or of cards in the RVN Leader box (``leader_box: true``); ``roll``: 1 die
  into a variable; ``set``: a variable to a value.  Numbers (``n``, ``delta``) may be ints, variables or small
  expressions over them (``6-oop_n``, ``min(roll, p)``, ``4*N``; ``/`` rounds down).
* ``select``  choose spaces matching ``where`` into a variable (``upto``/``optional``: fewer allowed); later steps
  use ``where: {var_spaces: name}``; ``foreach`` runs steps once per selected space (``here``).
* ``tunnel``  put Tunnel markers on untunneled Insurgent Bases (FITL-1.4.4, 6 markers).
* ``eligible`` set ``factions`` Eligible (``true``) or Ineligible for the next card (FITL-2.3.6 via ``eligibility_next``).
* ``free_op`` / ``free_sa``  a free Operation / Special Activity (FITL-5.5, FITL-3.1.2) through the Operations mixin;
  recorded as "free op (pending)" when that code is not present.  ``where`` confines the Operation's spaces: passed
  as ``operation(..., spaces=...)`` as soon as the ops API accepts that keyword (decision F-111).
* ``capability`` / ``momentum``  the lasting modifiers (FITL-5.3, FITL-5.4); ``cancel``: remove a Capability marker
  or Momentum card; ``note``: a ruling only (e.g. a marker aid such as Peace Talks, kept in ``event_flags``).
* ``choose``  a choice by a named faction among ``options`` (each ``label`` + ``steps``), offered as Actions.
* ``if``      ``cond`` then ``then`` else ``else`` (conditions: see :meth:`EventVocabulary.ev_cond`).
* ``hook``    a named function of ``hooks.py`` for a card the vocabulary cannot express.

Space filters (``where``): spaces, not_spaces, var_spaces, kind, country, south, outside_south, terrain, pop_min,
econ_min, coastal, support / support_min / support_max, control (coin / nva / none / not_coin / not_nva), has
(pieces with min), at_most, lacks, near (pieces here or next door), adjacent_to, adjacent_to_var, more ([a, b]: more
a than b), terror, sabotaged, any (one of several filters), not.  Pieces are keys (``vc_guerrillas:a``), force-pool
ids (every state but Tunneled) or groups (``US``, ``COIN``, ``insurgents``, ``cubes``, ``guerrillas``...).

Decisions: kind ``event_piece`` (Actions ``pick`` with ``space``/``key``, plus ``stop`` when optional),
``event_space`` (Actions ``space``), ``event_choice`` (Actions ``option`` with ``index``).  A choice not offered
raises IllegalAction naming the card and the rule; the engine rolls the game back.
"""

from __future__ import annotations

import ast
import inspect
import operator
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ...core import Action, IllegalAction
from ..data import COIN, LEVEL_NAMES
from ..state import FLIPPABLE, default_key, piece_id, piece_state
from .schema import check_where

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


def arithmetic(text: str, names: dict[str, int], label: str = "") -> int:
    """A card's small integer expression (``6-oop_n``, ``min(roll, p)``, ``4*N``, ``cas/2`` rounding down) over
    the step variables ``names``: numbers, variables, + - * / (whole-number division), unary minus, parentheses,
    ``min`` and ``max``.  Read as a syntax tree and computed node by node (Python never runs card text); anything else is a
    ValueError naming the card (``label``) and the expression."""

    def bad(why: str) -> ValueError:
        return ValueError(f"{label}: bad expression {text!r}: {why}")

    def value(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise bad(f"no variable {node.id!r} (set so far: {sorted(names)})")
            return int(names[node.id])
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = value(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCS
            and node.args
            and not node.keywords
        ):
            return _FUNCS[node.func.id](*(value(a) for a in node.args))
        raise bad(f"{ast.dump(node)[:40]} is not allowed")

    try:
        tree = ast.parse(text.strip())
    except SyntaxError:
        raise bad("not an expression") from None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        raise bad("not one expression")
    return int(value(tree.body[0].value))


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


class EventVocabulary:
    """Mixin: the verbs of the Event effect language (FITL-5.1); used by :class:`EventRules`."""

    board: Any
    data: Any
    dice: Any

    # ------------------------------------------------------------------ small helpers
    def ev_sname(self, s: str) -> str:
        return self.data.spaces[s].name

    def ev_kname(self, key: str, n: int = 1) -> str:
        key, _, box = key.partition("@")  # "arvn_troops@out_of_play": a piece and the box it would come from
        if box:
            return f"{self.ev_kname(key, n)} from {BOX_NAMES[box]}"
        pid, st = piece_id(key), piece_state(key)
        name = self.data.pieces[pid].name
        if n == 1 and name.endswith("s") and not name.endswith("Police"):
            name = name[:-1]
        word = {"u": "Underground ", "a": "Active ", "t": "Tunneled ", "": ""}[st]
        return f"{n} {word}{name}"

    def ev_rule(self, ctx: EvCtx, rule: str, title: str, text: str, **kw: Any) -> Any:
        return self.ruling(
            rule,
            f"{ctx.label}: {title}",
            f"{ctx.label}: {text}",
            inputs={"card": ctx.card, "side": ctx.side, "faction": ctx.faction},
            **kw,
        )

    def ev_chooser(self, ctx: EvCtx, step: dict[str, Any]) -> str:
        """FITL-5.1: the executing faction chooses unless the card names another."""
        by = step.get("by", "executing")
        return ctx.faction if by == "executing" else by

    def ev_num(self, ctx: EvCtx, value: Any) -> int | None:
        """An int, a variable name, or ``all`` (None: no limit)."""
        if value is None or value == "all":
            return None
        if isinstance(value, str):
            return max(0, self.ev_expr(ctx, value))
        return int(value)

    def ev_expr(self, ctx: EvCtx, text: str) -> int:
        """A variable or a small arithmetic expression over variables (``6-placed_n``, ``casualties/2``: floor)."""
        if text in ctx.vars:
            return int(ctx.vars[text])
        names = {k: v for k, v in ctx.vars.items() if isinstance(v, int)}
        return arithmetic(text, names, ctx.label)

    # ------------------------------------------------------------------ space filters
    def ev_spaces(self, ctx: EvCtx, where: dict[str, Any] | None) -> list[str]:
        """Spaces matching a filter (its keys: ``schema.WHERE_KEYS``; an unknown key is an error, never a match)."""
        where = where or {}
        check_where(ctx.label, where)
        return [s for s in self.data.spaces if self.ev_match(ctx, s, where)]

    def ev_match(self, ctx: EvCtx, s: str, w: dict[str, Any]) -> bool:
        sp = self.data.spaces[s]
        b = self.board

        def listify(v: Any) -> list[Any]:
            return v if isinstance(v, list) else [v]

        if "spaces" in w and s not in listify(w["spaces"]):
            return False
        if "not_spaces" in w and s in listify(w["not_spaces"]):
            return False
        if "var_spaces" in w and s not in ctx.vars.get(w["var_spaces"], []):
            return False
        if "not_var_spaces" in w and s in ctx.vars.get(w["not_var_spaces"], []):
            return False
        if "kind" in w and sp.kind not in listify(w["kind"]):
            return False
        if "country" in w and sp.country not in listify(w["country"]):
            return False
        if w.get("south") and sp.country != "SVN":
            return False
        if w.get("outside_south") and sp.country == "SVN":
            return False
        if "terrain" in w and (sp.terrain or "") not in listify(w["terrain"]):
            return False
        if "pop_min" in w and sp.population < w["pop_min"]:
            return False
        if "econ_min" in w and sp.econ < w["econ_min"]:
            return False
        if w.get("coastal") and not sp.coastal:
            return False
        if "support" in w and b.support[s] not in listify(w["support"]):
            return False
        if "support_min" in w and b.support[s] < w["support_min"]:
            return False
        if "support_max" in w and b.support[s] > w["support_max"]:
            return False
        if "control" in w:
            c = b.control(s)
            want = listify(w["control"])
            if not any(
                (x == "none" and c is None)
                or x == c
                or (x == "not_coin" and c != "coin")
                or (x == "not_nva" and c != "nva")
                for x in want
            ):
                return False
        for cond in listify(w.get("has", [])):
            if self.ev_count_pieces(s, cond["pieces"]) < cond.get("min", 1):
                return False
        for cond in listify(w.get("at_most", [])):
            if self.ev_count_pieces(s, cond["pieces"]) > cond["max"]:
                return False
        for cond in listify(w.get("lacks", [])):
            if self.ev_count_pieces(s, cond["pieces"]) > 0:
                return False
        if "adjacent_to_var" in w:
            targets = ctx.vars.get(w["adjacent_to_var"], [])
            if not any(s == t or s in self.data.adjacent.get(t, ()) for t in targets):
                return False
        if "more" in w:  # [a, b]: more pieces of spec a than of spec b
            a, b2 = w["more"]
            if self.ev_count_pieces(s, a) <= self.ev_count_pieces(s, b2):
                return False
        if "any" in w and not any(self.ev_match(ctx, s, f) for f in w["any"]):
            return False
        if "near" in w:  # this space or one next to it holds the pieces
            spec = w["near"]
            if not any(self.ev_count_pieces(t, spec) for t in [s, *self.data.adjacent.get(s, ())]):
                return False
        if "adjacent_to" in w:
            targets = listify(w["adjacent_to"])
            if not any(s in self.data.adjacent.get(t, ()) for t in targets):
                return False
        if w.get("terror") is True and not b.terror[s]:
            return False
        if w.get("sabotaged") is True and s not in b.sabotage:
            return False
        if "not" in w and self.ev_match(ctx, s, w["not"]):
            return False
        return True

    def ev_can_stack(self, s: str, pid: str) -> bool:
        """FITL-1.4.2 / FITL-5.1.1: no Base on a LoC or a third Base; no US/ARVN piece in North Vietnam."""
        sp = self.data.spaces[s]
        row = self.data.pieces[pid]
        if row.type == "bases" and (sp.kind == "loc" or self.board.count(s, ptype="bases") >= 2):
            return False
        return not (row.faction in COIN and sp.country == "NVN")

    # ------------------------------------------------------------------ the interpreter
    def run_steps(self, ctx: EvCtx, steps: list[dict[str, Any]]) -> Flow:
        """FITL-5.1: carry out ``steps`` literally and in order; FITL-5.1.3: do what can be done."""
        for step in steps:
            do = step.get("do")
            fn: Callable[[EvCtx, dict[str, Any]], Flow] | None = getattr(
                self, f"ev_{VERBS.get(do, '?')}", None
            )
            if fn is None:
                raise ValueError(f"{ctx.label}: unknown event step {do!r}")
            yield from fn(ctx, step)

    # -- pieces -----------------------------------------------------------
    def _pick_loop(
        self,
        ctx: EvCtx,
        step: dict[str, Any],
        options_fn: Callable[[list[str]], list[tuple[str, str]]],
        apply_fn: Callable[[str, str], str],
        verb: str,
        rule: str,
    ) -> Flow:
        """Up to ``n`` times choose one legal (space, key) and apply it; ``each`` repeats per space.
        Returns the (space, key) pairs done."""
        n = self.ev_num(ctx, step.get("n", 1))
        upto = bool(step.get("upto"))
        side = self.ev_chooser(ctx, step)
        k_spaces = step.get("in_spaces")
        per = step.get("max_per_space")
        done: list[tuple[str, str]] = []
        groups: list[list[str] | None] = [None]
        if step.get("each"):
            groups = [[s] for s in self.ev_spaces(ctx, step.get("where"))]
        for group in groups:
            got: list[tuple[str, str]] = []
            if group and step.get("each_count"):  # n for this space = pieces of a kind there before the step
                n = self.ev_count_pieces(group[0], step["each_count"])
            while n is None or len(got) < n:
                opts = options_fn(group or [])
                used = {s for s, _ in done}
                if k_spaces is not None and len(used) >= k_spaces:
                    opts = [(s, k) for s, k in opts if s in used]
                if per is not None:
                    opts = [(s, k) for s, k in opts if sum(1 for x, _ in done if x == s) < per]
                if not opts:
                    break
                if (len(opts) == 1 or n is None and verb in ("remove", "flip")) and not upto:
                    s, k = opts[0]  # one choice, or "all of them": the order cannot matter
                else:
                    actions = [
                        Action.make(
                            "pick",
                            f"{verb.capitalize()} {self.ev_kname(k)} "
                            f"{'in' if verb != 'move' else 'from'} {self.ev_sname(s)}",
                            places=[s],
                            space=s,
                            key=k,
                        )
                        for s, k in opts
                    ]
                    if upto:
                        actions.append(STOP)
                    left = "" if n is None else f" ({n - len(got)} to go)"
                    a = yield self.decide(
                        side,
                        f"{ctx.label}: {verb} which piece?{left}",
                        rule,
                        actions,
                        kind="event_piece",
                        card=ctx.card,
                        event_side=ctx.side,
                        step=verb,
                        check=self._ev_check(ctx, rule, f"that piece cannot be {verb}d"),
                    )
                    if a.kind == "stop":
                        break
                    s, k = a["space"], a["key"]
                text = apply_fn(s, k)
                got.append((s, k))
                done.append((s, k))
                ctx.touched.append(s)
                yield self.ev_rule(
                    ctx,
                    rule,
                    verb.capitalize(),
                    text,
                    places=[s],
                    changes=[{"space": s, "key": k, "verb": verb}],
                )
        if step.get("var"):
            ctx.vars[step["var"]] = sorted({s for s, _ in done})
            ctx.vars[step["var"] + "_n"] = len(done)
        return done

    def _ev_check(self, ctx: EvCtx, rule: str, why: str) -> Callable[[Action], IllegalAction]:
        def check(a: Action) -> IllegalAction:
            return IllegalAction(rule, f"{ctx.label}: {why} ({a.label or a.kind} is not offered)")

        return check

    def ev_place(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.1.1: place pieces from a box (only Available ones unless the card names Out of Play or
        Casualties), never breaking stacking (FITL-1.4.2).  When the card allows several boxes and the piece is in
        more than one, the chooser picks the box too (key ``piece@box``; a Non-player by FITL-8.4.3)."""
        sources = step.get("from", "available")
        sources = sources if isinstance(sources, list) else [sources]
        pids = expand_pids(step["pieces"])
        spaces = self.ev_spaces(ctx, step.get("where"))
        state = step.get("state")

        def options(group: list[str]) -> list[tuple[str, str]]:
            out = []
            for s in group or spaces:
                for p in pids:
                    boxes = [b for b in sources if getattr(self.board, b)[p] > 0]
                    if not boxes or not self.ev_can_stack(s, p):
                        continue
                    out += [(s, f"{p}@{b}") for b in boxes] if len(boxes) > 1 else [(s, p)]
            return out

        def apply(s: str, p: str) -> str:
            p, _, box = p.partition("@")
            box = box or next(b for b in sources if getattr(self.board, b)[p] > 0)
            self.board.place(s, p, 1, source=box)
            key = default_key(p)
            if state == "a" and p in FLIPPABLE:
                self.board.flip(s, p, "a")
                key = f"{p}:a"
            return f"{self.ev_kname(key)} from {BOX_NAMES[box]} to {self.ev_sname(s)}"

        done = yield from self._pick_loop(ctx, step, options, apply, "place", step.get("rule", "FITL-5.1.1"))
        if not done:
            yield self.ev_rule(
                ctx,
                "FITL-5.1.3",
                "Nothing to place",
                "no such piece could be placed (none in the box, or stacking forbids it), so this "
                "part of the Event is skipped.",
                result={"placed": 0},
            )
        return done

    def ev_remove(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Remove pieces to a box (FITL-1.4.1); Tunneled Bases only when the step names them (FITL-5.1.1)."""
        keys = expand_keys(step["pieces"])
        to = step.get("to", "available")
        spaces = self.ev_spaces(ctx, step.get("where"))
        us_to = step.get("us_to")  # e.g. US pieces to Casualties while others go to Available

        def options(group: list[str]) -> list[tuple[str, str]]:
            return [(s, k) for s in (group or spaces) for k in keys if self.board.pieces[s][k] > 0]

        def apply(s: str, k: str) -> str:
            box = us_to if us_to and piece_id(k).startswith("us_") else to
            self.board.remove(s, k, 1, to=box)
            return f"{self.ev_kname(k)} removed from {self.ev_sname(s)} to {BOX_NAMES[box]}"

        done = yield from self._pick_loop(ctx, step, options, apply, "remove", step.get("rule", "FITL-5.1"))
        if not done:
            yield self.ev_rule(
                ctx,
                "FITL-5.1.3",
                "Nothing to remove",
                "no such piece is there to remove.",
                result={"removed": 0},
            )
        return done

    def ev_move(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Move pieces between spaces (each piece: origin then destination), respecting stacking (FITL-1.4.2)."""
        keys = expand_keys(step["pieces"])
        origins = self.ev_spaces(ctx, step.get("from_where"))
        dests = self.ev_spaces(ctx, step.get("to_where"))
        adjacent = bool(step.get("adjacent"))
        side = self.ev_chooser(ctx, step)
        rule = step.get("rule", "FITL-5.1")

        def legal_dests(s: str, k: str) -> list[str]:
            out = [d for d in dests if d != s and self.ev_can_stack(d, piece_id(k))]
            if adjacent:
                out = [d for d in out if d in self.data.adjacent.get(s, ())]
            return out

        def options(group: list[str]) -> list[tuple[str, str]]:
            return [
                (s, k)
                for s in (group or origins)
                for k in keys
                if self.board.pieces[s][k] > 0 and legal_dests(s, k)
            ]

        n = self.ev_num(ctx, step.get("n", 1))
        moved: list[tuple[str, str]] = []
        while n is None or len(moved) < n:
            opts = options([])
            if not opts:
                break
            if len(opts) == 1 and not step.get("upto"):
                s, k = opts[0]
            else:
                acts = [
                    Action.make(
                        "pick", f"Move {self.ev_kname(k)} from {self.ev_sname(s)}", places=[s], space=s, key=k
                    )
                    for s, k in opts
                ]
                if step.get("upto"):
                    acts.append(STOP)
                a = yield self.decide(
                    side,
                    f"{ctx.label}: move which piece?",
                    rule,
                    acts,
                    kind="event_piece",
                    card=ctx.card,
                    event_side=ctx.side,
                    step="move_from",
                    check=self._ev_check(ctx, rule, "that piece may not move"),
                )
                if a.kind == "stop":
                    break
                s, k = a["space"], a["key"]
            ds = legal_dests(s, k)
            if len(ds) == 1:
                d = ds[0]
            else:
                a = yield self.decide(
                    side,
                    f"{ctx.label}: move {self.ev_kname(k)} from {self.ev_sname(s)} to?",
                    rule,
                    [Action.make("space", self.ev_sname(d), places=[d], space=d) for d in ds],
                    kind="event_space",
                    card=ctx.card,
                    event_side=ctx.side,
                    step="move_to",
                    check=self._ev_check(ctx, rule, "that destination is not allowed"),
                )
                d = a["space"]
            self.board.move(s, d, k, 1)
            ctx.touched.append(d)
            text = f"{self.ev_kname(k)} moved from {self.ev_sname(s)} to {self.ev_sname(d)}"
            moved.append((s, k))
            yield self.ev_rule(
                ctx, rule, "Move", text, places=[s, d], changes=[{"from": s, "to": d, "key": k}]
            )
        if not moved:
            yield self.ev_rule(
                ctx, "FITL-5.1.3", "Nothing to move", "no such piece can move.", result={"moved": 0}
            )
        if step.get("var"):
            ctx.vars[step["var"] + "_n"] = len(moved)
            ctx.vars[step["var"]] = [s for s, _ in moved]  # origins, one per piece moved
        return moved

    def ev_box(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Pieces from one box to another (e.g. Casualties to Out of Play); ``n`` or all (FITL-5.1.3).  When only
        some of several piece types can go, the chooser (FITL-5.1) picks them one at a time before anything moves;
        'up to' box moves take as many as they can (decision F-110)."""
        src, dst = step["from"], step["to"]
        pids = expand_pids(step.get("pieces", list(GROUPS["COIN"] + GROUPS["insurgents"])))
        n = self.ev_num(ctx, step.get("n", "all"))
        box, target = getattr(self.board, src), getattr(self.board, dst)
        present = [p for p in pids if box[p] > 0]
        total = sum(box[p] for p in present)
        plan: dict[str, int] = {}
        if n is not None and n < total and len(present) > 1:
            side = self.ev_chooser(ctx, step)
            rule = step.get("rule", "FITL-1.4.1")
            for _ in range(n):
                opts = [
                    Action.make(
                        "option",
                        f"{self.data.pieces[p].name} ({box[p] - plan.get(p, 0)} in {BOX_NAMES[src]})",
                        index=i,
                        piece=p,
                    )
                    for i, p in enumerate(present)
                    if box[p] - plan.get(p, 0) > 0
                ]
                a = (
                    opts[0]
                    if len(opts) == 1
                    else (
                        yield self.decide(
                            side,
                            f"{ctx.label}: which piece from {BOX_NAMES[src]} to {BOX_NAMES[dst]}?",
                            rule,
                            opts,
                            kind="event_choice",
                            card=ctx.card,
                            event_side=ctx.side,
                            step="box",
                            box_from=src,
                            box_to=dst,
                            check=self._ev_check(ctx, rule, "no such piece in that box"),
                        )
                    )
                )
                plan[a["piece"]] = plan.get(a["piece"], 0) + 1
        else:
            left = n
            for p in present:
                k = box[p] if left is None else min(box[p], left)
                if k > 0:
                    plan[p] = k
                    if left is not None:
                        left -= k
        moved: dict[str, int] = {}
        for p in pids:
            if plan.get(p):
                box[p] -= plan[p]
                target[p] += plan[p]
                moved[p] = plan[p]
        if step.get("var"):
            ctx.vars[step["var"] + "_n"] = sum(moved.values())
        text = ", ".join(self.ev_kname(p, k) for p, k in moved.items()) or "nothing"
        yield self.ev_rule(
            ctx,
            step.get("rule", "FITL-1.4.1"),
            f"{BOX_NAMES[src]} to {BOX_NAMES[dst]}",
            f"{text} from {BOX_NAMES[src]} to {BOX_NAMES[dst]}.",
            result={"moved": moved},
            changes=[{"box": src, "to_box": dst, "pieces": moved}],
        )
        return moved

    def ev_tunnel(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-1.4.4: put a Tunnel marker on an untunneled NVA or VC Base (6 markers in all)."""
        spaces = self.ev_spaces(ctx, step.get("where"))

        def options(group: list[str]) -> list[tuple[str, str]]:
            used = sum(c[k] for c in self.board.pieces.values() for k in ("nva_bases:t", "vc_bases:t"))
            if used >= 6:
                return []
            return [
                (s, k)
                for s in (group or spaces)
                for k in ("nva_bases", "vc_bases")
                if self.board.pieces[s][k]
            ]

        def apply(s: str, k: str) -> str:
            self.board.pieces[s][k] -= 1
            if not self.board.pieces[s][k]:
                del self.board.pieces[s][k]
            self.board.pieces[s][f"{k}:t"] += 1
            return f"a Tunnel marker goes on {self.ev_kname(k)} in {self.ev_sname(s)}"

        done = yield from self._pick_loop(ctx, step, options, apply, "tunnel", "FITL-1.4.4")
        if not done:
            yield self.ev_rule(
                ctx, "FITL-5.1.3", "No Tunnel", "no untunneled Base qualifies (or no marker is left)."
            )

    def ev_flip(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-1.4.3: Activate (``to: a``) or send Underground (``to: u``) pieces."""
        to = step["to"]
        frm = "u" if to == "a" else "a"
        pids = [p for p in expand_pids(step["pieces"]) if p in FLIPPABLE]
        spaces = self.ev_spaces(ctx, step.get("where"))

        def options(group: list[str]) -> list[tuple[str, str]]:
            return [
                (s, f"{p}:{frm}")
                for s in (group or spaces)
                for p in pids
                if self.board.pieces[s][f"{p}:{frm}"]
            ]

        def apply(s: str, k: str) -> str:
            self.board.flip(s, piece_id(k), to)
            return (
                f"{self.ev_kname(k)} in {self.ev_sname(s)} turns {'Active' if to == 'a' else 'Underground'}"
            )

        step = {"n": "all", **step}
        done = yield from self._pick_loop(ctx, step, options, apply, "flip", step.get("rule", "FITL-1.4.3"))
        return done

    # -- tracks, support, markers ------------------------------------------
    def ev_track(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-1.8 / FITL-5.1.1: move a track within its range (Resources, Aid, Patronage 0-75; Trail 0-4)."""
        t = step["track"]
        old = self.board.tracks[t]
        if step.get("half"):
            want = old // 2
            how = "halved (rounded down)"
        elif "set" in step:
            want = int(step["set"])
            how = f"set to {want}"
        else:
            d = step["delta"]
            d = self.ev_expr(ctx, d) if isinstance(d, str) else int(d)
            d *= int(step.get("times", 1))
            want = old + d
            how = f"{d:+d}"
        self.board.shift_track(t, want - old)
        new = self.board.tracks[t]
        clamp = " (held by the track's limits, FITL-1.8)" if new != want else ""
        changes: list[dict[str, Any]] = [{"track": t, "from": old, "to": new}]
        adsid_fn = getattr(
            self, "adsid_change", None
        )  # FITL-5.4-MOM #7 ADSID: an Event's Trail change costs too
        adsid = adsid_fn(changes[0]) if t == "trail" and adsid_fn is not None else None
        if adsid:
            changes.append(adsid[0])
        yield self.ev_rule(
            ctx,
            step.get("rule", "FITL-1.8"),
            TRACK_NAMES[t],
            f"{TRACK_NAMES[t]} {how}: {old} -> {new}{clamp}." + (adsid[1] if adsid else ""),
            result={t: new},
            changes=changes,
        )

    def ev_support(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-1.6: shift (or set) Support/Opposition in chosen populated Provinces and Cities."""
        where = {**(step.get("where") or {})}
        cands = [
            s
            for s in self.ev_spaces(ctx, where)
            if self.data.spaces[s].kind != "loc" and self.data.spaces[s].population > 0
        ]
        shift = step.get("shift")
        target = step.get("set")

        def new_level(s: str) -> int:
            old = self.board.support[s]
            return int(target) if target is not None else max(-2, min(2, old + int(shift)))

        cands = [s for s in cands if new_level(s) != self.board.support[s]]
        n = self.ev_num(ctx, step.get("n", 1))
        side = self.ev_chooser(ctx, step)
        rule = step.get("rule", "FITL-1.6")
        chosen: list[str] = []
        while cands and (n is None or len(chosen) < n):
            if n is None or len(cands) <= n - len(chosen) and not step.get("upto"):
                s = cands[0]
            else:
                acts = [
                    Action.make(
                        "space",
                        f"{self.ev_sname(s)} ({LEVEL_NAMES[self.board.support[s]]} -> "
                        f"{LEVEL_NAMES[new_level(s)]})",
                        places=[s],
                        space=s,
                    )
                    for s in cands
                ]
                if step.get("upto"):
                    acts.append(STOP)
                a = yield self.decide(
                    side,
                    f"{ctx.label}: shift which space?",
                    rule,
                    acts,
                    kind="event_space",
                    card=ctx.card,
                    event_side=ctx.side,
                    step="support",
                    levels={s: (self.board.support[s], new_level(s)) for s in cands},
                    check=self._ev_check(ctx, rule, "that space cannot shift"),
                )
                if a.kind == "stop":
                    break
                s = a["space"]
            old, new = self.board.support[s], new_level(s)
            self.board.support[s] = new
            cands.remove(s)
            chosen.append(s)
            ctx.touched.append(s)
            yield self.ev_rule(
                ctx,
                rule,
                "Support/Opposition",
                f"{self.ev_sname(s)} {LEVEL_NAMES[old]} -> {LEVEL_NAMES[new]}.",
                places=[s],
                changes=[{"support": s, "from": old, "to": new}],
            )
        if not chosen:
            yield self.ev_rule(
                ctx, "FITL-5.1.3", "No shift", "no eligible space can shift.", result={"shifted": 0}
            )
        ctx.vars["shifted"] = chosen

    def _markers_free(self) -> int:
        return MARKERS - sum(self.board.terror.values()) - len(self.board.sabotage)

    def ev_terror(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-3.3.4: place (or remove) Terror markers in chosen spaces (at most the 15 markers)."""
        yield from self._marker(ctx, step, "terror")

    def ev_sabotage(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-3.3.4: place (or remove) Sabotage markers on LoCs."""
        yield from self._marker(ctx, step, "sabotage")

    def _marker(self, ctx: EvCtx, step: dict[str, Any], what: str) -> Flow:
        remove = bool(step.get("remove"))
        where = step.get("where") or {}
        base = [
            s
            for s in self.ev_spaces(ctx, where)
            if (self.data.spaces[s].kind == "loc") == (what == "sabotage")
        ]
        n = self.ev_num(ctx, step.get("n", 1))
        done: list[str] = []
        side = self.ev_chooser(ctx, step)
        while n is None or len(done) < n:
            if remove:
                cands = [
                    s
                    for s in base
                    if (self.board.terror[s] if what == "terror" else s in self.board.sabotage)
                ]
            else:
                cands = [
                    s
                    for s in base
                    if self._markers_free() > 0
                    and s not in done
                    and (what == "terror" or s not in self.board.sabotage)
                ]
            if not cands:
                break
            if n is None or len(cands) == 1:
                s = cands[0]
            else:
                a = yield self.decide(
                    side,
                    f"{ctx.label}: {what} marker where?",
                    "FITL-3.3.4",
                    [Action.make("space", self.ev_sname(s), places=[s], space=s) for s in cands],
                    kind="event_space",
                    card=ctx.card,
                    event_side=ctx.side,
                    step=what,
                    check=self._ev_check(ctx, "FITL-3.3.4", "no marker may go there"),
                )
                s = a["space"]
            if what == "terror":
                self.board.terror[s] += -1 if remove else 1
                if self.board.terror[s] <= 0:
                    del self.board.terror[s]
            elif remove:
                self.board.sabotage.discard(s)
            else:
                self.board.sabotage.add(s)
            done.append(s)
            yield self.ev_rule(
                ctx,
                "FITL-3.3.4",
                what.capitalize(),
                f"{what.capitalize()} marker {'removed from' if remove else 'placed in'} {self.ev_sname(s)}.",
                places=[s],
                changes=[{what: s, "removed": remove}],
            )
        if not done:
            yield self.ev_rule(
                ctx,
                "FITL-5.1.3",
                f"No {what} marker",
                f"no {what} marker can be {'removed' if remove else 'placed'}.",
                result={what: 0},
            )

    def ev_select(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Choose ``n`` spaces matching ``where`` (``upto``: fewer allowed) into variable ``var`` for later steps."""
        cands = self.ev_spaces(ctx, step.get("where"))
        n = self.ev_num(ctx, step.get("n", 1))
        side = self.ev_chooser(ctx, step)
        rule = step.get("rule", "FITL-5.1")
        chosen: list[str] = []
        while cands and (n is None or len(chosen) < n):
            if n is None:
                chosen += cands
                break
            if len(cands) == 1 and not step.get("upto"):
                s = cands[0]
            else:
                acts = [Action.make("space", self.ev_sname(s), places=[s], space=s) for s in cands]
                if step.get("upto") and (chosen or step.get("optional")):
                    acts.append(STOP)
                a = yield self.decide(
                    side,
                    f"{ctx.label}: {step.get('prompt', 'select a space')}",
                    rule,
                    acts,
                    kind="event_space",
                    card=ctx.card,
                    event_side=ctx.side,
                    step="select",
                    var=step.get("var", "selected"),
                    check=self._ev_check(ctx, rule, "that space does not qualify"),
                )
                if a.kind == "stop":
                    break
                s = a["space"]
            chosen.append(s)
            cands.remove(s)
        ctx.vars[step.get("var", "selected")] = chosen
        yield self.ev_rule(
            ctx,
            rule,
            "Spaces selected",
            (
                f"{side} selects {', '.join(self.ev_sname(s) for s in chosen)}."
                if chosen
                else "no space qualifies, so the steps that need one do nothing (FITL-5.1.3)."
            ),
            result={"selected": chosen},
        )

    # -- numbers -------------------------------------------------------------
    def ev_set(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Set a variable (e.g. the number a choice stands for)."""
        ctx.vars[step["var"]] = step["value"]
        return
        yield

    def ev_roll(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """A die roll for the card (all chance through the game's seeded dice)."""
        roll = self.dice.roll(6, purpose=f"{ctx.label}")
        ctx.vars[step.get("var", "roll")] = roll.value
        yield self.ev_rule(
            ctx,
            "FITL-5.1",
            "Die roll",
            f"a die is rolled: {roll.value}.",
            dice=[roll],
            result={"roll": roll.value},
        )

    def ev_tally(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Set a variable to a number of pieces in spaces (``where``) or in a box (``box``); ``per``: divide."""
        if step.get("leader_box"):  # cards in the RVN Leader box (Minh is printed, not a card)
            n = len(getattr(self, "leader_box", []))
        elif "track" in step:
            n = self.board.tracks[step["track"]]
        elif step.get("spaces"):  # how many spaces match ``where``
            n = len(self.ev_spaces(ctx, step.get("where")))
        elif "box" in step:
            box = getattr(self.board, step["box"])
            n = sum(box[p] for p in expand_pids(step.get("pieces", list(box))))
        else:
            n = sum(self.ev_count_pieces(s, step["pieces"]) for s in self.ev_spaces(ctx, step.get("where")))
        if step.get("per"):
            n //= int(step["per"])
        ctx.vars[step["var"]] = n
        return n
        yield

    def ev_count_pieces(self, s: str, spec: Any) -> int:
        return sum(self.board.pieces[s][k] for k in expand_keys(spec))

    # -- eligibility, free actions, lasting effects ----------------------------
    def ev_eligible(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-2.3.6: the card sets a faction Eligible or Ineligible for the next card."""
        facs = step["factions"]
        facs = [ctx.faction if f == "executing" else f for f in (facs if isinstance(facs, list) else [facs])]
        want = bool(step.get("eligible", True))
        for f in facs:
            self.eligibility_next[f] = want
        yield self.ev_rule(
            ctx,
            "FITL-2.3.6",
            "Eligibility",
            f"{', '.join(facs)} will be {'Eligible' if want else 'Ineligible'} for the next card.",
            result={"eligibility_next": dict(self.eligibility_next)},
        )

    def ev_free_op(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.5 / FITL-3.1.2: a free Operation (no cost except Pacify, Agitate, Trail; Eligibility unchanged)."""
        f = self.ev_chooser(ctx, {"by": step.get("faction", "executing")})
        ops = step.get("ops")
        limited = bool(step.get("limited"))
        note = step.get("note", "")
        operation = getattr(self, "operation", None)
        if operation is None or not hasattr(self, "op_choices"):
            yield self.ev_rule(
                ctx,
                "FITL-5.5",
                "Free Operation (pending)",
                f"{f} gets a free "
                f"{'/'.join(ops or ['Operation'])}; the Operations code is not present: free op "
                "(pending).",
                result={"pending": True},
            )
            return
        with self._free_op_flags(step):
            choices = [o for o in self.op_choices(f, limited, True) if ops is None or o in ops]
        if self.__dict__.get("_ev_dry"):  # a dry run (EventRules.event_effective): note it, run nothing
            if "where" in step and not self.ev_spaces(ctx, step["where"]):
                return  # FITL-8.1 (rules example: Attleboro with no Tunnel): the card names no space to act in
            if choices:
                self.__dict__["_ev_dry_free"].append(f"a free {'/'.join(choices)} for {f}")
            return
        if not choices:
            yield self.ev_rule(
                ctx,
                "FITL-5.1.3",
                "No free Operation possible",
                f"{f} has no legal {'/'.join(ops or ['Operation'])} now, so this part is skipped.",
                result={"op": None},
            )
            return
        kwargs: dict[str, Any] = {}
        allowed: list[str] | None = None
        params = inspect.signature(operation).parameters
        if "where" in step:  # the card confines the Operation's spaces (decision F-111)
            allowed = self.ev_spaces(ctx, step["where"])
            if "spaces" in params:
                kwargs["spaces"] = tuple(allowed)
            else:
                note = (
                    note + "; " if note else ""
                ) + "space limit not yet enforced by the Operations (pending)"
        for key in (
            "max_spaces",
            "in_place",
            "nva_only",
            "no_tunnels",
            "march_pieces",
        ):  # the card's limits (F-162, F-165)
            if key in step and key in params:
                kwargs[key] = step[key]
        if "origins" in step and "march_origins" in params:  # FITL-5.1.1: where the Event's March starts
            kwargs["march_origins"] = tuple(self.ev_spaces(ctx, step["origins"]))
        yield self.ev_rule(
            ctx,
            "FITL-5.5",
            "Free Operation",
            f"{f} executes a free "
            f"{'/'.join(o.title() for o in choices)} (no Resource cost, Eligibility unchanged)"
            f"{'; ' + note if note else ''}.",
            result={"faction": f, "ops": choices, "spaces": allowed},
            places=allowed or [],
        )
        with self._free_op_flags(step):
            outcome = yield from operation(
                f,
                limited=limited,
                with_sa=bool(step.get("with_sa")),
                free=True,
                only=tuple(choices),
                **kwargs,
            )
        if step.get("var"):  # the Operation's spaces (or March destinations), for the card's later steps
            ctx.vars[step["var"]] = list((outcome or {}).get("spaces") or [])

    @contextmanager
    def _free_op_flags(self, step: dict[str, Any]) -> Iterator[None]:
        """While an Event's free Operation is chosen and run: its Sweep/March ignores Monsoon (FITL-5.1.1, F-115),
        and ``cubes_as_us`` counts ARVN cubes as US Troops (F-167)."""
        before = {k: self.__dict__[k] for k in ("_ev_free_op", "_cubes_as_us") if k in self.__dict__}
        self.__dict__["_ev_free_op"] = True
        self.__dict__["_cubes_as_us"] = bool(step.get("cubes_as_us"))
        try:
            yield
        finally:  # restore what was there: a dry run (event_effective) may run inside a free Operation
            self.__dict__["_ev_free_op"] = before.get("_ev_free_op", False)
            if "_cubes_as_us" in before:
                self.__dict__["_cubes_as_us"] = before["_cubes_as_us"]
            else:
                self.__dict__.pop("_cubes_as_us", None)

    def ev_free_sa(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.5: a free Special Activity on its own (FITL-5.1.1: the card allows it without an Operation)."""
        f = self.ev_chooser(ctx, {"by": step.get("faction", "executing")})
        sas = step["sa"] if isinstance(step["sa"], list) else [step["sa"]]
        try:
            from ..ops_common import OpCtx
        except ImportError:  # pragma: no cover - the Operations are part of the package
            OpCtx = None  # noqa: N806
        ok = [sa for sa in sas if OpCtx is not None and hasattr(self, f"sa_{sa}")]
        if not ok:
            yield self.ev_rule(
                ctx,
                "FITL-5.5",
                "Free Special Activity (pending)",
                f"{f} gets a free {'/'.join(sas)}; not yet available: free op (pending).",
                result={"pending": True},
            )
            return
        opctx = OpCtx(f, "event", False, True, True)
        if "where" in step:  # FITL-5.1.1: the card confines the Special Activity (Air Lift: its destinations)
            opctx.sa_allowed = tuple(self.ev_spaces(ctx, step["where"]))
        opctx.sa_max = step.get("max_spaces")  # FITL-5.1.1: the card's own space count (F-169)
        opctx.strike_any, opctx.no_degrade = bool(step.get("strike_any")), bool(step.get("no_degrade"))
        ok = [sa for sa in ok if getattr(self, f"can_{sa}")(opctx)]
        if self.__dict__.get("_ev_dry"):
            if "where" in step and not opctx.sa_allowed:
                return  # FITL-8.1: the card names no space for its Special Activity
            if ok:
                self.__dict__["_ev_dry_free"].append(f"a free {'/'.join(ok)} for {f}")
            return
        if not ok:
            yield self.ev_rule(
                ctx,
                "FITL-5.1.3",
                "No free Special Activity possible",
                f"{f} has no legal space for {'/'.join(sas)}, so this part is skipped.",
            )
            return
        sa = ok[0]
        if len(ok) > 1:
            a = yield self.decide(
                f,
                f"{ctx.label}: which free Special Activity?",
                "FITL-5.5",
                [Action.make("option", s, index=i, sa=s) for i, s in enumerate(ok)],
                kind="event_choice",
                card=ctx.card,
                event_side=ctx.side,
                step="free_sa",
            )
            sa = a["sa"]
        yield self.ev_rule(
            ctx,
            "FITL-5.5",
            "Free Special Activity",
            f"{f} executes a free {sa.replace('_', ' ')}.",
            result={"faction": f, "sa": sa},
        )
        opctx.sa = sa
        yield from getattr(self, f"sa_{sa}")(opctx)

    def ev_capability(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.3: the Capability marker goes in on the side executed and lasts the rest of the game."""
        side = step.get("side", ctx.side)
        self.capabilities[str(ctx.card)] = side
        yield self.ev_rule(
            ctx,
            "FITL-5.3",
            "Capability",
            f"{ctx.title} is in effect ({side}) for the rest of the game.",
            result={"capability": ctx.card, "side": side},
            changes=[{"capability": ctx.card, "side": side}],
        )

    def ev_momentum(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.4: the card stays in view as Momentum until the next Coup Round's Reset."""
        if ctx.card not in self.momentum:  # it joins game.momentum when the next card is revealed (F-112)
            self.event_flags["momentum_pending"] = ctx.card
        self.event_flags[f"momentum_{ctx.card}"] = ctx.side
        yield self.ev_rule(
            ctx,
            "FITL-5.4",
            "Momentum",
            f"{ctx.title} ({ctx.side}) is in effect until the next Coup Round's Reset phase.",
            result={"momentum": ctx.card, "side": ctx.side},
            changes=[{"momentum": ctx.card, "side": ctx.side}],
        )

    def ev_cancel(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.1.2: the current Event removes an earlier Capability (``capability: n``) or Momentum card."""
        if "capability" in step:
            c = str(step["capability"])
            side = step.get("side")
            if c in self.capabilities and (side is None or self.capabilities[c] == side):
                del self.capabilities[c]
                yield self.ev_rule(
                    ctx,
                    "FITL-5.1.2",
                    "Capability removed",
                    f"the Capability of card {c} ({self.data.cards[int(c)].title}) is removed.",
                    changes=[{"capability": c}],
                )
        if "momentum" in step:
            m = int(step["momentum"])
            if m in self.momentum:
                self.momentum.remove(m)
                self.played.append(m)
                yield self.ev_rule(
                    ctx,
                    "FITL-5.1.2",
                    "Momentum discarded",
                    f"Momentum card {m} ({self.data.cards[m].title}) is discarded.",
                    changes=[{"momentum": m}],
                )

    def ev_note(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """A ruling only, optionally setting a marker aid in ``event_flags`` (FITL-5.1 'markers as aids')."""
        if "flag" in step:
            self.event_flags[step["flag"]] = step.get("value", True)
        yield self.ev_rule(
            ctx,
            step.get("rule", "FITL-5.1"),
            step.get("title", "Note"),
            step["text"],
            result={"flag": step.get("flag")},
        )

    def ev_choose(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.1: a named faction (default: the executing one) picks one of the card's options."""
        side = self.ev_chooser(ctx, step)
        opts = [o for o in step["options"] if "cond" not in o or self.ev_cond(ctx, o["cond"])]
        if not opts:
            return
        acts = [Action.make("option", o["label"], index=i) for i, o in enumerate(opts)]
        a = yield self.decide(
            side,
            f"{ctx.label}: {step.get('prompt', 'choose')}",
            step.get("rule", "FITL-5.1"),
            acts,
            kind="event_choice",
            card=ctx.card,
            event_side=ctx.side,
            step="choose",
            option_steps=[o.get("steps", []) for o in opts],
            check=self._ev_check(ctx, "FITL-5.1", "that option is not on the card"),
        )
        o = opts[a["index"]]
        yield self.ev_rule(
            ctx, "FITL-5.1", "Choice", f"{side} chooses: {o['label']}.", result={"choice": o["label"]}
        )
        yield from self.run_steps(ctx, o.get("steps", []))

    def ev_if(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        ok = self.ev_cond(ctx, step["cond"])
        yield from self.run_steps(ctx, step.get("then", []) if ok else step.get("else", []))

    def ev_foreach(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Run ``steps`` once per space in variable ``var``, with variable ``as`` (default ``here``) = [that space]."""
        name = step.get("as", "here")
        for s in list(ctx.vars.get(step["var"], [])):
            ctx.vars[name] = [s]
            yield from self.run_steps(ctx, step["steps"])

    def ev_hook(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """A card needing custom code: a named function of ``hooks.py``."""
        from . import hooks

        fn = getattr(hooks, step["name"])
        yield from fn(self, ctx, step)

    def ev_cond(self, ctx: EvCtx, cond: dict[str, Any]) -> bool:
        """Conditions: ``capability: [n, side]``, ``momentum: n``, ``track: {name, min, max}``, ``box: {box, pieces,
        min}``, ``pieces: {where, pieces, min}``, ``faction: [..]`` (executing), ``not: cond``, ``all: [conds]``."""
        if "not" in cond:
            return not self.ev_cond(ctx, cond["not"])
        if "all" in cond:
            return all(self.ev_cond(ctx, c) for c in cond["all"])
        if "any" in cond:
            return any(self.ev_cond(ctx, c) for c in cond["any"])
        if "capability" in cond:
            n, side = cond["capability"]
            return self.capabilities.get(str(n)) == side
        if "momentum" in cond:
            return int(cond["momentum"]) in self.momentum
        if "track" in cond:
            v = self.board.tracks[cond["track"]["name"]]
            return cond["track"].get("min", -(10**6)) <= v <= cond["track"].get("max", 10**6)
        if "box" in cond:
            b = getattr(self.board, cond["box"]["box"])
            return sum(b[p] for p in expand_pids(cond["box"].get("pieces", list(b)))) >= cond["box"].get(
                "min", 1
            )
        if "pieces" in cond:
            c = cond["pieces"]
            n = sum(self.ev_count_pieces(s, c["pieces"]) for s in self.ev_spaces(ctx, c.get("where")))
            return c.get("min", 1) <= n <= c.get("max", 10**6)
        if "faction" in cond:
            fs = cond["faction"]
            return ctx.faction in (fs if isinstance(fs, list) else [fs])
        if "support" in cond:
            c = cond["support"]
            v = self.board.support[c["space"]]
            return c.get("min", -2) <= v <= c.get("max", 2)
        if "played" in cond:
            return int(cond["played"]) in getattr(self, "played", [])
        if "flag" in cond:
            return bool(self.event_flags.get(cond["flag"]))
        raise ValueError(f"{ctx.label}: unknown condition {cond!r}")
