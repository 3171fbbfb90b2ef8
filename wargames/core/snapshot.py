"""Fast copies of game state for checkpoints (issue #13: instant Back).

``copy.deepcopy`` is general but slow on the many small dicts, sets and lists a game's state is made of.
:func:`fast_copy` copies those containers directly (sharing immutable leaves, keeping aliasing through a
memo like ``deepcopy``) and falls back to ``deepcopy`` for anything else.  A class with a ``_fast_copy(obj,
memo)`` function copies itself (entering the copy in the memo).  Objects listed in the memo
before the call (the game itself, its rules data) are shared, never copied.
"""

from __future__ import annotations

import copy
import types
from collections import Counter, defaultdict
from typing import Any

IMMUTABLE = (str, int, float, bool, type(None), bytes, complex, range)
# shared as they are, as copy.deepcopy does
ATOMIC = (type, types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType,
          types.LambdaType, property)


def fast_copy(obj: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of ``obj``; ``memo`` maps ids of objects already copied (or to share) to their copies."""
    if isinstance(obj, IMMUTABLE) or isinstance(obj, ATOMIC):
        return obj
    oid = id(obj)
    hit = memo.get(oid)
    if hit is not None:
        return hit
    cls = type(obj)
    if cls is dict:
        out: Any = {}
        memo[oid] = out
        for k, v in obj.items():
            out[k] = v if isinstance(v, IMMUTABLE) else fast_copy(v, memo)
    elif cls is list:
        out = []
        memo[oid] = out
        out.extend(v if isinstance(v, IMMUTABLE) else fast_copy(v, memo) for v in obj)
    elif cls is set or cls is frozenset:
        out = cls(obj)  # set elements are hashable, hence (in game state) immutable
        memo[oid] = out
    elif cls is tuple:
        if all(isinstance(v, IMMUTABLE) for v in obj):
            out = obj
        else:
            out = tuple(fast_copy(v, memo) for v in obj)
        memo[oid] = out
    elif cls is Counter:
        out = Counter(obj)  # counts are numbers
        memo[oid] = out
    elif cls is defaultdict:
        out = defaultdict(obj.default_factory)
        memo[oid] = out
        for k, v in obj.items():
            out[k] = fast_copy(v, memo)
    elif (copier := getattr(cls, "_fast_copy", None)) is not None:
        out = copier(obj, memo)  # a class that copies itself the fast way (the journalled containers, core.journal)
    elif isinstance(obj, dict) and hasattr(obj, "__dict__") and not hasattr(cls, "__deepcopy__"):
        out = cls.__new__(cls)  # a dict subclass with attributes (e.g. a placement with a reverse index)
        memo[oid] = out
        dict.update(out, {k: fast_copy(v, memo) for k, v in obj.items()})
        out.__dict__.update({k: fast_copy(v, memo) for k, v in vars(obj).items()})
    elif hasattr(obj, "__dict__") and not hasattr(obj, "__slots__") and not hasattr(cls, "__deepcopy__") \
            and cls.__reduce_ex__ is object.__reduce_ex__ and not isinstance(obj, (list, set, dict, type)):
        out = cls.__new__(cls)  # a plain object (e.g. a board): its attributes, copied the same way
        memo[oid] = out
        out.__dict__.update({k: fast_copy(v, memo) for k, v in vars(obj).items()})
    else:
        out = copy.deepcopy(obj, memo)
    return out
