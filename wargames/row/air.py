"""Vietnam: Rumor of War, air power (ROW-10.0): the Air Display, air commitment, the strategic air war over the
North and tactical air over the battlefield.

A scenario brings the air war in with an ``air:`` block (``airdata.AirBlock``; without one, A Year in I Corps,
every air step behaves as before: special rule ``air_war_not_in_play``, decision R-SCN-08).  Then, each season:

* A3 (10.1, 10.2): aircraft in mission boxes come back to Available; the chart's aircraft, airfields, SAMs and
  ARMs arrive; aces are placed by their owner (10.3.6); the owner may repair or improve airfields for supply
  (7.1a, decision R-AIR-09); a Capitalist airfield next to a Communist-controlled hex is damaged (10.1, R-AIR-10);
  damaged aircraft roll to be repaired (Capitalist D10 <= 5, Communist <= 6; table 4.9).
* A4 / A5 (10.2): each side commits aircraft one by one to a mission box, each on an airfield with room (an
  airfield flies 1, an improved one 2; the carriers any number, 11.4).  The Capitalist picks a restricted or an
  unrestricted box for strategic missions; every unrestricted box costs 1 US Unrest (10.3.7) unless declared the
  secret box (a Secret Ops point instead, R-AIR-05) or covered by a free unrestricted declaration.  The Ground
  Support box sets the US Air (Communist Air) support level (10.4.2).
* A6 (10.3): AEW, then Downtown, then SAM fire (the order of 10.3, not of 3.0: decision R-AIR-01), then the
  strikes in the Capitalist's order (infrastructure, airfield, SAM).
* During the player turns (10.4): aircraft in the Ground Support box fly the air support a combat uses and roll to
  stay on station; Interdiction aircraft, after a reconnaissance, may stop a Communist HQ activation, a strategic
  move or a combat's tank and artillery support.
* C-c: HQ Interdicted markers come off.

The procedures are in ``air_setup`` (A3), ``air_commitment`` (A4, A5), ``air_strategic`` (A6) and
``air_tactical`` (10.4), on ``air_common``; ``air_bot`` holds the built-in players' air answers.

Rules: ROW-10.0, ROW-10.1, ROW-10.2, ROW-10.3, ROW-10.3.1, ROW-10.3.2, ROW-10.3.3, ROW-10.3.4, ROW-10.3.5,
ROW-10.3.6, ROW-10.3.7, ROW-10.3.8, ROW-10.3.9, ROW-10.4, ROW-10.4.1, ROW-10.4.2, ROW-10.4.3; special operations
(ROW-10.4.4) are 14.8's tables, not here.  Every modifier of a mission value is in :func:`mission_value` (reduced -1, Summer monsoon -1, AEW +1, an ace's
value, restricted boxes halved).  POWs (10.3, 10.3.8, 10.3.6) go to the Hanoi Hilton track of 12.1.4.
"""

from __future__ import annotations

from .air_bot import AIR_ANSWERS
from .air_commitment import AirCommitmentMixin
from .air_common import (
    AIR_TRACK,
    STRATEGIC,
    STRIKES,
    SUPPLY_TRACK,
    TACTICAL,
    US_SERVICES,
    AirCommonMixin,
    mission_value,
)
from .air_setup import AirSetupMixin
from .air_strategic import AirStrategicMixin
from .air_tactical import AirTacticalMixin

__all__ = [
    "AIR_ANSWERS",
    "AIR_TRACK",
    "STRATEGIC",
    "STRIKES",
    "SUPPLY_TRACK",
    "TACTICAL",
    "US_SERVICES",
    "AirMixin",
    "mission_value",
]


class AirMixin(AirSetupMixin, AirCommitmentMixin, AirStrategicMixin, AirTacticalMixin, AirCommonMixin):
    """The air war procedures of :class:`RowGame` (ROW-10.0); state lives in ``self.airwar`` (empty when the
    scenario has no ``air:`` block, so A Year in I Corps keeps its digest)."""
