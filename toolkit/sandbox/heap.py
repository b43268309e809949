"""The C heap of a process that is a sandbox server (``toolkit sandbox``): settled so that its resident memory
levels off over days of requests.

glibc's malloc, as configured by default, let a sandbox under load keep memory it had freed: each thread that
allocates (the event loop, the thread pool running routes and tiles) may get an arena of its own, up to eight
per core, and after the first large block (a search's arrays of 150,000 places are ~1 MB each) is freed the
threshold above which blocks are mapped on their own rises to that size, so later large blocks are cut from the
arenas, whose freed pages stay resident between blocks still in use. Measured with ``tests/bench/bench_soak.py``
(150 s of varied requests, the caches already bounded): 759 MB resident at the end and still growing with the
defaults, 665 MB and level from the 80th second with two arenas and a fixed 128 kB threshold, at the same rate.

Only a server process is settled (``toolkit sandbox`` and ``toolkit classroom`` call :func:`settle` before any thread
starts); a sandbox embedded in a notebook's kernel leaves the kernel's heap alone. Off glibc (macOS, musl) it
does nothing.

>>> settle()          # doctest: +SKIP
True
"""
from __future__ import annotations

import ctypes

__all__ = ["settle", "ARENAS", "MMAP_THRESHOLD"]

M_MMAP_THRESHOLD = -3    # mallopt parameters (glibc's malloc.h)
M_ARENA_MAX = -8
ARENAS = 2
"""Arenas at most: the event loop's and one for the worker threads."""
MMAP_THRESHOLD = 128 * 1024
"""Blocks of this size or larger are mapped on their own and unmapped when freed (glibc's initial value, fixed:
it no longer rises to the largest block freed)."""


def settle(arenas: int = ARENAS, mmap_threshold: int = MMAP_THRESHOLD) -> bool:
    """Ask glibc's malloc for at most ``arenas`` arenas and to map every block of ``mmap_threshold`` bytes or
    more on its own. Call it before the process starts threads. True when both were applied."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, arenas)) & bool(mallopt(M_MMAP_THRESHOLD, mmap_threshold))
