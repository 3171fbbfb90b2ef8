"""Victory points (ROW-12.0 - ROW-12.1.5): the two VP tracks, breakpoints, the zero rule, the 31-VP win, the
accumulator tracks (Body Count, Casualties, POWs, Secret Ops), objective markers and the VP multipliers of missions
(ROW-9.5), theater commanders (ROW-14.2.1) and Chinese intervention (ROW-12.2).

* ROW-12.1: Capitalist VPs are kept on US Military Victory, Communist VPs on US Unrest; 31 wins at once (both at
  once: the Communist); at the end the higher total wins, a tie goes to the Communist.
* ROW-12.1.1: VPs are awarded at once or in the End Phase check, as the scenario lists them (the caller's choice).
* ROW-12.1.2: once US Unrest has reached 5, 10 or 20 it never goes back below that breakpoint (only Chinese
  intervention's -10 passes them); a player at 0 who must lose VPs gives double to the opponent.
* ROW-12.1.3: objective markers: resolved by a combat in their hex (Capitalist +/- value), or claimed by the
  Communist in the End Phase from a hex he controls where no chit was placed (value off US Military Victory).
* ROW-12.1.4 / ROW-12.1.5: points accumulate; the entitled player may roll a D10 (at most the track: 1 VP) and the
  track returns to 0 either way; passing 9 gives 1 VP at once.  Secret Ops: the Communist rolls; a reveal ends
  secret operations.

The state is an immutable :class:`VictoryState`; every function returns the new state and its ruling.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from typing import Literal

from ..core import Action, IllegalAction
from ..core.data import DataError, Row, game_dir, read_csv, rule_ref
from ..core.dice import Dice
from ..core.gametype import Threshold, VictoryFacts
from ..core.rulings import Ruling, indexed_ruling
from .pieces import CAPITALIST, COMMUNIST

WIN_VP = 31
BREAKPOINTS = (5, 10, 20)
ACCUMULATOR_MAX = 9
TRACK_OF = {CAPITALIST: "us_military_victory", COMMUNIST: "us_unrest"}
#: accumulator -> (side whose VP it makes, side who may roll, what it counts)
ACCUMULATORS = {
    "body_count": (CAPITALIST, CAPITALIST, "Communist losses"),
    "casualties": (COMMUNIST, COMMUNIST, "US losses"),
    "pow": (COMMUNIST, COMMUNIST, "US prisoners (Hanoi Hilton)"),
    "secret_ops": (COMMUNIST, COMMUNIST, "Capitalist secret operations"),
}
#: ROW-12.1.4: the accumulator tracks by their names on the map, and the victory-state field each one is
ACC_TRACK = {"Body Count": "body_count", "US Casualties": "casualties"}
AWARD_KINDS = ("body_count", "casualty", "end_turn", "territorial", "unrest_award", "other")


_ruling = partial(indexed_ruling, "row")  # a ruling of this game, its rule_ref from the rules index


def other(side: str) -> str:
    return COMMUNIST if side == CAPITALIST else CAPITALIST


@dataclass(frozen=True)
class VictoryState:
    """Both VP tracks, the highest US Unrest breakpoint reached, the four accumulators, and the game's result."""

    us_military_victory: int = 0
    us_unrest: int = 0
    unrest_floor: int = 0
    body_count: int = 0
    casualties: int = 0
    pow: int = 0
    secret_ops: int = 0
    secret_ops_allowed: bool = True
    winner: str | None = None

    def __post_init__(self) -> None:
        for k in ("us_military_victory", "us_unrest", "unrest_floor", *ACCUMULATORS):
            if getattr(self, k) < 0:
                raise ValueError(f"{k} may not be negative (ROW-12.1)")
        for k in ACCUMULATORS:
            if getattr(self, k) > ACCUMULATOR_MAX:
                raise ValueError(f"{k} may not exceed {ACCUMULATOR_MAX} (ROW-12.1.4)")
        if self.unrest_floor not in (0, *BREAKPOINTS) or self.us_unrest < self.unrest_floor:
            raise ValueError("unrest_floor must be 0, 5, 10 or 20 and at most US Unrest (ROW-12.1.2)")

    def vp(self, side: str) -> int:
        return getattr(self, TRACK_OF[side])


