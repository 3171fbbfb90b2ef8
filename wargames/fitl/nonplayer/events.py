"""Fire in the Lake Non-players executing Events: the choices a card leaves open (rules 8.4, 8.4.3-8.4.5, 8.4.7).

The Event interpreter (``wargames/fitl/events``) asks the chooser three kinds of question: which piece
(``event_piece``), which space (``event_space``) and which option (``event_choice``).  A Non-player answers them
here, by the rules' defaults, and says which rule chose:

* FITL-8.4.3 Event placement: place, remove or move as many pieces as the card allows (a Non-player never stops an
  "up to" Event early); US and ARVN take friendly pieces from Out of Play first, then Casualties, then Available.
* FITL-8.4.4 who, what and where: benefits go to the executing faction, then its friend, then an enemy (a
  Non-player before a player); US and ARVN raise Aid and ARVN Resources, NVA and VC lower them; ARVN raises
  Patronage, the others lower it.  Spaces are chosen so that as many Bases, then other pieces, as possible are
  placed, removed or replaced; enemy pieces go by the 8.1.2 priorities, and where friendly pieces must go, the
  other faction's go first.  A choice among Special Activities follows the faction's flowchart.  Otherwise a space
  is chosen at random (8.2.3, decision F-70).
* FITL-8.4.5 Support/Opposition shifts: VC for the highest gain in Total Opposition, then the highest loss in Total
  Support; NVA for the highest loss in Total Support, then the least gain in Total Opposition; ARVN for the highest
  loss in Total Opposition, then the least gain in Total Support; US for the highest gain in Total Support, then
  the highest loss in Total Opposition.
* FITL-8.4.7: anything else is an equal-chance pick (``NonPlayerBase.fallback``, decision F-74).

How we read the defaults where a card's data leaves a gap is decision F-163 (``data/fitl/decisions.csv``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...core.actions import Action, Decision
from ..data import COIN
from ..events.words import expand_keys, expand_pids
from ..state import piece_id
from .priorities import PIECE_TIER, best_action, random_pick, target_priority

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame

FRIEND = {"US": "ARVN", "ARVN": "US", "NVA": "VC", "VC": "NVA"}
PREFIX = {"us_": "US", "arvn_": "ARVN", "nva_": "NVA", "vc_": "VC"}
#: FITL-8.4.3: where Non-player US and ARVN take friendly pieces from (higher first)
SOURCE_RANK = {"out_of_play": 2, "casualties": 1, "available": 0}
BOX_GOOD = {"available": 1, "casualties": -1, "out_of_play": -1}


def piece_faction(key: str) -> str:
    """The faction owning a piece key or force-pool id (``arvn_troops`` -> ARVN)."""
    return next((f for p, f in PREFIX.items() if key.startswith(p)), "")


def support_change(pop: int, old: int, new: int) -> tuple[int, int]:
    """FITL-1.6 / 7.2: how a shift from ``old`` to ``new`` in a space of population ``pop`` changes Total Support
    and Total Opposition (Active levels count double)."""
    return pop * (max(new, 0) - max(old, 0)), pop * (max(-new, 0) - max(-old, 0))


def shift_key(faction: str, d_support: int, d_opposition: int) -> tuple[int, int]:
    """FITL-8.4.5: the faction's preference for a shift (higher first)."""
    if faction == "VC":
        return d_opposition, -d_support
    if faction == "NVA":
        return -d_support, -d_opposition
    if faction == "ARVN":
        return -d_opposition, -d_support
    return d_support, -d_opposition  # US


SHIFT_WHY = {
    "VC": "the highest gain in Total Opposition, then the highest loss in Total Support",
    "NVA": "the highest loss in Total Support, then the least gain in Total Opposition",
    "ARVN": "the highest loss in Total Opposition, then the least gain in Total Support",
    "US": "the highest gain in Total Support, then the highest loss in Total Opposition",
}


