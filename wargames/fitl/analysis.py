"""Fire in the Lake: small analysis helpers for the teaching notebooks (plain data; pandas and Bokeh only inside
the functions that draw or tabulate).

* :func:`snapshot` / :func:`tracks_before_after`: the tracks (FITL-1.8) and the four victory markers (FITL-1.9)
  at a moment, and a before/after table of them;
* :func:`card_option_rows` and :data:`SECOND_ELIGIBLE`: the options of the 1st and 2nd Eligible (FITL-2.3.4),
  available or not, with the reason;
* :func:`board_changes`: what changed on the board between two ``Board.to_dict()`` (pieces, Support, FITL-1.6);
* :func:`track_changes`: every track movement a list of rulings explains (why Aid or Resources moved);
* :func:`play_to_phase` / :func:`play_to_coup`: run the built-in players to a phase, e.g. the first Coup Round's
  Victory Phase (FITL-6.1);
* :func:`play_with_history`: a whole game card by card with the margins (FITL-7.3) after each card;
* :func:`run_games`: many games with the built-in players, one row each (winner and margins, FITL-7.1).

Everything works with whatever ``FitlGame.default_player`` returns (the simple default players or the
Non-players of rules 8.x).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .data import FACTIONS
from .victory import THRESHOLDS

if TYPE_CHECKING:  # pragma: no cover
    from ..core.rulings import Ruling
    from .game import FitlGame

TRACK_NAMES: dict[str, str] = {
    "aid": "Aid",
    "patronage": "Patronage",
    "econ": "Econ (Total Econ last Coup)",
    "trail": "Trail",
    "arvn_resources": "ARVN Resources",
    "nva_resources": "NVA Resources",
    "vc_resources": "VC Resources",
}

#: FITL-2.3.4: what the 2nd Eligible may do, given what the 1st Eligible executed (a Pass hands the role on).
SECOND_ELIGIBLE: list[dict[str, str]] = [
    {"1st Eligible executed": "Operation only", "2nd Eligible may": "Limited Operation (or Pass)"},
    {
        "1st Eligible executed": "Operation with a Special Activity",
        "2nd Eligible may": "Limited Operation or the Event (or Pass)",
    },
    {
        "1st Eligible executed": "the Event",
        "2nd Eligible may": "Operation, with a Special Activity if it likes (or Pass)",
    },
    {
        "1st Eligible executed": "Pass",
        "2nd Eligible may": "the next Eligible faction becomes 1st Eligible instead",
    },
]


# ---------------------------------------------------------------------------------------------- moments
def snapshot(game: FitlGame) -> dict[str, Any]:
    """FITL-1.8 / FITL-1.9: the card, the seven tracks, the four victory markers and margins, and Eligibility."""
    tracks = dict(game.board.tracks)
    markers = game.board.victory()
    return {
        "turn": game.turn,
        "card": game.card,
        "tracks": tracks,
        "markers": markers,
        "margins": {f: markers[f] - THRESHOLDS[f] for f in FACTIONS},
        "eligible": dict(game.eligible),
    }


def tracks_before_after(
    before: dict[str, Any], after: dict[str, Any], *, changed_only: bool = False
) -> list[dict[str, Any]]:
    """Rows (item, before, after, change) for the tracks (FITL-1.8) and victory markers (FITL-1.9) of two
    :func:`snapshot`\\ s (``changed_only``: only the rows that moved)."""
    rows = []
    for key, name in TRACK_NAMES.items():
        a, b = before["tracks"][key], after["tracks"][key]
        rows.append({"item": name, "before": a, "after": b, "change": b - a})
    for f in FACTIONS:
        a, b = before["markers"][f], after["markers"][f]
        rows.append(
            {
                "item": f"{f} victory marker (wins above {THRESHOLDS[f]})",
                "before": a,
                "after": b,
                "change": b - a,
            }
        )
    return [r for r in rows if r["change"]] if changed_only else rows


def tracks_frame(before: dict[str, Any], after: dict[str, Any], *, changed_only: bool = True):
    """:func:`tracks_before_after` as a pandas DataFrame (FITL-1.8, FITL-1.9); one row saying so when nothing
    moved."""
    import pandas as pd

    rows = tracks_before_after(before, after, changed_only=changed_only)
    if not rows:
        return pd.DataFrame([{"item": "no track or victory marker moved"}])
    return pd.DataFrame(rows)


def eligibility_rows(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, str]]:
    """FITL-2.3.6: each faction's Eligibility cylinder before and after (from two :func:`snapshot`\\ s)."""

    def word(ok: bool) -> str:
        return "Eligible" if ok else "Ineligible"

    return [
        {
            "faction": f,
            "before": word(before["eligible"][f]),
            "after": word(after["eligible"][f]),
            "moved": "yes" if before["eligible"][f] != after["eligible"][f] else "",
        }
        for f in FACTIONS
    ]


