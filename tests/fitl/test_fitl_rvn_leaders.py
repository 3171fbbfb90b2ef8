"""FitL RVN Leaders (rule 2.4.1): each leader's lasting effect in force where it applies, on the real
Operations: Duong Van Minh (+5 Aid when ARVN Train), Nguyen Khanh (Transport through 1 LoC at most), Young Turks
(+2 Patronage per Govern), Nguyen Cao Ky (4 ARVN Resources per Pacification step, in Train and the Support
Phase); Nguyen Van Thieu and a Failed Attempt (under the others) have none of their own."""

from __future__ import annotations

import wargames

from .ops_helpers import OpsGame, last, pick, prepared


def leader_game(box: list[int], plan, *setups, **kw) -> OpsGame:
    """An Operations game (ops_helpers) whose RVN Leader box is ``box``, top first ([] is Duong Van Minh), put
    there by the ``leader_box`` lesson position (a Failed Attempt, 129, on top only of an otherwise empty box)."""
    g = OpsGame(
        plan,
        prepared(setups, **kw),
        players={f: None for f in ("US", "ARVN", "NVA", "VC")},
        options={"position": {"leader_box": box}},
    )
    assert g.leader_box == box and g.rvn_leader == (box[0] if box else "minh")
    return g


def finish(g: OpsGame) -> None:
    """Done with the Train spaces and nothing more (no Pacify or Base)."""
    pick(g, "done")
    while g.decision is not None and any(a.kind == "none" for a in g.legal_actions()):
        pick(g, "none")


def test_fitl_2_4_1_minh_adds_5_aid_when_the_arvn_train():
    g = leader_game([], [("ARVN", False, False, False)], ("saigon", {"arvn_troops": 1}))
    aid = g.board.tracks["aid"]
    pick(g, "op", op="train")
    pick(g, "space", space="saigon")
    pick(g, "place", troops=2, police=1)
    finish(g)
    assert g.board.tracks["aid"] == aid + 5 and "Minh" in last(g, "FITL-3.2.1").explanation


def test_fitl_2_4_1_no_minh_aid_under_another_leader_or_a_failed_attempt():
    for box in ([126], [129]):
        g = leader_game(box, [("ARVN", False, False, False)], ("saigon", {"arvn_troops": 1}))
        aid = g.board.tracks["aid"]
        pick(g, "op", op="train")
        pick(g, "space", space="saigon")
        pick(g, "place", troops=2, police=1)
        finish(g)
        assert g.board.tracks["aid"] == aid, box


def test_fitl_2_4_1_young_turks_add_2_patronage_per_govern():
    def govern(box):
        g = leader_game(
            box,
            [("ARVN", False, True, False)],
            ("hue", {"arvn_police": 2, "us_troops": 1}),
            after=lambda b: b.support.update({"hue": 2}),
        )
        pick(g, "op", op="patrol")
        pick(g, "sa", sa="govern")
        pick(g, "space", space="hue")
        pick(g, "mode", mode="aid")
        return g

    assert govern([126]).board.tracks["patronage"] == govern([128]).board.tracks["patronage"] + 2


def test_fitl_2_4_1_khanh_transport_through_one_loc_at_most():
    g = leader_game([125], [("ARVN", False, True, False)], ("saigon", {"arvn_troops": 4}))
    reach = g.transport_reach("saigon")
    assert "loc_saigon_can_tho" in reach and "can_tho" in reach  # 1 LoC, then the City at its end
    assert "loc_can_tho_chau_doc" not in reach  # a 2nd LoC
    g = leader_game([128], [("ARVN", False, True, False)], ("saigon", {"arvn_troops": 4}))
    assert "loc_can_tho_chau_doc" in g.transport_reach("saigon")


def test_fitl_2_4_1_ky_pacification_costs_4_in_training():
    def cost(box):
        g = leader_game(
            box, [("ARVN", False, False, False)], ("saigon", {"arvn_troops": 2, "arvn_police": 2})
        )
        pick(g, "op", op="train")
        pick(g, "space", space="saigon")
        pick(g, "place", troops=0, police=0, rangers=0)
        pick(g, "done")
        acts = [a for a in g.legal_actions() if a.kind == "pacify" and a["levels"] == 1]
        return acts[0].label

    assert "(4 ARVN Resources)" in cost([127]) and "(3 ARVN Resources)" in cost([128])
    g = leader_game([127], [("ARVN", False, False, False)])
    assert g.pacify_cost() == 4
    g = wargames.load("fitl", "short", seed=3, position={"leader_box": [127], "leader_flipped": True})
    assert g.pacify_cost() == 3  # an Event turned the leader face down (card 97 unshaded): no effect
