"""Fire in the Lake: the Non-player US answers the questions of its Operations (FITL-8.8.3 to FITL-8.8.8): which
spaces, what to place, what moves where, the Train extra and Pacify; a mixin of
:class:`~wargames.fitl.nonplayer.us.UsNonPlayer`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.actions import Action, Decision
from .measures import control_after

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame


def during_sas(decision: Decision) -> dict[str, Action]:
    """The Special Activities offered during an Operation's space choice (FITL-4.1)."""
    return {a["sa"]: a for a in decision.options if a.kind == "sa"}


class UsChoices:
    """Mixin: the Non-player US's choices of spaces, placements, moves, Train extras and Pacify (FITL-8.8.3 to 8.8.8)."""

    # ------------------------------------------------------------------ spaces
    def on_space(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-8.8.3 to FITL-8.8.7: the space the flowchart picks for the current step, or the Special Activity
        it makes between two spaces (Air Lift of 8.8.5, Air Lift or Air Strike between Assaults of 8.8.3)."""
        step, op, sa, spaces, done = self.space_decision(decision)
        pol = self.policy(game)
        scored = self._us_space_scores(game, decision, step, op, sa, spaces, pol)
        between = self._us_sa_between(game, decision, step, op, scored, pol)
        if between is not None:
            return between
        if not scored:
            return self.no_space(decision, spaces, done, sa or op)
        a, w, top = self.top_space(game, scored)
        if step == "space":
            self._us_count_choice(game, op, a["space"], top)
        self.why(self.rule_for(decision), f"{a.label}: {w}")
        return a

    def _us_space_scores(
        self, game: FitlGame, decision: Decision, step: str, op: str, sa: str, spaces: list[Action], pol: str
    ) -> list[tuple[Any, Action, str]]:
        """The spaces of this step with their priority keys and reasons (the flowchart box that applies)."""
        if step == "follow_up":
            return self._us_follow_up_scores(game, spaces)
        if step == "assault" and op == "patrol":
            return [
                ((self.insurgents(game, a["space"]),), a, "Assault to remove the most enemy pieces")
                for a in spaces
            ]
        if step == "sa_space":
            return self._us_sa_space_scores(game, sa, spaces)
        if op == "assault" and step == "space":
            return self._us_assault_scores(game, spaces)
        if op == "sweep":
            return self._us_sweep_scores(game, spaces, pol)
        if op == "train":
            scored = self._us_train_scores(game, spaces, pol)
            return scored + self._us_train_pacify_scores(game, spaces, scored)
        return []

    def _us_follow_up_scores(self, game: FitlGame, spaces: list[Action]) -> list[tuple[Any, Action, str]]:
        """FITL-8.8.3: an ARVN follow-up Assault when ARVN Resources exceed Total Econ by 3 or more."""
        b = game.board
        if b.tracks["arvn_resources"] - b.tracks["econ"] < 3:
            return []
        scored = []
        for a in spaces:
            n, _ = game.assault_count("ARVN", a["space"])
            if n > 0:
                scored.append(((n,), a, "ARVN Resources exceed Econ by 3+: add an ARVN Assault"))
        return scored

    def _us_sa_space_scores(
        self, game: FitlGame, sa: str, spaces: list[Action]
    ) -> list[tuple[Any, Action, str]]:
        """The spaces of an Air Strike (its priority key) or of Advise (Control, removals, Activations)."""
        if sa == "air_strike":
            scored = []
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
            return scored
        if sa == "advise":
            return [self._us_advise_score(game, a) for a in spaces]
        return [((0,), a, "") for a in spaces]

    def _us_advise_score(self, game: FitlGame, a: Action) -> tuple[Any, Action, str]:
        """Advise: add COIN Control, remove enemies, then Activate Underground Guerrillas."""
        b = game.board
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
        return (
            (ctl, 1 if n else 0, n, ug),
            a,
            "Advise: add COIN Control, remove enemies, then Activate Underground Guerrillas",
        )

    def _us_assault_scores(self, game: FitlGame, spaces: list[Action]) -> list[tuple[Any, Action, str]]:
        """FITL-8.8.3: Assault where enemies can be removed, those removing all Active enemies first."""
        b = game.board
        capped = self.cap(game, 13, "shaded") or self.cap(game, 11, "shaded")  # Cobras / Abrams: 2 spaces
        snd = self.cap(game, 28, "shaded")  # Search and Destroy: spare Provinces at Support
        scored = []
        for a in spaces:
            s = a["space"]
            n, exposed, base = self.removable(game, s)
            if n <= 0 or (capped and self.counts()["assault"] >= 2):
                continue
            if snd and self._spared_by_search_and_destroy(game, s, base):
                continue
            tier = 2 if n >= exposed else 1 if 2 * n > exposed else 0
            nva_ctl = self.pop(game, s) if b.control(s) == "nva" else 0
            key = (
                tier,
                nva_ctl,
                1 if base else 0,
                1 if b.count(s, "US", "bases") else 0,
                self.pop(game, s),
                n,
            )
            scored.append(
                (
                    key,
                    a,
                    [
                        "Assault where any enemy can be removed",
                        "Assault to remove more than half",
                        "Assault to remove all Active enemies",
                    ][tier],
                )
            )
        return scored

    @staticmethod
    def _spared_by_search_and_destroy(game: FitlGame, s: str, base: Any) -> bool:
        """Capability #28 shaded: a Province at Support without a Base or NVA Troops to remove is left alone."""
        b = game.board
        return game.kind(s) == "province" and b.support[s] > 0 and not base and not b.pieces[s]["nva_troops"]

    def _us_sweep_scores(
        self, game: FitlGame, spaces: list[Action], pol: str
    ) -> list[tuple[Any, Action, str]]:
        """FITL-8.8.5: Sweep where Underground Guerrillas are, US pieces first, then Support, Bases, Population."""
        b = game.board
        extra = self.counts()["sweep_no_us"]
        if self.cap(game, 101, "shaded") or self.cap(game, 18, "shaded"):  # Booby Traps / CAPs: 2 spaces
            spaces = spaces if self.counts()["sweep"] < 2 else []
        scored = []
        for a in spaces:
            s = a["space"]
            has_us = 1 if b.count(s, "US") else 0
            if not self._us_sweep_allowed(game, s, has_us, extra, pol):
                continue
            bases = 1 if b.count(s, ptype="bases") else 0
            scored.append(
                (
                    (has_us, 1 if b.support[s] > 0 else 0, bases, self.pop(game, s)),
                    a,
                    "Sweep spaces with Underground Guerrillas: US pieces first, Support, Bases, Population",
                )
            )
        return scored

    def _us_sweep_allowed(self, game: FitlGame, s: str, has_us: int, extra: int, pol: str) -> bool:
        """A Sweep space must hold Underground Guerrillas; at most 2 without US pieces; Laos and Cambodia only
        under Nixon; and something must be Activated there (decision F-178: Jungle needs 2 cubes a Guerrilla)."""
        p = game.board.pieces[s]
        if not (p["nva_guerrillas:u"] + p["vc_guerrillas:u"]):
            return False
        if not has_us and extra >= 2:
            return False
        if game.in_laos_cambodia(s) and pol != "Nixon":
            return False
        return bool(self.sweep_reach(game, s))

    def _us_train_scores(
        self, game: FitlGame, spaces: list[Action], pol: str
    ) -> list[tuple[Any, Action, str]]:
        """FITL-8.8.7: Irregulars where there is no US Base; ARVN cubes at one US Base where they add COIN Control."""
        b = game.board
        irr = b.available["us_irregulars"] > 0
        cubes_done = self.counts()["cubes"]
        scored = []
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
        return scored

    def _us_train_pacify_scores(
        self, game: FitlGame, spaces: list[Action], scored: list[tuple[Any, Action, str]]
    ) -> list[tuple[Any, Action, str]]:
        """FITL-8.8.7, 8.8.8: Train (placing nothing) beyond the spaces ``scored`` where it lets the US Pacify more
        (one Pacify space, two with CORDS unshaded)."""
        chosen = self.memo().setdefault("train_chosen", [])
        extra = self.counts()["pacify_extra"]
        wanted = 2 if self.cap(game, 19, "unshaded") else 1  # unshaded CORDS: a 2nd Pacify space
        have = sorted((self.pacify_value(game, x) for x in chosen if self.pacifiable(game, x)), reverse=True)
        if game.spendable("US") < 3 or extra >= wanted:
            return []
        more = []
        for a in spaces:
            v = self.pacify_value(game, a["space"])
            if (
                self.pacifiable(game, a["space"])
                and not any(a is x for _, x, _ in scored)
                and (len(have) < wanted or v > have[wanted - 1])
            ):
                more.append(
                    (
                        (1, v),
                        a,
                        "Train (placing nothing) where it lets the US Pacify to the maximum extent (8.8.7, 8.8.8)",
                    )
                )
        return more

    def _us_sa_between(
        self,
        game: FitlGame,
        decision: Decision,
        step: str,
        op: str,
        scored: list[tuple[Any, Action, str]],
        pol: str,
    ) -> Action | None:
        """The Special Activity the flowchart makes now, between spaces: Air Lift once no Sweep space is left
        (FITL-8.8.5, decision F-78; not under LBJ), Air Lift or Air Strike once the Assaults that remove all
        Active enemies are made (FITL-8.8.3).  None: go on choosing spaces."""
        if op == "sweep" and step == "space" and not scored:
            self.memo()["sweep_done"] = True  # the Air Lift of 8.8.5 comes now or not at all
            if "air_lift" in during_sas(decision) and pol != "LBJ" and self.sweep_lift_plan(game) is not None:
                self.why(
                    "8.8.5",
                    "Air Lift now (Policy " + pol + "), into the selected Sweep spaces that need Troops to "
                    "Activate their Underground Guerrillas (decision F-78)",
                )
                return during_sas(decision)["air_lift"]
        if op == "assault" and step == "space" and not any(k[0] == 2 for k, _, _ in scored):
            during = during_sas(decision)
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
        return None

    def _us_count_choice(self, game: FitlGame, op: str, s: str, top: Any) -> None:
        """Remember a space chosen for an Operation (the caps and the Pacify extra count them)."""
        if op == "sweep":
            self.memo().setdefault("sweep_chosen", []).append(s)
            self.counts()["sweep"] += 1
            if not game.board.count(s, "US"):
                self.counts()["sweep_no_us"] += 1
        elif op == "assault":
            self.counts()["assault"] += 1
        elif op == "train":
            if top[0] == 2:
                self.counts()["cubes"] += 1
            if top[0] == 1:
                self.counts()["pacify_extra"] += 1
            self.memo().setdefault("train_chosen", []).append(s)
            self.memo()[f"train_tier:{s}"] = top[0]

    def on_place(self, game: FitlGame, decision: Decision) -> Action:
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

    def on_train_extra(self, game: FitlGame, decision: Decision) -> Action:
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

    def on_pacify(self, game: FitlGame, decision: Decision) -> Action:
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

    def on_mode(self, game: FitlGame, decision: Decision) -> Action:
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
    def movement_count(self, game: FitlGame, decision: Decision) -> int | None:
        c = decision.context
        if c.get("sa") == "air_lift":
            lift = self.memo().get("lift")
            return (lift[1] if lift else 1) if c.get("key") == "us_troops" else 0
        return None if c.get("sa") else self.memo().get("count_want")

    def on_move(self, game: FitlGame, decision: Decision) -> Action:
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

    def on_move_from(self, game: FitlGame, decision: Decision) -> Action:
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

    def on_move_to(self, game: FitlGame, decision: Decision) -> Action:
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
