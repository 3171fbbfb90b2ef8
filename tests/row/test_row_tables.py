"""Rumor of War combat tables as data (issue #15, deliverable 2): contents checked against the rules text, and a
bad row refused with its file, line and column."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from wargames.core.data import DataError, DecisionRow, read_csv, rules_index
from wargames.row.tables import load_tables, tables, terrain_factor

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "data" / "row" / "tables"


def test_row_tables_every_row_has_a_known_source():
    for path in TABLES.glob("*.csv"):
        with path.open(newline="", encoding="utf-8") as fh:
            for line, row in enumerate(csv.DictReader(fh), start=2):
                assert row["source"].startswith(("rules:", "reconstruction:", "decision:", "external:")), (
                    path,
                    line,
                )


def test_row_tables_reconstructions_are_labelled():
    t = tables()
    assert all(c.reconstructed for mug in t.chits.values() for c in mug)
    assert all(r.source.startswith("reconstruction:") for r in t.snafu_cup)
    assert all(r.source.startswith("reconstruction:") for r in t.spread_reductions.values())
    assert all(r.source.startswith("rules:") for r in t.random_events.values())


def test_row_4_6_declaration_costs_table():
    t = tables()
    assert {k: (r.mp_cost, r.costs_all_mp, r.mug) for k, r in t.costs.items()} == {
        "meeting_engagement": (1, "no", "ME_HASTY"),
        "hasty": (2, "no", "ME_HASTY"),
        "prepared": (3, "no", "PREP_DELIB"),
        "deliberate": (0, "yes", "PREP_DELIB"),
    }
    assert t.costs["deliberate"].adjacent_multiplier == 2 and t.costs["deliberate"].low_morale_allowed == "no"


def test_row_5_3_1_support_planning_table_as_printed():
    t = tables()
    got = {k: (r.tank, r.artillery, r.air) for k, r in t.planning.items()}
    assert got == {
        "A": (4, 4, 4),
        "B": (2, 3, 3),
        "C": (1, 2, 1),
        "D": (1, 1, 1),
        "meeting_engagement": (4, 4, 4),
        "hasty": (3, 3, 3),
        "prepared": (3, 3, 3),
        "deliberate": (3, 3, 3),
    }
    assert {r.bombardment for r in t.planning.values()} == {2}  # 5.3.2


def test_row_5_3_4_size_tables():
    t = tables()
    assert t.size_modifiers[("A", "B")] == 2 and t.size_modifiers[("A", "C")] == 4
    assert t.size_modifiers[("B", "C")] == 2 and t.size_modifiers[("C", "A")] == 0
    assert t.size_classes[("US", "battalion")] == "B" and t.size_classes[("ARVN", "regiment")] == "C"
    assert t.size_classes[("PAVN", "regiment")] == "B" and t.size_classes[("VC", "battalion")] == "C"
    assert (
        t.size_classes[("ROK", "brigade")] == "A" and t.size_classes[("Laos", "regiment")] == "B"
    )  # R-CBT-14


def test_row_5_5_random_event_tables_complete():
    t = tables()
    assert len(t.random_events) == 30
    news = {
        tab: sum(1 for (x, _), r in t.random_events.items() if x == tab and r.event == "objective")
        for tab in "ABC"
    }
    assert news == {"A": 1, "B": 3, "C": 4}


def test_row_5_6_elimination_and_retreat_tables():
    t = tables()
    assert {k: (r.dice, r.die) for k, r in t.elimination.items()} == {"C": (1, 6), "B": (1, 10), "A": (2, 6)}
    assert [(t.retreat[h].marker, t.retreat[h].tank_loss, t.retreat[h].snafu_draws) for h in (1, 2, 3)] == [
        (None, 0, 0),
        ("Disrupted", 1, 1),
        ("Routed", 2, 2),
    ]
    assert (
        t.loss_limits["loss_point"].max_per_combat == 2 and t.loss_limits["replacement"].max_per_combat == 1
    )


def test_row_6_1_snafu_cup_reconstruction_matches_the_marker_sheet():
    t = tables()
    sides = {r.side: set() for r in t.snafu_cup}
    for r in t.snafu_cup:
        sides[r.side] |= {r.front, r.back} - {None}
    assert len(t.snafu_cup) == 13
    assert "Fuel Out" in sides["Capitalist"] and "Fuel Out" not in sides["Communist"]  # 6.1c
    assert "Friendly Fire" in sides["Communist"] and "Air Strike" in sides["Capitalist"]


def test_row_tables_chit_mugs():
    t = tables()
    assert set(t.chits) == {"ME_HASTY", "PREP_DELIB"} and all(len(m) == 12 for m in t.chits.values())


def test_row_tables_rules_index_and_decisions_load():
    index = rules_index("row", "ROW")
    assert "ROW-5.6" in index and "ROW-1.0" in index and "ROW-14.8" in index
    ids = [r.id for r in read_csv(ROOT / "data" / "row" / "decisions.csv", DecisionRow)]
    assert len(ids) == len(set(ids)) and "R-CBT-01" in ids


def test_row_tables_terrain_factor():
    assert terrain_factor("1/3") * 9 == 3
    with pytest.raises(ValueError):
        terrain_factor("3/2")


# ------------------------------------------------------------------ loader errors
@pytest.fixture
def copy(tmp_path):
    dest = tmp_path / "tables"
    shutil.copytree(TABLES, dest)
    return dest


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_row_tables_loader_refuses_a_bad_die(copy):
    _edit(copy / "elimination_rolls.csv", "C,1,6,", "C,1,8,")
    with pytest.raises(DataError) as e:
        load_tables(copy)
    assert "elimination_rolls.csv" in str(e.value) and e.value.row == 2 and e.value.column == "die"


def test_row_tables_loader_refuses_a_missing_face(copy):
    path = copy / "random_events.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(ln for ln in lines if not ln.startswith("B,7,")) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"random_events.csv.*missing \[\('B', 7\)\]"):
        load_tables(copy)


def test_row_tables_loader_refuses_a_snafu_draw_without_placer(copy):
    _edit(copy / "random_events.csv", "A,2,snafu,defender,", "A,2,snafu,,")
    with pytest.raises(DataError) as e:
        load_tables(copy)
    assert e.value.row == 3 and e.value.column == "placer"


def test_row_tables_loader_refuses_a_bad_source(copy):
    _edit(
        copy / "support_planning.csv", '"rules:5.3.1 L1115-1130 (chit Spt A)', '"rulebook 5.3.1 (chit Spt A)'
    )
    with pytest.raises(DataError) as e:
        load_tables(copy)
    assert "support_planning.csv" in str(e.value) and e.value.row == 2 and e.value.column == "source"


def test_row_tables_loader_refuses_a_duplicate_chit(copy):
    _edit(copy / "combat_chits.csv", "ME_HASTY,ME-02,", "ME_HASTY,ME-01,")
    with pytest.raises(DataError) as e:
        load_tables(copy)
    assert e.value.row == 3 and e.value.column == "chit"


def test_row_tables_loader_refuses_an_undescribed_snafu_face(copy):
    _edit(copy / "snafu_cup.csv", "COM-FF,Communist,Friendly Fire,", "COM-FF,Communist,Friendly Fyre,")
    with pytest.raises(DataError) as e:
        load_tables(copy)
    assert "snafu_cup.csv" in str(e.value) and e.value.row == 12 and e.value.column == "front"


def test_row_tables_loader_refuses_a_communist_fuel_marker(copy):
    _edit(
        copy / "snafu_cup.csv",
        "COM-AMMO,Communist,Ammo Shortage,Ammo Out",
        "COM-AMMO,Communist,Fuel Shortage,Fuel Out",
    )
    with pytest.raises(DataError, match="Capitalist only"):
        load_tables(copy)


def test_row_tables_loader_refuses_a_wrong_header(copy):
    _edit(copy / "size_modifiers.csv", "my_class,their_class,modifier,source", "mine,theirs,modifier,source")
    with pytest.raises(
        DataError, match=r"size_modifiers.csv, line 1: header must be .*missing \[.my_class., .their_class.\]"
    ) as e:
        load_tables(copy)
    assert e.value.row == 1


def test_row_tables_loader_refuses_a_missing_file(copy):
    (copy / "combat_dice.csv").unlink()
    with pytest.raises(DataError, match="combat_dice.csv: file is missing"):
        load_tables(copy)


def test_row_tables_loader_refuses_a_negative_deduction(copy):
    _edit(copy / "support_planning.csv", "B,attacker,2,3,3,2", "B,attacker,-2,3,3,2")
    with pytest.raises(DataError) as e:
        load_tables(copy)
    assert e.value.row == 3 and e.value.column == "tank"


def test_row_tables_loader_refuses_an_unknown_nationality(copy):
    _edit(copy / "size_classes.csv", "Capitalist,ROK,division,A", "Capitalist,Korea,division,A")
    with pytest.raises(DataError, match="support_tracks.csv") as e:
        load_tables(copy)
    assert "size_classes.csv" in str(e.value) and e.value.column == "nationality"


def test_row_5_6_loss_rolls_agree_with_elimination_rolls(copy):
    t = tables()
    assert (t.loss_rolls["air_strike_marker"].die, t.loss_rolls["air_strike_marker"].halve_up) == (10, "yes")
    assert t.loss_rolls["evade_retreat_through_zoc"].track == "Body Count"
    _edit(copy / "loss_rolls.csv", "elimination_class_B,5.6,1,10,", "elimination_class_B,5.6,1,6,")
    with pytest.raises(DataError, match="must agree with elimination_rolls.csv") as e:
        load_tables(copy)
    assert e.value.row == 3
