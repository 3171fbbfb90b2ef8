"""Optional scenario blocks for the special rules of section 12.2 and 14 (politics, the trail, SOW missions).

A scenario YAML may carry three optional blocks, read by :mod:`wargames.row.politics`, :mod:`wargames.row.trail`
and :mod:`wargames.row.sow` (keys documented for scenario writers in the project notes, row-politics-schema):

* ``politics``: China (12.2), the party in power and the elections (14.5), theater commander changes (14.2.1),
  invaded countries and what invading costs (14.6.1), whether secret operations are allowed (12.1.5);
* ``trail``: ground interdiction of the Ho Chi Minh Trail (14.7.2), the countermix of Trail Interdicted markers
  and the markers on the map at the start;
* ``sow``: the SOW wings that may fly Special Operations (14.8) with their Special Ops rating.

A scenario without them (A Year in I Corps) plays as before: no China roll, no election, no commander change,
no trail interdiction, no special operations.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..core.data import Row

COUNTRIES = ("NVN", "LAO", "KHM")


class ChinaSetup(Row):
    """12.2: ``in_play`` lets Capitalist units into North Vietnam and Laos and makes the A1 check roll;
    ``prc_units`` are the PRC counters that enter on intervention."""

    in_play: bool = False
    intervened: bool = False
    prc_units: list[str] = []


class PoliticsSetup(Row):
    china: ChinaSetup | None = None
    party: Literal["Democrats", "Republicans"] = "Democrats"
    elections: bool = False
    commander_changes: bool = False
    invaded: list[Literal["NVN", "LAO", "KHM"]] = []
    may_invade: list[Literal["NVN", "LAO", "KHM"]] = []
    invasion_unrest: dict[Literal["NVN", "LAO", "KHM"], int] = {}
    secret_ops: bool = True
    republican_unrestricted: int = Field(default=0, ge=0)


class TrailSetup(Row):
    interdiction: bool = False
    markers: int = Field(default=6, ge=0, le=19)
    interdicted: list[str] = []


class SowAircraft(Row):
    id: str
    special_ops: int = Field(ge=1, le=10)


class SowSetup(Row):
    aircraft: list[SowAircraft]
    special_forces_ready: list[str] = []


EXTRA_BLOCKS = {"politics": PoliticsSetup, "trail": TrailSetup, "sow": SowSetup}


def with_extras(scenario, extras: dict):
    """The game option ``extras`` (a lesson's or a test's what-if): the scenario with its optional blocks replaced,
    e.g. ``{"politics": {"china": {"in_play": True, "source": ...}, "source": ...}}``, validated like the YAML
    blocks (a bad block raises DataError naming ``options.extras`` and the key)."""
    from pathlib import Path

    from pydantic import ValidationError

    from ..core.data import DataError
    from .scenario import _check_extras, _Checker, load_map, load_units

    if not isinstance(extras, dict) or set(extras) - set(EXTRA_BLOCKS):
        raise DataError(
            Path("options.extras"), f"extras must be a mapping with keys among {sorted(EXTRA_BLOCKS)}"
        )
    upd = {}
    for k, v in extras.items():
        try:
            upd[k] = EXTRA_BLOCKS[k].model_validate(v)
        except ValidationError as e:
            err = e.errors()[0]
            where = ".".join(str(x) for x in (k, *err["loc"]))
            raise DataError(Path("options.extras"), f"{where}: {err['msg']}") from None
    sc = scenario.model_copy(update=upd)
    ck = _Checker(Path("options.extras"), None)

    def check_turn(loc, t):  # pragma: no cover - the blocks name no turns
        return None

    _check_extras(sc, ck, load_units(), load_map(), check_turn)
    return sc