def _floor_for(unrest: int, floor: int) -> int:
    """ROW-12.1.2 (decision R-VIC-01): the highest breakpoint US Unrest has reached (>=) so far."""
    return max([floor, *(b for b in BREAKPOINTS if unrest >= b)])


def breakpoint_reached(unrest: int) -> int:
    """ROW-12.1.2 (decision R-WAR-06): the highest breakpoint (5, 10, 20) at or below ``unrest``; 0 below 5.  A
    scenario that starts US Unrest at a level starts with this floor."""
    return _floor_for(unrest, 0)


def _win_check(state: VictoryState) -> VictoryState:
    if state.winner:
        return state
    cap, com = state.us_military_victory >= WIN_VP, state.us_unrest >= WIN_VP
    if com:
        return replace(state, winner=COMMUNIST)
    if cap:
        return replace(state, winner=CAPITALIST)
    return state


def award(
    state: VictoryState, side: str, amount: int, why: str, *, pass_breakpoints: bool = False
) -> tuple[VictoryState, Ruling]:
    """ROW-12.1 / ROW-12.1.2: ``side`` gains (``amount`` > 0) or loses (< 0) VPs on its own track.

    A loss of US Unrest stops at the highest breakpoint reached (5, 10, 20) unless ``pass_breakpoints`` (Chinese
    intervention's -10, 12.2).  A loss beyond 0 goes to the opponent doubled (the zero rule; a partial loss first
    takes the track to 0, decision R-VIC-02).  A track reaching 31 wins at once, the Communist first if both do
    (decision R-VIC-03).  Result: ``{"side", "before", "after", "to_opponent", "winner"}``.
    """
    if side not in TRACK_OF:
        raise IllegalAction("ROW-12.1", f"side must be {CAPITALIST} or {COMMUNIST}, not {side!r}")
    if state.winner:
        raise IllegalAction("ROW-12.1", f"the game is over: the {state.winner} has won")
    track = TRACK_OF[side]
    before = getattr(state, track)
    to_opp = 0
    notes = []
    if amount >= 0:
        after = before + amount
    else:
        floor = state.unrest_floor if side == COMMUNIST and not pass_breakpoints else 0
        if side == COMMUNIST and pass_breakpoints and state.unrest_floor:
            notes.append("this loss may pass the breakpoints")
        target = before + amount
        if floor and target < floor:
            after = floor
            notes.append(f"US Unrest never drops below the breakpoint {floor} once reached")
        elif target < 0:
            after = 0
            to_opp = 2 * (-target)
            notes.append(f"{-target} VP below 0 go to the {other(side)} doubled: +{to_opp}")
        else:
            after = target
    if side == COMMUNIST:
        floor = 0 if pass_breakpoints and amount < 0 else state.unrest_floor
        new = replace(state, us_unrest=after, unrest_floor=_floor_for(after, floor))
    else:
        new = replace(state, **{track: after})
    if to_opp:
        if other(side) == COMMUNIST:
            new = replace(
                new,
                us_unrest=new.us_unrest + to_opp,
                unrest_floor=_floor_for(new.us_unrest + to_opp, new.unrest_floor),
            )
        else:
            new = replace(new, us_military_victory=new.us_military_victory + to_opp)
    new = _win_check(new)
    name = "US Military Victory" if side == CAPITALIST else "US Unrest"
    text = (
        f"{name} {before} -> {after} ({why})"
        + ("; " + "; ".join(notes) if notes else "")
        + (f"; the {new.winner} reaches {WIN_VP} VP and wins" if new.winner else "")
        + "."
    )
    return new, _ruling(
        "ROW-12.1.2" if amount < 0 else "ROW-12.1",
        "Victory points",
        text,
        {"side": side, "before": before, "after": after, "to_opponent": to_opp, "winner": new.winner},
        inputs={"amount": amount, "why": why, "pass_breakpoints": pass_breakpoints},
        changes=({"us_military_victory": new.us_military_victory, "us_unrest": new.us_unrest},),
    )


