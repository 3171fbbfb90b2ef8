"""Every data file checked (issue #30 items 9-11, 13): a bad value is a clear error naming the file (and the row,
column or option), never a traceback or a silent wrong load."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

import wargames
from wargames.core import IllegalAction, WargamesError
from wargames.core.data import DataError, data_root

ROOT = data_root()


@pytest.fixture
def fitl_copy(tmp_path, monkeypatch):
    """A copy of ``data/`` to edit; the loaders read it through $WARGAMES_DATA."""
    copy = tmp_path / "data"
    copy.mkdir()
    for sub in ROOT.iterdir():
        if sub.name == "fitl":
            shutil.copytree(sub, copy / sub.name)
        else:
            (copy / sub.name).symlink_to(sub)
    monkeypatch.setenv("WARGAMES_DATA", str(copy))
    monkeypatch.setenv("WARGAMES_CACHE", "off")
    return copy / "fitl"


def _edit_short(fitl: Path, change) -> None:
    path = fitl / "scenarios" / "short.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _first_space_with(data, key):
    return next(s for s in data["spaces"] if key in s.get("pieces", {}))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: _first_space_with(d, "us_troops")["pieces"].update(us_troops=300), "rules 1.2"),
        (lambda d: d["tracks"].update(aid=99), "off its track"),
        (lambda d: d.update(trakcs={}), "unknown key 'trakcs'"),
        (lambda d: d["tracks"]["resources"].update(Khmer=3), "unknown faction 'Khmer'"),
        (lambda d: d["eligibility"]["eligible"].append("France"), "unknown faction 'France'"),
        (lambda d: d["spaces"].append(dict(d["spaces"][0])), "set up twice"),
    ],
)
def test_fitl_scenario_checks_piece_totals_tracks_keys_and_factions(fitl_copy, change, message):
    """FITL-2.1 set-up, rules 1.2 (the force pool) and 1.8 (track ranges): issue #30 item 9."""
    from wargames.fitl.data import load_scenario

    _edit_short(fitl_copy, change)
    with pytest.raises(DataError, match=message) as err:
        load_scenario("short")
    assert "short.yaml" in str(err.value)


def test_fitl_events_missing_or_malformed_is_a_data_error(fitl_copy, tmp_path):
    """FITL-5 events: no events file, or one that is not YAML, names the file (issue #30 items 9 and 11)."""
    from wargames.fitl import events

    bad = fitl_copy / "events" / "cards-001-026.yaml"
    bad.write_text("- number: 1\n  title: [unclosed\n", encoding="utf-8")
    with pytest.raises(DataError, match="not valid YAML") as err:
        events._read_events([bad])
    assert "cards-001-026.yaml" in str(err.value)
    for p in (fitl_copy / "events").glob("cards-*.yaml"):
        p.unlink()
    with pytest.raises(DataError, match="no cards-"):
        events.load_events.__wrapped__()


def test_yotr_every_crt_and_brt_cell_is_a_legal_result():
    """YOTR-CBT-CRT and YOTR-BMB-BRT (issue #30 item 10): each table has rows 1-6 and legal cells only."""
    from wargames.core.data import cached_csv
    from wargames.yotr.data import BRT_RESULTS, CRT_RESULTS, BrtRow, CrtRow, _check_table

    crt = list(cached_csv("yotr", "crt.csv", CrtRow))
    brt = list(cached_csv("yotr", "brt.csv", BrtRow))
    _check_table(Path("crt.csv"), crt, CRT_RESULTS, "combat")  # the shipped tables pass
    _check_table(Path("brt.csv"), brt, BRT_RESULTS, "bombardment")
    broken = [crt[0].model_copy(update={"c31": "Dx"}), *crt[1:]]
    with pytest.raises(DataError, match="'Dx' is not a combat result") as err:
        _check_table(Path("crt.csv"), broken, CRT_RESULTS, "combat")
    assert "line 2" in str(err.value) and "3-1" in str(err.value)
    with pytest.raises(DataError, match="one row per die"):
        _check_table(Path("brt.csv"), brt[:5], BRT_RESULTS, "bombardment")


@pytest.mark.parametrize(
    ("game_id", "options", "message"),
    [
        ("tet", {"ruff_puff_exempt_city": "nowhere"}, "not a city of the map"),
        ("tet", {"recce_turns": [2, 99]}, "outside the game's turns"),
        ("row", {"extra": 1}, "unknown option 'extra'"),
    ],
)
def test_bad_option_values_name_the_scenario_file_and_option(game_id, options, message):
    """Issue #30 item 11: Tet's TET-SETUP-2 exempt city (A-38) and Recce turns (A-20); Rumor of War's options."""
    with pytest.raises(DataError, match=message) as err:
        wargames.load(game_id, **options)
    assert ".yaml" in str(err.value)


def test_row_duplicate_aircraft_ids_are_refused(tmp_path):
    """ROW-10.1 (issue #30 item 11): a doubled aircraft id in data/row/air/aircraft.csv names file and line."""
    from wargames.core.data import read_csv
    from wargames.row.airdata import AIR_DIR, AircraftCounter, _keyed

    path = ROOT / "row" / AIR_DIR / "aircraft.csv"
    rows = read_csv(path, AircraftCounter)
    with pytest.raises(DataError, match="duplicate id") as err:
        _keyed(path, [*rows, rows[0]], "id")
    assert "aircraft.csv" in str(err.value) and f"line {len(rows) + 2}" in str(err.value)


def test_refusals_name_what_is_missing_not_none():
    """TET-P1-1 and YOTR-MOV-C (issue #30 item 13): an action without its unit says so, never "unit None"."""
    for game_id, kind in (("tet", "move"), ("yotr", "move_unit")):
        game = wargames.load(game_id, seed=1)
        game.set_players({s: None for s in game.sides})
        game.advance("decision")
        before = game.digest()
        with pytest.raises(IllegalAction) as err:
            game.apply({"kind": kind, "params": {}})
        assert "None" not in str(err.value) and "no unit" in str(err.value)
        assert game.digest() == before


def test_non_utf8_data_is_a_clear_error(tmp_path):
    """Issue #30 item 11: a data file that is not UTF-8 names the file and the byte."""
    from wargames.core.data import DecisionRow, read_csv

    bad = tmp_path / "decisions.csv"
    bad.write_bytes(
        "id,topic,decision,alternatives,reasoning,source\nX,caf\xe9,d,,r,rules:1\n".encode("latin-1")
    )
    with pytest.raises(WargamesError, match="not UTF-8") as err:
        read_csv(bad, DecisionRow)
    assert "decisions.csv" in str(err.value)


def test_yotr_an_attack_on_an_empty_hex_says_there_is_nothing_to_attack():
    """YOTR-CBT-A (issue #30 item 13): attacking a hex with no enemy is refused as such, the game unchanged."""
    game = wargames.load("yotr", seed=1)
    game.set_players({s: None for s in game.sides})
    bots = {s: game.default_player(s) for s in game.sides}
    while game.decision is not None and game.decision.kind != "target":
        game.apply(bots[game.decision.side].choose(game, game.decision))
        game.advance("decision")
    assert game.decision is not None
    side = game.decision.side
    empty = next(h for h in sorted(game.data.hexes) if not game.is_target(h, side))
    before = game.digest()
    with pytest.raises(IllegalAction, match="nothing there to attack") as err:
        game.apply({"kind": "target", "params": {"hex": empty}})
    assert err.value.rule_id == "YOTR-CBT-A" and game.digest() == before
