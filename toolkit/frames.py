"""JSON → pandas helpers shared by every area.

Conventions: column names are the API's field names; nested objects are flattened with a dot
(``road_address.zone_no``); coordinates become float64; RFC 3339 strings and Unix seconds become tz-aware
UTC datetimes; the response's meta goes to ``df.attrs["meta"]``.

>>> df = frame([{"x": "129.07", "y": "35.17", "road_address": {"zone_no": "48058"}}],
...            floats=["x", "y"], meta={"total_count": 1})
>>> df.dtypes["x"], df["road_address.zone_no"][0], df.attrs["meta"]["total_count"]
(dtype('float64'), '48058', 1)
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import pandas as pd

__all__ = ["frame", "to_utc", "from_unix", "ordered", "STATUS_ORDER"]

STATUS_ORDER = ["UNKNOWN", "GREEN", "MAINTENANCE", "YELLOW", "RED"]
"""Status values from best known to worst; UNKNOWN first because it carries no information."""


def to_utc(values: Any) -> pd.Series | pd.Timestamp:
    """RFC 3339 / ISO strings (or dates) → tz-aware UTC datetimes; empty or missing → NaT."""
    return pd.to_datetime(values, utc=True, errors="coerce", format="ISO8601")


def from_unix(values: Any) -> pd.Series:
    """Unix seconds → tz-aware UTC datetimes."""
    return pd.to_datetime(pd.to_numeric(values, errors="coerce"), unit="s", utc=True)


def ordered(values: Iterable, categories: Sequence[str]) -> pd.Categorical:
    return pd.Categorical(values, categories=list(categories), ordered=True)


def frame(records: Sequence[Mapping[str, Any]] | None, *, columns: Sequence[str] | None = None,
          floats: Iterable[str] = (), ints: Iterable[str] = (), datetimes: Iterable[str] = (),
          unix: Iterable[str] = (), bools: Iterable[str] = (), categories: Mapping[str, Sequence[str]] | None = None,
          meta: Mapping[str, Any] | None = None, sep: str = ".") -> pd.DataFrame:
    """Build a typed DataFrame from a list of JSON objects.

    ``columns`` fixes the column order and guarantees the columns exist (empty results keep their shape).
    """
    records = list(records or [])
    df = pd.json_normalize(records, sep=sep) if records else pd.DataFrame()
    if columns is not None:
        for col in columns:
            if col not in df.columns:
                df[col] = pd.Series([None] * len(df), dtype="object")
        extra = [c for c in df.columns if c not in columns]
        df = df[list(columns) + extra]
    for col in floats:
        if col in df.columns:
            df[col] = pd.to_numeric(df[col].replace("", None), errors="coerce").astype("float64")
    for col in ints:
        if col in df.columns:
            df[col] = pd.to_numeric(df[col].replace("", None), errors="coerce").astype("Int64")
    for col in datetimes:
        if col in df.columns:
            df[col] = to_utc(df[col])
    for col in unix:
        if col in df.columns:
            df[col] = from_unix(df[col])
    for col in bools:
        if col in df.columns:
            df[col] = df[col].astype("boolean")
    for col, cats in (categories or {}).items():
        if col in df.columns:
            df[col] = ordered(df[col], cats)
    df.attrs["meta"] = dict(meta or {})
    return df
