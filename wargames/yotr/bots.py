"""Built-in players for Year of the Rat.  Each choice comes with a reason in plain words (``last_reason``).

The Communist bot marches on the Allied towns worth most victory points, keeps within reach of a Supply
Center after the two free turns, takes empty strength-0 towns on the way, attacks at good odds and spends a
supply unit where several units are ready to attack.  The Allied bot garrisons the threatened towns, keeps
airmobile units as a reserve that flies to the worst threat, bombards the largest Communist stacks in the
open and counter-attacks towns the Communist holds.  The Allied bot only reads what the Allied player may
see: Communist counters are counted, never identified (YOTR-MOV-M).

Calibration (issue #5, deliverable 6; measured with ``benchmarks/montecarlo.py yotr``, digest 5.6).  The first
Communist bot scattered its divisions over six objectives, let bombed stacks sit Disrupted and attacked only at
3-1 (2-1 for towns worth 2 VP or more): median 5 VP, no Communist win.  Changes, each measured on 60-100 games:

* Campaign plan (``_plan``): once per Communist turn every real combat unit is given one Allied town to march
  on.  A town's pull is its worth (seizure VP plus ``REGION_WEIGHT`` x its Region's VP shared by the Region's
  towns still to take, so the last town of a Region pulls hardest, YOTR-VIC-REGION) over its known defence,
  discounted when no real supply unit can put it in Attack Supply (YOTR-SUP-E) and nearly ignored beyond
  General Supply (the attackers would be Isolated, YOTR-SUP-CHART).  Nearest units choose first and a town
  stops drawing units once ``NEED_RATIO`` times its defence is on the way, so the fronts fill with stacks big
  enough to attack.  March distance counts Movement Points (clear 1, other terrain 2, YOTR-MOV-R).  NLF
  guerrillas only choose towns of their own Region (YOTR-MOV-S).  Measured: +1.5 VP mean over the old march.
* Attacks on towns at 1-1 or better (``TOWN_ODDS``; other hexes still need 3-1): a 1-1 on the CRT
  (YOTR-CBT-CRT) gives the defender a retreat on a 1 and costs the attacker only a retreat on 4-5 and a loss
  on 6, while the town falls on any result against the defender (YOTR-TWN-PROC).  Measured: with 2-1 as the
  floor the median fell from 8 to 3.5 VP.
* Spread out (``CROWD`` = 1): each extra counter in a hex costs a point of score, because every counter in a
  bombed hex rolls on the BRT separately (YOTR-SOP-B3b).  Measured: +1 VP mean over ``CROWD`` = 3.
* Garrisons: a captured town keeps its strongest unit while Allied units are within ``GARRISON_WATCH`` hexes
  (the Allied bot counter-attacks towns the Communist holds).  Measured: +1 VP mean.
* A real supply unit is revealed only when Attack Supply (x1 instead of x1/2 General or x1/4 Isolated,
  YOTR-SUP-CHART) raises the chance of taking Allied towns this phase by ``REVEAL_GAIN`` expected VP or more
  (any gain on the last Game-Turn), YOTR-SUP-E.  Dummies feint (YOTR-MOV-M): each marches on the nearest town
  in a Region no real unit is sent to, drawing the Allied reserves and bombers, who count face-down counters,
  away from the real attacks.  Measured on seeds 0-199 (calibration probe): both together median 9 -> 10 VP,
  mean 10.1 -> 11.7; the feint alone 8 / 10.8, the supply rule alone 9 / 10.3.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from typing import TYPE_CHECKING

from ..core import Bot
from .combat import column_index, odds_column

if TYPE_CHECKING:  # pragma: no cover
    from .game import YotrGame

CROWD = 1  # counters in one hex before the Communist bot fears the bombers
SUPPLY_DISCOUNT = 0.7  # pull of a town no real supply unit can reach (Attack Supply)
ISOLATED_DISCOUNT = 0.02  # pull of a town beyond General Supply: its attackers would be Isolated
NEED_RATIO = 4  # attack strength sent per point of known defence before a town stops drawing units
TOWN_ODDS = "1-1"  # the lowest odds at which the Communist bot attacks a town (calibration)
REVEAL_GAIN = (
    0.3  # expected VP a supply unit must add to the attacks on towns before it is spent (YOTR-SUP-E)
)
REGION_WEIGHT = 2  # how strongly the Communist bot values completing a Region (its VP over the towns left)
GARRISON_WATCH = 3  # a captured town keeps one unit while Allied units are this close
HIDDEN_GUESS = 4  # what the Allied bot assumes a face-down counter defends with (D-62)


_MP_CACHE: dict[int, dict[str, dict[str, int]]] = {}
_TOWN_DIST_CACHE: dict[int, dict[tuple[str, ...], dict[str, int]]] = {}


def _stack_sizes(game: YotrGame, side: str) -> dict[str, int]:
    """Hex -> counters of ``side`` there (combat units and dummies, as ``counters_at`` counts them), for every hex
    that has any: one pass over the map's stacks."""
    out = {}
    for h, units in game.at.items():
        n = sum(1 for u in units if game.counters[u].side == side and not game.is_supply_unit(u))
        if n:
            out[h] = n
    return out


