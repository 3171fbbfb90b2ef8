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

from collections.abc import Callable
from typing import Any

from ..data import COIN
from ..state import piece_id, piece_state
from .schema import check_where
from .verbs_board import BoardVerbs
from .verbs_pieces import PieceVerbs
from .verbs_play import PlayVerbs
from .words import (
    BOX_NAMES,
    VERBS,
    EvCtx,
    Flow,
    arithmetic,
)


def _listify(v: Any) -> list[Any]:
    """A filter value as a list (one value or a list of them)."""
    return v if isinstance(v, list) else [v]


def _control_is(c: str | None, want: str) -> bool:
    """FITL-1.7: Control ``c`` ("coin", "nva" or None) matches a filter word (coin, nva, none, not_coin, not_nva)."""
    return (
        (want == "none" and c is None)
        or want == c
        or (want == "not_coin" and c != "coin")
        or (want == "not_nva" and c != "nva")
    )


class EventVocabulary(PieceVerbs, BoardVerbs, PlayVerbs):
    """Mixin: the verbs of the Event effect language (FITL-5.1); used by :class:`EventRules`.  The verbs are in
    three mixins by what they act on: pieces (:mod:`.verbs_pieces`), tracks, Support and markers
    (:mod:`.verbs_board`), choices, counts, conditions and free actions (:mod:`.verbs_play`); the words they read
    are in :mod:`.words`."""

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
        """Whether space ``s`` passes the space filter ``w`` (FITL-5.1; the keys are listed in the module's
        docstring): every key given must hold, ``any`` one of several filters, ``not`` none."""
        return (
            self._ev_match_ids(ctx, s, w)
            and self._ev_match_facts(s, w)
            and self._ev_match_board(s, w)
            and self._ev_match_pieces(s, w)
            and self._ev_match_around(ctx, s, w)
        )

    @staticmethod
    def _ev_match_ids(ctx: EvCtx, s: str, w: dict[str, Any]) -> bool:
        """The filter keys naming spaces: ``spaces``, ``not_spaces``, ``var_spaces``, ``not_var_spaces``."""
        if "spaces" in w and s not in _listify(w["spaces"]):
            return False
        if "not_spaces" in w and s in _listify(w["not_spaces"]):
            return False
        if "var_spaces" in w and s not in ctx.vars.get(w["var_spaces"], []):
            return False
        return not ("not_var_spaces" in w and s in ctx.vars.get(w["not_var_spaces"], []))

    def _ev_match_facts(self, s: str, w: dict[str, Any]) -> bool:
        """The filter keys on the printed map: kind, country, South Vietnam, terrain, Population, Econ, coast."""
        sp = self.data.spaces[s]
        if "kind" in w and sp.kind not in _listify(w["kind"]):
            return False
        if "country" in w and sp.country not in _listify(w["country"]):
            return False
        if w.get("south") and sp.country != "SVN":
            return False
        if w.get("outside_south") and sp.country == "SVN":
            return False
        if "terrain" in w and (sp.terrain or "") not in _listify(w["terrain"]):
            return False
        if "pop_min" in w and sp.population < w["pop_min"]:
            return False
        if "econ_min" in w and sp.econ < w["econ_min"]:
            return False
        return not (w.get("coastal") and not sp.coastal)

    def _ev_match_board(self, s: str, w: dict[str, Any]) -> bool:
        """The filter keys on the space's markers: Support (a level, at least, at most), Control, Terror and
        Sabotage."""
        b = self.board
        if "support" in w and b.support[s] not in _listify(w["support"]):
            return False
        if "support_min" in w and b.support[s] < w["support_min"]:
            return False
        if "support_max" in w and b.support[s] > w["support_max"]:
            return False
        if "control" in w and not any(_control_is(b.control(s), x) for x in _listify(w["control"])):
            return False
        if w.get("terror") is True and not b.terror[s]:
            return False
        return not (w.get("sabotaged") is True and s not in b.sabotage)

    def _ev_match_pieces(self, s: str, w: dict[str, Any]) -> bool:
        """The filter keys on the pieces in the space: ``has`` (at least), ``at_most``, ``lacks``, ``more``."""
        for cond in _listify(w.get("has", [])):
            if self.ev_count_pieces(s, cond["pieces"]) < cond.get("min", 1):
                return False
        for cond in _listify(w.get("at_most", [])):
            if self.ev_count_pieces(s, cond["pieces"]) > cond["max"]:
                return False
        for cond in _listify(w.get("lacks", [])):
            if self.ev_count_pieces(s, cond["pieces"]) > 0:
                return False
        if "more" in w:  # [a, b]: more pieces of spec a than of spec b
            a, b2 = w["more"]
            if self.ev_count_pieces(s, a) <= self.ev_count_pieces(s, b2):
                return False
        return True

    def _ev_match_around(self, ctx: EvCtx, s: str, w: dict[str, Any]) -> bool:
        """The filter keys on neighbours and other filters: ``adjacent_to_var``, ``adjacent_to``, ``near`` (this
        space or one next to it holds the pieces), ``any`` and ``not``."""
        adjacent = self.data.adjacent
        if "adjacent_to_var" in w:
            targets = ctx.vars.get(w["adjacent_to_var"], [])
            if not any(s == t or s in adjacent.get(t, ()) for t in targets):
                return False
        if "any" in w and not any(self.ev_match(ctx, s, f) for f in w["any"]):
            return False
        if "near" in w and not any(self.ev_count_pieces(t, w["near"]) for t in [s, *adjacent.get(s, ())]):
            return False
        if "adjacent_to" in w and not any(s in adjacent.get(t, ()) for t in _listify(w["adjacent_to"])):
            return False
        return not ("not" in w and self.ev_match(ctx, s, w["not"]))

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
