"""Validated loaders for ``data/<game>/`` (CSV, YAML, GeoJSON).

Every table row carries a ``source``: ``rules:<section or line>``, ``external:<named source>``,
``reconstruction:<reasoning>`` or ``decision:<id>``.  A bad file raises :class:`DataError` naming the
file, the row (its line number in the file), the column and what was expected, and nothing is loaded.

Parsed-data cache (issue #21, the first ``load()`` of a game): validating every row with pydantic costs
tens of milliseconds a game, so a file under the data directory that validated cleanly is also stored,
parsed, in a cache directory (``$WARGAMES_CACHE``, else ``$XDG_CACHE_HOME/wargames`` or
``~/.cache/wargames``; ``WARGAMES_CACHE=off`` turns it off).  An entry is used only while its stamp still
matches: the hash of the data file's bytes, the hash of the source of the code that validates it (the schema's
package and ``wargames.core``), the cache format, Python's and pydantic's versions.  Anything else (a changed
file, changed code, an unreadable or foreign entry) validates the file again and rewrites the entry; a file
that fails validation is never stored, so its DataError is the same with or without the cache.  Schemas are
declared with ``defer_build=True`` so that a game whose data all come from the cache never pays for building
their validators.
"""

from __future__ import annotations

import csv
import gc
import hashlib
import json
import os
import pickle
import re
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from .actions import WargamesError

SOURCE_KINDS = ("rules:", "external:", "reconstruction:", "decision:")

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def yaml_load(text: str) -> Any:
    """``yaml.safe_load`` with libyaml's C parser when PyYAML was built with it (the same safe subset of YAML,
    about 20 times faster than the pure-Python parser).  PyYAML is imported here, not with this module: a game
    whose data files all come from the cache never needs it (issue #21)."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506 - a safe loader


class DataError(WargamesError):
    """A data file breaks its schema.  The message names file, row, column and the expectation."""

    def __init__(self, path: Path | str, message: str, row: int | None = None, column: str | None = None):
        self.path = str(path)
        self.row = row
        self.column = column
        where = self.path
        if row is not None:
            where += f", line {row}"
        if column is not None:
            where += f", column '{column}'"
        super().__init__(f"{where}: {message}")
        self._args = (path, message, row, column)

    def __reduce__(self):  # picklable, so errors cross process pools (Monte Carlo workers)
        return (type(self), self._args)


class Row(BaseModel):
    """Base of every table schema: no unknown columns, and a ``source`` of a known kind."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    source: str

    @field_validator("source")
    @classmethod
    def _source_kind(cls, v: str) -> str:
        if not v or not v.strip().startswith(SOURCE_KINDS):
            raise ValueError("must start with one of " + ", ".join(SOURCE_KINDS))
        return v.strip()


class RuleRow(Row):
    """One row of a game's rules index (``data/<game>/rules_index.csv``), the same shape for every game.

    ``section`` is the rulebook's section number where the game has numbered sections (Fire in the Lake,
    Rumor of War), ``line`` the first line of the rule in the shared rules text; a file may leave either
    column out (:func:`read_rules_index` then derives it from the rule id or the ``source``).  ``decisions``
    names the ``decisions.csv`` ids the rule leans on (a file may spell the column ``decision``).
    """

    rule_id: str
    section: str | None = None
    line: str | None = None
    title: str
    summary: str
    status: Literal["tested", "implemented", "omitted", "not yet"]
    code: str | None = None
    tests: str | None = None
    notebook: str | None = None
    decisions: str | None = None

    @property
    def ref(self) -> str:
        """Where the rule is in the shared rules text, e.g. ``rules 3.2.1, line 412`` or ``line 228``."""
        return ", ".join(
            x
            for x in (
                f"rules {self.section}" if self.section else "",
                f"line {self.line}" if self.line else "",
            )
            if x
        )


class ScenarioHead(BaseModel):
    """The fields a scenario file (``data/<game>/scenarios/<id>.yaml``) starts with; a game's scenario schema
    extends it with its turns, options and set-up.  Unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    id: str
    title: str
    summary: str


class DecisionRow(Row):
    """One row of a game's ``decisions.csv``: a gap or ambiguity settled, with alternatives and reasoning."""

    id: str
    topic: str
    decision: str
    alternatives: str | None = None
    reasoning: str


