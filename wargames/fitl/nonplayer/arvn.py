"""Fire in the Lake: the Non-player ARVN (rules 8.7 to 8.7.7).

Flowchart (8.7): Event or Pass, Pass below 3 Resources (FITL-8.7.1) -> Train (FITL-8.7.2) -> Patrol (FITL-8.7.3)
-> Assault (FITL-8.7.4) -> Sweep (FITL-8.7.5, not in Monsoon), each with its IF NONE fallbacks.  Special
Activities: Govern (else Transport) with Train and Patrol, Raid (else Transport) before Assault and Sweep.  Pacify
(FITL-8.7.6) during Train and in the Support Phase; Redeploy (FITL-8.7.7).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from ...core.actions import Action, Decision
from .arvn_choices import ArvnChoices
from .arvn_moves import ArvnMoves
from .base import NonPlayerBase, Plan
from .measures import ARVN_KEYS, control_after

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame


class ArvnNonPlayer(ArvnChoices, ArvnMoves, NonPlayerBase):
    faction = "ARVN"
    section = "8.7"
    STEPS = {
        "train": "8.7.2",
        "patrol": "8.7.3",
        "assault": "8.7.4",
        "sweep": "8.7.5",
        "govern": "8.7.2",
        "transport": "8.7.2",
        "raid": "8.7.4",
    }

    # ------------------------------------------------------------------ facts
    def cubes(self, game: FitlGame, s: str) -> int:
        p = game.board.pieces[s]
        return p["arvn_troops"] + p["arvn_police"]

    def coin_cubes_sf(self, game: FitlGame, s: str) -> int:
        p = game.board.pieces[s]
        return (
            p["arvn_troops"]
            + p["arvn_police"]
            + p["us_troops"]
            + sum(p[k] for k in ("arvn_rangers:u", "arvn_rangers:a", "us_irregulars:u", "us_irregulars:a"))
        )

    def coin_base(self, game: FitlGame, s: str) -> bool:
        return bool(game.board.count(s, "US", "bases") + game.board.count(s, "ARVN", "bases"))

    def base_train_space(self, game: FitlGame, s: str) -> bool:
        """FITL-8.7.2: a South Vietnam Province with 5+ US and ARVN units including 3+ ARVN cubes and no COIN Base."""
        b = game.board
        units = self.coin(game, s) - b.count(s, "US", "bases") - b.count(s, "ARVN", "bases")
        return (
            self.svn(game, s)
            and game.kind(s) == "province"
            and units >= 5
            and self.cubes(game, s) >= 3
            and not self.coin_base(game, s)
            and b.control(s) != "nva"
        )

    def assault_gain(self, game: FitlGame, s: str, extra: int = 0) -> tuple[int, ...] | None:
        """FITL-8.7.4 priorities of an ARVN Assault in ``s`` (with ``extra`` ARVN Troops brought in): (Base or
        Tunnel, Control Population changed, last enemy pieces, pieces removed), or None if it removes nothing."""
        n, _ = game.assault_count("ARVN", s)
        b = game.board
        p = b.pieces[s]
        if extra:
            cubes = p["arvn_troops"] + extra + (p["arvn_police"] if game.is_loc(s) or game.is_city(s) else 0)
            n = cubes // (3 if game.terrain(s) == "highland" else 2)
        if n <= 0 or not self.insurgents(game, s) or not (self.cubes(game, s) + extra):
            return None
        troops = p["nva_troops"]
        active = p["nva_guerrillas:a"] + p["vc_guerrillas:a"]
        under = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
        removable = min(n, troops + active)
        bases = p["nva_bases"] + p["vc_bases"] + p["nva_bases:t"] + p["vc_bases:t"]
        base_hit = 1 if bases and not under and n > troops + active else 0
        if removable == 0 and not base_hit:
            return None
        nva_removed = min(removable, troops + p["nva_guerrillas:a"])
        before = b.control(s)
        coin = self.coin(game, s)
        nva_after = b.count(s, "NVA") - nva_removed
        vc_after = b.count(s, "VC") - (removable - nva_removed)
        after = "coin" if coin > nva_after + vc_after else "nva" if nva_after > coin + vc_after else None
        pop = self.pop(game, s)
        ctl = (pop if before == "nva" and after != "nva" else 0) + (
            pop if after == "coin" and before != "coin" else 0
        )
        last = 1 if removable + (bases if base_hit else 0) >= self.insurgents(game, s) else 0
        return (base_hit, ctl, last, removable)

    def patronage_ok(self, game: FitlGame, s: str, shift_ok: bool = False) -> bool:
        """FITL-4.3.1 / FITL-8.7.2 GOVERN: Aid may go to Patronage in ``s`` (more ARVN cubes than US Troops) and,
        unless ``shift_ok``, without shifting it to Neutral (Active Support, or unshaded Mandate of Heaven)."""
        b = game.board
        p = b.pieces[s]
        if p["arvn_troops"] + p["arvn_police"] <= p["us_troops"] or not b.tracks["aid"]:
            return False
        return shift_ok or b.support[s] == 2 or self.cap(game, 86, "unshaded")

    def assault_reason(self, game: FitlGame) -> str:
        """FITL-8.7.4 conditions, as written: ARVN Assault alone would change Control of a space (add COIN Control or
        remove NVA Control, any Population), could remove an NVA Troop, or could remove enemy pieces in a space with
        an NVA or VC Base and no Underground Guerrillas."""
        b = game.board
        for s in self.spaces(game):
            g = self.assault_gain(game, s)
            if not g:
                continue
            n, _ = game.assault_count("ARVN", s)
            p = b.pieces[s]
            troops, active = p["nva_troops"], p["nva_guerrillas:a"] + p["vc_guerrillas:a"]
            removable = min(n, troops + active)
            nva_removed = min(removable, troops + p["nva_guerrillas:a"])
            coin = self.coin(game, s)
            nva_after = b.count(s, "NVA") - nva_removed
            vc_after = b.count(s, "VC") - (removable - nva_removed)
            after = "coin" if coin > nva_after + vc_after else "nva" if nva_after > coin + vc_after else None
            before = b.control(s)
            if (after == "coin" and before != "coin") or (before == "nva" and after != "nva"):
                return f"it would change Control of {game.sname(s)}"
            if troops and n:
                return f"it can remove an NVA Troop in {game.sname(s)}"
            bases = p["nva_bases"] + p["vc_bases"] + p["nva_bases:t"] + p["vc_bases:t"]
            if bases and not (p["nva_guerrillas:u"] + p["vc_guerrillas:u"]):
                return (
                    f"it can remove enemy pieces in {game.sname(s)}, with a Base and no Underground Guerrilla"
                )
        return ""

    def train_reason(self, game: FitlGame) -> str:
        b = game.board
        avail = sum(b.available[k] for k in ARVN_KEYS)
        if avail >= 12:
            return f"{avail} ARVN pieces are Available (12 or more)"
        if b.available["arvn_bases"] and any(self.base_train_space(game, s) for s in self.spaces(game)):
            return "Train alone would place an ARVN Base"
        return ""

    def blocked(self, game: FitlGame) -> list[str]:
        """FITL-8.7.3: LoCs with NVA/VC units next to Saigon, or whose units cut Saigon off from a City."""
        b = game.board
        hot = [s for s in self.spaces(game) if game.is_loc(s) and self.insurgents(game, s)]
        near = [s for s in hot if "saigon" in game.adjacent(s)]
        if near:
            return near

        def reach(block: bool) -> set[str]:
            seen = {"saigon"}
            q = deque(["saigon"])
            while q:
                s = q.popleft()
                for n in game.adjacent(s):
                    if n in seen or not (game.is_loc(n) or game.is_city(n)):
                        continue
                    seen.add(n)
                    if block and game.is_loc(n) and self.insurgents(game, n):
                        continue
                    if game.is_city(n) and self.insurgents(game, n) and n != "saigon":
                        continue
                    q.append(n)
            return seen

        free, cut = reach(False), reach(True)
        lost = [c for c in self.spaces(game) if game.is_city(c) and c in free and c not in cut]
        _ = b
        return hot if lost else []

    def sweep_useful(self, game: FitlGame) -> bool:
        """FITL-8.7.5: a Sweep could Activate someone: Underground Guerrillas with, or next to, ARVN forces."""
        b = game.board
        for s in self.spaces(game):
            p = b.pieces[s]
            if not (p["nva_guerrillas:u"] + p["vc_guerrillas:u"]) or not game.is_pc(s) or game.in_nvn(s):
                continue
            if self.cubes(game, s) + p["arvn_rangers:u"] + p["arvn_rangers:a"]:
                return True
            if any(b.pieces[n]["arvn_troops"] for n in game.adjacent(s)):
                return True
        return False

    def raid_reaches(self, game: FitlGame, s: str) -> bool:
        """FITL-4.3.3 / FITL-8.7.4 RAID: an Underground Ranger is in ``s`` or can move in from a space next to it
        without stripping that space of COIN Control (the Non-player's origin limit): the Raid can then Activate
        it to remove enemies in ``s``."""
        b = game.board
        if b.pieces[s]["arvn_rangers:u"]:
            return True
        return any(
            b.pieces[x]["arvn_rangers:u"] and control_after(game, x, -1) == b.control(x)
            for x in game.adjacent(s)
        )

    def raid_possible(self, game: FitlGame) -> bool:
        for s in self.spaces(game):
            if not self.insurgents(game, s) or not self.svn(game, s) and not game.in_laos_cambodia(s):
                continue
            if self.raid_reaches(game, s):
                return True
        return False

    # ------------------------------------------------------------------ the flowchart (8.7)
    def op_chain(self, game: FitlGame) -> list[tuple[str, str]]:
        """ARVN 8.7.2 - 8.7.5: the Operations the flowchart would do, in its order, each with its reason (the
        first possible one is done: :meth:`first_possible`)."""
        chain: list[tuple[str, str]] = []
        why = self.train_reason(game)
        if why:
            chain.append(("train", f"ARVN 8.7.2: Train because {why}"))
        hot = self.blocked(game)
        if hot:
            chain.append(
                (
                    "patrol",
                    f"ARVN 8.7.3: Patrol because NVA/VC on {game.sname(hot[0])} threaten Saigon's "
                    "roads to the Cities",
                )
            )
        gains = [g for s in self.spaces(game) if (g := self.assault_gain(game, s))]
        why = self.assault_reason(game)
        if why:
            chain.append(("assault", f"ARVN 8.7.4: Assault because {why}"))
        if not game.monsoon and self.sweep_useful(game):
            chain.append(("sweep", "ARVN 8.7.5: Sweep (no other Operation's condition applies)"))
        if gains:
            chain.append(("assault", "ARVN 8.7.5 IF NONE: no Sweep possible, Assault"))
        if self.patrol_targets(game):
            chain.append(("patrol", "ARVN 8.7.4 IF NONE: no Assault possible, Patrol"))
        chain.append(("train", "ARVN 8.7.3 IF NONE: no Patrol possible, Train"))
        return chain

    def plan(self, game: FitlGame, limited: bool) -> Plan:
        b = game.board
        res = b.tracks["arvn_resources"]
        evd, evwhy = self.event_decision(game)
        if evd == "pass":
            return Plan(None, reason=f"ARVN 8.7.1: Pass (+3 Resources): {evwhy}", cap_pass=True)
        ev = evd == "play"
        evwhy = f"ARVN 8.7.1: {'play the Event: ' if ev else 'no Event: '}{evwhy}"
        if res < 3:
            return Plan(
                None,
                event=ev,
                event_why=evwhy,
                reason=f"ARVN 8.7.1: {res} ARVN Resources (less than 3): Pass (+3 Resources)",
            )
        chain = self.op_chain(game)
        got = self.first_possible(game, limited, chain)
        if got is None:
            return Plan(
                None, event=ev, event_why=evwhy, reason="ARVN 8.7.2 IF NONE: no Operation possible, Pass"
            )
        op, reason = got
        if op in ("train", "patrol"):
            return Plan(op, ("govern", "transport"), "later", reason, ev, evwhy)
        return Plan(op, ("raid", "transport"), "before", reason, ev, evwhy)

    def sa_wanted(self, game: FitlGame, decision: Decision, sa: str) -> bool:
        if sa == "raid":
            return self.raid_possible(game)
        if sa == "transport":
            return bool(self.transport_origin(game))
        if sa == "govern":  # 8.7.2 GOVERN: Patronage where legal, or Aid only if Aid is at 0
            b = game.board
            us_wins = self.is_player_faction(game, "US") and b.victory()["US"] > 50
            cands = [
                s
                for s in self.spaces(game)
                if game.is_pc(s) and s != "saigon" and b.control(s) == "coin" and b.support[s] > 0
            ]
            return any(self.patronage_ok(game, s, shift_ok=us_wins) for s in cands) or (
                b.tracks["aid"] == 0 and bool(cands)
            )
        return True

    def on_sa(self, game: FitlGame, decision: Decision) -> Action:
        plan = self.planned(game, decision)
        offered = {a["sa"]: a for a in self.opts(decision, "sa")}
        if (
            plan.when == "before"
            and "raid" in offered
            and not self.raid_possible(game)
            and "transport" in offered
        ):
            self.why("8.7.4", "Raid cannot remove any NVA or VC: Transport instead")
            return offered["transport"]
        return super().on_sa(game, decision)

    # ------------------------------------------------------------------ Redeploy (8.7.7)
    def redeploy_to(self, game: FitlGame, decision: Decision) -> Action:
        b = game.board
        src = decision.context.get("source")
        n_all = max(a.get("n", 1) for a in decision.options)
        best = None
        for a in decision.options:
            d = a["dest"]
            n = a.get("n", 1)
            adds = 1 if b.control(d) != "coin" and control_after(game, d, n) == "coin" else 0
            city_need = 1 if game.is_city(d) and self.cubes(game, d) < 3 and b.control(d) != "nva" else 0
            k = (adds * self.pop(game, d), city_need, 1 if d == "saigon" else 0, n == n_all)
            if best is None or k > best[0]:
                best = (k, a)
        a = best[1]
        self.why(
            "8.7.7",
            f"{a.label} from {game.sname(src) if src in game.data.spaces else src}: add COIN Control, "
            "then 3 cubes in Cities, else Saigon",
        )
        return a

    ROUTE_13 = "loc_saigon_an_loc_ban_me_thuot"

    def police_spare(self, game: FitlGame, s: str) -> int:
        """Police that may leave ``s`` (8.7.7): all from a LoC with NVA/VC units; else never the last Police of a
        Province or City, nor below 3 COIN cubes, nor losing COIN Control."""
        b = game.board
        p = b.pieces[s]["arvn_police"]
        if game.is_loc(s):
            return p if self.insurgents(game, s) else 0
        spare = p - 1
        spare = min(spare, self.coin_cubes_sf(game, s) - 3)
        if b.control(s) == "coin":
            spare = min(spare, self.coin(game, s) - self.insurgents(game, s) - 1)
        return max(0, spare)

    def police_targets(self, game: FitlGame) -> list[tuple[str, int, str]]:
        b = game.board
        out: list[tuple[str, int, str]] = []
        r = self.ROUTE_13
        if r in game.data.spaces and not self.insurgents(game, r) and b.pieces[r]["arvn_police"] < 3:
            out.append(
                (
                    r,
                    3 - b.pieces[r]["arvn_police"],
                    "exactly 3 Police on the Route 13/14 LoC (no NVA/VC there)",
                )
            )
        for s in self.spaces(game):
            if (
                game.kind(s) == "province"
                and self.svn(game, s)
                and b.control(s) == "coin"
                and not b.pieces[s]["arvn_police"]
            ):
                out.append((s, 1, "1 Police in each COIN-Controlled Province"))
        for s in self.spaces(game):
            if game.is_city(s) and b.control(s) != "nva" and not b.pieces[s]["arvn_police"]:
                out.append((s, 1, "1 Police in each City"))
        return out

    def on_redeploy_from(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-8.7.7: optional Police moves by its bullets; optional Troop moves are not made (decision F-76)."""
        froms = {a["space"]: a for a in self.opts(decision, "from")}
        if "Police" in decision.prompt:
            done_t = self.memo().setdefault("police_done", [])
            for dest, need, why in self.police_targets(game):
                if dest in done_t:
                    continue
                srcs = [s for s in froms if s != dest and self.police_spare(game, s) > 0]
                if not srcs:
                    continue
                src = max(srcs, key=lambda s: (1 if game.is_loc(s) else 0, self.police_spare(game, s), s))
                k = min(need, self.police_spare(game, src))
                self.memo()["police"] = (dest, k)
                if k >= need:
                    done_t.append(dest)
                self.why("8.7.7", f"Redeploy Police from {game.sname(src)} to {game.sname(dest)}: {why}")
                return froms[src]
        self.why("8.7.7", "no further Redeploy priority applies (decision F-76)")
        return self.first(decision, "done") or decision.options[-1]
