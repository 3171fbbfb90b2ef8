"""Fire in the Lake: the Coup Round's Commitment and Reset Phases (FITL-6.5, FITL-6.6, FITL-6.7): US Casualties
rotated, US commitment and withdrawal, and the Reset of markers, eligibility and the Trail; a mixin of
:class:`~wargames.fitl.coup.CoupRules`."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.actions import Action
from .coup_resources import Flow
from .data import LEVEL_NAMES
from .state import FLIPPABLE

COMMIT_TROOPS = 10  # FITL-6.5


COMMIT_BASES = 2


class CommitmentPhase:
    """Mixin: FITL-6.5 Commitment and FITL-6.6 Reset of a Coup Round."""

    # ------------------------------------------------------------------ 6.5 Commitment (2nd edition)
    def commit_locations(self) -> list[str]:
        """FITL-6.5: COIN-Controlled spaces (at the start of the phase), LoCs and Saigon."""
        return [
            s
            for s, sp in sorted(self.data.spaces.items())
            if sp.kind == "loc" or s == "saigon" or self.frozen_control.get(s) == "coin"
        ]

    def coup_commitment(self) -> Flow:
        """FITL-6.5 rotation, placement of the other US Troop Casualties, then up to 10 - placed Troops and 2 Bases
        moved among Available and the commitment locations."""
        b = self.board
        self.frozen_control = {s: b.control(s) for s in sorted(self.data.spaces)}
        self.withdrawn = 0
        troops, bases, irr = (
            b.casualties["us_troops"],
            b.casualties["us_bases"],
            b.casualties["us_irregulars"],
        )
        out = troops // 3
        changes = []
        medevac = self.lasting(15, "unshaded")  # FITL-5.4 Medevac: every US Troop Casualty to Available
        if medevac and troops:
            b.casualties["us_troops"] = 0
            b.available["us_troops"] += troops
            changes.append({"piece": "us_troops", "from": "casualties", "to": "available", "n": troops})
            yield self.ruling(
                "FITL-6.5",
                "Medevac",
                f"{troops} US Troop Casualties return to Available, none go out of play [{medevac}].",
                result={"to_available": troops},
                changes=changes,
            )
            changes = []
            troops = out = 0
        for pid, n, to in (
            ("us_troops", out, "out_of_play"),
            ("us_bases", bases, "out_of_play"),
            ("us_irregulars", irr, "available"),
        ):
            if n:
                b.casualties[pid] -= n
                getattr(b, to)[pid] += n
                changes.append({"piece": pid, "from": "casualties", "to": to, "n": n})
        b.casualties += Counter()
        yield self.ruling(
            "FITL-6.5",
            "Rotation",
            f"{troops} US Troop Casualties: 1 in 3 rounded down = {out} go out "
            f"of play; {bases} US Base Casualties go out of play; {irr} Irregular Casualties return to "
            f"Available; {troops - out} US Troops return to the map.",
            result={"out_of_play": out + bases, "to_map": troops - out},
            inputs={"troop_casualties": troops, "base_casualties": bases, "irregular_casualties": irr},
            changes=changes,
        )
        locs = self.commit_locations()
        placed = 0
        while b.casualties["us_troops"]:
            n = b.casualties["us_troops"]
            opts = [Action.make("place", f"1 US Troop to {self.name(s)}", [s], space=s, n=1) for s in locs]
            if n > 1:
                opts += [
                    Action.make("place", f"All {n} US Troops to {self.name(s)}", [s], space=s, n=n)
                    for s in locs
                ]
            a = yield self.decide(
                "US",
                f"Place the {n} US Troop Casualties returning to the map",
                "FITL-6.5",
                opts,
                kind="commit_place",
            )
            s, k = a["space"], int(a["n"])
            b.place(s, "us_troops", k, source="casualties")
            placed += k
            yield self.ruling(
                "FITL-6.5",
                f"{k} US Troops return to {self.name(s)}",
                f"{k} US Troop Casualties are placed in {self.name(s)}.",
                places=[s],
                result={"space": s, "n": k},
                changes=[{"piece": "us_troops", "from": "casualties", "to": s, "n": k}],
            )
        budget = {"us_troops": max(0, COMMIT_TROOPS - placed), "us_bases": COMMIT_BASES}
        while True:
            opts = []
            for pid, what in (("us_troops", "US Troops"), ("us_bases", "US Bases")):
                if not budget[pid]:
                    continue
                for src in ["available"] + locs:
                    have = b.available[pid] if src == "available" else b.pieces[src][pid]
                    if have and self._commit_dests(pid, src, locs):
                        where = "Available" if src == "available" else self.name(src)
                        opts.append(
                            Action.make(
                                "commit_from",
                                f"Move {what} from {where} ({have})",
                                [] if src == "available" else [src],
                                piece=pid,
                                source=src,
                            )
                        )
            if not opts:
                break
            a = yield self.decide(
                "US",
                f"Commitment: move US Troops (up to {budget['us_troops']} more) and Bases "
                f"(up to {budget['us_bases']} more), or stop",
                "FITL-6.5",
                opts + [self._done("End Commitment")],
                kind="commit_from",
            )
            if a.kind == "done":
                break
            pid, src = a["piece"], a["source"]
            have = b.available[pid] if src == "available" else b.pieces[src][pid]
            most = min(have, budget[pid])
            dopts = []
            for dst in self._commit_dests(pid, src, locs):
                where = "Available" if dst == "available" else self.name(dst)
                dopts.append(
                    Action.make(
                        "commit_to", f"1 to {where}", [] if dst == "available" else [dst], dest=dst, n=1
                    )
                )
                if most > 1 and not (pid == "us_bases" and dst != "available"):
                    dopts.append(
                        Action.make(
                            "commit_to",
                            f"{most} to {where}",
                            [] if dst == "available" else [dst],
                            dest=dst,
                            n=most,
                        )
                    )
            d = yield self.decide(
                "US", "Commitment: to where?", "FITL-6.5", dopts, kind="commit_to", source=src
            )
            dst, k = d["dest"], int(d["n"])
            if src == "available":
                b.place(dst, pid, k)
            elif dst == "available":
                b.remove(src, pid, k)
                self.withdrawn += k
            else:
                b.move(src, dst, pid, k)
            budget[pid] -= k
            frm = "Available" if src == "available" else self.name(src)
            to = "Available" if dst == "available" else self.name(dst)
            yield self.ruling(
                "FITL-6.5",
                f"US commits {k} {pid.replace('_', ' ')}",
                f"{k} {pid.replace('_', ' ')} move from {frm} to {to}.",
                result={"from": src, "to": dst, "n": k},
                places=[p for p in (src, dst) if p != "available"],
                changes=[{"piece": pid, "from": src, "to": dst, "n": k}],
            )
        changed = [s for s in sorted(self.data.spaces) if b.control(s) != self.frozen_control.get(s)]
        self.frozen_control = {}
        yield self.ruling(
            "FITL-6.5",
            "Commitment over",
            f"{self.withdrawn} US piece(s) went from the map to Available "
            f"(the VC may shift {self.withdrawn // 2} Population toward Opposition). Control changed in "
            f"{', '.join(self.name(s) for s in changed) or 'no space'}; victory markers now "
            f"{', '.join(f'{k} {v}' for k, v in self.board.victory().items())}.",
            result={"withdrawn": self.withdrawn},
            places=changed,
        )

    def _commit_dests(self, pid: str, src: str, locs: list[str]) -> list[str]:
        out = [] if src == "available" else ["available"]
        for s in locs:
            if s == src:
                continue
            if pid == "us_bases" and (
                self.data.spaces[s].kind == "loc" or self.board.count(s, ptype="bases") >= 2
            ):
                continue
            out.append(s)
        return out

    def coup_withdrawal(self) -> Flow:
        """FITL-6.5 WITHDRAWAL: for every 2 US pieces moved from the map to Available, the VC may shift 1 Population
        one level toward Opposition, at most one level per space (decision F-40)."""
        budget = self.withdrawn // 2
        shifted: list[str] = []
        b = self.board
        while budget > 0:
            opts = [
                Action.make(
                    "withdraw_shift",
                    f"Shift {self.name(s)} to {LEVEL_NAMES[b.support[s] - 1]} (Population {sp.population})",
                    [s],
                    space=s,
                )
                for s, sp in sorted(self.data.spaces.items())
                if 0 < sp.population <= budget and b.support[s] > -2 and s not in shifted
            ]
            if not opts:
                break
            a = yield self.decide(
                "VC",
                f"Withdrawal: shift up to {budget} more Population toward Opposition",
                "FITL-6.5",
                opts + [self._done("No more shifts")],
                kind="withdraw_shift",
            )
            if a.kind == "done":
                break
            s = a["space"]
            ch = self.set_support(s, b.support[s] - 1)
            budget -= self.data.spaces[s].population
            shifted.append(s)
            yield self.ruling(
                "FITL-6.5",
                f"VC shift {self.name(s)}",
                f"US withdrawal lets the VC shift {self.name(s)} to {LEVEL_NAMES[ch['to']]}.",
                places=[s],
                result={"space": s},
                changes=[ch],
            )
        if not shifted:
            yield self.ruling(
                "FITL-6.5",
                "No Withdrawal shift",
                f"{self.withdrawn} US piece(s) withdrawn: no Population shifted.",
                result={"shifted": []},
            )

    # ------------------------------------------------------------------ 6.6 Reset
    def _reset_trail(self, trail: int, changes: list[dict[str, Any]]) -> str:
        """FITL-6.6: the Trail at 0 goes to 1 and at 4 to 3 (not under Momentum #39 Oriskany, FITL-5.4), with the
        change appended to ``changes`` (and ADSID's, if in effect); returns the words to add to the ruling."""
        ori = self.lasting(39, "shaded")
        if trail in (0, 4) and not (trail == 4 and ori):
            changes.append(self.shift("trail", 1 if trail == 0 else -1))
            adsid = self.adsid_change(changes[-1])
            if adsid:
                changes.append(adsid[0])
                return adsid[1]
            return ""
        return f" The Trail stays at 4 [{ori}]." if trail == 4 else ""

    def coup_reset(self) -> Flow:
        """FITL-6.6: Trail 0 -> 1 and 4 -> 3; Terror and Sabotage removed; Guerrillas and SF Underground; Momentum
        discarded; all factions Eligible."""
        b = self.board
        changes: list[dict[str, Any]] = []
        trail = b.tracks["trail"]
        extra = self._reset_trail(trail, changes)
        migs = self.lasting(33, "unshaded")  # FITL-5.3 MiGs unshaded: NVA Resources -6 at each Reset
        if migs:
            ch = self.shift("nva_resources", -6)
            changes.append(ch)
            extra += f" NVA Resources {ch['from']} -> {ch['to']} [{migs}]."
        terror, sabotage = sum(b.terror.values()), len(b.sabotage)
        b.terror.clear()
        b.sabotage.clear()
        flipped = 0
        for s in sorted(b.pieces):
            for pid in sorted(FLIPPABLE):
                n = b.pieces[s][f"{pid}:a"]
                if n:
                    b.flip(s, pid, "u", n)
                    flipped += n
        if flipped:
            changes.append({"flipped_underground": flipped})
        if terror or sabotage:
            changes.append({"markers_removed": terror + sabotage})
        momentum = list(self.momentum)
        self.played.extend(momentum)
        self.momentum.clear()
        for f in self.eligible:
            if not self.eligible[f]:
                changes.append({"eligible": f, "from": False, "to": True})
                self.eligible[f] = True
        self.eligibility_next.clear()
        moved = b.tracks["trail"] != trail
        trail_text = (
            f"the Trail moves {trail} -> {b.tracks['trail']}" if moved else f"the Trail stays at {trail}"
        )
        yield self.ruling(
            "FITL-6.6",
            "Reset",
            f"Reset: {trail_text}; {terror} Terror and {sabotage} Sabotage "
            f"marker(s) removed; {flipped} Guerrilla(s) and Special Forces flipped Underground; "
            f"{len(momentum)} Momentum card(s) discarded; all factions are Eligible." + extra,
            result={"trail": b.tracks["trail"], "flipped": flipped},
            changes=changes,
        )
