"""SOW special operations (14.8; Special Forces 14.1.5; POWs 12.1.4; secret operations 12.1.5).

The three tables are data (``data/row/sow/pow_rescue.csv``, ``sf_insertion.csv``, ``raid.csv``; the text's missing
rows filled by decisions R-SOW-02 and R-SOW-03).  ``resolve_sow`` is the ruling of one mission: the D10 with its
modifiers (+1 after a successful reconnaissance; Special Forces Insertion -1 when the target hex is in no enemy ZoC),
the row read, and the rule that a success row counts only when the roll is also at most the wing's Special Ops
rating (otherwise the mission simply fails and the aircraft returns to Available).  A mission needs a Special
Forces battalion ready off the map (box ``sf_ready``).  A mission declared secret sends its US Unrest to the
Secret Ops track instead (12.1.5; decision R-SOW-06).

:class:`SowMixin` flies them in the game at step a6e ``special_operations`` (decision R-SOW-01): with the air war in
play, the SOW wings on the Air Display (:data:`SOW_WINGS`) that sit in the Available Aircraft box, each at its type's
Special Ops value (a damaged wing does not fly; a disaster sends it to the Damaged box with its POW point; the
Capitalist may first send an aircraft of the Reconnaissance box, 10.4.3; decision R-GAME-42); without the air war,
the wings of the scenario's ``sow`` block at their listed ratings (R-SOW-07).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import TYPE_CHECKING, Any, Literal

from ..core import Action, IllegalAction
from ..core.data import Row, game_dir, read_csv
from ..core.dice import Dice
from ..core.rulings import Ruling, indexed_ruling
from . import victory as V
from .airdata import aircraft_counters
from .control import enemy_zoc
from .pieces import CAPITALIST, COMMUNIST
from .supply import change

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


def aircraft_name(uid: str) -> str:
    """An aircraft's name as a student reads it (data/row/air/aircraft.csv), or the wing id of a sow block."""
    c = aircraft_counters().get(uid)
    return c.name if c is not None else uid


MISSIONS = ("pow_rescue", "sf_insertion", "raid")
MISSION_NAMES = {"pow_rescue": "POW Rescue", "sf_insertion": "Special Forces Insertion", "raid": "Raid"}
SUCCESS = ("success", "decisive_success", "smashing_success")
COUNTRY_NAMES = {"NVN": "North Vietnam", "LAO": "Laos", "KHM": "Cambodia"}
#: ROW-14.8: the four wings the rule names (14th, 315th, 633rd and 27th Special Operations Wings), by their ids in
#: data/row/air/aircraft.csv; only these fly special operations (other aircraft of the same type do not)
SOW_WINGS = frozenset({"usaf_14sow", "usaf_315sow", "usaf_633sow", "usaf_27sow"})


class SowRow(Row):
    d10: int
    country: Literal["NVN", "LAO", "KHM"] | None = None
    outcome: Literal[
        "failure", "success", "decisive_success", "smashing_success", "disaster", "complete_disaster"
    ]
    pow: str
    us_unrest: int
    pavn_supply: int = 0
    hcm_supply: int = 0
    aircraft: Literal["damaged", "reduced_damaged"] | None = None
    special_forces: Literal["placed", "not_placed", "removed"] | None = None


@cache
def sow_tables() -> dict[tuple[str, int, str | None], SowRow]:
    """The three tables keyed by (mission, d10, country); every roll 1-10 present (raids: per country)."""
    out: dict[tuple[str, int, str | None], SowRow] = {}
    for m in MISSIONS:
        for r in read_csv(game_dir("row") / "sow" / f"{m}.csv", SowRow):
            out[(m, r.d10, r.country)] = r
    return out


_r = partial(indexed_ruling, "row")  # a ruling of this game, its rule_ref from the rules index


