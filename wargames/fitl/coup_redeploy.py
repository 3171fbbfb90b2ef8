"""Fire in the Lake: the Coup Round's Redeploy Phase (FITL-6.4): Laos and Cambodia cleared of COIN pieces,
ARVN and NVA redeployment, Control, and the end of the final Round; a mixin of :class:`~wargames.fitl.coup.CoupRules`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..core.actions import Action
from .coup_resources import FOREIGN, Flow
from .data import COIN


class RedeployPhase:
    """Mixin: FITL-6.4, the Redeploy Phase of a Coup Round."""

    # ------------------------------------------------------------------ 6.4 Redeploy
    def coup_laos_cambodia(self) -> Flow:
        """FITL-6.4.1: every US and ARVN piece leaves Laos and Cambodia (US Troops out of play, others Available)."""
        self.frozen_control = {s: self.board.control(s) for s in sorted(self.data.spaces)}
        b = self.board
        moved: list[dict[str, Any]] = []
        for s, sp in sorted(self.data.spaces.items()):
            if sp.country not in FOREIGN:
                continue
            for key, n in sorted(b.pieces[s].items()):
                if self.data.pieces[key.split(":")[0]].faction in COIN:
                    to = "out_of_play" if key == "us_troops" else "available"
                    b.remove(s, key, n, to=to)
                    moved.append({"piece": key, "from": s, "to": to, "n": n})
        text = (
            "; ".join(
                f"{c['n']} {c['piece']} from {self.name(c['from'])} to {c['to'].replace('_', ' ')}"
                for c in moved
            )
            or "there were none"
        )
        yield self.ruling(
            "FITL-6.4.1",
            "COIN pieces leave Laos and Cambodia",
            f"All US and ARVN pieces in Laos and Cambodia are removed (US Troops out of play, the rest "
            f"Available): {text}.",
            result={"removed": moved},
            places=sorted({c["from"] for c in moved}),
            changes=moved,
        )

    def _move_pieces(
        self,
        side: str,
        key: str,
        what: str,
        src: str,
        dests: list[str],
        n: int,
        rule: str,
        arrived: Counter[str],
        prompt: str,
    ) -> Flow:
        """One move decision: 1 piece or all ``n`` from ``src`` to one of ``dests``; arrivals cannot move again."""
        opts = []
        for d in dests:
            opts.append(Action.make("move", f"1 {what} to {self.name(d)}", [d], dest=d, n=1))
            if n > 1:
                opts.append(Action.make("move", f"All {n} {what} to {self.name(d)}", [d], dest=d, n=n))
        a = yield self.decide(side, prompt, rule, opts, kind="move", source=src)
        dest, k = a["dest"], int(a["n"])
        self.board.move(src, dest, key, k)
        arrived[dest] += k
        yield self.ruling(
            rule,
            f"{side} moves {k} {what}",
            f"{k} {what} move from {self.name(src)} to {self.name(dest)}.",
            result={"from": src, "to": dest, "n": k},
            places=[src, dest],
            changes=[{"piece": key, "from": src, "to": dest, "n": k}],
        )

    def _optional_moves(
        self,
        side: str,
        key: str,
        what: str,
        dests_for: Callable[[str], list[str]],
        sources: list[str],
        rule: str,
        arrived: Counter[str],
    ) -> Flow:
        """Any number of optional moves: pick a source (or stop), then a destination."""
        while True:
            srcs = [s for s in sources if self.board.pieces[s][key] - arrived[s] > 0 and dests_for(s)]
            if not srcs:
                return
            opts = [
                Action.make(
                    "from",
                    f"Move {what} from {self.name(s)} ({self.board.pieces[s][key] - arrived[s]} may move)",
                    [s],
                    space=s,
                )
                for s in srcs
            ]
            a = yield self.decide(
                side,
                f"Redeploy {what}: choose where from, or stop",
                rule,
                opts + [self._done(f"No more {what} moves")],
                kind="redeploy_from",
            )
            if a.kind == "done":
                return
            s = a["space"]
            yield from self._move_pieces(
                side,
                key,
                what,
                s,
                dests_for(s),
                self.board.pieces[s][key] - arrived[s],
                rule,
                arrived,
                f"Redeploy {what} from {self.name(s)} to where?",
            )

    def coin_base(self, space: str) -> bool:
        return bool(self.board.pieces[space]["us_bases"] or self.board.pieces[space]["arvn_bases"])

    def arvn_troop_destinations(self) -> list[str]:
        """FITL-6.4.2: Cities without NVA Control (at the start of Redeploy), spaces with US or ARVN Bases, Saigon."""
        return [
            s
            for s, sp in sorted(self.data.spaces.items())
            if (sp.kind == "city" and self.frozen_control[s] != "nva") or self.coin_base(s) or s == "saigon"
        ]

    def coup_arvn_redeploy(self) -> Flow:
        """FITL-6.4.2: ARVN Troops must leave LoCs and Provinces without COIN Bases and may move elsewhere; then
        Police may move to LoCs or COIN-Controlled spaces in South Vietnam."""
        b, d = self.board, self.data
        arrived: Counter[str] = Counter()
        dests = self.arvn_troop_destinations()
        must = [
            s
            for s, sp in sorted(d.spaces.items())
            if b.pieces[s]["arvn_troops"]
            and (sp.kind == "loc" or sp.kind == "province" and not self.coin_base(s))
        ]
        for s in must:
            while b.pieces[s]["arvn_troops"]:
                n = b.pieces[s]["arvn_troops"]
                yield from self._move_pieces(
                    "ARVN",
                    "arvn_troops",
                    "ARVN Troops",
                    s,
                    [x for x in dests if x != s],
                    n,
                    "FITL-6.4.2",
                    arrived,
                    f"ARVN Troops must leave {self.name(s)} ({n} left): to where?",
                )
        yield from self._optional_moves(
            "ARVN",
            "arvn_troops",
            "ARVN Troops",
            lambda s: [x for x in dests if x != s],
            [s for s in sorted(d.spaces) if s not in must],
            "FITL-6.4.2",
            arrived,
        )
        police_dests = [
            s
            for s, sp in sorted(d.spaces.items())
            if sp.kind == "loc" or (sp.country == "SVN" and self.frozen_control[s] == "coin")
        ]
        yield from self._optional_moves(
            "ARVN",
            "arvn_police",
            "ARVN Police",
            lambda s: [x for x in police_dests if x != s],
            sorted(d.spaces),
            "FITL-6.4.2",
            Counter(),
        )
        yield self.ruling(
            "FITL-6.4.2",
            "ARVN Redeploy done",
            f"ARVN Troops had to leave {len(must)} space(s) "
            f"({', '.join(self.name(s) for s in must) or 'none'}).",
            result={"forced": must},
        )

    def coup_nva_redeploy(self) -> Flow:
        """FITL-6.4.3: NVA Troops may move from any space to any space with an NVA Base."""
        d = self.data
        bases = [s for s in sorted(d.spaces) if self.board.count(s, "NVA", "bases")]
        yield from self._optional_moves(
            "NVA",
            "nva_troops",
            "NVA Troops",
            lambda s: [x for x in bases if x != s],
            sorted(d.spaces),
            "FITL-6.4.3",
            Counter(),
        )
        yield self.ruling(
            "FITL-6.4.3",
            "NVA Redeploy done",
            f"NVA Troops could go to the {len(bases)} space(s) with NVA Bases.",
            result={"bases": bases},
        )

    def coup_control(self) -> Flow:
        """FITL-6.4.4: Control is adjusted after the moves (it is a function of the pieces, FITL-1.7)."""
        changed = [s for s in sorted(self.data.spaces) if self.board.control(s) != self.frozen_control.get(s)]
        text = (
            "; ".join(
                f"{self.name(s)}: {self.frozen_control.get(s) or 'none'} -> {self.board.control(s) or 'none'}"
                for s in changed
            )
            or "no change"
        )
        self.frozen_control = {}
        yield self.ruling(
            "FITL-6.4.4",
            "Control adjusted",
            f"Control after Redeploy: {text}.",
            result={"changed": changed},
            places=changed,
            inputs={"victory": self.board.victory()},
        )

    def coup_game_end(self) -> Flow:
        """FITL-6.4.5: the final Round ends here and the margins decide (FITL-7.3)."""
        if self.final_coup:
            yield from self.final_victory("FITL-6.4.5")
        else:
            yield self.ruling(
                "FITL-6.4.5",
                "Not the final Coup",
                f"{self.coups_left()} Coup card(s) remain in the "
                "deck: the Round goes on to Commitment and Reset.",
                result={"final": False},
            )
