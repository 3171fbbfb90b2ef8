"""Fire in the Lake: the Non-player US (rules 8.8 to 8.8.9).

Flowchart (8.8): US Policy JFK / LBJ / Nixon (FITL-8.8.1) -> Capability check (FITL-8.8.2) -> Assault if it can
remove a Base or NVA Troops share a space with US forces (FITL-8.8.3) -> in Monsoon Patrol out of Laos/Cambodia
(FITL-8.8.4) -> Sweep where Underground Guerrillas sit in Support (FITL-8.8.5) -> Event (FITL-8.8.6) -> Train
(FITL-8.8.7).  Special Activities: Air Lift or Air Strike with Assault and Sweep, Air Strike or Advise with Train
and Patrol by Policy.  Pacify: FITL-8.8.8.  Commitment: FITL-8.8.9.

US Policy (decisions F-77, F-77-R): the scenario's ``us_policy`` option (``game.rules_opts``, static data set at
load), until the Commitment re-roll of 8.8.1, which the Non-player makes at the start of each Commitment Phase and
remembers in the player object; the game state has no Policy field (an undeclared game attribute is refused at the
next checkpoint, so none is read).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.actions import Action, Decision
from .base import NonPlayerBase, Plan
from .priorities import roll
from .us_air_strike import UsAirStrike
from .us_choices import UsChoices
from .us_commitment import UsCommitment
from .us_sweep_lift import UsSweepLift

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame


class UsNonPlayer(UsChoices, UsSweepLift, UsAirStrike, UsCommitment, NonPlayerBase):
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
    def policy(self, game: FitlGame) -> str:
        """FITL-8.8.1 (decisions F-77, F-77-R): the Policy of the latest Commitment re-roll made so far, else the
        scenario's ``us_policy`` option (LBJ when the scenario gives none)."""
        held = [p for c, p in sorted(self.policy_memo.items()) if c <= game.coups_held]
        if held:
            return held[-1]
        return str(game.rules_opts.get("us_policy") or "LBJ")

    def commitment_policy(self, game: FitlGame) -> str:
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
    def assault_n(self, game: FitlGame, s: str) -> int:
        return game.assault_count("US", s)[0]

    def removable(self, game: FitlGame, s: str) -> tuple[int, int, bool]:
        """(pieces a US Assault removes, Active/Troop enemies there, a Base falls)."""
        p = game.board.pieces[s]
        n = self.assault_n(game, s)
        exposed = p["nva_troops"] + p["nva_guerrillas:a"] + p["vc_guerrillas:a"]
        under = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
        bases = p["nva_bases"] + p["vc_bases"]
        base = bool(bases) and not under and n > exposed
        return min(n, exposed) + (min(bases, n - exposed) if base else 0), exposed, base

    def air_strike_useful(self, game: FitlGame) -> bool:
        """FITL-8.8.3 AIR STRIKE conditions: a piece could be removed, or the Trail could be Degraded (above 0, above
        2 with shaded AAA, and no Momentum forbidding it)."""
        b = game.board
        floor = 2 if self.cap(game, 31, "shaded") else 0
        mom = getattr(game, "momentum_active", None)
        blocked = bool(mom and mom(39, "shaded"))
        if b.tracks["trail"] > floor and not blocked:
            return True
        return any(self.coin(game, s) and self.strikable(game, s) for s in self.spaces(game))

    def pacifiable(self, game: FitlGame, s: str) -> bool:
        """FITL-3.2.1 / FITL-8.8.8: a US Train space where Pacify could shift Support or remove Terror."""
        b = game.board
        return (
            b.control(s) == "coin"
            and self.pop(game, s) > 0
            and (b.support[s] < 2 or b.terror[s] > 0)
            and bool(b.count(s, "US"))
        )

    def pacify_value(self, game: FitlGame, s: str) -> int:
        """FITL-8.8.8: the Support a US Pacification in ``s`` could add (levels up to Active Support, times
        Population), for choosing the extra Training space of 8.8.7."""
        b = game.board
        return max(0, min(2, 2 - b.support[s])) * self.pop(game, s)

    def train_useful(self, game: FitlGame) -> bool:
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
    def assault_removes(self, game: FitlGame) -> bool:
        """FITL-8.8.3 IF NONE: some US Assault (alone) could remove an enemy piece."""
        b = game.board
        for s in self.spaces(game):
            if not b.pieces[s]["us_troops"]:
                continue
            if self.removable(game, s)[0] > 0:
                return True
        return False

    def plan(self, game: FitlGame, limited: bool) -> Plan:
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

    def flow(self, game: FitlGame, limited: bool, event_ok: bool) -> Plan:
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

    def on_yesno(self, game: FitlGame, decision: Decision) -> Action:
        if decision.context.get("step") == "trail":
            self.why("8.8.3", "Air Strike: spend 2 hits to Degrade the Trail if possible")
            return self.first(decision, "yes") or decision.options[0]
        return super().on_yesno(game, decision)