def resolve_sow(
    dice: Dice,
    mission: str,
    special_ops: int,
    *,
    country: str | None = None,
    in_enemy_zoc: bool = True,
    recon: bool = False,
    secret: bool = False,
) -> Ruling:
    """ROW-14.8: one special operation.  ``mission``: pow_rescue, sf_insertion or raid (``country`` NVN, LAO or
    KHM); ``special_ops``: the wing's rating (1-10); ``in_enemy_zoc``: the insertion hex is in an enemy ZoC;
    ``recon``: a reconnaissance succeeded first (+1); ``secret``: US Unrest goes to Secret Ops.

    Result: ``{"roll", "outcome", "applies", "pow", "us_unrest", "secret_ops", "pavn_supply", "hcm_supply",
    "aircraft", "special_forces"}`` where ``pow`` is "reset" or a number to add, and ``aircraft`` is
    damaged / reduced_damaged / available (a failed success) / done."""
    if mission not in MISSIONS:
        raise IllegalAction("ROW-14.8", f"unknown special operation {mission!r}; missions are {MISSIONS}")
    if not 1 <= special_ops <= 10:
        raise IllegalAction("ROW-14.8", f"a Special Ops rating runs from 1 to 10, not {special_ops}")
    if (mission == "raid") != (country in COUNTRY_NAMES):
        raise IllegalAction(
            "ROW-14.8",
            "a raid names North Vietnam, Laos or Cambodia (NVN, LAO, KHM); other missions name no country",
        )
    d = dice.roll(10, f"SOW {MISSION_NAMES[mission]}")
    mods = []
    if recon:
        mods.append((+1, "a reconnaissance succeeded first"))
    if mission == "sf_insertion" and not in_enemy_zoc:
        mods.append((-1, "the hex is in no enemy ZoC"))
    roll = min(10, max(1, d.value + sum(m for m, _ in mods)))
    row = sow_tables()[(mission, roll, country if mission == "raid" else None)]
    applies = row.outcome not in SUCCESS or roll <= special_ops
    name = MISSION_NAMES[mission] + (f" in {COUNTRY_NAMES[country]}" if country else "")
    text = (
        f"{name}: the D10 shows {d.value}"
        + "".join(f", {m:+d} ({w})" for m, w in mods)
        + (f" = {roll}" if mods else "")
        + f": {row.outcome.replace('_', ' ')}"
    )
    res = {
        "roll": roll,
        "outcome": row.outcome,
        "applies": applies,
        "pow": 0,
        "us_unrest": 0,
        "secret_ops": 0,
        "pavn_supply": 0,
        "hcm_supply": 0,
        "aircraft": "done",
        "special_forces": "ready",
    }
    if not applies:
        res.update(outcome="failure", aircraft="available")
        text += (
            f", but {roll} is above the wing's Special Ops rating {special_ops}: the mission fails and the "
            "aircraft returns to Available."
        )
        return _r(
            "ROW-14.8",
            "Special operation",
            text,
            res,
            dice=(d,),
            inputs={
                "mission": mission,
                "special_ops": special_ops,
                "country": country,
                "in_enemy_zoc": in_enemy_zoc,
                "recon": recon,
                "secret": secret,
            },
            lookup={"row": roll, "table": mission},
        )
    res["pow"] = "reset" if row.pow == "reset" else int(row.pow)
    if secret and row.us_unrest > 0:
        res["secret_ops"] = row.us_unrest
    else:
        res["us_unrest"] = row.us_unrest
    res.update(pavn_supply=row.pavn_supply, hcm_supply=row.hcm_supply, aircraft=row.aircraft or "done")
    if row.special_forces:
        res["special_forces"] = "ready" if row.special_forces == "not_placed" else row.special_forces
    eff = []
    if res["pow"] == "reset":
        eff.append("the Hanoi Hilton track goes to 0")
    elif res["pow"]:
        eff.append(f"POWs +{res['pow']}")
    if res["us_unrest"]:
        eff.append(f"US Unrest {res['us_unrest']:+d}")
    if res["secret_ops"]:
        eff.append(f"Secret Ops +{res['secret_ops']} instead of US Unrest (a secret mission)")
    if res["pavn_supply"]:
        eff.append(f"Communist (PAVN) Supply {res['pavn_supply']}")
    if res["hcm_supply"]:
        eff.append(f"Ho Chi Minh Trail Supply {res['hcm_supply']}")
    if res["aircraft"] != "done":
        eff.append("the SOW aircraft is " + res["aircraft"].replace("_", " and "))
    if res["special_forces"] == "placed":
        eff.append("the Special Forces battalion is placed")
    elif res["special_forces"] == "removed":
        eff.append("the Special Forces battalion is removed from the game")
    text += " (within the wing's rating " + str(special_ops) + ")" if row.outcome in SUCCESS else ""
    text += ": " + ("; ".join(eff) if eff else "no other effect") + "."
    return _r(
        "ROW-14.8",
        "Special operation",
        text,
        res,
        dice=(d,),
        inputs={
            "mission": mission,
            "special_ops": special_ops,
            "country": country,
            "in_enemy_zoc": in_enemy_zoc,
            "recon": recon,
            "secret": secret,
        },
        lookup={"row": roll, "table": mission},
    )


