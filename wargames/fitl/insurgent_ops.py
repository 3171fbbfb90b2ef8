"""Fire in the Lake: the Insurgent Operations Rally, March, Attack and Terror (FITL-3.3, FITL-3.3.1 to FITL-3.3.4).

* FITL-3.3.1 Rally: Provinces/Cities without Support, 1 Resource each: place 1 Guerrilla, or 2 Guerrillas
  become a Base (FITL-1.4.2), or at a Base place up to Trail + Bases (NVA) / Population + Bases (VC) or (VC)
  flip all Guerrillas Underground; then the NVA may pay 2 to Improve the Trail (even when free, FITL-3.1.2,
  and even with no space: FITL-2.3.4 NOTE).  Decision F-55: Active Guerrillas are the ones replaced by a Base.
* FITL-3.3.2 March: never in Monsoon (FITL-2.3.9); 1 Resource per Province or City entered (once per
  destination, decision F-59), 0 onto LoCs; groups entering a LoC or a space with Support go Active when group +
  COIN cubes and Special Forces there exceed 3; NVA may go on from Laos/Cambodia along the Trail (Trail > 0,
  not Limited), free into or out of Laos/Cambodia at Trail 4.
* FITL-3.3.3 Attack: 1 Resource per space; Guerrillas Activate and roll (hit if the die is at most their
  number: up to 2 enemies), or NVA Troops remove 1 per 2 Troops; COIN Bases last; US losses to Casualties;
  1 attacker lost per US Troop or Base removed (attrition).
* FITL-3.3.4 Terror: 1 Resource per Province/City, 0 on LoCs; Activate 1 Underground Guerrilla; a Terror
  marker (or Sabotage on a LoC) if none there and one of the 15 is left; VC shift toward Active Opposition,
  NVA shift Support toward Neutral (decision F-58: the shift happens even where a marker already is).
"""

from __future__ import annotations

from collections import Counter

from ..core import Action, IllegalAction
from .ops_common import GUERRILLAS, Flow, OpCtx, OpsCommon

RALLY_RULE, MARCH_RULE, ATTACK_RULE, TERROR_RULE = "FITL-3.3.1", "FITL-3.3.2", "FITL-3.3.3", "FITL-3.3.4"


