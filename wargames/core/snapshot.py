"""Fast copies of game state for checkpoints (issue #13: instant Back).

``copy.deepcopy`` is general but slow on the many small dicts, sets and lists a game's state is made of.
:func:`fast_copy` copies those containers directly (sharing immutable leaves, keeping aliasing through a
memo like ``deepcopy``) and falls back to ``deepcopy`` for anything else.  A class with a ``_fast_copy(obj,
memo)`` function copies itself (entering the copy in the memo).  Objects listed in the memo
before the call (the game itself, its rules data) are shared, never copied.
"""

from __future__ import annotations

import copy
import copyreg
import gc
import io
import pickle
import struct
import sys
import types
from collections import Counter, defaultdict
from typing import Any

IMMUTABLE = (str, int, float, bool, type(None), bytes, complex, range)
# shared as they are, as copy.deepcopy does
ATOMIC = (
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.ModuleType,
    types.LambdaType,
    property,
)


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
        out = copier(
            obj, memo
        )  # a class that copies itself the fast way (the journalled containers, core.journal)
    elif isinstance(obj, dict) and hasattr(obj, "__dict__") and not hasattr(cls, "__deepcopy__"):
        out = cls.__new__(cls)  # a dict subclass with attributes (e.g. a placement with a reverse index)
        memo[oid] = out
        dict.update(out, {k: fast_copy(v, memo) for k, v in obj.items()})
        out.__dict__.update({k: fast_copy(v, memo) for k, v in vars(obj).items()})
    elif (
        hasattr(obj, "__dict__")
        and not hasattr(obj, "__slots__")
        and not hasattr(cls, "__deepcopy__")
        and cls.__reduce_ex__ is object.__reduce_ex__
        and not isinstance(obj, (list, set, dict, type))
    ):
        out = cls.__new__(cls)  # a plain object (e.g. a board): its attributes, copied the same way
        memo[oid] = out
        out.__dict__.update({k: fast_copy(v, memo) for k, v in vars(obj).items()})
    else:
        out = copy.deepcopy(obj, memo)
    return out


# ---------------------------------------------------------------------------- compact checkpoints (pickle)
def _set_container(obj: dict | set, state: tuple[dict | set, dict[str, Any]]) -> None:
    """Fill a dict or set subclass made by ``__new__``: items through the base class, attributes directly."""
    items, attrs = state
    (dict.update if isinstance(obj, dict) else set.update)(obj, items)
    for name, value in attrs.items():
        object.__setattr__(obj, name, value)


def _attributes(obj: Any) -> dict[str, Any]:
    """An object's attributes: its ``__dict__`` and its slots that are set."""
    attrs = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
    for name in copyreg._slotnames(type(obj)):  # type: ignore[attr-defined]
        if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
            attrs[name] = getattr(obj, name)
    return attrs


def _plain_pickling(cls: type, base: type) -> bool:
    """``cls``, a subclass of ``base``, does not define how it is pickled (``__reduce__``, ``__reduce_ex__`` and
    ``__getstate__`` are those of ``base``)."""
    return (
        cls.__reduce_ex__ is base.__reduce_ex__
        and cls.__reduce__ is base.__reduce__
        and getattr(cls, "__getstate__", None) is getattr(base, "__getstate__", None)
    )


class _Pickler(pickle.Pickler):
    """Pickles dict and set subclasses (a placement with its reverse index, a journalled container) as their items
    plus their attributes (``__dict__`` or slots), set back without calling the subclass's own ``__setitem__``,
    ``add`` or ``__setattr__`` (which may journal or index).  A subclass that defines its own pickling keeps it."""

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        if isinstance(obj, dict) and cls is not dict and _plain_pickling(cls, dict):
            return copyreg.__newobj__, (cls,), (dict(obj), _attributes(obj)), None, None, _set_container
        if isinstance(obj, set) and cls is not set and _plain_pickling(cls, set):
            return copyreg.__newobj__, (cls,), (set(obj), _attributes(obj)), None, None, _set_container
        return NotImplemented


def _prefix(n: int) -> bytes:
    """Pickle opcodes that put the ``n`` shared objects in the unpickler's memo at 0..n-1 (each asked of
    ``persistent_load`` by its number), so the blob's references to them (memo gets) resolve to them."""
    out = [pickle.PROTO + bytes([3])]
    for i in range(n):
        out.append(
            pickle.BININT
            + struct.pack("<i", i)
            + pickle.BINPERSID
            + pickle.LONG_BINPUT
            + struct.pack("<I", i)
            + pickle.POP
        )
    return b"".join(out)


