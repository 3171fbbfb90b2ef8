"""Ground combat in phases 2 and 6 (summary lines 33-38, 55): TET-P2-1 .. TET-P2-17, TET-P6-1, TET-P6-6.

Procedure of one combat phase:

1. TET-P2-1 / TET-P6-1: the Communist player turns face up the hidden units that will fight (in areas
   where they meet Allied units); revealed and city units may then fire and be fired on.
2. TET-P2-2: the Allied player picks the order of the area battles.
3. TET-P2-3: one round per area.  A side forms fire groups: each group fires at one enemy target, every
   unit fires at most once and every target is fired on at most once.  Fire order: TET-P2-4 (city: the
   Allies first), TET-P2-5 (province or insurrection city: simultaneous), TET-P2-7 (sanctuary: NVA/VC
   first, Allied groups with a member fired on shift one column left, decision A-12), TET-P2-6 (turn 1:
   sappers before everyone).  "First" means its results apply before the other side fires (A-13).
4. TET-P2-8 odds, TET-P2-9 mech/cav halved in highland/marsh provinces, TET-UNIT-8 insurrection bonus;
   the CRT (a reconstruction, data/tet/crt.csv) gives OR (TET-P2-10: to Casualties), H (retreat,
   TET-P2-12 .. TET-P2-16; a hit Ruff Puff is lost, TET-P2-11) or M (no effect).
5. TET-P2-17: airbases held by NVA/VC with no Allied ground unit lose the air units based there.
6. TET-P6-6 (phase 6 only): insurrections end where the Allies hold the city; SVN -PV once per city.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from ..core import Action, Lookup
from .air import BATTLESHIP, STRIKE_TYPES
from .data import AIR_TYPES, COMMUNIST, NOT_GROUND
from .odds import odds_column, ratio_text, shift

MARKER = "insurrection_marker"


@cache
def _fraction(numerator: int, denominator: int) -> Fraction:
    """The same few exact strengths again and again (Fractions are immutable, so one object serves all)."""
    return Fraction(numerator, denominator)


class CombatRules:
    # ------------------------------------------------------------------ who can fight
    def can_fire(self, uid: str) -> bool:
        u = self.unit(uid)
        if u.faction in COMMUNIST:
            return self.face_up[uid]
        return u.type not in NOT_GROUND and u.cf > 0

    def can_be_target(self, uid: str) -> bool:
        """Face-up Communist units; Allied ground units (air units are never fired on: decision A-19; Recce have
        no combat factor and are not ground units: TET-UNIT-10)."""
        u = self.unit(uid)
        if u.faction in COMMUNIST:
            return self.face_up[uid]
        return u.type not in NOT_GROUND

    def fire_strength(self, uid: str, area: str) -> Fraction:
        """TET-P2-9: Allied mech/cav fire at half strength in highland or marsh provinces (not in cities)."""
        u = self.unit(uid)
        a = self.data.areas[area]
        if u.type == "mech_cav" and a.kind == "province" and a.terrain in ("highland", "marsh"):
            return _fraction(u.cf, 2)
        return _fraction(u.cf, 1)

    def defense_strength(self, uid: str) -> int:
        u = self.unit(uid)
        return u.defense if u.defense is not None else u.cf

    def battle_areas(self) -> list[str]:
        """Areas with face-up NVA/VC units and Allied ground units (decision A-17)."""
        out = []
        areas, units = self.data.areas, self.data.units
        for a in (areas[x] for x, here in self.loc.index.items() if x in areas and here):  # areas with units
            if a.kind == "box":
                continue
            here = self.loc.index[a.id]
            red = any(units[u].faction in COMMUNIST and self.face_up[u] for u in here)
            blue = red and any(
                self.side_of(u) == "Allied"
                and (self.can_be_target(u) or self.phase.id == "p6" and self.unit(u).type in STRIKE_TYPES)
                for u in here
            )
            if blue:
                out.append(a.id)
        return sorted(out)

    # ------------------------------------------------------------------ the phases
    def communist_combat(self):
        """Phase 2 (TET-P2-1 .. TET-P2-17)."""
        yield from self.combat_phase("TET-P2-1")

    def allied_combat(self):
        """Phase 6 (TET-P6-1): ground combat as in phase 2, then insurrections put down (TET-P6-6)."""
        yield from self.combat_phase("TET-P6-1")
        yield from self.insurrection_removal()

    def combat_phase(self, reveal_rule: str):
        again = self.resumed("battles")  # a restartable loop: Back resumes between battles (issue #13)
        done: set[str] = set(again["done"]) if again else set()
        if again is None:
            self.battleship_used = False
            yield from self.reveal_for_combat(reveal_rule)
        while True:
            self.checkpoint("battles", done=sorted(done))
            left = [a for a in self.battle_areas() if a not in done]
            if not left:
                break
            options = [
                Action.make("battle", label=f"Fight the battle in {self.area_name(a)}", places=(a,), area=a)
                for a in left
            ]
            act = yield self.decide(
                "Allied", "Choose the next area battle", "TET-P2-2", options, kind="battle"
            )
            done.add(act["area"])
            yield from self.battle(act["area"])
        if not done:
            yield self.ruling(
                "TET-P2-3",
                "No battles",
                "No area holds both face-up NVA/VC units and Allied "
                "ground units, so there is no combat this phase.",
                result={"battles": 0},
            )
        yield from self.airbase_overrun()

    def reveal_for_combat(self, rule: str):
        """TET-P2-1 / TET-P6-1: the Communist player reveals hidden units that will fight (with 4 players the
        NVA and the VC each reveal their own: TET-COMP-5)."""
        revealed: list[str] = []
        for faction in self.factions_acting("Communist"):
            while True:
                cands = sorted(
                    u
                    for u, where in self.loc.items()
                    if where
                    and self.unit(u).faction in COMMUNIST
                    and self.acts_for(faction, u)
                    and not self.face_up[u]
                    and where not in ("casualties", "eliminated")
                    and u not in revealed
                    and any(
                        self.side_of(o) == "Allied" and self.can_be_target(o) for o in self.units_in(where)
                    )
                )
                options = [
                    Action.make(
                        "reveal",
                        label=f"Reveal {self.describe(u)} in {self.loc[u]} to fight",
                        places=(self.loc[u],),
                        unit=u,
                    )
                    for u in cands
                ]
                options.append(Action.make("reveal_done", label="Reveal no more units"))
                act = yield self.decide(
                    "Communist", "Turn face up the units that will fight", rule, options, kind="reveal"
                )
                if act.kind == "reveal_done":
                    break
                u = act["unit"]
                self.face_up[u] = True
                revealed.append(u)
                yield self.ruling(
                    rule,
                    "Unit revealed to fight",
                    f"{self.describe(u)} in {self.area_name(self.loc[u])} is turned face up: it may "
                    "now fire, and it may be fired on.",
                    inputs={"unit": u},
                    result={"revealed": u},
                    changes=[{"unit": u, "face_up": True}],
                    places=(self.loc[u],),
                )

    # ------------------------------------------------------------------ one battle
    def fire_order(self, area: str) -> tuple[str, list[list[tuple[str, bool | None]]]]:
        """Volleys for one area: each volley is a list of (side, sappers_only) firing together."""
        a = self.data.areas[area]
        if a.kind == "sanctuary":
            rule, order = "TET-P2-7", [[("Communist", None)], [("Allied", None)]]
        elif a.kind == "city" and area not in self.insurrection:
            rule, order = "TET-P2-4", [[("Allied", None)], [("Communist", None)]]
        else:
            rule, order = "TET-P2-5", [[("Allied", None), ("Communist", None)]]
        if self.turn == 1 and any(
            self.unit(u).type == "sapper" and self.face_up[u] for u in self.units_in(area)
        ):
            rule = "TET-P2-6"
            order = [[("Communist", True)]] + [
                [(s, False if s == "Communist" else o) for s, o in v] for v in order
            ]
        return rule, order

    def battle(self, area: str):
        rule, order = self.fire_order(area)
        words = {
            "TET-P2-4": "in a city the Allies fire first",
            "TET-P2-5": "in the countryside or a risen city both sides fire at once",
            "TET-P2-7": "in a sanctuary the NVA/VC fire first",
            "TET-P2-6": "on turn 1 the sappers fire before anyone else",
        }
        how = words[rule]
        if rule == "TET-P2-6" and not any(
            self.unit(u).type == "sapper" and self.face_up[u] for u in self.units_in(area)
        ):
            how += " (none fight here, so both sides then fire at once)"
        yield self.ruling(
            rule,
            f"Battle in {self.area_name(area)}",
            f"One round of fire in {self.area_name(area)}: {how}.",
            inputs={"area": area, "volleys": [[s for s, _ in v] for v in order]},
            places=(area,),
        )
        state = {"fired": set(), "fired_upon": set(), "out": set(), "bonus_used": False}
        if self.phase.id == "p6":
            yield from self.air_strikes(area, state)  # TET-P6-2: aircraft before any ground fire
        for volley in order:
            attacks = []
            for side, sappers in volley:
                attacks += yield from self.declare_fire(area, side, sappers, state)
            results = []
            for attack in attacks:
                results.append((yield from self.resolve_fire(area, attack, state)))
            for target, result in results:
                yield from self.apply_result(area, target, result, state)

    def _fire_ready(self, area, side, sappers, state) -> list[str]:
        out = []
        for u in self.units_in(area):
            if self.side_of(u) != side or u in state["fired"] or u in state["out"] or not self.can_fire(u):
                continue
            if sappers is True and self.unit(u).type != "sapper":
                continue
            if sappers is False and self.unit(u).type == "sapper" and side == "Communist":
                continue  # the sappers already had their turn-1 volley
            out.append(u)
        if (
            side == "Communist"
            and sappers is not True
            and area in self.insurrection
            and not state["bonus_used"]
        ):
            out.append(MARKER)
        if side == "Allied" and self.battleship_ready(area):
            out.append(BATTLESHIP)  # TET-P6-5
        return sorted(out)

    def _targets(self, area, side, state) -> list[str]:
        return sorted(
            u
            for u in self.units_in(area)
            if self.side_of(u) != side
            and u not in state["fired_upon"]
            and u not in state["out"]
            and self.can_be_target(u)
        )

    def _strength(self, uid: str, area: str) -> Fraction:
        if uid == MARKER:
            return Fraction(2 * self.data.areas[area].pv)  # TET-UNIT-8
        return self.fire_strength(uid, area)

    def group_odds(
        self, area: str, side: str, group: list[str], target: str, state
    ) -> tuple[str | None, dict]:
        attack = sum((self._strength(u, area) for u in group), Fraction(0))
        defense = self.defense_strength(target)
        column = odds_column(attack, defense)
        info = {"attack": attack, "defense": defense, "base_column": column, "shift": 0}
        if (
            column
            and side == "Allied"
            and self.data.areas[area].kind == "sanctuary"
            and any(u in state["fired_upon"] for u in group)
        ):
            column = shift(column, -1)  # TET-P2-7, decision A-12
            info["shift"] = -1
        return column, info

    def declare_fire(self, area: str, side: str, sappers, state):
        """TET-P2-3: the firing side forms groups, one target each, until it stops."""
        attacks = []
        dropped: set[str] = set()
        adds: dict[str, Action] = {}  # firer -> its option (its name and strength here never change)
        while True:
            ready = [
                u for u in self._fire_ready(area, side, sappers, state) if not any(u in g for _, g in attacks)
            ]
            targets = [
                t
                for t in self._targets(area, side, state)
                if t not in dropped and not any(t == x for x, _ in attacks)
            ]
            if not ready or not targets:
                break
            options = [
                Action.make(
                    "target",
                    label=f"Fire at {self.describe(t, side)} (defense {self.defense_strength(t)})",
                    places=(area,),
                    target=t,
                )
                for t in targets
            ]
            options.append(Action.make("hold_fire", label=f"{side}: no more fire in {area}"))
            act = yield self.decide(
                side, f"Choose a target in {self.area_name(area)}", "TET-P2-3", options, kind="target"
            )
            if act.kind == "hold_fire":
                break
            target = act["target"]
            group: list[str] = []
            while True:
                free = [u for u in ready if u not in group]
                column, info = self.group_odds(area, side, group, target, state) if group else (None, {})
                for u in free:
                    if u not in adds:
                        adds[u] = Action.make(
                            "add_firer",
                            label=f"Add {self._firer_name(u)} ({self._strength(u, area)})",
                            places=(area,),
                            unit=u,
                        )
                opts = [adds[u] for u in free]
                if column and any(u not in (BATTLESHIP, MARKER) for u in group):
                    opts.append(
                        Action.make(
                            "fire", label=f"Fire at {column} ({ratio_text(info['attack'], info['defense'])})"
                        )
                    )
                opts.append(Action.make("drop_target", label="Give up on this target"))
                act = yield self.decide(
                    side,
                    f"Build the fire group against {self.describe(target, side)}",
                    "TET-P2-8",
                    opts,
                    target=target,
                    kind="add_firer",
                )
                if act.kind == "add_firer":
                    group.append(act["unit"])
                elif act.kind == "fire":
                    attacks.append((target, group))
                    break
                else:
                    dropped.add(target)
                    break
        for target, group in attacks:
            state["fired"].update(group)
            state["fired_upon"].add(target)
            if MARKER in group:
                state["bonus_used"] = True
            if BATTLESHIP in group:
                self.battleship_used = True
        return [(side, target, group) for target, group in attacks]

    def _firer_name(self, uid: str) -> str:
        if uid == MARKER:
            return "the insurrection marker"
        return "the battleship's guns" if uid == BATTLESHIP else self.describe(uid)

    def resolve_fire(self, area: str, attack, state):
        """TET-P2-8 and the CRT: one die per fire group."""
        side, target, group = attack
        column, info = self.group_odds(area, side, group, target, state)
        roll = self.dice.roll(6, f"fire at {target}")
        row = next(r for r in self.data.crt if r.die == roll.value)
        cell = row.model_dump(by_alias=True)[column]
        lookup = Lookup(
            "Tet CRT", str(roll.value), column, cell, reconstructed=True, source="data/tet/crt.csv"
        )
        halves = [
            u for u in group if u not in (MARKER, BATTLESHIP) and self._strength(u, area) != self.unit(u).cf
        ]
        notes = []
        if halves:
            notes.append(
                f"mech/cav at half strength in this {self.data.areas[area].terrain} province (TET-P2-9)"
            )
        if MARKER in group:
            notes.append(f"the insurrection marker adds {2 * self.data.areas[area].pv} (TET-UNIT-8)")
        if BATTLESHIP in group:
            notes.append("the battleship adds 10 (TET-P6-5)")
        if info["shift"]:
            notes.append("one column left: fired on first in a sanctuary (TET-P2-7)")
        word = {"OR": "overrun", "H": "hit", "M": "a miss"}[cell]
        yield self.ruling(
            "TET-P2-8",
            f"{side} fire at {self.describe(target)}",
            f"{', '.join(self._firer_name(u) for u in group)} fire at {self.describe(target)}: attack "
            f"{ratio_text(info['attack'], info['defense'])} gives the {info['base_column']} column"
            + (f", shifted to {column}" if column != info["base_column"] else "")
            + (f" ({'; '.join(notes)})" if notes else "")
            + f". The die shows {roll.value}: {cell}, {word} (CRT reconstructed, see data/tet/crt.csv).",
            inputs={
                "area": area,
                "firers": group,
                "target": target,
                "attack": float(info["attack"]),
                "defense": info["defense"],
                "column": column,
            },
            dice=[roll],
            lookup=lookup,
            result={"target": target, "result": cell},
            places=(area,),
            side=side,
        )
        return target, cell

    # ------------------------------------------------------------------ results and retreats
    def apply_result(self, area: str, target: str, result: str, state):
        """TET-P2-10 / TET-P2-11: OR to Casualties, H retreat (Ruff Puffs lost), M nothing."""
        if result == "M" or self.loc[target] != area:
            return
        u = self.unit(target)
        state["out"].add(target)
        if result == "OR" or u.type == "ruff_puff":
            rule = "TET-P2-10" if result == "OR" else "TET-P2-11"
            why = (
                "is overrun"
                if result == "OR"
                else "is a Ruff Puff: militia that are hit do not retreat, they are lost"
            )
            self.loc[target] = "casualties"
            yield self.ruling(
                rule,
                f"{u.name} lost",
                f"{self.describe(target)} {why}; it goes to the Casualties box.",
                inputs={"unit": target, "result": result},
                result={"to": "casualties"},
                changes=[{"unit": target, "from": area, "to": "casualties"}],
                places=(area,),
            )
            return
        yield from self.retreat(target, area)

    def retreat_options(self, uid: str, area: str) -> tuple[str, list[str]]:
        """Where a hit unit may retreat, and the rule that says so (TET-P2-12 .. TET-P2-15)."""
        u = self.unit(uid)
        a = self.data.areas[area]
        mine = self.side_of(uid)

        def enemy(x):
            return any(self.side_of(o) != mine for o in self.units_in(x))

        def friendly(x):
            return any(self.side_of(o) == mine for o in self.units_in(x))

        if u.faction in COMMUNIST:
            if (
                a.kind == "sanctuary"
            ):  # TET-P2-15: only NVA, along the Trail to the first enemy-free sanctuary
                if u.faction != "NVA":
                    return "TET-P2-15", []
                return "TET-P2-15", sorted(self._first_on(area, "trail", lambda s: not enemy(s)))
            prov = a.province if a.kind == "city" else area
            opts = [
                s
                for s in self.data.map.neighbours(prov, ("land",))
                if self.data.areas[s].kind == "sanctuary" and (not enemy(s) or friendly(s))
            ]
            if u.faction == "VC":
                opts = [s for s in opts if self.vc_may_enter(uid, s)]
            return "TET-P2-12", sorted(opts)
        if a.kind == "province":
            return "TET-P2-13", sorted(
                c for c in self.data.cities_of.get(area, ()) if c not in self.insurrection and not enemy(c)
            )
        if a.kind == "city" and a.on_road:
            return "TET-P2-14", self.road_retreat(uid, area, friendly, enemy)
        return "TET-P2-16", []

    def road_retreat(self, uid: str, area: str, friendly, enemy) -> list[str]:
        """TET-P2-14 (decision D-16): from a road city, to the first next friendly city along the Highway.

        "First next" is the fewest road links from the city of the fight, in either direction; cities at the
        same distance are the owner's choice.  A friendly city holds Allied units, no enemy and no
        insurrection.  The retreat passes through cities with no units, but a city holding enemy units or in
        insurrection blocks the road.  A sector unit looks first for such a city inside its own Corps, going
        through its own Corps only; it crosses the sector border only when none is left there.  A theater
        unit takes the nearest one wherever it lies."""
        sector = self.unit(uid).sector

        def ok(c):
            return friendly(c) and not enemy(c) and c not in self.insurrection

        def open_road(c):
            return not enemy(c) and c not in self.insurrection

        if sector in ("I", "II", "III", "IV"):
            home = self._first_on(
                area,
                "road",
                lambda c: ok(c) and self.corps_of(c) == sector,
                through=lambda c: open_road(c) and self.corps_of(c) == sector,
            )
            if home:
                return sorted(home)
        return sorted(self._first_on(area, "road", ok, through=open_road))

    def _first_on(self, start: str, kind: str, ok, through=None) -> set[str]:
        """The nearest areas along ``kind`` edges (in any direction) that satisfy ``ok``; not beyond them.  The
        search goes on only through areas that satisfy ``through`` (every area when None)."""
        found: set[str] = set()
        seen = {start}
        frontier = [start]
        while frontier and not found:
            nxt = []
            for x in frontier:
                for n in self.data.map.neighbours(x, (kind,)):
                    if n in seen:
                        continue
                    seen.add(n)
                    if ok(n):
                        found.add(n)
                    elif through is None or through(n):
                        nxt.append(n)
            frontier = nxt
        return found

    def retreat(self, uid: str, area: str):
        rule, options = self.retreat_options(uid, area)
        u = self.unit(uid)
        if not options:
            self.loc[uid] = "casualties"
            yield self.ruling(
                "TET-P2-16",
                f"{u.name} cannot retreat",
                f"{self.describe(uid)} is hit but has nowhere to retreat under {rule}, so it goes to "
                "the Casualties box.",
                inputs={"unit": uid, "area": area, "rule": rule},
                result={"to": "casualties"},
                changes=[{"unit": uid, "from": area, "to": "casualties"}],
                places=(area,),
            )
            return
        to = options[0]
        if len(options) > 1:
            acts = [
                Action.make(
                    "retreat",
                    label=f"Retreat {self.describe(uid)} to {self.area_name(o)}",
                    places=(area, o),
                    unit=uid,
                    to=o,
                )
                for o in options
            ]
            to = (yield self.decide(self.side_of(uid), f"Retreat {u.name}", rule, acts, kind="retreat"))["to"]
        self.loc[uid] = to
        changes = [{"unit": uid, "from": area, "to": to}]
        if u.faction in COMMUNIST:
            up = (
                self.data.areas[to].kind == "city"
            )  # back in the countryside: hidden (TET-P1-3, decision D-15)
            if up != self.face_up[uid]:
                changes.append({"unit": uid, "face_up": up})
            self.face_up[uid] = up
        how = ""
        if rule == "TET-P2-14":
            how = (
                " along the Highway, to the first friendly city (fewest road links; a city held by the enemy or in "
                "insurrection blocks the road: decision D-16)"
            )
            if u.sector in ("I", "II", "III", "IV") and self.corps_of(to) != u.sector:
                how += f"; no such city is left in its own Corps {u.sector}, so it crosses the sector border"
        yield self.ruling(
            rule,
            f"{u.name} retreats",
            f"{self.describe(uid)} is hit and retreats from {self.area_name(area)} to "
            f"{self.area_name(to)}{how}.",
            inputs={"unit": uid, "from": area, "options": options},
            result={"to": to},
            changes=changes,
            places=(area, to),
        )

    # ------------------------------------------------------------------ end of a combat phase
    def airbase_overrun(self):
        """TET-P2-17 (after phases 2 and 6, decision A-29): air units based on an airbase held by NVA/VC with no
        Allied ground unit go to the Casualties box; an air unit does not hold its own airbase (A-21, D-21)."""
        for a in sorted(x.id for x in self.data.areas.values() if x.kind == "city" and x.airbase):
            here = self.units_in(a)
            if not any(self.unit(u).faction in COMMUNIST for u in here) or self.allied_ground_in(a):
                continue
            air = [u for u in here if self.unit(u).type in AIR_TYPES]
            for u in air:
                self.loc[u] = "casualties"
            yield self.ruling(
                "TET-P2-17",
                f"Airbase {self.area_name(a)} overrun",
                f"NVA/VC units hold the airbase at {self.area_name(a)} and no Allied ground unit "
                f"defends it: {len(air)} air unit(s) based there are lost"
                + (f" ({', '.join(self.unit(u).name for u in air)})." if air else "."),
                inputs={"airbase": a},
                result={"lost": air},
                places=(a,),
                changes=[{"unit": u, "from": a, "to": "casualties"} for u in air],
            )

    def insurrection_removal(self):
        """TET-P6-6: Allied units in a risen city with no NVA/VC left end the insurrection; SVN -PV once."""
        for city in sorted(self.insurrection):
            here = self.units_in(city)
            if any(self.unit(u).faction in COMMUNIST for u in here) or not self.allied_ground_in(city):
                continue
            self.insurrection.discard(city)
            pv = self.data.areas[city].pv
            first = city not in self.svn_scored
            changes = [{"insurrection_removed": city}]
            if first:
                self.svn_scored.add(city)
                before = self.score["SVN"]
                self.score["SVN"] -= pv
                changes.append({"track": "SVN", "from": before, "to": self.score["SVN"]})
            yield self.ruling(
                "TET-P6-6",
                f"{self.area_name(city)} retaken",
                f"Allied units hold {self.area_name(city)} and no NVA/VC unit is left: the insurrection marker is "
                "removed"
                + (
                    f" and the SVN track improves by its political value {pv} (once per city per game)."
                    if first
                    else "; the SVN already scored this city once, so its track does not change."
                ),
                inputs={"city": city, "pv": pv},
                result={"svn_change": -pv if first else 0},
                changes=changes,
                places=(city,),
            )
