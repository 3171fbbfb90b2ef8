"""Fire in the Lake: the Insurgent Operation Rally (FITL-3.3.1): where NVA and VC may Rally, its modes (place
Guerrillas, a Base, Trail improvement, flip Guerrillas Underground) and the Cadres' Agitate; a mixin of
:class:`~wargames.fitl.insurgent_ops.InsurgentOps`.  The rule ids of the four Insurgent Operations are here too."""

from __future__ import annotations

from ..core import Action
from .ops_common import GUERRILLAS, Flow, OpCtx, OpsCommon

RALLY_RULE, MARCH_RULE, ATTACK_RULE, TERROR_RULE = "FITL-3.3.1", "FITL-3.3.2", "FITL-3.3.3", "FITL-3.3.4"


class RallyOps(OpsCommon):
    """Mixin: the Insurgent Operation Rally (FITL-3.3.1)."""

    # ================================================================== which Ops are possible
    def can_rally(self, faction: str, limited: bool, free: bool) -> bool:
        if self.can_pay(faction, 1, free) and any(
            self.rally_modes(faction, s) for s in self.rally_spaces(faction)
        ):
            return True
        if (
            faction == "VC"
            and not limited
            and not free
            and self.tax_first_possible()
            and any(self.rally_modes(faction, s) for s in self.rally_spaces(faction))
        ):
            return True  # FITL-4.1: Tax first, then Rally with its Resources (rules example of 8.5.4; decision F-175)
        return (
            faction == "NVA"
            and self.board.tracks["trail"] < 4
            and self.can_pay("NVA", 2)
            and not self.lasting(38, "unshaded")
        )  # FITL-5.4 McNamara Line: no Trail Improvement by Rally

    # ================================================================== Rally (3.3.1)
    def rally_spaces(self, faction: str) -> list[str]:
        """FITL-3.3.1: Provinces or Cities without Support (Pop-0 spaces are Neutral, so they qualify)."""
        return [s for s in self.spaces() if self.is_pc(s) and self.board.support[s] <= 0]

    def why_not_rally(self, ctx: OpCtx, s: str) -> tuple[str, str] | None:
        if not self.is_pc(s):
            return RALLY_RULE, "Rally only in Provinces or Cities"
        if self.board.support[s] > 0:
            return (
                RALLY_RULE,
                f"no Rally where there is Support ({self.sname(s)}: {self.level(self.board.support[s])})",
            )
        if not self.can_pay(ctx.faction, 1, ctx.free):
            return "FITL-3.1", f"{ctx.faction} cannot pay 1 Resource"
        if not self.rally_modes(ctx.faction, s):
            return "FITL-1.4.1", f"no {ctx.faction} Guerrilla can be placed in {self.sname(s)}"
        return None

    def rally_modes(self, faction: str, s: str) -> list[Action]:
        g = GUERRILLAS[faction]
        base = f"{faction.lower()}_bases"
        opts = []
        bases_here = self.n(s, base) + self.n(s, f"{base}:t")
        avail = self.obtainable(g, faction, s)
        if bases_here:
            extra = self.board.tracks["trail"] if faction == "NVA" else self.pop(s)
            top = min(extra + bases_here, avail)
            why = "Trail" if faction == "NVA" else "Population"
            for k in range(1, top + 1):
                opts.append(
                    Action.make(
                        "mode",
                        f"Place {k} Guerrilla(s) (up to {why} {extra} + {bases_here} Base(s))",
                        [s],
                        mode="place",
                        n=k,
                    )
                )
        elif avail:
            opts.append(Action.make("mode", "Place 1 Guerrilla", [s], mode="place", n=1))
        if (
            self.n(s, f"{g}:u") + self.n(s, f"{g}:a") >= 2
            and self.base_room(s)
            and self.obtainable(base, faction, s) >= 1
        ):
            opts.append(Action.make("mode", "Replace 2 Guerrillas with a Base", [s], mode="base", n=0))
        if faction == "VC" and bases_here and self.n(s, f"{g}:a"):
            opts.append(
                Action.make("mode", "Flip all VC Guerrillas here Underground", [s], mode="underground", n=0)
            )
        return opts

    def op_rally(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        trail_ok = f == "NVA" and self.board.tracks["trail"] < 4 and not self.lasting(38, "unshaded")
        while not (ctx.limited and ctx.spaces):
            cands = [
                s
                for s in self.rally_spaces(f)
                if s not in ctx.spaces and self.rally_modes(f, s) and self.in_scope(ctx, s)
            ]
            if not self.can_pay(f, 1, ctx.free):
                cands = []
            s = yield from self.choose_op_space(
                ctx,
                RALLY_RULE,
                "Rally: choose a space (or done)",
                cands,
                lambda s: f"Rally in {self.sname(s)}{'' if ctx.free else ' (1 Resource)'}",
                may_end=trail_ok and self.can_pay("NVA", 2),
            )
            if s is None:
                break
            if not s:  # FITL-4.1: a Special Activity ran in the middle of the Op: look at the spaces again
                continue
            m = yield self.decide(
                f,
                f"Rally in {self.sname(s)}: what?",
                RALLY_RULE,
                self.rally_modes(f, s),
                kind="mode",
                check=lambda a, s=s: self.refuse_base(RALLY_RULE, a, s),
                **ctx.context(step="mode", space=s),
            )
            paid = self.pay(f, 1, ctx.free, RALLY_RULE, f"Rally in {self.sname(s)}")
            ctx.spaces.append(s)
            if self.n(s, "vc_bases") + self.n(s, "vc_bases:t"):
                ctx.__dict__.setdefault("had_vc_base", []).append(s)
            yield from self._rally_do(ctx, s, m["mode"], m["n"], paid)
        if f == "VC":
            yield from self.cadres_agitate(ctx)
        aaa = self.lasting(31, "unshaded")  # FITL-5.3-CAPS AAA: Improve only after a 1-space Rally (F-159)
        if aaa and len(ctx.spaces) > 1:
            trail_ok = False
        if trail_ok and self.board.tracks["trail"] < 4 and self.can_pay("NVA", 2):
            sa2 = self.lasting(34, "shaded")  # FITL-5.3 SA-2s shaded: Improve 2 boxes
            a = yield self.decide(
                "NVA",
                f"Rally: pay 2 NVA Resources to Improve the Trail by {2 if sa2 else 1}?"
                + (f" [{aaa}: only if the Rally used at most 1 space]" if aaa else ""),
                RALLY_RULE,
                [
                    Action.make("yes", "Improve the Trail (2 NVA Resources, even if free)"),
                    Action.make("no", "Do not Improve the Trail"),
                ],
                kind="yesno",
                **ctx.context(step="trail"),
            )
            if a.kind == "yes":
                paid = self.pay("NVA", 2, False, RALLY_RULE, "Trail Improvement")
                t0 = self.board.tracks["trail"]
                self.track("trail", 2 if sa2 else 1)
                ctx.trail_improved = True
                yield self.oruling(
                    RALLY_RULE,
                    "Trail Improved",
                    f"{paid} to Improve the Trail: {t0} -> {self.board.tracks['trail']}"
                    + (f" [{sa2}: 2 boxes]" if sa2 else "")
                    + "."
                    + self.adsid_note(t0),
                    result={"trail": self.board.tracks["trail"]},
                )

    def cadres_agitate(self, ctx: OpCtx) -> Flow:
        """FITL-5.3-CAPS Capability #116 Cadres (shaded): after a VC Rally, the VC may Agitate in 1 Rally space that
        held a VC Base before it, as in the Support Phase (FITL-6.3.2): 1 VC Resource per Terror marker removed or
        level shifted toward Active Opposition, at most 2 levels, COIN Control or not, paid even in a free Rally
        (decision F-161)."""
        words = self.lasting(116, "shaded")
        cands = [s for s in ctx.__dict__.get("had_vc_base", []) if self.is_pc(s) and self.pop(s)]
        if not words or not cands:
            return
        space: str | None = None
        levels = 0
        while self.board.tracks["vc_resources"] >= 1:
            where = [space] if space else cands
            opts = []
            for s in where:
                if self.board.terror[s]:
                    opts.append(
                        Action.make(
                            "space",
                            f"Agitate in {self.sname(s)}: remove a Terror marker (1 VC Resource)",
                            [s],
                            space=s,
                        )
                    )
                elif levels < 2 and self.board.support[s] > -2:
                    opts.append(
                        Action.make(
                            "space",
                            f"Agitate in {self.sname(s)}: shift toward Opposition (1 VC Resource)",
                            [s],
                            space=s,
                        )
                    )
            if not opts:
                break
            yield from self.flush(RALLY_RULE)
            a = yield self.decide(
                "VC",
                f"Rally: Agitate in a Rally space that had a VC Base? [{words}]",
                RALLY_RULE,
                opts + [Action.make("none", "Stop")],
                kind="space",
                **ctx.context(step="agitate"),
            )
            if a.kind == "none":
                break
            space = a["space"]
            r0 = self.board.tracks["vc_resources"]
            self.track("vc_resources", -1)
            if self.board.terror[space]:
                self.board.terror[space] -= 1
                if not self.board.terror[space]:
                    del self.board.terror[space]
                what = "removes a Terror marker"
            else:
                old, new = self.shift_support(space, -1)
                levels += 1
                what = f"shifts {self.level(old)} -> {self.level(new)}"
            yield self.oruling(
                RALLY_RULE,
                f"Agitation in {self.sname(space)}",
                f"The VC pay 1 Resource ({r0} -> {self.board.tracks['vc_resources']}) and {what} in "
                f"{self.sname(space)} [{words}: 1 space, as in FITL-6.3.2].",
                result={"space": space},
                places=[space],
            )

    def _rally_do(self, ctx: OpCtx, s: str, mode: str, k: int, paid: str) -> Flow:
        f = ctx.faction
        g = GUERRILLAS[f]
        base = f"{f.lower()}_bases"
        if mode == "place":
            notes = self.place(s, g, k)
            what = f"places {self.kname(g + ':u', k)}"
        elif mode == "base":
            gone: list[str] = []
            for key in (f"{g}:a", f"{g}:u"):  # decision F-55: Active Guerrillas go first
                while self.n(s, key) and len(gone) < 2:
                    self.board.remove(s, key)
                    gone.append(key)
            notes = self.place(s, base, 1)
            what = f"replaces {self.pieces_text([(s, x) for x in gone])} with a Base"
        else:
            k = self.n(s, f"{g}:a")
            self.board.flip(s, g, "u", k)
            notes = []
            what = f"flips {k} Active VC Guerrilla(s) Underground"
        extra = f" ({'; '.join(notes)})" if notes else ""
        yield self.oruling(
            RALLY_RULE,
            f"{f} Rally in {self.sname(s)}",
            f"Rally in {self.sname(s)} (no Support there): {paid}; {f} {what}{extra}.",
            result={"space": s, "mode": mode, "n": k},
            places=[s],
            inputs={
                "support": self.board.support[s],
                "trail": self.board.tracks["trail"],
                "population": self.pop(s),
            },
        )
