"""Built-in players for Tet.  Each choice comes with a reason in plain words (``last_reason``).

The bots play plausibly, not randomly: the VC slip into weakly held cities of high political value, the
NVA close in from the sanctuaries, hidden units stay hidden unless they can win a fight; the Allies send
Recce where most units hide, fight the biggest battles first and mass fire for good odds.
"""

from __future__ import annotations

import random
from fractions import Fraction

from ..core import Action, Decision
from .odds import COLUMNS, odds_column

GOOD = "3:1"


class _Bot:
    side = ""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(f"{type(self).__name__}:{seed}")
        self.last_reason = ""

    def _best(self, scored: list[tuple[float, Action, str]]) -> Action:
        top = max(s for s, _, _ in scored)
        best = [(a, why) for s, a, why in scored if s == top]
        action, self.last_reason = best[self.rng.randrange(len(best))]
        return action

    def choose(self, game, decision: Decision) -> Action:
        kinds = {a.kind for a in decision.options}
        for kind in ("move", "recce", "reveal", "battle", "target", "add_firer", "retreat"):
            if kind in kinds:
                return getattr(self, f"on_{kind}")(game, decision)
        self.last_reason = "the only sensible choice"
        return decision.options[-1]

    # ------------------------------------------------------------------ shared combat sense
    def _group_value(self, game, area, units) -> Fraction:
        return sum((game._strength(u, area) for u in units), Fraction(0))

    def on_battle(self, game, decision):
        scored = []
        for a in decision.options:
            area = a["area"]
            stake = sum(game.unit(u).cf for u in game.units_in(area))
            pv = game.data.areas[area].pv or 0
            scored.append((stake + 10 * pv, a, f"{game.area_name(area)} first: the most troops ({stake} factors) "
                                                f"and political value {pv} at stake"))
        return self._best(scored)

    def on_target(self, game, decision):
        """Fire at the target we can beat at the best odds with what is ready to fire."""
        area = game.loc[decision.options[0]["target"]] if decision.options[0].kind == "target" else None
        ready_total = None
        scored = []
        for a in decision.options:
            if a.kind != "target":
                scored.append((0.5, a, "no target worth the fire"))
                continue
            t = a["target"]
            if ready_total is None:
                side = decision.side
                ready = [u for u in game.units_in(area) if game.side_of(u) == side and game.can_fire(u)]
                ready_total = self._group_value(game, area, ready) + (
                    2 * game.data.areas[area].pv if side == "Communist" and area in game.insurrection else 0)
            col = odds_column(ready_total, game.defense_strength(t))
            if col is None:
                scored.append((0, a, "too strong to attack"))
                continue
            value = COLUMNS.index(col) + 1 + game.defense_strength(t) / 10
            scored.append((value, a, f"{game.describe(t, decision.side)} can be attacked at up to {col}"))
        return self._best(scored)

    def on_add_firer(self, game, decision):
        """Add the strongest firer until the odds reach 3:1; then fire."""
        fire = [a for a in decision.options if a.kind == "fire"]
        if fire and COLUMNS.index(fire[0].label.split()[2]) >= COLUMNS.index(GOOD):
            self.last_reason = f"odds of {fire[0].label.split()[2]} are good enough: fire"
            return fire[0]
        adds = [a for a in decision.options if a.kind == "add_firer"]
        if adds:
            target = decision.context.get("target")
            area = game.loc[target]
            best = max(adds, key=lambda a: (game._strength(a["unit"], area), a["unit"]))
            self.last_reason = "add the strongest unit still free to fire"
            return best
        if fire:
            self.last_reason = "every free unit is in the group: fire at these odds"
            return fire[0]
        self.last_reason = "the odds cannot reach 1:2: give up on this target"
        return next(a for a in decision.options if a.kind == "drop_target")

    def on_retreat(self, game, decision):
        scored = [(len(game.units_in(a["to"])), a, f"retreat to {a['to']}, where most friends are")
                  for a in decision.options]
        return self._best(scored)


class CommunistBot(_Bot):
    """NVA/VC: VC slip into weakly held cities of high political value (to raise insurrections);
    NVA close in from the sanctuaries toward the cities; hidden units reveal only to win a fight."""

    side = "Communist"

    def on_move(self, game, decision: Decision) -> Action:
        scored = []
        for a in decision.options:
            if a.kind != "move":
                scored.append((0.5, a, "nothing else is worth the risk of showing itself: end the phase"))
                continue
            uid, to = a["unit"], a["to"]
            u = game.unit(uid)
            area = game.data.areas[to]
            frm = game.data.areas[game.loc[uid]]
            if area.kind == "city":
                guards = [x for x in game.allied_in(to) if game.unit(x).type != "ruff_puff"]
                if u.faction == "VC" and not guards:
                    scored.append((10 * area.pv, a, f"{u.name} infiltrates {area.name}: political value {area.pv}, "
                                                    "held only by militia, a chance to raise an insurrection"))
                else:
                    scored.append((-1, a, "a city with Allied regulars: stay hidden"))
            elif u.faction == "NVA" and frm.kind == "sanctuary" and area.kind == "province" and area.country == "SVN":
                pv = sum(game.data.areas[c].pv for c in game.data.cities_of.get(to, ()))
                scored.append((1 + pv / 4, a, f"{u.name} leaves its sanctuary for {area.name}, near cities worth "
                                              f"{pv} political points"))
            else:
                scored.append((0, a, "no gain in moving"))
        return self._best(scored)

    def on_reveal(self, game, decision):
        """Reveal only where the hidden force could fire at 3:1 on the weakest Allied unit."""
        scored = []
        for a in decision.options:
            if a.kind != "reveal":
                scored.append((0.5, a, "stay hidden: no fight worth showing ourselves for"))
                continue
            area = game.loc[a["unit"]]
            ours = sum(game.unit(u).cf for u in game.communists_in(area))
            theirs = [game.defense_strength(u) for u in game.allied_in(area) if game.can_be_target(u)]
            col = odds_column(ours, min(theirs)) if theirs else None
            if col and COLUMNS.index(col) >= COLUMNS.index(GOOD):
                scored.append((1 + COLUMNS.index(col), a, f"{ours} factors here against a weakest defender of "
                                                          f"{min(theirs)}: {col} is worth a fight"))
            else:
                scored.append((0, a, "too weak here to fight"))
        return self._best(scored)


class AlliedBot(_Bot):
    """Allies: send each Recce where the most hidden units are; fight the biggest battles first."""

    side = "Allied"

    def on_recce(self, game, decision: Decision) -> Action:
        scored = []
        for a in decision.options:
            if a.kind == "recce":
                n = len(game.hidden_communists(a["area"]))
                scored.append((n, a, f"{a['area']} hides {n} unit(s), the most of any province open to this team"))
            else:
                scored.append((0, a, "no hidden units worth a Recce"))
        return self._best(scored)
