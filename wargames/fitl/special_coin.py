"""Fire in the Lake: the COIN Special Activities, US (FITL-4.2) and ARVN (FITL-4.3).

Shared machinery (space loop, lasting limits) in ``special.py``; each SA ``x`` has ``can_x`` and ``sa_x``.

* FITL-4.2.1 Advise (with Train or Patrol; 1-2 spaces not Trained in): an ARVN Sweep in place (not in Monsoon),
  an ARVN Assault, or an Underground Irregular/Ranger Activates to remove 2 enemies; then +6 Aid if wanted.
* FITL-4.2.2 Air Lift: US Troops and up to 4 ARVN Troops, Rangers or Irregulars among 4 spaces (2 in Monsoon).
* FITL-4.2.3 Air Strike (2nd edition): up to 6 spaces (2 in Monsoon) with a US or ARVN piece; one die = hits;
  2 hits Degrade the Trail once at most; 1 hit removes 1 Active enemy (at most 6; NVA Troops before Guerrillas,
  Bases only when no other Insurgent piece remains, never Underground Guerrillas or Tunneled Bases); every
  populated space that lost a piece shifts 1 toward Active Opposition.
* FITL-4.3.1 Govern (with Train or Patrol): 1-2 COIN-Controlled spaces with Support, not Saigon, not Trained in:
  +3 x Pop Aid, or Pop from Aid to Patronage and a shift toward Neutral (more ARVN cubes than US Troops).
* FITL-4.3.2 Transport: up to 6 ARVN Troops/Rangers from 1 space along LoCs and through Cities, stopping at
  NVA/VC; then every Ranger on the map flips Underground.
* FITL-4.3.3 Raid (with Patrol, Sweep or Assault): 1-2 spaces; adjacent Rangers move in; an Underground Ranger
  may Activate to remove 2 enemies.
"""

from __future__ import annotations

from .special import SpecialActivities
from .special_arvn import ArvnActivities
from .special_us import UsActivities


class CoinSpecialActivities(UsActivities, ArvnActivities, SpecialActivities):
    """Mixin: Advise, Air Lift, Air Strike (US, FITL-4.2, :mod:`.special_us`); Govern, Transport, Raid (ARVN,
    FITL-4.3, :mod:`.special_arvn`)."""
