"""Built-in players for Vietnam: Rumor of War (both sides), simple, fast and explained (``last_reason``).

The bot reads the decision's rule and kind and the map through the game object:

* missions (ROW-9.5): the Capitalist hunts (Search and Destroy), the Communist infiltrates (cheap, LoC through
  ZoCs), each falling back on what it can pay;
* HQs (ROW-9.2): it activates the fresh HQ with most of its own fresh units nearby, and stops when none is left;
* units (ROW-4.5): the fresh units nearest the enemy first, up to 4;
* movement (ROW-4.5, 4.7, 4.8): a unit standing on a hex its side scores for stays; otherwise it goes next to the
  weakest enemy it can reach, or as near the enemy (the Communist: Capitalist-held towns and the lowlands) as it can;
* combat (ROW-4.6, 5.0): it attacks an adjacent hex holding one enemy unit no bigger than itself (a Hasty attack),
  uses all its support, absorbs losses with loss points, then retreats, then eliminations; advances after a win;
* reserves (ROW-4.7): when the enemy has declared a combat within 6 hexes of a fresh HQ it moves reserves to the
  threatened hex.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Action, Bot, Decision
from .air import AIR_KINDS, air_choice
from .politics import bot_choice as specials_choice

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame

SIZE_RANK = {"A": 3, "B": 2, "C": 1}
MISSION_PREFS = {"Capitalist": ("search_and_destroy", "hearts_and_minds", "vietnamization", "offensive"),
                 "Communist": ("infiltrate", "recruit", "evade", "offensive", "general_uprising")}
PASS_KINDS = ("end_activations", "done_activating", "no_combat", "no_reserve", "done_reserve", "stay", "hq_stays",
              "done_refresh", "keep_all", "no_advance", "pass_reroll", "return_snafu")


class RowBot(Bot):
    """A rule-following player for one side of Rumor of War that says why it chose (``last_reason``)."""

    def __init__(self, side: str, seed: int = 0):
        super().__init__(seed, rng_key=f"row-bot:{side}:{seed}")
        self.side = side
        self._dists: dict[tuple[str, str], int] = {}  # hex distances already measured (a speed-up only)

    def __repr__(self) -> str:
        return f"RowBot({self.side})"

    # ------------------------------------------------------------------ helpers
    def _enemy_hexes(self, game: RowGame, side: str) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for u, h in game.pos.items():
            if game.side_of(u) != side and game.rows[u].kind == "unit":
                out.setdefault(h, []).append(u)
        return out

    def _targets(self, game: RowGame, side: str) -> list[str]:
        """Where this side wants to be: the enemy's units, and for the Communist the award hexes too."""
        tg = list(self._enemy_hexes(game, side))
        for aw in game.scenario.victory.awards:
            if aw.side == side and aw.hexes and side == "Communist":
                tg += aw.hexes
        return tg or list(game.start_hex.values())[:1]

    def _hold(self, game: RowGame, side: str) -> set[str]:
        """Hexes this side scores for by holding or clearing them (scenario awards)."""
        out: set[str] = set()
        for aw in game.scenario.victory.awards:
            if aw.side == side:
                out |= set(aw.hexes)
        return out

    def _dist(self, game: RowGame, h: str, targets: list[str]) -> int:
        memo = self._dists
        if len(memo) > 200_000:
            memo.clear()
        best = 99
        for t in targets:
            d = memo.get((h, t))
            if d is None:
                d = memo[(h, t)] = game.map.distance(h, t)
            if d < best:
                best = d
        return best

    def _pick(self, options: list[Action], kind: str) -> Action | None:
        return next((a for a in options if a.kind == kind), None)

    def _choose_move(self, game: RowGame, d: Decision) -> Action:
        uid = d.context.get("unit")
        side = d.side
        here = game.pos.get(uid, "")
        stay = self._pick(d.options, "stay") or d.options[-1]
        if game.rows[uid].kind == "unit" and here in self._hold(game, side) and side == "Capitalist" \
                and not game.rows[uid].has("created"):
            self.last_reason = f"{uid} holds {here}, a hex its side scores for"
            return stay
        enemy = self._enemy_hexes(game, side)
        size = SIZE_RANK.get(game.rows[uid].size_class or "C", 1)
        weak = [h for h, us in enemy.items() if len(us) == 1 and SIZE_RANK.get(game.rows[us[0]].size_class or "C", 1)
                <= size]
        targets = weak or self._targets(game, side)
        best, best_key = stay, (self._dist(game, here, targets) if here else 99, 0)
        for a in d.options:
            if a.kind != "move":
                continue
            key = (self._dist(game, a["to"], targets), 0 if a.get("one_hex_minimum") is False else 1)
            if a["to"] in enemy:
                continue
            if key < best_key:
                best, best_key = a, key
        if best_key[0] > 1 and weak:
            fly = [a for a in d.options if a.kind in ("fly", "amphibious") and self._dist(game, a["to"], weak) == 1]
            if fly:
                a = min(fly, key=lambda a: (a.get("cost", 0), a["to"]))  # a landing from the sea costs nothing
                how = "flies" if a.kind == "fly" else "lands from the sea"
                self.last_reason = f"{uid} {how} to {a['to']}, next to a weak enemy no land move reaches"
                return a
        if best.kind == "move":
            self.last_reason = f"{uid} moves to {best['to']}, {best_key[0]} hex(es) from its nearest target"
        else:
            self.last_reason = f"{uid} stays: no move brings it nearer its targets"
        return best

    # ------------------------------------------------------------------ the protocol
    def choose(self, game: RowGame, d: Decision) -> Action:
        opts = d.options
        kinds = {a.kind for a in opts}
        side = d.side
        air = air_choice(game, d) if kinds & AIR_KINDS else None  # ROW-10.0, ROW-11.1 (air.py)
        if air is not None:
            self.last_reason = air[1]
            return air[0]
        special = specials_choice(game, d)  # 12.2, 14.x special rules (politics.py, trail.py, sow.py)
        if special is not None:
            self.last_reason = special[1]
            return special[0]
        if "declare_mission" in kinds:
            for name in MISSION_PREFS[side]:
                a = next((o for o in opts if o["mission"] == name), None)
                if a is not None:
                    self.last_reason = f"{side} declares {name.replace('_', ' ')} (its first affordable preference)"
                    return a
            self.last_reason = "the only missions it can pay"
            return opts[-1]
        if "activate_hq" in kinds:
            # fresh units within 4 hexes of the HQ; on the whole map, where HQs sit in their Corps capitals, a
            # second look reaches 8 hexes (about the 10-MP command range, 4.5) before the activations end
            for radius in (4, 8):
                best, score = None, 0
                for a in opts:
                    if a.kind != "activate_hq":
                        continue
                    hq_hex = game.pos[a["hq"]]
                    n = sum(1 for u, h in game.pos.items() if game.side_of(u) == side and game.rows[u].kind == "unit"
                            and game.fresh[u] and game.map.distance(h, hq_hex) <= radius)
                    if n > score:
                        best, score = a, n
                if best is not None:
                    self.last_reason = f"activates {best['hq']}: {score} fresh units of its side within {radius} hexes"
                    return best
            self.last_reason = "no fresh HQ has fresh units near it: the activations end"
            return self._pick(opts, "end_activations") or opts[-1]
        if "activate_unit" in kinds or "reserve_unit" in kinds:
            k = "activate_unit" if "activate_unit" in kinds else "reserve_unit"
            targets = self._targets(game, side)
            if k == "reserve_unit" and game.act is not None and game.act.declared:
                targets = [h for h, _ in game.act.declared.values()]
            cands = sorted((a for a in opts if a.kind == k and game.rows[a["unit"]].unit_type != "cadre"), key=lambda a: (self._dist(game, game.pos[a["unit"]],
                                                                                         targets), a["unit"]))
            if cands and self._dist(game, game.pos[cands[0]["unit"]], targets) <= 8:
                self.last_reason = f"{cands[0]['unit']} is the fresh unit nearest the enemy or the threatened hex"
                return cands[0]
            self.last_reason = "no other fresh unit is near enough to matter"
            return opts[-1]
        if "reserve_hq" in kinds:
            declared = [h for h, _ in game.act.declared.values()] if game.act is not None else []
            for a in opts:
                if a.kind == "reserve_hq" and declared and self._dist(game, game.pos[a["hq"]], declared) <= 6:
                    self.last_reason = f"the enemy attacks within 6 hexes of {a['hq']}: reserves move up"
                    return a
            self.last_reason = "no enemy attack threatens its HQs: no reserve move"
            return self._pick(opts, "no_reserve") or opts[-1]
        if "move" in kinds or "stay" in kinds:
            if d.rule_id == "ROW-4.8" and d.context.get("unit") and "Early" in d.prompt:
                self.last_reason = "early exploitation: it keeps its position"
                return self._pick(opts, "stay") or opts[-1]
            if "hq_stays" in kinds:
                pass
            else:
                return self._choose_move(game, d)
        if "hq_stays" in kinds:
            ref = self._pick(opts, "refresh_hq")
            pool = game.pools["Capitalist Supply" if side == "Capitalist" else "Communist Supply"]
            if ref is not None and pool >= 4:
                self.last_reason = f"re-freshens its HQ ({pool} supply in the pool) to activate again"
                return ref
            self.last_reason = "the HQ stays with its units"
            return self._pick(opts, "hq_stays")
        if "declare_combat" in kinds:
            uid = d.context.get("unit")
            if game.rows[uid].unit_type == "cadre":
                self.last_reason = f"{uid} is a cadre: it recruits and supplies, it does not attack"
                return self._pick(opts, "no_combat") or opts[-1]
            size = SIZE_RANK.get(game.rows[uid].size_class or "C", 1)
            enemy = self._enemy_hexes(game, side)
            for ct in ("hasty", "prepared", "deliberate"):
                for a in opts:
                    if a.kind == "declare_combat" and a["combat_type"] == ct:
                        us = enemy.get(a["hex"], [])
                        if len(us) == 1 and SIZE_RANK.get(game.rows[us[0]].size_class or "C", 1) <= size:
                            self.last_reason = (f"{uid} attacks {a['hex']}: one enemy unit, no bigger than itself "
                                                f"({ct.replace('_', ' ')})")
                            return a
            self.last_reason = "no adjacent enemy is weak enough to attack"
            return self._pick(opts, "no_combat") or opts[-1]
        if "refresh_hq" in kinds:
            pool = game.pools["Capitalist Supply" if side == "Capitalist" else "Communist Supply"]
            a = self._pick(opts, "refresh_hq")
            if pool - a["amount"] >= 4:
                self.last_reason = f"{pool} supply: a spent HQ is flipped fresh, enough is kept for the mission"
                return self._pick(opts, "refresh_hq")
            self.last_reason = "supply is short: HQs stay spent"
            return opts[-1]
        if "place_objective" in kinds:
            own = [h for u, h in game.pos.items() if game.side_of(u) == side and game.rows[u].kind == "unit"]
            enemy = list(self._enemy_hexes(game, side))
            a = min(opts, key=lambda a: (self._dist(game, a["hex"], own) - self._dist(game, a["hex"], enemy),
                                         a["hex"]))
            self.last_reason = f"the objective goes on {a['hex']}, near its own units and away from the enemy's"
            return a
        if "claim_objective" in kinds:
            self.last_reason = "an unfought objective in a hex it controls is claimed"
            return self._pick(opts, "claim_objective")
        if "buy" in kinds:
            pool = game.pools["Capitalist Supply" if side == "Capitalist" else "Communist Supply"]
            for item in ("remove_out", "remove_shortage", "bunker_to_fortification"):
                for a in opts:
                    if a.kind == "buy" and a["item"] == item and (a["pool"] != "capitalist" and a["pool"] !=
                                                                  "communist" or pool - a["amount"] >= 4):
                        self.last_reason = f"{a.label}: worth it, and enough supply stays for the mission"
                        return a
            self.last_reason = "supply is kept for the mission and the HQs"
            return self._pick(opts, "done_spending")
        if "fire_base" in kinds:
            self.last_reason = "helicopter points are kept for flights"
            return self._pick(opts, "no_fire_base")
        if "return_hq" in kinds:
            own = [h for u, h in game.pos.items() if game.side_of(u) == side and game.rows[u].kind == "unit"]
            a = min(opts, key=lambda o: (self._dist(game, o["hex"], own), o["hex"]))
            self.last_reason = f"the HQ returns at {a['hex']}, the source nearest its units"
            return a
        if "move_next" in kinds:
            targets = self._targets(game, side)
            a = min(opts, key=lambda o: (self._dist(game, game.pos[o["unit"]], targets), o["unit"]))
            self.last_reason = f"{a['unit']} is nearest the enemy: it moves first"
            return a
        if "recruit_at" in kinds:
            self.last_reason = f"the recruit stays with its cadre at {opts[0]['hex']}"
            return opts[0]  # the cadre's own hex comes first
        if "create_unit" in kinds:
            a = self._pick(opts, "create_unit")
            parent = a["parent"]
            if game.rows[parent].unit_type == "cadre" or game.pos.get(parent) in self._hold(game, side):
                self.last_reason = (f"{parent} holds its ground (a base or a hex its side scores for) and sends "
                                    f"{a['unit']} out instead")
                return a
            self.last_reason = f"{parent} moves and fights itself"
            return self._pick(opts, "activate_normally")
        if "defence_leader" in kinds:
            a = min(opts, key=lambda o: (game.rows[o["leader"]].leader_value or 0, o["leader"]))
            self.last_reason = f"the weakest enemy commander, {a['leader']}, counts for the defence"
            return a
        if "replace_unit" in kinds:
            pool = game.pools[f"{side} Replacements"]
            if pool >= 2:
                a = max((o for o in opts if o.kind == "replace_unit"),
                        key=lambda o: (SIZE_RANK.get(game.rows[o["unit"]].size_class or "C", 1), o["unit"]))
                self.last_reason = f"{a['unit']} is the biggest unit it can bring back; one point stays for losses"
                return a
            self.last_reason = "the last replacement point is kept to absorb combat losses"
            return self._pick(opts, "no_replacement")
        if "destroy_unit" in kinds:
            a = min(opts, key=lambda o: (SIZE_RANK.get(game.rows[o["unit"]].size_class or "C", 1), o["unit"]))
            self.last_reason = f"{a['unit']} is the smallest unit that may pay for it"
            return a
        if "place_bunker" in kinds:
            enemy = list(self._enemy_hexes(game, side))
            a = min((o for o in opts if o.kind == "place_bunker"),
                    key=lambda o: (self._dist(game, game.pos[o["unit"]], enemy), o["unit"]))
            self.last_reason = f"the Bunker goes with {a['unit']}, the unit nearest the enemy"
            return a
        if "add_elite" in kinds or "remove_poor" in kinds:
            a = self._pick(opts, "remove_poor") or self._pick(opts, "add_elite")
            self.last_reason = "Vietnamization improves an ARVN division"
            return a
        if "strategic_unit" in kinds:
            targets = self._targets(game, side)
            far = sorted((a for a in opts if a.kind == "strategic_unit" and game.rows[a["unit"]].unit_type != "cadre"
                          and self._dist(game, game.pos[a["unit"]], targets) > 2),
                         key=lambda a: (-self._dist(game, game.pos[a["unit"]], targets), a["unit"]))
            if far:
                self.last_reason = f"{far[0]['unit']} is far from the fighting: it closes up without being spent"
                return far[0]
            self.last_reason = "every unit is already near its targets (cadres stay to recruit)"
            return self._pick(opts, "done_strategic")
        if "add_supporter" in kinds:
            a = self._pick(opts, "add_supporter")
            self.last_reason = f"{a['unit']} adds to the die roll (5.3.3): every adjacent unit supports"
            return a
        if "support" in kinds:
            self.last_reason = "all available support is used"
            return max(opts, key=lambda a: a["amount"])
        if "defender_die" in kinds:
            self.last_reason = "the defender rolls the D10 when it can"
            return max(opts, key=lambda a: a.get("die", 0))
        if {"loss_point", "retreat", "eliminate", "replacement"} & kinds:
            for k in ("loss_point", "replacement", "retreat", "eliminate"):
                a = self._pick(opts, k)
                if a is not None:
                    self.last_reason = {"loss_point": "a loss point is cheapest", "replacement": "a replacement "
                                        "point saves the units", "retreat": "retreating saves the unit",
                                        "eliminate": "nothing else is left: a unit is eliminated"}[k]
                    return a
        if "advance" in kinds:
            self.last_reason = "the winner advances into the combat hex"
            return self._pick(opts, "advance")
        if "place_snafu" in kinds:
            bad = ("Ammo Out", "Fuel Out", "Incompetent Leader", "Ammo Shortage", "Fuel Shortage", "Ambush",
                   "Friendly Fire", "Air Strike", "Key Officer Killed", "Radio Out")
            good = ("Great Leader",)
            best, rank = None, 99
            for a in opts:
                if a.kind != "place_snafu" or not a.get("unit"):
                    continue
                mine = game.side_of(a["unit"]) == side
                order = good if mine else bad
                if a["face"] in order and order.index(a["face"]) < rank:
                    best, rank = a, order.index(a["face"])
            if best is not None:
                whose = "its own" if game.side_of(best["unit"]) == side else "an enemy"
                self.last_reason = f"{best['face']} is placed on {whose} unit {best['unit']}"
                return best
            back = self._pick(opts, "return_snafu")
            if back is not None:
                self.last_reason = "no placement would hurt the enemy or help its own units: the counter goes back"
                return back
            self.last_reason = "the marker must be placed"
            return opts[0]
        if "roll_accumulator" in kinds:
            key = self._pick(opts, "roll_accumulator")["track"]
            value = game.vp[key]
            if value >= 5 or d.prompt.startswith("End Phase"):
                self.last_reason = f"rolls on {key.replace('_', ' ')} at {value}" + (
                    " (the track is reset after the End Phase)" if value < 5 else " (a good chance)")
                return self._pick(opts, "roll_accumulator")
            self.last_reason = f"waits: {key.replace('_', ' ')} at {value} is a poor chance, more points may come"
            return self._pick(opts, "no_roll")
        if "recruit" in kinds:
            self.last_reason = "every recruit strengthens the VC"
            return self._pick(opts, "recruit")
        if "keep_all" in kinds:
            self.last_reason = "keeps every unit"
            return self._pick(opts, "keep_all")
        if "reroll" in kinds:
            self.last_reason = "re-rolls its own die"
            return self._pick(opts, "reroll")
        if "eliminate_overstacked" in kinds:
            a = min(opts, key=lambda a: SIZE_RANK.get(game.rows[a["unit"]].size_class or "C", 1))
            self.last_reason = f"{a['unit']} is the smallest overstacked unit"
            return a
        if "resolve_combat" in kinds:
            self.last_reason = "combats in the order declared"
            return opts[0]
        if kinds == {"end_activations"}:
            self.last_reason = "no fresh HQ with a LoC is left: the activations end"
            return opts[0]
        if "retreat_to" in kinds:
            enemy = self._enemy_hexes(game, side)
            a = max(opts, key=lambda a: (not a.get("zoc"), self._dist(game, a["hex"], list(enemy))))
            self.last_reason = f"retreats to {a['hex']}, away from the enemy and out of its ZoC if it can"
            return a
        if "quality_marker" in kinds or "key_officer" in kinds:
            for a in opts:
                good = a.get("marker") in ("Elite", "Guards")
                mine = a.get("unit") in game.rows and game.side_of(a["unit"]) == side
                if good == mine:
                    self.last_reason = "a good marker on its own unit, a bad one on the enemy's"
                    return a
            self.last_reason = "the marker must go on one of these units"
            return opts[0]
        passing = [a for a in opts if a.kind in PASS_KINDS]
        self.last_reason = "takes the first legal choice" if not passing else "passes"
        return opts[0]
