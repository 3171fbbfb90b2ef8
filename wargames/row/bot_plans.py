"""The built-in players' strategic plan for Rumor of War (issue #27 item 10): which HQ mission each side means to
declare this season (ROW-9.5), what it keeps back for it when it buys other things (ROW-7.1, 9.3), what the
Communist puts into the Ho Chi Minh Trail (ROW-7.1, 14.7) and when the Capitalist changes his theater commander
(ROW-14.2.1).  Every choice is a rule of thumb read from the position, with the reason said in words.

The rules of thumb follow the two sides of the war (decision R-WAR-02):

* the **Communist** launches the once-a-game General Uprising (9.5) when he can pay it, the chart's events of the
  season shake two or more ARVN divisions (the Tet truce that sent half the ARVN on leave), 12 or more VC units
  stand in the South and 30 or more American units are there (the build-up at its height, for the doubled Unrest
  awards: Tet 1968); an Offensive when he can pay it and either such a season comes more than four seasons after
  his last offensive (the collapse of 1975), or the Americans are gone (fewer than 5 American units on the map and
  the chart brings no more), his units outnumber theirs two to one and his last offensive is more than twelve
  seasons back (the North rebuilt for years after each: 1968, 1972, 1975; R-WAR-30); Recruit when the VC are few
  and the cup still holds counters; otherwise Infiltrate (it drains the Capitalist Infrastructure), or Evade when
  nothing else can be paid.  What is left after the mission and the HQs goes into the trail: its status first
  (more termini), then its supply.
* the **Capitalist** fights Search and Destroy while the Americans carry the war; turns to Vietnamization once
  his commander allows it and the American units on the map are no more than the ARVN's (the withdrawals);
  fights Hearts and Minds when US Unrest runs 5 or more ahead of US Military Victory and he can pay it; and an
  Offensive only with 14 supply or more, never under Weyand.  He replaces his theater commander, once 14.2.1 allows
  it, only while US Unrest stands above US Military Victory (the war looks lost at home: Westmoreland after Tet
  1968); the breakpoints keep the change from being a free reset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .pieces import CAPITALIST, COMMUNIST

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame

#: ROW-9.5 mission costs (data/row/tables/hq_missions.csv; repeated here only for the plan, the game charges them)
COSTS = {
    CAPITALIST: {"offensive": 10, "hearts_and_minds": 4, "search_and_destroy": 3, "vietnamization": 0},
    COMMUNIST: {"general_uprising": 10, "offensive": 8, "recruit": 4, "infiltrate": 2, "evade": 0},
}
#: fewer American units than this on the map, and none still due by the chart: the Americans are gone
FEW_US = 5
#: seasons the Communist waits after an Offensive or the General Uprising before the next Offensive once the
#: Americans are gone (the North rebuilt for years after each: Tet 1968, Easter 1972, spring 1975; R-WAR-30)
REFIT_SEASONS = 12
#: ... and before striking at an ARVN the chart shakes this season (R-WAR-30)
REFIT_SHORT = 4
#: the ARVN units the chart's events of this season put Low Morale on (the Tet truce, the 1975 collapse): the moment
SHAKEN_ARVN = 2
#: the VC units on the map the General Uprising needs, and the American units it aims at (the build-up at its height)
UPRISING_VC, UPRISING_US = 12, 30
#: US Unrest this far above US Military Victory: Hearts and Minds
HOME_FRONT_GAP = 5
#: the Capitalist declares an Offensive only with this much supply (the mission's 10 and 4 for HQs)
CAPITALIST_OFFENSIVE_SUPPLY = 14
#: the Communist recruits when fewer VC units than this stand on the map and the cup holds this many counters
RECRUIT_BELOW, RECRUIT_CUP = 10, 5


def forces(game: RowGame) -> dict[str, int]:
    """The units (not HQs) on the map by force: US, ARVN, all Capitalist, all Communist, VC; and the VC cup."""
    out = {"US": 0, "ARVN": 0, CAPITALIST: 0, COMMUNIST: 0, "VC": 0}
    for u in game.pos:
        r = game.rows[u]
        if r.kind != "unit":
            continue
        side = game.side_of(u)
        out[side] = out.get(side, 0) + 1
        if r.nationality in ("US", "ARVN", "VC"):
            out[r.nationality] += 1
    out["cup"] = sum(1 for b in game.box.values() if b == "vc_cup")
    return out


def shaken_arvn(game: RowGame) -> int:
    """The ARVN divisions the scenario's chart events of this season mark Low Morale (6.2 j, 13.1; R-WAR-30): the
    Tet truce that sent half the ARVN on leave, the collapse after Ban Me Thuot.  The Communist knows them when he
    chooses his mission (he called the truce; the chart's events of a season are public).  The event's divisions
    are counted whether or not they still stand on the map (R-WAR-34): the truce is the moment the North chose
    months ahead, not a count of the ARVN left to catch on leave (before, counting only those on the map missed
    Tet 1968 in most campaigns, where two or more of the four truce divisions had been destroyed by then)."""
    return sum(
        1
        for ev in game.scenario.events
        if ev.turn == game.season and ev.kind == "marker" and ev.marker == "Low Morale"
        for u in ev.units
        if u in game.rows and game.rows[u].nationality == "ARVN"
    )


def past_missions(game: RowGame, side: str) -> list[tuple[int, str]]:
    """(season, mission) of every mission ``side`` has declared so far (ROW-9.5 rulings of the game log)."""
    first = game.scenario.first_turn - 1
    return [
        (r.turn + first, str(r.result.get("mission")))
        for r in game.log
        if r.title == "HQ mission" and r.side == side and isinstance(r.result, dict)
    ]


def plan_mission(game: RowGame, side: str, supply: int, allowed: set[str] | None = None) -> tuple[str, str]:
    """ROW-9.5: the mission ``side`` means to declare with ``supply`` (among ``allowed`` when given: the legal
    options), and why.  Pure: reads the position, changes nothing."""
    f = forces(game)

    def ok(name: str) -> bool:
        return COSTS[side][name] <= supply and (allowed is None or name in allowed)

    if side == COMMUNIST:
        past = past_missions(game, COMMUNIST)
        used = any(m == "general_uprising" for _, m in past)
        last_big = max((s for s, m in past if m in ("offensive", "general_uprising")), default=-99)
        shaken = shaken_arvn(game)
        if (
            not used
            and ok("general_uprising")
            and shaken >= SHAKEN_ARVN
            and f["VC"] >= UPRISING_VC
            and f["US"] >= UPRISING_US
        ):
            return "general_uprising", (
                f"the General Uprising, once a game: {supply} supply pays it, {shaken} ARVN divisions are on leave "
                f"or shaken this season, {f['VC']} VC units stand in the South and {f['US']} American units are "
                "there for the doubled Unrest awards to hit"
            )
        if ok("offensive") and shaken >= SHAKEN_ARVN and game.season - last_big > REFIT_SHORT:
            return "offensive", (
                f"an Offensive: {supply} supply pays it and {shaken} ARVN divisions are on leave or shaken this "
                f"season; the last offensive is more than {REFIT_SHORT} seasons back"
            )
        sc = game.scenario
        more_us = any(
            r.turn > game.season and game.rows[r.unit].nationality == "US" for r in sc.reinforcements
        )
        gone = f["US"] < FEW_US and not more_us
        if (
            ok("offensive")
            and gone
            and f[COMMUNIST] >= 2 * f["US"]
            and game.season - last_big > REFIT_SEASONS
        ):
            return "offensive", (
                f"an Offensive: {supply} supply pays it, the Americans are going home ({f['US']} units left "
                f"against {f[COMMUNIST]} Communist ones), and the last offensive is more than {REFIT_SEASONS} "
                "seasons back"
            )
        if ok("recruit") and f["VC"] < RECRUIT_BELOW and f["cup"] >= RECRUIT_CUP:
            return (
                "recruit",
                f"Recruit: only {f['VC']} VC units on the map and {f['cup']} counters in the cup",
            )
        if ok("infiltrate"):
            return (
                "infiltrate",
                "Infiltrate: cheap, and the VC in the lowlands wear down the Capitalist's supply",
            )
        return "evade", "Evade: nothing else can be paid"
    cmd = game.commander(CAPITALIST)
    gap = game.vp["us_unrest"] - game.vp["us_military_victory"]
    if ok("vietnamization") and cmd != "Westmoreland" and f["US"] <= f["ARVN"]:
        return "vietnamization", (
            f"Vietnamization: {f['US']} American units are left against {f['ARVN']} ARVN ones; the ARVN "
            "carries the war and US Unrest falls by 2"
        )
    if ok("offensive") and cmd != "Weyand" and supply >= CAPITALIST_OFFENSIVE_SUPPLY:
        return "offensive", f"an Offensive: {supply} supply pays it with 4 to spare for the HQs"
    if ok("hearts_and_minds") and gap >= HOME_FRONT_GAP:
        return "hearts_and_minds", f"Hearts and Minds: US Unrest runs {gap} ahead of Military Victory"
    if ok("search_and_destroy"):
        return "search_and_destroy", "Search and Destroy: the Americans hunt the main forces for Body Count"
    for name in ("vietnamization", "hearts_and_minds", "offensive"):
        if ok(name):
            return name, f"{name.replace('_', ' ')}: the only mission it may declare and pay"
    return "", "no mission can be paid"


def keep_back(game: RowGame, side: str, supply: int) -> int:
    """ROW-7.1 / ROW-9.3: the supply kept for this season's planned mission when buying anything else."""
    name, _ = plan_mission(game, side, supply)
    return COSTS[side].get(name, 0)


def commander_change(game: RowGame, d: Any) -> tuple[Any, str]:
    """ROW-14.2.1: the change is offered once US Unrest reaches the rule's level (10 for Abrams, 15 for Weyand);
    the bot makes it only when US Unrest also stands above US Military Victory (the war looks lost at home, as
    after Tet 1968), with the largest reduction offered (the breakpoints of 12.1.2 still hold, so a change at the
    10 breakpoint lowers nothing: no free reset).  Abrams gives way to Weyand only once fewer than ``FEW_US``
    American units stand on the map (R-WAR-35): Weyand earns no Body Count VP and may not declare an Offensive, so
    he is the commander of the last Americans (June 1972), not of the ground war."""
    unrest, mv = game.vp["us_unrest"], game.vp["us_military_victory"]
    keep = next(a for a in d.options if a.kind == "keep_commander")
    if unrest <= mv:
        return keep, f"US Unrest {unrest} is not above Military Victory {mv}: the war still looks won at home"
    if game.commander(CAPITALIST) == "Abrams":
        us = forces(game)["US"]
        if us >= FEW_US:
            return keep, (
                f"Abrams stays: {us} American units still fight, and under Weyand their Body Count would earn no "
                "victory points and no Offensive could be declared (14.2.1); Weyand comes when they are gone"
            )
    best = max((a for a in d.options if a.kind == "change_commander"), key=lambda a: a["reduce"])
    return best, (
        f"US Unrest {unrest} stands above Military Victory {mv}: a new commander, lowering Unrest by up to "
        f"{best['reduce']} (never below a breakpoint reached)"
    )
