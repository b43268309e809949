"""The place search's index: the search texts of every place as one array of code points, with the positions of
each character in character order, so that finding every place whose text holds a keyword is a few array
operations instead of a Python loop over 150,000 rows.

A keyword ``k`` is found by taking the positions of its rarest character (a slice of the sorted positions) and
keeping those where every other character of ``k`` sits at its offset (one vectorised gather per character);
the rows are where the surviving positions fall. The texts are joined by a new line (which no keyword holds:
keywords come from splitting a query on white space), so a match never spans two rows. The answer is exactly
``[i for i, t in enumerate(texts) if k in t]``.

The accuracy ranking finds the keyword in the names alone (a second such array); filters (category group,
rectangle, radius, region code prefix) are vectorised over the matching rows; only the documents a page shows
are made. The index never changes: the rows holding a keyword, and each name's best match of a keyword for
the ranking, are kept for the keywords searched last (:class:`Kept`, bounded by the bytes it holds), so a
keyword searched again costs no search of the texts.

>>> ix = PlaceIndex(["cafe|food", "bakery|cafe", "tea|drink"], names=["cafe", "bakery", "tea"])
>>> ix.rows_with(["cafe"]).tolist(), ix.rows_with(["ea"]).tolist(), ix.rows_with(["zz"]).tolist()
([0, 1], [2], [])
>>> ix.name_rank(ix.rows_with(["cafe"]), "cafe").tolist()       # equal, category only
[0, 3]
"""
from __future__ import annotations

import math
import sys
import threading
from collections import OrderedDict

import numpy as np

__all__ = ["Joined", "Kept", "PlaceIndex", "haversine_many", "top_order"]

EARTH_M = 6371008.8
KEPT_BYTES = 16 * 1024 * 1024     # the arrays kept for the keywords searched last, at most (per table), their
                                  # keys and entries counted: 3 tables (rows, names' best match, ranked rows)
KEPT_ENTRY_BYTES = 160            # an entry's own cost besides its key and arrays (dict slot and node, tuple)
_ARRAY_HEADER = sys.getsizeof(np.empty(0))   # an array's object without its data (~112 bytes)


class Kept:
    """Read-only arrays made by ``make(key)``, kept for the keys used last (least recently used dropped first), up
    to ``limit`` bytes in all. An entry counts its arrays' data and headers, its key and :data:`KEPT_ENTRY_BYTES`
    (measured: an entry of two empty arrays, a keyword that finds nothing, holds about 550 bytes; counting only
    the arrays' data counted it 0, so made-up keywords were kept without bound).

    >>> kept = Kept(lambda key: np.arange(key), limit=1000)
    >>> kept.get(3).tolist(), kept.get(3) is kept.get(3), kept.get(60).size, len(kept.items)  # 324 + 780 > 1000
    ([0, 1, 2], True, 60, 1)
    >>> empty = Kept(lambda key: np.empty(0), limit=10_000)
    >>> _ = [empty.get(str(i)) for i in range(1000)]; len(empty.items) < 50      # nothing found still costs
    True
    """

    def __init__(self, make, limit: int = KEPT_BYTES):
        self.make, self.limit = make, limit
        self.items: OrderedDict = OrderedDict()
        self.bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def _key_bytes(key) -> int:
        if isinstance(key, tuple):
            return sys.getsizeof(key) + sum(Kept._key_bytes(k) for k in key)
        return sys.getsizeof(key)

    @staticmethod
    def _size(key, value) -> int:
        arrays = value if isinstance(value, tuple) else (value,)
        return (sum(a.nbytes + _ARRAY_HEADER for a in arrays) + Kept._key_bytes(key) + KEPT_ENTRY_BYTES)

    def get(self, key):
        with self._lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
                return found
        value = self.make(key)
        for a in value if isinstance(value, tuple) else (value,):
            a.flags.writeable = False           # shared by every search that asks for it: never changed
        size = self._size(key, value)
        if size <= self.limit:
            with self._lock:
                if key not in self.items:
                    self.items[key] = value
                    self.bytes += size
                    while self.bytes > self.limit:
                        self.bytes -= self._size(*self.items.popitem(last=False))
        return value


