"""Fire in the Lake: the Insurgent Operations Attack (with Ambush) and Terror (FITL-3.3.3, FITL-3.3.4, FITL-4.4.3);
a mixin of :class:`~wargames.fitl.insurgent_ops.InsurgentOps`."""

from __future__ import annotations

from ..core import Action
from .insurgent_rally import ATTACK_RULE, TERROR_RULE
from .ops_common import GUERRILLAS, Flow, OpCtx, OpsCommon


class AttackTerrorOps(OpsCommon):
    """Mixin: the Insurgent Operations Attack and Terror (FITL-3.3.3, FITL-3.3.4), and Ambush's removal (FITL-4.4.3)."""

    def can_attack(self, faction: str, limited: bool, free: bool) -> bool:
        return bool(self.attack_spaces(faction)) and self.can_pay(faction, 1, free)

    def can_terror(self, faction: str, limited: bool, free: bool) -> bool:
        return any(self.can_pay(faction, self.terror_cost(s), free) for s in self.terror_spaces(faction))

    # ================================================================== Attack (3.3.3)
    def attack_spaces(self, faction: str) -> list[str]:
        """FITL-3.3.3: spaces with the faction's pieces and a US or ARVN piece."""
        g = GUERRILLAS[faction]
        under, active = f"{g}:u", f"{g}:a"
        pieces = self.board.pieces
        out = []
        for s in self.spaces():
            here = pieces[s]
            mine = here.get(under, 0) + here.get(active, 0)
            if faction == "NVA" and here.get("nva_troops", 0) >= 2:
                mine += 1
            if mine and self.coin_pieces(s):
                out.append(s)
        return out

    def why_not_attack(self, ctx: OpCtx, s: str) -> tuple[str, str] | None:
        if s not in self.attack_spaces(ctx.faction):
            return (
                ATTACK_RULE,
                f"Attack needs {ctx.faction} pieces able to attack and US/ARVN pieces in {self.sname(s)}",
            )
        if not self.can_pay(ctx.faction, 1, ctx.free):
            return "FITL-3.1", f"{ctx.faction} cannot pay 1 Resource"
        return None

    def ambush_targets(self, space: str) -> list[tuple[str, str]]:
        """FITL-4.4.3: the one enemy piece an Ambush may remove: in the space (Bases last) or, from a LoC, in
        any adjacent space (Bases last there)."""
        spaces = [space] + (self.adjacent(space) if self.is_loc(space) else [])
        return [(s, k) for s in spaces for k in self.coin_targets(s)]

    def ambush_ok(self, ctx: OpCtx, s: str) -> bool:
        """FITL-4.4.3 / FITL-4.5.3: an Ambush may still be added here (1-2 spaces, an Underground Guerrilla; not
        under Momentum #17 Claymores, 1 space with #101 unshaded or #115: FITL-5.3 / FITL-5.4)."""
        return (
            ctx.sa_open
            and ctx.sa in (None, "ambush")
            and not self.sa_banned("ambush")  # type: ignore[attr-defined]
            and len(ctx.ambush_spaces) < self.ambush_cap()[0]  # type: ignore[attr-defined]
            and s not in ctx.ambush_spaces
            and self.n(s, f"{GUERRILLAS[ctx.faction]}:u") > 0
            and bool(self.ambush_targets(s))
        )

    def op_attack(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        g = GUERRILLAS[f]
        while not (ctx.limited and ctx.spaces):
            cands = [
                s
                for s in self.spaces()
                if s not in ctx.spaces
                and self.in_scope(ctx, s)
                and (s in self.attack_spaces(f) or self.ambush_ok(ctx, s))
            ]
            if not self.can_pay(f, 1, ctx.free):
                cands = []
            s = yield from self.choose_op_space(
                ctx,
                ATTACK_RULE,
                "Attack: choose a space (or done)",
                cands,
                lambda s: f"Attack in {self.sname(s)}{'' if ctx.free else ' (1 Resource)'}",
            )
            if s is None:
                break
            if not s:  # FITL-4.1: a Special Activity ran in the middle of the Op: look at the spaces again
                continue
            modes = []
            n_g = self.n(s, f"{g}:u") + self.n(s, f"{g}:a")
            if n_g and self.coin_pieces(s):
                modes.append(
                    Action.make(
                        "mode",
                        f"Guerrilla Attack: {n_g} Guerrillas, hit on a die of {n_g} or less",
                        [s],
                        mode="guerrillas",
                    )
                )
            if f == "NVA" and self.n(s, "nva_troops") >= 2 and self.coin_pieces(s):
                modes.append(
                    Action.make(
                        "mode",
                        f"Troop Attack: {self.n(s, 'nva_troops')} NVA Troops remove "
                        f"{self.n(s, 'nva_troops') // 2}",
                        [s],
                        mode="troops",
                    )
                )
            if self.ambush_ok(ctx, s):
                modes.append(
                    Action.make(
                        "mode",
                        "Ambush: sure hit on 1 piece, 1 Guerrilla Activated, no attrition (Special Activity)",
                        [s],
                        mode="ambush",
                    )
                )
            m = yield self.decide(
                f,
                f"Attack in {self.sname(s)}: how?",
                ATTACK_RULE,
                modes,
                kind="mode",
                **ctx.context(step="mode", space=s),
            )
            paid = self.pay(f, 1, ctx.free, ATTACK_RULE, f"Attack in {self.sname(s)}")
            ctx.spaces.append(s)
            if m["mode"] == "ambush":
                yield from self.resolve_ambush(ctx, s, f"Attack space, {paid}")
            else:
                yield from self.resolve_attack(ctx, s, m["mode"], paid)

    def resolve_attack(self, ctx: OpCtx, s: str, mode: str, paid: str) -> Flow:
        """FITL-3.3.3 (with FITL-5.3-CAPS Capability #45 PT-76: unshaded, an NVA Attack space with Troops first loses
        1 Troop; shaded, in 1 space per Attack a Troop Attack removes 1 enemy per Troop)."""
        f = ctx.faction
        g = GUERRILLAS[f]
        rolls = []
        pt76_u, pt76_s = self.lasting(45, "unshaded"), self.lasting(45, "shaded")
        if f == "NVA" and pt76_u and self.n(s, "nva_troops"):
            self.board.remove(s, "nva_troops", 1)
            paid += f"; 1 NVA Troop goes to Available first [{pt76_u}]"
        if mode == "guerrillas":
            u = self.n(s, f"{g}:u")
            if u:
                self.board.flip(s, g, "a", u)
            n_g = self.n(s, f"{g}:a")
            roll = self.dice.roll(6, purpose=f"Attack in {self.sname(s)}: hit if at most {n_g}")
            rolls.append(roll)
            hit = roll.value <= n_g
            limit = 2 if hit else 0
            arith = f"{n_g} Guerrillas Activated; die {roll.value} {'<=' if hit else '>'} {n_g}: " + (
                "hit, up to 2 enemy pieces" if hit else "miss"
            )
        else:
            t = self.n(s, "nva_troops")
            limit = t // 2
            arith = f"{t} NVA Troops / 2, rounded down = {limit} enemy piece(s), no die"
            if pt76_s and not ctx.__dict__.get("pt76_used"):
                ctx.__dict__["pt76_used"] = s
                limit = t
                arith = f"{t} NVA Troops x 1 = {limit} enemy piece(s), no die [{pt76_s}: 1 space per Attack]"
        removed: list[tuple[str, str]] = []
        if limit and self.coin_targets(s):
            yield self.oruling(
                ATTACK_RULE,
                f"{f} Attack in {self.sname(s)}: {limit} to remove",
                f"Attack in {self.sname(s)}: {paid}; {arith}.",
                result={"space": s, "limit": limit},
                inputs={"mode": mode, "guerrillas": self.n(s, f"{g}:a"), "troops": self.n(s, "nva_troops")},
                dice=rolls,
                places=[s],
            )
            rolls = []
            paid = "paid above"

            def take(sp: str, key: str) -> None:
                self.remove_to(sp, key, casualties=True)

            removed = yield from self.pick_pieces(
                f,
                f"Attack in {self.sname(s)}: remove which enemy piece?",
                ATTACK_RULE,
                limit,
                lambda: [(s, k) for k in self.coin_targets(s)],
                take,
                optional=mode == "guerrillas",
                **ctx.context(step="remove", space=s),
            )
        us_hits = sum(1 for _, k in removed if k in ("us_troops", "us_bases"))
        attr_key = f"{g}:a" if mode == "guerrillas" else "nva_troops"
        lost = min(us_hits, self.n(s, attr_key))
        if lost:
            self.board.remove(s, attr_key, lost)
        cas = sum(1 for _, k in removed if k.startswith("us_"))
        yield self.oruling(
            ATTACK_RULE,
            f"{f} Attack in {self.sname(s)}",
            f"Attack in {self.sname(s)}: {paid}; {arith}. Removed {self.pieces_text(removed)}"
            + (f" ({cas} US piece(s) to Casualties)" if cas else "")
            + (f"; attrition: {self.kname(attr_key, lost)} lost for {us_hits} US Troop/Base" if lost else "")
            + ".",
            result={"space": s, "mode": mode, "removed": [k for _, k in removed], "attrition": lost},
            dice=rolls,
            places=[s],
        )

    def resolve_ambush(self, ctx: OpCtx, s: str, why: str) -> Flow:
        """FITL-4.4.3 / FITL-4.5.3 Ambush in ``s``: Activate 1 Underground Guerrilla, remove 1 enemy piece for
        sure (Bases last; from a LoC also in an adjacent space), no attrition; US losses to Casualties."""
        f = ctx.faction
        g = GUERRILLAS[f]
        rule = "FITL-4.4.3" if f == "NVA" else "FITL-4.5.3"
        ctx.sa = "ambush"
        ctx.ambush_spaces.append(s)
        ctx.sa_spaces.append(s)
        n, mfb = 1, self.lasting(104, "shaded")  # FITL-5.3 Main Force Bns shaded: 1 VC Ambush space removes 2
        if f == "VC" and mfb and not ctx.__dict__.get("mfb_used"):
            ctx.__dict__["mfb_used"] = s
            n, why = 2, f"{why}; removes 2 [{mfb}]"
        removed = yield from self.pick_pieces(
            f,
            f"Ambush from {self.sname(s)}: remove which enemy piece?",
            rule,
            n,
            lambda: self.ambush_targets(s),
            lambda sp, k: self.remove_to(sp, k, casualties=True),
            optional=False,
            **ctx.context(step="target", space=s),
        )
        self.board.flip(s, g, "a", 1)
        where = f" in {self.sname(removed[0][0])}" if removed and removed[0][0] != s else ""
        yield self.oruling(
            rule,
            f"{f} Ambush in {self.sname(s)}",
            f"Ambush in {self.sname(s)} ({why}): 1 Underground Guerrilla turns Active; no die, the "
            f"Ambush removes {self.pieces_text(removed)}{where}; no attrition." + self.ambush_cap()[1],  # type: ignore[attr-defined]
            result={"space": s, "removed": [list(x) for x in removed]},
            places=[s] + [x[0] for x in removed],
        )

    # ================================================================== Terror (3.3.4)
    def terror_spaces(self, faction: str) -> list[str]:
        """FITL-3.3.4: spaces with an Underground Guerrilla of the faction (or, for the NVA, an NVA Troop);
        Pop-0 Provinces included (decision F-57)."""
        g = GUERRILLAS[faction]
        out = [
            s for s in self.spaces() if self.n(s, f"{g}:u") or faction == "NVA" and self.n(s, "nva_troops")
        ]
        if faction == "VC" and self.lasting(116, "unshaded"):  # FITL-5.3 Cadres: 2 VC Guerrillas needed
            out = [s for s in out if self.n(s, f"{g}:u") + self.n(s, f"{g}:a") >= 2]
        return out

    def why_not_terror(self, ctx: OpCtx, s: str) -> tuple[str, str] | None:
        if s not in self.terror_spaces(ctx.faction):
            return TERROR_RULE, f"Terror needs an Underground {ctx.faction} Guerrilla" + (
                " or an NVA Troop" if ctx.faction == "NVA" else ""
            ) + f" in {self.sname(s)}"
        if not self.can_pay(ctx.faction, self.terror_cost(s), ctx.free):
            return "FITL-3.1", f"{ctx.faction} cannot pay for Terror in {self.sname(s)}"
        return None

    def terror_cost(self, s: str) -> int:
        return 1 if self.is_pc(s) else 0

    def op_terror(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        g = GUERRILLAS[f]
        while not (ctx.limited and ctx.spaces):
            cands = [
                s
                for s in self.terror_spaces(f)
                if s not in ctx.spaces
                and self.in_scope(ctx, s)
                and self.can_pay(f, self.terror_cost(s), ctx.free)
            ]
            s = yield from self.choose_op_space(
                ctx,
                TERROR_RULE,
                "Terror: choose a space (or done)",
                cands,
                lambda s: (
                    f"Terror in {self.sname(s)} ({'free' if ctx.free else self.terror_cost(s)}"
                    f"{' Resource' if not ctx.free else ''})"
                ),
            )
            if s is None:
                break
            if not s:  # FITL-4.1: a Special Activity ran in the middle of the Op: look at the spaces again
                continue
            paid = self.pay(f, self.terror_cost(s), ctx.free, TERROR_RULE, f"Terror in {self.sname(s)}")
            ctx.spaces.append(s)
            bits = []
            if self.n(s, f"{g}:u"):
                self.board.flip(s, g, "a", 1)
                bits.append("1 Underground Guerrilla turns Active")
            left = self.markers_left()
            if self.is_loc(s):
                if s not in self.board.sabotage and left:
                    self.board.sabotage.add(s)
                    bits.append("a Sabotage marker is placed")
                elif s not in self.board.sabotage:
                    bits.append("no Sabotage marker is left (all 15 on the map)")
                else:
                    bits.append("a Sabotage marker is already there")
            else:
                if not self.board.terror[s] and left:
                    self.board.terror[s] += 1
                    bits.append("a Terror marker is placed")
                elif not self.board.terror[s]:
                    bits.append("no Terror marker is left (all 15 on the map)")
                else:
                    bits.append("a Terror marker is already there (no second one)")
                old, new = (
                    self.shift_support(s, -1)
                    if f == "VC"
                    else self.shift_support(s, -1 if self.board.support[s] > 0 else 0)
                )
                if old != new:
                    bits.append(f"{self.level(old)} -> {self.level(new)}")
            cadres = self.lasting(116, "unshaded") if f == "VC" else ""
            if cadres:  # Active ones first, as decision F-116 does for Tet Offensive
                a_k = min(2, self.n(s, f"{g}:a"))
                if a_k:
                    self.board.remove(s, f"{g}:a", a_k)
                if 2 - a_k:
                    self.board.remove(s, f"{g}:u", 2 - a_k)
                bits.append(f"2 VC Guerrillas go to Available [{cadres}]")
            yield self.oruling(
                TERROR_RULE,
                f"{f} Terror in {self.sname(s)}",
                f"Terror in {self.sname(s)}: {paid}; {'; '.join(bits) or 'no effect'}.",
                result={"space": s, "support": self.board.support[s]},
                places=[s],
                inputs={"markers_left": self.markers_left(), "population": self.pop(s)},
            )
