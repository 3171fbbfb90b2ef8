"""Free deployment for the Standard Game (YOTR-SET-SEQ, YOTR-DEP).

* YOTR-SET-SEQ: (1) the Communist places 14 of his 21 NVA combat units and dummies (setting the other 7 aside),
  then the 5 NLF; (2) the Allied player places every unit and puts 13 air points in the Available box;
  (3) the Communist places the 7 set aside, then his 13 supply units on the Supply Centers by quota.
* YOTR-DEP: NVA units and dummies outside South Vietnam (Svay Rieng allowed, D-36); the menu lists the land
  hexes within four hexes of South Vietnam (decision D-61); NLF one in the Central Coast, two in each Mekong
  Delta Region, never on a town, road or trail hex; USA fixed (4-6 Danang, 2-6 Long Binh and Vung Tau), ROK in
  Qui Nhon; ARVN in South Vietnam or Svay Rieng on hexes they may enter (D-38), never on a Communist counter.
* YOTR-SR-B (option): Pacification Deployment, an Allied unit in every town and base first.  YOTR-SR-J
  (option): the seven counters of the third step may infiltrate South Vietnam (roadless rough or swamp within
  four hexes of the border, D-47).
* Supply units: the Communist chooses how many of each centre's quota are real; the rest are dummies.
* YOTR-DEP-COMM / YOTR-DEP-ALLIED with option ``historical_positions`` off (D-68): the Historical Game's forces
  placed by the players within the Regions and distances the text gives, in the same three steps.
"""

from __future__ import annotations

from functools import cache

from ..core import Action, IllegalAction
from .data import load_data
from .ob import ALLIED_OBS, COMMUNIST_OBS, OB_TITLES, RULE_LABELS, lsi_pick

NVA_WHERE = "outside South Vietnam, within four hexes of it (decision D-61)"
ARVN_WHERE = (
    "in South Vietnam or Svay Rieng, on a hex ARVN may enter (rough and swamp only along a road or "
    "trail, decision D-38)"
)
NLF_REGIONS = ("central_coast", "mekong_east", "mekong_east", "mekong_west", "mekong_west")
FIXED = {"usa_1": "danang", "usa_2": "vung_tau", "usa_3": "long_binh"}


@cache
def nva_deploy_hexes() -> tuple[str, ...]:
    """D-61: land hexes outside South Vietnam within four hexes of it (and Svay Rieng, D-36)."""
    d = load_data()
    svn = {h for h, r in d.hexes.items() if r.country == "SVN" and r.terrain != "sea"}
    near: set[str] = set()
    frontier = set(svn)
    for _ in range(4):
        nxt = {
            n for h in frontier for n in d.adj[h] if n not in svn and n not in near and d.terrain(n) != "sea"
        }
        near |= nxt
        frontier = nxt
    return tuple(sorted(near))


@cache
def nlf_deploy_hexes(region: str) -> tuple[str, ...]:
    d = load_data()
    return tuple(
        sorted(
            h
            for h, r in d.hexes.items()
            if r.region == region and r.terrain != "sea" and h not in d.towns and not d.has_road_or_trail(h)
        )
    )


@cache
def arvn_deploy_hexes() -> tuple[str, ...]:
    """YOTR-DEP / D-38: South Vietnamese land hexes ARVN may enter, plus Svay Rieng."""
    d = load_data()
    out = [
        h
        for h, r in d.hexes.items()
        if r.country == "SVN"
        and (r.terrain == "clear" or (r.terrain in ("rough", "swamp") and d.has_road_or_trail(h)))
    ]
    out.append(d.places["svay_rieng"].hex)
    return tuple(sorted(out))


@cache
def infiltration_hexes() -> tuple[str, ...]:
    """YOTR-SR-J / D-47: South Vietnamese rough or swamp hexes with no road or trail within four hexes of a hex
    outside South Vietnam."""
    d = load_data()
    frontier = {h for h, r in d.hexes.items() if r.country != "SVN" and r.terrain != "sea"}
    near = set(frontier)
    for _ in range(4):
        frontier = {n for h in frontier for n in d.adj[h] if n not in near}
        near |= frontier
    return tuple(
        sorted(
            h
            for h in near
            if h in d.hexes
            and d.country(h) == "SVN"
            and d.terrain(h) in ("rough", "swamp")
            and not d.has_road_or_trail(h)
        )
    )


