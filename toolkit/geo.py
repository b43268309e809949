"""A bridge to geopandas: any result with points, routes or polygons as a GeoDataFrame in EPSG:4326.

geopandas is an optional dependency (``pip install "social-api-toolkit[geo]"``), imported only when a GeoDataFrame is made.

* a frame with ``x``/``y`` columns (places, addresses, regions, geocoded or reverse-geocoded frames, guides,
  many-origin summaries) → one Point per row (a row without coordinates gets no geometry);
* a route frame with ``vertexes`` (``Directions.roads``) → one LineString per road; a
  :class:`~toolkit.navi.Directions` → one LineString per route (its ``geojson()``);
* a GeoJSON FeatureCollection (a dict), e.g. the region polygons of the sandbox's control API
  (``tk.sandbox.region_polygons("emd")``) → its features.

>>> gdf = to_geodataframe(tk.local.category("CE7", x=129.0592, y=35.1579, radius=500))   # doctest: +SKIP
>>> gdf.to_parquet("cafes.parquet"); gdf.to_file("cafes.geojson", driver="GeoJSON")     # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any

from .errors import ParameterError

__all__ = ["to_geodataframe", "CRS"]

CRS = "EPSG:4326"
"""WGS84 longitude/latitude: the coordinate system of every toolkit result (x = longitude, y = latitude)."""


def _geopandas():
    try:
        import geopandas
    except ImportError:
        raise ImportError('to_geodataframe needs geopandas: pip install "social-api-toolkit[geo]" (geopandas, '
                          'pyarrow; in a checkout: pip install -e ".[geo]")') from None
    return geopandas


def to_geodataframe(data: Any, *, x: str = "x", y: str = "y"):
    """``data`` as a ``geopandas.GeoDataFrame`` in EPSG:4326 (see the module docstring for what is accepted).

    The frame's columns, index and ``attrs`` are kept; the geometry column is ``geometry``.

    >>> import toolkit
    >>> gdf = toolkit.to_geodataframe(tk.local.address("전포동 341-17"))          # doctest: +SKIP
    >>> roads = toolkit.to_geodataframe(tk.navi.directions(a, b).roads)             # doctest: +SKIP
    >>> roads.to_crs(5179).length        # metres: EPSG:5179 (Korea 2000, metres); in EPSG:4326 .length is degrees   # doctest: +SKIP
    """
    gpd = _geopandas()
    import pandas as pd
    import shapely

    if isinstance(data, dict):
        if data.get("type") != "FeatureCollection":
            raise ParameterError("data", "a dict must be a GeoJSON FeatureCollection", data.get("type"))
        return gpd.GeoDataFrame.from_features(data["features"], crs=CRS)
    if hasattr(data, "geojson") and hasattr(data, "routes"):          # a Directions answer
        out = gpd.GeoDataFrame.from_features(data.geojson()["features"], crs=CRS)
        out.attrs["meta"] = {"trans_id": getattr(data, "trans_id", None)}
        return out
    if not isinstance(data, pd.DataFrame):
        raise ParameterError("data", "must be a DataFrame with x/y or vertexes, a Directions answer or a GeoJSON "
                                     "FeatureCollection", type(data).__name__)
    if "vertexes" in data.columns:
        lines = [shapely.LineString(list(zip(v[0::2], v[1::2]))) if v is not None and len(v) >= 4 else None
                 for v in data["vertexes"]]
        out = gpd.GeoDataFrame(data.drop(columns=["vertexes"]), geometry=lines, crs=CRS)
    elif x in data.columns and y in data.columns:
        xs = pd.to_numeric(data[x], errors="coerce").astype("float64")
        ys = pd.to_numeric(data[y], errors="coerce").astype("float64")
        out = gpd.GeoDataFrame(data, geometry=gpd.points_from_xy(xs, ys), crs=CRS)
        out.loc[xs.isna() | ys.isna(), "geometry"] = None
    else:
        raise ParameterError("data", f"needs {x!r}/{y!r} columns (points) or a 'vertexes' column (routes)",
                             list(data.columns)[:10])
    out.attrs = dict(data.attrs)
    return out
