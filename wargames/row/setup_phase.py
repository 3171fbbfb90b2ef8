"""Vietnam: Rumor of War, the set-up (ROW-2.3): the scenario's tracks and levels (ROW-8.1), each side's pieces on
their start hexes, and the VC cup (ROW-13.1.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .pieces import CAPITALIST, COMMUNIST
from .supply import (
    Pools,
)
from .victory import ACC_TRACK, breakpoint_reached

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class SetupMixin:
    """The setup phase steps of :class:`RowGame`."""

    def setup_levels(self: RowGame):
        """ROW-8.1 / ROW-2.3: the tracks start at the scenario's levels; a starting US Unrest has reached its
        breakpoints (ROW-12.1.2, decision R-WAR-06), so no later loss (a new theater commander, 14.2.1) takes it
        below them."""
        vals = dict(self.pools)
        for lv in self.scenario.levels:
            name = lv.track.removesuffix(" Support")
            if name in vals:
                vals[name] = lv.value
            elif lv.track == "Ho Chi Minh Trail Status":
                self.trail_status = lv.value
            elif lv.track == "US Military Victory":
                self.vp["us_military_victory"] = lv.value
            elif (
                lv.track == "US Public Unrest"
            ):  # 12.1.2 / 14.2.1 (R-WAR-06): its breakpoints already reached
                self.vp["us_unrest"] = lv.value
                self.vp["unrest_floor"] = breakpoint_reached(lv.value)
            elif lv.track in ACC_TRACK:
                self.vp[ACC_TRACK[lv.track]] = lv.value
        self.set_pools(Pools(vals))
        for t in self.scenario.tunnels:
            self.tunnels[t.hex] = t.state
        for lp in self.scenario.leaders:
            self.leaders[lp.leader] = lp.hq
        yield self.ruling(
            "ROW-8.1",
            "Tracks and levels",
            f"The scenario sets the tracks: {', '.join(f'{k} {v}' for k, v in self.pools.items())}; trail status "
            f"{self.trail_status}; {len(self.tunnels)} Hidden tunnels.",
            result={"pools": dict(self.pools), "trail_status": self.trail_status},
        )
        yield from self.air_setup()  # ROW-10.1 / ROW-11.1: the Air Display and the fleet, when in the scenario

    def _setup_side(self: RowGame, side: str):
        placed = []
        for p in self.scenario.placements(side):
            self.place(p.unit, p.hex)
            placed.append(p.unit)
        yield self.ruling(
            "ROW-2.3",
            f"{side} set-up",
            f"{len(placed)} {side} pieces go on their start hexes, fresh "
            "side up (the scenario fixes every hex, so there is no choice to make).",
            result={"placed": placed},
            places=sorted({self.pos[u] for u in placed}),
        )

    def setup_capitalist(self: RowGame):
        yield from self._setup_side(CAPITALIST)

    def setup_communist(self: RowGame):
        yield from self._setup_side(COMMUNIST)

    def setup_vc_cup(self: RowGame):
        for u in self.scenario.vc_cup.units:
            self.box[u] = "vc_cup"
        yield self.ruling(
            "ROW-13.1.2",
            "The VC cup",
            f"{len(self.scenario.vc_cup.units)} VC units go into the VC cup for recruitment.",
            result={"cup": len(self.scenario.vc_cup.units)},
        )
