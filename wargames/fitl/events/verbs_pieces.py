"""Fire in the Lake: the Event verbs that place, remove, move, box, tunnel and flip pieces (FITL-5.1.1), with
the repeated "choose pieces" loop they share (a mixin of :class:`~wargames.fitl.events.vocabulary.EventVocabulary`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core import Action, IllegalAction
from ..state import FLIPPABLE, default_key, piece_id
from .words import (
    BOX_NAMES,
    GROUPS,
    STOP,
    EvCtx,
    Flow,
    expand_keys,
    expand_pids,
)


class PieceVerbs:
    """Mixin: the piece verbs of the Event effect language (place, remove, move, box, tunnel, flip; FITL-5.1.1)."""

    board: Any
    data: Any
    dice: Any

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
