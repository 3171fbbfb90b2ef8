"""Rumor of War counters (``data/row/units.csv``, ``wargames.row.units``): the 2.3 inventory as data.

Ground units print no factors (4.5, 5.3.4): what a counter carries is its nationality, size class, movement,
quality marker and traits; HQs carry activation rights (9.1); leaders the 2.3 roster with reconstructed values
(decisions R-SCN-03, R-SCN-05, R-SCN-07, R-SCN-20).  Bad files are refused naming file, line and column.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

import pytest

from wargames.core.data import DataError, data_root
from wargames.row.tables import tables
from wargames.row.units import UnitRow, load_units, units_of

UNITS = data_root() / "row" / "units.csv"


@pytest.fixture(scope="module")
def u() -> dict[str, UnitRow]:
    return load_units()


def _rows() -> tuple[list[str], list[dict[str, str]]]:
    with UNITS.open(newline="", encoding="utf-8") as fh:
        r = csv.DictReader(fh)
        return list(r.fieldnames or []), list(r)


def _write(tmp_path: Path, rows: list[dict[str, str]], header: list[str]) -> Path:
    buf = io.StringIO()
    w = csv.DictWriter(buf, header, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    p = tmp_path / "units.csv"
    p.write_text(buf.getvalue(), encoding="utf-8")
    return p


def _refused(tmp_path: Path, uid: str, **change: str) -> DataError:
    header, rows = _rows()
    line = next(i for i, r in enumerate(rows, start=2) if r["id"] == uid)
    for r in rows:
        if r["id"] == uid:
            r.update(change)
    p = _write(tmp_path, rows, header)
    with pytest.raises(DataError) as ei:
        load_units(p)
    err = ei.value
    assert err.path == str(p) and "units.csv" in str(err)
    assert err.row == line, (err.row, line, str(err))
    return err


# --------------------------------------------------------------------------- the inventory
def test_row_2_3_units_csv_counts_by_side_and_kind(u):
    kinds = Counter((x.side, x.kind) for x in u.values())
    # A Year in I Corps' counters plus those of the larger scenarios (R-SCN-21): 6 + 7 and 6 + 5 HQs
    assert kinds[("Capitalist", "hq")] == 13 and kinds[("Communist", "hq")] == 11
    assert kinds[("Capitalist", "leader")] == 14 and kinds[("Communist", "leader")] == 14
    assert (
        kinds[("Capitalist", "unit")] == 105 and kinds[("Communist", "unit")] == 99
    )  # + 4 Special Forces (14.1.5), 2 PRC (12.2); + the Tet reinforcements and 1/5 Mech (R-WAR-30); the 711th (R-WAR-37)
    assert all(
        x.source.startswith(("rules:", "reconstruction:", "decision:", "external:")) for x in u.values()
    )


def test_row_2_3_leader_roster_is_the_rules_roster(u):
    """2.3 (L569-590): six theater commanders, ten ground leaders, six aces a side (R-SCN-07: 'Colonel Tomb' is an alias)."""
    by = Counter((x.side, x.unit_type) for x in u.values() if x.kind == "leader")
    assert by[("Capitalist", "theater_commander")] == 3 and by[("Communist", "theater_commander")] == 3
    assert by[("Capitalist", "ground_leader")] == 5 and by[("Communist", "ground_leader")] == 5
    assert by[("Capitalist", "ace")] == 6 and by[("Communist", "ace")] == 6
    names = {x.name for x in u.values() if x.kind == "leader"}
    for n in (
        "William Westmoreland",
        "Creighton Abrams",
        "Frederick Weyand",
        "Võ Nguyên Giáp",
        "Nguyễn Hữu An",
        "Ye Jianying",
        "Hoàng Xuân Lãm",
        "Lê Nguyên Khang",
        "Ngô Quang Trưởng",
        "Ouane Rattikone",
        "Lon Nol",
        "Hoàng Văn Thái",
        "Trần Văn Trà",
        "Trần Độ",
        "Son Sen",
        "Souphanouvong",
        "Steve Ritchie",
        "Randy Cunningham",
        "Nguyễn Văn Cốc",
        "Nguyễn Văn Bảy",
    ):
        assert n in names, n
    assert "Colonel Tomb" in u["nguyen_van_coc"].note


def test_row_2_3_theater_commanders_have_no_value_leaders_do(u):
    for x in u.values():
        if x.kind == "leader":
            assert (x.leader_value is None) == (x.unit_type == "theater_commander"), x.id
    assert u["ngo_quang_truong"].leader_value == 2 and u["hoang_xuan_lam"].leader_value == 1  # R-SCN-20
    assert u["nguyen_van_coc"].leader_value == 2 and u["nguyen_van_bay"].leader_value == 1


def test_row_2_3_size_class_of_every_unit_is_the_5_3_4_table(u):
    sizes = tables().size_classes
    for x in u.values():
        if x.kind == "unit":
            assert x.size_class == sizes[(x.nationality, x.unit_type)], x.id
    assert u["us_3mar"].size_class == "A" and u["us_2_4mar"].size_class == "B"
    assert (
        u["arvn_4rgt"].size_class == "C" and u["vc_1rgt"].size_class == "B" and u["vc_r20"].size_class == "C"
    )


def test_row_2_3_units_move_5_hqs_10_special_forces_never(u):
    """4.5: every unit 5 MP, every HQ 10 MP; 14.1.5: Special Forces never move."""
    for x in u.values():
        if x.kind == "hq":
            assert x.movement == 10
        elif x.kind == "unit":
            assert x.movement == (0 if x.has("special_forces") else 5), x.id
    assert sum(x.has("special_forces") for x in u.values()) <= 7  # 14.1.5: seven SF battalions at most


def test_row_2_3_hq_activation_rights(u):
    """9.1: US HQs activate US units; VC HQs VC; PAVN HQs any Communist; ARVN HQs ARVN and Minors (R-SCN-05)."""
    assert u["us_iii_maf"].activates_nations == ("US",)
    assert set(u["arvn_i_corps_hq"].activates_nations) == {"ARVN", "ROK", "Thai", "Aus"}
    assert u["vc_mr5_hq"].activates_nations == ("VC",)
    assert set(u["pavn_559_hq"].activates_nations) == {"PAVN", "VC", "PRC", "PL", "KhR"}
    assert all(x.activation_limit == 4 and x.command_range == 10 for x in u.values() if x.kind == "hq")
    assert not u["us_iii_maf"].is_unit and u["us_3mar"].is_unit  # glossary: an HQ is not a unit


def test_row_2_3_created_units_and_their_parents(u):
    """14.1.1: Marine battalions come from their regiment, ARVN regiments from their division; never independent."""
    created = [x for x in u.values() if x.has("created")]
    assert len(created) == 18 + 6
    for x in created:
        par = u[x.parent]
        assert (x.nationality, par.nationality) in (("US", "US"), ("ARVN", "ARVN"))
        assert par.unit_type == ("division" if x.nationality == "ARVN" else "regiment")
    assert u["us_3_3mar"].parent == "us_3mar" and u["arvn_5rgt"].parent == "arvn_2div"
    assert u["arvn_51rgt"].has("independent") and u["arvn_51rgt"].parent is None  # R-SCN-06


def test_row_2_3_helicopter_costs_and_free_stacking(u):
    """14.1.2.1: a US battalion costs 2 helicopter points, an ARVN regiment 3; 4.2: US battalions stack freely."""
    assert u["us_2_4mar"].helicopter_cost == 2 and u["arvn_4rgt"].helicopter_cost == 3
    assert u["us_4mar"].helicopter_cost is None and u["vc_1rgt"].helicopter_cost is None
    assert (
        u["us_2_4mar"].stacks_freely and u["us_sf_khe_sanh"].stacks_freely and not u["us_4mar"].stacks_freely
    )


def test_row_2_3_us_division_units_have_their_cadre(u):
    """9.4: a US unit of a division is supported through its division's cadre, so every US division has one."""
    for x in u.values():
        if x.nationality == "US" and x.division:
            assert any(c.unit_type == "cadre" and c.division == x.division for c in u.values()), x.id