def results_dir() -> Path:
    """``benchmarks/results`` (the stored many-game runs) of the checkout this package runs from (an editable
    install, CI and Binder), else next to the data directory."""
    here = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
    if here.is_dir():
        return here
    return data_root().parent / "benchmarks" / "results"


def data_root() -> Path:
    """The ``data/`` directory: $WARGAMES_DATA, the installed package's copy, or the checkout's."""
    return _data_root(os.environ.get("WARGAMES_DATA") or "")


@cache
def _data_root(env: str) -> Path:
    """:func:`data_root` for one value of $WARGAMES_DATA (found once: a load asks for it tens of times, issue #21)."""
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    installed = here.parents[1] / "data"  # wheel: site-packages/wargames/data
    if _holds_a_game(installed):
        return installed
    checkout = here.parents[2] / "data"  # checkout: <repo>/data next to <repo>/wargames
    if _holds_a_game(checkout):
        return checkout
    raise DataError(here, "cannot find the wargames data directory (neither installed nor in a checkout)")


def _holds_a_game(folder: Path) -> bool:
    """Whether ``folder`` is a data directory: a folder of at least one game's data (its rules index)."""
    return folder.is_dir() and any(folder.glob("*/rules_index.csv"))


def game_dir(game: str) -> Path:
    return data_root() / game


def _pydantic_problem(err: ValidationError) -> tuple[str | None, str]:
    first = err.errors()[0]
    column = ".".join(str(p) for p in first.get("loc", ())) or None
    got = first.get("input")
    msg = first.get("msg", "invalid")
    if got is not None and not isinstance(got, dict):
        msg = f"{msg} (got {got!r})"
    return column, msg


_CACHE_FORMAT = 1


def cache_dir() -> Path | None:
    """Where parsed data files are cached (see the module's docstring); None when the cache is off."""
    env = os.environ.get("WARGAMES_CACHE")
    if env is not None:
        return None if env.strip().lower() in ("", "0", "off", "no", "false") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wargames"


@cache
def _source_hash(package: str) -> str:
    """The hash of every ``.py`` file of a ``wargames`` package, e.g. ``wargames.yotr`` (once per process)."""
    root = Path(__file__).resolve().parents[1] / package.split(".", 1)[1]
    h = hashlib.blake2b(digest_size=16)
    for src in sorted(root.rglob("*.py")):
        h.update(str(src.relative_to(root)).encode())
        h.update(src.read_bytes())
    return h.hexdigest()


def _code_stamp(owner: type | str) -> str:
    """The source hash of the packages whose code builds the cached value: ``wargames.core``, ``wargames.maps``
    (the hex grids inside cached maps) and the package of ``owner`` (a class, with its bases, or a module name)."""
    packages = {"wargames.core", "wargames.maps"}
    modules = [owner] if isinstance(owner, str) else [cls.__module__ for cls in owner.__mro__]
    for module in modules:
        parts = module.split(".")
        if parts[0] == "wargames" and len(parts) > 1:
            packages.add(".".join(parts[:2]))
    return ",".join(f"{p}:{_source_hash(p)}" for p in sorted(packages))


@cache
def _resolved_root(root: str) -> Path:
    return Path(root).resolve()


def _relative(path: Path, root: Path) -> Path:
    """``path`` relative to the resolved data directory ``root``; a ValueError if it is outside.  A path already
    written under ``root`` (as ``game_dir`` gives them) is not resolved again (a few system calls a file)."""
    if path.is_absolute() and ".." not in path.parts:
        try:
            return path.relative_to(root)
        except ValueError:
            pass
    return path.resolve().relative_to(root)


