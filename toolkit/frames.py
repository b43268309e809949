"""JSON → pandas helpers shared by every area.

Conventions: column names are the API's field names; nested objects are flattened with a dot
(``road_address.zone_no``); coordinates become float64; RFC 3339 strings and Unix seconds become tz-aware
UTC datetimes; text is pandas' string dtype; the response's meta goes to ``df.attrs["meta"]``.

Every list-like result is built against a :class:`Schema` (its columns and their types, taken from the
spec's response fields), so an empty result has the same typed columns as a full one:

>>> s = Schema(["address_name", "x", "address.zone_no"], floats=["x"])
>>> empty, full = frame([], schema=s), frame([{"address_name": "a", "x": "1.5"}], schema=s)
>>> list(empty.columns) == list(full.columns), empty.dtypes.equals(full.dtypes)
(True, True)

>>> df = frame([{"x": "129.07", "y": "35.17", "road_address": {"zone_no": "48058"}}],
...            floats=["x", "y"], meta={"total_count": 1})
>>> df.dtypes["x"], df["road_address.zone_no"][0], df.attrs["meta"]["total_count"]
(dtype('float64'), '48058', 1)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

if TYPE_CHECKING:
    import pandas as pd
# pandas is imported inside the functions: area modules declare their schemas at import time, and importing
# an area must stay light.

__all__ = ["frame", "Schema", "to_utc", "from_unix", "ordered", "STATUS_ORDER", "TEXT"]

TEXT = "str"
"""The dtype of text columns: pandas' string dtype (missing values are NA)."""
DATETIME = "datetime64[us, UTC]"
"""The dtype of time columns (the same unit whether the result is empty or not)."""


