"""Fire in the Lake: Event cards whose effects the step vocabulary cannot express (rules 5.1-5.5).

Each hook is a generator ``card_<n>_<name>(game, ctx, step)`` called by the ``hook`` step; it yields rulings and
decisions like any procedure and cites the card and rule it applies.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from .words import EvCtx

if TYPE_CHECKING:  # pragma: no cover
    from ..game import FitlGame

COIN_KEYS = (
    "us_troops",
    "arvn_troops",
    "arvn_police",
    "us_irregulars:u",
    "us_irregulars:a",
    "arvn_rangers:u",
    "arvn_rangers:a",
    "us_bases",
    "arvn_bases",
)

Flow = Generator[Any, Any, Any]


def card_006_aces_strike(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 6 Aces, unshaded: the US strikes 1 Province outside South Vietnam with 6 hits, no die and no Degrade
    (FITL-4.2.3 removal order: NVA Troops first, then Active Guerrillas, Bases only when no other Insurgent piece
    remains; never Underground Guerrillas or Tunneled Bases)."""
    cands = [
        s
        for s, sp in game.data.spaces.items()
        if sp.country != "SVN" and sp.kind == "province" and _strike_targets(game, s)
    ]
    if not cands:
        yield game.ev_rule(
            ctx,
            "FITL-5.1.3",
            "No Air Strike target",
            "no Province outside the South holds a piece an Air Strike could remove.",
        )
        return
    yield from game.ev_select(
        ctx,
        {
            "var": "aces",
            "by": "US",
            "where": {"spaces": cands},
            "prompt": "strike which Province?",
            "rule": "FITL-4.2.3",
        },
    )
    s = ctx.vars["aces"][0]
    removed = yield from _remove_one_by_one(
        game, ctx, "US", s, 6, lambda: _strike_targets(game, s), "FITL-4.2.3"
    )
    yield game.ev_rule(
        ctx,
        "FITL-4.2.3",
        "Air Strike (6 hits)",
        f"6 hits on {game.ev_sname(s)} remove "
        f"{', '.join(removed) or 'nothing'} (NVA Troops first, Bases last).",
        places=[s],
        result={"removed": removed},
        changes=[{"space": s, "removed": removed}],
    )


def _strike_targets(game: FitlGame, s: str) -> list[str]:
    """FITL-4.2.3: the keys an Air Strike hit may remove in ``s`` now, in removal order."""
    c = game.board.pieces[s]
    if c["nva_troops"]:
        return ["nva_troops"]
    act = [k for k in ("nva_guerrillas:a", "vc_guerrillas:a") if c[k]]
    if act:
        return act
    if any(c[k] for k in ("nva_guerrillas:u", "vc_guerrillas:u")):
        return []
    return [k for k in ("nva_bases", "vc_bases") if c[k]]


