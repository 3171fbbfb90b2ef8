"""Allied movement: phase 4 (the 18 large units, summary lines 43-48) and phase 7 (everyone, lines 58-59).

* TET-UNIT-3 / TET-UNIT-4 / decisions A-10, D-13: sector units operate only inside their own Corps (its
  provinces, their cities and the sanctuaries lying in it: A Shau in I, the Iron Triangle in III, U Minh in
  IV); the 19 theater units anywhere on the map, Laos, Cambodia and North Vietnam included.  The option
  ``historical_border_restriction`` (off by default) keeps Allied ground units out of North Vietnam and the
  Laos and Cambodia provinces.
* TET-UNIT-7: the 18 large US units move in both phase 4 and phase 7.
* TET-P4-1 / TET-MAP-7: mech/cav take one step, or ride the Highway from an enemy-free road city to any road city,
  stopping at one that holds enemy units or is in insurrection.  Decision A-11: in phase 7 every Allied
  ground unit may ride the Highway this way.
* TET-P4-2 (decision A-25): a sector ground unit outside its Corps after a retreat must move back into it in
  its movement phase (mech/cav in phase 4, and again in 7; every other one in phase 7), through the other
  Corps of South Vietnam if need be (never through Laos, Cambodia or North Vietnam, which TET-UNIT-3 closes
  to sector units), or as far toward it as one move goes; the phase cannot end before it has moved, and on
  turns 1-2 the move does not count against the slow-reaction allowance.  A unit with no such move stays
  where it is and the phase may end (the ruling that ends the phase says so).
* TET-P4-3: the riverine force moves anywhere in provinces 42 and 43 and their cities, carrying one non-mech
  infantry unit with it.
* TET-P4-4: the battleship re-stations off one of the three coastal I Corps provinces (also in phase 7, A-26).
* TET-P4-5: a helicopter lifts one non-mech infantry unit within its Corps, its sanctuaries included (theater
  helicopters: a theater unit to an uncontested airbase); the helicopter stays with the unit until phase 7.
* TET-P4-6: a strike aircraft flies to any area of its Corps (theater Tac Air and the Arc Light: any area of
  the map, North Vietnam included), whether or not enemy units are in view there, to attack in phase 6
  whatever is face up there by then; one on a contested airbase may only relocate to an uncontested airbase
  of its Corps.
* TET-P7-1: in phase 7 all Allied units but the Ruff Puffs may move once.
* TET-P7-2: on turns 1 and 2 a die per Corps caps how many of that Corps' sector units may move (mech/cav,
  riverine, air and theater units are exempt).
* TET-P7-3 / TET-P7-4: aircraft away from an airbase fly back to a secure or contested airbase of the Corps
  they are in (theater aircraft to the off-map boxes) or are lost; a returning helicopter may bring one
  non-mech unit along; helicopters already on an airbase stay put.
"""

from __future__ import annotations

from ..core import Action, IllegalAction
from .data import AIR_TYPES, COMMUNIST, NOT_GROUND

OFFMAP = ("offmap_box_1", "offmap_box_2")
OFFSHORE = ("offshore_11", "offshore_12", "offshore_13")
CORPS = ("I", "II", "III", "IV")
NON_MECH_INF = frozenset({"infantry", "airborne", "marine", "ranger", "mike_force"})

# Tables read from the map only (its areas never change in play), built once per map: (id(data), what) -> table
_STATIC: dict[tuple[int, str], dict] = {}


