"""The teacher's dashboard (issue #32 item 4): the class read from the store, results beside the built-in players
and history, a student's game opened as a replay, the "shared" mark."""

from __future__ import annotations

import pytest

import wargames

pytest.importorskip("sqlalchemy")
pytest.importorskip("ipywidgets")

from wargames.notebook.dashboard import ClassDashboard, class_table, history, results_table  # noqa: E402
from wargames.store import GameStore  # noqa: E402


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = GameStore(f"sqlite:///{tmp_path_factory.mktemp('dash') / 'class.sqlite'}")
    playing = wargames.load("tet", "historical", seed=3)
    playing.set_players({"Allied": None})
    playing.advance("end")
    s.put("name:ann", "tet", playing, side="Allied", name="Ann", label="Historical (2 players)")
    for seed in (4, 5):
        done = wargames.load("tet", "historical", seed=seed)
        done.advance("end")
        assert done.is_over
        s.put(f"token:tok{seed}xxxxx", "tet", done, side="Allied")
    yield s
    s.dispose()


def test_dashboard_class_table_names_students_sides_and_where_games_stand(store):
    t = class_table(store)
    assert set(t.student) == {"Ann", "anonymous (tok4xx...)", "anonymous (tok5xx...)"}
    ann = t[t.student == "Ann"].iloc[0]
    assert (ann.side, ann.result, ann.scenario) == ("Allied", "playing", "Historical (2 players)")
    assert "Turn 1" in ann["where"] and "token:" not in " ".join(t.student)


def test_dashboard_results_beside_built_in_players_and_history(store):
    r = results_table(store, "tet").set_index("winner")
    assert r.filter(like="class (2 finished)").sum().iloc[0] == pytest.approx(100.0)
    bots = r.filter(like="built-in players (1000 games)").iloc[:, 0]
    assert bots.sum() == pytest.approx(100.0, abs=0.2)
    assert r.loc["Allied", "history"] == "this"  # TET-AIM: the offensive was beaten back (history.csv)


def test_dashboard_history_rows_have_sources_for_every_app():
    h = history()
    assert set(h.game) == {"tet", "yotr", "fitl", "row"} and h.source.str.startswith("reconstruction:").all()


@pytest.mark.slow
def test_dashboard_opens_a_students_game_as_a_replay_and_shares_it(store):
    dash = ClassDashboard(store, app="tet")
    assert "Ann" in dash.table.value and "In history:" in dash.results.value
    dash.pick.value = ("name:ann", "tet")
    walk = dash.open_selected()
    assert walk is not None and walk.game.digest() == store.open("name:ann", "tet").digest()
    assert walk.human is None and dash.replay.children == (walk.widget,)  # the umpire's view: every ruling
    dash.share_box.value = True
    assert store.get("name:ann", "tet").shared
    dash.refresh()
    assert dash.share_box.value and "yes" in dash.table.value