# ------------------------------------------------------------------------------------------ multipliers
class MissionVpRow(Row):
    side: Literal["Capitalist", "Communist"]
    mission: str
    label: str
    cost: int
    once_per_game: Literal["yes", "no"]
    us_unrest: int
    objectives: int
    restricted: str | None = None
    may_unrestrict: Literal["yes", "no"]
    body_count_vp: str
    casualty_vp: str
    end_turn_vp: str
    territorial_vp: str
    unrest_award_vp: str
    zoc: Literal["normal", "no_entry", "ignore", "no_end"]
    attack_die: int
    attacks: Literal["all", "arvn_only", "none"]


@cache
def missions_table() -> dict[tuple[str, str], MissionVpRow]:
    """``data/row/tables/hq_missions.csv`` (ROW-9.5, digest 3.12), checked once; shared with ``hq``."""
    p = game_dir("row") / "tables" / "hq_missions.csv"
    out: dict[tuple[str, str], MissionVpRow] = {}
    for line, r in enumerate(read_csv(p, MissionVpRow), start=2):
        key = (r.side, r.mission)
        if key in out:
            raise DataError(p, f"duplicate mission {key}", row=line, column="mission")
        for col in ("body_count_vp", "casualty_vp", "end_turn_vp", "territorial_vp", "unrest_award_vp"):
            try:
                Fraction(getattr(r, col))
            except ValueError:
                raise DataError(p, "expected a number like 2 or 1/2", row=line, column=col) from None
        out[key] = r
    return out


def vp_value(
    kind: str,
    missions: dict[str, str | None] | None = None,
    commander: dict[str, str | None] | None = None,
    chinese: bool = False,
    base: int = 1,
    also: tuple[str, ...] = (),
) -> Ruling:
    """ROW-9.5 / ROW-14.2.1 / ROW-12.2: what one award of ``kind`` is worth (decision R-VIC-04: multipliers multiply,
    the result is rounded down, Westmoreland's +1 per Body Count VP is added after).

    ``also``: the other kinds the same award is (decision R-WAR-10): an end-of-turn award for held hexes is also
    ``territorial``, any award to the Communist also an ``unrest_award``; each mission multiplies the award once,
    by the largest of its factors for these kinds (the General Uprising doubles a territorial award to the
    Communist once, not twice).

    ``missions``: each side's mission in force, e.g. ``{"Capitalist": "search_and_destroy", "Communist": "offensive"}``;
    ``commander``: each side's theater commander (``"Westmoreland"``, ``"Abrams"``, ``"Weyand"`` ...).  A Casualty
    VP is worth 2 under Abrams or Weyand; Weyand earns no Body Count VP.  Result: the VP value (int).
    """
    for k in (kind, *also):
        if k not in AWARD_KINDS:
            raise IllegalAction("ROW-12.1", f"unknown award kind {k!r}; kinds are {AWARD_KINDS}")
    missions = missions or {}
    commander = commander or {}
    column = {
        "body_count": "body_count_vp",
        "casualty": "casualty_vp",
        "end_turn": "end_turn_vp",
        "territorial": "territorial_vp",
        "unrest_award": "unrest_award_vp",
    }
    cols = [column[k] for k in dict.fromkeys((kind, *also)) if k in column]
    cap_cmd = commander.get(CAPITALIST)
    value = Fraction(base)
    why = [f"base {base}"]
    if kind == "casualty" and cap_cmd in ("Abrams", "Weyand"):
        value = Fraction(2)
        why = [f"base 2 ({cap_cmd}, 14.2.1)"]
    if kind == "body_count" and cap_cmd == "Weyand":
        return _ruling(
            "ROW-14.2.1",
            "VP value",
            "Under Weyand Body Count earns no VP.",
            0,
            inputs={"kind": kind, "commander": cap_cmd},
        )
    if cols:
        for side, mission in sorted(missions.items()):
            if mission is None:
                continue
            row = missions_table().get((side, mission))
            if row is None:
                raise IllegalAction("ROW-9.5", f"no {side} mission {mission!r}")
            factors = [Fraction(getattr(row, c)) for c in cols]
            f = max(factors) if any(x > 1 for x in factors) else min(factors)
            if f != 1:
                value *= f
                why.append(f"x{f} ({row.label})")
    if chinese:
        value *= 2
        why.append("x2 (Chinese intervention, 12.2)")
    out = int(value)  # rounded down (H&M halves round down)
    if kind == "body_count" and cap_cmd == "Westmoreland" and out > 0:
        out += 1
        why.append("+1 (Westmoreland, 14.2.1)")
    return _ruling(
        "ROW-9.5" if len(why) > 1 else "ROW-12.1",
        "VP value",
        f"{'An' if kind[0] in 'aeiou' else 'A'} {kind.replace('_', ' ')} award is worth {out} VP: "
        + ", ".join(why)
        + ".",
        out,
        inputs={
            "kind": kind,
            **({"also": list(also)} if also else {}),
            "missions": dict(missions),
            "commander": dict(commander),
            "chinese": chinese,
        },
    )


