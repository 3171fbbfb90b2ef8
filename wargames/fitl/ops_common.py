"""Fire in the Lake: what every Operation and Special Activity shares (rules 1.3-1.8, 3.1, 4.1).

* space kinds and countries: FITL-1.3.5 (Laos and Cambodia), FITL-1.4.2 (no US/ARVN piece in North Vietnam,
  at most 2 Bases in a Province or City, none on a LoC);
* paying: FITL-3.1 (Resources space by space, never Aid or Patronage), FITL-1.8.1 (the US spends only the ARVN
  Resources above Total Econ), FITL-3.1.2 (free Operations pay nothing but Pacify and Trail Improvement);
* taking a piece to place: FITL-1.4.1 (from Available, else from the map: decision F-51);
* Underground/Active: FITL-1.4.3 (new Guerrillas and Special Forces arrive Underground);
* Support shifts: FITL-1.6 (only Provinces and Cities with Population);
* friends and enemies: FITL-1.5.1 (COIN Operations target NVA and VC pieces alike, Insurgent ones US and ARVN);
* removal: Troops first, Bases last and Tunnels for Assault (FITL-3.2.4, FITL-1.4.4), COIN Bases last and
  Casualties for Attack (FITL-3.3.3); chosen piece by piece through small decisions.

Helpers are methods of :class:`OpsCommon`, a mixin of the game (its small decisions, how many, where to, which
pieces, in :class:`~wargames.fitl.ops_choices.OpsChoices`), so they see ``self.board``, ``self.data``,
``self.ruling`` and ``self.decide``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any

from ..core import Action, IllegalAction
from .data import COIN, INSURGENTS, LEVEL_NAMES
from .ops_choices import DONE, Flow, OpsChoices
from .state import piece_id

TERROR_MARKERS = 15  # FITL-3.3.4 / decision F-09

STATE_WORDS = {"u": "Underground ", "a": "Active ", "t": "Tunneled ", "": ""}
CUBES = {"US": ("us_troops",), "ARVN": ("arvn_troops", "arvn_police")}
SPECIAL_FORCES = {"US": "us_irregulars", "ARVN": "arvn_rangers"}
GUERRILLAS = {"NVA": "nva_guerrillas", "VC": "vc_guerrillas"}
BASES = {"US": "us_bases", "ARVN": "arvn_bases", "NVA": "nva_bases", "VC": "vc_bases"}
INSURGENT_KEYS = (
    "nva_troops",
    "nva_guerrillas:a",
    "nva_guerrillas:u",
    "vc_guerrillas:a",
    "vc_guerrillas:u",
    "nva_bases",
    "nva_bases:t",
    "vc_bases",
    "vc_bases:t",
)
COIN_KEYS = (
    "us_troops",
    "arvn_troops",
    "arvn_police",
    "us_irregulars:a",
    "us_irregulars:u",
    "arvn_rangers:a",
    "arvn_rangers:u",
    "us_bases",
    "arvn_bases",
)


def is_base(key: str) -> bool:
    return piece_id(key).endswith("_bases")


class OpsCommon(OpsChoices):
    """Mixin: helpers shared by the Operations and Special Activities (FITL-3.1, FITL-4.1)."""

    board: Any
    data: Any
    monsoon: bool

    # ------------------------------------------------------------------ lasting effects (5.3, 5.4)
    def lasting(self, card: int, side: str | None = None) -> str:
        """FITL-5.3 / FITL-5.4: the words naming Capability or Momentum ``card`` (on ``side``) when it is in effect
        now, e.g. "Momentum #72 Body Count", else "" (so ``if self.lasting(72):`` reads as a test).  Rows
        FITL-5.3-CAPS and FITL-5.4-MOM: the rulings they change name them in brackets (decision F-150)."""
        caps = self.__dict__.get("capabilities") or {}
        got = caps.get(str(card))
        if got is not None and (side is None or got == side):
            return f"Capability #{card} {self.data.cards[card].title}" + (
                " (shaded)" if got == "shaded" else ""
            )
        momentum_active = getattr(self, "momentum_active", None)
        if momentum_active is not None and momentum_active(card, side):
            return f"Momentum #{card} {self.data.cards[card].title}"
        return ""

    @staticmethod
    def in_scope(ctx: OpCtx, space: str) -> bool:
        """FITL-5.1.1 (decision F-111): an Event's free Operation may be confined to named spaces
        (``operation(..., spaces=...)``): its selected spaces and destinations must be among them."""
        if ctx.max_spaces is not None and space not in ctx.spaces and len(ctx.spaces) >= ctx.max_spaces:
            return False
        return ctx.allowed is None or space in ctx.allowed

    def leader_effect(self, card: int | str) -> str:
        """FITL-2.4.1: the words naming RVN Leader ``card`` (125 Khanh, 126 Young Turks, 127 Ky, or "minh") when its
        lasting effect is in force now (the current leader, not flipped by an Event), else ""."""
        lead = self.__dict__.get("leader_box")
        if lead is None:
            return ""
        if card == "minh":
            return "RVN Leader Duong Van Minh" if not lead else ""
        active = getattr(self, "leader_active", None)
        if active is not None and active(card):
            return f"RVN Leader {self.data.cards[int(card)].title}"
        return ""

    def lasting_limit(self, limit: int, *effects: tuple[int, str | None, int]) -> tuple[int, str]:
        """FITL-5.3 / FITL-5.4: ``limit`` lowered (or raised) by the first of ``effects`` ((card, side, new
        limit)) in effect; returns (limit, words naming it, or "")."""
        for card, side, new in effects:
            words = self.lasting(card, side)
            if words:
                return new, f" [{words}: at most {new}]"
        return limit, ""

    # ------------------------------------------------------------------ names and space facts (1.3)
    def sname(self, space: str) -> str:
        return self.data.spaces[space].name

    def kname(self, key: str, n: int = 1) -> str:
        """Plain words for ``n`` pieces of ``key`` ("2 Underground VC Guerrillas")."""
        pid = piece_id(key)
        st = key.split(":", 1)[1] if ":" in key else ""
        name = self.data.pieces[pid].name
        if n == 1 and name.endswith("s") and not name.endswith("Police"):
            name = name[:-1]
        return f"{n} {STATE_WORDS[st]}{name}"

    def pieces_text(self, removed: Iterable[tuple[str, str]] | dict[str, int]) -> str:
        counts: dict[str, int] = {}
        items = removed.items() if isinstance(removed, dict) else ((k, 1) for _, k in removed)
        for k, n in items:
            counts[k] = counts.get(k, 0) + n
        return ", ".join(self.kname(k, n) for k, n in counts.items() if n) or "nothing"

    def kind(self, space: str) -> str:
        return self.data.spaces[space].kind

    def is_loc(self, space: str) -> bool:
        """FITL-1.3.4: LoCs are spaces (they hold forces) with Econ, never Bases or Support."""
        return self.kind(space) == "loc"

    def is_city(self, space: str) -> bool:
        """FITL-1.3.3: Cities (ARVN Train there, Police count in their Assaults)."""
        return self.kind(space) == "city"

    def is_pc(self, space: str) -> bool:
        """A Province or City (not a LoC)."""
        return self.kind(space) != "loc"

    def in_nvn(self, space: str) -> bool:
        """FITL-1.4.2: only NVA and VC may stand in North Vietnam."""
        return self.data.spaces[space].country == "NVN"

    def in_laos_cambodia(self, space: str) -> bool:
        """FITL-1.3.5: Central and Southern Laos and the four Cambodian Provinces."""
        return self.data.spaces[space].country in ("LAO", "KHM")

    def terrain(self, space: str) -> str:
        """FITL-1.3.2: a Province's terrain (Highland, Lowland, Jungle) for Sweep and Assault."""
        return self.data.spaces[space].terrain or ""

    def pop(self, space: str) -> int:
        return self.data.spaces[space].population

    def econ(self, space: str) -> int:
        return self.data.spaces[space].econ

    def adjacent(self, space: str) -> list[str]:
        """FITL-1.3.6: adjacent spaces (touching, across a LoC, or across a town), sorted."""
        return list(self.data.sorted_adjacent[space])

    def spaces(self) -> list[str]:
        return list(self.data.spaces)

    def insurgent_pieces(self, space: str) -> int:
        _coin, nva, vc = self.board.sides_count(space)
        return nva + vc

    def coin_pieces(self, space: str) -> int:
        return self.board.sides_count(space)[0]

    def n(self, space: str, key: str) -> int:
        return self.board.pieces[space].get(key, 0)

    def markers_left(self) -> int:
        """FITL-3.3.4: Terror and Sabotage markers not yet on the map (15 in all, F-09)."""
        return TERROR_MARKERS - sum(self.board.terror.values()) - len(self.board.sabotage)

    # ------------------------------------------------------------------ explained changes (decision F-41)
    def note_change(self, change: dict[str, Any]) -> None:
        """Keep a track or Support change for the next ruling's ``changes`` (F-41), in the core's journal
        (``Journal.note``: the game keeps no change list of its own, issue #29 item 2)."""
        self._journal.note(change)

    def take_changes(self) -> list[dict[str, Any]]:
        """The track and Support changes kept since the last Operation ruling (F-41); they are taken."""
        return self._journal.take_notes()

    def pending_changes(self) -> bool:
        """Whether track or Support changes wait for a ruling to name them (F-41)."""
        return bool(self._journal.notes)

    def oruling(self, rule_id: str, title: str, explanation: str, **kw: Any) -> Any:
        """A ruling carrying every track/Support change made since the previous one (F-41)."""
        kw.pop("changes", None)
        return self.ruling(rule_id, title, explanation, changes=self.take_changes(), **kw)

    def flush(self, rule: str) -> Flow:
        """Before a decision: a ruling for any track/Support change not yet explained (F-41, decision F-68)."""
        pending = self._journal.notes
        if pending:
            words = "; ".join(
                f"{self.data.tracks[c['track']].name} {c['from']} -> {c['to']}"
                if "track" in c
                else f"{self.sname(c['support'])} {self.level(c['from'])} -> {self.level(c['to'])}"
                for c in pending
            )
            yield self.oruling(rule, "Paid", f"So far: {words}.", result={"changes": len(pending)})

    def track(self, track: str, delta: int) -> int:
        """FITL-1.8: move a track within its range; returns the change made (recorded for the ruling)."""
        old = self.board.tracks[track]
        done = self.board.shift_track(track, delta)
        if done:
            self.note_change({"track": track, "from": old, "to": self.board.tracks[track]})
        return done

    # ------------------------------------------------------------------ Support (1.6)
    def shift_support(self, space: str, delta: int) -> tuple[int, int]:
        """FITL-1.6.1: shift a populated Province or City ``delta`` levels (clamped); returns (old, new)."""
        old = self.board.support[space]
        if not self.is_pc(space) or self.pop(space) == 0:
            return old, old
        new = max(-2, min(2, old + delta))
        self.board.support[space] = new
        if new != old:
            self.note_change({"support": space, "from": old, "to": new})
        return old, new

    @staticmethod
    def level(v: int) -> str:
        return LEVEL_NAMES[v]

    # ------------------------------------------------------------------ Resources (1.8, 1.8.1, 3.1, 3.1.2)
    def spendable(self, faction: str) -> int:
        """FITL-1.8.1: ARVN spend all ARVN Resources; the US only those above Total Econ."""
        t = self.board.tracks
        if faction == "US":
            return max(0, t["arvn_resources"] - t["econ"])
        return t[f"{faction.lower()}_resources"]

    def can_pay(self, faction: str, cost: int, free: bool = False) -> bool:
        return free or cost <= 0 or self.spendable(faction) >= cost

    def pay(self, faction: str, cost: int, free: bool, rule: str, what: str) -> str:
        """FITL-3.1: pay ``cost`` (ARVN Resources for US and ARVN); returns the words for the ruling.

        Raises IllegalAction (naming ``rule``) when the faction cannot pay: FITL-1.8.1 for the US (decision F-65)."""
        if free or cost <= 0:
            return "no Resources (free)" if free and cost > 0 else "no Resources"
        if not self.can_pay(faction, cost):
            rid = "FITL-1.8.1" if faction == "US" else rule
            raise IllegalAction(
                rid,
                f"{faction} cannot pay {cost} Resources for {what} (can spend {self.spendable(faction)}).",
            )
        track = "arvn_resources" if faction in COIN else f"{faction.lower()}_resources"
        old = self.board.tracks[track]
        self.track(track, -cost)
        who = "ARVN" if faction in COIN else faction
        return f"{faction} pays {cost} {who} Resources ({old} -> {old - cost})"

    # ------------------------------------------------------------------ placing (1.4.1, 1.4.2)
    def obtainable(self, pid: str, faction: str, exclude: str | None = None) -> int:
        """FITL-1.4.1: pieces of ``pid`` the faction could place: Available, else from the map (not US Troops
        or Bases for the US)."""
        n = self.board.available[pid]
        if pid in ("us_troops", "us_bases"):
            return n
        on_map = self.board.on_map(pid)
        return (
            n
            + on_map
            - (self._on(exclude, pid) if exclude is not None and exclude in self.board.pieces else 0)
        )

    def _on(self, space: str, pid: str) -> int:
        return self.board.on_space(space, pid)

    def make_available(self, pid: str, n: int, exclude: str | None = None) -> list[str]:
        """FITL-1.4.1 / decision F-51: when fewer than ``n`` are Available, bring the rest from the map: from
        the space holding most of them (Active before Underground, untunneled before Tunneled; ties by id),
        never from ``exclude``.  Returns the words for the ruling."""
        notes: list[str] = []
        need = n - self.board.available[pid]
        while need > 0:
            holders = sorted(
                (s for s in self.spaces() if s != exclude and self._on(s, pid)),
                key=lambda s: (-self._on(s, pid), s),
            )
            if not holders:
                raise IllegalAction("FITL-1.4.1", f"no {pid} left Available or on the map")
            s = holders[0]
            for key in (f"{pid}:a", pid, f"{pid}:u", f"{pid}:t"):
                if self.n(s, key):
                    k = min(need, self.n(s, key))
                    self.board.remove(s, key, k)
                    notes.append(f"{self.kname(key, k)} taken from {self.sname(s)} (none Available, 1.4.1)")
                    need -= k
                    break
        return notes

    def place(self, space: str, pid: str, n: int) -> list[str]:
        """Place ``n`` pieces (arriving Underground if Guerrillas or SF, FITL-1.4.3); F-51 if not Available."""
        if n <= 0:
            return []
        notes = self.make_available(pid, n, exclude=space)
        if pid.endswith("_bases") and self.board.count(space, ptype="bases") + n > 2:
            raise IllegalAction("FITL-1.4.2", f"at most 2 Bases may stand in {self.sname(space)}")
        if pid.endswith("_bases") and self.is_loc(space):
            raise IllegalAction("FITL-1.4.2", "Bases may not stand on a LoC")
        if self.in_nvn(space) and self.data.pieces[pid].faction in COIN:
            raise IllegalAction("FITL-1.4.2", "US and ARVN pieces may not enter North Vietnam")
        self.board.place(space, pid, n)
        return notes

    def base_room(self, space: str) -> bool:
        """FITL-1.4.2: a Province or City with fewer than 2 Bases."""
        return self.is_pc(space) and self.board.count(space, ptype="bases") < 2

    def remove_to(self, space: str, key: str, n: int = 1, *, casualties: bool = False) -> str:
        """Remove pieces: US pieces to Casualties when ``casualties`` (FITL-3.3.3), else to Available
        (FITL-1.4.1); a Tunneled Base loses its marker with it (FITL-1.4.4)."""
        to = "casualties" if casualties and piece_id(key).startswith("us_") else "available"
        self.board.remove(space, key, n, to=to)
        return to

    # ------------------------------------------------------------------ Activation (1.4.3, 3.2.2, 3.2.3)
    def activate_enemy(self, side: str, space: str, n: int, rule: str, **context: Any) -> Flow:
        """Activate up to ``n`` Underground NVA/VC Guerrillas in ``space`` (the executing faction chooses which
        when both are there); returns {key: n} flipped."""
        u_nva, u_vc = self.n(space, "nva_guerrillas:u"), self.n(space, "vc_guerrillas:u")
        k = min(n, u_nva + u_vc)
        if k <= 0:
            return {}
        a = yield from self.split_pick(
            side, space, rule, k, "nva_guerrillas:u", "vc_guerrillas:u", "Activate", **context
        )
        out = {}
        if a:
            self.board.flip(space, "nva_guerrillas", "a", a)
            out["nva_guerrillas:u"] = a
        if k - a:
            self.board.flip(space, "vc_guerrillas", "a", k - a)
            out["vc_guerrillas:u"] = k - a
        return out

    # ------------------------------------------------------------------ COIN removal of Insurgents (3.2.4)
    def assault_remove(self, side: str, space: str, n: int, rule: str, **context: Any) -> Flow:
        """FITL-3.2.4: remove up to ``n`` enemies: NVA Troops, then Active Guerrillas (chosen), then Bases once no
        NVA Troop or Guerrilla remains (untunneled first, decision F-53); a Tunneled Base stops removal and rolls a
        die (4-6: the Tunnel marker goes, FITL-1.4.4).  Every choice is asked before any piece moves (so a
        decision never waits on an unexplained change, F-41).  Returns (removed {key: n}, rolls, tunnel note)."""
        nva_only = bool(context.pop("nva_only", False))  # FITL-5.1.1: an Event's Assault on NVA only
        if context.pop("no_tunnels", False):  # FITL-5.1.1: "Tunnels ignored": Tunneled Bases go like others
            c = self.board.pieces[space]
            hidden = {t: c[t] for t in ("nva_bases:t", "vc_bases:t") if c[t]}
            for t, k in hidden.items():
                del c[t]
                c[piece_id(t)] += k
            try:
                return (yield from self.assault_remove(side, space, n, rule, nva_only=nva_only, **context))
            finally:
                for t, k in hidden.items():  # the Bases left keep their Tunnels (the removed ones lose them)
                    back = min(k, c[piece_id(t)])
                    if back:
                        c[piece_id(t)] -= back
                        if not c[piece_id(t)]:
                            del c[piece_id(t)]
                        c[t] += back

        def nn(s: str, key: str) -> int:
            return 0 if nva_only and key.startswith("vc_") else self.n(s, key)

        troops = min(n, nn(space, "nva_troops"))
        left = n - troops
        act_total = nn(space, "nva_guerrillas:a") + nn(space, "vc_guerrillas:a")
        act_k = min(left, act_total)
        a_nva = 0
        if act_k and nva_only:
            a_nva = act_k
        elif act_k:
            a_nva = yield from self.split_pick(
                side, space, rule, act_k, "nva_guerrillas:a", "vc_guerrillas:a", "Remove", **context
            )
        left -= act_k
        underground = nn(space, "nva_guerrillas:u") + nn(space, "vc_guerrillas:u")
        still = underground + act_total - act_k + nn(space, "nva_troops") - troops
        b_nva = base_k = 0
        tunnel_key = ""
        note = ""
        if left and still:
            if underground:
                note = "Underground Guerrillas remain, so no Base can be removed"
        elif left:
            base_k = min(left, nn(space, "nva_bases") + nn(space, "vc_bases"))
            if base_k and nva_only:
                b_nva = base_k
            elif base_k:
                b_nva = yield from self.split_pick(
                    side, space, rule, base_k, "nva_bases", "vc_bases", "Remove", **context
                )
            left -= base_k
            tunneled = [
                t for t in ("nva_bases:t", "vc_bases:t") if nn(space, t)
            ]  # (NVA only: VC ones hidden)
            if left and tunneled:
                tunnel_key = tunneled[0]
                if len(tunneled) > 1:
                    a = yield self.decide(
                        side,
                        f"Which Tunneled Base is next in {self.sname(space)}?",
                        "FITL-1.4.4",
                        [Action.make("piece", self.kname(x), [space], space=space, key=x) for x in tunneled],
                        kind="piece",
                        step="tunnel",
                        space=space,
                        **context,
                    )
                    tunnel_key = a["key"]
        removed: dict[str, int] = {}
        for key, k in (
            ("nva_troops", troops),
            ("nva_guerrillas:a", a_nva),
            ("vc_guerrillas:a", act_k - a_nva),
            ("nva_bases", b_nva),
            ("vc_bases", base_k - b_nva),
        ):
            if k > 0:
                self.board.remove(space, key, k)
                removed[key] = k
        rolls: list[Any] = []
        if tunnel_key:
            roll = self.dice.roll(6, purpose=f"Tunnel in {self.sname(space)} (4-6 removes the marker)")
            rolls.append(roll)
            if roll.value >= 4:
                c = self.board.pieces[space]
                c[tunnel_key] -= 1
                if not c[tunnel_key]:
                    del c[tunnel_key]
                c[piece_id(tunnel_key)] += 1
                note = (
                    f"a Tunneled Base stops the removal; die {roll.value} (4-6): its Tunnel marker is removed"
                )
            else:
                note = f"a Tunneled Base stops the removal; die {roll.value} (1-3): nothing more happens"
        return removed, rolls, note

    def strike_two(self, side: str, space: str, rule: str, **context: Any) -> Flow:
        """FITL-4.2.1 / FITL-4.3.3: a Special Force removes 2 enemy pieces (Underground Guerrillas too); Bases only
        once no other enemy piece is there; never a Tunneled Base (FITL-1.4.4)."""

        def legal() -> list[tuple[str, str]]:
            keys = [k for k in INSURGENT_KEYS if not is_base(k) and self.n(space, k)]
            if not keys:
                keys = [k for k in ("nva_bases", "vc_bases") if self.n(space, k)]
            return [(space, k) for k in keys]

        picked = yield from self.pick_pieces(
            side,
            f"Remove an enemy piece in {self.sname(space)}",
            rule,
            2,
            legal,
            lambda s, k: self.board.remove(s, k),
            optional=False,
            **context,
        )
        return picked

    # ------------------------------------------------------------------ Insurgent removal of COIN (3.3.3)
    def coin_targets(self, space: str) -> list[str]:
        """FITL-3.3.3: US/ARVN pieces that may be removed now: Bases only when no other US/ARVN piece remains."""
        keys = [k for k in COIN_KEYS if not is_base(k) and self.n(space, k)]
        if not keys:
            keys = [k for k in ("us_bases", "arvn_bases") if self.n(space, k)]
        return keys

    # ------------------------------------------------------------------ the SA during the Op (4.1, F-56)
    def choose_op_space(
        self,
        ctx: OpCtx,
        rule: str,
        prompt: str,
        cands: list[str],
        label: Callable[[str], str],
        may_end: bool = False,
    ) -> Generator[Any, Any, str | None]:
        """One round of an Operation's space choice (FITL-3.1, the same for all eight Operations that pick their
        spaces one at a time): the candidate spaces, the faction's Special Activity if it may be done now in the
        middle of the Op (FITL-4.1, :meth:`sa_during`), and "done" once a space is chosen (or when ``may_end``).

        Returns the chosen space; None when the faction is done or nothing is left to choose; "" after a
        Special Activity ran mid-Op (the caller looks at its candidate spaces again)."""
        act = yield from self.op_round(
            ctx,
            rule,
            prompt,
            [Action.make("space", label(s), [s], space=s) for s in cands],
            "space",
            bool(ctx.spaces) or may_end,
            check=lambda a: self.refuse_space(ctx, rule, a),
        )
        return "" if act is False else None if act is None else act["space"]

    def op_round(
        self,
        ctx: OpCtx,
        rule: str,
        prompt: str,
        opts: list[Action],
        kind: str,
        may_end: bool,
        check: Callable[[Action], IllegalAction | None] | None = None,
    ) -> Generator[Any, Any, Any]:
        """One choice inside an Operation (FITL-3.1): ``opts`` (spaces, or groups to move), the faction's Special
        Activity if it may be done now in the middle of the Op (FITL-4.1), and "done" when ``may_end``.

        Returns the chosen action; None when the faction is done or there is nothing to choose; False after a
        Special Activity ran mid-Op (the caller builds its options again)."""
        opts = opts + self.sa_during(ctx)
        if not opts:
            return None
        if may_end:
            opts.append(DONE)
        act = yield self.decide(
            ctx.faction,
            prompt,
            rule,
            opts,
            kind=kind,
            check=check,  # type: ignore[attr-defined]
            **ctx.context(step=kind),
        )
        if act.kind == "done":
            return None
        if act.kind == "sa":  # FITL-4.1: the Special Activity in the middle of the Op
            yield from self.special_activity(ctx, act["sa"])  # type: ignore[attr-defined]
            return False
        return act

    def sa_during(self, ctx: OpCtx) -> list[Action]:
        """FITL-4.1: while the Op runs (the faction chose "Op first"), its SA may be done now, once; offered
        beside the Op's space or move choices (Ambush is part of the Attack or follows the March instead)."""
        if not (ctx.sa_open and ctx.sa is None):
            return []
        from .operations import NAMES, SAS

        return [
            Action.make(
                "sa", f"{NAMES[sa]} now (Special Activity during the {NAMES[ctx.op]})", sa=sa, when="during"
            )
            for sa in SAS[ctx.faction]
            if sa != "ambush" and self.sa_possible(ctx, sa)
        ]  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ why a space is refused (for check=)
    def refuse_space(self, ctx: OpCtx, rule: str, action: Action) -> IllegalAction | None:
        """Explain, naming the rule, why ``action`` (a space choice not among the options) is illegal."""
        s = action.get("space")
        if action.kind != "space" or s not in self.data.spaces:
            return IllegalAction(rule, f"{action.label or action.to_json()} is not a space of the map")
        name = self.sname(s)
        if not self.in_scope(ctx, s) and s not in ctx.spaces:
            if ctx.allowed is not None and s not in ctx.allowed:
                return IllegalAction(
                    "FITL-5.1.1",
                    f"this Event confines the Operation to {', '.join(self.sname(x) for x in ctx.allowed)}",
                )
            return IllegalAction("FITL-5.1.1", f"this Event allows at most {ctx.max_spaces} space(s)")
        if s in ctx.spaces:
            return IllegalAction("FITL-3.1", f"{name} is already selected: each space once per Operation")
        if ctx.limited and ctx.spaces:
            return IllegalAction("FITL-2.3.5", "a Limited Operation uses just 1 space")
        if self.in_nvn(s) and ctx.faction in COIN:
            return IllegalAction("FITL-1.4.2", "US and ARVN never place or move pieces into North Vietnam")
        why = getattr(self, f"why_not_{ctx.op}", None)
        reason = why(ctx, s) if why else None
        if reason:
            return IllegalAction(*reason)
        return IllegalAction(rule, f"{name} is not a legal space for this {ctx.op} now")

    def refuse_move(self, ctx: OpCtx, rule: str, action: Action) -> IllegalAction:
        """Why a destination not offered is illegal: North Vietnam for US/ARVN (FITL-1.4.2), a Limited Op's single
        destination (FITL-2.3.5), else the movement rule itself."""
        d = action.get("space")
        if d in self.data.spaces and not self.in_scope(ctx, d) and ctx.sa is None:
            return IllegalAction(
                "FITL-5.1.1",
                f"this Event confines the Operation to {', '.join(self.sname(x) for x in ctx.allowed or ())}",
            )
        if d in self.data.spaces and self.in_nvn(d) and ctx.faction in COIN:
            return IllegalAction("FITL-1.4.2", "US and ARVN never place or move pieces into North Vietnam")
        if ctx.limited and ctx.dest is not None and d != ctx.dest:
            return IllegalAction(
                "FITL-2.3.5", f"a Limited Operation has a single destination ({self.sname(ctx.dest)})"
            )
        return IllegalAction(rule, f"{action.label or d} is not a legal choice for this step")

    def refuse_base(self, rule: str, action: Action, space: str | None = None) -> IllegalAction:
        """A Base not offered: stacking (FITL-1.4.2) when the space is full or a LoC, else ``rule``."""
        s = action.get("space", space)
        if (
            action.kind in ("base", "mode")
            and action.get("mode", "base") == "base"
            and s in self.data.spaces
            and not self.base_room(s)
        ):
            return IllegalAction(
                "FITL-1.4.2", f"no room for another Base in {self.sname(s)} (at most 2, none on LoCs)"
            )
        return IllegalAction(rule, f"{action.label or action.to_json()} is not a legal choice here")

    def enemy_units_near(self, space: str, faction: str) -> bool:
        return any(self.board.count(space, f) for f in (COIN if faction in INSURGENTS else INSURGENTS))


