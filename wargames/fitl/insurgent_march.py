"""Fire in the Lake: the Insurgent Operation March (FITL-3.3.2): origins, movers, cost and destinations, and
the March itself with its Activations; a mixin of :class:`~wargames.fitl.insurgent_ops.InsurgentOps`."""

from __future__ import annotations

from collections import Counter

from ..core import Action, IllegalAction
from .insurgent_rally import MARCH_RULE
from .ops_common import COIN_KEYS, GUERRILLAS, Flow, OpCtx, OpsCommon, is_base


class MarchOps(OpsCommon):
    """Mixin: the Insurgent Operation March (FITL-3.3.2)."""

    def can_march(self, faction: str, limited: bool, free: bool) -> bool:
        if self.monsoon:
            return False
        return any(
            self.march_destinations(faction, s, set(), free, None) for s in self.march_origins(faction)
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
            coin = sum(self.n(d, k) for k in COIN_KEYS if not is_base(k))  # the COIN pieces but Bases
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
