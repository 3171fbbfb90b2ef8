"""Fire in the Lake: the Non-player ARVN answers the questions of its Operations (FITL-8.7.2 to FITL-8.7.6): which
spaces, what to place, the Train extra and Pacify; a mixin of :class:`~wargames.fitl.nonplayer.arvn.ArvnNonPlayer`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.actions import Action, Decision
from .measures import control_after

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame


class ArvnChoices:
    """Mixin: the Non-player ARVN's choices of spaces, placements, Train extras and Pacify (FITL-8.7)."""

    # ------------------------------------------------------------------ spaces
    def on_space(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-8.7.2 to FITL-8.7.5: the space the flowchart picks for the current step, or the Special Activity
        it makes before Train's Base or Pacify step (FITL-8.7.2)."""
        step, op, sa, spaces, done = self.space_decision(decision)
        scored = self._arvn_space_scores(game, step, op, sa, spaces, done)
        if op == "train" and step == "space" and not any(k[0] == 2 for k, _, _ in scored):
            during = {a["sa"]: a for a in decision.options if a.kind == "sa"}
            for name in ("govern", "transport"):
                if name in during and self.sa_wanted(game, decision, name):
                    self.why(
                        "8.7.2", f"Train: pause Training to {name.title()} before the Base or Pacify step"
                    )
                    return during[name]
        if not scored:
            return self.no_space(decision, spaces, done, sa or op)
        a, w, top = self.choose_space(game, scored, step)
        s = a["space"]
        if op == "train" and step == "space":
            self.memo().setdefault("train_chosen", []).append(s)
            self.memo()[f"train_tier:{s}"] = top[0]
        self.why(self.rule_for(decision), f"{a.label}: {w}")
        return a

    def _arvn_space_scores(
        self, game: FitlGame, step: str, op: str, sa: str, spaces: list[Action], done: Any
    ) -> list[tuple[Any, Action, str]]:
        """The spaces of this step with their priority keys and reasons (the flowchart box that applies)."""
        if step == "sa_space":
            return self._arvn_sa_space_scores(game, sa, spaces)
        if step == "assault" and op == "patrol":
            return [
                ((self.insurgents(game, a["space"]),), a, "free Assault on the LoC with the most enemies")
                for a in spaces
            ]
        if op == "train":
            scored = self._arvn_train_scores(game, spaces)
            return scored + self._arvn_train_pacify_scores(game, spaces, scored)
        if op == "assault":
            return self._arvn_assault_scores(game, spaces, done)
        if op == "sweep":
            return self._arvn_sweep_scores(game, spaces)
        return []

    def _arvn_sa_space_scores(
        self, game: FitlGame, sa: str, spaces: list[Action]
    ) -> list[tuple[Any, Action, str]]:
        """The spaces of Govern, Transport (its origin) or Raid (FITL-8.7 Special Activities)."""
        if sa == "govern":
            return self._arvn_govern_scores(game, spaces)
        if sa == "transport":
            want = self.transport_origin(game)
            return [
                ((1,), a, "Transport from Laos/Cambodia, else the most ARVN Troops above Control needs")
                for a in spaces
                if a["space"] == want
            ] or [((0,), a, "Transport origin") for a in spaces[:1]]
        if sa == "raid":
            return self._arvn_raid_scores(game, spaces)
        return [((0,), a, "") for a in spaces]

    def _arvn_govern_scores(self, game: FitlGame, spaces: list[Action]) -> list[tuple[Any, Action, str]]:
        """Govern: the most Patronage where ARVN cubes outnumber US Troops, else Aid from the highest Population."""
        b = game.board
        scored: list[tuple[Any, Action, str]] = []
        governed = self.counts()["govern"]
        us_wins = self.is_player_faction(game, "US") and b.victory()["US"] > 50
        for a in spaces:
            s = a["space"]
            if self.patronage_ok(game, s, shift_ok=us_wins):
                scored.append(
                    (
                        (2, self.pop(game, s)),
                        a,
                        "Govern: the most Patronage (ARVN cubes outnumber US Troops, 4.3.1) "
                        + ("while the US player is above 50" if us_wins else "without a shift to Neutral"),
                    )
                )
            elif governed == 1 or b.tracks["aid"] == 0:
                scored.append(
                    (
                        (1, self.pop(game, s)),
                        a,
                        "Govern: Aid from the highest Population (Govern in exactly 1 space so far, or Aid at 0)",
                    )
                )
        if scored:
            self.counts()["govern"] += 1
        return scored

    def _arvn_raid_scores(self, game: FitlGame, spaces: list[Action]) -> list[tuple[Any, Action, str]]:
        """Raid: Bases, then NVA Control, then the most Underground Guerrillas."""
        b = game.board
        scored = []
        for a in spaces:
            s = a["space"]
            p = b.pieces[s]
            base = p["nva_bases"] + p["vc_bases"]
            if self.insurgents(game, s) and self.raid_reaches(game, s):
                scored.append(
                    (
                        (
                            1 if base else 0,
                            self.pop(game, s) if b.control(s) == "nva" else 0,
                            p["nva_guerrillas:u"] + p["vc_guerrillas:u"],
                        ),
                        a,
                        "Raid: Bases, then NVA Control, then the most Underground Guerrillas",
                    )
                )
        return scored

    def _arvn_train_scores(self, game: FitlGame, spaces: list[Action]) -> list[tuple[Any, Action, str]]:
        """FITL-8.7.2: Train 6 cubes where they add COIN Control (at most 3 spaces), or a Base for 3 cubes."""
        b = game.board
        scored: list[tuple[Any, Action, str]] = []
        if self.counts()["spaces"] >= 3:
            return scored
        base_planned = (
            self.counts()["spaces"] <= 2
            and b.available["arvn_bases"]
            and any(
                self.base_train_space(game, x)
                for x in [a["space"] for a in spaces] + self.memo().get("train_chosen", [])
            )
        )
        # 8.7.2: a placement space costs 3; the Base step needs 3 more, kept when a Base is in prospect
        can_place = bool(
            b.available["arvn_troops"] + b.available["arvn_police"] + b.available["arvn_rangers"]
        ) and b.tracks["arvn_resources"] >= 3 + (3 if base_planned else 0)
        for a in spaces if can_place else []:
            s = a["space"]
            if not (game.is_city(s) or self.coin_base(game, s)) or b.control(s) == "nva":
                continue
            p = b.pieces[s]
            adds = 1 if control_after(game, s, 6) == "coin" and b.control(s) != "coin" else 0
            scored.append(
                (
                    (2, adds, 1 if not p["arvn_police"] or not p["arvn_troops"] else 0),
                    a,
                    "Train 6 cubes: add COIN Control, then where Police or Troops are missing",
                )
            )
        if self.counts()["spaces"] <= 2 and b.available["arvn_bases"]:
            for a in spaces:
                if self.base_train_space(game, a["space"]):
                    scored.append(((1, 0, 0), a, "Train to replace 3 ARVN cubes with a Base"))
        return scored

    def _arvn_train_pacify_scores(
        self, game: FitlGame, spaces: list[Action], scored: list[tuple[Any, Action, str]]
    ) -> list[tuple[Any, Action, str]]:
        """FITL-8.7.6: Train for 0 (placing nothing) in one more space to Pacify, when no chosen space can."""
        b = game.board
        chosen = self.memo().setdefault("train_chosen", [])
        if (
            any(self.memo().get(f"train_tier:{x}") == 1 or self.arvn_pacifiable(game, x) for x in chosen)
            or b.tracks["arvn_resources"] < 3
        ):
            return []
        more = []
        for a in spaces:
            x = a["space"]
            if self.arvn_pacifiable(game, x) and not any(a is y for _, y, _ in scored):
                base = 1 if b.count(x, "NVA", "bases") + b.count(x, "VC", "bases") else 0
                more.append(
                    (
                        (0, base, self.pop(game, x)),
                        a,
                        "Train for 0 (placing nothing) in one more space to Pacify (8.7.6)",
                    )
                )
        return more

    def _arvn_assault_scores(
        self, game: FitlGame, spaces: list[Action], done: Any
    ) -> list[tuple[Any, Action, str]]:
        """FITL-8.7.4: Assault where it removes Bases, adds Control, removes the last enemies or 2+ pieces."""
        scored: list[tuple[Any, Action, str]] = []
        if self.counts()["spaces"] >= 3:
            return scored
        for a in spaces:
            g = self.assault_gain(game, a["space"])
            if g and (g[0] or g[1] or g[2] or g[3] >= 2):
                scored.append(((1,) + g, a, "Assault: Bases, Control, last enemies, then 2+ pieces"))
            elif g and done is None:  # IF NONE Assault: at least one space must be chosen
                scored.append(((0,) + g, a, "Assault (IF NONE): the most enemy pieces removable"))
        return scored

    def _arvn_sweep_scores(self, game: FitlGame, spaces: list[Action]) -> list[tuple[Any, Action, str]]:
        """FITL-8.7.5: Sweep where ARVN and Underground Guerrillas are, or where ARVN Troops can move in."""
        b = game.board
        scored: list[tuple[Any, Action, str]] = []
        if self.counts()["spaces"] >= 3:
            return scored
        for a in spaces:
            s = a["space"]
            p = b.pieces[s]
            ug = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
            mine = self.cubes(game, s) + p["arvn_rangers:u"] + p["arvn_rangers:a"]
            key = (1 if b.support[s] > 0 else 0, 1 if p["vc_guerrillas:u"] else 0, self.pop(game, s))
            if ug and mine:
                scored.append(
                    (
                        (1,) + key,
                        a,
                        "Sweep where ARVN and Underground Guerrillas are: Support, VC, Population",
                    )
                )
            elif ug and any(b.pieces[n]["arvn_troops"] for n in game.adjacent(s)):
                scored.append(
                    ((0,) + key, a, "Sweep where ARVN Troops can move in to Activate Underground Guerrillas")
                )
        return scored

    def arvn_pacifiable(self, game: FitlGame, s: str) -> bool:
        """FITL-3.2.1 / FITL-8.7.6: ARVN could Pacify in ``s`` (COIN Control, ARVN Troops and Police, a shift
        allowed by the 45 cap, or Terror to remove)."""
        b = game.board
        p = b.pieces[s]
        if b.control(s) != "coin" or not (p["arvn_troops"] and p["arvn_police"]) or not self.pop(game, s):
            return False
        return b.support[s] < 2 and self.pacify_key(game, s, 1) is not None

    def on_place(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-8.7.2: exactly 6 cubes, Troops and Police evenly starting with the type fewest in the space (Troops
        if tied); up to 2 Rangers once fewer than 6 cubes are Available."""
        s = decision.context.get("space")
        b = game.board
        opts = self.opts(decision, "place")
        if self.memo().get(f"train_tier:{s}") in (0, 1):
            a = next((a for a in opts if not (a["rangers"] + a["troops"] + a["police"])), opts[0])
            purpose = ("Pacification", "Base")[self.memo()[f"train_tier:{s}"]]
            self.why("8.7.2", f"{a.label}: this Training space is for the {purpose}")
            return a
        cubes = [a for a in opts if a["troops"] + a["police"] > 0]
        if cubes and b.available["arvn_troops"] + b.available["arvn_police"] >= 6:
            a = self.even_cubes(game, s, cubes)
            self.why("8.7.2", f"{a.label}: 6 cubes, Troops and Police evenly (8.1.2)")
            return a
        rangers = [a for a in opts if a["rangers"]]
        if rangers:
            a = max(rangers, key=lambda a: a["rangers"])
            self.why("8.7.2", f"{a.label}: fewer than 6 ARVN cubes Available")
            return a
        a = max(opts, key=lambda a: a["troops"] + a["police"] + a["rangers"])
        self.why("8.7.2", f"{a.label}: as many as possible")
        return a

    def pacify_key(self, game: FitlGame, s: str, levels: int) -> tuple[int, ...] | None:
        """FITL-8.7.6: no shift to Active Support while Support + Available would exceed 45; no Terror first, then
        Opposition, then the greatest shift; Terror removed only if a shift follows."""
        b = game.board
        score = b.victory()["US"]
        if b.support[s] + levels > 1 and score + self.pop(game, s) > 45:
            return None
        if levels == 0:
            return None
        return (0 if b.terror[s] else 1, 1 if b.support[s] < 0 else 0, levels * self.pop(game, s))

    def on_train_extra(self, game: FitlGame, decision: Decision) -> Action:
        bases = [a for a in self.opts(decision, "base") if self.base_train_space(game, a["space"])]
        if bases and self.counts()["spaces"] <= 2:

            def even(a: Action) -> int:
                p = game.board.pieces[a["space"]]
                return -abs((p["arvn_troops"] - a["troops"]) - (p["arvn_police"] - (3 - a["troops"])))

            a = max(bases, key=even)
            self.why("8.7.2", f"{a.label}: 5+ US/ARVN units with 3+ ARVN cubes and no COIN Base")
            return a
        scored = [
            (k, a)
            for a in self.opts(decision, "pacify")
            if (k := self.pacify_key(game, a["space"], a["levels"])) is not None
        ]
        return self.first_best(
            decision,
            scored,
            "8.7.6",
            "Pacify (no Terror first, Opposition first, greatest "
            "shift; Support + Available kept at 45 or less)",
            "8.7.2",
            "no ARVN Base or Pacification applies",
        )

    def on_pacify(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-8.7.6 in the Support Phase (one step at a time)."""
        scored = [
            (k, a)
            for s, a in self.pacify_steps(game, decision)
            if (k := self.pacify_key(game, s, 1)) is not None
        ]
        return self.support_step(
            game,
            decision,
            scored,
            "8.7.6",
            "no Terror first, Opposition first, greatest shift",
            "no Pacification step meets the priorities: stop",
        )

    def on_mode(self, game: FitlGame, decision: Decision) -> Action:
        modes = self.modes(decision)
        if decision.context.get("sa") == "govern":
            s = decision.context.get("space")
            us_wins = self.is_player_faction(game, "US") and game.board.victory()["US"] > 50
            ok = "patronage" in modes and self.patronage_ok(game, s, shift_ok=us_wins)
            return self.mode_or(
                decision,
                modes,
                "8.7.2",
                "patronage" if ok else None,
                "Govern: take Patronage at Active Support (no shift to Neutral)",
                "aid",
                "Govern: add Aid (no Patronage without shifting toward Neutral)",
            )
        return None  # type: ignore[return-value]
