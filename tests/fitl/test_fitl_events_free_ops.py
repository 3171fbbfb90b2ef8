"""FitL Events that grant free Operations and Special Activities with the card's own limits (rules 5.1.1, 5.5):
spaces the Air Lift may land in, one-space and same-space Sweeps and Assaults, Sweeps in place, Assaults on NVA
only, March destinations capped and a free action in each.  Each from a prepared position, with the exact board
change and the choices that were (and were not) offered."""

from __future__ import annotations

from typing import Any

from .ops_helpers import put
from .test_fitl_events_cards_1 import flat
from .test_fitl_events_vocab import EvGame


def run(
    card: int, side: str, faction: str, prep, picks: list[dict[str, Any]] = (), dice: list[int] | None = None
):
    """Play one Event, answering with ``picks`` (matched by kind and fields, ``None``: the first option), then
    the first option; returns the game, the board change and every decision's (prompt, option labels)."""
    g = EvGame([("card", card, faction, side)], prep, dice=dice)
    before = flat(g.before)  # the prepared board, before the Event
    queue, seen = list(picks), []
    for _ in range(300):
        if g.is_over:
            break
        if g.decision is None:
            g.advance("decision")
            continue
        opts = g.legal_actions()
        seen.append((g.decision.prompt, [a.label for a in opts]))
        want = queue.pop(0) if queue else None
        a = (
            opts[0]
            if want is None
            else next(
                o
                for o in opts
                if o.kind == want.get("kind", o.kind)
                and all(o.get(k) == v for k, v in want.items() if k != "kind")
            )
        )
        g.apply(a)
    after = flat(g.board.to_dict())
    delta = {
        k: after.get(k, 0) - before.get(k, 0)
        for k in sorted(set(before) | set(after))
        if after.get(k, 0) != before.get(k, 0)
    }
    assert g.is_over and g.board.invariants() == []
    return g, delta, seen


def offered(seen, prompt_part: str) -> list[list[str]]:
    return [labels for prompt, labels in seen if prompt_part in prompt]


def test_fitl_5_1_1_card_44_ia_drang_unshaded_air_lift_only_into_the_space():
    def prep(g):
        put(g.board, "pleiku_darlac", nva_troops=2, nva_guerrillas__u=2)
        put(g.board, "saigon", us_troops=4)
        put(g.board, "hue", us_troops=2)

    _, d, seen = run(44, "unshaded", "US", prep)
    assert all(labels == ["To Pleiku-Darlac"] for labels in offered(seen, "to which space?"))
    assert offered(seen, "Sweep: choose a destination") == [["Sweep into Pleiku-Darlac"]]
    assert d == {
        "saigon.us_troops": -4,
        "hue.us_troops": -2,
        "pleiku_darlac.us_troops": 6,
        "pleiku_darlac.nva_troops": -2,
        "pleiku_darlac.nva_guerrillas:u": -2,
        "pleiku_darlac.nva_guerrillas:a": 1,
        "available.nva_troops": 2,
        "available.nva_guerrillas": 1,
    }


def test_fitl_5_1_1_card_47_chu_luc_unshaded_assault_ignores_vc_pieces():
    def prep(g):
        put(g.board, "binh_dinh", arvn_troops=2, nva_troops=2, vc_guerrillas__a=2)

    _, d, seen = run(47, "unshaded", "ARVN", prep)
    # ARVN doubled to 4 Troops: 1 removal in a Province; the Active VC Guerrillas neither shield nor die
    assert d == {
        "binh_dinh.arvn_troops": 2,
        "available.arvn_troops": -2,
        "binh_dinh.nva_troops": -1,
        "available.nva_troops": 1,
    }


def test_fitl_5_1_1_card_62_cambodian_civil_war_unshaded_air_lift_into_cambodia():
    def prep(g):
        put(g.board, "the_fishhook", nva_bases=1, vc_bases=1, nva_guerrillas__u=1)
        put(g.board, "saigon", us_troops=3)

    _, d, seen = run(
        62,
        "unshaded",
        "US",
        prep,
        [None, {"kind": "move_to", "space": "the_fishhook"}, {"kind": "count", "n": 3}],
    )
    assert offered(seen, "to which space?")[0] == [
        "To Northeast Cambodia",
        "To The Fishhook",
        "To The Parrot's Beak",
        "To Sihanoukville",
    ]
    cambodia = ("northeast_cambodia", "the_fishhook", "the_parrots_beak", "sihanoukville")
    assert sum(v for k, v in d.items() if k.endswith(".us_troops") and k.split(".")[0] in cambodia) == 3
    assert (
        d["saigon.us_troops"] == -3 and d["the_fishhook.nva_bases"] == -1 and d["the_fishhook.vc_bases"] == -1
    )


