"""A toy fifth game (issue #14): a few lines of code register it, and it loads, saves, lists in the CLI and
runs under the random-play checks, with no change to wargames.core, wargames.notebook or the CLI."""

from __future__ import annotations

from typing import Any

import pytest

import wargames
from wargames.cli import main
from wargames.core import Action, Game, GameType
from wargames.core.registry import register, unregister
from wargames.core.sequence import AlternateSpec, PhaseSpec, SequenceOfPlay, StepSpec
from wargames.testing import random_play


class Skirmish(Game):
    """Two sides alternate raids on a three-village valley until both stand; 3 villages held wins."""

    game_type = GameType(
        id="skirmish",
        title="Valley Skirmish (toy)",
        sides=("Red", "Blue"),
        map_kind="area",
        rule_prefix="SK",
        default_scenario="valley",
    )

    @classmethod
    def scenario_ids(cls) -> list[str]:
        return ["valley"]

    def load_sequence(self) -> SequenceOfPlay:
        return SequenceOfPlay(
            game="skirmish",
            turns=3,
            source="toy",
            phases=[
                PhaseSpec(
                    id="raids",
                    number=1,
                    name="Raids",
                    rule="SK-1",
                    steps=[
                        StepSpec(
                            id="raid",
                            name="Raid",
                            procedure="raid",
                            rule="SK-1",
                            alternate=AlternateSpec(until="both_stood", max_rounds=200),
                        )
                    ],
                )
            ],
        )

    def load_scenario(self, scenario: str) -> None:
        if scenario != "valley":
            raise wargames.core.WargamesError(f"no scenario {scenario!r}")

    def new_state(self) -> None:
        self.owner: dict[str, str | None] = {"north": None, "ford": None, "south": None}
        self.stood: dict[str, bool] = {"Red": False, "Blue": False}

    def state_dict(self) -> dict[str, Any]:
        return {"owner": dict(self.owner), "stood": dict(self.stood)}

    def scores(self) -> dict[str, Any]:
        return {s: sum(o == s for o in self.owner.values()) for s in self.sides}

    def both_stood(self) -> bool:
        done = all(self.stood.values())
        if done:
            self.stood = {"Red": False, "Blue": False}
        return done

    def raid(self, side: str):
        options = [Action.make("raid", places=(v,), village=v) for v, o in self.owner.items() if o != side]
        act = yield self.decide(side, "raid a village or stand", "SK-1", options + [Action.make("stand")])
        if act.kind == "stand":
            self.stood[side] = True
            yield self.ruling("SK-1", f"{side} stands", f"{side} holds what it has.")
            return
        self.stood = {"Red": False, "Blue": False}
        roll = self.dice.roll(6, "raid")
        if roll.value >= 4:
            self.owner[act.get("village")] = side
        yield self.ruling(
            "SK-1",
            f"{side} raids {act.get('village')}",
            f"needs 4+, rolled {roll.value}",
            dice=[roll],
            result={"village": act.get("village"), "taken": roll.value >= 4},
        )
        if self.scores()[side] == 3:
            yield self.end("SK-2", f"{side} holds the valley", "All three villages.", result={"winner": side})

    VILLAGES = {"north": (0.0, 2.0), "ford": (1.0, 1.0), "south": (0.0, 0.0)}

    def map_layers(self, side=None):
        """The valley as the one map contract asks (wargames.maps.layers): three square villages, a track."""
        from wargames.maps.layers import add_row, empty_layers

        out = empty_layers("skirmish", "area", side, {"x": (-1.0, 2.0), "y": (-1.0, 3.0)})
        for v, (x, y) in self.VILLAGES.items():
            ring_x, ring_y = [x - 0.4, x + 0.4, x + 0.4, x - 0.4], [y - 0.4, y - 0.4, y + 0.4, y + 0.4]
            add_row(
                out["places"],
                id=v,
                name=v.title(),
                kind="village",
                shape="polygon",
                xs=[[ring_x]],
                ys=[[ring_y]],
                x=x,
                y=y,
                facts={"terrain": "clear", "held_by": self.owner[v]},
            )
            if self.owner[v]:
                add_row(out["pieces"], place=v, faction=self.owner[v], count=1, hidden=False, facts=[])
        add_row(out["lines"], kind="track", xs=[0.0, 1.0, 0.0], ys=[2.0, 1.0, 0.0], name="valley track")
        return out

    def final_result(self):
        s = self.scores()
        winner = max(s, key=s.get) if len(set(s.values())) > 1 else None
        yield self.end("SK-2", "End of the raids", f"Villages held: {s}.", result={"winner": winner})


