"""Fire in the Lake: the Insurgent Special Activities, NVA (FITL-4.4) and VC (FITL-4.5).

Shared machinery (space loop, lasting limits) in ``special.py``; each SA ``x`` has ``can_x`` and ``sa_x``.

* FITL-4.4.1 Infiltrate (with Rally or March): NVA Troops at NVA Bases (Trail + Bases, then Guerrillas
  replaced by Troops), or where NVA outnumber VC: Opposition toward Neutral and 1 VC piece becomes NVA.
* FITL-4.4.2 Bombard: 1-2 spaces with 3+ US/ARVN Troops or a COIN Base, in or next to 3+ NVA Troops: 1 Troop
  removed (US to Casualties).
* FITL-4.4.3 / FITL-4.5.3 Ambush: see ``insurgent_ops.resolve_ambush`` (part of the Attack or after a March).
* FITL-4.5.1 Tax: up to 4 spaces with Underground VC and no COIN Control: +Econ or +2 x Pop VC Resources, a
  shift toward Active Support.
* FITL-4.5.2 Subvert (with Rally, March or Terror): 1-2 spaces with Underground VC and ARVN cubes: remove 2
  cubes or replace 1 with a VC Guerrilla; Patronage -1 per 2 ARVN pieces in all (decision F-60: no Activation).
"""

from __future__ import annotations

from ..core import Action
from .ops_common import Flow, OpCtx
from .special import (
    ARVN_CUBES,
    BOMBARD,
    INFILTRATE,
    NVA_AMBUSH,
    SUBVERT,
    TAX,
    VC_AMBUSH,
    SpecialActivities,
)