class _Bot(Bot):
    """The shared sense of both Year of the Rat sides on the core :class:`~wargames.core.players.Bot`: every
    decision names its kind, answered by ``on_<kind>``; a decision left with only its closing option (no more
    hexes, done) goes to the fallback."""

    # the Allied bombardment weighs air points and the naval marker; choosing attackers weighs both ways in
    weighs_options = {"bombard": ("air", "naval"), "attackers": ("all_attack", "attacker")}
    #: YOTR-CBT-D: the bot never widens an attack to another hex (its fallback declines)
    fallback_kinds = frozenset({"add_hex"})

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self._maps: dict = {}

    # ------------------------------------------------------------------ shared
    def on_lsi_number(self, game: YotrGame, decision):
        """YOTR-LSI: number the OBs at random, so the die leaves the opponent nothing to predict."""
        act = decision.options[self.rng.randrange(len(decision.options))]
        self.last_reason = (
            f"OB {act['ob']} gets number {act['number']} at random: a numbering the opponent could "
            "guess would tell him which OBs are likely to meet"
        )
        return act

    def on_move_unit(self, game: YotrGame, decision):
        act = decision.options[0]
        self.last_reason = f"units are moved one by one in order; next is {act['unit']}"
        return act

    def on_all_attack(self, game: YotrGame, decision):
        self.last_reason = "every adjacent unit joins the attack for the best odds"
        return self.first(decision, "all_attack")

    def on_attackers(self, game: YotrGame, decision):
        """YOTR-CBT-H: all adjacent units at once when offered, else one attacker at a time."""
        if self.first(decision, "all_attack") is not None:
            return self.on_all_attack(game, decision)
        return self.on_attacker(game, decision)

    def on_attacker(self, game: YotrGame, decision):
        commit = self.first(decision, "commit")
        if commit is not None:
            self.last_reason = "no more units are needed"
            return commit
        act = self.first(decision, "attacker")
        self.last_reason = f"{act['unit']} is the only unit next to the target"
        return act

    def on_advance(self, game: YotrGame, decision):
        act = self.first(decision, "advance")
        target = act.places[0] if act.places else ""
        if target in game.data.towns:
            self.last_reason = f"occupy the town {game.hex_name(target)} just cleared"
            return act
        self.last_reason = "no need to advance into open country"
        return self.first(decision, "stop")

    def on_resolve(self, game: YotrGame, decision):
        """YOTR-CBT-K: resolve next the declared attack with the best odds (first declared on a tie): a win there
        is the likeliest to drive defenders out and reopen supply lines before the harder battles."""
        best = None
        for a in decision.options:
            target, group, extra = next(p for p in game.pending_attacks if p[0] == a["hex"])
            hexes = [target, *extra]
            attackers = [u for u in group if all(game.loc[u] in game.data.adj[h] for h in hexes)]
            atk = sum((game.attack_strength(u) for u in attackers), Fraction(0))
            col = odds_column(atk, sum((self._defence(game, h, attackers) for h in hexes), Fraction(0)))
            idx = column_index(col) if col else -1
            if best is None or idx > best[0]:
                best = (idx, a, col)
        _, act, col = best
        self.last_reason = (
            f"resolve the attack on {game.hex_name(act['hex'])} next: the best odds of those left "
            f"({col or 'no attack strength'}), so a win there may push defenders out and reopen "
            "supply lines before the harder battles"
        )
        return act

    def _defence(self, game: YotrGame, h: str, attackers: list[str]) -> Fraction:
        return game.defense_strength(h, attackers)[0]

    def best_explained(self, options: list, judge) -> object:
        """:meth:`best` over ``options`` judged by ``judge(option, explain) -> (score, reason)``, explaining only
        the options that share the top score: every option is scored with ``explain=False`` (no words built: a
        move offers about 180 destinations), then the top ones again with their reasons.  The same choice, the
        same tie-break draw and the same reason as :meth:`best` over every option explained."""
        scores = [judge(a, False)[0] for a in options]
        top = max(scores)
        return self.best(
            [(s, a, judge(a, True)[1]) for s, a in zip(scores, options, strict=True) if s == top]
        )

    def on_enter(self, game: YotrGame, decision):
        self.last_reason = "the first entry hex is the closest to the front"
        return decision.options[0]

    def _weighted_distance(self, game: YotrGame, offset: dict[str, int]) -> dict[str, int]:
        """Distance over land from the nearest source, each source starting at its offset."""
        land = game.data.land_adj
        dist: dict[str, int] = {}
        layers: dict[int, list[str]] = {}
        for h, o in sorted(offset.items()):
            layers.setdefault(o, []).append(h)
        level = 0
        frontier: set[str] = set()
        while layers or frontier:
            frontier = {h for h in frontier | set(layers.pop(level, [])) if h not in dist}
            for h in frontier:
                dist[h] = level
            frontier = {n for h in frontier for n in land[h] if n not in dist}
            level += 1
        return dist

    def _land_distance(self, game: YotrGame, sources: list[str]) -> dict[str, int]:
        land = game.data.land_adj
        dist = {s: 0 for s in sources}
        q = deque(sorted(sources))
        while q:
            h = q.popleft()
            for n in land[h]:
                if n not in dist:
                    dist[n] = dist[h] + 1
                    q.append(n)
        return dist


