"""FitL Events: the effect-step vocabulary (rules 5.1-5.5) on prepared Board positions.

``EvGame`` is the real FitlGame with :class:`EventRules` mixed in and a one-step sequence that runs a plan of
Events (``("card", n, faction, side)``) or raw step lists (``("steps", [...], faction)``) after ``prepare`` has
arranged the board.  ``drive(game, *picks)`` answers decisions: each pick (a dict of Action params, or a kind
string) is applied to the next decision; without picks the first option is taken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from wargames.core import Action, IllegalAction
from wargames.core.sequence import PhaseSpec, SequenceOfPlay, StepSpec
from wargames.fitl.events import EvCtx, cards_by_status, expand_keys, load_events
from wargames.fitl.game import FitlGame

from .conftest import position_of
from .ops_helpers import empty_board, put


class EvGame(FitlGame):  # FitlGame has EventRules first among its bases
    """FitlGame + EventRules running only ``plan`` (Monsoon off), loaded and run to its first decision.

    The board is emptied (``empty``) and arranged by ``prepare(game)`` as a lesson position: ``prepare`` runs on
    a scratch copy of the set-up and the difference is loaded with the ``position`` option (conftest.position_of),
    so replays rebuild it from the record; ``before`` is that board (``board.to_dict()``), before the plan runs.
    ``dice`` are the ``dice`` option; ``players`` who decides (default: the test, through apply)."""

    empty = True
    static_attrs = FitlGame.static_attrs | {"plan", "prepare", "before", "expected"}  # test set-up

    def __init__(
        self,
        plan: list[tuple],
        prepare: Callable[[Any], None] | None = None,
        *,
        seed: int = 1,
        dice: list[int] | None = None,
        players: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
    ):
        self.plan = plan
        self.prepare = prepare

        def edit(g: FitlGame) -> None:
            if self.empty:
                empty_board(g.board)
            if prepare is not None:
                prepare(g)

        options = dict(options or {})  # e.g. the rvn_leader lesson option
        pos, edited = position_of(edit, "short", seed, options)
        self.before, self.expected = edited.board.to_dict(), edited.state_dict()
        if pos:
            options["position"] = pos
        if dice:
            options["dice"] = list(dice)
        super().__init__("short", seed, options, players=players)

    @property
    def monsoon(self) -> bool:  # type: ignore[override]
        return False

    def load_sequence(self) -> SequenceOfPlay:
        return SequenceOfPlay(
            game=self.game_id,
            turns=1,
            source="rules: test",
            phases=[
                PhaseSpec(
                    id="ev",
                    number=1,
                    name="Events",
                    rule="FITL-5.0",
                    steps=[StepSpec(id="ev", name="Events", procedure="run_plan", rule="FITL-5.0")],
                )
            ],
        )

    def run_plan(self):
        assert self.state_dict() == self.expected, "the position option made another"
        for item in self.plan:
            if item[0] == "card":
                card, faction, side = item[1:4]
                self.card = card
                yield from self.play_event(card, faction, side, pivotal_ok=len(item) > 4)
            else:
                _, steps, faction = item
                yield from self.run_steps(EvCtx(0, "Test", "unshaded", faction), steps)


def drive(game: EvGame, *picks: dict[str, Any] | str) -> EvGame:
    """Answer pending decisions with ``picks`` in order (then the first option) until the game ends."""
    queue = list(picks)
    for _ in range(500):
        if game.is_over:
            return game
        if game.decision is None:
            game.advance("decision")
            continue
        if queue:
            want = queue.pop(0)
            kind, params = (
                (want, {})
                if isinstance(want, str)
                else (want.get("kind", "pick"), {k: v for k, v in want.items() if k != "kind"})
            )
            opts = [
                a
                for a in game.legal_actions()
                if a.kind == kind and all(a.get(k) == v for k, v in params.items())
            ]
            assert opts, f"no {want} among {[a.label for a in game.legal_actions()]}"
            game.apply(opts[0])
        else:
            game.apply(game.legal_actions()[0])
    raise AssertionError("did not finish")


def steps_game(steps: list[dict[str, Any]], faction: str = "US", prepare=None, **kw: Any) -> EvGame:
    return EvGame([("steps", steps, faction)], prepare, **kw)


def pieces(game: EvGame, space: str) -> dict[str, int]:
    return {k: v for k, v in game.board.pieces[space].items() if v}


# ---------------------------------------------------------------------------- FITL-5.1.1 place
def test_fitl_5_1_1_place_only_available_pieces_respecting_stacking():
    def prep(g):
        put(g.board, "saigon", us_bases=2)
        g.board.available["us_troops"] = 1  # the other US Troops out of the game (position.removed)

    g = drive(
        steps_game(
            [
                {
                    "do": "place",
                    "pieces": ["us_bases", "us_troops"],
                    "n": 3,
                    "where": {"spaces": ["saigon", "north_vietnam"]},
                }
            ],
            prepare=prep,
        )
    )
    # the third US Base cannot go to Saigon (2 Bases) nor anything to North Vietnam: only the 1 Available Troop
    assert pieces(g, "saigon") == {"us_bases": 2, "us_troops": 1}
    assert pieces(g, "north_vietnam") == {}
    assert g.board.available["us_troops"] == 0
    assert any(r.rule_id == "FITL-5.1.1" and "Card 0 Test" in r.explanation for r in g.log)


def test_fitl_5_1_1_place_from_out_of_play_when_named():
    def prep(g):
        g.board.available["us_troops"] -= 3
        g.board.out_of_play["us_troops"] += 3

    g = drive(
        steps_game(
            [
                {
                    "do": "place",
                    "pieces": "us_troops",
                    "n": 6,
                    "from": "out_of_play",
                    "where": {"spaces": ["hue"]},
                }
            ],
            prepare=prep,
        )
    )
    assert pieces(g, "hue") == {"us_troops": 3} and g.board.out_of_play["us_troops"] == 0


def test_fitl_5_1_place_each_space_and_guerrillas_underground():
    g = drive(
        steps_game(
            [
                {
                    "do": "place",
                    "pieces": "vc_guerrillas",
                    "n": 2,
                    "each": True,
                    "where": {"spaces": ["tay_ninh", "kien_phong"]},
                }
            ],
            "VC",
        )
    )
    assert pieces(g, "tay_ninh") == {"vc_guerrillas:u": 2} == pieces(g, "kien_phong")


def test_fitl_5_1_place_chooser_picks_space_and_illegal_choice_refused():
    g = steps_game(
        [{"do": "place", "pieces": "nva_troops", "n": 1, "by": "NVA", "where": {"country": "KHM"}}], "US"
    )
    assert g.decision.side == "NVA" and g.decision.kind == "event_piece"
    before = g.digest()
    with pytest.raises(IllegalAction) as e:
        g.apply(Action.make("pick", space="hue", key="nva_troops"))
    assert e.value.rule_id == "FITL-5.1.1" and "Card 0 Test" in str(e.value)
    assert g.digest() == before
    drive(g, {"space": "the_fishhook"})
    assert pieces(g, "the_fishhook") == {"nva_troops": 1}


# ---------------------------------------------------------------------------- remove / move / box / flip
def test_fitl_5_1_1_remove_never_takes_tunneled_bases_unless_named():
    def prep(g):
        put(g.board, "tay_ninh", vc_bases__t=1, vc_guerrillas__a=1)

    g = drive(
        steps_game([{"do": "remove", "pieces": "VC", "n": 2, "where": {"spaces": ["tay_ninh"]}}], "US", prep)
    )
    assert pieces(g, "tay_ninh") == {"vc_bases:t": 1}
    g = drive(
        steps_game(
            [{"do": "remove", "pieces": ["vc_bases:t"], "n": 1, "where": {"spaces": ["tay_ninh"]}}],
            "US",
            prep,
        )
    )
    assert pieces(g, "tay_ninh") == {"vc_guerrillas:a": 1}


def test_fitl_5_1_remove_us_pieces_to_casualties_when_the_card_says():
    def prep(g):
        put(g.board, "hue", us_troops=2, arvn_police=1)

    g = drive(
        steps_game(
            [
                {
                    "do": "remove",
                    "pieces": "COIN",
                    "n": "all",
                    "where": {"spaces": ["hue"]},
                    "us_to": "casualties",
                }
            ],
            "VC",
            prep,
        )
    )
    assert pieces(g, "hue") == {} and g.board.casualties["us_troops"] == 2


def test_fitl_5_1_move_to_adjacent_space():
    def prep(g):
        put(g.board, "hue", us_troops=1)

    g = drive(
        steps_game(
            [
                {
                    "do": "move",
                    "pieces": "us_troops",
                    "n": 1,
                    "from_where": {"spaces": ["hue"]},
                    "to_where": {"kind": "province"},
                    "adjacent": True,
                }
            ],
            "US",
            prep,
        )
    )
    assert pieces(g, "hue") == {} and pieces(g, "quang_tri_thua_thien") == {"us_troops": 1}


def test_fitl_1_4_1_box_to_box_moves_all_or_n():
    def prep(g):
        g.board.available["us_troops"] -= 4
        g.board.casualties["us_troops"] += 4

    g = drive(
        steps_game(
            [{"do": "box", "from": "casualties", "to": "out_of_play", "pieces": "US", "n": 3}], prepare=prep
        )
    )
    assert g.board.casualties["us_troops"] == 1 and g.board.out_of_play["us_troops"] == 3


def test_fitl_1_4_3_flip_activates_all_in_matching_spaces():
    def prep(g):
        put(g.board, "tay_ninh", vc_guerrillas__u=2, nva_guerrillas__u=1)

    g = drive(
        steps_game(
            [{"do": "flip", "pieces": "vc_guerrillas", "to": "a", "where": {"spaces": ["tay_ninh"]}}],
            prepare=prep,
        )
    )
    assert pieces(g, "tay_ninh") == {"vc_guerrillas:a": 2, "nva_guerrillas:u": 1}


# ---------------------------------------------------------------------------- tracks, support, markers
def test_fitl_1_8_track_change_is_clamped_and_ruled():
    def prep(g):
        g.board.tracks["trail"] = 3
        g.board.tracks["aid"] = 70

    g = drive(
        steps_game(
            [{"do": "track", "track": "trail", "delta": 2}, {"do": "track", "track": "aid", "delta": 10}],
            prepare=prep,
        )
    )
    assert g.board.tracks["trail"] == 4 and g.board.tracks["aid"] == 75
    r = [r for r in g.log if r.rule_id == "FITL-1.8"]
    assert r[0].changes[0] == {"track": "trail", "from": 3, "to": 4} and "limits" in r[0].explanation


def test_fitl_1_6_support_shift_only_populated_spaces():
    g = drive(
        steps_game(
            [
                {
                    "do": "support",
                    "shift": 1,
                    "n": "all",
                    "where": {"spaces": ["hue", "north_vietnam", "loc_hue_da_nang"]},
                }
            ]
        )
    )
    assert g.board.support["hue"] == 1 and g.board.support["north_vietnam"] == 0


def test_fitl_1_6_support_chosen_spaces_with_stop():
    g = drive(
        steps_game([{"do": "support", "shift": -1, "n": 2, "upto": True, "where": {"kind": "city"}}], "VC"),
        {"kind": "space", "space": "saigon"},
        "stop",
    )
    assert g.board.support["saigon"] == -1 and sum(g.board.support.values()) == -1


def test_fitl_3_3_4_terror_and_sabotage_markers():
    g = drive(
        steps_game(
            [
                {"do": "terror", "where": {"spaces": ["hue"]}},
                {"do": "sabotage", "where": {"spaces": ["loc_hue_da_nang"]}},
            ],
            "VC",
        )
    )
    assert g.board.terror["hue"] == 1 and "loc_hue_da_nang" in g.board.sabotage


def test_fitl_5_1_roll_and_count_variables():
    def prep(g):
        put(g.board, "central_laos", nva_guerrillas__a=5)

    g = drive(
        steps_game(
            [{"do": "roll"}, {"do": "remove", "pieces": "NVA", "n": "roll", "where": {"country": "LAO"}}],
            prepare=prep,
            dice=[3],
        )
    )
    assert pieces(g, "central_laos") == {"nva_guerrillas:a": 2}
    g = drive(
        steps_game(
            [
                {"do": "count", "var": "x", "pieces": "NVA", "where": {"country": "LAO"}},
                {"do": "track", "track": "aid", "delta": "x", "times": -1},
            ],
            prepare=prep,
        )
    )
    assert g.board.tracks["aid"] == 15 - 5


# ---------------------------------------------------------------------------- choices, conditions, lasting
def test_fitl_5_1_choice_offered_to_named_faction():
    g = steps_game(
        [
            {
                "do": "choose",
                "by": "ARVN",
                "options": [
                    {
                        "label": "+3 ARVN Resources",
                        "steps": [{"do": "track", "track": "arvn_resources", "delta": 3}],
                    },
                    {"label": "+3 Patronage", "steps": [{"do": "track", "track": "patronage", "delta": 3}]},
                ],
            }
        ],
        "US",
    )
    assert g.decision.side == "ARVN" and [a.label for a in g.legal_actions()] == [
        "+3 ARVN Resources",
        "+3 Patronage",
    ]
    drive(g, {"kind": "option", "index": 1})
    assert g.board.tracks["patronage"] == 18 + 3


def test_fitl_5_1_2_conditions_and_cancel_capability():
    def prep(g):
        g.capabilities["33"] = "shaded"

    g = drive(
        steps_game(
            [
                {
                    "do": "if",
                    "cond": {"capability": [33, "shaded"]},
                    "then": [{"do": "cancel", "capability": 33}],
                    "else": [{"do": "track", "track": "trail", "delta": -2}],
                }
            ],
            prepare=prep,
        )
    )
    assert "33" not in g.capabilities and g.board.tracks["trail"] == 2


def test_fitl_5_3_capability_and_5_4_momentum_query_api():
    g = drive(EvGame([("card", 4, "US", "unshaded"), ("card", 5, "NVA", "shaded")]))
    assert (
        g.capability_active(4) and g.capability_active(4, "unshaded") and not g.capability_active(4, "shaded")
    )
    assert g.momentum_active(5) and g.momentum_active(5, "shaded") and not g.momentum_active(7)


def test_fitl_2_3_6_eligibility_for_next_card():
    g = drive(steps_game([{"do": "eligible", "factions": ["NVA"], "eligible": False}]))
    assert g.eligibility_next == {"NVA": False}


def test_fitl_5_5_free_operation_uses_the_operations_mixin():
    def prep(g):
        put(g.board, "tay_ninh", vc_guerrillas__u=3, us_troops=1)

    g = steps_game([{"do": "free_op", "faction": "VC", "ops": ["attack"]}], "US", prep)
    d = g.decision
    assert d.side == "VC" and d.kind == "op" and [a["op"] for a in d.options] == ["attack"]
    assert d.context["free"] is True


def test_fitl_5_2_event_status_and_unknown_side_refused():
    g = EvGame([("card", 4, "US", "unshaded")])
    st = g.event_status(4, "US")
    assert st["unshaded"][0] and st["shaded"][0] and g.event_status(4, "US", "shaded") == st["shaded"]
    assert g.event_status(38, "US", "shaded") == (False, "card 38 has no shaded text (FITL-5.2)")
    todo = cards_by_status()["todo"]
    if todo:
        assert not g.event_status(todo[0], "US")["unshaded"][0]
    with pytest.raises(IllegalAction) as e:
        EvGame([("card", 4, "US", "sideways")])
    assert e.value.rule_id == "FITL-5.2"


def test_fitl_5_0_card_data_loads_with_sources():
    ev = load_events()
    assert ev and all(
        str(c["source"]).split(":")[0] in ("rules", "external", "reconstruction", "decision")
        for c in ev.values()
    )
    assert set(expand_keys("VC")) == {"vc_guerrillas:u", "vc_guerrillas:a", "vc_bases"}


def test_fitl_5_1_3_partial_execution_skips_what_cannot_be_done():
    def prep(g):
        g.board.available["vc_bases"] = 1  # the other VC Bases out of the game (position.removed)

    g = drive(
        steps_game(
            [
                {"do": "place", "pieces": "vc_bases", "n": 3, "where": {"spaces": ["tay_ninh"]}},
                {"do": "remove", "pieces": "nva_troops", "n": 2},
                {"do": "track", "track": "aid", "delta": 1},
            ],
            "VC",
            prep,
        )
    )
    assert pieces(g, "tay_ninh") == {"vc_bases": 1} and g.board.tracks["aid"] == 16
    assert [r.title.split(": ")[-1] for r in g.log if r.rule_id == "FITL-5.1.3"] == ["Nothing to remove"]


def test_fitl_5_0_cards_every_card_is_encoded_with_status_and_source():
    status = cards_by_status()
    assert status["todo"] == [] and sum(len(v) for v in status.values()) == 130
    ev = load_events()
    for n, c in ev.items():
        sides = [s for s in ("unshaded", "shaded") if s in c]
        assert sides or "leader" in c, n
        if c["status"] == "partial":
            assert c.get("pending"), f"card {n} is partial without saying what is pending"


def test_fitl_5_2_nonplayer_preferences_are_labelled_reconstruction():
    g = EvGame([])
    assert g.event_preference(1, "US") == ("critical", "unshaded")
    assert g.event_preference(125, "US") is None
    for c in load_events().values():
        if "nonplayer" in c:
            assert c["nonplayer"]["source"].startswith("reconstruction:")


def test_fitl_5_1_select_then_foreach_and_expressions():
    g = drive(
        steps_game(
            [
                {"do": "select", "var": "sp", "n": 2, "where": {"spaces": ["hue", "saigon", "can_tho"]}},
                {
                    "do": "foreach",
                    "var": "sp",
                    "steps": [
                        {"do": "place", "pieces": "arvn_police", "n": 1, "where": {"var_spaces": "here"}},
                        {"do": "support", "shift": 1, "n": "all", "where": {"var_spaces": "here"}},
                    ],
                },
                {"do": "set", "var": "k", "value": 5},
                {"do": "track", "track": "aid", "delta": "min(k, 3)*2"},
            ],
            "ARVN",
        ),
        {"kind": "space", "space": "can_tho"},
        {"kind": "space", "space": "hue"},
    )
    assert pieces(g, "can_tho") == {"arvn_police": 1} == pieces(g, "hue") and pieces(g, "saigon") == {}
    assert g.board.support["can_tho"] == 1 == g.board.support["hue"] and g.board.tracks["aid"] == 15 + 6


def test_fitl_1_4_4_tunnel_verb_respects_the_six_markers():
    def prep(g):
        put(g.board, "central_laos", nva_bases__t=2)
        put(g.board, "southern_laos", nva_bases__t=2)
        put(g.board, "the_fishhook", vc_bases__t=1, vc_bases=1)
        put(g.board, "tay_ninh", vc_bases=2)

    g = drive(
        steps_game(
            [{"do": "tunnel", "n": "all", "where": {"spaces": ["the_fishhook", "tay_ninh"]}}], "VC", prep
        )
    )
    tunneled = sum(c[k] for c in g.board.pieces.values() for k in ("nva_bases:t", "vc_bases:t"))
    assert tunneled == 6


def test_fitl_5_1_space_filters_near_any_more_at_most():
    def prep(g):
        put(g.board, "pleiku_darlac", us_bases=1)
        put(g.board, "kontum", vc_guerrillas__u=2, arvn_police=1)
        put(g.board, "hue", arvn_police=3)

    g = EvGame([], prep)
    ctx = EvCtx(0, "Test", "unshaded", "US")
    assert "kontum" in g.ev_spaces(ctx, {"near": ["us_bases"]}) and "hue" not in g.ev_spaces(
        ctx, {"near": ["us_bases"]}
    )
    assert g.ev_spaces(ctx, {"more": ["VC", "COIN"]}) == ["kontum"]
    assert g.ev_spaces(
        ctx, {"has": [{"pieces": "arvn_police"}], "at_most": [{"pieces": "cubes", "max": 2}]}
    ) == ["kontum"]
    assert g.ev_spaces(ctx, {"any": [{"spaces": ["hue"]}, {"has": [{"pieces": "us_bases"}]}]}) == [
        "hue",
        "pleiku_darlac",
    ]


def test_fitl_5_0_cards_readme_status_is_current():
    from wargames.core.data import game_dir
    from wargames.fitl.events import status_markdown

    text = (game_dir("fitl") / "events" / "README.md").read_text(encoding="utf-8")
    assert text.endswith(status_markdown())


def test_fitl_1_4_1_box_move_lets_the_chooser_pick_piece_types():
    def prep(g):
        for pid in ("us_troops", "us_bases"):
            g.board.available[pid] -= 2
            g.board.casualties[pid] += 2

    g = steps_game(
        [{"do": "box", "pieces": "US", "from": "casualties", "to": "out_of_play", "n": 2}], "VC", prep
    )
    assert g.decision.kind == "event_choice"
    drive(g, {"kind": "option", "piece": "us_bases"}, {"kind": "option", "piece": "us_bases"})
    assert g.board.out_of_play["us_bases"] == 2 and g.board.casualties["us_troops"] == 2


def test_fitl_5_3_lasting_effects_by_rule_for_the_operations():
    g = drive(
        EvGame([("card", 4, "US", "unshaded"), ("card", 10, "NVA", "shaded"), ("card", 11, "US", "shaded")])
    )
    cards = [c for c, _, _ in g.lasting_effects("FITL-4.2.3")]
    assert cards == [4, 10]
    assert [c for c, _, _ in g.lasting_effects("FITL-3.2.4")] == [11]


def test_fitl_5_3_capability_owners():
    g = EvGame([])
    owners = {n: g.capability_owner(n) for n in range(1, 131) if g.data.cards[n].kind == "capability"}
    assert len(owners) == 19 and owners[4] == "US" and owners[33] == "NVA" and owners[86] == "ARVN"
    assert owners[116] == "VC" and g.capability_owner(121) == "US" and g.capability_owner(1) is None


def test_fitl_5_1_3_event_effective_dry_run_leaves_the_game_unchanged():
    def prep(g):
        put(g.board, "central_laos", nva_troops=2)

    g = EvGame([], prep)
    digest, draws = g.digest(), g.dice.draws
    assert g.event_effective(2, "unshaded", "US") == (
        True,
        "it changes the board, the tracks, the lasting effects or Eligibility",
    )
    assert g.event_effective(24, "unshaded", "US")[0] is False  # no coastal Province with VC
    assert g.event_effective(4, "shaded", "NVA")[0] is True
    assert g.event_effective(50, "shaded", "VC")[0] is True  # free Limited Operations are possible
    assert (
        g.digest() == digest and g.dice.draws == draws and g.board.pieces["central_laos"]["nva_troops"] == 2
    )


class ScenarioEvGame(EvGame):
    """EvGame on the untouched short-scenario board."""

    empty = False


@pytest.mark.parametrize("card", range(1, 125))
def test_fitl_5_1_event_effective_never_changes_the_game(card):
    g = ScenarioEvGame([])
    before = (g.digest(), g.board.to_dict(), dict(g.capabilities), list(g.momentum), g.dice.draws)
    for side in ("unshaded", "shaded"):
        g.event_effective(card, side, "US" if side == "unshaded" else "VC")
    assert (g.digest(), g.board.to_dict(), dict(g.capabilities), list(g.momentum), g.dice.draws) == before