@cache
def region_of_area(area: str) -> str | None:
    """The Region named by a deployment area of ``oob.csv`` ("outside Quang Tri Region (within 2 hexes)",
    "Mekong Delta, East Region"), or None (fixed places, "anywhere outside South Vietnam")."""
    d = load_data()
    names = sorted(
        ((r.name.removesuffix(" Region"), k) for k, r in d.regions.items()), key=lambda x: -len(x[0])
    )
    return next((k for name, k in names if f"{name} Region" in area), None)


@cache
def near_region_hexes(region: str, reach: int = 2) -> tuple[str, ...]:
    """YOTR-DEP-COMM: land hexes outside South Vietnam within ``reach`` hexes of ``region`` (never Svay Rieng)."""
    d = load_data()
    inside = [h for h, r in d.hexes.items() if r.region == region and r.terrain != "sea"]
    svay = d.places["svay_rieng"].hex
    return tuple(
        sorted(
            {
                n
                for h in inside
                for n in d.grid.within(h, reach)
                if n in d.hexes and d.country(n) != "SVN" and d.terrain(n) != "sea" and n != svay
            }
        )
    )


class DeployRules:
    def lsi_selection(self):
        """YOTR-LSI: each player numbers his six OBs 1 to 6 in secret; one die picks both OBs; the Allied OB is
        announced, the Communist one stays secret until the end (D-39, D-64)."""
        for side, letters in (("Allied", ALLIED_OBS), ("Communist", COMMUNIST_OBS)):
            other = "Communist" if side == "Allied" else "Allied"
            numbers: dict[str, int] = {}
            for n in range(1, 6):
                opts = [
                    Action.make("lsi_number", f"Number {n} for OB {k}: {OB_TITLES[k]}", ob=k, number=n)
                    for k in letters
                    if k not in numbers
                ]
                act = yield self.decide(
                    side,
                    f"Limited Strategic Intelligence: which OB gets number {n}?",
                    "YOTR-LSI",
                    opts,
                    kind="lsi_number",
                )
                numbers[act["ob"]] = n
            numbers[next(k for k in letters if k not in numbers)] = 6
            self.lsi_numbers[side] = numbers
            listed = ", ".join(f"{k}={v}" for k, v in sorted(numbers.items()))
            yield self.ruling(
                "YOTR-LSI",
                f"{side} numbers his OBs",
                f"The {side} player numbers his six OBs in secret: {listed}.",
                result={"numbers": numbers},
                side=side,
                hidden_from=(other,),
                public=f"The {side} player numbers his six OBs in secret.",
                public_title=f"{side} numbers his OBs",
            )
        roll = self.dice.roll(6, "limited strategic intelligence")
        allied, communist = lsi_pick(self.lsi_numbers["Allied"], self.lsi_numbers["Communist"], roll.value)
        self.set_obs(allied, communist)
        sr = ", ".join(label for key, label in RULE_LABELS.items() if getattr(self.opts, key))
        yield self.ruling(
            "YOTR-LSI",
            f"Die {roll.value}: OB {allied} against OB {communist}",
            f"One die picks both OBs: {roll.value}. The Allied OB numbered {roll.value} is {allied} "
            f"({OB_TITLES[allied]}), announced at once; the Communist OB numbered {roll.value} is "
            f"{communist} ({OB_TITLES[communist]}), kept secret until the end. "
            + (f"In force: {sr}." if sr else "No special rule is in force."),
            result={"die": roll.value, "allied_ob": allied, "communist_ob": communist},
            dice=[roll],
            hidden_from=("Allied",),
            public=f"One die picks both OBs: {roll.value}. The Allied player plays OB {allied} "
            f"({OB_TITLES[allied]}); the Communist OB stays secret until the end.",
            public_title=f"Die {roll.value}: the Allies play OB {allied}",
        )

    def _deploy_allies(self):
        """YOTR-DEP step 2: the Allies deploy; the fixed units and the Koreans first, where they must stand, then
        the others (under YOTR-SR-B first in every town and base still without an Allied unit)."""
        allied = [u for u, r in sorted(self.counters.items()) if r.side == "Allied" and r.turn is None]
        fixed_first = [u for u in allied if u in FIXED or self.counters[u].nationality == "ROK"]
        for uid in fixed_first + [u for u in allied if u not in fixed_first]:
            r = self.counters[uid]
            if uid in FIXED or r.nationality == "ROK":
                h = self.data.places[FIXED.get(uid, "qui_nhon")].hex
                yield from self._deployed(uid, h, rule="YOTR-DEP")
                continue
            hexes = arvn_deploy_hexes()
            rule = "YOTR-DEP"
            if self.opts.special_rule_b:  # YOTR-SR-B: first every town and base gets an Allied unit
                empty = [h for h in hexes if h in self.data.towns and not self.occupied_by(h, "Allied")]
                if empty:
                    hexes, rule = tuple(empty), "YOTR-SR-B"
            opts = self._deploy_options(uid, hexes)
            where = (
                "first in every South Vietnamese town and base still without an Allied unit (Special Rule B)"
                if rule == "YOTR-SR-B"
                else ARVN_WHERE
            )
            act = yield self.decide(
                "Allied",
                f"Deploy {self.describe(uid)}",
                rule,
                opts,
                check=self._deploy_check(uid, opts, where, rule),
                kind="deploy",
            )
            yield from self._deployed(uid, act["to"])

    def free_deployment(self):
        """YOTR-SET-SEQ / YOTR-DEP: the three deployment steps of the Standard Game."""
        oob = self.forces
        nva = [
            u
            for u, r in sorted(self.counters.items())
            if r.side == "Communist"
            and r.nationality == "NVA"
            and r.unit_type in ("infantry", "dummy")
            and r.turn is None
        ]
        aside: list[str] = []
        placed = 0
        for uid in nva:
            must_aside = placed >= 14
            if must_aside:
                aside.append(uid)
                continue
            opts = self._deploy_options(uid, nva_deploy_hexes())
            if len(aside) < len(nva) - 14:
                opts.append(
                    Action.make("set_aside", f"Set {self.describe(uid)} aside for the third step", unit=uid)
                )
            act = yield self.decide(
                "Communist",
                f"Deploy {self.describe(uid)} (step 1: 14 of 21)",
                "YOTR-DEP",
                opts,
                check=self._deploy_check(uid, opts, NVA_WHERE),
                kind="deploy",
            )
            if act.kind == "set_aside":
                aside.append(uid)
                continue
            placed += 1
            yield from self._deployed(uid, act["to"])
        nlf = [u for u, r in sorted(self.counters.items()) if r.nationality == "NLF"]
        for uid, region in zip(nlf, NLF_REGIONS, strict=True):
            opts = self._deploy_options(uid, nlf_deploy_hexes(region))
            act = yield self.decide(
                "Communist",
                f"Deploy {self.describe(uid)} in {self.data.regions[region].name}",
                "YOTR-DEP",
                opts,
                check=self._deploy_check(
                    uid,
                    opts,
                    f"in the {self.data.regions[region].name} Region, never on a town, road or trail hex",
                ),
                kind="deploy",
            )
            self.home_region[uid] = region
            yield from self._deployed(uid, act["to"])
        yield from self._deploy_allies()  # step 2
        # the Allied OB's air points enter the box with the ruling that says so (journalled, issue #13)
        self.air = sum(u.attack or 0 for u in oob.values() if u.unit_type == "air_points" and u.turn is None)
        yield self.ruling(
            "YOTR-SET-SEQ",
            "Air points available",
            f"{self.air} air points go to the Bombardment Strength Available box.",
            result={"air": self.air},
            side="Allied",
        )
        # step 3: the seven set aside, then the supply units
        for uid in aside:
            hexes = nva_deploy_hexes() + (infiltration_hexes() if self.opts.special_rule_j else ())
            opts = self._deploy_options(uid, hexes)
            where = NVA_WHERE + (
                ", or under Special Rule J on a roadless rough or swamp hex of South Vietnam within "
                "four hexes of the border"
                if self.opts.special_rule_j
                else ""
            )
            act = yield self.decide(
                "Communist",
                f"Deploy {self.describe(uid)} (step 3)",
                "YOTR-DEP",
                opts,
                check=self._deploy_check(uid, opts, where),
                kind="deploy",
            )
            yield from self._deployed(uid, act["to"])
        yield from self._deploy_supply()
        yield from self.check_victory()

    def _deploy_allies_historical(self):
        """YOTR-DEP-ALLIED, Historical Game step 2: USA, ROK and the Svay Rieng task force on their fixed places,
        every other ARVN unit anywhere in its Region on a hex ARVN may enter (decision D-38)."""
        d = self.data
        for uid, r in sorted(self.counters.items()):
            if r.side != "Allied" or r.turn is not None:
                continue
            region = region_of_area(r.deploy_area)
            if r.nationality != "ARVN" or region is None:  # USA, ROK and Svay Rieng: fixed places
                yield from self._deployed(uid, r.start_hex, rule="YOTR-DEP-ALLIED")
                continue
            hexes = tuple(h for h in arvn_deploy_hexes() if d.region(h) == region)
            opts = self._deploy_options(uid, hexes)
            where = f"in the {d.regions[region].name} Region, on a hex ARVN may enter (decision D-38)"
            act = yield self.decide(
                "Allied",
                f"Deploy {self.describe(uid)} in {d.regions[region].name}",
                "YOTR-DEP-ALLIED",
                opts,
                check=self._deploy_check(uid, opts, where, "YOTR-DEP-ALLIED"),
                kind="deploy",
            )
            yield from self._deployed(uid, act["to"], rule="YOTR-DEP-ALLIED")

    def historical_choice_deployment(self):
        """YOTR-DEP-COMM / YOTR-DEP-ALLIED with option ``historical_positions`` off (D-68): the Historical Game's
        forces, deployed by the players within the stated Regions and distances, in the order of YOTR-SET-SEQ.

        Communist step 1: 14 of the 21 NVA units and dummies (NVA outside South Vietnam within two hexes of their
        Region, dummies anywhere outside it (the D-61 menu), never in Svay Rieng), then the NLF in their Regions
        off towns, roads and trails.  Allied step 2: USA, ROK and the Svay Rieng task force on their fixed places,
        every other ARVN unit anywhere in its Region on a hex ARVN may enter; 13 air points.  Communist step 3:
        the 7 set aside, then the supply units by quota, the Communist choosing which are real."""
        oob = self.forces
        d = self.data
        svay = d.places["svay_rieng"].hex
        nva = [
            u
            for u, r in sorted(self.counters.items())
            if r.side == "Communist"
            and r.nationality == "NVA"
            and r.unit_type in ("infantry", "dummy")
            and r.turn is None
        ]

        def nva_menu(uid: str) -> tuple[tuple[str, ...], str]:
            area = self.counters[uid].deploy_area
            region = region_of_area(area)
            if region is None:
                return tuple(
                    h for h in nva_deploy_hexes() if h != svay
                ), "anywhere outside South Vietnam (the menu of decision D-61), never in Svay Rieng"
            return (
                near_region_hexes(region),
                f"outside South Vietnam within two hexes of the "
                f"{d.regions[region].name} Region, never in Svay Rieng",
            )

        aside: list[str] = []
        placed = 0
        for uid in nva:
            if placed >= 14:
                aside.append(uid)
                continue
            hexes, where = nva_menu(uid)
            opts = self._deploy_options(uid, hexes)
            if len(aside) < len(nva) - 14:
                opts.append(
                    Action.make("set_aside", f"Set {self.describe(uid)} aside for the third step", unit=uid)
                )
            act = yield self.decide(
                "Communist",
                f"Deploy {self.describe(uid)} (step 1: 14 of 21)",
                "YOTR-DEP-COMM",
                opts,
                check=self._deploy_check(uid, opts, where, "YOTR-DEP-COMM"),
                kind="deploy",
            )
            if act.kind == "set_aside":
                aside.append(uid)
                continue
            placed += 1
            yield from self._deployed(uid, act["to"], rule="YOTR-DEP-COMM")
        for uid in [u for u, r in sorted(self.counters.items()) if r.nationality == "NLF" and r.turn is None]:
            region = region_of_area(self.counters[uid].deploy_area) or d.region(self.counters[uid].start_hex)
            opts = self._deploy_options(uid, nlf_deploy_hexes(region))
            where = f"in the {d.regions[region].name} Region, never on a town, road or trail hex"
            act = yield self.decide(
                "Communist",
                f"Deploy {self.describe(uid)} in {d.regions[region].name}",
                "YOTR-DEP-COMM",
                opts,
                check=self._deploy_check(uid, opts, where, "YOTR-DEP-COMM"),
                kind="deploy",
            )
            yield from self._deployed(uid, act["to"], rule="YOTR-DEP-COMM")
        yield from self._deploy_allies_historical()  # step 2
        # the Allied OB's air points enter the box with the ruling that says so (journalled, issue #13)
        self.air = sum(u.attack or 0 for u in oob.values() if u.unit_type == "air_points" and u.turn is None)
        yield self.ruling(
            "YOTR-DEP-ALLIED",
            "Air points available",
            f"{self.air} air points go to the Bombardment Strength Available box.",
            result={"air": self.air},
            side="Allied",
        )
        for uid in aside:  # step 3
            hexes, where = nva_menu(uid)
            opts = self._deploy_options(uid, hexes)
            act = yield self.decide(
                "Communist",
                f"Deploy {self.describe(uid)} (step 3)",
                "YOTR-DEP-COMM",
                opts,
                check=self._deploy_check(uid, opts, where, "YOTR-DEP-COMM"),
                kind="deploy",
            )
            yield from self._deployed(uid, act["to"], rule="YOTR-DEP-COMM")
        yield from self._deploy_supply(rule="YOTR-DEP-COMM")
        yield from self.check_victory()

    def _deploy_check(self, uid: str, opts: list[Action], where: str, rule: str = "YOTR-DEP"):
        """YOTR-DEP / YOTR-SET-SEQ: why a set-up choice outside the menu is refused, naming the restriction."""
        allowed = {a.get("to") for a in opts if a.kind == "deploy"}

        def check(act: Action) -> IllegalAction | None:
            if act.get("unit") != uid:
                return IllegalAction(
                    "YOTR-SET-SEQ", f"the counter to set up now is {uid}, not {act.get('unit')!r}"
                )
            if act.kind != "deploy":
                return None
            to = act.get("to")
            d = self.data
            if to not in d.hexes or d.terrain(to) == "sea":
                return IllegalAction(rule, f"{to!r} is not a land hex of the map")
            if to in allowed:
                return None
            name = self.hex_name(to)
            enemy = "Allied" if self.side_of(uid) == "Communist" else "Communist"
            if self.occupied_by(to, enemy):
                return IllegalAction(rule, f"{name} holds enemy counters")
            return IllegalAction(rule, f"{self.describe(uid)} sets up {where}; {name} is not such a hex")

        return check

    def _deploy_options(self, uid: str, hexes: tuple[str, ...]) -> list[Action]:
        enemy = "Allied" if self.side_of(uid) == "Communist" else "Communist"
        bad = self.occupied(enemy)
        return [
            Action("deploy", (("to", h), ("unit", uid)), f"{uid} to {h}", (h,)) for h in hexes if h not in bad
        ]

    def _deployed(self, uid: str, h: str, rule: str = "YOTR-DEP"):
        self.place(uid, h)
        side = self.side_of(uid)
        yield self.ruling(
            rule,
            f"{uid} deployed",
            f"{self.describe(uid)} is set up in {self.hex_name(h)}.",
            changes=[{"unit": uid, "from": "track", "to": h}],
            places=[h],
            side=side,
            hidden_from=("Allied",) if side == "Communist" else (),
            public=f"A face-down Communist counter is set up in {h}.",
            public_title="A face-down counter is set up",
        )

    def _deploy_supply(self, rule: str = "YOTR-DEP"):
        """YOTR-DEP: the 13 supply units go to the Supply Centers by quota; the Communist picks the real ones."""
        units = [
            u for u, r in sorted(self.counters.items()) if r.unit_type in ("supply_real", "supply_dummy")
        ]
        real = [u for u in units if self.counters[u].unit_type == "supply_real"]
        dummy = [u for u in units if self.counters[u].unit_type == "supply_dummy"]
        centres = sorted(self.data.supply_centers.items(), key=lambda kv: kv[1].id)
        left = sum(p.quota or 0 for _, p in centres)
        for h, p in centres:
            q = p.quota or 0
            left -= q
            lo = max(0, len(real) - left)  # the real units that no later centre could take
            hi = min(q, len(real))
            lo = max(lo, q - len(dummy))
            opts = [
                Action.make(
                    "real_supply", f"{k} real and {q - k} dummy supply units at {p.name}", [h], hex=h, real=k
                )
                for k in range(lo, hi + 1)
            ]
            act = yield self.decide(
                "Communist",
                f"How many of the {q} supply units at {p.name} are real?",
                rule,
                opts,
                kind="real_supply",
            )
            k = act["real"]
            for uid in real[:k] + dummy[: q - k]:
                self.place(uid, h)
            changes = [{"unit": u, "from": "track", "to": h} for u in real[:k] + dummy[: q - k]]
            real, dummy = real[k:], dummy[q - k :]
            yield self.ruling(
                rule,
                f"Supply units at {p.name}",
                f"{k} real and {q - k} dummy supply units are set up on {p.name}.",
                changes=changes,
                places=[h],
                side="Communist",
                hidden_from=("Allied",),
                public=f"{q} face-down supply units are set up on {p.name}.",
            )
