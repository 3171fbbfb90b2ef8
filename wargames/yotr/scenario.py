"""Year of the Rat scenario files (``data/yotr/scenarios/*.yaml``): forces, deployment, options.

YOTR-SET: the Historical Game (historical deployment) and the Standard Game (free deployment) are scenario
files; YOTR-SET-SCEN: each names its OBs, deployment, reinforcement rule and rule options; YOTR-SR: the
special rules B, F, H and J and Victory Modification P are options of the scenario (off by default), and the
OB letters (YOTR-OB) switch on the ones they name.  YOTR-LSI: option ``lsi`` picks both OBs by die at set-up.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.data import ScenarioHead


class YotrOptions(BaseModel):
    """Rule options, each an implementer decision of ``data/yotr/decisions.csv`` (default first)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    rough_swamp_defence: Literal[1, 2] = 1  # D-01
    bridge_cancels_river_doubling: bool = True  # D-02
    isolated_attack_factor: float = 0.25  # D-13
    unsupplied_arvn_movement: float = 0.5  # D-14
    exact_fractions: bool = True  # D-15
    usa_may_attack: bool = True  # D-20
    communist_trail_rate: int | None = None  # D-44
    brt_rows_4_6: Literal["reconstructed"] = "reconstructed"  # D-09
    pinned: Literal["no_move"] = "no_move"  # D-07
    disrupted: Literal["no_move_no_attack"] = "no_move_no_attack"  # D-08
    bombard_dummies: Literal["roll_unrevealed"] = "roll_unrevealed"  # D-11
    hue_region: Literal["quang_nam"] = "quang_nam"  # D-53
    special_rule_f: bool = False  # YOTR-SR-F (US Intervention); off in the Historical and Standard Games
    special_rule_b: bool = False  # YOTR-SR-B (Pacification Deployment), free deployment only
    special_rule_h: bool = False  # YOTR-SR-H (Increased NLF Participation)
    special_rule_j: bool = False  # YOTR-SR-J (NVA Infiltration), free deployment only
    victory_modification_p: bool = False  # YOTR-VM-P (with Allied OB C or F)
    allied_ob: Literal["A", "B", "C", "D", "E", "F"] | None = None  # YOTR-OB: None = the scenario's
    communist_ob: Literal["G", "H", "J", "K", "L", "M"] | None = None  # YOTR-OB: None = the scenario's
    lsi: bool = False  # YOTR-LSI: the OBs are numbered by the players and picked by one die at set-up
    historical_positions: bool = True  # D-68: Historical Game counters on their reconstructed start hexes and
    # real/dummy supply split (False: the players deploy within the stated Regions, YOTR-DEP-COMM/-ALLIED)


class Scenario(ScenarioHead):
    """A Year of the Rat scenario (YOTR-SET-SCEN): its length, sides and rule options."""

    turns: int = Field(ge=1, le=13)
    players: Literal[2] = 2
    first_player: Literal["Communist"] = "Communist"
    allied_ob: Literal["A", "B", "C", "D", "E", "F"]  # YOTR-OB
    communist_ob: Literal["G", "H", "J", "K", "L", "M"]  # YOTR-OB
    deployment: Literal["historical", "free"]
    deployment_sequence: list[dict[str, Any]] = []
    reinforcements: Literal["exact", "may_delay"]
    victory: str
    special_rules: list[str] = []
    restrictions: list[str] = []
    options: YotrOptions = Field(default_factory=YotrOptions)  # built when needed, not at import (issue #21)
    turn_dates: dict[int, str] = {}
    variable_ob: dict[str, Any] = {}
    source: str