class InsurgentSpecialActivities(SpecialActivities):
    """Mixin: Infiltrate, Bombard, Ambush (NVA, FITL-4.4); Tax, Subvert, Ambush (VC, FITL-4.5)."""

    # ================================================================== Infiltrate (4.4.1)
    def infiltrate_spaces(self) -> list[str]:
        out = []
        for s in self.spaces():
            bases = self.n(s, "nva_bases") + self.n(s, "nva_bases:t")
            if bases and (
                self.obtainable("nva_troops", "NVA", s)
                or self.n(s, "nva_guerrillas:u") + self.n(s, "nva_guerrillas:a")
            ):
                out.append(s)
            elif self.board.count(s, "NVA") > self.board.count(s, "VC") and (
                self.board.count(s, "VC") or self.board.support[s] < 0
            ):
                out.append(s)
        return out

    def can_infiltrate(self, ctx: OpCtx) -> bool:
        return bool(self.infiltrate_spaces())

    def sa_infiltrate(self, ctx: OpCtx) -> Flow:
        """FITL-4.4.1 (decision F-67: the takeover is optional; a replaced Guerrilla arrives Underground)."""

        def body(s: str) -> Flow:
            bases = self.n(s, "nva_bases") + self.n(s, "nva_bases:t")
            opts = []
            if bases:
                opts.append(
                    Action.make(
                        "mode",
                        f"Place NVA Troops (up to Trail {self.board.tracks['trail']} + "
                        f"{bases} Base(s)) and replace Guerrillas",
                        [s],
                        mode="troops",
                    )
                )
            if self.board.count(s, "NVA") > self.board.count(s, "VC"):
                opts.append(
                    Action.make("mode", "Erode Opposition and take over 1 VC piece", [s], mode="takeover")
                )
            m = yield self.decide(
                "NVA",
                f"Infiltrate in {self.sname(s)}: how?",
                INFILTRATE,
                opts,
                kind="mode",
                **ctx.context(step="mode", sa="infiltrate", space=s),
            )
            if m["mode"] == "troops":
                avail = self.obtainable("nva_troops", "NVA", s)
                top = min(self.board.tracks["trail"] + bases, avail)
                k = yield from self.pick_count(
                    "NVA",
                    "Infiltrate: how many NVA Troops to place?",
                    INFILTRATE,
                    0,
                    top,
                    label=lambda v: f"Place {v} Troops",
                    **ctx.context(step="troops", sa="infiltrate", space=s),
                )
                g_here = self.n(s, "nva_guerrillas:u") + self.n(s, "nva_guerrillas:a")
                r_top = min(g_here, avail - k)
                r = yield from self.pick_count(
                    "NVA",
                    "Infiltrate: replace how many NVA Guerrillas with Troops?",
                    INFILTRATE,
                    0,
                    r_top,
                    label=lambda v: f"Replace {v}",
                    **ctx.context(step="replace", sa="infiltrate", space=s),
                )
                notes = self.place(s, "nva_troops", k)
                for _ in range(r):
                    key = "nva_guerrillas:a" if self.n(s, "nva_guerrillas:a") else "nva_guerrillas:u"
                    self.board.remove(s, key)
                notes += self.place(s, "nva_troops", r)
                text = f"places {k} NVA Troops and replaces {r} NVA Guerrilla(s) with Troops"
                if notes:
                    text += f" ({'; '.join(notes)})"
            else:
                vc = [
                    k
                    for k in ("vc_guerrillas:u", "vc_guerrillas:a", "vc_bases", "vc_bases:t")
                    if self.n(s, k)
                ]
                vc = [k for k in vc if self.obtainable(k.split(":")[0].replace("vc_", "nva_"), "NVA", s)]
                a = Action.make("none")
                if vc:
                    opts = [Action.make("piece", f"Replace {self.kname(k)}", [s], space=s, key=k) for k in vc]
                    opts.append(Action.make("none", "Replace no VC piece"))
                    a = yield self.decide(
                        "NVA",
                        f"Infiltrate in {self.sname(s)}: replace which VC piece?",
                        INFILTRATE,
                        opts,
                        kind="piece",
                        **ctx.context(step="takeover", sa="infiltrate", space=s),
                    )
                old, new = self.shift_support(s, 1 if self.board.support[s] < 0 else 0)
                text = (
                    f"Opposition {self.level(old)} -> {self.level(new)}"
                    if old != new
                    else "no Opposition to erode"
                )
                if vc:
                    if a.kind == "piece":
                        key = a["key"]
                        nva_pid = key.split(":")[0].replace("vc_", "nva_")
                        self.board.remove(s, key)
                        notes = self.place(s, nva_pid, 1)
                        if key == "vc_bases:t":  # the Tunnel marker flips to NVA (FITL-1.4.4)
                            self.board.pieces[s]["nva_bases"] -= 1
                            if not self.board.pieces[s]["nva_bases"]:
                                del self.board.pieces[s]["nva_bases"]
                            self.board.pieces[s]["nva_bases:t"] += 1
                        text += f"; {self.kname(key)} replaced by its NVA counterpart" + (
                            f" ({'; '.join(notes)})" if notes else ""
                        )
            yield self.oruling(
                INFILTRATE,
                f"Infiltrate in {self.sname(s)}",
                f"Infiltrate in {self.sname(s)}: {text}.",
                result={"space": s, "mode": m["mode"]},
                places=[s],
            )

        yield from self._each_space(
            ctx,
            INFILTRATE,
            "Infiltrate",
            self.infiltrate_spaces,
            2,
            lambda s: f"Infiltrate in {self.sname(s)}",
            body,
        )

    # ================================================================== Bombard (4.4.2)
    def bombard_spaces(self) -> list[str]:
        """FITL-4.4.2: 3+ US/ARVN Troops or a US/ARVN Base, a Troop to remove, and 3+ NVA Troops in or next to it."""
        out = []
        for s in self.spaces():
            troops = self.n(s, "us_troops") + self.n(s, "arvn_troops")
            if not troops or troops < 3 and not (self.n(s, "us_bases") + self.n(s, "arvn_bases")):
                continue
            if any(self.n(x, "nva_troops") >= 3 for x in [s] + self.adjacent(s)):
                out.append(s)
        return out

    def can_bombard(self, ctx: OpCtx) -> bool:
        return bool(self.bombard_spaces())

    def sa_bombard(self, ctx: OpCtx) -> Flow:
        def body(s: str) -> Flow:
            picked = yield from self.pick_pieces(
                "NVA",
                f"Bombard {self.sname(s)}: which Troop?",
                BOMBARD,
                1,
                lambda: [(s, k) for k in ("us_troops", "arvn_troops") if self.n(s, k)],
                lambda sp, k: self.remove_to(sp, k, casualties=True),
                optional=False,
                **ctx.context(step="remove", sa="bombard", space=s),
            )
            cas = " (to Casualties)" if picked and picked[0][1] == "us_troops" else ""
            yield self.oruling(
                BOMBARD,
                f"Bombard {self.sname(s)}",
                f"Bombard {self.sname(s)} (3+ COIN Troops or a COIN Base, 3+ NVA Troops in or next to "
                f"it): removes {self.pieces_text(picked)}{cas}.",
                result={"space": s, "removed": [k for _, k in picked]},
                places=[s],
            )

        yield from self._each_space(
            ctx, BOMBARD, "Bombard", self.bombard_spaces, 2, lambda s: f"Bombard {self.sname(s)}", body
        )

    # ================================================================== Ambush after a March (4.4.3, 4.5.3)
    def ambush_march_spaces(self, ctx: OpCtx) -> list[str]:
        g = "nva_guerrillas" if ctx.faction == "NVA" else "vc_guerrillas"
        return [
            s
            for s in sorted(ctx.marched_underground)
            if s not in ctx.ambush_spaces and self.n(s, f"{g}:u") and self.ambush_targets(s)
        ]

    def can_ambush(self, ctx: OpCtx) -> bool:
        return (
            ctx.op == "march"
            and len(ctx.ambush_spaces) < self.ambush_cap()[0]
            and bool(self.ambush_march_spaces(ctx))
        )

    def sa_ambush(self, ctx: OpCtx) -> Flow:
        rule = NVA_AMBUSH if ctx.faction == "NVA" else VC_AMBUSH

        def body(s: str) -> Flow:
            ctx.sa_spaces.remove(s)  # resolve_ambush records it
            yield from self.resolve_ambush(ctx, s, "a March destination entered Underground")

        yield from self._each_space(
            ctx,
            rule,
            "Ambush",
            lambda: self.ambush_march_spaces(ctx),
            self.ambush_cap()[0] - len(ctx.ambush_spaces),
            lambda s: f"Ambush in {self.sname(s)}",
            body,
        )

    # ================================================================== Tax (4.5.1)
    def tax_spaces(self) -> list[str]:
        return [
            s
            for s in self.spaces()
            if self.n(s, "vc_guerrillas:u") and (not self.is_pc(s) or self.board.control(s) != "coin")
        ]

    def can_tax(self, ctx: OpCtx) -> bool:
        return bool(self.tax_spaces())

    def sa_tax(self, ctx: OpCtx) -> Flow:
        def body(s: str) -> Flow:
            self.board.flip(s, "vc_guerrillas", "a", 1)
            gain = self.econ(s) if self.is_loc(s) else 2 * self.pop(s)
            r0 = self.board.tracks["vc_resources"]
            self.track("vc_resources", gain)
            how = f"Econ {gain}" if self.is_loc(s) else f"2 x Population {self.pop(s)} = {gain}"
            old, new = self.shift_support(s, 1) if self.is_pc(s) else (0, 0)
            shift = f"; {self.level(old)} -> {self.level(new)}" if old != new else ""
            yield self.oruling(
                TAX,
                f"Tax in {self.sname(s)}",
                f"Tax in {self.sname(s)} (no COIN Control): 1 Underground VC Guerrilla turns Active; "
                f"{how}: VC Resources {r0} -> {self.board.tracks['vc_resources']}{shift}.",
                result={"space": s, "gain": gain},
                places=[s],
                inputs={"econ": self.econ(s), "population": self.pop(s)},
            )

        yield from self._each_space(
            ctx, TAX, "Tax", self.tax_spaces, 4, lambda s: f"Tax in {self.sname(s)}", body
        )

    # ================================================================== Subvert (4.5.2)
    def subvert_spaces(self) -> list[str]:
        return [
            s for s in self.spaces() if self.n(s, "vc_guerrillas:u") and sum(self.n(s, k) for k in ARVN_CUBES)
        ]

    def can_subvert(self, ctx: OpCtx) -> bool:
        return bool(self.subvert_spaces())

    def sa_subvert(self, ctx: OpCtx) -> Flow:
        total = [0]

        def body(s: str) -> Flow:
            opts = [Action.make("mode", "Remove 2 ARVN cubes", [s], mode="remove")]
            if self.obtainable("vc_guerrillas", "VC", s):
                opts.append(
                    Action.make("mode", "Replace 1 ARVN cube with a VC Guerrilla", [s], mode="replace")
                )
            m = yield self.decide(
                "VC",
                f"Subvert in {self.sname(s)}: how?",
                SUBVERT,
                opts,
                kind="mode",
                **ctx.context(step="mode", sa="subvert", space=s),
            )
            n = 2 if m["mode"] == "remove" else 1
            picked = yield from self.pick_pieces(
                "VC",
                f"Subvert in {self.sname(s)}: which ARVN cube?",
                SUBVERT,
                n,
                lambda: [(s, k) for k in ARVN_CUBES if self.n(s, k)],
                lambda sp, k: self.board.remove(sp, k),
                optional=False,
                **ctx.context(step="remove", sa="subvert", space=s),
            )
            notes = self.place(s, "vc_guerrillas", 1) if m["mode"] == "replace" else []
            total[0] += len(picked)
            text = f"removes {self.pieces_text(picked)}" + (
                ", replaced by an Underground VC Guerrilla" if m["mode"] == "replace" else ""
            )
            yield self.oruling(
                SUBVERT,
                f"Subvert in {self.sname(s)}",
                f"Subvert in {self.sname(s)}: {text}" + (f" ({'; '.join(notes)})" if notes else "") + ".",
                result={"space": s, "removed": [k for _, k in picked]},
                places=[s],
            )

        yield from self._each_space(
            ctx, SUBVERT, "Subvert", self.subvert_spaces, 2, lambda s: f"Subvert in {self.sname(s)}", body
        )
        drop = total[0] // 2
        p0 = self.board.tracks["patronage"]
        self.track("patronage", -drop)
        yield self.oruling(
            SUBVERT,
            "Subvert saps Patronage",
            f"{total[0]} ARVN piece(s) removed or replaced in all: Patronage -{drop} (1 per 2, rounded "
            f"down): {p0} -> {self.board.tracks['patronage']}.",
            result={"patronage": -drop},
        )
