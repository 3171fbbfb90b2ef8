"""Fire in the Lake: the Special Activities in general (FITL-4.0, FITL-4.1) and what all of them share.

Each SA ``x`` has ``can_x(ctx)`` (a legal space exists now, FITL-4.1.1 checked by ``operations.py``) and
``sa_x(ctx)`` (the procedure).  No SA costs Resources (FITL-4.1); each space once per SA.  The SAs themselves
follow the rulebook: the COIN ones (US 4.2, ARVN 4.3) in ``special_coin.py``, the Insurgent ones (NVA 4.4,
VC 4.5) in ``special_insurgent.py``.  Here: choosing an SA's spaces one at a time (:meth:`sa_space_loop`),
the Capabilities and Momentum that limit or forbid SAs (FITL-5.3, FITL-5.4) and small shared questions.
"""

from __future__ import annotations

from typing import Any

from ..core import Action
from .ops_common import DONE, INSURGENT_KEYS, Flow, OpCtx, OpsCommon

ADVISE, AIRLIFT, STRIKE = "FITL-4.2.1", "FITL-4.2.2", "FITL-4.2.3"
GOVERN, TRANSPORT, RAID = "FITL-4.3.1", "FITL-4.3.2", "FITL-4.3.3"
INFILTRATE, BOMBARD, NVA_AMBUSH = "FITL-4.4.1", "FITL-4.4.2", "FITL-4.4.3"
TAX, SUBVERT, VC_AMBUSH = "FITL-4.5.1", "FITL-4.5.2", "FITL-4.5.3"
LIFT_KEYS = (
    "us_troops",
    "arvn_troops",
    "arvn_rangers:u",
    "arvn_rangers:a",
    "us_irregulars:u",
    "us_irregulars:a",
)
ARVN_CUBES = ("arvn_troops", "arvn_police")


class SpecialActivities(OpsCommon):
    """Mixin: the Special Activities (FITL-4.0)."""

    def sa_space_loop(self, ctx: OpCtx, rule: str, title: str, cands_fn: Any, limit: int, label: Any) -> Flow:
        """Choose SA spaces one at a time (each once, FITL-4.1) up to ``limit`` (as a Capability or Momentum
        changes it: :meth:`sa_limit`, FITL-5.3 / FITL-5.4); yields the chosen space."""
        if ctx.sa_max is not None:  # FITL-5.1.2: the Event's own number of spaces wins over lasting limits
            limit = ctx.sa_max
        elif rule not in (NVA_AMBUSH, VC_AMBUSH):  # Ambush computes its own cap (ambush_cap)
            limit, why = self.sa_limit(rule, limit)
            if why:
                yield self.oruling(
                    rule,
                    f"{title}: space limit",
                    f"{title} may use at most {limit} space(s){why}.",
                    result={"limit": limit},
                )
        chosen: list[str] = []
        while len(chosen) < limit:
            cands = [
                s
                for s in cands_fn()
                if s not in chosen  # FITL-5.1.1: an Event may confine its free SA
                and (ctx.sa_allowed is None or s in ctx.sa_allowed)
            ]
            if not cands:
                break
            opts = [Action.make("space", label(s), [s], space=s) for s in cands]
            if chosen:
                opts.append(DONE)
            act = yield self.decide(
                ctx.faction,
                f"{title}: choose a space ({len(chosen) + 1} of up to {limit}) or done",
                rule,
                opts,
                kind="space",
                check=lambda a: self.refuse_move(ctx, rule, a),
                **ctx.context(step="sa_space", sa=ctx.sa),
            )
            if act.kind == "done":
                break
            chosen.append(act["space"])
            ctx.sa_spaces.append(act["space"])
            yield ("chosen", act["space"])

    def _each_space(
        self, ctx: OpCtx, rule: str, title: str, cands_fn: Any, limit: int, label: Any, body: Any
    ) -> Flow:
        loop = self.sa_space_loop(ctx, rule, title, cands_fn, limit, label)
        value = None
        while True:
            try:
                item = loop.send(value)
            except StopIteration:
                return
            if isinstance(item, tuple) and item and item[0] == "chosen":
                yield from body(item[1])
                value = None
            else:
                value = yield item

    # ------------------------------------------------------------------ Capabilities and Momentum (5.3, 5.4)
    LIMITS: dict[str, tuple[tuple[int, str | None, int], ...]] = {
        GOVERN: ((86, "shaded", 1),),
        BOMBARD: ((32, "unshaded", 1), (32, "shaded", 3)),
        INFILTRATE: ((46, "unshaded", 1),),
    }
    TYPHOON_ONE_SPACE = (ADVISE, STRIKE, GOVERN, RAID, INFILTRATE, NVA_AMBUSH, VC_AMBUSH, TAX, SUBVERT)
    BANNED: dict[str, tuple[tuple[int, str | None], ...]] = {
        "air_lift": ((15, "shaded"), (115, "unshaded")),
        "air_strike": ((10, "shaded"), (22, "shaded"), (41, "unshaded")),
        "transport": ((115, "unshaded"),),
        "bombard": ((115, "unshaded"),),
        "infiltrate": ((38, "unshaded"),),
        "ambush": ((17, "unshaded"),),
    }

    def sa_banned(self, sa: str) -> str:
        """FITL-5.4: the Momentum forbidding Special Activity ``sa`` now (#15 shaded and #115 no Air Lift; #10
        shaded, #22 shaded, #41 no Air Strike; #115 no Transport or Bombard; #38 no Infiltrate; #17 no Ambush),
        as words naming it, or ""."""
        for card, side in self.BANNED.get(sa, ()):
            words = self.lasting(card, side)
            if words:
                return words
        return ""

    def sa_limit(self, rule: str, limit: int) -> tuple[int, str]:
        """FITL-5.3 / FITL-5.4: an SA's number of spaces as the lasting effects change it: #86 shaded Govern 1,
        #32 Bombard 1 (unshaded) or 3 (shaded), #46 Infiltrate 1; Momentum #115 Typhoon Kate every other SA 1."""
        new, why = self.lasting_limit(limit, *self.LIMITS.get(rule, ()))
        kate = self.lasting(115, "unshaded")
        if kate and rule in self.TYPHOON_ONE_SPACE and new > 1:
            new, why = 1, f" [{kate}: at most 1]"
        return new, why

    def ambush_cap(self) -> tuple[int, str]:
        """FITL-4.4.3 / FITL-4.5.3: Ambush spaces per Operation: 2, or 1 with Capability #101 Booby Traps
        (unshaded) or Momentum #115 Typhoon Kate (FITL-5.3 / FITL-5.4; decision F-158)."""
        limit, why = self.lasting_limit(2, (101, "unshaded", 1), (115, "unshaded", 1))
        return limit, why

    def yesno(self, side: str, prompt: str, rule: str, yes: str, no: str, **context: Any) -> Flow:
        a = yield self.decide(
            side, prompt, rule, [Action.make("yes", yes), Action.make("no", no)], kind="yesno", **context
        )
        return a.kind == "yes"

    def enemy_removable(self, s: str) -> bool:
        """Some enemy piece a Special Force could remove (FITL-4.2.1 / FITL-4.3.3: not a Tunneled Base)."""
        return any(self.n(s, k) for k in INSURGENT_KEYS if not k.endswith(":t"))
