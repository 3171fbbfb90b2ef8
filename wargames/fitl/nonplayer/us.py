"""Fire in the Lake: the Non-player US (rules 8.8 to 8.8.9).

Flowchart (8.8): US Policy JFK / LBJ / Nixon (FITL-8.8.1) -> Capability check (FITL-8.8.2) -> Assault if it can
remove a Base or NVA Troops share a space with US forces (FITL-8.8.3) -> in Monsoon Patrol out of Laos/Cambodia
(FITL-8.8.4) -> Sweep where Underground Guerrillas sit in Support (FITL-8.8.5) -> Event (FITL-8.8.6) -> Train
(FITL-8.8.7).  Special Activities: Air Lift or Air Strike with Assault and Sweep, Air Strike or Advise with Train
and Patrol by Policy.  Pacify: FITL-8.8.8.  Commitment: FITL-8.8.9.

US Policy (decision F-77): the scenario's ``us_policy`` option, or ``game.us_policy`` if the frame keeps one;
the Commitment re-roll of 8.8.1 is made by the Non-player at the start of each Commitment Phase and remembered by
the player object (the frame does not yet store a Policy in the game state).
"""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, Decision
from .arvn import control_after
from .base import NonPlayerBase, Plan
from .priorities import roll

POLICY_TARGET = {"JFK": 15, "LBJ": 5, "Nixon": 25}  # FITL-8.8.9: US Troops to keep Available


def during_sas(decision: Decision) -> dict[str, Action]:
    """The Special Activities offered during an Operation's space choice (FITL-4.1)."""
    return {a["sa"]: a for a in decision.options if a.kind == "sa"}


