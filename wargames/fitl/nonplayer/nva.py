"""Fire in the Lake: the Non-player NVA (rules 8.6 to 8.6.6).

Flowchart (8.6): Attack if Ambushes and Troop Attacks can remove a COIN Base or at least a die roll of pieces
(FITL-8.6.1) -> Event or Pass, Pass at 0 Resources (FITL-8.6.2) -> Terror where Support Population reaches a die
(FITL-8.6.3) -> Rally (FITL-8.6.4) -> March (FITL-8.6.5, not in Monsoon), IF NONE Rally or Pass.  Special
Activities: Ambush (else Bombard) with Attack, Bombard after Terror, Infiltrate (else Bombard) with Rally and
March.  Redeploy: FITL-8.6.6.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.actions import Action, Decision
from .base import NonPlayerBase, Plan
from .priorities import random_pick, roll, target_priority

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame


class NvaNonPlayer(NonPlayerBase):
    faction = "NVA"
    section = "8.6"
    march_rule = "8.6.5"
    forced_plan = ("", 0, 1, 0)  # a forced March (decision F-79): 1 Underground Guerrilla only
    STEPS = {
        "attack": "8.6.1",
        "terror": "8.6.3",
        "rally": "8.6.4",
        "march": "8.6.5",
        "bombard": "8.6.1",
        "infiltrate": "8.6.4",
        "ambush": "8.6.1",
    }

    # ------------------------------------------------------------------ facts
    def units(self, game: FitlGame, s: str) -> int:
        return game.board.count(s, "NVA") - game.board.count(s, "NVA", "bases")

    def nbases(self, game: FitlGame, s: str) -> int:
        return game.board.count(s, "NVA", "bases")

    def ambush_spaces(self, game: FitlGame) -> list[str]:
        """FITL-8.6.1 AMBUSH: spaces with Underground NVA Guerrillas, fewer than 4 NVA Troops and a target."""
        p = game.board.pieces
        return [
            s
            for s in self.spaces(game)
            if p[s]["nva_guerrillas:u"] and p[s]["nva_troops"] < 4 and game.ambush_targets(s)
        ]

    def attack_estimate(self, game: FitlGame) -> tuple[int, bool]:
        """FITL-8.6.1: pieces Troop Attacks and Ambushes could remove (1 Resource a space) and whether a COIN Base
        falls.  An Ambush replaces the Attack in its space (FITL-4.4.3): a space counts its Troop Attack or its
        Ambush, whichever removes more, never both; Ambushes go first where no Troop Attack would remove anything
        (at most 2 of them)."""
        res = game.board.tracks["nva_resources"]
        troop: dict[str, int] = {}
        base = False
        for s in self.spaces(game):
            t = game.board.pieces[s]["nva_troops"]
            if t >= 2 and self.coin(game, s):
                troop[s] = min(t // 2, self.coin(game, s))
                bases = game.board.count(s, "US", "bases") + game.board.count(s, "ARVN", "bases")
                if bases and t // 2 > self.coin(game, s) - bases:
                    base = True
        amb = sorted(self.ambush_spaces(game), key=lambda s: (troop.get(s, 0), s))[:2]
        if any(k.endswith("_bases") for s in amb for _, k in game.ambush_targets(s)):
            base = True
        gains = sorted(
            (max(troop.get(s, 0), 1 if s in amb else 0) for s in set(troop) | set(amb)), reverse=True
        )
        return sum(gains[:res]), base and res > 0

    # ------------------------------------------------------------------ the flowchart (8.6)
    def attack_plan(self, game: FitlGame, res: int) -> Plan | None:
        """NVA 8.6.1: Attack when a COIN Base could go or at least a d6 of enemy pieces; with Bombard first, or
        Ambush then Bombard where Ambush has spaces (None: no Attack, the flowchart goes on)."""
        n, base = self.attack_estimate(game)
        d = roll(game, "NVA", "attack")[0]
        if not (base or n >= d):
            return None
        amb = self.ambush_spaces(game)
        sas: tuple[str, ...] = (
            ("bombard",) if not amb or (res >= 4 and len(amb[:2]) <= 1) else ("ambush", "bombard")
        )
        when = "before" if sas[0] == "bombard" else "later"
        why = (
            "a COIN Base can be removed" if base else f"{n} enemy pieces can be removed, at least the d6 {d}"
        )
        return Plan("attack", sas, when, reason=f"NVA 8.6.1: Attack because {why}")

    def plan(self, game: FitlGame, limited: bool) -> Plan:
        b = game.board
        res = b.tracks["nva_resources"]
        ok = set(game.op_choices("NVA", limited))
        attack = self.attack_plan(game, res) if "attack" in ok and res >= 1 else None
        if attack is not None:
            return attack
        evd, evwhy = self.event_decision(game)
        if evd == "pass":
            return Plan(None, reason=f"NVA 8.6.2: Pass (+1 Resource): {evwhy}", cap_pass=True)
        ev = evd == "play"
        evwhy = f"NVA 8.6.2: {'play the Event: ' if ev else 'no Event: '}{evwhy}"
        if res == 0:
            return Plan(
                None,
                event=ev,
                event_why=evwhy if ev else "",
                reason="NVA 8.6.2: 0 Resources and no Event played: Pass (+1 Resource)",
            )
        chain: list[tuple[str, str]] = []
        if "terror" in ok:
            sup = [
                s
                for s in self.spaces(game)
                if b.support[s] > 0 and (b.pieces[s]["nva_troops"] or b.pieces[s]["nva_guerrillas:u"])
            ]
            total = sum(self.pop(game, s) for s in sup)
            d = roll(game, "NVA", "terror")[0]
            if sup and total >= d:
                chain.append(
                    (
                        "terror",
                        f"NVA 8.6.3: Terror because {total} Population at Support can be Terrorized, "
                        f"at least the d6 {d}",
                    )
                )
        useful = self.rally_useful(game)
        why = self.rally_reason(game) if useful else ""
        if why:
            chain.append(("rally", f"NVA 8.6.4: Rally because {why}"))
        if not game.monsoon and self.march_move_exists(game):
            chain.append(
                (
                    "march",
                    "NVA 8.6.5: March ("
                    + (
                        "no other Operation's condition applies)"
                        if useful
                        else "a Rally could place nothing from Available nor Improve the Trail, F-172)"
                    ),
                )
            )
        if useful:
            chain.append(("rally", "NVA 8.6.5 IF NONE: no March priority names a move: Rally"))
        got = self.first_possible(game, limited, chain)
        if got is None:
            return Plan(
                None,
                event=ev,
                event_why=evwhy if ev else "",
                reason="NVA 8.6.5 IF NONE: no Operation possible, Pass",
            )
        op, reason = got
        sas = {
            "terror": ("bombard",),
            "rally": ("infiltrate", "bombard"),
            "march": ("ambush", "infiltrate", "bombard"),
        }[op]
        return Plan(
            op, sas, event=ev, event_why=evwhy if ev else "", reason=reason + ("" if ev else f" ({evwhy})")
        )

    def rally_useful(self, game: FitlGame) -> bool:
        """FITL-8.6.4 with 8.1.1 (decision F-172): a Non-player Rally does something only if it can place an NVA
        Guerrilla or Base from Available or Improve the Trail (below 4, no #38 McNamara Line); with nothing
        Available and the Trail at 4 the only Rally left would take pieces off the map, which a Non-player never
        does, so the flowchart goes on (March, else Pass)."""
        b = game.board
        if b.available["nva_guerrillas"]:
            return True
        if b.available["nva_bases"] and self.base_spaces(game):
            return True
        return b.tracks["trail"] < 4 and not game.lasting(38, "unshaded")

    def rally_reason(self, game: FitlGame) -> str:
        b = game.board
        if b.tracks["trail"] <= 1:
            return f"the Trail is at {b.tracks['trail']}"
        thin = [s for s in self.spaces(game) if self.nbases(game, s) and self.units(game, s) < 2]
        if thin:
            return f"{game.sname(thin[0])} has an NVA Base with fewer than 2 NVA units"
        d = roll(game, "NVA", "rally", 2)
        if sum(d) > b.available["nva_guerrillas"]:
            return f"the roll {sum(d)} exceeds the {b.available['nva_guerrillas']} NVA Guerrillas Available"
        if self.base_spaces(game):
            return "it would place an NVA Base"
        return ""

    def base_spaces(self, game: FitlGame) -> list[str]:
        b = game.board
        out = []
        for s in self.spaces(game):
            p = b.pieces[s]
            ng = p["nva_guerrillas:u"] + p["nva_guerrillas:a"]
            tot = ng + p["vc_guerrillas:u"] + p["vc_guerrillas:a"] + p["nva_troops"]
            if ng >= 2 and tot >= 4 and game.base_room(s) and b.support[s] <= 0 and b.available["nva_bases"]:
                out.append(s)
        return out

    def sa_wanted(self, game: FitlGame, decision: Decision, sa: str) -> bool:
        if sa == "ambush" and decision.context.get("op") == "march":
            # 8.6.5 AMBUSH: after a March only if an Ambush would remove a US or ARVN Base
            return any(
                k.endswith("_bases")
                for s in self.spaces(game)
                if game.board.pieces[s]["nva_guerrillas:u"]
                for _, k in game.ambush_targets(s)
            )
        if sa == "infiltrate":
            b = game.board
            takeover = b.available["nva_bases"] >= 1 and any(
                self.vc_takeover(game, s) for s in self.spaces(game)
            )
            return takeover or self.infiltrate_troops(game) >= 4
        return True

    def infiltrate_troops(self, game: FitlGame) -> int:
        """FITL-8.6.4 INFILTRATE: how many NVA Troops an Infiltrate would place in all, over the spaces it may
        use (2, or 1 under #46 559th Transport Grp, FITL-5.4): at each NVA Base space Trail + its NVA Bases, plus
        the Guerrillas replaced down to 2 (8.6.4 step 3); at most the Troops Available (8.1.1).  The condition
        "at least 4 Troops" counts this total, not one space's share."""
        from ..special import INFILTRATE

        b = game.board
        per_space = sorted(
            (
                b.tracks["trail"]
                + self.nbases(game, s)
                + max(0, b.pieces[s]["nva_guerrillas:u"] + b.pieces[s]["nva_guerrillas:a"] - 2)
                for s in self.spaces(game)
                if self.nbases(game, s)
            ),
            reverse=True,
        )
        limit, _ = game.sa_limit(INFILTRATE, 2)
        return min(sum(per_space[:limit]), b.available["nva_troops"])

    def vc_takeover(self, game: FitlGame, s: str) -> bool:
        p = game.board.pieces[s]
        return (
            bool(p["vc_bases"] + p["vc_bases:t"])
            and not self.nbases(game, s)
            and game.board.count(s, "NVA") > game.board.count(s, "VC")
        )

    # ------------------------------------------------------------------ spaces
    def on_space(self, game: FitlGame, decision: Decision) -> Action:
        step, op, sa, spaces, done = self.space_decision(decision)
        b = game.board
        scored: list[tuple[Any, Action, str]] = []
        plan = self.planned(game, decision)
        if step == "sa_space" and sa == "bombard":
            for a in spaces:
                s = a["space"]
                coin_base = 1 if b.count(s, "US", "bases") + b.count(s, "ARVN", "bases") else 0
                scored.append(
                    (
                        (1 if b.count(s, "NVA") else 0, coin_base, b.pieces[s]["us_troops"]),
                        a,
                        "Bombard: spaces with NVA pieces, then adjacent; COIN Bases and US Troops first",
                    )
                )
        elif step == "sa_space" and sa == "ambush":
            for a in spaces:
                tk = max(
                    (target_priority(game, sp, k) for sp, k in game.ambush_targets(a["space"])), default=(0,)
                )
                scored.append(
                    (
                        tuple(tk) + (1 if game.is_loc(a["space"]) else 0,),
                        a,
                        "Ambush after March: remove a COIN Base, then US Troops, from LoCs if possible",
                    )
                )
        elif step == "sa_space" and sa == "infiltrate":
            for a in spaces:
                s = a["space"]
                if self.vc_takeover(game, s):
                    scored.append(
                        (
                            (2, b.pieces[s]["vc_bases:t"], self.pop(game, s)),
                            a,
                            "Infiltrate: replace a VC Base where NVA outnumber VC (Tunneled first)",
                        )
                    )
                elif self.nbases(game, s):
                    p = b.pieces[s]
                    scored.append(
                        (
                            (1, p["nva_guerrillas:u"] + p["nva_guerrillas:a"], self.nbases(game, s)),
                            a,
                            "Infiltrate: Troops at the NVA Base with the most NVA Guerrillas",
                        )
                    )
        elif step == "sa_space":
            scored = [((0,), a, "") for a in spaces]
        elif op == "attack":
            amb = self.counts()["ambush"]
            for a in spaces:
                s = a["space"]
                p = b.pieces[s]
                lc = 1 if game.in_laos_cambodia(s) else 0
                tk = max((target_priority(game, s, k) for k in game.coin_targets(s)), default=(0,))
                ng = p["nva_guerrillas:u"] + p["nva_guerrillas:a"]
                if "ambush" in plan.sas and amb < 2 and s in self.ambush_spaces(game):
                    scored.append(((4, lc) + tk, a, "Ambush first (8.6.1 AMBUSH)"))
                elif p["nva_troops"] >= 4 and self.coin(game, s) >= 2:
                    scored.append(((3, lc) + tk, a, "Troops can remove 2+ enemy pieces"))
                elif ng >= 4 and self.coin(game, s):
                    scored.append(((2, lc) + tk, a, "a group of 4+ NVA Guerrillas"))
                elif p["nva_troops"] >= 2 and self.coin(game, s):
                    scored.append(((1, lc) + tk, a, "Troops can remove 1 enemy piece"))
                elif done is None:  # the Attack must use a space: the largest Guerrilla group
                    scored.append(((0, ng) + tk, a, "no Attack priority met: the largest NVA group"))
        elif op == "terror":
            for a in spaces:
                s = a["space"]
                if b.support[s] > 0:
                    scored.append(((self.pop(game, s),), a, "Terror at Support, highest Population first"))
        elif op == "rally":
            res, trail = b.tracks["nva_resources"], b.tracks["trail"]
            improve = trail < 4 and res >= 3 and not (trail == 3 and res < 9)
            limit = 1 if self.cap(game, 31, "unshaded") and improve else 3  # unshaded AAA
            if self.counts()["spaces"] < limit:
                for a in spaces:
                    s = a["space"]
                    k = self.rally_tier(game, s)
                    scored.append(
                        (
                            (k,),
                            a,
                            [
                                "",
                                "a random space",
                                "an NVA Base",
                                "an NVA Base with 0-1 NVA units",
                                "COIN Control in Laos/Cambodia",
                                "a Base where 4+ units",
                            ][k],
                        )
                    )
        if not scored:
            return self.no_space(decision, spaces, done, sa or op)
        a, w, top = self.choose_space(game, scored, step)
        s = a["space"]
        if op == "attack" and step == "space":
            self.memo()[f"attack:{s}"] = top[0]
            if top[0] == 4:
                self.counts()["ambush"] += 1
        if op == "rally" and step == "space":
            self.memo()[f"rally:{s}"] = top[0]
        if sa == "infiltrate":
            self.memo()[f"infiltrate:{s}"] = top[0]
        self.why(self.rule_for(decision), f"{a.label}: {w}")
        return a

    def rally_tier(self, game: FitlGame, s: str) -> int:
        """FITL-8.6.4 Rally priorities."""
        if s in self.base_spaces(game):
            return 5
        if game.in_laos_cambodia(s) and game.board.control(s) == "coin":
            return 4
        if self.nbases(game, s):
            return 3 if self.units(game, s) <= 1 else 2
        return 1

    def on_mode(self, game: FitlGame, decision: Decision) -> Action:
        c = decision.context
        modes = self.modes(decision)
        s = c.get("space")
        if c.get("op") == "rally" and c.get("sa") is None:
            if self.memo().get(f"rally:{s}") == 5 and "base" in modes:
                self.why("8.6.4", "Rally: an NVA Base where 4+ Insurgent units stand")
                return modes["base"]
            places = [a for a in decision.options if a.get("mode") == "place"]
            if places:
                a = max(places, key=lambda a: a["n"])
                self.why("8.6.4", f"Rally: {a.label} (maximum extent)")
                return a
        if c.get("sa") == "infiltrate":
            take = self.memo().get(f"infiltrate:{s}") == 2
            return self.mode_or(
                decision,
                modes,
                "8.6.4",
                "takeover" if take else None,
                "Infiltrate: take over the VC Base",
                "troops",
                "Infiltrate: place Troops at the NVA Base",
            )
        if c.get("op") == "attack":
            tier = self.memo().get(f"attack:{s}", 0)
            if tier == 4 and "ambush" in modes:
                self.why("8.6.1", "Ambush in this Attack space")
                return modes["ambush"]
            if tier in (3, 1) and "troops" in modes:
                self.why("8.6.1", "Attack with NVA Troops")
                return modes["troops"]
            a = modes.get("guerrillas") or modes.get("troops") or decision.options[0]
            self.why("8.6.1", f"Attack: {a.label}")
            return a
        return None  # type: ignore[return-value]

    def on_yesno(self, game: FitlGame, decision: Decision) -> Action:
        if decision.context.get("step") == "trail" and decision.context.get("op") == "rally":
            b = game.board
            res, trail = b.tracks["nva_resources"], b.tracks["trail"]
            no = res < 3 or (trail == 3 and res < 9)
            a = self.first(decision, "no" if no else "yes") or decision.options[0]
            self.why(
                "8.6.4", f"Trail {trail}, NVA Resources {res}: {'do not ' if no else ''}Improve the Trail"
            )
            return a
        return super().on_yesno(game, decision)

    def movement_count(self, game: FitlGame, decision: Decision) -> int | None:
        c = decision.context
        step = c.get("step")
        if c.get("sa") == "infiltrate" and step == "replace":
            s = c.get("space")
            p = game.board.pieces[s] if s in game.data.spaces else None
            return max(0, p["nva_guerrillas:u"] + p["nva_guerrillas:a"] - 2) if p else 0
        plan = self.memo().get("plan")
        if c.get("op") == "march" and plan and not c.get("sa"):
            return {"troops": plan[1], "guerrillas_u": plan[2], "guerrillas_a": plan[3]}.get(step)
        return None

    # ------------------------------------------------------------------ March (8.6.5)
    def surplus(self, game: FitlGame, s: str) -> tuple[int, int, int]:
        """(Troops, Underground, Active) NVA that may leave: 2 NVA units stay at NVA Bases and NVA Control stays."""
        b = game.board
        p = b.pieces[s]
        t, u, a = p["nva_troops"], p["nva_guerrillas:u"], p["nva_guerrillas:a"]
        keep = 2 if self.nbases(game, s) else 0
        if b.control(s) == "nva":
            others = self.coin(game, s) + b.count(s, "VC")
            keep = max(keep, others + 1 - self.nbases(game, s))
        spare = max(0, t + u + a - keep)
        # leave Guerrillas behind first (8.6.5): move Troops, then Active, then Underground
        mt = min(t, spare)
        ma = min(a, spare - mt)
        mu = min(u, spare - mt - ma)
        return mt, mu, ma

    def control_key(self, game: FitlGame, d: str, moving: int) -> tuple[int, int, int] | None:
        """FITL-8.6.5: ``moving`` NVA pieces marching into ``d`` would add NVA Control: the space's priority (highest
        Population, no US Base, a VC Base without an NVA one); None if they would not."""
        b = game.board
        if b.count(d, "NVA") + moving <= self.coin(game, d) + b.count(d, "VC"):
            return None
        us_base = 1 if b.count(d, "US", "bases") else 0
        vc_only = 1 if b.count(d, "VC", "bases") and not self.nbases(game, d) else 0
        return (self.pop(game, d), -us_base, vc_only)

    def march_target(self, game: FitlGame) -> tuple[str, str, int, int, int, str] | None:
        b = game.board
        m = self.memo()
        used_from = m.setdefault("from", [])
        used_to = m.setdefault("to", [])
        only = m.get("only")
        origins = [
            s
            for s in self.spaces(game)
            if s not in used_to and s not in used_from and sum(self.surplus(game, s))
        ]
        if b.available["nva_bases"] and not m.get("base_setup"):
            for s in origins:
                t, u, a = self.surplus(game, s)
                for d in game.adjacent(s):
                    if only and d != only:
                        continue
                    if game.in_laos_cambodia(d) and game.base_room(d):
                        p = b.pieces[d]
                        g = p["nva_guerrillas:u"] + p["nva_guerrillas:a"]
                        if (
                            self.units(game, d) < 4
                            and self.units(game, d) + t + u + a >= 4
                            and g + u + a >= 2
                        ):
                            m["base_setup"] = True
                            return s, d, t, u, a, "set up 4 NVA units for a Base in Laos/Cambodia"
        if not m.get("loc_done"):
            best = None
            for s in origins:
                if not game.is_pc(s) or not self.surplus(game, s)[1]:
                    continue
                for d in game.adjacent(s):
                    if only and d != only:
                        continue
                    if (
                        game.is_loc(d)
                        and not b.pieces[d]["nva_guerrillas:u"]
                        and not b.pieces[d]["vc_guerrillas:u"]
                    ):
                        k = 1 if d == "loc_hue_da_nang" else 0
                        if best is None or k > best[0]:
                            best = (k, s, d)
            if best:
                m["loc_done"] = True
                if best[0] == 0:  # 8.6.5 / 8.3: otherwise a random LoC among those reachable
                    pairs = [
                        (s, d)
                        for s in origins
                        if game.is_pc(s) and self.surplus(game, s)[1]
                        for d in game.adjacent(s)
                        if (not only or d == only)
                        and game.is_loc(d)
                        and not b.pieces[d]["nva_guerrillas:u"]
                        and not b.pieces[d]["vc_guerrillas:u"]
                    ]
                    d = random_pick(game, "NVA", sorted({d for _, d in pairs}), "march_loc")
                    best = (0, next(s for s, x in pairs if x == d), d)
                return (
                    best[1],
                    best[2],
                    0,
                    1,
                    0,
                    "1 Underground Guerrilla onto a LoC (Hue-Da Nang if possible, else a Random LoC, 8.3)",
                )
        if m.get("control", 0) < 3 and b.tracks["nva_resources"] >= 1:
            best = None
            for s in origins:
                t, u, a = self.surplus(game, s)
                for d in game.adjacent(s):
                    if d in used_from or not game.is_pc(d) or b.control(d) == "nva" or (only and d != only):
                        continue
                    k = self.control_key(game, d, t + u + a)
                    if k is not None and (best is None or k > best[0]):
                        best = (k, s, d, t, u, a)
            if b.tracks["trail"] == 4 and not only:
                # 8.6.5: at Trail 4 a group may go on through Laos/Cambodia (3.3.2) to a space 2 moves away
                for s in origins:
                    t, u, a = self.surplus(game, s)
                    for mid in game.adjacent(s):
                        if not game.in_laos_cambodia(mid) or mid in used_from:
                            continue
                        for d in game.adjacent(mid):
                            if (
                                d == s
                                or d in used_from
                                or not game.is_pc(d)
                                or b.control(d) == "nva"
                                or d in game.adjacent(s)
                            ):
                                continue
                            k = self.control_key(game, d, t + u + a)
                            if k is not None and (best is None or k > best[0]):
                                best = (k, s, mid, t, u, a, d)
            if best:
                m["control"] = m.get("control", 0) + 1
                if len(best) == 7:  # through Laos/Cambodia: the group goes on from the transit space at once
                    m["cont"] = (best[2], best[6], best[3], best[4], best[5])
                    return (
                        best[1],
                        best[2],
                        best[3],
                        best[4],
                        best[5],
                        f"add NVA Control of {game.sname(best[6])} (highest Population), via the Trail at 4",
                    )
                return best[1], best[2], best[3], best[4], best[5], "add NVA Control (highest Population)"
        return None

    def on_move_from(self, game: FitlGame, decision: Decision) -> Action:
        if decision.context.get("op") != "march" or decision.context.get("sa"):
            return None  # type: ignore[return-value]
        offered = {a["space"]: a for a in self.opts(decision, "move_from")}
        cont = self.memo().pop("cont", None)
        if cont and cont[0] in offered:  # 8.6.5: no NVA piece stays in a transit space (Trail 4)
            mid, d, tr, u, a = cont
            self.memo()["plan"] = (d, tr, u, a)
            self.memo()["to"].append(d)
            self.why(
                "8.6.5",
                f"March on from {game.sname(mid)} to {game.sname(d)} (the Trail at 4: no NVA piece "
                "stays in a transit space)",
            )
            return offered[mid]
        for _ in range(4):
            t = self.march_target(game)
            if t is None:
                break
            s, d, tr, u, a, why = t
            m = self.memo()
            m["from"].append(s)
            if s in offered:
                m["plan"] = (d, tr, u, a)
                m["to"].append(d)
                if decision.context.get("limited"):
                    m["only"] = d  # FITL-2.3.5: a Limited March has a single destination
                self.why("8.6.5", f"March from {game.sname(s)} to {game.sname(d)}: {why}")
                return offered[s]
        return self.march_done(game, decision)

    def on_move_to(self, game: FitlGame, decision: Decision) -> Action:
        return self.march_to_plan(game, decision, "8.6.5", "March {} (planned)")

    # ------------------------------------------------------------------ Redeploy (8.6.6)
    def redeploy_spare(self, game: FitlGame, s: str) -> int:
        """NVA Troops that may leave ``s``: never losing NVA Control or adding COIN Control; unless this is the final
        Coup Round, 2 NVA units stay at NVA Bases (Guerrillas counted first)."""
        b = game.board
        t = b.pieces[s]["nva_troops"]
        if not t:
            return 0
        keep = 0
        if b.control(s) == "nva":
            keep = max(keep, self.coin(game, s) + b.count(s, "VC") + 1 - (b.count(s, "NVA") - t))
        elif b.control(s) != "coin":
            keep = max(keep, self.coin(game, s) - (self.insurgents(game, s) - t))
        if self.nbases(game, s) and not game.final_coup:
            keep = max(keep, 2 - (self.units(game, s) - t))
        return max(0, t - keep)

    def redeploy_targets(self, game: FitlGame) -> list[tuple[str, int, str]]:
        """FITL-8.6.6 priorities among the NVA Base spaces (where NVA Troops may Redeploy, FITL-6.4.3)."""
        b = game.board
        bases = [s for s in self.spaces(game) if self.nbases(game, s)]
        out: list[tuple[str, int, str]] = []
        if not game.final_coup:
            out += [
                (s, 2 - self.units(game, s), "so each NVA Base space has 2 NVA units")
                for s in bases
                if self.units(game, s) < 2
            ]
        add = [
            (s, self.coin(game, s) + b.count(s, "VC") + 1 - b.count(s, "NVA"))
            for s in bases
            if b.control(s) != "nva"
        ]
        out += [
            (s, n, "to add NVA Control") for s, n in sorted(add, key=lambda x: -self.pop(game, x[0])) if n > 0
        ]
        rem = [(s, self.coin(game, s) - self.insurgents(game, s)) for s in bases if b.control(s) == "coin"]
        out += [(s, n, "to remove COIN Control") for s, n in rem if n > 0]
        return out

    def on_redeploy_from(self, game: FitlGame, decision: Decision) -> Action:
        if decision.rule_id != "FITL-6.4.3":
            return None  # type: ignore[return-value]
        froms = {a["space"]: a for a in self.opts(decision, "from")}
        for target, need, why in self.redeploy_targets(game):
            srcs = [s for s in froms if s != target and self.redeploy_spare(game, s) > 0]
            if not srcs:
                continue
            src = max(srcs, key=lambda s: (self.redeploy_spare(game, s), s))
            self.memo()["redeploy"] = (target, min(need, self.redeploy_spare(game, src)))
            self.why("8.6.6", f"Redeploy NVA Troops from {game.sname(src)} to {game.sname(target)}: {why}")
            return froms[src]
        self.why("8.6.6", "no Redeploy priority applies: stop")
        return self.first(decision, "done") or decision.options[-1]

    def on_move(self, game: FitlGame, decision: Decision) -> Action:
        if decision.rule_id != "FITL-6.4.3":
            return None  # type: ignore[return-value]
        target, need = self.memo().get("redeploy", ("", 1))
        opts = [a for a in decision.options if a.get("dest") == target] or decision.options
        a = min(
            opts, key=lambda a: (a.get("n", 1) > need, abs(a.get("n", 1) - need))
        )  # only the Troops needed
        self.why("8.6.6", f"{a.label}: the Troops the priority needs ({need})")
        return a