@dataclass(frozen=True)
class Schema:
    """The columns of one list-like result and their types (the spec's response fields, flattened).

    Columns not named in a typed group are text (:data:`TEXT`). Columns the answer brings beyond the schema
    are kept after the schema's columns.
    """

    columns: Sequence[str]
    floats: Iterable[str] = ()
    ints: Iterable[str] = ()
    datetimes: Iterable[str] = ()
    unix: Iterable[str] = ()
    bools: Iterable[str] = ()
    categories: Mapping[str, Sequence[str]] = field(default_factory=dict)
    objects: Iterable[str] = ()
    """Columns holding lists or other non-text values (kept as object)."""

    def __post_init__(self):
        for name in ("columns", "floats", "ints", "datetimes", "unix", "bools", "objects"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        unknown = set(self.floats + self.ints + self.datetimes + self.unix + self.bools + self.objects
                      + tuple(self.categories)) - set(self.columns)
        if unknown:
            raise ValueError(f"typed columns not in the schema: {sorted(unknown)}")

    def __add__(self, other: "Schema") -> "Schema":
        """The columns of both (``self`` first), with both sets of types."""
        cols = list(self.columns) + [c for c in other.columns if c not in self.columns]
        # the typed groups are tuples (__post_init__ makes them so); unpacking keeps them tuples for mypy too
        return Schema(cols, (*self.floats, *other.floats), (*self.ints, *other.ints),
                      (*self.datetimes, *other.datetimes), (*self.unix, *other.unix), (*self.bools, *other.bools),
                      {**self.categories, **other.categories}, (*self.objects, *other.objects))

    def prefixed(self, prefix: str) -> "Schema":
        """The schema of a nested object flattened under ``prefix.``."""
        p = lambda names: [f"{prefix}.{n}" for n in names]  # noqa: E731
        return Schema(p(self.columns), p(self.floats), p(self.ints), p(self.datetimes), p(self.unix),
                      p(self.bools), {f"{prefix}.{k}": v for k, v in self.categories.items()}, p(self.objects))

    def empty(self) -> pd.DataFrame:
        """A typed frame with no rows."""
        return frame([], schema=self)


def _is_text(series: pd.Series) -> bool:
    if series.dtype != object:
        return False
    return all(isinstance(v, str) for v in series.dropna())


STATUS_ORDER = ["UNKNOWN", "GREEN", "MAINTENANCE", "YELLOW", "RED"]
"""Status values from best known to worst; UNKNOWN first because it carries no information."""


def to_utc(values: Any) -> pd.Series | pd.Timestamp:
    """RFC 3339 / ISO strings (or dates) → tz-aware UTC datetimes; empty or missing → NaT."""
    import pandas as pd

    return pd.to_datetime(values, utc=True, errors="coerce", format="ISO8601")


def from_unix(values: Any) -> pd.Series:
    """Unix seconds → tz-aware UTC datetimes."""
    import pandas as pd

    return pd.to_datetime(pd.to_numeric(values, errors="coerce"), unit="s", utc=True)


def ordered(values: Iterable, categories: Sequence[str]) -> pd.Categorical:
    import pandas as pd

    return pd.Categorical(values, categories=list(categories), ordered=True)


def frame(records: Sequence[Mapping[str, Any]] | None = None, *, columns: Sequence[str] | None = None,
          floats: Iterable[str] = (), ints: Iterable[str] = (), datetimes: Iterable[str] = (),
          unix: Iterable[str] = (), bools: Iterable[str] = (), categories: Mapping[str, Sequence[str]] | None = None,
          meta: Mapping[str, Any] | None = None, sep: str = ".", schema: Schema | None = None,
          objects: Iterable[str] = (), flatten: bool = True,
          data: Mapping[str, Sequence[Any]] | pd.DataFrame | None = None) -> pd.DataFrame:
    """Build a typed DataFrame from a list of JSON objects.

    ``schema`` (or ``columns`` with the typed groups) fixes the column order and guarantees the columns
    exist with their types, so empty results keep their shape. Text columns get pandas' string dtype.
    ``flatten=False`` keeps nested objects in one column instead of flattening them with ``sep``.
    ``data`` gives the values as columns instead (lists of one length, or an untyped frame): nothing is
    flattened, and the same types follow.

    >>> frame(data={"x": ["129.05", ""], "name": ["부산", None]}, floats=["x"]).dtypes.astype(str).tolist()
    ['float64', 'str']
    """
    import pandas as pd

    if schema is not None:
        columns = list(schema.columns)
        floats, ints = [*floats, *schema.floats], [*ints, *schema.ints]
        datetimes, unix = [*datetimes, *schema.datetimes], [*unix, *schema.unix]
        bools, objects = [*bools, *schema.bools], [*objects, *schema.objects]
        categories = {**schema.categories, **(categories or {})}
    if data is not None:
        df = data.copy(deep=False) if isinstance(data, pd.DataFrame) else pd.DataFrame(dict(data))
        if df.empty:
            df = pd.DataFrame(index=pd.RangeIndex(0))
    elif not (records := list(records or [])):
        df = pd.DataFrame(index=pd.RangeIndex(0))
    else:
        df = pd.json_normalize(records, sep=sep) if flatten else pd.DataFrame.from_records(records)
    if columns is not None:
        missing = {col: pd.Series([None] * len(df), index=df.index, dtype="object")
                   for col in columns if col not in df.columns}
        if missing:
            df = pd.concat([df, pd.DataFrame(missing, index=df.index)], axis=1)
        extra = [c for c in df.columns if c not in columns]
        df = df[list(columns) + extra]
    typed = set(floats) | set(ints) | set(datetimes) | set(unix) | set(bools) | set(objects) | set(categories or {})
    for col in df.columns:
        if col not in typed and _is_text(df[col]):
            df[col] = df[col].astype(TEXT)
    for col in floats:
        if col in df.columns and df[col].dtype != "float64":   # a column of ``data`` may be typed already
            df[col] = pd.to_numeric(df[col].replace("", None), errors="coerce").astype("float64")
    for col in ints:
        if col in df.columns:
            df[col] = pd.to_numeric(df[col].replace("", None), errors="coerce").astype("Int64")
    for col in datetimes:
        if col in df.columns:
            df[col] = to_utc(df[col]).astype(DATETIME)
    for col in unix:
        if col in df.columns:
            df[col] = from_unix(df[col]).astype(DATETIME)
    for col in bools:
        if col in df.columns:
            df[col] = df[col].astype("boolean")
    for col, cats in (categories or {}).items():
        if col in df.columns:
            df[col] = ordered(df[col], cats)
    df.attrs["meta"] = dict(meta or {})
    return df
