"""Fire in the Lake: the Coup Round (rules 6.0-6.7), phase by phase, every formula a ruling with its inputs.

* FITL-6.2 Resources: FITL-6.2.1 Sabotage, FITL-6.2.2 Degrade Trail, FITL-6.2.3 ARVN earnings (Aid + Total
  Econ), FITL-6.2.4 Insurgent earnings, FITL-6.2.5 Aid lost to Casualties (each Resource capped at 75, FITL-1.8);
* FITL-6.3 Support: FITL-6.3.1 Pacification by the US then ARVN (ARVN Resources; at most 4 spaces together,
  2 levels a space), FITL-6.3.2 Agitation by the VC;
* FITL-6.4 Redeploy: FITL-6.4.1 Laos and Cambodia cleared of COIN pieces, FITL-6.4.2 ARVN, FITL-6.4.3 NVA,
  FITL-6.4.4 Control, FITL-6.4.5 the final Round ends here;
* FITL-6.5 Commitment (2nd edition): rotation of US Casualties, US commitment/withdrawal, VC shifts;
* FITL-6.6 Reset, FITL-6.7 the Trail kept within 0-4 (pulled off its ends at Reset).

FITL-1.3.5: COIN pieces in Laos and Cambodia are removed at every Coup Round (FITL-6.4.1).

Choices (where to pacify, agitate, redeploy, commit) are decisions offered to the owning faction; each move
decision offers "1 piece" or "all of them" per destination so a decision never lists hundreds of actions.
Control during Redeploy and Commitment is read from the start of the phase (FITL-6.4, FITL-6.5: Control is
adjusted only at the end), kept in ``self.frozen_control``; pieces that arrived this phase do not move again
(decision F-38).
"""

from __future__ import annotations

from ..core.actions import Action
from .coup_commitment import CommitmentPhase
from .coup_redeploy import RedeployPhase
from .coup_resources import ResourcesPhase
from .coup_support import SupportPhase


class CoupRules(ResourcesPhase, SupportPhase, RedeployPhase, CommitmentPhase):
    """Mixin: FITL-6.1 to FITL-6.6 (the Victory Phase is in ``victory.py``)."""

    # ------------------------------------------------------------------ helpers
    def name(self, space: str) -> str:
        return self.data.spaces[space].name

    def _done(self, label: str = "Done") -> Action:
        return Action.make("done", label)