class SowMixin:
    """Special operations in the game (``pol['sow_done']``, ``pol['sow_damaged']``)."""

    def sow_in_play(self: RowGame) -> bool:
        """Sequence predicate of step a6e: the scenario has a sow block, or its air war has a SOW wing on the Air
        Display (ROW-14.8, decision R-GAME-42)."""
        return getattr(self.scenario, "sow", None) is not None or bool(self._display_sow_wings())

    def _display_sow_wings(self: RowGame) -> list[str]:
        """ROW-14.8: the SOW wings on the Air Display now (any box), when the air war is in play."""
        if not self.air_on():
            return []
        return sorted(a for a in self.airwar.get("aircraft", {}) if a in SOW_WINGS)

    def sf_ready(self: RowGame) -> list[str]:
        return sorted(u for u, b in self.box.items() if b == "sf_ready")

    def _insertion_hexes(self: RowGame) -> list[str]:
        """14.1.5 / R-SOW-05: land hexes of South Vietnam or an invaded country inside the window with no enemy."""
        inv = self.invaded()
        com = {h for u, h in self.pos.items() if self.side_of(u) == COMMUNIST}
        return sorted(
            h
            for h in self.window_land
            if (self.map.country(h) == "SVN" or self.map.country(h) in inv)
            and h not in com
            and self.map.area(h) != "DMZ"
        )

    def special_operations(self: RowGame):
        """ROW-14.8 (step a6e, decision R-SOW-01): each SOW wing not damaged may fly one special operation a season
        while a Special Forces battalion is ready; wings damaged last season are back (R-SOW-07)."""
        self.pol["sow_done"] = []  # a new season: no wing has flown yet (bookkeeping, journalled untold)
        repaired = list(self.pol.get("sow_damaged", []))
        if repaired:
            self.pol["sow_damaged"] = []  # stated by the ruling below
            yield self.ruling(
                "ROW-14.8",
                "SOW wings repaired",
                f"{', '.join(repaired)} are back from the Damaged box after one season (R-SOW-07).",
                result={"repaired": repaired},
            )
        self._touch()
        if self._display_sow_wings():
            yield from self._display_special_operations()
            return
        for w in self.scenario.sow.aircraft:
            if self._over:
                return
            yield from self.fly_sow(w.id, w.special_ops)

    def _display_special_operations(self: RowGame):
        """ROW-14.8 / ROW-10.4.4 (decision R-GAME-42): each SOW wing in the Available Aircraft box may fly one special
        operation at its Special Ops value on the Air Display (reduced -1, monsoon -1, as for every mission, 10.3);
        a wing in the Damaged box, or committed to another mission box this season (10.4.4: instead), does not."""
        away = []
        for w in self._display_sow_wings():
            if self._over:
                return
            box = self.airwar["aircraft"][w]["box"]
            if box != "available":
                away.append(
                    f"{aircraft_name(w)} ({'damaged' if box == 'damaged' else box.replace('_', ' ')})"
                )
                continue
            v, _ = self.air_value(w, "special_ops", box="available", restricted=False)
            if v < 1:
                away.append(f"{aircraft_name(w)} (Special Ops value {v})")
                continue
            yield from self.fly_sow(w, v)
        if away:
            yield self.ruling(
                "ROW-14.8",
                "SOW wings not flying",
                "These SOW wings fly no special operation this season: " + ", ".join(away) + " (R-GAME-42).",
                result={"not_flying": away},
            )

    def _sow_mission_options(self: RowGame, wing: str) -> list[Action]:
        """ROW-14.8: the special operations ``wing`` may fly: a Special Forces insertion, a POW Rescue while the
        Hanoi Hilton holds POWs, a raid into each country."""
        opts = [
            Action.make(
                "sow_mission", f"{wing}: {MISSION_NAMES['sf_insertion']}", wing=wing, mission="sf_insertion"
            )
        ]
        if self.vp["pow"] > 0:
            opts.append(
                Action.make(
                    "sow_mission",
                    f"{wing}: POW Rescue ({self.vp['pow']} POWs)",
                    wing=wing,
                    mission="pow_rescue",
                )
            )
        return opts + [
            Action.make(
                "sow_mission", f"{wing}: raid into {COUNTRY_NAMES[c]}", wing=wing, mission="raid", country=c
            )
            for c in COUNTRY_NAMES
        ]

    def fly_sow(self: RowGame, wing: str, special_ops: int, recon: bool = False):
        """ROW-14.8: offer wing ``wing`` a special operation and resolve it (the air war may call this).  On the
        Air Display only a wing in the Available Aircraft box flies (R-GAME-42)."""
        if wing in self.pol.get("sow_done", []) or wing in self.pol.get("sow_damaged", []):
            return
        on_display = self.air_on() and wing in self.airwar.get("aircraft", {})
        if on_display and self.airwar["aircraft"][wing]["box"] != "available":
            return
        if not self.sf_ready():
            yield self.ruling(
                "ROW-14.8",
                "No Special Forces ready",
                f"{wing} flies no special operation: no Special "
                "Forces battalion is off the map and ready (14.8).",
                result={"wing": wing},
            )
            return
        opts = self._sow_mission_options(wing)
        a = yield self.decide(
            CAPITALIST,
            f"Special operation for {self.display_text(wing)} (Special Ops {special_ops})?",
            "ROW-14.8",
            [*opts, Action.make("no_sow", f"{wing} flies no special operation", wing=wing)],
            kind="special_operation",
        )
        if a.kind == "no_sow":
            return
        mission, country = a["mission"], a.get("country")
        target, zoc = None, True
        if mission == "sf_insertion":
            spots = self._insertion_hexes()
            if not spots:
                yield self.ruling(
                    "ROW-14.8",
                    "No hex for an insertion",
                    "No free hex of South Vietnam or an invaded country is in play.",
                    result={"wing": wing},
                )
                return
            t = yield self.decide(
                CAPITALIST,
                "Insert the Special Forces where?",
                "ROW-14.8",
                [Action.make("sow_target", f"Insert at {h}", [h], hex=h) for h in spots],
                kind="insertion_hex",
            )
            target = t["hex"]
            zoc = target in enemy_zoc(self.situation(), CAPITALIST, self.map)
        if not recon and on_display:
            recon = yield from self._sow_recon(wing, target, country)
            if self._over:
                return
        secret = False
        if self.vp["secret_ops_allowed"]:
            s = yield self.decide(
                CAPITALIST,
                "Declare the mission secret (US Unrest goes to Secret Ops)?",
                "ROW-12.1.5",
                [Action.make("sow_secret", "Secret mission"), Action.make("sow_open", "Open mission")],
                kind="secret_operation",
            )
            secret = s.kind == "sow_secret"
        r = resolve_sow(
            self.dice, mission, special_ops, country=country, in_enemy_zoc=zoc, recon=recon, secret=secret
        )
        yield self._stamp(r)
        self.pol["sow_done"] = [*self.pol.get("sow_done", []), wing]
        self._touch()
        yield from self._sow_effects(wing, r.result, target)

    def _sow_recon(self: RowGame, wing: str, target: str | None, country: str | None):
        """ROW-14.8 / ROW-10.4.3 (decision R-GAME-42): before the mission the Capitalist may send one aircraft of the
        Reconnaissance box: a D10 at most its recon value succeeds (+1 on the mission roll, 14.8); a 10 fails and
        damages it; if not damaged it rolls to stay on station.  Returns whether the reconnaissance succeeded."""
        recons = self._craft(CAPITALIST, "recon")
        if not recons:
            return False
        where = target or (COUNTRY_NAMES[country] if country else "the target")
        a = yield self.decide(
            CAPITALIST,
            f"Reconnoitre {where} before {aircraft_name(wing)}'s special operation (a success adds 1 to its roll)?",
            "ROW-10.4.3",
            [
                *(
                    Action.make(
                        "sow_recon",
                        f"Reconnaissance by {aircraft_name(rc)} (recon {self.air_value(rc, 'recon')[0]})",
                        [target] if target else [],
                        aircraft=rc,
                    )
                    for rc in recons
                ),
                Action.make("no_sow_recon", "No reconnaissance"),
            ],
            kind="sow_recon",
        )
        if a.kind != "sow_recon":
            return False
        rc = a["aircraft"]
        v, how = self.air_value(rc, "recon")
        r, ok = self._roll(v, f"recon for the special operation of {wing}")
        ok = ok and r.value != 10
        yield self.ruling(
            "ROW-10.4.3",
            "Reconnaissance",
            f"{aircraft_name(rc)} ({how}) reconnoitres {where} for {aircraft_name(wing)}: rolls {r.value}, "
            + ("success: +1 on the special operation's roll (14.8)" if ok else "nothing gained")
            + ".",
            result={"aircraft": rc, "success": ok, "for": wing},
            dice=[r],
            places=[target] if target else [],
            side=CAPITALIST,
            **self._air_lookup(rc, "recon", v, how),
        )
        if r.value == 10:
            yield from self._air_damage(rc, False, "a 10 on the reconnaissance", "ROW-10.4.3")
        else:
            yield from self._stay(rc, "ROW-10.4.3")
        return ok

    def _sow_special_forces(self: RowGame, sf: str, outcome: str, target: str | None):
        """ROW-14.1.5: the Special Forces battalion of a special operation is inserted at ``target`` or lost."""
        if outcome == "placed" and target:
            self.place(sf, target)
            self.fresh[sf] = True
            yield self.ruling(
                "ROW-14.1.5",
                "Special Forces inserted",
                f"{self.rows[sf].name} is placed at {target}; it never moves and always has a LoC (14.1.5).",
                result={"unit": sf, "hex": target},
                places=[target],
            )
        elif outcome == "removed":
            self.place(sf, None, "removed")
            yield self.ruling(
                "ROW-14.1.5",
                "Special Forces lost",
                f"{self.rows[sf].name} is removed from the game.",
                result={"unit": sf},
            )

    def _sow_effects(self: RowGame, wing: str, res: dict, target: str | None):
        sf = self.sf_ready()[0]
        if res["aircraft"] in ("damaged", "reduced_damaged"):
            if self.air_on() and wing in self.airwar.get("aircraft", {}):
                # R-GAME-42: to the Air Display's Damaged box (out of any mission box), with its POW point (10.3)
                yield from self._air_damage(
                    wing,
                    res["aircraft"] == "reduced_damaged",
                    "a disaster on its special operation",
                    "ROW-14.8",
                )
                if self._over:
                    return
            else:
                self.pol["sow_damaged"] = sorted({*self.pol.get("sow_damaged", []), wing})
        yield from self._sow_special_forces(sf, res["special_forces"], target)
        self._touch()
        for track, d in (
            ("Communist Supply", res["pavn_supply"]),
            ("Ho Chi Minh Trail Supply", res["hcm_supply"]),
        ):
            if d:
                new, rr = change(self.pools_obj(), track, d, "SOW raid (14.8)", forced=True)
                self.set_pools(new)
                yield self._stamp(rr)
        if res["pow"] == "reset" and self.vp["pow"]:
            self.vp["pow"] = 0
            yield self.ruling(
                "ROW-12.1.4", "POWs rescued", "The Hanoi Hilton track returns to 0.", result={"pow": 0}
            )
        elif isinstance(res["pow"], int) and res["pow"] > 0:
            yield from self._accumulate_pow("pow", res["pow"])
        if res["us_unrest"]:
            yield from self._award(COMMUNIST, res["us_unrest"], "special operation (14.8)")
        if res["secret_ops"] and not self._over:
            yield from self._accumulate_pow("secret_ops", res["secret_ops"])

    def _accumulate_pow(self: RowGame, key: str, points: int):
        """ROW-12.1.4 / ROW-12.1.5: POWs or Secret Ops points; the Communist may roll (Westmoreland: -1 on the
        secret-ops reveal roll, ROW-14.2.1)."""
        s, r, opts = V.add_points(self.vstate(), key, points, vp=self._auto_vp(key))
        self.set_vstate(s)
        yield self._stamp(r)
        if s.winner:
            yield from self._check_win()
            return
        if opts:
            a = yield self.decide(
                COMMUNIST,
                f"Roll a D10 on {key.replace('_', ' ')} ({getattr(s, key)})?",
                r.rule_id,
                opts,
                kind="accumulator_roll",
            )
            if a.kind == "roll_accumulator":
                mod = -1 if key == "secret_ops" and self.commander_id(CAPITALIST) == "westmoreland" else 0
                s, rr = V.roll_accumulator(
                    self.vstate(), key, self.dice, vp=self._vp_value(key), modifier=mod
                )  # 14.2.1; 12.2 and 9.5 doublings (R-WAR-10)
                self.set_vstate(s)
                yield self._stamp(rr)
                if s.winner:
                    yield from self._check_win()


