"""Vietnam: Rumor of War, the end of the player turns and C) the End Phase (ROW-3.0): mission effects (ROW-9.5),
Bunkers and Fire Bases (ROW-6.2, 14.1), tunnels discovered (ROW-14.3), voluntary eliminations, HQ Interdicted
markers removed (ROW-10.4.1), the US election (ROW-14.5), the victory point check (ROW-12.1) and the turn advance.
"""

from __future__ import annotations

from dataclasses import replace as dc_replace
from typing import TYPE_CHECKING

from ..core import Action
from . import hq as H
from . import victory as V
from .control import capitalist_controlled, enemy_zoc
from .pieces import CAPITALIST, COMMUNIST
from .scenario import turn_label
from .supply import (
    change,
    change_infrastructure,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class EndPhaseMixin:
    """The end phase steps of :class:`RowGame`."""

    def _prune_works(self: RowGame):
        """ROW-6.2 b, c: a Bunker or Fortification no Communist unit occupies is removed (at the end of each
        activation, decision R-GAME-12)."""
        for h in sorted(self.works):
            if not any(
                self.side_of(u) == COMMUNIST and self.rows[u].kind == "unit" for u in self.at_hex.get(h, [])
            ):
                gone = self.works.pop(h)
                yield self.ruling(
                    "ROW-6.2",
                    f"{gone} removed",
                    f"No Communist unit holds {h}: its {gone} is removed.",
                    result={"hex": h, "works": gone},
                    places=[h],
                )

    def _place_bunker(self: RowGame, a: Action):
        hid = self.pos[a["unit"]]
        if self.works.get(hid) != "Fortification":
            self.works[hid] = "Bunker"
        yield self.ruling(
            "ROW-9.5",
            "Bunker placed",
            f"A Bunker is placed with {self.rows[a['unit']].name} at "
            f"{hid}: a defender there takes 1 less from the final spread (6.2 c).",
            result={"hex": hid},
            places=[hid],
        )

    def communist_mission_effects(self: RowGame):
        """ROW-9.5, end of the Communist Activation phase: Infiltrate (a D6 per VC unit in a cultivated hex, each 1
        costs the Capitalist 1 Infrastructure; one Bunker on a VC unit; the Airfield Strikes are not in this
        scenario) or Recruit (up to three Bunkers on units in Communist-controlled hexes)."""
        mission = self.missions[COMMUNIST]
        sit = self.situation()
        if mission == "infiltrate":
            r, opts = H.infiltrate_end_of_phase(sit, self.dice, self.map)
            yield self._stamp(
                dc_replace(
                    r,
                    explanation=r.explanation
                    + ("" if self.air_on() else " (Airfield strikes: none, this scenario has no airfields.)"),
                )
            )
            if self.air_on():  # ROW-10.3.3.1: the VC's airfield strikes under Infiltrate
                yield from self.air_vc_airfield_strikes()
            if r.result["infrastructure"]:
                new, rr = change_infrastructure(
                    self.pools_obj(), CAPITALIST, r.result["infrastructure"], "Infiltrate"
                )
                self.set_pools(new)
                yield self._stamp(rr)
            a = yield self.decide(
                COMMUNIST, "Infiltrate: place a Bunker on a VC unit?", "ROW-9.5", opts, kind="bunker"
            )
            if a.kind == "place_bunker":
                yield from self._place_bunker(a)
        elif mission == "recruit":
            cap = capitalist_controlled(sit, self.map)
            placed = 0
            while True:
                ctl = frozenset(h for h in self.at_hex if h not in cap)
                opts = H.recruit_bunker_options(self.situation(), ctl, placed)
                if len(opts) <= 1:
                    break
                a = yield self.decide(
                    COMMUNIST, f"Recruit: place Bunker {placed + 1} of 3?", "ROW-9.5", opts, kind="bunker"
                )
                if a.kind == "no_bunker":
                    break
                placed += 1
                yield from self._place_bunker(a)
        else:
            yield self.ruling(
                "ROW-9.5",
                "End-of-phase mission effects",
                f"The Communist mission ({mission}) has no effect at the end of the Activation phase.",
                result={"mission": mission},
            )

    def capitalist_mission_effects(self: RowGame):
        """ROW-9.5 Vietnamization, end of the Capitalist Activation phase: twice, an Elite marker on an ARVN
        division or a Poor marker off one."""
        mission = self.missions[CAPITALIST]
        if mission != "vietnamization":
            yield self.ruling(
                "ROW-9.5",
                "End-of-phase mission effects",
                f"The Capitalist mission ({mission}) has no effect at the end of the Activation phase.",
                result={"mission": mission},
            )
            return
        done = 0
        while True:
            opts = H.vietnamization_options(self.situation(), done)
            if len(opts) <= 1:
                break
            a = yield self.decide(
                CAPITALIST,
                f"Vietnamization: improvement {done + 1} of 2",
                "ROW-9.5",
                opts,
                kind="vietnamization",
            )
            if a.kind == "stop":
                break
            done += 1
            u = a["unit"]
            marks = set(self.markers[u])
            marks = (marks | {"Elite"}) if a.kind == "add_elite" else (marks - {"Poor"})
            self.markers[u] = tuple(sorted(marks))
            self._touch()
            yield self.ruling(
                "ROW-9.5",
                "Vietnamization",
                f"{a.label}.",
                result={"unit": u, "change": a.kind},
                places=[self.pos[u]],
            )

    def _build_fire_base(self: RowGame):
        """ROW-14.1.2: the Capitalist may build a Fire Base on a Capitalist-controlled hex (2 helicopter points): it
        controls its hex and the adjacent ones and gives artillery support within 2 hexes whatever the trace; in an
        enemy ZoC it turns Hot (US Artillery -1)."""
        if self.pools["Helicopter Used"] < 2:
            return
        cap = capitalist_controlled(self.situation(), self.map)
        enemy = {h for u, h in self.pos.items() if self.side_of(u) != CAPITALIST}
        spots = sorted(
            h
            for h in cap & self.window_land
            if h not in self.fire_bases and h not in enemy and self.map.country(h) == "SVN"
        )
        if not spots:
            return
        a = yield self.decide(
            CAPITALIST,
            "Build a Fire Base (2 helicopter points)?",
            "ROW-14.1.2",
            [
                *(Action.make("fire_base", f"Fire Base at {h}", [h], hex=h) for h in spots),
                Action.make("no_fire_base", "No Fire Base"),
            ],
            kind="fire_base",
        )
        if a.kind == "no_fire_base":
            return
        new, r = change(self.pools_obj(), "Helicopter Used", -2, "a Fire Base")
        self.set_pools(new)
        self.fire_bases[a["hex"]] = "Fire Base"
        self._touch()
        yield self.ruling(
            "ROW-14.1.2",
            "Fire Base built",
            f"A Fire Base goes on {a['hex']}. {r.explanation}",
            result={"hex": a["hex"]},
            places=[a["hex"]],
        )
        yield from self._hot_fire_bases()

    def _hot_fire_bases(self: RowGame):
        """ROW-14.1.2: a Fire Base in an enemy ZoC turns Hot once: US Artillery -1."""
        zoc = enemy_zoc(self.situation(), CAPITALIST, self.map)
        for h, state in sorted(self.fire_bases.items()):
            if state == "Fire Base" and h in zoc:
                self.fire_bases[h] = "Hot FB"
                new, r = change(self.pools_obj(), "US Artillery", -1, "Hot Fire Base", forced=True)
                self.set_pools(new)
                self._touch()
                yield self.ruling(
                    "ROW-14.1.2",
                    "Hot Fire Base",
                    f"The Fire Base at {h} is in an enemy ZoC and turns Hot. {r.explanation}",
                    result={"hex": h},
                    places=[h],
                )

    def remove_fire_bases(self: RowGame):
        """ROW-14.1.2: the Fire Bases still on the map come off at the end of the Capitalist turn."""
        gone = sorted(self.fire_bases)
        self.fire_bases.clear()
        self._touch()
        yield self.ruling(
            "ROW-14.1.2",
            "Fire Bases",
            (f"The Fire Bases at {', '.join(gone)} come off" if gone else "No Fire Base is on the map") + ".",
            result={"removed": gone},
            places=gone,
        )

    def discover_tunnels(self: RowGame):
        """ROW-14.3: a Hidden tunnel with a US or Capitalist Minor unit on it is Discovered (not by ARVN)."""
        found = []
        for h, st in sorted(self.tunnels.items()):
            if st == "Hidden" and any(
                self.side_of(u) == CAPITALIST
                and self.rows[u].kind == "unit"
                and self.rows[u].nationality in ("US", "ROK", "Thai", "Aus")
                for u in self.at_hex.get(h, [])
            ):
                self.tunnels[h] = "Discovered"
                found.append(h)
        yield self.ruling(
            "ROW-14.3",
            "Tunnels",
            (
                f"Tunnels discovered at {', '.join(found)}"
                if found
                else "No Hidden tunnel has a US or Minor unit on it"
            )
            + ".",
            result={"discovered": found},
            places=found,
        )

    def _voluntary(self: RowGame, side: str, rule: str):
        while True:
            own = [u for u in sorted(self.pos) if self.side_of(u) == side and self.rows[u].kind == "unit"]
            opts = [
                Action.make(
                    "give_up", f"Remove {self.rows[u].name} to the Replacements box", [self.pos[u]], unit=u
                )
                for u in own
            ]
            a = yield self.decide(
                side,
                f"{side}: remove units voluntarily?",
                rule,
                [*opts, Action.make("keep_all", f"{side} keeps every unit")],
                kind="voluntary_removal",
            )
            if a.kind == "keep_all":
                return
            hid = self.pos[a["unit"]]
            sf = (
                self.rows[a["unit"]].has("special_forces") and self.sow_in_play()
            )  # 14.1.5: ready for SOW (sow.py)
            self.place(a["unit"], None, "sf_ready" if sf else "replacements")
            self._clear_markers(a["unit"])
            self._touch()
            yield self.ruling(
                rule,
                "Voluntary elimination",
                f"{self.rows[a['unit']].name} leaves {hid} for the Replacements box (no loss roll).",
                result={"unit": a["unit"]},
                places=[hid],
            )

    def communist_voluntary_elimination(self: RowGame):
        yield from self._voluntary(COMMUNIST, "ROW-3.0")

    def capitalist_voluntary_elimination(self: RowGame):
        yield from self._voluntary(CAPITALIST, "ROW-14.1.5")

    def remove_hq_interdicted(self: RowGame):
        if self.air_on():
            return (yield from self.air_remove_interdicted())
        yield from self._no_air("HQ Interdicted markers", "ROW-10.4.1")

    def us_election(self: RowGame):
        politics = self.scenario.politics
        if self.pol.get("party") and politics is not None and politics.elections:
            yield from self.election_step()  # politics.py (14.5)
            return
        yield self.ruling(
            "ROW-14.5",
            "US election",
            "No US election falls in this scenario.",
            result={"election": False},
            inputs={"scenario rule": "no_elections"},
        )

    def victory_point_check(self: RowGame):
        """ROW-12.1 / ROW-12.1.1 (C-e): the scenario's end-of-turn awards (immediate ones are given at once), the accumulator rolls, Westmoreland's +1 Unrest,
        the accumulators reset; 31 VP wins at once."""
        if self.missions[COMMUNIST] == "general_uprising":
            yield from self._uprising_victory_phase()
        sit = self.situation()
        cap = capitalist_controlled(sit, self.map)
        com_units = sit.occupied(COMMUNIST)
        while True:  # 12.1.3: the Communist may claim unfought objectives in hexes he controls
            opts = V.claim_options(
                {h: (o["value"], o["chit"]) for h, o in self.objectives.items()},
                frozenset(h for h in self.objectives if h not in cap),
            )
            if not opts:
                break
            a = yield self.decide(
                COMMUNIST,
                "Claim an Objective marker?",
                "ROW-12.1.3",
                [*opts, Action.make("no_claim", "Claim no more objectives")],
                kind="objective_claim",
            )
            if a.kind == "no_claim":
                break
            o = self.objectives.pop(a["hex"])
            s, r = V.claim_objective(
                self.vstate(), a["hex"], o["value"], o["chit"], a["hex"] not in cap, chinese=self.china_in()
            )
            self.set_vstate(s)
            yield self._stamp(r)
            yield from self._check_win()
            if self._over:
                return
        for aw in self.scenario.victory.awards:
            if aw.when != "end_of_turn":
                continue
            if aw.per == "hex":
                held = [h for h in aw.hexes if h not in cap]
                n = aw.vp * len(held)
                text = f"{aw.name}: the {aw.side} controls {', '.join(held) or 'none of them'}"
            elif aw.per == "season" and aw.vp < 0:  # R-SCN-41: a loss every season, never below 0
                have = self.vp["us_military_victory" if aw.side == CAPITALIST else "us_unrest"]
                n = max(aw.vp, -have)
                text = f"{aw.name}: {aw.condition} ({aw.vp} VP, never below 0)"
                if aw.us_units_at_least is not None:  # R-WAR-38: only while the Americans fight
                    us = sum(
                        1
                        for u in self.pos
                        if self.rows[u].kind == "unit" and self.rows[u].nationality == "US"
                    )
                    if us < aw.us_units_at_least:
                        n = 0
                    text += (
                        f"; {us} American units on the map, "
                        + ("at least" if us >= aw.us_units_at_least else "fewer than")
                        + f" the {aw.us_units_at_least} it needs"
                    )
                shock = [
                    f"the {side}'s {self.missions[side]}".replace("_", " ")
                    for side, names in sorted(aw.unless_missions.items())
                    if self.missions.get(side) in names
                ]
                if shock:  # R-WAR-39: not in the season of these missions
                    n = 0
                    text += f"; not this season: {' and '.join(shock)}"
                yield self.ruling(
                    "ROW-12.1.2",
                    f"Award: {aw.name}",
                    text + f": {n} VP to the {aw.side}.",
                    result={"award": aw.id, "vp": n},
                )
                if n:
                    yield from self._award(aw.side, n, f"scenario award {aw.id}")
                continue
            else:
                zone = {
                    x for h in aw.hexes for x in ([h, *self.map.within(h, aw.radius)] if aw.radius else [h])
                }
                ok = not (zone & com_units)
                n = aw.vp if ok else 0
                text = f"{aw.name}: {'met' if ok else 'not met'} ({aw.condition})"
            if (
                n
            ):  # 9.5 (R-WAR-10): a held-hex award is territorial; any award to the Communist an Unrest award
                val = V.vp_value(
                    "end_turn",
                    missions=dict(self.missions),
                    commander={CAPITALIST: self.commander(CAPITALIST), COMMUNIST: None},
                    base=n,
                    chinese=self.china_in(),
                    also=(("territorial",) if aw.per == "hex" else ())
                    + (("unrest_award",) if aw.side == COMMUNIST else ()),
                )
                text += f"; {val.explanation}"
                n = val.result
            yield self.ruling(
                "ROW-12.1",
                f"Award: {aw.name}",
                text + f": {n} VP to the {aw.side}.",
                result={"award": aw.id, "vp": n},
                places=list(aw.hexes),
            )
            if n:
                yield from self._award(aw.side, n, f"scenario award {aw.id}", valued=True)
                if self._over:
                    return
        for track, key, side in (
            ("Body Count", "body_count", CAPITALIST),
            ("US Casualties", "casualties", COMMUNIST),
        ):
            if self.vp[key] > 0:
                a = yield self.decide(
                    side,
                    f"End Phase: roll on {track} ({self.vp[key]})?",
                    "ROW-12.1.4",
                    [
                        Action.make("roll_accumulator", f"Roll on {track}", track=key),
                        Action.make("no_roll", f"Do not roll on {track}", track=key),
                    ],
                    kind="accumulator_roll",
                )
                if a.kind == "roll_accumulator":
                    s, r = V.roll_accumulator(self.vstate(), key, self.dice, vp=self._vp_value(key))
                    self.set_vstate(s)
                    yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, dice=r.dice)
                    if s.winner:
                        yield from self._check_win()
                        return
        if self.commander(CAPITALIST) == "Westmoreland":
            yield from self._award(COMMUNIST, 1, "Westmoreland in command (14.2.1)")
            if self._over:
                return
        s, r = V.end_phase_reset(self.vstate())
        self.set_vstate(s)
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)

    def _uprising_victory_phase(self: RowGame):
        """ROW-9.5 (digest decision 58, R-WAR-11): the season of the General Uprising, before its VP awards: every VC
        battalion leaves the map for good (to the Destroyed box); from now on a destroyed VC unit and a routed VC HQ
        are eliminated for good (:meth:`elimination_box`)."""
        r = H.uprising_victory_phase(self.situation())
        for u in r.result["remove"]:
            self.place(u, None, "destroyed")
            self._clear_markers(u)
            self.fresh[u] = False
        self._touch()
        yield self._stamp(r)

    def advance_turn(self: RowGame):
        """ROW-3.0 / ROW-12.1: the next season, or the end of the scenario (the higher total wins, ties to the
        Communist)."""
        if self.season >= self.scenario.last_turn:
            yield from self.final_result()
            return
        self.missions.update({CAPITALIST: None, COMMUNIST: None})
        self.restricted.update({CAPITALIST: "none", COMMUNIST: "none"})
        yield self.ruling(
            "ROW-3.0",
            "Next season",
            f"{turn_label(self.season)} ends; {turn_label(self.season + 1)} begins.",
            result={"next": self.season + 1},
        )

    def final_result(self: RowGame):
        r = V.result(self.vstate(), final=True)
        s = self.vstate()
        yield self.end(
            "ROW-12.1",
            f"End of the scenario: the {r.result} wins",
            r.explanation,
            result={
                "winner": r.result,
                "level": "end of scenario",
                "margins": {
                    CAPITALIST: s.us_military_victory - s.us_unrest,
                    COMMUNIST: s.us_unrest - s.us_military_victory,
                },
            },
        )
