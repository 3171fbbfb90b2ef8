"""Fire in the Lake: the Non-player US in the Commitment Phase (FITL-8.8.9, FITL-6.5): which US pieces come and go,
keeping the Troops its Policy wants Available; a mixin of :class:`~wargames.fitl.nonplayer.us.UsNonPlayer`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.actions import Action, Decision

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame

POLICY_TARGET = {"JFK": 15, "LBJ": 5, "Nixon": 25}  # FITL-8.8.9: US Troops to keep Available


class UsCommitment:
    """Mixin: the Non-player US's Commitment (FITL-8.8.9)."""

    # ------------------------------------------------------------------ Commitment (8.8.9)
    def base_spaces(self, game: FitlGame) -> list[str]:
        return [s for s in self.spaces(game) if game.board.count(s, "US", "bases")]

    def on_commit_place(self, game: FitlGame, decision: Decision) -> Action:
        self.commitment_policy(game)
        bases = self.base_spaces(game)
        opts = [a for a in self.opts(decision, "place") if a["n"] == 1]
        pool = [a for a in opts if a["space"] in bases] or [a for a in opts if a["space"] == "saigon"] or opts
        a = min(pool, key=lambda a: (game.board.pieces[a["space"]]["us_troops"], a["space"]))
        self.why("8.8.9", f"{a.label}: as even as possible at the US Bases (else Saigon)")
        return a

    def _commit_base(self, game: FitlGame, pol: str, m: dict, opts: list[Action]) -> Action | None:
        """8.8.9 for the US Bases: under JFK or LBJ up to 2 Bases to the map while a COIN-controlled Province or
        City without a Base has room; under Nixon up to 2 Bases withdrawn from outside Saigon (None: no Base)."""
        b = game.board
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
        return None

    def on_commit_from(self, game: FitlGame, decision: Decision) -> Action:
        pol = self.commitment_policy(game)
        b = game.board
        m = self.op_memo.setdefault(f"commit:{game.coups_held}", {"bases": 0})
        opts = self.opts(decision, "commit_from")
        target = POLICY_TARGET[pol]
        base = self._commit_base(game, pol, m, opts)
        if base is not None:
            return base
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

    def on_commit_to(self, game: FitlGame, decision: Decision) -> Action:
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