def walk_steps(steps: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every step of a card side, nested ones included (choose options, if branches, foreach bodies)."""
    for st in steps or []:
        yield st
        for o in st.get("options", []) or []:
            yield from walk_steps(o.get("steps", []))
        for key in ("then", "else", "steps"):
            if isinstance(st.get(key), list):
                yield from walk_steps(st[key])


def names_var(where: Any, names: set[str]) -> bool:
    """Whether a space filter confines a step to the spaces of one of the variables ``names``."""
    if not isinstance(where, dict):
        return False
    if where.get("var_spaces") in names:
        return True
    return any(names_var(w, names) for w in where.get("any", []) or [])


class EventChoices:
    """Mixin for :class:`NonPlayerBase`: answers the Event interpreter's questions by FITL-8.4.3 to 8.4.5."""

    faction: str

    # ------------------------------------------------------------------ who benefits (8.4.4)
    def benefit_rank(self, game: FitlGame, faction: str | None) -> int:
        """FITL-8.4.4: the executing faction (4), its friend (3), nobody named (2), an enemy Non-player (1), an
        enemy played by a person (0)."""
        if not faction:
            return 2
        if faction == self.faction:
            return 4
        if faction == FRIEND.get(self.faction):
            return 3
        return 0 if self.is_player_faction(game, faction) else 1  # type: ignore[attr-defined]

    def is_enemy(self, faction: str) -> bool:
        return bool(faction) and (faction in COIN) != (self.faction in COIN)

    def track_sign(self, track: str) -> int:
        """FITL-8.4.4: +1 when the faction wants ``track`` up, -1 down, 0 when the rules say nothing."""
        coin = self.faction in COIN
        if track in ("aid", "arvn_resources"):
            return 1 if coin else -1
        if track == "patronage":
            return 1 if self.faction == "ARVN" else -1
        if track == "trail":
            return -1 if coin else 1
        return 0

    def _step_value(self, st: dict[str, Any], coin: int) -> tuple[list[str], int, int, int, int]:
        """One step of an Event option as :meth:`option_value` weighs it: the factions it names as benefiting, its
        Aid/Resources/Patronage direction, Support shift (+1 toward this faction's side), pieces gained or taken
        from enemies, and the number it sets (0: none)."""
        do = st.get("do")
        if do in ("free_op", "free_sa"):
            return [st.get("faction", self.faction)], 0, 0, 0, 0
        if do == "hook" and st.get("by"):
            return [st["by"]], 0, 0, 0, 0
        if do == "track":
            delta = st.get("delta", 0)
            sign = (delta > 0) - (delta < 0) if isinstance(delta, int) else 0
            owner = st["track"].split("_")[0].upper()
            named = [owner] if st["track"].endswith("_resources") and owner != "ARVN" and sign > 0 else []
            return named, sign * self.track_sign(st["track"]), 0, 0, 0
        if do == "support":
            shift = st.get("shift", 0)
            return [], 0, coin * ((shift > 0) - (shift < 0) if isinstance(shift, int) else 0), 0, 0
        if do in ("place", "box") and st.get("to", "available") == "available":
            facs = {piece_faction(p) for p in expand_pids(st.get("pieces", []))}
            n = st.get("n", 1)
            return sorted(facs), 0, 0, n if isinstance(n, int) else 1, 0
        if do == "remove":
            facs = {piece_faction(k) for k in expand_keys(st.get("pieces", []))}
            n = st.get("n", 1)
            n = n if isinstance(n, int) else 1
            return [], 0, 0, n if all(self.is_enemy(f) for f in facs) else -n, 0
        if do == "set" and isinstance(st.get("value"), int):
            return [], 0, 0, 0, st["value"]
        return [], 0, 0, 0, 0

    def option_value(self, game: FitlGame, steps: list[dict[str, Any]]) -> tuple[int, int, int, int, int]:
        """FITL-8.4.4: how much one option of a card's choice is worth to this faction, compared left to right:
        who benefits, the direction of Aid/Resources/Patronage, Support shifts (8.4.5's side), pieces gained or
        taken from enemies, then the larger number (as many as possible, 8.4.3)."""
        who, track, support, pieces, number = 2, 0, 0, 0, 0
        named: list[str] = []
        coin = 1 if self.faction in COIN else -1
        for st in walk_steps(steps):
            more, t, su, p, num = self._step_value(st, coin)
            named += more
            track += t
            support += su
            pieces += p
            number = max(number, num)
        if named:
            who = max(self.benefit_rank(game, f) for f in named)
        return who, track, support, pieces, number

    # ------------------------------------------------------------------ the three questions
    def on_event_piece(self, game: FitlGame, decision: Decision) -> Action | None:
        """FITL-8.4.3 / 8.4.4: which piece an Event places, removes, flips, tunnels or moves."""
        picks = [a for a in decision.options if a.kind == "pick"]
        if not picks:
            return None
        step = decision.context.get("step")
        stop = " (never stopping early, 8.4.3)" if any(a.kind == "stop" for a in decision.options) else ""
        if step == "place":
            a = best_action(game, self.faction, picks, lambda a: self.place_key(game, a))
            src = a["key"].partition("@")[2]
            extra = f"; from {src.replace('_', ' ')} first (8.4.3)" if src else ""
            self.why(
                "8.4.3",
                f"{a.label}: as many pieces as allowed, Bases first, for the faction that benefits "
                f"(8.4.4){extra}{stop}",
            )  # type: ignore[attr-defined]
            return a
        if step == "remove":
            a = best_action(game, self.faction, picks, lambda a: self.remove_key(game, a))
            who = piece_faction(a["key"])
            how = (
                "an enemy piece by the 8.1.2 priorities (Bases first)"
                if self.is_enemy(who)
                else "a friendly piece must go: the other faction's first"
            )
            self.why("8.4.4", f"{a.label}: {how}{stop}")  # type: ignore[attr-defined]
            return a
        if step == "flip":
            a = best_action(game, self.faction, picks, lambda a: self.flip_key(game, a))
            self.why(
                "8.4.4", f"{a.label}: enemies are Activated, friends go Underground, own pieces first{stop}"
            )  # type: ignore[attr-defined]
            return a
        if step == "tunnel":
            a = best_action(game, self.faction, picks, lambda a: self.tunnel_key(game, a))
            self.why("8.4.4", f"{a.label}: own Bases first, in the space with the most of them{stop}")  # type: ignore[attr-defined]
            return a
        if step in ("move", "move_from"):
            a = best_action(game, self.faction, picks, lambda a: (PIECE_TIER.get(piece_id(a["key"]), 0),))
            self.why(
                "8.4.4",
                f"{a.label}: as many Bases, then other pieces, as possible are moved; the space at "
                f"random (8.2.3){stop}",
            )  # type: ignore[attr-defined]
            return a
        return None

    def place_key(self, game: FitlGame, a: Action) -> tuple[int, int, int]:
        pid, _, box = a["key"].partition("@")
        pid = piece_id(pid)
        fac = piece_faction(pid)
        src = SOURCE_RANK.get(box, 0) if fac in COIN and not self.is_enemy(fac) else 0
        return self.benefit_rank(game, fac), 1 if PIECE_TIER.get(pid) == 3 else 0, src

    def remove_key(self, game: FitlGame, a: Action) -> tuple[int, ...]:
        fac = piece_faction(a["key"])
        if self.is_enemy(fac):
            return (2, *target_priority(game, a["space"], a["key"]))
        mine = 0 if fac == self.faction else 1  # FITL-8.4.4: remove the other faction's pieces first
        return (mine, -PIECE_TIER.get(piece_id(a["key"]), 0), 0, 0, 0)

    def flip_key(self, game: FitlGame, a: Action) -> tuple[int, ...]:
        fac = piece_faction(a["key"])
        to_active = a["key"].endswith(":u")
        if to_active:
            return (1 if self.is_enemy(fac) else 0, *target_priority(game, a["space"], a["key"]))
        return (0 if self.is_enemy(fac) else self.benefit_rank(game, fac), 0, 0, 0, 0)

    def tunnel_key(self, game: FitlGame, a: Action) -> tuple[int, int, int]:
        """FITL-8.4.4 (the Cu Chi example): own Tunnels first; a space with 2 own untunneled Bases, then 1 own and
        1 of the friend's, then 1 own."""
        fac = piece_faction(a["key"])
        here = game.board.pieces[a["space"]]
        own = here[f"{self.faction.lower()}_bases"] if self.faction in ("NVA", "VC") else 0
        return (1 if fac == self.faction else 0, own, here["nva_bases"] + here["vc_bases"])

    def on_event_space(self, game: FitlGame, decision: Decision) -> Action | None:
        """FITL-8.4.4 / 8.4.5: which space an Event works in."""
        spaces = [a for a in decision.options if a.kind == "space"]
        if not spaces:
            return None
        step = decision.context.get("step")
        if step == "support":
            levels = decision.context.get("levels") or {}
            a = best_action(
                game, self.faction, spaces, lambda a: self.shift_value(game, a["space"], *levels[a["space"]])
            )
            self.why("8.4.5", f"{a.label}: {SHIFT_WHY[self.faction]}")  # type: ignore[attr-defined]
            return a
        if step == "pacify":
            a = best_action(game, self.faction, spaces, lambda a: self.event_pacify_value(game, a))
            self.why(
                "8.4.5",
                f"{a.label}: {SHIFT_WHY[self.faction]} (Terror first where it blocks the shift); "
                "as many steps as allowed (8.4.3)",
            )  # type: ignore[attr-defined]
            return a
        if step == "select":
            card, side = decision.context.get("card"), decision.context.get("event_side")
            var = decision.context.get("var", "selected")
            body = (game.event_entry(card) or {}).get(side) or {}
            a = best_action(
                game,
                self.faction,
                spaces,
                lambda a: self.select_value(game, body.get("steps", []), var, a["space"]),
            )
            self.why(
                "8.4.4",
                f"{a.label}: the space where the Event shifts the most Support in its favour (8.4.5), "
                "then places, removes or replaces the most Bases, then other pieces",
            )  # type: ignore[attr-defined]
            return a
        s = random_pick(game, self.faction, [a["space"] for a in spaces], "event space")
        a = next(a for a in spaces if a["space"] == s)
        self.why("8.4.4", f"{a.label}: no priority applies, so a random space (8.2.3)")  # type: ignore[attr-defined]
        return a

    def shift_value(self, game: FitlGame, space: str, old: int, new: int) -> tuple[int, int]:
        return shift_key(self.faction, *support_change(game.data.spaces[space].population, old, new))

    def event_pacify_value(self, game: FitlGame, a: Action) -> tuple[int, int, int]:
        """FITL-8.4.5 for a Pacify step of an Event (cards 64, 96): a Terror marker first where it blocks the
        shift, else the Support shift by 8.4.5.  (Its own name: the US Non-player has a pacify_value of its own,
        for 8.8.7, which this must not shadow or be shadowed by.)"""
        s = a["space"]
        if game.board.terror[s]:
            return (0, 0, 1)
        lvl = game.board.support[s]
        return (*self.shift_value(game, s, lvl, min(2, lvl + 1)), 0)

    def select_value(
        self, game: FitlGame, steps: list[dict[str, Any]], var: str, space: str
    ) -> tuple[int, int, int, int, int]:
        """FITL-8.4.4: what the card's later steps on the selected spaces would do in ``space``: the Support shift
        by 8.4.5, then Bases (the faction's own first, as the Cu Chi example tunnels VC Bases first), then other
        pieces placed, removed, moved or replaced (friendly removals count against)."""
        names = {var}
        for st in walk_steps(steps):
            if st.get("do") == "foreach" and st.get("var") == var:
                names.add(st.get("as", "here"))
        d1 = d2 = bases = own = others = 0
        mine = f"{self.faction.lower()}_bases"
        here = game.board.pieces[space]
        for st in walk_steps(steps):
            where = st.get("where") or st.get("from_where") or st.get("to_where")
            if not names_var(where, names):
                continue
            do = st.get("do")
            n = st.get("n", 1)
            cap = n if isinstance(n, int) else 99
            if do == "support":
                old = game.board.support[space]
                new = int(st["set"]) if "set" in st else max(-2, min(2, old + int(st.get("shift", 0))))
                k1, k2 = self.shift_value(game, space, old, new)
                d1, d2 = d1 + k1, d2 + k2
            elif do in ("remove", "flip", "move"):
                for k in expand_keys(st.get("pieces", [])):
                    got = min(here[k], cap)
                    sign = -1 if do == "remove" and not self.is_enemy(piece_faction(k)) else 1
                    if PIECE_TIER.get(piece_id(k)) == 3:
                        bases += sign * got
                        own += sign * got if piece_id(k) == mine else 0
                    else:
                        others += sign * got
            elif do == "place":
                for p in expand_pids(st.get("pieces", [])):
                    if game.board.available[p] and game.ev_can_stack(space, p):
                        if PIECE_TIER.get(p) == 3:
                            bases += 1
                            own += 1 if p == mine else 0
                        else:
                            others += min(game.board.available[p], cap)
            elif do == "tunnel":
                bases += here["nva_bases"] + here["vc_bases"]
                own += here[mine] if mine in ("nva_bases", "vc_bases") else 0
        return d1, d2, bases, own, others

    def on_event_choice(self, game: FitlGame, decision: Decision) -> Action | None:
        """FITL-8.4.4: which option of a card's choice (who benefits, which way the tracks go), which box moves
        which piece, which Special Activity."""
        opts = [a for a in decision.options if a.kind == "option"]
        if not opts:
            return None
        step = decision.context.get("step")
        if step == "choose":
            all_steps = decision.context.get("option_steps") or []
            a = best_action(
                game, self.faction, opts, lambda a: self.option_value(game, all_steps[a["index"]])
            )
            self.why(
                "8.4.4",
                f"{a.label}: benefits go to the executing faction, then its friend, then an enemy "
                f"(Non-player first); Aid, ARVN Resources and Patronage moved the faction's way; "
                f"as much as allowed (8.4.3)",
            )  # type: ignore[attr-defined]
            return a
        if step in ("box", "replace"):
            good = BOX_GOOD.get(decision.context.get("box_to", "available"), 1)
            a = best_action(
                game,
                self.faction,
                opts,
                lambda a: (
                    good * self.benefit_rank(game, piece_faction(a["piece"])),
                    PIECE_TIER.get(a["piece"], 0),
                ),
            )
            self.why(
                "8.4.4",
                f"{a.label}: {'a gain goes to' if good > 0 else 'a loss falls on'} the faction "
                "8.4.4 names first",
            )  # type: ignore[attr-defined]
            return a
        if (
            step == "desert"
        ):  # FITL-2.4.1 Failed Attempt: the ARVN keeps its Troops, Police desert first (F-108)
            a = min(opts, key=lambda a: a.get("troops", 0))
            self.why("8.4.4", f"{a.label}: Police desert before Troops, the more valuable cube (F-108)")  # type: ignore[attr-defined]
            return a
        if step == "free_sa":
            plan = self.plan(game, False)  # type: ignore[attr-defined]
            offered = {a["sa"]: a for a in opts}
            pick = next((offered[s] for s in plan.sas if s in offered), None)
            if pick is not None:
                self.why(
                    "8.4.4",
                    f"{pick.label}: the Special Activity the flowchart would choose now ({plan.reason})",
                )  # type: ignore[attr-defined]
            return pick
        return None