# ---------------------------------------------------------------------------------------------- options
def card_option_rows(decision) -> list[dict[str, str]]:
    """FITL-2.3.4: the options of an Eligible faction's card decision: those offered, then those shown as
    unavailable with their reason (``decision.context["unavailable"]``)."""
    rows = [
        {"option": a.label, "available": "yes", "rule": decision.rule_id, "reason": ""}
        for a in decision.options
    ]
    for o in decision.context.get("unavailable", []):
        rows.append({"option": o["label"], "available": "no", "rule": o["rule"], "reason": o["reason"]})
    return rows


def find_action(game: FitlGame, kind: str, **params: Any):
    """The legal action of the pending decision with this ``kind`` and these parameters (what a click on the
    action list picks); KeyError listing the choices when there is none.  Legal actions only: the rules decide
    what is offered (FITL-2.3.4, FITL-3.1)."""
    options = game.legal_actions()
    for a in options:
        if a.kind == kind and all(a.get(k) == v for k, v in params.items()):
            return a
    raise KeyError(f"no legal {kind} {params}; the choices are: {[a.label for a in options]}")


# ---------------------------------------------------------------------------------------------- changes
def board_changes(
    before: dict[str, Any], after: dict[str, Any], names: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """Spaces whose pieces or Support level (FITL-1.6) differ between two ``Board.to_dict()``: one row per space
    with the pieces added/removed (``+2 us_troops, -1 vc_guerrillas:u``) and the Support before/after."""
    from .data import LEVEL_NAMES

    rows = []
    spaces = sorted(
        set(before["pieces"]) | set(after["pieces"]) | set(before["support"]) | set(after["support"])
    )
    for s in spaces:
        p0, p1 = before["pieces"].get(s, {}), after["pieces"].get(s, {})
        delta = {k: p1.get(k, 0) - p0.get(k, 0) for k in sorted(set(p0) | set(p1))}
        moved = ", ".join(f"{d:+d} {k}" for k, d in delta.items() if d)
        s0, s1 = before["support"].get(s, 0), after["support"].get(s, 0)
        if not moved and s0 == s1:
            continue
        rows.append(
            {
                "space": (names or {}).get(s, s),
                "pieces": moved,
                "support before": LEVEL_NAMES[s0],
                "support after": LEVEL_NAMES[s1],
            }
        )
    return rows


BOXES: dict[str, str] = {"available": "Available", "casualties": "Casualties", "out_of_play": "Out of Play"}


def box_changes(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """FITL-1.4.1 / FITL-6.5: the pieces whose count in the Available, Casualties or Out of Play box differs between
    two ``Board.to_dict()``; one row per piece with ``before -> after`` for each box."""
    pieces = sorted({p for b in BOXES for d in (before, after) for p in d[b]})
    rows = []
    for p in pieces:
        counts = {name: (before[b].get(p, 0), after[b].get(p, 0)) for b, name in BOXES.items()}
        if any(x != y for x, y in counts.values()):
            rows.append(
                {"piece": p, **{name: f"{x} -> {y}" if x != y else str(x) for name, (x, y) in counts.items()}}
            )
    return rows


def track_changes(rulings: Iterable[Ruling]) -> list[dict[str, Any]]:
    """Every track movement (FITL-1.8) the rulings record in their ``changes``, with the rule and the ruling's
    title: read down the list to see why Aid, Resources or the Trail moved."""
    rows = []
    for r in rulings:
        for c in r.changes:
            if "track" in c and "from" in c and "to" in c and c["from"] != c["to"]:
                rows.append(
                    {
                        "rule": r.rule_id,
                        "ruling": r.title,
                        "track": TRACK_NAMES.get(c["track"], c["track"]),
                        "from": c["from"],
                        "to": c["to"],
                        "change": c["to"] - c["from"],
                    }
                )
    return rows


def econ_rows(game: FitlGame) -> list[dict[str, Any]]:
    """FITL-6.2.3: the LoCs with an Econ value, whether each is Sabotaged now (FITL-6.2.1), and what it adds to
    Total Econ (a Sabotaged LoC adds nothing)."""
    rows = []
    for s, sp in sorted(game.data.spaces.items(), key=lambda kv: kv[1].name):
        if sp.kind == "loc" and sp.econ:
            sab = s in game.board.sabotage
            rows.append(
                {
                    "LoC": sp.name,
                    "Econ": sp.econ,
                    "Sabotaged": "yes" if sab else "",
                    "adds to Total Econ": 0 if sab else sp.econ,
                }
            )
    return rows


# ---------------------------------------------------------------------------------------------- playing
def run_phase(game: FitlGame) -> list[Ruling]:
    """Let the players finish the current phase (e.g. one phase of a Coup Round, FITL-6.0); the rulings logged in
    it, its opening ruling included."""
    turn, name = game.turn, game.phase.name if game.phase else ""
    game.advance("phase")
    return [r for r in game.log if r.turn == turn and r.phase == name]


def play_to_phase(game: FitlGame, phase_id: str, *, max_cards: int = 200) -> list[Ruling]:
    """Let the players run until a phase with id ``phase_id`` (``data/fitl/sequence.yaml``) has begun, or the game
    ends; the rulings made on the way."""
    n0 = len(game.log)
    start = game.turn
    while not game.is_over and not (
        game.phase is not None and game.phase.id == phase_id and len(game.log) > n0
    ):
        before = game.position
        game.advance("phase")
        if game.position == before or game.turn - start > max_cards:  # waiting for a person, or a runaway
            break
    return game.log[n0:]


def play_to_coup(game: FitlGame) -> list[Ruling]:
    """FITL-2.4 / FITL-6.1: play on to the Victory Phase of the next Coup Round."""
    return play_to_phase(game, "victory")


def play_with_history(game: FitlGame) -> list[dict[str, Any]]:
    """Play the game to its end card by card; one row for the start and one after each card (its Coup Round
    included): the card, whether it was a Coup card, and the four victory markers and margins (FITL-7.3)."""

    def row_for(index: int, card: int | None) -> dict[str, Any]:
        snap = snapshot(game)
        row: dict[str, Any] = {
            "card_index": index,
            "card": card,
            "title": game.data.cards[card].title if card else "start",
            "coup": bool(card and game.is_coup(card)),
        }
        row.update({f"marker_{f}": v for f, v in snap["markers"].items()})
        row.update({f"margin_{f}": v for f, v in snap["margins"].items()})
        return row

    rows = [row_for(0, None)]
    while not game.is_over:
        before = game.position
        index = game.turn
        game.advance("turn")
        rows.append(row_for(index, _card_of_turn(game, index)))
        if game.position == before:  # waiting for a person's decision
            break
    return rows


def _card_of_turn(game: FitlGame, turn: int) -> int | None:
    """FITL-2.3.7: the card turned up on engine turn ``turn`` (its reveal ruling; a Pivotal Event may replace it)."""
    card = None
    for r in game.log:
        if (
            r.turn == turn
            and isinstance(r.result, dict)
            and "card" in r.result
            and r.rule_id in ("FITL-2.3.7", "FITL-2.2", "FITL-2.3.8")
        ):
            card = r.result["card"]
    return card if card is not None else game.card


def run_games(seeds: Iterable[int], scenario: str = "short") -> list[dict[str, Any]]:
    """FITL-7.1 / FITL-7.3: play one game per seed with the built-in players; per game the winner, whether it
    ended at the final Coup, the cards played, the four margins and the seconds it took."""
    import wargames

    rows = []
    for seed in seeds:
        t = time.perf_counter()
        g = wargames.load("fitl", scenario=scenario, seed=seed)
        g.play()
        res = (g.result.result if g.result else None) or {}
        margins = res.get("margins") or {f: g.board.victory()[f] - THRESHOLDS[f] for f in FACTIONS}
        row: dict[str, Any] = {
            "seed": seed,
            "winner": res.get("winner"),
            "final_coup": bool(res.get("final_coup")),
            "cards": g.turn,
            "seconds": round(time.perf_counter() - t, 3),
        }
        row.update({f"margin_{f}": margins[f] for f in FACTIONS})
        rows.append(row)
    return rows
