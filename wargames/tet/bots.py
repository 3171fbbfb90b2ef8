"""Built-in players for Tet.  Each choice comes with a reason in plain words (``last_reason``).

These are the foundation bots (phases 1 and 5); issue #4 extends them to every phase.
"""

from __future__ import annotations

import random

from ..core import Action, Decision


class _Bot:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(f"{type(self).__name__}:{seed}")
        self.last_reason = ""

    def _best(self, scored: list[tuple[float, Action, str]]) -> Action:
        top = max(s for s, _, _ in scored)
        best = [(a, why) for s, a, why in scored if s == top]
        action, self.last_reason = best[self.rng.randrange(len(best))]
        return action


class CommunistBot(_Bot):
    """NVA/VC: VC slip into weakly held cities of high political value (to raise insurrections);
    NVA close in from the sanctuaries toward the cities; everyone else stays hidden."""

    def choose(self, game, decision: Decision) -> Action:
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


class AlliedBot(_Bot):
    """Allies: send each Recce where the most hidden units are."""

    def choose(self, game, decision: Decision) -> Action:
        scored = []
        for a in decision.options:
            if a.kind == "recce":
                n = len(game.hidden_communists(a["area"]))
                scored.append((n, a, f"{a['area']} hides {n} unit(s), the most of any province open to this team"))
            else:
                scored.append((0, a, "no hidden units worth a Recce"))
        return self._best(scored)
