"""FitL Non-players executing Events (rules 8.4, 8.4.3, 8.4.4, 8.4.5): the choices a card leaves open, answered by
the rules' defaults from prepared positions, with the exact board change and the rule each choice cites."""

from __future__ import annotations

from typing import Any

import pytest

from wargames.core import Action
from wargames.fitl.data import FACTIONS
from wargames.fitl.game import FitlGame
from wargames.fitl.nonplayer import NonPlayer
from wargames.fitl.nonplayer.base import PRIORITY_ERROR

from .ops_helpers import put
from .test_fitl_events_cards_1 import flat
from .test_fitl_events_vocab import EvGame


def np_run(item: tuple, prep=None, humans: tuple[str, ...] = ()) -> tuple[EvGame, dict[str, int], list[str]]:
    """Run one plan item (``("card", n, faction, side)`` or ``("steps", steps, faction)``) with every faction a
    Non-player (``humans``: persons); returns the game, the board change and the Non-players' reasons."""
    g = EvGame([item], prep, players={f: (None if f in humans else NonPlayer(f)) for f in FACTIONS})
    before = flat(g.before)  # the prepared board, before the plan
    g.advance("end")
    after = flat(g.board.to_dict())
    delta = {
        k: after.get(k, 0) - before.get(k, 0)
        for k in sorted(set(before) | set(after))
        if after.get(k, 0) != before.get(k, 0)
    }
    assert g.board.invariants() == []
    return g, delta, [r.get("why", "") for r in g.record if "act" in r]


# ------------------------------------------------------------------ 8.4.3 Event placement
def test_fitl_8_4_3_nonplayer_places_as_many_as_allowed_never_stopping_early():
    steps = [
        {"do": "place", "pieces": "arvn_police", "n": 3, "upto": True, "where": {"spaces": ["hue", "saigon"]}}
    ]
    g, d, why = np_run(("steps", steps, "ARVN"))
    assert sum(v for k, v in d.items() if k.endswith(".arvn_police") and not k.startswith("available")) == 3
    assert d["available.arvn_police"] == -3
    assert all("8.4.3" in w for w in why) and any("never stopping early" in w for w in why)


def test_fitl_8_4_3_coin_nonplayer_takes_from_out_of_play_then_casualties_then_available():
    """The US Non-player: only US pieces ever become Casualties (FITL-1.4.1), so the
    order Out of Play, Casualties, Available is shown with US Troops (a legal position: position.casualties)."""

    def prep(g):
        g.board.available["us_troops"] -= (
            2 + g.board.casualties["us_troops"] + g.board.out_of_play["us_troops"]
        )
        g.board.casualties["us_troops"] = 1
        g.board.out_of_play["us_troops"] = 1

    steps = [
        {
            "do": "place",
            "pieces": "us_troops",
            "n": 3,
            "from": ["available", "casualties", "out_of_play"],
            "where": {"spaces": ["hue"]},
        }
    ]
    _, d, why = np_run(("steps", steps, "US"), prep)
    assert d == {
        "hue.us_troops": 3,
        "out_of_play.us_troops": -1,
        "casualties.us_troops": -1,
        "available.us_troops": -1,
    }
    assert "from out of play first" in why[0] and "from casualties first" in why[1]


def test_fitl_8_4_3_arvn_nonplayer_takes_from_out_of_play_then_available():
    """The ARVN Non-player: Out of Play first, then Available (ARVN pieces are never Casualties, FITL-1.4.1)."""

    def prep(g):
        g.board.available["arvn_troops"] -= 1 + g.board.out_of_play["arvn_troops"]
        g.board.out_of_play["arvn_troops"] = 1

    steps = [
        {
            "do": "place",
            "pieces": "arvn_troops",
            "n": 3,
            "from": ["available", "out_of_play"],
            "where": {"spaces": ["hue"]},
        }
    ]
    _, d, why = np_run(("steps", steps, "ARVN"), prep)
    assert d == {"hue.arvn_troops": 3, "out_of_play.arvn_troops": -1, "available.arvn_troops": -2}
    assert "from out of play first" in why[0]


