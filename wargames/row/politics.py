"""Rumor of War politics: Chinese intervention (12.2), US elections (14.5), theater commanders and their changes
(14.2.1) and invasions of Laos, Cambodia and North Vietnam (14.6.1).

The rulings are pure functions (``china_check``, ``election``, ``commander_change_options``, ``an_takes_command``)
that tests call directly; :class:`PoliticsMixin` puts them into the game (``RowGame``) through the steps of
``data/row/sequence.yaml``: A1 ``chinese_intervention_check``, A1b ``political_decisions`` (when the scenario has
a ``politics`` block) and C-d ``us_election``.  The game state of all of this is one dict, ``game.pol``, empty
for a scenario without the optional blocks (A Year in I Corps), so such a scenario plays and digests as before.

Readings of the text are decisions R-POL-nn and R-LDR-nn of ``data/row/decisions.csv``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ..core import Action, IllegalAction
from ..core.dice import Dice
from ..core.rulings import Ruling, indexed_ruling
from . import victory as V
from .bot_plans import commander_change
from .pieces import CAPITALIST, COMMUNIST
from .supply import change

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame

#: leader ids of data/row/units.csv -> the names the rules modules use (victory.vp_value, combat hooks)
COMMANDER_NAMES = {
    "westmoreland": "Westmoreland",
    "abrams": "Abrams",
    "weyand": "Weyand",
    "vo_nguyen_giap": "Giap",
    "nguyen_huu_an": "An",
    "ye_jianying": "Ye Jianying",
}
#: 14.2.1: who may replace whom, at what US Unrest, by how much he may lower it, and in which years he may not
SUCCESSION = {"westmoreland": ("abrams", 10, 10, ()), "abrams": ("weyand", 15, 5, (1974, 1975))}
#: 12.2: the D10 rolls that bring China in (units in North Vietnam; units in Laos only)
CHINA_NVN, CHINA_LAOS = (1, 2), (1,)
AN_TURN = 36  # 14.2.1: Spring 1974 on the calendar (data/row/calendar.csv, R-SCN-02)
COUNTRY_NAMES = {"NVN": "North Vietnam", "LAO": "Laos", "KHM": "Cambodia"}


_r = partial(indexed_ruling, "row")  # a ruling of this game, its rule_ref from the rules index


# ------------------------------------------------------------------------------------------ 12.2 China
def china_check(dice: Dice, in_nvn: int, in_laos: int, already: bool = False) -> Ruling:
    """ROW-12.2: the A1 check.  With Capitalist units in North Vietnam the Communist rolls a D10 and a 1 or 2
    brings China in; with units only in Laos a 1 does; with none there is no roll.  The DMZ is I Corps for the
    Capitalist (14.6.4), so units there do not count (the caller counts).  Once China is in there is no roll.
    Result: ``{"roll": bool, "intervened": bool}``."""
    if in_nvn < 0 or in_laos < 0:
        raise IllegalAction("ROW-12.2", "unit counts may not be negative")
    if already:
        return _r(
            "ROW-12.2",
            "Chinese intervention check",
            "China is already in the war: no roll.",
            {"roll": False, "intervened": True},
            inputs={"in_nvn": in_nvn, "in_laos": in_laos},
        )
    if not in_nvn and not in_laos:
        return _r(
            "ROW-12.2",
            "Chinese intervention check",
            "No Capitalist unit is in North Vietnam or Laos: China does not roll.",
            {"roll": False, "intervened": False},
            inputs={"in_nvn": 0, "in_laos": 0},
        )
    need = CHINA_NVN if in_nvn else CHINA_LAOS
    where = (
        f"{in_nvn} Capitalist unit(s) in North Vietnam"
        if in_nvn
        else f"{in_laos} in Laos (none in the North)"
    )
    d = dice.roll(10, "Chinese intervention")
    yes = d.value in need
    return _r(
        "ROW-12.2",
        "Chinese intervention check",
        f"With {where} the Communist rolls a D10 and needs {' or '.join(map(str, need))}: he rolls {d.value}, "
        + ("China enters the war." if yes else "China stays out."),
        {"roll": True, "intervened": yes},
        inputs={"in_nvn": in_nvn, "in_laos": in_laos},
        dice=(d,),
        lookup={"needed": list(need)},
    )


# ------------------------------------------------------------------------------------------ 14.5 elections
def election(year: int, us_military_victory: int, us_unrest: int) -> Ruling:
    """ROW-14.5: Fall 1968 and Fall 1972.  The Democrats win when US Military Victory is strictly higher than US
    Unrest; otherwise (a tie included, both years, decision R-POL-03) the Republicans win.
    Result: ``{"winner": "Democrats" | "Republicans"}``."""
    if year not in (1968, 1972):
        raise IllegalAction("ROW-14.5", f"there is no US election in {year} (only Fall 1968 and Fall 1972)")
    dem = us_military_victory > us_unrest
    winner = "Democrats" if dem else "Republicans"
    why = (
        f"US Military Victory {us_military_victory} is higher than US Unrest {us_unrest}"
        if dem
        else f"US Unrest {us_unrest} is at least US Military Victory {us_military_victory}"
    )
    return _r(
        "ROW-14.5",
        f"US election {year}",
        f"{why}: the {winner} win the {year} election"
        + (
            " and nothing changes."
            if dem
            else "; a Republican win lowers US Unrest by 3, restores secret "
            "operations, grants three unrestricted declarations without Unrest and lets the Communist put Low "
            "Morale on three Capitalist units."
        ),
        {"winner": winner},
        inputs={"year": year, "us_military_victory": us_military_victory, "us_unrest": us_unrest},
        lookup={"democrats_if": "US MV > US Unrest"},
    )


# ------------------------------------------------------------------------------------------ 14.2.1 commanders
def commander_change_options(current: str, us_unrest: int, year: int) -> list[Action]:
    """ROW-14.2.1: the Capitalist may replace Westmoreland by Abrams when US Unrest is 10 or more (then lower it
    by up to 10), and Abrams by Weyand when it is 15 or more but not in 1974 or 1975 (lower it by up to 5);
    Weyand is never replaced.  One ``change_commander`` option per amount of the reduction (the player picks how
    much, "up to"), then ``keep_commander``.  [] when no change is possible."""
    if current not in SUCCESSION:
        return []
    new, need, most, barred = SUCCESSION[current]
    if us_unrest < need or year in barred:
        return []
    out = [
        Action.make(
            "change_commander",
            f"{COMMANDER_NAMES[new]} replaces {COMMANDER_NAMES[current]}; US Unrest -{k}",
            leader=new,
            reduce=k,
        )
        for k in range(min(most, us_unrest), -1, -1)
    ]
    return [*out, Action.make("keep_commander", f"{COMMANDER_NAMES[current]} stays in command")]


def check_commander_change(current: str, a: Action, us_unrest: int, year: int) -> Ruling:
    """ROW-14.2.1: check a chosen change (refused with the rule's reason) and say what it does."""
    if a.kind != "change_commander" or a not in commander_change_options(current, us_unrest, year):
        if current == "weyand":
            raise IllegalAction("ROW-14.2.1", "Weyand may not be replaced")
        if current in SUCCESSION:
            new, need, most, barred = SUCCESSION[current]
            raise IllegalAction(
                "ROW-14.2.1",
                f"{COMMANDER_NAMES[new]} may replace {COMMANDER_NAMES[current]} only "
                f"with US Unrest at {need} or more"
                + (f", not in {barred[0]}-{barred[1]}" if barred else "")
                + f", lowering it by at most {most}",
            )
        raise IllegalAction("ROW-14.2.1", f"{current} is not a Capitalist theater commander")
    return _r(
        "ROW-14.2.1",
        "New theater commander",
        f"{COMMANDER_NAMES[a['leader']]} takes command from {COMMANDER_NAMES[current]} (US Unrest {us_unrest}); "
        f"US Unrest is lowered by {a['reduce']} (never below a breakpoint reached, 12.1.2).",
        {"leader": a["leader"], "reduce": a["reduce"]},
        inputs={"current": current, "us_unrest": us_unrest, "year": year},
    )


# ------------------------------------------------------------------------------------------ the game side
class PoliticsMixin:
    """The game procedures of 12.2, 14.2.1, 14.5 and 14.6.1 (mixed into ``RowGame``)."""

    def _pol_start(self: RowGame) -> dict[str, Any]:
        """The ``pol`` state at the start: {} unless the scenario has a politics, trail or sow block."""
        sc = self.scenario
        pol: dict[str, Any] = {}
        p = getattr(sc, "politics", None)
        if p is not None:
            pol["china"] = {
                "in_play": bool(p.china and p.china.in_play),
                "intervened": bool(p.china and p.china.intervened),
            }
            pol["party"] = p.party
            pol["free_unrestricted"] = p.republican_unrestricted
            pol["invaded"] = sorted(p.invaded)
            pol["foreign_unrest_ignored"] = False
            pol["commanders"] = {s: c.leader for s, c in sc.theater_commanders.items()}
            self.vp["secret_ops_allowed"] = p.secret_ops
        t = getattr(sc, "trail", None)
        if t is not None:
            pol["trail_interdicted"] = {h: "scenario" for h in sorted(t.interdicted)}
        s = getattr(sc, "sow", None)
        if s is not None:
            pol["sow_done"] = []
            pol["sow_damaged"] = []
        return pol

    # -------------------------------------------------------------- queries
    def commander_id(self: RowGame, side: str) -> str | None:
        """14.2.1: the leader id in the side's Theater Commander box (the scenario's, or the changed one)."""
        if "commanders" in self.pol:
            return self.pol["commanders"].get(side)
        c = self.scenario.theater_commanders.get(side)
        return c.leader if c else None

    def china_in(self: RowGame) -> bool:
        return bool(self.pol.get("china", {}).get("intervened"))

    def politics_in_play(self: RowGame) -> bool:
        """Sequence predicate of step a1b: the scenario has a politics block."""
        return getattr(self.scenario, "politics", None) is not None

    def invaded(self: RowGame) -> frozenset[str]:
        return frozenset(self.pol.get("invaded", ()))

    # -------------------------------------------------------------- A1: China (12.2)
    def china_step(self: RowGame):
        """ROW-12.2 (A1): count the Capitalist units in North Vietnam (not the DMZ, 14.6.4) and in Laos; roll."""
        units = [u for u in self.pos if self.side_of(u) == CAPITALIST and self.rows[u].kind == "unit"]
        nvn = sum(
            1 for u in units if self.map.country(self.pos[u]) == "NVN" and self.map.area(self.pos[u]) != "DMZ"
        )
        lao = sum(1 for u in units if self.map.country(self.pos[u]) == "LAO")
        if not self.pol["china"]["in_play"]:
            yield self.ruling(
                "ROW-12.2",
                "Chinese intervention check",
                f"The scenario keeps China out of the war "
                f"(politics.china.in_play false): no roll, whatever stands in North Vietnam ({nvn}) or "
                f"Laos ({lao}) (R-POL-05).",
                result={"roll": False, "intervened": False},
            )
            return
        r = china_check(self.dice, nvn, lao, already=self.china_in())
        yield self._stamp(r)
        if r.result["intervened"] and not self.china_in():
            yield from self._china_enters()

    def _china_enters(self: RowGame):
        """ROW-12.2: what intervention does (decisions R-POL-01, R-POL-02)."""
        self.pol["china"]["intervened"] = True
        self.pol["commanders"][COMMUNIST] = "ye_jianying"
        self.pol["foreign_unrest_ignored"] = True
        self._touch()
        yield self.ruling(
            "ROW-12.2",
            "China intervenes",
            "Ye Jianying becomes the Communist theater commander; from "
            "now on every VP award of both sides is doubled, the Communist gets 3 replacement points a "
            "turn, both sides always fight the Offensive mission free of cost and the Capitalist's "
            "operations are all unrestricted; US Unrest for entering other countries no longer counts.",
            result={"commander": "ye_jianying"},
        )
        new, r = change(self.pools_obj(), "Communist Infrastructure", 10, "Chinese aid (12.2, R-POL-01)")
        self.set_pools(new)
        yield self._stamp(r)
        s, r = V.award(self.vstate(), COMMUNIST, -10, "Chinese intervention (12.2)", pass_breakpoints=True)
        self.set_vstate(s)
        yield self._stamp(r)
        yield from self._china_air()
        prc = list(getattr(self.scenario.politics.china, "prc_units", []) or [])
        srcs = [
            h for h in self.map.supply_sources("prc") if h in self.window_land
        ]  # the north map edge (12.2)
        for u in prc:
            if self.box.get(u) != "china":
                continue
            spots = sorted(
                {h for h in srcs if not any(self.side_of(x) == CAPITALIST for x in self.at_hex.get(h, []))}
            )
            if not spots:
                yield self.ruling(
                    "ROW-12.2",
                    "PRC unit waits",
                    f"No PRC supply source on the north edge is free "
                    f"(or in play) for {self.rows[u].name}: it waits.",
                    result={"unit": u},
                )
                continue
            yield from self.enter_fresh(
                COMMUNIST,
                u,
                spots,
                "ROW-12.2",
                kind="prc_entry",
                option="prc_enters",
                key="unit",
                prompt=f"Where does {self.rows[u].name} enter?",
                label="at",
                title="PRC unit enters",
                text="enters fresh at the Communist supply source",
            )

    def _china_air(self: RowGame):
        """ROW-12.2 (decision R-WAR-17): with the air war in play, the PRC aircraft (every PRC counter of
        data/row/air/aircraft.csv: the rule's two) go to the Available box, to fly from China's fields only
        (R-AIR-02), and an improved airfield (the first China field of data/row/air/airfields.csv) is placed in the
        China Airfields box; it may be attacked like any other."""
        if not self.airwar.get("aircraft"):
            return
        from .airdata import aircraft_counters, airfields

        craft = [
            a
            for a, c in aircraft_counters().items()
            if c.service == "PRC" and a not in self.airwar["aircraft"]
        ]
        for a in craft:
            self.airwar["aircraft"][a] = {
                "box": "available",
                "reduced": False,
                "airfield": "",
                "restricted": False,
                "ace": "",
            }
        field = next(f for f, row in airfields().items() if row.location == "china")
        self.airwar["airfields"][field] = {"improved": True, "damaged": False}
        self._touch()
        yield self.ruling(
            "ROW-12.2",
            "PRC aircraft and airfield",
            f"China's air force enters: {', '.join(aircraft_counters()[a].name for a in craft) or 'no aircraft'} "
            f"to the Available box, and an improved airfield, {airfields()[field].name}, in the China Airfields box.",
            result={"aircraft": craft, "airfield": field},
            side=COMMUNIST,
        )

    def china_replacements(self: RowGame):
        """ROW-12.2 (R-POL-02): with China in, the Communist gets 3 replacement points in his reinforcement step."""
        if not self.china_in():
            return
        new, r = change(
            self.pools_obj(), "Communist Replacements", 3, "Chinese intervention (12.2)", forced=True
        )
        self.set_pools(new)
        yield self._stamp(r)

    # -------------------------------------------------------------- A1b: commanders and invasions (14.2.1, 14.6.1)
    def political_decisions(self: RowGame):
        """ROW-14.2.1 / ROW-14.6.1 (step a1b, decision R-LDR-01): once a season, before the missions, An replaces
        Giap on Spring 1974; the Capitalist may change his theater commander; he may declare an invasion."""
        p = self.scenario.politics
        year = self._calendar_row().year
        if (
            p.commander_changes
            and self.season >= AN_TURN
            and self.pol["commanders"].get(COMMUNIST) == "vo_nguyen_giap"
        ):
            yield from self._an_takes_command()
        cur = self.pol["commanders"].get(CAPITALIST)
        opts = commander_change_options(cur or "", self.vp["us_unrest"], year) if p.commander_changes else []
        if opts:
            a = yield self.decide(
                CAPITALIST,
                f"Change the theater commander ({COMMANDER_NAMES[cur]}, US Unrest {self.vp['us_unrest']})?",
                "ROW-14.2.1",
                opts,
                kind="commander",
            )
            if a.kind == "change_commander":
                r = check_commander_change(cur, a, self.vp["us_unrest"], year)
                self.pol["commanders"][CAPITALIST] = a["leader"]
                self._touch()
                yield self._stamp(r)
                if a["reduce"]:
                    yield from self._award(
                        COMMUNIST, -a["reduce"], f"{COMMANDER_NAMES[a['leader']]} takes command"
                    )
            else:
                yield self.ruling(
                    "ROW-14.2.1",
                    "Theater commander stays",
                    f"{COMMANDER_NAMES[cur]} stays in command.",
                    result={"leader": cur},
                    side=CAPITALIST,
                )
        yield from self._invasions()

    def chart_commander(self: RowGame, leader: str) -> str:
        """ROW-14.2.1 / ROW-13.1 (decision R-LDR-03): a reinforcement-chart event puts ``leader`` in his side's
        Theater Commander box, with none of the Unrest reduction a player's change brings; returns the text."""
        side = self.rows[leader].side
        before = self.pol["commanders"].get(side)
        self.pol["commanders"][side] = leader
        self._touch()
        return (
            f"({COMMANDER_NAMES.get(leader, leader)} takes command from "
            f"{COMMANDER_NAMES.get(before or '', before)} by the chart; US Unrest does not change, R-LDR-03.)"
        )

    def _an_takes_command(self: RowGame):
        """ROW-14.2.1: Spring 1974, An replaces Giap: PAVN Tank +10 (the track stops at 19, 8.2) and the
        Communist puts Poor markers on two ARVN units of his choice (decision R-LDR-02: units on the map)."""
        self.pol["commanders"][COMMUNIST] = "nguyen_huu_an"
        self._touch()
        yield self.ruling(
            "ROW-14.2.1",
            "An replaces Giap",
            "Spring 1974: Nguyen Huu An takes command from Giap.",
            result={"leader": "nguyen_huu_an"},
        )
        new, r = change(self.pools_obj(), "PAVN Tank", 10, "An takes command (14.2.1)", forced=True)
        self.set_pools(new)
        yield self._stamp(r)
        for k in (1, 2):
            arvn = [
                u
                for u in sorted(self.pos)
                if self.rows[u].nationality == "ARVN"
                and self.rows[u].kind == "unit"
                and "Poor" not in self.markers[u]
                and self.rows[u].quality != "Poor"
            ]
            if not arvn:
                break
            a = yield self.decide(
                COMMUNIST,
                f"An: Poor marker {k} of 2 on which ARVN unit?",
                "ROW-14.2.1",
                [
                    Action.make("poor_marker", f"Poor on {self.rows[u].name}", [self.pos[u]], unit=u)
                    for u in arvn
                ],
                kind="poor_marker",
            )
            self.markers[a["unit"]] = tuple(sorted({*self.markers[a["unit"]], "Poor"} - {"Elite"}))
            self._touch()
            yield self.ruling(
                "ROW-14.2.1",
                "Poor marker",
                f"A Poor marker goes on {self.rows[a['unit']].name}.",
                result={"unit": a["unit"]},
                places=[self.pos[a["unit"]]],
            )

    def _invasions(self: RowGame):
        """ROW-14.6.1 (decision R-POL-04): the Capitalist may declare an invasion of a country the scenario allows;
        from then on US units may move there; it costs the scenario's US Unrest (ignored once China is in)."""
        p = self.scenario.politics
        left = [c for c in p.may_invade if c not in self.pol["invaded"]]
        if not left:
            return
        opts = [
            Action.make(
                "invade",
                f"Invade {COUNTRY_NAMES[c]}"
                + (f" (US Unrest +{p.invasion_unrest.get(c, 0)})" if p.invasion_unrest.get(c) else ""),
                country=c,
            )
            for c in left
        ]
        a = yield self.decide(
            CAPITALIST,
            "Declare an invasion?",
            "ROW-14.6.1",
            [*opts, Action.make("no_invasion", "No invasion this season")],
            kind="invasion",
        )
        if a.kind == "no_invasion":
            return
        c = a["country"]
        self.pol["invaded"] = sorted([*self.pol["invaded"], c])
        self._touch()
        cost = p.invasion_unrest.get(c, 0)
        ignored = self.pol.get("foreign_unrest_ignored", False)
        yield self.ruling(
            "ROW-14.6.1",
            "Invasion",
            f"The Capitalist invades {COUNTRY_NAMES[c]}: US units may now "
            "move there"
            + (
                f"; it costs {cost} US Unrest" + (", ignored since China entered (12.2)" if ignored else "")
                if cost
                else ""
            )
            + ".",
            result={"country": c, "unrest": 0 if ignored else cost},
            side=CAPITALIST,
        )
        if cost and not ignored:
            yield from self._award(COMMUNIST, cost, f"invasion of {COUNTRY_NAMES[c]}")

    # -------------------------------------------------------------- C-d: elections (14.5)
    def election_step(self: RowGame):
        """ROW-14.5 (C-d): the election of the turn; a Republican win lowers US Unrest by 3 (the breakpoints hold,
        R-POL-03), resets and restores Secret Ops, gives 3 unrestricted declarations free of Unrest, and lets the
        Communist put Low Morale markers on three Capitalist units."""
        year = self._calendar_row().year
        r = election(year, self.vp["us_military_victory"], self.vp["us_unrest"])
        yield self._stamp(r)
        was = self.pol.get("party")
        self.pol["party"] = r.result["winner"]
        self._touch()
        if r.result["winner"] != "Republicans":
            if was == "Republicans":  # 14.5 (R-WAR-13): what held while the Republicans were in power ends
                lapsed = self.pol.get("free_unrestricted", 0)
                self.pol["free_unrestricted"] = 0
                if getattr(self, "airwar", None):
                    lapsed = self.airwar.get("free_unrestricted", 0)  # the count the air war spends
                    self.airwar["free_unrestricted"] = 0
                yield self.ruling(
                    "ROW-14.5",
                    "Republican administration ends",
                    f"The Democrats take office: the Republican effects end; the {lapsed} free unrestricted "
                    "declaration(s) left lapse (what was done under the Republicans stays: US Unrest, the Secret "
                    "Ops marker, the Low Morale markers).",
                    result={"free_unrestricted": 0, "lapsed": lapsed},
                )
            return
        self.vp["secret_ops"] = 0
        self.vp["secret_ops_allowed"] = True
        self.pol["free_unrestricted"] = self.pol.get("free_unrestricted", 0) + 3
        if getattr(
            self, "airwar", None
        ):  # the air war (air.py) spends them when it declares unrestricted boxes
            self.airwar["free_unrestricted"] = self.airwar.get("free_unrestricted", 0) + 3
        yield self.ruling(
            "ROW-14.5",
            "Republican administration",
            "Secret Ops go back to 0 on the Secret Ops side; "
            f"the Capitalist has {self.pol['free_unrestricted']} unrestricted declarations free of "
            "US Unrest.",
            result={"free_unrestricted": self.pol["free_unrestricted"]},
        )
        for k in (1, 2, 3):
            cands = [
                u
                for u in sorted(self.pos)
                if self.side_of(u) == CAPITALIST
                and self.rows[u].kind == "unit"
                and "Low Morale" not in self.markers[u]
            ]
            if not cands:
                break
            a = yield self.decide(
                COMMUNIST,
                f"Low Morale marker {k} of 3 on which Capitalist unit?",
                "ROW-14.5",
                [
                    Action.make("low_morale", f"Low Morale on {self.rows[u].name}", [self.pos[u]], unit=u)
                    for u in cands
                ],
                kind="low_morale",
            )
            self.markers[a["unit"]] = tuple(sorted([*self.markers[a["unit"]], "Low Morale"]))
            self._touch()
            yield self.ruling(
                "ROW-14.5",
                "Low Morale",
                f"Low Morale goes on {self.rows[a['unit']].name}.",
                result={"unit": a["unit"]},
                places=[self.pos[a["unit"]]],
            )
        yield from self._award(COMMUNIST, -3, "Republican election win (14.5)")


def _combat_chit(game: RowGame, d) -> tuple[Action, str]:
    """ROW-5.2.1: the chit with the biggest die and modifier is kept."""
    from .chits import chit_by_id

    best = max(
        d.options, key=lambda a: (chit_by_id(a["chit"]).die + 2 * chit_by_id(a["chit"]).modifier, a["chit"])
    )
    return best, "keeps the chit with the biggest die and modifier"


def _ground_commander(game: RowGame, d) -> tuple[Action, str]:
    """ROW-14.2.2 (R-WAR-15): the HQ the chart names, where history put him; else the HQ without a commander that
    has most of its side's units within its command range."""
    chart = next((a for a in d.options if a["chart"]), None)
    if chart is not None:
        return chart, "where history put him (the reinforcement chart's HQ)"

    def score(a: Action) -> tuple[int, int, str]:
        hq = a["hq"]
        led = any(x == hq for x in game.leaders.values())
        rng = game.rows[hq].command_range or 0
        near = [
            u
            for u, h in game.pos.items()
            if game.rows[u].kind == "unit"
            and game.side_of(u) == d.side
            and game.map.distance(h, game.pos[hq]) <= rng
        ]
        return (not led, len(near), hq)

    best = max(d.options, key=score)
    return best, (
        f"{game.rows[best['hq']].name}: "
        + ("no commander yet, " if not any(x == best["hq"] for x in game.leaders.values()) else "")
        + f"the most units within {game.rows[best['hq']].command_range or 0} hexes"
    )


#: the built-in players' answers to the special-rule decisions (12.2, 14.x), by decision kind, with the reason
SPECIAL_ANSWERS: dict[str, Callable[[RowGame, Any], tuple[Action, str] | None]] = {
    "combat_chit": _combat_chit,
    "tunnel_roll": lambda game, d: (d.options[0], "US Casualties feed US Unrest: always roll"),
    "commander": commander_change,
    "invasion": lambda game, d: (
        next(a for a in d.options if a.kind == "no_invasion"),
        "the bot never widens the war on its own",
    ),
    "poor_marker": lambda game, d: (d.options[0], "Poor on the first ARVN unit listed"),
    "low_morale": lambda game, d: (d.options[0], "Low Morale on the first Capitalist unit listed"),
    "prc_entry": lambda game, d: (d.options[0], "the first free supply source"),
    "ground_commander": _ground_commander,
}
