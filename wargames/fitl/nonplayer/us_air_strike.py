"""Fire in the Lake: the Non-player US's Air Strikes (FITL-8.8 Special Activities, FITL-4.2.3): whether one is
wanted, which spaces and pieces it hits first; a mixin of :class:`~wargames.fitl.nonplayer.us.UsNonPlayer`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.actions import Action, Decision

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame


class UsAirStrike:
    """Mixin: the Non-player US's Air Strike choices (FITL-4.2.3 as the 8.8 flowchart plays it)."""

    def sa_wanted(self, game: FitlGame, decision: Decision, sa: str) -> bool:
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
    def strikable(game: FitlGame, s: str) -> int:
        """Enemy pieces an Air Strike could remove in ``s`` (FITL-4.2.3: Active ones; Bases once no other)."""
        p = game.board.pieces[s]
        act = p["nva_troops"] + p["nva_guerrillas:a"] + p["vc_guerrillas:a"]
        under = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
        return act + (p["nva_bases"] + p["vc_bases"] if not under else 0)

    @staticmethod
    def nva_ctl_need(game: FitlGame, s: str) -> int:
        """Removals of NVA pieces that end NVA Control of ``s`` (FITL-1.7); 0 if not NVA-Controlled."""
        b = game.board
        if b.control(s) != "nva":
            return 0
        return b.count(s, "NVA") - (b.count(s, "US") + b.count(s, "ARVN") + b.count(s, "VC"))

    @staticmethod
    def saigon_distance(game: FitlGame, s: str) -> int:
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

    def strike_space_key(self, game: FitlGame, s: str) -> tuple[int, ...] | None:
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

    def available_hits_ok(self, game: FitlGame, s: str, need: int) -> bool:
        """The Active NVA pieces in ``s`` are enough to end its NVA Control by Air Strike alone."""
        p = game.board.pieces[s]
        nva_act = p["nva_troops"] + p["nva_guerrillas:a"]
        under = p["nva_guerrillas:u"] + p["vc_guerrillas:u"] + p["vc_guerrillas:a"] + p["vc_bases"]
        removable = nva_act + (0 if under or p["nva_guerrillas:u"] else p["nva_bases"])
        return removable >= need

    def strike_piece(self, game: FitlGame, decision: Decision) -> Action:
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

    def on_piece(self, game: FitlGame, decision: Decision) -> Action:
        if (
            decision.context.get("sa") == "air_strike"
            and decision.context.get("step") == "remove"
            and self.opts(decision, "piece")
        ):
            return self.strike_piece(game, decision)
        return super().on_piece(game, decision)