class CommunistBot(_Bot):
    side = "Communist"

    def _targets(self, game: YotrGame) -> dict[str, int]:
        """Allied towns and their worth: seizure value plus the Region's VP (weighted) shared by its towns still
        to take, so the last town of a Region pulls hardest (YOTR-VIC-REGION)."""
        d = game.data
        out = {}
        for h, p in d.towns.items():
            if game.town[h] == "nlf":
                continue
            region = d.regions[p.region].vp if p.region in d.regions else 0
            left = [t for t in d.region_towns.get(p.region, ()) if game.town[t] != "nlf"]
            out[h] = d.town_vp[p.intrinsic_strength or 0].vp_on_seizure + REGION_WEIGHT * region // max(
                1, len(left)
            )
        return out

    # ------------------------------------------------------------------ the campaign plan (calibration)
    def _mp_distance(self, game: YotrGame, town: str) -> dict[str, int]:
        """Static march cost in Movement Points from every land hex to ``town`` (clear 1, other terrain 2)."""
        cache = _MP_CACHE.setdefault(id(game.data), {})
        if town not in cache:
            # a shortest-path search with one bucket per cost (the costs are 1 and 2, so buckets beat a heap)
            steps = game.data.march_steps
            dist = {town: 0}
            buckets: list[list[str]] = [[town]]
            c = 0
            while c < len(buckets):
                for h in buckets[c]:
                    if dist[h] != c:
                        continue  # reached more cheaply since it was put here
                    for n, mp in steps[h]:
                        nc = c + mp
                        if nc < dist.get(n, 10**6):
                            dist[n] = nc
                            while len(buckets) <= nc:
                                buckets.append([])
                            buckets[nc].append(n)
                c += 1
            cache[town] = dist
        return cache[town]

    def _plan(self, game: YotrGame):
        """Once per Communist turn: give every real combat unit one Allied town to march on and attack.

        A town's worth is its seizure value plus its share of the Region still to complete; it is divided by
        its known defence and favoured while a real supply unit can still put it in Attack Supply (within 8
        hexes of its Supply Center, YOTR-SUP-E).  Units are handed out greedily, nearest first, and a town
        stops drawing units once about four times its defence is on the way (the 4-1 column and above), so
        the stacks that arrive are big enough to win (calibration C-01)."""
        key = (game.turn, tuple(sorted(game.town.items())))
        if self._maps.get("key") == key:
            return self._maps
        d = game.data
        targets = self._targets(game)
        defence = {
            h: game.allied_militia(h)
            + sum(game.defense_value(u) for u in game.counters_at(h, "Allied"))
            * (2 if d.towns[h].kind == "base" else 1)
            for h in targets
        }
        real = tuple(
            sorted(
                {game.loc[u] for u in game.on_map("Communist") if game.counters[u].unit_type == "supply_real"}
            )
        )
        reach = game.communist_range(real) if real else {}
        general = game.communist_range(game.general_sources())
        pull = {}
        for h, worth in targets.items():
            supplied = h in reach or any(n in reach for n in d.adj[h])
            fed = any(n in general for n in d.adj[h])
            pull[h] = (
                worth
                / (2 + defence[h])
                * (1.0 if supplied else SUPPLY_DISCOUNT if fed else ISOLATED_DISCOUNT)
            )
        units = sorted(u for u in game.on_map("Communist") if game.is_combat(u) and not game.is_dummy(u))
        assign: dict[str, str] = {}
        why: dict[str, str] = {}
        garrison: set[str] = set()
        allied = game.occupied("Allied")
        for h in sorted(h for h, st in game.town.items() if st == "nlf"):
            here = [u for u in units if game.loc[u] == h]
            if here and any(n in allied for n in d.grid.within(h, GARRISON_WATCH)):
                keep = max(here, key=lambda u: (game.defense_value(u), u))
                garrison.add(keep)
                why[keep] = (
                    f"holds the captured town {game.hex_name(h)}: Allied units are within {GARRISON_WATCH} hexes"
                )
        units = [u for u in units if u not in garrison]
        sent: dict[str, float] = {h: 0.0 for h in targets}
        # nearest units choose first so the fronts fill from the closest divisions
        march = {t: self._mp_distance(game, t) for t in targets}  # static, kept per map
        order = sorted(
            units, key=lambda u: (min((march[t].get(game.loc[u], 999) for t in targets), default=999), u)
        )
        for u in order:
            h = game.loc[u]
            best = None
            home = game.home_region.get(u)
            for t in sorted(targets):
                if home and d.region(t) != home:
                    continue  # NLF guerrillas stay in their own Region (YOTR-MOV-S)
                mp = march[t].get(h, 999)
                if mp >= 999:
                    continue
                need = NEED_RATIO * max(1, defence[t])
                full = sent[t] >= need
                p = targets[t] / (2 + defence[t]) if home else pull[t]
                score = p / (1 + mp / 6) * (0.3 if full else 1.0) + (0.2 if 0 < sent[t] < need else 0)
                if best is None or score > best[0]:
                    best = (score, t, mp, full)
            if best is None:
                continue
            _, t, mp, full = best
            assign[u] = t
            sent[t] += game.attack_value(u)
            why[u] = (
                f"marches on {game.hex_name(t)} (worth {targets[t]} VP, defence {defence[t]}, "
                f"{mp} MP away{', already well covered' if full else ''})"
            )
        # dummies feint (YOTR-MOV-M, YOTR-DUM): each marches on the nearest town no real unit is sent to, so the
        # Allied reserves and bombers, who cannot tell them from real units, are drawn away from the real attacks
        attacked = {d.region(t) for t in assign.values()}
        feints = [t for t in targets if d.region(t) not in attacked]
        for u in sorted(u for u in game.on_map("Communist") if game.is_dummy(u)):
            h = game.loc[u]
            best = min(((march[t].get(h, 999), t) for t in feints), default=None)
            if best and best[0] < 999:
                assign[u] = best[1]
                why[u] = f"feints towards {game.hex_name(best[1])}, away from the real attacks"
        self._maps = {
            "key": key,
            "assign": assign,
            "why": why,
            "garrison": garrison,
            "targets": targets,
            "defence": defence,
            "dist": self._town_distance(game, tuple(sorted(targets))),
        }
        return self._maps

    def _town_distance(self, game: YotrGame, towns: tuple[str, ...]) -> dict[str, int]:
        """Hexes over land from the nearest of ``towns``: static for a set of towns, so kept per map."""
        cache = _TOWN_DIST_CACHE.setdefault(id(game.data), {})
        if towns not in cache:
            cache[towns] = self._weighted_distance(game, {h: 0 for h in towns})
        return cache[towns]

    def _dist(self, game: YotrGame):
        return self._plan(game)

    def on_move_to(self, game: YotrGame, decision):
        m = self._plan(game)
        d = game.data
        uid = decision.options[0]["unit"]
        target = m["assign"].get(uid)
        nva = game.counters[uid].nationality == "NVA"  # the bot minds the supply range of NVA units only
        supplied = game.communist_range(game.general_sources()) if game.turn >= 2 and nva else None
        tdist = self._mp_distance(game, target) if target else m["dist"]
        here = game.loc[uid]
        if uid in m["garrison"]:
            stay = self.first(decision, "stay")
            if stay is not None:
                self.last_reason = m["why"][uid]
                return stay
        next_to = frozenset(d.adj[target]) if target else frozenset()  # the hexes one hex from the target
        stacks = _stack_sizes(game, "Communist")

        def judge(a, explain: bool) -> tuple[float, str]:
            p = a.params  # a destination's: (("to", hex), ("unit", uid)[, ("via", towns)]), keys in order
            h = p[0][1] if a.kind == "move_to" else here
            gap = tdist.get(h, 99)
            score = -float(gap)
            why = m["why"].get(uid, "closer to the Allied towns") + f"; {gap} MP left" if explain else ""
            if h in next_to:
                score += 4
                why = m["why"].get(uid, "") + "; next to it, ready to attack" if explain else ""
            if d.terrain(h) == "clear" and h not in d.towns:
                score -= 1.5  # air strikes count double in the open (YOTR-TEC-5)
                why += "; in the open"
            crowd = stacks.get(h, 0) - (1 if h == here else 0)
            if crowd >= CROWD:
                score -= crowd - CROWD + 1  # do not offer the bombers one big stack
            if h in d.towns and game.town[h] != "nlf":
                score += 20
                why = f"takes the undefended town {game.hex_name(h)}" if explain else ""
            via = p[2][1] if len(p) > 2 else None
            passed = [t for t in via.split("+") if t not in ("-", h)] if via else []
            if passed:  # D-67: of the paths offered, the one taking empty towns on the way (YOTR-TWN-H)
                score += 20 * len(passed)
                why += f", taking {', '.join(game.hex_name(t) for t in passed)} on the way" if explain else ""
            if supplied is not None and h not in supplied:
                score -= 4
                why += ", though out of supply range"
            if a.kind == "stay":
                score += 0.1 if h in next_to else -0.5
                why = "stays put: " + why
            return score, why

        return self.best_explained(decision.options, judge)

    def on_target(self, game: YotrGame, decision):
        def score(a):
            h = a["hex"]
            atk = game.eligible_attackers("Communist", h, set())
            total = sum((game.attack_strength(u) for u in atk), Fraction(0))
            dfn, _ = game.defense_strength(h, atk)
            col = odds_column(total, dfn)
            if col is None:
                return None
            value = (
                game.data.town_vp[game.data.towns[h].intrinsic_strength or 0].vp_on_seizure
                if h in game.data.towns
                else 1
            )
            idx = column_index(col)
            if idx >= column_index("3-1") or (idx >= column_index(TOWN_ODDS) and h in game.data.towns):
                return idx + value, f"{game.hex_name(h)} can be attacked at {col} (worth {value} VP)"

        return self.weigh(decision, "target", score, (0, "no attack at good enough odds"))

    def on_retreat(self, game: YotrGame, decision):
        enemy = game.occupied("Allied")
        scored = []
        for a in decision.options:
            h = a["to"]
            near = sum(1 for n in game.data.adj[h] if n in enemy)
            scored.append((-near, a, f"retreat to {h}, next to {near} Allied hexes"))
        return self.best(scored)

    @staticmethod
    def _p_out(game: YotrGame, col: str | None) -> float:
        """Chance that a result on the CRT puts the defender out of the hex at odds ``col`` (YOTR-CBT-CRT)."""
        if col is None:
            return 0.0
        return sum(1 for die in range(1, 7) if game.data.crt[(die, col)] in ("De", "Dr1", "Dr2")) / 6

    def _reveal_gain(self, game: YotrGame, sources: tuple[str, ...]) -> tuple[float, list[str]]:
        """Expected VP gained this Combat Phase if the real supply units at ``sources`` are revealed: for every
        Allied town next to Communist attackers, the better chance of taking it (YOTR-CBT-CRT) when the attackers
        within 8 hexes come into Attack Supply (x1 instead of x1/2 or x1/4, YOTR-SUP-CHART) times its worth."""
        targets = self._targets(game)
        rng = game.communist_range(tuple(sorted(set(sources) | set(game.attack_sources))))
        gain, towns = 0.0, []
        for h, worth in targets.items():
            if not game.is_target(h, "Communist"):
                continue
            atk = game.eligible_attackers("Communist", h, set())
            if not atk:
                continue
            now = sum((game.attack_strength(u) for u in atk), Fraction(0))
            then = sum(
                (game.attack_value(u) if game.loc[u] in rng else game.attack_strength(u) for u in atk),
                Fraction(0),
            )
            if then <= now:
                continue
            dfn, _ = game.defense_strength(h, atk)
            g = (self._p_out(game, odds_column(then, dfn)) - self._p_out(game, odds_column(now, dfn))) * worth
            if g > 0:
                gain += g
                towns.append(game.hex_name(h))
        return gain, towns

    def on_reveal_supply(self, game: YotrGame, decision):
        """YOTR-SUP-E: a real supply unit is spent only where Attack Supply turns an attack on a town into a
        likelier capture; on the last Game-Turn any gain will do, since unused units score nothing."""
        last = game.turn >= game.sequence.turns
        need = 0.01 if last else REVEAL_GAIN
        scored = [
            (need, self.first(decision, "done"), "no supply unit would raise the odds enough against a town")
        ]
        for a in decision.options:
            if a.kind != "reveal_supply":
                continue
            gain, towns = self._reveal_gain(game, (game.loc[a["unit"]],))
            if gain > need:
                scored.append(
                    (
                        gain,
                        a,
                        f"Attack Supply raises the expected capture of {', '.join(towns)} by {gain:.1f} VP",
                    )
                )
        return self.best(scored)

    def on_remove_dummy(self, game: YotrGame, decision):
        dist = self._dist(game)["dist"]
        scored = [
            (
                dist.get(game.loc[a["unit"]], 99),
                a,
                f"the dummy at {game.loc[a['unit']]} is the farthest from the fighting",
            )
            for a in decision.options
        ]
        return self.best(scored)

    def on_deploy(self, game: YotrGame, decision):
        """Free deployment: dummies wait for the third step; NVA mass near the richest Allied towns within
        reach of a Supply Center; NLF sit a short march from a town of their Region."""
        aside = self.first(decision, "set_aside")
        uid = decision.options[0]["unit"]
        if aside is not None and game.is_dummy(uid):
            self.last_reason = "dummies are placed last, once the Allied set-up is known"
            return aside
        dist = self._dist(game)["dist"]
        scs = list(game.data.supply_centers)
        scored = []
        for a in decision.options:
            if a.kind != "deploy":
                continue
            h = a["to"]
            near_sc = min(game.data.grid.distance(h, s) for s in scs)
            crowd = len(game.counters_at(h, "Communist"))
            score = (
                -dist.get(h, 99)
                - (5 if near_sc > 6 and game.counters[uid].nationality == "NVA" else 0)
                - crowd
            )
            scored.append(
                (
                    score,
                    a,
                    f"{h}: {dist.get(h, 99)} hexes from the nearest Allied town, {near_sc} from a "
                    f"Supply Center, {crowd} counters there already",
                )
            )
        return self.best(scored)

    def on_real_supply(self, game: YotrGame, decision):
        h = decision.options[0]["hex"]
        near = sum(
            1
            for u in game.on_map("Communist")
            if game.counters[u].nationality == "NVA"
            and game.is_combat(u)
            and game.data.grid.distance(game.loc[u], h) <= 8
        )
        act = decision.options[-1] if near >= 2 else decision.options[0]
        self.last_reason = f"{near} NVA units within 8 hexes of {h}: {act['real']} real supply unit(s) there"
        return act

    def on_air(self, game: YotrGame, decision):  # pragma: no cover - never offered to the Communist
        return decision.options[-1]

    on_bombard = on_air