# ------------------------------------------------------------------------------------------ accumulators
def add_points(
    state: VictoryState, track: str, points: int, *, vp: int = 1
) -> tuple[VictoryState, Ruling, list[Action]]:
    """ROW-12.1.4 / ROW-12.1.5: add ``points`` to an accumulator.  Passing 9 gives 1 VP (``vp``: what it is worth,
    :func:`vp_value`; 2 with China in, 12.2) at once and the marker goes
    back to 0 (the excess is lost, decision R-VIC-05); otherwise the entitled player is offered a roll (Actions
    ``roll_accumulator`` / ``no_roll``).  Secret Ops are refused once revealed (until a Republican win, 14.5)."""
    if track not in ACCUMULATORS:
        raise IllegalAction("ROW-12.1.4", f"unknown track {track!r}; tracks are {tuple(ACCUMULATORS)}")
    if points < 0:
        raise IllegalAction("ROW-12.1.4", "points are only ever added to an accumulator")
    if track == "secret_ops" and not state.secret_ops_allowed:
        raise IllegalAction("ROW-12.1.5", "secret operations were revealed: no more are allowed")
    vp_side, roller, what = ACCUMULATORS[track]
    rule = "ROW-12.1.5" if track == "secret_ops" else "ROW-12.1.4"
    before = getattr(state, track)
    total = before + points
    if total > ACCUMULATOR_MAX:
        new = replace(state, **{track: 0})
        if track == "secret_ops":
            new = replace(new, secret_ops_allowed=False)
        new, r = award(new, vp_side, vp, f"{track.replace('_', ' ')} passed 9")
        text = (
            f"{track.replace('_', ' ').title()} {before} + {points} passes 9: {vp} VP to the {vp_side} at once and the "
            "marker returns to 0"
            + (" (secret ops revealed: flipped to No Secret Ops)" if track == "secret_ops" else "")
            + f". {r.explanation}"
        )
        return (
            new,
            _ruling(
                rule,
                "Accumulator",
                text,
                {"track": track, "value": 0, "auto_vp": vp},
                inputs={"before": before, "points": points},
                changes=r.changes,
            ),
            [],
        )
    new = replace(state, **{track: total})
    text = (
        f"{track.replace('_', ' ').title()} ({what}) {before} -> {total}; the {roller} may roll a D10 for a VP "
        f"(at most {total} wins it)."
    )
    opts = (
        [
            Action.make(
                "roll_accumulator", f"Roll for a VP on {track.replace('_', ' ')} ({total})", track=track
            ),
            Action.make("no_roll", f"Do not roll on {track.replace('_', ' ')}", track=track),
        ]
        if points
        else []
    )
    return (
        new,
        _ruling(
            rule,
            "Accumulator",
            text,
            {"track": track, "value": total, "auto_vp": 0},
            inputs={"before": before, "points": points},
            side=roller,
        ),
        opts,
    )