def _distinct(shared: list[Any]) -> list[Any]:
    """``shared`` with each object once (the first time it is listed), the same for :func:`pack` and
    :func:`unpack`."""
    return list({id(obj): obj for obj in shared}.values())


def pack(value: Any, shared: list[Any]) -> bytes:
    """``value`` as one bytes blob (a checkpoint the cyclic collector never walks: bytes hold no references);
    the objects of ``shared`` (the game, its static data) are referred to by their place in that list, never
    copied.  :func:`unpack` with the same list of shared objects (or their counterparts in a branch) gives a
    deep copy of ``value``.

    The pickler's memo is preset with the shared objects (so it writes a memo get for each, with no Python
    call per object pickled), and the blob starts with the opcodes that put them in the unpickler's memo.  An
    object listed twice is kept once (:func:`_distinct`): the pickler numbers its own memo entries from the count
    of distinct objects, so a duplicate would make its first new entry take the last shared object's slot."""
    shared = _distinct(shared)
    buf = io.BytesIO()
    buf.write(_prefix(len(shared)))
    p = _Pickler(buf, protocol=3)  # 3: explicit memo indices (BINPUT), as the preset memo needs
    p.memo = {id(obj): (i, obj) for i, obj in enumerate(shared)}
    p.dump(value)
    return buf.getvalue()


def unpack(blob: bytes, shared: list[Any]) -> Any:
    """A fresh deep copy of what :func:`pack` packed, its shared objects taken from ``shared``."""
    u = pickle.Unpickler(io.BytesIO(blob))
    u.persistent_load = _distinct(shared).__getitem__
    return u.load()


def keep(value: Any, shared: list[Any]) -> bytes | Any:
    """A checkpoint of ``value``: :func:`pack`, or, for a state holding something pickle cannot write (a
    lambda, a local class), a :func:`fast_copy` (shared objects shared the same way)."""
    try:
        return pack(value, shared)
    except (pickle.PicklingError, TypeError, AttributeError):
        return fast_copy(value, {id(obj): obj for obj in shared})


def restore(kept: bytes | Any, shared: list[Any]) -> Any:
    """A fresh deep copy of what :func:`keep` kept."""
    if isinstance(kept, bytes):
        return unpack(kept, shared)
    return fast_copy(kept, {id(obj): obj for obj in shared})


# ---------------------------------------------------------------------------- static data out of the collector's way
#: set False before loading a game to keep the collector as it is (see :func:`settle_static_data`)
SETTLE_STATIC_DATA = True
#: modules imported since the last settling that make a load settle again (a library such as pandas: hundreds)
SETTLE_AFTER_MODULES = 50
_SETTLED: set[str] = set()
_modules_settled = 0  # len(sys.modules) when the static data was last settled


def settle_static_data(key: str) -> bool:
    """When a game (``key``) is loaded for the first time in the process, or after many modules were imported
    since the last time (:data:`SETTLE_AFTER_MODULES`, e.g. pandas imported after the first game): collect the
    garbage, then move every object then alive (the rules data, maps and scenario tables just loaded and cached,
    the modules) out of the reach of Python's cyclic garbage collector (``gc.freeze()``).  Returns whether it did.

    Why: a full pass of the collector walks every tracked object of the process, and the games' static data and
    the libraries are most of them; without this an occasional Back took 60-140 ms of which 50-110 ms were one
    full pass (``benchmarks/results/back.md``).  Frozen objects are still freed when nothing refers to them; only
    a reference cycle alive at that moment and dropped later (e.g. a game held then, and dropped) is never
    reclaimed.  It is called before the loaded game's procedures start, so that game is not yet in such a cycle.
    Set :data:`SETTLE_STATIC_DATA` to False to opt out."""
    global _modules_settled
    if not SETTLE_STATIC_DATA:
        return False
    if key in _SETTLED and len(sys.modules) - _modules_settled < SETTLE_AFTER_MODULES:
        return False
    _SETTLED.add(key)
    gc.collect()
    gc.freeze()
    _modules_settled = len(sys.modules)
    return True
