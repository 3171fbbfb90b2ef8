"""Vietnam: Rumor of War, the built-in players' answers to the air and naval decisions (ROW-10.0, 11.1; R-AIR-14)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core import Action
from .air_common import (
    STRATEGIC,
    SUPPLY_TRACK,
)
from .airdata import (
    aircraft_counters,
    aircraft_types,
    airfields,
)
from .pieces import CAPITALIST, COMMUNIST
from .sow import SOW_WINGS

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


# ---------------------------------------------------------------------------------------------- the built-in player
#: the Capitalist bot's wish for each plane type, best first (R-AIR-14)
US_WISHES = {
    "ec121": ("aew",),
    "rf4": ("recon",),
    "f4": ("downtown", "sam_strike", "ground_support"),
    "f105": ("sam_strike", "infrastructure", "ground_support"),
    "b52": ("infrastructure", "hcm_strike", "ground_support"),
    "maw": ("ground_support", "interdiction"),
    "cvw": ("infrastructure", "downtown", "ground_support"),
    "gunship": ("hcm_strike", "interdiction", "ground_support"),
    "a1": ("ground_support", "interdiction"),
}


def _worth(game: RowGame, a: str) -> int:
    t = aircraft_types()[aircraft_counters()[a].type]
    return sum(t.value(c) for c in ("a2a", "infrastructure", "airfield", "sam", "ground_support"))


def _pick(d: Any, kind: str) -> Action | None:
    return next((a for a in d.options if a.kind == kind), None)


def _air_mission(game: RowGame, d: Any) -> tuple[Action, str] | None:
    """ROW-10.2: which aircraft goes to which mission box (support wings first, then each type's wishes)."""
    commits = [a for a in d.options if a.kind == "commit_aircraft"]
    side = d.side
    if side == CAPITALIST and commits and game.sf_ready():
        # 10.4.4 / 14.8 (R-GAME-42): a SOW wing flies a special operation instead while a Special Forces battalion
        # is ready, so it stays in the Available box
        commits = [a for a in commits if a["aircraft"] not in SOW_WINGS]
        if not commits:
            done = _pick(d, "done_commit")
            if done is not None:
                return (
                    done,
                    "the SOW wings stay available for special operations: Special Forces are ready (14.8)",
                )
    if not commits:
        return None
    order = list(US_WISHES)  # support wings first (AEW, recon), then fighters, bombers, tactical wings
    first = min(
        (a["aircraft"] for a in commits),
        key=lambda u: (
            order.index(aircraft_counters()[u].type) if aircraft_counters()[u].type in order else len(order),
            u,
        ),
    )
    mine = [a for a in commits if a["aircraft"] == first]
    t = aircraft_counters()[first].type
    if side == COMMUNIST:
        return _communist_air_mission(game, d, mine)
    sams = game.airwar.get("sams", 0)
    intd = next((a for a in mine if a["box"] == "interdiction"), None)
    trail_first = US_WISHES.get(t, ())[:1] == ("hcm_strike",) and not _no_need(game, "hcm_strike", sams)
    if (
        intd is not None
        and not trail_first  # a gunship goes to the trail first while a terminus is open (R-WAR-14)
        and game._craft(CAPITALIST, "recon")
        and game._craft(CAPITALIST, "ground_support")
        and not game._craft(CAPITALIST, "interdiction")
    ):
        return intd, (
            f"{aircraft_counters()[first].name} to interdiction: a recon aircraft is up and the "
            "Ground Support box is manned, so one aircraft hunts enemy HQs"
        )
    for box in US_WISHES.get(t, ("ground_support",)):
        if _no_need(game, box, sams):
            continue
        cands = [a for a in mine if a["box"] == box]
        if cands:
            a = min(
                cands,
                key=lambda x: (
                    (not x["restricted"])
                    if game.vp["us_unrest"] >= game.vp["us_military_victory"]
                    else x["restricted"]
                ),
            )
            why = {
                "aew": "early warning adds 1 to every strike and blunts the SAMs",
                "recon": "reconnaissance is needed before any interdiction",
                "downtown": "escorts fight the MiGs over Hanoi",
                "sam_strike": f"{sams} SAMs threaten every raid",
                "infrastructure": "strikes lower the North's Infrastructure and so its supply",
                "ground_support": "air support adds to the troops' combats",
                "interdiction": "interdiction can stop an enemy HQ from activating",
                "hcm_strike": "strikes on the Ho Chi Minh Trail close its termini to the Communist's supply",
            }[box]
            return a, f"{aircraft_counters()[first].name} to {box.replace('_', ' ')}" + (
                " (restricted: US Unrest is high)" if a["restricted"] else ""
            ) + f": {why}"
    return mine[0], f"{aircraft_counters()[first].name}: its first possible mission"


def _communist_air_mission(game: RowGame, d: Any, mine: list[Action]) -> tuple[Action, str] | None:
    """ROW-10.2 (R-AIR-14): a MiG meets a US raid over Downtown, else supports the troops, else stays available."""
    us_strategic = [a for a in game._craft(CAPITALIST) if game.airwar["aircraft"][a]["box"] in STRATEGIC]
    for a in mine:
        if a["box"] == "downtown" and us_strategic:
            return a, (
                f"{len(us_strategic)} US aircraft fly strategic missions: the MiGs rise over Downtown to meet them"
            )
    gs = next((a for a in mine if a["box"] == "ground_support"), None)
    if gs is not None:
        return gs, "no US raid to meet: the fighter supports the troops in the South"
    return _pick(d, "done_commit"), "no use for this aircraft this season: it stays available"


def _no_need(game: RowGame, box: str, sams: int) -> bool:
    """R-AIR-14: a US wish the bot skips: one SAM strike only against a real SAM belt (3+), no escort over Downtown
    without MiGs left, one interdiction aircraft."""
    if box == "sam_strike":
        return sams < 3 or bool(game._craft(CAPITALIST, "sam_strike"))
    if box == "downtown":
        return not any(
            game.airwar["aircraft"][a]["box"] not in ("eliminated", "withdrawn")
            for a in game._craft(COMMUNIST)
        )
    if box == "interdiction":
        return bool(game._craft(CAPITALIST, "interdiction"))
    if box == "hcm_strike":  # one trail striker, with the trail in play, a recon up and a terminus still open
        return (
            not game.trail_strikes_in_play()
            or not game._craft(CAPITALIST, "recon")
            or not game.active_terminus_numbers()
            or bool(game._craft(CAPITALIST, "hcm_strike"))
        )
    return False


def _airfield(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.1: the airfield an aircraft flies from: the one with most room left."""
    a = max(d.options, key=lambda x: (game._room(x["airfield"]), x["airfield"]))
    return a, f"{a['airfield']} has the most room left"


def _secret_box(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.7: one unrestricted box secret while Secret Ops is low."""
    if game.vp["secret_ops"] <= 3:
        a = _pick(d, "secret_box")
        return a, f"the {a['box']} box is kept secret: a Secret Ops point instead of US Unrest"
    return _pick(d, "no_secret"), f"Secret Ops already at {game.vp['secret_ops']}: a reveal would cost a VP"


def _free_unrestricted(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-14.5: spend every free unrestricted declaration it may: each saves a point of US Unrest now, and those left
    lapse if the Democrats win the next election (R-WAR-13)."""
    a = max(d.options, key=lambda x: x["n"])
    if not a["n"]:
        return a, "no free declaration can be used"
    return a, (
        f"uses {a['n']} free declaration(s): each saves a point of US Unrest now, and those left would lapse if "
        "the Democrats won the next election"
    )


def _trail_strike(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-14.7.2 (R-WAR-14): strike while a terminus is still open, with the best Ho Chi Minh strike value, at the
    highest-numbered trail hex offered (any marker closes the highest open terminus, 14.7.1)."""
    open_ = game.active_terminus_numbers()
    strikes = [a for a in d.options if a.kind == "trail_strike"]
    if not open_ or not strikes:
        return _pick(
            d, "no_trail_strike"
        ), "no terminus left open to close: the aircraft stay for other missions"
    best = max(strikes, key=lambda x: (game.air_value(x["aircraft"], "hcm_strike")[0], x["hex"]))
    return best, (
        f"{len(open_)} trail termini are open; a marker at {best['hex']} closes the highest one "
        f"({aircraft_counters()[best['aircraft']].name} has the best trail strike value)"
    )


def _ace(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.6: the ace flies with the best air-to-air aircraft."""
    a = max(
        d.options,
        key=lambda x: (aircraft_types()[aircraft_counters()[x["aircraft"]].type].a2a, x["aircraft"]),
    )
    return a, "the ace flies with the best air-to-air aircraft"


def _airfield_work(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.1: repair a damaged airfield; improve one when aircraft outnumber the room; else keep the supply."""
    side = d.side
    supply = game.pools[SUPPLY_TRACK[side]]
    rep = _pick(d, "repair_airfield")
    if rep is not None and supply >= 4:
        return rep, "a damaged airfield grounds its aircraft"
    planes = len(
        [
            a
            for a in game._craft(side)
            if game.airwar["aircraft"][a]["box"] == "available" and aircraft_counters()[a].service != "Navy"
        ]
    )
    room = sum(game._capacity(f) for f in game.airwar["airfields"] if airfields()[f].side == side)
    imp = _pick(d, "improve_airfield")
    if imp is not None and planes > room and supply >= 6:
        return imp, f"{planes} aircraft but room for {room}: an improved airfield flies two"
    return _pick(d, "no_airfield_work"), "supply is kept for the ground war"


def _air_target(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.1: the most dangerous (or most valuable) enemy aircraft in reach."""
    a = max(d.options, key=lambda x: (game.air_value(x["target"], "a2a")[0], _worth(game, x["target"])))
    return a, f"{a['target']} is the most dangerous (or most valuable) enemy aircraft in reach"


def _sam_hit(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.5: the US gives up its least valuable aircraft, the Communist hits the most valuable."""
    if d.side == CAPITALIST:
        a = min(
            d.options,
            key=lambda x: (game.airwar["aircraft"][x["target"]]["reduced"], _worth(game, x["target"])),
        )
        return a, "the least valuable full-strength aircraft takes the hit"
    a = max(
        d.options, key=lambda x: (game.airwar["aircraft"][x["target"]]["reduced"], _worth(game, x["target"]))
    )
    return a, "a reduced aircraft hit again is eliminated; otherwise the most valuable"


def _strike_order(game: RowGame, d: Any) -> tuple[Action, str] | None:
    """ROW-10.3: SAM strikes first, then airfields, then infrastructure."""
    for b in ("sam_strike", "airfield_strike", "infrastructure"):
        a = next((x for x in d.options if x["box"] == b), None)
        if a is not None:
            return a, "SAMs first, then airfields, then infrastructure: each strike makes the next safer"
    return None


def _airfield_strike(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.3.1: the improved airfield first."""
    a = max(d.options, key=lambda x: (game.airwar["airfields"][x["airfield"]]["improved"], x["airfield"]))
    return a, "the improved airfield flies the most MiGs"


def _aircraft_lost(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.3.1: the aircraft least worth keeping is destroyed on the ground."""
    a = min(
        d.options,
        key=lambda x: (
            game.airwar["aircraft"][x["aircraft"]]["box"] != "damaged",
            _worth(game, x["aircraft"]),
        ),
    )
    return a, "the aircraft least worth keeping (a damaged one first) is lost"


def _air_support(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.4.2: the strongest ground-support aircraft flies the support."""
    a = max(d.options, key=lambda x: game.air_value(x["aircraft"], "ground_support")[0])
    return a, "the strongest ground-support aircraft covers the most"


def _air_interdiction(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.4.1: the US interdicts an HQ activation or a combat's support, never a single unit's move."""
    what = d.context.get("what", "")
    if d.side == CAPITALIST and what in ("hq_activation", "combat_support"):
        a = max(
            (x for x in d.options if x.kind == "interdict"),
            key=lambda x: game.air_value(x["aircraft"], "interdiction")[0],
        )
        return a, (
            "stopping an HQ stops its whole activation"
            if what == "hq_activation"
            else "cutting tank and artillery support weakens the enemy in this combat"
        )
    return _pick(d, "no_interdiction"), "not worth risking the aircraft for a single unit's move"


def _recon_aircraft(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.4.3: the best reconnaissance value flies."""
    a = max(d.options, key=lambda x: game.air_value(x["aircraft"], "recon")[0])
    return a, "the best reconnaissance value"


def _fleet_station(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-11.1: the station nearer more Communist units (:meth:`NavalMixin.fleet_bot_station`)."""
    st, why = game.fleet_bot_station()
    return next(a for a in d.options if a["station"] == st), why


#: the built-in players' answers to the air and naval decisions (ROW-10.0, 11.1), by decision kind; each gives the
#: action and its reason (None: no answer, the bot's fallback takes the choice)
AIR_ANSWERS: dict[str, Callable[[RowGame, Any], tuple[Action, str] | None]] = {
    "air_mission": _air_mission,
    "airfield": _airfield,
    "secret_box": _secret_box,
    "free_unrestricted": _free_unrestricted,
    "trail_strike": _trail_strike,
    "ace": _ace,
    "airfield_work": _airfield_work,
    "air_target": _air_target,
    "sam_hit": _sam_hit,
    "strike_order": _strike_order,
    "airfield_strike": _airfield_strike,
    "aircraft_lost": _aircraft_lost,
    "air_support": _air_support,
    "air_interdiction": _air_interdiction,
    "recon_aircraft": _recon_aircraft,
    "fleet_station": _fleet_station,
}