class UsNonPlayer(NonPlayerBase):
    faction = "US"
    section = "8.8"
    STEPS = {
        "assault": "8.8.3",
        "patrol": "8.8.4",
        "sweep": "8.8.5",
        "train": "8.8.7",
        "air_lift": "8.8.3",
        "air_strike": "8.8.3",
        "advise": "8.8.4",
    }

    def __init__(self, faction: str | None = None, seed: int = 0):
        super().__init__(faction, seed)
        self.policy_memo: dict[int, str] = {}

    # ------------------------------------------------------------------ Policy (8.8.1)
    def policy(self, game: Any) -> str:
        if getattr(game, "us_policy", None):
            return str(game.us_policy)
        held = [p for c, p in sorted(self.policy_memo.items()) if c <= game.coups_held]
        if held:
            return held[-1]
        return str((getattr(game, "rules_opts", {}) or {}).get("us_policy") or "LBJ")

    def commitment_policy(self, game: Any) -> str:
        """FITL-8.8.1 COMMITMENT: if Support + Available is 45 or less, a die against the Coup cards in the RVN
        Leader box: equal JFK, more LBJ, less Nixon."""
        if game.coups_held in self.policy_memo:
            return self.policy_memo[game.coups_held]
        pol = self.policy(game)
        score = game.board.victory()["US"]
        if score <= 45:
            d = roll(game, "US", "policy")[0]
            coups = len(game.leader_box)
            pol = "JFK" if d == coups else "LBJ" if d > coups else "Nixon"
        self.policy_memo[game.coups_held] = pol
        return pol

    # ------------------------------------------------------------------ facts
    def assault_n(self, game: Any, s: str) -> int:
        return game.assault_count("US", s)[0]

    def removable(self, game: Any, s: str) -> tuple[int, int, bool]:
        """(pieces a US Assault removes, Active/Troop enemies there, a Base falls)."""
        p = game.board.pieces[s]
        n = self.assault_n(game, s)
        exposed = p["nva_troops"] + p["nva_guerrillas:a"] + p["vc_guerrillas:a"]
        under = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
        bases = p["nva_bases"] + p["vc_bases"]
        base = bool(bases) and not under and n > exposed
        return min(n, exposed) + (min(bases, n - exposed) if base else 0), exposed, base

    def air_strike_useful(self, game: Any) -> bool:
        """FITL-8.8.3 AIR STRIKE conditions: a piece could be removed, or the Trail could be Degraded (above 0, above
        2 with shaded AAA, and no Momentum forbidding it)."""
        b = game.board
        floor = 2 if self.cap(game, 31, "shaded") else 0
        mom = getattr(game, "momentum_active", None)
        blocked = bool(mom and mom(39, "shaded"))
        if b.tracks["trail"] > floor and not blocked:
            return True
        return any(self.coin(game, s) and self.strikable(game, s) for s in self.spaces(game))

    def pacifiable(self, game: Any, s: str) -> bool:
        """FITL-3.2.1 / FITL-8.8.8: a US Train space where Pacify could shift Support or remove Terror."""
        b = game.board
        return (
            b.control(s) == "coin"
            and self.pop(game, s) > 0
            and (b.support[s] < 2 or b.terror[s] > 0)
            and bool(b.count(s, "US"))
        )

    def pacify_value(self, game: Any, s: str) -> int:
        """FITL-8.8.8: the Support a US Pacification in ``s`` could add (levels up to Active Support, times
        Population), for choosing the extra Training space of 8.8.7."""
        b = game.board
        return max(0, min(2, 2 - b.support[s])) * self.pop(game, s)

    def train_useful(self, game: Any) -> bool:
        """FITL-8.8.7 IF NONE: Training places Irregulars, ARVN pieces at a US Base, or Pacifies somewhere."""
        b = game.board
        pay = game.spendable("US") >= 3
        arvn = sum(b.available[k] for k in ("arvn_troops", "arvn_police", "arvn_rangers"))
        for s in game.train_spaces("US"):
            base = b.count(s, "US", "bases")
            if not base and b.available["us_irregulars"]:
                return True
            if base and pay and arvn:
                return True
            if pay and b.control(s) == "coin" and self.pop(game, s) and (b.support[s] < 2 or b.terror[s]):
                return True
        return False

    # ------------------------------------------------------------------ the flowchart (8.8)
    def assault_removes(self, game: Any) -> bool:
        """FITL-8.8.3 IF NONE: some US Assault (alone) could remove an enemy piece."""
        b = game.board
        for s in self.spaces(game):
            if not b.pieces[s]["us_troops"]:
                continue
            if self.removable(game, s)[0] > 0:
                return True
        return False

    def lift_assault_space(self, game: Any, limited: bool) -> str | None:
        """FITL-8.8.3 IF NONE with its AIR LIFT: a space where US Troops Air Lifted from the 8.8.3 origins would let
        a US Assault remove at least one enemy piece (1 Troop, 2 in Highland without a US Base, FITL-3.2.4), so the
        Assault is possible although no US Troops can remove anything where they stand.  None with a Limited
        Operation (no Special Activity) or when a Momentum forbids Air Lift."""
        if limited or game.sa_banned("air_lift"):
            return None
        b = game.board
        pol = self.policy(game)
        for d in self.spaces(game):
            if game.in_nvn(d) or (game.in_laos_cambodia(d) and (pol != "Nixon" or game.monsoon)):
                continue
            p = b.pieces[d]
            exposed = p["nva_troops"] + p["nva_guerrillas:a"] + p["vc_guerrillas:a"]
            bare_base = p["nva_bases"] + p["vc_bases"] and not p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
            if not (exposed or bare_base) or self.removable(game, d)[0] > 0:
                continue
            per_piece = 2 if game.terrain(d) == "highland" and not b.count(d, "US", "bases") else 1
            need = max(0, per_piece - p["us_troops"])
            if need and sum(t for _, t in self.lift_origins(game, {d})) >= need:
                return d
        return None

    def plan(self, game: Any, limited: bool) -> Plan:
        """FITL-8.8.2 to FITL-8.8.7 in the flowchart's order: the Capability check; Assault; Patrol (Monsoon) or Sweep
        (not Monsoon) on their conditions; then the Event unless declined or Ineffective; then Train; Train's
        IF NONE Sweep (not in Monsoon) or Pass."""
        cap, capwhy = self.capability_step(game)
        if cap == "pass":
            return Plan(None, reason=f"US 8.8.2: Pass (+3 ARVN Resources): {capwhy}", cap_pass=True)
        rest = self.flow(game, limited, event_ok=cap is None)
        if cap == "play":  # FITL-8.8.2 first, whatever Operation would follow; if not offered, the Operation
            return Plan(
                rest.op, rest.sas, rest.when, rest.reason, True, f"US 8.8.2: play the Event: {capwhy}"
            )
        if cap == "decline" and rest.op is not None:
            return Plan(rest.op, rest.sas, rest.when, rest.reason + f" (8.8.2 {capwhy})")
        return rest

    def op_sas(self, op: str, pol: str) -> tuple[str, ...]:
        """The Special Activities after each Operation by US Policy (FITL-8.8.3 to FITL-8.8.7)."""
        if op == "assault":
            return ("air_lift", "air_strike")
        if op == "sweep":
            return ("air_strike",) if pol == "LBJ" else ("air_lift", "air_strike")
        if op == "patrol":
            return (
                ("air_strike", "advise", "air_lift") if pol == "LBJ" else ("advise", "air_lift", "air_strike")
            )
        return ("air_strike", "advise") if pol == "LBJ" else ("advise", "air_lift", "air_strike")

    def flow(self, game: Any, limited: bool, event_ok: bool) -> Plan:
        b = game.board
        pol = self.policy(game)

        def made(got: tuple[str, str], event: bool = False, why: str = "") -> Plan:
            op, reason = got
            if op == "train":
                reason += f" (US Policy {pol})"
            return Plan(op, self.op_sas(op, pol), "later", reason, event, why)

        base = [s for s in self.spaces(game) if b.pieces[s]["us_troops"] and self.removable(game, s)[2]]
        nva_with_us = [
            s
            for s in self.spaces(game)
            if b.pieces[s]["nva_troops"] and (b.pieces[s]["us_troops"] or b.count(s, "US", "bases"))
        ]
        train = ("train", "US 8.8.7: Train (no other Operation's condition applies)")
        sweep_if_none = ("sweep", "US 8.8.7 IF NONE: Training would place or Pacify nothing: Sweep")
        # 8.8.3 Assault, whose IF NONE is the Sweep of 8.8.5 (the US tried to Assault), then Train (8.8.5 IF NONE)
        if base or nva_with_us:
            why = (
                f"US 8.8.3: Assault because it can remove a Base in {game.sname(base[0])}"
                if base
                else f"US 8.8.3: Assault because NVA Troops share {game.sname(nva_with_us[0])} with US forces"
            )
            lift_to = None if self.assault_removes(game) else self.lift_assault_space(game, limited)
            if lift_to:
                why += f" (an Air Lift into {game.sname(lift_to)} lets the Assault remove pieces there)"
            chain = [("assault", why)] if self.assault_removes(game) or lift_to else []
            if not game.monsoon and self.sweep_useful(game):
                chain.append(
                    ("sweep", "US 8.8.3 IF NONE: no US Assault can remove an enemy piece: Sweep (8.8.5)")
                )
            if self.train_useful(game):
                chain.append(("train", "US 8.8.5 IF NONE: no Sweep possible: Train (8.8.7)"))
            got = self.first_possible(game, limited, chain)
            if got is not None:
                return made(got)
            return Plan(
                None, reason="US 8.8.5 IF NONE: no Assault, Sweep or Train possible: Pass (+3 ARVN Resources)"
            )
        pre: list[tuple[str, str]] = []
        if game.monsoon:
            lc = [s for s in self.spaces(game) if game.in_laos_cambodia(s) and b.pieces[s]["us_troops"]]
            if lc:
                pre.append(("patrol", "US 8.8.4: Monsoon: Patrol US Troops out of Laos/Cambodia"))
        else:
            ug = [
                s
                for s in self.spaces(game)
                if b.support[s] > 0 and (b.pieces[s]["nva_guerrillas:u"] or b.pieces[s]["vc_guerrillas:u"])
            ]
            if ug:
                pre.append(
                    (
                        "sweep",
                        f"US 8.8.5: Sweep because Underground Guerrillas sit in {len(ug)} space(s) "
                        "with Support",
                    )
                )
        got = self.first_possible(game, limited, pre)
        if got is not None:
            return made(got)
        # 8.8.6: the Event, unless declined (8.4.1) or Ineffective (8.1); its Operation if the Event is not offered
        ev, evwhy = self.event_step(game) if event_ok else (False, "")
        if event_ok and not ev:
            evwhy = f"US 8.8.6: no Event: {evwhy}"
        post = ([train] if self.train_useful(game) else []) + (
            [sweep_if_none] if not game.monsoon and self.sweep_useful(game) else []
        )
        got = self.first_possible(game, limited, post)
        if got is None:
            return Plan(
                None,
                event=ev,
                event_why=f"US 8.8.6: play the Event: {evwhy}" if ev else "",
                reason="US 8.8.7 IF NONE: no Operation possible, Pass (+3 ARVN Resources)"
                + (f"; {evwhy}" if evwhy and not ev else ""),
            )
        p = made(got, ev, f"US 8.8.6: play the Event: {evwhy}" if ev else "")
        if evwhy and not ev:
            p.reason += f"; {evwhy}"
        return p

    def sweep_useful(self, game: Any) -> bool:
        b = game.board
        return any(
            b.pieces[s]["nva_guerrillas:u"] + b.pieces[s]["vc_guerrillas:u"]
            for s in self.spaces(game)
            if self.svn(game, s)
        )

    def on_yesno(self, game: Any, decision: Decision) -> Action:
        if decision.context.get("step") == "trail":
            self.why("8.8.3", "Air Strike: spend 2 hits to Degrade the Trail if possible")
            return self.first(decision, "yes") or decision.options[0]
        return super().on_yesno(game, decision)

    # ------------------------------------------------------------------ Air Lift (8.8.3)
    def troops_needed(self, game: Any, d: str) -> int:
        """US Troops to add in ``d`` so a US Assault there removes every Active enemy piece (FITL-3.2.4 formula)."""
        b = game.board
        p = b.pieces[d]
        exposed = p["nva_troops"] + p["nva_guerrillas:a"] + p["vc_guerrillas:a"]
        if not exposed:
            return 0
        t = p["us_troops"]
        if b.count(d, "US", "bases"):
            want = -(-exposed // 2)
        elif game.terrain(d) == "highland":
            want = 2 * exposed
        else:
            want = exposed
        return max(0, want - t)

    def lift_origins(self, game: Any, exclude: set[str]) -> list[tuple[str, int]]:
        """FITL-8.8.3 AIR LIFT origins with the US Troops each may give: first spaces without COIN Control, Support
        or a US Base (Laos/Cambodia first, most Troops: all their US units), then Troops not needed to keep COIN
        Control or, with Support, 3 COIN units."""
        b = game.board
        first, second = [], []
        for s in self.spaces(game):
            t = b.pieces[s]["us_troops"]
            if not t or s in exclude or game.in_nvn(s):
                continue
            if b.control(s) != "coin" and b.support[s] <= 0 and not b.count(s, "US", "bases"):
                first.append((1 if game.in_laos_cambodia(s) else 0, t, s))
                continue
            spare = t
            if b.control(s) == "coin":
                spare = min(spare, self.coin(game, s) - self.insurgents(game, s) - 1)
            if b.support[s] > 0:
                spare = min(spare, self.coin(game, s) - 3)
            if self.insurgents(game, s):
                spare = min(spare, t - self.troops_needed_keep(game, s))
            if spare > 0:
                second.append((spare, s))
        out = [(s, t) for _, t, s in sorted(first, reverse=True)]
        out += [(s, t) for t, s in sorted(second, reverse=True)]
        return out[: 1 if game.monsoon else 3]

    def emptied_origin(self, game: Any, s: str) -> bool:
        """FITL-8.8.3 AIR LIFT: a first-kind origin (no COIN Control, no Support, no US Base), which the Air Lift
        empties of its US Troops: what the destination does not need goes along with the rest, none is left
        behind (decision F-178)."""
        b = game.board
        return b.control(s) != "coin" and b.support[s] <= 0 and not b.count(s, "US", "bases")

    def troops_needed_keep(self, game: Any, s: str) -> int:
        p = game.board.pieces[s]
        return p["us_troops"] if p["nva_troops"] + p["nva_guerrillas:a"] + p["vc_guerrillas:a"] else 0

    def sweep_spare(self, game: Any, s: str) -> int:
        """FITL-8.8.5: the US Troops that may leave ``s`` to Sweep next door: all of them from Laos/Cambodia, else
        those not needed for its COIN Control or, at Support, for 3 COIN units."""
        b = game.board
        spare = b.pieces[s]["us_troops"]
        if game.in_laos_cambodia(s):
            return spare
        if control_after(game, s, -spare) != b.control(s):
            spare = max(0, self.coin(game, s) - self.insurgents(game, s) - 1) if b.control(s) == "coin" else 0
        if b.support[s] > 0:
            spare = min(spare, max(0, self.coin(game, s) - 3))
        return min(spare, b.pieces[s]["us_troops"])

    def sweep_reach(self, game: Any, d: str) -> int:
        """FITL-8.8.5 with 3.2.3: how many Underground Guerrillas a US Sweep of ``d`` could Activate with the US
        cubes there and the spare US Troops next to it (half, rounded down, in Jungle)."""
        b = game.board
        p = b.pieces[d]
        ug = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
        n = game.sweep_activations("US", d)[0] + sum(self.sweep_spare(game, x) for x in game.adjacent(d))
        return min(ug, n // 2 if game.terrain(d) == "jungle" else n)

    def sweep_need(self, game: Any, d: str) -> int:
        """US Troops to add in ``d`` so a Sweep there Activates every Underground Guerrilla (FITL-3.2.3)."""
        p = game.board.pieces[d]
        ug = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
        have = game.sweep_activations("US", d)[0]
        return max(0, ug * (2 if game.terrain(d) == "jungle" else 1) - have)

    def sweep_lift_plan(self, game: Any) -> tuple[str, str, int] | None:
        """FITL-8.8.5 / 8.8.3 AIR LIFT during a Sweep (JFK or Nixon): into the selected Sweep spaces with no more
        than 2 NVA Troops, where the added Troops Activate all Underground Guerrillas first, Support, Bases and
        Population first; from the 8.8.3 origins (up to 3, 1 in Monsoon)."""
        pol = self.policy(game)
        m = self.memo()
        used = set(m.get("lift_used", []))
        limit = 2 if game.monsoon else 4
        best = None
        for d in m.get("sweep_chosen", []):
            if game.in_laos_cambodia(d) and (pol != "Nixon" or game.monsoon):
                continue
            if game.board.pieces[d]["nva_troops"] > 2:
                continue
            need = self.sweep_need(game, d)
            if need <= 0:
                continue
            b = game.board
            k = (
                1 if b.support[d] > 0 else 0,
                1 if b.count(d, ptype="bases") else 0,
                self.pop(game, d),
                -need,
            )
            if best is None or k > best[0]:
                best = (k, d, need)
        if best is None:
            return None
        _, d, need = best
        for o, spare in self.lift_origins(game, {d} | set(m.get("sweep_chosen", []))):
            if len(used | {o, d}) <= limit:
                return o, d, spare if self.emptied_origin(game, o) else min(need, spare)
        return None

    def lift_plan(self, game: Any) -> tuple[str, str, int] | None:
        """(origin, destination, Troops): the next Air Lift toward an Assault that removes every Active enemy (or,
        during a Sweep, toward Activating every Underground Guerrilla)."""
        if self.op_memo.get("op") == "sweep":
            return self.sweep_lift_plan(game)
        pol = self.policy(game)
        m = self.memo()
        used = set(m.get("lift_used", []))
        limit = 2 if game.monsoon else 4
        best = None
        for d in self.spaces(game):
            if game.in_nvn(d) or (game.in_laos_cambodia(d) and (pol != "Nixon" or game.monsoon)):
                continue
            need = self.troops_needed(game, d)
            if need <= 0:
                continue
            p = game.board.pieces[d]
            base = 1 if p["nva_bases"] + p["vc_bases"] else 0
            nva_ctl = self.pop(game, d) if game.board.control(d) == "nva" else 0
            k = (nva_ctl, base, self.pop(game, d), -need)
            if best is None or k > best[0]:
                best = (k, d, need)
        if best is None:
            return None
        _, d, need = best
        for o, spare in self.lift_origins(game, {d}):
            if len(used | {o, d}) <= limit:
                return o, d, spare if self.emptied_origin(game, o) else min(need, spare)
        return None

    def sa_wanted(self, game: Any, decision: Decision, sa: str) -> bool:
        if sa == "air_lift":
            if decision.context.get("op") == "sweep":
                return (
                    self.policy(game) != "LBJ"
                    and not self.memo().get("sweep_done")
                    and self.sweep_lift_plan(game) is not None
                )
            return decision.context.get("op") == "assault" and self.lift_plan(game) is not None
        if sa == "air_strike":
            return self.air_strike_useful(game)
        return True

    # ------------------------------------------------------------------ Air Strike (8.8.3)
    @staticmethod
    def strikable(game: Any, s: str) -> int:
        """Enemy pieces an Air Strike could remove in ``s`` (FITL-4.2.3: Active ones; Bases once no other)."""
        p = game.board.pieces[s]
        act = p["nva_troops"] + p["nva_guerrillas:a"] + p["vc_guerrillas:a"]
        under = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
        return act + (p["nva_bases"] + p["vc_bases"] if not under else 0)

    @staticmethod
    def nva_ctl_need(game: Any, s: str) -> int:
        """Removals of NVA pieces that end NVA Control of ``s`` (FITL-1.7); 0 if not NVA-Controlled."""
        b = game.board
        if b.control(s) != "nva":
            return 0
        return b.count(s, "NVA") - (b.count(s, "US") + b.count(s, "ARVN") + b.count(s, "VC"))

    @staticmethod
    def saigon_distance(game: Any, s: str) -> int:
        """Spaces between Saigon and ``s`` along the map's adjacencies (FITL-8.8.3 'closest to Saigon')."""
        seen, frontier, d = {"saigon"}, ["saigon"], 0
        while frontier:
            if s in frontier:
                return d
            nxt = []
            for x in frontier:
                for y in sorted(game.data.adjacent[x]):
                    if y not in seen:
                        seen.add(y)
                        nxt.append(y)
            frontier, d = nxt, d + 1
        return 99

    def strike_space_key(self, game: Any, s: str) -> tuple[int, ...] | None:
        """FITL-8.8.3 AIR STRIKE priorities for a space (higher first), None where nothing could be removed:
        3 NVA Control of the most Population (not 0); 2 LoCs with US or ARVN pieces, nearest Saigon first;
        1 Bases, then 0 the most pieces, each first at Active Opposition, then the lowest Population."""
        b = game.board
        n = self.strikable(game, s)
        if not n:
            return None
        need = self.nva_ctl_need(game, s)
        pop = self.pop(game, s)
        if need and pop and self.available_hits_ok(game, s, need):
            return (3, pop, -need, 0)
        if game.is_loc(s) and self.coin(game, s):
            return (2, -self.saigon_distance(game, s), 0, 0)
        p = b.pieces[s]
        under = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
        base = 1 if p["nva_bases"] + p["vc_bases"] and not under else 0
        return (1 if base else 0, 1 if b.support[s] == -2 else 0, -pop, n)

    def available_hits_ok(self, game: Any, s: str, need: int) -> bool:
        """The Active NVA pieces in ``s`` are enough to end its NVA Control by Air Strike alone."""
        p = game.board.pieces[s]
        nva_act = p["nva_troops"] + p["nva_guerrillas:a"]
        under = p["nva_guerrillas:u"] + p["vc_guerrillas:u"] + p["vc_guerrillas:a"] + p["vc_bases"]
        removable = nva_act + (0 if under or p["nva_guerrillas:u"] else p["nva_bases"])
        return removable >= need

    def strike_piece(self, game: Any, decision: Decision) -> Action:
        """FITL-8.8.3 AIR STRIKE removals with the hits left: end NVA Control of the most Population (the best set
        of spaces the hits can free, and no more removals there once freed), then LoCs with US or ARVN pieces
        nearest Saigon, then Bases, then the most pieces, each first at Active Opposition and lowest Population."""
        import re

        pieces = self.opts(decision, "piece")
        m = re.search(r"\((\d+) of up to (\d+)\)", decision.prompt)
        left = int(m.group(2)) - int(m.group(1)) + 1 if m else 1
        spaces = sorted({a["space"] for a in pieces})
        ctl = {
            s: self.nva_ctl_need(game, s) for s in spaces if self.nva_ctl_need(game, s) and self.pop(game, s)
        }
        best: tuple[int, int, tuple[str, ...]] = (0, 0, ())
        names = sorted(ctl)
        for mask in range(1, 1 << len(names)):
            sub = tuple(names[i] for i in range(len(names)) if mask >> i & 1)
            cost = sum(ctl[x] for x in sub)
            if cost > left or not all(self.available_hits_ok(game, x, ctl[x]) for x in sub):
                continue
            val = (sum(self.pop(game, x) for x in sub), -cost, sub)
            if val[:2] > best[:2]:
                best = val
        target = best[2]

        def key(a: Action) -> tuple[int, ...]:
            s, k = a["space"], a["key"]
            nva = k.startswith("nva_")
            if s in target:
                return (5 if nva else -1, self.pop(game, s), 0, 0)
            if game.is_loc(s) and self.coin(game, s):
                return (4, -self.saigon_distance(game, s), 0, 0)
            base = 1 if "bases" in k else 0
            return (2 + base, 1 if game.board.support[s] == -2 else 0, -self.pop(game, s), 0)

        a = self.pick(game, pieces, key)
        k = key(a)
        if k[0] == 5:
            why = "end NVA Control of the most Population the hits can free"
        elif k[0] == 4:
            why = "a LoC with US or ARVN pieces, nearest Saigon first"
        elif k[0] == 3:
            why = "remove a Base, Active Opposition and lowest Population first"
        else:
            why = "the most pieces, Active Opposition and lowest Population first"
        self.why("8.8.3", f"Air Strike removes {a.label}: {why}")
        return a

    def on_piece(self, game: Any, decision: Decision) -> Action:
        if (
            decision.context.get("sa") == "air_strike"
            and decision.context.get("step") == "remove"
            and self.opts(decision, "piece")
        ):
            return self.strike_piece(game, decision)
        return super().on_piece(game, decision)

    # ------------------------------------------------------------------ spaces
    def on_space(self, game: Any, decision: Decision) -> Action:
        step, op, sa, spaces, done = self.space_decision(decision)
        b = game.board
        pol = self.policy(game)
        scored: list[tuple[Any, Action, str]] = []
        during: dict[str, Action] = {}
        if step == "follow_up":
            if b.tracks["arvn_resources"] - b.tracks["econ"] >= 3:
                for a in spaces:
                    n, _ = game.assault_count("ARVN", a["space"])
                    if n > 0:
                        scored.append(((n,), a, "ARVN Resources exceed Econ by 3+: add an ARVN Assault"))
        elif step == "assault" and op == "patrol":
            scored = [
                ((self.insurgents(game, a["space"]),), a, "Assault to remove the most enemy pieces")
                for a in spaces
            ]
        elif step == "sa_space" and sa == "air_strike":
            for a in spaces:
                k = self.strike_space_key(game, a["space"])
                if k is not None:
                    scored.append(
                        (
                            k,
                            a,
                            "Air Strike space: NVA Control (most Population), then LoCs with COIN "
                            "pieces nearest Saigon, then Bases and pieces in Active Opposition first, "
                            "lowest Population first",
                        )
                    )
        elif step == "sa_space" and sa == "advise":
            for a in spaces:
                s = a["space"]
                n, _ = game.assault_count("ARVN", s)
                p = b.pieces[s]
                ctl = (
                    1
                    if control_after(game, s, 0, -min(n, self.insurgents(game, s))) == "coin"
                    and b.control(s) != "coin"
                    else 0
                )
                ug = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
                scored.append(
                    (
                        (ctl, 1 if n else 0, n, ug),
                        a,
                        "Advise: add COIN Control, remove enemies, then Activate Underground Guerrillas",
                    )
                )
        elif step == "sa_space":
            scored = [((0,), a, "") for a in spaces]
        elif op == "assault" and step == "space":
            during = {a["sa"]: a for a in decision.options if a.kind == "sa"}
            capped = self.cap(game, 13, "shaded") or self.cap(game, 11, "shaded")  # Cobras / Abrams: 2 spaces
            snd = self.cap(game, 28, "shaded")  # Search and Destroy: spare Provinces at Support
            for a in spaces:
                s = a["space"]
                n, exposed, base = self.removable(game, s)
                if n <= 0 or (capped and self.counts()["assault"] >= 2):
                    continue
                if (
                    snd
                    and game.kind(s) == "province"
                    and b.support[s] > 0
                    and not base
                    and not b.pieces[s]["nva_troops"]
                ):
                    continue
                tier = 2 if n >= exposed else 1 if 2 * n > exposed else 0
                nva_ctl = self.pop(game, s) if b.control(s) == "nva" else 0
                scored.append(
                    (
                        (
                            tier,
                            nva_ctl,
                            1 if base else 0,
                            1 if b.count(s, "US", "bases") else 0,
                            self.pop(game, s),
                            n,
                        ),
                        a,
                        [
                            "Assault where any enemy can be removed",
                            "Assault to remove more than half",
                            "Assault to remove all Active enemies",
                        ][tier],
                    )
                )
        elif op == "sweep":
            extra = self.counts()["sweep_no_us"]
            if self.cap(game, 101, "shaded") or self.cap(game, 18, "shaded"):  # Booby Traps / CAPs: 2 spaces
                spaces = spaces if self.counts()["sweep"] < 2 else []
            for a in spaces:
                s = a["space"]
                p = b.pieces[s]
                if not (p["nva_guerrillas:u"] + p["vc_guerrillas:u"]):
                    continue
                has_us = 1 if b.count(s, "US") else 0
                if not has_us and extra >= 2:
                    continue
                if game.in_laos_cambodia(s) and pol != "Nixon":
                    continue
                if not self.sweep_reach(game, s):
                    continue  # F-178: no Sweep where nothing could be Activated (Jungle: 2 cubes a Guerrilla)
                bases = 1 if b.count(s, ptype="bases") else 0
                scored.append(
                    (
                        (has_us, 1 if b.support[s] > 0 else 0, bases, self.pop(game, s)),
                        a,
                        "Sweep spaces with Underground Guerrillas: US pieces first, Support, Bases, "
                        "Population",
                    )
                )
        elif op == "train":
            irr = b.available["us_irregulars"] > 0
            cubes_done = self.counts()["cubes"]
            for a in spaces:
                s = a["space"]
                p = b.pieces[s]
                if not b.count(s, "US", "bases"):
                    if irr:
                        scored.append(
                            (
                                (
                                    3,
                                    1 if game.kind(s) == "province" else 0,
                                    0 if p["us_irregulars:u"] + p["us_irregulars:a"] else 1,
                                ),
                                a,
                                "Irregulars where no US Base, Provinces first, none there yet",
                            )
                        )
                elif not cubes_done and pol in ("JFK", "LBJ", "Nixon") and game.spendable("US") >= 3:
                    gain = 1 if control_after(game, s, 6) == "coin" and b.control(s) != "coin" else 0
                    scored.append(
                        (
                            (2, gain, 1 if b.control(s) == "nva" else 0),
                            a,
                            "ARVN pieces at 1 US Base, where they add COIN Control first",
                        )
                    )
            chosen = self.memo().setdefault("train_chosen", [])
            extra = self.counts()["pacify_extra"]
            wanted = 2 if self.cap(game, 19, "unshaded") else 1  # unshaded CORDS: a 2nd Pacify space
            have = sorted(
                (self.pacify_value(game, x) for x in chosen if self.pacifiable(game, x)), reverse=True
            )
            if game.spendable("US") >= 3 and extra < wanted:
                for a in spaces:
                    v = self.pacify_value(game, a["space"])
                    # 8.8.7: Train (placing nothing) beyond the above spaces where it lets the US Pacify more
                    if (
                        self.pacifiable(game, a["space"])
                        and not any(a is x for _, x, _ in scored)
                        and (len(have) < wanted or v > have[wanted - 1])
                    ):
                        scored.append(
                            (
                                (1, v),
                                a,
                                "Train (placing nothing) where it lets the US Pacify to the "
                                "maximum extent (8.8.7, 8.8.8)",
                            )
                        )
        if op == "sweep" and step == "space" and not scored:
            self.memo()["sweep_done"] = True  # the Air Lift of 8.8.5 comes now or not at all
        if (
            op == "sweep"
            and step == "space"
            and not scored
            and "air_lift" in during_sas(decision)
            and pol != "LBJ"
            and self.sweep_lift_plan(game) is not None
        ):
            self.why(
                "8.8.5",
                "Air Lift now (Policy " + pol + "), into the selected Sweep spaces that need Troops to "
                "Activate their Underground Guerrillas (decision F-78)",
            )
            return during_sas(decision)["air_lift"]
        if op == "assault" and step == "space" and not any(k[0] == 2 for k, _, _ in scored):
            for name in (
                "air_lift",
                "air_strike",
            ):  # 8.8.3: after the first Assaults, Air Lift, else Air Strike
                if name in during and self.sa_wanted(game, decision, name):
                    self.why(
                        "8.8.3",
                        f"{name.replace('_', ' ').title()} now, between the Assaults that remove all "
                        "Active enemies and the others",
                    )
                    return during[name]
        if not scored:
            return self.no_space(decision, spaces, done, sa or op)
        a, w, top = self.top_space(game, scored)
        s = a["space"]
        if op == "sweep" and step == "space":
            self.memo().setdefault("sweep_chosen", []).append(s)
            self.counts()["sweep"] += 1
            if not b.count(s, "US"):
                self.counts()["sweep_no_us"] += 1
        if op == "assault" and step == "space":
            self.counts()["assault"] += 1
        if op == "train" and step == "space" and top[0] == 2:
            self.counts()["cubes"] += 1
        if op == "train" and step == "space":
            if top[0] == 1:
                self.counts()["pacify_extra"] += 1
            self.memo().setdefault("train_chosen", []).append(s)
            self.memo()[f"train_tier:{s}"] = top[0]
        self.why(self.rule_for(decision), f"{a.label}: {w}")
        return a

    def on_place(self, game: Any, decision: Decision) -> Action:
        """FITL-8.8.7: 1 Irregular (2 under JFK) where no US Base; at a US Base 6 ARVN cubes (Rangers first under
        Nixon, or when no cubes are Available)."""
        s = decision.context.get("space")
        b = game.board
        pol = self.policy(game)
        opts = self.opts(decision, "place")
        if self.memo().get(f"train_tier:{s}") == 1:
            a = next(
                (a for a in opts if not (a["irregulars"] + a["rangers"] + a["troops"] + a["police"])), opts[0]
            )
            self.why("8.8.7", f"{a.label}: this Training space is only for Pacification")
            return a
        if not b.count(s, "US", "bases"):
            want = 2 if pol == "JFK" else 1
            irr = [a for a in opts if a["irregulars"]]
            if irr:
                a = min(irr, key=lambda a: abs(a["irregulars"] - want))
                self.why("8.8.7", f"{a.label}: Irregulars where there is no US Base (Policy {pol})")
                return a
        cubes = [a for a in opts if a["troops"] + a["police"]]
        rangers = [a for a in opts if a["rangers"]]
        first, second = (rangers, cubes) if pol == "Nixon" else (cubes, rangers)
        pool = first or second
        if pool:
            a = self.even_cubes(game, s, cubes) if pool is cubes else max(rangers, key=lambda a: a["rangers"])
            self.why("8.8.7", f"{a.label}: ARVN pieces at a US Base (Policy {pol})")
            return a
        a = opts[0]
        self.why("8.8.7", f"{a.label}: nothing more to place here")
        return a

    def on_train_extra(self, game: Any, decision: Decision) -> Action:
        """FITL-8.8.7 / FITL-8.8.8: no Patronage transfer (ARVN is not a player here); Pacify where no Police first,
        then the greatest shift, then no Terror."""
        b = game.board
        scored = []
        for a in self.opts(decision, "pacify"):
            s = a["space"]
            if a["levels"] == 0:
                continue
            scored.append(
                (
                    (
                        0 if b.pieces[s]["arvn_police"] else 1,
                        a["levels"] * self.pop(game, s),
                        0 if b.terror[s] else 1,
                    ),
                    a,
                )
            )
        return self.first_best(
            decision,
            scored,
            "8.8.8",
            "Pacify to the maximum, no Police first, greatest shift",
            "8.8.7",
            "no Pacification possible (ARVN is a Non-player: no Patronage transfer)",
        )

    def on_pacify(self, game: Any, decision: Decision) -> Action:
        """FITL-8.8.8 in the Support Phase: greatest shift, then no Terror, then random; Terror only with a shift."""
        b = game.board
        scored = [
            ((self.pop(game, s), 0 if b.terror[s] else 1), a)
            for s, a in self.pacify_steps(game, decision, keep=b.tracks["econ"])
        ]
        return self.support_step(
            game,
            decision,
            scored,
            "8.8.8",
            "greatest shift, no Terror first",
            "no Pacification step would achieve a shift: stop",
        )

    def on_mode(self, game: Any, decision: Decision) -> Action:
        modes = self.modes(decision)
        if decision.context.get("sa") == "advise":
            s = decision.context.get("space")
            n, _ = game.assault_count("ARVN", s) if s in game.data.spaces else (0, "")
            for m in (("assault",) if n else ()) + ("strike", "sweep", "assault"):
                if m in modes:
                    self.why("8.8.4", f"Advise: {modes[m].label}")
                    return modes[m]
        return None  # type: ignore[return-value]

    # ------------------------------------------------------------------ Sweep and Patrol movement
    def movement_count(self, game: Any, decision: Decision) -> int | None:
        c = decision.context
        if c.get("sa") == "air_lift":
            lift = self.memo().get("lift")
            return (lift[1] if lift else 1) if c.get("key") == "us_troops" else 0
        return None if c.get("sa") else self.memo().get("count_want")

    def on_move(self, game: Any, decision: Decision) -> Action:
        c = decision.context
        b = game.board
        if c.get("op") != "sweep":
            return None  # type: ignore[return-value]
        pol = self.policy(game)
        best = None
        for a in self.opts(decision, "move"):
            s, d = a["origin"], a["space"]
            if game.in_laos_cambodia(d) and pol != "Nixon":
                continue
            if b.pieces[d]["nva_troops"] > 2:
                continue
            need = self.sweep_need(game, d)
            spare = self.sweep_spare(game, s)
            have = game.sweep_activations("US", d)[0]
            jungle = game.terrain(d) == "jungle"
            if jungle and (have + min(need, spare)) // 2 == have // 2:
                continue  # F-178: a Troop that would Activate nothing in Jungle is not moved
            if need > 0 and spare > 0:
                k = (
                    1 if game.in_laos_cambodia(s) else 0,
                    1 if need <= spare else 0,
                    1 if b.support[d] > 0 else 0,
                    1 if b.count(d, ptype="bases") else 0,
                    self.pop(game, d),
                )
                if best is None or k > best[0]:
                    best = (k, a, min(need, spare))
        return self.sweep_move(
            decision, best, "count_want", "8.8.5", "Troops to Activate the Underground Guerrillas there"
        )

    def on_move_from(self, game: Any, decision: Decision) -> Action:
        c = decision.context
        if c.get("op") == "patrol" and not c.get("sa"):
            for a in self.opts(decision, "move_from"):
                if game.in_laos_cambodia(a["space"]) and a["key"] == "us_troops":
                    self.memo()["count_want"] = game.board.pieces[a["space"]]["us_troops"]
                    self.why("8.8.4", f"{a.label}: every US Troop out of Laos/Cambodia")
                    return a
            self.why("8.8.4", "Patrol: no US Troops left in Laos/Cambodia")
            return self.first(decision, "done") or decision.options[-1]
        if c.get("sa") == "air_lift":
            plan = self.lift_plan(game)
            offered = {a["space"]: a for a in self.opts(decision, "move_from")}
            if plan and plan[0] in offered:
                o, d, n = plan
                m = self.memo()
                m["lift"] = (d, n)
                m.setdefault("lift_used", []).extend([o, d])
                self.why(
                    "8.8.3",
                    f"Air Lift {n} US Troops from {game.sname(o)} to {game.sname(d)} so the Assault "
                    "there removes every Active enemy"
                    + (
                        f" (all of {game.sname(o)}'s: an origin without COIN Control, Support or US Base is "
                        "emptied)"
                        if self.emptied_origin(game, o)
                        else ""
                    ),
                )
                return offered[o]
            self.why("8.8.3", "Air Lift: no further lift helps an Assault (decision F-78)")
            return self.first(decision, "done") or decision.options[0]
        self.why("8.8.3", "no Air Lift priority applies (decision F-78)")
        return self.first(decision, "done") or decision.options[-1]

    def on_move_to(self, game: Any, decision: Decision) -> Action:
        c = decision.context
        if c.get("sa") == "air_lift" and self.memo().get("lift"):
            d = self.memo()["lift"][0]
            for a in self.opts(decision, "move_to"):
                if a["space"] == d:
                    self.why("8.8.3", f"Air Lift to {game.sname(d)} (planned)")
                    return a
        if c.get("op") == "patrol" and not c.get("sa"):
            b = game.board
            opts = [a for a in self.opts(decision, "move_to") if self.svn(game, a["space"])] or self.opts(
                decision, "move_to"
            )
            a = self.pick(
                game,
                opts,
                lambda a: (
                    1 if game.is_city(a["space"]) and b.support[a["space"]] < 2 else 0,
                    0 if self.insurgents(game, a["space"]) else 1,
                ),
            )
            self.why(
                "8.8.4", f"Patrol to {game.sname(a['space'])}: a City in South Vietnam with no Active Support"
            )
            return a
        return None  # type: ignore[return-value]

    # ------------------------------------------------------------------ Commitment (8.8.9)
    def base_spaces(self, game: Any) -> list[str]:
        return [s for s in self.spaces(game) if game.board.count(s, "US", "bases")]

    def on_commit_place(self, game: Any, decision: Decision) -> Action:
        self.commitment_policy(game)
        bases = self.base_spaces(game)
        opts = [a for a in self.opts(decision, "place") if a["n"] == 1]
        pool = [a for a in opts if a["space"] in bases] or [a for a in opts if a["space"] == "saigon"] or opts
        a = min(pool, key=lambda a: (game.board.pieces[a["space"]]["us_troops"], a["space"]))
        self.why("8.8.9", f"{a.label}: as even as possible at the US Bases (else Saigon)")
        return a

    def on_commit_from(self, game: Any, decision: Decision) -> Action:
        pol = self.commitment_policy(game)
        b = game.board
        m = self.op_memo.setdefault(f"commit:{game.coups_held}", {"bases": 0})
        opts = self.opts(decision, "commit_from")
        target = POLICY_TARGET[pol]
        b_ok = any(
            game.is_pc(s)
            and b.control(s) == "coin"
            and not b.count(s, "US", "bases")
            and not b.count(s, "ARVN", "bases")
            and game.base_room(s)
            for s in game.commit_locations()
        )
        if pol in ("JFK", "LBJ") and m["bases"] < 2 and b_ok:
            for a in opts:
                if a["piece"] == "us_bases" and a["source"] == "available":
                    m["want"] = ("base_in", 1)
                    self.why("8.8.9", f"Policy {pol}: add 2 US Bases to the map")
                    return a
        if pol == "Nixon" and m["bases"] < 2:
            outside = [
                a for a in opts if a["piece"] == "us_bases" and a["source"] not in ("available", "saigon")
            ]
            if outside:
                m["want"] = ("base_out", 1)
                self.why("8.8.9", "Policy Nixon: withdraw US Bases from outside Saigon")
                return outside[0]
        avail = b.available["us_troops"]
        if avail > target:
            for a in opts:
                if a["piece"] == "us_troops" and a["source"] == "available":
                    m["want"] = ("troops_in", 1)
                    self.why("8.8.9", f"Policy {pol}: {avail} US Troops Available, add toward {target}")
                    return a
        if avail < target:
            troops = [a for a in opts if a["piece"] == "us_troops" and a["source"] != "available"]
            if troops:
                bases = set(self.base_spaces(game))
                a = max(
                    troops,
                    key=lambda a: (
                        0 if a["source"] in bases or a["source"] == "saigon" else 1,
                        b.pieces[a["source"]]["us_troops"],
                    ),
                )
                m["want"] = ("troops_out", min(target - avail, b.pieces[a["source"]]["us_troops"]))
                self.why("8.8.9", f"Policy {pol}: {avail} US Troops Available, withdraw toward {target}")
                return a
        self.why("8.8.9", f"Policy {pol}: Available US forces are where the Policy wants them")
        return self.first(decision, "done") or decision.options[-1]

    def on_commit_to(self, game: Any, decision: Decision) -> Action:
        b = game.board
        m = self.op_memo.setdefault(f"commit:{game.coups_held}", {"bases": 0})
        want = m.get("want", ("", 1))
        opts = self.opts(decision, "commit_to")
        if want[0] == "base_in":
            good = [
                a
                for a in opts
                if a["dest"] != "available"
                and game.is_pc(a["dest"])
                and b.control(a["dest"]) == "coin"
                and not b.count(a["dest"], "US", "bases")
                and not b.count(a["dest"], "ARVN", "bases")
            ]
            m["bases"] += 1
            a = self.pick(game, good, lambda a: 0) if good else opts[0]
            self.why("8.8.9", f"{a.label}: a US Base where COIN Control and no US or ARVN Base")
            return a
        if want[0] in ("base_out", "troops_out"):
            if want[0] == "base_out":
                m["bases"] += 1
            back = [a for a in opts if a["dest"] == "available"]
            a = min(back, key=lambda a: abs(a["n"] - want[1])) if back else opts[0]
            self.why("8.8.9", f"{a.label}: withdraw per Policy")
            return a
        bases = self.base_spaces(game)
        pool = (
            [a for a in opts if a["dest"] in bases and a["n"] == 1]
            or [a for a in opts if a["dest"] == "saigon" and a["n"] == 1]
            or opts
        )
        a = min(
            pool, key=lambda a: (b.pieces[a["dest"]]["us_troops"] if a["dest"] in b.pieces else 99, a["dest"])
        )
        self.why("8.8.9", f"{a.label}: as even as possible at the US Bases (else Saigon)")
        return a