def test_fitl_5_1_1_card_67_amphib_landing_unshaded_sweep_and_assault_in_one_coastal_space():
    def prep(g):
        put(g.board, "qui_nhon", us_troops=4)
        put(g.board, "binh_dinh", vc_guerrillas__u=1, nva_troops=1)

    picks = [{"kind": "option", "index": 0}] + [
        {"kind": "pick", "space": "qui_nhon"},
        {"kind": "space", "space": "binh_dinh"},
    ] * 4
    picks += [{"kind": "op", "op": "sweep"}, {"space": "binh_dinh"}]
    _, d, seen = run(67, "unshaded", "US", prep, picks)
    sweeps = offered(seen, "Sweep: choose a destination")
    assert (
        len(sweeps) == 1 and "Sweep into Saigon" in sweeps[0]
    )  # only 1 coastal space, then no 'Done' question
    assert offered(seen, "Assault: choose a space") == [["Assault in Binh Dinh (removes up to 2)"]]
    assert d == {
        "qui_nhon.us_troops": -4,
        "binh_dinh.us_troops": 4,
        "binh_dinh.vc_guerrillas:u": -1,
        "binh_dinh.nva_troops": -1,
        "available.vc_guerrillas": 1,
        "available.nva_troops": 1,
    }


def test_fitl_5_1_1_card_92_sealords_unshaded_sweeps_in_place():
    def prep(g):
        put(g.board, "kien_phong", arvn_troops=1, vc_guerrillas__u=2)
        put(g.board, "can_tho", arvn_troops=3, us_troops=3)
        put(g.board, "ba_xuyen", us_troops=1, vc_guerrillas__u=1)

    _, d, seen = run(92, "unshaded", "ARVN", prep)
    assert not offered(seen, "move Troops")  # in place: no Troops move in from Can Tho
    assert d == {
        "kien_phong.vc_guerrillas:u": -1,
        "kien_phong.vc_guerrillas:a": 1,
        "ba_xuyen.vc_guerrillas:u": -1,
        "ba_xuyen.vc_guerrillas:a": 1,
    }


def test_fitl_5_1_1_card_95_westmoreland_unshaded_up_to_two_different_spaces():
    def prep(g):
        put(g.board, "binh_dinh", us_troops=3, vc_guerrillas__u=2)
        put(g.board, "hue", us_troops=2, nva_troops=1)
        put(g.board, "saigon", us_troops=1)

    lift = [
        {"kind": "move_from", "space": "saigon"},
        {"kind": "move_to", "space": "can_tho"},
        {"kind": "done"},
    ]
    first = [{"kind": "op", "op": "assault"}, {"space": "hue"}]
    _, d, seen = run(
        95,
        "unshaded",
        "US",
        prep,
        lift
        + first
        + [{"kind": "option", "index": 0}, {"kind": "op", "op": "sweep"}, {"space": "binh_dinh"}],
    )
    second = offered(seen, "Sweep: choose a destination")
    assert second and all("Sweep into Hue" not in labels for labels in second)  # the 2nd space differs
    assert not offered(seen, "move Troops")  # Sweep in place
    # the Assault in Hue, the Sweep in place in Binh Dinh, then the free Air Strike on the Activated Guerrillas
    assert d == {
        "saigon.us_troops": -1,
        "can_tho.us_troops": 1,
        "hue.nva_troops": -1,
        "available.nva_troops": 1,
        "binh_dinh.vc_guerrillas:u": -2,
        "available.vc_guerrillas": 2,
        "support.binh_dinh": -1,
        "trail": -1,
    }
    _, d2, seen2 = run(95, "unshaded", "US", prep, lift + first + [{"kind": "option", "index": 1}])
    assert offered(seen2, "a 2nd space") == [["Sweep in place or Assault a 2nd space", "No 2nd space"]]
    assert "binh_dinh.vc_guerrillas:a" not in d2  # no 2nd space: Binh Dinh untouched


def test_fitl_5_5_card_56_giap_shaded_march_into_3_then_a_free_action_in_each():
    def prep(g):
        put(g.board, "north_vietnam", nva_guerrillas__u=6, nva_troops=6)

    g, d, seen = run(56, "shaded", "NVA", prep)
    choices = offered(seen, "a free Operation or Special Activity in this destination")
    assert len(choices) == 3  # one free action for each of the 3 destinations (the cap)
    rally_spaces = [labels for labels in offered(seen, "Rally: choose a space")]
    assert rally_spaces == [["Rally in Central Laos", "Done"], ["Rally in Quang Tri-Thua Thien", "Done"]]
    assert d == {
        "available.nva_guerrillas": -2,
        "loc_hue_khe_sanh.nva_guerrillas:u": 5,
        "north_vietnam.nva_guerrillas:u": -4,
        "nva_resources": -4,
        "quang_tri_thua_thien.nva_guerrillas:u": 1,
        "trail": 2,
    }


