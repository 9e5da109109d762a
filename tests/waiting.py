"""Tests wait for events, not for times (issue 32, item 7): a loaded machine makes everything
slower, so a bound on how long something takes is a flaky test. The bounds here only stop a
test that hangs; they are never a performance assertion."""
from __future__ import annotations

import time
from typing import Callable

HANG_GUARD_S = 600.0   # reached only by a hang: the suite's own budget is 15 minutes


def wait_until(done: Callable[[], bool], what: str, poll_s: float = 0.05) -> None:
    """Poll ``done`` until it is true; fail naming ``what`` only after :data:`HANG_GUARD_S`."""
    deadline = time.monotonic() + HANG_GUARD_S
    while not done():
        assert time.monotonic() < deadline, f"{what}: still not after {HANG_GUARD_S:.0f} s (a hang)"
        time.sleep(poll_s)
