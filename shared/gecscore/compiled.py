"""numba's ``njit`` when numba is installed, else a no-op decorator (the kernels then run as
plain Python: correct, slow). Every compiled kernel of the library imports it from here."""
from __future__ import annotations

try:  # pragma: no cover - exercised when numba is installed
    from numba import njit

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    HAVE_NUMBA = False

    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda func: func