def _special_operation(game: RowGame, d) -> tuple[Action, str]:
    """ROW-14.8: a POW rescue when 3 or more POWs wait, else a raid into Laos."""
    pick = next((a for a in d.options if a.kind == "sow_mission" and a["mission"] == "pow_rescue"), None)
    if pick is not None and game.vp["pow"] >= 3:
        return pick, f"{game.vp['pow']} POWs in the Hanoi Hilton are worth a rescue"
    pick = next(
        a for a in d.options if a.kind == "sow_mission" and a["mission"] == "raid" and a["country"] == "LAO"
    )
    return pick, "a raid into Laos cuts the trail's supply and risks least US Unrest"


#: the built-in players' answers to the special-operation decisions (14.8), by decision kind, with the reason
SOW_ANSWERS: dict[str, Callable[[RowGame, Any], tuple[Action, str] | None]] = {
    "special_operation": _special_operation,
    "secret_operation": lambda game, d: (
        next(a for a in d.options if a.kind == "sow_secret"),
        "secret: any Unrest goes to Secret Ops first",
    ),
    "insertion_hex": lambda game, d: (d.options[0], "the first free hex"),
    "sow_recon": lambda game, d: (
        next(a for a in d.options if a.kind == "no_sow_recon"),
        "the +1 a reconnaissance adds moves as many rolls into the disaster rows as out of the failure rows, and "
        "the recon aircraft risks damage",
    ),
}