class InsurgentOps(OpsCommon):
    """Mixin: the four Insurgent Operations (FITL-3.3)."""

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

    def tax_first_possible(self) -> bool:
        """FITL-4.1 / FITL-4.5.1: the VC could Tax before their Operation and gain Resources by it."""
        spaces = getattr(self, "tax_spaces", None)
        banned = getattr(self, "sa_banned", None)
        if spaces is None or (banned is not None and banned("tax")):
            return False
        return any((self.econ(s) if self.is_loc(s) else 2 * self.pop(s)) > 0 for s in spaces())

    def can_march(self, faction: str, limited: bool, free: bool) -> bool:
        if self.monsoon:
            return False
        return any(
            self.march_destinations(faction, s, set(), free, None) for s in self.march_origins(faction)
        )

    def can_attack(self, faction: str, limited: bool, free: bool) -> bool:
        return bool(self.attack_spaces(faction)) and self.can_pay(faction, 1, free)

    def can_terror(self, faction: str, limited: bool, free: bool) -> bool:
        return any(self.can_pay(faction, self.terror_cost(s), free) for s in self.terror_spaces(faction))

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

    # ================================================================== March (3.3.2)
    def march_origins(self, faction: str) -> list[str]:
        return [s for s in self.spaces() if self.movers(faction, s)]

    def movers(self, faction: str, s: str) -> int:
        g = GUERRILLAS[faction]
        return (
            self.n(s, f"{g}:u") + self.n(s, f"{g}:a") + (self.n(s, "nva_troops") if faction == "NVA" else 0)
        )

    def march_cost(self, faction: str, origin: str, dest: str, paid: set[str]) -> int:
        """FITL-3.3.2: 1 per Province or City entered (once per destination), 0 onto a LoC; at Trail 4 NVA
        moves into or out of Laos/Cambodia are free."""
        if not self.is_pc(dest) or dest in paid:
            return 0
        if (
            faction == "NVA"
            and self.board.tracks["trail"] == 4
            and (self.in_laos_cambodia(dest) or self.in_laos_cambodia(origin))
        ):
            return 0
        return 1

    def march_destinations(
        self, faction: str, origin: str, paid: set[str], free: bool, only: str | None
    ) -> list[str]:
        return [
            d
            for d in self.adjacent(origin)
            if (only is None or d == only)
            and self.can_pay(faction, self.march_cost(faction, origin, d, paid), free)
        ]

    def op_march(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        g = GUERRILLAS[f]
        if self.monsoon:
            raise IllegalAction("FITL-2.3.9", "no March in Monsoon (a Coup card is next)")
        paid: set[str] = set()
        arrived: Counter[tuple[str, str]] = Counter()  # pieces (by id) that entered a space in this March
        trail_on = f == "NVA" and self.board.tracks["trail"] > 0 and not ctx.limited
        groups: set[tuple[str, str]] = (
            set()
        )  # FITL-3.3.2: pieces going from one space to another move as 1 group

        only = (
            ctx.march_pieces
        )  # FITL-5.1.1: an Event's March of Troops only or Guerrillas only (decision F-165)

        def movable(s: str) -> int:
            if ctx.march_origins is not None and s not in ctx.march_origins:
                return 0  # FITL-5.1.1: the Event names where the March starts
            troops = self.n(s, "nva_troops") if f == "NVA" else 0
            n = self.movers(f, s) - (troops if only == "guerrillas" else 0)
            if only == "troops":
                n = troops
            if trail_on and self.in_laos_cambodia(s):
                return n  # FITL-3.3.2 The Trail: pieces that just entered Laos/Cambodia may go on
            back = (arrived[(s, g)] if only != "troops" else 0) + (
                arrived[(s, "nva_troops")] if only != "guerrillas" else 0
            )
            return n - back

        while True:
            opts = []
            for s in self.spaces():
                m = movable(s)
                if m > 0 and [
                    d
                    for d in self.march_destinations(f, s, paid, ctx.free, ctx.dest)
                    if (s, d) not in groups and self.in_scope(ctx, d)
                ]:
                    opts.append(
                        Action.make("move_from", f"March from {self.sname(s)} ({m} may move)", [s], space=s)
                    )
            act = yield from self.op_round(
                ctx,
                MARCH_RULE,
                "March: move a group from a space (or done)",
                opts,
                "move_from",
                bool(ctx.spaces),
            )
            if act is None:
                break
            if act is False:  # FITL-4.1: a Special Activity ran in the middle of the Op: look again
                continue
            s = act["space"]
            dests = [
                d
                for d in self.march_destinations(f, s, paid, ctx.free, ctx.dest)
                if (s, d) not in groups and self.in_scope(ctx, d)
            ]
            dopts = []
            for d in dests:
                c = self.march_cost(f, s, d, paid)
                dopts.append(
                    Action.make(
                        "move_to",
                        f"To {self.sname(d)} ({c} Resource{'s' if c != 1 else ''}"
                        f"{', free Op' if ctx.free and c else ''})",
                        [d],
                        space=d,
                    )
                )
            dact = yield self.decide(
                f,
                f"March from {self.sname(s)}: to which adjacent space?",
                MARCH_RULE,
                dopts,
                kind="move_to",
                check=lambda a: self.refuse_move(ctx, MARCH_RULE, a),
                **ctx.context(step="move_to", origin=s),
            )
            d = dact["space"]
            m = movable(s)
            t = 0
            if f == "NVA":
                t_max = 0 if only == "guerrillas" else min(self.n(s, "nva_troops"), m)
                t_lo = 0 if self.n(s, f"{g}:u") + self.n(s, f"{g}:a") and only != "troops" else 1
                t = yield from self.pick_count(
                    f,
                    "March: how many NVA Troops?",
                    MARCH_RULE,
                    t_lo,
                    t_max,
                    label=lambda x: f"{x} Troops",
                    **ctx.context(step="troops", origin=s, space=d),
                )
            u_max = 0 if only == "troops" else min(self.n(s, f"{g}:u"), m - t)
            a_max = 0 if only == "troops" else min(self.n(s, f"{g}:a"), m - t)
            u_lo = 1 if t == 0 and a_max == 0 else 0
            u = yield from self.pick_count(
                f,
                "March: how many Underground Guerrillas?",
                MARCH_RULE,
                u_lo,
                u_max,
                label=lambda x: f"{x} Underground Guerrillas",
                **ctx.context(step="guerrillas_u", origin=s, space=d),
            )
            a_lo = 1 if t == 0 and u == 0 else 0
            a = yield from self.pick_count(
                f,
                "March: how many Active Guerrillas?",
                MARCH_RULE,
                a_lo,
                min(a_max, m - t - u),
                label=lambda x: f"{x} Active Guerrillas",
                **ctx.context(step="guerrillas_a", origin=s, space=d),
            )
            groups.add((s, d))
            cost = self.march_cost(f, s, d, paid)
            words = (
                self.pay(f, cost, ctx.free, MARCH_RULE, f"March into {self.sname(d)}")
                if cost
                else (
                    "no Resources (LoC)"
                    if not self.is_pc(d)
                    else "no Resources (already paid, or the Trail at 4)"
                )
            )
            if self.is_pc(d):
                paid.add(d)
            for key, k in (("nva_troops", t), (f"{g}:u", u), (f"{g}:a", a)):
                if k:
                    self.board.move(s, d, key, k)
            arrived[(d, g)] += u + a
            arrived[(d, "nva_troops")] += t
            if trail_on and self.in_laos_cambodia(s):
                arrived[(s, g)] = max(0, arrived[(s, g)] - u - a)
                arrived[(s, "nva_troops")] = max(0, arrived[(s, "nva_troops")] - t)
            if d not in ctx.spaces:
                ctx.spaces.append(d)
            if ctx.limited:
                ctx.dest = d
            group = t + u + a
            coin = sum(
                self.n(d, k)
                for k in (
                    "us_troops",
                    "arvn_troops",
                    "arvn_police",
                    "us_irregulars:u",
                    "us_irregulars:a",
                    "arvn_rangers:u",
                    "arvn_rangers:a",
                )
            )
            over, mfb = 3, self.lasting(104, "unshaded")  # FITL-5.3 Main Force Bns: > 1 instead of > 3
            if mfb:
                over = 1
            exposed = (self.is_loc(d) or self.board.support[d] > 0) and group + coin > over
            note = ""
            if exposed and u:
                self.board.flip(d, g, "a", u)
                note = (
                    f" The destination is a {'LoC' if self.is_loc(d) else 'space with Support'} and "
                    f"{group} marching + {coin} COIN cubes/Special Forces = {group + coin} > {over}"
                    + (f" [{mfb}]" if mfb else "")
                    + f": the {u} Underground Guerrilla(s) turn Active."
                )
                clay = self.lasting(
                    17, "unshaded"
                )  # FITL-5.4-MOM Claymores: the Activated group loses a Guerrilla
                if clay:
                    self.board.remove(d, f"{g}:a", 1)
                    note += f" The group loses 1 Guerrilla to Available [{clay}]."
            elif u:
                ctx.marched_underground.add(d)
            yield self.oruling(
                MARCH_RULE,
                f"March into {self.sname(d)}",
                f"{f} March {self.pieces_text({'nva_troops': t, g + ':u': u, g + ':a': a})} from "
                f"{self.sname(s)} into {self.sname(d)}: {words}.{note}",
                result={
                    "from": s,
                    "to": d,
                    "troops": t,
                    "underground": u,
                    "active": a,
                    "activated": exposed and u > 0,
                },
                inputs={"group": group, "coin_at_destination": coin},
                places=[s, d],
            )

    # ================================================================== Attack (3.3.3)
    def attack_spaces(self, faction: str) -> list[str]:
        """FITL-3.3.3: spaces with the faction's pieces and a US or ARVN piece."""
        g = GUERRILLAS[faction]
        out = []
        for s in self.spaces():
            mine = self.n(s, f"{g}:u") + self.n(s, f"{g}:a")
            if faction == "NVA" and self.n(s, "nva_troops") >= 2:
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