def roll_accumulator(
    state: VictoryState, track: str, dice: Dice, *, vp: int = 1, modifier: int = 0
) -> tuple[VictoryState, Ruling]:
    """ROW-12.1.4 / ROW-12.1.5: the D10 roll: at most the track's value earns ``vp`` VP (see :func:`vp_value`; 1 for
    POWs and Secret Ops), more earns nothing; the marker returns to 0 either way.  A Secret Ops reveal flips the
    marker to No Secret Ops.  ``modifier`` is added to the die (Westmoreland: -1 on the secret-ops reveal roll,
    ROW-14.2.1)."""
    if track not in ACCUMULATORS:
        raise IllegalAction("ROW-12.1.4", f"unknown track {track!r}")
    value = getattr(state, track)
    if value == 0:
        raise IllegalAction("ROW-12.1.4", f"{track} is at 0: there is nothing to roll for")
    vp_side, roller, _ = ACCUMULATORS[track]
    rule = "ROW-12.1.5" if track == "secret_ops" else "ROW-12.1.4"
    roll = dice.roll(10, f"{track} VP roll")
    new = replace(state, **{track: 0})
    changes: tuple = ()
    if roll.value + modifier <= value:
        if track == "secret_ops":
            new = replace(new, secret_ops_allowed=False)
        new, r = award(new, vp_side, vp, f"{track.replace('_', ' ')} roll")
        text = (
            f"The {roller} rolls {roll.value}"
            + (f" {modifier:+d} (Westmoreland, 14.2.1)" if modifier else "")
            + f" against {track.replace('_', ' ')} {value}: {vp} VP to the {vp_side}"
            + ("; the secret operations are revealed (No Secret Ops)" if track == "secret_ops" else "")
            + f". The marker returns to 0. {r.explanation}"
        )
        changes = r.changes
        won = vp
    else:
        text = (
            f"The {roller} rolls {roll.value}"
            + (f" {modifier:+d} (Westmoreland, 14.2.1)" if modifier else "")
            + f" against {track.replace('_', ' ')} {value}: no VP; the marker returns to 0."
        )
        won = 0
    return new, _ruling(
        rule,
        "Accumulator roll",
        text,
        {"track": track, "vp": won, "winner": new.winner},
        inputs={"value": value, "vp_if_won": vp, "modifier": modifier},
        dice=(roll,),
        side=roller,
        changes=changes,
    )


def end_phase_reset(state: VictoryState) -> tuple[VictoryState, Ruling]:
    """ROW-1.0 glossary / ROW-12.1.4 (decision R-VIC-06): after the End Phase VP check the Body Count and Casualty
    markers go back to 0 (POWs and Secret Ops keep their points)."""
    new = replace(state, body_count=0, casualties=0)
    return new, _ruling(
        "ROW-12.1.4",
        "Accumulators reset",
        f"Body Count {state.body_count} and Casualties {state.casualties} return to 0 after the VP check.",
        {"body_count": 0, "casualties": 0},
    )


# ------------------------------------------------------------------------------------------ objectives
def resolve_objective(
    state: VictoryState, value: int, capitalist_won: bool, hex_id: str = "", *, chinese: bool = False
) -> tuple[VictoryState, Ruling]:
    """ROW-12.1.3: the combat in an objective's hex is over: the Capitalist gains its value if he won, loses it if he
    lost (the zero rule may pass it to US Unrest); the marker is then removed (decision R-VIC-07).  With China in
    the award is doubled (12.2, R-WAR-12)."""
    if value not in (1, 2, 3):
        raise IllegalAction("ROW-12.1.3", f"objective markers are worth 1, 2 or 3, not {value}")
    worth = 2 * value if chinese else value
    new, r = award(
        state,
        CAPITALIST,
        worth if capitalist_won else -worth,
        f"objective {value} {'won' if capitalist_won else 'lost'}"
        + (f" at {hex_id}" if hex_id else "")
        + (", doubled with China in (12.2)" if chinese else ""),
    )
    return new, _ruling(
        "ROW-12.1.3",
        "Objective resolved",
        r.explanation + " The objective marker is removed.",
        {**r.result, "removed": True},
        inputs={"value": value, "capitalist_won": capitalist_won},
        places=(hex_id,) if hex_id else (),
        changes=r.changes,
    )


