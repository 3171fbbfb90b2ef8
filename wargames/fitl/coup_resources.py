"""Fire in the Lake: the Coup Round's Resources Phase (FITL-6.2): Sabotage, Degrade the Trail, ARVN and
Insurgent earnings and the Aid lost to Casualties; a mixin of :class:`~wargames.fitl.coup.CoupRules`."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..core.actions import Action
from .data import COIN

FOREIGN = ("LAO", "KHM")


Flow = Generator[Any, Any, None]


class ResourcesPhase:
    """Mixin: FITL-6.2, the Resources Phase of a Coup Round."""

    def marker_supply(self) -> int:
        """Terror/Sabotage markers left in the supply (15 in all, decision F-09)."""
        total = self.data.pieces["terror_sabotage_markers"].count
        return total - sum(self.board.terror.values()) - len(self.board.sabotage)

    # ------------------------------------------------------------------ 6.2 Resources
    def sabotage_targets(self) -> list[str]:
        """FITL-6.2.1: unSabotaged LoCs where Insurgent Guerrillas outnumber COIN pieces, or next to a City
        without COIN Control."""
        b, d = self.board, self.data
        out = []
        for s, sp in sorted(d.spaces.items()):
            if sp.kind != "loc" or s in b.sabotage:
                continue
            guerrillas = b.count(s, "NVA", "guerrillas") + b.count(s, "VC", "guerrillas")
            city = any(d.spaces[n].kind == "city" and b.control(n) != "coin" for n in d.adjacent[s])
            if guerrillas > b.faction_count(s, COIN) or city:
                out.append(s)
        return out

    def coup_sabotage(self) -> Flow:
        """FITL-6.2.1: Sabotage markers go on qualifying LoCs while the supply lasts (the VC choose which when
        short: decision F-39)."""
        targets = self.sabotage_targets()
        supply = self.marker_supply()
        if not targets:
            yield self.ruling(
                "FITL-6.2.1",
                "Sabotage: none",
                "No unSabotaged LoC has more Insurgent Guerrillas "
                "than COIN pieces or touches a City without COIN Control.",
                result={"sabotaged": []},
            )
            return
        chosen: list[str] = []
        if len(targets) <= supply:
            chosen = targets
        else:
            while len(chosen) < supply:
                left = [s for s in targets if s not in chosen]
                a = yield self.decide(
                    "VC",
                    f"Sabotage: choose a LoC ({supply - len(chosen)} markers left)",
                    "FITL-6.2.1",
                    [Action.make("sabotage", f"Sabotage {self.name(s)}", [s], space=s) for s in left],
                    kind="sabotage",
                )
                chosen.append(a["space"])
        self.board.sabotage |= set(chosen)
        short = (
            f" Only {supply} markers were left, so the VC chose which." if len(chosen) < len(targets) else ""
        )
        yield self.ruling(
            "FITL-6.2.1",
            f"Sabotage: {len(chosen)} LoC(s)",
            f"Sabotage markers go on {', '.join(self.name(s) for s in chosen) or 'no LoC'}.{short}",
            result={"sabotaged": chosen},
            places=chosen,
            inputs={"qualifying": targets, "supply": supply},
            changes=[{"sabotage": s} for s in chosen],
        )

    def coup_degrade_trail(self) -> Flow:
        """FITL-6.2.2: any COIN-Controlled Laos or Cambodia space Degrades the Trail by one box (once)."""
        coin = [
            s
            for s, sp in sorted(self.data.spaces.items())
            if sp.country in FOREIGN and self.board.control(s) == "coin"
        ]
        if not coin:
            yield self.ruling(
                "FITL-6.2.2",
                "Trail not degraded",
                "No Laos or Cambodia space is COIN-Controlled.",
                result={"trail": self.board.tracks["trail"]},
            )
            return
        ori = self.lasting(39, "shaded")  # FITL-5.4 Momentum #39 Oriskany: no Degrade
        if ori:
            yield self.ruling(
                "FITL-6.2.2",
                "Trail not degraded",
                f"COIN controls {', '.join(self.name(s) for s in coin)}, but the Trail cannot be "
                f"Degraded [{ori}].",
                result={"trail": self.board.tracks["trail"]},
                places=coin,
            )
            return
        ch = self.shift("trail", -1)
        changes, adsid = [ch], self.adsid_change(ch)
        if adsid:
            changes.append(adsid[0])
        yield self.ruling(
            "FITL-6.2.2",
            "Trail degraded",
            f"COIN controls {', '.join(self.name(s) for s in coin)}: the Trail falls one box, "
            f"{ch['from']} -> {ch['to']}"
            + (" (already at 0)" if ch["from"] == ch["to"] else "")
            + "."
            + (adsid[1] if adsid else ""),
            result={"trail": ch["to"]},
            places=coin,
            changes=changes,
        )

    def adsid_change(self, ch: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        """FITL-5.4-MOM Momentum #7 ADSID: a Trail change (``ch``) costs NVA 6 Resources; (change, words) or None.
        The Coup steps also apply FITL-5.3-CAPS: #16 / #19 shaded / #86 shaded Pacification, #116 Agitation, #33
        unshaded and #39 shaded at the Reset, #15 unshaded at Commitment."""
        words = self.lasting(7, "unshaded")
        if not words or ch["from"] == ch["to"]:
            return None
        nva = self.shift("nva_resources", -6)
        return nva, f" NVA Resources {nva['from']} -> {nva['to']} [{words}: -6 per Trail change]."

    def total_econ(self) -> tuple[int, list[str]]:
        """FITL-6.2.3: the Econ of all unSabotaged LoCs (15 minus the Econ of Sabotaged ones)."""
        sab = sorted(s for s in self.board.sabotage if self.data.spaces[s].econ)
        econ = sum(
            sp.econ for s, sp in self.data.spaces.items() if sp.kind == "loc" and s not in self.board.sabotage
        )
        return econ, sab

    def coup_arvn_earnings(self) -> Flow:
        """FITL-6.2.3: ARVN Resources += Aid + Total Econ; the Econ marker is set to Total Econ."""
        aid = self.board.tracks["aid"]
        econ, sab = self.total_econ()
        before = self.board.tracks["arvn_resources"]
        ch = self.shift("arvn_resources", aid + econ)
        ch_econ = self.shift("econ", econ - self.board.tracks["econ"])
        lost = f" (Sabotage costs the Econ of {', '.join(self.name(s) for s in sab)})" if sab else ""
        cap = " (capped at 75)" if ch["to"] < before + aid + econ else ""
        yield self.ruling(
            "FITL-6.2.3",
            f"ARVN earns Aid {aid} + Total Econ {econ} = {aid + econ}",
            f"ARVN earns Aid {aid} + Total Econ {econ}{lost} = {aid + econ}: ARVN Resources "
            f"{before} -> {ch['to']}{cap}. The Econ marker now shows {econ}, the limit of US spending "
            "of ARVN Resources until the next Coup (FITL-1.8.1).",
            result={"earned": ch["to"] - before, "econ": econ},
            inputs={"aid": aid, "total_econ": econ, "sabotaged_econ_locs": sab},
            changes=[ch, ch_econ],
        )

    def coup_insurgent_earnings(self) -> Flow:
        """FITL-6.2.4: VC += VC Bases on the map; NVA += NVA Bases in Laos and Cambodia + 2 x Trail."""
        b = self.board
        vc_bases = b.on_map("vc_bases")
        nva_foreign = sum(
            b.count(s, "NVA", "bases") for s, sp in self.data.spaces.items() if sp.country in FOREIGN
        )
        trail = b.tracks["trail"]
        ch_vc = self.shift("vc_resources", vc_bases)
        ch_nva = self.shift("nva_resources", nva_foreign + 2 * trail)
        yield self.ruling(
            "FITL-6.2.4",
            "Insurgent earnings",
            f"VC earn {vc_bases} (VC Bases on the map): VC Resources {ch_vc['from']} -> {ch_vc['to']}. "
            f"NVA earn {nva_foreign} (NVA Bases in Laos and Cambodia) + 2 x Trail {trail} = "
            f"{nva_foreign + 2 * trail}: NVA Resources {ch_nva['from']} -> {ch_nva['to']}.",
            result={"vc": ch_vc["to"] - ch_vc["from"], "nva": ch_nva["to"] - ch_nva["from"]},
            inputs={"vc_bases": vc_bases, "nva_bases_laos_cambodia": nva_foreign, "trail": trail},
            changes=[ch_vc, ch_nva],
        )

    def coup_casualties_aid(self) -> Flow:
        """FITL-6.2.5: Aid -= 3 x the pieces in the Casualties box."""
        n = sum(self.board.casualties.values())
        ch = self.shift("aid", -3 * n)
        yield self.ruling(
            "FITL-6.2.5",
            "Casualties and Aid",
            f"{n} piece(s) in the Casualties box cost 3 x {n} = {3 * n} Aid: Aid {ch['from']} -> "
            f"{ch['to']}" + (" (not below 0)" if ch["from"] - ch["to"] < 3 * n else "") + ".",
            result={"aid": ch["to"]},
            inputs={"casualties": n},
            changes=[ch],
        )