def test_fitl_5_1_1_card_71_an_loc_shaded_troops_march_into_a_city_then_attack_twice():
    def prep(g):
        put(g.board, "quang_tri_thua_thien", nva_troops=4, nva_guerrillas__u=2)
        put(g.board, "hue", arvn_troops=2, arvn_police=1)

    g, d, seen = run(71, "shaded", "NVA", prep, [None, None, None, {"kind": "count", "n": 4}])
    assert offered(seen, "to which adjacent space?") == [["To Hue (1 Resource, free Op)"]]  # a City only
    assert not offered(seen, "Guerrillas?")  # Troops only: the Guerrillas are never asked
    assert offered(seen, "Attack: choose a space") == [["Attack in Hue"], ["Attack in Hue"]]
    assert d == {
        "quang_tri_thua_thien.nva_troops": -4,
        "hue.nva_troops": 4,
        "hue.arvn_troops": -2,
        "hue.arvn_police": -1,
        "available.arvn_troops": 2,
        "available.arvn_police": 1,
    }


def test_fitl_5_1_1_card_75_sihanouk_shaded_march_only_out_of_the_rally_spaces():
    def prep(g):
        put(g.board, "the_fishhook", vc_bases=1, vc_guerrillas__u=1, nva_bases=1, nva_guerrillas__u=1)
        put(g.board, "tay_ninh", vc_guerrillas__u=3, nva_guerrillas__u=2)

    _, d, seen = run(75, "shaded", "VC", prep)
    origins = [label for labels in offered(seen, "March: move a group") for label in labels]
    assert origins and not any("Tay Ninh" in label for label in origins)  # Tay Ninh did not Rally
    assert "tay_ninh.vc_guerrillas:u" not in d and "tay_ninh.nva_guerrillas:u" not in d
    assert (
        d["available.vc_guerrillas"] == -4 and d["available.nva_guerrillas"] == -4
    )  # both Rallied in Cambodia


def test_fitl_5_1_1_card_59_plei_mei_shaded_march_starts_outside_the_south():
    def prep(g):
        put(g.board, "central_laos", nva_troops=2)
        put(g.board, "quang_tri_thua_thien", nva_troops=3)

    _, _, seen = run(59, "shaded", "NVA", prep)
    origins = [label for labels in offered(seen, "March: move a group") for label in labels]
    assert any("Central Laos" in label for label in origins)
    assert not any("Quang Tri" in label for label in origins)


def test_fitl_5_1_1_card_23_attleboro_unshaded_assault_ignores_tunnels():
    def prep(g):
        put(g.board, "binh_dinh", us_troops=6, vc_bases__t=1, nva_bases__t=1)

    _, d, seen = run(23, "unshaded", "US", prep)
    assert offered(seen, "Sweep: choose a destination") == [["Sweep into Binh Dinh"]]
    # no die for the Tunnels: both Tunneled Bases go as plain Bases would
    assert d == {
        "binh_dinh.vc_bases:t": -1,
        "binh_dinh.nva_bases:t": -1,
        "available.vc_bases": 1,
        "available.nva_bases": 1,
    }


def test_fitl_3_3_3_card_122_easter_offensive_troops_off_empty_locs_then_attack_everywhere():
    def prep(g):
        put(g.board, "north_vietnam", nva_troops=6)
        put(g.board, "loc_hue_khe_sanh", nva_troops=2)
        put(g.board, "quang_tri_thua_thien", nva_troops=3, us_troops=1, arvn_troops=1)
        put(g.board, "hue", arvn_police=1)
        put(g.board, "kontum", nva_troops=1, arvn_troops=1)

    picks = [
        None,
        {"kind": "move_from", "space": "north_vietnam"},
        {"kind": "move_to", "space": "central_laos"},
        {"kind": "count", "n": 2},
        {"kind": "done"},
    ]
    picks += [{"kind": "pick"}, {"kind": "space", "space": "hue"}] * 2
    picks += [None, {"space": "hue", "key": "arvn_police"}]
    g, d, seen = run(122, "unshaded", "NVA", prep, picks)
    attacks = [
        r
        for r in g.log
        if r.rule_id == "FITL-3.3.3"
        and r.title.startswith("NVA Attack in")
        and not r.title.endswith("to remove")
    ]
    assert [r.result["space"] for r in attacks] == [
        "hue",
        "quang_tri_thua_thien",
    ]  # Kontum: 1 Troop, no Attack
    assert d == {
        "north_vietnam.nva_troops": -2,
        "central_laos.nva_troops": 2,
        "loc_hue_khe_sanh.nva_troops": -2,
        "hue.nva_troops": 2,
        "hue.arvn_police": -1,
        "available.arvn_police": 1,
        "quang_tri_thua_thien.us_troops": -1,
        "casualties.us_troops": 1,
        "quang_tri_thua_thien.nva_troops": -1,
        "available.nva_troops": 1,
    }


