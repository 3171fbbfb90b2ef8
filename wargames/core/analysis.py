"""What if? The analysis board (issue #33): from the current position, each candidate action played forward many
times by the built-in players, and what came of it.

    import wargames
    game = wargames.load("yotr", seed=3); game.advance_to(4)
    table = wargames.analyse(game, rollouts=50, horizon="turn", workers=2)
    table[["candidate", "win_Communist", "win_Communist_lo", "win_Communist_hi", "margin_mean"]]

For the side to decide, each candidate (an action, a label, a short plan of several actions, or a declared plan,
:func:`plan`; by default the legal actions, or the built-in player's first choices when there are many) is played
``rollouts`` times: the
game is branched, the candidate applied, and the built-in players play every side to the ``horizon`` ("end" of
the game, end of the current "turn" (a season, a card), of the current "phase", or of turn N).  Each replay is
read by :func:`wargames.core.standing.standing` (the result at the end; before it, the game's end-of-game rule
read as if the game ended now).

Common random numbers: replay ``i`` rolls the same dice and breaks the bots' ties the same way for every
candidate (its generators are seeded from ``seed`` and ``i``, not from the candidate), so two candidates differ
by what they do, not by luck.  Same position + candidates + seed + rollouts = the same table, whether it runs
here (``workers=1``), in local processes (``workers=n``) or on a Dask cluster (``client`` or ``scheduler``).
``progress`` is told (done, total) after each replay; ``cancel`` (a ``threading.Event`` or a function returning
True) stops the run between replays with :class:`AnalysisCancelled`, leaving the game untouched.

A declared plan (issue #33 item 3: a whole air campaign, not its first aircraft) is a list of preferences over the
actions of its side, ``plan("Linebacker: the North first", {"box": "downtown"}, {"box": "sam_strike"})``: at every
decision of its side until another side must decide, the first preference some legal action fits is followed (the
built-in player, the Advisor, picks among the actions that fit), and where none fits the built-in player decides.

What the replays know: they play from the true position, every hidden counter included; the built-in players
are the model of how both sides behave.  Notebooks using the board say so.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from .actions import Action, Decision, WargamesError
from .montecarlo import _progress
from .standing import standing

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from .engine import Game

HORIZONS = ("end", "turn", "phase")
#: z of a two-sided 95% interval
Z95 = 1.959963984540054


class AnalysisError(WargamesError):
    """An analysis that cannot run (no decision pending, a candidate that is not legal, a bad horizon)."""


class AnalysisCancelled(WargamesError):
    """The analysis was cancelled (``cancel`` was set) before every replay was played; the game is unchanged."""


@dataclass(frozen=True)
class Candidate:
    """A choice to analyse: its name as a student reads it and the actions it makes, in order (the first is the
    pending decision's; the others answer the decisions that follow, e.g. a plan of several moves)."""

    name: str
    actions: tuple[Action, ...]
    #: a declared plan's preferences (:func:`plan`): each a kind and/or parameters an action must have
    prefer: tuple[Mapping[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "actions": [a.to_json() for a in self.actions],
            "prefer": [dict(p) for p in self.prefer],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Candidate:
        return cls(
            str(data["name"]),
            tuple(_action(a) for a in data["actions"]),
            tuple(dict(p) for p in data.get("prefer", ())),
        )


def plan(name: str, *prefer: Mapping[str, Any]) -> Candidate:
    """A declared plan for the deciding side (issue #33 item 3): ``prefer`` lists what its actions should be, most
    wanted first, each a mapping of an action's ``kind`` and/or parameters to a value or to a list of allowed
    values, e.g. ``{"box": ["downtown", "infrastructure"], "restricted": False}``.  At each of the side's decisions
    until another side decides, the first preference some legal action fits is followed, the built-in player (the
    Advisor) choosing among the actions that fit; where none fits, the built-in player decides alone."""
    if not prefer:
        raise AnalysisError(f"plan {name!r} declares no preference")
    for p in prefer:
        if not isinstance(p, Mapping) or not p:
            raise AnalysisError(f"plan {name!r}: a preference must be a non-empty mapping, not {p!r}")
    return Candidate(str(name), (), tuple(dict(p) for p in prefer))


def _fits(a: Action, pattern: Mapping[str, Any]) -> bool:
    """Whether action ``a`` has the kind and parameters of a plan's preference (a list or tuple: any of them)."""
    params = dict(a.params)
    for key, want in pattern.items():
        have = a.kind if key == "kind" else params.get(key, _MISSING)
        if isinstance(want, list | tuple | set | frozenset):
            if have not in want:
                return False
        elif have != want:
            return False
    return True


_MISSING = object()


def _preferred(game: Game, d: Decision, prefer: tuple[Mapping[str, Any], ...], bot: Any) -> Action | None:
    """The action a declared plan takes at decision ``d``: among the legal actions fitting its first preference that
    any fits, the built-in player's choice (or the first of them); None when no preference fits."""
    for pattern in prefer:
        fit = [a for a in d.options if _fits(a, pattern)]
        if not fit:
            continue
        if len(fit) == 1 or bot is None:
            return fit[0]
        try:
            pick = bot.choose(game, Decision(d.side, d.prompt, d.rule_id, list(fit), d.kind, None, d.context))
        except Exception:  # a bot written for the full list of options: the first that fits
            return fit[0]
        return next((a for a in fit if a == pick), fit[0])
    return None


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``k / n`` (95% by default): unlike the normal approximation it stays
    inside 0-1 and is honest for 0 or n successes in few replays."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (0.0 if k == 0 else max(0.0, centre - half), 1.0 if k == n else min(1.0, centre + half))


# ---------------------------------------------------------------------------------------------- candidates
def default_candidates(game: Game, top: int = 8) -> list[Candidate]:
    """The legal actions of the pending decision, one per name a student reads (actions with the same label are
    the same move to the student: the game declares them equivalent by naming them alike); when there are more
    than ``top``, the built-in player's first ``top`` choices in its order of preference (asked again with its
    earlier choices taken away)."""
    d = _pending(game)
    side = d.side
    groups: dict[str, Action] = {}
    for a in d.options:
        groups.setdefault(game.display_label(a, None), a)
    names = {id(a): n for n, a in groups.items()}
    options = list(groups.values())
    if len(options) <= top:
        return [Candidate(names[id(a)], (a,)) for a in options]
    ranked: list[Action] = []
    left = list(options)
    bot = game.default_player(side)
    while len(ranked) < top and left:
        try:
            pick = bot.choose(
                game, Decision(d.side, d.prompt, d.rule_id, list(left), d.kind, None, d.context)
            )
        except Exception:  # a bot written for the full list of options: the rest in the game's order
            break
        chosen = next((a for a in left if a == pick), None)
        if chosen is None:
            break
        ranked.append(chosen)
        left.remove(chosen)
    for a in left:
        if len(ranked) >= top:
            break
        ranked.append(a)
    return [Candidate(names[id(a)], (a,)) for a in ranked]


def as_candidates(game: Game, candidates: Any, top: int = 8) -> list[Candidate]:
    """``candidates`` as :class:`Candidate` values: None (the defaults), or a list of actions, labels, plans
    (lists of actions/labels) or Candidates, or a mapping name -> action, label or plan.  The first action of each
    must be legal now (else :class:`AnalysisError` naming it)."""
    if candidates is None:
        return default_candidates(game, top)
    d = _pending(game)
    items = list(candidates.items()) if isinstance(candidates, Mapping) else [(None, c) for c in candidates]
    out = []
    for name, c in items:
        if isinstance(c, Candidate):
            if c.prefer and not any(_fits(a, p) for p in c.prefer for a in d.options):
                raise AnalysisError(
                    f"plan {c.name!r}: none of its preferences fits a legal action of '{d.prompt}' [{d.rule_id}]"
                )
            out.append(c if name is None else Candidate(str(name), c.actions, c.prefer))
            continue
        plan = list(c) if isinstance(c, list | tuple) else [c]
        if not plan:
            raise AnalysisError(f"candidate {name!r} has no actions")
        first = _resolve(d, plan[0], name)
        rest = tuple(p if isinstance(p, Action) else _later(p) for p in plan[1:])
        label = str(name) if name is not None else game.display_label(first, None)
        out.append(Candidate(label, (first, *rest)))
    if not out:
        raise AnalysisError("no candidates to analyse")
    return out


def _resolve(d: Decision, item: Any, name: Any) -> Action:
    if isinstance(item, str):
        for a in d.options:
            if a.label == item:
                return a
        raise AnalysisError(
            f"candidate {name or item!r}: no legal action of '{d.prompt}' is labelled {item!r}"
        )
    act = item if isinstance(item, Action) else Action.from_json(dict(item))
    chosen = d.find(act)
    if chosen is None:
        raise AnalysisError(
            f"candidate {name or act.label or act.describe()!r} is not legal now [{d.rule_id}]: {d.prompt}"
        )
    return chosen


def _later(item: Any) -> Action:
    """A later step of a plan: an Action, its JSON, or a label (matched when its decision comes)."""
    if isinstance(item, str):
        return Action("__label__", (("label", item),), item)
    return Action.from_json(dict(item))


def _action(data: dict[str, Any]) -> Action:
    """An action of a candidate back from JSON (a plan's later step given by label stays one)."""
    if data["kind"] == "__label__":
        return _later(str(data["params"]["label"]))
    return Action.from_json(data)


def _pending(game: Game) -> Decision:
    d = game.decision
    if d is None or game.is_over:
        raise AnalysisError(
            "the analysis board starts from a decision: this game has none pending "
            "(advance it to a decision first)"
        )
    return d


# ---------------------------------------------------------------------------------------------- one replay
def _stop(horizon: str | int, game: Game) -> Callable[[Game], bool]:
    """Whether a replay has reached the horizon (measured from the position analysed)."""
    turn, phase = game.turn, game.phase.id if game.phase else None
    if horizon == "end":
        return lambda g: g.is_over
    if horizon == "turn":
        return lambda g: g.is_over or g.turn != turn
    if horizon == "phase":
        return lambda g: g.is_over or (g.turn, g.phase.id if g.phase else None) != (turn, phase)
    if isinstance(horizon, int) and not isinstance(horizon, bool):
        if horizon < turn:
            raise AnalysisError(f"horizon: turn {horizon} has already passed ({game.where()})")
        return lambda g: g.is_over or g.turn > horizon
    raise AnalysisError(f"horizon must be one of {HORIZONS} or a turn number, not {horizon!r}")


def _seed_key(seed: int, i: int) -> str:
    return f"analyse:{seed}:{i}"


def _reseed(game: Game, seed: int, i: int) -> None:
    """Replay ``i``'s chance: the game's dice and every built-in player's tie-breaks drawn from generators seeded
    by (``seed``, ``i``) only, the same for every candidate (common random numbers).  Forced lesson dice stay."""
    key = _seed_key(seed, i)
    game.dice._rng = random.Random(key)
    players = {}
    for side in game.sides:
        p = game.default_player(side)
        rng = getattr(p, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(f"{type(p).__name__}:{key}")
        players[side] = p
    game.players = {}
    game.set_players(players)


def _follow_plan(g: Game, cand: Candidate, stop: Callable[[Game], bool], taken: list[Action]) -> None:
    """A declared plan (:func:`plan`) at every decision of its side until another side must decide, the game ends
    or the horizon comes: the preferred action, or the built-in player's where no preference fits."""
    if g.decision is None:
        return
    side = g.decision.side
    bot = g.players.get(side)
    g.set_players({side: None})  # the plan decides for its side; the other sides' built-in players play on
    try:
        while not g.is_over and not stop(g):
            d = g.decision
            if d is None:
                g.advance("decision")
                continue
            if d.side != side:
                return
            act = _preferred(g, d, cand.prefer, bot)
            why = f"the analysis board's plan {cand.name!r}"
            if act is None and bot is not None:
                act, why = bot.choose(g, d), f"{why}: the built-in player decides where the plan says nothing"
            chosen = (d.find(act) if act is not None else None) or d.options[0]
            g.apply(chosen, by="analysis", why=why)
            taken.append(chosen)
    finally:
        if bot is not None:
            g.set_players({side: bot})


def _apply_plan(
    g: Game, cand: Candidate, stop: Callable[[Game], bool] | None = None, taken: list[Action] | None = None
) -> None:
    """The candidate's actions in order while its side decides: the first must be legal; a later one that is not
    legal when its turn comes (the unit was stopped, the place is full) is skipped, and the plan ends when another
    side must decide or the game ends (the built-in player of the side decides from there).  A declared plan:
    :func:`_follow_plan`.  ``taken`` (given): the actions applied are appended to it."""
    taken = [] if taken is None else taken
    if cand.prefer:
        _follow_plan(g, cand, stop or (lambda g: g.is_over), taken)
        return
    side = g.decision.side if g.decision is not None else None
    for k, act in enumerate(cand.actions):
        d = g.decision
        if d is None or g.is_over or d.side != side:
            return
        if act.kind == "__label__":
            match = next((a for a in d.options if a.label == act.label), None)
        else:
            match = d.find(act)
        if match is None:
            if k == 0:
                raise AnalysisError(f"candidate {cand.name!r} is not legal now [{d.rule_id}]: {d.prompt}")
            continue
        g.apply(match, by="analysis", why=f"the analysis board's candidate {cand.name!r}")
        taken.append(match)


def preview(game: Game, candidate: Any, *, seed: int = 0, i: int = 0) -> list[str]:
    """What ``candidate`` (an action, a label, a plan of actions or a declared :func:`plan`) has its side do in
    replay ``i`` of an analysis with ``seed``, before another side decides: the actions as a student reads them
    (``display_label``), so a lesson can show what each plan amounts to.  The game is not changed."""
    cand = as_candidates(game, [candidate])[0]
    side = _pending(game).side
    g = _base(game).branch()
    _reseed(g, seed, i)
    taken: list[Action] = []
    _apply_plan(g, cand, _stop("end", game), taken)
    return [g.display_label(a, side) for a in taken]


def replay(base: Game, cand: Candidate, ci: int, i: int, seed: int, horizon: str | int) -> dict[str, Any]:
    """One replay: ``base`` branched, reseeded for replay ``i``, candidate ``ci`` applied, the built-in players to
    the horizon; the row (candidate index, replay, winner, each side's margin, rule, level, turn reached)."""
    t, cpu = time.perf_counter(), time.process_time()
    stop = _stop(horizon, base)
    g = base.branch()
    g.without_copies()  # a replay never goes Back: its checkpoints need no copy of the state
    _reseed(g, seed, i)
    _apply_plan(g, cand, stop)
    guard = 0
    while not stop(g):
        g.advance("ruling")
        guard += 1
        if guard > 2_000_000:  # pragma: no cover - a runaway game
            raise AnalysisError("a replay did not reach its horizon")
    st = standing(g)
    row: dict[str, Any] = {
        "ci": ci,
        "replay": i,
        "winner": st.winner or "none",
        "rule": st.rule,
        "level": st.level,
        "final": st.final,
        "turn": g.turn,
        "seconds": round(time.perf_counter() - t, 4),
        "cpu": round(time.process_time() - cpu, 4),
    }
    for s, m in st.margins.items():
        row[f"margin_{s}"] = m
    return row


def _replays_from_save(
    save: dict[str, Any], jobs: list[tuple[int, dict[str, Any], int]], seed: int, horizon: str | int
) -> list[dict[str, Any]]:
    """A worker's task: the position from its save (opened once per worker process and kept, or inherited from the
    parent when the workers are forked), then the given (candidate, replay) jobs."""
    base = _position(save)
    out = []
    for ci, cjson, i in jobs:
        cand = Candidate.from_json(cjson)
        out.append(replay(base, cand, ci, i, seed, horizon))
    return out


#: positions a worker process has opened (or inherited from its parent), by the save's digest and length
_POSITIONS: dict[tuple[str, int], Game] = {}


def _save_key(save: Mapping[str, Any]) -> tuple[str, int]:
    return (str(save["digest"]), len(save["record"]))


def _position(save: dict[str, Any]) -> Game:
    """The analysis base of ``save``'s position in this process (opened once, then kept; only the latest few)."""
    from .saves import open_save

    key = _save_key(save)
    base = _POSITIONS.get(key)
    if base is None:
        base = _base(open_save(save))
        while len(_POSITIONS) >= 4:
            _POSITIONS.pop(next(iter(_POSITIONS)))
        _POSITIONS[key] = base
    return base


def _base(game: Game) -> Game:
    """The position every replay branches from: a branch of ``game`` without players (each replay sets fresh
    built-in players, so none need copying when it branches; the student's game is never touched)."""
    base = game.branch()
    base.players = {}
    return base


# ---------------------------------------------------------------------------------------------- the table
def analyse(
    game: Game,
    candidates: Any = None,
    *,
    rollouts: int = 50,
    horizon: str | int = "end",
    seed: int = 0,
    top: int = 8,
    workers: int = 1,
    client: Any = None,
    scheduler: str | None = None,
    progress: bool | Callable[[int, int], None] = False,
    cancel: Any = None,
) -> pd.DataFrame:
    """Each candidate's outcomes over ``rollouts`` replays to ``horizon``: one row per candidate (see the module
    docstring).  Columns: ``candidate``, ``rollouts``, ``win_<side>`` with ``win_<side>_lo`` / ``_hi`` (95% Wilson
    interval) for every side and ``draw``, ``margin_mean`` / ``margin_sd`` / ``margin_lo`` / ``margin_hi`` (the
    deciding side's margin, its spread and the 95% interval of its mean), ``ended`` (share of replays in which the
    game ended), ``rules`` (the deciding rules met and how often), ``best`` (the candidate with the highest win
    share for the deciding side, then the highest mean margin), ``sentence`` (the row in plain words).  ``attrs``
    hold the side, horizon, seed, the name of the deciding number and each candidate's margins (for charts)."""
    import pandas as pd

    if rollouts < 1:
        raise AnalysisError(f"rollouts must be at least 1, not {rollouts}")
    d = _pending(game)
    side = d.side
    cands = as_candidates(game, candidates, top)
    _stop(horizon, game)  # checks the horizon now
    jobs = [(ci, i) for ci in range(len(cands)) for i in range(rollouts)]
    total = len(jobs)
    report = _progress(progress, total, "replays")
    stopped = _cancelled(cancel)
    if client is not None or scheduler is not None:
        rows = _on_dask(game, cands, jobs, seed, horizon, client, scheduler, report, stopped)
    elif workers <= 1:
        base = _base(game)
        rows = []
        for ci, i in jobs:
            if stopped():
                raise AnalysisCancelled(f"analysis cancelled after {len(rows)} of {total} replays")
            rows.append(replay(base, cands[ci], ci, i, seed, horizon))
            report(len(rows))
    else:
        rows = _on_pool(game, cands, jobs, seed, horizon, workers, report, stopped)
    report(total, final=True)
    rows.sort(key=lambda r: (r["ci"], r["replay"]))
    return _table(game, side, cands, rows, horizon, seed, rollouts, pd)


def _chunks(cands: list[Candidate], jobs: list[tuple[int, int]], n: int) -> list[list[tuple[int, dict, int]]]:
    size = max(1, math.ceil(len(jobs) / n))
    return [[(ci, cands[ci].to_json(), i) for ci, i in jobs[k : k + size]] for k in range(0, len(jobs), size)]


def _on_pool(game, cands, jobs, seed, horizon, workers, report, stopped) -> list[dict[str, Any]]:
    """Local processes: the position travels as its save (plain JSON) and is opened once per task; about four
    tasks a worker, so progress moves and a cancel is heard within a task."""
    from .montecarlo import _warm

    save = game.save()
    _warm(game.game_id, game.scenario_id, game.options)
    _prefork(game, save)
    rows: list[dict[str, Any]] = []
    fn = partial(_replays_from_save, save, seed=seed, horizon=horizon)
    with ProcessPoolExecutor(workers) as pool:
        futures = {pool.submit(fn, chunk) for chunk in _chunks(cands, jobs, workers * 8)}
        try:
            while futures:
                done, futures = wait(futures, timeout=0.2, return_when=FIRST_COMPLETED)
                for f in done:
                    rows.extend(f.result())
                    report(len(rows))
                if stopped():
                    raise AnalysisCancelled(f"analysis cancelled after {len(rows)} of {len(jobs)} replays")
        except BaseException:
            for f in futures:
                f.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return rows


def _prefork(game: Game, save: dict[str, Any]) -> None:
    """When the workers are forked copies of this process, give them the position ready-made (they inherit it and
    never replay the save; issue #33 item 4: the fixed cost of an analysis on local workers)."""
    import multiprocessing

    method = multiprocessing.get_start_method(allow_none=True) or multiprocessing.get_all_start_methods()[0]
    key = _save_key(save)
    if method == "fork" and key not in _POSITIONS:
        while len(_POSITIONS) >= 4:
            _POSITIONS.pop(next(iter(_POSITIONS)))
        _POSITIONS[key] = _base(game)


def _on_dask(game, cands, jobs, seed, horizon, client, scheduler, report, stopped) -> list[dict[str, Any]]:
    """A Dask cluster: the same tasks as the local pool (about four per worker thread); cancelling cancels the
    futures still queued."""
    from dask.distributed import Client, as_completed

    own = client is None
    if own:
        client = Client(scheduler)
    try:
        threads = sum(client.nthreads().values()) or 1
        save = game.save()
        fn = partial(_replays_from_save, save, seed=seed, horizon=horizon)
        futures = client.map(fn, _chunks(cands, jobs, threads * 4), pure=False)
        rows: list[dict[str, Any]] = []
        try:
            for fut in as_completed(futures):
                rows.extend(fut.result())
                report(len(rows))
                if stopped():
                    raise AnalysisCancelled(f"analysis cancelled after {len(rows)} of {len(jobs)} replays")
        except BaseException:
            client.cancel(futures)
            raise
        return rows
    finally:
        if own:
            client.close()


def _table(game, side, cands, rows, horizon, seed, rollouts, pd) -> pd.DataFrame:
    sides = list(game.sides)
    number = standing(game).number
    out = []
    margins_of: dict[str, list[float]] = {}
    for ci, cand in enumerate(cands):
        mine = [r for r in rows if r["ci"] == ci]
        n = len(mine)
        wins = Counter(r["winner"] for r in mine)
        m = [float(r.get(f"margin_{side}", 0.0)) for r in mine]
        mean = sum(m) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in m) / (n - 1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n)
        row: dict[str, Any] = {"candidate": cand.name, "rollouts": n}
        for s in sides:
            lo, hi = wilson(wins[s], n)
            row[f"win_{s}"], row[f"win_{s}_lo"], row[f"win_{s}_hi"] = wins[s] / n, lo, hi
        row["draw"] = wins["none"] / n
        row.update(
            margin_mean=mean,
            margin_sd=sd,
            margin_lo=mean - half,
            margin_hi=mean + half,
            ended=sum(1 for r in mine if r["final"]) / n,
            rules="; ".join(f"{rule} x{k}" for rule, k in sorted(Counter(r["rule"] for r in mine).items())),
        )
        out.append(row)
        margins_of[cand.name] = m
    frame = pd.DataFrame(out)
    key = [(r[f"win_{side}"] if side in sides else 0.0, r["margin_mean"]) for r in out]
    best = max(range(len(out)), key=lambda k: (key[k], -k))
    frame["best"] = [k == best for k in range(len(out))]
    frame["sentence"] = [sentence(game, side, r, out[best], horizon) for r in out]
    frame.attrs.update(
        side=side,
        horizon=str(horizon),
        seed=seed,
        rollouts=rollouts,
        number=number,
        where=game.where(),
        margins=margins_of,
        cpu_seconds=round(sum(r["cpu"] for r in rows), 3),
    )
    return frame


def horizon_words(horizon: str | int, game: Game | None = None) -> str:
    """The horizon as a student reads it ("to the end of the game", "to the end of this season")."""
    turn = (game.sequence.turn_name.lower() if game is not None else "turn") or "turn"
    if horizon == "end":
        return "to the end of the game"
    if horizon == "turn":
        return f"to the end of this {turn}"
    if horizon == "phase":
        return "to the end of this phase"
    return f"to the end of {turn} {horizon}"


def sentence(
    game: Game, side: str, row: Mapping[str, Any], best: Mapping[str, Any], horizon: str | int
) -> str:
    """One candidate in plain words: the deciding side's win share with its 95% interval over the replays
    ("wins" at the end of the game, "is ahead" at an earlier horizon), its mean margin, and the best choice's
    figures beside them."""
    n = row["rollouts"]

    def pct(x: float) -> str:
        return f"{100 * x:.0f}%"

    when = horizon_words(horizon, game).replace("to the end", "at the end")
    verb = "wins" if horizon == "end" else f"is ahead {when} in"
    name, best_name = str(row["candidate"]), str(best["candidate"])
    if len(best_name) > 60:
        best_name = best_name[:59].rstrip() + "\u2026"
    if side not in game.sides:
        return f"{name}: {n} replays; the margin averages {row['margin_mean']:+.1f}."
    w, lo, hi = row[f"win_{side}"], row[f"win_{side}_lo"], row[f"win_{side}_hi"]
    text = f"{name}: the {side} side {verb} {pct(w)} ({pct(lo)}-{pct(hi)}) of {n} replays"
    if horizon == "end":
        text += f" {horizon_words(horizon, game)}"
    if row is best or name == str(best["candidate"]):
        return (
            text + f"; its margin averages {row['margin_mean']:+.1f} (spread {row['margin_sd']:.1f}): "
            "the best of the choices analysed."
        )
    return (
        text + f", against {pct(best[f'win_{side}'])} if it chooses {best_name}; its margin averages "
        f"{row['margin_mean']:+.1f} (spread {row['margin_sd']:.1f}), against {best['margin_mean']:+.1f}."
    )


def _cancelled(cancel: Any) -> Callable[[], bool]:
    if cancel is None:
        return lambda: False
    if hasattr(cancel, "is_set"):
        return cancel.is_set
    if callable(cancel):
        return lambda: bool(cancel())
    raise AnalysisError("cancel must be a threading.Event or a function returning True to stop")


def summary(frame: pd.DataFrame) -> str:
    """The table's sentences, best first, one a line (for a terminal or a notebook's print)."""
    order = frame.sort_values("best", ascending=False)
    return "\n".join(("* " if b else "  ") + s for b, s in zip(order["best"], order["sentence"], strict=True))
