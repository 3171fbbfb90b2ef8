"""Fire in the Lake: the COIN Operation Assault (FITL-3.2.4): where US and ARVN may Assault, how many pieces
each removes by faction and terrain, the removal itself and the US's optional ARVN follow-up; a mixin of
:class:`~wargames.fitl.coin_ops.CoinOps`."""

from __future__ import annotations

from collections.abc import Callable

from ..core import Action, IllegalAction
from .coin_train import ASSAULT_RULE
from .ops_common import CUBES, Flow, OpCtx, OpsCommon


class AssaultOps(OpsCommon):
    """Mixin: the COIN Operation Assault (FITL-3.2.4)."""

    def us_assault_banned(self, faction: str) -> str:
        """FITL-5.4: Momentum #78 General Lansdale (shaded) forbids US Assault (the Operation and a Patrol's
        Assault step); an Event's own free US Assault still happens (FITL-5.1.2)."""
        if faction != "US" or self.__dict__.get("_ev_free_op"):
            return ""
        return self.lasting(78, "shaded")

    def can_assault(self, faction: str, limited: bool, free: bool) -> bool:
        if self.us_assault_banned(faction):
            return False
        return bool(self.assault_spaces(faction)) and self.can_pay(
            faction, self.op_cost(faction, "assault"), free
        )

    def why_not_assault(self, ctx: OpCtx, s: str) -> tuple[str, str] | None:
        if not sum(self.n(s, k) for k in self.op_cubes(ctx.faction)) or not self.insurgent_pieces(s):
            return ASSAULT_RULE, f"Assault needs {ctx.faction} cubes and NVA/VC pieces in {self.sname(s)}"
        if not self.can_pay(ctx.faction, self.op_cost(ctx.faction, "assault"), ctx.free):
            return "FITL-3.1", f"ARVN cannot pay 3 Resources for {self.sname(s)}"
        cap, why = self.op_space_cap(ctx.faction, "assault")
        if len(ctx.spaces) >= cap:
            return "FITL-5.3", f"US Assault in at most {cap} spaces{why}"
        return None

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
