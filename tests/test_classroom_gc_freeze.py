"""The class sandbox freezes the heap once a world is made (toolkit.sandbox.classroom.Classroom._freeze): the
worlds leave the garbage collector's generations, and the worlds replaced by resets are still released (a thaw
once they reach a quarter of the worlds, at least THAW_MIN), and all of them once the classroom closes."""
from __future__ import annotations

import gc
import weakref

from toolkit.sandbox.classroom import THAW_MIN, Classroom

SECRET = "a-class-secret-for-the-tests-0123456789"


def test_worlds_are_frozen_and_replaced_ones_are_still_released():
    room = Classroom(SECRET)
    try:
        room.world("ann")
        assert gc.get_freeze_count() > 0
        assert not any(o is room.world("ann").sandbox for o in gc.get_objects())   # out of every generation
        replaced = []
        for _ in range(3 * THAW_MIN):
            replaced.append(weakref.ref(room.world("ann").sandbox))
            room.reset("ann")
        gc.collect()
        alive = sum(r() is not None for r in replaced)
        assert alive <= THAW_MIN + 1, f"{alive} replaced worlds still held"
    finally:
        room.close()
    gc.collect()
    assert all(r() is None for r in replaced)
