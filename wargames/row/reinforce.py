"""Reinforcements when the chart hex is lost (13.1.1) and Capitalist withdrawals (13.1.3).

* 13.1.1: a reinforcement whose supply source is not available (an enemy unit holds it) enters elsewhere if it is a
  US unit (a friendly coastal city of its Corps area: a city hex on the coast, in one of the scenario's US areas,
  with no enemy unit; the Capitalist chooses) or a PAVN unit (the PRC supply source hex, if in play and free);
  every other unit waits for a later Turn Phase (decision R-REI-01; the earlier R-GAME-09 wait stays for them).
* 13.1.3: the chart's withdrawals leave the game from wherever they are (map, Replacements or Destroyed box, or
  not yet arrived) in the Capitalist reinforcement step; they go to the box ``withdrawn``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Action
from .pieces import CAPITALIST

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class ReinforceMixin:
    def alternate_entry(self: RowGame, uid: str, side: str):
        """ROW-13.1.1: the hex a blocked reinforcement enters instead, or None (it waits)."""
        r = self.rows[uid]
        enemy = {h for u, h in self.pos.items() if self.side_of(u) != side}
        if r.nationality == "US":
            areas = set(self.scenario.us_areas)
            spots = sorted(
                h
                for h in self.window_land
                if self.map.settlement(h) == "city"
                and self.map.is_coastal(h)
                and self.map.country(h) == "SVN"
                and self.map.area(h) in areas
                and h not in enemy
            )
        elif r.nationality == "PAVN":
            spots = sorted(
                h for h in self.map.supply_sources("prc") if h in self.window_land and h not in enemy
            )
        else:
            spots = []
        if not spots:
            return None
        a = yield self.decide(
            side,
            f"{r.name}'s arrival hex {self.start_hex[uid]} is held by the enemy: where does it enter?",
            "ROW-13.1.1",
            [Action.make("enter_at", f"{r.name} enters at {h}", [h], unit=uid, hex=h) for h in spots],
            kind="reinforcement_entry",
        )
        yield self.ruling(
            "ROW-13.1.1",
            "Reinforcement diverted",
            f"{r.name} cannot use {self.start_hex[uid]} and "
            + (
                "enters at the friendly coastal city "
                if r.nationality == "US"
                else "enters at the PRC supply source "
            )
            + f"{a['hex']} (R-REI-01).",
            result={"unit": uid, "hex": a["hex"]},
            places=[a["hex"]],
        )
        return a["hex"]

    def withdrawals_step(self: RowGame):
        """ROW-13.1.3: this turn's withdrawals leave the game (no ruling when there are none)."""
        gone = []
        for w in self.scenario.withdrawals:
            if w.turn != self.season or self.box.get(w.unit) == "withdrawn":
                continue
            where = self.pos.get(w.unit) or self.box.get(w.unit)
            if w.unit in self.pos:
                self._clear_markers(w.unit)
            self.place(w.unit, None, "withdrawn")
            gone.append((w.unit, where))
        if gone:
            self._touch()
            yield self.ruling(
                "ROW-13.1.3",
                "Withdrawals",
                "The chart withdraws "
                + ", ".join(f"{self.rows[u].name} (from {w})" for u, w in gone)
                + ": they leave the game.",
                result={"withdrawn": [u for u, _ in gone]},
                places=[w for _, w in gone if w and w[0].isdigit()],
                side=CAPITALIST,
            )
