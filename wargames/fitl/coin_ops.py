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

Capabilities and Momentum (FITL-5.3, FITL-5.4; each named in the ruling it changes): Momentum #72 Body Count
(Assault and Patrol cost 0, +3 Aid per Guerrilla an Assault removes), #78 shaded (no US Assault); Capability #11
shaded (US Assault in at most 2 spaces), #18 shaded (US Sweep in at most 2 spaces), #13 shaded (a US Assault space
with US Troops loses one on a die of 1-3), #14 unshaded (+2 removals in up to 2 non-Lowland US Assault spaces),
#28 shaded (Assaulted Provinces shift toward Active Opposition), #101 shaded (a Sweep space may lose a sweeping
Troop on a die of 1-3); #11 unshaded (a Base first), #28 unshaded (an Underground Guerrilla, decision F-154),
#13 unshaded (Sweep removes 1 in up to 2 spaces), #14 shaded (NVA remove 2 Patrol cubes), #18 unshaded (a free
Police), #19 (CORDS: 2 Pacify spaces / Passive at most), #61 unshaded (via Transport).  Rows FITL-5.3-CAPS and
FITL-5.4-MOM; decisions F-150 (naming), F-151 (Cobras shaded in a Patrol's Assault), F-153 (Body Count everywhere
an Assault is made), F-157 (M-48 unshaded: the first 2 qualifying spaces).
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

    def op_cost(self, faction: str, op: str) -> int:
        """FITL-3.2.2 / FITL-3.2.3 / FITL-3.2.4: ARVN pay 3 (per space, Patrol in all), the US nothing; Momentum
        #72 Body Count makes Assault and Patrol cost 0 (FITL-5.4)."""
        if faction != "ARVN" or op in ("assault", "patrol") and self.lasting(72, "unshaded"):
            return 0
        return 3

    def cost_note(self, faction: str, op: str) -> str:
        """The words naming a lasting effect on the cost of ``op`` (for the ruling), or ""."""
        words = self.lasting(72, "unshaded") if op in ("assault", "patrol") else ""
        return f" [{op.capitalize()} costs 0: {words}]" if words else ""

    def us_assault_banned(self, faction: str) -> str:
        """FITL-5.4: Momentum #78 General Lansdale (shaded) forbids US Assault (the Operation and a Patrol's
        Assault step); an Event's own free US Assault still happens (FITL-5.1.2)."""
        if faction != "US" or self.__dict__.get("_ev_free_op"):
            return ""
        return self.lasting(78, "shaded")

    def op_space_cap(self, faction: str, op: str) -> tuple[int, str]:
        """FITL-5.3: US Assault at most 2 spaces with #11 Abrams shaded, US Sweep with #18 CAPs shaded."""
        if faction == "US" and op == "assault":
            return self.lasting_limit(99, (11, "shaded", 2))
        if faction == "US" and op == "sweep":
            return self.lasting_limit(99, (18, "shaded", 2))
        return 99, ""

    def can_patrol(self, faction: str, limited: bool, free: bool) -> bool:
        """FITL-3.2.2: ARVN must be able to pay 3; a Patrol always counts as executed (FITL-2.3.4 NOTE)."""
        return self.can_pay(faction, self.op_cost(faction, "patrol"), free)

    def can_sweep(self, faction: str, limited: bool, free: bool) -> bool:
        """FITL-3.2.3 / FITL-2.3.9: never in Monsoon."""
        return not self.monsoon and self.can_pay(faction, 3 if faction == "ARVN" else 0, free)

    def can_assault(self, faction: str, limited: bool, free: bool) -> bool:
        if self.us_assault_banned(faction):
            return False
        return bool(self.assault_spaces(faction)) and self.can_pay(
            faction, self.op_cost(faction, "assault"), free
        )

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
            dact = yield self.decide(
                f,
                f"Patrol: where do the cubes from {self.sname(s)} go?",
                PATROL_RULE,
                [Action.make("move_to", f"To {self.sname(d)}", [d], space=d) for d in reach],
                kind="move_to",
                check=lambda a: self.refuse_move(ctx, PATROL_RULE, a),
                **ctx.context(step="move_to", origin=s),
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

    def why_not_assault(self, ctx: OpCtx, s: str) -> tuple[str, str] | None:
        if not sum(self.n(s, k) for k in self.op_cubes(ctx.faction)) or not self.insurgent_pieces(s):
            return ASSAULT_RULE, f"Assault needs {ctx.faction} cubes and NVA/VC pieces in {self.sname(s)}"
        if not self.can_pay(ctx.faction, self.op_cost(ctx.faction, "assault"), ctx.free):
            return "FITL-3.1", f"ARVN cannot pay 3 Resources for {self.sname(s)}"
        cap, why = self.op_space_cap(ctx.faction, "assault")
        if len(ctx.spaces) >= cap:
            return "FITL-5.3", f"US Assault in at most {cap} spaces{why}"
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

    # ================================================================== Assault (3.2.4)
    def assault_count(self, faction: str, space: str) -> tuple[int, str]:
        """FITL-3.2.4: how many enemy pieces ``faction``'s cubes remove in ``space``, with the arithmetic
        (Highland, FITL-1.3.2; Police count in Cities and on LoCs, FITL-1.3.3, FITL-1.3.4)."""
        high = self.terrain(space) == "highland"
        as_us = bool(
            self.__dict__.get("_cubes_as_us")
        )  # FITL-5.1.1 (cards 70, 99): ARVN cubes as US Troops (F-167)
        if faction == "US" or as_us:
            t = sum(self.n(space, k) for k in self.op_cubes("US"))
            what = "US/ARVN cubes as US Troops" if as_us else "US Troops"
            if self.n(space, "us_bases"):
                return 2 * t, f"{t} {what} x 2 (US Base there) = {2 * t}"
            if high:
                return t // 2, f"{t} {what} / 2 (Highland, no US Base), rounded down = {t // 2}"
            return t, f"{t} {what} x 1 = {t}"
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
        return [
            s
            for s in self.spaces()
            if sum(self.n(s, k) for k in self.op_cubes(faction)) and self.insurgent_pieces(s)
        ]

    def resolve_assault(
        self,
        side: str,
        faction: str,
        s: str,
        why: str,
        rule: str = ASSAULT_RULE,
        pay: Callable[[], str] | None = None,
        bonus: int = 0,
        bonus_why: str = "",
        base_first: str = "",
        nva_only: bool = False,
        no_tunnels: bool = False,
    ) -> Flow:
        """FITL-3.2.4: one Assault by ``faction``'s cubes in ``s`` (``side`` decides the choices; ``pay()``, if
        given, pays after the choices and returns the words for ``why``)."""
        n, arith = self.assault_count(faction, s)
        if bonus:
            n += bonus
            arith += f", +{bonus} [{bonus_why}] = {n}"
        pre: dict[str, int] = {}
        if base_first and n:  # FITL-5.3 Abrams unshaded: one untunneled Base as the first removal
            k = yield from self.split_pick(
                side, s, ASSAULT_RULE, 1, "nva_bases", "vc_bases", "Remove", faction=side, op="assault"
            )
            key = "nva_bases" if k else "vc_bases"
            self.board.remove(s, key)
            pre[key] = 1
            n -= 1
            arith += f"; a Base removed first [{base_first}]"
            yield self.oruling(
                rule,
                f"{faction} Assault in {self.sname(s)}: a Base first",
                f"{self.kname(key)} in {self.sname(s)} is removed first [{base_first}].",
                result={"space": s, "removed": {key: 1}},
                places=[s],
            )
        sd = self.lasting(28, "unshaded") if faction == "US" else ""
        under = self.n(s, "nva_guerrillas:u") + self.n(s, "vc_guerrillas:u")
        exposed = self.n(s, "nva_troops") + self.n(s, "nva_guerrillas:a") + self.n(s, "vc_guerrillas:a")
        if sd and under and (n == 0 or n > exposed):  # FITL-5.3 Search and Destroy: 1 Underground Guerrilla
            k = yield from self.split_pick(
                side,
                s,
                ASSAULT_RULE,
                1,
                "nva_guerrillas:u",
                "vc_guerrillas:u",
                "Remove",
                faction=side,
                op="assault",
            )
            key = "nva_guerrillas:u" if k else "vc_guerrillas:u"
            self.board.remove(s, key)
            pre[key] = 1
            n = max(0, n - 1)
            arith += f"; 1 Underground Guerrilla removed [{sd}] (decision F-154)"
            yield self.oruling(
                rule,
                f"{faction} Assault in {self.sname(s)}: an Underground Guerrilla",
                f"{self.kname(key)} in {self.sname(s)} is removed [{sd}].",
                result={"space": s, "removed": {key: 1}},
                places=[s],
            )
        removed, rolls, note = yield from self.assault_remove(
            side, s, n, ASSAULT_RULE, faction=side, op="assault", nva_only=nva_only, no_tunnels=no_tunnels
        )
        for key, k in pre.items():
            removed[key] = removed.get(key, 0) + k
        if pay is not None:
            why = pay()
        extra = ""
        guerrillas = sum(v for k, v in removed.items() if "guerrillas" in k)
        body_count = self.lasting(72, "unshaded")  # decision F-153
        if body_count and guerrillas:
            a0 = self.board.tracks["aid"]
            self.track("aid", 3 * guerrillas)
            extra += f" +3 Aid per Guerrilla removed [{body_count}]: Aid {a0} -> {self.board.tracks['aid']}."
        sd = self.lasting(28, "shaded")
        if sd and self.is_pc(s) and not self.is_city(s) and faction in ("US", "ARVN"):
            old, new = self.shift_support(s, -1)
            if old != new:
                extra += f" {self.sname(s)} {self.level(old)} -> {self.level(new)} [{sd}]."
        if faction == "US" and self.lasting(13, "shaded") and self.n(s, "us_troops"):  # decision F-151
            words = self.lasting(13, "shaded")
            roll = self.dice.roll(6, purpose=f"{words} in {self.sname(s)} (1-3 costs a US Troop)")
            rolls.append(roll)
            if roll.value <= 3:
                self.remove_to(s, "us_troops", 1, casualties=True)
                extra += f" Die {roll.value} (1-3): 1 US Troop to Casualties [{words}]."
            else:
                extra += f" Die {roll.value} (4-6): no US loss [{words}]."
        bases = sum(v for k, v in removed.items() if k.startswith(("nva_bases", "vc_bases")))
        aid = ""
        if faction == "ARVN" and bases:
            a0 = self.board.tracks["aid"]
            self.track("aid", 6 * bases)
            aid = f" +6 Aid per Base removed: Aid {a0} -> {self.board.tracks['aid']}."
        yield self.oruling(
            rule,
            f"{faction} Assault in {self.sname(s)}",
            f"{faction} Assault in {self.sname(s)} ({why}): {arith}; removes "
            f"{self.pieces_text(removed)}" + (f"; {note}" if note else "") + "." + aid + extra,
            result={"space": s, "removed": removed, "limit": n},
            inputs={"formula": arith},
            dice=rolls,
            places=[s],
        )

    def op_assault(self, ctx: OpCtx) -> Flow:
        f = ctx.faction
        if self.us_assault_banned(f):
            raise IllegalAction("FITL-5.4", f"no US Assault while {self.us_assault_banned(f)} is in play")
        cost = self.op_cost(f, "assault")
        cap, cap_why = self.op_space_cap(f, "assault")
        if cap_why or self.cost_note(f, "assault"):
            yield self.oruling(
                ASSAULT_RULE,
                "Assault: lasting effects",
                f"{f} Assault"
                + (f" in at most {cap} spaces{cap_why}" if cap_why else "")
                + self.cost_note(f, "assault")
                + ".",
                result={"limit": min(cap, 99), "cost": cost},
            )
        m48 = self.lasting(14, "unshaded") if f == "US" else ""
        m48_used = 0
        abrams_used = False
        while not (ctx.limited and ctx.spaces):
            cands = [
                s
                for s in self.assault_spaces(f)
                if s not in ctx.spaces
                and len(ctx.spaces) < cap
                and self.in_scope(ctx, s)
                and (not ctx.nva_only or self.board.count(s, "NVA"))
            ]
            if not self.can_pay(f, cost, ctx.free):
                cands = []
            price = "" if ctx.free or not cost else ", 3 ARVN Resources"
            s = yield from self.choose_op_space(
                ctx,
                ASSAULT_RULE,
                "Assault: choose a space (or done)",
                cands,
                lambda s, price=price: (
                    f"Assault in {self.sname(s)} (removes up to {self.assault_count(f, s)[0]}{price})"
                ),
            )
            if s is None:
                break
            if not s:  # FITL-4.1: a Special Activity ran in the middle of the Op: look at the spaces again
                continue
            ctx.spaces.append(s)
            bonus = 2 if m48 and m48_used < 2 and self.terrain(s) != "lowland" else 0  # decision F-157
            m48_used += bool(bonus)
            base_first = ""
            abrams = self.lasting(11, "unshaded") if f == "US" and not abrams_used else ""
            if (
                abrams
                and self.assault_count(f, s)[0] + bonus
                and self.n(s, "nva_bases") + self.n(s, "vc_bases")
            ):
                yes = yield self.decide(
                    f,
                    f"Assault in {self.sname(s)}: remove a Base first? [{abrams}]",
                    ASSAULT_RULE,
                    [Action.make("yes", "Remove an untunneled Base first"), Action.make("no", "Usual order")],
                    kind="yesno",
                    **ctx.context(step="base_first", space=s),
                )
                if yes.kind == "yes":
                    base_first, abrams_used = abrams, True
            yield from self.resolve_assault(
                f,
                f,
                s,
                "",
                pay=lambda s=s: self.pay(f, cost, ctx.free, ASSAULT_RULE, f"Assault in {self.sname(s)}"),
                bonus=bonus,
                bonus_why=m48,
                base_first=base_first,
                nva_only=ctx.nva_only,
                no_tunnels=ctx.no_tunnels,
            )
        if f == "US" and not self.__dict__.get(
            "_cubes_as_us"
        ):  # ARVN cubes already counted (F-167): no follow-up
            follow = [
                s for s in ctx.spaces if sum(self.n(s, k) for k in CUBES["ARVN"]) and self.insurgent_pieces(s)
            ]
            fcost = self.op_cost("ARVN", "assault")
            if follow and self.can_pay("US", fcost, ctx.free):
                opts = [
                    Action.make(
                        "space",
                        f"ARVN follow-up Assault in {self.sname(s)} "
                        f"({'free' if ctx.free or not fcost else '3 ARVN Resources'})",
                        [s],
                        space=s,
                    )
                    for s in follow
                ]
                opts.append(Action.make("none", "No ARVN follow-up"))
                act = yield self.decide(
                    "US",
                    "Assault: add an ARVN Assault in one US Assault space?",
                    ASSAULT_RULE,
                    opts,
                    kind="space",
                    **ctx.context(step="follow_up"),
                )
                if act.kind == "space":
                    yield from self.resolve_assault(
                        "US",
                        "ARVN",
                        act["space"],
                        "",
                        pay=lambda: (
                            "follow-up to the US Assault: "
                            + self.pay("US", fcost, ctx.free, ASSAULT_RULE, "the ARVN follow-up Assault")
                            + "; ARVN stay Eligible"
                            + self.cost_note("ARVN", "assault")
                        ),
                    )
