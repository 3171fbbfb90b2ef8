"""Fire in the Lake: the Coup Round's Support Phase (FITL-6.3): Pacification by the US then ARVN and Agitation by
the VC, at most 4 spaces together and 2 levels a space; a mixin of :class:`~wargames.fitl.coup.CoupRules`."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core.actions import Action
from .coup_resources import Flow
from .data import LEVEL_NAMES

KY = 127  # Nguyen Cao Ky: Pacification costs 4 per step while he leads (decision F-36)


MAX_SPACES = 4  # FITL-6.3.1 / FITL-6.3.2


MAX_LEVELS = 2


class SupportPhase:
    """Mixin: FITL-6.3, the Support Phase of a Coup Round."""

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