def test_fitl_5_1_1_card_70_roks_unshaded_arvn_cubes_count_as_us_troops():
    def prep(g):
        put(g.board, "binh_dinh", us_troops=1, arvn_troops=2, arvn_police=1, vc_guerrillas__u=3, vc_bases=1)

    picks = [{"kind": "option", "index": 0}, None, {"space": "binh_dinh"}, {"kind": "done"}]
    g, d, _ = run(70, "unshaded", "US", prep, picks)
    # Sweep: 4 cubes Activate all 3 Guerrillas; Assault: 4 cubes as US Troops / 2 (Highland) = 2 removals
    assert d == {
        "binh_dinh.vc_guerrillas:u": -3,
        "binh_dinh.vc_guerrillas:a": 1,
        "available.vc_guerrillas": 2,
    }
    assert any("cubes as US Troops" in r.explanation for r in g.log if r.rule_id == "FITL-3.2.4")
    assert not g.__dict__.get("_cubes_as_us")  # the Event's count ends with it


def test_fitl_4_4_3_card_99_masher_shaded_guerrillas_march_then_ambush_in_the_destinations():
    def prep(g):
        put(g.board, "north_vietnam", nva_guerrillas__u=4, nva_troops=2)
        put(g.board, "quang_tri_thua_thien", us_troops=1, arvn_police=1)

    picks = [
        {"kind": "option", "index": 0},
        None,
        None,
        {"space": "quang_tri_thua_thien"},
        {"kind": "count", "n": 3},
        {"kind": "done"},
        {"space": "quang_tri_thua_thien"},
        {"key": "us_troops"},
    ]
    g, d, seen = run(99, "shaded", "NVA", prep, picks)
    assert not offered(seen, "how many NVA Troops")  # Guerrillas only
    assert offered(seen, "free Ambush where?")[0][0] == "Ambush from Quang Tri-Thua Thien"
    assert d == {
        "north_vietnam.nva_guerrillas:u": -3,
        "quang_tri_thua_thien.nva_guerrillas:u": 2,
        "quang_tri_thua_thien.nva_guerrillas:a": 1,
        "quang_tri_thua_thien.us_troops": -1,
        "casualties.us_troops": 1,
    }  # no die and no attrition


def test_fitl_4_4_3_card_59_plei_mei_shaded_ambush_instead_of_attack():
    def prep(g):
        put(g.board, "central_laos", nva_guerrillas__u=2)
        put(g.board, "quang_tri_thua_thien", us_troops=2)

    picks = [
        None,
        None,
        {"space": "quang_tri_thua_thien"},
        {"kind": "count", "n": 2},
        {"kind": "option", "index": 1},
        {"space": "quang_tri_thua_thien"},
    ]
    _, d, seen = run(59, "shaded", "NVA", prep, picks)
    assert offered(seen, "a free Attack or a free Ambush") == [
        ["a free Attack in 1 space", "a free Ambush in 1 space"]
    ]
    assert d == {
        "central_laos.nva_guerrillas:u": -2,
        "quang_tri_thua_thien.nva_guerrillas:u": 1,
        "quang_tri_thua_thien.nva_guerrillas:a": 1,
        "quang_tri_thua_thien.us_troops": -1,
        "casualties.us_troops": 1,
    }


def test_fitl_4_2_3_card_111_agent_orange_unshaded_strike_2_jungle_spaces_without_degrade():
    def prep(g):
        put(g.board, "the_fishhook", nva_guerrillas__u=2, nva_troops=1)
        put(g.board, "tay_ninh", vc_guerrillas__u=1, vc_bases=1)
        put(g.board, "hue", us_troops=1, nva_troops=2)
        g.board.tracks["trail"] = 2

    g, d, seen = run(111, "unshaded", "US", prep, dice=[5])
    # no US/ARVN piece needed, Jungle only (not Hue), at most 2 spaces, and no Degrade question
    assert offered(seen, "Air Strike: choose a space") == [
        ["Air Strike in Tay Ninh", "Air Strike in The Fishhook"],
        ["Air Strike in The Fishhook", "Done"],
    ]
    assert not offered(seen, "Degrade") and "trail" not in d
    assert d == {
        "the_fishhook.nva_guerrillas:u": -2,
        "the_fishhook.nva_troops": -1,
        "tay_ninh.vc_guerrillas:u": -1,
        "tay_ninh.vc_bases": -1,
        "available.nva_guerrillas": 2,
        "available.nva_troops": 1,
        "available.vc_guerrillas": 1,
        "available.vc_bases": 1,
        "support.tay_ninh": -1,
    }