def claim_options(
    objectives: dict[str, tuple[int, bool]], communist_controlled: frozenset[str] | set[str]
) -> list[Action]:
    """ROW-12.1.3: in the End Phase the Communist may reveal and claim each objective (``hex -> (value, chit placed
    there this Activation Phase)``) lying in a hex he controls where no combat chit was placed (value hidden)."""
    return [
        Action.make("claim_objective", f"Claim the objective at {h}", [h], hex=h)
        for h, (_, chit) in sorted(objectives.items())
        if not chit and h in communist_controlled
    ]


def claim_objective(
    state: VictoryState,
    hex_id: str,
    value: int,
    chit_placed: bool,
    communist_controls: bool,
    *,
    chinese: bool = False,
) -> tuple[VictoryState, Ruling]:
    """ROW-12.1.3: the Communist claims an objective: its value comes off US Military Victory (the zero rule may give
    the rest to US Unrest, doubled); with China in the value counts double (12.2, R-WAR-12)."""
    if value not in (1, 2, 3):
        raise IllegalAction("ROW-12.1.3", f"objective markers are worth 1, 2 or 3, not {value}")
    if chit_placed:
        raise IllegalAction(
            "ROW-12.1.3", f"a combat chit was placed at {hex_id} this phase: the objective is fought for"
        )
    if not communist_controls:
        raise IllegalAction("ROW-12.1.3", f"the Communist does not control {hex_id}")
    worth = 2 * value if chinese else value
    new, r = award(
        state,
        CAPITALIST,
        -worth,
        f"the Communist claims objective {value} at {hex_id}"
        + (", doubled with China in (12.2)" if chinese else ""),
    )
    return new, _ruling(
        "ROW-12.1.3",
        "Objective claimed",
        r.explanation,
        r.result,
        inputs={"hex": hex_id, "value": value},
        places=(hex_id,),
        changes=r.changes,
    )


# ------------------------------------------------------------------------------------------ the result
def result(state: VictoryState, final: bool = False) -> Ruling:
    """ROW-12.1: who has won: 31 VP at once (the Communist if both); at the scenario's end the higher total, a tie
    to the Communist.  Result: the winner, or None while the game goes on."""
    s = _win_check(state)
    mv, un = s.us_military_victory, s.us_unrest
    if s.winner:
        text = f"The {s.winner} has reached {WIN_VP} VP and wins (US Military Victory {mv}, US Unrest {un})."
        w = s.winner
    elif final:
        w = CAPITALIST if mv > un else COMMUNIST
        text = (
            f"End of the scenario: US Military Victory {mv}, US Unrest {un}: the {w} wins"
            + (" (a tie goes to the Communist)" if mv == un else "")
            + "."
        )
    else:
        w = None
        text = f"No winner yet (US Military Victory {mv}, US Unrest {un}; {WIN_VP} wins)."
    return _ruling(
        "ROW-12.1",
        "Victory check",
        text,
        w,
        inputs={"us_military_victory": mv, "us_unrest": un, "final": final},
    )


# ------------------------------------------------------------------------------------------ drawing and placing objectives
class ObjectiveRow(Row):
    value: int
    count: int


@cache
def objective_pool() -> dict[int, int]:
    """``data/row/tables/objective_markers.csv``: how many Objective markers of each value (a reconstruction, R-VIC-08)."""
    p = game_dir("row") / "tables" / "objective_markers.csv"
    out: dict[int, int] = {}
    for line, r in enumerate(read_csv(p, ObjectiveRow), start=2):
        if r.value not in (1, 2, 3) or r.value in out or r.count < 0:
            raise DataError(
                p, "values are 1, 2 and 3, once each, with a count >= 0", row=line, column="value"
            )
        out[r.value] = r.count
    return out