def _cache_file(path: Path, kind: str) -> Path | None:
    """The cache entry of a data file under the data directory (None for any other file or no cache)."""
    where = cache_dir()
    if where is None:
        return None
    try:
        root = _resolved_root(str(data_root()))
        rel = _relative(path, root)
    except (ValueError, DataError, OSError):
        return None  # a file outside the data directory (a test's copy, a user's file): always validated
    name = hashlib.blake2b(f"{root}|{rel}|{kind}".encode(), digest_size=12).hexdigest()
    return where / f"{rel.parts[0]}-{path.stem}-{name}.pickle"


def not_utf8(path: Path | str, err: UnicodeDecodeError) -> DataError:
    """The clear error for a data file that is not UTF-8 text (issue #30 item 11): the file and the byte."""
    return DataError(
        path, f"not UTF-8 text (byte {err.start} is {err.object[err.start]:#04x}): save it as UTF-8"
    )


def _built(files: list[Path], build: Callable[[], T]) -> T:
    """``build()``, with a file that is not UTF-8 text reported as a :class:`DataError` naming it."""
    try:
        return build()
    except UnicodeDecodeError as err:
        for f in files:
            try:
                f.read_bytes().decode("utf-8")
            except UnicodeDecodeError as bad:
                raise not_utf8(f, bad) from None
            except OSError:
                continue
        raise DataError(files[0], f"not UTF-8 text ({err})") from None


def cached_build(paths: Path | list[Path], kind: str, owner: type | str, build: Callable[[], T]) -> T:
    """``build()``, which reads and checks the data files ``paths`` (the first one names the cache entry), or the
    cached result of an earlier ``build()`` of the same bytes by the same code (see the module's docstring).

    ``kind`` tells apart two values built from the same first file; ``owner`` (a schema class or a module name)
    says whose package's source is part of the stamp.  The value must pickle.  A file outside the data directory
    is never cached.
    """
    files = [Path(p) for p in ([paths] if isinstance(paths, str | Path) else paths)]
    entry = _cache_file(files[0], kind)
    if entry is None:
        return _built(files, build)
    h = hashlib.blake2b(digest_size=16)
    try:
        for f in files:
            h.update(f"{f.name}|{f.stat().st_size}|".encode())
            h.update(f.read_bytes())
    except OSError:
        return _built(files, build)  # a missing file: build() raises its DataError
    stamp = (
        _CACHE_FORMAT,
        kind,
        h.hexdigest(),
        _code_stamp(owner),
        sys.version_info[:2],
        _pydantic_version(),
    )
    collecting = gc.isenabled()
    try:
        gc.disable()  # unpickling makes many objects and no garbage: no collections in between
        with entry.open("rb") as fh:
            got_stamp, value = pickle.load(fh)  # noqa: S301 - our own cache directory, stamped entries
        if got_stamp == stamp:
            return value
    except Exception:  # noqa: BLE001, S110 - a missing, truncated or foreign entry is rebuilt
        pass
    finally:
        if collecting:
            gc.enable()
    value = _built(files, build)
    tmp = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as fh:
            pickle.dump((stamp, value), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, entry)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        tmp.unlink(
            missing_ok=True
        )  # a read-only home or a value that does not pickle: no cache, the same data
    return value


@cache
def _pydantic_version() -> str:
    import pydantic

    return str(pydantic.VERSION)


def read_csv(path: Path, schema: type[M]) -> list[M]:
    """Read a CSV file into schema rows; the header must name exactly the schema's columns."""
    path = Path(path)
    return cached_build(
        path, f"csv:{schema.__module__}.{schema.__qualname__}", schema, lambda: _read_csv(path, schema)
    )


def _read_csv(path: Path, schema: type[M]) -> list[M]:
    if not path.exists():
        raise DataError(path, "file is missing")
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        header = reader.fieldnames or []
        expected = [f.alias or name for name, f in schema.model_fields.items()]
        missing = [c for c in expected if c not in header]
        extra = [c for c in header if c not in expected]
        if missing or extra:
            raise DataError(
                path, f"header must be {','.join(expected)}; missing {missing}, unexpected {extra}", row=1
            )
        rows: list[M] = []
        texts: dict[str, str] = {}
        for raw in reader:
            line = reader.line_num
            if None in raw:
                raise DataError(path, f"row has more fields than the header ({len(header)})", row=line)
            values = {
                k: (None if v is None or v.strip() == "" else texts.setdefault(v.strip(), v.strip()))
                for k, v in raw.items()
            }
            try:
                rows.append(schema.model_validate(values))
            except ValidationError as err:
                column, msg = _pydantic_problem(err)
                raise DataError(path, msg, row=line, column=column) from None
    _share_fields_set(rows)
    return rows


