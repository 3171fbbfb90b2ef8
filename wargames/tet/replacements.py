"""Phase 3, Replacements (summary line 41): TET-P3-1 .. TET-P3-4.

* TET-P3-1: nothing on turn 1.
* TET-P3-2: the Allies may bring back one US ground unit and one SVN ground unit (not a Ranger, Mike Force or
  Ruff Puff) to a secure city (sector units in their own sector; theater units anywhere, decision A-24), and
  one helicopter or strike aircraft to a secure or contested airbase (the theater Tac Air and the Arc Light
  also to the off-map boxes, never a theater helicopter: decision D-14).  Australian and Korean units count as US (A-23).
* TET-P3-3: the VC may bring back one 2-factor unit per Corps (the Communist player picks which, sappers
  2(1) included: decision D-18), to a sanctuary free of Allied units in or next to its Corps.
* TET-P3-4: the NVA gains one replacement point per turn (from the turn set by decision A-22) and spends them:
  1 for a regiment, 2 for an 18-factor division, 3 for a 24- or 30-factor division, returning it to a
  sanctuary free of Allied units.
"""

from __future__ import annotations

from ..core import Action
from .data import AIR_TYPES, COMMUNIST, NOT_GROUND


class ReplacementRules:
    def secure(self, area: str) -> bool:
        """Decision A-27: secure = no NVA/VC units and no insurrection marker."""
        return area not in self.insurrection and not any(
            self.unit(u).faction in COMMUNIST for u in self.units_in(area)
        )

    def contested(self, area: str) -> bool:
        """Decision A-27: Allied ground units and NVA/VC units (or an insurrection marker) both present."""
        red = area in self.insurrection or any(self.unit(u).faction in COMMUNIST for u in self.units_in(area))
        return red and bool(self.allied_ground_in(area))

    def in_sector(self, uid: str, area: str) -> bool:
        sector = self.unit(uid).sector
        if sector in (None, "T"):
            return True
        a = self.data.areas[area]
        corps = self.data.areas[a.province].corps if a.kind == "city" else a.corps
        return corps == sector

    def nva_cost(self, uid: str) -> int:
        u = self.unit(uid)
        if u.type == "regiment":
            return 1
        return 2 if u.cf <= 18 else 3

    def eliminated(self, pred) -> list[str]:
        return sorted(u for u, where in self.loc.items() if where == "eliminated" and pred(self.unit(u)))

    def _place(self, uid: str, to: str, rule: str, text: str):
        self.loc[uid] = to
        self.face_up[uid] = self.unit(uid).faction not in COMMUNIST
        return self.ruling(
            rule,
            f"{self.unit(uid).name} returns",
            text,
            inputs={"unit": uid, "to": to},
            result={"to": to},
            changes=[{"unit": uid, "from": "eliminated", "to": to}],
            places=(to,),
            hidden_from=("Allied",) if self.unit(uid).faction in COMMUNIST else (),
            public=f"A Communist replacement enters {self.area_name(to)} face down.",
            public_title="A face-down replacement enters",
        )

    def _pick(self, side: str, prompt: str, rule: str, pairs: list[tuple[str, str]], skip: str):
        options = [
            Action.make(
                "replace", label=f"{self.describe(u)} -> {self.area_name(a)}", places=(a,), unit=u, to=a
            )
            for u, a in pairs
        ]
        options.append(Action.make("replace_skip", label=skip))
        return (yield self.decide(side, prompt, rule, options, kind="replace"))

    def replacements(self):
        if self.turn == 1:
            yield self.ruling(
                "TET-P3-1",
                "No replacements on turn 1",
                "Nothing returns on the first turn: the Eliminated box is still empty and the rules "
                "allow no replacements until turn 2.",
                result={"replaced": 0},
            )
            if self.rules_opts.nva_points_from_turn == 1:
                yield from self.nva_income()
            return
        yield from self.nva_income()
        yield from self.vc_replacements()
        yield from self.nva_replacements()
        yield from self.allied_replacements()

    def nva_income(self):
        if self.turn < self.rules_opts.nva_points_from_turn:
            return
        self.nva_points += 1
        yield self.ruling(
            "TET-P3-4",
            "NVA replacement point",
            f"The NVA gains 1 replacement point (decision A-22); it now has {self.nva_points}.",
            result={"points": self.nva_points},
            changes=[{"nva_points": self.nva_points}],
        )

    def vc_replacements(self):
        for corps in ("I", "II", "III", "IV"):
            units = self.eliminated(lambda u, c=corps: u.faction == "VC" and u.sector == c and u.cf == 2)
            if not units:
                continue
            sanct = [
                a.id for a in self.data.areas.values() if a.kind == "sanctuary" and not self.allied_in(a.id)
            ]
            pairs = [(u, s) for u in units for s in sorted(sanct) if self.vc_may_enter(u, s)]
            if not pairs:
                continue
            act = yield from self._pick(
                "Communist",
                f"Return which 2-factor Corps {corps} VC unit, and where?",
                "TET-P3-3",
                pairs,
                f"No VC replacement in Corps {corps}",
            )
            if act.kind == "replace":
                yield self._place(
                    act["unit"],
                    act["to"],
                    "TET-P3-3",
                    f"The Communist player brings back {self.describe(act['unit'])}, one of "
                    f"{len(units)} eliminated 2-factor Corps {corps} VC unit(s) (decision D-18), face "
                    f"down to {self.area_name(act['to'])} (one per Corps per turn).",
                )

    def nva_replacements(self):
        while self.nva_points:
            units = self.eliminated(lambda u: u.faction == "NVA" and self.nva_cost(u.id) <= self.nva_points)
            sanct = sorted(
                a.id for a in self.data.areas.values() if a.kind == "sanctuary" and not self.allied_in(a.id)
            )
            if not units or not sanct:
                return
            pairs = [(u, s) for u in units for s in sanct]
            act = yield from self._pick(
                "Communist",
                f"Spend NVA replacement points ({self.nva_points} left)?",
                "TET-P3-4",
                pairs,
                "Save the remaining NVA points",
            )
            if act.kind != "replace":
                return
            cost = self.nva_cost(act["unit"])
            self.nva_points -= cost
            yield self._place(
                act["unit"],
                act["to"],
                "TET-P3-4",
                f"{self.describe(act['unit'])} returns face down to {self.area_name(act['to'])} for "
                f"{cost} point(s); {self.nva_points} left.",
            )

    def allied_replacements(self):
        cities = [a.id for a in self.data.areas.values() if a.kind == "city"]
        airbases = [a.id for a in self.data.areas.values() if a.kind == "city" and a.airbase]
        groups = [
            (
                "US ground unit",
                lambda u: u.faction == "USA" and u.type not in NOT_GROUND,
                lambda uid: [c for c in cities if self.secure(c) and self.in_sector(uid, c)],
            ),
            (
                "SVN ground unit",
                lambda u: (
                    u.faction == "SVN" and u.type not in NOT_GROUND | {"ruff_puff", "ranger", "mike_force"}
                ),
                lambda uid: [c for c in cities if self.secure(c) and self.in_sector(uid, c)],
            ),
            (
                "air unit",
                lambda u: u.type in AIR_TYPES,
                lambda uid: (
                    [b for b in airbases if (self.secure(b) or self.contested(b)) and self.in_sector(uid, b)]
                    + (
                        ["offmap_box_1", "offmap_box_2"]
                        if self.unit(uid).sector == "T" and self.unit(uid).type in ("tac_air", "arc_light")
                        else []
                    )
                ),
            ),  # D-14: not the theater helis
        ]
        for what, pred, where in groups:
            units = self.eliminated(pred)
            pairs = [(u, a) for u in units for a in where(u)]
            if not pairs:
                continue
            act = yield from self._pick(
                "Allied", f"Return one {what}?", "TET-P3-2", pairs, f"No {what} this turn"
            )
            if act.kind == "replace":
                yield self._place(
                    act["unit"],
                    act["to"],
                    "TET-P3-2",
                    f"{self.describe(act['unit'])} returns to {self.area_name(act['to'])}, "
                    f"the one {what} the Allies may bring back this turn.",
                )