def card_029_tribesmen_replace(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 29 Tribesmen, shaded: every US Irregular on the map goes to US Available and an Underground VC Guerrilla
    takes its place while VC Guerrillas are Available (FITL-5.1.1: remove rather than replace when none is)."""
    b = game.board
    for s in sorted(b.pieces):
        for key in ("us_irregulars:u", "us_irregulars:a"):
            n = b.pieces[s][key]
            if not n:
                continue
            b.remove(s, key, n)
            k = min(n, b.available["vc_guerrillas"])
            if k:
                b.place(s, "vc_guerrillas", k)
            yield game.ev_rule(
                ctx,
                "FITL-5.1.1",
                "Irregulars replaced",
                f"{game.ev_kname(key, n)} in "
                f"{game.ev_sname(s)} to US Available; {k} Underground VC Guerrilla(s) placed instead"
                + (" (no more VC Guerrillas Available)" if k < n else "")
                + ".",
                places=[s],
                changes=[{"space": s, "removed": {key: n}, "placed": {"vc_guerrillas:u": k}}],
            )


def card_030_new_jersey_strike(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 30 USS New Jersey, unshaded: the chosen faction strikes 1-3 coastal spaces (no COIN piece needed), each
    losing up to 2 Active enemy pieces in Air Strike order, no die and no Degrade; struck populated spaces shift 1
    toward Active Opposition (FITL-4.2.3, FITL-1.3.7)."""
    by = step.get("by", ctx.faction)
    cands = [s for s, sp in game.data.spaces.items() if sp.coastal and _strike_targets(game, s)]
    if not cands:
        yield game.ev_rule(
            ctx, "FITL-5.1.3", "No target", "no coastal space holds a piece a strike could remove."
        )
        return
    yield from game.ev_select(
        ctx,
        {
            "var": "nj",
            "by": by,
            "n": 3,
            "upto": True,
            "where": {"spaces": cands},
            "prompt": "strike which coastal space?",
            "rule": "FITL-4.2.3",
        },
    )
    for s in ctx.vars["nj"]:
        removed = yield from _remove_one_by_one(
            game, ctx, by, s, 2, lambda s=s: _strike_targets(game, s), "FITL-4.2.3"
        )
        old = game.board.support[s]
        sp = game.data.spaces[s]
        if removed and sp.kind != "loc" and sp.population > 0:
            game.board.support[s] = max(-2, old - 1)
        yield game.ev_rule(
            ctx,
            "FITL-4.2.3",
            "Naval gunfire",
            f"{game.ev_sname(s)}: removed "
            f"{', '.join(removed) or 'nothing'}; Support {old} -> {game.board.support[s]}.",
            places=[s],
            changes=[
                {"space": s, "removed": removed},
                {"support": s, "from": old, "to": game.board.support[s]},
            ],
        )


US_CAPABILITIES = (4, 8, 11, 13, 14, 18, 19, 20, 28)


def card_052_rand_flip(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 52 RAND: turn 1 US Capability in play to its other side (FITL-5.3); nothing if none qualifies."""
    to = step["to"]
    frm = "shaded" if to == "unshaded" else "unshaded"
    cands = [c for c in US_CAPABILITIES if game.capabilities.get(str(c)) == frm]
    if not cands:
        yield game.ev_rule(ctx, "FITL-5.1.3", "No Capability to flip", f"no US Capability is in play {frm}.")
        return
    c = cands[0]
    if len(cands) > 1:
        from ...core import Action

        a = yield game.decide(
            ctx.faction,
            f"{ctx.label}: flip which US Capability?",
            "FITL-5.3",
            [Action.make("option", game.data.cards[x].title, index=i, card=x) for i, x in enumerate(cands)],
            kind="event_choice",
            card=ctx.card,
            event_side=ctx.side,
            check=game._ev_check(ctx, "FITL-5.1", "not one of the choices offered"),
        )
        c = a["card"]
    game.capabilities[str(c)] = to
    yield game.ev_rule(
        ctx,
        "FITL-5.3",
        "Capability flipped",
        f"{game.data.cards[c].title} turns {to}.",
        changes=[{"capability": c, "side": to}],
    )


def card_081_cidg_replace(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 81 CIDG, unshaded: up to the die roll, VC Guerrillas in South Vietnam are each replaced by an ARVN Police,
    an Underground Ranger or an Underground Irregular (executing faction's choice; FITL-5.1.1: removed without
    replacement when none of them is Available)."""
    from ...core import Action

    b = game.board
    for _ in range(int(ctx.vars.get("roll", 0))):
        cands = [
            (s, k)
            for s, sp in game.data.spaces.items()
            if sp.country == "SVN"
            for k in ("vc_guerrillas:u", "vc_guerrillas:a")
            if b.pieces[s][k]
        ]
        if not cands:
            break
        opts = [
            Action.make("pick", f"{game.ev_kname(k)} in {game.ev_sname(s)}", places=[s], space=s, key=k)
            for s, k in cands
        ]
        a = (
            opts[0]
            if len(opts) == 1
            else (
                yield game.decide(
                    ctx.faction,
                    f"{ctx.label}: replace which VC Guerrilla?",
                    "FITL-5.1.1",
                    opts,
                    kind="event_piece",
                    card=ctx.card,
                    event_side=ctx.side,
                    step="remove",
                    check=game._ev_check(ctx, "FITL-5.1", "not one of the choices offered"),
                )
            )
        )
        s, k = a["space"], a["key"]
        kinds = [p for p in ("arvn_police", "arvn_rangers", "us_irregulars") if b.available[p]]
        placed = "nothing (none Available)"
        p = kinds[0] if kinds else ""
        if len(kinds) > 1:  # both choices are asked before anything changes (decision F-68 style)
            c = yield game.decide(
                ctx.faction,
                f"{ctx.label}: which piece replaces it?",
                "FITL-5.1.1",
                [
                    Action.make("option", game.data.pieces[x].name, index=i, piece=x)
                    for i, x in enumerate(kinds)
                ],
                kind="event_choice",
                card=ctx.card,
                event_side=ctx.side,
                step="replace",
                check=game._ev_check(ctx, "FITL-5.1", "not one of the choices offered"),
            )
            p = c["piece"]
        b.remove(s, k, 1)
        if p:
            b.place(s, p, 1)
            placed = game.ev_kname(f"{p}:u" if p != "arvn_police" else p)
        yield game.ev_rule(
            ctx,
            "FITL-5.1.1",
            "Guerrilla replaced",
            f"{game.ev_kname(k)} in {game.ev_sname(s)} to VC Available; {placed} takes its place.",
            places=[s],
            changes=[{"space": s, "removed": k, "placed": placed}],
        )


def card_084_to_quoc_desert(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 84 To Quoc, shaded, and the Failed Attempt Coup cards (129, 130): in every space with 3+ ARVN cubes 1
    cube per 3 is removed.  With ``by: ARVN`` (Failed Attempt, decision F-179) the ARVN chooses in each space how
    many of them are Troops and how many Police; otherwise Police go first, then Troops (To Quoc, decision F-108).
    The spaces are kept in ``deserted``."""
    from ...core import Action

    b = game.board
    deserted = []
    chooser = step.get("by")
    for s in sorted(b.pieces):
        cubes = b.pieces[s]["arvn_troops"] + b.pieces[s]["arvn_police"]
        n = cubes // 3
        if not n:
            continue
        t_max, p_max = min(n, b.pieces[s]["arvn_troops"]), min(n, b.pieces[s]["arvn_police"])
        splits = [t for t in range(n + 1) if t <= t_max and n - t <= p_max]
        if chooser and len(splits) > 1:
            a = yield game.decide(
                chooser,
                f"{ctx.label}: which ARVN cubes desert in {game.ev_sname(s)}?",
                "FITL-2.4.1",
                [
                    Action.make(
                        "option",
                        f"{game.ev_sname(s)}: remove {t} ARVN Troops and {n - t} Police",
                        places=[s],
                        index=i,
                        troops=t,
                    )
                    for i, t in enumerate(splits)
                ],
                kind="event_choice",
                card=ctx.card,
                event_side=ctx.side,
                step="desert",
                space=s,
                check=game._ev_check(ctx, "FITL-2.4.1", "not one of the splits offered"),
            )
            troops = a["troops"]
        else:
            troops = max(0, n - b.pieces[s]["arvn_police"]) if not chooser else splits[0]
        out = ["arvn_police"] * (n - troops) + ["arvn_troops"] * troops
        for k in out:
            b.remove(s, k, 1)
        deserted.append(s)
        yield game.ev_rule(
            ctx,
            "FITL-5.1",
            "ARVN desertion",
            f"{game.ev_sname(s)}: {cubes} ARVN cubes, {n} removed ({', '.join(game.ev_kname(k) for k in out)})"
            + (" by the ARVN's choice." if chooser and len(splits) > 1 else "."),
            places=[s],
            changes=[{"space": s, "removed": out}],
        )
    ctx.vars["deserted"] = deserted


def card_091_bob_hope_shaded(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 91 Bob Hope, shaded: the named Insurgent moves up to 3 US Troops from Provinces to Cities, placing one
    of its Underground Guerrillas in the Province each Troop left (while Available)."""
    by = step["by"]
    sub = {
        "by": by,
        "pieces": "us_troops",
        "n": 3,
        "upto": True,
        "var": "bh",
        "from_where": {"kind": "province"},
        "to_where": {"kind": "city"},
    }
    yield from game.ev_move(ctx, sub)
    g = "nva_guerrillas" if by == "NVA" else "vc_guerrillas"
    for s in ctx.vars.get("bh", []):
        if game.board.available[g]:
            game.board.place(s, g, 1)
            yield game.ev_rule(
                ctx,
                "FITL-5.1",
                "Guerrilla moves in",
                f"1 Underground {by} Guerrilla into {game.ev_sname(s)}.",
                places=[s],
                changes=[{"space": s, "placed": g}],
            )


def card_097_flip_leader(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 97 Brinks Hotel, unshaded: the current RVN Leader card is turned face down: its lasting effect stops but
    it still counts in the RVN Leader box (FITL-2.4.1).  Nothing happens under Duong Van Minh."""
    lead = getattr(game, "rvn_leader", "minh")
    if lead == "minh":
        yield game.ev_rule(
            ctx, "FITL-5.1.3", "No leader card to flip", "Duong Van Minh is printed on the board."
        )
        return
    game.event_flags["leader_flipped"] = lead
    yield game.ev_rule(
        ctx,
        "FITL-2.4.1",
        "RVN Leader flipped",
        f"{game.data.cards[lead].title}'s lasting effect stops; the card still counts in the RVN Leader box.",
        result={"flipped": lead},
    )


def card_124_general_uprising(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 124 Tet Offensive (also card 96 APC shaded): (1) a free VC Terror in every space with an Underground VC
    Guerrilla (FITL-3.3.4: Activate 1, a Terror marker or Sabotage if none there and markers remain, populated spaces
    1 level toward Active Opposition); (2) 6 VC pieces into Cities; (3) in every space where Guerrillas meet US/ARVN
    pieces, all Guerrillas there Activate and a die at most their number removes 2 US/ARVN pieces (Bases last, US to
    Casualties), losing 1 Guerrilla (VC first) per US Troop or Base removed (FITL-3.3.3)."""
    b = game.board
    cadres = game.capability_active(116, "unshaded") if hasattr(game, "capability_active") else False
    for s in sorted(s for s in b.pieces if b.pieces[s]["vc_guerrillas:u"]):
        sp = game.data.spaces[s]
        cost = ""
        if cadres:  # card 116 Cadres: each Terror space costs 2 VC Guerrillas; with fewer, no Terror (F-116)
            if b.pieces[s]["vc_guerrillas:u"] + b.pieces[s]["vc_guerrillas:a"] < 2:
                yield game.ev_rule(
                    ctx,
                    "FITL-5.1.2",
                    "No Terror (Cadres)",
                    f"{game.ev_sname(s)}: Cadres needs 2 VC Guerrillas for a Terror and there is only 1.",
                    places=[s],
                )
                continue
            b.flip(s, "vc_guerrillas", "a")
            for _ in range(2):
                b.remove(s, "vc_guerrillas:a" if b.pieces[s]["vc_guerrillas:a"] else "vc_guerrillas:u", 1)
            cost = "; Cadres: 2 VC Guerrillas go to Available"
        else:
            b.flip(s, "vc_guerrillas", "a")
        free = game._markers_free() > 0
        mark = ""
        if sp.kind == "loc":
            if s not in b.sabotage and free:
                b.sabotage.add(s)
                mark = "Sabotage placed"
        elif not b.terror[s] and free:
            b.terror[s] += 1
            mark = "Terror placed"
        old = b.support[s]
        if sp.kind != "loc" and sp.population > 0:
            b.support[s] = max(-2, old - 1)
        yield game.ev_rule(
            ctx,
            "FITL-3.3.4",
            "Terror",
            f"{game.ev_sname(s)}: 1 VC Guerrilla Activates"
            f"{'; ' + mark if mark else ''}; Support {old} -> {b.support[s]}{cost}.",
            places=[s],
            changes=[{"space": s, "terror": mark}, {"support": s, "from": old, "to": b.support[s]}],
        )
    yield from game.ev_place(
        ctx, {"by": "VC", "pieces": ["vc_guerrillas", "vc_bases"], "n": 6, "where": {"kind": "city"}}
    )
    for s in sorted(b.pieces):
        c = b.pieces[s]
        coin = [k for k in COIN_KEYS if c[k]]
        gs = sum(c[k] for k in ("vc_guerrillas:u", "vc_guerrillas:a", "nva_guerrillas:u", "nva_guerrillas:a"))
        if not coin or not gs:
            continue
        for pid in ("vc_guerrillas", "nva_guerrillas"):
            if c[f"{pid}:u"]:
                b.flip(s, pid, "a", c[f"{pid}:u"])
        roll = game.dice.roll(6, purpose=f"{ctx.label}: Attack in {game.ev_sname(s)}")
        hit = roll.value <= gs
        yield game.ev_rule(
            ctx,
            "FITL-3.3.3",
            "Attack",
            f"{game.ev_sname(s)}: all {gs} Guerrillas Activate; die "
            f"{roll.value} {'<=' if hit else '>'} {gs}: "
            + (
                "up to 2 US/ARVN pieces are removed (Bases last), 1 Guerrilla lost per US Troop or Base."
                if hit
                else "the Attack misses."
            ),
            dice=[roll],
            places=[s],
            changes=[{"space": s, "activated": gs}],
        )
        if not hit:
            continue

        def targets(s: str = s, c: Any = c) -> list[str]:
            keys = [k for k in COIN_KEYS if c[k] and not k.endswith("_bases")]
            return keys or [k for k in COIN_KEYS if c[k]]

        def attrition(k: str, s: str = s, c: Any = c) -> str:
            if k not in ("us_troops", "us_bases"):
                return ""
            for g in ("vc_guerrillas:a", "nva_guerrillas:a"):
                if c[g]:
                    b.remove(s, g, 1)
                    return f"; attrition: {game.ev_kname(g)} removed (VC first)"
            return ""

        yield from _remove_one_by_one(game, ctx, "VC", s, 2, targets, "FITL-3.3.3", attrition)


def card_113_ruff_puff_replace(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 113 Ruff Puff, shaded: 5 ARVN Police outside Cities go to ARVN Available, each replaced by an
    Underground VC Guerrilla, or (once) by a VC Base in a Province with room (FITL-5.1.1: removed only when no VC
    piece is Available)."""
    from ...core import Action

    b = game.board
    base_used = False
    for _ in range(5):
        cands = [s for s, sp in game.data.spaces.items() if sp.kind != "city" and b.pieces[s]["arvn_police"]]
        if not cands:
            break
        acts = [Action.make("space", game.ev_sname(s), places=[s], space=s) for s in cands]
        s = (
            cands[0]
            if len(cands) == 1
            else (
                yield game.decide(
                    ctx.faction,
                    f"{ctx.label}: replace Police where?",
                    "FITL-5.1.1",
                    acts,
                    kind="event_space",
                    card=ctx.card,
                    event_side=ctx.side,
                    check=game._ev_check(ctx, "FITL-5.1", "not one of the choices offered"),
                )
            )["space"]
        )
        kinds = [
            p
            for p in ("vc_guerrillas", "vc_bases")
            if b.available[p] and (p == "vc_guerrillas" or (not base_used and game.ev_can_stack(s, p)))
        ]
        p = kinds[0] if kinds else ""
        if len(kinds) > 1:
            a = yield game.decide(
                ctx.faction,
                f"{ctx.label}: which VC piece?",
                "FITL-5.1.1",
                [
                    Action.make("option", game.data.pieces[x].name, index=i, piece=x)
                    for i, x in enumerate(kinds)
                ],
                kind="event_choice",
                card=ctx.card,
                event_side=ctx.side,
                step="replace",
                check=game._ev_check(ctx, "FITL-5.1", "not one of the choices offered"),
            )
            p = a["piece"]
        b.remove(s, "arvn_police", 1)
        if p:
            b.place(s, p, 1)
            base_used = base_used or p == "vc_bases"
        yield game.ev_rule(
            ctx,
            "FITL-5.1.1",
            "Police replaced",
            f"1 ARVN Police in {game.ev_sname(s)} to ARVN "
            f"Available; {game.data.pieces[p].name[:-1] if p else 'nothing'} placed instead.",
            places=[s],
            changes=[{"space": s, "removed": "arvn_police", "placed": p}],
        )


def pacify(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Pacification as in the Support Phase (FITL-6.3.1) for Events (card 64 Honolulu Conference, card 96 APC):
    ``factions`` in order Pacify in up to 4 spaces together, each with COIN Control, ARVN Police and the faction's
    Troops; a step removes a Terror marker or shifts 1 level toward Active Support (at most ``max_levels`` per
    space); each step costs ``cost`` ARVN Resources (default the current Pacify cost: 3, 4 under Ky; 0 = free; the
    US not below Total Econ, FITL-1.8.1)."""
    from ...core import Action

    b = game.board
    cost = step.get("cost")
    if cost is None:
        cost = game.pacify_cost() if hasattr(game, "pacify_cost") else 3
    max_levels = int(step.get("max_levels", 2))
    facs = [ctx.faction if f == "executing" else f for f in step.get("factions", ["executing"])]
    used: list[str] = []
    moved: dict[str, int] = {}
    for f in facs:
        troops = "us_troops" if f == "US" else "arvn_troops"
        floor = b.tracks["econ"] if f == "US" else 0
        while True:
            if cost and b.tracks["arvn_resources"] - cost < floor:
                break
            opts = []
            for s, sp in sorted(game.data.spaces.items()):
                if (
                    sp.kind == "loc"
                    or b.control(s) != "coin"
                    or not b.pieces[s]["arvn_police"]
                    or not b.pieces[s][troops]
                    or (s not in used and len(used) >= 4)
                ):
                    continue
                if b.terror[s]:
                    opts.append(
                        Action.make("space", f"{sp.name}: remove Terror ({cost})", places=[s], space=s)
                    )
                elif sp.population and b.support[s] < 2 and moved.get(s, 0) < max_levels:
                    opts.append(
                        Action.make("space", f"{sp.name}: shift toward Support ({cost})", places=[s], space=s)
                    )
            if not opts:
                break
            a = yield game.decide(
                f,
                f"{ctx.label}: Pacify where? ({cost} ARVN Resources a step)",
                "FITL-6.3.1",
                opts + [Action.make("stop", "Stop Pacifying")],
                kind="event_space",
                card=ctx.card,
                event_side=ctx.side,
                check=game._ev_check(ctx, "FITL-5.1", "not one of the choices offered"),
                step="pacify",
            )
            if a.kind == "stop":
                break
            s = a["space"]
            changes = []
            if cost:
                old = b.tracks["arvn_resources"]
                b.shift_track("arvn_resources", -cost)
                changes.append({"track": "arvn_resources", "from": old, "to": b.tracks["arvn_resources"]})
            if b.terror[s]:
                b.terror[s] -= 1
                if not b.terror[s]:
                    del b.terror[s]
                what = "removes a Terror marker"
                changes.append({"terror": s, "removed": 1})
            else:
                old_l = b.support[s]
                b.support[s] = old_l + 1
                moved[s] = moved.get(s, 0) + 1
                what = f"shifts Support {old_l} -> {b.support[s]}"
                changes.append({"support": s, "from": old_l, "to": b.support[s]})
            if s not in used:
                used.append(s)
            yield game.ev_rule(
                ctx,
                "FITL-6.3.1",
                f"{f} Pacifies",
                f"{f} {what} in {game.ev_sname(s)}"
                f"{f' for {cost} ARVN Resources' if cost else ' at no cost'}.",
                places=[s],
                changes=changes,
            )


def card_073_commitment(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 73 Great Society, unshaded: the US holds a Commitment Phase now (FITL-6.5) through the Coup code."""
    fn = getattr(game, "coup_commitment", None)
    if game.__dict__.get("_ev_dry"):  # a dry run (event_effective): the Commitment would move pieces
        game.__dict__["_ev_dry_free"].append("a Commitment Phase")
        return
    if fn is None:
        yield game.ev_rule(ctx, "FITL-6.5", "Commitment (pending)", "the Coup Round code is not present.")
        return
    yield game.ev_rule(
        ctx, "FITL-6.5", "Commitment now", "the US carries out a Commitment Phase immediately."
    )
    yield from fn()


def card_096_tet_returns(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 96 APC, shaded, once Tet Offensive was played: the VC takes card 124 back to play again as its Pivotal
    Event (FITL-2.3.8); otherwise the General Uprising happens now (card 124's effect)."""
    played = getattr(game, "played", [])
    if 124 in played and hasattr(game, "pivotal_held"):
        played.remove(124)
        game.pivotal_held["VC"] = 124
        yield game.ev_rule(
            ctx,
            "FITL-2.3.8",
            "Tet Offensive returns",
            "the VC holds Tet Offensive again as its Pivotal Event.",
            result={"pivotal_held": dict(game.pivotal_held)},
            changes=[{"card": 124, "to": "VC"}],
        )
        return
    yield from card_124_general_uprising(game, ctx, step)


def _remove_one_by_one(
    game: FitlGame, ctx: EvCtx, side: str, s: str, n: int, targets: Any, rule: str, after: Any = None
) -> Flow:
    """Up to ``n`` times: ``side`` picks one of the keys ``targets()`` allows in ``s`` (asked only when there is a
    real choice), it is removed (US pieces to Casualties when ``after`` says so), and a ruling follows each removal
    so every change is explained before the next question (decision F-68).  Returns the keys removed."""
    from ...core import Action

    removed: list[str] = []
    for _ in range(n):
        keys = targets()
        if not keys:
            break
        k = keys[0]
        if len(keys) > 1:
            a = yield game.decide(
                side,
                f"{ctx.label}: remove which piece in {game.ev_sname(s)}?",
                rule,
                [Action.make("pick", f"Remove {game.ev_kname(x)}", places=[s], space=s, key=x) for x in keys],
                kind="event_piece",
                card=ctx.card,
                event_side=ctx.side,
                step="remove",
                check=game._ev_check(ctx, rule, "that piece may not be removed now"),
            )
            k = a["key"]
        to = "casualties" if after is not None and k.startswith("us_") else "available"
        game.board.remove(s, k, 1, to=to)
        removed.append(k)
        extra = after(k) if after is not None else ""
        yield game.ev_rule(
            ctx,
            rule,
            "Piece removed",
            f"{game.ev_kname(k)} removed from {game.ev_sname(s)} to "
            f"{'Casualties' if to == 'casualties' else 'Available'}{extra}.",
            places=[s],
            changes=[{"space": s, "removed": k}],
        )
    return removed


def card_122_easter_troop_attacks(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """Card 122 Easter Offensive (Pivotal): after the free March (and the optional step of Troops off empty LoCs,
    a ``move`` step of the card), NVA Troops Attack free in every space holding both NVA Troops and US/ARVN
    pieces, one space after another (FITL-3.3.3 Troop Attack: 1 enemy piece per 2 Troops, no die, attrition for
    US losses; decision F-166: every such space with the 2 Troops a Troop Attack needs, in map order)."""
    from ..ops_common import OpCtx

    opctx = OpCtx("NVA", "attack", False, True, False)
    spaces = [s for s in game.data.spaces if game.board.pieces[s]["nva_troops"] >= 2 and game.coin_pieces(s)]
    if not spaces:
        yield game.ev_rule(
            ctx,
            "FITL-5.1.3",
            "No Troop Attack",
            "no space holds both 2+ NVA Troops and US or ARVN pieces, so no Attack takes place.",
            result={"spaces": []},
        )
        return
    yield game.ev_rule(
        ctx,
        "FITL-3.3.3",
        "Troop Attacks",
        f"NVA Troops Attack free in every space with NVA Troops "
        f"and US/ARVN pieces: {', '.join(game.ev_sname(s) for s in spaces)}.",
        places=spaces,
        result={"spaces": spaces},
    )
    for s in spaces:
        if game.board.pieces[s]["nva_troops"] >= 2 and game.coin_pieces(s):
            opctx.spaces.append(s)
            yield from game.resolve_attack(opctx, s, "troops", "free (Event)")


def free_ambush(game: FitlGame, ctx: EvCtx, step: dict[str, Any]) -> Flow:
    """An Event's free Ambush (FITL-5.5 with FITL-4.4.3 / FITL-4.5.3) by ``faction`` in up to ``n`` spaces (``all``:
    each) among ``where``: each space needs an Underground Guerrilla of the faction and an enemy piece in reach; 1
    Guerrilla turns Active and removes 1 enemy piece, no die, no attrition.  For cards 59 (Plei Mei) and 99
    (Masher/White Wing), decision F-168."""
    from ...core import Action
    from ..ops_common import OpCtx
    from .words import STOP

    f = step.get("faction", ctx.faction)
    rule = "FITL-4.4.3" if f == "NVA" else "FITL-4.5.3"
    g = "nva_guerrillas" if f == "NVA" else "vc_guerrillas"
    allowed = game.ev_spaces(ctx, step.get("where"))
    n = game.ev_num(ctx, step.get("n", 1))
    opctx = OpCtx(f, "ambush", False, True, True)
    done: list[str] = []
    while n is None or len(done) < n:
        cands = [
            s for s in allowed if s not in done and game.board.pieces[s][f"{g}:u"] and game.ambush_targets(s)
        ]
        if not cands:
            break
        acts = [Action.make("space", f"Ambush from {game.ev_sname(s)}", places=[s], space=s) for s in cands]
        a = yield game.decide(
            f,
            f"{ctx.label}: free Ambush where? ({len(done)} done)",
            rule,
            acts + [STOP],
            kind="event_space",
            card=ctx.card,
            event_side=ctx.side,
            step="ambush",
            check=game._ev_check(ctx, rule, "no free Ambush is possible there"),
        )
        if a.kind == "stop":
            break
        done.append(a["space"])
        yield from game.resolve_ambush(opctx, a["space"], "free, by the Event")
    if not done:
        yield game.ev_rule(
            ctx,
            "FITL-5.1.3",
            "No free Ambush",
            f"no space offers {f} an Underground Guerrilla with an enemy piece in reach, or none was chosen.",
            result={"ambush": []},
        )
