"""Set-up, reinforcements, disruption recovery, dummy removal and the turn marker.

* YOTR-SET-SEQ / YOTR-DEP-ALLIED / YOTR-DEP-COMM: the Historical Game puts every counter on its historical start
  hex (``oob.csv``, decision M-11) and 13 air points in the Available box, when the players take the default
  "historical positions" option (D-68); without it they deploy within the stated Regions and distances
  (``deploy.py``).
* YOTR-REI / YOTR-REI-PLACE / YOTR-SOP-A1: Communist reinforcements arrive at Tchepone or Panhandle (Panhandle
  only when Allied units hold Tchepone; delayed when neither can be used, D-28).  YOTR-SOP-B1: Allied air and
  naval reinforcements go to the Available box; ground units to Hue, Danang, Long Binh or Saigon (D-49) unless
  Communist-held.  The schedule itself is a reconstruction (D-29, M-11).
* YOTR-SOP-A4: every Pinned marker comes off; a Disrupted counter recovers on 1-3.
* YOTR-SOP-A-END / YOTR-DUM-D: from Game-Turn 3 the Communist removes one dummy of his choice each turn (D-51).
* YOTR-SOP-C: the turn marker advances; after Game-Turn 13 the game ends.
"""

from __future__ import annotations

from ..core import Action

COMMUNIST_ENTRY = ("tchepone", "panhandle")
ALLIED_ENTRY = ("hue", "danang", "long_binh", "saigon_1", "saigon_2")


