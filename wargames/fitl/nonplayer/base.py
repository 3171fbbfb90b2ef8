"""Fire in the Lake Non-players: the part every faction shares (rules 8.1, 8.1.1, 8.1.2, 8.1.3).

A Non-player is a player (``choose(game, decision) -> Action``) that answers every decision the frame offers by
the faction's flowchart (``us.py``, ``arvn.py``, ``nva.py``, ``vc.py``) and says which step chose it in
``last_reason`` (e.g. "VC 8.5.3: Rally because ...").  It only ever picks among the offered legal actions.

* FITL-8.1: the flowchart decides Event, Operation or Pass (``plan``); a Non-player never executes a Limited
  Operation: the sequence of play offers a Non-player seat a full Operation with a Special Activity instead
  (``FitlGame.plays_as_nonplayer``, decision F-73; only the 1-player Easy Option keeps the Limited Operation);
  Pivotal Events only while a player faction is 1st Eligible (FITL-8.4.6: with four Non-players never).
* FITL-8.1 Ineffective Events and the Capability bullets of 8.5.2 / 8.6.2 / 8.7.1 / 8.8.2: ``capability_step``
  and ``event_step`` (the game's dry run of the side it would play, decision F-72).
* FITL-8.1.2 / FITL-8.1.3: pieces and spaces by the priorities in ``priorities.py``.
* FITL-8.4: the choices an Event leaves open by the defaults of 8.4.3-8.4.5 (``events.py``); FITL-8.4.7 the rest.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...core.actions import Action, Decision
from ...core.players import Bot
from ..data import COIN
from .events import EventChoices
from .priorities import best_action, card_key, random_pick, rng_for, target_priority

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame

PRIORITY_ERROR = "no priority could be evaluated"


@dataclass
class Plan:
    """The flowchart's answer for one action: ``op`` (None: Pass or Event), the Special Activities in order of
    preference, when to do the SA ("before" the Op or "later"), and the reason with its step."""

    op: str | None
    sas: tuple[str, ...] = ()
    when: str = "later"
    reason: str = ""
    event: bool = False
    event_why: str = ""
    cap_pass: bool = False  # a Pass for the next card's Capability (FITL-8.5.2 / 8.6.2 / 8.7.1 / 8.8.2)


class NonPlayerBase(EventChoices, Bot):
    """FITL-8.0: a Non-player faction on the core :class:`~wargames.core.players.Bot` (a decision is answered by
    ``on_<kind>``, else :meth:`fallback`).  Subclasses implement ``plan`` (the flowchart's top) and the space
    choices; the choices inside an Event come from :class:`EventChoices` (FITL-8.4).  Its random picks come
    from the game's seed per decision (``priorities.rng_for``), never from the bot's own ``rng``."""

    faction = ""
    section = "8"

    def __init__(self, faction: str | None = None, seed: int = 0):
        if faction:
            self.faction = faction
        Bot.__init__(self, seed, rng_key=f"non-player:{self.faction}:{seed}")
        self.side = self.faction
        self.plan_cache: tuple[str, Plan] | None = None
        self.op_memo: dict[str, Any] = {}
        self.cap_memo: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"NonPlayer({self.faction!r})"

    # ------------------------------------------------------------------ the protocol
    def choose(self, game: FitlGame, decision: Decision) -> Action:
        """Bot.choose narrowed to what is Available (FITL-8.1.1), with the F-74 fallback when a priority breaks."""
        handler = self.handler(decision)
        full = decision
        decision = self.available_only(game, decision)
        try:
            act = handler(game, decision) if handler else None
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, StopIteration) as err:
            # a position the priorities did not foresee must not stop the game: say so, pick by F-74
            act = self.fallback(game, decision)
            self.last_reason += f" [{PRIORITY_ERROR}: {type(err).__name__}]"
            return act
        if act is None or decision.find(act) is None:
            act = self.fallback(game, decision)
        if full.context.get("sa") == "infiltrate" and full.context.get("step") == "troops":
            self.memo()["infiltrate_troops"] = int(act.get("n") or 0)
        return act

    # ------------------------------------------------------------------ 8.1.1: only what is Available
    def available_only(self, game: FitlGame, decision: Decision) -> Decision:
        """FITL-8.1.1 ("only as long as needed pieces ... are available") with FITL-1.4.1: a Non-player places only
        pieces from Available; it never takes the offered option of pulling its own pieces off the map to place
        more (decision F-172).  The offered options are narrowed to those Available pieces can fill; a choice
        they leave empty keeps the smallest placement offered, else the original options."""
        c = decision.context
        b = game.board
        av = b.available
        kind, step, op, sa = decision.kind, c.get("step"), c.get("op"), c.get("sa")
        keep = None
        g = {"NVA": "nva_guerrillas", "VC": "vc_guerrillas"}.get(self.faction, "")
        base = {"NVA": "nva_bases", "VC": "vc_bases"}.get(self.faction, "")

        def rally_ok(a: Any) -> bool:
            if a.kind != "mode":
                return True
            if a.get("mode") == "place":
                return int(a.get("n") or 0) <= av[g]
            if a.get("mode") == "base":
                return av[base] >= 1
            return True

        if kind == "mode" and op == "rally" and not sa and g:
            keep = [a for a in decision.options if rally_ok(a)]
        elif (
            kind == "space"
            and op == "rally"
            and step == "space"
            and not sa
            and g
            and hasattr(game, "rally_modes")
        ):
            keep = [
                a
                for a in decision.options
                if a.kind != "space"
                or any(
                    rally_ok(m) and m.get("mode") in ("place", "base")
                    for m in game.rally_modes(self.faction, a["space"])
                )
            ]
        elif kind == "count" and sa == "infiltrate" and step in ("troops", "replace"):
            room = av["nva_troops"] - (self.memo().get("infiltrate_troops", 0) if step == "replace" else 0)
            keep = [a for a in decision.options if a.kind != "count" or int(a["n"]) <= max(0, room)]
        elif kind == "piece" and sa == "infiltrate" and step == "takeover":
            keep = [
                a
                for a in decision.options
                if a.kind != "piece" or av[a["key"].split(":")[0].replace("vc_", "nva_")] >= 1
            ]
        elif kind == "mode" and sa == "subvert":
            keep = [a for a in decision.options if a.get("mode") != "replace" or av["vc_guerrillas"] >= 1]
        elif kind == "place":
            keep = [
                a
                for a in decision.options
                if a.kind != "place"
                or (
                    int(a.get("irregulars") or 0) <= av["us_irregulars"]
                    and int(a.get("rangers") or 0) <= av["arvn_rangers"]
                    and int(a.get("troops") or 0) <= av["arvn_troops"]
                    and int(a.get("police") or 0) <= av["arvn_police"]
                )
            ]
        if keep is None or len(keep) == len(decision.options):
            return decision
        if not keep:
            return decision
        return replace(decision, options=keep)

    #: the flowchart step (rule section) of each Operation and Special Activity, per faction
    STEPS: dict[str, str] = {}

    def rule_for(self, decision: Decision) -> str:
        """The flowchart step answering ``decision``: its Special Activity's, else its Operation's section."""
        c = decision.context
        return self.STEPS.get(c.get("sa") or "", self.STEPS.get(c.get("op") or "", self.section))

    def why(self, rule: str, text: str) -> None:
        self.last_reason = f"{self.faction} {rule}: {text}"

    # ------------------------------------------------------------------ helpers
    def b(self, game: FitlGame) -> Any:
        return game.board

    def ctx(self, decision: Decision) -> dict[str, Any]:
        return decision.context

    def opts(self, decision: Decision, kind: str) -> list[Action]:
        return [a for a in decision.options if a.kind == kind]

    def pick(self, game: FitlGame, options: list[Action], key: Any) -> Action:
        return best_action(game, self.faction, options, key)

    def fallback(self, game: FitlGame, decision: Decision) -> Action:
        """No flowchart priority covers this choice: an equal-chance pick among the offered actions (FITL-8.1.3
        ties, decision F-74); a held Pivotal Event is kept (FITL-8.4.6)."""
        for kind in ("no_pivotal",):
            a = self.first(decision, kind)
            if a is not None:
                self.why("8.4.6", "Pivotal Events are played only while a player faction is 1st Eligible")
                return a
        r = rng_for(game, self.faction, "fallback", per="decision")
        a = decision.options[r.randrange(len(decision.options))]
        rule = "8.4.7" if decision.kind.startswith("event") else "8.1.3"  # Event choices: FITL-8.4.7
        self.why(
            rule, f"no priority covers '{decision.prompt}': equal-chance pick of {a.label} (decision F-74)"
        )
        return a

    # ------------------------------------------------------------------ Event or not (8.1, 8.4, 8.5.2-8.8.6)
    def event_side(self, game: FitlGame) -> str:
        """FITL-8.4.2: Non-player NVA and VC take the shaded text, US and ARVN the unshaded one, unless the card's
        own Non-player instruction names a side (FITL-8.4.1, decision F-113)."""
        want = "unshaded" if self.faction in COIN else "shaded"
        pref_fn = getattr(game, "event_preference", None)
        pref = pref_fn(game.card, self.faction) if pref_fn is not None and game.card is not None else None
        if pref and pref[1] in ("unshaded", "shaded"):
            want = pref[1]
        return want

    def capability_step(self, game: FitlGame) -> tuple[str | None, str]:
        """The Capability bullets of FITL-8.5.2, FITL-8.6.2, FITL-8.7.1 and FITL-8.8.2: ("play", why) when the card in play is any
        faction's Capability and a d6 beats the Coup cards in the RVN Leader box (or beat them on the previous card,
        when this faction Passed for it); ("pass", why) when the next card is this faction's Capability, the card in
        play is not a Capability and the d6 beats them; ("decline", why) for a Capability whose roll failed; None
        when no Capability is involved (the card's Event is then judged by ``event_step``)."""
        from .priorities import roll

        cards = game.data.cards
        cur = cards.get(game.card) if game.card is not None else None
        coups = len(game.leader_box)
        played = any(v == "event" for v in (getattr(game, "acted", {}) or {}).values())
        if cur is not None and cur.kind == "capability" and not played:
            pref_fn = getattr(game, "event_preference", None)
            pref = pref_fn(game.card, self.faction) if pref_fn is not None else None
            if pref and pref[0] == "ignored":
                return (
                    "decline",
                    "the card's Non-player symbol says decline the Event (FITL-8.4.1, decision F-113)",
                )
            if self.cap_memo.get("card") == game.card:
                return "play", (
                    f"Capability: the d6 rolled on the previous card beat the {coups} Coup card(s) in "
                    "the RVN Leader box, so no new roll"
                )
            d = roll(game, self.faction, "capability")[0]
            if d > coups:
                return "play", f"Capability: d6 {d} > {coups} Coup card(s) in the RVN Leader box"
            return "decline", f"Capability: d6 {d} <= {coups} Coup card(s) in the RVN Leader box: no Event"
        nxt = cards.get(game.next_card) if getattr(game, "next_card", None) is not None else None
        owner_fn = getattr(game, "capability_owner", None)
        if (
            nxt is not None
            and nxt.kind == "capability"
            and owner_fn is not None
            and owner_fn(game.next_card) == self.faction
            and (cur is None or cur.kind != "capability" or played)
        ):
            d = roll(game, self.faction, "capability_next")[0]
            if d > coups:
                return "pass", (
                    f"the next card, {nxt.title}, is a {self.faction} Capability and d6 {d} > {coups} "
                    "Coup card(s) in the RVN Leader box: Pass now, play it next card without a roll"
                )
        return None, ""

    def event_step(self, game: FitlGame) -> tuple[bool, str]:
        """FITL-8.5.2 / 8.6.2 / 8.7.1 / 8.8.6 for a card that is not a Capability: play the Event unless the card's
        Non-player symbol declines it (FITL-8.4.1, the rifle; decision F-113) or it is Ineffective (FITL-8.1: the
        game's dry run of the side this faction would play finds no change, no lasting effect and no possible
        free action; decision F-72)."""
        if game.card is None:
            return False, "no card in play"
        pref_fn = getattr(game, "event_preference", None)
        pref = pref_fn(game.card, self.faction) if pref_fn is not None else None
        if pref and pref[0] == "ignored":
            return (
                False,
                "the card's Non-player symbol says decline the Event (FITL-8.4.1 rifle, decision F-113)",
            )
        side = self.event_side(game)
        eff = getattr(game, "event_effective", None)
        row = game.data.cards.get(game.card)
        if eff is not None and row is not None and row.kind == "momentum" and game.monsoon:
            # FITL-8.1: a Momentum Event with Coup! next only for an immediate or Coup Round effect
            now, _ = eff(game.card, side, self.faction, board_only=True)
            entry = (getattr(game, "event_entry", lambda c: None)(game.card) or {}).get(side) or {}
            coup = [r for r in entry.get("modifies") or [] if str(r).partition("-")[2].startswith("6.")]
            if not now and not coup:
                return False, (
                    f"the {side} Momentum Event would have no immediate or Coup Round effect with a Coup "
                    "card next (FITL-8.1)"
                )
        if eff is not None:
            ok, why = eff(game.card, side, self.faction)
            if not ok:
                return False, f"the {side} Event is Ineffective (FITL-8.1): {why}"
            return True, f"the {side} Event is effective: {why}"
        return True, "the Event is offered"

    def event_decision(self, game: FitlGame) -> tuple[str, str]:
        """FITL-8.5.2 / 8.6.2 / 8.7.1 in order: ("pass", why) for the next card's Capability, ("play", why) or
        ("no", why).  The third bullet plays the Event only if neither the next nor the current card is a
        Capability (decision F-72)."""
        cap, why = self.capability_step(game)
        if cap == "pass":
            return "pass", why
        if cap == "play":
            return "play", why
        if cap == "decline":
            return "no", why
        nxt = game.data.cards.get(game.next_card) if getattr(game, "next_card", None) is not None else None
        if nxt is not None and nxt.kind == "capability":
            return "no", f"the next card, {nxt.title}, is a Capability: no Event this card (decision F-72)"
        ok, why = self.event_step(game)
        return ("play" if ok else "no"), why

    def note_pass(self, game: FitlGame, decision: str | None) -> None:
        """Remember a Pass made for the next card's Capability (FITL-8.5.2 / 8.6.2 / 8.7.1 / 8.8.2)."""
        if decision == "pass" and getattr(game, "next_card", None) is not None:
            self.cap_memo = {"card": game.next_card}

    # ------------------------------------------------------------------ the flowchart's top (8.1)
    def plan(self, game: FitlGame, limited: bool) -> Plan:  # pragma: no cover - per faction
        raise NotImplementedError

    def current_plan(self, game: FitlGame, limited: bool) -> Plan:
        """The plan for this card (cached so the card and the Operation decisions agree)."""
        key = f"{id(game)}:{game.seed}:{card_key(game)}:{limited}"
        if self.plan_cache and self.plan_cache[0] == key:
            return self.plan_cache[1]
        p = self.plan(game, limited)
        self.plan_cache = (key, p)
        return p

    def first_possible(
        self, game: FitlGame, limited: bool, chain: list[tuple[str, str]]
    ) -> tuple[str, str] | None:
        """The first (op, why) of an IF NONE chain that the frame says is possible now (FITL-3.1)."""
        ok = set(game.op_choices(self.faction, limited))
        for op, why in chain:
            if op in ok:
                return op, why
        return None

    def on_card(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-8.1: Event, Operation (+SA) or Pass by the flowchart."""
        ops = self.opts(decision, "op")
        limited = bool(ops) and all(a["limited"] for a in ops)
        plan = self.current_plan(game, limited)  # an offered Event counts even with no Operation offered
        self.op_memo = {}
        events = self.opts(decision, "event")
        want = self.event_side(game)
        ev = next((a for a in events if a.get("side") == want), events[0] if events else None)
        if plan.event and ev is not None:
            why = plan.event_why
            self.last_reason = (
                why
                if why.startswith(f"{self.faction} ")
                else f"{self.faction} {self.section}: play the Event ({why})"
            )
            return ev
        if plan.op is None or not ops:
            self.last_reason = plan.reason or f"{self.faction} 8.1: nothing to do, Pass"
            if plan.op is not None:
                self.last_reason = (
                    f"{self.faction} {self.section}: no Operation is offered (FITL-3.1): Pass"
                    + (f" ({plan.event_why or 'no Event'})" if not events else "")
                )
            if plan.cap_pass:
                self.note_pass(game, "pass")
            return self.first(decision, "pass") or decision.options[-1]
        full = [a for a in ops if not a["limited"]]
        pref = [a for a in full if a["sa"]] or full or ops
        self.last_reason = plan.reason + (
            ""
            if full
            else " (only a Limited Operation is offered: the 1-player Easy Option, FITL-8.9, decision F-73)"
        )
        return pref[0]

    def on_op(self, game: FitlGame, decision: Decision) -> Action:
        limited = bool(decision.context.get("limited"))
        plan = self.current_plan(game, limited)
        self.op_memo = {"op": plan.op, "plan": plan, "count": Counter()}
        a = next((o for o in decision.options if o.get("op") == plan.op), None)
        if a is None:
            chain = self.first_possible(game, limited, [(o["op"], "") for o in decision.options])
            a = next(
                o
                for o in decision.options
                if o.get("op") == (chain[0] if chain else decision.options[0]["op"])
            )
            self.why(self.rule_for(decision), f"{a.label}: the planned Operation is not offered (IF NONE)")
            return a
        self.last_reason = plan.reason
        return a

    def pick_best(self, game: FitlGame, scored: list[tuple[Any, Action]], step: str, reason: str) -> Action:
        """FITL-8.1.3: the option with the highest priority key; ties broken at random among the spaces."""
        a, _, _ = self.top_space(game, [(k, a, "") for k, a in scored])
        self.why(step, f"{a.label}: {reason}")
        return a

    def top_space(self, game: FitlGame, scored: list[tuple[Any, Action, str]]) -> tuple[Action, str, Any]:
        """FITL-8.1.3 / 8.2: among (priority key, space option, why) the highest key, ties broken by a random space;
        returns the option, its why and the key."""
        top = max(k for k, _, _ in scored)
        tied = [(a, w) for k, a, w in scored if k == top]
        s = random_pick(game, self.faction, [a["space"] for a, _ in tied])
        a, w = next((a, w) for a, w in tied if a["space"] == s)
        return a, w, top

    def space_decision(self, decision: Decision) -> tuple[Any, Any, Any, list[Action], Action | None]:
        """What a space choice says: its flowchart step, Operation and Special Activity (from its context), the
        spaces offered and the option that stops (done / none), if any."""
        c = decision.context
        done = self.first(decision, "done", "none")
        return c.get("step"), c.get("op"), c.get("sa"), self.opts(decision, "space"), done

    def sweep_move(
        self, decision: Decision, best: tuple[Any, Action, int] | None, memo_key: str, rule: str, reason: str
    ) -> Action:
        """FITL-8.7.5 / 8.8.5: the Sweep Troop move ``best`` (key, option, Troops to move) found, the Troops noted in
        the memo as ``memo_key`` (``rule``: ``reason``); none: done."""
        if best:
            self.memo()[memo_key] = best[2]
            self.why(rule, f"{best[1].label}: {reason}")
            return best[1]
        self.why(rule, "Sweep: no further Troop move helps")
        return self.first(decision, "done") or decision.options[-1]

    def choose_space(
        self, game: FitlGame, scored: list[tuple[Any, Action, str]], step: Any
    ) -> tuple[Action, str, Any]:
        """:meth:`top_space` for an Operation or Special Activity; a space chosen for the Operation itself (step
        "space") is counted (``counts()["spaces"]``, the flowcharts' space limits)."""
        a, w, top = self.top_space(game, scored)
        if step == "space":
            self.counts()["spaces"] += 1
        return a, w, top

    def support_step(
        self,
        game: FitlGame,
        decision: Decision,
        scored: list[tuple[Any, Action]],
        rule: str,
        reason: str,
        stop: str,
    ) -> Action:
        """A Coup Round Support Phase step (Pacify, Agitate: FITL-6.3), one at a time: :meth:`pick_best`; no step
        scored: done (``stop`` says why)."""
        if not scored:
            self.why(rule, stop)
            return self.first(decision, "done") or decision.options[-1]
        return self.pick_best(game, scored, rule, reason)

    @staticmethod
    def modes(decision: Decision) -> dict[str, Action]:
        """The modes a "how?" choice offers (Rally, Attack, Govern, Advise ...), by name."""
        return {a["mode"]: a for a in decision.options if a.kind == "mode"}

    def mode_or(
        self,
        decision: Decision,
        modes: dict[str, Action],
        rule: str,
        prefer: str | None,
        why: str,
        default: str,
        default_why: str,
    ) -> Action:
        """The mode ``prefer`` when it applies (not None) and is offered (``why``), else ``default`` (the first
        option if it is not offered; ``default_why``)."""
        if prefer is not None and prefer in modes:
            self.why(rule, why)
            return modes[prefer]
        a = modes.get(default) or decision.options[0]
        self.why(rule, default_why)
        return a

    def no_space(self, decision: Decision, spaces: list[Action], done: Action | None, what: str) -> Action:
        """FITL-8.1.3: no space meets a priority of the Operation or Special Activity ``what``: done when the
        faction may stop, else the first space offered (one must be chosen)."""
        if done is not None:
            self.why(self.rule_for(decision), f"no further space meets a priority of the {what}: done")
            return done
        self.why("8.1.3", "no space meets a priority but one must be chosen: the first offered")
        return spaces[0] if spaces else decision.options[0]

    def first_best(
        self,
        decision: Decision,
        scored: list[tuple[Any, Action]],
        rule: str,
        reason: str,
        none_rule: str,
        none_reason: str,
    ) -> Action:
        """The first option with the highest key (``rule``: ``reason``); none scored: the "none" option
        (``none_rule``: ``none_reason``)."""
        if scored:
            a = max(scored, key=lambda ka: ka[0])[1]  # max keeps the first of equal keys
            self.why(rule, f"{a.label}: {reason}")
            return a
        self.why(none_rule, none_reason)
        return self.first(decision, "none") or decision.options[-1]

    def pacify_steps(self, game: FitlGame, decision: Decision, keep: int = 0) -> list[tuple[str, Action]]:
        """FITL-8.7.6 / 8.8.8 in the Support Phase: the (space, option) Pacification steps that can still shift a
        space (not yet at Active Support), Terror only where ARVN Resources less ``keep`` reach 6."""
        b = game.board
        return [
            (a["space"], a)
            for a in self.opts(decision, "pacify")
            if b.support[a["space"]] < 2
            and not (b.terror[a["space"]] and b.tracks["arvn_resources"] - keep < 6)
        ]

    @staticmethod
    def even_cubes(game: FitlGame, s: str, cubes: list[Action]) -> Action:
        """FITL-8.1.2: 6 cubes placed Troops and Police evenly, starting with the type fewest in ``s`` (Troops if
        tied): among the placements of exactly 6 cubes when one is offered (8.7.2), the one nearest that split
        (more cubes first)."""
        p = game.board.pieces[s]
        t = p_ = 0
        for _ in range(6):
            if p["arvn_troops"] + t <= p["arvn_police"] + p_:
                t += 1
            else:
                p_ += 1
        six = [a for a in cubes if a["troops"] + a["police"] == 6] or cubes  # exactly 6 when it can (8.7.2)
        return min(
            six, key=lambda a: (abs(a["troops"] - t) + abs(a["police"] - p_), -(a["troops"] + a["police"]))
        )

    # the March of the VC and the NVA (8.5.4, 8.6.5): the rule, and the memo of a forced move (decision F-79)
    march_rule = ""
    forced_plan: tuple[Any, ...] = ()

    def march_done(self, game: FitlGame, decision: Decision) -> Action:
        """No further March move meets a priority: done when offered, else a forced move (:meth:`forced_march`)."""
        done = self.first(decision, "done")
        if done is not None:
            self.why(self.march_rule, "March: no further move meets a priority")
            return done
        return self.forced_march(game, decision)

    def forced_march(self, game: FitlGame, decision: Decision) -> Action:
        """The March was chosen (IF NONE) but no priority names a move: the smallest move, 1 piece from the space
        with the most pieces onto a LoC if possible (8.1.3 / 8.3; decision F-79)."""
        opts = self.opts(decision, "move_from")
        a = self.pick(game, opts, lambda a: game.movers(self.faction, a["space"]))
        self.memo()["plan"] = self.forced_plan
        self.memo()["forced"] = True
        self.why(
            self.march_rule, f"{a.label}: a March must move something; the smallest move (decision F-79)"
        )
        return a

    def march_to_plan(self, game: FitlGame, decision: Decision, rule: str, text: str) -> Action:
        """The March destination: a forced March's Random LoC, else the planned space (``rule``: ``text``, where
        ``{}`` is the option's label); neither: None (the decision is not the March's)."""
        forced = self.forced_march_to(game, decision)
        if forced is not None:
            return forced
        plan = self.memo().get("plan")
        for a in self.opts(decision, "move_to"):
            if plan and a["space"] == plan[0]:
                self.why(rule, text.format(a.label))
                return a
        return None  # type: ignore[return-value]

    def forced_march_to(self, game: FitlGame, decision: Decision) -> Action | None:
        """A March that had to move something goes to a Random LoC (FITL-8.3, decision F-79); None otherwise."""
        if not self.memo().pop("forced", False):
            return None
        plan = self.memo().get("plan")
        opts = self.opts(decision, "move_to")
        locs = [a for a in opts if game.is_loc(a["space"])] or opts
        s = random_pick(game, self.faction, [a["space"] for a in locs], "march")
        a = next(a for a in locs if a["space"] == s)
        self.memo()["plan"] = (s,) + tuple(plan[1:])
        self.why("8.3", f"March to {game.sname(s)}: a Random LoC (decision F-79)")
        return a

    def march_target(self, game: FitlGame) -> Any:  # the VC and NVA name their March moves (8.5.4, 8.6.5)
        return None

    def march_move_exists(self, game: FitlGame) -> bool:
        """FITL-8.5.4 / FITL-8.6.5: a March priority names at least one move now (checked on a scratch memo)."""
        saved = self.op_memo
        self.op_memo = {}
        try:
            return self.march_target(game) is not None
        finally:
            self.op_memo = saved

    def memo(self) -> dict[str, Any]:
        return self.op_memo.setdefault("memo", {})

    def counts(self) -> Counter[str]:
        return self.op_memo.setdefault("count", Counter())

    def planned(self, game: FitlGame, decision: Decision) -> Plan:
        p = self.op_memo.get("plan")
        if p is None:
            p = self.current_plan(game, bool(decision.context.get("limited")))
            self.op_memo["plan"] = p
        return p

    # ------------------------------------------------------------------ Special Activities (4.1)
    def sa_wanted(self, game: FitlGame, decision: Decision, sa: str) -> bool:
        """Whether the flowchart's condition for ``sa`` holds now (per faction)."""
        return True

    def on_sa(self, game: FitlGame, decision: Decision) -> Action:
        plan = self.planned(game, decision)
        op = decision.context.get("op")
        offered = {a["sa"]: a for a in self.opts(decision, "sa")}
        before = any(a.get("when") == "before" for a in offered.values())
        for sa in plan.sas:
            if sa in offered and (plan.when == "before" or not before) and self.sa_wanted(game, decision, sa):
                self.why(
                    self.rule_for(decision),
                    f"{sa.replace('_', ' ').title()} with the {op} (flowchart Special Activity)",
                )
                return offered[sa]
        later = self.first(decision, "sa_later")
        if later is not None and plan.sas:
            self.why(
                self.rule_for(decision),
                f"{op} first; the Special Activity ({', '.join(plan.sas)}) during or after it",
            )
            return later
        self.why(
            self.rule_for(decision),
            f"no Special Activity of the flowchart applies to this {op} (Op Only, 2.3.4)",
        )
        return self.first(decision, "no_sa") or decision.options[-1]

    # ------------------------------------------------------------------ generic piece choices (8.1.2)
    def on_piece(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-8.1.2: target enemy pieces by the piece priorities; remove as many as allowed."""
        pieces = self.opts(decision, "piece")
        if not pieces:
            return self.first(decision, "stop", "none") or decision.options[0]
        step = decision.context.get("step")
        if step == "takeover":
            a = self.pick(
                game,
                pieces,
                lambda a: (
                    a["key"].endswith("_bases:t"),
                    a["key"].startswith("vc_bases"),
                    target_priority(game, a["space"], a["key"]),
                ),
            )
            self.why("8.6.4", f"Infiltrate takes over VC {a['key']} (a VC Base, Tunneled first; 8.1.2)")
            return a
        a = self.pick(game, pieces, lambda a: self.piece_key(game, a))
        self.why(
            "8.1.2",
            f"{a.label}: Bases, then Guerrillas or Special Forces, then Troops and Police evenly; "
            f"{'US before ARVN' if self.faction not in COIN else 'VC before NVA, Underground first'}",
        )
        return a

    def piece_key(self, game: FitlGame, a: Action) -> tuple[int, ...]:
        return target_priority(game, a["space"], a["key"])

    def on_count(self, game: FitlGame, decision: Decision) -> Action:
        """How many: the maximum extent (FITL-8.1.1 guidelines), unless the step is a movement the faction plans,
        or an Activation/removal split (8.1.2: VC before NVA; decision F-75)."""
        counts = self.opts(decision, "count")
        step = decision.context.get("step")
        if step == "split":
            a = min(counts, key=lambda a: a["n"])
            self.why("8.1.2", f"{a.label}: VC pieces before NVA ones (the fewest NVA possible)")
            return a
        want = self.movement_count(game, decision)
        if want is not None:
            a = min(counts, key=lambda a: (abs(a["n"] - want), -a["n"]))
            self.why(self.rule_for(decision), f"{a.label}: as many as the planned move needs ({want})")
            return a
        a = max(counts, key=lambda a: a["n"])
        self.why("8.1.1", f"{a.label}: to the maximum extent")
        return a

    def movement_count(self, game: FitlGame, decision: Decision) -> int | None:
        return self.memo().get("count_want")

    def on_yesno(self, game: FitlGame, decision: Decision) -> Action:
        step = decision.context.get("step")
        yes, no = self.first(decision, "yes"), self.first(decision, "no")
        if step == "aid":
            ok = game.board.tracks["aid"] <= 30
            self.why(
                "8.8.4", f"Advise: Aid {game.board.tracks['aid']} {'is 30 or less: +6 Aid' if ok else '> 30'}"
            )
            return yes if ok and yes else no or decision.options[0]
        self.why("8.1.1", f"{(yes or decision.options[0]).label}: act to the maximum extent")
        return yes or decision.options[0]

    # ------------------------------------------------------------------ Pivotal Events (8.4.6)
    def on_pivotal(self, game: FitlGame, decision: Decision) -> Action:
        """FITL-8.4.6: a Non-player plays its Pivotal Event only while a player faction is 1st Eligible."""
        row = game.data.cards[game.card]
        first = next((f for f in row.order if game.eligible.get(f)), None)
        if first and self.is_player_faction(game, first) and self.first(decision, "pivotal") is not None:
            self.why("8.4.6", f"{first} (a player) is 1st Eligible: play the Pivotal Event at once")
            return self.first(decision, "pivotal")  # type: ignore[return-value]
        self.why("8.4.6", "no player faction is 1st Eligible: keep the Pivotal Event")
        return self.first(decision, "no_pivotal") or decision.options[-1]

    @staticmethod
    def is_player_faction(game: FitlGame, faction: str) -> bool:
        """FITL-1.5 / FITL-8.0: a faction played by a person or a non-Non-player bot (the ``non_players`` option,
        when given, names the Non-players)."""
        named = list((getattr(game, "rules_opts", {}) or {}).get("non_players") or [])
        if named:
            return faction not in named
        p = game.players.get(faction, "default")
        return p is None or (p != "default" and not isinstance(p, NonPlayerBase))

    @staticmethod
    def cap(game: FitlGame, card: int, side: str) -> bool:
        """A Capability (FITL-5.3) is in effect on ``side`` ("unshaded"/"shaded"): the flowcharts' Capability
        notes (e.g. FITL-8.8.3 Cobras/Abrams, FITL-8.5.4 Booby Traps, FITL-8.6.4 AAA)."""
        return (getattr(game, "capabilities", {}) or {}).get(str(card)) == side

    # ------------------------------------------------------------------ shared board facts
    @staticmethod
    def pop(game: FitlGame, s: str) -> int:
        return game.data.spaces[s].population

    @staticmethod
    def svn(game: FitlGame, s: str) -> bool:
        return game.data.spaces[s].country == "SVN"

    @staticmethod
    def insurgents(game: FitlGame, s: str) -> int:
        return game.board.count(s, "NVA") + game.board.count(s, "VC")

    @staticmethod
    def coin(game: FitlGame, s: str) -> int:
        return game.board.count(s, "US") + game.board.count(s, "ARVN")

    @staticmethod
    def spaces(game: FitlGame) -> list[str]:
        return sorted(game.data.spaces)