class AlliedMovementRules:
    # ------------------------------------------------------------------ where Allied units may be
    def _static(self, what: str) -> dict:
        return _STATIC.setdefault((id(self.data), what), {})

    def corps_of(self, area: str) -> str | None:
        """The Corps an area lies in (a city: its province's)."""
        return self.data.corps[area]

    def allied_may_enter(self, uid: str, area: str) -> bool:
        """TET-UNIT-3 / TET-UNIT-4 (decisions A-10, D-13): a sector unit only inside its own Corps (its
        provinces, their cities and the sanctuaries that lie in it); a theater unit anywhere on the map.  With
        the option ``historical_border_restriction`` no Allied ground unit enters North Vietnam or a Laos or
        Cambodia province (the political limits of 1968), as the project played before issue #17."""
        u = self.unit(uid)
        a = self.data.areas[area]
        if a.kind == "box":
            return False
        if (
            self.rules_opts.historical_border_restriction
            and u.type != "recce"
            and (a.country == "NVN" or a.kind == "province" and a.country in ("LAO", "KHM"))
        ):
            return False
        if u.sector in CORPS:
            return self.corps_of(area) == u.sector
        return True

    def enemy_here(self, area: str) -> bool:
        return any(self.unit(u).faction in COMMUNIST for u in self.units_in(area))

    def road_destinations(self, uid: str, homebound: bool = False) -> set[str]:
        """TET-P4-1: along the Highway from an enemy-free road city, stopping at enemy or risen cities.  A unit
        going home (TET-P4-2) may drive through the other Corps it stands in."""
        where = self.loc[uid]
        a = self.data.areas[where]
        if a.kind != "city" or not a.on_road or self.enemy_here(where):
            return set()

        def passable(c):
            if not (self.homebound_may_enter(c) if homebound else self.allied_may_enter(uid, c)):
                return False
            return "stop" if self.enemy_here(c) or c in self.insurrection else True

        return self.data.map.reachable(where, ("road",), passable)

    def homebound_may_enter(self, area: str) -> bool:
        """TET-P4-2 with TET-UNIT-3 (decision A-25): on its compelled way home a sector unit may cross the other
        Corps of South Vietnam, never Laos, Cambodia or North Vietnam (closed to sector units by L14)."""
        a = self.data.areas[area]
        return a.kind != "box" and a.country == "SVN"

    def allied_step(self, uid: str, homebound: bool = False) -> set[str]:
        where = self.loc[uid]
        a = self.data.areas[where]
        out: set[str] = set()
        if a.kind == "city":
            out.add(a.province)
        elif a.kind in ("province", "sanctuary"):
            out |= self.data.map.neighbours(where, ("land",))
            out |= set(self.data.cities_of.get(where, ()))
        return {
            x for x in out if (self.homebound_may_enter(x) if homebound else self.allied_may_enter(uid, x))
        }

    def out_of_sector(self, uid: str) -> bool:
        """TET-P4-2: a sector ground unit standing outside its own Corps (only a retreat puts it there)."""
        u = self.unit(uid)
        where = self.loc[uid]
        return (
            u.sector in CORPS
            and u.type not in NOT_GROUND
            and where is not None
            and self.data.areas[where].kind != "box"
            and self.corps_of(where) != u.sector
        )

    def steps_to_sector(self, area: str, sector: str) -> int | None:
        """How many single steps (province, city, road links) separate ``area`` from the nearest area of
        ``sector``: the measure of 'toward home' when home is out of reach in one move (decision A-25).  Only
        areas of South Vietnam are crossed (TET-UNIT-3); None when home cannot be reached that way."""
        seen, frontier, n = {area}, [area], 0
        while frontier:
            if any(self.corps_of(x) == sector for x in frontier):
                return n
            nxt = []
            for x in frontier:
                a = self.data.areas[x]
                near = self.data.map.neighbours(x, ("land", "road")) | set(self.data.cities_of.get(x, ()))
                if a.kind == "city":
                    near.add(a.province)
                nxt += [y for y in near if y not in seen and self.homebound_may_enter(y)]
                seen.update(nxt)
            frontier, n = nxt, n + 1
        return None

    def return_destinations(self, uid: str) -> set[str]:
        """TET-P4-2 (decision A-25): the moves that bring an out-of-sector unit back into its Corps; when none
        reaches it this phase, the moves that bring it closer; none at all when no road home through South
        Vietnam exists (the unit then stays, TET-UNIT-3 prevailing)."""
        u = self.unit(uid)
        dest = self.allied_step(uid, homebound=True) | self.road_destinations(uid, homebound=True)
        dest.discard(self.loc[uid])
        home = {d for d in dest if self.corps_of(d) == u.sector}
        if home:
            return home
        now = self.steps_to_sector(self.loc[uid], u.sector)
        if now is None:
            return set()
        closer = set()
        for d in dest:
            n = self.steps_to_sector(d, u.sector)
            if n is not None and n < now:
                closer.add(d)
        return closer

    def ground_destinations(self, uid: str, road: bool) -> set[str]:
        if self.out_of_sector(uid):
            return self.return_destinations(uid)
        dest = self.allied_step(uid) | (self.road_destinations(uid) if road else set())
        dest.discard(self.loc[uid])
        return dest

    def must_return(self, uid: str, phase: int) -> bool:
        """TET-P4-2 (A-25): the unit must move back this phase: out of its sector, not yet moved, in its movement
        phase (mech/cav in phases 4 and 7, every other sector ground unit in phase 7) and able to go."""
        if uid in self.moved or not self.out_of_sector(uid):
            return False
        if phase == 4 and self.unit(uid).type != "mech_cav":
            return False
        return bool(self.return_destinations(uid))

    # ------------------------------------------------------------------ phase 4
    def large_unit_movement(self):
        """Phase 4: mech/cav, riverine, battleship, helicopters, strike aircraft (TET-P4-1 .. TET-P4-6)."""
        again = self.resumed("moves")  # a restartable loop: Back resumes between moves (issue #13)
        if again is None:
            self.moved = set()
            self.heli_lifted = {}
        yield from self.pick_and_move(4, "TET-P4-1", self.phase4_movers, self.phase4_options, again)

    def pick_and_move(self, phase: int, rule: str, movers, options_for, again: dict | None = None):
        """Two steps per move, as on a map: pick a unit, then one of its destinations (or go back).  With 4
        players the USA moves, then the SVN (TET-COMP-5).  ``again``: the data of the checkpoint "moves" the
        step is resumed from (the loop's place is the acting faction; everything else is in the state)."""
        factions = self.factions_acting("Allied")
        offered: dict[tuple[str, str, bool], Action] = {}  # (unit, area, owes its move home) -> its pick
        for fi in range(again["faction"] if again else 0, len(factions)):
            faction = factions[fi]
            while True:
                self.checkpoint("moves", faction=fi)
                units = [u for u in movers() if self.acts_for(faction, u)]
                if faction is not None and not units:
                    break
                owed = [u for u in units if self.must_return(u, phase)]
                picks = []
                for u in units:
                    key = (u, self.loc[u], u in owed)
                    if key not in offered:
                        offered[key] = Action.make(
                            "select",
                            label=f"Move {self.unit(u).name} (in {self.loc[u]})"
                            + (" - must return to its Corps" if u in owed else ""),
                            places=(self.loc[u],),
                            unit=u,
                        )
                    picks.append(offered[key])
                if owed:  # TET-P4-2: the phase cannot end while a unit owes its move home
                    prompt = (
                        "Pick a unit to move; "
                        + ", ".join(self.unit(u).name for u in owed)
                        + " must first return to its own Corps (TET-P4-2)"
                    )
                else:
                    prompt = "Pick a unit to move, or end the phase"
                    picks.append(Action.make("end_allied_move", label=f"End {faction or 'Allied'} movement"))
                act = yield self.decide("Allied", prompt, "TET-P4-2" if owed else rule, picks, kind="select")
                if act.kind == "end_allied_move":
                    moved = sum(1 for u in self.moved if self.acts_for(faction, u))
                    stranded = [u for u in units if self.out_of_sector(u) and not self.return_destinations(u)]
                    why = (
                        " "
                        + ", ".join(self.describe(u) for u in stranded)
                        + " stay outside their Corps: no move through South Vietnam leads them home, and a"
                        " sector unit may not enter Laos, Cambodia or North Vietnam (TET-UNIT-3, decision A-25)."
                        if stranded
                        else ""
                    )
                    yield self.ruling(
                        rule,
                        f"{faction or 'Allied'} movement ends",
                        f"The {faction or 'Allied'} player ends phase {phase} having moved {moved} unit(s).{why}",
                        result={"moved": moved, "stranded": stranded},
                    )
                    break
                uid = act["unit"]
                moves = options_for(uid)
                moves.append(Action.make("back", label="Choose another unit"))
                act = yield self.decide(
                    "Allied",
                    f"Where does {self.unit(uid).name} go?",
                    self.move_rule(uid, phase),
                    moves,
                    check=self.why_not_allied_move(uid, phase, moves),
                    unit=uid,
                    kind="allied_move",
                )
                if act.kind == "back":
                    continue
                if phase == 7 and self.counts_for_slow_reaction(uid) and not self.out_of_sector(uid):
                    self.used[self.unit(uid).sector] += 1  # the compelled move home is free
                yield from self.carry_out(act, phase=phase)

    def phase4_movers(self) -> list[str]:
        """TET-UNIT-7: the large US units (no Recce) in play that have not moved this phase."""
        table = self._static("phase4_pool")
        if not table:
            table["units"] = tuple(
                sorted(
                    uid
                    for uid, u in self.data.units.items()
                    if u.faction == "USA" and u.size == "large" and u.type != "recce"
                )
            )
        return [
            u
            for u in table["units"]
            if u in self.loc and u not in self.moved and self.loc[u] not in ("casualties", "eliminated")
        ]

    def _mk(self, uid, to, how, rule, passenger: str | None = None) -> Action:
        """One Allied move as an action (the same as ``Action.make`` with these parameters, built directly: the
        helicopter phases offer thousands of them)."""
        where = self.loc[uid]
        params = (
            (("rule", rule), ("to", to), ("unit", uid))
            if passenger is None  # in key order, as Action.make
            else (("passenger", passenger), ("rule", rule), ("to", to), ("unit", uid))
        )  # sorts them
        return Action("allied_move", params, f"{self._move_prefix(uid, where, to)}{how})", (where, to))

    def _move_prefix(self, uid: str, where: str, to: str) -> str:
        """The start of a move's label: the unit, then the two areas by name (never their ids)."""
        names = self._static("area_names")
        if not names:
            names.update((a, self.area_name(a)) for a in self.data.areas)
        return f"{self.data.units[uid].name}: {names[where]} -> {names[to]} ("

    def _how(self, act: Action, frm: str) -> str:
        """How a move goes (the part of its label in brackets: "fly to strike", "re-station", ...)."""
        prefix = self._move_prefix(act["unit"], frm, act["to"])
        label = act.label or ""
        return label[len(prefix) : -1] if label.startswith(prefix) and label.endswith(")") else ""

    def move_rule(self, uid: str, phase: int) -> str:
        """The rule that governs where ``uid`` may go this phase (the one an illegal destination breaks)."""
        t = self.unit(uid).type
        if t in ("tac_air", "arc_light"):
            return "TET-P4-6"
        if t == "heli":
            return "TET-P4-5"
        if t == "battleship":
            return "TET-P4-4"
        if t == "riverine":
            return "TET-P4-3"
        if self.out_of_sector(uid):
            return "TET-P4-2"
        return "TET-P4-1" if phase == 4 else "TET-P7-1"

    def why_not_allied_move(self, uid: str, phase: int, moves: list[Action]):
        """The check of a destination decision: an action outside ``moves`` is refused under the rule of the
        unit's kind of move (TET-P4-1 .. TET-P4-6, TET-P7-1), naming the areas it may reach."""

        def check(act: Action) -> IllegalAction | None:
            if act.kind != "allied_move":
                return None
            rule = self.move_rule(uid, phase)
            to = act.get("to")
            where = self.area_name(to) if to in self.data.areas else repr(to)
            allowed = sorted({self.area_name(m["to"]) for m in moves if m.kind == "allied_move"})
            shown = ", ".join(allowed[:8]) + (f" and {len(allowed) - 8} more" if len(allowed) > 8 else "")
            return IllegalAction(
                rule,
                f"{self.unit(uid).name} may not go to {where} this way in phase {phase} ({rule}); "
                + (f"it may go to {shown}." if allowed else "it has no move left."),
            )

        return check

    def phase4_options(self, uid: str) -> list[Action]:
        u = self.unit(uid)
        where = self.loc[uid]
        if u.type == "mech_cav":
            if self.out_of_sector(uid):
                return self.homeward_moves(uid)
            return [
                self._mk(uid, d, "road or step", "TET-P4-1")
                for d in sorted(self.ground_destinations(uid, True))
            ]
        if u.type == "riverine":
            return self.riverine_options(uid)
        if u.type == "battleship":
            return [self._mk(uid, d, "re-station", "TET-P4-4") for d in OFFSHORE if d != where]
        if u.type == "heli":
            return self.heli_options(uid)
        if u.type in ("tac_air", "arc_light"):
            return self.strike_options(uid)
        return []

    def riverine_options(self, uid: str) -> list[Action]:
        """TET-P4-3: any area of provinces 42 and 43, with at most one non-mech infantry passenger."""
        where = self.loc[uid]
        zone = {"42", "43"} | set(self.data.cities_of.get("42", ())) | set(self.data.cities_of.get("43", ()))
        if where not in zone:
            return []
        riders = [
            p
            for p in self.units_in(where)
            if self.unit(p).type in NON_MECH_INF
            and p != uid
            and self.side_of(p) == "Allied"
            and p not in self.moved
        ]
        opts = []
        for d in sorted(zone - {where}):
            opts.append(self._mk(uid, d, "riverine", "TET-P4-3"))
            opts += [
                self._mk(uid, d, f"riverine carrying {self.unit(p).name}", "TET-P4-3", passenger=p)
                for p in riders
                if self.allied_may_enter(p, d)
            ]
        return opts

    def airbases(self, corps: str | None = None) -> list[str]:
        """The cities with an airbase (of one Corps, or all)."""
        table = self._static("airbases")
        if corps not in table:
            table[corps] = tuple(
                sorted(
                    a.id
                    for a in self.data.areas.values()
                    if a.kind == "city" and a.airbase and (corps is None or self.corps_of(a.id) == corps)
                )
            )
        return list(table[corps])

    def _heli_relocations(self, uid: str, where: str) -> list[Action]:
        """TET-P4-5: a helicopter on a contested airbase relocates to a secure airbase of its Corps, alone or
        carrying one Allied non-mechanized infantry unit that has not moved."""
        opts = []
        for b in self.airbases(self.corps_of(where)):
            if b != where and self.secure(b):
                opts.append(self._mk(uid, b, "relocate from a contested airbase", "TET-P4-5"))
                opts += [
                    self._mk(uid, b, f"relocate with {self.unit(p).name}", "TET-P4-5", passenger=p)
                    for p in self.units_in(where)
                    if self.unit(p).type in NON_MECH_INF
                    and self.side_of(p) == "Allied"
                    and p not in self.moved
                ]
        return opts

    def heli_options(self, uid: str) -> list[Action]:
        """TET-P4-5: airmobile lift of one unit, or relocation from a contested airbase."""
        u = self.unit(uid)
        where = self.loc[uid]
        if where not in self.airbases() and where not in OFFMAP:
            return []
        if where in self.airbases() and self.contested(where):
            return self._heli_relocations(uid, where)
        opts: list[Action] = []
        infantry = [
            (p, self.loc[p])
            for p in self._allied_infantry()
            if self.loc.get(p) and self.loc[p] not in ("casualties", "eliminated") and p not in self.moved
        ]
        if u.sector in CORPS:
            areas = sorted(self.areas_of_corps(u.sector))
            open_to: dict[
                str | None, list[str]
            ] = {}  # a rider's sector -> the areas of this Corps it may enter
            for p, w in infantry:
                if self.corps_of(w) != u.sector:
                    continue
                sector = self.unit(p).sector  # TET-UNIT-3/4: for infantry, entry depends on its sector alone
                if sector not in open_to:
                    open_to[sector] = [d for d in areas if self.allied_may_enter(p, d)]
                how = f"airlift {self.unit(p).name} from {self.area_name(w)}"
                opts += [self._mk(uid, d, how, "TET-P4-5", passenger=p) for d in open_to[sector] if d != w]
        else:  # theater heli: a theater unit to an uncontested airbase
            bases = [b for b in self.airbases() if not self.contested(b) and self.secure(b)]
            for p, w in infantry:
                if self.unit(p).sector == "T" and self.data.areas[w].kind != "box":
                    how = f"airlift {self.unit(p).name} from {self.area_name(w)}"
                    opts += [self._mk(uid, b, how, "TET-P4-5", passenger=p) for b in bases if b != w]
        return opts

    def _allied_infantry(self) -> tuple[str, ...]:
        """The Allied non-mech infantry a helicopter may lift (TET-P4-5), sorted: built once per map."""
        table = self._static("allied_infantry")
        if not table:
            table["units"] = tuple(
                sorted(
                    uid
                    for uid, u in self.data.units.items()
                    if u.type in NON_MECH_INF and self.side_of(uid) == "Allied"
                )
            )
        return table["units"]

    def areas_of_corps(self, corps: str) -> list[str]:
        """TET-P4-5: the areas of a Corps a sector helicopter serves: its provinces, their cities and the
        sanctuaries lying inside it (A Shau in I, the Iron Triangle in III, U Minh in IV)."""
        table = self._static("areas_of_corps")
        if corps not in table:
            table[corps] = tuple(
                a.id
                for a in self.data.areas.values()
                if a.kind in ("province", "city", "sanctuary") and self.corps_of(a.id) == corps
            )
        return list(table[corps])

    def strike_areas(self, uid: str) -> list[str]:
        """TET-P4-6: where a strike aircraft may fly: a sector Tac Air to any area of its Corps (its provinces,
        their cities, and the sanctuaries inside it); the theater Tac Air and the Arc Light to any area of the
        map, North Vietnam, Laos and Cambodia included.  Enemy in view is not required: an aircraft may go
        where the ground units will search in phase 5, and strikes in phase 6 whatever has been turned face up
        there by then (a strike needs a face-up target, decision A-19)."""
        u = self.unit(uid)
        areas = [a.id for a in self.data.areas.values() if a.kind != "box"]
        if u.sector in CORPS:
            areas = [a for a in areas if self.corps_of(a) == u.sector]
        return sorted(a for a in areas if a != self.loc[uid])

    def strike_options(self, uid: str) -> list[Action]:
        """TET-P4-6: fly to any area of its Corps (theater: of the map), or relocate from a contested airbase."""
        where = self.loc[uid]
        if where in self.airbases() and self.contested(where):
            return [
                self._mk(uid, b, "relocate from a contested airbase", "TET-P4-6")
                for b in self.airbases(self.corps_of(where))
                if b != where and self.secure(b)
            ]
        if where not in self.airbases() and where not in OFFMAP:
            return []
        return [self._mk(uid, t, "fly to strike", "TET-P4-6") for t in self.strike_areas(uid)]

    # ------------------------------------------------------------------ carrying out a move
    def carry_out(self, act: Action, phase: int):
        uid, to = act["unit"], act["to"]
        u = self.unit(uid)
        frm = self.loc[uid]
        passenger = act.get("passenger")
        self.loc[uid] = to
        self.moved.add(uid)
        changes = [{"unit": uid, "from": frm, "to": to}]
        extra = ""
        if passenger:
            pfrom = self.loc[passenger]
            self.loc[passenger] = to
            self.moved.add(passenger)
            if u.type == "heli":
                self.heli_lifted[passenger] = uid
            changes.append({"unit": passenger, "from": pfrom, "to": to})
            extra = f", carrying {self.describe(passenger)} from {self.area_name(pfrom)}"
        rule = act.get("rule") or ("TET-P7-1" if phase == 7 else "TET-P4-1")
        how = self._how(act, frm)
        if rule == "TET-P4-2":
            extra += (
                f": a retreat had left it outside Corps {u.sector}, and it must move back (decision A-25"
                + ("; this move does not count against the slow-reaction allowance" if phase == 7 else "")
                + ")"
            )
        if u.type == "heli" and passenger and pfrom != frm:  # TET-P4-5: an airmobile lift
            reach = (
                f"inside Corps {u.sector}, the only Corps its helicopters serve"
                if u.sector in CORPS
                else "an uncontested airbase, where the theater helicopters set theater units down"
            )
            text = (
                f"{self.describe(uid)} flies from {self.area_name(frm)} to {self.area_name(pfrom)}, picks up "
                f"{self.describe(passenger)} and sets it down in {self.area_name(to)}, {reach}; the helicopter "
                "stays with it until it flies back in phase 7."
            )
        elif u.type == "heli" and passenger:
            text = (
                f"{self.describe(uid)} leaves the contested airbase of {self.area_name(frm)} for "
                f"{self.area_name(to)}, an uncontested airbase of its Corps, carrying {self.describe(passenger)}."
            )
        else:
            text = f"{self.describe(uid)} moves from {self.area_name(frm)} to {self.area_name(to)}{extra}" + (
                f" ({how})." if how else "."
            )
        yield self.ruling(
            rule,
            f"{u.name} moves",
            text,
            inputs={"unit": uid, "from": frm, "to": to, "passenger": passenger},
            result={"to": to},
            changes=changes,
            side="Allied",
            places=(frm, to),
        )

    # ------------------------------------------------------------------ phase 7
    def slow_reaction(self):
        """TET-P7-2: turns 1-2, a die per Corps caps the sector units that may move."""
        self.allowance = {c: None for c in CORPS}
        if self.turn not in (1, 2):
            return
        for corps in CORPS:
            roll = self.dice.roll(6, f"slow reaction, Corps {corps}")
            self.allowance[corps] = roll.value
            yield self.ruling(
                "TET-P7-2",
                f"Slow reaction in Corps {corps}",
                f"Surprised by the offensive, only {roll.value} sector unit(s) of Corps {corps} may move "
                "this phase (mech/cav, riverine, air and theater units move freely).",
                inputs={"corps": corps, "turn": self.turn},
                dice=[roll],
                result={"may_move": roll.value},
            )

    def counts_for_slow_reaction(self, uid: str) -> bool:
        """TET-P7-2: sector units count against their Corps' allowance; mech/cav, riverine, air, theater units and
        the battleship are exempt, and a unit carried by the riverine rides free (decision D-22)."""
        u = self.unit(uid)
        return u.sector in CORPS and u.type not in {"mech_cav", "riverine", "battleship"} | AIR_TYPES

    def air_return(self):
        """TET-P7-3 / TET-P7-4: aircraft away from an airbase fly home or are lost."""
        for uid in sorted(self.loc):
            u = self.unit(uid)
            where = self.loc[uid]
            if u.type not in AIR_TYPES or where in ("casualties", "eliminated") or where in OFFMAP:
                continue
            if where in self.airbases():
                continue
            if u.sector == "T" and u.type != "heli":
                homes = [u.start if u.start in OFFMAP else OFFMAP[0]]  # its own off-map box
            else:
                corps = self.corps_of(where)
                homes = [b for b in self.airbases(corps) if self.secure(b) or self.contested(b)]
            if not homes:
                self.loc[uid] = "casualties"
                yield self.ruling(
                    "TET-P7-3",
                    f"{u.name} lost",
                    f"{self.describe(uid)} in {self.area_name(where)} "
                    "finds no secure or contested airbase in its Corps to return to and is lost.",
                    inputs={"unit": uid, "area": where},
                    result={"to": "casualties"},
                    changes=[{"unit": uid, "from": where, "to": "casualties"}],
                    places=(where,),
                )
                continue
            options = [
                Action.make(
                    "air_return",
                    label=f"{u.name} returns to {self.area_name(b)}",
                    places=(b,),
                    unit=uid,
                    to=b,
                )
                for b in homes
            ]
            if u.type == "heli":
                riders = [
                    p
                    for p in self.units_in(where)
                    if self.unit(p).type in NON_MECH_INF and self.side_of(p) == "Allied"
                ]
                options += [
                    Action.make(
                        "air_return",
                        label=f"{u.name} returns to {self.area_name(b)} with {self.unit(p).name}",
                        places=(b,),
                        unit=uid,
                        to=b,
                        passenger=p,
                    )
                    for b in homes
                    for p in riders
                    if self.allied_may_enter(p, b)
                ]
            act = (
                options[0]
                if len(options) == 1
                else (
                    yield self.decide(
                        "Allied", f"Where does {u.name} fly back to?", "TET-P7-3", options, kind="air_return"
                    )
                )
            )
            self.loc[uid] = act["to"]
            changes = [{"unit": uid, "from": where, "to": act["to"]}]
            text = (
                f"{self.describe(uid)} flies back from {self.area_name(where)} to {self.area_name(act['to'])}"
            )
            if act.get("passenger"):
                p = act["passenger"]
                self.loc[p] = act["to"]
                self.moved.add(p)
                changes.append({"unit": p, "from": where, "to": act["to"]})
                text += f", carrying {self.describe(p)} (TET-P7-4)"
            yield self.ruling(
                "TET-P7-3",
                f"{u.name} returns",
                text + ".",
                inputs={"unit": uid, "from": where},
                result={"to": act["to"]},
                changes=changes,
                places=(where, act["to"]),
            )

    def allied_movement(self):
        """Phase 7 (TET-P7-1): every Allied unit but the Ruff Puffs may move once; of the large units (TET-UNIT-7,
        decision D-20) mech/cav and riverine move again, the battleship re-stations, the aircraft fly home."""
        again = self.resumed("moves")  # a restartable loop: Back resumes between moves (issue #13)
        if again is None:
            self.moved = set()
            self.used = {c: 0 for c in CORPS}
            yield from self.slow_reaction()
            yield from self.air_return()
        yield from self.pick_and_move(7, "TET-P7-1", self.phase7_movers, self.phase7_options, again)

    def _phase7_pool(self) -> tuple[str, ...]:
        """The Allied units whose type may move in phase 7 (no Ruff Puffs, Recce or air units), sorted: unit
        data never changes in play, so the table is built once per map."""
        table = self._static("phase7_pool")
        if not table:
            table["units"] = tuple(
                sorted(
                    uid
                    for uid, u in self.data.units.items()
                    if self.side_of(uid) == "Allied"
                    and u.type not in ("ruff_puff", "recce")
                    and u.type not in AIR_TYPES
                )
            )
        return table["units"]

    def phase7_movers(self) -> list[str]:
        out = []
        for uid in self._phase7_pool():
            u = self.unit(uid)
            where = self.loc.get(uid, "eliminated")  # a unit not in play (not in ``loc``) does not move
            if uid in self.moved or where in ("casualties", "eliminated"):
                continue
            cap = self.allowance.get(u.sector)  # TET-P7-2: None but on turns 1-2
            if (
                cap is not None
                and self.used[u.sector] >= cap
                and self.counts_for_slow_reaction(uid)
                and not self.out_of_sector(uid)
            ):  # heli-lifted units count if they move again (Joslyn); a
                continue  # unit owing its move home is outside the allowance
            out.append(uid)
        return out

    def phase7_options(self, uid: str) -> list[Action]:
        u = self.unit(uid)
        if u.type == "battleship":
            return [self._mk(uid, d, "re-station", "TET-P4-4") for d in OFFSHORE if d != self.loc[uid]]
        if u.type == "riverine":
            return self.riverine_options(uid)
        if self.out_of_sector(uid):
            return self.homeward_moves(uid)
        return [
            self._mk(uid, d, "move", "TET-P7-1") for d in sorted(self.ground_destinations(uid, road=True))
        ]

    def homeward_moves(self, uid: str) -> list[Action]:
        """TET-P4-2: the compelled moves of an out-of-sector unit, labelled with the rule that compels them."""
        sector = self.unit(uid).sector
        return [
            self._mk(
                uid,
                d,
                f"back into Corps {sector}" if self.corps_of(d) == sector else f"toward Corps {sector}",
                "TET-P4-2",
            )
            for d in sorted(self.return_destinations(uid))
        ]