class OpCtx:
    """What one Operation (and its Special Activity) has done so far: kept in the procedure, never in the state
    (replay rebuilds it).  ``spaces`` are the Op's selected spaces (FITL-3.1: each once), ``sa_spaces`` the SA's
    (FITL-4.1), ``dest`` the single destination of a Limited Patrol, Sweep or March (FITL-2.3.5)."""

    def __init__(self, faction: str, op: str, limited: bool, free: bool, with_sa: bool):
        self.faction = faction
        self.op = op
        self.limited = limited
        self.free = free
        self.with_sa = with_sa
        self.spaces: list[str] = []
        self.sa: str | None = None
        self.sa_spaces: list[str] = []
        self.dest: str | None = None
        self.marched_underground: set[str] = set()  # March destinations entered by an Underground Guerrilla
        self.ambush_spaces: list[str] = []
        self.sa_open = False  # the SA may still come during or after the Op (FITL-4.1)
        self.trail_improved = False
        self.allowed: tuple[str, ...] | None = None  # FITL-5.1.1: an Event confines the Op to these spaces
        self.max_spaces: int | None = None  # FITL-5.1.1: an Event caps the Op's spaces / destinations
        self.in_place = False  # FITL-5.1.1: an Event's Sweep moves no Troops in
        self.nva_only = False  # FITL-5.1.1: an Event's Assault removes NVA pieces only
        self.sa_allowed: tuple[str, ...] | None = None  # FITL-5.1.1: an Event confines its free SA to these
        self.sa_max: int | None = None  # FITL-5.1.1: an Event fixes its free SA's space count (card 111)
        self.strike_any = False  # FITL-5.1.1: an Event's Air Strike needs no US/ARVN piece in its spaces
        self.no_degrade = False  # FITL-5.1.1: an Event's Air Strike may not Degrade the Trail
        self.no_tunnels = False  # FITL-5.1.1: an Event's Assault treats Tunneled Bases as plain Bases
        self.march_pieces = ""  # FITL-5.1.1: an Event's March moves only "troops" or only "guerrillas"
        self.march_origins: tuple[str, ...] | None = None  # FITL-5.1.1: an Event's March starts only here

    def sa_spaces_blocking(self) -> list[str]:
        """FITL-4.2.1 / FITL-4.3.1: Advise and Govern spaces may not also be Train spaces."""
        return self.sa_spaces if self.sa in ("advise", "govern") else []

    def context(self, **extra: Any) -> dict[str, Any]:
        return {"faction": self.faction, "op": self.op, "limited": self.limited, **extra}
