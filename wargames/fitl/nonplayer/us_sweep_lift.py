"""Fire in the Lake: the Non-player US plans its Sweeps and Air Lifts (FITL-8.8.5, FITL-8.8.3 with Air Lift,
FITL-4.2.1): how many Troops each space needs and can spare, where Troops may be lifted from and to; a mixin of
:class:`~wargames.fitl.nonplayer.us.UsNonPlayer`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .measures import control_after

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame


class UsSweepLift:
    """Mixin: the Non-player US's Sweep and Air Lift planning (FITL-8.8.3, FITL-8.8.5, FITL-4.2.1)."""

    def lift_assault_space(self, game: FitlGame, limited: bool) -> str | None:
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

    def sweep_useful(self, game: FitlGame) -> bool:
        b = game.board
        return any(
            b.pieces[s]["nva_guerrillas:u"] + b.pieces[s]["vc_guerrillas:u"]
            for s in self.spaces(game)
            if self.svn(game, s)
        )

    # ------------------------------------------------------------------ Air Lift (8.8.3)
    def troops_needed(self, game: FitlGame, d: str) -> int:
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

    def lift_origins(self, game: FitlGame, exclude: set[str]) -> list[tuple[str, int]]:
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

    def emptied_origin(self, game: FitlGame, s: str) -> bool:
        """FITL-8.8.3 AIR LIFT: a first-kind origin (no COIN Control, no Support, no US Base), which the Air Lift
        empties of its US Troops: what the destination does not need goes along with the rest, none is left
        behind (decision F-178)."""
        b = game.board
        return b.control(s) != "coin" and b.support[s] <= 0 and not b.count(s, "US", "bases")

    def troops_needed_keep(self, game: FitlGame, s: str) -> int:
        p = game.board.pieces[s]
        return p["us_troops"] if p["nva_troops"] + p["nva_guerrillas:a"] + p["vc_guerrillas:a"] else 0

    def sweep_spare(self, game: FitlGame, s: str) -> int:
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

    def sweep_reach(self, game: FitlGame, d: str) -> int:
        """FITL-8.8.5 with 3.2.3: how many Underground Guerrillas a US Sweep of ``d`` could Activate with the US
        cubes there and the spare US Troops next to it (half, rounded down, in Jungle)."""
        b = game.board
        p = b.pieces[d]
        ug = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
        n = game.sweep_activations("US", d)[0] + sum(self.sweep_spare(game, x) for x in game.adjacent(d))
        return min(ug, n // 2 if game.terrain(d) == "jungle" else n)

    def sweep_need(self, game: FitlGame, d: str) -> int:
        """US Troops to add in ``d`` so a Sweep there Activates every Underground Guerrilla (FITL-3.2.3)."""
        p = game.board.pieces[d]
        ug = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
        have = game.sweep_activations("US", d)[0]
        return max(0, ug * (2 if game.terrain(d) == "jungle" else 1) - have)

    def sweep_lift_plan(self, game: FitlGame) -> tuple[str, str, int] | None:
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

    def lift_plan(self, game: FitlGame) -> tuple[str, str, int] | None:
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
