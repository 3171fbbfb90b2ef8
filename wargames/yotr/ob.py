"""Orders of battle and Limited Strategic Intelligence (YOTR-OB, YOTR-LSI).

* YOTR-LSI: each player secretly numbers his six OB letters 1 to 6; one die roll picks both OBs; the Allied OB
  is revealed, the Communist one stays secret until the end.  The pick is a pure function here; the variant
  OBs C, D, E, F, L and M have no force tables in the text (D-29), so a game can only be started with the
  OBs the data holds (A and G).
"""

from __future__ import annotations

from collections.abc import Mapping

ALLIED_OBS = ("A", "B", "C", "D", "E", "F")
COMMUNIST_OBS = ("G", "H", "J", "K", "L", "M")


def lsi_pick(allied: Mapping[str, int], communist: Mapping[str, int], die: int) -> tuple[str, str]:
    """YOTR-LSI: the OB each player numbered with the die's value."""
    for letters, numbers in ((ALLIED_OBS, allied), (COMMUNIST_OBS, communist)):
        if sorted(numbers) != sorted(letters) or sorted(numbers.values()) != [1, 2, 3, 4, 5, 6]:
            raise ValueError(f"each of {letters} needs a different number from 1 to 6, got {dict(numbers)}")
    if not 1 <= die <= 6:
        raise ValueError(f"a die shows 1 to 6, not {die}")
    pick = {v: k for k, v in allied.items()}[die], {v: k for k, v in communist.items()}[die]
    return pick
