"""Supply (YOTR-SUP) and its timing."""

from __future__ import annotations

from wargames.yotr.data import load_data

from .conftest import choose, clear, put, yotr_at

D = load_data()
P = "1987"
TCHEPONE = "2710"


def position(units: dict[str, str], phase: str = "c_move", turn: int = 1, **kw):
    def edit(g):
        clear(g)
        for u, h in units.items():
            put(g, u, h)

    return yotr_at(phase, turn=turn, edit=edit, **kw)


def test_yotr_sup_a_attack_supply_on_turns_one_and_two():
    g = position({"nva_2": P})
    assert g.supply["nva_2"] == "attack_supply"  # EX-35, far from every Supply Center


def test_yotr_sop_a2a_supply_judged_at_the_start_of_movement():
    g = position({"nva_2": P, "nva_3": D.adj[TCHEPONE][0]}, turn=3)
    assert g.supply == {"nva_2": "isolated", "nva_3": "general_supply"}
    assert g.allowance("nva_2") == 3 and g.allowance("nva_3") == 6
    assert any(r.rule_id == "YOTR-SOP-A2a" for r in g.log[-3:])


def test_yotr_sup_b_nlf_always_in_attack_supply():
    g = position({"nlf_4": P}, turn=3)
    assert g.supply["nlf_4"] == "attack_supply"


def test_yotr_sup_proc_eight_hex_range():
    g = position({"nva_2": P}, turn=3)
    rng = g.communist_range(g.general_sources())
    assert max(rng.values()) == 8 and TCHEPONE in rng and rng[TCHEPONE] == 0


def test_yotr_sup_c_allied_units_and_zones_block_lines():
    n = D.adj[TCHEPONE]
    g = position({"arvn_qt_1": n[0]}, turn=3)
    rng = g.communist_range((TCHEPONE,))
    assert n[0] not in rng  # enemy-occupied
    assert all(
        h not in rng
        for h in D.adj[n[0]]
        if h != TCHEPONE and not g.occupied_by(h, "Communist") and h in g.zoc_for_tracing("Allied")
    )


def test_yotr_sup_c_unbridged_rivers_block_lines():
    a, b = next(
        (x, y)
        for (x, y), f in sorted(D.sides.items())
        if f == {"river"} and D.terrain(x) == D.terrain(y) == "clear"
    )
    g = position({}, turn=3)
    rng = g.communist_range((a,))
    assert rng.get(b, 99) > 1  # never straight across the river


def test_yotr_sop_b2a_allied_supply_in_towns_and_by_lines():
    can_tho = "2383"
    g = position({"arvn_mdw_1": can_tho, "arvn_mde_2": P}, phase="a_move")
    assert g.supply["arvn_mdw_1"] == "supplied" and g.supply["arvn_mde_2"] == "supplied"


def test_yotr_twn_n_besieged_town_is_no_supply_source():
    towns = D.region_towns["central_coast"]
    comm = {}
    for i, t in enumerate(towns, start=1):
        comm[f"nva_{i}"] = next(
            n
            for n in D.adj[t]
            if not D.side_has(t, n, "river") and D.terrain(n) != "sea" and n not in D.towns
        )
    open_hex = next(
        h
        for h in sorted(D.hexes)
        if D.region(h) == "central_coast"
        and h not in D.towns
        and D.terrain(h) == "clear"
        and all(D.grid.distance(h, t) > 3 for t in towns)
    )
    g = position({"rok_1": open_hex, "rok_2": towns[0], **comm}, phase="a_move")
    assert all(g.besieged(t) for t in towns)
    assert g.supply["rok_1"] == "unsupplied" and g.supply["rok_2"] == "supplied"  # inside a town: supplied


def test_yotr_sup_e_revealed_supply_unit_gives_attack_supply_then_is_spent():
    ashau = "3817"  # a Supply Center holding a real supply unit (supply_3, calibration C-02)
    attacker = D.adj[ashau][1]
    target = next(
        n
        for n in D.adj[attacker]
        if n not in (ashau,) and D.terrain(n) != "sea" and not D.side_has(attacker, n, "river")
    )
    g = position({"nva_2": attacker, "arvn_qt_1": target}, phase="c_combat", turn=3)
    assert g.communist_supply("nva_2", combat=True) == "general_supply"
    choose(g, "reveal_supply", unit="supply_3")
    assert g.communist_supply("nva_2", combat=True) == "attack_supply"
    assert g.attack_strength("nva_2") == 5
    choose(g, "done")  # no (more) reveals
    while g.phase.id == "c_combat":
        g.apply(g.legal_actions()[-1])
    assert g.loc["supply_3"] == "removed"


def test_yotr_sup_f_supply_judged_at_the_instant_of_combat():
    g = position({"nva_2": P}, phase="c_combat", turn=3)
    assert g.communist_supply("nva_2", combat=True) == "isolated"
    put(g, "nva_2", D.adj[TCHEPONE][0])
    g.touch()
    assert g.communist_supply("nva_2", combat=True) == "general_supply"


def test_yotr_sup_g_no_attrition_for_isolated_units():
    g = position({"nva_2": P}, turn=3)
    g.set_players({})
    assert g.supply["nva_2"] == "isolated"
    g.apply(g.legal_actions()[-1])  # end movement
    assert g.loc["nva_2"] == P