def draw_objective(
    dice: Dice, pool: dict[int, int] | None = None, *, revealed: bool = False
) -> tuple[int, dict[int, int], Ruling]:
    """ROW-12.1.3: draw one Objective marker at random from the pool (``value -> markers left``; the full pool by
    default): a die over the markers in value order (as decision R-CBT-03 draws chits).  News reporters place it
    revealed, missions face down (the ruling then hides the value from both players: a face-down marker is unknown
    to both until revealed, issue #30 item 7).  Returns (value, pool left, ruling)."""
    pool = dict(objective_pool() if pool is None else pool)
    order = [v for v in sorted(pool) for _ in range(pool[v])]
    if not order:
        raise IllegalAction("ROW-12.1.3", "the objective pool is empty")
    # a face-down marker is a hidden draw (issue #30 item 6: from the secret stream when the game has one)
    roll = (
        dice.roll(len(order), "objective draw")
        if revealed
        else dice.hidden_roll(len(order), "objective draw")
    )
    value = order[roll.value - 1]
    pool[value] -= 1
    text = f"An Objective marker of value {value} is drawn" + (
        " and placed face up." if revealed else " and placed face down."
    )
    return (
        value,
        pool,
        Ruling(
            rule_id="ROW-12.1.3",
            title="Objective drawn",
            explanation=text,
            result=value,
            rule_ref=rule_ref("row", "ROW-12.1.3"),
            dice=(roll,),
            inputs={"markers": len(order), "revealed": revealed},
            hidden_from=() if revealed else (CAPITALIST, COMMUNIST),
            public="" if revealed else "An Objective marker is drawn and placed face down.",
        ),
    )


def check_objective_placement(
    side: str, count: int, hexes: list[str], capitalist_controlled: frozenset[str] | set[str]
) -> Ruling:
    """ROW-9.5 / ROW-12.1.3: the hexes chosen for a mission's Objective markers: exactly ``count`` different land hexes,
    Capitalist-controlled ones for a Communist mission, ones the Capitalist does not control for his Offensive."""
    if len(hexes) != count or len(set(hexes)) != count:
        raise IllegalAction("ROW-9.5", f"{count} different hexes are needed, not {hexes}")
    from .hexmap import load_map

    m = load_map()
    sea = [h for h in hexes if h not in m or m.is_sea(h)]
    if sea:
        raise IllegalAction("ROW-12.1.3", f"{sea}: Objective markers go on land hexes of the map")
    cap = set(capitalist_controlled)
    bad = [h for h in hexes if (h in cap) != (side == COMMUNIST)]
    if bad:
        where = (
            "Capitalist-controlled hexes" if side == COMMUNIST else "hexes the Capitalist does not control"
        )
        raise IllegalAction("ROW-9.5", f"{bad}: the {side} places Objective markers on {where}")
    return Ruling(
        rule_id="ROW-9.5",
        title="Objectives placed",
        explanation=f"The {side} places {count} Objective markers face down on {', '.join(hexes)}.",
        result=list(hexes),
        rule_ref=rule_ref("row", "ROW-9.5"),
        places=tuple(hexes),
        side=side,
    )


def victory_facts() -> VictoryFacts:
    """ROW-12.1 as declared facts (issue #29 item 4): either side wins at once at 31 VP; the deciding number is US
    Military Victory minus US Unrest (positive: the Capitalist wins; a tie goes to the Communist, edge 0.5)."""
    return VictoryFacts(
        thresholds=(
            Threshold("score_US Military Victory", f"Capitalist {WIN_VP} VP (ROW-12.1)", WIN_VP),
            Threshold("score_US Unrest", f"Communist {WIN_VP} VP (ROW-12.1)", WIN_VP),
        ),
        number_name="US Military Victory minus US Unrest",
        number_rule="ROW-12.1",
        number=lambda outcome: float(outcome["score_US Military Victory"] - outcome["score_US Unrest"]),
        edges=(0.5,),
    )
