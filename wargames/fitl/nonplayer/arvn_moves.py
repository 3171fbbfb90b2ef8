"""Fire in the Lake: the Non-player ARVN's moves (FITL-8.7.3 Patrol, FITL-8.7.5 Sweep, Transport and Raid): what
moves, from where and to where; a mixin of :class:`~wargames.fitl.nonplayer.arvn.ArvnNonPlayer`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.actions import Action, Decision
from .measures import control_after, saigon_distance

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame


class ArvnMoves:
    """Mixin: the Non-player ARVN's Patrol, Sweep, Transport and Raid moves (FITL-8.7)."""

    # ------------------------------------------------------------------ Transport (8.7.2)
    def transport_origin(self, game: FitlGame) -> str | None:
        b = game.board
        lc = [
            s
            for s in self.spaces(game)
            if game.in_laos_cambodia(s)
            and b.pieces[s]["arvn_troops"] + b.pieces[s]["arvn_rangers:u"] + b.pieces[s]["arvn_rangers:a"]
        ]
        if lc:
            return lc[0]
        best = None
        for s in self.spaces(game):
            t = b.pieces[s]["arvn_troops"]
            if not t or not self.svn(game, s):
                continue
            spare = t
            if b.control(s) == "coin":
                spare = min(t, self.coin(game, s) - self.insurgents(game, s) - 1)
            if spare > 0 and (best is None or spare > best[0]):
                best = (spare, s)
        return best[1] if best else None

    def on_move_to(self, game: FitlGame, decision: Decision) -> Action:
        c = decision.context
        b = game.board
        opts = self.opts(decision, "move_to")
        if c.get("sa") == "transport":
            if self.memo().get("transported"):
                return self.first(decision, "done") or opts[0]
            moving = self.movement_count(game, decision) or 6
            if c.get("op") == "assault":  # 8.7.2 TRANSPORT: enable the highest priority Assault
                gains = [
                    (g, a)
                    for a in opts
                    if a.kind == "move_to" and (g := self.assault_gain(game, a["space"], moving)) is not None
                ]
                if gains:
                    a = max(gains, key=lambda x: x[0])[1]
                    self.memo()["transported"] = True
                    self.why(
                        "8.7.2", f"Transport to {game.sname(a['space'])}: enables the best Assault (8.7.4)"
                    )
                    return a
            if c.get("op") == "sweep":  # into a Sweep space, to Activate more Underground Guerrillas
                ug = [
                    a
                    for a in opts
                    if a.kind == "move_to"
                    and game.is_pc(a["space"])
                    and b.pieces[a["space"]]["nva_guerrillas:u"] + b.pieces[a["space"]]["vc_guerrillas:u"]
                ]
                if ug:
                    a = self.pick(
                        game,
                        ug,
                        lambda a: (
                            b.pieces[a["space"]]["nva_guerrillas:u"] + b.pieces[a["space"]]["vc_guerrillas:u"]
                        ),
                    )
                    self.memo()["transported"] = True
                    self.why(
                        "8.7.2",
                        f"Transport to {game.sname(a['space'])}: to Activate the most Underground "
                        "Guerrillas in the Sweep",
                    )
                    return a
            police = [
                a
                for a in opts
                if game.kind(a["space"]) == "province"
                and b.pieces[a["space"]]["arvn_police"]
                and not b.pieces[a["space"]]["arvn_troops"]
                and not b.pieces[a["space"]]["us_troops"]
            ]
            pool = police or [a for a in opts if game.is_pc(a["space"])] or opts
            a = self.pick(game, pool, lambda a: self.pop(game, a["space"]))
            self.memo()["transported"] = True
            self.why(
                "8.7.2", f"Transport to {a.label}: a Province with Police but no Troops, highest Population"
            )
            return a
        if c.get("op") == "patrol":
            want = self.memo().get("patrol")
            for a in opts:
                if want and a["space"] == want[0]:
                    self.why("8.7.3", f"Patrol to {game.sname(a['space'])} (planned)")
                    return a
        return None  # type: ignore[return-value]

    def movement_count(self, game: FitlGame, decision: Decision) -> int | None:
        c = decision.context
        if c.get("sa") == "transport":
            s = c.get("origin") or self.transport_origin(game)
            if s in game.data.spaces and game.board.control(s) == "coin":
                return max(1, min(6, self.coin(game, s) - self.insurgents(game, s) - 1))
            return 6
        if c.get("op") == "patrol" and self.memo().get("patrol") and not c.get("sa"):
            return self.memo()["patrol"][1]
        if c.get("op") == "sweep" and self.memo().get("sweep_n") and not c.get("sa"):
            return self.memo()["sweep_n"]
        return None

    # ------------------------------------------------------------------ Patrol (8.7.3)
    def patrol_targets(self, game: FitlGame) -> list[tuple[str, int, str]]:
        b = game.board
        dist = saigon_distance(game)
        out = []
        locs = [
            s
            for s in self.spaces(game)
            if game.is_loc(s) and b.count(s, "NVA", "guerrillas") + b.count(s, "VC", "guerrillas")
        ]
        locs.sort(
            key=lambda s: (
                dist.get(s, 99),
                -(b.pieces[s]["nva_guerrillas:u"] + b.pieces[s]["vc_guerrillas:u"]),
            )
        )
        for s in locs:
            need = max(3, 2 * self.insurgents(game, s)) - self.cubes(game, s)
            if need > 0:
                out.append((s, need, "cubes onto a LoC with Guerrillas, nearest Saigon first"))
        cities = sorted((s for s in self.spaces(game) if game.is_city(s)), key=lambda s: -self.pop(game, s))
        for s in cities:
            need = max(3 - self.coin_cubes_sf(game, s), self.insurgents(game, s) + 1 - self.coin(game, s))
            missing = self.city_missing_cube(game, s)
            if b.control(s) != "coin" or need > 0 or missing:
                out.append(
                    (
                        s,
                        max(1, need),
                        "cubes to hold the Cities under COIN Control"
                        + (
                            f" with at least 1 Troop and 1 Police (a {missing} is missing)" if missing else ""
                        ),
                    )
                )
        return out

    def city_missing_cube(self, game: FitlGame, s: str) -> str:
        """FITL-8.7.3 third bullet: a City under COIN Control should hold at least 1 Troop (US or ARVN) and 1
        Police; the kind it lacks ("Troop" or "Police"), or ""."""
        p = game.board.pieces[s]
        if not p["arvn_troops"] + p["us_troops"]:
            return "Troop"
        if not p["arvn_police"]:
            return "Police"
        return ""

    def patrol_spare(self, game: FitlGame, s: str, key: str, to_loc: bool) -> int:
        b = game.board
        p = b.pieces[s]
        n = p[key]
        if game.is_city(s) and to_loc:
            return n
        if game.is_loc(s):
            return 0 if self.insurgents(game, s) else n
        keep = max(1, 3 - (self.coin_cubes_sf(game, s) - n))
        if b.control(s) == "coin":
            keep = max(keep, self.insurgents(game, s) + 1 - (self.coin(game, s) - n))
        return max(0, n - keep)

    def _patrol_source(
        self, game: FitlGame, opts: list[Action], dest: str, done_t: list[str]
    ) -> tuple[tuple[int, int], Action] | None:
        """8.7.3: the cubes to send to the Patrol target ``dest``: Police when possible, then Troops (the kind a City
        lacks first), within that from the space with the most that can go; with its sort key (kind, spare)."""
        best = None
        lacks = self.city_missing_cube(game, dest) if game.is_city(dest) else ""
        first = "arvn_troops" if lacks == "Troop" else "arvn_police"
        for a in sorted(opts, key=lambda a: 0 if a["key"] == first else 1):
            s = a["space"]
            if s in done_t or dest not in game.patrol_reach(s):
                continue
            spare = self.patrol_spare(game, s, a["key"], game.is_loc(dest))
            k = (1 if a["key"] == first else 0, spare)
            if spare > 0 and (best is None or k > best[0]):
                best = (k, a)
        return best

    def on_move_from(self, game: FitlGame, decision: Decision) -> Action:
        c = decision.context
        if c.get("op") != "patrol" or c.get("sa"):
            if c.get("sa") == "raid":
                return self.raid_from(game, decision)
            return None  # type: ignore[return-value]
        m = self.memo()
        done_t = m.setdefault("targets_done", [])
        opts = self.opts(decision, "move_from")
        for dest, need, why in self.patrol_targets(game):
            if dest in done_t or (m.get("only") and dest != m["only"]):
                continue
            best = self._patrol_source(game, opts, dest, done_t)
            if best:
                spare = best[0][1]
                m["patrol"] = (dest, min(need, spare))
                if decision.context.get("limited"):
                    m["only"] = dest  # FITL-2.3.5: a Limited Patrol has a single destination
                if spare >= need:
                    done_t.append(dest)
                self.why("8.7.3", f"{best[1].label} to {game.sname(dest)}: {why} (Police first)")
                return best[1]
            done_t.append(dest)
        self.why("8.7.3", "Patrol: no further move meets a priority")
        return self.first(decision, "done") or decision.options[0]

    def raid_from(self, game: FitlGame, decision: Decision) -> Action:
        b = game.board
        for a in self.opts(decision, "move_from"):
            s = a["space"]
            if self.memo().get(f"raid_in:{decision.context.get('space')}"):
                break
            if control_after(game, s, -1) == b.control(s):
                self.memo()[f"raid_in:{decision.context.get('space')}"] = True
                self.why("8.7.4", f"Raid: move in 1 Ranger from {game.sname(s)} (its COIN Control stays)")
                return a
        self.why("8.7.4", "Raid: no more Rangers move in")
        return self.first(decision, "done") or decision.options[-1]

    def on_move(self, game: FitlGame, decision: Decision) -> Action:
        c = decision.context
        b = game.board
        if decision.rule_id == "FITL-6.4.2" and "Police" in decision.prompt and self.memo().get("police"):
            dest, k = self.memo().pop("police")
            opts = [a for a in decision.options if a.get("dest") == dest] or decision.options
            a = min(opts, key=lambda a: (a.get("n", 1) > k, abs(a.get("n", 1) - k)))
            self.why("8.7.7", f"{a.label}: the Police the priority needs ({k})")
            return a
        if decision.rule_id == "FITL-6.4.2":
            return self.redeploy_to(game, decision)
        if c.get("op") != "sweep":
            return None  # type: ignore[return-value]
        best = None
        for a in self.opts(decision, "move"):
            s, d = a["origin"], a["space"]
            p = b.pieces[d]
            ug = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
            cap = game.sweep_activations("ARVN", d)[1]
            need = ug - cap
            if game.terrain(d) == "jungle":
                need *= 2
            spare = self.patrol_spare(game, s, "arvn_troops", False)
            if need > 0 and spare > 0:
                k = (min(need, spare), self.pop(game, d))
                if best is None or k > best[0]:
                    best = (k, a, min(need, spare))
        return self.sweep_move(
            decision, best, "sweep_n", "8.7.5", "to Activate the most Underground Guerrillas"
        )