class Joined:
    """Texts joined by a new line as one array of code points, with every position sorted by character."""

    def __init__(self, texts: list[str]):
        codes = np.frombuffer("\n".join(texts).encode("utf-32-le"), dtype=np.uint32)
        if codes.size and int(codes.max()) < 65536:   # a 16-bit sort is a radix sort: 2-3x faster
            codes = codes.astype(np.uint16)
        self.codes = codes
        lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
        self.lengths = lengths
        self.starts = np.zeros(len(texts), dtype=np.int64)
        if len(texts) > 1:
            np.cumsum(lengths[:-1] + 1, out=self.starts[1:])
        self.row_of = np.repeat(np.arange(len(texts), dtype=np.int32), lengths + 1)[:codes.size]   # position -> row
        order = np.argsort(codes, kind="stable")          # positions, by character, ascending within one
        self.sorted_codes = codes[order]
        self.order = order.astype(np.int32) if codes.size < 2 ** 31 else order

    def positions(self, needle: str) -> np.ndarray:
        """Ascending start positions of ``needle`` in the joined texts."""
        n = len(needle)
        cps = [ord(c) for c in needle]
        if not n or max(cps) > np.iinfo(self.codes.dtype).max:
            return np.empty(0, dtype=np.int64)
        wanted = np.asarray(cps, dtype=self.codes.dtype)     # the array's own type: no conversion of the index
        spans = list(zip(np.searchsorted(self.sorted_codes, wanted, "left").tolist(),
                         np.searchsorted(self.sorted_codes, wanted, "right").tolist()))
        k = min(range(n), key=lambda j: spans[j][1] - spans[j][0])      # the rarest character
        lo, hi = spans[k]
        pos = self.order[lo:hi].astype(np.int64) - k
        pos = pos[(pos >= 0) & (pos + n <= self.codes.size)]
        for j, c in enumerate(cps):
            if j != k and pos.size:
                pos = pos[self.codes[pos + j] == c]
        return pos


class PlaceIndex:
    """The search texts (name|category|group) of the places and, apart, their names (for the ranking)."""

    def __init__(self, texts: list[str], names: list[str]):
        self.text, self.names = Joined(texts), Joined(names)
        self.size = len(texts)
        self._rows = Kept(lambda needle: self._rows_of(self.positions(needle)))
        self._name_best = Kept(self._best_in_names)

    def positions(self, needle: str) -> np.ndarray:
        """Ascending start positions of ``needle`` in the joined search texts."""
        return self.text.positions(needle)

    def _rows_of(self, pos: np.ndarray) -> np.ndarray:
        rows = self.text.row_of[pos]
        if rows.size > 1:
            rows = rows[np.concatenate(([True], rows[1:] != rows[:-1]))]
        return rows

    def rows_with(self, needles: list[str], memo: dict | None = None) -> np.ndarray:
        """Ascending row numbers of the texts holding every needle (``memo``: positions already found for
        this search, by needle; the rows of any other needle are kept for the next searches). Read-only."""
        if not needles:
            return np.arange(self.size)
        found = None
        for needle in sorted(set(needles), key=len, reverse=True):
            rows = self._rows.get(needle) if memo is None or needle not in memo else \
                self._rows_of(memo[needle])
            found = rows if found is None else found[np.isin(found, rows, assume_unique=True)]
            if not found.size:
                break
        assert found is not None                # needles is not empty: the loop ran
        return found

    def name_rank(self, rows: np.ndarray, whole: str) -> np.ndarray:
        """Per row of ``rows`` (ascending): 0 name equals ``whole``, 1 starts with it, 2 holds it, else 3.
        Found in the names alone (far fewer matches than in the whole search texts)."""
        rank = np.full(rows.size, 3, dtype=np.int8)
        if not rows.size:
            return rank
        prow, best = self._name_best.get(whole)
        if not prow.size:
            return rank
        at = np.searchsorted(rows, prow)
        ok = (at < rows.size) & (rows[np.minimum(at, rows.size - 1)] == prow)
        rank[at[ok]] = best[ok]
        return rank

    def _best_in_names(self, whole: str) -> tuple[np.ndarray, np.ndarray]:
        """The rows whose name holds ``whole`` (ascending) and each one's best match: 0 equal, 1 starts, 2 holds."""
        N = self.names
        pos = N.positions(whole)
        if not pos.size:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int8)
        prow = N.row_of[pos]
        r = np.where(pos == N.starts[prow], np.where(N.lengths[prow] == len(whole), 0, 1), 2).astype(np.int8)
        first = np.flatnonzero(np.concatenate(([True], prow[1:] != prow[:-1])))   # positions ascend: rows too
        return prow[first], np.minimum.reduceat(r, first)                          # each row's best match


def haversine_many(x: float, y: float, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Metres from (x, y) to every (px, py) (WGS84), the formula of ``models.haversine``."""
    p1, p2 = math.radians(y), np.radians(py)
    dp, dl = p2 - p1, np.radians(px - x)
    a = np.sin(dp / 2) ** 2 + math.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2
    return 2 * EARTH_M * np.arcsin(np.sqrt(np.minimum(1.0, a)))


def top_order(keys: list[np.ndarray], k: int) -> np.ndarray:
    """Indices of the ``k`` smallest entries under the lexicographic order of ``keys`` (most significant
    first), in that order. Only the entries that can be among the first ``k`` are sorted."""
    n = keys[0].size
    if n > 4 * k > 0:
        primary = keys[0].astype(np.float64)
        if len(keys) > 1 and keys[0].dtype.kind in "iu":
            # an integer key and the next one in one non-decreasing summary: its k-th value bounds the candidates
            second = keys[1].astype(np.float64)
            primary = primary * (float(second.max()) - float(second.min()) + 1.0) + (second - float(second.min()))
        bound = np.partition(primary, k - 1)[k - 1]
        cand = np.flatnonzero(primary <= bound)
    else:
        cand = np.arange(n)
    order = np.lexsort([key[cand] for key in reversed(keys)])
    return cand[order[:k]] if k else cand[order]
