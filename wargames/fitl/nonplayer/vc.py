"""Fire in the Lake: the Non-player VC (rules 8.5 to 8.5.6).

Flowchart (8.5): Terror (FITL-8.5.1) -> Event or Pass (FITL-8.5.2) -> Rally (FITL-8.5.3) -> March (FITL-8.5.4,
not in Monsoon) -> Attack (FITL-8.5.5), each with its IF NONE fallbacks; Special Activities: Tax or Subvert after
Terror and Rally, Ambush (else Tax or Subvert) with March, Ambush (else Tax) with Attack; Agitate in the Support
Phase (FITL-8.5.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.actions import Action, Decision
from .base import NonPlayerBase, Plan
from .priorities import random_pick, roll, target_priority

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame


class VcNonPlayer(NonPlayerBase):
    faction = "VC"
    section = "8.5"
    march_rule = "8.5.4"
    forced_plan = ("", 1)  # a forced March (decision F-79): 1 Underground Guerrilla
    STEPS = {
        "terror": "8.5.1",
        "rally": "8.5.3",
        "march": "8.5.4",
        "attack": "8.5.5",
        "tax": "8.5.1",
        "subvert": "8.5.1",
        "ambush": "8.5.4",
    }

    # ------------------------------------------------------------------ facts
    def ug(self, game: FitlGame, s: str) -> int:
        return game.board.pieces[s]["vc_guerrillas:u"]

    def vcg(self, game: FitlGame, s: str) -> int:
        p = game.board.pieces[s]
        return p["vc_guerrillas:u"] + p["vc_guerrillas:a"]

    def vc_bases(self, game: FitlGame, s: str) -> int:
        p = game.board.pieces[s]
        return p["vc_bases"] + p["vc_bases:t"]

    def terror_ok(self, game: FitlGame, s: str) -> bool:
        """FITL-8.5.1: a shift is possible (Population, not Active Opposition) without using the last Underground
        Guerrilla of a Neutral or Passive Opposition space with a VC Base."""
        b = game.board
        if not game.is_pc(s) or not self.ug(game, s) or self.pop(game, s) == 0 or b.support[s] <= -2:
            return False
        return not (b.support[s] in (0, -1) and self.vc_bases(game, s) and self.ug(game, s) == 1)

    def rally_guerrillas(self, game: FitlGame, s: str) -> int:
        """FITL-3.3.1 as the 8.5.3 tie-break needs it: the VC Guerrillas a Rally in ``s`` places: Population + VC
        Bases where a VC Base stands, else 1; at most those Available (8.1.1)."""
        bases = self.vc_bases(game, s)
        n = self.pop(game, s) + bases if bases else 1
        return min(n, game.board.available["vc_guerrillas"])

    def rally_bases_placed(self, game: FitlGame) -> int:
        """FITL-8.5.3: how many VC Bases a Rally would place: the spaces where one can go (4+ VC Guerrillas, room,
        not at Support), at most the VC Bases Available (8.1.1), the 6 Rally spaces and one Resource a space."""
        spaces = len(self.rally_base_spaces(game))
        b = game.board
        return min(spaces, b.available["vc_bases"], 6, b.tracks["vc_resources"])

    def rally_base_spaces(self, game: FitlGame) -> list[str]:
        b = game.board
        return [
            s
            for s in self.spaces(game)
            if game.is_pc(s) and b.support[s] <= 0 and self.vcg(game, s) >= 4 and game.base_room(s)
        ]

    # ------------------------------------------------------------------ the flowchart (8.5)
    def plan(self, game: FitlGame, limited: bool) -> Plan:
        b = game.board
        res = b.tracks["vc_resources"]
        ok = set(game.op_choices("VC", limited))
        after = ("tax", "subvert")
        if "terror" in ok and res >= 1:
            cands = [
                s
                for s in self.spaces(game)
                if game.is_pc(s) and self.ug(game, s) and self.pop(game, s) and b.support[s] > -2
            ]
            sup = [s for s in cands if b.support[s] > 0]
            if sup:
                return Plan(
                    "terror",
                    after,
                    reason=f"VC 8.5.1: Terror because Support in {len(sup)} space(s) with "
                    "Underground Guerrillas",
                )
            pops = sorted((self.pop(game, s) for s in cands), reverse=True)[:res]
            d = roll(game, "VC", "terror", 2)
            if pops and sum(pops) >= sum(d):
                return Plan(
                    "terror",
                    after,
                    reason=f"VC 8.5.1: Terror because it can shift {sum(pops)} Population, "
                    f"at least the roll {d[0]}+{d[1]}={sum(d)}",
                )
        evd, why = self.event_decision(game)
        if evd == "pass":
            return Plan(None, reason=f"VC 8.5.2: Pass (+1 Resource): {why}", cap_pass=True)
        ev = evd == "play"
        why = f"VC 8.5.2: {'play the Event: ' if ev else 'no Event: '}{why}"
        rally_bases = self.rally_bases_placed(game)
        d3 = roll(game, "VC", "rally", 3)
        avail = b.available["vc_guerrillas"]
        chain: list[tuple[str, str]] = []
        if rally_bases >= 2:
            chain.append(("rally", f"VC 8.5.3: Rally because it would place {rally_bases} VC Bases"))
        elif sum(d3) < avail:
            chain.append(
                (
                    "rally",
                    f"VC 8.5.3: Rally because the roll {sum(d3)} is less than the {avail} VC "
                    "Guerrillas Available",
                )
            )
        march = not game.monsoon and self.march_move_exists(game)
        if march:
            chain.append(("march", "VC 8.5.4: March (no Terror or Rally condition met)"))
        elif not game.monsoon:  # 8.5.4 IF NONE: Attack, else Rally, else Pass (the rules' example)
            if res >= 1:
                chain.append(("attack", "VC 8.5.4 IF NONE: no March priority names a move: Attack (8.5.5)"))
            chain.append(("rally", "VC 8.5.4 IF NONE: no March or Attack possible: Rally (8.5.3)"))
        if res >= 1:
            chain.append(("attack", "VC 8.5.5: Attack (no other Operation applies)"))
        chain += [("rally", "VC 8.5.4/8.5.5 IF NONE: Rally")]
        if march:
            chain.append(("march", "VC 8.5.3 IF NONE: March"))
        chain.append(("attack", "VC 8.5.3 IF NONE: Attack"))
        got = self.first_possible(game, limited, chain)
        if got is None:
            return Plan(
                None,
                event=ev,
                event_why=why if ev else "",
                reason=f"VC 8.5.3 IF NONE: no Operation possible, Pass ({why})",
            )
        op, reason = got
        sas = {"rally": after, "march": ("ambush", "tax", "subvert"), "attack": ("ambush", "tax")}.get(
            op, after
        )
        return Plan(
            op, sas, event=ev, event_why=why if ev else "", reason=reason + ("" if ev else f" ({why})")
        )

    def sa_wanted(self, game: FitlGame, decision: Decision, sa: str) -> bool:
        if sa == "tax":
            return game.board.tracks["vc_resources"] <= 9 and bool(self.tax_cands(game))
        return True

    # ------------------------------------------------------------------ spaces
    def tax_cands(self, game: FitlGame) -> list[tuple[tuple[int, ...], str]]:
        """FITL-8.5.1 TAX: 2-Econ then 1-Econ LoCs, then Active Support (highest Population), then at 0 Resources
        Active Opposition and other spaces (highest Population)."""
        b = game.board
        out = []
        for s in self.spaces(game):
            if not self.ug(game, s) or b.control(s) == "coin":
                continue
            if game.is_loc(s):
                if game.econ(s) >= 1:
                    out.append(((4, game.econ(s)), s))
            elif b.support[s] == 2 and self.pop(game, s):
                out.append(((3, self.pop(game, s)), s))
            elif b.tracks["vc_resources"] == 0 and self.pop(game, s):
                out.append(((2 if b.support[s] == -2 else 1, self.pop(game, s)), s))
        return out

    def on_space(self, game: FitlGame, decision: Decision) -> Action:
        step, op, sa, spaces, done = self.space_decision(decision)
        scored: list[tuple[Any, Action, str]] = []
        limit = None
        if step == "space" and op in ("terror", "rally") and game.board.tracks["vc_resources"] == 0:
            tax = next((a for a in decision.options if a.kind == "sa" and a.get("sa") == "tax"), None)
            if tax is not None and self.tax_cands(game):
                self.why(
                    self.rule_for(decision),
                    f"0 VC Resources during the {op}: Tax now, then go on (8.5.1 TAX)",
                )
                return tax
        if step == "sa_space" and sa == "tax":
            cands = dict((s, k) for k, s in self.tax_cands(game))
            scored = [
                (cands[a["space"]], a, "Tax priority (8.5.1 TAX)") for a in spaces if a["space"] in cands
            ]
        elif step == "sa_space" and sa == "subvert":
            for a in spaces:
                s = a["space"]
                p = game.board.pieces[s]
                cubes = p["arvn_troops"] + p["arvn_police"]
                removes = game.board.control(s) == "coin" and self.coin(game, s) - min(
                    2, cubes
                ) <= self.insurgents(game, s)
                scored.append(
                    (
                        (1 if removes else 0, self.pop(game, s) if removes else 0, cubes),
                        a,
                        "Subvert: remove COIN Control from the most Population, then the most cubes (8.5.1)",
                    )
                )
        elif step == "sa_space" and sa == "ambush":
            scored = [
                (self.ambush_key(game, a["space"]), a, "Ambush priorities (8.5.4 AMBUSH)") for a in spaces
            ]
        elif op == "terror":
            for a in spaces:
                s = a["space"]
                if self.terror_ok(game, s):
                    scored.append(
                        ((1, self.pop(game, s)), a, "Terror where a shift is possible, highest Population")
                    )
                elif (
                    game.is_loc(s)
                    and s not in game.board.sabotage
                    and game.board.tracks["vc_resources"] > 12
                    and game.board.tracks["aid"] < 30
                ):
                    scored.append(
                        ((0, game.econ(s)), a, "Terror on unsabotaged LoCs (Resources > 12, Aid < 30)")
                    )
        elif op == "rally":
            limit = 6
            n2 = self.counts()["rally_single"]
            for a in spaces:
                s = a["space"]
                k = self.rally_key(game, s, n2)
                if k is not None:
                    scored.append(
                        (
                            k,
                            a,
                            [
                                "",
                                "random space in South Vietnam",
                                "1 Guerrilla where 1-3 already",
                                "Guerrillas at a VC Base",
                                "a single Guerrilla where none",
                                "a Base where 4+ Guerrillas",
                            ][k[0]],
                        )
                    )
        elif op == "attack":
            amb = self.counts()["ambush"]
            for a in spaces:
                s = a["space"]
                if (
                    amb < (1 if self.cap(game, 101, "unshaded") else 2)
                    and self.ug(game, s)
                    and game.ambush_targets(s)
                ):  # unshaded Booby Traps: 1 Ambush space
                    scored.append(((2,) + self.ambush_key(game, s), a, "Ambush first (8.5.5)"))
                elif self.vcg(game, s) >= 3 and not self.ug(game, s) and game.coin_targets(s):
                    scored.append(
                        ((1,) + self.ambush_key(game, s), a, "Attack with 3+ Active Guerrillas (8.5.5)")
                    )
        if limit is not None and self.counts()["spaces"] >= limit:
            scored = []
        if not scored:
            return self.no_space(decision, spaces, done, sa or op)
        a, w, top = self.choose_space(game, scored, step)
        s = a["space"]
        if op == "rally" and top[0] == 4:
            self.counts()["rally_single"] += 1
        if op == "attack" and top[0] == 2:
            self.counts()["ambush"] += 1
            self.memo()[f"ambush:{s}"] = True
        if op == "rally":
            self.memo()[f"rally:{s}"] = top[0]
        self.why(self.rule_for(decision), f"{a.label}: {w}")
        return a

    def rally_key(self, game: FitlGame, s: str, singles: int) -> tuple[int, ...] | None:
        """FITL-8.5.3 Rally priorities (tier, then removing COIN Control)."""
        b = game.board
        coin, nva, vc = self.coin(game, s), b.count(s, "NVA"), b.count(s, "VC")
        placed = self.rally_guerrillas(game, s)
        removes = 1 if b.control(s) == "coin" and placed and coin <= nva + vc + placed else 0
        nva_player = self.is_player_faction(game, "NVA")
        breaks_nva = (
            1
            if nva_player
            and self.pop(game, s)
            and b.control(s) == "nva"
            and placed
            and nva <= coin + vc + placed
            else 0
        )
        removes = removes * 2 + breaks_nva  # COIN Control first, then (NVA a player) NVA Control
        if self.vcg(game, s) >= 4 and game.base_room(s) and b.available["vc_bases"]:
            return (5, 0)
        if self.vcg(game, s) == 0 and singles < 2:
            p = b.pieces[s]
            return (
                4,
                removes,
                1 if p["arvn_troops"] + p["arvn_police"] else 0,
                1 if self.pop(game, s) else 0,
            )
        if self.vc_bases(game, s) and b.pieces[s]["vc_guerrillas:u"] < 4:
            return (3, removes)
        if 1 <= self.vcg(game, s) <= 3:
            return (2, removes)
        if self.svn(game, s):
            return (1, removes)
        return None

    def ambush_key(self, game: FitlGame, s: str) -> tuple[int, ...]:
        """FITL-8.5.4 AMBUSH: from LoCs, remove a Base, then Special Forces, then cubes; US before ARVN."""
        best = max((target_priority(game, sp, k) for sp, k in game.ambush_targets(s)), default=(0,))
        return (1 if game.is_loc(s) else 0,) + tuple(best)

    def on_mode(self, game: FitlGame, decision: Decision) -> Action:
        c = decision.context
        modes = self.modes(decision)
        s = c.get("space")
        if c.get("op") == "rally" and c.get("sa") is None:
            tier = self.memo().get(f"rally:{s}", 0)
            if tier == 5 and "base" in modes:
                self.why("8.5.3", "Rally: replace Guerrillas with a VC Base where there are 4 or more")
                return modes["base"]
            places = [a for a in decision.options if a.get("mode") == "place"]
            if places:
                a = max(places, key=lambda a: a["n"]) if tier == 3 else min(places, key=lambda a: a["n"])
                self.why("8.5.3", f"Rally: {a.label}")
                return a
        if c.get("sa") == "subvert":
            p = game.board.pieces[s]
            one = p["arvn_troops"] + p["arvn_police"] == 1
            return self.mode_or(
                decision,
                modes,
                "8.5.1",
                "replace" if one else None,
                "Subvert: replace the only ARVN cube with a VC Guerrilla",
                "remove",
                "Subvert: remove ARVN cubes",
            )
        if c.get("op") == "attack":
            return self.mode_or(
                decision,
                modes,
                "8.5.5",
                "ambush" if self.memo().get(f"ambush:{s}") else None,
                "Ambush in this Attack space (8.5.4 AMBUSH)",
                "guerrillas",
                "Attack with the Guerrillas",
            )
        return None  # type: ignore[return-value]

    # ------------------------------------------------------------------ March (8.5.4)
    def keep(self, game: FitlGame, s: str) -> int:
        if self.vc_bases(game, s):
            return 2
        return 1 if self.svn(game, s) and game.is_pc(s) else 0

    def surplus(self, game: FitlGame, s: str) -> int:
        """Underground VC that may leave ``s`` (8.5.4: keep 2 at a VC Base, 1 in other South Vietnam spaces, and
        never add COIN or NVA Control by leaving)."""
        b = game.board
        n = min(self.ug(game, s), self.vcg(game, s) - self.keep(game, s))
        while n > 0 and self.svn(game, s):
            coin, nva, vc = self.coin(game, s), b.count(s, "NVA"), b.count(s, "VC") - n
            ctl = "coin" if coin > nva + vc else "nva" if nva > coin + vc else None
            if ctl is None or ctl == b.control(s):
                break
            n -= 1
        return max(0, n)

    def march_target(self, game: FitlGame) -> tuple[str, str, int, str] | None:
        b = game.board
        m = self.memo()
        moved_from = m.setdefault("from", [])
        moved_to = m.setdefault("to", [])
        only = m.get("only")
        origins = [s for s in self.spaces(game) if s not in moved_to and self.surplus(game, s) > 0]
        if m.get("locs", 0) < 3:
            best = None
            for s in origins:
                for d in game.adjacent(s):
                    if only and d != only:
                        continue
                    if (
                        game.is_loc(d)
                        and game.econ(d) >= 1
                        and d not in moved_to
                        and not b.pieces[d]["vc_guerrillas:u"]
                        and not b.pieces[d]["nva_guerrillas:u"]
                    ):
                        k = (game.econ(d), self.surplus(game, s))
                        if best is None or k > best[0]:
                            best = (k, s, d)
            if best:
                return best[1], best[2], 1, "8.5.4: 1 Underground Guerrilla onto a 1-2 Econ LoC (0 Resources)"
        if b.tracks["vc_resources"] >= 1:
            best = None
            for s in origins:
                for d in game.adjacent(s):
                    if (
                        d in moved_from
                        or not game.is_pc(d)
                        or not self.pop(game, d)
                        or b.support[d] <= -2
                        or (only and d != only)
                    ):
                        continue
                    n = self.surplus(game, s)
                    removes = (
                        self.pop(game, d)
                        if b.control(d) == "coin" and self.coin(game, d) <= self.insurgents(game, d) + n
                        else 0
                    )
                    k = (n, 1 if game.base_room(d) else 0, removes)
                    if best is None or k > best[0]:
                        best = (k, s, d, n)
            if best:
                return (
                    best[1],
                    best[2],
                    best[3],
                    (
                        "8.5.4: the most Underground Guerrillas into a populated space not "
                        "at Active Opposition (room for a Base, removing COIN Control)"
                    ),
                )
        if self.is_player_faction(game, "NVA") and b.tracks["vc_resources"] >= 1:
            best = None
            for s in origins:
                n = self.surplus(game, s)
                for d in game.adjacent(s):
                    if (
                        d in moved_from
                        or (only and d != only)
                        or not self.svn(game, d)
                        or b.control(d) != "nva"
                    ):
                        continue
                    if b.count(d, "NVA") <= self.coin(game, d) + b.count(d, "VC") + n:
                        k = (1 if self.vc_bases(game, d) else 0, n)
                        if best is None or k > best[0]:
                            best = (k, s, d, n)
            if best:
                return best[1], best[2], best[3], "8.5.4: the NVA are a player: March to remove NVA Control"
        return None

    def on_move_from(self, game: FitlGame, decision: Decision) -> Action:
        if decision.context.get("op") != "march" or decision.context.get("sa"):
            return None  # type: ignore[return-value]
        t = self.march_target(game)
        offered = {a["space"]: a for a in self.opts(decision, "move_from")}
        if t and t[0] in offered:
            s, d, n, why = t
            m = self.memo()
            m["plan"] = (d, n)
            m["from"].append(s)
            m["to"].append(d)
            if game.is_loc(d):
                m["locs"] = m.get("locs", 0) + 1
            if decision.context.get("limited"):
                m["only"] = d  # FITL-2.3.5: a Limited March has a single destination
            self.why(self.rule_for(decision), f"March from {game.sname(s)} to {game.sname(d)}: {why}")
            return offered[s]
        return self.march_done(game, decision)

    def on_move_to(self, game: FitlGame, decision: Decision) -> Action:
        return self.march_to_plan(game, decision, self.rule_for(decision), "March to {} (planned)")

    def movement_count(self, game: FitlGame, decision: Decision) -> int | None:
        plan = self.memo().get("plan")
        step = decision.context.get("step")
        if decision.context.get("op") == "march" and plan and not decision.context.get("sa"):
            return plan[1] if step == "guerrillas_u" else 0
        return None

    # ------------------------------------------------------------------ Coup Round (6.2.1, 6.3.2, 6.5)
    def on_agitate(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-8.5.6: the greatest shift first, within that where any Support, then where no Terror; Terror is
        removed only if a shift follows."""
        b = game.board
        res = b.tracks["vc_resources"]
        scored = []
        for a in self.opts(decision, "agitate"):
            s = a["space"]
            t = b.terror[s]
            if b.support[s] <= -2 or (t and res < t + 1):
                continue
            scored.append(((self.pop(game, s), 1 if b.support[s] > 0 else 0, 0 if t else 1), a))
        return self.support_step(
            game,
            decision,
            scored,
            "8.5.6",
            "greatest shift, Support first, no Terror first",
            "no Agitation would achieve a shift: stop",
        )

    def on_sabotage(self, game: FitlGame, decision: Decision) -> Action:
        opts = self.opts(decision, "sabotage") or decision.options
        s = random_pick(game, "VC", [a["space"] for a in opts], "sabotage")
        self.why(
            "8.3", f"Sabotage {game.sname(s)}: Random LoC (highest Econ, next to a random City, equal chance)"
        )
        return next(a for a in opts if a["space"] == s)

    def on_withdraw_shift(self, game: FitlGame, decision: Decision) -> Action:
        opts = self.opts(decision, "withdraw_shift")
        if not opts:
            return self.first(decision, "done") or decision.options[0]
        a = self.pick(game, opts, lambda a: self.pop(game, a["space"]))
        self.why("8.4.5", f"{a.label}: the highest gain in Total Opposition")
        return a