def _share_fields_set(rows: list[M]) -> None:
    """Rows of one file have every column set, so they share one ``model_fields_set`` instead of a set each
    (about 0.7 kB a row: megabytes for the hex maps, and a smaller, quicker cache entry; issue #21)."""
    shared: dict[frozenset[str], set[str]] = {}
    for row in rows:
        fields = row.__pydantic_fields_set__
        object.__setattr__(row, "__pydantic_fields_set__", shared.setdefault(frozenset(fields), fields))


def read_yaml(path: Path, schema: type[M]) -> M:
    """Read a YAML file into ``schema`` (a DataError naming the file and the field when it does not fit)."""
    path = Path(path)
    return cached_build(
        path, f"yaml:{schema.__module__}.{schema.__qualname__}", schema, lambda: _read_yaml(path, schema)
    )


def _read_yaml(path: Path, schema: type[M]) -> M:
    import yaml

    if not path.exists():
        raise DataError(path, "file is missing")
    try:
        data = yaml_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        raise DataError(path, f"not valid YAML: {err}") from None
    try:
        return schema.model_validate(data)
    except ValidationError as err:
        column, msg = _pydantic_problem(err)
        raise DataError(path, msg, column=column) from None


def read_geojson(path: Path) -> dict[str, Any]:
    """A GeoJSON FeatureCollection whose every feature has a ``source`` property."""
    path = Path(path)
    if not path.exists():
        raise DataError(path, "file is missing")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise DataError(path, f"not valid JSON: {err}") from None
    if data.get("type") != "FeatureCollection" or not isinstance(data.get("features"), list):
        raise DataError(path, "expected a GeoJSON FeatureCollection")
    for i, feat in enumerate(data["features"]):
        props = feat.get("properties") or {}
        src = str(props.get("source", ""))
        if not src.startswith(SOURCE_KINDS):
            raise DataError(
                path,
                "every feature needs a 'source' property of a known kind",
                row=i,
                column="properties.source",
            )
        if not isinstance(feat.get("geometry"), dict):
            raise DataError(path, "feature has no geometry", row=i, column="geometry")
    return data


def read_scenario(game: str, scenario: str, schema: type[M], title: str) -> tuple[Path, M]:
    """``data/<game>/scenarios/<scenario>.yaml`` read into ``schema``; an unknown name lists the known ones."""
    path = game_dir(game) / "scenarios" / f"{scenario}.yaml"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in path.parent.glob("*.yaml")))
        raise DataError(path, f"no scenario {scenario!r} for {title} (known: {known})")
    return path, read_yaml(path, schema)


def merge_options(path: Path, defaults: M, given: dict[str, Any], skip: tuple[str, ...] = ()) -> M:
    """A scenario's rule options (``defaults``) overridden by the caller's; an unknown or invalid option is a
    DataError naming the scenario file.  Keys in ``skip`` are handled by the game itself."""
    if not any(key not in skip for key in given):
        return defaults.model_copy(deep=True)  # nothing to merge: no validation (issue #21, the first load)
    merged = dict(defaults.model_dump())
    for key, value in given.items():
        if key in skip:
            continue
        if key not in merged:
            raise DataError(path, f"unknown option {key!r}; options are {sorted(merged)}", column="options")
        merged[key] = value
    try:
        return type(defaults).model_validate(merged)
    except ValidationError as err:
        column, msg = _pydantic_problem(err)
        raise DataError(path, msg, column=f"options.{column}") from None


@cache
def cached_csv(game: str, name: str, schema: type[M]) -> tuple[M, ...]:
    """Read ``data/<game>/<name>`` once per process (tables are immutable rows)."""
    return tuple(read_csv(game_dir(game) / name, schema))


