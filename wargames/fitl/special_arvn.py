"""Fire in the Lake: the ARVN Special Activities Govern, Transport and Raid (FITL-4.3.1 to FITL-4.3.3); a mixin of
:class:`~wargames.fitl.special_coin.CoinSpecialActivities`."""

from __future__ import annotations

from ..core import Action
from .ops_common import DONE, Flow, OpCtx
from .special import (
    ARVN_CUBES,
    GOVERN,
    RAID,
    TRANSPORT,
    SpecialActivities,
)


class ArvnActivities(SpecialActivities):
    """Mixin: Govern, Transport, Raid (ARVN, FITL-4.3)."""

    # ================================================================== Govern (4.3.1)
    def govern_spaces(self, ctx: OpCtx) -> list[str]:
        train = ctx.spaces if ctx.op == "train" else []
        return [
            s
            for s in self.spaces()
            if self.is_pc(s)
            and s != "saigon"
            and s not in train
            and self.board.control(s) == "coin"
            and self.board.support[s] > 0
        ]

    def can_govern(self, ctx: OpCtx) -> bool:
        return bool(self.govern_spaces(ctx))

    def sa_govern(self, ctx: OpCtx) -> Flow:
        """FITL-4.3.1 (decision F-66: the transfer moves at most the Aid there is; Capability #86 Mandate of
        Heaven unshaded: the first transfer shifts no Support, FITL-5.3)."""
        mandate = [self.lasting(86, "unshaded")]

        def body(s: str) -> Flow:
            p = self.pop(s)
            opts = [Action.make("mode", f"Add 3 x {p} = {3 * p} Aid", [s], mode="aid")]
            us = self.n(s, "us_troops")
            arvn = sum(self.n(s, k) for k in ARVN_CUBES)
            if arvn > us:
                opts.append(
                    Action.make(
                        "mode", f"Move {p} Aid to Patronage and shift toward Neutral", [s], mode="patronage"
                    )
                )
            m = yield self.decide(
                "ARVN",
                f"Govern in {self.sname(s)}: how?",
                GOVERN,
                opts,
                kind="mode",
                **ctx.context(step="mode", sa="govern", space=s),
            )
            a0, p0 = self.board.tracks["aid"], self.board.tracks["patronage"]
            if m["mode"] == "aid":
                self.track("aid", 3 * p)
                text = f"+3 x Population {p}: Aid {a0} -> {self.board.tracks['aid']}"
            else:
                k = min(p, a0)
                self.track("aid", -k)
                self.track("patronage", k)
                if mandate[0]:
                    old = new = self.board.support[s]
                    shift = f"no shift [{mandate[0]}: 1 space]"
                    mandate[0] = ""
                else:
                    old, new = self.shift_support(s, -1)
                    shift = f"{self.level(old)} -> {self.level(new)}"
                text = (
                    f"{k} Aid to Patronage (ARVN cubes {arvn} > US Troops {us}): Aid {a0} -> "
                    f"{self.board.tracks['aid']}, Patronage {p0} -> {self.board.tracks['patronage']}; {shift}"
                )
            yield self.oruling(
                GOVERN,
                f"Govern in {self.sname(s)}",
                f"Govern in {self.sname(s)} (COIN Control, Support): {text}.",
                result={"space": s, "mode": m["mode"]},
                places=[s],
                inputs={"population": p, "arvn_cubes": arvn, "us_troops": us},
            )

        before = len(ctx.sa_spaces)
        yield from self._each_space(
            ctx,
            GOVERN,
            "Govern",
            lambda: self.govern_spaces(ctx),
            2,
            lambda s: f"Govern in {self.sname(s)}",
            body,
        )
        turks = self.leader_effect(126)
        if (
            turks and len(ctx.sa_spaces) > before
        ):  # FITL-2.4.1 Young Turks: each Govern adds +2 Patronage, once
            p0 = self.board.tracks["patronage"]
            self.track("patronage", 2)
            yield self.oruling(
                GOVERN,
                "Young Turks: +2 Patronage",
                f"The ARVN Governed while {turks} leads: "
                f"Patronage +2 ({p0} -> {self.board.tracks['patronage']}).",
                result={"patronage": self.board.tracks["patronage"]},
            )

    # ================================================================== Transport (4.3.2)
    def transport_reach(self, origin: str) -> list[str]:
        """FITL-4.3.2: onto adjacent LoCs, on along LoCs and through Cities, stopping at NVA/VC pieces, then
        optionally into any adjacent space (never North Vietnam)."""
        path: set[str] = set()
        frontier = [n for n in self.adjacent(origin) if self.is_loc(n)]
        if self.leader_effect(125):  # FITL-2.4.1 Nguyen Khanh: through at most 1 LoC (decision F-173)
            final: set[str] = set()
            for loc in frontier:
                final.add(loc)
                if not self.insurgent_pieces(loc):
                    final |= {n for n in self.adjacent(loc) if not self.is_loc(n)}
            return sorted(d for d in final if d != origin and not self.in_nvn(d))
        while frontier:
            s = frontier.pop()
            if s in path:
                continue
            path.add(s)
            if self.insurgent_pieces(s):
                continue
            frontier += [n for n in self.adjacent(s) if (self.is_loc(n) or self.is_city(n)) and n not in path]
        final = set(path)
        for s in path:
            if not self.insurgent_pieces(s):
                final |= set(self.adjacent(s))
        return sorted(d for d in final if d != origin and not self.in_nvn(d))

    def transport_keys(self) -> tuple[str, ...]:
        """FITL-4.3.2: Troops and Rangers move; only Rangers with Capability #61 Armored Cavalry shaded (5.3)."""
        if self.lasting(61, "shaded"):
            return ("arvn_rangers:u", "arvn_rangers:a")
        return ("arvn_troops", "arvn_rangers:u", "arvn_rangers:a")

    def transport_origins(self) -> list[str]:
        return [s for s in self.spaces() if sum(self.n(s, k) for k in self.transport_keys())]

    def can_transport(self, ctx: OpCtx) -> bool:
        return bool(self.transport_origins())

    def sa_transport(self, ctx: OpCtx) -> Flow:
        o = yield self.decide(
            "ARVN",
            "Transport: from which space?",
            TRANSPORT,
            [
                Action.make("space", f"Transport from {self.sname(s)}", [s], space=s)
                for s in self.transport_origins()
            ],
            kind="space",
            **ctx.context(step="sa_space", sa="transport"),
        )
        s = o["space"]
        ctx.sa_spaces.append(s)
        sent = 0
        reach = self.transport_reach(s)
        keys = self.transport_keys()
        if self.lasting(61, "shaded"):
            yield self.oruling(
                TRANSPORT,
                "Transport: Rangers only",
                f"Only Rangers may move [{self.lasting(61, 'shaded')}].",
                result={"keys": list(keys)},
            )
        dests: list[str] = []
        while sent < 6 and reach and sum(self.n(s, k) for k in keys):
            a = yield from self.pick_destination(
                "ARVN",
                f"Transport from {self.sname(s)}: where ({sent} of 6 moved) or done",
                TRANSPORT,
                ctx,
                reach,
                done=True,
                sa="transport",
                origin=s,
            )
            if a.kind == "done":
                break
            d = a["space"]
            group = yield from self.pick_group(
                "ARVN",
                lambda k, d=d: f"Transport to {self.sname(d)}: how many {self.kname(k, 2)[2:]}?",
                TRANSPORT,
                ctx,
                [k for k in keys if self.n(s, k)],
                lambda k, group, s=s, sent=sent: min(self.n(s, k), 6 - sent - sum(group.values())),
                sa="transport",
                origin=s,
                space=d,
            )
            for k, x in group.items():
                self.board.move(s, d, k, x)
            sent += sum(group.values())
            if d not in dests:
                dests.append(d)
            yield self.oruling(
                TRANSPORT,
                f"Transport to {self.sname(d)}",
                f"Transport moves {self.pieces_text(group)} from {self.sname(s)} along LoCs and through "
                f"Cities to {self.sname(d)} ({sent} of 6).",
                result={"from": s, "to": d, "pieces": group},
                places=[s, d],
            )
        flipped = 0
        for sp in self.spaces():
            k = self.n(sp, "arvn_rangers:a")
            if k:
                self.board.flip(sp, "arvn_rangers", "u", k)
                flipped += k
        yield self.oruling(
            TRANSPORT,
            "Rangers go Underground",
            f"After the Transport every Ranger on the map is Underground ({flipped} flipped).",
            result={"flipped": flipped},
        )
        cav = self.lasting(61, "unshaded")  # FITL-5.3: a free ARVN Assault in 1 Transport destination
        targets = [d for d in dests if self.insurgent_pieces(d) and self.assault_count("ARVN", d)[0]]
        if cav and targets:
            opts = [
                Action.make("space", f"Free ARVN Assault in {self.sname(d)}", [d], space=d) for d in targets
            ]
            opts.append(Action.make("none", "No Assault"))
            a = yield self.decide(
                "ARVN",
                f"Transport: a free Assault in one destination? [{cav}]",
                TRANSPORT,
                opts,
                kind="space",
                **ctx.context(step="assault", sa="transport"),
            )
            if a.kind == "space":
                yield from self.resolve_assault(
                    "ARVN", "ARVN", a["space"], f"free, after the Transport [{cav}]"
                )

    # ================================================================== Raid (4.3.3)
    def raid_spaces(self) -> list[str]:
        out = []
        for s in self.spaces():
            if self.in_nvn(s):
                continue
            here = self.n(s, "arvn_rangers:u") + self.n(s, "arvn_rangers:a")
            near = any(self.n(a, "arvn_rangers:u") + self.n(a, "arvn_rangers:a") for a in self.adjacent(s))
            if near or here and self.enemy_removable(s):
                out.append(s)
        return out

    def can_raid(self, ctx: OpCtx) -> bool:
        return bool(self.raid_spaces())

    def sa_raid(self, ctx: OpCtx) -> Flow:
        """FITL-4.3.3 (decision F-62: Rangers come from adjacent spaces other than the other Raid space)."""

        def body(s: str) -> Flow:
            while True:
                srcs = [
                    a
                    for a in self.adjacent(s)
                    if a not in ctx.sa_spaces and self.n(a, "arvn_rangers:u") + self.n(a, "arvn_rangers:a")
                ]
                if not srcs:
                    break
                opts = [
                    Action.make("move_from", f"Move Rangers in from {self.sname(a)}", [a], space=a)
                    for a in srcs
                ] + [DONE]
                a = yield self.decide(
                    "ARVN",
                    f"Raid into {self.sname(s)}: move in adjacent Rangers (or done)",
                    RAID,
                    opts,
                    kind="move_from",
                    **ctx.context(step="move_from", sa="raid", space=s),
                )
                if a.kind == "done":
                    break
                src = a["space"]
                nu, na = self.n(src, "arvn_rangers:u"), self.n(src, "arvn_rangers:a")
                u = yield from self.pick_count(
                    "ARVN",
                    "Raid: how many Underground Rangers?",
                    RAID,
                    0 if na else 1,
                    nu,
                    label=lambda v: f"{v} Underground",
                    **ctx.context(step="count", sa="raid", origin=src, space=s),
                )
                x = yield from self.pick_count(
                    "ARVN",
                    "Raid: how many Active Rangers?",
                    RAID,
                    0 if u else 1,
                    na,
                    label=lambda v: f"{v} Active",
                    **ctx.context(step="count", sa="raid", origin=src, space=s),
                )
                if u:
                    self.board.move(src, s, "arvn_rangers:u", u)
                if x:
                    self.board.move(src, s, "arvn_rangers:a", x)
                yield self.oruling(
                    RAID,
                    f"Raid: Rangers into {self.sname(s)}",
                    f"{u} Underground and {x} Active Ranger(s) move from {self.sname(src)} into "
                    f"{self.sname(s)} (keeping their state).",
                    result={"from": src, "to": s, "u": u, "a": x},
                    places=[src, s],
                )
            if self.n(s, "arvn_rangers:u") and self.enemy_removable(s):
                yes = yield from self.yesno(
                    "ARVN",
                    f"Raid in {self.sname(s)}: Activate an Underground Ranger to remove 2 enemy pieces?",
                    RAID,
                    "Strike",
                    "No strike",
                    **ctx.context(step="strike", sa="raid", space=s),
                )
                if yes:
                    picked = yield from self.strike_two(
                        "ARVN", s, RAID, **ctx.context(sa="raid", step="remove")
                    )
                    self.board.flip(s, "arvn_rangers", "a", 1)
                    yield self.oruling(
                        RAID,
                        f"Raid strikes in {self.sname(s)}",
                        f"An Underground Ranger in {self.sname(s)} turns Active and removes "
                        f"{self.pieces_text(picked)} (Bases last, never a Tunneled Base).",
                        result={"space": s, "removed": [k for _, k in picked]},
                        places=[s],
                    )

        yield from self._each_space(
            ctx, RAID, "Raid", self.raid_spaces, 2, lambda s: f"Raid in {self.sname(s)}", body
        )