class TurnRules:
    # ------------------------------------------------------------------ set-up
    def deployment(self):
        """YOTR-SET-SEQ: the deployment sequence (Historical Game: the historical start hexes)."""
        if self.opts.lsi:
            yield from self.lsi_selection()
        if self.scenario.deployment != "historical":
            yield from self.free_deployment()
            return
        if not self.opts.historical_positions:  # D-68: the players deploy within the historical Regions
            yield from self.historical_choice_deployment()
            return
        oob = self.forces
        for side, rule in (("Communist", "YOTR-DEP-COMM"), ("Allied", "YOTR-DEP-ALLIED")):
            changes = []
            for uid, u in sorted(self.counters.items()):
                if u.side == side and u.start_hex and u.turn is None:
                    self.place(uid, u.start_hex)
                    changes.append({"unit": uid, "from": "track", "to": u.start_hex})
            hidden = ("Allied",) if side == "Communist" else ()
            if (
                side == "Allied"
            ):  # the Allied OB's air points and naval marker enter with this ruling (issue #13)
                self.air = sum(
                    u.attack or 0 for u in oob.values() if u.unit_type == "air_points" and u.turn is None
                )
                self.naval = sum(1 for u in oob.values() if u.unit_type == "naval_marker" and u.turn is None)
            yield self.ruling(
                rule,
                f"{side} historical deployment",
                f"The {side} counters go to their historical start hexes ({len(changes)} counters; "
                "Regions from the text, hexes reconstructed, decision M-11; the default 'historical "
                "positions' option, decision D-68)"
                + (
                    f"; {self.air} air points go to the Bombardment Strength Available box."
                    if side == "Allied"
                    else "."
                ),
                result={"placed": len(changes)},
                changes=changes,
                hidden_from=hidden,
                side=side,
                public=f"The Communist sets up {len(changes)} face-down counters.",
            )
        yield from self.check_victory()

    # ------------------------------------------------------------------ reinforcements
    def due(self, side: str) -> list[str]:
        return [
            u
            for u, row in sorted(self.counters.items())
            if row.side == side and self.loc[u] == "track" and row.turn is not None and row.turn <= self.turn
        ]

    def communist_reinforcements(self):
        """YOTR-SOP-A1 / YOTR-REI-PLACE: new Communist units at Tchepone or Panhandle."""
        places = self.data.places
        for uid in self.due("Communist"):
            entries = [places[p].hex for p in COMMUNIST_ENTRY if self.sc_intact(places[p].hex)]
            tchepone = places["tchepone"].hex
            if tchepone in entries and self.occupied_by(tchepone, "Allied"):
                entries.remove(tchepone)
            if not entries:
                yield self.ruling(
                    "YOTR-REI-PLACE",
                    f"{uid} delayed",
                    "Neither Tchepone nor Panhandle can receive "
                    "reinforcements, so the unit waits on the track (decision D-28).",
                    hidden_from=("Allied",),
                    public="A Communist reinforcement is delayed.",
                    public_title="A reinforcement is delayed",
                )
                continue
            delay = self.scenario.reinforcements == "may_delay"
            if len(entries) == 1 and not delay:
                to = entries[0]
            else:
                opts = [
                    Action.make(
                        "enter", f"{self.describe(uid)} enters at {self.hex_name(h)}", [h], unit=uid, to=h
                    )
                    for h in entries
                ]
                if delay:
                    opts.append(
                        Action.make("delay", f"Hold {self.describe(uid)} back one Game-Turn", unit=uid)
                    )
                act = yield self.decide(
                    "Communist",
                    f"Where does reinforcement {self.describe(uid)} arrive?",
                    "YOTR-REI-PLACE",
                    opts,
                    kind="enter",
                )
                if act.kind == "delay":
                    yield self.ruling(
                        "YOTR-REI",
                        f"{uid} held back",
                        "Outside the Historical Game a reinforcement may be delayed one Game-Turn at a time.",
                        hidden_from=("Allied",),
                        public="The Communist may have delayed a unit.",
                        public_title="A reinforcement may be held back",
                    )
                    continue
                to = act["to"]
            self.place(uid, to)
            yield self.ruling(
                "YOTR-REI-PLACE",
                f"{uid} arrives",
                f"{self.describe(uid)} arrives at "
                f"{self.hex_name(to)} at no movement cost (reinforcement turn reconstructed, D-29).",
                changes=[{"unit": uid, "from": "track", "to": to}],
                places=[to],
                side="Communist",
                hidden_from=("Allied",),
                public=f"A face-down Communist counter arrives at {to}.",
                public_title="A face-down reinforcement arrives",
            )

    def allied_reinforcements(self):
        """YOTR-SOP-B1: air and naval strength to the Available box; ground units at the entry towns."""
        for row in sorted(self.forces.values(), key=lambda r: r.id):
            if row.side != "Allied" or row.turn != self.turn:
                continue
            if row.unit_type == "air_points":
                self.air += row.attack or 0
                yield self.ruling(
                    "YOTR-SOP-B1",
                    f"{row.attack} air points arrive",
                    f"{row.attack} Air Bombardment "
                    f"Strength Points join the Available box: {self.air} in all (schedule "
                    "reconstructed, D-29).",
                    result={"air": self.air},
                )
            elif row.unit_type == "naval_marker":
                self.naval += 1
                yield self.ruling(
                    "YOTR-SOP-B1",
                    "Naval marker arrives",
                    "A Naval Bombardment marker joins the Available box (schedule reconstructed, D-29).",
                    result={"naval": self.naval},
                )
        places = self.data.places
        for uid in self.due("Allied"):
            entries = [
                places[p].hex
                for p in ALLIED_ENTRY
                if self.town[places[p].hex] != "nlf" and not self.occupied_by(places[p].hex, "Communist")
            ]
            if not entries:
                yield self.ruling(
                    "YOTR-REI-PLACE",
                    f"{uid} delayed",
                    "Every Allied entry town is Communist-held, so the unit waits (decision D-28).",
                )
                continue
            opts = [
                Action.make(
                    "enter", f"{self.describe(uid)} enters at {self.hex_name(h)}", [h], unit=uid, to=h
                )
                for h in entries
            ]
            if self.scenario.reinforcements == "may_delay":
                opts.append(Action.make("delay", f"Hold {self.describe(uid)} back one Game-Turn", unit=uid))
            act = yield self.decide(
                "Allied",
                f"Where does reinforcement {self.describe(uid)} arrive?",
                "YOTR-REI-PLACE",
                opts,
                kind="enter",
            )
            if act.kind == "delay":
                yield self.ruling("YOTR-REI", f"{uid} held back", "The unit is delayed one Game-Turn.")
                continue
            self.place(uid, act["to"])
            yield self.ruling(
                "YOTR-REI-PLACE",
                f"{uid} arrives",
                f"{self.describe(uid)} arrives at {self.hex_name(act['to'])}.",
                changes=[{"unit": uid, "from": "track", "to": act["to"]}],
                places=[act["to"]],
            )
            yield from self.check_victory()

    # ------------------------------------------------------------------ end of the Communist Player-Turn
    def disruption_recovery(self):
        """YOTR-SOP-A4: Pinned markers all come off; each Disrupted counter recovers on 1, 2 or 3."""
        if self.pinned:
            gone = sorted(self.pinned)
            self.pinned = set()
            yield self.ruling(
                "YOTR-SOP-A4",
                "Pinned markers removed",
                f"All {len(gone)} Pinned markers come off the Communist counters.",
                result={"unpinned": len(gone)},
            )
        for uid in sorted(self.disrupted):
            roll = self.dice.roll(6, "recovery")
            die = roll.value
            ok = die <= 3
            if ok:
                self.disrupted.discard(uid)
            yield self.ruling(
                "YOTR-SOP-A4",
                f"Recovery roll at {self.loc[uid]}",
                f"Die {die}: the Disrupted "
                f"counter in {self.loc[uid]} "
                + ("recovers (1 to 3)." if ok else "stays Disrupted (4 to 6)."),
                result={"hex": self.loc[uid], "die": die, "recovered": ok},
                dice=[roll],
                places=[self.loc[uid]],
            )

    def dummy_removal(self):
        """YOTR-SOP-A-END / YOTR-DUM-D: one dummy combat counter of the Communist's choice leaves the game."""
        dummies = [u for u in self.on_map("Communist") if self.is_dummy(u)]
        if not dummies:
            return  # D-51
        opts = [
            Action.make("remove_dummy", f"Remove dummy {u} at {self.loc[u]}", [self.loc[u]], unit=u)
            for u in dummies
        ]
        act = yield self.decide(
            "Communist", "Remove one dummy (Dummy case D)", "YOTR-DUM-D", opts, kind="remove_dummy"
        )
        uid = act["unit"]
        frm = self.loc[uid]
        self.place(uid, "removed")
        self.pinned.discard(uid)
        self.disrupted.discard(uid)
        yield self.ruling(
            "YOTR-DUM-D",
            "A dummy is removed",
            f"From Game-Turn 3 one dummy leaves the map each "
            f"Game-Turn: the Communist removes {uid} from {frm}.",
            changes=[{"unit": uid, "from": frm, "to": "removed"}],
            places=[frm],
            hidden_from=("Allied",),
            public="The Communist removes a dummy counter (Dummy case D), without showing which.",
        )
        yield from self.check_victory()

    def game_turn_indication(self):
        """YOTR-SOP-C: the Game-Turn marker advances."""
        yield self.ruling(
            "YOTR-SOP-C",
            f"End of Game-Turn {self.turn}",
            f"Game-Turn {self.turn} ends with {self.vp} Communist victory points"
            + ("; that was the last Game-Turn." if self.turn >= self.sequence.turns else "."),
            result={"turn": self.turn, "vp": self.vp},
        )