class AlliedBot(_Bot):
    side = "Allied"

    def _defence(self, game: YotrGame, h: str, attackers: list[str]) -> Fraction:
        """The Allied bot's guess of a face-down hex's defence (D-62): counters not yet attacked this phase."""
        fresh = [u for u in game.counters_at(h, "Communist") if u not in game.defended]
        return Fraction(
            HIDDEN_GUESS * len(fresh) + game.communist_militia(h) + (2 if game.sc_intact(h) else 0)
        )

    def _threat(self, game: YotrGame):
        key = (game.turn, game.phase.id if game.phase else "")
        if self._maps.get("key") != key:
            comm = game.occupied("Communist")
            counts = {h: len(game.counters_at(h, "Communist")) for h in comm}
            threat = {}
            for h in game.data.towns:
                threat[h] = sum(counts.get(n, 0) for n in game.data.grid.within(h, 2))
            self._maps = {"key": key, "threat": threat, "counts": counts}
        return self._maps

    def on_move_unit(self, game: YotrGame, decision):
        """Garrisons stay; units in the open, surplus garrisons and (when a threatened town is thin) idle
        airmobile reserves move, ground units first."""
        d = game.data
        threat = self._threat(game)["threat"]
        thin = any(
            threat.get(h, 0) and len(game.counters_at(h, "Allied")) < 2
            for h in d.towns
            if game.town[h] != "nlf"
        )
        cands = []
        for a in decision.options:
            if a.kind != "move_unit":
                continue
            uid = a["unit"]
            h = game.loc[uid]
            if h not in d.towns or game.town[h] == "nlf":
                cands.append((0, a, f"{uid} stands in the open: move it to a town or the front"))
            elif len(game.counters_at(h, "Allied")) > 2:
                cands.append((1, a, f"{game.hex_name(h)} has more units than it needs: {uid} may go"))
            elif game.counters[uid].airmobile and thin and not threat.get(h, 0):
                cands.append(
                    (2, a, f"{uid} is an idle airmobile reserve and a threatened town is thinly held")
                )
        if not cands:
            self.last_reason = "every garrison is in place: end movement"
            return self.first(decision, "done")
        rank, act, why = min(cands, key=lambda c: c[0])
        self.last_reason = why
        return act

    def on_move_to(self, game: YotrGame, decision):
        m = self._threat(game)
        threat = m["threat"]
        d = game.data
        uid = decision.options[0]["unit"]
        here = game.loc[uid]
        near_nlf = {n for h, st in game.town.items() if st == "nlf" for n in d.adj[h]}
        stacks = _stack_sizes(game, "Allied")

        def judge(a, explain: bool) -> tuple[float, str]:
            p = a.params  # a destination's: (("to", hex), ("unit", uid)[, ("via", towns)]), keys in order
            h = p[0][1] if a.kind == "move_to" else here
            score = -1.0
            why = f"{h} is not a town worth holding" if explain else ""
            if h in d.towns and game.town[h] != "nlf":
                garrison = stacks.get(h, 0) - (1 if h == here else 0)
                value = d.town_vp[d.towns[h].intrinsic_strength or 0].vp_on_seizure
                score = value * (1 + threat.get(h, 0)) / (1 + 2 * garrison)
                why = (
                    (
                        f"hold {game.hex_name(h)} (worth {value} VP, {threat.get(h, 0)} Communist counters within "
                        f"2 hexes, {garrison} units there already)"
                    )
                    if explain
                    else ""
                )
            elif h in near_nlf:
                score = 3.0
                why = f"{h} is next to a town the Communist holds: ready to counter-attack" if explain else ""
            via = p[2][1] if len(p) > 2 and a.kind == "move_to" else None
            passed = [t for t in via.split("+") if t not in ("-", h)] if via else []
            if passed:  # D-67: retake Communist towns left without militia on the way (D-55)
                score += 5 * len(passed)
                why += (
                    f", retaking {', '.join(game.hex_name(t) for t in passed)} on the way" if explain else ""
                )
            if a.kind == "stay":
                score += 0.1
            return score, why

        return self.best_explained(decision.options, judge)

    def on_target(self, game: YotrGame, decision):
        d = game.data

        def score(a):
            h = a["hex"]
            atk = game.eligible_attackers("Allied", h, set())
            total = sum((game.attack_strength(u) for u in atk), Fraction(0))
            guess = (
                HIDDEN_GUESS * len(game.counters_at(h, "Communist"))
                + game.communist_militia(h)
                + (2 if game.sc_intact(h) else 0)
            )
            col = odds_column(total, Fraction(guess))
            if col is None:
                return None
            idx = column_index(col)
            town = h in d.towns and game.town[h] == "nlf"
            if idx >= column_index("3-1") or (town and idx >= column_index("2-1")):
                return idx + (5 if town else 0), (
                    f"{game.hex_name(h)} looks beatable at {col}" + (": retake the town" if town else "")
                )

        return self.weigh(decision, "target", score, (0, "no attack at good enough odds"))

    def on_retreat(self, game: YotrGame, decision):
        d = game.data
        scored = []
        for a in decision.options:
            h = a["to"]
            score = 5 if h in d.towns else 0
            scored.append((score, a, f"fall back to {game.hex_name(h)}"))
        return self.best(scored)

    def on_air(self, game: YotrGame, decision):
        naval = [a for a in decision.options if a.kind == "naval"]
        m = self._threat(game)
        counts = m["counts"]

        def value(h):
            return counts.get(h, 0) * game.bombardment_multiplier(h)

        if naval:
            best = max(naval, key=lambda a: (value(a["hex"]), a["hex"]))
            self.last_reason = f"the naval marker fires at the biggest coastal stack ({best['hex']})"
            return best
        air = [a for a in decision.options if a.kind == "air"]
        if not air:
            self.last_reason = "no air points left"
            return self.first(decision, "done")
        top = max(a["points"] for a in air)
        cands = [a for a in air if a["points"] == top]
        best = max(cands, key=lambda a: (value(a["hex"]), a["hex"]))
        self.last_reason = f"{top} air points on {best['hex']}: {counts.get(best['hex'], 0)} counters" + (
            " in the open (doubled)" if game.bombardment_multiplier(best["hex"]) == 2 else ""
        )
        return best

    on_bombard = on_air

    def on_deploy(self, game: YotrGame, decision):
        """Free deployment: each ARVN unit garrisons the town where it adds most (value, threat, garrison)."""
        d = game.data
        self._maps = {}
        threat = self._threat(game)["threat"]
        scored = []
        for a in decision.options:
            h = a["to"]
            if h not in d.towns:
                continue
            garrison = len(game.counters_at(h, "Allied"))
            value = d.town_vp[d.towns[h].intrinsic_strength or 0].vp_on_seizure
            score = value * (1 + threat.get(h, 0)) / (1 + 2 * garrison)
            scored.append(
                (score, a, f"garrison {game.hex_name(h)} (worth {value} VP, {garrison} units there)")
            )
        if not scored:
            self.last_reason = "no town is open: the first legal hex"
            return decision.options[0]
        return self.best(scored)

    def on_reveal_supply(self, game: YotrGame, decision):  # pragma: no cover - never offered to the Allies
        return decision.options[-1]

    on_remove_dummy = on_reveal_supply
