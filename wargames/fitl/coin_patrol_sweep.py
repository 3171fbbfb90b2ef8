"""Fire in the Lake: the COIN Operations that move cubes, Patrol and Sweep (FITL-3.2.2, FITL-3.2.3), with their
Activations, the Cobras and Booby Traps Capabilities met on the way; a mixin of :class:`~wargames.fitl.coin_ops.CoinOps`."""

from __future__ import annotations

from collections import Counter

from ..core import Action, IllegalAction
from .coin_train import PATROL_RULE, SWEEP_RULE
from .ops_common import CUBES, DONE, SPECIAL_FORCES, Flow, OpCtx, OpsCommon


class PatrolSweepOps(OpsCommon):
    """Mixin: the COIN Operations Patrol and Sweep (FITL-3.2.2, FITL-3.2.3)."""

    def can_patrol(self, faction: str, limited: bool, free: bool) -> bool:
        """FITL-3.2.2: ARVN must be able to pay 3; a Patrol always counts as executed (FITL-2.3.4 NOTE)."""
        return self.can_pay(faction, self.op_cost(faction, "patrol"), free)

    def can_sweep(self, faction: str, limited: bool, free: bool) -> bool:
        """FITL-3.2.3 / FITL-2.3.9: never in Monsoon."""
        return not self.monsoon and self.can_pay(faction, 3 if faction == "ARVN" else 0, free)

    # ================================================================== Patrol (3.2.2)
    def patrol_reach(self, origin: str) -> list[str]:
        """FITL-3.2.2: LoCs and Cities a cube from ``origin`` can reach, stopping on entering an Insurgent space."""
        lines = self.data.lines_adjacent  # the LoCs and Cities next to each space (static)
        seen: set[str] = set()
        frontier = list(lines[origin])
        while frontier:
            s = frontier.pop()
            if s in seen or s == origin or self.in_nvn(s):
                continue
            seen.add(s)
            if self.insurgent_pieces(s):
                continue
            frontier += [n for n in lines[s] if n not in seen]
        return sorted(seen)

    def op_patrol(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        paid = self.pay(f, self.op_cost(f, "patrol"), ctx.free, PATROL_RULE, "Patrol")
        yield self.oruling(
            PATROL_RULE,
            f"{f} Patrol",
            f"{f} Patrols: {paid} (ARVN pay 3 in all, the US nothing){self.cost_note(f, 'patrol')}.",
            result={"faction": f},
            inputs={"limited": ctx.limited},
        )
        moved: Counter[tuple[str, str]] = Counter()
        while True:
            opts = []
            for s in self.spaces():
                for key in CUBES[f]:
                    free_n = self.n(s, key) - moved[(s, key)]
                    if free_n <= 0:
                        continue
                    reach = [d for d in self.patrol_reach(s) if self.in_scope(ctx, d)]
                    if ctx.dest is not None:
                        reach = [d for d in reach if d == ctx.dest]
                    if reach:
                        opts.append(
                            Action.make(
                                "move_from",
                                f"Move {self.kname(key, 2)[2:]} from {self.sname(s)} ({free_n} may move)",
                                [s],
                                space=s,
                                key=key,
                            )
                        )
            act = yield from self.op_round(
                ctx, PATROL_RULE, "Patrol: move cubes from a space (or done moving)", opts, "move_from", True
            )
            if act is None:
                break
            if act is False:  # FITL-4.1: a Special Activity ran in the middle of the Op: look again
                continue
            s, key = act["space"], act["key"]
            reach = (
                [d for d in self.patrol_reach(s) if self.in_scope(ctx, d)] if ctx.dest is None else [ctx.dest]
            )
            dact = yield from self.pick_destination(
                f, f"Patrol: where do the cubes from {self.sname(s)} go?", PATROL_RULE, ctx, reach, origin=s
            )
            d = dact["space"]
            free_n = self.n(s, key) - moved[(s, key)]
            k = yield from self.pick_count(
                f,
                f"Patrol {self.sname(s)} -> {self.sname(d)}: how many?",
                PATROL_RULE,
                1,
                free_n,
                label=lambda x: f"Move {x}",
                **ctx.context(step="count", origin=s, space=d),
            )
            self.board.move(s, d, key, k)
            moved[(d, key)] += k
            if ctx.limited:
                ctx.dest = d
            if d not in ctx.spaces:
                ctx.spaces.append(d)
            yield self.oruling(
                PATROL_RULE,
                f"Patrol move to {self.sname(d)}",
                f"{self.kname(key, k)} {'moves' if k == 1 else 'move'} from {self.sname(s)} to "
                f"{self.sname(d)} along LoCs and "
                f"through Cities (stopping only on entering an NVA/VC space).",
                result={"from": s, "to": d, "key": key, "n": k},
                places=[s, d],
            )
        # Activation on every LoC with the faction's cubes (F-54: only the destination of a Limited Patrol)
        locs = [s for s in self.spaces() if self.is_loc(s) and sum(self.n(s, k) for k in CUBES[f])]
        if ctx.limited:
            locs = [s for s in locs if s == ctx.dest]
        for s in locs:
            cubes = sum(self.n(s, k) for k in CUBES[f])
            flipped = yield from self.activate_enemy(f, s, cubes, PATROL_RULE, **ctx.context())
            if flipped:
                yield self.oruling(
                    PATROL_RULE,
                    f"Patrol Activates on {self.sname(s)}",
                    f"{cubes} {f} cube(s) on {self.sname(s)} Activate {self.pieces_text(flipped)}.",
                    result={"space": s, "activated": flipped},
                    inputs={"cubes": cubes},
                    places=[s],
                )
        targets = [
            s
            for s in self.spaces()
            if self.is_loc(s) and sum(self.n(s, k) for k in CUBES[f]) and self.insurgent_pieces(s)
        ]
        if ctx.limited:
            targets = [s for s in targets if s == ctx.dest]
        if targets and self.us_assault_banned(f):
            yield self.oruling(
                PATROL_RULE,
                "Patrol: no Assault",
                f"No US Assault on a LoC [{self.us_assault_banned(f)}].",
                result={"assault": False},
            )
            targets = []
        if targets:
            opts = [
                Action.make("space", f"Assault on {self.sname(s)} (no added cost)", [s], space=s)
                for s in targets
            ]
            opts.append(Action.make("none", "No Assault"))
            act = yield self.decide(
                f,
                "Patrol: Assault on one LoC?",
                PATROL_RULE,
                opts,
                kind="space",
                **ctx.context(step="assault"),
            )
            if act.kind == "space":
                yield from self.resolve_assault(
                    f, f, act["space"], f"free Assault on a Patrolled LoC ({PATROL_RULE})"
                )
        m48 = self.lasting(14, "shaded")  # FITL-5.3 M-48 Patton shaded: the NVA remove up to 2 moved cubes
        if m48 and moved:
            left = Counter(moved)

            def legal() -> list[tuple[str, str]]:
                return sorted((sp, k) for (sp, k), v in left.items() if v > 0 and self.n(sp, k))

            def take(sp: str, k: str) -> None:
                left[(sp, k)] -= 1
                self.remove_to(sp, k, 1, casualties=True)

            picked = yield from self.pick_pieces(
                "NVA",
                f"After the Patrol: remove a cube that moved? [{m48}]",
                PATROL_RULE,
                2,
                legal,
                take,
                optional=True,
                **ctx.context(step="remove"),
            )
            yield self.oruling(
                PATROL_RULE,
                f"After the Patrol: {m48}",
                f"The NVA remove {self.pieces_text(picked)} of the cubes that moved [{m48}: up to 2; "
                "US Troops to Casualties].",
                result={"removed": [list(x) for x in picked]},
                places=sorted({sp for sp, _ in picked}),
            )

    # ================================================================== Sweep (3.2.3)
    def sweep_sources(
        self, faction: str, dest: str, moved: Counter[tuple[str, str]]
    ) -> dict[str, str | None]:
        """FITL-3.2.3: spaces whose Troops may Sweep into ``dest``: adjacent, or adjacent to an NVA/VC-free LoC that
        is adjacent to ``dest`` (origin -> the LoC passed, None for a direct move)."""
        key = "us_troops" if faction == "US" else "arvn_troops"
        out: dict[str, str | None] = {}

        def has(s: str) -> bool:
            return self.n(s, key) - moved[(s, key)] > 0 and s != dest

        for s in self.adjacent(dest):
            if has(s):
                out[s] = None
        for loc in self.adjacent(dest):
            if not self.is_loc(loc) or self.insurgent_pieces(loc):
                continue
            for s in self.adjacent(loc):
                if s not in out and has(s):
                    out[s] = loc
        return out

    def op_cubes(self, faction: str) -> tuple[str, ...]:
        """The cubes that count for ``faction``'s Sweep and Assault: its own, or every US/ARVN cube while an Event
        counts ARVN cubes as US Troops (FITL-5.1.1, cards 70 and 99, decision F-167)."""
        if self.__dict__.get("_cubes_as_us"):
            return CUBES["US"] + CUBES["ARVN"]
        return CUBES[faction]

    def sweep_activations(self, faction: str, space: str) -> tuple[int, int]:
        """FITL-3.2.3: (cubes + Special Forces, Guerrillas that may be Activated): half, rounded down, in Jungle."""
        count = (
            sum(self.n(space, k) for k in self.op_cubes(faction))
            + self.n(space, f"{SPECIAL_FORCES[faction]}:u")
            + self.n(space, f"{SPECIAL_FORCES[faction]}:a")
        )
        return count, count // 2 if self.terrain(space) == "jungle" else count

    def why_not_sweep(self, ctx: OpCtx, s: str) -> tuple[str, str] | None:
        if self.monsoon:
            return "FITL-2.3.9", "no Sweep in Monsoon"
        if not self.is_pc(s):
            return SWEEP_RULE, "Sweep destinations are Provinces or Cities, not LoCs"
        if not self.can_pay(ctx.faction, 3 if ctx.faction == "ARVN" else 0, ctx.free):
            return "FITL-3.1", f"ARVN cannot pay 3 Resources for {self.sname(s)}"
        cap, why = self.op_space_cap(ctx.faction, "sweep")
        if len(ctx.spaces) >= cap:
            return "FITL-5.3", f"US Sweep in at most {cap} spaces{why}"
        return None

    def sweep_spaces(self, faction: str) -> list[str]:
        return [s for s in self.spaces() if self.is_pc(s) and not self.in_nvn(s)]

    def op_sweep(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        if self.monsoon:
            raise IllegalAction("FITL-2.3.9", "no Sweep in Monsoon (a Coup card is next)")
        cost = 3 if f == "ARVN" else 0
        cap, cap_why = self.op_space_cap(f, "sweep")
        if cap_why:
            yield self.oruling(
                SWEEP_RULE,
                "Sweep: space limit",
                f"{f} Sweep in at most {cap} spaces{cap_why}.",
                result={"limit": cap},
            )
        while not (ctx.limited and ctx.spaces):
            cands = [
                s
                for s in self.sweep_spaces(f)
                if s not in ctx.spaces and len(ctx.spaces) < cap and self.in_scope(ctx, s)
            ]
            if not self.can_pay(f, cost, ctx.free):
                cands = []
            price = "" if ctx.free or not cost else " (3 ARVN Resources)"
            s = yield from self.choose_op_space(
                ctx,
                SWEEP_RULE,
                "Sweep: choose a destination (or done)",
                cands,
                lambda s, price=price: f"Sweep into {self.sname(s)}{price}",
            )
            if s is None:
                break
            if not s:  # FITL-4.1: a Special Activity ran in the middle of the Op: look at the spaces again
                continue
            paid = self.pay(f, cost, ctx.free, SWEEP_RULE, f"Sweep into {self.sname(s)}")
            ctx.spaces.append(s)
            yield self.oruling(
                SWEEP_RULE,
                f"Sweep into {self.sname(s)}",
                f"Sweep selects {self.sname(s)}: {paid}.",
                result={"space": s},
                places=[s],
            )
        if not ctx.in_place:  # FITL-5.1.1: an Event's Sweep "in place" moves no Troops in
            yield from self.sweep_moves(ctx, ctx.spaces)
        cobras = self.lasting(13, "unshaded")
        struck = 0
        for s in ctx.spaces:
            yield from self.sweep_activate(ctx, s)
            if cobras and struck < 2 and self.cobra_targets(s):
                struck += 1
                yield from self.cobras_strike(ctx, s, cobras)
        yield from self.booby_traps(ctx)

    def cobra_targets(self, s: str) -> list[tuple[str, str]]:
        """FITL-5.3 Cobras unshaded: NVA Troops, else an Active Guerrilla, else an untunneled Base when no other
        Insurgent piece remains (never Underground Guerrillas or Tunneled Bases)."""
        if self.n(s, "nva_troops"):
            return [(s, "nva_troops")]
        act = [(s, k) for k in ("nva_guerrillas:a", "vc_guerrillas:a") if self.n(s, k)]
        if act:
            return act
        if self.n(s, "nva_guerrillas:u") + self.n(s, "vc_guerrillas:u"):
            return []
        return [(s, k) for k in ("nva_bases", "vc_bases") if self.n(s, k)]

    def cobras_strike(self, ctx: OpCtx, s: str, words: str) -> Flow:
        """FITL-5.3 Capability #13 Cobras (unshaded): in up to 2 Sweep spaces, remove 1 enemy piece (optional)."""
        picked = yield from self.pick_pieces(
            ctx.faction,
            f"Sweep in {self.sname(s)}: remove 1 enemy piece? [{words}]",
            SWEEP_RULE,
            1,
            lambda: self.cobra_targets(s),
            lambda sp, k: self.board.remove(sp, k),
            optional=True,
            **ctx.context(step="remove", space=s),
        )
        if picked:
            yield self.oruling(
                SWEEP_RULE,
                f"Sweep in {self.sname(s)}: {words}",
                f"After the Sweep's Activation in {self.sname(s)}, {self.pieces_text(picked)} is removed "
                f"[{words}: up to 2 spaces].",
                result={"space": s, "removed": [k for _, k in picked]},
                places=[s],
            )

    def booby_traps(self, ctx: OpCtx) -> Flow:
        """FITL-5.3 Capability #101 Booby Traps (shaded): after a Sweep, each Sweep space holding a sweeping Troop
        rolls a die; on 1-3 one of those Troops is removed (a US Troop to Casualties)."""
        words = self.lasting(101, "shaded")
        if not words:
            return
        key = "us_troops" if ctx.faction == "US" else "arvn_troops"
        for s in ctx.spaces:
            if not self.n(s, key):
                continue
            roll = self.dice.roll(6, purpose=f"{words} in {self.sname(s)} (1-3 removes a Troop)")
            lost = roll.value <= 3
            if lost:
                self.remove_to(s, key, 1, casualties=True)
            yield self.oruling(
                SWEEP_RULE,
                f"Sweep in {self.sname(s)}: {words}",
                f"After the Sweep, {self.sname(s)} rolls {roll.value} [{words}]: "
                + (f"1 {self.kname(key)[2:]} is removed." if lost else "no loss (4-6)."),
                result={"space": s, "lost": int(lost)},
                dice=[roll],
                places=[s],
            )

    def sweep_moves(self, ctx: OpCtx, dests: list[str]) -> Flow:
        f = ctx.faction
        key = "us_troops" if f == "US" else "arvn_troops"
        moved: Counter[tuple[str, str]] = Counter()
        while True:
            opts = []
            for d in dests:
                for s, via in sorted(self.sweep_sources(f, d, moved).items()):
                    vw = f" via {self.sname(via)}" if via else ""
                    opts.append(
                        Action.make(
                            "move",
                            f"Move Troops from {self.sname(s)} into {self.sname(d)}{vw}",
                            [s, d],
                            origin=s,
                            space=d,
                        )
                    )
            if not opts:
                return
            opts.append(DONE)
            act = yield self.decide(
                f,
                "Sweep: move Troops into a destination (or done moving)",
                SWEEP_RULE,
                opts,
                kind="move",
                **ctx.context(step="move"),
            )
            if act.kind == "done":
                return
            s, d = act["origin"], act["space"]
            via = self.sweep_sources(f, d, moved)[s]
            free_n = self.n(s, key) - moved[(s, key)]
            k = yield from self.pick_count(
                f,
                f"Sweep {self.sname(s)} -> {self.sname(d)}: how many Troops?",
                SWEEP_RULE,
                1,
                free_n,
                label=lambda x: f"Move {x}",
                **ctx.context(step="count", origin=s, space=d),
            )
            self.board.move(s, d, key, k)
            moved[(d, key)] += k
            vw = f" through {self.sname(via)} (free of NVA/VC)" if via else ""
            yield self.oruling(
                SWEEP_RULE,
                f"Sweep move into {self.sname(d)}",
                f"{self.kname(key, k)} {'moves' if k == 1 else 'move'} from {self.sname(s)}{vw} into "
                f"{self.sname(d)}.",
                result={"from": s, "to": d, "via": via, "n": k},
                places=[s, d],
            )

    def sweep_activate(
        self,
        ctx: OpCtx,
        s: str,
        *,
        side: str | None = None,
        faction: str | None = None,
        rule: str = SWEEP_RULE,
    ) -> Flow:
        f = faction or ctx.faction
        count, act_n = self.sweep_activations(f, s)
        flipped = yield from self.activate_enemy(side or ctx.faction, s, act_n, rule, **ctx.context())
        jungle = " (Jungle: 1 per 2, rounded down)" if self.terrain(s) == "jungle" else ""
        yield self.oruling(
            SWEEP_RULE,
            f"Sweep in {self.sname(s)}",
            f"{count} {f} cube(s) and Special Forces in {self.sname(s)} may Activate {act_n} "
            f"Guerrilla(s){jungle}: {self.pieces_text(flipped)} Activated.",
            result={"space": s, "activated": flipped},
            inputs={"cubes_and_sf": count, "max": act_n},
            places=[s],
        )
