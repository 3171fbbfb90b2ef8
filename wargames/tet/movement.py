"""Phase 1, NVA/VC movement (summary line 30): rule ids TET-P1-1 .. TET-P1-6, TET-UNIT-5.

* TET-P1-1: one step: province to adjacent province, province to one of its cities, city to its province;
  a province to a bordering sanctuary and back (decision A-06).
* TET-P1-2: a unit starting in a sanctuary with no enemy units may instead run the Ho Chi Minh Trail to
  any other sanctuary, stopping at the first one that holds enemy units (A-09).
* TET-P1-3: entering a city turns a unit face up; entering a province or sanctuary turns it face down.
* TET-P1-4: never across a yellow Corps boundary (edges flagged ``crosses_corps``).
* TET-UNIT-6: NVA units are theater units: no Corps limit, only the boundary rule below.
* TET-P1-5 / TET-UNIT-5: VC stay in their Corps' provinces and cities, bordering sanctuaries, and the
  Laos/Cambodia provinces next to their Corps (A-07).
* TET-P1-6: Ruff Puffs in a city entered are turned face up; a 0-strength Ruff Puff goes to Casualties.
"""

from __future__ import annotations

from ..core import Action, IllegalAction

END = Action.make("end_movement", label="End NVA/VC movement")


class MovementRules:
    # ------------------------------------------------------------------ where a unit may be
    def vc_may_enter(self, uid: str, area: str) -> bool:
        """TET-UNIT-5 / TET-P1-5 / A-07: the areas open to a VC unit of a given Corps."""
        corps = self.unit(uid).sector
        a = self.data.areas[area]
        if a.kind == "city":
            return self.data.areas[a.province].corps == corps
        if a.kind == "province":
            if a.country == "SVN":
                return a.corps == corps
            return any(
                self.data.areas[n].corps == corps and self.data.areas[n].kind == "province"
                for n in self.data.map.neighbours(area, ("land",))
            )
        if a.kind == "sanctuary":
            if a.corps == corps:
                return True
            return any(
                self.data.areas[n].kind == "province" and self.data.areas[n].corps == corps
                for n in self.data.map.neighbours(area, ("land",))
            )
        return False

    def enemy_in(self, uid: str, area: str) -> bool:
        mine = self.side_of(uid)
        return any(self.side_of(o) != mine for o in self.units_in(area))

    def step_destinations(self, uid: str) -> dict[str, str]:
        """One-step moves of a Communist unit: destination -> rule id that allows it."""
        where = self.loc[uid]
        d = self.data
        kind = d.areas[where].kind
        out: dict[str, str] = {}
        if kind == "city":
            out[d.areas[where].province] = "TET-P1-1"
        elif kind in ("province", "sanctuary"):
            for n in d.map.neighbours(where, ("land",)):
                if frozenset((where, n)) in d.corps_crossings:
                    continue  # TET-P1-4
                out[n] = "TET-P1-1"
            for c in d.cities_of.get(where, ()):
                out[c] = "TET-P1-1"
        if self.unit(uid).faction == "VC":
            out = {a: r for a, r in out.items() if self.vc_may_enter(uid, a)}
        return out

    def trail_destinations(self, uid: str) -> set[str]:
        """TET-P1-2: sanctuaries reachable along the Trail (TET-MAP-6) from an enemy-free starting sanctuary."""
        where = self.loc[uid]
        if self.data.areas[where].kind != "sanctuary" or self.enemy_in(uid, where):
            return set()
        dests = self.data.map.reachable(
            where, ("trail",), lambda s: "stop" if self.enemy_in(uid, s) else True
        )
        if self.unit(uid).faction == "VC":
            dests = {s for s in dests if self.vc_may_enter(uid, s)}
        return dests

    def destinations(self, uid: str) -> dict[str, str]:
        out = self.step_destinations(uid)
        for s in self.trail_destinations(uid):
            out.setdefault(s, "TET-P1-2")
        out.pop(self.loc[uid], None)
        return out

    # ------------------------------------------------------------------ why a move is illegal
    def why_not_move(self, action: Action) -> IllegalAction | None:
        uid, to = action.get("unit"), action.get("to")
        d = self.data
        missing = [name for name, v in (("unit", uid), ("to", to)) if v is None]
        if missing:  # issue #30 item 13: say what is missing, not "unit None"
            return IllegalAction(
                "TET-P1-1",
                f"a move names the unit and the area it moves to; this one gives no {' and no '.join(missing)}",
            )
        if uid not in d.units:
            return IllegalAction("TET-P1-1", f"there is no unit {uid!r} in this game")
        if to not in d.areas:
            return IllegalAction("TET-P1-1", f"there is no area {to!r} on the map")
        u = d.units[uid]
        if u.faction not in ("NVA", "VC"):
            return IllegalAction("TET-P1-1", f"only NVA/VC units move in phase 1; {u.name} is {u.faction}")
        if uid in self.moved:
            return IllegalAction("TET-P1-1", f"{u.name} has already moved this phase (one step per phase)")
        where = self.loc[uid]
        if where in ("casualties", "eliminated"):
            return IllegalAction("TET-P1-1", f"{u.name} is in the {where} box and cannot move")
        if frozenset((where, to)) in d.corps_crossings:
            return IllegalAction(
                "TET-P1-4",
                f"{where} to {to} crosses a yellow Corps boundary, which NVA/VC units may never do",
            )
        if u.faction == "VC" and not self.vc_may_enter(uid, to):
            return IllegalAction(
                "TET-P1-5",
                f"{u.name} is a Corps {u.sector} VC unit; {to} is outside the areas "
                "open to it (its Corps, bordering sanctuaries and Laos/Cambodia next "
                "to it)",
            )
        if d.areas[where].kind == "sanctuary" and d.areas[to].kind == "sanctuary":
            return IllegalAction(
                "TET-P1-2",
                f"a Trail move from {where} to {to} is blocked: the start must be "
                "free of enemy units and the run stops at the first sanctuary "
                "holding enemy units",
            )
        return IllegalAction(
            "TET-P1-1",
            f"{to} is not one step from {where} (adjacent province, a city of "
            "the province, or the city's own province)",
        )

    # ------------------------------------------------------------------ the phase
    def _move_options(self, cache: dict[str, list[Action]]) -> list[Action]:
        opts = [a for uid, acts in cache.items() if uid not in self.moved for a in acts]
        opts.append(END)
        return opts

    def _actions_for(self, uid: str) -> list[Action]:
        where = self.loc[uid]
        acts = []
        for to, rule in sorted(self.destinations(uid).items()):
            how = "along the Trail" if rule == "TET-P1-2" else "one step"
            acts.append(
                Action.make(
                    "move",
                    label=f"{self.describe(uid)}: {where} -> {to} ({how})",
                    places=(where, to),
                    unit=uid,
                    to=to,
                )
            )
        return acts

    def communist_movement(self):
        """TET-P1-1: the Communist player moves units one at a time, then ends the phase (with 4 players the
        NVA moves, then the VC: TET-COMP-5)."""
        self.moved = set()
        for faction in self.factions_acting("Communist"):
            movers = [
                uid
                for uid, where in self.loc.items()
                if self.unit(uid).faction in ("NVA", "VC")
                and self.acts_for(faction, uid)
                and where not in ("casualties", "eliminated")
            ]
            cache = {uid: self._actions_for(uid) for uid in sorted(movers)}
            who = faction or "NVA/VC"
            while True:
                action = yield self.decide(
                    "Communist",
                    f"Move an {who} unit, or end the movement phase",
                    "TET-P1-1",
                    self._move_options(cache),
                    check=self.why_not_move,
                    kind="move",
                )
                if action.kind == "end_movement":
                    moved = sum(1 for u in self.moved if self.acts_for(faction, u))
                    yield self.ruling(
                        "TET-P1-1",
                        f"{who} movement ends",
                        f"The {faction or 'Communist'} player ends phase 1 having moved {moved} unit(s).",
                        result={"moved": moved},
                    )
                    break
                yield from self.move_unit(action["unit"], action["to"])
                # Ruff Puff removals and flips do not change where other Communist units may go: enemy presence
                # only matters in sanctuaries (the Trail), and Ruff Puffs live in cities.

    def move_unit(self, uid: str, to: str):
        """Carry out one legal move: TET-P1-1/2 movement, TET-P1-3 facing, TET-P1-6 Ruff Puff reveal."""
        u = self.unit(uid)
        frm = self.loc[uid]
        self.loc[uid] = to
        self.moved.add(uid)
        kind = self.data.areas[to].kind
        was_up = self.face_up[uid]
        self.face_up[uid] = kind == "city"
        trail = self.data.areas[frm].kind == "sanctuary" and kind == "sanctuary"
        rule = "TET-P1-2" if trail else "TET-P1-1"
        facing = "face up (it entered a city)" if kind == "city" else "face down (it is in the countryside)"
        how = "runs the Ho Chi Minh Trail" if trail else "moves one step"
        changes = [{"unit": uid, "from": frm, "to": to}]
        if was_up != self.face_up[uid]:
            changes.append({"unit": uid, "face_up": self.face_up[uid]})
        hidden = () if kind == "city" or was_up else ("Allied",)
        yield self.ruling(
            rule,
            f"{u.faction} unit moves",
            f"{self.describe(uid)} {how} from {self.area_name(frm)} to {self.area_name(to)} and is now "
            f"{facing} (TET-P1-3).",
            inputs={"unit": uid, "from": frm, "to": to},
            result={"to": to, "face_up": self.face_up[uid]},
            changes=changes,
            side="Communist",
            hidden_from=hidden,
            places=(frm, to),
            public=f"A face-down NVA/VC unit moved from {self.area_name(frm)} to {self.area_name(to)}.",
            public_title="A face-down unit moves",
        )
        if kind == "city":
            yield from self.reveal_ruff_puffs(to)

    def reveal_ruff_puffs(self, city: str):
        """TET-P1-6: face-down Ruff Puffs in a city NVA/VC units enter are revealed; strength 0 is lost."""
        for rp in self.units_in(city):
            u = self.unit(rp)
            if u.type != "ruff_puff" or self.face_up[rp]:
                continue
            self.face_up[rp] = True
            if u.cf == 0:
                self.loc[rp] = "casualties"
                text = (
                    f"NVA/VC units entered {self.area_name(city)}: its Ruff Puff is turned face up and has "
                    "strength 0, so it melts away to the Casualties box."
                )
                changes = [{"unit": rp, "face_up": True}, {"unit": rp, "from": city, "to": "casualties"}]
            else:
                text = (
                    f"NVA/VC units entered {self.area_name(city)}: its Ruff Puff is turned face up and shows "
                    f"strength {u.cf}; it stays and holds the city for the Allies."
                )
                changes = [{"unit": rp, "face_up": True}]
            yield self.ruling(
                "TET-P1-6",
                "Ruff Puff revealed",
                text,
                inputs={"city": city, "cf": u.cf},
                result={"cf": u.cf, "lost": u.cf == 0},
                changes=changes,
                places=(city,),
            )
