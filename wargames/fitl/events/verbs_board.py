"""Fire in the Lake: the Event verbs that move a track, shift Support or Opposition and place Terror and
Sabotage markers (FITL-1.6, FITL-1.8, FITL-3.3.4; a mixin of :class:`~wargames.fitl.events.vocabulary.EventVocabulary`)."""

from __future__ import annotations

from typing import Any

from ...core import Action
from ..data import LEVEL_NAMES
from .words import (
    MARKERS,
    STOP,
    TRACK_NAMES,
    EvCtx,
    Flow,
)


class BoardVerbs:
    """Mixin: the track, Support and marker verbs of the Event effect language (FITL-1.6, 1.8, 3.3.4)."""

    board: Any
    data: Any
    dice: Any

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