def by_id(game: str, name: str, schema: type[M]) -> dict[str, M]:
    """A table keyed by its ``id`` column; a repeated id is a DataError naming its line."""
    out: dict[str, M] = {}
    for line, row in enumerate(cached_csv(game, name, schema), start=2):
        if row.id in out:
            raise DataError(game_dir(game) / name, f"duplicate id {row.id!r}", row=line, column="id")
        out[row.id] = row
    return out


_RULES_REQUIRED = ("rule_id", "title", "summary", "status", "source")
_RULES_ALIASES = {"decision": "decisions"}
_SECTION = re.compile(r"^\d+(?:\.\d+)*$")
_LINE = re.compile(r"\bL(\d+)")


def read_rules_index(path: Path | str, prefix: str = "") -> dict[str, RuleRow]:
    """A rules index keyed by rule id (the one loader of every game's ``rules_index.csv``).

    The header holds the :class:`RuleRow` columns; ``section``, ``line``, ``code``, ``tests``, ``notebook`` and
    ``decisions`` may be left out.  A rule id not starting with ``<prefix>-``, a repeated id or an unknown column
    is a DataError naming the file and line.  A missing ``section`` is read from a numbered rule id
    (``FITL-3.2.1`` -> ``3.2.1``), a missing ``line`` from the ``L<n>`` of the ``source``.
    """
    path = Path(path)
    return cached_build(path, f"rules:{prefix}", RuleRow, lambda: _read_rules_index(path, prefix))


def _read_rules_index(path: Path, prefix: str) -> dict[str, RuleRow]:
    if not path.exists():
        raise DataError(path, "file is missing")
    known = list(RuleRow.model_fields)
    out: dict[str, RuleRow] = {}
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        header = [_RULES_ALIASES.get(c, c) for c in reader.fieldnames or []]
        missing = [c for c in _RULES_REQUIRED if c not in header]
        extra = [c for c in header if c not in known]
        if missing or extra or len(set(header)) != len(header):
            raise DataError(
                path,
                f"header must name {','.join(_RULES_REQUIRED)} and only columns of "
                f"{','.join(known)}; missing {missing}, unexpected {extra}",
                row=1,
            )
        for raw in reader:
            line = reader.line_num
            if None in raw:
                raise DataError(path, f"row has more fields than the header ({len(header)})", row=line)
            values = {
                _RULES_ALIASES.get(k, k): (None if v is None or v.strip() == "" else v.strip())
                for k, v in raw.items()
            }
            try:
                row = RuleRow.model_validate(values)
            except ValidationError as err:
                column, msg = _pydantic_problem(err)
                raise DataError(path, msg, row=line, column=column) from None
            if prefix and not row.rule_id.startswith(f"{prefix}-"):
                raise DataError(
                    path, f"rule id {row.rule_id!r} must start with {prefix}-", row=line, column="rule_id"
                )
            if row.rule_id in out:
                raise DataError(path, f"duplicate rule id {row.rule_id!r}", row=line, column="rule_id")
            fill: dict[str, str] = {}
            tail = row.rule_id.split("-", 1)[1] if "-" in row.rule_id else ""
            if row.section is None and _SECTION.match(tail):
                fill["section"] = tail
            if row.line is None and (m := _LINE.search(row.source)):
                fill["line"] = m.group(1)
            out[row.rule_id] = row.model_copy(update=fill) if fill else row
    return out


@cache
def rules_index(game: str, prefix: str = "") -> dict[str, RuleRow]:
    """``data/<game>/rules_index.csv``, read once per process (see :func:`read_rules_index`)."""
    return read_rules_index(game_dir(game) / "rules_index.csv", prefix)


def rule_ref(game: str, rule_id: str) -> str:
    """Where ``rule_id`` is in ``game``'s rules text (:attr:`RuleRow.ref`); "" for an id the index lacks."""
    row = rules_index(game).get(rule_id)
    return row.ref if row else ""


@cache
def cached_geojson(game: str, name: str) -> dict[str, Any]:
    return read_geojson(game_dir(game) / name)