def test_row_2_3_units_of_filters_side_and_kind():
    assert all(x.side == "Communist" and x.kind == "hq" for x in units_of("Communist", "hq"))
    assert len(units_of("Capitalist", "hq")) == 13


# --------------------------------------------------------------------------- refused files
def test_row_2_3_loader_refuses_a_wrong_size_class(tmp_path):
    err = _refused(tmp_path, "us_3mar", size_class="C")
    assert err.column == "size_class" and "5.3.4" in str(err)


def test_row_2_3_loader_refuses_a_duplicate_id(tmp_path):
    header, rows = _rows()
    rows.append(dict(rows[0]))
    p = _write(tmp_path, rows, header)
    with pytest.raises(DataError, match="duplicate id") as ei:
        load_units(p)
    assert ei.value.row == len(rows) + 1 and ei.value.column == "id"


def test_row_2_3_loader_refuses_side_and_nationality_mismatch(tmp_path):
    err = _refused(tmp_path, "vc_r20", side="Capitalist")
    assert err.column == "side"


def test_row_2_3_loader_refuses_an_unknown_nationality(tmp_path):
    err = _refused(tmp_path, "vc_r20", nationality="Martian")
    assert err.column == "nationality"


def test_row_2_3_loader_refuses_an_hq_commanding_the_enemy(tmp_path):
    err = _refused(tmp_path, "us_iii_maf", activates="US;VC")
    assert err.column == "activates" and "9.1" in str(err)


def test_row_2_3_loader_refuses_a_created_unit_without_parent(tmp_path):
    err = _refused(tmp_path, "us_2_4mar", parent="")
    assert err.column == "parent" and "14.1.1" in str(err)


def test_row_2_3_loader_refuses_a_battalion_created_by_the_wrong_parent(tmp_path):
    err = _refused(tmp_path, "us_2_4mar", parent="arvn_2div")
    assert err.column == "parent"


def test_row_2_3_loader_refuses_a_theater_commander_value_and_bad_movement(tmp_path):
    assert _refused(tmp_path, "westmoreland", leader_value="2").column == "leader_value"
    assert _refused(tmp_path, "us_3mar", movement="6").column == "movement"


def test_row_2_3_loader_refuses_unknown_traits_and_wrong_quality(tmp_path):
    assert _refused(tmp_path, "us_3mar", traits="marine;jetpack").column == "traits"
    assert (
        _refused(tmp_path, "vc_r20", quality="Elite").column == "quality"
    )  # 6.2h: Communists get Guards/Penal


def test_row_2_3_loader_refuses_a_missing_source(tmp_path):
    err = _refused(tmp_path, "us_3mar", source="my guess")
    assert err.column == "source"
