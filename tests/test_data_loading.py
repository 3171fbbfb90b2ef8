"""Validated loaders (wargames.core.data): every row has a source, bad files name file/row/column."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wargames.core.data import DataError, data_root, read_csv, read_geojson, read_yaml
from wargames.core.sequence import SequenceOfPlay
from wargames.tet.data import AreaRow, UnitRow

ROOT = Path(__file__).resolve().parents[1]


def _copy(tmp_path, name, row=None, column=None, value=None):
    """Copy a Tet table, optionally setting one cell (row counts data rows from 0)."""
    dst = tmp_path / name
    shutil.copy(data_root() / "tet" / name, dst)
    if row is not None:
        with dst.open(newline="") as fh:
            rows = list(csv.reader(fh))
        rows[row + 1][rows[0].index(column)] = value
        with dst.open("w", newline="") as fh:
            csv.writer(fh).writerows(rows)
    return dst


def test_data_every_csv_row_has_a_known_source():
    for path in sorted(data_root().rglob("*.csv")):
        text = path.read_text(encoding="utf-8").splitlines()
        header = text[0].split(",")
        assert "source" in header, f"{path} has no source column"


def test_data_bad_value_names_file_row_column(tmp_path):
    path = _copy(tmp_path, "units.csv", row=4, column="type", value="dragon")
    with pytest.raises(DataError) as err:
        read_csv(path, UnitRow)
    assert err.value.row == 6 and err.value.column == "type" and "units.csv" in str(err.value)


def test_data_missing_source_is_rejected(tmp_path):
    path = _copy(tmp_path, "areas.csv", row=0, column="source", value="")
    with pytest.raises(DataError) as err:
        read_csv(path, AreaRow)
    assert err.value.row == 2 and err.value.column == "source"


def test_data_wrong_header_is_rejected(tmp_path):
    path = _copy(tmp_path, "areas.csv")
    text = path.read_text().replace("airbase", "air_base", 1)
    path.write_text(text)
    with pytest.raises(DataError, match="header"):
        read_csv(path, AreaRow)


def test_data_bad_yaml_and_geojson(tmp_path):
    bad = tmp_path / "sequence.yaml"
    bad.write_text("game: tet\nturns: five\nphases: []\nsource: 'rules: x'\n")
    with pytest.raises(DataError, match="turns"):
        read_yaml(bad, SequenceOfPlay)
    geo = tmp_path / "x.geojson"
    geo.write_text(
        '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, '
        '"geometry": {"type": "Point", "coordinates": [0, 0]}}]}'
    )
    with pytest.raises(DataError, match="source"):
        read_geojson(geo)


@pytest.mark.slow
def test_data_found_from_an_installed_wheel(tmp_path):
    """Build the wheel, install it into a bare target dir, and load a game from outside the checkout."""
    wheel_dir = tmp_path / "wheel"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheel_dir),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next(wheel_dir.glob("wargames-*.whl"))
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    code = (
        "import wargames, wargames.core.data as d; g = wargames.load('tet', seed=1); "
        "print(wargames.__file__); print(d.data_root())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert out[0].startswith(str(target)) and out[1].startswith(str(target))


def test_scenario_options_unknown_or_invalid_are_refused_naming_the_file():
    import wargames
    from wargames.core.data import DataError

    with pytest.raises(DataError, match=r"historical\.yaml.*unknown option 'fog'"):
        wargames.load("tet", fog=True)
    with pytest.raises(DataError, match=r"historical\.yaml.*options\."):
        wargames.load("yotr", isolated_attack_factor="a lot")
    with pytest.raises(DataError, match=r"known: historical"):
        wargames.load("tet", scenario="hue_only")


# ------------------------------------------------------------------ the parsed-data cache (issue #21)
@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A copy of data/tet as the data directory, and an empty cache directory."""
    root = tmp_path / "data"
    shutil.copytree(data_root() / "tet", root / "tet")
    monkeypatch.setenv("WARGAMES_DATA", str(root))
    monkeypatch.setenv("WARGAMES_CACHE", str(tmp_path / "cache"))
    return root


def test_data_cache_gives_the_validated_rows_and_stores_an_entry(data_copy):
    first = read_csv(data_copy / "tet" / "units.csv", UnitRow)
    entries = list((data_copy.parent / "cache").glob("tet-units-*.pickle"))
    assert len(entries) == 1
    again = read_csv(data_copy / "tet" / "units.csv", UnitRow)
    assert again == first and again is not first


def test_data_cache_is_not_trusted_when_the_file_changes(data_copy):
    path = data_copy / "tet" / "units.csv"
    read_csv(path, UnitRow)
    rows = list(csv.reader(path.open(newline="")))
    rows[5][rows[0].index("type")] = "dragon"
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    with pytest.raises(DataError) as err:  # the same error as without a cache
        read_csv(path, UnitRow)
    assert err.value.row == 6 and err.value.column == "type"


def test_data_cache_a_changed_value_is_read_again(data_copy):
    path = data_copy / "tet" / "areas.csv"
    before = read_csv(path, AreaRow)
    rows = list(csv.reader(path.open(newline="")))
    rows[1][rows[0].index("name")] = "Somewhere Else"
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    after = read_csv(path, AreaRow)
    assert before[0].name != "Somewhere Else" and after[0].name == "Somewhere Else"


def test_data_cache_a_damaged_entry_is_rebuilt(data_copy):
    path = data_copy / "tet" / "areas.csv"
    want = read_csv(path, AreaRow)
    (entry,) = (data_copy.parent / "cache").glob("tet-areas-*.pickle")
    entry.write_bytes(b"not a pickle")
    assert read_csv(path, AreaRow) == want
    assert entry.read_bytes() != b"not a pickle"


def test_data_cache_off_and_files_outside_the_data_directory_are_not_cached(data_copy, tmp_path, monkeypatch):
    outside = _copy(tmp_path, "areas.csv")
    read_csv(outside, AreaRow)
    assert not list((data_copy.parent / "cache").glob("*.pickle"))
    monkeypatch.setenv("WARGAMES_CACHE", "off")
    read_csv(data_copy / "tet" / "areas.csv", AreaRow)
    assert not (data_copy.parent / "cache").exists()
