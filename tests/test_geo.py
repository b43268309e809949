"""toolkit.to_geodataframe: points from x/y frames, LineStrings from routes, polygons from a FeatureCollection,
all in EPSG:4326; round trips through GeoParquet and GeoJSON keep the geometries."""
from __future__ import annotations

import pandas as pd
import pytest

import toolkit
from toolkit.errors import ParameterError

gpd = pytest.importorskip("geopandas")
SEOMYEON, NAMPO = (129.0592, 35.1579), (129.0325, 35.1000)


def test_places_become_points_with_their_columns_and_meta(tk):
    df = tk.local.category("CE7", x=SEOMYEON[0], y=SEOMYEON[1], radius=1000)
    gdf = toolkit.to_geodataframe(df)
    assert gdf.crs.to_epsg() == 4326 and len(gdf) == len(df) > 0
    assert (gdf.geometry.geom_type == "Point").all()
    assert gdf.geometry.x.tolist() == df["x"].tolist() and gdf.geometry.y.tolist() == df["y"].tolist()
    assert list(gdf.columns[:-1]) == list(df.columns) and gdf.attrs["meta"] == df.attrs["meta"]


def test_rows_without_coordinates_get_no_geometry():
    gdf = toolkit.to_geodataframe(pd.DataFrame({"x": [129.0, None], "y": [35.1, 35.2], "name": ["a", "b"]}))
    assert gdf.geometry.isna().tolist() == [False, True]


def test_route_roads_become_linestrings_and_directions_one_line_per_route(tk):
    r = tk.navi.directions(NAMPO, SEOMYEON)
    roads = toolkit.to_geodataframe(r.roads)
    assert (roads.geometry.geom_type == "LineString").all() and len(roads) == len(r.roads)
    first = r.roads["vertexes"][0]
    assert list(roads.geometry[0].coords)[0] == (first[0], first[1])
    routes = toolkit.to_geodataframe(r)
    assert len(routes) == len(r) and routes.crs.to_epsg() == 4326
    assert list(routes.geometry[0].coords) == [tuple(p) for p in r.coordinates(0)]


def test_region_polygons_from_the_control_api(tk):
    polygons = tk.sandbox.control("GET", "/sandbox/local/regions.geojson", params={"level": "sigungu"})
    gdf = toolkit.to_geodataframe(polygons)
    assert len(gdf) == len(polygons["features"]) > 0 and gdf.crs.to_epsg() == 4326
    assert set(gdf.geometry.geom_type) <= {"Polygon", "MultiPolygon"}
    # the point of Seomyeon lies in one of the districts
    assert gdf.contains(gpd.points_from_xy([SEOMYEON[0]], [SEOMYEON[1]])[0]).sum() == 1


def test_geoparquet_and_geojson_round_trips(tk, tmp_path):
    gdf = toolkit.to_geodataframe(tk.local.keyword("약국", x=SEOMYEON[0], y=SEOMYEON[1], radius=2000))
    gdf.to_parquet(tmp_path / "p.parquet")
    gdf.to_file(tmp_path / "p.geojson", driver="GeoJSON")
    for back in (gpd.read_parquet(tmp_path / "p.parquet"), gpd.read_file(tmp_path / "p.geojson")):
        assert back.crs.to_epsg() == 4326 and back.geometry.geom_equals_exact(gdf.geometry, 1e-9).all()


def test_refuses_what_has_no_geometry():
    with pytest.raises(ParameterError, match="x"):
        toolkit.to_geodataframe(pd.DataFrame({"a": [1]}))
    with pytest.raises(ParameterError, match="FeatureCollection"):
        toolkit.to_geodataframe({"type": "Feature"})
