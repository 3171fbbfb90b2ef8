"""Vietnam: Rumor of War, A4 / A5 air commitment (ROW-10.2): aircraft to mission boxes on airfields with room,
restricted or unrestricted boxes (10.3.7), the secret box (R-AIR-05), and the support levels the Ground Support box
sets (10.4.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Action
from .air_common import (
    AIR_TRACK,
    STRATEGIC,
)
from .airdata import (
    aircraft_counters,
    airfields,
    mission_boxes,
)
from .pieces import CAPITALIST, COMMUNIST

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class AirCommitmentMixin:
    """The air commitment procedures of :class:`RowGame`."""

    def air_commitment(self: RowGame, side: str):
        """ROW-10.2 / ROW-10.3.7 / ROW-10.4.2 (A4, A5): ``side`` commits aircraft one at a time; then (Capitalist)
        the unrestricted boxes cost US Unrest and one may be secret; then the Ground Support box sets the level."""
        while True:
            opts = self._box_options(side)
            if not opts:
                break
            a = yield self.decide(
                side,
                f"{side}: commit an aircraft to a mission box?",
                "ROW-10.2",
                [*opts, Action.make("done_commit", "Commit no more aircraft")],
                check=self._commit_check(side),
                kind="air_mission",
            )
            if a.kind == "done_commit":
                break
            uid, box = a["aircraft"], a["box"]
            kind = mission_boxes()[box].kind
            fields = self._fields_for(uid, kind)
            field = yield from self.choose_one(
                side,
                f"From which airfield does {aircraft_counters()[uid].name} fly?",
                "ROW-10.1",
                fields,
                kind="airfield",
                option="use_airfield",
                key="airfield",
                label=lambda x: f"{airfields()[x].name} (room for {self._room(x)})",
                check=self._field_check(uid, kind),
            )
            rec = self.airwar["aircraft"][uid]
            rec.update(box=box, airfield=field, restricted=bool(a["restricted"]))
            self._touch()
            v, how = self.air_value(uid, mission_boxes()[box].value)
            yield self.ruling(
                "ROW-10.2",
                "Aircraft committed",
                f"{aircraft_counters()[uid].name} flies from "
                f"{'the 7th Fleet carriers' if field == 'carriers' else airfields()[field].name} to the "
                f"{mission_boxes()[box].name} box"
                + (" (restricted)" if rec["restricted"] else "")
                + f": {how}.",
                result={
                    "aircraft": uid,
                    "box": box,
                    "airfield": field,
                    "restricted": rec["restricted"],
                    "value": v,
                },
                side=side,
            )
        if side == CAPITALIST:
            yield from self._unrestricted_cost()
        total, parts = 0, []
        for a in self._craft(side, "ground_support"):
            v, _ = self.air_value(a, "ground_support")
            total += v
            parts.append(f"{aircraft_counters()[a].name} {v}")
        self.pools[AIR_TRACK[side]] = total
        self._touch()
        yield self.ruling(
            "ROW-10.4.2",
            "Air support level",
            f"{AIR_TRACK[side]} = the Ground Support box's values: "
            f"{' + '.join(parts) or 'no aircraft'} = {total}"
            + (" (more than 19 counts as 19 in a combat, 8.2)" if total > 19 else "")
            + ".",
            result={"track": AIR_TRACK[side], "level": total},
            side=side,
        )

    def _unrestricted_cost(self: RowGame):
        """ROW-10.3.7: each strategic box holding an unrestricted aircraft costs 1 US Unrest (the AEW box, which has
        no restricted side, costs nothing: decision R-AIR-04); the Capitalist may
        declare one of them the secret mission: +1 Secret Ops instead of the Unrest point (decision R-AIR-05); he may
        spend free unrestricted declarations (Republican president, 14.5) on the others, as many as he chooses
        (decision R-WAR-13)."""
        boxes = sorted(
            {
                self.airwar["aircraft"][a]["box"]
                for a in self._craft(CAPITALIST)
                if self.airwar["aircraft"][a]["box"] in STRATEGIC
                and "yes"
                in (
                    mission_boxes()[self.airwar["aircraft"][a]["box"]].restricted_box,
                    mission_boxes()[self.airwar["aircraft"][a]["box"]].always_unrestricted,
                )
                and not self.airwar["aircraft"][a]["restricted"]
            }
        )
        if not boxes:
            return
        if self.china_in():  # 12.2 (R-WAR-12): all ops unrestricted, no VP to the Communist for it
            yield self.ruling(
                "ROW-12.2",
                "Unrestricted operations",
                f"Unrestricted boxes: {', '.join(boxes)}: with China in the war every Capitalist operation is "
                "unrestricted and costs no US Unrest.",
                result={"unrestricted": boxes, "secret": "", "unrest": 0, "free": 0},
            )
            return
        secret = ""
        if self.vp["secret_ops_allowed"]:
            a = yield self.decide(
                CAPITALIST,
                "Declare one unrestricted box a secret mission?",
                "ROW-10.3.7",
                [
                    *(
                        Action.make("secret_box", f"The {mission_boxes()[b].name} box is secret", box=b)
                        for b in boxes
                    ),
                    Action.make("no_secret", "No secret mission"),
                ],
                kind="secret_box",
            )
            if a.kind == "secret_box":
                secret = a["box"]
        paid = [b for b in boxes if b != secret]
        free = 0
        left = self.airwar["free_unrestricted"]
        if left and paid:  # 14.5 (R-WAR-13): the Capitalist decides how many free declarations to spend now
            a = yield self.decide(
                CAPITALIST,
                f"Use free unrestricted declarations (Republican administration: {left} left)?",
                "ROW-14.5",
                [
                    *(
                        Action.make(
                            "use_free_unrestricted",
                            f"Use {n} free declaration{'s' if n > 1 else ''} ({n} US Unrest saved, {left - n} left)",
                            n=n,
                        )
                        for n in range(min(left, len(paid)), 0, -1)
                    ),
                    Action.make(
                        "keep_free_unrestricted",
                        f"Pay US Unrest +{len(paid)} and keep the {left} for later",
                        n=0,
                    ),
                ],
                kind="free_unrestricted",
            )
            free = a["n"]
        self.airwar["secret"] = secret  # set after the last question, so the ruling below records it
        self.airwar["free_unrestricted"] -= free
        cost = len(paid) - free
        self._touch()
        yield self.ruling(
            "ROW-10.3.7",
            "Unrestricted operations",
            f"Unrestricted boxes: {', '.join(boxes)}"
            + (f"; {secret} is secret" if secret else "")
            + (f"; {free} free declaration(s) used" if free else "")
            + f": US Unrest +{cost}"
            + ("; Secret Ops +1" if secret else "")
            + ".",
            result={"unrestricted": boxes, "secret": secret, "unrest": cost, "free": free},
        )
        if cost:
            yield from self._award(COMMUNIST, cost, "unrestricted air operations (10.3.7)")
        if secret and not self._over:
            yield from self._air_points("secret_ops", 1, "a secret air mission (10.3.7, 12.1.5)")
