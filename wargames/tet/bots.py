"""Built-in players for Tet.  Each choice comes with a reason in plain words (``last_reason``).

The bots play plausibly, not randomly: the VC slip into weakly held cities of high political value, the
NVA close in from the sanctuaries, hidden units stay hidden unless they can win a fight; the Allies send
Recce where most units hide, fight the biggest battles first and mass fire for good odds.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ..core import Action, Bot, Decision
from .odds import COLUMNS, odds_column

if TYPE_CHECKING:  # pragma: no cover
    from .game import TetGame

GOOD = "3:1"


class _Bot(Bot):
    """The shared sense of both Tet sides on the core :class:`~wargames.core.players.Bot`: every Tet decision
    names its kind, answered by ``on_<kind>``; a decision with only its closing option left goes to the fallback."""

    fallback_reason = "the only sensible choice"
    weighs_options = {}  # each handler weighs the options of its own kind
    draw_on_single_best = True

    # ------------------------------------------------------------------ shared combat sense
    def _group_value(self, game: TetGame, area, units) -> Fraction:
        return sum((game._strength(u, area) for u in units), Fraction(0))

    def on_battle(self, game: TetGame, decision):
        scored = []
        for a in decision.options:
            area = a["area"]
            stake = sum(game.unit(u).cf for u in game.units_in(area))
            pv = game.data.areas[area].pv or 0
            scored.append(
                (
                    stake + 10 * pv,
                    a,
                    f"{game.area_name(area)} first: the most troops ({stake} factors) "
                    f"and political value {pv} at stake",
                )
            )
        return self.best(scored)

    def on_target(self, game: TetGame, decision):
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
                side = game.visibility_side(decision.side)
                ready = [u for u in game.units_in(area) if game.side_of(u) == side and game.can_fire(u)]
                ready_total = self._group_value(game, area, ready) + (
                    2 * game.data.areas[area].pv if side == "Communist" and area in game.insurrection else 0
                )
            col = odds_column(ready_total, game.defense_strength(t))
            if col is None:
                scored.append((0, a, "too strong to attack"))
                continue
            value = COLUMNS.index(col) + 1 + game.defense_strength(t) / 10
            scored.append(
                (
                    value,
                    a,
                    f"{game.describe(t, game.visibility_side(decision.side))} can be attacked at up to {col}",
                )
            )
        return self.best(scored)

    def on_add_firer(self, game: TetGame, decision):
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

    def on_replace(self, game: TetGame, decision):
        def score(a):
            u = game.unit(a["unit"])
            to = game.data.areas[a["to"]]
            near = sum(
                game.data.areas[c].pv
                for n in game.data.map.neighbours(to.id, ("land",))
                for c in game.data.cities_of.get(n, ())
            )
            value = u.cf + (to.pv or 0) * 2 + near / 10 + game.defense_strength(a["unit"]) / 100
            why = (
                f"bring back {u.name} (combat {u.cf}, defends at {game.defense_strength(a['unit'])}) to {to.name}, "
                "close to what matters; among equal units the stronger defender first"
            )
            return value, why

        return self.weigh(decision, "replace", score, (0, "nothing worth bringing back"))

    def on_air_return(self, game: TetGame, decision):
        scored = [
            (1 + bool(a.get("passenger")), a, "fly home, bringing a unit along when possible")
            for a in decision.options
        ]
        return self.best(scored)

    def on_retreat(self, game: TetGame, decision):
        scored = [
            (len(game.units_in(a["to"])), a, f"retreat to {a['to']}, where most friends are")
            for a in decision.options
        ]
        return self.best(scored)


class CommunistBot(_Bot):
    """NVA/VC: VC slip into weakly held cities of high political value (to raise insurrections);
    NVA close in from the sanctuaries toward the cities; hidden units reveal only to win a fight."""

    side = "Communist"

    def on_move(self, game: TetGame, decision: Decision) -> Action:
        guarded: dict[str, bool] = {}  # city -> Allied regulars there (asked once per city, not per move)

        def score(a):
            uid, to = a["unit"], a["to"]
            u = game.unit(uid)
            area = game.data.areas[to]
            frm = game.data.areas[game.loc[uid]]
            if area.kind == "city":
                if to not in guarded:
                    guarded[to] = any(game.unit(x).type != "ruff_puff" for x in game.allied_in(to))
                if u.faction == "VC" and not guarded[to]:
                    return 10 * area.pv, (
                        f"{u.name} infiltrates {area.name}: political value {area.pv}, "
                        "held only by militia, a chance to raise an insurrection"
                    )
                else:
                    return -1, "a city with Allied regulars: stay hidden"
            elif (
                u.faction == "NVA"
                and frm.kind == "sanctuary"
                and area.kind == "province"
                and area.country == "SVN"
            ):
                pv = sum(game.data.areas[c].pv for c in game.data.cities_of.get(to, ()))
                return 1 + pv / 4, (
                    f"{u.name} leaves its sanctuary for {area.name}, near cities worth {pv} political points"
                )
            else:
                return 0, "no gain in moving"

        return self.weigh(
            decision, "move", score, (0.5, "nothing else is worth the risk of showing itself: end the phase")
        )

    def on_setup(self, game: TetGame, decision: Decision) -> Action:
        """TET-SETUP-3 .. 5 (decision D-23): set each unit up where the historical reconstruction has it (the
        1968 deployment, decision D-05); any other legal area only if that one were not offered."""
        uid = decision.context["unit"]
        start = game.unit(uid).start
        act = next((a for a in decision.options if a.kind == "setup" and a["to"] == start), None)
        if act is not None:
            self.last_reason = (
                f"{game.area_name(start)}, where the 1968 deployment had it (decision D-05): close "
                "to the cities it will strike on the first night"
            )
            return act
        self.last_reason = "its historical area is not open to it: the first area the rules allow"
        return next(a for a in decision.options if a.kind == "setup")

    def on_reveal(self, game: TetGame, decision):
        """Reveal only where the hidden force could fire at 3:1 on the weakest Allied unit."""

        def score(a):
            area = game.loc[a["unit"]]
            ours = sum(game.unit(u).cf for u in game.communists_in(area))
            theirs = [game.defense_strength(u) for u in game.allied_in(area) if game.can_be_target(u)]
            col = odds_column(ours, min(theirs)) if theirs else None
            if col and COLUMNS.index(col) >= COLUMNS.index(GOOD):
                return 1 + COLUMNS.index(col), (
                    f"{ours} factors here against a weakest defender of {min(theirs)}: {col} is worth a fight"
                )
            else:
                return 0, "too weak here to fight"

        return self.weigh(
            decision, "reveal", score, (0.5, "stay hidden: no fight worth showing ourselves for")
        )


class AlliedBot(_Bot):
    """Allies: send each Recce where the most hidden units are; fly strikes and lift troops to where the enemy
    shows itself; relieve risen cities; keep the cities garrisoned; fight the biggest battles first."""

    side = "Allied"

    def _needs(self, game: TetGame) -> dict[str, tuple[float, str]]:
        """Where Allied units are wanted, worked out once per decision: area -> (value, why)."""
        needs: dict[str, tuple[float, str]] = {}
        for area, units in game.loc.index.items():
            if area is None or game.data.areas[area].kind == "box":
                continue
            enemy = sum(
                game.unit(u).cf for u in units if game.unit(u).faction in ("NVA", "VC") and game.face_up[u]
            )
            a = game.data.areas[area]
            pv = a.pv or 0
            if area in game.insurrection or (a.kind == "city" and enemy):
                needs[area] = (
                    3 * pv + enemy / 4,
                    f"relieve {a.name} (political value {pv}, {enemy} enemy factors)",
                )
            elif enemy:
                needs[area] = (enemy / 4, f"engage {enemy} enemy factors in view at {a.name}")
            hidden = sum(1 for u in units if game.unit(u).faction in ("NVA", "VC") and not game.face_up[u])
            if hidden and a.kind in ("province", "sanctuary") and area not in needs:
                needs[area] = (
                    hidden / 2,
                    f"{hidden} hidden NVA/VC counter(s) at {a.name}: go and search there",
                )
        for city in game.insurrection:
            if city not in needs:
                pv = game.data.areas[city].pv
                needs[city] = (3 * pv, f"relieve {game.data.areas[city].name} (political value {pv})")
        return needs

    def _score_move(self, game: TetGame, a: Action, needs, memo: dict | None = None) -> tuple[float, str]:
        """How useful a move is, and why.  ``memo`` (one per plan, while no unit moves) keeps what depends only
        on the destination (an air strike's worth) or on the area left (a city left empty)."""
        memo = {} if memo is None else memo
        uid, to = a["unit"], a["to"]
        u = game.unit(uid)
        if u.type in ("tac_air", "arc_light"):
            key = ("air", to)
            if key not in memo:
                memo[key] = self._air_value(game, to)
            return memo[key]
        value, why = needs.get(to, (-1.0, "no reason to move"))
        mover = a.get("passenger") or uid
        if game.unit(mover).type in ("heli", "tac_air", "arc_light"):
            return -1.0, "no passenger to carry"
        src = game.loc[mover]
        if value > 0:
            key = ("left", src)
            if key not in memo:
                memo[key] = game.data.areas[src].kind == "city" and len(game.allied_ground_in(src)) <= 1
            if memo[key]:
                value -= 2 * (game.data.areas[src].pv or 0)  # do not leave a city empty
        return value, why

    def _air_value(self, game: TetGame, to: str) -> tuple[float, str]:
        """An air strike on ``to``: the NVA/VC factors in view there (or the hidden ones our search may turn up),
        less half the political value of a city bombed (TET-P6-4)."""
        dest = game.data.areas[to]
        enemy = sum(game.unit(x).cf for x in game.communists_in(to) if game.face_up[x])
        value, why = enemy / 3, f"strike {enemy} factors of NVA/VC in view at {dest.name}"
        hidden = len(game.hidden_communists(to)) if dest.kind in ("province", "sanctuary") else 0
        if not enemy and hidden and game.allied_ground_in(to):  # TET-P4-6: fly where the search will be
            value, why = (
                hidden / 4,
                (
                    f"{hidden} hidden NVA/VC counter(s) at {dest.name}, where our ground "
                    "units search in phase 5: strike whatever they turn face up"
                ),
            )
        if dest.kind == "city":
            value -= (dest.pv or 0) / 2  # bombing cities costs political value (TET-P6-4)
        return value, why

    def _plan(self, game: TetGame, decision):
        """Once per phase: the best move of every unit that can help, the most useful first."""
        needs = self._needs(game)
        options_for = game.phase7_options if game.phase.id == "p7" else game.phase4_options
        plan, sent = [], {}
        best = []
        memo: dict = {}
        for pick in decision.options:
            if pick.kind != "select":
                continue
            scored = [(*self._score_move(game, m, needs, memo), m) for m in options_for(pick["unit"])]
            if scored:  # the best value; among equals the greatest destination id (the max of (value, to))
                top = max(x[0] for x in scored)
                value, why, move = max((x for x in scored if x[0] == top), key=lambda x: x[2]["to"])
                if value > 0:
                    best.append((value, pick["unit"], move, why))
        for _value, uid, move, why in sorted(best, key=lambda x: (-x[0], x[1])):
            if sent.get(move["to"], 0) < 3:  # three units per trouble spot
                sent[move["to"]] = sent.get(move["to"], 0) + 1
                plan.append((uid, move, why))
        return plan

    def on_select(self, game: TetGame, decision):
        key = (game.turn, game.phase.id)
        if getattr(self, "_plan_key", None) != key:
            self._plan_key, self._plan_moves = key, self._plan(game, decision)
        units = {a["unit"]: a for a in decision.options if a.kind == "select"}
        while self._plan_moves:
            uid, move, why = self._plan_moves[0]
            if uid in units:
                self._next_move = move
                self.last_reason = why
                return units[uid]
            self._plan_moves.pop(0)
        end = next((a for a in decision.options if a.kind == "end_allied_move"), None)
        if end is None:  # TET-P4-2: a unit outside its Corps must go home before the phase may end
            phase = 7 if game.phase.id == "p7" else 4
            owed = next(
                a for a in decision.options if a.kind == "select" and game.must_return(a["unit"], phase)
            )
            self.last_reason = f"{game.unit(owed['unit']).name} must return to its own Corps (TET-P4-2)"
            return owed
        self.last_reason = "every unit is where it is needed: end the phase"
        return end

    def on_allied_move(self, game: TetGame, decision):
        planned = getattr(self, "_next_move", None)
        # a bot that did not pick the unit itself (the Advisor asked only for the destination) has no plan yet
        if getattr(self, "_plan_moves", None) and planned is not None and decision.find(planned) is not None:
            self._plan_moves.pop(0)
            self._next_move = None
            return decision.find(planned)
        needs = self._needs(game)
        uid = decision.options[0].get("unit")
        compelled = uid is not None and game.must_return(uid, 7 if game.phase.id == "p7" else 4)  # TET-P4-2
        scored = [
            (*self._score_move(game, a, needs), a) if a.kind == "allied_move" else (0.0, "go back", a)
            for a in decision.options
            if a.kind == "allied_move" or not compelled
        ]
        if compelled:
            scored = [
                (v, f"{why}; in any case it must return to its own Corps (TET-P4-2)", a)
                for v, why, a in scored
            ]
        value, self.last_reason, action = max(scored, key=lambda x: x[0])
        return action

    def on_air_target(self, game: TetGame, decision):
        """Strike where the odds are best; a Tac Air may open a group the next Tac Air must complete to 1:2
        (the engine offers only strikes that can reach 1:2: TET-P2-8 with TET-P6-2)."""
        plan = decision.context.get("plan", [])

        def score(a):
            t, p = a["target"], a["plane"]
            joined = sum(
                game.unit(q).cf
                for q, tt in plan
                if tt == t and game.unit(q).type == "tac_air" and game.unit(p).type == "tac_air"
            )
            col = odds_column(game.unit(p).cf + joined, game.defense_strength(t))
            if col is None:
                return game.defense_strength(t) * 0.5, (
                    f"strike {game.describe(t)} together with the Tac Air still to come, to reach 1:2"
                )
            value = game.defense_strength(t) * (COLUMNS.index(col) + 1)
            return value, f"strike {game.describe(t)}: {col}"

        return self.weigh(decision, "air_target", score, (0, "no target worth the strike"))

    def on_recce(self, game: TetGame, decision: Decision) -> Action:
        scored = []
        for a in decision.options:
            if a.kind == "recce":
                n = len(game.hidden_communists(a["area"]))
                scored.append(
                    (n, a, f"{a['area']} hides {n} unit(s), the most of any province open to this team")
                )
            else:
                scored.append((0, a, "no hidden units worth a Recce"))
        return self.best(scored)
