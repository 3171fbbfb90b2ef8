"""Fire in the Lake: the COIN Operation Train (FITL-3.2.1): where US and ARVN may place pieces, what they pay,
and the one extra step in a selected space (Pacify, an ARVN Base, or Saigon's Patronage to ARVN Resources); a
mixin of :class:`~wargames.fitl.coin_ops.CoinOps`.  The rule ids of the four COIN Operations are here too."""

from __future__ import annotations

from ..core import Action
from .ops_common import Flow, OpCtx, OpsCommon

TRAIN_RULE, PATROL_RULE, SWEEP_RULE, ASSAULT_RULE = "FITL-3.2.1", "FITL-3.2.2", "FITL-3.2.3", "FITL-3.2.4"


class TrainOps(OpsCommon):
    """Mixin: the COIN Operation Train and its Pacify, Base and Patronage step (FITL-3.2.1)."""

    # ================================================================== which COIN Ops are possible
    def can_train(self, faction: str, limited: bool, free: bool) -> bool:
        return bool(self.train_spaces(faction))

    # ================================================================== Train (3.2.1)
    def train_spaces(self, faction: str) -> list[str]:
        """FITL-3.2.1: ARVN: Provinces/Cities without NVA Control; US: Provinces/Cities with a US piece."""
        out = []
        for s in self.spaces():
            if not self.is_pc(s) or self.in_nvn(s):
                continue
            if (
                faction == "ARVN"
                and self.board.control(s) != "nva"
                or faction == "US"
                and self.board.count(s, "US")
            ):
                out.append(s)
        return out

    def train_placements(self, faction: str, space: str, free: bool) -> list[Action]:
        """FITL-3.2.1 placement choices in one space (F-50: ARVN pieces cost 3, Rangers too only at Cities or
        US/ARVN Bases for ARVN and at US Bases for the US)."""
        opts = [Action.make("place", "Place nothing", [space], irregulars=0, rangers=0, troops=0, police=0)]
        arvn_ok = self.can_pay(faction, 3, free)
        if faction == "US":
            for k in (1, 2):
                if self.obtainable("us_irregulars", "US", space) >= k:
                    opts.append(
                        Action.make(
                            "place",
                            f"Place {self.kname('us_irregulars', k)}",
                            [space],
                            irregulars=k,
                            rangers=0,
                            troops=0,
                            police=0,
                        )
                    )
            at_base = self.n(space, "us_bases") > 0
        else:
            at_base = self.is_city(space) or self.n(space, "us_bases") + self.n(space, "arvn_bases") > 0
        if at_base and arvn_ok:
            cost = "free" if free else "3 ARVN Resources"
            for k in (1, 2):
                if self.obtainable("arvn_rangers", faction, space) >= k:
                    opts.append(
                        Action.make(
                            "place",
                            f"Place {self.kname('arvn_rangers', k)} ({cost})",
                            [space],
                            irregulars=0,
                            rangers=k,
                            troops=0,
                            police=0,
                        )
                    )
            nt, np_ = (
                self.obtainable("arvn_troops", faction, space),
                self.obtainable("arvn_police", faction, space),
            )
            for t in range(0, 7):
                for p in range(0, 7 - t):
                    if 1 <= t + p and t <= nt and p <= np_:
                        opts.append(
                            Action.make(
                                "place",
                                f"Place {t} ARVN Troops and {p} Police ({cost})",
                                [space],
                                irregulars=0,
                                rangers=0,
                                troops=t,
                                police=p,
                            )
                        )
        return opts

    def op_train(self, ctx: OpCtx) -> Flow:
        f, side = ctx.faction, ctx.faction
        while not (ctx.limited and ctx.spaces):
            cands = [
                s
                for s in self.train_spaces(f)
                if s not in ctx.spaces and s not in ctx.sa_spaces_blocking() and self.in_scope(ctx, s)
            ]
            s = yield from self.choose_op_space(
                ctx,
                TRAIN_RULE,
                "Train: choose a space (or done)",
                cands,
                lambda s: f"Train in {self.sname(s)}",
            )
            if s is None:
                break
            if not s:  # FITL-4.1: a Special Activity ran in the middle of the Op: look at the spaces again
                continue
            ctx.spaces.append(s)
            pl = yield self.decide(
                side,
                f"Train in {self.sname(s)}: what to place?",
                TRAIN_RULE,
                self.train_placements(f, s, ctx.free),
                kind="place",
                **ctx.context(step="place", space=s),
            )
            yield from self._train_place(ctx, s, pl)
        yield from self.cap_police(ctx)
        yield from self._train_extra(ctx)
        minh = self.leader_effect("minh") if f == "ARVN" and ctx.spaces else ""
        if minh:  # FITL-2.4.1: Duong Van Minh: each ARVN Train Operation adds +5 Aid
            a0 = self.board.tracks["aid"]
            self.track("aid", 5)
            yield self.oruling(
                TRAIN_RULE,
                "Minh: +5 Aid",
                f"The ARVN Trained while {minh} leads: Aid +5 ({a0} -> {self.board.tracks['aid']}).",
                result={"aid": self.board.tracks["aid"]},
            )

    def pacify_step_cost(self) -> tuple[int, str]:
        """FITL-3.2.1: 3 ARVN Resources per Pacification step; 4 while Nguyen Cao Ky leads (FITL-2.4.1)."""
        ky = self.leader_effect(127)
        return (4, f" [{ky}: 4 per step]") if ky else (3, "")

    def cap_police(self, ctx: OpCtx) -> Flow:
        """FITL-5.3 Capability #18 Combined Action Platoons (unshaded): a US Train may add 1 ARVN Police (free) in
        one space with a US Troop (from Available, else from the map, FITL-1.4.1)."""
        words = self.lasting(18, "unshaded") if ctx.faction == "US" else ""
        if not words or not ctx.spaces:
            return
        cands = [
            s for s in self.spaces() if self.n(s, "us_troops") and self.obtainable("arvn_police", "US", s)
        ]
        if not cands:
            return
        opts = [Action.make("space", f"1 ARVN Police in {self.sname(s)}", [s], space=s) for s in cands]
        opts.append(Action.make("none", "No Police"))
        a = yield self.decide(
            "US",
            f"Train: place 1 ARVN Police where US Troops are? [{words}]",
            TRAIN_RULE,
            opts,
            kind="space",
            **ctx.context(step="cap_police"),
        )
        if a.kind == "space":
            notes = self.place(a["space"], "arvn_police", 1)
            yield self.oruling(
                TRAIN_RULE,
                f"Police in {self.sname(a['space'])}",
                f"The US Train adds 1 ARVN Police in {self.sname(a['space'])} at no cost [{words}]"
                + (f" ({'; '.join(notes)})" if notes else "")
                + ".",
                result={"space": a["space"]},
                places=[a["space"]],
            )

    def _train_place(self, ctx: OpCtx, s: str, pl: Action) -> Flow:
        f = ctx.faction
        irr, rng, tr, po = pl["irregulars"], pl["rangers"], pl["troops"], pl["police"]
        notes: list[str] = []
        paid = "no Resources"
        if rng or tr or po:
            paid = self.pay(f, 3, ctx.free, TRAIN_RULE, f"Training in {self.sname(s)}")
        for pid, k in (
            ("us_irregulars", irr),
            ("arvn_rangers", rng),
            ("arvn_troops", tr),
            ("arvn_police", po),
        ):
            notes += self.place(s, pid, k)
        what = (
            ", ".join(
                self.kname(p, k)
                for p, k in (
                    ("us_irregulars", irr),
                    ("arvn_rangers", rng),
                    ("arvn_troops", tr),
                    ("arvn_police", po),
                )
                if k
            )
            or "nothing"
        )
        extra = f" ({'; '.join(notes)})" if notes else ""
        yield self.oruling(
            TRAIN_RULE,
            f"Train in {self.sname(s)}",
            f"Train in {self.sname(s)}: {paid}; {f} places {what}{extra}.",
            result={"space": s, "placed": {"irregulars": irr, "rangers": rng, "troops": tr, "police": po}},
            inputs={"faction": f, "arvn_resources": self.board.tracks["arvn_resources"]},
            places=[s],
        )

    def pacify_options(self, ctx: OpCtx) -> list[Action]:
        """FITL-3.2.1 Pacify: COIN Control; ARVN Training also needs ARVN Troops and Police there; 3 ARVN
        Resources per Terror marker removed and per level shifted, even in a free Train (FITL-3.1.2); the 2-level
        cap counts only the shifts (decision F-52)."""
        f = ctx.faction
        out = []
        for s in ctx.spaces:
            if self.board.control(s) != "coin":
                continue
            if f == "ARVN" and not (self.n(s, "arvn_troops") and self.n(s, "arvn_police")):
                continue
            if f == "US" and not self.board.count(s, "US"):
                continue
            terror = self.board.terror[s]
            top = 1 if self.lasting(19, "shaded") else 2  # FITL-5.3 CORDS shaded: only to Passive Support
            room = top - self.board.support[s] if self.pop(s) else 0
            step, _ = self.pacify_step_cost()
            for lv in range(0, min(2, room) + 1):
                cost = step * (terror + lv)
                if terror + lv >= 1 and self.can_pay(f, cost):
                    words = ([f"remove {terror} Terror"] if terror else []) + (
                        [f"shift {lv} level(s)"] if lv else []
                    )
                    out.append(
                        Action.make(
                            "pacify",
                            f"Pacify {self.sname(s)}: {' and '.join(words)} ({cost} ARVN Resources)",
                            [s],
                            space=s,
                            levels=lv,
                        )
                    )
        return out

    def _train_extra(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        opts = self.pacify_options(ctx)
        if f == "ARVN":
            for s in ctx.spaces:
                if not self.base_room(s) or self.obtainable("arvn_bases", f, s) < 1:
                    continue
                if not self.can_pay(f, 3, ctx.free):
                    continue
                for t in range(0, 4):
                    if self.n(s, "arvn_troops") >= t and self.n(s, "arvn_police") >= 3 - t:
                        opts.append(
                            Action.make(
                                "base",
                                f"Replace {t} ARVN Troops and {3 - t} Police in "
                                f"{self.sname(s)} with an ARVN Base",
                                [s],
                                space=s,
                                troops=t,
                            )
                        )
        if f == "US" and "saigon" in ctx.spaces:
            for k in range(1, min(3, self.board.tracks["patronage"]) + 1):
                opts.append(
                    Action.make(
                        "patronage",
                        f"Transfer {k} Patronage to ARVN Resources in Saigon",
                        ["saigon"],
                        space="saigon",
                        n=k,
                    )
                )
        if not opts:
            return
        opts.append(Action.make("none", "Nothing more"))
        act = yield self.decide(
            f,
            "Train: then in one selected space, Pacify, build a Base or transfer Patronage?",
            TRAIN_RULE,
            opts,
            kind="train_extra",
            check=lambda a: self.refuse_base(TRAIN_RULE, a),
            **ctx.context(step="extra"),
        )
        if act.kind == "none":
            return
        yield from self._train_extra_do(ctx, act)
        cords = self.lasting(19, "unshaded") if f == "US" else ""
        if act.kind == "pacify" and cords:  # FITL-5.3 CORDS unshaded: US Train may Pacify in a 2nd space
            more = [a for a in self.pacify_options(ctx) if a["space"] != act["space"]]
            if more:
                more.append(Action.make("none", "No second Pacification"))
                a2 = yield self.decide(
                    f,
                    f"Train: Pacify in a second space? [{cords}]",
                    TRAIN_RULE,
                    more,
                    kind="train_extra",
                    **ctx.context(step="extra"),
                )
                if a2.kind == "pacify":
                    yield from self._train_extra_do(ctx, a2, f" [{cords}: a second space]")

    def _train_extra_do(self, ctx: OpCtx, act: Action, why: str = "") -> Flow:
        """FITL-3.2.1: carry out the chosen Pacify, Base or Patronage transfer."""
        f = ctx.faction
        s = act["space"]
        if act.kind == "pacify":
            lv = act["levels"]
            terror = self.board.terror[s]
            step, ky = self.pacify_step_cost()
            cost = step * (terror + lv)
            paid = self.pay(f, cost, False, TRAIN_RULE, "Pacification") + ky
            self.board.terror[s] = 0
            del self.board.terror[s]
            old, new = self.shift_support(s, lv)
            yield self.oruling(
                TRAIN_RULE,
                f"Pacify {self.sname(s)}",
                f"Pacify in {self.sname(s)} (COIN Control): {paid} even if the Train was free; "
                + (f"{terror} Terror marker(s) removed; " if terror else "")
                + f"{self.level(old)} -> {self.level(new)}{why}"
                + (
                    f" [{self.lasting(19, 'shaded')}: at most Passive Support]"
                    if self.lasting(19, "shaded")
                    else ""
                )
                + ".",
                result={"space": s, "terror_removed": terror, "support": new},
                inputs={"cost": cost, "levels": lv},
                places=[s],
            )
        elif act.kind == "base":
            t = act["troops"]
            paid = self.pay(f, 3, ctx.free, TRAIN_RULE, "an ARVN Base")
            self.board.remove(s, "arvn_troops", t)
            self.board.remove(s, "arvn_police", 3 - t)
            notes = self.place(s, "arvn_bases", 1)
            yield self.oruling(
                TRAIN_RULE,
                f"ARVN Base in {self.sname(s)}",
                f"{paid}; {t} ARVN Troops and {3 - t} Police in {self.sname(s)} are replaced by an "
                f"ARVN Base (Bases there now {self.board.count(s, ptype='bases')} of 2)"
                + (f" ({'; '.join(notes)})" if notes else "")
                + ".",
                result={"space": s, "base": True},
                places=[s],
            )
        else:
            k = act["n"]
            p0, r0 = self.board.tracks["patronage"], self.board.tracks["arvn_resources"]
            self.track("patronage", -k)
            self.track("arvn_resources", k)
            yield self.oruling(
                TRAIN_RULE,
                "Patronage to ARVN Resources",
                f"US Train in Saigon moves {k} Patronage to ARVN Resources: Patronage {p0} -> "
                f"{self.board.tracks['patronage']}, ARVN Resources {r0} -> "
                f"{self.board.tracks['arvn_resources']}.",
                result={"transferred": k},
                places=["saigon"],
            )

    def why_not_train(self, ctx: OpCtx, s: str) -> tuple[str, str] | None:
        if not self.is_pc(s):
            return TRAIN_RULE, "Train only in Provinces or Cities"
        if ctx.faction == "ARVN" and self.board.control(s) == "nva":
            return TRAIN_RULE, f"ARVN may not Train in {self.sname(s)}: it is under NVA Control"
        if ctx.faction == "US" and not self.board.count(s, "US"):
            return TRAIN_RULE, f"the US may Train only where it has pieces; {self.sname(s)} has none"
        if s in ctx.sa_spaces_blocking():
            return (
                "FITL-4.1.1",
                f"{self.sname(s)} was used by {ctx.sa}, which may not share spaces with Train",
            )
        return None
