"""Fire in the Lake: the Coup Round (rules 6.0-6.7), phase by phase, every formula a ruling with its inputs.

* FITL-6.2 Resources: FITL-6.2.1 Sabotage, FITL-6.2.2 Degrade Trail, FITL-6.2.3 ARVN earnings (Aid + Total
  Econ), FITL-6.2.4 Insurgent earnings, FITL-6.2.5 Aid lost to Casualties (each Resource capped at 75, FITL-1.8);
* FITL-6.3 Support: FITL-6.3.1 Pacification by the US then ARVN (ARVN Resources; at most 4 spaces together,
  2 levels a space), FITL-6.3.2 Agitation by the VC;
* FITL-6.4 Redeploy: FITL-6.4.1 Laos and Cambodia cleared of COIN pieces, FITL-6.4.2 ARVN, FITL-6.4.3 NVA,
  FITL-6.4.4 Control, FITL-6.4.5 the final Round ends here;
* FITL-6.5 Commitment (2nd edition): rotation of US Casualties, US commitment/withdrawal, VC shifts;
* FITL-6.6 Reset, FITL-6.7 the Trail kept within 0-4 (pulled off its ends at Reset).

FITL-1.3.5: COIN pieces in Laos and Cambodia are removed at every Coup Round (FITL-6.4.1).

Choices (where to pacify, agitate, redeploy, commit) are decisions offered to the owning faction; each move
decision offers "1 piece" or "all of them" per destination so a decision never lists hundreds of actions.
Control during Redeploy and Commitment is read from the start of the phase (FITL-6.4, FITL-6.5: Control is
adjusted only at the end), kept in ``self.frozen_control``; pieces that arrived this phase do not move again
(decision F-38).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator
from typing import Any

from ..core.actions import Action
from .data import COIN, LEVEL_NAMES
from .state import FLIPPABLE

FOREIGN = ("LAO", "KHM")
KY = 127  # Nguyen Cao Ky: Pacification costs 4 per step while he leads (decision F-36)
MAX_SPACES = 4  # FITL-6.3.1 / FITL-6.3.2
MAX_LEVELS = 2
COMMIT_TROOPS = 10  # FITL-6.5
COMMIT_BASES = 2

Flow = Generator[Any, Any, None]


class CoupRules:
    """Mixin: FITL-6.1 to FITL-6.6 (the Victory Phase is in ``victory.py``)."""

    # ------------------------------------------------------------------ helpers
    def name(self, space: str) -> str:
        return self.data.spaces[space].name

    def _done(self, label: str = "Done") -> Action:
        return Action.make("done", label)

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

    # ------------------------------------------------------------------ 6.3 Support
    def pacify_cost(self) -> int:
        """FITL-6.3.1: 3 ARVN Resources a step; 4 while Nguyen Cao Ky leads (FITL-2.4.1, decision F-36); 1 with
        Momentum #16 Blowtorch Komer (FITL-5.4; the Event beats the Leader: decision F-152)."""
        if self.lasting(16, "unshaded"):
            return 1
        return 4 if self.leader_effect(KY) else 3

    def _support_step(self, faction: str, space: str, toward: int) -> tuple[str, int] | None:
        """The next step in ``space``: ("terror", 0) removes a Terror marker, ("shift", level) shifts; None if
        no step is left (at the end of the track, or 2 levels already this phase, or no Population).
        Decision F-37: Terror removal does not count toward the 2 levels."""
        b = self.board
        if b.terror[space]:
            return "terror", b.support[space]
        level = b.support[space] + toward
        if (
            self.data.spaces[space].population == 0
            or not -2 <= level <= 2
            or self.support_moved[space] >= MAX_LEVELS
        ):
            return None
        if toward > 0 and level > 1 and self.lasting(19, "shaded"):  # FITL-5.3 CORDS shaded: Passive at most
            return None
        return "shift", level

    def _support_options(
        self, faction: str, spaces: list[str], toward: int, cost: int, verb: str
    ) -> list[Action]:
        opts = []
        for s in spaces:
            step = self._support_step(faction, s, toward)
            if step is None:
                continue
            what = "remove a Terror marker" if step[0] == "terror" else f"shift to {LEVEL_NAMES[step[1]]}"
            opts.append(
                Action.make(verb, f"{verb.title()} {self.name(s)}: {what} ({cost} Resources)", [s], space=s)
            )
        return opts

    def _support_apply(self, faction: str, space: str, toward: int, track: str, cost: int, rule: str) -> Any:
        b = self.board
        kind, level = self._support_step(faction, space, toward)
        pay = self.shift(track, -cost)
        changes = [pay]
        if kind == "terror":
            b.terror[space] -= 1
            if not b.terror[space]:
                del b.terror[space]
            what = "removes a Terror marker"
            changes.append({"terror": space, "removed": 1})
        else:
            changes.append(self.set_support(space, level))
            self.support_moved[space] += 1
            what = f"shifts it to {LEVEL_NAMES[level]}"
        self.support_spaces.setdefault(rule, [])
        if space not in self.support_spaces[rule]:
            self.support_spaces[rule].append(space)
        who = "ARVN" if track == "arvn_resources" else faction
        return self.ruling(
            rule,
            f"{faction} {'Pacifies' if toward > 0 else 'Agitates in'} {self.name(space)}",
            f"{faction} pays {cost} {who} Resource{'s' if cost > 1 else ''} ({pay['from']} -> {pay['to']}) and {what} in "
            f"{self.name(space)}.",
            result={"space": space, "step": kind},
            places=[space],
            inputs={"cost": cost},
            changes=changes,
        )

    def coup_pacification(self) -> Flow:
        """FITL-6.3.1: the US, then ARVN, spend ARVN Resources (the US not below the Econ marker, FITL-1.8.1) in up
        to 4 spaces together with COIN Control, Police and the Pacifying faction's Troops."""
        self.support_moved = Counter()
        self.support_spaces = {}
        cost = self.pacify_cost()
        b = self.board
        notes = [
            w
            for w in (self.lasting(16, "unshaded"), self.lasting(19, "shaded"), self.lasting(86, "shaded"))
            if w
        ]
        if notes:
            yield self.ruling(
                "FITL-6.3.1",
                "Pacification: lasting effects",
                f"This Pacification: {cost} ARVN Resource(s) a step"
                + (f" [{self.lasting(16, 'unshaded')}]" if self.lasting(16, "unshaded") else "")
                + (
                    "; no space beyond Passive Support [" + self.lasting(19, "shaded") + "]"
                    if self.lasting(19, "shaded")
                    else ""
                )
                + (
                    "; ARVN Pacify in at most 1 space [" + self.lasting(86, "shaded") + "]"
                    if self.lasting(86, "shaded")
                    else ""
                )
                + ".",
                result={"cost": cost},
            )
        arvn_spaces: list[str] = []
        for faction in ("US", "ARVN"):
            troops = "us_troops" if faction == "US" else "arvn_troops"
            floor = b.tracks["econ"] if faction == "US" else 0
            while True:
                used = self.support_spaces.get("FITL-6.3.1", [])
                spaces = [
                    s
                    for s, sp in sorted(self.data.spaces.items())
                    if sp.kind != "loc"
                    and b.control(s) == "coin"
                    and b.pieces[s]["arvn_police"]
                    and b.pieces[s][troops]
                    and (s in used or len(used) < MAX_SPACES)
                ]
                if faction == "ARVN" and arvn_spaces and self.lasting(86, "shaded"):  # FITL-5.3: 1 space
                    spaces = [s for s in spaces if s in arvn_spaces]
                opts = (
                    self._support_options(faction, spaces, +1, cost, "pacify")
                    if b.tracks["arvn_resources"] - cost >= floor
                    else []
                )
                if not opts:
                    why = (
                        f"ARVN Resources {b.tracks['arvn_resources']} leave nothing above "
                        f"{'the Econ marker ' + str(floor) if faction == 'US' else '0'} for a {cost}-point step"
                        if b.tracks["arvn_resources"] - cost < floor
                        else "no space with COIN Control, Police and its Troops can still gain"
                    )
                    yield self.ruling(
                        "FITL-6.3.1",
                        f"{faction} Pacification over",
                        f"{faction} cannot Pacify further: {why}.",
                        result={"faction": faction, "spaces": list(used)},
                    )
                    break
                a = yield self.decide(
                    faction,
                    f"Pacification ({cost} ARVN Resources a step; spaces used {len(used)}/{MAX_SPACES})",
                    "FITL-6.3.1",
                    opts + [self._done("Stop Pacifying")],
                    kind="pacify",
                )
                if a.kind == "done":
                    break
                if faction == "ARVN" and a["space"] not in arvn_spaces:
                    arvn_spaces.append(a["space"])
                yield self._support_apply(faction, a["space"], +1, "arvn_resources", cost, "FITL-6.3.1")

    def coup_agitation(self) -> Flow:
        """FITL-6.3.2: the VC spend 1 VC Resource a step in up to 4 spaces with VC pieces and no COIN Control."""
        self.support_moved = Counter()
        b = self.board
        while True:
            used = self.support_spaces.get("FITL-6.3.2", [])
            spaces = [
                s
                for s, sp in sorted(self.data.spaces.items())
                if sp.kind != "loc"
                and b.count(s, "VC")
                and b.control(s) != "coin"
                and (s in used or len(used) < MAX_SPACES)
            ]
            cadres = self.lasting(
                116, "unshaded"
            )  # FITL-5.3 Cadres: a new Agitation space costs 2 VC Guerrillas
            if cadres:
                spaces = [
                    s
                    for s in spaces
                    if s in used or b.pieces[s]["vc_guerrillas:u"] + b.pieces[s]["vc_guerrillas:a"] >= 2
                ]
            opts = (
                self._support_options("VC", spaces, -1, 1, "agitate") if b.tracks["vc_resources"] >= 1 else []
            )
            if not opts:
                yield self.ruling(
                    "FITL-6.3.2",
                    "Agitation over",
                    "The VC cannot Agitate further (no Resources, or no "
                    "space with VC pieces and no COIN Control can still move toward Opposition).",
                    result={"spaces": list(used)},
                )
                break
            a = yield self.decide(
                "VC",
                f"Agitation (1 VC Resource a step; spaces used {len(used)}/{MAX_SPACES})",
                "FITL-6.3.2",
                opts + [self._done("Stop Agitating")],
                kind="agitate",
            )
            if a.kind == "done":
                break
            first = a["space"] not in used
            yield self._support_apply("VC", a["space"], -1, "vc_resources", 1, "FITL-6.3.2")
            if cadres and first:
                s = a["space"]
                act = min(2, b.pieces[s]["vc_guerrillas:a"])
                if act:
                    b.remove(s, "vc_guerrillas:a", act)
                if 2 - act:
                    b.remove(s, "vc_guerrillas:u", 2 - act)
                yield self.ruling(
                    "FITL-6.3.2",
                    f"Agitation in {self.name(s)}: {cadres}",
                    f"Agitating in {self.name(s)} costs 2 VC Guerrillas, Active ones first (decision "
                    f"F-116), to Available [{cadres}].",
                    result={"space": s, "removed": 2},
                    places=[s],
                )

    # ------------------------------------------------------------------ 6.4 Redeploy
    def coup_laos_cambodia(self) -> Flow:
        """FITL-6.4.1: every US and ARVN piece leaves Laos and Cambodia (US Troops out of play, others Available)."""
        self.frozen_control = {s: self.board.control(s) for s in sorted(self.data.spaces)}
        b = self.board
        moved: list[dict[str, Any]] = []
        for s, sp in sorted(self.data.spaces.items()):
            if sp.country not in FOREIGN:
                continue
            for key, n in sorted(b.pieces[s].items()):
                if self.data.pieces[key.split(":")[0]].faction in COIN:
                    to = "out_of_play" if key == "us_troops" else "available"
                    b.remove(s, key, n, to=to)
                    moved.append({"piece": key, "from": s, "to": to, "n": n})
        text = (
            "; ".join(
                f"{c['n']} {c['piece']} from {self.name(c['from'])} to {c['to'].replace('_', ' ')}"
                for c in moved
            )
            or "there were none"
        )
        yield self.ruling(
            "FITL-6.4.1",
            "COIN pieces leave Laos and Cambodia",
            f"All US and ARVN pieces in Laos and Cambodia are removed (US Troops out of play, the rest "
            f"Available): {text}.",
            result={"removed": moved},
            places=sorted({c["from"] for c in moved}),
            changes=moved,
        )

    def _move_pieces(
        self,
        side: str,
        key: str,
        what: str,
        src: str,
        dests: list[str],
        n: int,
        rule: str,
        arrived: Counter[str],
        prompt: str,
    ) -> Flow:
        """One move decision: 1 piece or all ``n`` from ``src`` to one of ``dests``; arrivals cannot move again."""
        opts = []
        for d in dests:
            opts.append(Action.make("move", f"1 {what} to {self.name(d)}", [d], dest=d, n=1))
            if n > 1:
                opts.append(Action.make("move", f"All {n} {what} to {self.name(d)}", [d], dest=d, n=n))
        a = yield self.decide(side, prompt, rule, opts, kind="move", source=src)
        dest, k = a["dest"], int(a["n"])
        self.board.move(src, dest, key, k)
        arrived[dest] += k
        yield self.ruling(
            rule,
            f"{side} moves {k} {what}",
            f"{k} {what} move from {self.name(src)} to {self.name(dest)}.",
            result={"from": src, "to": dest, "n": k},
            places=[src, dest],
            changes=[{"piece": key, "from": src, "to": dest, "n": k}],
        )

    def _optional_moves(
        self,
        side: str,
        key: str,
        what: str,
        dests_for: Callable[[str], list[str]],
        sources: list[str],
        rule: str,
        arrived: Counter[str],
    ) -> Flow:
        """Any number of optional moves: pick a source (or stop), then a destination."""
        while True:
            srcs = [s for s in sources if self.board.pieces[s][key] - arrived[s] > 0 and dests_for(s)]
            if not srcs:
                return
            opts = [
                Action.make(
                    "from",
                    f"Move {what} from {self.name(s)} ({self.board.pieces[s][key] - arrived[s]} may move)",
                    [s],
                    space=s,
                )
                for s in srcs
            ]
            a = yield self.decide(
                side,
                f"Redeploy {what}: choose where from, or stop",
                rule,
                opts + [self._done(f"No more {what} moves")],
                kind="redeploy_from",
            )
            if a.kind == "done":
                return
            s = a["space"]
            yield from self._move_pieces(
                side,
                key,
                what,
                s,
                dests_for(s),
                self.board.pieces[s][key] - arrived[s],
                rule,
                arrived,
                f"Redeploy {what} from {self.name(s)} to where?",
            )

    def coin_base(self, space: str) -> bool:
        return bool(self.board.pieces[space]["us_bases"] or self.board.pieces[space]["arvn_bases"])

    def arvn_troop_destinations(self) -> list[str]:
        """FITL-6.4.2: Cities without NVA Control (at the start of Redeploy), spaces with US or ARVN Bases, Saigon."""
        return [
            s
            for s, sp in sorted(self.data.spaces.items())
            if (sp.kind == "city" and self.frozen_control[s] != "nva") or self.coin_base(s) or s == "saigon"
        ]

    def coup_arvn_redeploy(self) -> Flow:
        """FITL-6.4.2: ARVN Troops must leave LoCs and Provinces without COIN Bases and may move elsewhere; then
        Police may move to LoCs or COIN-Controlled spaces in South Vietnam."""
        b, d = self.board, self.data
        arrived: Counter[str] = Counter()
        dests = self.arvn_troop_destinations()
        must = [
            s
            for s, sp in sorted(d.spaces.items())
            if b.pieces[s]["arvn_troops"]
            and (sp.kind == "loc" or sp.kind == "province" and not self.coin_base(s))
        ]
        for s in must:
            while b.pieces[s]["arvn_troops"]:
                n = b.pieces[s]["arvn_troops"]
                yield from self._move_pieces(
                    "ARVN",
                    "arvn_troops",
                    "ARVN Troops",
                    s,
                    [x for x in dests if x != s],
                    n,
                    "FITL-6.4.2",
                    arrived,
                    f"ARVN Troops must leave {self.name(s)} ({n} left): to where?",
                )
        yield from self._optional_moves(
            "ARVN",
            "arvn_troops",
            "ARVN Troops",
            lambda s: [x for x in dests if x != s],
            [s for s in sorted(d.spaces) if s not in must],
            "FITL-6.4.2",
            arrived,
        )
        police_dests = [
            s
            for s, sp in sorted(d.spaces.items())
            if sp.kind == "loc" or (sp.country == "SVN" and self.frozen_control[s] == "coin")
        ]
        yield from self._optional_moves(
            "ARVN",
            "arvn_police",
            "ARVN Police",
            lambda s: [x for x in police_dests if x != s],
            sorted(d.spaces),
            "FITL-6.4.2",
            Counter(),
        )
        yield self.ruling(
            "FITL-6.4.2",
            "ARVN Redeploy done",
            f"ARVN Troops had to leave {len(must)} space(s) "
            f"({', '.join(self.name(s) for s in must) or 'none'}).",
            result={"forced": must},
        )

    def coup_nva_redeploy(self) -> Flow:
        """FITL-6.4.3: NVA Troops may move from any space to any space with an NVA Base."""
        d = self.data
        bases = [s for s in sorted(d.spaces) if self.board.count(s, "NVA", "bases")]
        yield from self._optional_moves(
            "NVA",
            "nva_troops",
            "NVA Troops",
            lambda s: [x for x in bases if x != s],
            sorted(d.spaces),
            "FITL-6.4.3",
            Counter(),
        )
        yield self.ruling(
            "FITL-6.4.3",
            "NVA Redeploy done",
            f"NVA Troops could go to the {len(bases)} space(s) with NVA Bases.",
            result={"bases": bases},
        )

    def coup_control(self) -> Flow:
        """FITL-6.4.4: Control is adjusted after the moves (it is a function of the pieces, FITL-1.7)."""
        changed = [s for s in sorted(self.data.spaces) if self.board.control(s) != self.frozen_control.get(s)]
        text = (
            "; ".join(
                f"{self.name(s)}: {self.frozen_control.get(s) or 'none'} -> {self.board.control(s) or 'none'}"
                for s in changed
            )
            or "no change"
        )
        self.frozen_control = {}
        yield self.ruling(
            "FITL-6.4.4",
            "Control adjusted",
            f"Control after Redeploy: {text}.",
            result={"changed": changed},
            places=changed,
            inputs={"victory": self.board.victory()},
        )

    def coup_game_end(self) -> Flow:
        """FITL-6.4.5: the final Round ends here and the margins decide (FITL-7.3)."""
        if self.final_coup:
            yield from self.final_victory("FITL-6.4.5")
        else:
            yield self.ruling(
                "FITL-6.4.5",
                "Not the final Coup",
                f"{self.coups_left()} Coup card(s) remain in the "
                "deck: the Round goes on to Commitment and Reset.",
                result={"final": False},
            )

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
    def coup_reset(self) -> Flow:
        """FITL-6.6: Trail 0 -> 1 and 4 -> 3; Terror and Sabotage removed; Guerrillas and SF Underground; Momentum
        discarded; all factions Eligible."""
        b = self.board
        changes: list[dict[str, Any]] = []
        trail = b.tracks["trail"]
        extra = ""
        ori = self.lasting(39, "shaded")  # FITL-5.4 Momentum #39 Oriskany: the Trail is not Degraded 4 -> 3
        if trail in (0, 4) and not (trail == 4 and ori):
            changes.append(self.shift("trail", 1 if trail == 0 else -1))
            adsid = self.adsid_change(changes[-1])
            if adsid:
                changes.append(adsid[0])
                extra += adsid[1]
        elif trail == 4:
            extra += f" The Trail stays at 4 [{ori}]."
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
