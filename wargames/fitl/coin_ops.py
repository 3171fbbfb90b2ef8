"""Fire in the Lake: the COIN Operations Train, Patrol, Sweep and Assault (FITL-3.2, FITL-3.2.1 to FITL-3.2.4).

* FITL-3.2: US and ARVN never place or move a piece into North Vietnam (FITL-1.4.2).
* FITL-3.2.1 Train: ARVN in Provinces/Cities without NVA Control, the US where it has pieces; 3 ARVN Resources
  per space where ARVN pieces are placed (decision F-50); then in one selected space Pacify (3 per Terror
  marker and per level, even when free, FITL-3.1.2), an ARVN Base for 3 ARVN cubes, or (US, Saigon) up to 3
  Patronage to ARVN Resources.
* FITL-3.2.2 Patrol: ARVN pay 3 in all; cubes move through LoCs and Cities until they enter an Insurgent space;
  1 Guerrilla Activated per cube on each LoC; then a free Assault on one LoC (F-54: a Limited Patrol Activates
  only in its destination).
* FITL-3.2.3 Sweep: never in Monsoon (FITL-2.3.9); ARVN pay 3 per destination; Troops move in from adjacent
  spaces, possibly through one Insurgent-free LoC; 1 Activation per cube or Special Force (half in Jungle).
* FITL-3.2.4 Assault: the removal formula per faction and terrain, Troops first, Bases last, Tunnels, +6 Aid per
  Base removed by ARVN, and the US's optional ARVN follow-up for 3 ARVN Resources.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..core import Action, IllegalAction
from .ops_common import CUBES, DONE, SPECIAL_FORCES, Flow, OpCtx, OpsCommon

TRAIN_RULE, PATROL_RULE, SWEEP_RULE, ASSAULT_RULE = "FITL-3.2.1", "FITL-3.2.2", "FITL-3.2.3", "FITL-3.2.4"


class CoinOps(OpsCommon):
    """Mixin: the four COIN Operations (FITL-3.2)."""

    # ================================================================== which COIN Ops are possible
    def can_train(self, faction: str, limited: bool, free: bool) -> bool:
        return bool(self.train_spaces(faction))

    def can_patrol(self, faction: str, limited: bool, free: bool) -> bool:
        """FITL-3.2.2: ARVN must be able to pay 3; a Patrol always counts as executed (FITL-2.3.4 NOTE)."""
        return self.can_pay(faction, 3 if faction == "ARVN" else 0, free)

    def can_sweep(self, faction: str, limited: bool, free: bool) -> bool:
        """FITL-3.2.3 / FITL-2.3.9: never in Monsoon."""
        return not self.monsoon and self.can_pay(faction, 3 if faction == "ARVN" else 0, free)

    def can_assault(self, faction: str, limited: bool, free: bool) -> bool:
        return bool(self.assault_spaces(faction)) and self.can_pay(faction, 3 if faction == "ARVN" else 0, free)

    # ================================================================== Train (3.2.1)
    def train_spaces(self, faction: str) -> list[str]:
        """FITL-3.2.1: ARVN: Provinces/Cities without NVA Control; US: Provinces/Cities with a US piece."""
        out = []
        for s in self.spaces():
            if not self.is_pc(s) or self.in_nvn(s):
                continue
            if faction == "ARVN" and self.board.control(s) != "nva" or \
                    faction == "US" and self.board.count(s, "US"):
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
                    opts.append(Action.make("place", f"Place {self.kname('us_irregulars', k)}", [space],
                                            irregulars=k, rangers=0, troops=0, police=0))
            at_base = self.n(space, "us_bases") > 0
        else:
            at_base = self.is_city(space) or self.n(space, "us_bases") + self.n(space, "arvn_bases") > 0
        if at_base and arvn_ok:
            cost = "free" if free else "3 ARVN Resources"
            for k in (1, 2):
                if self.obtainable("arvn_rangers", faction, space) >= k:
                    opts.append(Action.make("place", f"Place {self.kname('arvn_rangers', k)} ({cost})", [space],
                                            irregulars=0, rangers=k, troops=0, police=0))
            nt, np_ = self.obtainable("arvn_troops", faction, space), self.obtainable("arvn_police", faction, space)
            for t in range(0, 7):
                for p in range(0, 7 - t):
                    if 1 <= t + p and t <= nt and p <= np_:
                        opts.append(Action.make("place", f"Place {t} ARVN Troops and {p} Police ({cost})", [space],
                                                irregulars=0, rangers=0, troops=t, police=p))
        return opts

    def op_train(self, ctx: OpCtx) -> Flow:
        f, side = ctx.faction, ctx.faction
        while not (ctx.limited and ctx.spaces):
            cands = [s for s in self.train_spaces(f) if s not in ctx.spaces and s not in ctx.sa_spaces_blocking()]
            during = self.sa_during(ctx)
            if not cands and not during:
                break
            opts = [Action.make("space", f"Train in {self.sname(s)}", [s], space=s) for s in cands]
            opts += during
            if ctx.spaces:
                opts.append(DONE)
            act = yield self.decide(side, "Train: choose a space (or done)", TRAIN_RULE, opts, kind="space",
                                    check=lambda a: self.refuse_space(ctx, TRAIN_RULE, a),
                                    **ctx.context(step="space"))
            if act.kind == "done":
                break
            if act.kind == "sa":  # FITL-4.1: the Special Activity in the middle of the Op
                yield from self.special_activity(ctx, act["sa"])
                continue
            s = act["space"]
            ctx.spaces.append(s)
            pl = yield self.decide(side, f"Train in {self.sname(s)}: what to place?", TRAIN_RULE,
                                   self.train_placements(f, s, ctx.free), kind="place",
                                   **ctx.context(step="place", space=s))
            yield from self._train_place(ctx, s, pl)
        yield from self._train_extra(ctx)

    def _train_place(self, ctx: OpCtx, s: str, pl: Action) -> Flow:
        f = ctx.faction
        irr, rng, tr, po = pl["irregulars"], pl["rangers"], pl["troops"], pl["police"]
        notes: list[str] = []
        paid = "no Resources"
        if rng or tr or po:
            paid = self.pay(f, 3, ctx.free, TRAIN_RULE, f"Training in {self.sname(s)}")
        for pid, k in (("us_irregulars", irr), ("arvn_rangers", rng), ("arvn_troops", tr), ("arvn_police", po)):
            notes += self.place(s, pid, k)
        what = ", ".join(self.kname(p, k) for p, k in (("us_irregulars", irr), ("arvn_rangers", rng),
                                                       ("arvn_troops", tr), ("arvn_police", po)) if k) or "nothing"
        extra = f" ({'; '.join(notes)})" if notes else ""
        yield self.oruling(TRAIN_RULE, f"Train in {self.sname(s)}",
                          f"Train in {self.sname(s)}: {paid}; {f} places {what}{extra}.",
                          result={"space": s, "placed": {"irregulars": irr, "rangers": rng, "troops": tr,
                                                         "police": po}},
                          inputs={"faction": f, "arvn_resources": self.board.tracks["arvn_resources"]},
                          places=[s])

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
            room = 2 - self.board.support[s] if self.pop(s) else 0
            for lv in range(0, min(2, room) + 1):
                cost = 3 * (terror + lv)
                if terror + lv >= 1 and self.can_pay(f, cost):
                    words = ([f"remove {terror} Terror"] if terror else []) + ([f"shift {lv} level(s)"] if lv else [])
                    out.append(Action.make("pacify", f"Pacify {self.sname(s)}: {' and '.join(words)} "
                                                     f"({cost} ARVN Resources)", [s], space=s, levels=lv))
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
                        opts.append(Action.make("base", f"Replace {t} ARVN Troops and {3 - t} Police in "
                                                        f"{self.sname(s)} with an ARVN Base", [s], space=s, troops=t))
        if f == "US" and "saigon" in ctx.spaces:
            for k in range(1, min(3, self.board.tracks["patronage"]) + 1):
                opts.append(Action.make("patronage", f"Transfer {k} Patronage to ARVN Resources in Saigon",
                                        ["saigon"], space="saigon", n=k))
        if not opts:
            return
        opts.append(Action.make("none", "Nothing more"))
        act = yield self.decide(f, "Train: then in one selected space, Pacify, build a Base or transfer Patronage?",
                                TRAIN_RULE, opts, kind="train_extra", check=lambda a: self.refuse_base(TRAIN_RULE, a),
                                **ctx.context(step="extra"))
        if act.kind == "none":
            return
        s = act["space"]
        if act.kind == "pacify":
            lv = act["levels"]
            terror = self.board.terror[s]
            cost = 3 * (terror + lv)
            paid = self.pay(f, cost, False, TRAIN_RULE, "Pacification")
            self.board.terror[s] = 0
            del self.board.terror[s]
            old, new = self.shift_support(s, lv)
            yield self.oruling(TRAIN_RULE, f"Pacify {self.sname(s)}",
                              f"Pacify in {self.sname(s)} (COIN Control): {paid} even if the Train was free; "
                              + (f"{terror} Terror marker(s) removed; " if terror else "")
                              + f"{self.level(old)} -> {self.level(new)}.",
                              result={"space": s, "terror_removed": terror, "support": new},
                              inputs={"cost": cost, "levels": lv}, places=[s])
        elif act.kind == "base":
            t = act["troops"]
            paid = self.pay(f, 3, ctx.free, TRAIN_RULE, "an ARVN Base")
            self.board.remove(s, "arvn_troops", t)
            self.board.remove(s, "arvn_police", 3 - t)
            notes = self.place(s, "arvn_bases", 1)
            yield self.oruling(TRAIN_RULE, f"ARVN Base in {self.sname(s)}",
                              f"{paid}; {t} ARVN Troops and {3 - t} Police in {self.sname(s)} are replaced by an "
                              f"ARVN Base (Bases there now {self.board.count(s, ptype='bases')} of 2)"
                              + (f" ({'; '.join(notes)})" if notes else "") + ".",
                              result={"space": s, "base": True}, places=[s])
        else:
            k = act["n"]
            p0, r0 = self.board.tracks["patronage"], self.board.tracks["arvn_resources"]
            self.track("patronage", -k)
            self.track("arvn_resources", k)
            yield self.oruling(TRAIN_RULE, "Patronage to ARVN Resources",
                              f"US Train in Saigon moves {k} Patronage to ARVN Resources: Patronage {p0} -> "
                              f"{self.board.tracks['patronage']}, ARVN Resources {r0} -> "
                              f"{self.board.tracks['arvn_resources']}.", result={"transferred": k}, places=["saigon"])

    def why_not_train(self, ctx: OpCtx, s: str) -> tuple[str, str] | None:
        if not self.is_pc(s):
            return TRAIN_RULE, "Train only in Provinces or Cities"
        if ctx.faction == "ARVN" and self.board.control(s) == "nva":
            return TRAIN_RULE, f"ARVN may not Train in {self.sname(s)}: it is under NVA Control"
        if ctx.faction == "US" and not self.board.count(s, "US"):
            return TRAIN_RULE, f"the US may Train only where it has pieces; {self.sname(s)} has none"
        if s in ctx.sa_spaces_blocking():
            return "FITL-4.1.1", f"{self.sname(s)} was used by {ctx.sa}, which may not share spaces with Train"
        return None

    # ================================================================== Patrol (3.2.2)
    def patrol_reach(self, origin: str) -> list[str]:
        """FITL-3.2.2: LoCs and Cities a cube from ``origin`` can reach, stopping on entering an Insurgent space."""
        seen: set[str] = set()
        frontier = [n for n in self.adjacent(origin) if not self.is_pc(n) or self.is_city(n)]
        while frontier:
            s = frontier.pop()
            if s in seen or s == origin or self.in_nvn(s):
                continue
            seen.add(s)
            if self.insurgent_pieces(s):
                continue
            frontier += [n for n in self.adjacent(s) if (self.is_loc(n) or self.is_city(n)) and n not in seen]
        return sorted(seen)

    def op_patrol(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        paid = self.pay(f, 3 if f == "ARVN" else 0, ctx.free, PATROL_RULE, "Patrol")
        yield self.oruling(PATROL_RULE, f"{f} Patrol", f"{f} Patrols: {paid} (ARVN pay 3 in all, the US nothing).",
                          result={"faction": f}, inputs={"limited": ctx.limited})
        moved: Counter[tuple[str, str]] = Counter()
        while True:
            opts = []
            for s in self.spaces():
                for key in CUBES[f]:
                    free_n = self.n(s, key) - moved[(s, key)]
                    if free_n <= 0:
                        continue
                    reach = self.patrol_reach(s)
                    if ctx.dest is not None:
                        reach = [d for d in reach if d == ctx.dest]
                    if reach:
                        opts.append(Action.make("move_from", f"Move {self.kname(key, 2)[2:]} from {self.sname(s)} "
                                                             f"({free_n} may move)", [s], space=s, key=key))
            opts += self.sa_during(ctx)
            if not opts:
                break
            opts.append(DONE)
            act = yield self.decide(f, "Patrol: move cubes from a space (or done moving)", PATROL_RULE, opts,
                                    kind="move_from", **ctx.context(step="move_from"))
            if act.kind == "done":
                break
            if act.kind == "sa":  # FITL-4.1: the Special Activity in the middle of the Op
                yield from self.special_activity(ctx, act["sa"])
                continue
            s, key = act["space"], act["key"]
            reach = self.patrol_reach(s) if ctx.dest is None else [ctx.dest]
            dact = yield self.decide(f, f"Patrol: where do the cubes from {self.sname(s)} go?", PATROL_RULE,
                                     [Action.make("move_to", f"To {self.sname(d)}", [d], space=d) for d in reach],
                                     kind="move_to", check=lambda a: self.refuse_move(ctx, PATROL_RULE, a),
                                     **ctx.context(step="move_to", origin=s))
            d = dact["space"]
            free_n = self.n(s, key) - moved[(s, key)]
            k = yield from self.pick_count(f, f"Patrol {self.sname(s)} -> {self.sname(d)}: how many?", PATROL_RULE,
                                           1, free_n, label=lambda x: f"Move {x}",
                                           **ctx.context(step="count", origin=s, space=d))
            self.board.move(s, d, key, k)
            moved[(d, key)] += k
            if ctx.limited:
                ctx.dest = d
            if d not in ctx.spaces:
                ctx.spaces.append(d)
            yield self.oruling(PATROL_RULE, f"Patrol move to {self.sname(d)}",
                              f"{self.kname(key, k)} {'moves' if k == 1 else 'move'} from {self.sname(s)} to "
                              f"{self.sname(d)} along LoCs and "
                              f"through Cities (stopping only on entering an NVA/VC space).",
                              result={"from": s, "to": d, "key": key, "n": k}, places=[s, d])
        # Activation on every LoC with the faction's cubes (F-54: only the destination of a Limited Patrol)
        locs = [s for s in self.spaces() if self.is_loc(s) and sum(self.n(s, k) for k in CUBES[f])]
        if ctx.limited:
            locs = [s for s in locs if s == ctx.dest]
        for s in locs:
            cubes = sum(self.n(s, k) for k in CUBES[f])
            flipped = yield from self.activate_enemy(f, s, cubes, PATROL_RULE, **ctx.context())
            if flipped:
                yield self.oruling(PATROL_RULE, f"Patrol Activates on {self.sname(s)}",
                                  f"{cubes} {f} cube(s) on {self.sname(s)} Activate {self.pieces_text(flipped)}.",
                                  result={"space": s, "activated": flipped}, inputs={"cubes": cubes}, places=[s])
        targets = [s for s in self.spaces() if self.is_loc(s) and sum(self.n(s, k) for k in CUBES[f])
                   and self.insurgent_pieces(s)]
        if ctx.limited:
            targets = [s for s in targets if s == ctx.dest]
        if targets:
            opts = [Action.make("space", f"Assault on {self.sname(s)} (no added cost)", [s], space=s) for s in targets]
            opts.append(Action.make("none", "No Assault"))
            act = yield self.decide(f, "Patrol: Assault on one LoC?", PATROL_RULE, opts, kind="space",
                                    **ctx.context(step="assault"))
            if act.kind == "space":
                yield from self.resolve_assault(f, f, act["space"], f"free Assault on a Patrolled LoC ({PATROL_RULE})")

    # ================================================================== Sweep (3.2.3)
    def sweep_sources(self, faction: str, dest: str, moved: Counter[tuple[str, str]]) -> dict[str, str | None]:
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

    def sweep_activations(self, faction: str, space: str) -> tuple[int, int]:
        """FITL-3.2.3: (cubes + Special Forces, Guerrillas that may be Activated): half, rounded down, in Jungle."""
        count = sum(self.n(space, k) for k in CUBES[faction]) + self.n(space, f"{SPECIAL_FORCES[faction]}:u") + \
            self.n(space, f"{SPECIAL_FORCES[faction]}:a")
        return count, count // 2 if self.terrain(space) == "jungle" else count

    def why_not_sweep(self, ctx: OpCtx, s: str) -> tuple[str, str] | None:
        if self.monsoon:
            return "FITL-2.3.9", "no Sweep in Monsoon"
        if not self.is_pc(s):
            return SWEEP_RULE, "Sweep destinations are Provinces or Cities, not LoCs"
        if not self.can_pay(ctx.faction, 3 if ctx.faction == "ARVN" else 0, ctx.free):
            return "FITL-3.1", f"ARVN cannot pay 3 Resources for {self.sname(s)}"
        return None

    def why_not_assault(self, ctx: OpCtx, s: str) -> tuple[str, str] | None:
        if not sum(self.n(s, k) for k in CUBES[ctx.faction]) or not self.insurgent_pieces(s):
            return ASSAULT_RULE, f"Assault needs {ctx.faction} cubes and NVA/VC pieces in {self.sname(s)}"
        if not self.can_pay(ctx.faction, 3 if ctx.faction == "ARVN" else 0, ctx.free):
            return "FITL-3.1", f"ARVN cannot pay 3 Resources for {self.sname(s)}"
        return None

    def sweep_spaces(self, faction: str) -> list[str]:
        return [s for s in self.spaces() if self.is_pc(s) and not self.in_nvn(s)]

    def op_sweep(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        if self.monsoon:
            raise IllegalAction("FITL-2.3.9", "no Sweep in Monsoon (a Coup card is next)")
        cost = 3 if f == "ARVN" else 0
        while not (ctx.limited and ctx.spaces):
            cands = [s for s in self.sweep_spaces(f) if s not in ctx.spaces]
            if not self.can_pay(f, cost, ctx.free):
                cands = []
            during = self.sa_during(ctx)
            if not cands and not during:
                break
            label = "" if ctx.free or not cost else " (3 ARVN Resources)"
            opts = [Action.make("space", f"Sweep into {self.sname(s)}{label}", [s], space=s) for s in cands]
            opts += during
            if ctx.spaces:
                opts.append(DONE)
            act = yield self.decide(f, "Sweep: choose a destination (or done)", SWEEP_RULE, opts, kind="space",
                                    check=lambda a: self.refuse_space(ctx, SWEEP_RULE, a),
                                    **ctx.context(step="space"))
            if act.kind == "done":
                break
            if act.kind == "sa":  # FITL-4.1: the Special Activity in the middle of the Op
                yield from self.special_activity(ctx, act["sa"])
                continue
            s = act["space"]
            paid = self.pay(f, cost, ctx.free, SWEEP_RULE, f"Sweep into {self.sname(s)}")
            ctx.spaces.append(s)
            yield self.oruling(SWEEP_RULE, f"Sweep into {self.sname(s)}", f"Sweep selects {self.sname(s)}: {paid}.",
                              result={"space": s}, places=[s])
        yield from self.sweep_moves(ctx, ctx.spaces)
        for s in ctx.spaces:
            yield from self.sweep_activate(ctx, s)

    def sweep_moves(self, ctx: OpCtx, dests: list[str]) -> Flow:
        f = ctx.faction
        key = "us_troops" if f == "US" else "arvn_troops"
        moved: Counter[tuple[str, str]] = Counter()
        while True:
            opts = []
            for d in dests:
                for s, via in sorted(self.sweep_sources(f, d, moved).items()):
                    vw = f" via {self.sname(via)}" if via else ""
                    opts.append(Action.make("move", f"Move Troops from {self.sname(s)} into {self.sname(d)}{vw}",
                                            [s, d], origin=s, space=d))
            if not opts:
                return
            opts.append(DONE)
            act = yield self.decide(f, "Sweep: move Troops into a destination (or done moving)", SWEEP_RULE, opts,
                                    kind="move", **ctx.context(step="move"))
            if act.kind == "done":
                return
            s, d = act["origin"], act["space"]
            via = self.sweep_sources(f, d, moved)[s]
            free_n = self.n(s, key) - moved[(s, key)]
            k = yield from self.pick_count(f, f"Sweep {self.sname(s)} -> {self.sname(d)}: how many Troops?",
                                           SWEEP_RULE, 1, free_n, label=lambda x: f"Move {x}",
                                           **ctx.context(step="count", origin=s, space=d))
            self.board.move(s, d, key, k)
            moved[(d, key)] += k
            vw = f" through {self.sname(via)} (free of NVA/VC)" if via else ""
            yield self.oruling(SWEEP_RULE, f"Sweep move into {self.sname(d)}",
                              f"{self.kname(key, k)} {'moves' if k == 1 else 'move'} from {self.sname(s)}{vw} into "
                              f"{self.sname(d)}.",
                              result={"from": s, "to": d, "via": via, "n": k}, places=[s, d])

    def sweep_activate(self, ctx: OpCtx, s: str, *, side: str | None = None, faction: str | None = None,
                       rule: str = SWEEP_RULE) -> Flow:
        f = faction or ctx.faction
        count, act_n = self.sweep_activations(f, s)
        flipped = yield from self.activate_enemy(side or ctx.faction, s, act_n, rule, **ctx.context())
        jungle = " (Jungle: 1 per 2, rounded down)" if self.terrain(s) == "jungle" else ""
        yield self.oruling(SWEEP_RULE, f"Sweep in {self.sname(s)}",
                          f"{count} {f} cube(s) and Special Forces in {self.sname(s)} may Activate {act_n} "
                          f"Guerrilla(s){jungle}: {self.pieces_text(flipped)} Activated.",
                          result={"space": s, "activated": flipped}, inputs={"cubes_and_sf": count, "max": act_n},
                          places=[s])

    # ================================================================== Assault (3.2.4)
    def assault_count(self, faction: str, space: str) -> tuple[int, str]:
        """FITL-3.2.4: how many enemy pieces ``faction``'s cubes remove in ``space``, with the arithmetic
        (Highland, FITL-1.3.2; Police count in Cities and on LoCs, FITL-1.3.3, FITL-1.3.4)."""
        high = self.terrain(space) == "highland"
        if faction == "US":
            t = self.n(space, "us_troops")
            if self.n(space, "us_bases"):
                return 2 * t, f"{t} US Troops x 2 (US Base there) = {2 * t}"
            if high:
                return t // 2, f"{t} US Troops / 2 (Highland, no US Base), rounded down = {t // 2}"
            return t, f"{t} US Troops x 1 = {t}"
        troops, police = self.n(space, "arvn_troops"), self.n(space, "arvn_police")
        if not self.is_pc(space) or self.is_city(space):
            cubes = troops + police
            what = f"{troops} ARVN Troops + {police} Police = {cubes}"
        else:
            cubes = troops
            what = f"{troops} ARVN Troops" + (" (Police do not count in a Province)" if police else "")
        div = 3 if high else 2
        return cubes // div, f"{what} / {div}{' (Highland)' if high else ''}, rounded down = {cubes // div}"

    def assault_spaces(self, faction: str) -> list[str]:
        return [s for s in self.spaces() if sum(self.n(s, k) for k in CUBES[faction]) and self.insurgent_pieces(s)]

    def resolve_assault(self, side: str, faction: str, s: str, why: str, rule: str = ASSAULT_RULE,
                        pay: Callable[[], str] | None = None) -> Flow:
        """FITL-3.2.4: one Assault by ``faction``'s cubes in ``s`` (``side`` decides the choices; ``pay()``, if
        given, pays after the choices and returns the words for ``why``)."""
        n, arith = self.assault_count(faction, s)
        removed, rolls, note = yield from self.assault_remove(side, s, n, ASSAULT_RULE, faction=side, op="assault")
        if pay is not None:
            why = pay()
        bases = sum(v for k, v in removed.items() if k.startswith(("nva_bases", "vc_bases")))
        aid = ""
        if faction == "ARVN" and bases:
            a0 = self.board.tracks["aid"]
            self.track("aid", 6 * bases)
            aid = f" +6 Aid per Base removed: Aid {a0} -> {self.board.tracks['aid']}."
        yield self.oruling(rule, f"{faction} Assault in {self.sname(s)}",
                          f"{faction} Assault in {self.sname(s)} ({why}): {arith}; removes "
                          f"{self.pieces_text(removed)}" + (f"; {note}" if note else "") + "." + aid,
                          result={"space": s, "removed": removed, "limit": n}, inputs={"formula": arith},
                          dice=rolls, places=[s])

    def op_assault(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        cost = 3 if f == "ARVN" else 0
        while not (ctx.limited and ctx.spaces):
            cands = [s for s in self.assault_spaces(f) if s not in ctx.spaces]
            if not self.can_pay(f, cost, ctx.free):
                cands = []
            during = self.sa_during(ctx)
            if not cands and not during:
                break
            opts = []
            for s in cands:
                n, _ = self.assault_count(f, s)
                price = "" if ctx.free or not cost else ", 3 ARVN Resources"
                opts.append(Action.make("space", f"Assault in {self.sname(s)} (removes up to {n}{price})", [s],
                                        space=s))
            opts += during
            if ctx.spaces:
                opts.append(DONE)
            act = yield self.decide(f, "Assault: choose a space (or done)", ASSAULT_RULE, opts, kind="space",
                                    check=lambda a: self.refuse_space(ctx, ASSAULT_RULE, a),
                                    **ctx.context(step="space"))
            if act.kind == "done":
                break
            if act.kind == "sa":  # FITL-4.1: the Special Activity in the middle of the Op
                yield from self.special_activity(ctx, act["sa"])
                continue
            s = act["space"]
            ctx.spaces.append(s)
            yield from self.resolve_assault(f, f, s, "", pay=lambda s=s: self.pay(
                f, cost, ctx.free, ASSAULT_RULE, f"Assault in {self.sname(s)}"))
        if f == "US":
            follow = [s for s in ctx.spaces if sum(self.n(s, k) for k in CUBES["ARVN"]) and self.insurgent_pieces(s)]
            if follow and self.can_pay("US", 3, ctx.free):
                opts = [Action.make("space", f"ARVN follow-up Assault in {self.sname(s)} "
                                             f"({'free' if ctx.free else '3 ARVN Resources'})", [s], space=s)
                        for s in follow]
                opts.append(Action.make("none", "No ARVN follow-up"))
                act = yield self.decide("US", "Assault: add an ARVN Assault in one US Assault space?", ASSAULT_RULE,
                                        opts, kind="space", **ctx.context(step="follow_up"))
                if act.kind == "space":
                    yield from self.resolve_assault(
                        "US", "ARVN", act["space"], "",
                        pay=lambda: "follow-up to the US Assault: " + self.pay(
                            "US", 3, ctx.free, ASSAULT_RULE, "the ARVN follow-up Assault") + "; ARVN stay Eligible")