def test_yotr_sup_h_any_number_share_a_source():
    units = {f"nva_{i}": D.adj[TCHEPONE][i % 3] for i in range(1, 8)}
    g = position(units, turn=3)
    assert all(g.supply[u] == "general_supply" for u in units)


def test_yotr_sup_chart_an_unsupplied_arvn_unit_cannot_be_declared_as_an_attacker():
    """YOTR-SUP-CHART / YOTR-CBT-A (decision D-54, revised in issue 28): ARVN 3-6 at 1987 is cut off by the
    zones of a dummy (1986) and an NVA 4-6 (1988), so its attack strength is zero: it is not offered as an
    attacker, and 1988, next to no other Allied unit, is not offered as a target (no reveal for free)."""
    units = {"arvn_qt_3": "1987", "dummy_1": "1986", "nva_7": "1988", "arvn_qn_1": "1985"}
    g = position(units, phase="a_combat", turn=3, dice=[6])
    assert g.allied_supply("arvn_qt_3") == "unsupplied" and g.attack_strength("arvn_qt_3") == 0
    assert g.may_attack("arvn_qt_3") and not g.may_declare("arvn_qt_3")
    assert g.decision.rule_id == "YOTR-CBT-A"
    targets = {a["hex"] for a in g.legal_actions() if a.kind == "target"}
    assert "1986" in targets and "1988" not in targets
    assert all("arvn_qt_3" not in g.eligible_attackers("Allied", h, set()) for h in targets)


def test_yotr_sup_f_an_attack_whose_attackers_lost_their_strength_is_not_made_and_reveals_nothing():
    """YOTR-SUP-F (decision D-54): supply is judged again at the instant of the battle; when every declared
    attacker has lost its strength by then, there is no battle and the defenders stay face down."""
    units = {"arvn_qt_3": "1987", "nva_7": "1988", "arvn_qn_1": "1985", "nva_2": "1984"}
    g = position(units, phase="a_combat", turn=3)  # NVA at 1984: a second target keeps the declaring open
    assert g.may_declare("arvn_qt_3")
    out = choose(g, "target", hex="1988")
    if g.decision.rule_id == "YOTR-CBT-H":
        out += choose(g, "attacker", unit="arvn_qt_3")
    while g.decision.rule_id == "YOTR-CBT-D":
        out += choose(g, "no_more")
    assert g.decision.rule_id == "YOTR-CBT-A"
    g.place("dummy_1", "1986")  # the line is cut between declaration and battle
    g.touch()
    assert g.attack_strength("arvn_qt_3") == 0
    out += choose(g, "done")
    assert any(r.title == "No attack on 1988" for r in out)
    assert not any(r.rule_id == "YOTR-CBT-CRT" for r in out) and "nva_7" not in g.face_up


def test_yotr_sup_allied_line_traced_back_agrees_with_the_hexes_traced_from_the_sources():
    """YOTR-SUP / YOTR-SUP-C: a unit's supply line is traced back from its hex to the first source (speed, issue
    #21); at every tenth decision of a bot game each Allied unit outside a town gets the answer that membership
    in the hexes traced forward from every source gives, and both answers occur."""
    import wargames

    g = wargames.load("yotr", "historical", 3)
    bots = {s: g.player_for(s) for s in g.sides}
    g.set_players({s: None for s in g.sides})
    seen, n = set(), 0
    while not g.is_over:
        if g.decision is None:
            g.advance("decision")
            continue
        n += 1
        if n % 10 == 0:
            for uid in g.on_map("Allied"):
                h = g.loc[uid]
                if h not in g.data.towns or g.town[h] == "nlf":
                    want = h in g.allied_supplied_hexes(g.allied_class(uid))
                    assert g.allied_supply(uid) == ("supplied" if want else "unsupplied"), (uid, h, n)
                    seen.add(want)
        g.apply(bots[g.decision.side].choose(g, g.decision))
    assert seen == {True, False}


def test_yotr_sup_proc_svay_rieng_is_a_town_hex_for_supply_as_for_bombardment():
    """YOTR-SUP-PROC with YOTR-TEC-5 (decision D-72): the Cambodian town of Svay Rieng is not doubled under
    bombardment because of its town symbol, and by the same symbol an Allied unit in it is Supplied, besieged or
    not; unbesieged and free of Communist units it is a source of supply lines.  It still scores nothing."""
    svay = D.places["svay_rieng"].hex
    ring = [h for h in D.adj[svay] if D.terrain(h) != "sea"]
    g = position({"arvn_svay_rieng_2": svay}, phase="a_move")
    assert g.bombardment_multiplier(svay) == 1 and svay not in D.towns
    assert svay in g._allied_lines("arvn")[0]
    g.place("nva_2", ring[0])  # a Communist zone over the town: besieged, no longer a source
    g.touch()
    assert svay not in g._allied_lines("arvn")[0]
    for i, h in enumerate(ring[1:], start=3):  # ringed: no line leads out, the town hex still supplies
        g.place(f"nva_{i}", h)
    g.touch()
    assert g.allied_supply("arvn_svay_rieng_2") == "supplied"
