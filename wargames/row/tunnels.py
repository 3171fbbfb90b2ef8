"""Tunnels (14.3) in the game, beyond what combat already does with them (retreat into a tunnel, no support
against a discovered tunnel, discovery at the end of the Capitalist activations):

* the casualty roll: at the end of a Capitalist activation, for each active Capitalist unit standing on a Hidden
  tunnel the Communist may roll a D6 of US Casualties (loss_rolls.csv row capitalist_unit_on_hidden_tunnel;
  decision R-TUN-01);
* building (A2c, 7.1): a Hidden tunnel for 1 supply next to another tunnel, 3 elsewhere, in a hex holding a
  Communist unit with a LoC and no Capitalist unit and no tunnel yet (``tunnel_sites``; decision R-TUN-02).

Units inside tunnels (decisions R-GAME-15, R-GAME-40): a Communist unit that retreats into its hex's tunnel to meet
a spread is inside it (``RowGame.inside``), and an active Communist unit may go in (or come out) at the end of its
initial movement in a hex with a tunnel (``tunnel_entry``); in a Hidden tunnel it is not attackable, has no ZoC and
does not occupy or control the hex (``Piece.in_tunnel``); it leaves the tunnel when it leaves the hex.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Action
from .pieces import CAPITALIST, COMMUNIST

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class TunnelMixin:
    def tunnel_sites(self: RowGame) -> list[tuple[str, str]]:
        """ROW-14.3 (R-TUN-02): (hex, a Communist unit there) where a tunnel may be built now, inside the window."""
        out = []
        for h, units in sorted(self.at_hex.items()):
            if h in self.tunnels or h not in self.window_land:
                continue
            if any(self.side_of(u) == CAPITALIST for u in units):
                continue
            holder = next(
                (u for u in units if self.side_of(u) == COMMUNIST and self.rows[u].kind == "unit"), None
            )
            if holder is not None:
                out.append((h, holder))
        return out

    def tunnel_entry(self: RowGame, side: str, uid: str):
        """ROW-14.3 (decision R-GAME-40): an active Communist unit that ends its initial movement (moved or not) in a
        hex with a tunnel may go into the tunnel, or come out of it onto the surface; no MP are spent, and from
        inside it may still declare a combat and support (14.3).  Offered as the ``tunnel_entry`` decision."""
        if side != COMMUNIST or uid not in self.pos or self.rows[uid].kind != "unit":
            return
        hid = self.pos[uid]
        state = self.tunnels.get(hid)
        if state is None:
            return
        name, inside = self.rows[uid].name, self.inside.get(uid) == hid
        if inside:
            opts = [
                Action.make("stay_in_tunnel", f"{name} stays in the tunnel at {hid}", [hid], unit=uid),
                Action.make("leave_tunnel", f"{name} comes out onto the surface at {hid}", [hid], unit=uid),
            ]
        else:
            opts = [
                Action.make("enter_tunnel", f"{name} goes into the {state} tunnel at {hid}", [hid], unit=uid),
                Action.make("stay_on_surface", f"{name} stays on the surface at {hid}", [hid], unit=uid),
            ]
        a = yield self.decide(
            COMMUNIST,
            f"{name} is at {self.display_name(hid)}, which has a {state} tunnel: "
            + ("stay inside it?" if inside else "go into it?"),
            "ROW-14.3",
            opts,
            unit=uid,
            kind="tunnel_entry",
        )
        if a.kind not in ("enter_tunnel", "leave_tunnel"):
            return
        if a.kind == "enter_tunnel":
            self.inside[uid] = hid
            text = (
                f"{name} goes into the tunnel at {hid} (no MP spent). "
                + (
                    "While the tunnel stays Hidden it cannot be attacked, projects no ZoC and does not control the "
                    "hex; "
                    if state == "Hidden"
                    else "The tunnel is Discovered: it may be attacked as if on the surface, but with no support "
                    "against it; "
                )
                + "it is always in supply, may still declare combats and support from there, and leaves the tunnel "
                "when it leaves the hex (R-GAME-40)."
            )
        else:
            del self.inside[uid]
            text = f"{name} comes out of the tunnel at {hid} onto the surface: it is fought and controls as usual."
        self._touch()
        yield self.ruling(
            "ROW-14.3",
            "Into the tunnel" if a.kind == "enter_tunnel" else "Out of the tunnel",
            text,
            result={"unit": uid, "hex": hid, "tunnel": state, "inside": a.kind == "enter_tunnel"},
            places=[hid],
            side=COMMUNIST,
            hidden_from=(CAPITALIST,)
            if state == "Hidden"
            else (),  # the Capitalist does not see Hidden tunnels
        )

    def tunnel_casualties(self: RowGame, active: list[str]):
        """ROW-14.3 (R-TUN-01): the Communist may roll a D6 of US Casualties for each active Capitalist unit on a
        Hidden tunnel at the end of a Capitalist activation."""
        on = [
            u
            for u in sorted(active)
            if u in self.pos and self.side_of(u) == CAPITALIST and self.tunnels.get(self.pos[u]) == "Hidden"
        ]
        for u in on:
            hid = self.pos[u]
            a = yield self.decide(
                COMMUNIST,
                f"{self.rows[u].name} stands on the Hidden tunnel at {self.display_name(hid)}: roll a D6 of US Casualties?",
                "ROW-14.3",
                [
                    Action.make("tunnel_roll", f"Roll for {self.rows[u].name}", [hid], unit=u),
                    Action.make("no_tunnel_roll", "Do not roll", [hid], unit=u),
                ],
                kind="tunnel_roll",
            )
            if a.kind != "tunnel_roll":
                continue
            d = self.dice.roll(6, "tunnel casualties")
            yield self.ruling(
                "ROW-14.3",
                "Tunnel casualties",
                f"{self.rows[u].name} ended the activation on the "
                f"Hidden tunnel at {hid}: the Communist rolls {d.value} US Casualties (R-TUN-01).",
                result={"unit": u, "casualties": d.value},
                dice=[d],
                places=[hid],
            )
            yield from self._accumulate("US Casualties", d.value)
            if self._over:
                return