@pytest.fixture
def skirmish():
    register("skirmish", Skirmish)
    yield
    unregister("skirmish")


@pytest.mark.parametrize("seed", range(5))
def test_fifth_game_registers_and_runs_under_random_play(skirmish, seed):
    assert "skirmish" in wargames.games() and wargames.scenarios("skirmish") == ["valley"]
    game = random_play("skirmish", seed)
    assert game.scenario_id == "valley" and game.result.rule_id == "SK-2"


def test_fifth_game_saves_reopens_plays_by_monte_carlo_and_lists_in_the_cli(skirmish, capsys):
    game = wargames.load("skirmish", seed=3)
    game.advance("turn")
    assert wargames.open_save(game.save()).digest() == game.digest()
    frame = wargames.montecarlo("skirmish", 3)
    assert list(frame.seed) == [0, 1, 2] and "score_Red" in frame.columns
    assert main(["list"]) == 0 and "Valley Skirmish" in capsys.readouterr().out
    assert Skirmish.facts().map_kind == "area" and Skirmish.sides == ("Red", "Blue")


def test_fifth_game_draws_its_map_with_no_notebook_kit_edit(skirmish):
    """Issue #14 item 2: the toy game answers map_layers and the kit draws it by its map kind ("area"), with a
    generated palette (one colour per side), clicks that pick a village every time, and patched updates."""
    pytest.importorskip("jupyter_bokeh")
    from wargames.maps.layers import check_layers
    from wargames.notebook import LayerMapView, Walkthrough, map_for
    from wargames.notebook.palette import palette

    game = wargames.load("skirmish", seed=3)
    check_layers(game.map_layers("Red"))
    view = map_for(game, "Red")
    assert isinstance(view, LayerMapView)
    assert set(view.sources["areas"].data["id"]) == {"north", "ford", "south"}
    pal = palette(game)
    assert pal["Red"] != pal["Blue"]
    game.owner["ford"] = "Blue"
    chips = view.sources["chips"]
    view.update()
    assert chips.data["place"] == ["ford"] and chips.data["fill"] == [pal["Blue"]]
    picked = []
    view.on_pick(picked.append)
    labels = view.sources["labels"]
    i = labels.data["id"].index("north")
    labels.selected.indices = [i]
    labels.selected.indices = [i]
    assert picked == ["north", "north"] and view.highlighted == ["north"]
    w = Walkthrough(wargames.load("skirmish", seed=3), human="Red")
    assert isinstance(w.map, LayerMapView)
    w.play_to_my_turn()
    w.map.pick("ford")
    assert w.chooser.actions and all("ford" in a.places for a in w.chooser.actions)
    w.chooser.clear_button.click()
    assert w.map.highlighted == [] and len(w.chooser.actions) > 1
    w.map.pick("ford")  # the same village again: filtered again
    assert w.chooser.area == "ford" and all("ford" in a.places for a in w.chooser.actions)


def test_every_game_answers_the_one_map_contract():
    """Issue #14 item 2: the four games' map_layers pass the contract check (no colours, pixels or HTML)."""
    from wargames.maps.layers import check_layers

    for gid, side in (("tet", "Allied"), ("yotr", "Allied"), ("fitl", "VC"), ("row", "Capitalist")):
        game = wargames.load(gid, seed=1)
        layers = check_layers(game.map_layers(side))
        assert layers["kind"] == game.facts().map_kind and layers["places"]["id"], gid
