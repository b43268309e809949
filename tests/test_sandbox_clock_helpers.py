"""tk.sandbox.freeze() / unfreeze(): the named clock helpers the walkthroughs use instead of raw control calls."""
from __future__ import annotations

import time


def test_freeze_sets_and_stops_the_clock_and_unfreeze_lets_it_tick(fresh_tk):
    frozen = fresh_tk.sandbox.freeze("2026-11-21T00:00:00Z")
    assert frozen["now"] == "2026-11-21T00:00:00Z" and frozen["frozen"] is True
    time.sleep(0.3)
    assert fresh_tk.sandbox.clock()["now"] == "2026-11-21T00:00:00Z"
    assert fresh_tk.sandbox.advance(hours=1)["now"] == "2026-11-21T01:00:00Z"
    assert fresh_tk.sandbox.freeze(None)["now"] == "2026-11-21T01:00:00Z"     # None keeps the instant
    ticking = fresh_tk.sandbox.unfreeze()
    assert ticking["frozen"] is False
    time.sleep(0.3)
    assert fresh_tk.sandbox.clock()["unix"] >= ticking["unix"]
    assert fresh_tk.sandbox.clock()["now"] != ticking["now"]
