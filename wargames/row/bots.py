"""Built-in players for Vietnam: Rumor of War (both sides), simple, fast and explained (``last_reason``).

The bot reads the decision's rule and kind and the map through the game object:

* missions and supply (ROW-9.5, 7.1, 14.7): the strategic plan of :mod:`.bot_plans` (the General Uprising, the
  offensives, Vietnamization and the rest, each by what the side can pay and what the position offers); the
  planned mission's cost is kept back when HQs are re-freshened or markers bought, and the Communist puts what is
  left into the Ho Chi Minh Trail;
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

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core import Action, Bot, Decision
from .air import AIR_ANSWERS
from .bot_plans import COSTS, plan_mission
from .politics import SPECIAL_ANSWERS
from .sow import SOW_ANSWERS
from .trail import trail_marker_choice

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame

SIZE_RANK = {"A": 3, "B": 2, "C": 1}
PASS_KINDS = (
    "end_activations",
    "done_activating",
    "no_combat",
    "no_reserve",
    "done_reserve",
    "stay",
    "hq_stays",
    "done_refresh",
    "keep_all",
    "no_advance",
    "pass_reroll",
    "return_snafu",
)

#: Every decision of Rumor of War names its kind (``Decision.kind``): what the player decides, with its rule.  The
#: built-in player answers each with its ``on_<kind>`` method (below, or from the answer tables of the air war,
#: the special rules and the special operations); :data:`RowBot.fallback_kinds` are left to its fallback.
DECISION_KINDS: dict[str, str] = {
    # the season's supply, missions and HQs (ROW-7.0, 9.0)
    "spend_supply": "what else to buy with supply (7.1)",
    "hq_refresh": "which spent HQ to flip fresh for supply, or none (9.3)",
    "mission": "the HQ mission declared for the season (9.5)",
    "hq_return": "where a routed HQ returns (9.1)",
    "replacement_entry": "where a unit bought back with a replacement point enters (13.2)",
    "bunker": "whether and where to place a Bunker (Infiltrate, Recruit: 9.5)",
    "vietnamization": "which ARVN improvement to make (9.5)",
    # activations (ROW-4.0, 9.2)
    "hq_activation": "which fresh HQ to activate, or end the activations (9.2)",
    "unit_activation": "which unit the HQ activates next, or no more (4.5)",
    "create_battalion": "activate the unit or create a battalion on it (14.1.1)",
    "move_order": "which active unit moves next (4.5)",
    "move": "where a unit or HQ moves (initial, strategic, reserve, exploitation: 4.4, 4.5, 4.7, 4.8)",
    "early_exploitation": "where a unit moves in early exploitation (4.8)",
    "strategic_unit": "which fresh unit moves strategically next, or none (4.4)",
    "combat_declaration": "which combat a unit declares, or none (4.6)",
    "combat_chit": "which drawn combat chit is kept (5.2.1)",
    "combat_order": "which declared combat is resolved next (9.2)",
    "hq_end": "the active HQ moves, stays, or stays and is re-freshened (9.3)",
    "overstack_loss": "which overstacked spent unit is eliminated (4.2)",
    "reserve_hq": "which HQ makes a reserve move, or none (4.7)",
    "reserve_unit": "which unit joins the reserve move, or no more (4.7)",
    "fire_base": "where to build a Fire Base, or none (14.1.2)",
    "loc_trace": "whether an HQ or a leaving battalion traces its LoC through enemy control, for a SNAFU draw (14.4.1)",
    "marker_transfer": "which active, unmoved unit takes a leaving battalion's new marker (14.1.2)",
    # combat (ROW-5.0, 6.0)
    "combat_supporter": "which adjacent unit adds to the attack or defence (5.3.3)",
    "combat_support": "how much tank, artillery or air support to use (5.3.1)",
    "unrestrict": "whether to flip to Unrestricted Ops against a Communist Offensive (9.5)",
    "road_bonus": "whether the attacker uses the road bonus for his tanks (5.3.1)",
    "defence_leader": "which enemy ground commander counts for the defence (14.2.2)",
    "defender_die": "which die the defender rolls (5.4.1)",
    "reroll": "whether to re-roll a die (6.1)",
    "quality_marker": "which unit takes a special-roll marker (5.4.2)",
    "combat_quality": "which of its quality kinds a side applies (5.4.3)",
    "loss": "how the loser absorbs the spread (5.6)",
    "retreat_hex": "the next hex of a retreat (5.6)",
    "advance": "which unit advances into the combat hex, or none (5.7)",
    "snafu_placement": "where a drawn Random Event counter goes, or back to the cup (6.1, 6.2)",
    "key_officer": "which unit or strike a Key Officer Killed counter hits (6.1)",
    # reinforcements, replacements, recruits (ROW-13.0)
    "reinforcement_entry": "where a reinforcement whose arrival hex is held enters (13.1.1)",
    "replacement": "which unit comes back with a replacement point, or none (13.2)",
    "replacement_cost": "which unit goes to the Destroyed box for it (13.2)",
    "recruit": "whether a cadre recruits (13.1.2)",
    "recruit_hex": "where a recruit appears (13.1.2)",
    "voluntary_removal": "which unit to remove voluntarily, or none",
    # victory (ROW-12.0)
    "objective_placement": "where an Objective marker goes (12.1.3)",
    "objective_claim": "which Objective marker to claim, or none (12.1.3)",
    "accumulator_roll": "whether to roll on a victory-point accumulator track (12.1.4, 12.1.5)",
    # the air war and the fleet (ROW-10.0, 11.0)
    "air_mission": "which aircraft goes to which mission box, or no more (10.2)",
    "airfield": "from which airfield an aircraft flies (10.1)",
    "airfield_work": "which airfield to repair or improve, or none (10.1)",
    "secret_box": "which unrestricted box is a secret mission, or none (10.3.7)",
    "free_unrestricted": "how many free unrestricted declarations to spend, or none (14.5)",
    "trail_strike": "which aircraft strikes which Ho Chi Minh Trail hex, or none (10.4.1, 14.7.2)",
    "ace": "which aircraft an ace flies with (10.3.6)",
    "air_target": "which enemy aircraft to attack (10.3.1)",
    "sam_hit": "which aircraft a SAM hit strikes (10.3.5)",
    "strike_order": "which strike missions are flown next (10.3)",
    "airfield_strike": "which airfield to strike (10.3.3.1)",
    "aircraft_lost": "which aircraft is destroyed on the ground (10.3.3.1)",
    "air_support": "which aircraft flew the air support (10.4.2)",
    "air_interdiction": "whether to interdict, and with which aircraft (10.4.1)",
    "recon_aircraft": "which aircraft flies the reconnaissance (10.4.3)",
    "fleet_station": "the 7th Fleet's Station box (11.1)",
    # special rules (ROW-12.2, 14)
    "commander": "whether to change the theater commander (14.2.1)",
    "ground_commander": "which HQ an arriving ground commander joins (14.2.2)",
    "poor_marker": "which ARVN unit takes a Poor marker (14.2.1)",
    "low_morale": "which Capitalist unit takes a Low Morale marker (14.5)",
    "invasion": "which country to invade, or none (14.6.1)",
    "prc_entry": "where a PRC unit enters (12.2)",
    "tunnel_roll": "whether to roll for US Casualties on a Hidden tunnel (14.3)",
    "tunnel_entry": "whether an active Communist unit goes into (or stays in) its hex's tunnel (14.3)",
    "trail_marker": "where a Trail Interdicted marker goes (14.7.2)",
    "special_operation": "which special operation a wing flies, or none (14.8)",
    "insertion_hex": "where the Special Forces are inserted (14.8)",
    "sow_recon": "whether a reconnaissance aircraft reconnoitres before a special operation (14.8, 10.4.3)",
    "secret_operation": "whether a special operation is secret (12.1.5)",
}

Answer = Callable[["RowGame", Any], "tuple[Action, str] | None"]


class RowBot(Bot):
    """A rule-following player for one side of Rumor of War that says why it chose (``last_reason``), on the
    core :class:`~wargames.core.players.Bot`: each decision kind (:data:`DECISION_KINDS`) has its ``on_<kind>``."""

    #: decisions it answers with :meth:`fallback` on purpose: the first option is as good as any other
    fallback_kinds = frozenset({"reinforcement_entry", "combat_quality"})

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

    def _crowded(self, game: RowGame, side: str, uid: str) -> set[str]:
        """ROW-4.2: the hexes where ``uid`` would be a second spent unit of its side at the end of the activation
        (and one of them would be eliminated): hexes holding another spent unit that counts for stacking (not a US
        battalion, not in a tunnel).  Empty for a piece the limit does not bind (an HQ, a US battalion)."""
        if game.rows[uid].kind != "unit" or game.piece(uid).us_battalion:
            return set()
        return {
            p.hex
            for p in game.situation().units(side)
            if p.uid != uid and p.kind == "unit" and not p.fresh and not p.us_battalion and not p.in_tunnel
        }

    def _choose_move(self, game: RowGame, d: Decision) -> Action:
        """ROW-4.4, 4.5, 4.7, 4.8: hold a scoring hex, else close on the weakest enemy in reach; never end where
        another spent unit of the side stands (4.2: one of the two would be eliminated at the end of the
        activation), and leave such a hex if a move can (decision R-WAR-42)."""
        uid = d.context.get("unit")
        side = d.side
        here = game.pos.get(uid, "")
        stay = self._pick(d.options, "stay") or d.options[-1]
        crowded = self._crowded(game, side, uid)
        if (
            game.rows[uid].kind == "unit"
            and here in self._hold(game, side)
            and here not in crowded
            and side == "Capitalist"
            and not game.rows[uid].has("created")
        ):
            self.last_reason = f"{uid} holds {here}, a hex its side scores for"
            return stay
        enemy = self._enemy_hexes(game, side)
        size = SIZE_RANK.get(game.rows[uid].size_class or "C", 1)
        weak = [
            h
            for h, us in enemy.items()
            if len(us) == 1 and SIZE_RANK.get(game.rows[us[0]].size_class or "C", 1) <= size
        ]
        targets = weak or self._targets(game, side)
        best, best_key = stay, (self._dist(game, here, targets) if here and here not in crowded else 999, 0)
        for a in d.options:
            if a.kind != "move":
                continue
            key = (self._dist(game, a["to"], targets), 0 if a.get("one_hex_minimum") is False else 1)
            if a["to"] in enemy or a["to"] in crowded:
                continue
            if key < best_key:
                best, best_key = a, key
        fly = self._fly_to_weak(game, d, weak, crowded) if best_key[0] > 1 and weak else None
        if fly is not None:
            return fly
        self.last_reason = self._move_reason(
            uid, best, best_key[0], here, crowded, self._dist(game, here, targets)
        )
        return best

    def _fly_to_weak(self, game: RowGame, d: Decision, weak: list[str], crowded: set[str]) -> Action | None:
        """An air or sea move (the options of kind fly or amphibious) next to a weak enemy no land move reaches (not onto another
        spent unit, 4.2); the cheapest, a landing from the sea costing nothing."""
        fly = [
            a
            for a in d.options
            if a.kind in ("fly", "amphibious")
            and self._dist(game, a["to"], weak) == 1
            and a["to"] not in crowded
        ]
        if not fly:
            return None
        a = min(fly, key=lambda a: (a.get("cost", 0), a["to"]))
        how = "flies" if a.kind == "fly" else "lands from the sea"
        self.last_reason = (
            f"{d.context.get('unit')} {how} to {a['to']}, next to a weak enemy no land move reaches"
        )
        return a

    @staticmethod
    def _move_reason(uid: str, best: Action, dist: int, here: str, crowded: set[str], dist_here: int) -> str:
        """The reason of :meth:`_choose_move`'s choice, in words (4.2 named when the unit leaves a crowded hex)."""
        if best.kind == "move" and here in crowded and dist > dist_here:
            return (
                f"{uid} moves to {best['to']}: another spent unit of its side stands at {here}, and two spent "
                "units in one hex at the end of the activation lose one (4.2)"
            )
        if best.kind == "move":
            return f"{uid} moves to {best['to']}, {dist} hex(es) from its nearest target"
        if here in crowded:
            return f"{uid} stays: no move takes it out of {here}, where another spent unit stands"
        return f"{uid} stays: no move brings it nearer its targets"

    def _has(self, d: Decision, *kinds: str) -> bool:
        return any(a.kind in kinds for a in d.options)

    def _take(
        self, game: RowGame, d: Decision, kinds: tuple[str, ...], why: str | Callable[[Action], str]
    ) -> Action:
        """The first option of the first of ``kinds`` offered, with the reason ``why`` (a text, or made from the
        option); none offered: :meth:`fallback`."""
        a = self.first(d, *kinds)
        if a is None:
            return self.fallback(game, d)
        self.last_reason = why(a) if callable(why) else why
        return a

    def _supply(self, game: RowGame, side: str) -> int:
        return game.pools["Capitalist Supply" if side == "Capitalist" else "Communist Supply"]

    # ------------------------------------------------------------------ the protocol
    def fallback(self, game: RowGame, d: Decision) -> Action:
        """No rule of thumb for this choice (or nothing left to weigh): the first option, a pass if it is one."""
        passing = [a for a in d.options if a.kind in PASS_KINDS]
        self.last_reason = "takes the first legal choice" if not passing else "passes"
        return d.options[0]

    def _answer(self, game: RowGame, d: Decision, answer: Answer) -> Action:
        got = answer(game, d)
        if got is None:
            return self.fallback(game, d)
        action, self.last_reason = got
        return action

    # the season: supply, missions, HQs (ROW-7.0, 9.0)
    def _plan(self, game: RowGame, side: str) -> str:
        """ROW-9.5: the mission this side means to declare this season (:mod:`.bot_plans`), decided once, from the
        supply it had when it first looked at it this season, so what it buys meanwhile keeps its cost back."""
        key = (id(game), game.season, side)
        if getattr(self, "_plan_key", None) != key:
            self._plan_key = key
            self._plan_mission, self._plan_reason = plan_mission(game, side, self._supply(game, side))
        return self._plan_mission

    def _keep(self, game: RowGame, side: str) -> int:
        """ROW-7.1 / ROW-9.3: the supply kept back for the planned mission (:meth:`_plan`)."""
        return COSTS[side].get(self._plan(game, side), 0)

    def _leaves(self, game: RowGame, a: Action, keep: int) -> bool:
        """ROW-7.2: paying option ``a`` leaves ``keep`` in the side's main pool (the one that pays HQ missions); an
        option paid from another pool (the trail) or free always does."""
        if a.get("pool") not in ("capitalist", "communist"):
            return True
        return self._supply(game, self.side) - a["amount"] >= keep

    # the season: supply, missions, HQs (ROW-7.0, 9.0)
    def on_mission(self, game: RowGame, d: Decision) -> Action:
        """ROW-9.5: the mission planned for the season (:mod:`.bot_plans`: by what it can pay and what the position
        offers), if it is still offered; otherwise the plan made again on what is offered now."""
        side = d.side
        offered = {o["mission"]: o for o in d.options}
        name = self._plan(game, side)
        reason = self._plan_reason
        if name not in offered:
            name, reason = plan_mission(game, side, self._supply(game, side), set(offered))
        a = offered.get(name)
        if a is None:
            self.last_reason = "the only missions it can pay"
            return d.options[-1]
        self.last_reason = f"{side}: {reason}"
        return a

    def on_hq_refresh(self, game: RowGame, d: Decision) -> Action:
        """ROW-9.3: a spent HQ is flipped fresh while the planned mission's cost stays in the pool."""
        keep = self._keep(game, d.side)
        for a in d.options:
            if a.kind == "refresh_hq" and self._leaves(game, a, keep):
                self.last_reason = (
                    f"{self._supply(game, d.side)} supply: a spent HQ is flipped fresh, {keep} kept for the "
                    f"{self._plan(game, d.side).replace('_', ' ')} mission"
                )
                return a
        self.last_reason = "supply is short: HQs stay spent"
        return d.options[-1]

    def on_spend_supply(self, game: RowGame, d: Decision) -> Action:
        """ROW-7.1: markers that hurt its units come off while the planned mission's cost stays in the pool; then
        the Communist builds the Ho Chi Minh Trail (14.7): its status first, then its supply."""
        if not self._has(d, "buy"):
            return self.fallback(game, d)
        keep = self._keep(game, d.side)
        for item in ("remove_out", "remove_shortage", "bunker_to_fortification"):
            for a in d.options:
                if a.kind == "buy" and a["item"] == item and self._leaves(game, a, keep):
                    self.last_reason = f"{a.label}: worth it, and {keep} supply stays for the mission"
                    return a
        for item in ("trail_status_plus_1", "trail_supply_plus_1"):
            a = next((o for o in d.options if o.kind == "buy" and o["item"] == item), None)
            if a is not None and self._leaves(game, a, keep):
                self.last_reason = (
                    f"{a.label}: the trail carries the war south, and {keep} supply stays for the mission"
                )
                return a
        self.last_reason = f"supply is kept for the mission ({keep}) and the HQs"
        return self._pick(d.options, "done_spending")

    def on_loc_trace(self, game: RowGame, d: Decision) -> Action:
        """ROW-14.4.1: an HQ traces (its activation is worth one SNAFU draw, R-GAME-41); a US battalion traces (one
        SNAFU draw is cheaper than a D6 of US Casualties); any other leaves without tracing, since without a LoC it
        costs nothing."""
        if game.rows[d.options[0]["unit"]].kind == "hq":
            self.last_reason = "the HQ's activation is worth one SNAFU draw"
            return self._pick(d.options, "trace_loc") or d.options[0]
        us = game.rows[d.options[0]["unit"]].nationality == "US"
        if us:
            self.last_reason = "one SNAFU draw costs less than a D6 of US Casualties"
            return self._pick(d.options, "trace_loc") or d.options[0]
        self.last_reason = "leaving without a LoC costs this unit nothing, a SNAFU draw might"
        return self._pick(d.options, "no_trace") or d.options[-1]

    def on_marker_transfer(self, game: RowGame, d: Decision) -> Action:
        """ROW-14.1.2: the marker (most are harmful: Disrupted, shortages) goes to the unit farthest from the enemy."""
        targets = self._targets(game, d.side)
        a = max(d.options, key=lambda o: (self._dist(game, game.pos[o["unit"]], targets), o["unit"]))
        self.last_reason = f"{a['unit']} is farthest from the fighting, where the marker matters least"
        return a

    def on_replacement_entry(self, game: RowGame, d: Decision) -> Action:
        """ROW-13.1.1 / ROW-13.2: a returning unit enters at the supply source nearest the enemy it must face."""
        targets = self._targets(game, d.side)
        a = min(d.options, key=lambda o: (self._dist(game, o["hex"], targets), o["hex"]))
        self.last_reason = f"it enters at {a['hex']}, the supply source nearest the fighting"
        return a

    def on_hq_return(self, game: RowGame, d: Decision) -> Action:
        """ROW-9.1: a routed HQ returns at the supply source nearest its units."""
        own = [h for u, h in game.pos.items() if game.side_of(u) == d.side and game.rows[u].kind == "unit"]
        a = min(d.options, key=lambda o: (self._dist(game, o["hex"], own), o["hex"]))
        self.last_reason = f"the HQ returns at {a['hex']}, the source nearest its units"
        return a

    def on_bunker(self, game: RowGame, d: Decision) -> Action:
        """ROW-9.5: the Bunker goes with the unit nearest the enemy."""
        if not self._has(d, "place_bunker"):
            return self.fallback(game, d)
        enemy = list(self._enemy_hexes(game, d.side))
        a = min(
            (o for o in d.options if o.kind == "place_bunker"),
            key=lambda o: (self._dist(game, game.pos[o["unit"]], enemy), o["unit"]),
        )
        self.last_reason = f"the Bunker goes with {a['unit']}, the unit nearest the enemy"
        return a

    def on_vietnamization(self, game: RowGame, d: Decision) -> Action:
        """ROW-9.5: a Poor marker comes off first, else an Elite one goes on."""
        return self._take(game, d, ("remove_poor", "add_elite"), "Vietnamization improves an ARVN division")

    # activations (ROW-4.0, 9.2)
    def on_hq_activation(self, game: RowGame, d: Decision) -> Action:
        """ROW-9.2: the fresh HQ with most of its own fresh units near it; none: the activations end."""
        if not self._has(d, "activate_hq"):
            if {a.kind for a in d.options} == {"end_activations"}:
                self.last_reason = "no fresh HQ with a LoC is left: the activations end"
                return d.options[0]
            return self.fallback(game, d)
        side = d.side
        # fresh units within 4 hexes of the HQ; on the whole map, where HQs sit in their Corps capitals, a
        # second look reaches 8 hexes (about the 10-MP command range, 4.5) before the activations end
        for radius in (4, 8):
            best, score = None, 0
            for a in d.options:
                if a.kind != "activate_hq":
                    continue
                hq_hex = game.pos[a["hq"]]
                n = sum(
                    1
                    for u, h in game.pos.items()
                    if game.side_of(u) == side
                    and game.rows[u].kind == "unit"
                    and game.fresh[u]
                    and game.map.distance(h, hq_hex) <= radius
                )
                if n > score:
                    best, score = a, n
            if best is not None:
                self.last_reason = (
                    f"activates {best['hq']}: {score} fresh units of its side within {radius} hexes"
                )
                return best
        self.last_reason = "no fresh HQ has fresh units near it: the activations end"
        return self._pick(d.options, "end_activations") or d.options[-1]

    def _fresh_unit(self, game: RowGame, d: Decision, kind: str, targets: list[str]) -> Action:
        cands = sorted(
            (a for a in d.options if a.kind == kind and game.rows[a["unit"]].unit_type != "cadre"),
            key=lambda a: (self._dist(game, game.pos[a["unit"]], targets), a["unit"]),
        )
        if cands and self._dist(game, game.pos[cands[0]["unit"]], targets) <= 8:
            self.last_reason = f"{cands[0]['unit']} is the fresh unit nearest the enemy or the threatened hex"
            return cands[0]
        self.last_reason = "no other fresh unit is near enough to matter"
        return d.options[-1]

    def on_unit_activation(self, game: RowGame, d: Decision) -> Action:
        """ROW-4.5 / ROW-6.2 f, g: a Routed unit's marker is lifted first (it can neither attack nor support); then
        the fresh units nearest the enemy (cadres stay to recruit); a slot left over lifts a Disrupted marker."""
        routed = [a for a in d.options if a.kind == "remove_marker" and a["marker"] == "Routed"]
        if routed:
            self.last_reason = f"{routed[0]['unit']} is Routed and useless until its marker is lifted"
            return routed[0]
        if self._has(d, "activate_unit"):
            a = self._fresh_unit(game, d, "activate_unit", self._targets(game, d.side))
            if a.kind == "activate_unit" or not self._has(d, "remove_marker"):
                return a
        lift = self._pick(d.options, "remove_marker")
        if lift is not None:
            self.last_reason = (
                f"no unit needs the activation more: {lift['unit']}'s Disrupted marker is lifted"
            )
            return lift
        return self.fallback(game, d)

    def on_create_battalion(self, game: RowGame, d: Decision) -> Action:
        """ROW-14.1.1: a unit holding a base or a scoring hex sends a new battalion out; others move themselves."""
        a = self._pick(d.options, "create_unit")
        if a is None:
            return self.fallback(game, d)
        parent = a["parent"]
        if game.rows[parent].unit_type == "cadre" or game.pos.get(parent) in self._hold(game, d.side):
            self.last_reason = (
                f"{parent} holds its ground (a base or a hex its side scores for) and sends "
                f"{a['unit']} out instead"
            )
            return a
        self.last_reason = f"{parent} moves and fights itself"
        return self._pick(d.options, "activate_normally")

    def on_move_order(self, game: RowGame, d: Decision) -> Action:
        """ROW-4.5: the unit nearest the enemy moves first."""
        targets = self._targets(game, d.side)
        a = min(d.options, key=lambda o: (self._dist(game, game.pos[o["unit"]], targets), o["unit"]))
        self.last_reason = f"{a['unit']} is nearest the enemy: it moves first"
        return a

    def on_move(self, game: RowGame, d: Decision) -> Action:
        """ROW-4.4, 4.5, 4.7, 4.8: hold a scoring hex, else close on the weakest enemy in reach."""
        if not self._has(d, "move", "stay"):
            return self.fallback(game, d)
        return self._choose_move(game, d)

    def on_early_exploitation(self, game: RowGame, d: Decision) -> Action:
        """ROW-4.8: in early exploitation the unit keeps its position."""
        if not self._has(d, "move", "stay"):
            return self.fallback(game, d)
        self.last_reason = "early exploitation: it keeps its position"
        return self._pick(d.options, "stay") or d.options[-1]

    def on_strategic_unit(self, game: RowGame, d: Decision) -> Action:
        """ROW-4.4: a unit far from the fighting closes up without being spent."""
        targets = self._targets(game, d.side)
        far = sorted(
            (
                a
                for a in d.options
                if a.kind == "strategic_unit"
                and game.rows[a["unit"]].kind == "unit"  # HQs stay where they command
                and game.rows[a["unit"]].unit_type != "cadre"
                and self._dist(game, game.pos[a["unit"]], targets) > 2
            ),
            key=lambda a: (-self._dist(game, game.pos[a["unit"]], targets), a["unit"]),
        )
        if far:
            self.last_reason = f"{far[0]['unit']} is far from the fighting: it closes up without being spent"
            return far[0]
        self.last_reason = "every unit is already near its targets (cadres stay to recruit, HQs to command)"
        return self._pick(d.options, "done_strategic")

    def on_combat_declaration(self, game: RowGame, d: Decision) -> Action:
        """ROW-4.6: a Hasty attack on an adjacent hex holding one enemy unit no bigger than itself."""
        if not self._has(d, "declare_combat"):
            return self.fallback(game, d)
        side, uid = d.side, d.context.get("unit")
        if game.rows[uid].unit_type == "cadre":
            self.last_reason = f"{uid} is a cadre: it recruits and supplies, it does not attack"
            return self._pick(d.options, "no_combat") or d.options[-1]
        size = SIZE_RANK.get(game.rows[uid].size_class or "C", 1)
        enemy = self._enemy_hexes(game, side)
        for ct in ("hasty", "prepared", "deliberate"):
            for a in d.options:
                if a.kind == "declare_combat" and a["combat_type"] == ct:
                    us = enemy.get(a["hex"], [])
                    if len(us) == 1 and SIZE_RANK.get(game.rows[us[0]].size_class or "C", 1) <= size:
                        self.last_reason = (
                            f"{uid} attacks {a['hex']}: one enemy unit, no bigger than itself "
                            f"({ct.replace('_', ' ')})"
                        )
                        return a
        self.last_reason = "no adjacent enemy is weak enough to attack"
        return self._pick(d.options, "no_combat") or d.options[-1]

    def on_combat_order(self, game: RowGame, d: Decision) -> Action:
        """ROW-9.2: combats are resolved in the order declared."""
        self.last_reason = "combats in the order declared"
        return d.options[0]

    def on_hq_end(self, game: RowGame, d: Decision) -> Action:
        """ROW-9.3: the HQ stays; it is re-freshened when 4 supply are in the pool."""
        if not self._has(d, "hq_stays"):
            return self.fallback(game, d)
        ref = self._pick(d.options, "refresh_hq")
        pool = self._supply(game, d.side)
        if ref is not None and pool >= 4:
            self.last_reason = f"re-freshens its HQ ({pool} supply in the pool) to activate again"
            return ref
        self.last_reason = "the HQ stays with its units"
        return self._pick(d.options, "hq_stays")

    def on_overstack_loss(self, game: RowGame, d: Decision) -> Action:
        """ROW-4.2: the smallest overstacked unit is eliminated."""
        a = min(d.options, key=lambda a: SIZE_RANK.get(game.rows[a["unit"]].size_class or "C", 1))
        self.last_reason = f"{a['unit']} is the smallest overstacked unit"
        return a

    def on_reserve_hq(self, game: RowGame, d: Decision) -> Action:
        """ROW-4.7: reserves move up when the enemy attacks within 6 hexes of a fresh HQ."""
        if not self._has(d, "reserve_hq"):
            return self.fallback(game, d)
        declared = [h for h, _ in game.act.declared.values()] if game.act is not None else []
        for a in d.options:
            if a.kind == "reserve_hq" and declared and self._dist(game, game.pos[a["hq"]], declared) <= 6:
                self.last_reason = f"the enemy attacks within 6 hexes of {a['hq']}: reserves move up"
                return a
        self.last_reason = "no enemy attack threatens its HQs: no reserve move"
        return self._pick(d.options, "no_reserve") or d.options[-1]

    def on_reserve_unit(self, game: RowGame, d: Decision) -> Action:
        """ROW-4.7: the fresh units nearest the threatened hexes."""
        if not self._has(d, "reserve_unit"):
            return self.fallback(game, d)
        targets = self._targets(game, d.side)
        if game.act is not None and game.act.declared:
            targets = [h for h, _ in game.act.declared.values()]
        return self._fresh_unit(game, d, "reserve_unit", targets)

    def on_fire_base(self, game: RowGame, d: Decision) -> Action:
        """ROW-14.1.2: helicopter points are kept for flights."""
        return self._take(game, d, ("no_fire_base",), "helicopter points are kept for flights")

    # combat (ROW-5.0, 6.0)
    def on_combat_supporter(self, game: RowGame, d: Decision) -> Action:
        """ROW-5.3.3: every adjacent unit supports."""
        return self._take(
            game,
            d,
            ("add_supporter",),
            lambda a: f"{a['unit']} adds to the die roll (5.3.3): every adjacent unit supports",
        )

    def on_combat_support(self, game: RowGame, d: Decision) -> Action:
        """ROW-5.3.1: all available support is used."""
        self.last_reason = "all available support is used"
        return max(d.options, key=lambda a: a["amount"])

    def on_defence_leader(self, game: RowGame, d: Decision) -> Action:
        """ROW-14.2.2: the weakest enemy commander counts for the defence."""
        a = min(d.options, key=lambda o: (game.rows[o["leader"]].leader_value or 0, o["leader"]))
        self.last_reason = f"the weakest enemy commander, {a['leader']}, counts for the defence"
        return a

    def on_defender_die(self, game: RowGame, d: Decision) -> Action:
        """ROW-5.4.1: the defender rolls the D10 when it can."""
        self.last_reason = "the defender rolls the D10 when it can"
        return max(d.options, key=lambda a: a.get("die", 0))

    def on_reroll(self, game: RowGame, d: Decision) -> Action:
        """ROW-6.1: a side that may re-roll its own die does."""
        return self._take(game, d, ("reroll",), "re-rolls its own die")

    def on_quality_marker(self, game: RowGame, d: Decision) -> Action:
        """ROW-5.4.2, 6.1: a good marker on its own unit, a bad one on the enemy's."""
        for a in d.options:
            good = a.get("marker") in ("Elite", "Guards")
            mine = a.get("unit") in game.rows and game.side_of(a["unit"]) == d.side
            if good == mine:
                self.last_reason = "a good marker on its own unit, a bad one on the enemy's"
                return a
        self.last_reason = "the marker must go on one of these units"
        return d.options[0]

    on_key_officer = on_quality_marker

    def on_loss(self, game: RowGame, d: Decision) -> Action:
        """ROW-5.6 / ROW-14.3: into a tunnel if one is there, else loss points, then replacement points, retreats (as
        far as the debt and the map allow:
        nothing is forgiven, R-CBT-24), eliminations, and every unit only when nothing else is left."""
        for k in ("tunnel", "loss_point", "replacement", "retreat", "eliminate", "eliminate_all"):
            offered = [a for a in d.options if a.kind == k]
            if offered:
                a = max(offered, key=lambda x: x.get("hexes") or 0)  # the longest retreat offered
                self.last_reason = {
                    "tunnel": "going into the tunnel meets the whole spread and hides the unit (14.3)",
                    "loss_point": "a loss point is cheapest",
                    "replacement": "a replacement point saves the units",
                    "retreat": f"retreating {a.get('hexes')} hex(es) saves the unit and pays as much as it can",
                    "eliminate": "nothing else is left: a unit is eliminated",
                    "eliminate_all": "nothing else can pay what is owed: every unit that took part is eliminated",
                }[k]
                return a
        return self.fallback(game, d)

    def on_tunnel_entry(self, game: RowGame, d: Decision) -> Action:
        """ROW-14.3 (R-GAME-40): into the tunnel, and stay there: in a Hidden one the unit cannot be attacked, in a
        Discovered one no support can be used against it, and from inside it still declares combats and supports."""
        a = self._pick(d.options, "enter_tunnel") or self._pick(d.options, "stay_in_tunnel") or d.options[0]
        self.last_reason = (
            "inside the tunnel the unit is safe from attack while it stays Hidden (and from support once Discovered), "
            "and it may still fight from there"
        )
        return a

    def on_unrestrict(self, game: RowGame, d: Decision) -> Action:
        """ROW-9.5: against a Communist Offensive or General Uprising, full support is worth the flip."""
        self.last_reason = "the Communist is on the offensive: full artillery, air and bombardment support"
        return self._pick(d.options, "unrestrict") or d.options[0]

    def on_road_bonus(self, game: RowGame, d: Decision) -> Action:
        """ROW-5.3.1: the road bonus when it adds at least 2 tank levels (it costs 1 tank level afterwards)."""
        use = self._pick(d.options, "road_bonus")
        plain = self._pick(d.options, "no_road_bonus")
        if use is not None and plain is not None and use["tank"] - plain["tank"] >= 2:
            self.last_reason = "the road adds at least 2 tank levels for the 1 it costs"
            return use
        self.last_reason = "the road would add less than the tank level it costs"
        return plain or d.options[-1]

    def on_retreat_hex(self, game: RowGame, d: Decision) -> Action:
        """ROW-5.6: away from the enemy, out of its ZoC if it can; at the end of the retreat not onto another spent
        unit of its side if another hex will do (4.2, decision R-WAR-42)."""
        enemy = self._enemy_hexes(game, d.side)
        uid = d.context.get("unit")
        crowded = self._crowded(game, d.side, uid) if uid in game.rows else set()
        a = max(
            d.options,
            key=lambda a: (
                not a.get("zoc"),
                a["hex"] not in crowded,
                self._dist(game, a["hex"], list(enemy)),
            ),
        )
        self.last_reason = f"retreats to {a['hex']}, away from the enemy and out of its ZoC if it can"
        return a

    def on_advance(self, game: RowGame, d: Decision) -> Action:
        """ROW-5.7: the winner advances into the combat hex, one unit that counts for stacking at most (4.2: a
        second spent unit there at the end of the activation would be eliminated; US battalions stack freely;
        decision R-WAR-42)."""
        advanced = [u for u in d.context.get("advanced", ()) if not game.piece(u).us_battalion]
        opts = [a for a in d.options if a.kind == "advance"]
        if advanced:
            opts = [a for a in opts if game.piece(a["unit"]).us_battalion]
        if not opts:
            self.last_reason = (
                f"{advanced[0]} already holds the combat hex: a second spent unit there would be lost (4.2)"
                if advanced
                else "no unit may advance"
            )
            return self._pick(d.options, "no_advance") or d.options[-1]
        self.last_reason = "the winner advances into the combat hex"
        return opts[0]

    def on_snafu_placement(self, game: RowGame, d: Decision) -> Action:
        """ROW-6.1, 6.2: a harmful counter on an enemy unit, a Great Leader on its own; else back to the cup."""
        if not self._has(d, "place_snafu"):
            return self.fallback(game, d)
        side = d.side
        bad = (
            "Ammo Out",
            "Fuel Out",
            "Incompetent Leader",
            "Ammo Shortage",
            "Fuel Shortage",
            "Ambush",
            "Friendly Fire",
            "Air Strike",
            "Key Officer Killed",
            "Radio Out",
        )
        good = ("Great Leader",)
        best, rank = None, 99
        for a in d.options:
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
        back = self._pick(d.options, "return_snafu")
        if back is not None:
            self.last_reason = (
                "no placement would hurt the enemy or help its own units: the counter goes back"
            )
            return back
        self.last_reason = "the marker must be placed"
        return d.options[0]

    # reinforcements, replacements, recruits (ROW-13.0)
    def on_replacement(self, game: RowGame, d: Decision) -> Action:
        """ROW-13.2: the biggest unit comes back while a point stays to absorb losses."""
        if not self._has(d, "replace_unit"):
            return self.fallback(game, d)
        if game.pools[f"{d.side} Replacements"] >= 2:
            a = max(
                (o for o in d.options if o.kind == "replace_unit"),
                key=lambda o: (SIZE_RANK.get(game.rows[o["unit"]].size_class or "C", 1), o["unit"]),
            )
            self.last_reason = (
                f"{a['unit']} is the biggest unit it can bring back; one point stays for losses"
            )
            return a
        self.last_reason = "the last replacement point is kept to absorb combat losses"
        return self._pick(d.options, "no_replacement")

    def on_replacement_cost(self, game: RowGame, d: Decision) -> Action:
        """ROW-13.2: the smallest unit pays for it."""
        a = min(
            d.options, key=lambda o: (SIZE_RANK.get(game.rows[o["unit"]].size_class or "C", 1), o["unit"])
        )
        self.last_reason = f"{a['unit']} is the smallest unit that may pay for it"
        return a

    def on_recruit(self, game: RowGame, d: Decision) -> Action:
        """ROW-13.1.2: every recruit strengthens the VC."""
        return self._take(game, d, ("recruit",), "every recruit strengthens the VC")

    def on_recruit_hex(self, game: RowGame, d: Decision) -> Action:
        """ROW-13.1.2: the recruit stays with its cadre."""
        self.last_reason = f"the recruit stays with its cadre at {d.options[0]['hex']}"
        return d.options[0]  # the cadre's own hex comes first

    def on_voluntary_removal(self, game: RowGame, d: Decision) -> Action:
        """Every unit is kept."""
        return self._take(game, d, ("keep_all",), "keeps every unit")

    # victory (ROW-12.0)
    def on_objective_placement(self, game: RowGame, d: Decision) -> Action:
        """ROW-12.1.3: near its own units and away from the enemy's; the Capitalist only where his US units may go
        (South Vietnam, the DMZ and the countries invaded, 14.6.1) while such a hex is offered (R-WAR-16)."""
        side = d.side
        own = [h for u, h in game.pos.items() if game.side_of(u) == side and game.rows[u].kind == "unit"]
        enemy = list(self._enemy_hexes(game, side))
        reach = {"SVN", *game.invaded()}
        a = min(
            d.options,
            key=lambda a: (
                side == "Capitalist"
                and game.map.country(a["hex"]) not in reach
                and game.map.area(a["hex"]) != "DMZ",
                self._dist(game, a["hex"], own) - self._dist(game, a["hex"], enemy),
                a["hex"],
            ),
        )
        self.last_reason = f"the objective goes on {a['hex']}, near its own units and away from the enemy's"
        return a

    def on_objective_claim(self, game: RowGame, d: Decision) -> Action:
        """ROW-12.1.3: an unfought objective in a hex it controls is claimed."""
        return self._take(
            game, d, ("claim_objective",), "an unfought objective in a hex it controls is claimed"
        )

    def on_accumulator_roll(self, game: RowGame, d: Decision) -> Action:
        """ROW-12.1.4: roll at 5 or more (or in the End Phase, before the track is reset), else wait."""
        roll = self._pick(d.options, "roll_accumulator")
        if roll is None:
            return self.fallback(game, d)
        key = roll["track"]
        value = game.vp[key]
        if value >= 5 or d.prompt.startswith("End Phase"):
            self.last_reason = f"rolls on {key.replace('_', ' ')} at {value}" + (
                " (the track is reset after the End Phase)" if value < 5 else " (a good chance)"
            )
            return roll
        self.last_reason = f"waits: {key.replace('_', ' ')} at {value} is a poor chance, more points may come"
        return self._pick(d.options, "no_roll")

    # the special rules (ROW-14.7.2)
    def on_trail_marker(self, game: RowGame, d: Decision) -> Action:
        return self._answer(game, d, trail_marker_choice)


def _answering(answer: Answer) -> Callable[[RowBot, RowGame, Decision], Action]:
    def on_kind(self: RowBot, game: RowGame, d: Decision) -> Action:
        return self._answer(game, d, answer)

    on_kind.__doc__ = answer.__doc__
    return on_kind


# the air war, the fleet, the special rules and operations answer from their modules' tables (air.py, politics.py,
# sow.py): one ``on_<kind>`` each
for _kind, _fn in {**AIR_ANSWERS, **SPECIAL_ANSWERS, **SOW_ANSWERS}.items():
    setattr(RowBot, f"on_{_kind}", _answering(_fn))
