"""Reading a cached value without running code: pickle restricted to the types a value of
gecscore's is made of.

A pickle names the globals it needs (a class to build, a function to call) and
:meth:`pickle.Unpickler.find_class` hands them over; a planted entry would name ``os.system``.
:class:`RestrictedUnpickler` hands over only:

- plain data types of the standard library (tuples, lists, dicts, sets, ``OrderedDict``,
  ``functools.partial`` and the ``copyreg`` helpers that rebuild objects);
- NumPy's array and scalar reconstruction (``ndarray``, ``dtype``, ``_reconstruct``,
  ``scalar``): no object arrays are written by gecscore, and ``allow_pickle`` is never needed;
- gecscore's own *dataclasses*, whose construction only assigns fields;
- the statistic functions registered with :func:`storable` (a leaderboard cell keeps the
  function that turns column means into its score, e.g. ``partial(m2_from_means, beta=0.5)``):
  pure functions of numbers, harmless whatever a planted entry passes them.

Any other global (a function of the standard library, a gecscore function that writes files
or calls a server, a class of another package) raises :class:`UnsafeEntry`, which the store
reads as a damaged entry: a miss, the file deleted, the value computed again.
"""
from __future__ import annotations

import dataclasses
import importlib
import io
import pickle
import sys
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable)

#: (module, name) of the statistic functions a cached value may refer to (:func:`storable`)
_STATISTICS: set[tuple[str, str]] = set()

_STANDARD = {
    ("builtins", name) for name in (
        "tuple", "list", "dict", "set", "frozenset", "bytearray", "bytes", "str", "int", "float",
        "complex", "bool", "slice", "range", "object")
} | {
    ("collections", "OrderedDict"), ("collections", "defaultdict"), ("functools", "partial"),
    ("copyreg", "_reconstructor"), ("copyreg", "__newobj__"), ("_codecs", "encode"),
}
_NUMPY_MODULES = ("numpy", "numpy.core.multiarray", "numpy._core.multiarray", "numpy.core.numeric",
                  "numpy._core.numeric", "numpy.dtypes")
_NUMPY_NAMES = {"ndarray", "dtype", "_reconstruct", "scalar", "_frombuffer", "frombuffer"}


class UnsafeEntry(pickle.UnpicklingError):
    """A cached entry names a global outside what a gecscore value is made of."""


def storable(function: F) -> F:
    """Declare ``function`` (a module-level, pure function of numbers) as one a cached value
    may refer to: a leaderboard cell's statistic. Returns it unchanged."""
    _STATISTICS.add((function.__module__, function.__qualname__))
    return function


def allowed(module: str, name: str) -> bool:
    """Whether an entry may name ``module.name`` (see the module docstring)."""
    if (module, name) in _STANDARD:
        return True
    if module in _NUMPY_MODULES or module.startswith("numpy.dtypes"):
        return name in _NUMPY_NAMES or (module == "numpy.dtypes" and name.endswith("DType"))
    if module == "gecscore" or module.startswith("gecscore."):
        if (module, name) in _STATISTICS:
            return True
        if "." in name or module.rsplit(".", 1)[-1] == "__main__":   # importing __main__ runs the CLI
            return False
        try:
            found = getattr(sys.modules.get(module) or importlib.import_module(module), name)
        except (ImportError, AttributeError):
            return False
        if (module, name) in _STATISTICS:   # registered on import of its module
            return True
        return isinstance(found, type) and dataclasses.is_dataclass(found)
    return False


class RestrictedUnpickler(pickle.Unpickler):
    """:class:`pickle.Unpickler` that resolves only :func:`allowed` globals."""

    def find_class(self, module: str, name: str) -> Any:
        if not allowed(module, name):
            raise UnsafeEntry(f"{module}.{name} is not a type a gecscore cache entry holds")
        return super().find_class(module, name)


def loads(data: bytes | memoryview) -> Any:
    """``pickle.loads`` through :class:`RestrictedUnpickler`."""
    return RestrictedUnpickler(io.BytesIO(data)).load()
