"""Fire in the Lake: the COIN Operations Train, Patrol, Sweep and Assault (FITL-3.2, FITL-3.2.1 to FITL-3.2.4).

* FITL-3.2: US and ARVN never place or move a piece into North Vietnam (FITL-1.4.2).
* FITL-3.2.1 Train: ARVN in Provinces/Cities without NVA Control, the US where it has pieces; 3 ARVN Resources
  per space where ARVN pieces are placed (decision F-50); then in one selected space Pacify (3 per Terror
  marker and per level, even when free, FITL-3.1.2), an ARVN Base for 3 ARVN cubes, or (US, Saigon) up to 3
  Patronage to ARVN Resources.
* FITL-3.2.2 Patrol: ARVN pay 3 in all; cubes move through LoCs and Cities until they enter an Insurgent space;
  1 Guerrilla Activated per cube on each LoC; then a free Assault on one LoC (F-54: a Limited Patrol Activates
  only in its destination).
* FITL-3.2.3 Sweep: never in Monsoon (FITL-2.3.9); ARVN pay 3 per destination; Troops move in from adjacent
  spaces, possibly through one Insurgent-free LoC; 1 Activation per cube or Special Force (half in Jungle).
* FITL-3.2.4 Assault: the removal formula per faction and terrain, Troops first, Bases last, Tunnels, +6 Aid per
  Base removed by ARVN, and the US's optional ARVN follow-up for 3 ARVN Resources.

Capabilities and Momentum (FITL-5.3, FITL-5.4; each named in the ruling it changes): Momentum #72 Body Count
(Assault and Patrol cost 0, +3 Aid per Guerrilla an Assault removes), #78 shaded (no US Assault); Capability #11
shaded (US Assault in at most 2 spaces), #18 shaded (US Sweep in at most 2 spaces), #13 shaded (a US Assault space
with US Troops loses one on a die of 1-3), #14 unshaded (+2 removals in up to 2 non-Lowland US Assault spaces),
#28 shaded (Assaulted Provinces shift toward Active Opposition), #101 shaded (a Sweep space may lose a sweeping
Troop on a die of 1-3); #11 unshaded (a Base first), #28 unshaded (an Underground Guerrilla, decision F-154),
#13 unshaded (Sweep removes 1 in up to 2 spaces), #14 shaded (NVA remove 2 Patrol cubes), #18 unshaded (a free
Police), #19 (CORDS: 2 Pacify spaces / Passive at most), #61 unshaded (via Transport).  Rows FITL-5.3-CAPS and
FITL-5.4-MOM; decisions F-150 (naming), F-151 (Cobras shaded in a Patrol's Assault), F-153 (Body Count everywhere
an Assault is made), F-157 (M-48 unshaded: the first 2 qualifying spaces).
"""

from __future__ import annotations

from .coin_assault import AssaultOps
from .coin_patrol_sweep import PatrolSweepOps
from .coin_train import TrainOps
from .ops_common import OpsCommon


class CoinOps(TrainOps, PatrolSweepOps, AssaultOps, OpsCommon):
    """Mixin: the four COIN Operations (FITL-3.2): what they cost and where lasting effects cap them; each
    Operation is its own mixin, Train (:mod:`.coin_train`), Patrol and Sweep (:mod:`.coin_patrol_sweep`) and
    Assault (:mod:`.coin_assault`)."""

    def op_cost(self, faction: str, op: str) -> int:
        """FITL-3.2.2 / FITL-3.2.3 / FITL-3.2.4: ARVN pay 3 (per space, Patrol in all), the US nothing; Momentum
        #72 Body Count makes Assault and Patrol cost 0 (FITL-5.4)."""
        if faction != "ARVN" or op in ("assault", "patrol") and self.lasting(72, "unshaded"):
            return 0
        return 3

    def cost_note(self, faction: str, op: str) -> str:
        """The words naming a lasting effect on the cost of ``op`` (for the ruling), or ""."""
        words = self.lasting(72, "unshaded") if op in ("assault", "patrol") else ""
        return f" [{op.capitalize()} costs 0: {words}]" if words else ""

    def op_space_cap(self, faction: str, op: str) -> tuple[int, str]:
        """FITL-5.3: US Assault at most 2 spaces with #11 Abrams shaded, US Sweep with #18 CAPs shaded."""
        if faction == "US" and op == "assault":
            return self.lasting_limit(99, (11, "shaded", 2))
        if faction == "US" and op == "sweep":
            return self.lasting_limit(99, (18, "shaded", 2))
        return 99, ""
