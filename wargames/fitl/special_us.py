"""Fire in the Lake: the US Special Activities Advise, Air Lift and Air Strike (FITL-4.2.1 to FITL-4.2.3), with
the Trail degrading and SA-2s of an Air Strike; a mixin of :class:`~wargames.fitl.special_coin.CoinSpecialActivities`."""

from __future__ import annotations

from collections import Counter

from ..core import Action
from .ops_common import DONE, INSURGENT_KEYS, Flow, OpCtx, is_base
from .special import (
    ADVISE,
    AIRLIFT,
    ARVN_CUBES,
    LIFT_KEYS,
    STRIKE,
    SpecialActivities,
)


class UsActivities(SpecialActivities):
    """Mixin: Advise, Air Lift, Air Strike (US, FITL-4.2)."""

    # ================================================================== Advise (4.2.1)
    def advise_modes(self, s: str) -> list[str]:
        modes = []
        arvn = sum(self.n(s, k) for k in ARVN_CUBES)
        underground = self.n(s, "nva_guerrillas:u") + self.n(s, "vc_guerrillas:u")
        if not self.monsoon and underground and self.sweep_activations("ARVN", s)[1]:
            modes.append("sweep")
        if arvn and self.insurgent_pieces(s) and self.assault_count("ARVN", s)[0]:
            modes.append("assault")
        if (self.n(s, "us_irregulars:u") or self.n(s, "arvn_rangers:u")) and self.enemy_removable(s):
            modes.append("strike")
        return modes

    def advise_spaces(self, ctx: OpCtx) -> list[str]:
        train = ctx.spaces if ctx.op == "train" else []
        return [s for s in self.spaces() if s not in train and not self.in_nvn(s) and self.advise_modes(s)]

    def can_advise(self, ctx: OpCtx) -> bool:
        return bool(self.advise_spaces(ctx))

    def sa_advise(self, ctx: OpCtx) -> Flow:
        def body(s: str) -> Flow:
            names = {
                "sweep": "ARVN Sweep in place (no movement)",
                "assault": "ARVN Assault",
                "strike": "Activate an Underground Irregular or Ranger to remove 2 enemy pieces",
            }
            modes = self.advise_modes(s)
            m = yield self.decide(
                "US",
                f"Advise in {self.sname(s)}: how?",
                ADVISE,
                [Action.make("mode", names[x], [s], mode=x) for x in modes],
                kind="mode",
                **ctx.context(step="mode", sa="advise", space=s),
            )
            mode = m["mode"]
            if mode == "sweep":
                yield from self.sweep_activate(ctx, s, side="US", faction="ARVN", rule=ADVISE)
            elif mode == "assault":
                yield from self.resolve_assault(
                    "US", "ARVN", s, f"by Advise ({ADVISE}), no cost", rule=ADVISE
                )
            else:
                sf = "us_irregulars" if self.n(s, "us_irregulars:u") else "arvn_rangers"
                if self.n(s, "us_irregulars:u") and self.n(s, "arvn_rangers:u"):
                    which = yield self.decide(
                        "US",
                        "Advise: which Special Force Activates?",
                        ADVISE,
                        [
                            Action.make("piece", self.kname(k), [s], space=s, key=k)
                            for k in ("us_irregulars:u", "arvn_rangers:u")
                        ],
                        kind="piece",
                        **ctx.context(step="sf", sa="advise", space=s),
                    )
                    sf = which["key"].split(":")[0]
                picked = yield from self.strike_two(
                    "US", s, ADVISE, **ctx.context(sa="advise", step="remove")
                )
                self.board.flip(s, sf, "a", 1)
                yield self.oruling(
                    ADVISE,
                    f"Advise in {self.sname(s)}",
                    f"Advise in {self.sname(s)}: 1 Underground {self.kname(sf, 1)[2:]} turns Active and "
                    f"removes {self.pieces_text(picked)} (Bases only once no other enemy piece is "
                    f"there, never a Tunneled Base).",
                    result={"space": s, "removed": [k for _, k in picked]},
                    places=[s],
                )

        yield from self._each_space(
            ctx,
            ADVISE,
            "Advise",
            lambda: self.advise_spaces(ctx),
            2,
            lambda s: f"Advise in {self.sname(s)}",
            body,
        )
        if self.board.tracks["aid"] < 75:
            yes = yield from self.yesno(
                "US",
                "Advise: add +6 Aid?",
                ADVISE,
                "Add +6 Aid",
                "No Aid",
                **ctx.context(step="aid", sa="advise"),
            )
            if yes:
                a0 = self.board.tracks["aid"]
                self.track("aid", 6)
                yield self.oruling(
                    ADVISE,
                    "Advise adds Aid",
                    f"Advise adds +6 Aid: {a0} -> {self.board.tracks['aid']} (at most 75).",
                    result={"aid": self.board.tracks["aid"]},
                )

    # ================================================================== Air Lift (4.2.2)
    def lift_keys(self) -> tuple[str, ...]:
        """The pieces Air Lift may carry (FITL-4.2.2); US pieces only in Monsoon under High Winds (FITL-TOURNAMENT)."""
        if self.monsoon and "high_winds" in (self.rules_opts.get("tournament") or []):
            return tuple(k for k in LIFT_KEYS if k.startswith("us_"))
        return LIFT_KEYS

    def can_air_lift(self, ctx: OpCtx) -> bool:
        return any(self.n(s, k) for s in self.spaces() if not self.in_nvn(s) for k in self.lift_keys())

    def sa_air_lift(self, ctx: OpCtx) -> Flow:
        """FITL-4.2.2 (decision F-61): origins and destinations count toward the 4 (Monsoon 2) spaces.  With the
        High Winds tournament option (FITL-TOURNAMENT) a Monsoon Air Lift moves US pieces only."""
        limit = 2 if self.monsoon else 4
        keys_ok = self.lift_keys()
        if keys_ok != LIFT_KEYS:
            yield self.oruling(
                "FITL-TOURNAMENT",
                "Air Lift: High Winds",
                "High Winds (a tournament option): in Monsoon an Air Lift carries US Troops and "
                "Irregulars only; ARVN pieces stay where they are.",
                result={"pieces": list(keys_ok)},
            )
        used: list[str] = []
        moved: Counter[tuple[str, str]] = Counter()
        arvn_lifted = 0

        def liftable(s: str) -> dict[str, int]:
            out = {}
            for k in keys_ok:  # FITL-TOURNAMENT High Winds: no ARVN piece rides a Monsoon Air Lift
                free = self.n(s, k) - moved[(s, k)]
                if k != "us_troops":
                    free = min(free, 4 - arvn_lifted)
                if free > 0:
                    out[k] = free
            return out

        def dests_for(s: str) -> list[str]:
            base = set(used) | {s}
            return [
                d
                for d in self.spaces()
                if d != s
                and not self.in_nvn(d)
                and len(base | {d}) <= limit
                and (ctx.sa_allowed is None or d in ctx.sa_allowed)
            ]  # FITL-5.1.1: an Event's "Air Lift into"

        while True:
            origins = [
                s
                for s in self.spaces()
                if not self.in_nvn(s) and liftable(s) and len(set(used) | {s}) <= limit and dests_for(s)
            ]
            if not origins:
                break
            opts = [Action.make("move_from", f"Air Lift from {self.sname(s)}", [s], space=s) for s in origins]
            if used:  # at least one lift before stopping (an SA must do something, decision F-63)
                opts.append(DONE)
            a = yield self.decide(
                "US",
                f"Air Lift: lift from a space ({len(used)} of {limit} spaces used) or done",
                AIRLIFT,
                opts,
                kind="move_from",
                **ctx.context(step="move_from", sa="air_lift"),
            )
            if a.kind == "done":
                break
            s = a["space"]
            dests = dests_for(s)
            da = yield from self.pick_destination(
                "US",
                f"Air Lift from {self.sname(s)}: to which space?",
                AIRLIFT,
                ctx,
                dests,
                sa="air_lift",
                origin=s,
            )
            d = da["space"]

            def lift_cap(k: str, group: dict[str, int], s: str = s, lifted: int = arvn_lifted) -> int:
                """Up to the pieces there; besides US Troops at most 4 pieces in all (FITL-4.2.2)."""
                most = liftable(s).get(k, 0)
                if k == "us_troops":
                    return most
                return min(most, 4 - lifted - sum(v for kk, v in group.items() if kk != "us_troops"))

            group = yield from self.pick_group(
                "US",
                lambda k, s=s, d=d: (
                    f"Air Lift {self.sname(s)} -> {self.sname(d)}: how many {self.kname(k, 2)[2:]}?"
                ),
                AIRLIFT,
                ctx,
                list(liftable(s)),
                lift_cap,
                sa="air_lift",
                origin=s,
                space=d,
            )
            for k, x in group.items():
                self.board.move(s, d, k, x)
                moved[(d, k)] += x
                if k != "us_troops":
                    arvn_lifted += x
            for sp in (s, d):
                if sp not in used:
                    used.append(sp)
                    ctx.sa_spaces.append(sp)
            yield self.oruling(
                AIRLIFT,
                f"Air Lift to {self.sname(d)}",
                f"Air Lift moves {self.pieces_text(group)} from {self.sname(s)} to {self.sname(d)} "
                f"({len(used)} of {limit} spaces{' in Monsoon' if self.monsoon else ''}; "
                f"{arvn_lifted} of 4 non-US-Troop pieces).",
                result={"from": s, "to": d, "pieces": group},
                places=[s, d],
            )

    # ================================================================== Air Strike (4.2.3)
    def strike_spaces(self) -> list[str]:
        return [s for s in self.spaces() if self.coin_pieces(s)]

    def can_air_strike(self, ctx: OpCtx) -> bool:
        if ctx.strike_any:  # FITL-5.1.1 (card 111): any space with an Insurgent piece may be struck
            return any(
                self.insurgent_pieces(s)
                for s in self.spaces()
                if ctx.sa_allowed is None or s in ctx.sa_allowed
            )
        return bool(self.strike_spaces())

    def strike_targets(self, chosen: list[str]) -> list[tuple[str, str]]:
        """FITL-4.2.3: Active enemy pieces removable now: NVA Troops before Guerrillas; Bases only where no other
        Insurgent piece remains; never Underground Guerrillas or Tunneled Bases."""
        out = []
        for s in chosen:
            if self.n(s, "nva_troops"):
                out.append((s, "nva_troops"))
                continue
            act = [k for k in ("nva_guerrillas:a", "vc_guerrillas:a") if self.n(s, k)]
            out += [(s, k) for k in act]
            others = sum(self.n(s, k) for k in INSURGENT_KEYS if not is_base(k))
            if not others:
                out += [(s, k) for k in ("nva_bases", "vc_bases") if self.n(s, k)]
        return out

    def sa_air_strike(self, ctx: OpCtx) -> Flow:
        """FITL-4.2.3 (decision F-61): spaces, one die, the Trail first (2 hits, once), then Active pieces.

        Lasting effects (FITL-5.3 / FITL-5.4, named in the rulings): #8 Arc Light unshaded (one Province without
        COIN pieces may be struck) and shaded (2 shifts where 2+ pieces were removed); #20 Laser Guided Bombs
        unshaded (no shift where only 1 was removed) and shaded (at most 2 removals); #4 Top Gun unshaded
        (Degrade 2 boxes) and shaded (Degrade only on a die of 4-6); #31 AAA shaded (not below 2); #39 shaded
        Momentum (no Degrade); #5 shaded Momentum (Degrade or remove at most 1); #33 MiGs shaded (a Degrade costs
        an Available US Troop, not with #4 unshaded); #34 SA-2s unshaded (a Degrade lets the US remove 1 NVA piece
        outside the South); #7 ADSID Momentum (every Trail change costs NVA 6 Resources).  Rows FITL-5.3-CAPS and
        FITL-5.4-MOM; decisions F-155 (Wild Weasels: Degrade or 1 piece), F-156 (Arc Light's Province)."""
        limit = 2 if self.monsoon else 6
        chosen: list[str] = []
        arc = self.lasting(8, "unshaded")
        effects: list[str] = []

        def body(s: str) -> Flow:
            chosen.append(s)
            if not self.coin_pieces(s):
                effects.append(f"{self.sname(s)} has no COIN piece [{arc}]")
            return
            yield

        def cands() -> list[str]:
            out = self.strike_spaces()
            if ctx.strike_any:  # FITL-5.1.1 (card 111): no US/ARVN piece needed
                out = [s for s in self.spaces() if self.coin_pieces(s) or self.insurgent_pieces(s)]
            if arc and not any(not self.coin_pieces(c) for c in chosen):
                out += [
                    s
                    for s in self.spaces()
                    if self.is_pc(s)
                    and not self.is_city(s)
                    and not self.coin_pieces(s)
                    and any(self.n(s, k) for k in INSURGENT_KEYS)
                ]
            return out

        yield from self._each_space(
            ctx, STRIKE, "Air Strike", cands, limit, lambda s: f"Air Strike in {self.sname(s)}", body
        )
        roll = self.dice.roll(6, purpose="Air Strike hits")
        hits = roll.value
        yield self.oruling(
            STRIKE,
            "Air Strike die",
            f"The US rolls one die for the Air Strike on {', '.join(self.sname(s) for s in chosen)}: "
            f"{roll.value}, so {roll.value} hit(s) to spend (2 may Degrade the Trail once; each other "
            "hit removes one Active enemy piece)." + (f" {'; '.join(effects)}." if effects else ""),
            inputs={"spaces": list(chosen)},
            result={"hits": roll.value},
            dice=[roll],
            places=chosen,
        )
        trail_txt = ""
        can_degrade, why_not = self.degrade_allowed(roll.value)
        if ctx.no_degrade:  # FITL-5.1.1 (card 111): the Event's Air Strike never Degrades the Trail
            can_degrade, why_not = False, "the Event's Air Strike may not Degrade the Trail"
        top_gun = self.lasting(4, "unshaded")
        boxes = 2 if top_gun else 1
        floor = 2 if self.lasting(31, "shaded") else 0
        if why_not and hits >= 2 and self.board.tracks["trail"] > 0:
            effects.append(f"no Degrade: {why_not}")
        weasels = self.lasting(5, "shaded")
        if can_degrade and hits >= 2 and self.board.tracks["trail"] > floor:
            yes = yield from self.yesno(
                "US",
                f"Air Strike: {hits} hits. Spend 2 to Degrade the Trail?",
                STRIKE,
                "Degrade the Trail (2 hits)",
                "Keep every hit for enemy pieces",
                **ctx.context(step="trail", sa="air_strike", hits=hits),
            )
            if yes:
                t0 = self.board.tracks["trail"]
                self.track("trail", -min(boxes, t0 - floor))
                hits -= 2
                notes = [f"[{top_gun}: 2 boxes]"] if top_gun else []
                if floor:
                    notes.append(f"[{self.lasting(31, 'shaded')}: not below 2]")
                trail_txt = (
                    f" 2 hits Degrade the Trail {t0} -> {self.board.tracks['trail']} (once per Strike)"
                    + (" " + " ".join(notes) if notes else "")
                    + "."
                    + self.adsid_note(t0)
                )
                if weasels:
                    hits = 0
                    trail_txt += f" No piece is removed after a Degrade [{weasels}]."
                migs = self.lasting(33, "shaded") if not top_gun else ""
                if migs and self.board.available["us_troops"]:
                    self.board.available["us_troops"] -= 1
                    self.board.casualties["us_troops"] += 1
                    trail_txt += f" 1 Available US Troop goes to Casualties [{migs}]."
                yield self.oruling(
                    STRIKE,
                    "Air Strike degrades the Trail",
                    f"Air Strike: die {roll.value} = {roll.value} hits.{trail_txt} {hits} hit(s) left "
                    "for Active enemy pieces.",
                    result={"trail": self.board.tracks["trail"]},
                    dice=[roll],
                )
                sa2 = self.lasting(34, "unshaded")
                if sa2:
                    yield from self.sa2s_removal(ctx, sa2)
        cap = 6
        if self.lasting(20, "shaded"):
            cap = 2
            effects.append(f"at most 2 pieces [{self.lasting(20, 'shaded')}]")
        if weasels and not trail_txt:
            cap = 1
            effects.append(f"at most 1 piece [{weasels}]")
        shifted: list[str] = []
        picked = yield from self.pick_pieces(
            "US",
            "Air Strike: remove which Active enemy piece?",
            STRIKE,
            min(cap, hits),
            lambda: self.strike_targets(chosen),
            lambda s, k: self.board.remove(s, k),
            optional=True,
            **ctx.context(step="remove", sa="air_strike"),
        )
        shift_txt = []
        lgb, arc_s = self.lasting(20, "unshaded"), self.lasting(8, "shaded")
        for s in sorted({s for s, _ in picked}):
            k = sum(1 for sp, _ in picked if sp == s)
            delta, why = -1, ""
            if lgb and k == 1:
                delta, why = 0, f" (no shift: 1 piece removed [{lgb}])"
            elif arc_s and k >= 2:
                delta, why = -2, f" [{arc_s}: 2 levels]"
            old, new = self.shift_support(s, delta)
            if old != new:
                shifted.append(s)
                shift_txt.append(f"{self.sname(s)} {self.level(old)} -> {self.level(new)}{why}")
            elif why and not delta:
                shift_txt.append(f"{self.sname(s)}{why}")
        yield self.oruling(
            STRIKE,
            "Air Strike",
            f"Air Strike on {', '.join(self.sname(s) for s in chosen)}: die {roll.value} = "
            f"{roll.value} hits.{' 2 of them Degraded the Trail.' if trail_txt else ''} "
            f"{len(picked)} hit(s) remove "
            f"{self.pieces_text(picked)} (at most {cap}, NVA Troops before Guerrillas, Bases last)."
            + (f" Toward Active Opposition: {'; '.join(shift_txt)}." if shift_txt else "")
            + (f" Lasting effects: {'; '.join(effects)}." if effects else ""),
            inputs={"spaces": list(chosen), "limit": limit, "monsoon": self.monsoon},
            result={
                "hits": roll.value,
                "trail": self.board.tracks["trail"],
                "removed": [list(x) for x in picked],
                "shifted": shifted,
            },
            dice=[roll],
            places=chosen,
        )

    def degrade_allowed(self, die: int) -> tuple[bool, str]:
        """FITL-4.2.3 with FITL-5.3 / FITL-5.4: whether an Air Strike may Degrade the Trail: never under Momentum
        #39 Oriskany (shaded); with Capability #4 Top Gun shaded only on a die of 4-6.  (ok, why not)."""
        ori = self.lasting(39, "shaded")
        if ori:
            return False, ori
        tg = self.lasting(4, "shaded")
        if tg and die < 4:
            return False, f"die {die} < 4 [{tg}]"
        return True, ""

    def adsid_note(self, t0: int) -> str:
        """FITL-5.4 Momentum #7 ADSID: a Trail change costs NVA 6 Resources (applied here; words for the ruling)."""
        words = self.lasting(7, "unshaded")
        if not words or self.board.tracks["trail"] == t0:
            return ""
        r0 = self.board.tracks["nva_resources"]
        self.track("nva_resources", -6)
        return f" NVA Resources {r0} -> {self.board.tracks['nva_resources']} [{words}: -6 per Trail change]."

    def sa2s_removal(self, ctx: OpCtx, words: str) -> Flow:
        """FITL-5.3 Capability #34 SA-2s (unshaded): after an Air Strike lowers the Trail the US removes 1 NVA
        piece (not a Tunneled Base) outside South Vietnam to Available."""
        outside = [s for s in self.spaces() if self.in_nvn(s) or self.in_laos_cambodia(s)]
        keys = ("nva_troops", "nva_guerrillas:a", "nva_guerrillas:u", "nva_bases")
        picked = yield from self.pick_pieces(
            "US",
            f"{words}: remove which NVA piece outside the South?",
            STRIKE,
            1,
            lambda: [(s, k) for s in outside for k in keys if self.n(s, k)],
            lambda s, k: self.board.remove(s, k),
            optional=False,
            **ctx.context(step="remove", sa="air_strike"),
        )
        if picked:
            yield self.oruling(
                STRIKE,
                f"Air Strike: {words}",
                f"The Trail fell, so the US removes {self.pieces_text(picked)} [{words}].",
                result={"removed": [list(x) for x in picked]},
                places=[picked[0][0]],
            )
