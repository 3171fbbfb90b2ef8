"""Fire in the Lake: the Insurgent Operations Rally, March, Attack and Terror (FITL-3.3, FITL-3.3.1 to FITL-3.3.4).

* FITL-3.3.1 Rally: Provinces/Cities without Support, 1 Resource each: place 1 Guerrilla, or 2 Guerrillas
  become a Base (FITL-1.4.2), or at a Base place up to Trail + Bases (NVA) / Population + Bases (VC) or (VC)
  flip all Guerrillas Underground; then the NVA may pay 2 to Improve the Trail (even when free, FITL-3.1.2,
  and even with no space: FITL-2.3.4 NOTE).  Decision F-55: Active Guerrillas are the ones replaced by a Base.
* FITL-3.3.2 March: never in Monsoon (FITL-2.3.9); 1 Resource per Province or City entered (once per
  destination, decision F-59), 0 onto LoCs; groups entering a LoC or a space with Support go Active when group +
  COIN cubes and Special Forces there exceed 3; NVA may go on from Laos/Cambodia along the Trail (Trail > 0,
  not Limited), free into or out of Laos/Cambodia at Trail 4.
* FITL-3.3.3 Attack: 1 Resource per space; Guerrillas Activate and roll (hit if the die is at most their
  number: up to 2 enemies), or NVA Troops remove 1 per 2 Troops; COIN Bases last; US losses to Casualties;
  1 attacker lost per US Troop or Base removed (attrition).
* FITL-3.3.4 Terror: 1 Resource per Province/City, 0 on LoCs; Activate 1 Underground Guerrilla; a Terror
  marker (or Sabotage on a LoC) if none there and one of the 15 is left; VC shift toward Active Opposition,
  NVA shift Support toward Neutral (decision F-58: the shift happens even where a marker already is).
"""

from __future__ import annotations

from .insurgent_attack_terror import AttackTerrorOps
from .insurgent_march import MarchOps
from .insurgent_rally import RallyOps
from .ops_common import OpsCommon


class InsurgentOps(RallyOps, MarchOps, AttackTerrorOps, OpsCommon):
    """Mixin: the four Insurgent Operations (FITL-3.3); each Operation is its own mixin, Rally
    (:mod:`.insurgent_rally`), March (:mod:`.insurgent_march`), Attack and Terror (:mod:`.insurgent_attack_terror`)."""

    def tax_first_possible(self) -> bool:
        """FITL-4.1 / FITL-4.5.1: the VC could Tax before their Operation and gain Resources by it."""
        spaces = getattr(self, "tax_spaces", None)
        banned = getattr(self, "sa_banned", None)
        if spaces is None or (banned is not None and banned("tax")):
            return False
        return any((self.econ(s) if self.is_loc(s) else 2 * self.pop(s)) > 0 for s in spaces())
