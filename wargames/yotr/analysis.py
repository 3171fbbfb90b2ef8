"""Tables and charts for the Year of the Rat teaching notebooks (``notebooks/yotr/02``-``05``).

Nothing here applies a rule: every function reads a game's log, its state or its data and returns a
:class:`pandas.DataFrame` (or a Bokeh figure) a class can read.  Rule ids are those of
``data/yotr/rules_index.csv``:

* :func:`vp_by_turn` reads the YOTR-VIC-SCORE rulings (the victory point track) turn by turn.
* :func:`play_phase` plays one phase and returns its rulings; :func:`phase_summary` counts the rulings, dice and rules of each phase of the sequence (YOTR-SOP).
* :func:`supply_table` shows each unit's supply state and its effect (YOTR-SUP, YOTR-SUP-CHART).
* :func:`battles` and :func:`bombardments` list the CRT (YOTR-CBT-CRT) and BRT (YOTR-BMB-BRT) rulings.
* :func:`odds_steps` shows how odds are rounded for the defender (YOTR-CBT-G).
* :func:`table_sources` says which rows of the CRT and BRT are printed and which are reconstructed.
* :func:`bot_advice` asks a built-in bot what it would do now, and why, without playing it.
* :func:`play_games` plays bot-against-bot games for a small Monte Carlo (YOTR-VIC-LEVELS).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..core.data import game_dir
from .combat import odds_column
from .supply import RANGE

if TYPE_CHECKING:  # pragma: no cover
    from .game import YotrGame

STATE_NAMES = {
    "attack_supply": "Attack Supply",
    "general_supply": "General Supply",
    "isolated": "Isolated",
    "supplied": "Supplied",
    "unsupplied": "Unsupplied",
}
LEVEL_ORDER = (
    "Allied Substantive Victory",
    "Allied Marginal Victory",
    "Draw",
    "Communist Marginal Victory",
    "Communist Substantive Victory",
    "Communist Decisive Victory",
)


# ---------------------------------------------------------------------------------- victory points
def vp_by_turn(game: YotrGame) -> pd.DataFrame:
    """The Communist victory points at the end of each Game-Turn, read from the YOTR-VIC-SCORE rulings.

    Columns: ``turn``, ``vp`` (the track), ``towns``, ``regions`` (their VP) and ``saigon`` (isolation),
    ``change`` (over the turn).  Turn 0 is the start (no points).  The last row is the last turn played
    (the game's current turn if it is not over)."""
    last = game.turn if not game.is_over else max((r.turn for r in game.log), default=0)
    parts = {"vp": 0, "towns": 0, "regions": 0, "saigon": 0}
    by_turn: dict[int, dict[str, int]] = {0: dict(parts)}
    for r in game.log:
        if r.rule_id == "YOTR-VIC-SCORE" and isinstance(r.result, dict):
            res = r.result
            parts = {
                "vp": int(res["total"]),
                "towns": int(res["towns"]),
                "regions": int(sum(res["regions"].values())),
                "saigon": int(res["saigon_isolation"]),
            }
        by_turn[r.turn] = dict(parts)
    rows = []
    current = by_turn[0]
    for t in range(0, last + 1):
        current = by_turn.get(t, current)
        rows.append({"turn": t, **current})
    frame = pd.DataFrame(rows, columns=["turn", "vp", "towns", "regions", "saigon"])
    frame["change"] = frame["vp"].diff().fillna(0).astype(int)
    return frame


def level_bands(game: YotrGame) -> pd.DataFrame:
    """The Level of Victory Table (YOTR-VIC-LEVELS) as rows ``level``, ``low``, ``high`` (data/yotr/vp.csv)."""
    rows = pd.read_csv(game_dir("yotr") / "vp.csv")
    return pd.DataFrame(
        {
            "level": rows["level"],
            "low": rows["vp_min"].fillna(0).astype(int),
            "high": rows["vp_max"].fillna(60).astype(int),
            "winner": rows["winner"].fillna("none"),
        }
    )


# ---------------------------------------------------------------------------------- phases and rulings
def phase_summary(rulings: Iterable[Any]) -> pd.DataFrame:
    """One row per phase (in the order played): rulings, dice rolled and the rules applied (YOTR-SOP)."""
    rows: dict[str, dict[str, Any]] = {}
    for r in rulings:
        row = rows.setdefault(
            r.phase or "(start)", {"phase": r.phase or "(start)", "rulings": 0, "dice": 0, "rules": []}
        )
        row["rulings"] += 1
        row["dice"] += len(r.dice)
        if r.rule_id not in row["rules"]:
            row["rules"].append(r.rule_id)
    out = pd.DataFrame(list(rows.values()), columns=["phase", "rulings", "dice", "rules"])
    out["rules"] = out["rules"].map(", ".join)
    return out


def play_phase(game: YotrGame) -> list[Any]:
    """Let the players (the built-in bots unless set) finish the current phase (YOTR-SOP); return all its
    rulings, including those logged before this call (the phase's opening ruling)."""
    turn, name = game.turn, game.phase.name if game.phase else ""
    start = len(game.log)
    while start > 0 and game.log[start - 1].turn == turn and game.log[start - 1].phase == name:
        start -= 1
    game.advance("phase")
    return [r for r in game.log[start:] if r.turn == turn and r.phase == name]


def rules_index(game: YotrGame) -> dict[str, str]:
    """Rule id -> title, from ``data/yotr/rules_index.csv`` (for ``rules_used``)."""
    return {k: v.title for k, v in game.rules_index().items()}


def as_read_by(rulings: Iterable[Any], side: str | None) -> pd.DataFrame:
    """Each ruling's explanation as ``side`` may read it (``Ruling.for_side``: hidden facts in the public
    wording, YOTR-MOV-M), next to the umpire's."""
    return pd.DataFrame(
        [
            {
                "seq": r.seq,
                "rule": r.rule_id,
                "umpire": r.explanation,
                f"{side or 'umpire'} reads": r.for_side(side).explanation,
            }
            for r in rulings
        ]
    )


def rulings_of(rulings: Iterable[Any], phase: str) -> list[Any]:
    """The rulings of one phase, by its name ("Communist Movement", "Bombardment", ...)."""
    return [r for r in rulings if r.phase == phase]


# ---------------------------------------------------------------------------------- supply
def supply_table(game: YotrGame, side: str = "Communist", *, combat: bool = False) -> pd.DataFrame:
    """Each combat unit (and dummy) of ``side`` on the map with its supply state now and what it does.

    YOTR-SUP: a Communist unit is in Attack Supply within 8 hexes of a revealed real supply unit, General
    Supply within 8 of an intact Supply Center, else Isolated (YOTR-SUP-A: all in Attack Supply on Game-Turns 1
    and 2; YOTR-SUP-B: NLF always).  ``sc_distance`` is the traced distance to the nearest intact Supply Center
    (blank when more than 8 or blocked).  The three factors are the Supply Effects Chart row (YOTR-SUP-CHART);
    ``combat=True`` judges supply as at an instant of combat (revealed supply units count, YOTR-SUP-F)."""
    reach = game.communist_range(game.general_sources()) if side == "Communist" else {}
    rows = []
    for uid in game.on_map(side):
        if game.is_supply_unit(uid):
            continue
        state = game.supply_state(uid, combat=combat)
        f = {c: game.supply_factor(uid, state, c) for c in ("attack", "defense", "movement")}
        u = game.counters[uid]
        h = game.loc[uid]
        row = {"unit": uid, "counter": game.describe(uid), "hex": h, "state": STATE_NAMES.get(state, state)}
        if side == "Communist":
            row["sc_distance"] = reach.get(h)
        row.update(
            {
                "attack x": str(f["attack"]),
                "defence x": str(f["defense"]),
                "movement x": str(f["movement"]),
                "attack": float(game.attack_value(uid) * f["attack"]) if u.is_combat else 0.0,
                "defence": float(game.defense_value(uid) * f["defense"]) if u.is_combat else 0.0,
            }
        )
        rows.append(row)
    out = pd.DataFrame(rows)
    if side == "Communist" and len(out):
        out["sc_distance"] = out["sc_distance"].astype("Int64")
    return out


def supply_counts(game: YotrGame, side: str = "Communist", *, combat: bool = False) -> pd.Series:
    """How many units of ``side`` are in each supply state (YOTR-SUP)."""
    return supply_table(game, side, combat=combat)["state"].value_counts()


def supply_center_table(game: YotrGame) -> pd.DataFrame:
    """The Communist Supply Centers (YOTR-SUP-D): name, hex, intact or destroyed, and the supply units on each
    (real and dummy, as the umpire sees them; YOTR-SUP-E)."""
    rows = []
    for h, p in sorted(game.data.supply_centers.items()):
        here = [u for u in game.units_at(h) if game.is_supply_unit(u)]
        rows.append(
            {
                "Supply Center": p.name,
                "hex": h,
                "intact": game.sc_intact(h),
                "real supply units": sum(game.counters[u].unit_type == "supply_real" for u in here),
                "dummy supply units": sum(game.counters[u].unit_type == "supply_dummy" for u in here),
            }
        )
    return pd.DataFrame(rows)


def attack_by_supply(game: YotrGame, attackers: Iterable[str], defence: float) -> pd.DataFrame:
    """The same attackers against the same defence in each Communist supply state (YOTR-SUP-CHART,
    YOTR-CBT-M): total attack, exact ratio and the CRT column (YOTR-CBT-G)."""
    rows = []
    attackers = list(attackers)
    for state in ("attack_supply", "general_supply", "isolated"):
        total = sum(
            (game.attack_value(u) * game.supply_factor(u, state, "attack") for u in attackers), Fraction(0)
        )
        rows.append(
            {
                "supply state": STATE_NAMES[state],
                "attack": float(total),
                "defence": float(defence),
                "column": odds_column(total, Fraction(defence).limit_denominator(100)) or "no attack",
            }
        )
    return pd.DataFrame(rows)


def supply_limit() -> int:
    """YOTR-SUP: the eight-hex limit of a Communist supply line."""
    return RANGE


# ---------------------------------------------------------------------------------- combat and bombardment
def odds_steps(attack: float, defense: float) -> dict[str, Any]:
    """YOTR-CBT-G: the exact ratio of ``attack`` to ``defense`` and the CRT column after rounding down in the
    defender's favour (clamped to 1-4 .. 10-1, YOTR-CBT-CRT)."""
    a, d = Fraction(attack).limit_denominator(100), Fraction(defense).limit_denominator(100)
    ratio = float(a / d) if d else float("inf")
    return {
        "attack": float(a),
        "defence": float(d),
        "exact ratio": round(ratio, 3) if d else "no defence",
        "column": odds_column(a, d),
    }


def battles(rulings: Iterable[Any]) -> pd.DataFrame:
    """Every ground battle (YOTR-CBT-CRT lookups) in ``rulings``: who attacked, the strengths, odds, die, result."""
    rows = []
    for r in rulings:
        if r.rule_id == "YOTR-CBT-CRT" and r.lookup is not None:
            rows.append(
                {
                    "seq": r.seq,
                    "turn": r.turn,
                    "attacker": r.side,
                    "hex": r.result["target"],
                    "attackers": list(r.inputs.get("attackers", [])),
                    "attack": r.inputs.get("attack"),
                    "defence": r.inputs.get("defense"),
                    "odds": r.result["odds"],
                    "die": r.result["die"],
                    "result": r.result["crt"],
                    "forced": any(d.forced for d in r.dice),
                }
            )
    return pd.DataFrame(
        rows,
        columns=[
            "seq",
            "turn",
            "attacker",
            "hex",
            "attackers",
            "attack",
            "defence",
            "odds",
            "die",
            "result",
            "forced",
        ],
    )


def bombardments(rulings: Iterable[Any]) -> pd.DataFrame:
    """Every bombardment roll (YOTR-BMB-BRT): hex, column, die, result and whether the row is reconstructed."""
    rows = []
    for r in rulings:
        if r.rule_id == "YOTR-BMB-BRT" and r.lookup is not None:
            rows.append(
                {
                    "seq": r.seq,
                    "turn": r.turn,
                    "hex": r.result["hex"],
                    "column": r.lookup.column,
                    "die": r.result["die"],
                    "result": r.result["brt"],
                    "unit": r.result["unit"],
                    "reconstructed row": r.lookup.reconstructed,
                }
            )
    return pd.DataFrame(
        rows, columns=["seq", "turn", "hex", "column", "die", "result", "unit", "reconstructed row"]
    )


def crt_chances() -> pd.DataFrame:
    """For each odds column of the CRT (YOTR-CBT-CRT): the chance in sixths that the defender is hurt (Dr1, Dr2,
    De), that the attacker is (Ar1, Ar2, Ae), or no effect."""
    crt = table_sources("crt").drop(columns=["from"]).set_index("die")
    rows = []
    for col in crt.columns:
        cells = list(crt[col])
        rows.append(
            {
                "odds": col,
                "defender hurt": f"{sum(c.startswith('D') for c in cells)}/6",
                "attacker hurt": f"{sum(c.startswith('A') for c in cells)}/6",
                "no effect": f"{sum(c == 'NE' for c in cells)}/6",
                "defenders eliminated": f"{sum(c == 'De' for c in cells)}/6",
            }
        )
    return pd.DataFrame(rows)


def source_kinds(files: Iterable[str]) -> pd.DataFrame:
    """How many rows of each ``data/yotr`` file come from the rules text, a reconstruction or a decision."""
    out = {}
    for f in files:
        kinds = pd.read_csv(game_dir("yotr") / f)["source"].str.split(":").str[0].str.strip()
        out[f] = kinds.value_counts()
    return pd.DataFrame(out).fillna(0).astype(int).T


def table_sources(name: str) -> pd.DataFrame:
    """The rows of ``crt`` or ``brt`` with where each comes from: ``rules`` (printed) or ``reconstruction``."""
    frame = pd.read_csv(game_dir("yotr") / f"{name}.csv")
    frame["from"] = frame["source"].str.split(":").str[0]
    return frame.drop(columns=["source"])


# ---------------------------------------------------------------------------------- bots and games
def bot_advice(game: YotrGame, side: str | None = None) -> dict[str, Any]:
    """What the built-in bot of ``side`` (default: the side to decide) would choose now, and its reason, both as
    ``side`` reads them (names, not ids: ``display_label``, ``display_text``; issue #19).

    A fresh bot is asked, so the game and its own players are not touched."""
    decision = game.decision
    if decision is None:
        return {"side": side, "action": None, "label": "nothing to decide", "why": ""}
    side = side or decision.side
    bot = game.default_player(side)
    act = bot.choose(game, decision)
    return {
        "side": side,
        "action": act,
        "label": game.display_label(act, side),
        "why": game.display_text(bot.last_reason, side),
    }


def declared_attacks(game: YotrGame) -> list[dict[str, Any]]:
    """The attacks declared so far in the current Combat Phase (YOTR-SOP-A3a / YOTR-SOP-B4a), in the order they
    were declared (the attacker then picks the order of battle, YOTR-CBT-K, D-56): each ``{"target": hex,
    "attackers": [unit ids]}``."""
    name = game.phase.name if game.phase else ""
    return [
        dict(r.result)
        for r in game.log
        if r.turn == game.turn
        and r.phase == name
        and r.rule_id in ("YOTR-SOP-A3a", "YOTR-SOP-B4a")
        and isinstance(r.result, dict)
        and "attackers" in r.result
    ]


def blocked_move(game: YotrGame) -> tuple[str, str] | None:
    """For a pending "choose a unit to move" decision (YOTR-MOV-C): the first unit offered that stands next to a
    hex holding enemy counters, and that hex, which YOTR-MOV-F forbids it to enter (failing that, a neighbour the
    engine's ``why_not_destination`` refuses under another lettered case).  None if there is none."""
    d = game.decision
    if d is None:
        return None
    enemy = "Communist" if d.side == "Allied" else "Allied"
    units = [a["unit"] for a in d.options if a.kind == "move_unit"]
    for uid in units:
        for h in sorted(game.data.adj[game.loc[uid]]):
            if game.occupied_by(h, enemy):
                return uid, h
    for uid in units:  # else a hex the engine itself refuses with a lettered case (YOTR-MOV-P, -S, ZOC-E...)
        for h in sorted(game.data.adj[game.loc[uid]]):
            why = game.why_not_destination(uid, h)
            if why.rule_id != "YOTR-MOV-A" and "case" in why.message:
                return uid, h
    return None


def about_to_resolve(
    game: YotrGame, side: str = "Communist", min_turn: int = 3, *, nva_first: bool = False
) -> bool:
    """True when ``side`` has declared its attacks (YOTR-SOP-A3a / YOTR-SOP-B4a) and no battle has been fought yet:
    either it is choosing which attack to fight first (YOTR-CBT-K, D-56) or its bot is about to end declaring with
    a single attack.  The moment just before the first CRT die is rolled (for a forced-dice what-if); the bot's
    next choice (:func:`bot_advice`) starts that battle.  ``nva_first``: only when NVA units make the attack the
    bot would fight first (NLF guerrillas are always in Attack Supply, YOTR-SUP-B)."""
    d = game.decision
    if d is None or d.side != side or game.turn < min_turn:
        return False
    attacks = declared_attacks(game)
    if d.rule_id == "YOTR-CBT-K":
        if len(game.pending_attacks) != len(attacks):
            return False  # a battle has already been fought this phase
        act = bot_advice(game)["action"]
        first = next(a for a in attacks if a["target"] == act["hex"])
    elif d.rule_id == "YOTR-CBT-A" and any(
        a.kind == "done" and a.label.startswith("Resolve") for a in d.options
    ):
        if len(attacks) != 1 or bot_advice(game)["action"].kind != "done":
            return False
        first = attacks[0]
    else:
        return False
    return not nva_first or any(game.counters[u].nationality == "NVA" for u in first["attackers"])


def advance_until(game: YotrGame, predicate, *, max_decisions: int = 20000) -> bool:
    """Let the players decide one decision at a time until ``predicate(game)`` holds (False if the game ends)."""
    for _ in range(max_decisions):
        if predicate(game):
            return True
        if game.is_over:
            return False
        game.advance("decision")
    return False


def play_games(seeds: Iterable[int], scenario: str = "historical") -> pd.DataFrame:
    """Bot-against-bot games to the end (YOTR-VIC-LEVELS): one row per seed with the VP, the level, the winner,
    the last turn, the seconds taken and the VP at the end of each Game-Turn (``t1`` .. ``t13``)."""
    import wargames

    rows = []
    for seed in seeds:
        t = time.perf_counter()
        g = wargames.load("yotr", scenario=scenario, seed=seed)
        g.play()
        res = g.result.result or {}
        track = vp_by_turn(g).set_index("turn")["vp"]
        rows.append(
            {
                "seed": seed,
                "vp": g.scores()["VP"],
                "level": res.get("level", g.result.title),
                "winner": res.get("winner") or "none",
                "rule": g.result.rule_id,
                "last turn": g.turn,
                "seconds": round(time.perf_counter() - t, 2),
                **{f"t{k}": int(track.get(k, track.iloc[-1])) for k in range(1, 14)},
            }
        )
    return pd.DataFrame(rows)


def towns_held(game: YotrGame) -> pd.DataFrame:
    """Towns the Communist holds (or the Allies retook) now, with the VP each scores (YOTR-VIC-TOWN, D-16)."""
    d = game.data
    rows = []
    for h, state in sorted(game.town.items()):
        if state == "allied":
            continue
        row = d.town_vp[d.towns[h].intrinsic_strength or 0]
        rows.append(
            {
                "town": d.towns[h].name,
                "hex": h,
                "Region": d.region(h),
                "held by": "Communist" if state == "nlf" else "Allied (retaken)",
                "VP": row.vp_on_seizure if state == "nlf" else row.vp_while_retaken,
            }
        )
    return pd.DataFrame(rows, columns=["town", "hex", "Region", "held by", "VP"])


def level_counts(levels: Iterable[str]) -> pd.DataFrame:
    """How many games ended at each level of victory, in the table's order (every level listed)."""
    s = pd.Series(list(levels), dtype="object").value_counts()
    out = pd.DataFrame({"level": LEVEL_ORDER, "games": [int(s.get(lv, 0)) for lv in LEVEL_ORDER]})
    out["share"] = (out["games"] / max(1, out["games"].sum())).round(3)
    return out


def calibration_check(vps: Iterable[int], data) -> pd.DataFrame:
    """The digest's section 5.6 target for the reconstruction, measured on a run of games: the median final VP
    should fall near a Communist Marginal Victory (15-24 on the Level of Victory Table, YOTR-VIC-LEVELS) and a
    Decisive Victory (40 or more, YOTR-VIC-DEC) should be rare (we read "rare" as under 5% of games).  ``met`` is empty for the shares that have no target."""
    s = pd.Series(list(vps), dtype="float")
    median = float(s.median())
    decisive = float((s >= 40).mean())
    communist = float((s >= 15).mean())
    allied = float((s <= 8).mean())
    return pd.DataFrame(
        [
            {
                "measure": "median final VP",
                "target": "15 to 24 (Communist Marginal)",
                "this run": f"{median:g}",
                "level": data.level(int(median)).level,
                "met": 15 <= median <= 24,
            },
            {
                "measure": "Decisive Victories",
                "target": "rare (under 5%)",
                "this run": f"{decisive:.1%}",
                "level": "Communist Decisive Victory",
                "met": decisive < 0.05,
            },
            {
                "measure": "Communist victories of any level",
                "target": "(not set)",
                "this run": f"{communist:.1%}",
                "level": "15 VP or more",
                "met": "",
            },
            {
                "measure": "Allied victories of any level",
                "target": "(not set)",
                "this run": f"{allied:.1%}",
                "level": "8 VP or fewer",
                "met": "",
            },
        ]
    )