def test_fitl_8_4_3_a_person_chooses_the_box_when_the_card_allows_several():
    def prep(g):
        g.board.available["arvn_troops"] -= 2  # (the force pool kept: 2 of the Available Troops Out of Play)
        g.board.out_of_play["arvn_troops"] = 2

    steps = [
        {
            "do": "place",
            "pieces": "arvn_troops",
            "n": 1,
            "from": ["available", "out_of_play"],
            "where": {"spaces": ["hue"]},
        }
    ]
    g = EvGame([("steps", steps, "ARVN")], prep)
    labels = [a.label for a in g.legal_actions()]
    assert labels == [
        "Place 1 ARVN Troop from Available in Hue",
        "Place 1 ARVN Troop from Out of Play in Hue",
    ]
    g.apply(g.legal_actions()[0])
    assert g.board.pieces["hue"]["arvn_troops"] == 1 and g.board.out_of_play["arvn_troops"] == 2


# ------------------------------------------------------------------ 8.4.4 who, what and where
def _choice(options: list[tuple[str, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    return [{"do": "choose", "options": [{"label": lab, "steps": st} for lab, st in options]}]


def _track(name: str, delta: int) -> list[dict[str, Any]]:
    return [{"do": "track", "track": name, "delta": delta}]


@pytest.mark.parametrize("faction, expected", [("US", "+2"), ("ARVN", "+2"), ("NVA", "-2"), ("VC", "-2")])
def test_fitl_8_4_4_coin_raise_aid_and_arvn_resources_insurgents_lower_them(faction, expected):
    steps = _choice([("+2", _track("aid", 2)), ("-2", _track("aid", -2)), ("unchanged", [])])
    _, d, why = np_run(("steps", steps, faction))
    assert d == {"aid": int(expected)} and "8.4.4" in why[0]
    steps = _choice(
        [("unchanged", []), ("-2", _track("arvn_resources", -2)), ("+2", _track("arvn_resources", 2))]
    )
    _, d, _ = np_run(("steps", steps, faction))
    assert d == {"arvn_resources": int(expected)}


@pytest.mark.parametrize("faction, delta", [("US", -3), ("ARVN", 3), ("NVA", -3), ("VC", -3)])
def test_fitl_8_4_4_only_arvn_raises_patronage(faction, delta):
    steps = _choice([("Patronage +3", _track("patronage", 3)), ("Patronage -3", _track("patronage", -3))])
    _, d, _ = np_run(("steps", steps, faction))
    assert d == {"patronage": delta}


@pytest.mark.parametrize(
    "faction, humans, expected",
    [
        ("NVA", (), "nva_resources"),
        ("VC", (), "vc_resources"),  # the executing faction first
        ("US", ("ARVN",), "arvn_resources"),  # then the friendly faction, even a person's
        ("US", ("NVA",), "vc_resources"),
    ],
)  # an enemy: a Non-player before a person
def test_fitl_8_4_4_benefits_go_to_executing_then_friendly_then_enemy_nonplayer(faction, humans, expected):
    tracks = ["nva_resources", "vc_resources"] + (["arvn_resources"] if expected == "arvn_resources" else [])
    steps = _choice([(t, _track(t, 4)) for t in tracks])
    _, d, _ = np_run(("steps", steps, faction), humans=humans)
    assert d == {expected: 4}


def test_fitl_8_4_4_enemy_pieces_removed_by_the_8_1_2_priorities():
    def prep(g):
        put(g.board, "hue", arvn_troops=2, us_troops=1, arvn_bases=1)

    steps = [{"do": "remove", "pieces": "COIN", "n": 2, "where": {"spaces": ["hue"]}}]
    _, d, why = np_run(("steps", steps, "VC"), prep)
    # the Base first, then US before ARVN (8.1.2)
    assert d == {
        "hue.arvn_bases": -1,
        "hue.us_troops": -1,
        "available.arvn_bases": 1,
        "available.us_troops": 1,
    }
    assert "8.1.2" in why[0]


def test_fitl_8_4_4_friendly_losses_fall_on_the_other_faction_first():
    def prep(g):
        put(g.board, "hue", arvn_troops=2, us_troops=2)

    steps = [{"do": "remove", "pieces": "COIN", "n": 2, "where": {"spaces": ["hue"]}}]
    _, d, why = np_run(("steps", steps, "ARVN"), prep)
    assert d == {"hue.us_troops": -2, "available.us_troops": 2}
    assert "the other faction's first" in why[0]


def test_fitl_8_4_4_cu_chi_tunnels_vc_bases_first_in_the_space_with_most():
    """The rules' own placement example: VC pick a Province with 2 un-Tunneled VC Bases over one with a VC and an
    NVA Base, over one with a single VC Base."""

    def prep(g):
        put(g.board, "tay_ninh", vc_bases=1)
        put(g.board, "binh_dinh", vc_bases=1, nva_bases=1)
        put(g.board, "kien_phong", vc_bases=2)

    g, d, why = np_run(("card", 102, "VC", "shaded"), prep)
    assert d["kien_phong.vc_bases:t"] == 2 and d["kien_phong.nva_guerrillas:u"] == 1
    assert "8.4.4" in why[0] and "Kien Phong" in why[0]
    _, d, _ = np_run(("card", 102, "NVA", "shaded"), prep)
    assert d["binh_dinh.nva_bases:t"] == 1  # NVA: the space with its own Base


def test_fitl_8_4_4_select_the_space_where_the_event_removes_most():
    def prep(g):
        for s, n in (("hue", 1), ("binh_dinh", 3)):
            put(g.board, s, us_troops=6, vc_bases__t=1, vc_guerrillas__u=n)

    _, d, why = np_run(("card", 102, "US", "unshaded"), prep)
    assert d["binh_dinh.vc_guerrillas:u"] == -3 and "hue.vc_guerrillas:u" not in d


def test_fitl_8_4_4_free_special_activity_follows_the_flowchart():
    np_ = NonPlayer("NVA")
    game = FitlGame("short", 0)
    opts = [Action.make("option", s, index=i, sa=s) for i, s in enumerate(("bombard", "infiltrate"))]
    from wargames.core.actions import Decision

    d = Decision("NVA", "which free SA?", "FITL-5.5", opts, kind="event_choice", context={"step": "free_sa"})
    a = np_.choose(game, d)
    plan = np_.plan(game, False)
    assert (
        a["sa"] == next(s for s in plan.sas if s in ("bombard", "infiltrate")) and "8.4.4" in np_.last_reason
    )


# ------------------------------------------------------------------ 8.4.5 Support shifts
@pytest.mark.parametrize(
    "faction, expected",
    [("VC", "quang_tri_thua_thien"), ("NVA", "saigon"), ("ARVN", "saigon"), ("US", "quang_tri_thua_thien")],
)
def test_fitl_8_4_5_each_faction_shifts_by_its_own_preference(faction, expected):
    """A shift toward Opposition in Saigon (pop 6, Passive Support -> Neutral: Support -6) or in Quang Tri (pop 2,
    Neutral -> Passive Opposition: Opposition +2).  VC want Opposition up, NVA Support down, ARVN the least gain in
    Opposition, US the least loss of Support."""

    def prep(g):
        g.board.support.update({"saigon": 1, "quang_tri_thua_thien": 0})

    steps = [{"do": "support", "shift": -1, "n": 1, "where": {"spaces": ["saigon", "quang_tri_thua_thien"]}}]
    _, d, why = np_run(("steps", steps, faction), prep)
    assert list(d) == [f"support.{expected}"] and "8.4.5" in why[0]


# ------------------------------------------------------------------ 8.4 as a whole
def test_fitl_8_4_four_nonplayers_answer_every_event_choice_by_the_event_rules():
    counts = {"8.4.3": 0, "8.4.4": 0, "8.4.5": 0}
    for seed in range(3):
        g = FitlGame("full", seed, {"non_players": list(FACTIONS)})
        g.play()
        assert g.is_over and g.invariants() == []
        whys = [r.get("why", "") for r in g.record]
        assert not any(PRIORITY_ERROR in w for w in whys)
        for w in whys:
            for rule in counts:
                counts[rule] += f" {rule}:" in w
    assert all(n > 0 for n in counts.values()), counts


def test_fitl_8_4_5_us_nonplayer_ranks_the_pacify_spaces_of_card_96():
    """FITL-8.4.5 for card 96 APC (unshaded), with card 64 Honolulu Conference using the same step: the US
    Non-player ranks the Pacify spaces (the largest shift toward Support first: Saigon, Population 6, before
    Hue) with no priority error, and takes every step allowed (8.4.3) instead of a random pick that may stop."""

    def prep(g):
        for s in ("hue", "saigon"):
            put(g.board, s, us_troops=1, arvn_troops=1, arvn_police=1)

    g, d, why = np_run(("card", 96, "US", "unshaded"), prep)
    assert not any(PRIORITY_ERROR in w for w in why)
    assert d.get("support.saigon") == 1 and d.get("support.hue") == 1
    pac = [w for w in why if "shift toward Support" in w]
    assert pac and pac[0].startswith("US 8.4.5") and "Saigon" in pac[0]
