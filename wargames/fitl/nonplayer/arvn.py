"""Fire in the Lake: the Non-player ARVN (rules 8.7 to 8.7.7).

Flowchart (8.7): Event or Pass, Pass below 3 Resources (FITL-8.7.1) -> Train (FITL-8.7.2) -> Patrol (FITL-8.7.3)
-> Assault (FITL-8.7.4) -> Sweep (FITL-8.7.5, not in Monsoon), each with its IF NONE fallbacks.  Special
Activities: Govern (else Transport) with Train and Patrol, Raid (else Transport) before Assault and Sweep.  Pacify
(FITL-8.7.6) during Train and in the Support Phase; Redeploy (FITL-8.7.7).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ...core.actions import Action, Decision
from .base import NonPlayerBase, Plan

ARVN_KEYS = ("arvn_troops", "arvn_police", "arvn_rangers", "arvn_bases")


def saigon_distance(game: Any) -> dict[str, int]:
    """Spaces between Saigon and every space (FITL-8.7.3 counts LoCs outward from Saigon)."""
    dist = {"saigon": 0}
    q = deque(["saigon"])
    while q:
        s = q.popleft()
        for n in game.adjacent(s):
            if n not in dist:
                dist[n] = dist[s] + 1
                q.append(n)
    return dist


def control_after(game: Any, s: str, coin_delta: int = 0, insurgent_delta: int = 0) -> str | None:
    """FITL-1.7 Control of ``s`` if COIN / Insurgent pieces there changed by the deltas."""
    b = game.board
    coin = b.count(s, "US") + b.count(s, "ARVN") + coin_delta
    nva, vc = b.count(s, "NVA"), b.count(s, "VC") + insurgent_delta
    if coin > nva + vc:
        return "coin"
    if nva > coin + vc:
        return "nva"
    return None


class ArvnNonPlayer(NonPlayerBase):
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
    def cubes(self, game: Any, s: str) -> int:
        p = game.board.pieces[s]
        return p["arvn_troops"] + p["arvn_police"]

    def coin_cubes_sf(self, game: Any, s: str) -> int:
        p = game.board.pieces[s]
        return (
            p["arvn_troops"]
            + p["arvn_police"]
            + p["us_troops"]
            + sum(p[k] for k in ("arvn_rangers:u", "arvn_rangers:a", "us_irregulars:u", "us_irregulars:a"))
        )

    def coin_base(self, game: Any, s: str) -> bool:
        return bool(game.board.count(s, "US", "bases") + game.board.count(s, "ARVN", "bases"))

    def base_train_space(self, game: Any, s: str) -> bool:
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

    def assault_gain(self, game: Any, s: str, extra: int = 0) -> tuple[int, ...] | None:
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

    def patronage_ok(self, game: Any, s: str, shift_ok: bool = False) -> bool:
        """FITL-4.3.1 / FITL-8.7.2 GOVERN: Aid may go to Patronage in ``s`` (more ARVN cubes than US Troops) and,
        unless ``shift_ok``, without shifting it to Neutral (Active Support, or unshaded Mandate of Heaven)."""
        b = game.board
        p = b.pieces[s]
        if p["arvn_troops"] + p["arvn_police"] <= p["us_troops"] or not b.tracks["aid"]:
            return False
        return shift_ok or b.support[s] == 2 or self.cap(game, 86, "unshaded")

    def assault_reason(self, game: Any) -> str:
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

    def train_reason(self, game: Any) -> str:
        b = game.board
        avail = sum(b.available[k] for k in ARVN_KEYS)
        if avail >= 12:
            return f"{avail} ARVN pieces are Available (12 or more)"
        if b.available["arvn_bases"] and any(self.base_train_space(game, s) for s in self.spaces(game)):
            return "Train alone would place an ARVN Base"
        return ""

    def blocked(self, game: Any) -> list[str]:
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

    def sweep_useful(self, game: Any) -> bool:
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

    def raid_reaches(self, game: Any, s: str) -> bool:
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

    def raid_possible(self, game: Any) -> bool:
        for s in self.spaces(game):
            if not self.insurgents(game, s) or not self.svn(game, s) and not game.in_laos_cambodia(s):
                continue
            if self.raid_reaches(game, s):
                return True
        return False

    # ------------------------------------------------------------------ the flowchart (8.7)
    def plan(self, game: Any, limited: bool) -> Plan:
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
        got = self.first_possible(game, limited, chain)
        if got is None:
            return Plan(
                None, event=ev, event_why=evwhy, reason="ARVN 8.7.2 IF NONE: no Operation possible, Pass"
            )
        op, reason = got
        if op in ("train", "patrol"):
            return Plan(op, ("govern", "transport"), "later", reason, ev, evwhy)
        return Plan(op, ("raid", "transport"), "before", reason, ev, evwhy)

    def sa_wanted(self, game: Any, decision: Decision, sa: str) -> bool:
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

    def on_sa(self, game: Any, decision: Decision) -> Action:
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

    # ------------------------------------------------------------------ spaces
    def on_space(self, game: Any, decision: Decision) -> Action:
        step, op, sa, spaces, done = self.space_decision(decision)
        b = game.board
        scored: list[tuple[Any, Action, str]] = []
        if step == "sa_space" and sa == "govern":
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
                            + (
                                "while the US player is above 50" if us_wins else "without a shift to Neutral"
                            ),
                        )
                    )
                elif governed == 1 or b.tracks["aid"] == 0:
                    scored.append(
                        (
                            (1, self.pop(game, s)),
                            a,
                            "Govern: Aid from the highest Population (Govern in "
                            "exactly 1 space so far, or Aid at 0)",
                        )
                    )
            if scored:
                self.counts()["govern"] += 1
        elif step == "sa_space" and sa == "transport":
            want = self.transport_origin(game)
            scored = [
                ((1,), a, "Transport from Laos/Cambodia, else the most ARVN Troops above Control needs")
                for a in spaces
                if a["space"] == want
            ] or [((0,), a, "Transport origin") for a in spaces[:1]]
        elif step == "sa_space" and sa == "raid":
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
        elif step == "sa_space":
            scored = [((0,), a, "") for a in spaces]
        elif step == "assault" and op == "patrol":
            scored = [
                ((self.insurgents(game, a["space"]),), a, "free Assault on the LoC with the most enemies")
                for a in spaces
            ]
        elif op == "train":
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
            if self.counts()["spaces"] < 3:
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
            chosen = self.memo().setdefault("train_chosen", [])
            if (
                not any(
                    self.memo().get(f"train_tier:{x}") == 1 or self.arvn_pacifiable(game, x) for x in chosen
                )
                and b.tracks["arvn_resources"] >= 3
            ):
                for a in spaces:
                    x = a["space"]
                    if self.arvn_pacifiable(game, x) and not any(a is y for _, y, _ in scored):
                        base = 1 if b.count(x, "NVA", "bases") + b.count(x, "VC", "bases") else 0
                        scored.append(
                            (
                                (0, base, self.pop(game, x)),
                                a,
                                "Train for 0 (placing nothing) in one more space to Pacify (8.7.6)",
                            )
                        )
        elif op == "assault":
            if self.counts()["spaces"] < 3:
                for a in spaces:
                    g = self.assault_gain(game, a["space"])
                    if g and (g[0] or g[1] or g[2] or g[3] >= 2):
                        scored.append(((1,) + g, a, "Assault: Bases, Control, last enemies, then 2+ pieces"))
                    elif g and done is None:  # IF NONE Assault: at least one space must be chosen
                        scored.append(((0,) + g, a, "Assault (IF NONE): the most enemy pieces removable"))
        elif op == "sweep":
            if self.counts()["spaces"] < 3:
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
                            (
                                (0,) + key,
                                a,
                                "Sweep where ARVN Troops can move in to Activate Underground Guerrillas",
                            )
                        )
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

    def arvn_pacifiable(self, game: Any, s: str) -> bool:
        """FITL-3.2.1 / FITL-8.7.6: ARVN could Pacify in ``s`` (COIN Control, ARVN Troops and Police, a shift
        allowed by the 45 cap, or Terror to remove)."""
        b = game.board
        p = b.pieces[s]
        if b.control(s) != "coin" or not (p["arvn_troops"] and p["arvn_police"]) or not self.pop(game, s):
            return False
        return b.support[s] < 2 and self.pacify_key(game, s, 1) is not None

    def on_place(self, game: Any, decision: Decision) -> Action:
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

    def pacify_key(self, game: Any, s: str, levels: int) -> tuple[int, ...] | None:
        """FITL-8.7.6: no shift to Active Support while Support + Available would exceed 45; no Terror first, then
        Opposition, then the greatest shift; Terror removed only if a shift follows."""
        b = game.board
        score = b.victory()["US"]
        if b.support[s] + levels > 1 and score + self.pop(game, s) > 45:
            return None
        if levels == 0:
            return None
        return (0 if b.terror[s] else 1, 1 if b.support[s] < 0 else 0, levels * self.pop(game, s))

    def on_train_extra(self, game: Any, decision: Decision) -> Action:
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

    def on_pacify(self, game: Any, decision: Decision) -> Action:
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

    def on_mode(self, game: Any, decision: Decision) -> Action:
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

    # ------------------------------------------------------------------ Transport (8.7.2)
    def transport_origin(self, game: Any) -> str | None:
        b = game.board
        lc = [
            s
            for s in self.spaces(game)
            if game.in_laos_cambodia(s)
            and b.pieces[s]["arvn_troops"] + b.pieces[s]["arvn_rangers:u"] + b.pieces[s]["arvn_rangers:a"]
        ]
        if lc:
            return lc[0]
        best = None
        for s in self.spaces(game):
            t = b.pieces[s]["arvn_troops"]
            if not t or not self.svn(game, s):
                continue
            spare = t
            if b.control(s) == "coin":
                spare = min(t, self.coin(game, s) - self.insurgents(game, s) - 1)
            if spare > 0 and (best is None or spare > best[0]):
                best = (spare, s)
        return best[1] if best else None

    def on_move_to(self, game: Any, decision: Decision) -> Action:
        c = decision.context
        b = game.board
        opts = self.opts(decision, "move_to")
        if c.get("sa") == "transport":
            if self.memo().get("transported"):
                return self.first(decision, "done") or opts[0]
            moving = self.movement_count(game, decision) or 6
            if c.get("op") == "assault":  # 8.7.2 TRANSPORT: enable the highest priority Assault
                gains = [
                    (g, a)
                    for a in opts
                    if a.kind == "move_to" and (g := self.assault_gain(game, a["space"], moving)) is not None
                ]
                if gains:
                    a = max(gains, key=lambda x: x[0])[1]
                    self.memo()["transported"] = True
                    self.why(
                        "8.7.2", f"Transport to {game.sname(a['space'])}: enables the best Assault (8.7.4)"
                    )
                    return a
            if c.get("op") == "sweep":  # into a Sweep space, to Activate more Underground Guerrillas
                ug = [
                    a
                    for a in opts
                    if a.kind == "move_to"
                    and game.is_pc(a["space"])
                    and b.pieces[a["space"]]["nva_guerrillas:u"] + b.pieces[a["space"]]["vc_guerrillas:u"]
                ]
                if ug:
                    a = self.pick(
                        game,
                        ug,
                        lambda a: (
                            b.pieces[a["space"]]["nva_guerrillas:u"] + b.pieces[a["space"]]["vc_guerrillas:u"]
                        ),
                    )
                    self.memo()["transported"] = True
                    self.why(
                        "8.7.2",
                        f"Transport to {game.sname(a['space'])}: to Activate the most Underground "
                        "Guerrillas in the Sweep",
                    )
                    return a
            police = [
                a
                for a in opts
                if game.kind(a["space"]) == "province"
                and b.pieces[a["space"]]["arvn_police"]
                and not b.pieces[a["space"]]["arvn_troops"]
                and not b.pieces[a["space"]]["us_troops"]
            ]
            pool = police or [a for a in opts if game.is_pc(a["space"])] or opts
            a = self.pick(game, pool, lambda a: self.pop(game, a["space"]))
            self.memo()["transported"] = True
            self.why(
                "8.7.2", f"Transport to {a.label}: a Province with Police but no Troops, highest Population"
            )
            return a
        if c.get("op") == "patrol":
            want = self.memo().get("patrol")
            for a in opts:
                if want and a["space"] == want[0]:
                    self.why("8.7.3", f"Patrol to {game.sname(a['space'])} (planned)")
                    return a
        return None  # type: ignore[return-value]

    def movement_count(self, game: Any, decision: Decision) -> int | None:
        c = decision.context
        if c.get("sa") == "transport":
            s = c.get("origin") or self.transport_origin(game)
            if s in game.data.spaces and game.board.control(s) == "coin":
                return max(1, min(6, self.coin(game, s) - self.insurgents(game, s) - 1))
            return 6
        if c.get("op") == "patrol" and self.memo().get("patrol") and not c.get("sa"):
            return self.memo()["patrol"][1]
        if c.get("op") == "sweep" and self.memo().get("sweep_n") and not c.get("sa"):
            return self.memo()["sweep_n"]
        return None

    # ------------------------------------------------------------------ Patrol (8.7.3)
    def patrol_targets(self, game: Any) -> list[tuple[str, int, str]]:
        b = game.board
        dist = saigon_distance(game)
        out = []
        locs = [
            s
            for s in self.spaces(game)
            if game.is_loc(s) and b.count(s, "NVA", "guerrillas") + b.count(s, "VC", "guerrillas")
        ]
        locs.sort(
            key=lambda s: (
                dist.get(s, 99),
                -(b.pieces[s]["nva_guerrillas:u"] + b.pieces[s]["vc_guerrillas:u"]),
            )
        )
        for s in locs:
            need = max(3, 2 * self.insurgents(game, s)) - self.cubes(game, s)
            if need > 0:
                out.append((s, need, "cubes onto a LoC with Guerrillas, nearest Saigon first"))
        cities = sorted((s for s in self.spaces(game) if game.is_city(s)), key=lambda s: -self.pop(game, s))
        for s in cities:
            need = max(3 - self.coin_cubes_sf(game, s), self.insurgents(game, s) + 1 - self.coin(game, s))
            missing = self.city_missing_cube(game, s)
            if b.control(s) != "coin" or need > 0 or missing:
                out.append(
                    (
                        s,
                        max(1, need),
                        "cubes to hold the Cities under COIN Control"
                        + (
                            f" with at least 1 Troop and 1 Police (a {missing} is missing)" if missing else ""
                        ),
                    )
                )
        return out

    def city_missing_cube(self, game: Any, s: str) -> str:
        """FITL-8.7.3 third bullet: a City under COIN Control should hold at least 1 Troop (US or ARVN) and 1
        Police; the kind it lacks ("Troop" or "Police"), or ""."""
        p = game.board.pieces[s]
        if not p["arvn_troops"] + p["us_troops"]:
            return "Troop"
        if not p["arvn_police"]:
            return "Police"
        return ""

    def patrol_spare(self, game: Any, s: str, key: str, to_loc: bool) -> int:
        b = game.board
        p = b.pieces[s]
        n = p[key]
        if game.is_city(s) and to_loc:
            return n
        if game.is_loc(s):
            return 0 if self.insurgents(game, s) else n
        keep = max(1, 3 - (self.coin_cubes_sf(game, s) - n))
        if b.control(s) == "coin":
            keep = max(keep, self.insurgents(game, s) + 1 - (self.coin(game, s) - n))
        return max(0, n - keep)

    def on_move_from(self, game: Any, decision: Decision) -> Action:
        c = decision.context
        if c.get("op") != "patrol" or c.get("sa"):
            if c.get("sa") == "raid":
                return self.raid_from(game, decision)
            return None  # type: ignore[return-value]
        m = self.memo()
        done_t = m.setdefault("targets_done", [])
        opts = self.opts(decision, "move_from")
        for dest, need, why in self.patrol_targets(game):
            if dest in done_t or (m.get("only") and dest != m["only"]):
                continue
            best = None
            lacks = self.city_missing_cube(game, dest) if game.is_city(dest) else ""
            first = "arvn_troops" if lacks == "Troop" else "arvn_police"
            for a in sorted(opts, key=lambda a: 0 if a["key"] == first else 1):
                s = a["space"]
                if s in done_t or dest not in game.patrol_reach(s):
                    continue
                spare = self.patrol_spare(game, s, a["key"], game.is_loc(dest))
                # 8.7.3: Police when possible, then Troops (the kind a City lacks first); within that from the
                # space with the most that can go
                k = (1 if a["key"] == first else 0, spare)
                if spare > 0 and (best is None or k > best[0]):
                    best = (k, a)
            if best:
                spare = best[0][1]
                m["patrol"] = (dest, min(need, spare))
                if decision.context.get("limited"):
                    m["only"] = dest  # FITL-2.3.5: a Limited Patrol has a single destination
                if spare >= need:
                    done_t.append(dest)
                self.why("8.7.3", f"{best[1].label} to {game.sname(dest)}: {why} (Police first)")
                return best[1]
            done_t.append(dest)
        self.why("8.7.3", "Patrol: no further move meets a priority")
        return self.first(decision, "done") or decision.options[0]

    def raid_from(self, game: Any, decision: Decision) -> Action:
        b = game.board
        for a in self.opts(decision, "move_from"):
            s = a["space"]
            if self.memo().get(f"raid_in:{decision.context.get('space')}"):
                break
            if control_after(game, s, -1) == b.control(s):
                self.memo()[f"raid_in:{decision.context.get('space')}"] = True
                self.why("8.7.4", f"Raid: move in 1 Ranger from {game.sname(s)} (its COIN Control stays)")
                return a
        self.why("8.7.4", "Raid: no more Rangers move in")
        return self.first(decision, "done") or decision.options[-1]

    def on_move(self, game: Any, decision: Decision) -> Action:
        c = decision.context
        b = game.board
        if decision.rule_id == "FITL-6.4.2" and "Police" in decision.prompt and self.memo().get("police"):
            dest, k = self.memo().pop("police")
            opts = [a for a in decision.options if a.get("dest") == dest] or decision.options
            a = min(opts, key=lambda a: (a.get("n", 1) > k, abs(a.get("n", 1) - k)))
            self.why("8.7.7", f"{a.label}: the Police the priority needs ({k})")
            return a
        if decision.rule_id == "FITL-6.4.2":
            return self.redeploy_to(game, decision)
        if c.get("op") != "sweep":
            return None  # type: ignore[return-value]
        best = None
        for a in self.opts(decision, "move"):
            s, d = a["origin"], a["space"]
            p = b.pieces[d]
            ug = p["nva_guerrillas:u"] + p["vc_guerrillas:u"]
            cap = game.sweep_activations("ARVN", d)[1]
            need = ug - cap
            if game.terrain(d) == "jungle":
                need *= 2
            spare = self.patrol_spare(game, s, "arvn_troops", False)
            if need > 0 and spare > 0:
                k = (min(need, spare), self.pop(game, d))
                if best is None or k > best[0]:
                    best = (k, a, min(need, spare))
        return self.sweep_move(
            decision, best, "sweep_n", "8.7.5", "to Activate the most Underground Guerrillas"
        )

    # ------------------------------------------------------------------ Redeploy (8.7.7)
    def redeploy_to(self, game: Any, decision: Decision) -> Action:
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

    def police_spare(self, game: Any, s: str) -> int:
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

    def police_targets(self, game: Any) -> list[tuple[str, int, str]]:
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

    def on_redeploy_from(self, game: Any, decision: Decision) -> Action:
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
